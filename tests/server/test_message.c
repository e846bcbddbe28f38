/* test_message.c: the request decoder: every request type, every error
 * code it gives, and the limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "message.h"

static msg_request request;

static msg_error decode(const char *text, msg_problem *p)
{
    return msg_decode(text, strlen(text), &request, p);
}

/* Asserts that `text` fails with `code` and that the message names `word`. */
static void expect_error(const char *text, msg_error code, const char *word)
{
    msg_problem p;
    msg_error e = decode(text, &p);
    if (e != code || (word && !strstr(p.message, word)))
        fail_msg("%s: got %s (%s), wanted %s", text, msg_error_name(e), p.message,
                 msg_error_name(code));
}

static void expect_ok(const char *text)
{
    msg_problem p;
    msg_error e = decode(text, &p);
    if (e != ERR_NONE)
        fail_msg("%s: %s (%s)", text, msg_error_name(e), p.message);
}

static void test_bad_json(void **state)
{
    (void)state;
    expect_error("", ERR_BAD_JSON, NULL);
    expect_error("{", ERR_BAD_JSON, NULL);
    expect_error("[1,2]", ERR_BAD_JSON, "object");
    expect_error("\"ping\"", ERR_BAD_JSON, NULL);
    expect_error("{\"type\":\"ping\",\"type\":\"ping\"}", ERR_BAD_JSON, NULL);
    expect_error("{\"type\":\"ping\"} {}", ERR_BAD_JSON, NULL);
    expect_error("{\"type\":\"pi\\u0000ng\"}", ERR_BAD_JSON, NULL);
}

static void test_too_big(void **state)
{
    (void)state;
    static char big[MSG_MAX_BYTES + 2];
    memset(big, ' ', sizeof big - 1);
    big[0] = '{';
    big[MSG_MAX_BYTES] = '}';
    big[MSG_MAX_BYTES + 1] = '\0';
    expect_error(big, ERR_TOO_BIG, "8192");
    big[MSG_MAX_BYTES - 1] = '}';
    big[MSG_MAX_BYTES] = '\0';
    expect_error(big, ERR_UNKNOWN_TYPE, NULL); /* 8,192 bytes are allowed */
}

static void test_unknown_type(void **state)
{
    (void)state;
    expect_error("{}", ERR_UNKNOWN_TYPE, "type");
    expect_error("{\"type\":\"pong\"}", ERR_UNKNOWN_TYPE, NULL);
    expect_error("{\"type\":7}", ERR_UNKNOWN_TYPE, NULL);
    expect_error("{\"type\":\"create.ok\"}", ERR_UNKNOWN_TYPE, NULL);
}

static void test_ids(void **state)
{
    (void)state;
    expect_ok("{\"type\":\"ping\",\"id\":42}");
    assert_int_equal(request.id.kind, MSG_ID_INT);
    assert_int_equal(request.id.number, 42);
    expect_ok("{\"type\":\"ping\",\"id\":\"a-b\"}");
    assert_int_equal(request.id.kind, MSG_ID_TEXT);
    assert_string_equal(request.id.text, "a-b");
    expect_ok("{\"type\":\"ping\"}");
    assert_int_equal(request.id.kind, MSG_ID_NONE);
    expect_error("{\"type\":\"ping\",\"id\":1.5}", ERR_BAD_FIELD, "id");
    expect_error("{\"type\":\"ping\",\"id\":[1]}", ERR_BAD_FIELD, "id");
    char text[200];
    snprintf(text, sizeof text, "{\"type\":\"ping\",\"id\":\"%065d\"}", 0);
    expect_error(text, ERR_BAD_FIELD, "id");
    /* The id is known even when a later field is wrong. */
    expect_error("{\"type\":\"move\",\"id\":9}", ERR_BAD_FIELD, "table");
    assert_int_equal(request.id.number, 9);
}

