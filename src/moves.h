/* moves.h: what the drawn tile may do (moves.c; not public): legal
 * placements and follower spots, every legal move, the check of a given
 * move, and a uniformly random move for playouts. */
#ifndef CARC_MOVES_H
#define CARC_MOVES_H

#include "state.h"

/* A move as plain integers. The playout step passes moves this way: a
 * carc_move built byte by byte and read back as a word stalls the CPU's
 * store forwarding. */
typedef struct move_fields {
    int type, x, y, rot, segment;
    int square; /* the frontier square of a placement */
    int figure; /* carc_figure on `segment` */
} move_fields;

static inline carc_move move_of(const move_fields *f)
{
    carc_placement p = {(int8_t)f->x, (int8_t)f->y, (uint8_t)f->rot, 0};
    return (carc_move){(uint8_t)f->type, p, (uint8_t)f->segment, (uint8_t)f->figure};
}

/* Whether tile `kind` fits somewhere on the board (a river tile: at the
 * river's open end). */
int moves_kind_fits(const carc_game *g, int kind);
/* CARC_OK when `m` is legal for the drawn tile; else the status, with the
 * game's error saying why. */
carc_status moves_check(carc_game *g, carc_move m);
/* The move carc_random_move() chooses, into `m`. */
void moves_random(const carc_game *g, carc_rng *r, double follower_chance, move_fields *m);

#endif
