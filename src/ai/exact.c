/* exact.c: the exact endgame solver: expectiminimax over the last draws.
 *
 * The tree alternates decision nodes and chance nodes. A decision node is
 * a position whose drawn tile is known: its player chooses among
 * carc_legal_moves() (a discard when the tile fits nowhere: the same
 * player then draws again, as the engine plays it). After a move comes a
 * chance node, the next draw: kind k with probability count_k / total over
 * carc_game_draw_pool(), forced on a copy with carc_game_choose_tile()
 * (in place when it is the only draw: draw_forced). After the last tile
 * the game is over and the node's value is the final margin. Nothing
 * depends on the pile's real (hidden) order.
 *
 * Two players: the value is the root player's final margin, its opponent's
 * negated (the game is zero-sum in margins), maximised by the root player,
 * minimised by the other, averaged at chance nodes. The search is
 * alpha-beta with Ballard's Star2 at chance nodes (Ballard 1983; Hauk,
 * Buro and Schaeffer 2004): a probing phase searches one move of every
 * outcome, which bounds each outcome (from below under a MAX node, from
 * above under a MIN node) and cuts the chance node when those bounds
 * already put it outside the window; then Star1 searches the outcomes in
 * turn, each with the window that the values found, the bounds of the
 * others and the probabilities leave, and stops as soon as the node must
 * fall outside the window. Star1 needs every final margin inside [lo, hi]:
 * margin_bounds() derives them from the scores and the board (each player's
 * future points are at most what its figures on the board and the figures
 * it can still deploy could win), so every cut is sound.
 *
 * Three or more players: max-n. A node's value is the vector of every
 * player's final margin (its score minus the best other's); the player to
 * move takes the move with the highest margin of its own (the first in
 * carc_legal_moves() order among equals), chance nodes average vectors.
 * This is the "each player maximises their own margin" read as
 * written, not the paranoid reduction (all against the mover), which would
 * allow alpha-beta but gives values of a game nobody plays. Max-n with
 * margins is not constant-sum, so alpha-beta is not sound: the search is
 * expectimax with the transposition table, and the last tile's moves are
 * valued as below (a cold move of the ply above passing its scores down).
 * One cut holds (shallow pruning, Korf 1991): any two players' margins
 * add up to at most 0, so a last-tile node whose mover can already reach
 * v is worth at most -v to the player who moved before it, who will not
 * take it when an earlier move gave it -v or more (maxn_cut).
 *
 * Transposition table: keyed by carc_game_digest() of decision nodes (it
 * covers the drawn tile, the counts of the tiles left, the board, the
 * figures, the scores and the turn; the pile's order, which the search
 * never uses, is left out), one entry a slot, always replaced; an entry
 * holds a value with its kind (exact, lower or upper bound) and the best
 * move, tried first when the node is searched again (Star2 searches most
 * nodes twice: probe, then search). The last ply (the pile empty) keeps
 * out of it: its nodes are the most numerous and the cheapest, and would
 * push the others out.
 *
 * Move ordering: the table's move first, then the ply's two killer moves
 * (the last moves that cut a node of this ply: the siblings of a node
 * mostly fall to the same move), then the others sorted, best for the
 * mover first; the sort, which costs a play a move, is done only when
 * those first moves did not cut. Its key is the static evaluation
 * (carc_evaluate, greedy's) of the position after the move, and with two
 * tiles or fewer left to draw the scores if the game ended right after it
 * (a fifth of the cost, and as good an order there). The last ply is not
 * sorted.
 *
 * The last tile (the pile empty: every move ends the game), where nearly
 * all the nodes are: a move's value is its final scores, found without
 * playing it where the rules allow (the base game; the house rules
 * figures_add_up() and ai_quiet_squares() name), from the scores of the
 * position ended as it is (computed once a node, or passed down from the
 * ply above when that ply's move was cold) and the tile's own part:
 * - a placement without a figure on a cold square (ai_square_cold,
 *   exact_layout.c: no follower on the features it would join, no
 *   occupied cloister beside it, no city it could complete, no farm it
 *   could bring a completed city to) changes no final score: nothing to
 *   add, not even the tile placed (three quarters of the last tile's
 *   placements in the measured positions are cold);
 * - on any other square the tile is placed alone (ai_place_only: its
 *   features joined, no turn, no scoring) and ai_end_change values again
 *   what it can change: the features it joins, the cloisters around it,
 *   the farms of a city it completes;
 * - a figure adds what its free feature scores at the end to its player
 *   (figure_worth), the placement being done once for all its figures.
 * The same serves the order of the moves before the last (order_key),
 * whose scores the ply below then takes as its position's scores if the
 * game ended (they are exact there: figures_add_up), so that the last
 * ply rarely ends a game to learn them. Since the mover can always keep
 * those scores (a placement without a figure on a cold square), a last
 * ply's node whose window they already leave fails at once, without its
 * moves listed (last_ply_cut: three quarters of the last ply's nodes in a
 * 4-tile solve). Elsewhere a move is played and the game ended. The unit
 * test compares the probes with played moves and all of it with a brute
 * force, and the rules where it is off too.
 *
 * Threads: each thread has a solver and a table of its own and takes the
 * next root move not yet taken. For every root move's margin (analysis)
 * each is searched with the whole window, so its margin does not depend
 * on the thread or the table. For the best move alone (a player's choice)
 * the first move is searched alone, then the others on every thread above
 * the best margin found so far, which the threads share (search_root_threads):
 * the same best move and margin as on one thread, the others' bounds
 * depending on the timing. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exact.h"
#include "search.h"

enum {
    MAX_PLIES = CARC_EXACT_MAX_TILES + 1, /* moves to the end: the drawn tile and the pile */
    TT_BITS = 17,
    CHECK_MASK = 1023, /* look at the clock every 1024 nodes */
    PROBE_MOVES = 1,   /* moves an outcome's probe searches */
    ALL_MOVES = CARC_MAX_MOVES,
    KILLERS = 2,       /* killer moves kept a ply */
    END_KEY_TILES = 2, /* order_key() by the scores ended at once */
};

/* Kinds of a table entry's value. */
enum { TT_EMPTY = 0, TT_EXACT, TT_LOWER, TT_UPPER };

typedef struct tt_entry {
    uint64_t key;
    double value[CARC_MAX_PLAYERS]; /* two players: value[0], the root's margin */
    carc_move best;
    uint8_t flag;
} tt_entry;

/* What the threads of one solve share (one thread: nothing): the next
 * root move to take, the nodes counted so far, a flag that ends every
 * thread once one has run out of budget, and, when only the best move's
 * margin is asked (AI_EXACT_BEST_MOVE), the best margin found so far, the
 * bound every root move taken next is searched above. */
typedef struct shared_root {
    atomic_int next;
    atomic_int halt;
    _Atomic uint64_t nodes;
    int best_only;
    _Atomic double best;
} shared_root;

