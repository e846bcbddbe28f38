/* tables.c: the registry: the tables in memory and in storage, taking over a dead process's tables,
 * loading, the clocks' tick. */
#include "tables_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "replay_view.h"

/* --- The registry ------------------------------------------------------------------ */

static unsigned hash_id(const char *id)
{
    uint32_t h = 2166136261u;
    for (; *id; id++)
        h = (h ^ (uint8_t)*id) * 16777619u;
    return h & (HASH_BUCKETS - 1);
}

srv_table *tb_find_loaded(const srv_tables *T, const char *id)
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

void tb_insert_table(srv_tables *T, srv_table *t)
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
    tb_free_table(t);
}

void tb_free_table(srv_table *t)
{
    carc_game_free(t->game);
    free(t->members);
    free(t->chat);
    free(t->review);
    free(t);
}

/* --- Clocks, and a table from its stored row ----------------------------------------- */

/* The clocks of a table whose game starts at `now`: each seat's whole time. */
void tb_start_clocks(srv_table *t, int64_t now)
{
    t->turn_ms = now;
    for (int s = 0; s < t->row.players; s++)
        t->left_ms[s] = (int64_t)t->row.clock.seconds * 1000;
}

/* The clock of the seat that just moved, at the end of its turn. */
void tb_stop_clock(srv_table *t, int seat, int64_t now)
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
static void replay_clock(void *ctx, int turn, int player, const carc_event *events, int n,
                         int went_back)
{
    (void)events;
    (void)n;
    (void)went_back;
    srv_table *t = ctx;
    t->turn_ms += t->row.moves[turn].paused_ms;
    tb_stop_clock(t, player, t->row.moves[turn].at_ms);
}

/* A table in memory made from its stored row: the game replayed. */
srv_table *tb_table_from_row(const stored_table *row, char *err, size_t errcap)
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
    t->takeback_seat = -1;
    t->analysing = t->analysed = t->hint_wanted = -1;
    for (int p = 0; p < CARC_MAX_PLAYERS; p++)
        t->win[p] = t->rating[p] = -1;
    token_commitment(row->salt, row->seed, t->commitment);
    tb_start_clocks(t, row->started_ms);
    t->game = table_replay(row, replay_clock, t, err, errcap);
    if (!t->game) {
        free(t);
        return NULL;
    }
    t->turn_ms += row->paused_ms; /* the current turn's */
    return t;
}

void tb_new_table_id(const srv_tables *T, char out[TABLE_ID_LEN + 1])
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    do {
        uint8_t bytes[TABLE_ID_LEN - 1];
        token_random(bytes, sizeof bytes);
        out[0] = 't';
        for (int i = 0; i < TABLE_ID_LEN - 1; i++)
            out[i + 1] = alphabet[bytes[i] % 36];
        out[TABLE_ID_LEN] = '\0';
    } while (tb_find_loaded(T, out));
}

srv_table *tb_open_table(srv_tables *T, const stored_table *row)
{
    char err[160];
    srv_table *t = tb_table_from_row(row, err, sizeof err);
    if (!t) {
        fprintf(stderr, "carcassonne serve: table %s not made: %s\n", row->id, err);
        return NULL;
    }
    /* This process runs it (claimed before it exists: nobody else can). */
    if (storage_claim(T->store, t->row.id) != 1) {
        fprintf(stderr, "carcassonne serve: table %s not claimed: %s\n", t->row.id,
                storage_error(T->store));
        tb_free_table(t);
        return NULL;
    }
    t->claimed = 1;
    if (storage_create_table(T->store, &t->row) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(T->store));
        storage_release(T->store, t->row.id);
        tb_free_table(t);
        return NULL;
    }
    tb_seat_ratings(T, t);
    tb_insert_table(T, t);
    tb_start_clocks(t, t->row.started_ms ? t->row.started_ms : t->row.created_ms);
    t->idle_ms = t->row.created_ms;
    return t;
}

