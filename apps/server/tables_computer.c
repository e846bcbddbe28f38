/* tables_computer.c: what the tables ask of the workers: the computer's
 * moves for its seats and the engine's analysis (hints, estimates), from
 * what the player to move may know. */
#include "tables_impl.h"

#include <stdlib.h>

#include "hand_view.h"
#include "hint_view.h"

/* What the player to move may know of `t`'s game: with hidden hands its
 * seat's view (carc_game_seat_view: the others' hands and the pile dealt
 * again from the tiles it has not seen), so that a computer player, a hint
 * or an estimate cannot peek; else the game itself. A view is made in
 * T->view; NULL when out of memory. */
static const carc_game *mover_view(srv_tables *T, const srv_table *t)
{
    if (!hand_hidden(t))
        return t->game;
    if (!T->view || carc_game_copy(T->view, t->game) != CARC_OK) {
        carc_game_free(T->view);
        T->view = carc_game_clone(t->game);
        if (!T->view)
            return NULL;
    }
    uint64_t seed = 1;
    token_random(&seed, sizeof seed);
    carc_game_seat_view(T->view, t->game, carc_game_current_player(t->game), seed);
    return T->view;
}

/* Asks the workers for a move of `spec` for the player to move; 0 when
 * queued. */
int tb_think(srv_tables *T, srv_table *t, const char *spec)
{
    const carc_game *g = mover_view(T, t);
    return g ? T->hooks.think(T->hooks.ctx, t->row.id, t->row.addr, t->row.nmoves, g, spec) : -1;
}

void tb_maybe_think(srv_tables *T, srv_table *t)
{
    if (t->row.status != TABLE_PLAYING || carc_game_over(t->game))
        return;
    int turn = t->row.nmoves, seat = carc_game_current_player(t->game);
    if (t->row.seats[seat].kind != SEAT_COMPUTER || t->thinking == turn)
        return;
    if (tb_think(T, t, t->row.seats[seat].spec) == 0)
        t->thinking = turn;
}

/* --- The engine's analysis: hints and estimates --------------------------------------- */

static int wants_estimates(const srv_table *t)
{
    for (int i = 0; i < t->nmembers; i++)
        if (t->members[i].estimates)
            return 1;
    return 0;
}

/* Asks for the analysis of the current turn when someone wants it (a hint
 * of this turn, or estimates) and it is neither known nor asked. At most
 * one job per table: while an older turn's job runs, its stale answer
 * asks again (tables_analysis_done). */
void tb_maybe_analyse(srv_tables *T, srv_table *t)
{
    int turn = t->row.nmoves;
    if (t->row.status != TABLE_PLAYING || !t->row.estimates || !T->hooks.analyse ||
        t->analysing >= 0 || t->analysed == turn)
        return;
    if (t->hint_wanted != turn && !wants_estimates(t))
        return;
    /* With hidden hands a computer's turn is not analysed: its estimate,
     * from that seat's view, would tell of its hidden hand. */
    if (hand_hidden(t) && t->row.seats[carc_game_current_player(t->game)].kind == SEAT_COMPUTER)
        return;
    const carc_game *g = mover_view(T, t);
    if (g && T->hooks.analyse(T->hooks.ctx, t->row.id, t->row.addr, turn, g) == 0)
        t->analysing = turn;
}

/* Sends the estimate of the turn being played to the members who asked
 * for estimates. */
void tb_send_estimates(srv_tables *T, const srv_table *t)
{
    json_t *event = estimate_event(t);
    for (int i = 0; i < t->nmembers; i++)
        if (t->members[i].estimates)
            tb_send_to(T, t->members[i].client, json_incref(event));
    json_decref(event);
}
