/* views.c: what a table shows: the JSON of its events and its record. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_view.h"
#include "glicko2.h"
#include "hand_view.h"
#include "table.h"
#include "tile_info.h"
#include "wire.h"

static const char *const status_names[4] = {"waiting", "playing", "finished", "closed"};
static const char *const by_names[3] = {"player", "computer", "server"};

carc_game *table_replay(const stored_table *row, replay_fn each, void *ctx, char *err,
                        size_t errcap)
{
    carc_rules rules = row->rules;
    carc_game *g = carc_game_new(row->players, &rules, row->seed);
    if (!g) {
        char why[120] = "out of memory";
        carc_rules_check(&rules, why, sizeof why);
        snprintf(err, errcap, "cannot make a game of %d players: %s", row->players,
                 why[0] ? why : "out of memory");
        return NULL;
    }
    for (int i = 0; i < row->nmoves; i++) {
        carc_event events[CARC_MAX_EVENTS];
        int n = 0, player = carc_game_current_player(g);
        tile_pile_mark before = tile_info_pile_mark(g);
        carc_move m;
        carc_status st;
        if (strcmp(row->moves[i].text, "end") == 0) {
            st = carc_game_finish(g, events, CARC_MAX_EVENTS, &n);
        } else {
            st = carc_move_parse_message(g, row->moves[i].text, &m, err, errcap);
            if (st == CARC_OK)
                st = carc_game_play(g, m, events, CARC_MAX_EVENTS, &n);
        }
        if (st != CARC_OK) {
            snprintf(err, errcap, "move %d '%s' does not replay", i, row->moves[i].text);
            carc_game_free(g);
            return NULL;
        }
        if (each)
            each(ctx, i, player, events, n < CARC_MAX_EVENTS ? n : CARC_MAX_EVENTS,
                 tile_info_went_back(g, before));
    }
    return g;
}

/* --- Pieces -------------------------------------------------------------------------- */

static carc_rules table_rules(const srv_table *t)
{
    return t->row.rules;
}

static int has_hand(const srv_table *t)
{
    return carc_game_rules(t->game).hand > 0;
}

static json_t *tile_json(int kind)
{
    const carc_tile_def *def = carc_tile(kind);
    return def ? json_string(def->id) : json_null();
}

static json_t *players_array(const srv_table *t, int (*value)(const carc_game *, int))
{
    json_t *list = json_array();
    for (int p = 0; p < t->row.players; p++)
        json_array_append_new(list, json_integer(value(t->game, p)));
    return list;
}

/* The large follower in a player's supply: 1 or 0 (Inns & Cathedrals). */
static int large_supply(const carc_game *g, int player)
{
    return carc_game_figures(g, player, CARC_FIGURE_LARGE);
}

static int traders(const carc_game *g)
{
    return (carc_game_rules(g).expansions & CARC_EXPANSION_TRADERS_BUILDERS) != 0;
}

/* Traders & Builders' part of a player's view, added to `obj`: "builder"
 * and "pig" in the supply (1 or 0), "goods" held. */
static void traders_seat(json_t *obj, const carc_game *g, int p)
{
    json_object_set_new(obj, "builder", json_integer(carc_game_figures(g, p, CARC_FIGURE_BUILDER)));
    json_object_set_new(obj, "pig", json_integer(carc_game_figures(g, p, CARC_FIGURE_PIG)));
    json_object_set_new(obj, "goods", wire_player_goods(g, p));
}

/* Traders & Builders' arrays of a move event, per player: "builder",
 * "pig", "goods". */
static void traders_players(json_t *obj, const srv_table *t)
{
    json_t *builder = json_array(), *pig = json_array(), *goods = json_array();
    for (int p = 0; p < t->row.players; p++) {
        json_array_append_new(builder,
                              json_integer(carc_game_figures(t->game, p, CARC_FIGURE_BUILDER)));
        json_array_append_new(pig, json_integer(carc_game_figures(t->game, p, CARC_FIGURE_PIG)));
        json_array_append_new(goods, wire_player_goods(t->game, p));
    }
    json_object_set_new(obj, "builder", builder);
    json_object_set_new(obj, "pig", pig);
    json_object_set_new(obj, "goods", goods);
}

