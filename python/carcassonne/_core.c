/* _core.c: the CPython extension over the public API (carcassonne.h,
 * carcassonne_ai.h): games, moves as record strings and as integer
 * actions, observations, computer players and threaded self-play. The
 * Python layer (__init__.py) adds numpy and the environments on top. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carcassonne.h"
#include "carcassonne_ai.h"

/* ---------------------------------------------------------------------------
 * Action space and observation: constants shared with __init__.py.
 *
 * An action is a move of the drawn tile in a window of board_size x
 * board_size squares centred on the middle of the board's bounding box:
 *   action = ((row * board_size + column) * 4 + rotation) * FIGURE_SLOTS + slot
 * slot 0 places no figure, slot 1 + 4 * segment + figure a figure
 * (carc_figure) on the tile's local segment; the last action (the number of
 * placements) is the discard.
 * ------------------------------------------------------------------------- */
enum {
    FIGURE_SLOTS = 1 + CARC_MAX_SEGMENTS_PER_TILE * CARC_FIGURES,
    MIN_BOARD = 5,
    MAX_BOARD = 127,
    DEFAULT_BOARD = 31,
    /* Board planes of the observation, see docs/python.md. */
    PLANE_TILE = 0,
    PLANE_EDGES = 1, /* 12: edge e (N E S W) city, road, river */
    PLANE_CLOISTER = 13,
    PLANE_PENNANT = 14,
    PLANE_INN = 15,
    PLANE_CATHEDRAL = 16,
    PLANE_GOODS = 17,
    PLANE_FIGURES = 18, /* 5 per seat from the viewer (8 seats): road, city, farm, cloister,
                           other */
    PLANE_FITS = PLANE_FIGURES + 5 * CARC_MAX_PLAYERS, /* 4 per hand tile (3): tile h of the
                                                          hand (the drawn tile without a
                                                          hand) fits at rotation r */
    PLANE_LAST = PLANE_FITS + 4 * CARC_MAX_HAND,       /* the tile of the last move */
    PLANE_JOINED = PLANE_LAST + 1, /* 6: edge pairs NE NS NW ES EW SW joined by one segment */
    PLANES = PLANE_JOINED + 6,
    /* Global features: per seat from the viewer (10 each), the drawn tile,
     * the viewer's hand (one kind per hand tile), the unseen tiles per
     * kind, then 4 numbers. */
    SEAT_FEATURES = 10,
    GLOBAL_DRAWN = CARC_MAX_PLAYERS * SEAT_FEATURES,
    GLOBAL_HAND = GLOBAL_DRAWN + CARC_MAX_KINDS,
    GLOBAL_LEFT = GLOBAL_HAND + CARC_MAX_HAND * CARC_MAX_KINDS,
    GLOBAL_TAIL = GLOBAL_LEFT + CARC_MAX_KINDS,
    GLOBALS = GLOBAL_TAIL + 4,
};

static long block_size(int side);
static int hand_blocks(const carc_game *g);

/* Scratch buffers: every caller holds the GIL, so one of each serves all. */
static carc_move scratch_moves[CARC_MAX_MOVES];
static carc_placement scratch_places[CARC_MAX_PLACEMENTS];

/* ---------------------------------------------------------------------------
 * The Game type
 * ------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD carc_game *g;
    int board;           /* the action window's side (odd) */
    int explicit_chance; /* 1: the draw is a chance node of its own */
    int chance_pending;  /* 1: at a chance node (the draw not yet chosen) */
    uint64_t seed;       /* the seed the game was dealt from (Game.seed) */
    /* The legal moves of the position, valid while `cached` is set. */
    int cached;
    int nmoves;
    carc_move *moves;
    PyObject *strings; /* list of their record strings, or NULL */
    /* Their actions (-1: outside the window), valid while `coded` is set,
     * and the sorted list legal_actions() returns, or NULL. */
    int coded;
    long *codes;
    PyObject *actions;
    /* Score events of the last move. */
    int nevents;
    carc_event events[CARC_MAX_EVENTS];
} GameObject;

static PyTypeObject GameType;

static void game_forget(GameObject *self)
{
    self->cached = 0;
    self->coded = 0;
    Py_CLEAR(self->strings);
    Py_CLEAR(self->actions);
}

static void game_dealloc(GameObject *self)
{
    Py_CLEAR(self->strings);
    Py_CLEAR(self->actions);
    free(self->moves);
    free(self->codes);
    if (self->g)
        carc_game_free(self->g);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static GameObject *game_alloc(PyTypeObject *type)
{
    GameObject *self = (GameObject *)type->tp_alloc(type, 0);
    if (self)
        self->board = DEFAULT_BOARD;
    return self;
}

static int check_board(int board)
{
    if (board < MIN_BOARD || board > MAX_BOARD || board % 2 == 0) {
        PyErr_Format(PyExc_ValueError, "board_size must be odd, %d..%d (got %d)", MIN_BOARD,
                     MAX_BOARD, board);
        return -1;
    }
    return 0;
}

/* `arg` as a Python int (a new reference): an int or any integer with
 * __index__ (numpy's integers), never a bool (Python's or numpy's); NULL
 * with TypeError naming `what` for anything else. */
static PyObject *integer_arg(PyObject *arg, const char *what)
{
    int is_bool = PyBool_Check(arg) || strncmp(Py_TYPE(arg)->tp_name, "numpy.bool", 10) == 0;
    if (is_bool || !PyIndex_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.80s", what, Py_TYPE(arg)->tp_name);
        return NULL;
    }
    return PyNumber_Index(arg);
}

/* A PyArg "O&" converter into a uint64_t: a seed is an integer of 0 ..
 * 2**64-1; a bigger or negative one raises ValueError with its value,
 * never wraps round. */
static int seed_converter(PyObject *arg, void *out)
{
    PyObject *v = integer_arg(arg, "seed");
    if (!v)
        return 0;
    unsigned long long seed = PyLong_AsUnsignedLongLong(v);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "seed %R is out of range: a seed is 0 .. 2**64-1", v);
        }
        Py_DECREF(v);
        return 0;
    }
    Py_DECREF(v);
    *(uint64_t *)out = (uint64_t)seed;
    return 1;
}

/* Reads the rules and expansions texts (names separated by commas or
 * spaces) into `*rules`; -1 with a ValueError when refused. */
static int parse_rules(const char *rules_text, const char *expansions_text, carc_rules *rules)
{
    char err[256];
    *rules = carc_rules_standard();
    if (carc_rules_parse(rules_text, rules, err, sizeof err) != CARC_OK) {
        PyErr_Format(PyExc_ValueError, "rules: %s", err);
        return -1;
    }
    if (carc_expansions_parse(expansions_text, rules, err, sizeof err) != CARC_OK) {
        PyErr_Format(PyExc_ValueError, "expansions: %s", err);
        return -1;
    }
    if (carc_rules_check(rules, err, sizeof err) != CARC_OK) {
        PyErr_Format(PyExc_ValueError, "rules: %s", err);
        return -1;
    }
    return 0;
}

static int game_init(GameObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"players",         "seed", "rules", "expansions", "board_size",
                             "explicit_chance", NULL};
    int players = 2, board = DEFAULT_BOARD, explicit_chance = 0;
    uint64_t seed = 0;
    const char *rules_text = "", *expansions_text = "";
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|iO&ssip", kwlist, &players, seed_converter,
                                     &seed, &rules_text, &expansions_text, &board,
                                     &explicit_chance))
        return -1;
    if (players < CARC_MIN_PLAYERS || players > CARC_MAX_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "players must be %d..%d (got %d)", CARC_MIN_PLAYERS,
                     CARC_MAX_PLAYERS, players);
        return -1;
    }
    carc_rules rules;
    if (check_board(board) < 0 || parse_rules(rules_text, expansions_text, &rules) < 0)
        return -1;
    carc_game *g = carc_game_new(players, &rules, seed);
    if (!g) {
        PyErr_NoMemory();
        return -1;
    }
    if (self->g)
        carc_game_free(self->g);
    self->g = g;
    self->board = board;
    self->seed = seed;
    self->explicit_chance = explicit_chance;
    self->chance_pending = explicit_chance && (!rules.hand || carc_game_draw_due(g, NULL) > 0);
    self->nevents = 0;
    game_forget(self);
    return 0;
}

static int need_game(GameObject *self)
{
    if (!self->g) {
        PyErr_SetString(PyExc_RuntimeError, "the game was not initialised");
        return -1;
    }
    return 0;
}

/* Fills the cache of legal moves (the game not at a chance node). */
static int game_cache(GameObject *self)
{
    if (self->cached)
        return 0;
    int n = carc_legal_moves(self->g, scratch_moves, CARC_MAX_MOVES);
    carc_move *moves = realloc(self->moves, sizeof *moves * (size_t)(n > 0 ? n : 1));
    if (!moves) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(moves, scratch_moves, sizeof *moves * (size_t)n);
    self->moves = moves;
    self->nmoves = n;
    self->cached = 1;
    self->coded = 0;
    Py_CLEAR(self->strings);
    Py_CLEAR(self->actions);
    return 0;
}

static int not_at_chance(GameObject *self)
{
    if (self->chance_pending) {
        PyErr_SetString(PyExc_ValueError,
                        "the game is at a chance node: apply_action(tile kind) draws first "
                        "(chance_outcomes() lists them)");
        return -1;
    }
    return 0;
}

static PyObject *move_string(const carc_game *g, carc_move m)
{
    char buf[64];
    size_t n = carc_move_write(g, m, buf, sizeof buf);
    return PyUnicode_DecodeASCII(buf, (Py_ssize_t)n, NULL);
}

/* The spot part of a move's record string (" S", " E large", ""), by tile
 * kind, rotation, segment and figure, learnt from carc_move_write() the
 * first time it is needed: legal_moves() then writes its strings without
 * a printf per move (it is the plain interface's hot path). */
enum { SUFFIX_SIZE = 16 };
static char spot_suffix[CARC_MAX_KINDS][4][CARC_MAX_SEGMENTS_PER_TILE][CARC_FIGURES][SUFFIX_SIZE];
static unsigned char spot_known[CARC_MAX_KINDS][4][CARC_MAX_SEGMENTS_PER_TILE][CARC_FIGURES];

static char *write_int(char *p, int v)
{
    char digits[12];
    int n = 0;
    unsigned u = v < 0 ? (unsigned)-v : (unsigned)v;
    do
        digits[n++] = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (v < 0)
        *p++ = '-';
    while (n > 0)
        *p++ = digits[--n];
    return p;
}

/* Writes the record string of `m`, a legal move of the drawn tile `kind`,
 * into `buf` (64 bytes); returns its length. */
static size_t fast_move_write(const carc_game *g, int kind, carc_move m, char *buf)
{
    if (m.type != CARC_MOVE_PLACE || kind < 0 || kind >= CARC_MAX_KINDS || m.place.rot > 3 ||
        (m.segment != CARC_NO_SPOT &&
         (m.segment >= CARC_MAX_SEGMENTS_PER_TILE || m.figure >= CARC_FIGURES)))
        return carc_move_write(g, m, buf, 64);
    const char *suffix = "";
    if (m.segment != CARC_NO_SPOT) {
        char *known = spot_suffix[kind][m.place.rot][m.segment][m.figure];
        unsigned char *flag = &spot_known[kind][m.place.rot][m.segment][m.figure];
        if (!*flag) {
            /* The text after the fourth field of the library's own string. */
            char full[64];
            carc_move_write(g, m, full, sizeof full);
            const char *q = full;
            for (int field = 0; field < 4 && *q; q++)
                if (*q == ' ')
                    field++;
            snprintf(known, SUFFIX_SIZE, "%s%.12s", *q ? " " : "", q);
            *flag = 1;
        }
        suffix = known;
    }
    const char *id = carc_tile_id(kind);
    char *p = buf;
    while (*id)
        *p++ = *id++;
    *p++ = ' ';
    p = write_int(p, m.place.x);
    *p++ = ' ';
    p = write_int(p, m.place.y);
    *p++ = ' ';
    *p++ = (char)('0' + m.place.rot);
    while (*suffix)
        *p++ = *suffix++;
    *p = '\0';
    return (size_t)(p - buf);
}

/* The tile kind move `m` places: its own (a hand game's moves name it),
 * else the drawn tile. */
static int move_kind(const carc_game *g, carc_move m)
{
    return m.place.tile ? m.place.tile - 1 : carc_game_drawn_tile(g);
}

static PyObject *game_legal_moves(GameObject *self, PyObject *unused)
{
    (void)unused;
    if (need_game(self) < 0)
        return NULL;
    if (self->chance_pending)
        return PyList_New(0);
    if (game_cache(self) < 0)
        return NULL;
    if (!self->strings) {
        PyObject *list = PyList_New(self->nmoves);
        if (!list)
            return NULL;
        for (int i = 0; i < self->nmoves; i++) {
            char buf[64];
            size_t n =
                fast_move_write(self->g, move_kind(self->g, self->moves[i]), self->moves[i], buf);
            PyObject *s = PyUnicode_DecodeASCII(buf, (Py_ssize_t)n, NULL);
            if (!s) {
                Py_DECREF(list);
                return NULL;
            }
            PyList_SET_ITEM(list, i, s);
        }
        self->strings = list;
    }
    return PyList_GetSlice(self->strings, 0, self->nmoves);
}

/* Plays `m` (legal) and keeps its events. */
static int game_apply(GameObject *self, carc_move m)
{
    int nevents = 0;
    carc_status st = carc_game_play(self->g, m, self->events, CARC_MAX_EVENTS, &nevents);
    if (st != CARC_OK) {
        PyErr_Format(PyExc_ValueError, "%s", carc_game_error(self->g));
        return -1;
    }
    self->nevents = nevents < CARC_MAX_EVENTS ? nevents : CARC_MAX_EVENTS;
    game_forget(self);
    if (self->explicit_chance && !carc_game_over(self->g))
        self->chance_pending =
            !carc_game_rules(self->g).hand || carc_game_draw_due(self->g, NULL) > 0;
    return 0;
}

static int game_open(GameObject *self)
{
    if (need_game(self) < 0)
        return -1;
    if (carc_game_over(self->g)) {
        PyErr_SetString(PyExc_ValueError, "the game is finished");
        return -1;
    }
    return not_at_chance(self);
}

