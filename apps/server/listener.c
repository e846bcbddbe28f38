/* listener.c: the listening socket, the PROXY header of trusted
 * balancers, and the hand-over of each connection to libwebsockets. */
#define _GNU_SOURCE /* accept4() */
#include "listener.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
    PENDING_MS = 10000,     /* a connection must have told what it is within this */
    PENDING_MAX = 4096,     /* connections waiting at once, at most */
    ACCEPTS_PER_WAKE = 256, /* then the loop serves the others */
    SIGNATURE_PEEK = 12,    /* bytes enough to tell a PROXY header's signature */
};

/* A connection accepted and not yet handed over: its first bytes are
 * awaited. `io` comes first (the libev callback gets it). */
typedef struct pending {
    ev_io io;
    listener *l;
    int trusted;
    int peeking; /* untrusted, its bytes so far could begin a header: looked at each tick */
    int64_t deadline_ms;
    char peer[PROXY_ADDR_BYTES];
    unsigned char head[PROXY_HEADER_MAX]; /* a trusted peer's header, as read */
    size_t have;
    struct pending *prev, *next; /* oldest first */
} pending;

struct listener {
    int fd;
    int port;
    ev_io io;
    struct ev_loop *loop;
    struct lws_vhost *vhost;
    int paused; /* out of file descriptors: accepting again at the next tick */
    proxy_net trusted[PROXY_NETS_MAX];
    int ntrusted;
    pending *oldest, *newest;
    int npending;
    /* The client's address of every socket handed over, by descriptor
     * (written at each hand-over, so a reused number never shows an old
     * address). */
    char (*addrs)[PROXY_ADDR_BYTES];
    int naddrs;
};

static int64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- Listening ---------------------------------------------------------------------------- */

static int open_socket(const char *host, int port, char *err, size_t errcap)
{
    int v6 = strchr(host, ':') != NULL;
    int any = !host[0] || strcmp(host, "0.0.0.0") == 0 || strcmp(host, "::") == 0;
    struct addrinfo hints, *found = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = v6 ? AF_INET6 : AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    int rc = getaddrinfo(any ? NULL : host, service, &hints, &found);
    if (rc != 0) {
        snprintf(err, errcap, "%s: %s", host, gai_strerror(rc));
        return -1;
    }
    int fd = socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int on = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0 ||
        bind(fd, found->ai_addr, found->ai_addrlen) != 0 || listen(fd, SOMAXCONN) != 0) {
        snprintf(err, errcap, "%s", strerror(errno));
        if (fd >= 0)
            close(fd);
        fd = -1;
    }
    freeaddrinfo(found);
    return fd;
}

listener *listener_new(const char *host, int port, const proxy_net *trusted, int ntrusted,
                       char *err, size_t errcap)
{
    listener *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    if ((l->fd = open_socket(host, port, err, errcap)) < 0) {
        free(l);
        return NULL;
    }
    struct sockaddr_storage me;
    memset(&me, 0, sizeof me);
    socklen_t len = sizeof me;
    getsockname(l->fd, (struct sockaddr *)&me, &len);
    l->port = ntohs(me.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&me)->sin6_port
                                             : ((struct sockaddr_in *)&me)->sin_port);
    l->ntrusted = ntrusted < PROXY_NETS_MAX ? ntrusted : PROXY_NETS_MAX;
    if (l->ntrusted > 0)
        memcpy(l->trusted, trusted, (size_t)l->ntrusted * sizeof *trusted);
    return l;
}

int listener_port(const listener *l)
{
    return l->port;
}

const char *listener_addr(const listener *l, int fd)
{
    return fd >= 0 && fd < l->naddrs && l->addrs[fd][0] ? l->addrs[fd] : NULL;
}

/* --- A connection's first bytes ----------------------------------------------------------- */

static void pending_drop(listener *l, pending *p, int close_socket)
{
    ev_io_stop(l->loop, &p->io);
    if (l->oldest == p)
        l->oldest = p->next;
    else
        p->prev->next = p->next;
    if (l->newest == p)
        l->newest = p->prev;
    else
        p->next->prev = p->prev;
    l->npending--;
    if (close_socket)
        close(p->io.fd);
    free(p);
}

static void refuse(listener *l, pending *p, const char *why)
{
    fprintf(stderr, "carcassonne serve: refused a connection from %s: %s\n", p->peer, why);
    pending_drop(l, p, 1);
}

/* Hands `fd` to libwebsockets, the client's address `addr` kept for it. */
static void hand_over(listener *l, int fd, const char *addr)
{
    if (fd >= l->naddrs) {
        int n = l->naddrs ? l->naddrs : 1024;
        while (n <= fd)
            n *= 2;
        char(*bigger)[PROXY_ADDR_BYTES] = realloc(l->addrs, (size_t)n * sizeof *bigger);
        if (!bigger) {
            close(fd);
            return;
        }
        memset(bigger + l->naddrs, 0, (size_t)(n - l->naddrs) * sizeof *bigger);
        l->addrs = bigger;
        l->naddrs = n;
    }
    snprintf(l->addrs[fd], sizeof l->addrs[fd], "%s", addr);
    /* On failure lws closes the socket. */
    if (!lws_adopt_socket_vhost(l->vhost, fd))
        l->addrs[fd][0] = '\0';
}

typedef enum step { STEP_WAIT, STEP_DONE } step;

