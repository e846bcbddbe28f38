/* arena_stats.c: the statistics of an arena match (see arena_stats.h). */
#include "arena_stats.h"

#include <math.h>
#include <string.h>

enum { PAIR = 2 };

static const double z95 = 1.959963984540054;

/* A's points in a game: 1 a win, 0.5 a draw, 0 a loss. */
static double game_points(const arena_game *g)
{
    if (g->forfeit == ARENA_A_FORFEITS)
        return 0.0;
    if (g->forfeit == ARENA_B_FORFEITS)
        return 1.0;
    return g->a_score > g->b_score ? 1.0 : g->a_score < g->b_score ? 0.0 : 0.5;
}

double arena_elo(double score_rate, int *clamped)
{
    double s = score_rate;
    if (s < 0.001 || s > 0.999) {
        s = s < 0.001 ? 0.001 : 0.999;
        if (clamped)
            *clamped = 1;
    }
    return -400.0 * log10(1.0 / s - 1.0);
}

/* Wilson's score interval of a proportion `p` over `n` trials. */
static void wilson(double p, double n, double *low, double *high)
{
    double z2 = z95 * z95;
    double denom = 1.0 + z2 / n;
    double centre = (p + z2 / (2.0 * n)) / denom;
    double half = z95 * sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom;
    /* It always holds p; rounding must not move an end past it (at p = 0,
     * centre - half is 0 only up to rounding). */
    *low = centre - half < 0.0 ? 0.0 : centre - half;
    *low = *low > p ? p : *low;
    *high = centre + half > 1.0 ? 1.0 : centre + half;
    *high = *high < p ? p : *high;
}

static void count_results(const arena_game *games, int n, arena_stats *out)
{
    double a_seconds = 0, b_seconds = 0, a_total = 0, b_total = 0;
    long a_moves = 0, b_moves = 0;
    for (int i = 0; i < n; i++) {
        double pts = game_points(&games[i]);
        out->a_wins += pts == 1.0;
        out->b_wins += pts == 0.0;
        out->draws += pts == 0.5;
        a_total += games[i].a_score;
        b_total += games[i].b_score;
        a_seconds += games[i].a_seconds;
        b_seconds += games[i].b_seconds;
        a_moves += games[i].a_moves;
        b_moves += games[i].b_moves;
    }
    out->a_mean_score = a_total / n;
    out->b_mean_score = b_total / n;
    out->mean_margin = (a_total - b_total) / n;
    out->score_rate = (out->a_wins + 0.5 * out->draws) / n;
    out->a_seconds_per_move = a_moves ? a_seconds / (double)a_moves : 0.0;
    out->b_seconds_per_move = b_moves ? b_seconds / (double)b_moves : 0.0;
}

void arena_stats_compute(const arena_game *games, int n, arena_stats *out)
{
    memset(out, 0, sizeof *out);
    if (n < 1)
        return;
    out->games = n;
    out->pairs = (n + PAIR - 1) / PAIR;
    count_results(games, n, out);

    /* Means and sums of squared deviations of the pairs' results, in one
     * pass (Welford's update). */
    double r_mean = 0, r_m2 = 0, m_mean = 0, m_m2 = 0;
    for (int p = 0; p < out->pairs; p++) {
        int first = p * PAIR, count = first + 1 < n ? PAIR : 1;
        double r = 0, m = 0;
        for (int k = 0; k < count; k++) {
            r += game_points(&games[first + k]);
            m += games[first + k].a_score - games[first + k].b_score;
        }
        r /= count;
        m /= count;
        double dr = r - r_mean, dm = m - m_mean;
        r_mean += dr / (p + 1);
        m_mean += dm / (p + 1);
        r_m2 += dr * (r - r_mean);
        m_m2 += dm * (m - m_mean);
    }
    double r_sd = out->pairs < 2 ? 0.0 : sqrt(r_m2 / (out->pairs - 1));
    double m_sd = out->pairs < 2 ? 0.0 : sqrt(m_m2 / (out->pairs - 1));
    double s = out->score_rate;
    if (out->pairs < 2 || r_sd == 0.0) {
        wilson(s, out->pairs, &out->rate_low, &out->rate_high);
        out->rate_wilson = 1;
    } else {
        double half = z95 * r_sd / sqrt(out->pairs);
        out->rate_low = s - half < 0.0 ? 0.0 : s - half;
        out->rate_high = s + half > 1.0 ? 1.0 : s + half;
    }
    out->margin_se = out->pairs < 2 ? 0.0 : m_sd / sqrt(out->pairs);
    out->elo = arena_elo(s, &out->elo_clamped);
    out->elo_low = arena_elo(out->rate_low, &out->elo_clamped);
    out->elo_high = arena_elo(out->rate_high, &out->elo_clamped);
}
