/* move_list.c: each distinct legal move once, rankings in one order (see
 * move_list.h). */
#include "move_list.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

/* The segment of `kind` at rotation `to` that lies where segment `seg`
 * lies at rotation `from`: the same feature kind, pennant and board
 * ports; -1 when none does. */
static int matching_segment(int kind, int from, int seg, int to)
{
    const carc_tile_def *t = carc_tile(kind);
    unsigned ports = carc_tile_segment_ports(kind, from, seg);
    for (int s = 0; s < t->nsegments; s++)
        if (t->segments[s].kind == t->segments[seg].kind &&
            t->segments[s].pennant == t->segments[seg].pennant &&
            carc_tile_segment_ports(kind, to, s) == ports)
            return s;
    return -1;
}

/* Whether rotations `a` and `b` of `kind` look the same on the board. */
static int same_look(int kind, int a, int b)
{
    const carc_tile_def *t = carc_tile(kind);
    for (int s = 0; s < t->nsegments; s++)
        if (matching_segment(kind, a, s, b) < 0)
            return 0;
    return 1;
}

int move_list_canonical_rotation(int kind, int rot)
{
    for (int r = 0; r < rot; r++)
        if (same_look(kind, r, rot))
            return r;
    return rot;
}

carc_move move_list_canonical(const carc_game *g, carc_move m)
{
    int kind = carc_game_drawn_tile(g);
    if (m.type != CARC_MOVE_PLACE || !carc_tile(kind) || m.place.rot > 3)
        return m;
    int rot = move_list_canonical_rotation(kind, m.place.rot);
    if (rot == m.place.rot)
        return m;
    if (m.segment != CARC_NO_SPOT) {
        int seg = m.segment < carc_tile(kind)->nsegments
                      ? matching_segment(kind, m.place.rot, m.segment, rot)
                      : -1;
        if (seg < 0)
            return m;
        m.segment = (uint8_t)seg;
    }
    m.place.rot = (uint8_t)rot;
    return m;
}

int move_list_placements(const carc_game *g, move_list_placement *out)
{
    carc_placement all[CARC_MAX_PLACEMENTS];
    int n = carc_legal_placements(g, all, CARC_MAX_PLACEMENTS);
    int kind = carc_game_drawn_tile(g), w = 0;
    for (int i = 0; i < n && i < CARC_MAX_PLACEMENTS; i++) {
        if (move_list_canonical_rotation(kind, all[i].rot) != all[i].rot)
            continue; /* listed at its lower rotation, which is legal too */
        out[w].place = all[i];
        out[w].nspots = carc_legal_spots(g, all[i], out[w].spots, CARC_MAX_SPOTS);
        w++;
    }
    return w;
}

int move_list_dedupe(const carc_game *g, carc_move_eval *evals, int n)
{
    int w = 0;
    for (int i = 0; i < n; i++) {
        carc_move m = move_list_canonical(g, evals[i].move);
        int seen = 0;
        for (int k = 0; k < w && !seen; k++)
            seen = carc_move_equal(evals[k].move, m);
        if (seen)
            continue;
        evals[w] = evals[i];
        evals[w++].move = m;
    }
    return w;
}

/* A ranked move with its sort keys: its figures as shown (the chance to
 * win in tenths of a percent, the margin in hundredths of a point) and its
 * place in the ranking player's own order. */
typedef struct ordered_eval {
    carc_move_eval eval;
    long win, margin;
    int index;
} ordered_eval;

static long shown(double v, double scale)
{
    return isfinite(v) ? lround(v * scale) : LONG_MIN;
}

static int compare_evals(const void *pa, const void *pb)
{
    const ordered_eval *a = pa, *b = pb;
    if (a->win != b->win)
        return a->win > b->win ? -1 : 1;
    if (a->margin != b->margin)
        return a->margin > b->margin ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

void move_list_sort(carc_move_eval *evals, int n)
{
    ordered_eval *tmp = n > 1 ? malloc(sizeof *tmp * (size_t)n) : NULL;
    if (!tmp)
        return;
    for (int i = 0; i < n; i++)
        tmp[i] =
            (ordered_eval){evals[i], shown(evals[i].win, 1000.0), shown(evals[i].margin, 100.0), i};
    qsort(tmp, (size_t)n, sizeof *tmp, compare_evals);
    for (int i = 0; i < n; i++)
        evals[i] = tmp[i].eval;
    free(tmp);
}

carc_move_eval *move_list_rank(carc_player *p, const carc_game *g, int *n, carc_search_info *info)
{
    int cap = CARC_MAX_PLACEMENTS * (1 + CARC_MAX_SPOTS);
    carc_move_eval *evals = malloc(sizeof *evals * (size_t)cap);
    *n = 0;
    if (!evals)
        return NULL;
    *n = move_list_dedupe(g, evals, carc_player_rank(p, g, evals, cap, info));
    move_list_sort(evals, *n);
    return evals;
}
