/* players.h: what the server tells of its players (docs/server-protocol.md,
 * "Players and ratings"): an account's page (its ratings by category and
 * its recent finished games) and a category's leaderboard, as JSON built
 * from storage. The HTTP routes (http_api.c) serve them. */
#ifndef CARC_SERVER_PLAYERS_H
#define CARC_SERVER_PLAYERS_H

#include <jansson.h>
#include <stdint.h>

#include "glicko2.h"
#include "storage.h"

enum {
    PLAYERS_GAMES = 10,       /* the recent finished games on a page */
    PLAYERS_LEADERBOARD = 100 /* players on a leaderboard */
};

/* Who is listed on a leaderboard: an RD at most this (as lichess does). */
#define PLAYERS_LEADERBOARD_MAX_RD GLICKO2_PROVISIONAL_RD

/* The page of the account named `name` at time `now_ms`: its name, its
 * ratings ({category, rating, rd, volatility, games}: the RD grown by each
 * whole idle period) and its last PLAYERS_GAMES finished games. Sets
 * `*status`: 200, 404 (no such account) or 500; NULL unless 200. */
json_t *players_page(storage *s, const char *name, int64_t now_ms, unsigned *status);

/* The leaderboard of the category named `category` ("duel", ...): its
 * players best first. `*status`: 200, 400 (no such category) or 500. */
json_t *players_leaderboard(storage *s, const char *category, int64_t now_ms, unsigned *status);

#endif
