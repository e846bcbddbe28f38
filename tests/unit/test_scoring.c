/* test_scoring.c: small positions built move by move, each scored by hand
 * from rules.md and tiles.md. The comments give the reasoning; every
 * expected number comes from it.
 *
 * Reminders: the start tile D is at (0, 0) with its city north, its road
 * east-west and a field south. At rotation r a tile's board edge d shows
 * its unrotated edge (d - r) mod 4, and port p moves to (p + 3r) mod 12. */
#include "support.h"

#include <string.h>

typedef struct expect {
    int kind, complete;
    unsigned winners;
    int points, tiles, pennants;
    int returned[CARC_MAX_PLAYERS];
} expect;

/* The one event of `kind` among `ev[0..n)`. */
static const carc_event *find_event(const carc_event *ev, int n, int kind)
{
    const carc_event *found = NULL;
    for (int i = 0; i < n; i++)
        if (ev[i].kind == kind) {
            if (found)
                fail_msg("two events of kind %d", kind);
            found = &ev[i];
        }
    if (!found)
        fail_msg("no event of kind %d among %d", kind, n);
    return found;
}

static void check_event(const carc_game *g, const carc_event *ev, const expect *want)
{
    assert_int_equal(ev->kind, want->kind);
    assert_int_equal(ev->complete, want->complete);
    assert_int_equal(ev->winners, want->winners);
    assert_int_equal(ev->points, want->points);
    assert_int_equal(ev->tiles, want->tiles);
    assert_int_equal(ev->pennants, want->pennants);
    for (int p = 0; p < CARC_MAX_PLAYERS; p++)
        assert_int_equal(ev->returned[p], want->returned[p]);
    /* "a tile of the feature": at least a tile on the board. */
    assert_true(carc_game_tile_at(g, ev->x, ev->y) >= 0);
}

static void check_scores(const carc_game *g, int s0, int s1)
{
    assert_int_equal(carc_game_score(g, 0), s0);
    assert_int_equal(carc_game_score(g, 1), s1);
}

/* Feature of segment `seg` of the tile at (x, y). */
static carc_feature feature_at(const carc_game *g, int x, int y, int seg)
{
    int t = carc_game_tile_at(g, x, y);
    assert_true(t >= 0);
    int f = carc_game_feature(g, t, seg);
    assert_true(f >= 0);
    carc_feature info;
    assert_int_equal(carc_game_feature_info(g, f, &info), CARC_OK);
    return info;
}

/* record.md's example. E at (0,-1) rotation 2 turns its city south onto the
 * start tile's city: the city is closed (two tiles, no pennant), 4 points to
 * player 1's knight, which comes home in the same turn. U at (1, 0)
 * rotation 1 runs the start tile's road east, open at both ends. */
static void test_record_example(void **state)
{
    (void)state;
    carc_event ev[CARC_MAX_EVENTS];
    carc_game *g = sup_game(2, 1);
    int n = sup_play_ok(g, "E 0 -1 2 S", ev, CARC_MAX_EVENTS);
    assert_int_equal(n, 1);
    check_event(g, &ev[0], &(expect){CARC_CITY, 1, 0x1, 4, 2, 0, {1}});
    check_scores(g, 4, 0);
    assert_int_equal(carc_game_score_of(g, 0, CARC_CITY), 4);
    assert_int_equal(carc_game_supply(g, 0), 7);
    assert_int_equal(carc_game_current_player(g), 1);
    n = sup_play_ok(g, "U 1 0 1 W", ev, CARC_MAX_EVENTS);
    assert_int_equal(n, 0);
    check_scores(g, 4, 0);
    assert_int_equal(carc_game_supply(g, 1), 6);
    carc_feature road = feature_at(g, 0, 0, 1);
    assert_int_equal(road.kind, CARC_ROAD);
    assert_int_equal(road.complete, 0);
    assert_int_equal(road.tiles, 2);
    assert_int_equal(road.open_edges, 2);
    assert_int_equal(road.followers[1], 1);
    assert_int_equal(road.owners, 0x2);
    assert_int_equal(road.value_at_end, 2);
    /* The closed city keeps no follower; its value is what it scored. */
    carc_feature city = feature_at(g, 0, 0, 0);
    assert_int_equal(city.complete, 1);
    assert_int_equal(city.tiles, 2);
    assert_int_equal(city.followers[0], 0);
    assert_int_equal(city.value, 4);
    /* Ending now: player 2's thief scores the open road, 1 per tile. */
    assert_int_equal(carc_game_finish(g, ev, CARC_MAX_EVENTS, &n), CARC_OK);
    assert_int_equal(n, 1);
    check_event(g, &ev[0], &(expect){CARC_ROAD, 0, 0x2, 2, 2, 0, {0, 1}});
    check_scores(g, 4, 2);
    assert_int_equal(carc_game_score_of(g, 1, CARC_ROAD), 2);
    assert_int_equal(carc_game_supply(g, 1), 7);
    assert_int_equal(carc_game_leaders(g), 0x1);
    assert_true(carc_game_over(g));
    assert_true(carc_game_ended_early(g));
    carc_game_free(g);
}

