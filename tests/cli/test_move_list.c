/* test_move_list.c: the front ends' rankings: each symmetric move once at
 * its canonical rotation, in their shown order. (The canonical form and
 * the list of legal moves are the library's: tests/unit/test_moves.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "move_list.h"

/* A game whose drawn tile is `letter`, on the start tile alone. */
static carc_game *game_with(char letter)
{
    carc_rules rules = carc_rules_standard();
    carc_game *g = carc_game_new(2, &rules, 7);
    assert_non_null(g);
    assert_int_equal(carc_game_choose_tile(g, carc_tile_parse_n(&letter, 1)), CARC_OK);
    return g;
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
        cmocka_unit_test(test_dedupe),
        cmocka_unit_test(test_sort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
