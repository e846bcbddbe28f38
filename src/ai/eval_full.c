/* eval_full.c: the full static evaluation: the basic one (eval.c) and what
 * the tiles still to come say about each open square.
 *
 * The same terms as carc_evaluate (points scored, open features owned,
 * farms, followers in supply), with the chance that an open road, city or
 * cloister is completed taken square by square. Each frontier square is
 * filled with a chance that grows with the copies to come of the kinds
 * that fit it in some rotation (the pile and the drawn tile: the unplayed
 * tiles, whose order stays hidden). A square no tile to come fits is dead:
 * a city open into it is never completed and scores its end value, a
 * cloister gets nothing from it, and a follower there never comes home.
 * Besides, from one pass over the frontier:
 *   - a farm may grow into the squares its fields face;
 *   - two occupied cities, or two occupied farms, that one tile on a
 *     square would join share their worth as the joined majority says, in
 *     proportion to the square's fill chance;
 * and a follower on a feature likely to be completed is worth part of a
 * follower in supply. Early in the game an occupied feature counts only
 * part of its worth to its owners: it may yet be shared or lost. Reads
 * the game's internals (state.h) for speed: it values every leaf of a
 * search. */
#include "../state.h" /* first: it picks the layout */

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "../board.h"
#include "../feature.h"
#include "../capabilities.h"
#include "../scoring.h"
#include "../bounds.h"
#include "../source.h"
#include "../tiles.h"
#include "eval.h"

/* Weights, tuned by greedy-against-greedy matches of 1,000 to 2,000 deals
 * (seeds 11, 21 and 31; docs/players.md); eval.c's where no change won,
 * and eval.c's worth of the followers in supply (ai_follower_worth). */
static const double open_city_share = 0.6; /* farms: an open bordering city (eval.c: 0.4) */
static const double farmer_lock = 6.0;     /* farms: a farmer placed at the start (8.0) */
/* Completion chance of one open square of a city before its fill chance:
 * eval.c's chance per open edge, but a square counts once whatever edges
 * lead into it, as its signature asks a tile to match them all. */
static const double city_base = 0.3, city_room = 0.55;
/* A square that n copies to come fit is filled with chance
 * 1 - exp(-n / fill_scale): 0.33 for one copy, 0.55 for two, 0.98 for ten. */
static const double fill_scale = 2.5;
static const double cloister_room = 0.6; /* an empty neighbour of a cloister (0.9) */
/* Each open end of a road costs this times its fill chance: a road likely to
 * run on keeps its follower away longer. */
static const double road_end_cost = 0.3;
/* A follower on a feature is worth this share of a follower in supply
 * times the feature's chance of completion: it comes home. */
static const double return_share = 0.2;
/* A farm gains this per square its fields face, times the square's fill
 * chance, fading as the pile runs out (as the farmer's lock does). */
static const double farm_room = 0.3;
/* How likely a tile on a square between two occupied cities (farms) joins
 * them, per unit of the square's fill chance. */
static const double city_join = 0.3, farm_join = 0.2;
/* An occupied feature counts to its owners only 1 - early_doubt * (tiles
 * to come / 71) of its worth: early on it may yet be shared, taken over or
 * cut off. A least-squares fit of final margins on the terms of this
 * evaluation (213,000 positions of greedy:eval=full self-play) gave
 * weights of 0.4 to 0.6 for the features' worths early, 0.6 to 0.8
 * midgame and 0.9 to 1.0 at the end; greedy gained +2.2 to +2.7 points with 0.45, and less
 * with 0.3 or 0.6 (docs/players.md). */
static const double early_doubt = AI_EARLY_DOUBT;

enum {
    MAX_OCCUPIED = CARC_MAX_PLAYERS * CARC_FOLLOWERS,
    MAX_OPEN_SQUARES = 32,
    MAX_KNOWN_CITIES = 64,
    MAX_JOINS = 32,
    UNKNOWN = 255,
};

/* The copies to come of each kind, and what follows from them alone:
 * kept from one evaluation to the next on the same thread, since a
 * search values many positions with the same tiles to come (the
 * placements of one tile, each with the next tile drawn), and worked out
 * again only when the counts differ. */
typedef struct fit_cache {
    uint8_t counts[LAYOUT_KINDS];      /* copies to come of each kind */
    uint64_t count_lanes[COUNT_WORDS]; /* the same, laid out as carc_sig_count_lanes */
    uint8_t fits[SIGNATURES];          /* copies that fit a signature, or UNKNOWN */
    int valid;
    unsigned generation; /* one more each time the counts change */
} fit_cache;

static _Thread_local fit_cache fit_cached;

/* The walks of features, kept between the evaluations of one position's
 * children (ai_evaluate_full_children): a search values every placement of
 * a tile, each on a copy of the same position, and a placement joins only
 * the features next to its tile. A feature it does not touch keeps its
 * root, its segments and the squares it is open into (their signatures may
 * change, so their fill chances are worked out each time), so its walk in
 * one child holds in every child that does not touch it either. Entries
 * are made at a feature's first walk in a child that leaves it untouched.
 * A road or city keeps its distinct tiles, pennants, marks, whether it is
 * open into the table's edge and its open squares; a farm the city
 * segments it borders and the squares it faces; squares as grid cells,
 * since a square's index on the frontier moves as squares come and go. */
