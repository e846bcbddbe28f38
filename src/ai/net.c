/* net.c: the learned policy-value network: the .carcnet reader, the
 * forward pass and the inputs it reads (docs/learning.md).
 *
 * A network is two small stacks of dense layers, one for the value of a
 * position and one for the logit of a move. Each layer is y = act(W x +
 * b) with W stored row by row, so the inner loop is a dot product over
 * contiguous floats that compilers vectorise. The inputs are built from
 * the full evaluation's terms (eval_full.c) and, for a move, from the
 * squares around the tile it places. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "../error.h"
#include "net.h"

enum {
    NET_VERSION = 1,
    NET_MAX_LAYERS = 8,
    NET_MAX_WIDTH = 512,
    NET_HEADER_BYTES = 32,
    NET_LAYER_HEADER_BYTES = 12,
    NET_CHECKSUM_BYTES = 4,
    ACT_LINEAR = 0,
    ACT_RELU = 1,
};

static const char net_magic[8] = {'C', 'A', 'R', 'C', 'N', 'E', 'T', '\0'};

/* Input scales: what a typical large value of each kind of input is. */
static const double term_scale = 20.0;   /* a term of the full evaluation */
static const double value_scale = 50.0;  /* a player's expected final score */
static const double margin_scale = 20.0; /* an expected margin */

/* A layer's weights are kept by input (the file's matrix transposed):
 * input i's `out` weights are contiguous, so the forward pass adds x[i]
 * times them to every output at once, a loop compilers vectorise without
 * reordering any sum, and skips the inputs that are 0 (most of a move's). */
typedef struct layer {
    int in, out, act;
    const float *weights; /* in rows of out */
    const float *bias;
} layer;

struct carc_net {
    int depth[2]; /* layers of the value stack (0) and the policy stack (1) */
    layer layers[2][NET_MAX_LAYERS];
    float value_scale; /* points of margin per unit of the value output */
    float *params;     /* every weight and bias, owned */
};

/* --- Reading ---------------------------------------------------------------------------- */

/* CRC-32 of the IEEE polynomial, as zlib's crc32() (bit by bit: a file
 * is read once). */