/* A move's ordering key (order_key) and, two players, the order by the
 * scores ended at once where those are exact (figures_add_up), those
 * scores: sorted with the move, the ply below takes them as its
 * position's end_scores. */
typedef struct order_entry {
    double key;
    int scores[2];
} order_entry;

/* Everything one solve owns. Ply d holds a decision node pos[d] and, while
 * one of its moves is searched, the position after it in after[d]. */
typedef struct solver {
    const ai_exact_budget *budget;
    shared_root *shared; /* NULL with one thread */
    int plies;           /* decision plies allocated (solver_init) */
    double start;
    int root, players;
    int figures_add_up; /* figures_add_up() of the game */
    int quiet_squares;  /* ai_quiet_squares() of the game */
    double lo, hi;      /* two players: every final margin of the root lies in [lo, hi] */
    carc_game *pos[MAX_PLIES + 1];
    carc_game *after[MAX_PLIES + 1];
    carc_move *moves[MAX_PLIES + 1];
    carc_move base[MAX_PLIES + 1]; /* the placement after[d] holds when base_ok[d] */
    int base_ok[MAX_PLIES + 1];
    int base_only[MAX_PLIES + 1];                    /* ... placed alone (place_only), not played */
    int change[MAX_PLIES + 1][CARC_MAX_PLAYERS];     /* its ai_end_change(), */
    int change_ok[MAX_PLIES + 1];                    /* when 1 (-1: not known) */
    int end_scores[MAX_PLIES + 1][CARC_MAX_PLAYERS]; /* the final scores of pos[d] as it is, */
    int end_ok[MAX_PLIES + 1];                       /* when end_ok[d] */
    int inherit[MAX_PLIES + 1][CARC_MAX_PLAYERS];    /* end_scores[d] from the ply above, */
    int inherit_ok[MAX_PLIES + 1];                   /* when inherit_ok[d] */
    int cold_x[MAX_PLIES + 1], cold_y[MAX_PLIES + 1], cold[MAX_PLIES + 1], cold_ok[MAX_PLIES + 1];
    carc_move killer[MAX_PLIES + 1][KILLERS];
    int killer_ok[MAX_PLIES + 1][KILLERS];
    order_entry *keys[MAX_PLIES + 1]; /* the moves' keys when ordering */
    int key_scores_ok[MAX_PLIES + 1]; /* the keys of ply d hold exact scores */
    /* The cold square where the last node of ply d could keep its scores
     * (has_cold_placement), tried first at the next: its siblings mostly
     * differ elsewhere. */
    int keep_x[MAX_PLIES + 1], keep_y[MAX_PLIES + 1], keep_ok[MAX_PLIES + 1];
    tt_entry *tt;
    size_t tt_mask;
    uint64_t nodes;
    int stopped;
} solver;

/* --- Budget and table --------------------------------------------------------------- */

/* Counts a node and ends the solve when its budget is spent. */
static void count_node(solver *s)
{
    const ai_exact_budget *b = s->budget;
    s->nodes++;
    if (b->nodes && s->nodes > b->nodes)
        s->stopped = 1;
    if ((s->nodes & CHECK_MASK) != 0)
        return;
    if (b->stop && atomic_load_explicit(b->stop, memory_order_relaxed))
        s->stopped = 1;
    if (s->shared) {
        shared_root *sh = s->shared;
        uint64_t all = atomic_fetch_add(&sh->nodes, CHECK_MASK + 1) + CHECK_MASK + 1;
        if ((b->nodes && all > b->nodes) || atomic_load_explicit(&sh->halt, memory_order_relaxed))
            s->stopped = 1;
    }
    if (b->seconds > 0 && ai_now() - s->start >= b->seconds)
        s->stopped = 1;
}

static tt_entry *tt_find(solver *s, uint64_t key)
{
    tt_entry *e = &s->tt[key & s->tt_mask];
    return e->flag != TT_EMPTY && e->key == key ? e : NULL;
}

static void tt_store(solver *s, uint64_t key, int flag, const double *value, carc_move best)
{
    tt_entry *e = &s->tt[key & s->tt_mask];
    e->key = key;
    e->flag = (uint8_t)flag;
    /* Two players: the root's margin alone; more: every player's. */
    size_t n = s->players == 2 ? 1 : (size_t)s->players;
    memcpy(e->value, value, sizeof e->value[0] * n);
    e->best = best;
}

/* --- Chance nodes -------------------------------------------------------------------- */

/* pos[d + 1] = after[d] with tile `kind` drawn. */
static void solver_draw(solver *s, int d, int kind)
{
    carc_game_copy(s->pos[d + 1], s->after[d]);
    carc_game_choose_tile(s->pos[d + 1], kind);
}

/* pos[d + 1] = after[d] with tile `kind` drawn, when that is the only
 * draw (the pile's tiles all of one kind: in every solve, the last): the
 * draw is made in after[d] itself, which serves as pos[d + 1], without a
 * copy. Returns pos[d + 1]'s own state, which the caller puts back when
 * the ply below is done. after[d] is left holding the draw: the ply above
 * plays its next move in after[d] afresh (a copy of pos[d]) and keeps no
 * placement there meanwhile (base_ok[d] is 0 while its moves are searched). */
static carc_game *draw_forced(solver *s, int d, int kind)
{
    carc_game *spare = s->pos[d + 1];
    s->pos[d + 1] = s->after[d];
    carc_game_choose_tile(s->pos[d + 1], kind);
    return spare;
}

/* --- Move ordering ------------------------------------------------------------------- */

/* Moves `hint` (when listed in moves[at .. n)) to moves[at]; returns
 * whether it was listed. */
static int hint_at(carc_move *moves, int at, int n, carc_move hint)
{
    /* A placement elsewhere is not the hint: most moves are passed over
     * without a call (a discard is equal whatever its square). */
    int anywhere = hint.type == CARC_MOVE_DISCARD;
    for (int i = at; i < n; i++)
        if ((anywhere || (moves[i].place.x == hint.place.x && moves[i].place.y == hint.place.y)) &&
            carc_move_equal(moves[i], hint)) {
            memmove(&moves[at + 1], &moves[at], sizeof moves[0] * (size_t)(i - at));
            moves[at] = hint;
            return 1;
        }
    return 0;
}

/* Whether moves a and b place their tile alike (the figure aside). */
static int same_placement(carc_move a, carc_move b)
{
    return a.type == b.type && a.place.x == b.place.x && a.place.y == b.place.y &&
           a.place.rot == b.place.rot && a.place.tile == b.place.tile;
}

/* after[d] = pos[d] after move m without its figure, unless after[d]
 * already holds that (s->base_ok[d]: the placement of s->base[d]). */
static void play_placement(solver *s, int d, carc_move m)
{
    if (s->base_ok[d] && !s->base_only[d] && same_placement(s->base[d], m))
        return;
    m.segment = CARC_NO_SPOT;
    m.figure = 0;
    carc_game_copy(s->after[d], s->pos[d]);
    carc_game_play(s->after[d], m, NULL, 0, NULL);
    s->base[d] = m;
    s->base_ok[d] = 1;
    s->base_only[d] = 0;
}

