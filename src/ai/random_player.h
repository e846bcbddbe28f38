/* random_player.h: the uniformly random player (random_player.c). */
#ifndef CARC_AI_RANDOM_PLAYER_H
#define CARC_AI_RANDOM_PLAYER_H

#include "carcassonne_ai.h"

/* The random player's choice first, then the other legal moves of `g` in
 * random order, into `out` (up to `cap`); returns how many it wrote.
 * `info` is never NULL. */
int ai_random_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                   carc_search_info *info);

#endif
