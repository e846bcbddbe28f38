/* bench_server.c: `carcassonne bench --server URL`: the game server's load
 * benchmark. N tables of two scripted players each, every connection on
 * one event loop: the tables are created and joined, held idle for a
 * moment, then play random legal moves at a fixed total rate. It reports
 * the connections held, the moves a second, the move round trip (send to
 * `move.ok`), the server's memory per idle and per active table (RSS from
 * /proc when --server-pid is given) and, from each table's record fetched
 * at the end, the acknowledged moves that are missing (lost) or there
 * without an acknowledgement (duplicated). With --reconnect, a player
 * whose connection closes while moving connects again and resumes (a
 * server of a cluster killed: --kill-pid and --kill-at do it), and the
 * time until each table accepts moves again is reported. --cpu NAME=PIDS
 * adds the CPU of other processes while moving (a cluster's servers,
 * PostgreSQL's backends, Redis, HAProxy), summed by name. */
#include "bench_server.h"

#include <jansson.h>
#include <signal.h>
#include <sys/types.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "carcassonne.h"
#include "replica.h"
#include "wire.h"
#include "ws_client.h"

enum {
    BENCH_OK = 0,
    BENCH_FAILED = 1,
    BENCH_USAGE = 2,
    TABLE_TEXT = 64,
    MAX_MOVES = CARC_MAX_TILES,
    MAX_TABLES = 100000,
    SETUP_IN_FLIGHT = 64,   /* tables being created and joined at once */
    RECORDS_IN_FLIGHT = 64, /* record requests at once */
    /* Connections being made again at once: all 6,000 of a kill at
     * once kept the load generator's core busy in libwebsockets' timer
     * list, and the tables took longer to come back than at 512 (p99 8.0 s
     * at 2,048, 6.1 s at 512, 6.8 s at 256; 2026-11-27). */
    RECONNECT_IN_FLIGHT = 512,
    CPU_GROUPS = 8, /* --cpu options */
    CPU_PIDS = 64,  /* processes in all of them */
    CPU_NAME_BYTES = 24,
};

/* The least time between two moves on one connection: the server allows
 * 20 messages a second on each. */
static const double MIN_SEND_GAP_S = 0.07;

static const char bench_server_usage[] =
    "usage: carcassonne bench --server URL [--tables N] [--rate MOVES] [--seconds S]\n"
    "                         [--idle-seconds S] [--server-pid PID] [--seed S] [--json]\n"
    "                         [--expansions LIST] [--reconnect [--kill-pid PID --kill-at S]]\n"
    "                         [--cpu NAME=PID[,PID...]]...\n"
    "\n"
    "Load benchmark of a game server (carcassonne serve) on URL: N tables\n"
    "(default 100) of two scripted players, 2N WebSocket connections on one\n"
    "event loop. The tables are created and joined, held idle for\n"
    "--idle-seconds (default 2), then play random legal moves at MOVES a\n"
    "second in all (default 1000) for S seconds (default 10). Reports the\n"
    "connections held, moves a second, the move round trip (p50, p99, max),\n"
    "the server's memory per idle and per active table (with --server-pid:\n"
    "its RSS), and compares each table's record with the moves the server\n"
    "acknowledged: lost and duplicated moves. --expansions (names joined by\n"
    "commas: river, inns-cathedrals, traders-builders) creates the tables\n"
    "with those expansions, if the server offers them. --reconnect: a player\n"
    "whose connection closes while moving connects again and resumes (behind\n"
    "a balancer, on another server); --kill-pid PID --kill-at S kills (-9)\n"
    "process PID S seconds into the moving phase; the time until each table\n"
    "accepts moves again is reported (p99, max). --cpu NAME=PIDS (up to 8\n"
    "times) reports the CPU those processes used while moving, summed, as NAME.\n"
    "\n"
    "Exit status: 0 done with no move lost or duplicated, 1 a failure or a\n"
    "lost or duplicated move, 2 bad arguments.\n";

typedef struct bench_options {
    ws_url url;
    const char *url_text;
    int tables, rate, json;
    double seconds, idle_seconds;
    long server_pid;
    int reconnect;
    long kill_pid;
    double kill_at;
    uint64_t seed;
    carc_rules rules; /* .expansions: the tables' */
    /* --cpu: process `cpu_pid[i]` counts for group `cpu_group[i]` */
    char cpu_name[CPU_GROUPS][CPU_NAME_BYTES];
    int ncpu_groups, ncpu_pids;
    long cpu_pid[CPU_PIDS];
    int cpu_group[CPU_PIDS];
} bench_options;

typedef enum table_phase {
    T_NEW,
    T_CREATING, /* seat 0 connecting or waiting for create.ok */
    T_JOINING,  /* seat 1 connecting or waiting for join.ok */
    T_READY,    /* both seated and the game started */
    T_FAILED,
} table_phase;