static void test_create(void **state)
{
    (void)state;
    expect_ok("{\"type\":\"create\",\"name\":\"Ann\",\"seats\":[\"me\",\"open\",\"invite\","
              "\"mcts:level=easy\"],\"rules\":[\"small-city\"],\"expansions\":[],"
              "\"info\":\"purist\",\"clock\":{\"mode\":\"fischer\",\"seconds\":300,"
              "\"increment\":10,\"on_timeout\":\"forfeit\"},\"listed\":false,\"estimates\":false,"
              "\"extra\":1}");
    assert_int_equal(request.type, MSG_CREATE);
    assert_int_equal(request.nseats, 4);
    assert_int_equal(request.seats[0].kind, SEAT_ME);
    assert_int_equal(request.seats[1].kind, SEAT_OPEN);
    assert_int_equal(request.seats[2].kind, SEAT_INVITE);
    assert_int_equal(request.seats[3].kind, SEAT_COMPUTER);
    assert_string_equal(request.seats[3].spec, "mcts:level=easy");
    /* The server's own network is a seat's to use. */
    expect_ok("{\"type\":\"create\",\"seats\":[\"open\",\"mcts:iters=50,net=default\"]}");
    assert_int_equal(request.seats[1].kind, SEAT_COMPUTER);
    assert_string_equal(request.seats[1].spec, "mcts:iters=50,net=default");
    expect_ok("{\"type\":\"create\",\"name\":\"Ann\",\"seats\":[\"me\",\"open\",\"invite\","
              "\"mcts:level=easy\"],\"rules\":[\"small-city\"],\"expansions\":[],"
              "\"info\":\"purist\",\"clock\":{\"mode\":\"fischer\",\"seconds\":300,"
              "\"increment\":10,\"on_timeout\":\"forfeit\"},\"listed\":false,\"estimates\":false,"
              "\"extra\":1}");
    assert_int_equal(request.rules.flags, CARC_RULE_SMALL_CITY);
    assert_int_equal(request.rules.expansions, 0);
    assert_int_equal(request.info, INFO_PURIST);
    assert_int_equal(request.clock.mode, CLOCK_FISCHER);
    assert_int_equal(request.clock.increment, 10);
    assert_int_equal(request.clock.on_timeout, TIMEOUT_FORFEIT);
    assert_int_equal(request.listed, 0);
    assert_int_equal(request.estimates, 0);
    expect_ok("{\"type\":\"create\",\"seats\":[\"open\",\"greedy\"]}");
    assert_int_equal(request.listed, 1);
    assert_int_equal(request.estimates, 1);
    assert_int_equal(request.clock.mode, CLOCK_NONE);
    assert_int_equal(request.info, INFO_CASUAL);
    assert_int_equal(request.rules.expansions, 0);
    /* A bounded table with its edge rule, eight seats, the draw-off. */
    expect_ok("{\"type\":\"create\",\"seats\":[\"open\",\"open\",\"open\",\"open\",\"open\","
              "\"open\",\"open\",\"greedy\"],\"rules\":[\"table=9x7\",\"table-edge-completes\"],"
              "\"first\":\"draw-off\"}");
    assert_int_equal(request.nseats, 8);
    assert_int_equal(request.rules.table_w, 9);
    assert_int_equal(request.rules.table_h, 7);
    assert_int_equal(request.rules.flags, CARC_RULE_TABLE_EDGE_COMPLETES);
    assert_int_equal(request.first, FIRST_DRAW_OFF);
    expect_ok("{\"type\":\"create\",\"seats\":[\"open\",\"greedy\"]}");
    assert_int_equal(request.rules.table_w, 0);
    assert_int_equal(request.first, FIRST_SEAT_ORDER);
    /* The River, with and without its variant (river.md). */
    expect_ok("{\"type\":\"create\",\"seats\":[\"open\",\"greedy\"],\"expansions\":[\"river\"]}");
    assert_int_equal(request.rules.expansions, CARC_EXPANSION_RIVER);
    assert_int_equal(request.rules.flags, 0);
    expect_ok("{\"type\":\"create\",\"seats\":[\"open\",\"greedy\"],\"expansions\":[\"river\"],"
              "\"rules\":[\"river-keep-start\",\"small-city\"]}");
    assert_int_equal(request.rules.expansions, CARC_EXPANSION_RIVER);
    assert_int_equal(request.rules.flags, CARC_RULE_RIVER_KEEP_START | CARC_RULE_SMALL_CITY);
    /* Traders & Builders, alone and with the others. */
    expect_ok("{\"type\":\"create\",\"seats\":[\"open\",\"greedy\"],"
              "\"expansions\":[\"traders-builders\"]}");
    assert_int_equal(request.rules.expansions, CARC_EXPANSION_TRADERS_BUILDERS);
    expect_ok("{\"type\":\"create\",\"seats\":[\"open\",\"greedy\"],\"expansions\":[\"river\","
              "\"inns-cathedrals\",\"traders-builders\"]}");
    assert_int_equal(request.rules.expansions, CARC_EXPANSION_RIVER |
                                                   CARC_EXPANSION_INNS_CATHEDRALS |
                                                   CARC_EXPANSION_TRADERS_BUILDERS);
}

