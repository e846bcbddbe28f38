/* test_tiles.c: the tile catalogue against tiles.md, transcribed here by
 * hand, and the rotation queries against rotations worked out here. */
/* game.h first: it names the base layout's build of the engine. */
#include "state.h"

#include "support.h"

#include <stdio.h>
#include <string.h>

#include "tiles.h"

/* tiles.md, one row per tile. A segment is a kind letter (K cloister,
 * R road, C city, P city with a pennant, F field), its ports ('*': all
 * twelve), and for fields '/i' for each bordered city segment i. */
static const struct spec_tile {
    char letter;
    int count;
    const char *edges;
    const char *segments[CARC_MAX_SEGMENTS_PER_TILE + 1];
} spec[CARC_MAX_KINDS] = {
    {'A', 2, "FFRF", {"K", "R S", "F NNW N NNE ENE E ESE SSE SSW WSW W WNW"}},
    {'B', 4, "FFFF", {"K", "F *"}},
    {'C', 1, "CCCC", {"P *"}},
    {'D', 4, "CRFR", {"C NNW N NNE", "R E W", "F ENE WNW /0", "F ESE SSE S SSW WSW"}},
    {'E', 5, "CFFF", {"C NNW N NNE", "F ENE E ESE SSE S SSW WSW W WNW /0"}},
    {'F', 2, "FCFC", {"P ENE E ESE WSW W WNW", "F NNW N NNE /0", "F SSE S SSW /0"}},
    {'G', 1, "FCFC", {"C ENE E ESE WSW W WNW", "F NNW N NNE /0", "F SSE S SSW /0"}},
    {'H', 3, "CFCF", {"C NNW N NNE", "C SSE S SSW", "F ENE E ESE WSW W WNW /0 /1"}},
    {'I', 2, "CCFF", {"C NNW N NNE", "C ENE E ESE", "F SSE S SSW WSW W WNW /0 /1"}},
    {'J', 3, "CRRF", {"C NNW N NNE", "R E S", "F ESE SSE", "F ENE SSW WSW W WNW /0"}},
    {'K', 3, "CFRR", {"C NNW N NNE", "R S W", "F SSW WSW", "F WNW ENE E ESE SSE /0"}},
    {'L',
     3,
     "CRRR",
     {"C NNW N NNE", "R E", "R S", "R W", "F ENE WNW /0", "F ESE SSE", "F SSW WSW"}},
    {'M', 2, "CFFC", {"P NNW N NNE WSW W WNW", "F ENE E ESE SSE S SSW /0"}},
    {'N', 3, "CFFC", {"C NNW N NNE WSW W WNW", "F ENE E ESE SSE S SSW /0"}},
    {'O', 2, "CRRC", {"P NNW N NNE WSW W WNW", "R E S", "F ESE SSE", "F ENE SSW /0"}},
    {'P', 3, "CRRC", {"C NNW N NNE WSW W WNW", "R E S", "F ESE SSE", "F ENE SSW /0"}},
    {'Q', 1, "CCFC", {"P NNW N NNE ENE E ESE WSW W WNW", "F SSE S SSW /0"}},
    {'R', 3, "CCFC", {"C NNW N NNE ENE E ESE WSW W WNW", "F SSE S SSW /0"}},
    {'S', 2, "CCRC", {"P NNW N NNE ENE E ESE WSW W WNW", "R S", "F SSE /0", "F SSW /0"}},
    {'T', 1, "CCRC", {"C NNW N NNE ENE E ESE WSW W WNW", "R S", "F SSE /0", "F SSW /0"}},
    {'U', 8, "RFRF", {"R N S", "F NNE ENE E ESE SSE", "F SSW WSW W WNW NNW"}},
    {'V', 9, "FFRR", {"R S W", "F SSW WSW", "F WNW NNW N NNE ENE E ESE SSE"}},
    {'W', 4, "FRRR", {"R E", "R S", "R W", "F WNW NNW N NNE ENE", "F ESE SSE", "F SSW WSW"}},
    {'X',
     1,
     "RRRR",
     {"R N", "R E", "R S", "R W", "F NNE ENE", "F ESE SSE", "F SSW WSW", "F WNW NNW"}},
};

