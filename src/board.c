/* board.c: the squares of the board (a torus grid of placed and frontier
 * squares), placing a tile and keeping the frontier of open squares. */
#include <string.h>

#include "state.h"
#include "board.h"
#include "feature.h"
#include "figures.h"
#include "tiles.h"

/* Zeroes the cells `g` uses (its tiles and frontier as they are). */
static void clear_grid(carc_game *g)
{
    for (int t = 0; t < g->ntiles; t++)
        g->grid[board_cell(g->tiles[t].x, g->tiles[t].y)] = 0;
    for (int f = 0; f < g->nfrontier; f++)
        g->grid[board_cell(g->frontier[f].x, g->frontier[f].y)] = 0;
}

/* Zeroes columns x .. last (board coordinates) of `g`'s grid. */
static void clear_columns(carc_game *g, int x, int last)
{
    for (; x <= last; x++)
        memset(&g->grid[carc_torus_col[(uint8_t)x]], 0, sizeof g->grid[0] * GRID);
}

void board_copy_columns(carc_game *dst, const carc_game *src)
{
    int lo = src->min_x - 1, hi = src->max_x + 1, n = hi - lo + 1;
    if (n >= GRID) {
        memcpy(dst->grid, src->grid, sizeof dst->grid);
        return;
    }
    /* First dst's used columns beyond src's go back to 0. */
    int old_lo = dst->min_x - 1, old_hi = dst->max_x + 1;
    clear_columns(dst, old_lo, old_hi < lo - 1 ? old_hi : lo - 1);
    clear_columns(dst, old_lo > hi + 1 ? old_lo : hi + 1, old_hi);
    int from = carc_torus_col[(uint8_t)lo] / GRID, head = n < GRID - from ? n : GRID - from;
    size_t column = sizeof dst->grid[0] * GRID;
    size_t at = (size_t)from * GRID;
    memcpy(&dst->grid[at], &src->grid[at], column * (size_t)head);
    memcpy(dst->grid, src->grid, column * (size_t)(n - head)); /* wrapped round */
}

void board_clear(carc_game *g, int fresh)
{
    if (fresh)
        memset(g->grid, 0, sizeof g->grid);
    else
        clear_grid(g);
    memset(g->placements, 0, sizeof g->placements);
    memset(g->follower_tiles, 0, sizeof g->follower_tiles);
    g->ntiles = 0;
    g->nfrontier = 0;
    g->nseg = 0;
    g->ncloisters = 0;
    g->min_x = g->min_y = g->max_x = g->max_y = 0;
}

/* A count never leaves 0..65535, so adding first and subtracting second
 * never carries or borrows across lanes. */
static void recount(carc_game *g, unsigned from, unsigned to)
{
    const uint64_t *a = carc_sig_count_lanes[from], *b = carc_sig_count_lanes[to];
#pragma GCC unroll 9
    for (int w = 0; w < COUNT_WORDS; w++)
        g->placements[w] = g->placements[w] + b[w] - a[w];
}

/* recount() from or to signature 0, whose counts are all 0. */
static void count_square(carc_game *g, unsigned sig)
{
    const uint64_t *b = carc_sig_count_lanes[sig];
#pragma GCC unroll 9
    for (int w = 0; w < COUNT_WORDS; w++)
        g->placements[w] += b[w];
}

static void uncount_square(carc_game *g, unsigned sig)
{
    const uint64_t *a = carc_sig_count_lanes[sig];
#pragma GCC unroll 9
    for (int w = 0; w < COUNT_WORDS; w++)
        g->placements[w] -= a[w];
}

void board_frontier_remove(carc_game *g, int index)
{
    uncount_square(g, g->frontier[index].sig);
    int last = --g->nfrontier;
    if (index != last) {
        g->frontier[index] = g->frontier[last];
        g->grid[board_cell(g->frontier[index].x, g->frontier[index].y)] =
            (cell_id)(FRONTIER_BASE + index);
    }
}

