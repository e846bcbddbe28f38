/* test_baselines.c: the two reference players of issue 3, vanilla-mcts
 * (UCT after Ameneyro et al. 2020) and star25 (Star2.5 after Heyden 2009),
 * through the public player API: legal moves in early, middle and late
 * positions of 2, 3 and 6 player games, a drawn tile that fits nowhere,
 * the same move for the same seed, rankings in their documented order,
 * budgets and stop requests obeyed, the hidden pile order ignored, and a
 * deterministic check that both beat the random player. */
#include "support.h"

#include "carcassonne_ai.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

static const char *const baselines[] = {"vanilla-mcts", "star25"};
enum { NBASELINES = 2 };

static carc_move_eval ranked[CARC_MAX_PLACEMENTS * (1 + CARC_MAX_SPOTS)];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A game of `players` after `plies` random moves. */
static carc_game *position(int players, int plies, uint64_t seed)
{
    carc_game *g = sup_game(players, seed);
    carc_rng rng = carc_rng_seed(seed * 7919u + 1);
    for (int i = 0; i < plies && !carc_game_over(g); i++)
        assert_int_equal(carc_game_play_random(g, &rng, 0.5, NULL), CARC_OK);
    assert_false(carc_game_over(g));
    return g;
}

/* Early, middle and late positions of 2, 3 and 6 player games. */
typedef struct where {
    int players, plies;
} where;
static const where positions[] = {
    {2, 1}, {2, 30}, {2, 66}, {3, 2}, {3, 35}, {3, 68}, {6, 3}, {6, 40}, {6, 69},
};
enum { NPOSITIONS = sizeof positions / sizeof positions[0] };

static carc_player *player(const char *spec, uint64_t seed)
{
    char err[128];
    carc_player *p = carc_player_new(spec, seed, err, sizeof err);
    if (!p)
        fail_msg("player '%s': %s", spec, err);
    return p;
}

/* Whether `m` is legal in `g`: it plays on a copy. */
static int legal(const carc_game *g, carc_move m)
{
    carc_game *copy = carc_game_clone(g);
    carc_status st = carc_game_play(copy, m, NULL, 0, NULL);
    carc_game_free(copy);
    return st == CARC_OK;
}

/* Whether rotation r of `kind` lays out the very segments of rotation q
 * (a symmetric tile): the same move, which players list once. */
static int same_rotation(int kind, int q, int r)
{
    const carc_tile_def *def = carc_tile(kind);
    for (int s = 0; s < def->nsegments; s++) {
        int found = 0;
        for (int t = 0; t < def->nsegments && !found; t++)
            found = carc_tile_segment_ports(kind, r, s) == carc_tile_segment_ports(kind, q, t) &&
                    def->segments[s].kind == def->segments[t].kind &&
                    def->segments[s].pennant == def->segments[t].pennant;
        if (!found)
            return 0;
    }
    return 1;
}

static int repeats_lower_rotation(const carc_game *g, carc_placement p)
{
    for (int q = 0; q < p.rot; q++)
        if (same_rotation(carc_game_drawn_tile(g), q, p.rot))
            return 1;
    return 0;
}

/* The number of legal moves: each distinct placement without and with each
 * spot, or one discard. */
static int legal_move_count(const carc_game *g)
{
    static carc_placement places[CARC_MAX_PLACEMENTS];
    int np = carc_legal_placements(g, places, CARC_MAX_PLACEMENTS);
    int n = np ? 0 : 1;
    for (int i = 0; i < np; i++) {
        if (repeats_lower_rotation(g, places[i]))
            continue;
        carc_spot spots[CARC_MAX_SPOTS];
        n += 1 + carc_legal_spots(g, places[i], spots, CARC_MAX_SPOTS);
    }
    return n;
}

/* The ranking of `spec` in `g`: every legal move once, each legal, in
 * the documented order, and the chosen move first. */
