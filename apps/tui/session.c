/* session.c: the game, its seats, undo snapshots, the log, save and load. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "session.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "describe.h"
#include "saves.h"
#include "tile_info.h"
#include "words.h"

const char *session_player_name(int player)
{
    static const char *const names[CARC_MAX_PLAYERS] = {"Red",   "Blue", "Yellow", "Green",
                                                        "Black", "Grey", "Purple", "Pink"};
    return player >= 0 && player < CARC_MAX_PLAYERS ? names[player] : "?";
}

int session_is_human(const session *s, int player)
{
    return player >= 0 && player < s->nseats && !s->seats[player].player;
}

void session_log(session *s, const char *fmt, ...)
{
    if (s->nlog == SESSION_LOG_MAX) {
        memmove(s->log[0], s->log[1], sizeof s->log[0] * (SESSION_LOG_MAX - 1));
        s->nlog--;
        for (int i = 0; i < s->nsnaps; i++)
            s->snaps[i].log_len = s->snaps[i].log_len > 0 ? s->snaps[i].log_len - 1 : 0;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->log[s->nlog++], SESSION_LOG_LINE, fmt, ap);
    va_end(ap);
    s->logged++;
}

/* "Red", "Red and Blue", "Red, Blue and Yellow". */
static void names_of(unsigned mask, char *buf, size_t cap)
{
    int total = __builtin_popcount(mask), count = 0;
    size_t len = 0;
    buf[0] = '\0';
    for (int p = 0; p < CARC_MAX_PLAYERS && len < cap; p++) {
        if (!(mask & (1u << p)))
            continue;
        const char *sep = count == 0 ? "" : count == total - 1 ? " and " : ", ";
        int n = snprintf(buf + len, cap - len, "%s%s", sep, session_player_name(p));
        len += n > 0 ? (size_t)n : 0;
        count++;
    }
}

/* Traders & Builders' events: goods given for a completed city, 10 for a
 * goods majority at the end. */
static void goods_event_text(const carc_event *ev, const char *who, char *buf, size_t cap)
{
    static const char *const names[CARC_GOODS_TYPES] = {"wine", "grain", "cloth"};
    if (ev->complete) {
        char list[64] = "";
        size_t len = 0;
        for (int k = 0; k < CARC_GOODS_TYPES; k++)
            if (ev->goods[k] > 0 && len < sizeof list) {
                int n = snprintf(list + len, sizeof list - len, "%s%d %s", len ? ", " : "",
                                 ev->goods[k], names[k]);
                len = n > 0 ? len + (size_t)n : len;
            }
        snprintf(buf, cap, "%s %s %s for completing a city", who,
                 __builtin_popcount(ev->winners) == 1 ? "takes" : "take", list);
        return;
    }
    int type = 0;
    for (int k = 0; k < CARC_GOODS_TYPES; k++)
        if (ev->goods[k] > 0)
            type = k;
    snprintf(buf, cap, "%s %s %d for the most %s (%d)", who,
             __builtin_popcount(ev->winners) == 1 ? "scores" : "score", ev->points, names[type],
             ev->goods[type]);
}

void session_event_text(const carc_event *ev, char *buf, size_t cap)
{
    char who[64];
    names_of(ev->winners, who, sizeof who);
    if (ev->bonus == CARC_BONUS_GOODS && ev->winners) {
        goods_event_text(ev, who, buf, cap);
        return;
    }
    if (ev->bonus == CARC_BONUS_PIG && ev->winners) {
        snprintf(buf, cap, "%s %s %d more for the pig on a farm", who,
                 __builtin_popcount(ev->winners) == 1 ? "scores" : "score", ev->points);
        return;
    }
    const char *open = !ev->complete && ev->kind != CARC_FIELD ? "an open " : "a ";
    if (ev->kind == CARC_CITY && ev->complete)
        open = "a ";
    if (ev->winners == 0)
        snprintf(buf, cap, "no one scores %s%s", open, carc_kind_name(ev->kind));
    else if (__builtin_popcount(ev->winners) == 1)
        snprintf(buf, cap, "%s scores %d for %s%s", who, ev->points, open,
                 carc_kind_name(ev->kind));
    else
        snprintf(buf, cap, "%s score %d each for %s%s", who, ev->points, open,
                 carc_kind_name(ev->kind));
}

