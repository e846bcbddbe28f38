/* test_move_list.c: the front ends' list of legal moves: each symmetric
 * move once at its lowest rotation, and rankings in their shown order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "move_list.h"

/* B, C and X look the same turned any way; F, G, H and U after a half
 * turn; every other tile differs in each rotation. */
static void test_canonical_rotations(void **state)
{
    (void)state;
    for (int k = 0; k < CARC_TILE_KINDS; k++) {
        char c = carc_tile(k)->letter;
        for (int r = 0; r < 4; r++) {
            int want = strchr("BCX", c) ? 0 : strchr("FGHU", c) ? r % 2 : r;
            assert_int_equal(move_list_canonical_rotation(k, r), want);
        }
    }
}

/* A game whose drawn tile is `letter`, on the start tile alone. */
static carc_game *game_with(char letter)
{
    carc_rules rules = carc_rules_standard();
    carc_game *g = carc_game_new(2, &rules, 7);
    assert_non_null(g);
    assert_int_equal(carc_game_choose_tile(g, carc_tile_kind(letter)), CARC_OK);
    return g;
}

/* U at rotation 3 east of the start tile is U at rotation 1; its road
 * follower keeps its ports. */
static void test_canonical_move(void **state)
{
    (void)state;
    carc_game *g = game_with('U');
    carc_move m;
    assert_int_equal(carc_move_parse(g, "U 1 0 3 W", &m), CARC_OK);
    carc_move listed = move_list_canonical(g, m);
    assert_int_equal(listed.place.rot, 1);
    assert_int_equal(carc_tile_segment_ports(carc_tile_kind('U'), 1, listed.segment),
                     carc_tile_segment_ports(carc_tile_kind('U'), 3, m.segment));
    char text[32];
    carc_move_write(g, listed, text, sizeof text);
    assert_string_equal(text, "U 1 0 1 E");
    carc_move discard = {CARC_MOVE_DISCARD, {0, 0, 0, 0}, CARC_NO_SPOT};
    assert_true(carc_move_equal(move_list_canonical(g, discard), discard));
    carc_game_free(g);
}

/* The listed placements are the legal ones at their lowest rotations, each
 * with its legal spots. */
static void test_placements(void **state)
{
    (void)state;
    for (const char *c = "UXEV"; *c; c++) {
        carc_game *g = game_with(*c);
        move_list_placement listed[CARC_MAX_PLACEMENTS];
        carc_placement all[CARC_MAX_PLACEMENTS];
        int n = move_list_placements(g, listed);
        int total = carc_legal_placements(g, all, CARC_MAX_PLACEMENTS), lowest = 0;
        for (int i = 0; i < total; i++)
            lowest +=
                move_list_canonical_rotation(carc_game_drawn_tile(g), all[i].rot) == all[i].rot;
        assert_int_equal(n, lowest);
        assert_true(n > 0 && (n < total) == (strchr("UX", *c) != NULL));
        for (int i = 0; i < n; i++) {
            carc_spot spots[CARC_MAX_SPOTS];
            assert_true(carc_placement_legal(g, listed[i].place));
            assert_int_equal(listed[i].nspots,
                             carc_legal_spots(g, listed[i].place, spots, CARC_MAX_SPOTS));
        }
        carc_game_free(g);
    }
}

/* Two rotations of one move are one entry, the first kept. */
static void test_dedupe(void **state)
{
    (void)state;
    carc_game *g = game_with('U');
    carc_move_eval evals[3];
    assert_int_equal(carc_move_parse(g, "U 1 0 3", &evals[0].move), CARC_OK);
    assert_int_equal(carc_move_parse(g, "U 1 0 1 E", &evals[1].move), CARC_OK);
    assert_int_equal(carc_move_parse(g, "U 1 0 1", &evals[2].move), CARC_OK);
    evals[0].visits = 1;
    evals[2].visits = 2;
    assert_int_equal(move_list_dedupe(g, evals, 3), 2);
    assert_int_equal(evals[0].move.place.rot, 1);
    assert_int_equal(evals[0].visits, 1);
    assert_int_not_equal(evals[1].move.segment, CARC_NO_SPOT);
    carc_game_free(g);
}

/* Best first by the chance to win to 0.1%, then the margin to 0.01 point,
 * then the given order. */
static void test_sort(void **state)
{
    (void)state;
    carc_move_eval evals[5] = {
        {.margin = 6.714, .win = 0.7504, .visits = 0},  /* 75.0%, +6.71 */
        {.margin = 6.721, .win = 0.7501, .visits = 1},  /* 75.0%, +6.72 */
        {.margin = 1.0, .win = 0.7512, .visits = 2},    /* 75.1% */
        {.margin = 6.7205, .win = 0.7496, .visits = 3}, /* 75.0%, +6.72: after 1 */
        {.margin = 9.0, .win = 0.5, .visits = 4},
    };
    move_list_sort(evals, 5);
    const uint32_t want[5] = {2, 1, 3, 0, 4};
    for (int i = 0; i < 5; i++)
        assert_int_equal(evals[i].visits, want[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canonical_rotations),
        cmocka_unit_test(test_canonical_move),
        cmocka_unit_test(test_placements),
        cmocka_unit_test(test_dedupe),
        cmocka_unit_test(test_sort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
