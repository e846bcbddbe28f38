/* first_seat.c: the draw-off for the first seat (first_seat.h). */
#include "first_seat.h"

#include <stdarg.h>
#include <stdio.h>

#include "args.h"
#include "carcassonne.h"

enum { BASE_KINDS = 24 };

int first_seat_roads(int kind)
{
    int roads = 0;
    for (int edge = 0; edge < 4; edge++)
        roads += carc_tile_edge(kind, 0, edge) == CARC_ROAD;
    return roads;
}

/* The base tiles without the start tile, as a bag of kinds. */
static int fill_bag(uint8_t *bag)
{
    int n = 0;
    for (int kind = 0; kind < BASE_KINDS; kind++) {
        int copies = carc_tile(kind)->count - (kind == 'D' - 'A');
        for (int i = 0; i < copies; i++)
            bag[n++] = (uint8_t)kind;
    }
    return n;
}

int first_seat_draw_off(int players, uint64_t seed, first_draw *draws, int *ndraws)
{
    uint8_t bag[BASE_KINDS * 16];
    int left = fill_bag(bag), n = 0;
    carc_rng rng = carc_rng_seed(seed ^ 0xD4A3F0FFull);
    unsigned drawing = (1u << players) - 1;
    for (int round = 0;; round++) {
        int best = -1;
        unsigned best_seats = 0;
        for (int seat = 0; seat < players; seat++) {
            if (!(drawing >> seat & 1u))
                continue;
            if (left == 0) /* a long run of ties: a fresh bag */
                left = fill_bag(bag);
            int i = (int)carc_rng_below(&rng, (uint32_t)left);
            int kind = bag[i];
            bag[i] = bag[--left];
            int roads = first_seat_roads(kind);
            if (n < FIRST_MAX_DRAWS)
                draws[n++] = (first_draw){(uint8_t)seat, (uint8_t)(round < 255 ? round : 255),
                                          (uint8_t)kind, (uint8_t)roads};
            if (roads > best) {
                best = roads;
                best_seats = 1u << seat;
            } else if (roads == best) {
                best_seats |= 1u << seat;
            }
        }
        if ((best_seats & (best_seats - 1)) == 0) {
            *ndraws = n;
            return __builtin_ctz(best_seats);
        }
        drawing = best_seats;
    }
}

/* Appends to the text of `len` bytes; keeps it NUL-terminated when full. */
static size_t add(char *buf, size_t cap, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static size_t add(char *buf, size_t cap, size_t len, const char *fmt, ...)
{
    if (len >= cap)
        return len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
    return n < 0 ? len : len + (size_t)n;
}

void first_seat_log(const first_draw *draws, int ndraws, int first, int players, char *buf,
                    size_t cap)
{
    if (!buf || !cap)
        return;
    buf[0] = '\0';
    char end[32];
    int nend = snprintf(end, sizeof end, "; %s starts", cli_player_name(0));
    if (nend < 0 || (size_t)nend + 4 >= cap)
        return;
    size_t room = cap - (size_t)nend - 4; /* what the draws may take, "..." kept aside */
    size_t len = add(buf, room, 0, "Draw-off (roads):");
    for (int i = 0; i < ndraws; i++) {
        const first_draw *d = &draws[i];
        int seat = (d->seat - first + players) % players;
        const char *sep = i == 0 ? " " : d->round != draws[i - 1].round ? "; again: " : ", ";
        size_t was = len;
        len = add(buf, room, len, "%s%s %s %d", sep, cli_player_name(seat), carc_tile_id(d->kind),
                  d->roads);
        if (len >= room) { /* cut: end at the last whole draw */
            buf[was] = '\0';
            len = add(buf, cap, was, "...");
            break;
        }
    }
    add(buf, cap, len, "%s", end);
}
