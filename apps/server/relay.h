/* relay.h: requests and events between the server processes that share
 * one PostgreSQL, over its LISTEN/NOTIFY (the default) or over Redis
 * pub/sub (relay_backend.h: the two transports). A client may be connected to
 * any process; a request for a table that another process runs is sent
 * to that one (RELAY_REQUEST), which answers it as if the client were
 * its own and sends the replies and events back (RELAY_MESSAGE); the
 * client's process says when the client has gone (RELAY_GONE).
 *
 * A process is known by its id: the backend pid of its storage connection
 * (storage_server_id()), which is also who holds its tables' locks; it
 * listens on the channel "carc_ID" (one Redis serves one cluster: its
 * channels are Redis-wide). Texts longer than a notification's payload
 * (8000 bytes) go in parts. Sending and the owner cache belong to
 * the service thread; a thread of the relay's own listens and hands
 * whole items over (relay_take()), waking the service with `wake`. */
#ifndef CARC_SERVER_RELAY_H
#define CARC_SERVER_RELAY_H

#include <stddef.h>
#include <stdint.h>

#include "storage.h"

typedef struct relay relay;

/* RELAY_RESET: the sender lost items (its Redis connection was lost and
 * came back): what the receiver relayed to or from it may be missing. */
typedef enum relay_kind { RELAY_REQUEST, RELAY_MESSAGE, RELAY_GONE, RELAY_RESET } relay_kind;

/* One item that arrived. */
typedef struct relay_item {
    relay_kind kind;
    int from;        /* the sending process's id */
    uint64_t client; /* the client's id at the process it is connected to */
    char addr[STORED_ADDR_BYTES];
    char *text; /* the request or message (malloc'ed, NUL-terminated; the taker frees it) */
    size_t len;
} relay_item;

/* A relay for process `self` of the cluster on the database of `db_uri`:
 * over Redis when `relay_uri` is "redis://HOST[:PORT]" (two Redis
 * connections and one PostgreSQL connection of its own), else over
 * LISTEN/NOTIFY on that database (two PostgreSQL connections). NULL with a
 * message in `err` on failure. */
relay *relay_new(const char *db_uri, const char *relay_uri, int self, void (*wake)(void *ctx),
                 void *ctx, char *err, size_t errcap);
void relay_free(relay *r);
/* Whether `uri` names a Redis relay ("redis://..."). */
int relay_is_redis(const char *uri);
/* The transport's name: "postgresql" or "redis". */
const char *relay_name(const relay *r);

/* Queues an item for process `to`; relay_flush() sends what was queued,
 * in order, in one round trip (after the pass's commit: what is sent was
 * stored). -1 when the database is lost. */
void relay_send(relay *r, int to, relay_kind kind, uint64_t client, const char *addr,
                const char *text, size_t len);
int relay_flush(relay *r);

/* Takes the next whole item that arrived: 1, or 0 when there is none. */
int relay_take(relay *r, relay_item *out);

/* Whether a connection was lost that the server must start over for
 * (PostgreSQL's; the Redis transport connects again by itself). */
int relay_lost(relay *r);
/* Whether items can be sent now: 0 while the Redis transport connects
 * again (what is sent meanwhile is dropped). */
int relay_up(relay *r);
/* How many times items may have been lost so far (a Redis connection
 * lost): when it changes, the server resynchronises the clients whose
 * requests or events cross processes. */
unsigned relay_gaps(relay *r);

/* Which process runs `table`, as last seen: its id, or 0 when not known;
 * relay_remember() records it, relay_forget() forgets every table of
 * process `id` (it died). */
int relay_owner(const relay *r, const char *table);
void relay_remember(relay *r, const char *table, int owner);
void relay_forget(relay *r, int id);

/* Whether process `id` is still connected to the database: 1, 0, or -1
 * when that cannot be told. */
int relay_alive(relay *r, int id);

#endif
