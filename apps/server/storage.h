/* storage.h: where tables, moves, chat and reviews are kept. A small
 * interface with two backends (storage_backend.h): SQLite, a file of one
 * server, and PostgreSQL, shared by several servers; nothing outside
 * storage*.c knows which one is in use.
 *
 * Writes go into one transaction that stays open until storage_commit():
 * the server commits once per pass of its event loop, before it tells
 * anyone what the pass changed. Each write call is atomic by itself: when
 * it fails (-1) nothing of it is left in the transaction. */
#ifndef CARC_SERVER_STORAGE_H
#define CARC_SERVER_STORAGE_H

#include <stddef.h>
#include <stdint.h>

#include "first_seat.h"
#include "message.h"
#include "token.h"

enum {
    /* Every move draws a tile (the start tile is none), and `end`: 72 in
     * the base game, 84 with The River and river-keep-start. */
    STORED_MAX_MOVES = CARC_MAX_TILES,
    STORED_MOVE_BYTES = 32, /* "discard RD", "RE -12 7 3 NNW": 18 at most today */
    STORED_ID_BYTES = 16,
    STORED_ADDR_BYTES = 48,
    STORED_ACCOUNT_NAME_BYTES = 21, /* a user name, 3 to 20 bytes, and its NUL */
    STORED_PWHASH_BYTES = 128,      /* an argon2id hash string and its NUL */
    STORED_SESSION_HASH_BYTES = 32, /* the SHA-256 of a session token */
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
    /* the account whose player took the seat: 0 none (a guest, or not
     * taken), STORED_DELETED_ACCOUNT one deleted since (SQLite schema
     * version 9, PostgreSQL's 5) */
    int64_t account;
} stored_seat;

#define STORED_DELETED_ACCOUNT (-1)

/* An account as stored (SQLite schema version 9, PostgreSQL's 5): its
 * name as signed up (unique without regard to case) and its password's
 * argon2id hash. */
typedef struct stored_account {
    int64_t id; /* 1, 2, ...: never given again, even once deleted */
    char name[STORED_ACCOUNT_NAME_BYTES];
    char hash[STORED_PWHASH_BYTES];
    int64_t created_ms;
    /* disabled by the operator (`carcassonne admin disable`): it has no
     * session and cannot log in (SQLite schema version 11, PostgreSQL's 7) */
    int disabled;
} stored_account;

/* How a move was made, the `by` of the move event. */
typedef enum move_by { BY_PLAYER, BY_COMPUTER, BY_SERVER } move_by;

typedef struct stored_move {
    char text[STORED_MOVE_BYTES]; /* record notation, or "end" */
    move_by by;
    int64_t at_ms;     /* wall clock, milliseconds since 1970 */
    int64_t paused_ms; /* of the move's turn, the time the server was stalled: not
                          charged to the mover's clock */
} stored_move;

/* Everything a table is made of, as stored; enough to replay it. */
typedef struct stored_table {
    char id[STORED_ID_BYTES];
    int64_t created_ms;
    table_status status;
    int players;
    /* The whole rules: stored as the flags, the expansions and the rules'
     * text (carc_rules_format), which carries the valued rules (hand=N,
     * table=WxH); see storage_rules_text() */
    carc_rules rules;
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
    int64_t paused_ms;            /* of the current turn, the time the server was stalled so far
                                     (SQLite schema version 8, PostgreSQL's 4) */
    int rated;                    /* a rated game (SQLite schema version 10, PostgreSQL's 6) */
    /* how the first seat was chosen (a draw-off's draws), or "": `state`'s
     * `first` (SQLite schema version 7, PostgreSQL's 3) */
    char first_text[FIRST_TEXT_BYTES];
    stored_seat seats[CARC_MAX_PLAYERS];
    int nmoves;
    stored_move moves[STORED_MAX_MOVES];
} stored_table;

