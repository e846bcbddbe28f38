/* tables.c: the registry of tables and the requests that act on them. */
#include "tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "counts.h"
#include "first_seat.h"
#include "feature_view.h"
#include "hand_view.h"
#include "hint_view.h"
#include "replay_view.h"
#include "replays.h"
#include "table.h"
#include "token.h"

enum {
    HASH_BUCKETS = 1 << 14,
    LOBBY_MAX = 100,
    TABLE_ID_LEN = 11, /* 't' and 10 letters and digits */
    /* Several servers on one PostgreSQL: every second, a server takes
     * over (a batch of) the tables whose server died; after a full batch,
     * the next batch at the next tick. */
    ORPHANS_MS = 1000,
    ORPHANS_PER_SWEEP = 256,
};

struct srv_tables {
    storage *store;
    srv_hooks hooks;
    srv_limits limits;
    srv_table *buckets[HASH_BUCKETS];
    srv_table *newest; /* every table in memory, newest first */
    int live;          /* waiting and playing */
    addr_counts live_per_addr;
    addr_counts computers_per_addr; /* the live tables of computer seats only */
    /* A spare game the next move is played on, so that a refused move
     * leaves the table's game as it was; it trades places with the
     * table's game after each move, so it may have any tile set. */
    carc_game *scratch;
    carc_game *view; /* a seat's view for the workers (mover_view), or NULL */
    outbox out;
    srv_replays *replays; /* `replay` answers kept, and those being computed */
    srv_stats stats;
    int64_t orphans_ms; /* the last look for tables whose server died */
    int orphans_more;   /* that look found a full batch */
};

/* --- The registry ------------------------------------------------------------------ */

static unsigned hash_id(const char *id)
{
    uint32_t h = 2166136261u;
    for (; *id; id++)
        h = (h ^ (uint8_t)*id) * 16777619u;
    return h & (HASH_BUCKETS - 1);
}

static srv_table *find_loaded(const srv_tables *T, const char *id)
{
    for (srv_table *t = T->buckets[hash_id(id)]; t; t = t->hash_next)
        if (strcmp(t->row.id, id) == 0)
            return t;
    return NULL;
}

/* Whether every seat of `row` is a computer's: nobody waits for its moves. */
static int computers_only(const stored_table *row)
{
    for (int i = 0; i < row->players; i++)
        if (row->seats[i].kind != SEAT_COMPUTER)
            return 0;
    return 1;
}

/* A table leaves or joins the live ones: the counts per address follow. */
static void count_live(srv_tables *T, const srv_table *t, int delta)
{
    T->live += delta;
    counts_add(&T->live_per_addr, t->row.addr, delta);
    if (computers_only(&t->row))
        counts_add(&T->computers_per_addr, t->row.addr, delta);
}

static void insert_table(srv_tables *T, srv_table *t)
{
    unsigned b = hash_id(t->row.id);
    t->hash_next = T->buckets[b];
    T->buckets[b] = t;
    t->older = T->newest;
    t->newer = NULL;
    if (T->newest)
        T->newest->newer = t;
    T->newest = t;
    if (t->row.status < TABLE_FINISHED)
        count_live(T, t, +1);
}

static void free_table(srv_table *t);

/* Lets go of a finished table nobody follows: it stays in storage and is
 * read again when asked for. */
static void evict_table(srv_tables *T, srv_table *t)
{
    srv_table **slot = &T->buckets[hash_id(t->row.id)];
    while (*slot != t)
        slot = &(*slot)->hash_next;
    *slot = t->hash_next;
    if (t->newer)
        t->newer->older = t->older;
    else
        T->newest = t->older;
    if (t->older)
        t->older->newer = t->newer;
    if (t->claimed)
        storage_release(T->store, t->row.id);
    free_table(t);
}

static void free_table(srv_table *t)
{
    carc_game_free(t->game);
    free(t->members);
    free(t->chat);
    free(t->review);
    free(t);
}

static void start_clocks(srv_table *t, int64_t now)
{
    t->turn_ms = now;
    for (int s = 0; s < t->row.players; s++)
        t->left_ms[s] = (int64_t)t->row.clock.seconds * 1000;
}

/* The clock of the seat that just moved, at the end of its turn. */
static void stop_clock(srv_table *t, int seat, int64_t now)
{
    if (t->row.clock.mode == CLOCK_FISCHER) {
        t->left_ms[seat] -= now - t->turn_ms;
        if (t->left_ms[seat] < 0)
            t->left_ms[seat] = 0;
        t->left_ms[seat] += (int64_t)t->row.clock.increment * 1000;
    }
    t->turn_ms = now;
}

/* The clocks replayed from the stored moves' times (a replay callback):
 * a turn's paused time (the server was stalled) was not charged. */
static void replay_clock(void *ctx, int turn, int player, const carc_event *events, int n)
{
    (void)events;
    (void)n;
    srv_table *t = ctx;
    t->turn_ms += t->row.moves[turn].paused_ms;
    stop_clock(t, player, t->row.moves[turn].at_ms);
}

/* A table in memory made from its stored row: the game replayed. */
static srv_table *table_from_row(const stored_table *row, char *err, size_t errcap)
{
    srv_table *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    t->row = *row;
    snprintf(t->first_text, sizeof t->first_text, "%s", row->first_text);
    t->thinking = -1;
    t->expiring = -1;
    t->analysing = t->analysed = t->hint_wanted = -1;
    for (int p = 0; p < CARC_MAX_PLAYERS; p++)
        t->win[p] = -1;
    token_commitment(row->salt, row->seed, t->commitment);
    start_clocks(t, row->started_ms);
    t->game = table_replay(row, replay_clock, t, err, errcap);
    if (!t->game) {
        free(t);
        return NULL;
    }
    t->turn_ms += row->paused_ms; /* the current turn's */
    return t;
}

/* The chat of `t` from its last `n` lines of `total` ever said. */
static void set_chat(srv_table *t, const chat_line *lines, int n, int total)
{
    if (n > 0 && (t->chat = calloc(CHAT_KEPT, sizeof *t->chat))) {
        /* The ring holds line i at i % CHAT_KEPT. */
        for (int k = 0; k < n; k++)
            t->chat[(total - n + k) % CHAT_KEPT] = lines[k];
        t->nchat = total;
    }
}

/* The last CHAT_KEPT chat lines of `t` and its review, from storage. A
 * failure leaves them out (the game goes on without them). */
static void load_chat_and_review(srv_tables *T, srv_table *t)
{
    chat_line *lines = malloc(CHAT_KEPT * sizeof *lines);
    int total = 0;
    int n = lines ? storage_load_chat(T->store, t->row.id, lines, CHAT_KEPT, &total) : -1;
    set_chat(t, lines, n, total);
    free(lines);
    if (n < 0 || (t->row.status == TABLE_FINISHED &&
                  storage_load_review(T->store, t->row.id, &t->review) < 0))
        fprintf(stderr, "carcassonne serve: table %s: chat or review not read: %s\n", t->row.id,
                storage_error(T->store));
}

static int64_t now_ms(const srv_tables *T);

/* A table read from storage joins the registry, its clocks going on
 * from now (the time nobody ran it is not counted against the seat to
 * move). */
static void register_table(srv_tables *T, srv_table *t)
{
    insert_table(T, t);
    t->turn_ms = now_ms(T);
    t->idle_ms = t->turn_ms;
}