static const char *seat_kind_name(const stored_seat *s)
{
    if (s->kind == SEAT_COMPUTER)
        return "computer";
    if (s->taken)
        return "human";
    return s->kind == SEAT_INVITE ? "invite" : "open";
}

static json_t *seat_name(const stored_seat *s)
{
    return s->name[0] ? json_string(s->name) : json_null();
}

/* Adds seat `s`'s rating in the table's category to `seat`, when it has
 * one: `rating` rounded, `provisional` while its RD is large. */
static json_t *with_rating(json_t *seat, const srv_table *t, int s)
{
    if (seat && t->rating[s] >= 0) {
        json_object_set_new(seat, "rating", json_integer((json_int_t)(t->rating[s] + 0.5)));
        json_object_set_new(seat, "provisional",
                            json_boolean(t->rating_rd[s] > GLICKO2_PROVISIONAL_RD));
    }
    return seat;
}

json_t *view_events(const srv_table *t, const carc_event *events, int n)
{
    return board_view_events(events, n, t->row.players);
}

int64_t view_clock_left(const srv_table *t, int seat, int64_t now_ms)
{
    const msg_clock *k = &t->row.clock;
    int running = t->row.status == TABLE_PLAYING && carc_game_current_player(t->game) == seat;
    int64_t used = running ? now_ms - t->turn_ms : 0;
    int64_t left;
    if (k->mode == CLOCK_MOVE || k->mode == CLOCK_DAYS)
        left = (int64_t)k->seconds * 1000 - used;
    else if (k->mode == CLOCK_FISCHER)
        left = t->left_ms[seat] - used;
    else
        return 0;
    return left > 0 ? left : 0;
}

static json_t *clock_json(const srv_table *t, int64_t now_ms)
{
    const msg_clock *k = &t->row.clock;
    if (k->mode == CLOCK_NONE)
        return json_null();
    json_t *left = json_array();
    for (int s = 0; s < t->row.players; s++)
        json_array_append_new(left, json_integer(view_clock_left(t, s, now_ms)));
    int running = t->row.status == TABLE_PLAYING ? carc_game_current_player(t->game) : -1;
    const char *mode = k->mode == CLOCK_MOVE      ? "move"
                       : k->mode == CLOCK_FISCHER ? "fischer"
                                                  : "days";
    json_t *clock = json_pack("{s:s, s:i, s:i, s:s, s:o, s:o}", "mode", mode, "seconds", k->seconds,
                              "increment", k->increment, "on_timeout",
                              k->on_timeout == TIMEOUT_FORFEIT ? "forfeit" : "computer", "left_ms",
                              left, "running", running >= 0 ? json_integer(running) : json_null());
    if (k->mode == CLOCK_DAYS)
        json_object_set_new(clock, "days", json_integer(k->seconds / 86400));
    /* The time by which the seat to move must move (ms since 1970). */
    if (running >= 0)
        json_object_set_new(clock, "deadline_ms",
                            json_integer(now_ms + view_clock_left(t, running, now_ms)));
    return clock;
}

/* The library's digest of the public state (carc_game_digest), as 16
 * lower-case hexadecimal digits. */
static json_t *digest_json(const carc_game *g)
{
    return json_sprintf("%016" PRIx64, carc_game_digest(g));
}

static json_t *next_tiles_json(const srv_table *t, int viewer);
static json_t *remaining_json(const srv_table *t, int viewer);

/* --- Events -------------------------------------------------------------------------- */

json_t *view_seat(const srv_table *t, int seat)
{
    const stored_seat *s = &t->row.seats[seat];
    return with_rating(json_pack("{s:s, s:s, s:i, s:o, s:s, s:b}", "type", "seat", "table",
                                 t->row.id, "seat", seat, "name", seat_name(s), "kind",
                                 seat_kind_name(s), "present",
                                 t->present[seat] > 0 || s->kind == SEAT_COMPUTER),
                       t, seat);
}

/* The tile the player to move holds, as `viewer` may see it (null when
 * it is in a hidden hand). */