typedef struct walk_entry {
    uint16_t tiles, pennants, marks, dead;
    uint16_t first, n;          /* its cells: cell[first .. first + n) */
    uint16_t first_city, ncity; /* a farm's bordering city segments */
} walk_entry;

enum {
    MEMO_CELLS = 4 * MAX_SEGMENTS, /* four squares at most a segment */
    MEMO_CITIES = 4 * MAX_SEGMENTS,
};

/* The worth and completion chance of an occupied road, city or cloister
 * that a child's tile left untouched, kept for its siblings: they place
 * the same tile, so the tiles to come are the same, and a sibling's tile
 * changes the worth only where it joins the feature or lands beside (or
 * on) a square the worth reads. In a hand game siblings may place
 * different tiles: a worth is used only with the tiles to come it was
 * worked out with (the same generation of the thread's fit_cache).
 * `x0 .. x1, y0 .. y1`: the squares where a tile may change it (the
 * squares it reads and their four neighbours). Kept only from a child
 * whose tile lies outside them, so the values are the parent's. Farms are
 * not kept: checking that their cities stayed as they were costs about
 * what valuing them again does (measured). */
typedef struct kept_worth {
    double worth, q;
    unsigned owners;
    int16_t x0, x1, y0, y1;
    unsigned generation; /* fit_cache's when it was worked out */
} kept_worth;

typedef struct walk_memo {
    uint32_t stamp; /* one per parent position; 0: none */
    int tiles;      /* the parent's tiles: a child has one more */
    int nentries, ncells, ncities;
    uint32_t root_stamp[MAX_SEGMENTS]; /* the stamp of the entry of a root */
    uint16_t entry_of[MAX_SEGMENTS];
    walk_entry entry[MAX_SEGMENTS];
    uint16_t cell[MEMO_CELLS];
    seg_id city[MEMO_CITIES];
    uint32_t worth_stamp[MAX_SEGMENTS]; /* the stamp of a root's kept worth */
    kept_worth worth[MAX_SEGMENTS];
    uint32_t child;                /* one per child valued; 0: none yet */
    uint32_t joined[MAX_SEGMENTS]; /* `child` at the roots that child's tile joins */
} walk_memo;

static _Thread_local walk_memo walks;

/* What one evaluation works out once and shares between features. */
typedef struct eval_ctx {
    const carc_game *g;
    int left;          /* tiles to come: the drawn one or the hands included */
    int pile;          /* tiles drawn in a whole game */
    int incomplete;    /* whether incomplete features score at the end */
    fit_cache *fit;    /* this thread's, for the counts to come of g */
    double per_square; /* completion chance of one open square, by left */
    walk_memo *memo;   /* a child's evaluation (see walk_memo), or NULL */
    int nx, ny;        /* where the child's new tile lies */
    int ncities;       /* open cities whose chance is known */
    seg_id city_root[MAX_KNOWN_CITIES];
    double city_chance[MAX_KNOWN_CITIES];
} eval_ctx;

/* The occupied features: roots, worths to their owners and, for farms,
 * the fill chances of the squares they face. `slot` maps a root to its
 * index (valid for occupied roots only). Bit i of `faced[f]` is set when
 * occupied city or farm i touches frontier square f. */
typedef struct occupied {
    int n;
    seg_id root[MAX_OCCUPIED];
    double worth[MAX_OCCUPIED];
    double room[MAX_OCCUPIED];
    unsigned owners[MAX_OCCUPIED]; /* feature_majority of its followers */
    uint8_t slot[MAX_SEGMENTS];
    uint64_t faced[MAX_FRONTIER];
} occupied;

static_assert(MAX_OCCUPIED <= 64, "occupied.faced holds one bit per occupied feature");

/* Two occupied features one tile may join, and the best fill chance of a
 * square between them. */
typedef struct joins {
    int n;
    seg_id a[MAX_JOINS], b[MAX_JOINS];
    double fill[MAX_JOINS];
} joins;

/* The frontier squares the open edges of a feature lead to, each once. */
typedef struct open_squares {
    int n;
    int dead; /* open into the table's edge (table=WxH without
                 table-edge-completes): never completed */
    frontier_id square[MAX_OPEN_SQUARES];
} open_squares;

/* fill_chance[n]: the chance that a square n copies to come fit is filled
 * before the game ends. fit_mask[sig]: carc_sig_count_lanes[sig] with each
 * 16-bit lane (0 to 4 rotations) made all ones when not 0, to lay over
 * the counts to come. Both worked out once, on the first evaluation. */