static PyObject *game_play(GameObject *self, PyObject *arg)
{
    if (!PyUnicode_Check(arg))
        return PyErr_Format(PyExc_TypeError, "play() takes a move string, not %.80s",
                            Py_TYPE(arg)->tp_name);
    if (game_open(self) < 0 || game_cache(self) < 0)
        return NULL;
    Py_ssize_t len;
    const char *text = PyUnicode_AsUTF8AndSize(arg, &len);
    if (!text)
        return NULL;
    /* A string of legal_moves() itself, else one spelled the same way. */
    int found = -1;
    if (self->strings)
        for (int i = 0; i < self->nmoves && found < 0; i++)
            if (PyList_GET_ITEM(self->strings, i) == arg)
                found = i;
    for (int i = 0; i < self->nmoves && found < 0; i++) {
        char buf[64];
        size_t n =
            fast_move_write(self->g, move_kind(self->g, self->moves[i]), self->moves[i], buf);
        if ((size_t)len == n && memcmp(buf, text, n) == 0)
            found = i;
    }
    if (found < 0) {
        char err[256];
        carc_move m;
        if (strlen(text) != (size_t)len)
            return PyErr_Format(PyExc_ValueError, "not a legal move: the string holds a NUL");
        if (carc_move_parse_message(self->g, text, &m, err, sizeof err) != CARC_OK)
            return PyErr_Format(PyExc_ValueError, "not a legal move: %.200s: %s", text, err);
        PyObject *form = move_string(self->g, carc_move_canonical(self->g, m));
        if (!form)
            return NULL;
        PyErr_Format(PyExc_ValueError,
                     "not a legal move: %.200s is not in legal_moves() (there it is %R)", text,
                     form);
        Py_DECREF(form);
        return NULL;
    }
    if (game_apply(self, self->moves[found]) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* Whether `a` and `b` made the same draws (a hand game's draw log). */
static int same_draws(const carc_game *a, const carc_game *b)
{
    int n = carc_game_draw_count(a);
    if (carc_game_draw_count(b) != n)
        return 0;
    for (int i = 0; i < n; i++) {
        int pa, ka, ma, pb, kb, mb;
        carc_game_draw_at(a, i, &pa, &ka, &ma);
        carc_game_draw_at(b, i, &pb, &kb, &mb);
        if (pa != pb || ka != kb || ma != mb)
            return 0;
    }
    return 1;
}

/* The game `seed` deals with the moves of `g` played on it, when that
 * deal gives every tile `g` drew (its moves', its draw log's, and with
 * `drawn_known` its drawn tile; a record read does not know it): `g`
 * continued with the seed's deal; NULL otherwise (or out of memory). Free
 * it with carc_game_free(). As `carcassonne replay` checks a fair deal
 * (apps/common/deal_check.c). */
static carc_game *redeal(const carc_game *g, uint64_t seed, int drawn_known)
{
    carc_rules rules = carc_game_rules(g);
    carc_game *d = carc_game_new(carc_game_players(g), &rules, seed);
    int ok = d != NULL;
    for (int i = 0; ok && i < carc_game_move_count(g); i++) {
        carc_move m;
        int tile;
        carc_game_move_at(g, i, &m, &tile);
        ok = (rules.hand || carc_game_drawn_tile(d) == tile) &&
             carc_game_play(d, m, NULL, 0, NULL) == CARC_OK;
    }
    if (ok && carc_game_ended_early(g) && !carc_game_over(d))
        ok = carc_game_finish(d, NULL, 0, NULL) == CARC_OK;
    carc_game *guess = NULL; /* `g` with the deal's drawn tile */
    if (ok && !drawn_known && !rules.hand && !carc_game_over(d)) {
        guess = carc_game_clone(g);
        ok = guess && carc_game_choose_tile(guess, carc_game_drawn_tile(d)) == CARC_OK;
    }
    const carc_game *same = guess ? guess : g;
    ok = ok && carc_game_digest(d) == carc_game_digest(same) && same_draws(d, same) &&
         carc_game_drawn_tile(d) == carc_game_drawn_tile(same);
    if (guess)
        carc_game_free(guess);
    if (!ok && d) {
        carc_game_free(d);
        d = NULL;
    }
    return d;
}

/* Whether the hidden deals of `a` and `b` (the pile's order, the
 * generator) are the same. */
static int same_deal(const carc_game *a, const carc_game *b)
{
    int ka[CARC_MAX_TILES], kb[CARC_MAX_TILES];
    uint64_t ga, gb;
    int n = carc_game_deal(a, ka, CARC_MAX_TILES, &ga);
    return carc_game_deal(b, kb, CARC_MAX_TILES, &gb) == n && ga == gb &&
           memcmp(ka, kb, sizeof ka[0] * (size_t)n) == 0;
}

/* Whether the game is what its seed deals with its moves played: every
 * draw so far and the pile's order (a draw chosen with draw() or at a
 * chance node that the deal did not give, or a record read with another
 * deal, makes it not). */
static int dealt_from_seed(const GameObject *self)
{
    carc_game *d = redeal(self->g, self->seed, 1);
    int dealt = d && same_deal(d, self->g);
    if (d)
        carc_game_free(d);
    return dealt;
}

static PyObject *game_record(GameObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"seed", NULL};
    int with_seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|p", kwlist, &with_seed) || need_game(self) < 0)
        return NULL;
    /* The `seed` header, as the command line's records have it, when the
     * seed dealt the game: from_record() then continues with its deal.
     * It tells the whole pile: seed=False leaves it out (what a player
     * may be shown). */
    char headers[64] = "";
    if (with_seed && dealt_from_seed(self)) {
        char number[24];
        snprintf(number, sizeof number, "%llu", (unsigned long long)self->seed);
        carc_header_append(headers, sizeof headers, "seed", number);
    }
    size_t need = carc_record_write(self->g, headers, NULL, 0);
    char *buf = malloc(need + 1);
    if (!buf)
        return PyErr_NoMemory();
    carc_record_write(self->g, headers, buf, need + 1);
    PyObject *s = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)need, "strict");
    free(buf);
    return s;
}

/* The record's `seed` header, when it has one that is a 64-bit number. */
static int seed_header(const char *text, size_t len, uint64_t *seed)
{
    carc_header headers[32];
    int n = carc_record_headers(text, len, headers, 32, NULL);
    int i = carc_header_find(headers, n < 32 ? n : 32, "seed");
    if (i < 0 || headers[i].value_len == 0 || headers[i].value_len > 20)
        return 0;
    char number[24];
    snprintf(number, sizeof number, "%.*s", (int)headers[i].value_len, headers[i].value);
    if (strspn(number, "0123456789") != strlen(number))
        return 0;
    errno = 0;
    unsigned long long v = strtoull(number, NULL, 10);
    if (errno == ERANGE)
        return 0;
    *seed = (uint64_t)v;
    return 1;
}

/* The score events of a record's last step (carc_record_replay()). */
typedef struct last_events {
    int n;
    carc_event events[CARC_MAX_EVENTS];
} last_events;

static int keep_events(void *ctx, const carc_replay_step *step)
{
    last_events *last = ctx;
    last->n = step->nevents;
    memcpy(last->events, step->events, sizeof(carc_event) * (size_t)step->nevents);
    return 0;
}

static PyObject *game_from_record(PyObject *cls, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"text", "seed", "board_size", NULL};
    const char *text;
    Py_ssize_t len;
    uint64_t seed = 0;
    int board = DEFAULT_BOARD;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "s#|O&i", kwlist, &text, &len, seed_converter,
                                     &seed, &board))
        return NULL;
    if (check_board(board) < 0)
        return NULL;
    carc_record_error err = {0};
    last_events *last = calloc(1, sizeof *last);
    if (!last)
        return PyErr_NoMemory();
    uint64_t dealt_by = 0;
    PyThreadState *ts = PyEval_SaveThread();
    carc_game *g = carc_record_replay(text, (size_t)len, seed, keep_events, last, &err);
    /* A record with the seed that dealt it goes on with that deal. */
    carc_game *dealt =
        g && seed_header(text, (size_t)len, &dealt_by) ? redeal(g, dealt_by, 0) : NULL;
    if (dealt) {
        carc_game_free(g);
        g = dealt;
        seed = dealt_by;
    }
    PyEval_RestoreThread(ts);
    if (!g) {
        free(last);
        if (err.line > 0)
            return PyErr_Format(PyExc_ValueError, "line %d: %s", err.line, err.message);
        return PyErr_Format(PyExc_ValueError, "%s", err.message[0] ? err.message : "bad record");
    }
    GameObject *self = game_alloc((PyTypeObject *)cls);
    if (!self) {
        carc_game_free(g);
        free(last);
        return NULL;
    }
    self->g = g;
    self->board = board;
    self->seed = seed;
    self->nevents = last->n;
    memcpy(self->events, last->events, sizeof(carc_event) * (size_t)last->n);
    free(last);
    return (PyObject *)self;
}

static PyObject *game_clone(GameObject *self, PyObject *unused)
{
    (void)unused;
    if (need_game(self) < 0)
        return NULL;
    GameObject *copy = game_alloc(Py_TYPE(self));
    if (!copy)
        return NULL;
    copy->g = carc_game_clone(self->g);
    if (!copy->g) {
        Py_DECREF(copy);
        return PyErr_NoMemory();
    }
    copy->board = self->board;
    copy->seed = self->seed;
    copy->explicit_chance = self->explicit_chance;
    copy->chance_pending = self->chance_pending;
    copy->nevents = self->nevents;
    memcpy(copy->events, self->events, sizeof(carc_event) * (size_t)self->nevents);
    return (PyObject *)copy;
}

static PyObject *game_tiles_left(GameObject *self, PyObject *unused)
{
    (void)unused;
    if (need_game(self) < 0)
        return NULL;
    int n = carc_game_tiles_left(self->g, NULL);
    /* At a chance node the drawn tile (with a hand: every draw not yet
     * made) is still in the bag. */
    if (self->chance_pending)
        n += carc_game_rules(self->g).hand ? carc_game_draw_due(self->g, NULL) : 1;
    return PyLong_FromLong(n);
}

static PyObject *game_get_finished(GameObject *self, void *closure)
{
    (void)closure;
    if (need_game(self) < 0)
        return NULL;
    return PyBool_FromLong(carc_game_over(self->g));
}

static PyObject *game_get_scores(GameObject *self, void *closure)
{
    (void)closure;
    if (need_game(self) < 0)
        return NULL;
    int n = carc_game_players(self->g);
    PyObject *list = PyList_New(n);
    for (int p = 0; list && p < n; p++)
        PyList_SET_ITEM(list, p, PyLong_FromLong(carc_game_score(self->g, p)));
    return list;
}

static PyObject *game_get_tile(GameObject *self, void *closure)
{
    (void)closure;
    if (need_game(self) < 0)
        return NULL;
    int kind = carc_game_drawn_tile(self->g);
    if (kind < 0 || self->chance_pending)
        Py_RETURN_NONE;
    return PyUnicode_FromString(carc_tile_id(kind));
}

static PyObject *game_get_current_player(GameObject *self, void *closure)
{
    (void)closure;
    if (need_game(self) < 0)
        return NULL;
    return PyLong_FromLong(carc_game_current_player(self->g));
}

static PyObject *game_get_players(GameObject *self, void *closure)
{
    (void)closure;
    if (need_game(self) < 0)
        return NULL;
    return PyLong_FromLong(carc_game_players(self->g));
}

static PyObject *game_get_seed(GameObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLongLong((unsigned long long)self->seed);
}

static PyObject *game_get_explicit_chance(GameObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->explicit_chance);
}

static PyObject *game_get_board_size(GameObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->board);
}

static PyObject *game_get_num_actions(GameObject *self, void *closure)
{
    (void)closure;
    if (need_game(self) < 0)
        return NULL;
    return PyLong_FromLong(hand_blocks(self->g) * block_size(self->board));
}

static PyObject *game_get_rules(GameObject *self, void *closure)
{
    (void)closure;
    if (need_game(self) < 0)
        return NULL;
    char buf[CARC_RULES_TEXT_MAX];
    carc_rules_format(carc_game_rules(self->g), buf, sizeof buf, ",");
    return PyUnicode_FromString(buf);
}

static PyObject *game_get_expansions(GameObject *self, void *closure)
{
    (void)closure;
    if (need_game(self) < 0)
        return NULL;
    char buf[256];
    carc_expansions_format(carc_game_rules(self->g), buf, sizeof buf, ",");
    return PyUnicode_FromString(buf);
}

