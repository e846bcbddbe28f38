/* storage_sqlite.c: the storage interface on SQLite (WAL, synchronous=FULL),
 * with the WAL checkpoints on a thread of their own. */
#include "storage.h"
#include "storage_backend.h"

#include "accounts.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
    SCHEMA_VERSION = 14,  /* 2: tables.estimates; 3: tables.expansions; 4: tables.creator;
                            5: chat, reviews; 6: tables.rules_text; 7: tables.first_text;
                            8: tables.paused_ms, moves.paused_ms; 9: accounts, sessions,
                            seats.account; 10: tables.rated, ratings, rating_changes;
                            11: accounts.disabled; 12: accounts.webhook; 13: puzzle_solvers,
                            puzzle_ratings, puzzle_attempts; 14: lessons_done */
    CHECKPOINT_MS = 1000, /* the checkpointer's period */
    /* How long the event loop waits for another process's write lock
     * (a script writing to the database) before the write fails: short,
     * for the loop waits with everyone else. */
    BUSY_MS = 200,
    OPEN_BUSY_MS = 5000, /* at start, when nobody is waiting yet */
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS tables ("
    " id TEXT PRIMARY KEY, created_ms INTEGER NOT NULL, status INTEGER NOT NULL,"
    " players INTEGER NOT NULL, rules INTEGER NOT NULL, info INTEGER NOT NULL,"
    " clock_mode INTEGER NOT NULL, clock_seconds INTEGER NOT NULL,"
    " clock_increment INTEGER NOT NULL, clock_timeout INTEGER NOT NULL,"
    " listed INTEGER NOT NULL, seed INTEGER NOT NULL, salt BLOB NOT NULL,"
    " addr TEXT NOT NULL, forfeit INTEGER NOT NULL, started_ms INTEGER NOT NULL,"
    " estimates INTEGER NOT NULL DEFAULT 1, expansions INTEGER NOT NULL DEFAULT 0,"
    " creator INTEGER NOT NULL DEFAULT -1, rules_text TEXT NOT NULL DEFAULT '',"
    " first_text TEXT NOT NULL DEFAULT '', paused_ms INTEGER NOT NULL DEFAULT 0,"
    " rated INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX IF NOT EXISTS tables_status ON tables(status, created_ms);"
    "CREATE TABLE IF NOT EXISTS seats ("
    " table_id TEXT NOT NULL, seat INTEGER NOT NULL, kind INTEGER NOT NULL,"
    " taken INTEGER NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL,"
    " token_hash BLOB NOT NULL, invite_hash BLOB NOT NULL, account INTEGER NOT NULL DEFAULT 0,"
    " PRIMARY KEY (table_id, seat));"
    "CREATE TABLE IF NOT EXISTS moves ("
    " table_id TEXT NOT NULL, turn INTEGER NOT NULL, move TEXT NOT NULL,"
    " by INTEGER NOT NULL, at_ms INTEGER NOT NULL, paused_ms INTEGER NOT NULL DEFAULT 0,"
    " PRIMARY KEY (table_id, turn));"
    "CREATE TABLE IF NOT EXISTS chat ("
    " table_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,"
    " text TEXT NOT NULL, at_ms INTEGER NOT NULL, PRIMARY KEY (table_id, n));"
    "CREATE TABLE IF NOT EXISTS reviews (table_id TEXT PRIMARY KEY, moves TEXT NOT NULL);"
    /* An id is never given again (AUTOINCREMENT): a deleted account's seats keep theirs. */
    "CREATE TABLE IF NOT EXISTS accounts ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,"
    " hash TEXT NOT NULL, created_ms INTEGER NOT NULL, disabled INTEGER NOT NULL DEFAULT 0,"
    " webhook TEXT NOT NULL DEFAULT '');"
    "CREATE TABLE IF NOT EXISTS sessions ("
    " hash BLOB PRIMARY KEY, account INTEGER NOT NULL, created_ms INTEGER NOT NULL,"
    " expires_ms INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account);"
    "CREATE TABLE IF NOT EXISTS ratings ("
    " account INTEGER NOT NULL, category INTEGER NOT NULL, rating REAL NOT NULL,"
    " rd REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL,"
    " last_ms INTEGER NOT NULL, PRIMARY KEY (account, category));"
    "CREATE INDEX IF NOT EXISTS ratings_board ON ratings(category, rating);"
    "CREATE TABLE IF NOT EXISTS rating_changes ("
    " table_id TEXT NOT NULL, account INTEGER NOT NULL, category INTEGER NOT NULL,"
    " rating_before REAL NOT NULL, rating_after REAL NOT NULL, rd_after REAL NOT NULL,"
    " at_ms INTEGER NOT NULL, PRIMARY KEY (table_id, account));"
    "CREATE INDEX IF NOT EXISTS rating_changes_account ON rating_changes(account, at_ms);"
    "CREATE TABLE IF NOT EXISTS puzzle_solvers ("
    " account INTEGER PRIMARY KEY, rating REAL NOT NULL, rd REAL NOT NULL,"
    " volatility REAL NOT NULL, attempts INTEGER NOT NULL, streak INTEGER NOT NULL,"
    " best_streak INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS puzzle_ratings ("
    " puzzle TEXT PRIMARY KEY, rating REAL NOT NULL, rd REAL NOT NULL,"
    " volatility REAL NOT NULL, attempts INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS puzzle_attempts ("
    " account INTEGER NOT NULL, puzzle TEXT NOT NULL, solved INTEGER NOT NULL,"
    " at_ms INTEGER NOT NULL, PRIMARY KEY (account, puzzle));"
    "CREATE TABLE IF NOT EXISTS lessons_done ("
    " account INTEGER NOT NULL, lesson TEXT NOT NULL, at_ms INTEGER NOT NULL,"
    " PRIMARY KEY (account, lesson));";

/* What needs the columns the upgrades add: made after them. */
static const char indexes[] =
    "CREATE INDEX IF NOT EXISTS seats_account ON seats(account) WHERE account <> 0;";

/* The steps from each older version to the next, run in order inside one
 * transaction with the new user_version, so that a failure leaves the file
 * as it was: version 1 gains the tables' `estimates` (on for them all),
 * version 2 their `expansions` (none: the base game they were played
 * with), version 3 their `creator` (none known: -1); version 4 gains the
 * chat and reviews tables, which `schema` creates in every file; version 5
 * the tables' `rules_text` ("": the rules are the `rules` flags alone);
 * version 6 their `first_text` ("": how the first seat was chosen was not
 * kept); version 7 the tables' and the moves' `paused_ms` (0: no stall
 * was kept); version 8 the seats' `account` (0: every seat a guest's;
 * the accounts and sessions tables `schema` creates); version 9 the
 * tables' `rated` (0: no game was rated; the ratings tables `schema`
 * creates); version 10 the accounts' `disabled` (0: every account may log
 * in); version 11 their `webhook` ('': none); version 12 gains the
 * puzzle tables, which `schema` creates; version 13 the lessons_done
 * table, which `schema` creates. A new file gets every
 * column from `schema` and no step. */
static const char *const upgrades[SCHEMA_VERSION] = {
    [1] = "ALTER TABLE tables ADD COLUMN estimates INTEGER NOT NULL DEFAULT 1;",
    [2] = "ALTER TABLE tables ADD COLUMN expansions INTEGER NOT NULL DEFAULT 0;",
    [3] = "ALTER TABLE tables ADD COLUMN creator INTEGER NOT NULL DEFAULT -1;",
    [4] = "",
    [5] = "ALTER TABLE tables ADD COLUMN rules_text TEXT NOT NULL DEFAULT '';",
    [6] = "ALTER TABLE tables ADD COLUMN first_text TEXT NOT NULL DEFAULT '';",
    /* Two statements in one step (one literal, joined). */
    /* NOLINTNEXTLINE(bugprone-suspicious-missing-comma) */
    [7] = "ALTER TABLE tables ADD COLUMN paused_ms INTEGER NOT NULL DEFAULT 0;"
          "ALTER TABLE moves ADD COLUMN paused_ms INTEGER NOT NULL DEFAULT 0;",
    [8] = "ALTER TABLE seats ADD COLUMN account INTEGER NOT NULL DEFAULT 0;",
    [9] = "ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;",
    [10] = "ALTER TABLE accounts ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;",
    [11] = "ALTER TABLE accounts ADD COLUMN webhook TEXT NOT NULL DEFAULT '';",
    [12] = "",
    [13] = "",
};

/* The prepared statements, one per write and read. */
typedef enum stmt_id {
    ST_BEGIN,
    ST_COMMIT,
    ST_ROLLBACK,
    ST_SAVEPOINT,
    ST_RELEASE,
    ST_UNDO,
    ST_INSERT_TABLE,
    ST_INSERT_SEAT,
    ST_UPDATE_SEAT,
    ST_STARTED,
    ST_INSERT_MOVE,
    ST_STATUS,
    ST_PAUSED,
    ST_TRUNCATE,
    ST_LIST,
    ST_TABLE,
    ST_SEATS,
    ST_MOVES,
    ST_INSERT_CHAT,
    ST_REVIEW,
    ST_CHAT,
    ST_LOAD_REVIEW,
    ST_LISTED,
    ST_INSERT_ACCOUNT,
    ST_FIND_ACCOUNT,
    ST_SET_PASSWORD,
    ST_DELETE_ACCOUNT,
    ST_SEATS_DELETED,
    ST_INSERT_SESSION,
    ST_FIND_SESSION,
    ST_DELETE_SESSION,
    ST_DELETE_SESSIONS,
    ST_ACCOUNT_SEATS,
    ST_RATINGS,
    ST_RATE,
    ST_RATE_CHANGE,
    ST_RATING_CHANGES,
    ST_LEADERBOARD,
    ST_SET_WEBHOOK,
    ST_WEBHOOK,
    ST_LIST_ACCOUNTS,
    ST_SET_DISABLED,
    ST_PUZZLE_SOLVER,
    ST_PUZZLE_RATING,
    ST_PUZZLE_ATTEMPTED,
    ST_PUZZLE_ATTEMPT,
    ST_PUZZLE_SET_SOLVER,
    ST_PUZZLE_SET_RATING,
    ST_LESSONS_DONE,
    ST_LESSON_DONE,
    ST_DELETE_LESSONS,
    ST_DELETE_MOVES, /* ... a table's rows, in order: */
    ST_DELETE_SEATS,
    ST_DELETE_CHAT,
    ST_DELETE_REVIEW,
    ST_DELETE_TABLE,
    ST_COUNT
} stmt_id;

static const char *const stmt_sql[ST_COUNT] = {
    "BEGIN IMMEDIATE",
    "COMMIT",
    "ROLLBACK",
    "SAVEPOINT step",
    "RELEASE step",
    "ROLLBACK TO step",
    "INSERT INTO tables VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,"
    "?18,?19,?20,?21,?22,?23)",
    "INSERT INTO seats VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)",
    "UPDATE seats SET kind=?3, taken=?4, name=?5, spec=?6, token_hash=?7, invite_hash=?8,"
    " account=?9 WHERE table_id=?1 AND seat=?2",
    "UPDATE tables SET started_ms=?2, status=CASE WHEN ?2 > 0 THEN 1 ELSE status END"
    " WHERE id=?1",
    "INSERT INTO moves VALUES (?1,?2,?3,?4,?5,?6)",
    "UPDATE tables SET status=?2, forfeit=?3 WHERE id=?1",
    "UPDATE tables SET paused_ms=?2 WHERE id=?1",
    "DELETE FROM moves WHERE table_id=?1 AND turn >= ?2",
    "SELECT id FROM tables WHERE (?1 >> status) & 1 ORDER BY created_ms, id",
    "SELECT id, created_ms, status, players, rules, info, clock_mode, clock_seconds,"
    " clock_increment, clock_timeout, listed, seed, salt, addr, forfeit, started_ms,"
    " estimates, expansions, creator, rules_text, first_text, paused_ms, rated FROM tables"
    " WHERE id=?1",
    "SELECT seat, kind, taken, name, spec, token_hash, invite_hash, account FROM seats"
    " WHERE table_id=?1 ORDER BY seat",
    "SELECT turn, move, by, at_ms, paused_ms FROM moves WHERE table_id=?1 ORDER BY turn",
    "INSERT INTO chat VALUES (?1,?2,?3,?4,?5,?6)",
    "INSERT OR REPLACE INTO reviews VALUES (?1,?2)",
    "SELECT n, seat, name, text, at_ms FROM chat WHERE table_id=?1 ORDER BY n DESC LIMIT ?2",
    "SELECT moves FROM reviews WHERE table_id=?1",
    "SELECT id FROM tables WHERE listed AND status IN (0, 1) ORDER BY created_ms DESC, id DESC"
    " LIMIT ?1",
    "INSERT OR IGNORE INTO accounts (name, name_key, hash, created_ms) VALUES (?1,?2,?3,?4)",
    "SELECT id, name, hash, created_ms, disabled FROM accounts WHERE name_key=?1",
    "UPDATE accounts SET hash=?2 WHERE id=?1",
    "DELETE FROM accounts WHERE id=?1",
    "UPDATE seats SET account=-1, name='" ACC_DELETED_NAME "' WHERE account=?1",
    "INSERT INTO sessions VALUES (?1,?2,?3,?4)",
    "SELECT a.id, a.name, a.hash, a.created_ms, a.disabled FROM sessions s"
    " JOIN accounts a ON a.id=s.account WHERE s.hash=?1 AND s.expires_ms > ?2 AND NOT a.disabled",
    "DELETE FROM sessions WHERE hash=?1",
    "DELETE FROM sessions WHERE account=?1 AND (?2 IS NULL OR hash <> ?2 OR expires_ms <= ?3)",
    "SELECT s.table_id, s.seat FROM seats s JOIN tables t ON t.id=s.table_id WHERE s.account=?1"
    " AND (?2 >> t.status) & 1 ORDER BY t.created_ms DESC, t.id DESC LIMIT ?3",
    "SELECT category, rating, rd, volatility, games, last_ms FROM ratings WHERE account=?1"
    " ORDER BY category LIMIT ?2",
    "INSERT OR REPLACE INTO ratings VALUES (?1,?2,?3,?4,?5,?6,?7)",
    "INSERT INTO rating_changes VALUES (?1,?2,?3,?4,?5,?6,?7)",
    "SELECT table_id, category, rating_before, rating_after, rd_after, at_ms FROM rating_changes"
    " WHERE account=?1 ORDER BY at_ms DESC, table_id DESC LIMIT ?2",
    "SELECT a.name, r.category, r.rating, r.rd, r.volatility, r.games, r.last_ms FROM ratings r"
    " JOIN accounts a ON a.id=r.account WHERE r.category=?1 AND r.rd <= ?2"
    " ORDER BY r.rating DESC, a.name_key LIMIT ?3",
    "UPDATE accounts SET webhook=?2 WHERE id=?1",
    "SELECT webhook FROM accounts WHERE id=?1",
    "SELECT a.id, a.name, a.hash, a.created_ms, a.disabled, (SELECT count(DISTINCT s.table_id)"
    " FROM seats s JOIN tables t ON t.id=s.table_id WHERE s.account=a.id AND t.status <> 3)"
    " FROM accounts a ORDER BY a.name_key",
    "UPDATE accounts SET disabled=?2 WHERE id=?1",
    "SELECT rating, rd, volatility, attempts, streak, best_streak FROM puzzle_solvers"
    " WHERE account=?1",
    "SELECT rating, rd, volatility, attempts, 0, 0 FROM puzzle_ratings WHERE puzzle=?1",
    "SELECT puzzle FROM puzzle_attempts WHERE account=?1 ORDER BY at_ms, puzzle",
    "INSERT OR IGNORE INTO puzzle_attempts VALUES (?1,?2,?3,?4)",
    "INSERT OR REPLACE INTO puzzle_solvers VALUES (?1,?2,?3,?4,?5,?6,?7)",
    "INSERT OR REPLACE INTO puzzle_ratings VALUES (?1,?2,?3,?4,?5)",
    "SELECT lesson FROM lessons_done WHERE account=?1 ORDER BY at_ms, lesson",
    "INSERT OR IGNORE INTO lessons_done VALUES (?1,?2,?3)",
    "DELETE FROM lessons_done WHERE account=?1",
    "DELETE FROM moves WHERE table_id=?1",
    "DELETE FROM seats WHERE table_id=?1",
    "DELETE FROM chat WHERE table_id=?1",
    "DELETE FROM reviews WHERE table_id=?1",
    "DELETE FROM tables WHERE id=?1",
};

/* The checkpointer: copies the WAL into the database file every second
 * with a connection of its own (a passive checkpoint waits for nobody), so
 * that the automatic checkpoint SQLite runs inside a commit once the WAL
 * holds 1,000 pages finds little left to copy; that one, run while nothing
 * writes, lets the next commit start the WAL over. */
typedef struct checkpointer {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int started, stop;
    sqlite3 *db;
} checkpointer;

typedef struct sqlite_storage {
    storage base;
    sqlite3 *db;
    sqlite3_stmt *stmt[ST_COUNT];
    int in_transaction;
    int locked; /* a write of this pass found the database locked */
    char error[256];
    checkpointer ckpt;
} sqlite_storage;

static sqlite_storage *as_sqlite(storage *base)
{
    return (sqlite_storage *)base;
}

static int failed(sqlite_storage *s, const char *what)
{
    snprintf(s->error, sizeof s->error, "%s: %s", what, sqlite3_errmsg(s->db));
    return -1;
}

/* Runs a statement that returns no rows, then resets it. */
static int run(sqlite_storage *s, stmt_id id)
{
    sqlite3_stmt *st = s->stmt[id];
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? 0 : failed(s, stmt_sql[id]);
}

static const char *sqlite_error(const storage *base)
{
    return ((const sqlite_storage *)base)->error;
}

static void *checkpoint_main(void *arg)
{
    checkpointer *k = arg;
    pthread_mutex_lock(&k->lock);
    while (!k->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (long)CHECKPOINT_MS * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&k->wake, &k->lock, &until);
        if (k->stop)
            break;
        pthread_mutex_unlock(&k->lock);
        sqlite3_wal_checkpoint_v2(k->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&k->lock);
    }
    pthread_mutex_unlock(&k->lock);
    return NULL;
}