static double fill_chance[CARC_MAX_TILES + 1];
static uint64_t fit_mask[SIGNATURES][COUNT_WORDS];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_init(void)
{
    for (int n = 0; n <= CARC_MAX_TILES; n++)
        fill_chance[n] = 1.0 - exp(-n / fill_scale);
    const uint64_t lane_ones = 0x0001000100010001ull;
    for (int sig = 0; sig < SIGNATURES; sig++)
        for (int w = 0; w < COUNT_WORDS; w++) {
            uint64_t r = carc_sig_count_lanes[sig][w];
            fit_mask[sig][w] = ((r | r >> 1 | r >> 2) & lane_ones) * 0xFFFFu;
        }
}

/* Copies to come that fit a square of signature `sig` in some rotation,
 * four kinds at a time. */
static int fitting_copies(eval_ctx *c, unsigned sig)
{
    fit_cache *f = c->fit;
    if (f->fits[sig] == UNKNOWN) {
        uint64_t sum = 0;
        for (int w = 0; w < COUNT_WORDS; w++)
            sum += f->count_lanes[w] & fit_mask[sig][w];
        /* No lane holds more than the 72 tiles: add the four lanes. */
        f->fits[sig] = (uint8_t)((sum * 0x0001000100010001ull) >> 48);
    }
    return f->fits[sig];
}

/* Chance that frontier square `f` is filled before the game ends. */
static double square_fill(eval_ctx *c, int f)
{
    return fill_chance[fitting_copies(c, c->g->frontier[f].sig)];
}

/* Whether the child's tile joins the feature rooted at `root` (a child's
 * evaluation only: c->memo). */
static int tile_joins(const eval_ctx *c, int root)
{
    return c->memo->joined[root] == c->memo->child;
}

/* Roots marked as seen, each with the current mark: no clearing between
 * one use and the next. */
typedef struct root_marks {
    uint32_t mark;
    uint32_t at[MAX_SEGMENTS];
} root_marks;

static _Thread_local root_marks occupied_seen, cities_seen;

static uint32_t next_mark(root_marks *m)
{
    if (++m->mark == 0) { /* after 2^32 uses: no mark is old enough */
        memset(m->at, 0, sizeof m->at);
        m->mark = 1;
    }
    return m->mark;
}

/* The kept walk of the feature rooted at `root`, when a child is being
 * valued and its tile does not touch the feature (then `*untouched` is 1);
 * NULL when there is none (yet). */
static const walk_entry *kept_walk(const eval_ctx *c, int root, int *untouched)
{
    const walk_memo *m = c->memo;
    *untouched = 0;
    if (!m || tile_joins(c, root))
        return NULL;
    *untouched = 1;
    return m->root_stamp[root] == m->stamp ? &m->entry[m->entry_of[root]] : NULL;
}

/* A new entry for the untouched feature rooted at `root`, whose `cells`
 * cells and `cities` city segments were written at the ends of the memo's
 * pools; NULL when the memo is full. */
static walk_entry *keep_walk(eval_ctx *c, int root, int cells, int cities)
{
    walk_memo *m = c->memo;
    if (m->nentries == MAX_SEGMENTS || m->ncells + cells > MEMO_CELLS ||
        m->ncities + cities > MEMO_CITIES)
        return NULL;
    walk_entry *e = &m->entry[m->nentries];
    m->entry_of[root] = (uint16_t)m->nentries++;
    m->root_stamp[root] = m->stamp;
    e->first = (uint16_t)m->ncells;
    e->n = (uint16_t)cells;
    e->first_city = (uint16_t)m->ncities;
    e->ncity = (uint16_t)cities;
    m->ncells += cells;
    m->ncities += cities;
    return e;
}

/* The kept worth of the occupied feature rooted at `root` (see
 * kept_worth), when a child is being valued and its tile neither joins
 * the feature nor lies where it would change the worth; else NULL. */
static const kept_worth *kept_worth_of(const eval_ctx *c, int root)
{
    const walk_memo *m = c->memo;
    if (!m || m->worth_stamp[root] != m->stamp)
        return NULL;
    const kept_worth *k = &m->worth[root];
    if (k->generation != c->fit->generation)
        return NULL;
    if (c->nx >= k->x0 && c->nx <= k->x1 && c->ny >= k->y0 && c->ny <= k->y1)
        return NULL;
    if (tile_joins(c, root))
        return NULL;
    return k;
}

/* Keeps the worth and chance of the occupied feature rooted at `root`,
 * which reads the squares x0 .. x1, y0 .. y1 (see kept_worth), when a
 * child is being valued whose tile leaves them as they were. */
static void keep_worth(eval_ctx *c, int root, double worth, double q, unsigned owners, int x0,
                       int x1, int y0, int y1)
{
    walk_memo *m = c->memo;
    x0--, x1++, y0--, y1++;
    if (!m || (c->nx >= x0 && c->nx <= x1 && c->ny >= y0 && c->ny <= y1) || tile_joins(c, root))
        return;
    m->worth_stamp[root] = m->stamp;
    m->worth[root] = (kept_worth){worth,       q,           owners,      (int16_t)x0,
                                  (int16_t)x1, (int16_t)y0, (int16_t)y1, c->fit->generation};
}

