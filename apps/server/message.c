/* message.c: decoding and checking a client's request frame. */
#include "message.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "carcassonne_ai.h"
#include "wire.h"

static const char *const type_names[MSG_TYPES] = {
    "hello",  "create", "join",     "resume", "watch",    "leave",  "move",    "legal",
    "sync",   "chat",   "lobby",    "mine",   "record",   "review", "ping",    "features",
    "replay", "hint",   "estimate", "reopen", "takeback", "resign", "rematch", "position",
};

static const char *const error_names[ERR_CODES] = {
    "",          "bad_json",      "too_big", "unknown_type", "bad_field",  "rate_limited",
    "too_many",  "no_table",      "no_seat", "bad_token",    "not_seated", "not_started",
    "game_over", "not_your_turn", "stale",   "illegal",      "internal",
};

const char *msg_error_name(msg_error code)
{
    return code > ERR_NONE && code < ERR_CODES ? error_names[code] : "internal";
}

const char *msg_type_name(msg_type type)
{
    return type < MSG_TYPES ? type_names[type] : "?";
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static msg_error
fail(msg_problem *p, msg_error code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    p->code = code;
    vsnprintf(p->message, sizeof p->message, fmt, ap);
    va_end(ap);
    return code;
}

/* --- Text checks ----------------------------------------------------------------------- */

/* Length of the UTF-8 sequence at `s` and its code point, or 0 when it
 * is not a valid, shortest-form sequence. */
static size_t utf8_char(const unsigned char *s, unsigned *cp)
{
    unsigned c = s[0];
    size_t n;
    unsigned min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if ((c & 0xe0) == 0xc0) {
        n = 2, min = 0x80, *cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3, min = 0x800, *cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4, min = 0x10000, *cp = c & 0x07;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        *cp = (*cp << 6) | (s[i] & 0x3f);
    }
    if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
        return 0;
    return n;
}

int msg_printable(const char *s, size_t max)
{
    size_t len = strlen(s);
    if (len == 0 || len > max)
        return 0;
    int visible = 0;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        unsigned cp;
        size_t n = utf8_char(u + i, &cp);
        if (n == 0 || cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
            return 0;
        if (cp != ' ')
            visible = 1;
        i += n;
    }
    return visible;
}

/* A range of code points, inclusive. */
typedef struct cp_range {
    unsigned lo, hi;
} cp_range;

/* Code points a display name may not hold: format characters (Unicode
 * category Cf: bidi controls, zero-width joiners and spaces, the soft
 * hyphen, invisible operators, tags), the line and paragraph separators,
 * and other characters that draw nothing (fillers, the blank braille
 * pattern, variation selectors, the combining grapheme joiner), private
 * use and noncharacters. */
static const cp_range name_refused[] = {
    {0x00ad, 0x00ad},    {0x034f, 0x034f},   {0x0600, 0x0605},   {0x061c, 0x061c},
    {0x06dd, 0x06dd},    {0x070f, 0x070f},   {0x0890, 0x0891},   {0x08e2, 0x08e2},
    {0x115f, 0x1160},    {0x17b4, 0x17b5},   {0x180b, 0x180f},   {0x200b, 0x200f},
    {0x2028, 0x202e},    {0x2060, 0x206f},   {0x2800, 0x2800},   {0x3164, 0x3164},
    {0xe000, 0xf8ff},    {0xfdd0, 0xfdef},   {0xfe00, 0xfe0f},   {0xfeff, 0xfeff},
    {0xffa0, 0xffa0},    {0xfff0, 0xfffb},   {0x110bd, 0x110bd}, {0x110cd, 0x110cd},
    {0x13430, 0x1343f},  {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a}, {0xe0000, 0xe0fff},
    {0xf0000, 0x10ffff},
};

/* Space separators (Unicode category Zs): trimmed from a name's ends, and
 * not enough to make it visible. */
static const cp_range name_spaces[] = {
    {0x0020, 0x0020}, {0x00a0, 0x00a0}, {0x1680, 0x1680}, {0x2000, 0x200a},
    {0x202f, 0x202f}, {0x205f, 0x205f}, {0x3000, 0x3000},
};

/* Combining marks (the main blocks): they draw on a base character, not
 * alone. */
static const cp_range name_marks[] = {
    {0x0300, 0x036f}, {0x1ab0, 0x1aff}, {0x1dc0, 0x1dff}, {0x20d0, 0x20ff}, {0xfe20, 0xfe2f},
};

static int in_ranges(unsigned cp, const cp_range *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cp >= r[i].lo && cp <= r[i].hi)
            return 1;
    return 0;
}

