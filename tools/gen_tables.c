/* gen_tables.c: build-time generator of the rotated tile tables from the
 * catalogue in src/tile_data.c: the shared ones and those of one state
 * layout (it is built once per layout, see src/layout.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"
#include "tile_data.h"

enum { MIDDLE_PORTS = (1 << CARC_N) | (1 << CARC_E) | (1 << CARC_S) | (1 << CARC_W) };

static unsigned rotate_ports(unsigned ports, int rot)
{
    unsigned shift = (unsigned)(3 * rot);
    return ((ports << shift) | (ports >> ((12 - shift) % 12))) & 0xFFFu;
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

static int popcount12(unsigned v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

static int first_port(unsigned ports)
{
    for (int p = 0; p < CARC_PORTS; p++)
        if (ports & (1u << p))
            return p;
    return CARC_PORTS;
}

/* The edges of `t` at rotation `rot`, `bits` bits per board direction. */
static unsigned edges_code(const carc_tile_def *t, int rot, int bits)
{
    unsigned b = 0;
    for (int d = 0; d < 4; d++)
        b |= (unsigned)t->edges[(d + 4 - rot) % 4] << (bits * d);
    return b;
}

/* Rotations of a tile that look alike: the same edges and the same segment
 * port sets. */
static int same_rotation(const carc_tile_def *t, int r1, int r2)
{
    for (int s = 0; s < t->nsegments; s++) {
        unsigned p1 = rotate_ports(t->segments[s].ports, r1);
        int found = 0;
        for (int u = 0; u < t->nsegments; u++)
            if (rotate_ports(t->segments[u].ports, r2) == p1 &&
                t->segments[u].kind == t->segments[s].kind &&
                t->segments[u].pennant == t->segments[s].pennant)
                found = 1;
        if (!found)
            return 0;
    }
    return edges_code(t, r1, 3) == edges_code(t, r2, 3);
}

/* Rotations of `kind` that fit a square of signature `sig` (EDGE_BITS per
 * edge: 0 free, else 1 + the kind the edge must have); none for sig 0. */
static unsigned sig_rotations(int kind, unsigned sig)
{
    unsigned fits = 0;
    if (kind >= CARC_ALL_KINDS)
        return 0;
    for (int r = 0; r < 4 && sig != 0; r++) {
        unsigned edges = edges_code(&carc_tile_data[kind], r, EDGE_BITS), ok = 1;
        for (int d = 0; d < 4; d++) {
            unsigned want = (sig >> (EDGE_BITS * d)) & (unsigned)EDGE_MASK;
            if (want && ((edges >> (EDGE_BITS * d)) & (unsigned)EDGE_MASK) != want - 1)
                ok = 0;
        }
        fits |= ok << r;
    }
    return fits;
}

/* Whether every city or field edge of every tile is one segment: placing
 * a tile joins such an edge with one union (board.c). */
static int edges_whole(void)
{
    for (int k = 0; k < CARC_ALL_KINDS; k++) {
        const carc_tile_def *t = &carc_tile_data[k];
        for (int d = 0; d < 4; d++) {
            unsigned edge = 07u << (3 * d);
            if (t->edges[d] == CARC_ROAD || t->edges[d] == CARC_RIVER)
                continue;
            int whole = 0;
            for (int s = 0; s < t->nsegments; s++)
                whole |= (t->segments[s].ports & edge) == edge;
            if (!whole) {
                fprintf(stderr, "tile %s: edge %d is split between segments\n", t->id, d);
                return 0;
            }
        }
    }
    return 1;
}

