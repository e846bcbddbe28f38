/* tables_seats.c: making a table and taking its seats: create, join, resume, watch, reopen. */
#include "tables_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "first_seat.h"

/* The id of the table made by `create` with the request key `key`: the
 * same for a repeat, so that it finds the table. */
static void key_table_id(const char *key, char out[TABLE_ID_LEN + 1])
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    char text[MSG_KEY_BYTES + 32];
    uint8_t hash[TOKEN_HASH_BYTES];
    int n = snprintf(text, sizeof text, "carcassonne table %s", key);
    token_sha256(text, (size_t)n, hash);
    out[0] = 't';
    for (int i = 0; i < TABLE_ID_LEN - 1; i++)
        out[i + 1] = alphabet[hash[i] % 36];
    out[TABLE_ID_LEN] = '\0';
}

/* A secret for the table whose salt is `salt`: derived from the request
 * key `key` and `label` when there is a key (a repeated request makes it
 * again, token_derive), else random. Its hash goes into `hash`, its
 * hexadecimal form into `hex`. */
int tb_make_secret(const uint8_t salt[TOKEN_SECRET_BYTES], const char *key, const char *label,
                   uint8_t hash[TOKEN_HASH_BYTES], char hex[TOKEN_HEX])
{
    uint8_t secret[TOKEN_SECRET_BYTES];
    if (key[0])
        token_derive(salt, label, key, secret);
    else if (token_random(secret, sizeof secret))
        return -1;
    token_hash(secret, hash);
    token_hex(secret, sizeof secret, hex);
    return 0;
}

static void invite_label(int seat, char *out, size_t cap)
{
    snprintf(out, cap, "invite-%d", seat);
}

/* The seat of `create`'s list that plays first (`first`): 0, a random
 * one, or the draw-off's, told in `text` (FIRST_TEXT_BYTES bytes; "" for
 * the seat order). -1 when no random number could be had. */
static int choose_first(const msg_request *r, uint64_t seed, char *text)
{
    text[0] = '\0';
    if (r->nseats < CARC_MIN_PLAYERS) /* never: create checks the seats */
        return 0;
    if (r->first == FIRST_RANDOM) {
        uint32_t v;
        if (token_random(&v, sizeof v))
            return -1;
        int first = (int)(v % (uint32_t)r->nseats);
        snprintf(text, FIRST_TEXT_BYTES, "Seat %d of the list, drawn at random, plays first",
                 first + 1);
        return first;
    }
    if (r->first == FIRST_DRAW_OFF) {
        first_draw draws[FIRST_MAX_DRAWS];
        int n = 0, first = first_seat_draw_off(r->nseats, seed, draws, &n);
        first_seat_log(draws, n, first, r->nseats, text, FIRST_TEXT_BYTES);
        return first;
    }
    return 0;
}

/* Fills the row of a new table from `create`; the secrets of its seats go
 * into `token` and `invites`. The seats of the request turn so that the
 * first seat (`first`) is seat 0: the record lists players in turn order. */
