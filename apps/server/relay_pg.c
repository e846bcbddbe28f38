/* relay_pg.c: the relay over PostgreSQL's LISTEN/NOTIFY (relay_backend.h).
 * A listening connection and thread of its own; the payloads of a pass go
 * as pg_notify() calls in one query on the relay's service connection,
 * one transaction, delivered in order when it ends. */
#include "relay_backend.h"

#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    POLL_MS = 200,   /* the listener looks at its stop flag this often */
    CALL_BYTES = 64, /* "SELECT pg_notify('carc_ID', " */
};

typedef struct pg_relay {
    relay *r;
    PGconn *listener; /* the listening thread's */
    PGconn *sender;   /* the relay's service connection (not ours to close) */
    pthread_t thread;
    int started;
    char *batch; /* the query being built: pg_notify() calls */
    size_t batch_len, batch_cap;
} pg_relay;

static void *listen_main(void *arg)
{
    pg_relay *p = arg;
    while (!relay_stopping(p->r)) {
        struct pollfd pfd = {PQsocket(p->listener), POLLIN, 0};
        if (poll(&pfd, 1, POLL_MS) <= 0)
            continue;
        if (!PQconsumeInput(p->listener)) {
            relay_mark_lost(p->r);
            break;
        }
        int any = 0;
        PGnotify *n;
        while ((n = PQnotifies(p->listener))) {
            relay_received(p->r, n->extra);
            PQfreemem(n);
            any = 1;
        }
        if (any)
            relay_wake(p->r);
    }
    return NULL;
}

static void pg_close(void *state)
{
    pg_relay *p = state;
    if (p->started)
        pthread_join(p->thread, NULL);
    PQfinish(p->listener);
    free(p->batch);
    free(p);
}

static void *pg_open(relay *r, const char *uri, PGconn *db, int self, char *err, size_t errcap)
{
    pg_relay *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    p->r = r;
    p->sender = db;
    static const char *const keys[] = {"connect_timeout", "application_name", "dbname", NULL};
    const char *values[] = {"2", "carcassonne-relay", uri, NULL};
    p->listener = PQconnectdbParams(keys, values, 1);
    if (PQstatus(p->listener) != CONNECTION_OK) {
        snprintf(err, errcap, "relay: %s",
                 p->listener ? PQerrorMessage(p->listener) : "out of memory");
        pg_close(p);
        return NULL;
    }
    char sql[64];
    snprintf(sql, sizeof sql, "LISTEN carc_%d", self);
    PGresult *res = PQexec(p->listener, sql);
    int ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    PQclear(res);
    if (!ok || pthread_create(&p->thread, NULL, listen_main, p) != 0) {
        snprintf(err, errcap, "relay: cannot listen: %s", PQerrorMessage(p->listener));
        pg_close(p);
        return NULL;
    }
    p->started = 1;
    return p;
}

static int batch_add(pg_relay *p, const char *text)
{
    size_t len = strlen(text);
    if (p->batch_len + len + 1 > p->batch_cap) {
        size_t cap = (p->batch_len + len + 1) * 2;
        char *bigger = realloc(p->batch, cap);
        if (!bigger)
            return -1;
        p->batch = bigger;
        p->batch_cap = cap;
    }
    memcpy(p->batch + p->batch_len, text, len + 1);
    p->batch_len += len;
    return 0;
}

static int pg_queue(void *state, int to, const char *payload, size_t len)
{
    pg_relay *p = state;
    char *literal = PQescapeLiteral(p->sender, payload, len);
    if (!literal)
        return -1;
    char call[CALL_BYTES];
    snprintf(call, sizeof call, "SELECT pg_notify('carc_%d', ", to);
    size_t before = p->batch_len;
    int ok = batch_add(p, call) == 0 && batch_add(p, literal) == 0 && batch_add(p, ");") == 0;
    PQfreemem(literal);
    if (!ok && p->batch) {
        p->batch_len = before; /* no half call */
        p->batch[before] = '\0';
    }
    return ok ? 0 : -1;
}

static int pg_flush(void *state)
{
    pg_relay *p = state;
    if (p->batch_len == 0)
        return 0;
    /* Several statements in one query: one transaction, its
     * notifications delivered in order when it ends. */
    PGresult *res = PQexec(p->sender, p->batch);
    int ok = PQresultStatus(res) == PGRES_TUPLES_OK;
    PQclear(res);
    p->batch_len = 0;
    p->batch[0] = '\0';
    return ok ? 0 : -1;
}

/* The listener's loss is the thread's to tell (relay_mark_lost()); the
 * sender is relay.c's connection, which it looks at itself. */
static int pg_lost(void *state)
{
    (void)state;
    return 0;
}

const relay_transport relay_pg_transport = {
    .name = "postgresql",
    .part_bytes = 7000, /* within a notification's 8000 bytes */
    .open = pg_open,
    .close = pg_close,
    .queue = pg_queue,
    .flush = pg_flush,
    .lost = pg_lost,
};