static PyObject *seat_list(unsigned mask, int players)
{
    PyObject *list = PyList_New(0);
    for (int p = 0; list && p < players; p++) {
        if (!(mask & (1u << p)))
            continue;
        PyObject *v = PyLong_FromLong(p);
        if (!v || PyList_Append(list, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(v);
    }
    return list;
}

static PyObject *event_dict(const carc_event *e, int players)
{
    static const char *bonus[] = {NULL, "pig", "goods"};
    PyObject *returned = PyList_New(players);
    for (int p = 0; returned && p < players; p++)
        PyList_SET_ITEM(returned, p, PyLong_FromLong(e->returned[p]));
    PyObject *winners = seat_list(e->winners, players);
    PyObject *goods = Py_BuildValue("[iii]", e->goods[0], e->goods[1], e->goods[2]);
    PyObject *d = NULL;
    if (returned && winners && goods)
        d = Py_BuildValue(
            "{s:s,s:O,s:N,s:i,s:i,s:i,s:N,s:z,s:N,s:(ii)}", "kind", carc_kind_name(e->kind),
            "complete", e->complete ? Py_True : Py_False, "winners", winners, "points", e->points,
            "tiles", e->tiles, "pennants", e->pennants, "returned", returned, "bonus",
            e->bonus < 3 ? bonus[e->bonus] : "other", "goods", goods, "at", e->x, e->y);
    else {
        Py_XDECREF(returned);
        Py_XDECREF(winners);
        Py_XDECREF(goods);
    }
    return d;
}

static PyObject *game_get_events(GameObject *self, void *closure)
{
    (void)closure;
    if (need_game(self) < 0)
        return NULL;
    int players = carc_game_players(self->g);
    PyObject *list = PyList_New(self->nevents);
    for (int i = 0; list && i < self->nevents; i++) {
        PyObject *d = event_dict(&self->events[i], players);
        if (!d) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, d);
    }
    return list;
}

/* --- Integer actions -------------------------------------------------------- */

/* The action space: one block of side * side * 4 * FIGURE_SLOTS + 1
 * actions (the last the discard) per tile of a hand: with hand=N, N
 * blocks, block h for the h-th tile of the mover's hand in hand order;
 * without a hand one block, for the drawn tile. */
typedef struct {
    int ox, oy; /* board square of the window's first row and column */
    int side;
    int blocks;              /* hand=N: N; else 1 */
    int nhand;               /* tiles in the mover's hand; 0 without a hand */
    int hand[CARC_MAX_HAND]; /* their kinds, in hand order */
} window;

static long block_size(int side)
{
    return (long)side * side * 4 * FIGURE_SLOTS + 1;
}

/* The discard's place in a block. */
static long discard_action(int side)
{
    return block_size(side) - 1;
}

static int hand_blocks(const carc_game *g)
{
    int n = carc_game_rules(g).hand;
    return n > 0 ? n : 1;
}

/* The window of `side` squares of game `g` (a Game's or a VectorGame's). */
static window board_window(const carc_game *g, int side)
{
    int min_x = 0, min_y = 0, max_x = 0, max_y = 0;
    /* An empty board (a rule may deal the start tile from the pile) is
     * centred on the origin. */
    if (carc_game_tile_count(g) > 0)
        carc_game_bounds(g, &min_x, &min_y, &max_x, &max_y);
    int half = side / 2;
    /* Floor of the middle, for negative sums too. */
    int sx = min_x + max_x, sy = min_y + max_y;
    int cx = sx >= 0 ? sx / 2 : -((-sx + 1) / 2);
    int cy = sy >= 0 ? sy / 2 : -((-sy + 1) / 2);
    window w = {cx - half, cy - half, side, hand_blocks(g), 0, {0}};
    if (carc_game_rules(g).hand && !carc_game_over(g)) {
        int n = carc_game_hand(g, carc_game_current_player(g), w.hand, CARC_MAX_HAND);
        w.nhand = n < CARC_MAX_HAND ? n : CARC_MAX_HAND;
    }
    return w;
}

static window game_window(const GameObject *self)
{
    return board_window(self->g, self->board);
}

/* The block of the tile `m` places: the first hand tile of its kind. */
static int move_block(window w, const carc_game *g, carc_move m)
{
    if (w.nhand == 0)
        return 0;
    int kind = move_kind(g, m);
    for (int h = 0; h < w.nhand; h++)
        if (w.hand[h] == kind)
            return h;
    return -1;
}

/* The action of `m`, or -1 when its square is outside the window. */
static long encode(window w, const carc_game *g, carc_move m)
{
    int block = move_block(w, g, m);
    if (block < 0)
        return -1;
    long base = (long)block * block_size(w.side);
    if (m.type == CARC_MOVE_DISCARD)
        return base + discard_action(w.side);
    int col = m.place.x - w.ox, row = m.place.y - w.oy;
    if (col < 0 || row < 0 || col >= w.side || row >= w.side)
        return -1;
    int slot = m.segment == CARC_NO_SPOT ? 0 : 1 + m.segment * CARC_FIGURES + m.figure;
    return base + (((long)row * w.side + col) * 4 + m.place.rot) * FIGURE_SLOTS + slot;
}

/* The move of action `a` (its tile set in a hand game); 0 when `a` is out
 * of range or names no tile of the hand. */
static int decode(window w, long a, carc_move *m)
{
    memset(m, 0, sizeof *m);
    if (a < 0 || a >= w.blocks * block_size(w.side))
        return 0;
    long block = a / block_size(w.side);
    a %= block_size(w.side);
    if (w.nhand > 0 ? block >= w.nhand : block > 0)
        return 0;
    m->place.tile = (uint8_t)(w.nhand > 0 ? 1 + w.hand[block] : 0);
    if (a == discard_action(w.side)) {
        m->type = CARC_MOVE_DISCARD;
        m->segment = CARC_NO_SPOT;
        return 1;
    }
    int slot = (int)(a % FIGURE_SLOTS);
    long rest = a / FIGURE_SLOTS;
    m->type = CARC_MOVE_PLACE;
    m->place.rot = (uint8_t)(rest % 4);
    rest /= 4;
    m->place.x = (int8_t)(w.ox + (int)(rest % w.side));
    m->place.y = (int8_t)(w.oy + (int)(rest / w.side));
    m->segment = (uint8_t)(slot == 0 ? CARC_NO_SPOT : (slot - 1) / CARC_FIGURES);
    m->figure = (uint8_t)(slot == 0 ? 0 : (slot - 1) % CARC_FIGURES);
    return 1;
}

/* Fills the actions of the cached legal moves (the cache filled). */
static int game_code(GameObject *self)
{
    if (self->coded)
        return 0;
    long *codes =
        realloc(self->codes, sizeof *codes * (size_t)(self->nmoves > 0 ? self->nmoves : 1));
    if (!codes) {
        PyErr_NoMemory();
        return -1;
    }
    window w = game_window(self);
    for (int i = 0; i < self->nmoves; i++)
        codes[i] = encode(w, self->g, self->moves[i]);
    self->codes = codes;
    self->coded = 1;
    return 0;
}

static int compare_longs(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* With explicit chance nodes and a hand, the library has drawn every
 * hand already; the chance nodes name those draws in turn
 * (carc_game_draw), so the draws not yet named are not made yet: adds
 * their kinds to `by_player[p]` (may be NULL) per player and to `all` (may
 * be NULL); returns their number. 0 in any other game. */
static int unnamed_draws_of(const carc_game *g, int explicit_chance,
                            int (*by_player)[CARC_MAX_KINDS], int all[CARC_MAX_KINDS])
{
    if (!explicit_chance || !carc_game_rules(g).hand)
        return 0;
    int due = carc_game_draw_due(g, NULL), count = carc_game_draw_count(g);
    for (int i = count - due; i < count; i++) {
        int player, kind;
        if (carc_game_draw_at(g, i, &player, &kind, NULL) != CARC_OK || kind < 0)
            continue;
        if (by_player)
            by_player[player][kind]++;
        if (all)
            all[kind]++;
    }
    return due;
}

static int unnamed_draws(const GameObject *self, int (*by_player)[CARC_MAX_KINDS],
                         int all[CARC_MAX_KINDS])
{
    return unnamed_draws_of(self->g, self->explicit_chance, by_player, all);
}

/* Tile kinds the chance node may give and their counts; returns the total.
 * With a hand: the pile and the draws not yet named, each kind that the
 * library accepts for the next draw (carc_game_draw on a copy). */
static int chance_counts(const GameObject *self, int counts[CARC_MAX_KINDS])
{
    if (!carc_game_rules(self->g).hand)
        return carc_game_draw_pool(self->g, counts);
    memset(counts, 0, sizeof(int) * CARC_MAX_KINDS);
    carc_game_tiles_left(self->g, counts);
    unnamed_draws(self, NULL, counts);
    int player = -1, total = 0;
    carc_game_draw_due(self->g, &player);
    carc_game *trial = carc_game_clone(self->g);
    for (int k = 0; k < carc_tile_kinds(); k++) {
        if (counts[k] <= 0)
            continue;
        if (!trial || carc_game_copy(trial, self->g) != CARC_OK ||
            carc_game_draw(trial, player, k) != CARC_OK)
            counts[k] = 0;
        total += counts[k];
    }
    carc_game_free(trial);
    return total;
}

/* Makes the chance node's draw `kind`. Returns 0, or -1 with the library's
 * message. */
static int chance_draw(GameObject *self, int kind)
{
    carc_status st;
    if (carc_game_rules(self->g).hand) {
        int player = -1;
        carc_game_draw_due(self->g, &player);
        st = carc_game_draw(self->g, player, kind);
    } else {
        st = carc_game_choose_tile(self->g, kind);
    }
    if (st != CARC_OK)
        return -1;
    self->chance_pending = carc_game_rules(self->g).hand && !carc_game_over(self->g) &&
                           carc_game_draw_due(self->g, NULL) > 0;
    return 0;
}

static PyObject *game_legal_actions(GameObject *self, PyObject *unused)
{
    (void)unused;
    if (need_game(self) < 0)
        return NULL;
    PyObject *list = PyList_New(0);
    if (!list)
        return NULL;
    if (self->chance_pending) {
        int counts[CARC_MAX_KINDS];
        chance_counts(self, counts);
        for (int k = 0; k < carc_tile_kinds(); k++) {
            if (counts[k] <= 0)
                continue;
            PyObject *v = PyLong_FromLong(k);
            if (!v || PyList_Append(list, v) < 0) {
                Py_XDECREF(v);
                Py_DECREF(list);
                return NULL;
            }
            Py_DECREF(v);
        }
        return list;
    }
    Py_DECREF(list);
    if (game_cache(self) < 0 || game_code(self) < 0)
        return NULL;
    if (!self->actions) {
        /* The actions in the window, ascending (the moves' order is by
         * placement, not by square). */
        static long sorted[CARC_MAX_MOVES];
        int n = 0;
        for (int i = 0; i < self->nmoves; i++)
            if (self->codes[i] >= 0)
                sorted[n++] = self->codes[i];
        qsort(sorted, (size_t)n, sizeof sorted[0], compare_longs);
        PyObject *actions = PyList_New(n);
        for (int i = 0; actions && i < n; i++) {
            PyObject *v = PyLong_FromLong(sorted[i]);
            if (!v) {
                Py_CLEAR(actions);
                break;
            }
            PyList_SET_ITEM(actions, i, v);
        }
        if (!actions)
            return NULL;
        self->actions = actions;
    }
    return PyList_GetSlice(self->actions, 0, PyList_GET_SIZE(self->actions));
}

/* Writes 1 at every legal action into the writable byte buffer `arg` of
 * num_actions bytes (zeroed by the caller). */
static PyObject *game_fill_mask(GameObject *self, PyObject *arg)
{
    if (need_game(self) < 0)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    window w = game_window(self);
    if (view.len != w.blocks * block_size(w.side)) {
        PyBuffer_Release(&view);
        return PyErr_Format(PyExc_ValueError, "the mask needs %ld bytes",
                            w.blocks * block_size(w.side));
    }
    unsigned char *mask = view.buf;
    int n = 0;
    if (!self->chance_pending && !carc_game_over(self->g)) {
        if (game_cache(self) < 0 || game_code(self) < 0) {
            PyBuffer_Release(&view);
            return NULL;
        }
        for (int i = 0; i < self->nmoves; i++) {
            if (self->codes[i] >= 0) {
                mask[self->codes[i]] = 1;
                n++;
            }
        }
    }
    PyBuffer_Release(&view);
    return PyLong_FromLong(n);
}

/* The index in the cache of the legal move of action `a`, or -1: an
 * action of legal_actions(), or another rotation of a symmetric tile's. */
static int find_action(GameObject *self, long a)
{
    if (game_code(self) < 0) {
        PyErr_Clear();
        return -1;
    }
    for (int i = 0; i < self->nmoves; i++)
        if (self->codes[i] == a)
            return i;
    carc_move m;
    if (!decode(game_window(self), a, &m) || m.type != CARC_MOVE_PLACE)
        return -1;
    m = carc_move_canonical(self->g, m);
    for (int i = 0; i < self->nmoves; i++)
        if (carc_move_equal(self->moves[i], m))
            return i;
    return -1;
}

/* The action `arg` of the game (need_game() checked): an integer (numpy's
 * too, not a bool: TypeError) within the action space, or at a chance node
 * a tile kind; anything outside raises ValueError with its value, so that
 * no value is taken for another. 0 with the action in `*a`, or -1. */
static int action_arg(GameObject *self, PyObject *arg, long *a)
{
    PyObject *v = integer_arg(arg, "an action");
    if (!v)
        return -1;
    long limit =
        self->chance_pending ? carc_tile_kinds() : hand_blocks(self->g) * block_size(self->board);
    int overflow = 0;
    *a = PyLong_AsLongAndOverflow(v, &overflow);
    if (*a == -1 && PyErr_Occurred()) {
        Py_DECREF(v);
        return -1;
    }
    if (overflow || *a < 0 || *a >= limit) {
        if (self->chance_pending)
            PyErr_Format(PyExc_ValueError,
                         "%R is out of range: a chance outcome is a tile kind, 0 .. %ld", v,
                         limit - 1);
        else
            PyErr_Format(PyExc_ValueError,
                         "action %R is out of range: this game's actions are 0 .. %ld", v,
                         limit - 1);
        Py_DECREF(v);
        return -1;
    }
    Py_DECREF(v);
    return 0;
}

static PyObject *game_apply_action(GameObject *self, PyObject *arg)
{
    long a;
    if (need_game(self) < 0 || action_arg(self, arg, &a) < 0)
        return NULL;
    if (self->chance_pending) {
        int counts[CARC_MAX_KINDS];
        chance_counts(self, counts);
        if (a < 0 || a >= carc_tile_kinds() || counts[a] <= 0)
            return PyErr_Format(PyExc_ValueError, "%ld is no outcome of this chance node", a);
        if (chance_draw(self, (int)a) < 0)
            return PyErr_Format(PyExc_ValueError, "%s", carc_game_error(self->g));
        game_forget(self);
        Py_RETURN_NONE;
    }
    if (game_open(self) < 0 || game_cache(self) < 0)
        return NULL;
    int i = find_action(self, a);
    if (i < 0)
        return PyErr_Format(PyExc_ValueError, "action %ld is not legal here", a);
    if (game_apply(self, self->moves[i]) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *game_action_to_string(GameObject *self, PyObject *arg)
{
    long a;
    if (need_game(self) < 0 || action_arg(self, arg, &a) < 0)
        return NULL;
    if (self->chance_pending) {
        if (a < 0 || a >= carc_tile_kinds())
            return PyErr_Format(PyExc_ValueError, "%ld is no tile kind", a);
        return PyUnicode_FromFormat("draw %s", carc_tile_id((int)a));
    }
    if (game_open(self) < 0)
        return NULL;
    carc_move m;
    if (!decode(game_window(self), a, &m))
        return PyErr_Format(PyExc_ValueError, "action %ld is out of range", a);
    char buf[64];
    size_t n = carc_move_write(self->g, m, buf, sizeof buf);
    if (n == 0)
        return PyErr_Format(PyExc_ValueError, "action %ld is no move of the %s", a,
                            carc_game_rules(self->g).hand ? "hand's tiles" : "drawn tile");
    return PyUnicode_DecodeASCII(buf, (Py_ssize_t)n, NULL);
}

static PyObject *game_string_to_action(GameObject *self, PyObject *arg)
{
    if (!PyUnicode_Check(arg))
        return PyErr_Format(PyExc_TypeError, "a move string, not %.80s", Py_TYPE(arg)->tp_name);
    if (game_open(self) < 0)
        return NULL;
    const char *text = PyUnicode_AsUTF8(arg);
    if (!text)
        return NULL;
    carc_move m;
    char err[256];
    if (carc_move_parse_message(self->g, text, &m, err, sizeof err) != CARC_OK)
        return PyErr_Format(PyExc_ValueError, "not a legal move: %.200s: %s", text, err);
    long a = encode(game_window(self), self->g, carc_move_canonical(self->g, m));
    if (a < 0)
        return PyErr_Format(PyExc_ValueError, "%.200s is outside the action window", text);
    return PyLong_FromLong(a);
}

/* draw(tile): the draw is `tile` (an id), as a record or a table decides. */
static PyObject *game_draw(GameObject *self, PyObject *arg)
{
    if (!PyUnicode_Check(arg))
        return PyErr_Format(PyExc_TypeError, "draw() takes a tile id, not %.80s",
                            Py_TYPE(arg)->tp_name);
    if (need_game(self) < 0)
        return NULL;
    if (carc_game_over(self->g))
        return PyErr_Format(PyExc_ValueError, "the game is finished");
    const char *id = PyUnicode_AsUTF8(arg);
    if (!id)
        return NULL;
    int kind = carc_tile_parse(id);
    if (kind < 0)
        return PyErr_Format(PyExc_ValueError, "no tile %.20R", arg);
    if (carc_game_rules(self->g).hand) {
        /* A hand game names its draws at the chance nodes. */
        if (!self->chance_pending)
            return PyErr_Format(
                PyExc_ValueError,
                "a hand game draws at its chance nodes only (explicit_chance=True)");
        if (chance_draw(self, kind) < 0)
            return PyErr_Format(PyExc_ValueError, "cannot draw %s: %s", id,
                                carc_game_error(self->g));
        game_forget(self);
        Py_RETURN_NONE;
    }
    if (carc_game_choose_tile(self->g, kind) != CARC_OK)
        return PyErr_Format(PyExc_ValueError, "cannot draw %s: %s", id, carc_game_error(self->g));
    self->chance_pending = 0;
    game_forget(self);
    Py_RETURN_NONE;
}

static PyObject *game_is_chance_node(GameObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(self->chance_pending);
}

static PyObject *game_chance_outcomes(GameObject *self, PyObject *unused)
{
    (void)unused;
    if (need_game(self) < 0)
        return NULL;
    PyObject *list = PyList_New(0);
    if (!list || !self->chance_pending)
        return list;
    int counts[CARC_MAX_KINDS];
    int total = chance_counts(self, counts);
    for (int k = 0; k < carc_tile_kinds() && total > 0; k++) {
        if (counts[k] <= 0)
            continue;
        PyObject *t = Py_BuildValue("(id)", k, (double)counts[k] / total);
        if (!t || PyList_Append(list, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(t);
    }
    return list;
}

static PyObject *game_window_overflow(GameObject *self, PyObject *unused)
{
    (void)unused;
    if (need_game(self) < 0)
        return NULL;
    if (self->chance_pending || carc_game_over(self->g))
        Py_RETURN_FALSE;
    if (game_cache(self) < 0)
        return NULL;
    window w = game_window(self);
    for (int i = 0; i < self->nmoves; i++)
        if (encode(w, self->g, self->moves[i]) < 0)
            Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

/* --- Observation ---------------------------------------------------------------- */

static const int edge_middle[4] = {CARC_N, CARC_E, CARC_S, CARC_W};

static void observe_tile(float *board, int cell, int area, const carc_tile_on_board *t, int seat,
                         int players)
{
    const carc_tile_def *def = carc_tile(t->kind);
    board[PLANE_TILE * area + cell] = 1;
    for (int e = 0; e < 4; e++) {
        int kind = carc_tile_edge(t->kind, t->rot, e);
        int off = kind == CARC_CITY ? 0 : kind == CARC_ROAD ? 1 : kind == CARC_RIVER ? 2 : -1;
        if (off >= 0)
            board[(PLANE_EDGES + 3 * e + off) * area + cell] = 1;
    }
    for (int s = 0; s < def->nsegments; s++) {
        const carc_segment_def *seg = &def->segments[s];
        if (seg->kind == CARC_CLOISTER)
            board[PLANE_CLOISTER * area + cell] = 1;
        if (seg->pennant)
            board[PLANE_PENNANT * area + cell] = 1;
        if (seg->marks & CARC_MARK_INN)
            board[PLANE_INN * area + cell] = 1;
        if (seg->marks & CARC_MARK_CATHEDRAL)
            board[PLANE_CATHEDRAL * area + cell] = 1;
        if (seg->marks & (CARC_MARK_WINE | CARC_MARK_GRAIN | CARC_MARK_CLOTH))
            board[PLANE_GOODS * area + cell] = 1;
    }
    int pair = 0;
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++, pair++) {
            int sa = carc_tile_segment_at(t->kind, t->rot, edge_middle[a]);
            if (sa >= 0 && sa == carc_tile_segment_at(t->kind, t->rot, edge_middle[b]))
                board[(PLANE_JOINED + pair) * area + cell] = 1;
        }
    if (t->follower_segment == CARC_NO_SPOT || t->follower_segment >= def->nsegments)
        return;
    int rel = (t->follower_owner - seat + players) % players;
    int kind = def->segments[t->follower_segment].kind;
    int role = kind == CARC_ROAD ? 0 : kind == CARC_CITY ? 1 : kind == CARC_FIELD ? 2 : 3;
    float value = 1;
    if (t->follower_figure == CARC_FIGURE_LARGE)
        value = 2;
    else if (t->follower_figure != CARC_FIGURE_FOLLOWER)
        role = 4;
    board[(PLANE_FIGURES + 5 * rel + role) * area + cell] = value;
}

/* Whether the hands are hidden (hand=N without open-hands). */
static int hands_hidden(const carc_game *g)
{
    carc_rules r = carc_game_rules(g);
    return r.hand && !(r.flags & CARC_RULE_OPEN_HANDS);
}

/* Whether `seat` may see the drawn tile: everyone sees the tile drawn,
 * as at the table, but not before the draw (a chance node); with hidden
 * hands the tile the mover holds only the mover. */
static int sees_drawn_of(const carc_game *g, int chance_pending, int seat)
{
    return !chance_pending && !carc_game_over(g) &&
           (!hands_hidden(g) || carc_game_current_player(g) == seat);
}

static int sees_drawn(const GameObject *self, int seat)
{
    return sees_drawn_of(self->g, self->chance_pending, seat);
}

/* The tiles `seat` has not seen, per kind: the pile, with hidden hands
 * the other seats' hands, and at chance nodes the draws not yet made
 * (`unnamed`, per player); returns their number. */
static int unseen_counts(const carc_game *g, int seat, int (*unnamed)[CARC_MAX_KINDS],
                         int counts[CARC_MAX_KINDS])
{
    int left = carc_game_tiles_left(g, counts);
    for (int p = 0; carc_game_rules(g).hand && p < carc_game_players(g); p++) {
        int kinds[CARC_MAX_HAND], n = carc_game_hand(g, p, kinds, CARC_MAX_HAND);
        int whole = hands_hidden(g) && p != seat;
        for (int k = 0; !whole && k < CARC_MAX_KINDS; k++) {
            counts[k] += unnamed[p][k];
            left += unnamed[p][k];
        }
        for (int i = 0; whole && i < n && i < CARC_MAX_HAND; i++) {
            counts[kinds[i]]++;
            left++;
        }
    }
    return left;
}

/* The tiles of `seat`'s hand that have been drawn (at a chance node the
 * draws not yet made are left out: the latest of each kind), in hand
 * order, into `out`; returns how many. */
static int drawn_hand(const carc_game *g, int seat, int (*unnamed)[CARC_MAX_KINDS],
                      int out[CARC_MAX_HAND])
{
    int kinds[CARC_MAX_HAND], n = carc_game_hand(g, seat, kinds, CARC_MAX_HAND);
    int skip[CARC_MAX_KINDS], keep[CARC_MAX_HAND] = {0}, m = 0;
    memcpy(skip, unnamed[seat], sizeof skip);
    n = n < CARC_MAX_HAND ? n : CARC_MAX_HAND;
    for (int i = n - 1; i >= 0; i--)
        keep[i] = skip[kinds[i]] > 0 ? (skip[kinds[i]]--, 0) : 1;
    for (int i = 0; i < n; i++)
        if (keep[i])
            out[m++] = kinds[i];
    return m;
}

/* Marks in the fit planes of hand tile `h` where the drawn tile of `g`
 * fits, at which rotations. */
static void observe_fits(float *board, const carc_game *g, window w, int h)
{
    int side = w.side, area = side * side;
    int n = carc_legal_placements(g, scratch_places, CARC_MAX_PLACEMENTS);
    for (int i = 0; i < n && i < CARC_MAX_PLACEMENTS; i++) {
        int col = scratch_places[i].x - w.ox, row = scratch_places[i].y - w.oy;
        if (col >= 0 && row >= 0 && col < side && row < side)
            board[(PLANE_FITS + 4 * h + scratch_places[i].rot) * area + row * side + col] = 1;
    }
}

/* The fit planes: the drawn tile's (block 0) for a seat that sees it;
 * in a hand game, each tile of the viewer's hand on the viewer's turn
 * (another seat's turn: none). Returns -1 when out of memory. */
static int observe_all_fits(float *board, const GameObject *self, window w, int seat)
{
    if (!carc_game_rules(self->g).hand) {
        if (sees_drawn(self, seat))
            observe_fits(board, self->g, w, 0);
        return 0;
    }
    if (self->chance_pending || carc_game_over(self->g) ||
        carc_game_current_player(self->g) != seat)
        return 0;
    carc_game *one = carc_game_clone(self->g);
    if (!one)
        return -1;
    for (int h = 0; h < w.nhand; h++)
        if (carc_game_hold_tile(one, w.hand[h]) == CARC_OK)
            observe_fits(board, one, w, h);
    carc_game_free(one);
    return 0;
}

/* The globals of `seat`'s view of `g` into `out` (GLOBALS floats, zeroed):
 * a Game's (its chance flags) or a VectorGame's (no chance nodes). */
static void observe_globals_of(const carc_game *g, int explicit_chance, int chance_pending,
                               int seat, float *out)
{
    int players = carc_game_players(g);
    int unnamed[CARC_MAX_PLAYERS][CARC_MAX_KINDS];
    memset(unnamed, 0, sizeof unnamed);
    unnamed_draws_of(g, explicit_chance, unnamed, NULL);
    for (int rel = 0; rel < players; rel++) {
        int p = (seat + rel) % players;
        float *f = out + (ptrdiff_t)rel * SEAT_FEATURES;
        f[0] = 1;
        f[1] = (float)carc_game_score(g, p) / 100.0f;
        f[2] = (float)carc_game_supply(g, p) / CARC_FOLLOWERS;
        for (int fig = CARC_FIGURE_LARGE; fig < CARC_FIGURES; fig++)
            f[2 + fig] = (float)carc_game_figures(g, p, fig);
        for (int t = 0; t < CARC_GOODS_TYPES; t++)
            f[6 + t] = (float)carc_game_goods(g, p, t) / 10.0f;
        int hand = carc_game_rules(g).hand, kinds[CARC_MAX_HAND];
        if (hand)
            f[9] = (float)drawn_hand(g, p, unnamed, kinds) / (float)hand;
    }
    int drawn = carc_game_drawn_tile(g);
    if (sees_drawn_of(g, chance_pending, seat) && drawn >= 0 && drawn < CARC_MAX_KINDS)
        out[GLOBAL_DRAWN + drawn] = 1;
    int own[CARC_MAX_HAND], nown = drawn_hand(g, seat, unnamed, own);
    for (int h = 0; h < nown; h++)
        out[GLOBAL_HAND + h * CARC_MAX_KINDS + own[h]] = 1;
    int counts[CARC_MAX_KINDS] = {0};
    int left = unseen_counts(g, seat, unnamed, counts);
    if (chance_pending && drawn >= 0 && !carc_game_rules(g).hand) {
        counts[drawn]++;
        left++;
    }
    for (int k = 0; k < carc_tile_kinds() && k < CARC_MAX_KINDS; k++) {
        int total = carc_game_kind_total(g, k);
        if (total > 0)
            out[GLOBAL_LEFT + k] = (float)counts[k] / (float)total;
    }
    out[GLOBAL_TAIL] = (float)left / (float)carc_game_tile_total(g);
    out[GLOBAL_TAIL + 1] =
        (float)(!chance_pending && !carc_game_over(g) && carc_game_current_player(g) == seat);
    out[GLOBAL_TAIL + 2] = (float)carc_game_second_part(g);
    out[GLOBAL_TAIL + 3] = (float)carc_game_river_phase(g);
}

static void observe_globals(const GameObject *self, int seat, float *out)
{
    observe_globals_of(self->g, self->explicit_chance, self->chance_pending, seat, out);
}

/* observe(seat, board, globals): fills the zeroed float32 buffers of
 * PLANES * board_size^2 and GLOBALS floats with the view of `seat`. */
static PyObject *game_observe(GameObject *self, PyObject *args)
{
    int seat;
    Py_buffer bview, gview;
    if (need_game(self) < 0 || !PyArg_ParseTuple(args, "iw*w*", &seat, &bview, &gview))
        return NULL;
    int side = self->board, area = side * side;
    PyObject *result = NULL;
    if (seat < 0 || seat >= carc_game_players(self->g)) {
        PyErr_Format(PyExc_ValueError, "seat must be 0..%d", carc_game_players(self->g) - 1);
        goto done;
    }
    if (bview.len != (Py_ssize_t)(sizeof(float) * PLANES * (size_t)area) ||
        gview.len != (Py_ssize_t)(sizeof(float) * GLOBALS)) {
        PyErr_SetString(PyExc_ValueError, "observation buffers of the wrong size");
        goto done;
    }
    float *board = bview.buf;
    window w = game_window(self);
    int players = carc_game_players(self->g), ntiles = carc_game_tile_count(self->g);
    for (int i = 0; i < ntiles; i++) {
        carc_tile_on_board t;
        carc_game_tile_info(self->g, i, &t);
        int col = t.x - w.ox, row = t.y - w.oy;
        if (col < 0 || row < 0 || col >= side || row >= side)
            continue;
        observe_tile(board, row * side + col, area, &t, seat, players);
        if (i == ntiles - 1 && i > 0)
            board[PLANE_LAST * area + row * side + col] = 1;
    }
    if (observe_all_fits(board, self, w, seat) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    observe_globals(self, seat, gview.buf);
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&bview);
    PyBuffer_Release(&gview);
    return result;
}

/* hand(seat): the tile ids of `seat`'s hand (hand=N; [] without a hand). */
static PyObject *game_hand(GameObject *self, PyObject *arg)
{
    if (need_game(self) < 0)
        return NULL;
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred())
        return NULL;
    if (seat < 0 || seat >= carc_game_players(self->g))
        return PyErr_Format(PyExc_ValueError, "seat must be 0..%d", carc_game_players(self->g) - 1);
    int kinds[CARC_MAX_HAND], n = carc_game_hand(self->g, (int)seat, kinds, CARC_MAX_HAND);
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < n && i < CARC_MAX_HAND; i++) {
        PyObject *id = PyUnicode_FromString(carc_tile_id(kinds[i]));
        if (!id || PyList_Append(list, id) < 0)
            Py_CLEAR(list);
        Py_XDECREF(id);
    }
    return list;
}

/* _resample(seat, seed): a copy in which what `seat` (-1: a spectator)
 * cannot see is dealt again from `seed` (carc_game_seat_view): the other
 * hands and the pile's order. */
static PyObject *game_resample(GameObject *self, PyObject *args)
{
    int seat;
    uint64_t seed;
    if (!PyArg_ParseTuple(args, "iO&", &seat, seed_converter, &seed))
        return NULL;
    GameObject *copy = (GameObject *)game_clone(self, NULL);
    if (!copy)
        return NULL;
    carc_game_seat_view(copy->g, self->g, seat, seed);
    game_forget(copy);
    return (PyObject *)copy;
}

/* _deal(): what pickling saves beside the record: (the drawn tile's
 * kind, -1 when none; the pile's kinds, the next draw first; the
 * generator's state; the draws not yet named at a chance node). */
static PyObject *game_deal(GameObject *self, PyObject *unused)
{
    (void)unused;
    if (need_game(self) < 0)
        return NULL;
    int kinds[CARC_MAX_TILES];
    uint64_t generator;
    int n = carc_game_deal(self->g, kinds, CARC_MAX_TILES, &generator);
    PyObject *pile = PyList_New(n);
    for (int i = 0; pile && i < n; i++) {
        PyObject *k = PyLong_FromLong(kinds[i]);
        if (!k) {
            Py_CLEAR(pile);
            break;
        }
        PyList_SET_ITEM(pile, i, k);
    }
    if (!pile)
        return NULL;
    int due = self->explicit_chance ? unnamed_draws(self, NULL, NULL) : 0;
    return Py_BuildValue("(iNKi)", carc_game_drawn_tile(self->g), pile,
                         (unsigned long long)generator, due);
}

/* _set_deal(seed, tile, pile, generator, explicit_chance, chance_pending):
 * restores what _deal() saved on a game read from the record (pickle);
 * pile None keeps the pile (a chance node's draws not yet named: the
 * record read guessed them). ValueError when it does not fit the game. */
static PyObject *game_set_deal(GameObject *self, PyObject *args)
{
    uint64_t seed;
    int tile, explicit_chance, pending;
    PyObject *pile;
    unsigned long long generator;
    if (!PyArg_ParseTuple(args, "O&iOKpp", seed_converter, &seed, &tile, &pile, &generator,
                          &explicit_chance, &pending) ||
        need_game(self) < 0)
        return NULL;
    carc_game *g = self->g;
    carc_status st = CARC_OK;
    if (tile >= 0 && !carc_game_over(g) && tile != carc_game_drawn_tile(g))
        st =
            carc_game_rules(g).hand ? carc_game_hold_tile(g, tile) : carc_game_choose_tile(g, tile);
    if (st == CARC_OK && pile != Py_None) {
        int kinds[CARC_MAX_TILES];
        Py_ssize_t n = PySequence_Check(pile) ? PySequence_Size(pile) : -1;
        if (n < 0 || n > CARC_MAX_TILES)
            return PyErr_Format(PyExc_ValueError, "the saved pile is no list of tile kinds");
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PySequence_GetItem(pile, i);
            kinds[i] = item ? (int)PyLong_AsLong(item) : -1;
            Py_XDECREF(item);
            if (PyErr_Occurred())
                return NULL;
        }
        st = carc_game_set_deal(g, kinds, (int)n, (uint64_t)generator);
    }
    if (st != CARC_OK)
        return PyErr_Format(PyExc_ValueError, "the saved deal does not fit the record: %s",
                            carc_game_error(g));
    self->seed = seed;
    self->explicit_chance = explicit_chance;
    self->chance_pending = pending;
    game_forget(self);
    Py_RETURN_NONE;
}

static int legal_in_window(const carc_game *g, window w, carc_move *moves, int64_t *actions);

/* _net_inputs(): the learned network's inputs (carc_net_inputs) of the
 * mover's position and of its legal moves in the window, and those moves'
 * actions: (position float32 bytes, moves float32 bytes, actions int64
 * bytes), the moves in the library's order. */
static PyObject *game_net_inputs(GameObject *self, PyObject *unused)
{
    (void)unused;
    if (need_game(self) < 0)
        return NULL;
    if (self->chance_pending || carc_game_over(self->g)) {
        PyErr_SetString(PyExc_ValueError, "no move to make: the game is over or at a chance node");
        return NULL;
    }
    carc_move *moves = malloc(sizeof *moves * CARC_MAX_MOVES);
    int64_t *actions = malloc(sizeof *actions * CARC_MAX_MOVES);
    float *inputs = NULL, position[CARC_NET_POSITION_INPUTS];
    PyObject *result = NULL;
    int n = 0;
    if (moves && actions) {
        n = legal_in_window(self->g, game_window(self), moves, actions);
        inputs = malloc(sizeof *inputs * CARC_NET_MOVE_INPUTS * (size_t)(n ? n : 1));
    }
    if (!inputs) {
        PyErr_NoMemory();
    } else if (carc_net_inputs(self->g, position, moves, n, inputs) != CARC_OK) {
        PyErr_SetString(PyExc_RuntimeError, "carc_net_inputs failed");
    } else {
        result = Py_BuildValue("(y#y#y#)", (const char *)position, (Py_ssize_t)sizeof position,
                               (const char *)inputs,
                               (Py_ssize_t)(sizeof *inputs * CARC_NET_MOVE_INPUTS * (size_t)n),
                               (const char *)actions, (Py_ssize_t)(sizeof *actions * (size_t)n));
    }
    free(moves);
    free(actions);
    free(inputs);
    return result;
}

static PyMethodDef game_methods[] = {
    {"_deal", (PyCFunction)game_deal, METH_NOARGS, NULL},
    {"_resample", (PyCFunction)game_resample, METH_VARARGS, NULL},
    {"_set_deal", (PyCFunction)game_set_deal, METH_VARARGS, NULL},
    {"hand", (PyCFunction)game_hand, METH_O,
     "hand(seat): the tile ids of the seat's hand, in hand order (the game's truth: an agent "
     "of another seat must not look; [] without a hand)."},
    {"legal_moves", (PyCFunction)game_legal_moves, METH_NOARGS,
     "The legal moves as record strings (empty at a chance node or when finished)."},
    {"play", (PyCFunction)game_play, METH_O, "Plays a move string of legal_moves()."},
    {"record", (PyCFunction)(void (*)(void))game_record, METH_VARARGS | METH_KEYWORDS,
     "record(seed=True): the game's record (docs/record.md), with the `seed` header when the "
     "seed dealt the game (seed=False: never)."},
    {"from_record", (PyCFunction)(void (*)(void))game_from_record,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS, "Replays a record; ValueError('line N: ...')."},
    {"clone", (PyCFunction)game_clone, METH_NOARGS, "An independent copy."},
    {"tiles_left", (PyCFunction)game_tiles_left, METH_NOARGS,
     "Tiles still to draw, the drawn tile not included."},
    {"legal_actions", (PyCFunction)game_legal_actions, METH_NOARGS,
     "The legal actions, ascending (tile kinds at a chance node)."},
    {"_fill_mask", (PyCFunction)game_fill_mask, METH_O, NULL},
    {"apply_action", (PyCFunction)game_apply_action, METH_O, "Plays an action."},
    {"action_to_string", (PyCFunction)game_action_to_string, METH_O,
     "The record string of an action."},
    {"string_to_action", (PyCFunction)game_string_to_action, METH_O,
     "The action of a legal move string."},
    {"draw", (PyCFunction)game_draw, METH_O,
     "Makes the drawn tile this one (an id): a record or a table decides the draw."},
    {"is_chance_node", (PyCFunction)game_is_chance_node, METH_NOARGS,
     "Whether the next step is the draw."},
    {"chance_outcomes", (PyCFunction)game_chance_outcomes, METH_NOARGS,
     "[(tile kind, probability)] at a chance node, else []."},
    {"window_overflow", (PyCFunction)game_window_overflow, METH_NOARGS,
     "Whether a legal move lies outside the action window."},
    {"_observe", (PyCFunction)game_observe, METH_VARARGS, NULL},
    {"_net_inputs", (PyCFunction)game_net_inputs, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef game_getset[] = {
    {"finished", (getter)game_get_finished, NULL, "Whether the game is over.", NULL},
    {"scores", (getter)game_get_scores, NULL, "Each player's score.", NULL},
    {"tile", (getter)game_get_tile, NULL, "The drawn tile's id, or None.", NULL},
    {"current_player", (getter)game_get_current_player, NULL, "The seat to move (0-based).", NULL},
    {"players", (getter)game_get_players, NULL, "The number of players.", NULL},
    {"board_size", (getter)game_get_board_size, NULL, "The action window's side.", NULL},
    {"num_actions", (getter)game_get_num_actions, NULL, "The size of the action space.", NULL},
    {"rules", (getter)game_get_rules, NULL, "The rule variants, comma-separated.", NULL},
    {"expansions", (getter)game_get_expansions, NULL, "The expansions, comma-separated.", NULL},
    {"events", (getter)game_get_events, NULL, "The score events of the last move.", NULL},
    {"seed", (getter)game_get_seed, NULL,
     "The seed the game was dealt from (from_record: the record's seed header when it dealt "
     "the record, else the seed given).",
     NULL},
    {"explicit_chance", (getter)game_get_explicit_chance, NULL,
     "Whether each draw is a chance node.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "carcassonne._core.Game",
    .tp_basicsize = sizeof(GameObject),
    .tp_dealloc = (destructor)game_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A game of Carcassonne.",
    .tp_methods = game_methods,
    .tp_getset = game_getset,
    .tp_init = (initproc)game_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------------------
 * Computer players
 * ------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD carc_player *p;
    int busy; /* a choose() is running (one at a time per player) */
} PlayerObject;

static void player_dealloc(PlayerObject *self)
{
    if (self->p)
        carc_player_free(self->p);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int player_init(PlayerObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"spec", "seed", NULL};
    const char *spec = "mcts";
    uint64_t seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|sO&", kwlist, &spec, seed_converter, &seed))
        return -1;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the player is choosing a move");
        return -1;
    }
    char err[256] = "";
    carc_player *p = carc_player_new(spec, seed, err, sizeof err);
    if (!p) {
        PyErr_Format(PyExc_ValueError, "player %.100s: %s", spec, err);
        return -1;
    }
    if (self->p)
        carc_player_free(self->p);
    self->p = p;
    return 0;
}

/* The game `arg` that `what` (choose, rank) of player `self` searches,
 * or NULL with the exception: the player made, a Game that is not over
 * nor at a chance node, no other search of this player running. */
static GameObject *player_game(PlayerObject *self, PyObject *arg, const char *what)
{
    if (!self->p) {
        PyErr_SetString(PyExc_RuntimeError, "the player was not initialised");
        return NULL;
    }
    if (!PyObject_TypeCheck(arg, &GameType)) {
        PyErr_Format(PyExc_TypeError, "%s() takes a Game, not %.80s", what, Py_TYPE(arg)->tp_name);
        return NULL;
    }
    GameObject *game = (GameObject *)arg;
    if (game_open(game) < 0)
        return NULL;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the player is already choosing a move");
        return NULL;
    }
    return game;
}

static PyObject *player_choose(PlayerObject *self, PyObject *arg)
{
    GameObject *game = player_game(self, arg, "choose");
    if (!game)
        return NULL;
    /* The search runs without the GIL on a copy: the game may change meanwhile. */
    carc_game *copy = carc_game_clone(game->g);
    if (!copy)
        return PyErr_NoMemory();
    carc_move m;
    carc_status st;
    self->busy = 1;
    PyThreadState *ts = PyEval_SaveThread();
    st = carc_player_choose(self->p, copy, &m, NULL);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    PyObject *s = NULL;
    if (st != CARC_OK)
        PyErr_SetString(PyExc_RuntimeError, "the player found no move");
    else
        s = move_string(copy, carc_move_canonical(copy, m));
    carc_game_free(copy);
    return s;
}

/* A ranking's scratch: a copy of `g` to search without the GIL (the game
 * may change meanwhile) and room for every move's estimate. Returns 0, or
 * -1 with MemoryError set and nothing held. */
static int ranking_scratch(const carc_game *g, carc_game **copy, carc_move_eval **evals)
{
    *copy = carc_game_clone(g);
    *evals = PyMem_Malloc(sizeof **evals * CARC_MAX_MOVES);
    if (*copy && *evals)
        return 0;
    carc_game_free(*copy);
    PyMem_Free(*evals);
    PyErr_NoMemory();
    return -1;
}

/* The ranked moves `e[0 .. n)` of `g` as a list of dicts, best first:
 * each move's record string (as legal_moves() writes it), its action in
 * window `w` (None outside it), its margin and `visits`; with `win`, the
 * chance to win too. */
static PyObject *ranked_list(const carc_game *g, window w, const carc_move_eval *e, int n, int win)
{
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int i = 0; i < n; i++) {
        long a = encode(w, g, carc_move_canonical(g, e[i].move));
        PyObject *action = a >= 0 ? PyLong_FromLong(a) : Py_NewRef(Py_None);
        PyObject *move = move_string(g, e[i].move);
        PyObject *d = NULL;
        if (action && move)
            d = win ? Py_BuildValue("{s:O,s:O,s:d,s:d,s:k}", "move", move, "action", action,
                                    "margin", e[i].margin, "win", e[i].win, "visits",
                                    (unsigned long)e[i].visits)
                    : Py_BuildValue("{s:O,s:O,s:d,s:k}", "move", move, "action", action, "margin",
                                    e[i].margin, "visits", (unsigned long)e[i].visits);
        Py_XDECREF(action);
        Py_XDECREF(move);
        if (!d) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, d);
    }
    return list;
}

static PyObject *player_rank(PlayerObject *self, PyObject *arg)
{
    GameObject *game = player_game(self, arg, "rank");
    if (!game)
        return NULL;
    /* As choose(): on a copy, without the GIL. */
    window w = game_window(game);
    carc_game *copy;
    carc_move_eval *evals;
    if (ranking_scratch(game->g, &copy, &evals) < 0)
        return NULL;
    self->busy = 1;
    PyThreadState *ts = PyEval_SaveThread();
    int n = carc_player_rank(self->p, copy, evals, CARC_MAX_MOVES, NULL);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    PyObject *list = ranked_list(copy, w, evals, n < CARC_MAX_MOVES ? n : CARC_MAX_MOVES, 1);
    PyMem_Free(evals);
    carc_game_free(copy);
    return list;
}

static PyObject *player_get_spec(PlayerObject *self, void *closure)
{
    (void)closure;
    if (!self->p)
        Py_RETURN_NONE;
    return PyUnicode_FromString(carc_player_spec(self->p));
}

static PyMethodDef player_methods[] = {
    {"choose", (PyCFunction)player_choose, METH_O, "The move (a record string) it chooses."},
    {"rank", (PyCFunction)player_rank, METH_O,
     "Every legal move with the player's estimates, best first (dicts)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef player_getset[] = {
    {"spec", (getter)player_get_spec, NULL, "The spec with every option spelled out.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject PlayerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "carcassonne._core.Player",
    .tp_basicsize = sizeof(PlayerObject),
    .tp_dealloc = (destructor)player_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A computer player made from a spec string (docs/players.md).",
    .tp_methods = player_methods,
    .tp_getset = player_getset,
    .tp_init = (initproc)player_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------------------
 * The compact observation (VectorGame, selfplay samples): OBS_PLANES uint8
 * planes over the action window, plus the Game's globals. Planes, from the
 * mover's view (docs/python.md):
 *   0 tile kind + 1 (0: no tile)   1 its rotation
 *   2 a figure's relative seat + 1 3 its feature: 1 road, 2 city, 3 farm, 4 cloister
 *   4 the figure + 1 (carc_figure) 5 + h: bit r: hand tile h (the drawn tile
 *                                    without a hand) fits here at rotation r
 *   8 the tile of the last move
 * ------------------------------------------------------------------------- */
enum {
    OBS_KIND = 0,
    OBS_ROTATION = 1,
    OBS_SEAT = 2,
    OBS_FEATURE = 3,
    OBS_FIGURE = 4,
    OBS_FITS = 5,
    OBS_LAST = OBS_FITS + CARC_MAX_HAND,
    OBS_PLANES = OBS_LAST + 1,
};

/* Writes the legal moves of `g` that lie in window `w` and their actions
 * into `moves` and `actions` (room for CARC_MAX_MOVES each), in the
 * library's order; returns how many. */
static int legal_in_window(const carc_game *g, window w, carc_move *moves, int64_t *actions)
{
    int n = carc_legal_moves(g, moves, CARC_MAX_MOVES), k = 0;
    for (int i = 0; i < n; i++) {
        long a = encode(w, g, moves[i]);
        if (a >= 0) {
            moves[k] = moves[i];
            actions[k++] = a;
        }
    }
    return k;
}

/* The lowest rotation of each kind that puts the same tile on the board as
 * each rotation (a symmetric tile's equivalent rotations show as one):
 * filled once by the module's init, read-only after. */
static uint8_t canonical_rotation[CARC_MAX_KINDS][4];

static int compare_codes(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* What tile `kind` at rotation `rot` puts on the board: its segments'
 * ports, kinds, pennants and marks, sorted. Returns the segment count. */
static int tile_signature(int kind, int rot, uint32_t codes[CARC_MAX_SEGMENTS_PER_TILE])
{
    const carc_tile_def *def = carc_tile(kind);
    for (int s = 0; s < def->nsegments; s++) {
        const carc_segment_def *seg = &def->segments[s];
        codes[s] = carc_tile_segment_ports(kind, rot, s) | (uint32_t)seg->kind << 12 |
                   (uint32_t)seg->pennant << 16 | (uint32_t)seg->marks << 17;
    }
    qsort(codes, def->nsegments, sizeof codes[0], compare_codes);
    return def->nsegments;
}

static void init_canonical_rotations(void)
{
    for (int k = 0; k < carc_tile_kinds() && k < CARC_MAX_KINDS; k++)
        for (int r = 0; r < 4; r++) {
            uint32_t mine[CARC_MAX_SEGMENTS_PER_TILE], other[CARC_MAX_SEGMENTS_PER_TILE];
            int n = tile_signature(k, r, mine), low = 0;
            while (low < r && (tile_signature(k, low, other) != n ||
                               memcmp(mine, other, sizeof mine[0] * (size_t)n) != 0))
                low++;
            canonical_rotation[k][r] = (uint8_t)low;
        }
}

static void observe_compact_tile(uint8_t *board, int cell, int area, const carc_tile_on_board *t,
                                 int seat, int players)
{
    board[OBS_KIND * area + cell] = (uint8_t)(t->kind + 1);
    board[OBS_ROTATION * area + cell] = canonical_rotation[t->kind][t->rot & 3];
    const carc_tile_def *def = carc_tile(t->kind);
    if (t->follower_segment == CARC_NO_SPOT || t->follower_segment >= def->nsegments)
        return;
    static const uint8_t feature_of[] = {
        [CARC_ROAD] = 1, [CARC_CITY] = 2, [CARC_FIELD] = 3, [CARC_CLOISTER] = 4, [CARC_RIVER] = 0};
    int kind = def->segments[t->follower_segment].kind;
    board[OBS_SEAT * area + cell] = (uint8_t)((t->follower_owner - seat + players) % players + 1);
    board[OBS_FEATURE * area + cell] = kind <= CARC_RIVER ? feature_of[kind] : 0;
    board[OBS_FIGURE * area + cell] = (uint8_t)(t->follower_figure + 1);
}

/* The compact observation of the mover of `g` (not over) into `board`
 * (OBS_PLANES * side^2 bytes) and `globals` (GLOBALS floats), both
 * overwritten; `moves` and `actions` are its `n` legal moves in window
 * `w` (legal_in_window()). */
static void observe_compact(const carc_game *g, window w, const carc_move *moves,
                            const int64_t *actions, int n, uint8_t *board, float *globals)
{
    int side = w.side, area = side * side;
    int seat = carc_game_current_player(g), players = carc_game_players(g);
    memset(board, 0, (size_t)OBS_PLANES * (size_t)area);
    int ntiles = carc_game_tile_count(g);
    for (int i = 0; i < ntiles; i++) {
        carc_tile_on_board t;
        carc_game_tile_info(g, i, &t);
        int col = t.x - w.ox, row = t.y - w.oy;
        if (col < 0 || row < 0 || col >= side || row >= side)
            continue;
        observe_compact_tile(board, row * side + col, area, &t, seat, players);
        if (i == ntiles - 1 && i > 0)
            board[OBS_LAST * area + row * side + col] = 1;
    }
    long block = block_size(side);
    for (int i = 0; i < n; i++) {
        if (moves[i].type != CARC_MOVE_PLACE || moves[i].segment != CARC_NO_SPOT)
            continue;
        int col = moves[i].place.x - w.ox, row = moves[i].place.y - w.oy;
        int h = (int)(actions[i] / block);
        board[(OBS_FITS + h) * area + row * side + col] |= (uint8_t)(1u << moves[i].place.rot);
    }
    /* Two hand tiles of one kind share the first one's actions; each shows
     * its fits, as the Game's observation does. */
    for (int h = 1; h < w.nhand; h++)
        for (int j = 0; j < h; j++)
            if (w.hand[j] == w.hand[h]) {
                memcpy(board + (size_t)(OBS_FITS + h) * (size_t)area,
                       board + (size_t)(OBS_FITS + j) * (size_t)area, (size_t)area);
                break;
            }
    memset(globals, 0, sizeof(float) * GLOBALS);
    observe_globals_of(g, 0, 0, seat, globals);
}

/* ---------------------------------------------------------------------------
 * VectorGame: n games stepped at once
 *
 * Game i's k-th deal (k = 0, 1, ...) is dealt from seed + i + k * n
 * (modulo 2**64): a finished game starts over at once with its next deal,
 * so the deals of all games together are seed, seed + 1, ... as in
 * selfplay(). The legal actions of every game are kept in one CSR list
 * (indptr, actions, and the move of each action), rebuilt by each step.
 * ------------------------------------------------------------------------- */

enum { MAX_VECTOR_GAMES = 1 << 20 };

typedef struct {
    PyObject_HEAD int n, players, board;
    carc_rules rules;
    carc_game **games;
    uint64_t *deals;    /* the seed of each game's current deal */
    int32_t *margins;   /* n x players: each seat's score minus the best other's */
    int32_t *finals;    /* n x players: the scores of the last game each one ended */
    uint8_t *truncated; /* n: the last step ended game i with no action in the window */
    int *chosen;        /* n: step()'s scratch: the index of each game's action */
    int busy;           /* a step or an observation runs without the GIL */
    int failed_game;    /* the game a failing vector_legal() or vector_advance() names */
    int64_t *indptr;    /* n + 1 */
    int64_t *actions;   /* the legal actions, game by game */
    carc_move *moves;   /* the move of each action */
    size_t cap;         /* room in actions and moves */
} VectorObject;

static void vector_dealloc(VectorObject *self)
{
    for (int i = 0; self->games && i < self->n; i++)
        carc_game_free(self->games[i]);
    free(self->games);
    free(self->deals);
    free(self->margins);
    free(self->finals);
    free(self->truncated);
    free(self->chosen);
    free(self->indptr);
    free(self->actions);
    free(self->moves);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Each seat's margin in game i now, into self->margins. */
static void vector_margins(VectorObject *self, int i, int32_t *out)
{
    const carc_game *g = self->games[i];
    for (int p = 0; p < self->players; p++) {
        int best = INT32_MIN;
        for (int q = 0; q < self->players; q++)
            if (q != p && carc_game_score(g, q) > best)
                best = carc_game_score(g, q);
        out[p] = carc_game_score(g, p) - best;
    }
}

/* Ends game i (its scores kept in finals) and deals its next game. */
static int vector_restart(VectorObject *self, int i)
{
    for (int p = 0; p < self->players; p++)
        self->finals[(size_t)i * (size_t)self->players + (size_t)p] =
            carc_game_score(self->games[i], p);
    self->deals[i] += (uint64_t)self->n;
    if (carc_game_reset(self->games[i], self->players, &self->rules, self->deals[i]) != CARC_OK)
        return -1;
    vector_margins(self, i, self->margins + (size_t)i * (size_t)self->players);
    return 0;
}

/* What went wrong in the work done without the GIL. */
enum { VECTOR_OK = 0, VECTOR_NOMEM = -1, VECTOR_NO_ACTION = -2, VECTOR_ILLEGAL = -3 };

/* Raises the Python exception of `status` (not VECTOR_OK); returns -1. */
static int vector_raise(const VectorObject *self, int status)
{
    int i = self->failed_game;
    if (status == VECTOR_NOMEM)
        PyErr_NoMemory();
    else if (status == VECTOR_NO_ACTION)
        PyErr_Format(PyExc_RuntimeError, "game %d: a new deal has no legal action", i);
    else
        PyErr_Format(PyExc_RuntimeError, "game %d: %s", i, carc_game_error(self->games[i]));
    return -1;
}

/* Rebuilds the CSR list of legal actions. A game with no legal action in
 * the window is truncated: it starts over (truncated[i] and, when `done`
 * is given, done[i] set). Touches no Python object: returns VECTOR_OK or
 * a failure (vector_raise()). */
static int vector_legal(VectorObject *self, uint8_t *done)
{
    size_t used = 0;
    for (int i = 0; i < self->n; i++) {
        self->indptr[i] = (int64_t)used;
        if (self->cap < used + CARC_MAX_MOVES) {
            size_t cap = 2 * self->cap + CARC_MAX_MOVES;
            int64_t *actions = realloc(self->actions, sizeof *actions * cap);
            if (actions)
                self->actions = actions;
            carc_move *moves = realloc(self->moves, sizeof *moves * cap);
            if (moves)
                self->moves = moves;
            if (!actions || !moves)
                return VECTOR_NOMEM;
            self->cap = cap;
        }
        for (int attempt = 0;; attempt++) {
            const carc_game *g = self->games[i];
            int k = legal_in_window(g, board_window(g, self->board), self->moves + used,
                                    self->actions + used);
            if (k > 0) {
                used += (size_t)k;
                break;
            }
            if (attempt > 0 || vector_restart(self, i) < 0) {
                self->failed_game = i;
                return VECTOR_NO_ACTION;
            }
            self->truncated[i] = 1;
            if (done)
                done[i] = 1;
        }
    }
    self->indptr[self->n] = (int64_t)used;
    return 0;
}

static int vector_init(VectorObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"n", "players", "seed", "rules", "expansions", "board_size", NULL};
    int n = 0, players = 2, board = DEFAULT_BOARD;
    uint64_t seed = 0;
    const char *rules_text = "", *expansions_text = "";
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "i|iO&ssi", kwlist, &n, &players, seed_converter,
                                     &seed, &rules_text, &expansions_text, &board))
        return -1;
    if (self->games) {
        PyErr_SetString(PyExc_RuntimeError, "a VectorGame is initialised once");
        return -1;
    }
    if (n < 1 || n > MAX_VECTOR_GAMES) {
        PyErr_Format(PyExc_ValueError, "n must be 1..%d (got %d)", MAX_VECTOR_GAMES, n);
        return -1;
    }
    if (players < CARC_MIN_PLAYERS || players > CARC_MAX_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "players must be %d..%d (got %d)", CARC_MIN_PLAYERS,
                     CARC_MAX_PLAYERS, players);
        return -1;
    }
    if (check_board(board) < 0 || parse_rules(rules_text, expansions_text, &self->rules) < 0)
        return -1;
    size_t count = (size_t)n, seats = count * (size_t)players;
    self->games = calloc(count, sizeof(carc_game *));
    self->deals = calloc(count, sizeof *self->deals);
    self->margins = calloc(seats, sizeof *self->margins);
    self->finals = calloc(seats, sizeof *self->finals);
    self->truncated = calloc(count, 1);
    self->chosen = calloc(count, sizeof *self->chosen);
    self->indptr = calloc(count + 1, sizeof *self->indptr);
    int ok = self->games && self->deals && self->margins && self->finals && self->truncated &&
             self->chosen && self->indptr;
    self->n = ok ? n : 0;
    self->players = players;
    self->board = board;
    for (int i = 0; ok && i < n; i++) {
        self->deals[i] = seed + (uint64_t)i;
        ok = (self->games[i] = carc_game_new(players, &self->rules, self->deals[i])) != NULL;
    }
    if (!ok) {
        PyErr_NoMemory();
        return -1;
    }
    int status = vector_legal(self, NULL);
    return status == VECTOR_OK ? 0 : vector_raise(self, status);
}

static int need_vector(VectorObject *self)
{
    if (!self->games) {
        PyErr_SetString(PyExc_RuntimeError, "the VectorGame was not initialised");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "the VectorGame is stepping or observing in another thread");
        return -1;
    }
    return 0;
}

/* A bytearray of `len` bytes copied from `data` (numpy reads it writable). */
static PyObject *bytes_of(const void *data, size_t len)
{
    return PyByteArray_FromStringAndSize((const char *)data, (Py_ssize_t)len);
}

/* _legal(): (indptr, actions) as bytearrays of int64. */
static PyObject *vector_legal_bytes(VectorObject *self, PyObject *unused)
{
    (void)unused;
    if (need_vector(self) < 0)
        return NULL;
    size_t total = (size_t)self->indptr[self->n];
    return Py_BuildValue("(NN)", bytes_of(self->indptr, sizeof(int64_t) * ((size_t)self->n + 1)),
                         bytes_of(self->actions, sizeof(int64_t) * total));
}

/* The index in the CSR list of game i's action `a`, or -1. */
static int vector_find(const VectorObject *self, int i, int64_t a)
{
    for (int64_t j = self->indptr[i]; j < self->indptr[i + 1]; j++)
        if (self->actions[j] == a)
            return (int)j;
    return -1;
}

/* Plays each game's chosen action, writes the rewards and done flags, and
 * rebuilds the legal actions; touches no Python object (runs without the
 * GIL). Returns VECTOR_OK or a failure (vector_raise()). */
static int vector_advance(VectorObject *self, float *rewards, uint8_t *finished)
{
    size_t players = (size_t)self->players;
    memset(self->truncated, 0, (size_t)self->n);
    for (int i = 0; i < self->n; i++) {
        carc_game *g = self->games[i];
        self->failed_game = i;
        if (carc_game_play(g, self->moves[self->chosen[i]], NULL, 0, NULL) != CARC_OK)
            return VECTOR_ILLEGAL;
        int32_t now[CARC_MAX_PLAYERS], *before = self->margins + (size_t)i * players;
        vector_margins(self, i, now);
        for (size_t p = 0; p < players; p++) {
            rewards[(size_t)i * players + p] = (float)(now[p] - before[p]);
            before[p] = now[p];
        }
        finished[i] = (uint8_t)carc_game_over(g);
        if (finished[i] && vector_restart(self, i) < 0)
            return VECTOR_NOMEM;
    }
    return vector_legal(self, finished);
}

/* _step(actions, rewards, done): actions an int64 buffer of n; rewards a
 * float32 buffer of n x players and done a uint8 buffer of n, both written.
 * Every action is checked before any game moves: ValueError for one that
 * is not among its game's legal actions, and nothing changes. */
static PyObject *vector_step(VectorObject *self, PyObject *args)
{
    Py_buffer av, rv, dv;
    if (need_vector(self) < 0 || !PyArg_ParseTuple(args, "y*w*w*", &av, &rv, &dv))
        return NULL;
    PyObject *result = NULL;
    size_t n = (size_t)self->n, players = (size_t)self->players;
    if (av.len != (Py_ssize_t)(sizeof(int64_t) * n) ||
        rv.len != (Py_ssize_t)(sizeof(float) * n * players) || dv.len != (Py_ssize_t)n) {
        PyErr_SetString(PyExc_ValueError, "step buffers of the wrong size");
        goto done;
    }
    const int64_t *actions = av.buf;
    for (int i = 0; i < self->n; i++) {
        if ((self->chosen[i] = vector_find(self, i, actions[i])) < 0) {
            PyErr_Format(PyExc_ValueError,
                         "game %d: action %lld is not one of its legal actions "
                         "(legal_actions()); no game moved",
                         i, (long long)actions[i]);
            goto done;
        }
    }
    /* The games move without the GIL: other threads (another VectorGame's
     * step among them) run meanwhile; this one refuses calls until done. */
    self->busy = 1;
    int status;
    PyThreadState *ts = PyEval_SaveThread();
    status = vector_advance(self, rv.buf, dv.buf);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    if (status == VECTOR_OK)
        result = Py_NewRef(Py_None);
    else
        vector_raise(self, status);
done:
    PyBuffer_Release(&av);
    PyBuffer_Release(&rv);
    PyBuffer_Release(&dv);
    return result;
}

/* _observe(board, globals): the compact observation of every game's mover
 * into a uint8 buffer of n x OBS_PLANES x side^2 and a float32 buffer of
 * n x GLOBALS. */
static PyObject *vector_observe(VectorObject *self, PyObject *args)
{
    Py_buffer bv, gv;
    if (need_vector(self) < 0 || !PyArg_ParseTuple(args, "w*w*", &bv, &gv))
        return NULL;
    PyObject *result = NULL;
    size_t area = (size_t)self->board * (size_t)self->board, n = (size_t)self->n;
    if (bv.len != (Py_ssize_t)(n * OBS_PLANES * area) ||
        gv.len != (Py_ssize_t)(sizeof(float) * n * GLOBALS)) {
        PyErr_SetString(PyExc_ValueError, "observation buffers of the wrong size");
        goto done;
    }
    self->busy = 1;
    PyThreadState *ts = PyEval_SaveThread();
    for (int i = 0; i < self->n; i++) {
        const carc_game *g = self->games[i];
        int64_t first = self->indptr[i];
        observe_compact(g, board_window(g, self->board), self->moves + first, self->actions + first,
                        (int)(self->indptr[i + 1] - first),
                        (uint8_t *)bv.buf + (size_t)i * OBS_PLANES * area,
                        (float *)gv.buf + (size_t)i * GLOBALS);
    }
    PyEval_RestoreThread(ts);
    self->busy = 0;
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&bv);
    PyBuffer_Release(&gv);
    return result;
}

/* _state(): bytearrays of the current players (int32, n), the scores and
 * the last finished games' scores (int32, n x players), the deals' seeds
 * (uint64, n) and the truncated flags (uint8, n). */
static PyObject *vector_state(VectorObject *self, PyObject *unused)
{
    (void)unused;
    if (need_vector(self) < 0)
        return NULL;
    size_t n = (size_t)self->n, seats = n * (size_t)self->players;
    int32_t *current = malloc(sizeof *current * n), *scores = malloc(sizeof *scores * seats);
    PyObject *result = NULL;
    if (current && scores) {
        for (size_t i = 0; i < n; i++) {
            current[i] = carc_game_current_player(self->games[i]);
            for (int p = 0; p < self->players; p++)
                scores[i * (size_t)self->players + (size_t)p] = carc_game_score(self->games[i], p);
        }
        result = Py_BuildValue("(NNNNN)", bytes_of(current, sizeof *current * n),
                               bytes_of(scores, sizeof *scores * seats),
                               bytes_of(self->finals, sizeof *self->finals * seats),
                               bytes_of(self->deals, sizeof *self->deals * n),
                               bytes_of(self->truncated, n));
    } else {
        PyErr_NoMemory();
    }
    free(current);
    free(scores);
    return result;
}

/* _game(i, cls): a copy of game i as a Game of class `cls`. */
static PyObject *vector_game(VectorObject *self, PyObject *args)
{
    int i;
    PyTypeObject *cls;
    if (need_vector(self) < 0 || !PyArg_ParseTuple(args, "iO!", &i, &PyType_Type, &cls))
        return NULL;
    if (!PyType_IsSubtype(cls, &GameType))
        return PyErr_Format(PyExc_TypeError, "%.80s is not a Game class", cls->tp_name);
    if (i < 0 || i >= self->n)
        return PyErr_Format(PyExc_ValueError, "game %d is out of range: 0 .. %d", i, self->n - 1);
    GameObject *copy = game_alloc(cls);
    if (!copy)
        return NULL;
    if (!(copy->g = carc_game_clone(self->games[i]))) {
        Py_DECREF(copy);
        return PyErr_NoMemory();
    }
    copy->board = self->board;
    copy->seed = self->deals[i];
    return (PyObject *)copy;
}

static PyMethodDef vector_methods[] = {
    {"_legal", (PyCFunction)vector_legal_bytes, METH_NOARGS, "(indptr, actions) as int64 bytes."},
    {"_step", (PyCFunction)vector_step, METH_VARARGS, "_step(actions, rewards, done)"},
    {"_observe", (PyCFunction)vector_observe, METH_VARARGS, "_observe(board, globals)"},
    {"_state", (PyCFunction)vector_state, METH_NOARGS,
     "(current, scores, finals, seeds, truncated) as bytes."},
    {"_game", (PyCFunction)vector_game, METH_VARARGS, "_game(i, cls): a copy of game i."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject VectorType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "carcassonne._core.VectorGame",
    .tp_basicsize = sizeof(VectorObject),
    .tp_dealloc = (destructor)vector_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "n games stepped at once (carcassonne.VectorGame).",
    .tp_methods = vector_methods,
    .tp_init = (initproc)vector_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------------------
 * Self-play: many games on threads, the GIL released
 * ------------------------------------------------------------------------- */

enum { MAX_THREADS = 64 };

/* One game's training samples (selfplay(samples=...)): a position per
 * move, in the order played, and the legal actions of each position with
 * the search's visits (the policy's entries). */
typedef struct {
    int count, cap;  /* positions */
    uint8_t *board;  /* count x OBS_PLANES x side^2: observe_compact() */
    float *globals;  /* count x GLOBALS */
    int64_t *action; /* the action played (-1: outside the window) */
    int64_t *nlegal; /* the position's entries (its legal actions in the window) */
    int8_t *player;  /* the mover */
    size_t entries, entries_cap;
    int64_t *legal;  /* entries: the legal actions, position by position */
    int32_t *visits; /* the search's visits of each (0 without a search) */
    float *policy;   /* visits / their sum; without visits 1 on the move played */
} sample_set;

/* A worker's buffers for the samples of a position. */
typedef struct {
    carc_move *moves;
    int64_t *actions;
    carc_move_eval *evals;
} sample_scratch;

typedef struct {
    int games, players, want_records, nspecs;
    uint64_t seed;
    carc_rules rules;
    char *specs[CARC_MAX_PLAYERS]; /* owned copies; NULL: the fast random player */
    int32_t *scores;               /* games x players */
    char **records;                /* games, or NULL */
    sample_set *samples;           /* games, or NULL: no samples */
    int board;                     /* the samples' window */
    pthread_mutex_t lock;
    int next;   /* the next game to play */
    int failed; /* out of memory or a player error */
} selfplay_job;

static int job_take(selfplay_job *job)
{
    pthread_mutex_lock(&job->lock);
    int i = job->failed ? job->games : job->next;
    if (i < job->games)
        job->next++;
    pthread_mutex_unlock(&job->lock);
    return i < job->games ? i : -1;
}

static void job_fail(selfplay_job *job)
{
    pthread_mutex_lock(&job->lock);
    job->failed = 1;
    pthread_mutex_unlock(&job->lock);
}

/* Room for one more position and `more` entries in `set`; -1 when out
 * of memory. */
static int sample_grow(sample_set *set, size_t area, size_t more)
{
    if (set->count == set->cap) {
        size_t cap = set->cap ? 2 * (size_t)set->cap : 96;
        uint8_t *board = realloc(set->board, cap * OBS_PLANES * area);
        if (board)
            set->board = board;
        float *globals = realloc(set->globals, cap * GLOBALS * sizeof(float));
        if (globals)
            set->globals = globals;
        int64_t *action = realloc(set->action, cap * sizeof(int64_t));
        if (action)
            set->action = action;
        int64_t *nlegal = realloc(set->nlegal, cap * sizeof(int64_t));
        if (nlegal)
            set->nlegal = nlegal;
        int8_t *player = realloc(set->player, cap);
        if (player)
            set->player = player;
        if (!board || !globals || !action || !nlegal || !player)
            return -1;
        set->cap = (int)cap;
    }
    if (set->entries + more > set->entries_cap) {
        size_t cap = 2 * set->entries_cap + more + 1024;
        int64_t *legal = realloc(set->legal, cap * sizeof(int64_t));
        if (legal)
            set->legal = legal;
        int32_t *visits = realloc(set->visits, cap * sizeof(int32_t));
        if (visits)
            set->visits = visits;
        float *policy = realloc(set->policy, cap * sizeof(float));
        if (policy)
            set->policy = policy;
        if (!legal || !visits || !policy)
            return -1;
        set->entries_cap = cap;
    }
    return 0;
}

static void sample_free(sample_set *set)
{
    free(set->board);
    free(set->globals);
    free(set->action);
    free(set->nlegal);
    free(set->player);
    free(set->legal);
    free(set->visits);
    free(set->policy);
}

/* The entry of action `a` among the position's `n` actions, or -1. */
static int entry_of(const int64_t *actions, int n, int64_t a)
{
    for (int j = 0; j < n; j++)
        if (actions[j] == a)
            return j;
    return -1;
}

/* The move of `p` (NULL: the fast random step from `rng`) in `g`, and,
 * with `set`, the position's sample: the observation, the legal actions,
 * the visits of a search that ran iterations (carc_player_rank ranks every
 * move with the search carc_player_choose runs, the move it plays first),
 * the policy and the action played. -1 on a player error or out of
 * memory. */
static int sample_move(selfplay_job *job, sample_set *set, sample_scratch *ws, carc_game *g,
                       carc_player *p, carc_rng *rng, carc_move *out)
{
    window w = board_window(g, job->board);
    size_t area = (size_t)w.side * (size_t)w.side;
    int n = legal_in_window(g, w, ws->moves, ws->actions);
    if (sample_grow(set, area, (size_t)n) < 0)
        return -1;
    size_t at = (size_t)set->count, first = set->entries;
    observe_compact(g, w, ws->moves, ws->actions, n, set->board + at * OBS_PLANES * area,
                    set->globals + at * GLOBALS);
    int32_t *visits = set->visits + first;
    memset(visits, 0, sizeof *visits * (size_t)n);
    if (!p) {
        *out = carc_random_move(g, rng, 0.5);
    } else {
        carc_search_info info;
        int ranked = carc_player_rank(p, g, ws->evals, CARC_MAX_MOVES, &info);
        if (ranked < 1)
            return -1;
        *out = ws->evals[0].move;
        for (int e = 0; info.iterations > 0 && e < ranked; e++) {
            int j =
                entry_of(ws->actions, n, encode(w, g, carc_move_canonical(g, ws->evals[e].move)));
            if (j >= 0)
                visits[j] += (int32_t)ws->evals[e].visits;
        }
    }
    long played = encode(w, g, carc_move_canonical(g, *out));
    int64_t total = 0;
    for (int j = 0; j < n; j++)
        total += visits[j];
    int chosen = entry_of(ws->actions, n, played);
    for (int j = 0; j < n; j++)
        set->policy[first + (size_t)j] =
            total > 0 ? (float)visits[j] / (float)total : (float)(j == chosen);
    memcpy(set->legal + first, ws->actions, sizeof(int64_t) * (size_t)n);
    set->entries += (size_t)n;
    set->action[at] = played;
    set->nlegal[at] = n;
    set->player[at] = (int8_t)carc_game_current_player(g);
    set->count++;
    return 0;
}

/* Game i's seeds: the deal from seed + i, as `carcassonne selfplay`. */
static int play_one(selfplay_job *job, carc_game *g, carc_player **seats, sample_scratch *ws, int i)
{
    uint64_t deal = job->seed + (uint64_t)i;
    if (carc_game_reset(g, job->players, &job->rules, deal) != CARC_OK)
        return -1;
    carc_rng rng = carc_rng_seed(deal ^ 0x5DEECE66DULL);
    for (int s = 0; s < job->players; s++)
        if (seats[s])
            carc_player_reseed(seats[s], deal * 31u + (uint64_t)s);
    while (!carc_game_over(g)) {
        carc_player *p = seats[carc_game_current_player(g)];
        carc_move m;
        if (job->samples) {
            if (sample_move(job, &job->samples[i], ws, g, p, &rng, &m) < 0)
                return -1;
        } else if (!p) {
            carc_game_play_random(g, &rng, 0.5, NULL);
            continue;
        } else if (carc_player_choose(p, g, &m, NULL) != CARC_OK) {
            return -1;
        }
        if (carc_game_play(g, m, NULL, 0, NULL) != CARC_OK)
            return -1;
    }
    for (int s = 0; s < job->players; s++)
        job->scores[(size_t)i * (size_t)job->players + (size_t)s] = carc_game_score(g, s);
    if (job->want_records) {
        char headers[64] = "", number[24];
        snprintf(number, sizeof number, "%llu", (unsigned long long)deal);
        carc_header_append(headers, sizeof headers, "seed", number);
        /* One write into a buffer that fits most games, a second when not. */
        size_t cap = 4096;
        char *text = malloc(cap);
        size_t need = text ? carc_record_write(g, headers, text, cap) : 0;
        if (text && need >= cap) {
            free(text);
            cap = need + 1;
            text = malloc(cap);
            if (text)
                carc_record_write(g, headers, text, cap);
        }
        if (!text)
            return -1;
        job->records[i] = text;
    }
    return 0;
}

static void *selfplay_worker(void *arg)
{
    selfplay_job *job = arg;
    carc_player *seats[CARC_MAX_PLAYERS] = {0};
    carc_game *g = carc_game_new(job->players, &job->rules, job->seed);
    int ok = g != NULL;
    for (int s = 0; ok && s < job->players; s++) {
        const char *spec = job->specs[s % job->nspecs];
        if (spec && !(seats[s] = carc_player_new(spec, job->seed, NULL, 0)))
            ok = 0;
    }
    sample_scratch ws = {0};
    if (ok && job->samples) {
        ws.moves = malloc(sizeof *ws.moves * CARC_MAX_MOVES);
        ws.actions = malloc(sizeof *ws.actions * CARC_MAX_MOVES);
        ws.evals = malloc(sizeof *ws.evals * CARC_MAX_MOVES);
        ok = ws.moves && ws.actions && ws.evals;
    }
    for (int i; ok && (i = job_take(job)) >= 0;)
        ok = play_one(job, g, seats, &ws, i) == 0;
    if (!ok)
        job_fail(job);
    free(ws.moves);
    free(ws.actions);
    free(ws.evals);
    for (int s = 0; s < job->players; s++)
        carc_player_free(seats[s]);
    if (g)
        carc_game_free(g);
    return NULL;
}

/* Runs the job on `threads` threads (the calling one among them). */
static void selfplay_run(selfplay_job *job, int threads)
{
    pthread_t ids[MAX_THREADS];
    int started = 0;
    for (int t = 1; t < threads; t++)
        if (pthread_create(&ids[started], NULL, selfplay_worker, job) == 0)
            started++;
    selfplay_worker(job);
    for (int t = 0; t < started; t++)
        pthread_join(ids[t], NULL);
}

static int selfplay_specs(PyObject *specs, selfplay_job *job)
{
    PyObject *seq = PySequence_Fast(specs, "player specs must be a list of str");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > job->players) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "one player spec, or one per seat");
        return -1;
    }
    char err[256];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        const char *spec = PyUnicode_Check(item) ? PyUnicode_AsUTF8(item) : NULL;
        if (!spec) {
            Py_DECREF(seq);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "a player spec is a str");
            return -1;
        }
        carc_player *p = carc_player_new(spec, 0, err, sizeof err);
        if (!p) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "player %.100s: %s", spec, err);
            return -1;
        }
        /* The plain random player runs as the library's fast random step. */
        int fast = strcmp(carc_player_spec(p), "random") == 0;
        carc_player_free(p);
        if (!fast && !(job->specs[i] = strdup(spec))) {
            Py_DECREF(seq);
            PyErr_NoMemory();
            return -1;
        }
    }
    job->nspecs = (int)n;
    Py_DECREF(seq);
    return 0;
}

