/* test_net.c: the learned network through carcassonne_ai.h: the .carcnet
 * reader refusing every damaged file with a message (each truncation,
 * each flipped byte, a wrong header, a value that is not finite, trailing
 * bytes), a forward pass worked out by hand, the inputs of real positions,
 * and "mcts:net=FILE" playing whole legal games, the committed network
 * (net=default, built into the library) among them. tests/python/test_net.py checks the forward
 * pass against PyTorch. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, mkdtemp, mkfifo, fdopen */

#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "carcassonne_ai.h"

/* A network written here byte by byte, as docs/learning.md describes the
 * file, with its own CRC-32, so the reader is judged by an independent
 * writer. Value stack: 32 -> 2 (ReLU) -> 1; policy stack: 138 -> 1. */
enum { VALUE_HIDDEN = 2 };

typedef struct blob {
    unsigned char *data;
    size_t size, cap;
} blob;

static void put(blob *b, const void *p, size_t n)
{
    if (b->size + n > b->cap) {
        b->cap = (b->size + n) * 2;
        b->data = realloc(b->data, b->cap);
        assert_non_null(b->data);
    }
    memcpy(b->data + b->size, p, n);
    b->size += n;
}

static void put_u32(blob *b, uint32_t v)
{
    unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 24)};
    put(b, le, 4);
}

static void put_f32(blob *b, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    put_u32(b, v);
}

