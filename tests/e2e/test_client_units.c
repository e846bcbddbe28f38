/* test_client_units.c: the client's pure parts without a server: URLs,
 * and the replica fed `state` and `move` events made from library games
 * (scores checked, gaps found, bad events refused without a crash). */
#include <inttypes.h>
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "carcassonne.h"
#include "replica.h"
#include "ws_client.h"

static void test_url(void **state)
{
    (void)state;
    ws_url u;
    char err[600];
    assert_int_equal(ws_url_parse("ws://127.0.0.1:8080", &u, err, sizeof err), 0);
    assert_string_equal(u.host, "127.0.0.1");
    assert_int_equal(u.port, 8080);
    assert_string_equal(u.path, "/ws");
    assert_int_equal(ws_url_parse("http://example.org:9/x/ws", &u, err, sizeof err), 0);
    assert_string_equal(u.host, "example.org");
    assert_int_equal(u.port, 9);
    assert_string_equal(u.path, "/x/ws");
    assert_int_equal(ws_url_parse("localhost", &u, err, sizeof err), 0);
    assert_int_equal(u.port, 80);
    const char *bad[] = {"wss://a:1",    "ftp://a",    "ws://:80", "ws://a:0",
                         "ws://a:70000", "ws://a:12x", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(ws_url_parse(bad[i], &u, err, sizeof err), -1);
}

/* The river game's rules (the base game: NULL). */
static const carc_rules river = {.flags = 0, .expansions = CARC_EXPANSION_RIVER};

/* A random game of `moves` moves (all: to the end) from seed `seed`, with
 * `rules` (NULL: the base game). */
static carc_game *random_game_of(const carc_rules *rules, uint64_t seed, int moves)
{
    carc_game *g = carc_game_new(2, rules, seed);
    assert_non_null(g);
    carc_rng rng = carc_rng_seed(seed);
    for (int i = 0; (moves < 0 || i < moves) && !carc_game_over(g); i++)
        carc_game_play_random(g, &rng, 0.5, NULL);
    return g;
}

static carc_game *random_game(uint64_t seed, int moves)
{
    return random_game_of(NULL, seed, moves);
}

static json_t *tile_json(const carc_game *g)
{
    int kind = carc_game_drawn_tile(g);
    if (kind < 0)
        return json_null();
    const char *s = carc_tile_id(kind);
    return json_string(s);
}

static json_t *digest_json(const carc_game *g)
{
    return json_sprintf("%016" PRIx64, carc_game_digest(g));
}

static json_t *scores_json(const carc_game *g)
{
    json_t *a = json_array();
    for (int p = 0; p < carc_game_players(g); p++)
        json_array_append_new(a, json_integer(carc_game_score(g, p)));
    return a;
}

/* The `move` events of game `g` replayed on a fresh game of its seed. */
static json_t *move_events(uint64_t seed, const carc_game *g)
{
    json_t *events = json_array();
    carc_rules rules = carc_game_rules(g);
    carc_game *h = carc_game_new(2, &rules, seed);
    for (int i = 0; i < carc_game_move_count(g); i++) {
        carc_move m;
        int kind;
        char text[64];
        carc_game_move_at(g, i, &m, &kind);
        carc_move_format(g, i, text, sizeof text);
        int player = carc_game_current_player(h);
        carc_game_play(h, m, NULL, 0, NULL);
        json_t *next = carc_game_over(h)
                           ? json_null()
                           : json_pack("{s:i, s:i, s:o}", "turn", i + 1, "player",
                                       carc_game_current_player(h), "tile", tile_json(h));
        json_array_append_new(events,
                              json_pack("{s:s, s:i, s:i, s:s, s:o, s:o, s:o}", "type", "move",
                                        "turn", i, "player", player, "move", text, "scores",
                                        scores_json(h), "next", next, "digest", digest_json(h)));
    }
    carc_game_free(h);
    return events;
}

static json_t *state_json(const carc_game *g, json_t *events, int upto)
{
    json_t *moves = json_array();
    for (int i = 0; i < upto; i++)
        json_array_append(moves, json_array_get(events, (size_t)i));
    json_t *seats = json_array();
    for (int p = 0; p < 2; p++)
        json_array_append_new(seats, json_pack("{s:i}", "score", carc_game_score(g, p)));
    return json_pack("{s:s, s:s, s:i, s:[], s:o, s:o, s:i, s:o, s:o}", "type", "state", "status",
                     "playing", "players", 2, "rules", "seats", seats, "moves", moves, "turn", upto,
                     "tile", tile_json(g), "digest", digest_json(g));
}

static void test_replica_follows_a_game(void **state)
{
    (void)state;
    uint64_t seed = 77;
    carc_game *whole = random_game(seed, -1);
    json_t *events = move_events(seed, whole);
    carc_game *part = random_game(seed, 20);
    json_t *st = state_json(part, events, 20);
    replica r;
    replica_init(&r);
    char err[300] = "";
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), 0);
    assert_int_equal(r.turn, 20);
    assert_int_equal(carc_game_drawn_tile(r.g), carc_game_drawn_tile(part));
    /* An old event is skipped; a later one is a gap. */
    assert_int_equal(replica_apply_move(&r, json_array_get(events, 5), err, sizeof err), 0);
    assert_int_equal(replica_apply_move(&r, json_array_get(events, 22), err, sizeof err),
                     REPLICA_GAP);
    for (size_t i = 20; i < json_array_size(events); i++)
        assert_int_equal(replica_apply_move(&r, json_array_get(events, i), err, sizeof err), 1);
    assert_true(carc_game_over(r.g));
    for (int p = 0; p < 2; p++)
        assert_int_equal(carc_game_score(r.g, p), carc_game_score(whole, p));
    json_t *end = json_pack("{s:s, s:o}", "type", "end", "scores", scores_json(whole));
    assert_int_equal(replica_apply_end(&r, end, err, sizeof err), 0);
    replica_clear(&r);
    json_decref(end);
    json_decref(st);
    json_decref(events);
    carc_game_free(part);
    carc_game_free(whole);
}

