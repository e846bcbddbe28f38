/* feature.h: features as a union-find forest over the segments
 * (feature.c; not public). What a feature is worth is scoring.h's. */
#ifndef CARC_FEATURE_H
#define CARC_FEATURE_H

#include "state.h"

/* The root of segment `s`'s feature: its parent, see feature.c. */
static inline int feature_root(const carc_game *g, int s)
{
    return g->seg[s].parent;
}
/* Whether a feature of `kind` (carc_kind) is ever complete: a road, a
 * city, a cloister; a field and a river never are. */
static inline int feature_may_complete(unsigned kind)
{
    return kind != CARC_FIELD && kind != CARC_RIVER;
}
/* Joins the features of segments a and b; returns the root of the union. */
int feature_union(carc_game *g, int a, int b);
/* Distinct tiles of the feature rooted at `root`, its pennants and the
 * CARC_MARK_* of its segments (an inn, a cathedral; `marks` may be NULL). */
int feature_tiles(const carc_game *g, int root, int *pennants, unsigned *marks);
/* Bit mask of the players with the most followers in `packed` (3 bits per
 * player). */
unsigned feature_majority(uint32_t packed, int nplayers);

#endif
