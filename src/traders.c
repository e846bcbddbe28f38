/* traders.c: Traders & Builders' rules (traders.h): goods, the builder's
 * second tile, where the pigs stand, and the public calls that read them
 * (built in the wide layout only: layout.c answers them for the base
 * game). */
#include "layout.h"

#include "traders.h"
#include "feature.h"
#include "tiles.h"

int carc_game_goods(const carc_game *g, int player, int type)
{
    if (player < 0 || player >= g->nplayers || type < 0 || type >= CARC_GOODS_TYPES)
        return 0;
    return traders_goods(g, player, type);
}

int carc_game_goods_points(const carc_game *g, int player)
{
    return player >= 0 && player < g->nplayers ? traders_goods_points(g, player) : 0;
}

int carc_game_second_part(const carc_game *g)
{
    return traders_second_part(g);
}

static const unsigned goods_marks[CARC_GOODS_TYPES] = {CARC_MARK_WINE, CARC_MARK_GRAIN,
                                                       CARC_MARK_CLOTH};

void traders_city_completed(carc_game *g, int root, event_sink *sink)
{
    if (!traders_in_game(&g->rules))
        return;
    int count[CARC_GOODS_TYPES] = {0, 0, 0}, any = 0;
    int s = root;
    do {
        const seg_node *m = &g->seg[s];
        unsigned marks = carc_tile_data[g->tiles[m->tile].kind].segments[seg_local(m)].marks;
        for (int k = 0; k < CARC_GOODS_TYPES; k++)
            if (marks & goods_marks[k]) {
                count[k]++;
                any = 1;
            }
        s = m->next;
    } while (s != root);
    if (!any)
        return;
    carc_event ev;
    memset(&ev, 0, sizeof ev);
    const board_tile *t = &g->tiles[g->seg[root].tile];
    ev.kind = CARC_CITY;
    ev.complete = 1;
    ev.bonus = CARC_BONUS_GOODS;
    ev.winners = (uint8_t)(1u << g->current);
    ev.x = t->x;
    ev.y = t->y;
    ev.feature = (uint16_t)root;
    for (int k = 0; k < CARC_GOODS_TYPES; k++) {
        ev.goods[k] = (uint8_t)count[k];
        g->traders.goods[g->current][k] = (uint8_t)(g->traders.goods[g->current][k] + count[k]);
    }
    sink_push(sink, &ev);
}

void traders_final_scoring(carc_game *g, event_sink *sink)
{
    if (!traders_in_game(&g->rules))
        return;
    for (int k = 0; k < CARC_GOODS_TYPES; k++) {
        int most = 0;
        unsigned winners = 0;
        for (int p = 0; p < g->nplayers; p++) {
            int n = g->traders.goods[p][k];
            if (n > most) {
                most = n;
                winners = 1u << p;
            } else if (n == most && n > 0) {
                winners |= 1u << p;
            }
        }
        if (!winners)
            continue; /* nobody collected this type */
        carc_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = CARC_CITY;
        ev.bonus = CARC_BONUS_GOODS;
        ev.winners = (uint8_t)winners;
        ev.points = 10;
        ev.goods[k] = (uint8_t)most;
        ev.feature = 0xFFFF; /* no feature */
        for (int p = 0; p < g->nplayers; p++)
            if (winners & (1u << p)) {
                g->score[p] += 10;
                g->traders.goods_points[p] = (int16_t)(g->traders.goods_points[p] + 10);
            }
        sink_push(sink, &ev);
    }
}

/* The feature root of the segment `player`'s figure at `tile` stands on. */
static int figure_root(const carc_game *g, int tile)
{
    const board_tile *bt = &g->tiles[tile];
    return feature_root(g, bt->seg_base + bt->follower_seg);
}

int traders_builder_extended(const carc_game *g, int t)
{
    int tile = g->traders.builder_tile[g->current];
    if (tile == NO_TILE || tile == t)
        return 0;
    int root = figure_root(g, tile);
    const board_tile *bt = &g->tiles[t];
    const carc_tile_def *def = &carc_tile_data[bt->kind];
    for (int s = 0; s < def->nsegments; s++)
        if ((def->segments[s].kind == CARC_ROAD || def->segments[s].kind == CARC_CITY) &&
            feature_root(g, bt->seg_base + s) == root)
            return 1;
    return 0;
}