/* Keeps the worth and chance of the occupied road or city rooted at
 * `root`, open into the squares `o`. */
static void keep_open_worth(eval_ctx *c, int root, double worth, double q, unsigned owners,
                            const open_squares *o)
{
    if (!c->memo)
        return;
    int x0 = 127, x1 = -127, y0 = 127, y1 = -127;
    for (int i = 0; i < o->n; i++) {
        const frontier_square *f = &c->g->frontier[o->square[i]];
        x0 = f->x < x0 ? f->x : x0;
        x1 = f->x > x1 ? f->x : x1;
        y0 = f->y < y0 ? f->y : y0;
        y1 = f->y > y1 ? f->y : y1;
    }
    keep_worth(c, root, worth, q, owners, x0, x1, y0, y1);
}

/* The frontier square in grid cell `cell`, and the cell of square `f`. */
static int square_in(const carc_game *g, unsigned cell)
{
    return g->grid[cell] - FRONTIER_BASE;
}

static uint16_t cell_of(const carc_game *g, int f)
{
    return (uint16_t)board_cell(g->frontier[f].x, g->frontier[f].y);
}

static void add_square(open_squares *o, int f)
{
    for (int i = 0; i < o->n; i++)
        if (o->square[i] == f)
            return;
    if (o->n < MAX_OPEN_SQUARES)
        o->square[o->n++] = (frontier_id)f;
}

/* The frontier squares beyond the open edges of segment `m`'s tile that
 * the segment's ports meet, where `side` is the ports of one edge taken
 * (three bits, shifted by three for each further edge), by direction: how
 * many, in `f`. Most tiles of a late board have no open edge. The square
 * beyond an open side is a frontier square, so its grid cell holds it
 * (board_frontier_at without the checks). */
static inline int squares_beyond(const eval_ctx *c, const seg_node *m, unsigned side, int f[4])
{
    const carc_game *g = c->g;
    const board_tile *t = &g->tiles[m->tile];
    unsigned open = t->open;
    if (!open)
        return 0;
    unsigned ports = carc_seg_ports[t->kind][t->rot][seg_local(m)];
    int n = 0;
    for (; open; open &= open - 1) {
        int d = __builtin_ctz(open);
        if (ports & (side << (3 * d))) {
            int x = t->x + carc_dx[d], y = t->y + carc_dy[d];
            f[n] = g->grid[board_cell(x, y)] - FRONTIER_BASE;
            assert(f[n] == board_frontier_at(g, x, y));
            n++;
        }
    }
    return n;
}

/* Whether segment `m` (a road's or a city's) crosses an edge of its tile
 * that faces the table's edge: a side no tile will ever match, and that
 * is no longer open on the board (bounds_place()). */
static int faces_table_edge(const carc_game *g, const seg_node *m)
{
    const board_tile *t = &g->tiles[m->tile];
    unsigned ports = carc_seg_ports[t->kind][t->rot][seg_local(m)];
    for (int d = 0; d < 4; d++)
        if ((ports & (2u << (3 * d))) && bounds_beyond(g, t->x + carc_dx[d], t->y + carc_dy[d]))
            return 1;
    return 0;
}

/* Walks the road or city rooted at `root`: its tiles, pennants and the
 * squares its open edges lead to, and whether it is open into the
 * table's edge. A road or city segment holds the middle port of each
 * edge it crosses (and no other port). Returns the distinct tiles. */
static int walk_feature(eval_ctx *c, int root, int *pennants, unsigned *marks, open_squares *o)
{
    const carc_game *g = c->g;
    int untouched;
    const walk_entry *kept = kept_walk(c, root, &untouched);
    if (kept) {
        o->n = kept->n;
        o->dead = kept->dead;
        for (int i = 0; i < kept->n; i++)
            o->square[i] = (frontier_id)square_in(g, c->memo->cell[kept->first + i]);
        *pennants = kept->pennants;
        *marks = kept->marks;
        return kept->tiles;
    }
    uint64_t seen[2] = {0, 0};
    int tiles = 0, flags = 0;
    unsigned marked = 0;
    o->n = 0;
    o->dead = 0;
    /* Only a bounded table whose edge closes nothing has such sides. */
    int bounded =
        carc_rules_table_edge(&g->rules, NULL, NULL, NULL, NULL) && !bounds_edge_completes(g);
    int s = root;
    do {
        const seg_node *m = &g->seg[s];
        const board_tile *t = &g->tiles[m->tile];
        uint64_t bit = 1ull << (m->tile & 63);
        if (!(seen[m->tile >> 6] & bit)) {
            seen[m->tile >> 6] |= bit;
            tiles++;
        }
        unsigned local = seg_local(m);
        flags += carc_tile_data[t->kind].segments[local].pennant;
        if (LAYOUT_WIDE) /* no base tile has a mark */
            marked |= carc_tile_data[t->kind].segments[local].marks;
        int f[4];
        int n = squares_beyond(c, m, 2u, f);
        for (int i = 0; i < n; i++)
            add_square(o, f[i]);
        if (bounded && !o->dead)
            o->dead = faces_table_edge(g, m);
        s = m->next;
    } while (s != root);
    *pennants = flags;
    *marks = marked;
    if (untouched) {
        walk_memo *memo = c->memo;
        for (int i = 0; i < o->n && memo->ncells + i < MEMO_CELLS; i++)
            memo->cell[memo->ncells + i] = cell_of(g, o->square[i]);
        walk_entry *e = keep_walk(c, root, o->n, 0);
        if (e) {
            e->tiles = (uint16_t)tiles;
            e->pennants = (uint16_t)flags;
            e->marks = (uint16_t)marked;
            e->dead = (uint16_t)o->dead;
        }
    }
    return tiles;
}