static void check_ranking(const char *spec, const carc_game *g)
{
    carc_player *p = player(spec, 5);
    carc_search_info info;
    int n = carc_player_rank(p, g, ranked, (int)(sizeof ranked / sizeof ranked[0]), &info);
    assert_int_equal(n, legal_move_count(g));
    for (int i = 0; i < n; i++) {
        assert_true(legal(g, ranked[i].move));
        for (int j = 0; j < i; j++)
            assert_false(carc_move_equal(ranked[i].move, ranked[j].move));
        assert_true(ranked[i].win >= 0.0 && ranked[i].win <= 1.0);
    }
    if (strcmp(spec, "star25") == 0) {
        /* By expectimax value; with no budget every move is searched. */
        for (int i = 1; i < n; i++) {
            assert_true(ranked[i].margin <= ranked[i - 1].margin);
            assert_true(ranked[i].visits > 0);
        }
    } else {
        /* By visits, then mean margin; the 100 simulations each pass
         * through one root child. */
        uint64_t visits = 0;
        for (int i = 0; i < n; i++) {
            visits += ranked[i].visits;
            if (i > 0) {
                assert_true(ranked[i].visits <= ranked[i - 1].visits);
                if (ranked[i].visits == ranked[i - 1].visits && ranked[i].visits > 0)
                    assert_true(ranked[i].margin <= ranked[i - 1].margin);
            }
        }
        assert_int_equal(info.iterations, 100);
        assert_int_equal(visits, 100);
    }
    /* choose() plays the first of the ranking (a fresh player, same seed). */
    carc_player *q = player(spec, 5);
    carc_move m;
    assert_int_equal(carc_player_choose(q, g, &m, NULL), CARC_OK);
    assert_true(carc_move_equal(m, ranked[0].move));
    carc_player_free(q);
    carc_player_free(p);
}

static void test_legal_and_ranked(void **state)
{
    (void)state;
    for (int i = 0; i < NPOSITIONS; i++) {
        carc_game *g = position(positions[i].players, positions[i].plies, 100 + (uint64_t)i);
        for (int b = 0; b < NBASELINES; b++)
            check_ranking(baselines[b], g);
        carc_game_free(g);
    }
}

static void test_same_seed_same_move(void **state)
{
    (void)state;
    for (int i = 0; i < NPOSITIONS; i += 2) {
        carc_game *g = position(positions[i].players, positions[i].plies, 200 + (uint64_t)i);
        for (int b = 0; b < NBASELINES; b++) {
            carc_player *p = player(baselines[b], 42);
            carc_player *q = player(baselines[b], 42);
            carc_move m1, m2, m3;
            assert_int_equal(carc_player_choose(p, g, &m1, NULL), CARC_OK);
            assert_int_equal(carc_player_choose(q, g, &m2, NULL), CARC_OK);
            assert_true(carc_move_equal(m1, m2));
            carc_player_reseed(p, 42);
            assert_int_equal(carc_player_choose(p, g, &m3, NULL), CARC_OK);
            assert_true(carc_move_equal(m1, m3));
            carc_player_free(p);
            carc_player_free(q);
        }
        carc_game_free(g);
    }
}

/* star25 sees only the counts of the tiles left: reshuffling the hidden
 * pile changes nothing of its ranking. (vanilla-mcts samples its decks
 * from the pile it is given, so its samples, though equally uninformed,
 * are other samples.) */
static void test_star25_ignores_pile_order(void **state)
{
    (void)state;
    static carc_move_eval other[sizeof ranked / sizeof ranked[0]];
    carc_game *g = position(3, 30, 301);
    carc_game *h = carc_game_clone(g);
    carc_game_shuffle_hidden(h, 12345);
    carc_player *p = player("star25", 9);
    carc_player *q = player("star25", 9);
    int cap = (int)(sizeof ranked / sizeof ranked[0]);
    int n = carc_player_rank(p, g, ranked, cap, NULL);
    assert_int_equal(carc_player_rank(q, h, other, cap, NULL), n);
    for (int i = 0; i < n; i++) {
        assert_true(carc_move_equal(ranked[i].move, other[i].move));
        assert_true(ranked[i].margin == other[i].margin);
    }
    carc_player_free(p);
    carc_player_free(q);
    carc_game_free(h);
    carc_game_free(g);
}

/* --- star25 against a brute-force expectimax ------------------------------------- */

static int brute_root;
static double brute_lo, brute_hi;

/* The root player's evaluated margin, clipped to [brute_lo, brute_hi] as
 * star25 documents. */
static double brute_leaf(const carc_game *g)
{
    double v[CARC_MAX_PLAYERS];
    carc_evaluate(g, v);
    double best = -1e300;
    for (int q = 0; q < carc_game_players(g); q++)
        if (q != brute_root && v[q] > best)
            best = v[q];
    double m = v[brute_root] - best;
    return m < brute_lo ? brute_lo : m > brute_hi ? brute_hi : m;
}

/* Expectimax of depth 3 after the root move: every next tile, weighted by
 * its count among the tiles the root player has not seen, then the best
 * reply for the player to move (paranoid), evaluated. */
