/* test_eval_full.c: the full evaluation (src/ai/eval_full.c): exact scores
 * once the game is over, a city open into a dead square or into the
 * table's edge valued at its end value, determinism, values that depend on the position alone (not
 * on the hidden order of the pile, nor on the tile drawn next), terms that add up to the
 * evaluation, and the board's record of each tile's open sides, which the evaluation's walks read
 * instead of the grid. */
/* game.h first: it names the base layout's build of the engine. */
#include "state.h"
#include "board.h"
#include "feature.h"

#include "support.h"

#include "ai/eval.h"
#include "carcassonne_ai.h"

#include <math.h>

/* This test reads the compact layout's state and calls its build of the
 * evaluation (state.h renames ai_evaluate_full to its _base build): the
 * base game of up to six players; seven and eight take the wide layout. */
enum { COMPACT_PLAYERS = 6 };

/* Over, for 2 to 6 players: the evaluation is the final score. */
static void test_finished_games(void **state)
{
    (void)state;
    for (int n = CARC_MIN_PLAYERS; n <= COMPACT_PLAYERS; n++) {
        carc_game *g = sup_random_game(n, 70 + (uint64_t)n, -1, 0.5);
        double v[CARC_MAX_PLAYERS];
        ai_evaluate_full(g, v);
        for (int p = 0; p < n; p++)
            assert_true(v[p] == (double)carc_game_score(g, p));
        carc_game_free(g);
    }
}

/* The start tile's city (north of 0,0) and three more cities close round
 * the square (0,-1): only C fits it, and C stands at (2,-1). Blue's
 * follower on the one-tile city of (-1,-1), open into (0,-1) alone, can
 * never be completed: the city is worth its end value, 1. */
static carc_game *dead_square_position(void)
{
    carc_game *g = sup_game(2, 5);
    static const char *const moves[] = {
        "U 1 0 1",  "D 2 0 0",  "C 2 -1 0", "H 1 -1 1",
        "B 1 -2 0", "E 0 -2 2", "U -1 0 1", "E -1 -1 1 E",
    };
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        sup_play_ok(g, moves[i], NULL, 0);
    return g;
}

/* What a player's followers in supply are worth in the model: the first
 * three in full, the others half (eval.c's follower_worth). */
static double supply_units(int supply)
{
    return supply <= 3 ? supply : 3 + 0.5 * (supply - 3);
}

/* Whether the full evaluation values the one open feature of `owner` at
 * its end value `end` (1 for a one-tile city), less the early doubt over
 * an open feature; `other` has only followers in supply, which give one
 * follower's worth. Returns the evaluation of `owner` minus `other`. */
static double valued_at_end(const carc_game *g, int owner, int other, double end)
{
    double v[CARC_MAX_PLAYERS];
    ai_evaluate_full(g, v);
    double follower = v[other] / supply_units(carc_game_supply(g, other));
    assert_true(follower > 0.0);
    double city = v[owner] - follower * supply_units(carc_game_supply(g, owner));
    double left = carc_game_tiles_left(g, NULL) + 1;
    assert_true(fabs(city - (end - 0.45 * left / BASE_PILE)) < 1e-9);
    return v[owner] - v[other];
}

static void test_dead_square_city(void **state)
{
    (void)state;
    carc_game *g = dead_square_position();
    int counts[CARC_MAX_KINDS] = {0};
    carc_game_tiles_left(g, counts);
    assert_int_equal(counts[carc_tile_parse("C")], 0);
    assert_int_equal(carc_game_score(g, 0), 0);
    assert_int_equal(carc_game_score(g, 1), 0);
    assert_int_equal(carc_game_supply(g, 1), CARC_FOLLOWERS - 1);
    /* Its 1 point; Red has only followers in supply. */
    double full = valued_at_end(g, 1, 0, 1.0);
    /* The basic evaluation still hopes for the city's completion. */
    double basic[CARC_MAX_PLAYERS];
    carc_evaluate(g, basic);
    assert_true(basic[1] - basic[0] > full + 0.5);
    carc_game_free(g);
}

