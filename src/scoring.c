/* scoring.c: scoring completed features during play, the final scoring
 * of incomplete features and farms, and what a feature is worth for the
 * queries (carc_game_feature_info). */
#include <string.h>

#include "state.h"
#include "scoring.h"
#include "feature.h"
#include "figures.h"
#include "capabilities.h"
#include "tiles.h"

/* The standard rules' worth; the segments' marks are the tiles' own
 * (data of the catalogue, carc_tile_def). */
static int standard_worth(int kind, int tiles, int pennants, unsigned marks, int complete)
{
    switch (kind) {
    case CARC_ROAD:
        if (marks & CARC_MARK_INN)
            return complete ? 2 * tiles : 0;
        return tiles;
    case CARC_CLOISTER: return tiles;
    case CARC_CITY:
        if (marks & CARC_MARK_CATHEDRAL)
            return complete ? 3 * (tiles + pennants) : 0;
        return (complete ? 2 : 1) * (tiles + pennants);
    case CARC_FIELD: return 3 * tiles;
    default: return 0;
    }
}

int carc_feature_worth(const carc_rules *rules, int kind, int tiles, int pennants, unsigned marks,
                       int complete)
{
    return caps_worth(rules, kind, tiles, pennants, marks, complete,
                      standard_worth(kind, tiles, pennants, marks, complete));
}

void score_award(carc_game *g, unsigned winners, int points, int kind)
{
    for (int p = 0; p < g->nplayers; p++)
        if (winners & (1u << p)) {
            g->score[p] += points;
            g->score_by_kind[p][kind] += points;
        }
}

/* Sends the figures on the feature rooted at `root` home. */
static void return_followers(carc_game *g, int root, carc_event *ev)
{
    int s = root;
    do {
        const seg_node *m = &g->seg[s];
        board_tile *t = &g->tiles[m->tile];
        if (t->follower_seg == seg_local(m)) {
            int figure = tile_figure(t);
            figures_return(g, t->follower_owner, figure);
            ev->returned[t->follower_owner]++;
            if (figure == CARC_FIGURE_LARGE)
                ev->returned_large |= (uint8_t)(1u << t->follower_owner);
            t->follower_seg = CARC_NO_SPOT;
            g->follower_tiles[m->tile >> 6] &= ~(1ull << (m->tile & 63));
        }
        s = m->next;
    } while (s != root);
    g->seg[root].root &= ~(root_word)ROOT_FOLLOWERS;
}

carc_event score_event(const carc_game *g, int root, int complete)
{
    const board_tile *t = &g->tiles[g->seg[root].tile];
    carc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = (uint8_t)seg_kind(&g->seg[root]);
    ev.complete = (uint8_t)complete;
    ev.x = t->x;
    ev.y = t->y;
    ev.feature = (uint16_t)root;
    return ev;
}

/* Scores a road, city or cloister: complete, or incomplete at the end. */
static void score_feature(carc_game *g, int root, int complete, int award_points, event_sink *sink)
{
    seg_node *r = &g->seg[root];
    if (seg_followers(r) == 0)
        return;
    carc_event ev = score_event(g, root, complete);
    int pennants = 0, tiles, points;
    unsigned kind = seg_kind(r), marks = 0;
    if (kind == CARC_CLOISTER)
        tiles = 9 - (int)seg_open(r);
    else
        tiles = feature_tiles(g, root, &pennants, &marks);
    points = feature_worth(g, kind, tiles, pennants, marks, complete);
    ev.tiles = (int16_t)tiles;
    ev.pennants = (int16_t)pennants;
    if (award_points) {
        ev.winners = (uint8_t)feature_majority(seg_followers(r), g->nplayers);
        ev.points = (int16_t)points;
        score_award(g, ev.winners, points, (int)kind);
    }
    return_followers(g, root, &ev);
    sink_push(sink, &ev);
}

void score_completed(carc_game *g, int root, event_sink *sink)
{
    score_feature(g, root, 1, 1, sink);
    caps_completed(g, root, sink);
}

int score_farm_cities(const carc_game *g, int farm, uint64_t seen[MAX_SEGMENTS / 64],
                      uint16_t *cities)
{
    int n = 0, s = farm;
    memset(seen, 0, MAX_SEGMENTS / 8);
    do {
        const seg_node *m = &g->seg[s];
        int tile_base = s - (int)seg_local(m);
        for (unsigned borders = seg_borders(m); borders; borders &= borders - 1) {
            int city = feature_root(g, tile_base + __builtin_ctz(borders));
            uint64_t bit = 1ull << (city & 63);
            if (seg_open(&g->seg[city]) == 0 && !(seen[city >> 6] & bit)) {
                seen[city >> 6] |= bit;
                cities[n++] = (uint16_t)city;
            }
        }
        s = m->next;
    } while (s != farm);
    return n;
}

int farm_city_count(const carc_game *g, int farm_root)
{
    uint64_t seen[MAX_SEGMENTS / 64];
    uint16_t cities[MAX_SEGMENTS];
    return score_farm_cities(g, farm_root, seen, cities);
}

/* The first board tile from `from` on that holds a follower, or -1. */
static int next_follower_tile(const carc_game *g, int from)
{
    for (int w = from >> 6; w < 2; w++) {
        uint64_t rest = g->follower_tiles[w];
        if (w == from >> 6)
            rest &= ~0ull << (from & 63);
        if (rest)
            return 64 * w + __builtin_ctzll(rest);
    }
    return -1;
}

