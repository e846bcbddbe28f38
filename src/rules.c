/* rules.c: rule options, their names in the record notation, and lists of
 * those names parsed and formatted in one place. */
#include <stdio.h>
#include <string.h>

#include "rules.h"

/* A flag and its name in the record notation. */
typedef struct named_flag {
    uint32_t flag;
    const char *name;
} named_flag;

/* A list of names: the rule variants or the expansions. */
typedef struct name_list {
    const named_flag *names;
    size_t count;
    const char *what; /* "rule", "expansion": for messages */
    int once;         /* naming one twice is an error */
} name_list;

static const named_flag rule_names[] = {
    {CARC_RULE_FARMS_FIRST_EDITION, "farms-first-edition"}, {CARC_RULE_SMALL_CITY, "small-city"},
    {CARC_RULE_NO_INCOMPLETE, "no-incomplete-scoring"},     {CARC_RULE_BONUS_TURN, "bonus-turn"},
    {CARC_RULE_RIVER_KEEP_START, "river-keep-start"},
};

static const named_flag expansion_names[] = {
    {CARC_EXPANSION_RIVER, "river"},
    {CARC_EXPANSION_INNS_CATHEDRALS, "inns-cathedrals"},
    {CARC_EXPANSION_TRADERS_BUILDERS, "traders-builders"},
};

static const name_list rules_list = {rule_names, sizeof rule_names / sizeof rule_names[0], "rule",
                                     0};
static const name_list expansions_list = {
    expansion_names, sizeof expansion_names / sizeof expansion_names[0], "expansion", 1};

/* The flag of the name of `len` bytes at `name` (no NUL needed), or 0. */
static uint32_t flag_of(const name_list *list, const char *name, size_t len)
{
    for (size_t i = 0; name && i < list->count; i++)
        if (strlen(list->names[i].name) == len && memcmp(list->names[i].name, name, len) == 0)
            return list->names[i].flag;
    return 0;
}

static const char *name_of(const name_list *list, uint32_t flag)
{
    for (size_t i = 0; i < list->count; i++)
        if (list->names[i].flag == flag)
            return list->names[i].name;
    return NULL;
}

carc_rules carc_rules_standard(void)
{
    return (carc_rules){0};
}

uint32_t carc_rule_flag(const char *name)
{
    return name ? flag_of(&rules_list, name, strlen(name)) : 0;
}

const char *carc_rule_name(uint32_t flag)
{
    return name_of(&rules_list, flag);
}

uint32_t carc_expansion_flag(const char *name)
{
    return name ? flag_of(&expansions_list, name, strlen(name)) : 0;
}

const char *carc_expansion_name(uint32_t flag)
{
    return name_of(&expansions_list, flag);
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

/* Reads the names of `list` in `text` (`len` bytes) into `*flags`;
 * returns 0, or -1 with the message in `err`. */
static int parse_list(const name_list *list, const char *text, size_t len, int commas,
                      uint32_t *flags, char *err, size_t errcap)
{
    uint32_t read = 0;
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
        uint32_t flag = flag_of(list, text + start, i - start);
        if (!flag || (list->once && (read & flag))) {
            if (err && errcap)
                snprintf(err, errcap, flag ? "%s '%.*s' is named twice" : "unknown %s '%.*s'",
                         list->what, shown, text + start);
            return -1;
        }
        read |= flag;
    }
    *flags = read;
    if (err && errcap)
        err[0] = '\0';
    return 0;
}

int rules_parse_names(const char *text, size_t len, int commas, carc_rules *out, char *err,
                      size_t errcap)
{
    return parse_list(&rules_list, text, len, commas, &out->flags, err, errcap);
}

int rules_parse_expansions(const char *text, size_t len, int commas, carc_rules *out, char *err,
                           size_t errcap)
{
    return parse_list(&expansions_list, text, len, commas, &out->expansions, err, errcap);
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
static size_t format_names(uint32_t bits, const char *(*name_fn)(uint32_t), char *buf, size_t cap,
                           const char *sep)
{
    size_t len = 0, sep_len = strlen(sep ? sep : " ");
    if (buf && cap)
        buf[0] = '\0';
    for (uint32_t bit = 1; bit; bit <<= 1) {
        const char *name = (bits & bit) ? name_fn(bit) : NULL;
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

int carc_feature_worth(const carc_rules *rules, int kind, int tiles, int pennants, unsigned marks,
                       int complete)
{
    switch (kind) {
    case CARC_ROAD:
        if (marks & CARC_MARK_INN)
            return complete ? 2 * tiles : 0;
        return tiles;
    case CARC_CLOISTER: return tiles;
    case CARC_CITY:
        if (marks & CARC_MARK_CATHEDRAL)
            return complete ? 3 * (tiles + pennants) : 0;
        if (!complete || ((rules->flags & CARC_RULE_SMALL_CITY) && tiles == 2))
            return tiles + pennants;
        return 2 * (tiles + pennants);
    case CARC_FIELD: return (rules->flags & CARC_RULE_FARMS_FIRST_EDITION ? 4 : 3) * tiles;
    default: return 0;
    }
}
