/* tables_turns.c: the game's turns: a move checked, stored and told; the computer's moves, hints,
 * estimates and reviews. */
#include "tables_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hand_view.h"
#include "hint_view.h"
#include "tile_info.h"

/* --- Moves --------------------------------------------------------------------------- */

/* Makes the scratch game a copy of `g`: copied in place when it has the
 * tile set of `g`, else made again. 0, or -1 when out of memory. */
static int scratch_copy(srv_tables *T, const carc_game *g)
{
    if (carc_game_copy(T->scratch, g) == CARC_OK)
        return 0;
    carc_game *copy = carc_game_clone(g);
    if (!copy)
        return -1;
    carc_game_free(T->scratch);
    T->scratch = copy;
    return 0;
}

/* Sends the move event of move `turn` to every member: one event for all,
 * or with hands one per member, showing only what its seat may see.
 * `went_back`: a discard whose tile went back into the pile. */
static void broadcast_move(srv_tables *T, const srv_table *t, int turn, int player,
                           const stored_move *sm, int went_back, const carc_event *events,
                           int nevents)
{
    if (carc_game_rules(t->game).hand == 0) {
        tb_broadcast(
            T, t,
            view_move(t, turn, player, sm->text, went_back, sm->by, events, nevents, sm->at_ms, -1),
            NULL);
        return;
    }
    for (int i = 0; i < t->nmembers; i++)
        tb_send_to(T, t->members[i].client,
                   view_move(t, turn, player, sm->text, went_back, sm->by, events, nevents,
                             sm->at_ms, t->members[i].seat));
}

/* Stores the move `sm` played on the scratch game, which becomes the
 * table's game, with the turn's paused time (sm->paused_ms is set), then
 * queues the reply to `mover` (when not NULL) and the events. `forfeit`
 * is the seat that lost by forfeit, or -1. */
static msg_error commit_move(srv_tables *T, srv_table *t, stored_move *sm, const carc_event *events,
                             int nevents, int forfeit, srv_client *mover, const msg_request *r)
{
    int turn = t->row.nmoves, player = carc_game_current_player(t->game);
    int over = carc_game_over(T->scratch),
        went_back = tile_info_went_back(T->scratch, tile_info_pile_mark(t->game));
    sm->paused_ms = t->row.paused_ms;
    table_status status = over ? TABLE_FINISHED : TABLE_PLAYING;
    if (storage_append_move(T->store, t->row.id, turn, sm, status, forfeit) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        return mover ? tb_refuse(T, mover, r, ERR_INTERNAL, "the move could not be stored")
                     : ERR_INTERNAL;
    }
    carc_game *played = T->scratch;
    T->scratch = t->game;
    t->game = played;
    t->row.moves[turn] = *sm;
    t->row.nmoves++;
    t->row.paused_ms = 0;
    t->takeback_seat = -1; /* an asked takeback lapses */
    if (sm->by == BY_COMPUTER && t->row.seats[player].kind != SEAT_COMPUTER)
        t->timed_out[player]++;
    else if (sm->by == BY_PLAYER)
        t->timed_out[player] = 0;
    t->row.forfeit = forfeit;
    t->thinking = -1;
    if (t->analysing >= 0 && T->hooks.cancel_analysis)
        T->hooks.cancel_analysis(T->hooks.ctx, t->row.id, t->row.nmoves);
    tb_stop_clock(t, player, sm->at_ms);
    if (mover)
        tb_reply(T, mover, r, json_pack("{s:i}", "turn", turn));
    broadcast_move(T, t, turn, player, sm, went_back, events, nevents);
    if (over) {
        if (t->row.rated) /* in this pass: the game's end and its ratings are one */
            tb_rate_game(T, t);
        tb_finish_table(T, t);
        tb_broadcast(T, t, view_end(t), NULL);
    } else {
        tb_maybe_think(T, t);
        tb_maybe_analyse(T, t);
        tb_notify_turn(T, t);
    }
    return ERR_NONE;
}