/* L at (1, 0) rotation 0: its west road ends at its junction and meets the
 * start tile's road; player 1 puts a thief on it. W at (-1, 0) rotation 0:
 * its east road ends at its junction and closes the road west of the start
 * tile: L, D, W, three tiles, 3 points to player 1. */
static void test_road_between_junctions(void **state)
{
    (void)state;
    carc_event ev[CARC_MAX_EVENTS];
    carc_game *g = sup_game(2, 2);
    assert_int_equal(sup_play_ok(g, "L 1 0 0 W", ev, CARC_MAX_EVENTS), 0);
    carc_feature road = feature_at(g, 0, 0, 1);
    assert_int_equal(road.tiles, 2);
    assert_int_equal(road.open_edges, 1);
    assert_int_equal(road.complete, 0);
    assert_int_equal(road.value, 2);
    assert_int_equal(road.followers[0], 1);
    assert_int_equal(sup_play_ok(g, "W -1 0 0", ev, CARC_MAX_EVENTS), 1);
    check_event(g, &ev[0], &(expect){CARC_ROAD, 1, 0x1, 3, 3, 0, {1}});
    check_scores(g, 3, 0);
    assert_int_equal(carc_game_score_of(g, 0, CARC_ROAD), 3);
    assert_int_equal(carc_game_supply(g, 0), 7);
    road = feature_at(g, 0, 0, 1);
    assert_int_equal(road.complete, 1);
    assert_int_equal(road.open_edges, 0);
    assert_int_equal(road.tiles, 3);
    assert_int_equal(road.value, 3);
    assert_int_equal(road.followers[0], 0);
    carc_game_free(g);
}

/* A loop of four curves south of the start tile: V (0,1) r3 joins east and
 * south, V (1,1) r0 west and south, V (1,2) r1 north and west, V (0,2) r2
 * north and east; every outer edge is a field. The road closes on itself:
 * four tiles, 4 points. */
static void test_road_loop(void **state)
{
    (void)state;
    carc_event ev[CARC_MAX_EVENTS];
    carc_game *g = sup_game(2, 3);
    assert_int_equal(sup_play_ok(g, "V 0 1 3 E", ev, CARC_MAX_EVENTS), 0);
    assert_int_equal(sup_play_ok(g, "V 1 1 0", ev, CARC_MAX_EVENTS), 0);
    assert_int_equal(sup_play_ok(g, "V 1 2 1", ev, CARC_MAX_EVENTS), 0);
    carc_feature road = feature_at(g, 0, 1, 0);
    assert_int_equal(road.open_edges, 2);
    assert_int_equal(road.tiles, 3);
    assert_int_equal(sup_play_ok(g, "V 0 2 2", ev, CARC_MAX_EVENTS), 1);
    check_event(g, &ev[0], &(expect){CARC_ROAD, 1, 0x1, 4, 4, 0, {1}});
    check_scores(g, 4, 0);
    carc_game_free(g);
}

/* B at (0, 1) with a monk, then its eight neighbours: U (-1,0) r1 and
 * U (1,0) r1 carry the start tile's road on, B (-1,1), B (1,1), B (0,2)
 * (all four B tiles now used), V (-1,2) r0 and V (1,2) r3 (fields towards
 * the B tiles). The last one surrounds the cloister: 9 points to player 1.
 * None of the other cloisters is surrounded. */
