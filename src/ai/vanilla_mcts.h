/* vanilla_mcts.h: the UCT baseline, vanilla-mcts (vanilla_mcts.c). */
#ifndef CARC_AI_VANILLA_MCTS_H
#define CARC_AI_VANILLA_MCTS_H

#include "carcassonne_ai.h"

/* The legal moves of `g`: the most visited of the search first, into `out`
 * (up to `cap`); returns how many it wrote. `info` is never NULL. */
int ai_vanilla_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                    carc_search_info *info);

#endif
