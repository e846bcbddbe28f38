/* relay.c: requests and events between server processes over
 * PostgreSQL's LISTEN/NOTIFY (relay.h).
 *
 * A notification's payload is "KIND FROM CLIENT SEQ PART PARTS ADDR\n"
 * and then a part of the text: KIND is R, M or G; SEQ numbers the items
 * a process sends (PostgreSQL drops a notification equal to another of
 * the same transaction: with SEQ none is); a text is cut into PARTS
 * parts of at most PART_BYTES, between UTF-8 characters, which arrive in
 * order (the notifications of one sender do). */
#include "relay.h"

#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    PART_BYTES = 7000,     /* of the text, within the payload's 8000 bytes */
    MAX_PARTS = 256,       /* a text of at most 1.75 MB */
    OWNER_SLOTS = 1 << 12, /* the owner cache: one table a slot */
    POLL_MS = 200,         /* the listener looks at its stop flag this often */
    CHANNEL_BYTES = 32,
};

/* An item arrived whole, waiting for relay_take(). */
typedef struct arrived {
    relay_item item;
    struct arrived *next;
} arrived;

/* An item of which some parts arrived (the listener's only). */
typedef struct partial {
    relay_item item;
    unsigned seq;
    int parts, got;
    size_t cap;
    struct partial *next;
} partial;

typedef struct owner_slot {
    char table[STORED_ID_BYTES];
    int owner;
} owner_slot;

struct relay {
    PGconn *listener; /* the listening thread's */
    PGconn *sender;   /* the service thread's */
    int self;
    void (*wake)(void *ctx);
    void *ctx;
    pthread_t thread;
    int started;
    pthread_mutex_t lock; /* guards `head`, `tail`, `stop`, `lost` */
    arrived *head, *tail;
    int stop, lost;
    partial *partials;
    char *batch; /* the statement being built: pg_notify() calls */
    size_t batch_len, batch_cap;
    unsigned seq;
    owner_slot owners[OWNER_SLOTS];
};

/* --- Arriving ------------------------------------------------------------------------- */

static void push(relay *r, const relay_item *item)
{
    arrived *a = malloc(sizeof *a);
    if (!a) {
        free(item->text);
        return;
    }
    a->item = *item;
    a->next = NULL;
    pthread_mutex_lock(&r->lock);
    if (r->tail)
        r->tail->next = a;
    else
        r->head = a;
    r->tail = a;
    pthread_mutex_unlock(&r->lock);
}

static partial *find_partial(relay *r, int from, uint64_t client, unsigned seq)
{
    for (partial *p = r->partials; p; p = p->next)
        if (p->item.from == from && p->item.client == client && p->seq == seq)
            return p;
    return NULL;
}

static void drop_partial(relay *r, partial *p)
{
    partial **at = &r->partials;
    while (*at != p)
        at = &(*at)->next;
    *at = p->next;
    free(p->item.text);
    free(p);
}

/* Appends `len` bytes to `p`'s text; -1 when out of memory. */
static int append(partial *p, const char *bytes, size_t len)
{
    if (p->item.len + len + 1 > p->cap) {
        size_t cap = (p->item.len + len + 1) * 2;
        char *bigger = realloc(p->item.text, cap);
        if (!bigger)
            return -1;
        p->item.text = bigger;
        p->cap = cap;
    }
    memcpy(p->item.text + p->item.len, bytes, len);
    p->item.len += len;
    p->item.text[p->item.len] = '\0';
    return 0;
}