void score_each_occupied(carc_game *g, int fields, feature_visitor visit, void *ctx)
{
    uint64_t done[MAX_SEGMENTS / 64] = {0};
    for (int t = next_follower_tile(g, 0); t >= 0; t = next_follower_tile(g, t + 1)) {
        const board_tile *bt = &g->tiles[t];
        int root = feature_root(g, bt->seg_base + bt->follower_seg);
        uint64_t bit = 1ull << (root & 63);
        if ((seg_kind(&g->seg[root]) == CARC_FIELD) != fields || (done[root >> 6] & bit))
            continue;
        done[root >> 6] |= bit;
        visit(g, root, ctx);
    }
}

static void score_farm(carc_game *g, int farm, void *sink)
{
    uint64_t seen[MAX_SEGMENTS / 64];
    uint16_t cities[MAX_SEGMENTS];
    int n = score_farm_cities(g, farm, seen, cities);
    carc_event ev = score_event(g, farm, 0);
    ev.tiles = (int16_t)n;
    ev.points = (int16_t)feature_worth(g, CARC_FIELD, n, 0, 0, 1);
    ev.winners = (uint8_t)feature_majority(seg_followers(&g->seg[farm]), g->nplayers);
    score_award(g, ev.winners, ev.points, CARC_FIELD);
    sink_push(sink, &ev);
    /* A figure of a scoring player that adds to the farm's worth. */
    unsigned bonus = ev.winners & caps_farm_bonus_players(g, farm);
    if (bonus && n > 0)
        caps_farm_bonus(g, &ev, bonus, n, sink);
}

static void score_incomplete(carc_game *g, int root, void *sink)
{
    score_feature(g, root, 0, caps_incomplete_scores(g), sink);
}

void score_final(carc_game *g, event_sink *sink)
{
    score_each_occupied(g, 0, score_incomplete, sink);
    if (!caps_score_farms(g, sink))
        score_each_occupied(g, 1, score_farm, sink);
    caps_final_scoring(g, sink);
}

/* --- What a feature is worth, for queries ------------------------------------- */

static int16_t end_value(const carc_game *g, const seg_node *r, int tiles, int pennants,
                         unsigned marks, int complete, int value)
{
    if (complete || !feature_may_complete(seg_kind(r)))
        return (int16_t)value;
    if (!caps_incomplete_scores(g))
        return 0;
    int counted = seg_kind(r) == CARC_CLOISTER ? 9 - (int)seg_open(r) : tiles;
    return (int16_t)feature_worth(g, seg_kind(r), counted, pennants, marks, 0);
}

/* What the feature rooted at `root`, of `kind`, is worth complete (a
 * farm: now); a road's or city's `tiles`, `pennants` and `marks`. */
static int full_value(const carc_game *g, int root, unsigned kind, int tiles, int pennants,
                      unsigned marks)
{
    switch (kind) {
    case CARC_CLOISTER: return feature_worth(g, kind, 9, 0, 0, 1);
    case CARC_FIELD: return feature_worth(g, kind, farm_city_count(g, root), 0, 0, 1);
    default:
        return feature_may_complete(kind) ? feature_worth(g, kind, tiles, pennants, marks, 1) : 0;
    }
}

int feature_end_worth(const carc_game *g, int root)
{
    const seg_node *r = &g->seg[root];
    unsigned kind = seg_kind(r);
    int pennants = 0, tiles = 0;
    unsigned marks = 0;
    if (kind != CARC_FIELD && kind != CARC_CLOISTER)
        tiles = feature_tiles(g, root, &pennants, &marks);
    int complete = feature_may_complete(kind) && seg_open(r) == 0;
    return end_value(g, r, tiles, pennants, marks, complete,
                     full_value(g, root, kind, tiles, pennants, marks));
}

carc_status carc_game_feature_info(const carc_game *g, int feature, carc_feature *out)
{
    if (!out || feature < 0 || feature >= g->nseg || g->seg[feature].parent != feature)
        return CARC_EINVAL;
    const seg_node *r = &g->seg[feature];
    int pennants = 0;
    unsigned marks = 0;
    int tiles = feature_tiles(g, feature, &pennants, &marks);
    unsigned kind = seg_kind(r), open = seg_open(r);
    int complete = feature_may_complete(kind) && open == 0;
    int value = full_value(g, feature, kind, tiles, pennants, marks);
    if (kind == CARC_CLOISTER)
        tiles = 9 - (int)open;
    memset(out, 0, sizeof *out);
    out->kind = (uint8_t)kind;
    out->complete = (uint8_t)complete;
    out->owners = (uint8_t)feature_majority(seg_followers(r), g->nplayers);
    for (int p = 0; p < g->nplayers; p++)
        out->followers[p] = (uint8_t)followers_of(seg_followers(r), p);
    out->tiles = (int16_t)tiles;
    out->pennants = (int16_t)pennants;
    out->marks = (uint8_t)marks;
    out->open_edges = (int16_t)(feature_may_complete(kind) ? open : 0);
    out->value = (int16_t)value;
    out->value_at_end = end_value(g, r, tiles, pennants, marks, complete, value);
    return CARC_OK;
}