struct bench;
struct bench_table;

/* What a connection's callbacks need: its table and seat. */
typedef struct bench_side {
    struct bench_table *t;
    int seat;
    int dialling; /* a connection made again, not yet open or closed */
} bench_side;

typedef struct bench_table {
    struct bench *b;
    table_phase phase;
    ws_conn *conn[2];
    bench_side side[2];
    int bound[2];
    char id[TABLE_TEXT];
    replica rep;         /* advanced by seat 0's move events */
    int in_flight;       /* a move awaits its move.ok */
    int in_flight_seat;  /* the seat that sent it */
    double sent_at;      /* when it was sent (seconds) */
    double last_sent[2]; /* per seat: keeps each connection under the rate limit */
    int acked;           /* moves acknowledged */
    carc_move moves[MAX_MOVES];
    int next_event[2]; /* the turn of the next move event, per seat */
    int record_state;  /* 0 none, 1 asked, 2 checked */
    /* --reconnect: the seats' tokens, a seat connecting again (resuming
     * until its state), when it may try, and whether the table waits for
     * its first move.ok since a connection closed. */
    char token[2][TABLE_TEXT];
    int resuming[2];
    double retry_at[2];
    int down;     /* waits for its first move.ok since a connection closed */
    int was_down; /* was down once since the kill */
} bench_table;

typedef struct bench {
    bench_options opt;
    ws_loop *loop;
    bench_table *tables;
    carc_rng rng;
    int started, ready, failed, open_conns, closed_unexpectedly;
    int setup_in_flight, records_in_flight, records_done;
    int moving;
    long long moves_sent, moves_acked, moves_refused, event_gaps, replica_errors;
    double *latency;
    size_t nlatency, latency_cap;
    long long lost, duplicated, unchecked;
    char first_error[256];
    int reconnecting;          /* seats connecting again */
    int dialling;              /* of them, connections under way (RECONNECT_IN_FLIGHT) */
    int reconnect_cursor;      /* where the next look for seats to connect starts */
    int tables_down;           /* tables that lost a connection after the kill */
    long long reconnects;      /* connections made again */
    long long resumes_refused; /* of them, closed again after an error */
    double killed_at;          /* when --kill-pid was killed (0: not yet) */
    double *recovery;          /* per table hit: seconds from the kill to its next move.ok */
    size_t nrecovery, recovery_cap;
    /* When every table waited for the server at the last look (none could
     * move), the next look is not before `pace_idle_until`; the seats to
     * connect again are looked for every RECONNECT_LOOK_S. With thousands
     * of tables down after a kill, looking at each of them every
     * millisecond took the load generator's whole core. */
    double pace_idle_until, reconnect_looked;
} bench;

static const double PACE_IDLE_S = 0.005, RECONNECT_LOOK_S = 0.02;

