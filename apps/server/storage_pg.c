/* storage_pg.c: the storage interface on PostgreSQL (libpq), one database
 * shared by several servers.
 *
 * A pass's writes go into one transaction (BEGIN at its first write,
 * COMMIT in storage_commit()). Each write is one statement, so that it is
 * atomic by itself; the refusals the server expects (a table, move number
 * or chat line that exists, a seat that does not) change nothing and keep
 * the transaction. Any other failure (the connection lost, a lock held
 * longer than LOCK_MS) makes PostgreSQL drop the whole transaction: the
 * pass's later writes fail at once, and its commit fails unless nothing
 * had been written yet. The next pass reconnects when the connection was
 * lost.
 *
 * Pipelined (storage_pipeline(), what the server uses): BEGIN and the
 * writes are sent in libpq's pipeline mode without waiting, each with
 * what its answer must be; the answers are read and checked together at
 * the commit (one round trip), then COMMIT, which flushes the WAL,
 * is sent only when every one was as expected (a second round trip), else
 * ROLLBACK: nothing of the pass is kept, and the server, which was told
 * the writes went through, starts over (storage_lost()). A read in the
 * middle of a pass checks the answers first, the same way. */
#include "storage.h"
#include "storage_backend.h"

#include "accounts.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    SCHEMA_VERSION = 10,
    MIGRATE_LOCK = 0x63617263, /* "carc": the advisory lock the servers migrate under */
    /* A table's advisory lock is (CLAIM_SPACE, hashtext(id)): two keys of
     * 32 bits, apart from MIGRATE_LOCK's one of 64. Two ids of one hash
     * share a lock: the process that holds it may run both. */
    CLAIM_SPACE = 0x63617274, /* "cart" */
    MAX_PARAMS = 24,
    MAX_PREPARED = 32,   /* statements prepared once per connection */
    MAX_IN_FLIGHT = 512, /* pipelined answers not yet read: then they are (socket buffers) */
    /* Tables read in one pipeline (pg_load_tables): 256 queries, whose
     * text and answers fit the socket buffers both ways. */
    BATCH_TABLES = 64,
    /* The look for orphans (a query over pg_locks and the live tables, tens
     * of ms with thousands of tables) runs when the database's clients
     * changed in the last ORPHAN_AFTER_MS (a server died: its locks go a
     * moment after its connection), when the last look found some, and at
     * least every ORPHAN_EVERY_MS anyway; else a look at pg_stat_activity
     * says nothing changed. */
    ORPHAN_AFTER_MS = 3000,
    ORPHAN_EVERY_MS = 4000,
    PARAM_BYTES = 2 * TOKEN_HASH_BYTES + 8, /* "\x" and a hash in hex */
};

/* The connection's settings: a write waits at most LOCK_MS (200 ms) for a
 * lock, as the SQLite backend waits for another process's write lock, and
 * a connection attempt at most 2 s; the URI may set others. */
static const char *const connect_keys[] = {"connect_timeout", "options", "application_name",
                                           "dbname", NULL};
static const char *const connect_defaults[] = {"2", "-c lock_timeout=200", "carcassonne"};

/* The accounts and their sessions (version 5): an account's id is never
 * given again (a deleted account's seats keep theirs); a name is unique
 * by its key, the name in lower case. */
#define ACCOUNTS_SQL                                                                               \
    "CREATE TABLE IF NOT EXISTS accounts ("                                                        \
    " id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,"                \
    " hash TEXT NOT NULL, created_ms BIGINT NOT NULL, disabled INTEGER NOT NULL DEFAULT 0,"        \
    " webhook TEXT NOT NULL DEFAULT '');"                                                          \
    "CREATE TABLE IF NOT EXISTS sessions ("                                                        \
    " hash BYTEA PRIMARY KEY, account BIGINT NOT NULL, created_ms BIGINT NOT NULL,"                \
    " expires_ms BIGINT NOT NULL);"                                                                \
    "CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account);"                            \
    "CREATE INDEX IF NOT EXISTS seats_account ON seats(account) WHERE account <> 0;"

/* The ratings (version 6): an account's rating in each category, and each
 * rated game's change. */
#define RATINGS_SQL                                                                                \
    "CREATE TABLE IF NOT EXISTS ratings ("                                                         \
    " account BIGINT NOT NULL, category INTEGER NOT NULL, rating DOUBLE PRECISION NOT NULL,"       \
    " rd DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL,"                         \
    " games INTEGER NOT NULL, last_ms BIGINT NOT NULL, PRIMARY KEY (account, category));"          \
    "CREATE INDEX IF NOT EXISTS ratings_board ON ratings(category, rating);"                       \
    "CREATE TABLE IF NOT EXISTS rating_changes ("                                                  \
    " table_id TEXT NOT NULL, account BIGINT NOT NULL, category INTEGER NOT NULL,"                 \
    " rating_before DOUBLE PRECISION NOT NULL, rating_after DOUBLE PRECISION NOT NULL,"            \
    " rd_after DOUBLE PRECISION NOT NULL, at_ms BIGINT NOT NULL, PRIMARY KEY (table_id, "          \
    "account));"                                                                                   \
    "CREATE INDEX IF NOT EXISTS rating_changes_account ON rating_changes(account, at_ms);"

/* The puzzles (version 9): each solver's and each puzzle's rating, and
 * each account's attempts, one a puzzle. */
#define PUZZLES_SQL                                                                                \
    "CREATE TABLE IF NOT EXISTS puzzle_solvers ("                                                  \
    " account BIGINT PRIMARY KEY, rating DOUBLE PRECISION NOT NULL,"                               \
    " rd DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL,"                         \
    " attempts INTEGER NOT NULL, streak INTEGER NOT NULL, best_streak INTEGER NOT NULL);"          \
    "CREATE TABLE IF NOT EXISTS puzzle_ratings ("                                                  \
    " puzzle TEXT PRIMARY KEY, rating DOUBLE PRECISION NOT NULL,"                                  \
    " rd DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL,"                         \
    " attempts INTEGER NOT NULL);"                                                                 \
    "CREATE TABLE IF NOT EXISTS puzzle_attempts ("                                                 \
    " account BIGINT NOT NULL, puzzle TEXT NOT NULL, solved INTEGER NOT NULL,"                     \
    " at_ms BIGINT NOT NULL, PRIMARY KEY (account, puzzle));"

/* The tutorial's lessons each account finished (version 10). */
#define LESSONS_SQL                                                                                \
    "CREATE TABLE IF NOT EXISTS lessons_done ("                                                    \
    " account BIGINT NOT NULL, lesson TEXT NOT NULL, at_ms BIGINT NOT NULL,"                       \
    " PRIMARY KEY (account, lesson));"

/* Version 10 (1 without the tables' `rules_text`: the rules as the record
 * writes them, valued rules included; 2 without their `first_text`: how
 * the first seat was chosen; 3 without the tables' and the moves'
 * `paused_ms`: the time a stalled server did not charge to a clock; 4
 * without the seats' `account` and the accounts and sessions tables; 5
 * without the tables' `rated` and the ratings; 6 without the accounts'
 * `disabled`; 7 without their `webhook`; 8 without the puzzles; 9 without
 * the lessons).
 * `carc_schema` holds the version (one row). The ids sort in the "C"
 * collation whatever the database's locale. */
static const char schema[] =
    "CREATE TABLE tables ("
    " id TEXT PRIMARY KEY, created_ms BIGINT NOT NULL, status INTEGER NOT NULL,"
    " players INTEGER NOT NULL, rules BIGINT NOT NULL, info INTEGER NOT NULL,"
    " clock_mode INTEGER NOT NULL, clock_seconds INTEGER NOT NULL,"
    " clock_increment INTEGER NOT NULL, clock_timeout INTEGER NOT NULL,"
    " listed INTEGER NOT NULL, seed BIGINT NOT NULL, salt BYTEA NOT NULL,"
    " addr TEXT NOT NULL, forfeit INTEGER NOT NULL, started_ms BIGINT NOT NULL,"
    " estimates INTEGER NOT NULL, expansions BIGINT NOT NULL, creator INTEGER NOT NULL,"
    " rules_text TEXT NOT NULL DEFAULT '', first_text TEXT NOT NULL DEFAULT '',"
    " paused_ms BIGINT NOT NULL DEFAULT 0, rated INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX tables_status ON tables(status, created_ms);"
    "CREATE TABLE seats ("
    " table_id TEXT NOT NULL, seat INTEGER NOT NULL, kind INTEGER NOT NULL,"
    " taken INTEGER NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL,"
    " token_hash BYTEA NOT NULL, invite_hash BYTEA NOT NULL, account BIGINT NOT NULL DEFAULT 0,"
    " PRIMARY KEY (table_id, seat));"
    "CREATE TABLE moves ("
    " table_id TEXT NOT NULL, turn INTEGER NOT NULL, move TEXT NOT NULL,"
    " made_by INTEGER NOT NULL, at_ms BIGINT NOT NULL, paused_ms BIGINT NOT NULL DEFAULT 0,"
    " PRIMARY KEY (table_id, turn));"
    "CREATE TABLE chat ("
    " table_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,"
    " line TEXT NOT NULL, at_ms BIGINT NOT NULL, PRIMARY KEY (table_id, n));"
    "CREATE TABLE reviews (table_id TEXT PRIMARY KEY, moves TEXT NOT NULL);" ACCOUNTS_SQL
        RATINGS_SQL PUZZLES_SQL LESSONS_SQL;

/* The steps from each older version to the next: version 1 gains the
 * tables' `rules_text` ("": the rules are the `rules` flags alone),
 * version 2 their `first_text` ("": how the first seat was chosen was not
 * kept), version 3 the tables' and the moves' `paused_ms` (0: no stall was
 * kept), version 4 the seats' `account` (0: every seat a guest's) and the
 * accounts and sessions, version 5 the tables' `rated` and the ratings,
 * version 6 the accounts' `disabled` (0: every account may log in; an
 * accounts table version 4's step made has it already), version 7 their
 * `webhook` ('': none), version 8 the puzzles' tables, version 9 the
 * lessons'. */
