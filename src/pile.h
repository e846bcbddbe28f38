/* pile.h: the pile of face-down tiles (pile.c; not public): laid out for a
 * game's tile set, shuffled, drawn from. The pile is `g->pile[0 ..
 * pile_len)`, drawn from its end; `g->left` counts it by kind. A
 * capability may lay parts of it above the main pile, each shuffled on its
 * own and drawn before the parts below (capability.pile_part). */
#ifndef CARC_PILE_H
#define CARC_PILE_H

#include "state.h"
#include "moves.h"
#include "capabilities.h"

/* The kind of a game's start tile. */
int pile_start_kind(const carc_rules *rules);
/* Lays out and shuffles a new game's pile from the game's rules and rng. */
void pile_deal(carc_game *g);
/* Puts the drawn tile back on top of its pile; nothing is drawn after. */
void pile_put_back_drawn(carc_game *g);

/* The tiles of each part of the pile (PILE_PARTS of them, capability.h),
 * the main pile's first; returns the tiles above the main pile. */
int pile_part_sizes(const carc_game *g, int *sizes);

/* The house rules (variants.md). reshuffle: whether `kind`, which fits
 * nowhere, goes back into the pile (not a tile of a part above the main
 * pile, and while the
 * history has room for its later discard: RESHUFFLE_SLACK); puts it back
 * at a random place in the main pile; whether any tile left to draw fits
 * somewhere (always while a part above the main pile lasts).
 * start-in-pile: lays out the pile and draws the start tile from it. */
int pile_may_return(const carc_game *g, int kind);
void pile_return(carc_game *g, int kind);
int pile_any_fits(const carc_game *g);
int pile_draw_start(carc_game *g);
/* Deals the tiles `seat` (-1: a spectator) has not seen again from the
 * generator: the hands hidden from it, then the pile's order. */
void pile_deal_hidden(carc_game *g, int seat);

/* A hidden deal (pile_deal_hidden) leaves its shuffle to the draws: a
 * search deals the hidden tiles again at every iteration and draws a few.
 * pile[pile_pending .. pile_len) lie in their shuffled order; the
 * Fisher-Yates steps that shuffle_range() would take over pile[0 ..
 * pile_pending), from the top down, are still owed and are taken one a
 * draw, with the same numbers of g->rng in the same order, so every draw
 * gives the tile the whole shuffle would have put there. Everything else
 * that reads the pile's order or draws from g->rng first takes the steps
 * still owed (pile_settle). */
void pile_settle(carc_game *g);

/* The shuffle step that puts the tile at pile[pile_pending - 1]. */
static inline void pile_shuffle_step(carc_game *g)
{
    int i = g->pile_pending - 1;
    int j = (int)rng_below(&g->rng, (uint32_t)i + 1);
    uint8_t t = g->pile[i];
    g->pile[i] = g->pile[j];
    g->pile[j] = t;
    g->pile_pending = (uint8_t)(i > 1 ? i : 0); /* pile[0] needs no step */
}

/* Takes the pile's top tile, which is there. */
static inline int pile_pop(carc_game *g)
{
    if (g->pile_pending >= g->pile_len)
        pile_shuffle_step(g);
    return g->pile[--g->pile_len];
}

/* Draws the next tile into `g->drawn`, -1 when the pile is empty (inline:
 * a playout draws at every ply). */
static inline void pile_draw(carc_game *g)
{
    if (g->pile_len == 0) {
        g->drawn = -1;
        return;
    }
    g->drawn = (int8_t)pile_pop(g);
    g->left[g->drawn]--;
}

/* reshuffle without a hand: whether the drawn tile and every tile left fit
 * nowhere (a tile of a part above the main pile is set aside instead). */
static inline int pile_nothing_fits(const carc_game *g)
{
    return (g->rules.flags & CARC_RULE_RESHUFFLE) && caps_pile_part(g, g->drawn) == 0 &&
           !moves_kind_fits(g, g->drawn) && !pile_any_fits(g);
}

/* The pile's end of a turn: the next player (the same one `again`) draws;
 * with reshuffle, when nothing left fits, the drawn tile goes back. */
static inline int pile_next_turn(carc_game *g, int again)
{
    if (!again) {
        int next = g->current + 1;
        g->current = (uint8_t)(next == g->nplayers ? 0 : next); /* no division */
    }
    pile_draw(g);
    if (g->drawn >= 0 && pile_nothing_fits(g))
        pile_put_back_drawn(g);
    return g->drawn >= 0;
}

#endif
