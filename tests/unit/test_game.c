/* test_game.c: a game's life through the API: creation and reset, copies,
 * the drawn tile and the pile, determinism, turn order, and failing calls
 * that must leave the game as it was. */
#include "support.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static snapshot snap_a, snap_b; /* large: kept out of the stack */

static void assert_same_games(const carc_game *a, const carc_game *b)
{
    sup_snapshot(a, &snap_a);
    sup_snapshot(b, &snap_b);
    sup_assert_same(&snap_a, &snap_b);
}

static carc_event play_events[CARC_MAX_EVENTS];

/* Plays a random move; returns it. */
static carc_move play_random(carc_game *g, carc_rng *rng, double chance)
{
    carc_move m = carc_random_move(g, rng, chance);
    assert_int_equal(carc_game_play(g, m, play_events, CARC_MAX_EVENTS, NULL), CARC_OK);
    return m;
}

static void test_new_game(void **state)
{
    (void)state;
    assert_null(carc_game_new(1, NULL, 0));
    assert_null(carc_game_new(9, NULL, 0));
    assert_null(carc_game_new(0, NULL, 0));
    assert_null(carc_game_new(-3, NULL, 0));
    assert_true(carc_game_size(NULL) > 0);
    for (int n = CARC_MIN_PLAYERS; n <= CARC_MAX_PLAYERS; n++) {
        carc_game *g = sup_game(n, (uint64_t)n);
        assert_int_equal(carc_game_players(g), n);
        assert_int_equal(carc_game_rules(g).flags, 0);
        assert_int_equal(carc_game_current_player(g), 0);
        assert_false(carc_game_over(g));
        assert_false(carc_game_ended_early(g));
        assert_int_equal(carc_game_move_count(g), 0);
        assert_string_equal(carc_game_error(g), "");
        for (int p = 0; p < n; p++) {
            assert_int_equal(carc_game_supply(g, p), CARC_FOLLOWERS);
            assert_int_equal(carc_game_score(g, p), 0);
        }
        /* Everybody leads at 0. */
        assert_int_equal(carc_game_leaders(g), (1u << n) - 1);
        /* The start tile alone. */
        assert_int_equal(carc_game_tile_count(g), 1);
        carc_tile_on_board t;
        assert_int_equal(carc_game_tile_info(g, 0, &t), CARC_OK);
        assert_int_equal(t.x, 0);
        assert_int_equal(t.y, 0);
        assert_int_equal(t.kind, carc_tile_parse("D"));
        assert_int_equal(t.rot, 0);
        assert_int_equal(t.follower_segment, CARC_NO_SPOT);
        assert_int_equal(carc_game_tile_at(g, 0, 0), 0);
        assert_int_equal(carc_game_tile_at(g, 1, 0), -1);
        int b[4] = {9, 9, 9, 9};
        carc_game_bounds(g, &b[0], &b[1], &b[2], &b[3]);
        assert_int_equal(b[0] | b[1] | b[2] | b[3], 0);
        /* 71 in the pile, one of them drawn. */
        int counts[CARC_MAX_KINDS] = {0};
        assert_int_equal(carc_game_tiles_left(g, counts), 70);
        int drawn = carc_game_drawn_tile(g);
        assert_in_range(drawn, 0, BASE_KINDS - 1);
        for (int k = 0; k < BASE_KINDS; k++)
            assert_int_equal(counts[k] + (k == drawn),
                             carc_tile(k)->count - (k == carc_tile_parse("D")));
        carc_game_free(g);
    }
}

static void test_reset_is_new(void **state)
{
    (void)state;
    carc_rules rules = {.flags = CARC_RULE_SMALL_CITY};
    carc_game *g = sup_game(3, 42);
    carc_rng rng = carc_rng_seed(1);
    for (int i = 0; i < 20; i++)
        play_random(g, &rng, 0.5);
    assert_int_equal(carc_game_reset(g, 4, &rules, 7), CARC_OK);
    carc_game *h = carc_game_new(4, &rules, 7);
    assert_non_null(h);
    assert_same_games(g, h);
    carc_rng r1 = carc_rng_seed(5), r2 = carc_rng_seed(5);
    while (!carc_game_over(g)) {
        play_random(g, &r1, 0.5);
        play_random(h, &r2, 0.5);
        assert_same_games(g, h);
    }
    /* A bad reset changes nothing. */
    sup_snapshot(g, &snap_a);
    assert_int_equal(carc_game_reset(g, 9, NULL, 1), CARC_EINVAL);
    assert_int_equal(carc_game_reset(g, 1, NULL, 1), CARC_EINVAL);
    sup_snapshot(g, &snap_b);
    sup_assert_same(&snap_a, &snap_b);
    assert_int_equal(carc_game_reset(NULL, 2, NULL, 1), CARC_EINVAL);
    /* Reset with NULL rules: the standard rules. */
    assert_int_equal(carc_game_reset(g, 2, NULL, 3), CARC_OK);
    assert_int_equal(carc_game_rules(g).flags, 0);
    carc_game_free(g);
    carc_game_free(h);
}

