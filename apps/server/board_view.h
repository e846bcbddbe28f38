/* board_view.h: the board as a client draws it: the start tile and the
 * followers standing now, so that a client needs no rules to know which
 * followers went home. */
#ifndef CARC_SERVER_BOARD_VIEW_H
#define CARC_SERVER_BOARD_VIEW_H

#include <jansson.h>

#include "carcassonne.h"

/* {"tile":"D","x":0,"y":0,"rot":0}: the first tile on the board (with The
 * River, the spring RA). New reference. */
json_t *board_view_start(const carc_game *g);
/* [{"x":..,"y":..,"spot":"NNW","player":p,"figure":"follower"}, ...]:
 * every follower on the board, in placement order; `spot` names the
 * follower's segment as the record does (a port of it, "C" for a
 * cloister, "F" for a field with no ports); `figure` is "follower" or
 * "large" (Inns & Cathedrals). New reference. */
json_t *board_view_followers(const carc_game *g);

/* The record's name of segment `seg` of a placed tile: its first port in
 * board directions, or "C" when it holds none (a cloister), "F" for a
 * field that holds none (IH's). Static text. */
const char *board_view_spot(const carc_tile_on_board *b, int seg);

/* A move's scoring events as the `move` event shows them ("kind",
 * "complete", "winners", "points", "tiles", "pennants", "x", "y",
 * "returned"), for `players` players. New reference. */
json_t *board_view_events(const carc_event *events, int n, int players);

/* [[x, y], ...]: the dead spots, empty squares next to the board that no
 * tile still to come (the pile and the drawn tile) fits. New reference. */
json_t *board_view_dead(const carc_game *g);

#endif
