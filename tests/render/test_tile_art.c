/* test_tile_art.c: the tile pictures of apps/common/tile_art agree with the
 * catalogue: every tile at every rotation draws, each edge shows its kind
 * and segments, followers show their owner, H and I keep two cities, the
 * river is water between its fields, with bridges where roads cross it;
 * Inns & Cathedrals' inns, cathedrals, IH's closed field and the large
 * follower. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tile_art.h"

/* The edge checks name cells by position: they are written for 5x3. */
_Static_assert(TILE_ART_W == 5 && TILE_ART_H == 3, "port cells below assume 5x3 tiles");

/* The cell drawn at each port, indexed by carc_port: the three cells in the
 * middle of the north and south edges, the three cells of the east and west
 * columns (whose ends are the tile's corners). */
static const int port_col[CARC_PORTS] = {1, 2, 3, 4, 4, 4, 3, 2, 1, 0, 0, 0};
static const int port_row[CARC_PORTS] = {0, 0, 0, 0, 1, 2, 2, 2, 2, 2, 1, 0};

static int is_corner_port(int port)
{
    return port == CARC_ENE || port == CARC_ESE || port == CARC_WSW || port == CARC_WNW;
}

static const tile_art_cell *port_cell(const tile_art *art, int port)
{
    return &art->cell[port_row[port]][port_col[port]];
}

static void draw(int kind, int rot, tile_art *art)
{
    assert_int_equal(tile_art_draw(kind, rot, CARC_NO_SPOT, 0, art), 0);
}

/* Decodes the one UTF-8 character of a glyph; -1 when it is not exactly one. */
static long decode_utf8(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    long cp;
    size_t n;
    if (u[0] < 0x80) {
        cp = u[0];
        n = 1;
    } else if ((u[0] & 0xE0) == 0xC0) {
        cp = u[0] & 0x1F;
        n = 2;
    } else if ((u[0] & 0xF0) == 0xE0) {
        cp = u[0] & 0x0F;
        n = 3;
    } else {
        return -1;
    }
    for (size_t i = 1; i < n; i++) {
        if ((u[i] & 0xC0) != 0x80)
            return -1;
        cp = (cp << 6) | (u[i] & 0x3F);
    }
    return strlen(s) == n ? cp : -1;
}

static void test_every_tile_draws(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++)
        for (int rot = 0; rot < 4; rot++) {
            tile_art art;
            draw(kind, rot, &art);
            for (int row = 0; row < TILE_ART_H; row++)
                for (int col = 0; col < TILE_ART_W; col++) {
                    const tile_art_cell *c = &art.cell[row][col];
                    assert_true(c->codepoint > ' ');
                    assert_int_equal(decode_utf8(c->glyph), (long)c->codepoint);
                    assert_in_range(c->what, TILE_ART_FIELD, TILE_ART_GOODS);
                    assert_true(c->ground == TILE_ART_FIELD || c->ground == TILE_ART_CITY);
                    assert_int_equal(c->owner, TILE_ART_NONE);
                }
        }
}

static void test_bad_arguments(void **state)
{
    (void)state;
    tile_art art;
    assert_int_equal(tile_art_draw(-1, 0, CARC_NO_SPOT, 0, &art), -1);
    assert_int_equal(tile_art_draw(CARC_MAX_KINDS, 0, CARC_NO_SPOT, 0, &art), -1);
    assert_int_equal(tile_art_draw(0, -1, CARC_NO_SPOT, 0, &art), -1);
    assert_int_equal(tile_art_draw(0, 4, CARC_NO_SPOT, 0, &art), -1);
    assert_int_equal(tile_art_draw(0, 0, CARC_NO_SPOT, 0, NULL), -1);
    assert_int_equal(tile_art_draw(0, 0, 3, 0, &art), -1); /* A has 3 segments */
    assert_int_equal(tile_art_draw(0, 0, -1, 0, &art), -1);
    assert_int_equal(tile_art_draw(0, 0, 0, CARC_MAX_PLAYERS, &art), -1);
    assert_int_equal(tile_art_draw(0, 0, 0, -1, &art), -1);
    assert_int_equal(tile_art_draw_placed(NULL, &art), -1);
}

/* Two cities meet at a corner port (I): the corner may show field there. */
static int corner_between_cities(int kind, int rot, int port)
{
    int other = port == CARC_ENE   ? CARC_NNE
                : port == CARC_ESE ? CARC_SSE
                : port == CARC_WSW ? CARC_SSW
                                   : CARC_NNW;
    int a = carc_tile_segment_at(kind, rot, port), b = carc_tile_segment_at(kind, rot, other);
    const carc_tile_def *def = carc_tile(kind);
    return a != b && def->segments[a].kind == CARC_CITY && def->segments[b].kind == CARC_CITY;
}

/* Each port's cell shows the segment holding that port, in board
 * directions, so turning the tile turns the picture. */
static void test_ports_show_their_segments(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++)
        for (int rot = 0; rot < 4; rot++) {
            tile_art art;
            draw(kind, rot, &art);
            for (int port = 0; port < CARC_PORTS; port++) {
                const tile_art_cell *c = port_cell(&art, port);
                int seg = carc_tile_segment_at(kind, rot, port);
                if (c->segment == seg)
                    continue;
                if (is_corner_port(port) && c->ground == TILE_ART_FIELD &&
                    corner_between_cities(kind, rot, port))
                    continue;
                fail_msg("tile %s rotation %d: port %s shows segment %d, not %d",
                         carc_tile_id(kind), rot, carc_port_name(port), c->segment, seg);
            }
        }
}

