/* fit_eval.c: fits the weights of the full evaluation's terms to the
 * outcomes of self-play games (docs/players.md, "the early doubt").
 *
 * Plays two-player games of one player spec against itself. Before every
 * move it takes the terms of ai_evaluate_full_terms for both players and
 * keeps their difference (first seat minus second); when the game is over,
 * the final margin. A least-squares fit of the final margin on the
 * differences (with an intercept for the seat), in one or more phases of
 * the game, says how much each term is worth at the end, to be set beside
 * the weights the evaluation uses. Positions of one game are not
 * independent, so the standard errors treat each game as one cluster.
 *
 * A developer's tool, not installed: `build/fit_eval --help`. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/eval.h"
#include "carcassonne.h"
#include "carcassonne_ai.h"

/* Tiles drawn in a whole base game: 72 less the start tile. */
enum { BASE_PILE = 71 };

enum { MAX_PHASES = 8, MAX_COLS = AI_TERMS + 1 };

/* One position: its game, tiles to come and term differences. */
typedef struct sample {
    int game;
    int left;
    double x[AI_TERMS];
} sample;

typedef struct options {
    int games;
    uint64_t seed;
    int phases;
    const char *spec;
    const char *csv;
    carc_rules rules; /* the games' expansions (--expansions) */
    int pile;         /* draws of a whole game: 71 in the base game */
} options;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: fit_eval [--games N] [--seed S] [--player SPEC] [--phases K] [--csv FILE]\n"
            "                [--expansions LIST]\n"
            "\n"
            "Plays N (default 1000) two-player games of SPEC (default greedy:eval=full)\n"
            "against itself, deals from seeds S, S+1, ... (default 1), and fits each\n"
            "position's final margin on the differences of the full evaluation's terms.\n"
            "With K phases (1 to %d, default 1) it fits each stretch of the game apart,\n"
            "without the terms scaled by the tiles to come. --csv writes every\n"
            "position (game, tiles to come, the terms, the final margin).\n"
            "--expansions (e.g. river) plays games with those expansions.\n",
            MAX_PHASES);
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

static int parse_args(int argc, char **argv, options *o)
{
    *o = (options){1000, 1, 1, "greedy:eval=full", NULL, {.flags = 0}, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "fit_eval: %s: unknown option or missing value\n", a);
            return 0;
        }
        const char *v = argv[++i];
        long n;
        if (!strcmp(a, "--games") && parse_int(v, 1, 1000000, &n)) {
            o->games = (int)n;
        } else if (!strcmp(a, "--phases") && parse_int(v, 1, MAX_PHASES, &n)) {
            o->phases = (int)n;
        } else if (!strcmp(a, "--seed")) {
            char *end;
            errno = 0;
            o->seed = (uint64_t)strtoull(v, &end, 10);
            if (errno || end == v || *end || *v == '-') {
                fprintf(stderr, "fit_eval: --seed: not a number: %s\n", v);
                return 0;
            }
        } else if (!strcmp(a, "--player")) {
            o->spec = v;
        } else if (!strcmp(a, "--csv")) {
            o->csv = v;
        } else if (!strcmp(a, "--expansions")) {
            char why[160] = "";
            if (carc_expansions_parse(v, &o->rules, why, sizeof why) != CARC_OK ||
                carc_rules_check(&o->rules, why, sizeof why) != CARC_OK) {
                fprintf(stderr, "fit_eval: --expansions: %s\n", why);
                return 0;
            }
        } else {
            fprintf(stderr, "fit_eval: %s %s: unknown option or bad value\n", a, v);
            return 0;
        }
    }
    carc_game *g = carc_game_new(2, &o->rules, 1);
    if (!g) {
        fprintf(stderr, "fit_eval: cannot make a game with these expansions\n");
        return 0;
    }
    o->pile = carc_game_tile_total(g) - 1;
    carc_game_free(g);
    return 1;
}

/* Plays game `index` and appends its positions to `*s`; the final margin
 * (first seat minus second) in `*margin`. 0 on failure. */
