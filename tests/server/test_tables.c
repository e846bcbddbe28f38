/* test_tables.c: the tables without sockets: requests from fake clients,
 * replies and events captured at the send hook, computer moves answered
 * by hand, storage in a temporary file. */
#include <inttypes.h>
#include <jansson.h>
#include <setjmp.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "carcassonne_ai.h"
#include "first_seat.h"
#include "glicko2.h"
#include "replay_view.h"
#include "replays.h"
#include "tables.h"

enum { MAX_SENT = 4096, MAX_CLIENTS = 4 };

/* What the send hook saw, in order. */
static struct {
    srv_client *to;
    json_t *msg;
} sent[MAX_SENT];
static int nsent, nread[MAX_CLIENTS];

/* The last think request. */
static struct {
    char table[32];
    int turn, asked;
    carc_game *game;
} think;

static srv_client clients[MAX_CLIENTS];
static char path[64];
static storage *store;
static srv_tables *T;
static int64_t clock_ms = 1700000000000;

static void hook_send(void *ctx, srv_client *c, srv_msg *m)
{
    (void)ctx;
    assert_true(nsent < MAX_SENT);
    sent[nsent].to = c;
    sent[nsent].msg = json_loads(m->text, 0, NULL);
    assert_non_null(sent[nsent].msg);
    nsent++;
}

static int hook_think(void *ctx, const char *table, const char *addr, int turn, const carc_game *g,
                      const char *spec)
{
    (void)ctx;
    (void)addr;
    (void)spec;
    snprintf(think.table, sizeof think.table, "%s", table);
    think.turn = turn;
    think.asked++;
    carc_game_free(think.game);
    think.game = carc_game_clone(g);
    return 0;
}

/* The last review request. */
static struct {
    char table[32];
    int asked;
} review;

static int hook_review(void *ctx, const char *table, const carc_game *g, int ms)
{
    (void)ctx;
    (void)ms;
    assert_true(carc_game_over(g));
    snprintf(review.table, sizeof review.table, "%s", table);
    return review.asked++;
}

/* The last analysis request (hints, estimates). */
static struct {
    char table[32];
    int turn, asked;
    carc_game *game;
} analyse;

static int hook_analyse(void *ctx, const char *table, const char *addr, int turn,
                        const carc_game *g)
{
    (void)ctx;
    (void)addr;
    snprintf(analyse.table, sizeof analyse.table, "%s", table);
    analyse.turn = turn;
    analyse.asked++;
    carc_game_free(analyse.game);
    analyse.game = carc_game_clone(g);
    return 0;
}

/* The last cancel of stale analyses: the turn they are older than. */
static int cancelled_before;

static void hook_cancel_analysis(void *ctx, const char *table, int turn)
{
    (void)ctx;
    assert_string_equal(table, analyse.table);
    cancelled_before = turn;
}

/* The replays asked of the workers: their job numbers, addresses and
 * records, answered by hand (answer_replay). */
static struct {
    int asked;
    uint64_t job[16];
    char addr[16][64];
    char *record[16];
} replays_asked;

static int hook_replay(void *ctx, uint64_t job, const char *addr, const char *text, int tile)
{
    (void)ctx;
    (void)tile;
    assert_true(replays_asked.asked < 16);
    int i = replays_asked.asked++;
    replays_asked.job[i] = job;
    snprintf(replays_asked.addr[i], sizeof replays_asked.addr[i], "%s", addr);
    replays_asked.record[i] = strdup(text);
    return 0;
}

static int64_t hook_now(void *ctx)
{
    (void)ctx;
    return clock_ms;
}

static int setup(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/carc-tables-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    close(fd);
    unlink(path);
    char err[200];
    store = storage_open(path, err, sizeof err);
    srv_hooks hooks = {NULL,     hook_send,    hook_think,           hook_review,
                       hook_now, hook_analyse, hook_cancel_analysis, hook_replay,
                       NULL};
    srv_limits limits = {10, 4, 2};
    T = tables_new(store, &hooks, &limits);
    review.asked = 0;
    memset(clients, 0, sizeof clients);
    for (int i = 0; i < MAX_CLIENTS; i++) {
        clients[i].id = (uint64_t)i + 1;
        snprintf(clients[i].addr, sizeof clients[i].addr, "10.0.0.%d", i < 3 ? 1 : 2);
    }
    nsent = 0;
    memset(nread, 0, sizeof nread);
    think.asked = 0;
    analyse.asked = 0;
    for (int i = 0; i < replays_asked.asked; i++)
        free(replays_asked.record[i]);
    memset(&replays_asked, 0, sizeof replays_asked);
    cancelled_before = -1;
    return T && store ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < MAX_CLIENTS; i++)
        tables_client_gone(T, &clients[i]);
    tables_free(T);
    storage_close(store);
    for (int i = 0; i < replays_asked.asked; i++)
        free(replays_asked.record[i]);
    memset(&replays_asked, 0, sizeof replays_asked);
    for (int i = 0; i < nsent; i++)
        json_decref(sent[i].msg);
    carc_game_free(think.game);
    think.game = NULL;
    carc_game_free(analyse.game);
    analyse.game = NULL;
    char other[80];
    unlink(path);
    snprintf(other, sizeof other, "%s-wal", path);
    unlink(other);
    snprintf(other, sizeof other, "%s-shm", path);
    unlink(other);
    return 0;
}

/* Client `c` sends `text`; the pass ends (commit, then delivery). */
static void request(int c, const char *text)
{
    msg_request *r = malloc(sizeof *r);
    msg_problem p;
    msg_error e = msg_decode(text, strlen(text), r, &p);
    if (e != ERR_NONE)
        tables_error(T, &clients[c], &r->id, e, p.message);
    else
        tables_request(T, &clients[c], r);
    free(r);
    assert_int_equal(tables_flush(T), 0);
}

/* The next message to client `c` not read yet, or NULL. */
static json_t *next(int c)
{
    for (int i = 0; i < nsent; i++) {
        if (sent[i].to != &clients[c])
            continue;
        int k = 0;
        for (int j = 0; j < i; j++)
            k += sent[j].to == &clients[c];
        if (k == nread[c]) {
            nread[c]++;
            return sent[i].msg;
        }
    }
    return NULL;
}

static const char *type_of(json_t *m)
{
    return m ? json_string_value(json_object_get(m, "type")) : "(nothing)";
}

/* The next message to `c` must be of `type`; returns it. */
static json_t *expect(int c, const char *type)
{
    json_t *m = next(c);
    if (!m || strcmp(type_of(m), type) != 0) {
        char *text = m ? json_dumps(m, 0) : NULL;
        fail_msg("client %d: wanted %s, got %s", c, type, text ? text : "nothing");
    }
    return m;
}

static void expect_error_code(int c, const char *code)
{
    json_t *m = expect(c, "error");
    const char *got = json_string_value(json_object_get(m, "code"));
    if (strcmp(got, code) != 0)
        fail_msg("client %d: wanted error %s, got %s (%s)", c, code, got,
                 json_string_value(json_object_get(m, "message")));
}

static void drain(int c)
{
    while (next(c))
        ;
}

static char table_id[32], tokens[2][40];

/* Client 0 creates a table with `seats` (JSON) and the `extra` fields
 * (",\"expansions\":[...]" or ""), client 1 takes the open seat when
 * `join`. */
static void two_players_with(const char *seats, const char *extra, int join)
{
    char text[400];
    snprintf(text, sizeof text, "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"seats\":%s%s}",
             seats, extra);
    request(0, text);
    json_t *ok = expect(0, "create.ok");
    snprintf(table_id, sizeof table_id, "%s", json_string_value(json_object_get(ok, "table")));
    snprintf(tokens[0], sizeof tokens[0], "%s", json_string_value(json_object_get(ok, "token")));
    assert_int_equal(strlen(json_string_value(json_object_get(ok, "commitment"))), 64);
    expect(0, "state");
    if (!join)
        return;
    snprintf(text, sizeof text, "{\"type\":\"join\",\"id\":2,\"table\":\"%s\",\"name\":\"Bob\"}",
             table_id);
    request(1, text);
    ok = expect(1, "join.ok");
    assert_int_equal(json_integer_value(json_object_get(ok, "seat")), 1);
    snprintf(tokens[1], sizeof tokens[1], "%s", json_string_value(json_object_get(ok, "token")));
    json_t *st = expect(1, "state");
    assert_string_equal(json_string_value(json_object_get(st, "status")), "playing");
    expect(0, "seat");
    expect(0, "state");
}

static void two_players(const char *seats, int join)
{
    two_players_with(seats, "", join);
}

/* A legal move of client `c`'s table, asked with `legal`: the first
 * placement, with its first spot when `follower`. */
static void pick_move(json_t *legal, char *out, size_t cap, int follower)
{
    json_t *places = json_object_get(legal, "placements");
    if (json_array_size(places) == 0) {
        snprintf(out, cap, "%s", json_string_value(json_object_get(legal, "discard")));
        return;
    }
    json_t *first = json_array_get(places, 0);
    json_t *spots = json_object_get(first, "spots");
    if (follower && json_array_size(spots) > 0)
        snprintf(out, cap, "%s %s", json_string_value(json_object_get(first, "move")),
                 json_string_value(json_object_get(json_array_get(spots, 0), "spot")));
    else
        snprintf(out, cap, "%s", json_string_value(json_object_get(first, "move")));
}

static void legal_move(int c, char *out, size_t cap, int follower)
{
    char text[200];
    snprintf(text, sizeof text, "{\"type\":\"legal\",\"id\":3,\"table\":\"%s\"}", table_id);
    request(c, text);
    pick_move(expect(c, "legal.ok"), out, cap, follower);
}

static void send_move(int c, int turn, const char *move)
{
    char text[400];
    snprintf(text, sizeof text,
             "{\"type\":\"move\",\"id\":%d,\"table\":\"%s\",\"turn\":%d,"
             "\"move\":\"%s\"}",
             100 + turn, table_id, turn, move);
    request(c, text);
}

/* Picks a move from a `legal.ok` reply into `out`. */
typedef void (*move_chooser)(json_t *legal, char *out, size_t cap, void *ctx);

/* The first placement with its first spot. */
static void first_with_spot(json_t *legal, char *out, size_t cap, void *ctx)
{
    (void)ctx;
    pick_move(legal, out, cap, 1);
}

/* One turn of the two-seat table: the seat to move (*seat) asks `legal`,
 * `choose` picks the move, the seat sends it as turn `turn` and reads
 * move.ok and the move event, which is returned (the sent log owns it).
 * *seat becomes the seat to move next; unchanged when the game is over.
 * Both players' earlier messages are dropped first. */
static json_t *play_turn(int *seat, int turn, move_chooser choose, void *ctx)
{
    char text[200], move[96];
    drain(0);
    drain(1);
    snprintf(text, sizeof text, "{\"type\":\"legal\",\"id\":3,\"table\":\"%s\"}", table_id);
    request(*seat, text);
    choose(expect(*seat, "legal.ok"), move, sizeof move, ctx);
    send_move(*seat, turn, move);
    expect(*seat, "move.ok");
    json_t *ev = expect(*seat, "move");
    assert_string_equal(json_string_value(json_object_get(ev, "move")), move);
    json_t *nx = json_object_get(ev, "next");
    if (!json_is_null(nx))
        *seat = (int)json_integer_value(json_object_get(nx, "player"));
    return ev;
}

/* A restarted server (a new registry over the same storage) resumed by
 * client 3 with a seat's `token`: the state it sends (the sent log owns
 * it). The request `then`, unless NULL, follows the resume; its answers
 * are left for the caller to read. The registry is freed before
 * returning. */
static json_t *restarted_state(const char *token, const char *then)
{
    srv_hooks hooks = {NULL, hook_send, hook_think, NULL, hook_now, hook_analyse, NULL, NULL, NULL};
    srv_limits limits = {10, 4, 2};
    srv_tables *again = tables_new(store, &hooks, &limits);
    char err[200], text[300];
    assert_int_equal(tables_load(again, err, sizeof err), 0);
    msg_request *r = malloc(sizeof *r);
    msg_problem prob;
    snprintf(text, sizeof text, "{\"type\":\"resume\",\"id\":8,\"table\":\"%s\",\"token\":\"%s\"}",
             table_id, token);
    assert_int_equal(msg_decode(text, strlen(text), r, &prob), ERR_NONE);
    drain(3);
    tables_request(again, &clients[3], r);
    if (then) {
        assert_int_equal(msg_decode(then, strlen(then), r, &prob), ERR_NONE);
        tables_request(again, &clients[3], r);
    }
    free(r);
    assert_int_equal(tables_flush(again), 0);
    expect(3, "resume.ok");
    json_t *st = expect(3, "state");
    tables_client_gone(again, &clients[3]);
    tables_free(again);
    return st;
}

static void test_create_join_move(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"]", 1);
    char move[64];
    legal_move(0, move, sizeof move, 1);
    send_move(0, 0, move);
    json_t *ok = expect(0, "move.ok");
    assert_int_equal(json_integer_value(json_object_get(ok, "re")), 100);
    json_t *ev = expect(0, "move");
    assert_string_equal(json_string_value(json_object_get(ev, "move")), move);
    assert_string_equal(json_string_value(json_object_get(ev, "by")), "player");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(ev, "next"), "player")), 1);
    assert_int_equal(strlen(json_string_value(json_object_get(ev, "digest"))), 16);
    json_t *seen = expect(1, "move");
    assert_true(json_equal(seen, ev));
    /* The state never shows the seed; the record only the commitment. */
    char text[200];
    snprintf(text, sizeof text, "{\"type\":\"sync\",\"id\":4,\"table\":\"%s\"}", table_id);
    request(1, text);
    expect(1, "sync.ok");
    json_t *st = expect(1, "state");
    assert_null(json_object_get(st, "seed"));
    assert_null(json_object_get(st, "salt"));
    assert_int_equal(json_integer_value(json_object_get(st, "turn")), 1);
    assert_int_equal(json_integer_value(json_object_get(st, "you")), 1);
    assert_int_equal(json_array_size(json_object_get(st, "moves")), 1);
    snprintf(text, sizeof text, "{\"type\":\"record\",\"id\":5,\"table\":\"%s\"}", table_id);
    request(1, text);
    json_t *rec = expect(1, "record.ok");
    const char *record = json_string_value(json_object_get(rec, "record"));
    assert_non_null(strstr(record, "commitment "));
    assert_null(strstr(record, "seed "));
    assert_null(strstr(record, "salt "));
    assert_non_null(strstr(record, move));
}

static void test_commit_before_send(void **state)
{
    (void)state;
    msg_request *r = malloc(sizeof *r);
    msg_problem p;
    const char *text = "{\"type\":\"create\",\"name\":\"Ann\",\"seats\":[\"me\",\"open\"]}";
    assert_int_equal(msg_decode(text, strlen(text), r, &p), ERR_NONE);
    tables_request(T, &clients[0], r);
    free(r);
    /* Nothing goes out before the pass's commit. */
    assert_int_equal(nsent, 0);
    assert_int_equal(tables_flush(T), 0);
    expect(0, "create.ok");
    expect(0, "state");
}

static void test_move_errors(void **state)
{
    (void)state;
    char text[200], move[64];
    two_players("[\"me\",\"open\"]", 0);
    snprintf(text, sizeof text, "{\"type\":\"legal\",\"id\":3,\"table\":\"%s\"}", table_id);
    request(0, text);
    expect_error_code(0, "not_started");
    send_move(0, 0, "D 0 -1 0");
    expect_error_code(0, "not_started");
    snprintf(text, sizeof text, "{\"type\":\"join\",\"id\":2,\"table\":\"%s\",\"name\":\"Bob\"}",
             table_id);
    request(1, text);
    drain(0);
    drain(1);
    legal_move(0, move, sizeof move, 0);
    send_move(1, 0, move);
    expect_error_code(1, "not_your_turn");
    send_move(0, 5, move);
    expect_error_code(0, "stale");
    send_move(0, 0, "A 40 40 0");
    expect_error_code(0, "illegal");
    send_move(0, 0, "nonsense");
    expect_error_code(0, "illegal");
    /* A spectator cannot move; neither can a stranger. */
    snprintf(text, sizeof text, "{\"type\":\"watch\",\"id\":6,\"table\":\"%s\"}", table_id);
    request(2, text);
    expect(2, "watch.ok");
    expect(2, "state");
    send_move(2, 0, move);
    expect_error_code(2, "not_seated");
    /* Nothing of that changed the game: the move is still the first. */
    send_move(0, 0, move);
    expect(0, "move.ok");
    expect(0, "move");
    send_move(0, 0, move);
    expect_error_code(0, "stale");
    request(0, "{\"type\":\"move\",\"id\":1,\"table\":\"tnosuchtable\",\"turn\":0,\"move\":\"x\"}");
    expect_error_code(0, "no_table");
}

