/* workers.h: a bounded pool of threads for computer moves, analyses (hints
 * and win chances), replays of records and reviews, fair between addresses.
 * Each search runs single-threaded on one worker, its time capped; the
 * results wait in a queue, and `notify` wakes the service thread
 * (lws_cancel_service) to take them. The service thread never waits for
 * a search. */
#ifndef CARC_SERVER_WORKERS_H
#define CARC_SERVER_WORKERS_H

#include "analysis.h"
#include "carcassonne.h"
#include "message.h"
#include "storage.h"

enum {
    WORKERS_MAX = 64,
    WORKERS_MAX_JOBS = 100000, /* computer moves queued at most */
    WORKERS_MAX_REVIEWS = 16,  /* reviews queued at most */
    WORKERS_MAX_ANALYSES = 64, /* analyses queued at most (one per table at a time) */
    WORKERS_MAX_REPLAYS = 256, /* replays queued at most */
    WORKERS_MAX_CALLS = 64,    /* calls (workers_call) queued at most */
};

typedef enum job_kind { JOB_THINK, JOB_ANALYSE, JOB_REVIEW, JOB_REPLAY, JOB_CALL } job_kind;

/* A finished job. */
typedef struct worker_result {
    job_kind kind;
    char table[STORED_ID_BYTES];
    int turn;                      /* JOB_THINK, JOB_ANALYSE: the turn it was asked for */
    char move[MSG_MOVE_BYTES + 1]; /* JOB_THINK: the move, record notation */
    char *review;                  /* JOB_REVIEW: the moves' JSON (the taker frees it) */
    srv_analysis analysis;         /* JOB_ANALYSE */
    uint64_t replay_job;           /* JOB_REPLAY: the job number it was asked with */
    char *replay;                  /* JOB_REPLAY: the `replay` answer's fields, JSON text (the taker
                                      frees it), or NULL when the record does not replay: */
    char replay_error[200];        /* ... why */
    uint64_t call_job;             /* JOB_CALL: the number it was asked with, */
    void *call_arg;                /* ... and its argument, run (the taker owns it) */
} worker_result;

typedef struct workers workers;

/* Starts `threads` workers (1..WORKERS_MAX). Searches are capped at
 * `max_think_ms`. `notify(ctx)` is called from a worker after each result.
 * NULL on failure. */
workers *workers_new(int threads, int max_think_ms, void (*notify)(void *ctx), void *ctx);
/* Stops the searches, joins the threads, drops queued jobs and results. */
void workers_free(workers *w);

/* The spec a worker plays `spec` with: one thread, its time capped at
 * `max_think_ms`. Writes into `out` (`cap` bytes); -1 on a bad spec. */
int workers_effective_spec(const char *spec, int max_think_ms, char *out, size_t cap);

/* Queues a computer move for `turn` of `table`, made from address `addr`
 * (the game is copied). Computer moves are taken in turn from each
 * address, in order within one: one address's many tables do not hold up
 * another's. 0 when queued, -1 when the queue is full or out of memory. */
int workers_think(workers *w, const char *table, const char *addr, int turn, const carc_game *g,
                  const char *spec);
/* Queues a review of every move of the finished game `g` with `ms` per
 * move, reviewed one position per job: after each the review goes back
 * behind every other job, so that it never holds a worker for long. A
 * review of `table` already queued or running is not queued again (its
 * result answers both). Returns the jobs ahead of it, or -1 when the
 * queue is full. */
int workers_review(workers *w, const char *table, const carc_game *g, int ms);
/* Queues an analysis of `turn` of `table`, made from address `addr` (the
 * game is copied): the `mcts` player's ranking with `ms` (capped at
 * max_think_ms), one thread. It waits in the address's lane with the
 * computer moves; reviews go after. 0 when queued, -1 when the queue is
 * full or out of memory. */
int workers_analyse(workers *w, const char *table, const char *addr, int turn, const carc_game *g,
                    int ms);
/* Queues the replay of the record `text` (copied) as job `number`, asked
 * from address `addr`: replay_view()'s answer comes back as JSON text
 * (with `tile` >= 0, the kind of the tile drawn: position_view()'s). It
 * waits in the address's lane with its computer moves and analyses, so
 * that one address's replays never hold up another's games. 0 when
 * queued, -1 when the queue is full or out of memory. */
int workers_replay(workers *w, uint64_t number, const char *addr, const char *text, int tile);
/* Queues a call of `run(arg)` as job `number`, asked from address `addr`
 * (a password's hashing: slow, and not to be done on the service thread):
 * it waits in the address's lane with its computer moves, so that one
 * address's calls never hold up another's. The result gives `arg` back
 * (worker_result.call_arg) once run; a pool freed first frees it with
 * `drop`. 0 when queued, -1 when the queue is full or out of memory (then
 * `arg` is the caller's still). */
int workers_call(workers *w, uint64_t number, const char *addr, void (*run)(void *arg),
                 void (*drop)(void *arg), void *arg);
/* Cancels the analyses of `table` for turns before `turn`: a queued one
 * skips its search, a running one is stopped within the watchdog's tick.
 * Their (empty) results still come back, to be dropped as stale. */
void workers_cancel_analysis(workers *w, const char *table, int turn);
/* The jobs waiting: computer moves, analyses, and reviews (running ones
 * included: a review is queued again after each position). */
void workers_queued(workers *w, int *thinks, int *analyses, int *reviews);
/* Takes one finished job; 1 when there was one, 0 when none. */
int workers_take(workers *w, worker_result *out);

#endif
