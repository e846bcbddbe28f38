/* inns.h: Inns & Cathedrals (expansions/inns-cathedrals.md) as a
 * capability (capability.h): its large follower, which stands on a free
 * spot as a follower does. What inns and cathedrals are worth follows
 * the tiles' marks (catalogue data, scoring.c), the large follower's supply and
 * strength figures.h's. Built in the wide layout only. */
#ifndef CARC_INNS_H
#define CARC_INNS_H

#include "capability.h"
#include <string.h>

#if !LAYOUT_WIDE
#error "Inns & Cathedrals is built in the wide layout only"
#endif

static inline int inns_in_game(const carc_rules *rules)
{
    return (rules->expansions & CARC_EXPANSION_INNS_CATHEDRALS) != 0;
}

/* A new game's supply: one large follower a player. */
static inline void inns_start(carc_game *g)
{
    memset(g->large, inns_in_game(&g->rules) ? 1 : 0, sizeof g->large);
}

static inline int inns_large_left(const carc_game *g, int player)
{
    return g->large[player];
}

static inline int inns_figure_left(const carc_game *g, int player, int figure)
{
    (void)figure;
    return inns_large_left(g, player);
}

static inline void inns_figure_moved(carc_game *g, int player, int figure, int tile)
{
    (void)figure;
    if (tile == NO_TILE)
        g->large[player]++;
    else
        g->large[player]--;
}

static inline int inns_spot_figures(const carc_game *g, uint8_t *figures)
{
    if (!inns_large_left(g, g->current))
        return 0;
    figures[0] = CARC_FIGURE_LARGE;
    return 1;
}

static const capability inns_capability = {
    .name = "inns-cathedrals",
    .in_game = inns_in_game,
    .start = inns_start,
    .figures = 1u << CARC_FIGURE_LARGE,
    .figure_left = inns_figure_left,
    .figure_moved = inns_figure_moved,
    .spot_figures = inns_spot_figures,
};

#endif
