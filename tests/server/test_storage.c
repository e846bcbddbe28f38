/* test_storage.c: the storage interface, one suite for both backends
 * (the first argument: sqlite, a temporary file; postgresql, the database
 * of CARC_TEST_PG, which tests/server/with_postgres.sh starts): a round
 * trip, atomic steps, commits, a database locked by another process, chat
 * and reviews, the schema's versions, two servers writing the same move,
 * and a reopened database that replays to the same game (the same
 * digest). */
#include <libpq-fe.h>
#include <setjmp.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "storage.h"
#include "table.h"

/* The schema versions the backends write today. */
enum { SCHEMA_NOW_SQLITE = 14, SCHEMA_NOW_PG = 10 };
static char path[64];
static const char *pg_uri; /* the PostgreSQL run: its database; NULL for SQLite */

/* Runs `sql` on the PostgreSQL database with a connection of the test's. */
static void pg_exec(const char *sql)
{
    PGconn *c = PQconnectdb(pg_uri);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
        fail_msg("%s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
}

static int setup(void **state)
{
    (void)state;
    if (pg_uri) {
        pg_exec(
            "SET client_min_messages TO warning;"
            "DROP TABLE IF EXISTS tables, seats, moves, chat, reviews, carc_schema, accounts,"
            " sessions, ratings, rating_changes, puzzle_solvers, puzzle_ratings, puzzle_attempts,"
            " lessons_done");
        return 0;
    }
    snprintf(path, sizeof path, "/tmp/carc-storage-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    close(fd);
    unlink(path);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char other[80];
    unlink(path);
    snprintf(other, sizeof other, "%s-wal", path);
    unlink(other);
    snprintf(other, sizeof other, "%s-shm", path);
    unlink(other);
    return 0;
}

static const char *where(void)
{
    return pg_uri ? pg_uri : path;
}

static storage *open_db(void)
{
    char err[200];
    storage *s = storage_open(where(), err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    return s;
}

/* A table of two seats with `moves` random moves of the deal of `seed`;
 * the game after them goes to `*game`. */
static void make_table(stored_table *t, const char *id, uint64_t seed, int moves, carc_game **game)
{
    memset(t, 0, sizeof *t);
    snprintf(t->id, sizeof t->id, "%s", id);
    t->created_ms = 1000;
    t->status = TABLE_PLAYING;
    t->players = 2;
    t->rules.flags = CARC_RULE_SMALL_CITY;
    t->info = INFO_PURIST;
    t->clock.mode = CLOCK_FISCHER;
    t->clock.seconds = 300;
    t->clock.increment = 5;
    t->listed = 1;
    t->seed = seed;
    for (int i = 0; i < TOKEN_SECRET_BYTES; i++)
        t->salt[i] = (uint8_t)(i + 1);
    snprintf(t->addr, sizeof t->addr, "127.0.0.1");
    t->forfeit = -1;
    t->seats[0].kind = SEAT_OPEN;
    t->seats[0].taken = 1;
    snprintf(t->seats[0].name, sizeof t->seats[0].name, "Ann");
    t->seats[0].token_hash[0] = 0xab;
    t->seats[1].kind = SEAT_COMPUTER;
    snprintf(t->seats[1].spec, sizeof t->seats[1].spec, "greedy");
    carc_rules rules = {.flags = t->rules.flags};
    carc_game *g = carc_game_new(2, &rules, seed);
    carc_rng rng = carc_rng_seed(seed);
    for (int i = 0; i < moves && !carc_game_over(g); i++) {
        carc_move m = carc_random_move(g, &rng, 0.5);
        carc_move_write(g, m, t->moves[i].text, sizeof t->moves[i].text);
        t->moves[i].by = (move_by)(i % 2);
        t->moves[i].at_ms = 2000 + i;
        assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
        t->nmoves++;
    }
    *game = g;
}

static int count_unfinished(void *ctx, const stored_table *t)
{
    (void)t;
    (*(int *)ctx)++;
    return 0;
}

static stored_table loaded;

static int count_ids(void *ctx, const char *id)
{
    assert_int_equal(strlen(id), 12);
    (*(int *)ctx)++;
    return 0;
}

static int keep_first(void *ctx, const stored_table *t)
{
    (void)ctx;
    loaded = *t;
    return 1;
}

static void test_round_trip(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "tround000001", 77, 30, &g);
    snprintf(t.first_text, sizeof t.first_text, "Draw-off (roads): Red K 2, Blue U 2; Red starts");
    storage *s = open_db();
    /* Half the moves with the table, the others appended; the stalls of
     * some turns, and of the turn being played, kept. */
    t.nmoves = 15;
    t.moves[3].paused_ms = 1234;
    t.moves[20].paused_ms = 4321;
    t.paused_ms = 99;
    assert_int_equal(storage_create_table(s, &t), 0);
    for (int i = 15; i < 30; i++)
        assert_int_equal(storage_append_move(s, t.id, i, &t.moves[i], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_set_paused(s, t.id, 777), 0);
    stored_seat seat = t.seats[0];
    snprintf(seat.name, sizeof seat.name, "Anne");
    assert_int_equal(storage_update_seat(s, t.id, 0, &seat, 5000), 0);
    assert_true(storage_pending(s));
    assert_int_equal(storage_commit(s), 0);
    assert_false(storage_pending(s));
    storage_close(s);

    s = open_db();
    int n = 0;
    assert_int_equal(storage_load_unfinished(s, count_unfinished, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(storage_load_unfinished(s, keep_first, NULL), 0);
    assert_string_equal(loaded.id, t.id);
    assert_string_equal(loaded.first_text, t.first_text);
    assert_int_equal(loaded.nmoves, 30);
    assert_int_equal(loaded.rules.flags, CARC_RULE_SMALL_CITY);
    assert_int_equal(loaded.info, INFO_PURIST);
    assert_int_equal(loaded.clock.mode, CLOCK_FISCHER);
    assert_int_equal(loaded.clock.increment, 5);
    assert_true(loaded.seed == 77);
    assert_memory_equal(loaded.salt, t.salt, sizeof t.salt);
    assert_string_equal(loaded.seats[0].name, "Anne");
    assert_int_equal(loaded.seats[0].token_hash[0], 0xab);
    assert_string_equal(loaded.seats[1].spec, "greedy");
    assert_int_equal(loaded.started_ms, 5000);
    assert_int_equal(loaded.estimates, 0); /* hints and win chances off */
    assert_int_equal(loaded.paused_ms, 777);
    for (int i = 0; i < 30; i++) {
        assert_string_equal(loaded.moves[i].text, t.moves[i].text);
        assert_int_equal(loaded.moves[i].by, t.moves[i].by);
        assert_true(loaded.moves[i].at_ms == t.moves[i].at_ms);
        assert_true(loaded.moves[i].paused_ms == t.moves[i].paused_ms);
    }

    /* The replay after reopening is the same game. */
    char err[160];
    carc_game *replayed = table_replay(&loaded, NULL, NULL, err, sizeof err);
    assert_non_null(replayed);
    assert_true(carc_game_digest(replayed) == carc_game_digest(g));
    assert_int_equal(carc_game_drawn_tile(replayed), carc_game_drawn_tile(g));
    carc_game_free(replayed);
    carc_game_free(g);
    /* A move begins a turn with nothing paused. */
    assert_int_equal(storage_append_move(s, t.id, 30, &t.moves[0], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.paused_ms, 0);
    /* A takeback: the moves from 10 on go, the turn's paused time too. */
    assert_int_equal(storage_set_paused(s, t.id, 55), 0);
    assert_int_equal(storage_truncate_moves(s, t.id, 10), 0);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 10);
    assert_int_equal(loaded.paused_ms, 0);
    assert_string_equal(loaded.moves[9].text, t.moves[9].text);
    /* The next move is number 10 again. */
    assert_int_equal(storage_append_move(s, t.id, 10, &t.moves[10], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
}

static void test_uncommitted_is_lost(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "tlost0000001", 5, 4, &g);
    carc_game_free(g);
    storage *s = open_db();
    assert_int_equal(storage_create_table(s, &t), 0);
    storage_close(s); /* no commit */
    s = open_db();
    int n = 0;
    assert_int_equal(storage_load_unfinished(s, count_unfinished, &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 0);
    storage_close(s);
}

static void test_failed_step_changes_nothing(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "tstep0000001", 9, 6, &g);
    carc_game_free(g);
    storage *s = open_db();
    assert_int_equal(storage_create_table(s, &t), 0);
    /* The same table again, and a move number that exists: refused. */
    assert_int_equal(storage_create_table(s, &t), -1);
    assert_true(strlen(storage_error(s)) > 0);
    assert_int_equal(storage_append_move(s, t.id, 3, &t.moves[3], TABLE_FINISHED, 1), -1);
    stored_seat seat = t.seats[0];
    assert_int_equal(storage_update_seat(s, t.id, 5, &seat, 0), -1);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    s = open_db();
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.status, TABLE_PLAYING); /* the refused move's status is not kept */
    assert_int_equal(loaded.nmoves, 6);
    storage_close(s);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Another process holding the write lock (here another connection) stalls
 * the server's loop for a short busy timeout once a pass, not SQLite's
 * five seconds per write; the writes fail and change nothing, and go
 * through once the lock is gone. The bounds are loose: they only tell a
 * short wait from many long ones. */
static void test_locked_database(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "tlock0000001", 13, 4, &g);
    carc_game_free(g);
    storage *s = open_db();
    sqlite3 *locker;
    assert_int_equal(sqlite3_open(path, &locker), SQLITE_OK);
    assert_int_equal(sqlite3_exec(locker, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    double start = seconds_now();
    assert_int_equal(storage_create_table(s, &t), -1);
    assert_true(seconds_now() - start < 3.0);
    assert_non_null(strstr(storage_error(s), "locked"));
    /* The pass's later writes do not wait again. */
    start = seconds_now();
    for (int i = 0; i < 20; i++)
        assert_int_equal(storage_create_table(s, &t), -1);
    assert_true(seconds_now() - start < 3.0);
    assert_int_equal(storage_commit(s), 0); /* the pass ends with nothing to commit */
    assert_int_equal(sqlite3_exec(locker, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(locker);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 0);
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    storage_close(s);
}

static void test_finished_tables(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "tdone0000001", 11, 2, &g);
    carc_game_free(g);
    storage *s = open_db();
    assert_int_equal(storage_create_table(s, &t), 0);
    stored_move end = {.by = BY_SERVER, .at_ms = 9};
    snprintf(end.text, sizeof end.text, "end");
    assert_int_equal(storage_append_move(s, t.id, 2, &end, TABLE_FINISHED, 1), 0);
    assert_int_equal(storage_commit(s), 0);
    int n = 0;
    assert_int_equal(storage_load_unfinished(s, count_unfinished, &n), 0);
    assert_int_equal(n, 0);
    n = 0;
    assert_int_equal(storage_list(s, 1u << TABLE_FINISHED, count_ids, &n), 0);
    assert_int_equal(n, 1);
    n = 0;
    assert_int_equal(storage_list(s, 1u << TABLE_WAITING | 1u << TABLE_PLAYING, count_ids, &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.status, TABLE_FINISHED);
    assert_int_equal(loaded.forfeit, 1);
    assert_int_equal(loaded.nmoves, 3);
    char err[160];
    carc_game *replayed = table_replay(&loaded, NULL, NULL, err, sizeof err);
    assert_non_null(replayed);
    assert_true(carc_game_over(replayed));
    carc_game_free(replayed);
    storage_close(s);
}

static int schema_version(void);

/* A database of schema version 1 (before the tables' `estimates`) opens,
 * and its tables have estimates on. */
static void test_upgrade_from_version_1(void **state)
{
    (void)state;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    const char *v1 =
        "CREATE TABLE tables (id TEXT PRIMARY KEY, created_ms INTEGER NOT NULL,"
        " status INTEGER NOT NULL, players INTEGER NOT NULL, rules INTEGER NOT NULL,"
        " info INTEGER NOT NULL, clock_mode INTEGER NOT NULL, clock_seconds INTEGER NOT NULL,"
        " clock_increment INTEGER NOT NULL, clock_timeout INTEGER NOT NULL,"
        " listed INTEGER NOT NULL, seed INTEGER NOT NULL, salt BLOB NOT NULL,"
        " addr TEXT NOT NULL, forfeit INTEGER NOT NULL, started_ms INTEGER NOT NULL);"
        "CREATE TABLE moves (table_id TEXT NOT NULL, turn INTEGER NOT NULL, move TEXT NOT NULL,"
        " by INTEGER NOT NULL, at_ms INTEGER NOT NULL, PRIMARY KEY (table_id, turn));"
        "INSERT INTO tables VALUES ('told00000001',1,1,2,0,0,0,0,0,0,1,5,x'00','a',-1,1);"
        "PRAGMA user_version=1;";
    assert_int_equal(sqlite3_exec(db, v1, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    storage *s = open_db();
    assert_int_equal(storage_load_table(s, "told00000001", &loaded), 1);
    assert_int_equal(loaded.estimates, 1);
    assert_int_equal(loaded.rules.expansions, 0);
    storage_close(s);
    assert_int_equal(schema_version(), SCHEMA_NOW_SQLITE);
}

/* The schema version of the database (SQLite: the file's user_version). */
static int schema_version(void)
{
    if (pg_uri) {
        PGconn *c = PQconnectdb(pg_uri);
        PGresult *r = PQexec(c, "SELECT version FROM carc_schema");
        int version = PQntuples(r) == 1 ? atoi(PQgetvalue(r, 0, 0)) : -1;
        PQclear(r);
        PQfinish(c);
        return version;
    }
    sqlite3 *db;
    sqlite3_stmt *q;
    int version = -1;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
        version = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return version;
}

/* A database of schema version 2 (before the tables' `expansions`) opens:
 * its tables are base games, their other columns kept; a table with The
 * River can then be stored in it and read back. */
static void test_upgrade_from_version_2(void **state)
{
    (void)state;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    const char *v2 =
        "CREATE TABLE tables (id TEXT PRIMARY KEY, created_ms INTEGER NOT NULL,"
        " status INTEGER NOT NULL, players INTEGER NOT NULL, rules INTEGER NOT NULL,"
        " info INTEGER NOT NULL, clock_mode INTEGER NOT NULL, clock_seconds INTEGER NOT NULL,"
        " clock_increment INTEGER NOT NULL, clock_timeout INTEGER NOT NULL,"
        " listed INTEGER NOT NULL, seed INTEGER NOT NULL, salt BLOB NOT NULL,"
        " addr TEXT NOT NULL, forfeit INTEGER NOT NULL, started_ms INTEGER NOT NULL,"
        " estimates INTEGER NOT NULL DEFAULT 1);"
        "CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL,"
        " kind INTEGER NOT NULL, taken INTEGER NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL,"
        " token_hash BLOB NOT NULL, invite_hash BLOB NOT NULL, PRIMARY KEY (table_id, seat));"
        "CREATE TABLE moves (table_id TEXT NOT NULL, turn INTEGER NOT NULL, move TEXT NOT NULL,"
        " by INTEGER NOT NULL, at_ms INTEGER NOT NULL, PRIMARY KEY (table_id, turn));"
        "INSERT INTO tables VALUES ('told00000002',1,1,2,2,0,0,0,0,0,1,5,x'00','a',-1,1,0);"
        "INSERT INTO moves VALUES ('told00000002',0,'E 0 -1 0',0,7);"
        "PRAGMA user_version=2;";
    assert_int_equal(sqlite3_exec(db, v2, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    storage *s = open_db();
    assert_int_equal(storage_load_table(s, "told00000002", &loaded), 1);
    assert_int_equal(loaded.rules.expansions, 0);
    assert_int_equal(loaded.creator, -1); /* version 4's column: not known */
    assert_int_equal(loaded.rules.flags, CARC_RULE_SMALL_CITY);
    assert_int_equal(loaded.estimates, 0);
    assert_int_equal(loaded.nmoves, 1);
    assert_string_equal(loaded.moves[0].text, "E 0 -1 0");
    /* A river table in the upgraded file. */
    static stored_table t;
    memset(&t, 0, sizeof t);
    snprintf(t.id, sizeof t.id, "triver000001");
    t.status = TABLE_PLAYING;
    t.players = 2;
    t.rules.flags = CARC_RULE_RIVER_KEEP_START;
    t.rules.expansions = CARC_EXPANSION_RIVER;
    t.forfeit = -1;
    t.nmoves = 1;
    snprintf(t.moves[0].text, sizeof t.moves[0].text, "RD 1 0 0");
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    assert_int_equal(schema_version(), SCHEMA_NOW_SQLITE);
    s = open_db();
    assert_int_equal(storage_load_table(s, "triver000001", &loaded), 1);
    assert_int_equal(loaded.rules.expansions, CARC_EXPANSION_RIVER);
    assert_int_equal(loaded.rules.flags, CARC_RULE_RIVER_KEEP_START);
    assert_string_equal(loaded.moves[0].text, "RD 1 0 0");
    assert_int_equal(storage_load_table(s, "told00000002", &loaded), 1);
    assert_int_equal(loaded.rules.expansions, 0);
    assert_int_equal(loaded.creator, -1); /* version 4's column: not known */
    storage_close(s);
}

/* A hand of tiles (hand=N) is kept with the table's rules: the table
 * restarts with its hands. */
static void test_hand_kept(void **state)
{
    (void)state;
    static stored_table t;
    memset(&t, 0, sizeof t);
    snprintf(t.id, sizeof t.id, "thand0000001");
    t.status = TABLE_PLAYING;
    t.players = 2;
    t.rules.flags = CARC_RULE_RESHUFFLE | CARC_RULE_OPEN_HANDS;
    t.rules.hand = 3;
    t.forfeit = -1;
    storage *s = open_db();
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    s = open_db();
    assert_int_equal(storage_load_table(s, "thand0000001", &loaded), 1);
    assert_int_equal(loaded.rules.hand, 3);
    assert_int_equal(loaded.rules.flags, CARC_RULE_RESHUFFLE | CARC_RULE_OPEN_HANDS);
    char err[160];
    carc_game *g = table_replay(&loaded, NULL, NULL, err, sizeof err);
    assert_non_null(g);
    assert_int_equal(carc_game_rules(g).hand, 3);
    assert_int_equal(carc_game_hand(g, 1, NULL, 0), 3);
    carc_game_free(g);
    storage_close(s);
}

/* A database of schema version 4 (before the tables' `rules_text`) opens:
 * its tables keep their flags; a table with a bounded table, eight seats
 * and the edge rule is stored in it and read back whole. */
static void test_upgrade_from_version_4(void **state)
{
    (void)state;
    storage *s = open_db();
    storage_close(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    const char *back_to_4 =
        "ALTER TABLE tables DROP COLUMN rated; DROP TABLE ratings; DROP TABLE rating_changes;"
        "ALTER TABLE tables DROP COLUMN paused_ms; ALTER TABLE moves DROP COLUMN paused_ms;"
        "ALTER TABLE tables DROP COLUMN first_text; ALTER TABLE tables DROP COLUMN rules_text;"
        "INSERT INTO tables VALUES ('told00000004',1,1,2,2,0,0,0,0,0,1,5,x'00','a',-1,1,0,0,-1);"
        "PRAGMA user_version=4;";
    assert_int_equal(sqlite3_exec(db, back_to_4, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = open_db();
    assert_int_equal(schema_version(), SCHEMA_NOW_SQLITE);
    assert_int_equal(storage_load_table(s, "told00000004", &loaded), 1);
    assert_int_equal(loaded.rules.flags, CARC_RULE_SMALL_CITY);
    assert_int_equal(loaded.rules.table_w, 0);
    static stored_table t;
    memset(&t, 0, sizeof t);
    snprintf(t.id, sizeof t.id, "ttable000001");
    t.status = TABLE_WAITING;
    t.players = 8;
    t.rules.flags = CARC_RULE_TABLE_EDGE_COMPLETES | CARC_RULE_BONUS_TURN;
    t.rules.table_w = 9;
    t.rules.table_h = 7;
    t.forfeit = -1;
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    s = open_db();
    assert_int_equal(storage_load_table(s, "ttable000001", &loaded), 1);
    assert_int_equal(loaded.players, 8);
    assert_int_equal(loaded.rules.flags, CARC_RULE_TABLE_EDGE_COMPLETES | CARC_RULE_BONUS_TURN);
    assert_int_equal(loaded.rules.table_w, 9);
    assert_int_equal(loaded.rules.table_h, 7);
    char text[64];
    storage_rules_text(&loaded, text, sizeof text);
    assert_string_equal(text, "bonus-turn table-edge-completes table=9x7");
    storage_close(s);
}

/* A database written by a newer server is refused, and left as it was. */
static void test_newer_schema_refused(void **state)
{
    (void)state;
    if (pg_uri) {
        storage_close(open_db());
        pg_exec("UPDATE carc_schema SET version=99");
    } else {
        sqlite3 *db;
        assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
        assert_int_equal(sqlite3_exec(db, "PRAGMA user_version=99;", NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(db);
    }
    char err[200];
    assert_null(storage_open(where(), err, sizeof err));
    assert_non_null(strstr(err, "newer"));
    assert_int_equal(schema_version(), 99);
}

static void test_bad_path(void **state)
{
    (void)state;
    char err[200];
    const char *bad =
        pg_uri ? "postgresql://nobody@/nodb?host=/nonexistent-folder" : "/nonexistent-folder/x.db";
    assert_null(storage_open(bad, err, sizeof err));
    assert_true(strlen(err) > 0);
}

/* Chat lines and a review are kept: the last lines of a table read back
 * in order with the count of all, a line number said twice is refused,
 * and a new review replaces the old. */
static void test_chat_and_review(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "tchat0000001", 21, 2, &g);
    carc_game_free(g);
    storage *s = open_db();
    assert_int_equal(storage_create_table(s, &t), 0);
    for (int i = 0; i < 7; i++) {
        stored_chat line = {.seat = i % 2 ? -1 : 0, .at_ms = 100 + i};
        snprintf(line.name, sizeof line.name, "%s", i % 2 ? "" : "Ann");
        snprintf(line.text, sizeof line.text, "line %d: it's \"quoted\" \\ ok", i);
        assert_int_equal(storage_add_chat(s, t.id, i, &line), 0);
    }
    stored_chat again = {.seat = 0};
    assert_int_equal(storage_add_chat(s, t.id, 3, &again), -1);
    assert_int_equal(storage_set_review(s, t.id, "[{\"turn\":0}]"), 0);
    assert_int_equal(storage_set_review(s, t.id, "[{\"turn\":1}]"), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);

    s = open_db();
    stored_chat lines[5];
    int total = -1;
    assert_int_equal(storage_load_chat(s, t.id, lines, 5, &total), 5);
    assert_int_equal(total, 7);
    assert_string_equal(lines[0].text, "line 2: it's \"quoted\" \\ ok");
    assert_string_equal(lines[4].text, "line 6: it's \"quoted\" \\ ok");
    assert_int_equal(lines[4].seat, 0);
    assert_string_equal(lines[4].name, "Ann");
    assert_int_equal(lines[3].seat, -1);
    assert_true(lines[4].at_ms == 106);
    assert_int_equal(storage_load_chat(s, "tnone0000001", lines, 5, &total), 0);
    assert_int_equal(total, 0);
    char *json = NULL;
    assert_int_equal(storage_load_review(s, t.id, &json), 1);
    assert_string_equal(json, "[{\"turn\":1}]");
    free(json);
    assert_int_equal(storage_load_review(s, "tnone0000001", &json), 0);
    assert_null(json);
    storage_close(s);
}

/* What storage_load_tables() passed on, in order. */
typedef struct batch_seen {
    int calls;
    char ids[8][STORED_ID_BYTES];
    int found[8], nmoves[8], nchat[8], total[8];
    char last_line[8][sizeof(stored_chat){0}.text];
} batch_seen;

static void note_loaded(void *ctx, const char *id, const stored_table *t, const stored_chat *chat,
                        int nchat, int total)
{
    batch_seen *b = ctx;
    int i = b->calls++;
    assert_true(i < 8);
    snprintf(b->ids[i], STORED_ID_BYTES, "%s", id);
    b->found[i] = t != NULL;
    b->nmoves[i] = t ? t->nmoves : -1;
    if (t)
        assert_string_equal(t->id, id);
    b->nchat[i] = nchat;
    b->total[i] = total;
    snprintf(b->last_line[i], sizeof b->last_line[i], "%s", nchat > 0 ? chat[nchat - 1].text : "");
}

/* Many tables read at once (a takeover): each id passed on in order, with
 * its moves and its last chat lines, or NULL when there is none; the
 * same from both backends (PostgreSQL reads them in one pipeline). */
static void test_load_tables(void **state)
{
    (void)state;
    static stored_table t[3];
    const char *names[3] = {"tbatch000001", "tbatch000002", "tbatch000003"};
    storage *s = open_db();
    for (int i = 0; i < 3; i++) {
        carc_game *g;
        make_table(&t[i], names[i], 60 + (uint64_t)i, 3 + 2 * i, &g);
        carc_game_free(g);
        assert_int_equal(storage_create_table(s, &t[i]), 0);
    }
    for (int n = 0; n < 4; n++) {
        stored_chat line = {.seat = 0, .at_ms = 10 + n};
        snprintf(line.text, sizeof line.text, "hello %d", n);
        assert_int_equal(storage_add_chat(s, names[2], n, &line), 0);
    }
    assert_int_equal(storage_commit(s), 0);
    char ids[4][STORED_ID_BYTES] = {"tbatch000003", "tnone0000009", "tbatch000001", "tbatch000002"};
    batch_seen b = {0};
    assert_int_equal(storage_load_tables(s, ids, 4, 3, note_loaded, &b), 0);
    assert_int_equal(b.calls, 4);
    for (int i = 0; i < 4; i++)
        assert_string_equal(b.ids[i], ids[i]);
    assert_int_equal(b.found[1], 0);
    assert_int_equal(b.nmoves[0], 7);
    assert_int_equal(b.nmoves[2], 3);
    assert_int_equal(b.nmoves[3], 5);
    assert_int_equal(b.nchat[0], 3);
    assert_int_equal(b.total[0], 4);
    assert_string_equal(b.last_line[0], "hello 3");
    assert_int_equal(b.nchat[2], 0);
    assert_int_equal(b.total[2], 0);
    storage_close(s);
}

/* Two servers that both think they run a table (two connections) write
 * move 6: the database keeps one. The second waits for the first's
 * transaction, at most a short lock timeout, and is refused or fails;
 * after the first's commit it is refused outright. */
static void test_two_writers_one_move(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "trace0000001", 31, 8, &g);
    carc_game_free(g);
    t.nmoves = 6;
    storage *a = open_db();
    storage *b = open_db();
    assert_int_equal(storage_create_table(a, &t), 0);
    assert_int_equal(storage_commit(a), 0);
    stored_move other = t.moves[7];
    assert_int_equal(storage_append_move(a, t.id, 6, &t.moves[6], TABLE_PLAYING, -1), 0);
    double start = seconds_now();
    assert_int_equal(storage_append_move(b, t.id, 6, &other, TABLE_PLAYING, -1), -1);
    assert_true(seconds_now() - start < 3.0);
    assert_int_equal(storage_commit(a), 0);
    storage_commit(b);
    assert_int_equal(storage_append_move(b, t.id, 6, &other, TABLE_PLAYING, -1), -1);
    assert_int_equal(storage_commit(b), 0);
    assert_int_equal(storage_load_table(b, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 7);
    assert_string_equal(loaded.moves[6].text, t.moves[6].text);
    storage_close(a);
    storage_close(b);
}

static void collect_first(void *ctx, const char *id)
{
    char *out = ctx;
    if (!*out)
        snprintf(out, STORED_ID_BYTES, "%s", id);
}

/* PostgreSQL: two server processes (two connections) on one database.
 * The first to claim a table runs it; the other's claim fails, and the
 * database refuses its moves, even of a new move number. When the first
 * goes (its connection closes, as at a kill -9), the other takes the
 * table over as an orphan and its moves go through. A finished table is
 * no orphan. */
static void test_claims_pg(void **state)
{
    (void)state;
    static stored_table t, done;
    carc_game *g;
    make_table(&t, "tclaim000001", 41, 8, &g);
    carc_game_free(g);
    t.nmoves = 6;
    make_table(&done, "tclaim000002", 42, 2, &g);
    carc_game_free(g);
    done.status = TABLE_FINISHED;
    storage *a = open_db();
    storage *b = open_db();
    assert_int_equal(storage_create_table(a, &t), 0);
    assert_int_equal(storage_create_table(a, &done), 0);
    assert_int_equal(storage_commit(a), 0);
    assert_int_equal(storage_claim(a, t.id), 1);
    assert_int_equal(storage_claim(b, t.id), 0);
    char orphan[STORED_ID_BYTES] = "";
    assert_int_equal(storage_claim_orphans(b, 16, collect_first, orphan), 0);
    assert_string_equal(orphan, "");
    assert_int_equal(storage_append_move(b, t.id, 6, &t.moves[6], TABLE_PLAYING, -1), -1);
    assert_int_equal(storage_set_status(b, t.id, TABLE_FINISHED, 0), -1);
    assert_int_equal(storage_commit(b), 0);
    assert_int_equal(storage_append_move(a, t.id, 6, &t.moves[6], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_commit(a), 0);
    storage_close(a); /* the process that ran it dies */
    /* PostgreSQL lets go of its locks once its backend has seen the
     * connection close: a moment. */
    double start = seconds_now();
    while (!*orphan && seconds_now() - start < 5.0)
        assert_int_equal(storage_claim_orphans(b, 16, collect_first, orphan), 0);
    assert_string_equal(orphan, t.id);
    assert_int_equal(storage_append_move(b, t.id, 6, &t.moves[7], TABLE_PLAYING, -1), -1);
    assert_int_equal(storage_append_move(b, t.id, 7, &t.moves[7], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_commit(b), 0);
    storage_release(b, t.id);
    storage *c = open_db();
    assert_int_equal(storage_claim(c, t.id), 1);
    assert_int_equal(storage_load_table(c, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 8);
    storage_close(b);
    storage_close(c);
}

static void count_claimed(void *ctx, const char *id)
{
    (void)id;
    (*(int *)ctx)++;
}

/* PostgreSQL: orphans are claimed at most `max` at a time, and only the
 * ones passed on: the rest stay free for the next call or another
 * process (before, every orphan was locked and only the first 512 read:
 * the others were run by nobody). */
static void test_claim_limit_pg(void **state)
{
    (void)state;
    static stored_table t;
    storage *a = open_db();
    for (int i = 0; i < 5; i++) {
        char id[STORED_ID_BYTES];
        snprintf(id, sizeof id, "torphan%05d", i);
        carc_game *g;
        make_table(&t, id, 70 + (uint64_t)i, 2, &g);
        carc_game_free(g);
        assert_int_equal(storage_create_table(a, &t), 0);
    }
    assert_int_equal(storage_commit(a), 0);
    storage *b = open_db();
    int got = 0;
    assert_int_equal(storage_claim_orphans(a, 2, count_claimed, &got), 0);
    assert_int_equal(got, 2);
    got = 0;
    assert_int_equal(storage_claim_orphans(b, 2, count_claimed, &got), 0);
    assert_int_equal(got, 2);
    got = 0;
    assert_int_equal(storage_claim_orphans(b, 2, count_claimed, &got), 0);
    assert_int_equal(got, 1);
    got = 0;
    assert_int_equal(storage_claim_orphans(a, 2, count_claimed, &got), 0);
    assert_int_equal(got, 0);
    for (int i = 0; i < 5; i++) {
        char id[STORED_ID_BYTES];
        snprintf(id, sizeof id, "torphan%05d", i);
        assert_int_equal(storage_claim(a, id) + storage_claim(b, id), 1);
    }
    storage_close(a);
    storage_close(b);
}

/* PostgreSQL: another connection holding a lock on the moves stalls a
 * write for the short lock timeout (200 ms), once a pass; the pass's
 * later writes fail at once and it commits nothing; the writes go through
 * once the lock is gone. */
static void test_locked_database_pg(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "tlock0000002", 13, 4, &g);
    carc_game_free(g);
    storage *s = open_db();
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    PGconn *locker = PQconnectdb(pg_uri);
    PQclear(PQexec(locker, "BEGIN"));
    PGresult *r = PQexec(locker, "LOCK TABLE moves IN ACCESS EXCLUSIVE MODE");
    assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    double start = seconds_now();
    assert_int_equal(storage_append_move(s, t.id, 4, &t.moves[3], TABLE_PLAYING, -1), -1);
    assert_true(seconds_now() - start < 3.0);
    assert_non_null(strstr(storage_error(s), "lock"));
    start = seconds_now();
    for (int i = 0; i < 20; i++)
        assert_int_equal(storage_append_move(s, t.id, 4, &t.moves[3], TABLE_PLAYING, -1), -1);
    assert_true(seconds_now() - start < 1.0);
    assert_int_equal(storage_commit(s), 0); /* the pass ends with nothing to commit */
    PQclear(PQexec(locker, "ROLLBACK"));
    PQfinish(locker);
    assert_int_equal(storage_append_move(s, t.id, 4, &t.moves[3], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 5);
    storage_close(s);
}

/* PostgreSQL restarted: the pass that was open fails (its commit says so,
 * nothing of it is kept), a write while it is down fails, and once it is
 * back the next pass reconnects by itself; what was committed before is
 * there. */
static void test_postgres_restarted(void **state)
{
    (void)state;
    const char *ctl = getenv("CARC_TEST_PG_CTL");
    assert_non_null(ctl);
    char cmd[400];
    static stored_table t;
    carc_game *g;
    make_table(&t, "trestart0001", 17, 6, &g);
    carc_game_free(g);
    t.nmoves = 4;
    storage *s = open_db();
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_append_move(s, t.id, 4, &t.moves[4], TABLE_PLAYING, -1), 0);
    snprintf(cmd, sizeof cmd, "%s stop >/dev/null", ctl);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(storage_commit(s), -1);
    assert_int_equal(storage_append_move(s, t.id, 4, &t.moves[4], TABLE_PLAYING, -1), -1);
    storage_commit(s);
    snprintf(cmd, sizeof cmd, "%s start >/dev/null", ctl);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(storage_append_move(s, t.id, 4, &t.moves[4], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 5);
    storage_close(s);
}

/* PostgreSQL, pipelined (what the server uses): writes are sent without
 * waiting and checked at the commit. A read in a pass sees the pass's
 * writes; a refused write (a move number that exists, a table another
 * process holds) makes the commit fail with nothing of the pass kept, and
 * storage_lost() says to start over; the next pass reconnects. */
static void test_pipelined_pg(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "tpipe0000001", 23, 12, &g);
    carc_game_free(g);
    t.nmoves = 6;
    storage *s = open_db();
    storage_pipeline(s, 1);
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_append_move(s, t.id, 6, &t.moves[6], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_append_move(s, t.id, 7, &t.moves[7], TABLE_PLAYING, -1), 0);
    stored_chat line = {.seat = 0, .name = "Ann", .text = "hi", .at_ms = 5};
    assert_int_equal(storage_add_chat(s, t.id, 0, &line), 0);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1); /* in the pass */
    assert_int_equal(loaded.nmoves, 8);
    assert_int_equal(storage_append_move(s, t.id, 8, &t.moves[8], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_lost(s), 0);

    /* Move 9, then move 5 again: sent, refused at the commit. */
    assert_int_equal(storage_append_move(s, t.id, 9, &t.moves[9], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_append_move(s, t.id, 5, &t.moves[5], TABLE_FINISHED, 0), 0);
    assert_int_equal(storage_add_chat(s, t.id, 1, &line), 0); /* an answer after the refusal */
    assert_int_equal(storage_commit(s), -1);
    assert_non_null(strstr(storage_error(s), "move number exists"));
    assert_int_equal(storage_lost(s), 1);
    storage *other = open_db();
    assert_int_equal(storage_load_table(other, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 9); /* move 9 not kept */
    assert_int_equal(loaded.status, TABLE_PLAYING);
    int total = 0;
    stored_chat lines[2];
    assert_int_equal(storage_load_chat(other, t.id, lines, 2, &total), 1); /* line 1 not kept */

    /* The next pass reconnects; then another process takes the table. */
    assert_int_equal(storage_append_move(s, t.id, 9, &t.moves[9], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_lost(s), 0);
    assert_int_equal(storage_claim(other, t.id), 1);
    assert_int_equal(storage_append_move(s, t.id, 10, &t.moves[10], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_commit(s), -1);
    assert_non_null(strstr(storage_error(s), "another server runs it"));
    assert_int_equal(storage_lost(s), 1);
    assert_int_equal(storage_load_table(other, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 10);
    assert_int_equal(storage_append_move(other, t.id, 10, &t.moves[10], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_commit(other), 0);
    storage_close(s);
    storage_close(other);
}

/* PostgreSQL: a database of schema version 2 (before the tables'
 * `first_text`) opens, is brought to version 3, and its tables read with
 * no text of how the first seat was chosen. */
static void test_upgrade_from_version_2_pg(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "tfirst000002", 19, 3, &g);
    carc_game_free(g);
    snprintf(t.first_text, sizeof t.first_text, "Blue starts");
    storage *s = open_db();
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    pg_exec("ALTER TABLE tables DROP COLUMN first_text, DROP COLUMN paused_ms;"
            " ALTER TABLE moves DROP COLUMN paused_ms; UPDATE carc_schema SET version=2");
    s = open_db();
    assert_int_equal(schema_version(), SCHEMA_NOW_PG);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_string_equal(loaded.first_text, "");
    assert_int_equal(loaded.nmoves, 3);
    storage_close(s);
}

/* The seats of an account, as storage_account_seats() calls them. */
typedef struct seat_list {
    int n;
    char id[4][STORED_ID_BYTES];
    int seat[4];
} seat_list;

static int note_seat(void *ctx, const char *id, int seat)
{
    seat_list *l = ctx;
    if (l->n < 4) {
        snprintf(l->id[l->n], sizeof l->id[0], "%s", id);
        l->seat[l->n] = seat;
    }
    l->n++;
    return 0;
}

static void session_hash(uint8_t hash[STORED_SESSION_HASH_BYTES], uint8_t fill)
{
    memset(hash, fill, STORED_SESSION_HASH_BYTES);
}

/* Accounts: a name unique without regard to case, found again after a
 * reopen; SQL's metacharacters kept as text; a password changed. */
static void test_accounts(void **state)
{
    (void)state;
    storage *s = open_db();
    int64_t ann = 0, other = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "$argon2id$ann", 5, &ann), 0);
    assert_true(ann > 0);
    assert_int_equal(storage_create_account(s, "ANN", "ann", "$argon2id$x", 6, &other), 1);
    const char *evil = "a');DROP TABLE t;--"; /* 19 bytes */
    assert_int_equal(storage_create_account(s, evil, evil, "$argon2id$evil", 7, &other), 0);
    assert_true(other != ann);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    s = open_db();
    stored_account a;
    assert_int_equal(storage_find_account(s, "ann", &a), 1);
    assert_int_equal(a.id, ann);
    assert_string_equal(a.name, "Ann");
    assert_string_equal(a.hash, "$argon2id$ann");
    assert_int_equal(a.created_ms, 5);
    assert_int_equal(storage_find_account(s, "Ann", &a), 0); /* the key is the lower case */
    assert_int_equal(storage_find_account(s, evil, &a), 1);
    assert_string_equal(a.name, evil);
    assert_int_equal(storage_set_password(s, ann, "$argon2id$new"), 0);
    assert_int_equal(storage_set_password(s, 999999, "$argon2id$new"), 1);
    assert_int_equal(storage_find_account(s, "ann", &a), 1);
    assert_string_equal(a.hash, "$argon2id$new");
    assert_int_equal(storage_commit(s), 0);
    int count = 0;
    assert_int_equal(storage_list(s, 1u << TABLE_WAITING, count_ids, &count), 0);
    storage_close(s);
}

/* Sessions: found until they expire, ended one by one or all but one;
 * a seat's account kept and listed; a deleted account's name, hash and
 * sessions gone, its seats "deleted player", its id never given again. */
static void test_sessions_and_seats(void **state)
{
    (void)state;
    storage *s = open_db();
    int64_t ann = 0, bob = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "$argon2id$ann", 5, &ann), 0);
    uint8_t h1[STORED_SESSION_HASH_BYTES], h2[STORED_SESSION_HASH_BYTES],
        h3[STORED_SESSION_HASH_BYTES];
    session_hash(h1, 1);
    session_hash(h2, 2);
    session_hash(h3, 3);
    assert_int_equal(storage_create_session(s, h1, ann, 100, 1100), 0);
    assert_int_equal(storage_create_session(s, h2, ann, 100, 5000), 0);
    assert_int_equal(storage_create_session(s, h3, ann, 100, 5000), 0);
    stored_account a;
    assert_int_equal(storage_find_session(s, h1, 1099, &a), 1);
    assert_int_equal(a.id, ann);
    assert_string_equal(a.name, "Ann");
    assert_int_equal(storage_find_session(s, h1, 1100, &a), 0); /* expired */
    assert_int_equal(storage_delete_session(s, h3), 0);
    assert_int_equal(storage_find_session(s, h3, 200, &a), 0);
    assert_int_equal(storage_create_session(s, h3, ann, 100, 5000), 0);
    /* All but h2 (h1 expired goes too). */
    assert_int_equal(storage_delete_sessions(s, ann, h2, 2000), 0);
    assert_int_equal(storage_find_session(s, h2, 200, &a), 1);
    assert_int_equal(storage_find_session(s, h3, 200, &a), 0);
    assert_int_equal(storage_find_session(s, h1, 200, &a), 0);

    static stored_table t, u;
    carc_game *g;
    make_table(&t, "tacct0000001", 3, 4, &g);
    carc_game_free(g);
    t.seats[0].account = ann;
    assert_int_equal(storage_create_table(s, &t), 0);
    make_table(&u, "tacct0000002", 4, 0, &g);
    carc_game_free(g);
    u.created_ms = 2000;
    u.status = TABLE_WAITING;
    assert_int_equal(storage_create_table(s, &u), 0);
    u.seats[1] = (stored_seat){.kind = SEAT_OPEN, .taken = 1, .name = "Ann", .account = ann};
    assert_int_equal(storage_update_seat(s, u.id, 1, &u.seats[1], 0), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);

    s = open_db();
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.seats[0].account, ann);
    assert_int_equal(loaded.seats[1].account, 0);
    assert_int_equal(loaded.nmoves, 4);
    seat_list l = {0};
    unsigned live = 1u << TABLE_WAITING | 1u << TABLE_PLAYING;
    assert_int_equal(storage_account_seats(s, ann, live, 10, note_seat, &l), 0);
    assert_int_equal(l.n, 2);
    assert_string_equal(l.id[0], u.id); /* newest first */
    assert_int_equal(l.seat[0], 1);
    assert_string_equal(l.id[1], t.id);
    assert_int_equal(l.seat[1], 0);
    l.n = 0;
    assert_int_equal(storage_account_seats(s, ann, 1u << TABLE_FINISHED, 10, note_seat, &l), 0);
    assert_int_equal(l.n, 0);

    assert_int_equal(storage_delete_account(s, ann), 0);
    assert_int_equal(storage_delete_account(s, ann), 1);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_find_account(s, "ann", &a), 0);
    assert_int_equal(storage_find_session(s, h2, 200, &a), 0);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.seats[0].account, STORED_DELETED_ACCOUNT);
    assert_string_equal(loaded.seats[0].name, "deleted player");
    assert_string_equal(loaded.seats[1].spec, "greedy");
    assert_int_equal(loaded.nmoves, 4);
    l.n = 0;
    assert_int_equal(storage_account_seats(s, ann, live, 10, note_seat, &l), 0);
    assert_int_equal(l.n, 0);
    /* The name is free again; the id is not given again. */
    assert_int_equal(storage_create_account(s, "ann", "ann", "$argon2id$b", 9, &bob), 0);
    assert_true(bob != ann);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
}

/* Accounts in a pass with game writes: a name taken is refused at once
 * and the pass's other writes are kept (PostgreSQL: pipelined). */
static void test_account_in_a_pass(void **state)
{
    (void)state;
    storage *s = open_db();
    storage_pipeline(s, 1);
    int64_t id = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h", 1, &id), 0);
    assert_int_equal(storage_commit(s), 0);
    static stored_table t;
    carc_game *g;
    make_table(&t, "tpass0000001", 5, 2, &g);
    carc_game_free(g);
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_create_account(s, "aNN", "ann", "h", 2, &id), 1);
    assert_int_equal(storage_append_move(s, t.id, 2, &t.moves[1], TABLE_PLAYING, -1), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    s = open_db();
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 3);
    storage_close(s);
}

/* An SQLite file of schema version 8 with a game in it (before the
 * accounts) opens at version 9: the game whole, its seats guests', and
 * accounts and sessions work in it. */
static void test_upgrade_from_version_8(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "told00000008", 21, 6, &g);
    storage *s = open_db();
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    const char *back_to_8 = "DROP INDEX seats_account; ALTER TABLE seats DROP COLUMN account;"
                            "ALTER TABLE tables DROP COLUMN rated; DROP TABLE ratings;"
                            "DROP TABLE rating_changes;"
                            "DROP TABLE accounts; DROP TABLE sessions; PRAGMA user_version=8;";
    assert_int_equal(sqlite3_exec(db, back_to_8, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = open_db();
    assert_int_equal(schema_version(), SCHEMA_NOW_SQLITE);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 6);
    assert_string_equal(loaded.moves[5].text, t.moves[5].text);
    assert_string_equal(loaded.seats[0].name, "Ann");
    assert_int_equal(loaded.seats[0].account, 0);
    int64_t id = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h", 1, &id), 0);
    loaded.seats[0].account = id;
    assert_int_equal(storage_update_seat(s, t.id, 0, &loaded.seats[0], 0), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    s = open_db();
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.seats[0].account, id);
    storage_close(s);
    carc_game_free(g);
}

/* PostgreSQL: a database of schema version 4 with a game in it (before
 * the accounts) is brought to version 5: the game whole, accounts work. */
static void test_upgrade_from_version_4_pg(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "told00000004", 22, 5, &g);
    carc_game_free(g);
    storage *s = open_db();
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    pg_exec("DROP TABLE accounts, sessions, ratings, rating_changes;"
            " ALTER TABLE seats DROP COLUMN account; ALTER TABLE tables DROP COLUMN rated;"
            " UPDATE carc_schema SET version=4");
    s = open_db();
    assert_int_equal(schema_version(), SCHEMA_NOW_PG);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 5);
    assert_int_equal(loaded.seats[0].account, 0);
    int64_t id = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h", 1, &id), 0);
    loaded.seats[0].account = id;
    assert_int_equal(storage_update_seat(s, t.id, 0, &loaded.seats[0], 0), 0);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.seats[0].account, id);
    storage_close(s);
}

static int count_leader(void *ctx, const char *name, const stored_rating *r)
{
    char *names = ctx;
    size_t n = strlen(names);
    snprintf(names + n, 128 - n, "%s%s:%.0f", n ? "," : "", name, r->rating);
    return 0;
}

/* Ratings (schema 10, PostgreSQL's 6): a rated table kept as rated; each
 * account's rating per category and its changes, newest first; the
 * leaderboard best first, leaving out ratings too uncertain. */
static void test_ratings(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "trated000001", 31, 4, &g);
    carc_game_free(g);
    t.rated = 1;
    storage *s = open_db();
    assert_int_equal(storage_create_table(s, &t), 0);
    int64_t ann = 0, bob = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h", 1, &ann), 0);
    assert_int_equal(storage_create_account(s, "Bob", "bob", "h", 1, &bob), 0);
    stored_rating a = {.category = 0,
                       .rating = 1662.3,
                       .rd = 290.3,
                       .volatility = 0.06,
                       .games = 1,
                       .last_ms = 5000};
    stored_rating b = {.category = 0,
                       .rating = 1337.7,
                       .rd = 90.25,
                       .volatility = 0.059999,
                       .games = 1,
                       .last_ms = 5000};
    assert_int_equal(storage_rate(s, t.id, ann, 1500.0, &a), 0);
    assert_int_equal(storage_rate(s, t.id, bob, 1500.0, &b), 0);
    stored_rating c = b;
    c.category = 3;
    c.rating = 1450.5;
    c.last_ms = 7000;
    assert_int_equal(storage_rate(s, "tother000002", bob, 1500.0, &c), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    s = open_db();
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.rated, 1);
    stored_rating got[4];
    assert_int_equal(storage_ratings(s, bob, got, 4), 2);
    assert_int_equal(got[0].category, 0);
    assert_true(got[0].rating == 1337.7 && got[0].rd == 90.25 && got[0].volatility == 0.059999);
    assert_int_equal(got[0].games, 1);
    assert_int_equal(got[1].category, 3);
    assert_int_equal(storage_ratings(s, bob, got, 1), 1);
    stored_rating_change ch[4];
    assert_int_equal(storage_rating_changes(s, bob, ch, 4), 2);
    assert_string_equal(ch[0].table, "tother000002"); /* newest first */
    assert_true(ch[1].before == 1500.0 && ch[1].after == 1337.7);
    assert_int_equal(storage_ratings(s, 999, got, 4), 0);
    char names[128] = "";
    assert_int_equal(storage_leaderboard(s, 0, 350.0, 10, count_leader, names), 0);
    assert_string_equal(names, "Ann:1662,Bob:1338");
    names[0] = '\0';
    assert_int_equal(storage_leaderboard(s, 0, 110.0, 10, count_leader, names), 0);
    assert_string_equal(names, "Bob:1338"); /* Ann's RD is over 110 */
    storage_close(s);
}

typedef struct account_rows {
    char text[256];
} account_rows;

static int list_account(void *ctx, const stored_account *a, int tables)
{
    account_rows *rows = ctx;
    size_t n = strlen(rows->text);
    snprintf(rows->text + n, sizeof rows->text - n, "%s%s:%d:%d", n ? "," : "", a->name, tables,
             a->disabled);
    return 0;
}

/* The operator's work (schema 11, PostgreSQL's 7): the accounts listed by
 * name with the tables they sat at; a disabled account keeps no session
 * and none can be made to count, enabled again it logs in; a table
 * deleted with its seats, moves, chat and review, the others untouched. */
static void test_admin(void **state)
{
    (void)state;
    static stored_table t, u;
    carc_game *g;
    make_table(&t, "tadmin000001", 41, 5, &g);
    carc_game_free(g);
    make_table(&u, "tadmin000002", 42, 3, &g);
    carc_game_free(g);
    storage *s = open_db();
    int64_t bob = 0, ann = 0;
    assert_int_equal(storage_create_account(s, "bob", "bob", "h", 1, &bob), 0);
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h", 2, &ann), 0);
    t.seats[0].account = ann;
    u.seats[0].account = ann;
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_create_table(s, &u), 0);
    stored_chat line = {.seat = 0, .at_ms = 9};
    snprintf(line.name, sizeof line.name, "Ann");
    snprintf(line.text, sizeof line.text, "hello");
    assert_int_equal(storage_add_chat(s, t.id, 0, &line), 0);
    assert_int_equal(storage_set_review(s, t.id, "[]"), 0);
    uint8_t h[STORED_SESSION_HASH_BYTES] = {7};
    assert_int_equal(storage_create_session(s, h, ann, 1, 1000000), 0);
    assert_int_equal(storage_commit(s), 0);

    account_rows rows = {""};
    assert_int_equal(storage_list_accounts(s, list_account, &rows), 0);
    assert_string_equal(rows.text, "Ann:2:0,bob:0:0");
    stored_account a;
    assert_int_equal(storage_find_session(s, h, 10, &a), 1);
    assert_int_equal(storage_set_disabled(s, ann, 1), 0);
    assert_int_equal(storage_set_disabled(s, 999999, 1), 1);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_find_session(s, h, 10, &a), 0); /* ended */
    assert_int_equal(storage_create_session(s, h, ann, 1, 1000000), 0);
    assert_int_equal(storage_find_session(s, h, 10, &a), 0); /* a disabled account has none */
    assert_int_equal(storage_find_account(s, "ann", &a), 1);
    assert_int_equal(a.disabled, 1);
    rows.text[0] = '\0';
    assert_int_equal(storage_list_accounts(s, list_account, &rows), 0);
    assert_string_equal(rows.text, "Ann:2:1,bob:0:0");
    assert_int_equal(storage_set_disabled(s, ann, 0), 0);
    assert_int_equal(storage_find_account(s, "ann", &a), 1);
    assert_int_equal(a.disabled, 0);
    assert_int_equal(storage_find_session(s, h, 10, &a), 1);

    assert_int_equal(storage_delete_table(s, t.id), 0);
    assert_int_equal(storage_delete_table(s, t.id), 1);
    assert_int_equal(storage_delete_table(s, "tnothere0000"), 1);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    s = open_db();
    assert_int_equal(storage_load_table(s, t.id, &loaded), 0);
    stored_chat chat[4];
    int total = -1;
    assert_int_equal(storage_load_chat(s, t.id, chat, 4, &total), 0);
    assert_int_equal(total, 0);
    char *json = NULL;
    assert_int_equal(storage_load_review(s, t.id, &json), 0);
    assert_int_equal(storage_load_table(s, u.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 3);
    rows.text[0] = '\0';
    assert_int_equal(storage_list_accounts(s, list_account, &rows), 0);
    assert_string_equal(rows.text, "Ann:1:0,bob:0:0");
    storage_close(s);
}

/* SQLite's online backup: a copy of the whole database, taken while
 * another connection holds an open write transaction; it opens as a
 * database of its own with the table and the account; an existing file
 * is refused and left as it was. */
static void test_backup(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "tbackup00001", 43, 6, &g);
    carc_game_free(g);
    storage *s = open_db();
    int64_t ann = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h", 2, &ann), 0);
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    storage *writer = open_db(); /* the server, in the middle of a pass */
    static stored_table w;
    make_table(&w, "tbackup00002", 44, 2, &g);
    carc_game_free(g);
    assert_int_equal(storage_create_table(writer, &w), 0);
    char copy[sizeof path], err[300];
    snprintf(copy, sizeof copy, "/tmp/carc-backup-%d", (int)getpid());
    unlink(copy);
    assert_int_equal(storage_backup(s, copy, err, sizeof err), 0);
    assert_int_equal(storage_commit(writer), 0);
    storage_close(writer);
    assert_int_equal(storage_backup(s, copy, err, sizeof err), -1);
    assert_non_null(strstr(err, "exists already"));
    storage_close(s);
    char saved[sizeof path];
    memcpy(saved, path, sizeof saved);
    memcpy(path, copy, sizeof path);
    s = open_db();
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 6);
    assert_int_equal(storage_load_table(s, w.id, &loaded), 0); /* not committed then */
    stored_account a;
    assert_int_equal(storage_find_account(s, "ann", &a), 1);
    storage_close(s);
    teardown(NULL);
    memcpy(path, saved, sizeof path);
}

/* An SQLite file of schema version 10 with a game and an account in it
 * (before the accounts' `disabled`) opens at the current version:
 * nothing lost, the account enabled. */
static void test_upgrade_from_version_10(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "told00000010", 23, 7, &g);
    carc_game_free(g);
    storage *s = open_db();
    int64_t ann = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h10", 3, &ann), 0);
    t.seats[0].account = ann;
    t.rated = 1;
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    const char *back_to_10 = "ALTER TABLE accounts DROP COLUMN disabled;"
                             "ALTER TABLE accounts DROP COLUMN webhook; PRAGMA user_version=10;";
    assert_int_equal(sqlite3_exec(db, back_to_10, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = open_db();
    assert_int_equal(schema_version(), SCHEMA_NOW_SQLITE);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 7);
    assert_string_equal(loaded.moves[6].text, t.moves[6].text);
    assert_int_equal(loaded.seats[0].account, ann);
    assert_int_equal(loaded.rated, 1);
    stored_account a;
    assert_int_equal(storage_find_account(s, "ann", &a), 1);
    assert_string_equal(a.hash, "h10");
    assert_int_equal(a.disabled, 0);
    char url[64] = "x";
    assert_int_equal(storage_webhook(s, ann, url, sizeof url), 1);
    assert_string_equal(url, "");
    assert_int_equal(storage_set_disabled(s, ann, 1), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
}

/* An SQLite file of schema version 11 (before the accounts' `webhook`)
 * opens at version 12: the account's disabled flag and the game kept, no
 * webhook, one set and read back after a reopen. */
static void test_upgrade_from_version_11(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "told00000011", 25, 4, &g);
    carc_game_free(g);
    storage *s = open_db();
    int64_t ann = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h11", 3, &ann), 0);
    assert_int_equal(storage_set_disabled(s, ann, 1), 0);
    t.seats[0].account = ann;
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    const char *back_to_11 = "ALTER TABLE accounts DROP COLUMN webhook; PRAGMA user_version=11;";
    assert_int_equal(sqlite3_exec(db, back_to_11, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = open_db();
    assert_int_equal(schema_version(), SCHEMA_NOW_SQLITE);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 4);
    assert_int_equal(loaded.seats[0].account, ann);
    stored_account a;
    assert_int_equal(storage_find_account(s, "ann", &a), 1);
    assert_int_equal(a.disabled, 1);
    char url[64] = "x";
    assert_int_equal(storage_webhook(s, ann, url, sizeof url), 1);
    assert_string_equal(url, "");
    assert_int_equal(storage_set_webhook(s, ann, "https://example.org/hook"), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    s = open_db();
    assert_int_equal(storage_webhook(s, ann, url, sizeof url), 1);
    assert_string_equal(url, "https://example.org/hook");
    storage_close(s);
}

/* PostgreSQL: a database of schema version 6 with a game and an account
 * in it (before the accounts' `disabled`) is brought to the current
 * version: nothing lost, the account enabled. */
static void test_upgrade_from_version_6_pg(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "told00000006", 24, 6, &g);
    carc_game_free(g);
    storage *s = open_db();
    int64_t ann = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h6", 3, &ann), 0);
    t.seats[0].account = ann;
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    pg_exec("ALTER TABLE accounts DROP COLUMN disabled; ALTER TABLE accounts DROP COLUMN webhook;"
            " UPDATE carc_schema SET version=6");
    s = open_db();
    assert_int_equal(schema_version(), SCHEMA_NOW_PG);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 6);
    assert_int_equal(loaded.seats[0].account, ann);
    stored_account a;
    assert_int_equal(storage_find_account(s, "ann", &a), 1);
    assert_string_equal(a.hash, "h6");
    assert_int_equal(a.disabled, 0);
    storage_close(s);
}

/* PostgreSQL: a database of schema version 7 (before the accounts'
 * `webhook`) is brought to version 8: the account kept, disabled, no
 * webhook; one set and read back. */
static void test_upgrade_from_version_7_pg(void **state)
{
    (void)state;
    static stored_table t;
    carc_game *g;
    make_table(&t, "told00000007", 26, 4, &g);
    carc_game_free(g);
    storage *s = open_db();
    int64_t ann = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h7", 3, &ann), 0);
    assert_int_equal(storage_set_disabled(s, ann, 1), 0);
    t.seats[0].account = ann;
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    pg_exec("ALTER TABLE accounts DROP COLUMN webhook; UPDATE carc_schema SET version=7");
    s = open_db();
    assert_int_equal(schema_version(), SCHEMA_NOW_PG);
    assert_int_equal(storage_load_table(s, t.id, &loaded), 1);
    assert_int_equal(loaded.nmoves, 4);
    stored_account a;
    assert_int_equal(storage_find_account(s, "ann", &a), 1);
    assert_int_equal(a.disabled, 1);
    char url[64] = "x";
    assert_int_equal(storage_webhook(s, ann, url, sizeof url), 1);
    assert_string_equal(url, "");
    assert_int_equal(storage_set_webhook(s, ann, "https://example.org/hook"), 0);
    assert_int_equal(storage_set_webhook(s, 999999, "https://example.org/hook"), 1);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_webhook(s, ann, url, sizeof url), 1);
    assert_string_equal(url, "https://example.org/hook");
    assert_int_equal(storage_webhook(s, 999999, url, sizeof url), 0);
    storage_close(s);
}

static int count_attempted(void *ctx, const char *puzzle)
{
    (void)puzzle;
    ++*(int *)ctx;
    return 0;
}

/* Puzzles: a solver's and a puzzle's ratings stored with the first
 * attempt only; a second attempt writes nothing; read back after a
 * reopen. */
static void test_puzzles(void **state)
{
    (void)state;
    storage *s = open_db();
    int64_t ann = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "hp", 3, &ann), 0);
    stored_puzzle_rating solver = {1500, 350, 0.06, 0, 0, 0}, puzzle = {1600, 350, 0.06, 0, 0, 0};
    assert_int_equal(storage_puzzle_solver(s, ann, &solver), 0);
    assert_int_equal(storage_puzzle_rating(s, "base-155k-0001-12", &puzzle), 0);
    stored_puzzle_rating solver_after = {1662.3, 290.1, 0.06, 1, 1, 1};
    stored_puzzle_rating puzzle_after = {1540.5, 300.2, 0.06, 1, 0, 0};
    assert_int_equal(
        storage_puzzle_attempt(s, ann, "base-155k-0001-12", 1, 1000, &solver_after, &puzzle_after),
        0);
    stored_puzzle_rating other = {1, 1, 1, 9, 9, 9};
    assert_int_equal(storage_puzzle_attempt(s, ann, "base-155k-0001-12", 0, 2000, &other, &other),
                     1);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    s = open_db();
    stored_puzzle_rating r;
    assert_int_equal(storage_puzzle_solver(s, ann, &r), 1);
    assert_true(r.rating > 1662.29 && r.rating < 1662.31);
    assert_int_equal(r.attempts, 1);
    assert_int_equal(r.streak, 1);
    assert_int_equal(r.best_streak, 1);
    assert_int_equal(storage_puzzle_rating(s, "base-155k-0001-12", &r), 1);
    assert_true(r.rating > 1540.49 && r.rating < 1540.51);
    assert_int_equal(r.attempts, 1);
    int n = 0;
    assert_int_equal(storage_puzzle_attempted(s, ann, count_attempted, &n), 0);
    assert_int_equal(n, 1);
    n = 0;
    assert_int_equal(storage_puzzle_attempted(s, ann + 1, count_attempted, &n), 0);
    assert_int_equal(n, 0);
    storage_close(s);
}

/* An SQLite file of schema version 12 (before the puzzles) opens at
 * today's version: the account and its webhook kept, no puzzle rating; one
 * attempt stored. */
static void test_upgrade_from_version_12(void **state)
{
    (void)state;
    storage *s = open_db();
    int64_t ann = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h12", 3, &ann), 0);
    assert_int_equal(storage_set_webhook(s, ann, "https://example.org/hook"), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    const char *back_to_12 = "DROP TABLE puzzle_solvers; DROP TABLE puzzle_ratings;"
                             " DROP TABLE puzzle_attempts; PRAGMA user_version=12;";
    assert_int_equal(sqlite3_exec(db, back_to_12, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = open_db();
    assert_int_equal(schema_version(), SCHEMA_NOW_SQLITE);
    char url[64] = "";
    assert_int_equal(storage_webhook(s, ann, url, sizeof url), 1);
    assert_string_equal(url, "https://example.org/hook");
    stored_puzzle_rating r = {1500, 350, 0.06, 1, 1, 1};
    assert_int_equal(storage_puzzle_solver(s, ann, &r), 0);
    assert_int_equal(storage_puzzle_attempt(s, ann, "p1", 1, 5, &r, &r), 0);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_puzzle_solver(s, ann, &r), 1);
    storage_close(s);
}

/* PostgreSQL: a database of schema version 8 (before the puzzles) is
 * brought to today's version: the account kept; one attempt stored. */
static void test_upgrade_from_version_8_pg(void **state)
{
    (void)state;
    storage *s = open_db();
    int64_t ann = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h8", 3, &ann), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    pg_exec("DROP TABLE puzzle_solvers, puzzle_ratings, puzzle_attempts;"
            " UPDATE carc_schema SET version=8");
    s = open_db();
    assert_int_equal(schema_version(), SCHEMA_NOW_PG);
    stored_account a;
    assert_int_equal(storage_find_account(s, "ann", &a), 1);
    stored_puzzle_rating r = {1500, 350, 0.06, 1, 1, 1};
    assert_int_equal(storage_puzzle_solver(s, ann, &r), 0);
    assert_int_equal(storage_puzzle_attempt(s, ann, "p1", 1, 5, &r, &r), 0);
    assert_int_equal(storage_puzzle_attempt(s, ann, "p1", 0, 6, &r, &r), 1);
    assert_int_equal(storage_commit(s), 0);
    assert_int_equal(storage_puzzle_solver(s, ann, &r), 1);
    storage_close(s);
}

static int note_lesson(void *ctx, const char *lesson)
{
    char *all = ctx;
    strcat(all, lesson);
    strcat(all, " ");
    return 0;
}

/* The lessons an account finished: each kept once, oldest first, apart
 * from other accounts'; gone with the account. */
static void test_lessons(void **state)
{
    (void)state;
    storage *s = open_db();
    int64_t ann = 0, bob = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h", 3, &ann), 0);
    assert_int_equal(storage_create_account(s, "Bob", "bob", "h", 3, &bob), 0);
    assert_int_equal(storage_lesson_done(s, ann, "road", 20), 0);
    assert_int_equal(storage_lesson_done(s, ann, "place", 10), 0);
    assert_int_equal(storage_lesson_done(s, ann, "place", 30), 0); /* again: kept once */
    assert_int_equal(storage_lesson_done(s, bob, "farm", 10), 0);
    assert_int_equal(storage_commit(s), 0);
    char all[200] = "";
    assert_int_equal(storage_lessons_done(s, ann, note_lesson, all), 0);
    assert_string_equal(all, "place road ");
    all[0] = '\0';
    assert_int_equal(storage_lessons_done(s, bob, note_lesson, all), 0);
    assert_string_equal(all, "farm ");
    /* Uncommitted is lost. */
    assert_int_equal(storage_lesson_done(s, bob, "road", 40), 0);
    storage_close(s);
    s = open_db();
    all[0] = '\0';
    assert_int_equal(storage_lessons_done(s, bob, note_lesson, all), 0);
    assert_string_equal(all, "farm ");
    assert_int_equal(storage_delete_account(s, ann), 0);
    assert_int_equal(storage_commit(s), 0);
    all[0] = '\0';
    assert_int_equal(storage_lessons_done(s, ann, note_lesson, all), 0);
    assert_string_equal(all, "");
    storage_close(s);
}

/* After an upgrade: a lesson of account `ann` is stored and read back;
 * closes `s`. */
static void check_lesson_stored(storage *s, int64_t ann)
{
    assert_int_equal(storage_lesson_done(s, ann, "place", 7), 0);
    assert_int_equal(storage_commit(s), 0);
    char all[64] = "";
    assert_int_equal(storage_lessons_done(s, ann, note_lesson, all), 0);
    assert_string_equal(all, "place ");
    storage_close(s);
}

/* An SQLite file of schema version 13 (before the lessons) opens at
 * today's version, its puzzle attempt kept; a lesson is stored. */
static void test_upgrade_from_version_13(void **state)
{
    (void)state;
    storage *s = open_db();
    int64_t ann = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h13", 3, &ann), 0);
    stored_puzzle_rating r = {1500, 350, 0.06, 1, 1, 1};
    assert_int_equal(storage_puzzle_attempt(s, ann, "p1", 1, 5, &r, &r), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(db, "DROP TABLE lessons_done; PRAGMA user_version=13;", NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    s = open_db();
    assert_int_equal(schema_version(), SCHEMA_NOW_SQLITE);
    assert_int_equal(storage_puzzle_solver(s, ann, &r), 1);
    check_lesson_stored(s, ann);
}

/* PostgreSQL: a database of schema version 9 (before the lessons) is
 * brought to today's version; a lesson is stored. */
static void test_upgrade_from_version_9_pg(void **state)
{
    (void)state;
    storage *s = open_db();
    int64_t ann = 0;
    assert_int_equal(storage_create_account(s, "Ann", "ann", "h9", 3, &ann), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    pg_exec("DROP TABLE lessons_done; UPDATE carc_schema SET version=9");
    s = open_db();
    assert_int_equal(schema_version(), SCHEMA_NOW_PG);
    check_lesson_stored(s, ann);
}

int main(int argc, char **argv)
{
    const char *backend = argc > 1 ? argv[1] : "sqlite";
    const struct CMUnitTest both[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_uncommitted_is_lost, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_step_changes_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_finished_tables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chat_and_review, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_tables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_writers_one_move, setup, teardown),
        cmocka_unit_test_setup_teardown(test_newer_schema_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hand_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ratings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_puzzles, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lessons, setup, teardown),
        cmocka_unit_test(test_bad_path),
        cmocka_unit_test_setup_teardown(test_accounts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sessions_and_seats, setup, teardown),
        cmocka_unit_test_setup_teardown(test_account_in_a_pass, setup, teardown),
        cmocka_unit_test_setup_teardown(test_admin, setup, teardown),
    };
    const struct CMUnitTest sqlite_only[] = {
        cmocka_unit_test_setup_teardown(test_locked_database, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_2, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_4, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_8, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_10, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_11, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_12, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_13, setup, teardown),
        cmocka_unit_test_setup_teardown(test_backup, setup, teardown),
    };
    const struct CMUnitTest postgres_only[] = {
        cmocka_unit_test_setup_teardown(test_locked_database_pg, setup, teardown),
        cmocka_unit_test_setup_teardown(test_claims_pg, setup, teardown),
        cmocka_unit_test_setup_teardown(test_claim_limit_pg, setup, teardown),
        cmocka_unit_test_setup_teardown(test_postgres_restarted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pipelined_pg, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_2_pg, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_4_pg, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_6_pg, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_7_pg, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_8_pg, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_9_pg, setup, teardown),
    };
    if (strcmp(backend, "postgresql") == 0) {
        pg_uri = getenv("CARC_TEST_PG");
        if (!pg_uri) {
            fprintf(stderr, "test_storage: CARC_TEST_PG is not set: run me under "
                            "tests/server/with_postgres.sh\n");
            return 1;
        }
        return cmocka_run_group_tests_name("storage on postgresql", both, NULL, NULL) |
               cmocka_run_group_tests_name("postgresql only", postgres_only, NULL, NULL);
    }
    if (strcmp(backend, "sqlite") != 0) {
        fprintf(stderr, "test_storage: the backend is sqlite or postgresql, not '%s'\n", backend);
        return 2;
    }
    return cmocka_run_group_tests_name("storage on sqlite", both, NULL, NULL) |
           cmocka_run_group_tests_name("sqlite only", sqlite_only, NULL, NULL);
}
