/* test_spots.c: follower spots. Along random games, the spots the engine
 * offers must be exactly the segments of the placed tile whose feature
 * holds no follower, found by an independent flood fill (support.c) over
 * the board with the tile placed on a clone. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

static model board; /* large: kept out of the stack */

/* The segments the rules allow a follower on when the drawn tile of `g`
 * goes to `p`: the tile is placed on a clone without a follower, the
 * features are flooded on the clone's board, and the followers are those
 * of `g` (a feature the tile completes still counts as occupied: followers
 * go home only after the deployment). */
static unsigned expected_free(const carc_game *g, carc_placement p)
{
    carc_game *c = carc_game_clone(g);
    assert_non_null(c);
    carc_move m = {CARC_MOVE_PLACE, p, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
    assert_int_equal(carc_game_play(c, m, NULL, 0, NULL), CARC_OK);
    int n = carc_game_tile_count(g);
    assert_int_equal(carc_game_tile_count(c), n + 1);
    model_clear(&board);
    for (int t = 0; t <= n; t++) {
        carc_tile_on_board info;
        assert_int_equal(carc_game_tile_info(c, t, &info), CARC_OK);
        model_add(&board, info.x, info.y, info.kind, info.rot);
    }
    const model_tile *placed = &board.tiles[n];
    assert_int_equal(placed->x, p.x);
    assert_int_equal(placed->y, p.y);
    assert_int_equal(placed->rot, p.rot);
    assert_int_equal(placed->kind, carc_game_drawn_tile(g));
    for (int t = 0; t < n; t++) {
        carc_tile_on_board info;
        assert_int_equal(carc_game_tile_info(g, t, &info), CARC_OK);
        board.tiles[t].follower_seg =
            info.follower_segment == CARC_NO_SPOT ? -1 : info.follower_segment;
        board.tiles[t].follower_owner = info.follower_owner;
    }
    model_features(&board);
    carc_game_free(c);
    unsigned free_mask = 0;
    int nseg = carc_tile(placed->kind)->nsegments;
    for (int s = 0; s < nseg; s++)
        if (model_feature_at(&board, n, s)->nfollowers == 0)
            free_mask |= 1u << s;
    return free_mask;
}

static int cmp_spot(const void *a, const void *b)
{
    return ((const carc_spot *)a)->segment - ((const carc_spot *)b)->segment;
}

/* The engine's spots as a mask of segments, after checking each spot. */
static unsigned engine_spots(const carc_game *g, carc_placement p)
{
    carc_spot spots[CARC_MAX_SPOTS + 1];
    int kind = carc_game_drawn_tile(g);
    const carc_tile_def *def = carc_tile(kind);
    int n = carc_legal_spots(g, p, spots, CARC_MAX_SPOTS);
    assert_in_range(n, 0, def->nsegments);
    qsort(spots, (size_t)n, sizeof spots[0], cmp_spot);
    unsigned mask = 0;
    for (int i = 0; i < n; i++) {
        const carc_spot *s = &spots[i];
        assert_true(s->segment < def->nsegments);
        if (mask & (1u << s->segment))
            fail_msg("segment %d is offered twice", s->segment);
        mask |= 1u << s->segment;
        assert_int_equal(s->kind, def->segments[s->segment].kind);
        if (s->kind == CARC_CLOISTER) {
            assert_int_equal(s->port, CARC_PORTS);
        } else {
            /* A port the segment holds, in board directions. */
            assert_in_range(s->port, 0, CARC_PORTS - 1);
            assert_int_equal(sup_port_seg(kind, p.rot, s->port), s->segment);
        }
    }
    return mask;
}

/* Playing each segment: the offered ones are accepted, the others refused
 * with the game left as it was. */
static void check_play_agrees(const carc_game *g, carc_placement p, unsigned offered,
                              carc_game *scratch)
{
    int nseg = carc_tile(carc_game_drawn_tile(g))->nsegments;
    int before = carc_game_move_count(g);
    for (int s = 0; s < nseg; s++) {
        carc_game_copy(scratch, g);
        carc_move m = {CARC_MOVE_PLACE, p, (uint8_t)s, CARC_FIGURE_FOLLOWER};
        carc_status st = carc_game_play(scratch, m, NULL, 0, NULL);
        if (offered & (1u << s)) {
            assert_int_equal(st, CARC_OK);
        } else {
            assert_int_not_equal(st, CARC_OK);
            assert_int_equal(carc_game_move_count(scratch), before);
            assert_int_equal(carc_game_tile_count(scratch), carc_game_tile_count(g));
        }
    }
}

static long checked, empty_supply, occupied_seen;

static void check_placement(const carc_game *g, carc_placement p, carc_game *scratch, int try_play)
{
    unsigned got = engine_spots(g, p);
    unsigned want = carc_game_supply(g, carc_game_current_player(g)) == 0 ? 0 : expected_free(g, p);
    if (carc_game_supply(g, carc_game_current_player(g)) == 0) {
        empty_supply++;
        assert_int_equal(got, 0);
    }
    if (got != want)
        fail_msg("tile %c at %d %d rotation %d: spots %X, expected %X (move %d)",
                 'A' + carc_game_drawn_tile(g), p.x, p.y, p.rot, got, want,
                 carc_game_move_count(g));
    unsigned all = (1u << carc_tile(carc_game_drawn_tile(g))->nsegments) - 1;
    if (want != all && carc_game_supply(g, carc_game_current_player(g)) > 0)
        occupied_seen++;
    checked++;
    if (try_play)
        check_play_agrees(g, p, got, scratch);
}

static void run_games(int games, double follower_chance, uint64_t seed0)
{
    carc_game *scratch = sup_game(2, 0);
    for (int i = 0; i < games; i++) {
        carc_game *g = sup_game(2 + i % 5, seed0 + (uint64_t)i);
        carc_rng rng = carc_rng_seed(seed0 * 31u + (uint64_t)i);
        while (!carc_game_over(g)) {
            carc_placement places[CARC_MAX_PLACEMENTS];
            int n = carc_legal_placements(g, places, CARC_MAX_PLACEMENTS);
            int ply = carc_game_move_count(g);
            /* All placements every seventh ply, else a few at random. */
            if (ply % 7 == 0) {
                for (int k = 0; k < n; k++)
                    check_placement(g, places[k], scratch, k < 3);
            } else {
                for (int k = 0; k < 3 && n > 0; k++)
                    check_placement(g, places[carc_rng_below(&rng, (uint32_t)n)], scratch, k == 0);
            }
            carc_move m = carc_random_move(g, &rng, follower_chance);
            assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
        }
        carc_game_free(g);
    }
    carc_game_free(scratch);
}

static void test_random_games(void **state)
{
    (void)state;
    checked = empty_supply = occupied_seen = 0;
    run_games(sup_env_count("CARC_SPOT_GAMES", 300), 0.5, 100);
    print_message("%ld placements checked, %ld with occupied features\n", checked, occupied_seen);
    assert_true(occupied_seen > 1000);
}

/* Followers on every tile they can go on: supplies run dry. */
static void test_empty_supply(void **state)
{
    (void)state;
    checked = empty_supply = occupied_seen = 0;
    run_games(60, 1.0, 900);
    print_message("%ld placements checked with an empty supply\n", empty_supply);
    assert_true(empty_supply > 100);
}

/* By hand: a thief on the road east of the start tile blocks the road far
 * away, at both of its ends. */
static void test_occupied_far_away(void **state)
{
    (void)state;
    carc_game *g = sup_game(2, 5);
    int u = carc_tile_parse("U");
    /* Nothing on the board holds a follower: E north of the start tile,
     * city facing south, offers its city (0) and its field (1). */
    assert_int_equal(carc_game_choose_tile(g, carc_tile_parse("E")), CARC_OK);
    carc_placement e_north = {0, -1, 2, 0};
    assert_int_equal(engine_spots(g, e_north), 0x3);
    /* Player 1: U east of the start tile, road east-west, thief on it. */
    sup_play_ok(g, "U 1 0 1 W", NULL, 0);
    assert_int_equal(carc_game_supply(g, 0), 6);
    /* Player 2 with a U: east of it the road (segment 0) is taken, the two
     * fields (1 north, 2 south) are free; the same west of the start tile,
     * where the road is the same road. */
    assert_int_equal(carc_game_choose_tile(g, u), CARC_OK);
    carc_placement east = {2, 0, 1, 0}, west = {-1, 0, 3, 0};
    assert_int_equal(engine_spots(g, east), 0x6);
    assert_int_equal(engine_spots(g, west), 0x6);
    /* South of the start tile, U lies east-west (a field faces the start
     * tile's field); its road is a new road: all free. */
    carc_placement south = {0, 1, 1, 0};
    assert_true(carc_placement_legal(g, south));
    assert_int_equal(engine_spots(g, south), 0x7);
    /* So player 2's thief on that road, from U (2,0), is refused. */
    assert_int_not_equal(sup_play(g, "U 2 0 1 W", NULL, 0, NULL), CARC_OK);
    assert_int_equal(carc_game_tile_count(g), 2);
    carc_game_free(g);
}

static void test_small_cap(void **state)
{
    (void)state;
    carc_game *g = sup_game(2, 5);
    assert_int_equal(carc_game_choose_tile(g, carc_tile_parse("X")), CARC_OK);
    carc_placement p = {1, 0, 0, 0};
    carc_spot buf[CARC_MAX_SPOTS];
    memset(buf, 0xEE, sizeof buf);
    /* X: four roads and four fields, all free. */
    assert_int_equal(carc_legal_spots(g, p, buf, 2), 8);
    for (int i = 2; i < CARC_MAX_SPOTS; i++)
        assert_int_equal(buf[i].segment, 0xEE);
    assert_int_equal(carc_legal_spots(g, p, NULL, 0), 8);
    carc_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_occupied_far_away),
        cmocka_unit_test(test_small_cap),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_empty_supply),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
