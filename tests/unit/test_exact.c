/* test_exact.c: the exact endgame solver (carc_exact_rank) against a plain
 * expectimax written here (no pruning, no table, every move and every draw
 * searched) on positions of seeded games with 2 and 3 tiles left, 2, 3 and
 * 4 players: the same margin for every move to 1e-9. A brute force of 3
 * tiles left in the base game takes minutes (tens of millions of final
 * positions), so the 3-tile positions are played on a bounded table
 * (table=11x9), where few squares are left and tiles that fit nowhere are
 * discarded: the discard rule is searched too. The solver's shortcuts at
 * the last tile (a placement played once for all its figures; a placement
 * on a cold square, which changes no final score, not played) fire in
 * every base-game position; seeds 4 and 13 hold a last tile that would
 * join a farm with farmers to a farm without any beside a completed city,
 * which a cold square must exclude. The house rules and expansions where
 * the shortcuts are off are searched too. The search's (mcts) exhaustive
 * endgame, which takes the same shortcuts at the last tile, is checked
 * against the same brute force wherever it ranks the moves (two tiles
 * left, few enough moves): each move's margin and chance to win; so is a
 * player's solve of the best move alone, on one thread and on three. Then
 * a position where one move is clearly best, the budgets, and the input it
 * must refuse with a reason (a finished game, too many tiles left, hidden
 * hands). */
#include "support.h"

#include "carcassonne_ai.h"
#include "ai/exact.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 6 };

static carc_move_eval ranked[CARC_MAX_MOVES];

/* --- The brute force ------------------------------------------------------------------ */

/* Ply d: a position with its tile drawn, and the position after a move. */
static carc_game *at[MAX_DEPTH], *after[MAX_DEPTH];
static carc_move moves[MAX_DEPTH][CARC_MAX_MOVES];

/* What the brute force finds of a position: every player's final margin
 * and its share of the win (ties shared), averaged over the draws. */
typedef struct value {
    double margin[CARC_MAX_PLAYERS], win[CARC_MAX_PLAYERS];
} value;

static void brute_after(int d, value *out);

/* Every player's final margin under the mover of at[d] choosing its
 * highest margin, the first in carc_legal_moves() order among equals. */
static void brute_decide(int d, value *out)
{
    assert_true(d < MAX_DEPTH);
    int mover = carc_game_current_player(at[d]);
    int n = carc_legal_moves(at[d], moves[d], CARC_MAX_MOVES);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        value v;
        carc_game_copy(after[d], at[d]);
        assert_int_equal(carc_game_play(after[d], moves[d][i], NULL, 0, NULL), CARC_OK);
        brute_after(d, &v);
        if (i == 0 || v.margin[mover] > out->margin[mover])
            *out = v;
    }
}

/* The final margins of after[d] once over, else the average over the next
 * draw (each tile of the draw pool equally likely). */
static void brute_after(int d, value *out)
{
    int players = carc_game_players(after[d]);
    memset(out, 0, sizeof *out);
    if (carc_game_over(after[d])) {
        unsigned leaders = carc_game_leaders(after[d]);
        for (int q = 0; q < players; q++) {
            int best = -1000000;
            for (int o = 0; o < players; o++)
                if (o != q && carc_game_score(after[d], o) > best)
                    best = carc_game_score(after[d], o);
            out->margin[q] = carc_game_score(after[d], q) - best;
            out->win[q] = (leaders >> q) & 1u ? 1.0 / __builtin_popcount(leaders) : 0.0;
        }
        return;
    }
    int counts[CARC_MAX_KINDS];
    int total = carc_game_draw_pool(after[d], counts);
    assert_true(total > 0);
    for (int k = 0; k < carc_tile_kinds(); k++) {
        if (counts[k] == 0)
            continue;
        value v;
        carc_game_copy(at[d + 1], after[d]);
        assert_int_equal(carc_game_choose_tile(at[d + 1], k), CARC_OK);
        brute_decide(d + 1, &v);
        for (int q = 0; q < players; q++) {
            out->margin[q] += (double)counts[k] / total * v.margin[q];
            out->win[q] += (double)counts[k] / total * v.win[q];
        }
    }
}