/* A game of `players` copied into a finished game of `other_players` (the
 * same layout), whose board and grid hold more: the copy plays on as the
 * original does. */
static void check_copy(int players, int other_players)
{
    carc_game *a = sup_game(players, 3);
    carc_rng rng = carc_rng_seed(3);
    for (int i = 0; i < 25; i++)
        play_random(a, &rng, 0.7);
    /* Into a game in another state: a finished game with more segments. */
    carc_game *b = sup_game(other_players, 99);
    carc_rng other = carc_rng_seed(8);
    while (!carc_game_over(b))
        play_random(b, &other, 0.5);
    carc_game_copy(b, a);
    assert_same_games(a, b);
    /* The original is untouched by the copy's moves. */
    sup_snapshot(a, &snap_a);
    static snapshot before;
    memcpy(&before, &snap_a, sizeof before);
    carc_rng rb = rng;
    for (int i = 0; i < 10; i++)
        play_random(b, &rb, 0.7);
    sup_snapshot(a, &snap_a);
    sup_assert_same(&before, &snap_a);
    /* Same moves on both from the copy: same games, same events. */
    carc_game_copy(b, a);
    carc_rng r1 = rng, r2 = rng;
    while (!carc_game_over(a)) {
        carc_event ea[CARC_MAX_EVENTS], eb[CARC_MAX_EVENTS];
        int na = -1, nb = -2;
        carc_move m1 = carc_random_move(a, &r1, 0.5), m2 = carc_random_move(b, &r2, 0.5);
        assert_memory_equal(&m1, &m2, sizeof m1);
        assert_int_equal(carc_game_play(a, m1, ea, CARC_MAX_EVENTS, &na), CARC_OK);
        assert_int_equal(carc_game_play(b, m2, eb, CARC_MAX_EVENTS, &nb), CARC_OK);
        assert_int_equal(na, nb);
        for (int i = 0; i < na; i++) {
            assert_int_equal(ea[i].kind, eb[i].kind);
            assert_int_equal(ea[i].points, eb[i].points);
            assert_int_equal(ea[i].winners, eb[i].winners);
            assert_int_equal(ea[i].tiles, eb[i].tiles);
            assert_memory_equal(ea[i].returned, eb[i].returned, sizeof ea[i].returned);
        }
        assert_same_games(a, b);
    }
    /* A clone is a copy too; copying onto itself changes nothing. */
    carc_game *c = carc_game_clone(a);
    assert_non_null(c);
    assert_same_games(a, c);
    carc_game_copy(a, a);
    assert_same_games(a, c);
    carc_game_free(a);
    carc_game_free(b);
    carc_game_free(c);
}

/* Both layouts: the base one copies its grid whole, the wide one (seven
 * and eight players, the expansions) only the cells either game uses. */
static void test_copy(void **state)
{
    (void)state;
    check_copy(5, 2);
    check_copy(7, 8);
    check_copy(8, 7);
}

static void test_determinism(void **state)
{
    (void)state;
    for (int n = 2; n <= 6; n++) {
        carc_game *a = sup_game(n, 123), *b = sup_game(n, 123);
        carc_rng r1 = carc_rng_seed(9), r2 = carc_rng_seed(9);
        assert_same_games(a, b);
        while (!carc_game_over(a)) {
            play_random(a, &r1, 0.5);
            play_random(b, &r2, 0.5);
            assert_same_games(a, b);
        }
        carc_game_free(a);
        carc_game_free(b);
    }
    /* Another seed deals another pile. */
    int differ = 0;
    for (uint64_t s = 1; s <= 5; s++) {
        carc_game *a = sup_game(2, s), *b = sup_game(2, s + 100);
        carc_rng r1 = carc_rng_seed(1), r2 = carc_rng_seed(1);
        for (int i = 0; i < 20 && !differ; i++) {
            differ |= carc_game_drawn_tile(a) != carc_game_drawn_tile(b);
            play_random(a, &r1, 0);
            play_random(b, &r2, 0);
        }
        carc_game_free(a);
        carc_game_free(b);
    }
    assert_true(differ);
}

