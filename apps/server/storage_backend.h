/* storage_backend.h: what a storage backend provides (the way SQLite's
 * sqlite3_vfs does for files): a table of functions that storage.c calls
 * through. Only storage.c and the storage_*.c backends include it. */
#ifndef CARC_SERVER_STORAGE_BACKEND_H
#define CARC_SERVER_STORAGE_BACKEND_H

#include "storage.h"

/* Each backend's handle begins with this. */
struct storage {
    const struct storage_backend *backend;
};

/* The functions of storage.h, one for one, with the same contracts. */
typedef struct storage_backend {
    const char *name;
    storage *(*open)(const char *where, char *err, size_t errcap);
    void (*close)(storage *s);
    const char *(*error)(const storage *s);
    int (*create_table)(storage *s, const stored_table *t);
    int (*update_seat)(storage *s, const char *id, int seat, const stored_seat *st,
                       int64_t started_ms);
    int (*append_move)(storage *s, const char *id, int turn, const stored_move *m,
                       table_status status, int forfeit);
    int (*set_status)(storage *s, const char *id, table_status status, int forfeit);
    int (*set_paused)(storage *s, const char *id, int64_t paused_ms);
    int (*truncate_moves)(storage *s, const char *id, int nmoves);
    int (*add_chat)(storage *s, const char *id, int n, const stored_chat *line);
    int (*set_review)(storage *s, const char *id, const char *json);
    int (*commit)(storage *s);
    int (*pending)(const storage *s);
    void (*pipeline)(storage *s, int on); /* NULL: writes have no round trips to save */
    int (*list)(storage *s, unsigned statuses, int (*each)(void *ctx, const char *id), void *ctx);
    int (*list_listed)(storage *s, int max, int (*each)(void *ctx, const char *id), void *ctx);
    int (*load_table)(storage *s, const char *id, stored_table *out);
    int (*load_chat)(storage *s, const char *id, stored_chat *out, int cap, int *total);
    /* NULL: storage.c reads each table and its chat in turn */
    int (*load_tables)(storage *s, const char (*ids)[STORED_ID_BYTES], int n, int chat_cap,
                       storage_loaded_fn each, void *ctx);
    int (*load_review)(storage *s, const char *id, char **json);
    int (*claim)(storage *s, const char *id);
    void (*release)(storage *s, const char *id);
    int (*claim_orphans)(storage *s, int max, void (*each)(void *ctx, const char *id), void *ctx);
    int (*lost)(const storage *s);
    int (*server_id)(const storage *s);
    int (*owner)(storage *s, const char *id);
    int (*create_account)(storage *s, const char *name, const char *name_key, const char *hash,
                          int64_t created_ms, int64_t *id);
    int (*find_account)(storage *s, const char *name_key, stored_account *out);
    int (*set_password)(storage *s, int64_t id, const char *hash);
    int (*delete_account)(storage *s, int64_t id);
    int (*create_session)(storage *s, const uint8_t *hash, int64_t account, int64_t created_ms,
                          int64_t expires_ms);
    int (*find_session)(storage *s, const uint8_t *hash, int64_t now_ms, stored_account *out);
    int (*delete_session)(storage *s, const uint8_t *hash);
    int (*delete_sessions)(storage *s, int64_t account, const uint8_t *keep, int64_t now_ms);
    int (*ratings)(storage *s, int64_t account, stored_rating *out, int cap);
    int (*rate)(storage *s, const char *table, int64_t account, double before,
                const stored_rating *after);
    int (*rating_changes)(storage *s, int64_t account, stored_rating_change *out, int cap);
    int (*leaderboard)(storage *s, int category, double max_rd, int max,
                       int (*each)(void *ctx, const char *name, const stored_rating *r), void *ctx);
    int (*account_seats)(storage *s, int64_t account, unsigned statuses, int max,
                         int (*each)(void *ctx, const char *id, int seat), void *ctx);
    int (*set_webhook)(storage *s, int64_t id, const char *url);
    int (*webhook)(storage *s, int64_t id, char *out, size_t cap);
    int (*list_accounts)(storage *s, int (*each)(void *ctx, const stored_account *a, int tables),
                         void *ctx);
    int (*set_disabled)(storage *s, int64_t id, int disabled);
    int (*puzzle_solver)(storage *s, int64_t account, stored_puzzle_rating *out);
    int (*puzzle_rating)(storage *s, const char *puzzle, stored_puzzle_rating *out);
    int (*puzzle_attempted)(storage *s, int64_t account, int (*each)(void *ctx, const char *puzzle),
                            void *ctx);
    int (*puzzle_attempt)(storage *s, int64_t account, const char *puzzle, int solved,
                          int64_t at_ms, const stored_puzzle_rating *solver,
                          const stored_puzzle_rating *rating);
    int (*lessons_done)(storage *s, int64_t account, int (*each)(void *ctx, const char *lesson),
                        void *ctx);
    int (*lesson_done)(storage *s, int64_t account, const char *lesson, int64_t at_ms);
    int (*delete_table)(storage *s, const char *id);
    /* NULL: the backend has no online backup of its own */
    int (*backup)(storage *s, const char *path, char *err, size_t errcap);
} storage_backend;

extern const storage_backend storage_sqlite_backend;
extern const storage_backend storage_pg_backend;

#endif