/* One notification's payload; anything malformed is dropped. */
static void receive(relay *r, const char *payload)
{
    char kind, addr[STORED_ADDR_BYTES];
    int from, part, parts;
    unsigned long long client;
    unsigned seq;
    const char *text = strchr(payload, '\n');
    if (!text || sscanf(payload, "%c %d %llu %u %d %d %47s", &kind, &from, &client, &seq, &part,
                        &parts, addr) != 7)
        return;
    text++;
    if (!strchr("RMG", kind) || parts < 1 || parts > MAX_PARTS || part < 0 || part >= parts)
        return;
    partial *p = find_partial(r, from, client, seq);
    if (!p) {
        if (part != 0 || !(p = calloc(1, sizeof *p)))
            return;
        p->item.kind = kind == 'R' ? RELAY_REQUEST : kind == 'M' ? RELAY_MESSAGE : RELAY_GONE;
        p->item.from = from;
        p->item.client = (uint64_t)client;
        snprintf(p->item.addr, sizeof p->item.addr, "%s", strcmp(addr, "-") ? addr : "");
        p->seq = seq;
        p->parts = parts;
        p->next = r->partials;
        r->partials = p;
    }
    if (part != p->got || append(p, text, strlen(text)) != 0) {
        drop_partial(r, p); /* a part lost: the item is */
        return;
    }
    if (++p->got < p->parts)
        return;
    if (!p->item.text && append(p, "", 0) != 0) {
        drop_partial(r, p);
        return;
    }
    push(r, &p->item);
    p->item.text = NULL;
    drop_partial(r, p);
}

static int stopping(relay *r)
{
    pthread_mutex_lock(&r->lock);
    int stop = r->stop;
    pthread_mutex_unlock(&r->lock);
    return stop;
}

static void *listen_main(void *arg)
{
    relay *r = arg;
    while (!stopping(r)) {
        struct pollfd pfd = {PQsocket(r->listener), POLLIN, 0};
        if (poll(&pfd, 1, POLL_MS) <= 0)
            continue;
        if (!PQconsumeInput(r->listener)) {
            pthread_mutex_lock(&r->lock);
            r->lost = 1;
            pthread_mutex_unlock(&r->lock);
            r->wake(r->ctx);
            break;
        }
        int any = 0;
        PGnotify *n;
        while ((n = PQnotifies(r->listener))) {
            receive(r, n->extra);
            PQfreemem(n);
            any = 1;
        }
        if (any)
            r->wake(r->ctx);
    }
    return NULL;
}

int relay_take(relay *r, relay_item *out)
{
    pthread_mutex_lock(&r->lock);
    arrived *a = r->head;
    if (a) {
        r->head = a->next;
        if (!r->head)
            r->tail = NULL;
    }
    pthread_mutex_unlock(&r->lock);
    if (!a)
        return 0;
    *out = a->item;
    free(a);
    return 1;
}

int relay_lost(relay *r)
{
    pthread_mutex_lock(&r->lock);
    int lost = r->lost;
    pthread_mutex_unlock(&r->lock);
    return lost || PQstatus(r->sender) != CONNECTION_OK;
}

/* --- Opening ------------------------------------------------------------------------- */

static PGconn *connect_to(const char *uri, char *err, size_t errcap)
{
    static const char *const keys[] = {"connect_timeout", "application_name", "dbname", NULL};
    const char *values[] = {"2", "carcassonne-relay", uri, NULL};
    PGconn *c = PQconnectdbParams(keys, values, 1);
    if (PQstatus(c) != CONNECTION_OK) {
        snprintf(err, errcap, "relay: %s", c ? PQerrorMessage(c) : "out of memory");
        PQfinish(c);
        return NULL;
    }
    return c;
}

relay *relay_new(const char *uri, int self, void (*wake)(void *ctx), void *ctx, char *err,
                 size_t errcap)
{
    relay *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    r->self = self;
    r->wake = wake;
    r->ctx = ctx;
    pthread_mutex_init(&r->lock, NULL);
    if (!(r->listener = connect_to(uri, err, errcap)) ||
        !(r->sender = connect_to(uri, err, errcap))) {
        relay_free(r);
        return NULL;
    }
    char sql[64];
    snprintf(sql, sizeof sql, "LISTEN carc_%d", self);
    PGresult *res = PQexec(r->listener, sql);
    int ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    PQclear(res);
    if (!ok || pthread_create(&r->thread, NULL, listen_main, r) != 0) {
        snprintf(err, errcap, "relay: cannot listen: %s", PQerrorMessage(r->listener));
        relay_free(r);
        return NULL;
    }
    r->started = 1;
    return r;
}

