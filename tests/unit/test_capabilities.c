/* test_capabilities.c: the capabilities (src/capability.h) alone and in
 * every combination the rules allow. Each rule set that carc_rules_check()
 * accepts, of the three expansions, the house rules that have hooks
 * (bonus-turn, no-incomplete, small-city, farms-first-edition, a table), the tile
 * source's (hand=2, reshuffle, start-in-pile, extra-start-tile), plays
 * random games through the public API; each game replays from its record
 * to the same scores, and each capability shows the mark only it leaves
 * (a river tile on the board, a large follower deployed, goods, a second
 * turn, a two-tile city at half price, the first edition's farms...) in some game that plays it and
 * in no game that does not; and what its hooks keep holds in every
 * combination: The River's pile drawn before the main pile and the lake
 * last of it (its pile parts), the figures' supplies (one large follower,
 * one builder and one pig a player, none without their expansion), the
 * second part of a turn (only with Traders & Builders). */
#include "support.h"

#include <stdio.h>
#include <string.h>

enum { GAMES_PER_SET = 2 };

/* What the games of one rule set showed. */
typedef struct marks {
    int river_tile, large, goods, builder_or_pig, pig_bonus, again, incomplete_points, small_city,
        city_of_two, farm_first_edition, farm_standard, beyond_table, discards;
    int river_out_of_order;   /* a river tile after a main tile or after the lake (no hand) */
    int figures_out_of_range; /* a supply of another figure above 1, or above 0 without it */
    int second_part;          /* plies played as a turn's second part */
} marks;

static const uint32_t house_flags[] = {
    CARC_RULE_BONUS_TURN,          CARC_RULE_NO_INCOMPLETE, CARC_RULE_SMALL_CITY,
    CARC_RULE_FARMS_FIRST_EDITION, CARC_RULE_RESHUFFLE,     CARC_RULE_START_IN_PILE,
    CARC_RULE_EXTRA_START_TILE,
};
enum { HOUSE = sizeof house_flags / sizeof house_flags[0] };

static int is_river_kind(int kind)
{
    const carc_tile_def *t = carc_tile(kind);
    return t && t->set == CARC_EXPANSION_RIVER;
}

/* Each player's supply of the figures other than followers: at most one
 * of each, and none without the expansion that brings it. */
static void note_supplies(marks *mk, const carc_game *g, const carc_rules *rules)
{
    static const struct {
        int figure;
        uint32_t expansion;
    } other[] = {
        {CARC_FIGURE_LARGE, CARC_EXPANSION_INNS_CATHEDRALS},
        {CARC_FIGURE_BUILDER, CARC_EXPANSION_TRADERS_BUILDERS},
        {CARC_FIGURE_PIG, CARC_EXPANSION_TRADERS_BUILDERS},
    };
    for (int p = 0; p < carc_game_players(g); p++)
        for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
            int left = carc_game_figures(g, p, other[i].figure);
            int most = (rules->expansions & other[i].expansion) ? 1 : 0;
            mk->figures_out_of_range += left < 0 || left > most;
        }
}

static void note_events(marks *mk, const carc_event *ev, int n, int over)
{
    for (int i = 0; i < n && i < CARC_MAX_EVENTS; i++) {
        const carc_event *e = &ev[i];
        if (e->bonus == CARC_BONUS_GOODS)
            mk->goods++;
        if (e->bonus == CARC_BONUS_PIG)
            mk->pig_bonus++;
        if (e->bonus)
            continue;
        if (over && !e->complete && e->kind != CARC_FIELD && e->points > 0)
            mk->incomplete_points++;
        /* A completed city of two tiles: 1 a tile and pennant under
         * small-city, 2 under the standard rules. */
        if (e->kind == CARC_CITY && e->complete && e->winners && e->tiles == 2) {
            if (e->points == e->tiles + e->pennants)
                mk->small_city++;
            else if (e->points == 2 * (e->tiles + e->pennants))
                mk->city_of_two++;
        }
        /* A farm scored the first edition's way: one city an event, 4. */
        if (e->kind == CARC_FIELD && e->winners) {
            if (e->tiles == 1 && e->points == 4)
                mk->farm_first_edition++;
            else if (e->points == 3 * e->tiles && e->tiles > 0)
                mk->farm_standard++;
        }
    }
}

/* Plays one random game with `rules`, notes its marks, and checks that
 * its record replays to the same game. */