void tb_notify_turn(srv_tables *T, const srv_table *t)
{
    if (!T->hooks.turn || t->row.status != TABLE_PLAYING || carc_game_over(t->game))
        return;
    int seat = carc_game_current_player(t->game);
    const stored_seat *s = &t->row.seats[seat];
    if (s->kind == SEAT_COMPUTER || s->account <= 0 || seat_resigned(s))
        return;
    int64_t now = tb_now_ms(T);
    int64_t deadline = t->row.clock.mode == CLOCK_NONE ? -1 : now + view_clock_left(t, seat, now);
    T->hooks.turn(T->hooks.ctx, t->row.id, t->row.nmoves, seat, s->account, deadline);
}

/* Plays `text` for the seat to move, made `by` a player or the computer:
 * a placement or a discard of the drawn (or a held) tile, and nothing
 * else. The words of the notation that only the server writes (`end`,
 * `draw`, `start`, headers) are refused as illegal, with no change. On
 * success stores the move and queues the reply to `mover` (when not
 * NULL) and the events. */
static msg_error apply_move(srv_tables *T, srv_table *t, const char *text, move_by by,
                            srv_client *mover, const msg_request *r)
{
    carc_event events[CARC_MAX_EVENTS];
    int nevents = 0;
    stored_move sm = {.by = by, .at_ms = tb_now_ms(T)};
    char why[160] = "";
    carc_move m;
    carc_status st = carc_move_parse_message(t->game, text, &m, why, sizeof why);
    if (st == CARC_EOVER)
        return mover ? tb_refuse(T, mover, r, ERR_GAME_OVER, "the game has ended") : ERR_GAME_OVER;
    if (st == CARC_OK && t->row.nmoves >= STORED_MAX_MOVES) {
        st = CARC_EILLEGAL;
        snprintf(why, sizeof why, "the table holds no more moves");
    }
    if (st == CARC_OK && scratch_copy(T, t->game) != 0)
        return mover ? tb_refuse(T, mover, r, ERR_INTERNAL, "out of memory") : ERR_INTERNAL;
    if (st == CARC_OK) {
        carc_move_write(t->game, m, sm.text, sizeof sm.text);
        st = carc_game_play(T->scratch, m, events, CARC_MAX_EVENTS, &nevents);
        if (st != CARC_OK)
            snprintf(why, sizeof why, "%s", carc_game_error(T->scratch));
    }
    if (st != CARC_OK) {
        if (!why[0])
            snprintf(why, sizeof why, "not a placement or a discard");
        return mover ? tb_refuse(T, mover, r, ERR_ILLEGAL, why) : ERR_ILLEGAL;
    }
    return commit_move(T, t, &sm, events, nevents, -1, mover, r);
}

/* Ends the game now: the server's `end` line and the final scoring, the
 * seat `forfeit` losing by forfeit: made `by` the server (its clock ran
 * out) or the player (it resigned; `mover` gets the reply to `r`). Only
 * the server calls this; no client's text reaches it. */
msg_error tb_forfeit_table(srv_tables *T, srv_table *t, int forfeit, move_by by, srv_client *mover,
                           const msg_request *r)
{
    carc_event events[CARC_MAX_EVENTS];
    int nevents = 0;
    stored_move sm = {.by = by, .at_ms = tb_now_ms(T)};
    snprintf(sm.text, sizeof sm.text, "end");
    if (t->row.nmoves >= STORED_MAX_MOVES || scratch_copy(T, t->game) != 0)
        return ERR_INTERNAL;
    if (carc_game_finish(T->scratch, events, CARC_MAX_EVENTS, &nevents) != CARC_OK)
        return ERR_GAME_OVER;
    return commit_move(T, t, &sm, events, nevents, forfeit, mover, r);
}

void tb_do_move(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    int seat = tb_seat_of(t, c); /* a seat: the dispatcher checked */
    if (t->row.status == TABLE_WAITING)
        tb_refuse(T, c, r, ERR_NOT_STARTED, "the game has not started: seats are still empty");
    else if (t->row.status == TABLE_FINISHED)
        tb_refuse(T, c, r, ERR_GAME_OVER, "the game has ended");
    else if (r->turn != t->row.nmoves)
        tb_refuse(T, c, r, ERR_STALE, "that is not the current turn: ask 'sync'");
    else if (carc_game_current_player(t->game) != seat)
        tb_refuse(T, c, r, ERR_NOT_YOUR_TURN, "another seat is to move");
    else if (seat_resigned(&t->row.seats[seat]))
        tb_refuse(T, c, r, ERR_ILLEGAL, "you resigned: the computer plays this seat");
    else
        apply_move(T, t, r->move, BY_PLAYER, c, r);
}