/* A seeded game under `rules` (record names, and expansions after a '/')
 * played by greedy players until `left` tiles are left in the pile (the
 * drawn tile not counted). */
static carc_game *endgame(int players, const char *rules, uint64_t seed, int left)
{
    carc_rules r = carc_rules_standard();
    char words[128];
    snprintf(words, sizeof words, "%s", rules);
    char *expansions = strchr(words, '/');
    if (expansions) {
        *expansions++ = '\0';
        assert_int_equal(carc_expansions_parse(expansions, &r, NULL, 0), CARC_OK);
    }
    assert_int_equal(carc_rules_parse(words, &r, NULL, 0), CARC_OK);
    carc_game *g = carc_game_new(players, &r, seed);
    assert_non_null(g);
    carc_player *greedy = carc_player_new("greedy", seed, NULL, 0);
    assert_non_null(greedy);
    while (carc_game_tiles_left(g, NULL) > left) {
        carc_move m;
        assert_int_equal(carc_player_choose(greedy, g, &m, NULL), CARC_OK);
        assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
    }
    carc_player_free(greedy);
    assert_false(carc_game_over(g));
    return g;
}

/* The search's ranking of the moves of `g` (mcts), when it comes from its
 * exhaustive endgame (no iterations), against the brute force's values of
 * the solver's ranking `brute`: the same margin and the same chance to
 * win for every move. Returns whether it was checked. */
static int check_search(const carc_game *g, int n, const value *brute)
{
    static carc_move_eval searched[CARC_MAX_MOVES];
    carc_player *p = carc_player_new("mcts:iters=10,threads=1", 1, NULL, 0);
    assert_non_null(p);
    carc_search_info info;
    int ns = carc_player_rank(p, g, searched, CARC_MAX_MOVES, &info);
    carc_player_free(p);
    if (info.iterations != 0)
        return 0;
    assert_int_equal(ns, n);
    int mover = carc_game_current_player(g);
    for (int i = 0; i < ns; i++) {
        int j = 0;
        while (j < n && !carc_move_equal(ranked[j].move, searched[i].move))
            j++;
        assert_true(j < n);
        if (fabs(brute[j].margin[mover] - searched[i].margin) > 1e-9 ||
            fabs(brute[j].win[mover] - searched[i].win) > 1e-9)
            fail_msg("move %d of %d: search %.12f (win %.12f), brute force %.12f (win %.12f)", i, n,
                     searched[i].margin, searched[i].win, brute[j].margin[mover],
                     brute[j].win[mover]);
    }
    return 1;
}

/* The solve of `g` on three threads (carc_exact_rank_threads) against its
 * solve on one, in `ranked` (n moves): the same moves with the same
 * margins, best first. */
static void check_threads(const carc_game *g, int n)
{
    static carc_move_eval threaded[CARC_MAX_MOVES];
    carc_exact_info info;
    assert_int_equal(carc_exact_rank_threads(g, 0, 0, 3, threaded, CARC_MAX_MOVES, &info), n);
    assert_true(info.exact);
    for (int i = 0; i < n; i++) {
        if (i > 0)
            assert_true(threaded[i].margin <= threaded[i - 1].margin);
        int j = 0;
        while (j < n && !carc_move_equal(threaded[j].move, ranked[i].move))
            j++;
        assert_true(j < n);
        if (fabs(threaded[j].margin - ranked[i].margin) > 1e-9)
            fail_msg("move %d: %.12f on three threads, %.12f on one", i, threaded[j].margin,
                     ranked[i].margin);
    }
}

/* The best move alone (AI_EXACT_BEST_MOVE, a player's choice) of `g` on
 * one thread and on three, against every move's exact margin in `ranked`
 * (n moves, best first): both put first the same move, of the best
 * margin, exact; every other move's margin is at least its own (an upper
 * bound) and at most the best. On three threads the others are searched
 * above a best margin that the threads share, whatever their timing. */