/* Sends `{"type":type,"id":1,"table":table` plus `extra`} for client `c`. */
static void ask_from(int c, const char *type, const char *table, const char *extra)
{
    char text[300];
    snprintf(text, sizeof text, "{\"type\":\"%s\",\"id\":1,\"table\":\"%s\"%s}", type, table,
             extra);
    request(c, text);
}

/* With reshuffle a discarded tile goes back into the pile only while the
 * engine's slack for returns lasts; after it a discard is set aside. A
 * move event says `returned` only for a tile that went back, and once one
 * is set aside none goes back again (the slack only shrinks); a reload's
 * state says the same of each move. On a 7x7
 * table many tiles fit nowhere: most games see both; the deal is random,
 * so games are played until one does (at most 6). */
static void test_reshuffle_returned(void **state)
{
    (void)state;
    int both = 0;
    for (int game = 0; game < 6 && !both; game++) {
        two_players_with("[\"me\",\"open\"]", ",\"rules\":[\"hand=2\",\"reshuffle\",\"table=7x7\"]",
                         1);
        int seat = 0, back = 0, aside = 0, turn = 0;
        char went[400] = {0}; /* the live events' `returned`, by turn */
        for (json_t *ev = NULL; turn < 400; turn++) {
            ev = play_turn(&seat, turn, first_with_spot, NULL);
            const char *move = json_string_value(json_object_get(ev, "move"));
            const char *returned = json_string_value(json_object_get(ev, "returned"));
            if (strncmp(move, "discard ", 8) == 0 && returned) {
                assert_int_equal(aside, 0);
                assert_string_equal(returned, move + 8);
                went[turn] = 1;
                back++;
            } else if (strncmp(move, "discard ", 8) == 0) {
                aside++;
            } else {
                assert_null(returned);
            }
            if (json_is_null(json_object_get(ev, "next")))
                break;
        }
        assert_true(turn < 400);
        both = back > 0 && aside > 0;
        /* A reload's state says the same of every move. */
        drain(0);
        ask_from(0, "sync", table_id, "");
        expect(0, "sync.ok");
        json_t *moves = json_object_get(expect(0, "state"), "moves"), *m;
        size_t i;
        assert_int_equal(json_array_size(moves), turn + 1);
        json_array_foreach(moves, i, m)
        {
            assert_int_equal(json_object_get(m, "returned") != NULL, went[i]);
        }
        for (int c = 0; c < 2; c++) {
            drain(c);
            ask_from(c, "leave", table_id, "");
            expect(c, "leave.ok");
        }
    }
    assert_true(both);
}

/* The request table's needs, each checked before a handler runs: a
 * request naming no such table is `no_table`; one for members from a
 * stranger, and one for seats from a spectator, `not_seated`; and each
 * refusal changes nothing (the spectator's state is the same after). */
static void test_request_needs(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"]", 1);
    typedef struct {
        const char *type, *extra;
    } asked;
    static const asked members_only[] = {
        {"legal", ""}, {"sync", ""}, {"chat", ",\"text\":\"hi\""}, {"features", ""}};
    static const asked seats_only[] = {
        {"move", ",\"turn\":0,\"move\":\"discard A\""}, {"takeback", ""}, {"resign", ""}};
    for (size_t i = 0; i < sizeof members_only / sizeof *members_only; i++) {
        ask_from(2, members_only[i].type, table_id, members_only[i].extra);
        expect_error_code(2, "not_seated");
        ask_from(2, members_only[i].type, "tnosuchtable", members_only[i].extra);
        expect_error_code(2, "no_table");
    }
    ask_from(2, "watch", table_id, "");
    expect(2, "watch.ok");
    char before[80];
    snprintf(before, sizeof before, "%s",
             json_string_value(json_object_get(expect(2, "state"), "digest")));
    for (size_t i = 0; i < sizeof seats_only / sizeof *seats_only; i++) {
        ask_from(2, seats_only[i].type, table_id, seats_only[i].extra);
        expect_error_code(2, "not_seated");
        ask_from(2, seats_only[i].type, "tnosuchtable", seats_only[i].extra);
        expect_error_code(2, "no_table");
    }
    /* A member may ask what members may; nothing changed. */
    ask_from(2, "sync", table_id, "");
    expect(2, "sync.ok");
    json_t *st = expect(2, "state");
    assert_string_equal(json_string_value(json_object_get(st, "digest")), before);
    assert_int_equal(json_integer_value(json_object_get(st, "turn")), 0);
    assert_null(next(0));
}

/* The words of the record notation that only the server writes, and the
 * error each gets: a line the engine reads is `illegal`; text with a
 * control character never reaches it (`bad_field` from the decoder). */
static const struct {
    const char *move, *code;
} server_only_words[] = {
    {"end", "illegal"},          {"end # I win", "illegal"},   {"draw 1 D", "illegal"},
    {"draw 2 G N K", "illegal"}, {"start D", "illegal"},       {"forfeit 2 time", "illegal"},
    {"seed 5", "illegal"},       {"commitment 00", "illegal"}, {"# a comment", "illegal"},
    {"discard", "illegal"},      {"end\nend", "bad_field"},    {"", "bad_field"},
};

/* The seat to move sends each server-only word (and the move it may
 * legally play followed by `end` on a second line): each is refused, and
 * the table is as before: nobody is told anything, the same turn is still
 * to play and the legal move then goes through. Ends with that move
 * played. */
static void refuse_server_words(int seat)
{
    char move[96], text[300], with_end[128];
    legal_move(seat, move, sizeof move, 0);
    for (size_t i = 0; i < sizeof server_only_words / sizeof *server_only_words; i++) {
        json_t *word = json_string(server_only_words[i].move);
        char *quoted = json_dumps(word, JSON_ENCODE_ANY);
        snprintf(text, sizeof text,
                 "{\"type\":\"move\",\"id\":9,\"table\":\"%s\",\"turn\":0,\"move\":%s}", table_id,
                 quoted);
        free(quoted);
        json_decref(word);
        request(seat, text);
        json_t *m = next(seat);
        if (!m || strcmp(type_of(m), "error") != 0 ||
            strcmp(json_string_value(json_object_get(m, "code")), server_only_words[i].code) != 0)
            fail_msg("the move '%s' was not refused as %s: %s", server_only_words[i].move,
                     server_only_words[i].code, m ? json_dumps(m, 0) : "nothing");
        assert_null(next(0));
        assert_null(next(1));
    }
    snprintf(with_end, sizeof with_end, "%s # then\\nend", move);
    send_move(seat, 0, with_end);
    expect_error_code(seat, "bad_field");
    snprintf(with_end, sizeof with_end, "%s end", move);
    send_move(seat, 0, with_end);
    expect_error_code(seat, "illegal");
    /* Nothing changed: turn 0 is still to play, and its legal move plays. */
    send_move(seat, 0, move);
    expect(seat, "move.ok");
    json_t *ev = expect(seat, "move");
    assert_string_equal(json_string_value(json_object_get(ev, "move")), move);
    assert_string_equal(json_string_value(json_object_get(ev, "by")), "player");
}

/* A seated player cannot end the game with the server's `end`, nor write
 * any other line that only the server writes (issue 35): at turn 0 and
 * later, in the base game, with each expansion and all three, and with a
 * hidden hand of three. */
static void test_player_cannot_end(void **state)
{
    static const char *const extras[] = {
        "",
        ",\"expansions\":[\"river\"]",
        ",\"expansions\":[\"inns-cathedrals\"]",
        ",\"expansions\":[\"traders-builders\"]",
        ",\"expansions\":[\"river\",\"inns-cathedrals\",\"traders-builders\"]",
        ",\"rules\":[\"hand=3\"]",
        (",\"expansions\":[\"river\",\"inns-cathedrals\",\"traders-builders\"],"
         "\"rules\":[\"hand=3\"]"),
    };
    for (size_t k = 0; k < sizeof extras / sizeof *extras; k++) {
        if (k > 0) {
            teardown(state);
            setup(state);
        }
        two_players_with("[\"me\",\"open\"]", extras[k], 1);
        drain(0);
        drain(1);
        refuse_server_words(0);
        /* Later in the game too: the next seat's `end` is refused. */
        drain(0);
        drain(1);
        char text[200];
        snprintf(text, sizeof text,
                 "{\"type\":\"move\",\"id\":9,\"table\":\"%s\",\"turn\":1,\"move\":\"end\"}",
                 table_id);
        int to_move = -1;
        for (int c = 0; c < 2 && to_move < 0; c++) {
            request(c, text);
            json_t *m = expect(c, "error");
            const char *code = json_string_value(json_object_get(m, "code"));
            if (strcmp(code, "illegal") == 0)
                to_move = c;
            else
                assert_string_equal(code, "not_your_turn");
        }
        assert_true(to_move >= 0);
        assert_null(next(0));
        assert_null(next(1));
    }
}

/* Answers replay job `i` as a worker would: replay_view()'s fields as text. */
static void answer_replay(int i)
{
    char err[200] = "";
    const char *rec = replays_asked.record[i];
    json_t *fields = replay_view(rec, strlen(rec), err, sizeof err);
    char *text = fields ? json_dumps(fields, JSON_COMPACT) : NULL;
    json_decref(fields);
    tables_replay_done(T, replays_asked.job[i], text, err);
    assert_int_equal(tables_flush(T), 0);
}

static void send_replay_of(int c, int id, const char *field, const char *value)
{
    json_t *req = json_pack("{s:s, s:i, s:s}", "type", "replay", "id", id, field, value);
    char *text = json_dumps(req, 0);
    request(c, text);
    free(text);
    json_decref(req);
}

/* `replay` runs on the workers, not on the loop (issue 35): nothing is
 * answered until the worker's answer comes; a second request for the same
 * record waits for the same job; the answer is kept by the record's
 * digest; a client gone meanwhile gets nothing; one address has at most
 * REPLAYS_PENDING_PER_ADDR records replayed at once, another address is
 * not held up by it; a record that does not replay is refused, kept too. */
static void test_replay_on_workers(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"]", 1);
    int seat = 0;
    play_turn(&seat, 0, first_with_spot, NULL);
    drain(0);
    drain(1);
    send_replay_of(0, 41, "table", table_id);
    assert_int_equal(replays_asked.asked, 1);
    assert_string_equal(replays_asked.addr[0], clients[0].addr);
    assert_null(next(0)); /* not replayed on the loop */
    send_replay_of(1, 42, "table", table_id);
    assert_int_equal(replays_asked.asked, 1); /* it waits for the same job */
    assert_null(next(1));
    answer_replay(0);
    json_t *a = expect(0, "replay.ok"), *b = expect(1, "replay.ok");
    assert_int_equal(json_integer_value(json_object_get(a, "re")), 41);
    assert_int_equal(json_integer_value(json_object_get(b, "re")), 42);
    assert_int_equal(json_array_size(json_object_get(a, "moves")), 1);
    assert_true(json_equal(json_object_get(a, "moves"), json_object_get(b, "moves")));
    /* Kept: asked again, answered at once without a job. */
    send_replay_of(1, 43, "table", table_id);
    assert_true(
        json_equal(json_object_get(expect(1, "replay.ok"), "moves"), json_object_get(a, "moves")));
    assert_int_equal(replays_asked.asked, 1);
    /* The same record sent as text is the same digest: kept too. */
    const char *record = replays_asked.record[0];
    send_replay_of(2, 44, "record", record);
    expect(2, "replay.ok");
    assert_int_equal(replays_asked.asked, 1);
    const srv_stats *st = tables_stats(T);
    assert_int_equal(st->replays_computed, 1);
    assert_int_equal(st->replays_cached, 3);

    /* Client 2 asks for a record and goes: nobody is answered. */
    send_replay_of(2, 45, "record", "# one\n");
    assert_int_equal(replays_asked.asked, 2);
    tables_client_gone(T, &clients[2]);
    answer_replay(1);
    assert_null(next(2));
    assert_null(next(0));

    /* One address (clients 0 to 2) has four different records replayed at
     * once, no fifth; client 3, another address, is not held up. */
    char text[32];
    for (int i = 0; i < REPLAYS_PENDING_PER_ADDR; i++) {
        snprintf(text, sizeof text, "# record %d\n", i);
        send_replay_of(i % 2, 50 + i, "record", text);
        assert_null(next(i % 2));
    }
    assert_int_equal(replays_asked.asked, 2 + REPLAYS_PENDING_PER_ADDR);
    send_replay_of(0, 60, "record", "# one more\n");
    expect_error_code(0, "rate_limited");
    assert_int_equal(replays_asked.asked, 2 + REPLAYS_PENDING_PER_ADDR);
    send_replay_of(3, 61, "record", "# another address\n");
    assert_int_equal(replays_asked.asked, 3 + REPLAYS_PENDING_PER_ADDR);
    assert_string_equal(replays_asked.addr[2 + REPLAYS_PENDING_PER_ADDR], clients[3].addr);
    /* A record that does not replay: refused as illegal, with the reason. */
    answer_replay(2 + REPLAYS_PENDING_PER_ADDR);
    json_t *e = expect(3, "error");
    assert_string_equal(json_string_value(json_object_get(e, "code")), "illegal");
    assert_true(strlen(json_string_value(json_object_get(e, "message"))) > 0);
    for (int i = 0; i < REPLAYS_PENDING_PER_ADDR; i++)
        answer_replay(2 + i);
    /* One answered: the address may ask again. */
    send_replay_of(0, 62, "record", "# one more\n");
    assert_int_equal(replays_asked.asked, 4 + REPLAYS_PENDING_PER_ADDR);
}

/* Rate-limited replies are not counted as errors; counted errors are
 * forgotten with time (one every CLIENT_ERROR_FORGIVEN_MS), so harmless
 * errors spread over hours never close a connection; a burst does. */
static void test_error_counter(void **state)
{
    (void)state;
    for (int i = 0; i < 3 * CLIENT_MAX_ERRORS; i++)
        tables_error(T, &clients[0], NULL, ERR_RATE_LIMITED, "more than 20 messages a second");
    assert_false(tables_client_abusive(&clients[0]));
    for (int i = 0; i < 5 * CLIENT_MAX_ERRORS; i++) {
        request(0, "{\"type\":\"fly\"}");
        clock_ms += CLIENT_ERROR_FORGIVEN_MS; /* one forgotten for each made: 83 min */
        assert_false(tables_client_abusive(&clients[0]));
    }
    assert_true(clients[0].errors <= 2);
    for (int i = 0; i <= CLIENT_MAX_ERRORS; i++)
        request(1, "{\"type\":\"fly\"}");
    assert_true(tables_client_abusive(&clients[1]));
    clock_ms += 2LL * CLIENT_ERROR_FORGIVEN_MS;
    request(1, "{\"type\":\"fly\"}");
    assert_false(tables_client_abusive(&clients[1]));
    drain(0);
    drain(1);
}

static void test_tokens(void **state)
{
    (void)state;
    char text[300];
    two_players("[\"me\",\"open\"]", 1);
    char first[32];
    snprintf(first, sizeof first, "%s", table_id);
    /* A second table; its seat's token does not open the first. */
    two_players("[\"me\",\"open\"]", 0);
    snprintf(text, sizeof text, "{\"type\":\"resume\",\"id\":7,\"table\":\"%s\",\"token\":\"%s\"}",
             first, tokens[0]);
    request(2, text);
    expect_error_code(2, "bad_token");
    snprintf(text, sizeof text,
             "{\"type\":\"resume\",\"id\":7,\"table\":\"%s\",\"token\":"
             "\"00000000000000000000000000000000\"}",
             table_id);
    request(2, text);
    expect_error_code(2, "bad_token");
    /* The right token binds a new connection to the seat. */
    snprintf(text, sizeof text, "{\"type\":\"resume\",\"id\":8,\"table\":\"%s\",\"token\":\"%s\"}",
             table_id, tokens[0]);
    request(2, text);
    json_t *ok = expect(2, "resume.ok");
    assert_int_equal(json_integer_value(json_object_get(ok, "seat")), 0);
    json_t *st = expect(2, "state");
    assert_int_equal(json_integer_value(json_object_get(st, "you")), 0);
}

/* The `remaining` map of a state as counts by kind; returns their sum. */
static int remaining_counts(const json_t *st, int counts[CARC_MAX_KINDS])
{
    const json_t *map = json_object_get(st, "remaining");
    int sum = 0;
    for (int k = 0; k < carc_tile_kinds(); k++) {
        const char *letter = carc_tile_id(k);
        counts[k] = (int)json_integer_value(json_object_get(map, letter));
        sum += counts[k];
    }
    return sum;
}