/* The middle of a road edge is a road, of a city edge city, of a field
 * edge field; a road edge's halves are field. */
static void test_edges_show_their_kinds(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++)
        for (int rot = 0; rot < 4; rot++) {
            tile_art art;
            draw(kind, rot, &art);
            for (int edge = 0; edge < 4; edge++) {
                const tile_art_cell *mid = port_cell(&art, 3 * edge + 1);
                switch (carc_tile_edge(kind, rot, edge)) {
                case CARC_ROAD:
                    assert_int_equal(mid->what, TILE_ART_ROAD);
                    assert_int_equal(mid->ground, TILE_ART_FIELD);
                    assert_true(mid->codepoint == 0x2502 || mid->codepoint == 0x2500);
                    assert_int_equal(port_cell(&art, 3 * edge)->ground, TILE_ART_FIELD);
                    assert_int_equal(port_cell(&art, 3 * edge + 2)->ground, TILE_ART_FIELD);
                    break;
                case CARC_CITY:
                    assert_int_equal(mid->ground, TILE_ART_CITY);
                    assert_true(mid->what == TILE_ART_CITY || mid->what == TILE_ART_WALL ||
                                mid->what == TILE_ART_PENNANT || mid->what == TILE_ART_CATHEDRAL ||
                                mid->what == TILE_ART_GOODS);
                    break;
                case CARC_RIVER:
                    assert_int_equal(mid->what, TILE_ART_RIVER);
                    assert_int_equal(mid->ground, TILE_ART_FIELD);
                    assert_int_equal(mid->codepoint, 0x2248);
                    assert_int_equal(port_cell(&art, 3 * edge)->ground, TILE_ART_FIELD);
                    assert_int_equal(port_cell(&art, 3 * edge)->what, TILE_ART_FIELD);
                    assert_int_equal(port_cell(&art, 3 * edge + 2)->what, TILE_ART_FIELD);
                    break;
                default:
                    assert_true(mid->what == TILE_ART_FIELD || mid->what == TILE_ART_INN);
                    assert_int_equal(mid->ground, TILE_ART_FIELD);
                    break;
                }
            }
        }
}

/* Turning a tile half round turns its picture half round. */
static void test_half_turn_turns_the_picture(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++)
        for (int rot = 0; rot < 2; rot++) {
            tile_art a, b;
            draw(kind, rot, &a);
            draw(kind, rot + 2, &b);
            for (int row = 0; row < TILE_ART_H; row++)
                for (int col = 0; col < TILE_ART_W; col++) {
                    const tile_art_cell *ca = &a.cell[row][col];
                    const tile_art_cell *cb = &b.cell[TILE_ART_H - 1 - row][TILE_ART_W - 1 - col];
                    if (ca->ground != cb->ground || ca->what != cb->what)
                        fail_msg("tile %s: cell %d,%d at rotation %d differs at %d",
                                 carc_tile_id(kind), col, row, rot, rot + 2);
                }
        }
}

/* Every segment shows somewhere, so a follower can stand on it. */
static void test_every_segment_shows(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++)
        for (int rot = 0; rot < 4; rot++) {
            tile_art art;
            draw(kind, rot, &art);
            for (int seg = 0; seg < carc_tile(kind)->nsegments; seg++) {
                int cells = 0;
                for (int row = 0; row < TILE_ART_H; row++)
                    for (int col = 0; col < TILE_ART_W; col++)
                        cells += art.cell[row][col].segment == seg;
                if (cells == 0)
                    fail_msg("tile %s rotation %d: segment %d is not drawn", carc_tile_id(kind),
                             rot, seg);
            }
        }
}

static int count_what(const tile_art *art, int what)
{
    int n = 0;
    for (int row = 0; row < TILE_ART_H; row++)
        for (int col = 0; col < TILE_ART_W; col++)
            n += art->cell[row][col].what == what;
    return n;
}

static int same_cell(const tile_art_cell *a, const tile_art_cell *b)
{
    return a->codepoint == b->codepoint && strcmp(a->glyph, b->glyph) == 0 && a->what == b->what &&
           a->ground == b->ground && a->segment == b->segment && a->owner == b->owner;
}

/* A follower is one cell with its owner's letter, lower case on a field,
 * and the rest of the tile is drawn as without it. */
static void check_follower(int kind, int rot, int seg, int owner)
{
    tile_art plain, art;
    draw(kind, rot, &plain);
    assert_int_equal(tile_art_draw(kind, rot, seg, owner, &art), 0);
    int farmer = carc_tile(kind)->segments[seg].kind == CARC_FIELD;
    int followers = 0, changed = 0;
    for (int row = 0; row < TILE_ART_H; row++)
        for (int col = 0; col < TILE_ART_W; col++) {
            const tile_art_cell *c = &art.cell[row][col];
            changed += !same_cell(c, &plain.cell[row][col]);
            if (c->what != TILE_ART_FOLLOWER)
                continue;
            followers++;
            assert_int_equal(c->owner, owner);
            assert_int_equal(c->segment, seg);
            assert_int_equal(c->codepoint, (uint32_t)tile_art_letter(owner, farmer));
        }
    assert_int_equal(followers, 1);
    assert_int_equal(changed, 1);
}