static uint32_t crc32_of(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static uint32_t read_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float read_f32(const uint8_t *p)
{
    uint32_t bits = read_u32(p);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* A cursor over the file's bytes. */
typedef struct reader {
    const uint8_t *data;
    size_t size, at;
} reader;

static int has(const reader *r, size_t n)
{
    return r->size - r->at >= n;
}

/* Checks the layer headers of both stacks and counts their parameters;
 * leaves `r` at the first layer. 0 with a message when a shape is wrong. */
static int check_shapes(reader *r, const int depth[2], size_t *params, char *err, size_t cap)
{
    static const char *const names[] = {"value", "policy"};
    static const int inputs[] = {CARC_NET_POSITION_INPUTS, CARC_NET_MOVE_INPUTS};
    size_t at = r->at;
    *params = 0;
    for (int s = 0; s < 2; s++) {
        uint32_t expect = (uint32_t)inputs[s];
        for (int l = 0; l < depth[s]; l++) {
            if (!has(r, NET_LAYER_HEADER_BYTES)) {
                format_error(err, cap, "truncated in the %s stack's layer %d", names[s], l + 1);
                return 0;
            }
            uint32_t in = read_u32(r->data + r->at), out = read_u32(r->data + r->at + 4);
            uint32_t act = read_u32(r->data + r->at + 8);
            if (in != expect || out < 1 || out > NET_MAX_WIDTH || act > ACT_RELU ||
                (l == depth[s] - 1 && out != 1)) {
                format_error(
                    err, cap,
                    "the %s stack's layer %d is %u x %u (activation %u): it must take %u "
                    "inputs, give 1 to %d outputs (1 at the last layer), activation 0 or 1",
                    names[s], l + 1, in, out, act, expect, NET_MAX_WIDTH);
                return 0;
            }
            size_t n = ((size_t)in + 1) * out;
            if ((r->size - r->at - NET_LAYER_HEADER_BYTES) / 4 < n) {
                format_error(err, cap, "truncated in the %s stack's layer %d", names[s], l + 1);
                return 0;
            }
            r->at += NET_LAYER_HEADER_BYTES + 4 * n;
            *params += n;
            expect = out;
        }
    }
    r->at = at;
    return 1;
}

/* Copies the layers' parameters into `net` (shapes checked). 0 when a
 * value is not finite. */
static int read_layers(reader *r, carc_net *net, char *err, size_t cap)
{
    float *p = net->params;
    for (int s = 0; s < 2; s++)
        for (int l = 0; l < net->depth[s]; l++) {
            layer *ly = &net->layers[s][l];
            ly->in = (int)read_u32(r->data + r->at);
            ly->out = (int)read_u32(r->data + r->at + 4);
            ly->act = (int)read_u32(r->data + r->at + 8);
            r->at += NET_LAYER_HEADER_BYTES;
            size_t n = ((size_t)ly->in + 1) * (size_t)ly->out;
            for (size_t i = 0; i < n; i++, r->at += 4) {
                float v = read_f32(r->data + r->at);
                if (!isfinite(v)) {
                    format_error(err, cap, "a parameter of layer %d is not a finite number", l + 1);
                    return 0;
                }
                size_t o = i / (size_t)ly->in, k = i % (size_t)ly->in; /* weight (o, k) */
                p[i < (size_t)ly->in * (size_t)ly->out ? k * (size_t)ly->out + o : i] = v;
            }
            ly->weights = p;
            ly->bias = p + (size_t)ly->in * (size_t)ly->out;
            p += n;
        }
    return 1;
}

carc_net *carc_net_read(const void *data, size_t size, char *err, size_t errcap)
{
    format_error(err, errcap, "%s", "");
    reader r = {data, size, 0};
    if (!data || size < NET_HEADER_BYTES + NET_CHECKSUM_BYTES || memcmp(data, net_magic, 8) != 0) {
        format_error(err, errcap, "not a .carcnet file (it must begin with \"CARCNET\\0\")");
        return NULL;
    }
    if (size > CARC_NET_MAX_BYTES) {
        format_error(err, errcap, "larger than %d bytes", CARC_NET_MAX_BYTES);
        return NULL;
    }
    const uint8_t *b = data;
    uint32_t version = read_u32(b + 8), npos = read_u32(b + 12), nmove = read_u32(b + 16);
    if (version != NET_VERSION) {
        format_error(err, errcap, "format version %u; this library reads version %d", version,
                     NET_VERSION);
        return NULL;
    }
    if (npos != CARC_NET_POSITION_INPUTS || nmove != CARC_NET_MOVE_INPUTS) {
        format_error(err, errcap,
                     "made for %u position and %u move inputs; this library has %d and %d", npos,
                     nmove, CARC_NET_POSITION_INPUTS, CARC_NET_MOVE_INPUTS);
        return NULL;
    }
    float scale = read_f32(b + 20);
    int depth[2] = {(int)read_u32(b + 24), (int)read_u32(b + 28)};
    if (!(scale > 0.0f && scale < 1e6f) || depth[0] < 1 || depth[0] > NET_MAX_LAYERS ||
        depth[1] < 1 || depth[1] > NET_MAX_LAYERS) {
        format_error(err, errcap, "a bad header: value scale %g, %d and %d layers (1 to %d each)",
                     (double)scale, depth[0], depth[1], NET_MAX_LAYERS);
        return NULL;
    }
    r.size = size - NET_CHECKSUM_BYTES;
    r.at = NET_HEADER_BYTES;
    size_t params;
    if (!check_shapes(&r, depth, &params, err, errcap))
        return NULL;
    size_t end = r.at;
    for (int s = 0; s < 2; s++)
        for (int l = 0; l < depth[s]; l++)
            end += NET_LAYER_HEADER_BYTES;
    end += 4 * params;
    if (end != r.size) {
        format_error(err, errcap, "%zu bytes after the last layer (the checksum must follow it)",
                     r.size - end);
        return NULL;
    }
    if (crc32_of(b, r.size) != read_u32(b + r.size)) {
        format_error(err, errcap, "%s", "the checksum does not match: the file is damaged");
        return NULL;
    }
    carc_net *net = calloc(1, sizeof *net);
    if (net)
        net->params = malloc(sizeof(float) * params);
    if (!net || !net->params) {
        carc_net_free(net);
        format_error(err, errcap, "%s", "out of memory");
        return NULL;
    }
    net->depth[0] = depth[0];
    net->depth[1] = depth[1];
    net->value_scale = scale;
    if (!read_layers(&r, net, err, errcap)) {
        carc_net_free(net);
        return NULL;
    }
    return net;
}

/* Reads the regular file at `path` (at most CARC_NET_MAX_BYTES) into a new
 * buffer; NULL with a message otherwise. Opened without blocking and
 * checked before reading, so that a FIFO or a device named by a player spec
 * never stalls the caller (a server checks specs that clients send). */
static uint8_t *read_file(const char *path, size_t *size, char *err, size_t cap)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        format_error(err, cap, "cannot open the network %s", path);
        return NULL;
    }
    struct stat st;
    uint8_t *data = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        format_error(err, cap, "the network %s is not a regular file", path);
    else if (st.st_size > CARC_NET_MAX_BYTES)
        format_error(err, cap, "the network %s is larger than %d bytes", path, CARC_NET_MAX_BYTES);
    else if (!(data = malloc((size_t)st.st_size + 1)))
        format_error(err, cap, "out of memory reading the network %s", path);
    size_t got = 0;
    while (data && got < (size_t)st.st_size) {
        ssize_t n = read(fd, data + got, (size_t)st.st_size - got);
        if (n <= 0) {
            format_error(err, cap, "cannot read the network %s", path);
            free(data);
            data = NULL;
        } else {
            got += (size_t)n;
        }
    }
    close(fd);
    *size = got;
    return data;
}

