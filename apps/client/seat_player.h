/* seat_player.h: who chooses the moves of a `carcassonne connect` seat:
 * a library player (`greedy`, `mcts:level=hard`, ...), an outside engine
 * (`engine:COMMAND`, the engine protocol) or a person at the terminal
 * (`human`). Choosing runs on a thread of its own so that the event loop
 * keeps serving the connection; the loop is told when a move is ready. */
#ifndef CARC_SEAT_PLAYER_H
#define CARC_SEAT_PLAYER_H

#include <stddef.h>
#include <stdint.h>

#include "carcassonne.h"

typedef struct seat_player seat_player;

/* Creates the player of `spec` ("human", "engine:COMMAND" or a library
 * spec) for seat `seat` (-1: not known yet). An engine is driven as the
 * arena drives one (docs/protocol.md, "The controller"). `ready` is
 * called (from the player's thread) when a choice is done. Returns NULL
 * with the reason in `err`. Free with seat_player_free(). */
seat_player *seat_player_new(const char *spec, int seat, uint64_t seed, void (*ready)(void *user),
                             void *user, char *err, size_t errcap);
/* Stops the thread (a human's pending prompt is abandoned; a running
 * engine's `go` is waited for), ends an engine's game as
 * seat_player_finish() asked, and frees `p`. */
void seat_player_free(seat_player *p);

/* Starts choosing a move in position `g` (copied; the seat must be to
 * move) for turn `turn`; an engine's `go` gets `ms` milliseconds. Returns
 * 0, or -1 when out of memory. A choice already running is abandoned. */
int seat_player_start(seat_player *p, const carc_game *g, int turn, int ms);
/* The game `g` (copied) is over, with final `scores` (NULL: those of `g`)
 * and the seat that forfeited (-1: none); the player sits in `seat`. An
 * engine is told the moves it has not seen and `end` when `p` is freed. */
void seat_player_finish(seat_player *p, const carc_game *g, int seat, const int *scores,
                        int forfeit);
/* Whether a choice is running or its result not yet taken. */
int seat_player_busy(seat_player *p);
/* The turn of the latest choice asked for, or -1. */
int seat_player_turn(seat_player *p);
/* Abandons the running choice (the turn has moved on: the clock ran out,
 * the server played for the seat); a person is told so. */
void seat_player_cancel(seat_player *p);
/* Takes a finished choice: returns 1 with the move (record notation) in
 * `move` and its turn in `*turn`, -1 when the player failed (the reason
 * in `err`: an engine died, the terminal closed), 0 when nothing is ready. */
int seat_player_take(seat_player *p, char *move, size_t cap, int *turn, char *err, size_t errcap);
/* Whether the player is a person at the terminal. */
int seat_player_is_human(const seat_player *p);

#endif
