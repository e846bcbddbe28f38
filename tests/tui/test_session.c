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
    session_close(&loaded);
    const char *missing[] = {"play", "--load", "none.rec"};
    open_args(&loaded, SESSION_USAGE, err, 3, missing);
    assert_non_null(strstr(err, "none.rec"));
    session_close(&loaded);
    session_close(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_keeps_the_deal),
        cmocka_unit_test(test_load_rebuilds_the_log),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