static void test_followers_show_their_owner(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++)
        for (int rot = 0; rot < 4; rot++)
            for (int seg = 0; seg < carc_tile(kind)->nsegments; seg++)
                for (int owner = 0; owner < CARC_MAX_PLAYERS; owner++)
                    check_follower(kind, rot, seg, owner);
}

static void test_follower_on_a_placed_tile(void **state)
{
    (void)state;
    /* The start tile D with a Blue knight on its city. */
    carc_tile_on_board t = {
        .kind = (uint8_t)carc_tile_parse("D"), .follower_segment = 0, .follower_owner = 1};
    tile_art art;
    assert_int_equal(tile_art_draw_placed(&t, &art), 0);
    assert_int_equal(count_what(&art, TILE_ART_FOLLOWER), 1);
    assert_int_equal(art.cell[0][2].what, TILE_ART_FOLLOWER);
    assert_string_equal(art.cell[0][2].glyph, "B");
    assert_int_equal(art.cell[0][2].ground, TILE_ART_CITY);
    t.follower_segment = CARC_NO_SPOT;
    assert_int_equal(tile_art_draw_placed(&t, &art), 0);
    assert_int_equal(count_what(&art, TILE_ART_FOLLOWER), 0);
}

static void test_letters(void **state)
{
    (void)state;
    char letters[CARC_MAX_PLAYERS + 1] = "";
    for (int p = 0; p < CARC_MAX_PLAYERS; p++)
        letters[p] = tile_art_letter(p, 0);
    assert_string_equal(letters, "RBYGKWPI"); /* purple and pink: P, I */
    assert_int_equal(tile_art_letter(0, 1), 'r');
    assert_int_equal(tile_art_letter(5, 1), 'w');
    assert_int_equal(tile_art_letter(7, 1), 'i');
    assert_int_equal(tile_art_letter(8, 0), '?');
    assert_int_equal(tile_art_letter(-1, 1), '?');
}

/* No two cells of different cities touch side by side (H, I). */
static void test_two_cities_stay_apart(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++)
        for (int rot = 0; rot < 4; rot++) {
            tile_art art;
            draw(kind, rot, &art);
            for (int row = 0; row < TILE_ART_H; row++)
                for (int col = 0; col < TILE_ART_W; col++) {
                    const tile_art_cell *c = &art.cell[row][col];
                    const tile_art_cell *east = col + 1 < TILE_ART_W ? c + 1 : NULL;
                    const tile_art_cell *south =
                        row + 1 < TILE_ART_H ? &art.cell[row + 1][col] : NULL;
                    for (int i = 0; i < 2; i++) {
                        const tile_art_cell *n = i ? south : east;
                        if (n && c->ground == TILE_ART_CITY && n->ground == TILE_ART_CITY)
                            assert_int_equal(c->segment, n->segment);
                    }
                }
        }
    tile_art h;
    draw(carc_tile_parse("H"), 0, &h);
    for (int col = 0; col < TILE_ART_W; col++)
        assert_int_equal(h.cell[1][col].ground, TILE_ART_FIELD); /* a field between */
}

/* Walls where a city meets a field; none inside the all-city tiles C and
 * IK (whose centre shows the pennant, the cathedral). */
static void test_walls(void **state)
{
    (void)state;
    tile_art art;
    for (int i = 0; i < 2; i++) {
        draw(carc_tile_parse(i ? "IK" : "C"), 0, &art);
        assert_int_equal(count_what(&art, TILE_ART_WALL), 0);
        assert_int_equal(count_what(&art, TILE_ART_CITY), TILE_ART_W * TILE_ART_H - 1);
    }
    for (int kind = 0; kind < carc_tile_kinds(); kind++) {
        if (kind == carc_tile_parse("C") || kind == carc_tile_parse("IK"))
            continue;
        for (int rot = 0; rot < 4; rot++) {
            int cities = 0;
            draw(kind, rot, &art);
            for (int e = 0; e < 4; e++)
                cities += carc_tile_edge(kind, rot, e) == CARC_CITY;
            if (cities > 0 && count_what(&art, TILE_ART_WALL) == 0)
                fail_msg("tile %s rotation %d: a city without a wall", carc_tile_id(kind), rot);
        }
    }
}

/* One pennant cell per pennant, on its city. */
static void test_pennants(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++) {
        const carc_tile_def *def = carc_tile(kind);
        int pennants = 0;
        for (int s = 0; s < def->nsegments; s++)
            pennants += def->segments[s].pennant;
        for (int rot = 0; rot < 4; rot++) {
            tile_art art;
            draw(kind, rot, &art);
            assert_int_equal(count_what(&art, TILE_ART_PENNANT), pennants);
            for (int row = 0; row < TILE_ART_H; row++)
                for (int col = 0; col < TILE_ART_W; col++)
                    if (art.cell[row][col].what == TILE_ART_PENNANT)
                        assert_int_equal(art.cell[row][col].ground, TILE_ART_CITY);
        }
    }
}

/* The cell beside the centre towards the edge of a tile's only road. */
static const tile_art_cell *beside_centre_towards_road(const tile_art *art, int kind, int rot)
{
    static const int dcol[4] = {0, 1, 0, -1}, drow[4] = {-1, 0, 1, 0};
    for (int e = 0; e < 4; e++)
        if (carc_tile_edge(kind, rot, e) == CARC_ROAD)
            return &art->cell[1 + drow[e]][2 + dcol[e]];
    fail_msg("tile %s has no road", carc_tile_id(kind));
    return NULL;
}

