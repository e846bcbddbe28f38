/* describe.h: the words the terminal game shows for tiles and moves, in
 * the player's language: where a follower stands on a tile ("the city at
 * the top"), a move ("at 2,-1 turned 1, knight on the city at the top").
 * Pure functions over the public API, no terminal. */
#ifndef CARC_TUI_DESCRIBE_H
#define CARC_TUI_DESCRIBE_H

#include <stddef.h>

#include "carcassonne.h"

/* "road", "city", "farm", "cloister" for a carc_kind. */
const char *describe_feature(int kind);
/* "thief", "knight", "farmer", "monk": the follower on a carc_kind. */
const char *describe_role(int kind);

/* Where segment `segment` of tile `kind` turned `rot` lies on the tile as
 * the screen shows it (north up): "top", "top right", ..., "middle" (a
 * cloister, a road running across the tile), "all around" (a feature
 * reaching three or four edges around the middle). The words always agree
 * with the cell where a follower on it is drawn (square_spot_cell): never
 * the other side of the tile; a feature whose extent points elsewhere (a
 * farm wrapped around a road's bend) is named by that cell, "in the
 * middle" for the centre. So the spots of a tile never read the same.
 * NULL on bad arguments. */
const char *describe_place(int kind, int rot, int segment);

/* "knight on the city at the top" (segment `segment` of `kind` at `rot`),
 * "monk in the cloister". Empty on bad arguments. */
void describe_spot(int kind, int rot, int segment, char *buf, size_t cap);

/* A move of tile `kind`: "at 2,-1 turned 1, knight on the city at the
 * top", "at 2,-1 turned 1, no follower", "discard". */
void describe_move(int kind, carc_move m, char *buf, size_t cap);

#endif