static void test_create_errors(void **state)
{
    (void)state;
    expect_error("{\"type\":\"create\"}", ERR_BAD_FIELD, "seats");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\"]}", ERR_BAD_FIELD, "seats");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\",\"open\",\"open\",\"open\","
                 "\"open\",\"open\",\"open\",\"open\"]}",
                 ERR_BAD_FIELD, "seats");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"rules\":[\"table=4x5\"]}",
                 ERR_BAD_FIELD, "odd sizes");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"rules\":[\"table-edge-"
                 "completes\"]}",
                 ERR_BAD_FIELD, "needs rule table=WxH");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"first\":2}", ERR_BAD_FIELD,
                 "first");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",3]}", ERR_BAD_FIELD, "seats[1]");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"mcts:level=silly\"]}", ERR_BAD_FIELD,
                 "seats[1]");
    /* A client's computer seat never names a file for the server to open:
     * only the server's own network (net=default). */
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"mcts:net=/etc/passwd\"]}",
                 ERR_BAD_FIELD, "net=default");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"mcts:level=easy,net=x.carcnet\"]}",
                 ERR_BAD_FIELD, "net=default");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"mcts:net=default,net=/tmp/x\"]}",
                 ERR_BAD_FIELD, "net=default");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"mcts:net=defaults\"]}", ERR_BAD_FIELD,
                 "net=default");
    expect_error("{\"type\":\"create\",\"seats\":[\"me\",\"open\"]}", ERR_BAD_FIELD, "name");
    expect_error("{\"type\":\"create\",\"name\":\"A\",\"seats\":[\"me\",\"me\"]}", ERR_BAD_FIELD,
                 "'me'");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"rules\":[\"nope\"]}",
                 ERR_BAD_FIELD, "nope");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"rules\":\"x\"}",
                 ERR_BAD_FIELD, "rules");
    expect_error(
        "{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"expansions\":[\"atlantis\"]}",
        ERR_BAD_FIELD, "unknown expansion 'atlantis'");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"expansions\":\"river\"}",
                 ERR_BAD_FIELD, "expansions");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"expansions\":[\"river\","
                 "\"river\"]}",
                 ERR_BAD_FIELD, "named twice");
    expect_error(
        "{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"rules\":[\"river-keep-start\"]}",
        ERR_BAD_FIELD, "needs the river");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"info\":\"nosy\"}",
                 ERR_BAD_FIELD, "info");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"listed\":1}", ERR_BAD_FIELD,
                 "listed");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"estimates\":\"no\"}",
                 ERR_BAD_FIELD, "estimates");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"clock\":5}", ERR_BAD_FIELD,
                 "clock");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"clock\":{\"mode\":\"move\","
                 "\"seconds\":4}}",
                 ERR_BAD_FIELD, "seconds");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"clock\":{\"mode\":"
                 "\"fischer\",\"seconds\":60,\"increment\":601}}",
                 ERR_BAD_FIELD, "increment");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"clock\":{\"mode\":\"hour\","
                 "\"seconds\":60}}",
                 ERR_BAD_FIELD, "mode");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"clock\":{\"mode\":\"move\","
                 "\"seconds\":60,\"on_timeout\":\"cry\"}}",
                 ERR_BAD_FIELD, "on_timeout");
}

