/* outbox.c: shared outgoing messages and the pass's ordered outbox. */
#include "outbox.h"

#include <stdlib.h>
#include <string.h>

srv_msg *srv_msg_new(const char *text, size_t len)
{
    srv_msg *m = malloc(sizeof *m + len + 1);
    if (!m)
        return NULL;
    m->refs = 1;
    m->len = len;
    memcpy(m->text, text, len);
    m->text[len] = '\0';
    return m;
}

srv_msg *srv_msg_ref(srv_msg *m)
{
    m->refs++;
    return m;
}

void srv_msg_unref(srv_msg *m)
{
    if (m && --m->refs == 0)
        free(m);
}

int outbox_add(outbox *o, struct srv_client *to, srv_msg *m)
{
    if (o->len == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 64;
        outbox_entry *bigger = realloc(o->entries, cap * sizeof *bigger);
        if (!bigger)
            return -1;
        o->entries = bigger;
        o->cap = cap;
    }
    o->entries[o->len].to = to;
    o->entries[o->len].msg = srv_msg_ref(m);
    o->len++;
    return 0;
}

void outbox_forget(outbox *o, const struct srv_client *to)
{
    for (size_t i = 0; i < o->len; i++)
        if (o->entries[i].to == to)
            o->entries[i].to = NULL;
}

void outbox_release(outbox *o, void (*deliver)(void *ctx, struct srv_client *to, srv_msg *m),
                    void *ctx)
{
    for (size_t i = 0; i < o->len; i++) {
        if (o->entries[i].to)
            deliver(ctx, o->entries[i].to, o->entries[i].msg);
        srv_msg_unref(o->entries[i].msg);
    }
    o->len = 0;
}

void outbox_clear(outbox *o)
{
    for (size_t i = 0; i < o->len; i++)
        srv_msg_unref(o->entries[i].msg);
    o->len = 0;
}

void outbox_free(outbox *o)
{
    outbox_clear(o);
    free(o->entries);
    o->entries = NULL;
    o->cap = 0;
}
