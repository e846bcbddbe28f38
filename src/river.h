/* river.h: The River (expansions/river.md) as a module of the turn code:
 * the river pile drawn before the main pile, the lake last of it; a river
 * tile goes only on the river's open end, fitting, without an immediate
 * U-turn; no follower on the river. The river's state is `g->river`
 * (state.h); the river pile is the pile's parts above the main pile
 * (pile.h). The turn code and the tile source call it through its
 * capability (capabilities.h), which only the wide layout lists. */
#ifndef CARC_RIVER_H
#define CARC_RIVER_H

#include "state.h"
#include "board.h"
#include "capability.h"
#include "tile_data.h"

#if !LAYOUT_WIDE
#error "The River is built in the wide layout only"
#endif

static inline int river_is_kind(int kind)
{
    return kind >= 0 && kind < CARC_ALL_KINDS && carc_tile_data[kind].set == CARC_EXPANSION_RIVER;
}

static inline int river_in_game(const carc_rules *rules)
{
    return (rules->expansions & CARC_EXPANSION_RIVER) != 0;
}

/* A new game's river: the spring at 0 0 flowing east, the open end at
 * 1 0. */
static inline void river_start(carc_game *g)
{
    g->river = (river_state){(uint8_t)river_in_game(&g->rules), 1, 0, 1, NO_DIRECTION};
}

/* The spring starts the game instead of the base start tile. */
static inline int river_start_kind(const carc_rules *rules)
{
    (void)rules;
    return CARC_KIND_RA;
}

/* Copies of `kind`, `count` as the tile set leaves them, in the pile of a
 * game with the river: the base start tile leaves the pile unless the
 * variant river-keep-start shuffles it into the main pile. */
static inline int river_pile_count(const carc_rules *rules, int kind, int count)
{
    if (kind == CARC_KIND_D && !(rules->flags & CARC_RULE_RIVER_KEEP_START))
        return count - 1;
    return count;
}

/* The river pile lies above the main pile, the lake lowest of it: the
 * lake is a part of its own (1), the other river tiles above it (2). */
static inline int river_pile_part(int kind)
{
    if (!river_is_kind(kind))
        return 0;
    return kind == CARC_KIND_RL ? 1 : 2;
}

/* Why a record may not name `kind` for a draw that gave river tile
 * `drawn`: a main-pile tile, or the lake before the other river tiles. */
int river_draw_error(carc_game *g, int drawn, int kind);

/* The frontier square of the river's open end, or -1 (the lake laid, or
 * the open end taken by a tile). */
static inline int river_open_square(const carc_game *g)
{
    return g->river.open ? board_frontier_at(g, g->river.x, g->river.y) : -1;
}

/* Rotations of river tile `kind` that may go on frontier square `f`. */
unsigned river_rotations_of(const carc_game *g, int f, int kind);
/* Rotations of the drawn river tile that may go on frontier square `f`. */
static inline unsigned river_rotations(const carc_game *g, int f)
{
    return river_rotations_of(g, f, g->drawn);
}
/* Legal placements of the drawn river tile. */
int river_placement_count(const carc_game *g);
/* Whether the drawn river tile at `rot` on the open end turns the river
 * back the way it came. */
int river_u_turn(const carc_game *g, int kind, int rot);
/* The river after river tile `kind` went on the open end at `rot`. */
void river_advance(carc_game *g, int kind, int rot, int x, int y);
/* When `p`, an illegal placement of the drawn tile, breaks a river rule:
 * sets the game's error to say which and returns 1; else returns 0. */
int river_placement_error(carc_game *g, carc_placement p);

/* The local segments of `kind` on which no follower may stand. */
static inline unsigned river_segments(int kind)
{
    unsigned mask = 0;
    int n = carc_tile_data[kind].nsegments;
    for (int s = 0; s < n && s < CARC_MAX_SEGMENTS_PER_TILE; s++)
        mask |= (unsigned)(carc_tile_data[kind].segments[s].kind == CARC_RIVER) << s;
    return mask;
}

/* --- The capability (capability.h) ------------------------------------------ */

/* The frontier squares [*lo, *hi) where the drawn river tile may go: the
 * river's open end alone. */
static inline void river_squares(const carc_game *g, int kind, int *lo, int *hi)
{
    (void)kind;
    int f = river_open_square(g);
    *lo = f < 0 ? 0 : f;
    *hi = f < 0 ? 0 : f + 1;
}

static inline unsigned river_placed(carc_game *g, int t, const move_fields *m)
{
    (void)t;
    if (river_is_kind(g->drawn))
        river_advance(g, g->drawn, m->rot, m->x, m->y);
    return 0;
}

/* A move's spot on the river takes no figure. */
static inline int river_spot_error(carc_game *g, carc_move m)
{
    if (!((river_segments(g->drawn) >> m.segment) & 1u))
        return 0;
    game_set_error(g, "segment %d of tile %s is the river: no follower may stand on it", m.segment,
                   carc_tile_data[g->drawn].id);
    return 1;
}

static const capability river_capability = {
    .name = "river",
    .in_game = river_in_game,
    .start = river_start,
    .start_kind = river_start_kind,
    .pile_count = river_pile_count,
    .pile_part = river_pile_part,
    .draw_error = river_draw_error,
    .owns_kind = river_is_kind,
    .rotations = river_rotations_of,
    .squares = river_squares,
    .placement_count = river_placement_count,
    .placement_error = river_placement_error,
    .no_figure_segments = river_segments,
    .spot_error = river_spot_error,
    .placed = river_placed,
};

#endif