static void check_best_move(const carc_game *g, int n)
{
    static carc_move_eval best[2][CARC_MAX_MOVES];
    for (int k = 0; k < 2; k++) {
        ai_exact_budget budget = {0, 0.0, NULL, k ? 3 : 1};
        carc_exact_info info;
        assert_int_equal(
            ai_exact_rank(g, &budget, AI_EXACT_BEST_MOVE, best[k], CARC_MAX_MOVES, &info), n);
        assert_true(info.exact);
        if (fabs(best[k][0].margin - ranked[0].margin) > 1e-9)
            fail_msg("best move on %d thread(s): %.12f, exact %.12f", k ? 3 : 1, best[k][0].margin,
                     ranked[0].margin);
        for (int i = 0; i < n; i++) {
            int j = 0;
            while (j < n && !carc_move_equal(ranked[j].move, best[k][i].move))
                j++;
            assert_true(j < n);
            assert_true(best[k][i].margin <= best[k][0].margin + 1e-9);
            if (best[k][i].margin < ranked[j].margin - 1e-9)
                fail_msg("move %d on %d thread(s): %.12f below its exact %.12f", i, k ? 3 : 1,
                         best[k][i].margin, ranked[j].margin);
        }
    }
    assert_true(carc_move_equal(best[0][0].move, best[1][0].move));
}

/* The solver's margin of every move of `g` against the brute force's (and
 * the search's exhaustive endgame, check_search), and on three threads
 * against one; returns whether the search's was checked. */
static int check_against_brute_force(const carc_game *g)
{
    static value brute[CARC_MAX_MOVES];
    carc_exact_info info;
    int n = carc_exact_rank(g, 0, 0, ranked, CARC_MAX_MOVES, &info);
    assert_true(info.exact);
    assert_string_equal(info.reason, "");
    assert_int_equal(n, carc_legal_moves(g, NULL, 0));
    assert_int_equal(info.tiles_left, carc_game_tiles_left(g, NULL));
    check_threads(g, n);
    check_best_move(g, n);
    int mover = carc_game_current_player(g);
    for (int d = 0; d < MAX_DEPTH; d++) {
        at[d] = carc_game_clone(g);
        after[d] = carc_game_clone(g);
    }
    for (int i = 0; i < n; i++) {
        if (i > 0) /* best first */
            assert_true(ranked[i].margin <= ranked[i - 1].margin);
        value *v = &brute[i];
        carc_game_copy(after[0], g);
        assert_int_equal(carc_game_play(after[0], ranked[i].move, NULL, 0, NULL), CARC_OK);
        brute_after(0, v);
        if (fabs(v->margin[mover] - ranked[i].margin) > 1e-9)
            fail_msg("move %d of %d: solver %.12f, brute force %.12f", i, n, ranked[i].margin,
                     v->margin[mover]);
    }
    for (int d = 0; d < MAX_DEPTH; d++) {
        carc_game_free(at[d]);
        carc_game_free(after[d]);
    }
    return check_search(g, n, brute);
}

/* --- Against the brute force ------------------------------------------------------------ */

typedef struct case_ {
    int players, left;
    const char *rules;
    uint64_t seed;
} case_;

/* CARC_EXACT_CASES=N checks the first N positions of each list only (the
 * sanitizer build: its brute force is ten times slower). */
static int check_cases(const case_ *cases, int n)
{
    const char *limit = getenv("CARC_EXACT_CASES");
    if (limit && atoi(limit) > 0 && atoi(limit) < n)
        n = atoi(limit);
    int searched = 0;
    for (int i = 0; i < n; i++) {
        carc_game *g = endgame(cases[i].players, cases[i].rules, cases[i].seed, cases[i].left);
        searched += check_against_brute_force(g);
        carc_game_free(g);
    }
    return searched;
}

static void two_tiles_left(void **state)
{
    (void)state;
    static const case_ cases[] = {
        {2, 2, "", 12},          {2, 2, "", 20}, {2, 2, "", 23}, {3, 2, "", 2},  {3, 2, "", 6},
        {2, 2, "table=11x9", 1}, {2, 2, "", 4},  {2, 2, "", 13}, {2, 2, "", 31}, {2, 2, "", 32},
        {2, 2, "", 33},          {4, 2, "", 7},  {3, 2, "", 17}};
    assert_true(check_cases(cases, sizeof cases / sizeof cases[0]) > 0);
}

