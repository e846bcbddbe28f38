/* test_glicko2.c: the Glicko-2 ratings (apps/server/glicko2.c): the
 * paper's example to its printed precision, a draw, an idle period, a game
 * of four players as pairwise results, a forfeit, fixed-rating computer
 * seats, the categories and the computer players' ratings. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "glicko2.h"

#define SCALE 173.7178

/* Whether |a - b| <= tolerance, printing both when not. */
static int near(double a, double b, double tolerance)
{
    if (fabs(a - b) <= tolerance)
        return 1;
    print_error("%.9f is not within %g of %.9f\n", a, tolerance, b);
    return 0;
}

/* Glickman, "Example of the Glicko-2 system": a player at 1500, RD 200,
 * volatility 0.06 beats 1400/30 and loses to 1550/100 and 1700/300 with
 * τ = 0.5. The paper prints μ' = -0.2069, φ' = 0.8722, σ' = 0.05999 (its
 * first five decimals: the value is 0.0599960), and r' = 1464.06, RD' =
 * 151.52 (r' from the rounded μ': the unrounded μ' gives 1464.05, within
 * the last printed digit). */
static void test_paper_example(void **state)
{
    (void)state;
    glicko2_rating p = {1500, 200, 0.06};
    const glicko2_result games[] = {{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}};
    assert_int_equal(glicko2_update(&p, games, 3, 0.5), 0);
    assert_true(near((p.rating - 1500) / SCALE, -0.2069, 0.00005));
    assert_true(near(p.rd / SCALE, 0.8722, 0.00005));
    assert_true(p.volatility >= 0.05999 && p.volatility < 0.06000);
    assert_true(near(p.rating, 1464.06, 0.01));
    assert_true(near(p.rd, 151.52, 0.005));
}

/* Step 6 alone, φ' = sqrt(φ² + σ²), is an idle period. */
static void test_idle_period(void **state)
{
    (void)state;
    glicko2_rating p = {1500, 200, 0.05999};
    glicko2_rating idle = glicko2_idle(p, 1);
    assert_true(near(idle.rd, sqrt(200.0 * 200.0 + pow(0.05999 * SCALE, 2)), 1e-9));
    assert_true(idle.rating == p.rating && idle.volatility == p.volatility);
    /* Each period adds σ² to φ²; no periods change nothing. */
    glicko2_rating three = glicko2_idle(p, 3);
    assert_true(near(three.rd, sqrt(200.0 * 200.0 + 3 * pow(0.05999 * SCALE, 2)), 1e-9));
    assert_true(glicko2_idle(p, 0).rd == 200.0);
    /* The RD stops at 350. */
    glicko2_rating old = {1800, 345, 0.06};
    assert_true(near(glicko2_idle(old, 1).rd, sqrt(345.0 * 345.0 + pow(0.06 * SCALE, 2)), 1e-9));
    assert_true(glicko2_idle(old, 31).rd < GLICKO2_MAX_RD &&
                glicko2_idle(old, 32).rd == GLICKO2_MAX_RD);
    assert_true(glicko2_idle(old, 1000).rd == GLICKO2_MAX_RD);
    assert_true(glicko2_idle(old, 1000).rating == 1800);
    glicko2_rating fresh = glicko2_new_player();
    assert_true(glicko2_idle(fresh, 5).rd == GLICKO2_MAX_RD);
}

static void test_new_player(void **state)
{
    (void)state;
    glicko2_rating p = glicko2_new_player();
    assert_true(p.rating == 1500 && p.rd == 350 && p.volatility == 0.06);
}

/* A draw between equals leaves the ratings where they were and shrinks
 * the RDs; a draw with a weaker player costs the stronger one points. */
static void test_draw(void **state)
{
    (void)state;
    glicko2_rating seats[2] = {glicko2_new_player(), glicko2_new_player()};
    const int scores[2] = {87, 87};
    assert_int_equal(glicko2_rate_game(2, scores, 0, seats, NULL, GLICKO2_TAU), 0);
    for (int i = 0; i < 2; i++) {
        assert_true(near(seats[i].rating, 1500, 1e-9));
        assert_true(seats[i].rd < 350);
    }
    assert_true(seats[0].rd == seats[1].rd && seats[0].volatility == seats[1].volatility);

    glicko2_rating strong = {1700, 80, 0.06}, weak = {1400, 80, 0.06};
    glicko2_result vs_weak = {1400, 80, 0.5}, vs_strong = {1700, 80, 0.5};
    assert_int_equal(glicko2_update(&strong, &vs_weak, 1, GLICKO2_TAU), 0);
    assert_int_equal(glicko2_update(&weak, &vs_strong, 1, GLICKO2_TAU), 0);
    assert_true(strong.rating < 1700 && weak.rating > 1400);
    assert_true(near(1700 - strong.rating, weak.rating - 1400, 1e-6)); /* equal RDs: symmetric */
}