/* Chance that a city open into the squares `o` is completed: each square
 * filled, and closed as eval.c closes one open edge. */
static double completion_chance(eval_ctx *c, const open_squares *o)
{
    if (o->dead)
        return 0.0;
    double q = 1.0;
    for (int i = 0; i < o->n; i++)
        q *= square_fill(c, o->square[i]) * c->per_square;
    return q;
}

static void remember_city(eval_ctx *c, int root, double q)
{
    if (c->ncities < MAX_KNOWN_CITIES) {
        c->city_root[c->ncities] = (seg_id)root;
        c->city_chance[c->ncities++] = q;
    }
}

/* The completion chance of the open city rooted at `root`, remembered. */
static double city_chance_by_squares(eval_ctx *c, int root)
{
    for (int i = 0; i < c->ncities; i++)
        if (c->city_root[i] == root)
            return c->city_chance[i];
    int pennants;
    open_squares o;
    unsigned marks;
    walk_feature(c, root, &pennants, &marks, &o);
    double q = completion_chance(c, &o);
    remember_city(c, root, q);
    return q;
}

/* Expected points of the open city rooted at `root`, its completion
 * chance in `*q` and the squares it is open into in `o`. */
static double city_worth(eval_ctx *c, int root, double *q, open_squares *o)
{
    const carc_game *g = c->g;
    int pennants;
    unsigned marks;
    int tiles = walk_feature(c, root, &pennants, &marks, o);
    *q = completion_chance(c, o);
    remember_city(c, root, *q);
    double end = c->incomplete ? feature_worth(g, CARC_CITY, tiles, pennants, marks, 0) : 0.0;
    return *q * feature_worth(g, CARC_CITY, tiles, pennants, marks, 1) + (1.0 - *q) * end;
}

/* Expected points of the open road rooted at `root` (its tiles now, less the
 * cost of its open ends), and its completion chance in `*q`: both ends
 * filled (closing a road adds nothing, so time plays no part). */
static double road_worth(eval_ctx *c, int root, double *q, open_squares *o)
{
    const carc_game *g = c->g;
    int pennants;
    unsigned marks;
    int tiles = walk_feature(c, root, &pennants, &marks, o);
    double ends = 0.0;
    *q = o->dead ? 0.0 : 1.0;
    for (int i = 0; i < o->n; i++) {
        double fill = square_fill(c, o->square[i]);
        ends += fill;
        *q *= fill;
    }
    if (marks & CARC_MARK_INN) /* all when complete, nothing when not */
        return *q * feature_worth(g, CARC_ROAD, tiles, 0, marks, 1) - road_end_cost * ends;
    return c->incomplete ? feature_worth(g, CARC_ROAD, tiles, 0, 0, 0) - road_end_cost * ends : 0.0;
}

/* Expected points of the open cloister rooted at `root`: its tiles now and
 * each empty neighbour by its chance to be filled; all of them filled in
 * `*q`. An empty neighbour off the frontier touches no tile: anything fits. */
static double cloister_worth(eval_ctx *c, int root, double *q)
{
    const carc_game *g = c->g;
    const board_tile *t = &g->tiles[g->seg[root].tile];
    double room = cloister_room * fmin(1.0, c->left / 30.0);
    int empty = (int)seg_open(&g->seg[root]);
    double worth = c->incomplete ? feature_worth(g, CARC_CLOISTER, 9 - empty, 0, 0, 0) : 0.0;
    *q = 1.0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if ((!dx && !dy) || board_tile_at(g, t->x + dx, t->y + dy) >= 0)
                continue;
            /* Beyond the table's edge: filled already (counted in `empty`)
             * with table-edge-completes, else never. */
            int beyond = bounds_beyond(g, t->x + dx, t->y + dy);
            if (beyond && bounds_edge_completes(g))
                continue;
            int f = board_frontier_at(g, t->x + dx, t->y + dy);
            double fill = beyond ? 0.0 : f >= 0 ? square_fill(c, f) : 1.0;
            worth += room * fill;
            *q *= fill;
        }
    return worth;
}