/* Starts the checkpointer on `path` (without it, only SQLite's automatic
 * checkpoints run). */
static void checkpointer_start(sqlite_storage *s, const char *path)
{
    checkpointer *k = &s->ckpt;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &k->db, flags, NULL) != SQLITE_OK) {
        sqlite3_close(k->db);
        k->db = NULL;
        return;
    }
    sqlite3_busy_timeout(k->db, 1000);
    /* A connection learns that the database is in WAL mode on its first
     * read; until then a checkpoint does nothing. */
    if (sqlite3_exec(k->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_close(k->db);
        k->db = NULL;
        return;
    }
    pthread_mutex_init(&k->lock, NULL);
    pthread_cond_init(&k->wake, NULL);
    if (pthread_create(&k->thread, NULL, checkpoint_main, k) != 0) {
        sqlite3_close(k->db);
        k->db = NULL;
        return;
    }
    k->started = 1;
}

static void checkpointer_stop(checkpointer *k)
{
    if (!k->started)
        return;
    pthread_mutex_lock(&k->lock);
    k->stop = 1;
    pthread_cond_signal(&k->wake);
    pthread_mutex_unlock(&k->lock);
    pthread_join(k->thread, NULL);
    sqlite3_close(k->db);
    pthread_cond_destroy(&k->wake);
    pthread_mutex_destroy(&k->lock);
    k->started = 0;
}

