/* tables_members.c: the connections that follow a table and the seats they hold. */
#include "tables_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tb_member_index(const srv_table *t, const srv_client *c)
{
    for (int i = 0; i < t->nmembers; i++)
        if (t->members[i].client == c)
            return i;
    return -1;
}

/* Seat `seat` gained or lost a connection: the others see it present or
 * away when that changes whether anyone is there. */
static void seat_presence(srv_tables *T, srv_table *t, int seat, int delta, const srv_client *c)
{
    if (seat < 0)
        return;
    int was = t->present[seat] > 0;
    t->present[seat] += delta;
    if ((t->present[seat] > 0) != was)
        tb_broadcast(T, t, view_seat(t, seat), c);
}

/* Makes `c` a member of `t` (a spectator until bound); -1 when it follows
 * too many tables. */
int tb_member_add(srv_table *t, srv_client *c)
{
    if (tb_member_index(t, c) >= 0)
        return 0;
    if (c->njoined == CLIENT_MAX_TABLES)
        return -1;
    if (t->nmembers == t->capmembers) {
        int cap = t->capmembers ? 2 * t->capmembers : 4;
        table_member *bigger = realloc(t->members, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return -1;
        t->members = bigger;
        t->capmembers = cap;
    }
    t->members[t->nmembers].client = c;
    t->members[t->nmembers].seat = -1;
    t->members[t->nmembers].estimates = 0;
    t->nmembers++;
    c->joined[c->njoined++] = t;
    return 0;
}

void tb_member_bind(srv_tables *T, srv_table *t, srv_client *c, int seat)
{
    int i = tb_member_index(t, c);
    if (i < 0 || t->members[i].seat == seat)
        return;
    int old = t->members[i].seat;
    t->members[i].seat = seat;
    seat_presence(T, t, old, -1, c);
    seat_presence(T, t, seat, +1, c);
}

void tb_member_remove(srv_tables *T, srv_table *t, srv_client *c)
{
    int i = tb_member_index(t, c);
    if (i < 0)
        return;
    int seat = t->members[i].seat;
    t->members[i] = t->members[--t->nmembers];
    if (t->nmembers == 0)
        t->idle_ms = tb_now_ms(T);
    for (int j = 0; j < c->njoined; j++)
        if (c->joined[j] == t) {
            c->joined[j] = c->joined[--c->njoined];
            break;
        }
    seat_presence(T, t, seat, -1, c);
}

void tables_client_gone(srv_tables *T, srv_client *c)
{
    while (c->njoined > 0)
        tb_member_remove(T, c->joined[c->njoined - 1], c);
    replays_client_gone(T->replays, c);
    outbox_forget(&T->out, c);
}

/* The seat `c` holds at `t`, or -1. */
int tb_seat_of(const srv_table *t, const srv_client *c)
{
    int i = tb_member_index(t, c);
    return i < 0 ? -1 : t->members[i].seat;
}

/* Whether seat `s` is filled: a computer's, or taken by a player. */
int tb_seat_filled(const stored_seat *s)
{
    return s->kind == SEAT_COMPUTER || s->taken;
}
