/* workers.c: the worker pool: threads, job and result queues (computer
 * moves, analyses, replays and calls first, taken in turn from each address, then
 * reviews, one position at a time), the watchdog that stops a search at
 * its time cap. */
#define _GNU_SOURCE /* gettid(): a nice value for each worker thread */
#include "workers.h"

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "carcassonne_ai.h"
#include "replay_view.h"
#include "token.h"

typedef struct job {
    job_kind kind;
    char table[STORED_ID_BYTES];
    char addr[STORED_ADDR_BYTES]; /* JOB_THINK, JOB_ANALYSE: the table's creator's address;
                                     JOB_REPLAY: the asker's */
    int turn, ms;
    char spec[MSG_SPEC_BYTES + 32];
    carc_game *game;
    int cancelled; /* JOB_ANALYSE: its turn has gone, skip or stop the search */
    /* JOB_REVIEW: one position per turn of the queue; the job goes back to
     * the end of the review queue after each. */
    int position;        /* the next position to review */
    carc_game *replay;   /* the game replayed up to `position`; NULL before the first */
    int next_draw;       /* with hand=N: the next draw of `game`'s log to name on `replay` */
    json_t *list;        /* the positions reviewed so far */
    uint64_t replay_job; /* JOB_REPLAY, JOB_CALL: its number; JOB_REPLAY: the record (malloc'ed) */
    char *record;
    int tile;                /* JOB_REPLAY: -1, or a `position` answer's drawn tile */
    void (*run)(void *arg);  /* JOB_CALL: what to call, */
    void (*drop)(void *arg); /* ... what frees its argument when it is not run, */
    void *arg;               /* ... and its argument */
    struct job *next;
} job;

/* The computer moves, analyses and replays asked from one address,
 * in order. The lanes with jobs form a queue: a worker takes the first job
 * of the first lane, and the lane goes to the back, so that every address
 * gets its turn however many tables it runs. */
typedef struct lane {
    char addr[STORED_ADDR_BYTES];
    job *head, *tail;
    struct lane *next;
} lane;

typedef struct result_node {
    worker_result result;
    void (*drop)(void *arg); /* frees result.call_arg when the result is not taken */
    struct result_node *next;
} result_node;

/* What one worker is doing: the player searching, when it must stop. */
typedef struct slot {
    carc_player *player; /* NULL when idle */
    double deadline;
    job *running; /* the job taken, until it is freed; NULL when idle */
} slot;

struct workers {
    pthread_mutex_t lock;
    pthread_cond_t work;           /* a job was queued, or stopping */
    pthread_cond_t tick;           /* wakes the watchdog to stop */
    lane *lanes_head, *lanes_tail; /* computer moves and analyses, by address */
    job *review_head, *review_tail;
    int nthink, nanalyse, nreplay, nreview, ncall;
    result_node *results_head, *results_tail;
    int stopping;      /* workers: take no more jobs, stop searching */
    int watchdog_quit; /* the watchdog: every worker has ended */
    int max_think_ms;
    void (*notify)(void *);
    void *ctx;
    int nthreads;
    pthread_t threads[WORKERS_MAX];
    slot slots[WORKERS_MAX];
    pthread_t watchdog;
    int watchdog_started;
};

typedef struct worker_arg {
    workers *w;
    int index;
} worker_arg;

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t random_seed(void)
{
    uint64_t seed = 1;
    token_random(&seed, sizeof seed);
    return seed;
}

int workers_effective_spec(const char *spec, int max_think_ms, char *out, size_t cap)
{
    char err[120];
    carc_player *p = carc_player_new(spec, 1, err, sizeof err);
    if (!p)
        return -1;
    const char *full = carc_player_spec(p);
    int is_mcts = strncmp(full, "mcts:", 5) == 0;
    const char *ms = strstr(full, "ms=");
    int ms_value = ms && (ms == full || ms[-1] == ':' || ms[-1] == ',') ? atoi(ms + 3) : 0;
    carc_player_free(p);
    char sep = strchr(spec, ':') ? ',' : ':';
    int n = snprintf(out, cap, "%s", spec);
    if (is_mcts) {
        n += snprintf(out + n, cap - (size_t)n, "%cthreads=1", sep);
        sep = ',';
    }
    if (ms_value > max_think_ms)
        n += snprintf(out + n, cap - (size_t)n, "%cms=%d", sep, max_think_ms);
    return n < (int)cap ? 0 : -1;
}