static void test_cloister_completed(void **state)
{
    (void)state;
    carc_event ev[CARC_MAX_EVENTS];
    carc_game *g = sup_game(2, 4);
    static const char *const moves[] = {
        "B 0 1 0 C", "U -1 0 1", "U 1 0 1", "B -1 1 0", "B 1 1 0", "B 0 2 0", "V -1 2 0",
    };
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        assert_int_equal(sup_play_ok(g, moves[i], ev, CARC_MAX_EVENTS), 0);
    assert_int_equal(carc_game_supply(g, 0), 6);
    carc_feature cloister = feature_at(g, 0, 1, 0);
    assert_int_equal(cloister.kind, CARC_CLOISTER);
    assert_int_equal(cloister.complete, 0);
    assert_int_equal(cloister.open_edges, 1);
    assert_int_equal(cloister.value_at_end, 8);
    assert_int_equal(cloister.value, 9);
    /* With room for no event, nothing is written. */
    carc_game *copy = carc_game_clone(g);
    assert_non_null(copy);
    memset(ev, 0x77, sizeof ev);
    int n = -1;
    assert_int_equal(sup_play(copy, "V 1 2 3", ev, 0, &n), CARC_OK);
    assert_int_equal(ev[0].points, 0x7777);
    assert_int_equal(carc_game_score(copy, 0), 9);
    carc_game_free(copy);
    assert_int_equal(sup_play_ok(g, "V 1 2 3", ev, CARC_MAX_EVENTS), 1);
    check_event(g, &ev[0], &(expect){CARC_CLOISTER, 1, 0x1, 9, 9, 0, {1}});
    assert_int_equal(ev[0].x, 0);
    assert_int_equal(ev[0].y, 1);
    check_scores(g, 9, 0);
    assert_int_equal(carc_game_score_of(g, 0, CARC_CLOISTER), 9);
    assert_int_equal(carc_game_supply(g, 0), 7);
    carc_game_free(g);
}

/* Two thieves meet. Player 1: V (-1,0) r3 (road east and south) with a
 * thief; player 2: V (0,1) r0 (road south and west) with a thief, a road of
 * its own; player 1: V (-1,1) r2 (north and east) joins them; player 2:
 * L (1,0) r0 closes the east end at its junction; player 1: W (0,2) r2
 * closes the south end at its junction. The road: L, D, V, V, V, W: six
 * tiles. One thief each: both score 6. */
static void test_tie(void **state)
{
    (void)state;
    carc_event ev[CARC_MAX_EVENTS];
    carc_game *g = sup_game(2, 5);
    assert_int_equal(sup_play_ok(g, "V -1 0 3 E", ev, CARC_MAX_EVENTS), 0);
    assert_int_equal(sup_play_ok(g, "V 0 1 0 W", ev, CARC_MAX_EVENTS), 0);
    assert_int_equal(sup_play_ok(g, "V -1 1 2", ev, CARC_MAX_EVENTS), 0);
    carc_feature road = feature_at(g, 0, 0, 1);
    assert_int_equal(road.followers[0], 1);
    assert_int_equal(road.followers[1], 1);
    assert_int_equal(road.owners, 0x3);
    assert_int_equal(road.tiles, 4);
    assert_int_equal(road.open_edges, 2);
    assert_int_equal(sup_play_ok(g, "L 1 0 0", ev, CARC_MAX_EVENTS), 0);
    assert_int_equal(sup_play_ok(g, "W 0 2 2", ev, CARC_MAX_EVENTS), 1);
    check_event(g, &ev[0], &(expect){CARC_ROAD, 1, 0x3, 6, 6, 0, {1, 1}});
    check_scores(g, 6, 6);
    assert_int_equal(carc_game_leaders(g), 0x3);
    assert_int_equal(carc_game_supply(g, 0), 7);
    assert_int_equal(carc_game_supply(g, 1), 7);
    carc_game_free(g);
}

/* Majority. As in the tie, but player 2 closes the south end with W (0,2)
 * r2; player 1 puts a second thief on a separate road, V (1,1) r2 (north and
 * east); player 2 joins it with V (1,0) r0 (west and south); player 1 closes
 * it with L (2,1) r0. The road: W(0,2), V(0,1), V(-1,1), V(-1,0), D,
 * V(1,0), V(1,1), L(2,1): eight tiles. Two thieves beat one: 8 points to
 * player 1 only, and all three thieves come home. */
