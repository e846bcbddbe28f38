/* rules.c: rule options, their names in the record notation, and lists of
 * those names parsed and formatted in one place. */
#include <stdio.h>
#include <string.h>

#include "game.h"

static const struct {
    uint32_t flag;
    const char *name;
} rule_names[] = {
    {CARC_RULE_FARMS_FIRST_EDITION, "farms-first-edition"},
    {CARC_RULE_SMALL_CITY, "small-city"},
    {CARC_RULE_NO_INCOMPLETE, "no-incomplete-scoring"},
    {CARC_RULE_BONUS_TURN, "bonus-turn"},
};

carc_rules carc_rules_standard(void)
{
    return (carc_rules){0};
}

uint32_t carc_rule_flag(const char *name)
{
    if (!name)
        return 0;
    for (size_t i = 0; i < sizeof rule_names / sizeof rule_names[0]; i++)
        if (strcmp(name, rule_names[i].name) == 0)
            return rule_names[i].flag;
    return 0;
}

const char *carc_rule_name(uint32_t flag)
{
    for (size_t i = 0; i < sizeof rule_names / sizeof rule_names[0]; i++)
        if (rule_names[i].flag == flag)
            return rule_names[i].name;
    return NULL;
}

static int is_separator(char c, int commas)
{
    return c == ' ' || c == '\t' || (commas && c == ',');
}

/* The flag of the name `name` of `len` bytes (not NUL-terminated), or 0. */
static uint32_t flag_of(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof rule_names / sizeof rule_names[0]; i++)
        if (strlen(rule_names[i].name) == len && memcmp(rule_names[i].name, name, len) == 0)
            return rule_names[i].flag;
    return 0;
}

int rules_parse_names(const char *text, size_t len, int commas, carc_rules *out, char *err,
                      size_t errcap)
{
    uint32_t flags = 0;
    size_t i = 0;
    for (;;) {
        while (i < len && is_separator(text[i], commas))
            i++;
        if (i == len)
            break;
        size_t start = i;
        while (i < len && !is_separator(text[i], commas))
            i++;
        uint32_t flag = flag_of(text + start, i - start);
        if (!flag) {
            if (err && errcap)
                snprintf(err, errcap, "unknown rule '%.*s'", (int)(i - start < 40 ? i - start : 40),
                         text + start);
            return -1;
        }
        flags |= flag;
    }
    out->flags = flags;
    if (err && errcap)
        err[0] = '\0';
    return 0;
}

carc_status carc_rules_parse(const char *text, carc_rules *rules, char *err, size_t errcap)
{
    if (!text || !rules) {
        if (err && errcap)
            snprintf(err, errcap, "no rules given");
        return CARC_EINVAL;
    }
    carc_rules parsed;
    if (rules_parse_names(text, strlen(text), 1, &parsed, err, errcap) < 0)
        return CARC_EINVAL;
    *rules = parsed;
    return CARC_OK;
}

size_t carc_rules_format(carc_rules rules, char *buf, size_t cap, const char *sep)
{
    size_t len = 0, sep_len = strlen(sep ? sep : " ");
    if (buf && cap)
        buf[0] = '\0';
    for (uint32_t bit = 1; bit; bit <<= 1) {
        const char *name = (rules.flags & bit) ? carc_rule_name(bit) : NULL;
        if (!name)
            continue;
        size_t start = len;
        if (len > 0)
            len += sep_len;
        size_t name_len = strlen(name);
        len += name_len;
        if (buf && len < cap) {
            if (start > 0)
                memcpy(buf + start, sep ? sep : " ", sep_len);
            memcpy(buf + len - name_len, name, name_len);
            buf[len] = '\0';
        }
    }
    return len;
}
