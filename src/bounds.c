/* bounds.c: a bounded table (bounds.h): the squares beyond its edge, and the
 * edge closing roads, cities and cloisters with table-edge-completes. */
#include "state.h"
#include "bounds.h"
#include "board.h"
#include "feature.h"
#include "tiles.h"

/* The edge kind of `kind` at `rot` in direction `d`. */
static unsigned edge_kind(int kind, int rot, int d)
{
    return (carc_edges_at(kind, rot) >> (EDGE_BITS * d)) & (unsigned)EDGE_MASK;
}

/* Whether an edge of this kind is a road's or a city's open end (a river
 * edge's middle is no feature). */
static int closes(unsigned kind)
{
    return kind == CARC_ROAD || kind == CARC_CITY;
}

int bounds_place(carc_game *g, int t)
{
    board_tile *bt = &g->tiles[t];
    int closed = 0;
    for (int d = 0; d < 4; d++) {
        int x = bt->x + carc_dx[d], y = bt->y + carc_dy[d];
        if (!bounds_beyond(g, x, y))
            continue;
        int f = board_frontier_at(g, x, y);
        if (f >= 0) {
            board_frontier_remove(g, f);
            g->grid[board_cell(x, y)] = 0;
        }
        bt->open &= (uint8_t) ~(1u << d); /* no frontier square there */
        if (!bounds_edge_completes(g) || !closes(edge_kind(bt->kind, bt->rot, d)))
            continue;
        /* The edge matches the port facing it: one open edge fewer. */
        int seg = bt->seg_base + carc_port_seg[bt->kind][bt->rot][3 * d + 1];
        seg_node *root = &g->seg[feature_root(g, seg)];
        root->root -= ROOT_OPEN_ONE;
        closed |= seg_open(root) == 0;
    }
    return closed;
}

int bounds_cloister_filled(const carc_game *g, int x, int y)
{
    if (!bounds_edge_completes(g))
        return 0;
    int filled = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            filled += (dx || dy) && bounds_beyond(g, x + dx, y + dy);
    return filled;
}

int bounds_edges_closed(const carc_game *g, int kind, int rot, int x, int y, unsigned group)
{
    if (!bounds_edge_completes(g))
        return 0;
    int n = 0;
    for (int d = 0; d < 4; d++)
        if (bounds_beyond(g, x + carc_dx[d], y + carc_dy[d]) && closes(edge_kind(kind, rot, d)) &&
            ((group >> carc_port_seg[kind][rot][3 * d + 1]) & 1u))
            n++;
    return n;
}

int bounds_placement_error(carc_game *g, carc_placement p)
{
    if (!bounds_beyond(g, p.x, p.y))
        return 0;
    game_set_error(g,
                   "square %d %d is beyond the table's edge (table=%dx%d: x from %d to %d, y "
                   "from %d to %d)",
                   p.x, p.y, g->rules.table_w, g->rules.table_h, -(g->rules.table_w / 2),
                   g->rules.table_w / 2, -(g->rules.table_h / 2), g->rules.table_h / 2);
    return 1;
}
