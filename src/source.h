/* source.h: the tile source (not public): where a player's tile comes
 * from and where an unplayable one goes. One interface, two
 * implementations chosen by the rules: the pile (pile.h: one tile drawn
 * at a time, a capability's parts of it drawn before the main pile;
 * reshuffle's returned tiles and start-in-pile's drawn start tile,
 * pile.c) and the hand (hand.h,
 * hand=N: each player holds N tiles and plays any of them). The turn code
 * (game.c, moves.c) takes its tiles from here and ends every turn here.
 * The per-move calls are inline: a playout makes them at every ply. */
#ifndef CARC_SOURCE_H
#define CARC_SOURCE_H

#include "state.h"
#include "capability.h"
#include "digest.h"
#include "hand.h"
#include "moves.h"
#include "pile.h"

static inline int source_is_hand(const carc_game *g)
{
    return hand_in_game(&g->rules);
}

/* --- Set-up and copies ------------------------------------------------------ */

/* A new game's start tile (start-in-pile: drawn from a pile laid out for
 * it); source_deal() follows once it is on the board. */
int source_start_tile(carc_game *g);
/* Lays out the pile (unless the start tile's draw did), deals the hands
 * and draws the first player's tile. */
void source_deal(carc_game *g);

/* What carc_game_copy() copies beyond the state's fixed part. */
static inline void source_copy(carc_game *dst, const carc_game *src)
{
    if (source_is_hand(src))
        dst->hand = src->hand;
}

/* --- The drawn tile ----------------------------------------------------------- */

/* The `tile` of a move of the drawn tile (carc_placement.tile): 0 when
 * the source offers one tile, else 1 + the held tile's kind. */
static inline uint8_t source_move_tile(const carc_game *g)
{
    return source_is_hand(g) ? (uint8_t)(g->drawn + 1) : 0;
}

/* Makes the tile `kind` that a move names the drawn tile: any tile of the
 * current player's hand; the pile's drawn tile alone. */
carc_status source_hold(carc_game *g, int kind);

/* The drawn tile is placed: it leaves the hand. */
static inline void source_take(carc_game *g)
{
    if (source_is_hand(g))
        hand_take(g, g->current, g->drawn);
}

/* A random move's tile: with a hand, one that fits, uniformly. */
static inline void source_hold_random(carc_game *g, carc_rng *r)
{
    if (source_is_hand(g))
        hand_hold_random(g, r);
}

/* The kinds the current player may play, each once, into `kinds`
 * (CARC_MAX_KINDS); returns their number. */
int source_playable_kinds(const carc_game *g, int *kinds);

/* The drawn tile fits nowhere and is discarded: back into the pile
 * (reshuffle), else set aside; a hand draws one tile in its place. */
void source_discard(carc_game *g);

/* --- The end of a turn ---------------------------------------------------------- */

/* The one end of every turn, after move `m` (a placement or a discard)
 * with `turn` as the capabilities decided it (TURN_* bits): the next
 * player and tile. Returns 0 when there is none: the game is over. */
static inline int source_next_turn(carc_game *g, const move_fields *m, unsigned turn)
{
    if (source_is_hand(g))
        return hand_next_turn(g, m, turn);
    return pile_next_turn(g, (turn & TURN_AGAIN) != 0);
}

/* The game ended early (carc_game_finish): the pile's drawn tile goes back,
 * so that what is left does not depend on the deal. */
static inline void source_finish(carc_game *g)
{
    if (g->drawn >= 0 && !source_is_hand(g))
        pile_put_back_drawn(g);
}

/* --- start-in-pile's start tile named by a record ------------------------------ */

/* Puts `old`, the start tile, where the tile `kind` is still to be drawn;
 * 0 when no such tile is. */
int source_swap_start(carc_game *g, int old, int kind);
/* Why a record may not name the start tile (sets the error): the rules
 * fix it (no start-in-pile); the first draw or move is made. CARC_OK when
 * it may. */
carc_status source_start_error(carc_game *g);
carc_status source_start_too_late(carc_game *g);

/* --- What the digest says of it --------------------------------------------------- */

/* The digest's version byte's share: 2 with a hand. */
static inline int source_digest_version(const carc_game *g)
{
    return source_is_hand(g) ? 2 : 0;
}
/* Its part after the rules; whether the drawn tile is public; the tiles
 * of `kind` no seat has seen (the pile's, and hidden hands'). */
void source_digest(digest *d, const carc_game *g);
static inline int source_drawn_public(const carc_game *g)
{
    return !g->over && !hand_hidden(&g->rules);
}
int source_unseen(const carc_game *g, int kind);

/* --- What the players evaluate ------------------------------------------------------ */

/* The tiles still to be played, of each kind into `counts`
 * (LAYOUT_KINDS of them; a tile that fits nowhere may yet be discarded):
 * the pile's and the drawn tile, or every hand's. Returns their number. */
int source_to_come(const carc_game *g, uint8_t *counts);

#endif
