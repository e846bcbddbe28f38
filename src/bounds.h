/* bounds.h: a bounded table, `table=WxH` and `table-edge-completes`
 * (bounds.c; not public). The start tile lies in the middle of the table;
 * squares beyond its edge never join the frontier, so no tile is ever
 * offered or placed there. The turn code reaches this module through the
 * hooks of table_capability (below): a tile laid (its squares beyond the
 * edge, and the edges it closes), a placement's error, the edges and
 * cloister squares beyond the board, the digest; a game without a table
 * runs as before. */
#ifndef CARC_BOUNDS_H
#define CARC_BOUNDS_H

#include "state.h"
#include "capability.h"

/* Whether square (x, y) lies beyond the edge of the game's table (never
 * without a table). */
static inline int bounds_beyond(const carc_game *g, int x, int y)
{
    int half_w = g->rules.table_w / 2, half_h = g->rules.table_h / 2;
    return g->rules.table_w && (x < -half_w || x > half_w || y < -half_h || y > half_h);
}

/* Whether the table's edge closes features (table-edge-completes). */
static inline int bounds_edge_completes(const carc_game *g)
{
    return (g->rules.flags & CARC_RULE_TABLE_EDGE_COMPLETES) != 0;
}

/* After board tile `t` was placed on a game with a table: takes the
 * squares beyond the edge off the frontier and, with table-edge-completes,
 * closes the tile's road and city edges that face the edge. Returns 1 when
 * that left a road or city with no open edge. */
int bounds_place(carc_game *g, int t);
/* The squares around (x, y) beyond the edge that count as filled for a
 * cloister there: 0 without table-edge-completes. */
int bounds_cloister_filled(const carc_game *g, int x, int y);
/* The open edges that the new segments `group` of `kind` at `rot` on
 * square (x, y) would close against the edge (table-edge-completes). */
int bounds_edges_closed(const carc_game *g, int kind, int rot, int x, int y, unsigned group);
/* When `p` lies beyond the table's edge: sets the game's error to say so
 * and returns 1; else returns 0. */
int bounds_placement_error(carc_game *g, carc_placement p);

/* --- The capability (capability.h) ------------------------------------------ */

static inline int bounds_in_game(const carc_rules *rules)
{
    return rules->table_w != 0;
}

/* The digest's part: the table's size (a game without a table keeps the
 * digest it had before tables). */
static inline void bounds_digest_rules(digest *d, const carc_game *g)
{
    digest_bytes(d, (uint64_t)g->rules.table_w << 8 | g->rules.table_h, 2);
}

static const capability table_capability = {
    .name = "table",
    .in_game = bounds_in_game,
    .placement_error = bounds_placement_error,
    .edges_closed = bounds_edges_closed,
    .laid = bounds_place,
    .cloister_filled = bounds_cloister_filled,
    .digest_rules = bounds_digest_rules,
};

#endif
