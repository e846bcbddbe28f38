/* rules.c: rule options, their names in the record notation, and lists of
 * those names parsed and formatted in one place. */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "rules.h"

/* A flag, its name in the record notation and (an expansion's) title. */
typedef struct named_flag {
    uint32_t flag;
    const char *name;
    const char *title;
} named_flag;

/* A list of names: the rule variants or the expansions. */
typedef struct name_list {
    const named_flag *names;
    size_t count;
    const char *what; /* "rule", "expansion": for messages */
    int once;         /* naming one twice is an error */
} name_list;

static const named_flag rule_names[] = {
    {CARC_RULE_FARMS_FIRST_EDITION, "farms-first-edition", NULL},
    {CARC_RULE_SMALL_CITY, "small-city", NULL},
    {CARC_RULE_NO_INCOMPLETE, "no-incomplete-scoring", NULL},
    {CARC_RULE_BONUS_TURN, "bonus-turn", NULL},
    {CARC_RULE_RIVER_KEEP_START, "river-keep-start", NULL},
    {CARC_RULE_OPEN_HANDS, "open-hands", NULL},
    {CARC_RULE_RESHUFFLE, "reshuffle", NULL},
    {CARC_RULE_START_IN_PILE, "start-in-pile", NULL},
    {CARC_RULE_TABLE_EDGE_COMPLETES, "table-edge-completes", NULL},
    {CARC_RULE_EXTRA_START_TILE, "extra-start-tile", NULL},
};

/* The house rules this version plays, of those it can read: a rule is added
 * here by the commit that plays it. carc_rules_check() refuses the others
 * ("not playable in this version"), so that a record or a front end never
 * plays a rule the engine would ignore. */
enum {
    PLAYABLE_FLAGS = CARC_RULE_FARMS_FIRST_EDITION | CARC_RULE_SMALL_CITY |
                     CARC_RULE_NO_INCOMPLETE | CARC_RULE_BONUS_TURN | CARC_RULE_RIVER_KEEP_START |
                     CARC_RULE_OPEN_HANDS | CARC_RULE_RESHUFFLE | CARC_RULE_START_IN_PILE |
                     CARC_RULE_TABLE_EDGE_COMPLETES | CARC_RULE_EXTRA_START_TILE,
    PLAYABLE_HAND = CARC_MAX_HAND, /* largest hand=N played; 0: none */
    PLAYABLE_TABLE = 1,            /* whether table=WxH is played */
};

