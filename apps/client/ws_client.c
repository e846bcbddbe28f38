/* ws_client.c: WebSocket client connections on one libwebsockets (4.1)
 * event loop. Each connection keeps a queue of outgoing messages and a
 * buffer that gathers the fragments of the incoming one. */
#include "ws_client.h"

#include <ev.h>
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>

enum {
    RX_LIMIT = 4 << 20, /* a larger message from the server is refused */
    FD_SPARE = 64,      /* descriptors beside the connections */
};

/* One queued message, with the headroom lws_write() needs before it. */
typedef struct out_msg {
    struct out_msg *next;
    size_t len;
    unsigned char buf[];
} out_msg;

struct ws_conn {
    ws_loop *loop;
    struct lws *wsi; /* NULL once lws has let go of the connection */
    ws_handlers h;
    void *user;
    int opened;
    int closing;    /* ws_close(): close at the next writable callback */
    int reported;   /* on_close ran (or must not run) */
    int connecting; /* inside lws_client_connect_via_info() */
    int destroyed;  /* lws let go of it while connecting */
    out_msg *head, *tail;
    char *rx;
    size_t rx_len, rx_cap;
};

struct ws_loop {
    struct lws_context *context;
    struct ev_loop *ev;  /* libev's loop (epoll), or NULL: lws's own poll() */
    ev_timer wait_timer; /* bounds one ws_loop_run() on libev */
    int destroying;
    int no_idle_timers; /* ws_loop_no_idle_timers() */
    lws_sorted_usec_list_t tick;
    void (*wake_cb)(void *user);
    void *wake_user;
};

/* --- URLs ------------------------------------------------------------------ */

static int url_error(char *err, size_t errcap, const char *text, const char *why)
{
    snprintf(err, errcap, "bad URL '%s': %s", text, why);
    return -1;
}

int ws_url_parse(const char *text, ws_url *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    const char *p = text;
    if (strncmp(p, "ws://", 5) == 0)
        p += 5;
    else if (strncmp(p, "http://", 7) == 0)
        p += 7;
    else if (strncmp(p, "wss://", 6) == 0 || strncmp(p, "https://", 8) == 0)
        return url_error(err, errcap, text, "TLS is not supported; use ws:// (or a local proxy)");
    else if (strstr(p, "://"))
        return url_error(err, errcap, text, "the scheme must be ws:// or http://");
    size_t host_len = strcspn(p, ":/");
    if (host_len == 0 || host_len >= sizeof out->host)
        return url_error(err, errcap, text, "no host");
    memcpy(out->host, p, host_len);
    p += host_len;
    out->port = 80;
    if (*p == ':') {
        char *end = NULL;
        long port = strtol(p + 1, &end, 10);
        if (end == p + 1 || port < 1 || port > 65535 || (*end && *end != '/'))
            return url_error(err, errcap, text, "the port must be a number from 1 to 65535");
        out->port = (int)port;
        p = end;
    }
    if (*p == '\0' || strcmp(p, "/") == 0)
        p = "/ws";
    if (strlen(p) >= sizeof out->path)
        return url_error(err, errcap, text, "the path is too long");
    snprintf(out->path, sizeof out->path, "%s", p);
    return 0;
}

/* --- Connections --------------------------------------------------------------- */

static void conn_free(ws_conn *c)
{
    for (out_msg *m = c->head, *next; m; m = next) {
        next = m->next;
        free(m);
    }
    free(c->rx);
    free(c);
}

static void report_close(ws_conn *c, const char *why)
{
    if (c->reported)
        return;
    c->reported = 1;
    if (!c->loop->destroying && c->h.on_close)
        c->h.on_close(c, c->user, c->opened, why);
}

static int gather_rx(ws_conn *c, const void *in, size_t len)
{
    if (c->rx_len + len + 1 > c->rx_cap) {
        size_t cap = c->rx_cap ? c->rx_cap : 1024;
        while (cap < c->rx_len + len + 1)
            cap *= 2;
        if (cap > RX_LIMIT)
            return -1;
        char *bigger = realloc(c->rx, cap);
        if (!bigger)
            return -1;
        c->rx = bigger;
        c->rx_cap = cap;
    }
    memcpy(c->rx + c->rx_len, in, len);
    c->rx_len += len;
    return 0;
}

