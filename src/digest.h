/* digest.h: the bytes of carc_game_digest() (carcassonne.h), FNV-1a 64,
 * for game.c and the capabilities' parts of it (not public). */
#ifndef CARC_DIGEST_H
#define CARC_DIGEST_H

#include <stdint.h>

typedef struct digest {
    uint64_t h;
} digest;

static inline void digest_bytes(digest *d, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        d->h ^= (v >> (8 * i)) & 0xFFu;
        d->h *= 0x100000001B3ull;
    }
}

#endif