#define IN(cp, table) in_ranges((cp), (table), sizeof(table) / sizeof((table)[0]))

int msg_display_name(char *name, size_t max)
{
    if (!msg_printable(name, (size_t)-1))
        return 0;
    unsigned char *u = (unsigned char *)name;
    size_t len = strlen(name), start = 0, end = 0;
    int visible = 0;
    for (size_t i = 0; i < len;) {
        unsigned cp;
        size_t n = utf8_char(u + i, &cp);
        if (IN(cp, name_refused) || (cp >= 0xfffe && (cp & 0xfffe) == 0xfffe))
            return 0;
        if (!IN(cp, name_spaces)) {
            if (!visible)
                start = i;
            end = i + n;
            visible |= !IN(cp, name_marks);
        }
        i += n;
    }
    if (!visible || end - start > max)
        return 0;
    memmove(name, name + start, end - start);
    name[end - start] = '\0';
    return 1;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int msg_parse_token(const char *hex, uint8_t out[TOKEN_BYTES])
{
    if (strlen(hex) != 2 * (size_t)TOKEN_BYTES)
        return -1;
    for (size_t i = 0; i < TOKEN_BYTES; i++) {
        int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

/* --- Field readers: each returns ERR_NONE or fills the problem ----------------------- */

/* A string field of at most `max` bytes copied into `out`; `required`
 * says whether it may be missing (then `out` stays ""). */
static msg_error get_string(json_t *root, const char *key, char *out, size_t max, int required,
                            msg_problem *p)
{
    json_t *v = json_object_get(root, key);
    out[0] = '\0';
    if (!v)
        return required ? fail(p, ERR_BAD_FIELD, "'%s' is missing", key) : ERR_NONE;
    if (!json_is_string(v))
        return fail(p, ERR_BAD_FIELD, "'%s' must be a string", key);
    size_t len = json_string_length(v);
    if (len > max || strlen(json_string_value(v)) != len)
        return fail(p, ERR_BAD_FIELD, "'%s' must be at most %zu bytes", key, max);
    memcpy(out, json_string_value(v), len + 1);
    return ERR_NONE;
}

/* An integer field in lo..hi; `*out` keeps its value when the field is
 * missing and not required. */
static msg_error get_int(json_t *root, const char *key, int lo, int hi, int required, int *out,
                         msg_problem *p)
{
    json_t *v = json_object_get(root, key);
    if (!v)
        return required ? fail(p, ERR_BAD_FIELD, "'%s' is missing", key) : ERR_NONE;
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return fail(p, ERR_BAD_FIELD, "'%s' must be an integer from %d to %d", key, lo, hi);
    *out = (int)json_integer_value(v);
    return ERR_NONE;
}

/* An optional boolean: `*out` keeps its default when the field is absent. */
static msg_error get_bool(json_t *root, const char *key, int *out, msg_problem *p)
{
    json_t *v = json_object_get(root, key);
    if (v && !json_is_boolean(v))
        return fail(p, ERR_BAD_FIELD, "'%s' must be true or false", key);
    if (v)
        *out = json_is_true(v);
    return ERR_NONE;
}

static msg_error get_table(json_t *root, msg_request *r, msg_problem *p)
{
    msg_error e = get_string(root, "table", r->table, MSG_TABLE_BYTES, 1, p);
    if (e == ERR_NONE && !r->table[0])
        return fail(p, ERR_BAD_FIELD, "'table' must not be empty");
    return e;
}

static msg_error get_name(json_t *root, msg_request *r, int required, msg_problem *p)
{
    if (!required && !json_object_get(root, "name"))
        return ERR_NONE;
    msg_error e = get_string(root, "name", r->name, MSG_NAME_BYTES, 1, p);
    if (e != ERR_NONE)
        return e;
    if (!msg_display_name(r->name, MSG_NAME_BYTES))
        return fail(p, ERR_BAD_FIELD,
                    "'name' must be 1 to %d bytes of printable UTF-8 with a visible character, "
                    "without invisible or format characters (bidi controls, zero-width) or line "
                    "separators",
                    MSG_NAME_BYTES);
    return ERR_NONE;
}

/* The optional request key of `create` and `join`. */
static msg_error get_key(json_t *root, msg_request *r, msg_problem *p)
{
    msg_error e = get_string(root, "key", r->key, MSG_KEY_BYTES, 0, p);
    if (e != ERR_NONE || !json_object_get(root, "key"))
        return e;
    size_t len = strlen(r->key);
    if (len < MSG_KEY_MIN || strspn(r->key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_") != len)
        return fail(p, ERR_BAD_FIELD,
                    "'key' must be %d to %d letters, digits, '-' or '_' (a random one: a UUID)",
                    MSG_KEY_MIN, MSG_KEY_BYTES);
    return ERR_NONE;
}

static msg_error get_token(json_t *root, const char *key, uint8_t out[TOKEN_BYTES], msg_problem *p)
{
    char hex[2 * TOKEN_BYTES + 1];
    msg_error e = get_string(root, key, hex, 2 * (size_t)TOKEN_BYTES, 1, p);
    if (e == ERR_NONE && msg_parse_token(hex, out))
        return fail(p, ERR_BAD_TOKEN, "'%s' must be %d hexadecimal digits", key, 2 * TOKEN_BYTES);
    return e;
}

static msg_error get_id(json_t *root, msg_id *id, msg_problem *p)
{
    json_t *v = json_object_get(root, "id");
    id->kind = MSG_ID_NONE;
    if (!v || json_is_null(v))
        return ERR_NONE;
    if (json_is_integer(v)) {
        id->kind = MSG_ID_INT;
        id->number = (long long)json_integer_value(v);
        return ERR_NONE;
    }
    size_t len = json_is_string(v) ? json_string_length(v) : 0;
    if (!json_is_string(v) || len > MSG_ID_BYTES || strlen(json_string_value(v)) != len)
        return fail(p, ERR_BAD_FIELD, "'id' must be an integer or a string of at most %d bytes",
                    MSG_ID_BYTES);
    id->kind = MSG_ID_TEXT;
    memcpy(id->text, json_string_value(v), len + 1);
    return ERR_NONE;
}

/* --- create -------------------------------------------------------------------------- */

/* Whether a computer seat's spec names a network other than the one the
 * server has (`net=default`): a client's spec must never make the server
 * open a file of the client's choice (carc_player_new reads it). */
static int names_other_net(const char *spec)
{
    for (const char *at = strstr(spec, "net="); at; at = strstr(at + 1, "net=")) {
        if (at != spec && !strchr(":,+", at[-1]))
            continue; /* a longer key ending in "net" */
        const char *value = at + 4;
        size_t len = strcspn(value, ",+");
        if (len != strlen("default") || strncmp(value, "default", len) != 0)
            return 1;
    }
    return 0;
}

static msg_error get_seats(json_t *root, msg_request *r, msg_problem *p)
{
    json_t *seats = json_object_get(root, "seats");
    if (!json_is_array(seats) || json_array_size(seats) < CARC_MIN_PLAYERS ||
        json_array_size(seats) > CARC_MAX_PLAYERS)
        return fail(p, ERR_BAD_FIELD, "'seats' must be an array of %d to %d seats",
                    CARC_MIN_PLAYERS, CARC_MAX_PLAYERS);
    int me = 0;
    size_t i;
    json_t *v;
    json_array_foreach(seats, i, v)
    {
        msg_seat *s = &r->seats[i];
        const char *spec = json_string_value(v);
        if (!spec || strlen(spec) != json_string_length(v) || strlen(spec) > MSG_SPEC_BYTES)
            return fail(p, ERR_BAD_FIELD, "seats[%zu] must be a string of at most %d bytes", i,
                        MSG_SPEC_BYTES);
        if (strcmp(spec, "me") == 0) {
            s->kind = SEAT_ME;
            me++;
        } else if (strcmp(spec, "open") == 0) {
            s->kind = SEAT_OPEN;
        } else if (strcmp(spec, "invite") == 0) {
            s->kind = SEAT_INVITE;
        } else if (names_other_net(spec)) {
            return fail(p, ERR_BAD_FIELD,
                        "seats[%zu]: a computer seat's network is net=default on this server", i);
        } else {
            char why[120];
            carc_player *player = carc_player_new(spec, 1, why, sizeof why);
            if (!player)
                return fail(p, ERR_BAD_FIELD, "seats[%zu]: %s", i, why);
            carc_player_free(player);
            s->kind = SEAT_COMPUTER;
            memcpy(s->spec, spec, strlen(spec) + 1);
        }
    }
    r->nseats = (int)json_array_size(seats);
    if (me > 1)
        return fail(p, ERR_BAD_FIELD, "at most one seat may be 'me'");
    if (me && !r->name[0])
        return fail(p, ERR_BAD_FIELD, "'name' is needed with a 'me' seat");
    return ERR_NONE;
}

/* A list field: a missing one is empty; otherwise an array of strings. */
static msg_error get_names(json_t *root, const char *key, json_t **out, msg_problem *p)
{
    json_t *list = json_object_get(root, key);
    *out = NULL;
    if (!list)
        return ERR_NONE;
    if (!json_is_array(list) || json_array_size(list) > MSG_MAX_RULES)
        return fail(p, ERR_BAD_FIELD, "'%s' must be an array of at most %d names", key,
                    MSG_MAX_RULES);
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        if (!json_is_string(v) || json_string_length(v) > 64 ||
            strlen(json_string_value(v)) != json_string_length(v))
            return fail(p, ERR_BAD_FIELD, "%s[%zu] must be a name", key, i);
    }
    *out = list;
    return ERR_NONE;
}

/* The optional array `key` of names, each turned into its flag by
 * `flag_of` (0: unknown) and or-ed into `*flags`; with `once`, a name
 * given twice is refused. */
static msg_error get_flags(json_t *root, const char *key, const char *what,
                           uint32_t (*flag_of)(const char *), int once, uint32_t *flags,
                           msg_problem *p)
{
    json_t *list;
    msg_error e = get_names(root, key, &list, p);
    if (e != ERR_NONE || !list)
        return e;
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        const char *name = json_string_value(v);
        uint32_t flag = flag_of(name);
        if (!flag)
            return fail(p, ERR_BAD_FIELD, "%s[%zu]: unknown %s '%s'", key, i, what, name);
        if (once && (*flags & flag))
            return fail(p, ERR_BAD_FIELD, "%s[%zu]: '%s' is named twice", key, i, name);
        *flags |= flag;
    }
    return ERR_NONE;
}

/* The rule names of `rules`, valued ones (`hand=3`) too, in the wire
 * form (wire_read_rules(): one name a string, a bad one named by its
 * place). */
static msg_error get_rules(json_t *root, msg_request *r, msg_problem *p)
{
    json_t *list;
    msg_error e = get_names(root, "rules", &list, p);
    if (e != ERR_NONE || !list)
        return e;
    char why[160];
    carc_rules rules = carc_rules_standard();
    if (wire_read_rules(list, &rules, why, sizeof why) != 0)
        return fail(p, ERR_BAD_FIELD, "%s", why);
    rules.expansions = r->rules.expansions; /* read on their own */
    r->rules = rules;
    return ERR_NONE;
}

static msg_error get_first(json_t *root, msg_request *r, msg_problem *p)
{
    static const char *const names[] = {"seat-order", "random", "draw-off"};
    json_t *v = json_object_get(root, "first");
    if (!v)
        return ERR_NONE;
    const char *name = json_string_value(v);
    for (int i = 0; name && i < 3; i++)
        if (strcmp(name, names[i]) == 0) {
            r->first = (first_seat)i;
            return ERR_NONE;
        }
    return fail(p, ERR_BAD_FIELD, "'first' must be \"seat-order\", \"random\" or \"draw-off\"");
}

static msg_error get_expansions(json_t *root, msg_request *r, msg_problem *p)
{
    return get_flags(root, "expansions", "expansion", carc_expansion_flag, 1, &r->rules.expansions,
                     p);
}

/* The rules and expansions together, as the library plays them (an
 * expansion of a later version, river-keep-start without the river). */
static msg_error check_rules(const msg_request *r, msg_problem *p)
{
    char why[120];
    if (carc_rules_check(&r->rules, why, sizeof why) == CARC_OK)
        return ERR_NONE;
    return fail(p, ERR_BAD_FIELD, "rules and expansions: %s", why);
}

static msg_error get_info(json_t *root, msg_request *r, msg_problem *p)
{
    char info[16];
    msg_error e = get_string(root, "info", info, sizeof info - 1, 0, p);
    if (e != ERR_NONE)
        return e;
    if (!info[0] || strcmp(info, "casual") == 0)
        r->info = INFO_CASUAL;
    else if (strcmp(info, "purist") == 0)
        r->info = INFO_PURIST;
    else
        return fail(p, ERR_BAD_FIELD, "'info' must be casual or purist");
    return ERR_NONE;
}

static msg_error get_clock(json_t *root, msg_request *r, msg_problem *p)
{
    json_t *c = json_object_get(root, "clock");
    msg_clock *k = &r->clock;
    memset(k, 0, sizeof *k);
    if (!c || json_is_null(c))
        return ERR_NONE;
    if (!json_is_object(c))
        return fail(p, ERR_BAD_FIELD, "'clock' must be an object or null");
    char mode[16], timeout[16];
    msg_error e = get_string(c, "mode", mode, sizeof mode - 1, 1, p);
    if (e == ERR_NONE)
        e = get_string(c, "on_timeout", timeout, sizeof timeout - 1, 0, p);
    if (e != ERR_NONE)
        return e;
    if (strcmp(mode, "move") == 0) {
        k->mode = CLOCK_MOVE;
        e = get_int(c, "seconds", 5, 3600, 1, &k->seconds, p);
    } else if (strcmp(mode, "fischer") == 0) {
        k->mode = CLOCK_FISCHER;
        e = get_int(c, "seconds", 30, 86400, 1, &k->seconds, p);
        if (e == ERR_NONE)
            e = get_int(c, "increment", 0, 600, 0, &k->increment, p);
    } else if (strcmp(mode, "days") == 0) {
        int days = 0;
        k->mode = CLOCK_DAYS;
        e = get_int(c, "days", 1, 14, 1, &days, p);
        k->seconds = days * 86400;
    } else {
        return fail(p, ERR_BAD_FIELD, "clock 'mode' must be move, fischer or days");
    }
    if (e != ERR_NONE)
        return e;
    if (!timeout[0] || strcmp(timeout, "computer") == 0)
        k->on_timeout = TIMEOUT_COMPUTER;
    else if (strcmp(timeout, "forfeit") == 0)
        k->on_timeout = TIMEOUT_FORFEIT;
    else
        return fail(p, ERR_BAD_FIELD, "clock 'on_timeout' must be computer or forfeit");
    return ERR_NONE;
}

/* A rated game measures the players alone (docs/ratings.md): no engine's
 * hints or win estimates, and a clock's timeout loses the game rather than
 * letting the computer play the seat. Both are a rated table's defaults;
 * asking for either by name is refused. */
static msg_error rated_defaults(json_t *root, msg_request *r, msg_problem *p)
{
    if (json_is_true(json_object_get(root, "estimates")))
        return fail(p, ERR_BAD_FIELD,
                    "a rated game has no hints or win estimates: leave 'estimates' out or false");
    r->estimates = 0;
    if (r->clock.mode == CLOCK_NONE)
        return ERR_NONE;
    const char *t =
        json_string_value(json_object_get(json_object_get(root, "clock"), "on_timeout"));
    if (t && strcmp(t, "computer") == 0)
        return fail(p, ERR_BAD_FIELD,
                    "in a rated game a timeout loses the game: clock 'on_timeout' must be forfeit");
    r->clock.on_timeout = TIMEOUT_FORFEIT;
    return ERR_NONE;
}

static msg_error decode_create(json_t *root, msg_request *r, msg_problem *p)
{
    msg_error e = get_name(root, r, 0, p);
    if (e == ERR_NONE)
        e = get_key(root, r, p);
    if (e == ERR_NONE)
        e = get_seats(root, r, p);
    if (e == ERR_NONE)
        e = get_rules(root, r, p);
    if (e == ERR_NONE)
        e = get_expansions(root, r, p);
    if (e == ERR_NONE)
        e = check_rules(r, p);
    if (e == ERR_NONE)
        e = get_first(root, r, p);
    if (e == ERR_NONE)
        e = get_info(root, r, p);
    if (e == ERR_NONE)
        e = get_clock(root, r, p);
    if (e != ERR_NONE)
        return e;
    e = get_bool(root, "listed", &r->listed, p);
    if (e == ERR_NONE)
        e = get_bool(root, "estimates", &r->estimates, p);
    if (e == ERR_NONE)
        e = get_bool(root, "rated", &r->rated, p);
    return e == ERR_NONE && r->rated ? rated_defaults(root, r, p) : e;
}

/* --- The other requests ---------------------------------------------------------------- */

static msg_error decode_join(json_t *root, msg_request *r, msg_problem *p)
{
    msg_error e = get_table(root, r, p);
    if (e == ERR_NONE)
        e = get_name(root, r, 1, p);
    if (e == ERR_NONE)
        e = get_int(root, "seat", 0, CARC_MAX_PLAYERS - 1, 0, &r->seat, p);
    if (e == ERR_NONE)
        e = get_string(root, "invite", r->invite, MSG_INVITE_BYTES, 0, p);
    if (e == ERR_NONE)
        e = get_key(root, r, p);
    return e;
}

static msg_error decode_move(json_t *root, msg_request *r, msg_problem *p)
{
    msg_error e = get_table(root, r, p);
    if (e == ERR_NONE)
        e = get_int(root, "turn", 0, MSG_MAX_TURN, 1, &r->turn, p);
    if (e == ERR_NONE)
        e = get_string(root, "move", r->move, MSG_MOVE_BYTES, 1, p);
    if (e == ERR_NONE && !msg_printable(r->move, MSG_MOVE_BYTES))
        return fail(p, ERR_BAD_FIELD, "'move' must be a move in the record notation");
    return e;
}

static msg_error decode_chat(json_t *root, msg_request *r, msg_problem *p)
{
    msg_error e = get_table(root, r, p);
    if (e == ERR_NONE)
        e = get_string(root, "text", r->text, MSG_CHAT_BYTES, 1, p);
    if (e == ERR_NONE && !msg_printable(r->text, MSG_CHAT_BYTES))
        return fail(p, ERR_BAD_FIELD, "'text' must be 1 to %d bytes of printable UTF-8",
                    MSG_CHAT_BYTES);
    return e;
}

/* replay: a table's game, or a record sent whole. */
static msg_error decode_replay(json_t *root, msg_request *r, msg_problem *p)
{
    msg_error e = get_string(root, "table", r->table, MSG_TABLE_BYTES, 0, p);
    if (e == ERR_NONE)
        e = get_string(root, "record", r->record, MSG_MAX_BYTES, 0, p);
    if (e == ERR_NONE && !r->table[0] && !r->record[0])
        return fail(p, ERR_BAD_FIELD, "'table' or 'record' is needed");
    return e;
}

/* position: a record sent whole and the tile drawn after its last move. */
static msg_error decode_position(json_t *root, msg_request *r, msg_problem *p)
{
    char tile[8];
    msg_error e = get_string(root, "record", r->record, MSG_MAX_BYTES, 1, p);
    if (e == ERR_NONE && !r->record[0])
        return fail(p, ERR_BAD_FIELD, "'record' is empty");
    if (e == ERR_NONE)
        e = get_string(root, "tile", tile, sizeof tile - 1, 1, p);
    if (e == ERR_NONE && (r->tile = carc_tile_parse(tile)) < 0)
        return fail(p, ERR_BAD_FIELD, "'tile' must be a tile id (A to X, or an expansion's)");
    return e;
}

static msg_error decode_mine(json_t *root, msg_request *r, msg_problem *p)
{
    json_t *seats = json_object_get(root, "seats");
    if (!json_is_array(seats) || json_array_size(seats) > MSG_MAX_MINE)
        return fail(p, ERR_BAD_FIELD, "'seats' must be an array of at most %d pairs", MSG_MAX_MINE);
    size_t i;
    json_t *v;
    json_array_foreach(seats, i, v)
    {
        msg_mine_pair *pair = &r->mine[i];
        if (!json_is_object(v))
            return fail(p, ERR_BAD_FIELD, "seats[%zu] must be an object {table, token}", i);
        msg_error e = get_string(v, "table", pair->table, MSG_TABLE_BYTES, 1, p);
        if (e != ERR_NONE)
            return e;
        const char *token = json_string_value(json_object_get(v, "token"));
        pair->valid = token && msg_parse_token(token, pair->token) == 0;
    }
    r->nmine = (int)json_array_size(seats);
    return ERR_NONE;
}

static msg_error decode_fields(json_t *root, msg_request *r, msg_problem *p)
{
    switch (r->type) {
    case MSG_HELLO: return get_string(root, "client", r->client, MSG_CLIENT_BYTES, 0, p);
    case MSG_CREATE: return decode_create(root, r, p);
    case MSG_JOIN: return decode_join(root, r, p);
    case MSG_RESUME: {
        /* Without a token (left as zeros): the seat of the connection's account. */
        msg_error e = get_table(root, r, p);
        return e == ERR_NONE && json_object_get(root, "token")
                   ? get_token(root, "token", r->token, p)
                   : e;
    }
    case MSG_MOVE: return decode_move(root, r, p);
    case MSG_CHAT: return decode_chat(root, r, p);
    case MSG_MINE: return decode_mine(root, r, p);
    case MSG_REPLAY: return decode_replay(root, r, p);
    case MSG_POSITION: return decode_position(root, r, p);
    case MSG_REVIEW: {
        msg_error e = get_table(root, r, p);
        return e == ERR_NONE ? get_int(root, "ms", 10, 1000, 0, &r->ms, p) : e;
    }
    case MSG_ESTIMATE: {
        msg_error e = get_table(root, r, p);
        return e == ERR_NONE ? get_bool(root, "on", &r->on, p) : e;
    }
    case MSG_REMATCH:
    case MSG_TAKEBACK: {
        msg_error e = get_table(root, r, p);
        return e == ERR_NONE ? get_bool(root, "accept", &r->on, p) : e;
    }
    case MSG_REOPEN: {
        msg_error e = get_table(root, r, p);
        return e == ERR_NONE ? get_int(root, "seat", 0, CARC_MAX_PLAYERS - 1, 1, &r->seat, p) : e;
    }
    case MSG_WATCH:
    case MSG_LEAVE:
    case MSG_LEGAL:
    case MSG_SYNC:
    case MSG_FEATURES:
    case MSG_HINT:
    case MSG_RESIGN:
    case MSG_RECORD: return get_table(root, r, p);
    case MSG_LOBBY:
    case MSG_PING:
    case MSG_TYPES: break;
    }
    return ERR_NONE;
}

static void clear_request(msg_request *r)
{
    r->id.kind = MSG_ID_NONE;
    r->table[0] = r->name[0] = r->client[0] = r->invite[0] = r->move[0] = r->text[0] = '\0';
    r->key[0] = '\0';
    r->nseats = r->nmine = 0;
    r->rules = carc_rules_standard();
    r->first = FIRST_SEAT_ORDER;
    r->info = INFO_CASUAL;
    memset(&r->clock, 0, sizeof r->clock);
    r->listed = 1;
    r->estimates = 1;
    r->rated = 0;
    r->on = 1;
    r->seat = -1;
    r->turn = 0;
    r->ms = 200;
    memset(r->token, 0, sizeof r->token);
}

msg_error msg_decode(const char *data, size_t len, msg_request *out, msg_problem *problem)
{
    clear_request(out);
    problem->code = ERR_NONE;
    problem->message[0] = '\0';
    if (len > MSG_MAX_BYTES)
        return fail(problem, ERR_TOO_BIG, "a message is at most %d bytes", MSG_MAX_BYTES);
    json_error_t jerr;
    json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root)
        return fail(problem, ERR_BAD_JSON, "not JSON: %s", jerr.text);
    msg_error e = ERR_NONE;
    if (!json_is_object(root)) {
        e = fail(problem, ERR_BAD_JSON, "a message must be a JSON object");
    } else if ((e = get_id(root, &out->id, problem)) == ERR_NONE) {
        const char *type = json_string_value(json_object_get(root, "type"));
        int t = 0;
        while (type && t < MSG_TYPES && strcmp(type, type_names[t]) != 0)
            t++;
        if (!type || t == MSG_TYPES)
            e = fail(problem, ERR_UNKNOWN_TYPE, "'type' must name a request (hello, create, ...)");
        else {
            out->type = (msg_type)t;
            e = decode_fields(root, out, problem);
        }
    }
    json_decref(root);
    return e;
}
