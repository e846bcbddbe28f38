/* replay_view.c: a record replayed move by move: each move with its
 * scoring events, the scores and the followers on the board after it, so
 * that a viewer steps through a game without knowing the rules. */
#include "replay_view.h"

#include <stdio.h>

#include "board_view.h"
#include "carcassonne.h"
#include "deal_check.h"
#include "table.h"
#include "wire.h"

static json_t *scores_json(const carc_game *g)
{
    json_t *list = json_array();
    for (int p = 0; p < carc_game_players(g); p++)
        json_array_append_new(list, json_integer(carc_game_score(g, p)));
    return list;
}

static json_t *step_json(const carc_game *h, int turn, int player, const char *move,
                         const carc_event *events, int n)
{
    int players = carc_game_players(h);
    return json_pack("{s:i, s:i, s:s, s:o, s:o, s:o}", "turn", turn, "player", player, "move", move,
                     "events",
                     board_view_events(events, n < CARC_MAX_EVENTS ? n : CARC_MAX_EVENTS, players),
                     "scores", scores_json(h), "followers", board_view_followers(h));
}

/* With hand=N: names on `h` the draws of `g`'s draw log from `*next` on
 * that were made after at most `moves` moves. 0, or -1 when one does not
 * replay. */
static int name_draws(const carc_game *g, carc_game *h, int *next, int moves)
{
    for (; *next < carc_game_draw_count(g); (*next)++) {
        int player, kind, at;
        if (carc_game_draw_at(g, *next, &player, &kind, &at) != CARC_OK)
            return -1;
        if (at > moves)
            return 0;
        if (carc_game_draw(h, player, kind) != CARC_OK)
            return -1;
    }
    return 0;
}

int replay_take_tile(const carc_game *g, carc_game *h, int *next_draw, int i, int kind)
{
    if (carc_game_rules(h).hand == 0)
        return carc_game_choose_tile(h, kind) == CARC_OK ? 0 : -1;
    if (name_draws(g, h, next_draw, i) != 0)
        return -1;
    return carc_game_hold_tile(h, kind) == CARC_OK ? 0 : -1;
}

/* Plays the moves of `g` (a record read) again on `h`, from the start. */
static int replay_moves(const carc_game *g, carc_game *h, json_t *moves, char *err, size_t errcap)
{
    int next_draw = 0;
    for (int i = 0; i < carc_game_move_count(g); i++) {
        carc_move m;
        int kind, n = 0, player;
        char text[32];
        carc_event events[CARC_MAX_EVENTS];
        if (carc_game_move_at(g, i, &m, &kind) != CARC_OK ||
            replay_take_tile(g, h, &next_draw, i, kind) != 0) {
            snprintf(err, errcap, "move %d does not replay", i + 1);
            return -1;
        }
        if (carc_game_rules(h).hand > 0 && m.place.tile == 0)
            m.place.tile = (uint8_t)(1 + kind);
        player = carc_game_current_player(h);
        carc_move_write(h, m, text, sizeof text);
        if (carc_game_play(h, m, events, CARC_MAX_EVENTS, &n) != CARC_OK) {
            snprintf(err, errcap, "move %d '%s': %s", i + 1, text, carc_game_error(h));
            return -1;
        }
        json_array_append_new(moves, step_json(h, i, player, text, events, n));
    }
    if (carc_game_ended_early(g) && !carc_game_over(h)) {
        carc_event events[CARC_MAX_EVENTS];
        int n = 0, turn = carc_game_move_count(h);
        if (carc_game_finish(h, events, CARC_MAX_EVENTS, &n) != CARC_OK) {
            snprintf(err, errcap, "the early end does not replay");
            return -1;
        }
        json_array_append_new(moves, step_json(h, turn, -1, "end", events, n));
    }
    return 0;
}

/* The fair-deal check of the record: {"status", "text"}. */
static json_t *deal_json(const char *text, size_t len, const carc_game *g)
{
    deal_result deal = {.status = DEAL_UNCHECKED};
    deal_check(text, len, g, &deal);
    return json_pack("{s:s, s:s}", "status", deal_status_name(deal.status), "text", deal.text);
}

json_t *replay_view(const char *text, size_t len, char *err, size_t errcap)
{
    carc_record_error e;
    carc_game *g = carc_record_read(text, len, 0, &e);
    if (!g) {
        snprintf(err, errcap, "line %d: %s", e.line, e.message);
        return NULL;
    }
    carc_rules rules = carc_game_rules(g);
    carc_game *h = carc_game_new(carc_game_players(g), &rules, 0);
    json_t *moves = json_array(), *result = NULL;
    if (!h)
        snprintf(err, errcap, "out of memory");
    else if (replay_moves(g, h, moves, err, errcap) == 0)
        result =
            json_pack("{s:i, s:o, s:o, s:o, s:O, s:o, s:b, s:o}", "players", carc_game_players(h),
                      "rules", wire_rules(rules), "expansions", wire_expansions(rules), "start",
                      board_view_start(h), "moves", moves, "scores", scores_json(h), "over",
                      carc_game_over(h), "deal", deal_json(text, len, g));
    json_decref(moves);
    carc_game_free(h);
    carc_game_free(g);
    return result;
}

json_t *position_view(const char *text, size_t len, int kind, char *err, size_t errcap)
{
    carc_record_error e;
    carc_game *g = carc_record_read(text, len, 0, &e);
    if (!g) {
        snprintf(err, errcap, "line %d: %s", e.line, e.message);
        return NULL;
    }
    json_t *result = NULL;
    int hand = carc_game_rules(g).hand > 0;
    if (carc_game_over(g))
        snprintf(err, errcap, "the game of this record is over: no tile is drawn");
    else if (hand && carc_game_hold_tile(g, kind) != CARC_OK)
        snprintf(err, errcap, "tile %s is not in the hand of the player to move",
                 carc_tile_id(kind));
    else if (!hand && carc_game_choose_tile(g, kind) != CARC_OK)
        snprintf(err, errcap, "tile %s cannot be drawn after this record's last move",
                 carc_tile_id(kind));
    else if (!(result = view_game_legal(g, carc_game_move_count(g))))
        snprintf(err, errcap, "out of memory");
    else {
        json_object_set_new(result, "scores", scores_json(g));
        if (hand)
            json_object_set_new(result, "hand", view_hand_legal(g));
    }
    carc_game_free(g);
    return result;
}
