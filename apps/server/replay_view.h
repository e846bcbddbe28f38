/* replay_view.h: a record replayed move by move, for the `replay` request
 * (the browser's replay viewer). */
#ifndef CARC_SERVER_REPLAY_VIEW_H
#define CARC_SERVER_REPLAY_VIEW_H

#include <jansson.h>
#include <stddef.h>

#include "carcassonne.h"

/* The reply's fields for the record `text` (`len` bytes):
 * {"players":N,"rules":[...],"start":{...},"moves":[{"turn","player",
 * "move","events","scores","followers"}, ...],"scores":[...],"deal":
 * {"status","text"}}; every move carries the board's followers and the
 * scores after it; `deal` is the fair-deal check (deal_check.h): a record
 * whose deal is forged still replays, with "mismatch". NULL with a message
 * in `err` when the record does not read. New reference. */
json_t *replay_view(const char *text, size_t len, char *err, size_t errcap);

/* Makes `kind`, the tile move `i` of `g` placed, the tile to play on `h`
 * (the same game replayed up to move `i`): the tile the record says was
 * drawn, or with hand=N the hand's tile, once the draws of `g`'s draw
 * log made before move `i` (from `*next_draw` on) are named on `h`. 0, or
 * -1 when that does not replay. */
int replay_take_tile(const carc_game *g, carc_game *h, int *next_draw, int i, int kind);

/* The `position` reply's fields: the legal moves of the next turn of the
 * record `text` (`len` bytes) with the tile `kind` drawn, as the `legal`
 * reply lists them ({"turn","player","tile","figures","placements",
 * "discard","second_part"}), and the scores so far; with a hand of tiles,
 * `kind` is the hand's tile held and `hand` lists each hand tile's moves.
 * NULL with a message in `err` when the record does not read, its game is
 * over, or no tile of `kind` can be drawn next (is not in the hand). New
 * reference. */
json_t *position_view(const char *text, size_t len, int kind, char *err, size_t errcap);

#endif
