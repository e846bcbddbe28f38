/* connect.c: `carcassonne connect`: takes a seat at a server table (or
 * creates the table, or resumes a seat with its token), follows the game
 * on a local replica and plays the seat with any player; reconnects by
 * itself when the connection drops. */
#include "connect.h"

#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "carcassonne_ai.h"
#include "replica.h"
#include "seat_player.h"
#include "ws_client.h"

enum {
    EXIT_DONE = 0,
    EXIT_FAILED = 1,
    EXIT_BAD_USAGE = 2,
    PENDING_IDS = 64, /* requests remembered by id, for their replies */
    MAX_ILLEGAL = 3,  /* refused moves in a row before giving up */
    SEND_RATE = 16,   /* messages a second at most (the server allows 20) */
    MOVE_TEXT = 64,
    TOKEN_TEXT = 80,
    TABLE_TEXT = 64,
    DEFAULT_RETRY_S = 120,
    DEFAULT_GO_MS = 1000, /* an engine's `go` without --ms or a clock: the arena's default */
    MIN_GO_MS = 100,
    MAX_GO_MS = 3600000,
};

static const char connect_usage[] =
    "usage: carcassonne connect URL [OPTIONS]\n"
    "\n"
    "Plays a seat at a table of a game server (carcassonne serve), or\n"
    "watches one. URL is ws://HOST:PORT (http:// works too; the path is /ws).\n"
    "\n"
    "Which table and seat:\n"
    "  --create SEATS    create a table: seat specs in turn order, joined by\n"
    "                    commas: me, open, invite or a computer player\n"
    "                    (e.g. me,open  or  me,mcts:level=easy)\n"
    "  --table ID        join this table (the first open seat, or --seat N)\n"
    "  --seat N          the seat to take (from 0)\n"
    "  --invite CODE     the invite code of an invite-only seat (with --seat N)\n"
    "  --token TOKEN     resume the seat of this token (with --table)\n"
    "  --watch           watch --table as a spectator\n"
    "With --create only:\n"
    "  --rules LIST      rule names, joined by commas (default: standard)\n"
    "  --expansions LIST expansions, joined by commas (river, inns-cathedrals,\n"
    "                    traders-builders;\n"
    "                    default none: the base game), if the server offers them\n"
    "  --info POLICY     casual (default) or purist\n"
    "  --clock SPEC      move:SECONDS or fischer:SECONDS+INCREMENT; add :forfeit\n"
    "                    to make a timeout lose the game (default: the computer\n"
    "                    moves for the seat)\n"
    "  --unlisted        keep the table out of the lobby\n"
    "\n"
    "Who plays:\n"
    "  --name NAME       the display name (default: the player spec)\n"
    "  --player SPEC     human (default: a prompt in this terminal), a library\n"
    "                    player (greedy, random, mcts:level=hard, ...) or\n"
    "                    engine:COMMAND (an engine-protocol program)\n"
    "  --ms N            an engine's time per move in milliseconds (default: a\n"
    "                    share of the seat's clock; without a clock 1000)\n"
    "  --seed S          seeds the player's random decisions\n"
    "\n"
    "Other:\n"
    "  --record FILE     save the finished game's record to FILE\n"
    "  --retry-for S     give up after S seconds without a connection\n"
    "                    (default 120)\n"
    "  --quiet           print only the table, the seat and the end\n"
    "  --trace           print every message sent (>) and received (<) on\n"
    "                    standard error\n"
    "\n"
    "It prints the table id, the seat, its token and any invite codes: keep\n"
    "the token to come back with --table ID --token TOKEN. When the\n"
    "connection drops it reconnects by itself and resumes the seat.\n"
    "\n"
    "An engine seat is driven as the arena drives one (docs/protocol.md,\n"
    "\"The controller\"): it is told every move and, at the end, 'end'.\n"
    "\n"
    "Exit status: 0 the game ended (final scores printed), 1 a failure\n"
    "(refused by the server, gave up reconnecting, a player failed), 2 bad\n"
    "arguments (at once: only network errors are retried).\n";

typedef struct connect_options {
    const char *url_text;
    ws_url url;
    const char *create, *table, *invite, *token, *name, *player, *rules, *info, *clock;
    const char *expansions;
    const char *record;
    int seat; /* -1: any */
    int watch, unlisted, quiet, trace, think_ms, retry_s;
    uint64_t seed;
    char default_name[33];
} connect_options;

/* A message waiting for the rate limit. */
typedef struct queued {
    struct queued *next;
    char text[];
} queued;