/* after[d] = pos[d] with m's tile placed alone (ai_place_only: no turn,
 * no scoring), unless after[d] already holds that; fit for figure_worth()
 * and ai_end_change() only. With `change`, also what the placement changes
 * in the final scoring into s->change[d]; returns 0 when that is not
 * known (ai_end_change could not say). */
static int place_only(solver *s, int d, carc_move m, int change)
{
    if (!s->base_ok[d] || !s->base_only[d] || !same_placement(s->base[d], m)) {
        carc_game_copy(s->after[d], s->pos[d]);
        ai_place_only(s->after[d], m.place);
        s->base[d] = m;
        s->base_ok[d] = 1;
        s->base_only[d] = 1;
        s->change_ok[d] = 0;
    }
    if (change && !s->change_ok[d])
        s->change_ok[d] = ai_end_change(s->pos[d], s->after[d], s->change[d]) ? 1 : -1;
    return !change || s->change_ok[d] > 0;
}

/* What the figure of move m would be worth to its player at the end of
 * after[d], the position after m's placement without it (played, or
 * placed alone by place_only: the same features): the final worth
 * of the feature its segment joins (free, or the move would not be
 * legal); 0 without a figure. */
static int figure_worth(const solver *s, int d, carc_move m)
{
    return ai_figure_end_worth(s->after[d], m.segment);
}

int ai_figure_end_worth(const carc_game *g, int segment)
{
    if (segment == CARC_NO_SPOT)
        return 0;
    int id = carc_game_feature(g, carc_game_tile_count(g) - 1, segment);
    return id < 0 ? 0 : ai_end_worth(g, id);
}

static void end_scores(solver *s, int d, carc_move m, int exact, int scores[CARC_MAX_PLAYERS]);
static int scores_margin(const int *scores, int players, int q);

/* The ordering key of move m of pos[d], the root player's margin after it:
 * by the static evaluation, or, with at most END_KEY_TILES tiles left to
 * draw, by the scores if the game ended at once (end_scores: the last
 * moves change the final scoring little, and it costs a fifth of the
 * evaluation, less on a cold square). Two tiles rather than one: 18 and
 * 22% fewer instructions in a 3-tile and a 4-tile solve, about as many
 * positions searched; three: 1% fewer again, but up to 22% more
 * positions in another 4-tile solve. The scores ended at once go into
 * `kept` (left alone under the evaluation's key). */
static double order_key(solver *s, int d, carc_move m, int kept[2])
{
    if (carc_game_tiles_left(s->pos[d], NULL) <= END_KEY_TILES) {
        int scores[CARC_MAX_PLAYERS];
        end_scores(s, d, m, 0, scores);
        memcpy(kept, scores, sizeof(int[2]));
        return scores_margin(scores, s->players, s->root);
    }
    carc_game *a = s->after[d];
    s->base_ok[d] = 0;
    carc_game_copy(a, s->pos[d]);
    carc_game_play(a, m, NULL, 0, NULL);
    double values[CARC_MAX_PLAYERS];
    carc_evaluate(a, values);
    return ai_margin(values, s->players, s->root);
}

/* Sorts moves[from .. n) of pos[d] by the ordering key, highest first when
 * `is_max`, lowest first otherwise; stable. */
static void solver_order_moves(solver *s, int d, int from, int n, int is_max)
{
    carc_move *m = s->moves[d];
    order_entry *v = s->keys[d];
    s->base_ok[d] = 0;
    for (int i = from; i < n; i++)
        v[i].key = order_key(s, d, m[i], v[i].scores);
    s->base_ok[d] = 0;
    for (int i = from + 1; i < n; i++) {
        carc_move mi = m[i];
        order_entry vi = v[i];
        int j = i;
        for (; j > from && (is_max ? vi.key > v[j - 1].key : vi.key < v[j - 1].key); j--) {
            m[j] = m[j - 1];
            v[j] = v[j - 1];
        }
        m[j] = mi;
        v[j] = vi;
    }
    s->key_scores_ok[d] = s->figures_add_up && s->players == 2 &&
                          carc_game_tiles_left(s->pos[d], NULL) <= END_KEY_TILES;
}

/* The legal moves of pos[d]; returns their number. The table's move and
 * the ply's killers, when listed, come first; the others are sorted when
 * the search reaches them (*sorted_from says from where; n when they are
 * not sorted, in the last ply), since one of those first moves often cuts
 * and the sort costs a play (and an evaluation) a move. */
static int ordered_moves(solver *s, int d, const tt_entry *e, int *sorted_from)
{
    int n = carc_legal_moves(s->pos[d], s->moves[d], ALL_MOVES), first = 0;
    int sort = carc_game_tiles_left(s->pos[d], NULL) > 0 && n > 1;
    if (e)
        first += hint_at(s->moves[d], first, n, e->best);
    for (int k = 0; k < KILLERS; k++)
        if (s->killer_ok[d][k])
            first += hint_at(s->moves[d], first, n, s->killer[d][k]);
    *sorted_from = sort ? first : n;
    return n;
}

/* Move m cut pos[d]: a killer of ply d, tried early in the nodes of ply d
 * to come (siblings often fall to the same move). */
static void killer_store(solver *s, int d, carc_move m)
{
    if (s->killer_ok[d][0] && carc_move_equal(s->killer[d][0], m))
        return;
    for (int k = KILLERS - 1; k > 0; k--) {
        s->killer[d][k] = s->killer[d][k - 1];
        s->killer_ok[d][k] = s->killer_ok[d][k - 1];
    }
    s->killer[d][0] = m;
    s->killer_ok[d][0] = 1;
}

/* --- The last tile ------------------------------------------------------------------- */

/* Whether the final scores after a last move with a figure are those after
 * its placement alone with the figure's worth (figure_worth) added to its
 * player: the figure's feature is free (else the spot is not legal), and
 * the final scoring scores each feature apart for the players with the
 * most followers on it. That holds in a game without expansions, whose
 * only figure is the follower and which has no other final scoring, but
 * not with first-edition farms (a city scores once for all the farms
 * around it). Then a placement is played once for all its figures. */
static int figures_add_up(const carc_game *g)
{
    carc_rules r = carc_game_rules(g);
    return r.expansions == 0 && !(r.flags & CARC_RULE_FARMS_FIRST_EDITION);
}

int ai_exact_endgame_tiles(int players)
{
    return players <= 2 ? 4 : players == 3 ? 3 : 2;
}

/* exact.h: figures_add_up(), and no house rule that lets the table's edge
 * close features or a last tile give another turn (neither is searched by
 * the unit test). */
int ai_quiet_squares(const carc_game *g)
{
    carc_rules r = carc_game_rules(g);
    uint32_t unsure = CARC_RULE_TABLE_EDGE_COMPLETES | CARC_RULE_BONUS_TURN;
    return figures_add_up(g) && !(r.flags & unsure);
}