/* Tiles in the pile and drawn, plus those placed and discarded: the set. */
static void check_tile_conservation(const carc_game *g)
{
    int counts[CARC_MAX_KINDS], seen[CARC_MAX_KINDS] = {0};
    int left = carc_game_tiles_left(g, counts);
    int sum = 0;
    for (int k = 0; k < BASE_KINDS; k++) {
        assert_true(counts[k] >= 0);
        seen[k] += counts[k];
        sum += counts[k];
    }
    assert_int_equal(sum, left);
    if (!carc_game_over(g))
        seen[carc_game_drawn_tile(g)]++;
    for (int t = 0; t < carc_game_tile_count(g); t++) {
        carc_tile_on_board info;
        assert_int_equal(carc_game_tile_info(g, t, &info), CARC_OK);
        seen[info.kind]++;
    }
    for (int i = 0; i < carc_game_move_count(g); i++) {
        carc_move m;
        int kind;
        assert_int_equal(carc_game_move_at(g, i, &m, &kind), CARC_OK);
        if (m.type == CARC_MOVE_DISCARD)
            seen[kind]++;
    }
    for (int k = 0; k < BASE_KINDS; k++)
        assert_int_equal(seen[k], carc_tile(k)->count);
}

static void test_choose_tile(void **state)
{
    (void)state;
    carc_game *g = sup_game(2, 17);
    int before[CARC_MAX_KINDS] = {0}, after[CARC_MAX_KINDS] = {0};
    for (int k = 0; k < BASE_KINDS; k++) {
        int old = carc_game_drawn_tile(g);
        assert_int_equal(carc_game_tiles_left(g, before), 70);
        if (before[k] == 0 && k != old)
            continue;
        assert_int_equal(carc_game_choose_tile(g, k), CARC_OK);
        assert_int_equal(carc_game_drawn_tile(g), k);
        assert_int_equal(carc_game_tiles_left(g, after), 70);
        for (int j = 0; j < BASE_KINDS; j++) {
            int want = before[j];
            if (k != old)
                want += (j == old) - (j == k);
            assert_int_equal(after[j], want);
        }
        check_tile_conservation(g);
    }
    /* Choosing the drawn tile again changes nothing. */
    sup_snapshot(g, &snap_a);
    assert_int_equal(carc_game_choose_tile(g, carc_game_drawn_tile(g)), CARC_OK);
    sup_snapshot(g, &snap_b);
    sup_assert_same(&snap_a, &snap_b);
    /* Bad kinds. */
    assert_int_equal(carc_game_choose_tile(g, -1), CARC_EINVAL);
    assert_int_equal(carc_game_choose_tile(g, CARC_MAX_KINDS), CARC_EINVAL);
    assert_int_equal(carc_game_choose_tile(g, 1000), CARC_EINVAL);
    sup_snapshot(g, &snap_b);
    sup_assert_same(&snap_a, &snap_b);
    /* The only C, placed: none left. */
    sup_play_ok(g, "C 0 -1 0", NULL, 0);
    sup_snapshot(g, &snap_a);
    assert_int_equal(carc_game_choose_tile(g, carc_tile_parse("C")), CARC_EILLEGAL);
    assert_string_not_equal(carc_game_error(g), "");
    sup_snapshot(g, &snap_b);
    sup_assert_same(&snap_a, &snap_b);
    check_tile_conservation(g);
    /* Through a whole game, choosing a random kind before each move. */
    carc_rng rng = carc_rng_seed(4);
    while (!carc_game_over(g)) {
        int counts[CARC_MAX_KINDS] = {0};
        carc_game_tiles_left(g, counts);
        int k = (int)carc_rng_below(&rng, (uint32_t)carc_tile_kinds());
        carc_status st = carc_game_choose_tile(g, k);
        assert_int_equal(st,
                         counts[k] > 0 || k == carc_game_drawn_tile(g) ? CARC_OK : CARC_EILLEGAL);
        play_random(g, &rng, 0.5);
        check_tile_conservation(g);
    }
    assert_int_equal(carc_game_choose_tile(g, 0), CARC_EOVER);
    carc_game_free(g);
}

/* The kinds drawn while playing `g` out with random moves. */
static int draw_sequence(const carc_game *src, uint64_t seed, int *kinds)
{
    carc_game *g = carc_game_clone(src);
    assert_non_null(g);
    carc_rng rng = carc_rng_seed(seed);
    int n = 0;
    while (!carc_game_over(g)) {
        kinds[n++] = carc_game_drawn_tile(g);
        play_random(g, &rng, 0.5);
    }
    carc_game_free(g);
    return n;
}

