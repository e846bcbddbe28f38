/* test_arena_stats.c: the arena's statistics on small sets of results whose
 * figures were computed by hand (see the comments). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arena_stats.h"

#define NEAR(a, b) assert_float_equal((a), (b), 1e-6)

/* Three deck pairs:
 *   pair 0: A 80-70 (win), A 60-75 (loss)  -> 0.5,  margins 10, -15
 *   pair 1: A 90-90 (draw), A 100-50 (win) -> 0.75, margins 0, 50
 *   pair 2: A 70-71 (loss), A 65-80 (loss) -> 0,    margins -1, -15
 * Score rate (2 + 0.5) / 6 = 0.416667. Pair means 0.5, 0.75, 0: sample sd
 * sqrt((0.083333^2 + 0.333333^2 + 0.416667^2) / 2) = 0.381881, so the
 * interval is 0.416667 +- 1.959964 * 0.381881 / sqrt(3) = +-0.432131:
 * [0 (clamped from -0.015465), 0.848798]. Margin 29 / 6 = 4.833333; pair
 * margins -2.5, 25, -8, sample sd 17.680, standard error 10.207568.
 * Elo: -400 log10(1 / 0.416667 - 1) = -400 log10(1.4) = -58.451214;
 * low end 0 clamped to 0.001: -1199.826195; high end 299.698869. */
static void test_three_pairs(void **state)
{
    (void)state;
    const arena_game games[6] = {
        {80, 70, ARENA_NO_FORFEIT, 1.0, 2.0, 10, 10}, {60, 75, ARENA_NO_FORFEIT, 1.0, 2.0, 10, 10},
        {90, 90, ARENA_NO_FORFEIT, 1.0, 2.0, 10, 10}, {100, 50, ARENA_NO_FORFEIT, 1.0, 2.0, 10, 10},
        {70, 71, ARENA_NO_FORFEIT, 1.0, 2.0, 10, 10}, {65, 80, ARENA_NO_FORFEIT, 2.0, 2.0, 10, 30},
    };
    arena_stats s;
    arena_stats_compute(games, 6, &s);
    assert_int_equal(s.games, 6);
    assert_int_equal(s.pairs, 3);
    assert_int_equal(s.a_wins, 2);
    assert_int_equal(s.b_wins, 3);
    assert_int_equal(s.draws, 1);
    NEAR(s.score_rate, 2.5 / 6);
    NEAR(s.rate_low, 0.0);
    NEAR(s.rate_high, 0.848798107);
    NEAR(s.mean_margin, 29.0 / 6);
    NEAR(s.margin_se, 10.207567999);
    NEAR(s.elo, -58.451214271);
    NEAR(s.elo_low, -1199.826195290);
    NEAR(s.elo_high, 299.698869303);
    assert_true(s.elo_clamped);
    NEAR(s.a_mean_score, 465.0 / 6);
    NEAR(s.b_mean_score, 436.0 / 6);
    /* A: 7 seconds over 60 moves; B: 12 seconds over 80 moves. */
    NEAR(s.a_seconds_per_move, 7.0 / 60);
    NEAR(s.b_seconds_per_move, 12.0 / 80);
}

/* One pair, both won by A: Wilson over one pair with p = 1:
 * centre (1 + z^2/2) / (1 + z^2) = 0.603275, half 0.396725:
 * [0.206549, 1]; Elo of the rate clamped to 0.999: 1199.826195. */
static void test_one_pair_wilson(void **state)
{
    (void)state;
    const arena_game games[2] = {{30, 20, ARENA_NO_FORFEIT, 0, 0, 0, 0},
                                 {25, 24, ARENA_NO_FORFEIT, 0, 0, 0, 0}};
    arena_stats s;
    arena_stats_compute(games, 2, &s);
    assert_int_equal(s.a_wins, 2);
    NEAR(s.score_rate, 1.0);
    NEAR(s.rate_low, 0.206549314);
    NEAR(s.rate_high, 1.0);
    NEAR(s.elo, 1199.826195290);
    NEAR(s.elo_low, -233.798472816);
    NEAR(s.margin_se, 0.0);
    NEAR(s.mean_margin, 5.5);
    NEAR(s.a_seconds_per_move, 0.0);
}

