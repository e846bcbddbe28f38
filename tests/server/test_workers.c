/* test_workers.c: the worker pool: the spec a worker plays with (one
 * thread, time capped), a computer move, an analysis and a review computed on the pool
 * and handed back through the notify callback. Waits are bounded, never
 * timed. */
#include <jansson.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "carcassonne_ai.h"
#include "workers.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t posted = PTHREAD_COND_INITIALIZER;
static int notified;

static void notify(void *ctx)
{
    (void)ctx;
    pthread_mutex_lock(&lock);
    notified++;
    pthread_cond_signal(&posted);
    pthread_mutex_unlock(&lock);
}

/* Takes the next result, waiting for a notification (at most a minute). */
static void take(workers *w, worker_result *r)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 60;
    pthread_mutex_lock(&lock);
    while (!workers_take(w, r)) {
        if (pthread_cond_timedwait(&posted, &lock, &until) != 0) {
            pthread_mutex_unlock(&lock);
            fail_msg("no result within a minute");
        }
    }
    pthread_mutex_unlock(&lock);
}

static void test_effective_spec(void **state)
{
    (void)state;
    char out[200];
    assert_int_equal(workers_effective_spec("mcts:level=hard", 1000, out, sizeof out), 0);
    assert_string_equal(out, "mcts:level=hard,threads=1,ms=1000");
    assert_int_equal(workers_effective_spec("mcts:level=hard", 5000, out, sizeof out), 0);
    assert_string_equal(out, "mcts:level=hard,threads=1");
    assert_int_equal(workers_effective_spec("mcts", 100, out, sizeof out), 0);
    assert_string_equal(out, "mcts:threads=1,ms=100");
    assert_int_equal(workers_effective_spec("mcts:threads=4,ms=50", 100, out, sizeof out), 0);
    assert_string_equal(out, "mcts:threads=4,ms=50,threads=1");
    assert_int_equal(workers_effective_spec("greedy", 100, out, sizeof out), 0);
    assert_string_equal(out, "greedy");
    assert_int_equal(workers_effective_spec("nonsense", 100, out, sizeof out), -1);
    char err[120];
    carc_player *p = carc_player_new("mcts:level=hard,threads=1,ms=1000", 1, err, sizeof err);
    assert_non_null(p);
    assert_non_null(strstr(carc_player_spec(p), "ms=1000,threads=1"));
    carc_player_free(p);
}

static void test_think(void **state)
{
    (void)state;
    workers *w = workers_new(2, 200, notify, NULL);
    assert_non_null(w);
    carc_game *g = carc_game_new(2, NULL, 42);
    assert_int_equal(workers_think(w, "tabc", "10.0.0.1", 0, g, "greedy"), 0);
    /* An iteration budget far beyond the cap: the watchdog stops it. */
    assert_int_equal(workers_think(w, "tdef", "10.0.0.1", 0, g, "vanilla-mcts:iters=100000000"), 0);
    for (int i = 0; i < 2; i++) {
        worker_result r;
        take(w, &r);
        assert_int_equal(r.kind, JOB_THINK);
        assert_int_equal(r.turn, 0);
        carc_move m;
        assert_int_equal(carc_move_parse(g, r.move, &m), CARC_OK);
    }
    carc_game_free(g);
    workers_free(w);
}

static void test_review(void **state)
{
    (void)state;
    workers *w = workers_new(1, 1000, notify, NULL);
    carc_game *g = carc_game_new(2, NULL, 7);
    carc_rng rng = carc_rng_seed(7);
    for (int i = 0; i < 6; i++)
        carc_game_play_random(g, &rng, 0.5, NULL);
    assert_int_equal(workers_review(w, "tabc", g, 10), 0);
    worker_result r;
    take(w, &r);
    assert_int_equal(r.kind, JOB_REVIEW);
    assert_string_equal(r.table, "tabc");
    json_t *moves = json_loads(r.review, 0, NULL);
    assert_non_null(moves);
    assert_int_equal(json_array_size(moves), 6);
    json_t *first = json_array_get(moves, 0);
    char played[32];
    carc_move_format(g, 0, played, sizeof played);
    assert_string_equal(json_string_value(json_object_get(first, "played")), played);
    assert_non_null(json_object_get(first, "loss"));
    json_decref(moves);
    free(r.review);
    carc_game_free(g);
    workers_free(w);
}

