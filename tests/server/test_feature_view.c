/* test_feature_view.c: the `features` answer names each feature with the
 * library's word for its kind (carc_kind_name()): a river is a "river",
 * not a road, and a field's feature is a "farm"; a city's goods are in its
 * marks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "feature_view.h"

/* The kind the answer gives the feature holding a segment of `kind` of the
 * start tile, or NULL when there is none. */
static const char *start_feature_kind(const carc_game *g, json_t *answer, int kind)
{
    carc_tile_on_board b;
    assert_int_equal(carc_game_tile_info(g, 0, &b), CARC_OK);
    for (int s = 0; s < carc_tile(b.kind)->nsegments; s++) {
        if (carc_tile(b.kind)->segments[s].kind != kind)
            continue;
        int id = carc_game_feature(g, 0, s);
        size_t i;
        json_t *f;
        json_array_foreach(json_object_get(answer, "features"), i, f)
        {
            if (json_integer_value(json_object_get(f, "id")) == id)
                return json_string_value(json_object_get(f, "kind"));
        }
    }
    return NULL;
}

static void test_river_and_farm_words(void **state)
{
    (void)state;
    carc_rules rules = carc_rules_standard();
    rules.expansions = CARC_EXPANSION_RIVER;
    carc_game *g = carc_game_new(2, &rules, 7);
    assert_non_null(g);
    json_t *answer = features_view(g);
    const char *river = start_feature_kind(g, answer, CARC_RIVER);
    const char *farm = start_feature_kind(g, answer, CARC_FIELD);
    assert_non_null(river);
    assert_string_equal(river, "river");
    assert_non_null(farm);
    assert_string_equal(farm, "farm");
    json_decref(answer);
    carc_game_free(g);
}

/* Traders & Builders: a city with goods has their names in `marks`. */
static void test_goods_marks(void **state)
{
    (void)state;
    static const char rec[] = "players 2\nexpansions traders-builders\nTA 0 -1 2\n";
    carc_record_error err;
    carc_game *g = carc_record_read(rec, sizeof rec - 1, 1, &err);
    assert_non_null(g);
    json_t *answer = features_view(g);
    int city = carc_game_feature(g, 1, 0), found = 0;
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(answer, "features"), i, f)
    {
        json_t *marks = json_object_get(f, "marks");
        if (json_integer_value(json_object_get(f, "id")) == city) {
            found = 1;
            assert_int_equal(json_array_size(marks), 1);
            assert_string_equal(json_string_value(json_array_get(marks, 0)), "grain");
        } else {
            assert_int_equal(json_array_size(marks), 0);
        }
    }
    assert_true(found);
    json_decref(answer);
    carc_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_river_and_farm_words),
        cmocka_unit_test(test_goods_marks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
