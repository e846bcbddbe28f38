/* test_net_dense.c: the forward pass of one dense layer (net.c, included
 * whole to reach its versions): the list of nonzero inputs, and the sums
 * in blocks of 16 outputs (SSE2), of 32 (AVX, where the machine has it) and
 * one at a time, each against a sum written here output by output (its
 * bias, then each nonzero input's product in input order): equal for every
 * width of layer, with and without the ReLU. test_net.c checks whole
 * networks through the public calls. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

/* The network's code itself: its static functions are the units under
 * test. This file's carc_net_* stand in for the library's, never linked. */
#include "ai/net.c"

/* A reproducible float in [-2, 2), or 0, -0 or a tiny (subnormal) value
 * now and then: the inputs the pass must skip or keep. */
static float test_value(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    uint32_t r = (uint32_t)(*state >> 32);
    switch (r % 8) {
    case 0:
    case 1: return 0.0f;
    case 2: return -0.0f;
    case 3: return (r & 256) ? 1e-40f : -1e-40f;
    default: return (float)(r >> 8) / (float)(1u << 22) - 2.0f;
    }
}

/* A layer of `in` x `out` reproducible weights and biases. */
typedef struct test_layer {
    layer ly;
    float *weights, *bias;
} test_layer;

static test_layer make_layer(int in, int out, int act, uint64_t *state)
{
    test_layer t;
    t.weights = malloc(sizeof(float) * (size_t)in * (size_t)out);
    t.bias = malloc(sizeof(float) * (size_t)out);
    assert_non_null(t.weights);
    assert_non_null(t.bias);
    for (int i = 0; i < in * out; i++)
        t.weights[i] = test_value(state);
    for (int o = 0; o < out; o++)
        t.bias[o] = test_value(state);
    t.ly = (layer){in, out, act, t.weights, t.bias};
    return t;
}

/* The layer's outputs as its definition says, one output at a time. */
static void expected_outputs(const layer *ly, const float *x, float *y)
{
    for (int o = 0; o < ly->out; o++) {
        float sum = ly->bias[o];
        for (int i = 0; i < ly->in; i++)
            if (x[i] != 0.0f)
                sum += x[i] * ly->weights[(size_t)i * (size_t)ly->out + (size_t)o];
        y[o] = ly->act == ACT_RELU && sum < 0.0f ? 0.0f : sum;
    }
}

/* Same numbers (a 0 and a -0 are the same number: the next layer skips
 * both), and none below 0 after a ReLU. */
static void assert_outputs_equal(const layer *ly, const float *want, const float *got,
                                 const char *version)
{
    for (int o = 0; o < ly->out; o++) {
        if (want[o] != got[o])
            fail_msg("%s, layer %d -> %d (act %d), output %d: %.9g, not %.9g", version, ly->in,
                     ly->out, ly->act, o, (double)got[o], (double)want[o]);
        if (ly->act == ACT_RELU)
            assert_false(got[o] < 0.0f);
    }
}

static void test_nonzero_inputs(void **state)
{
    (void)state;
    uint64_t rng = 7;
    float x[NET_MAX_WIDTH];
    int nz[NET_MAX_WIDTH];
    for (int in = 1; in <= 140; in++) {
        for (int i = 0; i < in; i++)
            x[i] = test_value(&rng);
        int n = nonzero_inputs(x, in, nz), k = 0;
        for (int i = 0; i < in; i++)
            if (x[i] != 0.0f) {
                assert_true(k < n);
                assert_int_equal(nz[k], i);
                k++;
            }
        assert_int_equal(k, n);
    }
    /* none, and all */
    memset(x, 0, sizeof x);
    assert_int_equal(nonzero_inputs(x, NET_MAX_WIDTH, nz), 0);
    for (int i = 0; i < NET_MAX_WIDTH; i++)
        x[i] = 1.0f;
    assert_int_equal(nonzero_inputs(x, NET_MAX_WIDTH, nz), NET_MAX_WIDTH);
    assert_int_equal(nz[NET_MAX_WIDTH - 1], NET_MAX_WIDTH - 1);
}

static void test_every_version_same_sums(void **state)
{
    (void)state;
    static const int widths[] = {1, 2, 4, 7, 8, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 100, 512};
    static const int inputs[] = {1, 5, 32, 64, 138};
    uint64_t rng = 11;
    float x[NET_MAX_WIDTH], want[NET_MAX_WIDTH], got[NET_MAX_WIDTH];
    int nz[NET_MAX_WIDTH];
    int avx_runs = 0;
    for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
        for (size_t ii = 0; ii < sizeof inputs / sizeof *inputs; ii++)
            for (int act = ACT_LINEAR; act <= ACT_RELU; act++) {
                test_layer t = make_layer(inputs[ii], widths[wi], act, &rng);
                for (int round = 0; round < 4; round++) {
                    for (int i = 0; i < t.ly.in; i++)
                        x[i] = test_value(&rng);
                    expected_outputs(&t.ly, x, want);

                    memset(got, 0x7F, sizeof got);
                    dense(&t.ly, x, got);
                    assert_outputs_equal(&t.ly, want, got, "dense");

                    int n = nonzero_inputs(x, t.ly.in, nz);
                    memset(got, 0x7F, sizeof got);
                    dense_tail(&t.ly, x, nz, n, 0, got);
                    assert_outputs_equal(&t.ly, want, got, "one at a time");

                    memset(got, 0x7F, sizeof got);
                    int done = dense_sums(&t.ly, x, nz, n, got);
                    assert_int_equal(done, t.ly.out / 16 * 16);
                    dense_tail(&t.ly, x, nz, n, done, got);
                    assert_outputs_equal(&t.ly, want, got, "blocks of 16");
#if defined(__x86_64__) && defined(__GNUC__)
                    if (__builtin_cpu_supports("avx")) {
                        memset(got, 0x7F, sizeof got);
                        done = dense_sums_avx(&t.ly, x, nz, n, got);
                        assert_int_equal(done, t.ly.out / 16 * 16);
                        dense_tail(&t.ly, x, nz, n, done, got);
                        assert_outputs_equal(&t.ly, want, got, "blocks of 32 (AVX)");
                        avx_runs++;
                    }
#endif
                }
                free(t.weights);
                free(t.bias);
            }
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx"))
        assert_int_equal(avx_runs, 17 * 5 * 2 * 4);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nonzero_inputs),
        cmocka_unit_test(test_every_version_same_sums),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