static PyObject *selfplay_result(selfplay_job *job)
{
    PyObject *scores = PyBytes_FromStringAndSize(
        (const char *)job->scores,
        (Py_ssize_t)(sizeof(int32_t) * (size_t)job->games * (size_t)job->players));
    PyObject *records = job->want_records ? PyList_New(job->games) : Py_NewRef(Py_None);
    for (int i = 0; records && job->want_records && i < job->games; i++) {
        PyObject *s =
            PyUnicode_DecodeUTF8(job->records[i], (Py_ssize_t)strlen(job->records[i]), "strict");
        if (!s) {
            Py_CLEAR(records);
            break;
        }
        PyList_SET_ITEM(records, i, s);
    }
    if (!scores || !records) {
        Py_XDECREF(scores);
        Py_XDECREF(records);
        return NULL;
    }
    return Py_BuildValue("(NN)", records, scores);
}

/* The samples' arrays, every game's in game order (so they do not depend
 * on the threads), as a dict of bytearrays; the outcome and margin of each
 * position for its mover from the game's final scores. */
static PyObject *samples_result(const selfplay_job *job)
{
    size_t count = 0, entries = 0, area = (size_t)job->board * (size_t)job->board;
    for (int i = 0; i < job->games; i++) {
        count += (size_t)job->samples[i].count;
        entries += job->samples[i].entries;
    }
    PyObject *dict = PyDict_New();
    struct {
        const char *name;
        size_t size;
        PyObject *bytes;
    } arrays[] = {
        {"board", OBS_PLANES * area, NULL},
        {"globals", GLOBALS * sizeof(float), NULL},
        {"action", sizeof(int64_t), NULL},
        {"policy_indptr", sizeof(int64_t), NULL},
        {"player", 1, NULL},
        {"outcome", 1, NULL},
        {"margin", sizeof(int32_t), NULL},
        {"record", sizeof(int64_t), NULL},
        {"ply", sizeof(int32_t), NULL},
        {"legal", sizeof(int64_t), NULL},
        {"visits", sizeof(int32_t), NULL},
        {"policy", sizeof(float), NULL},
    };
    enum { NARRAYS = sizeof arrays / sizeof arrays[0], PER_ENTRY = 9 };
    int ok = dict != NULL;
    for (int a = 0; ok && a < NARRAYS; a++) {
        size_t n = a >= PER_ENTRY ? entries : count + (a == 3);
        arrays[a].bytes = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(n * arrays[a].size));
        ok = arrays[a].bytes && PyDict_SetItemString(dict, arrays[a].name, arrays[a].bytes) == 0;
    }
    for (int a = 0; a < NARRAYS; a++)
        Py_XDECREF(arrays[a].bytes); /* the dict holds them */
    if (!ok) {
        Py_XDECREF(dict);
        return NULL;
    }
    char *out[NARRAYS];
    for (int a = 0; a < NARRAYS; a++)
        out[a] = PyByteArray_AS_STRING(arrays[a].bytes);
    size_t at = 0, entry = 0;
    for (int i = 0; i < job->games; i++) {
        const sample_set *set = &job->samples[i];
        const int32_t *scores = job->scores + (size_t)i * (size_t)job->players;
        size_t n = (size_t)set->count;
        memcpy(out[0] + at * arrays[0].size, set->board, n * arrays[0].size);
        memcpy(out[1] + at * arrays[1].size, set->globals, n * arrays[1].size);
        memcpy(out[2] + at * arrays[2].size, set->action, n * arrays[2].size);
        memcpy(out[4] + at, set->player, n);
        for (size_t k = 0; k < n; k++) {
            int me = set->player[k], best = INT32_MIN;
            for (int q = 0; q < job->players; q++)
                if (q != me && scores[q] > best)
                    best = scores[q];
            int32_t margin = scores[me] - best;
            int8_t outcome = (int8_t)((margin > 0) - (margin < 0));
            int64_t start = (int64_t)entry, record = i;
            int32_t ply = (int32_t)k;
            memcpy(out[3] + (at + k) * sizeof start, &start, sizeof start);
            memcpy(out[5] + at + k, &outcome, 1);
            memcpy(out[6] + (at + k) * sizeof margin, &margin, sizeof margin);
            memcpy(out[7] + (at + k) * sizeof record, &record, sizeof record);
            memcpy(out[8] + (at + k) * sizeof ply, &ply, sizeof ply);
            entry += (size_t)set->nlegal[k];
        }
        memcpy(out[9] + (entry - set->entries) * sizeof(int64_t), set->legal,
               set->entries * sizeof(int64_t));
        memcpy(out[10] + (entry - set->entries) * sizeof(int32_t), set->visits,
               set->entries * sizeof(int32_t));
        memcpy(out[11] + (entry - set->entries) * sizeof(float), set->policy,
               set->entries * sizeof(float));
        at += n;
    }
    int64_t end = (int64_t)entry;
    memcpy(out[3] + at * sizeof end, &end, sizeof end);
    return dict;
}

