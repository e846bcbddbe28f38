/* test_inns.c: Inns & Cathedrals in the library: the catalogue's 18 tiles
 * against inns-cathedrals.md's totals and its port rules, the large
 * follower in legal moves, events and supplies, and random games with the
 * expansion (alone, with The River, under every rule variant) that keep
 * every figure accounted for and replay from their records to the same
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

static int is_inns(int kind)
{
    return carc_tile(kind)->set == CARC_EXPANSION_INNS_CATHEDRALS;
}

/* The spec's totals: 18 tiles of 17 kinds, 6 inns (IA IB IC IL IM IN), 2
 * cathedral tiles (IK), 3 pennants (IL IP IQ), 1 cloister (ID), 1 field
 * with no ports (IH); each tile holds each port once, every inn on a road
 * and every cathedral in a city, and each edge letter agrees with the
 * segments on its three ports. */
static void test_catalogue(void **state)
{
    (void)state;
    int kinds = 0, tiles = 0, inns = 0, cathedrals = 0, pennants = 0, cloisters = 0, portless = 0;
    char inn_ids[64] = "";
    for (int k = 0; k < carc_tile_kinds(); k++) {
        if (!is_inns(k))
            continue;
        const carc_tile_def *def = carc_tile(k);
        kinds++;
        tiles += def->count;
        unsigned seen = 0;
        for (int s = 0; s < def->nsegments; s++) {
            const carc_segment_def *seg = &def->segments[s];
            assert_int_equal(seen & seg->ports, 0);
            seen |= seg->ports;
            if (seg->marks & CARC_MARK_INN) {
                assert_int_equal(seg->kind, CARC_ROAD);
                inns += def->count;
                strcat(inn_ids, def->id);
            }
            if (seg->marks & CARC_MARK_CATHEDRAL) {
                assert_int_equal(seg->kind, CARC_CITY);
                cathedrals += def->count;
            }
            pennants += seg->pennant * def->count;
            cloisters += (seg->kind == CARC_CLOISTER) * def->count;
            portless += (seg->kind == CARC_FIELD && seg->ports == 0) * def->count;
            /* `borders` names city segments, which come first. */
            for (unsigned b = seg->borders; b; b &= b - 1)
                assert_int_equal(def->segments[__builtin_ctz(b)].kind, CARC_CITY);
        }
        assert_int_equal(seen, (1u << CARC_PORTS) - 1);
        for (int e = 0; e < 4; e++) {
            int mid = carc_tile_segment_at(k, 0, 3 * e + 1);
            assert_true(mid >= 0);
            int kind = def->segments[mid].kind;
            assert_int_equal(def->edges[e], kind == CARC_FIELD ? CARC_FIELD : kind);
        }
    }
    assert_int_equal(kinds, 17);
    assert_int_equal(tiles, 18);
    assert_int_equal(inns, 6);
    assert_string_equal(inn_ids, "IAIBICILIMIN");
    assert_int_equal(cathedrals, 2);
    assert_int_equal(pennants, 3);
    assert_int_equal(cloisters, 1);
    assert_int_equal(portless, 1);
    assert_string_equal(carc_tile_id(carc_tile_parse("IH")), "IH");
}

static carc_game *inns_game(int players, uint32_t flags, uint32_t expansions, uint64_t seed)
{
    carc_rules rules = {.flags = flags, .expansions = expansions | CARC_EXPANSION_INNS_CATHEDRALS};
    carc_game *g = carc_game_new(players, &rules, seed);
    assert_non_null(g);
    return g;
}

/* With the large follower in supply every follower move comes twice,
 * once per figure; once it is out, once. */
static void test_large_in_legal_moves(void **state)
{
    (void)state;
    carc_game *g = inns_game(2, 0, 0, 7);
    assert_int_equal(carc_game_figures(g, 0, CARC_FIGURE_LARGE), 1);
    assert_int_equal(carc_game_figures(g, 0, CARC_FIGURE_FOLLOWER), 7);
    carc_move moves[1024];
    int n = carc_legal_moves(g, moves, 1024), followers = 0, large = 0;
    for (int i = 0; i < n; i++) {
        if (moves[i].segment == CARC_NO_SPOT)
            continue;
        if (moves[i].figure == CARC_FIGURE_LARGE)
            large++;
        else
            followers++;
    }
    assert_true(followers > 0);
    assert_int_equal(large, followers);
    /* Deploy the large follower, and play until it is player 0's turn. */
    for (int i = 0; i < n; i++)
        if (moves[i].figure == CARC_FIGURE_LARGE) {
            assert_int_equal(carc_game_play(g, moves[i], NULL, 0, NULL), CARC_OK);
            break;
        }
    /* The large follower left the supply, the followers did not. */
    assert_int_equal(carc_game_figures(g, 0, CARC_FIGURE_FOLLOWER), 7);
    assert_true(carc_legal_moves(g, moves, 1024) > 0);
    assert_int_equal(carc_game_play(g, moves[0], NULL, 0, NULL), CARC_OK); /* player 1 */
    /* Player 0 again: large moves only while the large follower is home
     * (it is back already if its feature was completed at once). */
    int home = carc_game_figures(g, 0, CARC_FIGURE_LARGE), offered = 0, spots = 0;
    n = carc_legal_moves(g, moves, 1024);
    for (int i = 0; i < n; i++) {
        offered += moves[i].figure == CARC_FIGURE_LARGE;
        spots += moves[i].segment != CARC_NO_SPOT;
    }
    assert_true(spots > 0);
    assert_int_equal(offered > 0, home > 0);
    carc_game_free(g);
}