void tb_do_legal(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    if (t->row.status == TABLE_WAITING) /* a member: the dispatcher checked */
        tb_refuse(T, c, r, ERR_NOT_STARTED, "the game has not started");
    else if (t->row.status == TABLE_FINISHED)
        tb_refuse(T, c, r, ERR_GAME_OVER, "the game has ended");
    else if (!hand_visible(t, tb_seat_of(t, c), carc_game_current_player(t->game)))
        tb_refuse(T, c, r, ERR_NOT_YOUR_TURN,
                  "the hand to play is hidden: only its player may ask");
    else
        tb_reply(T, c, r, view_legal(t));
}

void tb_do_review(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    if (t->row.status != TABLE_FINISHED) {
        tb_refuse(T, c, r, ERR_BAD_FIELD, "a review needs a finished game");
        return;
    }
    if (tb_member_add(t, c) != 0) {
        tb_refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
        return;
    }
    if (t->review) {
        tb_reply(T, c, r, json_pack("{s:i}", "position", 0));
        json_t *moves = json_loads(t->review, 0, NULL);
        tb_send_to(T, c,
                   json_pack("{s:s, s:s, s:o}", "type", "review", "table", t->row.id, "moves",
                             moves ? moves : json_array()));
        return;
    }
    /* One review per table: a second request joins the first (as a
     * member, it gets the `review` event too). */
    int ahead = T->hooks.review ? T->hooks.review(T->hooks.ctx, t->row.id, t->game, r->ms) : -1;
    if (ahead < 0) {
        tb_refuse(T, c, r, ERR_TOO_MANY, "the review queue is full: try again later");
        return;
    }
    if (!t->reviewing)
        T->stats.reviews_asked++;
    t->reviewing = 1;
    tb_reply(T, c, r, json_pack("{s:i}", "position", ahead));
}

/* A hint: the three best moves of the analysis of this turn, in a `hint`
 * event; from the analysis at hand, or from the job asked now (or already
 * running: one job answers every request of the turn). */
void tb_do_hint(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    int seat = tb_seat_of(t, c), turn = t->row.nmoves;
    const char *why;
    msg_error e = hint_refusal(t, seat, &why);
    if (e == ERR_NONE && carc_game_current_player(t->game) != seat)
        e = tb_refuse(T, c, r, ERR_NOT_YOUR_TURN, "hints are for your turn");
    else if (e != ERR_NONE)
        tb_refuse(T, c, r, e, why);
    if (e != ERR_NONE)
        return;
    if (t->analysed != turn) {
        t->hint_wanted = turn;
        tb_maybe_analyse(T, t);
        if (t->analysing < 0) {
            t->hint_wanted = -1;
            tb_refuse(T, c, r, ERR_TOO_MANY, "the analysis queue is full: try again later");
            return;
        }
    }
    tb_reply(T, c, r, json_pack("{s:i}", "turn", turn));
    if (t->analysed == turn)
        tb_send_to(T, c, hint_event(t));
}

/* Starts or stops this connection's `estimate` events. */
void tb_do_estimate(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    const char *why;
    msg_error e = hint_refusal(t, tb_seat_of(t, c), &why);
    if (e != ERR_NONE) {
        tb_refuse(T, c, r, e, why);
        return;
    }
    t->members[tb_member_index(t, c)].estimates = r->on;
    tb_reply(T, c, r, json_pack("{s:b}", "on", r->on));
    if (r->on && t->analysed == t->row.nmoves)
        tb_send_to(T, c, estimate_event(t));
    tb_maybe_analyse(T, t);
}

/* --- Answers from the workers -------------------------------------------------------- */