/* --- Queues (called with the lock held) -------------------------------------------- */

static void push_job(job **head, job **tail, job *j)
{
    j->next = NULL;
    if (*tail)
        (*tail)->next = j;
    else
        *head = j;
    *tail = j;
}

static job *pop_list(job **head, job **tail)
{
    job *j = *head;
    if (!j)
        return NULL;
    *head = j->next;
    if (!*head)
        *tail = NULL;
    return j;
}

/* The count of queued jobs of `j`'s kind among those in lanes. */
static int *lane_count(workers *w, const job *j)
{
    if (j->kind == JOB_CALL)
        return &w->ncall;
    return j->kind == JOB_THINK ? &w->nthink : j->kind == JOB_ANALYSE ? &w->nanalyse : &w->nreplay;
}

/* Queues a computer move, an analysis or a replay in the lane of its
 * address (made when missing); -1 when out of memory. */
static int push_lane(workers *w, job *j)
{
    lane *l = w->lanes_head;
    while (l && strcmp(l->addr, j->addr) != 0)
        l = l->next;
    if (!l) {
        if (!(l = calloc(1, sizeof *l)))
            return -1;
        snprintf(l->addr, sizeof l->addr, "%s", j->addr);
        if (w->lanes_tail)
            w->lanes_tail->next = l;
        else
            w->lanes_head = l;
        w->lanes_tail = l;
    }
    push_job(&l->head, &l->tail, j);
    (*lane_count(w, j))++;
    return 0;
}

/* The first lane's first job; the lane goes to the back of the queue (or
 * away, when empty). */
static job *pop_lane(workers *w)
{
    lane *l = w->lanes_head;
    if (!l)
        return NULL;
    job *j = pop_list(&l->head, &l->tail);
    w->lanes_head = l->next;
    if (!w->lanes_head)
        w->lanes_tail = NULL;
    l->next = NULL;
    if (l->head) {
        if (w->lanes_tail)
            w->lanes_tail->next = l;
        else
            w->lanes_head = l;
        w->lanes_tail = l;
    } else {
        free(l);
    }
    (*lane_count(w, j))--;
    return j;
}

/* The next job: a computer move or an analysis, an address at a time,
 * then one position of a review. */
static job *pop_job(workers *w)
{
    job *j = pop_lane(w);
    if (!j && (j = pop_list(&w->review_head, &w->review_tail)))
        w->nreview--;
    return j;
}

static void free_job(job *j)
{
    if (j) {
        carc_game_free(j->game);
        carc_game_free(j->replay);
        json_decref(j->list);
        free(j->record);
        if (j->arg && j->drop)
            j->drop(j->arg);
        free(j);
    }
}

/* Queues computer move, analysis or replay `j` (push_lane) unless `max` of
 * its kind are queued already, and wakes a worker: 0, or -1 (full, or out
 * of memory) with `j` freed. */
static int enqueue_lane(workers *w, job *j, int max)
{
    pthread_mutex_lock(&w->lock);
    int queued = *lane_count(w, j);
    int full = queued >= max || push_lane(w, j) != 0;
    if (!full)
        pthread_cond_signal(&w->work);
    pthread_mutex_unlock(&w->lock);
    if (full)
        free_job(j);
    return full ? -1 : 0;
}

/* --- The jobs ------------------------------------------------------------------------- */

/* Runs `p` on worker `index`, registered so that the watchdog can stop it.
 * Returns 0 when the job was cancelled (its deadline is then past). */
static int begin_search(workers *w, int index, carc_player *p, int ms)
{
    pthread_mutex_lock(&w->lock);
    slot *s = &w->slots[index];
    int cancelled = s->running && s->running->cancelled;
    s->player = p;
    s->deadline = cancelled ? 0 : monotonic_seconds() + ms / 1000.0 + 0.05;
    pthread_mutex_unlock(&w->lock);
    return !cancelled;
}

static void end_search(workers *w, int index)
{
    pthread_mutex_lock(&w->lock);
    w->slots[index].player = NULL;
    pthread_mutex_unlock(&w->lock);
}