/* The database's schema version: 0 for a new file. */
static int user_version(sqlite3 *db)
{
    sqlite3_stmt *q = NULL;
    int version = 0;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
        version = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    return version;
}

/* Whether table `table` of `db` has column `column`. */
static int has_column(sqlite3 *db, const char *table, const char *column)
{
    sqlite3_stmt *q = NULL;
    int found = 0;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info(?1) WHERE name=?2", -1, &q, NULL) ==
        SQLITE_OK) {
        sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, column, -1, SQLITE_STATIC);
        found = sqlite3_step(q) == SQLITE_ROW;
    }
    sqlite3_finalize(q);
    return found;
}

/* Whether upgrade step `v` has nothing to do: the seats' `account` is
 * there already when `schema` made the seats table just now (a file of
 * the first versions may have had none). */
static int step_done(sqlite3 *db, int v)
{
    return (v == 8 && has_column(db, "seats", "account")) ||
           (v == 10 && has_column(db, "accounts", "disabled")) ||
           (v == 11 && has_column(db, "accounts", "webhook"));
}

/* Brings the schema to SCHEMA_VERSION: creates what a new file lacks, runs
 * the upgrades an older file needs, in one transaction. A file of a newer
 * version is refused (a newer server wrote columns this one would drop).
 * 0, or -1 with the message in `*msg` (sqlite3_free() it; may stay NULL). */
static int migrate(sqlite3 *db, char **msg)
{
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, msg) != SQLITE_OK)
        return -1;
    int version = user_version(db), rc = SQLITE_OK;
    if (version > SCHEMA_VERSION) {
        *msg = sqlite3_mprintf("schema version %d is newer than this server's %d", version,
                               SCHEMA_VERSION);
        rc = SQLITE_ERROR;
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, schema, NULL, NULL, msg);
    for (int v = version; rc == SQLITE_OK && v > 0 && v < SCHEMA_VERSION; v++)
        if (!step_done(db, v))
            rc = sqlite3_exec(db, upgrades[v], NULL, NULL, msg);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, indexes, NULL, NULL, msg);
    if (rc == SQLITE_OK) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA user_version=%d;", SCHEMA_VERSION);
        rc = sqlite3_exec(db, pragma, NULL, NULL, msg);
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, "COMMIT", NULL, NULL, msg);
    if (rc != SQLITE_OK) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

static void sqlite_close(storage *base);

static storage *sqlite_open(const char *path, char *err, size_t errcap)
{
    sqlite_storage *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
        snprintf(err, errcap, "%s: %s", path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
        sqlite_close(&s->base);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, OPEN_BUSY_MS);
    char *msg = NULL;
    if (sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", NULL, NULL,
                     &msg) != SQLITE_OK ||
        migrate(s->db, &msg) != 0) {
        snprintf(err, errcap, "%s: %s", path, msg ? msg : sqlite3_errmsg(s->db));
        sqlite3_free(msg);
        sqlite_close(&s->base);
        return NULL;
    }
    for (int i = 0; i < ST_COUNT; i++) {
        if (sqlite3_prepare_v3(s->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->stmt[i],
                               NULL) != SQLITE_OK) {
            snprintf(err, errcap, "%s: %s", path, sqlite3_errmsg(s->db));
            sqlite_close(&s->base);
            return NULL;
        }
    }
    checkpointer_start(s, path);
    sqlite3_busy_timeout(s->db, BUSY_MS);
    return &s->base;
}

