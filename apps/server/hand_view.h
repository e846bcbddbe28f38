/* hand_view.h: what each viewer of a table may see of the hands (hand=N):
 * a seat its own hand, a spectator only the sizes, everybody everything
 * with open-hands or once the game has ended; never the pile's order. */
#ifndef CARC_SERVER_HAND_VIEW_H
#define CARC_SERVER_HAND_VIEW_H

#include <jansson.h>

#include "table.h"

/* Whether the table's game has hands that some viewer may not see (hand=N
 * without open-hands, the game still running). */
int hand_hidden(const srv_table *t);
/* Whether `viewer` (a seat, or -1: a spectator) may see `player`'s hand. */
int hand_visible(const srv_table *t, int viewer, int player);
/* Adds every hand's tiles to counts[0 .. kinds) and returns how many. */
int hand_add_all(const srv_table *t, int counts[CARC_MAX_KINDS]);
/* The tiles that can still come as `viewer` counts them: the pile and
 * every hand the viewer does not see, added to counts[0 .. kinds). */
void hand_add_unseen(const srv_table *t, int viewer, int counts[CARC_MAX_KINDS]);

/* [{"count":3,"tiles":["E","K","U"]}, {"count":3,"tiles":null}, ...]: each
 * seat's hand, its tiles only where `viewer` may see them. New reference. */
json_t *hand_view_hands(const srv_table *t, int viewer);
/* The viewer's own hand, ["E","K","U"] (empty for a spectator or without
 * a hand). New reference. */
json_t *hand_view_own(const srv_table *t, int viewer);
/* [{"player":0,"tile":"B"}, {"player":1,"tile":null}, ...]: the draws of
 * the draw log made after `moves` moves (0: the set-up's), a tile named
 * only where `viewer` may see it. New reference. */
json_t *hand_view_draws(const srv_table *t, int viewer, int moves);
/* [[x, y], ...]: the dead spots, empty squares no tile still to come (the
 * pile and every hand) fits; in a game with hands (the same for every
 * viewer). New reference. */
json_t *hand_view_dead(const srv_table *t);

/* The record's text `text` (malloc'ed, taken) as `viewer` may read it:
 * while hidden hands are in play, without its `draw` lines. Returns the
 * text (the same buffer, shortened in place). */
char *hand_record_filter(const srv_table *t, char *text);

#endif
