/* replays.h: the answers of the `replay` request: the answers kept, by
 * the digest of the record replayed (and a finished table's by its id),
 * and the replays the workers are computing with the requests that wait
 * for each. The replay itself runs on the worker pool; this module only
 * remembers. Service thread only. */
#ifndef CARC_SERVER_REPLAYS_H
#define CARC_SERVER_REPLAYS_H

#include <stdint.h>

#include "message.h"
#include "storage.h"
#include "token.h"

enum {
    REPLAYS_KEPT = 64,            /* answers kept (the least recently used goes) */
    REPLAYS_PENDING_PER_ADDR = 4, /* different records one address may have computed at once */
    REPLAYS_PENDING = 256,        /* replays being computed in all */
    REPLAYS_WAITERS = 1024,       /* requests waiting for one replay */
    REPLAYS_ERROR_BYTES = 200,
};

/* An answer: the reply's fields as JSON text ("{...}"), or an error. */
typedef struct replay_answer {
    char *fields; /* malloc'ed; NULL for an error */
    int position; /* a `position` answer (else a `replay` one) */
    msg_error code;
    char error[REPLAYS_ERROR_BYTES];
} replay_answer;

typedef struct srv_replays srv_replays;

/* Called for each request waiting for a replay that is done, with the
 * client that sent it (still connected) and its request id. */
typedef void (*replay_waiter_fn)(void *ctx, void *client, const msg_id *id, const replay_answer *a);

/* NULL when out of memory. */
srv_replays *replays_new(void);
/* Frees the kept answers and the waiting requests (they get no answer). */
void replays_free(srv_replays *R);

/* The key of the record `text`: SHA-256 of its bytes. */
void replays_key(const char *text, size_t len, uint8_t key[TOKEN_HASH_BYTES]);
/* The key of a `position` request: SHA-256 of a NUL byte (which no record
 * sent holds), the tile's id and the record, so that it is never a
 * record's key. 0, or -1 when out of memory. */
int replays_position_key(const char *text, size_t len, const char *tile,
                         uint8_t key[TOKEN_HASH_BYTES]);

/* The answer kept for the finished table `table` (when not NULL and not
 * "") or for the record whose key is `key` (when not NULL); NULL when none.
 * The answer stays valid until the next call that changes `R`. */
const replay_answer *replays_find(srv_replays *R, const char *table,
                                  const uint8_t key[TOKEN_HASH_BYTES]);

/* Adds the request `id` of `client` (asked from address `addr`) to the
 * replay of the record `key` being computed (`position`: a `position`
 * request's, whose key covers its tile too), or starts one: then `*job`
 * is its new job number, which the caller queues on the workers; when it
 * joined one, `*job` is 0. A finished table's replay gives `table`, so
 * that its answer is also kept by the table's id. `fails` is the error
 * code when the record does not replay. Returns 0, or -1 when `addr` has
 * REPLAYS_PENDING_PER_ADDR other records being computed, or
 * REPLAYS_PENDING are, or out of memory. */
int replays_wait(srv_replays *R, const uint8_t key[TOKEN_HASH_BYTES], const char *table,
                 const char *addr, int position, msg_error fails, void *client, const msg_id *id,
                 uint64_t *job);

/* Job `job` could not be queued: its waiting requests are dropped (the
 * caller answers them). */
void replays_cancel(srv_replays *R, uint64_t job);

/* Job `job` is done: `fields` (taken; NULL when it failed with `error`)
 * is kept as the answer, and `each` is called for every waiting request
 * whose client is still there. Returns the number of requests answered;
 * -1 when no such job waits (it was cancelled). */
int replays_done(srv_replays *R, uint64_t job, char *fields, const char *error,
                 replay_waiter_fn each, void *ctx);

/* `client` has gone: its waiting requests are forgotten. */
void replays_client_gone(srv_replays *R, const void *client);

#endif
