/* fuzz_rules.c: libFuzzer harness for the rule-list parser and the header
 * builder. The first byte chooses: even, the rest is a rule list, parsed,
 * formatted with both separators and parsed back to the same rules; odd,
 * the rest is "KEY VALUE" for carc_header_check and carc_header_append,
 * whose line must read back, through the header reader, as that key and
 * value. A refusal must leave the caller's data unchanged. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carcassonne.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_rules: %s\n", what);
        abort();
    }
}

static void fuzz_rule_list(const char *text)
{
    carc_rules rules = {.flags = 0xF0F0F0F0u};
    char err[64];
    if (carc_rules_parse(text, &rules, err, sizeof err) != CARC_OK) {
        check(rules.flags == 0xF0F0F0F0u, "a refused list changed the rules");
        check(err[0] != '\0', "a refusal without a message");
        return;
    }
    check(err[0] == '\0', "a message on success");
    static const char *const seps[] = {" ", ",", ", "};
    for (int i = 0; i < 3; i++) {
        char buf[256];
        size_t n = carc_rules_format(rules, buf, sizeof buf, seps[i]);
        check(n < sizeof buf && strlen(buf) == n, "format length");
        carc_rules back = {.flags = 0};
        check(carc_rules_parse(buf, &back, NULL, 0) == CARC_OK, "a formatted list is refused");
        check(back.flags == rules.flags, "a formatted list reads back otherwise");
    }
}

static void fuzz_header(const char *text)
{
    static char key[4200], value[4200];
    const char *space = strchr(text, ' ');
    size_t key_len = space ? (size_t)(space - text) : strlen(text);
    snprintf(key, sizeof key, "%.*s", (int)key_len, text);
    snprintf(value, sizeof value, "%s", space ? space + 1 : "");
    char buf[4200] = "players 2\n";
    char before[sizeof buf];
    memcpy(before, buf, sizeof buf);
    char err[80];
    carc_status ok = carc_header_check(key, value, err, sizeof err);
    carc_status appended = carc_header_append(buf, sizeof buf, key, value);
    if (ok != CARC_OK || appended != CARC_OK) {
        check(ok != CARC_OK || strlen(key) + strlen(value) + 12 > sizeof buf,
              "a checked header not appended");
        check(memcmp(buf, before, sizeof buf) == 0, "a refused header changed the buffer");
        return;
    }
    carc_header h[3];
    carc_record_error rerr;
    int n = carc_record_headers(buf, strlen(buf), h, 3, &rerr);
    if (n != 2)
        fprintf(stderr, "%d: line %d: %s\n", n, rerr.line, rerr.message);
    check(n == 2, "an appended header does not read back");
    check(h[1].key_len == strlen(key) && memcmp(h[1].key, key, h[1].key_len) == 0, "key differs");
    check(h[1].value_len == strlen(value) && memcmp(h[1].value, value, h[1].value_len) == 0,
          "value differs");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4200)
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0'; /* stops at the first NUL of the input too */
    if (data[0] & 1)
        fuzz_header(text);
    else
        fuzz_rule_list(text);
    free(text);
    return 0;
}