/* A waiting table shows nothing of the deal: the first tile, drawn when
 * the table is made, is still in `remaining` and `tiles_left`, and no
 * digest (it covers the drawn tile) is sent until the game starts. */
static void test_waiting_table_hides_the_deal(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"]", 0);
    char text[200];
    snprintf(text, sizeof text, "{\"type\":\"watch\",\"id\":5,\"table\":\"%s\"}", table_id);
    request(2, text);
    expect(2, "watch.ok");
    json_t *st = expect(2, "state");
    assert_string_equal(json_string_value(json_object_get(st, "status")), "waiting");
    assert_true(json_is_null(json_object_get(st, "tile")));
    assert_true(json_is_null(json_object_get(st, "digest")));
    int counts[CARC_MAX_KINDS] = {0};
    assert_int_equal(json_integer_value(json_object_get(st, "tiles_left")), 71);
    assert_int_equal(remaining_counts(st, counts), 71);
    for (int k = 0; k < carc_tile_kinds(); k++) /* every tile but the start tile */
        assert_int_equal(counts[k],
                         carc_tile(k)->set ? 0 : carc_tile(k)->count - (k == carc_tile_parse("D")));
    /* Once playing: the drawn tile, 70 left, the library's digest. */
    snprintf(text, sizeof text, "{\"type\":\"join\",\"id\":2,\"table\":\"%s\",\"name\":\"Bob\"}",
             table_id);
    request(1, text);
    expect(1, "join.ok");
    expect(2, "seat");
    st = expect(2, "state");
    assert_string_equal(json_string_value(json_object_get(st, "status")), "playing");
    int drawn = carc_tile_parse(json_string_value(json_object_get(st, "tile")));
    assert_int_equal(json_integer_value(json_object_get(st, "tiles_left")), 70);
    assert_int_equal(remaining_counts(st, counts), 70);
    carc_game *g = carc_game_new(2, NULL, 1);
    assert_int_equal(carc_game_choose_tile(g, drawn), CARC_OK);
    char digest[17];
    snprintf(digest, sizeof digest, "%016" PRIx64, carc_game_digest(g));
    assert_string_equal(json_string_value(json_object_get(st, "digest")), digest);
    carc_game_free(g);
}

static void test_seats_and_limits(void **state)
{
    (void)state;
    char text[300];
    request(0, "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"seats\":[\"me\",\"invite\","
               "\"invite\"]}");
    json_t *ok = expect(0, "create.ok");
    snprintf(table_id, sizeof table_id, "%s", json_string_value(json_object_get(ok, "table")));
    json_t *invites = json_object_get(ok, "invites");
    assert_true(json_is_null(json_array_get(invites, 0)));
    char codes[3][40];
    for (int i = 1; i < 3; i++)
        snprintf(codes[i], sizeof codes[i], "%s",
                 json_string_value(json_array_get(invites, (size_t)i)));
    drain(0);
    /* No open seat; a wrong code, with or without the seat. */
    snprintf(text, sizeof text, "{\"type\":\"join\",\"id\":2,\"table\":\"%s\",\"name\":\"Bob\"}",
             table_id);
    request(1, text);
    expect_error_code(1, "no_seat");
    const char *zeros = "00000000000000000000000000000000";
    snprintf(text, sizeof text,
             "{\"type\":\"join\",\"id\":2,\"table\":\"%s\",\"name\":\"Bob\",\"seat\":1,"
             "\"invite\":\"%s\"}",
             table_id, zeros);
    request(1, text);
    expect_error_code(1, "no_seat");
    snprintf(text, sizeof text,
             "{\"type\":\"join\",\"id\":2,\"table\":\"%s\",\"name\":\"Bob\",\"invite\":\"%s\"}",
             table_id, zeros);
    request(1, text);
    expect_error_code(1, "no_seat");
    /* An invite link holds the table and the code: it takes the code's seat. */
    snprintf(text, sizeof text,
             "{\"type\":\"join\",\"id\":2,\"table\":\"%s\",\"name\":\"Bob\",\"invite\":\"%s\"}",
             table_id, codes[2]);
    request(1, text);
    ok = expect(1, "join.ok");
    assert_int_equal(json_integer_value(json_object_get(ok, "seat")), 2);
    request(3, text);
    expect_error_code(3, "no_seat");
    /* The seat named with its code. */
    snprintf(text, sizeof text,
             "{\"type\":\"join\",\"id\":2,\"table\":\"%s\",\"name\":\"Cy\",\"seat\":1,"
             "\"invite\":\"%s\"}",
             table_id, codes[1]);
    request(3, text);
    ok = expect(3, "join.ok");
    assert_int_equal(json_integer_value(json_object_get(ok, "seat")), 1);
    request(2, text);
    expect_error_code(2, "no_seat");
    drain(0);
    drain(1);
    drain(3);
    /* Four open tables from one address at most (this test's limit). */
    request(0, "{\"type\":\"create\",\"id\":1,\"seats\":[\"open\",\"open\"]}");
    expect(0, "create.ok");
    drain(0);
    request(2, "{\"type\":\"create\",\"id\":1,\"seats\":[\"open\",\"open\"]}");
    expect(2, "create.ok");
    drain(2);
    request(2, "{\"type\":\"create\",\"id\":1,\"seats\":[\"open\",\"open\"],\"listed\":false}");
    expect(2, "create.ok");
    drain(2);
    request(1, "{\"type\":\"create\",\"id\":1,\"seats\":[\"open\",\"open\"]}");
    expect_error_code(1, "too_many");
    request(3, "{\"type\":\"create\",\"id\":1,\"seats\":[\"open\",\"open\"]}");
    expect(3, "create.ok");
    drain(3);
    /* The lobby lists the listed tables, newest first. */
    request(3, "{\"type\":\"lobby\",\"id\":9}");
    json_t *lobby = expect(3, "lobby.ok");
    json_t *list = json_object_get(lobby, "tables");
    assert_int_equal(json_array_size(list), 4);
    json_t *oldest = json_array_get(list, 3);
    assert_string_equal(json_string_value(json_object_get(oldest, "table")), table_id);
    assert_string_equal(json_string_value(json_object_get(oldest, "status")), "playing");
}

/* The finished table's record as client `c` gets it ('record'; the text
 * in *record, owned by the sent log), read back by the library: its
 * scores must be `scores` (a JSON array). The caller frees the game. */
static carc_game *replayed_record(int c, const json_t *scores, const char **record)
{
    char text[200];
    snprintf(text, sizeof text, "{\"type\":\"record\",\"id\":5,\"table\":\"%s\"}", table_id);
    request(c, text);
    json_t *rec = expect(c, "record.ok");
    assert_true(json_is_true(json_object_get(rec, "finished")));
    *record = json_string_value(json_object_get(rec, "record"));
    carc_record_error err;
    carc_game *g = carc_record_read(*record, strlen(*record), 1, &err);
    if (!g)
        fail_msg("the record does not read back: %s", err.message);
    for (int p = 0; p < 2; p++)
        assert_int_equal(carc_game_score(g, p),
                         json_integer_value(json_array_get(scores, (size_t)p)));
    return g;
}

/* A whole game against a computer seat whose moves are answered here. */
static void test_game_with_computer(void **state)
{
    (void)state;
    two_players("[\"me\",\"random\"]", 0);
    carc_rng rng = carc_rng_seed(3);
    int turn = 0, over = 0, computer_moves = 0;
    while (!over) {
        if (think.asked && think.turn == turn && strcmp(think.table, table_id) == 0) {
            carc_move m = carc_random_move(think.game, &rng, 0.3);
            char text[64];
            carc_move_write(think.game, m, text, sizeof text);
            think.asked = 0;
            tables_computer_move(T, table_id, turn, text);
            assert_int_equal(tables_flush(T), 0);
            computer_moves++;
        } else {
            char move[64];
            legal_move(0, move, sizeof move, turn % 3 == 0);
            send_move(0, turn, move);
            expect(0, "move.ok");
        }
        json_t *ev = expect(0, "move");
        assert_int_equal(json_integer_value(json_object_get(ev, "turn")), turn);
        over = json_is_null(json_object_get(ev, "next"));
        turn++;
    }
    assert_true(computer_moves > 0);
    json_t *end = expect(0, "end");
    const char *seed = json_string_value(json_object_get(end, "seed"));
    assert_non_null(seed);
    assert_int_equal(strlen(json_string_value(json_object_get(end, "salt"))), 32);
    /* A stale answer of the workers is dropped. */
    tables_computer_move(T, table_id, 3, "A 0 0 0");
    assert_int_equal(tables_flush(T), 0);
    assert_null(next(0));
    send_move(0, turn, "A 0 0 0");
    expect_error_code(0, "game_over");
    const char *record;
    carc_game_free(replayed_record(0, json_object_get(end, "scores"), &record));
    char line[64];
    snprintf(line, sizeof line, "seed %s\n", seed);
    assert_non_null(strstr(record, line));
}

/* Sends `{"type":T,"table":...}` plus `extra` (",\"accept\":false" or "")
 * for client `c`. */
static void ask_table(int c, const char *type, const char *extra)
{
    ask_from(c, type, table_id, extra);
}

/* The computer's answer to the last think request, a random legal move. */
static void computer_answers(int turn)
{
    assert_int_equal(think.turn, turn);
    carc_rng rng = carc_rng_seed((uint64_t)turn + 9);
    char move[64];
    carc_move_write(think.game, carc_random_move(think.game, &rng, 0.3), move, sizeof move);
    tables_computer_move(T, table_id, turn, move);
    assert_int_equal(tables_flush(T), 0);
}

/* The record of the table as client `c` gets it (the sent log owns it). */
static const char *record_of(int c)
{
    drain(c);
    ask_table(c, "record", "");
    return json_string_value(json_object_get(expect(c, "record.ok"), "record"));
}

/* A table of the house rule extra-start-tile: an extra D at the start,
 * 72 tiles to play (the pile's 71 beside the drawn one: 72 without the
 * drawn one counted, like any table), the rule in the state and in the
 * record; a restarted server holds the same game. */
static void test_extra_start_tile_table(void **state)
{
    (void)state;
    two_players_with("[\"me\",\"open\"]", ",\"rules\":[\"extra-start-tile\"]", 1);
    int seat = 0;
    json_t *ev = play_turn(&seat, 0, first_with_spot, NULL);
    assert_int_equal(json_integer_value(json_object_get(ev, "tiles_left")), 70);
    drain(0);
    ask_from(0, "sync", table_id, "");
    expect(0, "sync.ok");
    json_t *st = expect(0, "state");
    assert_string_equal(json_string_value(json_array_get(json_object_get(st, "rules"), 0)),
                        "extra-start-tile");
    const char *record = record_of(0);
    assert_non_null(strstr(record, "rules extra-start-tile\n"));
    assert_null(strstr(record, "\nstart "));
    json_t *again = restarted_state(tokens[0], NULL);
    assert_string_equal(json_string_value(json_object_get(again, "digest")),
                        json_string_value(json_object_get(st, "digest")));
    /* Refused with the River, with the library's words. */
    drain(2);
    request(2, "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"seats\":[\"me\",\"greedy\"],"
               "\"expansions\":[\"river\"],\"rules\":[\"extra-start-tile\"]}");
    json_t *err = expect(2, "error");
    assert_non_null(strstr(json_string_value(json_object_get(err, "message")), "extra-start-tile"));
}

static int count_moves(const char *record)
{
    carc_record_error err;
    carc_game *g = carc_record_read(record, strlen(record), 1, &err);
    assert_non_null(g);
    int n = carc_game_move_count(g);
    carc_game_free(g);
    return n;
}

/* Against the computer, `takeback` takes back the player's last move and
 * the computer's reply at once (issue 36): the player is to move again
 * with the same tile, the record and the stored game keep only the moves
 * that stand, and a restarted server holds the same game. */
static void test_takeback_against_computer(void **state)
{
    (void)state;
    two_players("[\"me\",\"random\"]", 0);
    ask_table(0, "takeback", "");
    expect_error_code(0, "illegal"); /* no move yet */
    /* Two moves of the player and the computer's replies. The deal is
     * random: a tile that fits nowhere is discarded and its player moves
     * again, so the turns follow each move's `next`. */
    char first[64], move[64];
    json_t *st = NULL;
    int turn = 0, seat = 0, own = 0, from = -1;
    while (own < 2 || seat != 0) {
        if (seat == 0) {
            legal_move(0, move, sizeof move, 1);
            snprintf(first, sizeof first, "%s", move);
            from = turn;
            send_move(0, turn, move);
            expect(0, "move.ok");
            own++;
        } else {
            computer_answers(turn);
        }
        json_t *nx = json_object_get(expect(0, "move"), "next");
        assert_false(json_is_null(nx));
        seat = (int)json_integer_value(json_object_get(nx, "player"));
        turn++;
    }
    ask_table(0, "sync", "");
    expect(0, "sync.ok");
    st = expect(0, "state");
    const char *digest_before = json_string_value(json_object_get(st, "digest"));
    (void)digest_before;
    ask_table(0, "takeback", "");
    json_t *ok = expect(0, "takeback.ok");
    assert_string_equal(json_string_value(json_object_get(ok, "what")), "done");
    assert_int_equal(json_integer_value(json_object_get(ok, "turn")), from);
    json_t *ev = expect(0, "takeback");
    assert_int_equal(json_integer_value(json_object_get(ev, "moves")), turn - from);
    st = expect(0, "state");
    assert_int_equal(json_integer_value(json_object_get(st, "turn")), from);
    assert_int_equal(json_integer_value(json_object_get(st, "to_move")), 0);
    /* The same tile again: the same move is legal and plays. */
    legal_move(0, move, sizeof move, 1);
    assert_string_equal(move, first);
    assert_int_equal(count_moves(record_of(0)), from);
    json_t *again = restarted_state(tokens[0], NULL);
    assert_int_equal(json_integer_value(json_object_get(again, "turn")), from);
    assert_string_equal(json_string_value(json_object_get(again, "digest")),
                        json_string_value(json_object_get(st, "digest")));
    send_move(0, from, move);
    expect(0, "move.ok");
}

/* Between people a takeback is asked and needs the other's yes (issue
 * 36): a no leaves the game as it was, an ask lapses with the next move,
 * a yes takes the asker's last move back for both. */
static void test_takeback_between_people(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"]", 1);
    int seat = 0;
    play_turn(&seat, 0, first_with_spot, NULL);
    drain(0);
    drain(1);
    /* Seat 1 is to move; seat 0 asks for its move back; seat 1 says no. */
    ask_table(0, "takeback", "");
    assert_string_equal(json_string_value(json_object_get(expect(0, "takeback.ok"), "what")),
                        "asked");
    json_t *ev = expect(1, "takeback");
    assert_string_equal(json_string_value(json_object_get(ev, "what")), "asked");
    assert_int_equal(json_integer_value(json_object_get(ev, "seat")), 0);
    ask_table(1, "sync", ""); /* a reload sees the ask waiting */
    expect(1, "sync.ok");
    json_t *asked = json_object_get(expect(1, "state"), "takeback");
    assert_int_equal(json_integer_value(json_object_get(asked, "seat")), 0);
    ask_table(1, "takeback", ",\"accept\":false");
    expect(1, "takeback.ok");
    drain(0);
    drain(1);
    assert_int_equal(count_moves(record_of(0)), 1);
    /* Asked again, then seat 1 moves instead: the ask lapses. */
    ask_table(0, "takeback", "");
    expect(0, "takeback.ok");
    seat = 1;
    play_turn(&seat, 1, first_with_spot, NULL);
    ask_table(1, "takeback", ",\"accept\":false");
    expect_error_code(1, "bad_field"); /* nothing to decline */
    /* Seat 1 asks for its move back; seat 0 agrees: done for both. */
    drain(0);
    drain(1);
    ask_table(1, "takeback", "");
    expect(1, "takeback.ok");
    expect(0, "takeback");
    ask_table(0, "takeback", "");
    json_t *ok = expect(0, "takeback.ok");
    assert_string_equal(json_string_value(json_object_get(ok, "what")), "done");
    for (int c = 0; c < 2; c++) {
        json_t *m;
        while ((m = next(c)) && strcmp(type_of(m), "state") != 0)
            ;
        assert_non_null(m);
        assert_int_equal(json_integer_value(json_object_get(m, "turn")), 1);
        assert_int_equal(json_integer_value(json_object_get(m, "to_move")), 1);
    }
    assert_int_equal(count_moves(record_of(0)), 1);
}

/* Resigning (issue 36): with two players the game ends, the seat that
 * resigned losing (`forfeit N resigned`); with three, the computer plays
 * the seat from then on (`resigned N SPEC` in the record) and the player
 * can no longer move for it. */
