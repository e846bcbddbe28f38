/* test_record.c: the record reader (record.md) on good and bad inputs,
 * with the line each error must name, and the writer: round trips and its
 * snprintf-like contract. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A record given with its length (NUL bytes allowed) and the line its
 * error must name. */
typedef struct bad_record {
    const char *text;
    size_t len; /* 0: strlen(text) */
    int line;
} bad_record;

#define BAD(text, line)                                                                            \
    {                                                                                              \
        text, 0, line                                                                              \
    }
#define BAD_N(text, line)                                                                          \
    {                                                                                              \
        text, sizeof text - 1, line                                                                \
    }

static const bad_record bad_records[] = {
    /* No players line: the first non-comment line, else the last line. */
    BAD("", 1),
    BAD("\n", 1),
    BAD("# just a comment\n\n# another\n", 3),
    BAD("# just a comment", 1),
    BAD("# c\n\nE 0 -1 2\nplayers 2\n", 3),
    BAD("rules small-city\nplayers 2\n", 1),
    BAD("seed 4\nplayers 2\n", 1),
    /* The players line. */
    BAD("players 2\nplayers 2\n", 2),
    BAD("players 2\n# c\nplayers 3\n", 3),
    BAD("players 1\n", 1),
    BAD("players 9\n", 1),
    BAD("players 0\n", 1),
    BAD("players -2\n", 1),
    BAD("players two\n", 1),
    BAD("players\n", 1),
    BAD("players 2 3\n", 1),
    BAD("players 2.0\n", 1),
    BAD("players +2\n", 1),
    BAD("players 0x2\n", 1),
    BAD("players 4294967298\n", 1),
    BAD("Players 2\n", 1),
    /* Rules. */
    BAD("players 2\nrules bogus\n", 2),
    BAD("players 2\nrules small-city bogus\n", 2),
    BAD("players 2\nrules Small-City\n", 2),
    /* Headers after the first move. */
    BAD("players 2\nE 0 -1 2 S\nevent Paris\n", 3),
    BAD("players 2\nE 0 -1 2 S\nplayers 2\n", 3),
    BAD("players 2\nE 0 -1 2 S\nrules\n", 3),
    BAD("players 2\nE 0 -1 2 S\n# c\n\nU 1 0 1 W\nseed 5\n", 6),
    BAD("players 2\nend\nseed 5\n", 3),
    /* Lines that are neither. */
    BAD("players 2\nx 1\n", 2),
    BAD("players 2\n9abc 1\n", 2),
    BAD("players 2\nkeY 1\n", 2),
    BAD("players 2\nkey! 1\n", 2),
    /* Numbers: -?[0-9]+ only, and no wrap-around. */
    BAD("players 2\nE 0 - 2\n", 2),
    BAD("players 2\nE 0 -1 +2\n", 2),
    BAD("players 2\nE 0 --1 2\n", 2),
    BAD("players 2\nE 0 -1.0 2\n", 2),
    BAD("players 2\nE 0x0 -1 2\n", 2),
    BAD("players 2\nE 0 -1 2x\n", 2),
    BAD("players 2\nE 0 -1 99999999999999999999999\n", 2),
    BAD("players 2\nE 0 -99999999999999999999 2\n", 2),
    BAD("players 2\nE 4294967296 -1 2\n", 2),
    BAD("players 2\nE 0 18446744073709551615 2\n", 2),
    BAD("players 2\nE 0 4294967295 2\n", 2),
    BAD("players 2\nE 256 -1 2\n", 2), /* 0 as an 8-bit number */
    BAD("players 2\nE 0 255 2\n", 2),  /* -1 as an 8-bit number */
    BAD("players 2\nE 0 -257 2\n", 2), /* -1 as an 8-bit number */
    BAD("players 2\nE 0 -1 6\n", 2),   /* 2 modulo 4 */
    BAD("players 2\nE 0 -1 4\n", 2),
    BAD("players 2\nE 0 -1 -2\n", 2),
    /* Tiles and the shape of a move line. */
    BAD("players 2\nY 0 1 0\n", 2),
    BAD("players 2\ne 0 -1 2\n", 2),
    BAD("players 2\nEE 0 -1 2\n", 2),
    BAD("players 2\n\xC3\x89 0 -1 2\n", 2),
    BAD("players 2\nE\n", 2),
    BAD("players 2\nE 0 -1\n", 2),
    BAD("players 2\nE 0 -1 2 S S\n", 2),
    BAD("players 2\nE 0 -1 2 S a b c d e f\n", 2),
    /* Illegal moves. */
    BAD("players 2\nE 1 0 0\n", 2),    /* no road to meet the start tile's */
    BAD("players 2\nE 5 5 0\n", 2),    /* touches no tile */
    BAD("players 2\nE 0 0 0\n", 2),    /* taken */
    BAD("players 2\nE 0 -1 0\n", 2),   /* field against the city */
    BAD("players 2\nE 0 -1 2 X\n", 2), /* no such port */
    BAD("players 2\nE 0 -1 2 C\n", 2), /* no cloister */
    BAD("players 2\nE 0 -1 2 s\n", 2),
    BAD("players 2\nE 0 -1 2 S\nU 1 0 1 W\nU 2 0 1 W\n", 4),  /* road taken */
    BAD("players 2\nE 0 -1 2 S\nU -1 0 1 W\nU 1 0 1 E\n", 4), /* through D */
    BAD("players 2\nC 0 -1 0\nC 0 -2 0\n", 3),                /* one C only */
    BAD("players 2\nB 0 1 0\nB 0 2 0\nB 0 3 0\nB 0 4 0\nB 0 5 0\n", 6),
    BAD("players 2\nD 1 0 0\nD 2 0 0\nD 3 0 0\nD 4 0 0\n", 5), /* 3 D left */
    /* Discards: only a tile that fits nowhere. */
    BAD("players 2\ndiscard E\n", 2),
    BAD("players 2\ndiscard\n", 2),
    BAD("players 2\ndiscard EE\n", 2),
    BAD("players 2\ndiscard E E\n", 2),
    BAD("players 2\ndiscard Y\n", 2),
    /* end. */
    BAD("players 2\nend\nE 0 -1 2\n", 3),
    BAD("players 2\nend\nend\n", 3),
    BAD("players 2\nend now\n", 2),
    BAD("players 2\nE 0 -1 2 S\nend\nU 1 0 1\n", 4),
    BAD("players 2\nEnd\n", 2),
    /* Bytes: control characters, NUL, invalid UTF-8, anywhere. */
    BAD("players 2\nE 0 -1 2\x01\n", 2),
    BAD_N("players 2\n\0\n", 2),
    BAD_N("players 2\n# a NUL \0 in a comment\n", 2),
    BAD_N("players\0 2\n", 1),
    BAD("players 2\r\r\n", 1),
    BAD("players 2\nE 0\r-1 2\n", 2),
    BAD("players 2\n\x7f\n", 2),
    BAD("players 2\n# \x1b[31m red\n", 2),
    BAD("players 2\n\f\n", 2),
    BAD("players 2\n# caf\xC3\n", 2),          /* truncated */
    BAD("# \xC0\xAF\nplayers 2\n", 1),         /* overlong '/' */
    BAD("players 2\n# \xE0\x80\xAF\n", 2),     /* overlong, 3 bytes */
    BAD("players 2\n# \xF0\x80\x80\xAF\n", 2), /* overlong, 4 bytes */
    BAD("players 2\n# \xED\xA0\x80\n", 2),     /* a surrogate */
    BAD("players 2\n# \xF4\x90\x80\x80\n", 2), /* beyond U+10FFFF */
    BAD("players 2\n# \xFF\n", 2),
    BAD("players 2\n# \x80\n", 2), /* a lone continuation */
    BAD("players 2\n# \xE2\x82 x\n", 2),
    BAD("players 2\nE 0 -1 2 S\n# \xF8\x88\x80\x80\x80\n", 3),
};

