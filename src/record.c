/* record.c: reading and writing game records (record.md), and the move
 * history they are made from. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "rules.h"
#include "tiles.h"

enum { MAX_TOKENS = 8 };

/* Writes move `m` of a tile of `kind` in record notation. */
static size_t format_move(int kind, carc_move m, char *buf, size_t cap)
{
    const char *id = carc_tile_data[kind].id;
    int n;
    if (m.type == CARC_MOVE_DISCARD) {
        n = snprintf(buf, cap, "discard %s", id);
    } else {
        const carc_placement *p = &m.place;
        char spot[16] = "";
        if (m.segment != CARC_NO_SPOT && m.segment < carc_tile_data[kind].nsegments) {
            int port = carc_spot_port[kind][p->rot][m.segment];
            const char *name = carc_port_name(port);
            if (port == CARC_PORTS) /* no port: a cloister, or a field with none */
                name = carc_tile_data[kind].segments[m.segment].kind == CARC_FIELD ? "F" : "C";
            snprintf(spot, sizeof spot, " %s%s%s", name, m.figure ? " " : "",
                     m.figure < CARC_FIGURES ? rules_figure_word(m.figure) : "?");
        }
        n = snprintf(buf, cap, "%s %d %d %d%s", id, p->x, p->y, p->rot, spot);
    }
    return n < 0 ? 0 : (size_t)n;
}

size_t carc_move_format(const carc_game *g, int i, char *buf, size_t cap)
{
    carc_move m;
    int kind;
    if (carc_game_move_at(g, i, &m, &kind) != CARC_OK) {
        if (buf && cap)
            buf[0] = '\0';
        return 0;
    }
    return format_move(kind, m, buf, cap);
}

size_t carc_move_write(const carc_game *g, carc_move m, char *buf, size_t cap)
{
    int kind = m.place.tile && !carc_game_over(g) ? m.place.tile - 1 : carc_game_drawn_tile(g);
    int shaped =
        m.type == CARC_MOVE_DISCARD ||
        (m.type == CARC_MOVE_PLACE && m.place.rot < 4 &&
         (m.segment == CARC_NO_SPOT || (kind >= 0 && m.segment < carc_tile_data[kind].nsegments)));
    if (kind < 0 || !shaped) {
        if (buf && cap)
            buf[0] = '\0';
        return 0;
    }
    return format_move(kind, m, buf, cap);
}

/* --- Writing ---------------------------------------------------------------------- */

typedef struct out_buf {
    char *buf;
    size_t cap, len;
} out_buf;