static void test_resign(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"]", 1);
    drain(0);
    drain(1);
    ask_table(1, "resign", "");
    assert_int_equal(json_integer_value(json_object_get(expect(1, "resign.ok"), "turn")), 0);
    json_t *ev = expect(0, "move");
    assert_string_equal(json_string_value(json_object_get(ev, "move")), "end");
    json_t *end = expect(0, "end");
    assert_int_equal(json_integer_value(json_object_get(end, "forfeit")), 1);
    assert_string_equal(json_string_value(json_object_get(end, "forfeit_reason")), "resigned");
    assert_non_null(strstr(record_of(0), "forfeit 2 resigned\n"));
    ask_table(0, "resign", "");
    expect_error_code(0, "game_over");

    teardown(state);
    setup(state);
    two_players_with("[\"me\",\"open\",\"random\"]", "", 1);
    drain(0);
    drain(1);
    int seat = 0;
    play_turn(&seat, 0, first_with_spot, NULL); /* seat 1 to move */
    drain(0);
    drain(1);
    think.asked = 0;
    ask_table(1, "resign", "");
    assert_string_equal(json_string_value(json_object_get(expect(1, "resign.ok"), "what")),
                        "computer");
    ev = expect(0, "resign");
    assert_int_equal(json_integer_value(json_object_get(ev, "seat")), 1);
    assert_int_equal(think.asked, 1); /* the computer plays seat 1's turn */
    assert_int_equal(think.turn, 1);
    char move[64];
    drain(1);
    legal_move(1, move, sizeof move, 0);
    send_move(1, 1, move);
    expect_error_code(1, "illegal");
    computer_answers(1);
    drain(0);
    ask_table(0, "sync", "");
    expect(0, "sync.ok");
    json_t *seats = json_object_get(expect(0, "state"), "seats");
    assert_true(json_is_true(json_object_get(json_array_get(seats, 1), "resigned")));
    assert_null(json_object_get(json_array_get(seats, 0), "resigned"));
    const char *record = record_of(0);
    assert_non_null(strstr(record, "seat-2 human\n"));
    assert_non_null(strstr(record, "resigned 2 " TABLE_RESIGNED_SPEC "\n"));
}

/* A rematch (issue 36): asked at the end, declined, asked again and
 * agreed; the new table has the same rules and clock, the seats turned by
 * one, each person's seat theirs through the token the `rematch` event
 * gives; an ask lapses after TABLE_REMATCH_MS; against the computer it is
 * made at once. */
static void test_rematch(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"],\"rules\":[\"small-city\"],\"clock\":{\"mode\":\"move\","
                "\"seconds\":60}",
                1);
    ask_table(0, "rematch", "");
    expect_error_code(0, "not_started"); /* not before the end */
    ask_table(1, "resign", "");
    drain(0);
    drain(1);
    ask_table(0, "rematch", "");
    assert_string_equal(json_string_value(json_object_get(expect(0, "rematch.ok"), "what")),
                        "asked");
    json_t *ev = expect(1, "rematch");
    assert_string_equal(json_string_value(json_object_get(ev, "what")), "asked");
    assert_true(json_integer_value(json_object_get(ev, "until_ms")) == clock_ms + TABLE_REMATCH_MS);
    drain(1);
    ask_table(1, "sync", ""); /* a reload sees the ask waiting */
    expect(1, "sync.ok");
    json_t *waiting = json_object_get(expect(1, "state"), "rematch");
    assert_int_equal(json_integer_value(json_object_get(waiting, "agreed")), 1);
    ask_table(1, "rematch", ",\"accept\":false");
    expect(1, "rematch.ok");
    drain(0);
    drain(1);
    /* An ask lapses: a yes after two minutes is a new ask. */
    ask_table(0, "rematch", "");
    clock_ms += TABLE_REMATCH_MS + 1000;
    drain(1);
    ask_table(1, "rematch", "");
    assert_string_equal(json_string_value(json_object_get(expect(1, "rematch.ok"), "what")),
                        "asked");
    drain(0);
    drain(1);
    ask_table(0, "rematch", "");
    json_t *ok = expect(0, "rematch.ok");
    assert_string_equal(json_string_value(json_object_get(ok, "what")), "ready");
    char fresh[32], token[2][80];
    snprintf(fresh, sizeof fresh, "%s", json_string_value(json_object_get(ok, "new_table")));
    for (int c = 0; c < 2; c++) {
        ev = expect(c, "rematch");
        assert_string_equal(json_string_value(json_object_get(ev, "new_table")), fresh);
        /* Old seat c sits at c - 1 (turned by one). */
        assert_int_equal(json_integer_value(json_object_get(ev, "seat")), (c + 1) % 2);
        snprintf(token[c], sizeof token[c], "%s", json_string_value(json_object_get(ev, "token")));
    }
    char text[300];
    snprintf(text, sizeof text, "{\"type\":\"resume\",\"id\":5,\"table\":\"%s\",\"token\":\"%s\"}",
             fresh, token[0]);
    request(0, text);
    assert_int_equal(json_integer_value(json_object_get(expect(0, "resume.ok"), "seat")), 1);
    json_t *st = expect(0, "state");
    assert_string_equal(json_string_value(json_object_get(st, "status")), "playing");
    assert_string_equal(json_string_value(json_array_get(json_object_get(st, "rules"), 0)),
                        "small-city");
    json_t *clock = json_object_get(st, "clock");
    assert_int_equal(json_integer_value(json_object_get(clock, "seconds")), 60);
    assert_int_equal(json_integer_value(json_object_get(st, "to_move")), 0);
    json_t *seats = json_object_get(st, "seats");
    assert_string_equal(json_string_value(json_object_get(json_array_get(seats, 0), "name")),
                        "Bob");
    /* A second rematch of the same table is refused: it is made; a reload
     * of the old table links the new one. */
    ask_table(1, "rematch", "");
    expect_error_code(1, "bad_field");
    drain(1);
    ask_table(1, "sync", "");
    expect(1, "sync.ok");
    json_t *made = json_object_get(expect(1, "state"), "rematch");
    assert_string_equal(json_string_value(json_object_get(made, "new_table")), fresh);

    /* Against the computer: made at once, the computer's turn asked. */
    teardown(state);
    setup(state);
    two_players("[\"me\",\"random\"]", 0);
    ask_table(0, "resign", "");
    drain(0);
    think.asked = 0;
    ask_table(0, "rematch", "");
    ok = expect(0, "rematch.ok");
    assert_string_equal(json_string_value(json_object_get(ok, "what")), "ready");
    assert_int_equal(think.asked, 1);
    assert_string_equal(think.table, json_string_value(json_object_get(ok, "new_table")));
}

/* A rated game (issue 36): only players logged in make or join one, the
 * computer seats must have a fixed rating, no takeback; at its end (here
 * a resign) each account's rating moves by Glicko-2 exactly, in the pass
 * of the game's end. */
static void test_rated_game(void **state)
{
    (void)state;
    const char *create = "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"rated\":true,"
                         "\"seats\":[\"me\",\"open\"]}";
    request(0, create);
    expect_error_code(0, "bad_field"); /* a guest */
    int64_t ann = 0, bob = 0;
    assert_int_equal(storage_create_account(store, "Ann", "ann", "h", 1, &ann), 0);
    assert_int_equal(storage_create_account(store, "Bob", "bob", "h", 1, &bob), 0);
    assert_int_equal(storage_commit(store), 0);
    clients[0].account = ann;
    clients[1].account = bob;
    request(0, "{\"type\":\"create\",\"id\":1,\"rated\":true,\"seats\":[\"me\",\"vanilla-mcts\"]}");
    expect_error_code(0, "bad_field"); /* a computer without a rating */
    request(0, create);
    json_t *ok = expect(0, "create.ok");
    snprintf(table_id, sizeof table_id, "%s", json_string_value(json_object_get(ok, "table")));
    drain(0);
    char text[300];
    snprintf(text, sizeof text, "{\"type\":\"join\",\"id\":2,\"table\":\"%s\",\"name\":\"Bob\"}",
             table_id);
    request(2, text);
    expect_error_code(2, "bad_field"); /* a guest cannot join */
    request(1, text);
    expect(1, "join.ok");
    drain(0);
    drain(1);
    /* The account's tables in `mine` with no token given; to_move in the
     * lobby's entries. */
    request(1, "{\"type\":\"mine\",\"id\":3,\"seats\":[]}");
    json_t *mine = json_object_get(expect(1, "mine.ok"), "tables");
    assert_int_equal(json_array_size(mine), 1);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(mine, 0), "seat")), 1);
    assert_true(json_is_true(json_object_get(json_array_get(mine, 0), "rated")));
    assert_int_equal(json_integer_value(json_object_get(json_array_get(mine, 0), "to_move")), 0);
    request(2, "{\"type\":\"mine\",\"id\":3,\"seats\":[]}");
    assert_int_equal(json_array_size(json_object_get(expect(2, "mine.ok"), "tables")), 0);
    int seat = 0;
    play_turn(&seat, 0, first_with_spot, NULL);
    drain(0);
    drain(1);
    ask_table(0, "takeback", "");
    expect_error_code(0, "illegal");
    ask_table(1, "resign", "");
    expect(1, "resign.ok");
    stored_rating got[4];
    assert_int_equal(storage_ratings(store, ann, got, 4), 1);
    assert_int_equal(got[0].category, GLICKO2_DUEL);
    assert_int_equal(got[0].games, 1);
    /* The formulas: both new players, Ann won. */
    glicko2_rating want = glicko2_new_player();
    glicko2_result won = {GLICKO2_START_RATING, GLICKO2_START_RD, 1.0};
    assert_int_equal(glicko2_update(&want, &won, 1, GLICKO2_TAU), 0);
    assert_true(got[0].rating == want.rating && got[0].rd == want.rd &&
                got[0].volatility == want.volatility);
    assert_int_equal(storage_ratings(store, bob, got, 4), 1);
    assert_true(got[0].rating < GLICKO2_START_RATING);
    stored_rating_change ch[2];
    assert_int_equal(storage_rating_changes(store, bob, ch, 2), 1);
    assert_string_equal(ch[0].table, table_id);
    assert_true(ch[0].before == GLICKO2_START_RATING);
    clients[0].account = clients[1].account = 0;
}

/* A correspondence clock, days a move (issue 36): the state says it; its
 * deadline is kept across a restart (the time the server was down counts,
 * unlike the minutes clocks), and past it the clock does what on_timeout
 * says. */
static void test_days_clock(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"],\"clock\":{\"mode\":\"days\",\"days\":2,"
                "\"on_timeout\":\"forfeit\"}",
                1);
    ask_table(0, "sync", "");
    expect(0, "sync.ok");
    json_t *clock = json_object_get(expect(0, "state"), "clock");
    assert_string_equal(json_string_value(json_object_get(clock, "mode")), "days");
    assert_int_equal(json_integer_value(json_object_get(clock, "days")), 2);
    int64_t deadline = json_integer_value(json_object_get(clock, "deadline_ms"));
    assert_true(deadline == clock_ms + 2LL * 86400 * 1000);
    clock_ms += 86400LL * 1000; /* a day passes, the server restarts */
    json_t *st = restarted_state(tokens[0], NULL);
    clock = json_object_get(st, "clock");
    assert_true(json_integer_value(json_object_get(clock, "deadline_ms")) == deadline);
    assert_true(json_integer_value(json_array_get(json_object_get(clock, "left_ms"), 0)) ==
                86400LL * 1000);
    assert_non_null(strstr(record_of(0), "clock days 2 forfeit\n"));
    clock_ms += 86400LL * 1000 + 1000;
    tables_tick(T, clock_ms);
    clock_ms += 100;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    json_t *m;
    while ((m = next(1)) && strcmp(type_of(m), "end") != 0)
        ;
    assert_non_null(m);
    assert_int_equal(json_integer_value(json_object_get(m, "forfeit")), 0);
}

static void test_leave_and_presence(void **state)
{
    (void)state;
    char text[200];
    two_players("[\"me\",\"open\"]", 1);
    tables_client_gone(T, &clients[1]);
    assert_int_equal(tables_flush(T), 0);
    json_t *seat = expect(0, "seat");
    assert_int_equal(json_integer_value(json_object_get(seat, "seat")), 1);
    assert_true(json_is_false(json_object_get(seat, "present")));
    snprintf(text, sizeof text, "{\"type\":\"resume\",\"id\":8,\"table\":\"%s\",\"token\":\"%s\"}",
             table_id, tokens[1]);
    request(3, text);
    expect(3, "resume.ok");
    seat = expect(0, "seat");
    assert_true(json_is_true(json_object_get(seat, "present")));
    snprintf(text, sizeof text, "{\"type\":\"leave\",\"id\":9,\"table\":\"%s\"}", table_id);
    request(3, text);
    expect(3, "state");
    expect(3, "leave.ok");
    seat = expect(0, "seat");
    assert_true(json_is_false(json_object_get(seat, "present")));
}

/* A seat whose move clock runs out forfeits: the game ends, the record
 * says so, and a finished table nobody follows is let go and read back
 * from storage when asked for. */
static void test_clock_forfeit(void **state)
{
    (void)state;
    char text[300];
    two_players("[\"me\",\"open\"],\"clock\":{\"mode\":\"move\",\"seconds\":5,"
                "\"on_timeout\":\"forfeit\"}",
                1);
    clock_ms += 4000;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    assert_null(next(0));
    clock_ms += 2000;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    assert_null(next(1)); /* the input waiting in the sockets is read first */
    clock_ms += 100;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    json_t *ev = expect(1, "move");
    assert_string_equal(json_string_value(json_object_get(ev, "move")), "end");
    assert_string_equal(json_string_value(json_object_get(ev, "by")), "server");
    json_t *end = expect(1, "end");
    assert_int_equal(json_integer_value(json_object_get(end, "forfeit")), 0);
    json_t *winners = json_object_get(end, "winners");
    assert_int_equal(json_array_size(winners), 1);
    assert_int_equal(json_integer_value(json_array_get(winners, 0)), 1);
    tables_client_gone(T, &clients[0]);
    tables_client_gone(T, &clients[1]);
    tables_tick(T, clock_ms); /* lets the finished table go */
    assert_int_equal(tables_flush(T), 0);
    snprintf(text, sizeof text, "{\"type\":\"record\",\"id\":5,\"table\":\"%s\"}", table_id);
    request(2, text);
    json_t *rec = expect(2, "record.ok");
    assert_true(json_is_true(json_object_get(rec, "finished")));
    const char *record = json_string_value(json_object_get(rec, "record"));
    assert_non_null(strstr(record, "forfeit 1 time\n"));
    assert_non_null(strstr(record, "clock move 5 forfeit\n"));
    assert_non_null(strstr(record, "\nend\n"));
    carc_record_error err;
    carc_game *g = carc_record_read(record, strlen(record), 1, &err);
    assert_non_null(g);
    assert_true(carc_game_over(g));
    carc_game_free(g);
}

/* Time the server's loop was stalled is not charged to the seat to move:
 * 4 s used of 5, a 3 s stall, 1 s more: no forfeit, and the move counts. */
static void test_clock_stall(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"],\"clock\":{\"mode\":\"move\",\"seconds\":5,"
                "\"on_timeout\":\"forfeit\"}",
                1);
    clock_ms += 4000;
    tables_tick(T, clock_ms);
    clock_ms += 3000;
    tables_stalled(T, 3000);
    tables_tick(T, clock_ms);
    clock_ms += 100;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    assert_null(next(0));
    assert_null(next(1));
    char move[64];
    legal_move(0, move, sizeof move, 0);
    send_move(0, 0, move);
    expect(0, "move.ok");
    json_t *ev = expect(1, "move");
    assert_string_equal(json_string_value(json_object_get(ev, "by")), "player");
}

/* A stall is stored (issue 35): after a restart the clocks of past turns
 * are replayed from the stored moves without charging their stalls (seat
 * 0: 5 s charged, not 15). The turn being played goes on from the restart
 * (register_table: the time nobody ran the table is not charged). The
 * stored stall of the current turn counts where a table is read without
 * being run (another process's view): checked with the storage. */
static void test_clock_stall_kept(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"],\"clock\":{\"mode\":\"fischer\",\"seconds\":30,"
                "\"increment\":0}",
                1);
    /* Seat 0: 4 s, a 10 s stall, 1 s more, then its move: 5 s charged. */
    clock_ms += 4000;
    tables_tick(T, clock_ms);
    clock_ms += 10000;
    tables_stalled(T, 10000);
    clock_ms += 1000;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    int seat = 0;
    play_turn(&seat, 0, first_with_spot, NULL);
    /* Seat 1: 2 s, a 6 s stall, 1 s: 3 s charged so far. */
    clock_ms += 2000;
    tables_tick(T, clock_ms);
    clock_ms += 6000;
    tables_stalled(T, 6000);
    clock_ms += 1000;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    json_t *st = restarted_state(tokens[1], NULL);
    json_t *left = json_object_get(json_object_get(st, "clock"), "left_ms");
    assert_int_equal(json_integer_value(json_array_get(left, 0)), 25000);
    assert_int_equal(json_integer_value(json_array_get(left, 1)), 30000);
    stored_table *row = malloc(sizeof *row);
    assert_int_equal(storage_load_table(store, table_id, row), 1);
    assert_int_equal(row->paused_ms, 6000);
    assert_int_equal(row->nmoves, 1);
    assert_int_equal(row->moves[0].paused_ms, 10000);
    free(row);
}