/* Adds `city` to `cities` unless `seen` has it with `mark`. */
static void list_add_city(seg_id *cities, int *n, int city, root_marks *seen, uint32_t mark)
{
    if (seen->at[city] == mark)
        return;
    seen->at[city] = mark;
    if (*n < MAX_SEGMENTS)
        cities[(*n)++] = (seg_id)city;
}

/* Expected farm points of the occupied farm rooted at `root`: each
 * bordering city, completed in full and open by its chance, less the
 * farmer locked away. Records the frontier squares its fields face. */
static double farm_worth_and_faces(eval_ctx *c, int root, uint64_t faced[MAX_FRONTIER],
                                   uint64_t bit)
{
    const carc_game *g = c->g;
    seg_id cities[MAX_SEGMENTS];
    int ncities = 0;
    root_marks *seen = &cities_seen;
    uint32_t mark = next_mark(seen);
    int untouched;
    const walk_entry *kept = kept_walk(c, root, &untouched);
    if (kept) {
        const walk_memo *memo = c->memo;
        for (int i = 0; i < kept->ncity; i++)
            list_add_city(cities, &ncities, feature_root(g, memo->city[kept->first_city + i]), seen,
                          mark);
        for (int i = 0; i < kept->n; i++)
            faced[square_in(g, memo->cell[kept->first + i])] |= bit;
    } else {
        /* An untouched farm's walk is written at the ends of the memo's
         * pools as it goes, and kept if it fits. */
        walk_memo *memo = untouched ? c->memo : NULL;
        int ncell = 0, ncity = 0, fits = memo != NULL;
        int s = root;
        do {
            const seg_node *m = &g->seg[s];
            const board_tile *t = &g->tiles[m->tile];
            for (unsigned borders = seg_borders(m); borders; borders &= borders - 1) {
                int city = t->seg_base + __builtin_ctz(borders);
                list_add_city(cities, &ncities, feature_root(g, city), seen, mark);
                if (fits && (fits = memo->ncities + ncity < MEMO_CITIES))
                    memo->city[memo->ncities + ncity++] = (seg_id)city;
            }
            int f[4];
            int n = squares_beyond(c, m, 7u, f);
            for (int i = 0; i < n; i++) {
                faced[f[i]] |= bit;
                if (fits && (fits = memo->ncells + ncell < MEMO_CELLS))
                    memo->cell[memo->ncells + ncell++] = cell_of(g, f[i]);
            }
            s = m->next;
        } while (s != root);
        if (fits)
            keep_walk(c, root, ncell, ncity);
    }
    double per_city = feature_worth(g, CARC_FIELD, 1, 0, 0, 1);
    double worth = 0.0;
    for (int i = 0; i < ncities; i++) {
        int open = seg_open(&g->seg[cities[i]]) != 0;
        worth += per_city * (open ? open_city_share * city_chance_by_squares(c, cities[i]) : 1.0);
    }
    return worth - farmer_lock * c->left / (double)c->pile;
}

static void ctx_init(eval_ctx *c, const carc_game *g)
{
    pthread_once(&tables_once, tables_init);
    c->g = g;
    uint8_t counts[LAYOUT_KINDS];
    c->left = source_to_come(g, counts);
    /* Kinds a capability places itself (The River's, at the river's open
     * end) fill no other square. */
    for (int k = 0; k < LAYOUT_KINDS; k++)
        if (counts[k] && caps_owns_kind(g, k))
            counts[k] = 0;
    c->incomplete = caps_incomplete_scores(g);
    c->pile = carc_game_tile_total(g) - 1;
    c->per_square = city_base + city_room * fmin(1.0, c->left / 20.0);
    c->memo = NULL;
    c->ncities = 0;
    fit_cache *f = c->fit = &fit_cached;
    if (f->valid && memcmp(f->counts, counts, sizeof counts) == 0)
        return;
    memcpy(f->counts, counts, sizeof counts);
    for (int w = 0; w < COUNT_WORDS; w++) {
        f->count_lanes[w] = 0;
        for (int lane = 0; lane < 4; lane++)
            f->count_lanes[w] |= (uint64_t)counts[4 * w + lane] << (16 * lane);
    }
    memset(f->fits, UNKNOWN, sizeof f->fits);
    f->valid = 1;
    f->generation++;
}

static void add_join(joins *j, int a, int b, double fill)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    int k = 0;
    while (k < j->n && (j->a[k] != a || j->b[k] != b))
        k++;
    if (k == j->n) {
        if (k == MAX_JOINS)
            return;
        j->a[k] = (seg_id)a;
        j->b[k] = (seg_id)b;
        j->fill[j->n++] = 0.0;
    }
    j->fill[k] = fmax(j->fill[k], fill);
}

/* One pass over the frontier squares that occupied cities and farms
 * face: the squares each farm may grow into, and the cities and farms a
 * tile there may join. */