/* The same, its chat and review read first. */
static void adopt_table(srv_tables *T, srv_table *t)
{
    load_chat_and_review(T, t);
    register_table(T, t);
}

/* Claimed table `id` as read after its claim (`row`; NULL: it is not
 * there): a live one becomes a claimed table, its chat still to set; a
 * finished one, or one that does not replay, is let go (NULL). */
static srv_table *claimed_table(srv_tables *T, const char *id, const stored_table *row)
{
    char err[160] = "it is not there";
    srv_table *t = NULL;
    if (row && row->status < TABLE_FINISHED)
        t = table_from_row(row, err, sizeof err);
    if (!t) {
        if (row && row->status < TABLE_FINISHED)
            fprintf(stderr, "carcassonne serve: table %s not taken over: %s\n", id, err);
        storage_release(T->store, id);
        return NULL;
    }
    t->claimed = 1;
    return t;
}

static void maybe_think(srv_tables *T, srv_table *t);

/* Takes over waiting or playing table `id` when no server runs it (its
 * server died, or another server's client asks for it): claimed first,
 * then read, so that every move its last server committed is there. */
static srv_table *take_over(srv_tables *T, const char *id, stored_table *row)
{
    if (storage_claim(T->store, id) != 1)
        return NULL;
    int found = storage_load_table(T->store, id, row);
    srv_table *t = claimed_table(T, id, found == 1 ? row : NULL);
    if (t) {
        adopt_table(T, t);
        maybe_think(T, t);
    }
    return t;
}

/* The table `id`, from memory, or else read from storage: a finished
 * table that was let go, or a live one no server runs (taken over); NULL
 * when there is none, or another server runs it. */
static srv_table *find_table(srv_tables *T, const char *id)
{
    srv_table *t = find_loaded(T, id);
    if (t || strlen(id) != TABLE_ID_LEN)
        return t;
    stored_table *row = malloc(sizeof *row);
    char err[160];
    int found = row ? storage_load_table(T->store, id, row) : -1;
    if (found == 1 && row->status == TABLE_FINISHED) {
        t = table_from_row(row, err, sizeof err);
        if (t) {
            load_chat_and_review(T, t);
            insert_table(T, t);
        }
    } else if (found == 1 && row->status < TABLE_FINISHED) {
        t = take_over(T, id, row);
    }
    free(row);
    return t;
}

/* Table `id` as stored, for a view only (another server runs it): not
 * kept, freed by the caller (free_table()); NULL when there is none. */
static srv_table *stored_copy(srv_tables *T, const char *id)
{
    stored_table *row = malloc(sizeof *row);
    char err[160];
    srv_table *t = NULL;
    if (row && strlen(id) == TABLE_ID_LEN && storage_load_table(T->store, id, row) == 1)
        t = table_from_row(row, err, sizeof err);
    free(row);
    return t;
}

int tables_loaded(const srv_tables *T, const char *id)
{
    return find_loaded(T, id) != NULL;
}

int tables_has(srv_tables *T, const char *id)
{
    return find_table(T, id) != NULL;
}

const srv_stats *tables_stats(const srv_tables *T)
{
    return &T->stats;
}

int tables_live(const srv_tables *T)
{
    return T->live;
}

srv_tables *tables_new(storage *store, const srv_hooks *hooks, const srv_limits *limits)
{
    srv_tables *T = calloc(1, sizeof *T);
    if (!T)
        return NULL;
    T->store = store;
    T->hooks = *hooks;
    T->limits = *limits;
    T->scratch = carc_game_new(CARC_MIN_PLAYERS, NULL, 1);
    T->replays = replays_new();
    if (!T->scratch || !T->replays) {
        carc_game_free(T->scratch);
        replays_free(T->replays);
        free(T);
        return NULL;
    }
    return T;
}

void tables_free(srv_tables *T)
{
    if (!T)
        return;
    for (srv_table *t = T->newest; t;) {
        srv_table *older = t->older;
        free_table(t);
        t = older;
    }
    outbox_free(&T->out);
    replays_free(T->replays);
    counts_clear(&T->live_per_addr);
    counts_clear(&T->computers_per_addr);
    carc_game_free(T->scratch);
    carc_game_free(T->view);
    free(T);
}

/* --- Sending -------------------------------------------------------------------------- */

static int64_t now_ms(const srv_tables *T)
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
static void send_to(srv_tables *T, srv_client *c, json_t *json)
{
    srv_msg *m = to_msg(json);
    if (m) {
        outbox_add(&T->out, c, m);
        srv_msg_unref(m);
    }
}

/* Queues `json` (taken) for every member of `t` but `except`. */
static void broadcast(srv_tables *T, const srv_table *t, json_t *json, const srv_client *except)
{
    srv_msg *m = to_msg(json);
    if (!m)
        return;
    for (int i = 0; i < t->nmembers; i++)
        if (t->members[i].client != except)
            outbox_add(&T->out, t->members[i].client, m);
    srv_msg_unref(m);
}

static json_t *id_json(const msg_id *id)
{
    if (!id || id->kind == MSG_ID_NONE)
        return NULL;
    return id->kind == MSG_ID_INT ? json_integer(id->number) : json_string(id->text);
}

/* Queues the success reply `fields` (taken; may be NULL) to request `r`. */
static void reply(srv_tables *T, srv_client *c, const msg_request *r, json_t *fields)
{
    char type[24];
    snprintf(type, sizeof type, "%s.ok", msg_type_name(r->type));
    json_t *msg = json_pack("{s:s}", "type", type);
    json_t *re = id_json(&r->id);
    if (re)
        json_object_set_new(msg, "re", re);
    if (fields)
        json_object_update(msg, fields);
    json_decref(fields);
    send_to(T, c, msg);
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
        count_error(c, now_ms(T));
    json_t *msg = json_pack("{s:s}", "type", "error");
    json_t *re = id_json(id);
    if (re)
        json_object_set_new(msg, "re", re);
    json_object_set_new(msg, "code", json_string(msg_error_name(code)));
    json_object_set_new(msg, "message", json_string(message));
    send_to(T, c, msg);
}

static msg_error refuse(srv_tables *T, srv_client *c, const msg_request *r, msg_error code,
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

/* --- Members --------------------------------------------------------------------------- */

static int member_index(const srv_table *t, const srv_client *c)
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
        broadcast(T, t, view_seat(t, seat), c);
}

/* Makes `c` a member of `t` (a spectator until bound); -1 when it follows
 * too many tables. */
