/* storage.c: the storage interface: picks the backend, calls through it,
 * and builds on its primitives what every backend shares. */
#include "storage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage_backend.h"

int storage_is_postgres(const char *where)
{
    return strncmp(where, "postgresql://", 13) == 0 || strncmp(where, "postgres://", 11) == 0;
}

storage *storage_open(const char *where, char *err, size_t errcap)
{
    const storage_backend *b =
        storage_is_postgres(where) ? &storage_pg_backend : &storage_sqlite_backend;
    storage *s = b->open(where, err, errcap);
    if (s)
        s->backend = b;
    return s;
}

void storage_close(storage *s)
{
    if (s)
        s->backend->close(s);
}

const char *storage_backend_name(const storage *s)
{
    return s->backend->name;
}

const char *storage_error(const storage *s)
{
    return s->backend->error(s);
}

int storage_create_table(storage *s, const stored_table *t)
{
    return s->backend->create_table(s, t);
}

int storage_update_seat(storage *s, const char *id, int seat, const stored_seat *st,
                        int64_t started_ms)
{
    return s->backend->update_seat(s, id, seat, st, started_ms);
}

int storage_append_move(storage *s, const char *id, int turn, const stored_move *m,
                        table_status status, int forfeit)
{
    return s->backend->append_move(s, id, turn, m, status, forfeit);
}

int storage_truncate_moves(storage *s, const char *id, int nmoves)
{
    return s->backend->truncate_moves(s, id, nmoves);
}

int storage_set_paused(storage *s, const char *id, int64_t paused_ms)
{
    return s->backend->set_paused(s, id, paused_ms);
}

int storage_set_status(storage *s, const char *id, table_status status, int forfeit)
{
    return s->backend->set_status(s, id, status, forfeit);
}

int storage_add_chat(storage *s, const char *id, int n, const stored_chat *line)
{
    return s->backend->add_chat(s, id, n, line);
}

int storage_set_review(storage *s, const char *id, const char *json)
{
    return s->backend->set_review(s, id, json);
}

int storage_commit(storage *s)
{
    return s->backend->commit(s);
}

void storage_pipeline(storage *s, int on)
{
    if (s->backend->pipeline)
        s->backend->pipeline(s, on);
}

int storage_pending(const storage *s)
{
    return s->backend->pending(s);
}

int storage_list(storage *s, unsigned statuses, int (*each)(void *ctx, const char *id), void *ctx)
{
    return s->backend->list(s, statuses, each, ctx);
}

int storage_list_listed(storage *s, int max, int (*each)(void *ctx, const char *id), void *ctx)
{
    return s->backend->list_listed(s, max, each, ctx);
}

int storage_load_table(storage *s, const char *id, stored_table *out)
{
    return s->backend->load_table(s, id, out);
}

int storage_load_chat(storage *s, const char *id, stored_chat *out, int cap, int *total)
{
    return s->backend->load_chat(s, id, out, cap, total);
}

int storage_load_tables(storage *s, const char (*ids)[STORED_ID_BYTES], int n, int chat_cap,
                        storage_loaded_fn each, void *ctx)
{
    if (s->backend->load_tables)
        return s->backend->load_tables(s, ids, n, chat_cap, each, ctx);
    stored_table *t = malloc(sizeof *t);
    stored_chat *chat = chat_cap > 0 ? malloc((size_t)chat_cap * sizeof *chat) : NULL;
    int result = t && (chat_cap <= 0 || chat) ? 0 : -1;
    for (int i = 0; result == 0 && i < n; i++) {
        int total = 0, found = storage_load_table(s, ids[i], t);
        int nchat =
            found == 1 && chat_cap > 0 ? storage_load_chat(s, ids[i], chat, chat_cap, &total) : 0;
        if (found < 0 || nchat < 0)
            result = -1;
        else
            each(ctx, ids[i], found ? t : NULL, chat, nchat, total);
    }
    free(chat);
    free(t);
    return result;
}

int storage_load_review(storage *s, const char *id, char **json)
{
    return s->backend->load_review(s, id, json);
}

int storage_claim(storage *s, const char *id)
{
    return s->backend->claim(s, id);
}

void storage_release(storage *s, const char *id)
{
    s->backend->release(s, id);
}

int storage_claim_orphans(storage *s, int max, void (*each)(void *ctx, const char *id), void *ctx)
{
    return s->backend->claim_orphans(s, max, each, ctx);
}

int storage_server_id(const storage *s)
{
    return s->backend->server_id(s);
}

int storage_owner(storage *s, const char *id)
{
    return s->backend->owner(s, id);
}

int storage_lost(const storage *s)
{
    return s->backend->lost(s);
}

int storage_create_account(storage *s, const char *name, const char *name_key, const char *hash,
                           int64_t created_ms, int64_t *id)
{
    return s->backend->create_account(s, name, name_key, hash, created_ms, id);
}

int storage_find_account(storage *s, const char *name_key, stored_account *out)
{
    return s->backend->find_account(s, name_key, out);
}

int storage_set_password(storage *s, int64_t id, const char *hash)
{
    return s->backend->set_password(s, id, hash);
}

int storage_delete_account(storage *s, int64_t id)
{
    return s->backend->delete_account(s, id);
}

int storage_create_session(storage *s, const uint8_t hash[STORED_SESSION_HASH_BYTES],
                           int64_t account, int64_t created_ms, int64_t expires_ms)
{
    return s->backend->create_session(s, hash, account, created_ms, expires_ms);
}

int storage_find_session(storage *s, const uint8_t hash[STORED_SESSION_HASH_BYTES], int64_t now_ms,
                         stored_account *out)
{
    return s->backend->find_session(s, hash, now_ms, out);
}