/* The last tile's shortcuts (a placement played once for its figures, a
 * placement on a square where it changes no final score not played at
 * all) hold in the base game; under the rules and expansions where the
 * solver plays every move instead (or where they still hold), the same
 * margins as the brute force. */
static void rules_and_expansions(void **state)
{
    (void)state;
    static const case_ cases[] = {
        {2, 2, "farms-first-edition", 3},
        {2, 2, "small-city no-incomplete-scoring", 4},
        {2, 2, "bonus-turn", 5},
        {2, 2, "table=9x9 table-edge-completes", 6},
        {2, 2, "/inns-cathedrals", 7},
        {2, 2, "/traders-builders", 8},
        {3, 2, "/inns-cathedrals,traders-builders", 9},
        {3, 2, "/traders-builders", 3}, /* a player moves twice before the end: no cut there */
    };
    assert_true(check_cases(cases, sizeof cases / sizeof cases[0]) > 0);
}

static void three_tiles_left(void **state)
{
    (void)state;
    static const case_ cases[] = {{2, 3, "table=11x9", 3},
                                  {2, 3, "table=11x9", 4},
                                  {2, 3, "table=11x9", 6},
                                  {3, 3, "table=11x9", 2}};
    check_cases(cases, sizeof cases / sizeof cases[0]);
}

/* --- One move clearly best ------------------------------------------------------------ */

/* The last tile: each move's exact margin is the final margin after it,
 * and in this position one move beats every other by at least 10 points
 * (26 against 9 for the next best). */
static void last_tile(void **state)
{
    (void)state;
    carc_game *g = endgame(2, "", 18, 0);
    carc_exact_info info;
    int n = carc_exact_rank(g, 0, 0, ranked, CARC_MAX_MOVES, &info);
    assert_true(info.exact && n > 1);
    assert_int_equal(info.tiles_left, 0);
    int mover = carc_game_current_player(g), better = 0;
    for (int i = 0; i < n; i++) {
        carc_game *end = carc_game_clone(g);
        assert_int_equal(carc_game_play(end, ranked[i].move, NULL, 0, NULL), CARC_OK);
        assert_true(carc_game_over(end));
        double margin = carc_game_score(end, mover) - carc_game_score(end, 1 - mover);
        assert_true(ranked[i].margin == margin);
        better += ranked[i].margin <= ranked[0].margin - 10.0;
        carc_game_free(end);
    }
    assert_int_equal(better, n - 1);
    assert_true(ranked[0].margin == 26.0);
    carc_game_free(g);
}

/* --- The probes of exact_layout.c ----------------------------------------------------- */

/* Every player's final score of `g` played on with `m` (when given) and
 * ended there. */
static void final_scores(const carc_game *g, const carc_move *m, int out[CARC_MAX_PLAYERS])
{
    carc_game *e = carc_game_clone(g);
    assert_non_null(e);
    if (m)
        assert_int_equal(carc_game_play(e, *m, NULL, 0, NULL), CARC_OK);
    if (!carc_game_over(e))
        assert_int_equal(carc_game_finish(e, NULL, 0, NULL), CARC_OK);
    for (int p = 0; p < carc_game_players(e); p++)
        out[p] = carc_game_score(e, p);
    carc_game_free(e);
}

/* ai_square_cold: a placement without a figure on a square it calls cold
 * leaves every final score as the position ended at once has it (as the
 * last tile, and earlier too); and squares of both kinds occur.
 * ai_place_only: the tile placed alone has, segment by segment, the
 * features the played move gives it (tiles, open edges, worth at the
 * end, which ai_end_worth gives alone). ai_end_change: every placement's
 * final scores, played and ended, are those of the position ended as it
 * is plus the change. Positions of 2 to 5 and of 7 players (the wide
 * layout), 0 to 12 tiles left, in the base game and under the house rules
 * where exact.c asks them. */