static void play(const carc_rules *rules, int players, uint64_t seed, marks *mk)
{
    carc_game *g = carc_game_new(players, rules, seed);
    assert_non_null(g);
    carc_rng rng = carc_rng_seed(seed ^ 0x5EEDu);
    carc_event ev[CARC_MAX_EVENTS];
    int last_mover = -1, last_placed = 0, plies = 0, main_drawn = 0, lake_drawn = 0;
    while (!carc_game_over(g)) {
        note_supplies(mk, g, rules);
        mk->second_part += carc_game_second_part(g) != 0;
        assert_true(++plies < 1000);
        int mover = carc_game_current_player(g);
        /* The same player again after a placement: a bonus turn or the
         * builder's second tile (a hand game may pass players by). */
        if (mover == last_mover && last_placed && players > 1)
            mk->again++;
        carc_move m = carc_random_move(g, &rng, 0.6);
        int drawn = carc_game_drawn_tile(g), n = 0;
        if (!rules->hand && drawn >= 0) { /* a pile game plays its tiles as drawn */
            mk->river_out_of_order += is_river_kind(drawn) && (main_drawn || lake_drawn);
            main_drawn |= !is_river_kind(drawn);
            lake_drawn |= drawn == carc_tile_parse("RL");
        }
        assert_int_equal(carc_game_play(g, m, ev, CARC_MAX_EVENTS, &n), CARC_OK);
        note_events(mk, ev, n, carc_game_over(g));
        last_mover = mover;
        last_placed = m.type == CARC_MOVE_PLACE;
        if (m.type == CARC_MOVE_DISCARD)
            mk->discards++;
        if (m.type != CARC_MOVE_PLACE)
            continue;
        mk->river_tile += is_river_kind(drawn);
        if (m.segment != CARC_NO_SPOT) {
            mk->large += m.figure == CARC_FIGURE_LARGE;
            mk->builder_or_pig += m.figure == CARC_FIGURE_BUILDER || m.figure == CARC_FIGURE_PIG;
        }
        if (rules->table_w)
            mk->beyond_table += m.place.x < -(rules->table_w / 2) ||
                                m.place.x > rules->table_w / 2 ||
                                m.place.y < -(rules->table_h / 2) || m.place.y > rules->table_h / 2;
    }
    /* The scores add up by kind, and the record replays to them. */
    static char record[1 << 16];
    size_t len = carc_record_write(g, NULL, record, sizeof record);
    assert_true(len > 0 && len < sizeof record);
    carc_record_error err;
    carc_game *h = carc_record_read(record, len, seed, &err);
    if (!h)
        fail_msg("the record does not replay, line %d: %s\n%s", err.line, err.message, record);
    assert_int_equal(carc_game_digest(h), carc_game_digest(g));
    for (int p = 0; p < players; p++) {
        int sum = 0;
        for (int k = CARC_ROAD; k <= CARC_CLOISTER; k++)
            sum += carc_game_score_of(g, p, (carc_kind)k);
        assert_int_equal(sum + carc_game_goods_points(g, p), carc_game_score(g, p));
        assert_int_equal(carc_game_score(h, p), carc_game_score(g, p));
    }
    carc_game_free(h);
    carc_game_free(g);
}

/* Every rule set of the combinations above that the rules allow, with the
 * marks of its games. */
typedef struct rule_set {
    carc_rules rules;
    marks mk;
} rule_set;

static rule_set sets[8 * (1 << HOUSE) * 2 * 2];
static int nsets;

static int setup(void **state)
{
    (void)state;
    uint64_t seed = 1;
    for (unsigned exp = 0; exp < 8; exp++)
        for (unsigned house = 0; house < 1u << HOUSE; house++)
            for (int table = 0; table < 2; table++)
                for (int hand = 0; hand < 2; hand++) {
                    carc_rules r = carc_rules_standard();
                    r.expansions = exp;
                    for (int i = 0; i < HOUSE; i++)
                        if (house & (1u << i))
                            r.flags |= house_flags[i];
                    r.hand = (uint8_t)(hand ? 2 : 0);
                    if (table) {
                        r.table_w = 9;
                        r.table_h = 7;
                    }
                    char err[160];
                    if (carc_rules_check(&r, err, sizeof err) != CARC_OK)
                        continue;
                    rule_set *s = &sets[nsets++];
                    s->rules = r;
                    memset(&s->mk, 0, sizeof s->mk);
                    for (int i = 0; i < GAMES_PER_SET; i++, seed++)
                        play(&r, 2 + (int)(seed % 3), seed, &s->mk);
                }
    return 0;
}