carc_net *carc_net_load(const char *path, char *err, size_t errcap)
{
    char why[200];
    size_t size;
    uint8_t *data = read_file(path, &size, err, errcap);
    if (!data)
        return NULL;
    carc_net *net = carc_net_read(data, size, why, sizeof why);
    if (!net)
        format_error(err, errcap, "the network %s: %s", path, why);
    free(data);
    return net;
}

void carc_net_free(carc_net *net)
{
    if (!net)
        return;
    free(net->params);
    free(net);
}

/* --- The forward pass -------------------------------------------------------------------- */

/* The forward pass of a dense layer, y = act(W x + b), sums its outputs
 * in blocks held in registers across the inputs: each output starts at
 * its bias and adds x[i] w[i] over the inputs that are not 0, in their
 * order, one rounding for each product and each sum. Every version below
 * does exactly that, so all give the same numbers; the widest the machine
 * runs is used. */

/* Four and eight lanes computed lane by lane (GCC's and Clang's vector
 * extension: SSE2 and AVX on x86-64, plain code elsewhere). */
typedef float lanes4 __attribute__((vector_size(16)));
typedef float lanes8 __attribute__((vector_size(32)));
typedef int32_t ints4 __attribute__((vector_size(16)));
typedef int32_t ints8 __attribute__((vector_size(32)));

#define LANES_AT(type, p)                                                                          \
    __extension__({                                                                                \
        type v_;                                                                                   \
        memcpy(&v_, (p), sizeof v_);                                                               \
        v_;                                                                                        \
    })

/* For each set of four flags, the positions of the set ones packed to
 * the front, and their number. */
