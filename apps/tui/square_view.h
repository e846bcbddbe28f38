/* square_view.h: what one board square shows on screen: a tile drawn from
 * the catalogue (apps/common/tile_art), or an empty square, with the
 * game's marks on top: the cursor, legal and dead squares, the follower
 * spots of the tile being placed, a highlighted feature, the last moves.
 * Pure: the terminal layer only maps the cells' flags to attributes. */
#ifndef CARC_TUI_SQUARE_VIEW_H
#define CARC_TUI_SQUARE_VIEW_H

#include <stdint.h>

#include "tile_art.h"

enum {
    ZOOM_W = 3, /* the overview draws a square as 3 cells by 1 */
    ZOOM_H = 1,
};

/* Marks on a cell, one bit each. */
enum {
    SQF_CURSOR = 1 << 0,    /* the cursor's square */
    SQF_HIGHLIGHT = 1 << 1, /* part of the inspected feature */
    SQF_LAST = 1 << 2,      /* the turn number of a player's last move */
    SQF_PREVIEW = 1 << 3,   /* the tile being placed, where it would go */
    SQF_BAD = 1 << 4,       /* ...where it does not fit */
    SQF_LEGAL = 1 << 5,     /* an empty square where the tile fits */
    SQF_DEAD = 1 << 6,      /* an empty square no tile left can fill */
    SQF_SPOT = 1 << 7,      /* a numbered follower spot */
    SQF_CHOSEN = 1 << 8,    /* the chosen follower spot */
};

typedef struct square_cell {
    tile_art_cell art; /* glyph, what, ground, segment, owner */
    uint16_t flags;    /* SQF_* */
} square_cell;

typedef struct square_pic {
    int w, h; /* TILE_ART_W x TILE_ART_H, or ZOOM_W x ZOOM_H */
    square_cell cell[TILE_ART_H][TILE_ART_W];
} square_pic;

/* Everything that decides a square's picture. */
typedef struct square_desc {
    int has_tile;                /* else an empty square */
    int kind, rot;               /* the tile */
    int follower_segment, owner; /* CARC_NO_SPOT: no follower */
    int figure;                  /* carc_figure of the follower (0: a follower) */
    int zoomed;                  /* the 3x1 overview */
    int cursor, preview, bad, legal, dead;
    unsigned highlight; /* bit s: segment s is part of the inspected feature */
    int last_turn;      /* >0: this square holds a player's last move */
    int last_owner;
    int nspots; /* follower spots to number 1..nspots */
    int spot_segment[CARC_MAX_SPOTS];
    int chosen_spot; /* index into spot_segment, or -1 */
    int hint;        /* 1..9: an empty square where hint `hint` puts the tile */
    int beyond;      /* an empty square beyond a bounded table's edge (table=WxH) */
} square_desc;

/* An empty description: no tile, no follower, no marks. */
square_desc square_desc_empty(void);

/* Draws the square `d` into `out`. Returns 0, or -1 on a bad tile. */
int square_draw(const square_desc *d, square_pic *out);

/* Where a follower on `segment` of tile `kind` at `rot` is drawn: the
 * cell's row and column. Returns 0, or -1 on bad arguments. */
int square_spot_cell(int kind, int rot, int segment, int *row, int *col);

#endif
