/* tables_requests.c: the request table (each type's handler and what it
 * needs: a table, a member, a seat) and its dispatch; the lobby, chat,
 * records and replays. */
#include "tables_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feature_view.h"
#include "hand_view.h"
#include "replay_view.h"

static void do_chat(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    int i = tb_member_index(t, c); /* a member: the dispatcher checked */
    int64_t now = tb_now_ms(T);
    if (c->last_chat_ms && now - c->last_chat_ms < MSG_CHAT_INTERVAL_MS) {
        tb_refuse(T, c, r, ERR_RATE_LIMITED, "one chat line a second");
        return;
    }
    if (!t->chat && !(t->chat = calloc(CHAT_KEPT, sizeof *t->chat))) {
        tb_refuse(T, c, r, ERR_INTERNAL, "out of memory");
        return;
    }
    chat_line said = {.seat = t->members[i].seat, .at_ms = now};
    snprintf(said.name, sizeof said.name, "%s", said.seat >= 0 ? t->row.seats[said.seat].name : "");
    snprintf(said.text, sizeof said.text, "%s", r->text);
    /* Kept with the table, so that a restart or another server shows it. */
    if (storage_add_chat(T->store, t->row.id, t->nchat, &said) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        tb_refuse(T, c, r, ERR_INTERNAL, "the chat line could not be stored: try again");
        return;
    }
    c->last_chat_ms = now;
    chat_line *line = &t->chat[t->nchat++ % CHAT_KEPT];
    *line = said;
    tb_reply(T, c, r, NULL);
    tb_broadcast(T, t, view_chat(line, t->row.id), NULL);
}

typedef struct lobby_ctx {
    srv_tables *T;
    json_t *list;
} lobby_ctx;

static int lobby_add(void *ctx, const char *id)
{
    lobby_ctx *L = ctx;
    srv_table *copy = NULL;
    const srv_table *t = tb_find_loaded(L->T, id);
    if (!t)
        t = copy = tb_stored_copy(L->T, id);
    if (t)
        json_array_append_new(L->list, view_lobby_entry(t));
    if (copy)
        tb_free_table(copy);
    return 0;
}

static void do_lobby(srv_tables *T, srv_client *c, const msg_request *r)
{
    json_t *list = json_array();
    int n = 0;
    if (storage_server_id(T->store) != 0) {
        /* Several servers: the tables of them all, from the database (a
         * table of another server as stored, the presence of its seats
         * not known here). */
        lobby_ctx L = {T, list};
        if (storage_list_listed(T->store, LOBBY_MAX, lobby_add, &L) != 0)
            fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        tb_reply(T, c, r, json_pack("{s:o}", "tables", list));
        return;
    }
    for (const srv_table *t = T->newest; t && n < LOBBY_MAX; t = t->older)
        if (t->row.listed && t->row.status < TABLE_FINISHED) {
            json_array_append_new(list, view_lobby_entry(t));
            n++;
        }
    tb_reply(T, c, r, json_pack("{s:o}", "tables", list));
}

/* Adds the lobby entry of table `id` with `seat` to `list` (a table run
 * by another server as stored), unless it is listed already. */
static void add_mine(srv_tables *T, json_t *list, const char *id, const uint8_t *token, int seat)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e)
    {
        if (strcmp(json_string_value(json_object_get(e, "table")), id) == 0)
            return;
    }
    srv_table *t = tb_find_table(T, id);
    srv_table *copy = t ? NULL : tb_stored_copy(T, id);
    if (copy)
        t = copy; /* run by another server */
    if (t && token)
        seat = tb_seat_of_token(t, token);
    json_t *entry = t && seat >= 0 ? view_lobby_entry(t) : NULL;
    if (copy)
        tb_free_table(copy);
    if (!entry)
        return;
    json_object_set_new(entry, "seat", json_integer(seat));
    json_array_append_new(list, entry);
}

typedef struct mine_ctx {
    srv_tables *T;
    json_t *list;
} mine_ctx;

static int add_account_seat(void *ctx, const char *id, int seat)
{
    mine_ctx *m = ctx;
    add_mine(m->T, m->list, id, NULL, seat);
    return 0;
}

/* The tables of the seats whose tokens `r` gives and, for a connection
 * logged in, its account's waiting and playing tables. */