/* A bounded table (table=3x3): H at (0,-1) closes the start tile's city
 * with its south one; Red's follower on its north city, open into the
 * table's edge, can never be completed: the city is worth its end value,
 * 1, as in a dead square (before, the edge's side, taken off the board's
 * open sides, made it look complete: worth 2). With table-edge-completes
 * the edge closes it when H is placed: 2 points scored. */
static void test_city_open_into_table_edge(void **state)
{
    (void)state;
    carc_rules rules = {.table_w = 3, .table_h = 3};
    carc_game *g = carc_game_new(2, &rules, 5);
    assert_non_null(g);
    sup_play_ok(g, "H 0 -1 0 N", NULL, 0);
    assert_int_equal(carc_game_score(g, 0), 0);
    assert_int_equal(carc_game_supply(g, 0), CARC_FOLLOWERS - 1);
    valued_at_end(g, 0, 1, 1.0);
    carc_game_free(g);

    rules.flags = CARC_RULE_TABLE_EDGE_COMPLETES;
    g = carc_game_new(2, &rules, 5);
    assert_non_null(g);
    sup_play_ok(g, "H 0 -1 0 N", NULL, 0);
    assert_int_equal(carc_game_score(g, 0), 2);
    assert_int_equal(carc_game_supply(g, 0), CARC_FOLLOWERS);
    carc_game_free(g);
}

/* The same position gives the same values, on a copy too, and an
 * evaluation leaves the game as it was. */
static void test_deterministic(void **state)
{
    (void)state;
    carc_game *g = sup_random_game(3, 9, 40, 0.6);
    snapshot before, after;
    sup_snapshot(g, &before);
    double a[CARC_MAX_PLAYERS], b[CARC_MAX_PLAYERS];
    ai_evaluate_full(g, a);
    carc_game *copy = carc_game_clone(g);
    assert_non_null(copy);
    ai_evaluate_full(copy, b);
    sup_snapshot(g, &after);
    sup_assert_same(&before, &after);
    for (int p = 0; p < 3; p++) {
        assert_true(a[p] == b[p]);
        assert_true(isfinite(a[p]));
    }
    carc_game_free(copy);
    carc_game_free(g);
}

/* The order of the hidden pile is no input: a reshuffle keeps the values. */
static void test_hidden_order(void **state)
{
    (void)state;
    carc_game *g = sup_random_game(2, 13, 25, 0.6);
    double a[CARC_MAX_PLAYERS], b[CARC_MAX_PLAYERS];
    ai_evaluate_full(g, a);
    carc_game_shuffle_hidden(g, 99);
    ai_evaluate_full(g, b);
    assert_true(a[0] == b[0] && a[1] == b[1]);
    carc_game_free(g);
}

/* Nor is the tile drawn next: the same move played on two reshuffled
 * copies leaves them with different drawn tiles and the same values, for
 * both evaluations. The search keeps values of positions on that ground
 * (a chance node's value serves every tile drawn below it). */
static void test_drawn_tile(void **state)
{
    (void)state;
    int differing = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        carc_game *g = sup_random_game(2 + (int)(seed % 3), seed, 10 + (int)seed, 0.6);
        carc_game *other = carc_game_clone(g);
        assert_non_null(other);
        carc_game_shuffle_hidden(g, 2 * seed);
        carc_game_shuffle_hidden(other, 2 * seed + 1);
        carc_placement p[CARC_MAX_PLACEMENTS];
        if (carc_legal_placements(g, p, CARC_MAX_PLACEMENTS) > 0) {
            carc_move m = {CARC_MOVE_PLACE, p[0], CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
            assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
            assert_int_equal(carc_game_play(other, m, NULL, 0, NULL), CARC_OK);
            differing += carc_game_drawn_tile(g) != carc_game_drawn_tile(other);
            double a[CARC_MAX_PLAYERS], b[CARC_MAX_PLAYERS];
            ai_evaluate_full(g, a);
            ai_evaluate_full(other, b);
            for (int q = 0; q < carc_game_players(g); q++)
                assert_true(a[q] == b[q]);
            carc_evaluate(g, a);
            carc_evaluate(other, b);
            for (int q = 0; q < carc_game_players(g); q++)
                assert_true(a[q] == b[q]);
        }
        carc_game_free(other);
        carc_game_free(g);
    }
    assert_true(differing >= 5); /* the test saw what it is about */
}