/* Computer moves and analyses are taken in turn from each address: one
 * address's many slow tables do not hold up another's move or hint. */
static void test_fair_addresses(void **state)
{
    (void)state;
    workers *w = workers_new(1, 100, notify, NULL);
    carc_game *g = carc_game_new(2, NULL, 42);
    char table[16];
    for (int i = 0; i < 6; i++) {
        snprintf(table, sizeof table, "tgreedy%d", i);
        assert_int_equal(workers_think(w, table, "10.0.0.1", 0, g, "vanilla-mcts:iters=100000000"),
                         0);
    }
    assert_int_equal(workers_think(w, "tvictim", "10.0.0.2", 0, g, "greedy"), 0);
    assert_int_equal(workers_analyse(w, "thint", "10.0.0.3", 0, g, 10), 0);
    int at = -1, hint_at = -1;
    for (int i = 0; i < 8; i++) {
        worker_result r;
        take(w, &r);
        if (strcmp(r.table, "tvictim") == 0)
            at = i;
        if (strcmp(r.table, "thint") == 0)
            hint_at = i;
    }
    assert_in_range(at, 0, 2);      /* after at most the running job and one more */
    assert_in_range(hint_at, 0, 4); /* a hint is not starved by computer moves */
    carc_game_free(g);
    workers_free(w);
}

/* A review goes one position at a time, behind the computer moves, and a
 * second review of the same table joins the first. */
static void test_review_split_and_joined(void **state)
{
    (void)state;
    workers *w = workers_new(1, 1000, notify, NULL);
    carc_game *g = carc_game_new(2, NULL, 7);
    carc_rng rng = carc_rng_seed(7);
    for (int i = 0; i < 20; i++)
        carc_game_play_random(g, &rng, 0.5, NULL);
    assert_true(workers_review(w, "tabc", g, 100) >= 0);
    assert_true(workers_review(w, "tabc", g, 100) >= 0);
    int thinks, analyses, reviews;
    workers_queued(w, &thinks, &analyses, &reviews);
    assert_int_equal(reviews, 1);
    assert_int_equal(workers_think(w, "tdef", "10.0.0.1", 0, g, "greedy"), 0);
    worker_result r;
    take(w, &r);
    assert_int_equal(r.kind, JOB_THINK); /* before the 2 s review ends */
    take(w, &r);
    assert_int_equal(r.kind, JOB_REVIEW);
    json_t *moves = json_loads(r.review, 0, NULL);
    assert_int_equal(json_array_size(moves), 20);
    json_decref(moves);
    free(r.review);
    workers_queued(w, &thinks, &analyses, &reviews);
    assert_int_equal(reviews, 0);
    carc_game_free(g);
    workers_free(w);
}

/* An analysis: the search's three best moves, legal, with their chances. */
static void test_analyse(void **state)
{
    (void)state;
    workers *w = workers_new(1, 1000, notify, NULL);
    carc_game *g = carc_game_new(2, NULL, 11);
    assert_int_equal(workers_analyse(w, "tabc", "10.0.0.1", 0, g, 50), 0);
    worker_result r;
    take(w, &r);
    assert_int_equal(r.kind, JOB_ANALYSE);
    assert_int_equal(r.turn, 0);
    assert_string_equal(r.table, "tabc");
    assert_int_equal(r.analysis.player, 0);
    assert_int_equal(r.analysis.nmoves, 3);
    for (int i = 0; i < 3; i++) {
        carc_move m;
        assert_int_equal(carc_move_parse(g, r.analysis.moves[i], &m), CARC_OK);
        assert_true(r.analysis.win[i] >= 0 && r.analysis.win[i] <= 1);
    }
    carc_game_free(g);
    workers_free(w);
}

/* A stale analysis is cut short: the running one stopped, the queued one
 * skipped; both answer long before their minute-long budget. */
