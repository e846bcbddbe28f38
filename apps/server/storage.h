/* storage.h: where tables and moves are kept. A small interface, so that
 * a backend other than SQLite (PostgreSQL, shared by several servers) can
 * follow; nothing outside storage_*.c knows which one is in use.
 *
 * Writes go into one transaction that stays open until storage_commit():
 * the server commits once per pass of its event loop, before it tells
 * anyone what the pass changed. Each write call is atomic by itself: when
 * it fails (-1) nothing of it is left in the transaction. */
#ifndef CARC_SERVER_STORAGE_H
#define CARC_SERVER_STORAGE_H

#include <stddef.h>
#include <stdint.h>

#include "message.h"
#include "token.h"

enum {
    /* Every move draws a tile (the start tile is none), and `end`: 72 in
     * the base game, 84 with The River and river-keep-start. */
    STORED_MAX_MOVES = CARC_MAX_TILES,
    STORED_MOVE_BYTES = 32, /* "discard RD", "RE -12 7 3 NNW": 18 at most today */
    STORED_ID_BYTES = 16,
    STORED_ADDR_BYTES = 48,
};

/* TABLE_CLOSED: a waiting table nobody came back to; never loaded again. */
typedef enum table_status {
    TABLE_WAITING,
    TABLE_PLAYING,
    TABLE_FINISHED,
    TABLE_CLOSED
} table_status;

/* A seat as stored. A human seat is taken when it has a token. */
typedef struct stored_seat {
    seat_kind kind; /* SEAT_OPEN, SEAT_INVITE (not taken yet, or taken), SEAT_COMPUTER;
                       a created "me" seat is stored as SEAT_OPEN, taken */
    int taken;
    char name[MSG_NAME_BYTES + 1];
    char spec[MSG_SPEC_BYTES + 1];
    uint8_t token_hash[TOKEN_HASH_BYTES];
    uint8_t invite_hash[TOKEN_HASH_BYTES];
} stored_seat;

/* How a move was made, the `by` of the move event. */
typedef enum move_by { BY_PLAYER, BY_COMPUTER, BY_SERVER } move_by;

typedef struct stored_move {
    char text[STORED_MOVE_BYTES]; /* record notation, or "end" */
    move_by by;
    int64_t at_ms; /* wall clock, milliseconds since 1970 */
} stored_move;

/* Everything a table is made of, as stored; enough to replay it. */
typedef struct stored_table {
    char id[STORED_ID_BYTES];
    int64_t created_ms;
    table_status status;
    int players;
    uint32_t rules;      /* CARC_RULE_* */
    uint32_t expansions; /* CARC_EXPANSION_*: the tile set */
    /* carc_rules's valued rules (hand=N, table=WxH); with `rules` they are
     * stored as the rules' text (carc_rules_format), see stored_rules() */
    uint8_t hand, table_w, table_h;
    table_info info;
    msg_clock clock;
    int listed;
    int estimates; /* hints and win chances allowed at this table */
    uint64_t seed;
    uint8_t salt[TOKEN_SECRET_BYTES];
    char addr[STORED_ADDR_BYTES]; /* the creator's address, for the limits */
    int forfeit;                  /* the seat that forfeited, or -1 */
    int creator;                  /* the seat its creator took ("me"), or -1 */
    int64_t started_ms;           /* when the last seat was filled, or 0 */
    stored_seat seats[CARC_MAX_PLAYERS];
    int nmoves;
    stored_move moves[STORED_MAX_MOVES];
} stored_table;

/* The whole rules of a stored table. */
static inline carc_rules stored_rules(const stored_table *t)
{
    return (carc_rules){.flags = t->rules,
                        .expansions = t->expansions,
                        .hand = t->hand,
                        .table_w = t->table_w,
                        .table_h = t->table_h};
}

typedef struct storage storage;

/* Opens (creating when needed) the database at `path`. NULL on failure,
 * with a message in `err`. Close with storage_close(), which rolls back an
 * uncommitted transaction. */
storage *storage_open(const char *path, char *err, size_t errcap);
void storage_close(storage *s);
/* The message of the last failure. */
const char *storage_error(const storage *s);

/* Writes (each atomic; 0 on success, -1 on failure). A database that
 * another process keeps locked fails the first write of a pass after a
 * short wait (200 ms) and the pass's later writes at once. */
int storage_create_table(storage *s, const stored_table *t);
int storage_update_seat(storage *s, const char *id, int seat, const stored_seat *st,
                        int64_t started_ms);
/* Appends move number `turn` (0-based) and sets the table's status and
 * forfeit in the same step. */
int storage_append_move(storage *s, const char *id, int turn, const stored_move *m,
                        table_status status, int forfeit);
/* Sets a table's status (finishing it without a move, for instance). */
int storage_set_status(storage *s, const char *id, table_status status, int forfeit);
/* Makes every write since the last commit durable and ends the pass. 0
 * when done (or when there was nothing to commit), -1 on failure (then
 * nothing of the pass is kept). */
int storage_commit(storage *s);
/* Whether writes wait for storage_commit(). */
int storage_pending(const storage *s);

/* Reads. storage_list() calls `each` with the id of every table whose
 * status is in `statuses` (bit 1 << status), oldest first; `each`
 * returning nonzero stops. 0 on success, -1 on failure. */
int storage_list(storage *s, unsigned statuses, int (*each)(void *ctx, const char *id), void *ctx);
/* Reads table `id`: 1 when found, 0 when there is none, -1 on failure. */
int storage_load_table(storage *s, const char *id, stored_table *out);

/* Built on the two reads above, for every backend (storage.c): calls
 * `each` for every table that is waiting or playing, oldest first, with a
 * buffer it reuses; `each` returning nonzero stops. 0 on success, -1 on
 * failure. */
int storage_load_unfinished(storage *s, int (*each)(void *ctx, const stored_table *t), void *ctx);
/* The rules of a table as a backend stores them beside the `rules` flags
 * (a text column since SQLite schema version 5): carc_rules_format() of
 * stored_rules(), "table-edge-completes table=9x9" ("" when it would not
 * fit `cap`); and back: `text` ("" or NULL for a row stored before: the
 * flags alone) sets the rules' flags and valued rules of `t`. */
void storage_rules_text(const stored_table *t, char *buf, size_t cap);
void storage_rules_read(stored_table *t, const char *text);

#endif
