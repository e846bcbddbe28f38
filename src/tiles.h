/* tiles.h: internal view of the tile catalogue with rotations precomputed
 * (the tables are generated at build time by tools/gen_tables.c). */
#ifndef CARC_TILES_H
#define CARC_TILES_H

#include "carcassonne.h"
#include "tile_data.h"

/* Byte r holds the edges at rotation r, 2 bits per board direction (N in
 * bits 0-1 ... W in bits 6-7), each a carc_kind. */
extern const uint32_t carc_rot_edges[CARC_BASE_KINDS];
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

/* Edges of `kind` at rotation `rot`, 2 bits per direction. */
static inline unsigned carc_edges_at(int kind, int rot)
{
    return (carc_rot_edges[kind] >> (8 * rot)) & 0xFFu;
}

/* Rotations of each kind that fit a square of signature `sig`: 2 bits per
 * board direction (N in bits 0-1), 0 when no tile touches that edge, else 1
 * + the carc_kind the edge must have. Signature 0 (no neighbour) is all 0. */
extern const uint8_t carc_sig_fits[256][CARC_BASE_KINDS];
/* The number of rotations in each carc_sig_fits entry. */
extern const uint8_t carc_sig_count[256][CARC_BASE_KINDS];

/* carc_sig_count in lanes: kind k is bits 16 * (k % 4) of word k / 4. */
enum { CARC_COUNT_WORDS = CARC_BASE_KINDS / 4 };
extern const uint64_t carc_sig_count_lanes[256][CARC_COUNT_WORDS];

static inline unsigned carc_sig_edge(unsigned kind, int edge)
{
    return (kind + 1) << (2 * edge);
}

#endif
