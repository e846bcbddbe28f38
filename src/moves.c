/* moves.c: the moves of the drawn tile (moves.h). The frontier keeps each
 * square's edge signature, and a generated table gives the rotations of
 * each kind that fit a signature; a follower spot is legal when the
 * feature it would join holds no follower. */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "moves.h"
#include "board.h"
#include "capabilities.h"
#include "feature.h"
#include "figures.h"
#include "rules.h"
#include "source.h"
#include "tiles.h"

/* Rotations of the drawn tile that may go on frontier square `f`. A tile
 * that a capability places itself (one that goes only on a square the
 * capability names) is asked of it: the loops over the frontier ask
 * caps_owns_kind() once, before they start, and take the capability's
 * squares alone (caps_squares_of), so that the base game's loops stay plain table
 * lookups. */
static unsigned square_fits_kind(const carc_game *g, int f, int kind)
{
    if (caps_owns_kind(g, kind))
        return caps_rotations(g, f, kind);
    return carc_fits[kind][g->frontier[f].sig];
}

static unsigned square_fits(const carc_game *g, int f)
{
    return square_fits_kind(g, f, g->drawn);
}

int moves_kind_fits(const carc_game *g, int kind)
{
    if (caps_owns_kind(g, kind)) {
        int lo, hi;
        caps_squares_of(g, kind, &lo, &hi);
        return lo < hi && caps_rotations(g, lo, kind) != 0;
    }
    return ((g->placements[kind >> 2] >> (16 * (kind & 3))) & 0xFFFFu) != 0;
}

int carc_game_kind_fits(const carc_game *g, int kind)
{
    if (g->over || kind < 0 || kind >= LAYOUT_KINDS || carc_game_kind_total(g, kind) == 0)
        return 0;
    return moves_kind_fits(g, kind);
}

/* Writes the placements of frontier square `sq` at `out`, rotations
 * `rots`: every rotation is written and the count advances only for those
 * that fit, so no branch depends on the board. */
#define WRITE_SQUARE(out, n, sq, rots)                                                             \
    for (unsigned r = 0; r < 4; r++) {                                                             \
        (out)[n] = (carc_placement){(sq)->x, (sq)->y, (uint8_t)r, 0};                              \
        (n) += (int)(((rots) >> r) & 1u);                                                          \
    }

/* Writes the fitting placements of the whole frontier into `out`, which
 * has room for four per square. */
