/* test_options.c: the command line of `carcassonne play`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "options.h"

static int parse(play_options *opt, char *err, int argc, const char *const *args)
{
    char *argv[16];
    for (int i = 0; i < argc; i++)
        argv[i] = (char *)args[i];
    return play_parse_options(argc, argv, opt, err, 200);
}

static void test_defaults(void **state)
{
    (void)state;
    play_options opt;
    char err[200];
    const char *args[] = {"play"};
    assert_int_equal(parse(&opt, err, 1, args), 0);
    assert_int_equal(opt.nseats, 0);
    assert_int_equal(opt.tile_info, 1);
    assert_int_equal(opt.color, -1);
    assert_int_equal(opt.rules, 0);
    assert_null(opt.load);
}

static void test_players_rules_seed(void **state)
{
    (void)state;
    play_options opt;
    char err[200];
    const char *args[] = {"play",
                          "--players",
                          "human,mcts:level=hard,greedy",
                          "--rules",
                          "small-city,bonus-turn",
                          "--seed",
                          "42",
                          "--no-tile-info",
                          "--no-color"};
    assert_int_equal(parse(&opt, err, 9, args), 0);
    assert_int_equal(opt.nseats, 3);
    assert_string_equal(opt.seats[0], "human");
    assert_string_equal(opt.seats[1], "mcts:level=hard");
    assert_string_equal(opt.seats[2], "greedy");
    assert_int_equal(opt.rules, CARC_RULE_SMALL_CITY | CARC_RULE_BONUS_TURN);
    assert_int_equal(opt.seed, 42);
    assert_int_equal(opt.tile_info, 0);
    assert_int_equal(opt.color, 0);
}

static void test_plus_joins_player_options(void **state)
{
    (void)state;
    play_options opt;
    char err[200];
    const char *args[] = {"play", "--players", "mcts:level=easy+threads=1,human"};
    assert_int_equal(parse(&opt, err, 3, args), 0);
    assert_string_equal(opt.seats[0], "mcts:level=easy,threads=1");
}

static void test_bad_arguments(void **state)
{
    (void)state;
    play_options opt;
    char err[200];
    const char *one_seat[] = {"play", "--players", "human"};
    assert_int_equal(parse(&opt, err, 3, one_seat), -1);
    assert_non_null(strstr(err, "at least 2"));
    const char *seven[] = {"play", "--players", "human,human,human,human,human,human,human"};
    assert_int_equal(parse(&opt, err, 3, seven), -1);
    const char *bogus[] = {"play", "--players", "human,chess-master"};
    assert_int_equal(parse(&opt, err, 3, bogus), -1);
    assert_non_null(strstr(err, "chess-master"));
    const char *rule[] = {"play", "--rules", "no-such-rule"};
    assert_int_equal(parse(&opt, err, 3, rule), -1);
    const char *seed[] = {"play", "--seed", "12x"};
    assert_int_equal(parse(&opt, err, 3, seed), -1);
    const char *missing[] = {"play", "--load"};
    assert_int_equal(parse(&opt, err, 2, missing), -1);
    const char *unknown[] = {"play", "--fast"};
    assert_int_equal(parse(&opt, err, 2, unknown), -1);
    assert_non_null(strstr(err, "--fast"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_players_rules_seed),
        cmocka_unit_test(test_plus_joins_player_options),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
