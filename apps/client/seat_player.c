/* seat_player.c: a seat's chooser on a thread of its own (seat_player.h).
 * The loop hands it a copy of the position; the thread asks the library
 * player, the outside engine or the person, and posts the move back. */
#include "seat_player.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board_text.h"
#include "carcassonne_ai.h"
#include "engine_process.h"
#include "wire.h"

enum {
    KIND_LIBRARY,
    KIND_ENGINE,
    KIND_HUMAN,
    MOVE_CAP = 64,
    ERR_CAP = 512,
    ENGINE_REPLY_MS = 10000,    /* every request but `go` */
    ENGINE_GO_SPARE_MS = 30000, /* beyond the budget of `go` */
    HUMAN_LINE = 256,
    MAX_TOLD_DRAWS = 1024, /* draws of a hand game told to an engine: far more than a game has */
};

struct seat_player {
    int kind;
    int seat; /* the seat played; -1 until known */
    uint64_t seed;
    carc_player *library;
    char *engine_command;
    engine_process *engine;
    int engine_moves; /* moves of the game the engine has been told */
    int tile_told;    /* the move whose tile the engine has been told, or -1 */
    /* hand=N: the draws of the game's log the engine has been told, and
     * their kinds (the replica's guess for another seat's hidden draws:
     * when a later guess names one otherwise, the engine's game starts
     * over). */
    int draws_told;
    unsigned char told_kinds[MAX_TOLD_DRAWS];
    /* The game over, for the engine's last moves and 'end' (see
     * seat_player_finish; guarded by lock until the thread is joined). */
    carc_game *final;
    int final_scores[CARC_MAX_PLAYERS];
    int final_forfeit;
    void (*ready)(void *user);
    void *user;

    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stop;
    /* The job: set by the loop, taken by the thread (guarded by lock). */
    carc_game *job;
    int job_turn;
    int job_ms; /* the `ms` of an engine's `go` */
    unsigned job_seq;
    /* The result of job `result_seq`. */
    int result; /* 1 a move, -1 a failure, 0 none */
    unsigned result_seq;
    int result_turn;
    char move[MOVE_CAP];
    char err[ERR_CAP];
    /* A human's pending line, read without blocking the thread for ever. */
    char line[HUMAN_LINE];
    size_t line_len;
};

/* --- Library players ----------------------------------------------------- */

static int choose_library(seat_player *p, const carc_game *g, char *move, char *err)
{
    carc_move m;
    if (carc_player_choose(p->library, g, &m, NULL) != CARC_OK ||
        carc_move_write(g, m, move, MOVE_CAP) == 0) {
        snprintf(err, ERR_CAP, "the player %s found no move", carc_player_spec(p->library));
        return -1;
    }
    return 0;
}

/* --- Outside engines (docs/protocol.md) -------------------------------------- */

static int engine_call(seat_player *p, json_t *request, int timeout_ms, json_t **reply, char *err)
{
    char why[200];
    json_t *r = engine_process_request(p->engine, request, timeout_ms, why, sizeof why);
    if (!r) {
        snprintf(err, ERR_CAP, "engine '%.200s': %s", p->engine_command, why);
        return -1;
    }
    if (reply)
        *reply = r;
    else
        json_decref(r);
    return 0;
}

static int engine_new_game(seat_player *p, const carc_game *g, char *err)
{
    carc_rules rules = carc_game_rules(g);
    json_t *req = json_pack("{s:s, s:i, s:i, s:o, s:I}", "type", "new", "players",
                            carc_game_players(g), "seat", p->seat, "rules", wire_rules(rules),
                            "seed", (json_int_t)(p->seed & 0x7fffffffffffffffULL));
    /* The table's expansions (protocol 3), only when there are some: an
     * engine that knows none plays the base game as before. */
    if (rules.expansions)
        json_object_set_new(req, "expansions", wire_expansions(rules));
    p->engine_moves = 0;
    p->tile_told = -1;
    p->draws_told = 0;
    return engine_call(p, req, ENGINE_REPLY_MS, NULL, err);
}

/* Tells the engine the tile of move `turn` (drawn by `player`), once. */
static int engine_tell_tile(seat_player *p, int turn, int player, int kind, char *err)
{
    if (p->tile_told == turn)
        return 0;
    const char *tile = carc_tile_id(kind);
    json_t *req = json_pack("{s:s, s:i, s:s}", "type", "tile", "player", player, "tile", tile);
    if (engine_call(p, req, ENGINE_REPLY_MS, NULL, err) != 0)
        return -1;
    p->tile_told = turn;
    return 0;
}

