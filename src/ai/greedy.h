/* greedy.h: the greedy player (greedy.c). */
#ifndef CARC_AI_GREEDY_H
#define CARC_AI_GREEDY_H

#include "carcassonne_ai.h"

/* The legal moves of `g`, best first by the evaluation after each, into `out`
 * (up to `cap`); returns how many it wrote. `info` is never NULL. */
int ai_greedy_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                   carc_search_info *info);

#endif