static int member_add(srv_table *t, srv_client *c)
{
    if (member_index(t, c) >= 0)
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

static void member_bind(srv_tables *T, srv_table *t, srv_client *c, int seat)
{
    int i = member_index(t, c);
    if (i < 0 || t->members[i].seat == seat)
        return;
    int old = t->members[i].seat;
    t->members[i].seat = seat;
    seat_presence(T, t, old, -1, c);
    seat_presence(T, t, seat, +1, c);
}

static void member_remove(srv_tables *T, srv_table *t, srv_client *c)
{
    int i = member_index(t, c);
    if (i < 0)
        return;
    int seat = t->members[i].seat;
    t->members[i] = t->members[--t->nmembers];
    if (t->nmembers == 0)
        t->idle_ms = now_ms(T);
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
        member_remove(T, c->joined[c->njoined - 1], c);
    replays_client_gone(T->replays, c);
    outbox_forget(&T->out, c);
}

/* The seat `c` holds at `t`, or -1. */
static int seat_of(const srv_table *t, const srv_client *c)
{
    int i = member_index(t, c);
    return i < 0 ? -1 : t->members[i].seat;
}

/* --- The game ------------------------------------------------------------------------ */

static int seat_filled(const stored_seat *s)
{
    return s->kind == SEAT_COMPUTER || s->taken;
}

/* What the player to move may know of `t`'s game: with hidden hands its
 * seat's view (carc_game_seat_view: the others' hands and the pile dealt
 * again from the tiles it has not seen), so that a computer player, a hint
 * or an estimate cannot peek; else the game itself. A view is made in
 * T->view; NULL when out of memory. */
static const carc_game *mover_view(srv_tables *T, const srv_table *t)
{
    if (!hand_hidden(t))
        return t->game;
    if (!T->view || carc_game_copy(T->view, t->game) != CARC_OK) {
        carc_game_free(T->view);
        T->view = carc_game_clone(t->game);
        if (!T->view)
            return NULL;
    }
    uint64_t seed = 1;
    token_random(&seed, sizeof seed);
    carc_game_seat_view(T->view, t->game, carc_game_current_player(t->game), seed);
    return T->view;
}

/* Asks the workers for a move of `spec` for the player to move; 0 when
 * queued. */
static int think(srv_tables *T, srv_table *t, const char *spec)
{
    const carc_game *g = mover_view(T, t);
    return g ? T->hooks.think(T->hooks.ctx, t->row.id, t->row.addr, t->row.nmoves, g, spec) : -1;
}

static void maybe_think(srv_tables *T, srv_table *t)
{
    if (t->row.status != TABLE_PLAYING || carc_game_over(t->game))
        return;
    int turn = t->row.nmoves, seat = carc_game_current_player(t->game);
    if (t->row.seats[seat].kind != SEAT_COMPUTER || t->thinking == turn)
        return;
    if (think(T, t, t->row.seats[seat].spec) == 0)
        t->thinking = turn;
}

/* --- The engine's analysis: hints and estimates --------------------------------------- */

static int wants_estimates(const srv_table *t)
{
    for (int i = 0; i < t->nmembers; i++)
        if (t->members[i].estimates)
            return 1;
    return 0;
}

/* Asks for the analysis of the current turn when someone wants it (a hint
 * of this turn, or estimates) and it is neither known nor asked. At most
 * one job per table: while an older turn's job runs, its stale answer
 * asks again (tables_analysis_done). */
static void maybe_analyse(srv_tables *T, srv_table *t)
{
    int turn = t->row.nmoves;
    if (t->row.status != TABLE_PLAYING || !t->row.estimates || !T->hooks.analyse ||
        t->analysing >= 0 || t->analysed == turn)
        return;
    if (t->hint_wanted != turn && !wants_estimates(t))
        return;
    /* With hidden hands a computer's turn is not analysed: its estimate,
     * from that seat's view, would tell of its hidden hand. */
    if (hand_hidden(t) && t->row.seats[carc_game_current_player(t->game)].kind == SEAT_COMPUTER)
        return;
    const carc_game *g = mover_view(T, t);
    if (g && T->hooks.analyse(T->hooks.ctx, t->row.id, t->row.addr, turn, g) == 0)
        t->analysing = turn;
}

/* Queues `json` (taken) for the members of `t` bound to `seat`. */
static void send_to_seat(srv_tables *T, const srv_table *t, int seat, json_t *json)
{
    for (int i = 0; i < t->nmembers; i++)
        if (t->members[i].seat == seat)
            send_to(T, t->members[i].client, json_incref(json));
    json_decref(json);
}

static void send_estimates(srv_tables *T, const srv_table *t)
{
    json_t *event = estimate_event(t);
    for (int i = 0; i < t->nmembers; i++)
        if (t->members[i].estimates)
            send_to(T, t->members[i].client, json_incref(event));
    json_decref(event);
}

/* Closes a waiting table nobody came back to: it leaves the lobby and the
 * limits. */
static void close_idle_table(srv_tables *T, srv_table *t)
{
    if (storage_set_status(T->store, t->row.id, TABLE_CLOSED, -1) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        return;
    }
    t->row.status = TABLE_CLOSED;
    count_live(T, t, -1);
}

static void finish_table(srv_tables *T, srv_table *t)
{
    if (t->row.status != TABLE_FINISHED) {
        t->row.status = TABLE_FINISHED;
        count_live(T, t, -1);
    }
}

/* Makes the scratch game a copy of `g`: copied in place when it has the
 * tile set of `g`, else made again. 0, or -1 when out of memory. */
static int scratch_copy(srv_tables *T, const carc_game *g)
{
    if (carc_game_copy(T->scratch, g) == CARC_OK)
        return 0;
    carc_game *copy = carc_game_clone(g);
    if (!copy)
        return -1;
    carc_game_free(T->scratch);
    T->scratch = copy;
    return 0;
}

/* Sends the move event of move `turn` to every member: one event for all,
 * or with hands one per member, showing only what its seat may see. */
static void broadcast_move(srv_tables *T, const srv_table *t, int turn, int player,
                           const stored_move *sm, const carc_event *events, int nevents)
{
    if (carc_game_rules(t->game).hand == 0) {
        broadcast(T, t,
                  view_move(t, turn, player, sm->text, sm->by, events, nevents, sm->at_ms, -1),
                  NULL);
        return;
    }
    for (int i = 0; i < t->nmembers; i++)
        send_to(T, t->members[i].client,
                view_move(t, turn, player, sm->text, sm->by, events, nevents, sm->at_ms,
                          t->members[i].seat));
}

/* Stores the move `sm` played on the scratch game, which becomes the
 * table's game, with the turn's paused time (sm->paused_ms is set), then
 * queues the reply to `mover` (when not NULL) and the events. `forfeit`
 * is the seat that lost by forfeit, or -1. */
static msg_error commit_move(srv_tables *T, srv_table *t, stored_move *sm, const carc_event *events,
                             int nevents, int forfeit, srv_client *mover, const msg_request *r)
{
    int turn = t->row.nmoves, player = carc_game_current_player(t->game);
    int over = carc_game_over(T->scratch);
    sm->paused_ms = t->row.paused_ms;
    table_status status = over ? TABLE_FINISHED : TABLE_PLAYING;
    if (storage_append_move(T->store, t->row.id, turn, sm, status, forfeit) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        return mover ? refuse(T, mover, r, ERR_INTERNAL, "the move could not be stored")
                     : ERR_INTERNAL;
    }
    carc_game *played = T->scratch;
    T->scratch = t->game;
    t->game = played;
    t->row.moves[turn] = *sm;
    t->row.nmoves++;
    t->row.paused_ms = 0;
    if (sm->by == BY_COMPUTER && t->row.seats[player].kind != SEAT_COMPUTER)
        t->timed_out[player]++;
    else if (sm->by == BY_PLAYER)
        t->timed_out[player] = 0;
    t->row.forfeit = forfeit;
    t->thinking = -1;
    if (t->analysing >= 0 && T->hooks.cancel_analysis)
        T->hooks.cancel_analysis(T->hooks.ctx, t->row.id, t->row.nmoves);
    stop_clock(t, player, sm->at_ms);
    if (mover)
        reply(T, mover, r, json_pack("{s:i}", "turn", turn));
    broadcast_move(T, t, turn, player, sm, events, nevents);
    if (over) {
        finish_table(T, t);
        broadcast(T, t, view_end(t), NULL);
    } else {
        maybe_think(T, t);
        maybe_analyse(T, t);
    }
    return ERR_NONE;
}

/* Plays `text` for the seat to move, made `by` a player or the computer:
 * a placement or a discard of the drawn (or a held) tile, and nothing
 * else. The words of the notation that only the server writes (`end`,
 * `draw`, `start`, headers) are refused as illegal, with no change. On
 * success stores the move and queues the reply to `mover` (when not
 * NULL) and the events. */
static msg_error apply_move(srv_tables *T, srv_table *t, const char *text, move_by by,
                            srv_client *mover, const msg_request *r)
{
    carc_event events[CARC_MAX_EVENTS];
    int nevents = 0;
    stored_move sm = {.by = by, .at_ms = now_ms(T)};
    char why[160] = "";
    carc_move m;
    carc_status st = carc_move_parse_message(t->game, text, &m, why, sizeof why);
    if (st == CARC_EOVER)
        return mover ? refuse(T, mover, r, ERR_GAME_OVER, "the game has ended") : ERR_GAME_OVER;
    if (st == CARC_OK && t->row.nmoves >= STORED_MAX_MOVES) {
        st = CARC_EILLEGAL;
        snprintf(why, sizeof why, "the table holds no more moves");
    }
    if (st == CARC_OK && scratch_copy(T, t->game) != 0)
        return mover ? refuse(T, mover, r, ERR_INTERNAL, "out of memory") : ERR_INTERNAL;
    if (st == CARC_OK) {
        carc_move_write(t->game, m, sm.text, sizeof sm.text);
        st = carc_game_play(T->scratch, m, events, CARC_MAX_EVENTS, &nevents);
        if (st != CARC_OK)
            snprintf(why, sizeof why, "%s", carc_game_error(T->scratch));
    }
    if (st != CARC_OK) {
        if (!why[0])
            snprintf(why, sizeof why, "not a placement or a discard");
        return mover ? refuse(T, mover, r, ERR_ILLEGAL, why) : ERR_ILLEGAL;
    }
    return commit_move(T, t, &sm, events, nevents, -1, mover, r);
}

/* Ends the game now: the server's `end` line and the final scoring, the
 * seat `forfeit` losing by forfeit (its clock ran out). Only the server
 * calls this; no client's text reaches it. */
static msg_error forfeit_table(srv_tables *T, srv_table *t, int forfeit)
{
    carc_event events[CARC_MAX_EVENTS];
    int nevents = 0;
    stored_move sm = {.by = BY_SERVER, .at_ms = now_ms(T)};
    snprintf(sm.text, sizeof sm.text, "end");
    if (t->row.nmoves >= STORED_MAX_MOVES || scratch_copy(T, t->game) != 0)
        return ERR_INTERNAL;
    if (carc_game_finish(T->scratch, events, CARC_MAX_EVENTS, &nevents) != CARC_OK)
        return ERR_GAME_OVER;
    return commit_move(T, t, &sm, events, nevents, forfeit, NULL, NULL);
}

/* --- Requests ---------------------------------------------------------------------------- */

static void new_table_id(char out[TABLE_ID_LEN + 1])
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    uint8_t bytes[TABLE_ID_LEN - 1];
    token_random(bytes, sizeof bytes);
    out[0] = 't';
    for (int i = 0; i < TABLE_ID_LEN - 1; i++)
        out[i + 1] = alphabet[bytes[i] % 36];
    out[TABLE_ID_LEN] = '\0';
}

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
static int make_secret(const uint8_t salt[TOKEN_SECRET_BYTES], const char *key, const char *label,
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
        do
            new_table_id(row->id);
        while (find_loaded(T, row->id));
    row->created_ms = now_ms(T);
    row->players = r->nseats;
    row->rules = r->rules;
    row->hand = r->hand;
    row->expansions = r->expansions;
    row->hand = r->hand;
    row->table_w = r->table_w;
    row->table_h = r->table_h;
    row->info = r->info;
    row->clock = r->clock;
    row->listed = r->listed;
    row->estimates = r->estimates;
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
            snprintf(s->name, sizeof s->name, "%s", r->name);
            if (make_secret(row->salt, r->key, "create", s->token_hash, token))
                return -1;
            *me = i;
            break;
        case SEAT_OPEN: s->kind = SEAT_OPEN; break;
        case SEAT_INVITE:
            s->kind = SEAT_INVITE;
            invite_label(i, label, sizeof label);
            if (make_secret(row->salt, r->key, label, s->invite_hash, invites[i]))
                return -1;
            break;
        case SEAT_COMPUTER:
            s->kind = SEAT_COMPUTER;
            snprintf(s->spec, sizeof s->spec, "%s", spec->spec);
            snprintf(s->name, sizeof s->name, "%.*s", MSG_NAME_BYTES, spec->spec);
            break;
        }
        filled += seat_filled(s);
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
    member_add(t, c);
    json_t *fields = json_pack("{s:s, s:s}", "table", t->row.id, "commitment", t->commitment);
    if (me >= 0) {
        json_object_set_new(fields, "seat", json_integer(me));
        json_object_set_new(fields, "token", json_string(token));
        member_bind(T, t, c, me);
    }
    json_t *list = json_array();
    for (int i = 0; i < t->row.players; i++)
        json_array_append_new(list, invites[i][0] ? json_string(invites[i]) : json_null());
    json_object_set_new(fields, "invites", list);
    reply(T, c, r, fields);
    send_to(T, c, view_state(t, seat_of(t, c), now_ms(T)));
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
    srv_table *t = find_table(T, id);
    if (!t && (t = stored_copy(T, id))) { /* closed: find_table never loads it */
        int closed = t->row.status == TABLE_CLOSED;
        free_table(t);
        t = NULL;
        if (!closed)
            return 0;
        refuse(T, c, r, ERR_BAD_FIELD, KEY_CLOSED);
        return 1;
    }
    if (!t)
        return 0;
    if (t->row.status == TABLE_CLOSED) {
        refuse(T, c, r, ERR_BAD_FIELD, KEY_CLOSED);
        return 1;
    }
    char token[TOKEN_HEX] = "", invites[CARC_MAX_PLAYERS][TOKEN_HEX] = {{0}};
    uint8_t hash[TOKEN_HASH_BYTES];
    int same = 1;
    if (t->row.creator >= 0) {
        make_secret(t->row.salt, r->key, "create", hash, token);
        same = token_hash_equal(hash, t->row.seats[t->row.creator].token_hash);
    }
    for (int i = 0; i < t->row.players; i++) {
        if (t->row.seats[i].kind != SEAT_INVITE)
            continue;
        invite_label(i, label, sizeof label);
        make_secret(t->row.salt, r->key, label, hash, invites[i]);
        same &= token_hash_equal(hash, t->row.seats[i].invite_hash);
    }
    if (!same)
        refuse(T, c, r, ERR_BAD_FIELD, "that key was used for another request: use a new key");
    else if (member_index(t, c) < 0 && c->njoined == CLIENT_MAX_TABLES)
        refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
    else
        create_answer(T, c, r, t, token, invites);
    return 1;
}

