/* test_session.c: a saved game loads exactly as it stood (the same tiles
 * to come), with its log rebuilt, final scoring included. */
#define _XOPEN_SOURCE 700 /* setenv, mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "describe.h"
#include "session.h"

static char scratch[64];

static int setup(void **state)
{
    (void)state;
    snprintf(scratch, sizeof scratch, "/tmp/carc-session-XXXXXX");
    if (!mkdtemp(scratch))
        return -1;
    char data[128];
    snprintf(data, sizeof data, "%s/data", scratch);
    setenv("XDG_DATA_HOME", data, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    return system(cmd) == 0 ? 0 : -1;
}

static void open_args(session *s, int expect, char *err, int argc, const char *const *args)
{
    char *argv[12];
    play_options opt;
    for (int i = 0; i < argc; i++)
        argv[i] = (char *)args[i];
    assert_int_equal(play_parse_options(argc, argv, &opt, err, 300), 0);
    assert_int_equal(session_open(s, &opt, err, 300), expect);
}

/* The first legal placement without a follower, or a discard. */
static carc_move simple_move(const carc_game *g)
{
    carc_placement p[CARC_MAX_PLACEMENTS];
    carc_move m = {.type = CARC_MOVE_DISCARD, .segment = CARC_NO_SPOT};
    if (carc_legal_placements(g, p, CARC_MAX_PLACEMENTS) > 0) {
        m.type = CARC_MOVE_PLACE;
        m.place = p[0];
    }
    return m;
}

static void path_of(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", scratch, name);
}

static void test_load_keeps_the_deal(void **state)
{
    (void)state;
    static session s, loaded;
    char err[300], path[128];
    const char *args[] = {"play", "--players", "human,greedy", "--seed", "5"};
    open_args(&s, SESSION_OK, err, 5, args);
    for (int i = 0; i < 6; i++)
        assert_int_equal(session_play(&s, simple_move(s.g)), CARC_OK);
    path_of(path, sizeof path, "six.rec");
    assert_int_equal(session_save(&s, path, err, sizeof err), 0);
    for (int round = 0; round < 3; round++) {
        const char *load[] = {"play", "--load", path};
        open_args(&loaded, SESSION_OK, err, 3, load);
        assert_int_equal(loaded.seed, 5);
        carc_game *a = carc_game_clone(s.g), *b = carc_game_clone(loaded.g);
        for (int i = 0; i < 40 && !carc_game_over(a); i++) {
            assert_int_equal(carc_game_drawn_tile(a), carc_game_drawn_tile(b));
            carc_move m = simple_move(a);
            assert_int_equal(carc_game_play(a, m, NULL, 0, NULL), CARC_OK);
            assert_int_equal(carc_game_play(b, m, NULL, 0, NULL), CARC_OK);
        }
        carc_game_free(a);
        carc_game_free(b);
        assert_string_equal(loaded.seats[1].spec, "greedy");
        assert_int_equal(loaded.dirty, 0);
        session_close(&loaded);
    }
    /* --seed cannot deal a saved game again. */
    const char *reseed[] = {"play", "--load", path, "--seed", "6"};
    open_args(&loaded, SESSION_USAGE, err, 5, reseed);
    assert_non_null(strstr(err, "seed 5"));
    session_close(&loaded);
    session_close(&s);
}

static int log_has(const session *s, const char *text)
{
    for (int i = 0; i < s->nlog; i++)
        if (strstr(s->log[i], text))
            return 1;
    return 0;
}

static void test_load_rebuilds_the_log(void **state)
{
    (void)state;
    static session s, loaded;
    char err[300], path[256], dir[160];
    const char *args[] = {"play", "--players", "human,human", "--seed", "8"};
    open_args(&s, SESSION_OK, err, 5, args);
    while (!carc_game_over(s.g))
        assert_int_equal(session_play(&s, simple_move(s.g)), CARC_OK);
    assert_true(log_has(&s, "final scoring"));
    snprintf(dir, sizeof dir, "%s/data/carcassonne/saves", scratch);
    snprintf(path, sizeof path, "%s/data", scratch);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/data/carcassonne", scratch);
    mkdir(path, 0755);
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/over.rec", dir);
    assert_int_equal(session_save(&s, path, err, sizeof err), 0);
    const char *load[] = {"play", "--load", "over.rec"}; /* found in the saves folder */
    open_args(&loaded, SESSION_OK, err, 3, load);
    assert_true(carc_game_over(loaded.g));
    assert_true(log_has(&loaded, "Turn 1: Red put"));
    assert_true(log_has(&loaded, "final scoring"));
    int finals = 0;
    for (int i = 0; i < s.nlog; i++)
        finals += strstr(s.log[i], "scores") != NULL;
    int loaded_finals = 0;
    for (int i = 0; i < loaded.nlog; i++)
        loaded_finals += strstr(loaded.log[i], "scores") != NULL;
    assert_int_equal(loaded_finals, finals);
    /* Line for line the log of the game as played, but "Resumed ...". */
    int n = loaded.nlog - 1;
    assert_true(n > 0 && n <= s.nlog);
    assert_non_null(strstr(loaded.log[n], "Resumed"));
    for (int i = 0; i < n; i++)
        assert_string_equal(loaded.log[i], s.log[s.nlog - n + i]);
    session_close(&loaded);
    /* A record ended early: its final scoring is logged too. */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("players 2\nseat-2 greedy\nseed 3\nE 0 -1 2 S\nU 1 0 1 W\nend\n", f);
    fclose(f);
    open_args(&loaded, SESSION_OK, err, 3, load);
    assert_int_equal(loaded.seed, 3);
    assert_string_equal(loaded.seats[1].spec, "greedy");
    assert_true(log_has(&loaded, "Turn 2: Blue put U at 1,0 (thief)"));
    assert_true(log_has(&loaded, "ended early"));
    assert_true(log_has(&loaded, "Blue scores 2 for an open road"));
    assert_int_equal(loaded.nfinal, 1);
    session_close(&loaded);
    const char *missing[] = {"play", "--load", "none.rec"};
    open_args(&loaded, SESSION_USAGE, err, 3, missing);
    assert_non_null(strstr(err, "none.rec"));
    session_close(&loaded);
    session_close(&s);
}

/* seed 140's river (selfplay --expansions river) runs up, west, down and
 * ends at -1,0 beside the spring: RI and RC fit there in no turn. */
static const char river_head[] = "players 2\nexpansions river\nseed 140\n"
                                 "RG 1 0 1\nRK 1 -1 2 ESE\nRH 1 -2 3\nRG 1 -3 0 SSW\n"
                                 "RB 0 -3 0\nRE -1 -3 0\nRD -1 -2 1 NNW\nRD -1 -1 3\n";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A discard is a turn of its own in the log (the numbers run on) and says
 * why; a river tile's says the river is boxed in. */
static void test_discards_are_turns_that_say_why(void **state)
{
    (void)state;
    static session s;
    char err[300], path[128], text[512];
    path_of(path, sizeof path, "river.rec");
    snprintf(text, sizeof text, "%sdiscard RI\ndiscard RC\nRL -1 0 1\n", river_head);
    write_file(path, text);
    const char *load[] = {"play", "--load", path, "--players", "human,human"};
    open_args(&s, SESSION_OK, err, 5, load);
    assert_true(log_has(&s, "Turn 8: Blue put RD at -1,-1"));
    assert_true(log_has(&s, "Turn 9: Red discards RI: the river is boxed in at its end, -1,0"));
    assert_true(log_has(&s, "discards RC: the river is boxed in at its end, -1,0"));
    assert_true(log_has(&s, "Turn 10: "));
    assert_true(log_has(&s, "Turn 11: "));
    assert_true(log_has(&s, " put RL at -1,0"));
    for (int i = 0; i < s.nlog; i++)
        assert_null(strstr(s.log[i], "fits nowhere: discarded"));
    session_close(&s);

    /* Played, not loaded: the same words. */
    write_file(path, river_head);
    open_args(&s, SESSION_OK, err, 5, load);
    assert_int_equal(carc_game_drawn_tile(s.g), carc_tile_parse("RI"));
    carc_move discard = {.type = CARC_MOVE_DISCARD, .segment = CARC_NO_SPOT};
    assert_int_equal(session_play(&s, discard), CARC_OK);
    assert_string_equal(s.log[s.nlog - 1],
                        "Turn 9: Red discards RI: the river is boxed in at its end, -1,0");
    /* A base tile that fits nowhere has a plain reason. */
    char why[160];
    describe_discard(s.g, carc_tile_parse("E"), why, sizeof why);
    assert_string_equal(why, "it fits nowhere");
    describe_discard(NULL, carc_tile_parse("RI"), why, sizeof why);
    assert_string_equal(why, "it fits nowhere");
    session_close(&s);
}

/* With reshuffle a discard's tile goes back into the pile only while the
 * engine's slack for returns lasts: the log says "back into the pile" for
 * those only, played and loaded alike; once a discard is set aside, no
 * later one goes back. A 7x7 table makes many discards; the deal is
 * random by seed, so seeds are tried until a game shows both. */
static void test_reshuffle_back_into_the_pile(void **state)
{
    (void)state;
    static session s, loaded;
    char err[300], path[128], seed[24];
    int both = 0;
    for (int k = 1; k <= 10 && !both; k++) {
        snprintf(seed, sizeof seed, "%d", k);
        const char *args[] = {
            "play", "--players", "human,human", "--rules", "reshuffle,table=7x7", "--seed", seed};
        open_args(&s, SESSION_OK, err, 7, args);
        int back = 0, aside = 0;
        while (!carc_game_over(s.g)) {
            carc_move m = simple_move(s.g);
            assert_int_equal(session_play(&s, m), CARC_OK);
            if (m.type != CARC_MOVE_DISCARD)
                continue;
            if (strstr(s.log[s.nlog - 1], "; back into the pile")) {
                assert_int_equal(aside, 0);
                back++;
            } else {
                aside++;
            }
        }
        both = back > 0 && aside > 0;
        /* Loaded again, the log says the same. */
        path_of(path, sizeof path, "reshuffle.rec");
        assert_int_equal(session_save(&s, path, err, sizeof err), 0);
        const char *load[] = {"play", "--load", path, "--players", "human,human"};
        open_args(&loaded, SESSION_OK, err, 5, load);
        int again = 0;
        for (int i = 0; i < loaded.nlog; i++)
            again += strstr(loaded.log[i], "; back into the pile") != NULL;
        assert_int_equal(again, back);
        session_close(&loaded);
        session_close(&s);
    }
    assert_true(both);
}

/* Traders & Builders' events in words: goods taken for a completed city,
 * a goods majority at the end, the pig's points. */
static void test_traders_event_words(void **state)
{
    (void)state;
    char text[120];
    carc_event given = {.kind = CARC_CITY,
                        .complete = 1,
                        .winners = 1u << 0,
                        .bonus = CARC_BONUS_GOODS,
                        .goods = {1, 0, 2}};
    session_event_text(&given, text, sizeof text);
    assert_string_equal(text, "Red takes 1 wine, 2 cloth for completing a city");
    carc_event most = {.kind = CARC_CITY,
                       .winners = 3u,
                       .bonus = CARC_BONUS_GOODS,
                       .goods = {0, 3, 0},
                       .points = 10};
    session_event_text(&most, text, sizeof text);
    assert_string_equal(text, "Red and Blue score 10 for the most grain (3)");
    carc_event pig = {.kind = CARC_FIELD, .winners = 1u << 1, .bonus = CARC_BONUS_PIG, .points = 3};
    session_event_text(&pig, text, sizeof text);
    assert_string_equal(text, "Blue scores 3 more for the pig on a farm");
}

/* The log's first line names every expansion the game plays, not only
 * The River. */
static void test_new_game_names_its_expansions(void **state)
{
    (void)state;
    static session s;
    char err[300];
    const char *all[] = {"play",
                         "--players",
                         "human,human",
                         "--seed",
                         "3",
                         "--expansions",
                         "river,inns-cathedrals,traders-builders"};
    open_args(&s, SESSION_OK, err, 7, all);
    assert_string_equal(s.log[0], "New game with The River, Inns & Cathedrals and Traders & "
                                  "Builders, seed 3");
    session_close(&s);
    const char *two[] = {"play",
                         "--players",
                         "human,human",
                         "--seed",
                         "3",
                         "--expansions",
                         "inns-cathedrals,traders-builders"};
    open_args(&s, SESSION_OK, err, 7, two);
    assert_string_equal(s.log[0], "New game with Inns & Cathedrals and Traders & Builders, seed 3");
    session_close(&s);
    const char *one[] = {"play", "--players",    "human,human",     "--seed",
                         "3",    "--expansions", "traders-builders"};
    open_args(&s, SESSION_OK, err, 7, one);
    assert_string_equal(s.log[0], "New game with Traders & Builders, seed 3");
    session_close(&s);
    const char *base[] = {"play", "--players", "human,human", "--seed", "3"};
    open_args(&s, SESSION_OK, err, 5, base);
    assert_string_equal(s.log[0], "New game, seed 3");
    session_close(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_keeps_the_deal),
        cmocka_unit_test(test_load_rebuilds_the_log),
        cmocka_unit_test(test_discards_are_turns_that_say_why),
        cmocka_unit_test(test_reshuffle_back_into_the_pile),
        cmocka_unit_test(test_traders_event_words),
        cmocka_unit_test(test_new_game_names_its_expansions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
