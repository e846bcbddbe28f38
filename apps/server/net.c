/* net.c: the libwebsockets context, its one service thread, connections
 * with bounded buffers, and the loop that commits each pass before it
 * tells anyone. */
#include "net.h"

#include <ev.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalogue.h"
#include "counts.h"
#include "frame_check.h"
#include "http_api.h"
#include "puzzle_set.h"
#include "http_headers.h"
#include "listener.h"
#include "message.h"
#include "relay.h"
#include "static_files.h"
#include "tables.h"
#include "workers.h"

_Static_assert(LWS_PRE <= SRV_HEADROOM, "srv_msg needs room for the frame header");

enum {
    QUEUE_MAX_MESSAGES = 1024, /* a connection's output queue, at most */
    QUEUE_MAX_BYTES = 1 << 20, /* ... and its bytes */
    TICK_MS = 100,             /* clocks and housekeeping */
    DB_RETRY_MS = 500,         /* between two attempts to reach PostgreSQL at start */
    STALL_MS = 500,            /* a loop quiet longer than TICK_MS + this was stalled */
    IDLE_SWEEP_MAX_MS = 5000,  /* quiet connections are looked for this often at least */
    /* Several servers on one PostgreSQL (relay.h): */
    CONN_OWNERS = 8,       /* other processes one connection's requests may go to */
    MAX_PEERS = 64,        /* other processes this one talks to */
    CLIENT_BUCKETS = 4096, /* connections and relayed clients by id */
    PEER_CHECK_TICKS = 10, /* whether the peers live, looked at every second */
};

/* The payload of the server's pings. libwebsockets 4.1 calls
 * LWS_CALLBACK_RECEIVE_PONG only for a pong that carries a payload, and a
 * pong echoes the ping's: an empty ping would never be seen answered. */
static const char ping_payload[] = "carcassonne";

/* A WebSocket connection. `client` comes first: the tables know only it. */
typedef struct conn {
    srv_client client;
    struct lws *wsi;
    char *rx; /* a message arriving in pieces, MSG_MAX_BYTES + 1 */
    size_t rx_len;
    int rx_oversize, too_big_strikes;
    srv_msg **queue; /* a ring of messages to send */
    size_t qhead, qlen, qcap, qbytes;
    int64_t bucket_ms; /* rate limit: a bucket of MSG_PER_SECOND tokens, */
    double tokens;     /* refilled at MSG_PER_SECOND a second */
    int64_t rx_ms;     /* when it last sent something (a pong included) */
    int64_t pinged_ms; /* when it was last pinged */
    int ping_due;
    struct conn *prev, *next; /* every connection, for the idle sweep */
    int fd;                   /* its socket when its frames are checked (frame_check), or -1 */
    int dropped;              /* its queue overflowed: closing */
    int close_soon;           /* close (1008) once the queue is sent */
    struct conn *id_next;     /* the connections by id */
    int owners[CONN_OWNERS];  /* the processes its requests were relayed to */
    int nowners;
} conn;

/* A client of another server process, whose requests for this process's
 * tables come by the relay: `client` first, as in a conn. */
typedef struct remote {
    srv_client client;
    uint64_t their_id; /* its id at its own process (client.from) */
    struct remote *next;
} remote;

/* What libwebsockets keeps per connection (HTTP or WebSocket). */
typedef struct session {
    conn *c;
    unsigned char *body; /* an HTTP reply: LWS_PRE bytes, then body_len */
    size_t body_len;
    api_req *api;     /* a request to the accounts' routes (http_api.h) */
    api_identity who; /* a WebSocket upgrade: the account of its cookie */
} session;

typedef struct server {
    const server_options *opt;
    struct lws_context *ctx;
    struct ev_loop *loop; /* libev (epoll) */
    listener *listener;   /* the listening socket, which hands connections to lws */
    storage *store;
    srv_tables *tables;
    workers *pool;
    http_api *api;       /* the accounts' and the puzzles' routes */
    puzzle_set *puzzles; /* the puzzles they serve, or NULL */
    static_files *files; /* the client's files and the tile catalogue, from memory */
    webhooks *webhooks;
    uint64_t next_id;
    msg_request request; /* the one being handled */
    addr_counts conns_per_addr;
    conn *conns;
    int ticks;
    int64_t awake_ms; /* monotonic: when the loop last ran a callback */
    lws_sorted_usec_list_t tick;
    /* Several servers on one PostgreSQL; all NULL or 0 with SQLite. */
    relay *relay;
    int self;                        /* this process's id */
    conn *by_id[CLIENT_BUCKETS];     /* the connections by id */
    remote *remotes[CLIENT_BUCKETS]; /* the relayed clients by their id */
    int peers[MAX_PEERS], npeers;    /* the processes talked to */
    unsigned relay_gaps;             /* relay_gaps() as last seen */
    int resets[MAX_PEERS], nresets;  /* peers to tell of a gap once the relay is up */
} server;

static volatile sig_atomic_t stop_requested;

static int64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- Output ---------------------------------------------------------------------------- */

/* Queues `m` on `c`; a connection whose queue is full is dropped. */
static void conn_queue(conn *c, srv_msg *m)
{
    if (c->dropped)
        return;
    if (c->qlen == QUEUE_MAX_MESSAGES || c->qbytes + m->len > QUEUE_MAX_BYTES) {
        c->dropped = 1;
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
        return;
    }
    if (c->qlen == c->qcap) {
        size_t cap = c->qcap ? 2 * c->qcap : 8;
        srv_msg **ring = malloc(cap * sizeof(srv_msg *));
        if (!ring) {
            c->dropped = 1;
            lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
            return;
        }
        for (size_t i = 0; i < c->qlen; i++)
            ring[i] = c->queue[(c->qhead + i) % c->qcap];
        free(c->queue);
        c->queue = ring;
        c->qcap = cap;
        c->qhead = 0;
    }
    c->queue[(c->qhead + c->qlen) % c->qcap] = srv_msg_ref(m);
    c->qlen++;
    c->qbytes += m->len;
    lws_callback_on_writable(c->wsi);
}

