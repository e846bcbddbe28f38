/* carcassonne_ai.h: computer players and move analysis.
 *
 * A player is made from a spec string, the same in every front end:
 *
 *   random                  a uniformly random legal move
 *   greedy                  the best move by one-ply evaluation
 *   mcts                    Monte Carlo tree search, level "normal"
 *   mcts:level=NAME         easy, normal, hard, strongest
 *   mcts:ms=1000            a time budget per move in milliseconds
 *   mcts:iters=20000        an iteration budget per move (deterministic)
 *   mcts:threads=2          worker threads (default: 2)
 *   mcts:exact=1            the exact endgame solver (carc_exact_rank) in the
 *                           last turns, with half the time per move
 *                           (level strongest sets it)
 *   mcts:net=FILE           guided by a learned network (.carcnet; net=default:
 *                           the one committed in data/nets/): its priors at
 *                           the root (PUCT, constant puct=1), its value
 *                           blended into the evaluation (blend=0.5)
 *   vanilla-mcts            the UCT baseline of Ameneyro et al. 2020
 *   star25                  the Star2.5 expectimax baseline of Heyden 2009
 *
 * Options follow the ':' and are joined by commas or plus signs, the same
 * player either way: "mcts:ms=500,threads=1" or "mcts:ms=500+threads=1"
 * (the '+' lets a list of players separate its players by commas; `play
 * --players` also takes "human,mcts:ms=500,threads=1": a "key=value" piece
 * with no ':' continues the player before it). A player never
 * looks at the hidden order of the pile: searches reshuffle the tiles left
 * (carc_game_shuffle_hidden) and see only the drawn tile and the counts.
 * For a given seed and an iteration budget a player's moves are fully
 * determined, whatever the number of threads.
 */
#ifndef CARCASSONNE_AI_H
#define CARCASSONNE_AI_H

#include <stddef.h>
#include <stdint.h>

#include "carcassonne.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct carc_player carc_player;

/* Creates a player from `spec` with random decisions drawn from `seed`.
 * Returns NULL on a bad spec or when out of memory, with a message in
 * `err` (may be NULL) of `errcap` bytes. Free with carc_player_free(). */
carc_player *carc_player_new(const char *spec, uint64_t seed, char *err, size_t errcap);
void carc_player_free(carc_player *p);
/* The spec of `p` with every option spelled out ("mcts:ms=1000,threads=2"). */
const char *carc_player_spec(const carc_player *p);
/* Seeds the player's random decisions again. */
void carc_player_reseed(carc_player *p, uint64_t seed);

/* What a player found while choosing a move. */
typedef struct carc_search_info {
    uint64_t iterations; /* search iterations (0 for random and greedy) */
    double seconds;      /* wall time spent */
    double margin;       /* expected final margin of the chosen move:
                            the mover's score minus the best other
                            score; 0 when the player has no estimate */
    double win;          /* estimated chance to win, 0..1 (ties half) */
    size_t memory_bytes; /* peak memory of the search */
} carc_search_info;

/* Chooses a move for the current player of `g` (which must not be over)
 * and writes it to `*out`; the move is always legal (a discard when the
 * drawn tile fits nowhere). `info` may be NULL. One call at a time per
 * player; different players may choose in different threads at once. */
carc_status carc_player_choose(carc_player *p, const carc_game *g, carc_move *out,
                               carc_search_info *info);

/* Asks a running carc_player_choose() or carc_player_rank() of `p` to
 * return as soon as it can, with the best move found so far. Safe to call
 * from any thread; the request is cleared when the next call starts. */
void carc_player_stop(carc_player *p);

/* A legal move with its estimated worth for the player to move. */
typedef struct carc_move_eval {
    carc_move move;
    double margin;   /* expected final margin (mover minus best other) */
    double win;      /* estimated chance to win, 0..1 (ties half) */
    uint32_t visits; /* how much search went into the estimate */
} carc_move_eval;

/* Ranks the legal moves of the current player of `g`, best first, with the
 * player's own budget, and writes up to `cap` of them into `out`; returns
 * how many were written (0 when the game is over). Search players estimate
 * with their search; greedy and random players with their evaluation (their
 * `win` is 0.5 and `margin` the one-ply estimate). `info` may be NULL. */
int carc_player_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                     carc_search_info *info);

/* --- The exact endgame solver ------------------------------------------------ */

enum {
    /* The solver refuses at once a pile of more tiles than this (the drawn
     * tile not included): no budget would let it finish. */
    CARC_EXACT_MAX_TILES = 12,
    CARC_EXACT_MAX_THREADS = 64, /* carc_exact_rank_threads() */
};

/* What carc_exact_rank() did. */
typedef struct carc_exact_info {
    int exact;           /* 1: every margin written is exact; 0: none written */
    int tiles_left;      /* tiles in the pile, the drawn tile not included */
    uint64_t nodes;      /* positions searched (decisions and final positions) */
    double seconds;      /* wall time spent */
    size_t memory_bytes; /* peak memory of the solve */
    char reason[160];    /* why the solve gave up ("" when exact) */
} carc_exact_info;

