/* hint_view.h: hints for a player against the computer, for the `hint`
 * request: the engine's three best moves by its evaluation and every
 * player's expected final score. */
#ifndef CARC_SERVER_HINT_VIEW_H
#define CARC_SERVER_HINT_VIEW_H

#include "table.h"

/* The reply's fields for seat `seat` of `t`: {"turn":..,"moves":[{"move",
 * "margin"}, ...],"expected":[...]}, moves only when the seat is to move.
 * NULL when the game is not running or another seat is not a computer
 * (hints are for games against the computer). New reference. */
json_t *hint_view(const srv_table *t, int seat);

#endif