static const char *const upgrades[SCHEMA_VERSION] = {
    [1] = "ALTER TABLE tables ADD COLUMN rules_text TEXT NOT NULL DEFAULT '';",
    [2] = "ALTER TABLE tables ADD COLUMN first_text TEXT NOT NULL DEFAULT '';",
    [3] = "ALTER TABLE tables ADD COLUMN paused_ms BIGINT NOT NULL DEFAULT 0;"
          "ALTER TABLE moves ADD COLUMN paused_ms BIGINT NOT NULL DEFAULT 0;",
    [4] = "ALTER TABLE seats ADD COLUMN IF NOT EXISTS account BIGINT NOT NULL DEFAULT "
          "0;" ACCOUNTS_SQL,
    [5] =
        "ALTER TABLE tables ADD COLUMN IF NOT EXISTS rated INTEGER NOT NULL DEFAULT 0;" RATINGS_SQL,
    [6] = "ALTER TABLE accounts ADD COLUMN IF NOT EXISTS disabled INTEGER NOT NULL DEFAULT 0;",
    [7] = "ALTER TABLE accounts ADD COLUMN IF NOT EXISTS webhook TEXT NOT NULL DEFAULT '';",
    [8] = PUZZLES_SQL,
    [9] = LESSONS_SQL,
};

/* What the answer of a statement sent in pipeline mode must be: success
 * (ANSWER_OK), or `want` rows changed (ANSWER_COUNT) or as the first
 * column of its first row (ANSWER_FIRST); else `refusal` is the error. */
typedef enum answer_kind { ANSWER_OK, ANSWER_COUNT, ANSWER_FIRST } answer_kind;

typedef struct expected {
    answer_kind kind;
    int want;
    const char *refusal; /* a static text */
} expected;

typedef struct pg_storage {
    storage base;
    PGconn *conn;
    int in_transaction;
    int writes;      /* writes kept in the open transaction */
    int aborted;     /* a write of this pass failed and PostgreSQL dropped the transaction */
    int pipelined;   /* storage_pipeline(): writes are sent in pipeline mode ... */
    int in_pipeline; /* ... and the connection is in it now, with `expect` unread answers */
    expected *expect;
    int nexpect, expect_cap;
    int diverged; /* a pipelined pass failed after its writes were told done: start over */
    /* pg_claim_orphans()'s last looks: the clients seen (count and sum of
     * their pids), when they last changed, when the tables were last looked
     * at and whether orphans were found. */
    long long clients_seen;
    double clients_changed_s, orphans_looked_s;
    int orphans_found;
    char error[256];
    /* The statements with parameters (static texts) prepared on this
     * connection, by the address of their text: parsed and planned once. */
    const char *prepared[MAX_PREPARED];
    int nprepared;
} pg_storage;

static pg_storage *as_pg(storage *base)
{
    return (pg_storage *)base;
}

/* The text parameters of one statement. */
typedef struct params {
    const char *value[MAX_PARAMS];
    char buf[MAX_PARAMS][PARAM_BYTES];
    int n;
} params;

static void add_text(params *p, const char *text)
{
    p->value[p->n++] = text;
}

static void add_int(params *p, long long v)
{
    snprintf(p->buf[p->n], PARAM_BYTES, "%lld", v);
    p->value[p->n] = p->buf[p->n];
    p->n++;
}

/* Bytes as a bytea literal in hex ("\x0a1b..."). */
static void add_bytes(params *p, const uint8_t *bytes, size_t len)
{
    char *out = p->buf[p->n];
    out[0] = '\\';
    out[1] = 'x';
    out[2] = '\0';
    for (size_t i = 0; i < len && 2 * i + 4 < PARAM_BYTES; i++)
        snprintf(out + 2 + 2 * i, 3, "%02x", bytes[i]);
    p->value[p->n] = out;
    p->n++;
}

static int set_error(pg_storage *s, const char *what, const char *why)
{
    size_t len = strlen(why);
    while (len > 0 && (why[len - 1] == '\n' || why[len - 1] == ' '))
        len--;
    snprintf(s->error, sizeof s->error, "%s: %.*s", what, (int)len, why);
    return -1;
}

/* Runs `sql` (a static text) with `p` as a statement prepared on this
 * connection, preparing it the first time; NULL when it cannot be
 * prepared (then it is run unprepared). */
static PGresult *exec_prepared(pg_storage *s, const char *sql, const params *p)
{
    int i = 0;
    while (i < s->nprepared && s->prepared[i] != sql)
        i++;
    char name[16];
    snprintf(name, sizeof name, "carc%d", i);
    if (i == s->nprepared) {
        if (i == MAX_PREPARED)
            return NULL;
        PGresult *r = PQprepare(s->conn, name, sql, p->n, NULL);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        if (!ok)
            return NULL;
        s->prepared[s->nprepared++] = sql;
    }
    return PQexecPrepared(s->conn, name, p->n, p->value, NULL, NULL, 0);
}

/* Runs `sql` with `p` (may be NULL). The result when its status is
 * PGRES_COMMAND_OK or PGRES_TUPLES_OK (the caller PQclear()s it), else
 * NULL with the message in s->error. */
static int drain(pg_storage *s);