/* --- Helpers ------------------------------------------------------------------ */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void note_error(bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Keeps the first error for the report. */
static void note_error(bench *b, const char *fmt, ...)
{
    if (b->first_error[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->first_error, sizeof b->first_error, fmt, ap);
    va_end(ap);
}

/* CPU seconds (user and system) process `pid` has used, or -1. */
static double cpu_seconds(long pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = pid > 0 ? fopen(path, "r") : NULL;
    if (!f)
        return -1;
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    unsigned long long utime = 0, stime = 0;
    if (!p ||
        sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2)
        return -1;
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

/* Resident memory of process `pid` in kB (VmRSS), or -1. */
static long rss_kb(long pid)
{
    if (pid <= 0)
        return -1;
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

static void send_json(bench_table *t, int seat, json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    if (text && t->conn[seat])
        ws_send(t->conn[seat], text, strlen(text));
    free(text);
    json_decref(msg);
}

static void fail_table(bench_table *t, const char *why)
{
    if (t->phase == T_FAILED)
        return;
    if (t->phase < T_READY)
        t->b->setup_in_flight--;
    else
        t->b->ready--;
    t->phase = T_FAILED;
    t->b->failed++;
    note_error(t->b, "table %s: %s", t->id[0] ? t->id : "(new)", why);
}

/* --- One table's traffic --------------------------------------------------------- */

static void connect_seat(bench_table *t, int seat);

static void became_ready(bench_table *t)
{
    if (t->phase != T_JOINING || !t->bound[1] || !t->rep.g)
        return;
    t->phase = T_READY;
    t->b->setup_in_flight--;
    t->b->ready++;
}

static void on_state(bench_table *t, int seat, const json_t *msg)
{
    if (t->resuming[seat]) {
        int turn = (int)json_integer_value(json_object_get(msg, "turn"));
        t->resuming[seat] = 0;
        t->b->reconnecting--;
        t->next_event[seat] = turn;
        /* The move this seat sent before its connection closed was stored
         * (the turn moved on) or not: either way no move.ok comes for it.
         * (A move of the other seat, whose connection stayed, still gets
         * its own.) */
        if (t->phase == T_READY && t->in_flight && t->in_flight_seat == seat) {
            t->in_flight = 0;
            if (turn > t->acked) {
                t->acked++;
                t->b->moves_acked++;
            }
        }
    }
    if (seat != 0)
        return;
    char err[300];
    if (replica_load_state(&t->rep, msg, err, sizeof err) != 0) {
        t->b->replica_errors++;
        fail_table(t, err);
        return;
    }
    became_ready(t);
}

static void on_move_event(bench_table *t, int seat, const json_t *msg)
{
    long long turn = json_integer_value(json_object_get(msg, "turn"));
    if (turn != t->next_event[seat])
        t->b->event_gaps++;
    t->next_event[seat] = (int)turn + 1;
    if (seat != 0)
        return;
    char err[300];
    if (replica_apply_move(&t->rep, msg, err, sizeof err) < 0) {
        t->b->replica_errors++;
        fail_table(t, err);
    }
}

static void on_move_ok(bench_table *t, const json_t *msg)
{
    bench *b = t->b;
    if (!t->in_flight)
        return;
    t->in_flight = 0;
    long long turn = json_integer_value(json_object_get(msg, "turn"));
    if (turn != t->acked)
        note_error(b, "table %s: move.ok for turn %lld, expected %d", t->id, turn, t->acked);
    t->acked++;
    b->moves_acked++;
    if (b->nlatency == b->latency_cap) {
        size_t cap = b->latency_cap ? 2 * b->latency_cap : 4096;
        double *bigger = realloc(b->latency, cap * sizeof *bigger);
        if (!bigger)
            return;
        b->latency = bigger;
        b->latency_cap = cap;
    }
    b->latency[b->nlatency++] = now_s() - t->sent_at;
    if (t->down && t->was_down) {
        t->down = 0;
        if (b->nrecovery == b->recovery_cap) {
            size_t cap = b->recovery_cap ? 2 * b->recovery_cap : 256;
            double *bigger = realloc(b->recovery, cap * sizeof *bigger);
            if (!bigger)
                return;
            b->recovery = bigger;
            b->recovery_cap = cap;
        }
        b->recovery[b->nrecovery++] = now_s() - b->killed_at;
    }
}

/* Compares the table's record with its acknowledged moves. */
static void on_record(bench_table *t, const json_t *msg)
{
    bench *b = t->b;
    const char *text = json_string_value(json_object_get(msg, "record"));
    t->record_state = 2;
    b->records_in_flight--;
    b->records_done++;
    carc_record_error err = {0, "no record in the reply"};
    carc_game *g = text ? carc_record_read(text, strlen(text), 1, &err) : NULL;
    if (!g) {
        b->unchecked += t->acked;
        note_error(b, "table %s: the record does not read: line %d: %s", t->id, err.line,
                   err.message);
        return;
    }
    int count = carc_game_move_count(g);
    for (int i = 0; i < t->acked; i++) {
        carc_move m;
        int kind;
        if (i >= count || carc_game_move_at(g, i, &m, &kind) != CARC_OK ||
            !carc_move_equal(m, t->moves[i]))
            b->lost++;
    }
    if (count > t->acked)
        b->duplicated += count - t->acked;
    carc_game_free(g);
}

static void on_reply_error(bench_table *t, int seat, const json_t *msg)
{
    const char *code = json_string_value(json_object_get(msg, "code"));
    const char *text = json_string_value(json_object_get(msg, "message"));
    char why[300];
    snprintf(why, sizeof why, "seat %d: error %s: %s", seat, code ? code : "?", text ? text : "");
    if (t->resuming[seat] && t->conn[seat]) {
        t->b->resumes_refused++;
        ws_close(t->conn[seat]); /* tried again from on_close */
        return;
    }
    if (t->phase == T_READY && t->in_flight) {
        t->in_flight = 0;
        t->b->moves_refused++;
        note_error(t->b, "table %s: %s", t->id, why);
        return;
    }
    if (t->record_state == 1) {
        t->record_state = 2;
        t->b->records_in_flight--;
        t->b->unchecked += t->acked;
    }
    fail_table(t, why);
}

static void on_bound(bench_table *t, int seat, const json_t *msg)
{
    t->bound[seat] = 1;
    const char *token = json_string_value(json_object_get(msg, "token"));
    snprintf(t->token[seat], sizeof t->token[seat], "%s", token ? token : "");
    const char *id = json_string_value(json_object_get(msg, "table"));
    if (seat == 0 && id) {
        snprintf(t->id, sizeof t->id, "%s", id);
        t->phase = T_JOINING;
        connect_seat(t, 1);
    }
    became_ready(t);
}

static void on_text(ws_conn *c, void *user, const char *text, size_t len)
{
    bench_side *side = user;
    bench_table *t = side->t;
    (void)c;
    json_error_t jerr;
    json_t *msg = json_loadb(text, len, 0, &jerr);
    const char *type = json_string_value(json_object_get(msg, "type"));
    if (!type)
        note_error(t->b, "a message that is not a JSON object with a type");
    else if (strcmp(type, "move") == 0)
        on_move_event(t, side->seat, msg);
    else if (strcmp(type, "move.ok") == 0)
        on_move_ok(t, msg);
    else if (strcmp(type, "state") == 0)
        on_state(t, side->seat, msg);
    else if (strcmp(type, "create.ok") == 0 || strcmp(type, "join.ok") == 0)
        on_bound(t, side->seat, msg);
    else if (strcmp(type, "record.ok") == 0)
        on_record(t, msg);
    else if (strcmp(type, "error") == 0)
        on_reply_error(t, side->seat, msg);
    json_decref(msg);
}

/* A connection made again opened or closed: another may be dialled. */
static void dialled(bench_side *side)
{
    if (side->dialling) {
        side->dialling = 0;
        side->t->b->dialling--;
    }
}

static void on_open(ws_conn *c, void *user)
{
    bench_side *side = user;
    bench_table *t = side->t;
    (void)c;
    dialled(side);
    t->b->open_conns++;
    if (t->resuming[side->seat]) {
        t->b->reconnects++;
        send_json(t, side->seat,
                  json_pack("{s:s, s:i, s:s, s:s}", "type", "resume", "id", 1, "table", t->id,
                            "token", t->token[side->seat]));
    } else if (side->seat == 0) {
        json_t *create = json_pack("{s:s, s:i, s:s, s:[s,s], s:b}", "type", "create", "id", 1,
                                   "name", "bench-a", "seats", "me", "open", "listed", 0);
        /* Only when asked: a server without expansions takes the request
         * as before. */
        if (t->b->opt.rules.expansions)
            json_object_set_new(create, "expansions", wire_expansions(t->b->opt.rules));
        send_json(t, 0, create);
    } else
        send_json(t, 1,
                  json_pack("{s:s, s:i, s:s, s:s, s:i}", "type", "join", "id", 1, "table", t->id,
                            "name", "bench-b", "seat", 1));
}

static void on_close(ws_conn *c, void *user, int opened, const char *why)
{
    bench_side *side = user;
    bench_table *t = side->t;
    (void)c;
    dialled(side);
    t->conn[side->seat] = NULL;
    if (opened)
        t->b->open_conns--;
    if (t->b->opt.reconnect && t->phase == T_READY && t->record_state == 0) {
        /* Connects again in a moment: through a balancer, to a live
         * server. */
        if (!t->resuming[side->seat]) {
            t->resuming[side->seat] = 1;
            t->b->reconnecting++;
        }
        if (!t->was_down && t->b->killed_at > 0) {
            t->was_down = 1;
            t->b->tables_down++;
        }
        t->down = 1;
        t->retry_at[side->seat] = now_s() + 0.2;
        return;
    }
    t->b->closed_unexpectedly++;
    if (t->record_state == 1) {
        t->record_state = 2;
        t->b->records_in_flight--;
        t->b->unchecked += t->acked;
    }
    fail_table(t, why);
}

static const ws_handlers handlers = {on_open, on_text, on_close};

static void connect_seat(bench_table *t, int seat)
{
    t->side[seat] = (bench_side){t, seat, 0};
    t->conn[seat] = ws_connect(t->b->loop, &t->b->opt.url, &handlers, &t->side[seat]);
    if (!t->conn[seat])
        fail_table(t, "cannot start a connection");
}

/* --- The phases ------------------------------------------------------------------- */

static void start_tables(bench *b)
{
    while (b->started < b->opt.tables && b->setup_in_flight < SETUP_IN_FLIGHT) {
        bench_table *t = &b->tables[b->started++];
        t->b = b;
        t->phase = T_CREATING;
        replica_init(&t->rep);
        b->setup_in_flight++;
        connect_seat(t, 0);
    }
}

/* Connects again the seats whose time to try has come, at most
 * RECONNECT_IN_FLIGHT under way at once, taking the tables in turn. */
static void reconnect_due(bench *b)
{
    double now = now_s();
    if (now - b->reconnect_looked < RECONNECT_LOOK_S)
        return;
    b->reconnect_looked = now;
    for (int k = 0; k < b->opt.tables && b->dialling < RECONNECT_IN_FLIGHT; k++) {
        int i = (b->reconnect_cursor + k) % b->opt.tables;
        bench_table *t = &b->tables[i];
        for (int seat = 0; seat < 2; seat++)
            if (t->resuming[seat] && !t->conn[seat] && now >= t->retry_at[seat] &&
                b->dialling < RECONNECT_IN_FLIGHT) {
                t->side[seat] = (bench_side){t, seat, 1};
                t->conn[seat] = ws_connect(b->loop, &b->opt.url, &handlers, &t->side[seat]);
                t->retry_at[seat] = now + 0.2;
                if (t->conn[seat])
                    b->dialling++;
                else
                    t->side[seat].dialling = 0;
                b->reconnect_cursor = (i + 1) % b->opt.tables;
            }
    }
}

static int can_move(const bench_table *t, double now)
{
    return t->phase == T_READY && !t->in_flight && t->rep.g && t->rep.turn == t->acked &&
           !t->resuming[0] && !t->resuming[1] && !carc_game_over(t->rep.g) && !t->rep.finished &&
           now - t->last_sent[carc_game_current_player(t->rep.g)] >= MIN_SEND_GAP_S;
}

static void send_move(bench *b, bench_table *t)
{
    carc_move m = carc_random_move(t->rep.g, &b->rng, 0.3);
    char text[64];
    if (carc_move_write(t->rep.g, m, text, sizeof text) == 0) {
        fail_table(t, "no move to write");
        return;
    }
    int seat = carc_game_current_player(t->rep.g);
    t->moves[t->acked] = m;
    t->in_flight = 1;
    t->in_flight_seat = seat;
    t->sent_at = now_s();
    t->last_sent[seat] = t->sent_at;
    b->moves_sent++;
    send_json(t, seat,
              json_pack("{s:s, s:i, s:s, s:i, s:s}", "type", "move", "id", t->acked + 2, "table",
                        t->id, "turn", t->acked, "move", text));
}

/* Sends the moves due by now at the target rate, round robin. */
static void pace_moves(bench *b, double start, long long *sent_target, int *cursor)
{
    double now = now_s();
    if (now < b->pace_idle_until)
        return;
    long long due = (long long)((now - start) * b->opt.rate) - *sent_target;
    for (; due > 0; due--) {
        int scanned = 0;
        while (scanned < b->opt.tables && !can_move(&b->tables[*cursor], now)) {
            *cursor = (*cursor + 1) % b->opt.tables;
            scanned++;
        }
        if (scanned == b->opt.tables) {
            b->pace_idle_until = now + PACE_IDLE_S;
            break; /* every table waits for the server: the rate is missed */
        }
        send_move(b, &b->tables[*cursor]);
        *cursor = (*cursor + 1) % b->opt.tables;
        (*sent_target)++;
    }
}

/* After a kill: a table whose seats are back sends its move at once, as
 * its player would, rather than at its turn of the round robin (up to
 * TABLES / RATE seconds later), so that the time from the kill to its
 * move.ok is the server's. Counted in the rate. */
static void move_recovered(bench *b, long long *sent_target, double *looked)
{
    double now = now_s();
    if (b->killed_at == 0 || now - *looked < RECONNECT_LOOK_S)
        return;
    *looked = now;
    for (int i = 0; i < b->opt.tables; i++) {
        bench_table *t = &b->tables[i];
        if (t->down && can_move(t, now)) {
            send_move(b, t);
            (*sent_target)++;
        }
    }
}

/* Tables that lost a connection after the kill and have not moved since
 * (a finished game counts as moved: it has nothing left to accept). */
static int tables_still_down(const bench *b)
{
    int n = 0;
    for (int i = 0; i < b->opt.tables; i++) {
        const bench_table *t = &b->tables[i];
        n += t->down && t->phase == T_READY && !(t->rep.g && carc_game_over(t->rep.g));
    }
    return n;
}

static int in_flight_moves(const bench *b)
{
    int n = 0;
    for (int i = 0; i < b->opt.tables; i++)
        n += b->tables[i].phase == T_READY && b->tables[i].in_flight;
    return n;
}

static void ask_records(bench *b, int *next)
{
    while (*next < b->opt.tables && b->records_in_flight < RECORDS_IN_FLIGHT) {
        bench_table *t = &b->tables[(*next)++];
        if (t->phase != T_READY)
            continue;
        t->record_state = 1;
        b->records_in_flight++;
        send_json(t, 0, json_pack("{s:s, s:i, s:s}", "type", "record", "id", 1000, "table", t->id));
    }
}

static void run_for(bench *b, double seconds)
{
    double end = now_s() + seconds;
    while (now_s() < end)
        ws_loop_run(b->loop, 20);
}

/* --- Report ------------------------------------------------------------------------ */

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return 0;
    size_t i = (size_t)(p * (double)(n - 1) + 0.5);
    return sorted[i < n ? i : n - 1];
}

typedef struct bench_figures {
    double setup_s, moving_s;
    int held_tables, held_conns;
    long base_kb, idle_kb, active_kb;
    double server_cpu, own_cpu;   /* CPU seconds while moving; < 0: unknown */
    double group_cpu[CPU_GROUPS]; /* --cpu's, the same way */
    double pid_cpu0[CPU_PIDS];    /* each --cpu process's at the start (< 0: unknown) */
} bench_figures;

static double per_table_kb(long kb, long base_kb, int tables)
{
    return kb < 0 || base_kb < 0 || tables <= 0 ? -1 : (double)(kb - base_kb) / tables;
}

static void report(bench *b, const bench_figures *f)
{
    qsort(b->latency, b->nlatency, sizeof *b->latency, compare_doubles);
    double p50 = 1e3 * percentile(b->latency, b->nlatency, 0.50);
    double p99 = 1e3 * percentile(b->latency, b->nlatency, 0.99);
    double max = b->nlatency ? 1e3 * b->latency[b->nlatency - 1] : 0;
    double rate = f->moving_s > 0 ? (double)b->moves_acked / f->moving_s : 0;
    double idle = per_table_kb(f->idle_kb, f->base_kb, f->held_tables);
    double active = per_table_kb(f->active_kb, f->base_kb, f->held_tables);
    if (b->opt.json) {
        printf("{\"tables\":%d,\"tables_held\":%d,\"connections_held\":%d,\"setup_seconds\":%.2f,"
               "\"seconds\":%.2f,\"moves\":%lld,\"moves_per_second\":%.1f,"
               "\"target_rate\":%d,\"p50_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f,"
               "\"server_rss_kb\":{\"base\":%ld,\"idle\":%ld,\"active\":%ld},"
               "\"kb_per_idle_table\":%.1f,\"kb_per_active_table\":%.1f,"
               "\"server_cpu_percent\":%.1f,\"own_cpu_percent\":%.1f,"
               "\"lost\":%lld,\"duplicated\":%lld,\"unchecked\":%lld,\"refused\":%lld,"
               "\"event_gaps\":%lld,\"failed_tables\":%d,\"first_error\":\"%s\"}\n",
               b->opt.tables, f->held_tables, f->held_conns, f->setup_s, f->moving_s,
               b->moves_acked, rate, b->opt.rate, p50, p99, max, f->base_kb, f->idle_kb,
               f->active_kb, idle, active,
               f->moving_s > 0 && f->server_cpu >= 0 ? 100 * f->server_cpu / f->moving_s : -1.0,
               f->moving_s > 0 ? 100 * f->own_cpu / f->moving_s : -1.0, b->lost, b->duplicated,
               b->unchecked, b->moves_refused, b->event_gaps, b->failed,
               b->first_error[0] ? "see stderr" : "");
    } else {
        printf("tables held         %d of %d (%d connections), set up in %.1f s\n", f->held_tables,
               b->opt.tables, f->held_conns, f->setup_s);
        printf("moves               %lld in %.1f s: %.0f a second (target %d)\n", b->moves_acked,
               f->moving_s, rate, b->opt.rate);
        printf("move round trip     p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", p50, p99, max);
        if (f->base_kb >= 0)
            printf("server memory       %ld kB empty, %ld kB idle (%.1f kB a table), %ld kB "
                   "active (%.1f kB a table)\n",
                   f->base_kb, f->idle_kb, idle, f->active_kb, active);
        if (f->server_cpu >= 0 && f->moving_s > 0)
            printf("cpu while moving    server %.0f%% of a core, load generator %.0f%%\n",
                   100 * f->server_cpu / f->moving_s, 100 * f->own_cpu / f->moving_s);
        for (int g = 0; g < b->opt.ncpu_groups && f->moving_s > 0; g++)
            printf("%s%s %.0f%%%s", g == 0 ? "cpu of the parts    " : "", b->opt.cpu_name[g],
                   100 * f->group_cpu[g] / f->moving_s, g + 1 < b->opt.ncpu_groups ? ", " : "");
        if (b->opt.ncpu_groups > 0 && f->moving_s > 0)
            printf(", load generator %.0f%% (of a core)\n", 100 * f->own_cpu / f->moving_s);
        printf("lost moves          %lld, duplicated %lld (unchecked %lld, refused %lld, "
               "event gaps %lld)\n",
               b->lost, b->duplicated, b->unchecked, b->moves_refused, b->event_gaps);
        if (b->killed_at > 0) {
            qsort(b->recovery, b->nrecovery, sizeof *b->recovery, compare_doubles);
            double worst = b->nrecovery ? b->recovery[b->nrecovery - 1] : 0;
            printf("after the kill      %lld connections made again (%lld refused a resume); %d "
                   "tables lost a connection, %zu moved again: p50 %.2f s, p99 %.2f s, max %.2f "
                   "s from the kill to their next move.ok\n",
                   b->reconnects, b->resumes_refused, b->tables_down, b->nrecovery,
                   percentile(b->recovery, b->nrecovery, 0.50),
                   percentile(b->recovery, b->nrecovery, 0.99), worst);
        }
    }
    if (b->first_error[0])
        fprintf(stderr, "carcassonne bench: first error: %s\n", b->first_error);
}

/* --- Options and the run ------------------------------------------------------------- */

static int parse_number(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end = NULL;
    if (!s)
        return cli_usage_error_help("bench", "bench --server URL", "%s needs a value", opt);
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo && v <= hi))
        return cli_usage_error_help("bench", "bench --server URL",
                                    "%s: '%s' is out of range or not a number", opt, s);
    *out = v;
    return 0;
}

/* --cpu NAME=PID[,PID...]: 0, or a usage error. */
static int parse_cpu(const char *v, bench_options *o)
{
    const char *eq = v ? strchr(v, '=') : NULL;
    if (!eq || eq == v || (size_t)(eq - v) >= CPU_NAME_BYTES || o->ncpu_groups == CPU_GROUPS)
        return cli_usage_error_help("bench", "bench --server URL",
                                    "--cpu needs NAME=PID[,PID...] (at most %d times)", CPU_GROUPS);
    int g = o->ncpu_groups++;
    snprintf(o->cpu_name[g], sizeof o->cpu_name[g], "%.*s", (int)(eq - v), v);
    for (const char *at = eq + 1; *at;) {
        char *end;
        long pid = strtol(at, &end, 10);
        if (end == at || pid < 1 || (*end && *end != ',') || o->ncpu_pids == CPU_PIDS)
            return cli_usage_error_help("bench", "bench --server URL",
                                        "--cpu %s: not a list of at most %d pids", v, CPU_PIDS);
        o->cpu_pid[o->ncpu_pids] = pid;
        o->cpu_group[o->ncpu_pids++] = g;
        at = *end ? end + 1 : end;
    }
    return 0;
}

/* The CPU seconds of --cpu's processes: at the start into `at_start`,
 * and at the end (`at_start` given) what each used since, into `group`;
 * a process gone by the end (killed) counts nothing. */
static void group_cpu(const bench_options *o, double *at_start, double *group)
{
    for (int i = 0; i < o->ncpu_pids; i++) {
        double cpu = cpu_seconds(o->cpu_pid[i]);
        if (!group)
            at_start[i] = cpu;
        else if (cpu >= 0 && at_start[i] >= 0)
            group[o->cpu_group[i]] += cpu - at_start[i];
    }
}

static int parse_options(int argc, char **argv, bench_options *o)
{
    *o = (bench_options){.tables = 100, .rate = 1000, .seconds = 10, .idle_seconds = 2, .seed = 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double n = 0;
        int status = 0;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(bench_server_usage, stdout);
            return -1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
            continue;
        } else if (strcmp(a, "--reconnect") == 0) {
            o->reconnect = 1;
            continue;
        } else if (strcmp(a, "--kill-pid") == 0) {
            status = parse_number(a, v, 2, 1e9, &n);
            o->kill_pid = (long)n;
        } else if (strcmp(a, "--kill-at") == 0) {
            status = parse_number(a, v, 0, 3600, &o->kill_at);
        } else if (strcmp(a, "--server") == 0) {
            o->url_text = v;
        } else if (strcmp(a, "--tables") == 0) {
            status = parse_number(a, v, 1, MAX_TABLES, &n);
            o->tables = (int)n;
        } else if (strcmp(a, "--rate") == 0) {
            status = parse_number(a, v, 1, 1e6, &n);
            o->rate = (int)n;
        } else if (strcmp(a, "--seconds") == 0) {
            status = parse_number(a, v, 0, 3600, &o->seconds);
        } else if (strcmp(a, "--idle-seconds") == 0) {
            status = parse_number(a, v, 0, 3600, &o->idle_seconds);
        } else if (strcmp(a, "--cpu") == 0) {
            status = parse_cpu(v, o);
        } else if (strcmp(a, "--server-pid") == 0) {
            status = parse_number(a, v, 1, 1e9, &n);
            o->server_pid = (long)n;
        } else if (strcmp(a, "--seed") == 0) {
            status = parse_number(a, v, 0, 1e18, &n);
            o->seed = (uint64_t)n;
        } else if (strcmp(a, "--expansions") == 0) {
            char why[160] = "";
            if (!v)
                return cli_usage_error_help("bench", "bench --server URL", "%s needs a value", a);
            if (carc_expansions_parse(v, &o->rules, why, sizeof why) != CARC_OK ||
                carc_rules_check(&o->rules, why, sizeof why) != CARC_OK)
                return cli_usage_error_help("bench", "bench --server URL", "--expansions: %s", why);
        } else {
            return cli_usage_error_help("bench", "bench --server URL", "unknown argument '%s'", a);
        }
        if (status)
            return status;
        i++;
    }
    char err[600];
    if (!o->url_text)
        return cli_usage_error_help("bench", "bench --server URL", "%s needs a URL", "--server");
    if (ws_url_parse(o->url_text, &o->url, err, sizeof err) != 0)
        return cli_usage_error_help("bench", "bench --server URL", "%s", err);
    return 0;
}

