/* tables.h: the server's tables: seats, tokens, the authoritative games,
 * the requests that act on them and the events they cause. Runs on the
 * service thread only; knows nothing of sockets (net.c) or of threads
 * (workers.c): it talks to them through srv_hooks. */
#ifndef CARC_SERVER_TABLES_H
#define CARC_SERVER_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "carcassonne.h"
#include "message.h"
#include "outbox.h"
#include "storage.h"

enum {
    CLIENT_MAX_TABLES = 16, /* tables one connection may follow at once */
    CHAT_KEPT = 50,
    CLIENT_MAX_ERRORS = 100,          /* errors counted, then the connection is closed */
    CLIENT_ERROR_FORGIVEN_MS = 10000, /* one counted error is forgotten this often */
};

/* At a table whose clock hands a late turn to the computer, a seat whose
 * player is away forfeits (abandoned) when its clock runs out once more
 * after the computer played this many of its turns in a row. */
#define TABLE_ABANDON_TURNS 2
/* A rematch asked at a finished table lapses after this long. */
#define TABLE_REMATCH_MS (2LL * 60 * 1000)
/* Who plays the seat of a player who resigned a game of 3 or more. */
#define TABLE_RESIGNED_SPEC "mcts:level=easy"
/* A waiting table that nobody has followed for this long is closed. */
#define TABLE_IDLE_CLOSE_MS (24LL * 3600 * 1000)

struct srv_table;

/* A connection as the tables see it. The network layer owns it and
 * calls tables_client_gone() before freeing it. */
typedef struct srv_client {
    uint64_t id;
    int from; /* 0, or a client of server process `from` whose requests come by the relay */
    char addr[STORED_ADDR_BYTES];
    int njoined;
    struct srv_table *joined[CLIENT_MAX_TABLES];
    int64_t last_chat_ms;
    /* Error replies counted (rate_limited is not: a client after a stall
     * is not abusive), one forgotten every CLIENT_ERROR_FORGIVEN_MS since
     * errors_ms; more than CLIENT_MAX_ERRORS and the connection closes. */
    int errors;
    int64_t errors_ms;
    /* The account its WebSocket upgrade's session cookie named (0: a
     * guest), its name, and that session's hash, looked at again in
     * storage before a request acts for the account (net.c): a session
     * ended elsewhere (logout, the account deleted) ends here too. */
    int64_t account;
    char account_name[STORED_ACCOUNT_NAME_BYTES];
    uint8_t session_hash[STORED_SESSION_HASH_BYTES];
} srv_client;

/* What the tables need from the rest of the server. */
typedef struct srv_hooks {
    void *ctx;
    /* Queues message `m` for client `c` (taking a reference). */
    void (*send)(void *ctx, srv_client *c, srv_msg *m);
    /* Asks for a computer move for turn `turn` of table `table`, made from
     * address `addr` (a copy of the game is made by the callee): the answer
     * comes back through tables_computer_move(). Returns 0 when queued. */
    int (*think)(void *ctx, const char *table, const char *addr, int turn, const carc_game *g,
                 const char *spec);
    /* Asks for the review of a finished game; the answer comes back
     * through tables_review_done(). Returns the jobs ahead, or -1. */
    int (*review)(void *ctx, const char *table, const carc_game *g, int ms);
    /* Wall clock in milliseconds since 1970. */
    int64_t (*now_ms)(void *ctx);
    /* Asks for the engine's analysis of turn `turn` of table `table`, made
     * from address `addr` (a copy of the game is made by the callee): the answer comes back
     * through tables_analysis_done(). Returns 0 when queued. */
    int (*analyse)(void *ctx, const char *table, const char *addr, int turn, const carc_game *g);
    /* Stops the analyses of `table` for turns before `turn` (may be NULL):
     * their answers come back all the same, sooner. */
    void (*cancel_analysis)(void *ctx, const char *table, int turn);
    /* Asks for the replay of the record `text` (copied by the callee) as
     * job `job`, asked from address `addr` (`tile`: -1; or the kind of
     * the tile drawn for a `position` answer instead): the answer comes
     * back through tables_replay_done(). Returns 0 when queued. When NULL,
     * records are replayed on the calling thread. */
    int (*replay)(void *ctx, uint64_t job, const char *addr, const char *text, int tile);
    /* Turn `turn` of table `table` became seat `seat`'s, a seat of account
     * `account`, to be played by `deadline_ms` (ms since 1970; -1 when the
     * table has no clock): its webhook (webhooks.h). May be NULL. */
    void (*turn)(void *ctx, const char *table, int turn, int seat, int64_t account,
                 int64_t deadline_ms);
} srv_hooks;