static PyObject *core_selfplay(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"games",      "players", "seed",    "specs",      "threads", "rules",
                             "expansions", "records", "samples", "board_size", NULL};
    selfplay_job job = {0};
    uint64_t seed = 0;
    int threads = 1, records = 1, samples = 0;
    PyObject *specs;
    const char *rules_text = "", *expansions_text = "";
    job.board = DEFAULT_BOARD;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiO&O|issppi", kwlist, &job.games, &job.players,
                                     seed_converter, &seed, &specs, &threads, &rules_text,
                                     &expansions_text, &records, &samples, &job.board))
        return NULL;
    if (check_board(job.board) < 0)
        return NULL;
    if (job.games < 0 || job.games > 100000000)
        return PyErr_Format(PyExc_ValueError, "games must be 0..100000000");
    if (job.players < CARC_MIN_PLAYERS || job.players > CARC_MAX_PLAYERS)
        return PyErr_Format(PyExc_ValueError, "players must be %d..%d", CARC_MIN_PLAYERS,
                            CARC_MAX_PLAYERS);
    if (threads < 1 || threads > MAX_THREADS)
        return PyErr_Format(PyExc_ValueError, "threads must be 1..%d", MAX_THREADS);
    if (parse_rules(rules_text, expansions_text, &job.rules) < 0)
        return NULL;
    PyObject *result = NULL;
    if (selfplay_specs(specs, &job) < 0)
        goto done;
    job.seed = seed;
    job.want_records = records;
    job.scores = calloc((size_t)job.games * (size_t)job.players + 1, sizeof(int32_t));
    job.records = records ? calloc((size_t)job.games + 1, sizeof(char *)) : NULL;
    job.samples = samples ? calloc((size_t)job.games + 1, sizeof(sample_set)) : NULL;
    if (!job.scores || (records && !job.records) || (samples && !job.samples)) {
        PyErr_NoMemory();
        goto done;
    }
    pthread_mutex_init(&job.lock, NULL);
    PyThreadState *ts = PyEval_SaveThread();
    selfplay_run(&job, threads);
    PyEval_RestoreThread(ts);
    pthread_mutex_destroy(&job.lock);
    if (job.failed)
        PyErr_SetString(PyExc_RuntimeError, "self-play failed (out of memory or a player error)");
    else if ((result = selfplay_result(&job)) && samples) {
        PyObject *arrays = samples_result(&job);
        /* the pair takes `arrays`; `result` (the pair's own reference) is let go */
        Py_SETREF(result, arrays ? Py_BuildValue("(ON)", result, arrays) : NULL);
    }