/* Two pairs each split 1-1: every pair mean is 0.5, sd 0, so Wilson over
 * two pairs with p = 0.5: [0.094531, 0.905469], Elo +-392.519316. */
static void test_split_pairs_wilson(void **state)
{
    (void)state;
    const arena_game games[4] = {{30, 20, ARENA_NO_FORFEIT, 0, 0, 0, 0},
                                 {20, 30, ARENA_NO_FORFEIT, 0, 0, 0, 0},
                                 {40, 20, ARENA_NO_FORFEIT, 0, 0, 0, 0},
                                 {20, 21, ARENA_NO_FORFEIT, 0, 0, 0, 0}};
    arena_stats s;
    arena_stats_compute(games, 4, &s);
    NEAR(s.score_rate, 0.5);
    NEAR(s.rate_low, 0.094531206);
    NEAR(s.rate_high, 0.905468794);
    NEAR(s.elo, 0.0);
    NEAR(s.elo_low, -392.519316098);
    NEAR(s.elo_high, 392.519316098);
    assert_false(s.elo_clamped);
    /* Pair margins 0 and 9.5: mean 4.75, sd 6.717514, se 4.75. */
    NEAR(s.mean_margin, 4.75);
    NEAR(s.margin_se, 4.75);
}

/* Forfeits decide the game whatever the scores; an odd last game is a pair
 * of its own: pairs (A forfeits at 50-10: 0) and (B forfeits at 5-9: 1),
 * and (draw: 0.5). Rate 1.5 / 3 = 0.5. */
static void test_forfeits_and_odd_game(void **state)
{
    (void)state;
    const arena_game games[3] = {{50, 10, ARENA_A_FORFEITS, 0, 0, 0, 0},
                                 {5, 9, ARENA_B_FORFEITS, 0, 0, 0, 0},
                                 {7, 7, ARENA_NO_FORFEIT, 0, 0, 0, 0}};
    arena_stats s;
    arena_stats_compute(games, 3, &s);
    assert_int_equal(s.pairs, 2);
    assert_int_equal(s.a_wins, 1);
    assert_int_equal(s.b_wins, 1);
    assert_int_equal(s.draws, 1);
    NEAR(s.score_rate, 0.5);
    NEAR(s.mean_margin, 36.0 / 3);
    /* Both pair means are 0.5: Wilson over 2 pairs again. */
    NEAR(s.rate_low, 0.094531206);
}

/* B wins every game of three pairs: rate 0, and the Wilson interval starts
 * at exactly 0 (its centre - half is 0 only up to rounding). The same
 * with A winning every game: it ends at exactly 1. */
static void test_wilson_holds_the_rate(void **state)
{
    (void)state;
    arena_game games[6];
    for (int i = 0; i < 6; i++)
        games[i] = (arena_game){10, 90, ARENA_NO_FORFEIT, 0, 0, 0, 0};
    arena_stats s;
    arena_stats_compute(games, 6, &s);
    assert_true(s.rate_wilson);
    assert_true(s.rate_low == 0.0 && s.score_rate == 0.0 && s.rate_high > 0.0);
    for (int i = 0; i < 6; i++)
        games[i] = (arena_game){90, 10, ARENA_NO_FORFEIT, 0, 0, 0, 0};
    arena_stats_compute(games, 6, &s);
    assert_true(s.rate_high == 1.0 && s.score_rate == 1.0 && s.rate_low < 1.0);
}

static void test_elo(void **state)
{
    (void)state;
    int clamped = 0;
    NEAR(arena_elo(0.5, &clamped), 0.0);
    NEAR(arena_elo(0.75, &clamped), 190.848501888);
    NEAR(arena_elo(0.25, &clamped), -190.848501888);
    assert_false(clamped);
    NEAR(arena_elo(0.0, &clamped), -1199.826195290);
    assert_true(clamped);
    NEAR(arena_elo(1.0, NULL), 1199.826195290);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_pairs),           cmocka_unit_test(test_one_pair_wilson),
        cmocka_unit_test(test_split_pairs_wilson),    cmocka_unit_test(test_forfeits_and_odd_game),
        cmocka_unit_test(test_wilson_holds_the_rate), cmocka_unit_test(test_elo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