/* Sums a mark over the rule sets that do (`with` 1) or do not play a
 * capability. */
typedef int (*plays_fn)(const carc_rules *r);

static int total(plays_fn plays, int with, size_t offset)
{
    int n = 0;
    for (int i = 0; i < nsets; i++)
        if (plays(&sets[i].rules) == with)
            n += *(const int *)((const char *)&sets[i].mk + offset);
    return n;
}

#define MARK(field) offsetof(marks, field)

static int plays_river(const carc_rules *r)
{
    return (r->expansions & CARC_EXPANSION_RIVER) != 0;
}
static int plays_inns(const carc_rules *r)
{
    return (r->expansions & CARC_EXPANSION_INNS_CATHEDRALS) != 0;
}
static int plays_traders(const carc_rules *r)
{
    return (r->expansions & CARC_EXPANSION_TRADERS_BUILDERS) != 0;
}
static int plays_table(const carc_rules *r)
{
    return r->table_w != 0;
}
static int plays_no_incomplete(const carc_rules *r)
{
    return (r->flags & CARC_RULE_NO_INCOMPLETE) != 0;
}
static int plays_small_city(const carc_rules *r)
{
    return (r->flags & CARC_RULE_SMALL_CITY) != 0;
}
static int plays_first_edition(const carc_rules *r)
{
    return (r->flags & CARC_RULE_FARMS_FIRST_EDITION) != 0;
}
/* A second turn comes from bonus-turn or from the builder; a hand game
 * passes players who have no move. Each alone: */
static int plays_bonus_turn_alone(const carc_rules *r)
{
    return (r->flags & CARC_RULE_BONUS_TURN) && !plays_traders(r) && !r->hand;
}
static int plays_builder_alone(const carc_rules *r)
{
    return !(r->flags & CARC_RULE_BONUS_TURN) && plays_traders(r) && !r->hand;
}
static int plays_no_second_turn(const carc_rules *r)
{
    return !(r->flags & CARC_RULE_BONUS_TURN) && !plays_traders(r) && !r->hand;
}

static void test_the_sets_played(void **state)
{
    (void)state;
    /* 8 expansion sets, 128 house rule sets, table or not, hand or not,
     * less what carc_rules_check refuses. */
    print_message("%d rule sets, %d games each\n", nsets, GAMES_PER_SET);
    assert_true(nsets > 800);
}

static void test_river(void **state)
{
    (void)state;
    assert_true(total(plays_river, 1, MARK(river_tile)) > 0);
    assert_int_equal(total(plays_river, 0, MARK(river_tile)), 0);
}

/* The River's pile parts: its tiles before the main pile's, the lake
 * last of them, whatever else the game plays. */
static void test_river_pile_first(void **state)
{
    (void)state;
    assert_int_equal(total(plays_river, 1, MARK(river_out_of_order)), 0);
    assert_int_equal(total(plays_river, 0, MARK(river_out_of_order)), 0);
}

static int plays_any(const carc_rules *r)
{
    (void)r;
    return 1;
}

/* The figures' supplies (their capabilities' hooks) and the turn's part. */
static void test_supplies_and_turn_parts(void **state)
{
    (void)state;
    assert_int_equal(total(plays_any, 1, MARK(figures_out_of_range)), 0);
    assert_true(total(plays_traders, 1, MARK(second_part)) > 0);
    assert_int_equal(total(plays_traders, 0, MARK(second_part)), 0);
}

static void test_inns_large_follower(void **state)
{
    (void)state;
    assert_true(total(plays_inns, 1, MARK(large)) > 0);
    assert_int_equal(total(plays_inns, 0, MARK(large)), 0);
}

static void test_traders_goods_builder_pig(void **state)
{
    (void)state;
    assert_true(total(plays_traders, 1, MARK(goods)) > 0);
    assert_true(total(plays_traders, 1, MARK(builder_or_pig)) > 0);
    assert_int_equal(total(plays_traders, 0, MARK(goods)), 0);
    assert_int_equal(total(plays_traders, 0, MARK(builder_or_pig)), 0);
    assert_int_equal(total(plays_traders, 0, MARK(pig_bonus)), 0);
}