static void do_create(srv_tables *T, srv_client *c, const msg_request *r)
{
    if (r->key[0] && repeat_create(T, c, r))
        return;
    if (T->live >= T->limits.max_tables) {
        refuse(T, c, r, ERR_TOO_MANY, "the server holds as many tables as it may");
        return;
    }
    if (counts_get(&T->live_per_addr, c->addr) >= T->limits.max_tables_per_addr) {
        refuse(T, c, r, ERR_TOO_MANY, "your address has as many open tables as it may");
        return;
    }
    if (c->njoined == CLIENT_MAX_TABLES) {
        refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
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
        refuse(T, c, r, ERR_TOO_MANY, why);
        return;
    }
    stored_table *row = malloc(sizeof *row);
    char token[TOKEN_HEX] = "", invites[CARC_MAX_PLAYERS][TOKEN_HEX] = {{0}}, err[160];
    int me;
    srv_table *t = NULL;
    if (row && fill_new_row(T, c, r, row, &me, token, invites) == 0)
        t = table_from_row(row, err, sizeof err);
    free(row);
    if (!t) {
        refuse(T, c, r, ERR_INTERNAL, "the table could not be made");
        return;
    }
    /* This process runs it (claimed before it exists: nobody else can). */
    if (storage_claim(T->store, t->row.id) != 1) {
        fprintf(stderr, "carcassonne serve: table %s not claimed: %s\n", t->row.id,
                storage_error(T->store));
        free_table(t);
        refuse(T, c, r, ERR_INTERNAL, "the table could not be made: try again");
        return;
    }
    t->claimed = 1;
    if (storage_create_table(T->store, &t->row) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        storage_release(T->store, t->row.id);
        free_table(t);
        refuse(T, c, r, ERR_INTERNAL, "the table could not be stored");
        return;
    }
    insert_table(T, t);
    start_clocks(t, t->row.created_ms);
    t->idle_ms = t->row.created_ms;
    create_answer(T, c, r, t, token, invites);
    maybe_think(T, t);
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
        refuse(T, c, r, ERR_NO_SEAT, "every seat of this table is taken");
        return -1;
    }
    if (seat_of(t, c) >= 0) {
        refuse(T, c, r, ERR_NO_SEAT, "this connection already has a seat at this table");
        return -1;
    }
    int seat = r->seat;
    if (seat < 0 && r->invite[0]) {
        seat = invited_seat(t, r->invite);
        if (seat < 0)
            refuse(T, c, r, ERR_NO_SEAT, "that invite code is not one of this table's free seats");
        return seat;
    }
    if (seat < 0) {
        for (int i = 0; i < t->row.players && seat < 0; i++)
            if (t->row.seats[i].kind == SEAT_OPEN && !t->row.seats[i].taken)
                seat = i;
        if (seat < 0)
            refuse(T, c, r, ERR_NO_SEAT, "no open seat is left");
        return seat;
    }
    const stored_seat *s = &t->row.seats[seat];
    uint8_t code[TOKEN_SECRET_BYTES];
    if (seat >= t->row.players || s->taken || s->kind == SEAT_COMPUTER) {
        refuse(T, c, r, ERR_NO_SEAT, "that seat does not exist or is taken");
        return -1;
    }
    if (s->kind == SEAT_INVITE &&
        (msg_parse_token(r->invite, code) != 0 || !token_matches(code, s->invite_hash))) {
        refuse(T, c, r, ERR_NO_SEAT, "that seat needs its invite code");
        return -1;
    }
    return seat;
}

