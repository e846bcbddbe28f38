/* relay_redis.c: the relay over Redis pub/sub (relay_backend.h), with
 * hiredis. Two connections: one subscribed to this process's channel,
 * read by a thread of its own, and one the service thread publishes
 * with: the payloads of a pass are written as one pipeline of PUBLISH
 * commands and their replies read back in relay_flush(), one round trip.
 * Redis delivers the messages of one connection to a channel in the order
 * they were published; what is not delivered (no subscriber, a lost
 * connection) is gone, as with LISTEN/NOTIFY.
 *
 * A lost connection is not the server's end: the listening thread
 * connects again, with a backoff (RETRY_FIRST_MS, doubled up to
 * RETRY_MAX_MS), subscribes again and hands a new publishing connection
 * to the service thread. Meanwhile the relay is down (relay_up()): what is
 * queued is dropped; each loss is a gap (relay_gaps()) after which the
 * server resynchronises the clients that crossed processes. */
#include "relay_backend.h"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    POLL_MS = 200,     /* the listener looks at its stop flag this often */
    TIMEOUT_MS = 2000, /* a connection attempt, and a publish, at most */
    DEFAULT_PORT = 6379,
    HOST_BYTES = 256,
    RETRY_FIRST_MS = 250, /* the first wait before connecting again ... */
    RETRY_MAX_MS = 4000,  /* ... doubled up to this */
};

