/* ai.h: what the computer players share inside the library. */
#ifndef CARC_AI_H
#define CARC_AI_H

#include <stdatomic.h>
#include <stdint.h>

#include "carcassonne.h"
#include "carcassonne_ai.h"
#include "eval.h"

typedef enum ai_kind {
    AI_RANDOM,
    AI_GREEDY,
    AI_MCTS,
    AI_VANILLA_MCTS,
    AI_STAR25,
} ai_kind;

/* Options of a player spec; 0 means "the kind's default". */
typedef struct ai_options {
    int ms;         /* time budget per move */
    uint64_t iters; /* iteration budget per move */
    int threads;    /* worker threads */
    int depth;      /* star25: search depth in plies */
    int probe;      /* star25: probing factor */
    double c;       /* exploration constant */
    double own;     /* mcts: weight of the player's own score beside its margin */
    double win;     /* mcts: weight of the chance to win in the reward */
    /* 0: the kind's default (greedy: basic, mcts: full), 1: basic
     * (carc_evaluate), 2: full (ai_evaluate_full) */
    int eval;
    int exact; /* mcts: the exact endgame solver in the last turns (exact.c) */
    /* mcts, hand=N: 1 searches the information sets (each player below the
     * root chooses among its held tiles), 0 (the default) plays the first
     * tile held */
    int ismcts;
    /* mcts: the .carcnet file of a learned network (net=FILE; "" none), the
     * weight of its value beside the evaluation's (blend, 0..1) and the
     * weight of its priors at the root (puct, PUCT's constant) */
    char net[104];
    double blend;
    double puct;
} ai_options;

enum { AI_EVAL_DEFAULT = 0, AI_EVAL_BASIC = 1, AI_EVAL_FULL = 2 };

struct carc_player {
    ai_kind kind;
    ai_options opt;
    uint64_t seed;
    carc_rng rng;
    atomic_int stop; /* set by carc_player_stop() */
    carc_net *net;   /* opt.net read, owned; NULL without one */
    char spec[256];
};

/* The evaluation player `p` uses: its eval option, else its kind's default
 * (mcts: full, the others: basic). */
ai_evaluation ai_player_evaluation(const carc_player *p);

/* Each kind ranks the legal moves of `g`, best first, into `out` (up to
 * `cap`), and returns how many it wrote; `info` is never NULL. */
int ai_random_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                   carc_search_info *info);
int ai_greedy_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                   carc_search_info *info);
int ai_mcts_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                 carc_search_info *info);
int ai_vanilla_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                    carc_search_info *info);
int ai_star25_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                   carc_search_info *info);

/* The legal placements of the drawn tile of `g` (`out` has room for
 * CARC_MAX_PLACEMENTS) at their canonical rotations, the placements of
 * carc_legal_moves() (carc_move_canonical()): without the rotations of a
 * symmetric tile that repeat a lower rotation on the same square. */
int ai_legal_placements(const carc_game *g, carc_placement *out);
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
/* Whether a search that started at `start` must stop: a stop request or
 * the player's time budget spent. */
int ai_should_stop(carc_player *p, double start);

/* Bytes of one state of a game like `g` (same expansions). */
static inline size_t ai_state_bytes(const carc_game *g)
{
    carc_rules rules = carc_game_rules(g);
    return carc_game_size(&rules);
}

/* Sorts `evals` best first by margin, then win, then visits. */
void ai_sort_evals(carc_move_eval *evals, int n);
/* Whether `a` comes before `b` in an order of evaluations. */
typedef int (*ai_eval_order)(const carc_move_eval *a, const carc_move_eval *b);
/* Sorts `evals` so that each comes before the next or ties with it in the
 * order `better`; stable (tied evaluations keep their order). */
void ai_sort_evals_by(carc_move_eval *evals, int n, ai_eval_order better);

#endif
