/* engine_session.c: one engine-protocol session (docs/protocol.md): its
 * game and player, and the reply to each request line. `carcassonne
 * engine` serves it over standard input and output; the protocol fuzzer
 * feeds it lines directly. */
#include <jansson.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "carcassonne_ai.h"
#include "engine_session.h"
#include "move_list.h"
#include "protocol.h"
#include "wire.h"

enum { PROTOCOL_VERSION = 4, MAX_TOP = 100 };

/* The game as it was before a 'move' or 'end' that 'undo' can take back. */
typedef struct snapshot {
    carc_game *game;
    int tile_known;
} snapshot;

struct engine_session {
    carc_game *game;    /* NULL until the first 'new' */
    carc_game *scratch; /* where a move is tried before it is kept */
    carc_player *player;
    uint64_t seed;
    int seat;
    int tile_known; /* a 'tile' or 'draw' request named the tile drawn now */
    /* The games before each 'move' and 'end' of this game, oldest first;
     * 'undo' pops the last, 'new' empties the stack. */
    snapshot *history;
    int history_len, history_cap;
};
typedef struct engine_session engine;

/* --- Reading requests ---------------------------------------------------------------- */

/* Reads the optional integer member `key` of `req` into `*out` (kept when
 * absent); an error reply, or NULL when fine. */
static json_t *int_member(const json_t *req, const char *key, long long min, long long max,
                          long long *out)
{
    json_t *v = json_object_get(req, key);
    if (!v)
        return NULL;
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
        return proto_error("\"%s\" must be an integer %lld..%lld", key, min, max);
    *out = json_integer_value(v);
    return NULL;
}

/* The optional "player" member must name the player to move. */
static json_t *check_player(const engine *e, const json_t *req)
{
    long long player = carc_game_current_player(e->game);
    json_t *err = int_member(req, "player", 0, CARC_MAX_PLAYERS - 1, &player);
    if (err)
        return err;
    if (player != carc_game_current_player(e->game))
        return proto_error("player %lld is not to move: player %d is", player,
                           carc_game_current_player(e->game));
    return NULL;
}

/* The game must have started and not be over. */
static json_t *check_playing(const engine *e)
{
    if (!e->game)
        return proto_error("no game: send 'new' first");
    if (carc_game_over(e->game))
        return proto_error("the game is over");
    return NULL;
}

static json_t *ok_reply(void)
{
    return json_pack("{s:s}", "type", "ok");
}

static json_t *real_or_zero(double v)
{
    return json_real(isfinite(v) ? v : 0.0);
}

static json_t *tile_letter(int kind)
{
    return json_string(carc_tile_id(kind));
}

/* One score event: who scored what for which feature, and the followers
 * that went home. */
static json_t *event_json(const carc_game *g, const carc_event *ev)
{
    json_t *winners = json_array(), *returned = json_array();
    for (int p = 0; p < carc_game_players(g); p++) {
        if (ev->winners & (1u << p))
            json_array_append_new(winners, json_integer(p));
        json_array_append_new(returned, json_integer(ev->returned[p]));
    }
    json_t *out = json_pack("{s:s, s:b, s:o, s:i, s:i, s:i, s:o, s:i, s:i}", "kind",
                            wire_kind_name(ev->kind), "complete", ev->complete, "players", winners,
                            "points", ev->points, "tiles", ev->tiles, "pennants", ev->pennants,
                            "returned", returned, "x", ev->x, "y", ev->y);
    if (ev->returned_large) { /* Inns & Cathedrals: whose large follower went home */
        json_t *large = json_array();
        for (int p = 0; p < carc_game_players(g); p++)
            if (ev->returned_large & (1u << p))
                json_array_append_new(large, json_integer(p));
        json_object_set_new(out, "returned_large", large);
    }
    wire_event_bonus(out, ev); /* Traders & Builders: the pig's points, goods */
    return out;
}

/* [event, ...]: what a move or the end scored, in order. */
static json_t *events_json(const carc_game *g, const carc_event *events, int n)
{
    json_t *list = json_array();
    for (int i = 0; i < n && i < CARC_MAX_EVENTS; i++)
        json_array_append_new(list, event_json(g, &events[i]));
    return list;
}

/* {"type":"ok","events":[...]}: the reply to a request that scored. */
static json_t *ok_with_events(const carc_game *g, const carc_event *events, int n)
{
    return json_pack("{s:s, s:o}", "type", "ok", "events", events_json(g, events, n));
}

