/* first_seat.h: who plays first at a new table (first_seat.c): the seat
 * order as given, a random seat, or the rule texts' draw-off. */
#ifndef SRV_FIRST_SEAT_H
#define SRV_FIRST_SEAT_H

#include <stddef.h>
#include <stdint.h>

/* One tile drawn in a draw-off: by the seat as asked (0-based), in which
 * round (0: the first; later rounds: the tied seats again). */
typedef struct first_draw {
    uint8_t seat, round, kind, roads;
} first_draw;

/* FIRST_TEXT_BYTES holds the log of FIRST_MAX_DRAWS draws with the
 * longest names, with the terminating NUL. */
enum { FIRST_MAX_DRAWS = 64, FIRST_TEXT_BYTES = 24 + FIRST_MAX_DRAWS * 20 + 24 };

/* The draw-off of seed 000's house rules: each of `players` seats draws a
 * base tile from one bag (the start tile set aside), the most roads
 * starts, and the tied seats draw again until one has the most. The draws
 * follow from `seed` alone, so the result can be shown and checked. Writes
 * the draws into `draws` (at most FIRST_MAX_DRAWS; their number in
 * `*ndraws`) and returns the 0-based seat that starts. */
int first_seat_draw_off(int players, uint64_t seed, first_draw *draws, int *ndraws);

/* The draw-off for people, into `buf` (NUL-terminated, at most `cap`
 * bytes): "Draw-off (roads): Red K 2, Blue U 2; again: ...; Blue starts".
 * When `cap` is short, the draws that do not fit become "..." and the
 * text still ends with who starts (FIRST_TEXT_BYTES is never short).
 * A seat's colour is that of the seat it takes once the seats turn so
 * that `first` is seat 0 (its new index (seat - first) mod players). */
void first_seat_log(const first_draw *draws, int ndraws, int first, int players, char *buf,
                    size_t cap);

/* The roads of a tile kind: its edges that are roads. */
int first_seat_roads(int kind);

#endif