/* A result far from the expected one (Δ² > φ² + v: the first bracket of
 * step 5) raises the volatility; the update stays finite. */
static void test_surprise_raises_volatility(void **state)
{
    (void)state;
    glicko2_rating p = {1500, 50, 0.06};
    glicko2_result wins[10];
    for (int i = 0; i < 10; i++) {
        glicko2_result w = {2300, 30, 1};
        wins[i] = w;
    }
    assert_int_equal(glicko2_update(&p, wins, 10, GLICKO2_TAU), 0);
    assert_true(isfinite(p.rating) && isfinite(p.rd) && isfinite(p.volatility));
    assert_true(p.volatility > 0.06);
    assert_true(p.rating > 1500 && p.rd > 0);
    /* A smaller τ holds the volatility back. */
    glicko2_rating q = {1500, 50, 0.06};
    assert_int_equal(glicko2_update(&q, wins, 10, 0.3), 0);
    assert_true(q.volatility > 0.06 && q.volatility < p.volatility);
}

/* Four players, scores 90, 120, 120, 70: seats 1 and 2 draw with each
 * other and beat the rest, seat 0 beats seat 3 only. */
static void test_four_players(void **state)
{
    (void)state;
    const int scores[4] = {90, 120, 120, 70};
    double against[GLICKO2_MAX_PLAYERS][GLICKO2_MAX_PLAYERS];
    assert_int_equal(glicko2_pairwise(4, scores, 0, against), 0);
    const double expected[4][4] = {
        {0.5, 0, 0, 1},
        {1, 0.5, 0.5, 1},
        {1, 0.5, 0.5, 1},
        {0, 0, 0, 0.5},
    };
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            assert_true(against[i][j] == expected[i][j]);
            if (i != j)
                assert_true(against[i][j] + against[j][i] == 1.0);
        }

    glicko2_rating before[4], seats[4];
    for (int i = 0; i < 4; i++)
        before[i] = seats[i] = glicko2_new_player();
    assert_int_equal(glicko2_rate_game(4, scores, 0, seats, NULL, GLICKO2_TAU), 0);
    assert_true(seats[1].rating > 1500 && seats[2].rating > 1500);
    assert_true(seats[0].rating < 1500 && seats[3].rating < seats[0].rating);
    assert_true(seats[1].rating == seats[2].rating); /* the same results */
    /* Seat 0's 1-2 mirrors seats 1 and 2's 2.5-0.5 only roughly, but from
     * equal ratings and RDs the gains and losses nearly cancel. */
    double sum = 0;
    for (int i = 0; i < 4; i++) {
        sum += seats[i].rating - before[i].rating;
        assert_true(seats[i].rd < 350);
    }
    assert_true(fabs(sum) < 1.0);

    /* Each seat's update is glicko2_update on its three results. */
    glicko2_result results[GLICKO2_MAX_PLAYERS - 1];
    assert_int_equal(glicko2_game_results(4, scores, 0, before, 3, results), 3);
    for (int j = 0; j < 3; j++)
        assert_true(results[j].score == 0.0 && results[j].rating == 1500);
    glicko2_rating last = before[3];
    assert_int_equal(glicko2_update(&last, results, 3, GLICKO2_TAU), 0);
    assert_true(last.rating == seats[3].rating && last.rd == seats[3].rd);
}

/* Seat 0 forfeited with the best score: it loses to everyone; the others
 * are compared by their scores as usual. */
