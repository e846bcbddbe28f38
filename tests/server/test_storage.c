/* test_storage.c: the SQLite storage: a round trip through a temporary
 * file, atomic steps, commits, a database locked by another process, and
 * a reopened database that replays to the same game (the same digest). */
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

static char path[64];

static int setup(void **state)
{
    (void)state;
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

static storage *open_db(void)
{
    char err[200];
    storage *s = storage_open(path, err, sizeof err);
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
    t->rules = CARC_RULE_SMALL_CITY;
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
    carc_rules rules = {.flags = t->rules};
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
    storage *s = open_db();
    /* Half the moves with the table, the others appended. */
    t.nmoves = 15;
    assert_int_equal(storage_create_table(s, &t), 0);
    for (int i = 15; i < 30; i++)
        assert_int_equal(storage_append_move(s, t.id, i, &t.moves[i], TABLE_PLAYING, -1), 0);
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
    assert_int_equal(loaded.nmoves, 30);
    assert_int_equal(loaded.rules, CARC_RULE_SMALL_CITY);
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
    for (int i = 0; i < 30; i++) {
        assert_string_equal(loaded.moves[i].text, t.moves[i].text);
        assert_int_equal(loaded.moves[i].by, t.moves[i].by);
        assert_true(loaded.moves[i].at_ms == t.moves[i].at_ms);
    }
    /* The replay after reopening is the same game. */
    char err[160];
    carc_game *replayed = table_replay(&loaded, NULL, NULL, err, sizeof err);
    assert_non_null(replayed);
    assert_true(carc_game_digest(replayed) == carc_game_digest(g));
    assert_int_equal(carc_game_drawn_tile(replayed), carc_game_drawn_tile(g));
    carc_game_free(replayed);
    carc_game_free(g);
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
        "INSERT INTO tables VALUES ('told00000001',1,1,2,0,0,0,0,0,0,1,5,x'00','a',-1,1);"
        "PRAGMA user_version=1;";
    assert_int_equal(sqlite3_exec(db, v1, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    storage *s = open_db();
    assert_int_equal(storage_load_table(s, "told00000001", &loaded), 1);
    assert_int_equal(loaded.estimates, 1);
    assert_int_equal(loaded.expansions, 0);
    storage_close(s);
    assert_int_equal(schema_version(), 5);
}

/* The user_version of the database file. */
static int schema_version(void)
{
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
    assert_int_equal(loaded.expansions, 0);
    assert_int_equal(loaded.creator, -1); /* version 4's column: not known */
    assert_int_equal(loaded.rules, CARC_RULE_SMALL_CITY);
    assert_int_equal(loaded.estimates, 0);
    assert_int_equal(loaded.nmoves, 1);
    assert_string_equal(loaded.moves[0].text, "E 0 -1 0");
    /* A river table in the upgraded file. */
    static stored_table t;
    memset(&t, 0, sizeof t);
    snprintf(t.id, sizeof t.id, "triver000001");
    t.status = TABLE_PLAYING;
    t.players = 2;
    t.rules = CARC_RULE_RIVER_KEEP_START;
    t.expansions = CARC_EXPANSION_RIVER;
    t.forfeit = -1;
    t.nmoves = 1;
    snprintf(t.moves[0].text, sizeof t.moves[0].text, "RD 1 0 0");
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    assert_int_equal(schema_version(), 5);
    s = open_db();
    assert_int_equal(storage_load_table(s, "triver000001", &loaded), 1);
    assert_int_equal(loaded.expansions, CARC_EXPANSION_RIVER);
    assert_int_equal(loaded.rules, CARC_RULE_RIVER_KEEP_START);
    assert_string_equal(loaded.moves[0].text, "RD 1 0 0");
    assert_int_equal(storage_load_table(s, "told00000002", &loaded), 1);
    assert_int_equal(loaded.expansions, 0);
    assert_int_equal(loaded.creator, -1); /* version 4's column: not known */
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
        "ALTER TABLE tables DROP COLUMN rules_text;"
        "INSERT INTO tables VALUES ('told00000004',1,1,2,2,0,0,0,0,0,1,5,x'00','a',-1,1,0,0,-1);"
        "PRAGMA user_version=4;";
    assert_int_equal(sqlite3_exec(db, back_to_4, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = open_db();
    assert_int_equal(schema_version(), 5);
    assert_int_equal(storage_load_table(s, "told00000004", &loaded), 1);
    assert_int_equal(loaded.rules, CARC_RULE_SMALL_CITY);
    assert_int_equal(loaded.table_w, 0);
    static stored_table t;
    memset(&t, 0, sizeof t);
    snprintf(t.id, sizeof t.id, "ttable000001");
    t.status = TABLE_WAITING;
    t.players = 8;
    t.rules = CARC_RULE_TABLE_EDGE_COMPLETES | CARC_RULE_BONUS_TURN;
    t.table_w = 9;
    t.table_h = 7;
    t.forfeit = -1;
    assert_int_equal(storage_create_table(s, &t), 0);
    assert_int_equal(storage_commit(s), 0);
    storage_close(s);
    s = open_db();
    assert_int_equal(storage_load_table(s, "ttable000001", &loaded), 1);
    assert_int_equal(loaded.players, 8);
    assert_int_equal(loaded.rules, CARC_RULE_TABLE_EDGE_COMPLETES | CARC_RULE_BONUS_TURN);
    assert_int_equal(loaded.table_w, 9);
    assert_int_equal(loaded.table_h, 7);
    char text[64];
    storage_rules_text(&loaded, text, sizeof text);
    assert_string_equal(text, "bonus-turn table-edge-completes table=9x7");
    storage_close(s);
}

/* A database written by a newer server is refused, and left as it was. */
static void test_newer_schema_refused(void **state)
{
    (void)state;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA user_version=99;", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    char err[200];
    assert_null(storage_open(path, err, sizeof err));
    assert_non_null(strstr(err, "newer"));
    assert_int_equal(schema_version(), 99);
}

static void test_bad_path(void **state)
{
    (void)state;
    char err[200];
    assert_null(storage_open("/nonexistent-folder/x.db", err, sizeof err));
    assert_true(strlen(err) > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_uncommitted_is_lost, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_step_changes_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_locked_database, setup, teardown),
        cmocka_unit_test_setup_teardown(test_finished_tables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_2, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_version_4, setup, teardown),
        cmocka_unit_test_setup_teardown(test_newer_schema_refused, setup, teardown),
        cmocka_unit_test(test_bad_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