static void test_names(void **state)
{
    (void)state;
    expect_ok("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"Zoë 😀\"}");
    assert_string_equal(request.name, "Zoë 😀");
    expect_error("{\"type\":\"join\",\"table\":\"t1\"}", ERR_BAD_FIELD, "name");
    expect_error("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"\"}", ERR_BAD_FIELD, "name");
    expect_error("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"   \"}", ERR_BAD_FIELD, "name");
    expect_error("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"a\\nb\"}", ERR_BAD_FIELD, "name");
    expect_error("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"a\\u0085b\"}", ERR_BAD_FIELD,
                 "name");
    expect_error(
        "{\"type\":\"join\",\"table\":\"t1\",\"name\":\"123456789012345678901234567890123\"}",
        ERR_BAD_FIELD, "name");
    expect_ok("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"12345678901234567890123456789012\"}");
    expect_error("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"A\",\"seat\":8}", ERR_BAD_FIELD,
                 "seat");
    expect_error("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"A\",\"invite\":5}", ERR_BAD_FIELD,
                 "invite");
    assert_true(msg_printable("abc", 3));
    assert_false(msg_printable("abcd", 3));
    assert_false(msg_printable("\xc3", 8));         /* cut short */
    assert_false(msg_printable("\xc0\xaf", 8));     /* overlong */
    assert_false(msg_printable("\xed\xa0\x80", 8)); /* a surrogate */
    assert_false(msg_printable("a\x7f", 8));
}

/* Request keys of create and join; reopen names its seat. */
static void test_keys_and_reopen(void **state)
{
    (void)state;
    expect_ok("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"A\",\"key\":"
              "\"0b7e3c1a-9f1e-4c1d-8a2b-3c4d5e6f7a8b\"}");
    assert_string_equal(request.key, "0b7e3c1a-9f1e-4c1d-8a2b-3c4d5e6f7a8b");
    expect_ok("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"key\":\"abcdefghijklmnop\"}");
    expect_ok("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"A\"}");
    assert_string_equal(request.key, "");
    expect_error("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"A\",\"key\":\"abc\"}",
                 ERR_BAD_FIELD, "key");
    expect_error("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"A\",\"key\":"
                 "\"abcdefghijklmnop qrs\"}",
                 ERR_BAD_FIELD, "key");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"key\":7}", ERR_BAD_FIELD,
                 "key");
    expect_ok("{\"type\":\"reopen\",\"table\":\"t1\",\"seat\":2}");
    assert_int_equal(request.type, MSG_REOPEN);
    assert_int_equal(request.seat, 2);
    expect_error("{\"type\":\"reopen\",\"table\":\"t1\"}", ERR_BAD_FIELD, "seat");
}

/* Display names: format characters, separators and characters that draw
 * nothing are refused, spaces trimmed, a visible character required. */
static void test_display_names(void **state)
{
    (void)state;
    static const char *const refused[] = {
        "Ann\u200b",       /* zero-width space: looks like "Ann" */
        "\u202eAnn",       /* right-to-left override */
        "A\u2066nn\u2069", /* isolates */
        "An\u200dn",       /* zero-width joiner */
        "\ufeffAnn",       /* zero-width no-break space */
        "Ann\u2028Bob",    /* line separator */
        "Ann\u2029",       /* paragraph separator */
        "\u2060",          /* word joiner alone */
        "A\u00adnn",       /* soft hyphen */
        "\u3164",          /* Hangul filler */
        "\u2800\u2800",    /* blank braille */
        "Ann\ufe0f",       /* variation selector */
        "\u3000\u00a0 ",   /* only spaces of other kinds */
        "\u0301\u0301",    /* only combining marks */
        "\ue000",          /* private use */
        "\U000E0041nn",    /* a tag character */
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"type\":\"join\",\"table\":\"t1\",\"name\":\"%s\"}",
                 refused[i]);
        expect_error(text, ERR_BAD_FIELD, "visible");
    }
    expect_ok("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"  \u3000Ann Lee\u00a0 \"}");
    assert_string_equal(request.name, "Ann Lee");
    expect_ok("{\"type\":\"create\",\"name\":\" Zoe\",\"seats\":[\"me\",\"open\"]}");
    assert_string_equal(request.name, "Zoe");
    expect_ok("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"Jose\u0301\"}");
    expect_ok("{\"type\":\"join\",\"table\":\"t1\",\"name\":\"\u05d0\u05d1\"}"); /* Hebrew */
    char name[40] = " \xe2\x80\x8b";
    assert_false(msg_display_name(name, 32));
    assert_string_equal(name, " \xe2\x80\x8b"); /* unchanged */
    snprintf(name, sizeof name, " abc ");
    assert_false(msg_display_name(name, 2));
    assert_true(msg_display_name(name, 3));
    assert_string_equal(name, "abc");
}

