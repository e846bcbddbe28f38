/* arena.c: `carcassonne arena`: deck-paired games between two players,
 * library players or outside engines, with the statistics of the match. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena_stats.h"
#include "carcassonne_ai.h"
#include "args.h"
#include "cli.h"
#include "engine_process.h"
#include "wire.h"

static const char arena_usage[] =
    "usage: carcassonne arena A B --games N [--threads T] [--seed S] [--json]\n"
    "                         [--rules NAME,...] [--expansions NAME,...]\n"
    "                         [--record DIR [--resume]] [--engine-ms MS] [--verbose]\n"
    "\n"
    "Plays N two-player games between players A and B. Each shuffled deck is\n"
    "played twice with the seats swapped (game 2i: A moves first; game 2i+1:\n"
    "B does), and prints A's wins, draws and losses, A's score rate (a draw\n"
    "counts half) with a 95% interval, the mean score margin A-B, an Elo\n"
    "difference estimate and the mean time per move (docs/arena.md).\n"
    "\n"
    "A and B are player specs: random, greedy, mcts, mcts:ms=1000,\n"
    "mcts:iters=20000, vanilla-mcts, star25, ..., or engine:COMMAND for an\n"
    "outside program speaking the engine protocol (docs/protocol.md), started\n"
    "with /bin/sh -c COMMAND once per thread and kept from game to game\n"
    "('new' per game). An engine that sends an illegal move or a bad reply,\n"
    "exits, or stays silent past twice its budget plus a second (10 s for\n"
    "other replies) loses that game and is started again for the next one;\n"
    "its process group is killed when it ends. greedy and mcts take\n"
    "eval=basic|full, the static evaluation they use (mcts defaults to full,\n"
    "greedy to basic): greedy:eval=full, mcts:ms=500,eval=basic.\n"
    "\n"
    "  --games N        games to play (1..100000; an even N pairs every deck)\n"
    "  --threads T      games played at once (default 1)\n"
    "  --seed S         decks and players' seeds (default 1): the same\n"
    "                   arguments replay the same match when the players\n"
    "                   have iteration budgets\n"
    "  --rules NAMES    rule variants, comma-separated (record names;\n"
    "                   valued ones as NAME=VALUE: hand=3)\n"
    "  --expansions NAMES\n"
    "                   expansions, comma-separated (river, inns-cathedrals,\n"
    "                   traders-builders; default none);\n"
    "                   outside engines get them in 'new'\n"
    "  --record DIR     write every game's record into DIR (game-0001.rec ...);\n"
    "                   a record that cannot be written is reported, the match\n"
    "                   goes on, and the exit status is then 1; a DIR that\n"
    "                   already holds game records is refused (status 2)\n"
    "                   without --resume\n"
    "  --resume         with --record: a game whose finished record is already in\n"
    "                   DIR is counted from it, not played again, so a stopped\n"
    "                   match goes on where it was (the same arguments again)\n"
    "  --engine-ms MS   time budget per move sent to outside engines (1000)\n"
    "  --json           print one JSON object instead of text\n"
    "  --verbose        a line per game on standard error (always on a terminal)\n";

enum { SIDE_A = 0, SIDE_B = 1, MAX_THREADS = 64, MAX_GAMES = 100000, WHY_CAP = 320 };
enum { PATH_CAP = 4096, RECORD_ERROR_CAP = PATH_CAP + 128 };

/* Outside engines get this long for a reply that needs no search. */
static const int engine_setup_ms = 10000;

typedef struct side {
    const char *spec;    /* as given */
    const char *command; /* engine:COMMAND: the command, else NULL */
    char name[128];      /* the library's spelled-out spec, or the spec */
} side;

typedef struct match {
    side sides[2];
    carc_rules rules;
    uint64_t seed;
    int games, threads, engine_ms, verbose, json;
    const char *record_dir;
    int resume;
    arena_game *results;
    unsigned char *resumed; /* per game: 1 when counted from its record */
    int resumed_count;
    pthread_mutex_t lock; /* guards next, finished, failed, unwritten and stderr */
    int next, finished, failed;
    int unwritten; /* records that could not be written */
} match;

/* One seat of a game: a library player or an outside engine. */
typedef struct seat {
    int side; /* SIDE_A or SIDE_B */
    carc_player *player;
    engine_process *engine; /* borrowed from the worker's engines */
    double seconds;
    int moves;
    int unfit; /* an engine that did not answer 'end': not kept for the next game */
} seat;

/* The outside engines of one worker thread, one process per side, kept
 * from game to game ('new' starts the next game) while they behave. */
typedef struct engines {
    engine_process *side[2];
} engines;

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t z = a ^ (b + 0x9E3779B97F4A7C15ull + (a << 6) + (a >> 2));
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Replaces what a terminal or a record should not show by '?'. */
static void make_printable(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7F)
            *s = '?';
}