unsigned traders_pigs_on(const carc_game *g, int farm)
{
    unsigned mask = 0;
    for (int p = 0; p < g->nplayers; p++)
        if (g->traders.pig_tile[p] != NO_TILE && figure_root(g, g->traders.pig_tile[p]) == farm)
            mask |= 1u << p;
    return mask;
}

void traders_farm_bonus(carc_game *g, const carc_event *ev, unsigned players, int cities,
                        event_sink *sink)
{
    carc_event bonus = *ev;
    memset(bonus.returned, 0, sizeof bonus.returned);
    bonus.bonus = CARC_BONUS_PIG;
    bonus.winners = (uint8_t)players;
    bonus.points = (int16_t)cities;
    score_award(g, players, cities, CARC_FIELD);
    sink_push(sink, &bonus);
}

/* --- The builder's and the pig's spots ------------------------------------- */

/* The local segments on which the current player's
 * builder may stand (a road or city holding that player's follower that
 * this tile does not complete) and the pig (a farm holding that player's
 * farmer), from the features `t` that `kind` placed at `rot` on frontier
 * square `square` touches. */
static void helpers_of(const carc_game *g, int kind, int rot, int square, const touched *t,
                       unsigned *builder, unsigned *pig)
{
    unsigned seed = 0;
    for (int i = 0; i < t->n; i++)
        if (followers_of(seg_followers(&g->seg[t->roots[i]]), g->current))
            seed |= t->touching[i];
    unsigned mine = touched_spread(t, seed);
    const carc_tile_def *def = &carc_tile_data[kind];
    *builder = *pig = 0;
    for (unsigned rest = mine; rest; rest &= rest - 1) {
        int s = __builtin_ctz(rest);
        unsigned segkind = def->segments[s].kind;
        if (segkind == CARC_FIELD)
            *pig |= 1u << s;
        else if ((segkind == CARC_ROAD || segkind == CARC_CITY) &&
                 moves_open_after(g, kind, rot, square, t, touched_spread(t, 1u << s)) > 0)
            *builder |= 1u << s;
    }
    if (!traders_figure_left(g, g->current, CARC_FIGURE_BUILDER))
        *builder = 0;
    if (!traders_figure_left(g, g->current, CARC_FIGURE_PIG))
        *pig = 0;
}

/* The builder's and the pig's segments (above) of `kind` placed at `rot`
 * on frontier square `square`. */
static void helper_segments(const carc_game *g, int kind, int rot, int square, unsigned *builder,
                            unsigned *pig)
{
    touched t;
    touch_features(g, kind, rot, square, &t);
    helpers_of(g, kind, rot, square, &t, builder, pig);
}

int traders_figures_left(const carc_game *g)
{
    return traders_figure_left(g, g->current, CARC_FIGURE_BUILDER) ||
           traders_figure_left(g, g->current, CARC_FIGURE_PIG);
}

int traders_figure_options(const carc_game *g, int kind, int rot, int square, const touched *t,
                           figure_option *opts)
{
    int n = 0;
    unsigned builder, pig;
    helpers_of(g, kind, rot, square, t, &builder, &pig);
    for (; builder; builder &= builder - 1)
        opts[n++] = (figure_option){(uint8_t)__builtin_ctz(builder), CARC_FIGURE_BUILDER};
    for (; pig; pig &= pig - 1)
        opts[n++] = (figure_option){(uint8_t)__builtin_ctz(pig), CARC_FIGURE_PIG};
    return n;
}

int traders_check_figure(carc_game *g, carc_move m, int square, carc_status *st)
{
    if (m.figure != CARC_FIGURE_BUILDER && m.figure != CARC_FIGURE_PIG)
        return 0;
    unsigned builder, pig, bit = 1u << m.segment;
    helper_segments(g, g->drawn, m.place.rot, square, &builder, &pig);
    *st = CARC_OK;
    if (m.figure == CARC_FIGURE_PIG && !(pig & bit)) {
        game_set_error(g, "the pig goes on a farm that holds a farmer of player %d",
                       g->current + 1);
        *st = CARC_EILLEGAL;
    }
    if (m.figure == CARC_FIGURE_BUILDER && !(builder & bit)) {
        game_set_error(g,
                       "the builder goes on a road or city that holds a follower of player "
                       "%d and that this tile does not complete",
                       g->current + 1);
        *st = CARC_EILLEGAL;
    }
    return 1;
}
