/* figures.h: the figures a move may deploy, and each player's supply of
 * them (not public): followers in every game; with Inns & Cathedrals the
 * large follower (one a player; strength 2 in every majority, scores and
 * goes home like a follower); with Traders & Builders the builder and the
 * pig (one each a player; strength 0: they never count in a majority,
 * never make a feature occupied, and stand only where their player has a
 * follower). A feature's follower count is the sum of its figures'
 * strengths. The supplies of the other figures belong to the capabilities
 * that bring them (inns.h, traders.h; the wide layout only). */
#ifndef CARC_FIGURES_H
#define CARC_FIGURES_H

#include "state.h"
#include "capabilities.h"

/* A figure's weight in a majority. */
static inline unsigned figure_strength(int figure)
{
    static const uint8_t strength[CARC_FIGURES] = {1, 2, 0, 0};
    return LAYOUT_WIDE ? strength[figure] : 1u; /* the base game: followers */
}

/* The figure standing on board tile `t` (the compact layout keeps
 * followers alone, and no figure kind). */
static inline int tile_figure(const board_tile *t)
{
#if LAYOUT_WIDE
    return t->follower_figure;
#else
    (void)t;
    return CARC_FIGURE_FOLLOWER;
#endif
}

static inline void tile_set_figure(board_tile *t, int figure)
{
#if LAYOUT_WIDE
    t->follower_figure = (uint8_t)figure;
#else
    (void)t;
    (void)figure;
#endif
}

/* Takes `figure` from `player`'s supply onto board tile `tile`, and puts
 * it back: a follower here, another figure by the capability that brings
 * it. */
static inline void figures_take(carc_game *g, int player, int figure, int tile)
{
    if (!LAYOUT_WIDE || figure == CARC_FIGURE_FOLLOWER)
        g->supply[player]--;
    else
        caps_figure_moved(g, player, figure, tile);
}

static inline void figures_return(carc_game *g, int player, int figure)
{
    if (!LAYOUT_WIDE || figure == CARC_FIGURE_FOLLOWER)
        g->supply[player]++;
    else
        caps_figure_moved(g, player, figure, NO_TILE);
}

/* Whether the game has figures other than followers (which the digest
 * then covers). */
static inline int figures_extra_in_game(const carc_rules *rules)
{
    return caps_figures(rules) != 0;
}

/* Whether `figure` is in a game with `rules`, and the expansion that
 * brings it (the catalogue's: named in any game). */
static inline int figures_in_game(const carc_rules *rules, int figure)
{
    return figure == CARC_FIGURE_FOLLOWER || ((caps_figures(rules) >> figure) & 1u);
}

static inline const char *figures_name(int figure)
{
    static const char *const names[CARC_FIGURES] = {"follower", "large follower", "builder", "pig"};
    return names[figure];
}

/* Figures of `figure` in `player`'s supply. */
static inline int figures_left(const carc_game *g, int player, int figure)
{
    if (figure == CARC_FIGURE_FOLLOWER)
        return g->supply[player];
    return caps_figure_left(g, player, figure);
}

/* Whether `player` has a figure that counts in a majority to deploy: a
 * follower, or another of strength above 0 (a large follower). */
static inline int figures_any(const carc_game *g, int player)
{
    return g->supply[player] > 0 || caps_figure_left(g, player, CARC_FIGURE_LARGE) > 0;
}

#endif