static double brute_after_root_move(const carc_game *g)
{
    if (carc_game_over(g))
        return brute_leaf(g);
    int counts[CARC_MAX_KINDS] = {0};
    int total = carc_game_tiles_left(g, counts) + 1;
    counts[carc_game_drawn_tile(g)]++;
    carc_game *drawn = carc_game_clone(g), *child = carc_game_clone(g);
    static carc_placement places[CARC_MAX_PLACEMENTS];
    double sum = 0.0;
    for (int k = 0; k < BASE_KINDS; k++) {
        if (counts[k] == 0)
            continue;
        carc_game_copy(drawn, g);
        assert_int_equal(carc_game_choose_tile(drawn, k), CARC_OK);
        int is_max = carc_game_current_player(drawn) == brute_root;
        double best = is_max ? -1e300 : 1e300;
        int np = carc_legal_placements(drawn, places, CARC_MAX_PLACEMENTS);
        for (int i = 0; i <= np; i++) {
            carc_spot spots[CARC_MAX_SPOTS];
            int ns = i < np ? carc_legal_spots(drawn, places[i], spots, CARC_MAX_SPOTS) : 0;
            for (int s = -1; s < ns; s++) {
                carc_move m = {CARC_MOVE_PLACE, i < np ? places[i] : (carc_placement){0, 0, 0, 0},
                               s < 0 ? (uint8_t)CARC_NO_SPOT : spots[s].segment,
                               CARC_FIGURE_FOLLOWER};
                if (i == np) {
                    if (np > 0)
                        break;
                    m.type = CARC_MOVE_DISCARD;
                }
                carc_game_copy(child, drawn);
                assert_int_equal(carc_game_play(child, m, NULL, 0, NULL), CARC_OK);
                double v = brute_leaf(child);
                best = is_max ? (v > best ? v : best) : (v < best ? v : best);
            }
        }
        sum += (double)counts[k] / total * best;
    }
    carc_game_free(drawn);
    carc_game_free(child);
    return sum;
}

/* star25's best move has the exact expectimax value, and every other
 * move's reported value is its value or an upper bound of it. */
static void test_star25_matches_expectimax(void **state)
{
    (void)state;
    static const where cases[] = {{2, 30}, {3, 60}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        carc_game *g = position(cases[c].players, cases[c].plies, 700 + (uint64_t)c);
        brute_root = carc_game_current_player(g);
        brute_lo = -1e300;
        brute_hi = 1e300;
        double m0 = brute_leaf(g);
        brute_lo = m0 - 100.0;
        brute_hi = m0 + 100.0;
        carc_player *p = player("star25", 1);
        int n = carc_player_rank(p, g, ranked, (int)(sizeof ranked / sizeof ranked[0]), NULL);
        carc_game *child = carc_game_clone(g);
        double best = -1e300;
        for (int i = 0; i < n; i++) {
            carc_game_copy(child, g);
            assert_int_equal(carc_game_play(child, ranked[i].move, NULL, 0, NULL), CARC_OK);
            double v = brute_after_root_move(child);
            best = v > best ? v : best;
            assert_true(ranked[i].margin >= v - 1e-9);
        }
        assert_true(fabs(ranked[0].margin - best) < 1e-9);
        carc_game_free(child);
        carc_player_free(p);
        carc_game_free(g);
    }
}

/* A late position whose drawn tile is forced to a kind that fits nowhere:
 * found by scanning seeded random games. Returns NULL when none is found. */
static carc_game *unplaceable_position(void)
{
    for (uint64_t seed = 1; seed <= 300; seed++) {
        carc_game *g = sup_game(2, seed);
        carc_rng rng = carc_rng_seed(seed);
        while (!carc_game_over(g)) {
            int counts[CARC_MAX_KINDS] = {0};
            carc_game_tiles_left(g, counts);
            for (int k = 0; k < BASE_KINDS; k++) {
                if (counts[k] == 0)
                    continue;
                carc_game *h = carc_game_clone(g);
                assert_int_equal(carc_game_choose_tile(h, k), CARC_OK);
                if (carc_legal_placements(h, NULL, 0) == 0) {
                    carc_game_free(g);
                    return h;
                }
                carc_game_free(h);
            }
            carc_game_play_random(g, &rng, 0.5, NULL);
        }
        carc_game_free(g);
    }
    return NULL;
}