static void probes(void **state)
{
    (void)state;
    static carc_placement places[CARC_MAX_PLACEMENTS];
    static const char *const rules[] = {"", "", "small-city no-incomplete-scoring", "table=9x9"};
    int cold = 0, warm = 0, changed = 0;
    for (int i = 0; i < 32; i++) {
        int players = i < 28 ? 2 + i % 4 : 7; /* seven: the wide layout's build */
        carc_game *g = endgame(players, rules[i % 4], 40u + (uint64_t)i, (i % 5) * 3);
        int as_is[CARC_MAX_PLAYERS], placed[CARC_MAX_PLAYERS];
        final_scores(g, NULL, as_is);
        int n = carc_legal_placements(g, places, CARC_MAX_PLACEMENTS); /* 0: a discard */
        for (int k = 0; k < n; k++) {
            carc_move m = {CARC_MOVE_PLACE, places[k], CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
            if (ai_square_cold(g, places[k].x, places[k].y)) {
                final_scores(g, &m, placed);
                assert_memory_equal(placed, as_is, sizeof(int) * (size_t)carc_game_players(g));
                cold++;
            } else {
                warm++;
            }
            carc_game *alone = carc_game_clone(g), *played = carc_game_clone(g);
            assert_non_null(alone);
            assert_non_null(played);
            ai_place_only(alone, places[k]);
            int change[CARC_MAX_PLAYERS];
            final_scores(g, &m, placed);
            assert_true(ai_end_change(g, alone, change));
            for (int p = 0; p < carc_game_players(g); p++) {
                if (as_is[p] + change[p] != placed[p])
                    fail_msg("position %d, placement %d, player %d: %d + %d, played %d", i, k, p,
                             as_is[p], change[p], placed[p]);
                changed += change[p] != 0;
            }
            assert_int_equal(carc_game_play(played, m, NULL, 0, NULL), CARC_OK);
            int t = carc_game_tile_count(played) - 1;
            assert_int_equal(carc_game_tile_count(alone) - 1, t);
            int kind = carc_game_drawn_tile(g);
            for (int seg = 0; seg < carc_tile(kind)->nsegments; seg++) {
                carc_feature a, b;
                assert_int_equal(
                    carc_game_feature_info(alone, carc_game_feature(alone, t, seg), &a), CARC_OK);
                assert_int_equal(
                    carc_game_feature_info(played, carc_game_feature(played, t, seg), &b), CARC_OK);
                assert_int_equal(a.kind, b.kind);
                assert_int_equal(a.tiles, b.tiles);
                assert_int_equal(a.open_edges, b.open_edges);
                assert_int_equal(a.value_at_end, b.value_at_end);
                assert_int_equal(ai_end_worth(alone, carc_game_feature(alone, t, seg)),
                                 b.value_at_end);
            }
            carc_game_free(alone);
            carc_game_free(played);
        }
        carc_game_free(g);
    }
    assert_true(cold > 100 && warm > 100 && changed > 100);
}

/* --- Budgets and bad input -------------------------------------------------------------- */

static void refused(const carc_game *g, uint64_t nodes, const char *reason)
{
    carc_exact_info info;
    memset(&info, 0x5a, sizeof info);
    assert_int_equal(carc_exact_rank(g, nodes, 0, ranked, CARC_MAX_MOVES, &info), 0);
    assert_int_equal(info.exact, 0);
    if (!strstr(info.reason, reason))
        fail_msg("reason '%s' lacks '%s'", info.reason, reason);
}

static void bad_input(void **state)
{
    (void)state;
    carc_game *g = endgame(2, "", 4, 0);
    carc_move m = ranked[0].move;
    assert_int_equal(carc_legal_moves(g, &m, 1) > 0, 1);
    assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
    refused(g, 0, "the game is over");
    carc_game_free(g);
    g = sup_game(2, 1); /* 70 tiles left */
    refused(g, 0, "70 tiles left");
    carc_game_free(g);
    g = endgame(2, "", 3, 3);
    refused(g, 100, "budget");
    assert_int_equal(carc_exact_rank(g, 0, 0, ranked, 0, NULL), 0); /* no room, no info */
    /* Threads: counts out of range, and a node budget of half what one
     * thread needs, which the threads spend together. */
    carc_exact_info info;
    const int bad_threads[] = {-1, 0, CARC_EXACT_MAX_THREADS + 1};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(
            carc_exact_rank_threads(g, 0, 0, bad_threads[i], ranked, CARC_MAX_MOVES, &info), 0);
        assert_false(info.exact);
        assert_non_null(strstr(info.reason, "threads must be 1 to"));
    }
    assert_int_equal(carc_exact_rank_threads(g, 0, 0, 0, ranked, CARC_MAX_MOVES, NULL), 0);
    int n = carc_exact_rank(g, 0, 0, ranked, CARC_MAX_MOVES, &info);
    assert_true(info.exact && n > 4);
    uint64_t all = info.nodes;
    assert_int_equal(carc_exact_rank_threads(g, all / 2, 0, 4, ranked, CARC_MAX_MOVES, &info), 0);
    assert_false(info.exact);
    assert_non_null(strstr(info.reason, "budget"));
    assert_true(info.nodes <= all / 2 + 4 * 1024);
    carc_game_free(g);
    carc_rules hand = carc_rules_standard();
    assert_int_equal(carc_rules_parse("hand=2", &hand, NULL, 0), CARC_OK);
    g = carc_game_new(2, &hand, 1);
    refused(g, 0, "hand=N");
    carc_game_free(g);
}