static int play_game(const options *o, carc_player *seat[2], int index, sample **s, size_t *n,
                     size_t *cap, double *margin)
{
    uint64_t seed = o->seed + (uint64_t)(unsigned)index;
    carc_game *g = carc_game_new(2, &o->rules, seed);
    if (!g)
        return 0;
    carc_player_reseed(seat[0], seed * 2 + 1);
    carc_player_reseed(seat[1], seed * 2 + 2);
    while (!carc_game_over(g)) {
        if (*n == *cap) {
            size_t want = *cap ? *cap * 2 : 4096;
            sample *bigger = realloc(*s, want * sizeof **s);
            if (!bigger) {
                carc_game_free(g);
                return 0;
            }
            *s = bigger;
            *cap = want;
        }
        double value[CARC_MAX_PLAYERS];
        double terms[CARC_MAX_PLAYERS][AI_TERMS];
        ai_evaluate_full_terms(g, value, terms);
        sample *p = &(*s)[(*n)++];
        p->game = index;
        p->left = carc_game_tiles_left(g, NULL) + 1;
        for (int k = 0; k < AI_TERMS; k++)
            p->x[k] = terms[0][k] - terms[1][k];
        carc_move m;
        if (carc_player_choose(seat[carc_game_current_player(g)], g, &m, NULL) != CARC_OK ||
            carc_game_play(g, m, NULL, 0, NULL) != CARC_OK) {
            carc_game_free(g);
            return 0;
        }
    }
    *margin = carc_game_score(g, 0) - carc_game_score(g, 1);
    carc_game_free(g);
    return 1;
}

/* Solves a x = b for the symmetric positive definite `a` (k x k) by
 * Cholesky; 0 when `a` is singular. */
static int solve(int k, double a[MAX_COLS][MAX_COLS], const double *b, double *x)
{
    double l[MAX_COLS][MAX_COLS] = {{0}};
    for (int i = 0; i < k; i++)
        for (int j = 0; j <= i; j++) {
            double sum = a[i][j];
            for (int m = 0; m < j; m++)
                sum -= l[i][m] * l[j][m];
            if (i == j) {
                if (sum <= 1e-12 * (fabs(a[i][i]) + 1e-300))
                    return 0;
                l[i][i] = sqrt(sum);
            } else {
                l[i][j] = sum / l[j][j];
            }
        }
    double y[MAX_COLS] = {0};
    for (int i = 0; i < k; i++) {
        double sum = b[i];
        for (int m = 0; m < i; m++)
            sum -= l[i][m] * y[m];
        y[i] = sum / l[i][i];
    }
    for (int i = k - 1; i >= 0; i--) {
        double sum = y[i];
        for (int m = i + 1; m < k; m++)
            sum -= l[m][i] * x[m];
        x[i] = sum / l[i][i];
    }
    return 1;
}

/* Fits the positions of phase `phase` and prints the weights. The columns:
 * the intercept, then the terms in `cols`. */
static void fit_phase(const options *o, const sample *s, size_t n, const double *margin, int phase,
                      const int *cols, int ncols)
{
    int k = ncols + 1;
    double xtx[MAX_COLS][MAX_COLS] = {{0}}, xty[MAX_COLS] = {0};
    size_t used = 0;
    double ysum = 0.0, yy = 0.0;
    int lo = o->pile - (phase + 1) * o->pile / o->phases + 1;
    int hi = o->pile - phase * o->pile / o->phases;
    for (size_t i = 0; i < n; i++) {
        if (s[i].left < lo || s[i].left > hi)
            continue;
        double row[MAX_COLS];
        row[0] = 1.0;
        for (int c = 0; c < ncols; c++)
            row[c + 1] = s[i].x[cols[c]];
        double y = margin[s[i].game];
        for (int a = 0; a < k; a++) {
            for (int b = 0; b < k; b++)
                xtx[a][b] += row[a] * row[b];
            xty[a] += row[a] * y;
        }
        used++;
        ysum += y;
        yy += y * y;
    }
    printf("\nphase %d of %d (%d to %d tiles to come): %zu positions\n", phase + 1, o->phases, hi,
           lo, used);
    double w[MAX_COLS] = {0};
    if (used <= (size_t)k || !solve(k, xtx, xty, w)) {
        printf("  too few positions, or terms that never vary: no fit\n");
        return;
    }
    /* Residuals, and their sums per game for the clustered errors. */
    double meat[MAX_COLS][MAX_COLS] = {{0}}, rss = 0.0;
    double score[MAX_COLS] = {0};
    int game = -1;
    for (size_t i = 0; i <= n; i++) {
        int next = i < n ? s[i].game : -2;
        if (next != game) {
            for (int a = 0; a < k; a++)
                for (int b = 0; b < k; b++)
                    meat[a][b] += score[a] * score[b];
            memset(score, 0, sizeof score);
            game = next;
        }
        if (i == n || s[i].left < lo || s[i].left > hi)
            continue;
        double row[MAX_COLS], fit = w[0];
        row[0] = 1.0;
        for (int c = 0; c < ncols; c++) {
            row[c + 1] = s[i].x[cols[c]];
            fit += w[c + 1] * row[c + 1];
        }
        double e = margin[s[i].game] - fit;
        rss += e * e;
        for (int a = 0; a < k; a++)
            score[a] += row[a] * e;
    }
    /* se_j = sqrt((X'X)^-1 meat (X'X)^-1)_jj, column by column. */
    double inv[MAX_COLS][MAX_COLS];
    for (int j = 0; j < k; j++) {
        double unit[MAX_COLS] = {0}, col[MAX_COLS] = {0};
        unit[j] = 1.0;
        solve(k, xtx, unit, col);
        for (int i = 0; i < k; i++)
            inv[i][j] = col[i];
    }
    double tss = yy - ysum * ysum / (double)used;
    printf("  R^2 %.3f, residual sd %.1f points\n", tss > 0 ? 1.0 - rss / tss : 0.0,
           sqrt(rss / (double)(used - (size_t)k)));
    printf("  %-22s %8s %8s %8s\n", "term", "now", "fitted", "se");
    for (int j = 0; j < k; j++) {
        double var = 0.0;
        for (int a = 0; a < k; a++)
            for (int b = 0; b < k; b++)
                var += inv[j][a] * meat[a][b] * inv[b][j];
        if (j == 0)
            printf("  %-22s %8s %8.3f %8.3f\n", "first seat", "-", w[0], sqrt(fmax(var, 0)));
        else
            printf("  %-22s %8.3f %8.3f %8.3f\n", ai_terms[cols[j - 1]].name,
                   ai_terms[cols[j - 1]].weight, w[j], sqrt(fmax(var, 0)));
    }
}

