/* glicko2.c: the Glicko-2 rating system as Glickman's "Example of the
 * Glicko-2 system" defines it, a finished game as pairwise results, the
 * rating categories and the computer players' fixed ratings. The steps'
 * numbers in the comments are the paper's. */
#include "glicko2.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The Glicko-2 scale: μ = (r - 1500) / SCALE, φ = RD / SCALE (step 2). */
#define SCALE 173.7178
/* Step 5's convergence tolerance ε on the log of the squared volatility. */
#define VOLATILITY_TOLERANCE 0.000001
/* A bound on step 5's iterations, which never comes near it (the Illinois
 * algorithm converges superlinearly); it keeps a NaN from looping forever. */
#define MAX_ITERATIONS 1000
#define PI 3.14159265358979323846

glicko2_rating glicko2_new_player(void)
{
    glicko2_rating p = {GLICKO2_START_RATING, GLICKO2_START_RD, GLICKO2_START_VOLATILITY};
    return p;
}

/* Step 3's g(φ): how much an opponent's uncertain rating damps a game. */
static double damping(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI));
}

/* Step 3's E(μ, μj, φj): the expected score against the opponent. */
static double expected_score(double mu, double mu_j, double g_j)
{
    return 1.0 / (1.0 + exp(-g_j * (mu - mu_j)));
}

/* The period's figures that step 5 needs: φ, σ, the estimated variance v
 * (step 3), the estimated improvement Δ (step 4) and the sum of
 * g(φj)(sj - E) that step 7 moves μ by. */
typedef struct period {
    double phi, sigma, v, delta, sum_g_surprise;
} period;

static period period_figures(const glicko2_rating *player, const glicko2_result *results,
                             size_t count)
{
    period p = {player->rd / SCALE, player->volatility, 0, 0, 0};
    double mu = (player->rating - GLICKO2_START_RATING) / SCALE, information = 0;
    for (size_t j = 0; j < count; j++) {
        double g_j = damping(results[j].rd / SCALE);
        double e_j = expected_score(mu, (results[j].rating - GLICKO2_START_RATING) / SCALE, g_j);
        information += g_j * g_j * e_j * (1.0 - e_j);
        p.sum_g_surprise += g_j * (results[j].score - e_j);
    }
    p.v = 1.0 / information;
    p.delta = p.v * p.sum_g_surprise;
    return p;
}

/* Step 5's f(x), x = ln(σ'²), whose root is the new volatility. */
static double volatility_equation(const period *p, double tau, double x)
{
    double ex = exp(x), phi2 = p->phi * p->phi, d2 = p->delta * p->delta;
    double denominator = phi2 + p->v + ex;
    double a = log(p->sigma * p->sigma);
    return ex * (d2 - phi2 - p->v - ex) / (2.0 * denominator * denominator) - (x - a) / (tau * tau);
}

/* Step 5: the new volatility σ', the root of f found by the Illinois
 * algorithm (regula falsi that halves the kept end's value when the same
 * end is kept twice) from a bracket [A, B] of the root. */
static double new_volatility(const period *p, double tau)
{
    double a = log(p->sigma * p->sigma);
    double excess = p->delta * p->delta - p->phi * p->phi - p->v;
    double A = a, B;
    if (excess > 0) {
        B = log(excess);
    } else {
        int k = 1;
        while (volatility_equation(p, tau, a - k * tau) < 0 && k < MAX_ITERATIONS)
            k++;
        B = a - k * tau;
    }
    double fA = volatility_equation(p, tau, A), fB = volatility_equation(p, tau, B);
    for (int i = 0; fabs(B - A) > VOLATILITY_TOLERANCE && i < MAX_ITERATIONS; i++) {
        double C = A + (A - B) * fA / (fB - fA);
        double fC = volatility_equation(p, tau, C);
        /* An exact root (fC == 0) counts as a change of sign: B then
         * becomes C and A the old B, so the bracket still closes. */
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2.0;
        }
        B = C;
        fB = fC;
    }
    return exp(A / 2.0);
}

