/* test_players.c: the computer players through carcassonne_ai.h: specs,
 * legality of every move in every phase for 2 to 6 players, determinism,
 * time budgets and stop requests, rankings, and the exhaustive endgame. */
#include "support.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

#include "carcassonne_ai.h"
#include "ai/eval.h" /* ai_state_bytes: the searches' memory report */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static carc_player *player(const char *spec, uint64_t seed)
{
    char err[160];
    carc_player *p = carc_player_new(spec, seed, err, sizeof err);
    if (!p)
        fail_msg("spec '%s' refused: %s", spec, err);
    return p;
}

/* Whether `m` is one of the legal moves of `g`, by the engine's own check
 * on a copy. */
static void assert_legal(const carc_game *g, carc_move m)
{
    carc_game *copy = carc_game_clone(g);
    assert_non_null(copy);
    carc_status st = carc_game_play(copy, m, NULL, 0, NULL);
    if (st != CARC_OK)
        fail_msg("illegal move: %s", carc_game_error(copy));
    carc_game_free(copy);
}

static void test_specs(void **state)
{
    (void)state;
    static const char *const good[][2] = {
        {"random", "random"},
        {"greedy", "greedy"},
        {"greedy:eval=full", "greedy:eval=full"},
        {"greedy:eval=basic", "greedy:eval=basic"},
        {"mcts:iters=500,eval=full", "mcts:iters=500,threads=2,c=0.2,own=0.25,eval=full"},
        {"mcts:iters=500,threads=1", "mcts:iters=500,threads=1,c=0.2,own=0.25"},
        {"mcts:level=easy", "mcts:iters=400,threads=2,c=0.2,own=0.25"},
        {"mcts:level=hard,threads=1", "mcts:ms=3000,threads=1,c=0.2,own=0.25"},
        {"mcts:ms=20,c=1.5", "mcts:ms=20,threads=2,c=1.5,own=0.25"},
        {"mcts:iters=500,own=0.5", "mcts:iters=500,threads=2,c=0.2,own=0.5"},
        {"mcts:iters=500,own=0", "mcts:iters=500,threads=2,c=0.2,own=0"},
        {"mcts:iters=500,win=0.3", "mcts:iters=500,threads=2,c=0.2,own=0.25,win=0.3"},
        {"mcts:win=0,iters=500", "mcts:iters=500,threads=2,c=0.2,own=0.25"},
        {"mcts:iters=500,ismcts=1", "mcts:iters=500,threads=2,c=0.2,own=0.25"},
        {"mcts:ismcts=0,iters=500", "mcts:iters=500,threads=2,c=0.2,own=0.25,ismcts=0"},
        {"vanilla-mcts", "vanilla-mcts:iters=100,c=3"},
        {"star25", "star25:depth=3,probe=5"},
        {"star25:ms=200,depth=2", "star25:ms=200,depth=2,probe=5"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        carc_player *p = player(good[i][0], 1);
        assert_string_equal(carc_player_spec(p), good[i][1]);
        carc_player_free(p);
    }
    static const char *const bad[] = {
        "",
        "mcts:",
        "mcts:ms",
        "mcts:ms=0",
        "mcts:ms=-5",
        "mcts:x=1",
        "greedy:ms=100",
        "greedy:eval=fast",
        "greedy:eval=",
        "random:eval=full",
        "star25:eval=basic",
        "vanilla-mcts:eval=full",
        "mcts:level=super",
        "mcts:own=1.5",
        "mcts:own=-0.1",
        "mcts:own=x",
        "greedy:own=0.5",
        "vanilla-mcts:own=0.5",
        "mcts:win=1.01",
        "mcts:win=-0.5",
        "mcts:win=",
        "star25:win=0.3",
        "mcts:ismcts=2",
        "greedy:ismcts=0",
        "mcts:threads=999",
        "alphazero",
        "mcts:iters=12abc",
        "random:",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[160] = "";
        carc_player *p = carc_player_new(bad[i], 1, err, sizeof err);
        if (p)
            fail_msg("spec '%s' accepted", bad[i]);
        assert_true(strlen(err) > 0);
    }
    char longspec[300];
    memset(longspec, 'a', sizeof longspec - 1);
    longspec[sizeof longspec - 1] = '\0';
    assert_null(carc_player_new(longspec, 1, NULL, 0));
}

/* Every seat played by `spec`; every move must be legal. */
static void play_whole_game(const char *spec, int players, uint64_t seed)
{
    carc_game *g = sup_game(players, seed);
    carc_player *p = player(spec, seed);
    int moves = 0;
    while (!carc_game_over(g)) {
        carc_move m;
        carc_search_info info;
        assert_int_equal(carc_player_choose(p, g, &m, &info), CARC_OK);
        assert_legal(g, m);
        assert_true(info.seconds >= 0.0);
        assert_true(info.win >= 0.0 && info.win <= 1.0);
        assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
        moves++;
    }
    assert_int_equal(moves, BASE_GAME_PILE);
    carc_move m;
    assert_int_equal(carc_player_choose(p, g, &m, NULL), CARC_EOVER);
    carc_player_free(p);
    carc_game_free(g);
}

static void test_legal_every_phase(void **state)
{
    (void)state;
    static const char *const specs[] = {"random", "greedy", "greedy:eval=full",
                                        "mcts:iters=200,threads=2"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++)
        for (int n = CARC_MIN_PLAYERS; n <= CARC_MAX_PLAYERS; n++)
            play_whole_game(specs[s], n, 40 + (uint64_t)n);
}

/* A position where the drawn tile fits nowhere, found by trying every kind
 * left in positions of seeded random games. */
static carc_game *find_discard_position(void)
{
    carc_rng rng = carc_rng_seed(99);
    for (uint64_t seed = 1; seed < 400; seed++) {
        carc_game *g = sup_game(2, seed);
        while (!carc_game_over(g)) {
            int counts[CARC_MAX_KINDS] = {0};
            carc_game_tiles_left(g, counts);
            counts[carc_game_drawn_tile(g)]++;
            for (int k = 0; k < BASE_KINDS; k++) {
                if (!counts[k] || carc_game_choose_tile(g, k) != CARC_OK)
                    continue;
                if (carc_legal_placements(g, NULL, 0) == 0)
                    return g;
            }
            carc_game_play_random(g, &rng, 0.5, NULL);
        }
        carc_game_free(g);
    }
    return NULL;
}

static void test_discard(void **state)
{
    (void)state;
    carc_game *g = find_discard_position();
    assert_non_null(g);
    static const char *const specs[] = {"random", "greedy", "mcts:iters=100,threads=2"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        carc_player *p = player(specs[s], 3);
        carc_move m;
        assert_int_equal(carc_player_choose(p, g, &m, NULL), CARC_OK);
        assert_int_equal(m.type, CARC_MOVE_DISCARD);
        assert_legal(g, m);
        carc_player_free(p);
    }
    carc_game_free(g);
}

/* Plays `g` to its end, seat s choosing with seats[s]; writes the moves
 * into `moves` (NULL: nowhere) and returns how many were played. */
static int play_out(carc_game *g, carc_player *const *seats, carc_move *moves)
{
    int n = 0;
    while (!carc_game_over(g)) {
        carc_move m;
        carc_player *p = seats[carc_game_current_player(g)];
        assert_int_equal(carc_player_choose(p, g, &m, NULL), CARC_OK);
        assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
        if (moves)
            moves[n] = m;
        n++;
    }
    return n;
}

/* The moves of a whole game by `spec` in every seat. */
static int game_moves(const char *spec, uint64_t seed, carc_move *out)
{
    carc_game *g = sup_game(3, 5);
    carc_player *p = player(spec, seed);
    int n = play_out(g, (carc_player *const[]){p, p, p}, out);
    carc_player_free(p);
    carc_game_free(g);
    return n;
}

static int same_moves(const carc_move *a, const carc_move *b, int n)
{
    for (int i = 0; i < n; i++)
        if (!carc_move_equal(a[i], b[i]))
            return 0;
    return 1;
}

static void test_determinism(void **state)
{
    (void)state;
    static const char *const specs[] = {"random", "greedy", "greedy:eval=full",
                                        "mcts:iters=300,threads=2", "mcts:iters=300,threads=3"};
    static carc_move a[BASE_GAME_PILE], b[BASE_GAME_PILE], c[BASE_GAME_PILE];
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        int na = game_moves(specs[s], 11, a);
        int nb = game_moves(specs[s], 11, b);
        assert_int_equal(na, nb);
        if (!same_moves(a, b, na))
            fail_msg("'%s' played two games differently from one seed", specs[s]);
        /* Another seed must change something for players that draw lots. */
        if (strncmp(specs[s], "greedy", 6) != 0) {
            int nc = game_moves(specs[s], 12, c);
            assert_true(nc != na || !same_moves(a, c, na));
        }
    }
}