static void deliver(void *ctx, srv_client *client, srv_msg *m)
{
    server *S = ctx;
    if (client->from) {
        const remote *rc = (const remote *)client;
        relay_send(S->relay, client->from, RELAY_MESSAGE, rc->their_id, NULL, m->text, m->len);
        return;
    }
    conn_queue((conn *)client, m);
}

static int conn_write(conn *c)
{
    if (c->dropped)
        return -1;
    if (c->ping_due) {
        unsigned char ping[LWS_PRE + sizeof ping_payload];
        c->ping_due = 0;
        memcpy(ping + LWS_PRE, ping_payload, sizeof ping_payload - 1);
        if (lws_write(c->wsi, ping + LWS_PRE, sizeof ping_payload - 1, LWS_WRITE_PING) < 0)
            return -1;
        if (c->qlen > 0 || c->close_soon)
            lws_callback_on_writable(c->wsi);
        return 0;
    }
    if (c->qlen == 0) {
        if (c->close_soon) {
            static const char why[] = "limit exceeded";
            lws_close_reason(c->wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, (unsigned char *)why,
                             sizeof why - 1);
            return -1;
        }
        return 0;
    }
    srv_msg *m = c->queue[c->qhead];
    c->qhead = (c->qhead + 1) % c->qcap;
    c->qlen--;
    c->qbytes -= m->len;
    int n = lws_write(c->wsi, (unsigned char *)m->text, m->len, LWS_WRITE_TEXT);
    int ok = n >= 0 && (size_t)n >= m->len;
    srv_msg_unref(m);
    if (!ok)
        return -1;
    if (c->qlen > 0 || c->close_soon)
        lws_callback_on_writable(c->wsi);
    return 0;
}

/* Sends an error and closes the connection after it. */
static void conn_refuse(server *S, conn *c, msg_error code, const char *message)
{
    tables_error(S->tables, &c->client, NULL, code, message);
    c->close_soon = 1;
}

/* --- Input ----------------------------------------------------------------------------- */

/* The client's address: the one its connection's PROXY header carried,
 * else its peer's. */
static void client_addr(server *S, struct lws *wsi, char *out, size_t cap)
{
    const char *addr = S->listener ? listener_addr(S->listener, lws_get_socket_fd(wsi)) : NULL;
    if (addr)
        snprintf(out, cap, "%s", addr);
    else
        lws_get_peer_simple(wsi, out, cap);
}

static void conn_open(server *S, session *s, struct lws *wsi)
{
    conn *c = calloc(1, sizeof *c);
    s->c = c;
    if (!c)
        return;
    c->wsi = wsi;
    c->fd = -1;
    if (frame_check_watch(lws_get_socket_fd(wsi), lws_is_ssl(wsi)) == 0)
        c->fd = lws_get_socket_fd(wsi);
    c->client.id = ++S->next_id;
    c->id_next = S->by_id[c->client.id % CLIENT_BUCKETS];
    S->by_id[c->client.id % CLIENT_BUCKETS] = c;
    c->rx_ms = wall_ms();
    c->next = S->conns;
    if (S->conns)
        S->conns->prev = c;
    S->conns = c;
    client_addr(S, wsi, c->client.addr, sizeof c->client.addr);
    c->client.account = s->who.account;
    memcpy(c->client.account_name, s->who.name, sizeof c->client.account_name);
    memcpy(c->client.session_hash, s->who.session_hash, sizeof c->client.session_hash);
    int n = counts_add(&S->conns_per_addr, c->client.addr, 1);
    if (n < 0 || n > S->opt->max_conns_per_ip)
        conn_refuse(S, c, ERR_TOO_MANY, "too many connections from your address");
}

static void conn_close(server *S, session *s)
{
    conn *c = s->c;
    if (!c)
        return;
    tables_client_gone(S->tables, &c->client);
    for (int i = 0; i < c->nowners; i++)
        relay_send(S->relay, c->owners[i], RELAY_GONE, c->client.id, NULL, "", 0);
    conn **slot = &S->by_id[c->client.id % CLIENT_BUCKETS];
    while (*slot != c)
        slot = &(*slot)->id_next;
    *slot = c->id_next;
    counts_add(&S->conns_per_addr, c->client.addr, -1);
    if (c->fd >= 0)
        frame_check_forget(c->fd);
    if (c->prev)
        c->prev->next = c->next;
    else
        S->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    for (size_t i = 0; i < c->qlen; i++)
        srv_msg_unref(c->queue[(c->qhead + i) % c->qcap]);
    free(c->queue);
    free(c->rx);
    free(c);
    s->c = NULL;
}

static void peer_add(server *S, int id)
{
    for (int i = 0; i < S->npeers; i++)
        if (S->peers[i] == id)
            return;
    if (S->npeers < MAX_PEERS)
        S->peers[S->npeers++] = id;
}

/* A request's text begins with ACCOUNT_MARK when the process that relays
 * it says whose account it is for: the mark, "ID NAME\n", then the
 * request. No client's text begins so (a request is a JSON object). */
#define ACCOUNT_MARK '\x01'

