/* mcts.c: the flagship player: Monte Carlo tree search with chance nodes.
 *
 * The tree has three kinds of nodes (four in a hand game, below). A placement node belongs to the
 * player to move with a known tile; its options are the legal placements.
 * Each placement leads to a spot node whose options are "no follower" and
 * the legal follower spots; placement and follower are searched as two
 * levels. A spot option leads to a chance node, whose children are keyed by
 * the next tile drawn. Without a hand the only hidden information is the
 * order of the pile: every iteration copies the root position, reshuffles the
 * tiles left (the drawn tile stays known) and follows the chance child of
 * the tile that sampled deck draws, so each chance child is reached with
 * the true probability of its tile.
 *
 * Hand games (hand=N) are searched, with the spec's ismcts=1, over
 * information sets (determinized ISMCTS, Cowling, Powley and Whitehouse
 * 2012). The root is the seat's
 * view (player.c): its own hand, the others' dealt at random. Each
 * iteration deals the hidden hands and the pile again
 * (carc_game_shuffle_hidden), so a node stands for every deal that agrees
 * with the moves that led to it, not for one deal. The root holds the
 * placements of every tile the player holds. Below it a chance node has a
 * single child, a hand node, whose options are the tile kinds: the player
 * to move chooses one of the tiles it holds in this iteration's deal, then
 * a placement of that tile (a placement node per kind), then a figure.
 * A tile is held in some deals only, so its UCB1 counts the visits in
 * which it was available instead of all the node's visits. A hand node
 * has an option per tile kind of the game (24 in the base game), used or
 * not, and its chance node one child instead of one per kind. By default
 * (ismcts=0) a hand game is searched as before: below the root each
 * player plays the first tile of its hand, the chance child keyed by it.
 *
 * Selection is UCB1 on rewards tanh(utility / scale) of the player to
 * move. The utility is the player's margin plus `own` times its own score
 * gained since the root: a player that values only its margin harms the
 * others as gladly as it grows, and such players score less. With `win`
 * above 0 the reward is mixed with a term for winning (see rewards).
 * Progressive widening at placement nodes: with N visits only the first
 * 2 + 1.5 sqrt(N) placements are open, best first by the one-ply
 * evaluation of the placement without a follower (at the root, with its
 * best follower choice; the root's spots are ordered too). A new node is
 * valued by the static evaluation, which estimates final scores: the full
 * one (ai_evaluate_full) unless the spec says eval=basic (carc_evaluate).
 * In the last tiles a leaf is valued by random playouts to the end, which
 * are short and exact there. With one tile left in the pile, the remaining
 * draws and moves are searched exhaustively instead.
 *
 * The static value of a position depends on the tiles still to come, not
 * on their order nor on the tile drawn next, so it is worked out once: a
 * chance node keeps the value of its position for the new placement nodes
 * below it, and the placement order's evaluations are kept for the first
 * visit of each placement (which plays it without a follower). That
 * saves about a fifth of the evaluations and changes no move.
 *
 * With a learned network (net=FILE, net.c, docs/learning.md) the root
 * and its figure nodes select by PUCT with the policy head's priors
 * instead of UCB1 with widening, and the margin of every value a leaf
 * takes (and of the root's moves) is moved towards the value head's
 * estimate by the weight `blend` (two players); the placement order below
 * the root ranks by the evaluation alone.
 * With deep=N the placement nodes below the root select by PUCT too, from
 * their N-th visit, with the policy's priors over their placements.
 *
 * Threads: each thread grows its own tree from its own seed (root
 * parallelism) and the root statistics are summed. With an iteration
 * budget the split between threads is fixed, so the move depends only on
 * the seed. Each tree stops growing at its share of the search's room
 * (search_memory: more for a longer search) and then keeps evaluating
 * leaves. */
#include <assert.h>
#include <math.h>
#include <pthread.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "ai.h"
#include "eval.h"
#include "exact.h"
#include "mcts.h"
#include "net.h"
#include "search.h"

enum { NODE_PLACE, NODE_SPOT, NODE_HAND }; /* a chance node has no header */

enum {
    MAX_DEPTH = 3 * CARC_MAX_TILES + 4,
    MAX_THREADS = 64,
    ROOT_SPOTS = 1 + CARC_MAX_FIGURE_MOVES, /* options of a spot node */
    /* All trees of one search at least; a growing array is copied, so
     * peak use can reach half as much again: still under 256 MiB. A longer
     * search gets more (search_memory). */
    MEMORY_CAP = 160 * 1024 * 1024,
    EXACT_LEAVES = 500 * 1000, /* largest exhaustive endgame */
    PLAYOUT_TAIL = 4,          /* playouts when this few tiles are left */
};

/* Tuning of the search. */
static const double reward_scale = 15.0; /* points of margin for tanh */
static const double widen_base = 2.0, widen_rate = 1.5;
static const double win_scale = 6.0; /* margin of a 73% win estimate */
/* The win term's margin scale (`win`): 3 points plus 0.25 a tile left. */
static const double win_spread_base = 3.0, win_spread_tile = 0.25;
static const unsigned expand_visits = 1; /* leaf visits before a placement node opens */

/* An option of a placement, spot or hand node. A hand node's option k
 * is the held tile of kind k; instead of a square it counts the visits of
 * the node in which that tile was held (`available`). */
typedef struct option {
    union {
        struct {
            int8_t x, y;
            uint8_t rot;
            uint8_t seg; /* spot nodes: a figure move's spot_code(), or CARC_NO_SPOT */
        };
        uint32_t available;
    };
    /* The child node. Before the first visit -1, or, for a placement below
     * the root, -2 - k: score record k holds its one-ply value. */
    int32_t child;
    uint32_t visits;
    float reward; /* sum of the rewards of the node's player */
} option;

/* The header of a placement, spot or hand node; its options follow it in
 * the tree's blocks. */
typedef struct node {
    uint8_t type;
    uint8_t player;
    uint8_t expanded; /* has its options */
    uint8_t discard;  /* placement node whose tile fits nowhere */
    uint16_t nopts;
    /* Options [0 .. tried) have been visited: select_option looks for
     * the first one not yet visited from there. */
    uint16_t tried;
    uint32_t visits;
    /* A placement node below the root with the network's priors (deep=N):
     * the first of its options' priors in the tree's `priors`, else -1. */
    int32_t priors;
} node;

/* The tree is one array of 16-byte blocks, and a node is the index of its
 * first block. A placement, spot or hand node is its header and then its
 * options, a block each: what a selection reads at a node is in one place
 * (a level of the descent waited on a cache miss for the header and another
 * for the options when they were two arrays). A placement or hand node
 * below the root is made as a header alone, valued once as a leaf, and
 * moved to new blocks with its options when it opens (its parent's link
 * follows; the old header is left unused). A chance node has no
 * header (what lies below it says its type): its children, one per tile
 * kind the deal can draw (`kinds`), then whether it has its value, then the
 * value (a score record inside the node). */
typedef struct block {
    _Alignas(16) unsigned char bytes[16];
} block;

static_assert(sizeof(node) == sizeof(block) && sizeof(option) == sizeof(block),
              "a node header and an option are one block each");

/* Score records keep static values of positions, every player's expected
 * final score (`players` doubles a record), which are the same in every
 * sampled deck: the evaluation reads which tiles are still to come, never
 * their order. They serve two kinds of position:
 * - a chance node's (inside the node): a new placement node below it has
 *   that position too and takes the value from there;
 * - each placement of an expanded node below the root, as the placement
 *   order evaluated it (in `scores`): its first visit ("no follower")
 *   reaches that position again. */
typedef struct tree {
    block *mem;
    double *scores;
    float *priors; /* placement nodes' priors (deep=N), in their options' order */
    size_t nblocks, nscores, npriors;
    size_t cap_blocks, cap_scores, cap_priors;
    int players;
    int kinds;    /* a chance node's children (1 in a hand game's search) */
    size_t limit; /* bytes this tree may use */
} tree;

