/* figures.h: the figures a move may deploy, and each player's supply of
 * them (not public): followers in every game, the large follower with
 * Inns & Cathedrals (one a player; strength 2 in every majority, scores
 * like a follower, goes home like one). The large follower lives in the
 * wide layout only; the compact layout (the base game) gets stubs that the
 * compiler folds away. */
#ifndef CARC_FIGURES_H
#define CARC_FIGURES_H

#include <string.h>

#include "state.h"

/* A figure's weight in a majority. */
static inline unsigned figure_strength(int figure)
{
    return figure == CARC_FIGURE_LARGE ? 2u : 1u;
}

#if LAYOUT_WIDE

static inline int figures_large_in_game(const carc_rules *rules)
{
    return (rules->expansions & CARC_EXPANSION_INNS_CATHEDRALS) != 0;
}

/* A new game's supplies of figures other than followers. */
static inline void figures_start(carc_game *g)
{
    memset(g->large, figures_large_in_game(&g->rules) ? 1 : 0, sizeof g->large);
}

static inline int figures_large_left(const carc_game *g, int player)
{
    return g->large[player];
}

static inline int tile_figure(const board_tile *t)
{
    return t->follower_figure;
}

static inline void tile_set_figure(board_tile *t, int figure)
{
    t->follower_figure = (uint8_t)figure;
}

/* Takes `figure` from `player`'s supply, or puts it back (`delta` -1 or
 * 1). */
static inline void figures_move(carc_game *g, int player, int figure, int delta)
{
    if (figure == CARC_FIGURE_LARGE)
        g->large[player] = (uint8_t)(g->large[player] + delta);
    else
        g->supply[player] = (uint8_t)(g->supply[player] + delta);
}

#else /* the base game: followers only */

static inline int figures_large_in_game(const carc_rules *rules)
{
    (void)rules;
    return 0;
}
static inline void figures_start(carc_game *g)
{
    (void)g;
}
static inline int figures_large_left(const carc_game *g, int player)
{
    (void)g;
    (void)player;
    return 0;
}
static inline int tile_figure(const board_tile *t)
{
    (void)t;
    return CARC_FIGURE_FOLLOWER;
}
static inline void tile_set_figure(board_tile *t, int figure)
{
    (void)t;
    (void)figure;
}
static inline void figures_move(carc_game *g, int player, int figure, int delta)
{
    (void)figure;
    g->supply[player] = (uint8_t)(g->supply[player] + delta);
}

#endif

/* Figures of `figure` in `player`'s supply. */
static inline int figures_left(const carc_game *g, int player, int figure)
{
    if (figure == CARC_FIGURE_FOLLOWER)
        return g->supply[player];
    return figure == CARC_FIGURE_LARGE ? figures_large_left(g, player) : 0;
}

/* Whether `player` has any figure to deploy on a spot. */
static inline int figures_any(const carc_game *g, int player)
{
    return g->supply[player] > 0 || figures_large_left(g, player) > 0;
}

#endif
