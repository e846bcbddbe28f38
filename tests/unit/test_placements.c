/* test_placements.c: legal placements, checked like chess perft: exact
 * counts from the initial position worked out by hand and by a brute-force
 * checker written from the catalogue (support.c), and the engine's list
 * against the brute-force list at every ply of many random games. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

static model board; /* large: kept out of the stack */

static int kind_of(char letter)
{
    return carc_tile_parse_n(&letter, 1);
}

/* The engine's placements of the drawn tile, sorted; fails on duplicates
 * or on a nonzero tile byte. */
static int engine_placements(const carc_game *g, carc_placement *out)
{
    int n = carc_legal_placements(g, out, CARC_MAX_PLACEMENTS);
    assert_true(n >= 0 && n <= CARC_MAX_PLACEMENTS);
    for (int i = 0; i < n; i++) {
        assert_int_equal(out[i].tile, 0);
        assert_in_range(out[i].rot, 0, 3);
    }
    sup_sort_placements(out, n);
    for (int i = 1; i < n; i++)
        if (sup_placement_cmp(&out[i - 1], &out[i]) == 0)
            fail_msg("placement %d %d rotation %d is listed twice", out[i].x, out[i].y, out[i].rot);
    return n;
}

static void assert_same_placements(const carc_placement *want, int nwant, const carc_placement *got,
                                   int ngot, int kind)
{
    for (int i = 0, j = 0; i < nwant || j < ngot;) {
        int c = i == nwant ? 1 : j == ngot ? -1 : sup_placement_cmp(&want[i], &got[j]);
        if (c < 0)
            fail_msg("tile %c: the engine misses %d %d rotation %d", 'A' + kind, want[i].x,
                     want[i].y, want[i].rot);
        if (c > 0)
            fail_msg("tile %c: the engine allows %d %d rotation %d, which does not fit", 'A' + kind,
                     got[j].x, got[j].y, got[j].rot);
        i++;
        j++;
    }
    assert_int_equal(nwant, ngot);
}

/* --- The initial position ------------------------------------------------------ */

/* Legal placements of `letter` with only the start tile on the board. */
static int initial_count(char letter, carc_placement *out)
{
    carc_game *g = sup_game(2, 7);
    assert_int_equal(carc_game_choose_tile(g, kind_of(letter)), CARC_OK);
    assert_int_equal(carc_game_drawn_tile(g), kind_of(letter));
    int n = engine_placements(g, out);
    carc_game_free(g);
    return n;
}

static void test_initial_position_bruteforce(void **state)
{
    (void)state;
    model_clear(&board);
    model_add(&board, 0, 0, kind_of('D'), 0);
    int total = 0;
    for (int k = 0; k < BASE_KINDS; k++) {
        carc_placement want[CARC_MAX_PLACEMENTS], got[CARC_MAX_PLACEMENTS];
        int nwant = model_placements(&board, k, want, CARC_MAX_PLACEMENTS);
        int ngot = initial_count(carc_tile(k)->id[0], got);
        assert_same_placements(want, nwant, got, ngot, k);
        total += nwant;
    }
    /* Every kind fits somewhere around the start tile. */
    assert_true(total > CARC_MAX_KINDS);
}

/* The start tile D at (0, 0) has a city north, roads east and west and a
 * field south: a tile at (0,-1) needs a city on its south edge, at (1, 0) a
 * road on its west edge, at (-1, 0) a road on its east edge, at (0, 1) a
 * field on its north edge. At rotation r, board edge d shows the tile's
 * unrotated edge (d - r) mod 4. */