/* The tables every layout shares: by kind, for the whole catalogue. */
static void print_shared(void)
{
    printf("const uint8_t carc_port_seg[CARC_ALL_KINDS][4][CARC_PORTS] = {\n");
    for (int k = 0; k < CARC_ALL_KINDS; k++) {
        const carc_tile_def *t = &carc_tile_data[k];
        printf("    { /* %s */\n", t->id);
        for (int r = 0; r < 4; r++) {
            printf("        {");
            for (int p = 0; p < CARC_PORTS; p++) {
                int seg = 255;
                for (int s = 0; s < t->nsegments; s++)
                    if (rotate_ports(t->segments[s].ports, r) & (1u << p))
                        seg = s;
                printf(" %d,", seg);
            }
            printf(" },\n");
        }
        printf("    },\n");
    }
    printf("};\n\n");

    printf("const uint16_t carc_seg_ports[CARC_ALL_KINDS][4][CARC_MAX_SEGMENTS_PER_TILE] = {\n");
    for (int k = 0; k < CARC_ALL_KINDS; k++) {
        const carc_tile_def *t = &carc_tile_data[k];
        printf("    { /* %s */\n", t->id);
        for (int r = 0; r < 4; r++) {
            printf("        {");
            for (int s = 0; s < t->nsegments; s++)
                printf(" 0x%03X,", rotate_ports(t->segments[s].ports, r));
            printf(" },\n");
        }
        printf("    },\n");
    }
    printf("};\n\n");

    printf("const uint8_t carc_spot_port[CARC_ALL_KINDS][4][CARC_MAX_SEGMENTS_PER_TILE] = {\n");
    for (int k = 0; k < CARC_ALL_KINDS; k++) {
        const carc_tile_def *t = &carc_tile_data[k];
        printf("    { /* %s */\n", t->id);
        for (int r = 0; r < 4; r++) {
            printf("        {");
            for (int s = 0; s < t->nsegments; s++)
                printf(" %d,", first_port(rotate_ports(t->segments[s].ports, r)));
            printf(" },\n");
        }
        printf("    },\n");
    }
    printf("};\n\n");

    printf("const uint8_t carc_seg_open[CARC_ALL_KINDS][CARC_MAX_SEGMENTS_PER_TILE] = {\n");
    for (int k = 0; k < CARC_ALL_KINDS; k++) {
        const carc_tile_def *t = &carc_tile_data[k];
        printf("    {");
        for (int s = 0; s < t->nsegments; s++) {
            int open = 0;
            if (t->segments[s].kind == CARC_ROAD || t->segments[s].kind == CARC_CITY)
                open = popcount12(t->segments[s].ports & MIDDLE_PORTS);
            printf(" %d,", open);
        }
        printf(" }, /* %s */\n", t->id);
    }
    printf("};\n\n");

    printf("const uint8_t carc_cloister_seg[CARC_ALL_KINDS] = {\n   ");
    for (int k = 0; k < CARC_ALL_KINDS; k++) {
        const carc_tile_def *t = &carc_tile_data[k];
        int seg = 255;
        for (int s = 0; s < t->nsegments; s++)
            if (t->segments[s].kind == CARC_CLOISTER)
                seg = s;
        printf(" %d,", seg);
    }
    printf("\n};\n\n");

    printf("const uint8_t carc_distinct_rotations[CARC_ALL_KINDS] = {\n   ");
    for (int k = 0; k < CARC_ALL_KINDS; k++) {
        unsigned mask = 0;
        for (int r = 0; r < 4; r++) {
            int dup = 0;
            for (int q = 0; q < r; q++)
                if (same_rotation(&carc_tile_data[k], q, r))
                    dup = 1;
            if (!dup)
                mask |= 1u << r;
        }
        printf(" 0x%X,", mask);
    }
    printf("\n};\n");
}

