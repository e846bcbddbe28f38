/* listener.h: the server's listening socket. The server accepts its
 * connections itself, on the libev loop under libwebsockets, so that it
 * reads what comes before HTTP: from a peer in the --trusted-proxy
 * networks (a balancer), the PROXY protocol's version 2 header that says
 * whose connection it is (proxy_header.h); then it hands the socket, its
 * next byte the client's first, to libwebsockets
 * (lws_adopt_socket_vhost(), TLS included) and keeps the client's address
 * for the server (listener_addr()).
 *
 * Refused (closed, with a line on standard error): a connection from a
 * trusted peer whose first bytes are not a valid version 2 header, and one
 * from any other peer whose first bytes are a PROXY header (of either
 * version): a header from an untrusted peer never sets an address. A
 * connection that has not sent enough to tell within PENDING_MS is closed;
 * at most PENDING_MAX wait at once (the oldest goes). */
#ifndef CARC_SERVER_LISTENER_H
#define CARC_SERVER_LISTENER_H

#include <ev.h>
#include <libwebsockets.h>
#include <stddef.h>

#include "proxy_header.h"

typedef struct listener listener;

/* Listens on `host` (an address, "0.0.0.0" or "" for every IPv4 one, "::"
 * for every address) and `port` (0: a free one). `trusted`, `ntrusted`:
 * the networks whose connections carry a PROXY header (copied). NULL with
 * a message in `err` when it cannot. Nothing is accepted before
 * listener_start(). */
listener *listener_new(const char *host, int port, const proxy_net *trusted, int ntrusted,
                       char *err, size_t errcap);
/* The port it listens on. */
int listener_port(const listener *l);
/* Accepts connections on `loop` (libwebsockets' loop) into `vhost`. */
void listener_start(listener *l, struct ev_loop *loop, struct lws_vhost *vhost);
/* Closes the connections that waited too long; resumes accepting after
 * the process ran out of file descriptors. Call it every 100 ms or so. */
void listener_tick(listener *l);
/* The client's address of the adopted socket `fd` (the one its PROXY
 * header carried, else its peer's), or NULL when it was not accepted
 * here. */
const char *listener_addr(const listener *l, int fd);
/* Stops listening and closes the connections still waiting. */
void listener_free(listener *l);

#endif
