/* test_describe.c: follower places and moves in words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "describe.h"

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
    carc_move m = {CARC_MOVE_PLACE, {2, -1, 2, 0}, (uint8_t)seg('E', 2, CARC_S)};
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_places_follow_the_rotation),
        cmocka_unit_test(test_two_cities_read_apart),
        cmocka_unit_test(test_spots_and_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