/* hand=N: tells the engine the draws of `g`'s log made before move
 * `moves` was played (all of them when `moves` is the move count) that it
 * has not been told, a `draw` request for each run of one player's, as
 * the arena does. Every hand's draws are told, as a record names them:
 * the engine's player decides from its seat's information set (and the
 * others' are the replica's guess, made from what the seat was shown). */
static int engine_tell_draws(seat_player *p, const carc_game *g, int moves, char *err)
{
    int n = carc_game_draw_count(g);
    while (p->draws_told < n && p->draws_told < MAX_TOLD_DRAWS) {
        int player, kind, at;
        carc_game_draw_at(g, p->draws_told, &player, &kind, &at);
        if (at > moves)
            return 0;
        json_t *tiles = json_array();
        for (int next, nk; p->draws_told < n && p->draws_told < MAX_TOLD_DRAWS; p->draws_told++) {
            carc_game_draw_at(g, p->draws_told, &next, &nk, &at);
            if (next != player || at > moves)
                break;
            json_array_append_new(tiles, json_string(carc_tile_id(nk)));
            p->told_kinds[p->draws_told] = (unsigned char)nk;
        }
        json_t *req =
            json_pack("{s:s, s:i, s:o}", "type", "draw", "player", player, "tiles", tiles);
        if (engine_call(p, req, ENGINE_REPLY_MS, NULL, err) != 0)
            return -1;
    }
    return 0;
}

/* Whether the draws told to the engine are still those of `g`'s log. */
static int told_draws_hold(const seat_player *p, const carc_game *g)
{
    for (int i = 0; i < p->draws_told; i++) {
        int kind;
        if (carc_game_draw_at(g, i, NULL, &kind, NULL) != CARC_OK || kind != p->told_kinds[i])
            return 0;
    }
    return 1;
}

/* Tells the engine the moves it has not seen yet, each as the arena does
 * (docs/protocol.md, "The controller"): its tile (in a hand game: the
 * draws before it), unless told already on the engine's own turn, then
 * the move. */
static int engine_catch_up(seat_player *p, const carc_game *g, char *err)
{
    int hand = carc_game_rules(g).hand != 0;
    int count = carc_game_move_count(g);
    if (!p->engine) {
        char why[200];
        p->engine = engine_process_start(p->engine_command, why, sizeof why);
        if (!p->engine) {
            snprintf(err, ERR_CAP, "engine '%.200s': %s", p->engine_command, why);
            return -1;
        }
        p->engine_moves = -1;
    }
    if (p->engine_moves < 0 || p->engine_moves > count || (hand && !told_draws_hold(p, g)))
        if (engine_new_game(p, g, err) != 0)
            return -1;
    for (int i = p->engine_moves; i < count; i++) {
        carc_move m;
        int kind = -1;
        char text[MOVE_CAP];
        carc_game_move_at(g, i, &m, &kind);
        carc_move_format(g, i, text, sizeof text);
        int player = carc_game_move_player(g, i);
        if (hand ? engine_tell_draws(p, g, i, err) != 0
                 : engine_tell_tile(p, i, player, kind, err) != 0)
            return -1;
        json_t *req = json_pack("{s:s, s:i, s:s}", "type", "move", "player", player, "move", text);
        if (engine_call(p, req, ENGINE_REPLY_MS, NULL, err) != 0)
            return -1;
        p->engine_moves = i + 1;
    }
    return hand ? engine_tell_draws(p, g, count, err) : 0;
}

static int choose_engine(seat_player *p, const carc_game *g, int ms, char *move, char *err)
{
    p->seat = carc_game_current_player(g);
    if (engine_catch_up(p, g, err) != 0 ||
        (!carc_game_rules(g).hand &&
         engine_tell_tile(p, carc_game_move_count(g), p->seat, carc_game_drawn_tile(g), err) != 0))
        goto failed;
    json_t *req = json_pack("{s:s, s:i}", "type", "go", "ms", ms);
    int timeout = ms + ENGINE_GO_SPARE_MS;
    json_t *reply = NULL;
    if (engine_call(p, req, timeout, &reply, err) != 0)
        goto failed;
    const char *text = json_string_value(json_object_get(reply, "move"));
    if (!text || strlen(text) >= MOVE_CAP) {
        snprintf(err, ERR_CAP, "engine '%s': a 'go' reply without a move", p->engine_command);
        json_decref(reply);
        goto failed;
    }
    snprintf(move, MOVE_CAP, "%s", text);
    json_decref(reply);
    return 0;
failed:
    engine_process_close(p->engine);
    p->engine = NULL;
    return -1;
}

