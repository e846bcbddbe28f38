/* game.h: the game state shared by the library's modules (not public). */
#ifndef CARC_GAME_H
#define CARC_GAME_H

#include "carcassonne.h"
#include "tiles.h"

enum {
    BASE_TILES = 72, /* the base game's tiles, start tile included */
    BASE_PILE = 71,  /* the base game's pile */
};

enum {
    /* Segments of all 72 tiles: 243 in the base game. A tile's segments
     * are written as a block of CARC_MAX_SEGMENTS_PER_TILE nodes, so the
     * last tile needs room beyond the 243. */
    MAX_SEGMENTS = 256,
    MAX_FRONTIER = 2 * BASE_TILES + 2,
    /* The board's squares live on a torus of GRID x GRID cells. Placed
     * tiles span at most 72 columns and rows, their frontier 74, so two
     * live squares are at most 73 columns or rows apart and never share a
     * cell. */
    GRID = 74,
    MAX_CLOISTERS = 16,
    MAX_HISTORY = BASE_PILE,
    ERROR_SIZE = 160,
};

/* A tile on the board. Its segments are seg[seg_base .. seg_base + n). */
typedef struct board_tile {
    int8_t x, y;
    uint8_t kind, rot;
    uint8_t seg_base;
    uint8_t open;         /* bit d: no tile beside it in direction d (a frontier square) */
    uint8_t follower_seg; /* local segment with a follower, or CARC_NO_SPOT */
    uint8_t follower_owner;
} board_tile;

/* An empty square next to a placed tile, with the signature of the edges
 * its neighbours impose (see carc_sig_fits). */
typedef struct frontier_square {
    int8_t x, y;
    uint8_t sig, unused;
    uint8_t neighbour[4]; /* board tile on each side, or NO_TILE */
} frontier_square;

/* One segment of a placed tile, and a node of the union-find forest whose
 * trees are the features: 8 bytes. Segment ids fit a byte: the 72 tiles
 * have 243 segments. `next` links all segments of a feature in a circular
 * list, so that a feature's members can be walked. `info` holds the local
 * index (bits 0-3), the carc_kind (bits 4-5) and, for a field, the city
 * segments it borders (bits 6-7: a tile's cities are its segments 0 and 1).
 *
 * `root` is meaningful at the root of a tree and holds the feature's data
 * in three fields that never carry into each other, so that joining two
 * features adds their words:
 *   bits 0-17  followers, 3 bits per player (no player has more than 7);
 *   bits 18-23 open: roads and cities: edges of the feature not yet matched
 *              by a neighbouring tile, complete at 0 (at most 11 for a
 *              city: only C and the three-sided cities add more open edges
 *              than the two a connection takes; 2 for a road); cloisters:
 *              empty squares among the eight around it;
 *   bits 24-31 size: segments in the tree (union by size). */
typedef struct seg_node {
    uint8_t parent, next, tile, info;
    uint32_t root;
} seg_node;
_Static_assert(sizeof(seg_node) == 8, "a segment node is one 64-bit word");

enum {
    FOLLOWER_BITS = 3,
    ROOT_FOLLOWERS = (1 << 18) - 1,
    ROOT_OPEN_SHIFT = 18,
    ROOT_OPEN_ONE = 1 << ROOT_OPEN_SHIFT,
    ROOT_SIZE_SHIFT = 24,
};

static inline unsigned seg_kind(const seg_node *n)
{
    return ((unsigned)n->info >> 4) & 3u;
}

/* Bit i set: this field borders segment i of its tile, a city. */
static inline unsigned seg_borders(const seg_node *n)
{
    return (unsigned)n->info >> 6;
}

static inline unsigned seg_local(const seg_node *n)
{
    return n->info & 15u;
}

static inline unsigned seg_open(const seg_node *n)
{
    return (n->root >> ROOT_OPEN_SHIFT) & 63u;
}

static inline uint32_t seg_followers(const seg_node *n)
{
    return n->root & ROOT_FOLLOWERS;
}

static inline unsigned seg_size(const seg_node *n)
{
    return n->root >> ROOT_SIZE_SHIFT;
}

/* Each kind's segments as new nodes, ids and tile still 0 (generated). */
extern const seg_node carc_seg_template[CARC_BASE_KINDS][CARC_MAX_SEGMENTS_PER_TILE];

/* The followers of one player in a packed follower count. */
static inline unsigned followers_of(uint32_t packed, int player)
{
    return (packed >> (FOLLOWER_BITS * player)) & 7u;
}

/* An open cloister: where it is, its board tile and its segment. */
typedef struct open_cloister {
    int8_t x, y;
    uint8_t tile, seg;
} open_cloister;

typedef struct history_entry {
    uint8_t tile_kind;
    uint8_t player;
    carc_move move;
} history_entry;

/* The whole state is flat: copying the bytes up to `seg` and the used
 * segments copies a game. */