done:
    for (int i = 0; job.samples && i < job.games; i++)
        sample_free(&job.samples[i]);
    free(job.samples);
    for (int s = 0; s < CARC_MAX_PLAYERS; s++)
        free(job.specs[s]);
    for (int i = 0; job.records && i < job.games; i++)
        free(job.records[i]);
    free(job.records);
    free(job.scores);
    return result;
}

/* ---------------------------------------------------------------------------
 * The module
 * ------------------------------------------------------------------------- */

static PyObject *core_tile_ids(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    PyObject *list = PyList_New(carc_tile_kinds());
    for (int k = 0; list && k < carc_tile_kinds(); k++)
        PyList_SET_ITEM(list, k, PyUnicode_FromString(carc_tile_id(k)));
    return list;
}

/* The names of the single flags that `name_of` knows, lowest first. */
static PyObject *flag_names(const char *(*name_of)(uint32_t))
{
    PyObject *list = PyList_New(0);
    for (int bit = 0; list && bit < 32; bit++) {
        const char *name = name_of(1u << bit);
        if (!name)
            continue;
        PyObject *s = PyUnicode_FromString(name);
        if (!s || PyList_Append(list, s) < 0)
            Py_CLEAR(list);
        Py_XDECREF(s);
    }
    return list;
}

