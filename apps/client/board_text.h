/* board_text.h: the board and the drawn tile as plain text, for the
 * line-oriented human player of `carcassonne connect`. */
#ifndef CARC_BOARD_TEXT_H
#define CARC_BOARD_TEXT_H

#include <stdio.h>

#include "carcassonne.h"

/* Prints the board of `g` with X labels above and Y labels at the left;
 * the last tile placed has its labels in [brackets]. */
void board_text_print(FILE *out, const carc_game *g);
/* Prints tile `kind` in its four rotations side by side, labelled 0..3. */
void board_text_print_tile(FILE *out, int kind);

#endif