static void test_bad_records(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_records / sizeof bad_records[0]; i++) {
        const bad_record *b = &bad_records[i];
        size_t len = b->len ? b->len : strlen(b->text);
        carc_record_error err;
        memset(&err, 0x55, sizeof err);
        carc_game *g = carc_record_read(b->text, len, 1, &err);
        if (g) {
            carc_game_free(g);
            fail_msg("bad record %zu was accepted: \"%s\"", i, b->text);
        }
        assert_non_null(memchr(err.message, '\0', sizeof err.message));
        if (err.message[0] == '\0')
            fail_msg("bad record %zu: no message", i);
        if (err.line != b->line)
            fail_msg("bad record %zu: error on line %d, expected %d (%s)", i, err.line, b->line,
                     err.message);
        /* Without an error struct: NULL as well, and no crash. */
        assert_null(carc_record_read(b->text, len, 1, NULL));
    }
}

static carc_game *read_ok(const char *text, size_t len)
{
    carc_record_error err;
    carc_game *g = carc_record_read(text, len, 3, &err);
    if (!g)
        fail_msg("good record refused: line %d: %s", err.line, err.message);
    return g;
}

static carc_game *read_ok_str(const char *text)
{
    return read_ok(text, strlen(text));
}

static void check_example_scores(const carc_game *g)
{
    assert_int_equal(carc_game_players(g), 2);
    assert_int_equal(carc_game_move_count(g), 2);
    assert_int_equal(carc_game_score(g, 0), 4);
    assert_int_equal(carc_game_score(g, 1), 0);
    assert_int_equal(carc_game_supply(g, 0), 7);
    assert_int_equal(carc_game_supply(g, 1), 6);
    assert_false(carc_game_over(g));
}

/* record.md's example, written in every way the notation allows. */
static void test_good_records(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "players 2\nE 0 -1 2 S\nU 1 0 1 W\n",
        "players 2\r\nE 0 -1 2 S\r\nU 1 0 1 W\r\n",
        "players 2\nE 0 -1 2 S\nU 1 0 1 W",
        "players 2\r\nE 0 -1 2 S\r\nU 1 0 1 W\r",
        "# A game\n\nplayers 2 # two of us\nevent Club-night\nseed 42\n"
        "white_player.name-x Anna \xC3\xA9\xE2\x9C\x93\nrules\n\n"
        "\tE\t0\t-1\t2\tS # closes the city\n   U 1 0 1 W   \n\n# done\n",
        "players 02\nE 00 -01 0002 S\nU 1 -0 1 W\n",
        /* Any port of the segment names the spot. */
        "players 2\nE 0 -1 2 SSE\nU 1 0 1 E\n",
        "players 2\nE 0 -1 2 SSW\nU 1 0 1 W\n",
        "players 2\nrules\nplayers-note x\nE 0 -1 2 S\nU 1 0 1 W\n",
    };
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        carc_game *g = read_ok_str(variants[i]);
        check_example_scores(g);
        assert_int_equal(carc_game_rules(g).flags, 0);
        carc_game_free(g);
    }
}

static void test_headers_and_rules(void **state)
{
    (void)state;
    carc_game *g = read_ok_str("players 3\n");
    assert_int_equal(carc_game_players(g), 3);
    assert_int_equal(carc_game_move_count(g), 0);
    assert_false(carc_game_over(g));
    carc_game_free(g);

    g = read_ok_str("players 2\nseed 1\nrules small-city bonus-turn\ndate x\n"
                    "E 0 -1 2 S\n");
    assert_int_equal(carc_game_rules(g).flags, CARC_RULE_SMALL_CITY | CARC_RULE_BONUS_TURN);
    assert_int_equal(carc_game_score(g, 0), 2); /* small city: 1 per tile */
    carc_game_free(g);

    g = read_ok_str("players 6\nrules farms-first-edition no-incomplete-scoring\n");
    assert_int_equal(carc_game_players(g), 6);
    assert_int_equal(carc_game_rules(g).flags,
                     CARC_RULE_FARMS_FIRST_EDITION | CARC_RULE_NO_INCOMPLETE);
    carc_game_free(g);

    /* A farmer: E's field at N, then the city closes with nobody on it. */
    g = read_ok_str("players 2\nE 0 -1 2 N\n");
    assert_int_equal(carc_game_score(g, 0), 0);
    assert_int_equal(carc_game_supply(g, 0), 6);
    carc_game_free(g);
}

static void test_end(void **state)
{
    (void)state;
    carc_game *g = read_ok_str("players 2\nend\n");
    assert_true(carc_game_over(g));
    assert_true(carc_game_ended_early(g));
    assert_int_equal(carc_game_drawn_tile(g), CARC_NO_TILE);
    carc_game_free(g);

    /* The end scores the open road: 2 for player 2. Comments may follow. */
    g = read_ok_str("players 2\nE 0 -1 2 S\nU 1 0 1 W\nend\n# after\n\n");
    assert_true(carc_game_over(g));
    assert_int_equal(carc_game_score(g, 0), 4);
    assert_int_equal(carc_game_score(g, 1), 2);
    assert_int_equal(carc_game_supply(g, 1), 7);
    carc_game_free(g);
}

/* The record of a whole random game, in `buf`; returns its length and
 * sets the final scores. */
