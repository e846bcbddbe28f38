/* relay_backend.h: what a relay transport provides (relay_pg.c:
 * PostgreSQL's LISTEN/NOTIFY; relay_redis.c: Redis pub/sub), in the way
 * storage_backend.h does for the storage, and what relay.c gives it back.
 * Only the relay*.c files include it.
 *
 * A transport carries payloads (relay.c's framing: a header line and a
 * part of a text, never more than `part_bytes` of text, no NUL) to the
 * channel of one process, in the order they were queued, and hands every
 * payload that arrives on its own channel to relay_received() from a
 * listening thread of its own. */
#ifndef CARC_SERVER_RELAY_BACKEND_H
#define CARC_SERVER_RELAY_BACKEND_H

#include <libpq-fe.h>
#include <stddef.h>

#include "relay.h"

typedef struct relay_transport {
    const char *name;
    size_t part_bytes; /* of the text, in one payload */
    /* Connects to `uri`, listens on process `self`'s channel (the
     * listening is in place when it returns) and starts the listening
     * thread. `db` is the relay's PostgreSQL connection of the service
     * thread, which the transport may send with. Its state, or NULL with a
     * message in `err`. */
    void *(*open)(relay *r, const char *uri, PGconn *db, int self, char *err, size_t errcap);
    /* Stops the listening thread (relay_stopping() is already true) and
     * frees everything. */
    void (*close)(void *state);
    /* Queues `payload` (`len` bytes) for process `to`; -1 when it cannot. */
    int (*queue)(void *state, int to, const char *payload, size_t len);
    /* Sends what was queued, in order; 0, or -1 when the connection was lost. */
    int (*flush)(void *state);
    /* Whether its connections were lost (the server starts over). */
    int (*lost)(void *state);
    /* Whether it carries payloads now (NULL: always, or lost); a transport
     * that connects again by itself is down meanwhile, and calls
     * relay_mark_gap() when payloads were lost. */
    int (*up)(void *state);
} relay_transport;

extern const relay_transport relay_pg_transport;
extern const relay_transport relay_redis_transport;

/* For the listening threads: one payload that arrived (NUL-terminated;
 * anything malformed is dropped); the wake-up of the service thread once
 * a batch arrived; the listening connection lost; whether to stop (a
 * thread looks at least every 200 ms). */
void relay_received(relay *r, const char *payload);
void relay_wake(relay *r);
void relay_mark_lost(relay *r);
void relay_mark_gap(relay *r); /* payloads may have been lost (any thread) */
int relay_stopping(relay *r);

#endif