/* Ranks every legal move of the current player of `g` by its exact
 * expected final margin (the mover's final score minus the best other's),
 * best first (ties in the order of carc_legal_moves()), into `out` (up to
 * `cap`), and returns how many it wrote. The expectation is over the tiles
 * still to come, each draw uniform over the tiles left (a kind with
 * probability count / total), the drawn tile known; a tile that fits
 * nowhere is discarded and the same player draws again, as the rules say.
 * Two players each maximise their own margin (a zero-sum game); with three
 * or more, each player maximises its own margin too (max-n, ties broken
 * in the order of carc_legal_moves()). Returns 0 with info->exact 0 and a
 * reason when the game is over, when its rules hide tiles or change the
 * draws (hand=N, reshuffle), when the pile holds more than
 * CARC_EXACT_MAX_TILES tiles, or when the solve needed more than
 * `max_nodes` positions or `ms` milliseconds (each 0: no limit). `info`
 * may be NULL. The `win` of each move is 0.5 (no estimate) and `visits`
 * the positions searched under it. Allocates its table for the call only. */
int carc_exact_rank(const carc_game *g, uint64_t max_nodes, int ms, carc_move_eval *out, int cap,
                    carc_exact_info *info);

/* carc_exact_rank() on `threads` threads (1 to CARC_EXACT_MAX_THREADS):
 * each takes the next root move not yet taken and solves it with a table
 * of its own, so the margins are the same as on one thread; the positions
 * searched (info->nodes, each move's `visits`) and the memory (each
 * thread's table and plies) differ. `max_nodes` counts every thread's
 * positions together, checked every 1,024 positions a thread. Another
 * number of threads gives 0 with info->exact 0 and the reason. */
int carc_exact_rank_threads(const carc_game *g, uint64_t max_nodes, int ms, int threads,
                            carc_move_eval *out, int cap, carc_exact_info *info);

/* The static evaluation used by greedy and as the searches' heuristic:
 * the expected final score of each player if the game went on from `g`
 * (points scored plus what open features and farms will likely bring,
 * plus the worth of followers kept). Writes players() values into `out`. */
void carc_evaluate(const carc_game *g, double out[CARC_MAX_PLAYERS]);

/* --- The learned network (.carcnet) ------------------------------------------ */

/* A policy-value network read from a .carcnet file (docs/learning.md
 * describes the file byte by byte and every input). The value head
 * estimates the final margin (the viewer's score minus the best other's)
 * of a position from the side of the player to move; the policy head gives
 * each legal move a logit (a softmax over a position's moves is its
 * prior). A network is read-only once made: many players and threads may
 * share one. The player spec "mcts:net=FILE" searches with one. */
typedef struct carc_net carc_net;

enum {
    CARC_NET_POSITION_INPUTS = 32, /* inputs of a position (the value head) */
    CARC_NET_MOVE_INPUTS = 138,    /* inputs of a move (the policy head) */
    CARC_NET_MAX_BYTES = 4 << 20,  /* the largest .carcnet file read */
};

/* Makes a network from the `size` bytes of a .carcnet file at `data`.
 * Returns NULL when the bytes are not a valid .carcnet file of this
 * library's inputs (wrong magic, version, inputs, shapes, a value that is
 * not finite, truncated, trailing bytes or a wrong checksum) or when out
 * of memory, with a message in `err` (may be NULL) of `errcap` bytes.
 * Free with carc_net_free(). */
carc_net *carc_net_read(const void *data, size_t size, char *err, size_t errcap);
/* carc_net_read() of the file at `path`; its message names the file. */
carc_net *carc_net_load(const char *path, char *err, size_t errcap);
void carc_net_free(carc_net *net);

/* The inputs of `g` (not over) from the side of its player to move into
 * `position`, and those of `moves[0 .. n)` (legal moves of `g`, as
 * carc_legal_moves() writes them) into `move_inputs`, n rows of
 * CARC_NET_MOVE_INPUTS (may be NULL when n is 0). Allocates a scratch game
 * for the call. CARC_EINVAL when `g` is over or a move is not legal,
 * CARC_ENOMEM when out of memory. */
carc_status carc_net_inputs(const carc_game *g, float position[CARC_NET_POSITION_INPUTS],
                            const carc_move *moves, int n, float *move_inputs);
/* The value head on a position's inputs: the expected final margin of the
 * player to move, in points. */
double carc_net_value(const carc_net *net, const float position[CARC_NET_POSITION_INPUTS]);
/* The policy head on `n` rows of move inputs: one logit each into
 * `logits`. */
void carc_net_policy(const carc_net *net, const float *move_inputs, int n, float *logits);

#ifdef __cplusplus
}
#endif

#endif