/* Roads end at a junction (L, W, X), a cloister (A) or a city (S, T). */
static void test_road_ends(void **state)
{
    (void)state;
    for (int rot = 0; rot < 4; rot++) {
        tile_art art;
        const char *junctions = "LWX", *through = "DJKOPUV", *gates = "ST";
        for (const char *t = junctions; *t; t++) {
            draw(carc_tile_parse_n(t, 1), rot, &art);
            assert_int_equal(art.cell[1][2].what, TILE_ART_JUNCTION);
            assert_int_equal(count_what(&art, TILE_ART_JUNCTION), 1);
        }
        for (const char *t = through; *t; t++) {
            draw(carc_tile_parse_n(t, 1), rot, &art);
            assert_int_equal(art.cell[1][2].what, TILE_ART_ROAD);
            assert_int_equal(count_what(&art, TILE_ART_JUNCTION), 0);
        }
        int a = carc_tile_parse("A");
        draw(a, rot, &art);
        assert_int_equal(art.cell[1][2].what, TILE_ART_CLOISTER);
        assert_int_equal(beside_centre_towards_road(&art, a, rot)->what, TILE_ART_ROAD);
        for (const char *t = gates; *t; t++) {
            int kind = carc_tile_parse_n(t, 1);
            draw(kind, rot, &art);
            assert_int_equal(art.cell[1][2].ground, TILE_ART_CITY);
            assert_int_equal(count_what(&art, TILE_ART_JUNCTION), 0);
            assert_int_equal(beside_centre_towards_road(&art, kind, rot)->what, TILE_ART_ROAD);
        }
    }
}

/* Rotation 1 turns U's north-south road east-west. */
static void test_rotation_turns_a_road(void **state)
{
    (void)state;
    tile_art art;
    draw(carc_tile_parse("U"), 0, &art);
    for (int row = 0; row < TILE_ART_H; row++)
        assert_string_equal(art.cell[row][2].glyph, "\u2502");
    draw(carc_tile_parse("U"), 1, &art);
    for (int col = 0; col < TILE_ART_W; col++)
        assert_string_equal(art.cell[1][col].glyph, "\u2500");
}

/* The River (river.md): water cells, in their own kind and glyph, with the
 * river's fields on both sides of it. */
static int is_water(const tile_art_cell *c)
{
    return c->what == TILE_ART_RIVER && c->ground == TILE_ART_FIELD &&
           strcmp(c->glyph, "\u2248") == 0;
}

static int kind_of(const char *id)
{
    int kind = carc_tile_parse(id);
    assert_true(kind >= 0);
    return kind;
}

/* RD: river r {E W}; field f1 north, f2 south (segments 0, 1, 2). */
static void test_river_runs_between_its_fields(void **state)
{
    (void)state;
    tile_art art;
    draw(kind_of("RD"), 0, &art);
    for (int col = 0; col < TILE_ART_W; col++) {
        assert_true(is_water(&art.cell[1][col]));
        assert_int_equal(art.cell[1][col].segment, 0);
        assert_int_equal(art.cell[0][col].what, TILE_ART_FIELD);
        assert_int_equal(art.cell[0][col].segment, 1);
        assert_int_equal(art.cell[2][col].what, TILE_ART_FIELD);
        assert_int_equal(art.cell[2][col].segment, 2);
    }
    /* A quarter turn: the river runs north-south, f1 east of it. */
    draw(kind_of("RD"), 1, &art);
    for (int row = 0; row < TILE_ART_H; row++) {
        assert_true(is_water(&art.cell[row][2]));
        for (int col = 0; col < 2; col++)
            assert_int_equal(art.cell[row][col].segment, 2);
        for (int col = 3; col < TILE_ART_W; col++)
            assert_int_equal(art.cell[row][col].segment, 1);
    }
}

/* Water only where a river is: no other tile shows any, and each river tile
 * shows its river's segment in every water cell. */
static void test_water_only_on_the_river(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++) {
        const carc_tile_def *def = carc_tile(kind);
        for (int rot = 0; rot < 4; rot++) {
            tile_art art;
            draw(kind, rot, &art);
            int water = count_what(&art, TILE_ART_RIVER);
            if (def->set != CARC_EXPANSION_RIVER)
                assert_int_equal(water, 0);
            else if (water < 2)
                fail_msg("tile %s rotation %d: %d water cells", def->id, rot, water);
            for (int row = 0; row < TILE_ART_H; row++)
                for (int col = 0; col < TILE_ART_W; col++) {
                    const tile_art_cell *c = &art.cell[row][col];
                    if (c->what == TILE_ART_RIVER) {
                        assert_true(is_water(c));
                        assert_int_equal(def->segments[c->segment].kind, CARC_RIVER);
                    }
                }
        }
    }
}

/* RK: the road crosses the river on a bridge: the centre is road, the
 * water runs north and south of it. */
