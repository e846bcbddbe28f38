/* state.h: the game state shared by the modules that touch it (not
 * public): board, features, pile, moves, scoring, The River, the turn code
 * (game.c) and the full evaluation, built once per layout (layout.h). */
#ifndef CARC_STATE_H
#define CARC_STATE_H

#include "layout.h"

#include <stdarg.h>
#include <stdio.h>

#include "carcassonne.h"
#include "tiles.h"

enum {
    BASE_TILES = 72, /* the base game's tiles, start tile included */
    BASE_PILE = 71,  /* the base game's pile */
};

#if LAYOUT_WIDE
typedef uint16_t seg_id;      /* a segment's index in carc_game.seg */
typedef uint16_t cell_id;     /* a grid cell's content, see carc_game.grid */
typedef uint16_t square_sig;  /* a frontier square's signature */
typedef uint16_t frontier_id; /* a frontier square's index, or their count */
typedef uint64_t root_word;
enum {
    LAYOUT_KINDS = 76, /* the catalogue's 75, rounded up to whole lanes */
    EDGE_BITS = 3,     /* an edge's carc_kind, CARC_RIVER included */
    SIGNATURES = 1 << (4 * EDGE_BITS),
    LAYOUT_TILES = CARC_MAX_TILES,
    /* Segments of any tile set of the catalogue, with the nine slots the
     * last tile's block takes. */
    MAX_SEGMENTS = 640,
    FOLLOWER_BITS = 4,
};
#else
typedef uint8_t seg_id;
typedef uint8_t cell_id;
typedef uint8_t square_sig;
typedef uint8_t frontier_id;
typedef uint32_t root_word;
enum {
    LAYOUT_KINDS = 24, /* A..X */
    EDGE_BITS = 2,
    SIGNATURES = 1 << (4 * EDGE_BITS),
    LAYOUT_TILES = BASE_TILES,
    /* Segments of all 72 tiles: 243 in the base game. A tile's segments
     * are written as a block of CARC_MAX_SEGMENTS_PER_TILE nodes, so the
     * last tile needs room beyond the 243. */
    MAX_SEGMENTS = 256,
    FOLLOWER_BITS = 3,
};
#endif

enum {
    EDGE_MASK = (1 << EDGE_BITS) - 1,
    LAYOUT_PILE = LAYOUT_TILES - 1,
    MAX_FRONTIER = 2 * LAYOUT_TILES + 2,
    /* The board's squares live on a torus of GRID x GRID cells. Placed
     * tiles span at most LAYOUT_TILES columns and rows, their frontier two
     * more, so two live squares are at most LAYOUT_TILES + 1 columns or
     * rows apart and never share a cell. */
    GRID = LAYOUT_TILES + 2,
    MAX_CLOISTERS = 16,
    /* Every tile is placed or discarded once; reshuffle's returned tiles
     * may be discarded again, while this slack lasts (pile.c). */
    RESHUFFLE_SLACK = 16,
    MAX_HISTORY = LAYOUT_PILE + RESHUFFLE_SLACK,
    MAX_DRAWS = LAYOUT_TILES + RESHUFFLE_SLACK,
    ERROR_SIZE = 160,
    COUNT_WORDS = LAYOUT_KINDS / 4,
};

/* A tile on the board. Its segments are seg[seg_base .. seg_base + n). */
typedef struct board_tile {
    int8_t x, y;
    uint8_t kind, rot;
    seg_id seg_base;
    uint8_t open;         /* bit d: no tile beside it in direction d, a frontier
                             square (not the table's edge, bounds.h) */
    uint8_t follower_seg; /* local segment with a follower, or CARC_NO_SPOT */
    uint8_t follower_owner;
#if LAYOUT_WIDE
    uint8_t follower_figure; /* carc_figure; see figures.h */
#endif
} board_tile;

/* An empty square next to a placed tile, with the signature of the edges
 * its neighbours impose (see carc_fits). */
