/* tile_art.h: a tile drawn as a small grid of terminal cells, for the text
 * front ends (`carcassonne show`, the terminal game). */
#ifndef CARC_TILE_ART_H
#define CARC_TILE_ART_H

#include <stdint.h>

#include "carcassonne.h"

/* A tile is 5 columns by 3 rows. A terminal cell is about twice as tall as
 * it is wide, so 5x3 looks nearly square, and a typical finished board (12
 * to 15 tiles across) fits an 80-column terminal with its row labels:
 * 6 + 14 * 5 = 76 columns. Each edge gets its middle cell and the cells
 * either side, like the three ports of tiles.md; 7x3 draws the same
 * pictures more smoothly but already needs 104 columns for 14 tiles. */
enum {
    TILE_ART_W = 5,
    TILE_ART_H = 3,
    TILE_ART_NONE = 255, /* no segment, no owner */
};

/* What a cell depicts. A front end colours by it; the glyph alone keeps
 * every kind apart on a terminal without colour. */
typedef enum tile_art_what {
    TILE_ART_FIELD = 0,
    TILE_ART_CITY, /* inside a city */
    TILE_ART_WALL, /* a city cell on the city's boundary with a field */
    TILE_ART_ROAD,
    TILE_ART_JUNCTION, /* where roads end at a crossroads or a village */
    TILE_ART_CLOISTER,
    TILE_ART_PENNANT,
    TILE_ART_RIVER,     /* The River's water (ground: field); a bridge is road */
    TILE_ART_INN,       /* an inn (Inns & Cathedrals) on a field cell beside
                           its road; `segment` is the field's */
    TILE_ART_CATHEDRAL, /* a cathedral (Inns & Cathedrals) in its city */
    TILE_ART_GOODS,     /* a city's trade goods (Traders & Builders), one
                           glyph per type (TILE_ART_*_GLYPH) */
    TILE_ART_FOLLOWER,  /* `owner` says whose; a lower-case letter: a farmer;
                           a large follower takes two cells, both its letter;
                           a builder is its owner's letter in a circle (Ⓡ),
                           a pig the lower-case one in a circle (ⓡ) */
    TILE_ART_KINDS
} tile_art_what;

/* The glyphs of the marks, for a legend. */
#define TILE_ART_INN_GLYPH "\u25B3"       /* △ */
#define TILE_ART_CATHEDRAL_GLYPH "\u2020" /* † */
#define TILE_ART_WINE_GLYPH "\u2207"      /* ∇: a goblet */
#define TILE_ART_GRAIN_GLYPH "\u00A5"     /* ¥: a sheaf */
#define TILE_ART_CLOTH_GLYPH "#"          /* #: woven cloth */

typedef struct tile_art_cell {
    uint32_t codepoint; /* the character, for wide-character front ends */
    char glyph[5];      /* the same character in UTF-8, NUL-terminated */
    uint8_t what;       /* tile_art_what */
    uint8_t ground;     /* TILE_ART_FIELD or TILE_ART_CITY: the land the cell
                           lies on, e.g. for a background colour */
    uint8_t segment;    /* local segment drawn here, or TILE_ART_NONE (a
                           junction belongs to none of the roads it ends) */
    uint8_t owner;      /* follower cells: player 0..5; else TILE_ART_NONE */
} tile_art_cell;

/* One tile: cell[row][column], row 0 the north edge, column 0 the west. */
typedef struct tile_art {
    tile_art_cell cell[TILE_ART_H][TILE_ART_W];
} tile_art;

/* Draws tile `kind` (0 <= kind < carc_tile_kinds()) at rotation `rot` (0..3) into `out`, with a
 * follower of player `owner` (0..5) on local segment `follower_segment`,
 * or no follower when `follower_segment` is CARC_NO_SPOT. Returns 0, or -1
 * when an argument is out of range (then `out` is unspecified). The
 * picture is derived from the catalogue (carc_tile_segment_ports() and
 * friends), in board directions: rotation turns it. */
int tile_art_draw(int kind, int rot, int follower_segment, int owner, tile_art *out);
/* tile_art_draw() with the figure (carc_figure) on `follower_segment`: a
 * large follower is its owner's letter in two cells of its segment (one
 * when the segment shows in one cell only); a builder and a pig are
 * tile_art_figure_glyph()'s. -1 also for an unknown figure. */
int tile_art_draw_figure(int kind, int rot, int follower_segment, int owner, int figure,
                         tile_art *out);
/* Draws a tile of the board, with its figure if one stands on it. */
int tile_art_draw_placed(const carc_tile_on_board *tile, tile_art *out);
/* The letter of player `owner`: R B Y G K W P I (Red, Blue, Yellow, Green,
 * Black, Grey, Purple, pInk), lower case for a farmer; '?' when out of
 * range. */
char tile_art_letter(int owner, int farmer);
/* The character a figure of player `owner` shows: tile_art_letter() for a
 * follower or a large one (`farmer` for lower case), the circled capital
 * (Ⓡ Ⓑ ...) for a builder, the circled small letter (ⓡ ⓑ ...) for a pig;
 * '?' when out of range. */
uint32_t tile_art_figure_glyph(int owner, int figure, int farmer);

#endif
