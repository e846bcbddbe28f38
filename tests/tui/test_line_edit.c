/* test_line_edit.c: the prompts' one-line text field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "line_edit.h"

enum { CTRL_A = 1, CTRL_E = 5, CTRL_K = 11, CTRL_U = 21, CTRL_W = 23, BS = 127 };

static void type(line_edit *e, const char *text)
{
    for (; *text; text++)
        assert_int_equal(line_edit_key(e, (unsigned char)*text), 1);
}

/* The report's case: the default "carcassonne-SEED.rec" then "final1"
 * gave "carcassonne-SEED.recfinal1". Typing replaces a selected default. */
static void test_typing_replaces_the_default(void **state)
{
    (void)state;
    line_edit e;
    line_edit_set(&e, "carcassonne-5.rec", 1);
    type(&e, "final1");
    assert_string_equal(e.text, "final1");
    assert_int_equal(e.len, 6);
    assert_int_equal(e.cursor, 6);
    type(&e, "x"); /* no longer selected: appended */
    assert_string_equal(e.text, "final1x");
}

static void test_ctrl_u_and_backspace(void **state)
{
    (void)state;
    line_edit e;
    line_edit_set(&e, "carcassonne-5.rec", 1);
    assert_int_equal(line_edit_key(&e, CTRL_U), 1);
    assert_string_equal(e.text, "");
    type(&e, "abc");
    assert_int_equal(line_edit_key(&e, BS), 1);
    assert_string_equal(e.text, "ab");
    assert_int_equal(line_edit_key(&e, 8), 1); /* Ctrl-H */
    assert_string_equal(e.text, "a");
    line_edit_key(&e, BS);
    line_edit_key(&e, BS); /* on an empty line: nothing */
    assert_string_equal(e.text, "");
    assert_int_equal(e.cursor, 0);
    /* Backspace on a selected default deletes it all. */
    line_edit_set(&e, "game.rec", 1);
    line_edit_key(&e, BS);
    assert_string_equal(e.text, "");
    /* Ctrl-U deletes up to the cursor only. */
    line_edit_set(&e, "abcdef", 0);
    line_edit_key(&e, LINE_KEY_LEFT);
    line_edit_key(&e, LINE_KEY_LEFT);
    line_edit_key(&e, CTRL_U);
    assert_string_equal(e.text, "ef");
    assert_int_equal(e.cursor, 0);
}

/* An arrow keeps the default to edit; then keys edit at the cursor. */
static void test_moving_keeps_the_default(void **state)
{
    (void)state;
    line_edit e;
    line_edit_set(&e, "game.rec", 1);
    line_edit_key(&e, LINE_KEY_HOME);
    assert_int_equal(e.selected, 0);
    type(&e, "my-");
    assert_string_equal(e.text, "my-game.rec");
    line_edit_key(&e, CTRL_E);
    line_edit_key(&e, LINE_KEY_LEFT);
    line_edit_key(&e, LINE_KEY_LEFT);
    line_edit_key(&e, LINE_KEY_LEFT);
    line_edit_key(&e, LINE_KEY_LEFT);
    line_edit_key(&e, CTRL_K);
    assert_string_equal(e.text, "my-game");
    line_edit_key(&e, CTRL_A);
    line_edit_key(&e, LINE_KEY_DELETE);
    line_edit_key(&e, LINE_KEY_RIGHT);
    line_edit_key(&e, BS);
    assert_string_equal(e.text, "-game");
    line_edit_key(&e, LINE_KEY_END);
    line_edit_key(&e, LINE_KEY_RIGHT); /* at the end: stays */
    line_edit_key(&e, LINE_KEY_DELETE);
    assert_int_equal(e.cursor, 5);
    line_edit_set(&e, "~/games/week 2", 0);
    line_edit_key(&e, CTRL_W);
    assert_string_equal(e.text, "~/games/week ");
    line_edit_key(&e, CTRL_W);
    assert_string_equal(e.text, "~/games/");
    line_edit_key(&e, CTRL_W);
    assert_string_equal(e.text, "~/");
}

/* Keys that are no editing keys change nothing; the text never overflows. */
static void test_other_keys_and_the_limit(void **state)
{
    (void)state;
    line_edit e;
    line_edit_set(&e, "abc", 1);
    assert_int_equal(line_edit_key(&e, 27), 0); /* Esc: the prompt's */
    assert_int_equal(line_edit_key(&e, 13), 0); /* Enter: the prompt's */
    assert_int_equal(line_edit_key(&e, 0x263), 0);
    assert_int_equal(line_edit_key(&e, 200), 0);
    assert_string_equal(e.text, "abc");
    assert_int_equal(e.selected, 1);
    char big[LINE_EDIT_MAX + 10];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    line_edit_set(&e, big, 0);
    assert_int_equal(e.len, LINE_EDIT_MAX - 1);
    line_edit_key(&e, 'b');
    assert_int_equal(e.len, LINE_EDIT_MAX - 1);
    assert_int_equal(e.text[LINE_EDIT_MAX - 1], '\0');
    line_edit_set(&e, "", 1);
    assert_int_equal(e.selected, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_typing_replaces_the_default),
        cmocka_unit_test(test_ctrl_u_and_backspace),
        cmocka_unit_test(test_moving_keeps_the_default),
        cmocka_unit_test(test_other_keys_and_the_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