/* [points of player 0, ...]: what `events` give each player. */
static json_t *points_json(const carc_game *g, const carc_event *events, int n)
{
    int points[CARC_MAX_PLAYERS] = {0};
    for (int i = 0; i < n && i < CARC_MAX_EVENTS; i++)
        for (int p = 0; p < carc_game_players(g); p++)
            if (events[i].winners & (1u << p))
                points[p] += events[i].points;
    json_t *list = json_array();
    for (int p = 0; p < carc_game_players(g); p++)
        json_array_append_new(list, json_integer(points[p]));
    return list;
}

/* --- Taking back: the stack of games before each move -------------------------------- */

static void history_clear(engine *e)
{
    for (int i = 0; i < e->history_len; i++)
        carc_game_free(e->history[i].game);
    e->history_len = 0;
}

/* Pushes `game` (a clone the stack takes) with whether its tile was known;
 * -1 when out of memory (the game is freed). */
static int history_push(engine *e, carc_game *game, int tile_known)
{
    if (e->history_len == e->history_cap) {
        int cap = e->history_cap ? 2 * e->history_cap : 96;
        snapshot *grown = realloc(e->history, sizeof *grown * (size_t)cap);
        if (!grown) {
            carc_game_free(game);
            return -1;
        }
        e->history = grown;
        e->history_cap = cap;
    }
    e->history[e->history_len++] = (snapshot){game, tile_known};
    return 0;
}

/* --- A stop timer: ends a search when the request's budget is spent ------------------ */

typedef struct stop_timer {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    struct timespec deadline; /* CLOCK_REALTIME, for pthread_cond_timedwait */
    int done, running;
    carc_player *player;
} stop_timer;

static void *timer_main(void *arg)
{
    stop_timer *t = arg;
    pthread_mutex_lock(&t->lock);
    int timed_out = 0;
    while (!t->done && !timed_out)
        timed_out = pthread_cond_timedwait(&t->wake, &t->lock, &t->deadline) != 0 && !t->done;
    pthread_mutex_unlock(&t->lock);
    if (timed_out)
        carc_player_stop(t->player);
    return NULL;
}

/* Starts a timer that stops `p` after `ms` milliseconds (none when ms <= 0). */
static void timer_start(stop_timer *t, carc_player *p, long long ms)
{
    t->running = 0;
    if (ms <= 0)
        return;
    t->done = 0;
    t->player = p;
    clock_gettime(CLOCK_REALTIME, &t->deadline);
    t->deadline.tv_sec += (time_t)(ms / 1000);
    t->deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t->deadline.tv_nsec >= 1000000000L) {
        t->deadline.tv_sec++;
        t->deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->wake, NULL);
    t->running = pthread_create(&t->thread, NULL, timer_main, t) == 0;
    if (!t->running) {
        pthread_mutex_destroy(&t->lock);
        pthread_cond_destroy(&t->wake);
    }
}

static void timer_finish(stop_timer *t)
{
    if (!t->running)
        return;
    pthread_mutex_lock(&t->lock);
    t->done = 1;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->thread, NULL);
    pthread_mutex_destroy(&t->lock);
    pthread_cond_destroy(&t->wake);
}

/* --- Requests ------------------------------------------------------------------------ */

static json_t *do_hello(const engine *e)
{
    return json_pack("{s:s, s:i, s:s, s:s}", "type", "hello", "protocol", PROTOCOL_VERSION, "name",
                     "carcassonne", "player", carc_player_spec(e->player));
}

/* The optional array `key` of `new` ("rules", "expansions"): one name per
 * string, each turned into its flag by `flag_of` (0: an unknown name) and
 * or-ed into `*flags`; with `once`, a name given twice is refused (as in a
 * record's `expansions` line). The one reader of both lists. */
static json_t *read_names(const json_t *req, const char *key, const char *what,
                          uint32_t (*flag_of)(const char *), int once, uint32_t *flags)
{
    json_t *list = json_object_get(req, key);
    *flags = 0;
    if (!list)
        return NULL;
    if (!json_is_array(list))
        return proto_error("\"%s\" must be an array of %s names, one per string", key, what);
    size_t i;
    json_t *name;
    json_array_foreach(list, i, name)
    {
        if (!json_is_string(name))
            return proto_error("%s[%zu]: a %s name must be a string", key, i, what);
        const char *text = json_string_value(name);
        if (strlen(text) != json_string_length(name) || strcspn(text, " \t,") != strlen(text))
            return proto_error("\"%s\" takes one name per string, not '%.40s'", key, text);
        uint32_t flag = flag_of(text);
        if (!flag)
            return proto_error("unknown %s '%.40s'", what, text);
        if (once && (*flags & flag))
            return proto_error("%s '%.40s' is named twice", what, text);
        *flags |= flag;
    }
    return NULL;
}

