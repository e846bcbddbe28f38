/* test_describe.c: follower places and moves in words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "describe.h"
#include "square_view.h"

static int kind_of(char letter)
{
    return carc_tile_parse_n(&letter, 1);
}

/* The segment of `letter` at `rot` that holds board port `port`. */
static int seg(char letter, int rot, int port)
{
    return carc_tile_segment_at(kind_of(letter), rot, port);
}

static void test_places_follow_the_rotation(void **state)
{
    (void)state;
    /* E: a city on its north edge at rotation 0. */
    assert_string_equal(describe_place(kind_of('E'), 0, seg('E', 0, CARC_N)), "top");
    assert_string_equal(describe_place(kind_of('E'), 1, seg('E', 1, CARC_E)), "right");
    assert_string_equal(describe_place(kind_of('E'), 2, seg('E', 2, CARC_S)), "bottom");
    assert_string_equal(describe_place(kind_of('E'), 3, seg('E', 3, CARC_W)), "left");
    /* V: a road from the south edge to the west one; its inner farm. */
    assert_string_equal(describe_place(kind_of('V'), 0, seg('V', 0, CARC_S)), "bottom left");
    assert_string_equal(describe_place(kind_of('V'), 0, seg('V', 0, CARC_SSW)), "bottom left");
    assert_string_equal(describe_place(kind_of('V'), 0, seg('V', 0, CARC_NNE)), "top right");
    /* U: a straight road runs across the middle; its farms are beside it. */
    assert_string_equal(describe_place(kind_of('U'), 0, seg('U', 0, CARC_N)), "middle");
    assert_string_equal(describe_place(kind_of('U'), 0, seg('U', 0, CARC_E)), "right");
    assert_string_equal(describe_place(kind_of('U'), 0, seg('U', 0, CARC_W)), "left");
}

/* H has two cities: their spots never read the same. */
static void test_two_cities_read_apart(void **state)
{
    (void)state;
    char a[80], b[80];
    int k = kind_of('H');
    for (int rot = 0; rot < 4; rot++) {
        int north = seg('H', rot, CARC_N), south = seg('H', rot, CARC_S);
        int east = seg('H', rot, CARC_E), west = seg('H', rot, CARC_W);
        int one = carc_tile(k)->segments[north].kind == CARC_CITY ? north : east;
        int two = carc_tile(k)->segments[north].kind == CARC_CITY ? south : west;
        describe_spot(k, rot, one, a, sizeof a);
        describe_spot(k, rot, two, b, sizeof b);
        assert_non_null(strstr(a, "knight on the city at the "));
        assert_non_null(strstr(b, "knight on the city at the "));
        assert_string_not_equal(a, b);
    }
}

static void test_spots_and_moves(void **state)
{
    (void)state;
    char buf[120];
    int b = kind_of('B');
    int cloister = -1;
    for (int s = 0; s < carc_tile(b)->nsegments; s++)
        if (carc_tile(b)->segments[s].kind == CARC_CLOISTER)
            cloister = s;
    assert_true(cloister >= 0);
    describe_spot(b, 1, cloister, buf, sizeof buf);
    assert_string_equal(buf, "monk in the cloister");
    describe_spot(kind_of('U'), 1, seg('U', 1, CARC_E), buf, sizeof buf);
    assert_string_equal(buf, "thief on the road across the middle");
    describe_spot(b, 3, seg('B', 3, CARC_NNE), buf, sizeof buf);
    assert_string_equal(buf, "farmer on the farm all around");
    describe_spot(kind_of('C'), 0, seg('C', 0, CARC_N), buf, sizeof buf);
    assert_string_equal(buf, "knight on the city all around");
    carc_move m = {
        CARC_MOVE_PLACE, {2, -1, 2, 0}, (uint8_t)seg('E', 2, CARC_S), CARC_FIGURE_FOLLOWER};
    describe_move(kind_of('E'), m, buf, sizeof buf);
    assert_string_equal(buf, "at 2,-1 turned 2, knight on the city at the bottom");
    m.segment = CARC_NO_SPOT;
    describe_move(kind_of('E'), m, buf, sizeof buf);
    assert_string_equal(buf, "at 2,-1 turned 2, no follower");
    m.type = CARC_MOVE_DISCARD;
    describe_move(kind_of('E'), m, buf, sizeof buf);
    assert_string_equal(buf, "discard");
    /* Bad arguments: no words, no crash. */
    assert_null(describe_place(99, 0, 0));
    assert_null(describe_place(kind_of('E'), 4, 0));
    assert_null(describe_place(kind_of('E'), 0, 9));
    describe_spot(kind_of('E'), 0, 9, buf, sizeof buf);
    assert_string_equal(buf, "");
    assert_string_equal(describe_role(CARC_FIELD), "farmer");
    assert_string_equal(describe_feature(CARC_CLOISTER), "cloister");
}

