/* game.h: the turn code's calls for the library's own players (game.c;
 * not public). */
#ifndef CARC_GAME_H
#define CARC_GAME_H

#include "state.h"

/* Plays `m`, a move of the lists of legal moves of `g` itself (its
 * placements, figures or discard): carc_game_play() without the check
 * and without events, for the searches, which play such moves by the
 * million (ai_play_known, eval.h). A move that is not legal corrupts the
 * state. */
void game_play_known(carc_game *g, carc_move m);

#endif
