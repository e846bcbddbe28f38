/* tile_data.h: the tile catalogue as data, shared by the library and the
 * table generator. */
#ifndef CARC_TILE_DATA_H
#define CARC_TILE_DATA_H

#include "carcassonne.h"

extern const carc_tile_def carc_tile_data[CARC_TILE_KINDS];
extern const int carc_start_tile_kind;

#endif
