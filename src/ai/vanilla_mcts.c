/* vanilla_mcts.c: the UCT baseline of Ameneyro, Galvan and Kuri-Morales
 * (2020), "Playing Carcassonne with Monte Carlo Tree Search".
 *
 * Followed from the paper (as issue 3 summarises it; the stored copies we
 * could search hold only its abstract and introduction, which confirm that
 * MCTS and Star2.5 were compared "when they share a common reward system"):
 *   - plain UCT: selection by UCB1 with C = 3 (spec option c), expansion of
 *     one new node per simulation, a uniformly random playout to the end of
 *     the game, and backpropagation of the result along the path;
 *   - 100 simulations per move (spec iters; ms sets a time budget instead);
 *   - one tree node per full move: a placement together with its follower
 *     decision (no follower, or one legal spot), as carc_legal_moves lists them;
 *   - the reward is the final score margin, not a win/loss: the mover's
 *     final score minus the best other final score (ai_score_margin), in
 *     points and not normalised, so C = 3 weighs exploration in points;
 *   - the move played is the root child with the most visits.
 *
 * Where we had to choose:
 *   - Hidden information. The paper's engine lets every simulation draw
 *     from the real pile; ours must not. Each simulation copies the root
 *     and reshuffles the tiles left (carc_game_shuffle_hidden; the drawn
 *     tile is kept), so it plays one sampled deck: determinized UCT with a
 *     single tree. Nodes below the root are keyed by (drawn tile kind,
 *     move): the same square and rotation with another tile is another
 *     action. At each node only the moves legal in the sampled position
 *     compete; a stored child that is illegal there is skipped. UCB1 then
 *     uses the child's availability count (how often it was legal when its
 *     parent was visited) instead of the parent's visits, as in ISMCTS
 *     (Cowling, Powley and Whitehouse 2012); at the root every child is
 *     always legal and this is plain UCB1.
 *   - Expansion order: an unexpanded legal move is picked uniformly at
 *     random (from the player's seed), before any expanded child is
 *     selected again. With 100 simulations and often more root moves than
 *     that, most root children get a single visit; ties in visits are
 *     broken by the mean margin.
 *   - More than two players: each node's statistics are kept from the
 *     point of view of the player who made its move (that player's margin
 *     over the best other), so every player maximises its own margin.
 *   - Playouts: carc_game_play_random with a follower tried half of the
 *     time, as in the engine's benchmark games.
 *   - Memory: the tree grows one node per simulation, at most MAX_NODES
 *     (about 40 MB); past that simulations go on without expanding.
 *
 * rank() lists every expanded root child, most visited first (ties: the
 * higher mean margin), with margin = mean final margin of the simulations
 * through it, win = their share won (ties half), visits; the legal moves
 * no simulation tried follow with visits 0, margin 0 and win 0.5. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ai.h"
#include "search.h"
#include "vanilla_mcts.h"

enum {
    MAX_NODES = 1 << 20,
    NO_NODE = -1,
    /* Open addressing table of the legal moves of one position: a power of
     * two above CARC_MAX_MOVES, so that it is never more than 3/4 full. */
    MOVE_TABLE = 8192,
};

/* A node of the tree: the position after `move` was played with tile
 * `tile` by `mover`. Statistics are from the mover's point of view. */
typedef struct vnode {
    carc_move move;
    int8_t tile;
    uint8_t mover;
    uint32_t visits;
    uint32_t avail; /* simulations that reached the parent while legal */
    double margin_sum;
    double wins; /* ties count half */
    int32_t first_child, next_sibling;
} vnode;

/* Everything one call to rank() owns; freed at its end. */
typedef struct vsearch {
    vnode *nodes;
    int32_t nnodes, cap;
    carc_game *sim;    /* the sampled game of the current simulation */
    carc_move *moves;  /* legal moves at the current node */
    int32_t *path;     /* nodes of the current simulation, root first */
    uint8_t *expanded; /* per legal move: a child already stands for it */
    uint32_t *stamp;   /* move table: in use when stamp == now */
    uint16_t *slot;    /* move table: index into moves */
    uint32_t now;
    carc_rng rng;
} vsearch;

/* A 32-bit key of a move (the tile is compared separately). */
static uint32_t move_key(carc_move m)
{
    if (m.type == CARC_MOVE_DISCARD)
        return 0xffffffffu;
    return (uint32_t)(uint8_t)m.place.x << 24 | (uint32_t)(uint8_t)m.place.y << 16 |
           (uint32_t)m.place.rot << 8 | m.segment;
}

