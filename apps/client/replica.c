/* replica.c: the client's copy of a server game (see replica.h). */
#include "replica.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replica_hand.h"
#include "wire.h"

void replica_init(replica *r)
{
    memset(r, 0, sizeof *r);
    r->forfeit = -1;
    r->seat = -1;
    r->start_kind = -1;
    r->returned = -1;
    r->next_player = -1;
}

void replica_clear(replica *r)
{
    carc_game_free(r->g);
    free(r->steps);
    for (int i = 0; i < r->nsnaps; i++)
        carc_game_free(r->snaps[i]);
    free(r->snaps);
    replica_init(r);
}

int replica_move_tile(const char *move)
{
    if (!move)
        return -1;
    if (strncmp(move, "discard ", 8) == 0)
        move += 8;
    return carc_tile_parse_n(move, strcspn(move, " "));
}

/* Writes a message into `err` and returns -1. */
int replica_fail(char *err, size_t errcap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
    return -1;
}

static int parse_rules(const json_t *list, carc_rules *out, char *err, size_t errcap)
{
    char why[160];
    *out = carc_rules_standard();
    if (wire_read_rules(list, out, why, sizeof why) != 0)
        return replica_fail(err, errcap, "state: %s", why);
    return 0;
}

/* The table's expansions: an array of names ("river"), none when missing
 * (a server without expansions). */
static int parse_expansions(const json_t *list, carc_rules *out, char *err, size_t errcap)
{
    out->expansions = 0;
    if (!list || json_is_null(list))
        return 0;
    if (!json_is_array(list))
        return replica_fail(err, errcap, "state: 'expansions' is not a list");
    size_t i;
    const json_t *name;
    json_array_foreach(list, i, name)
    {
        uint32_t flag = json_is_string(name) ? carc_expansion_flag(json_string_value(name)) : 0;
        if (!flag || (out->expansions & flag))
            return replica_fail(err, errcap, "%s expansion '%s'", flag ? "twice the" : "unknown",
                                json_is_string(name) ? json_string_value(name) : "?");
        out->expansions |= flag;
    }
    char why[160];
    if (carc_rules_check(out, why, sizeof why) != CARC_OK)
        return replica_fail(err, errcap, "state: %s", why);
    return 0;
}

/* Draws tile `tile` (its id, a JSON string) (a JSON string) for the player to move. */
static int draw_tile(replica *r, const json_t *tile, char *err, size_t errcap)
{
    if (!tile || json_is_null(tile) || carc_game_over(r->g))
        return 0;
    const char *s = json_string_value(tile);
    int kind = s ? carc_tile_parse(s) : -1;
    if (kind < 0)
        return replica_fail(err, errcap, "bad tile '%s' at turn %d", s ? s : "?", r->turn);
    if (carc_game_drawn_tile(r->g) != kind && carc_game_choose_tile(r->g, kind) != CARC_OK)
        return replica_fail(err, errcap, "no tile %s is left at turn %d", s, r->turn);
    return 0;
}

int replica_play_move(replica *r, const char *move, char *err, size_t errcap)
{
    if (move && strcmp(move, "end") == 0) {
        /* A seat forfeited: the game ends early with its final scoring. */
        if (carc_game_finish(r->g, NULL, 0, NULL) != CARC_OK)
            return replica_fail(err, errcap, "'end' refused at turn %d", r->turn);
        r->turn++;
        return 0;
    }
    int kind = replica_move_tile(move);
    if (kind < 0)
        return replica_fail(err, errcap, "bad move '%s' at turn %d", move ? move : "?", r->turn);
    if (carc_game_over(r->g))
        return replica_fail(err, errcap, "move '%s' after the end, at turn %d", move, r->turn);
    /* A hand game plays a tile of the mover's hand; else the server's
     * draw decides the replica's. */
    carc_status held = carc_game_drawn_tile(r->g) == kind ? CARC_OK
                       : r->rules.hand                    ? carc_game_hold_tile(r->g, kind)
                                                          : carc_game_choose_tile(r->g, kind);
    if (held != CARC_OK)
        return replica_fail(err, errcap, "move '%s': no such tile is %s (turn %d)", move,
                            r->rules.hand ? "in the hand" : "left", r->turn);
    carc_move m;
    char why[160];
    if (carc_move_parse_message(r->g, move, &m, why, sizeof why) != CARC_OK) {
        snprintf(err, errcap, "move '%s' at turn %d: %s", move, r->turn, why);
        return -1;
    }
    if (carc_game_play(r->g, m, NULL, 0, NULL) != CARC_OK)
        return replica_fail(err, errcap, "move '%s' refused at turn %d", move, r->turn);
    r->turn++;
    return 0;
}

