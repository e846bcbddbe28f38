/* test_table.c: a bounded table (table=WxH, table-edge-completes) and
 * seven and eight players: random games with table sizes, the expansions
 * and the older variants, every legal placement inside the table (the base
 * game's counted against the independent board model of support.c,
 * filtered to the table), the game ending, and every record read back by
 * the record reader to the same game. */
#include "support.h"

#include <stdio.h>
#include <string.h>

static model board; /* large: kept out of the stack */
static char record[16384];

static int inside(const carc_rules *r, int x, int y)
{
    return x >= -(r->table_w / 2) && x <= r->table_w / 2 && y >= -(r->table_h / 2) &&
           y <= r->table_h / 2;
}

/* The model's placements of `kind` that lie on the table. */
static int model_table_placements(const carc_rules *r, int kind)
{
    static carc_placement all[CARC_MAX_PLACEMENTS];
    int n = model_placements(&board, kind, all, CARC_MAX_PLACEMENTS), on_table = 0;
    for (int i = 0; i < n; i++)
        on_table += inside(r, all[i].x, all[i].y);
    return on_table;
}

/* Reads the game's record back and checks that it gives the same game. */
static void check_replay(const carc_game *g)
{
    size_t len = carc_record_write(g, NULL, record, sizeof record);
    assert_true(len < sizeof record);
    carc_record_error err;
    carc_game *h = carc_record_read(record, len, 1, &err);
    if (!h)
        fail_msg("record not read: line %d: %s\n%s", err.line, err.message, record);
    assert_int_equal(carc_game_over(h), 1);
    assert_true(carc_game_digest(h) == carc_game_digest(g));
    for (int p = 0; p < carc_game_players(g); p++)
        assert_int_equal(carc_game_score(h, p), carc_game_score(g, p));
    carc_rules a = carc_game_rules(g), b = carc_game_rules(h);
    assert_int_equal(a.table_w, b.table_w);
    assert_int_equal(a.table_h, b.table_h);
    assert_int_equal(a.flags, b.flags);
    carc_game_free(h);
}

/* Plays one random game with `rules` and checks it; returns its discards. */
static int play_game(const carc_rules *rules, int players, uint64_t seed)
{
    carc_game *g = carc_game_new(players, rules, seed);
    if (!g)
        fail_msg("no game: %dx%d, flags %u, expansions %u, %d players", rules->table_w,
                 rules->table_h, rules->flags, rules->expansions, players);
    carc_rng rng = carc_rng_seed(seed * 7 + 1);
    model_from_game(&board, g);
    static carc_placement places[CARC_MAX_PLACEMENTS];
    int discards = 0;
    while (!carc_game_over(g)) {
        int drawn = carc_game_drawn_tile(g);
        int n = carc_legal_placements(g, places, CARC_MAX_PLACEMENTS);
        for (int i = 0; i < n && i < CARC_MAX_PLACEMENTS; i++)
            if (!inside(rules, places[i].x, places[i].y))
                fail_msg("placement %d %d of tile %d beyond the %dx%d table (expansions %u, seed "
                         "%llu, move %d)",
                         places[i].x, places[i].y, drawn, rules->table_w, rules->table_h,
                         rules->expansions, (unsigned long long)seed, carc_game_move_count(g));
        if (rules->expansions == 0)
            assert_int_equal(n, model_table_placements(rules, drawn));
        carc_move m = carc_random_move(g, &rng, 0.5);
        if (m.type == CARC_MOVE_PLACE)
            assert_true(inside(rules, m.place.x, m.place.y));
        discards += m.type == CARC_MOVE_DISCARD;
        assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
        if (m.type == CARC_MOVE_PLACE && rules->expansions == 0)
            model_add(&board, m.place.x, m.place.y, drawn, m.place.rot);
    }
    int min_x, min_y, max_x, max_y;
    carc_game_bounds(g, &min_x, &min_y, &max_x, &max_y);
    assert_true(inside(rules, min_x, min_y) && inside(rules, max_x, max_y));
    assert_true(carc_game_tile_count(g) <= rules->table_w * rules->table_h);
    check_replay(g);
    carc_game_free(g);
    return discards;
}

