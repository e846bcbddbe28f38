/* test_tile_info.c: draw chances and dead spots on known positions, and
 * dead spots checked against the engine's own legality on random games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tile_info.h"

static int kind_of(char letter)
{
    return carc_tile_parse_n(&letter, 1);
}

static void test_chances_at_start(void **state)
{
    (void)state;
    carc_game *g = carc_game_new(2, NULL, 11);
    assert_non_null(g);
    assert_int_equal(carc_game_choose_tile(g, kind_of('U')), CARC_OK);
    int counts[CARC_MAX_KINDS] = {0};
    int left = tile_info_counts(g, counts, 0);
    assert_int_equal(left, 70);
    assert_int_equal(counts[kind_of('U')], 7); /* 8 in the set, one drawn */
    assert_int_equal(counts[kind_of('D')], 3); /* 4, one is the start tile */
    assert_true(tile_info_chance(counts[kind_of('U')], left) > 0.0999);
    assert_true(tile_info_chance(counts[kind_of('U')], left) < 0.1001);
    double sum = 0;
    for (int k = 0; k < carc_tile_kinds(); k++)
        sum += tile_info_chance(counts[k], left);
    assert_true(sum > 0.999 && sum < 1.001);
    assert_true(tile_info_chance(3, 0) == 0.0);
    tile_info_counts(g, counts, 1);
    assert_int_equal(counts[kind_of('U')], 8); /* the drawn tile included */
    carc_game_free(g);
}

static void test_needs_of_start_tile(void **state)
{
    (void)state;
    carc_game *g = carc_game_new(2, NULL, 1);
    int needs[4];
    /* North of the start tile D: its city faces south. */
    assert_int_equal(tile_info_needs(g, 0, -1, needs), 1);
    assert_int_equal(needs[2], CARC_CITY);
    assert_int_equal(needs[0], TILE_INFO_NO_NEIGHBOUR);
    assert_int_equal(tile_info_needs(g, 1, 0, needs), 1);
    assert_int_equal(needs[3], CARC_ROAD);
    assert_int_equal(tile_info_needs(g, 5, 5, needs), 0);
    carc_game_free(g);
}

static void test_kind_fits(void **state)
{
    (void)state;
    int road_ns[4] = {CARC_ROAD, TILE_INFO_NO_NEIGHBOUR, CARC_ROAD, TILE_INFO_NO_NEIGHBOUR};
    assert_true(tile_info_kind_fits(kind_of('U'), road_ns));
    assert_false(tile_info_kind_fits(kind_of('V'), road_ns));
    /* A city on top, a road on the left, fields on the right and at the
     * bottom: no tile has that, in any expansion (its mirror image, city,
     * road, field, field, is Traders & Builders' TP; city, road, city,
     * field is TQ's, so no longer impossible). */
    int impossible[4] = {CARC_CITY, CARC_FIELD, CARC_FIELD, CARC_ROAD};
    int three_cities[4] = {CARC_CITY, CARC_ROAD, CARC_CITY, TILE_INFO_NO_NEIGHBOUR};
    assert_true(tile_info_kind_fits(kind_of('S'), three_cities));
    for (int k = 0; k < carc_tile_kinds(); k++)
        assert_false(tile_info_kind_fits(k, impossible));
    int city_all[4] = {CARC_CITY, CARC_CITY, CARC_CITY, CARC_CITY};
    assert_true(tile_info_kind_fits(kind_of('C'), city_all));
}

/* Start position, and only U tiles left: the square north of the start
 * tile needs a city edge, which U lacks; east, west and south fit U. */
static void test_dead_spot_when_only_u_is_left(void **state)
{
    (void)state;
    carc_game *g = carc_game_new(2, NULL, 1);
    int counts[CARC_MAX_KINDS] = {0};
    counts[kind_of('U')] = 8;
    tile_square dead[8];
    assert_int_equal(tile_info_dead_spots_for(g, counts, dead, 8), 1);
    assert_int_equal(dead[0].x, 0);
    assert_int_equal(dead[0].y, -1);
    counts[kind_of('E')] = 1; /* a city edge: no dead spot */
    assert_int_equal(tile_info_dead_spots_for(g, counts, dead, 8), 0);
    assert_int_equal(tile_info_dead_spots(g, dead, 8), 0);
    carc_game_free(g);
}

/* Whether some tile that can still come fits (x, y), asked of the engine:
 * each kind is drawn in turn and its placements there checked. */
