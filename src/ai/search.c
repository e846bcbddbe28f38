/* search.c: what the searches share (search.h). */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "ai.h"
#include "search.h"

int ai_legal_placements(const carc_game *g, carc_placement *out)
{
    int n = carc_legal_placements(g, out, CARC_MAX_PLACEMENTS), w = 0;
    for (int i = 0; i < n; i++) {
        carc_move m = {CARC_MOVE_PLACE, out[i], CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
        if (carc_move_canonical(g, m).place.rot == out[i].rot)
            out[w++] = out[i];
    }
    return w;
}

ai_evaluation ai_player_evaluation(const carc_player *p)
{
    int eval = p->opt.eval ? p->opt.eval : p->kind == AI_MCTS ? AI_EVAL_FULL : AI_EVAL_BASIC;
    return eval == AI_EVAL_FULL ? ai_evaluate_full : carc_evaluate;
}

carc_move *ai_legal_moves(const carc_game *g, int *n)
{
    int count = carc_legal_moves(g, NULL, 0);
    carc_move *moves = malloc(sizeof *moves * (size_t)(count > 0 ? count : 1));
    *n = moves ? carc_legal_moves(g, moves, count) : 0;
    return moves;
}

carc_move_eval *ai_new_evals(int n)
{
    return malloc(sizeof(carc_move_eval) * (size_t)(n > 0 ? n : 1));
}

void ai_shuffle_moves(carc_player *p, carc_move *moves, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)carc_rng_below(&p->rng, (uint32_t)i + 1);
        carc_move t = moves[i];
        moves[i] = moves[j];
        moves[j] = t;
    }
}

int ai_draw_outcomes(const carc_game *g, int kinds[CARC_MAX_KINDS], double prob[CARC_MAX_KINDS])
{
    int counts[CARC_MAX_KINDS];
    int total = carc_game_draw_pool(g, counts), n = 0, kinds_n = carc_tile_kinds();
    /* Up to the last kind with a tile: the others count none. */
    for (int k = 0, seen = 0; k < kinds_n && seen < total; k++)
        if (counts[k] > 0) {
            kinds[n] = k;
            prob[n++] = (double)counts[k] / total;
            seen += counts[k];
        }
    return n;
}

double ai_weighted(const double *p, const double *b, int from, int to)
{
    double sum = 0.0;
    for (int j = from; j < to; j++)
        sum += p[j] * b[j];
    return sum;
}

double ai_margin(const double values[CARC_MAX_PLAYERS], int players, int player)
{
    double best = -1e300;
    for (int q = 0; q < players; q++)
        if (q != player && values[q] > best)
            best = values[q];
    return values[player] - best;
}

int ai_score_margin(const carc_game *g, int player)
{
    int best = -1000000;
    int players = carc_game_players(g);
    for (int q = 0; q < players; q++)
        if (q != player && carc_game_score(g, q) > best)
            best = carc_game_score(g, q);
    return carc_game_score(g, player) - best;
}

double ai_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t ai_physical_memory(void)
{
#ifdef _SC_PHYS_PAGES /* not POSIX, but glibc's, the BSDs' and macOS's */
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
#else
    return 0;
#endif
}

int ai_should_stop(carc_player *p, double start)
{
    if (atomic_load_explicit(&p->stop, memory_order_relaxed))
        return 1;
    return p->opt.ms > 0 && ai_now() - start >= (double)p->opt.ms * 1e-3;
}

static int eval_better(const carc_move_eval *a, const carc_move_eval *b)
{
    if (a->margin != b->margin)
        return a->margin > b->margin;
    if (a->win != b->win)
        return a->win > b->win;
    return a->visits > b->visits;
}

void ai_sort_evals_by(carc_move_eval *evals, int n, ai_eval_order better)
{
    /* Insertion sort: stable, and n is a few hundred at most. */
    for (int i = 1; i < n; i++) {
        carc_move_eval e = evals[i];
        int j = i;
        while (j > 0 && better(&e, &evals[j - 1])) {
            evals[j] = evals[j - 1];
            j--;
        }
        evals[j] = e;
    }
}

void ai_sort_evals(carc_move_eval *evals, int n)
{
    ai_sort_evals_by(evals, n, eval_better);
}

int ai_higher_margin(const carc_move_eval *a, const carc_move_eval *b)
{
    return a->margin > b->margin;
}