static void test_bridge_over_the_river(void **state)
{
    (void)state;
    tile_art art;
    draw(kind_of("RK"), 0, &art);
    for (int col = 0; col < TILE_ART_W; col++) {
        assert_int_equal(art.cell[1][col].what, TILE_ART_ROAD);
        assert_string_equal(art.cell[1][col].glyph, "\u2500");
    }
    assert_true(is_water(&art.cell[0][2]));
    assert_true(is_water(&art.cell[2][2]));
    /* RB: the road from the south crosses the river to the city. */
    draw(kind_of("RB"), 0, &art);
    assert_int_equal(art.cell[1][2].what, TILE_ART_ROAD);
    assert_int_equal(art.cell[2][2].what, TILE_ART_ROAD);
    assert_int_equal(art.cell[1][2].segment, art.cell[2][2].segment);
    assert_int_equal(art.cell[0][2].ground, TILE_ART_CITY);
    for (int col = 0; col < TILE_ART_W; col++)
        if (col != 2)
            assert_true(is_water(&art.cell[1][col]));
    assert_int_equal(count_what(&art, TILE_ART_JUNCTION), 0);
}

/* RI: the road's bend and the river's bend do not touch; the centre is
 * the field f1 between them (the field holding NNW). RH: the cloister
 * keeps the centre, the river passes either side. */
static void test_river_keeps_apart_from_roads(void **state)
{
    (void)state;
    tile_art art;
    int ri = kind_of("RI");
    for (int rot = 0; rot < 4; rot++) {
        draw(ri, rot, &art);
        const tile_art_cell *centre = &art.cell[1][2];
        assert_int_equal(centre->what, TILE_ART_FIELD);
        assert_int_equal(centre->segment, carc_tile_segment_at(ri, rot, (CARC_NNW + 3 * rot) % 12));
        assert_int_equal(count_what(&art, TILE_ART_RIVER), 3);
        assert_int_equal(count_what(&art, TILE_ART_ROAD), 3);
    }
    draw(kind_of("RH"), 0, &art);
    assert_int_equal(art.cell[1][2].what, TILE_ART_CLOISTER);
    assert_int_equal(count_what(&art, TILE_ART_RIVER), 4);
    assert_int_equal(art.cell[2][2].what, TILE_ART_ROAD);
}

/* The spring and the lake: the river ends in the middle, and the one field
 * goes all round it. */
static void test_spring_and_lake(void **state)
{
    (void)state;
    const char *ends[] = {"RA", "RL"};
    for (int i = 0; i < 2; i++) {
        int kind = kind_of(ends[i]);
        for (int rot = 0; rot < 4; rot++) {
            tile_art art;
            draw(kind, rot, &art);
            /* The centre and the arm to the river's edge: 2 cells to the
             * east or west, 1 to the north or south. */
            int water = carc_tile_edge(kind, rot, 1) == CARC_RIVER ||
                                carc_tile_edge(kind, rot, 3) == CARC_RIVER
                            ? 3
                            : 2;
            assert_true(is_water(&art.cell[1][2]));
            assert_int_equal(count_what(&art, TILE_ART_RIVER), water);
            assert_int_equal(count_what(&art, TILE_ART_FIELD), TILE_ART_W * TILE_ART_H - water);
            int field = carc_tile(kind)->segments[0].kind == CARC_FIELD ? 0 : 1;
            for (int row = 0; row < TILE_ART_H; row++)
                for (int col = 0; col < TILE_ART_W; col++)
                    if (art.cell[row][col].what == TILE_ART_FIELD)
                        assert_int_equal(art.cell[row][col].segment, field);
        }
    }
}

/* Inns & Cathedrals: each inn shows once, on a field cell beside a road
 * cell of its own road; each cathedral once, inside its city; at every
 * rotation. No other tile shows either mark. */
static int beside_own_road(const tile_art *art, int row, int col, int seg)
{
    static const int dcol[4] = {0, 1, 0, -1}, drow[4] = {-1, 0, 1, 0};
    for (int side = 0; side < 4; side++) {
        int r = row + drow[side], c = col + dcol[side];
        if (r >= 0 && r < TILE_ART_H && c >= 0 && c < TILE_ART_W &&
            art->cell[r][c].what == TILE_ART_ROAD && art->cell[r][c].segment == seg)
            return 1;
    }
    return 0;
}

static int marked_segments(int kind, int segkind, unsigned mark, int *seg)
{
    const carc_tile_def *def = carc_tile(kind);
    int n = 0;
    for (int s = 0; s < def->nsegments; s++)
        if (def->segments[s].kind == segkind && (def->segments[s].marks & mark)) {
            n++;
            *seg = s;
        }
    return n;
}