void tables_computer_move(srv_tables *T, const char *table, int turn, const char *move)
{
    srv_table *t = tb_find_loaded(T, table);
    if (!t || t->thinking != turn || t->row.nmoves != turn || t->row.status != TABLE_PLAYING)
        return;
    if (apply_move(T, t, move, BY_COMPUTER, NULL, NULL) != ERR_NONE) {
        t->thinking = -1;
        fprintf(stderr, "carcassonne serve: table %s: the computer's move '%s' was refused\n",
                table, move);
    }
}

void tables_review_done(srv_tables *T, const char *table, char *json_moves)
{
    srv_table *t = tb_find_loaded(T, table);
    if (!t) {
        free(json_moves);
        return;
    }
    free(t->review);
    t->review = json_moves;
    t->reviewing = 0;
    /* Kept: a restart or another server answers from storage. Not kept,
     * it is still sent, and a later request computes it again. */
    if (storage_set_review(T->store, t->row.id, json_moves) != 0)
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
    json_t *moves = json_loads(json_moves, 0, NULL);
    tb_broadcast(T, t,
                 json_pack("{s:s, s:s, s:o}", "type", "review", "table", t->row.id, "moves",
                           moves ? moves : json_array()),
                 NULL);
}

void tables_analysis_done(srv_tables *T, const char *table, int turn, const srv_analysis *a)
{
    srv_table *t = tb_find_loaded(T, table);
    if (!t || t->analysing != turn)
        return;
    t->analysing = -1;
    if (t->row.nmoves != turn || t->row.status != TABLE_PLAYING) {
        tb_maybe_analyse(T, t); /* stale: the current turn's, if wanted */
        return;
    }
    t->analysis = *a;
    t->analysed = turn;
    hint_keep_win(t);
    if (t->hint_wanted == turn)
        tb_send_to_seat(T, t, a->player, hint_event(t));
    tb_send_estimates(T, t);
}

/* --- Takeback and resign ----------------------------------------------------------- */

/* The seat of each move, as the replay tells it (a replay callback). */
static void note_mover(void *ctx, int turn, int player, const carc_event *events, int n,
                       int went_back)
{
    (void)events;
    (void)n;
    (void)went_back;
    if (turn >= 0 && turn < STORED_MAX_MOVES)
        ((int *)ctx)[turn] = player;
}

/* The number of `seat`'s last move of its own at `t` (made by the player,
 * not by the computer for it), or -1 when it has none. */
static int last_own_move(const srv_table *t, int seat)
{
    static int movers[STORED_MAX_MOVES];
    char err[160];
    for (int i = 0; i < t->row.nmoves; i++)
        movers[i] = -1;
    carc_game *g = table_replay(&t->row, note_mover, movers, err, sizeof err);
    carc_game_free(g);
    if (!g)
        return -1;
    for (int i = t->row.nmoves - 1; i >= 0; i--)
        if (movers[i] == seat && t->row.moves[i].by == BY_PLAYER)
            return i;
    return -1;
}

/* The seats of people at `t` other than `seat` that have not resigned:
 * those whose agreement a takeback needs (a bit each). */
static unsigned other_people(const srv_table *t, int seat)
{
    unsigned bits = 0;
    for (int s = 0; s < t->row.players; s++)
        if (s != seat && t->row.seats[s].kind != SEAT_COMPUTER)
            bits |= 1u << s;
    return bits;
}

/* Takes back the moves of `t` from number `from` on, `seat`'s last move
 * and those after it: they leave storage and the game is replayed without
 * them; `c` gets the reply to `r` (refused when it fails), then everyone
 * at the table is told (a `takeback` event, then the state each may see). */