typedef struct frontier_square {
    int8_t x, y;
    square_sig sig;
    uint8_t unused;
    uint8_t neighbour[4]; /* board tile on each side, or NO_TILE */
} frontier_square;

/* One segment of a placed tile, and a node of the union-find forest whose
 * trees are the features. `next` links all segments of a feature in a
 * circular list, so that a feature's members can be walked. `info` holds
 * the local index (bits 0-3), the carc_kind (bits 4-5; wide: 4-6) and,
 * for a field, the city segments it borders (bits 6-7; wide: 7-8: a tile's
 * cities are its segments 0 and 1).
 *
 * `root` is meaningful at the root of a tree and holds the feature's data
 * in three fields that never carry into each other, so that joining two
 * features adds their words:
 *   followers, FOLLOWER_BITS per player (no player has more than 7);
 *   open: roads and cities: edges of the feature not yet matched by a
 *         neighbouring tile, complete at 0; cloisters: empty squares
 *         among the eight around it;
 *   size: segments in the tree (union by size).
 * Compact layout: 8 bytes (bits 0-17, 18-23, 24-31 of a 32-bit root:
 * six players' followers, so a game of seven or eight players takes the
 * wide layout, layout_of.h); wide: 16 bytes (bits 0-31, 32-43, 44-63 of a
 * 64-bit root: eight players). */
#if LAYOUT_WIDE
typedef struct seg_node {
    uint16_t parent, next, info;
    uint8_t tile, unused;
    uint64_t root;
} seg_node;
_Static_assert(sizeof(seg_node) == 16, "a wide segment node is two 64-bit words");
enum {
    ROOT_OPEN_SHIFT = 32,
    ROOT_SIZE_SHIFT = 44,
    INFO_KIND_MASK = 7,
    INFO_BORDERS_SHIFT = 7,
    INFO_BORDERS_MASK = 15, /* Inns & Cathedrals' IH borders four cities */
};
#define ROOT_FOLLOWERS ((1ull << 32) - 1)
#define ROOT_OPEN_FIELD (0xFFFull << ROOT_OPEN_SHIFT)
#define ROOT_OPEN_ONE (1ull << ROOT_OPEN_SHIFT)
#else
typedef struct seg_node {
    uint8_t parent, next, tile, info;
    uint32_t root;
} seg_node;
_Static_assert(sizeof(seg_node) == 8, "a segment node is one 64-bit word");
enum {
    ROOT_OPEN_SHIFT = 18,
    ROOT_SIZE_SHIFT = 24,
    INFO_KIND_MASK = 3,
    INFO_BORDERS_SHIFT = 6,
    INFO_BORDERS_MASK = 3,
};
#define ROOT_FOLLOWERS ((1u << 18) - 1)
#define ROOT_OPEN_FIELD (63u << ROOT_OPEN_SHIFT)
#define ROOT_OPEN_ONE (1u << ROOT_OPEN_SHIFT)
#endif

static inline unsigned seg_kind(const seg_node *n)
{
    return ((unsigned)n->info >> 4) & (unsigned)INFO_KIND_MASK;
}

/* Bit i set: this field borders segment i of its tile, a city. */
static inline unsigned seg_borders(const seg_node *n)
{
    return ((unsigned)n->info >> INFO_BORDERS_SHIFT) & (unsigned)INFO_BORDERS_MASK;
}

static inline unsigned seg_local(const seg_node *n)
{
    return n->info & 15u;
}

static inline unsigned seg_open(const seg_node *n)
{
    return (unsigned)((n->root & ROOT_OPEN_FIELD) >> ROOT_OPEN_SHIFT);
}

static inline uint32_t seg_followers(const seg_node *n)
{
    return (uint32_t)(n->root & ROOT_FOLLOWERS);
}

static inline unsigned seg_size(const seg_node *n)
{
    return (unsigned)(n->root >> ROOT_SIZE_SHIFT);
}

