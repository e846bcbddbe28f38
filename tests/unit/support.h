/* support.h: helpers shared by the unit tests: an independent model of the
 * board, rebuilt from the public API and the catalogue alone (rotations,
 * fitting, features by flood fill), snapshots of a game's observable state,
 * and moves written in the record notation. Nothing here reads the
 * library's internals, so the model can judge the engine. */
#ifndef CARC_TEST_SUPPORT_H
#define CARC_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "carcassonne.h"

/* Tiles drawn in a whole base game: 72 less the start tile. */
enum { BASE_GAME_PILE = 71, BASE_KINDS = 24 };

/* --- The catalogue, rotated by hand ----------------------------------------- */

/* The twelve port bits turned `rot` quarter turns clockwise: port p goes to
 * (p + 3 rot) mod 12. */
unsigned sup_rotate_ports(unsigned ports, int rot);
/* Local segment of `kind` at `rot` holding board port `port`, or -1. */
int sup_port_seg(int kind, int rot, int port);
/* carc_kind of the segment holding board port `port`, or -1. */
int sup_port_kind(int kind, int rot, int port);
/* Kind of board edge `d` of `kind` at `rot`: edge d shows the rotation-0
 * edge (d - rot) mod 4. */
int sup_edge(int kind, int rot, int d);
/* The port facing `port` across its edge: N-S, NNE-SSE, NNW-SSW, E-W,
 * ENE-WNW, ESE-WSW. */
int sup_mirror(int port);
/* The cloister segment of `kind`, or -1. */
int sup_cloister_seg(int kind);
/* Square offsets of the four directions N, E, S, W. */
extern const int sup_dx[4], sup_dy[4];

/* --- The board model ---------------------------------------------------------- */

enum {
    MODEL_GRID = 192,
    MODEL_OFFSET = 96,
    MODEL_SEGS = CARC_MAX_SEGMENTS_PER_TILE,
    MODEL_NODES = CARC_MAX_TILES * CARC_MAX_SEGMENTS_PER_TILE,
};

typedef struct model_tile {
    int x, y, kind, rot;
    int follower_seg; /* -1 when none */
    int follower_owner;
} model_tile;

/* A feature found by flood fill over the segments of the placed tiles. */
typedef struct model_feature {
    int kind;
    int first, count; /* its nodes are order[first .. first + count) */
    int tiles;        /* distinct tiles (cloister: 1) */
    int pennants;
    int open; /* roads, cities: edges with no neighbour;
                 cloisters: empty squares among the eight */
    int followers[CARC_MAX_PLAYERS];
    int nfollowers;
    int complete; /* roads, cities, cloisters: open == 0 */
    int cities;   /* farms: completed cities bordering it */
} model_feature;

typedef struct model {
    int ntiles;
    model_tile tiles[CARC_MAX_TILES];
    int16_t grid[MODEL_GRID][MODEL_GRID]; /* tile index + 1, 0: empty */
    int nfeatures;
    int feature_of[MODEL_NODES]; /* node: tile * 9 + segment */
    int order[MODEL_NODES];
    model_feature features[MODEL_NODES];
} model;

/* An empty board (not even the start tile). */
void model_clear(model *m);
/* The board of `g`, with its followers, and its features. */
void model_from_game(model *m, const carc_game *g);
int model_tile_at(const model *m, int x, int y);
/* Adds a tile (no follower); features are not updated. */
void model_add(model *m, int x, int y, int kind, int rot);
/* Rereads the followers of the first m->ntiles tiles from `g`. */
void model_read_followers(model *m, const carc_game *g);
/* Whether `kind` at `rot` may go on the empty square (x, y): it touches a
 * tile and every touching port pair has one kind. */
int model_fits(const model *m, int kind, int x, int y, int rot);
/* Every legal placement of `kind` in (y, x, rot) order; returns the count. */
int model_placements(const model *m, int kind, carc_placement *out, int cap);
/* Floods the features of the board (with standard-rule values in mind). */
void model_features(model *m);
/* Feature of segment `seg` of tile `t`. */
const model_feature *model_feature_at(const model *m, int t, int seg);

/* --- Games -------------------------------------------------------------------- */

/* A new standard game; fails the test when it cannot be made. */
carc_game *sup_game(int players, uint64_t seed);
/* sup_game() with `moves` random moves played (each placing a follower
 * with probability `follower_chance`, drawn with a generator seeded by
 * `seed` too), or to the end when `moves` < 0. */
carc_game *sup_random_game(int players, uint64_t seed, int moves, double follower_chance);
/* Sorts placements by (y, x, rot). */
void sup_sort_placements(carc_placement *p, int n);
int sup_placement_cmp(const carc_placement *a, const carc_placement *b);

/* Plays a move written like a record line ("E 0 -1 2 S", "B 0 1 0 C",
 * "discard X") for the current player: chooses the tile, then plays it.
 * Returns the status of carc_game_play (choose errors fail the test).
 * `events` may be NULL. */
carc_status sup_play(carc_game *g, const char *move, carc_event *events, int cap, int *nevents);
/* Same, but the move must succeed. Returns the number of events. */
int sup_play_ok(carc_game *g, const char *move, carc_event *events, int cap);

/* Everything that can be observed of a game through the API. */
typedef struct snapshot {
    int players, current, over, ended_early, drawn, left, moves, ntiles;
    int counts[CARC_MAX_KINDS];
    int score[CARC_MAX_PLAYERS], score_of[CARC_MAX_PLAYERS][4];
    int supply[CARC_MAX_PLAYERS];
    unsigned leaders;
    uint32_t rules;
    int bounds[4];
    carc_tile_on_board tiles[CARC_MAX_TILES];
    carc_move move[CARC_MAX_TILES];
    int move_kind[CARC_MAX_TILES];
    int nplacements;
    carc_placement placements[CARC_MAX_PLACEMENTS];
    size_t record_len;
    char record[8192];
} snapshot;

void sup_snapshot(const carc_game *g, snapshot *s);
/* Fails the test, naming the first difference, when they differ. */
void sup_assert_same(const snapshot *a, const snapshot *b);

/* Writes `g` as a record, reads it back and checks that the copy has the
 * same digest and scores; fails the test naming `seed` when the record
 * does not read back. */
void sup_assert_record_round_trip(const carc_game *g, uint64_t seed);

/* Games to play in the long tests: the environment variable `name` when it
 * is set to a positive number, else `fallback`. */
int sup_env_count(const char *name, int fallback);

#endif