/* The direction (dy, dx) a spot's words name: "top left" is -1,-1, the
 * middle (a cloister, "across the middle", "all around") 0,0. */
static void words_direction(const char *words, int *dy, int *dx)
{
    *dy = strstr(words, "top") ? -1 : strstr(words, "bottom") ? 1 : 0;
    *dx = strstr(words, "left") ? -1 : strstr(words, "right") ? 1 : 0;
}

/* The direction of a cell of the 5 x 3 tile picture. */
static void cell_direction(int row, int col, int *dy, int *dx)
{
    *dy = row - 1;
    *dx = col < 2 ? -1 : col > 2 ? 1 : 0;
}

/* Where spot number `number` (1-based) is drawn while the player chooses. */
static void numbered_cell(const square_pic *pic, int number, int *row, int *col)
{
    *row = *col = -1;
    for (int r = 0; r < pic->h; r++)
        for (int c = 0; c < pic->w; c++)
            if ((pic->cell[r][c].flags & SQF_SPOT) &&
                pic->cell[r][c].art.glyph[0] == '0' + number) {
                *row = r;
                *col = c;
            }
}

/* Where a follower on `segment` stands once placed. */
static void follower_cell(int kind, int rot, int segment, int *row, int *col)
{
    tile_art art;
    *row = *col = -1;
    assert_int_equal(tile_art_draw(kind, rot, segment, 0, &art), 0);
    for (int r = 0; r < TILE_ART_H; r++)
        for (int c = 0; c < TILE_ART_W; c++)
            if (art.cell[r][c].what == TILE_ART_FOLLOWER) {
                *row = r;
                *col = c;
            }
}

/* The words never put a spot on the other side of the tile from the cell
 * it is drawn on. */
static void assert_words_match_cell(const char *words, int row, int col, const char *what)
{
    int wy, wx, cy, cx;
    assert_true(row >= 0 && col >= 0);
    words_direction(words, &wy, &wx);
    cell_direction(row, col, &cy, &cx);
    if (abs(wy - cy) > 1 || abs(wx - cx) > 1)
        fail_msg("%s: \"%s\" drawn at row %d, column %d", what, words, row, col);
}

/* Every follower spot of every tile of the catalogue (the base game and the
 * expansions), at every rotation: its words differ from the other spots'
 * of the tile and match where the spot is drawn, numbered and placed. */
static void test_every_spot_reads_apart_and_where_drawn(void **state)
{
    (void)state;
    int checked = 0;
    for (int kind = 0; kind < carc_tile_kinds(); kind++) {
        const carc_tile_def *def = carc_tile(kind);
        for (int rot = 0; rot < 4; rot++) {
            square_desc d = square_desc_empty();
            d.has_tile = 1;
            d.kind = kind;
            d.rot = rot;
            for (int s = 0; s < def->nsegments; s++)
                if (def->segments[s].kind != CARC_RIVER)
                    d.spot_segment[d.nspots++] = s;
            square_pic pic;
            assert_int_equal(square_draw(&d, &pic), 0);
            char words[CARC_MAX_SPOTS][80];
            for (int i = 0; i < d.nspots; i++) {
                char what[48];
                snprintf(what, sizeof what, "tile %s turned %d, spot %d", def->id, rot, i + 1);
                describe_spot(kind, rot, d.spot_segment[i], words[i], sizeof words[i]);
                assert_true(words[i][0] != '\0');
                for (int j = 0; j < i; j++)
                    if (strcmp(words[i], words[j]) == 0)
                        fail_msg("%s and spot %d both read \"%s\"", what, j + 1, words[i]);
                int row, col;
                numbered_cell(&pic, i + 1, &row, &col);
                assert_words_match_cell(words[i], row, col, what);
                follower_cell(kind, rot, d.spot_segment[i], &row, &col);
                assert_words_match_cell(words[i], row, col, what);
                checked++;
            }
        }
    }
    assert_true(checked > 4 * 24 * 3);
}

/* The report's case: tile O turned 0, its two farms. */
static void test_tile_o_farms(void **state)
{
    (void)state;
    char a[80], b[80];
    int o = kind_of('O');
    describe_spot(o, 0, seg('O', 0, CARC_SSE), a, sizeof a);
    describe_spot(o, 0, seg('O', 0, CARC_ENE), b, sizeof b);
    assert_string_equal(a, "farmer on the farm at the bottom right");
    assert_string_equal(b, "farmer on the farm at the top right");
}

/* The end value in words: who would score it, nobody for a farm without a
 * farmer, nothing more for a completed city. */
