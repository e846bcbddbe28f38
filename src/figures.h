/* figures.h: the figures a move may deploy, and each player's supply of
 * them (not public): followers in every game; with Inns & Cathedrals the
 * large follower (one a player; strength 2 in every majority, scores and
 * goes home like a follower); with Traders & Builders the builder and the
 * pig (one each a player; strength 0: they never count in a majority,
 * never make a feature occupied, and stand only where their player has a
 * follower). A feature's follower count is the sum of its figures'
 * strengths. The other figures live in the wide layout only; the compact
 * layout (the base game) gets stubs that the compiler folds away. */
#ifndef CARC_FIGURES_H
#define CARC_FIGURES_H

#include <string.h>

#include "state.h"

/* A figure's weight in a majority. */
static inline unsigned figure_strength(int figure)
{
    static const uint8_t strength[CARC_FIGURES] = {1, 2, 0, 0};
    return LAYOUT_WIDE ? strength[figure] : 1u; /* the base game: followers */
}

#if LAYOUT_WIDE

static inline int figures_large_in_game(const carc_rules *rules)
{
    return (rules->expansions & CARC_EXPANSION_INNS_CATHEDRALS) != 0;
}

static inline int figures_traders_in_game(const carc_rules *rules)
{
    return (rules->expansions & CARC_EXPANSION_TRADERS_BUILDERS) != 0;
}

/* A new game's supplies of figures other than followers. */
static inline void figures_start(carc_game *g)
{
    memset(g->large, figures_large_in_game(&g->rules) ? 1 : 0, sizeof g->large);
    memset(g->traders.builder_tile, NO_TILE, sizeof g->traders.builder_tile);
    memset(g->traders.pig_tile, NO_TILE, sizeof g->traders.pig_tile);
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

/* Takes `figure` from `player`'s supply onto board tile `tile`. */
static inline void figures_take(carc_game *g, int player, int figure, int tile)
{
    switch (figure) {
    case CARC_FIGURE_LARGE: g->large[player]--; break;
    case CARC_FIGURE_BUILDER: g->traders.builder_tile[player] = (uint8_t)tile; break;
    case CARC_FIGURE_PIG: g->traders.pig_tile[player] = (uint8_t)tile; break;
    default: g->supply[player]--; break;
    }
}

/* Puts `figure` back into `player`'s supply. */
static inline void figures_return(carc_game *g, int player, int figure)
{
    switch (figure) {
    case CARC_FIGURE_LARGE: g->large[player]++; break;
    case CARC_FIGURE_BUILDER: g->traders.builder_tile[player] = NO_TILE; break;
    case CARC_FIGURE_PIG: g->traders.pig_tile[player] = NO_TILE; break;
    default: g->supply[player]++; break;
    }
}

static inline int figures_builder_left(const carc_game *g, int player)
{
    return figures_traders_in_game(&g->rules) && g->traders.builder_tile[player] == NO_TILE;
}

static inline int figures_pig_left(const carc_game *g, int player)
{
    return figures_traders_in_game(&g->rules) && g->traders.pig_tile[player] == NO_TILE;
}

#else /* the base game: followers only */

/* NOLINTBEGIN(misc-unused-parameters) */
LAYOUT_STUB(int figures_large_in_game(const carc_rules *rules), 0)
LAYOUT_STUB(int figures_traders_in_game(const carc_rules *rules), 0)
LAYOUT_STUB(void figures_start(carc_game *g), )
LAYOUT_STUB(int figures_large_left(const carc_game *g, int player), 0)
LAYOUT_STUB(int tile_figure(const board_tile *t), CARC_FIGURE_FOLLOWER)
LAYOUT_STUB(void tile_set_figure(board_tile *t, int figure), )
LAYOUT_STUB(int figures_builder_left(const carc_game *g, int player), 0)
LAYOUT_STUB(int figures_pig_left(const carc_game *g, int player), 0)
/* NOLINTEND(misc-unused-parameters) */

/* A follower from `player`'s supply onto a board tile, and back. */
static inline void figures_take(carc_game *g, int player, int figure, int tile)
{
    (void)figure;
    (void)tile;
    g->supply[player]--;
}
static inline void figures_return(carc_game *g, int player, int figure)
{
    (void)figure;
    g->supply[player]++;
}

#endif

/* Whether the game has figures other than followers (which the digest
 * then covers). */
static inline int figures_extra_in_game(const carc_rules *rules)
{
    return figures_large_in_game(rules) || figures_traders_in_game(rules);
}

/* Whether `figure` is in a game with `rules`, and the expansion that
 * brings it. */
static inline int figures_in_game(const carc_rules *rules, int figure)
{
    switch (figure) {
    case CARC_FIGURE_FOLLOWER: return 1;
    case CARC_FIGURE_LARGE: return figures_large_in_game(rules);
    default: return figures_traders_in_game(rules);
    }
}

static inline const char *figures_name(int figure)
{
    static const char *const names[CARC_FIGURES] = {"follower", "large follower", "builder", "pig"};
    return names[figure];
}

static inline const char *figures_expansion(int figure)
{
    return figure == CARC_FIGURE_LARGE ? "Inns & Cathedrals" : "Traders & Builders";
}

/* Figures of `figure` in `player`'s supply. */
static inline int figures_left(const carc_game *g, int player, int figure)
{
    switch (figure) {
    case CARC_FIGURE_FOLLOWER: return g->supply[player];
    case CARC_FIGURE_LARGE: return figures_large_left(g, player);
    case CARC_FIGURE_BUILDER: return figures_builder_left(g, player);
    case CARC_FIGURE_PIG: return figures_pig_left(g, player);
    default: return 0;
    }
}

/* Whether `player` has a follower or a large follower to deploy. */
static inline int figures_any(const carc_game *g, int player)
{
    return g->supply[player] > 0 || figures_large_left(g, player) > 0;
}

#endif