typedef struct client {
    connect_options opt;
    ws_loop *loop;
    ws_conn *conn;
    int connected;  /* the socket is open */
    int bound;      /* this connection has its seat (or watches) */
    int ever_bound; /* the table has been joined once: resume from now on */
    char table[TABLE_TEXT];
    char token[TOKEN_TEXT];
    int seat; /* -1: a spectator */
    replica rep;
    seat_player *player;
    int sent_turn;             /* the turn of the move in flight, or -1 */
    char held_move[MOVE_TEXT]; /* chosen while the connection was down */
    int held_turn;
    int illegal_count;
    long long next_id;
    char pending[PENDING_IDS][16]; /* the type of request id % PENDING_IDS */
    int done;
    int status;
    double down_since, retry_at;
    double resync_at; /* after rate_limited: ask `sync` then (0: no) */
    double tokens;    /* messages that may go now (a token bucket) */
    double tokens_at;
    struct queued *queue, *queue_tail; /* messages waiting for a token */
    int attempts;
    int awaiting_record;
    int clock_move;          /* the table's clock is per move (else Fischer) */
    long long clock_left_ms; /* the seat's time left by the last event; 0: no clock */
} client;

/* --- Small helpers --------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fail(client *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Ends the run with a failure and says why. */
static void fail(client *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "carcassonne connect: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    c->done = 1;
    c->status = EXIT_FAILED;
}

static json_t *clock_spec(const char *text);
static json_t *seat_list(const char *text);

static int parse_int(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end = NULL;
    if (!s)
        return cli_usage_error("connect", "%s needs a value", opt);
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi)
        return cli_usage_error("connect", "%s takes a number from %ld to %ld, not '%s'", opt, lo,
                               hi, s);
    *out = v;
    return 0;
}

/* --- Options ------------------------------------------------------------------ */

static int take_value(int argc, char **argv, int *i, const char **out)
{
    if (*i + 1 >= argc)
        return cli_usage_error("connect", "%s needs a value", argv[*i]);
    *out = argv[++*i];
    return 0;
}

static int parse_option(int argc, char **argv, int *i, connect_options *o)
{
    const char *a = argv[*i], *v = NULL;
    long n = 0;
    struct {
        const char *name;
        const char **field;
    } strings[] = {
        {"--create", &o->create},
        {"--table", &o->table},
        {"--invite", &o->invite},
        {"--token", &o->token},
        {"--name", &o->name},
        {"--player", &o->player},
        {"--rules", &o->rules},
        {"--info", &o->info},
        {"--clock", &o->clock},
        {"--record", &o->record},
        {"--expansions", &o->expansions},
    };
    for (size_t k = 0; k < sizeof strings / sizeof strings[0]; k++)
        if (strcmp(a, strings[k].name) == 0)
            return take_value(argc, argv, i, strings[k].field);
    if (strcmp(a, "--watch") == 0)
        o->watch = 1;
    else if (strcmp(a, "--unlisted") == 0)
        o->unlisted = 1;
    else if (strcmp(a, "--quiet") == 0)
        o->quiet = 1;
    else if (strcmp(a, "--trace") == 0)
        o->trace = 1;
    else if (strcmp(a, "--seat") == 0) {
        if (take_value(argc, argv, i, &v) || parse_int(a, v, 0, CARC_MAX_PLAYERS - 1, &n))
            return EXIT_BAD_USAGE;
        o->seat = (int)n;
    } else if (strcmp(a, "--ms") == 0) {
        if (take_value(argc, argv, i, &v) || parse_int(a, v, 1, 3600000, &n))
            return EXIT_BAD_USAGE;
        o->think_ms = (int)n;
    } else if (strcmp(a, "--retry-for") == 0) {
        if (take_value(argc, argv, i, &v) || parse_int(a, v, 0, 86400, &n))
            return EXIT_BAD_USAGE;
        o->retry_s = (int)n;
    } else if (strcmp(a, "--seed") == 0) {
        if (take_value(argc, argv, i, &v))
            return EXIT_BAD_USAGE;
        char *end = NULL;
        o->seed = strtoull(v, &end, 10);
        if (end == v || *end || v[0] == '-')
            return cli_usage_error("connect", "--seed takes a number, not '%s'", v);
    } else if (a[0] == '-' && a[1]) {
        return cli_usage_error("connect", "unknown option '%s'", a);
    } else if (o->url_text) {
        return cli_usage_error("connect", "only one URL, please");
    } else {
        o->url_text = a;
    }
    return 0;
}

/* Whether `spec` names a player: "human", "engine:COMMAND" or a library
 * spec; the reason in `why` when not. */
static int player_spec_ok(const char *spec, char *why, size_t cap)
{
    if (strcmp(spec, "human") == 0)
        return 1;
    if (strncmp(spec, "engine:", 7) == 0) {
        if (spec[7 + strspn(spec + 7, " \t")] != '\0')
            return 1;
        snprintf(why, cap, "'engine:' needs a command after the colon");
        return 0;
    }
    carc_player *player = carc_player_new(spec, 1, why, cap);
    carc_player_free(player);
    return player != NULL;
}

/* The seat specs of --create, as the server takes them: 2 to 8 of me,
 * open, invite or a library player spec, at most one me. */