static void test_shuffle_pile(void **state)
{
    (void)state;
    carc_game *g = sup_game(3, 21);
    carc_rng rng = carc_rng_seed(2);
    for (int i = 0; i < 15; i++)
        play_random(g, &rng, 0.5);
    int before[CARC_MAX_KINDS] = {0}, after[CARC_MAX_KINDS] = {0};
    int left = carc_game_tiles_left(g, before);
    before[carc_game_drawn_tile(g)]++;
    sup_snapshot(g, &snap_a);
    carc_game *h = carc_game_clone(g);
    assert_non_null(h);
    carc_game_shuffle_pile(g, 1);
    carc_game_shuffle_pile(h, 1);
    assert_same_games(g, h);
    assert_int_equal(carc_game_tiles_left(g, after), left);
    after[carc_game_drawn_tile(g)]++;
    assert_memory_equal(before, after, sizeof before);
    /* The board, scores and history are untouched. */
    sup_snapshot(g, &snap_b);
    assert_int_equal(snap_a.ntiles, snap_b.ntiles);
    assert_memory_equal(snap_a.tiles, snap_b.tiles, sizeof snap_a.tiles);
    assert_memory_equal(snap_a.score, snap_b.score, sizeof snap_a.score);
    assert_memory_equal(snap_a.supply, snap_b.supply, sizeof snap_a.supply);
    assert_int_equal(snap_a.current, snap_b.current);
    assert_string_equal(snap_a.record, snap_b.record);
    /* Other seeds, other orders; the same seed, the same order. */
    int seq1[BASE_GAME_PILE], seq2[BASE_GAME_PILE], seq3[BASE_GAME_PILE];
    int n1 = draw_sequence(g, 5, seq1), n2 = draw_sequence(h, 5, seq2);
    assert_int_equal(n1, n2);
    assert_memory_equal(seq1, seq2, (size_t)n1 * sizeof seq1[0]);
    carc_game_shuffle_pile(h, 2);
    int n3 = draw_sequence(h, 5, seq3);
    assert_true(n3 != n1 || memcmp(seq1, seq3, (size_t)n1 * sizeof seq1[0]) != 0);
    /* After the end there is nothing to shuffle. */
    while (!carc_game_over(g))
        play_random(g, &rng, 0.5);
    sup_snapshot(g, &snap_a);
    carc_game_shuffle_pile(g, 3);
    sup_snapshot(g, &snap_b);
    sup_assert_same(&snap_a, &snap_b);
    carc_game_free(g);
    carc_game_free(h);
}

static void test_turn_order(void **state)
{
    (void)state;
    int discards = 0;
    for (int n = 2; n <= 6; n++)
        for (uint64_t seed = 0; seed < 40; seed++) {
            carc_game *g = sup_game(n, seed * 7 + (uint64_t)n);
            carc_rng rng = carc_rng_seed(seed);
            assert_int_equal(carc_game_current_player(g), 0);
            while (!carc_game_over(g)) {
                int cur = carc_game_current_player(g);
                assert_in_range(cur, 0, n - 1);
                carc_move m = play_random(g, &rng, 0.5);
                int last = carc_game_move_count(g) - 1;
                assert_int_equal(carc_game_move_player(g, last), cur);
                if (carc_game_over(g))
                    break;
                /* A discard: the same player draws again. */
                int next = m.type == CARC_MOVE_DISCARD ? cur : (cur + 1) % n;
                discards += m.type == CARC_MOVE_DISCARD;
                assert_int_equal(carc_game_current_player(g), next);
            }
            carc_game_free(g);
        }
    print_message("%d discards seen\n", discards);
}

/* Tries `m`: it must fail and leave the game exactly as it was. */
static carc_status refuse(carc_game *g, carc_move m)
{
    sup_snapshot(g, &snap_a);
    carc_event ev[4];
    memset(ev, 0x33, sizeof ev);
    int n = 77;
    carc_status st = carc_game_play(g, m, ev, 4, &n);
    assert_int_not_equal(st, CARC_OK);
    assert_string_not_equal(carc_game_error(g), "");
    sup_snapshot(g, &snap_b);
    sup_assert_same(&snap_a, &snap_b);
    assert_int_equal(ev[0].points, 0x3333);
    return st;
}

