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
/* --- Hand games (hand=N): the events a seat is sent ---------------------------- */

/* The draws of `g` made after `moves` moves, as seat `seat` is shown them
 * (another seat's tile null unless `open`). */
static json_t *draws_json(const carc_game *g, int moves, int seat, int open)
{
    json_t *list = json_array();
    for (int i = 0; i < carc_game_draw_count(g); i++) {
        int player, kind, at;
        carc_game_draw_at(g, i, &player, &kind, &at);
        if (at != moves)
            continue;
        json_t *tile = open || player == seat ? json_string(carc_tile_id(kind)) : json_null();
        json_array_append_new(list, json_pack("{s:i, s:o}", "player", player, "tile", tile));
    }
    return list;
}

/* Each hand's size, and its tiles where `seat` may see them. */
static json_t *hands_json(const carc_game *g, int seat, int open)
{
    json_t *list = json_array();
    for (int p = 0; p < carc_game_players(g); p++) {
        int kinds[CARC_MAX_HAND], n = carc_game_hand(g, p, kinds, CARC_MAX_HAND);
        json_t *tiles = json_null();
        if (open || p == seat) {
            tiles = json_array();
            for (int i = 0; i < n; i++)
                json_array_append_new(tiles, json_string(carc_tile_id(kinds[i])));
        }
        json_array_append_new(list, json_pack("{s:i, s:o}", "count", n, "tiles", tiles));
    }
    return list;
}

/* Plays a random game with `rules` (the rule list `names`) for `players`
 * from `seed` and feeds seat `seat`'s view of it, as the server sends it,
 * to a replica: the `state` at the start, then every `move` event. Returns
 * 0 when the replica followed it to the end with the same scores, else -1
 * with the reason in `err`. */
static int follow_hand_game(const char *names, const char *expansions, int players, uint64_t seed,
                            int seat, char *err, size_t errcap)
{
    carc_rules rules = carc_rules_standard();
    assert_int_equal(carc_rules_parse(names, &rules, NULL, 0), CARC_OK);
    json_t *exp = json_array();
    char names_copy[100];
    snprintf(names_copy, sizeof names_copy, "%s", expansions);
    for (char *save = NULL, *t = strtok_r(names_copy, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        rules.expansions |= carc_expansion_flag(t);
        json_array_append_new(exp, json_string(t));
    }
    int open = (rules.flags & CARC_RULE_OPEN_HANDS) != 0;
    carc_game *g = carc_game_new(players, &rules, seed);
    assert_non_null(g);
    json_t *list = json_array();
    char copy[200];
    snprintf(copy, sizeof copy, "%s", names);
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
        json_array_append_new(list, json_string(t));
    json_t *st = json_pack("{s:s, s:s, s:i, s:i, s:o, s:[], s:o, s:o, s:o}", "type", "state",
                           "status", "playing", "players", players, "you", seat, "rules", list,
                           "moves", "setup_draws", draws_json(g, 0, seat, open), "hands",
                           hands_json(g, seat, open), "digest", digest_json(g));
    carc_tile_on_board start;
    carc_game_tile_info(g, 0, &start);
    json_object_set_new(st, "start", json_pack("{s:s}", "tile", carc_tile_id(start.kind)));
    json_object_set_new(st, "expansions", exp);
    replica r;
    replica_init(&r);
    int status = replica_load_state(&r, st, err, errcap);
    json_decref(st);
    carc_rng rng = carc_rng_seed(seed);
    for (int turn = 0; status == 0 && !carc_game_over(g); turn++) {
        int player = carc_game_current_player(g);
        char text[64];
        carc_game_play_random(g, &rng, 0.5, NULL);
        carc_move_format(g, turn, text, sizeof text);
        json_t *ev = json_pack("{s:s, s:i, s:i, s:s, s:o, s:o, s:o, s:o}", "type", "move", "turn",
                               turn, "player", player, "move", text, "scores", scores_json(g),
                               "draws", draws_json(g, turn + 1, seat, open), "hands",
                               hands_json(g, seat, open), "digest", digest_json(g));
        json_object_set_new(ev, "next",
                            carc_game_over(g)
                                ? json_null()
                                : json_pack("{s:i}", "player", carc_game_current_player(g)));
        if (replica_apply_move(&r, ev, err, errcap) != 1)
            status = -1;
        json_decref(ev);
    }
    for (int p = 0; status == 0 && p < players; p++)
        if (carc_game_score(r.g, p) != carc_game_score(g, p) || !carc_game_over(r.g)) {
            snprintf(err, errcap, "the replica ended with other scores");
            status = -1;
        }
    replica_clear(&r);
    carc_game_free(g);
    return status;
}

/* A replica follows whole hand games from a seat's view, the others'
 * draws hidden: every move of another seat is a tile its hidden hand
 * held, the digests and hand sizes agree at every move. With reshuffle on
 * a small table, who moves next depends on what the hidden hands hold (a
 * seat whose tiles fit nowhere is skipped while the pile holds only such
 * tiles): the replica's guess must agree with the turns the server
 * announced. */
static void test_replica_follows_hand_games(void **state)
{
    (void)state;
    static const struct {
        const char *rules, *expansions;
        int players, games;
    } cases[] = {
        {"hand=3", "", 2, 20},
        {"hand=1", "", 3, 10},
        {"hand=2,reshuffle,table=7x7", "", 2, 150},
        {"hand=3,reshuffle,table=5x5,table-edge-completes", "", 3, 100},
        {"hand=2,open-hands,reshuffle,table=7x7", "", 2, 30},
        {"hand=2", "", 8, 4},
        {"hand=1,start-in-pile", "", 2, 5},
        {"hand=2,reshuffle,table=7x7", "", 4, 20},
        {"hand=3,reshuffle,table=9x9", "river,inns-cathedrals,traders-builders", 3, 20},
        {"hand=1,reshuffle,table=5x5", "traders-builders", 2, 20},
    };
    /* A longer run: CARC_REPLICA_GAMES=N plays N times as many games, from
     * seed CARC_REPLICA_SEED on (docs/tests.md). */
    const char *times = getenv("CARC_REPLICA_GAMES"), *from = getenv("CARC_REPLICA_SEED");
    int scale = times && atoi(times) > 0 ? atoi(times) : 1;
    unsigned base = from ? (unsigned)strtoul(from, NULL, 10) : 1000u;
    int failed = 0;
    char err[300] = "";
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int i = 0; i < cases[c].games * scale; i++) {
            /* Each seat in turn, then a spectator (every hand hidden). */
            int seat = i % (cases[c].players + 1);
            seat = seat == cases[c].players ? -1 : seat;
            if (follow_hand_game(cases[c].rules, cases[c].expansions, cases[c].players,
                                 base + (uint64_t)i, seat, err, sizeof err) != 0) {
                fprintf(stderr, "%s [%s], %d players, seed %u, seat %d: %s\n", cases[c].rules,
                        cases[c].expansions, cases[c].players, base + (unsigned)i, seat, err);
                failed++;
            }
        }
    assert_int_equal(failed, 0);
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
        cmocka_unit_test(test_replica_follows_hand_games),
        cmocka_unit_test(test_move_tile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