/* Creates and joins every table; gives up on a table after `limit_s`. */
static void setup_phase(bench *b, double limit_s)
{
    double end = now_s() + limit_s;
    while ((b->started < b->opt.tables || b->setup_in_flight > 0) && now_s() < end) {
        start_tables(b);
        ws_loop_run(b->loop, 5);
    }
}

static void moving_phase(bench *b)
{
    long long sent = 0;
    int cursor = 0;
    double start = now_s(), end = start + b->opt.seconds, looked = 0;
    while (now_s() < end) {
        if (b->opt.kill_pid > 0 && b->killed_at == 0 && now_s() - start >= b->opt.kill_at) {
            kill((pid_t)b->opt.kill_pid, SIGKILL);
            b->killed_at = now_s();
        }
        pace_moves(b, start, &sent, &cursor);
        if (b->reconnecting > 0)
            reconnect_due(b);
        move_recovered(b, &sent, &looked);
        ws_loop_run(b->loop, 1);
    }
    /* Let the moves in flight come back, the seats connecting again
     * connect and the tables down make a move (bounded). */
    double drain_end = now_s() + 10;
    while ((in_flight_moves(b) > 0 || b->reconnecting > 0 || tables_still_down(b) > 0) &&
           now_s() < drain_end) {
        reconnect_due(b);
        move_recovered(b, &sent, &looked);
        ws_loop_run(b->loop, 5);
    }
}