/* --- Seats ------------------------------------------------------------------------------ */

/* Tells an outside engine something that is answered {"type":"ok"} (a
 * hand game's `draw`: {"type":"hand"}). */
static int engine_tell(engine_process *e, json_t *request, char *why, size_t cap)
{
    const char *type = json_string_value(json_object_get(request, "type"));
    const char *answer = type && !strcmp(type, "draw") ? "hand" : "ok";
    json_t *reply = engine_process_ask(e, request, answer, engine_setup_ms, why, cap);
    json_decref(reply);
    return reply ? 0 : -1;
}

/* Sends 'new' for a game in seat `seat_index`. */
static int engine_new_game(engine_process *e, const match *m, int seat_index, uint64_t seed,
                           char *why, size_t cap)
{
    json_t *request =
        json_pack("{s:s, s:i, s:i, s:o, s:I}", "type", "new", "players", 2, "seat", seat_index,
                  "rules", wire_rules(m->rules), "seed", (json_int_t)(seed >> 1));
    /* Only a game with expansions says so: an engine of protocol 2 that
     * knows no expansions plays the base game as before. */
    if (m->rules.expansions)
        json_object_set_new(request, "expansions", wire_expansions(m->rules));
    return engine_tell(e, request, why, cap);
}

/* The engine process of side `side_index` with a new game started: the
 * worker's own from its last game when that one takes 'new', else a
 * fresh one. */
static engine_process *engine_for_game(engines *pool, const match *m, int side_index,
                                       int seat_index, uint64_t seed, char *why, size_t cap)
{
    engine_process **e = &pool->side[side_index];
    if (*e && engine_new_game(*e, m, seat_index, seed, why, cap) == 0)
        return *e;
    engine_process_close(*e); /* ended, or no longer fit for a game */
    *e = engine_process_start(m->sides[side_index].command, why, cap);
    if (*e && engine_new_game(*e, m, seat_index, seed, why, cap) < 0) {
        engine_process_close(*e);
        *e = NULL;
    }
    return *e;
}

static int seat_open(seat *s, const match *m, engines *pool, int side_index, int seat_index,
                     uint64_t seed, char *why, size_t cap)
{
    memset(s, 0, sizeof *s);
    s->side = side_index;
    if (m->sides[side_index].command) {
        s->engine = engine_for_game(pool, m, side_index, seat_index, seed, why, cap);
        return s->engine ? 0 : -1;
    }
    s->player = carc_player_new(m->sides[side_index].spec, seed, why, cap);
    return s->player ? 0 : -1;
}

/* Ends a seat's game. An engine that forfeited is stopped, its process
 * group killed: the next game starts a fresh one. */
static void seat_close(seat *s, engines *pool, int forfeited)
{
    carc_player_free(s->player);
    if (s->engine && (forfeited || s->unfit)) {
        engine_process_close(s->engine);
        pool->side[s->side] = NULL;
    }
}

static void engines_close(engines *pool)
{
    for (int i = 0; i < 2; i++)
        engine_process_close(pool->side[i]);
}

/* Asks an outside engine for its move and checks it. */
static int engine_choose(seat *s, const match *m, const carc_game *g, carc_move *out, char *why,
                         size_t cap)
{
    int timeout = 2 * m->engine_ms + 1000;
    json_t *reply =
        engine_process_ask(s->engine, json_pack("{s:s, s:i}", "type", "go", "ms", m->engine_ms),
                           "move", timeout, why, cap);
    if (!reply)
        return -1;
    const char *text = json_string_value(json_object_get(reply, "move"));
    int status = 0;
    char reason[160];
    if (!text) {
        snprintf(why, cap, "a reply to 'go' without a \"move\"");
        status = -1;
    } else if (carc_move_parse_message(g, text, out, reason, sizeof reason) != CARC_OK) {
        snprintf(why, cap, "illegal move '%.40s': %s", text, reason);
        status = -1;
    }
    json_decref(reply);
    return status;
}

/* --- One game ---------------------------------------------------------------------------- */

typedef struct game_run {
    carc_game *g;
    seat seats[2];
    int opened;
    char why[WHY_CAP]; /* why a seat forfeited */
    int forfeit_seat;  /* -1: none */
    int draws_told;    /* hand=N: draws of the game's log told to the engines */
} game_run;

/* Game `index` is dealt from deck pair index / 2, with A in seat index % 2. */
static uint64_t deal_of(const match *m, int index)
{
    return mix(m->seed, (uint64_t)(index / 2));
}

static int side_in_seat(int index, int seat_index)
{
    return seat_index == index % 2 ? SIDE_A : SIDE_B;
}

/* The spec of seat `seat_index` of game `index` as its record names it. */
static void seat_spec(const match *m, int index, int seat_index, char *out, size_t cap)
{
    snprintf(out, cap, "%s", m->sides[side_in_seat(index, seat_index)].name);
    make_printable(out);
}