static uint32_t crc32_ref(const unsigned char *p, size_t n)
{
    uint32_t table[256];
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1u ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        crc = table[(crc ^ p[i]) & 0xFFu] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

/* Weight i of a layer: small, varied, exact in binary. */
static float weight(int layer, int i)
{
    return (float)((i * 7 + layer * 3) % 17 - 8) / 16.0f;
}

static void put_layer(blob *b, int layer, uint32_t in, uint32_t out, uint32_t act)
{
    put_u32(b, in);
    put_u32(b, out);
    put_u32(b, act);
    for (uint32_t i = 0; i < in * out; i++)
        put_f32(b, weight(layer, (int)i));
    for (uint32_t o = 0; o < out; o++)
        put_f32(b, 0.25f * (float)(o + 1));
}

/* The test network's bytes; free b.data. */
static blob test_net(void)
{
    blob b = {0};
    put(&b, "CARCNET", 8);
    put_u32(&b, 1);
    put_u32(&b, CARC_NET_POSITION_INPUTS);
    put_u32(&b, CARC_NET_MOVE_INPUTS);
    put_f32(&b, 20.0f);
    put_u32(&b, 2);
    put_u32(&b, 1);
    put_layer(&b, 0, CARC_NET_POSITION_INPUTS, VALUE_HIDDEN, 1);
    put_layer(&b, 1, VALUE_HIDDEN, 1, 0);
    put_layer(&b, 2, CARC_NET_MOVE_INPUTS, 1, 0);
    put_u32(&b, crc32_ref(b.data, b.size));
    return b;
}

/* The bytes' checksum made right again after an edit. */
static void reseal(blob *b)
{
    uint32_t crc = crc32_ref(b->data, b->size - 4);
    b->size -= 4;
    put_u32(b, crc);
}

static void assert_refused(const blob *b, const char *what)
{
    char err[200] = "unchanged";
    carc_net *net = carc_net_read(b->data, b->size, err, sizeof err);
    if (net)
        fail_msg("a network with %s was read", what);
    if (!err[0] || strcmp(err, "unchanged") == 0)
        fail_msg("a network with %s was refused without a message", what);
}

static void test_reads_and_runs(void **state)
{
    (void)state;
    blob b = test_net();
    char err[200];
    carc_net *net = carc_net_read(b.data, b.size, err, sizeof err);
    if (!net)
        fail_msg("the test network was refused: %s", err);
    /* The forward pass by hand, in double. */
    float pos[CARC_NET_POSITION_INPUTS], moves[2 * CARC_NET_MOVE_INPUTS];
    for (int i = 0; i < CARC_NET_POSITION_INPUTS; i++)
        pos[i] = (float)(i % 5) * 0.125f - 0.25f;
    for (int i = 0; i < 2 * CARC_NET_MOVE_INPUTS; i++)
        moves[i] = (float)(i % 3) * 0.5f;
    double hidden[VALUE_HIDDEN], value = 0.25;
    for (int o = 0; o < VALUE_HIDDEN; o++) {
        hidden[o] = 0.25 * (o + 1);
        for (int i = 0; i < CARC_NET_POSITION_INPUTS; i++)
            hidden[o] += weight(0, o * CARC_NET_POSITION_INPUTS + i) * pos[i];
        hidden[o] = hidden[o] > 0 ? hidden[o] : 0;
        value += weight(1, o) * hidden[o];
    }
    assert_true(fabs(carc_net_value(net, pos) - 20.0 * value) < 1e-4);
    float logits[2];
    carc_net_policy(net, moves, 2, logits);
    for (int m = 0; m < 2; m++) {
        double logit = 0.25;
        for (int i = 0; i < CARC_NET_MOVE_INPUTS; i++)
            logit += weight(2, i) * moves[m * CARC_NET_MOVE_INPUTS + i];
        assert_true(fabs(logits[m] - logit) < 1e-4);
    }
    carc_net_free(net);
    free(b.data);
}

static void test_refuses_damage(void **state)
{
    (void)state;
    blob good = test_net();
    blob b = {malloc(good.size + 8), good.size, good.size + 8};
    assert_non_null(b.data);
    /* Every truncation. */
    for (size_t n = 0; n < good.size; n++) {
        b.size = n;
        memcpy(b.data, good.data, n);
        assert_refused(&b, "a truncation");
    }
    /* Every byte changed: the checksum (or the header before it) says so. */
    for (size_t i = 0; i < good.size; i++) {
        memcpy(b.data, good.data, good.size);
        b.size = good.size;
        b.data[i] ^= 0x41;
        assert_refused(&b, "a changed byte");
    }
    struct {
        size_t at;
        uint32_t value;
        const char *what;
    } edits[] = {
        {8, 2, "another format version"},
        {12, CARC_NET_POSITION_INPUTS + 1, "other position inputs"},
        {16, CARC_NET_MOVE_INPUTS - 1, "other move inputs"},
        {20, 0, "a value scale of 0"},
        {24, 0, "no value layer"},
        {28, 9, "too many policy layers"},
        {32, 31, "a first layer of the wrong width"},
        {36, 0, "a layer without outputs"},
        {40, 2, "an unknown activation"},
        {44, 0x7FC00000u, "a NaN weight"},
        {44, 0x7F800000u, "an infinite weight"},
    };
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        memcpy(b.data, good.data, good.size);
        b.size = good.size;
        uint32_t v = edits[e].value;
        unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                               (unsigned char)(v >> 24)};
        memcpy(b.data + edits[e].at, le, 4);
        reseal(&b);
        assert_refused(&b, edits[e].what);
    }
    /* Trailing bytes before the checksum, sealed. */
    memcpy(b.data, good.data, good.size);
    b.size = good.size;
    put_u32(&b, 0);
    reseal(&b);
    assert_refused(&b, "trailing bytes");
    /* A missing file: the message names it. */
    char err[200];
    assert_null(carc_net_load("/nonexistent/x.carcnet", err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/x.carcnet"));
    /* A folder and a FIFO with no writer: refused at once, never read (a
     * player spec may come from a server's client). */
    assert_null(carc_net_load("/tmp", err, sizeof err));
    assert_non_null(strstr(err, "not a regular file"));
    char dir[] = "/tmp/test_net_XXXXXX", fifo[64];
    assert_non_null(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_null(carc_net_load(fifo, err, sizeof err));
    assert_non_null(strstr(err, "not a regular file"));
    remove(fifo);
    remove(dir);
    free(b.data);
    free(good.data);
}

/* The inputs of positions of a random game: finite, the position's the
 * same as each move's layout says (flags 0 or 1), every legal move taken. */
static void test_inputs(void **state)
{
    (void)state;
    carc_game *g = carc_game_new(2, NULL, 11);
    assert_non_null(g);
    carc_rng rng = carc_rng_seed(3);
    carc_move *moves = malloc(sizeof *moves * CARC_MAX_MOVES);
    float *in = malloc(sizeof *in * CARC_MAX_MOVES * CARC_NET_MOVE_INPUTS);
    assert_true(moves && in);
    int positions = 0;
    while (!carc_game_over(g)) {
        int n = carc_legal_moves(g, moves, CARC_MAX_MOVES);
        float pos[CARC_NET_POSITION_INPUTS];
        assert_int_equal(carc_net_inputs(g, pos, moves, n, in), CARC_OK);
        assert_true(pos[1] == 1.0f); /* the player to move sees its own turn */
        for (int i = 0; i < CARC_NET_POSITION_INPUTS; i++)
            assert_true(isfinite(pos[i]));
        for (int i = 0; i < n * CARC_NET_MOVE_INPUTS; i++)
            assert_true(isfinite(in[i]));
        for (int m = 0; m < n; m++) {
            const float *row = in + m * CARC_NET_MOVE_INPUTS;
            float figure = 0;
            for (int k = 0; k < 5; k++)
                figure += row[CARC_NET_POSITION_INPUTS + k];
            /* one figure kind (none included), or a discard */
            assert_true(figure == 1.0f || row[CARC_NET_POSITION_INPUTS + 6] == 1.0f);
            /* the square placed on holds a tile */
            if (moves[m].type == CARC_MOVE_PLACE)
                assert_true(row[CARC_NET_POSITION_INPUTS + 7 + 4 * 11] == 1.0f);
        }
        carc_game_play_random(g, &rng, 0.3, NULL);
        positions++;
    }
    float pos[CARC_NET_POSITION_INPUTS];
    assert_int_equal(carc_net_inputs(g, pos, NULL, 0, NULL), CARC_EINVAL);
    assert_true(positions > 60);
    free(moves);
    free(in);
    carc_game_free(g);
}

static void play_games(const char *spec, int games)
{
    char err[200];
    carc_player *p = carc_player_new(spec, 5, err, sizeof err);
    if (!p)
        fail_msg("spec '%s' refused: %s", spec, err);
    assert_non_null(strstr(carc_player_spec(p), "net="));
    for (int i = 0; i < games; i++) {
        carc_game *g = carc_game_new(2, NULL, 100 + (uint64_t)i);
        assert_non_null(g);
        while (!carc_game_over(g)) {
            carc_move m;
            assert_int_equal(carc_player_choose(p, g, &m, NULL), CARC_OK);
            if (carc_game_play(g, m, NULL, 0, NULL) != CARC_OK)
                fail_msg("an illegal move: %s", carc_game_error(g));
        }
        carc_game_free(g);
    }
    carc_player_free(p);
}

/* The same search (same seed, same iterations: the same tree but for the
 * priors) with and without the priors below the root (deep=N) spreads
 * its root visits differently: the priors are used. deep=1 has a node's
 * priors made as its placements are ordered, deep=2 at its second visit. */
static void assert_deep_priors_steer(int depth)
{
    char err[200], spec[80], part[16];
    snprintf(spec, sizeof spec, "mcts:iters=3000,threads=1,net=default,deep=%d", depth);
    snprintf(part, sizeof part, ",deep=%d", depth);
    carc_player *plain =
        carc_player_new("mcts:iters=3000,threads=1,net=default", 9, err, sizeof err);
    carc_player *deep = carc_player_new(spec, 9, err, sizeof err);
    assert_non_null(plain);
    assert_non_null(deep);
    assert_non_null(strstr(carc_player_spec(deep), part));
    assert_null(strstr(carc_player_spec(plain), "deep="));
    carc_game *g = carc_game_new(2, NULL, 77);
    assert_non_null(g);
    carc_player *mover = carc_player_new("greedy", 3, err, sizeof err);
    assert_non_null(mover);
    for (int i = 0; i < 10; i++) { /* a few moves in, where nodes below the root have choices */
        carc_move m;
        assert_int_equal(carc_player_choose(mover, g, &m, NULL), CARC_OK);
        assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
    }
    carc_player_free(mover);
    static carc_move_eval a[CARC_MAX_MOVES], b[CARC_MAX_MOVES];
    int na = carc_player_rank(plain, g, a, CARC_MAX_MOVES, NULL);
    int nb = carc_player_rank(deep, g, b, CARC_MAX_MOVES, NULL);
    assert_int_equal(na, nb);
    int differ = 0;
    for (int i = 0; i < na; i++)
        differ |= a[i].visits != b[i].visits || !carc_move_equal(a[i].move, b[i].move);
    assert_true(differ);
    assert_null(carc_player_new("mcts:net=default,deep=x", 1, err, sizeof err));
    assert_non_null(strstr(err, "deep must be"));
    carc_game_free(g);
    carc_player_free(plain);
    carc_player_free(deep);
}

/* net=default is built into the library: from another working folder it
 * plays exactly as the committed file named by its path (same seed, same
 * iterations, the same move in every position of a game). */
static void test_built_in_network(void **state)
{
    (void)state;
    char err[200], spec[600];
    snprintf(spec, sizeof spec, "mcts:iters=200,threads=1,net=%s", CARC_NET_FILE);
    assert_int_equal(chdir("/"), 0);
    carc_player *built =
        carc_player_new("mcts:iters=200,threads=1,net=default", 3, err, sizeof err);
    if (!built)
        fail_msg("net=default refused: %s", err);
    carc_player *file = carc_player_new(spec, 3, err, sizeof err);
    if (!file)
        fail_msg("%s refused: %s", spec, err);
    carc_game *g = carc_game_new(2, NULL, 77);
    assert_non_null(g);
    int plies = 0;
    while (!carc_game_over(g)) {
        carc_move a, b;
        carc_player_reseed(built, (uint64_t)plies);
        carc_player_reseed(file, (uint64_t)plies);
        assert_int_equal(carc_player_choose(built, g, &a, NULL), CARC_OK);
        assert_int_equal(carc_player_choose(file, g, &b, NULL), CARC_OK);
        assert_true(carc_move_equal(a, b));
        assert_int_equal(carc_game_play(g, a, NULL, 0, NULL), CARC_OK);
        plies++;
    }
    assert_true(plies >= 71);
    carc_game_free(g);
    carc_player_free(built);
    carc_player_free(file);
}

static void test_player(void **state)
{
    (void)state;
    blob b = test_net();
    char path[] = "/tmp/test_net_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b.data, 1, b.size, f), b.size);
    fclose(f);
    char spec[200];
    snprintf(spec, sizeof spec, "mcts:iters=150,threads=1,net=%s", path);
    play_games(spec, 2);
    snprintf(spec, sizeof spec, "mcts:iters=150,threads=2,blend=0,puct=3,net=%s", path);
    play_games(spec, 1);
    /* The network that ships with the sources. */
    play_games("mcts:iters=150,threads=1,net=default", 1);
    /* Its priors below the root too, from a node's second visit, and
     * from its opening (made as its placements are ordered). */
    play_games("mcts:iters=300,threads=1,net=default,deep=2", 1);
    play_games("mcts:iters=300,threads=1,net=default,deep=1", 1);
    assert_deep_priors_steer(2);
    assert_deep_priors_steer(1);
    /* A file that is not a network: the spec is refused with the reader's
     * message. */
    b.data[0] = 'X';
    f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(b.data, 1, b.size, f);
    fclose(f);
    snprintf(spec, sizeof spec, "mcts:net=%s", path);
    char err[200];
    assert_null(carc_player_new(spec, 1, err, sizeof err));
    assert_non_null(strstr(err, "not a .carcnet file"));
    assert_null(carc_player_new("greedy:net=default", 1, err, sizeof err));
    assert_null(carc_player_new("mcts:blend=2", 1, err, sizeof err));
    remove(path);
    free(b.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_and_runs),   cmocka_unit_test(test_refuses_damage),
        cmocka_unit_test(test_inputs),           cmocka_unit_test(test_player),
        cmocka_unit_test(test_built_in_network),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