static PGresult *exec(pg_storage *s, const char *sql, const params *p)
{
    /* The pipelined writes' answers first: a read sees them done. */
    if (s->in_pipeline && drain(s) != 0)
        return NULL;
    /* Without parameters, the simple protocol: `sql` may hold several
     * statements (the schema). */
    PGresult *r = NULL;
    if (!p)
        r = PQexec(s->conn, sql);
    else if ((r = exec_prepared(s, sql, p)) == NULL)
        r = PQexecParams(s->conn, sql, p->n, NULL, p->value, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
        return r;
    set_error(s, "postgresql", r ? PQresultErrorMessage(r) : PQerrorMessage(s->conn));
    PQclear(r);
    return NULL;
}

/* Runs a statement whose result is not needed: 0, or -1. */
static int run(pg_storage *s, const char *sql, const params *p)
{
    PGresult *r = exec(s, sql, p);
    PQclear(r);
    return r ? 0 : -1;
}

static long long get_int(const PGresult *r, int row, int col)
{
    return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

/* A successful write's answer as `kind` counts it (ANSWER_OK: 1). */
static int answer_of(PGresult *r, answer_kind kind)
{
    if (kind == ANSWER_COUNT)
        return atoi(PQcmdTuples(r));
    if (kind == ANSWER_FIRST)
        return PQntuples(r) > 0 ? (int)get_int(r, 0, 0) : -1;
    return 1;
}

/* --- Pipeline mode --------------------------------------------------------------------- */

/* Notes what the answer of the statement just sent must be; -1 when out
 * of memory. */
static int expect(pg_storage *s, answer_kind kind, int want, const char *refusal)
{
    if (s->nexpect == s->expect_cap) {
        int cap = s->expect_cap ? 2 * s->expect_cap : 64;
        expected *bigger = realloc(s->expect, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return set_error(s, "postgresql", "out of memory");
        s->expect = bigger;
        s->expect_cap = cap;
    }
    s->expect[s->nexpect++] = (expected){kind, want, refusal};
    return 0;
}

/* Enters pipeline mode (in a pipelined transaction). 0, or -1. */
static int pipeline_on(pg_storage *s)
{
    if (s->in_pipeline)
        return 0;
    if (!PQenterPipelineMode(s->conn))
        return set_error(s, "postgresql: no pipeline mode", PQerrorMessage(s->conn));
    s->in_pipeline = 1;
    s->nexpect = 0;
    return 0;
}

/* Checks one answer against what it must be; the first failure's message
 * goes to s->error. 0, or -1. */
static int check_answer(pg_storage *s, PGresult *r, const expected *e, int failed)
{
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_PIPELINE_ABORTED)
        return failed ? -1 : set_error(s, "postgresql", "the pass's writes were dropped");
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
        return failed ? -1 : set_error(s, "postgresql", PQresultErrorMessage(r));
    if (answer_of(r, e->kind) != e->want) {
        if (!failed)
            snprintf(s->error, sizeof s->error, "%s", e->refusal);
        return -1;
    }
    return 0;
}

/* In pipeline mode: the first result of the next statement's answer (the
 * rest of it, up to the NULL that ends it, is cleared), or NULL when the
 * connection gave none (lost). */
static PGresult *next_answer(PGconn *c)
{
    PGresult *first = NULL, *r;
    while ((r = PQgetResult(c)) != NULL) {
        int sync = PQresultStatus(r) == PGRES_PIPELINE_SYNC;
        if (!first)
            first = r;
        else
            PQclear(r);
        if (sync)
            break; /* a sync point is not followed by a NULL */
    }
    return first;
}

/* Reads the sync point's result and leaves pipeline mode; -1 when it
 * cannot (the connection lost: resetting it leaves the mode). */
static int pipeline_off(PGconn *c)
{
    PGresult *sync = PQgetResult(c);
    int ok = PQresultStatus(sync) == PGRES_PIPELINE_SYNC;
    PQclear(sync);
    return ok && PQexitPipelineMode(c) ? 0 : -1;
}

/* Sends a sync, reads every answer sent for since the last one and checks
 * each, and leaves pipeline mode: one round trip. 0, or -1 with the first
 * failure in s->error; then the pass is aborted. */
static int drain(pg_storage *s)
{
    int failed = PQpipelineSync(s->conn) != 1;
    if (failed)
        set_error(s, "postgresql", PQerrorMessage(s->conn));
    for (int i = 0; i < s->nexpect && !(failed && PQstatus(s->conn) != CONNECTION_OK); i++) {
        PGresult *r = next_answer(s->conn);
        if (!r) {
            failed =
                failed || set_error(s, "postgresql: an answer is missing", PQerrorMessage(s->conn));
            continue;
        }
        failed = check_answer(s, r, &s->expect[i], failed) != 0 || failed;
        PQclear(r);
    }
    if (pipeline_off(s->conn) != 0)
        failed = failed || set_error(s, "postgresql", PQerrorMessage(s->conn));
    s->in_pipeline = 0;
    s->nexpect = 0;
    if (failed)
        s->aborted = 1;
    return failed ? -1 : 0;
}

/* Sends statement `sql` with `p` in pipeline mode as a prepared one
 * (prepared in the same pipeline the first time), its answer to be
 * `kind` `want`. 0, or -1 when it cannot be sent. */
static int send_prepared(pg_storage *s, const char *sql, const params *p, answer_kind kind,
                         int want, const char *refusal)
{
    int i = 0;
    while (i < s->nprepared && s->prepared[i] != sql)
        i++;
    char name[16];
    snprintf(name, sizeof name, "carc%d", i);
    int sent;
    if (i == s->nprepared && i < MAX_PREPARED) {
        if (!PQsendPrepare(s->conn, name, sql, p->n, NULL) || expect(s, ANSWER_OK, 1, ""))
            return set_error(s, "postgresql", PQerrorMessage(s->conn));
        s->prepared[s->nprepared++] = sql; /* a failure aborts the pass, and reconnects */
    }
    if (i < s->nprepared)
        sent = PQsendQueryPrepared(s->conn, name, p->n, p->value, NULL, NULL, 0);
    else
        sent = PQsendQueryParams(s->conn, sql, p->n, NULL, p->value, NULL, NULL, 0);
    if (!sent || expect(s, kind, want, refusal))
        return set_error(s, "postgresql", PQerrorMessage(s->conn));
    return 0;
}

static void get_text(const PGresult *r, int row, int col, char *out, size_t cap)
{
    snprintf(out, cap, "%s", PQgetvalue(r, row, col));
}

/* A column read as encode(x, 'hex'): `len` bytes, zeros when its length
 * is not that. */
static void get_bytes(const PGresult *r, int row, int col, uint8_t *out, size_t len)
{
    const char *hex = PQgetvalue(r, row, col);
    memset(out, 0, len);
    if (strlen(hex) != 2 * len)
        return;
    for (size_t i = 0; i < len; i++) {
        unsigned byte;
        if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
            return;
        out[i] = (uint8_t)byte;
    }
}

/* Reconnects when the connection was lost (PostgreSQL restarted). 0 when
 * connected. */
static int connected(pg_storage *s)
{
    if (PQstatus(s->conn) == CONNECTION_OK && !s->diverged)
        return 0;
    PQreset(s->conn); /* a new session: its locks and prepared statements gone */
    s->nprepared = 0;
    s->diverged = 0;
    s->in_pipeline = 0;
    s->nexpect = 0;
    if (PQstatus(s->conn) == CONNECTION_OK)
        return 0;
    return set_error(s, "postgresql: cannot connect", PQerrorMessage(s->conn));
}

static const char *pg_error(const storage *base)
{
    return ((const pg_storage *)base)->error;
}

/* --- Opening and the schema ----------------------------------------------------------- */

/* Brings the schema to SCHEMA_VERSION in one transaction, under an
 * advisory lock so that servers started together migrate one at a time. A
 * database of a newer version is refused. 0, or -1 with s->error. */
static int migrate(pg_storage *s)
{
    params p = {.n = 0};
    add_int(&p, MIGRATE_LOCK);
    if (run(s, "BEGIN", NULL) || run(s, "SELECT pg_advisory_xact_lock($1::bigint)", &p) ||
        run(s, "CREATE TABLE IF NOT EXISTS carc_schema (version INTEGER NOT NULL)", NULL))
        goto fail;
    PGresult *r = exec(s, "SELECT version FROM carc_schema", NULL);
    if (!r)
        goto fail;
    int version = PQntuples(r) > 0 ? (int)get_int(r, 0, 0) : 0;
    PQclear(r);
    if (version > SCHEMA_VERSION) {
        snprintf(s->error, sizeof s->error, "schema version %d is newer than this server's %d",
                 version, SCHEMA_VERSION);
        goto fail;
    }
    if (version == 0 &&
        (run(s, schema, NULL) || run(s, "INSERT INTO carc_schema VALUES (0)", NULL)))
        goto fail;
    /* A new database (0) has every table from `schema`: no step. */
    for (int v = version ? version : SCHEMA_VERSION; v < SCHEMA_VERSION; v++)
        if (run(s, upgrades[v], NULL))
            goto fail;
    p.n = 0;
    add_int(&p, SCHEMA_VERSION);
    if (run(s, "UPDATE carc_schema SET version=$1::int", &p) || run(s, "COMMIT", NULL))
        goto fail;
    return 0;
fail:;
    char saved[sizeof s->error];
    memcpy(saved, s->error, sizeof saved);
    run(s, "ROLLBACK", NULL);
    memcpy(s->error, saved, sizeof saved);
    return -1;
}

static void pg_close(storage *base);

/* PostgreSQL's notices ("relation exists, skipping") are not errors. */
static void ignore_notice(void *ctx, const char *message)
{
    (void)ctx;
    (void)message;
}

static storage *pg_open(const char *uri, char *err, size_t errcap)
{
    pg_storage *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    const char *values[] = {connect_defaults[0], connect_defaults[1], connect_defaults[2], uri,
                            NULL};
    s->conn = PQconnectdbParams(connect_keys, values, 1);
    if (PQstatus(s->conn) != CONNECTION_OK) {
        set_error(s, "postgresql", s->conn ? PQerrorMessage(s->conn) : "out of memory");
        snprintf(err, errcap, "%s", s->error);
        pg_close(&s->base);
        return NULL;
    }
    PQsetNoticeProcessor(s->conn, ignore_notice, NULL);
    if (migrate(s) != 0) {
        snprintf(err, errcap, "%s", s->error);
        pg_close(&s->base);
        return NULL;
    }
    return &s->base;
}

static void pg_close(storage *base)
{
    pg_storage *s = as_pg(base);
    if (!s)
        return;
    if (s->in_pipeline)
        drain(s);
    if (s->in_transaction)
        run(s, "ROLLBACK", NULL);
    PQfinish(s->conn);
    free(s->expect);
    free(s);
}

/* --- Transactions --------------------------------------------------------------------- */

/* Opens the pass's transaction when needed. */
static int write_begin(pg_storage *s)
{
    if (s->aborted) {
        if (!strstr(s->error, "(this pass's writes fail)")) {
            size_t len = strlen(s->error);
            snprintf(s->error + len, sizeof s->error - len, " (this pass's writes fail)");
        }
        return -1;
    }
    if (s->in_transaction)
        return s->pipelined ? pipeline_on(s) : 0;
    int failed = connected(s);
    if (!failed && s->pipelined)
        failed = pipeline_on(s) ||
                 !PQsendQueryParams(s->conn, "BEGIN", 0, NULL, NULL, NULL, NULL, 0) ||
                 expect(s, ANSWER_OK, 1, "");
    else if (!failed)
        failed = run(s, "BEGIN", NULL);
    if (failed) {
        s->aborted = 1;
        return -1;
    }
    s->in_transaction = 1;
    s->writes = 0;
    return 0;
}

/* A write that PostgreSQL failed (not a refusal): the transaction is gone.
 * When it held nothing yet, it ends here and the pass has nothing to
 * lose. Returns -1. */
static int write_failed(pg_storage *s)
{
    s->aborted = 1;
    if (s->writes == 0 && s->in_transaction) {
        char saved[sizeof s->error];
        memcpy(saved, s->error, sizeof saved);
        run(s, "ROLLBACK", NULL);
        memcpy(s->error, saved, sizeof saved);
        s->in_transaction = 0;
    }
    return -1;
}

/* The end of a write whose statement changed `changed` rows (-1: failed),
 * `want` being success: a refusal changes nothing and keeps the
 * transaction. */
static int write_end(pg_storage *s, int changed, int want, const char *refusal)
{
    if (changed < 0)
        return write_failed(s);
    if (changed != want) {
        snprintf(s->error, sizeof s->error, "%s", refusal);
        return -1;
    }
    s->writes++;
    return 0;
}

/* Runs write statement `sql` with `p` in the open transaction, its answer
 * (counted as `kind`) to be `want`, else the write is refused with
 * `refusal`: at once (write_end()), or pipelined, sent and checked at the
 * next drain(). 0, or -1. */
static int write_stmt(pg_storage *s, const char *sql, const params *p, answer_kind kind, int want,
                      const char *refusal)
{
    if (s->in_pipeline) {
        if (send_prepared(s, sql, p, kind, want, refusal) != 0)
            return write_failed(s);
        s->writes++;
        /* Answers wait in socket buffers: read them before those fill. */
        return s->nexpect >= MAX_IN_FLIGHT ? drain(s) : 0;
    }
    PGresult *r = exec(s, sql, p);
    int changed = r ? answer_of(r, kind) : -1;
    PQclear(r);
    return write_end(s, changed, want, refusal);
}

static int pg_commit(storage *base)
{
    pg_storage *s = as_pg(base);
    if (s->in_pipeline)
        drain(s);
    /* Pipelined, the server was told that the writes went through: when
     * they did not, it starts over. */
    if (s->aborted && s->pipelined && s->writes > 0)
        s->diverged = 1;
    int aborted = s->aborted;
    s->aborted = 0;
    /* A pass that lost the connection fails, even with nothing written:
     * the server starts over (storage_lost()). */
    if (aborted && PQstatus(s->conn) != CONNECTION_OK) {
        s->in_transaction = 0;
        return -1;
    }
    if (!s->in_transaction)
        return 0;
    s->in_transaction = 0;
    if (aborted) {
        char saved[sizeof s->error];
        memcpy(saved, s->error, sizeof saved);
        run(s, "ROLLBACK", NULL);
        memcpy(s->error, saved, sizeof saved);
        return -1;
    }
    /* A COMMIT of a transaction PostgreSQL dropped answers ROLLBACK. */
    PGresult *r = exec(s, "COMMIT", NULL);
    int ok = r && strcmp(PQcmdStatus(r), "COMMIT") == 0;
    if (r && !ok)
        snprintf(s->error, sizeof s->error, "postgresql: the transaction was rolled back");
    PQclear(r);
    return ok ? 0 : -1;
}

static int pg_pending(const storage *base)
{
    return ((const pg_storage *)base)->in_transaction;
}

static void pg_pipeline(storage *base, int on)
{
    pg_storage *s = as_pg(base);
    if (s->in_pipeline)
        drain(s);
    s->pipelined = on;
}

/* --- Writes --------------------------------------------------------------------------- */

static void seat_params(params *p, const char *table, int seat, const stored_seat *st)
{
    add_text(p, table);
    add_int(p, seat);
    add_int(p, st->kind);
    add_int(p, st->taken);
    add_text(p, st->name);
    add_text(p, st->spec);
    add_bytes(p, st->token_hash, TOKEN_HASH_BYTES);
    add_bytes(p, st->invite_hash, TOKEN_HASH_BYTES);
    add_int(p, st->account);
}

static void move_params(params *p, const char *table, int turn, const stored_move *m)
{
    add_text(p, table);
    add_int(p, turn);
    add_text(p, m->text);
    add_int(p, m->by);
    add_int(p, m->at_ms);
    add_int(p, m->paused_ms);
}

static const char insert_table_sql[] =
    "INSERT INTO tables VALUES ($1, $2::bigint, $3::int, $4::int, $5::bigint, $6::int, $7::int,"
    " $8::int, $9::int, $10::int, $11::int, $12::bigint, $13::bytea, $14, $15::int, $16::bigint,"
    " $17::int, $18::bigint, $19::int, $20, $21, $22::bigint, $23::int) ON CONFLICT DO NOTHING";
static const char insert_seat_sql[] = "INSERT INTO seats VALUES ($1, $2::int, $3::int, $4::int,"
                                      " $5, $6, $7::bytea, $8::bytea, $9::bigint)";
static const char insert_move_sql[] =
    "INSERT INTO moves VALUES ($1, $2::int, $3, $4::int, $5::bigint, $6::bigint)";

static int insert_table(pg_storage *s, const stored_table *t)
{
    params p = {.n = 0};
    add_text(&p, t->id);
    add_int(&p, t->created_ms);
    add_int(&p, t->status);
    add_int(&p, t->players);
    add_int(&p, t->rules.flags);
    add_int(&p, t->info);
    add_int(&p, t->clock.mode);
    add_int(&p, t->clock.seconds);
    add_int(&p, t->clock.increment);
    add_int(&p, t->clock.on_timeout);
    add_int(&p, t->listed);
    add_int(&p, (long long)t->seed);
    add_bytes(&p, t->salt, TOKEN_SECRET_BYTES);
    add_text(&p, t->addr);
    add_int(&p, t->forfeit);
    add_int(&p, t->started_ms);
    add_int(&p, t->estimates);
    add_int(&p, t->rules.expansions);
    add_int(&p, t->creator);
    char rules[CARC_RULES_TEXT_MAX];
    storage_rules_text(t, rules, sizeof rules);
    add_text(&p, rules);
    add_text(&p, t->first_text);
    add_int(&p, t->paused_ms);
    add_int(&p, t->rated);
    return write_stmt(s, insert_table_sql, &p, ANSWER_COUNT, 1, "the table exists");
}

static int pg_create_table(storage *base, const stored_table *t)
{
    pg_storage *s = as_pg(base);
    if (write_begin(s))
        return -1;
    /* A table that exists is refused here; its seats and moves, new with
     * it, cannot clash (a failure of theirs drops the transaction). */
    if (insert_table(s, t) != 0)
        return -1;
    for (int i = 0; i < t->players; i++) {
        params p = {.n = 0};
        seat_params(&p, t->id, i, &t->seats[i]);
        if (write_stmt(s, insert_seat_sql, &p, ANSWER_OK, 1, "") != 0)
            return write_failed(s);
    }
    for (int i = 0; i < t->nmoves; i++) {
        params p = {.n = 0};
        move_params(&p, t->id, i, &t->moves[i]);
        if (write_stmt(s, insert_move_sql, &p, ANSWER_OK, 1, "") != 0)
            return write_failed(s);
    }
    return 0;
}

static int pg_update_seat(storage *base, const char *id, int seat, const stored_seat *st,
                          int64_t started_ms)
{
    pg_storage *s = as_pg(base);
    if (write_begin(s))
        return -1;
    params p = {.n = 0};
    seat_params(&p, id, seat, st);
    add_int(&p, started_ms);
    /* The seat, and the table's start when it is given, in one statement:
     * no seat, no change. */
    return write_stmt(
        s,
        "WITH st AS (UPDATE seats SET kind=$3::int, taken=$4::int, name=$5, spec=$6,"
        " token_hash=$7::bytea, invite_hash=$8::bytea, account=$9::bigint"
        " WHERE table_id=$1 AND seat=$2::int RETURNING 1),"
        " tb AS (UPDATE tables SET started_ms=$10::bigint, status=CASE WHEN $10::bigint > 0"
        " THEN 1 ELSE status END WHERE id=$1 AND $10::bigint > 0 AND EXISTS"
        " (SELECT 1 FROM st) RETURNING 1)"
        " SELECT count(*) FROM st",
        &p, ANSWER_FIRST, 1, "no such seat");
}

static int pg_append_move(storage *base, const char *id, int turn, const stored_move *m,
                          table_status status, int forfeit)
{
    pg_storage *s = as_pg(base);
    if (write_begin(s))
        return -1;
    params p = {.n = 0};
    move_params(&p, id, turn, m);
    add_int(&p, status);
    add_int(&p, forfeit);
    add_int(&p, CLAIM_SPACE);
    /* The database refuses a move number that exists, and a move from a
     * connection while another holds the table's lock: of two servers
     * that both think they run the table, one only writes move `turn`. */
    return write_stmt(s,
                      "WITH m AS (INSERT INTO moves SELECT $1, $2::int, $3, $4::int, $5::bigint,"
                      " $6::bigint WHERE EXISTS (SELECT 1 FROM tables WHERE id=$1)"
                      " AND pg_try_advisory_xact_lock($9::int, hashtext($1))"
                      " ON CONFLICT DO NOTHING RETURNING 1)"
                      " UPDATE tables SET status=$7::int, forfeit=$8::int, paused_ms=0 WHERE id=$1"
                      " AND EXISTS (SELECT 1 FROM m)",
                      &p, ANSWER_COUNT, 1,
                      "the move number exists, the table does not, or another server runs it");
}

static int pg_set_status(storage *base, const char *id, table_status status, int forfeit)
{
    pg_storage *s = as_pg(base);
    if (write_begin(s))
        return -1;
    params p = {.n = 0};
    add_text(&p, id);
    add_int(&p, status);
    add_int(&p, forfeit);
    add_int(&p, CLAIM_SPACE);
    /* 1 when set, or when there is no such table (nothing to do, as with
     * SQLite); 0 when another server runs it (refused). */
    return write_stmt(s,
                      "WITH u AS (UPDATE tables SET status=$2::int, forfeit=$3::int WHERE id=$1"
                      " AND pg_try_advisory_xact_lock($4::int, hashtext($1)) RETURNING 1)"
                      " SELECT (SELECT count(*) FROM u) + (NOT EXISTS"
                      " (SELECT 1 FROM tables WHERE id=$1))::int",
                      &p, ANSWER_FIRST, 1, "another server runs the table");
}

static int pg_set_paused(storage *base, const char *id, int64_t paused_ms)
{
    pg_storage *s = as_pg(base);
    if (write_begin(s))
        return -1;
    params p = {.n = 0};
    add_text(&p, id);
    add_int(&p, paused_ms);
    add_int(&p, CLAIM_SPACE);
    /* As a status: 1 when set or when there is no such table, 0 when
     * another server runs it (refused). */
    return write_stmt(s,
                      "WITH u AS (UPDATE tables SET paused_ms=$2::bigint WHERE id=$1"
                      " AND pg_try_advisory_xact_lock($3::int, hashtext($1)) RETURNING 1)"
                      " SELECT (SELECT count(*) FROM u) + (NOT EXISTS"
                      " (SELECT 1 FROM tables WHERE id=$1))::int",
                      &p, ANSWER_FIRST, 1, "another server runs the table");
}

static int pg_truncate_moves(storage *base, const char *id, int nmoves)
{
    pg_storage *s = as_pg(base);
    if (write_begin(s))
        return -1;
    params p = {.n = 0};
    add_text(&p, id);
    add_int(&p, nmoves);
    add_int(&p, CLAIM_SPACE);
    /* Only from the connection that runs the table (its lock), as a move:
     * the moves go and the turn's paused time starts again; 1 when done. */
    return write_stmt(s,
                      "WITH l AS (SELECT pg_try_advisory_xact_lock($3::int, hashtext($1)) AS ok),"
                      " d AS (DELETE FROM moves WHERE table_id=$1 AND turn >= $2::int"
                      " AND (SELECT ok FROM l) RETURNING 1),"
                      " u AS (UPDATE tables SET paused_ms=0 WHERE id=$1 AND (SELECT ok FROM l)"
                      " RETURNING 1)"
                      " SELECT count(*) FROM u",
                      &p, ANSWER_FIRST, 1, "another server runs the table");
}

static int pg_add_chat(storage *base, const char *id, int n, const stored_chat *line)
{
    pg_storage *s = as_pg(base);
    if (write_begin(s))
        return -1;
    params p = {.n = 0};
    add_text(&p, id);
    add_int(&p, n);
    add_int(&p, line->seat);
    add_text(&p, line->name);
    add_text(&p, line->text);
    add_int(&p, line->at_ms);
    return write_stmt(s,
                      "INSERT INTO chat VALUES ($1, $2::int, $3::int, $4, $5, $6::bigint)"
                      " ON CONFLICT DO NOTHING",
                      &p, ANSWER_COUNT, 1, "the chat line exists");
}

static int pg_set_review(storage *base, const char *id, const char *json)
{
    pg_storage *s = as_pg(base);
    if (write_begin(s))
        return -1;
    params p = {.n = 0};
    add_text(&p, id);
    add_text(&p, json);
    return write_stmt(s,
                      "INSERT INTO reviews VALUES ($1, $2) ON CONFLICT (table_id)"
                      " DO UPDATE SET moves=EXCLUDED.moves",
                      &p, ANSWER_COUNT, 1, "");
}

/* --- Reads ---------------------------------------------------------------------------- */

/* Runs a read: reconnects first when outside a transaction. */
static PGresult *read_rows(pg_storage *s, const char *sql, const params *p)
{
    if (!s->in_transaction && connected(s))
        return NULL;
    return exec(s, sql, p);
}

static void read_table_row(const PGresult *r, stored_table *t)
{
    get_text(r, 0, 0, t->id, sizeof t->id);
    t->created_ms = get_int(r, 0, 1);
    t->status = (table_status)get_int(r, 0, 2);
    t->players = (int)get_int(r, 0, 3);
    t->rules = carc_rules_standard();
    t->rules.flags = (uint32_t)get_int(r, 0, 4);
    t->info = (table_info)get_int(r, 0, 5);
    t->clock.mode = (clock_mode)get_int(r, 0, 6);
    t->clock.seconds = (int)get_int(r, 0, 7);
    t->clock.increment = (int)get_int(r, 0, 8);
    t->clock.on_timeout = (clock_timeout)get_int(r, 0, 9);
    t->listed = (int)get_int(r, 0, 10);
    t->seed = (uint64_t)get_int(r, 0, 11);
    get_bytes(r, 0, 12, t->salt, TOKEN_SECRET_BYTES);
    get_text(r, 0, 13, t->addr, sizeof t->addr);
    t->forfeit = (int)get_int(r, 0, 14);
    t->started_ms = get_int(r, 0, 15);
    t->estimates = (int)get_int(r, 0, 16);
    t->rules.expansions = (uint32_t)get_int(r, 0, 17);
    t->creator = (int)get_int(r, 0, 18);
    char rules[CARC_RULES_TEXT_MAX];
    get_text(r, 0, 19, rules, sizeof rules);
    storage_rules_read(t, rules);
    get_text(r, 0, 20, t->first_text, sizeof t->first_text);
    t->paused_ms = get_int(r, 0, 21);
    t->rated = (int)get_int(r, 0, 22);
}

static void read_seats(const PGresult *r, stored_table *t)
{
    for (int i = 0; i < PQntuples(r); i++) {
        long long seat = get_int(r, i, 0);
        if (seat < 0 || seat >= CARC_MAX_PLAYERS)
            continue;
        stored_seat *st = &t->seats[seat];
        st->kind = (seat_kind)get_int(r, i, 1);
        st->taken = (int)get_int(r, i, 2);
        get_text(r, i, 3, st->name, sizeof st->name);
        get_text(r, i, 4, st->spec, sizeof st->spec);
        get_bytes(r, i, 5, st->token_hash, TOKEN_HASH_BYTES);
        get_bytes(r, i, 6, st->invite_hash, TOKEN_HASH_BYTES);
        st->account = get_int(r, i, 7);
    }
}

static int read_moves(pg_storage *s, const PGresult *r, stored_table *t)
{
    t->nmoves = 0;
    for (int i = 0; i < PQntuples(r); i++) {
        if (get_int(r, i, 0) != t->nmoves || t->nmoves == STORED_MAX_MOVES) {
            snprintf(s->error, sizeof s->error, "table %s: its moves are not 0, 1, 2, ...", t->id);
            return -1;
        }
        stored_move *m = &t->moves[t->nmoves++];
        get_text(r, i, 1, m->text, sizeof m->text);
        m->by = (move_by)get_int(r, i, 2);
        m->at_ms = get_int(r, i, 3);
        m->paused_ms = get_int(r, i, 4);
    }
    return 0;
}

/* A table's row, seats and moves: three reads in one round trip (pipeline
 * mode), for a takeover reads thousands of tables at once. */
static const char *const table_reads[3] = {
    ("SELECT id, created_ms, status, players, rules, info, clock_mode,"
     " clock_seconds, clock_increment, clock_timeout, listed, seed,"
     " encode(salt, 'hex'), addr, forfeit, started_ms, estimates,"
     " expansions, creator, rules_text, first_text, paused_ms, rated FROM tables WHERE id=$1"),
    ("SELECT seat, kind, taken, name, spec, encode(token_hash, 'hex'),"
     " encode(invite_hash, 'hex'), account FROM seats WHERE table_id=$1 ORDER BY seat"),
    "SELECT turn, move, made_by, at_ms, paused_ms FROM moves WHERE table_id=$1 ORDER BY turn",
};

/* A table from the answers of table_reads: 1, 0 when there is none, -1
 * (s->error) when what is stored does not make one. */
static int table_from_answers(pg_storage *s, PGresult *const r[3], stored_table *out)
{
    if (PQntuples(r[0]) == 0)
        return 0;
    memset(out, 0, sizeof *out);
    read_table_row(r[0], out);
    if (out->players < CARC_MIN_PLAYERS || out->players > CARC_MAX_PLAYERS) {
        snprintf(s->error, sizeof s->error, "table %s: %d players", out->id, out->players);
        return -1;
    }
    read_seats(r[1], out);
    return read_moves(s, r[2], out) != 0 ? -1 : 1;
}

/* Calls `each` with the first column of every row of `r` (NULL: a failed
 * read, -1) until it returns nonzero; clears `r`. */
static int each_id(PGresult *r, int (*each)(void *ctx, const char *id), void *ctx)
{
    if (!r)
        return -1;
    for (int i = 0; i < PQntuples(r); i++) {
        char id[STORED_ID_BYTES];
        get_text(r, i, 0, id, sizeof id);
        if (each(ctx, id))
            break;
    }
    PQclear(r);
    return 0;
}

static int pg_list(storage *base, unsigned statuses, int (*each)(void *ctx, const char *id),
                   void *ctx)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, statuses);
    PGresult *r = read_rows(s,
                            "SELECT id FROM tables WHERE ($1::int >> status) & 1 = 1"
                            " ORDER BY created_ms, id COLLATE \"C\"",
                            &p);
    return each_id(r, each, ctx);
}