/* The game is over: the moves the engine has not seen (the last one at
 * least) and 'end' with the final scores, as the arena ends a game. An
 * engine of protocol 3 answers 'end' with an error once its game is over:
 * let pass. Runs once the thread is joined. */
static void engine_finish(seat_player *p)
{
    char err[ERR_CAP];
    if (!p->final || p->kind != KIND_ENGINE || p->seat < 0)
        return;
    if (engine_catch_up(p, p->final, err) != 0) {
        fprintf(stderr, "carcassonne connect: %s\n", err);
        return;
    }
    json_t *scores = json_array();
    for (int pl = 0; pl < carc_game_players(p->final); pl++)
        json_array_append_new(scores, json_integer(p->final_scores[pl]));
    json_t *req = json_pack("{s:s, s:o}", "type", "end", "scores", scores);
    if (p->final_forfeit >= 0)
        json_object_set_new(req, "forfeit", json_integer(p->final_forfeit));
    char why[200];
    json_decref(engine_process_request(p->engine, req, ENGINE_REPLY_MS, why, sizeof why));
}

void seat_player_finish(seat_player *p, const carc_game *g, int seat, const int *scores,
                        int forfeit)
{
    carc_game *copy = carc_game_clone(g);
    pthread_mutex_lock(&p->lock);
    carc_game_free(p->final);
    p->final = copy;
    if (seat >= 0)
        p->seat = seat;
    for (int pl = 0; pl < carc_game_players(g) && pl < CARC_MAX_PLAYERS; pl++)
        p->final_scores[pl] = scores ? scores[pl] : carc_game_score(g, pl);
    p->final_forfeit = forfeit;
    pthread_mutex_unlock(&p->lock);
}

/* --- A person at the terminal ------------------------------------------------ */

/* Whether the job being served is no longer the newest. */
static int job_abandoned(seat_player *p, unsigned seq)
{
    pthread_mutex_lock(&p->lock);
    int gone = p->stop || p->job_seq != seq;
    pthread_mutex_unlock(&p->lock);
    return gone;
}

/* Reads one line of standard input into `out`, waking now and then to
 * see whether the job was abandoned. Returns 1, 0 at end of input, -1
 * when abandoned. */
static int read_line(seat_player *p, unsigned seq, char *out, size_t cap)
{
    for (;;) {
        char *nl = memchr(p->line, '\n', p->line_len);
        if (nl) {
            size_t n = (size_t)(nl - p->line);
            snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), p->line);
            memmove(p->line, nl + 1, p->line_len - n - 1);
            p->line_len -= n + 1;
            return 1;
        }
        if (p->line_len == sizeof p->line)
            p->line_len = 0; /* an overlong line is dropped */
        if (job_abandoned(p, seq))
            return -1;
        struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
        if (poll(&pfd, 1, 200) <= 0)
            continue;
        ssize_t got = read(STDIN_FILENO, p->line + p->line_len, sizeof p->line - p->line_len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            if (p->line_len == 0)
                return 0;
            p->line[p->line_len++] = '\n'; /* a last line without newline */
            continue;
        }
        p->line_len += (size_t)got;
    }
}

static void list_tile_moves(const carc_game *g)
{
    carc_placement places[CARC_MAX_PLACEMENTS];
    int n = carc_legal_placements(g, places, CARC_MAX_PLACEMENTS);
    if (n == 0) {
        printf("  the tile fits nowhere: discard %s\n", carc_tile_id(carc_game_drawn_tile(g)));
        return;
    }
    for (int i = 0; i < n; i++) {
        char text[MOVE_CAP];
        carc_move m = {.type = CARC_MOVE_PLACE, .place = places[i], .segment = CARC_NO_SPOT};
        carc_move_write(g, m, text, sizeof text);
        printf("  %-12s", text);
        carc_spot spots[CARC_MAX_SPOTS];
        int ns = carc_legal_spots(g, places[i], spots, CARC_MAX_SPOTS);
        for (int s = 0; s < ns; s++) {
            m.segment = spots[s].segment;
            carc_move_write(g, m, text, sizeof text);
            const char *spot = strrchr(text, ' ');
            printf(" %s (%s)", spot ? spot + 1 : "?", carc_kind_name(spots[s].kind));
        }
        putchar('\n');
    }
}