/* ai_square_cold() of (x, y) in pos[d], asked once for the rotations of a
 * square (carc_legal_moves() lists them together). */
static int square_cold_cached(solver *s, int d, int x, int y)
{
    if (!s->cold_ok[d] || s->cold_x[d] != x || s->cold_y[d] != y) {
        s->cold_x[d] = x;
        s->cold_y[d] = y;
        s->cold[d] = ai_square_cold(s->pos[d], x, y);
        s->cold_ok[d] = 1;
    }
    return s->cold[d];
}

/* Whether move m of pos[d] is a placement without a figure on a cold
 * square: it leaves the scores of pos[d] if the game ended, and those of
 * the game ended after it, as they are. */
static int cold_move(solver *s, int d, carc_move m)
{
    return s->quiet_squares && m.type == CARC_MOVE_PLACE && m.segment == CARC_NO_SPOT &&
           square_cold_cached(s, d, m.place.x, m.place.y);
}

/* The scores of pos[d] if the game ended now, in s->end_scores[d]: given
 * by the ply above when it reached pos[d] by a cold move, else computed
 * once a node (in after[d]). */
static void node_end_scores(solver *s, int d)
{
    if (s->end_ok[d])
        return;
    carc_game *a = s->after[d];
    s->base_ok[d] = 0;
    carc_game_copy(a, s->pos[d]);
    carc_game_finish(a, NULL, 0, NULL);
    for (int q = 0; q < s->players; q++)
        s->end_scores[d][q] = carc_game_score(a, q);
    s->end_ok[d] = 1;
}

/* Every player's score after move m of pos[d] if the game ended then (in
 * the last ply, where m ends it, the final scores). Exact where `exact`
 * says so, else an estimate that orders moves: its figure is worth what
 * its feature would score at the end in any game, and a cold square's
 * placement leaves the scores of the position as it is. A figure on a
 * cold square adds its worth to those scores, asked of the tile placed
 * alone (place_only). */
static void end_scores(solver *s, int d, carc_move m, int exact, int scores[CARC_MAX_PLAYERS])
{
    int worth = 0;
    carc_game *a = s->after[d];
    if (s->quiet_squares && m.type == CARC_MOVE_PLACE) { /* figures_add_up() holds */
        int cold = square_cold_cached(s, d, m.place.x, m.place.y);
        node_end_scores(s, d); /* first: it plays in after[d] */
        if (cold && m.segment == CARC_NO_SPOT) {
            memcpy(scores, s->end_scores[d], sizeof s->end_scores[d]);
            return;
        }
        if (place_only(s, d, m, !cold)) {
            for (int q = 0; q < s->players; q++)
                scores[q] = s->end_scores[d][q] + (cold ? 0 : s->change[d][q]);
            scores[carc_game_current_player(s->pos[d])] += figure_worth(s, d, m);
            return;
        }
    }
    if (s->figures_add_up || !exact) {
        play_placement(s, d, m);
        if (!carc_game_over(a))
            carc_game_finish(a, NULL, 0, NULL);
        worth = figure_worth(s, d, m);
    } else {
        s->base_ok[d] = 0;
        carc_game_copy(a, s->pos[d]);
        carc_game_play(a, m, NULL, 0, NULL);
    }
    for (int q = 0; q < s->players; q++)
        scores[q] = carc_game_score(a, q);
    scores[carc_game_current_player(s->pos[d])] += worth;
}

/* Before move i of pos[d] is searched: the ply below learns the scores
 * of its positions if the game ended now (the same whatever tile is drawn
 * next) when the order kept them for move i (the moves from sorted_from
 * on), or when the move is cold (pos[d]'s own). */
static void pass_end_scores(solver *s, int d, int i, int sorted_from)
{
    s->inherit_ok[d + 1] = 0;
    if (s->key_scores_ok[d] && i >= sorted_from) {
        memcpy(s->inherit[d + 1], s->keys[d][i].scores, sizeof s->keys[d][i].scores);
        s->inherit_ok[d + 1] = 1;
        return;
    }
    carc_move m = s->moves[d][i];
    if (!cold_move(s, d, m))
        return;
    node_end_scores(s, d);
    memcpy(s->inherit[d + 1], s->end_scores[d], sizeof s->end_scores[d]);
    s->inherit_ok[d + 1] = 1;
}

/* Player q's margin in `scores`: its score minus the best other's. */
static int scores_margin(const int *scores, int players, int q)
{
    int best = -1000000;
    for (int o = 0; o < players; o++)
        if (o != q && scores[o] > best)
            best = scores[o];
    return scores[q] - best;
}

/* --- Two players: alpha-beta with Star2 ------------------------------------------------ */

static double solver_chance(solver *s, int d, double alpha, double beta);

/* Value of after[d]: the final margin, or the chance node of the next draw. */
static double solver_after_move(solver *s, int d, double alpha, double beta)
{
    const carc_game *g = s->after[d];
    if (carc_game_over(g)) {
        count_node(s);
        return (double)ai_score_margin(g, s->root);
    }
    return solver_chance(s, d, alpha, beta);
}

/* Whether the drawn tile of pos[d] has a legal placement on a cold
 * square (ai_square_cold): placed there without a figure as the last tile,
 * it leaves the final scores of pos[d] as they are. */
static int has_cold_placement(solver *s, int d)
{
    const carc_game *g = s->pos[d];
    if (s->keep_ok[d]) {
        carc_placement q = {(int8_t)s->keep_x[d], (int8_t)s->keep_y[d], 0, 0};
        for (; q.rot < 4; q.rot++)
            if (carc_placement_legal(g, q))
                break;
        if (q.rot < 4 && square_cold_cached(s, d, q.x, q.y))
            return 1;
    }
    carc_placement p[CARC_MAX_PLACEMENTS];
    int n = carc_legal_placements(g, p, CARC_MAX_PLACEMENTS);
    for (int i = 0; i < n; i++)
        if ((i == 0 || p[i].x != p[i - 1].x || p[i].y != p[i - 1].y) &&
            square_cold_cached(s, d, p[i].x, p[i].y)) {
            s->keep_x[d] = p[i].x;
            s->keep_y[d] = p[i].y;
            s->keep_ok[d] = 1;
            return 1;
        }
    return 0;
}

/* The last ply's stand-pat: the mover can always leave the final scores
 * as they are (a placement without a figure on a cold square), so its
 * node is worth at least that margin to it; when that margin is already
 * beyond the window, the node fails there without its moves listed.
 * Returns 1 with the bound in *v. Where the probes hold (two players). */
static int last_ply_cut(solver *s, int d, int is_max, double alpha, double beta, double *v)
{
    node_end_scores(s, d);
    double base = scores_margin(s->end_scores[d], 2, s->root);
    if (is_max ? base < beta : base > alpha)
        return 0;
    if (!has_cold_placement(s, d))
        return 0;
    count_node(s);
    *v = base;
    return 1;
}