static void scan_frontier(eval_ctx *c, occupied *occ, joins *j)
{
    const carc_game *g = c->g;
    j->n = 0;
    for (int f = 0; f < g->nfrontier; f++) {
        if (!occ->faced[f])
            continue;
        double fill = square_fill(c, f);
        for (uint64_t as = occ->faced[f]; as; as &= as - 1) {
            int a = __builtin_ctzll(as);
            unsigned kind = seg_kind(&g->seg[occ->root[a]]);
            if (kind == CARC_FIELD)
                occ->room[a] += fill;
            for (uint64_t bs = as & (as - 1); bs; bs &= bs - 1) {
                int b = __builtin_ctzll(bs);
                if (seg_kind(&g->seg[occ->root[b]]) == kind)
                    add_join(j, occ->root[a], occ->root[b], fill);
            }
        }
    }
}

/* Two occupied cities (farms) one tile may join: each player gains, by the
 * chance of the join, what the joined majority would give it. */
static void add_joins(const carc_game *g, const occupied *occ, const joins *j,
                      double out[CARC_MAX_PLAYERS], double (*terms)[AI_TERMS])
{
    for (int k = 0; k < j->n; k++) {
        double wa = occ->worth[occ->slot[j->a[k]]], wb = occ->worth[occ->slot[j->b[k]]];
        uint32_t fa = seg_followers(&g->seg[j->a[k]]), fb = seg_followers(&g->seg[j->b[k]]);
        unsigned oa = occ->owners[occ->slot[j->a[k]]], ob = occ->owners[occ->slot[j->b[k]]];
        unsigned joined = feature_majority(fa + fb, g->nplayers);
        double chance =
            (seg_kind(&g->seg[j->a[k]]) == CARC_CITY ? city_join : farm_join) * j->fill[k];
        for (int p = 0; p < g->nplayers; p++) {
            unsigned bit = 1u << p;
            double now = (oa & bit ? wa : 0.0) + (ob & bit ? wb : 0.0);
            double then = joined & bit ? wa + wb : 0.0;
            out[p] += chance * (then - now);
            if (terms)
                terms[p][AI_TERM_JOINS] += chance * (then - now);
        }
    }
}

/* The term of an occupied feature's worth, by kind (AI_TERM_CITY ..). */
static const uint8_t worth_term[4] = {
    [CARC_ROAD] = AI_TERM_ROAD,
    [CARC_CITY] = AI_TERM_CITY,
    [CARC_FIELD] = AI_TERM_FARM,
    [CARC_CLOISTER] = AI_TERM_CLOISTER,
};

/* Adds each occupied feature's worth to its owners and records it in
 * `occ`; a follower's chance to come home goes to its player. */
static void value_features(eval_ctx *c, occupied *occ, double out[CARC_MAX_PLAYERS],
                           double (*terms)[AI_TERMS])
{
    const carc_game *g = c->g;
    double home = return_share * ai_follower_unit(c->left);
    double early = c->left / (double)c->pile;
    double keep = 1.0 - early_doubt * early;
    occ->n = 0; /* occ->slot is written for each occupied root before it is read */
    root_marks *seen = &occupied_seen;
    uint32_t mark = next_mark(seen);
    memset(occ->faced, 0, sizeof occ->faced[0] * (size_t)g->nfrontier);
    /* The tiles with a figure, in the order of the board (the sums below
     * add in that order). */
    for (int w = 0; w < 2; w++)
        for (uint64_t figures = g->follower_tiles[w]; figures; figures &= figures - 1) {
            int t = 64 * w + __builtin_ctzll(figures);
            int root = feature_root(g, g->tiles[t].seg_base + g->tiles[t].follower_seg);
            if (seen->at[root] == mark || occ->n == MAX_OCCUPIED)
                continue;
            seen->at[root] = mark;
            const seg_node *r = &g->seg[root];
            unsigned kind = seg_kind(r);
            double worth, q = 0.0;
            uint64_t bit = 1ull << occ->n;
            const kept_worth *kept = kind == CARC_FIELD ? NULL : kept_worth_of(c, root);
            unsigned owners = kept ? kept->owners : feature_majority(seg_followers(r), g->nplayers);
            if (kind == CARC_FIELD) {
                worth = farm_worth_and_faces(c, root, occ->faced, bit);
            } else if (kept) {
                worth = kept->worth;
                q = kept->q;
                if (kind == CARC_CITY) { /* its squares, as a sibling kept them */
                    int pennants;
                    unsigned marks;
                    open_squares o;
                    walk_feature(c, root, &pennants, &marks, &o);
                    remember_city(c, root, q);
                    for (int i = 0; i < o.n; i++)
                        occ->faced[o.square[i]] |= bit;
                }
            } else if (kind == CARC_CLOISTER) {
                worth = cloister_worth(c, root, &q);
                const board_tile *at = &g->tiles[r->tile];
                keep_worth(c, root, worth, q, owners, at->x - 1, at->x + 1, at->y - 1, at->y + 1);
            } else {
                open_squares o;
                if (kind == CARC_CITY) {
                    worth = city_worth(c, root, &q, &o);
                    for (int i = 0; i < o.n; i++)
                        occ->faced[o.square[i]] |= bit;
                } else {
                    worth = road_worth(c, root, &q, &o);
                }
                keep_open_worth(c, root, worth, q, owners, &o);
            }
            occ->slot[root] = (uint8_t)occ->n;
            occ->root[occ->n] = (seg_id)root;
            occ->worth[occ->n] = worth;
            occ->owners[occ->n] = owners;
            occ->room[occ->n++] = 0.0;
            for (int p = 0; p < g->nplayers; p++) {
                if (owners & (1u << p))
                    out[p] += keep * worth;
                out[p] += home * q * followers_of(seg_followers(r), p);
                if (terms) {
                    if (owners & (1u << p)) {
                        terms[p][worth_term[kind]] += worth;
                        terms[p][worth_term[kind] + AI_TERM_CITY_EARLY - AI_TERM_CITY] +=
                            worth * early;
                    }
                    terms[p][AI_TERM_RETURN] += home * q * followers_of(seg_followers(r), p);
                }
            }
        }
}

