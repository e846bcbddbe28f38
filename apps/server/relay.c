/* relay.c: requests and events between server processes (relay.h): what
 * every transport shares (relay_backend.h): the framing of items into
 * payloads, the items that arrived, the owner cache, and who is alive.
 *
 * A payload is "KIND FROM CLIENT SEQ PART PARTS ADDR\n" and then a part of
 * the text: KIND is R, M, G or X (relay_kind); SEQ numbers the items a process sends
 * (PostgreSQL drops a notification equal to another of the same
 * transaction: with SEQ none is); a text is cut into PARTS parts of at
 * most the transport's part_bytes, between UTF-8 characters, which arrive
 * in order (the payloads of one sender do, on both transports). */
#include "relay.h"
#include "relay_backend.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_PARTS = 256, /* LISTEN/NOTIFY: a text of at most 1.75 MB */
    /* The owner cache: a table in one of OWNER_PROBES slots from its hash's;
     * room for every table of a big cluster (a miss is a query over
     * pg_locks, a few ms with thousands of tables: it must stay rare). */
    OWNER_SLOTS = 1 << 16,
    OWNER_PROBES = 8,
    HEAD_BYTES = 128, /* a payload's header line, at most */
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
    const relay_transport *transport;
    void *state; /* the transport's */
    PGconn *db;  /* the service thread's: who is alive (and LISTEN/NOTIFY's sender) */
    int self;
    void (*wake)(void *ctx);
    void *ctx;
    pthread_mutex_t lock; /* guards `head`, `tail`, `stop`, `lost`, `gaps` */
    arrived *head, *tail;
    int stop, lost;
    unsigned gaps;
    partial *partials;
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