static int check_seats(const char *text)
{
    json_t *seats = seat_list(text);
    size_t n = json_array_size(seats);
    int status = 0, me = 0;
    if (n < CARC_MIN_PLAYERS || n > CARC_MAX_PLAYERS)
        status = cli_usage_error("connect",
                                 "--create takes %d to %d seat specs joined by commas, not '%s'",
                                 CARC_MIN_PLAYERS, CARC_MAX_PLAYERS, text);
    for (size_t i = 0; i < n && status == 0; i++) {
        const char *spec = json_string_value(json_array_get(seats, i));
        char why[160] = "";
        me += strcmp(spec, "me") == 0;
        if (strcmp(spec, "me") == 0 || strcmp(spec, "open") == 0 || strcmp(spec, "invite") == 0)
            continue;
        carc_player *player = carc_player_new(spec, 1, why, sizeof why);
        if (!player)
            status =
                cli_usage_error("connect",
                                "--create: seat %zu '%s' is not me, open, invite or a computer "
                                "player: %s",
                                i, spec, why);
        carc_player_free(player);
    }
    if (status == 0 && me > 1)
        status = cli_usage_error("connect", "--create: at most one seat is 'me'");
    json_decref(seats);
    return status;
}

static int check_options(connect_options *o)
{
    if (!o->url_text)
        return cli_usage_error("connect", "a server URL is needed (ws://HOST:PORT)");
    char err[600];
    if (!strstr(o->url_text, "://"))
        return cli_usage_error("connect", "'%s' is not a server URL: write ws://HOST:PORT",
                               o->url_text);
    if (ws_url_parse(o->url_text, &o->url, err, sizeof err) != 0)
        return cli_usage_error("connect", "%s", err);
    if (!o->create && !o->table)
        return cli_usage_error("connect", "--create SEATS or --table ID is needed");
    if (o->create && (o->table || o->token || o->invite || o->watch))
        return cli_usage_error(
            "connect", "--create makes a new table: no --table, --token, --invite or --watch");
    if (o->token && (o->invite || o->seat >= 0 || o->watch))
        return cli_usage_error("connect",
                               "--token resumes its own seat: no --seat, --invite or --watch");
    if (o->info && strcmp(o->info, "casual") != 0 && strcmp(o->info, "purist") != 0)
        return cli_usage_error("connect", "--info is casual or purist, not '%s'", o->info);
    json_t *clock = o->clock ? clock_spec(o->clock) : NULL;
    if (o->clock && !clock)
        return cli_usage_error("connect",
                               "--clock is move:SECONDS or fischer:SECONDS+INCREMENT, with "
                               ":forfeit or :computer after it, not '%s'",
                               o->clock);
    json_decref(clock);
    if (!o->create && (o->rules || o->expansions || o->info || o->clock || o->unlisted))
        return cli_usage_error(
            "connect", "--rules, --expansions, --info, --clock and --unlisted go with --create");
    /* The names are checked here, for a clear message before connecting;
     * the server checks them again (and may not offer every expansion). */
    carc_rules rules = carc_rules_standard();
    char why[160] = "";
    if (o->rules && carc_rules_parse(o->rules, &rules, why, sizeof why) != CARC_OK)
        return cli_usage_error("connect", "--rules: %s", why);
    if (o->expansions && carc_expansions_parse(o->expansions, &rules, why, sizeof why) != CARC_OK)
        return cli_usage_error("connect", "--expansions: %s", why);
    if (carc_rules_check(&rules, why, sizeof why) != CARC_OK)
        return cli_usage_error("connect", "%s", why);
    if (o->create && check_seats(o->create) != 0)
        return EXIT_BAD_USAGE;
    if (!o->player)
        o->player = "human";
    if (!player_spec_ok(o->player, err, sizeof err))
        return cli_usage_error("connect", "--player: %s", err);
    if (!o->name) {
        /* The spec, as far as a name may go (32 bytes); "engine" for an
         * outside engine, whose command says little. */
        const char *spec = strcmp(o->player, "human") == 0 ? "Player" : o->player;
        size_t len = strncmp(spec, "engine:", 7) == 0 ? 6 : strlen(spec);
        snprintf(o->default_name, sizeof o->default_name, "%.*s", (int)(len > 32 ? 32 : len), spec);
        o->name = o->default_name;
    }
    return 0;
}

static int parse_options(int argc, char **argv, connect_options *o)
{
    *o = (connect_options){.seat = -1, .retry_s = DEFAULT_RETRY_S};
    o->seed = (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(connect_usage, stdout);
            return -1;
        }
        int status = parse_option(argc, argv, &i, o);
        if (status)
            return status;
    }
    return check_options(o);
}

/* --- Requests ------------------------------------------------------------------ */

/* Sends what the rate limit allows of the queued messages. */
static void flush_queue(client *c)
{
    double now = now_s();
    c->tokens += (now - c->tokens_at) * SEND_RATE;
    c->tokens = c->tokens > SEND_RATE ? SEND_RATE : c->tokens;
    c->tokens_at = now;
    while (c->queue && c->tokens >= 1 && c->conn && c->connected) {
        queued *q = c->queue;
        c->queue = q->next;
        if (!c->queue)
            c->queue_tail = NULL;
        ws_send(c->conn, q->text, strlen(q->text));
        if (c->opt.trace)
            fprintf(stderr, "> %s\n", q->text);
        c->tokens -= 1;
        free(q);
    }
}

