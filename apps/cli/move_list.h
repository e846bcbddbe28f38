/* move_list.h: rankings as the front ends show them: each distinct move
 * once, in its canonical form (carc_move_canonical(): a symmetric tile at
 * the lowest rotation that gives the same board, as carc_legal_moves()
 * lists it), in one documented order. */
#ifndef CARC_MOVE_LIST_H
#define CARC_MOVE_LIST_H

#include "carcassonne_ai.h"

/* Puts every move of `evals` in its canonical form and removes the later
 * of two equal ones; returns the new count. */
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