static const char *const names[CARC_PORTS] = {
    "NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW",
};

static int kind_of_letter(char c)
{
    switch (c) {
    case 'R': return CARC_ROAD;
    case 'C':
    case 'P': return CARC_CITY;
    case 'F': return CARC_FIELD;
    case 'K': return CARC_CLOISTER;
    default: return -1;
    }
}

static int port_of_name(const char *name)
{
    for (int p = 0; p < CARC_PORTS; p++)
        if (strcmp(name, names[p]) == 0)
            return p;
    return -1;
}

/* Parses one segment of the table into a definition. */
static carc_segment_def spec_segment(const char *text)
{
    char buf[96];
    carc_segment_def s = {0, 0, 0, 0, 0};
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    char *tok = strtok_r(buf, " ", &save);
    assert_non_null(tok);
    s.kind = (uint8_t)kind_of_letter(tok[0]);
    s.pennant = tok[0] == 'P';
    while ((tok = strtok_r(NULL, " ", &save)) != NULL) {
        if (tok[0] == '*') {
            s.ports = 0xFFF;
        } else if (tok[0] == '/') {
            s.borders = (uint16_t)(s.borders | (1u << (tok[1] - '0')));
        } else {
            int p = port_of_name(tok);
            assert_true(p >= 0);
            s.ports = (uint16_t)(s.ports | (1u << p));
        }
    }
    return s;
}