static PyObject *core_rule_names(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return flag_names(carc_rule_name);
}

static PyObject *core_expansion_names(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return flag_names(carc_expansion_name);
}

static PyObject *core_noop(PyObject *module, PyObject *arg)
{
    (void)module;
    (void)arg;
    Py_RETURN_NONE;
}

/* _net_forward(net, position, moves): runs the .carcnet file `net`
 * (bytes) on a position's inputs and on rows of move inputs (float32
 * bytes): (value, logits float32 bytes). ValueError with the reader's
 * message when the file is refused. */
static PyObject *core_net_forward(PyObject *module, PyObject *args)
{
    (void)module;
    Py_buffer net, position, moves;
    if (!PyArg_ParseTuple(args, "y*y*y*", &net, &position, &moves))
        return NULL;
    PyObject *result = NULL;
    char err[240];
    size_t rows = (size_t)moves.len / (sizeof(float) * CARC_NET_MOVE_INPUTS);
    carc_net *n = NULL;
    float *logits = NULL;
    if (position.len != (Py_ssize_t)(sizeof(float) * CARC_NET_POSITION_INPUTS) ||
        (size_t)moves.len != rows * sizeof(float) * CARC_NET_MOVE_INPUTS) {
        PyErr_SetString(PyExc_ValueError, "inputs of the wrong size");
    } else if (!(n = carc_net_read(net.buf, (size_t)net.len, err, sizeof err))) {
        PyErr_SetString(PyExc_ValueError, err);
    } else if (!(logits = malloc(sizeof(float) * (rows ? rows : 1)))) {
        PyErr_NoMemory();
    } else {
        double value = carc_net_value(n, position.buf);
        carc_net_policy(n, moves.buf, (int)rows, logits);
        result =
            Py_BuildValue("(dy#)", value, (const char *)logits, (Py_ssize_t)(sizeof(float) * rows));
    }
    free(logits);
    carc_net_free(n);
    PyBuffer_Release(&net);
    PyBuffer_Release(&position);
    PyBuffer_Release(&moves);
    return result;
}

