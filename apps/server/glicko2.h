/* glicko2.h: players' ratings by the Glicko-2 system (Glickman, "Example
 * of the Glicko-2 system"): one rating period's update, the growth of an
 * idle player's RD, a finished game of 2 to 8 players as pairwise results,
 * the rating categories and the computer players' fixed ratings
 * (docs/ratings.md). Pure: no I/O, no state. */
#ifndef CARC_SERVER_GLICKO2_H
#define CARC_SERVER_GLICKO2_H

#include <stddef.h>

#include "carcassonne.h"

/* The system's constants. A new player starts at GLICKO2_START_RATING with
 * RD GLICKO2_START_RD and volatility GLICKO2_START_VOLATILITY; an RD never
 * grows past GLICKO2_MAX_RD; GLICKO2_TAU is the server's τ, the constraint
 * on how fast a volatility changes (the paper suggests 0.3 to 1.2). */
#define GLICKO2_START_RATING 1500.0
#define GLICKO2_START_RD 350.0
#define GLICKO2_START_VOLATILITY 0.06
#define GLICKO2_MAX_RD 350.0
/* A rating whose RD is over this is provisional: shown with a '?', kept
 * off leaderboards (as lichess does). */
#define GLICKO2_PROVISIONAL_RD 110.0
#define GLICKO2_TAU 0.5

enum { GLICKO2_MAX_PLAYERS = 8 };

/* A player's rating on the Glicko scale (the scale of Elo: 1500 the
 * start): rating r, rating deviation RD (one standard deviation of the
 * estimate) and volatility σ. */
typedef struct glicko2_rating {
    double rating;
    double rd;
    double volatility;
} glicko2_rating;

/* One game of a rating period from the rated player's view: the opponent's
 * rating and RD before the period, and the player's score (1 a win, 0.5 a
 * draw, 0 a loss). */
typedef struct glicko2_result {
    double rating;
    double rd;
    double score;
} glicko2_result;

/* A new player: 1500, RD 350, volatility 0.06. */
glicko2_rating glicko2_new_player(void);

/* One rating period (the paper's steps 2 to 8) for a player who played the
 * `count` games of `results` (count >= 1), with the system constant `tau`
 * (> 0; GLICKO2_TAU for the server's). Writes the rating after the period
 * into `*player`. The volatility is found by the Illinois algorithm to
 * 1e-6 (step 5). -1 and `*player` unchanged for a bad argument (no
 * results, a score outside 0..1, an RD or volatility not positive). */
int glicko2_update(glicko2_rating *player, const glicko2_result *results, size_t count, double tau);

/* A player who played no game in `periods` whole rating periods: for each,
 * the paper's step 6, φ' = sqrt(φ² + σ²), the rating and volatility kept;
 * the RD never grows past GLICKO2_MAX_RD. */
glicko2_rating glicko2_idle(glicko2_rating player, unsigned periods);

/* A finished game of `players` seats (2..GLICKO2_MAX_PLAYERS) as pairwise
 * results: every two seats count as one game between them, won by the
 * higher final score of `scores`, a draw when the scores are equal; a
 * seat that left the game (a bit of `forfeited` set, 1u << seat: a clock
 * forfeit or a resign; 0 for none) loses to every seat that did not,
 * whatever the scores, and two seats that both left are compared by their
 * scores. Writes into scores_against[i][j]
 * the score of seat i against seat j (1, 0.5 or 0; 0.5 on the diagonal,
 * which is never used). -1 for a bad argument. */
int glicko2_pairwise(int players, const int *scores, unsigned forfeited,
                     double scores_against[GLICKO2_MAX_PLAYERS][GLICKO2_MAX_PLAYERS]);

/* Seat `seat`'s results of a finished game: one glicko2_result against
 * each other seat, in seat order, from the seats' ratings before the game
 * (`seats`, `players` of them) and the pairwise scores of
 * glicko2_pairwise(). Writes players - 1 results into `out` and returns
 * their count; -1 for a bad argument. */
int glicko2_game_results(int players, const int *scores, unsigned forfeited,
                         const glicko2_rating *seats, int seat,
                         glicko2_result out[GLICKO2_MAX_PLAYERS - 1]);

/* Rates a finished game as one rating period for each of its players:
 * every seat whose `fixed[seat]` is 0 (all of them when `fixed` is NULL)
 * is updated from its results against all the others, computed from the
 * ratings every seat had before the game; a fixed seat (a computer player
 * with a calibrated rating) is an opponent only and keeps its rating.
 * `seats` holds the ratings before the game and receives those after it.
 * -1 and `seats` unchanged for a bad argument. */
int glicko2_rate_game(int players, const int *scores, unsigned forfeited, glicko2_rating *seats,
                      const int *fixed, double tau);

/* The rating categories: a player has one rating in each category they
 * played. A "base" game is the base game under the standard rules (no
 * expansion, no rule variant, no house rule); any of them makes the
 * "variants" category. */
typedef enum glicko2_category {
    GLICKO2_DUEL,           /* "duel": two players, the base game */
    GLICKO2_DUEL_VARIANTS,  /* "duel-variants": two players, any expansion or rule */
    GLICKO2_MULTI,          /* "multi": 3 to 8 players, the base game */
    GLICKO2_MULTI_VARIANTS, /* "multi-variants": 3 to 8 players, any expansion or rule */
    GLICKO2_CATEGORIES
} glicko2_category;

/* The category's name in the API ("duel", ...); NULL for a value out of
 * range. */
const char *glicko2_category_name(glicko2_category category);
/* The category of a name of glicko2_category_name(); -1 for an unknown
 * name. */
int glicko2_category_parse(const char *name);
/* The category of a table of `players` seats (2..GLICKO2_MAX_PLAYERS)
 * played under `rules`; -1 for another number of players or a NULL
 * `rules`. */
int glicko2_category_of(int players, const carc_rules *rules);

/* The fixed rating of a computer player the server offers, from its spec:
 * "random", "greedy", "mcts:level=easy", "mcts:level=normal" (also
 * "mcts"), "mcts:level=hard" (a "threads=N" option is allowed: the server
 * runs its players on one thread, as the calibration did); -1 for any
 * other spec (a budget of its own, another evaluation, a human, NULL).
 * When `rd` is not NULL it receives the RD the rating is given with: the
 * calibration's uncertainty (docs/ratings.md, "Computer players' fixed
 * ratings"). */
double glicko2_computer_rating(const char *spec, double *rd);

#endif