static int pg_list_listed(storage *base, int max, int (*each)(void *ctx, const char *id), void *ctx)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, max);
    PGresult *r = read_rows(s,
                            "SELECT id FROM tables WHERE listed=1 AND status IN (0, 1)"
                            " ORDER BY created_ms DESC, id COLLATE \"C\" DESC LIMIT $1::int",
                            &p);
    return each_id(r, each, ctx);
}

/* A table's last $2 chat lines, oldest first. */
static const char chat_read[] = "SELECT n, seat, name, line, at_ms FROM (SELECT * FROM chat"
                                " WHERE table_id=$1 ORDER BY n DESC LIMIT $2::int) AS last"
                                " ORDER BY n";

/* The lines of chat_read's answer `r`, as storage_load_chat() gives them. */
static int chat_from_answer(const PGresult *r, stored_chat *out, int cap, int *total)
{
    *total = 0;
    int n = PQntuples(r) < cap ? PQntuples(r) : cap;
    for (int i = 0; i < n; i++) {
        stored_chat *line = &out[i];
        line->seat = (int)get_int(r, i, 1);
        get_text(r, i, 2, line->name, sizeof line->name);
        get_text(r, i, 3, line->text, sizeof line->text);
        line->at_ms = get_int(r, i, 4);
        *total = (int)get_int(r, i, 0) + 1;
    }
    return n;
}