static void test_majority(void **state)
{
    (void)state;
    carc_event ev[CARC_MAX_EVENTS];
    carc_game *g = sup_game(2, 6);
    static const char *const moves[] = {
        "V -1 0 3 E", "V 0 1 0 W", "V -1 1 2", "W 0 2 2", "V 1 1 2 N", "V 1 0 0",
    };
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        assert_int_equal(sup_play_ok(g, moves[i], ev, CARC_MAX_EVENTS), 0);
    carc_feature road = feature_at(g, 0, 0, 1);
    assert_int_equal(road.followers[0], 2);
    assert_int_equal(road.followers[1], 1);
    assert_int_equal(road.owners, 0x1);
    assert_int_equal(road.open_edges, 1);
    assert_int_equal(road.tiles, 7);
    assert_int_equal(sup_play_ok(g, "L 2 1 0", ev, CARC_MAX_EVENTS), 1);
    check_event(g, &ev[0], &(expect){CARC_ROAD, 1, 0x1, 8, 8, 0, {2, 1}});
    check_scores(g, 8, 0);
    assert_int_equal(carc_game_supply(g, 0), 7);
    assert_int_equal(carc_game_supply(g, 1), 7);
    carc_game_free(g);
}

/* A ring of city corners: N (0,1) r2 (city south and east) with a knight,
 * N (1,1) r3 (west and south), N (1,2) r0 (north and west), and I (0,2) r0,
 * whose two cities (north and east) join the ring from both sides. The
 * city is closed with five segments on four tiles: I counts once, 8
 * points. */
static void test_city_counts_tile_once(void **state)
{
    (void)state;
    carc_event ev[CARC_MAX_EVENTS];
    carc_game *g = sup_game(2, 7);
    assert_int_equal(sup_play_ok(g, "N 0 1 2 S", ev, CARC_MAX_EVENTS), 0);
    assert_int_equal(sup_play_ok(g, "N 1 1 3", ev, CARC_MAX_EVENTS), 0);
    assert_int_equal(sup_play_ok(g, "N 1 2 0", ev, CARC_MAX_EVENTS), 0);
    carc_feature city = feature_at(g, 0, 1, 0);
    assert_int_equal(city.tiles, 3);
    assert_int_equal(city.open_edges, 2);
    assert_int_equal(city.value_at_end, 3);
    assert_int_equal(city.value, 6);
    assert_int_equal(sup_play_ok(g, "I 0 2 0", ev, CARC_MAX_EVENTS), 1);
    check_event(g, &ev[0], &(expect){CARC_CITY, 1, 0x1, 8, 4, 0, {1}});
    check_scores(g, 8, 0);
    /* Both cities of I are now one feature. */
    int t = carc_game_tile_at(g, 0, 2);
    assert_int_equal(carc_game_feature(g, t, 0), carc_game_feature(g, t, 1));
    carc_game_free(g);
}

/* Final scoring. M (0,-1) r2 turns its pennant city south and east: with
 * the start tile's city it is open to the east; player 1 puts a knight on
 * it. Player 2 puts a monk on B (0,1), whose only neighbour is the start
 * tile. The end: the city scores 1 per tile and 1 per pennant, 2 + 1 = 3;
 * the cloister 1 + 1 neighbour = 2. */
static void test_final_city_and_cloister(void **state)
{
    (void)state;
    carc_event ev[CARC_MAX_EVENTS];
    carc_game *g = sup_game(2, 8);
    assert_int_equal(sup_play_ok(g, "M 0 -1 2 S", ev, CARC_MAX_EVENTS), 0);
    assert_int_equal(sup_play_ok(g, "B 0 1 0 C", ev, CARC_MAX_EVENTS), 0);
    carc_feature city = feature_at(g, 0, 0, 0);
    assert_int_equal(city.tiles, 2);
    assert_int_equal(city.pennants, 1);
    assert_int_equal(city.open_edges, 1);
    assert_int_equal(city.value, 6);
    assert_int_equal(city.value_at_end, 3);
    carc_feature cloister = feature_at(g, 0, 1, 0);
    assert_int_equal(cloister.open_edges, 7);
    assert_int_equal(cloister.value_at_end, 2);
    int n = 0;
    assert_int_equal(carc_game_finish(g, ev, CARC_MAX_EVENTS, &n), CARC_OK);
    assert_int_equal(n, 2);
    check_event(g, find_event(ev, n, CARC_CITY), &(expect){CARC_CITY, 0, 0x1, 3, 2, 1, {1, 0}});
    check_event(g, find_event(ev, n, CARC_CLOISTER),
                &(expect){CARC_CLOISTER, 0, 0x2, 2, 2, 0, {0, 1}});
    check_scores(g, 3, 2);
    assert_int_equal(carc_game_score_of(g, 0, CARC_CITY), 3);
    assert_int_equal(carc_game_score_of(g, 1, CARC_CLOISTER), 2);
    /* After the end nothing more is played. */
    carc_move m = {CARC_MOVE_PLACE, {1, -1, 0, 0}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
    assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_EOVER);
    assert_int_equal(carc_game_choose_tile(g, carc_tile_parse("E")), CARC_EOVER);
    assert_int_equal(carc_game_finish(g, NULL, 0, NULL), CARC_EOVER);
    carc_game_free(g);
}

