/* puzzle_api.c: the puzzles' routes decided (puzzle_api.h): the puzzle
 * of the day, the next puzzle near a rating, and an attempt rated with
 * Glicko-2 as one game between the solver and the puzzle. */
#include "puzzle_api.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "glicko2.h"

enum { EXCLUDE_MAX = 4096 };

static json_t *fail(unsigned *status, unsigned code, const char *error, const char *message)
{
    *status = code;
    return json_pack("{s:s, s:s}", "error", error, "message", message);
}

static json_t *no_set(unsigned *status)
{
    return fail(status, 404, "no_puzzles", "this server has no puzzles (serve --puzzles FILE)");
}

static json_t *storage_failed(storage *store, unsigned *status)
{
    fprintf(stderr, "carcassonne serve: %s\n", storage_error(store));
    return fail(status, 500, "internal", "the server failed: try again");
}

static stored_puzzle_rating new_solver(void)
{
    return (stored_puzzle_rating){
        GLICKO2_START_RATING, GLICKO2_START_RD, GLICKO2_START_VOLATILITY, 0, 0, 0};
}

/* The rating of puzzle `p`: stored, else its starting one. 0, or -1. */
static int rating_of(storage *store, const puzzle *p, stored_puzzle_rating *out)
{
    int found = storage_puzzle_rating(store, p->id, out);
    if (found == 0)
        *out =
            (stored_puzzle_rating){p->rating, PUZZLE_START_RD, GLICKO2_START_VOLATILITY, 0, 0, 0};
    return found < 0 ? -1 : 0;
}

/* The account's solver rating: stored, else a new solver's. 0, or -1. */
static int solver_of(storage *store, int64_t account, stored_puzzle_rating *out)
{
    int found = storage_puzzle_solver(store, account, out);
    if (found == 0)
        *out = new_solver();
    return found < 0 ? -1 : 0;
}

static json_t *round1(double v)
{
    return json_real(round(v * 10.0) / 10.0);
}

static json_t *solver_json(const stored_puzzle_rating *r)
{
    return json_pack("{s:o, s:o, s:f, s:i, s:i, s:i}", "rating", round1(r->rating), "rd",
                     round1(r->rd), "volatility", r->volatility, "attempts", r->attempts, "streak",
                     r->streak, "best_streak", r->best_streak);
}

/* The question of `p` with its rating now, and the solver's. */
static json_t *question(const puzzle *p, const stored_puzzle_rating *r,
                        const stored_puzzle_rating *solver)
{
    json_t *o = puzzle_question_json(p);
    json_object_set_new(o, "rating", round1(r->rating));
    json_object_set_new(o, "attempts", json_integer(r->attempts));
    if (solver)
        json_object_set_new(o, "solver", solver_json(solver));
    return o;
}

json_t *puzzle_api_daily(const puzzle_set *set, storage *store, int64_t account, int64_t now_ms,
                         unsigned *status)
{
    const puzzle *p = puzzle_set_at(set, puzzle_set_daily(set, now_ms));
    if (!p)
        return no_set(status);
    stored_puzzle_rating r, solver;
    if (rating_of(store, p, &r) != 0 || (account && solver_of(store, account, &solver) != 0))
        return storage_failed(store, status);
    json_t *o = question(p, &r, account ? &solver : NULL);
    time_t day = (time_t)(now_ms / 1000);
    struct tm utc;
    char date[16] = "";
    if (gmtime_r(&day, &utc))
        strftime(date, sizeof date, "%Y-%m-%d", &utc);
    json_object_set_new(o, "date", json_string(date));
    *status = 200;
    return o;
}

/* --- The next puzzle ---------------------------------------------------------------------- */

typedef struct skipping {
    const puzzle_set *set;
    unsigned char *skip;
} skipping;

static int skip_attempted(void *ctx, const char *id)
{
    skipping *k = ctx;
    int i = puzzle_set_find(k->set, id);
    if (i >= 0)
        k->skip[i] = 1;
    return 0;
}

/* Marks the ids of the comma-separated `list` in `skip`. */
static void skip_listed(const puzzle_set *set, const char *list, unsigned char *skip)
{
    while (list && *list) {
        size_t len = strcspn(list, ",");
        char id[STORED_PUZZLE_ID_BYTES];
        if (len < sizeof id) {
            memcpy(id, list, len);
            id[len] = '\0';
            int i = puzzle_set_find(set, id);
            if (i >= 0)
                skip[i] = 1;
        }
        list += len + (list[len] == ',');
    }
}