typedef struct redis_relay {
    relay *r;
    char *uri;
    int self;
    redisContext *sub; /* the listening thread's; NULL while reconnecting */
    redisContext *pub; /* the service thread's */
    pthread_t thread;
    int started;
    int pending; /* PUBLISH commands written and not answered */
    int pub_ok;  /* the service thread's: `pub` works */
    /* Between the two threads, under `lock`: */
    pthread_mutex_t lock;
    int subscribed;      /* the listening connection is subscribed */
    int pub_broken;      /* the service thread's connection failed: the listener makes another */
    redisContext *fresh; /* a new publishing connection for the service thread */
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

/* A connection subscribed to channel carc_SELF, read without waiting
 * (poll() says when to); NULL with a message in `err`. */
static redisContext *subscribe(const redis_relay *p, char *err, size_t errcap)
{
    redisContext *c = connect_to(p->uri, err, errcap);
    if (!c)
        return NULL;
    redisReply *ok = redisCommand(c, "SUBSCRIBE carc_%d", p->self);
    int subscribed = ok && ok->type == REDIS_REPLY_ARRAY;
    if (ok)
        freeReplyObject(ok);
    if (!subscribed) {
        snprintf(err, errcap, "relay: redis: cannot subscribe: %s", c->err ? c->errstr : "refused");
        redisFree(c);
        return NULL;
    }
    struct timeval none = {0, 0};
    redisSetTimeout(c, none);
    return c;
}

/* The listening connection was lost: the relay is down, a gap. */
static void sub_lost(redis_relay *p)
{
    redisFree(p->sub);
    p->sub = NULL;
    pthread_mutex_lock(&p->lock);
    int was_up = p->subscribed && !p->pub_broken;
    p->subscribed = 0;
    pthread_mutex_unlock(&p->lock);
    fprintf(stderr, "carcassonne serve: relay: lost redis: connecting again\n");
    if (was_up)
        relay_mark_gap(p->r);
}

/* Waits `ms`, looking at the stop flag every POLL_MS; 0 when stopping. */
static int pause_ms(redis_relay *p, int ms)
{
    for (int waited = 0; waited < ms; waited += POLL_MS) {
        if (relay_stopping(p->r))
            return 0;
        struct timespec t = {0, (long)POLL_MS * 1000000L};
        nanosleep(&t, NULL);
    }
    return !relay_stopping(p->r);
}

/* Connects what is missing (the listening connection subscribed, a new
 * publishing one when the service thread's broke): 0 when both work. */
static int reconnect(redis_relay *p)
{
    char err[256];
    pthread_mutex_lock(&p->lock);
    int need_pub = p->pub_broken || !p->subscribed;
    pthread_mutex_unlock(&p->lock);
    if (!p->sub && !(p->sub = subscribe(p, err, sizeof err)))
        return -1;
    redisContext *pub = need_pub ? connect_to(p->uri, err, sizeof err) : NULL;
    if (need_pub && !pub)
        return -1;
    pthread_mutex_lock(&p->lock);
    if (pub) {
        if (p->fresh)
            redisFree(p->fresh);
        p->fresh = pub;
        p->pub_broken = 0;
    }
    int was_down = !p->subscribed;
    p->subscribed = 1;
    pthread_mutex_unlock(&p->lock);
    if (was_down)
        fprintf(stderr, "carcassonne serve: relay: redis is back\n");
    relay_wake(p->r);
    return 0;
}

/* Reads the subscribed connection: 0, or -1 when it is lost. */
static int listen_once(redis_relay *p)
{
    int any = drain(p);
    if (any > 0)
        relay_wake(p->r);
    if (any < 0)
        return -1;
    struct pollfd pfd = {p->sub->fd, POLLIN, 0};
    if (poll(&pfd, 1, POLL_MS) > 0 && redisBufferRead(p->sub) != REDIS_OK)
        return -1;
    return 0;
}

static void *listen_main(void *arg)
{
    redis_relay *p = arg;
    int backoff = RETRY_FIRST_MS;
    while (!relay_stopping(p->r)) {
        pthread_mutex_lock(&p->lock);
        int whole = p->subscribed && !p->pub_broken;
        pthread_mutex_unlock(&p->lock);
        if (!whole || !p->sub) {
            if (reconnect(p) == 0)
                backoff = RETRY_FIRST_MS;
            else if (pause_ms(p, backoff))
                backoff = backoff * 2 < RETRY_MAX_MS ? backoff * 2 : RETRY_MAX_MS;
            continue;
        }
        if (listen_once(p) != 0)
            sub_lost(p);
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
    if (p->fresh)
        redisFree(p->fresh);
    pthread_mutex_destroy(&p->lock);
    free(p->uri);
    free(p);
}

static void *redis_open(relay *r, const char *uri, PGconn *db, int self, char *err, size_t errcap)
{
    (void)db;
    redis_relay *p = calloc(1, sizeof *p);
    if (!p || !(p->uri = strdup(uri))) {
        snprintf(err, errcap, "out of memory");
        free(p);
        return NULL;
    }
    p->r = r;
    p->self = self;
    pthread_mutex_init(&p->lock, NULL);
    /* Subscribed before it returns: nothing sent to us after is missed.
     * At the first start Redis must be there (as the database must). */
    if (!(p->sub = subscribe(p, err, errcap)) || !(p->pub = connect_to(uri, err, errcap))) {
        redis_close(p);
        return NULL;
    }
    p->pub_ok = 1;
    p->subscribed = 1;
    if (pthread_create(&p->thread, NULL, listen_main, p) != 0) {
        snprintf(err, errcap, "relay: cannot start its thread");
        redis_close(p);
        return NULL;
    }
    p->started = 1;
    return p;
}

/* The service thread: takes the listener's new publishing connection. */
static void take_fresh(redis_relay *p)
{
    pthread_mutex_lock(&p->lock);
    if (p->fresh) {
        if (p->pub)
            redisFree(p->pub);
        p->pub = p->fresh;
        p->fresh = NULL;
        p->pending = 0;
        p->pub_ok = 1;
    }
    pthread_mutex_unlock(&p->lock);
}

/* The service thread's connection failed: what it carried is lost (a gap,
 * unless the relay was down already), the listener makes another. */
static void pub_lost(redis_relay *p)
{
    p->pub_ok = 0;
    p->pending = 0;
    pthread_mutex_lock(&p->lock);
    int was_up = p->subscribed && !p->pub_broken;
    p->pub_broken = 1;
    pthread_mutex_unlock(&p->lock);
    if (was_up)
        relay_mark_gap(p->r);
}

static int redis_queue(void *state, int to, const char *payload, size_t len)
{
    redis_relay *p = state;
    take_fresh(p);
    if (!p->pub_ok)
        return -1; /* down: dropped */
    char channel[32];
    snprintf(channel, sizeof channel, "carc_%d", to);
    if (redisAppendCommand(p->pub, "PUBLISH %s %b", channel, payload, len) != REDIS_OK) {
        pub_lost(p);
        return -1;
    }
    p->pending++;
    return 0;
}

/* A lost connection is not an error here: the relay connects again. */
static int redis_flush(void *state)
{
    redis_relay *p = state;
    while (p->pending > 0 && p->pub_ok) {
        void *reply = NULL;
        if (redisGetReply(p->pub, &reply) != REDIS_OK || !reply) {
            pub_lost(p);
            break;
        }
        int refused = ((redisReply *)reply)->type == REDIS_REPLY_ERROR;
        freeReplyObject(reply);
        if (refused) { /* Redis refused a PUBLISH: a new connection */
            pub_lost(p);
            break;
        }
        p->pending--;
    }
    p->pending = 0;
    return 0;
}

static int redis_lost(void *state)
{
    (void)state;
    return 0;
}

static int redis_up(void *state)
{
    redis_relay *p = state;
    take_fresh(p);
    pthread_mutex_lock(&p->lock);
    int up = p->subscribed && !p->pub_broken;
    pthread_mutex_unlock(&p->lock);
    return up && p->pub_ok;
}

const relay_transport relay_redis_transport = {
    .name = "redis",
    .part_bytes = 1 << 20, /* a message may be far longer: a part is a whole text today */
    .open = redis_open,
    .close = redis_close,
    .queue = redis_queue,
    .flush = redis_flush,
    .lost = redis_lost,
    .up = redis_up,
};