/* Relays request `data` of `c` to process `to`, with its account. */
static void relay_request(server *S, int to, const conn *c, const char *data, size_t len)
{
    if (!c->client.account) {
        relay_send(S->relay, to, RELAY_REQUEST, c->client.id, c->client.addr, data, len);
        return;
    }
    char head[64];
    int n = snprintf(head, sizeof head, "%c%lld %s\n", ACCOUNT_MARK, (long long)c->client.account,
                     c->client.account_name);
    char *text = malloc((size_t)n + len);
    if (!text)
        return;
    memcpy(text, head, (size_t)n);
    memcpy(text + n, data, len);
    relay_send(S->relay, to, RELAY_REQUEST, c->client.id, c->client.addr, text, (size_t)n + len);
    free(text);
}

/* Sends request `r` of `c` (its text `data`) to the process that runs its
 * table, when another one does: 1 when sent. */
static int forward(server *S, conn *c, const msg_request *r, const char *data, size_t len)
{
    if (!S->relay || !r->table[0] || tables_loaded(S->tables, r->table))
        return 0;
    if (!relay_up(S->relay) && !tables_has(S->tables, r->table)) {
        /* Redis is being connected again: the table's process cannot be
         * reached; the client tries again. */
        tables_error(S->tables, &c->client, &r->id, ERR_INTERNAL,
                     "the server that runs this table cannot be reached now: try again");
        return 1;
    }
    /* The owner as last seen (forgotten when it dies) costs nothing; else
     * the table is read here (finished, or taken over), or its owner
     * looked up. */
    int owner = relay_owner(S->relay, r->table);
    if (owner <= 0 || owner == S->self) {
        if (tables_has(S->tables, r->table))
            return 0;
        if ((owner = storage_owner(S->store, r->table)) > 0)
            relay_remember(S->relay, r->table, owner);
    }
    if (owner <= 0 || owner == S->self)
        return 0;
    int known = 0;
    for (int i = 0; i < c->nowners; i++)
        known |= c->owners[i] == owner;
    if (!known) {
        if (c->nowners == CONN_OWNERS)
            return 0; /* answered here: no_table */
        c->owners[c->nowners++] = owner;
    }
    peer_add(S, owner);
    relay_request(S, owner, c, data, len);
    return 1;
}

/* One whole message from `c`. */
static void conn_message(server *S, conn *c, const char *data, size_t len, int binary)
{
    int64_t now = wall_ms();
    c->tokens += (double)(now - c->bucket_ms) * MSG_PER_SECOND / 1000.0;
    if (c->tokens > MSG_PER_SECOND)
        c->tokens = MSG_PER_SECOND;
    c->bucket_ms = now;
    int limited = c->tokens < 1.0;
    if (!limited)
        c->tokens -= 1.0;
    msg_problem problem;
    msg_request *r = &S->request;
    msg_error e = binary ? ERR_BAD_JSON : msg_decode(data, len, r, &problem);
    if (binary)
        snprintf(problem.message, sizeof problem.message, "messages are text frames of JSON");
    if (limited) {
        char why[64];
        snprintf(why, sizeof why, "more than %d messages a second", MSG_PER_SECOND);
        tables_error(S->tables, &c->client, e == ERR_BAD_JSON ? NULL : &r->id, ERR_RATE_LIMITED,
                     why);
    } else if (e != ERR_NONE)
        tables_error(S->tables, &c->client, e == ERR_BAD_JSON ? NULL : &r->id, e, problem.message);
    else {
        /* Acting for an account: its session still lives (not logged out
         * or deleted on any process since the upgrade). */
        if (c->client.account && (r->type == MSG_CREATE || r->type == MSG_JOIN ||
                                  r->type == MSG_RESUME || r->type == MSG_MINE))
            http_api_recheck(S->api, &c->client);
        if (!forward(S, c, r, data, len))
            tables_request(S->tables, &c->client, r);
    }
    if (tables_client_abusive(&c->client))
        c->close_soon = 1;
}

/* A piece of a message; returns -1 to close the connection. */
static int conn_receive(server *S, conn *c, struct lws *wsi, const char *in, size_t len)
{
    c->rx_ms = wall_ms();
    if (c->close_soon || c->dropped)
        return 0;
    int first = lws_is_first_fragment(wsi), last = lws_is_final_fragment(wsi);
    int whole = last && lws_remaining_packet_payload(wsi) == 0;
    if (first) {
        c->rx_len = 0;
        c->rx_oversize = 0;
    }
    if (first && whole && len <= MSG_MAX_BYTES) {
        conn_message(S, c, in, len, lws_frame_is_binary(wsi));
        return 0;
    }
    if (!c->rx_oversize && c->rx_len + len > MSG_MAX_BYTES) {
        c->rx_oversize = 1;
        free(c->rx);
        c->rx = NULL;
    }
    if (!c->rx_oversize) {
        if (!c->rx && !(c->rx = malloc(MSG_MAX_BYTES + 1)))
            return -1;
        memcpy(c->rx + c->rx_len, in, len);
        c->rx_len += len;
    }
    if (!whole)
        return 0;
    if (c->rx_oversize) {
        if (++c->too_big_strikes > 1) {
            static const char why[] = "messages too big";
            lws_close_reason(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, (unsigned char *)why,
                             sizeof why - 1);
            return -1;
        }
        char why[64];
        snprintf(why, sizeof why, "a message is at most %d bytes", MSG_MAX_BYTES);
        tables_error(S->tables, &c->client, NULL, ERR_TOO_BIG, why);
    } else {
        conn_message(S, c, c->rx, c->rx_len, lws_frame_is_binary(wsi));
    }
    free(c->rx);
    c->rx = NULL;
    c->rx_len = 0;
    return 0;
}