static void out_printf(out_buf *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void out_printf(out_buf *o, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (o->len + 1 < o->cap) {
        size_t room = o->cap - o->len - 1;
        size_t copy = (size_t)n < room ? (size_t)n : room;
        memcpy(o->buf + o->len, line, copy);
        o->buf[o->len + copy] = '\0';
    }
    o->len += (size_t)n;
}

static void out_text(out_buf *o, const char *text)
{
    size_t n = strlen(text);
    if (o->len + 1 < o->cap) {
        size_t room = o->cap - o->len - 1;
        size_t copy = n < room ? n : room;
        memcpy(o->buf + o->len, text, copy);
        o->buf[o->len + copy] = '\0';
    }
    o->len += n;
}

/* Writes the draws of the log from draw `d` on that came after `moves`
 * moves, one `draw P TILE...` line for each run of one player's draws;
 * returns the index of the first draw not written. */
static int write_draws(out_buf *o, const carc_game *g, int d, int moves)
{
    int n = carc_game_draw_count(g), player, kind, at;
    while (d < n && carc_game_draw_at(g, d, &player, &kind, &at) == CARC_OK && at == moves) {
        out_printf(o, "draw %d", player + 1);
        int p = player;
        while (d < n && carc_game_draw_at(g, d, &player, &kind, &at) == CARC_OK && at == moves &&
               player == p) {
            out_printf(o, " %s", kind >= 0 ? carc_tile_id(kind) : "?");
            d++;
        }
        out_text(o, "\n");
    }
    return d;
}

size_t carc_record_write(const carc_game *g, const char *headers, char *buf, size_t cap)
{
    out_buf o = {buf, cap, 0};
    if (buf && cap)
        buf[0] = '\0';
    else
        o.cap = 0;
    carc_rules rules = carc_game_rules(g);
    out_printf(&o, "players %d\n", carc_game_players(g));
    char names[CARC_RULES_TEXT_MAX];
    if (carc_rules_format(rules, names, sizeof names, " ") > 0)
        out_printf(&o, "rules %s\n", names);
    if (rules.expansions) {
        carc_expansions_format(rules, names, sizeof names, " ");
        out_printf(&o, "expansions %s\n", names);
    }
    if (headers && *headers) {
        out_text(&o, headers);
        if (headers[strlen(headers) - 1] != '\n')
            out_text(&o, "\n");
    }
    if (rules_record_lines(&rules) & RECORD_START_LINE) {
        carc_tile_on_board start;
        carc_game_tile_info(g, 0, &start);
        out_printf(&o, "start %s\n", carc_tile_id(start.kind));
    }
    int d = write_draws(&o, g, 0, 0);
    for (int i = 0; i < carc_game_move_count(g); i++) {
        char line[64];
        carc_move_format(g, i, line, sizeof line);
        out_printf(&o, "%s\n", line);
        d = write_draws(&o, g, d, i + 1);
    }
    if (carc_game_ended_early(g))
        out_text(&o, "end\n");
    return o.len;
}

/* --- Reading ----------------------------------------------------------------------- */

typedef struct reader {
    carc_record_error *err;
    int line;
    int players; /* 0 until the players line */
    int ended;   /* an `end` line was read */
    carc_rules rules;
    int rules_line, expansions_line; /* 0 until the line is read */
    int start_read;                  /* start-in-pile: the `start` line was read */
    uint64_t seed;
    carc_game *game; /* created at the first move */
    /* The line being read: its text in the record, and the copy that
     * split_line() cut into tokens (the same bytes at the same offsets). */
    const char *text;
    size_t text_len;
    const char *copy;
    /* Header lines go to headers[0 .. cap); `nheaders` counts them all.
     * With `headers_only`, reading stops at the first move line. */
    carc_header *headers;
    int cap, nheaders;
    int headers_only;
    int stopped; /* nothing more is read: the headers ended, or `fn` said so */
    carc_replay_fn fn;
    void *ctx;
} reader;

static int fail(reader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int fail(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    r->err->line = r->line;
    vsnprintf(r->err->message, sizeof r->err->message, fmt, ap);
    va_end(ap);
    return -1;
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
    size_t len;
    unsigned min;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        len = 2;
        min = 0x80;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        len = 3;
        min = 0x800;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        len = 4;
        min = 0x10000;
    } else
        return 0;
    if (len > n)
        return 0;
    unsigned cp = s[0] & (0x7Fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

static int check_text(reader *r, const char *line, size_t n)
{
    const unsigned char *s = (const unsigned char *)line;
    for (size_t i = 0; i < n;) {
        if (s[i] < 0x20 && s[i] != '\t')
            return fail(r, "control character 0x%02X in the line", s[i]);
        if (s[i] == 0x7F)
            return fail(r, "control character 0x7F in the line");
        size_t len = utf8_length(s + i, n - i);
        if (len == 0)
            return fail(r, "the line is not valid UTF-8");
        i += len;
    }
    return 0;
}

/* Splits the line (comment removed) into tokens and returns their count;
 * only the first MAX_TOKENS are kept in `tokens`. */
static int tokenize(char *line, char *tokens[MAX_TOKENS + 1])
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return n;
        if (n < MAX_TOKENS)
            tokens[n] = p;
        n++;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
    }
}

/* Parses -?[0-9]+ into *out; numbers beyond +-999999999 are refused. */
static int parse_number(reader *r, const char *tok, const char *what, long *out)
{
    const char *p = tok;
    int negative = *p == '-';
    if (negative)
        p++;
    size_t digits = strspn(p, "0123456789");
    if (digits == 0 || p[digits] != '\0')
        return fail(r, "%s '%.20s' is not a number", what, tok);
    while (digits > 1 && *p == '0') {
        p++;
        digits--;
    }
    if (digits > 9)
        return fail(r, "%s '%.20s' is out of range", what, tok);
    long v = strtol(p, NULL, 10);
    *out = negative ? -v : v;
    return 0;
}

/* Whether the `n` bytes at `key` match [a-z][a-z0-9_.-]+. */
static int key_shaped(const char *key, size_t n)
{
    if (n < 2 || key[0] < 'a' || key[0] > 'z')
        return 0;
    for (size_t i = 1; i < n; i++) {
        char c = key[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
            return 0;
    }
    return 1;
}

static int is_header_key(const char *tok)
{
    return key_shaped(tok, strlen(tok));
}

/* Whether `tok` starts a line of moves rather than of headers, in a game
 * whose rules add the RECORD_* `lines`: `draw` and `start` only with the
 * rules that name draws or the start tile (rules_record_lines). */
static int is_move_word(unsigned lines, const char *tok)
{
    return (tok[0] >= 'A' && tok[0] <= 'Z') || strcmp(tok, "discard") == 0 ||
           strcmp(tok, "end") == 0 || ((lines & RECORD_DRAW_LINES) && strcmp(tok, "draw") == 0) ||
           ((lines & RECORD_START_WORD) && strcmp(tok, "start") == 0);
}

/* The header line whose key is the first token `key` of the line being
 * read, as views into the record. */
static carc_header header_view(const reader *r, const char *key)
{
    const char *text = r->text;
    size_t key_start = (size_t)(key - r->copy), key_len = strlen(key);
    const char *hash = memchr(text, '#', r->text_len);
    size_t end = hash ? (size_t)(hash - text) : r->text_len;
    size_t start = key_start + key_len;
    while (start < end && (text[start] == ' ' || text[start] == '\t'))
        start++;
    while (end > start && (text[end - 1] == ' ' || text[end - 1] == '\t'))
        end--;
    return (carc_header){text + key_start, key_len, text + start, end - start, r->line};
}

static void keep_header(reader *r, const char *key)
{
    if (r->nheaders < r->cap)
        r->headers[r->nheaders] = header_view(r, key);
    r->nheaders++;
}

/* Makes the record's game from the headers read (players, rules, seed),
 * once: at the first move line, or at the end of a record without one. */
static int game_from_headers(reader *r)
{
    if (r->game)
        return 0;
    char why[sizeof r->err->message];
    if (carc_rules_check(&r->rules, why, sizeof why) != CARC_OK) {
        /* A rule without what it needs, or with what it excludes, is the
         * rules line's fault. */
        if (r->rules_line)
            r->line = r->rules_line;
        /* An expansion this version cannot play is the expansions line's. */
        if (r->rules.expansions & ~(uint32_t)CARC_EXPANSIONS_SUPPORTED)
            r->line = r->expansions_line;
        return fail(r, "%s", why);
    }
    r->game = carc_game_new(r->players, &r->rules, r->seed);
    if (!r->game)
        return fail(r, "out of memory");
    return 0;
}

static int read_players(reader *r, char **tok, int n)
{
    long players = 0;
    if (r->players)
        return fail(r, "a second players line");
    if (n != 2)
        return fail(r, "'players' takes one number");
    if (parse_number(r, tok[1], "player count", &players) < 0)
        return -1;
    if (players < CARC_MIN_PLAYERS || players > CARC_MAX_PLAYERS)
        return fail(r, "players must be %d to %d, not %ld", CARC_MIN_PLAYERS, CARC_MAX_PLAYERS,
                    players);
    r->players = (int)players;
    return 0;
}

/* A `rules` or `expansions` line (`tok[0]`), at most one of each: `*line`
 * is where it was, `parse` reads its names. The names are read from the
 * record's text, not the tokens: a line may name any number of them. */
static int read_names(reader *r, char **tok, int *line,
                      int (*parse)(const char *, size_t, int, carc_rules *, char *, size_t))
{
    if (*line)
        return fail(r, "a second %s line", tok[0]);
    *line = r->line;
    carc_header h = header_view(r, tok[0]);
    char message[sizeof r->err->message];
    if (parse(h.value, h.value_len, 0, &r->rules, message, sizeof message) < 0)
        return fail(r, "%s", message);
    return 0;
}

static int tile_id(reader *r, const char *tok)
{
    int kind = carc_tile_parse(tok);
    if (kind < 0)
        return fail(r, "unknown tile '%.20s'", tok);
    return kind;
}

/* A tile the game's supply lacks, or lacks now; 0 when it has one left,
 * or when a player other than `drawer` holds one (-1: none). */
static int supply_lacks(reader *r, int kind, int drawer)
{
    carc_game *g = r->game;
    const char *id = carc_tile_data[kind].id;
    int total = carc_game_kind_total(g, kind);
    carc_tile_on_board start;
    if (total == 0 && carc_game_tile_info(g, 0, &start) == CARC_OK && start.kind == kind)
        return fail(r, "tile %s is the start tile, placed at set-up", id);
    if (total == 0)
        return fail(r, "tile %s is not in this game: %s", id,
                    carc_tile_data[kind].set ? "its expansion is not on the expansions line"
                                             : "it is not in the supply");
    int counts[CARC_MAX_KINDS], held = 0;
    carc_game_tiles_left(g, counts);
    /* A tile another player holds (a later draw still to be named may
     * have taken it) is not used up: the game's own refusal says why it
     * cannot be this draw. */
    for (int p = 0; p < r->players; p++) {
        if (p == drawer)
            continue;
        int kinds[CARC_MAX_HAND];
        int n = carc_game_hand(g, p, kinds, CARC_MAX_HAND);
        for (int i = 0; i < n && i < CARC_MAX_HAND; i++)
            held += kinds[i] == kind;
    }
    if (counts[kind] == 0 && held == 0)
        return fail(r, "tile %s is not in the supply: all %d are used", id, total);
    return 0;
}

/* Draws named by `draw` lines: a move needs its tile among those its
 * player holds, and no draw due. */
static int hold_from_record(reader *r, int kind)
{
    carc_game *g = r->game;
    int player, due = carc_game_draw_due(g, &player);
    if (due > 0)
        return fail(r, "a draw is due: player %d draws %d tile%s first ('draw %d TILE...')",
                    player + 1, due, due == 1 ? "" : "s", player + 1);
    if (carc_game_hold_tile(g, kind) != CARC_OK)
        return fail(r, "%s", carc_game_error(g));
    return 0;
}

/* Makes the game's drawn tile `kind`, as the record says it was drawn. */
static int draw_from_record(reader *r, int kind)
{
    carc_game *g = r->game;
    if (rules_record_lines(&r->rules) & RECORD_DRAW_LINES)
        return hold_from_record(r, kind);
    if (carc_game_drawn_tile(g) == kind || carc_game_choose_tile(g, kind) == CARC_OK)
        return 0;
    if (supply_lacks(r, kind, -1) < 0)
        return -1;
    return fail(r, "%s", carc_game_error(g)); /* in the supply, not to be drawn now */
}

/* Tells the replay's caller about the step just made. */
static void report_step(reader *r, carc_replay_step *step, const carc_event *events, int nevents)
{
    step->events = events;
    step->nevents = nevents < CARC_MAX_EVENTS ? nevents : CARC_MAX_EVENTS;
    step->game = r->game;
    if (r->fn(r->ctx, step) != 0)
        r->stopped = 1;
}

static int play(reader *r, carc_move m)
{
    carc_game *g = r->game;
    carc_event events[CARC_MAX_EVENTS];
    int nevents = 0;
    carc_replay_step step = {carc_game_move_count(g),
                             0,
                             carc_game_current_player(g),
                             carc_game_drawn_tile(g),
                             m,
                             NULL,
                             0,
                             NULL};
    if (carc_game_play(g, m, events, CARC_MAX_EVENTS, &nevents) != CARC_OK)
        return fail(r, "%s", carc_game_error(g));
    if (r->fn)
        report_step(r, &step, events, nevents);
    return 0;
}

/* The field of `kind` that holds no port (spot F), or -1. */
static int portless_field(int kind)
{
    const carc_tile_def *def = &carc_tile_data[kind];
    for (int s = 0; s < def->nsegments; s++)
        if (def->segments[s].kind == CARC_FIELD && def->segments[s].ports == 0)
            return s;
    return -1;
}

static int read_spot(reader *r, const char *tok, int kind, int rot, uint8_t *segment)
{
    if (strcmp(tok, "C") == 0) {
        if (carc_cloister_seg[kind] == 255)
            return fail(r, "tile %s has no cloister", carc_tile_data[kind].id);
        *segment = carc_cloister_seg[kind];
        return 0;
    }
    if (strcmp(tok, "F") == 0) {
        int seg = portless_field(kind);
        if (seg < 0)
            return fail(r, "tile %s has no field without ports (spot F)", carc_tile_data[kind].id);
        *segment = (uint8_t)seg;
        return 0;
    }
    int port = carc_port_parse(tok);
    if (port < 0)
        return fail(r, "unknown follower spot '%.20s'", tok);
    int seg = carc_port_seg[kind][rot][port];
    if (seg == 255)
        return fail(r, "tile %s has nothing at port %s", carc_tile_data[kind].id, tok);
    int seg_kind = carc_tile_data[kind].segments[seg].kind;
    if (seg_kind == CARC_RIVER) /* a segment kind of the catalogue that takes no figure */
        return fail(r, "port %s of tile %s is the %s: no follower may stand on it", tok,
                    carc_tile_data[kind].id, carc_kind_name(seg_kind));
    *segment = (uint8_t)seg;
    return 0;
}

/* The FIGURE word after a spot (rules_figure_word). Whether the game has
 * the figure is the move's check. */
static int read_figure(reader *r, const char *tok, uint8_t *figure)
{
    char words[64] = "";
    for (int f = CARC_FIGURE_LARGE; f < CARC_FIGURES; f++) {
        if (strcmp(tok, rules_figure_word(f)) == 0) {
            *figure = (uint8_t)f;
            return 0;
        }
        snprintf(words + strlen(words), sizeof words - strlen(words), "%s%s",
                 f > CARC_FIGURE_LARGE ? ", " : "", rules_figure_word(f));
    }
    return fail(r, "unknown figure '%.20s' (%s)", tok, words);
}

/* Parses "TILE X Y ROT [SPOT [FIGURE]]" into `*kind` and `*m` without playing it;
 * squares beyond the board's range are refused later, by the caller, so
 * that a tile missing from the supply is named first. */
static int parse_placement(reader *r, char **tok, int n, int *kind, carc_move *m, long xy[2])
{
    *kind = tile_id(r, tok[0]);
    if (*kind < 0)
        return -1;
    if (n < 4 || n > 6)
        return fail(r,
                    "a move is 'TILE X Y ROT', 'TILE X Y ROT SPOT' or 'TILE X Y ROT SPOT FIGURE'");
    long rot = 0;
    if (parse_number(r, tok[1], "x", &xy[0]) < 0 || parse_number(r, tok[2], "y", &xy[1]) < 0 ||
        parse_number(r, tok[3], "rotation", &rot) < 0)
        return -1;
    if (rot < 0 || rot > 3)
        return fail(r, "rotation must be 0 to 3, not %ld", rot);
    *m = (carc_move){CARC_MOVE_PLACE, {0, 0, (uint8_t)rot, 0}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
    if (n >= 5 && read_spot(r, tok[4], *kind, (int)rot, &m->segment) < 0)
        return -1;
    if (n == 6 && read_figure(r, tok[5], &m->figure) < 0)
        return -1;
    return 0;
}

static int place_square(reader *r, const long xy[2], carc_move *m)
{
    if (xy[0] < -127 || xy[0] > 127 || xy[1] < -127 || xy[1] > 127)
        return fail(r, "square %ld %ld touches no tile", xy[0], xy[1]);
    m->place.x = (int8_t)xy[0];
    m->place.y = (int8_t)xy[1];
    return 0;
}

static int read_placement(reader *r, char **tok, int n)
{
    int kind = -1;
    long xy[2];
    carc_move m;
    if (parse_placement(r, tok, n, &kind, &m, xy) < 0 || draw_from_record(r, kind) < 0 ||
        place_square(r, xy, &m) < 0)
        return -1;
    return play(r, m);
}

/* Parses "discard TILE" into `*kind`. */
static int parse_discard(reader *r, char **tok, int n, int *kind)
{
    if (n != 2)
        return fail(r, "'discard' takes one tile");
    *kind = tile_id(r, tok[1]);
    return *kind < 0 ? -1 : 0;
}

static int read_discard(reader *r, char **tok, int n)
{
    int kind = -1;
    if (parse_discard(r, tok, n, &kind) < 0 || draw_from_record(r, kind) < 0)
        return -1;
    carc_move m = {CARC_MOVE_DISCARD, {0, 0, 0, 0}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
    return play(r, m);
}

/* `draw P TILE...`: player P drew these tiles, in order. */
static int read_draw(reader *r, char **tok, int n)
{
    long player = 0;
    if (n < 3)
        return fail(r, "'draw' takes a player and at least one tile");
    if (parse_number(r, tok[1], "player", &player) < 0)
        return -1;
    if (player < 1 || player > r->players)
        return fail(r, "no player %ld: players are 1 to %d", player, r->players);
    for (int i = 2; i < n; i++) {
        int kind = tile_id(r, tok[i]);
        if (kind < 0)
            return -1;
        if (carc_game_draw(r->game, (int)player - 1, kind) == CARC_OK)
            continue;
        int due_player;
        /* Refused though due: the tile is not in the supply, or not in its pile. */
        if (carc_game_draw_due(r->game, &due_player) > 0 && due_player == player - 1 &&
            supply_lacks(r, kind, due_player) < 0)
            return -1;
        return fail(r, "%s", carc_game_error(r->game));
    }
    return 0;
}

/* `start TILE`: the first tile drawn, the start tile. */
static int read_start(reader *r, char **tok, int n)
{
    if (n != 2)
        return fail(r, "'start' takes one tile");
    int kind = tile_id(r, tok[1]);
    if (kind < 0)
        return -1;
    if (r->start_read || carc_game_move_count(r->game) > 0)
        return fail(r, "'start' is the first line after the header, and only one");
    r->start_read = 1;
    if (carc_game_set_start(r->game, kind) != CARC_OK) {
        if (carc_game_kind_total(r->game, kind) == 0)
            return supply_lacks(r, kind, -1);
        return fail(r, "%s", carc_game_error(r->game));
    }
    return 0;
}

static int read_end(reader *r, int n)
{
    if (n != 1)
        return fail(r, "'end' takes nothing");
    r->ended = 1;
    if (carc_game_over(r->game))
        return 0;
    carc_event events[CARC_MAX_EVENTS];
    int nevents = 0;
    carc_game_finish(r->game, events, CARC_MAX_EVENTS, &nevents);
    carc_move none = {CARC_MOVE_DISCARD, {0, 0, 0, 0}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
    carc_replay_step step = {
        carc_game_move_count(r->game), 1, -1, CARC_NO_TILE, none, NULL, 0, NULL};
    if (r->fn)
        report_step(r, &step, events, nevents);
    return 0;
}

static int read_tokens(reader *r, char **tok, int n)
{
    if (!r->players) {
        if (strcmp(tok[0], "players") != 0)
            return fail(r, "a record must start with 'players N'");
        keep_header(r, tok[0]);
        return read_players(r, tok, n);
    }
    /* The draws due when the game ended (the draw-up after the last
     * placement) may still be named: the end does not depend on them. */
    int due_draw = r->game && strcmp(tok[0], "draw") == 0 && carc_game_draw_due(r->game, NULL) > 0;
    if (r->ended || (r->game && carc_game_over(r->game) && strcmp(tok[0], "end") != 0 && !due_draw))
        return fail(r, "the game is over; nothing may follow");
    if (!is_move_word(rules_record_lines(&r->rules), tok[0])) {
        if (r->game && is_header_key(tok[0]))
            return fail(r, "header line '%.20s' after the first move", tok[0]);
        if (!is_header_key(tok[0]))
            return fail(r, "not a move or a header: '%.20s'", tok[0]);
        keep_header(r, tok[0]);
        if (strcmp(tok[0], "players") == 0)
            return read_players(r, tok, n);
        if (strcmp(tok[0], "rules") == 0)
            return read_names(r, tok, &r->rules_line, rules_parse_names);
        if (strcmp(tok[0], "expansions") == 0)
            return read_names(r, tok, &r->expansions_line, rules_parse_expansions);
        return 0;
    }
    if (r->headers_only) {
        r->stopped = 1;
        return 0;
    }
    if (game_from_headers(r) < 0)
        return -1;
    if (strcmp(tok[0], "start") == 0)
        return read_start(r, tok, n);
    if ((rules_record_lines(&r->rules) & RECORD_START_LINE) && !r->start_read)
        return fail(r, "the rules name the start tile: the first line after the header is "
                       "'start TILE'");
    if (strcmp(tok[0], "draw") == 0)
        return read_draw(r, tok, n);
    if (strcmp(tok[0], "discard") == 0)
        return read_discard(r, tok, n);
    if (strcmp(tok[0], "end") == 0)
        return read_end(r, n);
    return read_placement(r, tok, n);
}

/* Checks the `n` bytes of `text` (one line without its end), copies them
 * into `line` and splits that into `tok`; returns the token count, or -1
 * after fail(). A newline can only come in a move given as a string: the
 * record reader splits its text at them. */
static int split_line(reader *r, const char *text, size_t n, char line[CARC_RECORD_MAX_LINE + 1],
                      char *tok[MAX_TOKENS + 1])
{
    int ntok = -1;
    if (n > CARC_RECORD_MAX_LINE) {
        fail(r, "the line is longer than %d bytes", CARC_RECORD_MAX_LINE);
    } else if (memchr(text, '\n', n)) {
        fail(r, "a move is a single line");
    } else if (check_text(r, text, n) == 0) {
        memcpy(line, text, n);
        line[n] = '\0';
        ntok = tokenize(line, tok);
        /* A header's value may have any number of words. */
        if (ntok > MAX_TOKENS &&
            (is_move_word(rules_record_lines(&r->rules), tok[0]) || !is_header_key(tok[0])))
            ntok = fail(r, "too many fields on the line");
    }
    return ntok;
}

static int read_line(reader *r, const char *text, size_t n)
{
    char line[CARC_RECORD_MAX_LINE + 1];
    char *tok[MAX_TOKENS + 1];
    r->text = text;
    r->text_len = n;
    r->copy = line;
    int ntok = split_line(r, text, n, line, tok);
    return ntok <= 0 ? ntok : read_tokens(r, tok, ntok);
}

/* Reads the record's lines until its end, an error, or a stop; returns 0,
 * or -1 after fail(). */
static int read_record(reader *r, const char *text, size_t len)
{
    r->err->line = 0;
    r->err->message[0] = '\0';
    size_t pos = 0;
    int failed = 0;
    while (pos < len && !failed && !r->stopped) {
        r->line++;
        const char *start = text + pos;
        const char *nl = memchr(start, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - start) : len - pos;
        if (pos + n + (nl != NULL) > CARC_RECORD_MAX_BYTES) {
            failed = fail(r, "the record is longer than %d bytes", CARC_RECORD_MAX_BYTES);
            break;
        }
        pos += n + (nl != NULL);
        if (n > 0 && start[n - 1] == '\r')
            n--;
        failed = read_line(r, start, n) < 0;
    }
    if (!failed && !r->players) {
        r->line = r->line ? r->line : 1;
        failed = fail(r, "the record has no 'players N' line");
    }
    return failed ? -1 : 0;
}

carc_game *carc_record_replay(const char *text, size_t len, uint64_t seed, carc_replay_fn fn,
                              void *ctx, carc_record_error *err)
{
    carc_record_error scratch = {0, ""};
    reader r = {.err = err ? err : &scratch, .seed = seed, .fn = fn, .ctx = ctx};
    if (!text && len > 0) {
        r.line = 1;
        fail(&r, "no record given");
        return NULL;
    }
    if (read_record(&r, text, len) < 0 || game_from_headers(&r) < 0) {
        carc_game_free(r.game);
        return NULL;
    }
    return r.game;
}

carc_game *carc_record_read(const char *text, size_t len, uint64_t seed, carc_record_error *err)
{
    return carc_record_replay(text, len, seed, NULL, NULL, err);
}

/* --- Headers ------------------------------------------------------------------------------ */

int carc_record_headers(const char *text, size_t len, carc_header *out, int cap,
                        carc_record_error *err)
{
    carc_record_error scratch = {0, ""};
    reader r = {
        .err = err ? err : &scratch, .headers = out, .cap = out ? cap : 0, .headers_only = 1};
    if (!text && len > 0) {
        r.line = 1;
        fail(&r, "no record given");
        return -1;
    }
    int failed = read_record(&r, text, len);
    carc_game_free(r.game);
    return failed ? -1 : r.nheaders;
}

int carc_header_find(const carc_header *headers, int n, const char *key)
{
    size_t key_len = key ? strlen(key) : 0;
    for (int i = 0; headers && key && i < n; i++)
        if (headers[i].key_len == key_len && memcmp(headers[i].key, key, key_len) == 0)
            return i;
    return -1;
}

/* Why `value` cannot be a header's value, or NULL when it can. */
static const char *value_problem(const char *value, size_t n)
{
    const unsigned char *s = (const unsigned char *)value;
    if (n > 0 && (s[0] == ' ' || s[n - 1] == ' '))
        return "the value starts or ends with a space";
    for (size_t i = 0; i < n;) {
        if (s[i] < 0x20 || s[i] == 0x7F)
            return "the value holds a control character";
        if (s[i] == '#')
            return "the value holds '#', which starts a comment";
        size_t len = utf8_length(s + i, n - i);
        if (len == 0)
            return "the value is not valid UTF-8";
        i += len;
    }
    return NULL;
}

carc_status carc_header_check(const char *key, const char *value, char *err, size_t errcap)
{
    /* `draw` and `start` are move words in some games: never header keys. */
    const char *problem = NULL;
    size_t key_len = key ? strnlen(key, CARC_RECORD_MAX_LINE + 1) : 0;
    size_t value_len = value ? strnlen(value, CARC_RECORD_MAX_LINE + 1) : 0;
    if (!key || !value)
        problem = "no key or no value given";
    else if (!key_shaped(key, key_len))
        problem = "a key is [a-z][a-z0-9_.-]+";
    else if (is_move_word(RECORD_ANY_LINES, key) || strcmp(key, "players") == 0 ||
             strcmp(key, "rules") == 0 || strcmp(key, "expansions") == 0)
        problem = "the key is a word of the notation";
    else if (key_len + 1 + value_len > CARC_RECORD_MAX_LINE)
        problem = "the line is too long";
    else
        problem = value_problem(value, value_len);
    format_error(err, errcap, "%s", problem ? problem : "");
    return problem ? CARC_EINVAL : CARC_OK;
}

carc_status carc_header_append(char *buf, size_t cap, const char *key, const char *value)
{
    size_t used = buf ? strnlen(buf, cap) : cap;
    if (used >= cap || carc_header_check(key, value, NULL, 0) != CARC_OK)
        return CARC_EINVAL;
    int n = snprintf(buf + used, cap - used, "%s%s%s\n", key, *value ? " " : "", value);
    if (n < 0 || (size_t)n >= cap - used) {
        buf[used] = '\0';
        return CARC_EINVAL;
    }
    return CARC_OK;
}

/* --- One move of the current position ------------------------------------------------ */

/* Reads the move line `text` for the drawn tile of `g` into `*out` and
 * checks it on a copy of the game; `*status` says why it failed. */
static int parse_move_line(reader *r, const carc_game *g, const char *text, carc_move *out,
                           carc_status *status)
{
    char line[CARC_RECORD_MAX_LINE + 1];
    char *tok[MAX_TOKENS + 1];
    *status = CARC_ESYNTAX;
    size_t n = strnlen(text, CARC_RECORD_MAX_LINE + 3);
    if (n > 0 && text[n - 1] == '\n')
        n--;
    if (n > 0 && text[n - 1] == '\r')
        n--;
    int ntok = split_line(r, text, n, line, tok);
    if (ntok < 0)
        return -1;
    if (ntok == 0)
        return fail(r, "no move on the line");
    int kind = -1;
    long xy[2] = {0, 0};
    carc_move m = {CARC_MOVE_DISCARD, {0, 0, 0, 0}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
    if (strcmp(tok[0], "discard") == 0) {
        if (parse_discard(r, tok, ntok, &kind) < 0)
            return -1;
    } else if (tok[0][0] >= 'A' && tok[0][0] <= 'Z') {
        if (parse_placement(r, tok, ntok, &kind, &m, xy) < 0)
            return -1;
    } else {
        return fail(r, "not a move: '%.20s'", tok[0]);
    }
    *status = CARC_EOVER;
    if (carc_game_over(g))
        return fail(r, "the game is over");
    *status = CARC_EILLEGAL;
    /* Where draws are named (rules_record_lines) the move names one of the tiles its
     * player holds; elsewhere the drawn tile. */
    carc_rules rules = carc_game_rules(g);
    int named = (rules_record_lines(&rules) & RECORD_DRAW_LINES) != 0;
    int drawn = carc_game_drawn_tile(g), held[CARC_MAX_HAND], found = 0;
    int nheld = carc_game_hand(g, carc_game_current_player(g), held, CARC_MAX_HAND);
    for (int i = 0; i < nheld && i < CARC_MAX_HAND; i++)
        found |= held[i] == kind;
    if (named && !found)
        return fail(r, "player %d holds no tile %s", carc_game_current_player(g) + 1,
                    carc_tile_data[kind].id);
    if (!named && kind != drawn)
        return fail(r, "tile %s is not the drawn tile %s", carc_tile_data[kind].id,
                    carc_tile_data[drawn].id);
    if (named)
        m.place.tile = (uint8_t)(kind + 1);
    if (m.type == CARC_MOVE_PLACE && place_square(r, xy, &m) < 0)
        return -1;
    carc_game *copy = carc_game_clone(g);
    if (!copy) {
        *status = CARC_ENOMEM;
        return fail(r, "out of memory");
    }
    int illegal = carc_game_play(copy, m, NULL, 0, NULL) != CARC_OK;
    if (illegal)
        fail(r, "%s", carc_game_error(copy));
    carc_game_free(copy);
    if (illegal)
        return -1;
    *status = CARC_OK;
    *out = m;
    return 0;
}

carc_status carc_move_parse_message(const carc_game *g, const char *text, carc_move *out, char *err,
                                    size_t errcap)
{
    carc_record_error e;
    reader r = {.err = &e, .line = 1};
    e.message[0] = '\0';
    carc_status status = CARC_EINVAL;
    if (!text || !out)
        snprintf(e.message, sizeof e.message, "no move given");
    else
        parse_move_line(&r, g, text, out, &status);
    format_error(err, errcap, "%s", status == CARC_OK ? "" : e.message);
    return status;
}

carc_status carc_move_parse(const carc_game *g, const char *text, carc_move *out)
{
    return carc_move_parse_message(g, text, out, NULL, 0);
}
