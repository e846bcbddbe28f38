/* exact_layout.c: the exact solver's probes of a position (exact.h), built
 * once per layout (layout.h). They read the state itself: exact.c sees the
 * game through the library's public calls only, which answer a square's
 * neighbours a segment at a time, and would have to play the last tile,
 * final scoring and all, to ask what a figure on it is worth. */
#include "../state.h" /* first: it picks the layout */

#include <string.h>

#include "../board.h"
#include "../capabilities.h"
#include "../feature.h"
#include "../scoring.h"
#include "exact.h"

/* Whether a cloister with a follower stands among the eight squares
 * around (x, y). Only an open cloister holds one. */
static int follower_cloister_near(const carc_game *g, int x, int y)
{
    for (unsigned around = board_cloisters_around(g, x, y); around; around &= around - 1)
        if (seg_followers(&g->seg[feature_root(g, g->cloister_seg[__builtin_ctz(around)])]))
            return 1;
    return 0;
}

/* The segments on the edges of the tiles around (x, y) that face it,
 * three ports an edge (-1 for a port no segment holds): how many edges. */
static int facing_edges(const carc_game *g, int x, int y, int seg[4][3])
{
    int n = 0;
    for (int e = 0; e < 4; e++) {
        int t = board_tile_at(g, x + carc_dx[e], y + carc_dy[e]);
        if (t < 0)
            continue;
        const board_tile *bt = &g->tiles[t];
        int back = (e + 2) % 4;
        for (int j = 0; j < 3; j++) {
            int local = carc_port_seg[bt->kind][bt->rot][3 * back + j];
            seg[n][j] = local == 255 ? -1 : bt->seg_base + local;
        }
        n++;
    }
    return n;
}

int ai_square_cold(const carc_game *g, int x, int y)
{
    if (follower_cloister_near(g, x, y))
        return 0;
    /* The cities on the neighbours' facing edges, each with its open edges
     * less the sides of this square it faces; the farms there, at most
     * one of them with farmers. */
    int cities[4], facing[4], ncities = 0, farmer_farm = -1, free_farms[12], nfree = 0;
    int seg[4][3], edges = facing_edges(g, x, y, seg);
    for (int e = 0; e < edges; e++) {
        int edge_city = -1;
        for (int j = 0; j < 3; j++) {
            if (seg[e][j] < 0)
                return 0;
            int id = feature_root(g, seg[e][j]);
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
    /* The open cloisters around learn of their new neighbour (they keep
     * their places in the list, which nothing reads here any more). */
    for (unsigned around = board_cloisters_around(g, p.x, p.y); around; around &= around - 1)
        g->seg[g->cloister_seg[__builtin_ctz(around)]].root -= ROOT_OPEN_ONE;
    int t = board_place(g, g->drawn, p.x, p.y, p.rot, board_frontier_at(g, p.x, p.y), &closed);
    board_count_cloister(g, t, caps_cloister_filled(g, p.x, p.y));
}

/* --- What the placement changes in the final scoring ------------------------------------- */

enum { MAX_ROOTS = 48 };

/* Occupied features, each once; `full` when one more did not fit. */
typedef struct root_set {
    int n, full;
    int root[MAX_ROOTS];
} root_set;

static void add_occupied(root_set *set, const carc_game *g, int seg)
{
    int root = feature_root(g, seg);
    if (!seg_followers(&g->seg[root]))
        return;
    for (int i = 0; i < set->n; i++)
        if (set->root[i] == root)
            return;
    if (set->n == MAX_ROOTS)
        set->full = 1;
    else
        set->root[set->n++] = root;
}

/* Adds `sign` times what each feature of `set` would bring its owners at
 * the end of `g` (the final scoring's worth: a completed one's in full) to
 * `points`. */
static void add_worth(const carc_game *g, const root_set *set, int sign,
                      int points[CARC_MAX_PLAYERS])
{
    for (int i = 0; i < set->n; i++) {
        int root = set->root[i], worth = feature_end_worth(g, root);
        unsigned owners = feature_majority(seg_followers(&g->seg[root]), g->nplayers);
        for (int p = 0; p < g->nplayers; p++)
            if (owners & (1u << p))
                points[p] += sign * worth;
    }
}

/* The farms of `g` that border the city rooted at `city`, into `now`, and
 * those of them that lay on the board of `before`, as they were there,
 * into `was`. */
static void add_farms_of_city(const carc_game *g, const carc_game *before, int city, root_set *was,
                              root_set *now)
{
    int s = city;
    do {
        const seg_node *m = &g->seg[s];
        const board_tile *bt = &g->tiles[m->tile];
        int n = carc_tile_data[bt->kind].nsegments;
        for (int j = 0; j < n; j++) {
            const seg_node *f = &g->seg[bt->seg_base + j];
            if (seg_kind(f) != CARC_FIELD || !((seg_borders(f) >> seg_local(m)) & 1u))
                continue;
            add_occupied(now, g, bt->seg_base + j);
            if (m->tile < before->ntiles)
                add_occupied(was, before, bt->seg_base + j);
        }
        s = m->next;
    } while (s != city);
}

int ai_end_worth(const carc_game *g, int feature)
{
    return feature_end_worth(g, feature);
}

int ai_end_change(const carc_game *before, const carc_game *alone, int change[CARC_MAX_PLAYERS])
{
    const board_tile *nt = &alone->tiles[alone->ntiles - 1];
    int x = nt->x, y = nt->y;
    root_set was = {0, 0, {0}}, now = {0, 0, {0}};
    /* The features of the neighbours' facing edges, before the tile and
     * joined by it. */
    int seg[4][3], edges = facing_edges(before, x, y, seg);
    for (int e = 0; e < edges; e++)
        for (int j = 0; j < 3; j++)
            if (seg[e][j] >= 0) {
                add_occupied(&was, before, seg[e][j]);
                add_occupied(&now, alone, seg[e][j]);
            }
    /* The open cloisters around, one square fuller (perhaps complete). */
    for (unsigned around = board_cloisters_around(before, x, y); around; around &= around - 1) {
        int i = __builtin_ctz(around);
        add_occupied(&was, before, before->cloister_seg[i]);
        add_occupied(&now, alone, before->cloister_seg[i]);
    }
    /* The tile's own features, and the farms of the cities it completed
     * (each of them was open before: it has the tile). */
    int n = carc_tile_data[nt->kind].nsegments;
    for (int j = 0; j < n; j++) {
        add_occupied(&now, alone, nt->seg_base + j);
        int root = feature_root(alone, nt->seg_base + j);
        if (seg_kind(&alone->seg[root]) == CARC_CITY && seg_open(&alone->seg[root]) == 0)
            add_farms_of_city(alone, before, root, &was, &now);
    }
    if (was.full || now.full)
        return 0;
    memset(change, 0, sizeof(int) * CARC_MAX_PLAYERS);
    add_worth(alone, &now, 1, change);
    add_worth(before, &was, -1, change);
    return 1;
}
