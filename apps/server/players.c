/* players.c: an account's page and a category's leaderboard. */
#include "players.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accounts.h"
#include "glicko2.h"
#include "table.h"

enum { PERIOD_MS = 30LL * 24 * 3600 * 1000 }; /* a rating period of idleness */

/* A rating as shown at `now`: its RD grown for each whole idle period. */
static json_t *rating_json(const stored_rating *r, int64_t now)
{
    glicko2_rating g = {r->rating, r->rd, r->volatility};
    int64_t idle = now > r->last_ms ? (now - r->last_ms) / PERIOD_MS : 0;
    g = glicko2_idle(g, (unsigned)idle);
    return json_pack("{s:s, s:f, s:f, s:f, s:i, s:I}", "category",
                     glicko2_category_name((glicko2_category)r->category), "rating", g.rating, "rd",
                     g.rd, "volatility", g.volatility, "games", r->games, "last_ms",
                     (json_int_t)r->last_ms);
}

typedef struct game_list {
    storage *s;
    json_t *list;
    const stored_rating_change *changes;
    int nchanges;
} game_list;

/* One finished game of the account, sitting at `seat` of table `id`: its
 * date, category, seats, final scores, whether it was rated and the
 * account's change. */
static int add_game(void *ctx, const char *id, int seat)
{
    game_list *L = ctx;
    stored_table *row = malloc(sizeof *row);
    char err[160];
    carc_game *g = NULL;
    if (row && storage_load_table(L->s, id, row) == 1)
        g = table_replay(row, NULL, NULL, err, sizeof err);
    if (!g) {
        free(row);
        return 0; /* a table that does not replay is left out */
    }
    carc_rules rules = row->rules;
    json_t *seats = json_array(), *scores = json_array();
    for (int i = 0; i < row->players; i++) {
        const stored_seat *st = &row->seats[i];
        json_array_append_new(
            seats,
            json_pack("{s:s, s:s}", "name", st->name, "kind",
                      st->kind == SEAT_COMPUTER && !seat_resigned(st) ? "computer" : "human"));
        json_array_append_new(scores, json_integer(carc_game_score(g, i)));
    }
    int64_t ended = row->nmoves > 0 ? row->moves[row->nmoves - 1].at_ms : row->created_ms;
    json_t *game = json_pack(
        "{s:s, s:I, s:s, s:i, s:o, s:o, s:b}", "table", id, "ended_ms", (json_int_t)ended,
        "category",
        glicko2_category_name((glicko2_category)glicko2_category_of(row->players, &rules)), "seat",
        seat, "seats", seats, "scores", scores, "rated", row->rated);
    for (int i = 0; i < L->nchanges; i++)
        if (strcmp(L->changes[i].table, id) == 0)
            json_object_set_new(game, "rating_change",
                                json_pack("{s:f, s:f}", "before", L->changes[i].before, "after",
                                          L->changes[i].after));
    json_array_append_new(L->list, game);
    carc_game_free(g);
    free(row);
    return 0;
}

json_t *players_page(storage *s, const char *name, int64_t now_ms, unsigned *status)
{
    char key[STORED_ACCOUNT_NAME_BYTES];
    stored_account acc;
    *status = 404;
    if (strlen(name) >= sizeof key || !accounts_name_ok(name))
        return NULL;
    accounts_name_key(name, key);
    int found = storage_find_account(s, key, &acc);
    *status = found < 0 ? 500 : 404;
    if (found != 1)
        return NULL;
    stored_rating ratings[GLICKO2_CATEGORIES];
    stored_rating_change changes[PLAYERS_GAMES];
    int n = storage_ratings(s, acc.id, ratings, GLICKO2_CATEGORIES);
    int nchanges = storage_rating_changes(s, acc.id, changes, PLAYERS_GAMES);
    *status = 500;
    if (n < 0 || nchanges < 0)
        return NULL;
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, rating_json(&ratings[i], now_ms));
    game_list L = {s, json_array(), changes, nchanges};
    if (storage_account_seats(s, acc.id, 1u << TABLE_FINISHED, PLAYERS_GAMES, add_game, &L) != 0) {
        json_decref(list);
        json_decref(L.list);
        return NULL;
    }
    *status = 200;
    return json_pack("{s:s, s:o, s:o}", "name", acc.name, "ratings", list, "games", L.list);
}

typedef struct board {
    json_t *list;
    int64_t now;
} board;

static int add_leader(void *ctx, const char *name, const stored_rating *r)
{
    board *b = ctx;
    json_t *entry = rating_json(r, b->now);
    /* Stored RDs pass the query's bound; one grown by idleness may not. */
    if (json_real_value(json_object_get(entry, "rd")) > PLAYERS_LEADERBOARD_MAX_RD) {
        json_decref(entry);
        return 0;
    }
    json_object_set_new(entry, "name", json_string(name));
    json_object_del(entry, "category");
    json_array_append_new(b->list, entry);
    return 0;
}

json_t *players_leaderboard(storage *s, const char *category, int64_t now_ms, unsigned *status)
{
    int c = category ? glicko2_category_parse(category) : -1;
    *status = 400;
    if (c < 0)
        return NULL;
    board b = {json_array(), now_ms};
    if (storage_leaderboard(s, c, PLAYERS_LEADERBOARD_MAX_RD, PLAYERS_LEADERBOARD, add_leader,
                            &b) != 0) {
        json_decref(b.list);
        *status = 500;
        return NULL;
    }
    *status = 200;
    return json_pack("{s:s, s:o}", "category", category, "players", b.list);
}