/* The root, shared read-only by the threads. */
typedef struct root_info {
    const carc_game *game;
    ai_evaluation evaluate;
    int player, players;
    int nplaces;
    carc_placement places[CARC_MAX_PLACEMENTS]; /* best prior first */
    /* spots of each placement: "no follower" first, then by prior */
    uint8_t nspots[CARC_MAX_PLACEMENTS];
    uint8_t spots[CARC_MAX_PLACEMENTS][ROOT_SPOTS];
    float prior[CARC_MAX_PLACEMENTS][ROOT_SPOTS]; /* greedy utilities */
    /* A hand game's root has the placements of every tile held (each
     * with its `tile`) and, for a tile that fits nowhere, its discard: an
     * option without spots whose `discard` is set. */
    uint8_t discard[CARC_MAX_PLACEMENTS];
    /* The search maximises each player's utility: its margin plus `own`
     * times its own score, less that of the root position (`base`). */
    double own;
    double base[CARC_MAX_PLAYERS];
    double win; /* weight of the win term in the reward (see rewards) */
    /* Hand nodes below the root (a hand game, unless ismcts=0); else each
     * player there plays the tile in focus, the first of its hand. */
    int hands;
    /* A chance node's children: one per tile kind up to the highest that
     * can still be drawn (1 with hand nodes). */
    int kinds;
    /* Whether every deal that follows a path down the tree reaches the
     * same position (a game without hands: the chance nodes name the tile
     * drawn), so that a node's options, listed in one deal, are legal in
     * all and are played unchecked (play_option). */
    int same_positions;
    /* With a learned network (net=FILE): its value blended into every
     * evaluation with weight `blend` (two players), and its priors steering
     * the root by PUCT with constant `puct`: each placement's (the sum over
     * its spots) and each spot's given its placement. `logit` is the
     * policy head's, kept beside `prior` while the root is sorted. */
    const carc_net *net;
    double blend, puct;
    /* With deep > 0 the policy's priors steer the placement nodes below the
     * root too, from their deep-th visit: most nodes are seen a few times
     * only, and the policy head costs more than evaluating every placement. */
    int deep;
    float logit[CARC_MAX_PLACEMENTS][ROOT_SPOTS];
    float place_prior[CARC_MAX_PLACEMENTS];
    float spot_prior[CARC_MAX_PLACEMENTS][ROOT_SPOTS];
} root_info;

/* Sums over the iterations that began with a root move. */
typedef struct root_stat {
    uint32_t visits;
    double margin, win;
} root_stat;

typedef struct search {
    carc_player *player;
    const root_info *root;
    carc_game *work;
    carc_game *scratch; /* for ordering placements */
    carc_rng rng;
    tree tree;
    uint64_t budget; /* iterations, or 0 for the time budget */
    uint64_t iterations;
    double start;
    double c;
    root_stat *stats; /* nplaces x ROOT_SPOTS */
} search;

/* Player `p`'s utility of the evaluation `v` (see root_info). */
static double utility(const root_info *ri, const double v[CARC_MAX_PLAYERS], int p)
{
    double u = ai_margin(v, ri->players, p);
    if (ri->own > 0)
        u += ri->own * (v[p] - ri->base[p]);
    return u;
}

/* The reward of each player for a leaf `g` valued `v`: tanh(utility /
 * reward_scale), mixed with weight `win` with a win term: the result
 * (+1, 0, -1) at the end of the game, before it tanh(margin / spread),
 * where the spread of the final margin around the estimate narrows as
 * the tiles run out. */
static void rewards(const root_info *ri, const carc_game *g, const double v[CARC_MAX_PLAYERS],
                    double reward[CARC_MAX_PLAYERS])
{
    for (int p = 0; p < ri->players; p++)
        reward[p] = tanh(utility(ri, v, p) / reward_scale);
    if (ri->win <= 0)
        return;
    int over = carc_game_over(g);
    double spread = win_spread_base + win_spread_tile * carc_game_tiles_left(g, NULL);
    for (int p = 0; p < ri->players; p++) {
        double m = ai_margin(v, ri->players, p);
        double w = !over ? tanh(m / spread) : m > 0 ? 1.0 : m < 0 ? -1.0 : 0.0;
        reward[p] = (1.0 - ri->win) * reward[p] + ri->win * w;
    }
}

/* --- The learned network's value ------------------------------------------------------- */

/* Whether leaves of `g` are valued with the network's help. */
static int net_values(const root_info *ri, const carc_game *g)
{
    return ri->net && ri->blend > 0 && ri->players == 2 && !carc_game_over(g);
}

/* Moves the margin of `v` (values of `g` by the player's evaluation)
 * towards the network's estimate with weight `blend`, the sum of the two
 * values kept; `full` and `terms` are the full evaluation of `g`. */
static void blend_net_value(const root_info *ri, const carc_game *g,
                            const double full[CARC_MAX_PLAYERS],
                            const double terms[CARC_MAX_PLAYERS][AI_TERMS],
                            double v[CARC_MAX_PLAYERS])
{
    int me = carc_game_current_player(g), other = 1 - me;
    float in[CARC_NET_POSITION_INPUTS];
    net_position_inputs(g, me, full, terms, in);
    double shift = ri->blend * (carc_net_value(ri->net, in) - (v[me] - v[other])) / 2.0;
    v[me] += shift;
    v[other] -= shift;
}

/* The player's evaluation of `g`, blended with the network's value. */
static void evaluate_blended(const root_info *ri, const carc_game *g, double v[CARC_MAX_PLAYERS])
{
    if (!net_values(ri, g)) {
        ri->evaluate(g, v);
        return;
    }
    double full[CARC_MAX_PLAYERS], terms[CARC_MAX_PLAYERS][AI_TERMS];
    ai_evaluate_full_terms(g, full, terms);
    if (ri->evaluate == ai_evaluate_full)
        memcpy(v, full, sizeof full);
    else
        ri->evaluate(g, v);
    blend_net_value(ri, g, full, terms, v);
}

/* The player's evaluation of `g`, a child of the position last given to
 * ai_evaluate_full_children (the same values, sooner), without the
 * network: the placement order's. A placement's value gets the network's
 * part only when it becomes a leaf's value (blend_record), since most of
 * the placements ordered are never visited. */
static void evaluate_child(const root_info *ri, const carc_game *g, double v[CARC_MAX_PLAYERS])
{
    if (ri->evaluate == ai_evaluate_full)
        ai_evaluate_full_child(g, v);
    else
        ri->evaluate(g, v);
}

/* `v`, the placement order's value of `g` (evaluate_child), blended with
 * the network's value as evaluate_blended would have it. */
static void blend_record(const root_info *ri, const carc_game *g, double v[CARC_MAX_PLAYERS])
{
    if (!net_values(ri, g))
        return;
    double full[CARC_MAX_PLAYERS], terms[CARC_MAX_PLAYERS][AI_TERMS];
    ai_evaluate_full_terms(g, full, terms);
    blend_net_value(ri, g, full, terms, v);
}

/* --- The tree's storage ---------------------------------------------------------------- */

/* The room of one search's trees, all threads together. A tree that stops
 * growing costs the search much of its strength (docs/players.md,
 * "Memory"), so a longer search gets more: `tree_second` bytes a thread
 * and second of a timed search, `tree_iteration` an iteration of a
 * counted one; at least MEMORY_CAP, which a search of 1 s on two threads
 * (the default player) does not fill, and at most `memory_max` or a
 * quarter of the machine's memory (`physical`, 0 when unknown). */
static const size_t tree_second = (size_t)80 << 20, tree_iteration = 512;
static const size_t memory_max = (size_t)1 << 30;

static size_t search_memory(int ms, uint64_t iters, int threads, uint64_t physical)
{
    double want = ms > 0 ? (double)tree_second * threads * (ms / 1000.0)
                         : (double)tree_iteration * (double)iters;
    double most = (double)memory_max;
    if (physical > 0 && (double)physical / 4 < most)
        most = (double)physical / 4;
    if (want > most)
        want = most;
    return want > MEMORY_CAP ? (size_t)want : MEMORY_CAP;
}

static size_t tree_bytes(const tree *t)
{
    return t->cap_blocks * sizeof(block) + t->cap_scores * sizeof(double) +
           t->cap_priors * sizeof(float);
}