/* Without the expansion the large follower is refused and never offered. */
static void test_no_large_without_inns(void **state)
{
    (void)state;
    carc_rules river = {.expansions = CARC_EXPANSION_RIVER};
    carc_game *g = carc_game_new(2, &river, 3);
    assert_non_null(g);
    assert_int_equal(carc_game_figures(g, 0, CARC_FIGURE_LARGE), 0);
    carc_move moves[512];
    int n = carc_legal_moves(g, moves, 512);
    for (int i = 0; i < n; i++)
        assert_int_equal(moves[i].figure, CARC_FIGURE_FOLLOWER);
    for (int i = 0; i < n; i++)
        if (moves[i].segment != CARC_NO_SPOT) {
            carc_move m = moves[i];
            m.figure = CARC_FIGURE_LARGE;
            assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_EILLEGAL);
            assert_non_null(strstr(carc_game_error(g), "Inns & Cathedrals"));
            break;
        }
    carc_game_free(g);
}

/* Figures on the board, by owner and figure. */
static void count_on_board(const carc_game *g, int followers[CARC_MAX_PLAYERS],
                           int large[CARC_MAX_PLAYERS])
{
    memset(followers, 0, CARC_MAX_PLAYERS * sizeof followers[0]);
    memset(large, 0, CARC_MAX_PLAYERS * sizeof large[0]);
    for (int i = 0; i < carc_game_tile_count(g); i++) {
        carc_tile_on_board t;
        assert_int_equal(carc_game_tile_info(g, i, &t), CARC_OK);
        if (t.follower_segment == CARC_NO_SPOT)
            continue;
        if (t.follower_figure == CARC_FIGURE_LARGE)
            large[t.follower_owner]++;
        else
            followers[t.follower_owner]++;
    }
}

/* Random games: every figure is in a supply or on the board at every ply,
 * a returned large follower is reported, and the record replays to the
 * same scores and digest. */
static void test_random_games(void **state)
{
    (void)state;
    static const uint32_t variants[] = {0, CARC_RULE_SMALL_CITY, CARC_RULE_FARMS_FIRST_EDITION,
                                        CARC_RULE_NO_INCOMPLETE, CARC_RULE_BONUS_TURN};
    int large_returns = 0, games = 0;
    for (int v = 0; v < 5; v++)
        for (int river = 0; river < 2; river++)
            for (uint64_t seed = 1; seed <= 40; seed++) {
                int players = 2 + (int)(seed % 5);
                carc_game *g =
                    inns_game(players, variants[v], river ? CARC_EXPANSION_RIVER : 0, seed);
                carc_rng rng = carc_rng_seed(seed * 31);
                carc_event events[CARC_MAX_EVENTS];
                int nev;
                while (!carc_game_over(g)) {
                    carc_move m = carc_random_move(g, &rng, 0.6);
                    assert_int_equal(carc_game_play(g, m, events, CARC_MAX_EVENTS, &nev), CARC_OK);
                    for (int e = 0; e < nev && e < CARC_MAX_EVENTS; e++)
                        large_returns += __builtin_popcount(events[e].returned_large);
                    int f[CARC_MAX_PLAYERS], l[CARC_MAX_PLAYERS];
                    count_on_board(g, f, l);
                    for (int p = 0; p < players; p++) {
                        if (!carc_game_over(g))
                            assert_int_equal(f[p] + carc_game_supply(g, p), 7);
                        assert_int_equal(l[p] + carc_game_figures(g, p, CARC_FIGURE_LARGE), 1);
                    }
                }
                sup_assert_record_round_trip(g, seed);
                carc_game_free(g);
                games++;
            }
    assert_int_equal(games, 400);
    assert_true(large_returns > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalogue),
        cmocka_unit_test(test_large_in_legal_moves),
        cmocka_unit_test(test_no_large_without_inns),
        cmocka_unit_test(test_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