static int results_valid(const glicko2_result *results, size_t count)
{
    if (!results || count == 0)
        return 0;
    for (size_t j = 0; j < count; j++)
        if (!(results[j].score >= 0.0 && results[j].score <= 1.0) || !(results[j].rd > 0.0) ||
            !isfinite(results[j].rating))
            return 0;
    return 1;
}

int glicko2_update(glicko2_rating *player, const glicko2_result *results, size_t count, double tau)
{
    if (!player || !results_valid(results, count) || !(tau > 0.0) || !(player->rd > 0.0) ||
        !(player->volatility > 0.0) || !isfinite(player->rating))
        return -1;
    period p = period_figures(player, results, count);
    double sigma = new_volatility(&p, tau);
    double phi_star = sqrt(p.phi * p.phi + sigma * sigma);            /* step 6 */
    double phi = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / p.v); /* step 7 */
    double mu = (player->rating - GLICKO2_START_RATING) / SCALE + phi * phi * p.sum_g_surprise;
    player->rating = SCALE * mu + GLICKO2_START_RATING; /* step 8 */
    player->rd = SCALE * phi;
    player->volatility = sigma;
    return 0;
}

glicko2_rating glicko2_idle(glicko2_rating player, unsigned periods)
{
    double phi = player.rd / SCALE, max_phi = GLICKO2_MAX_RD / SCALE;
    for (unsigned i = 0; i < periods && phi < max_phi; i++)
        phi = sqrt(phi * phi + player.volatility * player.volatility);
    player.rd = SCALE * fmin(phi, max_phi);
    return player;
}

/* --- A game as pairwise results --------------------------------------------- */

/* Seat i's score against seat j (i != j) of a finished game: a seat that
 * left (a bit of `forfeited`) loses to every seat that did not; two that
 * both left, or neither, are compared by their scores. */
static double pair_score(const int *scores, unsigned forfeited, int i, int j)
{
    unsigned left_i = (forfeited >> i) & 1u, left_j = (forfeited >> j) & 1u;
    if (left_i != left_j)
        return left_i ? 0.0 : 1.0;
    if (scores[i] == scores[j])
        return 0.5;
    return scores[i] > scores[j] ? 1.0 : 0.0;
}

int glicko2_pairwise(int players, const int *scores, unsigned forfeited,
                     double scores_against[GLICKO2_MAX_PLAYERS][GLICKO2_MAX_PLAYERS])
{
    if (players < 2 || players > GLICKO2_MAX_PLAYERS || !scores || !scores_against ||
        (forfeited >> players) != 0)
        return -1;
    for (int i = 0; i < players; i++)
        for (int j = 0; j < players; j++)
            scores_against[i][j] = i == j ? 0.5 : pair_score(scores, forfeited, i, j);
    return 0;
}

int glicko2_game_results(int players, const int *scores, unsigned forfeited,
                         const glicko2_rating *seats, int seat,
                         glicko2_result out[GLICKO2_MAX_PLAYERS - 1])
{
    double against[GLICKO2_MAX_PLAYERS][GLICKO2_MAX_PLAYERS];
    if (!seats || !out || seat < 0 || seat >= players ||
        glicko2_pairwise(players, scores, forfeited, against) != 0)
        return -1;
    int n = 0;
    for (int j = 0; j < players; j++)
        if (j != seat) {
            glicko2_result r = {seats[j].rating, seats[j].rd, against[seat][j]};
            out[n++] = r;
        }
    return n;
}

int glicko2_rate_game(int players, const int *scores, unsigned forfeited, glicko2_rating *seats,
                      const int *fixed, double tau)
{
    if (!seats || players < 2 || players > GLICKO2_MAX_PLAYERS)
        return -1;
    /* Every seat is rated from the ratings before the game: the updates
     * go into `after` and are copied back only when all succeeded. */
    glicko2_rating after[GLICKO2_MAX_PLAYERS];
    for (int i = 0; i < players; i++) {
        after[i] = seats[i];
        if (fixed && fixed[i])
            continue;
        glicko2_result results[GLICKO2_MAX_PLAYERS - 1];
        int n = glicko2_game_results(players, scores, forfeited, seats, i, results);
        if (n < 0 || glicko2_update(&after[i], results, (size_t)n, tau) != 0)
            return -1;
    }
    memcpy(seats, after, (size_t)players * sizeof *seats);
    return 0;
}