static carc_move place(int x, int y, int rot, int seg)
{
    carc_move m = {CARC_MOVE_PLACE,
                   {(int8_t)x, (int8_t)y, (uint8_t)rot, 0},
                   (uint8_t)seg,
                   CARC_FIGURE_FOLLOWER};
    return m;
}

static void test_errors_change_nothing(void **state)
{
    (void)state;
    carc_game *g = sup_game(2, 31);
    sup_play_ok(g, "E 0 -1 2 S", NULL, 0);
    sup_play_ok(g, "U 1 0 1 W", NULL, 0);
    assert_int_equal(carc_game_choose_tile(g, carc_tile_parse("U")), CARC_OK);
    assert_int_equal(refuse(g, place(0, 0, 1, CARC_NO_SPOT)), CARC_EILLEGAL);   /* taken */
    assert_int_equal(refuse(g, place(1, 0, 1, CARC_NO_SPOT)), CARC_EILLEGAL);   /* taken */
    assert_int_equal(refuse(g, place(50, 50, 1, CARC_NO_SPOT)), CARC_EILLEGAL); /* alone */
    assert_int_equal(refuse(g, place(5, 0, 1, CARC_NO_SPOT)), CARC_EILLEGAL);
    refuse(g, place(2, 0, 0, CARC_NO_SPOT)); /* road against a field */
    refuse(g, place(2, 0, 4, CARC_NO_SPOT)); /* no such rotation */
    refuse(g, place(2, 0, 255, CARC_NO_SPOT));
    refuse(g, place(2, 0, 1, 3)); /* U has 3 segments */
    refuse(g, place(2, 0, 1, 200));
    refuse(g, place(2, 0, 1, 0)); /* the road is taken */
    carc_move bad_type = place(2, 0, 1, CARC_NO_SPOT);
    bad_type.type = 2;
    refuse(g, bad_type);
    bad_type.type = 255;
    refuse(g, bad_type);
    carc_move discard = {CARC_MOVE_DISCARD, {0, 0, 0, 0}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
    assert_int_equal(refuse(g, discard), CARC_EILLEGAL); /* U fits */
    /* The same moves done right are accepted. */
    assert_int_equal(carc_game_play(g, place(2, 0, 1, 1), NULL, 0, NULL), CARC_OK);

    /* A player with no follower left. */
    carc_rng rng = carc_rng_seed(6);
    carc_placement p[CARC_MAX_PLACEMENTS];
    for (;;) {
        assert_false(carc_game_over(g));
        if (carc_game_supply(g, carc_game_current_player(g)) == 0 &&
            carc_legal_placements(g, p, CARC_MAX_PLACEMENTS) > 0)
            break;
        play_random(g, &rng, 1.0);
    }
    carc_spot spots[CARC_MAX_SPOTS];
    assert_int_equal(carc_legal_spots(g, p[0], spots, CARC_MAX_SPOTS), 0);
    for (int s = 0; s < carc_tile(carc_game_drawn_tile(g))->nsegments; s++)
        assert_int_equal(refuse(g, place(p[0].x, p[0].y, p[0].rot, s)), CARC_EILLEGAL);
    assert_int_equal(
        carc_game_play(g, place(p[0].x, p[0].y, p[0].rot, CARC_NO_SPOT), NULL, 0, NULL), CARC_OK);

    /* After the end. */
    while (!carc_game_over(g))
        play_random(g, &rng, 0.5);
    assert_int_equal(refuse(g, place(0, -5, 0, CARC_NO_SPOT)), CARC_EOVER);
    assert_int_equal(refuse(g, discard), CARC_EOVER);
    sup_snapshot(g, &snap_a);
    assert_int_equal(carc_game_finish(g, NULL, 0, NULL), CARC_EOVER);
    sup_snapshot(g, &snap_b);
    sup_assert_same(&snap_a, &snap_b);
    assert_int_equal(carc_legal_placements(g, p, CARC_MAX_PLACEMENTS), 0);
    assert_int_equal(carc_game_drawn_tile(g), CARC_NO_TILE);
    carc_game_free(g);
}

/* Runs `fn` in a child process: 1 when it returned, 0 when it crashed. */
static int survives(void (*fn)(void))
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* The child dies quietly: no cmocka handler, no report. */
        static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
            signal(sigs[i], SIG_DFL);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, STDOUT_FILENO);
            dup2(devnull, STDERR_FILENO);
        }
        fn();
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void port_parse_null(void)
{
    if (carc_port_parse(NULL) != -1)
        _exit(3);
}