/* --- HTTP ------------------------------------------------------------------------------ */

/* The counters of GET /api/stats as JSON text (malloc'ed), or NULL. */
static char *stats_json(server *S)
{
    const srv_stats *st = tables_stats(S->tables);
    int conns = 0;
    for (const conn *c = S->conns; c; c = c->next)
        conns++;
    json_t *j =
        json_pack("{s:i, s:i, s:I, s:I, s:I}", "tables_live", tables_live(S->tables), "connections",
                  conns, "replays_computed", (json_int_t)st->replays_computed, "replays_cached",
                  (json_int_t)st->replays_cached, "reviews_asked", (json_int_t)st->reviews_asked);
    char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    return text;
}

/* GET /api/tables/ID/record: the record as text; GET /api/tiles: the tile
 * catalogue as JSON; GET /api/stats: the server's counters as JSON. */
static int add_header(struct lws *wsi, const char *name, const char *value, unsigned char **at,
                      unsigned char *end)
{
    return lws_add_http_header_by_name(wsi, (const unsigned char *)name,
                                       (const unsigned char *)value, (int)strlen(value), at, end);
}

/* Header `token` of the request into `out` ("" when it has none). */
static const char *header(struct lws *wsi, enum lws_token_indexes token, char *out, int cap)
{
    if (lws_hdr_copy(wsi, out, cap, token) < 0)
        out[0] = '\0';
    return out;
}

/* Answers a GET of file `f`: 304 when the browser holds it already (its
 * entity tag), else the file, gzip-compressed when the browser accepts
 * it; browsers revalidate each time (no-cache), which costs a 304. */
static int serve_file(session *s, struct lws *wsi, const static_file *f)
{
    char tag[256], accept[256];
    int unchanged =
        http_etag_matches(header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH, tag, sizeof tag), f->etag);
    int gz = f->gz &&
             http_accepts_gzip(header(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING, accept, sizeof accept));
    const unsigned char *data = gz ? f->gz : f->data;
    size_t len = unchanged ? 0 : gz ? f->gz_len : f->len;
    unsigned char head[LWS_PRE + 768], *start = head + LWS_PRE, *at = start,
                                       *end = head + sizeof head - 1;
    if (lws_add_http_common_headers(wsi, unchanged ? HTTP_STATUS_NOT_MODIFIED : HTTP_STATUS_OK,
                                    f->type, (lws_filepos_t)len, &at, end) ||
        add_header(wsi, "etag:", f->etag, &at, end) ||
        add_header(wsi, "cache-control:", "no-cache", &at, end) ||
        (f->gz && add_header(wsi, "vary:", "accept-encoding", &at, end)) ||
        (gz && !unchanged && add_header(wsi, "content-encoding:", "gzip", &at, end)) ||
        lws_finalize_write_http_header(wsi, start, &at, end))
        return -1;
    if (unchanged)
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    s->body = malloc(LWS_PRE + len);
    if (!s->body)
        return -1;
    memcpy(s->body + LWS_PRE, data, len);
    s->body_len = len;
    lws_callback_on_writable(wsi);
    return 0;
}

static int http_request(server *S, session *s, struct lws *wsi, const char *path)
{
    if (S->api && http_api_route(wsi)) {
        char addr[STORED_ADDR_BYTES];
        client_addr(S, wsi, addr, sizeof addr);
        return http_api_begin(S->api, wsi, &s->api, addr);
    }
    char uri[512];
    const static_file *f = lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) > 0 && !s->body
                               ? static_files_find(S->files, uri)
                               : NULL;
    if (f)
        return serve_file(s, wsi, f);
    char id[STORED_ID_BYTES + 1] = "";
    const char *p = strstr(path, "tables/");
    const char *rest = p ? p + 7 : NULL;
    const char *slash = rest ? strchr(rest, '/') : NULL;
    int finished = 0, stats = strcmp(path, "/api/stats") == 0;
    char *text = stats ? stats_json(S) : NULL;
    if (!stats && slash && strcmp(slash, "/record") == 0 && (size_t)(slash - rest) < sizeof id) {
        memcpy(id, rest, (size_t)(slash - rest));
        id[slash - rest] = '\0';
        text = tables_record(S->tables, id, &finished);
    }
    if (!text) {
        lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, "no such table");
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    }
    size_t len = strlen(text);
    s->body = malloc(LWS_PRE + len);
    if (!s->body) {
        free(text);
        return -1;
    }
    memcpy(s->body + LWS_PRE, text, len);
    s->body_len = len;
    free(text);
    unsigned char head[LWS_PRE + 512], *start = head + LWS_PRE, *at = start,
                                       *end = head + sizeof head - 1;
    if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK,
                                    stats ? "application/json" : "text/plain; charset=utf-8",
                                    (lws_filepos_t)len, &at, end) ||
        lws_finalize_write_http_header(wsi, start, &at, end))
        return -1;
    lws_callback_on_writable(wsi);
    return 0;
}

