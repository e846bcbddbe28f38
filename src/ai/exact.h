/* exact.h: the exact endgame solver inside the library (exact.c). */
#ifndef CARC_AI_EXACT_H
#define CARC_AI_EXACT_H

#include <stdatomic.h>
#include <stdint.h>

#include "carcassonne_ai.h"

/* What one solve may spend: 0 means no limit. `stop` (may be NULL) is a
 * flag another thread may set to end the solve at once. */
typedef struct ai_exact_budget {
    uint64_t nodes;
    double seconds;
    atomic_int *stop;
} ai_exact_budget;

/* How much of the root the solve must settle. */
typedef enum ai_exact_goal {
    AI_EXACT_ALL_MOVES, /* every root move's exact margin (analysis) */
    AI_EXACT_BEST_MOVE, /* the best move's exact margin; the others only
                           bounded from above (a player's choice) */
} ai_exact_goal;

/* carc_exact_rank() with a budget and a goal: the mover's moves of `g`
 * with their exact expected final margins, best first, into `out` (up to
 * `cap`); returns how many were written, 0 with info->exact = 0 and the
 * reason when the position is not supported or the budget ran out. With
 * AI_EXACT_BEST_MOVE, out[0] is exact and the others' margins are upper
 * bounds of their values (never above out[0]'s). `info` is never NULL. */
int ai_exact_rank(const carc_game *g, const ai_exact_budget *budget, ai_exact_goal goal,
                  carc_move_eval *out, int cap, carc_exact_info *info);

#endif