static void drop_queue(client *c)
{
    while (c->queue) {
        queued *q = c->queue;
        c->queue = q->next;
        free(q);
    }
    c->queue_tail = NULL;
}

/* Sends `msg` (the reference is taken) with a fresh id, remembering its
 * type for the reply; it waits in the queue while the client is over
 * SEND_RATE messages a second. */
static void send_request(client *c, json_t *msg)
{
    long long id = ++c->next_id;
    json_object_set_new(msg, "id", json_integer(id));
    snprintf(c->pending[id % PENDING_IDS], sizeof c->pending[0], "%s",
             json_string_value(json_object_get(msg, "type")));
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text || !c->conn || !c->connected) {
        free(text);
        return;
    }
    size_t len = strlen(text);
    queued *q = malloc(sizeof *q + len + 1);
    if (q) {
        q->next = NULL;
        memcpy(q->text, text, len + 1);
        if (c->queue_tail)
            c->queue_tail->next = q;
        else
            c->queue = q;
        c->queue_tail = q;
    }
    free(text);
    flush_queue(c);
}

/* The request type a reply answers, from its "re" id. */
static const char *request_of(const client *c, const json_t *reply)
{
    const json_t *re = json_object_get(reply, "re");
    if (!json_is_integer(re) || json_integer_value(re) <= 0 ||
        json_integer_value(re) > c->next_id || json_integer_value(re) <= c->next_id - PENDING_IDS)
        return "?";
    return c->pending[json_integer_value(re) % PENDING_IDS];
}

/* The seat specs of --create: commas split the specs, but a piece such as
 * "threads=1" (an option, no colon) belongs to the spec before it. */
static json_t *seat_list(const char *text)
{
    json_t *seats = json_array();
    char *copy = strdup(text), *save = NULL;
    char spec[512] = "";
    for (char *piece = strtok_r(copy, ",", &save); piece; piece = strtok_r(NULL, ",", &save)) {
        int option = strchr(piece, '=') && !strchr(piece, ':');
        if (option && spec[0]) {
            size_t len = strlen(spec);
            snprintf(spec + len, sizeof spec - len, ",%s", piece);
            continue;
        }
        if (spec[0])
            json_array_append_new(seats, json_string(spec));
        snprintf(spec, sizeof spec, "%s", piece);
    }
    if (spec[0])
        json_array_append_new(seats, json_string(spec));
    free(copy);
    return seats;
}

/* The names of a list joined by commas (spaces and tabs may separate them
 * too), as a JSON array. */
static json_t *name_list(const char *text)
{
    json_t *list = json_array();
    if (!text || !*text)
        return list;
    char *copy = strdup(text), *save = NULL;
    for (char *s = strtok_r(copy, ", \t", &save); s; s = strtok_r(NULL, ", \t", &save))
        json_array_append_new(list, json_string(s));
    free(copy);
    return list;
}

/* The `clock` of --clock: move:SECONDS or fischer:SECONDS+INCREMENT, and
 * :forfeit or :computer for what a timeout does. NULL when malformed (the
 * server checks the ranges). */
static json_t *clock_spec(const char *text)
{
    char spec[64];
    snprintf(spec, sizeof spec, "%s", text);
    const char *on_timeout = "computer";
    char *last = strrchr(spec, ':');
    if (last && (strcmp(last, ":forfeit") == 0 || strcmp(last, ":computer") == 0)) {
        on_timeout = strcmp(last, ":forfeit") == 0 ? "forfeit" : "computer";
        *last = '\0';
    }
    long seconds = 0, increment = 0;
    int used = 0;
    json_t *clock = NULL;
    if (sscanf(spec, "move:%ld%n", &seconds, &used) == 1 && spec[used] == '\0')
        clock = json_pack("{s:s, s:i}", "mode", "move", "seconds", (int)seconds);
    else if ((sscanf(spec, "fischer:%ld+%ld%n", &seconds, &increment, &used) == 2 ||
              sscanf(spec, "fischer:%ld%n", &seconds, &used) == 1) &&
             spec[used] == '\0')
        clock = json_pack("{s:s, s:i, s:i}", "mode", "fischer", "seconds", (int)seconds,
                          "increment", (int)increment);
    if (clock)
        json_object_set_new(clock, "on_timeout", json_string(on_timeout));
    return clock;
}

static void send_create(client *c)
{
    const connect_options *o = &c->opt;
    json_t *msg = json_pack("{s:s, s:s, s:o, s:o, s:s, s:b}", "type", "create", "name", o->name,
                            "seats", seat_list(o->create), "rules", name_list(o->rules), "info",
                            o->info ? o->info : "casual", "listed", !o->unlisted);
    if (o->clock)
        json_object_set_new(msg, "clock", clock_spec(o->clock));
    /* Sent only when given: a server without expansions takes the
     * request as before. */
    if (o->expansions)
        json_object_set_new(msg, "expansions", name_list(o->expansions));
    send_request(c, msg);
}

/* What a new connection sends first: take the seat again, or the first time
 * create, join or watch. */
