/* test_square_view.c: the board squares of the terminal game, for every
 * tile at every rotation: the catalogue's edges show, followers and
 * follower spots land on their segments, the overview keeps followers,
 * and the marks of empty squares. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "square_view.h"

/* The cell in the middle of each edge of a 5x3 picture (N E S W). */
static const int mid_row[4] = {0, 1, 2, 1};
static const int mid_col[4] = {2, 4, 2, 0};

static square_desc tile_desc(int kind, int rot)
{
    square_desc d = square_desc_empty();
    d.has_tile = 1;
    d.kind = kind;
    d.rot = rot;
    return d;
}

static void test_edges_show_their_kind(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++)
        for (int rot = 0; rot < 4; rot++) {
            square_desc d = tile_desc(kind, rot);
            square_pic pic;
            assert_int_equal(square_draw(&d, &pic), 0);
            assert_int_equal(pic.w, TILE_ART_W);
            assert_int_equal(pic.h, TILE_ART_H);
            for (int e = 0; e < 4; e++) {
                const tile_art_cell *c = &pic.cell[mid_row[e]][mid_col[e]].art;
                int edge = carc_tile_edge(kind, rot, e);
                if (edge == CARC_ROAD)
                    assert_int_equal(c->what, TILE_ART_ROAD);
                else if (edge == CARC_CITY)
                    assert_int_equal(c->ground, TILE_ART_CITY);
                else
                    assert_true(c->ground == TILE_ART_FIELD && c->what != TILE_ART_ROAD);
            }
            for (int r = 0; r < TILE_ART_H; r++)
                for (int c = 0; c < TILE_ART_W; c++)
                    assert_int_equal(pic.cell[r][c].flags, 0);
        }
}

static int count_glyph(const square_pic *pic, char ch, uint16_t flag, int *row, int *col)
{
    int n = 0;
    for (int r = 0; r < pic->h; r++)
        for (int c = 0; c < pic->w; c++)
            if (pic->cell[r][c].art.glyph[0] == ch && !pic->cell[r][c].art.glyph[1] &&
                (!flag || (pic->cell[r][c].flags & flag))) {
                n++;
                *row = r;
                *col = c;
            }
    return n;
}

/* Each segment's spot gets its own number, on a cell of that segment. */
static void test_spots_numbered_on_their_segments(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++)
        for (int rot = 0; rot < 4; rot++) {
            square_desc d = tile_desc(kind, rot);
            const carc_tile_def *def = carc_tile(kind);
            d.nspots = def->nsegments;
            for (int s = 0; s < def->nsegments; s++)
                d.spot_segment[s] = s;
            d.chosen_spot = def->nsegments - 1;
            square_pic pic;
            assert_int_equal(square_draw(&d, &pic), 0);
            for (int s = 0; s < def->nsegments; s++) {
                int row = -1, col = -1;
                assert_int_equal(count_glyph(&pic, (char)('1' + s), SQF_SPOT, &row, &col), 1);
                assert_int_equal(pic.cell[row][col].art.segment, s);
                int chosen = (pic.cell[row][col].flags & SQF_CHOSEN) != 0;
                assert_int_equal(chosen, s == def->nsegments - 1);
            }
        }
}

/* A follower on any segment shows its owner's letter, in full and in the
 * overview; a farmer's letter is lower case. */
static void test_followers_full_and_zoomed(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++)
        for (int rot = 0; rot < 4; rot++)
            for (int s = 0; s < carc_tile(kind)->nsegments; s++) {
                int owner = (kind + s) % CARC_MAX_PLAYERS;
                int farmer = carc_tile(kind)->segments[s].kind == CARC_FIELD;
                char letter = tile_art_letter(owner, farmer);
                square_desc d = tile_desc(kind, rot);
                d.follower_segment = s;
                d.owner = owner;
                square_pic pic;
                int row, col;
                assert_int_equal(square_draw(&d, &pic), 0);
                assert_int_equal(count_glyph(&pic, letter, 0, &row, &col), 1);
                assert_int_equal(pic.cell[row][col].art.owner, owner);
                d.zoomed = 1;
                assert_int_equal(square_draw(&d, &pic), 0);
                assert_int_equal(pic.w, ZOOM_W);
                assert_int_equal(pic.h, ZOOM_H);
                assert_int_equal(count_glyph(&pic, letter, 0, &row, &col), 1);
            }
}

