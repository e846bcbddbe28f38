/* describe.h: the words the terminal game shows for tiles and moves, in
 * the player's language: where a follower stands on a tile ("the city at
 * the top"), a move ("at 2,-1 turned 1, knight on the city at the top").
 * Pure functions over the public API, no terminal. */
#ifndef CARC_TUI_DESCRIBE_H
#define CARC_TUI_DESCRIBE_H

#include <stddef.h>

#include "carcassonne.h"

/* "road", "city", "farm", "cloister" for a carc_kind: carc_kind_name(). */
const char *describe_feature(int kind);
/* "thief", "knight", "farmer", "monk": the follower on a carc_kind
 * (words_role()). */
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
 * "monk in the cloister", "farmer on the field in the middle" (a field
 * with no ports: IH's, the record's spot F). Empty on bad arguments. */
void describe_spot(int kind, int rot, int segment, char *buf, size_t cap);

/* A move of tile `kind`: "at 2,-1 turned 1, knight on the city at the
 * top", "at 2,-1 turned 1, large knight on the city at the top" (the large
 * follower), "at 2,-1 turned 1, no follower", "discard". */
void describe_move(int kind, carc_move m, char *buf, size_t cap);

/* What an inn on road `f` or a cathedral in city `f` does to its worth
 * (Inns & Cathedrals): "An inn: 2 a tile when complete, but 0 if still
 * open at the end"; "" for a feature without either. */
void describe_marks(const carc_feature *f, char *buf, size_t cap);

/* The trade goods in city `feature` of `g` (Traders & Builders): "Goods:
 * 2 wine, 1 cloth, to whoever completes it" (or "given when it was
 * completed"); "" for a feature without goods. */
void describe_goods(const carc_game *g, int feature, char *buf, size_t cap);

/* A figure's word: "follower", "large follower", "builder", "pig". */
const char *describe_figure(int figure);

/* What feature `f` (of a game of `players`) gives at the end, in words:
 * "If the game ended now: Red scores 6", "...: Red and Blue score 4 each",
 * "...: nobody scores its 9 (no farmer on it)"; for a completed road, city
 * or cloister, which scored when completed and never again: "Complete:
 * worth 8 to whoever held it then; the end adds nothing". */
void describe_end_value(const carc_feature *f, int players, char *buf, size_t cap);

/* Why tile `kind`, which fits nowhere on the board of `g` (the position
 * before its discard or after: a discard leaves the board as it was), is
 * discarded: "it fits nowhere"; for a river tile, which may go only on the
 * river's open end: "the river is boxed in at its end, -1,0" (no turn of
 * the tile matches the tiles around that square) or "only a U-turn fits
 * the river's end, -1,0" (a turn matches but the rules forbid it). Short
 * enough for the message line; no capital, no full stop. */
void describe_discard(const carc_game *g, int kind, char *buf, size_t cap);

#endif