/* --- The strongest level ---------------------------------------------------------------- */

/* With 2 tiles left the strongest level's exact solve ends well within half
 * its time: it plays a move of the exact best margin, in time. */
static void strongest_uses_it(void **state)
{
    (void)state;
    char err[128];
    carc_player *p = carc_player_new("mcts:level=strongest,ms=2000", 7, err, sizeof err);
    assert_non_null(p);
    assert_non_null(strstr(carc_player_spec(p), "exact=1"));
    carc_game *g = endgame(2, "", 20, 2);
    carc_exact_info info;
    int n = carc_exact_rank(g, 0, 0, ranked, CARC_MAX_MOVES, &info);
    assert_true(info.exact && n > 1);
    double best = ranked[0].margin;
    carc_move m;
    carc_search_info search;
    assert_int_equal(carc_player_choose(p, g, &m, &search), CARC_OK);
    assert_true(search.seconds < 2.0);
    assert_true(fabs(search.margin - best) < 1e-9);
    for (int i = 0; i < n; i++)
        if (carc_move_equal(ranked[i].move, carc_move_canonical(g, m)))
            assert_true(fabs(ranked[i].margin - best) < 1e-9);
    carc_game_free(g);
    /* Three players (max-n) with 3 tiles left, beyond the search's own
     * exhaustive endgame (2 tiles): the solver's best move and margin. */
    assert_true(ai_exact_endgame_tiles(2) == 4 && ai_exact_endgame_tiles(3) == 3 &&
                ai_exact_endgame_tiles(4) == 2 && ai_exact_endgame_tiles(8) == 2);
    g = endgame(3, "table=11x9", 2, 3);
    n = carc_exact_rank(g, 0, 0, ranked, CARC_MAX_MOVES, &info);
    assert_true(info.exact && n > 1);
    assert_int_equal(carc_player_choose(p, g, &m, &search), CARC_OK);
    assert_true(fabs(search.margin - ranked[0].margin) < 1e-9);
    carc_player_free(p);
    p = carc_player_new("mcts:exact=2", 7, err, sizeof err);
    assert_null(p);
    assert_non_null(strstr(err, "exact must be 0 or 1"));
    carc_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_tiles_left),   cmocka_unit_test(rules_and_expansions),
        cmocka_unit_test(three_tiles_left), cmocka_unit_test(last_tile),
        cmocka_unit_test(bad_input),        cmocka_unit_test(strongest_uses_it),
        cmocka_unit_test(probes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
