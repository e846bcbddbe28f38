/* inns.h: Inns & Cathedrals (expansions/inns-cathedrals.md) as a
 * capability (capability.h): its large follower, which stands on a free
 * spot as a follower does. What inns and cathedrals are worth follows
 * the tiles' marks (catalogue data, scoring.c), the large follower's supply and
 * strength figures.h's. Built in the wide layout only. */
#ifndef CARC_INNS_H
#define CARC_INNS_H

#include "capability.h"
#include "figures.h"

static inline int inns_spot_figures(const carc_game *g, uint8_t *figures)
{
    if (!figures_large_left(g, g->current))
        return 0;
    figures[0] = CARC_FIGURE_LARGE;
    return 1;
}

static const capability inns_capability = {
    .name = "Inns & Cathedrals",
    .in_game = figures_large_in_game,
    .spot_figures = inns_spot_figures,
};

#endif