/* A trusted peer: its header, read exactly (nothing after it is taken
 * from the socket), then the hand-over. */
static step read_header(pending *p)
{
    for (;;) {
        proxy_header h;
        proxy_status st = proxy_parse(p->head, p->have, &h);
        if (st == PROXY_VALID) {
            int fd = p->io.fd;
            char addr[PROXY_ADDR_BYTES];
            snprintf(addr, sizeof addr, "%s", h.has_source ? h.source : p->peer);
            listener *l = p->l;
            pending_drop(l, p, 0);
            hand_over(l, fd, addr);
            return STEP_DONE;
        }
        if (st != PROXY_MORE) {
            refuse(p->l, p, "a trusted proxy's connection without a valid PROXY v2 header");
            return STEP_DONE;
        }
        /* The fixed part first, then the length it gives. */
        size_t want = p->have < 16 ? 16 : 16 + ((size_t)p->head[14] << 8 | p->head[15]);
        ssize_t n = recv(p->io.fd, p->head + p->have, want - p->have, 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            pending_drop(p->l, p, 1); /* gone before its header: a TCP health check */
            return STEP_DONE;
        }
        if (n < 0)
            return STEP_WAIT;
        p->have += (size_t)n;
    }
}

/* Any other peer: its first bytes looked at (not taken): a PROXY header
 * is refused, anything else handed over. */
static step sniff(pending *p)
{
    unsigned char first[SIGNATURE_PEEK];
    ssize_t n = recv(p->io.fd, first, sizeof first, MSG_PEEK);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        pending_drop(p->l, p, 1);
        return STEP_DONE;
    }
    if (n < 0)
        return STEP_WAIT;
    int header = proxy_begins(first, (size_t)n);
    if (header == 1) {
        refuse(p->l, p, "a PROXY header from a peer that is not a --trusted-proxy");
        return STEP_DONE;
    }
    if (header == 0) {
        int fd = p->io.fd;
        char addr[PROXY_ADDR_BYTES];
        snprintf(addr, sizeof addr, "%s", p->peer);
        listener *l = p->l;
        pending_drop(l, p, 0);
        hand_over(l, fd, addr);
        return STEP_DONE;
    }
    /* A few bytes that could begin a header: they stay readable, so
     * waiting on the socket would spin; the tick looks again. */
    if (!p->peeking) {
        p->peeking = 1;
        ev_io_stop(p->l->loop, &p->io);
    }
    return STEP_WAIT;
}

static step advance(pending *p)
{
    return p->trusted ? read_header(p) : sniff(p);
}

static void on_readable(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)loop;
    (void)revents;
    advance((pending *)w);
}

/* --- Accepting ---------------------------------------------------------------------------- */

static void accept_one(listener *l, int fd, const struct sockaddr *peer)
{
    int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    if (l->npending >= PENDING_MAX && l->oldest)
        refuse(l, l->oldest, "too many connections waiting to say what they are");
    pending *p = calloc(1, sizeof *p);
    if (!p) {
        close(fd);
        return;
    }
    p->l = l;
    p->trusted = proxy_nets_contain(l->trusted, l->ntrusted, peer);
    p->deadline_ms = monotonic_ms() + PENDING_MS;
    proxy_addr_text(peer, p->peer, sizeof p->peer);
    ev_io_init(&p->io, on_readable, fd, EV_READ);
    p->prev = l->newest;
    if (l->newest)
        l->newest->next = p;
    else
        l->oldest = p;
    l->newest = p;
    l->npending++;
    /* Its first bytes are often there already. */
    if (advance(p) == STEP_WAIT && !p->peeking)
        ev_io_start(l->loop, &p->io);
}

static void on_listen(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)revents;
    listener *l = (listener *)((char *)w - offsetof(listener, io));
    for (int i = 0; i < ACCEPTS_PER_WAKE; i++) {
        struct sockaddr_storage peer;
        socklen_t len = sizeof peer;
        int fd = accept4(l->fd, (struct sockaddr *)&peer, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) {
            accept_one(l, fd, (struct sockaddr *)&peer);
            continue;
        }
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
            /* The socket stays readable: waiting on it would spin. */
            fprintf(stderr, "carcassonne serve: cannot accept: %s\n", strerror(errno));
            ev_io_stop(loop, &l->io);
            l->paused = 1;
        }
        if (errno != EINTR && errno != ECONNABORTED)
            break;
    }
}

void listener_start(listener *l, struct ev_loop *loop, struct lws_vhost *vhost)
{
    l->loop = loop;
    l->vhost = vhost;
    ev_io_init(&l->io, on_listen, l->fd, EV_READ);
    ev_io_start(loop, &l->io);
}

void listener_tick(listener *l)
{
    if (!l->loop)
        return;
    if (l->paused) {
        l->paused = 0;
        ev_io_start(l->loop, &l->io);
    }
    int64_t now = monotonic_ms();
    while (l->oldest && l->oldest->deadline_ms <= now)
        pending_drop(l, l->oldest, 1);
    for (pending *p = l->oldest, *next; p; p = next) {
        next = p->next;
        if (p->peeking)
            advance(p);
    }
}

void listener_free(listener *l)
{
    if (!l)
        return;
    while (l->oldest)
        pending_drop(l, l->oldest, 1);
    if (l->loop)
        ev_io_stop(l->loop, &l->io);
    close(l->fd);
    free(l->addrs);
    free(l);
}