static int write_csv(const char *path, const sample *s, size_t n, const double *margin)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fprintf(f, "game,to_come");
    for (int k = 0; k < AI_TERMS; k++)
        fprintf(f, ",t%d", k);
    fprintf(f, ",margin\n");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%d,%d", s[i].game, s[i].left);
        for (int k = 0; k < AI_TERMS; k++)
            fprintf(f, ",%.6g", s[i].x[k]);
        fprintf(f, ",%g\n", margin[s[i].game]);
    }
    return fclose(f) == 0;
}

int main(int argc, char **argv)
{
    options o;
    if (!parse_args(argc, argv, &o)) {
        usage(stderr);
        return 2;
    }
    char err[256];
    carc_player *seat[2];
    seat[0] = carc_player_new(o.spec, 1, err, sizeof err);
    if (!seat[0]) {
        fprintf(stderr, "fit_eval: --player: %s\n", err);
        return 2;
    }
    seat[1] = carc_player_new(o.spec, 2, err, sizeof err);
    double *margin = calloc((size_t)o.games, sizeof *margin);
    sample *s = NULL;
    size_t n = 0, cap = 0;
    int status = 0;
    if (!seat[1] || !margin) {
        fprintf(stderr, "fit_eval: out of memory\n");
        status = 1;
    }
    for (int i = 0; i < o.games && !status; i++) {
        if (!play_game(&o, seat, i, &s, &n, &cap, &margin[i])) {
            fprintf(stderr, "fit_eval: game %d failed (out of memory?)\n", i + 1);
            status = 1;
        } else if ((i + 1) % 100 == 0 && i + 1 < o.games) {
            fprintf(stderr, "fit_eval: %d of %d games played\n", i + 1, o.games);
        }
    }
    if (!status && o.csv && !write_csv(o.csv, s, n, margin)) {
        fprintf(stderr, "fit_eval: %s: %s\n", o.csv, strerror(errno));
        status = 1;
    }
    if (!status) {
        printf("fit_eval: %d games of %s against itself (seeds %" PRIu64 " on), %zu positions\n",
               o.games, carc_player_spec(seat[0]), o.seed, n);
        int cols[AI_TERMS], ncols = 0;
        for (int k = 0; k < AI_TERMS; k++)
            if (o.phases == 1 || k < AI_TERM_CITY_EARLY || k > AI_TERM_FARM_EARLY)
                cols[ncols++] = k;
        for (int p = 0; p < o.phases; p++)
            fit_phase(&o, s, n, margin, p, cols, ncols);
    }
    free(s);
    free(margin);
    carc_player_free(seat[0]);
    carc_player_free(seat[1]);
    return status;
}
