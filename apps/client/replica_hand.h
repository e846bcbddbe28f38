/* replica_hand.h: a replica of a hand game (hand=N): the history of moves
 * and draws the server showed, and the game rebuilt from it. Internal to
 * the replica (replica.c); see replica.h. */
#ifndef CARC_REPLICA_HAND_H
#define CARC_REPLICA_HAND_H

#include <jansson.h>
#include <stddef.h>

#include "replica.h"

/* Appends a `draws` list ([{"player":0,"tile":"E"}, {"player":1,"tile":null}])
 * to the history. Returns 0, or -1 with `err` (a bad entry, out of memory). */
int replica_hand_add_draws(replica *r, const json_t *draws, char *err, size_t errcap);
/* Appends move `move` (record notation) of `player` to the history.
 * Returns 0 or -1. */
int replica_hand_add_move(replica *r, int player, const char *move, char *err, size_t errcap);
/* Makes `r->g` the game of the history: every draw named as shown, each
 * hidden one by a search for tiles the whole history agrees with (each
 * move's tile in its seat's hand, each draw's tile in the pile, the turns
 * in the server's order) that ends with the `digest` of `event` (the
 * state or move event just taken; none: nothing to check) and, with its
 * `next` (or a state's `to_move`), knows who moves next. Returns 0, or -1
 * with `err` (no guess follows the history, or none was found within
 * the search's budget). */
int replica_hand_rebuild(replica *r, const json_t *event, char *err, size_t errcap);
/* Checks the `hand` and `hands` of a state or move event against the
 * replica's hands. Returns 0, or -1 with `err`. */
int replica_hand_check(const replica *r, const json_t *msg, char *err, size_t errcap);

/* replica.c's own steps, shared with the hand code. */
int replica_play_move(replica *r, const char *move, char *err, size_t errcap);
int replica_fail(char *err, size_t errcap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