/* Keeps the events of the final scoring (complete == 0) that scored. */
static void keep_final_events(session *s, const carc_event *events, int n)
{
    s->nfinal = 0;
    for (int i = 0; i < n && i < CARC_MAX_EVENTS; i++)
        if (!events[i].complete && events[i].winners && events[i].points > 0)
            s->final_events[s->nfinal++] = events[i];
}

static void log_events(session *s, const carc_event *events, int n)
{
    for (int i = 0; i < n && i < CARC_MAX_EVENTS; i++) {
        char text[SESSION_LOG_LINE];
        int goods = events[i].bonus == CARC_BONUS_GOODS;
        if (events[i].winners == 0 || (events[i].points == 0 && !goods))
            continue;
        session_event_text(&events[i], text, sizeof text);
        session_log(s, "%s", text);
    }
}

/* "Turn 22: Blue put V at 2,-1 (knight)". */
static void log_placement(session *s, carc_move m, int turn, int mover, int kind)
{
    const carc_tile_def *def = carc_tile(kind);
    if (!def)
        return;
    int has_role = m.segment < def->nsegments;
    const char *role = !has_role                         ? ""
                       : m.figure == CARC_FIGURE_BUILDER ? "builder"
                       : m.figure == CARC_FIGURE_PIG     ? "pig"
                                                     : words_role(def->segments[m.segment].kind);
    session_log(s, "Turn %d: %s put %s at %d,%d%s%s%s", turn, session_player_name(mover), def->id,
                m.place.x, m.place.y, has_role ? " (" : "", role, has_role ? ")" : "");
}

/* Logs a move of the game: turn `turn` (1-based), played by `mover` with
 * tile `kind` on the board of `g` (just after the move; `before` marks the
 * pile before it, `before.left` -1 when not known); `last` when it was the
 * last tile, whose events hold the final scoring. A discard is a turn of
 * its own and says why, and whether its tile went back into the pile. */
static void log_move(session *s, const carc_game *g, tile_pile_mark before, carc_move m, int turn,
                     int mover, int kind, int last, const carc_event *events, int n)
{
    if (m.type == CARC_MOVE_DISCARD && kind >= 0) {
        char why[160];
        describe_discard(g, kind, why, sizeof why);
        session_log(s, "Turn %d: %s discards %s: %s%s", turn, session_player_name(mover),
                    carc_tile_id(kind), why,
                    before.left >= 0 && tile_info_went_back(g, before) ? "; back into the pile"
                                                                       : "");
    } else {
        log_placement(s, m, turn, mover, kind);
    }
    if (last) {
        session_log(s, "The last tile is down: final scoring");
        keep_final_events(s, events, n);
    }
    log_events(s, events, n);
    if (!carc_game_over(g) && carc_game_second_part(g))
        session_log(s, "Builder: %s plays a second tile", session_player_name(mover));
}

carc_status session_play(session *s, carc_move m)
{
    carc_event events[CARC_MAX_EVENTS];
    int n = 0, mover = carc_game_current_player(s->g), was_over = carc_game_over(s->g);
    /* With a hand, the move names the hand's tile it plays. */
    int kind = m.place.tile ? m.place.tile - 1 : carc_game_drawn_tile(s->g);
    tile_pile_mark before = tile_info_pile_mark(s->g);
    carc_status st = carc_game_play(s->g, m, events, CARC_MAX_EVENTS, &n);
    if (st != CARC_OK)
        return st;
    s->dirty = 1;
    log_move(s, s->g, before, m, carc_game_move_count(s->g), mover, kind,
             !was_over && carc_game_over(s->g), events, n);
    return CARC_OK;
}

void session_turn_begins(session *s)
{
    int moves = carc_game_move_count(s->g);
    if (s->nsnaps > 0 && s->snaps[s->nsnaps - 1].moves == moves)
        return;
    if (s->nsnaps == SESSION_MAX_SNAPSHOTS) {
        carc_game_free(s->snaps[0].game);
        memmove(&s->snaps[0], &s->snaps[1], sizeof s->snaps[0] * (SESSION_MAX_SNAPSHOTS - 1));
        s->nsnaps--;
    }
    carc_game *copy = carc_game_clone(s->g);
    if (!copy)
        return;
    s->snaps[s->nsnaps++] = (snapshot){copy, moves, s->nlog};
}