static void test_forfeit_loses_to_all(void **state)
{
    (void)state;
    const int scores[3] = {150, 60, 80};
    double against[GLICKO2_MAX_PLAYERS][GLICKO2_MAX_PLAYERS];
    assert_int_equal(glicko2_pairwise(3, scores, 1u << 0, against), 0);
    assert_true(against[0][1] == 0 && against[0][2] == 0);
    assert_true(against[1][0] == 1 && against[2][0] == 1);
    assert_true(against[2][1] == 1 && against[1][2] == 0);

    glicko2_rating seats[3] = {{1600, 100, 0.06}, {1500, 100, 0.06}, {1500, 100, 0.06}};
    assert_int_equal(glicko2_rate_game(3, scores, 1u << 0, seats, NULL, GLICKO2_TAU), 0);
    assert_true(seats[0].rating < 1600);
    assert_true(seats[2].rating > seats[1].rating);

    /* Two players: a resign with the lead is still a loss. */
    const int duel[2] = {40, 10};
    glicko2_rating pair[2] = {glicko2_new_player(), glicko2_new_player()};
    assert_int_equal(glicko2_rate_game(2, duel, 1u << 0, pair, NULL, GLICKO2_TAU), 0);
    assert_true(pair[0].rating < 1500 && pair[1].rating > 1500);
}

/* Two of four seats left (one resigned, one lost on time): each loses to
 * both who stayed, whatever the scores; between the two who left, and
 * between the two who stayed, the scores decide. */
static void test_two_seats_left(void **state)
{
    (void)state;
    const int scores[4] = {90, 20, 70, 30};
    double against[GLICKO2_MAX_PLAYERS][GLICKO2_MAX_PLAYERS];
    assert_int_equal(glicko2_pairwise(4, scores, 1u << 0 | 1u << 2, against), 0);
    assert_true(against[0][1] == 0 && against[0][3] == 0 && against[2][1] == 0 &&
                against[2][3] == 0);
    assert_true(against[1][0] == 1 && against[3][2] == 1);
    assert_true(against[0][2] == 1 && against[2][0] == 0); /* both left: 90 beats 70 */
    assert_true(against[3][1] == 1 && against[1][3] == 0); /* both stayed: 30 beats 20 */
}

/* A computer seat with a fixed rating is an opponent only. */
static void test_fixed_seats_never_change(void **state)
{
    (void)state;
    double rd = 0;
    double level = glicko2_computer_rating("mcts:level=easy", &rd);
    assert_true(level > 0 && rd > 0);
    glicko2_rating computer = {level, rd, GLICKO2_START_VOLATILITY};
    glicko2_rating seats[3] = {glicko2_new_player(), computer, glicko2_new_player()};
    const int fixed[3] = {0, 1, 0};
    const int scores[3] = {100, 90, 80}; /* the computer loses to seat 0 */
    assert_int_equal(glicko2_rate_game(3, scores, 0, seats, fixed, GLICKO2_TAU), 0);
    assert_true(seats[1].rating == computer.rating && seats[1].rd == computer.rd &&
                seats[1].volatility == computer.volatility);
    assert_true(seats[0].rating > 1500 && seats[2].rating < 1500);

    /* The human's update is the one its results give, against the
     * computer's fixed rating. */
    glicko2_rating human = glicko2_new_player();
    const glicko2_result results[2] = {{level, rd, 1}, {1500, 350, 1}};
    assert_int_equal(glicko2_update(&human, results, 2, GLICKO2_TAU), 0);
    assert_true(human.rating == seats[0].rating && human.rd == seats[0].rd);

    /* Again and again: the computer's rating holds whatever it loses. */
    for (int game = 0; game < 5; game++)
        assert_int_equal(glicko2_rate_game(3, scores, 0, seats, fixed, GLICKO2_TAU), 0);
    assert_true(seats[1].rating == level && seats[1].rd == rd);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    glicko2_rating p = glicko2_new_player();
    const glicko2_result bad_score = {1500, 100, 2};
    const glicko2_result bad_rd = {1500, 0, 1};
    const glicko2_result good = {1500, 100, 1};
    assert_int_equal(glicko2_update(&p, &good, 0, GLICKO2_TAU), -1);
    assert_int_equal(glicko2_update(&p, &bad_score, 1, GLICKO2_TAU), -1);
    assert_int_equal(glicko2_update(&p, &bad_rd, 1, GLICKO2_TAU), -1);
    assert_int_equal(glicko2_update(&p, &good, 1, 0), -1);
    assert_true(p.rating == 1500 && p.rd == 350);

    const int scores[9] = {0};
    double against[GLICKO2_MAX_PLAYERS][GLICKO2_MAX_PLAYERS];
    assert_int_equal(glicko2_pairwise(1, scores, 0, against), -1);
    assert_int_equal(glicko2_pairwise(9, scores, 0, against), -1);
    assert_int_equal(glicko2_pairwise(3, scores, 1u << 3, against), -1); /* no seat 3 */
    glicko2_rating seats[2] = {glicko2_new_player(), {1500, 0, 0.06}};
    assert_int_equal(glicko2_rate_game(2, scores, 0, seats, NULL, GLICKO2_TAU), -1);
    assert_true(seats[0].rd == 350); /* unchanged */
}