/* _exact(game, ms, threads, max_nodes): the exact endgame solver
 * (carc_exact_rank_threads) on a copy of the game, without the GIL:
 * (exact, tiles_left, moves, positions, seconds, reason). */
static PyObject *core_exact(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *arg;
    int ms, threads;
    unsigned long long max_nodes;
    if (!PyArg_ParseTuple(args, "OiiK", &arg, &ms, &threads, &max_nodes))
        return NULL;
    if (!PyObject_TypeCheck(arg, &GameType))
        return PyErr_Format(PyExc_TypeError, "exact() takes a Game, not %.80s",
                            Py_TYPE(arg)->tp_name);
    if (ms < 0)
        return PyErr_Format(PyExc_ValueError, "ms must be 0 (no limit) or more, not %d", ms);
    if (threads < 1 || threads > CARC_EXACT_MAX_THREADS)
        return PyErr_Format(PyExc_ValueError, "threads must be 1..%d, not %d",
                            CARC_EXACT_MAX_THREADS, threads);
    GameObject *game = (GameObject *)arg;
    if (game_open(game) < 0)
        return NULL;
    window w = game_window(game);
    carc_game *copy;
    carc_move_eval *evals;
    if (ranking_scratch(game->g, &copy, &evals) < 0)
        return NULL;
    carc_exact_info info;
    PyThreadState *ts = PyEval_SaveThread();
    int n = carc_exact_rank_threads(copy, (uint64_t)max_nodes, ms, threads, evals, CARC_MAX_MOVES,
                                    &info);
    PyEval_RestoreThread(ts);
    PyObject *moves = ranked_list(copy, w, evals, info.exact ? n : 0, 0);
    PyMem_Free(evals);
    carc_game_free(copy);
    if (!moves)
        return NULL;
    return Py_BuildValue("(NiNKds)", PyBool_FromLong(info.exact), info.tiles_left, moves,
                         (unsigned long long)info.nodes, info.seconds, info.reason);
}

static PyMethodDef core_methods[] = {
    {"selfplay", (PyCFunction)(void (*)(void))core_selfplay, METH_VARARGS | METH_KEYWORDS,
     "selfplay(games, players, seed, specs, threads=1, rules='', expansions='', records=True)"},
    {"tile_ids", core_tile_ids, METH_NOARGS, "The catalogue's tile ids, by kind."},
    {"_exact", core_exact, METH_VARARGS, NULL},
    {"_net_forward", core_net_forward, METH_VARARGS, NULL},
    {"rule_names", core_rule_names, METH_NOARGS, "The rule variants' record names."},
    {"expansion_names", core_expansion_names, METH_NOARGS, "The expansions' record names."},
    {"_noop", core_noop, METH_O, "Does nothing: measures the call overhead."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    "carcassonne._core",
    "The C library inside the package.",
    -1,
    core_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__core(void);
PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&GameType) < 0 || PyType_Ready(&PlayerType) < 0 ||
        PyType_Ready(&VectorType) < 0)
        return NULL;
    init_canonical_rotations();
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    if (PyModule_AddObjectRef(m, "Game", (PyObject *)&GameType) < 0 ||
        PyModule_AddObjectRef(m, "Player", (PyObject *)&PlayerType) < 0 ||
        PyModule_AddObjectRef(m, "VectorGame", (PyObject *)&VectorType) < 0 ||
        PyModule_AddIntConstant(m, "OBS_PLANES", OBS_PLANES) < 0 ||
        PyModule_AddIntConstant(m, "EXACT_MAX_THREADS", CARC_EXACT_MAX_THREADS) < 0 ||
        PyModule_AddIntConstant(m, "EXACT_MAX_TILES", CARC_EXACT_MAX_TILES) < 0 ||
        PyModule_AddIntConstant(m, "NET_POSITION_INPUTS", CARC_NET_POSITION_INPUTS) < 0 ||
        PyModule_AddIntConstant(m, "NET_MOVE_INPUTS", CARC_NET_MOVE_INPUTS) < 0 ||
        PyModule_AddIntConstant(m, "FIGURE_SLOTS", FIGURE_SLOTS) < 0 ||
        PyModule_AddIntConstant(m, "PLANES", PLANES) < 0 ||
        PyModule_AddIntConstant(m, "GLOBALS", GLOBALS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_KINDS", CARC_MAX_KINDS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_PLAYERS", CARC_MAX_PLAYERS) < 0 ||
        PyModule_AddIntConstant(m, "SEAT_FEATURES", SEAT_FEATURES) < 0 ||
        PyModule_AddIntConstant(m, "MAX_HAND", CARC_MAX_HAND) < 0 ||
        PyModule_AddIntConstant(m, "PLANE_FIGURES", PLANE_FIGURES) < 0 ||
        PyModule_AddIntConstant(m, "PLANE_FITS", PLANE_FITS) < 0 ||
        PyModule_AddIntConstant(m, "PLANE_LAST", PLANE_LAST) < 0 ||
        PyModule_AddIntConstant(m, "PLANE_JOINED", PLANE_JOINED) < 0 ||
        PyModule_AddIntConstant(m, "GLOBAL_DRAWN", GLOBAL_DRAWN) < 0 ||
        PyModule_AddIntConstant(m, "GLOBAL_HAND", GLOBAL_HAND) < 0 ||
        PyModule_AddIntConstant(m, "GLOBAL_LEFT", GLOBAL_LEFT) < 0 ||
        PyModule_AddIntConstant(m, "GLOBAL_TAIL", GLOBAL_TAIL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
