/* test_help.c: the help's text (`?`) says what the game plays and nothing
 * else: the base game's help has no expansion's, hand's or house rules'
 * lines; each expansion, a hand and house rules add theirs; every line
 * fits 80 columns; the pages cover every line once and fit the screen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "help.h"

enum { COLS = 80, ROWS = 23 /* a 24-line terminal below the title */ };

/* What each part of the game adds: a few words of its lines. */
static const char *const river_words[] = {"The River", "the lake last", "U-turn", NULL};
static const char *const inns_words[] = {
    "Inns & Cathedrals",      "an inn", "cathedral", "large follower",
    "l in the follower step", "large`", NULL};
static const char *const traders_words[] = {
    "Traders & Builders",     "goods", "wine", "grain", "cloth", "builder", "The pig",
    "f in the follower step", NULL};
static const char *const hand_words[] = {"A hand of", "n N choose the tile to place from your hand",
                                         "discards it", NULL};
static const char *const house_words[] = {"House rules", NULL};

static carc_rules rules_of(uint32_t expansions, int hand, const char *house)
{
    carc_rules r = carc_rules_standard();
    if (house)
        assert_int_equal(carc_rules_parse(house, &r, NULL, 0), CARC_OK);
    r.expansions = expansions;
    r.hand = (uint8_t)hand;
    return r;
}

static int help_says(const help_text *h, const char *words)
{
    for (int i = 0; i < h->n; i++)
        if (strstr(h->lines[i], words))
            return 1;
    return 0;
}

static void expect_words(const help_text *h, const char *const *words, int present)
{
    for (int i = 0; words[i]; i++)
        if (help_says(h, words[i]) != present)
            fail_msg("the help %s '%s'", present ? "lacks" : "has", words[i]);
}

/* Display columns of a UTF-8 line (one a character: the help's symbols
 * are one column wide). */
static int columns(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void expect_fits(const help_text *h)
{
    assert_true(h->n > 0 && h->n <= HELP_MAX_LINES);
    for (int i = 0; i < h->n; i++)
        if (columns(h->lines[i]) > COLS)
            fail_msg("line %d is %d columns: %s", i, columns(h->lines[i]), h->lines[i]);
}

static void test_the_base_game_has_only_the_base_help(void **state)
{
    (void)state;
    carc_rules r = rules_of(0, 0, NULL);
    help_text h;
    help_build(&r, &h);
    expect_fits(&h);
    assert_true(help_says(&h, "farmer"));
    assert_true(help_says(&h, "Letters: R B Y G K W P I"));
    const char *const *const absent[] = {river_words, inns_words, traders_words, hand_words,
                                         house_words};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++)
        expect_words(&h, absent[i], 0);
    /* One page on a 24-line terminal, Space to the board's symbols. */
    int first[HELP_MAX_PAGES];
    assert_int_equal(help_pages(&h, ROWS, first), 1);
    char title[HELP_LINE_BYTES];
    help_title(0, 1, title, sizeof title);
    assert_non_null(strstr(title, "keys and rules (Space: the board's symbols"));
    assert_true(columns(title) <= COLS);
}

/* Each expansion alone adds its lines and no other's. */
static void test_each_expansion_adds_its_own_lines(void **state)
{
    (void)state;
    static const struct {
        uint32_t expansion;
        const char *const *words;
    } parts[] = {
        {CARC_EXPANSION_RIVER, river_words},
        {CARC_EXPANSION_INNS_CATHEDRALS, inns_words},
        {CARC_EXPANSION_TRADERS_BUILDERS, traders_words},
    };
    enum { PARTS = sizeof parts / sizeof parts[0] };
    for (size_t p = 0; p < PARTS; p++) {
        carc_rules r = rules_of(parts[p].expansion, 0, NULL);
        help_text h;
        help_build(&r, &h);
        expect_fits(&h);
        for (size_t q = 0; q < PARTS; q++)
            expect_words(&h, parts[q].words, p == q);
        expect_words(&h, hand_words, 0);
        expect_words(&h, house_words, 0);
        assert_true(help_says(&h, "Letters: R B Y G K W P I")); /* the keys stay */
    }
}