static int pg_load_chat(storage *base, const char *id, stored_chat *out, int cap, int *total)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_text(&p, id);
    add_int(&p, cap);
    *total = 0;
    PGresult *r = read_rows(s, chat_read, &p);
    if (!r)
        return -1;
    int n = chat_from_answer(r, out, cap, total);
    PQclear(r);
    return n;
}

enum { NO_CHAT = -1 };

/* Reads `n` (at most BATCH_TABLES) tables in one round trip: table_reads
 * for each, and chat_read unless chat_cap is NO_CHAT, pipelined; their
 * answers into `r` (r[i][3] NULL without chat; the caller PQclear()s
 * them), 0; or -1 with s->error and nothing to clear. */
static int read_batch(pg_storage *s, const char (*ids)[STORED_ID_BYTES], int n, int chat_cap,
                      PGresult *r[][4])
{
    char cap[16];
    snprintf(cap, sizeof cap, "%d", chat_cap);
    int reads = chat_cap == NO_CHAT ? 3 : 4;
    int ok = PQenterPipelineMode(s->conn);
    for (int i = 0; ok && i < n; i++) {
        const char *values[] = {ids[i], cap};
        for (int q = 0; ok && q < 3; q++)
            ok = PQsendQueryParams(s->conn, table_reads[q], 1, NULL, values, NULL, NULL, 0);
        if (reads == 4)
            ok = ok && PQsendQueryParams(s->conn, chat_read, 2, NULL, values, NULL, NULL, 0);
    }
    int sent = ok && PQpipelineSync(s->conn);
    if (!sent)
        set_error(s, "postgresql", PQerrorMessage(s->conn));
    ok = sent;
    for (int i = 0; i < n; i++)
        for (int q = 0; q < 4; q++) {
            r[i][q] = sent && q < reads ? next_answer(s->conn) : NULL;
            if (q == reads)
                continue;
            if (ok && PQresultStatus(r[i][q]) != PGRES_TUPLES_OK) {
                ok = 0;
                set_error(s, "postgresql",
                          r[i][q] ? PQresultErrorMessage(r[i][q]) : PQerrorMessage(s->conn));
            }
        }
    if ((sent && pipeline_off(s->conn) != 0) && ok) {
        ok = 0;
        set_error(s, "postgresql", PQerrorMessage(s->conn));
    }
    if (!ok)
        for (int i = 0; i < n; i++)
            for (int q = 0; q < 4; q++)
                PQclear(r[i][q]);
    return ok ? 0 : -1;
}

