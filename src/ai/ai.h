/* ai.h: a computer player inside the library: its kind, its options and
 * what it owns. player.c makes it and picks the strategy; the strategies
 * read it. */
#ifndef CARC_AI_H
#define CARC_AI_H

#include <stdatomic.h>
#include <stdint.h>

#include "carcassonne.h"
#include "carcassonne_ai.h"

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
    int deep; /* mcts with net: 1 steers the placement nodes below the root by PUCT too */
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

#endif