/* A Fischer clock that runs out lets the computer play for the seat. */
static void test_clock_computer(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"],\"clock\":{\"mode\":\"fischer\",\"seconds\":30,"
                "\"increment\":2}",
                1);
    assert_int_equal(think.asked, 0);
    clock_ms += 31000;
    tables_tick(T, clock_ms);
    clock_ms += 100;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    assert_int_equal(think.asked, 1);
    assert_int_equal(think.turn, 0);
    carc_rng rng = carc_rng_seed(1);
    char move[64];
    carc_move_write(think.game, carc_random_move(think.game, &rng, 0.0), move, sizeof move);
    tables_computer_move(T, table_id, 0, move);
    assert_int_equal(tables_flush(T), 0);
    json_t *ev = expect(1, "move");
    assert_string_equal(json_string_value(json_object_get(ev, "by")), "computer");
    json_t *left = json_object_get(json_object_get(ev, "clock"), "left_ms");
    assert_int_equal(json_integer_value(json_array_get(left, 0)), 2000);
    assert_int_equal(json_integer_value(json_array_get(left, 1)), 30000);
}

/* One turn of a clock table whose clock ran out: two ticks past the
 * clock (input first), then the computer's move for the asked turn. */
static void computer_plays_late_turn(int turn, int seconds)
{
    clock_ms += (int64_t)seconds * 1000 + 1000;
    tables_tick(T, clock_ms);
    clock_ms += 100;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    assert_int_equal(think.turn, turn);
    carc_rng rng = carc_rng_seed((uint64_t)turn + 1);
    char move[64];
    carc_move_write(think.game, carc_random_move(think.game, &rng, 0.0), move, sizeof move);
    tables_computer_move(T, table_id, turn, move);
    assert_int_equal(tables_flush(T), 0);
}

/* The seat to move after the last `move` event client `c` was sent (its
 * other messages are dropped); -1 when the game is over. The event's `by`
 * must be `by`. */
static int next_after_move(int c, const char *by)
{
    json_t *ev = NULL, *m;
    while ((m = next(c)))
        if (strcmp(type_of(m), "move") == 0)
            ev = m;
    assert_non_null(ev);
    assert_string_equal(json_string_value(json_object_get(ev, "by")), by);
    json_t *nx = json_object_get(ev, "next");
    return json_is_null(nx) ? -1 : (int)json_integer_value(json_object_get(nx, "player"));
}

/* A table whose clock hands late turns to the computer no longer plays on
 * forever for a player who left (issue 35): the computer plays a seat's
 * turns while its player is away, and after TABLE_ABANDON_TURNS of them
 * in a row the seat forfeits as `abandoned` (record: `forfeit 2
 * abandoned`). A player who is there but slow never forfeits. The deal is
 * random: a tile that fits nowhere is discarded and its player moves
 * again, so the turns follow each move's `next`, not a strict
 * alternation. */
static void test_clock_abandoned(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"],\"clock\":{\"mode\":\"move\",\"seconds\":10,"
                "\"on_timeout\":\"computer\"}",
                1);
    /* Seat 0 is there but slow: the computer plays its turns, no forfeit. */
    int turn = 0, seat = 0;
    for (int late = 0; late < TABLE_ABANDON_TURNS + 1;) {
        if (seat == 1) {
            play_turn(&seat, turn++, first_with_spot, NULL);
            continue;
        }
        drain(0);
        drain(1);
        computer_plays_late_turn(turn++, 10);
        seat = next_after_move(0, "computer");
        late++;
    }
    /* Seat 1 leaves: its turns are played for it, then it forfeits. */
    drain(0);
    drain(1);
    tables_client_gone(T, &clients[1]);
    assert_int_equal(tables_flush(T), 0);
    for (int late = 0; late < TABLE_ABANDON_TURNS;) {
        if (seat == 0) {
            play_turn(&seat, turn++, first_with_spot, NULL);
            continue;
        }
        drain(0);
        computer_plays_late_turn(turn++, 10);
        seat = next_after_move(0, "computer");
        late++;
    }
    while (seat == 0)
        play_turn(&seat, turn++, first_with_spot, NULL);
    assert_int_equal(seat, 1);
    drain(0);
    clock_ms += 11000;
    tables_tick(T, clock_ms);
    clock_ms += 100;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    json_t *ev = expect(0, "move");
    assert_string_equal(json_string_value(json_object_get(ev, "move")), "end");
    assert_string_equal(json_string_value(json_object_get(ev, "by")), "server");
    json_t *end = expect(0, "end");
    assert_int_equal(json_integer_value(json_object_get(end, "forfeit")), 1);
    assert_string_equal(json_string_value(json_object_get(end, "forfeit_reason")), "abandoned");
    json_t *winners = json_object_get(end, "winners");
    assert_int_equal(json_array_size(winners), 1);
    assert_int_equal(json_integer_value(json_array_get(winners, 0)), 0);
    char text[200];
    snprintf(text, sizeof text, "{\"type\":\"record\",\"id\":5,\"table\":\"%s\"}", table_id);
    request(0, text);
    const char *record = json_string_value(json_object_get(expect(0, "record.ok"), "record"));
    assert_non_null(strstr(record, "forfeit 2 abandoned\n"));
    assert_non_null(strstr(record, "\nend\n"));
}

/* A restarted server (a new registry over the same storage) holds the
 * same game: the same digest, and the seat's token still works. */
static void test_restart(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"]", 1);
    /* Whoever is to move plays: a discard gives the same player the next
     * turn. */
    char digest[32] = "";
    int c = 0;
    for (int turn = 0; turn < 4; turn++) {
        json_t *ev = play_turn(&c, turn, first_with_spot, NULL);
        snprintf(digest, sizeof digest, "%s", json_string_value(json_object_get(ev, "digest")));
    }
    /* A broken table in storage is skipped, the others load. */
    stored_table *broken = calloc(1, sizeof *broken);
    snprintf(broken->id, sizeof broken->id, "tbroken00001");
    broken->status = TABLE_PLAYING;
    broken->players = 2;
    broken->forfeit = -1;
    broken->nmoves = 1;
    snprintf(broken->moves[0].text, sizeof broken->moves[0].text, "Q 9 9 0");
    assert_int_equal(storage_create_table(store, broken), 0);
    assert_int_equal(storage_commit(store), 0);
    free(broken);
    json_t *st = restarted_state(tokens[1], NULL);
    assert_string_equal(json_string_value(json_object_get(st, "digest")), digest);
    assert_int_equal(json_integer_value(json_object_get(st, "turn")), 4);
    assert_int_equal(json_array_size(json_object_get(st, "moves")), 4);
}

static void test_chat_and_mine(void **state)
{
    (void)state;
    char text[300];
    two_players("[\"me\",\"open\"]", 1);
    snprintf(text, sizeof text, "{\"type\":\"chat\",\"id\":1,\"table\":\"%s\",\"text\":\"hi\"}",
             table_id);
    request(0, text);
    expect(0, "chat.ok");
    json_t *line = expect(1, "chat");
    assert_string_equal(json_string_value(json_object_get(line, "name")), "Ann");
    assert_int_equal(json_integer_value(json_object_get(line, "seat")), 0);
    expect(0, "chat");
    request(0, text);
    expect_error_code(0, "rate_limited");
    clock_ms += 1001;
    request(0, text);
    expect(0, "chat.ok");
    request(2, text);
    expect_error_code(2, "not_seated");
    snprintf(text, sizeof text,
             "{\"type\":\"mine\",\"id\":2,\"seats\":[{\"table\":\"%s\",\"token\":\"%s\"},"
             "{\"table\":\"%s\",\"token\":\"%s\"},{\"table\":\"tnosuchtable\",\"token\":\"%s\"}]}",
             table_id, tokens[1], table_id, "ffffffffffffffffffffffffffffffff", tokens[1]);
    request(2, text);
    json_t *mine = expect(2, "mine.ok");
    json_t *list = json_object_get(mine, "tables");
    assert_int_equal(json_array_size(list), 1);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(list, 0), "seat")), 1);
}

/* A server restarted over the same storage (a new registry). */
static srv_tables *restarted(void)
{
    srv_hooks hooks = {NULL, hook_send, hook_think, NULL, hook_now, hook_analyse, NULL, NULL, NULL};
    srv_limits limits = {10, 4, 2};
    srv_tables *again = tables_new(store, &hooks, &limits);
    char err[200];
    assert_int_equal(tables_load(again, err, sizeof err), 0);
    return again;
}

/* Client `c` sends `text` to registry `R`; the pass ends. */
static void request_to(srv_tables *R, int c, const char *text)
{
    msg_request *r = malloc(sizeof *r);
    msg_problem p;
    assert_int_equal(msg_decode(text, strlen(text), r, &p), ERR_NONE);
    tables_request(R, &clients[c], r);
    free(r);
    assert_int_equal(tables_flush(R), 0);
}

/* Chat is kept with the table: a restarted server (or another one on the
 * same database) shows the lines said before, and numbers the next one
 * after them. */
static void test_chat_kept(void **state)
{
    (void)state;
    char text[300];
    two_players("[\"me\",\"open\"]", 1);
    for (int i = 0; i < 3; i++) {
        snprintf(text, sizeof text,
                 "{\"type\":\"chat\",\"id\":1,\"table\":\"%s\",\"text\":\"line %d\"}", table_id, i);
        drain(i % 2);
        request(i % 2, text);
        expect(i % 2, "chat.ok");
        clock_ms += 1001;
    }
    srv_tables *again = restarted();
    snprintf(text, sizeof text, "{\"type\":\"watch\",\"id\":8,\"table\":\"%s\"}", table_id);
    request_to(again, 3, text);
    expect(3, "watch.ok");
    json_t *chat = json_object_get(expect(3, "state"), "chat");
    assert_int_equal(json_array_size(chat), 3);
    json_t *last = json_array_get(chat, 2);
    assert_string_equal(json_string_value(json_object_get(last, "text")), "line 2");
    assert_string_equal(json_string_value(json_object_get(last, "name")), "Ann");
    snprintf(text, sizeof text, "{\"type\":\"chat\",\"id\":9,\"table\":\"%s\",\"text\":\"after\"}",
             table_id);
    request_to(again, 3, text);
    expect(3, "chat.ok");
    tables_client_gone(again, &clients[3]);
    tables_free(again);
    stored_chat lines[CHAT_KEPT];
    int total = 0;
    assert_int_equal(storage_load_chat(store, table_id, lines, CHAT_KEPT, &total), 4);
    assert_int_equal(total, 4);
    assert_string_equal(lines[3].text, "after");
    assert_int_equal(lines[3].seat, -1);
}

/* A waiting table nobody follows for a day is closed: out of the lobby
 * and of the limits, and no one can join it. */
static void test_idle_waiting_table_closed(void **state)
{
    (void)state;
    char text[300];
    two_players("[\"me\",\"open\"]", 0);
    tables_client_gone(T, &clients[0]);
    clock_ms += TABLE_IDLE_CLOSE_MS - 1000;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    request(2, "{\"type\":\"lobby\",\"id\":1}");
    assert_int_equal(json_array_size(json_object_get(expect(2, "lobby.ok"), "tables")), 1);
    clock_ms += 2000;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    request(2, "{\"type\":\"lobby\",\"id\":1}");
    assert_int_equal(json_array_size(json_object_get(expect(2, "lobby.ok"), "tables")), 0);
    snprintf(text, sizeof text, "{\"type\":\"join\",\"id\":2,\"table\":\"%s\",\"name\":\"Bob\"}",
             table_id);
    request(1, text);
    expect_error_code(1, "no_table");
}

/* A keyed `create` repeated after its table was closed for want of
 * players (issue 35: it answered `internal`): a clear refusal naming the
 * key, whether the closed table is still in memory or only stored (a
 * restarted server); nothing is made. */
static void test_keyed_create_closed(void **state)
{
    (void)state;
    const char *create = "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"key\":"
                         "\"create-closed-0123456789\",\"seats\":[\"me\",\"open\"]}";
    request(0, create);
    expect(0, "create.ok");
    expect(0, "state");
    tables_client_gone(T, &clients[0]);
    clock_ms += TABLE_IDLE_CLOSE_MS + 1000;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    int live = tables_live(T);
    request(1, create);
    json_t *e = expect(1, "error");
    assert_string_equal(json_string_value(json_object_get(e, "code")), "bad_field");
    assert_non_null(strstr(json_string_value(json_object_get(e, "message")), "closed"));
    assert_int_equal(tables_live(T), live);
    /* A new registry over the same storage: the table is only stored. */
    srv_hooks hooks = {NULL, hook_send, hook_think, NULL, hook_now, hook_analyse, NULL, NULL, NULL};
    srv_limits limits = {10, 4, 2};
    srv_tables *again = tables_new(store, &hooks, &limits);
    char err[200];
    assert_int_equal(tables_load(again, err, sizeof err), 0);
    msg_request *r = malloc(sizeof *r);
    msg_problem prob;
    assert_int_equal(msg_decode(create, strlen(create), r, &prob), ERR_NONE);
    drain(2);
    tables_request(again, &clients[2], r);
    free(r);
    assert_int_equal(tables_flush(again), 0);
    e = expect(2, "error");
    assert_string_equal(json_string_value(json_object_get(e, "code")), "bad_field");
    assert_int_equal(tables_live(again), 0);
    tables_client_gone(again, &clients[2]);
    tables_free(again);
}

/* The review of a finished game: queued on the hook, its result sent to
 * the table's followers and kept for the next request. */
static void test_review(void **state)
{
    (void)state;
    char text[300];
    two_players("[\"me\",\"open\"],\"clock\":{\"mode\":\"move\",\"seconds\":5,"
                "\"on_timeout\":\"forfeit\"}",
                1);
    snprintf(text, sizeof text, "{\"type\":\"review\",\"id\":1,\"table\":\"%s\",\"ms\":50}",
             table_id);
    request(0, text);
    expect_error_code(0, "bad_field"); /* not finished */
    clock_ms += 6000;
    tables_tick(T, clock_ms);
    clock_ms += 100;
    tables_tick(T, clock_ms);
    assert_int_equal(tables_flush(T), 0);
    drain(0);
    drain(1);
    request(2, text);
    json_t *ok = expect(2, "review.ok");
    assert_int_equal(json_integer_value(json_object_get(ok, "position")), 0);
    assert_int_equal(review.asked, 1);
    assert_string_equal(review.table, table_id);
    char *moves = malloc(64);
    snprintf(moves, 64, "[{\"turn\":0,\"loss\":1.5}]");
    tables_review_done(T, table_id, moves);
    assert_int_equal(tables_flush(T), 0);
    json_t *ev = expect(2, "review");
    assert_int_equal(json_array_size(json_object_get(ev, "moves")), 1);
    expect(0, "review");
    expect(1, "review");
    request(1, text);
    expect(1, "review.ok");
    expect(1, "review");
    assert_int_equal(review.asked, 1); /* kept, not asked again */
    /* Stored: a restarted server (no review hook at all) answers it. */
    srv_tables *again = restarted();
    request_to(again, 3, text);
    expect(3, "review.ok");
    ev = expect(3, "review");
    json_t *first = json_array_get(json_object_get(ev, "moves"), 0);
    assert_true(json_real_value(json_object_get(first, "loss")) == 1.5);
    tables_client_gone(again, &clients[3]);
    tables_free(again);
}

/* Tables of computer seats only are capped per address (2 in these
 * tests): a third is refused with a clear error, another address may
 * still make one, and a table with a person's seat is not counted. */
static void test_computer_tables_capped(void **state)
{
    (void)state;
    const char *bots = "{\"type\":\"create\",\"id\":1,\"seats\":[\"greedy\",\"random\"]}";
    request(0, bots);
    expect(0, "create.ok");
    request(1, bots);
    expect(1, "create.ok");
    request(2, bots);
    json_t *e = expect(2, "error");
    assert_string_equal(json_string_value(json_object_get(e, "code")), "too_many");
    assert_non_null(
        strstr(json_string_value(json_object_get(e, "message")), "computer seats only"));
    request(3, bots); /* another address */
    expect(3, "create.ok");
    request(2, "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"seats\":[\"me\",\"greedy\"]}");
    expect(2, "create.ok");
}