static void take_back(srv_tables *T, srv_table *t, int from, int seat, srv_client *c,
                      const msg_request *r)
{
    char err[160];
    int before = t->row.nmoves;
    if (from < 0 || storage_truncate_moves(T->store, t->row.id, from) != 0) {
        if (from >= 0)
            fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        tb_refuse(T, c, r, from < 0 ? ERR_ILLEGAL : ERR_INTERNAL,
                  "the move could not be taken back");
        return;
    }
    t->row.nmoves = from;
    t->row.paused_ms = 0;
    if (tb_replay_game(T, t, err, sizeof err) != 0) {
        /* Never: the moves before `from` replayed until now. */
        fprintf(stderr, "carcassonne serve: table %s: takeback: %s\n", t->row.id, err);
        tb_refuse(T, c, r, ERR_INTERNAL, "the move could not be taken back");
        return;
    }
    tb_reply(T, c, r, json_pack("{s:s, s:i}", "what", "done", "turn", from));
    t->takeback_seat = -1;
    t->thinking = t->expiring = -1;
    t->analysing = t->analysed = t->hint_wanted = -1;
    if (t->analysing >= 0 && T->hooks.cancel_analysis)
        T->hooks.cancel_analysis(T->hooks.ctx, t->row.id, before + 1);
    memset(t->timed_out, 0, sizeof t->timed_out);
    int64_t now = tb_now_ms(T);
    tb_broadcast(T, t,
                 json_pack("{s:s, s:s, s:s, s:i, s:i, s:i}", "type", "takeback", "table", t->row.id,
                           "what", "done", "seat", seat, "turn", from, "moves", before - from),
                 NULL);
    for (int i = 0; i < t->nmembers; i++)
        tb_send_to(T, t->members[i].client, view_state(t, t->members[i].seat, now));
    tb_maybe_think(T, t);
    tb_maybe_analyse(T, t);
}

/* The seat of `c` at `t` (it has one: the dispatcher checked) when `t`
 * is being played; else -1, `r` refused (`what` says what is only for a
 * game being played). */
static int playing_seat(srv_tables *T, srv_client *c, const msg_request *r, const srv_table *t,
                        const char *what)
{
    int seat = tb_seat_of(t, c);
    if (t->row.status != TABLE_PLAYING) {
        char why[96];
        snprintf(why, sizeof why, "%s is only for a game being played", what);
        tb_refuse(T, c, r, t->row.status == TABLE_WAITING ? ERR_NOT_STARTED : ERR_GAME_OVER, why);
        return -1;
    }
    return seat;
}

void tb_do_takeback(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    int seat = playing_seat(T, c, r, t, "a takeback");
    if (seat < 0)
        return;
    if (t->row.rated) {
        tb_refuse(T, c, r, ERR_ILLEGAL, "a rated game has no takebacks");
        return;
    }
    int asked = t->takeback_seat >= 0 && t->takeback_turn == t->row.nmoves;
    if (!r->on) { /* declining another's ask */
        if (!asked || t->takeback_seat == seat) {
            tb_refuse(T, c, r, ERR_BAD_FIELD, "no takeback of another seat to decline");
            return;
        }
        tb_reply(T, c, r, json_pack("{s:s}", "what", "declined"));
        tb_broadcast(T, t,
                     json_pack("{s:s, s:s, s:s, s:i, s:i}", "type", "takeback", "table", t->row.id,
                               "what", "declined", "seat", t->takeback_seat, "by", seat),
                     NULL);
        t->takeback_seat = -1;
        return;
    }
    if (asked && t->takeback_seat != seat) { /* agreeing to another's ask */
        t->takeback_agreed |= 1u << seat;
        int asker = t->takeback_seat, from = last_own_move(t, asker);
        if ((t->takeback_agreed & other_people(t, asker)) != other_people(t, asker)) {
            tb_reply(T, c, r, json_pack("{s:s}", "what", "agreed"));
            return;
        }
        take_back(T, t, from, asker, c, r);
        return;
    }
    if (seat_resigned(&t->row.seats[seat])) {
        tb_refuse(T, c, r, ERR_ILLEGAL, "you resigned");
        return;
    }
    int from = last_own_move(t, seat);
    if (from < 0) {
        tb_refuse(T, c, r, ERR_ILLEGAL, "you have made no move to take back");
        return;
    }
    if (other_people(t, seat) == 0) { /* against the computer: at once */
        take_back(T, t, from, seat, c, r);
        return;
    }
    t->takeback_seat = seat;
    t->takeback_turn = t->row.nmoves;
    t->takeback_agreed = 0;
    tb_reply(T, c, r, json_pack("{s:s}", "what", "asked"));
    tb_broadcast(T, t,
                 json_pack("{s:s, s:s, s:s, s:i, s:i}", "type", "takeback", "table", t->row.id,
                           "what", "asked", "seat", seat, "turn", from),
                 NULL);
}

