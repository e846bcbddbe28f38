/* test_replay_deal.c: the fair-deal check in the answer to the server's
 * `replay` request (replay_view()): "verified", "unchecked", "mismatch"
 * and "missing", and a forged record still replayed so that a viewer can
 * warn about it. */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "replay_view.h"

/* Whether `line` starts with one of the '|'-separated prefixes of `drop`
 * (may be NULL: none). */
static int dropped(const char *line, const char *drop)
{
    while (drop && *drop) {
        size_t n = strcspn(drop, "|");
        if (strncmp(line, drop, n) == 0)
            return 1;
        drop += n + (drop[n] == '|');
    }
    return 0;
}

/* The text of tests/server/records/NAME.rec, with the lines that start
 * with one of the prefixes in `drop` ("seed |salt ", may be NULL) left out
 * and `insert` (may be NULL) put after the first line. */
static char *record_text(const char *name, const char *drop, const char *insert)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.rec", RECORDS_DIR, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t cap = 1 << 16, n = 0;
    char *text = calloc(cap, 1), line[256];
    assert_non_null(text);
    for (int i = 0; fgets(line, sizeof line, f); i++) {
        if (dropped(line, drop))
            continue;
        n += (size_t)snprintf(text + n, cap - n, "%s", line);
        if (i == 0 && insert)
            n += (size_t)snprintf(text + n, cap - n, "%s\n", insert);
        assert_true(n < cap);
    }
    fclose(f);
    return text;
}

/* replay_view() of the record: its `deal` status and text checked, and
 * its `moves` moves all there. */
static void expect_deal_of(const char *text, int moves, const char *status, const char *words)
{
    char err[200] = "";
    json_t *r = replay_view(text, strlen(text), err, sizeof err);
    assert_non_null(r);
    json_t *deal = json_object_get(r, "deal");
    assert_true(json_is_object(deal));
    assert_int_equal(json_object_size(deal), 2);
    assert_string_equal(json_string_value(json_object_get(deal, "status")), status);
    const char *said = json_string_value(json_object_get(deal, "text"));
    assert_non_null(said);
    if (!strstr(said, words))
        fail_msg("deal text '%s' does not say '%s'", said, words);
    assert_null(strchr(said, '\n'));
    assert_int_equal(json_array_size(json_object_get(r, "moves")), moves);
    json_decref(r);
}

/* expect_deal_of() a record of the whole 71 moves of fair_deal.rec. */
static void expect_deal(const char *text, const char *status, const char *words)
{
    expect_deal_of(text, 71, status, words);
}

static void test_verified(void **state)
{
    (void)state;
    char *text = record_text("fair_deal", NULL, NULL);
    expect_deal(text, "verified", "deal verified (seed, salt, commitment)");
    free(text);
}

static void test_unchecked(void **state)
{
    (void)state;
    char *text = record_text("fair_deal", "commitment ", NULL);
    expect_deal(text, "unchecked", "no commitment: the deal was not checked");
    free(text);
    /* The seed, the salt and the commitment all left out: no commitment. */
    text = record_text("fair_deal", "seed |salt |commitment ", NULL);
    expect_deal(text, "unchecked", "no commitment: the deal was not checked");
    free(text);
}

/* A finished game reveals its seed: a record with the commitment and no
 * seed is "missing", whether its last tile was placed or it ended with
 * `end` (its last move "end"); a game in progress is "unchecked". */
static void test_missing(void **state)
{
    (void)state;
    char *text = record_text("fair_deal", "seed ", NULL);
    expect_deal(text, "missing", "deal unchecked: the seed is missing");
    free(text);
    text = record_text("ended_no_seed", NULL, NULL);
    expect_deal_of(text, 8, "missing", "deal unchecked: the seed is missing");
    free(text);
    text = record_text("in_progress", NULL, NULL);
    expect_deal_of(text, 7, "unchecked", "the seed is not revealed yet");
    free(text);
    /* Without the commitment there was nothing promised: still unchecked. */
    text = record_text("ended_no_seed", "commitment ", NULL);
    expect_deal_of(text, 8, "unchecked", "no commitment");
    free(text);
}

static void test_mismatch(void **state)
{
    (void)state;
    static const char *const forged[] = {"forged_seed", "forged_endorsed", "forged_discarded",
                                         "forged_ending"};
    for (size_t i = 0; i < sizeof forged / sizeof *forged; i++) {
        char *text = record_text(forged[i], NULL, NULL);
        expect_deal(text, "mismatch", "at move 1 the seed deals tile S, the record has F");
        free(text);
    }
    /* Headers that begin like move words, before the seed of a fair record,
     * change nothing. */
    static const char *const words[] = {"endorsed-by nobody", "discarded none", "ending agreed"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        char *text = record_text("fair_deal", NULL, words[i]);
        expect_deal(text, "verified", "deal verified");
        free(text);
    }
    char *text = record_text("wrong_commitment", NULL, NULL);
    expect_deal(text, "mismatch", "SHA-256 of salt:seed is not the commitment");
    free(text);
    text = record_text("forged_two_seeds", NULL, NULL);
    expect_deal(text, "mismatch", "twice");
    free(text);
    text = record_text("fair_deal", "salt ", NULL);
    expect_deal(text, "mismatch", "salt");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verified),
        cmocka_unit_test(test_unchecked),
        cmocka_unit_test(test_missing),
        cmocka_unit_test(test_mismatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