static void sqlite_close(storage *base)
{
    sqlite_storage *s = as_sqlite(base);
    if (!s)
        return;
    checkpointer_stop(&s->ckpt);
    if (s->in_transaction)
        run(s, ST_ROLLBACK);
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(s->stmt[i]);
    sqlite3_close(s->db);
    free(s);
}

/* --- Transactions ------------------------------------------------------------------- */

/* Opens the pass's transaction when needed and a savepoint for one step. */
static int step_begin(sqlite_storage *s)
{
    if (!s->in_transaction) {
        /* The lock is not given back within a pass: the pass's other
         * writes fail at once instead of waiting BUSY_MS each. */
        if (s->locked) {
            snprintf(s->error, sizeof s->error, "the database is locked by another process");
            return -1;
        }
        if (run(s, ST_BEGIN)) {
            s->locked = sqlite3_errcode(s->db) == SQLITE_BUSY;
            return -1;
        }
        s->in_transaction = 1;
    }
    return run(s, ST_SAVEPOINT);
}

/* Keeps the step's writes (ok == 0) or undoes them; returns `ok`. */
static int step_end(sqlite_storage *s, int ok)
{
    if (ok != 0) {
        char saved[sizeof s->error];
        memcpy(saved, s->error, sizeof saved);
        run(s, ST_UNDO);
        run(s, ST_RELEASE);
        memcpy(s->error, saved, sizeof saved);
        return -1;
    }
    return run(s, ST_RELEASE);
}

static int sqlite_commit(storage *base)
{
    sqlite_storage *s = as_sqlite(base);
    s->locked = 0;
    if (!s->in_transaction)
        return 0;
    s->in_transaction = 0;
    if (run(s, ST_COMMIT) == 0)
        return 0;
    char saved[sizeof s->error];
    memcpy(saved, s->error, sizeof saved);
    if (!sqlite3_get_autocommit(s->db))
        run(s, ST_ROLLBACK);
    memcpy(s->error, saved, sizeof saved);
    return -1;
}

static int sqlite_pending(const storage *base)
{
    return ((const sqlite_storage *)base)->in_transaction;
}

/* --- Writes ------------------------------------------------------------------------- */

static void bind_text(sqlite3_stmt *st, int i, const char *text)
{
    sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
}

static int write_seat(sqlite_storage *s, stmt_id id, const char *table, int seat,
                      const stored_seat *st)
{
    sqlite3_stmt *q = s->stmt[id];
    bind_text(q, 1, table);
    sqlite3_bind_int(q, 2, seat);
    sqlite3_bind_int(q, 3, (int)st->kind);
    sqlite3_bind_int(q, 4, st->taken);
    bind_text(q, 5, st->name);
    bind_text(q, 6, st->spec);
    sqlite3_bind_blob(q, 7, st->token_hash, TOKEN_HASH_BYTES, SQLITE_TRANSIENT);
    sqlite3_bind_blob(q, 8, st->invite_hash, TOKEN_HASH_BYTES, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 9, st->account);
    return run(s, id);
}

static int insert_table(sqlite_storage *s, const stored_table *t)
{
    sqlite3_stmt *q = s->stmt[ST_INSERT_TABLE];
    bind_text(q, 1, t->id);
    sqlite3_bind_int64(q, 2, t->created_ms);
    sqlite3_bind_int(q, 3, (int)t->status);
    sqlite3_bind_int(q, 4, t->players);
    sqlite3_bind_int64(q, 5, (sqlite3_int64)t->rules.flags);
    sqlite3_bind_int(q, 6, (int)t->info);
    sqlite3_bind_int(q, 7, (int)t->clock.mode);
    sqlite3_bind_int(q, 8, t->clock.seconds);
    sqlite3_bind_int(q, 9, t->clock.increment);
    sqlite3_bind_int(q, 10, (int)t->clock.on_timeout);
    sqlite3_bind_int(q, 11, t->listed);
    sqlite3_bind_int64(q, 12, (sqlite3_int64)t->seed);
    sqlite3_bind_blob(q, 13, t->salt, TOKEN_SECRET_BYTES, SQLITE_TRANSIENT);
    bind_text(q, 14, t->addr);
    sqlite3_bind_int(q, 15, t->forfeit);
    sqlite3_bind_int64(q, 16, t->started_ms);
    sqlite3_bind_int(q, 17, t->estimates);
    sqlite3_bind_int64(q, 18, (sqlite3_int64)t->rules.expansions);
    sqlite3_bind_int(q, 19, t->creator);
    char rules[CARC_RULES_TEXT_MAX];
    storage_rules_text(t, rules, sizeof rules);
    bind_text(q, 20, rules);
    bind_text(q, 21, t->first_text);
    sqlite3_bind_int64(q, 22, t->paused_ms);
    sqlite3_bind_int(q, 23, t->rated);
    return run(s, ST_INSERT_TABLE);
}

static int insert_move(sqlite_storage *s, const char *id, int turn, const stored_move *m)
{
    sqlite3_stmt *q = s->stmt[ST_INSERT_MOVE];
    bind_text(q, 1, id);
    sqlite3_bind_int(q, 2, turn);
    bind_text(q, 3, m->text);
    sqlite3_bind_int(q, 4, (int)m->by);
    sqlite3_bind_int64(q, 5, m->at_ms);
    sqlite3_bind_int64(q, 6, m->paused_ms);
    return run(s, ST_INSERT_MOVE);
}

static int set_paused(sqlite_storage *s, const char *id, int64_t paused_ms)
{
    sqlite3_stmt *q = s->stmt[ST_PAUSED];
    bind_text(q, 1, id);
    sqlite3_bind_int64(q, 2, paused_ms);
    return run(s, ST_PAUSED);
}

static int set_status(sqlite_storage *s, const char *id, table_status status, int forfeit)
{
    sqlite3_stmt *q = s->stmt[ST_STATUS];
    bind_text(q, 1, id);
    sqlite3_bind_int(q, 2, (int)status);
    sqlite3_bind_int(q, 3, forfeit);
    return run(s, ST_STATUS);
}

static int sqlite_create_table(storage *base, const stored_table *t)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    int rc = insert_table(s, t);
    for (int i = 0; rc == 0 && i < t->players; i++)
        rc = write_seat(s, ST_INSERT_SEAT, t->id, i, &t->seats[i]);
    for (int i = 0; rc == 0 && i < t->nmoves; i++)
        rc = insert_move(s, t->id, i, &t->moves[i]);
    return step_end(s, rc);
}

static int sqlite_update_seat(storage *base, const char *id, int seat, const stored_seat *st,
                              int64_t started_ms)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    int rc = write_seat(s, ST_UPDATE_SEAT, id, seat, st);
    if (rc == 0 && sqlite3_changes(s->db) != 1)
        rc = failed(s, "no such seat");
    if (rc == 0 && started_ms > 0) {
        sqlite3_stmt *q = s->stmt[ST_STARTED];
        bind_text(q, 1, id);
        sqlite3_bind_int64(q, 2, started_ms);
        rc = run(s, ST_STARTED);
    }
    return step_end(s, rc);
}

static int sqlite_append_move(storage *base, const char *id, int turn, const stored_move *m,
                              table_status status, int forfeit)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    int rc = insert_move(s, id, turn, m);
    if (rc == 0)
        rc = set_status(s, id, status, forfeit);
    if (rc == 0)
        rc = set_paused(s, id, 0);
    return step_end(s, rc);
}