/* Tells the empty square beside the new tile, in direction `d`, that its
 * edge facing the tile must be `kind`. The square is about to be live, and
 * no two live squares share a cell (state.h: GRID), while a square that
 * leaves the frontier has its cell filled or cleared: so the cell holds
 * this square's frontier index or nothing, and its coordinates need no
 * check (board_frontier_at's). */
static void frontier_constrain(carc_game *g, int t, int x, int y, int d, unsigned kind)
{
    int edge = (d + 2) & 3;
    int cell = board_cell(x, y);
    int f = g->grid[cell] - FRONTIER_BASE;
    unsigned sig = carc_sig_edge(kind, edge);
    if (f < 0) {
        f = g->nfrontier++;
        g->frontier[f] =
            (frontier_square){(int8_t)x, (int8_t)y, 0, 0, {NO_TILE, NO_TILE, NO_TILE, NO_TILE}};
        g->grid[cell] = (cell_id)(FRONTIER_BASE + f);
        count_square(g, sig);
    } else {
        sig |= g->frontier[f].sig;
        recount(g, g->frontier[f].sig, sig);
    }
    g->frontier[f].sig = (square_sig)sig;
    g->frontier[f].neighbour[edge] = (uint8_t)t;
}

#if !LAYOUT_WIDE
/* A node's eight bytes as one word, whatever the byte order. */
static uint64_t node_bits(seg_node n)
{
    uint64_t v;
    memcpy(&v, &n, sizeof v);
    return v;
}
#endif

/* Writes the nodes of tile `t`'s segments: always the nine slots of the
 * template, so the loop has no branch; the slots past the tile's own
 * segments are free and get overwritten by the next tile. Ids and tile
 * index are added to the template's words (no field overflows: ids are
 * below 256, tiles below 72). */
static void add_segments(carc_game *g, int t, int kind)
{
    int base = g->nseg;
#if LAYOUT_WIDE
    const seg_node *tpl = carc_seg_template[kind];
    g->tiles[t].seg_base = (seg_id)base;
    for (int s = 0; s < CARC_MAX_SEGMENTS_PER_TILE; s++) {
        seg_node n = tpl[s];
        n.parent = n.next = (uint16_t)(base + s);
        n.tile = (uint8_t)t;
        g->seg[base + s] = n;
    }
#else
    const uint64_t id_one = node_bits((seg_node){.parent = 1, .next = 1});
    const uint64_t tile_one = node_bits((seg_node){.tile = 1});
    uint64_t offset = (uint64_t)base * id_one + (uint64_t)t * tile_one;
    const seg_node *tpl = carc_seg_template[kind];
    g->tiles[t].seg_base = (uint8_t)base;
#pragma GCC unroll 9
    for (int s = 0; s < CARC_MAX_SEGMENTS_PER_TILE; s++) {
        uint64_t v = node_bits(tpl[s]) + offset + (uint64_t)s * id_one;
        memcpy(&g->seg[base + s], &v, sizeof v);
    }
#endif
    g->nseg = (uint16_t)(base + carc_tile_data[kind].nsegments);
}

/* Joins the segments of tile `a` with those of its neighbour `b` across
 * the edge `d` of `a`, whose kind is `kind`; the ports of that edge face
 * those of b's opposite edge in reverse order. A city or field edge is one
 * segment on each side (the generator checks it), a road edge a field, the
 * road and another field. A matched road or city edge closes two open
 * ends; returns 1 when that left the feature with none. */
static int join_edge(carc_game *g, const board_tile *a, const board_tile *b, int d, unsigned kind)
{
    int port = 3 * d, facing = 3 * ((d + 2) & 3); /* first ports of the two edges */
    const uint8_t *pa = &carc_port_seg[a->kind][a->rot][port];
    const uint8_t *pb = &carc_port_seg[b->kind][b->rot][facing];
#if LAYOUT_WIDE
    /* A CARC_RIVER edge joins its fields as a road edge does; its middle is
     * no feature. */
    int road = kind == CARC_ROAD || kind == CARC_RIVER;
    unsigned closes = kind == CARC_ROAD || kind == CARC_CITY;
#else
    int road = kind == CARC_ROAD;
    /* Arithmetic, not a branch: the edge's kind is random. */
    unsigned closes = kind != CARC_FIELD;
#endif
    if (road)
        feature_union(g, a->seg_base + pa[0], b->seg_base + pb[2]);
    int root = feature_union(g, a->seg_base + pa[1], b->seg_base + pb[1]);
    g->seg[root].root -= (root_word)closes * 2 * ROOT_OPEN_ONE;
    int closed = (int)(closes & (seg_open(&g->seg[root]) == 0));
    if (road)
        feature_union(g, a->seg_base + pa[2], b->seg_base + pb[0]);
    return closed;
}