/* A chat line as stored: line `n` of its table (0, 1, 2, ...). */
typedef struct stored_chat {
    int seat; /* -1: a spectator */
    char name[MSG_NAME_BYTES + 1];
    char text[MSG_CHAT_BYTES + 1];
    int64_t at_ms;
} stored_chat;

typedef struct storage storage;

/* Opens the database at `where`: a PostgreSQL connection URI
 * ("postgresql://..." or "postgres://...", libpq's syntax) selects the
 * PostgreSQL backend, anything else is the path of an SQLite file. The
 * schema is created or brought to this server's version. NULL on failure,
 * with a message in `err`. Close with storage_close(), which rolls back an
 * uncommitted transaction. */
storage *storage_open(const char *where, char *err, size_t errcap);
/* Whether `where` names a PostgreSQL database. */
int storage_is_postgres(const char *where);
/* The backend's name: "sqlite" or "postgresql". */
const char *storage_backend_name(const storage *s);
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
 * forfeit in the same step (and the paused time of the next turn to 0). */
int storage_append_move(storage *s, const char *id, int turn, const stored_move *m,
                        table_status status, int forfeit);
/* Takes back the moves from number `nmoves` on (a takeback: a move taken
 * back is no move; the record keeps only the moves that stand), and sets
 * the paused time of the turn again to play to 0. */
int storage_truncate_moves(storage *s, const char *id, int nmoves);
/* Sets the time not charged to the current turn's clock (the server was
 * stalled); storage_append_move() sets it back to 0. */
int storage_set_paused(storage *s, const char *id, int64_t paused_ms);
/* Sets a table's status (finishing it without a move, for instance). */
int storage_set_status(storage *s, const char *id, table_status status, int forfeit);
/* Stores chat line number `n` (0-based) of table `id`. */
int storage_add_chat(storage *s, const char *id, int n, const stored_chat *line);
/* Stores the review of finished table `id` (the `review` event's `moves`
 * JSON), replacing the one before. */
int storage_set_review(storage *s, const char *id, const char *json);
/* Makes every write since the last commit durable and ends the pass. 0
 * when done (or when there was nothing to commit), -1 on failure (then
 * nothing of the pass is kept). */
int storage_commit(storage *s);
/* Whether writes wait for storage_commit(). */
int storage_pending(const storage *s);
/* Pipelined writes (PostgreSQL; nothing with SQLite, whose writes stay in
 * the process): a write is sent without waiting for its answer and
 * returns 0 once sent; every answer is read and checked in one round trip
 * at the commit (or before the next read). A write the database refused
 * or failed then makes storage_commit() fail with nothing of the pass
 * kept, and storage_lost() true until the next write or read reconnects:
 * what the server holds in memory is no longer what is stored, and it
 * starts over, as when the database is lost. Without it, one round trip
 * a write. */
void storage_pipeline(storage *s, int on);

/* Reads. storage_list() calls `each` with the id of every table whose
 * status is in `statuses` (bit 1 << status), oldest first; `each`
 * returning nonzero stops. 0 on success, -1 on failure. */
int storage_list(storage *s, unsigned statuses, int (*each)(void *ctx, const char *id), void *ctx);
/* Calls `each` with the id of each listed table that is waiting or
 * playing, newest first, at most `max` (the lobby). 0, or -1 on failure. */
int storage_list_listed(storage *s, int max, int (*each)(void *ctx, const char *id), void *ctx);
/* Reads table `id`: 1 when found, 0 when there is none, -1 on failure. */
int storage_load_table(storage *s, const char *id, stored_table *out);

/* Reads the last `cap` chat lines of table `id` into `out`, oldest first;
 * `*total` is the number of lines ever said. The number read, or -1 on
 * failure. */
int storage_load_chat(storage *s, const char *id, stored_chat *out, int cap, int *total);
/* Reads tables ids[0..n) with the last `chat_cap` chat lines of each, in
 * a few round trips where the backend can (PostgreSQL: a pipeline for
 * dozens of tables; a takeover reads thousands), and calls `each` for
 * each id in order: with its table, or NULL when there is none, and its
 * chat lines as storage_load_chat() gives them. 0, or -1 on failure (some
 * may have been passed on before it). */