static void test_replica_refuses_bad_events(void **state)
{
    (void)state;
    uint64_t seed = 5;
    carc_game *whole = random_game(seed, 30);
    json_t *events = move_events(seed, whole);
    carc_game *part = random_game(seed, 10);
    replica r;
    replica_init(&r);
    char err[300];
    json_t *st = state_json(part, events, 10);
    /* Scores that differ from the replica's. */
    json_t *ev = json_deep_copy(json_array_get(events, 10));
    json_array_set_new(json_object_get(ev, "scores"), 0, json_integer(999));
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), 0);
    assert_int_equal(replica_apply_move(&r, ev, err, sizeof err), -1);
    assert_non_null(strstr(err, "999"));
    json_decref(ev);
    /* A digest that differs from the replica's. */
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), 0);
    ev = json_deep_copy(json_array_get(events, 10));
    json_object_set_new(ev, "digest", json_string("0123456789abcdef"));
    assert_int_equal(replica_apply_move(&r, ev, err, sizeof err), -1);
    assert_non_null(strstr(err, "digest"));
    json_decref(ev);
    /* A move that is not a move, a tile that is not a tile, a bad rule. */
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), 0);
    ev = json_pack("{s:s, s:i, s:s}", "type", "move", "turn", 10, "move", "Q 99 99 0");
    assert_int_equal(replica_apply_move(&r, ev, err, sizeof err), -1);
    json_object_set_new(ev, "move", json_string("banana"));
    assert_int_equal(replica_apply_move(&r, ev, err, sizeof err), -1);
    json_object_del(ev, "turn");
    assert_int_equal(replica_apply_move(&r, ev, err, sizeof err), -1);
    json_decref(ev);
    json_object_set_new(st, "tile", json_string("?"));
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), -1);
    json_object_set_new(st, "rules", json_pack("[s]", "no-such-rule"));
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), -1);
    json_object_set_new(st, "players", json_integer(9));
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), -1);
    /* A waiting table has no game yet. */
    json_t *waiting =
        json_pack("{s:s, s:s, s:i}", "type", "state", "status", "waiting", "players", 3);
    assert_int_equal(replica_load_state(&r, waiting, err, sizeof err), 0);
    assert_null(r.g);
    json_decref(waiting);
    replica_clear(&r);
    json_decref(st);
    json_decref(events);
    carc_game_free(part);
    carc_game_free(whole);
}

/* A seat that forfeits: the `move` event "end" ends the replica's game
 * early, with the server's final scores and digest. */