int session_undo(session *s)
{
    int moves = carc_game_move_count(s->g);
    while (s->nsnaps > 0 && s->snaps[s->nsnaps - 1].moves >= moves) {
        carc_game_free(s->snaps[s->nsnaps - 1].game);
        s->nsnaps--;
    }
    if (s->nsnaps == 0)
        return -1;
    snapshot *top = &s->snaps[s->nsnaps - 1];
    carc_game_copy(s->g, top->game);
    s->nlog = top->log_len < s->nlog ? top->log_len : s->nlog;
    s->dirty = 1;
    return 0;
}

int session_discards(const session *s, int counts[CARC_MAX_KINDS])
{
    int total = 0;
    memset(counts, 0, sizeof(int) * CARC_MAX_KINDS);
    int n = carc_game_move_count(s->g);
    for (int i = 0; i < n; i++) {
        carc_move m;
        int kind = 0;
        if (carc_game_move_at(s->g, i, &m, &kind) == CARC_OK && m.type == CARC_MOVE_DISCARD &&
            kind >= 0 && kind < CARC_MAX_KINDS) {
            counts[kind]++;
            total++;
        }
    }
    return total;
}

/* --- Seats ------------------------------------------------------------------ */

/* "mcts:level=hard,ms=500" -> "mcts hard"; "greedy:eval=full" -> "greedy". */
static void short_name(const char *spec, char *out, size_t cap)
{
    size_t kind = strcspn(spec, ":");
    const char *level = strstr(spec, "level=");
    if (level && level > spec + kind)
        snprintf(out, cap, "%.*s %.*s", (int)kind, spec, (int)strcspn(level + 6, ",+"), level + 6);
    else
        snprintf(out, cap, "%.*s", (int)kind, spec);
}

static int make_seats(session *s, char specs[][PLAY_SPEC_MAX], int n, char *err, size_t errcap)
{
    s->nseats = n;
    s->computers = 0;
    for (int i = 0; i < n; i++) {
        snprintf(s->seats[i].spec, sizeof s->seats[i].spec, "%s", specs[i]);
        short_name(specs[i], s->seats[i].short_name, sizeof s->seats[i].short_name);
        if (play_seat_is_human(specs[i]))
            continue;
        s->seats[i].player =
            carc_player_new(specs[i], s->seed + 7919u * (uint64_t)(i + 1), err, errcap);
        if (!s->seats[i].player)
            return -1;
        s->computers++;
    }
    return 0;
}

/* The header lines of the record `text` (`len` bytes): a new array the
 * caller frees, their count in `*n`; NULL when there are none or they
 * break the notation (the record reader then says why). */
static carc_header *read_headers(const char *text, size_t len, int *n)
{
    *n = carc_record_headers(text, len, NULL, 0, NULL);
    carc_header *h = *n > 0 ? malloc(sizeof *h * (size_t)*n) : NULL;
    if (!h || carc_record_headers(text, len, h, *n, NULL) != *n) {
        free(h);
        *n = 0;
        return NULL;
    }
    return h;
}

/* The seats saved in a record's "seat-N SPEC" header lines, into `specs`;
 * returns the highest N found (0 when none). */