static int popcount(unsigned v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

static void test_catalogue_matches_spec(void **state)
{
    (void)state;
    for (int k = 0; k < BASE_KINDS; k++) {
        const carc_tile_def *def = carc_tile(k);
        const struct spec_tile *sp = &spec[k];
        assert_non_null(def);
        assert_int_equal(def->id[0], sp->letter);
        assert_int_equal(def->id[0], 'A' + k);
        assert_int_equal(def->id[1], '\0');
        assert_int_equal(def->count, sp->count);
        for (int d = 0; d < 4; d++)
            assert_int_equal(def->edges[d], kind_of_letter(sp->edges[d]));
        int nseg = 0;
        while (sp->segments[nseg])
            nseg++;
        assert_int_equal(def->nsegments, nseg);
        for (int s = 0; s < nseg; s++) {
            carc_segment_def want = spec_segment(sp->segments[s]);
            const carc_segment_def *got = &def->segments[s];
            if (got->kind != want.kind || got->pennant != want.pennant ||
                got->ports != want.ports || got->borders != want.borders)
                fail_msg("tile %c segment %d is not '%s' (kind %d pennant %d "
                         "ports %03X borders %X)",
                         sp->letter, s, sp->segments[s], got->kind, got->pennant, got->ports,
                         got->borders);
        }
    }
}

static void test_totals(void **state)
{
    (void)state;
    static const int counts[CARC_MAX_KINDS] = {
        2, 4, 1, 4, 5, 2, 1, 3, 2, 3, 3, 3, 2, 3, 2, 3, 1, 3, 2, 1, 8, 9, 4, 1,
    };
    int tiles = 0, pennants = 0, cloisters = 0, kinds = 0;
    int pennants_of[CARC_MAX_KINDS] = {0};
    for (int k = 0; k < BASE_KINDS; k++) {
        const carc_tile_def *def = carc_tile(k);
        assert_non_null(def);
        kinds++;
        assert_int_equal(def->count, counts[k]);
        tiles += def->count;
        for (int s = 0; s < def->nsegments; s++) {
            pennants_of[k] += def->segments[s].pennant * def->count;
            cloisters += (def->segments[s].kind == CARC_CLOISTER) * def->count;
        }
        pennants += pennants_of[k];
    }
    assert_int_equal(kinds, 24);
    /* and the river's 10, Inns & Cathedrals' 17, Traders & Builders' 24 */
    assert_int_equal(carc_tile_kinds(), 75);
    assert_int_equal(tiles, 72);
    assert_int_equal(BASE_GAME_PILE, 71);
    assert_int_equal(pennants, 10);
    /* C 1, F 2, M 2, O 2, Q 1, S 2. */
    assert_int_equal(pennants_of['C' - 'A'], 1);
    assert_int_equal(pennants_of['F' - 'A'], 2);
    assert_int_equal(pennants_of['M' - 'A'], 2);
    assert_int_equal(pennants_of['O' - 'A'], 2);
    assert_int_equal(pennants_of['Q' - 'A'], 1);
    assert_int_equal(pennants_of['S' - 'A'], 2);
    assert_int_equal(cloisters, 6); /* A 2, B 4 */
    assert_null(carc_tile(-1));
    assert_null(carc_tile(CARC_MAX_KINDS));
    for (int k = 0; k < BASE_KINDS; k++)
        assert_int_equal(carc_tile_parse(carc_tile_id(k)), k);
    assert_int_equal(carc_tile_parse("Y"), -1);
    assert_int_equal(carc_tile_parse("Z"), -1);
    assert_int_equal(carc_tile_parse("a"), -1);
    assert_int_equal(carc_tile_parse("@"), -1);
    assert_int_equal(carc_tile_parse(""), -1);
    assert_int_equal(carc_tile_parse("\xC1"), -1);
}

static void test_segments_partition_ports(void **state)
{
    (void)state;
    for (int k = 0; k < BASE_KINDS; k++) {
        const carc_tile_def *def = carc_tile(k);
        assert_true(def->nsegments >= 1 && def->nsegments <= CARC_MAX_SEGMENTS_PER_TILE);
        int holders[CARC_PORTS] = {0};
        int ncloisters = 0;
        for (int s = 0; s < def->nsegments; s++) {
            const carc_segment_def *seg = &def->segments[s];
            assert_true(seg->kind <= CARC_CLOISTER);
            assert_int_equal(seg->ports & ~0xFFFu, 0);
            if (seg->kind == CARC_CLOISTER) {
                ncloisters++;
                assert_int_equal(seg->ports, 0);
            } else {
                assert_int_not_equal(seg->ports, 0);
            }
            if (seg->pennant)
                assert_int_equal(seg->kind, CARC_CITY);
            for (int p = 0; p < CARC_PORTS; p++)
                holders[p] += (seg->ports >> p) & 1;
        }
        assert_true(ncloisters <= 1);
        for (int p = 0; p < CARC_PORTS; p++)
            if (holders[p] != 1)
                fail_msg("tile %c: port %s is held by %d segments", def->id[0], names[p],
                         holders[p]);
    }
}

static void test_edges_agree_with_ports(void **state)
{
    (void)state;
    for (int k = 0; k < BASE_KINDS; k++) {
        const carc_tile_def *def = carc_tile(k);
        for (int d = 0; d < 4; d++) {
            int half1 = sup_port_kind(k, 0, 3 * d), mid = sup_port_kind(k, 0, 3 * d + 1),
                half2 = sup_port_kind(k, 0, 3 * d + 2);
            switch (def->edges[d]) {
            case CARC_CITY:
                assert_int_equal(half1, CARC_CITY);
                assert_int_equal(mid, CARC_CITY);
                assert_int_equal(half2, CARC_CITY);
                /* A city edge's three ports are one segment. */
                assert_int_equal(sup_port_seg(k, 0, 3 * d), sup_port_seg(k, 0, 3 * d + 1));
                assert_int_equal(sup_port_seg(k, 0, 3 * d + 2), sup_port_seg(k, 0, 3 * d + 1));
                break;
            case CARC_ROAD:
                assert_int_equal(half1, CARC_FIELD);
                assert_int_equal(mid, CARC_ROAD);
                assert_int_equal(half2, CARC_FIELD);
                break;
            case CARC_FIELD:
                assert_int_equal(half1, CARC_FIELD);
                assert_int_equal(mid, CARC_FIELD);
                assert_int_equal(half2, CARC_FIELD);
                break;
            default: fail_msg("tile %c edge %d has kind %d", def->id[0], d, def->edges[d]);
            }
        }
    }
}

static void test_borders_point_at_cities(void **state)
{
    (void)state;
    for (int k = 0; k < BASE_KINDS; k++) {
        const carc_tile_def *def = carc_tile(k);
        for (int s = 0; s < def->nsegments; s++) {
            const carc_segment_def *seg = &def->segments[s];
            if (seg->kind != CARC_FIELD) {
                assert_int_equal(seg->borders, 0);
                continue;
            }
            assert_int_equal(seg->borders >> def->nsegments, 0);
            unsigned rim_neighbours = 0;
            for (int c = 0; c < def->nsegments; c++) {
                if (seg->borders & (1u << c))
                    assert_int_equal(def->segments[c].kind, CARC_CITY);
                /* Along the rim, a field port next to a city port means a
                 * wall between them. */
                if (def->segments[c].kind != CARC_CITY)
                    continue;
                for (int p = 0; p < CARC_PORTS; p++)
                    if ((seg->ports & (1u << p)) &&
                        (def->segments[c].ports &
                         ((1u << ((p + 1) % 12)) | (1u << ((p + 11) % 12)))))
                        rim_neighbours |= 1u << c;
            }
            if (rim_neighbours != seg->borders)
                fail_msg("tile %c field %d borders %X, but touches cities %X", def->id[0], s,
                         seg->borders, rim_neighbours);
        }
    }
}

static void test_rotation_queries(void **state)
{
    (void)state;
    for (int k = 0; k < BASE_KINDS; k++) {
        const carc_tile_def *def = carc_tile(k);
        for (int r = 0; r < 4; r++) {
            for (int p = 0; p < CARC_PORTS; p++) {
                /* Port p of the unrotated tile lands on (p + 3r) mod 12. */
                int want = -1;
                for (int s = 0; s < def->nsegments; s++)
                    if (def->segments[s].ports & (1u << p))
                        want = s;
                assert_int_equal(carc_tile_segment_at(k, r, (p + 3 * r) % 12), want);
            }
            for (int s = 0; s < def->nsegments; s++) {
                unsigned want = 0;
                for (int p = 0; p < CARC_PORTS; p++)
                    if (def->segments[s].ports & (1u << p))
                        want |= 1u << ((p + 3 * r) % 12);
                assert_int_equal(carc_tile_segment_ports(k, r, s), want);
                /* A segment holds exactly the ports that name it. */
                for (int p = 0; p < CARC_PORTS; p++)
                    assert_int_equal(carc_tile_segment_at(k, r, p) == s, (want >> p) & 1);
            }
            for (int d = 0; d < 4; d++)
                assert_int_equal(carc_tile_edge(k, r, (d + r) % 4), def->edges[d]);
            /* Out of range queries. */
            assert_int_equal(carc_tile_segment_at(k, r, -1), -1);
            assert_int_equal(carc_tile_segment_at(k, r, CARC_PORTS), -1);
            assert_int_equal(carc_tile_segment_ports(k, r, -1), 0);
            assert_int_equal(carc_tile_segment_ports(k, r, def->nsegments), 0);
            assert_int_equal(carc_tile_edge(k, r, -1), -1);
            assert_int_equal(carc_tile_edge(k, r, 4), -1);
        }
        assert_int_equal(carc_tile_segment_at(k, 4, 0), -1);
        assert_int_equal(carc_tile_segment_at(k, -1, 0), -1);
        assert_int_equal(carc_tile_segment_ports(k, 4, 0), 0);
        assert_int_equal(carc_tile_edge(k, 4, 0), -1);
        assert_int_equal(carc_tile_edge(k, -1, 0), -1);
    }
    assert_int_equal(carc_tile_segment_at(-1, 0, 0), -1);
    assert_int_equal(carc_tile_segment_at(CARC_MAX_KINDS, 0, 0), -1);
    assert_int_equal(carc_tile_segment_ports(CARC_MAX_KINDS, 0, 0), 0);
    assert_int_equal(carc_tile_edge(CARC_MAX_KINDS, 0, 0), -1);
    assert_int_equal(carc_tile_edge(-1, 0, 0), -1);
}

/* Two worked examples, by hand from tiles.md. */
static void test_rotation_examples(void **state)
{
    (void)state;
    int d = carc_tile_parse("D"), v = carc_tile_parse("V");
    /* D at rotation 1: the city faces east, the road runs north-south. */
    assert_int_equal(carc_tile_edge(d, 1, 0), CARC_ROAD);
    assert_int_equal(carc_tile_edge(d, 1, 1), CARC_CITY);
    assert_int_equal(carc_tile_edge(d, 1, 2), CARC_ROAD);
    assert_int_equal(carc_tile_edge(d, 1, 3), CARC_FIELD);
    assert_int_equal(carc_tile_segment_at(d, 1, CARC_E), 0);
    assert_int_equal(carc_tile_segment_at(d, 1, CARC_N), 1);
    assert_int_equal(carc_tile_segment_at(d, 1, CARC_S), 1);
    assert_int_equal(carc_tile_segment_at(d, 1, CARC_NNE), 2); /* field f1 */
    assert_int_equal(carc_tile_segment_at(d, 1, CARC_W), 3);   /* field f2 */
    /* V at rotation 3: the curve joins east and south. */
    assert_int_equal(carc_tile_segment_ports(v, 3, 0), (1u << CARC_E) | (1u << CARC_S));
    assert_int_equal(carc_tile_edge(v, 3, 0), CARC_FIELD);
    assert_int_equal(carc_tile_edge(v, 3, 3), CARC_FIELD);
}

static void test_port_names(void **state)
{
    (void)state;
    for (int p = 0; p < CARC_PORTS; p++) {
        assert_non_null(carc_port_name(p));
        assert_string_equal(carc_port_name(p), names[p]);
        assert_int_equal(carc_port_parse(names[p]), p);
        assert_int_equal(carc_port_parse(carc_port_name(p)), p);
    }
    assert_int_equal(CARC_NNW, 0);
    assert_int_equal(CARC_N, 1);
    assert_int_equal(CARC_E, 4);
    assert_int_equal(CARC_S, 7);
    assert_int_equal(CARC_W, 10);
    assert_int_equal(CARC_WNW, 11);
    assert_null(carc_port_name(-1));
    assert_null(carc_port_name(CARC_PORTS));
    const char *bad[] = {"", "n", "nnw", "C", "NN", "NNWW", "N ", " N", "NE", "X"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(carc_port_parse(bad[i]), -1);
}

/* --- src/tiles.h: the generated tables the engine runs on --------------------- */

/* One word a kind, the same in every front end; a field's feature is a
 * farm. */
static void test_kind_names(void **state)
{
    (void)state;
    assert_string_equal(carc_kind_name(CARC_ROAD), "road");
    assert_string_equal(carc_kind_name(CARC_CITY), "city");
    assert_string_equal(carc_kind_name(CARC_FIELD), "farm");
    assert_string_equal(carc_kind_name(CARC_CLOISTER), "cloister");
    assert_string_equal(carc_kind_name(CARC_RIVER), "river");
    assert_string_equal(carc_kind_name(-1), "?");
    assert_string_equal(carc_kind_name(CARC_RIVER + 1), "?");
}

static void test_mirror_ports(void **state)
{
    (void)state;
    /* tiles.md: N-S, NNE-SSE, NNW-SSW, E-W, ENE-WNW, ESE-WSW. */
    static const int pairs[6][2] = {
        {CARC_N, CARC_S}, {CARC_NNE, CARC_SSE}, {CARC_NNW, CARC_SSW},
        {CARC_E, CARC_W}, {CARC_ENE, CARC_WNW}, {CARC_ESE, CARC_WSW},
    };
    for (int i = 0; i < 6; i++) {
        assert_int_equal(carc_mirror_port(pairs[i][0]), pairs[i][1]);
        assert_int_equal(carc_mirror_port(pairs[i][1]), pairs[i][0]);
        assert_int_equal(sup_mirror(pairs[i][0]), pairs[i][1]);
        assert_int_equal(sup_mirror(pairs[i][1]), pairs[i][0]);
    }
}

static void test_signature_fits(void **state)
{
    (void)state;
    /* Every square signature: per edge nothing (0) or 1 + the kind the
     * edge must have (road, city, field). */
    for (unsigned sig = 0; sig < 256; sig++)
        for (int k = 0; k < BASE_KINDS; k++) {
            unsigned expect = 0;
            for (int r = 0; r < 4 && sig != 0; r++) {
                int ok = 1;
                for (int d = 0; d < 4; d++) {
                    unsigned want = (sig >> (2 * d)) & 3u;
                    if (want != 0 && (unsigned)sup_edge(k, r, d) != want - 1)
                        ok = 0;
                }
                expect |= (unsigned)ok << r;
            }
            if (carc_fits[k][sig] != expect)
                fail_msg("signature %02X tile %c: fits %X, expected %X", sig, 'A' + k,
                         carc_fits[k][sig], expect);
            assert_int_equal(carc_sig_count[sig][k], popcount(expect));
        }
    assert_int_equal(carc_sig_edge(CARC_CITY, 2), (1u + CARC_CITY) << 4);
}

static void test_generated_tables(void **state)
{
    (void)state;
    for (int k = 0; k < BASE_KINDS; k++) {
        const carc_tile_def *def = carc_tile(k);
        int cloister = sup_cloister_seg(k);
        assert_int_equal(carc_cloister_seg[k], cloister < 0 ? 255 : cloister);
        for (int r = 0; r < 4; r++) {
            for (int p = 0; p < CARC_PORTS; p++)
                assert_int_equal(carc_port_seg[k][r][p], sup_port_seg(k, r, p));
            for (int d = 0; d < 4; d++)
                assert_int_equal((carc_edges_at(k, r) >> (2 * d)) & 3u,
                                 (unsigned)sup_edge(k, r, d));
            for (int s = 0; s < def->nsegments; s++) {
                unsigned ports = sup_rotate_ports(def->segments[s].ports, r);
                assert_int_equal(carc_seg_ports[k][r][s], ports);
                /* The record's spot: the first port clockwise from NNW. */
                int first = CARC_PORTS;
                for (int p = CARC_PORTS - 1; p >= 0; p--)
                    if (ports & (1u << p))
                        first = p;
                assert_int_equal(carc_spot_port[k][r][s], first);
            }
        }
        for (int s = 0; s < def->nsegments; s++) {
            const carc_segment_def *seg = &def->segments[s];
            if (seg->kind != CARC_ROAD && seg->kind != CARC_CITY)
                continue;
            int edges = 0;
            for (int d = 0; d < 4; d++)
                edges += (seg->ports >> (3 * d + 1)) & 1;
            assert_int_equal(carc_seg_open[k][s], edges);
            assert_int_equal(edges, popcount(seg->ports) / (seg->kind == CARC_CITY ? 3 : 1));
        }
    }
}

static void test_distinct_rotations(void **state)
{
    (void)state;
    /* B, C and X look the same all around; F, G, H and U after a half
     * turn; every other tile differs in each rotation. */
    for (int k = 0; k < BASE_KINDS; k++) {
        char c = carc_tile(k)->id[0];
        unsigned want = strchr("BCX", c) ? 0x1u : strchr("FGHU", c) ? 0x3u : 0xFu;
        assert_int_equal(carc_distinct_rotations[k], want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalogue_matches_spec),
        cmocka_unit_test(test_totals),
        cmocka_unit_test(test_segments_partition_ports),
        cmocka_unit_test(test_edges_agree_with_ports),
        cmocka_unit_test(test_borders_point_at_cities),
        cmocka_unit_test(test_rotation_queries),
        cmocka_unit_test(test_rotation_examples),
        cmocka_unit_test(test_port_names),
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_mirror_ports),
        cmocka_unit_test(test_signature_fits),
        cmocka_unit_test(test_generated_tables),
        cmocka_unit_test(test_distinct_rotations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
