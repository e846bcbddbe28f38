/* tables_ratings.c: rated games (docs/ratings.md): who may create one,
 * and the players' Glicko-2 ratings moved at its end, stored in the same
 * pass as the game's last move, so that a game is rated exactly once. */
#include "tables_impl.h"

#include <stdio.h>

#include "glicko2.h"

enum { RATING_PERIOD_MS = 30LL * 24 * 3600 * 1000 }; /* an idle period */

const char *tb_rated_refusal(const srv_client *c, const msg_request *r)
{
    if (c->account <= 0)
        return "a rated table is made by a player logged in: log in first";
    int me = 0;
    for (int i = 0; i < r->nseats; i++) {
        const msg_seat *s = &r->seats[i];
        me += s->kind == SEAT_ME;
        if (s->kind == SEAT_COMPUTER && glicko2_computer_rating(s->spec, NULL) < 0)
            return "a rated table's computer seats are the server's levels (random, greedy, "
                   "mcts:level=easy, normal or hard): another has no rating";
    }
    if (!me)
        return "a rated table is made by one of its players: take a seat (\"me\")";
    return NULL;
}

/* The rating of `account` in `category` before a game ending at `now`: as
 * stored (its RD grown for each whole idle period since its last game), or
 * a new player's. `*games` receives its games so far. */
static glicko2_rating rating_before(srv_tables *T, int64_t account, int category, int64_t now,
                                    int *games)
{
    stored_rating all[GLICKO2_CATEGORIES];
    int n = storage_ratings(T->store, account, all, GLICKO2_CATEGORIES);
    *games = 0;
    for (int i = 0; i < n; i++) {
        if (all[i].category != category)
            continue;
        glicko2_rating r = {all[i].rating, all[i].rd, all[i].volatility};
        *games = all[i].games;
        int64_t idle = now > all[i].last_ms ? (now - all[i].last_ms) / RATING_PERIOD_MS : 0;
        return glicko2_idle(r, (unsigned)idle);
    }
    return glicko2_new_player();
}

/* The seats that left the game, a bit each: the one that lost by forfeit
 * and every one that resigned (each loses to every seat that stayed). */
static unsigned forfeited_seats(const srv_table *t)
{
    unsigned left = t->row.forfeit >= 0 ? 1u << t->row.forfeit : 0;
    for (int s = 0; s < t->row.players; s++)
        if (seat_resigned(&t->row.seats[s]))
            left |= 1u << s;
    return left;
}

void tb_seat_ratings(srv_tables *T, srv_table *t)
{
    carc_rules rules = carc_game_rules(t->game);
    int category = glicko2_category_of(t->row.players, &rules);
    int64_t now = tb_now_ms(T);
    for (int s = 0; s < t->row.players; s++) {
        const stored_seat *st = &t->row.seats[s];
        t->rating[s] = -1;
        if (category >= 0 && st->taken && st->account > 0) {
            int games;
            glicko2_rating r = rating_before(T, st->account, category, now, &games);
            t->rating[s] = r.rating;
            t->rating_rd[s] = r.rd;
        } else if (st->kind == SEAT_COMPUTER && !seat_resigned(st)) {
            double rd = GLICKO2_START_RD;
            t->rating[s] = glicko2_computer_rating(st->spec, &rd);
            t->rating_rd[s] = rd;
        }
    }
}

void tb_rate_game(srv_tables *T, srv_table *t)
{
    int n = t->row.players, scores[GLICKO2_MAX_PLAYERS], fixed[GLICKO2_MAX_PLAYERS],
        games[GLICKO2_MAX_PLAYERS];
    carc_rules rules = carc_game_rules(t->game);
    int category = glicko2_category_of(n, &rules);
    int64_t now = tb_now_ms(T);
    glicko2_rating seats[GLICKO2_MAX_PLAYERS], before[GLICKO2_MAX_PLAYERS];
    if (category < 0 || n > GLICKO2_MAX_PLAYERS)
        return;
    for (int s = 0; s < n; s++) {
        const stored_seat *st = &t->row.seats[s];
        scores[s] = carc_game_score(t->game, s);
        games[s] = 0;
        fixed[s] = st->account <= 0;
        if (st->account > 0) {
            seats[s] = rating_before(T, st->account, category, now, &games[s]);
        } else {
            double rd = GLICKO2_START_RD;
            double r = glicko2_computer_rating(st->spec, &rd);
            seats[s] =
                (glicko2_rating){r >= 0 ? r : GLICKO2_START_RATING, rd, GLICKO2_START_VOLATILITY};
        }
        before[s] = seats[s];
    }
    if (glicko2_rate_game(n, scores, forfeited_seats(t), seats, fixed, GLICKO2_TAU) != 0)
        return;
    for (int s = 0; s < n; s++) {
        if (fixed[s])
            continue;
        stored_rating after = {.rating = seats[s].rating,
                               .rd = seats[s].rd,
                               .volatility = seats[s].volatility,
                               .last_ms = now,
                               .category = category,
                               .games = games[s] + 1};
        if (storage_rate(T->store, t->row.id, t->row.seats[s].account, before[s].rating, &after))
            fprintf(stderr, "carcassonne serve: table %s: a rating was not stored: %s\n", t->row.id,
                    storage_error(T->store));
    }
    tb_seat_ratings(T, t); /* the seats show their new ratings */
}
