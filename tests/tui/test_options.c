/* test_options.c: the command line of `carcassonne play`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "carcassonne_ai.h"
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
    assert_int_equal(opt.rules.flags, 0);
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
    assert_int_equal(opt.rules.flags, CARC_RULE_SMALL_CITY | CARC_RULE_BONUS_TURN);
    assert_int_equal(opt.seed, 42);
    assert_int_equal(opt.tile_info, 0);
    assert_int_equal(opt.color, 0);
}

/* "standard" names no option; a list is read as a record's rules line,
 * with commas too. */
static void test_rules(void **state)
{
    (void)state;
    play_options opt;
    char err[200];
    const char *standard[] = {"play", "--rules", "standard"};
    assert_int_equal(parse(&opt, err, 3, standard), 0);
    assert_int_equal(opt.rules.flags, 0);
    assert_int_equal(opt.rules_given, 1);
    const char *spaced[] = {"play", "--rules", "farms-first-edition, no-incomplete-scoring"};
    assert_int_equal(parse(&opt, err, 3, spaced), 0);
    assert_int_equal(opt.rules.flags, CARC_RULE_FARMS_FIRST_EDITION | CARC_RULE_NO_INCOMPLETE);
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

/* A comma-piece "key=value" without ':' continues the seat before it. */
static void test_comma_continues_a_seat(void **state)
{
    (void)state;
    play_options opt;
    char err[200];
    const char *args[] = {"play", "--players", "human,mcts:level=hard,ms=500,greedy,eval=full"};
    assert_int_equal(parse(&opt, err, 3, args), 0);
    assert_int_equal(opt.nseats, 3);
    assert_string_equal(opt.seats[0], "human");
    assert_string_equal(opt.seats[1], "mcts:level=hard,ms=500");
    assert_string_equal(opt.seats[2], "greedy:eval=full");
    const char *mixed[] = {"play", "--players", "vanilla-mcts:iters=50+c=2,threads=1,star25"};
    assert_int_equal(parse(&opt, err, 3, mixed), -1); /* vanilla-mcts has no threads */
    assert_non_null(strstr(err, "threads"));
    const char *human_opts[] = {"play", "--players", "human,ms=5,mcts"};
    assert_int_equal(parse(&opt, err, 3, human_opts), -1);
    assert_non_null(strstr(err, "takes no options"));
    const char *first[] = {"play", "--players", "ms=5,mcts"};
    assert_int_equal(parse(&opt, err, 3, first), -1);
    const char *empty[] = {"play", "--players", "human,,mcts"};
    assert_int_equal(parse(&opt, err, 3, empty), -1);
}

/* The library takes '+' and ',' alike between a player's options. */
static void test_player_new_takes_both_joiners(void **state)
{
    (void)state;
    char err[160];
    carc_player *plus = carc_player_new("mcts:ms=500+threads=1", 1, err, sizeof err);
    carc_player *comma = carc_player_new("mcts:ms=500,threads=1", 1, err, sizeof err);
    assert_non_null(plus);
    assert_non_null(comma);
    assert_string_equal(carc_player_spec(plus), carc_player_spec(comma));
    assert_non_null(strstr(carc_player_spec(plus), "threads=1"));
    carc_player_free(plus);
    carc_player_free(comma);
    assert_null(carc_player_new("mcts:ms=500+", 1, err, sizeof err));
    assert_null(carc_player_new("mcts:ms=500+bogus=1", 1, err, sizeof err));
    assert_non_null(strstr(err, "bogus"));
}

static void test_help_lists_every_player(void **state)
{
    (void)state;
    const char *names[] = {"random",     "greedy",       "mcts",  "vanilla-mcts",    "star25",
                           "--save-dir", "--expansions", "river", "river-keep-start"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        assert_non_null(strstr(play_usage, names[i]));
}

static void test_bad_arguments(void **state)
{
    (void)state;
    play_options opt;
    char err[200];
    const char *one_seat[] = {"play", "--players", "human"};
    assert_int_equal(parse(&opt, err, 3, one_seat), -1);
    assert_non_null(strstr(err, "at least 2"));
    const char *nine[] = {"play", "--players",
                          "human,human,human,human,human,human,human,human,human"};
    assert_int_equal(parse(&opt, err, 3, nine), -1);
    assert_non_null(strstr(err, "at most 8"));
    const char *eight[] = {"play", "--players", "human,human,human,human,human,human,human,human"};
    assert_int_equal(parse(&opt, err, 3, eight), 0);
    const char *table[] = {"play", "--rules", "table=9x7,table-edge-completes"};
    assert_int_equal(parse(&opt, err, 3, table), 0);
    assert_int_equal(opt.rules.table_w, 9);
    assert_int_equal(opt.rules.table_h, 7);
    const char *even[] = {"play", "--rules", "table=8x8"};
    assert_int_equal(parse(&opt, err, 3, even), -1);
    assert_non_null(strstr(err, "odd sizes"));
    const char *bogus[] = {"play", "--players", "human,chess-master"};
    assert_int_equal(parse(&opt, err, 3, bogus), -1);
    assert_non_null(strstr(err, "chess-master"));
    const char *rule[] = {"play", "--rules", "small-city,no-such-rule"};
    assert_int_equal(parse(&opt, err, 3, rule), -1);
    assert_non_null(strstr(err, "unknown rule 'no-such-rule'"));
    const char *seed[] = {"play", "--seed", "12x"};
    assert_int_equal(parse(&opt, err, 3, seed), -1);
    const char *missing[] = {"play", "--load"};
    assert_int_equal(parse(&opt, err, 2, missing), -1);
    const char *unknown[] = {"play", "--fast"};
    assert_int_equal(parse(&opt, err, 2, unknown), -1);
    assert_non_null(strstr(err, "--fast"));
}

/* --expansions names the expansions (river.md); river-keep-start needs the
 * river; a loaded game keeps its own. */
static void test_expansions(void **state)
{
    (void)state;
    play_options opt;
    char err[200];
    const char *none[] = {"play"};
    assert_int_equal(parse(&opt, err, 1, none), 0);
    assert_int_equal(opt.rules.expansions, 0);
    const char *river[] = {"play", "--expansions", "river"};
    assert_int_equal(parse(&opt, err, 3, river), 0);
    assert_int_equal(opt.rules.expansions, CARC_EXPANSION_RIVER);
    assert_int_equal(opt.expansions_given, 1);
    const char *keep[] = {"play", "--rules", "river-keep-start", "--expansions", "river"};
    assert_int_equal(parse(&opt, err, 5, keep), 0);
    assert_int_equal(opt.rules.flags, CARC_RULE_RIVER_KEEP_START);
    assert_int_equal(opt.rules.expansions, CARC_EXPANSION_RIVER);
    const char *base[] = {"play", "--expansions", "none"};
    assert_int_equal(parse(&opt, err, 3, base), 0);
    assert_int_equal(opt.rules.expansions, 0);
    const char *all[] = {"play", "--expansions", "river,inns-cathedrals,traders-builders"};
    assert_int_equal(parse(&opt, err, 3, all), 0);
    assert_int_equal(opt.rules.expansions, CARC_EXPANSION_RIVER | CARC_EXPANSION_INNS_CATHEDRALS |
                                               CARC_EXPANSION_TRADERS_BUILDERS);
}

static void test_bad_expansions(void **state)
{
    (void)state;
    play_options opt;
    char err[200];
    const char *alone[] = {"play", "--rules", "river-keep-start"};
    assert_int_equal(parse(&opt, err, 3, alone), -1);
    assert_non_null(strstr(err, "needs the river"));
    assert_non_null(strstr(err, "--expansions river"));
    const char *unknown[] = {"play", "--expansions", "atlantis"};
    assert_int_equal(parse(&opt, err, 3, unknown), -1);
    assert_non_null(strstr(err, "--expansions"));
    assert_non_null(strstr(err, "atlantis"));
    const char *twice[] = {"play", "--expansions", "river,river"};
    assert_int_equal(parse(&opt, err, 3, twice), -1);
    assert_non_null(strstr(err, "twice"));
    const char *loaded[] = {"play", "--load", "game.rec", "--expansions", "river"};
    assert_int_equal(parse(&opt, err, 5, loaded), -1);
    assert_non_null(strstr(err, "loaded game"));
    const char *missing[] = {"play", "--expansions"};
    assert_int_equal(parse(&opt, err, 2, missing), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_players_rules_seed),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_plus_joins_player_options),
        cmocka_unit_test(test_comma_continues_a_seat),
        cmocka_unit_test(test_player_new_takes_both_joiners),
        cmocka_unit_test(test_help_lists_every_player),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_expansions),
        cmocka_unit_test(test_bad_expansions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
