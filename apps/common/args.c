/* args.c: reading the command line, shared by every command (see args.h). */
#include "args.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *cli_read_file(const char *path, size_t limit, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (n == cap) {
            char *bigger = cap > limit ? NULL : realloc(buf, 2 * cap + 1);
            if (!bigger)
                break;
            buf = bigger;
            cap *= 2;
        }
        size_t want = cap - n;
        size_t got = fread(buf + n, 1, want, f);
        n += got;
        if (got < want || n > limit)
            break;
    }
    int failed = !buf || ferror(f);
    if (f != stdin)
        fclose(f);
    if (failed) {
        free(buf);
        errno = errno ? errno : EIO;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 20)
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno == ERANGE) /* past 18446744073709551615 */
        return -1;
    *out = (uint64_t)v;
    return 0;
}

__attribute__((format(printf, 3, 0))) static int usage_verror(const char *cmd, const char *help,
                                                              const char *fmt, va_list ap)
{
    fprintf(stderr, "carcassonne %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'carcassonne %s --help'.\n", help);
    return EXIT_USAGE;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int status = usage_verror(cmd, cmd, fmt, ap);
    va_end(ap);
    return status;
}

int cli_usage_error_help(const char *cmd, const char *help, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int status = usage_verror(cmd, help, fmt, ap);
    va_end(ap);
    return status;
}

const char *cli_player_name(int player)
{
    static const char *const names[CARC_MAX_PLAYERS] = {
        "Red", "Blue", "Yellow", "Green", "Black", "Grey", "Purple", "Pink",
    };
    return player >= 0 && player < CARC_MAX_PLAYERS ? names[player] : "?";
}

int cli_parse_expansions(const char *cmd, const char *text, carc_rules *rules)
{
    char why[160] = "";
    if (carc_expansions_parse(text, rules, why, sizeof why) != CARC_OK)
        return cli_usage_error(cmd, "--expansions: %s", why[0] ? why : "bad list");
    return 0;
}

int cli_parse_rules(const char *cmd, const char *text, carc_rules *rules)
{
    carc_rules more = {.flags = 0};
    char why[160] = "";
    if (carc_rules_parse(text, &more, why, sizeof why) != CARC_OK)
        return cli_usage_error(cmd, "--rules: %s", why[0] ? why : "bad list");
    *rules = carc_rules_merge(*rules, more);
    return 0;
}

int cli_check_rules(const char *cmd, const carc_rules *rules)
{
    char why[160] = "";
    if (carc_rules_check(rules, why, sizeof why) != CARC_OK)
        return cli_usage_error(cmd, "%s",
                               why[0] ? why : "these rules and expansions cannot be played");
    return 0;
}

const char *cli_expansions_text(carc_rules rules, char *buf, size_t cap, const char *sep,
                                const char *none)
{
    if (carc_expansions_format(rules, buf, cap, sep) == 0)
        snprintf(buf, cap, "%s", none);
    return buf;
}