/* The "rules" of 'new': rule names, a valued one as NAME=VALUE
 * ("hand=3"), in the wire form (wire_read_rules()). */
static json_t *read_rules(const json_t *req, carc_rules *rules)
{
    char why[160] = "";
    if (wire_read_rules(json_object_get(req, "rules"), rules, why, sizeof why) != 0)
        return proto_error("%s", why);
    return NULL;
}

static json_t *do_new(engine *e, const json_t *req)
{
    long long players = 0, seat = 0, seed = (long long)(e->seed & 0x7FFFFFFFFFFFFFFFull);
    carc_rules rules = carc_rules_standard();
    json_t *err = int_member(req, "players", CARC_MIN_PLAYERS, CARC_MAX_PLAYERS, &players);
    if (!err && !players)
        err = proto_error("\"players\" is needed: %d to %d", CARC_MIN_PLAYERS, CARC_MAX_PLAYERS);
    if (!err)
        err = int_member(req, "seat", 0, players - 1, &seat);
    if (!err)
        err = int_member(req, "seed", 0, INT64_MAX, &seed);
    if (!err)
        err = read_rules(req, &rules);
    if (!err)
        err = read_names(req, "expansions", "expansion", carc_expansion_flag, 1, &rules.expansions);
    char why[160] = "";
    if (!err && carc_rules_check(&rules, why, sizeof why) != CARC_OK)
        err = proto_error("%s", why);
    if (err)
        return err;
    carc_game *g = carc_game_new((int)players, &rules, (uint64_t)seed);
    carc_game *scratch = carc_game_new((int)players, &rules, (uint64_t)seed);
    if (!g || !scratch) {
        carc_game_free(g);
        carc_game_free(scratch);
        return proto_error("out of memory");
    }
    carc_game_free(e->game);
    carc_game_free(e->scratch);
    e->game = g;
    e->scratch = scratch;
    e->seat = (int)seat;
    e->tile_known = rules.hand > 0; /* a hand game's tiles are named by 'draw' */
    history_clear(e);
    carc_player_reseed(e->player, (uint64_t)seed);
    return json_pack("{s:s, s:o}", "type", "ok", "expansions", wire_expansions(rules));
}

/* Kind of a tile named by its id ("E", "RD"), or -1. */
static int tile_of(const json_t *v)
{
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    return s ? carc_tile_parse(s) : -1;
}

/* Makes the tile that `req`'s "tile" names the drawn tile; an error reply
 * (nothing changed) or NULL. */
static json_t *choose_tile(engine *e, const json_t *req)
{
    const json_t *v = json_object_get(req, "tile");
    int kind = tile_of(v);
    if (kind < 0 && json_is_string(v))
        return proto_error(
            "unknown tile '%.8s': a tile id has one or two letters (A..X, RA..RL, IA..IQ, TA..TX)",
            json_string_value(v));
    if (kind < 0)
        return proto_error(
            "\"tile\" must be a tile id of one or two letters (A..X, RA..RL, IA..IQ, TA..TX)");
    if (carc_game_drawn_tile(e->game) != kind && carc_game_choose_tile(e->game, kind) != CARC_OK) {
        const char *why = carc_game_error(e->game);
        if (strstr(why, "cannot be drawn"))
            return proto_error("%s", why); /* says it all */
        return proto_error("tile %s cannot be drawn: %s", carc_tile_id(kind), why);
    }
    e->tile_known = 1;
    return NULL;
}

static json_t *do_tile(engine *e, const json_t *req)
{
    json_t *err = check_playing(e);
    if (!err && carc_game_rules(e->game).hand)
        err = proto_error("a hand game names its tiles with 'draw' (\"player\", \"tiles\")");
    if (!err)
        err = check_player(e, req);
    if (!err)
        err = choose_tile(e, req);
    return err ? err : ok_reply();
}

/* The tile a move line names ("E 0 -1 2", "discard E"), or -1. */
static int move_tile(const char *text)
{
    text += strspn(text, " \t");
    if (strncmp(text, "discard", 7) == 0 && (text[7] == ' ' || text[7] == '\t')) {
        text += 7;
        text += strspn(text, " \t");
    }
    return carc_tile_parse_n(text, strcspn(text, " \t"));
}

/* Plays the move of `req` on the scratch copy of the game, its tile drawn
 * first when the move names another, into `events`; the game itself is
 * untouched. With `before`, a clone of the scratch game just before the
 * move (for 'undo'). An error reply, or NULL. */