int tb_replay_game(srv_tables *T, srv_table *t, char *err, size_t errcap)
{
    tb_start_clocks(t, t->row.started_ms);
    carc_game *g = table_replay(&t->row, replay_clock, t, err, errcap);
    if (!g)
        return -1;
    carc_game_free(t->game);
    t->game = g;
    t->turn_ms = tb_now_ms(T);
    return 0;
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

/* The last CHAT_KEPT chat lines of `t`, its review and its seats'
 * ratings, from storage. A failure leaves them out (the game goes on
 * without them). */
static void load_chat_and_review(srv_tables *T, srv_table *t)
{
    tb_seat_ratings(T, t);
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

/* A table read from storage joins the registry, its clocks going on
 * from now (the time nobody ran it is not counted against the seat to
 * move), but for a correspondence game's (days a move): its deadline is
 * kept as stored, from the last move's time. */
static void register_table(srv_tables *T, srv_table *t)
{
    tb_insert_table(T, t);
    int64_t now = tb_now_ms(T);
    if (t->row.clock.mode != CLOCK_DAYS)
        t->turn_ms = now;
    t->idle_ms = now;
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
        t = tb_table_from_row(row, err, sizeof err);
    if (!t) {
        if (row && row->status < TABLE_FINISHED)
            fprintf(stderr, "carcassonne serve: table %s not taken over: %s\n", id, err);
        storage_release(T->store, id);
        return NULL;
    }
    t->claimed = 1;
    return t;
}

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
        tb_maybe_think(T, t);
    }
    return t;
}

/* The table `id`, from memory, or else read from storage: a finished
 * table that was let go, or a live one no server runs (taken over); NULL
 * when there is none, or another server runs it. */
srv_table *tb_find_table(srv_tables *T, const char *id)
{
    srv_table *t = tb_find_loaded(T, id);
    if (t || strlen(id) != TABLE_ID_LEN)
        return t;
    stored_table *row = malloc(sizeof *row);
    char err[160];
    int found = row ? storage_load_table(T->store, id, row) : -1;
    if (found == 1 && row->status == TABLE_FINISHED) {
        t = tb_table_from_row(row, err, sizeof err);
        if (t) {
            load_chat_and_review(T, t);
            tb_insert_table(T, t);
        }
    } else if (found == 1 && row->status < TABLE_FINISHED) {
        t = take_over(T, id, row);
    }
    free(row);
    return t;
}

/* Table `id` as stored, for a view only (another server runs it): not
 * kept, freed by the caller (tb_free_table()); NULL when there is none. */
srv_table *tb_stored_copy(srv_tables *T, const char *id)
{
    stored_table *row = malloc(sizeof *row);
    char err[160];
    srv_table *t = NULL;
    if (row && strlen(id) == TABLE_ID_LEN && storage_load_table(T->store, id, row) == 1)
        t = tb_table_from_row(row, err, sizeof err);
    free(row);
    return t;
}

int tables_loaded(const srv_tables *T, const char *id)
{
    return tb_find_loaded(T, id) != NULL;
}

int tables_has(srv_tables *T, const char *id)
{
    return tb_find_table(T, id) != NULL;
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
        tb_free_table(t);
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

/* --- Status, the tables of a dead process, the tick ---------------------------------- */

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

void tb_finish_table(srv_tables *T, srv_table *t)
{
    if (t->row.status != TABLE_FINISHED) {
        t->row.status = TABLE_FINISHED;
        count_live(T, t, -1);
    }
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
    if (tb_find_loaded(b->T, id))
        return; /* run here already (two ids of one lock) */
    srv_table *t = claimed_table(b->T, id, row);
    if (!t)
        return;
    set_chat(t, chat, nchat, total);
    register_table(b->T, t);
    tb_maybe_think(b->T, t);
    b->adopted++;
}

/* Takes over the tables whose server died (PostgreSQL: nobody holds
 * their lock), every ORPHANS_MS, or at once after a full batch: claimed
 * first, then read in a few round trips (a process killed leaves
 * thousands at once, and their clients come back within seconds). */
int tb_adopt_orphans(srv_tables *T, int64_t now)
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

/* Lets go of `t` when its time has come: a waiting table nobody has
 * followed for TABLE_IDLE_CLOSE_MS is closed; a finished or closed one
 * that nobody follows leaves memory (freed: 1). */
int tb_let_go(srv_tables *T, srv_table *t, int64_t now)
{
    if (t->row.status == TABLE_WAITING && t->nmembers == 0 &&
        now - t->idle_ms > TABLE_IDLE_CLOSE_MS)
        close_idle_table(T, t);
    if (t->row.status >= TABLE_FINISHED && t->nmembers == 0) {
        evict_table(T, t);
        return 1;
    }
    return 0;
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
    srv_table *t = tb_table_from_row(row, why, sizeof why);
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
        tb_maybe_think(T, t);
    return 0;
}

char *tables_record(srv_tables *T, const char *id, int *finished)
{
    srv_table *t = tb_find_table(T, id);
    srv_table *copy = t ? NULL : tb_stored_copy(T, id); /* run by another server */
    if (copy)
        t = copy;
    if (!t)
        return NULL;
    *finished = t->row.status == TABLE_FINISHED;
    char *text = view_record(t);
    if (copy)
        tb_free_table(copy);
    return text;
}