/* Table sizes, with and without the edge rule, with every expansion set
 * and the older variants, for 2 to 8 players. */
static void test_random_games_on_tables(void **state)
{
    (void)state;
    static const uint32_t expansion_sets[] = {
        0,
        CARC_EXPANSION_RIVER,
        CARC_EXPANSION_INNS_CATHEDRALS,
        CARC_EXPANSION_TRADERS_BUILDERS,
        CARC_EXPANSION_RIVER | CARC_EXPANSION_INNS_CATHEDRALS | CARC_EXPANSION_TRADERS_BUILDERS,
    };
    static const uint32_t variants[] = {
        0,
        CARC_RULE_BONUS_TURN,
        CARC_RULE_SMALL_CITY | CARC_RULE_FARMS_FIRST_EDITION,
        CARC_RULE_NO_INCOMPLETE,
    };
    static const int sizes[][2] = {{3, 3}, {5, 3}, {3, 7}, {7, 7}, {9, 9}, {11, 5}, {199, 199}};
    int games = 0;
    long discards = 0;
    for (int s = 0; s < 7; s++)
        for (int e = 0; e < 5; e++)
            for (int v = 0; v < 4; v++)
                for (int edge = 0; edge < 2; edge++) {
                    carc_rules rules = {.flags = variants[v], .expansions = expansion_sets[e]};
                    rules.table_w = (uint8_t)sizes[s][0];
                    rules.table_h = (uint8_t)sizes[s][1];
                    if (edge)
                        rules.flags |= CARC_RULE_TABLE_EDGE_COMPLETES;
                    int players = 2 + (s + e + v + edge) % 7;
                    discards +=
                        play_game(&rules, players, (uint64_t)(1000 * s + 100 * e + 10 * v + edge));
                    games++;
                }
    print_message("%d games on tables, %ld discards\n", games, discards);
    assert_true(discards > 0);
}

/* A 3x3 table holds nine tiles; the rest of the pile is discarded and
 * the game still ends. */
static void test_small_table_fills_and_ends(void **state)
{
    (void)state;
    carc_rules rules = {.table_w = 3, .table_h = 3};
    for (uint64_t seed = 0; seed < 20; seed++) {
        int discards = play_game(&rules, 2, seed);
        assert_true(discards >= 71 - 8);
    }
}

/* A placement beyond the edge is refused with a message that says so, and
 * the game is unchanged. */
static void test_beyond_edge_refused(void **state)
{
    (void)state;
    carc_rules rules = {.table_w = 3, .table_h = 5};
    carc_game *g = carc_game_new(2, &rules, 9);
    assert_non_null(g);
    assert_int_equal(carc_game_choose_tile(g, 'U' - 'A'), CARC_OK);
    uint64_t before = carc_game_digest(g);
    carc_placement p = {2, 0, 1, 0};
    assert_false(carc_placement_legal(g, p));
    carc_move m = {CARC_MOVE_PLACE, p, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
    assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_EILLEGAL);
    assert_non_null(strstr(carc_game_error(g), "beyond the table's edge"));
    assert_true(carc_game_digest(g) == before);
    m.place.x = 1;
    assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
    carc_game_free(g);
}

/* Seven and eight players: a game of each, with and without expansions,
 * to its end; every player's followers are in play. */
static void test_eight_players(void **state)
{
    (void)state;
    for (int players = 7; players <= 8; players++)
        for (int e = 0; e < 2; e++) {
            carc_rules rules = {.expansions = e ? CARC_EXPANSION_INNS_CATHEDRALS : 0};
            carc_game *g = carc_game_new(players, &rules, 77);
            assert_non_null(g);
            assert_int_equal(carc_game_players(g), players);
            carc_rng rng = carc_rng_seed(5);
            unsigned moved = 0;
            while (!carc_game_over(g)) {
                moved |= 1u << carc_game_current_player(g);
                carc_move m = carc_random_move(g, &rng, 0.8);
                assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
            }
            assert_int_equal(moved, (1u << players) - 1);
            check_replay(g);
            carc_game_free(g);
        }
    assert_null(carc_game_new(9, NULL, 1));
}