void relay_free(relay *r)
{
    if (!r)
        return;
    if (r->started) {
        pthread_mutex_lock(&r->lock);
        r->stop = 1;
        pthread_mutex_unlock(&r->lock);
        pthread_join(r->thread, NULL);
    }
    PQfinish(r->listener);
    PQfinish(r->sender);
    for (arrived *a = r->head, *next; a; a = next) {
        next = a->next;
        free(a->item.text);
        free(a);
    }
    while (r->partials)
        drop_partial(r, r->partials);
    free(r->batch);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

/* --- Sending ------------------------------------------------------------------------- */

static int batch_add(relay *r, const char *text)
{
    size_t len = strlen(text);
    if (r->batch_len + len + 1 > r->batch_cap) {
        size_t cap = (r->batch_len + len + 1) * 2;
        char *bigger = realloc(r->batch, cap);
        if (!bigger)
            return -1;
        r->batch = bigger;
        r->batch_cap = cap;
    }
    memcpy(r->batch + r->batch_len, text, len + 1);
    r->batch_len += len;
    return 0;
}

/* Where a part that starts at `at` ends: PART_BYTES on, moved back to a
 * character's first byte. */
static size_t part_end(const char *text, size_t len, size_t at)
{
    size_t end = at + PART_BYTES;
    if (end >= len)
        return len;
    while (end > at + 1 && ((unsigned char)text[end] & 0xC0) == 0x80)
        end--;
    return end;
}

void relay_send(relay *r, int to, relay_kind kind, uint64_t client, const char *addr,
                const char *text, size_t len)
{
    static const char kinds[] = "RMG";
    int parts = 0;
    for (size_t at = 0; at < len || parts == 0; at = part_end(text, len, at))
        parts++;
    if (parts > MAX_PARTS)
        return;
    unsigned seq = ++r->seq;
    size_t at = 0;
    for (int part = 0; part < parts; part++) {
        size_t end = part_end(text, len, at);
        char *payload = malloc(end - at + 128);
        if (!payload)
            return;
        int head =
            snprintf(payload, 128, "%c %d %llu %u %d %d %s\n", kinds[kind], r->self,
                     (unsigned long long)client, seq, part, parts, addr && *addr ? addr : "-");
        memcpy(payload + head, text + at, end - at);
        char *literal = PQescapeLiteral(r->sender, payload, (size_t)head + end - at);
        free(payload);
        if (!literal)
            return;
        char call[CHANNEL_BYTES + 32];
        snprintf(call, sizeof call, "SELECT pg_notify('carc_%d', ", to);
        batch_add(r, call);
        batch_add(r, literal);
        batch_add(r, ");");
        PQfreemem(literal);
        at = end;
    }
}

int relay_flush(relay *r)
{
    if (r->batch_len == 0)
        return 0;
    /* Several statements in one query: one transaction, its
     * notifications delivered in order when it ends. */
    PGresult *res = PQexec(r->sender, r->batch);
    int ok = PQresultStatus(res) == PGRES_TUPLES_OK;
    PQclear(res);
    r->batch_len = 0;
    if (r->batch)
        r->batch[0] = '\0';
    return ok ? 0 : -1;
}

/* --- Owners -------------------------------------------------------------------------- */

static unsigned slot_of(const char *table)
{
    uint32_t h = 2166136261u;
    for (; *table; table++)
        h = (h ^ (uint8_t)*table) * 16777619u;
    return h & (OWNER_SLOTS - 1);
}

int relay_owner(const relay *r, const char *table)
{
    const owner_slot *s = &r->owners[slot_of(table)];
    return strcmp(s->table, table) == 0 ? s->owner : 0;
}

void relay_remember(relay *r, const char *table, int owner)
{
    owner_slot *s = &r->owners[slot_of(table)];
    snprintf(s->table, sizeof s->table, "%s", table);
    s->owner = owner;
}

void relay_forget(relay *r, int id)
{
    for (int i = 0; i < OWNER_SLOTS; i++)
        if (r->owners[i].owner == id)
            r->owners[i].table[0] = '\0';
}

int relay_alive(relay *r, int id)
{
    char param[16];
    snprintf(param, sizeof param, "%d", id);
    const char *values[] = {param};
    PGresult *res = PQexecParams(r->sender, "SELECT 1 FROM pg_stat_activity WHERE pid=$1::int", 1,
                                 NULL, values, NULL, NULL, 0);
    int alive = PQresultStatus(res) == PGRES_TUPLES_OK ? PQntuples(res) > 0 : -1;
    PQclear(res);
    return alive;
}