void relay_received(relay *r, const char *payload)
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
    if (!strchr("RMGX", kind) || parts < 1 || parts > MAX_PARTS || part < 0 || part >= parts)
        return;
    partial *p = find_partial(r, from, client, seq);
    if (!p) {
        if (part != 0 || !(p = calloc(1, sizeof *p)))
            return;
        p->item.kind = kind == 'R'   ? RELAY_REQUEST
                       : kind == 'M' ? RELAY_MESSAGE
                       : kind == 'G' ? RELAY_GONE
                                     : RELAY_RESET;
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

int relay_stopping(relay *r)
{
    pthread_mutex_lock(&r->lock);
    int stop = r->stop;
    pthread_mutex_unlock(&r->lock);
    return stop;
}

void relay_wake(relay *r)
{
    r->wake(r->ctx);
}

void relay_mark_lost(relay *r)
{
    pthread_mutex_lock(&r->lock);
    r->lost = 1;
    pthread_mutex_unlock(&r->lock);
    r->wake(r->ctx);
}

void relay_mark_gap(relay *r)
{
    pthread_mutex_lock(&r->lock);
    r->gaps++;
    pthread_mutex_unlock(&r->lock);
    r->wake(r->ctx);
}

unsigned relay_gaps(relay *r)
{
    pthread_mutex_lock(&r->lock);
    unsigned gaps = r->gaps;
    pthread_mutex_unlock(&r->lock);
    return gaps;
}

int relay_up(relay *r)
{
    return !r->transport->up || r->transport->up(r->state);
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
    return lost || PQstatus(r->db) != CONNECTION_OK || r->transport->lost(r->state);
}

/* --- Opening ------------------------------------------------------------------------- */

int relay_is_redis(const char *uri)
{
    return uri && strncmp(uri, "redis://", 8) == 0;
}

relay *relay_new(const char *db_uri, const char *relay_uri, int self, void (*wake)(void *ctx),
                 void *ctx, char *err, size_t errcap)
{
    relay *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    r->transport = relay_is_redis(relay_uri) ? &relay_redis_transport : &relay_pg_transport;
    r->self = self;
    r->wake = wake;
    r->ctx = ctx;
    pthread_mutex_init(&r->lock, NULL);
    static const char *const keys[] = {"connect_timeout", "application_name", "dbname", NULL};
    const char *values[] = {"2", "carcassonne-relay", db_uri, NULL};
    r->db = PQconnectdbParams(keys, values, 1);
    if (PQstatus(r->db) != CONNECTION_OK) {
        snprintf(err, errcap, "relay: %s", r->db ? PQerrorMessage(r->db) : "out of memory");
        relay_free(r);
        return NULL;
    }
    const char *uri = relay_is_redis(relay_uri) ? relay_uri : db_uri;
    if (!(r->state = r->transport->open(r, uri, r->db, self, err, errcap))) {
        relay_free(r);
        return NULL;
    }
    return r;
}

const char *relay_name(const relay *r)
{
    return r->transport->name;
}

void relay_free(relay *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->lock);
    r->stop = 1;
    pthread_mutex_unlock(&r->lock);
    if (r->state)
        r->transport->close(r->state);
    PQfinish(r->db);
    for (arrived *a = r->head, *next; a; a = next) {
        next = a->next;
        free(a->item.text);
        free(a);
    }
    while (r->partials)
        drop_partial(r, r->partials);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

/* --- Sending ------------------------------------------------------------------------- */

/* Where a part that starts at `at` ends: the transport's part_bytes on,
 * moved back to a character's first byte. */
static size_t part_end(const relay *r, const char *text, size_t len, size_t at)
{
    size_t end = at + r->transport->part_bytes;
    if (end >= len)
        return len;
    while (end > at + 1 && ((unsigned char)text[end] & 0xC0) == 0x80)
        end--;
    return end;
}

void relay_send(relay *r, int to, relay_kind kind, uint64_t client, const char *addr,
                const char *text, size_t len)
{
    static const char kinds[] = "RMGX";
    int parts = 0;
    for (size_t at = 0; at < len || parts == 0; at = part_end(r, text, len, at))
        parts++;
    if (parts > MAX_PARTS)
        return;
    unsigned seq = ++r->seq;
    size_t at = 0;
    for (int part = 0; part < parts; part++) {
        size_t end = part_end(r, text, len, at);
        char *payload = malloc(end - at + HEAD_BYTES);
        if (!payload)
            return;
        int head =
            snprintf(payload, HEAD_BYTES, "%c %d %llu %u %d %d %s\n", kinds[kind], r->self,
                     (unsigned long long)client, seq, part, parts, addr && *addr ? addr : "-");
        memcpy(payload + head, text + at, end - at);
        payload[(size_t)head + end - at] = '\0';
        int queued = r->transport->queue(r->state, to, payload, (size_t)head + end - at);
        free(payload);
        if (queued != 0)
            return;
        at = end;
    }
}

int relay_flush(relay *r)
{
    return r->transport->flush(r->state);
}

/* --- Owners -------------------------------------------------------------------------- */

static unsigned slot_of(const char *table)
{
    uint32_t h = 2166136261u;
    for (; *table; table++)
        h = (h ^ (uint8_t)*table) * 16777619u;
    return h & (OWNER_SLOTS - 1);
}

/* The slot that holds `table`, or NULL. */
static const owner_slot *find_owner(const relay *r, const char *table)
{
    unsigned home = slot_of(table);
    for (unsigned i = 0; i < OWNER_PROBES; i++) {
        const owner_slot *s = &r->owners[(home + i) & (OWNER_SLOTS - 1)];
        if (strcmp(s->table, table) == 0)
            return s;
    }
    return NULL;
}

int relay_owner(const relay *r, const char *table)
{
    const owner_slot *s = table[0] ? find_owner(r, table) : NULL;
    return s ? s->owner : 0;
}

void relay_remember(relay *r, const char *table, int owner)
{
    if (!table[0])
        return;
    unsigned home = slot_of(table);
    owner_slot *s = (owner_slot *)find_owner(r, table);
    for (unsigned i = 0; !s && i < OWNER_PROBES; i++)
        if (!r->owners[(home + i) & (OWNER_SLOTS - 1)].table[0])
            s = &r->owners[(home + i) & (OWNER_SLOTS - 1)];
    if (!s)
        s = &r->owners[home]; /* every probe taken: the first one's table goes */
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
    PGresult *res = PQexecParams(r->db, "SELECT 1 FROM pg_stat_activity WHERE pid=$1::int", 1, NULL,
                                 values, NULL, NULL, 0);
    int alive = PQresultStatus(res) == PGRES_TUPLES_OK ? PQntuples(res) > 0 : -1;
    PQclear(res);
    return alive;
}