static int http_write(session *s, struct lws *wsi)
{
    if (!s->body)
        return 0;
    int n = lws_write(wsi, s->body + LWS_PRE, s->body_len, LWS_WRITE_HTTP_FINAL);
    free(s->body);
    s->body = NULL;
    if (n < 0)
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* --- The callback ------------------------------------------------------------------------- */

static void take_results(server *S)
{
    worker_result r;
    while (workers_take(S->pool, &r)) {
        if (r.kind == JOB_THINK)
            tables_computer_move(S->tables, r.table, r.turn, r.move);
        else if (r.kind == JOB_ANALYSE)
            tables_analysis_done(S->tables, r.table, r.turn, &r.analysis);
        else if (r.kind == JOB_REPLAY)
            tables_replay_done(S->tables, r.replay_job, r.replay, r.replay_error);
        else if (r.kind == JOB_CALL && webhooks_owns(r.call_job))
            webhooks_done(S->webhooks, r.call_arg);
        else if (r.kind == JOB_CALL)
            http_api_call_done(S->api, r.call_job, r.call_arg);
        else if (r.review)
            tables_review_done(S->tables, r.table, r.review);
    }
}

/* --- Clients of other processes (relay.h) ---------------------------------------------- */

static remote **remote_slot(server *S, int from, uint64_t id)
{
    remote **at = &S->remotes[id % CLIENT_BUCKETS];
    while (*at && ((*at)->client.from != from || (*at)->their_id != id))
        at = &(*at)->next;
    return at;
}

/* The relayed client `id` of process `from`, made at its first request;
 * NULL when out of memory. */
static remote *remote_get(server *S, int from, uint64_t id, const char *addr)
{
    remote **at = remote_slot(S, from, id);
    remote *rc = *at;
    if (rc)
        return rc;
    rc = calloc(1, sizeof *rc);
    if (!rc)
        return NULL;
    rc->client.id = ++S->next_id;
    rc->client.from = from;
    snprintf(rc->client.addr, sizeof rc->client.addr, "%s", addr);
    rc->their_id = id;
    *at = rc;
    peer_add(S, from);
    return rc;
}

static void remote_gone(server *S, remote **at)
{
    remote *rc = *at;
    *at = rc->next;
    tables_client_gone(S->tables, &rc->client);
    free(rc);
}

static void peer_dead(server *S, int id);

/* The account of a relayed request (ACCOUNT_MARK) into `c`, and the
 * request's text after it. */
static void relayed_account(srv_client *c, const char **text, size_t *len)
{
    c->account = 0;
    c->account_name[0] = '\0';
    const char *end = *len > 0 && (*text)[0] == ACCOUNT_MARK ? memchr(*text, '\n', *len) : NULL;
    if (!end)
        return;
    long long id = 0;
    char name[STORED_ACCOUNT_NAME_BYTES] = "";
    if (sscanf(*text + 1, "%lld %20[A-Za-z0-9_-]", &id, name) == 2) {
        c->account = id;
        memcpy(c->account_name, name, sizeof name);
    }
    *len -= (size_t)(end + 1 - *text);
    *text = end + 1;
}

static void relayed(server *S, relay_item *it)
{
    if (it->kind == RELAY_MESSAGE) {
        conn *c = S->by_id[it->client % CLIENT_BUCKETS];
        while (c && c->client.id != it->client)
            c = c->id_next;
        srv_msg *m = c ? srv_msg_new(it->text, it->len) : NULL;
        if (m) {
            conn_queue(c, m);
            srv_msg_unref(m);
        }
    } else if (it->kind == RELAY_GONE) {
        remote **at = remote_slot(S, it->from, it->client);
        if (*at)
            remote_gone(S, at);
    } else if (it->kind == RELAY_RESET) {
        peer_dead(S, it->from); /* what crossed to it may be lost: its clients start over */
    } else {
        remote *rc = remote_get(S, it->from, it->client, it->addr);
        msg_problem problem;
        msg_request *r = &S->request;
        const char *text = it->text;
        size_t len = it->len;
        if (rc) /* the account its process says the request is for (0: a guest) */
            relayed_account(&rc->client, &text, &len);
        msg_error e = msg_decode(text, len, r, &problem);
        if (!rc)
            return;
        if (e != ERR_NONE)
            tables_error(S->tables, &rc->client, e == ERR_BAD_JSON ? NULL : &r->id, e,
                         problem.message);
        else
            tables_request(S->tables, &rc->client, r);
    }
}

static void take_relayed(server *S)
{
    relay_item it;
    while (S->relay && relay_take(S->relay, &it)) {
        relayed(S, &it);
        free(it.text);
    }
}

/* Process `id` is gone: its clients' seats here are away, and the
 * connections here that followed its tables close (their clients
 * reconnect, and find the tables wherever they are taken over). */
static void peer_dead(server *S, int id)
{
    for (int b = 0; b < CLIENT_BUCKETS; b++)
        for (remote **at = &S->remotes[b]; *at;)
            if ((*at)->client.from == id)
                remote_gone(S, at);
            else
                at = &(*at)->next;
    for (conn *c = S->conns; c; c = c->next)
        for (int i = 0; i < c->nowners; i++)
            if (c->owners[i] == id && !c->dropped) {
                c->dropped = 1;
                lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
            }
    relay_forget(S->relay, id);
}

/* A gap in the relay (a Redis connection lost): what crossed processes
 * since may be lost, so the clients that crossed start over as when a
 * process dies: this process's connections that follow another's tables
 * close (their clients reconnect and resume), the clients of others here
 * go; once the relay is up again, the peers are told (RELAY_RESET) and do
 * the same. */
static void watch_relay(server *S)
{
    unsigned gaps = relay_gaps(S->relay);
    if (gaps != S->relay_gaps) {
        S->relay_gaps = gaps;
        for (int i = 0; i < S->npeers; i++) {
            int known = 0;
            for (int k = 0; k < S->nresets; k++)
                known |= S->resets[k] == S->peers[i];
            if (!known)
                S->resets[S->nresets++] = S->peers[i];
            peer_dead(S, S->peers[i]);
        }
    }
    if (S->nresets > 0 && relay_up(S->relay)) {
        for (int k = 0; k < S->nresets; k++)
            relay_send(S->relay, S->resets[k], RELAY_RESET, 0, NULL, "", 0);
        S->nresets = 0;
    }
}

static void check_peers(server *S)
{
    for (int i = 0; i < S->npeers;) {
        if (relay_alive(S->relay, S->peers[i]) == 0) {
            fprintf(stderr, "carcassonne serve: server %d is gone\n", S->peers[i]);
            peer_dead(S, S->peers[i]);
            S->peers[i] = S->peers[--S->npeers];
        } else {
            i++;
        }
    }
}

/* Whether `c` sent an unmasked frame (RFC 6455: closed with 1002, its
 * message not read); sets the close reason. */
static int sent_unmasked(conn *c)
{
    if (c->fd < 0 || !frame_check_unmasked(c->fd))
        return 0;
    static const char why[] = "client frames must be masked";
    lws_close_reason(c->wsi, LWS_CLOSE_STATUS_PROTOCOL_ERR, (unsigned char *)why, sizeof why - 1);
    return 1;
}

/* WebSocket connections only at /ws. */
static int ws_path_ok(struct lws *wsi)
{
    char uri[64];
    if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0)
        return 0;
    return strcmp(uri, "/ws") == 0 || strncmp(uri, "/ws?", 4) == 0;
}

