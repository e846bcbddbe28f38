/* hand.h: the house rule hand=N (variants.md) as a module of the turn code
 * (hand.c; not public): each player's hand of up to N tiles, the draws
 * that fill it (the set-up, a discard's replacement, the draw-up after a
 * turn) with their log, the drawn tile as the hand tile in focus, and a
 * seat's view with the other hands dealt again. The state is `g->hand`
 * (state.h); every function here is for hand games only unless it says
 * otherwise. */
#ifndef CARC_HAND_H
#define CARC_HAND_H

#include "state.h"
#include "moves.h"

static inline int hand_in_game(const carc_rules *rules)
{
    return rules->hand > 0;
}

/* Whether the hands of other players are hidden from a seat. */
static inline int hand_hidden(const carc_rules *rules)
{
    return rules->hand > 0 && !(rules->flags & CARC_RULE_OPEN_HANDS);
}

/* A new game's hands: empty, the log empty; then each player in seat order
 * draws N tiles. Any game: does nothing without a hand. */
void hand_start(carc_game *g);
/* Player p draws one tile from the pile into the hand (logged); 0 when the
 * pile is empty. */
int hand_draw_one(carc_game *g, int p);
/* Player p draws back up to N tiles (fewer when the pile runs out). */
void hand_draw_up(carc_game *g, int p);
/* Takes one tile of `kind` out of player p's hand; 0 when it holds none. */
int hand_take(carc_game *g, int p, int kind);
/* Whether player p's hand holds `kind`. */
int hand_holds(const carc_game *g, int p, int kind);
/* Sets the drawn tile to the current player's first hand tile (-1 when the
 * hand is empty). */
void hand_focus_first(carc_game *g);
/* Makes a uniformly chosen tile of the current player's hand that fits
 * somewhere the drawn tile (any tile of the hand when none fits): the
 * first step of a random move. */
void hand_hold_random(carc_game *g, carc_rng *r);
/* After player `mover`'s move: makes the first player from seat `from` on
 * (in seat order, wrapping) who has a move the current player, its first
 * hand tile in focus; a player with no move is passed. Returns 0, with
 * nothing changed, when nobody has a move (the game is over). Remembers
 * the search so that hand_pass_again() can repeat it. */
int hand_pass_turn(carc_game *g, int mover, int from);

/* The last hand_pass_turn() again, when a named draw of the last move has
 * changed a tile the mover holds or the pile: who has a move can differ
 * (a pile that now fits nowhere, the mover's new tile that fits). */
void hand_pass_again(carc_game *g);

/* Tiles in all hands (any game: 0 without a hand). */
int hand_tiles(const carc_game *g);
/* Deals the hands hidden from `seat` (-1: all) again from the tiles that
 * seat has not seen (the pile and those hands), with `g->rng`; the pile is
 * then laid out from the counts and must be shuffled by the caller. */
void hand_deal_hidden(carc_game *g, int seat);

/* The end of a turn in a hand game, after move `m` with `turn` (TURN_*
 * bits, capability.h): the mover draws up (not between the two parts of
 * one turn), then the next player with a move plays (the mover again with
 * TURN_AGAIN or after a discard). Returns 0, the drawn tile -1, when
 * nobody has a move. */
int hand_next_turn(carc_game *g, const move_fields *m, unsigned turn);
/* The drawn tile fits nowhere: it leaves the hand, back into the pile
 * with reshuffle, else set aside; one tile replaces it. */
void hand_discard(carc_game *g);

#endif