static void test_initial_position_by_hand(void **state)
{
    (void)state;
    carc_placement got[CARC_MAX_PLACEMENTS];
    /* E (C F F F): no road, so nothing east or west. North: the city must
     * face south, r = 2. South: the city must not face north, r = 1, 2, 3. */
    static const carc_placement e_list[] = {
        {0, -1, 2, 0},
        {0, 1, 1, 0},
        {0, 1, 2, 0},
        {0, 1, 3, 0},
    };
    assert_int_equal(initial_count('E', got), 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(sup_placement_cmp(&got[i], &e_list[i]), 0);
    /* U (R F R F): no city, so not north. East and west: a road edge must
     * face the start tile, r = 1 or 3. South: a field edge must face north,
     * r = 1 or 3. Six in all. */
    static const carc_placement u_list[] = {
        {-1, 0, 1, 0}, {-1, 0, 3, 0}, {1, 0, 1, 0}, {1, 0, 3, 0}, {0, 1, 1, 0}, {0, 1, 3, 0},
    };
    assert_int_equal(initial_count('U', got), 6);
    carc_placement want[6];
    memcpy(want, u_list, sizeof want);
    sup_sort_placements(want, 6);
    assert_same_placements(want, 6, got, 6, kind_of('U'));
    /* B (all field): only south, in all four rotations. */
    assert_int_equal(initial_count('B', got), 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(got[i].x, 0);
        assert_int_equal(got[i].y, 1);
    }
    /* C (all city): only north, four rotations. */
    assert_int_equal(initial_count('C', got), 4);
    assert_int_equal(got[0].y, -1);
    /* D (C R F R): north r = 2; east and west r = 0 or 2 (the road runs
     * east-west); south r = 2 (the field faces north). */
    assert_int_equal(initial_count('D', got), 6);
    /* X (R R R R): east and west, four rotations each. */
    assert_int_equal(initial_count('X', got), 8);
    /* A (F F R F): not north (no city). South: the road must not face
     * north, r = 0, 1, 3. East: the road faces west at r = 1; west: the
     * road faces east at r = 3. Five in all. */
    assert_int_equal(initial_count('A', got), 5);
    /* S (C C R C): north: a city must face south, r = 1, 2, 3 (only r = 0
     * puts the road there). East: the road faces west at r = 1; west: it
     * faces east at r = 3. South: no field edge. Five in all. */
    assert_int_equal(initial_count('S', got), 5);
}

static void test_placement_legal_initial(void **state)
{
    (void)state;
    carc_game *g = sup_game(3, 11);
    assert_int_equal(carc_game_choose_tile(g, kind_of('E')), CARC_OK);
    for (int y = -3; y <= 3; y++)
        for (int x = -3; x <= 3; x++)
            for (int r = 0; r < 4; r++) {
                int want = (x == 0 && y == -1 && r == 2) || (x == 0 && y == 1 && r != 0);
                carc_placement p = {(int8_t)x, (int8_t)y, (uint8_t)r, 0};
                assert_int_equal(carc_placement_legal(g, p), want);
            }
    carc_placement bad = {0, 1, 4, 0};
    assert_int_equal(carc_placement_legal(g, bad), 0);
    bad.rot = 255;
    assert_int_equal(carc_placement_legal(g, bad), 0);
    carc_placement far = {127, -128, 1, 0};
    assert_int_equal(carc_placement_legal(g, far), 0);
    carc_game_free(g);
}

static void test_small_cap(void **state)
{
    (void)state;
    carc_game *g = sup_game(2, 3);
    assert_int_equal(carc_game_choose_tile(g, kind_of('X')), CARC_OK);
    carc_placement buf[8];
    memset(buf, 0x5A, sizeof buf);
    assert_int_equal(carc_legal_placements(g, buf, 3), 8);
    for (int i = 3; i < 8; i++)
        assert_int_equal(buf[i].x, 0x5A);
    assert_int_equal(carc_legal_placements(g, NULL, 0), 8);
    carc_game_free(g);
}

/* --- Random games ------------------------------------------------------------------ */

static carc_game *scratch;

static int placement_bsearch_cmp(const void *a, const void *b)
{
    return sup_placement_cmp(a, b);
}

/* Compares the engine with the brute force for `kind` on the board of `g`
 * (which must have that tile drawn). */
static void compare_kind(const carc_game *g, int kind)
{
    carc_placement want[CARC_MAX_PLACEMENTS], got[CARC_MAX_PLACEMENTS];
    int nwant = model_placements(&board, kind, want, CARC_MAX_PLACEMENTS);
    int ngot = engine_placements(g, got);
    assert_same_placements(want, nwant, got, ngot, kind);
}

/* carc_placement_legal over every square near the board: exactly the
 * brute-force placements. */
static void compare_legal_window(const carc_game *g, int kind)
{
    int x0, y0, x1, y1;
    carc_game_bounds(g, &x0, &y0, &x1, &y1);
    for (int y = y0 - 2; y <= y1 + 2; y++)
        for (int x = x0 - 2; x <= x1 + 2; x++) {
            int here = model_tile_at(&board, x, y) >= 0;
            for (int r = 0; r < 4; r++) {
                carc_placement p = {(int8_t)x, (int8_t)y, (uint8_t)r, 0};
                int want = !here && model_fits(&board, kind, x, y, r);
                if (carc_placement_legal(g, p) != want)
                    fail_msg("carc_placement_legal(%c at %d %d rotation %d) is %d", 'A' + kind, x,
                             y, r, !want);
            }
        }
}

static void check_position(const carc_game *g, int all_kinds)
{
    int drawn = carc_game_drawn_tile(g);
    compare_kind(g, drawn);
    compare_legal_window(g, drawn);
    if (!all_kinds)
        return;
    /* Every other kind still in the pile, drawn instead on a copy. */
    int counts[CARC_MAX_KINDS] = {0};
    carc_game_tiles_left(g, counts);
    for (int k = 0; k < BASE_KINDS; k++) {
        if (k == drawn || counts[k] == 0)
            continue;
        carc_game_copy(scratch, g);
        assert_int_equal(carc_game_choose_tile(scratch, k), CARC_OK);
        compare_kind(scratch, k);
    }
}

static void play_and_track(carc_game *g, carc_move m)
{
    int kind = carc_game_drawn_tile(g);
    assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
    if (m.type == CARC_MOVE_PLACE)
        model_add(&board, m.place.x, m.place.y, kind, m.place.rot);
    assert_int_equal(carc_game_tile_count(g), board.ntiles);
}

static void test_random_games_match_bruteforce(void **state)
{
    (void)state;
    int games = sup_env_count("CARC_PLACEMENT_GAMES", 300);
    long positions = 0, discards = 0;
    scratch = sup_game(2, 0);
    for (int i = 0; i < games; i++) {
        carc_game *g = sup_game(2 + i % 5, 1000u + (uint64_t)i);
        carc_rng rng = carc_rng_seed(77u + (uint64_t)i);
        model_from_game(&board, g);
        while (!carc_game_over(g)) {
            check_position(g, i % 3 == 0);
            positions++;
            carc_move m = carc_random_move(g, &rng, 0.5);
            if (m.type == CARC_MOVE_DISCARD) {
                discards++;
                assert_int_equal(model_placements(&board, carc_game_drawn_tile(g), NULL, 0), 0);
            } else {
                assert_true(carc_placement_legal(g, m.place));
            }
            play_and_track(g, m);
        }
        carc_placement none[1];
        assert_int_equal(carc_legal_placements(g, none, 1), 0);
        carc_game_free(g);
    }
    carc_game_free(scratch);
    print_message("%ld positions of %d games (%ld discards)\n", positions, games, discards);
    assert_true(positions >= 71L * games);
}

/* carc_random_move draws its placement uniformly: over many draws at one
 * position every legal placement comes up (each is missed with probability
 * about e^-30), and nothing else does. */
static void test_random_move_covers_placements(void **state)
{
    (void)state;
    static uint32_t hits[CARC_MAX_PLACEMENTS];
    long draws = 0;
    for (int i = 0; i < 40; i++) {
        carc_game *g = sup_game(2 + i % 5, 7000u + (uint64_t)i);
        carc_rng play = carc_rng_seed((uint64_t)i), sample = carc_rng_seed(99u + (uint64_t)i);
        model_from_game(&board, g);
        while (!carc_game_over(g)) {
            carc_placement want[CARC_MAX_PLACEMENTS];
            int kind = carc_game_drawn_tile(g);
            int n = model_placements(&board, kind, want, CARC_MAX_PLACEMENTS);
            memset(hits, 0, sizeof hits);
            for (int k = 0; k < 30 * n; k++) {
                carc_move m = carc_random_move(g, &sample, 0);
                assert_int_equal(m.type, CARC_MOVE_PLACE);
                carc_placement *p =
                    bsearch(&m.place, want, (size_t)n, sizeof want[0], placement_bsearch_cmp);
                if (!p)
                    fail_msg("random move %c at %d %d rotation %d does not fit", 'A' + kind,
                             m.place.x, m.place.y, m.place.rot);
                hits[p - want]++;
            }
            draws += 30 * n;
            for (int k = 0; k < n; k++)
                if (hits[k] == 0)
                    fail_msg("%c at %d %d rotation %d is never drawn (move %d)", 'A' + kind,
                             want[k].x, want[k].y, want[k].rot, carc_game_move_count(g));
            play_and_track(g, carc_random_move(g, &play, 0.5));
        }
        carc_game_free(g);
    }
    print_message("%ld random placements drawn\n", draws);
}

/* The fused random step plays legal placements too. */
static void test_play_random_is_legal(void **state)
{
    (void)state;
    for (int i = 0; i < 60; i++) {
        carc_game *g = sup_game(2 + i % 5, 5000u + (uint64_t)i);
        carc_rng rng = carc_rng_seed((uint64_t)i);
        model_from_game(&board, g);
        while (!carc_game_over(g)) {
            int kind = carc_game_drawn_tile(g);
            int n = model_placements(&board, kind, NULL, 0);
            carc_move m;
            assert_int_equal(carc_game_play_random(g, &rng, 0.5, &m), CARC_OK);
            if (n == 0) {
                assert_int_equal(m.type, CARC_MOVE_DISCARD);
                continue;
            }
            assert_int_equal(m.type, CARC_MOVE_PLACE);
            assert_true(model_fits(&board, kind, m.place.x, m.place.y, m.place.rot));
            model_add(&board, m.place.x, m.place.y, kind, m.place.rot);
        }
        carc_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initial_position_bruteforce),
        cmocka_unit_test(test_initial_position_by_hand),
        cmocka_unit_test(test_placement_legal_initial),
        cmocka_unit_test(test_small_cap),
        cmocka_unit_test(test_random_games_match_bruteforce),
        cmocka_unit_test(test_random_move_covers_placements),
        cmocka_unit_test(test_play_random_is_legal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