/* The final scores of `g` and who forfeited (seat, -1: nobody), seen from
 * A in seat `a_seat`; the times are left as they are. */
static void set_outcome(arena_game *res, const carc_game *g, int a_seat, int forfeit_seat)
{
    res->a_score = carc_game_score(g, a_seat);
    res->b_score = carc_game_score(g, 1 - a_seat);
    res->forfeit = forfeit_seat < 0         ? ARENA_NO_FORFEIT
                   : forfeit_seat == a_seat ? ARENA_A_FORFEITS
                                            : ARENA_B_FORFEITS;
}

static int tell_engines(game_run *r, json_t *request)
{
    for (int s = 0; s < 2; s++) {
        if (!r->seats[s].engine)
            continue;
        if (engine_tell(r->seats[s].engine, json_incref(request), r->why, sizeof r->why) < 0) {
            r->forfeit_seat = s;
            json_decref(request);
            return -1;
        }
    }
    json_decref(request);
    return 0;
}

/* hand=N: the draws since the last told, a `draw` request for each run of
 * one player's (docs/protocol.md). The engines are told every draw, the
 * hidden hands' too, as a record names them: an engine's player decides
 * from its seat's information set and never looks at them. */
static int tell_draws(game_run *r)
{
    int n = carc_game_draw_count(r->g);
    while (r->draws_told < n) {
        int player, kind, next, nk;
        carc_game_draw_at(r->g, r->draws_told, &player, &kind, NULL);
        json_t *tiles = json_array();
        for (; r->draws_told < n; r->draws_told++) {
            carc_game_draw_at(r->g, r->draws_told, &next, &nk, NULL);
            if (next != player)
                break;
            json_array_append_new(tiles, json_string(carc_tile_id(nk)));
        }
        if (tell_engines(r, json_pack("{s:s, s:i, s:o}", "type", "draw", "player", player, "tiles",
                                      tiles)) < 0)
            return -1;
    }
    return 0;
}

/* One turn: the tile (a hand game: the draws) to the engines, the mover's
 * choice, the move to the engines, the move played. */
static int play_turn(game_run *r, const match *m)
{
    carc_game *g = r->g;
    int p = carc_game_current_player(g);
    const char *tile = carc_tile_id(carc_game_drawn_tile(g));
    if (carc_game_rules(g).hand ? tell_draws(r) < 0
                                : tell_engines(r, json_pack("{s:s, s:i, s:s}", "type", "tile",
                                                            "player", p, "tile", tile)) < 0)
        return -1;
    seat *s = &r->seats[p];
    carc_move mv;
    double start = proto_now_ms();
    int ok = s->engine ? engine_choose(s, m, g, &mv, r->why, sizeof r->why) == 0
                       : carc_player_choose(s->player, g, &mv, NULL) == CARC_OK;
    s->seconds += (proto_now_ms() - start) * 1e-3;
    s->moves++;
    if (!ok) {
        if (!s->engine)
            snprintf(r->why, sizeof r->why, "the player chose no move");
        r->forfeit_seat = p;
        return -1;
    }
    char text[32];
    carc_move_write(g, mv, text, sizeof text);
    /* Played first: a library player's move is legal by contract, but a
     * broken one must lose the game rather than repeat itself for ever. */
    if (carc_game_play(g, mv, NULL, 0, NULL) != CARC_OK) {
        snprintf(r->why, sizeof r->why, "illegal move '%s': %s", text, carc_game_error(g));
        r->forfeit_seat = p;
        return -1;
    }
    return tell_engines(r, json_pack("{s:s, s:i, s:s}", "type", "move", "player", p, "move", text));
}

/* The header lines of game `index`'s record (docs/arena.md): its deck's
 * seed, its number, its seats, and a forfeit. */
static void record_headers(const match *m, const game_run *r, int index, uint64_t deal,
                           char *headers, size_t cap)
{
    char value[32];
    headers[0] = '\0';
    snprintf(value, sizeof value, "%llu", (unsigned long long)deal);
    carc_header_append(headers, cap, "seed", value);
    snprintf(value, sizeof value, "%d", index + 1);
    carc_header_append(headers, cap, "arena-game", value);
    for (int s = 0; s < 2; s++) {
        char spec[300], key[16];
        seat_spec(m, index, s, spec, sizeof spec);
        snprintf(key, sizeof key, "player-%d", s + 1);
        /* A spec of more than one token (an outside engine's command) is
         * written as a comment. */
        if (strcspn(spec, " \t#") != strlen(spec) ||
            carc_header_append(headers, cap, key, spec) != CARC_OK)
            snprintf(headers + strlen(headers), cap - strlen(headers), "# player %d: %s\n", s + 1,
                     spec);
    }
    if (r->forfeit_seat >= 0)
        snprintf(headers + strlen(headers), cap - strlen(headers), "# player %d forfeits: %s\n",
                 r->forfeit_seat + 1, r->why);
}

