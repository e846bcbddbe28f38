/* tile_data.c: the tile catalogue as data: the base game (tiles.md), The
 * River (river.md), Inns & Cathedrals (inns-cathedrals.md). */
#include "tile_data.h"

/* The table reads best as laid out by hand. */
/* clang-format off */

/* Port bits, rotation 0. */
enum {
    NNW = 1 << CARC_NNW, N = 1 << CARC_N, NNE = 1 << CARC_NNE,
    ENE = 1 << CARC_ENE, E = 1 << CARC_E, ESE = 1 << CARC_ESE,
    SSE = 1 << CARC_SSE, S = 1 << CARC_S, SSW = 1 << CARC_SSW,
    WSW = 1 << CARC_WSW, W = 1 << CARC_W, WNW = 1 << CARC_WNW,
    NORTH = NNW | N | NNE, EAST = ENE | E | ESE,
    SOUTH = SSE | S | SSW, WEST = WSW | W | WNW,
    ALL = NORTH | EAST | SOUTH | WEST,
};

#define ROAD(ports) { CARC_ROAD, 0, (ports), 0, 0 }
#define ROAD_INN(ports) { CARC_ROAD, 0, (ports), 0, CARC_MARK_INN }
#define RIVER(ports) { CARC_RIVER, 0, (ports), 0, 0 }
#define CITY(ports) { CARC_CITY, 0, (ports), 0, 0 }
#define CITY_PENNANT(ports) { CARC_CITY, 1, (ports), 0, 0 }
#define CITY_CATHEDRAL(ports) { CARC_CITY, 0, (ports), 0, CARC_MARK_CATHEDRAL }
#define FIELD(ports, borders) { CARC_FIELD, 0, (ports), (borders), 0 }
#define CLOISTER { CARC_CLOISTER, 0, 0, 0, 0 }
#define R CARC_ROAD
#define C CARC_CITY
#define F CARC_FIELD
#define I CARC_RIVER
#define RV CARC_EXPANSION_RIVER
#define IC CARC_EXPANSION_INNS_CATHEDRALS

/* Segment order follows tiles.md (the river's, river.md), but a tile's
 * cities come first: `borders` bit i names local segment i, and the
 * library keeps only bits 0 and 1. */
