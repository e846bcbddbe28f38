/* test_eval_children.c: the full evaluation of a position's children
 * (ai_evaluate_full_children, ai_evaluate_full_child and, with the terms,
 * ai_evaluate_full_child_terms, src/ai/eval.h),
 * which keeps the walks of the features a move leaves untouched for the
 * next children, and the worths of those whose squares it leaves as they
 * were (in a hand game only for children that place the same tile),
 * gives what ai_evaluate_full gives, to the last bit: for
 * every legal move (figures and discards included) of positions through
 * whole games, in both layouts of the state (the base game; expansions and
 * seven players), with hands and on a bounded table; and a position two moves on, which is no
 * child, valued afresh. The searches rely on it: they must play the
 * same moves with it as without. They play those children unchecked
 * (ai_play_known): each gives the state carc_game_play gives (the same
 * digest, turn, scores, supplies and deal). */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "ai/eval.h" /* the entry points pass to the build of the game's layout */
#include "carcassonne_ai.h"

typedef struct config {
    int players;
    const char *expansions, *rules;
} config;

static carc_game *new_game(const config *c, uint64_t seed)
{
    carc_rules rules = {0};
    char err[160];
    assert_int_equal(carc_expansions_parse(c->expansions, &rules, err, sizeof err), CARC_OK);
    assert_int_equal(carc_rules_parse(c->rules, &rules, err, sizeof err), CARC_OK);
    carc_game *g = carc_game_new(c->players, &rules, seed);
    assert_non_null(g);
    return g;
}

static void assert_same_values(const double *a, const double *b, int players)
{
    assert_memory_equal(a, b, sizeof(double) * (size_t)players);
}

/* The values and terms of `child` valued as a child equal those of
 * ai_evaluate_full_terms, to the last bit. */
static void assert_same_terms(const carc_game *child, int players)
{
    double want[CARC_MAX_PLAYERS], got[CARC_MAX_PLAYERS];
    double want_terms[CARC_MAX_PLAYERS][AI_TERMS], got_terms[CARC_MAX_PLAYERS][AI_TERMS];
    ai_evaluate_full_terms(child, want, want_terms);
    ai_evaluate_full_child_terms(child, got, got_terms);
    assert_same_values(want, got, players);
    assert_memory_equal(want_terms, got_terms, sizeof want_terms[0] * (size_t)players);
}

/* `known`, `g` with move `m` played unchecked, is `played`, `g` with it
 * played by carc_game_play. */
static void assert_same_play(const carc_game *g, carc_move m, carc_game *known,
                             const carc_game *played)
{
    assert_int_equal(carc_game_copy(known, g), CARC_OK);
    ai_play_known(known, m);
    assert_int_equal(carc_game_digest(known), carc_game_digest(played));
    assert_int_equal(carc_game_over(known), carc_game_over(played));
    assert_int_equal(carc_game_current_player(known), carc_game_current_player(played));
    assert_int_equal(carc_game_drawn_tile(known), carc_game_drawn_tile(played));
    assert_int_equal(carc_game_move_count(known), carc_game_move_count(played));
    for (int p = 0; p < carc_game_players(g); p++) {
        assert_int_equal(carc_game_score(known, p), carc_game_score(played, p));
        assert_int_equal(carc_game_supply(known, p), carc_game_supply(played, p));
    }
    static int a[CARC_MAX_TILES], b[CARC_MAX_TILES];
    uint64_t ga = 0, gb = 0;
    int na = carc_game_deal(known, a, CARC_MAX_TILES, &ga);
    assert_int_equal(na, carc_game_deal(played, b, CARC_MAX_TILES, &gb));
    assert_memory_equal(a, b, sizeof a[0] * (size_t)(na < CARC_MAX_TILES ? na : CARC_MAX_TILES));
    assert_true(ga == gb);
}

/* Every legal move of `g` valued as a child, in the order of the legal
 * moves, against the plain evaluation. Returns the children checked. */