/* Writes game `index`'s record into the record folder; on failure, -1
 * with the reason in `why`. */
static int write_record(const match *m, const game_run *r, int index, uint64_t deal, char *why,
                        size_t cap)
{
    char headers[1024], path[PATH_CAP];
    record_headers(m, r, index, deal, headers, sizeof headers);
    /* Written whole under another name, then renamed: a match stopped
     * mid-write leaves no cut record for --resume to count. */
    char part[PATH_CAP + 8];
    snprintf(path, sizeof path, "%s/game-%04d.rec", m->record_dir, index + 1);
    snprintf(part, sizeof part, "%s.part", path);
    size_t need = carc_record_write(r->g, headers, NULL, 0);
    char *text = malloc(need + 1);
    FILE *f = text ? fopen(part, "w") : NULL;
    int ok = f != NULL;
    if (ok) {
        carc_record_write(r->g, headers, text, need + 1);
        ok = fputs(text, f) >= 0;
        ok = fclose(f) == 0 && ok;
        ok = ok && rename(part, path) == 0;
    }
    if (!ok) {
        snprintf(why, cap, "cannot write %s: %s", path, strerror(errno));
        if (f)
            remove(part);
    }
    free(text);
    return ok ? 0 : -1;
}

/* --- Resuming from records --------------------------------------------------------- */

/* Whether a comment line of record `text` starts with `prefix` ("# player
 * 1: " ...): the seats and forfeits write_record() writes as comments. The
 * rest of the line goes into `out` (may be NULL). */