static json_t *held_tile_json(const srv_table *t, int viewer)
{
    const carc_game *g = t->game;
    if (!hand_visible(t, viewer, carc_game_current_player(g)))
        return json_null();
    return tile_json(carc_game_drawn_tile(g));
}

static json_t *move_json(const srv_table *t, int turn, int player, const char *move, move_by by,
                         const carc_event *events, int n, int64_t now_ms, int viewer)
{
    const carc_game *g = t->game;
    json_t *next = json_null();
    if (!carc_game_over(g))
        next = json_pack("{s:i, s:i, s:o, s:b}", "turn", turn + 1, "player",
                         carc_game_current_player(g), "tile", held_tile_json(t, viewer),
                         "second_part", carc_game_second_part(g));
    json_t *view = json_pack(
        "{s:s, s:s, s:i, s:i, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:i, s:o, s:o}", "type", "move",
        "table", t->row.id, "turn", turn, "player", player, "move", move, "by", by_names[by],
        "events", view_events(t, events, n), "scores", players_array(t, carc_game_score), "supply",
        players_array(t, carc_game_supply), "large", players_array(t, large_supply), "next", next,
        "tiles_left", carc_game_over(g) ? 0 : carc_game_tiles_left(g, NULL), "clock",
        clock_json(t, now_ms), "digest", digest_json(g));
    if (view && traders(g))
        traders_players(view, t);
    return view;
}

/* The dead spots: of the pile and the drawn tile, or with hands of the
 * pile and every hand. */
static json_t *dead_json(const srv_table *t)
{
    return has_hand(t) ? hand_view_dead(t) : board_view_dead(t->game);
}

/* A hand game's part of a move event for `viewer`: the hands, the draws
 * made after the move (the draw-up, a discard's replacement) and, with
 * reshuffle, the discarded tile when it went back into the pile. */
static void hand_move_fields(json_t *event, const srv_table *t, int turn, const char *move,
                             int went_back, int viewer)
{
    json_object_set_new(event, "hand", hand_view_own(t, viewer));
    json_object_set_new(event, "hands", hand_view_hands(t, viewer));
    json_object_set_new(event, "draws", hand_view_draws(t, viewer, turn + 1));
    if (t->row.info == INFO_CASUAL && !carc_game_over(t->game))
        json_object_set_new(event, "remaining", remaining_json(t, viewer));
    if (went_back && strncmp(move, "discard ", 8) == 0)
        json_object_set_new(event, "returned", json_string(move + 8));
}

json_t *view_move(const srv_table *t, int turn, int player, const char *move, int went_back,
                  move_by by, const carc_event *events, int n, int64_t now_ms, int viewer)
{
    json_t *event = move_json(t, turn, player, move, by, events, n, now_ms, viewer);
    json_object_set_new(event, "followers", board_view_followers(t->game));
    if (t->row.info == INFO_CASUAL) {
        json_object_set_new(event, "dead", dead_json(t));
        if (!carc_game_over(t->game))
            json_object_set_new(event, "next_tiles", next_tiles_json(t, viewer));
    }
    if (has_hand(t))
        hand_move_fields(event, t, turn, move, went_back, viewer);
    return event;
}

/* The final scores, breakdown, winners and the revealed deal. */
/* Why the seat in row.forfeit lost by forfeit: "resigned" (the game's
 * `end` was the player's), "time" (its clock ran out at a table whose
 * clock forfeits), or "abandoned" (at a table whose clock hands a late
 * turn to the computer, its player was away for turn after turn:
 * tables.h's TABLE_ABANDON_TURNS). */
static const char *forfeit_reason(const srv_table *t)
{
    int n = t->row.nmoves;
    if (n > 0 && t->row.moves[n - 1].by == BY_PLAYER &&
        strcmp(t->row.moves[n - 1].text, "end") == 0)
        return "resigned";
    return t->row.clock.on_timeout == TIMEOUT_FORFEIT ? "time" : "abandoned";
}

