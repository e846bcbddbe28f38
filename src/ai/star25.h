/* star25.h: the Star2.5 expectimax baseline (star25.c). */
#ifndef CARC_AI_STAR25_H
#define CARC_AI_STAR25_H

#include "carcassonne_ai.h"

/* The legal moves of `g`, best first by their expectimax values, into `out`
 * (up to `cap`); returns how many it wrote. `info` is never NULL. */
int ai_star25_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                   carc_search_info *info);

#endif