static int comment_value(const char *text, const char *prefix, char *out, size_t cap)
{
    size_t plen = strlen(prefix);
    const char *line = text;
    while (line && strncmp(line, prefix, plen) != 0) {
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    if (line && out && cap) {
        size_t n = strcspn(line + plen, "\r\n");
        n = n < cap ? n : cap - 1;
        memcpy(out, line + plen, n);
        out[n] = '\0';
    }
    return line != NULL;
}

/* Whether header `key` of `h[0 .. n)` has the value `want`. */
static int header_is(const carc_header *h, int n, const char *key, const char *want)
{
    int i = carc_header_find(h, n, key);
    return i >= 0 && h[i].value_len == strlen(want) &&
           memcmp(h[i].value, want, h[i].value_len) == 0;
}

/* Whether the headers of record `text` (`len` bytes) are those
 * write_record() gives game `index` of this match: its deck's seed, its
 * number, its seats. */
static int record_is_of(const match *m, const char *text, size_t len, int index, uint64_t deal)
{
    enum { MAX_HEADERS = 64 };
    carc_header h[MAX_HEADERS];
    int n = carc_record_headers(text, len, h, MAX_HEADERS, NULL);
    n = n < MAX_HEADERS ? n : MAX_HEADERS;
    char want[320], got[320];
    snprintf(want, sizeof want, "%llu", (unsigned long long)deal);
    if (!header_is(h, n, "seed", want))
        return 0;
    snprintf(want, sizeof want, "%d", index + 1);
    if (!header_is(h, n, "arena-game", want))
        return 0;
    for (int s = 0; s < 2; s++) {
        char key[16], comment[24];
        snprintf(key, sizeof key, "player-%d", s + 1);
        snprintf(comment, sizeof comment, "# player %d: ", s + 1);
        seat_spec(m, index, s, want, sizeof want);
        if (!header_is(h, n, key, want) &&
            !(comment_value(text, comment, got, sizeof got) && strcmp(got, want) == 0))
            return 0;
    }
    return 1;
}

/* Counts game `index` from its record in the record folder. 1: counted;
 * 0: no record, or an unfinished one (the game is played again); -1: a
 * record that cannot be read or is of another match, with the reason in
 * `why`. */
static int resume_game(match *m, int index, char *why, size_t cap)
{
    char path[PATH_CAP];
    snprintf(path, sizeof path, "%s/game-%04d.rec", m->record_dir, index + 1);
    size_t len = 0;
    errno = 0;
    char *text = cli_read_file(path, CARC_RECORD_MAX_BYTES, &len);
    if (!text) {
        if (errno == ENOENT)
            return 0;
        snprintf(why, cap, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    uint64_t deal = deal_of(m, index);
    carc_record_error err = {0, ""};
    carc_game *g = carc_record_read(text, len, deal, &err);
    int status = -1;
    if (!g)
        snprintf(why, cap, "%s: line %d: %s", path, err.line, err.message);
    else if (!record_is_of(m, text, len, index, deal) || carc_game_players(g) != 2 ||
             carc_game_rules(g).flags != m->rules.flags ||
             carc_game_rules(g).expansions != m->rules.expansions)
        snprintf(why, cap,
                 "%s is of another match (its seed, game number, players, rules or "
                 "expansions differ): "
                 "resume with the arguments that made it, or record into another folder",
                 path);
    else
        status = 0;
    if (status == 0) {
        int forfeit = comment_value(text, "# player 1 forfeits: ", NULL, 0)   ? 0
                      : comment_value(text, "# player 2 forfeits: ", NULL, 0) ? 1
                                                                              : -1;
        if (carc_game_over(g) || forfeit >= 0) {
            memset(&m->results[index], 0, sizeof m->results[index]);
            set_outcome(&m->results[index], g, index % 2, forfeit);
            status = 1;
        }
    }
    carc_game_free(g);
    free(text);
    return status;
}

/* With --resume: counts every game that has a finished record, before
 * anything is played; -1 (said on standard error) at the first record
 * that cannot be counted. */
static int resume_match(match *m)
{
    for (int i = 0; i < m->games; i++) {
        char why[PATH_CAP + 256];
        int r = resume_game(m, i, why, sizeof why);
        if (r < 0) {
            fprintf(stderr, "carcassonne arena: %s\n", why);
            return -1;
        }
        m->resumed[i] = (unsigned char)r;
        m->resumed_count += r;
    }
    m->finished = m->resumed_count;
    if (m->verbose)
        fprintf(stderr, "%d of %d %s counted from their records in %s\n", m->resumed_count,
                m->games, cli_plural(m->games, "game", "games"), m->record_dir);
    return 0;
}

/* Counts a finished game and tells standard error: a forfeit, the first
 * record that could not be written, and with --verbose the result. */
static void report_game(match *m, int index, const arena_game *res, const char *why,
                        const char *record_error)
{
    pthread_mutex_lock(&m->lock);
    m->finished++;
    if (record_error[0] && m->unwritten++ == 0)
        fprintf(stderr, "carcassonne arena: %s (the match goes on)\n", record_error);
    if (why[0])
        fprintf(stderr, "carcassonne arena: game %d: %s (%s) forfeits: %s\n", index + 1,
                res->forfeit == ARENA_A_FORFEITS ? "A" : "B",
                m->sides[res->forfeit == ARENA_A_FORFEITS ? SIDE_A : SIDE_B].name, why);
    if (m->verbose)
        fprintf(stderr, "game %d/%d (%d done): A %d - %d B%s\n", index + 1, m->games, m->finished,
                res->a_score, res->b_score,
                res->forfeit
                    ? (res->forfeit == ARENA_A_FORFEITS ? "  (A forfeits)" : "  (B forfeits)")
                    : "");
    pthread_mutex_unlock(&m->lock);
}

static void store_result(const game_run *r, int a_seat, arena_game *res)
{
    const seat *a = &r->seats[a_seat], *b = &r->seats[1 - a_seat];
    set_outcome(res, r->g, a_seat, r->forfeit_seat);
    res->a_seconds = a->seconds;
    res->b_seconds = b->seconds;
    res->a_moves = a->moves;
    res->b_moves = b->moves;
}

/* The game is over: 'end' to each engine that did not forfeit, with the
 * final scores and the seat that forfeited (docs/protocol.md, "The
 * controller"). An engine of protocol 3 refuses 'end' once its game is
 * over: that error is let pass; an engine that does not answer at all is
 * not kept for the next game. The game's result stands either way. */
static void end_engines(game_run *r)
{
    json_t *request = json_pack("{s:s, s:[]}", "type", "end", "scores");
    for (int p = 0; p < carc_game_players(r->g); p++)
        json_array_append_new(json_object_get(request, "scores"),
                              json_integer(carc_game_score(r->g, p)));
    if (r->forfeit_seat >= 0)
        json_object_set_new(request, "forfeit", json_integer(r->forfeit_seat));
    for (int s = 0; s < r->opened; s++) {
        seat *st = &r->seats[s];
        if (!st->engine || s == r->forfeit_seat)
            continue;
        char why[WHY_CAP];
        json_t *reply = engine_process_request(st->engine, json_incref(request), engine_setup_ms,
                                               why, sizeof why);
        st->unfit = !reply && !strstr(why, "with an error");
        json_decref(reply);
    }
    json_decref(request);
}

/* Plays game `index` with the worker's outside engines `pool`. */
static int play_game(match *m, int index, engines *pool)
{
    int pair = index / 2, a_seat = index % 2;
    uint64_t deal = deal_of(m, index);
    game_run r;
    memset(&r, 0, sizeof r);
    r.forfeit_seat = -1;
    r.g = carc_game_new(2, &m->rules, deal);
    if (!r.g) {
        pthread_mutex_lock(&m->lock);
        fprintf(stderr, "carcassonne arena: game %d: cannot make the game (out of memory?)\n",
                index + 1);
        pthread_mutex_unlock(&m->lock);
        return -1;
    }
    for (int s = 0; s < 2 && r.forfeit_seat < 0; s++) {
        int side_index = side_in_seat(index, s);
        uint64_t seed = mix(mix(m->seed ^ 0x5EA7ull, (uint64_t)pair), (uint64_t)side_index + 1);
        if (seat_open(&r.seats[s], m, pool, side_index, s, seed, r.why, sizeof r.why) < 0)
            r.forfeit_seat = s;
        r.seats[s].side = side_index;
        r.opened = s + 1;
    }
    while (r.forfeit_seat < 0 && !carc_game_over(r.g) && play_turn(&r, m) == 0)
        ;
    end_engines(&r);
    for (int s = 0; s < r.opened; s++)
        seat_close(&r.seats[s], pool, s == r.forfeit_seat);
    arena_game *res = &m->results[index];
    store_result(&r, a_seat, res);
    make_printable(r.why);
    char record_error[RECORD_ERROR_CAP] = "";
    if (m->record_dir)
        write_record(m, &r, index, deal, record_error, sizeof record_error);
    report_game(m, index, res, r.forfeit_seat >= 0 ? r.why : "", record_error);
    carc_game_free(r.g);
    return 0;
}

static void *worker(void *arg)
{
    match *m = arg;
    engines pool = {{NULL, NULL}};
    for (;;) {
        pthread_mutex_lock(&m->lock);
        while (!m->failed && m->next < m->games && m->resumed[m->next])
            m->next++;
        int index = m->failed ? m->games : m->next++;
        pthread_mutex_unlock(&m->lock);
        if (index >= m->games) {
            engines_close(&pool);
            return NULL;
        }
        if (play_game(m, index, &pool) < 0) {
            pthread_mutex_lock(&m->lock);
            m->failed = 1;
            pthread_mutex_unlock(&m->lock);
        }
    }
}

/* --- Output --------------------------------------------------------------------------------- */

static int count_forfeits(const match *m, arena_forfeit who)
{
    int n = 0;
    for (int i = 0; i < m->games; i++)
        n += m->results[i].forfeit == who;
    return n;
}

static void rules_text(carc_rules rules, char *buf, size_t cap)
{
    if (carc_rules_format(rules, buf, cap, ",") == 0)
        snprintf(buf, cap, "standard");
}

static void expansions_text(carc_rules rules, char *buf, size_t cap)
{
    cli_expansions_text(rules, buf, cap, ",", "none");
}

static const char *ci_method(const arena_stats *s)
{
    return s->rate_wilson ? "Wilson on deck pairs" : "normal on deck pairs";
}

static void print_json(const match *m, const arena_stats *s, double seconds)
{
    char rules[CARC_RULES_TEXT_MAX], expansions[CARC_RULES_TEXT_MAX];
    rules_text(m->rules, rules, sizeof rules);
    expansions_text(m->rules, expansions, sizeof expansions);
    json_t *root = json_pack(
        "{s:s, s:s, s:I, s:s, s:i, s:i, s:i, s:i, s:i, s:f, s:[f,f], s:f, s:f, s:f, s:[f,f], "
        "s:b, s:f, s:f, s:f, s:f, s:i, s:i, s:i, s:f, s:s, s:i}",
        "a", m->sides[SIDE_A].name, "b", m->sides[SIDE_B].name, "seed", (json_int_t)m->seed,
        "rules", rules, "games", s->games, "pairs", s->pairs, "a_wins", s->a_wins, "b_wins",
        s->b_wins, "draws", s->draws, "a_win_rate", s->score_rate, "a_win_rate_ci", s->rate_low,
        s->rate_high, "mean_margin", s->mean_margin, "margin_se", s->margin_se, "elo", s->elo,
        "elo_ci", s->elo_low, s->elo_high, "elo_clamped", s->elo_clamped, "a_mean_score",
        s->a_mean_score, "b_mean_score", s->b_mean_score, "a_ms_per_move",
        s->a_seconds_per_move * 1e3, "b_ms_per_move", s->b_seconds_per_move * 1e3, "a_forfeits",
        count_forfeits(m, ARENA_A_FORFEITS), "b_forfeits", count_forfeits(m, ARENA_B_FORFEITS),
        "threads", m->threads, "seconds", seconds, "ci_method", ci_method(s), "resumed",
        m->resumed_count);
    json_object_set_new(root, "expansions", json_string(expansions));
    char *text = root ? json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;
    if (text)
        puts(text);
    free(text);
    json_decref(root);
}

static void print_text(const match *m, const arena_stats *s, double seconds)
{
    char rules[CARC_RULES_TEXT_MAX], names[CARC_RULES_TEXT_MAX],
        expansions[CARC_RULES_TEXT_MAX] = "";
    rules_text(m->rules, rules, sizeof rules);
    printf("A: %s\nB: %s\n", m->sides[SIDE_A].name, m->sides[SIDE_B].name);
    if (m->rules.expansions)
        snprintf(expansions, sizeof expansions, ", expansions %s",
                 cli_expansions_text(m->rules, names, sizeof names, ",", ""));
    /* A single game plays its deck once: no seats are swapped. */
    printf("%d %s (%d %s%s), seed %llu, %s rules%s, %.1f s\n", s->games,
           cli_plural(s->games, "game", "games"), s->pairs, cli_plural(s->pairs, "deck", "decks"),
           s->games > 1 ? ", seats swapped" : "", (unsigned long long)m->seed, rules, expansions,
           seconds);
    printf("A wins %d, draws %d, losses %d\n", s->a_wins, s->draws, s->b_wins);
    printf("A score rate %.3f (95%% interval %.3f .. %.3f, %s)\n", s->score_rate, s->rate_low,
           s->rate_high, ci_method(s));
    printf("mean margin A-B %+.2f (standard error %.2f)\n", s->mean_margin, s->margin_se);
    printf("Elo difference %+.0f (95%% interval %+.0f .. %+.0f)%s\n", s->elo, s->elo_low,
           s->elo_high, s->elo_clamped ? ", clamped at a score rate of 0 or 1" : "");
    printf("mean score A %.1f, B %.1f\n", s->a_mean_score, s->b_mean_score);
    printf("mean time per move A %.3f ms, B %.3f ms\n", s->a_seconds_per_move * 1e3,
           s->b_seconds_per_move * 1e3);
    int played = s->games - m->resumed_count;
    const char *counted =
        m->resumed_count == 1 ? "game counted from its record" : "games counted from their records";
    if (m->resumed_count && played)
        printf("%d %s (--resume): the times are of the %d played\n", m->resumed_count, counted,
               played);
    else if (m->resumed_count > 1)
        printf("all %d %s (--resume): none played, no times\n", m->resumed_count, counted);
    else if (m->resumed_count)
        printf("the %s (--resume): none played, no times\n", counted);
    int fa = count_forfeits(m, ARENA_A_FORFEITS), fb = count_forfeits(m, ARENA_B_FORFEITS);
    if (fa || fb)
        printf("forfeits: A %d, B %d\n", fa, fb);
}

/* --- Arguments -------------------------------------------------------------------------------- */

static int parse_side(side *s, const char *spec)
{
    s->spec = spec;
    s->command = NULL;
    if (strncmp(spec, "engine:", 7) == 0) {
        s->command = spec + 7;
        if (!*s->command)
            return cli_usage_error("arena", "'engine:' needs a COMMAND");
        snprintf(s->name, sizeof s->name, "%s", spec);
        return 0;
    }
    char err[160];
    carc_player *p = carc_player_new(spec, 0, err, sizeof err);
    if (!p)
        return cli_usage_error("arena", "player '%s': %s", spec, err);
    snprintf(s->name, sizeof s->name, "%s", carc_player_spec(p));
    carc_player_free(p);
    return 0;
}

static int parse_count(const char *opt, const char *v, uint64_t min, uint64_t max, int *out)
{
    uint64_t n;
    if (cli_parse_u64(v, &n) < 0 || n < min || n > max)
        return cli_usage_error("arena", "%s takes %llu to %llu, not '%s'", opt,
                               (unsigned long long)min, (unsigned long long)max, v);
    *out = (int)n;
    return 0;
}

static int parse_option(match *m, const char *a, const char *v)
{
    if (strcmp(a, "--games") == 0)
        return parse_count(a, v, 1, MAX_GAMES, &m->games);
    if (strcmp(a, "--threads") == 0)
        return parse_count(a, v, 1, MAX_THREADS, &m->threads);
    if (strcmp(a, "--engine-ms") == 0)
        return parse_count(a, v, 1, 3600000, &m->engine_ms);
    if (strcmp(a, "--rules") == 0)
        return cli_parse_rules("arena", v, &m->rules);
    if (strcmp(a, "--expansions") == 0)
        return cli_parse_expansions("arena", v, &m->rules);
    if (strcmp(a, "--record") == 0) {
        m->record_dir = v;
        return 0;
    }
    if (cli_parse_u64(v, &m->seed) < 0)
        return cli_usage_error("arena", "--seed takes a number, not '%s'", v);
    return 0;
}

static int parse_args(match *m, int argc, char **argv)
{
    static const char *const valued[] = {"--games",  "--threads",   "--seed",      "--rules",
                                         "--record", "--engine-ms", "--expansions"};
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int takes_value = 0;
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
            takes_value |= strcmp(a, valued[k]) == 0;
        if (strcmp(a, "--json") == 0) {
            m->json = 1;
        } else if (strcmp(a, "--resume") == 0) {
            m->resume = 1;
        } else if (strcmp(a, "--verbose") == 0) {
            m->verbose = 1;
        } else if (takes_value) {
            if (i + 1 >= argc)
                return cli_usage_error("arena", "%s needs a value", a);
            if (parse_option(m, a, argv[++i]) != 0)
                return EXIT_USAGE;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage_error("arena", "unknown option '%s'", a);
        } else if (npos == 2) {
            return cli_usage_error("arena", "two players only, not '%s'", a);
        } else if (parse_side(&m->sides[npos++], a) != 0) {
            return EXIT_USAGE;
        }
    }
    if (npos < 2)
        return cli_usage_error("arena", "two players are needed: A and B");
    if (!m->games)
        return cli_usage_error("arena", "--games is needed");
    if (m->resume && !m->record_dir)
        return cli_usage_error("arena", "--resume needs --record DIR");
    return cli_check_rules("arena", &m->rules);
}

static int has_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

/* The name of a game record (a regular file game-*.rec) in `dir` into
 * `name`, or 0 when it holds none (or cannot be read: then writing the
 * records fails and says so). */
static int find_record(const char *dir, char *name, size_t cap)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d)) != NULL) {
        char path[PATH_CAP + 256];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        found =
            fnmatch("game-*.rec", e->d_name, 0) == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
        if (found)
            snprintf(name, cap, "%s", e->d_name);
    }
    if (d)
        closedir(d);
    return found;
}