static json_t *final_json(const srv_table *t)
{
    static const carc_kind kinds[4] = {CARC_ROAD, CARC_CITY, CARC_CLOISTER, CARC_FIELD};
    static const char *const names[4] = {"roads", "cities", "cloisters", "farms"};
    const carc_game *g = t->game;
    json_t *by_kind = json_array(), *winners = json_array();
    int best = -1;
    for (int p = 0; p < t->row.players; p++) {
        json_t *b = json_object();
        for (int k = 0; k < 4; k++)
            json_object_set_new(b, names[k], json_integer(carc_game_score_of(g, p, kinds[k])));
        if (traders(g)) /* the 10s for goods majorities, outside the four kinds */
            json_object_set_new(b, "goods", json_integer(carc_game_goods_points(g, p)));
        json_array_append_new(by_kind, b);
        if (p != t->row.forfeit && carc_game_score(g, p) > best)
            best = carc_game_score(g, p);
    }
    for (int p = 0; p < t->row.players; p++)
        if (p != t->row.forfeit && carc_game_score(g, p) == best)
            json_array_append_new(winners, json_integer(p));
    char seed[24], salt[TOKEN_HEX];
    snprintf(seed, sizeof seed, "%" PRIu64, t->row.seed);
    token_hex(t->row.salt, sizeof t->row.salt, salt);
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:s, s:s, s:s}", "scores",
                     players_array(t, carc_game_score), "by_kind", by_kind, "winners", winners,
                     "forfeit", t->row.forfeit >= 0 ? json_integer(t->row.forfeit) : json_null(),
                     "forfeit_reason",
                     t->row.forfeit >= 0 ? json_string(forfeit_reason(t)) : json_null(), "seed",
                     seed, "salt", salt, "commitment", t->commitment);
}

json_t *view_end(const srv_table *t)
{
    json_t *end = json_pack("{s:s, s:s}", "type", "end", "table", t->row.id);
    json_t *fields = final_json(t);
    json_object_update(end, fields);
    json_decref(fields);
    return end;
}

json_t *view_chat(const chat_line *line, const char *table)
{
    return json_pack("{s:s, s:s, s:o, s:o, s:s, s:I}", "type", "chat", "table", table, "seat",
                     line->seat >= 0 ? json_integer(line->seat) : json_null(), "name",
                     line->name[0] ? json_string(line->name) : json_null(), "text", line->text,
                     "at", (json_int_t)(line->at_ms / 1000));
}

/* --- The state ------------------------------------------------------------------------ */

typedef struct moves_ctx {
    const srv_table *t;
    json_t *list;
    int viewer;
} moves_ctx;

static void add_move(void *ctx, int turn, int player, const carc_event *events, int n,
                     int went_back)
{
    moves_ctx *M = ctx;
    const stored_move *m = &M->t->row.moves[turn];
    json_t *item =
        json_pack("{s:i, s:i, s:s, s:s, s:o}", "turn", turn, "player", player, "move", m->text,
                  "by", by_names[m->by], "events", view_events(M->t, events, n));
    if (item && has_hand(M->t))
        json_object_set_new(item, "draws", hand_view_draws(M->t, M->viewer, turn + 1));
    if (item && has_hand(M->t) && went_back && strncmp(m->text, "discard ", 8) == 0)
        json_object_set_new(item, "returned", json_string(m->text + 8));
    json_array_append_new(M->list, item);
}

static json_t *moves_json(const srv_table *t, int viewer)
{
    moves_ctx M = {t, json_array(), viewer};
    char err[160];
    carc_game *g = table_replay(&t->row, add_move, &M, err, sizeof err);
    carc_game_free(g);
    return M.list;
}

static json_t *seats_json(const srv_table *t)
{
    json_t *list = json_array();
    for (int s = 0; s < t->row.players; s++) {
        const stored_seat *st = &t->row.seats[s];
        json_t *seat =
            json_pack("{s:o, s:s, s:b, s:i, s:i, s:i}", "name", seat_name(st), "kind",
                      seat_kind_name(st), "present", t->present[s] > 0 || st->kind == SEAT_COMPUTER,
                      "score", carc_game_score(t->game, s), "supply", carc_game_supply(t->game, s),
                      "large", large_supply(t->game, s));
        if (seat && traders(t->game))
            traders_seat(seat, t->game, s);
        if (seat && seat_resigned(st)) /* the computer plays it now */
            json_object_set_new(seat, "resigned", json_true());
        with_rating(seat, t, s);
        json_array_append_new(list, seat);
    }
    return list;
}

