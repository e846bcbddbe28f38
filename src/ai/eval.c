/* eval.c: the static evaluation: expected final scores from a position.
 *
 * After Heyden (2009): each player's points so far, plus for every open
 * feature it owns the points the feature will likely bring (a city's
 * chance of completion falls with its open edges and with the tiles left;
 * a cloister fills its empty neighbours in proportion to the tiles left),
 * farms worth every bordering city, a completed one in full and an open one
 * by its chance of completion, and a worth for each follower still in
 * supply that fades as the pile runs out. */
#include <math.h>
#include <string.h>

#include "carcassonne_ai.h"
#include "eval.h"
/* Weights, tuned by greedy-against-greedy matches of 300 to 400 deals. */
static const double open_city_share = 0.4;             /* farms: an open bordering city */
static const double farmer_lock = 8.0;                 /* farms: a farmer placed at the start */
static const double supply_worth = 3.0;                /* a follower in supply at the start */
static const double spare_worth = 0.5;                 /* followers beyond three count this much */
static const double city_base = 0.3, city_room = 0.55; /* completion chance per edge */

enum {
    MAX_FARM_CITIES = 24,
    MAX_OCCUPIED = CARC_MAX_PLAYERS * CARC_FOLLOWERS,
};

double ai_follower_unit(int left)
{
    return 0.4 + supply_worth * fmin(1.0, left / 45.0);
}

double ai_follower_worth(int left, int supply)
{
    double n = supply <= 3 ? supply : 3 + spare_worth * (supply - 3);
    return ai_follower_unit(left) * n;
}

/* Chance that an open city with `open` unmatched edges is completed. */
static double city_chance_by_edges(int open, int left)
{
    return pow(city_base + city_room * fmin(1.0, left / 20.0), open);
}

/* Expected points of an open road, city or cloister to its owners. */
static double feature_worth(const carc_feature *f, int left)
{
    switch (f->kind) {
    case CARC_ROAD: return f->value_at_end;
    case CARC_CITY: {
        double q = city_chance_by_edges(f->open_edges, left);
        return q * f->value + (1.0 - q) * f->value_at_end;
    }
    default: return f->value_at_end + f->open_edges * 0.9 * fmin(1.0, left / 30.0);
    }
}

/* A farm that holds farmers and the cities it borders. */
typedef struct farm {
    int id;
    unsigned owners;
    int ncities;
    int cities[MAX_FARM_CITIES];
} farm;

static void farm_add_city(farm *f, int city)
{
    for (int i = 0; i < f->ncities; i++)
        if (f->cities[i] == city)
            return;
    if (f->ncities < MAX_FARM_CITIES)
        f->cities[f->ncities++] = city;
}

/* Finds the cities each farm of `farms` borders, completed or not, in one
 * pass over the field segments of the board. */
static void farm_borders(const carc_game *g, farm *farms, int nfarms)
{
    int tiles = carc_game_tile_count(g);
    for (int i = 0; i < tiles; i++) {
        carc_tile_on_board t;
        carc_game_tile_info(g, i, &t);
        const carc_tile_def *def = carc_tile(t.kind);
        for (int s = 0; s < def->nsegments; s++) {
            unsigned borders = def->segments[s].borders;
            if (def->segments[s].kind != CARC_FIELD || !borders)
                continue;
            int id = carc_game_feature(g, i, s);
            for (int f = 0; f < nfarms; f++) {
                if (farms[f].id != id)
                    continue;
                for (int c = 0; c < def->nsegments; c++)
                    if (borders & (1u << c))
                        farm_add_city(&farms[f], carc_game_feature(g, i, c));
            }
        }
    }
}

/* Expected farm points: a completed bordering city counts in full, an
 * open one by its chance of completion. */