static void do_mine(srv_tables *T, srv_client *c, const msg_request *r)
{
    json_t *list = json_array();
    for (int i = 0; i < r->nmine; i++)
        if (r->mine[i].valid)
            add_mine(T, list, r->mine[i].table, r->mine[i].token, -1);
    mine_ctx m = {T, list};
    unsigned live = 1u << TABLE_WAITING | 1u << TABLE_PLAYING;
    if (c->account > 0 &&
        storage_account_seats(T->store, c->account, live, MSG_MAX_MINE, add_account_seat, &m) != 0)
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
    tb_reply(T, c, r, json_pack("{s:o}", "tables", list));
}

static void do_record(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    char *text = view_record(t);
    if (!text) {
        tb_refuse(T, c, r, ERR_INTERNAL, "the record could not be written");
        return;
    }
    tb_reply(T, c, r,
             json_pack("{s:b, s:s}", "finished", t->row.status == TABLE_FINISHED, "record", text));
    free(text);
}

/* Sends the `replay` answer `a` to `c` for its request `id`: the kept
 * fields' text with the reply's own fields in front (a copy, no JSON
 * parsed), or the error. */
static void send_replay(srv_tables *T, srv_client *c, const msg_id *id, const replay_answer *a)
{
    if (!a->fields) {
        tables_error(T, c, id, a->code, a->error);
        return;
    }
    json_t *re = tb_id_json(id);
    char *re_text = re ? json_dumps(re, JSON_ENCODE_ANY) : NULL;
    json_decref(re);
    size_t len = strlen(a->fields) + (re_text ? strlen(re_text) : 0) + 40;
    char *text = malloc(len);
    if (text) {
        /* The fields' text begins with '{': the reply's own fields go in front. */
        int n = snprintf(text, len, "{\"type\":\"%s\",%s%s%s%s",
                         a->position ? "position.ok" : "replay.ok", re_text ? "\"re\":" : "",
                         re_text ? re_text : "", re_text ? "," : "", a->fields + 1);
        srv_msg *m = n > 0 ? srv_msg_new(text, (size_t)n) : NULL;
        if (m) {
            outbox_add(&T->out, c, m);
            srv_msg_unref(m);
        }
    }
    free(text);
    free(re_text);
}

static void send_replay_to(void *ctx, void *client, const msg_id *id, const replay_answer *a)
{
    send_replay(ctx, client, id, a);
}

/* Replays `record` here, on the service thread: only when there is no
 * worker pool (the replay hook is NULL). */
static void replay_here(srv_tables *T, srv_client *c, const msg_request *r, const char *record,
                        msg_error fails)
{
    char err[REPLAYS_ERROR_BYTES] = "out of memory";
    json_t *fields = replay_view(record, strlen(record), err, sizeof err);
    T->stats.replays_computed++;
    if (fields)
        tb_reply(T, c, r, fields);
    else
        tb_refuse(T, c, r, fails, err);
}

/* Hands the replay of `record` (with `tile` drawn next: a position; -1: a
 * whole replay) to the worker pool in the lane of the client's address,
 * or joins the same record's replay under way (`key`, and `finished`: a
 * finished table's id, or NULL); refused when the address has its
 * limit of other records under way (`what` names them) or the pool is
 * full. */
static void queue_replay(srv_tables *T, srv_client *c, const msg_request *r, const uint8_t *key,
                         const char *finished, int position, msg_error fails, const char *record,
                         int tile, const char *what)
{
    uint64_t job = 0;
    if (replays_wait(T->replays, key, finished, c->addr, position, fails, c, &r->id, &job) != 0)
        tb_refuse(T, c, r, ERR_RATE_LIMITED, what);
    else if (job == 0)
        T->stats.replays_cached++; /* it joined the same record's replay */
    else if (T->hooks.replay(T->hooks.ctx, job, c->addr, record, tile) != 0) {
        replays_cancel(T->replays, job);
        tb_refuse(T, c, r, ERR_RATE_LIMITED, "the server is busy: ask again in a moment");
    }
}

/* A record replayed move by move: a table's, or one the client sent. The
 * replay runs on the worker pool, in the lane of the client's address,
 * so that its cost never stalls the loop; the answer is kept by the
 * record's digest (a finished table's also by its id), and requests for a
 * record being replayed wait for that replay. */
