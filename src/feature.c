/* feature.c: features as a union-find forest over tile segments, and
 * what a feature is made of. Every node points straight at its root: a
 * union relabels the members of the smaller feature (union by size keeps
 * that to O(n log n) over a game, and most unions join one new segment),
 * so finding a root is one load and never a loop. */

#include "state.h"
#include "feature.h"
#include "tiles.h"

int feature_union(carc_game *g, int a, int b)
{
    int ra = feature_root(g, a), rb = feature_root(g, b);
    if (ra == rb)
        return ra;
    /* Which feature is larger is random: swap by arithmetic, not a branch. */
    int differ = (ra ^ rb) & -(int)(seg_size(&g->seg[ra]) < seg_size(&g->seg[rb]));
    ra ^= differ;
    rb ^= differ;
    seg_node *big = &g->seg[ra], *small = &g->seg[rb];
    int s = rb;
    do {
        g->seg[s].parent = (seg_id)ra;
        s = g->seg[s].next;
    } while (s != rb);
    /* Sizes, open edges and followers add up field by field. */
    big->root += small->root;
    seg_id next = big->next;
    big->next = small->next;
    small->next = next;
    return ra;
}

int feature_tiles(const carc_game *g, int root, int *pennants, unsigned *marks)
{
    uint64_t seen[2] = {0, 0};
    int tiles = 0, flags = 0;
    unsigned marked = 0;
    int s = root;
    do {
        const seg_node *m = &g->seg[s];
        uint64_t bit = 1ull << (m->tile & 63);
        if (!(seen[m->tile >> 6] & bit)) {
            seen[m->tile >> 6] |= bit;
            tiles++;
        }
        const carc_segment_def *def =
            &carc_tile_data[g->tiles[m->tile].kind].segments[seg_local(m)];
        flags += def->pennant;
        if (LAYOUT_WIDE) /* no base tile has a mark */
            marked |= def->marks;
        s = m->next;
    } while (s != root);
    if (pennants)
        *pennants = flags;
    if (marks)
        *marks = marked;
    return tiles;
}

unsigned feature_majority(uint32_t packed, int nplayers)
{
    unsigned best = 0, mask = 0;
    for (int p = 0; p < nplayers; p++) {
        unsigned n = followers_of(packed, p);
        if (n > best) {
            best = n;
            mask = 1u << p;
        } else if (n == best && n > 0) {
            mask |= 1u << p;
        }
    }
    return mask;
}

/* --- Public queries ---------------------------------------------------------- */

static int segment_id(const carc_game *g, int index, int segment)
{
    if (index < 0 || index >= g->ntiles || segment < 0 ||
        segment >= carc_tile_data[g->tiles[index].kind].nsegments)
        return -1;
    return g->tiles[index].seg_base + segment;
}

int carc_game_feature(const carc_game *g, int index, int segment)
{
    int s = segment_id(g, index, segment);
    return s < 0 ? -1 : feature_root(g, s);
}

int carc_game_feature_has(const carc_game *g, int feature, int index, int segment)
{
    int s = segment_id(g, index, segment);
    return s >= 0 && feature_root(g, s) == feature;
}
