/* move_list.h: the legal moves of a position as the front ends list them:
 * each distinct move once, and rankings in one documented order.
 *
 * A tile with a symmetry (a straight road looks the same turned twice) can
 * be placed on a square in rotations that give the same board. Such moves
 * are one move: it is listed once, at the lowest rotation that gives it,
 * with the follower on the segment that holds the same ports. Built on the
 * public API only (carc_legal_placements, carc_legal_spots,
 * carc_tile_segment_ports). */
#ifndef CARC_MOVE_LIST_H
#define CARC_MOVE_LIST_H

#include "carcassonne_ai.h"

/* A legal placement of the drawn tile and its legal follower spots. */
typedef struct move_list_placement {
    carc_placement place;
    int nspots;
    carc_spot spots[CARC_MAX_SPOTS];
} move_list_placement;

/* Writes the distinct legal placements of the drawn tile of `g` (which must
 * not be over) into `out`, which holds CARC_MAX_PLACEMENTS, and returns how
 * many there are: of rotations that look alike only the lowest. Zero means
 * the tile fits nowhere: the only legal move is the discard. */
int move_list_placements(const carc_game *g, move_list_placement *out);

/* The lowest rotation of tile `kind` that looks like rotation `rot`. */
int move_list_canonical_rotation(int kind, int rot);

/* The listed form of the legal move `m` of `g`'s drawn tile: the lowest
 * rotation that gives the same board, the follower on the segment that
 * holds the same ports. Other moves are returned as they are. */
carc_move move_list_canonical(const carc_game *g, carc_move m);

/* Puts every move of `evals` in its listed form and removes the later of
 * two equal ones; returns the new count. */
int move_list_dedupe(const carc_game *g, carc_move_eval *evals, int n);

/* Sorts `evals` into the order every ranking is shown in: the higher
 * chance to win first, then the higher expected margin, each as shown (to
 * 0.1 percent and 0.01 point), then the ranking player's own order (for a
 * search, the most searched first). */
void move_list_sort(carc_move_eval *evals, int n);

/* Every legal move of `g` ranked by `p`, each once, in move_list_sort()
 * order: a new array the caller frees (NULL when out of memory), its
 * length in `*n`. */
carc_move_eval *move_list_rank(carc_player *p, const carc_game *g, int *n, carc_search_info *info);

#endif
