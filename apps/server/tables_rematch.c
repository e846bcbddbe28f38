/* tables_rematch.c: a rematch at the end of a game: when every person at
 * the table agrees, a new table with the same seats, rules and clock, the
 * seats' order turned by one, and each person's seat theirs at once. */
#include "tables_impl.h"

#include <stdio.h>
#include <string.h>

/* Whether seat `s` is a person's (one who resigned still is). */
static int person(const stored_seat *s)
{
    return s->kind != SEAT_COMPUTER || seat_resigned(s);
}

static unsigned people(const srv_table *t)
{
    unsigned bits = 0;
    for (int s = 0; s < t->row.players; s++)
        if (person(&t->row.seats[s]))
            bits |= 1u << s;
    return bits;
}

/* Tells the table where the rematch stands: `what` with the seats that
 * agree and when the ask lapses. */
static void tell(srv_tables *T, const srv_table *t, const char *what, int seat)
{
    json_t *agreed = json_array();
    for (int s = 0; s < t->row.players; s++)
        if (t->rematch_agreed & (1u << s))
            json_array_append_new(agreed, json_integer(s));
    tb_broadcast(T, t,
                 json_pack("{s:s, s:s, s:s, s:i, s:o, s:I}", "type", "rematch", "table", t->row.id,
                           "what", what, "seat", seat, "agreed", agreed, "until_ms",
                           (json_int_t)(t->rematch_ms + TABLE_REMATCH_MS)),
                 NULL);
}

/* The row of the rematch of `t`: its seats turned by one (the old seat
 * s + 1 sits at s), the people's seats taken with new tokens (into
 * `tokens`, hex, by new seat), the computers' kept; the same rules,
 * clock and options; the game begins at once. 0, or -1 (no random bytes). */
static int rematch_row(srv_tables *T, const srv_table *t, int asker, stored_table *row,
                       char tokens[][TOKEN_HEX])
{
    const stored_table *old = &t->row;
    memset(row, 0, sizeof *row);
    tb_new_table_id(T, row->id);
    row->created_ms = row->started_ms = tb_now_ms(T);
    row->status = TABLE_PLAYING;
    row->players = old->players;
    row->rules = old->rules;
    row->info = old->info;
    row->clock = old->clock;
    row->listed = 0;
    row->estimates = old->estimates;
    row->rated = old->rated;
    row->forfeit = -1;
    snprintf(row->addr, sizeof row->addr, "%s", old->addr);
    if (token_random(&row->seed, sizeof row->seed) || token_random(row->salt, sizeof row->salt))
        return -1;
    row->creator = -1;
    for (int i = 0; i < row->players; i++) {
        int from = (i + 1) % row->players;
        stored_seat *s = &row->seats[i];
        *s = old->seats[from];
        tokens[i][0] = '\0';
        memset(s->invite_hash, 0, sizeof s->invite_hash);
        if (!person(s))
            continue;
        s->kind = SEAT_OPEN;
        s->taken = 1;
        s->spec[0] = '\0';
        if (tb_make_secret(row->salt, "", "", s->token_hash, tokens[i]))
            return -1;
        if (from == asker)
            row->creator = i;
    }
    return 0;
}

/* Everyone agreed: the new table, and each person's connections get their
 * seat's token there (the others, the table's id). */
static void make_rematch(srv_tables *T, srv_table *t, int asker, srv_client *c,
                         const msg_request *r)
{
    stored_table *row = malloc(sizeof *row);
    char tokens[CARC_MAX_PLAYERS][TOKEN_HEX];
    srv_table *fresh = NULL;
    if (row && rematch_row(T, t, asker, row, tokens) == 0)
        fresh = tb_open_table(T, row);
    free(row);
    if (!fresh) {
        tb_refuse(T, c, r, ERR_INTERNAL, "the rematch could not be made: try again");
        return;
    }
    snprintf(t->rematch_table, sizeof t->rematch_table, "%s", fresh->row.id);
    tb_reply(T, c, r, json_pack("{s:s, s:s}", "what", "ready", "new_table", fresh->row.id));
    int n = t->row.players;
    for (int i = 0; i < t->nmembers; i++) {
        int old = t->members[i].seat, seat = old >= 0 ? (old - 1 + n) % n : -1;
        json_t *ev = json_pack("{s:s, s:s, s:s, s:s}", "type", "rematch", "table", t->row.id,
                               "what", "ready", "new_table", fresh->row.id);
        if (seat >= 0 && tokens[seat][0]) {
            json_object_set_new(ev, "seat", json_integer(seat));
            json_object_set_new(ev, "token", json_string(tokens[seat]));
        }
        tb_send_to(T, t->members[i].client, ev);
    }
    tb_maybe_think(T, fresh);
    tb_notify_turn(T, fresh);
}

void tb_do_rematch(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    int seat = tb_seat_of(t, c);
    if (seat < 0 || !person(&t->row.seats[seat])) {
        tb_refuse(T, c, r, ERR_NOT_SEATED, "only a person seated at the table can ask a rematch");
        return;
    }
    if (t->row.status != TABLE_FINISHED) {
        tb_refuse(T, c, r, ERR_NOT_STARTED, "a rematch is asked once the game has ended");
        return;
    }
    if (t->rematch_table[0]) {
        tb_refuse(T, c, r, ERR_BAD_FIELD, "the rematch is made already: its table is given");
        return;
    }
    int64_t now = tb_now_ms(T);
    if (t->rematch_ms && now - t->rematch_ms > TABLE_REMATCH_MS) { /* lapsed */
        t->rematch_ms = 0;
        t->rematch_agreed = 0;
    }
    if (!r->on) {
        if (!t->rematch_ms) {
            tb_refuse(T, c, r, ERR_BAD_FIELD, "no rematch asked to decline");
            return;
        }
        tb_reply(T, c, r, json_pack("{s:s}", "what", "declined"));
        tell(T, t, "declined", seat);
        t->rematch_ms = 0;
        t->rematch_agreed = 0;
        return;
    }
    if (!t->rematch_ms)
        t->rematch_ms = now;
    t->rematch_agreed |= 1u << seat;
    if ((t->rematch_agreed & people(t)) != people(t)) {
        tb_reply(T, c, r, json_pack("{s:s}", "what", "asked"));
        tell(T, t, "asked", seat);
        return;
    }
    make_rematch(T, t, seat, c, r);
}