static int pg_load_table(storage *base, const char *id, stored_table *out)
{
    pg_storage *s = as_pg(base);
    char ids[1][STORED_ID_BYTES];
    if (strlen(id) >= sizeof ids[0])
        return 0; /* every stored id fits STORED_ID_BYTES */
    memcpy(ids[0], id, strlen(id) + 1);
    if ((!s->in_transaction && connected(s)) || (s->in_pipeline && drain(s)))
        return -1;
    PGresult *r[1][4];
    if (read_batch(s, ids, 1, NO_CHAT, r) != 0)
        return -1;
    int found = table_from_answers(s, r[0], out);
    for (int q = 0; q < 4; q++)
        PQclear(r[0][q]);
    return found;
}

static int pg_load_tables(storage *base, const char (*ids)[STORED_ID_BYTES], int n, int chat_cap,
                          storage_loaded_fn each, void *ctx)
{
    pg_storage *s = as_pg(base);
    if ((!s->in_transaction && connected(s)) || (s->in_pipeline && drain(s)))
        return -1;
    stored_table *t = malloc(sizeof *t);
    stored_chat *chat = malloc((size_t)(chat_cap > 0 ? chat_cap : 1) * sizeof *chat);
    PGresult *(*r)[4] = malloc(BATCH_TABLES * sizeof *r);
    int result = t && chat && r ? 0 : -1;
    if (result)
        snprintf(s->error, sizeof s->error, "out of memory");
    for (int at = 0; result == 0 && at < n; at += BATCH_TABLES) {
        int m = n - at < BATCH_TABLES ? n - at : BATCH_TABLES;
        if (read_batch(s, ids + at, m, chat_cap, r) != 0) {
            result = -1;
            break;
        }
        for (int i = 0; i < m; i++) {
            int found = result == 0 ? table_from_answers(s, r[i], t) : 0;
            int total = 0,
                nchat = found == 1 ? chat_from_answer(r[i][3], chat, chat_cap, &total) : 0;
            if (found < 0)
                result = -1;
            else if (result == 0)
                each(ctx, ids[at + i], found ? t : NULL, chat, nchat, total);
            for (int q = 0; q < 4; q++)
                PQclear(r[i][q]);
        }
    }
    free(r);
    free(chat);
    free(t);
    return result;
}

static int pg_load_review(storage *base, const char *id, char **json)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_text(&p, id);
    *json = NULL;
    PGresult *r = read_rows(s, "SELECT moves FROM reviews WHERE table_id=$1", &p);
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    if (found && !(*json = strdup(PQgetvalue(r, 0, 0)))) {
        snprintf(s->error, sizeof s->error, "out of memory");
        found = -1;
    }
    PQclear(r);
    return found;
}

/* --- Accounts and sessions ------------------------------------------------------------ */

/* A write whose answer is read at once (an account's): in the pass's
 * transaction but out of the pipeline (exec() checks the pipelined
 * writes' answers first), so that a refusal, a statement that changes no
 * row, is seen here and keeps the transaction. The result (the caller
 * PQclear()s it), or NULL: the write failed, and so does the pass. */
static PGresult *write_now(pg_storage *s, const char *sql, const params *p)
{
    if (write_begin(s))
        return NULL;
    PGresult *r = exec(s, sql, p);
    if (!r) {
        write_failed(s);
        return NULL;
    }
    s->writes++;
    return r;
}

/* Runs write `sql` at once: the rows it changed, or -1. */
static int write_count(pg_storage *s, const char *sql, const params *p)
{
    PGresult *r = write_now(s, sql, p);
    int n = r ? atoi(PQcmdTuples(r)) : -1;
    PQclear(r);
    return n;
}

static int pg_create_account(storage *base, const char *name, const char *name_key,
                             const char *hash, int64_t created_ms, int64_t *id)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_text(&p, name);
    add_text(&p, name_key);
    add_text(&p, hash);
    add_int(&p, created_ms);
    PGresult *r = write_now(s,
                            "INSERT INTO accounts (name, name_key, hash, created_ms)"
                            " VALUES ($1, $2, $3, $4::bigint) ON CONFLICT DO NOTHING RETURNING id",
                            &p);
    if (!r)
        return -1;
    int taken = PQntuples(r) == 0;
    if (!taken)
        *id = get_int(r, 0, 0);
    PQclear(r);
    return taken;
}

/* The account of row `row` of `r` (id, name, hash, created_ms, disabled). */
static void get_account(const PGresult *r, int row, stored_account *out)
{
    out->id = get_int(r, row, 0);
    get_text(r, row, 1, out->name, sizeof out->name);
    get_text(r, row, 2, out->hash, sizeof out->hash);
    out->created_ms = get_int(r, row, 3);
    out->disabled = get_int(r, row, 4) != 0;
}

/* The account of the first row of `r`: 1, 0 when there is none, -1 when
 * `r` is NULL (a failed read); clears `r`. */
static int one_account(PGresult *r, stored_account *out)
{
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    if (found)
        get_account(r, 0, out);
    PQclear(r);
    return found;
}

static int pg_find_account(storage *base, const char *name_key, stored_account *out)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_text(&p, name_key);
    return one_account(
        read_rows(s, "SELECT id, name, hash, created_ms, disabled FROM accounts WHERE name_key=$1",
                  &p),
        out);
}

static int pg_set_password(storage *base, int64_t id, const char *hash)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, id);
    add_text(&p, hash);
    int n = write_count(s, "UPDATE accounts SET hash=$2 WHERE id=$1::bigint", &p);
    return n < 0 ? -1 : n == 0;
}

static int pg_delete_account(storage *base, int64_t id)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, id);
    /* One statement: the account, its sessions, its lessons, and its
     * seats' name. */
    int n = write_count(s,
                        "WITH a AS (DELETE FROM accounts WHERE id=$1::bigint RETURNING 1),"
                        " ss AS (DELETE FROM sessions WHERE account=$1::bigint RETURNING 1),"
                        " ls AS (DELETE FROM lessons_done WHERE account=$1::bigint RETURNING 1),"
                        " st AS (UPDATE seats SET account=-1, name='" ACC_DELETED_NAME "'"
                        " WHERE account=$1::bigint RETURNING 1)"
                        " SELECT 1 FROM a",
                        &p);
    return n < 0 ? -1 : n == 0;
}

static int pg_create_session(storage *base, const uint8_t *hash, int64_t account,
                             int64_t created_ms, int64_t expires_ms)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_bytes(&p, hash, STORED_SESSION_HASH_BYTES);
    add_int(&p, account);
    add_int(&p, created_ms);
    add_int(&p, expires_ms);
    return write_count(s,
                       "INSERT INTO sessions VALUES ($1::bytea, $2::bigint, $3::bigint, $4::bigint)"
                       " ON CONFLICT DO NOTHING",
                       &p) == 1
               ? 0
               : -1;
}

static int pg_find_session(storage *base, const uint8_t *hash, int64_t now_ms, stored_account *out)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_bytes(&p, hash, STORED_SESSION_HASH_BYTES);
    add_int(&p, now_ms);
    return one_account(read_rows(s,
                                 "SELECT a.id, a.name, a.hash, a.created_ms, a.disabled"
                                 " FROM sessions s JOIN accounts a ON a.id=s.account"
                                 " WHERE s.hash=$1::bytea AND s.expires_ms > $2::bigint"
                                 " AND a.disabled = 0",
                                 &p),
                       out);
}

static int pg_delete_session(storage *base, const uint8_t *hash)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_bytes(&p, hash, STORED_SESSION_HASH_BYTES);
    return write_count(s, "DELETE FROM sessions WHERE hash=$1::bytea", &p) < 0 ? -1 : 0;
}

static int pg_delete_sessions(storage *base, int64_t account, const uint8_t *keep, int64_t now_ms)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, account);
    if (keep)
        add_bytes(&p, keep, STORED_SESSION_HASH_BYTES);
    else
        add_text(&p, NULL);
    add_int(&p, now_ms);
    return write_count(s,
                       "DELETE FROM sessions WHERE account=$1::bigint AND ($2::bytea IS NULL"
                       " OR hash <> $2::bytea OR expires_ms <= $3::bigint)",
                       &p) < 0
               ? -1
               : 0;
}

static void add_double(params *p, double v)
{
    snprintf(p->buf[p->n], PARAM_BYTES, "%.17g", v);
    p->value[p->n] = p->buf[p->n];
    p->n++;
}

/* A rating's columns (category, rating, rd, volatility, games, last_ms)
 * of row `row` of `r`, from column `col` on. */