static void rule_flag_null(void)
{
    if (carc_rule_flag(NULL) != 0)
        _exit(3);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    carc_game *g = sup_game(3, 8);
    sup_play_ok(g, "E 0 -1 2 S", NULL, 0);
    carc_tile_on_board info;
    assert_int_equal(carc_game_tile_info(g, -1, &info), CARC_EINVAL);
    assert_int_equal(carc_game_tile_info(g, 2, &info), CARC_EINVAL);
    assert_int_equal(carc_game_tile_info(g, 1000, &info), CARC_EINVAL);
    assert_int_equal(carc_game_tile_info(g, 0, NULL), CARC_EINVAL);
    assert_int_equal(carc_game_tile_at(g, 100, 100), -1);
    assert_int_equal(carc_game_tile_at(g, -1000, 5), -1);
    assert_int_equal(carc_game_tile_at(g, 0, -1), 1);
    assert_int_equal(carc_game_feature(g, -1, 0), -1);
    assert_int_equal(carc_game_feature(g, 2, 0), -1);
    assert_int_equal(carc_game_feature(g, 0, -1), -1);
    assert_int_equal(carc_game_feature(g, 0, 4), -1); /* D has 4 segments */
    assert_int_equal(carc_game_feature(g, 1, 2), -1); /* E has 2 */
    carc_feature f;
    int city = carc_game_feature(g, 0, 0);
    assert_true(city >= 0);
    assert_int_equal(carc_game_feature_info(g, city, &f), CARC_OK);
    assert_int_equal(carc_game_feature_info(g, city, NULL), CARC_EINVAL);
    assert_int_equal(carc_game_feature_info(g, -1, &f), CARC_EINVAL);
    assert_int_equal(carc_game_feature_info(g, 100000, &f), CARC_EINVAL);
    assert_int_equal(carc_game_feature_info(g, 65535, &f), CARC_EINVAL);
    assert_true(carc_game_feature_has(g, city, 0, 0));
    assert_true(carc_game_feature_has(g, city, 1, 0));
    assert_false(carc_game_feature_has(g, city, 1, 1));
    assert_false(carc_game_feature_has(g, city, -1, 0));
    assert_false(carc_game_feature_has(g, city, 0, 9));
    assert_false(carc_game_feature_has(g, -1, 0, 0));
    carc_move m;
    int kind;
    assert_int_equal(carc_game_move_at(g, -1, &m, &kind), CARC_EINVAL);
    assert_int_equal(carc_game_move_at(g, 1, &m, &kind), CARC_EINVAL);
    assert_int_equal(carc_game_move_at(g, 0, NULL, NULL), CARC_OK);
    assert_int_equal(carc_game_move_player(g, 0), 0);
    assert_int_equal(carc_game_move_player(g, 1), -1);
    assert_int_equal(carc_game_move_player(g, -1), -1);
    assert_int_equal(carc_game_score(g, -1), 0);
    assert_int_equal(carc_game_score(g, 3), 0);
    assert_int_equal(carc_game_score(g, 0), 4);
    assert_int_equal(carc_game_supply(g, -1), 0);
    assert_int_equal(carc_game_supply(g, 6), 0);
    assert_int_equal(carc_game_score_of(g, 0, (carc_kind)4), 0);
    assert_int_equal(carc_game_score_of(g, 0, (carc_kind)-1), 0);
    assert_int_equal(carc_game_score_of(g, 5, CARC_CITY), 0);
    assert_int_equal(carc_game_tiles_left(g, NULL), 69);
    carc_game_bounds(g, NULL, NULL, NULL, NULL);
    int y0 = 5;
    carc_game_bounds(g, NULL, &y0, NULL, NULL);
    assert_int_equal(y0, -1);
    /* Spots for squares the tile cannot go on. */
    carc_spot spots[CARC_MAX_SPOTS];
    carc_placement far = {100, 100, 0, 0}, taken = {0, 0, 0, 0}, rot = {1, 0, 7, 0};
    assert_int_equal(carc_legal_spots(g, far, spots, CARC_MAX_SPOTS), 0);
    assert_int_equal(carc_legal_spots(g, taken, spots, CARC_MAX_SPOTS), 0);
    assert_int_equal(carc_legal_spots(g, rot, spots, CARC_MAX_SPOTS), 0);
    assert_string_not_equal(carc_game_error(NULL), "");
    carc_game_free(NULL);
    /* Records from nothing. */
    carc_record_error err;
    assert_null(carc_record_read(NULL, 0, 0, &err));
    assert_int_equal(err.line, 1);
    assert_null(carc_record_read("", 0, 0, NULL));
    /* Rule names (docs/record-extensions.md). */
    static const struct {
        uint32_t flag;
        const char *name;
    } names[] = {
        {CARC_RULE_FARMS_FIRST_EDITION, "farms-first-edition"},
        {CARC_RULE_SMALL_CITY, "small-city"},
        {CARC_RULE_NO_INCOMPLETE, "no-incomplete-scoring"},
        {CARC_RULE_BONUS_TURN, "bonus-turn"},
    };
    for (int i = 0; i < 4; i++) {
        assert_int_equal(carc_rule_flag(names[i].name), names[i].flag);
        assert_string_equal(carc_rule_name(names[i].flag), names[i].name);
    }
    assert_int_equal(carc_rule_flag("bogus"), 0);
    assert_int_equal(carc_rule_flag(""), 0);
    assert_int_equal(carc_rule_flag("Small-City"), 0);
    assert_null(carc_rule_name(0));
    assert_null(carc_rule_name(CARC_RULE_SMALL_CITY | CARC_RULE_BONUS_TURN));
    assert_null(carc_rule_name(1u << 20));
    /* Expansions' words and titles. */
    assert_string_equal(carc_expansion_name(CARC_EXPANSION_RIVER), "river");
    assert_string_equal(carc_expansion_title(CARC_EXPANSION_RIVER), "The River");
    assert_string_equal(carc_expansion_title(CARC_EXPANSION_INNS_CATHEDRALS), "Inns & Cathedrals");
    assert_string_equal(carc_expansion_title(CARC_EXPANSION_TRADERS_BUILDERS),
                        "Traders & Builders");
    assert_null(carc_expansion_title(0));
    assert_null(carc_expansion_title(CARC_EXPANSION_RIVER | CARC_EXPANSION_INNS_CATHEDRALS));
    assert_null(carc_expansion_title(1u << 20));
    assert_int_equal(carc_rules_standard().flags, 0);
    carc_game_free(g);
}