/* Makes room for `more` items in an array of `size`-byte items; 0 when
 * the tree's memory limit or the allocator says no. An array doubles
 * while the limit allows; near the limit it takes half of what is left,
 * so that the tree's other arrays can still grow and the tree fills its
 * room instead of stopping where a doubling no longer fits. */
static int grow(tree *t, void **array, size_t *cap, size_t used, size_t more, size_t size)
{
    if (used + more <= *cap)
        return 1;
    size_t want = *cap ? *cap * 2 : 4096;
    while (want < used + more)
        want *= 2;
    size_t spent = tree_bytes(t);
    size_t left = spent < t->limit ? t->limit - spent : 0;
    if ((want - *cap) * size > left) {
        want = *cap + left / 2 / size;
        if (want < used + more)
            return 0;
    }
    void *bigger = realloc(*array, want * size);
    if (!bigger)
        return 0;
    *array = bigger;
    *cap = want;
    return 1;
}

/* `count` new blocks, zeroed: the first one's index, or -1. */
static int32_t new_blocks(tree *t, size_t count)
{
    if (t->nblocks + count > INT32_MAX ||
        !grow(t, (void **)&t->mem, &t->cap_blocks, t->nblocks, count, sizeof(block)))
        return -1;
    int32_t first = (int32_t)t->nblocks;
    memset(&t->mem[first], 0, sizeof(block) * count);
    t->nblocks += count;
    return first;
}

static node *node_at(const tree *t, int32_t n)
{
    return (node *)&t->mem[n];
}

static option *options_of(const tree *t, int32_t n)
{
    return (option *)&t->mem[n + 1];
}

/* A node with `count` options (none yet: a placement node before it
 * opens), each without a child. */
static int32_t new_node(tree *t, int type, int player, int count)
{
    int32_t n = new_blocks(t, 1 + (size_t)count);
    if (n < 0)
        return -1;
    node *nd = node_at(t, n);
    nd->type = (uint8_t)type;
    nd->player = (uint8_t)player;
    nd->nopts = (uint16_t)count;
    nd->expanded = count > 0;
    nd->priors = -1;
    option *o = options_of(t, n);
    for (int i = 0; i < count; i++)
        o[i].child = -1;
    return n;
}

/* `count` new score records: the first one's index, or -1. */
static int32_t new_records(tree *t, int count)
{
    size_t records = t->nscores / (size_t)t->players;
    size_t more = (size_t)count * (size_t)t->players;
    if (records + (size_t)count > INT32_MAX - 2 ||
        !grow(t, (void **)&t->scores, &t->cap_scores, t->nscores, more, sizeof(double)))
        return -1;
    t->nscores += more;
    return (int32_t)records;
}

/* Room for `count` priors: the first one's index, or -1. */
static int32_t new_priors(tree *t, int count)
{
    if (t->npriors + (size_t)count > INT32_MAX ||
        !grow(t, (void **)&t->priors, &t->cap_priors, t->npriors, (size_t)count, sizeof(float)))
        return -1;
    int32_t first = (int32_t)t->npriors;
    t->npriors += (size_t)count;
    return first;
}

static double *record(tree *t, int32_t k)
{
    return &t->scores[(size_t)k * (size_t)t->players];
}

/* A chance node's blocks: its `kinds` children and the flag "has its
 * value", four to a block, then its value. */
static size_t chance_link_blocks(const tree *t)
{
    return ((size_t)t->kinds + 1 + 3) / 4;
}

static int32_t *chance_kids(const tree *t, int32_t n)
{
    return (int32_t *)&t->mem[n];
}

/* Whether chance node `n` has its value (value_of). */
static int32_t *chance_valued(const tree *t, int32_t n)
{
    return &chance_kids(t, n)[t->kinds];
}

static double *value_of(const tree *t, int32_t n)
{
    return (double *)&t->mem[(size_t)n + chance_link_blocks(t)];
}

/* A chance node without children or value. */
static int32_t new_chance(tree *t)
{
    size_t values = ((size_t)t->players + 1) / 2;
    int32_t n = new_blocks(t, chance_link_blocks(t) + values);
    if (n < 0)
        return -1;
    memset(chance_kids(t, n), 0xFF, sizeof(int32_t) * (size_t)t->kinds); /* all -1 */
    return n;
}

static void tree_free(tree *t)
{
    free(t->mem);
    free(t->scores);
    free(t->priors);
    memset(t, 0, sizeof *t);
}

/* --- Expanding nodes ------------------------------------------------------------------- */

/* Plays option `m` of a node reached in this iteration's deal `g`: where
 * every deal reaches the node's position (same_positions) unchecked, else
 * checked (a hand game: the seats' hands differ from deal to deal).
 * Returns 0 when the move is not legal here. */
static int play_option(const root_info *ri, carc_game *g, carc_move m)
{
    if (ri->same_positions) {
        ai_play_known(g, m);
        return 1;
    }
    return carc_game_play(g, m, NULL, 0, NULL) == CARC_OK;
}

static void net_move(const root_info *ri, const carc_game *g, const carc_game *after, carc_move m,
                     int child, double v[CARC_MAX_PLAYERS], float *logit);

/* Orders the placements of `g` best first by the evaluation of each
 * placed without a follower (ties in random order); `order` receives the
 * new order as indices into `scores`, each placement's evaluation. With
 * `logits` (not NULL), the policy head's logit of each placement without
 * a figure, in the same indices. */
