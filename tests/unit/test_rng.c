/* test_rng.c: the reproducible generator and the random player built on
 * it. Seeds are fixed, so every run draws the same numbers; the bounds are
 * ones a correct generator passes with overwhelming probability. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

static void test_determinism(void **state)
{
    (void)state;
    carc_rng a = carc_rng_seed(12345), b = carc_rng_seed(12345), c = carc_rng_seed(12346);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = carc_rng_next(&a);
        assert_true(x == carc_rng_next(&b));
        differ += x != carc_rng_next(&c);
    }
    assert_true(differ > 990);
    /* The state is a plain value: a copy continues the same way. */
    carc_rng d = a;
    assert_true(carc_rng_next(&d) == carc_rng_next(&a));
    assert_int_equal(carc_rng_below(&d, 1000), carc_rng_below(&a, 1000));
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_outputs_vary(void **state)
{
    (void)state;
    enum { N = 20000 };
    static uint64_t v[N];
    carc_rng r = carc_rng_seed(0);
    int bits[64] = {0};
    for (int i = 0; i < N; i++) {
        v[i] = carc_rng_next(&r);
        for (int b = 0; b < 64; b++)
            bits[b] += (int)((v[i] >> b) & 1);
    }
    qsort(v, N, sizeof v[0], cmp_u64);
    for (int i = 1; i < N; i++)
        assert_true(v[i] != v[i - 1]);
    /* Each bit is set about half the time: 10000, sd 71. */
    for (int b = 0; b < 64; b++)
        assert_in_range(bits[b], N / 2 - 500, N / 2 + 500);
}

static void test_below_range(void **state)
{
    (void)state;
    static const uint32_t ns[] = {
        1, 2, 3, 5, 7, 10, 100, 1000, 65536, 1u << 31, (1u << 31) + 1, 3u << 30, 0xFFFFFFFFu,
    };
    carc_rng r = carc_rng_seed(99);
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        uint32_t max = 0;
        for (int k = 0; k < 5000; k++) {
            uint32_t x = carc_rng_below(&r, ns[i]);
            assert_true(x < ns[i]);
            if (x > max)
                max = x;
        }
        /* The top of the range is reached (or nearly). */
        assert_true(max >= ns[i] - 1 - ns[i] / 100);
    }
}

/* Pearson's chi-square of `draws` numbers below n against the uniform
 * distribution. */
static double chi_square(uint64_t seed, uint32_t n, int draws)
{
    int *count = calloc(n, sizeof *count);
    assert_non_null(count);
    carc_rng r = carc_rng_seed(seed);
    for (int i = 0; i < draws; i++)
        count[carc_rng_below(&r, n)]++;
    double expected = (double)draws / n, chi = 0;
    for (uint32_t k = 0; k < n; k++)
        chi += (count[k] - expected) * (count[k] - expected) / expected;
    free(count);
    return chi;
}

static void test_below_uniform(void **state)
{
    (void)state;
    /* Critical values far in the tail (p < 1e-6): df 9 -> 50, df 6 -> 40,
     * df 99 -> 200, df 2 -> 30. */
    assert_true(chi_square(1, 10, 100000) < 50.0);
    assert_true(chi_square(2, 7, 100000) < 40.0);
    assert_true(chi_square(3, 100, 200000) < 200.0);
    assert_true(chi_square(4, 3, 90000) < 30.0);
}

/* Large ranges show the usual biases: modulo favours the low quarter of
 * n = 3 * 2^30 (P = 1/2 instead of 1/3), multiply-and-shift without the
 * rejection step favours multiples of 3 (P = 1/2 instead of 1/3). */
static void test_below_unbiased_large(void **state)
{
    (void)state;
    const uint32_t n = 3u << 30;
    carc_rng r = carc_rng_seed(2024);
    int low = 0, third = 0;
    const int draws = 120000;
    for (int i = 0; i < draws; i++) {
        uint32_t x = carc_rng_below(&r, n);
        low += x < (1u << 30);
        third += x % 3 == 0;
    }
    /* 40000 expected, sd 163. */
    assert_in_range(low, 38500, 41500);
    assert_in_range(third, 38500, 41500);
}

/* --- The random player ------------------------------------------------------- */

static void test_random_move_uniform(void **state)
{
    (void)state;
    /* E on the initial board: (0,-1) r2 and (0,1) r1, r2, r3. */
    carc_game *g = sup_game(2, 1);
    assert_int_equal(carc_game_choose_tile(g, carc_tile_parse("E")), CARC_OK);
    carc_rng r = carc_rng_seed(77);
    int count[4] = {0};
    for (int i = 0; i < 40000; i++) {
        carc_move m = carc_random_move(g, &r, 0);
        assert_int_equal(m.type, CARC_MOVE_PLACE);
        assert_int_equal(m.segment, CARC_NO_SPOT);
        assert_true(carc_placement_legal(g, m.place));
        int slot = m.place.y == -1 ? 0 : m.place.rot;
        count[slot]++;
    }
    double chi = 0;
    for (int k = 0; k < 4; k++)
        chi += (count[k] - 10000.0) * (count[k] - 10000.0) / 10000.0;
    assert_true(chi < 35.0); /* df 3 */
    /* With the same generator state, the same move. */
    carc_rng a = carc_rng_seed(5), b = carc_rng_seed(5);
    for (int i = 0; i < 100; i++) {
        carc_move m1 = carc_random_move(g, &a, 0.5), m2 = carc_random_move(g, &b, 0.5);
        assert_memory_equal(&m1, &m2, sizeof m1);
    }
    carc_game_free(g);
}

static void test_random_move_follower_chance(void **state)
{
    (void)state;
    long with = 0, offered = 0;
    for (int i = 0; i < 30; i++) {
        double chance = i % 3 == 0 ? 0.0 : i % 3 == 1 ? 1.0 : 0.5;
        carc_game *g = sup_game(2 + i % 5, (uint64_t)i);
        carc_rng r = carc_rng_seed((uint64_t)i + 100);
        while (!carc_game_over(g)) {
            carc_move m = carc_random_move(g, &r, chance);
            if (m.type == CARC_MOVE_PLACE) {
                carc_spot spots[CARC_MAX_SPOTS];
                int ns = carc_legal_spots(g, m.place, spots, CARC_MAX_SPOTS);
                if (chance == 0.0)
                    assert_int_equal(m.segment, CARC_NO_SPOT);
                if (chance == 1.0)
                    assert_int_equal(m.segment == CARC_NO_SPOT, ns == 0);
                if (m.segment != CARC_NO_SPOT) {
                    int found = 0;
                    for (int k = 0; k < ns; k++)
                        found |= spots[k].segment == m.segment;
                    assert_true(found);
                }
                if (chance == 0.5 && ns > 0) {
                    offered++;
                    with += m.segment != CARC_NO_SPOT;
                }
            }
            assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
        }
        carc_game_free(g);
    }
    /* About half of the moves that could take a follower did. */
    assert_true(offered > 200);
    assert_true(with > offered * 4 / 10 && with < offered * 6 / 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_outputs_vary),
        cmocka_unit_test(test_below_range),
        cmocka_unit_test(test_below_uniform),
        cmocka_unit_test(test_below_unbiased_large),
        cmocka_unit_test(test_random_move_uniform),
        cmocka_unit_test(test_random_move_follower_chance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