static uint32_t key_hash(uint32_t k)
{
    k ^= k >> 16;
    k *= 0x7feb352du;
    k ^= k >> 15;
    return k & (MOVE_TABLE - 1);
}

/* Fills the move table with moves[0 .. n). */
static void table_fill(vsearch *s, int n)
{
    if (++s->now == 0) {
        memset(s->stamp, 0, sizeof *s->stamp * MOVE_TABLE);
        s->now = 1;
    }
    for (int i = 0; i < n; i++) {
        uint32_t h = key_hash(move_key(s->moves[i]));
        while (s->stamp[h] == s->now)
            h = (h + 1) & (MOVE_TABLE - 1);
        s->stamp[h] = s->now;
        s->slot[h] = (uint16_t)i;
    }
}

/* Index of `m` among the legal moves in the table, or -1. */
static int table_find(const vsearch *s, carc_move m)
{
    uint32_t h = key_hash(move_key(m));
    while (s->stamp[h] == s->now) {
        if (carc_move_equal(s->moves[s->slot[h]], m))
            return s->slot[h];
        h = (h + 1) & (MOVE_TABLE - 1);
    }
    return -1;
}

/* Appends a child of `parent`; NO_NODE when the tree is full. */
static int32_t add_child(vsearch *s, int32_t parent, carc_move m, int tile, int mover)
{
    if (s->nnodes == s->cap) {
        if (s->cap == MAX_NODES)
            return NO_NODE;
        int32_t cap = s->cap * 2 > MAX_NODES ? MAX_NODES : s->cap * 2;
        vnode *grown = realloc(s->nodes, sizeof *grown * (size_t)cap);
        if (!grown)
            return NO_NODE;
        s->nodes = grown;
        s->cap = cap;
    }
    int32_t id = s->nnodes++;
    s->nodes[id] = (vnode){
        m, (int8_t)tile, (uint8_t)mover, 0, 1, 0.0, 0.0, NO_NODE, s->nodes[parent].first_child};
    s->nodes[parent].first_child = id;
    return id;
}

static double ucb(const vnode *n, double c)
{
    double mean = n->margin_sum / n->visits;
    return mean + c * sqrt(log((double)n->avail) / n->visits);
}

/* One step down from `node` in the sampled game: expands a random
 * unexpanded legal move when there is one, else follows the legal child
 * of highest UCB1. Plays the move on s->sim. Returns the child, or NO_NODE
 * when nothing could be added nor selected (the tree is full): then one
 * random move is played instead, and the simulation goes on as a playout.
 * `*expanded_now` is set when a child was added. */
static int32_t descend(vsearch *s, int32_t node, double c, int *expanded_now)
{
    carc_game *g = s->sim;
    int n = carc_legal_moves(g, s->moves, CARC_MAX_MOVES);
    int tile = carc_game_drawn_tile(g);
    int mover = carc_game_current_player(g);
    table_fill(s, n);
    memset(s->expanded, 0, (size_t)n);
    int32_t best = NO_NODE;
    double best_value = -INFINITY;
    for (int32_t ch = s->nodes[node].first_child; ch != NO_NODE; ch = s->nodes[ch].next_sibling) {
        vnode *cn = &s->nodes[ch];
        if (cn->tile != tile)
            continue;
        int i = table_find(s, cn->move);
        if (i < 0)
            continue;
        s->expanded[i] = 1;
        cn->avail++;
        double v = ucb(cn, c);
        if (v > best_value) {
            best_value = v;
            best = ch;
        }
    }
    int unexpanded = 0;
    for (int i = 0; i < n; i++)
        unexpanded += !s->expanded[i];
    *expanded_now = 0;
    if (unexpanded > 0) {
        int pick = (int)carc_rng_below(&s->rng, (uint32_t)unexpanded);
        int i = 0;
        for (;; i++)
            if (!s->expanded[i] && pick-- == 0)
                break;
        int32_t child = add_child(s, node, s->moves[i], tile, mover);
        if (child != NO_NODE || best == NO_NODE) {
            carc_game_play(g, s->moves[i], NULL, 0, NULL);
            *expanded_now = child != NO_NODE;
            return child;
        }
    }
    carc_game_play(g, s->nodes[best].move, NULL, 0, NULL);
    return best;
}

/* Scores the finished sampled game into the nodes of the path. */
static void backpropagate(vsearch *s, int depth)
{
    for (int d = 0; d < depth; d++) {
        vnode *n = &s->nodes[s->path[d]];
        n->visits++;
        if (d == 0)
            continue; /* the root has no mover */
        int margin = ai_score_margin(s->sim, n->mover);
        n->margin_sum += margin;
        n->wins += margin > 0 ? 1.0 : margin == 0 ? 0.5 : 0.0;
    }
}