static json_t *play_on_scratch(engine *e, const json_t *req, carc_game **before, carc_event *events,
                               int *nevents)
{
    json_t *err = check_playing(e);
    if (!err)
        err = check_player(e, req);
    if (err)
        return err;
    json_t *v = json_object_get(req, "move");
    if (!json_is_string(v))
        return proto_error("\"move\" must be a move in record notation, e.g. \"E 0 -1 2 S\"");
    const char *text = json_string_value(v);
    carc_game_copy(e->scratch, e->game);
    int kind = move_tile(text);
    int hand = carc_game_rules(e->scratch).hand > 0;
    if (hand && kind >= 0 && carc_game_hold_tile(e->scratch, kind) != CARC_OK)
        return proto_error("move '%.40s': %s", text, carc_game_error(e->scratch));
    if (!hand && kind >= 0 && kind != carc_game_drawn_tile(e->scratch) &&
        carc_game_choose_tile(e->scratch, kind) != CARC_OK)
        return proto_error("move '%.40s': %s", text, carc_game_error(e->scratch));
    carc_move m;
    char why[160];
    if (carc_move_parse_message(e->scratch, text, &m, why, sizeof why) != CARC_OK)
        return proto_error("move '%.40s': %s", text, why);
    if (before && !(*before = carc_game_clone(e->scratch)))
        return proto_error("out of memory");
    if (carc_game_play(e->scratch, m, events, CARC_MAX_EVENTS, nevents) != CARC_OK) {
        if (before) {
            carc_game_free(*before);
            *before = NULL;
        }
        return proto_error("move '%.40s': %s", text, carc_game_error(e->scratch));
    }
    return NULL;
}

static json_t *do_move(engine *e, const json_t *req)
{
    carc_game *before = NULL;
    carc_event events[CARC_MAX_EVENTS];
    int nevents = 0;
    json_t *err = play_on_scratch(e, req, &before, events, &nevents);
    if (err)
        return err;
    /* The move named its tile: known again once the move is taken back. */
    if (history_push(e, before, 1) != 0)
        return proto_error("out of memory");
    carc_game_copy(e->game, e->scratch);
    e->tile_known = carc_game_rules(e->game).hand > 0;
    return ok_with_events(e->game, events, nevents);
}

/* The record's `end`. A game over already ends with no events: a
 * controller sends 'end' after every game (protocol 4). */
static json_t *do_end(engine *e)
{
    if (!e->game)
        return proto_error("no game: send 'new' first");
    carc_event events[CARC_MAX_EVENTS];
    int nevents = 0;
    if (carc_game_over(e->game))
        return ok_with_events(e->game, events, 0);
    carc_game *before = carc_game_clone(e->game);
    if (!before || history_push(e, before, e->tile_known) != 0)
        return proto_error("out of memory");
    carc_game_finish(e->game, events, CARC_MAX_EVENTS, &nevents);
    e->tile_known = 0;
    return ok_with_events(e->game, events, nevents);
}

/* Takes back the last 'move' or 'end': the game as it was before it. */
static json_t *do_undo(engine *e)
{
    if (!e->game)
        return proto_error("no game: send 'new' first");
    if (e->history_len == 0)
        return proto_error("no move to take back");
    snapshot last = e->history[--e->history_len];
    carc_game_free(e->game);
    e->game = last.game;
    e->tile_known = last.tile_known;
    return json_pack("{s:s, s:i}", "type", "ok", "moves", carc_game_move_count(e->game));
}

/* Reads "ms" (optional) and checks that a search may start. */
static json_t *search_request(const engine *e, const json_t *req, long long *ms)
{
    json_t *err = check_playing(e);
    if (!err)
        err = int_member(req, "ms", 1, 3600000, ms);
    if (!err && !e->tile_known)
        err = proto_error("the drawn tile is unknown: send 'tile' or 'draw' first");
    return err;
}

static json_t *move_text(const carc_game *g, carc_move m)
{
    char line[32];
    carc_move_write(g, m, line, sizeof line);
    return json_string(line);
}

static json_t *do_go(engine *e, const json_t *req)
{
    long long ms = 0;
    json_t *err = search_request(e, req, &ms);
    if (err)
        return err;
    carc_move m;
    carc_search_info info;
    stop_timer timer;
    timer_start(&timer, e->player, ms);
    carc_status st = carc_player_choose(e->player, e->game, &m, &info);
    timer_finish(&timer);
    if (st != CARC_OK)
        return proto_error("the player found no move");
    return json_pack("{s:s, s:o, s:o, s:o, s:I, s:o}", "type", "move", "move",
                     move_text(e->game, carc_move_canonical(e->game, m)), "margin",
                     real_or_zero(info.margin), "win", real_or_zero(info.win), "iterations",
                     (json_int_t)info.iterations, "seconds", real_or_zero(info.seconds));
}

