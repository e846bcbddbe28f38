/* move_list.c: rankings with each distinct move once, in one order (see
 * move_list.h). */
#include "move_list.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

int move_list_dedupe(const carc_game *g, carc_move_eval *evals, int n)
{
    int w = 0;
    for (int i = 0; i < n; i++) {
        carc_move m = carc_move_canonical(g, evals[i].move);
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
    int cap = CARC_MAX_MOVES;
    carc_move_eval *evals = malloc(sizeof *evals * (size_t)cap);
    *n = 0;
    if (!evals)
        return NULL;
    *n = move_list_dedupe(g, evals, carc_player_rank(p, g, evals, cap, info));
    move_list_sort(evals, *n);
    return evals;
}
