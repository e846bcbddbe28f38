/* hint_view.h: hints and win chances for a player against the computer:
 * who may ask, and the `hint` and `estimate` events made from the worker
 * pool's analysis of a position (analysis.h). */
#ifndef CARC_SERVER_HINT_VIEW_H
#define CARC_SERVER_HINT_VIEW_H

#include "table.h"

/* Whether seat `seat` of `t` may ask hints and estimates now: ERR_NONE, or
 * the error to answer with its message in `*why`. The seat's every
 * opponent must be a computer, the table must allow estimates, the game
 * must be running. */
msg_error hint_refusal(const srv_table *t, int seat, const char **why);

/* Keeps each player's chance to win from `t->analysis` in `t->win`: the
 * mover's from the search, the other's 1 - p in a game of two. */
void hint_keep_win(srv_table *t);

/* The `hint` event of `t->analysis` (turn `t->analysed`). New reference. */
json_t *hint_event(const srv_table *t);
/* The `estimate` event of `t->analysis` and `t->win`. New reference. */
json_t *estimate_event(const srv_table *t);

#endif
