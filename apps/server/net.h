/* net.h: the server's network side: one libwebsockets context on one
 * service thread, HTTP (static files, /api/tables/ID/record) and the
 * WebSocket protocol carcassonne.v1 at /ws on the same port, the
 * connections accepted by the listener (listener.h). */
#ifndef CARC_SERVER_NET_H
#define CARC_SERVER_NET_H

#include "accounts.h"
#include "proxy_header.h"
#include "webhooks.h"

/* What `carcassonne serve` was asked for (serve.c fills it). */
typedef struct server_options {
    const char *host;
    int port; /* 0: a free port */
    const char *db;
    const char *relay;      /* NULL: LISTEN/NOTIFY on the PostgreSQL of `db`; "redis://..." */
    const char *static_dir; /* NULL: no static files */
    const char *puzzles;    /* the puzzle set's file; NULL: none */
    int workers;
    int max_think_ms;
    int hint_ms; /* the search of one hint or estimate (capped at max_think_ms) */
    int max_tables;
    int max_conns_per_ip;
    int max_tables_per_ip;
    int max_computer_tables_per_ip; /* ... of them with computer seats only */
    int ping_ms;                    /* a connection quiet this long is pinged ... */
    int idle_close_ms;              /* ... and closed when quiet this long (pongs count) */
    const char *tls_cert, *tls_key;
    /* --trusted-proxy: the balancers whose connections begin with a PROXY
     * protocol v2 header carrying the client's address (listener.h) */
    proxy_net trusted[PROXY_NETS_MAX];
    int ntrusted;
    int wait_for_db; /* PostgreSQL: wait for it at start (set after SERVER_RESTART) */
    /* for tests only: webhooks to http:// URLs, and to 127.0.0.0/8 and ::1 */
    webhook_policy webhooks;
    /* --password-cost: the limits of the password hashes made */
    acc_cost password_cost;
} server_options;

/* server_run()'s answer when the database was lost (PostgreSQL stopped or
 * restarted): every connection is closed and nothing unacknowledged kept;
 * run it again (it waits for the database). */
enum { SERVER_RESTART = 3 };

/* Runs the server until SIGTERM or SIGINT. Prints "listening on
 * http://HOST:PORT" to standard output when ready. Returns the exit
 * status: 0 after a clean stop, 1 on failure (a message on stderr), or
 * SERVER_RESTART. */
int server_run(const server_options *o);

#endif
