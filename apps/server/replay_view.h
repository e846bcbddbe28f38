/* replay_view.h: a record replayed move by move, for the `replay` request
 * (the browser's replay viewer). */
#ifndef CARC_SERVER_REPLAY_VIEW_H
#define CARC_SERVER_REPLAY_VIEW_H

#include <jansson.h>
#include <stddef.h>

/* The reply's fields for the record `text` (`len` bytes):
 * {"players":N,"rules":[...],"start":{...},"moves":[{"turn","player",
 * "move","events","scores","followers"}, ...],"scores":[...],"deal":
 * {"status","text"}}; every move carries the board's followers and the
 * scores after it; `deal` is the fair-deal check (deal_check.h): a record
 * whose deal is forged still replays, with "mismatch". NULL with a message
 * in `err` when the record does not read. New reference. */
json_t *replay_view(const char *text, size_t len, char *err, size_t errcap);

#endif