static int check_children(const carc_game *g, carc_game *child, carc_game *known)
{
    static carc_move moves[CARC_MAX_MOVES];
    int n = carc_legal_moves(g, moves, CARC_MAX_MOVES);
    int players = carc_game_players(g);
    ai_evaluate_full_children(g);
    for (int i = 0; i < n; i++) {
        assert_int_equal(carc_game_copy(child, g), CARC_OK);
        assert_int_equal(carc_game_play(child, moves[i], NULL, 0, NULL), CARC_OK);
        assert_same_play(g, moves[i], known, child);
        double want[CARC_MAX_PLAYERS], got[CARC_MAX_PLAYERS];
        ai_evaluate_full(child, want);
        ai_evaluate_full_child(child, got);
        assert_same_values(want, got, players);
        if (i % 2 == 0)
            assert_same_terms(child, players);
    }
    /* Neither the position itself nor a grandchild is a child: valued
     * afresh (a walk kept from the children may not hold two moves on). */
    double want[CARC_MAX_PLAYERS], got[CARC_MAX_PLAYERS];
    ai_evaluate_full(g, want);
    ai_evaluate_full_child(g, got);
    assert_same_values(want, got, players);
    for (int i = 0; i < n && i < 8; i++) {
        assert_int_equal(carc_game_copy(child, g), CARC_OK);
        assert_int_equal(carc_game_play(child, moves[i], NULL, 0, NULL), CARC_OK);
        carc_move next[CARC_MAX_MOVES];
        int m = carc_game_over(child) ? 0 : carc_legal_moves(child, next, CARC_MAX_MOVES);
        if (m == 0)
            continue;
        assert_int_equal(carc_game_play(child, next[(i * 7) % m], NULL, 0, NULL), CARC_OK);
        ai_evaluate_full(child, want);
        ai_evaluate_full_child(child, got);
        assert_same_values(want, got, players);
        assert_same_terms(child, players);
    }
    return n;
}

/* Whole games of random moves (followers half of the time), the children
 * of every third position checked. */
static int check_games(const config *c, int games, uint64_t seed)
{
    int checked = 0;
    for (int k = 0; k < games; k++) {
        carc_game *g = new_game(c, seed + (uint64_t)k);
        carc_game *child = carc_game_clone(g), *known = carc_game_clone(g);
        assert_non_null(child);
        assert_non_null(known);
        carc_rng rng = carc_rng_seed(seed + (uint64_t)k);
        for (int ply = 0; !carc_game_over(g); ply++) {
            if (ply % 3 == 0)
                checked += check_children(g, child, known);
            assert_int_equal(carc_game_play_random(g, &rng, 0.5, NULL), CARC_OK);
        }
        carc_game_free(known);
        carc_game_free(child);
        carc_game_free(g);
    }
    return checked;
}

static void test_base_game(void **state)
{
    (void)state;
    const config two = {2, "", ""}, four = {4, "", ""};
    assert_true(check_games(&two, 3, 11) > 3000);
    assert_true(check_games(&four, 2, 21) > 1000);
}

static void test_expansions(void **state)
{
    (void)state;
    const config all = {2, "river,inns-cathedrals,traders-builders", ""};
    const config seven = {7, "", ""}, river = {3, "river", ""};
    assert_true(check_games(&all, 2, 31) > 2000);
    assert_true(check_games(&seven, 1, 41) > 500);
    assert_true(check_games(&river, 1, 51) > 500);
}

static void test_house_rules(void **state)
{
    (void)state;
    const config hands = {2, "", "hand=3"}, table = {2, "", "table=9x9"};
    const config edge = {3, "inns-cathedrals", "table=7x9,table-edge-completes"};
    const config rules = {2, "", "farms-first-edition,small-city,no-incomplete-scoring"};
    assert_true(check_games(&hands, 2, 61) > 1000);
    assert_true(check_games(&table, 2, 71) > 1000);
    assert_true(check_games(&edge, 1, 81) > 300);
    assert_true(check_games(&rules, 1, 91) > 500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_game),
        cmocka_unit_test(test_expansions),
        cmocka_unit_test(test_house_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