/* Each kind's segments as new nodes, ids and tile still 0 (generated). */
extern const seg_node carc_seg_template[LAYOUT_KINDS][CARC_MAX_SEGMENTS_PER_TILE];

/* The followers of one player in a packed follower count. */
static inline unsigned followers_of(uint32_t packed, int player)
{
    return (packed >> (FOLLOWER_BITS * player)) & ((1u << FOLLOWER_BITS) - 1);
}

typedef struct history_entry {
    uint8_t tile_kind;
    uint8_t player;
    carc_move move;
} history_entry;

/* The river of a game with The River (wide layout; its tiles are the
 * pile's parts above the main pile, pile.h): the open end
 * is the square (x, y), which the last river tile faces in direction
 * `out`; `in` is the direction in which the river entered that tile
 * (NO_DIRECTION for the spring). `open` is 0 once the lake is placed. */
typedef struct river_state {
    uint8_t open;
    int8_t x, y;
    uint8_t out, in;
} river_state;

enum { NO_DIRECTION = 255 };

/* Traders & Builders (traders.h): where each player's builder and pig
 * stand (a board tile, or NO_TILE: in the supply), the goods tokens they
 * hold, their goods points, and whether the current player plays the
 * second tile of a turn. */
typedef struct traders_state {
    uint8_t builder_tile[CARC_MAX_PLAYERS], pig_tile[CARC_MAX_PLAYERS];
    uint8_t goods[CARC_MAX_PLAYERS][CARC_GOODS_TYPES];
    int16_t goods_points[CARC_MAX_PLAYERS];
    uint8_t second_part;
} traders_state;

/* One draw of the draw log (hand.h): who drew which kind, after how many
 * moves. */
typedef struct draw_entry {
    uint8_t player, kind, moves;
} draw_entry;

/* The hands of a game with hand=N (hand.h). Kept at the end of carc_game
 * and copied only in a hand game, so that the other games copy no more
 * than before. `tiles[p][0 .. size[p])` is player p's hand in the order
 * drawn; `log[0 .. ndraws)` the draw log, of which the first `named` are
 * named (carc_game_draw()); the rest are due. */
typedef struct hand_state {
    uint8_t tiles[CARC_MAX_PLAYERS][CARC_MAX_HAND];
    uint8_t size[CARC_MAX_PLAYERS];
    uint8_t ndraws, named;
    /* The last search for the next player with a move (hand_pass_turn()):
     * the player who moved, the seat the search began at, and the turn's
     * part before it (caps_turn_part); kept to search again when a named
     * draw changes what the mover or the pile holds. */
    uint8_t mover, from, part;
    draw_entry log[MAX_DRAWS];
} hand_state;

/* The whole state is flat: copying the bytes up to `seg` and the used
 * segments copies a game. `layout` comes first in both layouts: layout.c
 * reads it to pick a build. */
