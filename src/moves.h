/* moves.h: what the drawn tile may do (moves.c; not public): legal
 * placements and follower spots, every legal move, the check of a given
 * move, and a uniformly random move for playouts. */
#ifndef CARC_MOVES_H
#define CARC_MOVES_H

#include "state.h"

/* A move as plain integers. The playout step passes moves this way: a
 * carc_move built byte by byte and read back as a word stalls the CPU's
 * store forwarding. */
typedef struct move_fields {
    int type, x, y, rot, segment;
    int square; /* the frontier square of a placement */
    int figure; /* carc_figure on `segment` */
} move_fields;

static inline carc_move move_of(const move_fields *f)
{
    carc_placement p = {(int8_t)f->x, (int8_t)f->y, (uint8_t)f->rot, 0};
    return (carc_move){(uint8_t)f->type, p, (uint8_t)f->segment, (uint8_t)f->figure};
}

/* Whether tile `kind` fits somewhere on the board (a river tile: at the
 * river's open end). */
int moves_kind_fits(const carc_game *g, int kind);
/* CARC_OK when `m` is legal for the drawn tile; else the status, with the
 * game's error saying why. */
carc_status moves_check(carc_game *g, carc_move m);
/* The move carc_random_move() chooses, into `m`. */
void moves_random(const carc_game *g, carc_rng *r, double follower_chance, move_fields *m);

/* --- The features a placement touches (for the figures' hooks) ----------- */

#include <string.h>

#include "feature.h"
#include "tiles.h"

/* The features the segments of `kind` placed at `rot` on frontier square
 * `square` would join: each distinct root once, with the mask of the new
 * segments touching it. A segment joins every feature it touches, and two
 * segments of the new tile that touch one feature join each other. */
typedef struct touched {
    seg_id roots[CARC_PORTS];
    uint16_t touching[CARC_PORTS];
    int n;
} touched;

static inline void touch_features(const carc_game *g, int kind, int rot, int square, touched *t)
{
    const frontier_square *sq = &g->frontier[square];
    const uint8_t *own = carc_port_seg[kind][rot];
    t->n = 0;
    memset(t->touching, 0, sizeof t->touching);
    for (int d = 0; d < 4; d++) {
        if (sq->neighbour[d] == NO_TILE)
            continue;
        const board_tile *nb = &g->tiles[sq->neighbour[d]];
        int facing = 3 * ((d + 2) & 3); /* first port of the neighbour's edge */
        const uint8_t *theirs = &carc_port_seg[nb->kind][nb->rot][facing];
        int last = -1, i = 0;
        for (int k = 0; k < 3; k++) {
            int ns = nb->seg_base + theirs[2 - k];
            if (ns != last) {
                int root = feature_root(g, ns);
                for (i = 0; i < t->n && t->roots[i] != root; i++)
                    ;
                if (i == t->n) {
                    t->roots[t->n] = (seg_id)root;
                    t->touching[t->n++] = 0;
                }
                last = ns;
            }
            t->touching[i] = (uint16_t)(t->touching[i] | 1u << own[3 * d + k]);
        }
    }
}

/* `seed` spread to every new segment that shares a feature with one of
 * its segments. */
static inline unsigned touched_spread(const touched *t, unsigned seed)
{
    for (unsigned before = ~seed; before != seed;) {
        before = seed;
        for (int i = 0; i < t->n; i++)
            if (t->touching[i] & seed)
                seed |= t->touching[i];
    }
    return seed;
}

/* A figure on a segment: one choice of a placement's follower step. */
typedef struct figure_option {
    uint8_t segment, figure;
} figure_option;

/* Open edges of the road or city that the new segments `group` (one
 * feature's) of `kind` at `rot` on frontier square `square` would form
 * with the features `t` they touch. */
int moves_open_after(const carc_game *g, int kind, int rot, int square, const touched *t,
                     unsigned group);

#endif
