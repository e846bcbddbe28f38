/* replica.h: a client's own copy of a server table's game, rebuilt from
 * the `state` event and advanced by each `move` event, and checked
 * against the scores and the digest (carc_game_digest) the server
 * announces. Its pile is a guess except for the tiles the server has
 * shown: each move's tile and the next one. */
#ifndef CARC_REPLICA_H
#define CARC_REPLICA_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "carcassonne.h"

/* One step of a hand game's history as the server showed it to this
 * connection: a move, or a draw into a hand (kind -1 when the hand is
 * hidden from this connection). */
enum { REPLICA_MOVE_TEXT = 64 };
typedef struct replica_step {
    int is_draw;
    int player; /* a draw's player */
    int kind;   /* a draw's tile kind; -1: hidden */
    int guess;  /* a hidden draw's tile in the last rebuild that held; -1: none yet */
    int back;   /* a discard: 1 when its tile went back into the pile (reshuffle,
                   while the game's slack for returns lasts), 0 not; -1 unknown yet */
    /* A move: the kinds that fit somewhere on the board before it (bit k of
     * fits[k / 64]) and the tiles left in the pile then, once a rebuild got
     * there (fits_known). */
    int fits_known, pile_left;
    uint64_t fits[2];
    char move[REPLICA_MOVE_TEXT];
} replica_step;

typedef struct replica {
    carc_game *g; /* NULL until the game has started */
    int players;
    int seat; /* this connection's seat by the last `state`; -1: a spectator */
    carc_rules rules;
    /* A hand game (hand=N) is rebuilt from its whole history after each
     * event (replica_hand.c): the hidden draws are named afresh each time,
     * so that every tile another seat plays was in its hand. */
    replica_step *steps;
    int nsteps, capsteps;
    int next_player;   /* who moves after the history, by the last event; -1: unknown */
    carc_game **snaps; /* the rebuild's copies of the game, kept for the next one */
    int nsnaps;
    int end_fits_known, end_pile_left;
    uint64_t end_fits[2]; /* the kinds that fit on the board after the history */
    int start_kind;       /* start-in-pile: the start tile's kind; -1: none */
    int returned;         /* the kind the last move sent back into the pile; -1: none */
    int turn;             /* moves applied: the `turn` of the next move */
    int finished;         /* the server said the game is over */
    int has_final;        /* final_scores holds the `end` event's scores */
    int final_scores[CARC_MAX_PLAYERS];
    int forfeit; /* the seat that forfeited, by the `end` event; -1: none */
} replica;

void replica_init(replica *r);
void replica_clear(replica *r);

/* Rebuilds the game from a `state` event: its players, rules, expansions
 * (`"expansions":["river"]`; none when missing), every move
 * and the tile to play. A waiting table leaves `g` NULL. Returns 0, or -1
 * with the reason in `err` (a move the library refuses, scores that differ
 * from the server's). */
int replica_load_state(replica *r, const json_t *state, char *err, size_t errcap);

enum { REPLICA_GAP = -2 };

/* Applies a `move` event. Returns 1 when applied, 0 when it was already
 * applied (an older turn), REPLICA_GAP when moves were missed (the caller
 * asks `sync`), -1 with the reason in `err` (a move the library refuses,
 * scores that differ). */
int replica_apply_move(replica *r, const json_t *move, char *err, size_t errcap);

/* Takes the `end` event: ends the replica's game when the server ended it
 * early, and checks the final scores. Returns 0, or -1 with `err`. */
int replica_apply_end(replica *r, const json_t *end, char *err, size_t errcap);

/* The kinds of seat `seat`'s hand in `r` (at most CARC_MAX_HAND), their
 * number; 0 without a hand or a game. */
int replica_hand(const replica *r, int seat, int kinds[CARC_MAX_HAND]);

/* The tile kind a move in record notation draws ("E 0 -1 2 S": E;
 * "discard X": X), or -1. */
int replica_move_tile(const char *move);

#endif