static int sqlite_truncate_moves(storage *base, const char *id, int nmoves)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    sqlite3_stmt *q = s->stmt[ST_TRUNCATE];
    bind_text(q, 1, id);
    sqlite3_bind_int(q, 2, nmoves);
    int rc = run(s, ST_TRUNCATE);
    if (rc == 0)
        rc = set_paused(s, id, 0);
    return step_end(s, rc);
}

static int sqlite_set_paused(storage *base, const char *id, int64_t paused_ms)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    return step_end(s, set_paused(s, id, paused_ms));
}

static int sqlite_set_status(storage *base, const char *id, table_status status, int forfeit)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    return step_end(s, set_status(s, id, status, forfeit));
}

/* --- Reads -------------------------------------------------------------------------- */

static void copy_column_text(sqlite3_stmt *q, int col, char *out, size_t cap)
{
    const unsigned char *text = sqlite3_column_text(q, col);
    snprintf(out, cap, "%s", text ? (const char *)text : "");
}

static void copy_column_blob(sqlite3_stmt *q, int col, uint8_t *out, size_t len)
{
    const void *blob = sqlite3_column_blob(q, col);
    memset(out, 0, len);
    if (blob && (size_t)sqlite3_column_bytes(q, col) == len)
        memcpy(out, blob, len);
}

static void read_table_row(sqlite3_stmt *q, stored_table *t)
{
    copy_column_text(q, 0, t->id, sizeof t->id);
    t->created_ms = sqlite3_column_int64(q, 1);
    t->status = (table_status)sqlite3_column_int(q, 2);
    t->players = sqlite3_column_int(q, 3);
    t->rules = carc_rules_standard();
    t->rules.flags = (uint32_t)sqlite3_column_int64(q, 4);
    t->info = (table_info)sqlite3_column_int(q, 5);
    t->clock.mode = (clock_mode)sqlite3_column_int(q, 6);
    t->clock.seconds = sqlite3_column_int(q, 7);
    t->clock.increment = sqlite3_column_int(q, 8);
    t->clock.on_timeout = (clock_timeout)sqlite3_column_int(q, 9);
    t->listed = sqlite3_column_int(q, 10);
    t->seed = (uint64_t)sqlite3_column_int64(q, 11);
    copy_column_blob(q, 12, t->salt, TOKEN_SECRET_BYTES);
    copy_column_text(q, 13, t->addr, sizeof t->addr);
    t->forfeit = sqlite3_column_int(q, 14);
    t->started_ms = sqlite3_column_int64(q, 15);
    t->estimates = sqlite3_column_int(q, 16);
    t->rules.expansions = (uint32_t)sqlite3_column_int64(q, 17);
    t->creator = sqlite3_column_int(q, 18);
    storage_rules_read(t, (const char *)sqlite3_column_text(q, 19));
    copy_column_text(q, 20, t->first_text, sizeof t->first_text);
    t->paused_ms = sqlite3_column_int64(q, 21);
    t->rated = sqlite3_column_int(q, 22);
}

static int read_seats(sqlite_storage *s, stored_table *t)
{
    sqlite3_stmt *q = s->stmt[ST_SEATS];
    bind_text(q, 1, t->id);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        int seat = sqlite3_column_int(q, 0);
        if (seat < 0 || seat >= CARC_MAX_PLAYERS)
            continue;
        stored_seat *st = &t->seats[seat];
        st->kind = (seat_kind)sqlite3_column_int(q, 1);
        st->taken = sqlite3_column_int(q, 2);
        copy_column_text(q, 3, st->name, sizeof st->name);
        copy_column_text(q, 4, st->spec, sizeof st->spec);
        copy_column_blob(q, 5, st->token_hash, TOKEN_HASH_BYTES);
        copy_column_blob(q, 6, st->invite_hash, TOKEN_HASH_BYTES);
        st->account = sqlite3_column_int64(q, 7);
    }
    sqlite3_reset(q);
    return rc == SQLITE_DONE ? 0 : failed(s, "reading seats");
}

static int read_moves(sqlite_storage *s, stored_table *t)
{
    sqlite3_stmt *q = s->stmt[ST_MOVES];
    bind_text(q, 1, t->id);
    int rc;
    t->nmoves = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (sqlite3_column_int(q, 0) != t->nmoves || t->nmoves == STORED_MAX_MOVES) {
            sqlite3_reset(q);
            snprintf(s->error, sizeof s->error, "table %s: its moves are not 0, 1, 2, ...", t->id);
            return -1;
        }
        stored_move *m = &t->moves[t->nmoves++];
        copy_column_text(q, 1, m->text, sizeof m->text);
        m->by = (move_by)sqlite3_column_int(q, 2);
        m->at_ms = sqlite3_column_int64(q, 3);
        m->paused_ms = sqlite3_column_int64(q, 4);
    }
    sqlite3_reset(q);
    return rc == SQLITE_DONE ? 0 : failed(s, "reading moves");
}

static int sqlite_load_table(storage *base, const char *id, stored_table *out)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_stmt *q = s->stmt[ST_TABLE];
    bind_text(q, 1, id);
    int rc = sqlite3_step(q);
    if (rc != SQLITE_ROW) {
        sqlite3_reset(q);
        return rc == SQLITE_DONE ? 0 : failed(s, "reading a table");
    }
    memset(out, 0, sizeof *out);
    read_table_row(q, out);
    sqlite3_reset(q);
    if (out->players < CARC_MIN_PLAYERS || out->players > CARC_MAX_PLAYERS) {
        snprintf(s->error, sizeof s->error, "table %s: %d players", out->id, out->players);
        return -1;
    }
    if (read_seats(s, out) || read_moves(s, out))
        return -1;
    return 1;
}

/* Steps bound statement `q`, calling `each` with its first column until it
 * returns nonzero; resets `q`. 0, or -1 with s->error naming `what`. */
static int each_id(sqlite_storage *s, sqlite3_stmt *q, int (*each)(void *ctx, const char *id),
                   void *ctx, const char *what)
{
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        char id[STORED_ID_BYTES];
        copy_column_text(q, 0, id, sizeof id);
        if (each(ctx, id)) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_reset(q);
    return rc == SQLITE_DONE ? 0 : failed(s, what);
}

static int sqlite_list(storage *base, unsigned statuses, int (*each)(void *ctx, const char *id),
                       void *ctx)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_stmt *q = s->stmt[ST_LIST];
    sqlite3_bind_int(q, 1, (int)statuses);
    return each_id(s, q, each, ctx, "listing tables");
}

static int sqlite_list_listed(storage *base, int max, int (*each)(void *ctx, const char *id),
                              void *ctx)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_stmt *q = s->stmt[ST_LISTED];
    sqlite3_bind_int(q, 1, max);
    return each_id(s, q, each, ctx, "listing the lobby");
}

/* --- Chat and reviews --------------------------------------------------------------- */

static int sqlite_add_chat(storage *base, const char *id, int n, const stored_chat *line)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    sqlite3_stmt *q = s->stmt[ST_INSERT_CHAT];
    bind_text(q, 1, id);
    sqlite3_bind_int(q, 2, n);
    sqlite3_bind_int(q, 3, line->seat);
    bind_text(q, 4, line->name);
    bind_text(q, 5, line->text);
    sqlite3_bind_int64(q, 6, line->at_ms);
    return step_end(s, run(s, ST_INSERT_CHAT));
}

static int sqlite_set_review(storage *base, const char *id, const char *json)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    sqlite3_stmt *q = s->stmt[ST_REVIEW];
    bind_text(q, 1, id);
    bind_text(q, 2, json);
    return step_end(s, run(s, ST_REVIEW));
}