const carc_tile_def carc_tile_data[CARC_ALL_KINDS] = {
    { "A", 0, 2, { F, F, R, F }, 3,
      { CLOISTER, ROAD(S), FIELD(ALL & ~S, 0) } },
    { "B", 0, 4, { F, F, F, F }, 2, { CLOISTER, FIELD(ALL, 0) } },
    { "C", 0, 1, { C, C, C, C }, 1, { CITY_PENNANT(ALL) } },
    { "D", 0, 4, { C, R, F, R }, 4,
      { CITY(NORTH), ROAD(E | W), FIELD(ENE | WNW, 1u << 0),
        FIELD(ESE | SOUTH | WSW, 0) } },
    { "E", 0, 5, { C, F, F, F }, 2,
      { CITY(NORTH), FIELD(EAST | SOUTH | WEST, 1u << 0) } },
    { "F", 0, 2, { F, C, F, C }, 3,
      { CITY_PENNANT(EAST | WEST), FIELD(NORTH, 1u << 0),
        FIELD(SOUTH, 1u << 0) } },
    { "G", 0, 1, { F, C, F, C }, 3,
      { CITY(EAST | WEST), FIELD(NORTH, 1u << 0), FIELD(SOUTH, 1u << 0) } },
    { "H", 0, 3, { C, F, C, F }, 3,
      { CITY(NORTH), CITY(SOUTH), FIELD(EAST | WEST, 3u) } },
    { "I", 0, 2, { C, C, F, F }, 3,
      { CITY(NORTH), CITY(EAST), FIELD(SOUTH | WEST, 3u) } },
    { "J", 0, 3, { C, R, R, F }, 4,
      { CITY(NORTH), ROAD(E | S), FIELD(ESE | SSE, 0),
        FIELD(ENE | SSW | WEST, 1u << 0) } },
    { "K", 0, 3, { C, F, R, R }, 4,
      { CITY(NORTH), ROAD(S | W), FIELD(SSW | WSW, 0),
        FIELD(WNW | EAST | SSE, 1u << 0) } },
    { "L", 0, 3, { C, R, R, R }, 7,
      { CITY(NORTH), ROAD(E), ROAD(S), ROAD(W), FIELD(ENE | WNW, 1u << 0),
        FIELD(ESE | SSE, 0), FIELD(SSW | WSW, 0) } },
    { "M", 0, 2, { C, F, F, C }, 2,
      { CITY_PENNANT(NORTH | WEST), FIELD(EAST | SOUTH, 1u << 0) } },
    { "N", 0, 3, { C, F, F, C }, 2,
      { CITY(NORTH | WEST), FIELD(EAST | SOUTH, 1u << 0) } },
    { "O", 0, 2, { C, R, R, C }, 4,
      { CITY_PENNANT(NORTH | WEST), ROAD(E | S), FIELD(ESE | SSE, 0),
        FIELD(ENE | SSW, 1u << 0) } },
    { "P", 0, 3, { C, R, R, C }, 4,
      { CITY(NORTH | WEST), ROAD(E | S), FIELD(ESE | SSE, 0),
        FIELD(ENE | SSW, 1u << 0) } },
    { "Q", 0, 1, { C, C, F, C }, 2,
      { CITY_PENNANT(NORTH | EAST | WEST), FIELD(SOUTH, 1u << 0) } },
    { "R", 0, 3, { C, C, F, C }, 2,
      { CITY(NORTH | EAST | WEST), FIELD(SOUTH, 1u << 0) } },
    { "S", 0, 2, { C, C, R, C }, 4,
      { CITY_PENNANT(NORTH | EAST | WEST), ROAD(S), FIELD(SSE, 1u << 0),
        FIELD(SSW, 1u << 0) } },
    { "T", 0, 1, { C, C, R, C }, 4,
      { CITY(NORTH | EAST | WEST), ROAD(S), FIELD(SSE, 1u << 0),
        FIELD(SSW, 1u << 0) } },
    { "U", 0, 8, { R, F, R, F }, 3,
      { ROAD(N | S), FIELD(NNE | EAST | SSE, 0),
        FIELD(SSW | WEST | NNW, 0) } },
    { "V", 0, 9, { F, F, R, R }, 3,
      { ROAD(S | W), FIELD(SSW | WSW, 0),
        FIELD(WNW | NORTH | EAST | SSE, 0) } },
    { "W", 0, 4, { F, R, R, R }, 6,
      { ROAD(E), ROAD(S), ROAD(W), FIELD(WNW | NORTH | ENE, 0),
        FIELD(ESE | SSE, 0), FIELD(SSW | WSW, 0) } },
    { "X", 0, 1, { R, R, R, R }, 8,
      { ROAD(N), ROAD(E), ROAD(S), ROAD(W), FIELD(NNE | ENE, 0),
        FIELD(ESE | SSE, 0), FIELD(SSW | WSW, 0), FIELD(WNW | NNW, 0) } },
    /* The River (river.md). Rotation 0 is JCloisterZone's. */
    { "RA", RV, 1, { F, I, F, F }, 2,
      { RIVER(E), FIELD(ALL & ~E, 0) } },
    { "RB", RV, 1, { C, I, R, I }, 7,
      { CITY(NORTH), RIVER(E | W), ROAD(S), FIELD(ENE, 1u << 0),
        FIELD(ESE | SSE, 0), FIELD(SSW | WSW, 0), FIELD(WNW, 1u << 0) } },
    { "RC", RV, 1, { C, I, C, I }, 5,
      { CITY(NORTH), CITY(SOUTH), RIVER(E | W), FIELD(ENE | WNW, 1u << 0),
        FIELD(ESE | WSW, 1u << 1) } },
    { "RD", RV, 2, { F, I, F, I }, 3,
      { RIVER(E | W), FIELD(WNW | NORTH | ENE, 0), FIELD(ESE | SOUTH | WSW, 0) } },
    { "RE", RV, 1, { C, I, I, C }, 4,
      { CITY(NORTH | WEST), RIVER(E | S), FIELD(ENE | SSW, 1u << 0),
        FIELD(ESE | SSE, 0) } },
    { "RG", RV, 2, { F, F, I, I }, 3,
      { RIVER(S | W), FIELD(WNW | NORTH | EAST | SSE, 0), FIELD(SSW | WSW, 0) } },
    { "RH", RV, 1, { F, I, R, I }, 6,
      { CLOISTER, RIVER(E | W), ROAD(S), FIELD(WNW | NORTH | ENE, 0),
        FIELD(ESE | SSE, 0), FIELD(SSW | WSW, 0) } },
    { "RI", RV, 1, { R, R, I, I }, 5,
      { RIVER(S | W), ROAD(N | E), FIELD(ESE | SSE | WNW | NNW, 0),
        FIELD(NNE | ENE, 0), FIELD(SSW | WSW, 0) } },
    { "RK", RV, 1, { I, R, I, R }, 6,
      { RIVER(N | S), ROAD(E | W), FIELD(WNW | NNW, 0), FIELD(NNE | ENE, 0),
        FIELD(ESE | SSE, 0), FIELD(SSW | WSW, 0) } },
    { "RL", RV, 1, { F, F, F, I }, 2,
      { RIVER(W), FIELD(ALL & ~W, 0) } },
    /* Inns & Cathedrals (inns-cathedrals.md). Rotation 0 is
     * JCloisterZone's; a tile's cities come first, so that `borders` names
     * them. IH's field has no ports: the record's spot F. */
    { "IA", IC, 1, { F, F, R, R }, 3,
      { ROAD_INN(S | W), FIELD(WNW | NORTH | EAST | SSE, 0), FIELD(SSW | WSW, 0) } },
    { "IB", IC, 1, { F, R, F, R }, 3,
      { ROAD_INN(E | W), FIELD(WNW | NORTH | ENE, 0), FIELD(ESE | SOUTH | WSW, 0) } },
    { "IC", IC, 1, { F, R, R, R }, 6,
      { ROAD_INN(E), ROAD(S), ROAD(W), FIELD(WNW | NORTH | ENE, 0),
        FIELD(ESE | SSE, 0), FIELD(SSW | WSW, 0) } },
    { "ID", IC, 1, { F, R, F, R }, 5,
      { CLOISTER, ROAD(E), ROAD(W), FIELD(WNW | NORTH | ENE, 0),
        FIELD(ESE | SOUTH | WSW, 0) } },
    { "IE", IC, 1, { R, R, R, R }, 5,
      { ROAD(N | W), ROAD(E | S), FIELD(WNW | NNW, 0), FIELD(NNE | ENE | SSW | WSW, 0),
        FIELD(ESE | SSE, 0) } },
    { "IF", IC, 1, { C, R, F, C }, 4,
      { CITY(NORTH | WEST), ROAD(E), FIELD(ENE, 1u << 0), FIELD(ESE | SOUTH, 1u << 0) } },
    { "IG", IC, 1, { C, F, F, F }, 3,
      { CITY(NORTH), FIELD(EAST, 1u << 0), FIELD(SOUTH | WEST, 1u << 0) } },
    { "IH", IC, 1, { C, C, C, C }, 5,
      { CITY(NORTH), CITY(EAST), CITY(SOUTH), CITY(WEST), FIELD(0, 15u) } },
    { "II", IC, 1, { C, R, C, R }, 8,
      { CITY(NORTH), CITY(SOUTH), ROAD(E), ROAD(W), FIELD(ENE, 1u << 0),
        FIELD(ESE, 1u << 1), FIELD(WSW, 1u << 1), FIELD(WNW, 1u << 0) } },
    { "IJ", IC, 1, { C, F, R, F }, 4,
      { CITY(NORTH), ROAD(S), FIELD(EAST | SSE, 1u << 0), FIELD(SSW | WEST, 1u << 0) } },
    { "IK", IC, 2, { C, C, C, C }, 1, { CITY_CATHEDRAL(ALL) } },
    { "IL", IC, 1, { C, R, R, C }, 4,
      { CITY_PENNANT(NORTH | WEST), ROAD_INN(E | S), FIELD(ENE | SSW, 1u << 0),
        FIELD(ESE | SSE, 0) } },
    { "IM", IC, 1, { C, F, R, R }, 4,
      { CITY(NORTH), ROAD_INN(S | W), FIELD(EAST | SSE | WNW, 1u << 0), FIELD(SSW | WSW, 0) } },
    { "IN", IC, 1, { C, F, R, C }, 4,
      { CITY(NORTH | WEST), ROAD_INN(S), FIELD(EAST | SSE, 1u << 0), FIELD(SSW, 1u << 0) } },
    { "IO", IC, 1, { C, C, F, C }, 4,
      { CITY(NORTH), CITY(EAST), CITY(WEST), FIELD(SOUTH, 7u) } },
    { "IP", IC, 1, { C, F, C, C }, 3,
      { CITY_PENNANT(NORTH | WEST), CITY(SOUTH), FIELD(EAST, 3u) } },
    { "IQ", IC, 1, { R, C, R, C }, 7,
      { CITY_PENNANT(EAST | WEST), ROAD(N), ROAD(S), FIELD(NNW, 1u << 0), FIELD(NNE, 1u << 0),
        FIELD(SSE, 1u << 0), FIELD(SSW, 1u << 0) } },
};

/* clang-format on */