int storage_delete_session(storage *s, const uint8_t hash[STORED_SESSION_HASH_BYTES])
{
    return s->backend->delete_session(s, hash);
}

int storage_delete_sessions(storage *s, int64_t account,
                            const uint8_t keep[STORED_SESSION_HASH_BYTES], int64_t now_ms)
{
    return s->backend->delete_sessions(s, account, keep, now_ms);
}

int storage_ratings(storage *s, int64_t account, stored_rating *out, int cap)
{
    return s->backend->ratings(s, account, out, cap);
}

int storage_rate(storage *s, const char *table, int64_t account, double before,
                 const stored_rating *after)
{
    return s->backend->rate(s, table, account, before, after);
}

int storage_rating_changes(storage *s, int64_t account, stored_rating_change *out, int cap)
{
    return s->backend->rating_changes(s, account, out, cap);
}

int storage_leaderboard(storage *s, int category, double max_rd, int max,
                        int (*each)(void *ctx, const char *name, const stored_rating *r), void *ctx)
{
    return s->backend->leaderboard(s, category, max_rd, max, each, ctx);
}

int storage_account_seats(storage *s, int64_t account, unsigned statuses, int max,
                          int (*each)(void *ctx, const char *id, int seat), void *ctx)
{
    return s->backend->account_seats(s, account, statuses, max, each, ctx);
}

int storage_set_webhook(storage *s, int64_t id, const char *url)
{
    return s->backend->set_webhook(s, id, url);
}

int storage_webhook(storage *s, int64_t id, char *out, size_t cap)
{
    return s->backend->webhook(s, id, out, cap);
}

int storage_list_accounts(storage *s, int (*each)(void *ctx, const stored_account *a, int tables),
                          void *ctx)
{
    return s->backend->list_accounts(s, each, ctx);
}

int storage_set_disabled(storage *s, int64_t id, int disabled)
{
    return s->backend->set_disabled(s, id, disabled);
}

int storage_puzzle_solver(storage *s, int64_t account, stored_puzzle_rating *out)
{
    return s->backend->puzzle_solver(s, account, out);
}

int storage_lessons_done(storage *s, int64_t account, int (*each)(void *ctx, const char *lesson),
                         void *ctx)
{
    return s->backend->lessons_done(s, account, each, ctx);
}

int storage_lesson_done(storage *s, int64_t account, const char *lesson, int64_t at_ms)
{
    return s->backend->lesson_done(s, account, lesson, at_ms);
}

int storage_puzzle_rating(storage *s, const char *puzzle, stored_puzzle_rating *out)
{
    return s->backend->puzzle_rating(s, puzzle, out);
}

int storage_puzzle_attempted(storage *s, int64_t account,
                             int (*each)(void *ctx, const char *puzzle), void *ctx)
{
    return s->backend->puzzle_attempted(s, account, each, ctx);
}

int storage_puzzle_attempt(storage *s, int64_t account, const char *puzzle, int solved,
                           int64_t at_ms, const stored_puzzle_rating *solver,
                           const stored_puzzle_rating *rating)
{
    return s->backend->puzzle_attempt(s, account, puzzle, solved, at_ms, solver, rating);
}

int storage_delete_table(storage *s, const char *id)
{
    return s->backend->delete_table(s, id);
}

int storage_backup(storage *s, const char *path, char *err, size_t errcap)
{
    if (!s->backend->backup) {
        snprintf(err, errcap, "a %s database has no online backup here: use its own tools",
                 s->backend->name);
        return -1;
    }
    return s->backend->backup(s, path, err, errcap);
}

typedef struct id_list {
    char (*ids)[STORED_ID_BYTES];
    size_t len, cap;
    int failed;
} id_list;

static int collect_id(void *ctx, const char *id)
{
    id_list *l = ctx;
    if (l->len == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        void *bigger = realloc(l->ids, cap * sizeof *l->ids);
        if (!bigger) {
            l->failed = 1;
            return 1;
        }
        l->ids = bigger;
        l->cap = cap;
    }
    memcpy(l->ids[l->len++], id, STORED_ID_BYTES);
    return 0;
}

int storage_load_unfinished(storage *s, int (*each)(void *ctx, const stored_table *t), void *ctx)
{
    /* The ids first, then each table: a backend need not read two things
     * at once. */
    id_list l = {NULL, 0, 0, 0};
    unsigned unfinished = 1u << TABLE_WAITING | 1u << TABLE_PLAYING;
    stored_table *t = malloc(sizeof *t);
    int result = t && storage_list(s, unfinished, collect_id, &l) == 0 && !l.failed ? 0 : -1;
    for (size_t i = 0; result == 0 && i < l.len; i++) {
        /* Claimed before it is read: every move of its last server is in. */
        int claimed = storage_claim(s, l.ids[i]);
        if (claimed < 0)
            result = -1;
        if (claimed != 1)
            continue;
        int found = storage_load_table(s, l.ids[i], t);
        if (found < 0)
            result = -1;
        else if (found && each(ctx, t))
            break;
    }
    free(t);
    free(l.ids);
    return result;
}

void storage_rules_text(const stored_table *t, char *buf, size_t cap)
{
    size_t len = carc_rules_format(t->rules, buf, cap, " ");
    if (len >= cap && cap)
        buf[0] = '\0'; /* never a cut list: the flags column still holds the flags */
}

void storage_rules_read(stored_table *t, const char *text)
{
    carc_rules rules = t->rules;
    if (!text || !text[0] || carc_rules_parse(text, &rules, NULL, 0) != CARC_OK)
        return;
    t->rules = rules;
}
