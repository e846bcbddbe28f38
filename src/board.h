/* board.h: the board of a game, a torus of placed and frontier squares,
 * and placing a tile (board.c; not public). */
#ifndef CARC_BOARD_H
#define CARC_BOARD_H

#include "state.h"

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