void tb_do_resign(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    int seat = playing_seat(T, c, r, t, "resigning");
    if (seat < 0)
        return;
    if (seat_resigned(&t->row.seats[seat])) {
        tb_refuse(T, c, r, ERR_ILLEGAL, "you have resigned already");
        return;
    }
    if (t->row.players == 2) { /* a loss: the game ends (the reply says its turn) */
        if (tb_forfeit_table(T, t, seat, BY_PLAYER, c, r) != ERR_NONE)
            tb_refuse(T, c, r, ERR_INTERNAL, "the game could not be ended");
        return;
    }
    /* Three or more: the computer plays the seat from now on. */
    stored_seat s = t->row.seats[seat];
    s.kind = SEAT_COMPUTER;
    snprintf(s.spec, sizeof s.spec, "%s", TABLE_RESIGNED_SPEC);
    if (storage_update_seat(T->store, t->row.id, seat, &s, t->row.started_ms) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        tb_refuse(T, c, r, ERR_INTERNAL, "the resignation could not be stored");
        return;
    }
    t->row.seats[seat] = s;
    if (t->takeback_seat >= 0)
        t->takeback_seat = -1; /* its agreement is no longer needed or given */
    tb_reply(T, c, r, json_pack("{s:s}", "what", "computer"));
    tb_broadcast(T, t,
                 json_pack("{s:s, s:s, s:i, s:s}", "type", "resign", "table", t->row.id, "seat",
                           seat, "spec", TABLE_RESIGNED_SPEC),
                 NULL);
    tb_broadcast(T, t, view_seat(t, seat), NULL);
    tb_maybe_think(T, t);
}

/* --- Clocks and the tick ------------------------------------------------------------ */

/* Whether seat `seat`, whose clock ran out, has been left: its player is
 * away and the computer has played its last TABLE_ABANDON_TURNS turns. */
static int abandoned(const srv_table *t, int seat)
{
    return t->row.seats[seat].kind != SEAT_COMPUTER && t->present[seat] == 0 &&
           t->timed_out[seat] >= TABLE_ABANDON_TURNS;
}

int tables_tick(srv_tables *T, int64_t now)
{
    int adopted = tb_adopt_orphans(T, now);
    for (srv_table *t = T->newest, *older; t; t = older) {
        older = t->older;
        if (tb_let_go(T, t, now))
            continue;
        tb_maybe_think(T, t); /* again, if the workers' queue was full */
        tb_maybe_analyse(T, t);
        if (t->row.status != TABLE_PLAYING || t->row.clock.mode == CLOCK_NONE)
            continue;
        int seat = carc_game_current_player(t->game);
        if (view_clock_left(t, seat, now) > 0 || t->thinking == t->row.nmoves)
            continue;
        /* The loop reads what is waiting in the sockets between two ticks:
         * a move sent in time but not read yet still counts. */
        if (t->expiring != t->row.nmoves) {
            t->expiring = t->row.nmoves;
            continue;
        }
        if (t->row.clock.on_timeout == TIMEOUT_FORFEIT || abandoned(t, seat)) {
            tb_forfeit_table(T, t, seat, BY_SERVER, NULL, NULL);
        } else if (tb_think(T, t, "mcts:level=easy") == 0) {
            t->thinking = t->row.nmoves;
        }
    }
    return adopted;
}

void tables_stalled(srv_tables *T, int64_t ms)
{
    for (srv_table *t = T->newest; t; t = t->older) {
        if (t->row.status != TABLE_PLAYING || t->row.clock.mode == CLOCK_NONE)
            continue;
        t->turn_ms += ms;
        t->row.paused_ms += ms;
        /* Stored, so that a restart does not charge it either. */
        if (storage_set_paused(T->store, t->row.id, t->row.paused_ms) != 0)
            fprintf(stderr, "carcassonne serve: table %s: the stall was not stored: %s\n",
                    t->row.id, storage_error(T->store));
    }
}