static void test_categories(void **state)
{
    (void)state;
    carc_rules standard = carc_rules_standard();
    assert_int_equal(glicko2_category_of(2, &standard), GLICKO2_DUEL);
    assert_int_equal(glicko2_category_of(3, &standard), GLICKO2_MULTI);
    assert_int_equal(glicko2_category_of(8, &standard), GLICKO2_MULTI);
    assert_int_equal(glicko2_category_of(1, &standard), -1);
    assert_int_equal(glicko2_category_of(9, &standard), -1);
    assert_int_equal(glicko2_category_of(2, NULL), -1);

    carc_rules river = standard;
    river.expansions = CARC_EXPANSION_RIVER;
    assert_int_equal(glicko2_category_of(2, &river), GLICKO2_DUEL_VARIANTS);
    assert_int_equal(glicko2_category_of(5, &river), GLICKO2_MULTI_VARIANTS);
    const char *const variants[] = {"small-city", "hand=3", "table=9x9", "reshuffle",
                                    "farms-first-edition"};
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        carc_rules rules = standard;
        assert_int_equal(carc_rules_parse(variants[i], &rules, NULL, 0), CARC_OK);
        assert_int_equal(glicko2_category_of(2, &rules), GLICKO2_DUEL_VARIANTS);
        assert_int_equal(glicko2_category_of(4, &rules), GLICKO2_MULTI_VARIANTS);
    }

    const char *const names[] = {"duel", "duel-variants", "multi", "multi-variants"};
    for (int c = 0; c < GLICKO2_CATEGORIES; c++) {
        assert_string_equal(glicko2_category_name((glicko2_category)c), names[c]);
        assert_int_equal(glicko2_category_parse(names[c]), c);
    }
    assert_null(glicko2_category_name(GLICKO2_CATEGORIES));
    assert_int_equal(glicko2_category_parse("blitz"), -1);
    assert_int_equal(glicko2_category_parse(NULL), -1);
}

static void test_computer_ratings(void **state)
{
    (void)state;
    const char *const ladder[] = {"random", "greedy", "mcts:level=easy", "mcts:level=normal"};
    double previous = 0;
    for (size_t i = 0; i < sizeof ladder / sizeof ladder[0]; i++) {
        double rd = -1, r = glicko2_computer_rating(ladder[i], &rd);
        assert_true(r > previous); /* the calibration's order up to normal */
        assert_true(rd > 0 && rd <= GLICKO2_MAX_RD);
        previous = r;
    }
    assert_true(glicko2_computer_rating("greedy", NULL) == 1200); /* the anchor */
    /* hard lost 9 of its 10 games to normal: measured, not ordered. */
    double hard_rd = 0;
    assert_true(glicko2_computer_rating("mcts:level=hard", &hard_rd) > 0);
    assert_true(hard_rd > 0 && hard_rd <= GLICKO2_MAX_RD);
    assert_true(glicko2_computer_rating("mcts", NULL) ==
                glicko2_computer_rating("mcts:level=normal", NULL));
    assert_true(glicko2_computer_rating("mcts:level=hard,threads=1", NULL) ==
                glicko2_computer_rating("mcts:level=hard", NULL));
    assert_true(glicko2_computer_rating("mcts:threads=1+level=easy", NULL) ==
                glicko2_computer_rating("mcts:level=easy", NULL));
    const char *const none[] = {"human",
                                "mcts:ms=500",
                                "mcts:level=strongest",
                                "greedy:eval=full",
                                "mcts:level=hard,own=0",
                                "star25",
                                "",
                                "mcts:level=",
                                "random:level=easy",
                                "mcts:threads=x"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        assert_true(glicko2_computer_rating(none[i], NULL) == -1);
    assert_true(glicko2_computer_rating(NULL, NULL) == -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paper_example),
        cmocka_unit_test(test_idle_period),
        cmocka_unit_test(test_new_player),
        cmocka_unit_test(test_draw),
        cmocka_unit_test(test_surprise_raises_volatility),
        cmocka_unit_test(test_four_players),
        cmocka_unit_test(test_forfeit_loses_to_all),
        cmocka_unit_test(test_two_seats_left),
        cmocka_unit_test(test_fixed_seats_never_change),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_categories),
        cmocka_unit_test(test_computer_ratings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