static void run_think(workers *w, int index, const job *j, worker_result *r)
{
    char err[120];
    carc_player *p = carc_player_new(j->spec, random_seed(), err, sizeof err);
    carc_move m;
    if (p) {
        begin_search(w, index, p, w->max_think_ms);
        carc_status st = carc_player_choose(p, j->game, &m, NULL);
        end_search(w, index);
        if (st != CARC_OK)
            p = NULL;
    }
    if (!p) {
        carc_rng rng = carc_rng_seed(random_seed());
        m = carc_random_move(j->game, &rng, 0.5);
    }
    carc_move_write(j->game, m, r->move, sizeof r->move);
    carc_player_free(p);
}

/* Ranks the position and returns the worth of the best move and of
 * `played` for the mover (margins). */
static void rank_position(workers *w, int index, carc_player *p, const carc_game *g,
                          carc_move played, carc_move_eval *evals, int cap, int ms,
                          carc_move_eval *best, double *played_margin)
{
    begin_search(w, index, p, ms);
    int n = carc_player_rank(p, g, evals, cap, NULL);
    end_search(w, index);
    *best = n > 0 ? evals[0] : (carc_move_eval){.move = played};
    *played_margin = best->margin;
    for (int i = 0; i < n; i++)
        if (carc_move_equal(evals[i].move, played)) {
            *played_margin = evals[i].margin;
            break;
        }
}

/* Reviews position `j->position` of a finished game: the best move and
 * the loss of the one played. Returns 1 when the review is complete (its
 * JSON then in `r`), 0 when positions are left (the job is queued again). */
static int run_review_step(workers *w, int index, job *j, worker_result *r)
{
    char spec[64], err[120];
    snprintf(spec, sizeof spec, "mcts:ms=%d,threads=1", j->ms);
    carc_rules rules = carc_game_rules(j->game);
    if (!j->replay)
        j->replay = carc_game_new(carc_game_players(j->game), &rules, random_seed());
    if (!j->list)
        j->list = json_array();
    carc_player *p = carc_player_new(spec, random_seed(), err, sizeof err);
    int cap = CARC_MAX_PLACEMENTS * (1 + CARC_MAX_SPOTS);
    carc_move_eval *evals = malloc(sizeof *evals * (size_t)cap);
    carc_game *g = j->replay;
    int i = j->position, done = 1;
    carc_move played;
    int tile;
    if (p && g && j->list && evals && i < carc_game_move_count(j->game) && !carc_game_over(g) &&
        carc_game_move_at(j->game, i, &played, &tile) == CARC_OK &&
        replay_take_tile(j->game, g, &j->next_draw, i, tile) == 0) {
        if (carc_game_rules(g).hand > 0 && played.place.tile == 0)
            played.place.tile = (uint8_t)(1 + tile);
        carc_move_eval best;
        double played_margin;
        rank_position(w, index, p, g, played, evals, cap, j->ms, &best, &played_margin);
        char played_text[32] = "", best_text[32] = "";
        carc_move_write(g, played, played_text, sizeof played_text);
        carc_move_write(g, best.move, best_text, sizeof best_text);
        json_array_append_new(j->list,
                              json_pack("{s:i, s:i, s:s, s:s, s:f}", "turn", i, "player",
                                        carc_game_current_player(g), "played", played_text, "best",
                                        best_text, "loss", best.margin - played_margin));
        j->position++;
        done = carc_game_play(g, played, NULL, 0, NULL) != CARC_OK ||
               j->position >= carc_game_move_count(j->game) || carc_game_over(g);
    }
    free(evals);
    carc_player_free(p);
    if (done)
        r->review = j->list ? json_dumps(j->list, JSON_COMPACT | JSON_REAL_PRECISION(4)) : NULL;
    return done;
}