static void bind_connection(client *c)
{
    send_request(c, json_pack("{s:s, s:s}", "type", "hello", "client", "carcassonne-connect"));
    if (c->token[0]) {
        send_request(c, json_pack("{s:s, s:s, s:s}", "type", "resume", "table", c->table, "token",
                                  c->token));
    } else if (c->ever_bound || c->opt.watch) {
        send_request(c, json_pack("{s:s, s:s}", "type", "watch", "table", c->table));
    } else if (c->opt.create) {
        send_create(c);
    } else {
        json_t *msg =
            json_pack("{s:s, s:s, s:s}", "type", "join", "table", c->table, "name", c->opt.name);
        if (c->opt.seat >= 0)
            json_object_set_new(msg, "seat", json_integer(c->opt.seat));
        if (c->opt.invite)
            json_object_set_new(msg, "invite", json_string(c->opt.invite));
        send_request(c, msg);
    }
}

/* --- Playing the seat --------------------------------------------------------- */

static int my_turn(const client *c)
{
    const carc_game *g = c->rep.g;
    return g && !c->rep.finished && !carc_game_over(g) && c->seat >= 0 &&
           carc_game_current_player(g) == c->seat;
}

static void send_move(client *c, const char *move, int turn)
{
    c->sent_turn = turn;
    send_request(c, json_pack("{s:s, s:s, s:i, s:s}", "type", "move", "table", c->table, "turn",
                              turn, "move", move));
}

/* The `ms` of an engine's `go`: --ms; else a share of the seat's clock
 * (half a move clock, a twentieth of a Fischer clock's time left); else
 * the arena's default. */
static int go_ms(const client *c)
{
    if (c->opt.think_ms > 0)
        return c->opt.think_ms;
    if (c->clock_left_ms <= 0)
        return DEFAULT_GO_MS;
    long long ms = c->clock_move ? c->clock_left_ms / 2 : c->clock_left_ms / 20;
    return (int)(ms < MIN_GO_MS ? MIN_GO_MS : ms > MAX_GO_MS ? MAX_GO_MS : ms);
}

/* Notes the seat's time left from the `clock` of a state or move event. */
static void note_clock(client *c, const json_t *msg)
{
    const json_t *clock = json_object_get(msg, "clock");
    if (!clock)
        return;
    const char *mode = json_string_value(json_object_get(clock, "mode"));
    const json_t *left =
        c->seat >= 0 ? json_array_get(json_object_get(clock, "left_ms"), (size_t)c->seat) : NULL;
    c->clock_move = mode && strcmp(mode, "move") == 0;
    c->clock_left_ms = json_is_integer(left) ? json_integer_value(left) : 0;
}

/* Starts the seat's player when it is to move and nothing is under way. */
static void maybe_move(client *c)
{
    if (!c->bound || !my_turn(c) || c->sent_turn == c->rep.turn)
        return;
    if (c->held_move[0] && c->held_turn == c->rep.turn) {
        char move[MOVE_TEXT];
        snprintf(move, sizeof move, "%s", c->held_move);
        c->held_move[0] = '\0';
        send_move(c, move, c->rep.turn);
        return;
    }
    if (!c->player || (seat_player_busy(c->player) && seat_player_turn(c->player) == c->rep.turn))
        return;
    /* A choice for an older turn is abandoned for this one. */
    if (seat_player_start(c->player, c->rep.g, c->rep.turn, go_ms(c)) != 0)
        fail(c, "out of memory");
}

/* Abandons a choice the game has left behind (the clock ran out and the
 * server moved for the seat). */
static void drop_stale_choice(client *c)
{
    if (c->player && seat_player_busy(c->player) && seat_player_turn(c->player) != c->rep.turn)
        seat_player_cancel(c->player);
}

/* The player's thread has a move: send it if it is still wanted. */
static void on_player_ready(client *c)
{
    char move[MOVE_TEXT], err[256];
    int turn = -1;
    int got = seat_player_take(c->player, move, sizeof move, &turn, err, sizeof err);
    if (got < 0) {
        fail(c, "the player failed: %s", err);
        return;
    }
    if (got == 0 || turn != c->rep.turn || !my_turn(c)) {
        maybe_move(c); /* a choice for a turn gone: choose for this one */
        return;
    }
    if (!c->bound) {
        snprintf(c->held_move, sizeof c->held_move, "%s", move);
        c->held_turn = turn;
        return;
    }
    send_move(c, move, turn);
}

static void wake(void *user)
{
    client *c = user;
    if (c->player)
        on_player_ready(c);
}

static void player_ready(void *user)
{
    ws_loop_wake(((client *)user)->loop);
}

/* --- What the server says -------------------------------------------------------- */

static void print_final(const client *c)
{
    printf("game over: final scores");
    for (int p = 0; p < c->rep.players; p++)
        printf(" %d", c->rep.has_final ? c->rep.final_scores[p]
                                       : (c->rep.g ? carc_game_score(c->rep.g, p) : 0));
    printf("%s\n", c->seat >= 0 ? "" : " (watched)");
    fflush(stdout);
}