static json_t *ranked_moves(const carc_game *g, const carc_move_eval *evals, int n)
{
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(
            list, json_pack("{s:o, s:o, s:o, s:I}", "move", move_text(g, evals[i].move), "margin",
                            real_or_zero(evals[i].margin), "win", real_or_zero(evals[i].win),
                            "visits", (json_int_t)evals[i].visits));
    return list;
}

static json_t *do_analyse(engine *e, const json_t *req)
{
    long long ms = 0, top = 3;
    json_t *err = search_request(e, req, &ms);
    if (!err)
        err = int_member(req, "top", 1, MAX_TOP, &top);
    if (err)
        return err;
    carc_search_info info;
    stop_timer timer;
    int n = 0;
    timer_start(&timer, e->player, ms);
    carc_move_eval *evals = move_list_rank(e->player, e->game, &n, &info);
    timer_finish(&timer);
    if (!evals)
        return proto_error("out of memory");
    json_t *reply =
        json_pack("{s:s, s:i, s:o, s:o, s:i, s:I, s:o}", "type", "analysis", "player",
                  carc_game_current_player(e->game), "moves",
                  ranked_moves(e->game, evals, n < top ? n : (int)top), "tile",
                  tile_letter(carc_game_drawn_tile(e->game)), "legal_moves", n, "iterations",
                  (json_int_t)info.iterations, "seconds", real_or_zero(info.seconds));
    free(evals);
    return reply;
}

/* The record's SPOT of a spot: a port's name, C for a cloister, F for a
 * field with no ports (IH's). */
static const char *spot_name(carc_spot spot)
{
    if (spot.port == CARC_PORTS)
        return spot.kind == CARC_FIELD ? "F" : "C";
    const char *name = carc_port_name(spot.port);
    return name ? name : "?";
}

/* The follower spots of the drawn tile at `place`:
 * {"E":"road","NNE":"field",...}. */
static json_t *spots_json(const carc_game *g, carc_placement place)
{
    carc_spot spots[CARC_MAX_SPOTS];
    int n = carc_legal_spots(g, place, spots, CARC_MAX_SPOTS);
    json_t *out = json_object();
    for (int s = 0; s < n; s++)
        json_object_set_new(out, spot_name(spots[s]), json_string(wire_kind_name(spots[s].kind)));
    return out;
}

/* The spots of `place` where a legal move deploys the large follower
 * (among the `n` legal moves), in the order of carc_legal_moves(). */
static json_t *large_spots_json(const carc_game *g, const carc_move *moves, int n,
                                carc_placement place)
{
    json_t *out = json_array();
    carc_spot spots[CARC_MAX_SPOTS];
    int nspots = carc_legal_spots(g, place, spots, CARC_MAX_SPOTS);
    for (int i = 0; i < n; i++) {
        const carc_move *m = &moves[i];
        if (m->type != CARC_MOVE_PLACE || m->figure != CARC_FIGURE_LARGE || m->place.x != place.x ||
            m->place.y != place.y || m->place.rot != place.rot || m->place.tile != place.tile)
            continue;
        for (int s = 0; s < nspots; s++)
            if (spots[s].segment == m->segment)
                json_array_append_new(out, json_string(spot_name(spots[s])));
    }
    return out;
}

/* {"move":..., "points":[...], "events":[...]}: legal move `m` of game `g`
 * and what playing it scores at once, played on `scratch`; no "events" when
 * it completes nothing. The points of
 * the last tile's move count the final scoring, but its events are left
 * out (every move would repeat them: hundreds of kilobytes); 'try' lists
 * them. */
static json_t *scored_move(const carc_game *g, carc_game *scratch, carc_move m)
{
    carc_event events[CARC_MAX_EVENTS];
    int nevents = 0, completed = 0;
    carc_game_copy(scratch, g);
    if (carc_game_play(scratch, m, events, CARC_MAX_EVENTS, &nevents) != CARC_OK)
        nevents = 0; /* cannot happen: the move is legal */
    while (completed < nevents && events[completed].complete)
        completed++;
    json_t *entry =
        json_pack("{s:o, s:o}", "move", move_text(g, m), "points", points_json(g, events, nevents));
    if (completed > 0) /* most moves score nothing: a short line */
        json_object_set_new(entry, "events", events_json(g, events, completed));
    return entry;
}

