/* replica.h: a client's own copy of a server table's game, rebuilt from
 * the `state` event and advanced by each `move` event, and checked
 * against the scores and the digest (carc_game_digest) the server
 * announces. Its pile is a guess except for the tiles the server has
 * shown: each move's tile and the next one. */
#ifndef CARC_REPLICA_H
#define CARC_REPLICA_H

#include <jansson.h>
#include <stddef.h>

#include "carcassonne.h"

typedef struct replica {
    carc_game *g; /* NULL until the game has started */
    int players;
    carc_rules rules;
    int turn;      /* moves applied: the `turn` of the next move */
    int finished;  /* the server said the game is over */
    int has_final; /* final_scores holds the `end` event's scores */
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

/* The tile kind a move in record notation draws ("E 0 -1 2 S": E;
 * "discard X": X), or -1. */
int replica_move_tile(const char *move);

#endif
