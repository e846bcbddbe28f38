/* ws_client.h: WebSocket client connections on one libwebsockets event
 * loop: many connections, one thread, text messages in and out. Used by
 * `carcassonne connect` (one connection) and the server load benchmark
 * (thousands). Every callback runs on the loop's thread. */
#ifndef CARC_WS_CLIENT_H
#define CARC_WS_CLIENT_H

#include <stddef.h>

/* A parsed ws:// URL (http:// is taken as ws://). TLS is not supported. */
typedef struct ws_url {
    char host[256];
    int port;
    char path[512]; /* "/ws" when the URL names no path */
} ws_url;

/* Parses `text` ("ws://127.0.0.1:8080", "http://host:8080/ws", "host:8080")
 * into `*out`. Returns 0, or -1 with the reason in `err`. */
int ws_url_parse(const char *text, ws_url *out, char *err, size_t errcap);

typedef struct ws_loop ws_loop;
typedef struct ws_conn ws_conn;

/* What a connection reports. `user` is the pointer given to ws_connect. */
typedef struct ws_handlers {
    /* The handshake is done: messages may be sent. */
    void (*on_open)(ws_conn *c, void *user);
    /* One whole text message (NUL-terminated; `len` without the NUL). */
    void (*on_text)(ws_conn *c, void *user, const char *text, size_t len);
    /* The connection failed or closed; `c` is freed right after. `opened`
     * says whether on_open ran. */
    void (*on_close)(ws_conn *c, void *user, int opened, const char *why);
} ws_handlers;

/* A new loop able to hold `max_conns` connections (the open-file limit is
 * raised to fit when it can be). Returns NULL with a message in `err`. */
ws_loop *ws_loop_new(int max_conns, char *err, size_t errcap);
/* Closes every connection (without calling on_close) and frees `l`. */
void ws_loop_free(ws_loop *l);
/* The connections made from now on have no idle timers (no ping after
 * minutes of silence): for a loop of thousands of connections (the load
 * bench), where libwebsockets' sorted list of them costs a walk over
 * every connection at each message. */
void ws_loop_no_idle_timers(ws_loop *l);
/* Serves events for at most about `timeout_ms` milliseconds. Returns 0, or
 * -1 when the loop failed. */
int ws_loop_run(ws_loop *l, int timeout_ms);
/* Called on the loop's thread after ws_loop_wake() (from any thread). */
void ws_loop_on_wake(ws_loop *l, void (*cb)(void *user), void *user);
void ws_loop_wake(ws_loop *l);

/* Starts connecting to `url`; the handlers report what follows. Returns
 * NULL when the connection could not even be started (then no callback
 * runs). */
ws_conn *ws_connect(ws_loop *l, const ws_url *url, const ws_handlers *h, void *user);
/* Queues one text message; it goes out as soon as the socket takes it.
 * Returns 0, or -1 when out of memory or the connection is closing. */
int ws_send(ws_conn *c, const char *text, size_t len);
/* Closes `c` (normal closure); on_close follows. */
void ws_close(ws_conn *c);
/* Closes `c` without the closing handshake, as a lost network would. */
void ws_drop(ws_conn *c);

#endif