static int fill_new_row(srv_tables *T, srv_client *c, const msg_request *r, stored_table *row,
                        int *me, char token[TOKEN_HEX], char invites[][TOKEN_HEX])
{
    memset(row, 0, sizeof *row);
    if (r->key[0])
        key_table_id(r->key, row->id);
    else
        tb_new_table_id(T, row->id);
    row->created_ms = tb_now_ms(T);
    row->players = r->nseats;
    row->rules = r->rules;
    row->info = r->info;
    row->clock = r->clock;
    row->listed = r->listed;
    row->estimates = r->estimates;
    row->rated = r->rated;
    row->forfeit = -1;
    snprintf(row->addr, sizeof row->addr, "%s", c->addr);
    if (token_random(&row->seed, sizeof row->seed) || token_random(row->salt, sizeof row->salt))
        return -1;
    int first = choose_first(r, row->seed, row->first_text);
    if (first < 0)
        return -1;
    int filled = 0;
    *me = -1;
    char label[24];
    for (int i = 0; i < r->nseats; i++) {
        stored_seat *s = &row->seats[i];
        invites[i][0] = '\0';
        const msg_seat *spec = &r->seats[(i + first) % r->nseats];
        switch (spec->kind) {
        case SEAT_ME:
            s->kind = SEAT_OPEN;
            s->taken = 1;
            s->account = c->account; /* a logged-in creator's seat is the account's */
            snprintf(s->name, sizeof s->name, "%s", r->name);
            if (tb_make_secret(row->salt, r->key, "create", s->token_hash, token))
                return -1;
            *me = i;
            break;
        case SEAT_OPEN: s->kind = SEAT_OPEN; break;
        case SEAT_INVITE:
            s->kind = SEAT_INVITE;
            invite_label(i, label, sizeof label);
            if (tb_make_secret(row->salt, r->key, label, s->invite_hash, invites[i]))
                return -1;
            break;
        case SEAT_COMPUTER:
            s->kind = SEAT_COMPUTER;
            snprintf(s->spec, sizeof s->spec, "%s", spec->spec);
            snprintf(s->name, sizeof s->name, "%.*s", MSG_NAME_BYTES, spec->spec);
            break;
        }
        filled += tb_seat_filled(s);
    }
    row->creator = *me;
    if (filled == row->players) {
        row->status = TABLE_PLAYING;
        row->started_ms = row->created_ms;
    }
    return 0;
}

/* The answer of `create` for table `t`: its id, commitment, the
 * creator's seat and token (`token`, when a seat is theirs) and the
 * invite codes; `c` becomes a member (bound to that seat) and gets the
 * state. */
static void create_answer(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t,
                          const char *token, char invites[][TOKEN_HEX])
{
    int me = t->row.creator;
    tb_member_add(t, c);
    json_t *fields = json_pack("{s:s, s:s}", "table", t->row.id, "commitment", t->commitment);
    if (me >= 0) {
        json_object_set_new(fields, "seat", json_integer(me));
        json_object_set_new(fields, "token", json_string(token));
        tb_member_bind(T, t, c, me);
    }
    json_t *list = json_array();
    for (int i = 0; i < t->row.players; i++)
        json_array_append_new(list, invites[i][0] ? json_string(invites[i]) : json_null());
    json_object_set_new(fields, "invites", list);
    tb_reply(T, c, r, fields);
    tb_send_to(T, c, view_state(t, tb_seat_of(t, c), tb_now_ms(T)));
}

#define KEY_CLOSED                                                                                 \
    "the table made with that key was closed: nobody came back to it for a day; use a new key"

/* A `create` repeated with the key of a table made already: the same
 * answer, made again from the key (the secrets are derived from it). 1
 * when answered (or refused), 0 when the key made no table yet. */
static int repeat_create(srv_tables *T, srv_client *c, const msg_request *r)
{
    char id[TABLE_ID_LEN + 1], label[24];
    key_table_id(r->key, id);
    srv_table *t = tb_find_table(T, id);
    if (!t && (t = tb_stored_copy(T, id))) { /* closed: find_table never loads it */
        int closed = t->row.status == TABLE_CLOSED;
        tb_free_table(t);
        t = NULL;
        if (!closed)
            return 0;
        tb_refuse(T, c, r, ERR_BAD_FIELD, KEY_CLOSED);
        return 1;
    }
    if (!t)
        return 0;
    if (t->row.status == TABLE_CLOSED) {
        tb_refuse(T, c, r, ERR_BAD_FIELD, KEY_CLOSED);
        return 1;
    }
    char token[TOKEN_HEX] = "", invites[CARC_MAX_PLAYERS][TOKEN_HEX] = {{0}};
    uint8_t hash[TOKEN_HASH_BYTES];
    int same = 1;
    if (t->row.creator >= 0) {
        tb_make_secret(t->row.salt, r->key, "create", hash, token);
        same = token_hash_equal(hash, t->row.seats[t->row.creator].token_hash);
    }
    for (int i = 0; i < t->row.players; i++) {
        if (t->row.seats[i].kind != SEAT_INVITE)
            continue;
        invite_label(i, label, sizeof label);
        tb_make_secret(t->row.salt, r->key, label, hash, invites[i]);
        same &= token_hash_equal(hash, t->row.seats[i].invite_hash);
    }
    if (!same)
        tb_refuse(T, c, r, ERR_BAD_FIELD, "that key was used for another request: use a new key");
    else if (tb_member_index(t, c) < 0 && c->njoined == CLIENT_MAX_TABLES)
        tb_refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
    else
        create_answer(T, c, r, t, token, invites);
    return 1;
}