/* Value of the decision node pos[d] with the window (alpha, beta),
 * fail-soft, searching at most `limit` of its moves: with all of them the
 * node's value or a bound beyond the window; with fewer, a lower bound of
 * a MAX node (an upper bound of a MIN node), provided the window never lets
 * a child fail the other way (probes pass alpha below lo to MAX nodes and
 * beta above hi to MIN nodes). */
static double solver_decide(solver *s, int d, double alpha, double beta, int limit)
{
    const carc_game *g = s->pos[d];
    int is_max = carc_game_current_player(g) == s->root;
    int last = carc_game_tiles_left(g, NULL) == 0;
    /* The last ply keeps out of the table: its nodes are the most numerous
     * and the cheapest, and would push the others' entries out. */
    uint64_t key = last ? 0 : carc_game_digest(g);
    const tt_entry *e = last ? NULL : tt_find(s, key);
    if (e && (e->flag == TT_EXACT || (e->flag == TT_LOWER && e->value[0] >= beta) ||
              (e->flag == TT_UPPER && e->value[0] <= alpha))) {
        return e->value[0];
    }
    if (e && limit < ALL_MOVES && e->flag == (is_max ? TT_LOWER : TT_UPPER))
        return e->value[0]; /* a probe's bound is already known */
    s->base_ok[d] = 0;
    s->end_ok[d] = s->inherit_ok[d];
    memcpy(s->end_scores[d], s->inherit[d], sizeof s->inherit[d]);
    s->cold_ok[d] = 0;
    s->key_scores_ok[d] = 0;
    double cut;
    if (last && s->quiet_squares && last_ply_cut(s, d, is_max, alpha, beta, &cut))
        return cut;
    count_node(s);
    int sorted_from;
    int n = ordered_moves(s, d, e, &sorted_from);
    int searched = n < limit ? n : limit, best_i = 0;
    double best = is_max ? -INFINITY : INFINITY;
    for (int i = 0; i < searched && !s->stopped; i++) {
        if (i == sorted_from)
            solver_order_moves(s, d, i, n, is_max);
        double v;
        if (last) {
            int scores[CARC_MAX_PLAYERS];
            count_node(s);
            end_scores(s, d, s->moves[d][i], 1, scores);
            v = scores_margin(scores, 2, s->root);
        } else {
            pass_end_scores(s, d, i, sorted_from);
            carc_game_copy(s->after[d], g);
            carc_game_play(s->after[d], s->moves[d][i], NULL, 0, NULL);
            v = is_max ? solver_after_move(s, d, fmax(alpha, best), beta)
                       : solver_after_move(s, d, alpha, fmin(beta, best));
        }
        if (is_max ? v > best : v < best) {
            best = v;
            best_i = i;
        }
        if (is_max ? best >= beta : best <= alpha) {
            killer_store(s, d, s->moves[d][i]);
            break;
        }
    }
    if (s->stopped || last)
        return best;
    int flag = best <= alpha ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
    if (searched < n && flag == TT_EXACT)
        flag = is_max ? TT_LOWER : TT_UPPER;
    tt_store(s, key, flag, &best, s->moves[d][best_i]);
    return best;
}

/* The probing phase of Star2: one move of every outcome, which bounds the
 * outcomes in lb and ub. Returns 1 with the bound in `*cut` when those
 * bounds already put the chance node outside (alpha, beta). */
static int probe(solver *s, int d, int n, const int *kinds, const double *prob, double alpha,
                 double beta, double *lb, double *ub, double *cut)
{
    for (int i = 0; i < n && !s->stopped; i++) {
        solver_draw(s, d, kinds[i]);
        if (carc_game_current_player(s->pos[d + 1]) == s->root) {
            double b = (beta - (ai_weighted(prob, lb, 0, n) - prob[i] * lb[i])) / prob[i];
            lb[i] = fmax(lb[i], solver_decide(s, d + 1, s->lo - 1.0, b, PROBE_MOVES));
            *cut = ai_weighted(prob, lb, 0, n);
            if (*cut >= beta)
                return 1;
        } else {
            double a = (alpha - (ai_weighted(prob, ub, 0, n) - prob[i] * ub[i])) / prob[i];
            ub[i] = fmin(ub[i], solver_decide(s, d + 1, a, s->hi + 1.0, PROBE_MOVES));
            *cut = ai_weighted(prob, ub, 0, n);
            if (*cut <= alpha)
                return 1;
        }
    }
    return 0;
}

/* Value of the chance node after[d] with the window (alpha, beta),
 * fail-soft: Star2. */
static double solver_chance(solver *s, int d, double alpha, double beta)
{
    int kinds[CARC_MAX_KINDS];
    double prob[CARC_MAX_KINDS], lb[CARC_MAX_KINDS], ub[CARC_MAX_KINDS];
    int n = ai_draw_outcomes(s->after[d], kinds, prob);
    if (n == 1) {
        carc_game *spare = draw_forced(s, d, kinds[0]);
        double v = solver_decide(s, d + 1, alpha, beta, ALL_MOVES);
        s->pos[d + 1] = spare;
        return v;
    }
    for (int i = 0; i < n; i++) {
        lb[i] = s->lo;
        ub[i] = s->hi;
    }
    double cut;
    if (probe(s, d, n, kinds, prob, alpha, beta, lb, ub, &cut))
        return cut;
    double sum = 0.0;
    for (int i = 0; i < n && !s->stopped; i++) {
        double rest_ub = ai_weighted(prob, ub, i + 1, n), rest_lb = ai_weighted(prob, lb, i + 1, n);
        double a = (alpha - sum - rest_ub) / prob[i], b = (beta - sum - rest_lb) / prob[i];
        if (ub[i] <= a)
            return sum + prob[i] * ub[i] + rest_ub;
        if (lb[i] >= b)
            return sum + prob[i] * lb[i] + rest_lb;
        solver_draw(s, d, kinds[i]);
        double v = solver_decide(s, d + 1, fmax(a, lb[i]), fmin(b, ub[i]), ALL_MOVES);
        if (v <= a)
            return sum + prob[i] * v + rest_ub;
        if (v >= b)
            return sum + prob[i] * v + rest_lb;
        sum += prob[i] * v;
    }
    return sum;
}

/* --- Three or more players: max-n ------------------------------------------------------ */

/* A cut max-n allows (shallow pruning with margins): for any two players
 * p and q, m_p + m_q <= 0, since m_p <= s_p - s_q and m_q <= s_q - s_p.
 * So when the player q to move at a node can reach a margin of v, the
 * player p whose move led there (through a chance node of one outcome)
 * gets at most -v from it; when p has already found a move worth `bound`
 * to it, and -v <= bound, p will not take this one (a later move must be
 * strictly better), and the node may return any vector whose p-value is
 * at most `bound`. No bound is -INFINITY: the root's moves are all
 * valued, and a chance node of several outcomes passes none down. */