/* `create` and `join` with a request key: a repeat (the answer was lost)
 * gets the same answer, token included, and makes no second table or
 * seat. */
static void test_request_keys(void **state)
{
    (void)state;
    const char *create = "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"key\":"
                         "\"create-0123456789abcdef\",\"seats\":[\"me\",\"open\",\"invite\"]}";
    request(0, create);
    json_t *first = json_deep_copy(expect(0, "create.ok"));
    expect(0, "state");
    int live = tables_live(T);
    request(2, create); /* the creator again, on a new connection */
    json_t *again = expect(2, "create.ok");
    assert_true(json_equal(first, again));
    expect(2, "state");
    assert_int_equal(tables_live(T), live);
    const char *table = json_string_value(json_object_get(first, "table"));
    char join[300];
    snprintf(join, sizeof join,
             "{\"type\":\"join\",\"id\":2,\"table\":\"%s\",\"name\":\"Bob\",\"seat\":1,"
             "\"key\":\"join-0123456789abcdef\"}",
             table);
    request(1, join);
    json_t *joined = json_deep_copy(expect(1, "join.ok"));
    tables_client_gone(T, &clients[1]); /* the answer was lost with the connection */
    assert_int_equal(tables_flush(T), 0);
    drain(1);
    request(3, join);
    json_t *rejoined = expect(3, "join.ok");
    assert_true(json_equal(joined, rejoined));
    expect(3, "state");
    /* Another key takes the next seat; a key too short is refused. */
    snprintf(join, sizeof join,
             "{\"type\":\"join\",\"id\":3,\"table\":\"%s\",\"name\":\"Cy\",\"key\":\"short\"}",
             table);
    request(1, join);
    expect_error_code(1, "bad_field");
    json_decref(first);
    json_decref(joined);
    drain(0);
}

/* The creator reopens a seat whose player never came (a lost join.ok at
 * a table that then started): someone else can take it and play. */
static void test_reopen_seat(void **state)
{
    (void)state;
    two_players("[\"me\",\"open\"]", 1);
    char text[300];
    snprintf(text, sizeof text, "{\"type\":\"reopen\",\"id\":7,\"table\":\"%s\",\"seat\":1}",
             table_id);
    request(0, text);
    expect_error_code(0, "no_seat"); /* Bob is there */
    tables_client_gone(T, &clients[1]);
    assert_int_equal(tables_flush(T), 0);
    drain(0);
    drain(1);
    request(2, text); /* not the creator */
    expect_error_code(2, "not_seated");
    request(0, text);
    json_t *ok = expect(0, "reopen.ok");
    assert_int_equal(json_integer_value(json_object_get(ok, "seat")), 1);
    json_t *seat = expect(0, "seat");
    assert_string_equal(json_string_value(json_object_get(seat, "kind")), "open");
    snprintf(text, sizeof text, "{\"type\":\"resume\",\"id\":8,\"table\":\"%s\",\"token\":\"%s\"}",
             table_id, tokens[1]);
    request(1, text);
    expect_error_code(1, "bad_token"); /* the old token no longer counts */
    snprintf(text, sizeof text, "{\"type\":\"join\",\"id\":9,\"table\":\"%s\",\"name\":\"Cy\"}",
             table_id);
    request(3, text);
    ok = expect(3, "join.ok");
    assert_int_equal(json_integer_value(json_object_get(ok, "seat")), 1);
    json_t *st = expect(3, "state");
    assert_string_equal(json_string_value(json_object_get(st, "status")), "playing");
    seat = expect(0, "seat"); /* Cy is there */
    assert_string_equal(json_string_value(json_object_get(seat, "name")), "Cy");
    char move[64];
    legal_move(0, move, sizeof move, 0);
    send_move(0, 0, move);
    expect(0, "move.ok");
    expect(3, "move");
}

/* No more tables than --max-tables, whoever asks. */
static void test_total_tables(void **state)
{
    (void)state;
    srv_hooks hooks = {NULL,         hook_send, hook_think, hook_review, hook_now,
                       hook_analyse, NULL,      NULL,       NULL};
    srv_limits limits = {2, 10, 10};
    srv_tables *small = tables_new(store, &hooks, &limits);
    const char *create = "{\"type\":\"create\",\"id\":1,\"seats\":[\"open\",\"open\"]}";
    msg_request *r = malloc(sizeof *r);
    msg_problem p;
    assert_int_equal(msg_decode(create, strlen(create), r, &p), ERR_NONE);
    for (int i = 0; i < 3; i++)
        tables_request(small, &clients[i == 2 ? 3 : 0], r);
    free(r);
    assert_int_equal(tables_flush(small), 0);
    expect(0, "create.ok");
    expect(0, "state");
    expect(0, "create.ok");
    expect(0, "state");
    expect_error_code(3, "too_many");
    assert_int_equal(tables_live(small), 2);
    tables_client_gone(small, &clients[0]);
    tables_client_gone(small, &clients[3]);
    tables_free(small);
}

/* A move the database refuses gets `internal`, and the game is as it was:
 * the same move is taken once the database works again. */
static void test_storage_failure(void **state)
{
    (void)state;
    char move[64];
    two_players("[\"me\",\"open\"]", 1);
    legal_move(0, move, sizeof move, 0);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "ALTER TABLE moves RENAME TO moves_away", NULL, NULL, NULL),
                     SQLITE_OK);
    send_move(0, 0, move);
    expect_error_code(0, "internal");
    assert_null(next(1)); /* the other seat saw nothing */
    assert_int_equal(sqlite3_exec(db, "ALTER TABLE moves_away RENAME TO moves", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    send_move(0, 0, move);
    expect(0, "move.ok");
    json_t *ev = expect(1, "move");
    assert_int_equal(json_integer_value(json_object_get(ev, "turn")), 0);
}

/* Answers the last analysis request as a worker would: the `mcts` player's
 * three best moves for the position asked. */
static void answer_analysis(void)
{
    carc_player *p = carc_player_new("mcts:ms=30,threads=1", 5, NULL, 0);
    assert_non_null(p);
    carc_move_eval evals[ANALYSIS_MOVES];
    int n = carc_player_rank(p, analyse.game, evals, ANALYSIS_MOVES, NULL);
    srv_analysis a = {.player = carc_game_current_player(analyse.game), .nmoves = n};
    for (int i = 0; i < n; i++) {
        carc_move_write(analyse.game, evals[i].move, a.moves[i], sizeof a.moves[i]);
        a.margin[i] = evals[i].margin;
        a.win[i] = evals[i].win;
    }
    carc_player_free(p);
    tables_analysis_done(T, analyse.table, analyse.turn, &a);
    assert_int_equal(tables_flush(T), 0);
}

static void table_request_of(int c, const char *type, const char *extra)
{
    char text[300];
    snprintf(text, sizeof text, "{\"type\":\"%s\",\"id\":9,\"table\":\"%s\"%s}", type, table_id,
             extra);
    request(c, text);
}

/* A hint is the search's three best moves, legal, in a `hint` event; a
 * second request while the job runs waits for the same job. */
static void test_hint_from_the_workers(void **state)
{
    (void)state;
    two_players("[\"me\",\"greedy\"]", 0);
    table_request_of(0, "hint", "");
    json_t *hint_ok = expect(0, "hint.ok");
    assert_int_equal(json_integer_value(json_object_get(hint_ok, "turn")), 0);
    assert_int_equal(analyse.asked, 1);
    assert_int_equal(analyse.turn, 0);
    table_request_of(0, "hint", "");
    expect(0, "hint.ok");
    assert_int_equal(analyse.asked, 1); /* one job per table */
    assert_null(next(0));
    answer_analysis();
    for (int k = 0; k < 2; k++) {
        json_t *hint = k == 0 ? expect(0, "hint") : NULL;
        if (k == 1) { /* asked again: answered at once from the analysis at hand */
            table_request_of(0, "hint", "");
            expect(0, "hint.ok");
            hint = expect(0, "hint");
            assert_int_equal(analyse.asked, 1);
        }
        assert_int_equal(json_integer_value(json_object_get(hint, "turn")), 0);
        /* The three best, or every move when the deal's first tile has
         * fewer (the server deals from a fresh seed). */
        json_t *moves = json_object_get(hint, "moves");
        int legal = carc_legal_moves(analyse.game, NULL, 0);
        size_t shown = legal < 3 ? (size_t)legal : 3;
        assert_int_equal(json_array_size(moves), shown);
        for (size_t i = 0; i < shown; i++) {
            json_t *m = json_array_get(moves, i);
            carc_move parsed;
            assert_int_equal(carc_move_parse(analyse.game,
                                             json_string_value(json_object_get(m, "move")),
                                             &parsed),
                             CARC_OK);
            carc_game *copy = carc_game_clone(analyse.game);
            assert_int_equal(carc_game_play(copy, parsed, NULL, 0, NULL), CARC_OK);
            carc_game_free(copy);
            double win = json_real_value(json_object_get(m, "win"));
            assert_true(win >= 0 && win <= 1);
            assert_true(json_is_number(json_object_get(m, "margin")));
        }
    }
    /* The estimate: both players' chances, from the same analysis. */
    table_request_of(0, "estimate", ",\"on\":true");
    json_t *on = expect(0, "estimate.ok");
    assert_true(json_is_true(json_object_get(on, "on")));
    json_t *est = expect(0, "estimate");
    json_t *win = json_object_get(est, "win");
    assert_int_equal(json_array_size(win), 2);
    double sum = json_real_value(json_array_get(win, 0)) + json_real_value(json_array_get(win, 1));
    assert_true(sum > 0.99 && sum < 1.01);
}

/* A job's answer for a turn that has gone is dropped; the current turn's
 * is asked for the estimates instead. After each move, the estimate. */
static void test_stale_analysis_dropped(void **state)
{
    (void)state;
    two_players("[\"me\",\"greedy\"]", 0);
    table_request_of(0, "estimate", "");
    expect(0, "estimate.ok");
    assert_int_equal(analyse.asked, 1);
    char move[64];
    legal_move(0, move, sizeof move, 0);
    send_move(0, 0, move);
    expect(0, "move.ok");
    expect(0, "move");
    assert_int_equal(analyse.asked, 1); /* the turn 0 job still runs, asked to stop */
    assert_int_equal(cancelled_before, 1);
    answer_analysis(); /* stale: turn 0 */
    assert_null(next(0));
    assert_int_equal(analyse.asked, 2);
    assert_int_equal(analyse.turn, 1);
    answer_analysis();
    json_t *est = expect(0, "estimate");
    assert_int_equal(json_integer_value(json_object_get(est, "turn")), 1);
    assert_int_equal(json_integer_value(json_object_get(est, "player")), 1);
    /* A hint out of turn; the estimates stopped. */
    table_request_of(0, "hint", "");
    expect_error_code(0, "not_your_turn");
    table_request_of(0, "estimate", ",\"on\":false");
    json_t *off = expect(0, "estimate.ok");
    assert_true(json_is_false(json_object_get(off, "on")));
}

/* "estimates": false is kept with the table, shown, survives a restart,
 * and refuses hints and estimates; hints are for seats against the
 * computer only. */
static void test_estimates_off(void **state)
{
    (void)state;
    request(0, "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"seats\":[\"me\",\"greedy\"],"
               "\"estimates\":false}");
    json_t *ok = expect(0, "create.ok");
    snprintf(table_id, sizeof table_id, "%s", json_string_value(json_object_get(ok, "table")));
    json_t *st = expect(0, "state");
    assert_true(json_is_false(json_object_get(st, "estimates")));
    table_request_of(0, "hint", "");
    expect_error_code(0, "bad_field");
    table_request_of(0, "estimate", "");
    expect_error_code(0, "bad_field");
    assert_int_equal(analyse.asked, 0);
    request(1, "{\"type\":\"lobby\",\"id\":2}");
    json_t *entry = json_array_get(json_object_get(expect(1, "lobby.ok"), "tables"), 0);
    assert_true(json_is_false(json_object_get(entry, "estimates")));
    request(0, "{\"type\":\"create\",\"id\":1,\"seats\":[\"open\",\"greedy\"],\"estimates\":1}");
    expect_error_code(0, "bad_field");
    /* A restarted server has the option from storage; a hint is still
     * refused there. */
    char hint[200];
    snprintf(hint, sizeof hint, "{\"type\":\"hint\",\"id\":9,\"table\":\"%s\"}", table_id);
    json_t *st_again = restarted_state(json_string_value(json_object_get(ok, "token")), hint);
    assert_true(json_is_false(json_object_get(st_again, "estimates")));
    expect_error_code(3, "bad_field");
    /* Two humans: no hints; a spectator: none either. */
    two_players("[\"me\",\"open\"]", 1);
    table_request_of(0, "hint", "");
    expect_error_code(0, "not_seated");
    table_request_of(2, "watch", "");
    expect(2, "watch.ok");
    expect(2, "state");
    table_request_of(2, "estimate", "");
    expect_error_code(2, "not_seated");
}

/* --- The River (river.md) ------------------------------------------------------------ */

/* Checks a `remaining` or `next_tiles` map against expected counts
 * ("RB", 1, ...; NULL ends), every other kind absent. */
static void expect_counts(const json_t *map, const char *const *ids, const int *counts, int n)
{
    assert_int_equal(json_object_size(map), (size_t)n);
    for (int i = 0; i < n; i++) {
        json_t *v = json_object_get(map, ids[i]);
        if (!v || json_integer_value(v) != counts[i])
            fail_msg("%s: %lld, not %d", ids[i], v ? (long long)json_integer_value(v) : -1LL,
                     counts[i]);
    }
}

static int is_river_id(const char *id)
{
    int kind = carc_tile_parse(id);
    return kind >= 0 && carc_tile(kind)->set == CARC_EXPANSION_RIVER;
}

/* The first placement with its first spot, checked: no spot on the
 * river. */
static void river_choice(json_t *legal, char *out, size_t cap, void *ctx)
{
    (void)ctx;
    int kind = carc_tile_parse(json_string_value(json_object_get(legal, "tile")));
    json_t *places = json_object_get(legal, "placements"), *p;
    size_t i;
    json_array_foreach(places, i, p)
    {
        int rot = (int)json_integer_value(json_object_get(p, "rot"));
        json_t *spot;
        size_t j;
        json_array_foreach(json_object_get(p, "spots"), j, spot)
        {
            int port = carc_port_parse(json_string_value(json_object_get(spot, "spot")));
            int seg = port >= 0 ? carc_tile_segment_at(kind, rot, port) : -1;
            if (seg >= 0 && carc_tile(kind)->segments[seg].kind == CARC_RIVER)
                fail_msg("a follower spot on the river: %s",
                         json_string_value(json_object_get(spot, "spot")));
        }
    }
    pick_move(legal, out, cap, 1);
}

/* A table with The River: its state names the expansion, starts from the
 * spring RA at 0,0, holds 82 tiles besides it (11 river tiles and the 71
 * base tiles other than the fourth D); the first 11 draws are the river
 * pile, the lake RL the eleventh; the first river tile has one square,
 * 1,0; a restarted server restores the table. */
static void test_river_table(void **state)
{
    (void)state;
    two_players_with("[\"me\",\"open\"]", ",\"expansions\":[\"river\"]", 0);
    char text[300], digest[32] = "";
    snprintf(text, sizeof text, "{\"type\":\"watch\",\"id\":5,\"table\":\"%s\"}", table_id);
    request(2, text);
    expect(2, "watch.ok");
    json_t *st = expect(2, "state");
    json_t *exp = json_object_get(st, "expansions");
    assert_int_equal(json_array_size(exp), 1);
    assert_string_equal(json_string_value(json_array_get(exp, 0)), "river");
    json_t *start = json_object_get(st, "start");
    assert_string_equal(json_string_value(json_object_get(start, "tile")), "RA");
    assert_int_equal(json_integer_value(json_object_get(start, "x")), 0);
    assert_int_equal(json_integer_value(json_object_get(start, "y")), 0);
    assert_int_equal(json_integer_value(json_object_get(start, "rot")), 0);
    assert_int_equal(json_integer_value(json_object_get(st, "tiles_left")), 82);
    static const char *const river_ids[] = {"RB", "RC", "RD", "RE", "RG", "RH", "RI", "RK", "RL"};
    static const int river_counts[] = {1, 1, 2, 1, 2, 1, 1, 1, 1};
    /* The first draw: the river pile but the lake. */
    expect_counts(json_object_get(st, "next_tiles"), river_ids, river_counts, 8);
    json_t *remaining = json_object_get(st, "remaining");
    for (int i = 0; i < 9; i++)
        assert_int_equal(json_integer_value(json_object_get(remaining, river_ids[i])),
                         river_counts[i]);
    assert_int_equal(json_integer_value(json_object_get(remaining, "D")), 3);
    assert_null(json_object_get(remaining, "RA"));
    request(1, "{\"type\":\"lobby\",\"id\":2}");
    json_t *entry = json_array_get(json_object_get(expect(1, "lobby.ok"), "tables"), 0);
    assert_string_equal(json_string_value(json_array_get(json_object_get(entry, "expansions"), 0)),
                        "river");
    snprintf(text, sizeof text, "{\"type\":\"join\",\"id\":2,\"table\":\"%s\",\"name\":\"Bob\"}",
             table_id);
    request(1, text);
    expect(1, "join.ok");
    st = expect(1, "state");
    const char *tile = json_string_value(json_object_get(st, "tile"));
    assert_true(is_river_id(tile) && strcmp(tile, "RL") != 0);
    assert_int_equal(json_integer_value(json_object_get(st, "tiles_left")), 81);
    /* The river's open end is the spring's east port: one square. */
    drain(0);
    snprintf(text, sizeof text, "{\"type\":\"legal\",\"id\":3,\"table\":\"%s\"}", table_id);
    request(0, text);
    json_t *legal = expect(0, "legal.ok");
    json_t *p;
    size_t i;
    assert_true(json_array_size(json_object_get(legal, "placements")) > 0);
    json_array_foreach(json_object_get(legal, "placements"), i, p)
    {
        assert_int_equal(json_integer_value(json_object_get(p, "x")), 1);
        assert_int_equal(json_integer_value(json_object_get(p, "y")), 0);
    }
    int c = 0;
    for (int turn = 0; turn < 12; turn++) {
        json_t *ev = play_turn(&c, turn, river_choice, NULL);
        const char *played = json_string_value(json_object_get(ev, "move"));
        const char *next = json_string_value(json_object_get(json_object_get(ev, "next"), "tile"));
        assert_non_null(next);
        /* Moves 0..10 lay (or discard) the river, the lake last. */
        if (turn < 11) {
            char id[8];
            sscanf(strncmp(played, "discard ", 8) == 0 ? played + 8 : played, "%7s", id);
            assert_true(is_river_id(id));
        }
        if (turn < 9)
            assert_true(is_river_id(next) && strcmp(next, "RL") != 0);
        else if (turn == 9)
            assert_string_equal(next, "RL");
        else
            assert_int_equal(strlen(next), 1); /* a base tile */
        /* What the next draw can give: river tiles while the pile lasts. */
        json_t *nt = json_object_get(ev, "next_tiles");
        for (void *it = json_object_iter(nt); it; it = json_object_iter_next(nt, it))
            assert_int_equal(is_river_id(json_object_iter_key(it)), turn < 9);
        tile = next;
        snprintf(digest, sizeof digest, "%s", json_string_value(json_object_get(ev, "digest")));
    }
    drain(0);
    snprintf(text, sizeof text, "{\"type\":\"record\",\"id\":5,\"table\":\"%s\"}", table_id);
    request(0, text);
    const char *record = json_string_value(json_object_get(expect(0, "record.ok"), "record"));
    assert_non_null(strstr(record, "\nexpansions river\n"));
    /* A restarted server has the river table from storage. */
    st = restarted_state(tokens[0], NULL);
    assert_string_equal(json_string_value(json_object_get(st, "digest")), digest);
    assert_int_equal(json_integer_value(json_object_get(st, "turn")), 12);
    assert_string_equal(json_string_value(json_array_get(json_object_get(st, "expansions"), 0)),
                        "river");
    assert_string_equal(json_string_value(json_object_get(st, "tile")), tile);
}

/* river-keep-start: the fourth D goes into the main pile (83 tiles besides
 * the spring); without the river it is refused. */
static void test_river_keep_start(void **state)
{
    (void)state;
    two_players_with("[\"me\",\"open\"]",
                     ",\"expansions\":[\"river\"],\"rules\":[\"river-keep-start\"]", 0);
    char text[200];
    snprintf(text, sizeof text, "{\"type\":\"watch\",\"id\":5,\"table\":\"%s\"}", table_id);
    request(2, text);
    expect(2, "watch.ok");
    json_t *st = expect(2, "state");
    assert_int_equal(json_integer_value(json_object_get(st, "tiles_left")), 83);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(st, "remaining"), "D")), 4);
    assert_string_equal(json_string_value(json_array_get(json_object_get(st, "rules"), 0)),
                        "river-keep-start");
    request(0, "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"seats\":[\"me\",\"open\"],"
               "\"rules\":[\"river-keep-start\"]}");
    json_t *e = expect(0, "error");
    assert_string_equal(json_string_value(json_object_get(e, "code")), "bad_field");
    assert_non_null(strstr(json_string_value(json_object_get(e, "message")), "needs the river"));
}