static size_t full_game_record(uint64_t seed, int players, char *buf, size_t cap,
                               int scores[CARC_MAX_PLAYERS])
{
    carc_game *g = sup_game(players, seed);
    carc_rng rng = carc_rng_seed(seed);
    while (!carc_game_over(g))
        assert_int_equal(carc_game_play(g, carc_random_move(g, &rng, 0.5), NULL, 0, NULL), CARC_OK);
    for (int p = 0; p < players; p++)
        scores[p] = carc_game_score(g, p);
    size_t len = carc_record_write(g, NULL, buf, cap);
    assert_true(len < cap);
    carc_game_free(g);
    return len;
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

static void test_end_after_natural_end(void **state)
{
    (void)state;
    static char text[8192], extended[8400];
    int scores[CARC_MAX_PLAYERS];
    size_t len = full_game_record(12, 3, text, sizeof text, scores);
    int lines = count_lines(text);
    assert_int_equal(text[len - 1], '\n');

    /* One end line: allowed, changes nothing. */
    snprintf(extended, sizeof extended, "%send\n", text);
    carc_game *g = read_ok_str(extended);
    assert_true(carc_game_over(g));
    for (int p = 0; p < 3; p++)
        assert_int_equal(carc_game_score(g, p), scores[p]);
    carc_game_free(g);

    static const char *const after[] = {"end\nend\n", "E 0 0 0\n", "seed 3\n", "discard E\n",
                                        "end\nE 0 0 0\n"};
    static const int offset[] = {2, 1, 1, 1, 2};
    for (int i = 0; i < 5; i++) {
        snprintf(extended, sizeof extended, "%s%s", text, after[i]);
        carc_record_error err;
        g = carc_record_read(extended, strlen(extended), 1, &err);
        assert_null(g);
        assert_int_equal(err.line, lines + offset[i]);
    }
}

/* --- Lengths ------------------------------------------------------------------------ */

static void test_long_lines(void **state)
{
    (void)state;
    size_t max = CARC_RECORD_MAX_LINE;
    char *text = malloc(max + 64);
    assert_non_null(text);
    /* Line 3: a comment of exactly the limit. */
    strcpy(text, "players 2\n\n#");
    size_t at = strlen(text);
    memset(text + at, 'x', max - 1);
    strcpy(text + at + max - 1, "\nE 0 -1 2 S\n");
    carc_game *g = read_ok_str(text);
    assert_int_equal(carc_game_score(g, 0), 4);
    carc_game_free(g);
    /* One byte more. */
    memset(text + at, 'x', max);
    strcpy(text + at + max, "\nE 0 -1 2 S\n");
    carc_record_error err;
    assert_null(carc_record_read(text, strlen(text), 1, &err));
    assert_int_equal(err.line, 3);
    /* A long line of spaces is long too. */
    strcpy(text, "players 2\n");
    memset(text + 10, ' ', max + 1);
    text[10 + max + 1] = '\0';
    assert_null(carc_record_read(text, strlen(text), 1, &err));
    assert_int_equal(err.line, 2);
    free(text);
}

/* "players 2\n" and comment lines up to exactly `total` bytes. */
static char *padded_record(size_t total)
{
    char *text = malloc(total + 1);
    assert_non_null(text);
    strcpy(text, "players 2\n");
    size_t at = strlen(text);
    while (at < total) {
        size_t line = total - at > 64 ? 64 : total - at;
        if (total - at - line > 0 && total - at - line < 2)
            line--; /* leave room for a last line of at least "#\n" */
        text[at] = '#';
        memset(text + at + 1, 'p', line - 1);
        text[at + line - 1] = '\n';
        at += line;
    }
    text[total] = '\0';
    return text;
}

static void test_huge_records(void **state)
{
    (void)state;
    size_t max = CARC_RECORD_MAX_BYTES;
    carc_record_error err;
    /* Exactly the limit: read. */
    char *text = padded_record(max);
    assert_int_equal(strlen(text), max);
    carc_game *g = read_ok(text, max);
    carc_game_free(g);
    free(text);
    /* Twice the limit: refused. */
    text = padded_record(2 * max);
    assert_null(carc_record_read(text, 2 * max, 1, &err));
    assert_true(err.line > 1);
    free(text);
    /* One byte over the limit, in the middle of the last line: refused
     * as well; the limit is on the record, not on where lines start. */
    text = padded_record(max + 1);
    g = carc_record_read(text, max + 1, 1, &err);
    free(text);
    int accepted = g != NULL;
    carc_game_free(g);
    if (accepted)
        fail_msg("a record of CARC_RECORD_MAX_BYTES + 1 bytes was accepted");
}

/* --- Writing ---------------------------------------------------------------------- */

static void test_move_format(void **state)
{
    (void)state;
    carc_game *g = read_ok_str("players 2\nE 0 -1 2 S\nU 1 0 1 W\nB 0 1 0 C\nV -1 0 3\n");
    char buf[32];
    /* The written spot is the segment's first port clockwise from NNW
     * (docs/record-extensions.md): SSE for E's city turned south, E for
     * U's road turned east-west. */
    assert_int_equal(carc_move_format(g, 0, buf, sizeof buf), strlen("E 0 -1 2 SSE"));
    assert_string_equal(buf, "E 0 -1 2 SSE");
    carc_move_format(g, 1, buf, sizeof buf);
    assert_string_equal(buf, "U 1 0 1 E");
    carc_move_format(g, 2, buf, sizeof buf);
    assert_string_equal(buf, "B 0 1 0 C");
    carc_move_format(g, 3, buf, sizeof buf);
    assert_string_equal(buf, "V -1 0 3");
    /* Small buffers: the length anyway, never past the cap. */
    memset(buf, 'Z', sizeof buf);
    assert_int_equal(carc_move_format(g, 0, buf, 5), strlen("E 0 -1 2 SSE"));
    assert_string_equal(buf, "E 0 ");
    assert_int_equal(buf[5], 'Z');
    assert_int_equal(carc_move_format(g, 0, NULL, 0), strlen("E 0 -1 2 SSE"));
    assert_int_equal(carc_move_format(g, 4, buf, sizeof buf), 0);
    assert_int_equal(carc_move_format(g, -1, buf, sizeof buf), 0);
    carc_game_free(g);
}

static void test_write_small_buffers(void **state)
{
    (void)state;
    static char full[8192], buf[8300];
    int scores[CARC_MAX_PLAYERS];
    size_t len = full_game_record(99, 4, full, sizeof full, scores);
    assert_int_equal(strlen(full), len);
    carc_game *g = read_ok(full, len);
    assert_int_equal(carc_record_write(g, NULL, NULL, 0), len);
    size_t caps[] = {0, 1, 2, 3, 10, len / 2, len - 1, len, len + 1, len + 50};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        size_t cap = caps[i];
        memset(buf, 'Z', sizeof buf);
        assert_int_equal(carc_record_write(g, NULL, buf, cap), len);
        if (cap > 0) {
            size_t kept = len < cap - 1 ? len : cap - 1;
            assert_memory_equal(buf, full, kept);
            assert_int_equal(buf[kept], '\0');
        }
        for (size_t j = cap; j < sizeof buf; j++)
            if (buf[j] != 'Z')
                fail_msg("cap %zu: byte %zu written", cap, j);
    }
    carc_game_free(g);
}

static void test_write_headers(void **state)
{
    (void)state;
    carc_game *g = read_ok_str("players 2\nrules small-city\nE 0 -1 2 S\n");
    char buf[512];
    size_t n = carc_record_write(g, "event Test\nseed 5", buf, sizeof buf);
    assert_true(n < sizeof buf);
    assert_string_equal(buf, "players 2\nrules small-city\nevent Test\nseed 5\nE 0 -1 2 SSE\n");
    size_t m = carc_record_write(g, "event Test\nseed 5\n", buf, sizeof buf);
    assert_int_equal(m, n);
    carc_game *h = read_ok(buf, m);
    assert_int_equal(carc_game_score(h, 0), 2);
    assert_int_equal(carc_game_rules(h).flags, CARC_RULE_SMALL_CITY);
    carc_game_free(h);
    carc_game_free(g);
}

/* The parts of a game a record fixes (the pile after the last move
 * depends on the reader's seed). */
static void assert_same_recorded_game(const carc_game *a, const carc_game *b)
{
    assert_int_equal(carc_game_players(a), carc_game_players(b));
    assert_int_equal(carc_game_rules(a).flags, carc_game_rules(b).flags);
    assert_int_equal(carc_game_over(a), carc_game_over(b));
    assert_int_equal(carc_game_ended_early(a), carc_game_ended_early(b));
    assert_int_equal(carc_game_current_player(a), carc_game_current_player(b));
    assert_int_equal(carc_game_move_count(a), carc_game_move_count(b));
    for (int i = 0; i < carc_game_move_count(a); i++) {
        carc_move ma, mb;
        int ka, kb;
        assert_int_equal(carc_game_move_at(a, i, &ma, &ka), CARC_OK);
        assert_int_equal(carc_game_move_at(b, i, &mb, &kb), CARC_OK);
        assert_int_equal(ka, kb);
        assert_int_equal(ma.type, mb.type);
        assert_int_equal(carc_game_move_player(a, i), carc_game_move_player(b, i));
        if (ma.type == CARC_MOVE_PLACE) {
            assert_int_equal(ma.place.x, mb.place.x);
            assert_int_equal(ma.place.y, mb.place.y);
            assert_int_equal(ma.place.rot, mb.place.rot);
            assert_int_equal(ma.segment, mb.segment);
        }
    }
    for (int p = 0; p < carc_game_players(a); p++) {
        assert_int_equal(carc_game_score(a, p), carc_game_score(b, p));
        assert_int_equal(carc_game_supply(a, p), carc_game_supply(b, p));
        for (int k = 0; k < 4; k++)
            assert_int_equal(carc_game_score_of(a, p, (carc_kind)k),
                             carc_game_score_of(b, p, (carc_kind)k));
    }
    assert_int_equal(carc_game_tile_count(a), carc_game_tile_count(b));
    for (int t = 0; t < carc_game_tile_count(a); t++) {
        carc_tile_on_board ta, tb;
        assert_int_equal(carc_game_tile_info(a, t, &ta), CARC_OK);
        assert_int_equal(carc_game_tile_info(b, t, &tb), CARC_OK);
        assert_memory_equal(&ta, &tb, sizeof ta);
    }
}