/* A rating of the query: 0 with it in `*out`, -1 when it is not one. */
static int parse_rating(const char *text, double *out)
{
    char *end = NULL;
    double v = text ? strtod(text, &end) : GLICKO2_START_RATING;
    if (text && (end == text || *end != '\0'))
        return -1;
    *out = v;
    return isfinite(v) && v >= 0.0 && v <= 4000.0 ? 0 : -1;
}

/* Every puzzle's rating now, into `ratings`. 0, or -1. */
static int all_ratings(const puzzle_set *set, storage *store, double *ratings)
{
    for (int i = 0; i < puzzle_set_count(set); i++) {
        stored_puzzle_rating r;
        if (rating_of(store, puzzle_set_at(set, i), &r) != 0)
            return -1;
        ratings[i] = r.rating;
    }
    return 0;
}

/* The answer of `next`: the puzzle nearest `target` that is neither
 * attempted (`skip`) nor listed in `exclude`, else one not listed, else
 * any; `listed` and `skip` hold a byte a puzzle. */
static json_t *nearest(const puzzle_set *set, storage *store, double target, const double *ratings,
                       const char *exclude, unsigned char *listed, unsigned char *skip,
                       const stored_puzzle_rating *solver, unsigned *status)
{
    skip_listed(set, exclude, listed);
    for (int i = 0; i < puzzle_set_count(set); i++)
        skip[i] |= listed[i];
    int at = puzzle_set_nearest(set, target, ratings, skip);
    int fresh = at >= 0; /* else every puzzle was attempted: one again */
    if (at < 0)
        at = puzzle_set_nearest(set, target, ratings, listed);
    if (at < 0)
        at = puzzle_set_nearest(set, target, ratings, NULL);
    const puzzle *p = puzzle_set_at(set, at);
    stored_puzzle_rating r;
    if (!p || rating_of(store, p, &r) != 0)
        return storage_failed(store, status);
    json_t *o = question(p, &r, solver);
    json_object_set_new(o, "unsolved", json_boolean(fresh));
    *status = 200;
    return o;
}

json_t *puzzle_api_next(const puzzle_set *set, storage *store, int64_t account, const char *rating,
                        const char *exclude, unsigned *status)
{
    int n = puzzle_set_count(set);
    if (n == 0)
        return no_set(status);
    double target = GLICKO2_START_RATING;
    if (!account && parse_rating(rating, &target) != 0)
        return fail(status, 400, "bad_rating", "rating must be a number from 0 to 4000");
    if (exclude && strlen(exclude) > EXCLUDE_MAX)
        return fail(status, 400, "bad_exclude", "exclude is at most 4096 bytes of ids");
    double *ratings = calloc((size_t)n, sizeof *ratings);
    unsigned char *listed = calloc((size_t)n, 1), *skip = calloc((size_t)n, 1);
    json_t *o = NULL;
    if (!ratings || !listed || !skip) {
        o = fail(status, 500, "internal", "out of memory");
    } else {
        stored_puzzle_rating solver = new_solver();
        skipping k = {set, skip};
        if (all_ratings(set, store, ratings) != 0 ||
            (account && (solver_of(store, account, &solver) != 0 ||
                         storage_puzzle_attempted(store, account, skip_attempted, &k) != 0)))
            o = storage_failed(store, status);
        else
            o = nearest(set, store, account ? solver.rating : target, ratings, exclude, listed,
                        skip, account ? &solver : NULL, status);
    }
    free(ratings);
    free(listed);
    free(skip);
    return o;
}

/* --- An attempt ----------------------------------------------------------------------------- */

/* Number field `key` of `body` in [lo, hi], or `fallback` when absent (a
 * NULL `fallback`: required). 0, or -1. */
static int number_field(json_t *body, const char *key, double lo, double hi, const double *fallback,
                        double *out)
{
    json_t *v = json_object_get(body, key);
    if (!v && fallback) {
        *out = *fallback;
        return 0;
    }
    if (!json_is_number(v))
        return -1;
    *out = json_number_value(v);
    return *out >= lo && *out <= hi ? 0 : -1;
}

/* A guest's rating and streak, as the browser keeps them. 0, or -1. */
static int guest_solver(json_t *body, stored_puzzle_rating *out)
{
    static const double rd = GLICKO2_START_RD, vol = GLICKO2_START_VOLATILITY, none = 0;
    double streak = 0, best = 0, attempts = 0;
    *out = new_solver();
    if (number_field(body, "rating", 0, 4000, NULL, &out->rating) != 0 ||
        number_field(body, "rd", 1, GLICKO2_MAX_RD, &rd, &out->rd) != 0 ||
        number_field(body, "volatility", 0.001, 1.0, &vol, &out->volatility) != 0 ||
        number_field(body, "streak", 0, 1e6, &none, &streak) != 0 ||
        number_field(body, "best_streak", 0, 1e6, &none, &best) != 0 ||
        number_field(body, "attempts", 0, 1e9, &none, &attempts) != 0)
        return -1;
    out->streak = (int)streak;
    out->best_streak = best > streak ? (int)best : (int)streak;
    out->attempts = (int)attempts;
    return 0;
}

