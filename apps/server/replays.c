/* replays.c: the `replay` answers kept and the replays being computed,
 * with the requests waiting for each. */
#include "replays.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A kept answer. Each entry is found by its record's key, and a finished
 * table's also by the table's id. */
typedef struct kept {
    uint8_t key[TOKEN_HASH_BYTES];
    char table[STORED_ID_BYTES]; /* "" unless a finished table's */
    replay_answer answer;
    int used;      /* 0: a free entry */
    uint64_t when; /* last use (the module's own counter): the oldest goes */
} kept;

/* A request waiting for a replay. */
typedef struct waiter {
    void *client; /* NULL once the client has gone */
    msg_id id;
    struct waiter *next;
} waiter;

/* A replay being computed: its job and the requests waiting for it. */
typedef struct pending {
    uint64_t job;
    uint8_t key[TOKEN_HASH_BYTES];
    char table[STORED_ID_BYTES];
    char addr[STORED_ADDR_BYTES];
    int position;
    msg_error fails;
    int nwaiters;
    waiter *waiters;
    struct pending *next;
} pending;

struct srv_replays {
    kept kept[REPLAYS_KEPT];
    uint64_t clock;
    pending *pending;
    int npending;
    uint64_t last_job;
};

srv_replays *replays_new(void)
{
    return calloc(1, sizeof(srv_replays));
}

static void free_waiters(waiter *w)
{
    while (w) {
        waiter *next = w->next;
        free(w);
        w = next;
    }
}

void replays_free(srv_replays *R)
{
    if (!R)
        return;
    for (int i = 0; i < REPLAYS_KEPT; i++)
        free(R->kept[i].answer.fields);
    for (pending *p = R->pending; p;) {
        pending *next = p->next;
        free_waiters(p->waiters);
        free(p);
        p = next;
    }
    free(R);
}

void replays_key(const char *text, size_t len, uint8_t key[TOKEN_HASH_BYTES])
{
    token_sha256(text, len, key);
}

int replays_position_key(const char *text, size_t len, const char *tile,
                         uint8_t key[TOKEN_HASH_BYTES])
{
    size_t tl = strlen(tile);
    char *buf = malloc(len + tl + 2);
    if (!buf)
        return -1;
    buf[0] = '\0';
    memcpy(buf + 1, tile, tl);
    buf[1 + tl] = '\n';
    memcpy(buf + 2 + tl, text, len);
    token_sha256(buf, len + tl + 2, key);
    free(buf);
    return 0;
}

const replay_answer *replays_find(srv_replays *R, const char *table,
                                  const uint8_t key[TOKEN_HASH_BYTES])
{
    for (int i = 0; i < REPLAYS_KEPT; i++) {
        kept *k = &R->kept[i];
        if (!k->used)
            continue;
        int by_table = table && table[0] && k->table[0] && strcmp(k->table, table) == 0;
        int by_key = key && memcmp(k->key, key, TOKEN_HASH_BYTES) == 0;
        if (by_table || by_key) {
            k->when = ++R->clock;
            return &k->answer;
        }
    }
    return NULL;
}

static pending *find_pending(const srv_replays *R, const uint8_t key[TOKEN_HASH_BYTES])
{
    for (pending *p = R->pending; p; p = p->next)
        if (memcmp(p->key, key, TOKEN_HASH_BYTES) == 0)
            return p;
    return NULL;
}

static int pending_of(const srv_replays *R, const char *addr)
{
    int n = 0;
    for (const pending *p = R->pending; p; p = p->next)
        n += strcmp(p->addr, addr) == 0;
    return n;
}

int replays_wait(srv_replays *R, const uint8_t key[TOKEN_HASH_BYTES], const char *table,
                 const char *addr, int position, msg_error fails, void *client, const msg_id *id,
                 uint64_t *job)
{
    *job = 0;
    pending *p = find_pending(R, key);
    if (!p && (R->npending >= REPLAYS_PENDING || pending_of(R, addr) >= REPLAYS_PENDING_PER_ADDR))
        return -1;
    if (p && p->nwaiters >= REPLAYS_WAITERS)
        return -1;
    waiter *w = calloc(1, sizeof *w);
    if (!w)
        return -1;
    w->client = client;
    w->id = *id;
    if (!p) {
        if (!(p = calloc(1, sizeof *p))) {
            free(w);
            return -1;
        }
        p->job = ++R->last_job;
        memcpy(p->key, key, TOKEN_HASH_BYTES);
        snprintf(p->table, sizeof p->table, "%s", table ? table : "");
        snprintf(p->addr, sizeof p->addr, "%s", addr);
        p->fails = fails;
        p->position = position;
        p->next = R->pending;
        R->pending = p;
        R->npending++;
        *job = p->job;
    }
    w->next = p->waiters;
    p->waiters = w;
    p->nwaiters++;
    return 0;
}

/* Takes job `job` off the pending list; NULL when it is not there. */
static pending *take_pending(srv_replays *R, uint64_t job)
{
    for (pending **at = &R->pending; *at; at = &(*at)->next)
        if ((*at)->job == job) {
            pending *p = *at;
            *at = p->next;
            R->npending--;
            return p;
        }
    return NULL;
}

void replays_cancel(srv_replays *R, uint64_t job)
{
    pending *p = take_pending(R, job);
    if (p) {
        free_waiters(p->waiters);
        free(p);
    }
}

/* The entry to keep a new answer in: a free one, or the least recently
 * used (its answer freed). */
static kept *kept_slot(srv_replays *R)
{
    kept *k = &R->kept[0];
    for (int i = 0; i < REPLAYS_KEPT && k->used; i++)
        if (!R->kept[i].used || R->kept[i].when < k->when)
            k = &R->kept[i];
    free(k->answer.fields);
    memset(k, 0, sizeof *k);
    return k;
}

int replays_done(srv_replays *R, uint64_t job, char *fields, const char *error,
                 replay_waiter_fn each, void *ctx)
{
    pending *p = take_pending(R, job);
    if (!p) {
        free(fields);
        return -1;
    }
    kept *k = kept_slot(R);
    memcpy(k->key, p->key, TOKEN_HASH_BYTES);
    snprintf(k->table, sizeof k->table, "%s", p->table);
    k->answer.fields = fields;
    k->answer.position = p->position;
    k->answer.code = fields ? ERR_NONE : p->fails;
    snprintf(k->answer.error, sizeof k->answer.error, "%s",
             fields ? "" : (error && error[0] ? error : "the record does not replay"));
    k->used = 1;
    k->when = ++R->clock;
    /* The waiters were added at the front: answer them in the order they asked. */
    waiter *reversed = NULL;
    while (p->waiters) {
        waiter *w = p->waiters;
        p->waiters = w->next;
        w->next = reversed;
        reversed = w;
    }
    int answered = 0;
    for (waiter *w = reversed; w; w = w->next)
        if (w->client) {
            each(ctx, w->client, &w->id, &k->answer);
            answered++;
        }
    free_waiters(reversed);
    free(p);
    return answered;
}

void replays_client_gone(srv_replays *R, const void *client)
{
    for (pending *p = R->pending; p; p = p->next)
        for (waiter *w = p->waiters; w; w = w->next)
            if (w->client == client)
                w->client = NULL;
}