/* The overview: the middle cell of a road through E and W is road, and a
 * cloister stays a cloister. */
static void test_zoomed_pictures(void **state)
{
    (void)state;
    for (int kind = 0; kind < carc_tile_kinds(); kind++)
        for (int rot = 0; rot < 4; rot++) {
            square_desc d = tile_desc(kind, rot);
            d.zoomed = 1;
            square_pic pic;
            assert_int_equal(square_draw(&d, &pic), 0);
            for (int z = 0; z < ZOOM_W; z++)
                assert_true(pic.cell[0][z].art.codepoint > ' ');
            if (kind == carc_tile_parse("A") || kind == carc_tile_parse("B"))
                assert_int_equal(pic.cell[0][1].art.what, TILE_ART_CLOISTER);
            if (kind == carc_tile_parse("U") && rot % 2 == 1)
                assert_int_equal(pic.cell[0][1].art.what, TILE_ART_ROAD);
        }
}

static void test_empty_square_marks(void **state)
{
    (void)state;
    square_desc d = square_desc_empty();
    square_pic pic;
    int row, col;
    assert_int_equal(square_draw(&d, &pic), 0);
    assert_int_equal(count_glyph(&pic, ' ', 0, &row, &col), TILE_ART_W * TILE_ART_H);
    d.legal = 1;
    assert_int_equal(square_draw(&d, &pic), 0);
    assert_int_equal(count_glyph(&pic, '+', SQF_LEGAL, &row, &col), 4);
    d.legal = 0;
    d.dead = 1;
    assert_int_equal(square_draw(&d, &pic), 0);
    assert_int_equal(count_glyph(&pic, 'x', SQF_DEAD, &row, &col), 3);
    d.zoomed = 1;
    assert_int_equal(square_draw(&d, &pic), 0);
    assert_int_equal(count_glyph(&pic, 'x', SQF_DEAD, &row, &col), 1);
    /* A hint's number, in the middle, in full and in the overview. */
    d = square_desc_empty();
    d.legal = 1;
    d.hint = 2;
    assert_int_equal(square_draw(&d, &pic), 0);
    assert_int_equal(count_glyph(&pic, '2', SQF_SPOT, &row, &col), 1);
    assert_int_equal(row, TILE_ART_H / 2);
    assert_int_equal(col, TILE_ART_W / 2);
    d.zoomed = 1;
    assert_int_equal(square_draw(&d, &pic), 0);
    assert_int_equal(count_glyph(&pic, '2', SQF_SPOT, &row, &col), 1);
}

static void test_last_move_and_cursor(void **state)
{
    (void)state;
    square_desc d = tile_desc(carc_tile_parse("V"), 2);
    d.last_turn = 42;
    d.last_owner = 1;
    d.cursor = 1;
    square_pic pic;
    assert_int_equal(square_draw(&d, &pic), 0);
    assert_string_equal(pic.cell[0][0].art.glyph, "4");
    assert_string_equal(pic.cell[0][1].art.glyph, "2");
    assert_true(pic.cell[0][0].flags & SQF_LAST);
    assert_int_equal(pic.cell[0][1].art.owner, 1);
    /* The other three corners outline the tile in the player's colour. */
    assert_string_equal(pic.cell[0][TILE_ART_W - 1].art.glyph, "\u2510");
    assert_string_equal(pic.cell[TILE_ART_H - 1][0].art.glyph, "\u2514");
    assert_string_equal(pic.cell[TILE_ART_H - 1][TILE_ART_W - 1].art.glyph, "\u2518");
    assert_true(pic.cell[TILE_ART_H - 1][0].flags & SQF_LAST);
    assert_int_equal(pic.cell[TILE_ART_H - 1][TILE_ART_W - 1].art.owner, 1);
    for (int r = 0; r < TILE_ART_H; r++)
        for (int c = 0; c < TILE_ART_W; c++)
            assert_true(pic.cell[r][c].flags & SQF_CURSOR);
    d.kind = 99;
    assert_int_equal(square_draw(&d, &pic), -1);
}

