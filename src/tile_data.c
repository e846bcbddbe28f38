/* tile_data.c: the base-game tile catalogue of tiles.md, as data. */
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

#define ROAD(ports) { CARC_ROAD, 0, (ports), 0 }
#define CITY(ports) { CARC_CITY, 0, (ports), 0 }
#define CITY_PENNANT(ports) { CARC_CITY, 1, (ports), 0 }
#define FIELD(ports, borders) { CARC_FIELD, 0, (ports), (borders) }
#define CLOISTER { CARC_CLOISTER, 0, 0, 0 }
#define R CARC_ROAD
#define C CARC_CITY
#define F CARC_FIELD

/* Segment order follows tiles.md; `borders` bit i names local segment i. */
const carc_tile_def carc_tile_data[CARC_TILE_KINDS] = {
    { 'A', 2, { F, F, R, F }, 3,
      { CLOISTER, ROAD(S), FIELD(ALL & ~S, 0) } },
    { 'B', 4, { F, F, F, F }, 2, { CLOISTER, FIELD(ALL, 0) } },
    { 'C', 1, { C, C, C, C }, 1, { CITY_PENNANT(ALL) } },
    { 'D', 4, { C, R, F, R }, 4,
      { CITY(NORTH), ROAD(E | W), FIELD(ENE | WNW, 1u << 0),
        FIELD(ESE | SOUTH | WSW, 0) } },
    { 'E', 5, { C, F, F, F }, 2,
      { CITY(NORTH), FIELD(EAST | SOUTH | WEST, 1u << 0) } },
    { 'F', 2, { F, C, F, C }, 3,
      { CITY_PENNANT(EAST | WEST), FIELD(NORTH, 1u << 0),
        FIELD(SOUTH, 1u << 0) } },
    { 'G', 1, { F, C, F, C }, 3,
      { CITY(EAST | WEST), FIELD(NORTH, 1u << 0), FIELD(SOUTH, 1u << 0) } },
    { 'H', 3, { C, F, C, F }, 3,
      { CITY(NORTH), CITY(SOUTH), FIELD(EAST | WEST, 3u) } },
    { 'I', 2, { C, C, F, F }, 3,
      { CITY(NORTH), CITY(EAST), FIELD(SOUTH | WEST, 3u) } },
    { 'J', 3, { C, R, R, F }, 4,
      { CITY(NORTH), ROAD(E | S), FIELD(ESE | SSE, 0),
        FIELD(ENE | SSW | WEST, 1u << 0) } },
    { 'K', 3, { C, F, R, R }, 4,
      { CITY(NORTH), ROAD(S | W), FIELD(SSW | WSW, 0),
        FIELD(WNW | EAST | SSE, 1u << 0) } },
    { 'L', 3, { C, R, R, R }, 7,
      { CITY(NORTH), ROAD(E), ROAD(S), ROAD(W), FIELD(ENE | WNW, 1u << 0),
        FIELD(ESE | SSE, 0), FIELD(SSW | WSW, 0) } },
    { 'M', 2, { C, F, F, C }, 2,
      { CITY_PENNANT(NORTH | WEST), FIELD(EAST | SOUTH, 1u << 0) } },
    { 'N', 3, { C, F, F, C }, 2,
      { CITY(NORTH | WEST), FIELD(EAST | SOUTH, 1u << 0) } },
    { 'O', 2, { C, R, R, C }, 4,
      { CITY_PENNANT(NORTH | WEST), ROAD(E | S), FIELD(ESE | SSE, 0),
        FIELD(ENE | SSW, 1u << 0) } },
    { 'P', 3, { C, R, R, C }, 4,
      { CITY(NORTH | WEST), ROAD(E | S), FIELD(ESE | SSE, 0),
        FIELD(ENE | SSW, 1u << 0) } },
    { 'Q', 1, { C, C, F, C }, 2,
      { CITY_PENNANT(NORTH | EAST | WEST), FIELD(SOUTH, 1u << 0) } },
    { 'R', 3, { C, C, F, C }, 2,
      { CITY(NORTH | EAST | WEST), FIELD(SOUTH, 1u << 0) } },
    { 'S', 2, { C, C, R, C }, 4,
      { CITY_PENNANT(NORTH | EAST | WEST), ROAD(S), FIELD(SSE, 1u << 0),
        FIELD(SSW, 1u << 0) } },
    { 'T', 1, { C, C, R, C }, 4,
      { CITY(NORTH | EAST | WEST), ROAD(S), FIELD(SSE, 1u << 0),
        FIELD(SSW, 1u << 0) } },
    { 'U', 8, { R, F, R, F }, 3,
      { ROAD(N | S), FIELD(NNE | EAST | SSE, 0),
        FIELD(SSW | WEST | NNW, 0) } },
    { 'V', 9, { F, F, R, R }, 3,
      { ROAD(S | W), FIELD(SSW | WSW, 0),
        FIELD(WNW | NORTH | EAST | SSE, 0) } },
    { 'W', 4, { F, R, R, R }, 6,
      { ROAD(E), ROAD(S), ROAD(W), FIELD(WNW | NORTH | ENE, 0),
        FIELD(ESE | SSE, 0), FIELD(SSW | WSW, 0) } },
    { 'X', 1, { R, R, R, R }, 8,
      { ROAD(N), ROAD(E), ROAD(S), ROAD(W), FIELD(NNE | ENE, 0),
        FIELD(ESE | SSE, 0), FIELD(SSW | WSW, 0), FIELD(WNW | NNW, 0) } },
};

/* clang-format on */

const int carc_start_tile_kind = 3; /* D */