static void test_round_trip(void **state)
{
    (void)state;
    static char text[8192], again[8192];
    static const uint32_t rule_sets[] = {
        0,
        CARC_RULE_SMALL_CITY,
        CARC_RULE_BONUS_TURN,
        CARC_RULE_FARMS_FIRST_EDITION | CARC_RULE_NO_INCOMPLETE,
        CARC_RULE_FARMS_FIRST_EDITION | CARC_RULE_SMALL_CITY | CARC_RULE_NO_INCOMPLETE |
            CARC_RULE_BONUS_TURN,
    };
    for (int i = 0; i < 200; i++) {
        carc_rules rules = {.flags = rule_sets[i % 5]};
        carc_game *g = carc_game_new(2 + i % 5, &rules, 4000u + (uint64_t)i);
        assert_non_null(g);
        carc_rng rng = carc_rng_seed((uint64_t)i);
        /* Some games stop early: with an end line, or just unfinished. */
        int stop = i % 4 == 1 ? (int)carc_rng_below(&rng, 71) : 1000;
        while (!carc_game_over(g) && carc_game_move_count(g) < stop)
            assert_int_equal(carc_game_play(g, carc_random_move(g, &rng, 0.6), NULL, 0, NULL),
                             CARC_OK);
        if (i % 8 == 1)
            assert_int_equal(carc_game_finish(g, NULL, 0, NULL), CARC_OK);
        size_t len =
            carc_record_write(g, i % 2 ? "seed 1\nplayer-kind random" : NULL, text, sizeof text);
        assert_true(len < sizeof text);
        carc_game *h = read_ok(text, len);
        assert_same_recorded_game(g, h);
        /* Written again (without headers): the same text. */
        size_t len2 = carc_record_write(h, NULL, again, sizeof again);
        size_t len1 = carc_record_write(g, NULL, text, sizeof text);
        assert_int_equal(len1, len2);
        assert_string_equal(text, again);
        carc_game_free(h);
        carc_game_free(g);
    }
}

/* --- One move of the current position ------------------------------------------- */

static carc_game *game_drawing(char letter)
{
    carc_game *g = carc_game_new(2, NULL, 5);
    assert_non_null(g);
    assert_int_equal(carc_game_choose_tile(g, carc_tile_parse_n(&letter, 1)), CARC_OK);
    return g;
}

static void test_move_parse(void **state)
{
    (void)state;
    carc_game *g = game_drawing('E');
    carc_move m;
    char err[160];
    static const char *const good[] = {"E 0 -1 2 S", "E 0 -1 2 S\n", "  E\t0 -1 2 SSW # x\r\n",
                                       "E 0 -01 2 SSE"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        memset(&m, 0x55, sizeof m);
        assert_int_equal(carc_move_parse_message(g, good[i], &m, err, sizeof err), CARC_OK);
        assert_string_equal(err, "");
        assert_int_equal(m.type, CARC_MOVE_PLACE);
        assert_int_equal(m.place.x, 0);
        assert_int_equal(m.place.y, -1);
        assert_int_equal(m.place.rot, 2);
        assert_int_equal(carc_tile_segment_at(carc_tile_parse("E"), 2, CARC_S), m.segment);
    }
    assert_int_equal(carc_move_parse(g, "E 0 -1 2", &m), CARC_OK);
    assert_int_equal(m.segment, CARC_NO_SPOT);

    static const struct {
        const char *text;
        carc_status status;
    } bad[] = {
        {"", CARC_ESYNTAX},
        {"# only a comment", CARC_ESYNTAX},
        {"E 0 -1", CARC_ESYNTAX},
        {"E 0 -1 2 S S", CARC_ESYNTAX},
        {"E 0 -1 4", CARC_ESYNTAX},
        {"E 0 x 2", CARC_ESYNTAX},
        {"E 0 -1 2 Q", CARC_ESYNTAX},
        {"E 0 -1 2 C", CARC_ESYNTAX},
        {"e 0 -1 2", CARC_ESYNTAX},
        {"end", CARC_ESYNTAX},
        {"players 2", CARC_ESYNTAX},
        {"E 0 -1 2 S\nU 1 0 1", CARC_ESYNTAX},
        {"E 0 -1 2 S\n\n", CARC_ESYNTAX},
        {"E 0 -1 2\x01", CARC_ESYNTAX},
        {"E 0 -1 2 \xC3", CARC_ESYNTAX},
        {"U 1 0 1", CARC_EILLEGAL},   /* not the drawn tile */
        {"E 1 0 0", CARC_EILLEGAL},   /* does not fit */
        {"E 0 0 0", CARC_EILLEGAL},   /* taken */
        {"E 5 5 0", CARC_EILLEGAL},   /* touches nothing */
        {"E 200 0 0", CARC_EILLEGAL}, /* off the board */
        {"discard E", CARC_EILLEGAL}, /* E fits */
        {"discard", CARC_ESYNTAX},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(err, 0, sizeof err);
        carc_status st = carc_move_parse_message(g, bad[i].text, &m, err, sizeof err);
        if (st != bad[i].status)
            fail_msg("'%s': status %d, expected %d (%s)", bad[i].text, st, bad[i].status, err);
        if (err[0] == '\0')
            fail_msg("'%s': no message", bad[i].text);
        assert_int_equal(carc_move_parse(g, bad[i].text, &m), bad[i].status);
    }
    /* Refused lines change nothing. */
    assert_int_equal(carc_game_move_count(g), 0);
    assert_int_equal(carc_game_drawn_tile(g), carc_tile_parse("E"));
    assert_int_equal(carc_move_parse(g, NULL, &m), CARC_EINVAL);

    /* A placed follower's feature is taken for the next player. */
    assert_int_equal(carc_move_parse(g, "E 0 -1 2", &m), CARC_OK);
    assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
    assert_int_equal(carc_game_choose_tile(g, carc_tile_parse("U")), CARC_OK);
    assert_int_equal(carc_move_parse(g, "U 1 0 1 W", &m), CARC_OK);
    assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
    assert_int_equal(carc_game_choose_tile(g, carc_tile_parse("U")), CARC_OK);
    assert_int_equal(carc_move_parse_message(g, "U 2 0 1 W", &m, err, sizeof err), CARC_EILLEGAL);
    assert_int_equal(carc_move_parse(g, "U 2 0 1", &m), CARC_OK);

    assert_int_equal(carc_game_finish(g, NULL, 0, NULL), CARC_OK);
    assert_int_equal(carc_move_parse(g, "U 2 0 1", &m), CARC_EOVER);
    carc_game_free(g);
}