struct carc_game {
    carc_rules rules;
    carc_rng rng;
    uint8_t nplayers, current, over, ended_early;
    int8_t drawn;     /* kind drawn by the current player, or -1 */
    uint8_t pile_len; /* tiles in pile[0 .. pile_len), drawn not included */
    uint8_t ntiles, nfrontier, ncloisters, nmoves;
    uint16_t nseg; /* at most MAX_SEGMENTS - CARC_MAX_SEGMENTS_PER_TILE */
    int8_t min_x, min_y, max_x, max_y;
    uint8_t supply[CARC_MAX_PLAYERS];
    uint64_t follower_tiles[2]; /* bit t: board tile t holds a follower */
    int32_t score[CARC_MAX_PLAYERS];
    int32_t score_by_kind[CARC_MAX_PLAYERS][4];
    uint8_t left[CARC_BASE_KINDS]; /* pile tiles of each kind */
    /* Legal placements of each kind on the current frontier, kept up to
     * date as squares join, change and leave the frontier: kind k in bits
     * 16 * (k % 4) of word k / 4 (see carc_sig_count_lanes). */
    uint64_t placements[CARC_COUNT_WORDS];
    uint8_t pile[BASE_PILE];
    open_cloister cloisters[MAX_CLOISTERS];
    history_entry history[MAX_HISTORY];
    /* 0: empty; 1 + i: board tile i; FRONTIER_BASE + f: frontier square f. */
    uint8_t grid[GRID * GRID];
    board_tile tiles[BASE_TILES];
    frontier_square frontier[MAX_FRONTIER];
    seg_node seg[MAX_SEGMENTS];
    char error[ERROR_SIZE];
};

enum { FRONTIER_BASE = BASE_TILES + 1, NO_TILE = 255 };

static const int8_t carc_dx[4] = {0, 1, 0, -1};
static const int8_t carc_dy[4] = {-1, 0, 1, 0};

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

/* board.c */
/* Empties the board; `fresh` when the grid holds garbage (a new game). */
void board_clear(carc_game *g, int fresh);
/* The torus cell of (x, y), from two generated tables (tile_tables.c):
 * column offsets and rows of each coordinate -128..127. */
extern const uint16_t carc_torus_col[256];
extern const uint8_t carc_torus_row[256];
static inline int board_cell(int x, int y)
{
    return carc_torus_col[(uint8_t)x] + carc_torus_row[(uint8_t)y];
}

static inline int board_in_range(int x, int y)
{
    return x >= -127 && x <= 127 && y >= -127 && y <= 127;
}

/* The board tile at (x, y), or -1. A cell may hold a square that lies GRID
 * columns away from (x, y), so the square's own coordinates decide. */
static inline int board_tile_at(const carc_game *g, int x, int y)
{
    if (!board_in_range(x, y))
        return -1;
    int v = g->grid[board_cell(x, y)] - 1;
    if (v < 0 || v >= BASE_TILES || g->tiles[v].x != x || g->tiles[v].y != y)
        return -1;
    return v;
}

/* The frontier square at (x, y), or -1. */
static inline int board_frontier_at(const carc_game *g, int x, int y)
{
    if (!board_in_range(x, y))
        return -1;
    int f = g->grid[board_cell(x, y)] - FRONTIER_BASE;
    if (f < 0 || g->frontier[f].x != x || g->frontier[f].y != y)
        return -1;
    return f;
}
/* Puts `kind` at (x, y), which must be frontier square `f` (-1 for the
 * start tile on an empty board), creates its segments, joins them with the
 * neighbours' and updates the frontier. Returns the new tile's index, and
 * sets `*closed` when a road or city was left without open edges (only a
 * join closes a feature, so otherwise the tile completed none). */
int board_place(carc_game *g, int kind, int x, int y, int rot, int f, int *closed);

/* features.c */
/* The root of segment `s`'s feature: its parent, see features.c. */
static inline int feature_root(const carc_game *g, int s)
{
    return g->seg[s].parent;
}
/* Joins the features of segments a and b; returns the root of the union. */
int feature_union(carc_game *g, int a, int b);
/* Distinct tiles of the feature rooted at `root`, and its pennants. */
int feature_tiles(const carc_game *g, int root, int *pennants);
/* Bit mask of the players with the most followers in `packed` (3 bits per
 * player). */
unsigned feature_majority(uint32_t packed, int nplayers);

/* scoring.c */
typedef struct event_sink {
    carc_event *events;
    int cap, count;
} event_sink;

void score_completed(carc_game *g, int root, event_sink *sink);
void score_final(carc_game *g, event_sink *sink);
int city_points(const carc_game *g, int tiles, int pennants, int complete);
int farm_city_count(const carc_game *g, int farm_root);

/* rules.c */
/* Reads the rule names in `text` (`len` bytes, no NUL needed), separated
 * by spaces and tabs, and with `commas` by commas too, into `*out`;
 * returns 0, or -1 with the message in `err` (may be NULL) and `*out`
 * unchanged. */
int rules_parse_names(const char *text, size_t len, int commas, carc_rules *out, char *err,
                      size_t errcap);

/* The same for the expansion names of an `expansions` line into
 * `out->expansions`; a name given twice is an error. */
int rules_parse_expansions(const char *text, size_t len, int commas, carc_rules *out, char *err,
                           size_t errcap);

/* game.c */
/* The number of legal placements of the drawn tile, and a uniformly
 * chosen one of them (the count must be positive). */
int game_placement_count(const carc_game *g);
carc_placement game_random_placement(const carc_game *g, carc_rng *r);
/* The move carc_random_move() returns. */
carc_move game_choose_random(const carc_game *g, carc_rng *r, double follower_chance);
void game_set_error(carc_game *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
