/* puzzle_set.h: the puzzles the server serves (docs/puzzles.md): a set
 * as `carcassonne puzzles` writes it, checked when it is read (each
 * position replays, its tile can be drawn there, its best move is legal),
 * the puzzle of a UTC day, the puzzle nearest a rating, and the check of
 * an answer. Pure: no sockets, no storage. */
#ifndef CARC_SERVER_PUZZLE_SET_H
#define CARC_SERVER_PUZZLE_SET_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "storage.h"

enum { PUZZLE_SET_MAX = 10000 };

/* A new puzzle's rating deviation: its starting rating is an estimate
 * (docs/puzzles.md), surer than a new player's 350. */
#define PUZZLE_START_RD 200.0

/* One puzzle as the set gives it (the strings live as long as the set). */
typedef struct puzzle {
    const char *id;     /* [a-z0-9-], under STORED_PUZZLE_ID_BYTES */
    const char *record; /* the game up to the position */
    const char *tile;   /* the tile to place */
    const char *best;   /* the best move, canonical, in record notation */
    double rating;      /* the starting rating */
    json_t *json;       /* the whole object, as read */
} puzzle;

typedef struct puzzle_set puzzle_set;

/* Reads the set of file `path`. NULL with the reason in `err` (a file
 * that does not read, a puzzle whose record, tile or best move is not
 * right, two puzzles of one id). Free with puzzle_set_free(). */
puzzle_set *puzzle_set_load(const char *path, char *err, size_t errcap);
void puzzle_set_free(puzzle_set *set);

int puzzle_set_count(const puzzle_set *set);
const puzzle *puzzle_set_at(const puzzle_set *set, int index);
/* The index of the puzzle of id `id`, or -1. */
int puzzle_set_find(const puzzle_set *set, const char *id);
/* The index of the puzzle of the UTC day of `now_ms` (ms since 1970): the
 * same for everyone that day, another the next. */
int puzzle_set_daily(const puzzle_set *set, int64_t now_ms);
/* The index of the puzzle whose rating (`ratings[i]` for puzzle i) is
 * nearest `target` among those whose `skip[i]` is 0 (`skip` may be NULL);
 * ties go to the first. -1 when every one is skipped. */
int puzzle_set_nearest(const puzzle_set *set, double target, const double *ratings,
                       const unsigned char *skip);

/* Checks the answer `move` (record notation) to puzzle `p`: 1 the best
 * move (any rotation of a symmetric tile that gives the same board), 0
 * another legal move, -1 not a legal move of the position (the reason in
 * `err`). `canonical` (32 bytes, may be NULL) receives the move as the
 * set writes it. */
int puzzle_check(const puzzle *p, const char *move, char *canonical, char *err, size_t errcap);

/* The puzzle as a solver sees it before answering (no best move): a new
 * object. */
json_t *puzzle_question_json(const puzzle *p);
/* The answer: the best move, what it scores, why, the runner-up moves
 * with their margins and chances: a new object. */
json_t *puzzle_answer_json(const puzzle *p);

#endif