static void get_rating(const PGresult *r, int row, int col, stored_rating *out)
{
    out->category = (int)get_int(r, row, col);
    out->rating = strtod(PQgetvalue(r, row, col + 1), NULL);
    out->rd = strtod(PQgetvalue(r, row, col + 2), NULL);
    out->volatility = strtod(PQgetvalue(r, row, col + 3), NULL);
    out->games = (int)get_int(r, row, col + 4);
    out->last_ms = get_int(r, row, col + 5);
}

static int pg_ratings(storage *base, int64_t account, stored_rating *out, int cap)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, account);
    add_int(&p, cap);
    PGresult *r = read_rows(s,
                            "SELECT category, rating, rd, volatility, games, last_ms FROM ratings"
                            " WHERE account=$1::bigint ORDER BY category LIMIT $2::int",
                            &p);
    if (!r)
        return -1;
    int n = 0;
    for (int i = 0; i < PQntuples(r) && n < cap; i++)
        get_rating(r, i, 0, &out[n++]);
    PQclear(r);
    return n;
}

static int pg_rate(storage *base, const char *table, int64_t account, double before,
                   const stored_rating *after)
{
    pg_storage *s = as_pg(base);
    if (write_begin(s))
        return -1;
    params p = {.n = 0};
    add_int(&p, account);
    add_int(&p, after->category);
    add_double(&p, after->rating);
    add_double(&p, after->rd);
    add_double(&p, after->volatility);
    add_int(&p, after->games);
    add_int(&p, after->last_ms);
    add_text(&p, table);
    add_double(&p, before);
    /* The change first (refused when the table rated the account already),
     * then the rating, in one statement. */
    return write_stmt(s,
                      "WITH c AS (INSERT INTO rating_changes VALUES ($8, $1::bigint, $2::int,"
                      " $9::float8, $3::float8, $4::float8, $7::bigint) ON CONFLICT DO NOTHING"
                      " RETURNING 1)"
                      " INSERT INTO ratings SELECT $1::bigint, $2::int, $3::float8, $4::float8,"
                      " $5::float8, $6::int, $7::bigint WHERE EXISTS (SELECT 1 FROM c)"
                      " ON CONFLICT (account, category) DO UPDATE SET rating=EXCLUDED.rating,"
                      " rd=EXCLUDED.rd, volatility=EXCLUDED.volatility, games=EXCLUDED.games,"
                      " last_ms=EXCLUDED.last_ms",
                      &p, ANSWER_COUNT, 1, "the table rated the account already");
}

static int pg_rating_changes(storage *base, int64_t account, stored_rating_change *out, int cap)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, account);
    add_int(&p, cap);
    PGresult *r = read_rows(s,
                            "SELECT table_id, category, rating_before, rating_after, rd_after,"
                            " at_ms FROM rating_changes WHERE account=$1::bigint"
                            " ORDER BY at_ms DESC, table_id COLLATE \"C\" DESC LIMIT $2::int",
                            &p);
    if (!r)
        return -1;
    int n = 0;
    for (int i = 0; i < PQntuples(r) && n < cap; i++) {
        stored_rating_change *c = &out[n++];
        get_text(r, i, 0, c->table, sizeof c->table);
        c->category = (int)get_int(r, i, 1);
        c->before = strtod(PQgetvalue(r, i, 2), NULL);
        c->after = strtod(PQgetvalue(r, i, 3), NULL);
        c->rd_after = strtod(PQgetvalue(r, i, 4), NULL);
        c->at_ms = get_int(r, i, 5);
    }
    PQclear(r);
    return n;
}

static int pg_leaderboard(storage *base, int category, double max_rd, int max,
                          int (*each)(void *ctx, const char *name, const stored_rating *r),
                          void *ctx)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, category);
    add_double(&p, max_rd);
    add_int(&p, max);
    PGresult *r = read_rows(s,
                            "SELECT a.name, r.category, r.rating, r.rd, r.volatility, r.games,"
                            " r.last_ms FROM ratings r JOIN accounts a ON a.id=r.account"
                            " WHERE r.category=$1::int AND r.rd <= $2::float8"
                            " ORDER BY r.rating DESC, a.name_key COLLATE \"C\" LIMIT $3::int",
                            &p);
    if (!r)
        return -1;
    for (int i = 0; i < PQntuples(r); i++) {
        char name[STORED_ACCOUNT_NAME_BYTES];
        stored_rating one;
        get_text(r, i, 0, name, sizeof name);
        get_rating(r, i, 1, &one);
        if (each(ctx, name, &one))
            break;
    }
    PQclear(r);
    return 0;
}

static int pg_account_seats(storage *base, int64_t account, unsigned statuses, int max,
                            int (*each)(void *ctx, const char *id, int seat), void *ctx)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, account);
    add_int(&p, statuses);
    add_int(&p, max);
    PGresult *r = read_rows(s,
                            "SELECT s.table_id, s.seat FROM seats s JOIN tables t"
                            " ON t.id=s.table_id WHERE s.account=$1::bigint"
                            " AND ($2::int >> t.status) & 1 = 1"
                            " ORDER BY t.created_ms DESC, t.id COLLATE \"C\" DESC LIMIT $3::int",
                            &p);
    if (!r)
        return -1;
    for (int i = 0; i < PQntuples(r); i++) {
        char id[STORED_ID_BYTES];
        get_text(r, i, 0, id, sizeof id);
        if (each(ctx, id, (int)get_int(r, i, 1)))
            break;
    }
    PQclear(r);
    return 0;
}

/* --- Puzzles ----------------------------------------------------------------------------- */

/* The first row of `r`, a puzzle rating's columns: 1, or 0 when none. */
static int get_puzzle_rating(PGresult *r, stored_puzzle_rating *out)
{
    int found = PQntuples(r) > 0;
    if (found) {
        out->rating = strtod(PQgetvalue(r, 0, 0), NULL);
        out->rd = strtod(PQgetvalue(r, 0, 1), NULL);
        out->volatility = strtod(PQgetvalue(r, 0, 2), NULL);
        out->attempts = (int)get_int(r, 0, 3);
        out->streak = (int)get_int(r, 0, 4);
        out->best_streak = (int)get_int(r, 0, 5);
    }
    PQclear(r);
    return found;
}

static int pg_puzzle_solver(storage *base, int64_t account, stored_puzzle_rating *out)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, account);
    PGresult *r = read_rows(s,
                            "SELECT rating, rd, volatility, attempts, streak, best_streak"
                            " FROM puzzle_solvers WHERE account=$1::bigint",
                            &p);
    return r ? get_puzzle_rating(r, out) : -1;
}

static int pg_puzzle_rating(storage *base, const char *puzzle, stored_puzzle_rating *out)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_text(&p, puzzle);
    PGresult *r = read_rows(
        s, "SELECT rating, rd, volatility, attempts, 0, 0 FROM puzzle_ratings WHERE puzzle=$1", &p);
    return r ? get_puzzle_rating(r, out) : -1;
}

/* Calls `each` with the text of the first column of every row `sql`
 * gives for `account` (its $1; an id of at most `cap` - 1 bytes), in
 * order; `each` returning nonzero stops. 0, or -1. */
static int list_ids(pg_storage *s, const char *sql, int64_t account, size_t cap,
                    int (*each)(void *ctx, const char *id), void *ctx)
{
    params p = {.n = 0};
    add_int(&p, account);
    PGresult *r = read_rows(s, sql, &p);
    if (!r)
        return -1;
    char text[STORED_LIST_ID_BYTES];
    for (int i = 0; i < PQntuples(r); i++) {
        get_text(r, i, 0, text, cap < sizeof text ? cap : sizeof text);
        if (each(ctx, text))
            break;
    }
    PQclear(r);
    return 0;
}

static int pg_puzzle_attempted(storage *base, int64_t account,
                               int (*each)(void *ctx, const char *puzzle), void *ctx)
{
    return list_ids(as_pg(base),
                    "SELECT puzzle FROM puzzle_attempts WHERE account=$1::bigint"
                    " ORDER BY at_ms, puzzle COLLATE \"C\"",
                    account, STORED_PUZZLE_ID_BYTES, each, ctx);
}

static int pg_puzzle_attempt(storage *base, int64_t account, const char *puzzle, int solved,
                             int64_t at_ms, const stored_puzzle_rating *solver,
                             const stored_puzzle_rating *rating)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, account);
    add_text(&p, puzzle);
    add_int(&p, solved);
    add_int(&p, at_ms);
    add_double(&p, solver->rating);
    add_double(&p, solver->rd);
    add_double(&p, solver->volatility);
    add_int(&p, solver->attempts);
    add_int(&p, solver->streak);
    add_int(&p, solver->best_streak);
    add_double(&p, rating->rating);
    add_double(&p, rating->rd);
    add_double(&p, rating->volatility);
    add_int(&p, rating->attempts);
    /* The attempt first (nothing when the account made one already), then
     * both ratings, in one statement. */
    int n = write_count(
        s,
        "WITH a AS (INSERT INTO puzzle_attempts VALUES ($1::bigint, $2, $3::int, $4::bigint)"
        " ON CONFLICT DO NOTHING RETURNING 1),"
        " v AS (INSERT INTO puzzle_solvers SELECT $1::bigint, $5::float8, $6::float8, $7::float8,"
        " $8::int, $9::int, $10::int WHERE EXISTS (SELECT 1 FROM a) ON CONFLICT (account) DO UPDATE"
        " SET rating=EXCLUDED.rating, rd=EXCLUDED.rd, volatility=EXCLUDED.volatility,"
        " attempts=EXCLUDED.attempts, streak=EXCLUDED.streak, best_streak=EXCLUDED.best_streak"
        " RETURNING 1)"
        " INSERT INTO puzzle_ratings SELECT $2, $11::float8, $12::float8, $13::float8, $14::int"
        " WHERE EXISTS (SELECT 1 FROM a) ON CONFLICT (puzzle) DO UPDATE SET rating=EXCLUDED.rating,"
        " rd=EXCLUDED.rd, volatility=EXCLUDED.volatility, attempts=EXCLUDED.attempts",
        &p);
    return n < 0 ? -1 : n == 0;
}