/* A farm. E (0,-1) r2 closes the start tile's city (city 1) with nobody on
 * it. Player 2's farmer goes on the north field of U (1,0) r1, which meets
 * the start tile's strip of field between city and road. E (1,-1) r0 puts
 * its field on that farm, and E (1,-2) r2 closes its city (city 2). E (2,-1)
 * r1 adds its field too, with an open city and player 1's knight. The farm
 * borders city 1 (through D and E (0,-1): once), city 2, and the open city
 * 3: two completed cities, 6 points. The knight's open city: 1 point. */
static carc_game *farm_position(uint32_t rules)
{
    carc_rules r = {.flags = rules};
    carc_game *g = carc_game_new(2, &r, 9);
    assert_non_null(g);
    carc_event ev[CARC_MAX_EVENTS];
    assert_int_equal(sup_play_ok(g, "E 0 -1 2", ev, CARC_MAX_EVENTS), 0);
    assert_int_equal(sup_play_ok(g, "U 1 0 1 N", ev, CARC_MAX_EVENTS), 0);
    assert_int_equal(sup_play_ok(g, "E 1 -1 0", ev, CARC_MAX_EVENTS), 0);
    assert_int_equal(sup_play_ok(g, "E 1 -2 2", ev, CARC_MAX_EVENTS), 0);
    assert_int_equal(sup_play_ok(g, "E 2 -1 1 E", ev, CARC_MAX_EVENTS), 0);
    check_scores(g, 0, 0);
    return g;
}

static void test_farm(void **state)
{
    (void)state;
    carc_event ev[CARC_MAX_EVENTS];
    carc_game *g = farm_position(0);
    int u = carc_game_tile_at(g, 1, 0);
    carc_tile_on_board info;
    assert_int_equal(carc_game_tile_info(g, u, &info), CARC_OK);
    assert_int_equal(info.follower_owner, 1);
    carc_feature farm = feature_at(g, 1, 0, info.follower_segment);
    assert_int_equal(farm.kind, CARC_FIELD);
    assert_int_equal(farm.complete, 0);
    assert_int_equal(farm.followers[1], 1);
    assert_int_equal(farm.value_at_end, 6);
    /* The start tile's strip of field is on that farm. */
    assert_int_equal(carc_game_feature(g, 0, 2), carc_game_feature(g, u, info.follower_segment));
    int n = 0;
    assert_int_equal(carc_game_finish(g, ev, CARC_MAX_EVENTS, &n), CARC_OK);
    assert_int_equal(n, 2);
    check_event(g, find_event(ev, n, CARC_CITY), &(expect){CARC_CITY, 0, 0x1, 1, 1, 0, {1, 0}});
    /* Farmers stay: no follower comes home. */
    check_event(g, find_event(ev, n, CARC_FIELD), &(expect){CARC_FIELD, 0, 0x2, 6, 2, 0, {0, 0}});
    check_scores(g, 1, 6);
    assert_int_equal(carc_game_score_of(g, 1, CARC_FIELD), 6);
    carc_game_free(g);
}

/* One city, two farms. E (0,-1) r2 closes the start tile's city with
 * player 1's farmer on E's field (its west, north and east sides); player
 * 2's farmer goes on U (1,0) r1's north field, which meets the start tile's
 * strip between city and road. The two farms do not touch, and each
 * borders the city. Third edition: each farm scores the city, 3 each.
 * First edition: the city scores once, 4 to each of the tied players. */