static int seat_of_token(const srv_table *t, const uint8_t token[TOKEN_SECRET_BYTES]);

/* The answer of a `join` for `seat` with `token`: `c` becomes its member. */
static void join_answer(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t, int seat,
                        const char *token)
{
    member_add(t, c);
    reply(T, c, r, json_pack("{s:s, s:i, s:s}", "table", t->row.id, "seat", seat, "token", token));
    member_bind(T, t, c, seat);
}

/* A `join` repeated with the key of a join that took a seat already: the
 * same answer. 1 when answered (or refused), 0 when the key took no seat. */
static int repeat_join(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    uint8_t secret[TOKEN_SECRET_BYTES];
    token_derive(t->row.salt, "join", r->key, secret);
    int seat = seat_of_token(t, secret);
    if (seat < 0)
        return 0;
    if (member_index(t, c) < 0 && c->njoined == CLIENT_MAX_TABLES) {
        refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
        return 1;
    }
    char token[TOKEN_HEX];
    token_hex(secret, sizeof secret, token);
    join_answer(T, c, r, t, seat, token);
    send_to(T, c, view_state(t, seat, now_ms(T)));
    return 1;
}

static void do_join(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    if (r->key[0] && repeat_join(T, c, r, t))
        return;
    int seat = seat_to_take(T, c, t, r);
    if (seat < 0)
        return;
    if (member_index(t, c) < 0 && c->njoined == CLIENT_MAX_TABLES) {
        refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
        return;
    }
    stored_seat s = t->row.seats[seat];
    char token[TOKEN_HEX];
    if (make_secret(t->row.salt, r->key, "join", s.token_hash, token)) {
        refuse(T, c, r, ERR_INTERNAL, "no random numbers");
        return;
    }
    s.taken = 1;
    snprintf(s.name, sizeof s.name, "%s", r->name);
    int filled = 1;
    for (int i = 0; i < t->row.players; i++)
        filled += i != seat && seat_filled(&t->row.seats[i]);
    int64_t now = now_ms(T);
    int was_waiting = t->row.status == TABLE_WAITING;
    int64_t started = !was_waiting ? t->row.started_ms : filled == t->row.players ? now : 0;
    if (storage_update_seat(T->store, t->row.id, seat, &s, started) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        refuse(T, c, r, ERR_INTERNAL, "the seat could not be stored");
        return;
    }
    t->row.seats[seat] = s;
    join_answer(T, c, r, t, seat, token);
    if (started && was_waiting) {
        t->row.status = TABLE_PLAYING;
        t->row.started_ms = started;
        start_clocks(t, now);
        for (int i = 0; i < t->nmembers; i++)
            send_to(T, t->members[i].client, view_state(t, t->members[i].seat, now));
        maybe_think(T, t);
    } else {
        send_to(T, c, view_state(t, seat, now));
    }
}

/* The seat whose token is `token`, or -1. Every seat is compared, in
 * constant time each. */
static int seat_of_token(const srv_table *t, const uint8_t token[TOKEN_SECRET_BYTES])
{
    uint8_t hash[TOKEN_HASH_BYTES];
    token_hash(token, hash);
    int found = -1;
    for (int i = 0; i < t->row.players; i++)
        if (t->row.seats[i].taken && token_hash_equal(hash, t->row.seats[i].token_hash))
            found = i;
    return found;
}

static void do_resume(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    int seat = seat_of_token(t, r->token);
    if (seat < 0) {
        refuse(T, c, r, ERR_BAD_TOKEN, "that is not the token of a seat of this table");
        return;
    }
    if (member_add(t, c) != 0) {
        refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
        return;
    }
    reply(T, c, r, json_pack("{s:s, s:i}", "table", t->row.id, "seat", seat));
    member_bind(T, t, c, seat);
    send_to(T, c, view_state(t, seat, now_ms(T)));
}

static void do_watch(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    if (member_add(t, c) != 0) {
        refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
        return;
    }
    reply(T, c, r, json_pack("{s:s}", "table", t->row.id));
    send_to(T, c, view_state(t, seat_of(t, c), now_ms(T)));
}