static void test_replica_follows_a_forfeit(void **state)
{
    (void)state;
    uint64_t seed = 9;
    carc_game *g = random_game(seed, 12);
    json_t *events = move_events(seed, g);
    json_t *st = state_json(g, events, 12);
    carc_game_finish(g, NULL, 0, NULL);
    json_t *end = json_pack("{s:s, s:i, s:i, s:s, s:o, s:n, s:o}", "type", "move", "turn", 12,
                            "player", carc_game_current_player(g), "move", "end", "scores",
                            scores_json(g), "next", "digest", digest_json(g));
    replica r;
    replica_init(&r);
    char err[300] = "";
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), 0);
    assert_int_equal(replica_apply_move(&r, end, err, sizeof err), 1);
    assert_true(carc_game_over(r.g));
    assert_int_equal(r.turn, 13);
    replica_clear(&r);
    json_decref(end);
    json_decref(st);
    json_decref(events);
    carc_game_free(g);
}

/* A river game followed from a `state` with "expansions":["river"]: the
 * two-letter tiles of the river's moves, the spring at the start, the
 * scores and digests of every move event. */
static void test_replica_follows_a_river_game(void **state)
{
    (void)state;
    uint64_t seed = 31;
    carc_game *whole = random_game_of(&river, seed, -1);
    json_t *events = move_events(seed, whole);
    carc_game *part = random_game_of(&river, seed, 3);
    json_t *st = state_json(part, events, 3);
    replica r;
    replica_init(&r);
    char err[300] = "";
    /* Without the expansions, the river's first moves are refused. */
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), -1);
    json_object_set_new(st, "expansions", json_pack("[s]", "river"));
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), 0);
    assert_int_equal(r.rules.expansions, CARC_EXPANSION_RIVER);
    carc_tile_on_board start;
    assert_int_equal(carc_game_tile_info(r.g, 0, &start), CARC_OK);
    assert_string_equal(carc_tile_id(start.kind), "RA");
    assert_int_equal(strlen(carc_tile_id(carc_game_drawn_tile(r.g))), 2);
    for (size_t i = 3; i < json_array_size(events); i++)
        assert_int_equal(replica_apply_move(&r, json_array_get(events, i), err, sizeof err), 1);
    assert_true(carc_game_over(r.g));
    for (int p = 0; p < 2; p++)
        assert_int_equal(carc_game_score(r.g, p), carc_game_score(whole, p));
    /* Bad expansions: unknown, twice, not a list, a variant without them. */
    json_object_set_new(st, "expansions", json_pack("[s]", "bogus"));
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), -1);
    assert_non_null(strstr(err, "bogus"));
    json_object_set_new(st, "expansions", json_pack("[s,s]", "river", "river"));
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), -1);
    json_object_set_new(st, "expansions", json_string("river"));
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), -1);
    json_object_set_new(st, "expansions", json_array());
    json_object_set_new(st, "rules", json_pack("[s]", "river-keep-start"));
    assert_int_equal(replica_load_state(&r, st, err, sizeof err), -1);
    assert_non_null(strstr(err, "river"));
    replica_clear(&r);
    json_decref(st);
    json_decref(events);
    carc_game_free(part);
    carc_game_free(whole);
}

static void test_move_tile(void **state)
{
    (void)state;
    assert_int_equal(replica_move_tile("E 0 -1 2 S"), carc_tile_parse("E"));
    assert_int_equal(replica_move_tile("discard X"), carc_tile_parse("X"));
    /* Kinds: A..X are 0..23, then RA RB RC RD RE RG RH ... (carcassonne.h). */
    assert_int_equal(replica_move_tile("E 0 -1 2 S"), 4);
    assert_int_equal(replica_move_tile("RD 1 0 0"), 27);
    assert_int_equal(replica_move_tile("discard RG"), 29);
    assert_int_equal(replica_move_tile("RZ 1 0 0"), -1);
    assert_int_equal(replica_move_tile("RDD 1 0 0"), -1);
    assert_int_equal(replica_move_tile("EE 0 0 0"), -1);
    assert_int_equal(replica_move_tile(""), -1);
    assert_int_equal(replica_move_tile(NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_url),
        cmocka_unit_test(test_replica_follows_a_game),
        cmocka_unit_test(test_replica_refuses_bad_events),
        cmocka_unit_test(test_replica_follows_a_forfeit),
        cmocka_unit_test(test_replica_follows_a_river_game),
        cmocka_unit_test(test_move_tile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