typedef struct maxn_cut {
    int parent; /* the player p, or -1 */
    double bound;
} maxn_cut;

static const maxn_cut NO_CUT = {-1, -INFINITY};

static void maxn_decide(solver *s, int d, maxn_cut cut, double out[CARC_MAX_PLAYERS]);

/* Every player's value of after[d]; `cut` as maxn_decide's, for the
 * forced last draw. */
static void maxn_after(solver *s, int d, maxn_cut cut, double out[CARC_MAX_PLAYERS])
{
    const carc_game *g = s->after[d];
    if (carc_game_over(g)) {
        count_node(s);
        for (int q = 0; q < s->players; q++)
            out[q] = ai_score_margin(g, q);
        return;
    }
    int kinds[CARC_MAX_KINDS];
    double prob[CARC_MAX_KINDS], v[CARC_MAX_PLAYERS];
    int n = ai_draw_outcomes(g, kinds, prob);
    memset(out, 0, sizeof out[0] * CARC_MAX_PLAYERS);
    if (n == 1) {
        carc_game *spare = draw_forced(s, d, kinds[0]);
        maxn_decide(s, d + 1, cut, out);
        s->pos[d + 1] = spare;
        return;
    }
    for (int i = 0; i < n && !s->stopped; i++) {
        solver_draw(s, d, kinds[i]);
        maxn_decide(s, d + 1, NO_CUT, v);
        for (int q = 0; q < s->players; q++)
            out[q] += prob[i] * v[q];
    }
}

/* Every player's margin in `scores`, into out. */
static void scores_margins(const int *scores, int players, double out[CARC_MAX_PLAYERS])
{
    for (int q = 0; q < players; q++)
        out[q] = scores_margin(scores, players, q);
}

/* Every player's value of the decision node pos[d]: its mover's best move,
 * the first in carc_legal_moves() order among equals; or, when `cut`
 * allows (the last tile, its mover not the player p of the move before),
 * as soon as the mover can reach a margin v with -v <= cut.bound, a
 * vector whose p-value is at most cut.bound. Such a node leaves the
 * table alone: the last ply never enters it. */
static void maxn_decide(solver *s, int d, maxn_cut cut, double out[CARC_MAX_PLAYERS])
{
    const carc_game *g = s->pos[d];
    int last = carc_game_tiles_left(g, NULL) == 0;
    /* The last ply keeps out of the table, as with two players. */
    uint64_t key = last ? 0 : carc_game_digest(g);
    const tt_entry *e = last ? NULL : tt_find(s, key);
    if (e) {
        memcpy(out, e->value, sizeof out[0] * CARC_MAX_PLAYERS);
        return;
    }
    memset(out, 0, sizeof out[0] * CARC_MAX_PLAYERS); /* a stopped solve's */
    int mover = carc_game_current_player(g);
    s->base_ok[d] = 0;
    s->end_ok[d] = s->inherit_ok[d];
    memcpy(s->end_scores[d], s->inherit[d], sizeof s->inherit[d]);
    s->cold_ok[d] = 0;
    s->key_scores_ok[d] = 0; /* no order: only a cold move passes its scores down */
    int may_cut = last && cut.parent >= 0 && cut.parent != mover;
    /* The mover can keep the scores as they are (a placement without a
     * figure on a cold square): its margin there may already be enough. */
    if (may_cut && s->quiet_squares) {
        node_end_scores(s, d);
        if (-scores_margin(s->end_scores[d], s->players, mover) <= cut.bound &&
            has_cold_placement(s, d)) {
            count_node(s);
            scores_margins(s->end_scores[d], s->players, out);
            return;
        }
    }
    count_node(s);
    int n = carc_legal_moves(g, s->moves[d], ALL_MOVES), best_i = 0;
    double v[CARC_MAX_PLAYERS];
    for (int i = 0; i < n && !s->stopped; i++) {
        if (last) {
            /* Only the mover's margin decides; the others' when it is kept. */
            int scores[CARC_MAX_PLAYERS];
            count_node(s);
            end_scores(s, d, s->moves[d][i], 1, scores);
            if (i > 0 && scores_margin(scores, s->players, mover) <= out[mover])
                continue;
            scores_margins(scores, s->players, v);
        } else {
            pass_end_scores(s, d, i, ALL_MOVES);
            carc_game_copy(s->after[d], g);
            carc_game_play(s->after[d], s->moves[d][i], NULL, 0, NULL);
            maxn_cut below = {i == 0 ? -1 : mover, i == 0 ? -INFINITY : out[mover]};
            maxn_after(s, d, below, v);
        }
        if (i == 0 || v[mover] > out[mover]) {
            memcpy(out, v, sizeof v);
            best_i = i;
        }
        if (may_cut && -out[mover] <= cut.bound)
            return;
    }
    if (!s->stopped && !last)
        tt_store(s, key, TT_EXACT, out, s->moves[d][best_i]);
}

/* --- Bounds of the final margins ------------------------------------------------------- */

/* The most a feature of each carc_kind can be worth at the end of `g`: a
 * road or a city that every remaining tile joins, a full cloister, a farm
 * beside every city that can exist then. */
static void kind_bounds(const carc_game *g, double worth[CARC_RIVER + 1])
{
    int counts[CARC_MAX_KINDS];
    carc_game_tiles_left(g, counts);
    counts[carc_game_drawn_tile(g)]++;
    int road_tiles = 0, city_units = 0, cities = 0, new_roads = 0, new_cities = 0;
    for (int k = 0; k < carc_tile_kinds(); k++) {
        const carc_tile_def *def = carc_tile(k);
        int roads = 0, city_segments = 0;
        for (int i = 0; i < def->nsegments; i++) {
            roads |= def->segments[i].kind == CARC_ROAD;
            city_segments += def->segments[i].kind == CARC_CITY;
        }
        new_roads += counts[k] * roads;
        new_cities += counts[k] * city_segments;
    }
    /* Every feature of the board once: the segments' features by id. */
    int tiles = carc_game_tile_count(g);
    int max_ids = tiles * CARC_MAX_SEGMENTS_PER_TILE, seen_n = 0;
    int *seen = malloc(sizeof *seen * (size_t)max_ids);
    for (int t = 0; t < tiles && seen; t++) {
        carc_tile_on_board tb;
        carc_game_tile_info(g, t, &tb);
        for (int i = 0; i < carc_tile(tb.kind)->nsegments; i++) {
            int id = carc_game_feature(g, t, i), j = 0;
            while (j < seen_n && seen[j] != id)
                j++;
            carc_feature f;
            if (id < 0 || j < seen_n || carc_game_feature_info(g, id, &f) != CARC_OK)
                continue;
            seen[seen_n++] = id;
            cities += f.kind == CARC_CITY;
            if (f.kind == CARC_ROAD && !f.complete)
                road_tiles += f.tiles;
            if (f.kind == CARC_CITY && !f.complete)
                city_units += f.tiles + f.pennants;
        }
    }
    free(seen);
    int inns = (carc_game_rules(g).expansions & CARC_EXPANSION_INNS_CATHEDRALS) != 0;
    int remaining = carc_game_tiles_left(g, NULL) + 1;
    worth[CARC_ROAD] = (inns ? 2.0 : 1.0) * (road_tiles + new_roads);
    worth[CARC_CITY] = (inns ? 3.0 : 2.0) * (city_units + 2 * remaining);
    worth[CARC_CLOISTER] = 9.0;
    worth[CARC_FIELD] = 4.0 * (cities + new_cities);
    worth[CARC_RIVER] = 0.0;
}