static void test_table_requests(void **state)
{
    (void)state;
    static const char *const types[] = {"watch", "leave", "legal", "sync", "record"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"type\":\"%s\",\"table\":\"tabc\"}", types[i]);
        expect_ok(text);
        assert_string_equal(request.table, "tabc");
        snprintf(text, sizeof text, "{\"type\":\"%s\"}", types[i]);
        expect_error(text, ERR_BAD_FIELD, "table");
        snprintf(text, sizeof text, "{\"type\":\"%s\",\"table\":1}", types[i]);
        expect_error(text, ERR_BAD_FIELD, "table");
        snprintf(text, sizeof text, "{\"type\":\"%s\",\"table\":\"\"}", types[i]);
        expect_error(text, ERR_BAD_FIELD, "table");
    }
    expect_error("{\"type\":\"watch\",\"table\":\"123456789012345678901234567890123\"}",
                 ERR_BAD_FIELD, "table");
}

static void test_move(void **state)
{
    (void)state;
    expect_ok("{\"type\":\"move\",\"table\":\"t\",\"turn\":12,\"move\":\"E 0 -1 2 S\"}");
    assert_int_equal(request.turn, 12);
    assert_string_equal(request.move, "E 0 -1 2 S");
    expect_error("{\"type\":\"move\",\"table\":\"t\",\"move\":\"E 0 -1 2\"}", ERR_BAD_FIELD,
                 "turn");
    expect_error("{\"type\":\"move\",\"table\":\"t\",\"turn\":-1,\"move\":\"x\"}", ERR_BAD_FIELD,
                 "turn");
    expect_error("{\"type\":\"move\",\"table\":\"t\",\"turn\":\"1\",\"move\":\"x\"}", ERR_BAD_FIELD,
                 "turn");
    expect_error("{\"type\":\"move\",\"table\":\"t\",\"turn\":1}", ERR_BAD_FIELD, "move");
    expect_error("{\"type\":\"move\",\"table\":\"t\",\"turn\":1,\"move\":\"\"}", ERR_BAD_FIELD,
                 "move");
    expect_error("{\"type\":\"move\",\"table\":\"t\",\"turn\":1,\"move\":\"E\\n0\"}", ERR_BAD_FIELD,
                 "move");
}

static void test_resume_and_mine(void **state)
{
    (void)state;
    expect_ok(
        "{\"type\":\"resume\",\"table\":\"t\",\"token\":\"00112233445566778899AABBCCDDEEFF\"}");
    assert_int_equal(request.token[0], 0x00);
    assert_int_equal(request.token[15], 0xff);
    expect_error("{\"type\":\"resume\",\"table\":\"t\",\"token\":\"0011\"}", ERR_BAD_TOKEN,
                 "token");
    expect_error(
        "{\"type\":\"resume\",\"table\":\"t\",\"token\":\"zz112233445566778899aabbccddeeff\"}",
        ERR_BAD_TOKEN, "token");
    /* Without a token (zeros): the seat of the connection's account. */
    expect_ok("{\"type\":\"resume\",\"table\":\"t\"}");
    for (int i = 0; i < TOKEN_BYTES; i++)
        assert_int_equal(request.token[i], 0);
    expect_error("{\"type\":\"resume\",\"table\":\"t\",\"token\":5}", ERR_BAD_FIELD, "token");
    expect_ok("{\"type\":\"mine\",\"seats\":[{\"table\":\"a\",\"token\":"
              "\"00112233445566778899aabbccddeeff\"},{\"table\":\"b\",\"token\":\"bad\"}]}");
    assert_int_equal(request.nmine, 2);
    assert_true(request.mine[0].valid);
    assert_false(request.mine[1].valid);
    expect_error("{\"type\":\"mine\",\"seats\":[1]}", ERR_BAD_FIELD, "seats[0]");
    expect_error("{\"type\":\"mine\"}", ERR_BAD_FIELD, "seats");
}

