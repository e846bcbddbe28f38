/* table.h: one table in memory (shared by the tables module, which changes it, and
 * views.c, which shows it), and the views: the JSON of its events. */
#ifndef CARC_SERVER_TABLE_H
#define CARC_SERVER_TABLE_H

#include <jansson.h>

#include "first_seat.h"
#include "tables.h"
#include "token.h"

/* A connection following a table: a seat, or a spectator (seat -1). */
typedef struct table_member {
    srv_client *client;
    int seat;
    int estimates; /* wants the `estimate` events */
} table_member;

/* A chat line is kept as it is stored. */
typedef stored_chat chat_line;

/* Invariants: `game` is the replay of row.moves from row.seed; row.nmoves
 * is the protocol's `turn` (a forfeit's `end` counts as a move, though
 * the game's own move count leaves it out); present[s] counts the members
 * bound to seat s; a table waiting or playing is counted in `live`. */
typedef struct srv_table {
    stored_table row;
    char commitment[DIGEST_HEX];
    carc_game *game;
    int present[CARC_MAX_PLAYERS];
    table_member *members;
    int nmembers, capmembers;
    int thinking;                      /* the turn a computer move is asked for, or -1 */
    int64_t idle_ms;                   /* since when nobody follows it */
    int64_t turn_ms;                   /* when the current turn began (clocks), moved on
                                          by the time the server's loop was stalled */
    int expiring;                      /* the turn whose clock was seen run out at the
                                          last tick, or -1: it expires at the next */
    int64_t left_ms[CARC_MAX_PLAYERS]; /* Fischer clocks at the turn's start */
    int timed_out[CARC_MAX_PLAYERS];   /* turns in a row the computer played for a seat of
                                          a person, its clock run out (in memory only) */
    /* A takeback asked between people (in memory: it lapses with the next
     * move): the seat that asked, or -1; the turn it was asked at; the
     * seats that agree (a bit each). */
    int takeback_seat, takeback_turn;
    unsigned takeback_agreed;
    /* A rematch asked at the end (in memory): the seats that agree (a bit
     * each), when it was first asked (0: none; it lapses after
     * TABLE_REMATCH_MS), and the table it made ("" until then). */
    unsigned rematch_agreed;
    int64_t rematch_ms;
    char rematch_table[STORED_ID_BYTES];
    chat_line *chat;                   /* CHAT_KEPT lines, a ring; NULL until the first */
    char first_text[FIRST_TEXT_BYTES]; /* how the first seat was drawn, or "" (not
                                            stored: told at the table's creation) */
    int nchat;                         /* lines ever said */
    char *review;                      /* the last review event's `moves` JSON, or NULL */
    int reviewing;                     /* a review was asked and has not come back */
    int claimed;                       /* this process runs it (storage_claim()) */
    /* The engine's analysis (hints, estimates): at most one job at a time. */
    int analysing;                /* the turn an analysis is asked for, or -1 */
    int analysed;                 /* the turn of `analysis`, or -1 */
    int hint_wanted;              /* the turn whose mover asked a hint, or -1 */
    srv_analysis analysis;        /* of turn `analysed` */
    double win[CARC_MAX_PLAYERS]; /* each player's chance to win at its latest
                                     analysed turn; -1 unknown */
    /* Each seat's rating in the table's category (tb_seat_ratings()): an
     * account's as stored, a calibrated computer level's fixed one; rating
     * -1 for the others (guests, open seats, other computer players). */
    double rating[CARC_MAX_PLAYERS], rating_rd[CARC_MAX_PLAYERS];
    struct srv_table *hash_next;
    struct srv_table *newer, *older; /* the list of tables, newest first */
} srv_table;

/* Whether seat `s` was a person's who resigned: a computer seat now (the
 * computer plays its turns) that a player's token took. */
static inline int seat_resigned(const stored_seat *s)
{
    if (s->kind != SEAT_COMPUTER)
        return 0;
    for (int i = 0; i < TOKEN_HASH_BYTES; i++)
        if (s->token_hash[i])
            return 1;
    return 0;
}

/* Replays the stored moves from the seed into a new game, calling `each`
 * (may be NULL) after every move with its events and whether its tile
 * went back into the pile (tile_info_went_back). NULL (with `err`) when
 * a stored move does not replay. */
typedef void (*replay_fn)(void *ctx, int turn, int player, const carc_event *events, int n,
                          int went_back);
carc_game *table_replay(const stored_table *row, replay_fn each, void *ctx, char *err,
                        size_t errcap);

/* The views. Each returns a new JSON value (the caller decrefs it). */
json_t *view_state(const srv_table *t, int you, int64_t now_ms);
/* The move event as `viewer` (a seat, or -1: a spectator) may see it: with
 * hidden hands, only its own hand's tiles (hand_view.h). `went_back`: the
 * move was a discard whose tile went back into the pile (reshuffle, while
 * the engine's slack for returns lasts; tables_turns.c tells). */
json_t *view_move(const srv_table *t, int turn, int player, const char *move, int went_back,
                  move_by by, const carc_event *events, int n, int64_t now_ms, int viewer);
json_t *view_end(const srv_table *t);
json_t *view_seat(const srv_table *t, int seat);
json_t *view_lobby_entry(const srv_table *t);
/* The legal moves of the player to move (the caller checks that the
 * asker may see its hand: hand_visible()). */
json_t *view_legal(const srv_table *t);
/* The legal moves of the player to move in `g` with its drawn tile, as
 * `legal.ok`'s fields without `hand` (`turn` as given). */
json_t *view_game_legal(const carc_game *g, int turn);
/* With a hand of tiles: `legal.ok`'s `hand`, the legal placements of each
 * kind of the mover's hand, in hand order. */
json_t *view_hand_legal(const carc_game *g);
json_t *view_chat(const chat_line *line, const char *table);
json_t *view_events(const srv_table *t, const carc_event *events, int n);
/* The record of the table as text (malloc'ed), with the deal's seed and
 * salt only when the game has ended, and without the `draw` lines while
 * hidden hands are in play. */
char *view_record(const srv_table *t);
/* Milliseconds left on seat `seat`'s clock at `now_ms` (0 when none). */
int64_t view_clock_left(const srv_table *t, int seat, int64_t now_ms);

#endif