static void game_finished(client *c)
{
    print_final(c);
    /* An engine learns the last moves and the result as in the arena
     * (when the player is freed, its thread done). */
    if (c->player && c->seat >= 0 && c->rep.g)
        seat_player_finish(c->player, c->rep.g, c->seat,
                           c->rep.has_final ? c->rep.final_scores : NULL, c->rep.forfeit);
    if (c->opt.record) {
        c->awaiting_record = 1;
        send_request(c, json_pack("{s:s, s:s}", "type", "record", "table", c->table));
    } else {
        c->done = 1;
    }
}

/* A hand game's line after a move or a state: the seat's own hand (every
 * hand with open-hands) and each seat's hand size, as the server shows
 * them; "hands 3 2" for a spectator. */
static void print_hands(const client *c)
{
    if (c->opt.quiet || !c->rep.rules.hand || !c->rep.g || carc_game_over(c->rep.g))
        return;
    int open = (c->rep.rules.flags & CARC_RULE_OPEN_HANDS) != 0;
    printf("  hands");
    for (int p = 0; p < c->rep.players; p++) {
        int kinds[CARC_MAX_HAND], n = replica_hand(&c->rep, p, kinds);
        printf(" %d%s", n, p == c->seat ? "(you)" : "");
        for (int i = 0; (open || p == c->seat) && i < n; i++)
            printf("%c%s", i ? ',' : ':', carc_tile_id(kinds[i]));
    }
    putchar('\n');
    fflush(stdout);
}

/* With reshuffle: the tile a discard sent back into the pile. */
static void print_returned(const client *c)
{
    if (!c->opt.quiet && c->rep.returned >= 0)
        printf("  %s went back into the pile\n", carc_tile_id(c->rep.returned));
}

static void on_state(client *c, const json_t *msg)
{
    char err[300];
    if (replica_load_state(&c->rep, msg, err, sizeof err) != 0) {
        fail(c, "cannot follow the game: %s", err);
        return;
    }
    const json_t *you = json_object_get(msg, "you");
    if (json_is_integer(you))
        c->seat = (int)json_integer_value(you);
    note_clock(c, msg);
    c->sent_turn = -1;
    if (c->rep.finished) {
        game_finished(c);
        return;
    }
    print_hands(c);
    drop_stale_choice(c);
    maybe_move(c);
}

static void print_move(const client *c, const json_t *msg)
{
    if (c->opt.quiet)
        return;
    const json_t *scores = json_object_get(msg, "scores");
    /* Turns and players from 1, as records and the terminal game count. */
    printf("turn %lld: player %lld%s %s  scores",
           (long long)json_integer_value(json_object_get(msg, "turn")) + 1,
           (long long)json_integer_value(json_object_get(msg, "player")) + 1,
           json_integer_value(json_object_get(msg, "player")) == c->seat ? " (you)" : "",
           json_string_value(json_object_get(msg, "move")));
    for (size_t i = 0; i < json_array_size(scores); i++)
        printf(" %lld", (long long)json_integer_value(json_array_get(scores, i)));
    putchar('\n');
    fflush(stdout);
}

static void on_move(client *c, const json_t *msg)
{
    char err[300];
    int applied = replica_apply_move(&c->rep, msg, err, sizeof err);
    if (applied == REPLICA_GAP) {
        send_request(c, json_pack("{s:s, s:s}", "type", "sync", "table", c->table));
        return;
    }
    if (applied < 0) {
        fail(c, "cannot follow the game: %s", err);
        return;
    }
    if (applied == 0)
        return;
    note_clock(c, msg);
    print_move(c, msg);
    print_returned(c);
    print_hands(c);
    c->illegal_count = 0;
    drop_stale_choice(c);
    maybe_move(c);
}

static void on_end(client *c, const json_t *msg)
{
    char err[300];
    if (replica_apply_end(&c->rep, msg, err, sizeof err) != 0) {
        fail(c, "the final scores differ: %s", err);
        return;
    }
    game_finished(c);
}

/* Where header line `line` ("seat-1 human\n") starts in `text`, or NULL. */
static const char *find_line(const char *text, const char *line)
{
    for (const char *at = strstr(text, line); at; at = strstr(at + 1, line))
        if (at == text || at[-1] == '\n')
            return at;
    return NULL;
}

/* The record as connect saves it (a new string): the server knows only
 * that a client took the seat (`seat-N human`); a computer player or an
 * engine is named as the arena names a seat, `seat-N SPEC` when the spec
 * is one token, else the comment `# seat N: SPEC`. NULL when out of
 * memory. */
static char *record_with_seat(const client *c, const char *text)
{
    char human[32];
    snprintf(human, sizeof human, "seat-%d human\n", c->seat + 1);
    const char *at =
        c->seat >= 0 && !seat_player_is_human(c->player) ? find_line(text, human) : NULL;
    if (!at)
        return strdup(text);
    const char *spec = c->opt.player;
    size_t cap = strlen(text) + strlen(spec) + 32;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    int one_token = strcspn(spec, " \t#\r\n") == strlen(spec);
    int n = snprintf(out, cap, "%.*s", (int)(at - text), text);
    int start = n;
    n += snprintf(out + n, cap - (size_t)n, one_token ? "seat-%d %s\n" : "# seat %d: %s\n",
                  c->seat + 1, spec);
    for (int i = start; i < n - 1; i++)
        if (out[i] == '\r' || out[i] == '\n')
            out[i] = ' ';
    snprintf(out + n, cap - (size_t)n, "%s", at + strlen(human));
    return out;
}

