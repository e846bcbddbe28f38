/* rules.c: rule options, their names in the record notation, and lists of
 * those names parsed and formatted in one place. */
#include <stdio.h>
#include <string.h>

#include "rules.h"

static const struct {
    uint32_t flag;
    const char *name;
} rule_names[] = {
    {CARC_RULE_FARMS_FIRST_EDITION, "farms-first-edition"}, {CARC_RULE_SMALL_CITY, "small-city"},
    {CARC_RULE_NO_INCOMPLETE, "no-incomplete-scoring"},     {CARC_RULE_BONUS_TURN, "bonus-turn"},
    {CARC_RULE_RIVER_KEEP_START, "river-keep-start"},
};

static const struct {
    uint32_t flag;
    const char *name;
} expansion_names[] = {
    {CARC_EXPANSION_RIVER, "river"},
    {CARC_EXPANSION_INNS_CATHEDRALS, "inns-cathedrals"},
    {CARC_EXPANSION_TRADERS_BUILDERS, "traders-builders"},
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

uint32_t carc_expansion_flag(const char *name)
{
    if (!name)
        return 0;
    for (size_t i = 0; i < sizeof expansion_names / sizeof expansion_names[0]; i++)
        if (strcmp(name, expansion_names[i].name) == 0)
            return expansion_names[i].flag;
    return 0;
}

const char *carc_expansion_name(uint32_t flag)
{
    for (size_t i = 0; i < sizeof expansion_names / sizeof expansion_names[0]; i++)
        if (expansion_names[i].flag == flag)
            return expansion_names[i].name;
    return NULL;
}

static void set_error(char *err, size_t errcap, const char *message)
{
    if (err && errcap)
        snprintf(err, errcap, "%s", message);
}

carc_status carc_rules_check(const carc_rules *rules, char *err, size_t errcap)
{
    uint32_t known = 0;
    for (size_t i = 0; i < sizeof rule_names / sizeof rule_names[0]; i++)
        known |= rule_names[i].flag;
    if (!rules) {
        set_error(err, errcap, "no rules given");
        return CARC_EINVAL;
    }
    if (rules->flags & ~known) {
        set_error(err, errcap, "unknown rule flags");
        return CARC_EINVAL;
    }
    if (rules->expansions & ~(uint32_t)CARC_EXPANSIONS_SUPPORTED) {
        uint32_t bit = rules->expansions & ~(uint32_t)CARC_EXPANSIONS_SUPPORTED;
        bit &= ~(bit - 1);
        const char *name = carc_expansion_name(bit);
        if (err && errcap)
            snprintf(err, errcap, "expansion %s is not playable in this version",
                     name ? name : "(unknown)");
        return CARC_EINVAL;
    }
    if ((rules->flags & CARC_RULE_RIVER_KEEP_START) &&
        !(rules->expansions & CARC_EXPANSION_RIVER)) {
        set_error(err, errcap, "rule river-keep-start needs the river expansion");
        return CARC_EINVAL;
    }
    set_error(err, errcap, "");
    return CARC_OK;
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
    carc_rules parsed = *rules;
    if (rules_parse_names(text, strlen(text), 1, &parsed, err, errcap) < 0)
        return CARC_EINVAL;
    *rules = parsed;
    return CARC_OK;
}

/* The expansion flag of `name` (`len` bytes, not NUL-terminated), or 0. */
static uint32_t expansion_of(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof expansion_names / sizeof expansion_names[0]; i++)
        if (strlen(expansion_names[i].name) == len &&
            memcmp(expansion_names[i].name, name, len) == 0)
            return expansion_names[i].flag;
    return 0;
}

int rules_parse_expansions(const char *text, size_t len, int commas, carc_rules *out, char *err,
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
        int shown = (int)(i - start < 40 ? i - start : 40);
        uint32_t flag = expansion_of(text + start, i - start);
        if (!flag || (flags & flag)) {
            if (err && errcap)
                snprintf(err, errcap,
                         flag ? "expansion '%.*s' is named twice" : "unknown expansion '%.*s'",
                         shown, text + start);
            return -1;
        }
        flags |= flag;
    }
    out->expansions = flags;
    if (err && errcap)
        err[0] = '\0';
    return 0;
}

carc_status carc_expansions_parse(const char *text, carc_rules *rules, char *err, size_t errcap)
{
    if (!text || !rules) {
        set_error(err, errcap, "no expansions given");
        return CARC_EINVAL;
    }
    carc_rules parsed = *rules;
    if (rules_parse_expansions(text, strlen(text), 1, &parsed, err, errcap) < 0)
        return CARC_EINVAL;
    *rules = parsed;
    return CARC_OK;
}

/* Writes the names of the bits of `bits` that `name_of` names. */
static size_t format_names(uint32_t bits, const char *(*name_of)(uint32_t), char *buf, size_t cap,
                           const char *sep)
{
    size_t len = 0, sep_len = strlen(sep ? sep : " ");
    if (buf && cap)
        buf[0] = '\0';
    for (uint32_t bit = 1; bit; bit <<= 1) {
        const char *name = (bits & bit) ? name_of(bit) : NULL;
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

size_t carc_rules_format(carc_rules rules, char *buf, size_t cap, const char *sep)
{
    return format_names(rules.flags, carc_rule_name, buf, cap, sep);
}

size_t carc_expansions_format(carc_rules rules, char *buf, size_t cap, const char *sep)
{
    return format_names(rules.expansions, carc_expansion_name, buf, cap, sep);
}

int carc_feature_worth(const carc_rules *rules, int kind, int tiles, int pennants, int complete)
{
    switch (kind) {
    case CARC_ROAD:
    case CARC_CLOISTER: return tiles;
    case CARC_CITY:
        if (!complete || ((rules->flags & CARC_RULE_SMALL_CITY) && tiles == 2))
            return tiles + pennants;
        return 2 * (tiles + pennants);
    case CARC_FIELD: return (rules->flags & CARC_RULE_FARMS_FIRST_EDITION ? 4 : 3) * tiles;
    default: return 0;
    }
}
