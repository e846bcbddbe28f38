/* rng.c: a small reproducible random generator (SplitMix64). */
#include "carcassonne.h"

carc_rng carc_rng_seed(uint64_t seed)
{
    return (carc_rng){seed};
}

uint64_t carc_rng_next(carc_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint32_t carc_rng_below(carc_rng *r, uint32_t n)
{
    /* Lemire's multiply-and-reject: unbiased, rarely more than one draw. */
    uint64_t m = (uint64_t)(uint32_t)carc_rng_next(r) * n;
    if ((uint32_t)m < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while ((uint32_t)m < threshold)
            m = (uint64_t)(uint32_t)carc_rng_next(r) * n;
    }
    return (uint32_t)(m >> 32);
}