/* Called at each tick and before each message: the tick runs every
 * TICK_MS, so a longer gap means the loop itself did not run (SIGSTOP, a
 * starved machine), and the clocks are not charged for it. */
static void notice_stall(server *S)
{
    int64_t now = monotonic_ms();
    if (S->awake_ms && S->tables && now - S->awake_ms > TICK_MS + STALL_MS)
        tables_stalled(S->tables, now - S->awake_ms - TICK_MS);
    S->awake_ms = now;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    session *s = user;
    server *S = lws_context_user(lws_get_context(wsi));
    switch (reason) {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        if (!ws_path_ok(wsi))
            return 1;
        if (S->api) /* who its session cookie is */
            http_api_identify(S->api, wsi, &s->who);
        return 0;
    case LWS_CALLBACK_ESTABLISHED: conn_open(S, s, wsi); return s->c ? 0 : -1;
    case LWS_CALLBACK_RECEIVE:
        if (!s->c || sent_unmasked(s->c))
            return -1;
        notice_stall(S); /* before the message: its seat's clock */
        return conn_receive(S, s->c, wsi, in, len);
    case LWS_CALLBACK_SERVER_WRITEABLE: return !s->c || sent_unmasked(s->c) ? -1 : conn_write(s->c);
    case LWS_CALLBACK_RECEIVE_PONG:
        if (!s->c || sent_unmasked(s->c))
            return -1;
        s->c->rx_ms = wall_ms();
        return 0;
    case LWS_CALLBACK_CLOSED: conn_close(S, s); return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (S && S->pool)
            take_results(S);
        if (S)
            take_relayed(S);
        return 0;
    case LWS_CALLBACK_HTTP: return http_request(S, s, wsi, in ? (const char *)in : "");
    case LWS_CALLBACK_HTTP_BODY:
        if (s && s->api)
            return http_api_body(S->api, s->api, in, len);
        break;
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        if (s && s->api)
            return http_api_body_done(S->api, s->api);
        break;
    case LWS_CALLBACK_HTTP_WRITEABLE:
        if (s && s->api)
            return http_api_write(S->api, wsi, &s->api);
        if (s && s->body)
            return http_write(s, wsi);
        break;
    case LWS_CALLBACK_CLOSED_HTTP:
        if (s) {
            free(s->body);
            s->body = NULL;
            if (S->api)
                http_api_closed(S->api, &s->api);
        }
        break;
    default: break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols protocols[] = {
    /* A small receive buffer per connection: most messages are short, and
     * a long one arrives in pieces that conn_receive() joins. Sends are
     * not cut to that size. */
    {"carcassonne.v1", callback, sizeof(session), 1024, 0, NULL, 1 << 16},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* --- Hooks for the tables ---------------------------------------------------------------- */

static int hook_think(void *ctx, const char *table, const char *addr, int turn, const carc_game *g,
                      const char *spec)
{
    server *S = ctx;
    return S->pool ? workers_think(S->pool, table, addr, turn, g, spec) : -1;
}

static int hook_review(void *ctx, const char *table, const carc_game *g, int ms)
{
    server *S = ctx;
    return S->pool ? workers_review(S->pool, table, g, ms) : -1;
}

static int hook_analyse(void *ctx, const char *table, const char *addr, int turn,
                        const carc_game *g)
{
    server *S = ctx;
    return S->pool ? workers_analyse(S->pool, table, addr, turn, g, S->opt->hint_ms) : -1;
}

static void hook_cancel_analysis(void *ctx, const char *table, int turn)
{
    server *S = ctx;
    if (S->pool)
        workers_cancel_analysis(S->pool, table, turn);
}

static int hook_replay(void *ctx, uint64_t job, const char *addr, const char *text, int tile)
{
    server *S = ctx;
    return S->pool ? workers_replay(S->pool, job, addr, text, tile) : -1;
}

static void hook_turn(void *ctx, const char *table, int turn, int seat, int64_t account,
                      int64_t deadline_ms)
{
    server *S = ctx;
    if (S->webhooks)
        webhooks_turn(S->webhooks, S->store, table, turn, seat, account, deadline_ms, wall_ms());
}

static int64_t hook_now(void *ctx)
{
    (void)ctx;
    return wall_ms();
}

static void wake_service(void *ctx)
{
    server *S = ctx;
    lws_cancel_service(S->ctx);
}

/* Pings the connections that have been quiet for a while and closes those
 * that stay quiet after the ping: a lost network shows the seat away. */
static void sweep_idle(server *S, int64_t now)
{
    for (conn *c = S->conns; c; c = c->next) {
        if (c->dropped)
            continue;
        if (now - c->rx_ms > S->opt->idle_close_ms) {
            c->dropped = 1;
            lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
        } else if (now - c->rx_ms > S->opt->ping_ms && c->pinged_ms <= c->rx_ms) {
            c->pinged_ms = now;
            c->ping_due = 1;
            lws_callback_on_writable(c->wsi);
        }
    }
}

/* Ticks between two idle sweeps: a quarter of the ping delay, at most
 * IDLE_SWEEP_MAX_MS, so that short test timings are kept to. */
static int sweep_ticks(const server_options *o)
{
    int ms = o->ping_ms / 4 < IDLE_SWEEP_MAX_MS ? o->ping_ms / 4 : IDLE_SWEEP_MAX_MS;
    return ms > TICK_MS ? ms / TICK_MS : 1;
}

static void on_tick(lws_sorted_usec_list_t *sul)
{
    server *S = lws_container_of(sul, server, tick);
    notice_stall(S);
    listener_tick(S->listener);
    int64_t now = wall_ms();
    if (++S->ticks % sweep_ticks(S->opt) == 0)
        sweep_idle(S, now);
    /* Tables taken over: their server died, which this process looks for
     * only every second. It looks at once, so that the connections that
     * followed the dead one's tables here close (and resume) before one
     * sends a move to a table taken over here, which does not know it
     * (`not_seated`; once in a 5,000-table kill). */
    int adopted = tables_tick(S->tables, now);
    if (S->relay && (adopted > 0 || S->ticks % PEER_CHECK_TICKS == 0))
        check_peers(S);
    if (S->relay)
        watch_relay(S);
    lws_sul_schedule(S->ctx, 0, &S->tick, on_tick, TICK_MS * LWS_US_PER_MS);
}

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1; /* the loop sees it within TICK_MS */
}

/* --- Running ----------------------------------------------------------------------------- */

/* The context, on the libev loop `loop`; it listens on no port of its
 * own: the listener (listener.h) hands it the connections. */
static struct lws_context *make_context(server *S, struct lws_http_mount *api,
                                        struct lws_http_mount *files, struct ev_loop *loop)
{
    const server_options *o = S->opt;
    /* Everything but /api: the client's files, from memory (serve_file). */
    memset(files, 0, sizeof *files);
    files->mountpoint = "/";
    files->origin = "carcassonne.v1";
    files->origin_protocol = LWSMPRO_CALLBACK;
    files->mountpoint_len = 1;
    memset(api, 0, sizeof *api);
    api->mount_next = files;
    api->mountpoint = "/api";
    api->origin = "carcassonne.v1";
    api->origin_protocol = LWSMPRO_CALLBACK;
    api->mountpoint_len = 4;

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN_SERVER;
    info.protocols = protocols;
    info.mounts = api;
    info.user = S;
    info.gid = -1;
    info.uid = -1;
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8;
    /* No idle timers of libwebsockets (its default policy pings after 5
     * minutes): it keeps them in one sorted list, a walk over every
     * connection each time one is set. sweep_idle() does that job. */
    static const lws_retry_bo_t no_idle_timers = {.secs_since_valid_ping = 0};
    info.retry_and_idle_policy = &no_idle_timers;
    if (!strchr(o->host, ':') && strcmp(o->host, "::") != 0)
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    if (o->tls_cert) {
        info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        info.ssl_cert_filepath = o->tls_cert;
        info.ssl_private_key_filepath = o->tls_key;
    }
    void *foreign[1] = {loop};
    info.options |= LWS_SERVER_OPTION_LIBEV;
    info.foreign_loops = foreign;
    return lws_create_context(&info);
}

/* The context on libev's epoll loop, which scales with many connections
 * (lws's own loop polls every socket at each pass), and the listener on
 * the same loop; -1 with a message on standard error. */
static int listen_on_loop(server *S, struct lws_http_mount *api, struct lws_http_mount *files)
{
    const server_options *o = S->opt;
    char err[256];
    S->loop = ev_loop_new(EVFLAG_AUTO);
    if (!S->loop || !(S->ctx = make_context(S, api, files, S->loop))) {
        fprintf(stderr, "carcassonne serve: cannot start libwebsockets on libev (its plugin is "
                        "the package libwebsockets-evlib-ev)\n");
        return -1;
    }
    S->listener = listener_new(o->host, o->port, o->trusted, o->ntrusted, err, sizeof err);
    if (!S->listener) {
        fprintf(stderr, "carcassonne serve: cannot listen on %s port %d: %s\n", o->host, o->port,
                err);
        return -1;
    }
    listener_start(S->listener, S->loop, lws_get_vhost_by_name(S->ctx, "default"));
    return 0;
}

/* The client's files (--static) and the tile catalogue (/api/tiles), read
 * once; -1 with a message on standard error. */
static int load_files(server *S)
{
    char err[256];
    char *tiles = catalogue_json();
    S->files = static_files_load(S->opt->static_dir, err, sizeof err);
    if (!S->files || !tiles ||
        static_files_add(S->files, "/api/tiles", "application/json", tiles, strlen(tiles)) != 0) {
        fprintf(stderr, "carcassonne serve: the client's files: %s\n",
                S->files ? "out of memory" : err);
        free(tiles);
        return -1;
    }
    free(tiles);
    return 0;
}

static int start(server *S, struct lws_http_mount *api, struct lws_http_mount *files)
{
    const server_options *o = S->opt;
    char err[256];
    /* After SERVER_RESTART, a PostgreSQL that is not back yet is waited
     * for; at the first start a database that cannot be opened is an
     * error. */
    int waited = 0;
    while (!(S->store = storage_open(o->db, err, sizeof err)) && o->wait_for_db &&
           !stop_requested) {
        if (!waited++)
            fprintf(stderr, "carcassonne serve: waiting for the database: %s\n", err);
        struct timespec pause = {0, DB_RETRY_MS * 1000000L};
        nanosleep(&pause, NULL);
    }
    if (!S->store) {
        fprintf(stderr, "carcassonne serve: cannot open the database %s\n", err);
        return -1;
    }
    /* PostgreSQL: a pass's writes in one round trip, checked at its commit. */
    storage_pipeline(S->store, 1);
    srv_hooks hooks = {S,        deliver,      hook_think,           hook_review,
                       hook_now, hook_analyse, hook_cancel_analysis, hook_replay,
                       hook_turn};
    srv_limits limits = {o->max_tables, o->max_tables_per_ip, o->max_computer_tables_per_ip};
    S->tables = tables_new(S->store, &hooks, &limits);
    if (!S->tables || load_files(S) != 0 || listen_on_loop(S, api, files) != 0)
        return -1;
    S->self = storage_server_id(S->store);
    if (storage_is_postgres(o->db) &&
        !(S->relay = relay_new(o->db, o->relay, S->self, wake_service, S, err, sizeof err))) {
        fprintf(stderr, "carcassonne serve: %s\n", err);
        return -1;
    }
    S->pool = workers_new(o->workers, o->max_think_ms, wake_service, S);
    if (!S->pool) {
        fprintf(stderr, "carcassonne serve: cannot start %d worker threads\n", o->workers);
        return -1;
    }
    if (!(S->api = http_api_new(S->store, S->pool, o->tls_cert != NULL, &o->webhooks,
                                o->password_cost))) {
        fprintf(stderr, "carcassonne serve: cannot start the accounts (libsodium)\n");
        return -1;
    }
    if (o->puzzles && !(S->puzzles = puzzle_set_load(o->puzzles, err, sizeof err))) {
        fprintf(stderr, "carcassonne serve: the puzzles: %s\n", err);
        return -1;
    }
    http_api_set_puzzles(S->api, S->puzzles);
    if (!(S->webhooks = webhooks_new(S->pool, &o->webhooks))) {
        fprintf(stderr, "carcassonne serve: cannot start the webhooks (libcurl)\n");
        return -1;
    }
    if (tables_load(S->tables, err, sizeof err) != 0) {
        fprintf(stderr, "carcassonne serve: cannot load the tables: %s\n", err);
        return -1;
    }
    return 0;
}

static void stop(server *S)
{
    /* The workers first: a search that ends wakes the context. */
    workers_free(S->pool);
    S->pool = NULL;
    listener_free(S->listener);
    S->listener = NULL;
    if (S->ctx)
        lws_context_destroy(S->ctx);
    http_api_free(S->api); /* after the context: its requests' connections are closed */
    S->api = NULL;
    puzzle_set_free(S->puzzles);
    S->puzzles = NULL;
    static_files_free(S->files);
    S->files = NULL;
    webhooks_free(S->webhooks); /* after the workers: no call runs */
    S->webhooks = NULL;
    if (S->loop)
        ev_loop_destroy(S->loop);
    relay_free(S->relay);
    for (int b = 0; b < CLIENT_BUCKETS; b++)
        while (S->remotes[b])
            remote_gone(S, &S->remotes[b]);
    tables_free(S->tables);
    storage_close(S->store);
    counts_clear(&S->conns_per_addr);
}

int server_run(const server_options *o)
{
    lws_set_log_level(LLL_ERR, NULL);
    server *S = calloc(1, sizeof *S);
    if (!S)
        return 1;
    S->opt = o;
    struct lws_http_mount api, files;
    int status = 1;
    if (start(S, &api, &files) == 0) {
        /* Before the ready line: whoever reads it may stop us at once. */
        signal(SIGTERM, on_signal);
        signal(SIGINT, on_signal);
        signal(SIGPIPE, SIG_IGN);
        int port = listener_port(S->listener);
        int v6 = strchr(o->host, ':') != NULL;
        printf("listening on %s://%s%s%s:%d\n", o->tls_cert ? "https" : "http", v6 ? "[" : "",
               o->host, v6 ? "]" : "", port);
        fflush(stdout);
        lws_sul_schedule(S->ctx, 0, &S->tick, on_tick, TICK_MS * LWS_US_PER_MS);
        status = 0;
        while (!stop_requested) {
            ev_run(S->loop, EVRUN_ONCE);
            if (tables_flush(S->tables) != 0) {
                /* A lost database (PostgreSQL restarted): start over
                 * once it is back; the clients reconnect and resume. */
                status = storage_lost(S->store) ? SERVER_RESTART : 1;
                break;
            }
            http_api_committed(S->api); /* the accounts' replies of the pass */
            /* What the pass sent to other processes' clients, after its
             * commit. */
            if (S->relay && (relay_flush(S->relay) != 0 || relay_lost(S->relay))) {
                fprintf(stderr, "carcassonne serve: the relay lost the database\n");
                status = SERVER_RESTART;
                break;
            }
        }
        if (status == 0 && tables_flush(S->tables) != 0)
            status = 1;
    }
    stop(S);
    free(S);
    return status;
}