static void do_replay(srv_tables *T, srv_client *c, const msg_request *r)
{
    const replay_answer *kept = r->table[0] ? replays_find(T->replays, r->table, NULL) : NULL;
    if (kept) {
        T->stats.replays_cached++;
        send_replay(T, c, &r->id, kept);
        return;
    }
    srv_table *t = r->table[0] ? tb_find_table(T, r->table) : NULL;
    if (r->table[0] && !t) {
        tb_refuse(T, c, r, ERR_NO_TABLE, "no such table");
        return;
    }
    if (t && hand_hidden(t)) { /* its record has no draws until the end */
        tb_refuse(T, c, r, ERR_BAD_FIELD, "the hands are hidden: replay the game after its end");
        return;
    }
    char *text = t ? view_record(t) : NULL;
    const char *record = t ? text : r->record;
    msg_error fails = t ? ERR_INTERNAL : ERR_ILLEGAL;
    if (!record) {
        tb_refuse(T, c, r, ERR_INTERNAL, "out of memory");
        return;
    }
    uint8_t key[TOKEN_HASH_BYTES];
    replays_key(record, strlen(record), key);
    if ((kept = replays_find(T->replays, NULL, key))) {
        T->stats.replays_cached++;
        send_replay(T, c, &r->id, kept);
    } else if (!T->hooks.replay) {
        replay_here(T, c, r, record, fails);
    } else {
        const char *finished = t && t->row.status == TABLE_FINISHED ? t->row.id : NULL;
        queue_replay(T, c, r, key, finished, 0, fails, record, -1,
                     "replays of other records from your address are being computed: ask again "
                     "when they are answered");
    }
    free(text);
}

/* The legal moves of the next turn of a record sent whole, with a tile
 * chosen as the one drawn (the browser's lessons): computed as a replay is,
 * on the worker pool in the lane of the client's address, with the same
 * limits; kept by the digest of the tile and the record. */
static void do_position(srv_tables *T, srv_client *c, const msg_request *r)
{
    const char *tile = carc_tile_id(r->tile);
    uint8_t key[TOKEN_HASH_BYTES];
    if (replays_position_key(r->record, strlen(r->record), tile, key) != 0) {
        tb_refuse(T, c, r, ERR_INTERNAL, "out of memory");
        return;
    }
    const replay_answer *kept = replays_find(T->replays, NULL, key);
    if (kept) {
        T->stats.replays_cached++;
        send_replay(T, c, &r->id, kept);
        return;
    }
    if (!T->hooks.replay) { /* no worker pool: here */
        char err[REPLAYS_ERROR_BYTES] = "out of memory";
        json_t *fields = position_view(r->record, strlen(r->record), r->tile, err, sizeof err);
        T->stats.replays_computed++;
        if (fields)
            tb_reply(T, c, r, fields);
        else
            tb_refuse(T, c, r, ERR_ILLEGAL, err);
        return;
    }
    queue_replay(T, c, r, key, NULL, 1, ERR_ILLEGAL, r->record, r->tile,
                 "replays and positions of other records from your address are being computed: "
                 "ask again when they are answered");
}

static void do_hello(srv_tables *T, srv_client *c, const msg_request *r)
{
    tb_reply(T, c, r,
             json_pack("{s:i, s:s, s:{s:i, s:i, s:i, s:i}}", "protocol", 1, "server",
                       "carcassonne " CARC_VERSION, "limits", "message_bytes", MSG_MAX_BYTES,
                       "messages_per_second", MSG_PER_SECOND, "name_bytes", MSG_NAME_BYTES,
                       "chat_bytes", MSG_CHAT_BYTES));
}

static void do_ping(srv_tables *T, srv_client *c, const msg_request *r)
{
    tb_reply(T, c, r, NULL);
}

static void do_leave(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    tb_member_remove(T, t, c);
    tb_reply(T, c, r, json_pack("{s:s}", "table", t->row.id));
}

static void do_sync(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    tb_reply(T, c, r, json_pack("{s:s}", "table", t->row.id));
    tb_send_to(T, c, view_state(t, tb_seat_of(t, c), tb_now_ms(T)));
}

static void do_features(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    tb_reply(T, c, r, features_view(t->game));
}