static int engine_says_fillable(const carc_game *g, int x, int y)
{
    int counts[CARC_MAX_KINDS] = {0};
    tile_info_counts(g, counts, 1);
    carc_game *probe = carc_game_clone(g);
    int fillable = 0;
    for (int k = 0; k < carc_tile_kinds() && !fillable; k++) {
        if (counts[k] == 0)
            continue;
        assert_int_equal(carc_game_choose_tile(probe, k), CARC_OK);
        for (int rot = 0; rot < 4; rot++) {
            carc_placement p = {(int8_t)x, (int8_t)y, (uint8_t)rot, 0};
            fillable |= carc_placement_legal(probe, p);
        }
    }
    carc_game_free(probe);
    return fillable;
}

static int is_listed(const tile_square *list, int n, int x, int y)
{
    for (int i = 0; i < n; i++)
        if (list[i].x == x && list[i].y == y)
            return 1;
    return 0;
}

/* Every open square of the position: dead exactly when the engine finds
 * no tile to put there. */
static void check_position(const carc_game *g)
{
    static tile_square dead[TILE_INFO_MAX_SQUARES];
    int ndead = tile_info_dead_spots(g, dead, TILE_INFO_MAX_SQUARES);
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    for (int i = 0; i < carc_game_tile_count(g); i++) {
        carc_tile_on_board t;
        assert_int_equal(carc_game_tile_info(g, i, &t), CARC_OK);
        for (int e = 0; e < 4; e++) {
            int x = t.x + dx[e], y = t.y + dy[e];
            if (carc_game_tile_at(g, x, y) >= 0)
                continue;
            assert_int_equal(is_listed(dead, ndead, x, y), !engine_says_fillable(g, x, y));
        }
    }
}

static void test_dead_spots_agree_with_engine(void **state)
{
    (void)state;
    int dead_seen = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        carc_game *g = carc_game_new(2 + (int)(seed % 3), NULL, seed);
        carc_rng rng = carc_rng_seed(seed);
        while (!carc_game_over(g)) {
            if (carc_game_move_count(g) % 7 == 0) {
                check_position(g);
                tile_square dead[4];
                dead_seen += tile_info_dead_spots(g, dead, 4) > 0;
            }
            assert_int_equal(carc_game_play_random(g, &rng, 0.5, NULL), CARC_OK);
        }
        carc_game_free(g);
    }
    assert_true(dead_seen > 0); /* the check met real dead spots */
}

/* The pile the next tile comes from (river.md): the base game's 24 kinds;
 * with The River its river pile (RB..RL: the spring is on the board) for
 * the first ten draws after the first, the lake being the eleventh river
 * tile; once the lake is drawn, the main pile, without the river kinds. */
static void test_pile_kinds(void **state)
{
    (void)state;
    int kinds[CARC_MAX_KINDS];
    carc_game *g = carc_game_new(2, NULL, 5);
    assert_int_equal(tile_info_pile_kinds(g, kinds), 24);
    for (int i = 0; i < 24; i++)
        assert_int_equal(strlen(carc_tile_id(kinds[i])), 1);
    carc_game_free(g);
    carc_rules river = {.expansions = CARC_EXPANSION_RIVER};
    g = carc_game_new(2, &river, 5);
    assert_non_null(g);
    static const char *const river_ids[] = {"RB", "RC", "RD", "RE", "RG", "RH", "RI", "RK", "RL"};
    carc_rng rng = carc_rng_seed(7);
    for (int move = 0; move < 11; move++) {
        int n = tile_info_pile_kinds(g, kinds);
        /* The drawn tile is the (move + 1)th river tile; the next draw is
         * from the river pile until the lake is in hand. */
        if (move < 10) {
            assert_int_equal(n, 9);
            for (int i = 0; i < n; i++)
                assert_string_equal(carc_tile_id(kinds[i]), river_ids[i]);
        } else {
            assert_string_equal(carc_tile_id(carc_game_drawn_tile(g)), "RL");
            assert_int_equal(n, 24);
        }
        assert_int_equal(carc_game_play_random(g, &rng, 0.0, NULL), CARC_OK);
    }
    assert_int_equal(strlen(carc_tile_id(carc_game_drawn_tile(g))), 1);
    assert_int_equal(tile_info_pile_kinds(g, kinds), 24);
    carc_game_free(g);
    /* river-keep-start: D is in the main pile four times. */
    river.flags = CARC_RULE_RIVER_KEEP_START;
    g = carc_game_new(2, &river, 5);
    assert_int_equal(carc_game_kind_total(g, kind_of('D')), 4);
    assert_int_equal(tile_info_pile_kinds(g, kinds), 9);
    carc_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chances_at_start),
        cmocka_unit_test(test_needs_of_start_tile),
        cmocka_unit_test(test_kind_fits),
        cmocka_unit_test(test_dead_spot_when_only_u_is_left),
        cmocka_unit_test(test_dead_spots_agree_with_engine),
        cmocka_unit_test(test_pile_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