/* A bounded table's size is in the game's digest: the same game on
 * tables of two sizes has two digests (a game without a table keeps its
 * digest of before: the bench checksums). */
static void test_digest_has_table_size(void **state)
{
    (void)state;
    carc_rules big = {.table_w = 199, .table_h = 199};
    carc_rules wide = {.table_w = 199, .table_h = 197};
    carc_rules none = {0};
    carc_game *a = carc_game_new(2, &big, 4);
    carc_game *b = carc_game_new(2, &wide, 4);
    carc_game *c = carc_game_new(2, &none, 4);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_true(carc_game_digest(a) != carc_game_digest(b));
    assert_true(carc_game_digest(a) != carc_game_digest(c));
    carc_game_free(a);
    carc_game_free(b);
    carc_game_free(c);
}

/* The hand rules on a bounded table with seven and eight players (wide
 * layout): random games to their end, every placement inside the table,
 * each record read back to the same digest. */
static void test_hands_on_tables(void **state)
{
    (void)state;
    static const char *const lists[] = {"hand=3 table=9x9 reshuffle",
                                        "hand=2 open-hands table=5x7 table-edge-completes",
                                        "hand=1 start-in-pile table=11x11"};
    int games = 0;
    for (int l = 0; l < 3; l++)
        for (int players = 7; players <= 8; players++)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                carc_rules rules = {0};
                char why[120];
                assert_int_equal(carc_rules_parse(lists[l], &rules, why, sizeof why), CARC_OK);
                carc_game *g = carc_game_new(players, &rules, seed);
                assert_non_null(g);
                carc_rng rng = carc_rng_seed(seed * 13 + (uint64_t)players);
                int moves = 0;
                while (!carc_game_over(g)) {
                    carc_move m = carc_random_move(g, &rng, 0.5);
                    if (m.type == CARC_MOVE_PLACE)
                        assert_true(inside(&rules, m.place.x, m.place.y));
                    assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
                    assert_true(++moves < 10000);
                }
                int min_x, min_y, max_x, max_y;
                carc_game_bounds(g, &min_x, &min_y, &max_x, &max_y);
                assert_true(inside(&rules, min_x, min_y) && inside(&rules, max_x, max_y));
                check_replay(g);
                carc_game_free(g);
                games++;
            }
    assert_int_equal(games, 18);
}

/* A hand game with reshuffle on a table, with Inns & Cathedrals, often ends
 * right after a draw-up that nothing fits: the record names that draw after
 * the end, and reads back (it was refused: "the game is over"). */
static void test_hand_reshuffle_table_expansion(void **state)
{
    (void)state;
    carc_rules rules = {0};
    assert_int_equal(carc_rules_parse("hand=3 table=9x9 reshuffle", &rules, NULL, 0), CARC_OK);
    assert_int_equal(carc_expansions_parse("inns-cathedrals", &rules, NULL, 0), CARC_OK);
    for (uint64_t seed = 1; seed <= 12; seed++) {
        carc_game *g = carc_game_new(2 + (int)(seed % 3), &rules, seed);
        assert_non_null(g);
        carc_rng rng = carc_rng_seed(seed);
        for (int moves = 0; !carc_game_over(g); moves++) {
            assert_true(moves < 10000);
            carc_move m = carc_random_move(g, &rng, 0.5);
            assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
        }
        check_replay(g);
        carc_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games_on_tables),
        cmocka_unit_test(test_small_table_fills_and_ends),
        cmocka_unit_test(test_beyond_edge_refused),
        cmocka_unit_test(test_eight_players),
        cmocka_unit_test(test_digest_has_table_size),
        cmocka_unit_test(test_hands_on_tables),
        cmocka_unit_test(test_hand_reshuffle_table_expansion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