/* The `mcts` player's three best moves for the player to move. */
static void run_analyse(workers *w, int index, const job *j, worker_result *r)
{
    char spec[64], err[120];
    snprintf(spec, sizeof spec, "mcts:ms=%d,threads=1", j->ms);
    carc_player *p = carc_player_new(spec, random_seed(), err, sizeof err);
    carc_move_eval evals[ANALYSIS_MOVES];
    int n = 0;
    if (p) {
        if (begin_search(w, index, p, j->ms))
            n = carc_player_rank(p, j->game, evals, ANALYSIS_MOVES, NULL);
        end_search(w, index);
    }
    srv_analysis *a = &r->analysis;
    a->player = carc_game_current_player(j->game);
    a->nmoves = n < 0 ? 0 : n;
    for (int i = 0; i < a->nmoves; i++) {
        carc_move_write(j->game, evals[i].move, a->moves[i], sizeof a->moves[i]);
        a->margin[i] = evals[i].margin;
        a->win[i] = evals[i].win;
    }
    carc_player_free(p);
}

/* The record replayed move by move (replay_view), as JSON text. */
static void run_replay(const job *j, worker_result *r)
{
    r->replay_job = j->replay_job;
    snprintf(r->replay_error, sizeof r->replay_error, "out of memory");
    size_t len = strlen(j->record);
    json_t *fields =
        j->tile < 0
            ? replay_view(j->record, len, r->replay_error, sizeof r->replay_error)
            : position_view(j->record, len, j->tile, r->replay_error, sizeof r->replay_error);
    if (fields)
        r->replay = json_dumps(fields, JSON_COMPACT | JSON_REAL_PRECISION(6));
    json_decref(fields);
    if (r->replay && (r->replay[0] != '{' || r->replay[1] == '}')) {
        free(r->replay);
        r->replay = NULL;
        snprintf(r->replay_error, sizeof r->replay_error, "the replay has no fields");
    }
}

/* A call: its argument goes back with the result. */
static void run_call(job *j, worker_result *r)
{
    j->run(j->arg);
    r->call_job = j->replay_job;
    r->call_arg = j->arg;
    j->arg = NULL;
}

/* Frees what a result not taken holds. */
static void drop_result(const worker_result *r, void (*drop)(void *arg))
{
    free(r->review);
    free(r->replay);
    if (r->call_arg && drop)
        drop(r->call_arg);
}

static void post_result(workers *w, const worker_result *r, void (*drop)(void *arg))
{
    result_node *node = malloc(sizeof *node);
    if (!node) {
        drop_result(r, drop);
        return;
    }
    node->drop = drop;
    node->result = *r;
    node->next = NULL;
    pthread_mutex_lock(&w->lock);
    if (w->results_tail)
        w->results_tail->next = node;
    else
        w->results_head = node;
    w->results_tail = node;
    pthread_mutex_unlock(&w->lock);
    w->notify(w->ctx);
}

static void *worker_main(void *arg)
{
    worker_arg *a = arg;
    workers *w = a->w;
    int index = a->index;
    free(a);
    /* Below the service thread, so searches never slow the sockets. */
    setpriority(PRIO_PROCESS, (id_t)gettid(), 10);
    for (;;) {
        pthread_mutex_lock(&w->lock);
        job *j = NULL;
        while (!w->stopping && !(j = pop_job(w)))
            pthread_cond_wait(&w->work, &w->lock);
        int stopping = w->stopping;
        w->slots[index].running = stopping ? NULL : j;
        pthread_mutex_unlock(&w->lock);
        if (stopping)
            break;
        worker_result r = {.kind = j->kind, .turn = j->turn};
        snprintf(r.table, sizeof r.table, "%s", j->table);
        int done = 1;
        if (j->kind == JOB_THINK)
            run_think(w, index, j, &r);
        else if (j->kind == JOB_ANALYSE)
            run_analyse(w, index, j, &r);
        else if (j->kind == JOB_REPLAY)
            run_replay(j, &r);
        else if (j->kind == JOB_CALL)
            run_call(j, &r);
        else
            done = run_review_step(w, index, j, &r);
        pthread_mutex_lock(&w->lock);
        w->slots[index].running = NULL;
        if (!done && !w->stopping) {
            /* The rest of the review waits behind the other jobs. */
            push_job(&w->review_head, &w->review_tail, j);
            w->nreview++;
            j = NULL;
        }
        pthread_mutex_unlock(&w->lock);
        if (!done) {
            free_job(j); /* NULL unless the pool is stopping */
            continue;
        }
        void (*drop)(void *arg) = j->drop;
        free_job(j);
        post_result(w, &r, drop);
    }
    return NULL;
}