static void test_tile_fits_nowhere(void **state)
{
    (void)state;
    carc_game *g = unplaceable_position();
    if (!g)
        skip();
    for (int b = 0; b < NBASELINES; b++) {
        carc_player *p = player(baselines[b], 3);
        carc_move m;
        assert_int_equal(carc_player_choose(p, g, &m, NULL), CARC_OK);
        assert_int_equal(m.type, CARC_MOVE_DISCARD);
        assert_true(legal(g, m));
        int cap = (int)(sizeof ranked / sizeof ranked[0]);
        assert_int_equal(carc_player_rank(p, g, ranked, cap, NULL), 1);
        assert_int_equal(ranked[0].move.type, CARC_MOVE_DISCARD);
        carc_player_free(p);
    }
    carc_game_free(g);
}

/* A time budget: the move comes back well within the bound, and legal.
 * star25 at depth 5 needs about a second a move in the middle game, so
 * its 50 ms budget has to cut the search short. */
static void test_time_budget(void **state)
{
    (void)state;
    static const char *const specs[] = {"star25:ms=50", "star25:depth=5,ms=50",
                                        "vanilla-mcts:ms=50"};
    carc_game *g = position(6, 30, 401);
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        carc_player *p = player(specs[i], 1);
        carc_move m;
        carc_search_info info;
        double start = now();
        assert_int_equal(carc_player_choose(p, g, &m, &info), CARC_OK);
        double took = now() - start;
        if (took > 2.0)
            fail_msg("%s took %.2f s", specs[i], took);
        assert_true(legal(g, m));
        carc_player_free(p);
    }
    carc_game_free(g);
}

typedef struct stopper {
    carc_player *p;
    atomic_int done;
} stopper;

/* Asks the player to stop every 10 ms until the search is over. */
static void *stop_repeatedly(void *arg)
{
    stopper *s = arg;
    while (!atomic_load(&s->done)) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
        carc_player_stop(s->p);
    }
    return NULL;
}

/* A stop request from another thread ends a search that has no budget of
 * its own in good time: star25 at depth 5, vanilla-mcts with a huge
 * simulation budget. */
static void test_stop_request(void **state)
{
    (void)state;
    static const char *const specs[] = {"star25:depth=5", "vanilla-mcts:iters=100000000"};
    carc_game *g = position(2, 30, 501);
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        stopper s = {player(specs[i], 1), 0};
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, stop_repeatedly, &s), 0);
        carc_move m;
        double start = now();
        assert_int_equal(carc_player_choose(s.p, g, &m, NULL), CARC_OK);
        double took = now() - start;
        atomic_store(&s.done, 1);
        pthread_join(t, NULL);
        if (took > 2.0)
            fail_msg("%s took %.2f s after a stop request", specs[i], took);
        assert_true(legal(g, m));
        carc_player_free(s.p);
    }
    carc_game_free(g);
}

/* Games won by `spec` against the random player in four two-player
 * games with fixed seeds, seats alternating (ties count half). */
static double wins_against_random(const char *spec)
{
    double wins = 0.0;
    for (int game = 0; game < 4; game++) {
        carc_game *g = sup_game(2, 600 + (uint64_t)game);
        carc_player *seat[2];
        int me = game % 2;
        seat[me] = player(spec, 10 + (uint64_t)game);
        seat[1 - me] = player("random", 20 + (uint64_t)game);
        while (!carc_game_over(g)) {
            carc_move m;
            int q = carc_game_current_player(g);
            assert_int_equal(carc_player_choose(seat[q], g, &m, NULL), CARC_OK);
            assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
        }
        int mine = carc_game_score(g, me), theirs = carc_game_score(g, 1 - me);
        wins += mine > theirs ? 1.0 : mine == theirs ? 0.5 : 0.0;
        carc_player_free(seat[0]);
        carc_player_free(seat[1]);
        carc_game_free(g);
    }
    return wins;
}

static void test_beats_random(void **state)
{
    (void)state;
    for (int b = 0; b < NBASELINES; b++) {
        double wins = wins_against_random(baselines[b]);
        if (wins < 3.0)
            fail_msg("%s won %.1f of 4 games against random", baselines[b], wins);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_legal_and_ranked),
        cmocka_unit_test(test_same_seed_same_move),
        cmocka_unit_test(test_star25_ignores_pile_order),
        cmocka_unit_test(test_star25_matches_expectimax),
        cmocka_unit_test(test_tile_fits_nowhere),
        cmocka_unit_test(test_time_budget),
        cmocka_unit_test(test_stop_request),
        cmocka_unit_test(test_beats_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
