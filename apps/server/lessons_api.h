/* lessons_api.h: the tutorial's progress kept in an account
 * (docs/server-protocol.md, "Lessons"): GET /api/lessons and POST
 * /api/lessons/done, as JSON in and out. http_api.c reads the request and
 * sends the reply; this file decides it, over the storage. */
#ifndef CARC_SERVER_LESSONS_API_H
#define CARC_SERVER_LESSONS_API_H

#include <jansson.h>
#include <stdint.h>

#include "storage.h"

enum {
    LESSONS_MAX_ASKED = 64, /* lesson ids in one POST, at most */
};

/* Each answers one request of `account` (an account's id: logged in) at
 * `now_ms` with a new JSON object and its HTTP status in `*status`: the
 * answer (200), or {"error", "message"} (400 bad input, 500 storage
 * failed). Bad input changes nothing.
 *
 * lessons_api_list(): {"done": [ids, oldest first]}. lessons_api_done():
 * `body` {"lessons": [ids]} (1 to LESSONS_MAX_ASKED ids, each 1 to 32 of
 * a-z, 0-9 and '-'): each marked finished (kept once, with its first
 * time), then the list as lessons_api_list() gives it. */
json_t *lessons_api_list(storage *store, int64_t account, unsigned *status);
json_t *lessons_api_done(storage *store, int64_t account, json_t *body, int64_t now_ms,
                         unsigned *status);

#endif