/* --- Inns & Cathedrals (inns-cathedrals.md) --------------------------------------------- */

static int seat_large(const json_t *st, int seat)
{
    return (int)json_integer_value(
        json_object_get(json_array_get(json_object_get(st, "seats"), (size_t)seat), "large"));
}

/* The follower of the placed tile at (x, y) in a `followers` list, or NULL. */
static json_t *follower_at(const json_t *followers, int x, int y)
{
    size_t i;
    json_t *f;
    json_array_foreach(followers, i, f)
    {
        if (json_integer_value(json_object_get(f, "x")) == x &&
            json_integer_value(json_object_get(f, "y")) == y)
            return f;
    }
    return NULL;
}

/* A table with Inns & Cathedrals: 89 tiles besides the start; each seat
 * has its large follower; 'legal' offers it; a move with `large` puts it
 * on the board (the followers list names its figure, the move event's
 * `large` and the seats count it out); a second one is refused; the record
 * keeps the word; a restarted server restores the table and the figure. */
static void test_inns_table(void **state)
{
    (void)state;
    two_players_with("[\"me\",\"open\"]", ",\"expansions\":[\"inns-cathedrals\"]", 1);
    drain(0);
    char text[300], move[96], digest[32] = "";
    snprintf(text, sizeof text, "{\"type\":\"watch\",\"id\":5,\"table\":\"%s\"}", table_id);
    request(2, text);
    expect(2, "watch.ok");
    json_t *st = expect(2, "state");
    assert_string_equal(json_string_value(json_array_get(json_object_get(st, "expansions"), 0)),
                        "inns-cathedrals");
    assert_int_equal(json_integer_value(json_object_get(st, "tiles_left")), 88);
    assert_int_equal(seat_large(st, 0), 1);
    assert_int_equal(seat_large(st, 1), 1);
    /* Both cathedrals are still to come, but for the drawn tile (the
     * server's deal is random: the first tile may be one of them). */
    int drawn_ik = strcmp(json_string_value(json_object_get(st, "tile")), "IK") == 0;
    assert_int_equal(json_integer_value(json_object_get(json_object_get(st, "remaining"), "IK")),
                     2 - drawn_ik);
    /* Turn 0: the large follower on the first spot of the first placement. */
    snprintf(text, sizeof text, "{\"type\":\"legal\",\"id\":3,\"table\":\"%s\"}", table_id);
    request(0, text);
    json_t *legal = expect(0, "legal.ok");
    json_t *figures = json_object_get(legal, "figures");
    assert_int_equal(json_array_size(figures), 2);
    assert_string_equal(json_string_value(json_array_get(figures, 1)), "large");
    json_t *first = json_array_get(json_object_get(legal, "placements"), 0);
    assert_non_null(first);
    assert_true(json_array_size(json_object_get(first, "spots")) > 0);
    int x = (int)json_integer_value(json_object_get(first, "x"));
    int y = (int)json_integer_value(json_object_get(first, "y"));
    snprintf(move, sizeof move, "%s %s large", json_string_value(json_object_get(first, "move")),
             json_string_value(
                 json_object_get(json_array_get(json_object_get(first, "spots"), 0), "spot")));
    send_move(0, 0, move);
    expect(0, "move.ok");
    json_t *ev = expect(0, "move");
    assert_string_equal(json_string_value(json_object_get(ev, "move")), move);
    json_t *large = json_object_get(ev, "large");
    assert_int_equal(json_integer_value(json_array_get(large, 1)), 1);
    int mine = json_integer_value(json_array_get(large, 0)) == 0;
    json_t *f = follower_at(json_object_get(ev, "followers"), x, y);
    if (mine) { /* not sent home at once by a completed feature */
        assert_non_null(f);
        assert_string_equal(json_string_value(json_object_get(f, "figure")), "large");
    }
    /* The features: the large follower weighs 2; every feature has marks. */
    drain(0);
    snprintf(text, sizeof text, "{\"type\":\"features\",\"id\":16,\"table\":\"%s\"}", table_id);
    request(0, text);
    json_t *features = json_object_get(expect(0, "features.ok"), "features"), *feat;
    size_t k;
    int strength2 = 0;
    json_array_foreach(features, k, feat)
    {
        assert_true(json_is_array(json_object_get(feat, "marks")));
        strength2 += json_integer_value(json_array_get(json_object_get(feat, "followers"), 0)) == 2;
    }
    assert_int_equal(strength2, mine);
    /* Bob (again after a discard); then Ann, whose large follower is out
     * unless it came home. */
    int seat = 1, turn = 1;
    json_t *bob = NULL;
    while (seat == 1)
        bob = play_turn(&seat, turn++, first_with_spot, NULL);
    /* Bob's tile may have completed the large follower's feature. */
    int out = json_integer_value(json_array_get(json_object_get(bob, "large"), 0)) == 0;
    assert_true(out <= mine);
    drain(0);
    drain(1);
    snprintf(text, sizeof text, "{\"type\":\"legal\",\"id\":3,\"table\":\"%s\"}", table_id);
    request(0, text);
    legal = expect(0, "legal.ok");
    first = json_array_get(json_object_get(legal, "placements"), 0);
    json_t *spot = json_array_get(json_object_get(first, "spots"), 0);
    if (out && spot) {
        assert_int_equal(json_array_size(json_object_get(legal, "figures")), 1);
        snprintf(move, sizeof move, "%s %s large",
                 json_string_value(json_object_get(first, "move")),
                 json_string_value(json_object_get(spot, "spot")));
        send_move(0, turn, move);
        expect_error_code(0, "illegal");
    }
    legal_move(0, move, sizeof move, 0);
    send_move(0, turn, move);
    expect(0, "move.ok");
    ev = expect(0, "move");
    snprintf(digest, sizeof digest, "%s", json_string_value(json_object_get(ev, "digest")));
    out = json_integer_value(json_array_get(json_object_get(ev, "large"), 0)) == 0;
    drain(0);
    snprintf(text, sizeof text, "{\"type\":\"record\",\"id\":5,\"table\":\"%s\"}", table_id);
    request(0, text);
    const char *record = json_string_value(json_object_get(expect(0, "record.ok"), "record"));
    assert_non_null(strstr(record, "\nexpansions inns-cathedrals\n"));
    assert_non_null(strstr(record, " large\n"));
    /* A restarted server has the table, its expansion and the figure. */
    st = restarted_state(tokens[0], NULL);
    assert_string_equal(json_string_value(json_object_get(st, "digest")), digest);
    assert_string_equal(json_string_value(json_array_get(json_object_get(st, "expansions"), 0)),
                        "inns-cathedrals");
    assert_int_equal(seat_large(st, 0), !out);
    f = follower_at(json_object_get(st, "followers"), x, y);
    if (out)
        assert_string_equal(json_string_value(json_object_get(f, "figure")), "large");
}

/* --- Traders & Builders (traders-builders.md) ------------------------------------------ */

/* The first placement of `legal` with a spot for `figure` ("builder",
 * "pig"): its move with that spot and figure in `out`; 0 if none. */
static int figure_move(const json_t *legal, const char *figure, char *out, size_t cap)
{
    json_t *p;
    size_t i;
    json_array_foreach(json_object_get(legal, "placements"), i, p)
    {
        json_t *spots = json_object_get(p, figure);
        if (json_array_size(spots) > 0) {
            snprintf(out, cap, "%s %s %s", json_string_value(json_object_get(p, "move")),
                     json_string_value(json_array_get(spots, 0)), figure);
            return 1;
        }
    }
    return 0;
}

/* Sum of a goods object's three counts. */
static int goods_sum(const json_t *goods)
{
    return (int)(json_integer_value(json_object_get(goods, "wine")) +
                 json_integer_value(json_object_get(goods, "grain")) +
                 json_integer_value(json_object_get(goods, "cloth")));
}

/* What a player that likes figures put down: moves with each figure, and
 * the figure word of the move chosen last (NULL: a follower or none). */
typedef struct figure_play {
    int large, builders, pigs;
    const char *last;
} figure_play;

/* The first placement with a spot while `legal` offers the large
 * follower: its move with that spot and `large` in `out`; 0 if none. */
static int large_move(const json_t *legal, char *out, size_t cap)
{
    json_t *f;
    size_t i;
    int offered = 0;
    json_array_foreach(json_object_get(legal, "figures"), i, f)
    {
        offered |= strcmp(json_string_value(f), "large") == 0;
    }
    json_t *p;
    json_array_foreach(json_object_get(legal, "placements"), i, p)
    {
        json_t *spot = json_array_get(json_object_get(p, "spots"), 0);
        if (offered && spot) {
            snprintf(out, cap, "%s %s large", json_string_value(json_object_get(p, "move")),
                     json_string_value(json_object_get(spot, "spot")));
            return 1;
        }
    }
    return 0;
}

/* A player who puts down a builder, a pig or the large follower whenever
 * `legal` offers one (the pig first until one went down: pig squares are
 * rarer), else the first placement with its first spot. `ctx` is a
 * figure_play. */
static void figures_choice(json_t *legal, char *out, size_t cap, void *ctx)
{
    figure_play *fp = ctx;
    if (fp->pigs == 0 && figure_move(legal, "pig", out, cap))
        fp->last = "pig";
    else if (figure_move(legal, "builder", out, cap))
        fp->last = "builder";
    else if (figure_move(legal, "pig", out, cap))
        fp->last = "pig";
    else if (large_move(legal, out, cap))
        fp->last = "large";
    else {
        fp->last = NULL;
        pick_move(legal, out, cap, 1);
    }
    fp->large += fp->last && strcmp(fp->last, "large") == 0;
    fp->builders += fp->last && strcmp(fp->last, "builder") == 0;
    fp->pigs += fp->last && strcmp(fp->last, "pig") == 0;
}

/* Plays the table's game to its end with figures_choice for both seats,
 * checking every move: the goods the seats hold are the goods the events
 * gave; a builder stays on the board or went home at once; a second tile
 * (`next.second_part`) goes to the same seat and the state says so, so
 * does a discard's next draw, any other turn to the other seat. Returns
 * the number of moves. */
static int play_figures_game(figure_play *fp)
{
    char text[200];
    int seat = 0, given = 0, over = 0, turn = 0;
    for (; !over && turn < 300; turn++) {
        int mover = seat;
        json_t *ev = play_turn(&seat, turn, figures_choice, fp), *e;
        size_t i;
        json_array_foreach(json_object_get(ev, "events"), i, e)
        {
            const char *bonus = json_string_value(json_object_get(e, "bonus"));
            if (bonus && strcmp(bonus, "goods") == 0 &&
                json_is_true(json_object_get(e, "complete")))
                given += goods_sum(json_object_get(e, "goods")) *
                         (int)json_array_size(json_object_get(e, "winners"));
        }
        int held = goods_sum(json_array_get(json_object_get(ev, "goods"), 0)) +
                   goods_sum(json_array_get(json_object_get(ev, "goods"), 1));
        assert_int_equal(held, given);
        if (fp->last && strcmp(fp->last, "builder") == 0) {
            json_t *f;
            int shown = 0;
            json_array_foreach(json_object_get(ev, "followers"), i, f)
            {
                shown += strcmp(json_string_value(json_object_get(f, "figure")), "builder") == 0;
            }
            assert_true(shown <= 2);
        }
        json_t *nx = json_object_get(ev, "next");
        over = json_is_null(nx);
        if (over)
            break;
        if (json_is_true(json_object_get(nx, "second_part"))) { /* the same seat, once */
            assert_int_equal(seat, mover);
            drain(3);
            snprintf(text, sizeof text, "{\"type\":\"watch\",\"id\":6,\"table\":\"%s\"}", table_id);
            request(3, text);
            expect(3, "watch.ok");
            json_t *now = expect(3, "state");
            assert_true(json_is_true(json_object_get(now, "second_part")));
            assert_int_equal(json_integer_value(json_object_get(now, "to_move")), seat);
        } else if (strncmp(json_string_value(json_object_get(ev, "move")), "discard", 7) == 0) {
            assert_int_equal(seat, mover); /* the same player draws again */
        } else {
            assert_int_equal(seat, 1 - mover);
        }
    }
    assert_true(over);
    return turn + 1;
}