/* --- Categories ---------------------------------------------------------------- */

static const char *const category_names[GLICKO2_CATEGORIES] = {
    [GLICKO2_DUEL] = "duel",
    [GLICKO2_DUEL_VARIANTS] = "duel-variants",
    [GLICKO2_MULTI] = "multi",
    [GLICKO2_MULTI_VARIANTS] = "multi-variants",
};

const char *glicko2_category_name(glicko2_category category)
{
    return (unsigned)category < GLICKO2_CATEGORIES ? category_names[category] : NULL;
}

int glicko2_category_parse(const char *name)
{
    for (int c = 0; name && c < GLICKO2_CATEGORIES; c++)
        if (strcmp(name, category_names[c]) == 0)
            return c;
    return -1;
}

int glicko2_category_of(int players, const carc_rules *rules)
{
    if (!rules || players < 2 || players > GLICKO2_MAX_PLAYERS)
        return -1;
    carc_rules standard = carc_rules_standard();
    int base = carc_rules_equal(rules, &standard);
    if (players == 2)
        return base ? GLICKO2_DUEL : GLICKO2_DUEL_VARIANTS;
    return base ? GLICKO2_MULTI : GLICKO2_MULTI_VARIANTS;
}

/* --- Computer players' fixed ratings ------------------------------------------ */

/* The calibration of docs/ratings.md ("Computer players' fixed ratings"):
 * each level the server offers, its rating (greedy anchored at 1200) and
 * the RD it is given with (the figure's standard error, at least 30). */
typedef struct computer_rating {
    const char *kind;  /* the spec's name before ':' */
    const char *level; /* mcts's level= (NULL: no option) */
    double rating, rd;
} computer_rating;

static const computer_rating computer_ratings[] = {
    {"random", NULL, 39.0, 242.0},
    {"greedy", NULL, 1200.0, 30.0},
    {"mcts", "easy", 1506.0, 30.0},
    {"mcts", "normal", 1747.0, 92.0},
    /* Below normal: 1-9 against it over 10 games, a figure to measure
     * again (docs/ratings.md). */
    {"mcts", "hard", 1764.0, 107.0},
};

/* Reads a spec "KIND[:OPTION,...]" (options joined by ',' or '+') into its
 * kind and its level; 0 when every option is level= or threads=, -1
 * otherwise. `level` is "" without a level= option. */
static int read_spec(const char *spec, char *kind, size_t kind_cap, char *level, size_t level_cap)
{
    size_t n = strcspn(spec, ":");
    if (n == 0 || n >= kind_cap)
        return -1;
    memcpy(kind, spec, n);
    kind[n] = '\0';
    level[0] = '\0';
    const char *opt = spec[n] == ':' ? spec + n + 1 : NULL;
    while (opt) {
        size_t len = strcspn(opt, ",+");
        if (len > 6 && strncmp(opt, "level=", 6) == 0 && len - 6 < level_cap) {
            memcpy(level, opt + 6, len - 6);
            level[len - 6] = '\0';
        } else if (!(len > 8 && strncmp(opt, "threads=", 8) == 0 &&
                     strspn(opt + 8, "0123456789") == len - 8)) {
            return -1;
        }
        opt = opt[len] ? opt + len + 1 : NULL;
    }
    return 0;
}

double glicko2_computer_rating(const char *spec, double *rd)
{
    char kind[16], level[16];
    if (!spec || read_spec(spec, kind, sizeof kind, level, sizeof level) != 0)
        return -1;
    if (strcmp(kind, "mcts") == 0 && level[0] == '\0')
        strcpy(level, "normal"); /* mcts's default level */
    for (size_t i = 0; i < sizeof computer_ratings / sizeof computer_ratings[0]; i++) {
        const computer_rating *c = &computer_ratings[i];
        if (strcmp(kind, c->kind) == 0 && strcmp(level, c->level ? c->level : "") == 0) {
            if (rd)
                *rd = c->rd;
            return c->rating;
        }
    }
    return -1;
}