/* Until the game starts nothing depends on the deal: the first tile is
 * drawn when the table is made, but a waiting table shows it still in the
 * pile (in `remaining` and `tiles_left`) and sends no digest, which
 * covers the drawn tile. */
static int tiles_left(const srv_table *t, int counts[CARC_MAX_KINDS])
{
    const carc_game *g = t->game;
    if (carc_game_over(g)) {
        memset(counts, 0, CARC_MAX_KINDS * sizeof counts[0]);
        return 0;
    }
    int waiting = t->row.status == TABLE_WAITING;
    if (has_hand(t)) /* a waiting table shows the hands dealt still in the pile */
        return carc_game_tiles_left(g, counts) + (waiting ? hand_add_all(t, counts) : 0);
    return tile_info_counts(g, counts, waiting) + waiting;
}

/* The tiles left of each kind as `viewer` counts them: with hidden hands,
 * the tiles of the hands it does not see too. */
static json_t *remaining_json(const srv_table *t, int viewer)
{
    int counts[CARC_MAX_KINDS] = {0};
    tiles_left(t, counts);
    if (has_hand(t) && t->row.status == TABLE_PLAYING)
        hand_add_unseen(t, viewer, counts);
    json_t *map = json_object();
    for (int k = 0; k < carc_tile_kinds(); k++) {
        if (counts[k] > 0)
            json_object_set_new(map, carc_tile_id(k), json_integer(counts[k]));
    }
    return map;
}

/* What the next draw can give (carc_game_next_tiles()): with The River,
 * only the river pile's tiles while it lasts, the lake last. A waiting
 * table shows the first draw, the drawn tile back among them. */
static json_t *next_tiles_json(const srv_table *t, int viewer)
{
    int counts[CARC_MAX_KINDS] = {0};
    const carc_game *g = t->game;
    carc_game_next_tiles(g, counts);
    int drawn = carc_game_drawn_tile(g), waiting = t->row.status == TABLE_WAITING;
    if (has_hand(t) && waiting)
        hand_add_all(t, counts);
    else if (has_hand(t))
        hand_add_unseen(t, viewer, counts);
    else if (waiting && drawn >= 0 && drawn < CARC_MAX_KINDS)
        counts[drawn]++;
    json_t *map = json_object();
    for (int k = 0; k < carc_tile_kinds(); k++)
        if (counts[k] > 0)
            json_object_set_new(map, carc_tile_id(k), json_integer(counts[k]));
    return map;
}

static json_t *chat_json(const srv_table *t)
{
    json_t *list = json_array();
    int first = t->nchat > CHAT_KEPT ? t->nchat - CHAT_KEPT : 0;
    for (int i = first; t->chat && i < t->nchat; i++)
        json_array_append_new(list, view_chat(&t->chat[i % CHAT_KEPT], t->row.id));
    return list;
}

/* The squares a tile may take on a bounded table (table=WxH), or null:
 * the browser draws the edge and offers nothing beyond it. */
static json_t *table_edge_json(const srv_table *t)
{
    int min_x, min_y, max_x, max_y;
    if (!carc_rules_table_edge(&t->row.rules, &min_x, &min_y, &max_x, &max_y))
        return json_null();
    return json_pack("{s:i, s:i, s:i, s:i}", "min_x", min_x, "max_x", max_x, "min_y", min_y,
                     "max_y", max_y);
}