/* NULL names are bad arguments like unknown names (CARC_EINVAL's "NULL"):
 * refused, not a crash. */
static void test_null_names(void **state)
{
    (void)state;
    int port_ok = survives(port_parse_null), rule_ok = survives(rule_flag_null);
    if (!port_ok || !rule_ok)
        fail_msg("carc_port_parse(NULL) %s; carc_rule_flag(NULL) %s",
                 port_ok ? "returns -1" : "crashes", rule_ok ? "returns 0" : "crashes");
}

/* carc_game_play_random plays what carc_random_move would choose. */
static void test_play_random_matches(void **state)
{
    (void)state;
    for (int i = 0; i < 50; i++) {
        carc_game *a = sup_game(2 + i % 5, 600u + (uint64_t)i);
        carc_game *b = carc_game_clone(a);
        assert_non_null(b);
        carc_rng r1 = carc_rng_seed((uint64_t)i), r2 = carc_rng_seed((uint64_t)i);
        double chance = (i % 3) * 0.5;
        while (!carc_game_over(a)) {
            carc_move want = carc_random_move(a, &r1, chance), got;
            memset(&got, 0xAB, sizeof got);
            assert_int_equal(carc_game_play(a, want, NULL, 0, NULL), CARC_OK);
            assert_int_equal(carc_game_play_random(b, &r2, chance, &got), CARC_OK);
            assert_memory_equal(&want, &got, sizeof want);
            assert_int_equal(r1.state, r2.state);
            assert_same_games(a, b);
        }
        carc_move none;
        assert_int_not_equal(carc_game_play_random(b, &r2, 0.5, &none), CARC_OK);
        assert_int_equal(carc_game_play_random(a, &r1, 0.5, NULL), CARC_EOVER);
        carc_game_free(a);
        carc_game_free(b);
    }
}

/* A guessed order depends on the seed and on the counts left, not on the
 * hidden order it replaces; the drawn tile stays. */
