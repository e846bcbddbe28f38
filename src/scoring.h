/* scoring.h: what a feature is worth, and scoring features during play
 * and at the end (scoring.c; not public). */
#ifndef CARC_SCORING_H
#define CARC_SCORING_H

#include "state.h"

typedef struct event_sink {
    carc_event *events;
    int cap, count;
} event_sink;

/* Adds `ev` to the sink (NULL: none); counts it even when it has no room. */
static inline void sink_push(event_sink *sink, const carc_event *ev)
{
    if (sink && sink->count < sink->cap)
        sink->events[sink->count] = *ev;
    if (sink)
        sink->count++;
}

void score_completed(carc_game *g, int root, event_sink *sink);
/* For the capabilities' scoring (capability.h): adds `points` to the
 * players of `winners` (a bit each) as points of feature kind `kind`; a
 * new event for the feature rooted at `root`; the completed cities that
 * border the farm rooted at `farm`, their roots in `cities` (`seen`: a bit
 * a segment, cleared first); calls `visit` once for each farm (`fields`
 * 1) or each other feature (`fields` 0) that holds a follower, in the
 * order of the board's tiles (few hold one). */
void score_award(carc_game *g, unsigned winners, int points, int kind);
carc_event score_event(const carc_game *g, int root, int complete);
int score_farm_cities(const carc_game *g, int farm, uint64_t seen[MAX_SEGMENTS / 64],
                      uint16_t *cities);
typedef void (*feature_visitor)(carc_game *g, int root, void *ctx);
void score_each_occupied(carc_game *g, int fields, feature_visitor visit, void *ctx);
void score_final(carc_game *g, event_sink *sink);
/* What a feature is worth: the one place that decides it (scoring,
 * feature queries and the full evaluation call it): the standard worth
 * (scoring.c), then the capabilities' `worth` hooks. A road or city of
 * `tiles` tiles and `pennants` pennants, complete or not (a city's final
 * value), a cloister with `tiles` = itself and its neighbours; a farm's
 * value for `tiles` completed cities. */
static inline int feature_worth(const carc_game *g, unsigned kind, int tiles, int pennants,
                                unsigned marks, int complete)
{
    return carc_feature_worth(&g->rules, (int)kind, tiles, pennants, marks, complete);
}
int farm_city_count(const carc_game *g, int farm_root);
/* What the feature rooted at `root` would score at the end of the game
 * as it is (carc_feature.value_at_end), with no more walked than that
 * needs: a farm's cities, a road's or a city's tiles, a cloister's count. */
int feature_end_worth(const carc_game *g, int root);

#endif