/* Sets `c` to value a child of the memo's position (see walk_memo): the
 * roots its new tile's segments belong to. */
static void ctx_child(eval_ctx *c, walk_memo *memo)
{
    const carc_game *g = c->g;
    c->memo = memo;
    c->nx = g->tiles[g->ntiles - 1].x;
    c->ny = g->tiles[g->ntiles - 1].y;
    if (++memo->child == 0) { /* after 2^32 children: no mark is old enough */
        memset(memo->joined, 0, sizeof memo->joined);
        memo->child = 1;
    }
    for (int s = g->tiles[g->ntiles - 1].seg_base; s < g->nseg; s++)
        memo->joined[feature_root(g, s)] = memo->child;
}

/* ai_evaluate_full, and its terms when `terms` is not NULL; `memo` when
 * `g` is a child of the memo's position. */
static void full_evaluation(const carc_game *g, double out[CARC_MAX_PLAYERS],
                            double (*terms)[AI_TERMS], walk_memo *memo)
{
    int players = g->nplayers;
    for (int p = 0; p < players; p++)
        out[p] = g->score[p];
    if (terms) {
        memset(terms, 0, sizeof(double) * AI_TERMS * CARC_MAX_PLAYERS);
        for (int p = 0; p < players; p++)
            terms[p][AI_TERM_SCORE] = g->score[p];
    }
    if (g->over)
        return;
    eval_ctx c;
    ctx_init(&c, g);
    if (memo)
        ctx_child(&c, memo);
    for (int p = 0; p < players; p++) {
        out[p] += ai_follower_worth(c.left, g->supply[p]);
        if (terms)
            terms[p][AI_TERM_SUPPLY] = ai_follower_worth(c.left, g->supply[p]);
    }
    occupied occ;
    value_features(&c, &occ, out, terms);
    joins j;
    scan_frontier(&c, &occ, &j);
    double fade = farm_room * c.left / (double)c.pile;
    for (int i = 0; i < occ.n; i++) {
        unsigned owners = occ.owners[i];
        for (int p = 0; p < players; p++)
            if (owners & (1u << p)) {
                out[p] += fade * occ.room[i];
                if (terms)
                    terms[p][AI_TERM_ROOM] += fade * occ.room[i];
            }
    }
    add_joins(g, &occ, &j, out, terms);
}

void ai_evaluate_full(const carc_game *g, double out[CARC_MAX_PLAYERS])
{
    full_evaluation(g, out, NULL, NULL);
}

void ai_evaluate_full_children(const carc_game *g)
{
    walk_memo *m = &walks;
    if (++m->stamp == 0) { /* after 2^32 positions: no stamp is old enough */
        memset(m->root_stamp, 0, sizeof m->root_stamp);
        memset(m->worth_stamp, 0, sizeof m->worth_stamp);
        m->stamp = 1;
    }
    m->tiles = g->ntiles;
    m->nentries = m->ncells = m->ncities = 0;
}

/* The memo when `g` may be a child of its position, else NULL. */
static walk_memo *memo_for(const carc_game *g)
{
    walk_memo *m = &walks;
    return m->stamp && g->ntiles == m->tiles + 1 ? m : NULL;
}

void ai_evaluate_full_child(const carc_game *g, double out[CARC_MAX_PLAYERS])
{
    full_evaluation(g, out, NULL, memo_for(g));
}

void ai_evaluate_full_terms(const carc_game *g, double out[CARC_MAX_PLAYERS],
                            double terms[CARC_MAX_PLAYERS][AI_TERMS])
{
    full_evaluation(g, out, terms, NULL);
}

void ai_evaluate_full_child_terms(const carc_game *g, double out[CARC_MAX_PLAYERS],
                                  double terms[CARC_MAX_PLAYERS][AI_TERMS])
{
    full_evaluation(g, out, terms, memo_for(g));
}

size_t ai_state_bytes(const carc_game *g)
{
    (void)g;
    return sizeof(carc_game);
}