/* One rated game between the solver and the puzzle: both after it. */
static void rate(const stored_puzzle_rating *solver, const stored_puzzle_rating *problem,
                 int solved, stored_puzzle_rating *solver_after, stored_puzzle_rating *puzzle_after)
{
    glicko2_rating s = {solver->rating, solver->rd, solver->volatility};
    glicko2_rating p = {problem->rating, problem->rd, problem->volatility};
    glicko2_result against_puzzle = {problem->rating, problem->rd, solved ? 1.0 : 0.0};
    glicko2_result against_solver = {solver->rating, solver->rd, solved ? 0.0 : 1.0};
    glicko2_update(&s, &against_puzzle, 1, GLICKO2_TAU);
    glicko2_update(&p, &against_solver, 1, GLICKO2_TAU);
    *solver_after = *solver;
    solver_after->rating = s.rating;
    solver_after->rd = s.rd;
    solver_after->volatility = s.volatility;
    solver_after->attempts++;
    solver_after->streak = solved ? solver->streak + 1 : 0;
    if (solver_after->streak > solver_after->best_streak)
        solver_after->best_streak = solver_after->streak;
    *puzzle_after = *problem;
    puzzle_after->rating = p.rating;
    puzzle_after->rd = p.rd;
    puzzle_after->volatility = p.volatility;
    puzzle_after->attempts++;
}

static json_t *change_json(const stored_puzzle_rating *before, const stored_puzzle_rating *after)
{
    json_t *o = solver_json(after);
    json_object_set_new(o, "before", round1(before->rating));
    return o;
}

json_t *puzzle_api_attempt(const puzzle_set *set, storage *store, int64_t account, const char *id,
                           json_t *body, int64_t now_ms, unsigned *status)
{
    if (puzzle_set_count(set) == 0)
        return no_set(status);
    const puzzle *p = puzzle_set_at(set, puzzle_set_find(set, id));
    if (!p)
        return fail(status, 404, "no_puzzle", "no puzzle of that id");
    const char *move = json_string_value(json_object_get(body, "move"));
    if (!move)
        return fail(status, 400, "bad_field", "'move' must be a string");
    char canonical[32] = "", why[200];
    int solved = puzzle_check(p, move, canonical, why, sizeof why);
    if (solved < 0)
        return fail(status, 400, "illegal", why);
    stored_puzzle_rating solver, rating, solver_after, rating_after;
    if (!account && guest_solver(body, &solver) != 0)
        return fail(status, 400, "bad_rating",
                    "a guest sends 'rating' (0 to 4000) and may send 'rd' (1 to 350), "
                    "'volatility', 'streak', 'best_streak' and 'attempts'");
    if (rating_of(store, p, &rating) != 0 || (account && solver_of(store, account, &solver) != 0))
        return storage_failed(store, status);
    rate(&solver, &rating, solved, &solver_after, &rating_after);
    int rated = 1;
    if (account) {
        int again = storage_puzzle_attempt(store, account, p->id, solved, now_ms, &solver_after,
                                           &rating_after);
        if (again < 0)
            return storage_failed(store, status);
        if (again) { /* only a first attempt counts */
            rated = 0;
            solver_after = solver;
            rating_after = rating;
        }
    }
    json_t *o = puzzle_answer_json(p);
    json_object_set_new(o, "puzzle", json_string(p->id));
    json_object_set_new(o, "correct", json_boolean(solved));
    json_object_set_new(o, "move", json_string(canonical));
    json_object_set(o, "goal", json_object_get(p->json, "goal"));
    json_object_set(o, "goal_text", json_object_get(p->json, "goal_text"));
    json_object_set_new(o, "rated", json_boolean(rated));
    json_object_set_new(o, "stored", json_boolean(account && rated));
    json_object_set_new(o, "solver", change_json(&solver, &solver_after));
    json_t *pr = change_json(&rating, &rating_after);
    json_object_del(pr, "streak");
    json_object_del(pr, "best_streak");
    json_object_set_new(o, "puzzle_rating", pr);
    *status = 200;
    return o;
}