json_t *view_state(const srv_table *t, int you, int64_t now_ms)
{
    const carc_game *g = t->game;
    int playing = t->row.status == TABLE_PLAYING, counts[CARC_MAX_KINDS];
    json_t *state = json_pack(
        "{s:s, s:s, s:s, s:o, s:i, s:o, s:o, s:s, s:o, s:i, s:o, s:o, s:i}", "type", "state",
        "table", t->row.id, "status", status_names[t->row.status], "you",
        you >= 0 ? json_integer(you) : json_null(), "players", t->row.players, "rules",
        wire_rules(table_rules(t)), "expansions", wire_expansions(table_rules(t)), "info",
        t->row.info == INFO_PURIST ? "purist" : "casual", "seats", seats_json(t), "turn",
        t->row.nmoves, "to_move", playing ? json_integer(carc_game_current_player(g)) : json_null(),
        "tile", playing ? held_tile_json(t, you) : json_null(), "tiles_left",
        tiles_left(t, counts));
    /* The player to move plays a builder's second tile (Traders & Builders). */
    json_object_set_new(state, "second_part", json_boolean(playing && carc_game_second_part(g)));
    if (t->row.info == INFO_CASUAL && !carc_game_over(g)) {
        json_object_set_new(state, "remaining", remaining_json(t, you));
        json_object_set_new(state, "next_tiles", next_tiles_json(t, you));
    }
    json_object_set_new(state, "moves", moves_json(t, you));
    json_object_set_new(state, "clock", clock_json(t, now_ms));
    json_object_set_new(state, "commitment", json_string(t->commitment));
    json_object_set_new(state, "digest",
                        t->row.status == TABLE_WAITING ? json_null() : digest_json(g));
    json_object_set_new(state, "chat", chat_json(t));
    json_object_set_new(state, "table_edge", table_edge_json(t));
    if (t->first_text[0])
        json_object_set_new(state, "first", json_string(t->first_text));
    json_object_set_new(state, "estimates", json_boolean(t->row.estimates));
    json_object_set_new(state, "rated", json_boolean(t->row.rated));
    /* A rematch asked at the end (until it lapses), or the table it made. */
    if (t->rematch_table[0])
        json_object_set_new(state, "rematch", json_pack("{s:s}", "new_table", t->rematch_table));
    else if (t->rematch_ms && now_ms - t->rematch_ms <= TABLE_REMATCH_MS)
        json_object_set_new(state, "rematch",
                            json_pack("{s:i, s:I}", "agreed", (int)t->rematch_agreed, "until_ms",
                                      (json_int_t)(t->rematch_ms + TABLE_REMATCH_MS)));
    /* A takeback asked between people and not yet answered. */
    if (t->takeback_seat >= 0 && t->takeback_turn == t->row.nmoves &&
        t->row.status == TABLE_PLAYING)
        json_object_set_new(
            state, "takeback",
            json_pack("{s:i, s:i}", "seat", t->takeback_seat, "agreed", (int)t->takeback_agreed));
    json_object_set_new(state, "start", board_view_start(g));
    json_object_set_new(state, "followers", board_view_followers(g));
    if (t->row.info == INFO_CASUAL)
        json_object_set_new(state, "dead", dead_json(t));
    if (has_hand(t) && t->row.status != TABLE_WAITING) {
        json_object_set_new(state, "hand", hand_view_own(t, you));
        json_object_set_new(state, "hands", hand_view_hands(t, you));
        json_object_set_new(state, "setup_draws", hand_view_draws(t, you, 0));
    }
    if (t->row.status == TABLE_FINISHED)
        json_object_set_new(state, "final", final_json(t));
    return state;
}

json_t *view_lobby_entry(const srv_table *t)
{
    json_t *seats = json_array();
    for (int s = 0; s < t->row.players; s++) {
        const stored_seat *st = &t->row.seats[s];
        json_array_append_new(seats, with_rating(json_pack("{s:o, s:s}", "name", seat_name(st),
                                                           "kind", seat_kind_name(st)),
                                                 t, s));
    }
    return json_pack("{s:s, s:s, s:o, s:o, s:o, s:s, s:o, s:i, s:b, s:b, s:o}", "table", t->row.id,
                     "status", status_names[t->row.status], "seats", seats, "rules",
                     wire_rules(table_rules(t)), "expansions", wire_expansions(table_rules(t)),
                     "info", t->row.info == INFO_PURIST ? "purist" : "casual", "clock",
                     clock_json(t, t->turn_ms), "turn", t->row.nmoves, "estimates",
                     t->row.estimates, "rated", t->row.rated, "to_move",
                     t->row.status == TABLE_PLAYING && !carc_game_over(t->game)
                         ? json_integer(carc_game_current_player(t->game))
                         : json_null());
}