/* One simulation from the root position `g` on a freshly sampled deck. */
static void simulate(vsearch *s, const carc_game *g, double c)
{
    carc_game_copy(s->sim, g);
    carc_game_shuffle_hidden(s->sim, carc_rng_next(&s->rng));
    int depth = 0;
    int32_t node = 0;
    s->path[depth++] = 0;
    int expanded = 0;
    while (!expanded && !carc_game_over(s->sim)) {
        node = descend(s, node, c, &expanded);
        if (node == NO_NODE)
            break;
        s->path[depth++] = node;
    }
    while (!carc_game_over(s->sim))
        carc_game_play_random(s->sim, &s->rng, 0.5, NULL);
    backpropagate(s, depth);
}

static void vsearch_free(vsearch *s)
{
    free(s->nodes);
    free(s->moves);
    free(s->path);
    free(s->expanded);
    free(s->stamp);
    free(s->slot);
    carc_game_free(s->sim);
}

static int vsearch_init(vsearch *s, const carc_game *g, carc_player *p)
{
    memset(s, 0, sizeof *s);
    s->cap = 4096;
    s->nodes = malloc(sizeof *s->nodes * (size_t)s->cap);
    s->moves = malloc(sizeof *s->moves * CARC_MAX_MOVES);
    s->path = malloc(sizeof *s->path * (CARC_MAX_TILES + 2));
    s->expanded = malloc(CARC_MAX_MOVES);
    s->stamp = calloc(MOVE_TABLE, sizeof *s->stamp);
    s->slot = malloc(sizeof *s->slot * MOVE_TABLE);
    s->sim = carc_game_clone(g);
    s->rng = carc_rng_seed(carc_rng_next(&p->rng));
    if (!s->nodes || !s->moves || !s->path || !s->expanded || !s->stamp || !s->slot || !s->sim) {
        vsearch_free(s);
        return -1;
    }
    s->nodes[0] = (vnode){{0, {0, 0, 0, 0}, 0, 0}, -1, 0, 0, 0, 0.0, 0.0, NO_NODE, NO_NODE};
    s->nnodes = 1;
    return 0;
}

/* Most visits first; equal visits: the higher mean margin. */
static int more_visited(const carc_move_eval *a, const carc_move_eval *b)
{
    if (a->visits != b->visits)
        return a->visits > b->visits;
    return a->margin > b->margin;
}

/* Writes the root's children, then the untried legal moves, into `out`. */
static int write_ranking(vsearch *s, const carc_game *g, carc_move_eval *out, int cap)
{
    int n = carc_legal_moves(g, s->moves, CARC_MAX_MOVES);
    carc_move_eval *evals = malloc(sizeof *evals * (size_t)n);
    if (!evals)
        return 0;
    table_fill(s, n);
    memset(s->expanded, 0, (size_t)n);
    int w = 0;
    for (int32_t ch = s->nodes[0].first_child; ch != NO_NODE; ch = s->nodes[ch].next_sibling) {
        const vnode *cn = &s->nodes[ch];
        int i = table_find(s, cn->move);
        if (i < 0 || s->expanded[i] || cn->visits == 0)
            continue;
        s->expanded[i] = 1;
        evals[w++] = (carc_move_eval){cn->move, cn->margin_sum / cn->visits, cn->wins / cn->visits,
                                      cn->visits};
    }
    ai_sort_evals_by(evals, w, more_visited);
    for (int i = 0; i < n; i++)
        if (!s->expanded[i])
            evals[w++] = (carc_move_eval){s->moves[i], 0.0, 0.5, 0};
    int written = w < cap ? w : cap;
    memcpy(out, evals, sizeof *out * (size_t)written);
    free(evals);
    return written;
}

int ai_vanilla_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                    carc_search_info *info)
{
    vsearch s;
    if (vsearch_init(&s, g, p))
        return 0;
    double start = ai_now();
    double c = p->opt.c;
    uint64_t iters = 0;
    for (;;) {
        if (p->opt.ms > 0 ? ai_should_stop(p, start)
                          : iters >= p->opt.iters || ai_should_stop(p, start))
            break;
        simulate(&s, g, c);
        iters++;
    }
    int n = write_ranking(&s, g, out, cap);
    info->iterations = iters;
    info->memory_bytes = sizeof *s.nodes * (size_t)s.cap + ai_state_bytes(g) +
                         (sizeof *s.moves + 1) * CARC_MAX_MOVES +
                         (sizeof *s.stamp + sizeof *s.slot) * MOVE_TABLE;
    vsearch_free(&s);
    return n;
}