static void order_placements(search *s, const carc_game *g, carc_placement *places, int np,
                             double scores[][CARC_MAX_PLAYERS], int *order, float *logits)
{
    double value[CARC_MAX_PLACEMENTS];
    carc_placement shuffled[CARC_MAX_PLACEMENTS];
    int me = carc_game_current_player(g);
    for (int i = np - 1; i > 0; i--) {
        int j = (int)carc_rng_below(&s->rng, (uint32_t)i + 1);
        carc_placement tmp = places[i];
        places[i] = places[j];
        places[j] = tmp;
    }
    ai_evaluate_full_children(g);
    for (int i = 0; i < np; i++) {
        carc_move m = {CARC_MOVE_PLACE, places[i], CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
        carc_game_copy(s->scratch, g);
        ai_play_known(s->scratch, m); /* g's own placement */
        if (logits)
            net_move(s->root, g, s->scratch, m, 1, scores[i], &logits[i]);
        else
            evaluate_child(s->root, s->scratch, scores[i]);
        value[i] = utility(s->root, scores[i], me);
    }
    for (int i = 0; i < np; i++) {
        int k = i;
        for (; k > 0 && value[order[k - 1]] < value[i]; k--)
            order[k] = order[k - 1];
        order[k] = i;
    }
    memcpy(shuffled, places, sizeof(carc_placement) * (size_t)np);
    for (int i = 0; i < np; i++)
        places[i] = shuffled[order[i]];
}

/* The priors of a node's `count` options, the softmax of `logits` taken
 * in the options' order (`order[i]`: option i's index into `logits`; with
 * `order` NULL, i), in
 * the tree's `priors`: the first one's index, or -2 when the tree has no
 * room (the node then selects by UCB1 with widening). The same numbers as
 * placement_priors works out. */
static int32_t softmax_priors(tree *t, const float *logits, const int *order, int count)
{
    int32_t at = new_priors(t, count);
    if (at < 0)
        return -2;
    float *out = &t->priors[at];
    double top = -1e300, sum = 0.0;
    for (int i = 0; i < count; i++) {
        out[i] = logits[order ? order[i] : i];
        top = fmax(top, (double)out[i]);
    }
    for (int i = 0; i < count; i++) {
        out[i] = (float)exp((double)out[i] - top);
        sum += (double)out[i];
    }
    for (int i = 0; i < count; i++)
        out[i] = (float)((double)out[i] / sum);
    return at;
}

/* Opens placement node `n` (-1: the root, made open): a new node with
 * its options, the root's ordered placements or the legal placements of
 * `g` in random order, and `n`'s visits. Returns the new node, which the
 * caller links in `n`'s place, or -1 when memory is full. */
static int32_t expand_place(search *s, int32_t n, const carc_game *g)
{
    tree *t = &s->tree;
    carc_placement places[CARC_MAX_PLACEMENTS];
    double scores[CARC_MAX_PLACEMENTS][CARC_MAX_PLAYERS];
    int order[CARC_MAX_PLACEMENTS];
    int np, players = s->root->players;
    int32_t known = -1; /* record of the first placement's scores */
    float logits[CARC_MAX_PLACEMENTS];
    int with_priors = 0; /* the node's priors made now (deep=1), from `logits` */
    if (n < 0) {
        np = s->root->nplaces;
        memcpy(places, s->root->places, sizeof(carc_placement) * (size_t)np);
    } else {
        np = ai_legal_placements(g, places);
        with_priors =
            np >= 2 && s->root->net && s->root->deep && (unsigned)s->root->deep <= expand_visits;
        order_placements(s, g, places, np, scores, order, with_priors ? logits : NULL);
        known = new_records(t, np);
        for (int i = 0; i < np && known >= 0; i++)
            memcpy(record(t, known + i), scores[order[i]], sizeof(double) * (size_t)players);
    }
    int player = n < 0 ? s->root->player : node_at(t, n)->player;
    int32_t open = new_node(t, NODE_PLACE, player, np ? np : 1);
    if (open < 0)
        return -1;
    node *nd = node_at(t, open);
    nd->discard = np == 0;
    if (n >= 0) {
        nd->visits = node_at(t, n)->visits;
        nd->priors = node_at(t, n)->priors;
    }
    if (with_priors)
        nd->priors = softmax_priors(t, logits, order, np);
    option *o = options_of(t, open);
    for (int i = 0; i < np; i++) {
        o[i].x = places[i].x;
        o[i].y = places[i].y;
        o[i].rot = places[i].rot;
        if (known >= 0)
            o[i].child = -2 - (known + i);
    }
    return open;
}

/* A figure on a segment as one byte: the segment, the figure above it (a
 * follower's code is its segment, as before figures existed). */
static uint8_t spot_code(const carc_move *m)
{
    return (uint8_t)(m->segment | m->figure << 4);
}

/* The move of placement `p` with spot code `code`. */
static carc_move spot_move(carc_placement p, uint8_t code)
{
    if (code == CARC_NO_SPOT)
        return (carc_move){CARC_MOVE_PLACE, p, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
    return (carc_move){CARC_MOVE_PLACE, p, (uint8_t)(code & 15u), (uint8_t)(code >> 4)};
}

/* A spot node for placement `p` of option `root_index` (-1 below the
 * root): "no figure" first, then the legal figure moves. */
static int32_t make_spot_node(search *s, const carc_game *g, carc_placement p, int root_index)
{
    tree *t = &s->tree;
    uint8_t segs[ROOT_SPOTS];
    int count;
    if (root_index >= 0) {
        count = s->root->nspots[root_index];
        memcpy(segs, s->root->spots[root_index], (size_t)count);
    } else {
        carc_move figures[CARC_MAX_FIGURE_MOVES];
        int ns = carc_legal_figures(g, p, figures, CARC_MAX_FIGURE_MOVES);
        segs[0] = CARC_NO_SPOT;
        for (int i = 0; i < ns; i++)
            segs[i + 1] = spot_code(&figures[i]);
        count = ns + 1;
    }
    int32_t n = new_node(t, NODE_SPOT, carc_game_current_player(g), count);
    if (n < 0)
        return -1;
    option *o = options_of(t, n);
    for (int i = 0; i < count; i++) {
        o[i].x = p.x;
        o[i].y = p.y;
        o[i].rot = p.rot;
        o[i].seg = segs[i];
    }
    return n;
}

/* Opens hand node `n`: a new node with one option per tile kind of the
 * game, each with no visit and never available yet, and `n`'s visits.
 * Returns the new node, which the caller links in `n`'s place, or -1 when
 * memory is full. */
static int32_t expand_hand(search *s, int32_t n)
{
    tree *t = &s->tree;
    int32_t open = new_node(t, NODE_HAND, node_at(t, n)->player, carc_tile_kinds());
    if (open >= 0)
        node_at(t, open)->visits = node_at(t, n)->visits;
    return open;
}

/* --- Selection --------------------------------------------------------------------------- */

/* For the visit counts most nodes have, log(k) and the options a
 * placement node opens, worked out once by the same expressions, so the
 * same numbers (a selection took a log() and a sqrt() a visit). */
enum { VISIT_TABLE = 1024 };
static double log_table[VISIT_TABLE];
static int widen_table[VISIT_TABLE];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static int widening(uint32_t visits)
{
    return (int)(widen_base + widen_rate * sqrt((double)visits));
}

static void tables_init(void)
{
    for (int k = 0; k < VISIT_TABLE; k++) {
        log_table[k] = k ? log((double)k) : 0.0;
        widen_table[k] = widening((uint32_t)k);
    }
}

/* log(n) for n >= 1. */
static double log_visits(uint64_t n)
{
    return n < VISIT_TABLE ? log_table[n] : log((double)n);
}

/* The options a placement node with `visits` visits chooses among: more as
 * it is visited more (progressive widening). */
static int widened(uint32_t visits)
{
    return visits < VISIT_TABLE ? widen_table[visits] : widening(visits);
}

/* UCB1 over a node's open options, an option not yet visited first (in
 * order: the options before `tried` have all been visited, so the look
 * for one starts there, and moves `tried` on). */
static int select_option(search *s, int32_t n)
{
    node *nd = node_at(&s->tree, n);
    int open = nd->nopts;
    if (nd->type == NODE_PLACE) {
        int wide = widened(nd->visits);
        open = wide < open ? wide : open;
    }
    const option *o = options_of(&s->tree, n);
    int untried = nd->tried;
    while (untried < open && o[untried].visits)
        untried++;
    nd->tried = (uint16_t)untried; /* visits only grow */
    if (untried < open)
        return untried;
    double log_n = log_visits((uint64_t)nd->visits + 1);
    int best = 0, i = 0;
    double best_score = -1e300;
#if defined(__SSE2__)
    /* Two options at a time: the same correctly rounded divisions and
     * square roots as below, so the same scores; the dividers are what
     * a wide node waits on. */
    const __m128d log2n = _mm_set1_pd(log_n), c2 = _mm_set1_pd(s->c);
    for (; i + 1 < open; i += 2) {
        __m128d seen = _mm_set_pd((double)o[i + 1].visits, (double)o[i].visits);
        __m128d r = _mm_set_pd((double)o[i + 1].reward, (double)o[i].reward);
        __m128d explore = _mm_mul_pd(c2, _mm_sqrt_pd(_mm_div_pd(log2n, seen)));
        double score[2];
        _mm_storeu_pd(score, _mm_add_pd(_mm_div_pd(r, seen), explore));
        for (int k = 0; k < 2; k++)
            if (score[k] > best_score) {
                best_score = score[k];
                best = i + k;
            }
    }
#endif
    for (; i < open; i++) {
        double mean = (double)o[i].reward / (double)o[i].visits;
        double score = mean + s->c * sqrt(log_n / (double)o[i].visits);
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    return best;
}

/* PUCT (AlphaZero's selection) at a node whose options have the
 * network's priors `prior`: the mean reward plus puct * prior * sqrt(N) /
 * (1 + n); an option not visited yet counts the node's mean reward. */
static int select_puct(const search *s, int32_t n, const float *prior)
{
    const node *nd = node_at(&s->tree, n);
    const option *o = options_of(&s->tree, n);
    double sum = 0.0, seen = 0.0;
    for (int i = 0; i < nd->nopts; i++) {
        sum += (double)o[i].reward;
        seen += (double)o[i].visits;
    }
    double first = seen > 0 ? sum / seen : 0.0;
    double root_n = sqrt((double)nd->visits + 1.0);
    int best = 0;
    double best_score = -1e300;
    for (int i = 0; i < nd->nopts; i++) {
        double mean = o[i].visits ? (double)o[i].reward / (double)o[i].visits : first;
        double score = mean + s->root->puct * prior[i] * root_n / (1.0 + (double)o[i].visits);
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    return best;
}

/* The tile that the player to move at hand node `nd` plays from its hand
 * in `g` (the iteration's deal): each distinct tile held counts one more
 * availability; an untried one is played first (in hand order), else the
 * best by UCB1 over the visits in which it was available, so that a tile
 * dealt rarely is not judged against visits it could not have. */
static int select_held(search *s, int32_t n, const carc_game *g)
{
    option *o = options_of(&s->tree, n);
    int hand[CARC_MAX_HAND];
    int size = carc_game_hand(g, carc_game_current_player(g), hand, CARC_MAX_HAND);
    if (size <= 0)
        return -1; /* cannot be: a player with an empty hand is passed over */
    int best = hand[0], untried = -1;
    double best_score = -1e300;
    for (int h = 0; h < size; h++) {
        option *held = &o[hand[h]];
        int seen = 0;
        for (int j = 0; j < h; j++)
            seen |= hand[j] == hand[h];
        if (seen)
            continue;
        held->available++;
        if (held->visits == 0) {
            if (untried < 0)
                untried = hand[h];
            continue;
        }
        double mean = (double)held->reward / (double)held->visits;
        double score = mean + s->c * sqrt(log_visits(held->available) / (double)held->visits);
        if (score > best_score) {
            best_score = score;
            best = hand[h];
        }
    }
    return untried >= 0 ? untried : best;
}

/* --- Valuing leaves ------------------------------------------------------------------------ */

/* Whether a leaf at `g` is valued by the static evaluation alone, which
 * is the same in every deck, rather than by playouts. */
static int leaf_is_static(const carc_game *g)
{
    return carc_game_over(g) || carc_game_tiles_left(g, NULL) >= PLAYOUT_TAIL;
}

/* Final or expected scores of every player from `g`, which may be played
 * on (it is the iteration's own copy): 1 when static (see above). */
static int value_leaf(search *s, carc_game *g, double scores[CARC_MAX_PLAYERS])
{
    int exact = leaf_is_static(g);
    if (!exact)
        while (!carc_game_over(g))
            carc_game_play_random(g, &s->rng, 0.3, NULL);
    evaluate_blended(s->root, g, scores);
    return exact;
}

typedef struct step {
    int32_t node;
    int option;
} step;

/* The priors of placement node `n` below the root, whose position is `g`:
 * the policy head's softmax over its placements without a figure, in its
 * options' order, worked out at the first call. NULL when it has none (a
 * discard, a single placement, or the tree's memory is full: the node
 * then keeps selecting by UCB1 with widening). */
static const float *placement_priors(search *s, int32_t n, const carc_game *g)
{
    tree *t = &s->tree;
    node *nd = node_at(t, n);
    if (nd->priors >= 0)
        return &t->priors[nd->priors];
    if (nd->priors < -1 || nd->discard || nd->nopts < 2)
        return NULL;
    int count = nd->nopts;
    float logits[CARC_MAX_PLACEMENTS];
    double v[CARC_MAX_PLAYERS];
    for (int i = 0; i < count; i++) {
        const option *o = &options_of(t, n)[i];
        carc_move m = {
            CARC_MOVE_PLACE, {o->x, o->y, o->rot, 0}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
        carc_game_copy(s->scratch, g);
        if (!play_option(s->root, s->scratch, m)) {
            nd->priors = -2; /* not legal in this deal (cannot be) */
            return NULL;
        }
        net_move(s->root, g, s->scratch, m, 0, v, &logits[i]);
    }
    nd->priors = softmax_priors(t, logits, NULL, count);
    return nd->priors >= 0 ? &t->priors[nd->priors] : NULL;
}

/* Where node `n` is linked: the child `index` of chance node `from`, or
 * option `index` of hand node `from` (a node that opens moves). */
typedef struct link {
    int32_t from;
    int index;
    int chance;
} link;

static int32_t *link_at(const tree *t, link l)
{
    return l.chance ? &chance_kids(t, l.from)[l.index] : &options_of(t, l.from)[l.index].child;
}

/* One iteration: descend from the root of a freshly sampled deck, grow the
 * tree by one node, value the leaf and back the rewards up. */
static void iterate(search *s)
{
    const root_info *ri = s->root;
    tree *t = &s->tree;
    carc_game *g = s->work;
    carc_game_copy(g, ri->game);
    carc_game_shuffle_hidden(g, carc_rng_next(&s->rng));
    step path[MAX_DEPTH];
    int depth = 0;
    int32_t n = 0; /* the root, open from the start (run_search) */
    link from = {-1, 0, 0};
    int root_place = -1, root_spot = -1;
    int32_t valued = -1; /* a chance node whose position is the leaf's */
    /* The score record of the placement just followed, when its spot node
     * is new: the new spot node's first visit plays "no follower" and its
     * new chance node has the position the record holds. */
    int32_t known = -1;
    while (depth < MAX_DEPTH - 1) {
        node *nd = node_at(t, n);
        if (nd->type == NODE_HAND) {
            if (!nd->expanded) {
                int32_t open = expand_hand(s, n);
                if (open < 0)
                    break;
                *link_at(t, from) = n = open;
            }
            int kind = select_held(s, n, g);
            if (kind < 0 || carc_game_hold_tile(g, kind) != CARC_OK)
                break;
            path[depth++] = (step){n, kind};
            int32_t child = options_of(t, n)[kind].child;
            if (child < 0) {
                /* A leaf valued once before it opens, as below a chance node. */
                child = new_node(t, NODE_PLACE, carc_game_current_player(g), 0);
                options_of(t, n)[kind].child = child;
                if (child >= 0)
                    node_at(t, child)->visits++;
                break;
            }
            from = (link){n, kind, 0};
            n = child;
            continue;
        }
        if (nd->type == NODE_PLACE && !nd->expanded) {
            if (nd->visits < expand_visits) {
                nd->visits++; /* a leaf valued once before it opens */
                break;
            }
            int32_t open = expand_place(s, n, g);
            if (open < 0)
                break;
            *link_at(t, from) = n = open;
            nd = node_at(t, n);
        }
        const float *prior = NULL;
        if (ri->net && n == 0)
            prior = ri->place_prior;
        else if (ri->net && nd->type == NODE_SPOT && depth == 1 && root_place >= 0)
            prior = ri->spot_prior[root_place];
        else if (nd->type == NODE_PLACE && ri->deep && n != 0 && nd->visits >= (unsigned)ri->deep)
            prior = placement_priors(s, n, g);
        int i = prior ? select_puct(s, n, prior) : select_option(s, n);
        path[depth++] = (step){n, i};
        valued = -1;
        const option *o = &options_of(t, n)[i];
        carc_move m = {
            CARC_MOVE_PLACE, {o->x, o->y, o->rot, 0}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
        if (nd->type == NODE_PLACE && nd->discard) {
            m.type = CARC_MOVE_DISCARD;
        } else if (nd->type == NODE_PLACE && n == 0 && ri->discard[i]) {
            m.type = CARC_MOVE_DISCARD; /* a held tile that fits nowhere: then a new one */
            m.place.tile = ri->places[i].tile;
            root_place = i;
            root_spot = 0;
        } else if (nd->type == NODE_PLACE) {
            if (n == 0)
                root_place = i;
            known = -1;
            if (o->child < 0) {
                int32_t k = o->child <= -2 ? -2 - o->child : -1;
                int32_t child = make_spot_node(s, g, m.place, n == 0 ? i : -1);
                options_of(t, n)[i].child = child;
                if (child >= 0)
                    known = k;
            }
            n = options_of(t, n)[i].child;
            if (n < 0)
                break;
            continue;
        } else {
            m = spot_move(m.place, o->seg);
            if (depth == 2 && root_place >= 0) {
                root_spot = i;
                m.place.tile = ri->places[root_place].tile; /* a hand's tile, or 0 */
            }
        }
        if (!play_option(ri, g, m))
            break; /* cannot happen: options are legal in every deck */
        int32_t chance = options_of(t, n)[i].child;
        if (chance < 0) {
            chance = new_chance(t);
            options_of(t, n)[i].child = chance;
            valued = chance;
            break;
        }
        /* The chance node: the tile drawn next names its child. */
        valued = chance;
        if (carc_game_over(g))
            break;
        int kind = ri->hands ? 0 : carc_game_drawn_tile(g);
        if (kind < 0 || kind >= t->kinds)
            break; /* cannot be: the root counted the kinds to come */
        int32_t next = chance_kids(t, chance)[kind];
        if (next < 0) {
            next = new_node(t, ri->hands ? NODE_HAND : NODE_PLACE, carc_game_current_player(g), 0);
            chance_kids(t, chance)[kind] = next;
            if (next >= 0)
                node_at(t, next)->visits++;
            break;
        }
        from = (link){chance, kind, 1};
        n = next; /* the same position, till a move is played */
    }

    double scores[CARC_MAX_PLAYERS] = {0};
    int players = ri->players;
    int store = 0; /* a static value the chance node `valued` lacks */
    if (valued >= 0 && *chance_valued(t, valued)) {
        memcpy(scores, value_of(t, valued), sizeof(double) * (size_t)players);
    } else if (valued >= 0 && known >= 0 && leaf_is_static(g)) {
        memcpy(scores, record(t, known), sizeof(double) * (size_t)players);
        blend_record(ri, g, scores); /* the network's part, now that it is a leaf's value */
        store = 1;
    } else {
        store = value_leaf(s, g, scores);
    }
    if (store && valued >= 0) {
        memcpy(value_of(t, valued), scores, sizeof(double) * (size_t)players);
        *chance_valued(t, valued) = 1;
    }
    double reward[CARC_MAX_PLAYERS] = {0};
    rewards(ri, g, scores, reward);
    for (int d = depth - 1; d >= 0; d--) {
        node *nd = node_at(t, path[d].node);
        option *o = &options_of(t, path[d].node)[path[d].option];
        nd->visits++;
        o->visits++;
        o->reward += (float)reward[nd->player];
    }
    if (root_place >= 0 && root_spot >= 0) {
        double margin = ai_margin(scores, players, ri->player);
        root_stat *st = &s->stats[root_place * ROOT_SPOTS + root_spot];
        st->visits++;
        st->margin += margin;
        if (carc_game_over(g))
            st->win += margin > 0 ? 1.0 : margin == 0 ? 0.5 : 0.0;
        else
            st->win += 1.0 / (1.0 + exp(-margin / win_scale));
    }
    s->iterations++;
}

static void *run_search(void *arg)
{
    search *s = arg;
    s->work = carc_game_clone(s->root->game);
    s->scratch = carc_game_clone(s->root->game);
    pthread_once(&tables_once, tables_init);
    if (!s->work || !s->scratch || expand_place(s, -1, NULL) != 0)
        return NULL;
    for (;;) {
        if (s->budget ? s->iterations >= s->budget
                      : (s->iterations % 16 == 0 && ai_should_stop(s->player, s->start)))
            break;
        if (s->budget && s->iterations % 16 == 0 &&
            atomic_load_explicit(&s->player->stop, memory_order_relaxed))
            break;
        iterate(s);
    }
    return NULL;
}

/* --- The root -------------------------------------------------------------------------------- */

/* A move `m` of `g` with the network: the evaluation of its result
 * `after` into `v` and the policy head's logit into `*logit`. The
 * evaluation with its terms is what the policy's inputs are made of, so
 * the two come for the price of one. With `child`, `after` is a child
 * being ordered (order_placements): its evaluation shares its siblings'
 * walks (ai_evaluate_full_child_terms) and keeps out the network's value,
 * as the order ranks by the evaluation alone; else `v` is blended. */
static void net_move(const root_info *ri, const carc_game *g, const carc_game *after, carc_move m,
                     int child, double v[CARC_MAX_PLAYERS], float *logit)
{
    double full[CARC_MAX_PLAYERS], terms[CARC_MAX_PLAYERS][AI_TERMS];
    float in[CARC_NET_MOVE_INPUTS];
    if (child)
        ai_evaluate_full_child_terms(after, full, terms);
    else
        ai_evaluate_full_terms(after, full, terms);
    net_move_inputs(g, after, m, full, terms, in);
    carc_net_policy(ri->net, in, 1, logit);
    if (ri->evaluate == ai_evaluate_full)
        memcpy(v, full, sizeof full);
    else
        ri->evaluate(after, v);
    if (!child && net_values(ri, after))
        blend_net_value(ri, after, full, terms, v);
}

/* The root's priors from the policy head's logits: a softmax over every
 * root move, summed by placement, and each spot's share of its
 * placement's. */
static void root_priors(root_info *ri)
{
    double top = -1e300, sum = 0.0;
    for (int i = 0; i < ri->nplaces; i++)
        for (int j = 0; j < ri->nspots[i]; j++)
            top = fmax(top, (double)ri->logit[i][j]);
    for (int i = 0; i < ri->nplaces; i++) {
        double place = 0.0;
        for (int j = 0; j < ri->nspots[i]; j++) {
            double e = exp((double)ri->logit[i][j] - top);
            ri->spot_prior[i][j] = (float)e;
            place += e;
        }
        for (int j = 0; j < ri->nspots[i]; j++)
            ri->spot_prior[i][j] = (float)(ri->spot_prior[i][j] / place);
        ri->place_prior[i] = (float)place;
        sum += place;
    }
    for (int i = 0; i < ri->nplaces; i++)
        ri->place_prior[i] = (float)(ri->place_prior[i] / sum);
}

/* Adds to `ri` the placements of `g`'s drawn tile (`tile`: 1 + its kind
 * in a hand game, else 0) with their spots ordered by the one-ply utility,
 * or its discard when it fits nowhere (hand games); `best[i]` gets each
 * placement's best prior. */
static void add_root_tile(root_info *ri, const carc_game *g, carc_game *scratch, int tile,
                          double *best)
{
    carc_placement places[CARC_MAX_PLACEMENTS];
    int np = ai_legal_placements(g, places);
    if (np == 0 && tile && ri->nplaces < CARC_MAX_PLACEMENTS) {
        int i = ri->nplaces++;
        ri->places[i] = (carc_placement){0, 0, 0, (uint8_t)tile};
        ri->discard[i] = 1;
        ri->nspots[i] = 1;
        ri->spots[i][0] = CARC_NO_SPOT;
        ri->prior[i][0] = (float)utility(ri, ri->base, ri->player);
        ri->logit[i][0] = 0.0f; /* the network does not rank discards */
        best[i] = -1e299;       /* below any placement's */
        return;
    }
    for (int k = 0; k < np && ri->nplaces < CARC_MAX_PLACEMENTS; k++) {
        int i = ri->nplaces++;
        ri->places[i] = places[k];
        ri->places[i].tile = (uint8_t)tile;
        ri->discard[i] = 0;
        carc_move figures[CARC_MAX_FIGURE_MOVES];
        int ns = carc_legal_figures(g, places[k], figures, CARC_MAX_FIGURE_MOVES);
        ri->nspots[i] = (uint8_t)(ns + 1);
        best[i] = -1e300;
        for (int j = 0; j <= ns; j++) {
            uint8_t seg = j == 0 ? CARC_NO_SPOT : spot_code(&figures[j - 1]);
            carc_move m = spot_move(places[k], seg);
            carc_game_copy(scratch, g);
            double v[CARC_MAX_PLAYERS];
            ai_play_known(scratch, m); /* g's own move */
            float logit = 0.0f;
            if (ri->net)
                net_move(ri, g, scratch, m, 0, v, &logit);
            else
                ri->evaluate(scratch, v);
            double u = utility(ri, v, ri->player);
            /* Insert by prior, keeping "no follower" first. */
            int at = j;
            while (at > 1 && ri->prior[i][at - 1] < u) {
                ri->prior[i][at] = ri->prior[i][at - 1];
                ri->logit[i][at] = ri->logit[i][at - 1];
                ri->spots[i][at] = ri->spots[i][at - 1];
                at--;
            }
            ri->prior[i][at] = (float)u;
            ri->logit[i][at] = logit;
            ri->spots[i][at] = seg;
            if (u > best[i])
                best[i] = u;
        }
    }
}

/* One more than the highest tile kind a deal below `g` may draw: those
 * left to draw, the drawn one and those in the hands (dealt again). */
static int kinds_to_come(const carc_game *g)
{
    int counts[CARC_MAX_KINDS], hand[CARC_MAX_HAND], top = carc_game_drawn_tile(g);
    carc_game_tiles_left(g, counts);
    for (int k = 0; k < carc_tile_kinds(); k++)
        if (counts[k] > 0 && k > top)
            top = k;
    for (int p = 0; p < carc_game_players(g); p++) {
        int n = carc_game_hand(g, p, hand, CARC_MAX_HAND);
        for (int i = 0; i < n; i++)
            top = hand[i] > top ? hand[i] : top;
    }
    return top >= 0 ? top + 1 : 1;
}

/* Fills `ri` for `g`: legal placements and spots ordered by the one-ply
 * utility; in a hand game those of every tile held (`held`: a game to hold
 * each in), so that one search weighs them all. */
static void prepare_root(root_info *ri, const carc_game *g, carc_game *scratch, carc_game *held,
                         const carc_player *player)
{
    const ai_options *opt = &player->opt;
    ri->game = g;
    ri->evaluate = ai_player_evaluation(player);
    ri->own = opt->own;
    ri->win = opt->win;
    ri->hands = carc_game_rules(g).hand && opt->ismcts;
    ri->same_positions = carc_game_rules(g).hand == 0;
    ri->kinds = ri->hands ? 1 : kinds_to_come(g);
    ri->net = player->net;
    ri->blend = opt->blend;
    ri->puct = opt->puct;
    ri->deep = opt->deep;
    ri->player = carc_game_current_player(g);
    ri->players = carc_game_players(g);
    evaluate_blended(ri, g, ri->base); /* for `own`, and a discard's prior */
    ri->nplaces = 0;
    double best[CARC_MAX_PLACEMENTS];
    int hand[CARC_MAX_HAND];
    int nhand = carc_game_rules(g).hand ? carc_game_hand(g, ri->player, hand, CARC_MAX_HAND) : 0;
    if (nhand == 0)
        add_root_tile(ri, g, scratch, 0, best);
    for (int h = 0; h < nhand; h++) {
        int seen = 0;
        for (int j = 0; j < h; j++)
            seen |= hand[j] == hand[h];
        if (seen)
            continue;
        carc_game_copy(held, g);
        carc_game_hold_tile(held, hand[h]);
        add_root_tile(ri, held, scratch, hand[h] + 1, best);
    }
    /* Placements by their best prior (insertion sort, stable). */
    for (int i = 1; i < ri->nplaces; i++) {
        carc_placement p = ri->places[i];
        uint8_t nsp = ri->nspots[i], dis = ri->discard[i];
        uint8_t sp[ROOT_SPOTS];
        float pr[ROOT_SPOTS], lg[ROOT_SPOTS];
        double b = best[i];
        memcpy(sp, ri->spots[i], sizeof sp);
        memcpy(pr, ri->prior[i], sizeof pr);
        memcpy(lg, ri->logit[i], sizeof lg);
        int k = i;
        while (k > 0 && best[k - 1] < b) {
            ri->places[k] = ri->places[k - 1];
            ri->nspots[k] = ri->nspots[k - 1];
            ri->discard[k] = ri->discard[k - 1];
            memcpy(ri->spots[k], ri->spots[k - 1], sizeof sp);
            memcpy(ri->prior[k], ri->prior[k - 1], sizeof pr);
            memcpy(ri->logit[k], ri->logit[k - 1], sizeof lg);
            best[k] = best[k - 1];
            k--;
        }
        ri->places[k] = p;
        ri->nspots[k] = nsp;
        ri->discard[k] = dis;
        memcpy(ri->spots[k], sp, sizeof sp);
        memcpy(ri->prior[k], pr, sizeof pr);
        memcpy(ri->logit[k], lg, sizeof lg);
        best[k] = b;
    }
    if (ri->net)
        root_priors(ri);
}

/* --- The exhaustive endgame ---------------------------------------------------------------------
 */

typedef struct exact_result {
    double margin[CARC_MAX_PLAYERS];
    double win[CARC_MAX_PLAYERS];
} exact_result;

static void exact_decision(const carc_game *g, carc_game **scratch, int depth, exact_result *r);

/* The result of a game ended with these scores: each player's margin, and
 * its share of the win among the leaders (as carc_game_leaders() and
 * ai_score_margin() give them). */
static void exact_scores(const int *scores, int players, exact_result *r)
{
    int best = -1000000, nlead = 0;
    for (int p = 0; p < players; p++)
        best = scores[p] > best ? scores[p] : best;
    for (int p = 0; p < players; p++)
        nlead += scores[p] == best;
    for (int p = 0; p < players; p++) {
        int other = -1000000;
        for (int q = 0; q < players; q++)
            if (q != p && scores[q] > other)
                other = scores[q];
        r->margin[p] = scores[p] - other;
        r->win[p] = scores[p] == best ? 1.0 / nlead : 0.0;
    }
}

static void exact_terminal(const carc_game *g, exact_result *r)
{
    int scores[CARC_MAX_PLAYERS], players = carc_game_players(g);
    for (int p = 0; p < players; p++)
        scores[p] = carc_game_score(g, p);
    exact_scores(scores, players, r);
}

/* The last tile's placements valued without playing them where the rules
 * allow (ai_quiet_squares; exact.c does the same in its last ply): the
 * scores of the game ended before the tile, found once; a placement
 * without a figure on a cold square (ai_square_cold) leaves them; any
 * other is put alone on the board (ai_place_only, once for all its
 * figures) and adds what it changes (ai_end_change) and what its figure
 * will score (ai_end_worth). */
typedef struct last_tile {
    const carc_game *g;
    carc_game *alone; /* g with `placed` put alone, when placed_ok */
    carc_placement placed;
    int placed_ok, change_ok;
    int end[CARC_MAX_PLAYERS];         /* g's scores if it ended now */
    int change[CARC_MAX_PLAYERS];      /* what `placed` changes in them */
    int cold_x, cold_y, cold, cold_ok; /* ai_square_cold of the last square asked */
} last_tile;

static void last_tile_start(last_tile *lt, const carc_game *g, carc_game *work)
{
    lt->g = g;
    lt->alone = work;
    lt->placed_ok = lt->cold_ok = 0;
    carc_game_copy(work, g);
    carc_game_finish(work, NULL, 0, NULL);
    for (int p = 0; p < carc_game_players(g); p++)
        lt->end[p] = carc_game_score(work, p);
}

/* The final scores after the last tile's placement m, into `scores`;
 * returns 0 when they are not known (ai_end_change could not say). */
static int last_tile_scores(last_tile *lt, carc_move m, int scores[CARC_MAX_PLAYERS])
{
    carc_placement p = m.place;
    if (!lt->cold_ok || lt->cold_x != p.x || lt->cold_y != p.y) {
        lt->cold = ai_square_cold(lt->g, p.x, p.y);
        lt->cold_x = p.x;
        lt->cold_y = p.y;
        lt->cold_ok = 1;
    }
    memcpy(scores, lt->end, sizeof lt->end);
    if (lt->cold && m.segment == CARC_NO_SPOT)
        return 1;
    if (!lt->placed_ok || lt->placed.x != p.x || lt->placed.y != p.y || lt->placed.rot != p.rot ||
        lt->placed.tile != p.tile) {
        carc_game_copy(lt->alone, lt->g);
        ai_place_only(lt->alone, p);
        lt->placed = p;
        lt->placed_ok = 1;
        memset(lt->change, 0, sizeof lt->change);
        lt->change_ok = lt->cold || ai_end_change(lt->g, lt->alone, lt->change);
    }
    if (!lt->change_ok)
        return 0;
    int players = carc_game_players(lt->g);
    for (int q = 0; q < players; q++)
        scores[q] += lt->change[q];
    scores[carc_game_current_player(lt->g)] += ai_figure_end_worth(lt->alone, m.segment);
    return 1;
}

/* Averages over the tile that the next player may draw after a move. */
static void exact_chance(carc_game *g, carc_game **scratch, int depth, exact_result *r)
{
    if (carc_game_over(g)) {
        exact_terminal(g, r);
        return;
    }
    int counts[CARC_MAX_KINDS];
    int total = carc_game_draw_pool(g, counts);
    memset(r, 0, sizeof *r);
    int players = carc_game_players(g);
    for (int k = 0; k < carc_tile_kinds(); k++) {
        if (!counts[k])
            continue;
        carc_game_copy(scratch[depth], g);
        carc_game_choose_tile(scratch[depth], k);
        exact_result sub;
        exact_decision(scratch[depth], scratch, depth + 1, &sub);
        double w = (double)counts[k] / total;
        for (int p = 0; p < players; p++) {
            r->margin[p] += w * sub.margin[p];
            r->win[p] += w * sub.win[p];
        }
    }
}

/* The mover picks the move of the best expected margin (max^n). */
static void exact_decision(const carc_game *g, carc_game **scratch, int depth, exact_result *r)
{
    carc_move moves[CARC_MAX_MOVES];
    int n = carc_legal_moves(g, moves, CARC_MAX_MOVES);
    int me = carc_game_current_player(g), players = carc_game_players(g);
    last_tile lt;
    int last = carc_game_tiles_left(g, NULL) == 0 && ai_quiet_squares(g);
    if (last)
        last_tile_start(&lt, g, scratch[depth]);
    r->margin[me] = -1e300;
    for (int i = 0; i < n; i++) {
        exact_result sub;
        int scores[CARC_MAX_PLAYERS];
        if (last && moves[i].type == CARC_MOVE_PLACE && last_tile_scores(&lt, moves[i], scores)) {
            exact_scores(scores, players, &sub);
        } else {
            lt.placed_ok = 0; /* scratch[depth] is played in */
            carc_game_copy(scratch[depth], g);
            ai_play_known(scratch[depth], moves[i]);
            exact_chance(scratch[depth], scratch, depth + 1, &sub);
        }
        if (sub.margin[me] > r->margin[me])
            *r = sub;
    }
}

/* Ranks every move of `g` by exhaustive search; returns the count. */
static int exact_rank(const carc_game *g, carc_move_eval *evals, carc_search_info *info)
{
    enum { LEVELS = 8 };
    carc_game *scratch[LEVELS];
    int ok = 1;
    for (int i = 0; i < LEVELS; i++)
        ok &= (scratch[i] = carc_game_clone(g)) != NULL;
    carc_game *top = carc_game_clone(g);
    carc_move moves[CARC_MAX_MOVES];
    int n = ok && top ? carc_legal_moves(g, moves, CARC_MAX_MOVES) : 0;
    int me = carc_game_current_player(g);
    for (int i = 0; i < n; i++) {
        carc_game_copy(top, g);
        ai_play_known(top, moves[i]);
        exact_result r;
        exact_chance(top, scratch, 0, &r);
        evals[i] = (carc_move_eval){moves[i], r.margin[me], r.win[me], 1};
    }
    for (int i = 0; i < LEVELS; i++)
        carc_game_free(scratch[i]);
    carc_game_free(top);
    ai_sort_evals(evals, n);
    info->memory_bytes = (LEVELS + 1) * ai_state_bytes(g);
    return n;
}

/* Leaves of the exhaustive search of `g`, roughly: moves to the power of
 * the plies left. */
static double exact_leaves(const carc_game *g, int nmoves)
{
    int left = carc_game_tiles_left(g, NULL);
    double leaves = nmoves;
    for (int i = 0; i < left; i++)
        leaves *= nmoves * 2.0;
    return leaves;
}

/* --- The player ---------------------------------------------------------------------------------
 */

static int merge_and_rank(const root_info *ri, search *s, int threads, carc_move_eval *out, int cap)
{
    int n = 0;
    carc_move_eval *all = ai_new_evals(ri->nplaces * ROOT_SPOTS);
    if (!all)
        return 0;
    for (int i = 0; i < ri->nplaces; i++)
        for (int j = 0; j < ri->nspots[i]; j++) {
            root_stat sum = {0, 0.0, 0.0};
            for (int t = 0; t < threads; t++) {
                const root_stat *st = &s[t].stats[i * ROOT_SPOTS + j];
                sum.visits += st->visits;
                sum.margin += st->margin;
                sum.win += st->win;
            }
            carc_move m = spot_move(ri->places[i], ri->spots[i][j]);
            if (ri->discard[i])
                m.type = CARC_MOVE_DISCARD;
            double margin = sum.visits ? sum.margin / sum.visits : ri->prior[i][j];
            double win = sum.visits ? sum.win / sum.visits : 0.5;
            all[n++] = (carc_move_eval){m, margin, win, sum.visits};
        }
    /* Most visited first; unvisited moves by their prior. */
    for (int i = 1; i < n; i++) {
        carc_move_eval e = all[i];
        int k = i;
        while (k > 0 && (all[k - 1].visits < e.visits ||
                         (all[k - 1].visits == e.visits && all[k - 1].margin < e.margin))) {
            all[k] = all[k - 1];
            k--;
        }
        all[k] = e;
    }
    int w = n < cap ? n : cap;
    memcpy(out, all, sizeof *out * (size_t)w);
    free(all);
    return w;
}

int ai_mcts_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                 carc_search_info *info)
{
    double start = ai_now();
    int nmoves = 0;
    carc_move *moves = ai_legal_moves(g, &nmoves);
    carc_move_eval *evals = ai_new_evals(nmoves);
    root_info *ri = malloc(sizeof *ri);
    carc_game *scratch = carc_game_clone(g), *held = carc_game_clone(g);
    int threads = p->opt.threads > 0 ? p->opt.threads : 1;
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    search *s = calloc((size_t)threads, sizeof *s);
    int written = 0;
    if (!moves || !evals || !ri || !scratch || !held || !s)
        goto done;

    /* The exhaustive endgame draws from the pile; a hand game's tiles are
     * mostly in the hands: searched as any other position. */
    int exact = !carc_game_rules(g).hand && carc_game_tiles_left(g, NULL) <= 2 &&
                exact_leaves(g, nmoves) <= EXACT_LEAVES;
    if (exact || nmoves == 1) {
        int n = exact ? exact_rank(g, evals, info) : 1;
        if (!exact)
            evals[0] = (carc_move_eval){moves[0], 0.0, 0.5, 0};
        written = n < cap ? n : cap;
        memcpy(out, evals, sizeof *out * (size_t)written);
        goto done;
    }

    prepare_root(ri, g, scratch, held, p);
    if (ri->nplaces == 0)
        goto done; /* cannot be: a tile that fits nowhere has its discard */
    uint64_t base_seed = carc_rng_next(&p->rng);
    size_t room = search_memory(p->opt.ms, p->opt.iters, threads, ai_physical_memory());
    for (int t = 0; t < threads; t++) {
        s[t].player = p;
        s[t].root = ri;
        s[t].rng = carc_rng_seed(base_seed ^ (UINT64_C(0x9e3779b97f4a7c15) * (uint64_t)(t + 1)));
        s[t].start = start;
        s[t].c = p->opt.c;
        s[t].tree.limit = room / (size_t)threads;
        s[t].tree.players = ri->players;
        s[t].tree.kinds = ri->kinds;
        if (p->opt.iters)
            s[t].budget =
                p->opt.iters / (uint64_t)threads + ((uint64_t)t < p->opt.iters % (uint64_t)threads);
        s[t].stats = calloc((size_t)ri->nplaces * ROOT_SPOTS, sizeof(root_stat));
        if (!s[t].stats)
            goto done;
    }
    pthread_t ids[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&ids[t], NULL, run_search, &s[t]) == 0;
    run_search(&s[0]);
    for (int t = 1; t < threads; t++)
        if (started[t])
            pthread_join(ids[t], NULL);
        else
            run_search(&s[t]);
    written = merge_and_rank(ri, s, threads, out, cap);
    for (int t = 0; t < threads; t++) {
        info->iterations += s[t].iterations;
        info->memory_bytes += tree_bytes(&s[t].tree) + ai_state_bytes(g);
    }

done:
    if (s)
        for (int t = 0; t < threads; t++) {
            tree_free(&s[t].tree);
            free(s[t].stats);
            carc_game_free(s[t].work);
            carc_game_free(s[t].scratch);
        }
    free(s);
    free(moves);
    free(evals);
    free(ri);
    carc_game_free(scratch);
    carc_game_free(held);
    return written;
}