static void grow_bounds(carc_game *g, int x, int y)
{
    if (x < g->min_x)
        g->min_x = (int8_t)x;
    if (x > g->max_x)
        g->max_x = (int8_t)x;
    if (y < g->min_y)
        g->min_y = (int8_t)y;
    if (y > g->max_y)
        g->max_y = (int8_t)y;
}

int board_place(carc_game *g, int kind, int x, int y, int rot, int f, int *closed)
{
    *closed = 0;
    int t = g->ntiles++;
    uint8_t neighbour[4] = {NO_TILE, NO_TILE, NO_TILE, NO_TILE};
    if (f >= 0) {
        memcpy(neighbour, g->frontier[f].neighbour, sizeof neighbour);
        board_frontier_remove(g, f);
    }
    g->grid[board_cell(x, y)] = (cell_id)(1 + t);
    board_tile *bt = &g->tiles[t];
    *bt = (board_tile){.x = (int8_t)x,
                       .y = (int8_t)y,
                       .kind = (uint8_t)kind,
                       .rot = (uint8_t)rot,
                       .follower_seg = CARC_NO_SPOT};
    add_segments(g, t, kind);
    unsigned edges = carc_edges_at(kind, rot), open = 0;
    for (int d = 0; d < 4; d++) {
        unsigned edge_kind = (edges >> (EDGE_BITS * d)) & (unsigned)EDGE_MASK;
        if (neighbour[d] != NO_TILE) {
            board_tile *b = &g->tiles[neighbour[d]];
            *closed |= join_edge(g, bt, b, d, edge_kind);
            b->open &= (uint8_t) ~(1u << ((d + 2) & 3));
        } else {
            frontier_constrain(g, t, x + carc_dx[d], y + carc_dy[d], d, edge_kind);
            open |= 1u << d;
        }
    }
    bt->open = (uint8_t)open;
    grow_bounds(g, x, y);
    return t;
}

/* --- Public queries ---------------------------------------------------------- */

int carc_game_tile_count(const carc_game *g)
{
    return g->ntiles;
}

carc_status carc_game_tile_info(const carc_game *g, int index, carc_tile_on_board *out)
{
    if (index < 0 || index >= g->ntiles || !out)
        return CARC_EINVAL;
    const board_tile *t = &g->tiles[index];
    *out = (carc_tile_on_board){
        t->x, t->y, t->kind, t->rot, t->follower_seg, t->follower_owner, (uint8_t)tile_figure(t)};
    return CARC_OK;
}

int carc_game_tile_at(const carc_game *g, int x, int y)
{
    return board_tile_at(g, x, y);
}

void carc_game_bounds(const carc_game *g, int *min_x, int *min_y, int *max_x, int *max_y)
{
    if (min_x)
        *min_x = g->min_x;
    if (min_y)
        *min_y = g->min_y;
    if (max_x)
        *max_x = g->max_x;
    if (max_y)
        *max_y = g->max_y;
}

void board_count_cloister(carc_game *g, int t, int filled)
{
    const board_tile *bt = &g->tiles[t];
    int cs = carc_cloister_seg[bt->kind];
    if (cs == 255)
        return;
    int neighbours = filled;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && board_tile_at(g, bt->x + dx, bt->y + dy) >= 0)
                neighbours++;
    seg_node *node = &g->seg[bt->seg_base + cs];
    node->root = (node->root & ~(root_word)ROOT_OPEN_FIELD) | (root_word)(8 - neighbours)
                                                                  << ROOT_OPEN_SHIFT;
}
