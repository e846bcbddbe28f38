/* tile_data.h: the tile catalogue as data, shared by the library and the
 * table generator. */
#ifndef CARC_TILE_DATA_H
#define CARC_TILE_DATA_H

#include "carcassonne.h"

enum {
    CARC_BASE_KINDS = 24, /* A..X: kinds 0..23 */
    CARC_KIND_D = 3,      /* the base game's start tile */
    CARC_KIND_RA = 24,    /* the spring: The River's start tile */
    CARC_KIND_RL = 33,    /* the lake: the river pile's last tile */
    CARC_KIND_IA = 34,    /* Inns & Cathedrals: IA..IQ, kinds 34..50 */
    CARC_KIND_TA = 51,    /* Traders & Builders: TA..TX, kinds 51..74 */
    CARC_ALL_KINDS = 75,  /* base, river, Inns & Cathedrals, Traders & Builders */
};
_Static_assert((int)CARC_ALL_KINDS <= (int)CARC_MAX_KINDS, "the catalogue fits CARC_MAX_KINDS");

extern const carc_tile_def carc_tile_data[CARC_ALL_KINDS];

#endif
