/* ai_worker.c: one search at a time in a POSIX thread. */
#include "ai_worker.h"

#include <string.h>

static void *worker_main(void *arg)
{
    ai_worker *w = arg;
    if (w->task == AI_TASK_CHOOSE) {
        w->status = carc_player_choose(w->player, w->game, &w->move, &w->info);
    } else {
        w->nevals = carc_player_rank(w->player, w->game, w->evals, AI_WORKER_MAX_EVALS, &w->info);
        w->status = CARC_OK;
    }
    atomic_store(&w->done, 1);
    return NULL;
}

int ai_worker_start(ai_worker *w, ai_task task, carc_player *player, const carc_game *g)
{
    if (w->running)
        return -1;
    carc_game *copy = carc_game_clone(g);
    if (!copy)
        return -1;
    w->task = task;
    w->player = player;
    w->game = copy;
    w->nevals = 0;
    w->status = CARC_OK;
    memset(&w->info, 0, sizeof w->info);
    atomic_store(&w->done, 0);
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        carc_game_free(copy);
        w->game = NULL;
        return -1;
    }
    w->running = 1;
    return 0;
}

static void join(ai_worker *w)
{
    pthread_join(w->thread, NULL);
    w->running = 0;
    carc_game_free(w->game);
    w->game = NULL;
}

int ai_worker_poll(ai_worker *w)
{
    if (!w->running)
        return 1;
    if (!atomic_load(&w->done))
        return 0;
    join(w);
    return 1;
}

void ai_worker_cancel(ai_worker *w)
{
    if (!w->running)
        return;
    carc_player_stop(w->player);
    join(w);
    w->nevals = 0;
}

int ai_worker_busy(const ai_worker *w)
{
    return w->running;
}