/* [lo, hi] of the root player's final margin in a two-player game: each
 * player's future points are at most the worth of the features its
 * figures stand in now, plus one feature of the highest worth for each
 * move still to come (a new figure each), plus the goods. */
static void margin_bounds(solver *s, const carc_game *g)
{
    double worth[CARC_RIVER + 1], gain[2] = {0.0, 0.0}, top = 0.0;
    kind_bounds(g, worth);
    for (int k = 0; k <= CARC_RIVER; k++)
        top = fmax(top, worth[k]);
    for (int t = 0; t < carc_game_tile_count(g); t++) {
        carc_tile_on_board tb;
        carc_game_tile_info(g, t, &tb);
        if (tb.follower_segment == CARC_NO_SPOT || tb.follower_owner > 1)
            continue;
        int kind = carc_tile(tb.kind)->segments[tb.follower_segment].kind;
        gain[tb.follower_owner] += worth[kind <= CARC_RIVER ? kind : CARC_RIVER];
    }
    int remaining = carc_game_tiles_left(g, NULL) + 1;
    int traders = (carc_game_rules(g).expansions & CARC_EXPANSION_TRADERS_BUILDERS) != 0;
    for (int q = 0; q < 2; q++)
        gain[q] += remaining * top + (traders ? 30.0 : 0.0);
    int own = carc_game_score(g, s->root), other = carc_game_score(g, 1 - s->root);
    s->lo = own - (other + gain[1 - s->root]);
    s->hi = own + gain[s->root] - other;
}

/* --- The root ---------------------------------------------------------------------------- */

/* Why `g` cannot be solved, or NULL. */
static const char *unsupported(const carc_game *g)
{
    carc_rules rules = carc_game_rules(g);
    if (carc_game_over(g))
        return "the game is over: no move to rank";
    if (rules.hand)
        return "a game with hand=N hides tiles: the exact solver plays without hands";
    if (rules.flags & CARC_RULE_RESHUFFLE)
        return "reshuffle puts discarded tiles back: the exact solver plays without it";
    return NULL;
}

static void solver_free(solver *s)
{
    for (int d = 0; d <= MAX_PLIES; d++) {
        carc_game_free(s->pos[d]);
        carc_game_free(s->after[d]);
        free(s->moves[d]);
        free(s->keys[d]);
    }
    free(s->tt);
}

/* Allocates the plies and the table; pos[0] is `g`. */
static int solver_init(solver *s, const carc_game *g, const ai_exact_budget *budget, int plies)
{
    memset(s, 0, sizeof *s);
    s->budget = budget;
    s->plies = plies;
    s->start = ai_now();
    s->root = carc_game_current_player(g);
    s->players = carc_game_players(g);
    s->figures_add_up = figures_add_up(g);
    s->quiet_squares = ai_quiet_squares(g);
    s->tt_mask = ((size_t)1 << TT_BITS) - 1;
    s->tt = calloc(s->tt_mask + 1, sizeof *s->tt);
    int ok = s->tt != NULL;
    for (int d = 0; d <= plies && ok; d++) {
        s->pos[d] = carc_game_clone(g);
        s->after[d] = carc_game_clone(g);
        s->moves[d] = malloc(sizeof *s->moves[d] * ALL_MOVES);
        s->keys[d] = malloc(sizeof *s->keys[d] * ALL_MOVES);
        ok = s->pos[d] && s->after[d] && s->moves[d] && s->keys[d];
    }
    ok = ok && s->moves[0]; /* plies >= 0: ply 0 is there */
    if (!ok)
        solver_free(s);
    else if (s->players == 2)
        margin_bounds(s, g);
    return ok ? 0 : -1;
}

/* The root's value of move i of pos[0] (after[0] holds the position after
 * it), searched with the window (alpha, hi]. */
static double root_value(solver *s, double alpha)
{
    if (s->players == 2)
        return solver_after_move(s, 0, alpha, s->hi + 1.0);
    double v[CARC_MAX_PLAYERS];
    maxn_after(s, 0, NO_CUT, v);
    return v[s->root];
}

/* Searches the root move of `e` with the window (alpha, hi] into `e`: its
 * margin (an upper bound when it is at most alpha) and the positions
 * searched below it. */
static double search_root_move(solver *s, carc_move_eval *e, double alpha)
{
    s->base_ok[0] = 0;
    s->inherit_ok[1] = 0;
    carc_game_copy(s->after[0], s->pos[0]);
    carc_game_play(s->after[0], e->move, NULL, 0, NULL);
    uint64_t before = s->nodes;
    double v = root_value(s, alpha);
    uint64_t used = s->nodes - before;
    e->margin = v;
    e->visits = used > UINT32_MAX ? UINT32_MAX : (uint32_t)used;
    return v;
}

/* Searches every root move into evals[0 .. n); returns 0, or -1 when the
 * budget ran out. */
static int solver_search_root(solver *s, ai_exact_goal goal, carc_move_eval *evals, int n)
{
    double best = s->lo - 1.0;
    for (int i = 0; i < n; i++) {
        double alpha = goal == AI_EXACT_BEST_MOVE && i > 0 ? best : s->lo - 1.0;
        double v = search_root_move(s, &evals[i], alpha);
        if (s->stopped)
            return -1;
        best = fmax(best, v);
    }
    return 0;
}

/* One thread of a solve on several: its own solver takes the next root
 * move not yet taken until none is left, each with the whole window, or,
 * for the best move alone, above the best margin found so far by any
 * thread (raised as its own moves end). The moves are taken in order, so
 * the first move of the best margin is searched above a lower bound and
 * ends exact, as it does on one thread: the best move is the same. */
typedef struct root_thread {
    solver s;
    carc_move_eval *evals;
    int n, failed, started;
    pthread_t id;
} root_thread;

/* Raises the threads' best margin to v when v is higher. */
static void raise_best(shared_root *sh, double v)
{
    double best = atomic_load(&sh->best);
    while (v > best && !atomic_compare_exchange_weak(&sh->best, &best, v))
        continue; /* another thread raised it meanwhile: best holds its value */
}