/* The legal moves of the held tile; in a hand game, of each tile of the
 * hand in turn. */
static void list_legal_moves(const carc_game *g)
{
    int hand[CARC_MAX_HAND],
        n = carc_game_hand(g, carc_game_current_player(g), hand, CARC_MAX_HAND);
    carc_game *one = n > 0 ? carc_game_clone(g) : NULL;
    if (!one) {
        list_tile_moves(g);
        return;
    }
    for (int i = 0; i < n && i < CARC_MAX_HAND; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= hand[j] == hand[i];
        if (seen || carc_game_hold_tile(one, hand[i]) != CARC_OK)
            continue;
        printf(" tile %s:\n", carc_tile_id(hand[i]));
        list_tile_moves(one);
    }
    carc_game_free(one);
}

static void show_position(const carc_game *g)
{
    putchar('\n');
    board_text_print(stdout, g);
    for (int pl = 0; pl < carc_game_players(g); pl++)
        printf("%s  player %d: %d points, %d followers\n",
               pl == carc_game_current_player(g) ? ">" : " ", pl + 1, carc_game_score(g, pl),
               carc_game_supply(g, pl));
    int hand[CARC_MAX_HAND],
        n = carc_game_hand(g, carc_game_current_player(g), hand, CARC_MAX_HAND);
    if (n > 0) {
        printf("Your hand (%d left in the pile): type a move with its tile's letter, as K 0 -1 2;"
               " without a letter it is %s\n",
               carc_game_tiles_left(g, NULL), carc_tile_id(carc_game_drawn_tile(g)));
        for (int i = 0; i < n && i < CARC_MAX_HAND; i++) {
            printf("%s:\n", carc_tile_id(hand[i]));
            board_text_print_tile(stdout, hand[i]);
        }
        return;
    }
    int kind = carc_game_drawn_tile(g);
    printf("Your tile: %s (%d left in the pile)\n", carc_tile_id(kind),
           carc_game_tiles_left(g, NULL));
    board_text_print_tile(stdout, kind);
}

static int choose_human(seat_player *p, const carc_game *g, unsigned seq, char *move, char *err)
{
    show_position(g);
    for (;;) {
        printf("Your move (X Y ROT [SPOT], '?' lists the legal moves, 'board' redraws): ");
        fflush(stdout);
        char line[HUMAN_LINE];
        int got = read_line(p, seq, line, sizeof line);
        if (got < 0) {
            printf("\n(the turn has moved on)\n");
            return 1;
        }
        if (got == 0) {
            snprintf(err, ERR_CAP, "standard input closed");
            return -1;
        }
        char *s = line + strspn(line, " \t");
        s[strcspn(s, "\r")] = '\0';
        if (*s == '\0')
            continue;
        if (strcmp(s, "?") == 0 || strcmp(s, "moves") == 0) {
            list_legal_moves(g);
            continue;
        }
        if (strcmp(s, "board") == 0) {
            show_position(g);
            continue;
        }
        /* "0 -1 2 S" may leave out the tile's letter. */
        char text[HUMAN_LINE + 4];
        const char *letter = carc_tile_id(carc_game_drawn_tile(g));
        if ((s[0] >= '0' && s[0] <= '9') || s[0] == '-')
            snprintf(text, sizeof text, "%s %s", letter, s);
        else
            snprintf(text, sizeof text, "%s", s);
        carc_move m;
        char why[160];
        if (carc_move_parse_message(g, text, &m, why, sizeof why) != CARC_OK) {
            printf("  not a legal move: %s\n", why);
            continue;
        }
        carc_move_write(g, m, move, MOVE_CAP);
        return 0;
    }
}

/* --- The thread ------------------------------------------------------------------ */

static int choose(seat_player *p, const carc_game *g, unsigned seq, int ms, char *move, char *err)
{
    switch (p->kind) {
    case KIND_LIBRARY: return choose_library(p, g, move, err);
    case KIND_ENGINE: return choose_engine(p, g, ms, move, err);
    default: return choose_human(p, g, seq, move, err);
    }
}