static double farm_cities_worth(const carc_game *g, const farm *f, int left)
{
    carc_rules rules = carc_game_rules(g);
    double per_city = carc_feature_worth(&rules, CARC_FIELD, 1, 0, 0, 1);
    double worth = 0.0;
    for (int c = 0; c < f->ncities; c++) {
        carc_feature city;
        if (carc_game_feature_info(g, f->cities[c], &city) != CARC_OK)
            continue;
        worth +=
            per_city *
            (city.complete ? 1.0 : open_city_share * city_chance_by_edges(city.open_edges, left));
    }
    return worth - farmer_lock * left / (double)(carc_game_tile_total(g) - 1);
}

static void add_worth(double out[CARC_MAX_PLAYERS], int players, unsigned owners, double worth)
{
    for (int p = 0; p < players; p++)
        if (owners & (1u << p))
            out[p] += worth;
}

void carc_evaluate(const carc_game *g, double out[CARC_MAX_PLAYERS])
{
    int players = carc_game_players(g);
    /* Tiles to come: the pile and the drawn tile, or every hand's tiles. */
    int left = carc_game_tiles_left(g, NULL);
    if (carc_game_rules(g).hand)
        for (int p = 0; p < players; p++)
            left += carc_game_hand(g, p, NULL, 0);
    else
        left += !carc_game_over(g);
    for (int p = 0; p < players; p++)
        out[p] = carc_game_score(g, p);
    if (carc_game_over(g))
        return;
    for (int p = 0; p < players; p++)
        out[p] += ai_follower_worth(left, carc_game_supply(g, p));
    /* Every feature that holds a follower, once. */
    int seen[MAX_OCCUPIED];
    int nseen = 0;
    farm farms[MAX_OCCUPIED];
    int nfarms = 0;
    int tiles = carc_game_tile_count(g);
    for (int i = 0; i < tiles && nseen < MAX_OCCUPIED; i++) {
        carc_tile_on_board t;
        if (carc_game_tile_info(g, i, &t) != CARC_OK || t.follower_segment == CARC_NO_SPOT)
            continue;
        int id = carc_game_feature(g, i, t.follower_segment);
        int dup = id < 0;
        for (int s = 0; s < nseen && !dup; s++)
            dup = seen[s] == id;
        if (dup)
            continue;
        seen[nseen++] = id;
        carc_feature f;
        if (carc_game_feature_info(g, id, &f) != CARC_OK)
            continue;
        if (f.kind == CARC_FIELD)
            farms[nfarms++] = (farm){id, f.owners, 0, {0}};
        else if (!f.complete)
            add_worth(out, players, f.owners, feature_worth(&f, left));
    }
    if (!nfarms)
        return;
    farm_borders(g, farms, nfarms);
    for (int i = 0; i < nfarms; i++)
        add_worth(out, players, farms[i].owners, farm_cities_worth(g, &farms[i], left));
}

/* The terms of the full evaluation (eval_full.c, which is built once per
 * layout) and their weights. */
const ai_term ai_terms[AI_TERMS] = {
    [AI_TERM_SCORE] = {1.0, "points scored"},
    [AI_TERM_SUPPLY] = {1.0, "followers in supply"},
    [AI_TERM_CITY] = {1.0, "cities"},
    [AI_TERM_ROAD] = {1.0, "roads"},
    [AI_TERM_CLOISTER] = {1.0, "cloisters"},
    [AI_TERM_FARM] = {1.0, "farms"},
    [AI_TERM_CITY_EARLY] = {-AI_EARLY_DOUBT, "cities x to come"},
    [AI_TERM_ROAD_EARLY] = {-AI_EARLY_DOUBT, "roads x to come"},
    [AI_TERM_CLOISTER_EARLY] = {-AI_EARLY_DOUBT, "cloisters x to come"},
    [AI_TERM_FARM_EARLY] = {-AI_EARLY_DOUBT, "farms x to come"},
    [AI_TERM_RETURN] = {1.0, "followers' return"},
    [AI_TERM_ROOM] = {1.0, "farm room"},
    [AI_TERM_JOINS] = {1.0, "joins"},
};
