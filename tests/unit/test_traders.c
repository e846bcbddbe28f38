/* test_traders.c: Traders & Builders in the library: the catalogue's 24
 * tiles against traders-builders.md's totals, and random games with the
 * expansion (alone, with the others, under every rule variant) that keep
 * every figure and token accounted for, never give a third tile, score
 * goods as the rules say, and replay from their records to the same
 * scores and digest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "carcassonne.h"
#include "support.h"

static const unsigned goods_mark[CARC_GOODS_TYPES] = {CARC_MARK_WINE, CARC_MARK_GRAIN,
                                                      CARC_MARK_CLOTH};

/* 24 tiles, each once: 9 wine, 6 grain, 5 cloth on one city segment each,
 * 4 tiles without goods (TP TT TW TX), 1 cloister (TT), 4 fields without
 * ports (TC TD TF TN), no pennant; every port held once. */
static void test_catalogue(void **state)
{
    (void)state;
    int tiles = 0, goods[CARC_GOODS_TYPES] = {0}, plain = 0, cloisters = 0, pennants = 0;
    char portless[32] = "";
    for (int k = 0; k < carc_tile_kinds(); k++) {
        const carc_tile_def *def = carc_tile(k);
        if (def->set != CARC_EXPANSION_TRADERS_BUILDERS)
            continue;
        assert_int_equal(def->count, 1);
        tiles++;
        unsigned seen = 0;
        int symbols = 0;
        for (int s = 0; s < def->nsegments; s++) {
            const carc_segment_def *seg = &def->segments[s];
            assert_int_equal(seen & seg->ports, 0);
            seen |= seg->ports;
            for (int t = 0; t < CARC_GOODS_TYPES; t++)
                if (seg->marks & goods_mark[t]) {
                    assert_int_equal(seg->kind, CARC_CITY);
                    goods[t]++;
                    symbols++;
                }
            cloisters += seg->kind == CARC_CLOISTER;
            pennants += seg->pennant;
            if (seg->kind == CARC_FIELD && seg->ports == 0)
                strcat(portless, def->id);
        }
        assert_int_equal(seen, (1u << CARC_PORTS) - 1);
        assert_true(symbols <= 1);
        plain += symbols == 0;
    }
    assert_int_equal(tiles, 24);
    assert_int_equal(goods[CARC_GOODS_WINE], 9);
    assert_int_equal(goods[CARC_GOODS_GRAIN], 6);
    assert_int_equal(goods[CARC_GOODS_CLOTH], 5);
    assert_int_equal(plain, 4);
    assert_int_equal(cloisters, 1);
    assert_int_equal(pennants, 0);
    assert_string_equal(portless, "TCTDTFTN");
}

/* Where each player's builder and pig stand: bit p of *builders, *pigs. */
static void helpers_on_board(const carc_game *g, int builders[CARC_MAX_PLAYERS],
                             int pigs[CARC_MAX_PLAYERS])
{
    memset(builders, 0, CARC_MAX_PLAYERS * sizeof builders[0]);
    memset(pigs, 0, CARC_MAX_PLAYERS * sizeof pigs[0]);
    for (int i = 0; i < carc_game_tile_count(g); i++) {
        carc_tile_on_board t;
        assert_int_equal(carc_game_tile_info(g, i, &t), CARC_OK);
        if (t.follower_segment == CARC_NO_SPOT)
            continue;
        builders[t.follower_owner] += t.follower_figure == CARC_FIGURE_BUILDER;
        pigs[t.follower_owner] += t.follower_figure == CARC_FIGURE_PIG;
    }
}

static void check_goods_points(const carc_game *g, int players)
{
    int expect[CARC_MAX_PLAYERS] = {0};
    for (int t = 0; t < CARC_GOODS_TYPES; t++) {
        int most = 0;
        for (int p = 0; p < players; p++)
            if (carc_game_goods(g, p, t) > most)
                most = carc_game_goods(g, p, t);
        for (int p = 0; p < players && most > 0; p++)
            expect[p] += carc_game_goods(g, p, t) == most ? 10 : 0;
    }
    for (int p = 0; p < players; p++) {
        assert_int_equal(carc_game_goods_points(g, p), expect[p]);
        int kinds = 0;
        for (int k = CARC_ROAD; k <= CARC_CLOISTER; k++)
            kinds += carc_game_score_of(g, p, (carc_kind)k);
        assert_int_equal(carc_game_score(g, p), kinds + expect[p]);
    }
}

