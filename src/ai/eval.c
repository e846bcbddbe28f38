/* eval.c: the static evaluation: expected final scores from a position.
 *
 * After Heyden (2009): each player's points so far, plus for every open
 * feature it owns the points the feature will likely bring (a city's
 * chance of completion falls with its open edges and with the tiles left;
 * a cloister fills its empty neighbours in proportion to the tiles left),
 * farms at their value now, and a worth for each follower still in supply
 * that fades as the pile runs out. */
#include <math.h>
#include <string.h>

#include "ai.h"

/* Worth of one follower in supply with `left` tiles still to come. */
static double follower_worth(int left, int supply)
{
    double k = 0.4 + 2.6 * fmin(1.0, left / 45.0);
    double n = supply <= 3 ? supply : 3 + 0.5 * (supply - 3);
    return k * n;
}

/* Expected points of an open feature to its owners. */
static double feature_worth(const carc_feature *f, int left)
{
    double phase = left / (double)CARC_PILE;
    double room = fmin(1.0, left / 20.0);
    switch (f->kind) {
    case CARC_ROAD:
        return f->value_at_end + 0.6 * phase * f->open_edges + (f->open_edges ? 0.0 : 0.0);
    case CARC_CITY: {
        double base = 0.5 + 0.38 * room;
        double q = pow(base, f->open_edges);
        return q * f->value + (1.0 - q) * f->value_at_end + 0.8 * phase * f->open_edges;
    }
    case CARC_CLOISTER: return f->value_at_end + f->open_edges * 0.9 * fmin(1.0, left / 30.0);
    default: return f->value_at_end + 1.5 * phase;
    }
}

void carc_evaluate(const carc_game *g, double out[CARC_MAX_PLAYERS])
{
    int players = carc_game_players(g);
    int left = carc_game_tiles_left(g, NULL) + (carc_game_over(g) ? 0 : 1);
    for (int p = 0; p < players; p++)
        out[p] = carc_game_score(g, p);
    if (carc_game_over(g))
        return;
    for (int p = 0; p < players; p++)
        out[p] += follower_worth(left, carc_game_supply(g, p));
    /* Every feature that holds a follower, once. */
    int seen[CARC_MAX_PLAYERS * CARC_FOLLOWERS];
    int nseen = 0;
    int tiles = carc_game_tile_count(g);
    for (int i = 0; i < tiles; i++) {
        carc_tile_on_board t;
        if (carc_game_tile_info(g, i, &t) != CARC_OK || t.follower_segment == CARC_NO_SPOT)
            continue;
        int id = carc_game_feature(g, i, t.follower_segment);
        int dup = 0;
        for (int s = 0; s < nseen && !dup; s++)
            dup = seen[s] == id;
        if (dup || id < 0 || nseen == (int)(sizeof seen / sizeof seen[0]))
            continue;
        seen[nseen++] = id;
        carc_feature f;
        if (carc_game_feature_info(g, id, &f) != CARC_OK || (f.complete && f.kind != CARC_FIELD))
            continue;
        double worth = feature_worth(&f, left);
        for (int p = 0; p < players; p++)
            if (f.owners & (1u << p))
                out[p] += worth;
    }
}