/* The figures the player to move may put on a spot: "follower" while a
 * follower is in the supply, "large", "builder", "pig" while that figure
 * is (a move names it with its word after the spot). */
static json_t *figures_json(const carc_game *g)
{
    json_t *list = json_array();
    int p = carc_game_current_player(g);
    if (carc_game_figures(g, p, CARC_FIGURE_FOLLOWER) > 0)
        json_array_append_new(list, json_string("follower"));
    if (carc_game_figures(g, p, CARC_FIGURE_LARGE) > 0)
        json_array_append_new(list, json_string("large"));
    if (carc_game_figures(g, p, CARC_FIGURE_BUILDER) > 0)
        json_array_append_new(list, json_string("builder"));
    if (carc_game_figures(g, p, CARC_FIGURE_PIG) > 0)
        json_array_append_new(list, json_string("pig"));
    return list;
}

/* The legal placements of the drawn tile of `g` into `obj`: "placements"
 * (each with its spots, and with Traders & Builders the builder's and the
 * pig's), and "discard" when the tile fits nowhere. */
static void tile_legal(json_t *obj, const carc_game *g)
{
    carc_placement places[CARC_MAX_PLACEMENTS];
    int n = carc_legal_placements(g, places, CARC_MAX_PLACEMENTS);
    if (n > CARC_MAX_PLACEMENTS)
        n = CARC_MAX_PLACEMENTS;
    /* The builder's and the pig's spots come from the legal moves. */
    carc_move *moves = traders(g) ? malloc(sizeof *moves * CARC_MAX_MOVES) : NULL;
    int nmoves = moves ? carc_legal_moves(g, moves, CARC_MAX_MOVES) : 0;
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        carc_spot spots[CARC_MAX_SPOTS];
        int ns = carc_legal_spots(g, places[i], spots, CARC_MAX_SPOTS);
        json_t *spot_list = json_array();
        for (int s = 0; s < ns && s < CARC_MAX_SPOTS; s++) {
            const char *name = spots[s].port != CARC_PORTS   ? carc_port_name(spots[s].port)
                               : spots[s].kind == CARC_FIELD ? "F"
                                                             : "C";
            json_array_append_new(spot_list, json_pack("{s:s, s:s}", "spot", name ? name : "?",
                                                       "role", wire_kind_name(spots[s].kind)));
        }
        carc_move m = {.type = CARC_MOVE_PLACE, .place = places[i], .segment = CARC_NO_SPOT};
        char text[32];
        carc_move_write(g, m, text, sizeof text);
        json_t *item = json_pack("{s:i, s:i, s:i, s:s, s:o}", "x", places[i].x, "y", places[i].y,
                                 "rot", places[i].rot, "move", text, "spots", spot_list);
        if (item && moves) {
            json_object_set_new(
                item, "builder",
                wire_figure_spots(g, moves, nmoves, places[i], CARC_FIGURE_BUILDER));
            json_object_set_new(item, "pig",
                                wire_figure_spots(g, moves, nmoves, places[i], CARC_FIGURE_PIG));
        }
        json_array_append_new(list, item);
    }
    free(moves);
    json_object_set_new(obj, "placements", list);
    if (n == 0) {
        carc_move discard = {.type = CARC_MOVE_DISCARD, .segment = CARC_NO_SPOT};
        char text[32];
        carc_move_write(g, discard, text, sizeof text);
        json_object_set_new(obj, "discard", json_string(text));
    }
}

/* With a hand: [{"tile":"E","placements":[...],"discard":...}, ...], the
 * legal placements of each kind of the mover's hand, in hand order. */
json_t *view_hand_legal(const carc_game *g)
{
    json_t *list = json_array();
    carc_game *h = carc_game_clone(g);
    int kinds[CARC_MAX_HAND];
    int n = h ? carc_game_hand(h, carc_game_current_player(h), kinds, CARC_MAX_HAND) : 0;
    for (int i = 0; i < n && i < CARC_MAX_HAND; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= kinds[j] == kinds[i];
        if (seen || carc_game_hold_tile(h, kinds[i]) != CARC_OK)
            continue;
        json_t *item = json_pack("{s:o}", "tile", tile_json(kinds[i]));
        tile_legal(item, h);
        json_array_append_new(list, item);
    }
    carc_game_free(h);
    return list;
}