static void test_city_between_two_farms(void **state)
{
    (void)state;
    for (int edition = 3; edition >= 1; edition -= 2) {
        carc_rules r = {.flags = edition == 1 ? CARC_RULE_FARMS_FIRST_EDITION : 0};
        carc_game *g = carc_game_new(2, &r, 10);
        assert_non_null(g);
        sup_play_ok(g, "E 0 -1 2 N", NULL, 0);
        sup_play_ok(g, "U 1 0 1 N", NULL, 0);
        int e = carc_game_tile_at(g, 0, -1), u = carc_game_tile_at(g, 1, 0);
        assert_int_not_equal(carc_game_feature(g, e, 1), carc_game_feature(g, u, 2));
        assert_int_equal(carc_game_feature(g, 0, 2), carc_game_feature(g, u, 2));
        carc_event ev[CARC_MAX_EVENTS];
        int n = 0;
        assert_int_equal(carc_game_finish(g, ev, CARC_MAX_EVENTS, &n), CARC_OK);
        int want = edition == 1 ? 4 : 3;
        check_scores(g, want, want);
        assert_int_equal(carc_game_score_of(g, 0, CARC_FIELD), want);
        assert_int_equal(n, edition == 1 ? 1 : 2);
        unsigned winners = 0;
        for (int i = 0; i < n; i++) {
            assert_int_equal(ev[i].kind, CARC_FIELD);
            assert_int_equal(ev[i].points, want);
            /* Third edition: one farm, one farmer, one winner each. */
            if (edition == 3)
                assert_true(ev[i].winners == 0x1 || ev[i].winners == 0x2);
            winners |= ev[i].winners;
        }
        assert_int_equal(winners, 0x3);
        carc_game_free(g);
    }
}

/* First-edition farms: each completed city bordering a farm with farmers
 * scores 4 for the players with the most farmers around it: cities 1 and 2,
 * 8 points to player 2. */
static void test_farm_first_edition(void **state)
{
    (void)state;
    carc_game *g = farm_position(CARC_RULE_FARMS_FIRST_EDITION);
    assert_int_equal(carc_game_finish(g, NULL, 0, NULL), CARC_OK);
    check_scores(g, 1, 8);
    assert_int_equal(carc_game_score_of(g, 1, CARC_FIELD), 8);
    carc_game_free(g);
}

/* Without final scoring of incomplete features the knight's open city
 * gives nothing; the farm still scores. */
static void test_no_incomplete_scoring(void **state)
{
    (void)state;
    carc_game *g = farm_position(CARC_RULE_NO_INCOMPLETE);
    assert_int_equal(carc_game_finish(g, NULL, 0, NULL), CARC_OK);
    check_scores(g, 0, 6);
    carc_game_free(g);
}

/* Small-city rule: record.md's two-tile city scores 1 per tile, 2. */
static void test_small_city(void **state)
{
    (void)state;
    carc_rules r = {.flags = CARC_RULE_SMALL_CITY};
    carc_game *g = carc_game_new(2, &r, 1);
    assert_non_null(g);
    carc_event ev[CARC_MAX_EVENTS];
    assert_int_equal(sup_play_ok(g, "E 0 -1 2 S", ev, CARC_MAX_EVENTS), 1);
    assert_int_equal(ev[0].points, 2);
    check_scores(g, 2, 0);
    carc_game_free(g);
}

/* Bonus turn: the cloister position of test_cloister_completed, with the
 * square (0,1) left for last. U (-1,0) r1, U (1,0) r1, B (-1,1), B (1,1),
 * V (-1,2) r0 and V (1,2) r3 each have one or two neighbours. B (0,2) has
 * neighbours west and east only. Then B (0,1) has all four (the start tile
 * north, B west, east and south): its player plays again. */
static void test_bonus_turn(void **state)
{
    (void)state;
    carc_rules r = {.flags = CARC_RULE_BONUS_TURN};
    carc_game *g = carc_game_new(2, &r, 4);
    assert_non_null(g);
    static const char *const moves[] = {
        "U -1 0 1", "U 1 0 1", "B -1 1 0", "B 1 1 0", "V -1 2 0", "V 1 2 3",
    };
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        assert_int_equal(carc_game_current_player(g), (int)(i % 2));
        sup_play_ok(g, moves[i], NULL, 0);
    }
    assert_int_equal(carc_game_current_player(g), 0);
    sup_play_ok(g, "B 0 2 0", NULL, 0);
    assert_int_equal(carc_game_current_player(g), 1);
    sup_play_ok(g, "B 0 1 0", NULL, 0);
    assert_int_equal(carc_game_current_player(g), 1);
    sup_play_ok(g, "E 0 -1 2", NULL, 0);
    assert_int_equal(carc_game_current_player(g), 0);
    /* Who made each move: 0 1 0 1 0 1, then 0 and 1 twice. */
    static const int movers[] = {0, 1, 0, 1, 0, 1, 0, 1, 1};
    assert_int_equal(carc_game_move_count(g), 9);
    for (int i = 0; i < 9; i++)
        assert_int_equal(carc_game_move_player(g, i), movers[i]);
    carc_game_free(g);
}

