/* source.c: the tile source's calls that a playout does not make at every
 * ply (source.h): the set-up, a named tile, a discard, the kinds a player
 * may play, a record's start tile, the digest's part. */
#include "source.h"
#include "tiles.h"

int source_start_tile(carc_game *g)
{
    if (!(g->rules.flags & CARC_RULE_START_IN_PILE))
        return pile_start_kind(&g->rules);
    return pile_draw_start(g);
}

void source_deal(carc_game *g)
{
    if (!(g->rules.flags & CARC_RULE_START_IN_PILE))
        pile_deal(g);
    hand_start(g);
    if (!source_is_hand(g))
        pile_draw(g);
}

carc_status source_hold(carc_game *g, int kind)
{
    if (source_is_hand(g))
        return carc_game_hold_tile(g, kind);
    if (kind != g->drawn) {
        game_set_error(g, "tile %s is not the drawn tile %s", carc_tile_id(kind),
                       carc_tile_id(g->drawn));
        return CARC_EILLEGAL;
    }
    return CARC_OK;
}

int source_playable_kinds(const carc_game *g, int *kinds)
{
    if (!source_is_hand(g)) {
        kinds[0] = g->drawn;
        return 1;
    }
    int n = 0, p = g->current;
    for (int i = 0; i < g->hand.size[p]; i++) {
        int kind = g->hand.tiles[p][i], seen = 0;
        for (int j = 0; j < i; j++)
            seen |= g->hand.tiles[p][j] == kind;
        if (!seen)
            kinds[n++] = kind;
    }
    return n;
}

void source_discard(carc_game *g)
{
    if (source_is_hand(g)) {
        hand_discard(g);
    } else if (pile_may_return(g, g->drawn)) {
        pile_return(g, g->drawn);
        g->drawn = -1;
    }
}

int source_swap_start(carc_game *g, int old, int kind)
{
    pile_settle(g);
    for (int i = 0; i < g->pile_len; i++)
        if (g->pile[i] == kind) {
            g->pile[i] = (uint8_t)old;
            g->left[old]++;
            g->left[kind]--;
            return 1;
        }
    if (!source_is_hand(g)) {
        if (g->drawn != kind)
            return 0;
        g->drawn = (int8_t)old;
        return 1;
    }
    hand_state *h = &g->hand;
    for (int d = 0; d < h->ndraws; d++) {
        draw_entry *e = &h->log[d];
        if (e->kind != kind || !hand_holds(g, e->player, kind))
            continue;
        hand_take(g, e->player, kind);
        h->tiles[e->player][h->size[e->player]++] = (uint8_t)old;
        e->kind = (uint8_t)old;
        hand_focus_first(g);
        return 1;
    }
    return 0;
}

carc_status source_start_error(carc_game *g)
{
    if (!(g->rules.flags & CARC_RULE_START_IN_PILE)) {
        game_set_error(g, "%s",
                       g->rules.flags & CARC_RULE_EXTRA_START_TILE
                           ? "with extra-start-tile the start tile is the extra D: "
                             "no 'start' line"
                           : "the start tile is drawn only with the rule start-in-pile");
        return CARC_EILLEGAL;
    }
    return CARC_OK;
}

carc_status source_start_too_late(carc_game *g)
{
    if (g->nmoves > 0 || g->over || (source_is_hand(g) && g->hand.named > 0)) {
        game_set_error(g, "the start tile is named before the first draw and move");
        return CARC_EILLEGAL;
    }
    return CARC_OK;
}

/* The hands: N, each hand's size, and with open-hands its tiles in order
 * (hidden tiles are no public state). */
void source_digest(digest *d, const carc_game *g)
{
    if (!source_is_hand(g))
        return;
    digest_bytes(d, g->rules.hand, 1);
    for (int p = 0; p < g->nplayers; p++) {
        digest_bytes(d, g->hand.size[p], 1);
        for (int i = 0; !hand_hidden(&g->rules) && i < g->hand.size[p]; i++)
            digest_bytes(d, g->hand.tiles[p][i], 1);
    }
}

int source_to_come(const carc_game *g, uint8_t *counts)
{
    memcpy(counts, g->left, sizeof g->left);
    int left = g->pile_len;
    if (source_is_hand(g)) { /* every hand's tiles; the drawn one is held */
        for (int p = 0; p < g->nplayers; p++)
            for (int i = 0; i < g->hand.size[p]; i++)
                counts[g->hand.tiles[p][i]]++;
        left += hand_tiles(g);
    } else if (g->drawn >= 0) {
        counts[g->drawn]++;
        left++;
    }
    return left;
}

int source_unseen(const carc_game *g, int kind)
{
    int n = g->left[kind];
    for (int p = 0; hand_hidden(&g->rules) && p < g->nplayers; p++)
        for (int i = 0; i < g->hand.size[p]; i++)
            n += g->hand.tiles[p][i] == kind;
    return n;
}
