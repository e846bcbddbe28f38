/* outbox.h: outgoing messages. A message is built once and shared by every
 * connection it goes to (reference counted, service thread only); the
 * outbox holds a pass's messages in order until the pass's writes are
 * committed. */
#ifndef CARC_SERVER_OUTBOX_H
#define CARC_SERVER_OUTBOX_H

#include <stddef.h>

/* Room before each message's text for the WebSocket frame header
 * (libwebsockets' LWS_PRE, checked in net.c). */
enum { SRV_HEADROOM = 16 };

typedef struct srv_msg {
    int refs;
    size_t len;
    unsigned char headroom[SRV_HEADROOM];
    char text[]; /* `len` bytes and a NUL */
} srv_msg;

/* A new message holding a copy of `text`, with one reference; NULL when out
 * of memory. */
srv_msg *srv_msg_new(const char *text, size_t len);
srv_msg *srv_msg_ref(srv_msg *m);
/* Drops a reference; frees the message with the last one. */
void srv_msg_unref(srv_msg *m);

struct srv_client;

typedef struct outbox_entry {
    struct srv_client *to; /* NULL once that client has gone */
    srv_msg *msg;
} outbox_entry;

typedef struct outbox {
    outbox_entry *entries;
    size_t len, cap;
} outbox;

/* Queues `m` for `to`, taking a new reference; -1 when out of memory. */
int outbox_add(outbox *o, struct srv_client *to, srv_msg *m);
/* Forgets every entry for `to` (a client that closed). */
void outbox_forget(outbox *o, const struct srv_client *to);
/* Hands every entry to `deliver` in order, then empties the outbox. */
void outbox_release(outbox *o, void (*deliver)(void *ctx, struct srv_client *to, srv_msg *m),
                    void *ctx);
/* Drops every entry unsent. */
void outbox_clear(outbox *o);
void outbox_free(outbox *o);

#endif