/* Every 20 ms: stops the searches past their deadline (a spec with an
 * iteration budget has no time cap of its own), and every search once the
 * pool is stopping (one that began after the stop was asked included). */
static void *watchdog_main(void *arg)
{
    workers *w = arg;
    pthread_mutex_lock(&w->lock);
    while (!w->watchdog_quit) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 20 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&w->tick, &w->lock, &ts);
        double now = monotonic_seconds();
        for (int i = 0; i < w->nthreads; i++)
            if (w->slots[i].player && (w->stopping || now > w->slots[i].deadline))
                carc_player_stop(w->slots[i].player);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/* --- The pool ------------------------------------------------------------------------- */

workers *workers_new(int threads, int max_think_ms, void (*notify)(void *ctx), void *ctx)
{
    if (threads < 1 || threads > WORKERS_MAX)
        return NULL;
    workers *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->work, NULL);
    pthread_cond_init(&w->tick, NULL);
    w->max_think_ms = max_think_ms;
    w->notify = notify;
    w->ctx = ctx;
    if (pthread_create(&w->watchdog, NULL, watchdog_main, w) != 0) {
        workers_free(w);
        return NULL;
    }
    w->watchdog_started = 1;
    for (int i = 0; i < threads; i++) {
        worker_arg *a = malloc(sizeof *a);
        if (!a)
            break;
        a->w = w;
        a->index = i;
        if (pthread_create(&w->threads[i], NULL, worker_main, a) != 0) {
            free(a);
            break;
        }
        w->nthreads++;
    }
    if (w->nthreads < threads) {
        workers_free(w);
        return NULL;
    }
    return w;
}