static void test_cancel_analysis(void **state)
{
    (void)state;
    workers *w = workers_new(1, 60000, notify, NULL);
    carc_game *g = carc_game_new(2, NULL, 12);
    time_t start = time(NULL);
    assert_int_equal(workers_analyse(w, "tabc", "10.0.0.1", 0, g, 60000), 0);
    assert_int_equal(workers_analyse(w, "tabc", "10.0.0.1", 0, g, 60000), 0);
    struct timespec pause = {0, 100 * 1000000L};
    nanosleep(&pause, NULL);
    workers_cancel_analysis(w, "tabc", 1);
    for (int i = 0; i < 2; i++) {
        worker_result r;
        take(w, &r);
        assert_int_equal(r.kind, JOB_ANALYSE);
    }
    assert_true(time(NULL) - start < 40);
    carc_game_free(g);
    workers_free(w);
}

/* A replay runs on the pool and comes back as the `replay` answer's
 * fields (JSON text), with the job number it was asked with; a record
 * that does not replay comes back with the reason. Replays wait in their
 * address's lane: behind one address's running search, another
 * address's replay comes after at most the running job and one more. */
static void test_replay(void **state)
{
    (void)state;
    workers *w = workers_new(1, 300, notify, NULL);
    carc_game *g = carc_game_new(2, NULL, 42);
    carc_rng rng = carc_rng_seed(5);
    for (int i = 0; i < 10; i++)
        assert_int_equal(carc_game_play(g, carc_random_move(g, &rng, 0.5), NULL, 0, NULL), CARC_OK);
    char record[8192];
    assert_true(carc_record_write(g, "", record, sizeof record) > 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(
            workers_think(w, "tbusy", "10.0.0.1", 0, g, "vanilla-mcts:iters=100000000"), 0);
    assert_int_equal(workers_replay(w, 7, "10.0.0.2", record, -1), 0);
    assert_int_equal(workers_replay(w, 8, "10.0.0.2", "no record at all\n", -1), 0);
    int replay_at = -1, seen = 0;
    for (int i = 0; i < 5; i++) {
        worker_result r;
        take(w, &r);
        if (r.kind != JOB_REPLAY)
            continue;
        if (r.replay_job == 7) {
            replay_at = i;
            assert_non_null(r.replay);
            json_t *fields = json_loads(r.replay, 0, NULL);
            assert_non_null(fields);
            assert_int_equal(json_array_size(json_object_get(fields, "moves")), 10);
            json_decref(fields);
        } else {
            assert_int_equal(r.replay_job, 8);
            assert_null(r.replay);
            assert_true(strlen(r.replay_error) > 0);
        }
        free(r.replay);
        seen++;
    }
    assert_int_equal(seen, 2);
    assert_in_range(replay_at, 0, 2); /* after at most the running search and one more */
    carc_game_free(g);
    workers_free(w);
}

/* A call (a password's hashing) runs on a worker and gives its argument
 * back with its number; calls queued when the pool is freed are dropped. */
static int dropped;

static void add_one(void *arg)
{
    (*(int *)arg)++;
}

static void drop_int(void *arg)
{
    (void)arg;
    dropped++;
}

static void test_call(void **state)
{
    (void)state;
    workers *w = workers_new(1, 100, notify, NULL);
    int value = 41;
    assert_int_equal(workers_call(w, 7, "1.2.3.4", add_one, drop_int, &value), 0);
    worker_result r;
    take(w, &r);
    assert_int_equal(r.kind, JOB_CALL);
    assert_int_equal(r.call_job, 7);
    assert_ptr_equal(r.call_arg, &value);
    assert_int_equal(value, 42);
    workers_free(w);
    /* A pool freed with calls queued behind a long search drops them. */
    carc_rules rules = {0};
    carc_game *g = carc_game_new(2, &rules, 3);
    w = workers_new(1, 60000, notify, NULL);
    dropped = 0;
    assert_int_equal(workers_think(w, "t1", "1.2.3.4", 0, g, "mcts:iters=100000000"), 0);
    int queued[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++)
        assert_int_equal(workers_call(w, (uint64_t)i, "1.2.3.4", add_one, drop_int, &queued[i]), 0);
    workers_free(w);
    assert_int_equal(dropped + queued[0] + queued[1] + queued[2], 3);
    carc_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_effective_spec),
        cmocka_unit_test(test_think),
        cmocka_unit_test(test_review),
        cmocka_unit_test(test_fair_addresses),
        cmocka_unit_test(test_review_split_and_joined),
        cmocka_unit_test(test_analyse),
        cmocka_unit_test(test_cancel_analysis),
        cmocka_unit_test(test_replay),
        cmocka_unit_test(test_call),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
