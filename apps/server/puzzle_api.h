/* puzzle_api.h: the puzzles' HTTP routes (docs/server-protocol.md,
 * "Puzzles"): GET /api/puzzles/daily, GET /api/puzzles/next and POST
 * /api/puzzles/ID/attempt, as JSON in and out. http_api.c reads the
 * request and sends the reply; this file decides it, over the set and the
 * storage. */
#ifndef CARC_SERVER_PUZZLE_API_H
#define CARC_SERVER_PUZZLE_API_H

#include <jansson.h>
#include <stdint.h>

#include "puzzle_set.h"
#include "storage.h"

/* Each answers one request of `account` (0: a guest) at `now_ms` with a
 * new JSON object and its HTTP status in `*status`: the answer (200), or
 * {"error", "message"} (400 bad input, 404 no such puzzle or no set, 500
 * storage failed). Bad input changes nothing.
 *
 * puzzle_api_daily(): the puzzle of the UTC day. puzzle_api_next(): a
 * puzzle the account has not attempted whose rating is nearest its
 * puzzle rating; for a guest, nearest `rating` (the query's text, NULL:
 * 1500), other than the ids of `exclude` (comma-separated, NULL: none).
 * puzzle_api_attempt(): the answer `body` ({"move", and for a guest
 * "rating", "rd", "volatility", "streak"}) to puzzle `id`: right or
 * wrong, the best move and why, and the new ratings (stored for an
 * account's first attempt at the puzzle; a guest's are only computed). */
json_t *puzzle_api_daily(const puzzle_set *set, storage *store, int64_t account, int64_t now_ms,
                         unsigned *status);
json_t *puzzle_api_next(const puzzle_set *set, storage *store, int64_t account, const char *rating,
                        const char *exclude, unsigned *status);
json_t *puzzle_api_attempt(const puzzle_set *set, storage *store, int64_t account, const char *id,
                           json_t *body, int64_t now_ms, unsigned *status);

#endif