static void on_record(client *c, const json_t *msg)
{
    const char *text = json_string_value(json_object_get(msg, "record"));
    if (!c->awaiting_record || !json_is_true(json_object_get(msg, "finished")))
        return;
    char *saved = text ? record_with_seat(c, text) : NULL;
    FILE *f = saved ? fopen(c->opt.record, "w") : NULL;
    int written = f && fputs(saved, f) >= 0;
    free(saved);
    if (!f || fclose(f) != 0 || !written) {
        fail(c, "cannot write the record to %s", c->opt.record);
        return;
    }
    printf("record saved to %s\n", c->opt.record);
    c->done = 1;
}

static void on_bound(client *c, const json_t *msg, const char *type)
{
    const char *table = json_string_value(json_object_get(msg, "table"));
    const char *token = json_string_value(json_object_get(msg, "token"));
    const json_t *seat = json_object_get(msg, "seat");
    if (table)
        snprintf(c->table, sizeof c->table, "%s", table);
    if (json_is_integer(seat))
        c->seat = (int)json_integer_value(seat);
    c->bound = 1;
    if (!c->ever_bound) {
        printf("table %s\n", c->table);
        if (c->seat >= 0)
            printf("seat %d\n", c->seat);
        if (token) {
            snprintf(c->token, sizeof c->token, "%s", token);
            printf("token %s\n", token);
        }
        const json_t *invites = json_object_get(msg, "invites");
        for (size_t i = 0; i < json_array_size(invites); i++)
            if (json_is_string(json_array_get(invites, i)))
                printf("invite %zu %s\n", i, json_string_value(json_array_get(invites, i)));
        const char *commitment = json_string_value(json_object_get(msg, "commitment"));
        if (commitment)
            printf("commitment %s\n", commitment);
        if (c->token[0])
            printf("to come back: carcassonne connect %s --table %s --token %s\n", c->opt.url_text,
                   c->table, c->token);
        fflush(stdout);
    } else if (strcmp(type, "resume.ok") == 0 && !c->opt.quiet) {
        printf("resumed seat %d of table %s\n", c->seat, c->table);
        fflush(stdout);
    }
    c->ever_bound = 1;
}

static void on_error(client *c, const json_t *msg)
{
    const char *req = request_of(c, msg);
    const char *code = json_string_value(json_object_get(msg, "code"));
    const char *text = json_string_value(json_object_get(msg, "message"));
    code = code ? code : "?";
    text = text ? text : "";
    if (strcmp(code, "rate_limited") == 0) {
        /* Should not happen (the client keeps under the limit): look again
         * in a second, or take the seat again. */
        c->sent_turn = -1;
        if (c->bound)
            c->resync_at = now_s() + 1.0;
        else if (c->conn)
            ws_drop(c->conn);
        return;
    }
    if (strcmp(req, "move") == 0) {
        c->sent_turn = -1;
        if (strcmp(code, "illegal") == 0 && ++c->illegal_count >= MAX_ILLEGAL &&
            !seat_player_is_human(c->player)) {
            fail(c, "the server refused %d moves in a row: %s", c->illegal_count, text);
            return;
        }
        if (strcmp(code, "game_over") != 0) {
            if (seat_player_is_human(c->player))
                printf("The server refused the move: %s (%s)\n", text, code);
            send_request(c, json_pack("{s:s, s:s}", "type", "sync", "table", c->table));
        }
        return;
    }
    if (strcmp(req, "hello") == 0 || strcmp(req, "sync") == 0)
        return;
    fail(c, "the server refused '%s': %s (%s)", req, text, code);
}

static void on_message(client *c, const json_t *msg)
{
    const char *type = json_string_value(json_object_get(msg, "type"));
    if (!type)
        return;
    if (strcmp(type, "create.ok") == 0 || strcmp(type, "join.ok") == 0 ||
        strcmp(type, "resume.ok") == 0 || strcmp(type, "watch.ok") == 0)
        on_bound(c, msg, type);
    else if (strcmp(type, "state") == 0)
        on_state(c, msg);
    else if (strcmp(type, "move") == 0)
        on_move(c, msg);
    else if (strcmp(type, "end") == 0)
        on_end(c, msg);
    else if (strcmp(type, "record.ok") == 0)
        on_record(c, msg);
    else if (strcmp(type, "error") == 0)
        on_error(c, msg);
    else if (strcmp(type, "seat") == 0 && !c->opt.quiet)
        printf("seat %lld (%s) %s\n", (long long)json_integer_value(json_object_get(msg, "seat")),
               json_string_value(json_object_get(msg, "name"))
                   ? json_string_value(json_object_get(msg, "name"))
                   : "?",
               json_is_false(json_object_get(msg, "present")) ? "is away" : "is here");
    else if (strcmp(type, "chat") == 0 && !c->opt.quiet)
        printf("chat %s: %s\n", json_string_value(json_object_get(msg, "name")),
               json_string_value(json_object_get(msg, "text")));
}

