/* board.h: the board of a game, a torus of placed and frontier squares,
 * and placing a tile (board.c; not public). */
#ifndef CARC_BOARD_H
#define CARC_BOARD_H

#include "state.h"

#include <assert.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Empties the board; `fresh` when the grid holds garbage (a new game). */
void board_clear(carc_game *g, int fresh);
/* The grid holds a value only in the cells of the board's tiles and
 * frontier squares, 0 elsewhere: in the board's columns (min_x .. max_x)
 * and one either side, each GRID cells in a row (the torus is stored
 * column by column). board_copy_columns copies those columns of `src`
 * into `dst` (of the same layout) and zeroes those only `dst` used. */
void board_copy_columns(carc_game *dst, const carc_game *src);
/* The torus cell of (x, y), from two generated tables (tile_tables.c):
 * column offsets and rows of each coordinate -128..127. */
extern const uint16_t carc_torus_col[256];
extern const uint8_t carc_torus_row[256];
static inline int board_cell(int x, int y)
{
    return carc_torus_col[(uint8_t)x] + carc_torus_row[(uint8_t)y];
}

static inline int board_in_range(int x, int y)
{
    return x >= -127 && x <= 127 && y >= -127 && y <= 127;
}

/* The board tile at (x, y), or -1. A cell may hold a square that lies GRID
 * columns away from (x, y), so the square's own coordinates decide. */
static inline int board_tile_at(const carc_game *g, int x, int y)
{
    if (!board_in_range(x, y))
        return -1;
    int v = g->grid[board_cell(x, y)] - 1;
    if (v < 0 || v >= LAYOUT_TILES || g->tiles[v].x != x || g->tiles[v].y != y)
        return -1;
    return v;
}

/* The frontier square at (x, y), or -1. */
static inline int board_frontier_at(const carc_game *g, int x, int y)
{
    if (!board_in_range(x, y))
        return -1;
    int f = g->grid[board_cell(x, y)] - FRONTIER_BASE;
    if (f < 0 || g->frontier[f].x != x || g->frontier[f].y != y)
        return -1;
    return f;
}
/* The open cloisters (g->cloister_x/y, [0 .. ncloisters)) among the eight
 * squares around (x, y), or on it: one bit each, found without a branch on
 * the board. */
static inline unsigned board_cloisters_around(const carc_game *g, int x, int y)
{
    static_assert(MAX_CLOISTERS <= 16, "one SSE2 register holds the cloisters' coordinates");
    int n = g->ncloisters;
#if defined(__SSE2__)
    const __m128i two = _mm_set1_epi8(2);
    __m128i dx = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)g->cloister_x),
                              _mm_set1_epi8((char)(x - 1)));
    __m128i dy = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)g->cloister_y),
                              _mm_set1_epi8((char)(y - 1)));
    /* A byte is 0, 1 or 2 exactly when the unsigned minimum with 2 is
     * itself. */
    __m128i in = _mm_and_si128(_mm_cmpeq_epi8(_mm_min_epu8(dx, two), dx),
                               _mm_cmpeq_epi8(_mm_min_epu8(dy, two), dy));
    return (unsigned)_mm_movemask_epi8(in) & ((1u << n) - 1);
#else
    unsigned around = 0;
    for (int i = 0; i < n; i++)
        around |= (unsigned)(((unsigned)(g->cloister_x[i] - x + 1) <= 2u) &
                             ((unsigned)(g->cloister_y[i] - y + 1) <= 2u))
                  << i;
    return around;
#endif
}

/* Takes frontier square `index` off the frontier (the last square takes
 * its index); the caller then fills or clears the square's grid cell. */
void board_frontier_remove(carc_game *g, int index);
/* Puts `kind` at (x, y), which must be frontier square `f` (-1 for the
 * start tile on an empty board), creates its segments, joins them with the
 * neighbours' and updates the frontier. Returns the new tile's index, and
 * sets `*closed` when a road or city was left without open edges (only a
 * join closes a feature, or with table-edge-completes the table's edge,
 * so otherwise the tile completed none). On a table (bounds.h) the squares
 * beyond its edge never join the frontier. */
int board_place(carc_game *g, int kind, int x, int y, int rot, int f, int *closed);
/* Gives the cloister of board tile `t`, when it has one, its open count:
 * 8 less the tiles around it and the `filled` squares a capability counts
 * as filled (caps_cloister_filled). */
void board_count_cloister(carc_game *g, int t, int filled);

#endif