static const uint8_t packed_flags[16][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
                                            {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
                                            {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
                                            {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
static const uint8_t packed_count[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* x[i] is not 0 (nor -0): its bits apart from the sign. */
static unsigned nonzero(const float *x, int i)
{
    uint32_t bits;
    memcpy(&bits, &x[i], sizeof bits);
    return (bits << 1) != 0;
}

/* The indices of the nonzero x[0 .. in) into `nz`, in order, four at a
 * time without a branch; their number. `nz` has room for `in`. */
static int nonzero_inputs(const float *x, int in, int *nz)
{
    int n = 0, i = 0;
    for (; i + 4 <= in; i += 4) {
        unsigned m = nonzero(x, i) | nonzero(x, i + 1) << 1 | nonzero(x, i + 2) << 2 |
                     nonzero(x, i + 3) << 3;
        const uint8_t *at = packed_flags[m]; /* written at nz[n], n <= i */
        nz[n] = i + at[0];
        nz[n + 1] = i + at[1];
        nz[n + 2] = i + at[2];
        nz[n + 3] = i + at[3];
        n += packed_count[m];
    }
    for (; i < in; i++) {
        nz[n] = i;
        n += (int)nonzero(x, i);
    }
    return n;
}

/* Outputs o .. out - 1 one at a time. */
static void dense_tail(const layer *ly, const float *x, const int *nz, int n, int o,
                       float *restrict y)
{
    for (; o < ly->out; o++) {
        float sum = ly->bias[o];
        for (int j = 0; j < n; j++)
            sum += x[nz[j]] * ly->weights[(size_t)nz[j] * (size_t)ly->out + (size_t)o];
        y[o] = ly->act == ACT_RELU && sum < 0.0f ? 0.0f : sum;
    }
}

/* Outputs o .. o + 4 step - 1 in four registers of `type` (`step` floats,
 * `itype` its integers); the ReLU keeps the sums above 0 (a -0 becomes
 * 0, which the next layer skips as it would -0). */
#define DENSE_BLOCK(type, itype, step)                                                             \
    do {                                                                                           \
        const float *b_ = ly->bias + o;                                                            \
        type s0 = LANES_AT(type, b_), s1 = LANES_AT(type, b_ + (step)),                            \
             s2 = LANES_AT(type, b_ + (ptrdiff_t)2 * (step)),                                      \
             s3 = LANES_AT(type, b_ + (ptrdiff_t)3 * (step));                                      \
        for (int j = 0; j < n; j++) {                                                              \
            const float *w = ly->weights + (size_t)nz[j] * (size_t)ly->out + (size_t)o;            \
            float xi = x[nz[j]];                                                                   \
            s0 += xi * LANES_AT(type, w);                                                          \
            s1 += xi * LANES_AT(type, w + (step));                                                 \
            s2 += xi * LANES_AT(type, w + (ptrdiff_t)2 * (step));                                  \
            s3 += xi * LANES_AT(type, w + (ptrdiff_t)3 * (step));                                  \
        }                                                                                          \
        if (ly->act == ACT_RELU) {                                                                 \
            s0 = (type)((itype)s0 & (s0 > 0.0f));                                                  \
            s1 = (type)((itype)s1 & (s1 > 0.0f));                                                  \
            s2 = (type)((itype)s2 & (s2 > 0.0f));                                                  \
            s3 = (type)((itype)s3 & (s3 > 0.0f));                                                  \
        }                                                                                          \
        memcpy(y + o, &s0, sizeof s0);                                                             \
        memcpy(y + o + (step), &s1, sizeof s1);                                                    \
        memcpy(y + o + (ptrdiff_t)2 * (step), &s2, sizeof s2);                                     \
        memcpy(y + o + (ptrdiff_t)3 * (step), &s3, sizeof s3);                                     \
    } while (0)

/* Blocks of 16 outputs (four SSE2 registers): the outputs done. */
static int dense_sums(const layer *ly, const float *x, const int *nz, int n, float *restrict y)
{
    int o = 0;
    for (; o + 16 <= ly->out; o += 16)
        DENSE_BLOCK(lanes4, ints4, 4);
    return o;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* Blocks of 32 outputs (four AVX registers), then 16: the outputs done.
 * AVX without FMA: a product and a sum are still rounded apart. It
 * returns to code of the plain target (the compiler clears the upper
 * halves of the registers on the way out: SSE code after AVX code that
 * left them set runs slower), so the tail is the caller's. */
__attribute__((target("avx"))) static int dense_sums_avx(const layer *ly, const float *x,
                                                         const int *nz, int n, float *restrict y)
{
    int o = 0;
    for (; o + 32 <= ly->out; o += 32)
        DENSE_BLOCK(lanes8, ints8, 8);
    for (; o + 16 <= ly->out; o += 16)
        DENSE_BLOCK(lanes4, ints4, 4);
    return o;
}
#endif
#undef DENSE_BLOCK
#undef LANES_AT

static void dense(const layer *ly, const float *x, float *restrict y)
{
    int nz[NET_MAX_WIDTH];
    int n = nonzero_inputs(x, ly->in, nz);
    int done;
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx"))
        done = dense_sums_avx(ly, x, nz, n, y);
    else
#endif
        done = dense_sums(ly, x, nz, n, y);
    dense_tail(ly, x, nz, n, done, y);
}

/* Stack `s` on the inputs `x`: its one output. */
static float run_stack(const carc_net *net, int s, const float *x)
{
    float buf[2][NET_MAX_WIDTH]; /* layer l writes buf[l % 2] */
#ifdef __clang_analyzer__
    /* Each layer writes all its outputs, in blocks and a tail whose
     * bounds the analyzer does not follow. */
    memset(buf, 0, sizeof buf);
#endif
    const float *in = x;
    for (int l = 0; l < net->depth[s]; l++) {
        dense(&net->layers[s][l], in, buf[l & 1]);
        in = buf[l & 1];
    }
    return in[0];
}

double carc_net_value(const carc_net *net, const float position[CARC_NET_POSITION_INPUTS])
{
    return (double)run_stack(net, 0, position) * net->value_scale;
}

void carc_net_policy(const carc_net *net, const float *move_inputs, int n, float *logits)
{
    for (int i = 0; i < n; i++)
        logits[i] = run_stack(net, 1, move_inputs + (size_t)i * CARC_NET_MOVE_INPUTS);
}

/* --- Inputs ------------------------------------------------------------------------------- */

/* Position inputs, in order (docs/learning.md). */
enum {
    IN_TILES_LEFT = 0,
    IN_TO_MOVE = 1,
    IN_PLAYERS = 2,
    IN_MY_TERMS = 3,
    IN_THEIR_TERMS = IN_MY_TERMS + AI_TERMS,
    IN_MY_VALUE = IN_THEIR_TERMS + AI_TERMS,
    IN_THEIR_VALUE,
    IN_MARGIN,
    IN_POSITION_END,
};
/* Move inputs after the position inputs of the move's result. */
enum {
    IN_FIGURE = CARC_NET_POSITION_INPUTS, /* 5: none, road, city, farm, cloister */
    IN_SPECIAL_FIGURE = IN_FIGURE + 5,    /* a large follower, a builder or a pig */
    IN_DISCARD,
    IN_PATCH,
    PATCH_SQUARE = 11, /* a tile, 4 city edges, 4 road edges, my figure, another's */
    IN_MOVE_END = IN_PATCH + 9 * PATCH_SQUARE,
};
_Static_assert((int)IN_POSITION_END == (int)CARC_NET_POSITION_INPUTS, "position inputs");
_Static_assert((int)IN_MOVE_END == (int)CARC_NET_MOVE_INPUTS, "move inputs");

void net_position_inputs(const carc_game *g, int viewer, const double values[CARC_MAX_PLAYERS],
                         const double terms[CARC_MAX_PLAYERS][AI_TERMS],
                         float out[CARC_NET_POSITION_INPUTS])
{
    int players = carc_game_players(g);
    int rival = -1; /* the other player of the best value */
    for (int p = 0; p < players; p++)
        if (p != viewer && (rival < 0 || values[p] > values[rival]))
            rival = p;
    if (rival < 0)
        rival = viewer;
    int total = carc_game_tile_total(g);
    out[IN_TILES_LEFT] = total > 0 ? (float)carc_game_tiles_left(g, NULL) / (float)total : 0.0f;
    out[IN_TO_MOVE] = !carc_game_over(g) && carc_game_current_player(g) == viewer ? 1.0f : 0.0f;
    out[IN_PLAYERS] = (float)(players - 2) / 6.0f;
    for (int k = 0; k < AI_TERMS; k++) {
        out[IN_MY_TERMS + k] = (float)(terms[viewer][k] / term_scale);
        out[IN_THEIR_TERMS + k] = (float)(terms[rival][k] / term_scale);
    }
    out[IN_MY_VALUE] = (float)(values[viewer] / value_scale);
    out[IN_THEIR_VALUE] = (float)(values[rival] / value_scale);
    out[IN_MARGIN] = (float)((values[viewer] - values[rival]) / margin_scale);
}

/* The inputs of the square (x, y) of `g` seen by `me` into `out`. */
static void patch_square(const carc_game *g, int x, int y, int me, float out[PATCH_SQUARE])
{
    memset(out, 0, sizeof(float) * PATCH_SQUARE);
    int index = carc_game_tile_at(g, x, y);
    carc_tile_on_board t;
    if (index < 0 || carc_game_tile_info(g, index, &t) != CARC_OK)
        return;
    out[0] = 1.0f;
    for (int e = 0; e < 4; e++) {
        int edge = carc_tile_edge(t.kind, t.rot, e);
        out[1 + e] = edge == CARC_CITY ? 1.0f : 0.0f;
        out[5 + e] = edge == CARC_ROAD ? 1.0f : 0.0f;
    }
    if (t.follower_segment != CARC_NO_SPOT)
        out[t.follower_owner == me ? 9 : 10] = 1.0f;
}

void net_move_inputs(const carc_game *before, const carc_game *after, carc_move m,
                     const double values[CARC_MAX_PLAYERS],
                     const double terms[CARC_MAX_PLAYERS][AI_TERMS],
                     float out[CARC_NET_MOVE_INPUTS])
{
    int me = carc_game_current_player(before);
    net_position_inputs(after, me, values, terms, out);
    memset(out + CARC_NET_POSITION_INPUTS, 0,
           sizeof(float) * (CARC_NET_MOVE_INPUTS - CARC_NET_POSITION_INPUTS));
    if (m.type == CARC_MOVE_DISCARD) {
        out[IN_DISCARD] = 1.0f;
        return;
    }
    int figure = 0; /* none */
    int index = carc_game_tile_at(after, m.place.x, m.place.y);
    carc_tile_on_board t;
    if (m.segment != CARC_NO_SPOT && index >= 0 &&
        carc_game_tile_info(after, index, &t) == CARC_OK &&
        m.segment < carc_tile(t.kind)->nsegments) {
        int kind = carc_tile(t.kind)->segments[m.segment].kind;
        figure = kind == CARC_ROAD ? 1 : kind == CARC_CITY ? 2 : kind == CARC_FIELD ? 3 : 4;
        out[IN_SPECIAL_FIGURE] = m.figure != CARC_FIGURE_FOLLOWER ? 1.0f : 0.0f;
    }
    out[IN_FIGURE + figure] = 1.0f;
    float *square = out + IN_PATCH; /* north-west first, row by row */
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++, square += PATCH_SQUARE)
            patch_square(after, m.place.x + dx, m.place.y + dy, me, square);
}

carc_status carc_net_inputs(const carc_game *g, float position[CARC_NET_POSITION_INPUTS],
                            const carc_move *moves, int n, float *move_inputs)
{
    if (!g || carc_game_over(g) || n < 0 || (n > 0 && (!moves || !move_inputs)))
        return CARC_EINVAL;
    double values[CARC_MAX_PLAYERS], terms[CARC_MAX_PLAYERS][AI_TERMS];
    ai_evaluate_full_terms(g, values, terms);
    net_position_inputs(g, carc_game_current_player(g), values, terms, position);
    if (n == 0)
        return CARC_OK;
    carc_game *after = carc_game_clone(g);
    if (!after)
        return CARC_ENOMEM;
    carc_status status = CARC_OK;
    for (int i = 0; i < n && status == CARC_OK; i++) {
        carc_game_copy(after, g);
        status = carc_game_play(after, moves[i], NULL, 0, NULL);
        if (status != CARC_OK)
            status = CARC_EINVAL;
        else {
            ai_evaluate_full_terms(after, values, terms);
            net_move_inputs(g, after, moves[i], values, terms,
                            move_inputs + (size_t)i * CARC_NET_MOVE_INPUTS);
        }
    }
    carc_game_free(after);
    return status;
}
