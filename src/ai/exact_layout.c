/* exact_layout.c: the exact solver's probes of a position (exact.h), built
 * once per layout (layout.h). They read the state itself: exact.c sees the
 * game through the library's public calls only, which answer a square's
 * neighbours a segment at a time, and would have to play the last tile,
 * final scoring and all, to ask what a figure on it is worth. */
#include "../state.h" /* first: it picks the layout */

#include <stdlib.h>

#include "../board.h"
#include "../capabilities.h"
#include "../feature.h"
#include "../scoring.h"
#include "exact.h"

/* Whether a cloister with a follower stands among the eight squares
 * around (x, y). Only an open cloister holds one. */
static int follower_cloister_near(const carc_game *g, int x, int y)
{
    for (int i = 0; i < g->ncloisters; i++)
        if (abs(g->cloister_x[i] - x) <= 1 && abs(g->cloister_y[i] - y) <= 1 &&
            seg_followers(&g->seg[feature_root(g, g->cloister_seg[i])]))
            return 1;
    return 0;
}

int ai_square_cold(const carc_game *g, int x, int y)
{
    if (follower_cloister_near(g, x, y))
        return 0;
    /* The cities on the neighbours' facing edges, each with its open edges
     * less the sides of this square it faces; the farms there, at most
     * one of them with farmers. */
    int cities[4], facing[4], ncities = 0, farmer_farm = -1, free_farms[12], nfree = 0;
    for (int e = 0; e < 4; e++) {
        int t = board_tile_at(g, x + carc_dx[e], y + carc_dy[e]);
        if (t < 0)
            continue;
        const board_tile *bt = &g->tiles[t];
        int back = (e + 2) % 4, edge_city = -1;
        for (int port = 3 * back; port < 3 * back + 3; port++) {
            int seg = carc_port_seg[bt->kind][bt->rot][port];
            if (seg == 255)
                return 0;
            int id = feature_root(g, bt->seg_base + seg);
            const seg_node *r = &g->seg[id];
            int taken = seg_followers(r) != 0;
            if (seg_kind(r) == CARC_FIELD) {
                if (taken && farmer_farm >= 0 && farmer_farm != id)
                    return 0; /* two farms with farmers may merge */
                if (taken)
                    farmer_farm = id;
                else
                    free_farms[nfree++] = id;
                continue;
            }
            if (taken)
                return 0;
            if (seg_kind(r) == CARC_CITY && id != edge_city) {
                edge_city = id; /* one city edge: its three ports in one segment */
                int i = 0;
                while (i < ncities && cities[i] != id)
                    i++;
                if (i == ncities) {
                    cities[ncities] = id;
                    facing[ncities++] = -(int)seg_open(r);
                }
                facing[i]++;
            }
        }
    }
    for (int i = 0; i < ncities; i++)
        if (facing[i] >= 0) /* every open edge faces this square: it may complete */
            return 0;
    /* A farm with farmers may grow by the tile's fields and by the free
     * farms: its worth stays unless one of those borders a completed city
     * (the tile's own cities stay open). */
    for (int i = 0; i < nfree && farmer_farm >= 0; i++)
        if (feature_worth(g, CARC_FIELD, farm_city_count(g, free_farms[i]), 0, 0, 1) > 0)
            return 0;
    return 1;
}

void ai_place_only(carc_game *g, carc_placement p)
{
    int closed;
    int t = board_place(g, g->drawn, p.x, p.y, p.rot, board_frontier_at(g, p.x, p.y), &closed);
    board_count_cloister(g, t, caps_cloister_filled(g, p.x, p.y));
}
