/* star25.c: the Star2.5 expectimax baseline of Heyden (2009),
 * "Implementing a computer player for Carcassonne" (Maastricht master
 * thesis), with the static evaluation carc_evaluate as its heuristic.
 *
 * The tree alternates decision nodes and chance nodes: the root player
 * knows its drawn tile and moves (MAX); then a chance node draws the next
 * player's tile, kind k with probability count_k / total over the tiles
 * the root player cannot see (the pile and the tile the engine drew, whose
 * kind is hidden from it), forced on a copy with carc_game_choose_tile;
 * then that player moves (MIN); and so on. The value of a node is the root
 * player's margin (its evaluation minus the best other, ai_margin) at the
 * leaves, maximised at MAX, minimised at MIN and averaged with the tile
 * probabilities at chance nodes. Nothing depends on the real pile order.
 *
 * Followed from the thesis (as issue 3 summarises it; the stored copies we
 * could search hold only its front matter, whose abstract reports that
 * Star2.5 with a probing factor of 5 played best):
 *   - Star2.5 (Ballard 1983; Hauk, Buro and Schaeffer 2004): alpha-beta at
 *     the decision nodes, and at each chance node first a probing phase
 *     that searches only the first `probe` successors (spec probe, default
 *     5) of every outcome, which bounds each outcome (an upper bound below
 *     a MIN node, a lower bound below a MAX node) and cuts the chance node
 *     when those bounds already settle it against the window; then the
 *     Star1 search phase over the outcomes, each searched with the window
 *     that the probabilities, the values found so far and the remaining
 *     bounds leave, cutting as soon as the chance node must fall outside;
 *   - depth 3 (spec depth), counted one level per node kind, chance
 *     levels included, as the issue reads the thesis: MAX, chance, MIN,
 *     then the evaluation (we could not check the thesis's own count).
 *     Depth 5 adds a chance and a MAX level; depth 1 is one ply (greedy);
 *   - move ordering by the static evaluation at the root and at inner
 *     decision nodes (best first for MAX, worst first for MIN).
 *
 * Where we had to choose:
 *   - Bounds L and U. Star1 and the probing phase need limits on every leaf
 *     value. The margin evaluation has no useful fixed range, so the leaf
 *     value is clipped to [m0 - W, m0 + W], m0 being the root position's
 *     static margin and W = 50 points per move in the horizon (100 at
 *     depth 3, whose horizon holds two moves). In 12 greedy games of 2 and
 *     3 players (9 million leaves) no leaf strayed more than 36 points from
 *     m0, so the clip never bound; and by construction L = m0 - W and
 *     U = m0 + W are exact bounds of the (clipped) evaluation: every cut
 *     is sound.
 *   - More than two players: paranoid. Every opponent is a MIN node
 *     minimising the root player's margin. A player who moves twice in a
 *     row (a bonus turn, a discard) simply gets two decision nodes, each
 *     after its own chance node: the node's kind follows who is to move.
 *   - Ordering of the last decision level (whose children are leaves): a
 *     static ordering would cost as much as searching it, so its moves are
 *     taken in the engine's order with a killer move first (the best reply
 *     found at the same level with the same tile kind earlier in the
 *     search); probing there tries the killer and the next moves.
 *   - Deviation: inner decision nodes (neither the root nor the last
 *     decision level, so only at depth 4 and more) search only their best
 *     BEAM moves by static evaluation. The default depth 3 has no such
 *     node and is a full Star2.5 search.
 *   - Ties: the root moves are shuffled with the player's seed before the
 *     stable sort of the ordering, so equal moves are chosen at random but
 *     reproducibly for a seed.
 *   - Time: a stop request or the ms budget ends the search; the best root
 *     move fully searched so far is returned (the first is the statically
 *     best, searched with an open window).
 *
 * rank() lists the root moves by their expectimax value, best first:
 * margin = the value (for a move cut off by the pruning, an upper bound of
 * it, which never exceeds the best move's value), win = 0.5 (no estimate),
 * visits = nodes searched under the move. Moves a stopped search did not
 * reach follow with their static value and 0 visits. */
#include <stdlib.h>
#include <string.h>

#include "ai.h"
#include "search.h"
#include "star25.h"

enum {
    MAX_DEPTH = 5,
    BEAM = 4,              /* moves searched at inner decision nodes */
    STOP_CHECK_MASK = 255, /* look at the clock every 256 leaves */
    CLIP_PER_MOVE = 50,    /* W per move in the horizon, in points */
    NO_MOVE = -1,
};