static void test_random_games(void **state)
{
    (void)state;
    static const uint32_t variants[] = {0, CARC_RULE_SMALL_CITY, CARC_RULE_FARMS_FIRST_EDITION,
                                        CARC_RULE_NO_INCOMPLETE, CARC_RULE_BONUS_TURN};
    static const uint32_t others[] = {0, CARC_EXPANSION_INNS_CATHEDRALS, CARC_EXPANSION_RIVER,
                                      CARC_EXPANSION_RIVER | CARC_EXPANSION_INNS_CATHEDRALS};
    int builders_used = 0, pigs_used = 0, second_parts = 0, goods_given = 0, games = 0;
    for (int v = 0; v < 5; v++)
        for (int o = 0; o < 4; o++)
            for (uint64_t seed = 1; seed <= 15; seed++) {
                int players = 2 + (int)(seed % 5);
                carc_rules rules = {.flags = variants[v],
                                    .expansions = others[o] | CARC_EXPANSION_TRADERS_BUILDERS};
                carc_game *g = carc_game_new(players, &rules, seed);
                assert_non_null(g);
                assert_int_equal(carc_game_tile_total(g), 96 + (o & 1) * 18 + (o & 2 ? 11 : 0));
                carc_rng rng = carc_rng_seed(seed * 17 + (uint64_t)v);
                carc_event events[CARC_MAX_EVENTS];
                int nev, in_second = 0;
                while (!carc_game_over(g)) {
                    int mover = carc_game_current_player(g);
                    carc_move m = carc_random_move(g, &rng, 0.7);
                    assert_int_equal(carc_game_play(g, m, events, CARC_MAX_EVENTS, &nev), CARC_OK);
                    builders_used += m.figure == CARC_FIGURE_BUILDER;
                    pigs_used += m.figure == CARC_FIGURE_PIG;
                    for (int e = 0; e < nev && e < CARC_MAX_EVENTS; e++)
                        goods_given += events[e].bonus == CARC_BONUS_GOODS && events[e].complete;
                    if (carc_game_over(g))
                        break;
                    if (carc_game_second_part(g)) {
                        /* The same player; never from a second part. */
                        assert_int_equal(carc_game_current_player(g), mover);
                        assert_false(in_second && m.type == CARC_MOVE_PLACE);
                        second_parts += !in_second;
                    }
                    if (m.type == CARC_MOVE_PLACE)
                        in_second = carc_game_second_part(g);
                    int b[CARC_MAX_PLAYERS], pg[CARC_MAX_PLAYERS];
                    helpers_on_board(g, b, pg);
                    for (int p = 0; p < players; p++) {
                        assert_int_equal(b[p] + carc_game_figures(g, p, CARC_FIGURE_BUILDER), 1);
                        assert_int_equal(pg[p] + carc_game_figures(g, p, CARC_FIGURE_PIG), 1);
                    }
                }
                int total[CARC_GOODS_TYPES] = {0};
                for (int p = 0; p < players; p++)
                    for (int t = 0; t < CARC_GOODS_TYPES; t++)
                        total[t] += carc_game_goods(g, p, t);
                assert_true(total[0] <= 9 && total[1] <= 6 && total[2] <= 5);
                check_goods_points(g, players);
                sup_assert_record_round_trip(g, seed);
                carc_game_free(g);
                games++;
            }
    assert_int_equal(games, 300);
    assert_true(builders_used > 0 && pigs_used > 0 && second_parts > 0 && goods_given > 0);
}

/* carc_legal_figures() of each placement is exactly the figure moves that
 * carc_legal_moves() lists after that placement, in the same order. */
static void test_legal_figures(void **state)
{
    (void)state;
    static carc_move all[CARC_MAX_MOVES];
    int checked = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        carc_rules rules = {.expansions =
                                CARC_EXPANSION_TRADERS_BUILDERS | CARC_EXPANSION_INNS_CATHEDRALS};
        carc_game *g = carc_game_new(3, &rules, seed);
        carc_rng rng = carc_rng_seed(seed);
        while (!carc_game_over(g)) {
            int n = carc_legal_moves(g, all, CARC_MAX_MOVES);
            for (int i = 0; i < n; i++) {
                if (all[i].type != CARC_MOVE_PLACE || all[i].segment != CARC_NO_SPOT)
                    continue;
                carc_move figures[CARC_MAX_FIGURE_MOVES];
                int k = carc_legal_figures(g, all[i].place, figures, CARC_MAX_FIGURE_MOVES);
                assert_true(k <= CARC_MAX_FIGURE_MOVES);
                for (int j = 0; j < k; j++) {
                    assert_true(i + 1 + j < n);
                    assert_true(carc_move_equal(figures[j], all[i + 1 + j]));
                    assert_int_equal(figures[j].figure, all[i + 1 + j].figure);
                }
                assert_true(i + 1 + k == n || all[i + 1 + k].segment == CARC_NO_SPOT);
                checked++;
            }
            assert_int_equal(carc_game_play(g, carc_random_move(g, &rng, 0.7), NULL, 0, NULL),
                             CARC_OK);
        }
        carc_game_free(g);
    }
    assert_true(checked > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalogue),
        cmocka_unit_test(test_legal_figures),
        cmocka_unit_test(test_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
