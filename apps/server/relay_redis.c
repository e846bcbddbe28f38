/* relay_redis.c: the relay over Redis pub/sub (relay_backend.h), with
 * hiredis. Two connections: one subscribed to this process's channel,
 * read by a thread of its own, and one the service thread publishes
 * with: the payloads of a pass are written as one pipeline of PUBLISH
 * commands and their replies read back in relay_flush(), one round trip.
 * Redis delivers the messages of one connection to a channel in the order
 * they were published; what is not delivered (no subscriber, a lost
 * connection) is gone, as with LISTEN/NOTIFY. */
#include "relay_backend.h"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    POLL_MS = 200,     /* the listener looks at its stop flag this often */
    TIMEOUT_MS = 2000, /* a connection attempt, and a publish, at most */
    DEFAULT_PORT = 6379,
    HOST_BYTES = 256,
};

typedef struct redis_relay {
    relay *r;
    redisContext *sub; /* the listening thread's */
    redisContext *pub; /* the service thread's */
    pthread_t thread;
    int started;
    int pending; /* PUBLISH commands written and not answered */
    int lost;    /* the publishing connection failed */
} redis_relay;

/* "redis://HOST[:PORT][/]": 0, or -1 when it is not that. */
static int parse_uri(const char *uri, char *host, size_t cap, int *port)
{
    const char *at = uri + strlen("redis://");
    size_t len = strcspn(at, ":/");
    if (len == 0 || len >= cap)
        return -1;
    memcpy(host, at, len);
    host[len] = '\0';
    *port = DEFAULT_PORT;
    at += len;
    if (*at == ':') {
        char *end;
        long p = strtol(at + 1, &end, 10);
        if (end == at + 1 || p < 1 || p > 65535)
            return -1;
        *port = (int)p;
        at = end;
    }
    return (*at == '\0' || strcmp(at, "/") == 0) ? 0 : -1;
}

static redisContext *connect_to(const char *uri, char *err, size_t errcap)
{
    char host[HOST_BYTES];
    int port;
    if (parse_uri(uri, host, sizeof host, &port) != 0) {
        snprintf(err, errcap, "relay: '%s' is not redis://HOST[:PORT]", uri);
        return NULL;
    }
    struct timeval tv = {TIMEOUT_MS / 1000, (suseconds_t)(TIMEOUT_MS % 1000) * 1000};
    redisContext *c = redisConnectWithTimeout(host, port, tv);
    if (!c || c->err) {
        snprintf(err, errcap, "relay: redis at %s:%d: %s", host, port,
                 c ? c->errstr : "out of memory");
        redisFree(c);
        return NULL;
    }
    redisSetTimeout(c, tv);
    return c;
}

/* A reply that is a published message: ["message", channel, payload]. */
static const char *message_payload(const redisReply *m)
{
    if (m->type != REDIS_REPLY_ARRAY || m->elements != 3 ||
        m->element[0]->type != REDIS_REPLY_STRING || strcmp(m->element[0]->str, "message") != 0 ||
        m->element[2]->type != REDIS_REPLY_STRING)
        return NULL;
    return m->element[2]->str;
}

/* Hands over every whole reply read so far: 1 when there was one, 0 when
 * none, -1 when the stream is broken. */
static int drain(redis_relay *p)
{
    int any = 0;
    for (;;) {
        void *reply = NULL;
        if (redisGetReplyFromReader(p->sub, &reply) != REDIS_OK)
            return -1;
        if (!reply)
            return any;
        const char *payload = message_payload(reply);
        if (payload) {
            relay_received(p->r, payload);
            any = 1;
        }
        freeReplyObject(reply);
    }
}

static void *listen_main(void *arg)
{
    redis_relay *p = arg;
    while (!relay_stopping(p->r)) {
        int any = drain(p);
        if (any > 0)
            relay_wake(p->r);
        if (any < 0) {
            relay_mark_lost(p->r);
            break;
        }
        struct pollfd pfd = {p->sub->fd, POLLIN, 0};
        int ready = poll(&pfd, 1, POLL_MS);
        if (ready <= 0)
            continue;
        if (redisBufferRead(p->sub) != REDIS_OK) {
            relay_mark_lost(p->r);
            break;
        }
    }
    return NULL;
}

static void redis_close(void *state)
{
    redis_relay *p = state;
    if (p->started)
        pthread_join(p->thread, NULL);
    if (p->sub)
        redisFree(p->sub);
    if (p->pub)
        redisFree(p->pub);
    free(p);
}

static void *redis_open(relay *r, const char *uri, PGconn *db, int self, char *err, size_t errcap)
{
    (void)db;
    redis_relay *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    p->r = r;
    if (!(p->sub = connect_to(uri, err, errcap)) || !(p->pub = connect_to(uri, err, errcap))) {
        redis_close(p);
        return NULL;
    }
    /* Subscribed before it returns: nothing sent to us after is missed. */
    redisReply *ok = redisCommand(p->sub, "SUBSCRIBE carc_%d", self);
    int subscribed = ok && ok->type == REDIS_REPLY_ARRAY;
    if (ok)
        freeReplyObject(ok);
    if (!subscribed) {
        snprintf(err, errcap, "relay: redis: cannot subscribe: %s",
                 p->sub->err ? p->sub->errstr : "refused");
        redis_close(p);
        return NULL;
    }
    /* The listener reads without waiting: poll() says when to. */
    struct timeval none = {0, 0};
    redisSetTimeout(p->sub, none);
    if (pthread_create(&p->thread, NULL, listen_main, p) != 0) {
        snprintf(err, errcap, "relay: cannot start its thread");
        redis_close(p);
        return NULL;
    }
    p->started = 1;
    return p;
}

static int redis_queue(void *state, int to, const char *payload, size_t len)
{
    redis_relay *p = state;
    if (p->lost)
        return -1;
    char channel[32];
    snprintf(channel, sizeof channel, "carc_%d", to);
    if (redisAppendCommand(p->pub, "PUBLISH %s %b", channel, payload, len) != REDIS_OK) {
        p->lost = 1;
        return -1;
    }
    p->pending++;
    return 0;
}

static int redis_flush(void *state)
{
    redis_relay *p = state;
    while (p->pending > 0 && !p->lost) {
        void *reply = NULL;
        if (redisGetReply(p->pub, &reply) != REDIS_OK || !reply) {
            p->lost = 1;
            break;
        }
        if (((redisReply *)reply)->type == REDIS_REPLY_ERROR)
            p->lost = 1; /* Redis refused a PUBLISH: not a relay we can trust */
        freeReplyObject(reply);
        p->pending--;
    }
    p->pending = 0;
    return p->lost ? -1 : 0;
}

static int redis_lost(void *state)
{
    return ((redis_relay *)state)->lost;
}

const relay_transport relay_redis_transport = {
    .name = "redis",
    .part_bytes = 1 << 20, /* a message may be far longer: a part is a whole text today */
    .open = redis_open,
    .close = redis_close,
    .queue = redis_queue,
    .flush = redis_flush,
    .lost = redis_lost,
};