static void test_end_value_words(void **state)
{
    (void)state;
    char buf[160];
    carc_feature farm = {.kind = CARC_FIELD, .tiles = 5, .value = 0, .value_at_end = 9};
    describe_end_value(&farm, 2, buf, sizeof buf);
    assert_string_equal(buf, "If the game ended now: nobody scores its 9 (no farmer on it)");
    farm.value_at_end = 0;
    describe_end_value(&farm, 2, buf, sizeof buf);
    assert_string_equal(buf, "If the game ended now: nothing (no farmer on it)");
    farm.value_at_end = 6;
    farm.owners = 1u << 1;
    farm.followers[1] = 1;
    describe_end_value(&farm, 2, buf, sizeof buf);
    assert_string_equal(buf, "If the game ended now: Blue scores 6");
    carc_feature city = {
        .kind = CARC_CITY, .complete = 1, .tiles = 3, .value = 8, .value_at_end = 8};
    describe_end_value(&city, 2, buf, sizeof buf);
    assert_string_equal(buf, "Complete: worth 8 to whoever held it then; the end adds nothing");
    city.complete = 0;
    city.value_at_end = 4;
    city.owners = 1u << 0 | 1u << 2;
    describe_end_value(&city, 3, buf, sizeof buf);
    assert_string_equal(buf, "If the game ended now: Red and Yellow score 4 each");
    city.owners = 1u << 2; /* a seat beyond the game's players: not named */
    describe_end_value(&city, 2, buf, sizeof buf);
    assert_string_equal(buf, "If the game ended now: nobody scores its 4 (no knight on it)");
}

/* Inns & Cathedrals: spot F in words, the large follower in a move, and
 * what an inn or a cathedral does to a feature's worth. */
static void test_inns_cathedrals_words(void **state)
{
    (void)state;
    char buf[160];
    int ih = carc_tile_parse("IH");
    describe_spot(ih, 0, 4, buf, sizeof buf);
    assert_string_equal(buf, "farmer on the field in the middle");
    carc_move m = {
        .type = CARC_MOVE_PLACE, .place = {0, -1, 0, 0}, .segment = 4, .figure = CARC_FIGURE_LARGE};
    describe_move(ih, m, buf, sizeof buf);
    assert_string_equal(buf, "at 0,-1 turned 0, large farmer on the field in the middle");
    m.figure = CARC_FIGURE_FOLLOWER;
    describe_move(ih, m, buf, sizeof buf);
    assert_string_equal(buf, "at 0,-1 turned 0, farmer on the field in the middle");
    carc_feature f = {.kind = CARC_ROAD, .marks = CARC_MARK_INN};
    describe_marks(&f, buf, sizeof buf);
    assert_string_equal(buf, "An inn: 2 a tile when complete, but 0 if still open at the end");
    f = (carc_feature){.kind = CARC_CITY, .marks = CARC_MARK_CATHEDRAL};
    describe_marks(&f, buf, sizeof buf);
    assert_non_null(strstr(buf, "A cathedral: 3 a tile and pennant when complete"));
    f.marks = 0;
    describe_marks(&f, buf, sizeof buf);
    assert_string_equal(buf, "");
}

/* Traders & Builders: a city's goods in the inspector's words; the figures'
 * words; the builder's and pig's words for TG's corner farms and TX's
 * crossing roads differ. */
static void test_traders_words(void **state)
{
    (void)state;
    static const char rec[] = "players 2\nexpansions traders-builders\nTA 0 -1 2\n";
    carc_record_error err;
    carc_game *g = carc_record_read(rec, sizeof rec - 1, 1, &err);
    if (!g)
        fail_msg("line %d: %s", err.line, err.message);
    char buf[120];
    int city = carc_game_feature(g, 1, 0); /* TA's grain city, joined to the start's */
    assert_true(city >= 0);
    describe_goods(g, city, buf, sizeof buf);
    assert_string_equal(buf, "Goods: 1 grain, to whoever completes it");
    describe_goods(g, carc_game_feature(g, 1, 1), buf, sizeof buf); /* its field */
    assert_string_equal(buf, "");
    carc_game_free(g);
    assert_string_equal(describe_figure(CARC_FIGURE_BUILDER), "builder");
    assert_string_equal(describe_figure(CARC_FIGURE_PIG), "pig");
    assert_string_equal(describe_figure(CARC_FIGURE_LARGE), "large follower");
    char a[80], b[80];
    describe_spot(carc_tile_parse("TX"), 0, 0, a, sizeof a);
    describe_spot(carc_tile_parse("TX"), 0, 1, b, sizeof b);
    assert_string_equal(a, "thief on the road across the middle, up and down");
    assert_string_equal(b, "thief on the road across the middle, side to side");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_places_follow_the_rotation),
        cmocka_unit_test(test_two_cities_read_apart),
        cmocka_unit_test(test_spots_and_moves),
        cmocka_unit_test(test_every_spot_reads_apart_and_where_drawn),
        cmocka_unit_test(test_tile_o_farms),
        cmocka_unit_test(test_end_value_words),
        cmocka_unit_test(test_inns_cathedrals_words),
        cmocka_unit_test(test_traders_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