/* Checks `scores` (a list, or seat objects with "score") against ours. */
static int check_scores(const replica *r, const json_t *scores, const char *what, char *err,
                        size_t errcap)
{
    if (!json_is_array(scores))
        return 0;
    if ((int)json_array_size(scores) != r->players)
        return replica_fail(err, errcap, "%s: %d scores for the players", what,
                            (int)json_array_size(scores));
    for (int p = 0; p < r->players; p++) {
        const json_t *v = json_array_get(scores, (size_t)p);
        if (json_is_object(v))
            v = json_object_get(v, "score");
        if (!json_is_integer(v))
            continue;
        int theirs = (int)json_integer_value(v), ours = carc_game_score(r->g, p);
        if (theirs != ours) {
            snprintf(err, errcap,
                     "%s: the server says player %d has %d points, the replica %d (turn %d)", what,
                     p, theirs, ours, r->turn);
            return -1;
        }
    }
    return 0;
}

/* Checks the server's `digest` (when it sent one) against the library's
 * digest of the replica: the replica's pile is a guess, but the digest
 * covers only the public state, the drawn tile included. */
static int check_digest(const replica *r, const json_t *digest, const char *what, char *err,
                        size_t errcap)
{
    const char *theirs = json_string_value(digest);
    if (!theirs || !r->g)
        return 0;
    char ours[17];
    snprintf(ours, sizeof ours, "%016" PRIx64, carc_game_digest(r->g));
    if (strcmp(theirs, ours) == 0)
        return 0;
    return replica_fail(err, errcap, "%s: the server's digest is %s, the replica's %s (turn %d)",
                        what, theirs, ours, r->turn);
}

/* A hand game's `state`: the history of its draws and moves, then the
 * game rebuilt from it (see replica_hand.h). */
static int load_hand_history(replica *r, const json_t *state, char *err, size_t errcap)
{
    const json_t *start = json_object_get(state, "start");
    const char *start_tile = json_string_value(json_object_get(start, "tile"));
    if ((r->rules.flags & CARC_RULE_START_IN_PILE) && start_tile)
        r->start_kind = carc_tile_parse(start_tile);
    if (replica_hand_add_draws(r, json_object_get(state, "setup_draws"), err, errcap) != 0)
        return -1;
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(state, "moves"), i, m)
    {
        const json_t *turn = json_object_get(m, "turn");
        if (json_is_integer(turn) && json_integer_value(turn) != (json_int_t)i)
            return replica_fail(err, errcap, "state: the moves skip turn %zu", i);
        const json_t *player = json_object_get(m, "player");
        if (replica_hand_add_move(r, json_is_integer(player) ? (int)json_integer_value(player) : -1,
                                  json_string_value(json_object_get(m, "move")), err,
                                  errcap) != 0 ||
            replica_hand_add_draws(r, json_object_get(m, "draws"), err, errcap) != 0)
            return -1;
    }
    return replica_hand_rebuild(r, state, err, errcap);
}

/* The moves of a `state` and the tile to play, in a game without a hand. */
static int load_moves(replica *r, const json_t *state, char *err, size_t errcap)
{
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(state, "moves"), i, m)
    {
        const json_t *turn = json_object_get(m, "turn");
        if (json_is_integer(turn) && json_integer_value(turn) != r->turn)
            return replica_fail(err, errcap, "state: the moves skip turn %d", r->turn);
        if (replica_play_move(r, json_string_value(json_object_get(m, "move")), err, errcap) != 0)
            return -1;
    }
    return draw_tile(r, json_object_get(state, "tile"), err, errcap);
}