/* The tables of this layout (LAYOUT_WIDE). */
static int print_layout(void)
{
    printf("const uint64_t carc_rot_edges[LAYOUT_KINDS] = {\n");
    for (int k = 0; k < LAYOUT_KINDS; k++) {
        unsigned long long v = 0;
        for (int r = 0; r < 4 && k < CARC_ALL_KINDS; r++)
            v |= (unsigned long long)edges_code(&carc_tile_data[k], r, EDGE_BITS) << (16 * r);
        printf("    0x%016llXull, /* %s */\n", v, k < CARC_ALL_KINDS ? carc_tile_data[k].id : "-");
    }
    printf("};\n\n");

    /* Square signatures: EDGE_BITS per edge, 0 when no tile touches that
     * edge, else 1 + the kind the edge must have. */
    printf("const uint8_t carc_fits[LAYOUT_KINDS][SIGNATURES] = {\n");
    for (int k = 0; k < LAYOUT_KINDS; k++) {
        printf("    {");
        for (unsigned sig = 0; sig < SIGNATURES; sig++)
            printf(" %u,", sig_rotations(k, sig));
        printf(" },\n");
    }
    printf("};\n\n");

    printf("const uint8_t carc_sig_count[SIGNATURES][LAYOUT_KINDS] = {\n");
    for (unsigned sig = 0; sig < SIGNATURES; sig++) {
        printf("    {");
        for (int k = 0; k < LAYOUT_KINDS; k++)
            printf(" %d,", popcount12(sig_rotations(k, sig)));
        printf(" },\n");
    }
    printf("};\n\n");

    /* The counts again, four kinds to a 64-bit word, 16 bits each, so that
     * a frontier square's change updates all counts in a few additions. */
    printf("const uint64_t carc_sig_count_lanes[SIGNATURES][COUNT_WORDS] = {\n");
    for (unsigned sig = 0; sig < SIGNATURES; sig++) {
        printf("    {");
        for (int w = 0; w < COUNT_WORDS; w++) {
            unsigned long long word = 0;
            for (int lane = 0; lane < 4; lane++)
                word |= (unsigned long long)popcount12(sig_rotations(4 * w + lane, sig))
                        << (16 * lane);
            printf(" 0x%llXull,", word);
        }
        printf(" },\n");
    }
    printf("};\n\n");

    /* Each kind's segments as fresh union-find nodes, but for their ids
     * and tile: each a feature of its own, of size 1, with its open edges. */
    printf("const seg_node carc_seg_template[LAYOUT_KINDS][CARC_MAX_SEGMENTS_PER_TILE] = {\n");
    int kinds = min_int(LAYOUT_KINDS, CARC_ALL_KINDS);
    for (int k = 0; k < kinds; k++) {
        const carc_tile_def *t = &carc_tile_data[k];
        printf("    { /* %s */\n", t->id);
        for (int s = 0; s < t->nsegments; s++) {
            int open = 0;
            if (t->segments[s].kind == CARC_ROAD || t->segments[s].kind == CARC_CITY)
                open = popcount12(t->segments[s].ports & MIDDLE_PORTS);
            unsigned long long root =
                (1ull << ROOT_SIZE_SHIFT) | ((unsigned long long)open << ROOT_OPEN_SHIFT);
            unsigned borders = t->segments[s].borders;
            if (borders > INFO_BORDERS_MASK) {
                fprintf(stderr, "tile %s: a field borders a city beyond the layout's\n", t->id);
                return EXIT_FAILURE;
            }
            unsigned info =
                (unsigned)s | (unsigned)t->segments[s].kind << 4 | borders << INFO_BORDERS_SHIFT;
#if LAYOUT_WIDE
            printf("        {0, 0, 0x%03X, 0, 0, 0x%016llXull},\n", info, root);
#else
            printf("        {0, 0, 0, 0x%02X, 0x%08llXu},\n", info, root);
#endif
        }
        printf("    },\n");
    }
    printf("};\n\n");

    /* The board's torus: a coordinate, read as the byte of an int8_t, to
     * its column offset and its row. */
    printf("const uint16_t carc_torus_col[256] = {");
    for (int i = 0; i < 256; i++)
        printf("%s%d,", i % 16 ? " " : "\n    ", ((int8_t)i + 2 * GRID) % GRID * GRID);
    printf("\n};\n\n");
    printf("const uint8_t carc_torus_row[256] = {");
    for (int i = 0; i < 256; i++)
        printf("%s%d,", i % 16 ? " " : "\n    ", ((int8_t)i + 2 * GRID) % GRID);
    printf("\n};\n");
    return EXIT_SUCCESS;
}

/* Writes the tables of the layout it was built for (LAYOUT_WIDE); with
 * --shared, the shared tables too. */
int main(int argc, char **argv)
{
    if (!edges_whole())
        return EXIT_FAILURE;
    printf("/* Generated by tools/gen_tables.c; do not edit. */\n");
    printf("#include \"state.h\"\n#include \"tiles.h\"\n\n");
    if (argc > 1 && strcmp(argv[1], "--shared") == 0)
        print_shared();
    if (print_layout() != EXIT_SUCCESS)
        return EXIT_FAILURE;
    return ferror(stdout) ? EXIT_FAILURE : EXIT_SUCCESS;
}