static int sqlite_load_chat(storage *base, const char *id, stored_chat *out, int cap, int *total)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_stmt *q = s->stmt[ST_CHAT];
    bind_text(q, 1, id);
    sqlite3_bind_int(q, 2, cap);
    int rc, n = 0;
    *total = 0;
    /* Newest first, so that the last `cap` are read; turned round below. */
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && n < cap) {
        if (n == 0)
            *total = sqlite3_column_int(q, 0) + 1;
        stored_chat *line = &out[n++];
        line->seat = sqlite3_column_int(q, 1);
        copy_column_text(q, 2, line->name, sizeof line->name);
        copy_column_text(q, 3, line->text, sizeof line->text);
        line->at_ms = sqlite3_column_int64(q, 4);
    }
    sqlite3_reset(q);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return failed(s, "reading chat");
    for (int i = 0; i < n / 2; i++) {
        stored_chat swap = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = swap;
    }
    return n;
}

static int sqlite_load_review(storage *base, const char *id, char **json)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_stmt *q = s->stmt[ST_LOAD_REVIEW];
    bind_text(q, 1, id);
    int rc = sqlite3_step(q);
    *json = NULL;
    if (rc == SQLITE_ROW) {
        const unsigned char *text = sqlite3_column_text(q, 0);
        *json = strdup(text ? (const char *)text : "[]");
    }
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return failed(s, "reading a review");
    if (rc == SQLITE_ROW && !*json) {
        snprintf(s->error, sizeof s->error, "out of memory");
        return -1;
    }
    return rc == SQLITE_ROW;
}

/* --- One server runs every table ----------------------------------------------------- */

/* --- Accounts and sessions ------------------------------------------------------------ */

static int sqlite_create_account(storage *base, const char *name, const char *name_key,
                                 const char *hash, int64_t created_ms, int64_t *id)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    sqlite3_stmt *q = s->stmt[ST_INSERT_ACCOUNT];
    bind_text(q, 1, name);
    bind_text(q, 2, name_key);
    bind_text(q, 3, hash);
    sqlite3_bind_int64(q, 4, created_ms);
    int rc = run(s, ST_INSERT_ACCOUNT);
    int taken = rc == 0 && sqlite3_changes(s->db) == 0;
    if (rc == 0 && !taken)
        *id = sqlite3_last_insert_rowid(s->db);
    return step_end(s, rc) != 0 ? -1 : taken;
}

/* Reads an account's columns (id, name, hash, created_ms, disabled) from
 * the row of `q`. */
static void read_account(sqlite3_stmt *q, stored_account *out)
{
    out->id = sqlite3_column_int64(q, 0);
    copy_column_text(q, 1, out->name, sizeof out->name);
    copy_column_text(q, 2, out->hash, sizeof out->hash);
    out->created_ms = sqlite3_column_int64(q, 3);
    out->disabled = sqlite3_column_int(q, 4) != 0;
}

/* Steps bound statement `q` for one account: 1 (read into `out`), 0, -1. */
static int one_account(sqlite_storage *s, sqlite3_stmt *q, stored_account *out, const char *what)
{
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        read_account(q, out);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (rc == SQLITE_ROW)
        return 1;
    return rc == SQLITE_DONE ? 0 : failed(s, what);
}

static int sqlite_find_account(storage *base, const char *name_key, stored_account *out)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_stmt *q = s->stmt[ST_FIND_ACCOUNT];
    bind_text(q, 1, name_key);
    return one_account(s, q, out, "reading an account");
}

static int sqlite_set_password(storage *base, int64_t id, const char *hash)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    sqlite3_stmt *q = s->stmt[ST_SET_PASSWORD];
    sqlite3_bind_int64(q, 1, id);
    bind_text(q, 2, hash);
    int rc = run(s, ST_SET_PASSWORD);
    int none = rc == 0 && sqlite3_changes(s->db) == 0;
    return step_end(s, rc) != 0 ? -1 : none;
}

/* Runs statement `id` with the account id `account` as its one parameter. */
static int run_for_account(sqlite_storage *s, stmt_id id, int64_t account)
{
    sqlite3_bind_int64(s->stmt[id], 1, account);
    return run(s, id);
}

static int sqlite_delete_account(storage *base, int64_t id)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    int rc = run_for_account(s, ST_DELETE_ACCOUNT, id);
    int none = rc == 0 && sqlite3_changes(s->db) == 0;
    if (rc == 0) {
        sqlite3_stmt *q = s->stmt[ST_DELETE_SESSIONS];
        sqlite3_bind_int64(q, 1, id);
        sqlite3_bind_null(q, 2);
        rc = run(s, ST_DELETE_SESSIONS);
    }
    if (rc == 0)
        rc = run_for_account(s, ST_SEATS_DELETED, id);
    if (rc == 0)
        rc = run_for_account(s, ST_DELETE_LESSONS, id);
    return step_end(s, rc) != 0 ? -1 : none;
}

static int sqlite_create_session(storage *base, const uint8_t *hash, int64_t account,
                                 int64_t created_ms, int64_t expires_ms)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    sqlite3_stmt *q = s->stmt[ST_INSERT_SESSION];
    sqlite3_bind_blob(q, 1, hash, STORED_SESSION_HASH_BYTES, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 2, account);
    sqlite3_bind_int64(q, 3, created_ms);
    sqlite3_bind_int64(q, 4, expires_ms);
    return step_end(s, run(s, ST_INSERT_SESSION));
}

static int sqlite_find_session(storage *base, const uint8_t *hash, int64_t now_ms,
                               stored_account *out)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_stmt *q = s->stmt[ST_FIND_SESSION];
    sqlite3_bind_blob(q, 1, hash, STORED_SESSION_HASH_BYTES, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 2, now_ms);
    return one_account(s, q, out, "reading a session");
}

static int sqlite_delete_session(storage *base, const uint8_t *hash)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    sqlite3_bind_blob(s->stmt[ST_DELETE_SESSION], 1, hash, STORED_SESSION_HASH_BYTES,
                      SQLITE_TRANSIENT);
    return step_end(s, run(s, ST_DELETE_SESSION));
}

static int sqlite_delete_sessions(storage *base, int64_t account, const uint8_t *keep,
                                  int64_t now_ms)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    sqlite3_stmt *q = s->stmt[ST_DELETE_SESSIONS];
    sqlite3_bind_int64(q, 1, account);
    if (keep)
        sqlite3_bind_blob(q, 2, keep, STORED_SESSION_HASH_BYTES, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(q, 2);
    sqlite3_bind_int64(q, 3, now_ms);
    return step_end(s, run(s, ST_DELETE_SESSIONS));
}

/* Reads a rating's columns (category, rating, rd, volatility, games,
 * last_ms) from the row of `q`, from column `col` on. */
static void read_rating(sqlite3_stmt *q, int col, stored_rating *r)
{
    r->category = sqlite3_column_int(q, col);
    r->rating = sqlite3_column_double(q, col + 1);
    r->rd = sqlite3_column_double(q, col + 2);
    r->volatility = sqlite3_column_double(q, col + 3);
    r->games = sqlite3_column_int(q, col + 4);
    r->last_ms = sqlite3_column_int64(q, col + 5);
}

static int sqlite_ratings(storage *base, int64_t account, stored_rating *out, int cap)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_stmt *q = s->stmt[ST_RATINGS];
    sqlite3_bind_int64(q, 1, account);
    sqlite3_bind_int(q, 2, cap);
    int n = 0, rc = SQLITE_DONE;
    while (n < cap && (rc = sqlite3_step(q)) == SQLITE_ROW)
        read_rating(q, 0, &out[n++]);
    if (n == cap)
        rc = SQLITE_DONE;
    sqlite3_reset(q);
    return rc == SQLITE_DONE ? n : failed(s, "reading ratings");
}