/* --- The connection --------------------------------------------------------------- */

static void on_open(ws_conn *conn, void *user)
{
    client *c = user;
    (void)conn;
    c->connected = 1;
    c->attempts = 0;
    c->tokens = SEND_RATE / 2.0;
    c->tokens_at = now_s();
    bind_connection(c);
}

static void on_text(ws_conn *conn, void *user, const char *text, size_t len)
{
    client *c = user;
    (void)conn;
    json_error_t jerr;
    if (c->opt.trace)
        fprintf(stderr, "< %s\n", text);
    json_t *msg = json_loadb(text, len, 0, &jerr);
    if (!json_is_object(msg))
        fprintf(stderr,
                "carcassonne connect: the server sent a message that is not a JSON object\n");
    else if (!c->done)
        on_message(c, msg);
    json_decref(msg);
}

static void schedule_retry(client *c)
{
    double delay = 0.25;
    for (int i = 0; i < c->attempts && delay < 5.0; i++)
        delay *= 2;
    delay = delay > 5.0 ? 5.0 : delay;
    c->attempts++;
    c->retry_at = now_s() + delay * (0.75 + 0.5 * (double)rand() / RAND_MAX);
}

static void on_close(ws_conn *conn, void *user, int opened, const char *why)
{
    client *c = user;
    (void)conn;
    (void)opened;
    c->conn = NULL;
    c->connected = 0;
    c->bound = 0;
    c->sent_turn = -1;
    drop_queue(c);
    if (c->done)
        return;
    if (c->down_since == 0) {
        c->down_since = now_s();
        fprintf(stderr, "carcassonne connect: %s; reconnecting\n", why);
    }
    schedule_retry(c);
}

static const ws_handlers handlers = {on_open, on_text, on_close};

static void try_connect(client *c)
{
    if (c->down_since > 0 && now_s() - c->down_since > c->opt.retry_s) {
        fail(c, "no connection to %s for %d s; giving up", c->opt.url_text, c->opt.retry_s);
        return;
    }
    c->conn = ws_connect(c->loop, &c->opt.url, &handlers, c);
    if (!c->conn) {
        if (c->down_since == 0) {
            c->down_since = now_s();
            fprintf(stderr, "carcassonne connect: cannot connect to %s; retrying\n",
                    c->opt.url_text);
        }
        schedule_retry(c);
    }
}

static int run(client *c)
{
    char err[256];
    c->loop = ws_loop_new(4, err, sizeof err);
    if (!c->loop) {
        fprintf(stderr, "carcassonne connect: %s\n", err);
        return EXIT_FAILED;
    }
    ws_loop_on_wake(c->loop, wake, c);
    if (!c->opt.watch) {
        c->player = seat_player_new(c->opt.player, c->opt.seat, c->opt.seed, player_ready, c, err,
                                    sizeof err);
        if (!c->player) {
            ws_loop_free(c->loop);
            return cli_usage_error("connect", "--player: %s", err);
        }
    }
    while (!c->done) {
        if (!c->conn && now_s() >= c->retry_at)
            try_connect(c);
        if (c->connected)
            c->down_since = 0;
        if (c->resync_at > 0 && now_s() >= c->resync_at && c->bound) {
            c->resync_at = 0;
            send_request(c, json_pack("{s:s, s:s}", "type", "sync", "table", c->table));
        }
        flush_queue(c);
        if (!c->done && ws_loop_run(c->loop, 50) != 0)
            fail(c, "the event loop failed");
    }
    if (c->conn)
        ws_close(c->conn);
    for (int i = 0; i < 10 && c->conn; i++)
        ws_loop_run(c->loop, 20);
    if (c->status != EXIT_DONE && c->token[0] && !c->rep.finished)
        fprintf(stderr,
                "carcassonne connect: the seat is kept: carcassonne connect %s --table %s "
                "--token %s\n",
                c->opt.url_text, c->table, c->token);
    seat_player_free(c->player);
    drop_queue(c);
    ws_loop_free(c->loop);
    replica_clear(&c->rep);
    return c->status;
}

int cmd_connect(int argc, char **argv)
{
    client *c = calloc(1, sizeof *c);
    if (!c)
        return EXIT_FAILED;
    int status = parse_options(argc, argv, &c->opt);
    if (status != 0) {
        free(c);
        return status < 0 ? EXIT_DONE : status;
    }
    signal(SIGPIPE, SIG_IGN);
    if (c->opt.table)
        snprintf(c->table, sizeof c->table, "%s", c->opt.table);
    if (c->opt.token)
        snprintf(c->token, sizeof c->token, "%s", c->opt.token);
    c->seat = c->opt.seat;
    c->sent_turn = -1;
    c->held_turn = -1;
    replica_init(&c->rep);
    srand((unsigned)time(NULL));
    status = run(c);
    free(c);
    return status;
}