/* What a request needs before its handler runs; the dispatcher refuses
 * it when that is missing. */
typedef enum request_needs {
    NEEDS_NOTHING, /* no table */
    NEEDS_TABLE,   /* the table the request names */
    NEEDS_MEMBER,  /* that table, watched or joined by this connection */
    NEEDS_SEAT,    /* that table, with a seat of this connection */
} request_needs;

/* A request type: what it needs, and its handler (`plain` for requests
 * that need nothing, `at_table` for the others). */
typedef struct request_kind {
    request_needs needs;
    void (*plain)(srv_tables *T, srv_client *c, const msg_request *r);
    void (*at_table)(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t);
} request_kind;

static const request_kind requests[MSG_TYPES] = {
    [MSG_HELLO] = {NEEDS_NOTHING, do_hello, NULL},
    [MSG_PING] = {NEEDS_NOTHING, do_ping, NULL},
    [MSG_CREATE] = {NEEDS_NOTHING, tb_do_create, NULL},
    [MSG_LOBBY] = {NEEDS_NOTHING, do_lobby, NULL},
    [MSG_MINE] = {NEEDS_NOTHING, do_mine, NULL},
    [MSG_REPLAY] = {NEEDS_NOTHING, do_replay, NULL},
    [MSG_POSITION] = {NEEDS_NOTHING, do_position, NULL},
    [MSG_JOIN] = {NEEDS_TABLE, NULL, tb_do_join},
    [MSG_RESUME] = {NEEDS_TABLE, NULL, tb_do_resume},
    [MSG_WATCH] = {NEEDS_TABLE, NULL, tb_do_watch},
    [MSG_LEAVE] = {NEEDS_TABLE, NULL, do_leave},
    [MSG_RECORD] = {NEEDS_TABLE, NULL, do_record},
    [MSG_REVIEW] = {NEEDS_TABLE, NULL, tb_do_review},
    [MSG_HINT] = {NEEDS_TABLE, NULL, tb_do_hint},
    [MSG_ESTIMATE] = {NEEDS_TABLE, NULL, tb_do_estimate},
    [MSG_REOPEN] = {NEEDS_TABLE, NULL, tb_do_reopen},
    [MSG_REMATCH] = {NEEDS_TABLE, NULL, tb_do_rematch},
    [MSG_LEGAL] = {NEEDS_MEMBER, NULL, tb_do_legal},
    [MSG_SYNC] = {NEEDS_MEMBER, NULL, do_sync},
    [MSG_CHAT] = {NEEDS_MEMBER, NULL, do_chat},
    [MSG_FEATURES] = {NEEDS_MEMBER, NULL, do_features},
    [MSG_MOVE] = {NEEDS_SEAT, NULL, tb_do_move},
    [MSG_TAKEBACK] = {NEEDS_SEAT, NULL, tb_do_takeback},
    [MSG_RESIGN] = {NEEDS_SEAT, NULL, tb_do_resign},
};

void tables_request(srv_tables *T, srv_client *c, const msg_request *r)
{
    const request_kind *k = r->type < MSG_TYPES ? &requests[r->type] : NULL;
    if (!k || (k->needs == NEEDS_NOTHING ? !k->plain : !k->at_table)) {
        tb_refuse(T, c, r, ERR_UNKNOWN_TYPE, "not a known request");
        return;
    }
    if (k->needs == NEEDS_NOTHING) {
        k->plain(T, c, r);
        return;
    }
    srv_table *t = tb_find_table(T, r->table);
    if (!t)
        tb_refuse(T, c, r, ERR_NO_TABLE, "no such table");
    else if (k->needs == NEEDS_MEMBER && tb_member_index(t, c) < 0)
        tb_refuse(T, c, r, ERR_NOT_SEATED, "watch or join the table first");
    else if (k->needs == NEEDS_SEAT && tb_seat_of(t, c) < 0)
        tb_refuse(T, c, r, ERR_NOT_SEATED, "this connection has no seat at this table");
    else
        k->at_table(T, c, r, t);
}

void tables_replay_done(srv_tables *T, uint64_t job, char *fields, const char *error)
{
    if (replays_done(T->replays, job, fields, error, send_replay_to, T) >= 0)
        T->stats.replays_computed++;
}