/* The last move's marks never cover a follower (a farmer in the top left
 * corner stayed hidden under the turn number) nor a symbol that counts,
 * and its turn number still shows in full, on one row. */
static void test_last_move_keeps_followers(void **state)
{
    (void)state;
    static const int turns[] = {1, 42, 123};
    for (int kind = 0; kind < carc_tile_kinds(); kind++)
        for (int rot = 0; rot < 4; rot++)
            for (int s = -1; s < carc_tile(kind)->nsegments; s++)
                for (int large = 0; large < 2; large++)
                    for (size_t t = 0; t < sizeof turns / sizeof turns[0]; t++) {
                        square_desc d = tile_desc(kind, rot);
                        d.follower_segment = s < 0 ? CARC_NO_SPOT : s;
                        d.owner = 2;
                        d.figure = large ? CARC_FIGURE_LARGE : 0;
                        square_pic plain, marked;
                        assert_int_equal(square_draw(&d, &plain), 0);
                        d.last_turn = turns[t];
                        d.last_owner = 1;
                        assert_int_equal(square_draw(&d, &marked), 0);
                        for (int r = 0; r < TILE_ART_H; r++)
                            for (int c = 0; c < TILE_ART_W; c++) {
                                tile_art_what what = plain.cell[r][c].art.what;
                                if (what == TILE_ART_FOLLOWER || what == TILE_ART_PENNANT ||
                                    what == TILE_ART_CLOISTER || what == TILE_ART_INN ||
                                    what == TILE_ART_CATHEDRAL || what == TILE_ART_GOODS)
                                    assert_string_equal(marked.cell[r][c].art.glyph,
                                                        plain.cell[r][c].art.glyph);
                            }
                        char num[8], shown[TILE_ART_H][TILE_ART_W + 1];
                        snprintf(num, sizeof num, "%d", turns[t]);
                        int rows_with_digits = 0, found = 0;
                        for (int r = 0; r < TILE_ART_H; r++) {
                            int n = 0;
                            for (int c = 0; c < TILE_ART_W; c++) {
                                const square_cell *cell = &marked.cell[r][c];
                                if ((cell->flags & SQF_LAST) && cell->art.glyph[0] >= '0' &&
                                    cell->art.glyph[0] <= '9')
                                    shown[r][n++] = cell->art.glyph[0];
                            }
                            shown[r][n] = 0;
                            rows_with_digits += n > 0;
                            found += strcmp(shown[r], num) == 0;
                        }
                        assert_int_equal(rows_with_digits, 1);
                        assert_int_equal(found, 1);
                    }
}

/* A large follower shows as its owner's letter twice on the square. */
static void test_large_follower_square(void **state)
{
    (void)state;
    square_desc d = tile_desc(carc_tile_parse("IK"), 0);
    d.follower_segment = 0;
    d.owner = 1;
    square_pic pic;
    int row, col;
    assert_int_equal(square_draw(&d, &pic), 0);
    assert_int_equal(count_glyph(&pic, 'B', 0, &row, &col), 1);
    d.figure = CARC_FIGURE_LARGE;
    assert_int_equal(square_draw(&d, &pic), 0);
    assert_int_equal(count_glyph(&pic, 'B', 0, &row, &col), 2);
}

/* The cloister's cell of `pic` (full view), or -1. */
static int cloister_at(const square_pic *pic, int *row, int *col)
{
    int n = 0;
    for (int r = 0; r < pic->h; r++)
        for (int c = 0; c < pic->w; c++)
            if (pic->cell[r][c].art.what == TILE_ART_CLOISTER &&
                strcmp(pic->cell[r][c].art.glyph, "\u2302") == 0) {
                *row = r;
                *col = c;
                n++;
            }
    return n == 1 ? 0 : -1;
}