static int sqlite_rate(storage *base, const char *table, int64_t account, double before,
                       const stored_rating *after)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    sqlite3_stmt *q = s->stmt[ST_RATE];
    sqlite3_bind_int64(q, 1, account);
    sqlite3_bind_int(q, 2, after->category);
    sqlite3_bind_double(q, 3, after->rating);
    sqlite3_bind_double(q, 4, after->rd);
    sqlite3_bind_double(q, 5, after->volatility);
    sqlite3_bind_int(q, 6, after->games);
    sqlite3_bind_int64(q, 7, after->last_ms);
    int rc = run(s, ST_RATE);
    if (rc == 0) {
        q = s->stmt[ST_RATE_CHANGE];
        bind_text(q, 1, table);
        sqlite3_bind_int64(q, 2, account);
        sqlite3_bind_int(q, 3, after->category);
        sqlite3_bind_double(q, 4, before);
        sqlite3_bind_double(q, 5, after->rating);
        sqlite3_bind_double(q, 6, after->rd);
        sqlite3_bind_int64(q, 7, after->last_ms);
        rc = run(s, ST_RATE_CHANGE);
    }
    return step_end(s, rc);
}

static int sqlite_rating_changes(storage *base, int64_t account, stored_rating_change *out, int cap)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_stmt *q = s->stmt[ST_RATING_CHANGES];
    sqlite3_bind_int64(q, 1, account);
    sqlite3_bind_int(q, 2, cap);
    int n = 0, rc = SQLITE_DONE;
    while (n < cap && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        stored_rating_change *c = &out[n++];
        copy_column_text(q, 0, c->table, sizeof c->table);
        c->category = sqlite3_column_int(q, 1);
        c->before = sqlite3_column_double(q, 2);
        c->after = sqlite3_column_double(q, 3);
        c->rd_after = sqlite3_column_double(q, 4);
        c->at_ms = sqlite3_column_int64(q, 5);
    }
    if (n == cap)
        rc = SQLITE_DONE;
    sqlite3_reset(q);
    return rc == SQLITE_DONE ? n : failed(s, "reading rating changes");
}

static int sqlite_leaderboard(storage *base, int category, double max_rd, int max,
                              int (*each)(void *ctx, const char *name, const stored_rating *r),
                              void *ctx)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_stmt *q = s->stmt[ST_LEADERBOARD];
    sqlite3_bind_int(q, 1, category);
    sqlite3_bind_double(q, 2, max_rd);
    sqlite3_bind_int(q, 3, max);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        char name[STORED_ACCOUNT_NAME_BYTES];
        stored_rating r;
        copy_column_text(q, 0, name, sizeof name);
        read_rating(q, 1, &r);
        if (each(ctx, name, &r)) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_reset(q);
    return rc == SQLITE_DONE ? 0 : failed(s, "reading the leaderboard");
}

static int sqlite_account_seats(storage *base, int64_t account, unsigned statuses, int max,
                                int (*each)(void *ctx, const char *id, int seat), void *ctx)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_stmt *q = s->stmt[ST_ACCOUNT_SEATS];
    sqlite3_bind_int64(q, 1, account);
    sqlite3_bind_int(q, 2, (int)statuses);
    sqlite3_bind_int(q, 3, max);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        char id[STORED_ID_BYTES];
        copy_column_text(q, 0, id, sizeof id);
        if (each(ctx, id, sqlite3_column_int(q, 1))) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_reset(q);
    return rc == SQLITE_DONE ? 0 : failed(s, "listing an account's seats");
}

/* --- Puzzles ------------------------------------------------------------------------------- */

/* A puzzle rating's row of ST_PUZZLE_SOLVER or ST_PUZZLE_RATING: 1 read
 * into `out`, 0 none, -1. */
static int read_puzzle_rating(sqlite_storage *s, stmt_id id, stored_puzzle_rating *out)
{
    sqlite3_stmt *q = s->stmt[id];
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        out->rating = sqlite3_column_double(q, 0);
        out->rd = sqlite3_column_double(q, 1);
        out->volatility = sqlite3_column_double(q, 2);
        out->attempts = sqlite3_column_int(q, 3);
        out->streak = sqlite3_column_int(q, 4);
        out->best_streak = sqlite3_column_int(q, 5);
    }
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (rc == SQLITE_ROW)
        return 1;
    return rc == SQLITE_DONE ? 0 : failed(s, "reading a puzzle rating");
}

static int sqlite_puzzle_solver(storage *base, int64_t account, stored_puzzle_rating *out)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_bind_int64(s->stmt[ST_PUZZLE_SOLVER], 1, account);
    return read_puzzle_rating(s, ST_PUZZLE_SOLVER, out);
}

static int sqlite_puzzle_rating(storage *base, const char *puzzle, stored_puzzle_rating *out)
{
    sqlite_storage *s = as_sqlite(base);
    bind_text(s->stmt[ST_PUZZLE_RATING], 1, puzzle);
    return read_puzzle_rating(s, ST_PUZZLE_RATING, out);
}

/* Calls `each` with the text of the first column of every row statement
 * `id` gives for `account` (an id of at most `cap` - 1 bytes), in order;
 * `each` returning nonzero stops. 0, or -1 (`what` names the list). */
static int list_ids(sqlite_storage *s, stmt_id id, int64_t account, size_t cap,
                    int (*each)(void *ctx, const char *id), void *ctx, const char *what)
{
    sqlite3_stmt *q = s->stmt[id];
    sqlite3_bind_int64(q, 1, account);
    int rc;
    char text[STORED_LIST_ID_BYTES];
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        copy_column_text(q, 0, text, cap < sizeof text ? cap : sizeof text);
        if (each(ctx, text)) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_reset(q);
    return rc == SQLITE_DONE ? 0 : failed(s, what);
}

static int sqlite_puzzle_attempted(storage *base, int64_t account,
                                   int (*each)(void *ctx, const char *puzzle), void *ctx)
{
    return list_ids(as_sqlite(base), ST_PUZZLE_ATTEMPTED, account, STORED_PUZZLE_ID_BYTES, each,
                    ctx, "listing a solver's puzzles");
}

static void bind_puzzle_rating(sqlite3_stmt *q, const stored_puzzle_rating *r)
{
    sqlite3_bind_double(q, 2, r->rating);
    sqlite3_bind_double(q, 3, r->rd);
    sqlite3_bind_double(q, 4, r->volatility);
    sqlite3_bind_int(q, 5, r->attempts);
}

static int sqlite_puzzle_attempt(storage *base, int64_t account, const char *puzzle, int solved,
                                 int64_t at_ms, const stored_puzzle_rating *solver,
                                 const stored_puzzle_rating *rating)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    sqlite3_stmt *q = s->stmt[ST_PUZZLE_ATTEMPT];
    sqlite3_bind_int64(q, 1, account);
    bind_text(q, 2, puzzle);
    sqlite3_bind_int(q, 3, solved);
    sqlite3_bind_int64(q, 4, at_ms);
    int rc = run(s, ST_PUZZLE_ATTEMPT);
    int again = rc == 0 && sqlite3_changes(s->db) == 0;
    if (rc == 0 && !again) {
        q = s->stmt[ST_PUZZLE_SET_SOLVER];
        sqlite3_bind_int64(q, 1, account);
        bind_puzzle_rating(q, solver);
        sqlite3_bind_int(q, 6, solver->streak);
        sqlite3_bind_int(q, 7, solver->best_streak);
        rc = run(s, ST_PUZZLE_SET_SOLVER);
    }
    if (rc == 0 && !again) {
        q = s->stmt[ST_PUZZLE_SET_RATING];
        bind_text(q, 1, puzzle);
        bind_puzzle_rating(q, rating);
        rc = run(s, ST_PUZZLE_SET_RATING);
    }
    return step_end(s, rc) != 0 ? -1 : again;
}

