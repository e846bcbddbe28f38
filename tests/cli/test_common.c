/* test_common.c: apps/common's names that every front end shares: the
 * protocols' lists of rules and expansions and their word for a farm
 * segment, and the followers' roles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wire.h"
#include "words.h"

static void assert_json_text(json_t *value, const char *want)
{
    char *text = json_dumps(value, JSON_COMPACT);
    assert_non_null(text);
    assert_string_equal(text, want);
    free(text);
    json_decref(value);
}

static void test_rules_and_expansions(void **state)
{
    (void)state;
    carc_rules rules = carc_rules_standard();
    assert_json_text(wire_rules(rules), "[]");
    assert_json_text(wire_expansions(rules), "[]");
    char err[160];
    assert_int_equal(carc_rules_parse("bonus-turn small-city", &rules, err, sizeof err), CARC_OK);
    assert_int_equal(carc_expansions_parse("river", &rules, err, sizeof err), CARC_OK);
    json_t *names = wire_rules(rules);
    assert_int_equal(json_array_size(names), 2);
    for (size_t i = 0; i < 2; i++) {
        carc_rules one = {.flags = 0};
        const char *name = json_string_value(json_array_get(names, i));
        assert_int_equal(carc_rules_parse(name, &one, err, sizeof err), CARC_OK);
        assert_true(one.flags & rules.flags);
    }
    json_decref(names);
    assert_json_text(wire_expansions(rules), "[\"river\"]");
}

static void test_kind_words(void **state)
{
    (void)state;
    assert_string_equal(wire_kind_name(CARC_FIELD), "field");
    assert_string_equal(wire_kind_name(CARC_CITY), "city");
    assert_string_equal(wire_kind_name(CARC_RIVER), "river");
    assert_string_equal(wire_kind_name(9), "?");
    assert_string_equal(words_role(CARC_ROAD), "thief");
    assert_string_equal(words_role(CARC_CITY), "knight");
    assert_string_equal(words_role(CARC_FIELD), "farmer");
    assert_string_equal(words_role(CARC_CLOISTER), "monk");
    assert_string_equal(words_role(CARC_RIVER), "?");
    assert_string_equal(words_role(-1), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_and_expansions),
        cmocka_unit_test(test_kind_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