static int on_receive(ws_conn *c, struct lws *wsi, const void *in, size_t len)
{
    if (gather_rx(c, in, len) != 0)
        return -1;
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0)
        return 0;
    c->rx[c->rx_len] = '\0';
    size_t n = c->rx_len;
    c->rx_len = 0;
    if (c->h.on_text && !c->closing)
        c->h.on_text(c, c->user, c->rx, n);
    return 0;
}

static int on_writable(ws_conn *c, struct lws *wsi)
{
    if (c->closing) {
        lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, NULL, 0);
        return -1;
    }
    out_msg *m = c->head;
    if (!m)
        return 0;
    int wrote = lws_write(wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT);
    if (wrote < 0 || (size_t)wrote < m->len)
        return -1;
    c->head = m->next;
    if (!c->head)
        c->tail = NULL;
    free(m);
    if (c->head)
        lws_callback_on_writable(wsi);
    return 0;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    (void)user;
    if (reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED) {
        ws_loop *l = lws_context_user(lws_get_context(wsi));
        if (l && l->wake_cb && !l->destroying)
            l->wake_cb(l->wake_user);
        return 0;
    }
    ws_conn *c = wsi ? lws_get_opaque_user_data(wsi) : NULL;
    if (!c || (c->wsi && c->wsi != wsi))
        return 0;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        c->opened = 1;
        if (c->h.on_open && !c->loop->destroying)
            c->h.on_open(c, c->user);
        if (c->head || c->closing)
            lws_callback_on_writable(wsi);
        return 0;
    case LWS_CALLBACK_CLIENT_RECEIVE: return on_receive(c, wsi, in, len);
    case LWS_CALLBACK_CLIENT_WRITEABLE: return on_writable(c, wsi);
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        report_close(c, in && len ? (const char *)in : "connection failed");
        return 0;
    case LWS_CALLBACK_CLIENT_CLOSED: report_close(c, "connection closed"); return 0;
    case LWS_CALLBACK_WSI_DESTROY:
        report_close(c, "connection closed");
        lws_set_opaque_user_data(wsi, NULL);
        if (c->connecting)
            c->destroyed = 1; /* ws_connect() frees it */
        else
            conn_free(c);
        return 0;
    default: return 0;
    }
}

static const struct lws_protocols protocols[] = {
    {"carcassonne.v1", callback, 0, 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* --- The loop ------------------------------------------------------------------- */

static void raise_fd_limit(int want)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= (rlim_t)want)
        return;
    rl.rlim_cur = (rlim_t)want;
    if (rl.rlim_max < rl.rlim_cur)
        rl.rlim_max = rl.rlim_cur; /* allowed when privileged; else fails */
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0 && getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

static void log_errors(int level, const char *line)
{
    (void)level;
    fprintf(stderr, "lws: %s", line);
}

static struct lws_context *create_context(ws_loop *l, int with_libev)
{
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.gid = -1;
    info.uid = -1;
    info.user = l;
    /* lws sizes its tables from the open-file limit raised above. Setting
     * fd_limit_per_thread instead would make it look sockets up by a
     * linear search: most of the time with 10,000 connections. */
    void *loops[1] = {NULL};
    if (with_libev) {
        l->ev = ev_loop_new(EVFLAG_AUTO);
        if (!l->ev)
            return NULL;
        loops[0] = l->ev;
        info.options |= LWS_SERVER_OPTION_LIBEV;
        info.foreign_loops = loops;
    }
    struct lws_context *context = lws_create_context(&info);
    if (!context && l->ev) {
        ev_loop_destroy(l->ev);
        l->ev = NULL;
    }
    return context;
}

ws_loop *ws_loop_new(int max_conns, char *err, size_t errcap)
{
    ws_loop *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    raise_fd_limit(max_conns + FD_SPARE);
    lws_set_log_level(getenv("CARC_WS_DEBUG") ? LLL_ERR | LLL_WARN | LLL_NOTICE : LLL_ERR,
                      log_errors);
    /* libev waits with epoll, whose cost does not grow with the number of
     * connections as poll()'s does; lws's own loop is the fallback. */
    l->context = create_context(l, 1);
    if (!l->context)
        l->context = create_context(l, 0);
    if (!l->context) {
        snprintf(err, errcap, "libwebsockets could not start");
        free(l);
        return NULL;
    }
    return l;
}

void ws_loop_free(ws_loop *l)
{
    if (!l)
        return;
    l->destroying = 1;
    lws_sul_cancel(&l->tick);
    lws_context_destroy(l->context);
    if (l->ev)
        ev_loop_destroy(l->ev);
    free(l);
}

static void tick(lws_sorted_usec_list_t *sul)
{
    (void)sul; /* waking the loop is all it is for */
}

static void wait_timer_done(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)w;
    (void)revents; /* ending the wait is all it is for */
}

