/* river.c: The River's placement rules (river.h): the open end, the
 * rotations that continue the river there, the river's course, and what
 * a record may not name for a draw of the river pile. Built in the wide
 * layout only. */
#include "layout.h"

#include "river.h"
#include "board.h"

_Static_assert(LAYOUT_WIDE, "The River is built in the wide layout only");

/* Bit d set: edge d (board direction) of `kind` at `rot` is river. */
static unsigned river_edges(int kind, int rot)
{
    unsigned mask = 0;
    for (int d = 0; d < 4; d++)
        mask |= (unsigned)(carc_tile_data[kind].edges[(d + 4 - rot) & 3] == CARC_RIVER) << d;
    return mask;
}

/* Where the river leaves `kind` placed at `rot` at the open end: the
 * direction of its other river edge, or NO_DIRECTION (the lake). */
static unsigned river_exit(const carc_game *g, int kind, int rot)
{
    unsigned entry = (g->river.out + 2u) & 3u;
    unsigned exits = river_edges(kind, rot) & ~(1u << entry);
    return exits ? (unsigned)__builtin_ctz(exits) : NO_DIRECTION;
}

int river_u_turn(const carc_game *g, int kind, int rot)
{
    unsigned exit = river_exit(g, kind, rot);
    return g->river.in != NO_DIRECTION && exit != NO_DIRECTION && exit == ((g->river.in + 2u) & 3u);
}

unsigned river_rotations_of(const carc_game *g, int f, int kind)
{
    const frontier_square *sq = &g->frontier[f];
    if (!g->river.open || sq->x != g->river.x || sq->y != g->river.y)
        return 0;
    unsigned rots = carc_fits[kind][sq->sig], ok = 0;
    for (int r = 0; r < 4; r++)
        if (((rots >> r) & 1u) && !river_u_turn(g, kind, r))
            ok |= 1u << r;
    return ok;
}

int river_placement_count(const carc_game *g)
{
    int f = river_open_square(g);
    return f < 0 ? 0 : __builtin_popcount(river_rotations(g, f));
}

void river_advance(carc_game *g, int kind, int rot, int x, int y)
{
    unsigned exit = river_exit(g, kind, rot);
    if (exit == NO_DIRECTION) {
        g->river.open = 0;
        return;
    }
    g->river.in = g->river.out;
    g->river.out = (uint8_t)exit;
    g->river.x = (int8_t)(x + carc_dx[exit]);
    g->river.y = (int8_t)(y + carc_dy[exit]);
}

int river_placement_error(carc_game *g, carc_placement p)
{
    const char *id = carc_tile_data[g->drawn].id;
    int f = board_frontier_at(g, p.x, p.y);
    if (!river_is_kind(g->drawn) || !g->river.open || f < 0)
        return 0;
    if (p.x != g->river.x || p.y != g->river.y) {
        game_set_error(g, "tile %s must continue the river at %d %d", id, g->river.x, g->river.y);
        return 1;
    }
    if (((carc_fits[g->drawn][g->frontier[f].sig] >> p.rot) & 1u) &&
        river_u_turn(g, g->drawn, p.rot)) {
        game_set_error(g, "tile %s at %d %d rotation %d would turn the river back: a U-turn", id,
                       p.x, p.y, p.rot);
        return 1;
    }
    return 0;
}

int river_draw_error(carc_game *g, int drawn, int kind)
{
    if (!river_is_kind(drawn) || kind == drawn || kind < 0 || kind >= CARC_ALL_KINDS)
        return 0;
    const carc_tile_def *def = &carc_tile_data[kind];
    if (!river_is_kind(kind) && !(def->set & ~g->rules.expansions)) {
        game_set_error(g,
                       "tile %s cannot be drawn while the river pile lasts: the main pile waits "
                       "while the river is laid",
                       def->id);
        return 1;
    }
    /* The lake lies lowest of the river pile: a draw that gave another
     * river tile came before it, whether it is still in the pile or a
     * later draw took it into a hand. */
    if (kind == CARC_KIND_RL) {
        game_set_error(g, "the lake RL comes last of the river pile");
        return 1;
    }
    return 0;
}