/* Leaves the events out of the `moves` of 'legal' reply `reply` when the
 * line would be longer than the limit (a tile that completes features in
 * hundreds of moves); "events_left_out" says so, and 'try' has them. */
static void fit_line(json_t *reply, json_t *moves)
{
    char *text = json_dumps(reply, JSON_COMPACT);
    size_t len = text ? strlen(text) : 0;
    free(text);
    if (len <= PROTO_MAX_LINE)
        return;
    for (size_t i = 0; i < json_array_size(moves); i++)
        json_object_del(json_array_get(moves, i), "events");
    json_object_set_new(reply, "events_left_out", json_true());
}

/* A player's hand as the session's seat may see it: its own hand (every
 * hand with open-hands) as tile ids, else only its size. */
static json_t *hand_json(const engine *e, const carc_game *g, int player)
{
    int kinds[CARC_MAX_HAND];
    int n = carc_game_hand(g, player, kinds, CARC_MAX_HAND);
    if (player != e->seat && !(carc_game_rules(g).flags & CARC_RULE_OPEN_HANDS))
        return json_integer(n);
    json_t *list = json_array();
    for (int i = 0; i < n && i < CARC_MAX_HAND; i++)
        json_array_append_new(list, tile_letter(kinds[i]));
    return list;
}

/* The player whose draw is due first, or null. */
static json_t *due_player_json(const carc_game *g)
{
    int player = -1;
    return carc_game_draw_due(g, &player) > 0 ? json_integer(player) : json_null();
}

static json_t *hands_json(const engine *e, const carc_game *g)
{
    json_t *hands = json_array();
    for (int p = 0; p < carc_game_players(g); p++)
        json_array_append_new(hands, hand_json(e, g, p));
    return hands;
}

/* Every legal move of the drawn tile, each once (carc_legal_moves()): a
 * placement per move without a follower, with its spots (with Inns &
 * Cathedrals, also the spots where the large follower may go); and every
 * move with what it scores at once (protocol 4). */
static json_t *do_legal(engine *e)
{
    json_t *err = check_playing(e);
    if (!err && !e->tile_known)
        err = proto_error("the drawn tile is unknown: send 'tile' or 'draw' first");
    if (err)
        return err;
    carc_move *moves = malloc(sizeof *moves * CARC_MAX_MOVES);
    if (!moves)
        return proto_error("out of memory");
    const carc_game *g = e->game;
    int n = carc_legal_moves(g, moves, CARC_MAX_MOVES);
    /* hand=N: a placement's spots are those of its own tile. */
    carc_game *held = carc_game_rules(g).hand ? carc_game_clone(g) : NULL;
    int inns = (carc_game_rules(g).expansions & CARC_EXPANSION_INNS_CATHEDRALS) != 0;
    int traders = (carc_game_rules(g).expansions & CARC_EXPANSION_TRADERS_BUILDERS) != 0;
    json_t *list = json_array(), *scored = json_array();
    for (int i = 0; i < n; i++) {
        carc_placement p = moves[i].place;
        json_array_append_new(scored, scored_move(g, e->scratch, moves[i]));
        if (moves[i].type != CARC_MOVE_PLACE || moves[i].segment != CARC_NO_SPOT)
            continue;
        const carc_game *tg = g;
        if (held && carc_game_hold_tile(held, p.tile - 1) == CARC_OK)
            tg = held;
        p.tile = 0; /* the held tile */
        json_t *item = json_pack("{s:o, s:i, s:i, s:i, s:o}", "move", move_text(g, moves[i]), "x",
                                 p.x, "y", p.y, "rot", p.rot, "spots", spots_json(tg, p));
        if (inns)
            json_object_set_new(item, "large", large_spots_json(tg, moves, n, moves[i].place));
        if (traders) {
            json_object_set_new(
                item, "builder",
                wire_figure_spots(tg, moves, n, moves[i].place, CARC_FIGURE_BUILDER));
            json_object_set_new(item, "pig",
                                wire_figure_spots(tg, moves, n, moves[i].place, CARC_FIGURE_PIG));
        }
        json_array_append_new(list, item);
    }
    int discard = n == 1 && moves[0].type == CARC_MOVE_DISCARD;
    free(moves);
    carc_game_free(held);
    json_t *reply =
        json_pack("{s:s, s:i, s:o, s:i, s:o, s:o}", "type", "legal", "player",
                  carc_game_current_player(g), "tile", tile_letter(carc_game_drawn_tile(g)),
                  "count", n, "placements", list, "moves", scored);
    if (discard)
        json_object_set_new(reply, "discard",
                            json_sprintf("discard %s", carc_tile_id(carc_game_drawn_tile(g))));
    if (traders)
        json_object_set_new(reply, "second_part", json_boolean(carc_game_second_part(g)));
    if (carc_game_rules(g).hand)
        json_object_set_new(reply, "hand", hand_json(e, g, carc_game_current_player(g)));
    fit_line(reply, scored);
    return reply;
}