/* The one place that says what a feature is worth, by rules.md and the
 * variants of docs/record-extensions.md. */
static void test_feature_worth(void **state)
{
    (void)state;
    carc_rules std = {0}, small = {.flags = CARC_RULE_SMALL_CITY},
               first = {.flags = CARC_RULE_FARMS_FIRST_EDITION};
    assert_int_equal(carc_feature_worth(&std, CARC_ROAD, 4, 0, 0, 1), 4);
    assert_int_equal(carc_feature_worth(&std, CARC_ROAD, 4, 0, 0, 0), 4);
    assert_int_equal(carc_feature_worth(&std, CARC_CITY, 3, 1, 0, 1), 8);
    assert_int_equal(carc_feature_worth(&std, CARC_CITY, 3, 1, 0, 0), 4);
    assert_int_equal(carc_feature_worth(&std, CARC_CITY, 2, 0, 0, 1), 4);
    assert_int_equal(carc_feature_worth(&small, CARC_CITY, 2, 0, 0, 1), 2);
    assert_int_equal(carc_feature_worth(&small, CARC_CITY, 3, 0, 0, 1), 6);
    assert_int_equal(carc_feature_worth(&std, CARC_CLOISTER, 9, 0, 0, 1), 9);
    assert_int_equal(carc_feature_worth(&std, CARC_CLOISTER, 5, 0, 0, 0), 5);
    assert_int_equal(carc_feature_worth(&std, CARC_FIELD, 3, 0, 0, 1), 9);
    assert_int_equal(carc_feature_worth(&first, CARC_FIELD, 3, 0, 0, 1), 12);
    assert_int_equal(carc_feature_worth(&std, CARC_RIVER, 5, 0, 0, 1), 0);
    /* Inns & Cathedrals (inns-cathedrals.md's examples): an inn road 2 a
     * tile complete, 0 not; a cathedral city 3 a tile and a pennant
     * complete, 0 not; more inns or cathedrals add nothing; farms and the
     * small-city rule do not see them. */
    unsigned inn = CARC_MARK_INN, cathedral = CARC_MARK_CATHEDRAL;
    assert_int_equal(carc_feature_worth(&std, CARC_ROAD, 4, 0, inn, 1), 8);
    assert_int_equal(carc_feature_worth(&std, CARC_ROAD, 4, 0, inn, 0), 0);
    assert_int_equal(carc_feature_worth(&std, CARC_CITY, 6, 1, cathedral, 1), 21);
    assert_int_equal(carc_feature_worth(&std, CARC_CITY, 6, 1, cathedral, 0), 0);
    assert_int_equal(carc_feature_worth(&std, CARC_CITY, 6, 1, 0, 0), 7);
    assert_int_equal(carc_feature_worth(&small, CARC_CITY, 5, 0, cathedral, 1), 15);
    assert_int_equal(carc_feature_worth(&std, CARC_CITY, 3, 0, inn, 1), 6);
    assert_int_equal(carc_feature_worth(&std, CARC_ROAD, 3, 0, cathedral, 0), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_example),
        cmocka_unit_test(test_road_between_junctions),
        cmocka_unit_test(test_road_loop),
        cmocka_unit_test(test_cloister_completed),
        cmocka_unit_test(test_tie),
        cmocka_unit_test(test_majority),
        cmocka_unit_test(test_city_counts_tile_once),
        cmocka_unit_test(test_final_city_and_cloister),
        cmocka_unit_test(test_farm),
        cmocka_unit_test(test_farm_first_edition),
        cmocka_unit_test(test_city_between_two_farms),
        cmocka_unit_test(test_no_incomplete_scoring),
        cmocka_unit_test(test_small_city),
        cmocka_unit_test(test_bonus_turn),
        cmocka_unit_test(test_feature_worth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