static void test_inns_and_cathedrals(void **state)
{
    (void)state;
    int inn_tiles = 0, cathedral_tiles = 0;
    for (int kind = 0; kind < carc_tile_kinds(); kind++) {
        int inn_road = -1, cathedral_city = -1;
        int inns = marked_segments(kind, CARC_ROAD, CARC_MARK_INN, &inn_road);
        int cathedrals = marked_segments(kind, CARC_CITY, CARC_MARK_CATHEDRAL, &cathedral_city);
        inn_tiles += inns > 0;
        cathedral_tiles += cathedrals > 0;
        for (int rot = 0; rot < 4; rot++) {
            tile_art art;
            draw(kind, rot, &art);
            assert_int_equal(count_what(&art, TILE_ART_INN), inns);
            assert_int_equal(count_what(&art, TILE_ART_CATHEDRAL), cathedrals);
            for (int row = 0; row < TILE_ART_H; row++)
                for (int col = 0; col < TILE_ART_W; col++) {
                    const tile_art_cell *c = &art.cell[row][col];
                    if (c->what == TILE_ART_INN) {
                        assert_int_equal(c->ground, TILE_ART_FIELD);
                        assert_int_equal(carc_tile(kind)->segments[c->segment].kind, CARC_FIELD);
                        assert_string_equal(c->glyph, TILE_ART_INN_GLYPH);
                        if (!beside_own_road(&art, row, col, inn_road))
                            fail_msg("tile %s rotation %d: the inn is not beside its road",
                                     carc_tile_id(kind), rot);
                    }
                    if (c->what == TILE_ART_CATHEDRAL) {
                        assert_int_equal(c->ground, TILE_ART_CITY);
                        assert_int_equal(c->segment, cathedral_city);
                        assert_string_equal(c->glyph, TILE_ART_CATHEDRAL_GLYPH);
                    }
                }
        }
    }
    assert_int_equal(inn_tiles, 6);       /* IA IB IC IL IM IN */
    assert_int_equal(cathedral_tiles, 1); /* IK */
}

/* IH: four cities, one on each edge, apart; the closed field (the record's
 * spot F) fills the middle and the corners. */
static void test_four_cities_round_a_closed_field(void **state)
{
    (void)state;
    int ih = kind_of("IH"), field = 4;
    assert_int_equal(carc_tile(ih)->segments[field].ports, 0);
    for (int rot = 0; rot < 4; rot++) {
        tile_art art;
        draw(ih, rot, &art);
        for (int col = 1; col < TILE_ART_W - 1; col++)
            assert_int_equal(art.cell[1][col].segment, field);
        assert_int_equal(art.cell[0][0].segment, field);
        assert_int_equal(art.cell[2][4].segment, field);
        int cities = 0;
        for (int row = 0; row < TILE_ART_H; row++)
            for (int col = 0; col < TILE_ART_W; col++)
                cities += art.cell[row][col].ground == TILE_ART_CITY;
        assert_int_equal(cities, 3 + 1 + 3 + 1);
    }
    /* A farmer on the closed field stands in the middle. */
    tile_art art;
    assert_int_equal(tile_art_draw(ih, 0, field, 2, &art), 0);
    assert_int_equal(art.cell[1][2].what, TILE_ART_FOLLOWER);
    assert_string_equal(art.cell[1][2].glyph, "y");
}

/* IK: the cathedral city fills the tile, the cathedral in the middle. */
static void test_cathedral_city_fills_the_tile(void **state)
{
    (void)state;
    for (int rot = 0; rot < 4; rot++) {
        tile_art art;
        draw(kind_of("IK"), rot, &art);
        for (int row = 0; row < TILE_ART_H; row++)
            for (int col = 0; col < TILE_ART_W; col++) {
                assert_int_equal(art.cell[row][col].ground, TILE_ART_CITY);
                assert_int_equal(art.cell[row][col].segment, 0);
            }
        assert_int_equal(art.cell[1][2].what, TILE_ART_CATHEDRAL);
    }
}

/* A tile's only road that ends at a city (IF, IJ, IN) runs through the
 * centre to it, with no junction; IE's two curves keep apart (the centre
 * is the diagonal field) and II's roads meet at a junction. */
static void test_inns_cathedrals_road_ends(void **state)
{
    (void)state;
    const char *to_city[] = {"IF", "IJ", "IN"};
    for (int rot = 0; rot < 4; rot++) {
        tile_art art;
        for (int i = 0; i < 3; i++) {
            draw(kind_of(to_city[i]), rot, &art);
            assert_int_equal(art.cell[1][2].what, TILE_ART_ROAD);
            assert_int_equal(count_what(&art, TILE_ART_JUNCTION), 0);
        }
        int ie = kind_of("IE");
        draw(ie, rot, &art);
        assert_int_equal(art.cell[1][2].what, TILE_ART_FIELD);
        assert_int_equal(art.cell[1][2].segment, 3); /* f2, the diagonal field */
        assert_int_equal(count_what(&art, TILE_ART_ROAD), 6);
        draw(kind_of("II"), rot, &art);
        assert_int_equal(art.cell[1][2].what, TILE_ART_JUNCTION);
    }
}

/* Whether cell (col, row) shows segment `seg` and no mark. */
static int plain_cell_of(const tile_art *art, int col, int row, int seg)
{
    const tile_art_cell *c = &art->cell[row][col];
    return c->segment == seg && c->what != TILE_ART_PENNANT && c->what != TILE_ART_CLOISTER &&
           c->what != TILE_ART_INN && c->what != TILE_ART_CATHEDRAL;
}

/* Whether two side-by-side cells show segment `seg` and no mark. */
static int has_pair(const tile_art *art, int seg)
{
    for (int row = 0; row < TILE_ART_H; row++)
        for (int col = 0; col < TILE_ART_W; col++) {
            if (!plain_cell_of(art, col, row, seg))
                continue;
            if (col + 1 < TILE_ART_W && plain_cell_of(art, col + 1, row, seg))
                return 1;
            if (row + 1 < TILE_ART_H && plain_cell_of(art, col, row + 1, seg))
                return 1;
        }
    return 0;
}

/* The large follower: its owner's letter in two side-by-side cells of its
 * segment (one when the segment has no two such cells; a large monk
 * either side of his cloister), the rest as without it; a large farmer in
 * lower case. */