/* A midgame position: 30 random moves from a seeded game. */
static carc_game *midgame(int players, uint64_t seed)
{
    return sup_random_game(players, seed, 30, 0.5);
}

static void test_time_budget(void **state)
{
    (void)state;
    carc_game *g = midgame(2, 8);
    carc_player *p = player("mcts:ms=100,threads=2", 1);
    carc_move m;
    carc_search_info info;
    double t0 = now();
    assert_int_equal(carc_player_choose(p, g, &m, &info), CARC_OK);
    double spent = now() - t0;
    assert_legal(g, m);
    /* 100 ms asked; generous slack for slow and sanitized builds. */
    assert_true(spent < 1.5);
    assert_true(info.seconds >= 0.09);
    assert_true(info.iterations > 0);
    assert_true(info.memory_bytes > 0 && info.memory_bytes <= 256u * 1024 * 1024);
    carc_player_free(p);
    carc_game_free(g);
}

typedef struct stopper {
    carc_player *p;
    long delay_ms;
} stopper;

static void *stop_later(void *arg)
{
    stopper *s = arg;
    struct timespec ts = {0, s->delay_ms * 1000000L};
    nanosleep(&ts, NULL);
    carc_player_stop(s->p);
    return NULL;
}

static void test_stop(void **state)
{
    (void)state;
    carc_game *g = midgame(4, 9);
    static const char *const specs[] = {"mcts:ms=60000,threads=2", "mcts:iters=100000000"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        carc_player *p = player(specs[s], 1);
        stopper st = {p, 100};
        pthread_t id;
        assert_int_equal(pthread_create(&id, NULL, stop_later, &st), 0);
        double t0 = now();
        carc_move m;
        assert_int_equal(carc_player_choose(p, g, &m, NULL), CARC_OK);
        double spent = now() - t0;
        pthread_join(id, NULL);
        assert_legal(g, m);
        assert_true(spent < 5.0);
        /* The request is cleared by the next call. */
        carc_player_free(p);
    }
    carc_game_free(g);
}