static int saved_seats(const carc_header *h, int n, char specs[][PLAY_SPEC_MAX])
{
    int found = 0;
    for (int i = 0; i < n; i++) {
        if (h[i].key_len != 6 || strncmp(h[i].key, "seat-", 5) != 0)
            continue;
        int number = h[i].key[5] - '0';
        if (number < 1 || number > CARC_MAX_PLAYERS || h[i].value_len >= PLAY_SPEC_MAX)
            continue;
        snprintf(specs[number - 1], PLAY_SPEC_MAX, "%.*s", (int)h[i].value_len, h[i].value);
        found = number > found ? number : found;
    }
    return found;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(CARC_RECORD_MAX_BYTES + 2);
    size_t n = buf ? fread(buf, 1, CARC_RECORD_MAX_BYTES + 1, f) : 0;
    int failed = !buf || ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* The seats of a loaded game: --players, else the record's, else the
 * newcomer's default: a human at seat 1, the computer at the others. */
static int seats_for_load(session *s, const play_options *opt, const carc_header *h, int nh,
                          char *err, size_t errcap)
{
    int players = carc_game_players(s->g);
    char specs[CARC_MAX_PLAYERS][PLAY_SPEC_MAX];
    if (opt->nseats > 0) {
        if (opt->nseats != players) {
            snprintf(err, errcap, "the record has %d players, --players names %d", players,
                     opt->nseats);
            return -1;
        }
        memcpy(specs, opt->seats, sizeof specs);
    } else {
        for (int i = 0; i < players; i++)
            snprintf(specs[i], PLAY_SPEC_MAX, "%s", i == 0 ? "human" : "mcts");
        char saved[CARC_MAX_PLAYERS][PLAY_SPEC_MAX] = {{0}};
        int n = saved_seats(h, nh, saved);
        for (int i = 0; i < n && i < players; i++)
            if (saved[i][0])
                memcpy(specs[i], saved[i], PLAY_SPEC_MAX);
    }
    return make_seats(s, specs, players, err, errcap);
}

/* The deal of a saved game: its "seed N" header line. Returns 1 and sets
 * `*seed` when the record has one, 0 when not. */
static int saved_seed(const carc_header *h, int n, uint64_t *seed)
{
    int i = carc_header_find(h, n, "seed");
    if (i < 0 || h[i].value_len == 0 || h[i].value_len > 20 ||
        strspn(h[i].value, "0123456789") < h[i].value_len)
        return 0;
    *seed = strtoull(h[i].value, NULL, 10);
    return 1;
}

/* carc_replay_fn: the log of a loaded game, rebuilt as its record is read:
 * every move and what it scored, the final scoring too. */
static int log_step(void *ctx, const carc_replay_step *step)
{
    session *s = ctx;
    if (step->end) {
        session_log(s, "The game was ended early: final scoring");
        log_events(s, step->events, step->nevents);
        keep_final_events(s, step->events, step->nevents);
    } else {
        log_move(s, step->game, s->replayed, step->move, step->index + 1, step->player,
                 step->tile_kind, carc_game_over(step->game), step->events, step->nevents);
    }
    s->replayed = tile_info_pile_mark(step->game);
    return 0;
}

static int load_game(session *s, const play_options *opt, char *err, size_t errcap)
{
    size_t len = 0;
    const char *path = opt->load;
    char *text = read_file(path, &len);
    char in_saves[SESSION_PATH_MAX], dir[SESSION_PATH_MAX];
    if (!text && errno == ENOENT && !strchr(path, '/') &&
        saves_dir(opt->save_dir, dir, sizeof dir) == 0 &&
        saves_resolve(dir, path, in_saves, sizeof in_saves) == 0) {
        text = read_file(in_saves, &len); /* a bare name: also the saves folder */
        path = text ? in_saves : path;
        errno = text ? 0 : ENOENT;
    }
    if (!text) {
        snprintf(err, errcap, "cannot read %s: %s", path, strerror(errno));
        return SESSION_USAGE;
    }
    int nh = 0;
    carc_header *headers = read_headers(text, len, &nh);
    uint64_t seed = 0;
    if (saved_seed(headers, nh, &seed)) {
        if (opt->seed_given && opt->seed != seed) {
            snprintf(err, errcap, "%s was dealt from seed %llu: --seed cannot change a saved game",
                     path, (unsigned long long)seed);
            free(headers);
            free(text);
            return SESSION_USAGE;
        }
        s->seed = seed;
    }
    carc_record_error rerr;
    s->replayed = (tile_pile_mark){-1, -1}; /* not known before the first move */
    s->g = carc_record_replay(text, len, s->seed, log_step, s, &rerr);
    int status = s->g ? SESSION_OK : SESSION_INVALID;
    if (!s->g)
        snprintf(err, errcap, "%s: line %d: %s", path, rerr.line, rerr.message);
    else if (seats_for_load(s, opt, headers, nh, err, errcap) != 0)
        status = SESSION_USAGE;
    free(headers);
    free(text);
    if (status != SESSION_OK)
        return status;
    s->dirty = 0;
    char *full = realpath(path, NULL);
    snprintf(s->saved_path, sizeof s->saved_path, "%s", full ? full : path);
    free(full);
    session_log(s, "Resumed %s after %d moves", opt->load, /* as the user named it */
                carc_game_move_count(s->g));
    return status;
}

/* " with The River, Inns & Cathedrals and Traders & Builders": the
 * expansions a game plays, for the log's first line ("" with none). */
static void expansions_in_words(uint32_t expansions, char *out, size_t cap)
{
    int n = 0, total = 0;
    for (uint32_t bit = 1; bit != 0; bit <<= 1)
        total += (expansions & bit) && carc_expansion_title(bit);
    size_t len = 0;
    out[0] = 0;
    for (uint32_t bit = 1; bit != 0 && len < cap; bit <<= 1) {
        const char *title = (expansions & bit) ? carc_expansion_title(bit) : NULL;
        if (!title)
            continue;
        const char *sep = n == 0 ? " with " : n + 1 == total ? " and " : ", ";
        len += (size_t)snprintf(out + len, cap - len, "%s%s", sep, title);
        n++;
    }
}

int session_open(session *s, const play_options *opt, char *err, size_t errcap)
{
    memset(s, 0, sizeof *s);
    s->seed = opt->seed_given ? opt->seed : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    if (opt->load)
        return load_game(s, opt, err, errcap);
    char specs[CARC_MAX_PLAYERS][PLAY_SPEC_MAX] = {"human", "mcts"};
    int n = 2;
    if (opt->nseats > 0) {
        memcpy(specs, opt->seats, sizeof specs);
        n = opt->nseats;
    }
    carc_rules rules = opt->rules;
    char why[128] = "";
    if (carc_rules_check(&rules, why, sizeof why) != CARC_OK) {
        snprintf(err, errcap, "%s", why);
        return SESSION_USAGE;
    }
    s->g = carc_game_new(n, &rules, s->seed);
    if (!s->g) {
        snprintf(err, errcap,
                 "cannot start the game: out of memory, or rules this version "
                 "cannot play");
        return SESSION_USAGE;
    }
    if (make_seats(s, specs, n, err, errcap) != 0)
        return SESSION_USAGE;
    char with[96];
    expansions_in_words(rules.expansions, with, sizeof with);
    session_log(s, "New game%s, seed %llu", with, (unsigned long long)s->seed);
    return SESSION_OK;
}

void session_close(session *s)
{
    for (int i = 0; i < s->nseats; i++)
        carc_player_free(s->seats[i].player);
    for (int i = 0; i < s->nsnaps; i++)
        carc_game_free(s->snaps[i].game);
    carc_game_free(s->g);
    memset(s, 0, sizeof *s);
}

int session_save(session *s, const char *path, char *err, size_t errcap)
{
    char headers[CARC_MAX_PLAYERS * (PLAY_SPEC_MAX + 16) + 64] = "", key[16], value[24];
    snprintf(value, sizeof value, "%llu", (unsigned long long)s->seed);
    carc_header_append(headers, sizeof headers, "seed", value);
    for (int i = 0; i < s->nseats; i++) {
        snprintf(key, sizeof key, "seat-%d", i + 1);
        carc_header_append(headers, sizeof headers, key, s->seats[i].spec);
    }
    size_t need = carc_record_write(s->g, headers, NULL, 0);
    char *text = malloc(need + 1);
    FILE *f = text ? fopen(path, "w") : NULL;
    if (!f) {
        snprintf(err, errcap, "cannot write %s: %s", path, text ? strerror(errno) : "no memory");
        free(text);
        return -1;
    }
    carc_record_write(s->g, headers, text, need + 1);
    int failed = fwrite(text, 1, need, f) != need;
    failed |= fclose(f) != 0;
    free(text);
    if (failed) {
        snprintf(err, errcap, "cannot write %s", path);
        return -1;
    }
    s->dirty = 0;
    char *full = realpath(path, NULL);
    snprintf(s->saved_path, sizeof s->saved_path, "%s", full ? full : path);
    free(full);
    return 0;
}
