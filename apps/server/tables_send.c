/* tables_send.c: replies, errors and events queued for the connections (the outbox), committed
 * before they go. */
#include "tables_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t tb_now_ms(const srv_tables *T)
{
    return T->hooks.now_ms(T->hooks.ctx);
}

static srv_msg *to_msg(json_t *json)
{
    /* Reals to 6 digits: "win":0.587, not 0.58699999999999997. */
    char *text = json_dumps(json, JSON_COMPACT | JSON_REAL_PRECISION(6));
    json_decref(json);
    if (!text)
        return NULL;
    srv_msg *m = srv_msg_new(text, strlen(text));
    free(text);
    return m;
}

/* Queues `json` (taken) for `c`. */
void tb_send_to(srv_tables *T, srv_client *c, json_t *json)
{
    srv_msg *m = to_msg(json);
    if (m) {
        outbox_add(&T->out, c, m);
        srv_msg_unref(m);
    }
}

/* Queues `json` (taken) for every member of `t` but `except`. */
void tb_broadcast(srv_tables *T, const srv_table *t, json_t *json, const srv_client *except)
{
    srv_msg *m = to_msg(json);
    if (!m)
        return;
    for (int i = 0; i < t->nmembers; i++)
        if (t->members[i].client != except)
            outbox_add(&T->out, t->members[i].client, m);
    srv_msg_unref(m);
}

json_t *tb_id_json(const msg_id *id)
{
    if (!id || id->kind == MSG_ID_NONE)
        return NULL;
    return id->kind == MSG_ID_INT ? json_integer(id->number) : json_string(id->text);
}

/* Queues the success reply `fields` (taken; may be NULL) to request `r`. */
void tb_reply(srv_tables *T, srv_client *c, const msg_request *r, json_t *fields)
{
    char type[24];
    snprintf(type, sizeof type, "%s.ok", msg_type_name(r->type));
    json_t *msg = json_pack("{s:s}", "type", type);
    json_t *re = tb_id_json(&r->id);
    if (re)
        json_object_set_new(msg, "re", re);
    if (fields)
        json_object_update(msg, fields);
    json_decref(fields);
    tb_send_to(T, c, msg);
}

/* Counts an error of `c` at `now`, after forgetting those whose time has
 * passed (a leaky bucket). */
static void count_error(srv_client *c, int64_t now)
{
    if (c->errors == 0 || now < c->errors_ms)
        c->errors_ms = now;
    int64_t forgiven = (now - c->errors_ms) / CLIENT_ERROR_FORGIVEN_MS;
    if (forgiven > 0) {
        c->errors = forgiven >= c->errors ? 0 : c->errors - (int)forgiven;
        c->errors_ms += forgiven * CLIENT_ERROR_FORGIVEN_MS;
    }
    if (c->errors == 0)
        c->errors_ms = now;
    c->errors++;
}

int tables_client_abusive(const srv_client *c)
{
    return c->errors > CLIENT_MAX_ERRORS;
}

void tables_error(srv_tables *T, srv_client *c, const msg_id *id, msg_error code,
                  const char *message)
{
    if (code != ERR_RATE_LIMITED)
        count_error(c, tb_now_ms(T));
    json_t *msg = json_pack("{s:s}", "type", "error");
    json_t *re = tb_id_json(id);
    if (re)
        json_object_set_new(msg, "re", re);
    json_object_set_new(msg, "code", json_string(msg_error_name(code)));
    json_object_set_new(msg, "message", json_string(message));
    tb_send_to(T, c, msg);
}

msg_error tb_refuse(srv_tables *T, srv_client *c, const msg_request *r, msg_error code,
                    const char *message)
{
    tables_error(T, c, &r->id, code, message);
    return code;
}

int tables_flush(srv_tables *T)
{
    if (storage_commit(T->store) != 0) {
        fprintf(stderr, "carcassonne serve: commit failed: %s\n", storage_error(T->store));
        outbox_clear(&T->out);
        return -1;
    }
    outbox_release(&T->out, T->hooks.send, T->hooks.ctx);
    return 0;
}

/* Queues `json` (taken) for the members of `t` bound to `seat`. */
void tb_send_to_seat(srv_tables *T, const srv_table *t, int seat, json_t *json)
{
    for (int i = 0; i < t->nmembers; i++)
        if (t->members[i].seat == seat)
            tb_send_to(T, t->members[i].client, json_incref(json));
    json_decref(json);
}