static void do_move(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    int seat = seat_of(t, c);
    if (seat < 0)
        refuse(T, c, r, ERR_NOT_SEATED, "this connection has no seat at this table");
    else if (t->row.status == TABLE_WAITING)
        refuse(T, c, r, ERR_NOT_STARTED, "the game has not started: seats are still empty");
    else if (t->row.status == TABLE_FINISHED)
        refuse(T, c, r, ERR_GAME_OVER, "the game has ended");
    else if (r->turn != t->row.nmoves)
        refuse(T, c, r, ERR_STALE, "that is not the current turn: ask 'sync'");
    else if (carc_game_current_player(t->game) != seat)
        refuse(T, c, r, ERR_NOT_YOUR_TURN, "another seat is to move");
    else
        apply_move(T, t, r->move, BY_PLAYER, c, r);
}

static void do_legal(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    if (member_index(t, c) < 0)
        refuse(T, c, r, ERR_NOT_SEATED, "watch or join the table first");
    else if (t->row.status == TABLE_WAITING)
        refuse(T, c, r, ERR_NOT_STARTED, "the game has not started");
    else if (t->row.status == TABLE_FINISHED)
        refuse(T, c, r, ERR_GAME_OVER, "the game has ended");
    else if (!hand_visible(t, seat_of(t, c), carc_game_current_player(t->game)))
        refuse(T, c, r, ERR_NOT_YOUR_TURN, "the hand to play is hidden: only its player may ask");
    else
        reply(T, c, r, view_legal(t));
}

static void do_chat(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    int i = member_index(t, c);
    int64_t now = now_ms(T);
    if (i < 0) {
        refuse(T, c, r, ERR_NOT_SEATED, "watch or join the table first");
        return;
    }
    if (c->last_chat_ms && now - c->last_chat_ms < MSG_CHAT_INTERVAL_MS) {
        refuse(T, c, r, ERR_RATE_LIMITED, "one chat line a second");
        return;
    }
    if (!t->chat && !(t->chat = calloc(CHAT_KEPT, sizeof *t->chat))) {
        refuse(T, c, r, ERR_INTERNAL, "out of memory");
        return;
    }
    chat_line said = {.seat = t->members[i].seat, .at_ms = now};
    snprintf(said.name, sizeof said.name, "%s", said.seat >= 0 ? t->row.seats[said.seat].name : "");
    snprintf(said.text, sizeof said.text, "%s", r->text);
    /* Kept with the table, so that a restart or another server shows it. */
    if (storage_add_chat(T->store, t->row.id, t->nchat, &said) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        refuse(T, c, r, ERR_INTERNAL, "the chat line could not be stored: try again");
        return;
    }
    c->last_chat_ms = now;
    chat_line *line = &t->chat[t->nchat++ % CHAT_KEPT];
    *line = said;
    reply(T, c, r, NULL);
    broadcast(T, t, view_chat(line, t->row.id), NULL);
}

typedef struct lobby_ctx {
    srv_tables *T;
    json_t *list;
} lobby_ctx;

static int lobby_add(void *ctx, const char *id)
{
    lobby_ctx *L = ctx;
    srv_table *copy = NULL;
    const srv_table *t = find_loaded(L->T, id);
    if (!t)
        t = copy = stored_copy(L->T, id);
    if (t)
        json_array_append_new(L->list, view_lobby_entry(t));
    if (copy)
        free_table(copy);
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
        reply(T, c, r, json_pack("{s:o}", "tables", list));
        return;
    }
    for (const srv_table *t = T->newest; t && n < LOBBY_MAX; t = t->older)
        if (t->row.listed && t->row.status < TABLE_FINISHED) {
            json_array_append_new(list, view_lobby_entry(t));
            n++;
        }
    reply(T, c, r, json_pack("{s:o}", "tables", list));
}

static void do_mine(srv_tables *T, srv_client *c, const msg_request *r)
{
    json_t *list = json_array();
    for (int i = 0; i < r->nmine; i++) {
        const msg_mine_pair *pair = &r->mine[i];
        srv_table *t = pair->valid ? find_table(T, pair->table) : NULL;
        srv_table *copy = !t && pair->valid ? stored_copy(T, pair->table) : NULL;
        if (copy)
            t = copy; /* run by another server */
        int seat = t ? seat_of_token(t, pair->token) : -1;
        json_t *entry = seat >= 0 ? view_lobby_entry(t) : NULL;
        if (copy)
            free_table(copy);
        if (!entry)
            continue;
        json_object_set_new(entry, "seat", json_integer(seat));
        json_array_append_new(list, entry);
    }
    reply(T, c, r, json_pack("{s:o}", "tables", list));
}

static void do_record(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    char *text = view_record(t);
    if (!text) {
        refuse(T, c, r, ERR_INTERNAL, "the record could not be written");
        return;
    }
    reply(T, c, r,
          json_pack("{s:b, s:s}", "finished", t->row.status == TABLE_FINISHED, "record", text));
    free(text);
}

static void do_review(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    if (t->row.status != TABLE_FINISHED) {
        refuse(T, c, r, ERR_BAD_FIELD, "a review needs a finished game");
        return;
    }
    if (member_add(t, c) != 0) {
        refuse(T, c, r, ERR_TOO_MANY, "this connection follows as many tables as it may");
        return;
    }
    if (t->review) {
        reply(T, c, r, json_pack("{s:i}", "position", 0));
        json_t *moves = json_loads(t->review, 0, NULL);
        send_to(T, c,
                json_pack("{s:s, s:s, s:o}", "type", "review", "table", t->row.id, "moves",
                          moves ? moves : json_array()));
        return;
    }
    /* One review per table: a second request joins the first (as a
     * member, it gets the `review` event too). */
    int ahead = T->hooks.review ? T->hooks.review(T->hooks.ctx, t->row.id, t->game, r->ms) : -1;
    if (ahead < 0) {
        refuse(T, c, r, ERR_TOO_MANY, "the review queue is full: try again later");
        return;
    }
    if (!t->reviewing)
        T->stats.reviews_asked++;
    t->reviewing = 1;
    reply(T, c, r, json_pack("{s:i}", "position", ahead));
}

/* The creator reopens seat `r->seat`, taken but away and without a move
 * yet (a join whose answer was lost): its token no longer counts, and the
 * seat can be joined again, even while the game is on. */
static void do_reopen(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    int seat = r->seat;
    if (t->row.creator < 0 || seat_of(t, c) != t->row.creator) {
        refuse(T, c, r, ERR_NOT_SEATED, "only the table's creator, in its seat, reopens a seat");
        return;
    }
    if (t->row.status > TABLE_PLAYING) {
        refuse(T, c, r, ERR_GAME_OVER, "the game has ended");
        return;
    }
    const stored_seat *old = &t->row.seats[seat];
    if (seat >= t->row.players || seat == t->row.creator || old->kind == SEAT_COMPUTER ||
        !old->taken || t->present[seat] > 0 || t->row.nmoves > seat) {
        refuse(T, c, r, ERR_NO_SEAT,
               "only a taken seat that is away and has not moved yet can be reopened");
        return;
    }
    stored_seat s = *old;
    s.taken = 0;
    s.name[0] = '\0';
    memset(s.token_hash, 0, sizeof s.token_hash);
    if (storage_update_seat(T->store, t->row.id, seat, &s, t->row.started_ms) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        refuse(T, c, r, ERR_INTERNAL, "the seat could not be stored");
        return;
    }
    t->row.seats[seat] = s;
    reply(T, c, r, json_pack("{s:s, s:i}", "table", t->row.id, "seat", seat));
    broadcast(T, t, view_seat(t, seat), NULL);
}