/* The terms add up to the evaluation with ai_terms' weights, for 2 to 6
 * players through whole games; the value it returns is the evaluation's
 * own; each feature's early term is its full term scaled by the tiles to
 * come. */
static void test_terms(void **state)
{
    (void)state;
    int checked = 0, with_features = 0;
    for (int n = CARC_MIN_PLAYERS; n <= COMPACT_PLAYERS; n++) {
        carc_game *g = sup_game(n, 90 + (uint64_t)n);
        carc_rng rng = carc_rng_seed(90 + (uint64_t)n);
        for (;;) {
            double v[CARC_MAX_PLAYERS], w[CARC_MAX_PLAYERS];
            double terms[CARC_MAX_PLAYERS][AI_TERMS];
            ai_evaluate_full(g, v);
            ai_evaluate_full_terms(g, w, terms);
            double share = carc_game_over(g) ? 0.0 : (carc_game_tiles_left(g, NULL) + 1) / 71.0;
            for (int p = 0; p < n; p++) {
                assert_true(w[p] == v[p]);
                double sum = 0.0;
                for (int k = 0; k < AI_TERMS; k++)
                    sum += ai_terms[k].weight * terms[p][k];
                assert_true(fabs(sum - v[p]) < 1e-9);
                assert_true(terms[p][AI_TERM_SCORE] == (double)carc_game_score(g, p));
                for (int k = AI_TERM_CITY; k <= AI_TERM_FARM; k++) {
                    double early = terms[p][k + AI_TERM_CITY_EARLY - AI_TERM_CITY];
                    assert_true(fabs(early - share * terms[p][k]) < 1e-9);
                    with_features += terms[p][k] != 0.0;
                }
            }
            checked++;
            if (carc_game_over(g))
                break;
            carc_game_play_random(g, &rng, 0.5, NULL);
        }
        carc_game_free(g);
    }
    assert_true(checked > 5 * 70);
    assert_true(with_features > 100);
    for (int k = 0; k < AI_TERMS; k++) {
        assert_non_null(ai_terms[k].name);
        assert_true(ai_terms[k].name[0] != '\0');
    }
}

/* Through random games for 2 to 6 players: bit d of a board tile's `open`
 * is set exactly when no tile stands beside it in direction d, and then a
 * frontier square stands there that knows the tile as its neighbour. */
static void test_open_sides(void **state)
{
    (void)state;
    int open_seen = 0, closed_seen = 0;
    for (int n = CARC_MIN_PLAYERS; n <= COMPACT_PLAYERS; n++) {
        carc_game *g = sup_game(n, 110 + (uint64_t)n);
        carc_rng rng = carc_rng_seed(110 + (uint64_t)n);
        while (!carc_game_over(g)) {
            carc_game_play_random(g, &rng, 0.5, NULL);
            for (int t = 0; t < g->ntiles; t++) {
                const board_tile *bt = &g->tiles[t];
                for (int d = 0; d < 4; d++) {
                    int x = bt->x + carc_dx[d], y = bt->y + carc_dy[d];
                    int open = bt->open >> d & 1;
                    assert_int_equal(open, board_tile_at(g, x, y) < 0);
                    if (!open) {
                        closed_seen++;
                        continue;
                    }
                    open_seen++;
                    int f = board_frontier_at(g, x, y);
                    assert_true(f >= 0);
                    assert_int_equal(g->frontier[f].neighbour[(d + 2) & 3], t);
                }
            }
        }
        carc_game_free(g);
    }
    assert_true(open_seen > 1000 && closed_seen > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_finished_games), cmocka_unit_test(test_dead_square_city),
        cmocka_unit_test(test_deterministic),  cmocka_unit_test(test_hidden_order),
        cmocka_unit_test(test_drawn_tile),     cmocka_unit_test(test_terms),
        cmocka_unit_test(test_open_sides),     cmocka_unit_test(test_city_open_into_table_edge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