static void test_rank(void **state)
{
    (void)state;
    carc_game *g = midgame(2, 21);
    static const char *const specs[] = {"greedy", "mcts:iters=2000,threads=2", "random"};
    static carc_move_eval evals[CARC_MAX_PLACEMENTS * (1 + CARC_MAX_SPOTS)];
    int cap = (int)(sizeof evals / sizeof evals[0]);
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        carc_player *p = player(specs[s], 2);
        int n = carc_player_rank(p, g, evals, cap, NULL);
        assert_true(n > 1);
        for (int i = 0; i < n; i++) {
            assert_legal(g, evals[i].move);
            assert_true(evals[i].win >= 0.0 && evals[i].win <= 1.0);
            for (int j = 0; j < i; j++)
                assert_false(evals[j].move.place.x == evals[i].move.place.x &&
                             evals[j].move.place.y == evals[i].move.place.y &&
                             evals[j].move.place.rot == evals[i].move.place.rot &&
                             evals[j].move.segment == evals[i].move.segment);
        }
        if (strcmp(specs[s], "greedy") == 0)
            for (int i = 1; i < n; i++)
                assert_true(evals[i - 1].margin >= evals[i].margin);
        if (strncmp(specs[s], "mcts", 4) == 0)
            for (int i = 1; i < n; i++)
                assert_true(evals[i - 1].visits >= evals[i].visits);
        /* A small cap writes the head of the same ranking for greedy. */
        carc_move_eval top[3];
        carc_player_reseed(p, 2);
        int k = carc_player_rank(p, g, top, 3, NULL);
        assert_int_equal(k, 3);
        carc_player_free(p);
    }
    carc_game_free(g);
}

/* With the last tile drawn, the exhaustive endgame must find the move of
 * the best final margin, which a plain loop over the moves can check. */
static void test_exact_endgame(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        carc_game *g = sup_game(2, seed);
        carc_rng rng = carc_rng_seed(seed);
        while (carc_game_tiles_left(g, NULL) > 0)
            carc_game_play_random(g, &rng, 0.5, NULL);
        int me = carc_game_current_player(g);
        int best = -1000;
        carc_placement places[CARC_MAX_PLACEMENTS];
        int np = carc_legal_placements(g, places, CARC_MAX_PLACEMENTS);
        carc_game *copy = carc_game_clone(g);
        for (int i = 0; i < np; i++) {
            carc_spot spots[CARC_MAX_SPOTS];
            int ns = carc_legal_spots(g, places[i], spots, CARC_MAX_SPOTS);
            for (int j = -1; j < ns; j++) {
                carc_move m = {CARC_MOVE_PLACE, places[i],
                               j < 0 ? (uint8_t)CARC_NO_SPOT : spots[j].segment,
                               CARC_FIGURE_FOLLOWER};
                carc_game_copy(copy, g);
                assert_int_equal(carc_game_play(copy, m, NULL, 0, NULL), CARC_OK);
                int margin = carc_game_score(copy, me) - carc_game_score(copy, 1 - me);
                if (margin > best)
                    best = margin;
            }
        }
        carc_player *p = player("mcts:iters=10,threads=1", seed);
        carc_move m;
        carc_search_info info;
        assert_int_equal(carc_player_choose(p, g, &m, &info), CARC_OK);
        carc_game_copy(copy, g);
        assert_int_equal(carc_game_play(copy, m, NULL, 0, NULL), CARC_OK);
        if (np > 0) {
            assert_int_equal(carc_game_score(copy, me) - carc_game_score(copy, 1 - me), best);
            assert_true(info.margin == (double)best);
        }
        carc_player_free(p);
        carc_game_free(copy);
        carc_game_free(g);
    }
}

