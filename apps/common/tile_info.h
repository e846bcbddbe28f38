/* tile_info.h: what a player can know about the tiles still to come: the
 * chance of drawing each kind, and the dead spots (open squares no tile
 * left can fill). Pure functions over the public API, no terminal. */
#ifndef CARC_COMMON_TILE_INFO_H
#define CARC_COMMON_TILE_INFO_H

#include "carcassonne.h"

enum {
    TILE_INFO_NO_NEIGHBOUR = -1, /* a side of a square with no tile beyond it */
    /* Open squares are next to a placed tile: at most 4 per tile. */
    TILE_INFO_MAX_SQUARES = 4 * CARC_MAX_TILES,
};

typedef struct tile_square {
    int x, y;
} tile_square;

/* The tiles that can still come: copies of each kind in the pile (with
 * The River, both piles) plus, when `with_drawn`, the drawn tile (when
 * the game is not over; with hand=N, every tile of every hand). Fills counts[0 ..
 * carc_tile_kinds()), the caller zeroing the rest; returns the piles' size without the drawn tile,
 * as carc_game_tiles_left() does. */
int tile_info_counts(const carc_game *g, int counts[CARC_MAX_KINDS], int with_drawn);

/* The kinds of the pile the next tile will come from, in catalogue order,
 * into `kinds` (at most CARC_MAX_KINDS); returns how many. While The
 * River's river pile still holds tiles (carc_game_next_tiles() can give
 * a river tile), the river pile's kinds; else the kinds of the main pile:
 * those the game holds (carc_game_kind_total() > 0) that are no river
 * tiles. Kinds with no tile left stay listed, so that a table of them
 * keeps its places. */
int tile_info_pile_kinds(const carc_game *g, int kinds[CARC_MAX_KINDS]);

/* Chance, 0..1, that the next tile drawn from a pile of `left` tiles is of
 * a kind with `count` copies in it: count / left (0 when the pile is empty). */
double tile_info_chance(int count, int left);

/* The edge kinds a tile on square (x, y) must show: needs[e] is the kind
 * (carc_kind) of the neighbour's edge facing edge e (N E S W), or
 * TILE_INFO_NO_NEIGHBOUR. Returns how many neighbours the square has. */
int tile_info_needs(const carc_game *g, int x, int y, int needs[4]);

/* Whether tile `kind` fits `needs` at some rotation. */
int tile_info_kind_fits(int kind, const int needs[4]);

/* The empty squares next to a placed tile that no kind with counts[k] > 0
 * fits in any rotation. Writes at most `cap` of them into `out` and returns
 * how many there are. */
int tile_info_dead_spots_for(const carc_game *g, const int counts[CARC_MAX_KINDS], tile_square *out,
                             int cap);

/* The dead spots of the tiles that can still come (the pile and the drawn
 * tile). */
int tile_info_dead_spots(const carc_game *g, tile_square *out, int cap);

/* The pile of a game at one moment: its size and the draws made so far. */
typedef struct tile_pile_mark {
    int left, draws;
} tile_pile_mark;
tile_pile_mark tile_info_pile_mark(const carc_game *g);
/* Whether the move that made `g` of the game marked `before` sent its
 * tile back into the pile: a discard with reshuffle, while the engine's
 * slack for returns lasts (after it, a discard is set aside): the pile
 * lost fewer tiles than were drawn from it. */
int tile_info_went_back(const carc_game *g, tile_pile_mark before);

#endif