static int next_to(int r1, int c1, int r2, int c2)
{
    return (r1 == r2 && (c1 - c2 == 1 || c2 - c1 == 1)) ||
           (c1 == c2 && (r1 - r2 == 1 || r2 - r1 == 1));
}

/* A monk stands beside his cloister, on a field cell, and the cloister
 * keeps its symbol (a monk used to replace it), a large monk too, in full
 * and in the overview; the rest of the tile is drawn as without him; the
 * follower step's numbers leave the cloister showing, the monk's beside
 * it. */
static void test_monk_beside_cloister(void **state)
{
    (void)state;
    int tiles = 0;
    for (int kind = 0; kind < carc_tile_kinds(); kind++) {
        const carc_tile_def *def = carc_tile(kind);
        int cloister = -1;
        for (int s = 0; s < def->nsegments; s++)
            if (def->segments[s].kind == CARC_CLOISTER)
                cloister = s;
        if (cloister < 0)
            continue;
        tiles++;
        for (int rot = 0; rot < 4; rot++) {
            square_desc d = tile_desc(kind, rot);
            square_pic plain, pic;
            int crow, ccol, row, col;
            assert_int_equal(square_draw(&d, &plain), 0);
            assert_int_equal(cloister_at(&plain, &crow, &ccol), 0);
            for (int large = 0; large < 2; large++) {
                d = tile_desc(kind, rot);
                d.follower_segment = cloister;
                d.owner = 1;
                d.figure = large ? CARC_FIGURE_LARGE : CARC_FIGURE_FOLLOWER;
                assert_int_equal(square_draw(&d, &pic), 0);
                if (cloister_at(&pic, &row, &col) != 0)
                    fail_msg("tile %s rotation %d: the monk hides the cloister", carc_tile_id(kind),
                             rot);
                assert_true(row == crow && col == ccol);
                assert_int_equal(count_glyph(&pic, 'B', 0, &row, &col), large ? 2 : 1);
                int beside = 0;
                for (int r = 0; r < TILE_ART_H; r++)
                    for (int c = 0; c < TILE_ART_W; c++) {
                        const tile_art_cell *a = &pic.cell[r][c].art, *p = &plain.cell[r][c].art;
                        if (a->what != TILE_ART_FOLLOWER) {
                            assert_string_equal(a->glyph, p->glyph);
                            continue;
                        }
                        assert_int_equal(p->what, TILE_ART_FIELD); /* no road nor river */
                        beside += next_to(r, c, crow, ccol);
                    }
                assert_true(beside >= 1);
                d.zoomed = 1;
                assert_int_equal(square_draw(&d, &pic), 0);
                int cloisters = 0;
                for (int z = 0; z < ZOOM_W; z++)
                    cloisters += pic.cell[0][z].art.what == TILE_ART_CLOISTER;
                if (cloisters != 1 || count_glyph(&pic, 'B', 0, &row, &col) < 1)
                    fail_msg("tile %s rotation %d: the overview lacks the monk or the cloister",
                             carc_tile_id(kind), rot);
            }
            d = tile_desc(kind, rot);
            d.nspots = def->nsegments;
            for (int s = 0; s < def->nsegments; s++)
                d.spot_segment[s] = s;
            assert_int_equal(square_draw(&d, &pic), 0);
            assert_int_equal(cloister_at(&pic, &row, &col), 0);
            assert_int_equal(count_glyph(&pic, (char)('1' + cloister), SQF_SPOT, &row, &col), 1);
            assert_true(next_to(row, col, crow, ccol));
        }
    }
    assert_int_equal(tiles, 5); /* A, B, RH, ID, TT */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges_show_their_kind),
        cmocka_unit_test(test_spots_numbered_on_their_segments),
        cmocka_unit_test(test_followers_full_and_zoomed),
        cmocka_unit_test(test_zoomed_pictures),
        cmocka_unit_test(test_empty_square_marks),
        cmocka_unit_test(test_last_move_and_cursor),
        cmocka_unit_test(test_large_follower_square),
        cmocka_unit_test(test_last_move_keeps_followers),
        cmocka_unit_test(test_monk_beside_cloister),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