/* hand=N: names the due draws of "player" with "tiles" (the controller
 * deals), or, without "tiles", takes the engine's own draws for all due
 * (the engine deals); the reply shows the hands as the seat sees them. */
static json_t *do_hand_draw(engine *e, const json_t *req)
{
    carc_game *g = e->game;
    int due_player = -1;
    carc_game_draw_due(g, &due_player);
    long long player = due_player;
    json_t *err = int_member(req, "player", 0, carc_game_players(g) - 1, &player);
    if (err)
        return err;
    const json_t *tiles = json_object_get(req, "tiles");
    if (tiles && !json_is_array(tiles))
        return proto_error("\"tiles\" must be an array of tile ids");
    carc_game_copy(e->scratch, g);
    size_t i;
    json_t *v;
    json_array_foreach(tiles, i, v)
    {
        int kind = tile_of(v);
        if (kind < 0)
            return proto_error("tiles[%zu]: not a tile id", i);
        if (carc_game_draw(e->scratch, (int)player, kind) != CARC_OK)
            return proto_error("draw %s: %s", carc_tile_id(kind), carc_game_error(e->scratch));
    }
    for (int d = carc_game_draw_count(g) - carc_game_draw_due(e->scratch, NULL);
         !tiles && carc_game_draw_due(e->scratch, NULL) > 0; d++) {
        int kind = CARC_NO_TILE, who = 0;
        carc_game_draw_at(e->scratch, d, &who, &kind, NULL);
        carc_game_draw(e->scratch, who, kind);
    }
    carc_game_copy(g, e->scratch);
    return json_pack("{s:s, s:o, s:i, s:o, s:i}", "type", "hand", "hands", hands_json(e, g), "due",
                     carc_game_draw_due(g, NULL), "draw_for", due_player_json(g), "left",
                     carc_game_tiles_left(g, NULL));
}

/* The engine deals: the tile its own pile drew now, made known; or, with
 * a "tile", the tile the controller names (as 'tile' does). */
static json_t *do_draw(engine *e, const json_t *req)
{
    json_t *err = check_playing(e);
    if (!err && carc_game_rules(e->game).hand)
        return do_hand_draw(e, req);
    if (!err)
        err = check_player(e, req);
    if (!err && json_object_get(req, "tile"))
        err = choose_tile(e, req);
    if (err)
        return err;
    e->tile_known = 1;
    return json_pack(
        "{s:s, s:i, s:o, s:i}", "type", "tile", "player", carc_game_current_player(e->game), "tile",
        tile_letter(carc_game_drawn_tile(e->game)), "left", carc_game_tiles_left(e->game, NULL));
}

/* The 'state' reply for game `g` of the session, whose drawn tile is
 * known or not. */
static json_t *state_json(const engine *e, const carc_game *g, int tile_known)
{
    json_t *scores = json_array(), *supply = json_array(), *figures = json_array();
    json_t *goods = json_array(), *goods_points = json_array();
    int traders = (carc_game_rules(g).expansions & CARC_EXPANSION_TRADERS_BUILDERS) != 0;
    for (int p = 0; p < carc_game_players(g); p++) {
        json_array_append_new(scores, json_integer(carc_game_score(g, p)));
        json_array_append_new(supply, json_integer(carc_game_supply(g, p)));
        json_t *f =
            json_pack("{s:i, s:i}", "followers", carc_game_figures(g, p, CARC_FIGURE_FOLLOWER),
                      "large", carc_game_figures(g, p, CARC_FIGURE_LARGE));
        if (f && traders) {
            json_object_set_new(f, "builder",
                                json_integer(carc_game_figures(g, p, CARC_FIGURE_BUILDER)));
            json_object_set_new(f, "pig", json_integer(carc_game_figures(g, p, CARC_FIGURE_PIG)));
        }
        json_array_append_new(figures, f);
        json_array_append_new(goods, wire_player_goods(g, p));
        json_array_append_new(goods_points, json_integer(carc_game_goods_points(g, p)));
    }
    int over = carc_game_over(g);
    int known = over || tile_known;
    json_t *tile = over || !tile_known ? json_null() : tile_letter(carc_game_drawn_tile(g));
    /* The digest covers the drawn tile: none while the tile is unknown. */
    json_t *digest = known ? json_sprintf("%016" PRIx64, carc_game_digest(g)) : json_null();
    json_t *state =
        json_pack("{s:s, s:i, s:i, s:o, s:o, s:i, s:o, s:o, s:o, s:i, s:b, s:o, s:o}", "type",
                  "state", "players", carc_game_players(g), "seat", e->seat, "to_move",
                  over ? json_null() : json_integer(carc_game_current_player(g)), "tile", tile,
                  "moves", carc_game_move_count(g), "scores", scores, "supply", supply, "figures",
                  figures, "left", over ? 0 : carc_game_tiles_left(g, NULL), "over", over, "digest",
                  digest, "expansions", wire_expansions(carc_game_rules(g)));
    if (state && carc_game_rules(g).hand) {
        /* The drawn tile is the held hand tile: hidden from the others. */
        if (carc_game_current_player(g) != e->seat &&
            !(carc_game_rules(g).flags & CARC_RULE_OPEN_HANDS))
            json_object_set(state, "tile", json_null());
        json_object_set_new(state, "hands", hands_json(e, g));
        json_object_set_new(state, "due", json_integer(carc_game_draw_due(g, NULL)));
        json_object_set_new(state, "draw_for", due_player_json(g));
    }
    if (state && traders) { /* goods are public; a second tile goes to the same player */
        json_object_set_new(state, "goods", goods);
        json_object_set_new(state, "goods_points", goods_points);
        json_object_set_new(state, "second_part", json_boolean(!over && carc_game_second_part(g)));
    } else {
        json_decref(goods);
        json_decref(goods_points);
    }
    return state;
}