static int sqlite_lessons_done(storage *base, int64_t account,
                               int (*each)(void *ctx, const char *lesson), void *ctx)
{
    return list_ids(as_sqlite(base), ST_LESSONS_DONE, account, STORED_LESSON_ID_BYTES, each, ctx,
                    "listing an account's lessons");
}

static int sqlite_lesson_done(storage *base, int64_t account, const char *lesson, int64_t at_ms)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    sqlite3_stmt *q = s->stmt[ST_LESSON_DONE];
    sqlite3_bind_int64(q, 1, account);
    bind_text(q, 2, lesson);
    sqlite3_bind_int64(q, 3, at_ms);
    return step_end(s, run(s, ST_LESSON_DONE));
}

static int sqlite_set_webhook(storage *base, int64_t id, const char *url)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    sqlite3_stmt *q = s->stmt[ST_SET_WEBHOOK];
    sqlite3_bind_int64(q, 1, id);
    bind_text(q, 2, url);
    int rc = run(s, ST_SET_WEBHOOK);
    int none = rc == 0 && sqlite3_changes(s->db) == 0;
    return step_end(s, rc) != 0 ? -1 : none;
}

static int sqlite_webhook(storage *base, int64_t id, char *out, size_t cap)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_stmt *q = s->stmt[ST_WEBHOOK];
    sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        copy_column_text(q, 0, out, cap);
    sqlite3_reset(q);
    if (rc == SQLITE_ROW)
        return 1;
    return rc == SQLITE_DONE ? 0 : failed(s, "reading a webhook");
}

static int sqlite_list_accounts(storage *base,
                                int (*each)(void *ctx, const stored_account *a, int tables),
                                void *ctx)
{
    sqlite_storage *s = as_sqlite(base);
    sqlite3_stmt *q = s->stmt[ST_LIST_ACCOUNTS];
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        stored_account a;
        read_account(q, &a);
        if (each(ctx, &a, sqlite3_column_int(q, 5))) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_reset(q);
    return rc == SQLITE_DONE ? 0 : failed(s, "listing the accounts");
}

static int sqlite_set_disabled(storage *base, int64_t id, int disabled)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    sqlite3_stmt *q = s->stmt[ST_SET_DISABLED];
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int(q, 2, disabled != 0);
    int rc = run(s, ST_SET_DISABLED);
    int none = rc == 0 && sqlite3_changes(s->db) == 0;
    if (rc == 0 && disabled) {
        q = s->stmt[ST_DELETE_SESSIONS];
        sqlite3_bind_int64(q, 1, id);
        sqlite3_bind_null(q, 2);
        rc = run(s, ST_DELETE_SESSIONS);
    }
    return step_end(s, rc) != 0 ? -1 : none;
}

static int sqlite_delete_table(storage *base, const char *id)
{
    sqlite_storage *s = as_sqlite(base);
    if (step_begin(s))
        return -1;
    int rc = 0;
    for (int st = ST_DELETE_MOVES; rc == 0 && st <= ST_DELETE_TABLE; st++) {
        bind_text(s->stmt[st], 1, id);
        rc = run(s, (stmt_id)st);
    }
    int none = rc == 0 && sqlite3_changes(s->db) == 0;
    return step_end(s, rc) != 0 ? -1 : none;
}

/* The online backup: the whole database copied page by page into the new
 * file `path`, in one read transaction (a consistent snapshot; in WAL
 * mode a reader never blocks the server's writes). */
static int sqlite_backup(storage *base, const char *path, char *err, size_t errcap)
{
    sqlite_storage *s = as_sqlite(base);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        snprintf(err, errcap, "%s: %s", path,
                 errno == EEXIST ? "exists already (not overwritten)" : strerror(errno));
        return -1;
    }
    close(fd);
    sqlite3 *to = NULL;
    int rc = sqlite3_open_v2(path, &to, SQLITE_OPEN_READWRITE, NULL);
    sqlite3_backup *b = rc == SQLITE_OK ? sqlite3_backup_init(to, "main", s->db, "main") : NULL;
    if (b) {
        /* Busy: a writer held a lock for a moment (not in WAL mode); try again. */
        for (int tries = 0; tries < 100; tries++) {
            rc = sqlite3_backup_step(b, -1);
            if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
                break;
            sqlite3_sleep(50);
        }
        sqlite3_backup_finish(b);
    }
    int ok = b && rc == SQLITE_DONE && sqlite3_errcode(to) == SQLITE_OK;
    if (!ok)
        snprintf(err, errcap, "%s: %s", path, to ? sqlite3_errmsg(to) : "out of memory");
    sqlite3_close(to);
    if (!ok)
        unlink(path);
    return ok ? 0 : -1;
}

static int sqlite_claim(storage *base, const char *id)
{
    (void)base;
    (void)id;
    return 1;
}

static void sqlite_release(storage *base, const char *id)
{
    (void)base;
    (void)id;
}

static int sqlite_claim_orphans(storage *base, int max, void (*each)(void *ctx, const char *id),
                                void *ctx)
{
    (void)base;
    (void)max;
    (void)each;
    (void)ctx;
    return 0;
}

static int sqlite_lost(const storage *base)
{
    (void)base;
    return 0;
}

static int sqlite_server_id(const storage *base)
{
    (void)base;
    return 0;
}

static int sqlite_owner(storage *base, const char *id)
{
    (void)base;
    (void)id;
    return 0;
}

const storage_backend storage_sqlite_backend = {
    .name = "sqlite",
    .open = sqlite_open,
    .close = sqlite_close,
    .error = sqlite_error,
    .create_table = sqlite_create_table,
    .update_seat = sqlite_update_seat,
    .append_move = sqlite_append_move,
    .set_status = sqlite_set_status,
    .set_paused = sqlite_set_paused,
    .truncate_moves = sqlite_truncate_moves,
    .add_chat = sqlite_add_chat,
    .set_review = sqlite_set_review,
    .commit = sqlite_commit,
    .pending = sqlite_pending,
    .list = sqlite_list,
    .list_listed = sqlite_list_listed,
    .load_table = sqlite_load_table,
    .load_chat = sqlite_load_chat,
    .load_review = sqlite_load_review,
    .claim = sqlite_claim,
    .release = sqlite_release,
    .claim_orphans = sqlite_claim_orphans,
    .lost = sqlite_lost,
    .server_id = sqlite_server_id,
    .owner = sqlite_owner,
    .create_account = sqlite_create_account,
    .find_account = sqlite_find_account,
    .set_password = sqlite_set_password,
    .delete_account = sqlite_delete_account,
    .create_session = sqlite_create_session,
    .find_session = sqlite_find_session,
    .delete_session = sqlite_delete_session,
    .delete_sessions = sqlite_delete_sessions,
    .ratings = sqlite_ratings,
    .rate = sqlite_rate,
    .rating_changes = sqlite_rating_changes,
    .leaderboard = sqlite_leaderboard,
    .account_seats = sqlite_account_seats,
    .set_webhook = sqlite_set_webhook,
    .webhook = sqlite_webhook,
    .list_accounts = sqlite_list_accounts,
    .set_disabled = sqlite_set_disabled,
    .puzzle_solver = sqlite_puzzle_solver,
    .puzzle_rating = sqlite_puzzle_rating,
    .puzzle_attempted = sqlite_puzzle_attempted,
    .puzzle_attempt = sqlite_puzzle_attempt,
    .lessons_done = sqlite_lessons_done,
    .lesson_done = sqlite_lesson_done,
    .delete_table = sqlite_delete_table,
    .backup = sqlite_backup,
};