static void check_phase(bench *b)
{
    int next = 0;
    double end = now_s() + 60;
    while ((next < b->opt.tables || b->records_in_flight > 0) && now_s() < end) {
        ask_records(b, &next);
        ws_loop_run(b->loop, 5);
    }
    for (int i = 0; i < b->opt.tables; i++)
        if (b->tables[i].record_state != 2 && b->tables[i].acked > 0)
            b->unchecked += b->tables[i].acked;
}

static int run(bench *b)
{
    char err[256];
    b->loop = ws_loop_new(2 * b->opt.tables, err, sizeof err);
    if (!b->loop) {
        fprintf(stderr, "carcassonne bench: %s\n", err);
        return BENCH_FAILED;
    }
    ws_loop_no_idle_timers(b->loop);
    bench_figures f = {.base_kb = rss_kb(b->opt.server_pid)};
    double t0 = now_s();
    setup_phase(b, 60 + b->opt.tables / 50.0);
    f.setup_s = now_s() - t0;
    run_for(b, b->opt.idle_seconds);
    f.idle_kb = rss_kb(b->opt.server_pid);
    f.held_tables = b->ready;
    f.held_conns = b->open_conns;
    t0 = now_s();
    double server_cpu0 = cpu_seconds(b->opt.server_pid), own_cpu0 = cpu_seconds(getpid());
    group_cpu(&b->opt, f.pid_cpu0, NULL);
    moving_phase(b);
    group_cpu(&b->opt, f.pid_cpu0, f.group_cpu);
    f.moving_s = now_s() - t0;
    f.server_cpu = server_cpu0 < 0 ? -1 : cpu_seconds(b->opt.server_pid) - server_cpu0;
    f.own_cpu = own_cpu0 < 0 ? -1 : cpu_seconds(getpid()) - own_cpu0;
    f.active_kb = rss_kb(b->opt.server_pid);
    if (b->ready < f.held_tables)
        f.held_tables = b->ready;
    if (b->open_conns < f.held_conns)
        f.held_conns = b->open_conns;
    check_phase(b);
    report(b, &f);
    int ok = b->lost == 0 && b->duplicated == 0 && b->unchecked == 0 && b->ready > 0 &&
             b->ready == b->opt.tables;
    for (int i = 0; i < b->opt.tables; i++)
        replica_clear(&b->tables[i].rep);
    ws_loop_free(b->loop);
    return ok ? BENCH_OK : BENCH_FAILED;
}

int cmd_bench_server(int argc, char **argv)
{
    bench *b = calloc(1, sizeof *b);
    if (!b)
        return BENCH_FAILED;
    int status = parse_options(argc, argv, &b->opt);
    if (status != 0) {
        free(b);
        return status < 0 ? BENCH_OK : status;
    }
    signal(SIGPIPE, SIG_IGN);
    b->rng = carc_rng_seed(b->opt.seed);
    b->tables = calloc((size_t)b->opt.tables, sizeof *b->tables);
    if (!b->tables) {
        free(b);
        return BENCH_FAILED;
    }
    status = run(b);
    free(b->tables);
    free(b->latency);
    free(b->recovery);
    free(b);
    return status;
}