/* The state of the table as a watcher (client 3) sees it now. */
static json_t *watched_state(void)
{
    char text[200];
    drain(3);
    snprintf(text, sizeof text, "{\"type\":\"watch\",\"id\":7,\"table\":\"%s\"}", table_id);
    request(3, text);
    expect(3, "watch.ok");
    return expect(3, "state");
}

/* A whole Traders & Builders game between two clients that put a builder
 * or a pig down whenever 'legal' offers one, else a follower
 * (play_figures_game): the seats show each player's builder, pig and
 * goods; 'legal' offers the builder and the pig with their spots; the end
 * has each seat's goods points in `by_kind`; a restarted server restores
 * the table with its expansion, goods and figures. */
static void test_traders_table(void **state)
{
    (void)state;
    two_players_with("[\"me\",\"open\"]", ",\"expansions\":[\"traders-builders\"]", 1);
    drain(0);
    json_t *st = watched_state();
    json_t *seat0 = json_array_get(json_object_get(st, "seats"), 0);
    assert_int_equal(json_integer_value(json_object_get(seat0, "builder")), 1);
    assert_int_equal(json_integer_value(json_object_get(seat0, "pig")), 1);
    assert_int_equal(goods_sum(json_object_get(seat0, "goods")), 0);
    assert_false(json_is_true(json_object_get(st, "second_part")));
    figure_play fp = {0};
    play_figures_game(&fp);
    /* Which figures the server's random deal offers varies: at least one
     * of them must have gone down (both did in every run seen). */
    assert_true(fp.builders + fp.pigs > 0);
    assert_int_equal(fp.large, 0);
    json_t *end = watched_state();
    json_t *by_kind = json_object_get(json_object_get(end, "final"), "by_kind");
    assert_non_null(json_object_get(json_array_get(by_kind, 0), "goods"));
    assert_non_null(json_object_get(json_array_get(by_kind, 1), "goods"));
    char *seats_before = json_dumps(json_object_get(end, "seats"), JSON_COMPACT | JSON_SORT_KEYS);
    char *digest = strdup(json_string_value(json_object_get(end, "digest")));
    /* A restarted server has the table, its expansion, the goods and the
     * figures on the board. */
    json_t *back = restarted_state(tokens[0], NULL);
    assert_string_equal(json_string_value(json_array_get(json_object_get(back, "expansions"), 0)),
                        "traders-builders");
    assert_string_equal(json_string_value(json_object_get(back, "digest")), digest);
    json_t *seats = json_deep_copy(json_object_get(back, "seats"));
    for (size_t s2 = 0; s2 < json_array_size(seats); s2++) /* who is connected differs */
        json_object_del(json_array_get(seats, s2), "present");
    json_t *before = json_loads(seats_before, 0, NULL);
    for (size_t s2 = 0; s2 < json_array_size(before); s2++)
        json_object_del(json_array_get(before, s2), "present");
    assert_true(json_equal(seats, before));
    json_decref(seats);
    json_decref(before);
    free(seats_before);
    free(digest);
}

/* --- All three expansions ------------------------------------------------------------------ */

/* A whole game with The River, Inns & Cathedrals and Traders & Builders
 * between two scripted clients that put down the large follower, the
 * builder and the pig whenever 'legal' offers them: 124 tiles besides the
 * spring, every one placed or discarded (124 moves, second tiles drawn
 * from the same pile); the record the server stores, replayed by the
 * library, ends with the scores, goods and goods points the server
 * announced, and the same digest. */
static void test_all_expansions_table(void **state)
{
    (void)state;
    two_players_with("[\"me\",\"open\"]",
                     ",\"expansions\":[\"river\",\"inns-cathedrals\",\"traders-builders\"]", 1);
    drain(0);
    json_t *st = watched_state();
    assert_int_equal(json_array_size(json_object_get(st, "expansions")), 3);
    assert_int_equal(json_integer_value(json_object_get(st, "tiles_left")), 123);
    figure_play fp = {0};
    assert_int_equal(play_figures_game(&fp), 124);
    assert_true(fp.large > 0);
    assert_true(fp.builders + fp.pigs > 0);
    json_t *end = watched_state();
    json_t *final = json_object_get(end, "final");
    assert_non_null(final);
    json_t *scores = json_object_get(final, "scores");
    const char *record;
    carc_game *g = replayed_record(3, scores, &record);
    assert_non_null(strstr(record, "\nexpansions river inns-cathedrals traders-builders\n"));
    assert_true(carc_game_over(g));
    char digest[32];
    snprintf(digest, sizeof digest, "%016llx", (unsigned long long)carc_game_digest(g));
    assert_string_equal(json_string_value(json_object_get(end, "digest")), digest);
    json_t *by_kind = json_object_get(final, "by_kind");
    json_t *seats = json_object_get(end, "seats");
    static const char *const goods[] = {"wine", "grain", "cloth"};
    for (int p = 0; p < 2; p++) {
        assert_int_equal(
            carc_game_goods_points(g, p),
            json_integer_value(json_object_get(json_array_get(by_kind, (size_t)p), "goods")));
        json_t *held = json_object_get(json_array_get(seats, (size_t)p), "goods");
        for (int t = 0; t < 3; t++)
            assert_int_equal(carc_game_goods(g, p, t),
                             json_integer_value(json_object_get(held, goods[t])));
    }
    carc_game_free(g);
}

/* --- House rules: a bounded table, eight seats, the first seat ------------------------ */

/* table=3x3 with the edge rule: the state names the rules and the table's
 * edge, every offered placement lies on the table, the game runs to its
 * end (most tiles discarded), and the rules survive a restart. */
static void test_bounded_table(void **state)
{
    (void)state;
    two_players_with("[\"me\",\"open\"]", ",\"rules\":[\"table=3x3\",\"table-edge-completes\"]", 1);
    char text[300], move[64];
    snprintf(text, sizeof text, "{\"type\":\"watch\",\"id\":5,\"table\":\"%s\"}", table_id);
    request(2, text);
    expect(2, "watch.ok");
    json_t *st = expect(2, "state"), *edge = json_object_get(st, "table_edge");
    json_t *rules = json_object_get(st, "rules");
    assert_string_equal(json_string_value(json_array_get(rules, 0)), "table-edge-completes");
    assert_string_equal(json_string_value(json_array_get(rules, 1)), "table=3x3");
    assert_int_equal(json_integer_value(json_object_get(edge, "min_x")), -1);
    assert_int_equal(json_integer_value(json_object_get(edge, "max_y")), 1);
    int c = 0, turn = 0, placed = 0;
    for (;; turn++) {
        drain(c);
        snprintf(text, sizeof text, "{\"type\":\"legal\",\"id\":3,\"table\":\"%s\"}", table_id);
        request(c, text);
        json_t *legal = expect(c, "legal.ok"), *p;
        size_t i;
        json_array_foreach(json_object_get(legal, "placements"), i, p)
        {
            assert_true(labs((long)json_integer_value(json_object_get(p, "x"))) <= 1);
            assert_true(labs((long)json_integer_value(json_object_get(p, "y"))) <= 1);
        }
        placed += json_array_size(json_object_get(legal, "placements")) > 0;
        pick_move(legal, move, sizeof move, 1);
        send_move(c, turn, move);
        expect(c, "move.ok");
        json_t *next = json_object_get(expect(c, "move"), "next");
        if (!json_is_object(next))
            break;
        c = (int)json_integer_value(json_object_get(next, "player"));
    }
    assert_int_equal(turn + 1, 71);
    assert_int_equal(placed, 8); /* nine squares, the start tile's included */
    drain(0);
    /* After a restart the table is still bounded. */
    srv_hooks hooks = {NULL, hook_send, hook_think, NULL, hook_now, hook_analyse, NULL, NULL, NULL};
    srv_limits limits = {10, 4, 2};
    srv_tables *again = tables_new(store, &hooks, &limits);
    char err[200];
    assert_int_equal(tables_load(again, err, sizeof err), 0);
    tables_free(again);
    stored_table *row = malloc(sizeof *row);
    assert_int_equal(storage_load_table(store, table_id, row), 1);
    assert_int_equal(row->rules.table_w, 3);
    assert_int_equal(row->rules.flags, CARC_RULE_TABLE_EDGE_COMPLETES);
    free(row);
    /* An even size is refused, naming the rule. */
    request(0, "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"seats\":[\"me\",\"open\"],"
               "\"rules\":[\"table=8x9\"]}");
    json_t *e = expect(0, "error");
    assert_string_equal(json_string_value(json_object_get(e, "code")), "bad_field");
    assert_non_null(strstr(json_string_value(json_object_get(e, "message")), "odd sizes"));
}

/* Eight seats with their colours' order; nine are refused. */
static void test_eight_seats(void **state)
{
    (void)state;
    two_players_with("[\"me\",\"open\",\"open\",\"open\",\"open\",\"open\",\"open\",\"open\"]", "",
                     0);
    char text[200];
    snprintf(text, sizeof text, "{\"type\":\"watch\",\"id\":5,\"table\":\"%s\"}", table_id);
    request(2, text);
    expect(2, "watch.ok");
    json_t *st = expect(2, "state");
    assert_int_equal(json_integer_value(json_object_get(st, "players")), 8);
    assert_int_equal(json_array_size(json_object_get(st, "seats")), 8);
    snprintf(text, sizeof text,
             "{\"type\":\"join\",\"id\":2,\"table\":\"%s\",\"name\":\"Pia\",\"seat\":7}", table_id);
    request(1, text);
    assert_int_equal(json_integer_value(json_object_get(expect(1, "join.ok"), "seat")), 7);
    drain(0);
    request(0, "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"seats\":[\"me\",\"open\",\"open\","
               "\"open\",\"open\",\"open\",\"open\",\"open\",\"open\"]}");
    json_t *e = expect(0, "error");
    assert_non_null(strstr(json_string_value(json_object_get(e, "message")), "2 to 8 seats"));
}

/* The first seat: the draw-off turns the seats so that its winner is seat
 * 0 (Red) and tells everyone how it went; random says so; the seat order
 * leaves the list as it is; anything else is refused. */
static void test_first_seat(void **state)
{
    (void)state;
    two_players_with("[\"open\",\"open\",\"me\"]", ",\"first\":\"draw-off\"", 0);
    char text[200];
    snprintf(text, sizeof text, "{\"type\":\"watch\",\"id\":5,\"table\":\"%s\"}", table_id);
    request(2, text);
    expect(2, "watch.ok");
    json_t *st = expect(2, "state");
    const char *first = json_string_value(json_object_get(st, "first"));
    assert_non_null(first);
    assert_non_null(strstr(first, "Draw-off (roads): "));
    assert_non_null(strstr(first, "; Red starts"));
    /* The creator ("me", third in the list) sits where the turn put it. */
    int mine = -1;
    json_t *seats = json_object_get(st, "seats"), *seat;
    size_t i;
    json_array_foreach(seats, i, seat)
    {
        const char *name = json_string_value(json_object_get(seat, "name"));
        if (name && strcmp(name, "Ann") == 0)
            mine = (int)i;
    }
    assert_true(mine >= 0);
    drain(0);
    request(0, "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"seats\":[\"open\",\"me\"],"
               "\"first\":\"random\"}");
    expect(0, "create.ok");
    st = expect(0, "state");
    assert_non_null(strstr(json_string_value(json_object_get(st, "first")), "at random"));
    request(0, "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"seats\":[\"open\",\"me\"],"
               "\"first\":\"seat-order\"}");
    assert_int_equal(json_integer_value(json_object_get(expect(0, "create.ok"), "seat")), 1);
    assert_null(json_object_get(expect(0, "state"), "first"));
    request(0, "{\"type\":\"create\",\"id\":1,\"name\":\"Ann\",\"seats\":[\"open\",\"me\"],"
               "\"first\":\"dice\"}");
    expect_error_code(0, "bad_field");
}

/* The draw-off itself, over many seeds: every seat draws in the first
 * round, the tied best of a round (and only they) draw in the next, and
 * the winner alone has the most roads in the last round. */
static void test_draw_off(void **state)
{
    (void)state;
    int ties = 0;
    for (int players = 2; players <= CARC_MAX_PLAYERS; players++)
        for (uint64_t seed = 0; seed < 300; seed++) {
            first_draw d[FIRST_MAX_DRAWS];
            int n = 0, first = first_seat_draw_off(players, seed, d, &n);
            assert_true(first >= 0 && first < players && n >= players);
            int again = 0;
            assert_int_equal(first, first_seat_draw_off(players, seed, d, &again));
            assert_int_equal(n, again);
            for (int i = 0; i < players; i++)
                assert_true(d[i].seat == i && d[i].round == 0);
            int start = 0;
            while (start < n) {
                int end = start, best = -1, nbest = 0;
                while (end < n && d[end].round == d[start].round)
                    end++;
                for (int i = start; i < end; i++) {
                    assert_int_equal(d[i].roads, first_seat_roads(d[i].kind));
                    if (d[i].roads > best) {
                        best = d[i].roads;
                        nbest = 0;
                    }
                    nbest += d[i].roads == best;
                }
                if (end == n) {
                    assert_int_equal(nbest, 1);
                    for (int i = start; i < end; i++)
                        assert_true((d[i].seat == first) == (d[i].roads == best));
                } else {
                    ties++;
                    assert_true(n - end >= nbest);
                    for (int i = start, k = end; i < end; i++)
                        if (d[i].roads == best)
                            assert_int_equal(d[k++].seat, d[i].seat);
                }
                start = end;
            }
        }
    assert_true(ties > 100);
    /* Made-up draws: a tie, then seat 1 of the list wins and becomes Red. */
    char log[MSG_CHAT_BYTES + 1];
    first_draw e[4] = {
        {0, 0, 'K' - 'A', 2}, {1, 0, 'U' - 'A', 2}, {0, 1, 'B' - 'A', 0}, {1, 1, 'V' - 'A', 2}};
    first_seat_log(e, 4, 1, 2, log, sizeof log);
    assert_string_equal(log, "Draw-off (roads): Blue K 2, Red U 2; again: Blue B 0, Red V 2; "
                             "Red starts");
    /* The longest draw-off fits whole (CI's eight-seat game drew 15 tiles
     * over 200 bytes, cut before "Red starts"); a short buffer cuts the
     * draws, never who starts. */
    first_draw many[FIRST_MAX_DRAWS];
    for (int i = 0; i < FIRST_MAX_DRAWS; i++)
        many[i] = (first_draw){(uint8_t)(i % 8), (uint8_t)(i / 8), 'D' - 'A', 2};
    char whole[FIRST_TEXT_BYTES];
    first_seat_log(many, FIRST_MAX_DRAWS, 0, 8, whole, sizeof whole);
    assert_non_null(strstr(whole, "; Red starts"));
    assert_int_equal(strlen(whole) - strlen("; Red starts"), strstr(whole, "; Red starts") - whole);
    assert_null(strstr(whole, "..."));
    first_seat_log(many, FIRST_MAX_DRAWS, 0, 8, log, sizeof log);
    assert_true(strlen(log) < sizeof log);
    assert_non_null(strstr(log, "...; Red starts"));
    assert_int_equal(strlen(log) - strlen("...; Red starts"), strstr(log, "...; Red starts") - log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_create_join_move, setup, teardown),
        cmocka_unit_test_setup_teardown(test_commit_before_send, setup, teardown),
        cmocka_unit_test_setup_teardown(test_move_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_request_needs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reshuffle_returned, setup, teardown),
        cmocka_unit_test_setup_teardown(test_extra_start_tile_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_player_cannot_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replay_on_workers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_error_counter, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tokens, setup, teardown),
        cmocka_unit_test_setup_teardown(test_waiting_table_hides_the_deal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_seats_and_limits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_game_with_computer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_takeback_against_computer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_takeback_between_people, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resign, setup, teardown),
        cmocka_unit_test_setup_teardown(test_days_clock, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rematch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rated_game, setup, teardown),
        cmocka_unit_test_setup_teardown(test_leave_and_presence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clock_forfeit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clock_computer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clock_stall, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clock_stall_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clock_abandoned, setup, teardown),
        cmocka_unit_test_setup_teardown(test_restart, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chat_and_mine, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chat_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_idle_waiting_table_closed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_keyed_create_closed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_review, setup, teardown),
        cmocka_unit_test_setup_teardown(test_total_tables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_computer_tables_capped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_request_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reopen_seat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_storage_failure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hint_from_the_workers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_analysis_dropped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_estimates_off, setup, teardown),
        cmocka_unit_test_setup_teardown(test_river_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inns_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_traders_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_all_expansions_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_river_keep_start, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bounded_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_eight_seats, setup, teardown),
        cmocka_unit_test_setup_teardown(test_first_seat, setup, teardown),
        cmocka_unit_test(test_draw_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