void tb_do_create(srv_tables *T, srv_client *c, const msg_request *r)
{
    if (r->key[0] && repeat_create(T, c, r))
        return;
    if (T->live >= T->limits.max_tables) {
        tb_refuse(T, c, r, ERR_TOO_MANY, "the server holds as many tables as it may");
        return;
    }
    if (counts_get(&T->live_per_addr, c->addr) >= T->limits.max_tables_per_addr) {
        tb_refuse(T, c, r, ERR_TOO_MANY, "your address has as many open tables as it may");
        return;
    }
    if (c->njoined == CLIENT_MAX_TABLES) {
        tb_refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
        return;
    }
    const char *unrated = r->rated ? tb_rated_refusal(c, r) : NULL;
    if (unrated) {
        tb_refuse(T, c, r, ERR_BAD_FIELD, unrated);
        return;
    }
    int computers = 0;
    for (int i = 0; i < r->nseats; i++)
        computers += r->seats[i].kind == SEAT_COMPUTER;
    if (computers == r->nseats &&
        counts_get(&T->computers_per_addr, c->addr) >= T->limits.max_computer_tables_per_addr) {
        char why[160];
        snprintf(why, sizeof why,
                 "your address runs %d games of computer seats only, the most it may: wait for "
                 "one to end",
                 T->limits.max_computer_tables_per_addr);
        tb_refuse(T, c, r, ERR_TOO_MANY, why);
        return;
    }
    stored_table *row = malloc(sizeof *row);
    char token[TOKEN_HEX] = "", invites[CARC_MAX_PLAYERS][TOKEN_HEX] = {{0}};
    int me;
    srv_table *t = NULL;
    if (row && fill_new_row(T, c, r, row, &me, token, invites) == 0)
        t = tb_open_table(T, row);
    free(row);
    if (!t) {
        tb_refuse(T, c, r, ERR_INTERNAL, "the table could not be made: try again");
        return;
    }
    create_answer(T, c, r, t, token, invites);
    tb_maybe_think(T, t);
    tb_notify_turn(T, t);
}

/* The free invite seat whose code is `invite` (hex), or -1. Every seat is
 * compared, in constant time each. */
static int invited_seat(const srv_table *t, const char *invite)
{
    uint8_t code[TOKEN_SECRET_BYTES];
    if (msg_parse_token(invite, code) != 0)
        return -1;
    int found = -1;
    for (int i = 0; i < t->row.players; i++) {
        const stored_seat *s = &t->row.seats[i];
        if (token_matches(code, s->invite_hash) && s->kind == SEAT_INVITE && !s->taken)
            found = i;
    }
    return found;
}

/* The seat `r` asks for at `t`, or -1 with the error queued: `seat`, the
 * seat of the `invite` code, or the first open seat. A playing table has
 * free seats only when its creator reopened one (do_reopen). */
