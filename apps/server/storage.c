/* storage.c: what every storage backend gets from its primitives. */
#include "storage.h"

#include <stdlib.h>
#include <string.h>

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
    size_t len = carc_rules_format(stored_rules(t), buf, cap, " ");
    if (len >= cap && cap)
        buf[0] = '\0'; /* never a cut list: the flags column still holds the flags */
}

void storage_rules_read(stored_table *t, const char *text)
{
    carc_rules rules = stored_rules(t);
    if (!text || !text[0] || carc_rules_parse(text, &rules, NULL, 0) != CARC_OK)
        return;
    t->rules = rules.flags;
    t->hand = rules.hand;
    t->table_w = rules.table_w;
    t->table_h = rules.table_h;
}