static void *run_root_thread(void *arg)
{
    root_thread *t = arg;
    solver *s = &t->s;
    for (;;) {
        int i = atomic_fetch_add(&s->shared->next, 1);
        if (i >= t->n)
            break;
        shared_root *sh = s->shared;
        double alpha = sh->best_only ? atomic_load(&sh->best) : s->lo - 1.0;
        double v = search_root_move(s, &t->evals[i], alpha);
        if (s->stopped) {
            t->failed = 1;
            atomic_store(&sh->halt, 1);
            break;
        }
        if (sh->best_only)
            raise_best(sh, v);
    }
    return NULL;
}

/* solver_search_root() for every root move on up to `threads` threads:
 * the caller's with `first` (the solve's own solver, freed here), the
 * others each with a solver of its own made from `g` (as many as memory
 * allows); returns 0, or -1 when the budget ran out. Adds the positions
 * searched to *nodes. For the best move alone, the first move (the best
 * by the static order, mostly) is searched alone first: the others are
 * then searched above its margin, most of them only to a bound. */
static int search_root_threads(solver *first, const carc_game *g, ai_exact_goal goal,
                               carc_move_eval *evals, int n, int threads, uint64_t *nodes)
{
    shared_root shared;
    atomic_init(&shared.next, 0);
    atomic_init(&shared.halt, 0);
    atomic_init(&shared.nodes, 0);
    shared.best_only = goal == AI_EXACT_BEST_MOVE;
    atomic_init(&shared.best, first->lo - 1.0);
    root_thread *t = calloc((size_t)threads, sizeof *t);
    if (!t) { /* one thread, then */
        int status = solver_search_root(first, goal, evals, n);
        *nodes += first->nodes;
        solver_free(first);
        return status;
    }
    if (shared.best_only) {
        double v = search_root_move(first, &evals[0], first->lo - 1.0);
        if (first->stopped) {
            *nodes += first->nodes;
            solver_free(first);
            free(t);
            return -1;
        }
        atomic_store(&shared.best, v);
        atomic_store(&shared.next, 1);
        atomic_store(&shared.nodes, first->nodes);
    }
    t[0].s = *first;
    int made = 1;
    for (; made < threads; made++) {
        if (solver_init(&t[made].s, g, first->budget, first->plies))
            break;
        t[made].s.start = first->start; /* one clock for the whole solve */
    }
    for (int k = 0; k < made; k++) {
        t[k].s.shared = &shared;
        t[k].evals = evals;
        t[k].n = n;
    }
    for (int k = 1; k < made; k++)
        t[k].started = pthread_create(&t[k].id, NULL, run_root_thread, &t[k]) == 0;
    run_root_thread(&t[0]);
    int status = 0;
    for (int k = 0; k < made; k++) {
        if (t[k].started)
            pthread_join(t[k].id, NULL);
        if (t[k].failed)
            status = -1;
        *nodes += t[k].s.nodes;
        solver_free(&t[k].s);
    }
    free(t);
    return status;
}

static int give_up(carc_exact_info *info, const char *reason)
{
    info->exact = 0;
    snprintf(info->reason, sizeof info->reason, "%s", reason);
    return 0;
}

/* The root moves into evals: the engine's order, or (for the best move
 * alone, two players) the static order, which settles the best sooner. */
static int root_moves(solver *s, ai_exact_goal goal, carc_move_eval *evals)
{
    int n = carc_legal_moves(s->pos[0], s->moves[0], ALL_MOVES);
    if (goal == AI_EXACT_BEST_MOVE && s->players == 2 && carc_game_tiles_left(s->pos[0], NULL))
        solver_order_moves(s, 0, 0, n, 1);
    for (int i = 0; i < n; i++)
        evals[i] = (carc_move_eval){s->moves[0][i], 0.0, 0.5, 0};
    return n;
}

int ai_exact_rank(const carc_game *g, const ai_exact_budget *budget, ai_exact_goal goal,
                  carc_move_eval *out, int cap, carc_exact_info *info)
{
    double start = ai_now();
    memset(info, 0, sizeof *info);
    const char *why = unsupported(g);
    if (why)
        return give_up(info, why);
    info->tiles_left = carc_game_tiles_left(g, NULL);
    if (info->tiles_left > CARC_EXACT_MAX_TILES) {
        char text[96];
        snprintf(text, sizeof text, "%d tiles left: the exact solver takes at most %d",
                 info->tiles_left, CARC_EXACT_MAX_TILES);
        return give_up(info, text);
    }
    solver s;
    carc_move_eval *evals = malloc(sizeof *evals * CARC_MAX_MOVES);
    if (!evals || solver_init(&s, g, budget, info->tiles_left + 1)) {
        free(evals);
        return give_up(info, "out of memory");
    }
    int n = root_moves(&s, goal, evals);
    int threads = budget->threads > 1 ? budget->threads : 1;
    threads = threads < n ? threads : n > 0 ? n : 1;
    int status;
    if (threads > 1) {
        status = search_root_threads(&s, g, goal, evals, n, threads, &info->nodes);
    } else {
        status = solver_search_root(&s, goal, evals, n);
        info->nodes = s.nodes;
        solver_free(&s);
    }
    info->seconds = ai_now() - start;
    info->memory_bytes =
        (size_t)threads * (((size_t)1 << TT_BITS) * sizeof(tt_entry) +
                           (size_t)(info->tiles_left + 2) *
                               (2 * ai_state_bytes(g) +
                                (size_t)ALL_MOVES * (sizeof(carc_move) + sizeof(order_entry))));
    int w = 0;
    if (status == 0) {
        ai_sort_evals_by(evals, n, ai_higher_margin);
        info->exact = 1;
        w = n < cap ? n : cap;
        memcpy(out, evals, sizeof *out * (size_t)w);
    } else {
        char text[128];
        snprintf(text, sizeof text,
                 "%d tiles left: the budget ran out before the solve ended (%.2f s, %llu "
                 "positions)",
                 info->tiles_left, info->seconds, (unsigned long long)info->nodes);
        give_up(info, budget->stop && atomic_load(budget->stop) ? "stopped before the end" : text);
    }
    free(evals);
    return w;
}

int carc_exact_rank(const carc_game *g, uint64_t max_nodes, int ms, carc_move_eval *out, int cap,
                    carc_exact_info *info)
{
    carc_exact_info local;
    return carc_exact_rank_threads(g, max_nodes, ms, 1, out, cap, info ? info : &local);
}

int carc_exact_rank_threads(const carc_game *g, uint64_t max_nodes, int ms, int threads,
                            carc_move_eval *out, int cap, carc_exact_info *info)
{
    carc_exact_info local;
    if (!info)
        info = &local;
    if (threads < 1 || threads > CARC_EXACT_MAX_THREADS) {
        memset(info, 0, sizeof *info);
        char text[64];
        snprintf(text, sizeof text, "threads must be 1 to %d, not %d", CARC_EXACT_MAX_THREADS,
                 threads);
        return give_up(info, text);
    }
    ai_exact_budget budget = {max_nodes, ms > 0 ? ms * 1e-3 : 0.0, NULL, threads};
    return ai_exact_rank(g, &budget, AI_EXACT_ALL_MOVES, out, cap, info);
}
