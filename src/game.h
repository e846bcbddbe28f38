/* game.h: the turn code's calls for the library's own players (game.c;
 * not public). */
#ifndef CARC_GAME_H
#define CARC_GAME_H

#include "state.h"

/* Plays `m`, a move of the lists of legal moves of `g` itself (its
 * placements, figures or discard): carc_game_play() without the check
 * and without events. The searches play such moves by the million: it is
 * their call (declared for them in ai/eval.h, passed to a layout's build
 * by layout.def's line). A move that is not legal corrupts the state. */
void ai_play_known(carc_game *g, carc_move m);

#endif
