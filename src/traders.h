/* traders.h: Traders & Builders (expansions/traders-builders.md) as a
 * module of the turn code: trade goods given for completed cities and
 * scored at the end, the builder's second tile, the pig's farms. Its
 * figures' supplies are figures.h's. Built in the wide layout only: the
 * compact layout (the base game) lists no such capability
 * (capabilities.h). */
#ifndef CARC_TRADERS_H
#define CARC_TRADERS_H

#include <string.h>

#include "capability.h"
#include "scoring.h"

#if !LAYOUT_WIDE
#error "Traders & Builders is built in the wide layout only"
#endif

static inline int traders_in_game(const carc_rules *rules)
{
    return (rules->expansions & CARC_EXPANSION_TRADERS_BUILDERS) != 0;
}

/* A new game: no goods, the figures home, no second tile. */
static inline void traders_start(carc_game *g)
{
    memset(g->traders.builder_tile, NO_TILE, sizeof g->traders.builder_tile);
    memset(g->traders.pig_tile, NO_TILE, sizeof g->traders.pig_tile);
    memset(g->traders.goods, 0, sizeof g->traders.goods);
    memset(g->traders.goods_points, 0, sizeof g->traders.goods_points);
    g->traders.second_part = 0;
}

/* The city rooted at `root` was just completed by the current player's
 * tile: its goods go to that player, whoever owns the city. */
void traders_city_completed(carc_game *g, int root, event_sink *sink);
/* The final scoring of trade goods: 10 points a type to the players with
 * the most tokens of it. */
void traders_final_scoring(carc_game *g, event_sink *sink);
/* Whether board tile `t`, just placed by the current player, extended a
 * road or city that holds that player's builder. */
int traders_builder_extended(const carc_game *g, int t);
/* Players whose pig stands on the farm rooted at `farm` (a bit each). */
unsigned traders_pigs_on(const carc_game *g, int farm);

/* Whether the current player plays another tile: `earned` (a bonus turn,
 * or `builder`) gives at most one extra tile a turn in a game with Traders
 * & Builders; other games keep their own rule. */
static inline int traders_turn_again(carc_game *g, int earned, int builder)
{
    if (!traders_in_game(&g->rules))
        return earned;
    int again = !g->traders.second_part && (earned || builder);
    g->traders.second_part = (uint8_t)again;
    return again;
}

static inline int traders_second_part(const carc_game *g)
{
    return g->traders.second_part;
}

/* The turn part hooks (capability.h): the second part is the builder's or
 * a bonus turn's second tile. */
static inline unsigned traders_turn_part(const carc_game *g)
{
    return g->traders.second_part;
}

static inline void traders_set_turn_part(carc_game *g, unsigned part)
{
    g->traders.second_part = (uint8_t)part;
}

/* The builder and the pig: in the supply while they stand on no tile. */
static inline int traders_figure_left(const carc_game *g, int player, int figure)
{
    const uint8_t *on =
        figure == CARC_FIGURE_BUILDER ? g->traders.builder_tile : g->traders.pig_tile;
    return traders_in_game(&g->rules) && on[player] == NO_TILE;
}

static inline void traders_figure_moved(carc_game *g, int player, int figure, int tile)
{
    uint8_t *on = figure == CARC_FIGURE_BUILDER ? g->traders.builder_tile : g->traders.pig_tile;
    on[player] = (uint8_t)tile;
}

static inline int traders_goods(const carc_game *g, int player, int type)
{
    return g->traders.goods[player][type];
}

static inline int traders_goods_points(const carc_game *g, int player)
{
    return g->traders.goods_points[player];
}

/* --- The capability (capability.h) ------------------------------------------ */

/* The pig's extra point a city for `players` after the farm's event `ev`. */
void traders_farm_bonus(carc_game *g, const carc_event *ev, unsigned players, int cities,
                        event_sink *sink);

static inline unsigned traders_placed(carc_game *g, int t, const move_fields *m)
{
    (void)m;
    /* Before the new figure: a builder placed now gives no second tile. */
    return traders_builder_extended(g, t) ? TURN_SECOND_TILE : 0;
}

/* At most one extra tile a turn, whether the builder or a bonus turn
 * earned it. */
static inline unsigned traders_turn_end(carc_game *g, const move_fields *m, unsigned turn)
{
    (void)m;
    int again = traders_turn_again(g, (turn & TURN_AGAIN) != 0, (turn & TURN_SECOND_TILE) != 0);
    return again ? TURN_AGAIN | (turn & TURN_SECOND_TILE) : 0;
}

static inline void traders_completed(carc_game *g, int root, event_sink *sink)
{
    if (seg_kind(&g->seg[root]) == CARC_CITY)
        traders_city_completed(g, root, sink);
}

static inline void traders_digest_player(digest *d, const carc_game *g, int player)
{
    for (int k = 0; k < CARC_GOODS_TYPES; k++)
        digest_bytes(d, (uint64_t)traders_goods(g, player, k), 1);
}

static inline void traders_digest_game(digest *d, const carc_game *g)
{
    digest_bytes(d, (uint64_t)traders_second_part(g), 1);
}

/* The current player's builder and pig: whether either is in the supply;
 * their moves (the builder on a road or city holding that player's
 * follower that the tile does not complete, the pig on a farm holding
 * that player's farmer); the check of a builder's or pig's move. */
int traders_figures_left(const carc_game *g);
int traders_figure_options(const carc_game *g, int kind, int rot, int square, const touched *t,
                           figure_option *opts);
int traders_check_figure(carc_game *g, carc_move m, int square, carc_status *st);

static const capability traders_capability = {
    .name = "traders-builders",
    .in_game = traders_in_game,
    .figures = 1u << CARC_FIGURE_BUILDER | 1u << CARC_FIGURE_PIG,
    .figure_left = traders_figure_left,
    .figure_moved = traders_figure_moved,
    .start = traders_start,
    .placed = traders_placed,
    .turn_end = traders_turn_end,
    .turn_part = traders_turn_part,
    .set_turn_part = traders_set_turn_part,
    .completed = traders_completed,
    .farm_bonus_players = traders_pigs_on,
    .farm_bonus = traders_farm_bonus,
    .final_scoring = traders_final_scoring,
    .digest_player = traders_digest_player,
    .digest_game = traders_digest_game,
    .other_figures_left = traders_figures_left,
    .figure_options = traders_figure_options,
    .check_figure = traders_check_figure,
    .random_all_figures = 1,
};

#endif
