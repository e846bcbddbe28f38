/* ai_worker.h: a computer player's search in a thread of its own, so the
 * screen keeps answering while it thinks. The worker searches its own copy
 * of the game; the caller polls for the result. */
#ifndef CARC_TUI_AI_WORKER_H
#define CARC_TUI_AI_WORKER_H

#include <pthread.h>
#include <stdatomic.h>

#include "carcassonne_ai.h"

enum { AI_WORKER_MAX_EVALS = 3 };

typedef enum ai_task {
    AI_TASK_CHOOSE, /* one move for the current player */
    AI_TASK_RANK,   /* the best moves, for a hint */
} ai_task;

typedef struct ai_worker {
    pthread_t thread;
    int running;     /* a thread was started and not joined yet */
    atomic_int done; /* set by the thread when its result is written */
    ai_task task;
    carc_player *player; /* borrowed */
    carc_game *game;     /* the worker's own copy, owned */
    /* Results, valid once done: */
    carc_status status;
    carc_move move;
    carc_move_eval evals[AI_WORKER_MAX_EVALS];
    int nevals;
    carc_search_info info;
} ai_worker;

/* Starts `task` for `player` on a copy of `g`. Returns 0, or -1 when out
 * of memory or a thread could not start. The worker must be idle. */
int ai_worker_start(ai_worker *w, ai_task task, carc_player *player, const carc_game *g);
/* Returns 1 when the task has finished (the thread is then joined and the
 * results valid), 0 while it runs; 1 for an idle worker too. */
int ai_worker_poll(ai_worker *w);
/* Asks the search to stop, waits for the thread and drops the results. */
void ai_worker_cancel(ai_worker *w);
/* Whether a task is running. */
int ai_worker_busy(const ai_worker *w);

#endif