typedef void (*storage_loaded_fn)(void *ctx, const char *id, const stored_table *t,
                                  const stored_chat *chat, int nchat, int total);
int storage_load_tables(storage *s, const char (*ids)[STORED_ID_BYTES], int n, int chat_cap,
                        storage_loaded_fn each, void *ctx);
/* Reads the review of table `id` into `*json` (malloc'ed; the caller
 * frees it): 1 when found, 0 when there is none, -1 on failure. */
int storage_load_review(storage *s, const char *id, char **json);

/* Which server process runs a table. With PostgreSQL several servers
 * share the database and each waiting or playing table is run by one of
 * them at a time: the one that holds its advisory lock (on its
 * connection, so that the lock goes when the process dies or loses the
 * connection). The database refuses a move of a table from a connection
 * that does not hold it while another does. With SQLite the one server
 * runs every table.
 *
 * storage_claim(): 1 when this process runs table `id` now (or already
 * did: call it once per table), 0 when another one does, -1 on failure.
 * storage_release(): lets go of it (a table finished and let go of).
 * storage_claim_orphans(): claims at most `max` of the waiting or playing
 * tables that no process runs (their server died), oldest first, and
 * calls `each` with the id of each one claimed. 0, or -1 on failure. */
int storage_claim(storage *s, const char *id);
/* This process's id among the servers on the database (PostgreSQL: its
 * connection's backend pid), 0 with SQLite; and the id of the process
 * that runs table `id`: 0 when none does (or with SQLite), -1 on
 * failure. */
int storage_server_id(const storage *s);
int storage_owner(storage *s, const char *id);
void storage_release(storage *s, const char *id);
int storage_claim_orphans(storage *s, int max, void (*each)(void *ctx, const char *id), void *ctx);
/* Whether the database was lost (its connection broke: PostgreSQL
 * stopped or restarted); the server then starts over, once it is back. */
int storage_lost(const storage *s);

/* Accounts and their sessions. The writes join the pass's transaction
 * like the others (committed by storage_commit()), but their answers are
 * known at once, also with PostgreSQL's pipeline: a refusal (a name
 * taken) changes nothing and leaves the pass's other writes alone. The
 * reads see the pass's writes.
 *
 * storage_create_account(): 0 with its id in `*id`, 1 when the name's
 * key (`name_key`, the name in lower case) is taken, -1 on failure.
 * storage_find_account(): the account whose name has key `name_key`: 1,
 * 0 when none, -1. storage_set_password(): 0, 1 when there is no such
 * account, -1. storage_delete_account(): the account, its sessions, its
 * finished lessons and its name go; its seats stay, as STORED_DELETED_ACCOUNT's named
 * "deleted player" (ACC_DELETED_NAME); 0, 1 when there was none, -1. */
int storage_create_account(storage *s, const char *name, const char *name_key, const char *hash,
                           int64_t created_ms, int64_t *id);
int storage_find_account(storage *s, const char *name_key, stored_account *out);
int storage_set_password(storage *s, int64_t id, const char *hash);
int storage_delete_account(storage *s, int64_t id);
/* storage_create_session(): a session of account `account` kept under
 * `hash` (the token's SHA-256) until `expires_ms`; 0, -1.
 * storage_find_session(): the account of the session `hash` when it
 * exists and has not expired at `now_ms`: 1 (the account in `*out`), 0,
 * -1. storage_delete_session(): 0 (also when there was none), -1.
 * storage_delete_sessions(): every session of `account` but `keep` (NULL:
 * every one), and every expired one of it; 0, -1. */
int storage_create_session(storage *s, const uint8_t hash[STORED_SESSION_HASH_BYTES],
                           int64_t account, int64_t created_ms, int64_t expires_ms);
int storage_find_session(storage *s, const uint8_t hash[STORED_SESSION_HASH_BYTES], int64_t now_ms,
                         stored_account *out);