/* Makes the record folder, or checks the one there: without --resume it
 * must hold no game records, which the match would overwrite (a mix of
 * two matches). */
static int make_record_dir(const char *dir, int resume)
{
    struct stat st;
    char name[256];
    if (mkdir(dir, 0777) == 0)
        return 0;
    if (errno != EEXIST || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "carcassonne arena: cannot make the folder %s: %s\n", dir, strerror(errno));
        return -1;
    }
    if (!resume && find_record(dir, name, sizeof name)) {
        fprintf(stderr,
                "carcassonne arena: %s already holds game records (%s): add --resume to go on "
                "with that match, or record into another folder\n",
                dir, name);
        return -1;
    }
    return 0;
}

/* A stopped arena (Ctrl-C, kill) takes its engines and their children
 * with it: they run in process groups of their own, which the terminal's
 * signals do not reach. */
static void stop_engines(int sig)
{
    engine_process_kill_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void stop_engines_on_signals(void)
{
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction sa, old;
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue; /* ignored by whoever started us: stays so */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = stop_engines;
        sigemptyset(&sa.sa_mask);
        sigaction(signals[i], &sa, NULL);
    }
}

static int run_match(match *m)
{
    pthread_t threads[MAX_THREADS];
    int started = 0;
    for (int t = 0; t < m->threads && t < m->games; t++)
        if (pthread_create(&threads[started], NULL, worker, m) == 0)
            started++;
    if (started == 0)
        worker(m);
    for (int t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    return m->failed ? -1 : 0;
}

int cmd_arena(int argc, char **argv)
{
    if (has_help(argc, argv)) {
        fputs(arena_usage, stdout);
        return EXIT_OK;
    }
    match m;
    memset(&m, 0, sizeof m);
    m.seed = 1;
    m.threads = 1;
    m.engine_ms = 1000;
    if (parse_args(&m, argc, argv) != 0 || m.games < 1)
        return EXIT_USAGE;
    m.verbose |= isatty(2);
    if (m.record_dir && make_record_dir(m.record_dir, m.resume) < 0)
        return EXIT_USAGE;
    /* A dead engine must not take the arena with it when written to. */
    signal(SIGPIPE, SIG_IGN);
    stop_engines_on_signals();
    m.results = calloc((size_t)m.games, sizeof *m.results);
    m.resumed = calloc((size_t)m.games, 1);
    if (!m.results || !m.resumed || (m.resume && resume_match(&m) < 0)) {
        int status = m.results && m.resumed ? EXIT_USAGE : EXIT_INVALID;
        free(m.results);
        free(m.resumed);
        return status;
    }
    pthread_mutex_init(&m.lock, NULL);
    double start = proto_now_ms();
    int failed = run_match(&m) < 0;
    double seconds = (proto_now_ms() - start) * 1e-3;
    arena_stats s;
    arena_stats_compute(m.results, failed ? m.next : m.games, &s);
    if (!failed && m.json)
        print_json(&m, &s, seconds);
    else if (!failed)
        print_text(&m, &s, seconds);
    if (m.unwritten)
        fprintf(stderr, "carcassonne arena: %d of %d game %s could not be written to %s\n",
                m.unwritten, m.finished, cli_plural(m.finished, "record", "records"), m.record_dir);
    pthread_mutex_destroy(&m.lock);
    free(m.results);
    free(m.resumed);
    return failed || m.unwritten ? EXIT_INVALID : EXIT_OK;
}