static void test_move_write(void **state)
{
    (void)state;
    carc_game *g = game_drawing('E');
    char buf[32];
    carc_move m = {CARC_MOVE_PLACE, {0, -1, 2, 0}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
    m.segment = (uint8_t)carc_tile_segment_at(carc_tile_parse("E"), 2, CARC_S);
    assert_int_equal(carc_move_write(g, m, buf, sizeof buf), strlen("E 0 -1 2 SSE"));
    assert_string_equal(buf, "E 0 -1 2 SSE");
    memset(buf, 'Z', sizeof buf);
    assert_int_equal(carc_move_write(g, m, buf, 5), strlen("E 0 -1 2 SSE"));
    assert_string_equal(buf, "E 0 ");
    assert_int_equal(buf[5], 'Z');
    assert_int_equal(carc_move_write(g, m, NULL, 0), strlen("E 0 -1 2 SSE"));
    m.segment = CARC_NO_SPOT;
    carc_move_write(g, m, buf, sizeof buf);
    assert_string_equal(buf, "E 0 -1 2");
    carc_move d = {CARC_MOVE_DISCARD, {0, 0, 0, 0}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
    carc_move_write(g, d, buf, sizeof buf);
    assert_string_equal(buf, "discard E");
    /* Not a move of E's shape: nothing written. */
    m.segment = 9;
    assert_int_equal(carc_move_write(g, m, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    m.segment = CARC_NO_SPOT;
    m.place.rot = 4;
    assert_int_equal(carc_move_write(g, m, buf, sizeof buf), 0);
    m.place.rot = 0;
    m.type = 7;
    assert_int_equal(carc_move_write(g, m, buf, sizeof buf), 0);
    assert_int_equal(carc_game_finish(g, NULL, 0, NULL), CARC_OK);
    assert_int_equal(carc_move_write(g, d, buf, sizeof buf), 0);
    carc_game_free(g);
}

/* Every move of random games, written and read back, is the same move, and
 * reads as it is written into the history. */
static void test_move_write_parse_round_trip(void **state)
{
    (void)state;
    int discards = 0;
    for (int i = 0; i < 40; i++) {
        carc_game *g = carc_game_new(2 + i % 5, NULL, 900u + (uint64_t)i);
        assert_non_null(g);
        carc_rng rng = carc_rng_seed((uint64_t)i + 7);
        while (!carc_game_over(g)) {
            carc_move m = carc_random_move(g, &rng, 0.6), back;
            char line[32], again[32];
            size_t n = carc_move_write(g, m, line, sizeof line);
            assert_true(n > 0 && n < sizeof line);
            char err[160];
            if (carc_move_parse_message(g, line, &back, err, sizeof err) != CARC_OK)
                fail_msg("'%s' refused: %s", line, err);
            assert_int_equal(back.type, m.type);
            if (m.type == CARC_MOVE_PLACE) {
                assert_int_equal(back.place.x, m.place.x);
                assert_int_equal(back.place.y, m.place.y);
                assert_int_equal(back.place.rot, m.place.rot);
                assert_int_equal(back.segment, m.segment);
            } else {
                discards++;
            }
            assert_int_equal(carc_game_play(g, back, NULL, 0, NULL), CARC_OK);
            carc_move_format(g, carc_game_move_count(g) - 1, again, sizeof again);
            assert_string_equal(line, again);
        }
        carc_game_free(g);
    }
    (void)discards;
}

/* Random lines made of the notation's pieces: never a crash, and a line
 * that is accepted is a move the game then plays. */
static void test_move_parse_random_lines(void **state)
{
    (void)state;
    static const char *const pieces[] = {
        "E",   "U", "D", "discard", "end", "0",  "-1", "1",  "2",    "3", "4",           "-", "S",
        "SSE", "C", "N", "#",       " ",   "\t", "\r", "\n", "\xC3", "x", "99999999999", "W"};
    carc_game *g = game_drawing('E');
    carc_rng rng = carc_rng_seed(77);
    int accepted = 0;
    for (int i = 0; i < 20000; i++) {
        char line[128] = "";
        int n = (int)carc_rng_below(&rng, 4);
        if (i % 2) /* half of the lines start as a placement of E near D */
            snprintf(line, sizeof line, "E %d %d %d ", (int)carc_rng_below(&rng, 5) - 2,
                     (int)carc_rng_below(&rng, 5) - 2, (int)carc_rng_below(&rng, 5));
        else
            n += 2;
        for (int k = 0; k < n; k++) {
            const char *piece = pieces[carc_rng_below(&rng, sizeof pieces / sizeof pieces[0])];
            strncat(line, piece, sizeof line - strlen(line) - 1);
            if (carc_rng_below(&rng, 3))
                strncat(line, " ", sizeof line - strlen(line) - 1);
        }
        carc_move m;
        if (carc_move_parse(g, line, &m) == CARC_OK) {
            carc_game *copy = carc_game_clone(g);
            assert_int_equal(carc_game_play(copy, m, NULL, 0, NULL), CARC_OK);
            carc_game_free(copy);
            accepted++;
        }
    }
    assert_true(accepted > 0);
    assert_int_equal(carc_game_move_count(g), 0);
    carc_game_free(g);
}

/* --- Rule lists ---------------------------------------------------------------------- */

static void test_rules_parse(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        uint32_t flags;
    } good[] = {
        {"", 0},
        {" \t, ,", 0},
        {"small-city", CARC_RULE_SMALL_CITY},
        {"small-city,bonus-turn", CARC_RULE_SMALL_CITY | CARC_RULE_BONUS_TURN},
        {" bonus-turn , small-city\t", CARC_RULE_SMALL_CITY | CARC_RULE_BONUS_TURN},
        {"small-city small-city", CARC_RULE_SMALL_CITY},
        {"farms-first-edition,no-incomplete-scoring",
         CARC_RULE_FARMS_FIRST_EDITION | CARC_RULE_NO_INCOMPLETE},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        carc_rules r = {.flags = 0xDEADu};
        char err[64] = "x";
        assert_int_equal(carc_rules_parse(good[i].text, &r, err, sizeof err), CARC_OK);
        assert_int_equal(r.flags, good[i].flags);
        assert_string_equal(err, "");
    }
    static const char *const bad[] = {
        "bogus", "small-city bogus",      "Small-City", "small-city;", "small-cityx",
        "small", "small-city\nbonus-turn"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        carc_rules r = {.flags = CARC_RULE_BONUS_TURN};
        char err[64] = "";
        assert_int_equal(carc_rules_parse(bad[i], &r, err, sizeof err), CARC_EINVAL);
        assert_int_equal(r.flags, CARC_RULE_BONUS_TURN); /* unchanged */
        assert_non_null(strstr(err, "unknown rule '"));
    }
    carc_rules r = {.flags = 0};
    char err[8];
    assert_int_equal(carc_rules_parse("bogus-and-a-long-name", &r, err, sizeof err), CARC_EINVAL);
    assert_int_equal(strlen(err), sizeof err - 1); /* cut, terminated */
    assert_int_equal(carc_rules_parse(NULL, &r, NULL, 0), CARC_EINVAL);
    assert_int_equal(carc_rules_parse("", NULL, NULL, 0), CARC_EINVAL);
}

static void test_rules_format(void **state)
{
    (void)state;
    char buf[128], comma[128];
    assert_int_equal(carc_rules_format(carc_rules_standard(), buf, sizeof buf, ","), 0);
    assert_string_equal(buf, "");
    carc_rules two = {.flags = CARC_RULE_BONUS_TURN | CARC_RULE_SMALL_CITY | (1u << 30)};
    size_t len = carc_rules_format(two, buf, sizeof buf, NULL);
    assert_int_equal(len, strlen(buf));
    assert_string_equal(buf, "small-city bonus-turn"); /* lowest flag first, no unnamed flag */
    carc_rules_format(two, buf, sizeof buf, ", ");
    assert_string_equal(buf, "small-city, bonus-turn");
    /* Every set of flags reads back, with either separator. */
    for (uint32_t flags = 0; flags < 16; flags++) {
        carc_rules in = {.flags = flags}, out = {0}, out2 = {0};
        size_t n = carc_rules_format(in, buf, sizeof buf, " ");
        assert_int_equal(n, strlen(buf));
        carc_rules_format(in, comma, sizeof comma, ",");
        assert_int_equal(carc_rules_parse(buf, &out, NULL, 0), CARC_OK);
        assert_int_equal(carc_rules_parse(comma, &out2, NULL, 0), CARC_OK);
        assert_int_equal(out.flags, flags);
        assert_int_equal(out2.flags, flags);
        /* Like snprintf: the length whatever the room, never past `cap`. */
        for (size_t cap = 0; cap <= n + 1; cap++) {
            char small[128];
            memset(small, 'Z', sizeof small);
            assert_int_equal(carc_rules_format(in, small, cap, " "), n);
            if (cap > 0) {
                assert_true(strlen(small) < cap);
                assert_memory_equal(small, buf, strlen(small));
            }
            for (size_t j = cap; j < sizeof small; j++)
                assert_int_equal(small[j], 'Z');
        }
        assert_int_equal(carc_rules_format(in, NULL, 0, " "), n);
    }
}

/* The longest rules the library accepts: every rule that plays with the
 * others, every one with its largest value. They fit CARC_RULES_TEXT_MAX
 * with a two-byte separator, and a game played under them writes a record
 * that reads back with the same rules (the record writer once cut its
 * rules line at 128 bytes: a saved game that no longer read; found by
 * fuzz_record). */
static void test_longest_rules(void **state)
{
    (void)state;
    carc_rules all = carc_rules_standard();
    all.expansions =
        CARC_EXPANSION_RIVER | CARC_EXPANSION_INNS_CATHEDRALS | CARC_EXPANSION_TRADERS_BUILDERS;
    all.hand = CARC_MAX_HAND;
    all.table_w = all.table_h = CARC_MAX_TABLE;
    for (uint32_t bit = 1; bit != 0; bit <<= 1)
        if (carc_rule_name(bit)) {
            carc_rules more = all;
            more.flags |= bit;
            if (carc_rules_check(&more, NULL, 0) == CARC_OK)
                all = more;
        }
    assert_int_equal(carc_rules_check(&all, NULL, 0), CARC_OK);
    char text[CARC_RULES_TEXT_MAX];
    size_t len = carc_rules_format(all, text, sizeof text, ", ");
    assert_true(len > 128 && len < sizeof text); /* longer than the old line */
    assert_non_null(strstr(text, "table=199x199"));
    for (int players = 2; players <= 3; players++) {
        carc_game *g = carc_game_new(players, &all, 5);
        assert_non_null(g);
        carc_rng rng = carc_rng_seed(5);
        for (int i = 0; i < 10 && !carc_game_over(g); i++)
            assert_int_equal(carc_game_play(g, carc_random_move(g, &rng, 0.5), NULL, 0, NULL),
                             CARC_OK);
        size_t n = carc_record_write(g, NULL, NULL, 0);
        char *rec = malloc(n + 1);
        assert_non_null(rec);
        carc_record_write(g, NULL, rec, n + 1);
        carc_record_error err;
        carc_game *back = carc_record_read(rec, n, 5, &err);
        if (!back)
            fail_msg("line %d: %s\n%s", err.line, err.message, rec);
        carc_rules got = carc_game_rules(back);
        assert_int_equal(got.flags, all.flags);
        assert_int_equal(got.expansions, all.expansions);
        assert_int_equal(got.hand, all.hand);
        assert_int_equal(got.table_w, all.table_w);
        assert_int_equal(got.table_h, all.table_h);
        assert_int_equal(carc_game_move_count(back), carc_game_move_count(g));
        carc_game_free(back);
        carc_game_free(g);
        free(rec);
    }
}

/* The valued house rules (variants.md): NAME=VALUE, in range, once; they
 * format after the flags and read back; carc_rules_check() names what a
 * rule needs or excludes, and refuses rules this version does not play. */
static void test_rules_valued(void **state)
{
    (void)state;
    carc_rules r = {.flags = CARC_RULE_BONUS_TURN, .expansions = CARC_EXPANSION_RIVER};
    char err[96], buf[128];
    assert_int_equal(
        carc_rules_parse("small-city,hand=3 table=9x7 open-hands hand=3", &r, err, sizeof err),
        CARC_OK);
    assert_int_equal(r.flags, CARC_RULE_SMALL_CITY | CARC_RULE_OPEN_HANDS);
    assert_int_equal(r.hand, 3);
    assert_int_equal(r.table_w, 9);
    assert_int_equal(r.table_h, 7);
    assert_int_equal(r.expansions, CARC_EXPANSION_RIVER); /* left alone */
    size_t len = carc_rules_format(r, buf, sizeof buf, ",");
    assert_int_equal(len, strlen(buf));
    assert_string_equal(buf, "small-city,open-hands,hand=3,table=9x7");
    carc_rules back = {0};
    assert_int_equal(carc_rules_parse(buf, &back, NULL, 0), CARC_OK);
    assert_int_equal(back.hand, 3);
    assert_int_equal(back.table_w, 9);
    assert_int_equal(back.table_h, 7);
    /* Parsing starts afresh: a list without hand= has no hand. */
    assert_int_equal(carc_rules_parse("small-city", &back, NULL, 0), CARC_OK);
    assert_int_equal(back.hand + back.table_w + back.table_h, 0);

    static const struct {
        const char *text, *why;
    } bad[] = {
        {"hand=0", "hand takes 1 to 3"},  {"hand=4", "hand takes 1 to 3"},
        {"hand=", "hand takes 1 to 3"},   {"hand=1x", "hand takes 1 to 3"},
        {"hand=1 hand=2", "given twice"}, {"table=9", "odd sizes"},
        {"table=8x9", "odd sizes"},       {"table=1x1", "odd sizes"},
        {"table=201x3", "odd sizes"},     {"table=9x9 table=9x7", "given twice"},
        {"table=x9", "odd sizes"},        {"reshuffle=1", "unknown rule 'reshuffle=1'"},
        {"=3", "unknown rule '=3'"},      {"hand=0003", "hand takes 1 to 3"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        carc_rules kept = {.flags = CARC_RULE_BONUS_TURN, .hand = 2};
        assert_int_equal(carc_rules_parse(bad[i].text, &kept, err, sizeof err), CARC_EINVAL);
        assert_non_null(strstr(err, bad[i].why));
        assert_int_equal(kept.flags, CARC_RULE_BONUS_TURN); /* unchanged */
        assert_int_equal(kept.hand, 2);
    }

    static const struct {
        carc_rules rules;
        const char *why;
    } refused[] = {
        {{.flags = CARC_RULE_OPEN_HANDS}, "open-hands needs rule hand=N"},
        {{.flags = CARC_RULE_TABLE_EDGE_COMPLETES}, "table-edge-completes needs rule table"},
        {{.flags = CARC_RULE_START_IN_PILE, .expansions = CARC_EXPANSION_RIVER},
         "start-in-pile cannot be played with the river"},
        {{.hand = 4}, "hand takes 1 to 3"},
        {{.table_w = 9}, "odd sizes"},
        {{.table_w = 4, .table_h = 5}, "odd sizes"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_int_equal(carc_rules_check(&refused[i].rules, err, sizeof err), CARC_EINVAL);
        assert_non_null(strstr(err, refused[i].why));
        assert_null(carc_game_new(2, &refused[i].rules, 1));
    }
}

/* The record's rules line goes through the same parser, with spaces and
 * tabs only, and any number of names. */
static void test_rules_line(void **state)
{
    (void)state;
    carc_game *g = read_ok_str("players 2\nrules small-city\tbonus-turn small-city small-city "
                               "small-city small-city small-city small-city small-city\n");
    assert_int_equal(carc_game_rules(g).flags, CARC_RULE_SMALL_CITY | CARC_RULE_BONUS_TURN);
    carc_game_free(g);
    carc_record_error err;
    const char *comma = "players 2\nrules small-city,bonus-turn\n";
    assert_null(carc_record_read(comma, strlen(comma), 1, &err));
    assert_int_equal(err.line, 2);
    assert_string_equal(err.message, "unknown rule 'small-city,bonus-turn'");
}

/* --- Headers ------------------------------------------------------------------------------ */

static void assert_header(const carc_header *h, const char *key, const char *value, int line)
{
    if (h->key_len != strlen(key) || memcmp(h->key, key, h->key_len) != 0 ||
        h->value_len != strlen(value) || memcmp(h->value, value, h->value_len) != 0 ||
        h->line != line)
        fail_msg("header '%.*s' '%.*s' line %d, want '%s' '%s' line %d", (int)h->key_len, h->key,
                 (int)h->value_len, h->value, h->line, key, value, line);
}

static void test_headers(void **state)
{
    (void)state;
    const char *text = "# a game\n"
                       "players 3\r\n"
                       "rules small-city  # the variant\n"
                       "seed 42\n"
                       "\n"
                       "seat-1 Anne  de  Bretagne \t# a name of several words\n"
                       "seat-2 one two three four five six seven eight nine ten\n"
                       "flag\n"
                       "E 0 -1 2 S\n"
                       "this line is never read\n";
    carc_header h[8];
    carc_record_error err;
    int n = carc_record_headers(text, strlen(text), h, 8, &err);
    assert_int_equal(n, 6);
    assert_header(&h[0], "players", "3", 2);
    assert_header(&h[1], "rules", "small-city", 3);
    assert_header(&h[2], "seed", "42", 4);
    assert_header(&h[3], "seat-1", "Anne  de  Bretagne", 6);
    assert_header(&h[4], "seat-2", "one two three four five six seven eight nine ten", 7);
    assert_header(&h[5], "flag", "", 8);
    assert_true(h[2].value >= text && h[2].value < text + strlen(text)); /* views */
    assert_int_equal(carc_header_find(h, n, "seed"), 2);
    assert_int_equal(carc_header_find(h, n, "players"), 0);
    assert_int_equal(carc_header_find(h, n, "see"), -1);
    assert_int_equal(carc_header_find(h, n, "seed2"), -1);
    assert_int_equal(carc_header_find(h, n, NULL), -1);
    /* Like snprintf: the count whatever the room. */
    carc_header few[2];
    memset(few, 0, sizeof few);
    assert_int_equal(carc_record_headers(text, strlen(text), few, 2, NULL), 6);
    assert_header(&few[1], "rules", "small-city", 3);
    assert_int_equal(carc_record_headers(text, strlen(text), NULL, 0, NULL), 6);
    /* The whole record reads too: the long header is no error. */
    const char *valid = "players 2\nseat-2 one two three four five six seven eight nine\n";
    carc_game *g = read_ok_str(valid);
    carc_game_free(g);
    /* A record of headers alone. */
    assert_int_equal(carc_record_headers("players 2", 9, h, 8, NULL), 1);
    assert_header(&h[0], "players", "2", 1);
}

static void test_bad_headers(void **state)
{
    (void)state;
    static const bad_record bad[] = {
        BAD("", 1),
        BAD("seed 4\nplayers 2\n", 1),
        BAD("players 2\nplayers 2\n", 2),
        BAD("players 9\n", 1),
        BAD("players 2\nrules bogus\n", 2),
        BAD("players 2\nrules\nrules\n", 3),
        BAD("players 2\nkeY 1\n", 2),
        BAD("players 2\nx 1\n", 2),
        BAD_N("players 2\nseed \x01\n", 2),
        BAD_N("players 2\nseed \xC3\n", 2),
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t len = bad[i].len ? bad[i].len : strlen(bad[i].text);
        carc_header h[4];
        carc_record_error err = {0, ""};
        assert_int_equal(carc_record_headers(bad[i].text, len, h, 4, &err), -1);
        if (err.line != bad[i].line || err.message[0] == '\0')
            fail_msg("record %zu: line %d '%s', want line %d", i, err.line, err.message,
                     bad[i].line);
    }
    /* The moves are not read: a broken move after the headers is no error. */
    assert_int_equal(carc_record_headers("players 2\nseed 1\nE 9 9 9\n", 24, NULL, 0, NULL), 2);
}

static void test_header_check(void **state)
{
    (void)state;
    static const char *const bad_keys[] = {"",      "a",       "Seed",  "9seed", "seed!",
                                           "se ed", "players", "rules", "end",   "discard"};
    char err[80];
    for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++) {
        assert_int_equal(carc_header_check(bad_keys[i], "1", err, sizeof err), CARC_EINVAL);
        assert_true(err[0] != '\0');
    }
    static const char *const bad_values[] = {" lead", "trail ", "a#b",  "tab\there",   "new\nline",
                                             "cr\r",  "\x7F",   "\xC3", "\xED\xA0\x80"};
    for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++)
        assert_int_equal(carc_header_check("seed", bad_values[i], err, sizeof err), CARC_EINVAL);
    assert_int_equal(carc_header_check(NULL, "1", err, sizeof err), CARC_EINVAL);
    assert_int_equal(carc_header_check("seed", NULL, NULL, 0), CARC_EINVAL);
    static const char *const good_values[] = {"", "42", "Anne de Bretagne", "\xC3\xA9t\xC3\xA9",
                                              "mcts:level=hard,ms=100"};
    for (size_t i = 0; i < sizeof good_values / sizeof good_values[0]; i++) {
        assert_int_equal(carc_header_check("seat-1", good_values[i], err, sizeof err), CARC_OK);
        assert_string_equal(err, "");
    }
    static char long_value[CARC_RECORD_MAX_LINE];
    memset(long_value, 'v', sizeof long_value - 1);
    assert_int_equal(carc_header_check("k2", long_value, NULL, 0), CARC_EINVAL);
    long_value[CARC_RECORD_MAX_LINE - 4] = '\0'; /* "k2 " + value: 4096 bytes */
    assert_int_equal(carc_header_check("k2", long_value, NULL, 0), CARC_OK);
}

/* Headers built with carc_header_append() are written by the writer and
 * read back unchanged. */
static void test_header_append(void **state)
{
    (void)state;
    char headers[128] = "";
    assert_int_equal(carc_header_append(headers, sizeof headers, "seed", "42"), CARC_OK);
    assert_int_equal(carc_header_append(headers, sizeof headers, "seat-1", "Anne de Bretagne"),
                     CARC_OK);
    assert_int_equal(carc_header_append(headers, sizeof headers, "flag", ""), CARC_OK);
    assert_string_equal(headers, "seed 42\nseat-1 Anne de Bretagne\nflag\n");
    /* Refused: nothing changes. */
    assert_int_equal(carc_header_append(headers, sizeof headers, "players", "3"), CARC_EINVAL);
    assert_int_equal(carc_header_append(headers, sizeof headers, "note", "a # b"), CARC_EINVAL);
    assert_int_equal(carc_header_append(headers, 40, "note", "does not fit"), CARC_EINVAL);
    assert_string_equal(headers, "seed 42\nseat-1 Anne de Bretagne\nflag\n");
    char full[4] = {'a', 'b', 'c', 'd'}; /* no NUL within cap */
    assert_int_equal(carc_header_append(full, sizeof full, "ab", "c"), CARC_EINVAL);
    assert_int_equal(carc_header_append(NULL, 10, "ab", "c"), CARC_EINVAL);
    /* An exact fit, and one byte short. */
    char exact[9] = "";
    assert_int_equal(carc_header_append(exact, sizeof exact - 1, "ab", "cdef"), CARC_EINVAL);
    assert_string_equal(exact, "");
    assert_int_equal(carc_header_append(exact, sizeof exact, "ab", "cdef"), CARC_OK);
    assert_string_equal(exact, "ab cdef\n");

    carc_game *g = read_ok_str("players 2\nrules bonus-turn\nE 0 -1 2 S\n");
    char text[512];
    assert_true(carc_record_write(g, headers, text, sizeof text) < sizeof text);
    carc_header h[8];
    assert_int_equal(carc_record_headers(text, strlen(text), h, 8, NULL), 5);
    assert_header(&h[0], "players", "2", 1);
    assert_header(&h[1], "rules", "bonus-turn", 2);
    assert_header(&h[2], "seed", "42", 3);
    assert_header(&h[3], "seat-1", "Anne de Bretagne", 4);
    assert_header(&h[4], "flag", "", 5);
    carc_game_free(g);
}

/* --- Replaying move by move ------------------------------------------------------------- */

typedef struct replay_log {
    int steps, stop_after;
    carc_replay_step step[BASE_GAME_PILE + 1];
    carc_event events[BASE_GAME_PILE + 1][CARC_MAX_EVENTS];
    uint64_t score_sum[BASE_GAME_PILE + 1];
} replay_log;

static int log_step(void *ctx, const carc_replay_step *step)
{
    replay_log *log = ctx;
    assert_true(log->steps <= BASE_GAME_PILE);
    assert_true(step->nevents >= 0 && step->nevents <= CARC_MAX_EVENTS);
    log->step[log->steps] = *step;
    memcpy(log->events[log->steps], step->events, (size_t)step->nevents * sizeof(carc_event));
    uint64_t sum = 0;
    for (int p = 0; p < carc_game_players(step->game); p++)
        sum = sum * 1000 + (uint64_t)carc_game_score(step->game, p);
    log->score_sum[log->steps] = sum;
    log->steps++;
    return log->steps == log->stop_after;
}

/* Each step carries what carc_game_play reported when the game was played. */
static void test_replay_events(void **state)
{
    (void)state;
    static replay_log log;
    static char text[8192];
    for (int i = 0; i < 60; i++) {
        carc_rules rules = {.flags = i % 3 == 0 ? CARC_RULE_BONUS_TURN : 0};
        carc_game *g = carc_game_new(2 + i % 5, &rules, 900u + (uint64_t)i);
        assert_non_null(g);
        carc_rng rng = carc_rng_seed((uint64_t)i);
        static carc_event want[BASE_GAME_PILE + 1][CARC_MAX_EVENTS];
        int nwant[BASE_GAME_PILE + 1], players[BASE_GAME_PILE];
        int stop = i % 4 == 1 ? 5 + i : 1000;
        while (!carc_game_over(g) && carc_game_move_count(g) < stop) {
            int k = carc_game_move_count(g);
            players[k] = carc_game_current_player(g);
            assert_int_equal(carc_game_play(g, carc_random_move(g, &rng, 0.6), want[k],
                                            CARC_MAX_EVENTS, &nwant[k]),
                             CARC_OK);
        }
        int moves = carc_game_move_count(g), ended = i % 8 == 1;
        if (ended)
            assert_int_equal(carc_game_finish(g, want[moves], CARC_MAX_EVENTS, &nwant[moves]),
                             CARC_OK);
        size_t len = carc_record_write(g, "seed 1", text, sizeof text);
        memset(&log, 0, sizeof log);
        carc_record_error err;
        carc_game *h = carc_record_replay(text, len, 7, log_step, &log, &err);
        if (!h)
            fail_msg("line %d: %s", err.line, err.message);
        assert_int_equal(log.steps, moves + ended);
        for (int k = 0; k < log.steps; k++) {
            const carc_replay_step *s = &log.step[k];
            assert_int_equal(s->index, k);
            assert_int_equal(s->end, k == moves);
            assert_int_equal(s->nevents, nwant[k]);
            assert_memory_equal(log.events[k], want[k], (size_t)nwant[k] * sizeof(carc_event));
            if (k == moves) {
                assert_int_equal(s->player, -1);
                assert_int_equal(s->tile_kind, CARC_NO_TILE);
                continue;
            }
            carc_move m;
            int kind;
            assert_int_equal(carc_game_move_at(g, k, &m, &kind), CARC_OK);
            assert_true(carc_move_equal(s->move, m));
            assert_int_equal(s->tile_kind, kind);
            assert_int_equal(s->player, players[k]);
        }
        for (int p = 0; p < carc_game_players(g); p++)
            assert_int_equal(carc_game_score(h, p), carc_game_score(g, p));
        carc_game_free(h);

        /* Stopped by the callback: the game after that step. */
        if (moves > 3) {
            memset(&log, 0, sizeof log);
            log.stop_after = 3;
            h = carc_record_replay(text, len, 7, log_step, &log, &err);
            assert_non_null(h);
            assert_int_equal(log.steps, 3);
            assert_int_equal(carc_game_move_count(h), 3);
            uint64_t sum = 0;
            for (int p = 0; p < carc_game_players(h); p++)
                sum = sum * 1000 + (uint64_t)carc_game_score(h, p);
            assert_int_equal(sum, log.score_sum[2]);
            carc_game_free(h);
        }
        carc_game_free(g);
    }
}

/* A finished game's final scoring comes with its last move; an invalid
 * record reports the steps before the bad line, then fails. */
static void test_replay_final_and_errors(void **state)
{
    (void)state;
    static replay_log log;
    static char text[8192];
    carc_game *g = sup_random_game(3, 77, -1, 0.9);
    size_t len = carc_record_write(g, NULL, text, sizeof text);
    memset(&log, 0, sizeof log);
    carc_game *h = carc_record_replay(text, len, 1, log_step, &log, NULL);
    assert_non_null(h);
    assert_int_equal(log.steps, carc_game_move_count(g));
    int final = 0, before = 0;
    for (int k = 0; k < log.steps; k++)
        for (int e = 0; e < log.step[k].nevents; e++)
            *(k == log.steps - 1 ? &final : &before) += !log.events[k][e].complete;
    assert_int_equal(before, 0);
    assert_true(final > 0); /* 3 players and followers placed: open features remain */
    carc_game_free(h);
    carc_game_free(g);

    const char *bad = "players 2\nE 0 -1 2 S\nU 1 0 1 W\nE 0 -1 2\n";
    memset(&log, 0, sizeof log);
    carc_record_error err;
    assert_null(carc_record_replay(bad, strlen(bad), 1, log_step, &log, &err));
    assert_int_equal(err.line, 4);
    assert_int_equal(log.steps, 2);
    assert_int_equal(log.step[0].nevents, 1); /* the city of the example: 4 points */
    assert_int_equal(log.events[0][0].points, 4);
    assert_int_equal(log.score_sum[1], 4000);
    /* Without a callback it is carc_record_read(). */
    const char *ok = "players 2\nE 0 -1 2 S\nU 1 0 1 W\nend\n";
    h = carc_record_replay(ok, strlen(ok), 1, NULL, NULL, NULL);
    assert_non_null(h);
    assert_true(carc_game_ended_early(h));
    carc_game_free(h);
    assert_null(carc_record_replay(NULL, 5, 1, NULL, NULL, &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_records),
        cmocka_unit_test(test_good_records),
        cmocka_unit_test(test_headers_and_rules),
        cmocka_unit_test(test_end),
        cmocka_unit_test(test_end_after_natural_end),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_huge_records),
        cmocka_unit_test(test_move_format),
        cmocka_unit_test(test_write_small_buffers),
        cmocka_unit_test(test_write_headers),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_move_parse),
        cmocka_unit_test(test_move_write),
        cmocka_unit_test(test_move_write_parse_round_trip),
        cmocka_unit_test(test_move_parse_random_lines),
        cmocka_unit_test(test_rules_parse),
        cmocka_unit_test(test_rules_format),
        cmocka_unit_test(test_longest_rules),
        cmocka_unit_test(test_rules_valued),
        cmocka_unit_test(test_rules_line),
        cmocka_unit_test(test_headers),
        cmocka_unit_test(test_bad_headers),
        cmocka_unit_test(test_header_check),
        cmocka_unit_test(test_header_append),
        cmocka_unit_test(test_replay_events),
        cmocka_unit_test(test_replay_final_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
