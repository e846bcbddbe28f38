/* exact.h: the exact endgame solver inside the library (exact.c). */
#ifndef CARC_AI_EXACT_H
#define CARC_AI_EXACT_H

#include <stdatomic.h>
#include <stdint.h>

#include "carcassonne_ai.h"

/* What one solve may spend: 0 means no limit. `stop` (may be NULL) is a
 * flag another thread may set to end the solve at once. `threads` (0 or
 * 1: one) solve the root's moves side by side, each thread taking the
 * next move not yet taken, with a table of its own: only with
 * AI_EXACT_ALL_MOVES, where every root move is searched with the whole
 * window, so the margins are the same whatever thread searched a move. */
typedef struct ai_exact_budget {
    uint64_t nodes;
    double seconds;
    atomic_int *stop;
    int threads;
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

/* The most tiles left to draw with which a player with the solver
 * (mcts:exact=1, the strongest level) tries it: 4 with two players, 3
 * with three, 2 with more. Beyond those, base-game solves mostly outlast
 * the solver's half of a 10 s move (docs/arena.md), and a solve that runs
 * out gives the search only the half left. */
int ai_exact_endgame_tiles(int players);

/* Whether a last tile placed without a figure on a square where
 * ai_square_cold() holds leaves every final score as it would be with the
 * tile never placed (carc_game_finish), and the last tile's final scores
 * are those of the game ended before it with ai_end_change() and the
 * figure's ai_end_worth() added: a game without expansions, whose only
 * figure is the follower and whose final scoring is a sum over features
 * (not the first edition's farms), and without the house rules that let
 * the table's edge close features or a last tile give another turn. */
int ai_quiet_squares(const carc_game *g);

/* The solver's probes of a position, which read the game's state
 * (exact_layout.c, built once per layout):
 *
 * ai_square_cold: whether the drawn tile placed at the empty square (x,
 * y) without a figure, as the game's last tile, would leave every final
 * score as it is, whatever the placement: no follower stands on a
 * feature of the four neighbours' edges that face the square (farms may
 * merge under one farmer, unless a free farm there borders a completed
 * city), no cloister with a follower is among the eight squares around,
 * and no city there has all its open edges facing the square. Asked only
 * in games where ai_quiet_squares() holds. Conservative: 0 when in
 * doubt.
 *
 * ai_place_only: puts the drawn tile at the legal placement `p` and joins
 * its features, its cloister counted, and does nothing else: no figure, no
 * scoring, no turn, no draw (the open cloisters around count it). The
 * game is then fit only for queries of its board (carc_game_feature,
 * carc_game_feature_info, carc_game_tile_*, the probes below): what a
 * figure would be worth there, and what the placement changes, without
 * playing the last tile and the final scoring it brings. */
int ai_square_cold(const carc_game *g, int x, int y);
void ai_place_only(carc_game *g, carc_placement p);
/* ai_end_change: what placing the tile changes in the final scoring, when
 * `alone` is `g` with the drawn tile placed alone (ai_place_only): into
 * `change`, each player's final score after that placement played (no
 * figure) and the game ended, less its final score with `g` ended as it
 * is. It values again only what the tile can change (the features it
 * joins, the cloisters around it, the farms of a city it completes), so
 * it holds where the final scoring is a sum over features
 * (ai_quiet_squares()). 0, with `change` untouched, when too many
 * features are involved. */
int ai_end_change(const carc_game *g, const carc_game *alone, int change[CARC_MAX_PLAYERS]);
/* ai_end_worth: carc_feature.value_at_end of `feature` (a root, as
 * carc_game_feature gives it) without the rest of carc_game_feature_info,
 * which walks a farm twice. */
int ai_end_worth(const carc_game *g, int feature);
/* ai_figure_end_worth: what a figure on `segment` of the tile placed last
 * in `g` (played, or placed alone) would score at the end: the final
 * worth of the feature the segment joins; 0 for CARC_NO_SPOT. */
int ai_figure_end_worth(const carc_game *g, int segment);

#endif