static int seat_to_take(srv_tables *T, srv_client *c, const srv_table *t, const msg_request *r)
{
    if (t->row.status > TABLE_PLAYING) {
        tb_refuse(T, c, r, ERR_NO_SEAT, "every seat of this table is taken");
        return -1;
    }
    if (tb_seat_of(t, c) >= 0) {
        tb_refuse(T, c, r, ERR_NO_SEAT, "this connection already has a seat at this table");
        return -1;
    }
    int seat = r->seat;
    if (seat < 0 && r->invite[0]) {
        seat = invited_seat(t, r->invite);
        if (seat < 0)
            tb_refuse(T, c, r, ERR_NO_SEAT,
                      "that invite code is not one of this table's free seats");
        return seat;
    }
    if (seat < 0) {
        for (int i = 0; i < t->row.players && seat < 0; i++)
            if (t->row.seats[i].kind == SEAT_OPEN && !t->row.seats[i].taken)
                seat = i;
        if (seat < 0)
            tb_refuse(T, c, r, ERR_NO_SEAT, "no open seat is left");
        return seat;
    }
    const stored_seat *s = &t->row.seats[seat];
    uint8_t code[TOKEN_SECRET_BYTES];
    if (seat >= t->row.players || s->taken || s->kind == SEAT_COMPUTER) {
        tb_refuse(T, c, r, ERR_NO_SEAT, "that seat does not exist or is taken");
        return -1;
    }
    if (s->kind == SEAT_INVITE &&
        (msg_parse_token(r->invite, code) != 0 || !token_matches(code, s->invite_hash))) {
        tb_refuse(T, c, r, ERR_NO_SEAT, "that seat needs its invite code");
        return -1;
    }
    return seat;
}

/* The seat of table `t` that account `account` took, or -1 (none, or
 * `account` 0: a guest). */
static int account_seat(const srv_table *t, int64_t account)
{
    for (int i = 0; account > 0 && i < t->row.players; i++)
        if (t->row.seats[i].taken && t->row.seats[i].account == account)
            return i;
    return -1;
}

/* The answer of a `join` for `seat` with `token`: `c` becomes its member. */
static void join_answer(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t, int seat,
                        const char *token)
{
    tb_member_add(t, c);
    tb_reply(T, c, r,
             json_pack("{s:s, s:i, s:s}", "table", t->row.id, "seat", seat, "token", token));
    tb_member_bind(T, t, c, seat);
}

/* A `join` repeated with the key of a join that took a seat already: the
 * same answer. 1 when answered (or refused), 0 when the key took no seat. */
static int repeat_join(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    uint8_t secret[TOKEN_SECRET_BYTES];
    token_derive(t->row.salt, "join", r->key, secret);
    int seat = tb_seat_of_token(t, secret);
    if (seat < 0)
        return 0;
    if (tb_member_index(t, c) < 0 && c->njoined == CLIENT_MAX_TABLES) {
        tb_refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
        return 1;
    }
    char token[TOKEN_HEX];
    token_hex(secret, sizeof secret, token);
    join_answer(T, c, r, t, seat, token);
    tb_send_to(T, c, view_state(t, seat, tb_now_ms(T)));
    return 1;
}

void tb_do_join(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    if (r->key[0] && repeat_join(T, c, r, t))
        return;
    if (t->row.rated && c->account <= 0) {
        tb_refuse(T, c, r, ERR_BAD_FIELD, "a rated table is for players logged in: log in first");
        return;
    }
    int seat = seat_to_take(T, c, t, r);
    if (seat < 0)
        return;
    if (tb_member_index(t, c) < 0 && c->njoined == CLIENT_MAX_TABLES) {
        tb_refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
        return;
    }
    stored_seat s = t->row.seats[seat];
    char token[TOKEN_HEX];
    if (tb_make_secret(t->row.salt, r->key, "join", s.token_hash, token)) {
        tb_refuse(T, c, r, ERR_INTERNAL, "no random numbers");
        return;
    }
    s.taken = 1;
    /* The account's seat, unless it has one here already (a second seat
     * taken from the same login is a guest's). */
    s.account = account_seat(t, c->account) < 0 ? c->account : 0;
    snprintf(s.name, sizeof s.name, "%s", r->name);
    int filled = 1;
    for (int i = 0; i < t->row.players; i++)
        filled += i != seat && tb_seat_filled(&t->row.seats[i]);
    int64_t now = tb_now_ms(T);
    int was_waiting = t->row.status == TABLE_WAITING;
    int64_t started = !was_waiting ? t->row.started_ms : filled == t->row.players ? now : 0;
    if (storage_update_seat(T->store, t->row.id, seat, &s, started) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        tb_refuse(T, c, r, ERR_INTERNAL, "the seat could not be stored");
        return;
    }
    t->row.seats[seat] = s;
    tb_seat_ratings(T, t);
    join_answer(T, c, r, t, seat, token);
    if (started && was_waiting) {
        t->row.status = TABLE_PLAYING;
        t->row.started_ms = started;
        tb_start_clocks(t, now);
        for (int i = 0; i < t->nmembers; i++)
            tb_send_to(T, t->members[i].client, view_state(t, t->members[i].seat, now));
        tb_maybe_think(T, t);
        tb_notify_turn(T, t);
    } else {
        tb_send_to(T, c, view_state(t, seat, now));
    }
}