void workers_free(workers *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stopping = 1;
    for (int i = 0; i < w->nthreads; i++)
        if (w->slots[i].player)
            carc_player_stop(w->slots[i].player);
    pthread_cond_broadcast(&w->work);
    pthread_mutex_unlock(&w->lock);
    for (int i = 0; i < w->nthreads; i++)
        pthread_join(w->threads[i], NULL);
    pthread_mutex_lock(&w->lock);
    w->watchdog_quit = 1;
    pthread_cond_broadcast(&w->tick);
    pthread_mutex_unlock(&w->lock);
    if (w->watchdog_started)
        pthread_join(w->watchdog, NULL);
    job *j;
    while ((j = pop_job(w)))
        free_job(j);
    for (result_node *n = w->results_head; n;) {
        result_node *next = n->next;
        drop_result(&n->result, n->drop);
        free(n);
        n = next;
    }
    pthread_cond_destroy(&w->work);
    pthread_cond_destroy(&w->tick);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

static job *new_job(job_kind kind, const char *table, const carc_game *g)
{
    job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->kind = kind;
    snprintf(j->table, sizeof j->table, "%s", table);
    j->game = carc_game_clone(g);
    if (!j->game) {
        free(j);
        return NULL;
    }
    return j;
}

int workers_think(workers *w, const char *table, const char *addr, int turn, const carc_game *g,
                  const char *spec)
{
    job *j = new_job(JOB_THINK, table, g);
    if (!j)
        return -1;
    j->turn = turn;
    snprintf(j->addr, sizeof j->addr, "%s", addr);
    if (workers_effective_spec(spec, w->max_think_ms, j->spec, sizeof j->spec) != 0) {
        free_job(j);
        return -1;
    }
    return enqueue_lane(w, j, WORKERS_MAX_JOBS);
}

/* Whether a review of `table` is queued or running (lock held). */
static int reviewing(const workers *w, const char *table)
{
    for (const job *j = w->review_head; j; j = j->next)
        if (strcmp(j->table, table) == 0)
            return 1;
    for (int i = 0; i < w->nthreads; i++) {
        const job *j = w->slots[i].running;
        if (j && j->kind == JOB_REVIEW && strcmp(j->table, table) == 0)
            return 1;
    }
    return 0;
}

int workers_review(workers *w, const char *table, const carc_game *g, int ms)
{
    pthread_mutex_lock(&w->lock);
    int joined = reviewing(w, table), ahead = w->nthink + w->nanalyse + w->nreview;
    pthread_mutex_unlock(&w->lock);
    if (joined)
        return ahead;
    job *j = new_job(JOB_REVIEW, table, g);
    if (!j)
        return -1;
    j->ms = ms < w->max_think_ms ? ms : w->max_think_ms;
    pthread_mutex_lock(&w->lock);
    ahead = w->nthink + w->nanalyse + w->nreview;
    int full = w->nreview >= WORKERS_MAX_REVIEWS;
    if (!full) {
        push_job(&w->review_head, &w->review_tail, j);
        w->nreview++;
        pthread_cond_signal(&w->work);
    }
    pthread_mutex_unlock(&w->lock);
    if (full)
        free_job(j);
    return full ? -1 : ahead;
}

int workers_analyse(workers *w, const char *table, const char *addr, int turn, const carc_game *g,
                    int ms)
{
    job *j = new_job(JOB_ANALYSE, table, g);
    if (!j)
        return -1;
    snprintf(j->addr, sizeof j->addr, "%s", addr);
    j->turn = turn;
    j->ms = ms < w->max_think_ms ? ms : w->max_think_ms;
    return enqueue_lane(w, j, WORKERS_MAX_ANALYSES);
}

/* A job of `kind` without a game, numbered `number`, asked from `addr`;
 * NULL when out of memory. */
static job *numbered_job(job_kind kind, uint64_t number, const char *addr)
{
    job *j = calloc(1, sizeof *j);
    if (j) {
        j->kind = kind;
        j->replay_job = number;
        snprintf(j->addr, sizeof j->addr, "%s", addr);
    }
    return j;
}

int workers_replay(workers *w, uint64_t number, const char *addr, const char *text, int tile)
{
    job *j = numbered_job(JOB_REPLAY, number, addr);
    if (!j)
        return -1;
    j->tile = tile;
    j->record = strdup(text);
    if (!j->record) {
        free(j);
        return -1;
    }
    return enqueue_lane(w, j, WORKERS_MAX_REPLAYS);
}

int workers_call(workers *w, uint64_t number, const char *addr, void (*run)(void *arg),
                 void (*drop)(void *arg), void *arg)
{
    job *j = numbered_job(JOB_CALL, number, addr);
    if (!j)
        return -1;
    j->run = run;
    j->drop = drop;
    j->arg = arg;
    pthread_mutex_lock(&w->lock);
    int full = w->ncall >= WORKERS_MAX_CALLS || push_lane(w, j) != 0;
    if (!full)
        pthread_cond_signal(&w->work);
    pthread_mutex_unlock(&w->lock);
    if (full) {
        j->arg = NULL; /* the caller's still */
        free_job(j);
    }
    return full ? -1 : 0;
}

static int stale_analysis(const job *j, const char *table, int turn)
{
    return j && j->kind == JOB_ANALYSE && j->turn < turn && strcmp(j->table, table) == 0;
}

void workers_cancel_analysis(workers *w, const char *table, int turn)
{
    pthread_mutex_lock(&w->lock);
    for (lane *l = w->lanes_head; l; l = l->next)
        for (job *j = l->head; j; j = j->next)
            if (stale_analysis(j, table, turn))
                j->cancelled = 1;
    for (int i = 0; i < w->nthreads; i++) {
        slot *s = &w->slots[i];
        if (stale_analysis(s->running, table, turn)) {
            s->running->cancelled = 1;
            s->deadline = 0; /* the watchdog stops it at its next tick */
        }
    }
    pthread_mutex_unlock(&w->lock);
}

void workers_queued(workers *w, int *thinks, int *analyses, int *reviews)
{
    pthread_mutex_lock(&w->lock);
    *thinks = w->nthink;
    *analyses = w->nanalyse;
    *reviews = w->nreview;
    for (int i = 0; i < w->nthreads; i++)
        *reviews += w->slots[i].running && w->slots[i].running->kind == JOB_REVIEW;
    pthread_mutex_unlock(&w->lock);
}

int workers_take(workers *w, worker_result *out)
{
    pthread_mutex_lock(&w->lock);
    result_node *n = w->results_head;
    if (n) {
        w->results_head = n->next;
        if (!w->results_head)
            w->results_tail = NULL;
    }
    pthread_mutex_unlock(&w->lock);
    if (!n)
        return 0;
    *out = n->result;
    free(n);
    return 1;
}