int replica_load_state(replica *r, const json_t *state, char *err, size_t errcap)
{
    replica_clear(r);
    const json_t *seats = json_object_get(state, "seats");
    const json_t *players = json_object_get(state, "players");
    const json_t *you = json_object_get(state, "you");
    r->seat = json_is_integer(you) ? (int)json_integer_value(you) : -1;
    r->players =
        json_is_integer(players) ? (int)json_integer_value(players) : (int)json_array_size(seats);
    if (r->players < CARC_MIN_PLAYERS || r->players > CARC_MAX_PLAYERS)
        return replica_fail(err, errcap, "state: %d players", r->players);
    if (parse_rules(json_object_get(state, "rules"), &r->rules, err, errcap) != 0 ||
        parse_expansions(json_object_get(state, "expansions"), &r->rules, err, errcap) != 0)
        return -1;
    const char *status = json_string_value(json_object_get(state, "status"));
    if (!status || strcmp(status, "waiting") == 0)
        return 0;
    r->finished = strcmp(status, "finished") == 0;
    if (r->rules.hand) {
        if (load_hand_history(r, state, err, errcap) != 0)
            return -1;
    } else {
        r->g = carc_game_new(r->players, &r->rules, 1);
        if (!r->g)
            return replica_fail(err, errcap, "state: cannot make the game (out of memory?)");
        if (load_moves(r, state, err, errcap) != 0)
            return -1;
    }
    /* A hand game's rebuild has checked the digest. */
    if (!r->rules.hand &&
        check_digest(r, json_object_get(state, "digest"), "state", err, errcap) != 0)
        return -1;
    if (r->rules.hand && !r->finished && replica_hand_check(r, state, err, errcap) != 0)
        return -1;
    const json_t *final = json_object_get(state, "final");
    if (final && replica_apply_end(r, final, err, errcap) != 0)
        return -1;
    return check_scores(r, seats, "state", err, errcap);
}

int replica_apply_move(replica *r, const json_t *move, char *err, size_t errcap)
{
    if (!r->g)
        return replica_fail(err, errcap, "a move before the game started");
    const json_t *turn = json_object_get(move, "turn");
    if (!json_is_integer(turn))
        return replica_fail(err, errcap, "move event: no turn");
    long long t = json_integer_value(turn);
    if (t < r->turn)
        return 0;
    if (t > r->turn) {
        replica_fail(err, errcap, "move event: missed turn %d", r->turn);
        return REPLICA_GAP;
    }
    const char *text = json_string_value(json_object_get(move, "move"));
    if (r->rules.hand) {
        const json_t *player = json_object_get(move, "player");
        if (replica_hand_add_move(r, json_is_integer(player) ? (int)json_integer_value(player) : -1,
                                  text, err, errcap) != 0 ||
            replica_hand_add_draws(r, json_object_get(move, "draws"), err, errcap) != 0 ||
            replica_hand_rebuild(r, move, err, errcap) != 0)
            return -1;
        const char *back = json_string_value(json_object_get(move, "returned"));
        r->returned = back ? carc_tile_parse(back) : -1;
    } else {
        if (replica_play_move(r, text, err, errcap) != 0)
            return -1;
        const json_t *next = json_object_get(move, "next");
        if (json_is_object(next) && draw_tile(r, json_object_get(next, "tile"), err, errcap) != 0)
            return -1;
    }
    if (r->rules.hand && !carc_game_over(r->g) && replica_hand_check(r, move, err, errcap) != 0)
        return -1;
    if (check_scores(r, json_object_get(move, "scores"), "move event", err, errcap) != 0 ||
        (!r->rules.hand &&
         check_digest(r, json_object_get(move, "digest"), "move event", err, errcap) != 0))
        return -1;
    return 1;
}

int replica_apply_end(replica *r, const json_t *end, char *err, size_t errcap)
{
    r->finished = 1;
    const json_t *forfeit = json_object_get(end, "forfeit");
    r->forfeit = json_is_integer(forfeit) ? (int)json_integer_value(forfeit) : -1;
    const json_t *scores = json_object_get(end, "scores");
    if (json_is_array(scores)) {
        r->has_final = 1;
        for (int p = 0; p < r->players && p < CARC_MAX_PLAYERS; p++)
            r->final_scores[p] = (int)json_integer_value(json_array_get(scores, (size_t)p));
    }
    if (!r->g)
        return 0;
    if (!carc_game_over(r->g))
        carc_game_finish(r->g, NULL, 0, NULL);
    return check_scores(r, scores, "end event", err, errcap);
}