/* The seat whose token is `token`, or -1. Every seat is compared, in
 * constant time each. */
int tb_seat_of_token(const srv_table *t, const uint8_t token[TOKEN_SECRET_BYTES])
{
    uint8_t hash[TOKEN_HASH_BYTES];
    token_hash(token, hash);
    int found = -1;
    for (int i = 0; i < t->row.players; i++)
        if (t->row.seats[i].taken && token_hash_equal(hash, t->row.seats[i].token_hash))
            found = i;
    return found;
}

static int token_given(const msg_request *r)
{
    for (size_t i = 0; i < sizeof r->token; i++)
        if (r->token[i])
            return 1;
    return 0;
}

/* `resume` with the seat's token, or without one (32 zeros count as none)
 * by a connection logged in to the account that took a seat here. */
void tb_do_resume(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    int given = token_given(r);
    int seat = given ? tb_seat_of_token(t, r->token) : account_seat(t, c->account);
    if (seat < 0) {
        tb_refuse(T, c, r, ERR_BAD_TOKEN,
                  given        ? "that is not the token of a seat of this table"
                  : c->account ? "your account has no seat at this table: resume with the token"
                               : "resume needs the seat's token (or log in to its account)");
        return;
    }
    if (tb_member_add(t, c) != 0) {
        tb_refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
        return;
    }
    tb_reply(T, c, r, json_pack("{s:s, s:i}", "table", t->row.id, "seat", seat));
    tb_member_bind(T, t, c, seat);
    tb_send_to(T, c, view_state(t, seat, tb_now_ms(T)));
}

void tb_do_watch(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    if (tb_member_add(t, c) != 0) {
        tb_refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
        return;
    }
    tb_reply(T, c, r, json_pack("{s:s}", "table", t->row.id));
    tb_send_to(T, c, view_state(t, tb_seat_of(t, c), tb_now_ms(T)));
}

/* The creator reopens seat `r->seat`, taken but away and without a move
 * yet (a join whose answer was lost): its token no longer counts, and the
 * seat can be joined again, even while the game is on. */
void tb_do_reopen(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    int seat = r->seat;
    if (t->row.creator < 0 || tb_seat_of(t, c) != t->row.creator) {
        tb_refuse(T, c, r, ERR_NOT_SEATED, "only the table's creator, in its seat, reopens a seat");
        return;
    }
    if (t->row.status > TABLE_PLAYING) {
        tb_refuse(T, c, r, ERR_GAME_OVER, "the game has ended");
        return;
    }
    const stored_seat *old = &t->row.seats[seat];
    if (seat >= t->row.players || seat == t->row.creator || old->kind == SEAT_COMPUTER ||
        !old->taken || t->present[seat] > 0 || t->row.nmoves > seat) {
        tb_refuse(T, c, r, ERR_NO_SEAT,
                  "only a taken seat that is away and has not moved yet can be reopened");
        return;
    }
    stored_seat s = *old;
    s.taken = 0;
    s.account = 0;
    s.name[0] = '\0';
    memset(s.token_hash, 0, sizeof s.token_hash);
    if (storage_update_seat(T->store, t->row.id, seat, &s, t->row.started_ms) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        tb_refuse(T, c, r, ERR_INTERNAL, "the seat could not be stored");
        return;
    }
    t->row.seats[seat] = s;
    t->rating[seat] = -1;
    tb_reply(T, c, r, json_pack("{s:s, s:i}", "table", t->row.id, "seat", seat));
    tb_broadcast(T, t, view_seat(t, seat), NULL);
}
