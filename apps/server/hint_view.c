/* hint_view.c: hints and win chances against the computer. The worker
 * pool computes them (workers.c, JOB_ANALYSE: the `mcts` player's ranking
 * under the server's hint budget); this file says who may ask and shows
 * the result. */
#include "hint_view.h"

#include <math.h>

static int against_computer(const srv_table *t, int seat)
{
    for (int s = 0; s < t->row.players; s++)
        if (s != seat && t->row.seats[s].kind != SEAT_COMPUTER)
            return 0;
    return 1;
}

msg_error hint_refusal(const srv_table *t, int seat, const char **why)
{
    if (seat < 0 || !against_computer(t, seat)) {
        *why = "hints and estimates are for a seat against the computer";
        return ERR_NOT_SEATED;
    }
    if (!t->row.estimates) {
        *why = "this table has hints and estimates off";
        return ERR_BAD_FIELD;
    }
    if (t->row.status == TABLE_WAITING) {
        *why = "the game has not started";
        return ERR_NOT_STARTED;
    }
    if (t->row.status != TABLE_PLAYING) {
        *why = "the game has ended";
        return ERR_GAME_OVER;
    }
    return ERR_NONE;
}

void hint_keep_win(srv_table *t)
{
    const srv_analysis *a = &t->analysis;
    if (a->nmoves == 0)
        return;
    t->win[a->player] = a->win[0];
    if (t->row.players == 2)
        t->win[1 - a->player] = 1 - a->win[0];
}

static double rounded(double v, double unit)
{
    return round(v / unit) * unit;
}

json_t *hint_event(const srv_table *t)
{
    const srv_analysis *a = &t->analysis;
    json_t *moves = json_array();
    for (int i = 0; i < a->nmoves; i++)
        json_array_append_new(moves, json_pack("{s:s, s:f, s:f}", "move", a->moves[i], "margin",
                                               rounded(a->margin[i], 0.1), "win",
                                               rounded(a->win[i], 0.001)));
    return json_pack("{s:s, s:s, s:i, s:i, s:o}", "type", "hint", "table", t->row.id, "turn",
                     t->analysed, "player", a->player, "moves", moves);
}

json_t *estimate_event(const srv_table *t)
{
    json_t *win = json_array();
    for (int p = 0; p < t->row.players; p++)
        json_array_append_new(win,
                              t->win[p] < 0 ? json_null() : json_real(rounded(t->win[p], 0.001)));
    const srv_analysis *a = &t->analysis;
    double margin = a->nmoves ? rounded(a->margin[0], 0.1) : 0;
    return json_pack("{s:s, s:s, s:i, s:i, s:o, s:f}", "type", "estimate", "table", t->row.id,
                     "turn", t->analysed, "player", a->player, "win", win, "margin", margin);
}