int storage_delete_session(storage *s, const uint8_t hash[STORED_SESSION_HASH_BYTES]);
int storage_delete_sessions(storage *s, int64_t account,
                            const uint8_t keep[STORED_SESSION_HASH_BYTES], int64_t now_ms);
/* Ratings (SQLite schema version 10, PostgreSQL's 6): an account's rating
 * in each category it played (glicko2.h's categories), and each rated
 * game's change. */
typedef struct stored_rating {
    double rating, rd, volatility;
    int64_t last_ms; /* when its last rated game ended */
    int category;
    int games;
} stored_rating;

typedef struct stored_rating_change {
    double before, after, rd_after;
    int64_t at_ms;
    char table[STORED_ID_BYTES];
    int category;
} stored_rating_change;

/* storage_ratings(): the ratings of `account`, at most `cap` into `out`:
 * their count, or -1. storage_rate(): stores `after` as the account's
 * rating in its category and the change from `before` at table `table`
 * (once per table and account: a second is refused; with PostgreSQL's
 * pipeline the pass's commit then fails); 0, -1.
 * storage_rating_changes(): the account's changes, newest first, at most
 * `cap`: their count, or -1. storage_leaderboard(): calls `each` with the
 * accounts of `category` whose RD is at most `max_rd`, best rating first,
 * at most `max`; 0, -1. */
int storage_ratings(storage *s, int64_t account, stored_rating *out, int cap);
int storage_rate(storage *s, const char *table, int64_t account, double before,
                 const stored_rating *after);
int storage_rating_changes(storage *s, int64_t account, stored_rating_change *out, int cap);
int storage_leaderboard(storage *s, int category, double max_rd, int max,
                        int (*each)(void *ctx, const char *name, const stored_rating *r),
                        void *ctx);

/* Puzzles (SQLite schema version 13, PostgreSQL's 9; docs/puzzles.md):
 * the Glicko-2 puzzle rating of each solver (an account) and of each
 * puzzle (by its id in the puzzle set), and each account's attempts,
 * one a puzzle: only the first attempt at a puzzle is rated. */
enum { STORED_PUZZLE_ID_BYTES = 64 };

typedef struct stored_puzzle_rating {
    double rating, rd, volatility;
    int attempts;    /* rated attempts */
    int streak;      /* a solver's right answers in a row (0 for a puzzle) */
    int best_streak; /* ... and the longest such run */
} stored_puzzle_rating;

/* storage_puzzle_solver(): the puzzle rating of `account`; and
 * storage_puzzle_rating(): the rating of puzzle `puzzle`: 1 (read into
 * `out`), 0 when it has none yet, -1. storage_puzzle_attempted(): calls
 * `each` with the id of every puzzle `account` attempted, oldest first;
 * `each` returning nonzero stops; 0, -1. storage_puzzle_attempt(): the
 * first attempt of `account` at `puzzle` (`solved` 1 or 0) at `at_ms`,
 * with the solver's and the puzzle's ratings after it: 0 stored, 1 when
 * the account had attempted it already (nothing is written), -1. */
int storage_puzzle_solver(storage *s, int64_t account, stored_puzzle_rating *out);
int storage_puzzle_rating(storage *s, const char *puzzle, stored_puzzle_rating *out);
int storage_puzzle_attempted(storage *s, int64_t account,
                             int (*each)(void *ctx, const char *puzzle), void *ctx);
int storage_puzzle_attempt(storage *s, int64_t account, const char *puzzle, int solved,
                           int64_t at_ms, const stored_puzzle_rating *solver,
                           const stored_puzzle_rating *rating);

/* The tutorial's lessons each account finished (SQLite schema version 14,
 * PostgreSQL's 10; docs/server.md): a lesson by its id in the browser's
 * list (at most STORED_LESSON_ID_BYTES - 1 bytes), kept once, with when it
 * was first finished; they go with the account when it is deleted.
 * storage_lessons_done(): calls `each` with every lesson `account`
 * finished, oldest first (those of the same millisecond by id); `each` returning nonzero stops; 0,
 * -1. storage_lesson_done(): lesson `lesson` finished by `account` at `at_ms` (nothing changes when
 * it was already); 0, -1. */