static void *run(void *arg)
{
    seat_player *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stop && !p->job)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->stop)
            break;
        carc_game *g = p->job;
        p->job = NULL;
        unsigned seq = p->job_seq;
        int turn = p->job_turn, ms = p->job_ms;
        pthread_mutex_unlock(&p->lock);

        char move[MOVE_CAP] = "", err[ERR_CAP] = "";
        int status = choose(p, g, seq, ms, move, err);
        carc_game_free(g);

        pthread_mutex_lock(&p->lock);
        if (status != 1 && seq == p->job_seq && !p->stop) {
            p->result = status == 0 ? 1 : -1;
            p->result_seq = seq;
            p->result_turn = turn;
            memcpy(p->move, move, sizeof move);
            memcpy(p->err, err, sizeof err);
            pthread_mutex_unlock(&p->lock);
            p->ready(p->user);
            pthread_mutex_lock(&p->lock);
        }
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

seat_player *seat_player_new(const char *spec, int seat, uint64_t seed, void (*ready)(void *user),
                             void *user, char *err, size_t errcap)
{
    seat_player *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    p->seat = seat;
    p->seed = seed;
    p->tile_told = -1;
    p->final_forfeit = -1;
    p->ready = ready;
    p->user = user;
    if (strcmp(spec, "human") == 0) {
        p->kind = KIND_HUMAN;
    } else if (strncmp(spec, "engine:", 7) == 0) {
        p->kind = KIND_ENGINE;
        if (spec[7] == '\0') {
            snprintf(err, errcap, "'engine:' needs a command after the colon");
            free(p);
            return NULL;
        }
        p->engine_command = strdup(spec + 7);
    } else {
        p->kind = KIND_LIBRARY;
        p->library = carc_player_new(spec, seed, err, errcap);
        if (!p->library) {
            free(p);
            return NULL;
        }
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    if (pthread_create(&p->thread, NULL, run, p) != 0) {
        snprintf(err, errcap, "cannot start a thread");
        carc_player_free(p->library);
        free(p->engine_command);
        free(p);
        return NULL;
    }
    return p;
}

void seat_player_free(seat_player *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    if (p->library)
        carc_player_stop(p->library);
    pthread_join(p->thread, NULL);
    engine_finish(p);
    carc_game_free(p->final);
    carc_game_free(p->job);
    carc_player_free(p->library);
    engine_process_close(p->engine);
    free(p->engine_command);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    free(p);
}

int seat_player_start(seat_player *p, const carc_game *g, int turn, int ms)
{
    carc_game *copy = carc_game_clone(g);
    if (!copy)
        return -1;
    pthread_mutex_lock(&p->lock);
    if (p->library && p->result_seq != p->job_seq)
        carc_player_stop(p->library); /* the running choice is not wanted */
    carc_game_free(p->job);
    p->job = copy;
    p->job_turn = turn;
    p->job_ms = ms;
    p->job_seq++;
    p->result = 0;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    return 0;
}

int seat_player_turn(seat_player *p)
{
    pthread_mutex_lock(&p->lock);
    int turn = p->job_seq ? p->job_turn : -1;
    pthread_mutex_unlock(&p->lock);
    return turn;
}

void seat_player_cancel(seat_player *p)
{
    pthread_mutex_lock(&p->lock);
    if (p->library && p->result_seq != p->job_seq)
        carc_player_stop(p->library);
    carc_game_free(p->job);
    p->job = NULL;
    p->job_seq++;
    p->result_seq = p->job_seq; /* nothing is running any more */
    p->result = 0;
    p->job_turn = -1;
    pthread_mutex_unlock(&p->lock);
}

int seat_player_busy(seat_player *p)
{
    pthread_mutex_lock(&p->lock);
    int busy = p->job != NULL || p->result != 0 || p->result_seq != p->job_seq;
    pthread_mutex_unlock(&p->lock);
    return busy;
}

int seat_player_take(seat_player *p, char *move, size_t cap, int *turn, char *err, size_t errcap)
{
    pthread_mutex_lock(&p->lock);
    int result = p->result_seq == p->job_seq ? p->result : 0;
    if (result) {
        snprintf(move, cap, "%s", p->move);
        snprintf(err, errcap, "%s", p->err);
        *turn = p->result_turn;
        p->result = 0;
    }
    pthread_mutex_unlock(&p->lock);
    return result;
}

int seat_player_is_human(const seat_player *p)
{
    return p->kind == KIND_HUMAN;
}