static int pg_lessons_done(storage *base, int64_t account,
                           int (*each)(void *ctx, const char *lesson), void *ctx)
{
    return list_ids(as_pg(base),
                    "SELECT lesson FROM lessons_done WHERE account=$1::bigint"
                    " ORDER BY at_ms, lesson COLLATE \"C\"",
                    account, STORED_LESSON_ID_BYTES, each, ctx);
}

static int pg_lesson_done(storage *base, int64_t account, const char *lesson, int64_t at_ms)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, account);
    add_text(&p, lesson);
    add_int(&p, at_ms);
    return write_count(s,
                       "INSERT INTO lessons_done VALUES ($1::bigint, $2, $3::bigint)"
                       " ON CONFLICT DO NOTHING",
                       &p) < 0
               ? -1
               : 0;
}

/* --- Which server runs a table --------------------------------------------------------- */

static int pg_set_webhook(storage *base, int64_t id, const char *url)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, id);
    add_text(&p, url);
    int n = write_count(s, "UPDATE accounts SET webhook=$2 WHERE id=$1::bigint", &p);
    return n < 0 ? -1 : n == 0;
}

static int pg_webhook(storage *base, int64_t id, char *out, size_t cap)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, id);
    PGresult *r = read_rows(s, "SELECT webhook FROM accounts WHERE id=$1::bigint", &p);
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    if (found)
        get_text(r, 0, 0, out, cap);
    PQclear(r);
    return found;
}

static int pg_list_accounts(storage *base,
                            int (*each)(void *ctx, const stored_account *a, int tables), void *ctx)
{
    pg_storage *s = as_pg(base);
    PGresult *r = read_rows(s,
                            "SELECT a.id, a.name, a.hash, a.created_ms, a.disabled,"
                            " (SELECT count(DISTINCT st.table_id) FROM seats st JOIN tables t"
                            " ON t.id=st.table_id WHERE st.account=a.id AND t.status <> 3)"
                            " FROM accounts a ORDER BY a.name_key COLLATE \"C\"",
                            NULL);
    if (!r)
        return -1;
    for (int i = 0; i < PQntuples(r); i++) {
        stored_account a;
        get_account(r, i, &a);
        if (each(ctx, &a, (int)get_int(r, i, 5)))
            break;
    }
    PQclear(r);
    return 0;
}

static int pg_set_disabled(storage *base, int64_t id, int disabled)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, id);
    add_int(&p, disabled != 0);
    /* One statement: the flag, and the sessions when disabled. */
    int n = write_count(s,
                        "WITH a AS (UPDATE accounts SET disabled=$2::int WHERE id=$1::bigint"
                        " RETURNING 1), ss AS (DELETE FROM sessions WHERE $2::int <> 0"
                        " AND account=$1::bigint RETURNING 1) SELECT 1 FROM a",
                        &p);
    return n < 0 ? -1 : n == 0;
}

static int pg_delete_table(storage *base, const char *id)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_text(&p, id);
    int n = write_count(s,
                        "WITH m AS (DELETE FROM moves WHERE table_id=$1 RETURNING 1),"
                        " st AS (DELETE FROM seats WHERE table_id=$1 RETURNING 1),"
                        " c AS (DELETE FROM chat WHERE table_id=$1 RETURNING 1),"
                        " rv AS (DELETE FROM reviews WHERE table_id=$1 RETURNING 1),"
                        " t AS (DELETE FROM tables WHERE id=$1 RETURNING 1) SELECT 1 FROM t",
                        &p);
    return n < 0 ? -1 : n == 0;
}

static int pg_claim(storage *base, const char *id)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, CLAIM_SPACE);
    add_text(&p, id);
    PGresult *r = read_rows(s, "SELECT pg_try_advisory_lock($1::int, hashtext($2))", &p);
    if (!r)
        return -1;
    int got = PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    return got;
}

static void pg_release(storage *base, const char *id)
{
    pg_storage *s = as_pg(base);
    if (s->aborted || PQstatus(s->conn) != CONNECTION_OK)
        return;
    params p = {.n = 0};
    add_int(&p, CLAIM_SPACE);
    add_text(&p, id);
    PQclear(exec(s, "SELECT pg_advisory_unlock($1::int, hashtext($2))", &p));
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether orphans may have appeared since the last look (see
 * ORPHAN_AFTER_MS): 1, 0, or -1 on failure. */
static int orphans_may_be(pg_storage *s)
{
    PGresult *r = read_rows(s,
                            "SELECT count(*) * 4294967296 + coalesce(sum(pid), 0) FROM"
                            " pg_stat_activity WHERE backend_type='client backend'",
                            NULL);
    if (!r)
        return -1;
    long long clients = get_int(r, 0, 0);
    PQclear(r);
    double now = seconds_now();
    if (clients != s->clients_seen) {
        s->clients_seen = clients;
        s->clients_changed_s = now;
    }
    return s->orphans_found || s->orphans_looked_s == 0 ||
           now - s->clients_changed_s < ORPHAN_AFTER_MS / 1000.0 ||
           now - s->orphans_looked_s >= ORPHAN_EVERY_MS / 1000.0;
}

static int pg_claim_orphans(storage *base, int max, void (*each)(void *ctx, const char *id),
                            void *ctx)
{
    pg_storage *s = as_pg(base);
    int may = orphans_may_be(s);
    if (may <= 0)
        return may;
    s->orphans_looked_s = seconds_now();
    params p = {.n = 0};
    add_int(&p, CLAIM_SPACE);
    add_int(&p, max);
    /* The tables whose lock nobody holds (pg_locks: every session's),
     * oldest first, and of those the first `max` this call gets: the lock
     * is tried row by row in that order until the limit (OFFSET 0 keeps
     * the sort below the lock attempts). Every one claimed is passed on:
     * a table locked and not loaded would be run by nobody. */
    PGresult *r =
        read_rows(s,
                  "WITH held AS MATERIALIZED (SELECT objid FROM pg_locks WHERE locktype='advisory'"
                  " AND classid=$1::int::oid AND objsubid=2)"
                  " SELECT id FROM (SELECT id FROM tables WHERE status IN (0, 1) AND"
                  " (hashtext(id)::bigint & 4294967295)::oid NOT IN (SELECT objid FROM held)"
                  " ORDER BY created_ms, id COLLATE \"C\" OFFSET 0) AS free"
                  " WHERE pg_try_advisory_lock($1::int, hashtext(id)) LIMIT $2::int",
                  &p);
    if (!r)
        return -1;
    s->orphans_found = PQntuples(r) > 0;
    for (int i = 0; i < PQntuples(r); i++) {
        char id[STORED_ID_BYTES];
        get_text(r, i, 0, id, sizeof id);
        each(ctx, id);
    }
    PQclear(r);
    return 0;
}

static int pg_lost(const storage *base)
{
    const pg_storage *s = (const pg_storage *)base;
    return PQstatus(s->conn) != CONNECTION_OK || s->diverged;
}

static int pg_server_id(const storage *base)
{
    return PQbackendPID(((const pg_storage *)base)->conn);
}

static int pg_owner(storage *base, const char *id)
{
    pg_storage *s = as_pg(base);
    params p = {.n = 0};
    add_int(&p, CLAIM_SPACE);
    add_text(&p, id);
    PGresult *r = read_rows(s,
                            "SELECT pid FROM pg_locks WHERE locktype='advisory' AND granted"
                            " AND classid=$1::int::oid AND objsubid=2"
                            " AND objid=(hashtext($2)::bigint & 4294967295)::oid LIMIT 1",
                            &p);
    if (!r)
        return -1;
    int owner = PQntuples(r) > 0 ? (int)get_int(r, 0, 0) : 0;
    PQclear(r);
    return owner;
}

const storage_backend storage_pg_backend = {
    .name = "postgresql",
    .open = pg_open,
    .close = pg_close,
    .error = pg_error,
    .create_table = pg_create_table,
    .update_seat = pg_update_seat,
    .append_move = pg_append_move,
    .set_status = pg_set_status,
    .set_paused = pg_set_paused,
    .truncate_moves = pg_truncate_moves,
    .add_chat = pg_add_chat,
    .set_review = pg_set_review,
    .commit = pg_commit,
    .pending = pg_pending,
    .pipeline = pg_pipeline,
    .list = pg_list,
    .list_listed = pg_list_listed,
    .load_table = pg_load_table,
    .load_chat = pg_load_chat,
    .load_tables = pg_load_tables,
    .load_review = pg_load_review,
    .claim = pg_claim,
    .release = pg_release,
    .claim_orphans = pg_claim_orphans,
    .lost = pg_lost,
    .server_id = pg_server_id,
    .owner = pg_owner,
    .create_account = pg_create_account,
    .find_account = pg_find_account,
    .set_password = pg_set_password,
    .delete_account = pg_delete_account,
    .create_session = pg_create_session,
    .find_session = pg_find_session,
    .delete_session = pg_delete_session,
    .delete_sessions = pg_delete_sessions,
    .ratings = pg_ratings,
    .rate = pg_rate,
    .rating_changes = pg_rating_changes,
    .leaderboard = pg_leaderboard,
    .account_seats = pg_account_seats,
    .set_webhook = pg_set_webhook,
    .webhook = pg_webhook,
    .list_accounts = pg_list_accounts,
    .set_disabled = pg_set_disabled,
    .puzzle_solver = pg_puzzle_solver,
    .puzzle_rating = pg_puzzle_rating,
    .puzzle_attempted = pg_puzzle_attempted,
    .puzzle_attempt = pg_puzzle_attempt,
    .lessons_done = pg_lessons_done,
    .lesson_done = pg_lesson_done,
    .delete_table = pg_delete_table,
};