static void test_others(void **state)
{
    (void)state;
    expect_ok("{\"type\":\"estimate\",\"table\":\"tq7x2mfk9ab\"}");
    assert_int_equal(request.type, MSG_ESTIMATE);
    assert_int_equal(request.on, 1);
    expect_ok("{\"type\":\"estimate\",\"table\":\"tq7x2mfk9ab\",\"on\":false}");
    assert_int_equal(request.on, 0);
    expect_error("{\"type\":\"estimate\",\"table\":\"tq7x2mfk9ab\",\"on\":0}", ERR_BAD_FIELD, "on");
    expect_ok("{\"type\":\"hello\",\"client\":\"bot\"}");
    assert_string_equal(request.client, "bot");
    expect_ok("{\"type\":\"lobby\"}");
    expect_ok("{\"type\":\"chat\",\"table\":\"t\",\"text\":\"good luck\"}");
    expect_error("{\"type\":\"chat\",\"table\":\"t\",\"text\":\"\"}", ERR_BAD_FIELD, "text");
    char text[400];
    snprintf(text, sizeof text, "{\"type\":\"chat\",\"table\":\"t\",\"text\":\"%0201d\"}", 0);
    expect_error(text, ERR_BAD_FIELD, "text");
    expect_ok("{\"type\":\"review\",\"table\":\"t\"}");
    assert_int_equal(request.ms, 200);
    expect_ok("{\"type\":\"review\",\"table\":\"t\",\"ms\":10}");
    expect_error("{\"type\":\"review\",\"table\":\"t\",\"ms\":9}", ERR_BAD_FIELD, "ms");
    for (int e = ERR_BAD_JSON; e < ERR_CODES; e++)
        assert_true(strlen(msg_error_name((msg_error)e)) > 0);
    assert_string_equal(msg_error_name(ERR_NOT_YOUR_TURN), "not_your_turn");
    /* takeback and resign name a table; takeback's accept is a boolean. */
    expect_ok("{\"type\":\"takeback\",\"table\":\"t\"}");
    assert_int_equal(request.type, MSG_TAKEBACK);
    assert_int_equal(request.on, 1);
    expect_ok("{\"type\":\"takeback\",\"table\":\"t\",\"accept\":false}");
    assert_int_equal(request.on, 0);
    expect_error("{\"type\":\"takeback\",\"table\":\"t\",\"accept\":\"no\"}", ERR_BAD_FIELD,
                 "accept");
    expect_error("{\"type\":\"takeback\"}", ERR_BAD_FIELD, "table");
    expect_ok("{\"type\":\"rematch\",\"table\":\"t\",\"accept\":false}");
    assert_int_equal(request.type, MSG_REMATCH);
    assert_int_equal(request.on, 0);
    expect_ok("{\"type\":\"resign\",\"table\":\"t\"}");
    assert_int_equal(request.type, MSG_RESIGN);
    expect_error("{\"type\":\"resign\"}", ERR_BAD_FIELD, "table");
}

/* A days clock: 1 to 14 days a move, kept as seconds. */
static void test_days_clock(void **state)
{
    (void)state;
    expect_ok("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"clock\":{\"mode\":\"days\","
              "\"days\":3}}");
    assert_int_equal(request.clock.mode, CLOCK_DAYS);
    assert_int_equal(request.clock.seconds, 3 * 86400);
    assert_int_equal(request.clock.on_timeout, TIMEOUT_COMPUTER);
    expect_ok("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"clock\":{\"mode\":\"days\","
              "\"days\":14,\"on_timeout\":\"forfeit\"}}");
    assert_int_equal(request.clock.on_timeout, TIMEOUT_FORFEIT);
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"clock\":{\"mode\":"
                 "\"days\",\"days\":15}}",
                 ERR_BAD_FIELD, "days");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"clock\":{\"mode\":"
                 "\"days\",\"days\":0}}",
                 ERR_BAD_FIELD, "days");
    expect_error("{\"type\":\"create\",\"seats\":[\"open\",\"open\"],\"clock\":{\"mode\":"
                 "\"days\"}}",
                 ERR_BAD_FIELD, "days");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_json),
        cmocka_unit_test(test_too_big),
        cmocka_unit_test(test_unknown_type),
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_create),
        cmocka_unit_test(test_create_errors),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_display_names),
        cmocka_unit_test(test_keys_and_reopen),
        cmocka_unit_test(test_table_requests),
        cmocka_unit_test(test_move),
        cmocka_unit_test(test_resume_and_mine),
        cmocka_unit_test(test_others),
        cmocka_unit_test(test_days_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