static void test_large_follower(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++)
        for (int rot = 0; rot < 4; rot++)
            for (int seg = 0; seg < carc_tile(kind)->nsegments; seg++) {
                tile_art plain, art;
                draw(kind, rot, &plain);
                assert_int_equal(tile_art_draw_figure(kind, rot, seg, 3, CARC_FIGURE_LARGE, &art),
                                 0);
                int farmer = carc_tile(kind)->segments[seg].kind == CARC_FIELD;
                int followers = 0, changed = 0;
                for (int row = 0; row < TILE_ART_H; row++)
                    for (int col = 0; col < TILE_ART_W; col++) {
                        const tile_art_cell *c = &art.cell[row][col];
                        changed += !same_cell(c, &plain.cell[row][col]);
                        if (c->what != TILE_ART_FOLLOWER)
                            continue;
                        followers++;
                        assert_int_equal(c->owner, 3);
                        assert_int_equal(c->codepoint, (uint32_t)tile_art_letter(3, farmer));
                    }
                int monk = carc_tile(kind)->segments[seg].kind == CARC_CLOISTER;
                if (followers != (has_pair(&plain, seg) || monk ? 2 : 1))
                    fail_msg("tile %s rotation %d segment %d: %d cells for a large follower",
                             carc_tile_id(kind), rot, seg, followers);
                assert_int_equal(changed, followers);
            }
    tile_art art;
    assert_int_equal(tile_art_draw_figure(0, 0, 0, 0, CARC_FIGURES, &art), -1);
    /* A placed tile draws its figure. */
    carc_tile_on_board t = {.kind = (uint8_t)kind_of("IK"),
                            .follower_segment = 0,
                            .follower_owner = 1,
                            .follower_figure = CARC_FIGURE_LARGE};
    assert_int_equal(tile_art_draw_placed(&t, &art), 0);
    assert_int_equal(count_what(&art, TILE_ART_FOLLOWER), 2);
    assert_int_equal(count_what(&art, TILE_ART_CATHEDRAL), 1);
}

/* Traders & Builders: each of the 20 goods cities shows its goods' glyph
 * once, on a cell of that city, at every rotation; the other tiles none. */
static void test_goods(void **state)
{
    (void)state;
    int tiles = 0;
    for (int kind = 0; kind < carc_tile_kinds(); kind++) {
        const carc_tile_def *def = carc_tile(kind);
        int goods_seg = -1;
        uint32_t glyph = 0;
        for (int s = 0; s < def->nsegments; s++) {
            unsigned m = def->segments[s].marks;
            if (m & (CARC_MARK_WINE | CARC_MARK_GRAIN | CARC_MARK_CLOTH)) {
                goods_seg = s;
                glyph = m & CARC_MARK_WINE ? 0x2207 : m & CARC_MARK_GRAIN ? 0xA5 : '#';
            }
        }
        tiles += goods_seg >= 0;
        for (int rot = 0; rot < 4; rot++) {
            tile_art art;
            draw(kind, rot, &art);
            int n = count_what(&art, TILE_ART_GOODS);
            assert_int_equal(n, goods_seg >= 0 ? 1 : 0);
            for (int i = 0; i < TILE_ART_W * TILE_ART_H; i++) {
                const tile_art_cell *c = &art.cell[i / TILE_ART_W][i % TILE_ART_W];
                if (c->what != TILE_ART_GOODS)
                    continue;
                assert_int_equal(c->segment, goods_seg);
                assert_int_equal(c->ground, TILE_ART_CITY);
                assert_int_equal(c->codepoint, glyph);
            }
        }
    }
    assert_int_equal(tiles, 20);
    assert_string_equal(TILE_ART_WINE_GLYPH, "\u2207");
}

/* TC and TD: the field with no ports lies between the two cities, apart
 * from the northern field. */
static void test_closed_field_between_cities(void **state)
{
    (void)state;
    for (int rot = 0; rot < 4; rot++) {
        tile_art art;
        draw(kind_of("TC"), rot, &art);
        int closed = 0;
        for (int i = 0; i < TILE_ART_W * TILE_ART_H; i++) {
            const tile_art_cell *c = &art.cell[i / TILE_ART_W][i % TILE_ART_W];
            if (c->segment == 3) {
                closed++;
                assert_int_equal(c->ground, TILE_ART_FIELD);
            }
        }
        assert_true(closed >= 1);
    }
}

/* TG, TL and TV: a wall parts two small farms in a corner; the smaller's
 * cell beside the other shows it (╎ or ╌), still a field cell of its
 * segment. Tiles whose farms are parted by roads, rivers or cities show
 * none (E, RI). */