static int write_placements(const carc_game *g, carc_placement *out)
{
    int n = 0;
    if (caps_owns_kind(g, g->drawn)) {
        int lo, hi;
        caps_squares_of(g, g->drawn, &lo, &hi);
        for (int f = lo; f < hi; f++) {
            unsigned rots = caps_rotations(g, f, g->drawn);
            WRITE_SQUARE(out, n, &g->frontier[f], rots)
        }
        return n;
    }
    /* Each set of fitting rotations as its placements at (0, 0), packed
     * to the front, and their number: a square's placements are its
     * coordinates added to one row (no byte carries into the next), written
     * as 16 bytes whether or not any fit, so no branch depends on the
     * board. A square that fits nothing writes past the list, where the
     * next square's placements overwrite it (out has room for four a
     * square). */
    static const carc_placement packed[16][4] = {
        {{0}},
        {{0, 0, 0, 0}},
        {{0, 0, 1, 0}},
        {{0, 0, 0, 0}, {0, 0, 1, 0}},
        {{0, 0, 2, 0}},
        {{0, 0, 0, 0}, {0, 0, 2, 0}},
        {{0, 0, 1, 0}, {0, 0, 2, 0}},
        {{0, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 2, 0}},
        {{0, 0, 3, 0}},
        {{0, 0, 0, 0}, {0, 0, 3, 0}},
        {{0, 0, 1, 0}, {0, 0, 3, 0}},
        {{0, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 3, 0}},
        {{0, 0, 2, 0}, {0, 0, 3, 0}},
        {{0, 0, 0, 0}, {0, 0, 2, 0}, {0, 0, 3, 0}},
        {{0, 0, 1, 0}, {0, 0, 2, 0}, {0, 0, 3, 0}},
        {{0, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 2, 0}, {0, 0, 3, 0}},
    };
    static const uint8_t fitting[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    const uint8_t *fits = carc_fits[g->drawn];
    const frontier_square *sq = g->frontier, *end = sq + g->nfrontier;
    carc_placement *at_n = out + n;
    for (; sq < end; sq++) {
        size_t rots = fits[sq->sig];
        uint32_t at;
        memcpy(&at, &(carc_placement){sq->x, sq->y, 0, 0}, sizeof at);
#if defined(__SSE2__)
        __m128i row = _mm_loadu_si128((const __m128i *)(const void *)packed[rots]);
        row = _mm_add_epi32(row, _mm_set1_epi32((int)at));
        _mm_storeu_si128((__m128i *)(void *)at_n, row);
#else
        uint64_t both = at * 0x100000001ull, lo, hi;
        memcpy(&lo, &packed[rots][0], sizeof lo);
        memcpy(&hi, &packed[rots][2], sizeof hi);
        lo += both;
        hi += both;
        memcpy(at_n, &lo, sizeof lo);
        memcpy(at_n + 2, &hi, sizeof hi);
#endif
        at_n += fitting[rots];
    }
    return (int)(at_n - out);
}

int carc_legal_placements(const carc_game *g, carc_placement *out, int cap)
{
    if (g->over)
        return 0;
    if (cap >= 4 * g->nfrontier)
        return write_placements(g, out);
    carc_placement all[4 * MAX_FRONTIER];
    int n = write_placements(g, all);
    if (cap > 0)
        memcpy(out, all, (size_t)(n < cap ? n : cap) * sizeof all[0]);
    return n;
}

static int placement_count(const carc_game *g)
{
    if (g->over)
        return 0;
    if (caps_owns_kind(g, g->drawn))
        return caps_placement_count(g);
    return (int)((g->placements[g->drawn >> 2] >> (16 * (g->drawn & 3))) & 0xFFFFu);
}

/* Draws (square, rotation) pairs uniformly until one fits: a uniform
 * legal placement, without a pass over the frontier when enough fit.
 * Writes the frontier square's index to `*square`. */
static carc_placement random_placement(const carc_game *g, carc_rng *r, int *square)
{
    int count = placement_count(g);
    if (2 * count >= g->nfrontier) {
        for (;;) {
            uint32_t v = rng_below(r, 4u * g->nfrontier);
            int f = (int)(v >> 2), rot = (int)(v & 3);
            if ((square_fits(g, f) >> rot) & 1) {
                *square = f;
                return (carc_placement){g->frontier[f].x, g->frontier[f].y, (uint8_t)rot, 0};
            }
        }
    }
    int k = (int)rng_below(r, (uint32_t)count);
    for (int f = 0;; f++) {
        unsigned rots = square_fits(g, f);
        for (; rots; rots &= rots - 1)
            if (k-- == 0) {
                const frontier_square *sq = &g->frontier[f];
                *square = f;
                return (carc_placement){sq->x, sq->y, (uint8_t)__builtin_ctz(rots), 0};
            }
    }
}

int carc_placement_legal(const carc_game *g, carc_placement p)
{
    if (g->over || p.rot > 3)
        return 0;
    int f = board_frontier_at(g, p.x, p.y);
    if (f < 0)
        return 0;
    return (int)((square_fits(g, f) >> p.rot) & 1u);
}

/* Local segments of `kind` whose feature would hold no follower once the
 * tile is placed, from the features `t` it touches: occupation spreads
 * from the segments that touch an occupied feature. */
static unsigned free_of(const carc_game *g, int kind, const touched *t)
{
    unsigned occupied = 0;
    for (int i = 0; i < t->n; i++)
        if (seg_followers(&g->seg[t->roots[i]]))
            occupied |= t->touching[i];
    unsigned all = (1u << carc_tile_data[kind].nsegments) - 1;
    return all & ~touched_spread(t, occupied) & ~caps_no_figure_segments(g, kind);
}

/* The free segments (above) of `kind` placed at `rot` on frontier square
 * `square`. */
static unsigned free_segments(const carc_game *g, int kind, int rot, int square)
{
    touched t;
    touch_features(g, kind, rot, square, &t);
    return free_of(g, kind, &t);
}

int moves_open_after(const carc_game *g, int kind, int rot, int square, const touched *t,
                     unsigned group)
{
    const frontier_square *sq = &g->frontier[square];
    const uint8_t *own = carc_port_seg[kind][rot];
    int open = 0;
    for (int i = 0; i < t->n; i++)
        if (t->touching[i] & group)
            open += (int)seg_open(&g->seg[t->roots[i]]);
    for (unsigned rest = group; rest; rest &= rest - 1)
        open += carc_seg_open[kind][__builtin_ctz(rest)];
    for (int d = 0; d < 4; d++) /* a matched edge closes one edge on each side */
        if (sq->neighbour[d] != NO_TILE && ((group >> own[3 * d + 1]) & 1u))
            open -= 2;
    return open - caps_edges_closed(g, kind, rot, sq->x, sq->y, group);
}

int carc_legal_spots(const carc_game *g, carc_placement p, carc_spot *out, int cap)
{
    if (g->over || !figures_any(g, g->current) || !carc_placement_legal(g, p))
        return 0;
    int kind = g->drawn, n = 0;
    unsigned free_mask = free_segments(g, kind, p.rot, board_frontier_at(g, p.x, p.y));
    for (; free_mask; free_mask &= free_mask - 1) {
        int s = __builtin_ctz(free_mask);
        if (n < cap)
            out[n] = (carc_spot){(uint8_t)s, carc_tile_data[kind].segments[s].kind,
                                 carc_spot_port[kind][p.rot][s]};
        n++;
    }
    return n;
}

/* --- Every legal move -------------------------------------------------------- */

/* The lowest rotation of `kind` that puts the same tile on the board as
 * `rot`. The rotations that leave a tile unchanged form a subgroup of the
 * four (none, the half turn, or all), so the distinct rotations are the
 * first 4, 2 or 1, and a rotation's class is its remainder. */
static int canonical_rotation(int kind, int rot)
{
    int distinct = __builtin_popcount(carc_distinct_rotations[kind]);
    return rot % distinct;
}

carc_move carc_move_canonical(const carc_game *g, carc_move m)
{
    if (g->over || m.type != CARC_MOVE_PLACE || m.place.rot > 3)
        return m;
    int kind = m.place.tile ? m.place.tile - 1 : g->drawn;
    if (kind < 0 || kind >= LAYOUT_KINDS)
        return m;
    int rot = canonical_rotation(kind, m.place.rot);
    if (m.segment != CARC_NO_SPOT) {
        if (m.segment >= carc_tile_data[kind].nsegments)
            return m;
        /* The segment covering the same board ports; a cloister has none
         * and keeps its index. */
        unsigned ports = carc_seg_ports[kind][m.place.rot][m.segment];
        if (ports)
            m.segment = carc_port_seg[kind][rot][__builtin_ctz(ports)];
    }
    m.place.rot = (uint8_t)rot;
    return m;
}

/* Stores `m` at out[n] when there is room; returns n + 1. */
static int add_move(carc_move *out, int cap, int n, carc_move m)
{
    if (n < cap)
        out[n] = m;
    return n + 1;
}

enum { MAX_OPTIONS = CARC_MAX_FIGURE_MOVES };

/* The figure moves of `kind` placed at `rot` on frontier square `f`, in
 * segment order: a follower and each figure that stands on a free spot as
 * a follower does (the large follower) on each free segment, then the
 * capabilities' other figures, on the spots they allow.
 * Returns their number. */
static int figure_options(const carc_game *g, int kind, int rot, int f, figure_option *opts)
{
    uint8_t spot[CARC_FIGURES];
    int n = 0, followers = g->supply[g->current] > 0, nspot = caps_spot_figures(g, spot);
    int others = caps_other_figures_left(g);
    if (!followers && !nspot && !others)
        return 0;
    /* One walk over the touched features serves every figure. */
    touched t;
    touch_features(g, kind, rot, f, &t);
    unsigned free_mask = followers || nspot ? free_of(g, kind, &t) : 0;
    for (; free_mask; free_mask &= free_mask - 1) {
        uint8_t s = (uint8_t)__builtin_ctz(free_mask);
        if (followers)
            opts[n++] = (figure_option){s, CARC_FIGURE_FOLLOWER};
        for (int i = 0; i < nspot; i++)
            opts[n++] = (figure_option){s, spot[i]};
    }
    if (others)
        n += caps_figure_options(g, kind, rot, f, &t, opts + n);
    return n;
}

int carc_legal_figures(const carc_game *g, carc_placement p, carc_move *out, int cap)
{
    if (!carc_placement_legal(g, p))
        return 0;
    figure_option opts[MAX_OPTIONS];
    int n = figure_options(g, g->drawn, p.rot, board_frontier_at(g, p.x, p.y), opts);
    for (int i = 0; i < n && i < cap; i++)
        out[i] = (carc_move){CARC_MOVE_PLACE, p, opts[i].segment, opts[i].figure};
    for (int i = 0; i < n && i < cap; i++)
        out[i].place.tile = source_move_tile(g);
    return n;
}

/* Appends the legal moves of `kind` to out[n ..), each with `tile` (see
 * carc_legal_moves), and returns the new count. */
static int kind_moves(const carc_game *g, int kind, uint8_t tile, carc_move *out, int cap, int n)
{
    int first = n, lo = 0, hi = g->nfrontier;
    unsigned distinct = carc_distinct_rotations[kind];
    if (caps_owns_kind(g, kind))
        caps_squares_of(g, kind, &lo, &hi);
    for (int f = lo; f < hi; f++) {
        const frontier_square *sq = &g->frontier[f];
        for (unsigned rots = square_fits_kind(g, f, kind) & distinct; rots; rots &= rots - 1) {
            int rot = __builtin_ctz(rots);
            carc_move m = {CARC_MOVE_PLACE,
                           {sq->x, sq->y, (uint8_t)rot, tile},
                           CARC_NO_SPOT,
                           CARC_FIGURE_FOLLOWER};
            n = add_move(out, cap, n, m);
            figure_option opts[MAX_OPTIONS];
            int nopts = figure_options(g, kind, rot, f, opts);
            for (int i = 0; i < nopts; i++) {
                m.segment = opts[i].segment;
                m.figure = opts[i].figure;
                n = add_move(out, cap, n, m);
            }
        }
    }
    if (n == first)
        n = add_move(
            out, cap, n,
            (carc_move){CARC_MOVE_DISCARD, {0, 0, 0, tile}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER});
    return n;
}

int carc_legal_moves(const carc_game *g, carc_move *out, int cap)
{
    if (g->over)
        return 0;
    int kinds[CARC_MAX_KINDS], nkinds = source_playable_kinds(g, kinds), n = 0;
    for (int i = 0; i < nkinds; i++) {
        uint8_t tile = source_is_hand(g) ? (uint8_t)(kinds[i] + 1) : 0;
        n = kind_moves(g, kinds[i], tile, out, cap, n);
    }
    return n;
}

/* --- Checking a move ------------------------------------------------------------ */

static carc_status check_discard(carc_game *g)
{
    carc_placement p;
    if (carc_legal_placements(g, &p, 1) > 0) {
        game_set_error(g, "tile %s fits at %d %d rotation %d and cannot be discarded",
                       carc_tile_data[g->drawn].id, p.x, p.y, p.rot);
        return CARC_EILLEGAL;
    }
    return CARC_OK;
}

/* Says why placement `p` of the drawn tile is illegal. */
static void placement_error(carc_game *g, carc_placement p)
{
    if (caps_placement_error(g, p))
        return;
    if (board_tile_at(g, p.x, p.y) >= 0)
        game_set_error(g, "square %d %d is taken", p.x, p.y);
    else if (board_frontier_at(g, p.x, p.y) < 0)
        game_set_error(g, "square %d %d touches no tile", p.x, p.y);
    else
        game_set_error(g, "tile %s does not fit at %d %d rotation %d", carc_tile_data[g->drawn].id,
                       p.x, p.y, p.rot);
}

static carc_status check_follower(carc_game *g, carc_move m)
{
    const carc_tile_def *def = &carc_tile_data[g->drawn];
    if (m.segment >= def->nsegments) {
        game_set_error(g, "tile %s has no segment %d", def->id, m.segment);
        return CARC_EINVAL;
    }
    if (caps_spot_error(g, m))
        return CARC_EILLEGAL;
    if (m.figure >= CARC_FIGURES) {
        game_set_error(g, "no figure %d", m.figure);
        return CARC_EINVAL;
    }
    const char *name = figures_name(m.figure);
    if (!figures_in_game(&g->rules, m.figure)) {
        game_set_error(g, "the %s is not in this game: it needs %s", name,
                       rules_figure_expansion(m.figure));
        return CARC_EILLEGAL;
    }
    if (figures_left(g, g->current, m.figure) == 0) {
        game_set_error(g, "player %d has no %s left", g->current + 1, name);
        return CARC_EILLEGAL;
    }
    int square = board_frontier_at(g, m.place.x, m.place.y);
    carc_status st;
    if (caps_check_figure(g, m, square, &st))
        return st;
    unsigned bit = 1u << m.segment;
    if (!(free_segments(g, g->drawn, m.place.rot, square) & bit)) {
        game_set_error(g, "the feature of that spot already holds a follower");
        return CARC_EILLEGAL;
    }
    return CARC_OK;
}

carc_status moves_check(carc_game *g, carc_move m)
{
    if (m.type == CARC_MOVE_DISCARD)
        return check_discard(g);
    if (m.type != CARC_MOVE_PLACE || m.place.rot > 3) {
        game_set_error(g, "not a move");
        return CARC_EINVAL;
    }
    if (!carc_placement_legal(g, m.place)) {
        placement_error(g, m.place);
        return CARC_EILLEGAL;
    }
    return m.segment == CARC_NO_SPOT ? CARC_OK : check_follower(g, m);
}

/* --- A random move ----------------------------------------------------------------- */

/* The i-th set bit of `mask`. */
static int nth_bit(unsigned mask, unsigned i)
{
    for (; i > 0; i--)
        mask &= mask - 1;
    return __builtin_ctz(mask);
}

void moves_random(const carc_game *g, carc_rng *r, double follower_chance, move_fields *m)
{
    m->segment = CARC_NO_SPOT;
    m->figure = CARC_FIGURE_FOLLOWER;
    if (placement_count(g) == 0) {
        *m = (move_fields){CARC_MOVE_DISCARD, 0, 0, 0, CARC_NO_SPOT, -1, CARC_FIGURE_FOLLOWER};
        return;
    }
    m->type = CARC_MOVE_PLACE;
    carc_placement p = random_placement(g, r, &m->square);
    m->x = p.x;
    m->y = p.y;
    m->rot = p.rot;
    /* A 53-bit uniform fraction decides whether to try a follower. */
    double u = (double)(rng_next(r) >> 11) * 0x1.0p-53;
    if (caps_random_all_figures(g)) {
        /* One of every figure move of the placement, uniformly. */
        figure_option opts[MAX_OPTIONS];
        int n = u < follower_chance ? figure_options(g, g->drawn, p.rot, m->square, opts) : 0;
        if (n > 0) {
            const figure_option *o = &opts[rng_below(r, (uint32_t)n)];
            m->segment = o->segment;
            m->figure = o->figure;
        }
        return;
    }
    uint8_t spot[CARC_FIGURES];
    int followers = g->supply[g->current] > 0, nspot = caps_spot_figures(g, spot);
    if (u < follower_chance && (followers || nspot)) {
        unsigned free_mask = free_segments(g, g->drawn, p.rot, m->square);
        unsigned n = 0;
        for (unsigned rest = free_mask; rest; rest &= rest - 1)
            n++;
        if (n > 0) {
            m->segment = nth_bit(free_mask, rng_below(r, n));
            /* Any of the figures, evenly, when the player has more than
             * one (never in the base game, whose playouts draw as
             * before). */
            int choices = followers + nspot;
            if (choices > 1) {
                int i = (int)rng_below(r, (uint32_t)choices);
                m->figure = i < followers ? CARC_FIGURE_FOLLOWER : spot[i - followers];
            } else if (!followers) {
                m->figure = spot[0];
            }
        }
    }
}

carc_move carc_random_move(const carc_game *g, carc_rng *r, double follower_chance)
{
    if (g->over)
        return (carc_move){CARC_MOVE_DISCARD, {0, 0, 0, 0}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
    move_fields f;
    moves_random(g, r, follower_chance, &f);
    carc_move m = move_of(&f);
    m.place.tile = source_move_tile(g);
    return m;
}