/* The evaluation: finished games give the scores; a follower in supply is
 * worth something while tiles are left. */
static void test_evaluate(void **state)
{
    (void)state;
    carc_game *g = sup_game(3, 4);
    double v[CARC_MAX_PLAYERS];
    carc_evaluate(g, v);
    for (int p = 0; p < 3; p++)
        assert_true(v[p] > 0.0);
    carc_rng rng = carc_rng_seed(4);
    while (!carc_game_over(g))
        carc_game_play_random(g, &rng, 0.5, NULL);
    carc_evaluate(g, v);
    for (int p = 0; p < 3; p++)
        assert_true(v[p] == (double)carc_game_score(g, p));
    carc_game_free(g);
}

/* Greedy must beat random over a fixed set of deals: a deterministic check
 * of the evaluation's sign, not of strength. */
static void test_greedy_beats_random(void **state)
{
    (void)state;
    int wins = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        carc_game *g = sup_game(2, seed);
        int greedy_seat = (int)(seed % 2);
        carc_player *seats[2];
        seats[greedy_seat] = player("greedy", seed);
        seats[1 - greedy_seat] = player("random", seed);
        play_out(g, seats, NULL);
        wins += carc_game_score(g, greedy_seat) > carc_game_score(g, 1 - greedy_seat);
        carc_player_free(seats[0]);
        carc_player_free(seats[1]);
        carc_game_free(g);
    }
    assert_true(wins >= 5);
}

/* The total score of 2-player games with `spec` in both seats. */
static int self_play_total(const char *spec, uint64_t first_seed, int games)
{
    int total = 0;
    for (uint64_t seed = first_seed; seed < first_seed + (uint64_t)games; seed++) {
        carc_game *g = sup_game(2, seed);
        carc_player *p = player(spec, seed);
        play_out(g, (carc_player *const[]){p, p}, NULL);
        total += carc_game_score(g, 0) + carc_game_score(g, 1);
        carc_player_free(p);
        carc_game_free(g);
    }
    return total;
}

/* A search that values its own score beside its margin stops trading its
 * growth for the other's loss, so both players score more. */
static void test_own_weight(void **state)
{
    (void)state;
    int margin_only = self_play_total("mcts:iters=500,threads=1,own=0", 1, 3);
    int own = self_play_total("mcts:iters=500,threads=1,own=1", 1, 3);
    if (own <= margin_only)
        fail_msg("own=1 scored %d over 3 games, own=0 %d", own, margin_only);
}

/* The win term changes what the search prefers: from the same seed (the
 * same sampled decks), a search for the win alone and one for the margin
 * alone choose differently in some of these midgame positions. */
static void test_win_weight(void **state)
{
    (void)state;
    int differ = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        carc_game *g = sup_random_game(2, seed, 30, 0.3);
        carc_player *margin = player("mcts:iters=3000,threads=1,win=0", 7);
        carc_player *win = player("mcts:iters=3000,threads=1,win=1", 7);
        carc_move a, b;
        assert_int_equal(carc_player_choose(margin, g, &a, NULL), CARC_OK);
        assert_int_equal(carc_player_choose(win, g, &b, NULL), CARC_OK);
        assert_legal(g, b);
        differ += !carc_move_equal(a, b);
        carc_player_free(margin);
        carc_player_free(win);
        carc_game_free(g);
    }
    if (differ == 0)
        fail_msg("win=1 chose as win=0 in all 6 positions");
}

/* The searches' memory report counts a state of the game's own layout:
 * seven or eight players take the wide one in the base game too. */
static void test_state_bytes(void **state)
{
    (void)state;
    carc_rules standard = carc_rules_standard(), wide = standard;
    wide.expansions = CARC_EXPANSION_RIVER;
    assert_true(carc_game_size(&wide) > carc_game_size(&standard));
    for (int players = 2; players <= CARC_MAX_PLAYERS; players++) {
        carc_game *g = carc_game_new(players, &standard, 5);
        assert_non_null(g);
        size_t want = players > 6 ? carc_game_size(&wide) : carc_game_size(&standard);
        assert_int_equal(ai_state_bytes(g), want);
        carc_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_legal_every_phase),
        cmocka_unit_test(test_discard),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_time_budget),
        cmocka_unit_test(test_stop),
        cmocka_unit_test(test_rank),
        cmocka_unit_test(test_exact_endgame),
        cmocka_unit_test(test_evaluate),
        cmocka_unit_test(test_state_bytes),
        cmocka_unit_test(test_greedy_beats_random),
        cmocka_unit_test(test_own_weight),
        cmocka_unit_test(test_win_weight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