static void test_a_hand_and_house_rules_add_theirs(void **state)
{
    (void)state;
    carc_rules r = rules_of(0, 2, NULL);
    help_text h;
    help_build(&r, &h);
    expect_fits(&h);
    expect_words(&h, hand_words, 1);
    assert_true(help_says(&h, "A hand of 2 tiles"));
    assert_true(help_says(&h, "hands are hidden"));
    expect_words(&h, house_words, 0); /* hand=N is told by its own lines */
    expect_words(&h, inns_words, 0);

    r = rules_of(0, 3, "open-hands small-city");
    help_build(&r, &h);
    expect_fits(&h);
    assert_true(help_says(&h, "A hand of 3 tiles"));
    assert_true(help_says(&h, "Every hand is shown"));
    assert_false(help_says(&h, "hands are hidden"));
    assert_true(help_says(&h, "House rules: small-city, open-hands ("));

    /* Every house rule at once (as a record may name them): each one is
     * told, on lines that fit, none cut in the middle. */
    r = rules_of(CARC_EXPANSION_RIVER, 2,
                 "farms-first-edition small-city no-incomplete-scoring bonus-turn "
                 "river-keep-start open-hands reshuffle table-edge-completes table=199x199");
    assert_int_equal(carc_rules_check(&r, NULL, 0), CARC_OK);
    help_build(&r, &h);
    expect_fits(&h);
    static const char *const every[] = {"House rules: farms-first-edition,",
                                        "small-city,",
                                        "no-incomplete-scoring,",
                                        "bonus-turn,",
                                        "river-keep-start,",
                                        "open-hands,",
                                        "reshuffle,",
                                        "table-edge-completes,",
                                        "table=199x199",
                                        "(docs/record-extensions.md).",
                                        NULL};
    expect_words(&h, every, 1);
}

/* The pages `first[0..pages)` start at line 0 and go forward; each shows
 * at most `rows` lines (a blank line that ends a page does not count: it is
 * not drawn when it does not fit), none starts blank, and a page breaks at
 * a section's start unless it is full (a section longer than a page). */
static void expect_pages(const help_text *h, int rows, const int *first, int pages)
{
    assert_true(pages >= 1 && pages <= HELP_MAX_PAGES);
    assert_int_equal(first[0], 0);
    for (int p = 0; p < pages; p++) {
        int end = p + 1 < pages ? first[p + 1] : h->n;
        assert_true(first[p] < end);
        int shown = end - first[p];
        if (p + 1 < pages && h->lines[end - 1][0] == '\0')
            shown--;
        if (shown > rows)
            fail_msg("page %d of %d shows %d lines, more than %d", p, pages, shown, rows);
        if (p > 0)
            assert_true(h->lines[first[p]][0] != '\0');
        if (p + 1 < pages)
            assert_true(h->section_start[end] || shown == rows);
    }
}

/* The page (of `first[0..pages)`) that shows line `i`. */
static int page_of(const int *first, int pages, int i)
{
    int p = 0;
    while (p + 1 < pages && first[p + 1] <= i)
        p++;
    return p;
}

static void test_pages_fit_the_screen(void **state)
{
    (void)state;
    carc_rules r = rules_of(CARC_EXPANSION_RIVER | CARC_EXPANSION_INNS_CATHEDRALS |
                                CARC_EXPANSION_TRADERS_BUILDERS,
                            3, "small-city");
    help_text h;
    help_build(&r, &h);
    expect_fits(&h);
    expect_words(&h, river_words, 1);
    expect_words(&h, inns_words, 1);
    expect_words(&h, traders_words, 1);
    expect_words(&h, hand_words, 1);
    expect_words(&h, house_words, 1);
    assert_true(h.n > ROWS); /* more than a 24-line screen holds */
    int first[HELP_MAX_PAGES];
    int pages = help_pages(&h, ROWS, first);
    assert_int_equal(pages, 2);
    expect_pages(&h, ROWS, first, pages);
    /* Sections are kept whole: the keys' first and last lines on one page. */
    int keys = 0;
    while (keys < h.n && !strstr(h.lines[keys], "Place: arrows move"))
        keys++;
    assert_true(keys + 10 < h.n);
    assert_non_null(strstr(h.lines[keys + 10], "Letters:"));
    assert_int_equal(page_of(first, pages, keys), page_of(first, pages, keys + 10));
    for (int rows = 1; rows <= 40; rows++) {
        pages = help_pages(&h, rows, first);
        expect_pages(&h, rows, first, pages);
    }
    assert_int_equal(help_pages(&h, 40, first), 1);
    char title[HELP_LINE_BYTES];
    help_title(0, 2, title, sizeof title);
    assert_non_null(strstr(title, "1/2 (Space: next page"));
    assert_true(columns(title) <= COLS);
    help_title(1, 2, title, sizeof title);
    assert_non_null(strstr(title, "2/2 (Space: the board's symbols"));
    assert_true(columns(title) <= COLS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_base_game_has_only_the_base_help),
        cmocka_unit_test(test_each_expansion_adds_its_own_lines),
        cmocka_unit_test(test_a_hand_and_house_rules_add_theirs),
        cmocka_unit_test(test_pages_fit_the_screen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