static void test_fences(void **state)
{
    (void)state;
    const char *with[] = {"TG", "TL", "TV"}, *without[] = {"E", "RI", "V", "TH"};
    for (int rot = 0; rot < 4; rot++) {
        for (size_t i = 0; i < sizeof with / sizeof with[0]; i++) {
            tile_art art;
            draw(kind_of(with[i]), rot, &art);
            int fences = 0;
            for (int c = 0; c < TILE_ART_W * TILE_ART_H; c++) {
                const tile_art_cell *cell = &art.cell[c / TILE_ART_W][c % TILE_ART_W];
                if (cell->codepoint != 0x254E && cell->codepoint != 0x254C)
                    continue;
                fences++;
                assert_int_equal(cell->what, TILE_ART_FIELD);
                assert_int_equal(carc_tile(kind_of(with[i]))->segments[cell->segment].kind,
                                 CARC_FIELD);
            }
            if (fences < 1)
                fail_msg("tile %s rotation %d: no wall between its farms", with[i], rot);
        }
        for (size_t i = 0; i < sizeof without / sizeof without[0]; i++) {
            tile_art art;
            draw(kind_of(without[i]), rot, &art);
            for (int c = 0; c < TILE_ART_W * TILE_ART_H; c++) {
                uint32_t cp = art.cell[c / TILE_ART_W][c % TILE_ART_W].codepoint;
                if (cp == 0x254E || cp == 0x254C)
                    fail_msg("tile %s rotation %d: a wall between farms", without[i], rot);
            }
        }
    }
}

/* The builder and the pig: one cell each, their owner's, a glyph apart
 * from a follower's, a farmer's and each other's. */
static void test_builder_and_pig(void **state)
{
    (void)state;
    int th = kind_of("TH"); /* city 0, road 1, road 2, fields 3..5 */
    for (int owner = 0; owner < CARC_MAX_PLAYERS; owner++) {
        tile_art builder, pig, follower, farmer;
        assert_int_equal(tile_art_draw_figure(th, 0, 0, owner, CARC_FIGURE_BUILDER, &builder), 0);
        assert_int_equal(tile_art_draw_figure(th, 0, 3, owner, CARC_FIGURE_PIG, &pig), 0);
        assert_int_equal(tile_art_draw_figure(th, 0, 0, owner, CARC_FIGURE_FOLLOWER, &follower), 0);
        assert_int_equal(tile_art_draw_figure(th, 0, 3, owner, CARC_FIGURE_FOLLOWER, &farmer), 0);
        assert_int_equal(count_what(&builder, TILE_ART_FOLLOWER), 1);
        assert_int_equal(count_what(&pig, TILE_ART_FOLLOWER), 1);
        uint32_t b = 0, p = 0, f = 0, r = 0;
        for (int i = 0; i < TILE_ART_W * TILE_ART_H; i++) {
            int row = i / TILE_ART_W, col = i % TILE_ART_W;
            if (builder.cell[row][col].what == TILE_ART_FOLLOWER) {
                b = builder.cell[row][col].codepoint;
                assert_int_equal(builder.cell[row][col].owner, owner);
                assert_int_equal(builder.cell[row][col].segment, 0);
            }
            if (pig.cell[row][col].what == TILE_ART_FOLLOWER) {
                p = pig.cell[row][col].codepoint;
                assert_int_equal(pig.cell[row][col].segment, 3);
            }
            if (follower.cell[row][col].what == TILE_ART_FOLLOWER)
                f = follower.cell[row][col].codepoint;
            if (farmer.cell[row][col].what == TILE_ART_FOLLOWER)
                r = farmer.cell[row][col].codepoint;
        }
        assert_true(b != f && b != r && p != f && p != r && b != p);
        assert_int_equal(b, tile_art_figure_glyph(owner, CARC_FIGURE_BUILDER, 0));
        assert_int_equal(p, tile_art_figure_glyph(owner, CARC_FIGURE_PIG, 1));
        assert_int_equal(f, (uint32_t)tile_art_letter(owner, 0));
    }
    /* Red's builder is a circled R, Blue's pig a circled b. */
    assert_int_equal(tile_art_figure_glyph(0, CARC_FIGURE_BUILDER, 0), 0x24C7);
    assert_int_equal(tile_art_figure_glyph(1, CARC_FIGURE_PIG, 1), 0x24D1);
    assert_int_equal(tile_art_figure_glyph(6, CARC_FIGURE_PIG, 1),
                     0x24DF); /* purple: a circled p */
    assert_int_equal(tile_art_figure_glyph(8, CARC_FIGURE_PIG, 1), '?');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_tile_draws),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_ports_show_their_segments),
        cmocka_unit_test(test_edges_show_their_kinds),
        cmocka_unit_test(test_half_turn_turns_the_picture),
        cmocka_unit_test(test_every_segment_shows),
        cmocka_unit_test(test_followers_show_their_owner),
        cmocka_unit_test(test_follower_on_a_placed_tile),
        cmocka_unit_test(test_letters),
        cmocka_unit_test(test_two_cities_stay_apart),
        cmocka_unit_test(test_walls),
        cmocka_unit_test(test_pennants),
        cmocka_unit_test(test_road_ends),
        cmocka_unit_test(test_rotation_turns_a_road),
        cmocka_unit_test(test_river_runs_between_its_fields),
        cmocka_unit_test(test_water_only_on_the_river),
        cmocka_unit_test(test_bridge_over_the_river),
        cmocka_unit_test(test_river_keeps_apart_from_roads),
        cmocka_unit_test(test_spring_and_lake),
        cmocka_unit_test(test_inns_and_cathedrals),
        cmocka_unit_test(test_four_cities_round_a_closed_field),
        cmocka_unit_test(test_cathedral_city_fills_the_tile),
        cmocka_unit_test(test_inns_cathedrals_road_ends),
        cmocka_unit_test(test_large_follower),
        cmocka_unit_test(test_goods),
        cmocka_unit_test(test_closed_field_between_cities),
        cmocka_unit_test(test_builder_and_pig),
        cmocka_unit_test(test_fences),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