struct carc_game {
    uint8_t layout; /* LAYOUT_WIDE */
    carc_rules rules;
    carc_rng rng;
    uint8_t nplayers, current, over, ended_early;
    int8_t drawn;         /* kind drawn by the current player, or -1 */
    uint8_t pile_len;     /* tiles in pile[0 .. pile_len), drawn not included */
    uint8_t pile_pending; /* pile[0 .. pile_pending) not shuffled yet (pile.h) */
    uint8_t ntiles, ncloisters, nmoves;
    frontier_id nfrontier;
    uint16_t nseg; /* at most MAX_SEGMENTS - CARC_MAX_SEGMENTS_PER_TILE */
    int8_t min_x, min_y, max_x, max_y;
    uint8_t supply[CARC_MAX_PLAYERS];
    uint8_t tile_total;         /* carc_game_tile_total(), counted as the pile is laid out */
    uint64_t follower_tiles[2]; /* bit t: board tile t holds a follower */
    int32_t score[CARC_MAX_PLAYERS];
    int32_t score_by_kind[CARC_MAX_PLAYERS][4];
    uint8_t left[LAYOUT_KINDS]; /* pile tiles of each kind */
    /* Legal placements of each kind on the current frontier, kept up to
     * date as squares join, change and leave the frontier: kind k in bits
     * 16 * (k % 4) of word k / 4 (see carc_sig_count_lanes). */
    uint64_t placements[COUNT_WORDS];
#if LAYOUT_WIDE
    river_state river;
    uint8_t large[CARC_MAX_PLAYERS]; /* large followers in supply (figures.h) */
    traders_state traders;
#endif
    uint8_t pile[LAYOUT_TILES]; /* start-in-pile: the start tile too */
    /* The open cloisters [0 .. ncloisters): where each is and its segment,
     * each in an array of its own so that one vector compare finds those
     * next to a new tile (game.c). */
    int8_t cloister_x[MAX_CLOISTERS], cloister_y[MAX_CLOISTERS];
    seg_id cloister_seg[MAX_CLOISTERS];
    history_entry history[MAX_HISTORY];
    /* 0: empty; 1 + i: board tile i; FRONTIER_BASE + f: frontier square f. */
    cell_id grid[GRID * GRID];
    board_tile tiles[LAYOUT_TILES];
    frontier_square frontier[MAX_FRONTIER];
    seg_node seg[MAX_SEGMENTS];
    char error[ERROR_SIZE];
    hand_state hand; /* hand games only: see hand_state */
};

enum { FRONTIER_BASE = LAYOUT_TILES + 1, NO_TILE = 255 };

static const int8_t carc_dx[4] = {0, 1, 0, -1};
static const int8_t carc_dy[4] = {-1, 0, 1, 0};

/* The layout's tables (generated by tools/gen_tables.c from the
 * catalogue). Edges: EDGE_BITS per board direction (N lowest), each a
 * carc_kind; rotation r in bits 16 * r. */
extern const uint64_t carc_rot_edges[LAYOUT_KINDS];

/* Edges of `kind` at rotation `rot`, EDGE_BITS per direction. */
static inline unsigned carc_edges_at(int kind, int rot)
{
    return (unsigned)(carc_rot_edges[kind] >> (16 * rot)) & 0xFFFFu;
}

/* Rotations of each kind that fit a square of signature `sig`: EDGE_BITS
 * per board direction (N lowest), 0 when no tile touches that edge, else
 * 1 + the carc_kind the edge must have. Signature 0 (no neighbour) is all
 * 0. Indexed [kind][sig]: the frontier loops read one kind at many
 * squares, so a kind's row (4 KB in the wide layout) stays in cache. */
extern const uint8_t carc_fits[LAYOUT_KINDS][SIGNATURES];
/* The number of rotations in each carc_fits entry. */
extern const uint8_t carc_sig_count[SIGNATURES][LAYOUT_KINDS];
/* carc_sig_count in lanes: kind k is bits 16 * (k % 4) of word k / 4. */
extern const uint64_t carc_sig_count_lanes[SIGNATURES][COUNT_WORDS];

static inline unsigned carc_sig_edge(unsigned kind, int edge)
{
    return (kind + 1) << (EDGE_BITS * edge);
}

/* The generator of rng.c, inlined for the random playout step, which
 * draws several numbers a ply; the results are the same. */
static inline uint64_t rng_next(carc_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint32_t rng_below(carc_rng *r, uint32_t n)
{
    uint64_t m = (uint64_t)(uint32_t)rng_next(r) * n;
    if ((uint32_t)m < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while ((uint32_t)m < threshold)
            m = (uint64_t)(uint32_t)rng_next(r) * n;
    }
    return (uint32_t)(m >> 32);
}

/* Sets the game's error message (carc_game_error) from a format. */
static inline void game_set_error(carc_game *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static inline void game_set_error(carc_game *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->error, sizeof g->error, fmt, ap);
    va_end(ap);
}

#endif