static void test_second_turns(void **state)
{
    (void)state;
    assert_true(total(plays_bonus_turn_alone, 1, MARK(again)) > 0);
    assert_true(total(plays_builder_alone, 1, MARK(again)) > 0);
    assert_int_equal(total(plays_no_second_turn, 1, MARK(again)), 0);
}

static void test_no_incomplete(void **state)
{
    (void)state;
    assert_true(total(plays_no_incomplete, 0, MARK(incomplete_points)) > 0);
    assert_int_equal(total(plays_no_incomplete, 1, MARK(incomplete_points)), 0);
}

static void test_small_city(void **state)
{
    (void)state;
    assert_true(total(plays_small_city, 1, MARK(small_city)) > 0);
    assert_int_equal(total(plays_small_city, 1, MARK(city_of_two)), 0);
    assert_true(total(plays_small_city, 0, MARK(city_of_two)) > 0);
    assert_int_equal(total(plays_small_city, 0, MARK(small_city)), 0);
}

static void test_farms_first_edition(void **state)
{
    (void)state;
    assert_true(total(plays_first_edition, 1, MARK(farm_first_edition)) > 0);
    assert_int_equal(total(plays_first_edition, 1, MARK(farm_standard)), 0);
    assert_true(total(plays_first_edition, 0, MARK(farm_standard)) > 0);
}

static void test_table(void **state)
{
    (void)state;
    assert_int_equal(total(plays_table, 1, MARK(beyond_table)), 0);
    /* A 9 x 7 table fills: tiles that fit nowhere are discarded. */
    assert_true(total(plays_table, 1, MARK(discards)) > total(plays_table, 0, MARK(discards)));
}

/* The tile source's two implementations against each other: a hand of
 * one tile gets the tiles in the order the pile gives them (each player
 * draws one at the start, then one after each move), so the same moves
 * make the same game, the last tiles included. Up to the first discard or
 * builder's second tile: there the hand's replacement is the pile's next
 * tile while the pile game's player takes the tile the next player holds
 * in the hand game (variants.md, hand=N). */
static void test_tile_sources_agree(void **state)
{
    (void)state;
    int whole = 0;
    for (int i = 0; i < 40; i++) {
        carc_rules pile = carc_rules_standard(), hand = pile;
        pile.expansions = hand.expansions = (uint32_t)(i % 4); /* no Traders & Builders */
        if (i % 3 == 0)
            pile.flags = hand.flags = CARC_RULE_RESHUFFLE;
        hand.hand = 1;
        int players = 2 + i % 3;
        uint64_t seed = 900 + (uint64_t)i;
        carc_game *a = carc_game_new(players, &pile, seed);
        carc_game *b = carc_game_new(players, &hand, seed);
        assert_non_null(a);
        assert_non_null(b);
        carc_rng rng = carc_rng_seed(seed);
        int plies = 0, discarded = 0;
        while (!carc_game_over(a) && !discarded) {
            assert_false(carc_game_over(b));
            assert_int_equal(carc_game_current_player(b), carc_game_current_player(a));
            assert_int_equal(carc_game_drawn_tile(b), carc_game_drawn_tile(a));
            carc_move m = carc_random_move(a, &rng, 0.5);
            assert_int_equal(carc_game_play(a, m, NULL, 0, NULL), CARC_OK);
            assert_int_equal(carc_game_play(b, m, NULL, 0, NULL), CARC_OK);
            discarded = m.type == CARC_MOVE_DISCARD;
            plies++;
        }
        if (!discarded) {
            whole++;
            assert_true(carc_game_over(b));
            assert_true(plies >= 71);
            for (int p = 0; p < players; p++)
                assert_int_equal(carc_game_score(b, p), carc_game_score(a, p));
            assert_int_equal(carc_game_tile_count(b), carc_game_tile_count(a));
        }
        carc_game_free(a);
        carc_game_free(b);
    }
    assert_true(whole >= 30); /* most games discard nothing */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_sets_played),
        cmocka_unit_test(test_river),
        cmocka_unit_test(test_river_pile_first),
        cmocka_unit_test(test_supplies_and_turn_parts),
        cmocka_unit_test(test_inns_large_follower),
        cmocka_unit_test(test_traders_goods_builder_pig),
        cmocka_unit_test(test_second_turns),
        cmocka_unit_test(test_no_incomplete),
        cmocka_unit_test(test_small_city),
        cmocka_unit_test(test_farms_first_edition),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_tile_sources_agree),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