static json_t *do_state(const engine *e)
{
    if (!e->game)
        return proto_error("no game: send 'new' first");
    return state_json(e, e->game, e->tile_known);
}

/* The position after the move of `req`, as 'state' would show it once the
 * move is played, and what the move scores; the game is untouched. */
static json_t *do_try(engine *e, const json_t *req)
{
    carc_event events[CARC_MAX_EVENTS];
    int nevents = 0;
    json_t *err = play_on_scratch(e, req, NULL, events, &nevents);
    if (err)
        return err;
    const carc_game *after = e->scratch;
    return json_pack("{s:s, s:o, s:o, s:o}", "type", "try", "points",
                     points_json(after, events, nevents), "events",
                     events_json(after, events, nevents), "state", state_json(e, after, 0));
}

/* Answers one request line; sets *quit at 'quit'. */
json_t *engine_session_answer(engine_session *e, const char *line, size_t len, int *quit)
{
    json_error_t jerr;
    json_t *req = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!req)
        return proto_error("not JSON: %s", jerr.text);
    json_t *reply;
    const char *type = json_string_value(json_object_get(req, "type"));
    if (!json_is_object(req) || !type)
        reply = proto_error("a request is a JSON object with a \"type\"");
    else if (strcmp(type, "hello") == 0)
        reply = do_hello(e);
    else if (strcmp(type, "new") == 0)
        reply = do_new(e, req);
    else if (strcmp(type, "tile") == 0)
        reply = do_tile(e, req);
    else if (strcmp(type, "move") == 0)
        reply = do_move(e, req);
    else if (strcmp(type, "go") == 0)
        reply = do_go(e, req);
    else if (strcmp(type, "analyse") == 0 || strcmp(type, "analyze") == 0)
        reply = do_analyse(e, req);
    else if (strcmp(type, "state") == 0)
        reply = do_state(e);
    else if (strcmp(type, "legal") == 0)
        reply = do_legal(e);
    else if (strcmp(type, "draw") == 0)
        reply = do_draw(e, req);
    else if (strcmp(type, "end") == 0)
        reply = do_end(e);
    else if (strcmp(type, "try") == 0)
        reply = do_try(e, req);
    else if (strcmp(type, "undo") == 0)
        reply = do_undo(e);
    else if (strcmp(type, "quit") == 0) {
        *quit = 1;
        reply = json_pack("{s:s}", "type", "bye");
    } else
        reply = proto_error("unknown request type '%.40s'", type);
    json_decref(req);
    return reply;
}

engine_session *engine_session_new(const char *spec, uint64_t seed, char *err, size_t errcap)
{
    engine_session *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    e->player = carc_player_new(spec, seed, err, errcap);
    if (!e->player) {
        free(e);
        return NULL;
    }
    e->seed = seed;
    return e;
}

void engine_session_free(engine_session *e)
{
    if (!e)
        return;
    carc_player_free(e->player);
    carc_game_free(e->game);
    carc_game_free(e->scratch);
    history_clear(e);
    free(e->history);
    free(e);
}
