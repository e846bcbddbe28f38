/* search.h: what the searches share inside the library: the legal
 * placements at canonical rotations, the draws to come, margins, the clock
 * and the stop request, shuffling and sorting moves (search.c). Each
 * strategy includes it; none of it knows the strategies. */
#ifndef CARC_AI_SEARCH_H
#define CARC_AI_SEARCH_H

#include <stddef.h>

#include "carcassonne.h"
#include "carcassonne_ai.h"
#include "eval.h"

/* The evaluation player `p` uses: its eval option, else its kind's default
 * (mcts: full, the others: basic). */
ai_evaluation ai_player_evaluation(const carc_player *p);

/* The legal placements of the drawn tile of `g` (`out` has room for
 * CARC_MAX_PLACEMENTS) at their canonical rotations, the placements of
 * carc_legal_moves() (carc_move_canonical()): without the rotations of a
 * symmetric tile that repeat a lower rotation on the same square. */
int ai_legal_placements(const carc_game *g, carc_placement *out);
/* Every legal move of `g` in a new array of just their number (free()
 * it), into `*n`; NULL when out of memory. A list of CARC_MAX_MOVES is
 * megabytes, which an allocator maps and unmaps at each call (a
 * sanitizer's zeroes its shadow too); a position has tens of moves. */
carc_move *ai_legal_moves(const carc_game *g, int *n);
/* Room for `n` move evaluations (at least one; free() it), NULL when out
 * of memory: a ranking's list, sized as ai_legal_moves() sizes the moves. */
carc_move_eval *ai_new_evals(int n);
/* Shuffles `moves[0 .. n)` with the player's generator: equal values are
 * then broken at random by a stable sort. */
void ai_shuffle_moves(carc_player *p, carc_move *moves, int n);

/* The margin of `player` in `values`: its value minus the best other. */
double ai_margin(const double values[CARC_MAX_PLAYERS], int players, int player);
/* The draws that may follow `g`: each tile kind of its draw pool
 * (carc_game_draw_pool) with its probability, count over total, into
 * `kinds` and `prob`; returns their number (0: the pool is empty). The
 * expectimax searches (star25, exact) branch on them. */
int ai_draw_outcomes(const carc_game *g, int kinds[CARC_MAX_KINDS], double prob[CARC_MAX_KINDS]);
/* Sum of p[j] * b[j] over j in [from, to): a chance node's value from its
 * outcomes' probabilities and values (or bounds). */
double ai_weighted(const double *p, const double *b, int from, int to);
/* The final margin of `player` in a finished (or any) game. */
int ai_score_margin(const carc_game *g, int player);

/* Monotonic seconds. */
double ai_now(void);
/* The machine's memory in bytes, 0 when unknown. */
uint64_t ai_physical_memory(void);
/* Whether a search that started at `start` must stop: a stop request or
 * the player's time budget spent. */
int ai_should_stop(carc_player *p, double start);

/* Sorts `evals` best first by margin, then win, then visits. */
void ai_sort_evals(carc_move_eval *evals, int n);
/* Whether `a` comes before `b` in an order of evaluations. */
typedef int (*ai_eval_order)(const carc_move_eval *a, const carc_move_eval *b);
/* Sorts `evals` so that each comes before the next or ties with it in the
 * order `better`; stable (tied evaluations keep their order). */
void ai_sort_evals_by(carc_move_eval *evals, int n, ai_eval_order better);
/* The order of the margins alone, higher first (sorted with ai_sort_evals_by,
 * ties keep their order). */
int ai_higher_margin(const carc_move_eval *a, const carc_move_eval *b);

#endif