/* A hint: the three best moves of the analysis of this turn, in a `hint`
 * event; from the analysis at hand, or from the job asked now (or already
 * running: one job answers every request of the turn). */
static void do_hint(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    int seat = seat_of(t, c), turn = t->row.nmoves;
    const char *why;
    msg_error e = hint_refusal(t, seat, &why);
    if (e == ERR_NONE && carc_game_current_player(t->game) != seat)
        e = refuse(T, c, r, ERR_NOT_YOUR_TURN, "hints are for your turn");
    else if (e != ERR_NONE)
        refuse(T, c, r, e, why);
    if (e != ERR_NONE)
        return;
    if (t->analysed != turn) {
        t->hint_wanted = turn;
        maybe_analyse(T, t);
        if (t->analysing < 0) {
            t->hint_wanted = -1;
            refuse(T, c, r, ERR_TOO_MANY, "the analysis queue is full: try again later");
            return;
        }
    }
    reply(T, c, r, json_pack("{s:i}", "turn", turn));
    if (t->analysed == turn)
        send_to(T, c, hint_event(t));
}

/* Starts or stops this connection's `estimate` events. */
static void do_estimate(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t)
{
    const char *why;
    msg_error e = hint_refusal(t, seat_of(t, c), &why);
    if (e != ERR_NONE) {
        refuse(T, c, r, e, why);
        return;
    }
    t->members[member_index(t, c)].estimates = r->on;
    reply(T, c, r, json_pack("{s:b}", "on", r->on));
    if (r->on && t->analysed == t->row.nmoves)
        send_to(T, c, estimate_event(t));
    maybe_analyse(T, t);
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
    json_t *re = id_json(id);
    char *re_text = re ? json_dumps(re, JSON_ENCODE_ANY) : NULL;
    json_decref(re);
    size_t len = strlen(a->fields) + (re_text ? strlen(re_text) : 0) + 40;
    char *text = malloc(len);
    if (text) {
        /* The fields' text begins with '{': the reply's own fields go in front. */
        int n = snprintf(text, len, "{\"type\":\"replay.ok\",%s%s%s%s", re_text ? "\"re\":" : "",
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
        reply(T, c, r, fields);
    else
        refuse(T, c, r, fails, err);
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
    srv_table *t = r->table[0] ? find_table(T, r->table) : NULL;
    if (r->table[0] && !t) {
        refuse(T, c, r, ERR_NO_TABLE, "no such table");
        return;
    }
    if (t && hand_hidden(t)) { /* its record has no draws until the end */
        refuse(T, c, r, ERR_BAD_FIELD, "the hands are hidden: replay the game after its end");
        return;
    }
    char *text = t ? view_record(t) : NULL;
    const char *record = t ? text : r->record;
    msg_error fails = t ? ERR_INTERNAL : ERR_ILLEGAL;
    if (!record) {
        refuse(T, c, r, ERR_INTERNAL, "out of memory");
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
        uint64_t job = 0;
        if (replays_wait(T->replays, key, finished, c->addr, fails, c, &r->id, &job) != 0)
            refuse(T, c, r, ERR_RATE_LIMITED,
                   "replays of other records from your address are being computed: ask again "
                   "when they are answered");
        else if (job == 0)
            T->stats.replays_cached++; /* it joined the same record's replay */
        else if (T->hooks.replay(T->hooks.ctx, job, c->addr, record) != 0) {
            replays_cancel(T->replays, job);
            refuse(T, c, r, ERR_RATE_LIMITED, "the server is busy: ask again in a moment");
        }
    }
    free(text);
}

/* Requests that name a table: find it, then act. */
static void table_request(srv_tables *T, srv_client *c, const msg_request *r)
{
    srv_table *t = find_table(T, r->table);
    if (!t) {
        refuse(T, c, r, ERR_NO_TABLE, "no such table");
        return;
    }
    switch (r->type) {
    case MSG_JOIN: do_join(T, c, r, t); break;
    case MSG_RESUME: do_resume(T, c, r, t); break;
    case MSG_WATCH: do_watch(T, c, r, t); break;
    case MSG_LEAVE:
        member_remove(T, t, c);
        reply(T, c, r, json_pack("{s:s}", "table", t->row.id));
        break;
    case MSG_MOVE: do_move(T, c, r, t); break;
    case MSG_LEGAL: do_legal(T, c, r, t); break;
    case MSG_SYNC:
        if (member_index(t, c) < 0) {
            refuse(T, c, r, ERR_NOT_SEATED, "watch or join the table first");
            break;
        }
        reply(T, c, r, json_pack("{s:s}", "table", t->row.id));
        send_to(T, c, view_state(t, seat_of(t, c), now_ms(T)));
        break;
    case MSG_CHAT: do_chat(T, c, r, t); break;
    case MSG_RECORD: do_record(T, c, r, t); break;
    case MSG_REVIEW: do_review(T, c, r, t); break;
    case MSG_FEATURES:
        if (member_index(t, c) < 0)
            refuse(T, c, r, ERR_NOT_SEATED, "watch or join the table first");
        else
            reply(T, c, r, features_view(t->game));
        break;
    case MSG_HINT: do_hint(T, c, r, t); break;
    case MSG_ESTIMATE: do_estimate(T, c, r, t); break;
    case MSG_REOPEN: do_reopen(T, c, r, t); break;
    default: refuse(T, c, r, ERR_UNKNOWN_TYPE, "not a table request"); break;
    }
}

void tables_request(srv_tables *T, srv_client *c, const msg_request *r)
{
    switch (r->type) {
    case MSG_HELLO:
        reply(T, c, r,
              json_pack("{s:i, s:s, s:{s:i, s:i, s:i, s:i}}", "protocol", 1, "server",
                        "carcassonne " CARC_VERSION, "limits", "message_bytes", MSG_MAX_BYTES,
                        "messages_per_second", MSG_PER_SECOND, "name_bytes", MSG_NAME_BYTES,
                        "chat_bytes", MSG_CHAT_BYTES));
        break;
    case MSG_PING: reply(T, c, r, NULL); break;
    case MSG_CREATE: do_create(T, c, r); break;
    case MSG_LOBBY: do_lobby(T, c, r); break;
    case MSG_MINE: do_mine(T, c, r); break;
    case MSG_REPLAY: do_replay(T, c, r); break;
    default: table_request(T, c, r); break;
    }
}

/* --- Answers from the workers, clocks ------------------------------------------------ */

void tables_computer_move(srv_tables *T, const char *table, int turn, const char *move)
{
    srv_table *t = find_loaded(T, table);
    if (!t || t->thinking != turn || t->row.nmoves != turn || t->row.status != TABLE_PLAYING)
        return;
    if (apply_move(T, t, move, BY_COMPUTER, NULL, NULL) != ERR_NONE) {
        t->thinking = -1;
        fprintf(stderr, "carcassonne serve: table %s: the computer's move '%s' was refused\n",
                table, move);
    }
}

void tables_replay_done(srv_tables *T, uint64_t job, char *fields, const char *error)
{
    if (replays_done(T->replays, job, fields, error, send_replay_to, T) >= 0)
        T->stats.replays_computed++;
}

void tables_review_done(srv_tables *T, const char *table, char *json_moves)
{
    srv_table *t = find_loaded(T, table);
    if (!t) {
        free(json_moves);
        return;
    }
    free(t->review);
    t->review = json_moves;
    t->reviewing = 0;
    /* Kept: a restart or another server answers from storage. Not kept,
     * it is still sent, and a later request computes it again. */
    if (storage_set_review(T->store, t->row.id, json_moves) != 0)
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
    json_t *moves = json_loads(json_moves, 0, NULL);
    broadcast(T, t,
              json_pack("{s:s, s:s, s:o}", "type", "review", "table", t->row.id, "moves",
                        moves ? moves : json_array()),
              NULL);
}

void tables_analysis_done(srv_tables *T, const char *table, int turn, const srv_analysis *a)
{
    srv_table *t = find_loaded(T, table);
    if (!t || t->analysing != turn)
        return;
    t->analysing = -1;
    if (t->row.nmoves != turn || t->row.status != TABLE_PLAYING) {
        maybe_analyse(T, t); /* stale: the current turn's, if wanted */
        return;
    }
    t->analysis = *a;
    t->analysed = turn;
    hint_keep_win(t);
    if (t->hint_wanted == turn)
        send_to_seat(T, t, a->player, hint_event(t));
    send_estimates(T, t);
}

typedef struct id_batch {
    char ids[ORPHANS_PER_SWEEP][STORED_ID_BYTES];
    int n;
    srv_tables *T;
    int adopted;
} id_batch;

static void collect_orphan(void *ctx, const char *id)
{
    id_batch *b = ctx;
    if (b->n < ORPHANS_PER_SWEEP)
        snprintf(b->ids[b->n++], STORED_ID_BYTES, "%s", id);
}

/* An orphan read: it joins the registry, claimed, or is let go (none
 * there, finished, or it does not replay). */
static void adopt_loaded(void *ctx, const char *id, const stored_table *row, const chat_line *chat,
                         int nchat, int total)
{
    id_batch *b = ctx;
    if (find_loaded(b->T, id))
        return; /* run here already (two ids of one lock) */
    srv_table *t = claimed_table(b->T, id, row);
    if (!t)
        return;
    set_chat(t, chat, nchat, total);
    register_table(b->T, t);
    maybe_think(b->T, t);
    b->adopted++;
}

/* Takes over the tables whose server died (PostgreSQL: nobody holds
 * their lock), every ORPHANS_MS, or at once after a full batch: claimed
 * first, then read in a few round trips (a process killed leaves
 * thousands at once, and their clients come back within seconds). */
static int adopt_orphans(srv_tables *T, int64_t now)
{
    if (!T->orphans_more && now - T->orphans_ms < ORPHANS_MS && now >= T->orphans_ms)
        return 0;
    T->orphans_ms = now;
    T->orphans_more = 0;
    id_batch *b = malloc(sizeof *b);
    if (!b)
        return 0;
    b->n = 0;
    b->T = T;
    b->adopted = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (storage_claim_orphans(T->store, ORPHANS_PER_SWEEP, collect_orphan, b) != 0 ||
        (b->n > 0 && storage_load_tables(T->store, b->ids, b->n, CHAT_KEPT, adopt_loaded, b) != 0))
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
    else
        T->orphans_more = b->n == ORPHANS_PER_SWEEP;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (b->adopted > 0)
        fprintf(stderr, "carcassonne serve: %d table%s taken over in %lld ms\n", b->adopted,
                b->adopted == 1 ? "" : "s",
                (long long)(t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000);
    int adopted = b->adopted;
    free(b);
    return adopted;
}

/* Whether seat `seat`, whose clock ran out, has been left: its player is
 * away and the computer has played its last TABLE_ABANDON_TURNS turns. */
static int abandoned(const srv_table *t, int seat)
{
    return t->row.seats[seat].kind != SEAT_COMPUTER && t->present[seat] == 0 &&
           t->timed_out[seat] >= TABLE_ABANDON_TURNS;
}

int tables_tick(srv_tables *T, int64_t now)
{
    int adopted = adopt_orphans(T, now);
    for (srv_table *t = T->newest, *older; t; t = older) {
        older = t->older;
        if (t->row.status == TABLE_WAITING && t->nmembers == 0 &&
            now - t->idle_ms > TABLE_IDLE_CLOSE_MS)
            close_idle_table(T, t);
        if (t->row.status >= TABLE_FINISHED && t->nmembers == 0) {
            evict_table(T, t);
            continue;
        }
        maybe_think(T, t); /* again, if the workers' queue was full */
        maybe_analyse(T, t);
        if (t->row.status != TABLE_PLAYING || t->row.clock.mode == CLOCK_NONE)
            continue;
        int seat = carc_game_current_player(t->game);
        if (view_clock_left(t, seat, now) > 0 || t->thinking == t->row.nmoves)
            continue;
        /* The loop reads what is waiting in the sockets between two ticks:
         * a move sent in time but not read yet still counts. */
        if (t->expiring != t->row.nmoves) {
            t->expiring = t->row.nmoves;
            continue;
        }
        if (t->row.clock.on_timeout == TIMEOUT_FORFEIT || abandoned(t, seat)) {
            forfeit_table(T, t, seat);
        } else if (think(T, t, "mcts:level=easy") == 0) {
            t->thinking = t->row.nmoves;
        }
    }
    return adopted;
}

void tables_stalled(srv_tables *T, int64_t ms)
{
    for (srv_table *t = T->newest; t; t = t->older) {
        if (t->row.status != TABLE_PLAYING || t->row.clock.mode == CLOCK_NONE)
            continue;
        t->turn_ms += ms;
        t->row.paused_ms += ms;
        /* Stored, so that a restart does not charge it either. */
        if (storage_set_paused(T->store, t->row.id, t->row.paused_ms) != 0)
            fprintf(stderr, "carcassonne serve: table %s: the stall was not stored: %s\n",
                    t->row.id, storage_error(T->store));
    }
}

/* --- Loading and records ------------------------------------------------------------- */

typedef struct load_ctx {
    srv_tables *T;
    int skipped;
} load_ctx;

static int load_one(void *ctx, const stored_table *row)
{
    load_ctx *L = ctx;
    char why[160];
    srv_table *t = table_from_row(row, why, sizeof why);
    if (!t) {
        /* One broken table does not keep the others down: it stays in
         * storage, untouched, for someone to look at. */
        fprintf(stderr, "carcassonne serve: table %s skipped, it does not replay: %s\n", row->id,
                why);
        L->skipped++;
        return 0;
    }
    /* The time the server was down is not counted against the seat to move. */
    t->claimed = 1;
    adopt_table(L->T, t);
    return 0;
}

int tables_load(srv_tables *T, char *err, size_t errcap)
{
    load_ctx L = {T, 0};
    if (storage_load_unfinished(T->store, load_one, &L) != 0) {
        snprintf(err, errcap, "%s", storage_error(T->store));
        return -1;
    }
    for (srv_table *t = T->newest; t; t = t->older)
        maybe_think(T, t);
    return 0;
}

char *tables_record(srv_tables *T, const char *id, int *finished)
{
    srv_table *t = find_table(T, id);
    srv_table *copy = t ? NULL : stored_copy(T, id); /* run by another server */
    if (copy)
        t = copy;
    if (!t)
        return NULL;
    *finished = t->row.status == TABLE_FINISHED;
    char *text = view_record(t);
    if (copy)
        free_table(copy);
    return text;
}