int ws_loop_run(ws_loop *l, int timeout_ms)
{
    if (l->ev) {
        /* A timer of our own: lws re-arms its libev timer only while it
         * serves, so a sul scheduled here would not end the wait. */
        ev_timer_init(&l->wait_timer, wait_timer_done, timeout_ms / 1000.0, 0.0);
        ev_timer_start(l->ev, &l->wait_timer);
        ev_run(l->ev, EVRUN_ONCE);
        ev_timer_stop(l->ev, &l->wait_timer);
        return 0;
    }
    lws_sul_schedule(l->context, 0, &l->tick, tick, (lws_usec_t)timeout_ms * LWS_US_PER_MS);
    return lws_service(l->context, 0) < 0 ? -1 : 0;
}

void ws_loop_on_wake(ws_loop *l, void (*cb)(void *user), void *user)
{
    l->wake_cb = cb;
    l->wake_user = user;
}

void ws_loop_wake(ws_loop *l)
{
    lws_cancel_service(l->context);
}

void ws_loop_no_idle_timers(ws_loop *l)
{
    l->no_idle_timers = 1;
}

ws_conn *ws_connect(ws_loop *l, const ws_url *url, const ws_handlers *h, void *user)
{
    /* libwebsockets' default policy pings an idle connection after 5
     * minutes, and keeps that timer of every connection in one sorted
     * list, set again at each message received: a walk of the whole list
     * each time with thousands of connections. */
    static const lws_retry_bo_t no_idle_timers = {.secs_since_valid_ping = 0};
    ws_conn *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->loop = l;
    c->h = *h;
    c->user = user;
    struct lws_client_connect_info ci;
    memset(&ci, 0, sizeof ci);
    ci.context = l->context;
    ci.address = url->host;
    ci.port = url->port;
    ci.path = url->path;
    ci.host = url->host;
    ci.origin = url->host;
    ci.protocol = "carcassonne.v1";
    ci.local_protocol_name = "carcassonne.v1";
    ci.ietf_version_or_minus_one = -1;
    ci.opaque_user_data = c;
    if (l->no_idle_timers)
        ci.retry_and_idle_policy = &no_idle_timers;
    /* A failure inside the call may already run the callbacks: no user
     * callback runs then, and the connection is freed here. */
    c->reported = 1;
    c->connecting = 1;
    struct lws *wsi = lws_client_connect_via_info(&ci);
    c->connecting = 0;
    if (!wsi || c->destroyed) {
        conn_free(c);
        return NULL;
    }
    c->wsi = wsi;
    c->reported = 0;
    return c;
}

int ws_send(ws_conn *c, const char *text, size_t len)
{
    if (c->closing || !c->wsi)
        return -1;
    out_msg *m = malloc(sizeof *m + LWS_PRE + len);
    if (!m)
        return -1;
    m->next = NULL;
    m->len = len;
    memcpy(m->buf + LWS_PRE, text, len);
    if (c->tail)
        c->tail->next = m;
    else
        c->head = m;
    c->tail = m;
    if (c->opened)
        lws_callback_on_writable(c->wsi);
    return 0;
}

void ws_close(ws_conn *c)
{
    if (c->closing)
        return;
    c->closing = 1;
    if (c->opened)
        lws_callback_on_writable(c->wsi);
    else
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
}

void ws_drop(ws_conn *c)
{
    c->closing = 1;
    lws_sockfd_type fd = lws_get_socket_fd(c->wsi);
    if (fd >= 0)
        shutdown(fd, SHUT_RDWR);
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
}