/* Everything one call to rank() owns; freed at its end. Level l holds the
 * position of the tree's nodes at depth l (the root is level 0). */
typedef struct s25 {
    carc_player *p;
    double start;
    int root_player, players, depth, probe;
    double lo, hi; /* L and U: every leaf value lies in [lo, hi] */
    carc_game *state[MAX_DEPTH + 1];
    carc_move *moves[MAX_DEPTH + 1];
    double *value[MAX_DEPTH + 1]; /* static values when ordering */
    carc_move killer[MAX_DEPTH + 1][CARC_MAX_KINDS];
    uint8_t has_killer[MAX_DEPTH + 1][CARC_MAX_KINDS];
    uint64_t nodes;
    int stopped;
} s25;

static double clip(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The clipped margin of the root player in `g`. */
static double leaf(s25 *s, const carc_game *g)
{
    double v[CARC_MAX_PLAYERS];
    carc_evaluate(g, v);
    if ((++s->nodes & STOP_CHECK_MASK) == 0 && ai_should_stop(s->p, s->start))
        s->stopped = 1;
    return clip(ai_margin(v, s->players, s->root_player), s->lo, s->hi);
}

static double s25_chance(s25 *s, int level, double alpha, double beta);

/* Value of state[level], just after a move: a leaf at the horizon or at
 * the end of the game, else a chance node. */
static double s25_after_move(s25 *s, int level, double alpha, double beta)
{
    const carc_game *g = s->state[level];
    if (level == s->depth || carc_game_over(g))
        return leaf(s, g);
    return s25_chance(s, level, alpha, beta);
}

/* Moves the killer of (level, tile) to the front of moves[0 .. n). */
static void killer_first(s25 *s, int level, int tile, carc_move *moves, int n)
{
    if (tile < 0 || !s->has_killer[level][tile])
        return;
    carc_move k = s->killer[level][tile];
    for (int i = 1; i < n; i++)
        if (carc_move_equal(moves[i], k)) {
            moves[i] = moves[0];
            moves[0] = k;
            return;
        }
}

/* Sorts moves[0 .. n) by their static values, best for the mover first
 * (highest when `is_max`, lowest otherwise); stable. */
static void s25_order_moves(s25 *s, int level, int n, int is_max)
{
    const carc_game *g = s->state[level];
    carc_game *child = s->state[level + 1];
    carc_move *m = s->moves[level];
    double *v = s->value[level];
    for (int i = 0; i < n; i++) {
        carc_game_copy(child, g);
        carc_game_play(child, m[i], NULL, 0, NULL);
        v[i] = leaf(s, child);
    }
    for (int i = 1; i < n; i++) {
        carc_move mi = m[i];
        double vi = v[i];
        int j = i;
        for (; j > 0 && (is_max ? vi > v[j - 1] : vi < v[j - 1]); j--) {
            m[j] = m[j - 1];
            v[j] = v[j - 1];
        }
        m[j] = mi;
        v[j] = vi;
    }
}

/* Value of the decision node state[level] with the window (alpha, beta),
 * fail-soft, searching at most `limit` of its moves: with all of them, the
 * node's value (or a bound beyond the window); with fewer, a MIN node
 * gets an upper bound and a MAX node a lower bound of its value, as long
 * as the window never lets a child fail the other way (the probing phase
 * passes beta = hi to MIN nodes and alpha = lo to MAX nodes). */
static double s25_decide(s25 *s, int level, double alpha, double beta, int limit)
{
    const carc_game *g = s->state[level];
    carc_move *moves = s->moves[level];
    int is_max = carc_game_current_player(g) == s->root_player;
    int tile = carc_game_drawn_tile(g);
    int n = carc_legal_moves(g, moves, CARC_MAX_MOVES);
    if (level + 1 == s->depth) {
        killer_first(s, level, tile, moves, n);
    } else {
        s25_order_moves(s, level, n, is_max);
        if (limit > BEAM)
            limit = BEAM;
    }
    if (n > limit)
        n = limit;
    double best = is_max ? s->lo - 1.0 : s->hi + 1.0;
    int best_move = NO_MOVE;
    carc_game *child = s->state[level + 1];
    for (int i = 0; i < n && !s->stopped; i++) {
        carc_game_copy(child, g);
        carc_game_play(child, moves[i], NULL, 0, NULL);
        if (is_max) {
            double v = s25_after_move(s, level + 1, alpha > best ? alpha : best, beta);
            if (v > best) {
                best = v;
                best_move = i;
            }
            if (best >= beta)
                break;
        } else {
            double v = s25_after_move(s, level + 1, alpha, beta < best ? beta : best);
            if (v < best) {
                best = v;
                best_move = i;
            }
            if (best <= alpha)
                break;
        }
    }
    if (best_move != NO_MOVE && tile >= 0) {
        s->killer[level][tile] = moves[best_move];
        s->has_killer[level][tile] = 1;
    }
    return best;
}

/* The outcomes of the draw after state[level]: the kinds the root player
 * cannot tell apart (the pile and the engine's drawn tile) with their
 * probabilities. Returns their number. */
static int outcomes(const carc_game *g, int kinds[CARC_MAX_KINDS], double prob[CARC_MAX_KINDS])
{
    int counts[CARC_MAX_KINDS];
    if (carc_game_draw_pool(g, counts) == 0 && !carc_game_over(g)) {
        /* hand=N: no tile is drawn before a move; the next player holds
         * its (sampled) hand. */
        kinds[0] = carc_game_drawn_tile(g);
        prob[0] = 1.0;
        return 1;
    }
    return ai_draw_outcomes(g, kinds, prob);
}

/* Sets state[level + 1] to state[level] with tile `kind` drawn. */
static void s25_draw(s25 *s, int level, int kind)
{
    carc_game_copy(s->state[level + 1], s->state[level]);
    carc_game_choose_tile(s->state[level + 1], kind);
}

/* The probing phase: the first `probe` moves of every outcome, which bound
 * the outcomes' values in lb and ub. Returns 1 and the bound in `*cut`
 * when those bounds already put the chance node outside (alpha, beta). */
static int probe_outcomes(s25 *s, int level, int n, const int *kinds, const double *prob,
                          double alpha, double beta, double *lb, double *ub, double *cut)
{
    for (int i = 0; i < n && !s->stopped; i++) {
        s25_draw(s, level, kinds[i]);
        int is_max = carc_game_current_player(s->state[level + 1]) == s->root_player;
        if (is_max) {
            double others = ai_weighted(prob, lb, 0, n) - prob[i] * lb[i];
            double b = (beta - others) / prob[i];
            double v = s25_decide(s, level + 1, s->lo, b, s->probe);
            if (v > lb[i])
                lb[i] = v;
            double bound = ai_weighted(prob, lb, 0, n);
            if (bound >= beta) {
                *cut = bound;
                return 1;
            }
        } else {
            double others = ai_weighted(prob, ub, 0, n) - prob[i] * ub[i];
            double a = (alpha - others) / prob[i];
            double v = s25_decide(s, level + 1, a, s->hi, s->probe);
            if (v < ub[i])
                ub[i] = v;
            double bound = ai_weighted(prob, ub, 0, n);
            if (bound <= alpha) {
                *cut = bound;
                return 1;
            }
        }
    }
    return 0;
}

/* Value of the chance node state[level] (a position after a move, before
 * the next draw) with the window (alpha, beta), fail-soft: Star2.5. */
static double s25_chance(s25 *s, int level, double alpha, double beta)
{
    int kinds[CARC_MAX_KINDS];
    double prob[CARC_MAX_KINDS], lb[CARC_MAX_KINDS], ub[CARC_MAX_KINDS];
    int n = outcomes(s->state[level], kinds, prob);
    if (level + 1 == s->depth) {
        double sum = 0.0;
        for (int i = 0; i < n; i++) {
            s25_draw(s, level, kinds[i]);
            sum += prob[i] * leaf(s, s->state[level + 1]);
        }
        return sum;
    }
    for (int i = 0; i < n; i++) {
        lb[i] = s->lo;
        ub[i] = s->hi;
    }
    double cut;
    if (s->probe > 0 && probe_outcomes(s, level, n, kinds, prob, alpha, beta, lb, ub, &cut))
        return cut;
    /* Star1: outcome i must lie in (a, b) for the node to fall inside the
     * window, given the exact values before it and the bounds after it. */
    double sum = 0.0;
    for (int i = 0; i < n && !s->stopped; i++) {
        double rest_ub = ai_weighted(prob, ub, i + 1, n);
        double rest_lb = ai_weighted(prob, lb, i + 1, n);
        double a = (alpha - sum - rest_ub) / prob[i];
        double b = (beta - sum - rest_lb) / prob[i];
        if (ub[i] <= a)
            return sum + prob[i] * ub[i] + rest_ub;
        if (lb[i] >= b)
            return sum + prob[i] * lb[i] + rest_lb;
        s25_draw(s, level, kinds[i]);
        double v =
            s25_decide(s, level + 1, a > lb[i] ? a : lb[i], b < ub[i] ? b : ub[i], CARC_MAX_MOVES);
        if (v <= a)
            return sum + prob[i] * v + rest_ub;
        if (v >= b)
            return sum + prob[i] * v + rest_lb;
        sum += prob[i] * v;
    }
    return sum;
}

static void s25_free(s25 *s)
{
    for (int l = 0; l <= MAX_DEPTH; l++) {
        carc_game_free(s->state[l]);
        free(s->moves[l]);
        free(s->value[l]);
    }
}

/* Allocates the per-level games and move lists; state[0] is `g`. */
static int s25_init(s25 *s, carc_player *p, const carc_game *g)
{
    memset(s, 0, sizeof *s);
    s->p = p;
    s->start = ai_now();
    s->depth = p->opt.depth < 1 ? 1 : p->opt.depth > MAX_DEPTH ? MAX_DEPTH : p->opt.depth;
    s->probe = p->opt.probe < 0 ? 0 : p->opt.probe;
    s->root_player = carc_game_current_player(g);
    s->players = carc_game_players(g);
    int ok = 1;
    for (int l = 0; l <= s->depth; l++) {
        s->state[l] = carc_game_clone(g);
        s->moves[l] = malloc(sizeof *s->moves[l] * CARC_MAX_MOVES);
        s->value[l] = malloc(sizeof *s->value[l] * CARC_MAX_MOVES);
        ok = ok && s->state[l] && s->moves[l] && s->value[l];
    }
    if (!ok) {
        s25_free(s);
        return -1;
    }
    double v[CARC_MAX_PLAYERS];
    carc_evaluate(g, v);
    double m0 = ai_margin(v, s->players, s->root_player);
    int horizon_moves = (s->depth + 1) / 2; /* MAX and MIN levels */
    double w = CLIP_PER_MOVE * (double)horizon_moves;
    s->lo = m0 - w;
    s->hi = m0 + w;
    return 0;
}

/* The root: every move, in static order, each searched with the window
 * (best so far, U]. Fills evals[0 .. n) and returns how many were
 * searched to the end (they come first). */
static int s25_search_root(s25 *s, int n, carc_move_eval *evals)
{
    const carc_game *g = s->state[0];
    carc_move *moves = s->moves[0];
    for (int i = 0; i < n; i++)
        evals[i] = (carc_move_eval){moves[i], s->value[0][i], 0.5, 0};
    double best = s->lo - 1.0;
    int searched = 0;
    for (int i = 0; i < n && !ai_should_stop(s->p, s->start); i++) {
        carc_game_copy(s->state[1], g);
        carc_game_play(s->state[1], moves[i], NULL, 0, NULL);
        uint64_t before = s->nodes;
        double v = s->depth == 1 ? s->value[0][i] : s25_after_move(s, 1, best, s->hi + 1.0);
        if (s->stopped)
            break;
        uint64_t used = s->nodes - before;
        evals[i].margin = v;
        evals[i].visits = used > UINT32_MAX ? UINT32_MAX : (uint32_t)used;
        searched++;
        if (v > best)
            best = v;
    }
    ai_sort_evals_by(evals, searched, ai_higher_margin);
    return searched;
}

int ai_star25_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                   carc_search_info *info)
{
    s25 s;
    if (s25_init(&s, p, g))
        return 0;
    carc_move *moves = s.moves[0];
    int n = carc_legal_moves(g, moves, CARC_MAX_MOVES);
    carc_move_eval *evals = malloc(sizeof *evals * (size_t)n);
    if (!evals) {
        s25_free(&s);
        return 0;
    }
    /* Equal static values are broken at random: shuffle, then sort. */
    for (int i = n - 1; i > 0; i--) {
        int j = (int)carc_rng_below(&p->rng, (uint32_t)i + 1);
        carc_move t = moves[i];
        moves[i] = moves[j];
        moves[j] = t;
    }
    s25_order_moves(&s, 0, n, 1);
    s25_search_root(&s, n, evals);
    int w = n < cap ? n : cap;
    memcpy(out, evals, sizeof *out * (size_t)w);
    info->iterations = s.nodes;
    info->memory_bytes =
        (size_t)(s.depth + 1) *
            (ai_state_bytes(g) + CARC_MAX_MOVES * (sizeof(carc_move) + sizeof(double))) +
        sizeof *evals * (size_t)n;
    free(evals);
    s25_free(&s);
    return w;
}