typedef struct srv_limits {
    int max_tables;                   /* waiting and playing tables in all */
    int max_tables_per_addr;          /* waiting and playing tables created from one address */
    int max_computer_tables_per_addr; /* ... of them with computer seats only */
} srv_limits;

typedef struct srv_tables srv_tables;

/* Counters for the operator (GET /api/stats). */
typedef struct srv_stats {
    long replays_computed; /* `replay` answers computed (each record once while it is kept) */
    long replays_cached;   /* ... and requests answered with a kept or a shared one */
    long reviews_asked;    /* reviews queued (a request joining one is not counted) */
} srv_stats;

/* A registry over `store` (borrowed). NULL when out of memory. */
srv_tables *tables_new(storage *store, const srv_hooks *hooks, const srv_limits *limits);
/* Frees every table; the outbox's unsent messages are dropped. */
void tables_free(srv_tables *T);

/* Loads every unfinished table from storage and replays its game; asks for
 * the moves of computer seats to move. A table that does not replay is
 * skipped (a message on stderr) and left in storage. 0 on success, -1 with
 * `err` when storage cannot be read. */
int tables_load(srv_tables *T, char *err, size_t errcap);

/* Whether table `id` is run by this process, or can be (finished, or
 * taken over now: no process runs it); 0 when another process runs it,
 * or there is none. */
int tables_has(srv_tables *T, const char *id);
/* Whether table `id` is in this process's memory (no database read). */
int tables_loaded(const srv_tables *T, const char *id);

/* Handles one decoded request of client `c`: its reply and events go to
 * the outbox. */
void tables_request(srv_tables *T, srv_client *c, const msg_request *r);
/* Queues the error reply `code` for a request of `c` that carried `id`
 * (NULL: none). */
void tables_error(srv_tables *T, srv_client *c, const msg_id *id, msg_error code,
                  const char *message);
/* Whether `c` has had more counted errors than CLIENT_MAX_ERRORS. */
int tables_client_abusive(const srv_client *c);
/* Client `c` has gone: its seats are away, its queued messages dropped. */
void tables_client_gone(srv_tables *T, srv_client *c);
/* The answer of a think hook: `move` (record notation) for `turn`. A
 * stale answer (the table moved on, or is gone) is dropped. */
void tables_computer_move(srv_tables *T, const char *table, int turn, const char *move);
/* The answer of a replay hook for job `job`: the `replay` answer's fields
 * as JSON text (taken), or NULL when the record does not replay, with
 * `error`. Goes to every request waiting for it. */
void tables_replay_done(srv_tables *T, uint64_t job, char *fields, const char *error);
/* The answer of a review hook: the `review` event's JSON text (taken). */
void tables_review_done(srv_tables *T, const char *table, char *json_moves);
/* The answer of an analyse hook for `turn`: hints and estimates go to who
 * asked. A stale answer (the table moved on, or is gone) is dropped. */
void tables_analysis_done(srv_tables *T, const char *table, int turn, const srv_analysis *a);
/* Checks the clocks at time `now_ms`: a seat whose time ran out at the
 * previous check too (so that the input waiting in between was read) is
 * played by the computer or forfeits. With several servers, takes over
 * the tables whose server died. Returns the number taken over. */
int tables_tick(srv_tables *T, int64_t now_ms);

/* The server's loop did not run for `ms` milliseconds (the process was
 * stopped, or starved): the clocks are not charged for that time. */
void tables_stalled(srv_tables *T, int64_t ms);

/* Ends the pass: commits its writes, then hands its messages to the send
 * hook in order. -1 when the commit failed: nothing of the pass is durable
 * and its messages are dropped; the server must stop (a restart recovers
 * the last committed state). */
int tables_flush(srv_tables *T);

/* The record of table `id` as text (malloc'ed; the caller frees it), or
 * NULL when there is no such table. `*finished` says whether the game
 * ended. */
char *tables_record(srv_tables *T, const char *id, int *finished);

/* The counters so far. */
const srv_stats *tables_stats(const srv_tables *T);

/* Tables waiting or playing. */
int tables_live(const srv_tables *T);

#endif
