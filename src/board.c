/* board.c: the squares of the board (a hash of placed and frontier
 * squares), placing a tile and keeping the frontier of open squares. */
#include <string.h>

#include "game.h"
#include "tiles.h"

static uint16_t square_key(int x, int y)
{
    /* Coordinates stay within -73..73, so the key is never 0. */
    return (uint16_t)(((unsigned)(x + 128) << 8) | (unsigned)(y + 128));
}

static unsigned slot_of(uint16_t key)
{
    return ((uint32_t)key * 0x9E3779B1u) >> (32 - 9);
}

void board_clear(carc_game *g)
{
    memset(g->hash_key, 0, sizeof g->hash_key);
    g->ntiles = 0;
    g->nfrontier = 0;
    g->nseg = 0;
    g->ncloisters = 0;
    g->min_x = g->min_y = g->max_x = g->max_y = 0;
}

static int in_range(int x, int y)
{
    return x >= -100 && x <= 100 && y >= -100 && y <= 100;
}

/* The slot holding (x, y), or the empty slot where it would go. */
static unsigned find_slot(const carc_game *g, uint16_t key)
{
    unsigned i = slot_of(key);
    while (g->hash_key[i] != 0 && g->hash_key[i] != key)
        i = (i + 1) & (HASH_SLOTS - 1);
    return i;
}

uint16_t board_lookup(const carc_game *g, int x, int y)
{
    if (!in_range(x, y))
        return NOT_FOUND;
    uint16_t key = square_key(x, y);
    unsigned i = find_slot(g, key);
    return g->hash_key[i] == key ? g->hash_val[i] : NOT_FOUND;
}

static void hash_set(carc_game *g, int x, int y, uint16_t val)
{
    uint16_t key = square_key(x, y);
    unsigned i = find_slot(g, key);
    g->hash_key[i] = key;
    g->hash_val[i] = val;
}

int board_tile_at(const carc_game *g, int x, int y)
{
    uint16_t v = board_lookup(g, x, y);
    return (v == NOT_FOUND || (v & FRONTIER_BIT)) ? -1 : v;
}

int board_frontier_at(const carc_game *g, int x, int y)
{
    uint16_t v = board_lookup(g, x, y);
    return (v != NOT_FOUND && (v & FRONTIER_BIT)) ? (v & ~FRONTIER_BIT) : -1;
}

static void frontier_remove(carc_game *g, int index)
{
    int last = --g->nfrontier;
    if (index != last) {
        g->frontier[index] = g->frontier[last];
        hash_set(g, g->frontier[index].x, g->frontier[index].y,
                 (uint16_t)(FRONTIER_BIT | index));
    }
}

/* Tells the empty square beside the new tile, in direction `d`, that its
 * edge facing the tile must be `kind`. */
static void frontier_constrain(carc_game *g, int x, int y, int d, unsigned kind)
{
    int edge = (d + 2) & 3;
    int f = board_frontier_at(g, x, y);
    if (f < 0) {
        f = g->nfrontier++;
        g->frontier[f] = (frontier_square){ (int8_t)x, (int8_t)y, 0, 0 };
        hash_set(g, x, y, (uint16_t)(FRONTIER_BIT | f));
    }
    g->frontier[f].req |= (uint8_t)(kind << (2 * edge));
    g->frontier[f].mask |= (uint8_t)(3u << (2 * edge));
}

static void add_segments(carc_game *g, int t, int kind)
{
    const carc_tile_def *def = &carc_tile_data[kind];
    g->tiles[t].seg_base = g->nseg;
    for (int s = 0; s < def->nsegments; s++) {
        int id = g->nseg++;
        g->seg[id] = (seg_node){
            .parent = (uint16_t)id, .next = (uint16_t)id, .size = 1,
            .open = carc_seg_open[kind][s], .tile = (uint8_t)t,
            .local = (uint8_t)s, .kind = def->segments[s].kind,
        };
    }
}

/* Joins the segments of tile `t` with those of the neighbour `n` across
 * the edge `d` of `t`; matched road and city edges close two open ends. */
static void join_edge(carc_game *g, int t, int n, int d)
{
    const board_tile *a = &g->tiles[t], *b = &g->tiles[n];
    for (int k = 0; k < 3; k++) {
        int p = 3 * d + k;
        int sa = a->seg_base + carc_port_seg[a->kind][a->rot][p];
        int sb = b->seg_base + carc_port_seg[b->kind][b->rot][carc_mirror_port(p)];
        feature_union(g, sa, sb);
        if (k == 1 && g->seg[sa].kind != CARC_FIELD)
            g->seg[feature_find(g, sa)].open -= 2;
    }
}

static void grow_bounds(carc_game *g, int x, int y)
{
    if (x < g->min_x) g->min_x = (int8_t)x;
    if (x > g->max_x) g->max_x = (int8_t)x;
    if (y < g->min_y) g->min_y = (int8_t)y;
    if (y > g->max_y) g->max_y = (int8_t)y;
}

int board_place(carc_game *g, int kind, int x, int y, int rot)
{
    int t = g->ntiles++;
    int f = board_frontier_at(g, x, y);
    if (f >= 0)
        frontier_remove(g, f);
    hash_set(g, x, y, (uint16_t)t);
    g->tiles[t] = (board_tile){ (int8_t)x, (int8_t)y, (uint8_t)kind,
                                (uint8_t)rot, 0, CARC_NO_SPOT, 0 };
    add_segments(g, t, kind);
    unsigned edges = carc_edges_at(kind, rot);
    for (int d = 0; d < 4; d++) {
        int nx = x + carc_dx[d], ny = y + carc_dy[d];
        int n = board_tile_at(g, nx, ny);
        if (n >= 0)
            join_edge(g, t, n, d);
        else
            frontier_constrain(g, nx, ny, d, (edges >> (2 * d)) & 3u);
    }
    grow_bounds(g, x, y);
    return t;
}

/* --- Public queries ---------------------------------------------------------- */

int carc_game_tile_count(const carc_game *g)
{
    return g->ntiles;
}

carc_status carc_game_tile_info(const carc_game *g, int index,
                                carc_tile_on_board *out)
{
    if (index < 0 || index >= g->ntiles || !out)
        return CARC_EINVAL;
    const board_tile *t = &g->tiles[index];
    *out = (carc_tile_on_board){ t->x, t->y, t->kind, t->rot, t->follower_seg,
                                 t->follower_owner };
    return CARC_OK;
}

int carc_game_tile_at(const carc_game *g, int x, int y)
{
    return board_tile_at(g, x, y);
}

void carc_game_bounds(const carc_game *g, int *min_x, int *min_y, int *max_x,
                      int *max_y)
{
    if (min_x) *min_x = g->min_x;
    if (min_y) *min_y = g->min_y;
    if (max_x) *max_x = g->max_x;
    if (max_y) *max_y = g->max_y;
}
