/* net.h: the learned player's inputs inside the library (net.c).
 *
 * The public calls (carcassonne_ai.h: carc_net_*) read a .carcnet file,
 * compute the inputs of a position and of its moves and run the network.
 * The search (mcts.c) has the full evaluation of a position at hand when
 * it wants the network's opinion, so these take it instead of computing
 * it again. docs/learning.md lists every input. */
#ifndef CARC_AI_NET_H
#define CARC_AI_NET_H

#include "carcassonne_ai.h"
#include "eval.h"

/* The position inputs of `g` from `viewer`'s side, given the full
 * evaluation of `g` (ai_evaluate_full_terms: `values` and `terms`). */
void net_position_inputs(const carc_game *g, int viewer, const double values[CARC_MAX_PLAYERS],
                         const double terms[CARC_MAX_PLAYERS][AI_TERMS],
                         float out[CARC_NET_POSITION_INPUTS]);

/* The inputs of move `m` of the player to move in `before`: `after` is
 * `before` with `m` played, `values` and `terms` its full evaluation. */
void net_move_inputs(const carc_game *before, const carc_game *after, carc_move m,
                     const double values[CARC_MAX_PLAYERS],
                     const double terms[CARC_MAX_PLAYERS][AI_TERMS],
                     float out[CARC_NET_MOVE_INPUTS]);

#endif