enum {
    STORED_LESSON_ID_BYTES = 33,
    STORED_LIST_ID_BYTES = 64, /* room for a puzzle's or a lesson's id in a list */
};
_Static_assert((int)STORED_PUZZLE_ID_BYTES <= (int)STORED_LIST_ID_BYTES &&
                   (int)STORED_LESSON_ID_BYTES <= (int)STORED_LIST_ID_BYTES,
               "an id of a list fits STORED_LIST_ID_BYTES");
int storage_lessons_done(storage *s, int64_t account, int (*each)(void *ctx, const char *lesson),
                         void *ctx);
int storage_lesson_done(storage *s, int64_t account, const char *lesson, int64_t at_ms);

/* Calls `each` with every seat of `account` at a table whose status is in
 * `statuses` (bit 1 << status), newest table first, at most `max`; `each`
 * returning nonzero stops. 0, or -1 on failure. */
int storage_account_seats(storage *s, int64_t account, unsigned statuses, int max,
                          int (*each)(void *ctx, const char *id, int seat), void *ctx);

/* The operator's work (`carcassonne admin`).
 *
 * storage_list_accounts(): calls `each` with every account, by name (its
 * key), and the number of tables it has a seat at (waiting, playing or
 * finished); `each` returning nonzero stops. 0, or -1 on failure.
 * storage_set_disabled(): disables account `id` (`disabled` 1: its
 * sessions end in the same step; storage_find_session() finds none of a
 * disabled account) or enables it again (0); 0, 1 when there is no such
 * account, -1. storage_delete_table(): table `id`, its seats, moves, chat
 * and review go (its rating changes stay: the players' history); 0, 1
 * when there is none, -1. The caller decides whether a table in play may
 * go. storage_backup(): an online copy of the whole database into the new
 * file `path` (SQLite's backup API: a consistent snapshot, taken while a
 * server keeps writing); 0, or -1 with the reason in `err` (an existing
 * `path` is refused and left alone; a PostgreSQL database has none:
 * pg_dump does it). */
/* An account's webhook (SQLite schema version 12, PostgreSQL's 8): the
 * URL the server POSTs to when it becomes the account's turn (webhooks.h).
 * storage_set_webhook(): sets it ("" removes it); 0, 1 when there is no
 * such account, -1. storage_webhook(): reads it into `out` (`cap` bytes,
 * "" when none): 1, 0 when there is no such account, -1. */
int storage_set_webhook(storage *s, int64_t id, const char *url);
int storage_webhook(storage *s, int64_t id, char *out, size_t cap);
int storage_list_accounts(storage *s, int (*each)(void *ctx, const stored_account *a, int tables),
                          void *ctx);
int storage_set_disabled(storage *s, int64_t id, int disabled);
int storage_delete_table(storage *s, const char *id);
int storage_backup(storage *s, const char *path, char *err, size_t errcap);

/* Built on the reads above, for every backend (storage.c): claims every
 * table that is waiting or playing and that no other process runs, and
 * calls `each` for each, oldest first, with a buffer it reuses; `each` returning nonzero stops. 0
 * on success, -1 on failure. */
int storage_load_unfinished(storage *s, int (*each)(void *ctx, const stored_table *t), void *ctx);
/* The rules of a table as a backend stores them beside the `rules` flags
 * (a text column since SQLite schema version 5): carc_rules_format() of
 * `t->rules`, "table-edge-completes table=9x9" ("" when it would not
 * fit `cap`); and back: `text` ("" or NULL for a row stored before: the
 * flags alone) sets the rules' flags and valued rules of `t`. */
void storage_rules_text(const stored_table *t, char *buf, size_t cap);
void storage_rules_read(stored_table *t, const char *text);

#endif