static void test_shuffle_hidden(void **state)
{
    (void)state;
    carc_game *a = sup_random_game(2, 31, 20, 0.5);
    carc_game *b = carc_game_clone(a);
    int drawn = carc_game_drawn_tile(a);
    carc_game_shuffle_hidden(b, 1234); /* another hidden order, same counts */
    carc_game_shuffle_hidden(a, 77);
    carc_game_shuffle_hidden(b, 77);
    assert_int_equal(carc_game_drawn_tile(a), drawn);
    assert_int_equal(carc_game_drawn_tile(b), drawn);
    int ca[CARC_MAX_KINDS] = {0}, cb[CARC_MAX_KINDS] = {0};
    assert_int_equal(carc_game_tiles_left(a, ca), carc_game_tiles_left(b, cb));
    assert_memory_equal(ca, cb, sizeof ca);
    carc_rng ra = carc_rng_seed(5), rb = carc_rng_seed(5);
    while (!carc_game_over(a)) {
        assert_int_equal(carc_game_drawn_tile(a), carc_game_drawn_tile(b));
        carc_game_play_random(a, &ra, 0.5, NULL);
        carc_game_play_random(b, &rb, 0.5, NULL);
    }
    assert_true(carc_game_over(b));
    assert_int_equal(carc_game_score(a, 0), carc_game_score(b, 0));
    carc_game_free(a);
    carc_game_free(b);
}

/* A hidden deal's order is what carc_game_deal() reports, and the draws
 * follow it tile by tile (the shuffle is taken as the draws reach it:
 * pile.h), whatever else is asked of the game on the way: the report
 * changes nothing, and a copy given the same order and generator by
 * carc_game_set_deal() plays on alike (draws, choose_tile, a view). */
static void test_hidden_deal_draws_its_order(void **state)
{
    (void)state;
    static const uint32_t sets[] = {0, CARC_EXPANSION_RIVER | CARC_EXPANSION_INNS_CATHEDRALS |
                                           CARC_EXPANSION_TRADERS_BUILDERS};
    for (int i = 0; i < 24; i++) {
        carc_rules rules = carc_rules_standard();
        rules.expansions = sets[i % 2];
        carc_game *a = carc_game_new(2 + i % 3, &rules, 900u + (uint64_t)i);
        assert_non_null(a);
        carc_rng r = carc_rng_seed((uint64_t)i);
        for (int k = 0; k < (i % 4) * 9 && !carc_game_over(a); k++) /* river phase too */
            assert_int_equal(carc_game_play_random(a, &r, 0.5, NULL), CARC_OK);
        carc_game_shuffle_hidden(a, 4000u + (uint64_t)i);
        int order[CARC_MAX_TILES], again[CARC_MAX_TILES];
        uint64_t gen = 0, gen_again = 1;
        int n = carc_game_deal(a, order, CARC_MAX_TILES, &gen);
        assert_int_equal(carc_game_deal(a, again, CARC_MAX_TILES, &gen_again), n);
        assert_memory_equal(order, again, sizeof order[0] * (size_t)n);
        assert_int_equal(gen, gen_again);
        carc_game *b = carc_game_clone(a);
        assert_non_null(b);
        assert_int_equal(carc_game_set_deal(b, order, n, gen), CARC_OK);
        if (i % 3 == 0 && n > 3) {                               /* a record names the drawn tile */
            carc_status st = carc_game_choose_tile(a, order[2]); /* refused in the river */
            assert_int_equal(carc_game_choose_tile(b, order[2]), st);
            n = carc_game_deal(a, order, CARC_MAX_TILES, &gen);
        }
        carc_rng ra = carc_rng_seed(77u + (uint64_t)i), rb = ra;
        int next = 0; /* tiles taken from the pile */
        while (!carc_game_over(a)) {
            assert_int_equal(carc_game_drawn_tile(a), carc_game_drawn_tile(b));
            int before = carc_game_tiles_left(a, NULL);
            assert_int_equal(carc_game_play_random(a, &ra, 0.5, NULL), CARC_OK);
            assert_int_equal(carc_game_play_random(b, &rb, 0.5, NULL), CARC_OK);
            int taken = before - carc_game_tiles_left(a, NULL);
            assert_in_range(taken, 0, 1);
            next += taken;
            if (taken && !carc_game_over(a)) /* the order's next tile */
                assert_int_equal(carc_game_drawn_tile(a), order[next - 1]);
        }
        assert_int_equal(next, n);
        uint64_t end_a = 0, end_b = 1;
        int none[1];
        carc_game_deal(a, none, 0, &end_a);
        carc_game_deal(b, none, 0, &end_b);
        assert_int_equal(end_a, end_b);
        assert_same_games(a, b);
        carc_game_free(a);
        carc_game_free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_game),
        cmocka_unit_test(test_reset_is_new),
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_choose_tile),
        cmocka_unit_test(test_shuffle_pile),
        cmocka_unit_test(test_turn_order),
        cmocka_unit_test(test_errors_change_nothing),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_null_names),
        cmocka_unit_test(test_play_random_matches),
        cmocka_unit_test(test_shuffle_hidden),
        cmocka_unit_test(test_hidden_deal_draws_its_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
