/* tiles.h: internal view of the tile catalogue with rotations precomputed
 * (the tables are generated at build time by tools/gen_tables.c). The
 * tables that depend on a state's layout are in state.h. */
#ifndef CARC_TILES_H
#define CARC_TILES_H

#include "carcassonne.h"
#include "tile_data.h"

/* Local segment holding board port p at rotation r, or 255. */
extern const uint8_t carc_port_seg[CARC_ALL_KINDS][4][CARC_PORTS];
/* Board ports held by each segment at rotation r. */
extern const uint16_t carc_seg_ports[CARC_ALL_KINDS][4][CARC_MAX_SEGMENTS_PER_TILE];
/* The port a record names for each segment at rotation r (the first held
 * port clockwise from NNW; CARC_PORTS for a cloister). */
extern const uint8_t carc_spot_port[CARC_ALL_KINDS][4][CARC_MAX_SEGMENTS_PER_TILE];
/* Edges each road or city segment leaves open when placed alone. */
extern const uint8_t carc_seg_open[CARC_ALL_KINDS][CARC_MAX_SEGMENTS_PER_TILE];
/* The local cloister segment of each kind, or 255. */
extern const uint8_t carc_cloister_seg[CARC_ALL_KINDS];
/* Bit r set when rotation r differs from every lower rotation. */
extern const uint8_t carc_distinct_rotations[CARC_ALL_KINDS];

/* The port facing port p across the edge it lies on. */
static inline int carc_mirror_port(int p)
{
    int edge = p / 3;
    return 3 * ((edge + 2) & 3) + (2 - p % 3);
}

#endif