json_t *view_game_legal(const carc_game *g, int turn)
{
    json_t *legal =
        json_pack("{s:i, s:i, s:o, s:o}", "turn", turn, "player", carc_game_current_player(g),
                  "tile", tile_json(carc_game_drawn_tile(g)), "figures", figures_json(g));
    if (!legal)
        return NULL;
    tile_legal(legal, g);
    json_object_set_new(legal, "second_part", json_boolean(carc_game_second_part(g)));
    return legal;
}

json_t *view_legal(const srv_table *t)
{
    const carc_game *g = t->game;
    json_t *legal = view_game_legal(g, t->row.nmoves);
    if (legal && has_hand(t))
        json_object_set_new(legal, "hand", view_hand_legal(g));
    return legal;
}

/* --- The record ------------------------------------------------------------------------ */

/* The record's header lines of `t` into `buf`; -1 when one does not fit
 * or is not a valid header (then the record is not written). */
static int record_headers(const srv_table *t, char *buf, size_t cap)
{
    char key[16], value[160];
    buf[0] = '\0';
    int bad = carc_header_append(buf, cap, "server-table", t->row.id) != CARC_OK;
    for (int s = 0; s < t->row.players; s++) {
        const stored_seat *st = &t->row.seats[s];
        snprintf(key, sizeof key, "seat-%d", s + 1);
        int computer = st->kind == SEAT_COMPUTER && !seat_resigned(st);
        bad |= carc_header_append(buf, cap, key, computer ? st->spec : "human") != CARC_OK;
    }
    for (int s = 0; s < t->row.players; s++) {
        snprintf(value, sizeof value, "%d %s", s + 1, t->row.seats[s].spec);
        if (seat_resigned(&t->row.seats[s]))
            bad |= carc_header_append(buf, cap, "resigned", value) != CARC_OK;
    }
    const msg_clock *k = &t->row.clock;
    const char *timeout = k->on_timeout == TIMEOUT_FORFEIT ? "forfeit" : "computer";
    if (k->mode == CLOCK_MOVE)
        snprintf(value, sizeof value, "move %d %s", k->seconds, timeout);
    else if (k->mode == CLOCK_FISCHER)
        snprintf(value, sizeof value, "fischer %d %d %s", k->seconds, k->increment, timeout);
    else if (k->mode == CLOCK_DAYS)
        snprintf(value, sizeof value, "days %d %s", k->seconds / 86400, timeout);
    if (k->mode != CLOCK_NONE)
        bad |= carc_header_append(buf, cap, "clock", value) != CARC_OK;
    if (t->row.status == TABLE_FINISHED) {
        char salt[TOKEN_HEX];
        token_hex(t->row.salt, sizeof t->row.salt, salt);
        snprintf(value, sizeof value, "%" PRIu64, t->row.seed);
        bad |= carc_header_append(buf, cap, "seed", value) != CARC_OK;
        bad |= carc_header_append(buf, cap, "salt", salt) != CARC_OK;
        snprintf(value, sizeof value, "%d %s", t->row.forfeit + 1, forfeit_reason(t));
        if (t->row.forfeit >= 0)
            bad |= carc_header_append(buf, cap, "forfeit", value) != CARC_OK;
    }
    bad |= carc_header_append(buf, cap, "commitment", t->commitment) != CARC_OK;
    return bad ? -1 : 0;
}

char *view_record(const srv_table *t)
{
    char headers[2048];
    if (record_headers(t, headers, sizeof headers) != 0)
        return NULL;
    size_t cap = 8192;
    for (;;) {
        char *buf = malloc(cap);
        if (!buf)
            return NULL;
        size_t len = carc_record_write(t->game, headers, buf, cap);
        if (len < cap)
            return hand_record_filter(t, buf);
        free(buf);
        cap = len + 1;
    }
}