static const named_flag expansion_names[] = {
    {CARC_EXPANSION_RIVER, "river", "The River"},
    {CARC_EXPANSION_INNS_CATHEDRALS, "inns-cathedrals", "Inns & Cathedrals"},
    {CARC_EXPANSION_TRADERS_BUILDERS, "traders-builders", "Traders & Builders"},
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

unsigned rules_record_lines(const carc_rules *rules)
{
    unsigned lines = 0;
    if (rules->hand)
        lines |= RECORD_DRAW_LINES;
    if (rules->flags & (CARC_RULE_START_IN_PILE | CARC_RULE_EXTRA_START_TILE))
        lines |= RECORD_START_WORD;
    if (rules->flags & CARC_RULE_START_IN_PILE)
        lines |= RECORD_START_LINE;
    return lines;
}

int rules_extra_tiles(const carc_rules *rules)
{
    return (rules->flags & CARC_RULE_EXTRA_START_TILE) ? 1 : 0;
}

const char *rules_figure_word(int figure)
{
    /* Inns & Cathedrals' large follower; Traders & Builders' builder and pig. */
    static const char *const words[CARC_FIGURES] = {"", "large", "builder", "pig"};
    return figure >= 0 && figure < CARC_FIGURES ? words[figure] : "";
}

const char *rules_figure_expansion(int figure)
{
    if (figure == CARC_FIGURE_LARGE)
        return carc_expansion_title(CARC_EXPANSION_INNS_CATHEDRALS);
    if (figure == CARC_FIGURE_BUILDER || figure == CARC_FIGURE_PIG)
        return carc_expansion_title(CARC_EXPANSION_TRADERS_BUILDERS);
    return "";
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

const char *carc_expansion_title(uint32_t flag)
{
    for (size_t i = 0; i < expansions_list.count; i++)
        if (expansions_list.names[i].flag == flag)
            return expansions_list.names[i].title;
    return NULL;
}

static int table_size_ok(int n)
{
    return n >= CARC_MIN_TABLE && n <= CARC_MAX_TABLE && n % 2 == 1;
}

/* What is wrong with the values of the house rules and how they combine,
 * or NULL. */
static const char *values_error(const carc_rules *rules)
{
    if (rules->hand > CARC_MAX_HAND)
        return "rule hand takes 1 to 3 tiles";
    if ((rules->table_w || rules->table_h) &&
        !(table_size_ok(rules->table_w) && table_size_ok(rules->table_h)))
        return "rule table takes odd sizes from 3 to 199 (table=WxH)";
    if ((rules->flags & CARC_RULE_OPEN_HANDS) && !rules->hand)
        return "rule open-hands needs rule hand=N";
    if ((rules->flags & CARC_RULE_TABLE_EDGE_COMPLETES) && !rules->table_w)
        return "rule table-edge-completes needs rule table=WxH";
    if ((rules->flags & CARC_RULE_START_IN_PILE) && (rules->expansions & CARC_EXPANSION_RIVER))
        return "rule start-in-pile cannot be played with the river expansion (it has its own "
               "start tile)";
    if ((rules->flags & CARC_RULE_EXTRA_START_TILE) && (rules->expansions & CARC_EXPANSION_RIVER))
        return "rule extra-start-tile cannot be played with the river expansion (it has its own "
               "start tile)";
    if ((rules->flags & CARC_RULE_EXTRA_START_TILE) && (rules->flags & CARC_RULE_START_IN_PILE))
        return "rules extra-start-tile and start-in-pile name different start tiles: choose one";
    return NULL;
}

carc_status carc_rules_check(const carc_rules *rules, char *err, size_t errcap)
{
    uint32_t known = 0;
    for (size_t i = 0; i < sizeof rule_names / sizeof rule_names[0]; i++)
        known |= rule_names[i].flag;
    if (!rules) {
        format_error(err, errcap, "no rules given");
        return CARC_EINVAL;
    }
    if (rules->flags & ~known) {
        format_error(err, errcap, "unknown rule flags");
        return CARC_EINVAL;
    }
    if (rules->expansions & ~(uint32_t)CARC_EXPANSIONS_SUPPORTED) {
        uint32_t bit = rules->expansions & ~(uint32_t)CARC_EXPANSIONS_SUPPORTED;
        bit &= ~(bit - 1);
        const char *name = carc_expansion_name(bit);
        format_error(err, errcap, "expansion %s is not playable in this version",
                     name ? name : "(unknown)");
        return CARC_EINVAL;
    }
    if ((rules->flags & CARC_RULE_RIVER_KEEP_START) &&
        !(rules->expansions & CARC_EXPANSION_RIVER)) {
        format_error(err, errcap, "rule river-keep-start needs the river expansion");
        return CARC_EINVAL;
    }
    const char *why = values_error(rules);
    if (why) {
        format_error(err, errcap, "%s", why);
        return CARC_EINVAL;
    }
    if (rules->flags & ~(uint32_t)PLAYABLE_FLAGS) {
        uint32_t bit = rules->flags & ~(uint32_t)PLAYABLE_FLAGS;
        bit &= ~(bit - 1);
        format_error(err, errcap, "rule %s is not playable in this version", carc_rule_name(bit));
        return CARC_EINVAL;
    }
    if (rules->hand > PLAYABLE_HAND || (rules->table_w && !PLAYABLE_TABLE)) {
        format_error(err, errcap, "%s",
                     rules->hand > PLAYABLE_HAND ? "rule hand is not playable in this version"
                                                 : "rule table is not playable in this version");
        return CARC_EINVAL;
    }
    format_error(err, errcap, "%s", "");
    return CARC_OK;
}

static int is_separator(char c, int commas)
{
    return c == ' ' || c == '\t' || (commas && c == ',');
}

/* Finds the next name of a list in `text` (`len` bytes) from `*i`: its
 * first byte in `*start` and `*i` just past it; 0 when none is left. */
static int next_name(const char *text, size_t len, int commas, size_t *i, size_t *start)
{
    while (*i < len && is_separator(text[*i], commas))
        (*i)++;
    *start = *i;
    while (*i < len && !is_separator(text[*i], commas))
        (*i)++;
    return *i > *start;
}

/* Reads the names of `list` in `text` (`len` bytes) into `*flags`;
 * returns 0, or -1 with the message in `err`. */
static int parse_list(const name_list *list, const char *text, size_t len, int commas,
                      uint32_t *flags, char *err, size_t errcap)
{
    uint32_t read = 0;
    size_t i = 0;
    size_t start;
    while (next_name(text, len, commas, &i, &start)) {
        int shown = (int)(i - start < 40 ? i - start : 40);
        uint32_t flag = flag_of(list, text + start, i - start);
        if (!flag || (list->once && (read & flag))) {
            format_error(err, errcap, flag ? "%s '%.*s' is named twice" : "unknown %s '%.*s'",
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

/* Reads the decimal number of `len` bytes at `text` (1 to 3 digits). */
static int small_number(const char *text, size_t len)
{
    if (len < 1 || len > 3)
        return -1;
    int n = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return -1;
        n = n * 10 + (text[i] - '0');
    }
    return n;
}

/* Reads one valued rule NAME=VALUE (`len` bytes at `text`, '=' at `eq`)
 * into `out`; returns 0, or -1 with the message in `err`. */
static int parse_valued(const char *text, size_t len, size_t eq, carc_rules *out, char *err,
                        size_t errcap)
{
    const char *value = text + eq + 1;
    size_t value_len = len - eq - 1;
    int shown = (int)(len < 40 ? len : 40);
    if (eq == 4 && memcmp(text, "hand", 4) == 0) {
        int n = small_number(value, value_len);
        if (n < 1 || n > CARC_MAX_HAND) {
            format_error(err, errcap, "rule hand takes 1 to 3 tiles (hand=N)");
            return -1;
        }
        if (out->hand && out->hand != n) {
            format_error(err, errcap, "rule hand is given twice");
            return -1;
        }
        out->hand = (uint8_t)n;
        return 0;
    }
    if (eq == 5 && memcmp(text, "table", 5) == 0) {
        const char *x = memchr(value, 'x', value_len);
        int w = x ? small_number(value, (size_t)(x - value)) : -1;
        int h = x ? small_number(x + 1, value_len - (size_t)(x - value) - 1) : -1;
        if (!table_size_ok(w) || !table_size_ok(h)) {
            format_error(err, errcap, "rule table takes odd sizes from 3 to 199 (table=WxH)");
            return -1;
        }
        if (out->table_w && (out->table_w != w || out->table_h != h)) {
            format_error(err, errcap, "rule table is given twice");
            return -1;
        }
        out->table_w = (uint8_t)w;
        out->table_h = (uint8_t)h;
        return 0;
    }
    format_error(err, errcap, "unknown rule '%.*s'", shown, text);
    return -1;
}

int rules_parse_names(const char *text, size_t len, int commas, carc_rules *out, char *err,
                      size_t errcap)
{
    carc_rules read = *out;
    read.flags = 0;
    read.hand = read.table_w = read.table_h = 0;
    size_t i = 0;
    size_t start;
    while (next_name(text, len, commas, &i, &start)) {
        const char *eq = memchr(text + start, '=', i - start);
        if (eq) {
            if (parse_valued(text + start, i - start, (size_t)(eq - (text + start)), &read, err,
                             errcap) < 0)
                return -1;
            continue;
        }
        uint32_t flag = flag_of(&rules_list, text + start, i - start);
        if (!flag) {
            int shown = (int)(i - start < 40 ? i - start : 40);
            format_error(err, errcap, "unknown rule '%.*s'", shown, text + start);
            return -1;
        }
        read.flags |= flag;
    }
    *out = read;
    format_error(err, errcap, "%s", "");
    return 0;
}

int rules_parse_expansions(const char *text, size_t len, int commas, carc_rules *out, char *err,
                           size_t errcap)
{
    return parse_list(&expansions_list, text, len, commas, &out->expansions, err, errcap);
}

carc_status carc_rules_parse(const char *text, carc_rules *rules, char *err, size_t errcap)
{
    if (!text || !rules) {
        format_error(err, errcap, "no rules given");
        return CARC_EINVAL;
    }
    carc_rules parsed = *rules;
    if (rules_parse_names(text, strlen(text), 1, &parsed, err, errcap) < 0)
        return CARC_EINVAL;
    *rules = parsed;
    return CARC_OK;
}

carc_status carc_rules_parse_words(const char *const *words, size_t n, carc_rules *rules, char *err,
                                   size_t errcap)
{
    if ((!words && n) || !rules) {
        format_error(err, errcap, "no rules given");
        return CARC_EINVAL;
    }
    carc_rules parsed = *rules;
    parsed.flags = 0;
    parsed.hand = parsed.table_w = parsed.table_h = 0;
    for (size_t i = 0; i < n; i++) {
        const char *w = words[i];
        char why[120] = "";
        if (!w || !*w || strpbrk(w, " \t,")) {
            format_error(err, errcap,
                         w && *w ? "rules[%zu]: one name a word, not '%.40s'"
                                 : "rules[%zu]: unknown rule '%s'",
                         i, w ? w : "");
            return CARC_EINVAL;
        }
        /* Each word alone, so that a bad one is named by its place; the
         * list is then the union, a valued rule given twice refused. */
        carc_rules one = carc_rules_standard();
        if (rules_parse_names(w, strlen(w), 0, &one, why, sizeof why) < 0) {
            format_error(err, errcap, "rules[%zu]: %s", i, why);
            return CARC_EINVAL;
        }
        if ((one.hand && parsed.hand) || (one.table_w && parsed.table_w)) {
            format_error(err, errcap, "rules[%zu]: '%.40s' given twice", i, w);
            return CARC_EINVAL;
        }
        parsed = carc_rules_merge(parsed, one);
    }
    *rules = parsed;
    format_error(err, errcap, "%s", "");
    return CARC_OK;
}

carc_rules carc_rules_merge(carc_rules a, carc_rules b)
{
    a.flags |= b.flags;
    a.expansions |= b.expansions;
    if (b.hand)
        a.hand = b.hand;
    if (b.table_w || b.table_h) {
        a.table_w = b.table_w;
        a.table_h = b.table_h;
    }
    return a;
}

int carc_rules_equal(const carc_rules *a, const carc_rules *b)
{
    return a && b && a->flags == b->flags && a->expansions == b->expansions && a->hand == b->hand &&
           a->table_w == b->table_w && a->table_h == b->table_h;
}

carc_status carc_expansions_parse(const char *text, carc_rules *rules, char *err, size_t errcap)
{
    if (!text || !rules) {
        format_error(err, errcap, "no expansions given");
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

/* Appends `text` to the list of `len` bytes in `buf`, after `sep` when the
 * list is not empty; returns the new length (as snprintf counts). */
static size_t append_name(char *buf, size_t cap, size_t len, const char *sep, const char *text)
{
    int n = snprintf(buf && len < cap ? buf + len : NULL, buf && len < cap ? cap - len : 0, "%s%s",
                     len ? (sep ? sep : " ") : "", text);
    return len + (n > 0 ? (size_t)n : 0);
}

size_t carc_rules_format(carc_rules rules, char *buf, size_t cap, const char *sep)
{
    size_t len = format_names(rules.flags, carc_rule_name, buf, cap, sep);
    char value[32];
    if (rules.hand) {
        snprintf(value, sizeof value, "hand=%d", rules.hand);
        len = append_name(buf, cap, len, sep, value);
    }
    if (rules.table_w) {
        snprintf(value, sizeof value, "table=%dx%d", rules.table_w, rules.table_h);
        len = append_name(buf, cap, len, sep, value);
    }
    return len;
}

size_t carc_expansions_format(carc_rules rules, char *buf, size_t cap, const char *sep)
{
    return format_names(rules.expansions, carc_expansion_name, buf, cap, sep);
}

int carc_rules_table_edge(const carc_rules *rules, int *min_x, int *min_y, int *max_x, int *max_y)
{
    if (!rules || !rules->table_w || !rules->table_h)
        return 0;
    int w = rules->table_w / 2, h = rules->table_h / 2;
    if (min_x)
        *min_x = -w;
    if (max_x)
        *max_x = w;
    if (min_y)
        *min_y = -h;
    if (max_y)
        *max_y = h;
    return 1;
}
