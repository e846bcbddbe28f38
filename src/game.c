/* game.c: a game's life: set-up, the drawn tile, legal moves, playing a
 * move with its scoring, the end of the game. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "board.h"
#include "feature.h"
#include "scoring.h"
#include "tiles.h"

void game_set_error(carc_game *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->error, sizeof g->error, fmt, ap);
    va_end(ap);
}

/* --- The tile set and the river ------------------------------------------------ */

#if LAYOUT_WIDE
static int is_river_kind(int kind)
{
    return kind >= 0 && kind < CARC_ALL_KINDS && carc_tile_data[kind].set == CARC_EXPANSION_RIVER;
}

static int with_river(const carc_game *g)
{
    return (g->rules.expansions & CARC_EXPANSION_RIVER) != 0;
}

/* Bit d set: edge d (board direction) of `kind` at `rot` is river. */
static unsigned river_edges(int kind, int rot)
{
    unsigned mask = 0;
    for (int d = 0; d < 4; d++)
        mask |= (unsigned)(carc_tile_data[kind].edges[(d + 4 - rot) & 3] == CARC_RIVER) << d;
    return mask;
}

/* Where the river leaves `kind` placed at `rot` at the open end: the
 * direction of its other river edge, or NO_DIRECTION (the lake). */
static unsigned river_exit(const carc_game *g, int kind, int rot)
{
    unsigned entry = (g->river.out + 2u) & 3u;
    unsigned exits = river_edges(kind, rot) & ~(1u << entry);
    return exits ? (unsigned)__builtin_ctz(exits) : NO_DIRECTION;
}

/* Whether `kind` at `rot` on the open end would turn the river back the
 * way it came into the last river tile (river.md: no immediate U-turn). */
static int river_u_turn(const carc_game *g, int kind, int rot)
{
    unsigned exit = river_exit(g, kind, rot);
    return g->river.in != NO_DIRECTION && exit != NO_DIRECTION && exit == ((g->river.in + 2u) & 3u);
}

/* Rotations of the drawn river tile that may go on frontier square `f`:
 * only on the river's open end, fitting its edges, without a U-turn. */
static unsigned river_rotations(const carc_game *g, int f)
{
    const frontier_square *sq = &g->frontier[f];
    if (!g->river.open || sq->x != g->river.x || sq->y != g->river.y)
        return 0;
    unsigned rots = carc_sig_fits[sq->sig][g->drawn], ok = 0;
    for (int r = 0; r < 4; r++)
        if (((rots >> r) & 1u) && !river_u_turn(g, g->drawn, r))
            ok |= 1u << r;
    return ok;
}

/* The river after river tile `kind` went on the open end at `rot`. */
static void river_advance(carc_game *g, int kind, int rot, int x, int y)
{
    unsigned exit = river_exit(g, kind, rot);
    if (exit == NO_DIRECTION) {
        g->river.open = 0;
        return;
    }
    g->river.in = g->river.out;
    g->river.out = (uint8_t)exit;
    g->river.x = (int8_t)(x + carc_dx[exit]);
    g->river.y = (int8_t)(y + carc_dy[exit]);
}
#endif

/* Copies of `kind` in the pile at the start of a game with `rules`. */
static int pile_count(const carc_rules *rules, int kind)
{
    if (kind < 0 || kind >= LAYOUT_KINDS || kind >= CARC_ALL_KINDS)
        return 0;
    const carc_tile_def *def = &carc_tile_data[kind];
    if (def->set & ~rules->expansions)
        return 0;
#if LAYOUT_WIDE
    if (rules->expansions & CARC_EXPANSION_RIVER) {
        /* The spring starts the game; the base start tile leaves it,
         * unless the variant shuffles it into the main pile. */
        if (kind == CARC_KIND_RA)
            return 0;
        if (kind == CARC_KIND_D && !(rules->flags & CARC_RULE_RIVER_KEEP_START))
            return def->count - 1;
        return def->count;
    }
#endif
    return def->count - (kind == CARC_KIND_D);
}

/* The kind of the start tile. */
static int start_kind(const carc_rules *rules)
{
#if LAYOUT_WIDE
    if (rules->expansions & CARC_EXPANSION_RIVER)
        return CARC_KIND_RA;
#else
    (void)rules;
#endif
    return CARC_KIND_D;
}

/* --- Set-up and copies ----------------------------------------------------- */

static void draw_tile(carc_game *g)
{
    if (g->pile_len == 0) {
        g->drawn = -1;
        return;
    }
    g->drawn = (int8_t)g->pile[--g->pile_len];
    g->left[g->drawn]--;
#if LAYOUT_WIDE
    if (g->river.left)
        g->river.left--;
#endif
}

static void shuffle_range(carc_game *g, int lo, int hi)
{
    for (int i = hi - 1; i > lo; i--) {
        int j = lo + (int)rng_below(&g->rng, (uint32_t)(i - lo) + 1);
        uint8_t t = g->pile[i];
        g->pile[i] = g->pile[j];
        g->pile[j] = t;
    }
}

/* Shuffles the pile; with the river, the main pile below and the river
 * pile above it each on its own, the lake kept lowest of the river. */
static void shuffle(carc_game *g)
{
#if LAYOUT_WIDE
    int river_start = g->pile_len - g->river.left;
    shuffle_range(g, 0, river_start);
    if (g->river.left > 1)
        shuffle_range(g, river_start + 1, g->pile_len);
#else
    shuffle_range(g, 0, g->pile_len);
#endif
}

/* Lays out the pile from the counts in `g->left`: the main pile, then the
 * lake, then the other river tiles (drawn first: the pile's top is its
 * end). */
static void pile_from_counts(carc_game *g)
{
    int n = 0;
    for (int k = 0; k < LAYOUT_KINDS; k++) {
#if LAYOUT_WIDE
        if (is_river_kind(k))
            continue;
#endif
        for (int c = 0; c < g->left[k]; c++)
            g->pile[n++] = (uint8_t)k;
    }
#if LAYOUT_WIDE
    int main_len = n;
    if (g->left[CARC_KIND_RL])
        g->pile[n++] = CARC_KIND_RL;
    for (int k = CARC_BASE_KINDS; k < CARC_ALL_KINDS; k++)
        for (int c = 0; c < g->left[k] && k != CARC_KIND_RL && is_river_kind(k); c++)
            g->pile[n++] = (uint8_t)k;
    g->river.left = (uint8_t)(n - main_len);
#endif
    g->pile_len = (uint8_t)n;
}

static void fill_pile(carc_game *g)
{
    for (int k = 0; k < LAYOUT_KINDS; k++)
        g->left[k] = (uint8_t)pile_count(&g->rules, k);
    pile_from_counts(g);
}

/* Puts the drawn tile back on top of the pile (of the river pile when it is
 * a river tile, which is on top). */
static void put_back_drawn(carc_game *g)
{
    g->pile[g->pile_len++] = (uint8_t)g->drawn;
    g->left[g->drawn]++;
#if LAYOUT_WIDE
    if (is_river_kind(g->drawn))
        g->river.left++;
#endif
    g->drawn = -1;
}

static carc_status start_game(carc_game *g, int players, const carc_rules *rules, uint64_t seed,
                              int fresh)
{
    if (!g)
        return CARC_EINVAL;
    if (players < CARC_MIN_PLAYERS || players > CARC_MAX_PLAYERS) {
        game_set_error(g, "players must be %d to %d, not %d", CARC_MIN_PLAYERS, CARC_MAX_PLAYERS,
                       players);
        return CARC_EINVAL;
    }
    carc_rules chosen = rules ? *rules : carc_rules_standard();
    if (carc_rules_check(&chosen, g->error, sizeof g->error) != CARC_OK)
        return CARC_EINVAL;
    if ((chosen.expansions != 0) != LAYOUT_WIDE) {
        game_set_error(g, "a game with other expansions needs a new game, not a reset");
        return CARC_EINVAL;
    }
    g->layout = LAYOUT_WIDE;
    g->rules = chosen;
    g->rng = carc_rng_seed(seed);
    g->nplayers = (uint8_t)players;
    g->current = 0;
    g->over = 0;
    g->ended_early = 0;
    g->nmoves = 0;
    memset(g->supply, CARC_FOLLOWERS, sizeof g->supply);
    memset(g->score, 0, sizeof g->score);
    memset(g->score_by_kind, 0, sizeof g->score_by_kind);
    board_clear(g, fresh);
    int closed;
    board_place(g, start_kind(&g->rules), 0, 0, 0, -1, &closed);
#if LAYOUT_WIDE
    /* The spring's river flows east: the open end is (1, 0). */
    g->river = (river_state){0, (uint8_t)with_river(g), 1, 0, 1, NO_DIRECTION};
#endif
    fill_pile(g);
    shuffle(g);
    draw_tile(g);
    g->error[0] = '\0';
    return CARC_OK;
}

carc_status carc_game_reset(carc_game *g, int players, const carc_rules *rules, uint64_t seed)
{
    return start_game(g, players, rules, seed, 0);
}

carc_game *carc_game_new(int players, const carc_rules *rules, uint64_t seed)
{
    if (players < CARC_MIN_PLAYERS || players > CARC_MAX_PLAYERS)
        return NULL;
    carc_game *g = malloc(sizeof *g);
    if (g && start_game(g, players, rules, seed, 1) != CARC_OK) {
        free(g);
        return NULL;
    }
    return g;
}

carc_status carc_game_copy(carc_game *dst, const carc_game *src)
{
    if (dst == src)
        return CARC_OK;
    memcpy(dst, src, offsetof(carc_game, seg));
    memcpy(dst->seg, src->seg, src->nseg * sizeof src->seg[0]);
    dst->error[0] = '\0';
    return CARC_OK;
}

carc_game *carc_game_clone(const carc_game *src)
{
    carc_game *g = malloc(sizeof *g);
    if (g)
        carc_game_copy(g, src);
    return g;
}

size_t carc_game_size(const carc_rules *rules)
{
    (void)rules;
    return sizeof(carc_game);
}

const char *carc_game_error(const carc_game *g)
{
    return g ? g->error : "no game";
}

/* --- Turn and tile ---------------------------------------------------------- */

int carc_game_players(const carc_game *g)
{
    return g->nplayers;
}

carc_rules carc_game_rules(const carc_game *g)
{
    return g->rules;
}

int carc_game_over(const carc_game *g)
{
    return g->over;
}

int carc_game_current_player(const carc_game *g)
{
    return g->current;
}

int carc_game_drawn_tile(const carc_game *g)
{
    return g->over ? CARC_NO_TILE : g->drawn;
}

int carc_game_ended_early(const carc_game *g)
{
    return g->ended_early;
}

int carc_game_tiles_left(const carc_game *g, int counts[CARC_MAX_KINDS])
{
    if (counts)
        for (int k = 0; k < CARC_ALL_KINDS; k++)
            counts[k] = k < LAYOUT_KINDS ? g->left[k] : 0;
    return g->pile_len;
}

int carc_game_next_tiles(const carc_game *g, int counts[CARC_MAX_KINDS])
{
#if LAYOUT_WIDE
    if (g->river.left > 0) {
        /* The river pile: its lake only when it is the last. */
        int n = 0;
        for (int k = 0; k < CARC_ALL_KINDS; k++) {
            int c = is_river_kind(k) && (k != CARC_KIND_RL || g->river.left == 1) ? g->left[k] : 0;
            if (counts)
                counts[k] = c;
            n += c;
        }
        return n;
    }
#endif
    return carc_game_tiles_left(g, counts);
}

int carc_game_draw_pool(const carc_game *g, int counts[CARC_MAX_KINDS])
{
    int n = 0;
    for (int k = 0; k < CARC_ALL_KINDS; k++) {
        int c = 0;
        if (!g->over && k < LAYOUT_KINDS) {
            c = g->left[k] + (k == g->drawn);
#if LAYOUT_WIDE
            /* The draw came from the drawn tile's pile; the lake comes
             * last of the river. */
            if (is_river_kind(k) != is_river_kind(g->drawn) ||
                (k == CARC_KIND_RL && g->drawn != CARC_KIND_RL))
                c = 0;
#endif
        }
        if (counts)
            counts[k] = c;
        n += c;
    }
    return n;
}

int carc_game_tile_total(const carc_game *g)
{
#if LAYOUT_WIDE
    int n = 1; /* the start tile */
    for (int k = 0; k < LAYOUT_KINDS; k++)
        n += pile_count(&g->rules, k);
    return n;
#else
    (void)g;
    return BASE_TILES; /* a constant: the evaluations ask at every leaf */
#endif
}

int carc_game_kind_total(const carc_game *g, int kind)
{
    return pile_count(&g->rules, kind);
}

int carc_game_river_phase(const carc_game *g)
{
#if LAYOUT_WIDE
    return !g->over && is_river_kind(g->drawn);
#else
    (void)g;
    return 0;
#endif
}

carc_status carc_game_choose_tile(carc_game *g, int kind)
{
    if (g->over) {
        game_set_error(g, "the game is over");
        return CARC_EOVER;
    }
    const carc_tile_def *def = carc_tile(kind);
    if (!def) {
        game_set_error(g, "no tile kind %d", kind);
        return CARC_EINVAL;
    }
    if (kind == g->drawn)
        return CARC_OK;
    int lo = 0;
#if LAYOUT_WIDE
    if (is_river_kind(g->drawn)) {
        /* The draw comes from the river pile, the lake last of all. */
        if (!is_river_kind(kind) && pile_count(&g->rules, kind) > 0) {
            game_set_error(g, "tile %s cannot be drawn while the river is laid", def->id);
            return CARC_EILLEGAL;
        }
        if (kind == CARC_KIND_RL && g->left[kind] > 0) {
            game_set_error(g, "the lake RL comes last of the river pile");
            return CARC_EILLEGAL;
        }
        lo = g->pile_len - g->river.left;
    }
#endif
    for (int i = lo; i < g->pile_len && kind < LAYOUT_KINDS; i++)
        if (g->pile[i] == kind) {
            g->pile[i] = (uint8_t)g->drawn;
            g->left[g->drawn]++;
            g->left[kind]--;
            g->drawn = (int8_t)kind;
            return CARC_OK;
        }
    game_set_error(g, "no tile %s is left in the pile", def->id);
    return CARC_EILLEGAL;
}

void carc_game_shuffle_pile(carc_game *g, uint64_t seed)
{
    if (g->over)
        return;
    put_back_drawn(g);
    g->rng = carc_rng_seed(seed);
    shuffle(g);
    draw_tile(g);
}

void carc_game_shuffle_hidden(carc_game *g, uint64_t seed)
{
    if (g->over)
        return;
    /* Rebuilt from the counts first, so the result depends on what the
     * players know and on `seed`, never on the hidden order. */
    pile_from_counts(g);
    g->rng = carc_rng_seed(seed);
    shuffle(g);
}

void carc_game_public_view(carc_game *dst, const carc_game *src, uint64_t seed)
{
    carc_game_copy(dst, src);
    /* The slots of tiles already drawn may name a tile that a record
     * replaced (carc_game_choose_tile): a trace of the deal. */
    memset(dst->pile + dst->pile_len, 0, (size_t)(LAYOUT_PILE - dst->pile_len));
    if (dst->over)
        dst->rng = carc_rng_seed(seed);
    else
        carc_game_shuffle_hidden(dst, seed);
}

/* FNV-1a 64 of the digest's bytes, see carcassonne.h. */
typedef struct digest {
    uint64_t h;
} digest;

static void digest_bytes(digest *d, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        d->h ^= (v >> (8 * i)) & 0xFFu;
        d->h *= 0x100000001B3ull;
    }
}

uint64_t carc_game_digest(const carc_game *g)
{
    digest d = {0xCBF29CE484222325ull};
    digest_bytes(&d, 1 + LAYOUT_WIDE, 1); /* the version of this byte sequence */
    digest_bytes(&d, g->nplayers, 1);
    digest_bytes(&d, g->rules.flags, 4);
#if LAYOUT_WIDE
    digest_bytes(&d, g->rules.expansions, 4);
#endif
    digest_bytes(&d, g->current, 1);
    digest_bytes(&d, g->over ? 255u : (uint8_t)g->drawn, 1);
    digest_bytes(&d, g->over, 1);
    digest_bytes(&d, g->ended_early, 1);
    digest_bytes(&d, g->nmoves, 2);
    digest_bytes(&d, g->pile_len, 1);
#if LAYOUT_WIDE
    digest_bytes(&d, CARC_ALL_KINDS, 1);
    for (int k = 0; k < CARC_ALL_KINDS; k++)
        digest_bytes(&d, g->left[k], 1);
#else
    for (int k = 0; k < CARC_BASE_KINDS; k++)
        digest_bytes(&d, g->left[k], 1);
#endif
    for (int p = 0; p < g->nplayers; p++) {
        digest_bytes(&d, (uint32_t)g->score[p], 4);
        digest_bytes(&d, g->supply[p], 1);
    }
    digest_bytes(&d, g->ntiles, 1);
    for (int t = 0; t < g->ntiles; t++) {
        const board_tile *bt = &g->tiles[t];
        int follower = bt->follower_seg != CARC_NO_SPOT;
        digest_bytes(&d, (uint8_t)bt->x, 1);
        digest_bytes(&d, (uint8_t)bt->y, 1);
        digest_bytes(&d, bt->kind, 1);
        digest_bytes(&d, bt->rot, 1);
        digest_bytes(&d, bt->follower_seg, 1);
        digest_bytes(&d, follower ? bt->follower_owner : 255u, 1);
    }
    return d.h;
}

static unsigned square_fits(const carc_game *g, int f)
{
#if LAYOUT_WIDE
    if (is_river_kind(g->drawn))
        return river_rotations(g, f);
#endif
    return carc_sig_fits[g->frontier[f].sig][g->drawn];
}

/* Writes the fitting placements of the whole frontier into `out`, which
 * has room for four per square: every rotation is written and the count
 * advances only for those that fit, so no branch depends on the board. */
static int write_placements(const carc_game *g, carc_placement *out)
{
    int n = 0;
    for (int f = 0; f < g->nfrontier; f++) {
        unsigned rots = square_fits(g, f);
        if (!rots)
            continue;
        const frontier_square *sq = &g->frontier[f];
        for (unsigned r = 0; r < 4; r++) {
            out[n] = (carc_placement){sq->x, sq->y, (uint8_t)r, 0};
            n += (int)((rots >> r) & 1u);
        }
    }
    return n;
}

int carc_legal_placements(const carc_game *g, carc_placement *out, int cap)
{
    if (g->over)
        return 0;
    if (cap >= 4 * g->nfrontier)
        return write_placements(g, out);
    carc_placement all[4 * MAX_FRONTIER];
    int n = write_placements(g, all);
    if (cap > 0)
        memcpy(out, all, (size_t)(n < cap ? n : cap) * sizeof all[0]);
    return n;
}

static int placement_count(const carc_game *g)
{
    if (g->over)
        return 0;
#if LAYOUT_WIDE
    if (is_river_kind(g->drawn)) {
        int f = g->river.open ? board_frontier_at(g, g->river.x, g->river.y) : -1;
        return f < 0 ? 0 : __builtin_popcount(river_rotations(g, f));
    }
#endif
    return (int)((g->placements[g->drawn >> 2] >> (16 * (g->drawn & 3))) & 0xFFFFu);
}

/* Draws (square, rotation) pairs uniformly until one fits: a uniform
 * legal placement, without a pass over the frontier when enough fit.
 * Writes the frontier square's index to `*square`. */
static carc_placement random_placement(const carc_game *g, carc_rng *r, int *square)
{
    int count = placement_count(g);
    if (2 * count >= g->nfrontier) {
        for (;;) {
            uint32_t v = rng_below(r, 4u * g->nfrontier);
            int f = (int)(v >> 2), rot = (int)(v & 3);
            if ((square_fits(g, f) >> rot) & 1) {
                *square = f;
                return (carc_placement){g->frontier[f].x, g->frontier[f].y, (uint8_t)rot, 0};
            }
        }
    }
    int k = (int)rng_below(r, (uint32_t)count);
    for (int f = 0;; f++) {
        unsigned rots = square_fits(g, f);
        for (; rots; rots &= rots - 1)
            if (k-- == 0) {
                const frontier_square *sq = &g->frontier[f];
                *square = f;
                return (carc_placement){sq->x, sq->y, (uint8_t)__builtin_ctz(rots), 0};
            }
    }
}

int carc_placement_legal(const carc_game *g, carc_placement p)
{
    if (g->over || p.rot > 3)
        return 0;
    int f = board_frontier_at(g, p.x, p.y);
    if (f < 0)
        return 0;
    return (int)((square_fits(g, f) >> p.rot) & 1u);
}

/* Local segments of `kind` placed at `p` on frontier square `square` whose
 * feature would hold no follower once the tile is placed. A segment joins
 * every feature it touches, and two segments of the new tile that touch
 * one feature join each other: occupation spreads from the segments that
 * touch an occupied feature to every segment that shares a feature with an
 * occupied one. Each touched feature is kept once, with the mask of the
 * new segments touching it. */
static unsigned free_segments(const carc_game *g, int kind, int rot, int square)
{
    const frontier_square *sq = &g->frontier[square];
    const uint8_t *own = carc_port_seg[kind][rot];
    seg_id roots[CARC_PORTS];
    uint16_t touching[CARC_PORTS] = {0};
    int nroots = 0;
    unsigned occupied = 0;
    for (int d = 0; d < 4; d++) {
        if (sq->neighbour[d] == NO_TILE)
            continue;
        const board_tile *nb = &g->tiles[sq->neighbour[d]];
        int facing = 3 * ((d + 2) & 3); /* first port of the neighbour's edge */
        const uint8_t *theirs = &carc_port_seg[nb->kind][nb->rot][facing];
        int last = -1, i = 0;
        for (int k = 0; k < 3; k++) {
            int ns = nb->seg_base + theirs[2 - k];
            unsigned bit = 1u << own[3 * d + k];
            if (ns != last) {
                int root = feature_root(g, ns);
                for (i = 0; i < nroots && roots[i] != root; i++)
                    ;
                if (i == nroots) {
                    roots[nroots] = (seg_id)root;
                    touching[nroots++] = 0;
                }
                if (seg_followers(&g->seg[root]))
                    occupied |= bit;
                last = ns;
            }
            touching[i] = (uint16_t)(touching[i] | bit);
        }
    }
    for (unsigned before = ~occupied; before != occupied;) {
        before = occupied;
        for (int i = 0; i < nroots; i++)
            if (touching[i] & occupied)
                occupied |= touching[i];
    }
    unsigned all = (1u << carc_tile_data[kind].nsegments) - 1;
#if LAYOUT_WIDE
    /* No follower stands on the river. */
    for (int s = 0; s < carc_tile_data[kind].nsegments; s++)
        if (carc_tile_data[kind].segments[s].kind == CARC_RIVER)
            all &= ~(1u << s);
#endif
    return all & ~occupied;
}

int carc_legal_spots(const carc_game *g, carc_placement p, carc_spot *out, int cap)
{
    if (g->over || g->supply[g->current] == 0 || !carc_placement_legal(g, p))
        return 0;
    int kind = g->drawn, n = 0;
    unsigned free_mask = free_segments(g, kind, p.rot, board_frontier_at(g, p.x, p.y));
    for (; free_mask; free_mask &= free_mask - 1) {
        int s = __builtin_ctz(free_mask);
        if (n < cap)
            out[n] = (carc_spot){(uint8_t)s, carc_tile_data[kind].segments[s].kind,
                                 carc_spot_port[kind][p.rot][s]};
        n++;
    }
    return n;
}

/* --- Every legal move -------------------------------------------------------- */

/* The lowest rotation of `kind` that puts the same tile on the board as
 * `rot`. The rotations that leave a tile unchanged form a subgroup of the
 * four (none, the half turn, or all), so the distinct rotations are the
 * first 4, 2 or 1, and a rotation's class is its remainder. */
static int canonical_rotation(int kind, int rot)
{
    int distinct = __builtin_popcount(carc_distinct_rotations[kind]);
    return rot % distinct;
}

carc_move carc_move_canonical(const carc_game *g, carc_move m)
{
    if (g->over || m.type != CARC_MOVE_PLACE || m.place.rot > 3)
        return m;
    int kind = g->drawn, rot = canonical_rotation(kind, m.place.rot);
    if (m.segment != CARC_NO_SPOT) {
        if (m.segment >= carc_tile_data[kind].nsegments)
            return m;
        /* The segment covering the same board ports; a cloister has none
         * and keeps its index. */
        unsigned ports = carc_seg_ports[kind][m.place.rot][m.segment];
        if (ports)
            m.segment = carc_port_seg[kind][rot][__builtin_ctz(ports)];
    }
    m.place.rot = (uint8_t)rot;
    return m;
}

/* Stores `m` at out[n] when there is room; returns n + 1. */
static int add_move(carc_move *out, int cap, int n, carc_move m)
{
    if (n < cap)
        out[n] = m;
    return n + 1;
}

int carc_legal_moves(const carc_game *g, carc_move *out, int cap)
{
    if (g->over)
        return 0;
    int kind = g->drawn, n = 0;
    unsigned distinct = carc_distinct_rotations[kind];
    int supply = g->supply[g->current] > 0;
    for (int f = 0; f < g->nfrontier; f++) {
        const frontier_square *sq = &g->frontier[f];
        for (unsigned rots = square_fits(g, f) & distinct; rots; rots &= rots - 1) {
            int rot = __builtin_ctz(rots);
            carc_move m = {CARC_MOVE_PLACE, {sq->x, sq->y, (uint8_t)rot, 0}, CARC_NO_SPOT};
            n = add_move(out, cap, n, m);
            unsigned free_mask = supply ? free_segments(g, kind, rot, f) : 0;
            for (; free_mask; free_mask &= free_mask - 1) {
                m.segment = (uint8_t)__builtin_ctz(free_mask);
                n = add_move(out, cap, n, m);
            }
        }
    }
    if (n == 0)
        n = add_move(out, cap, n, (carc_move){CARC_MOVE_DISCARD, {0, 0, 0, 0}, CARC_NO_SPOT});
    return n;
}

/* --- Playing ------------------------------------------------------------------ */

/* Whether two squares touch, diagonals included. */
static int near(int ax, int ay, int bx, int by)
{
    return ((unsigned)(ax - bx + 1) <= 2u) & ((unsigned)(ay - by + 1) <= 2u);
}

/* Counts the tiles around a new cloister, tells the open cloisters around
 * the new tile that one more neighbour is there, and scores those that are
 * now surrounded. */
static void update_cloisters(carc_game *g, int t, event_sink *sink)
{
    const board_tile *bt = &g->tiles[t];
    int cs = carc_cloister_seg[bt->kind];
    if (cs != 255) {
        int neighbours = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if ((dx || dy) && board_tile_at(g, bt->x + dx, bt->y + dy) >= 0)
                    neighbours++;
        seg_node *node = &g->seg[bt->seg_base + cs];
        node->root = (node->root & ~(root_word)ROOT_OPEN_FIELD) | (root_word)(8 - neighbours)
                                                                      << ROOT_OPEN_SHIFT;
        g->cloisters[g->ncloisters++] =
            (open_cloister){bt->x, bt->y, (uint8_t)t, (seg_id)(bt->seg_base + cs)};
    }
    for (int i = 0; i < g->ncloisters;) {
        const open_cloister *c = &g->cloisters[i];
        seg_node *cl = &g->seg[c->seg];
        /* Arithmetic, not a branch: whether the tile is near is random. */
        unsigned touches = (unsigned)(c->tile != t) & (unsigned)near(c->x, c->y, bt->x, bt->y);
        cl->root -= touches * ROOT_OPEN_ONE;
        if (seg_open(cl) == 0) {
            score_completed(g, c->seg, sink);
            g->cloisters[i] = g->cloisters[--g->ncloisters];
        } else {
            i++;
        }
    }
}

/* Scores the roads and cities that the new tile `t` completed. */
static void score_roads_and_cities(carc_game *g, int t, event_sink *sink)
{
    const board_tile *bt = &g->tiles[t];
    const carc_tile_def *def = &carc_tile_data[bt->kind];
    int done[CARC_MAX_SEGMENTS_PER_TILE], ndone = 0;
    for (int s = 0; s < def->nsegments; s++) {
        if (def->segments[s].kind != CARC_ROAD && def->segments[s].kind != CARC_CITY)
            continue;
        int root = feature_root(g, bt->seg_base + s);
        if (seg_open(&g->seg[root]) != 0)
            continue;
        int seen = 0;
        for (int i = 0; i < ndone; i++)
            seen |= done[i] == root;
        if (seen)
            continue;
        done[ndone++] = root;
        score_completed(g, root, sink);
    }
}

static void deploy(carc_game *g, int t, int local)
{
    board_tile *bt = &g->tiles[t];
    bt->follower_seg = (uint8_t)local;
    bt->follower_owner = g->current;
    g->follower_tiles[t >> 6] |= 1ull << (t & 63);
    g->seg[feature_root(g, bt->seg_base + local)].root += (root_word)1
                                                          << (FOLLOWER_BITS * g->current);
    g->supply[g->current]--;
}

/* A move as plain integers. The playout step passes moves this way: a
 * carc_move built byte by byte and read back as a word stalls the CPU's
 * store forwarding. */
typedef struct move_fields {
    int type, x, y, rot, segment;
    int square; /* the frontier square of a placement */
} move_fields;

static void record_move(carc_game *g, const move_fields *m)
{
    history_entry *h = &g->history[g->nmoves++];
    h->tile_kind = (uint8_t)g->drawn;
    h->player = g->current;
    h->move.type = (uint8_t)m->type;
    h->move.place.x = (int8_t)m->x;
    h->move.place.y = (int8_t)m->y;
    h->move.place.rot = (uint8_t)m->rot;
    h->move.place.reserved = 0;
    h->move.segment = (uint8_t)m->segment;
}

static int surrounded(const carc_game *g, int x, int y)
{
    for (int d = 0; d < 4; d++)
        if (board_tile_at(g, x + carc_dx[d], y + carc_dy[d]) < 0)
            return 0;
    return 1;
}

/* Draws the next tile; with an empty pile the game ends. */
static void end_turn(carc_game *g, int same_player, event_sink *sink)
{
    if (!same_player) {
        int next = g->current + 1;
        g->current = (uint8_t)(next == g->nplayers ? 0 : next); /* no division */
    }
    draw_tile(g);
    if (g->drawn < 0) {
        g->over = 1;
        score_final(g, sink);
    }
}

static carc_status check_move(carc_game *g, carc_move m)
{
    const carc_tile_def *def = &carc_tile_data[g->drawn];
    if (m.type == CARC_MOVE_DISCARD) {
        carc_placement p;
        if (carc_legal_placements(g, &p, 1) > 0) {
            game_set_error(g, "tile %s fits at %d %d rotation %d and cannot be discarded", def->id,
                           p.x, p.y, p.rot);
            return CARC_EILLEGAL;
        }
        return CARC_OK;
    }
    if (m.type != CARC_MOVE_PLACE || m.place.rot > 3) {
        game_set_error(g, "not a move");
        return CARC_EINVAL;
    }
    if (!carc_placement_legal(g, m.place)) {
        int x = m.place.x, y = m.place.y;
#if LAYOUT_WIDE
        int f = board_frontier_at(g, x, y);
        if (is_river_kind(g->drawn) && g->river.open && f >= 0 &&
            (x != g->river.x || y != g->river.y)) {
            game_set_error(g, "tile %s must continue the river at %d %d", def->id, g->river.x,
                           g->river.y);
            return CARC_EILLEGAL;
        }
        if (is_river_kind(g->drawn) && f >= 0 && g->river.open &&
            ((carc_sig_fits[g->frontier[f].sig][g->drawn] >> m.place.rot) & 1u) &&
            river_u_turn(g, g->drawn, m.place.rot)) {
            game_set_error(g, "tile %s at %d %d rotation %d would turn the river back: a U-turn",
                           def->id, x, y, m.place.rot);
            return CARC_EILLEGAL;
        }
#endif
        if (board_tile_at(g, x, y) >= 0)
            game_set_error(g, "square %d %d is taken", x, y);
        else if (board_frontier_at(g, x, y) < 0)
            game_set_error(g, "square %d %d touches no tile", x, y);
        else
            game_set_error(g, "tile %s does not fit at %d %d rotation %d", def->id, x, y,
                           m.place.rot);
        return CARC_EILLEGAL;
    }
    if (m.segment == CARC_NO_SPOT)
        return CARC_OK;
    if (m.segment >= def->nsegments) {
        game_set_error(g, "tile %s has no segment %d", def->id, m.segment);
        return CARC_EINVAL;
    }
    if (def->segments[m.segment].kind == CARC_RIVER) {
        game_set_error(g, "segment %d of tile %s is the river: no follower may stand on it",
                       m.segment, def->id);
        return CARC_EILLEGAL;
    }
    if (g->supply[g->current] == 0) {
        game_set_error(g, "player %d has no follower left", g->current + 1);
        return CARC_EILLEGAL;
    }
    int square = board_frontier_at(g, m.place.x, m.place.y);
    if (!(free_segments(g, g->drawn, m.place.rot, square) & (1u << m.segment))) {
        game_set_error(g, "the feature of that spot already holds a follower");
        return CARC_EILLEGAL;
    }
    return CARC_OK;
}

/* Plays `m`, which must be legal; a placement goes on frontier square
 * `square`. */
static void apply_move(carc_game *g, const move_fields *m, event_sink *sink)
{
    record_move(g, m);
    int again = 1;
    if (m->type == CARC_MOVE_PLACE) {
        int closed;
        int t = board_place(g, g->drawn, m->x, m->y, m->rot, m->square, &closed);
#if LAYOUT_WIDE
        if (is_river_kind(g->drawn))
            river_advance(g, g->drawn, m->rot, m->x, m->y);
#endif
        if (m->segment != CARC_NO_SPOT)
            deploy(g, t, m->segment);
        if (closed)
            score_roads_and_cities(g, t, sink);
        update_cloisters(g, t, sink);
        again = (g->rules.flags & CARC_RULE_BONUS_TURN) && surrounded(g, m->x, m->y);
    }
    end_turn(g, again, sink);
}

carc_status carc_game_play(carc_game *g, carc_move m, carc_event *events, int cap, int *nevents)
{
    event_sink sink = {events, events ? cap : 0, 0};
    if (nevents)
        *nevents = 0;
    if (g->over) {
        game_set_error(g, "the game is over");
        return CARC_EOVER;
    }
    carc_status st = check_move(g, m);
    if (st != CARC_OK)
        return st;
    move_fields f = {m.type, m.place.x, m.place.y, m.place.rot, m.segment, -1};
    if (m.type == CARC_MOVE_PLACE)
        f.square = board_frontier_at(g, m.place.x, m.place.y);
    apply_move(g, &f, &sink);
    if (nevents)
        *nevents = sink.count;
    return CARC_OK;
}

/* The i-th set bit of `mask`. */
static int nth_bit(unsigned mask, unsigned i)
{
    for (; i > 0; i--)
        mask &= mask - 1;
    return __builtin_ctz(mask);
}

static carc_move move_of(const move_fields *f)
{
    carc_placement p = {(int8_t)f->x, (int8_t)f->y, (uint8_t)f->rot, 0};
    return (carc_move){(uint8_t)f->type, p, (uint8_t)f->segment};
}

/* The move carc_random_move() chooses, into `m`. */
static void choose_random(const carc_game *g, carc_rng *r, double follower_chance, move_fields *m)
{
    m->segment = CARC_NO_SPOT;
    if (placement_count(g) == 0) {
        *m = (move_fields){CARC_MOVE_DISCARD, 0, 0, 0, CARC_NO_SPOT, -1};
        return;
    }
    m->type = CARC_MOVE_PLACE;
    carc_placement p = random_placement(g, r, &m->square);
    m->x = p.x;
    m->y = p.y;
    m->rot = p.rot;
    /* A 53-bit uniform fraction decides whether to try a follower. */
    double u = (double)(rng_next(r) >> 11) * 0x1.0p-53;
    if (u < follower_chance && g->supply[g->current] > 0) {
        unsigned free_mask = free_segments(g, g->drawn, p.rot, m->square);
        unsigned n = 0;
        for (unsigned rest = free_mask; rest; rest &= rest - 1)
            n++;
        if (n > 0)
            m->segment = nth_bit(free_mask, rng_below(r, n));
    }
}

carc_move carc_random_move(const carc_game *g, carc_rng *r, double follower_chance)
{
    if (g->over)
        return (carc_move){CARC_MOVE_DISCARD, {0, 0, 0, 0}, CARC_NO_SPOT};
    move_fields f;
    choose_random(g, r, follower_chance, &f);
    return move_of(&f);
}

carc_status carc_game_play_random(carc_game *g, carc_rng *r, double follower_chance,
                                  carc_move *played)
{
    if (g->over) {
        game_set_error(g, "the game is over");
        return CARC_EOVER;
    }
    move_fields f;
    choose_random(g, r, follower_chance, &f);
    if (played)
        *played = move_of(&f);
    apply_move(g, &f, NULL);
    return CARC_OK;
}

carc_status carc_game_finish(carc_game *g, carc_event *events, int cap, int *nevents)
{
    event_sink sink = {events, events ? cap : 0, 0};
    if (nevents)
        *nevents = 0;
    if (g->over) {
        game_set_error(g, "the game is over");
        return CARC_EOVER;
    }
    g->over = 1;
    g->ended_early = 1;
    /* The drawn tile was never played: back into the pile, so that what is
     * left after an `end` (and the digest) does not depend on the deal. */
    if (g->drawn >= 0)
        put_back_drawn(g);
    score_final(g, &sink);
    if (nevents)
        *nevents = sink.count;
    return CARC_OK;
}

/* --- Scores ---------------------------------------------------------------------- */

static int valid_player(const carc_game *g, int p)
{
    return p >= 0 && p < g->nplayers;
}

int carc_game_score(const carc_game *g, int player)
{
    return valid_player(g, player) ? g->score[player] : 0;
}

int carc_game_score_of(const carc_game *g, int player, carc_kind kind)
{
    if (!valid_player(g, player) || (unsigned)kind > CARC_CLOISTER)
        return 0;
    return g->score_by_kind[player][kind];
}

int carc_game_supply(const carc_game *g, int player)
{
    return valid_player(g, player) ? g->supply[player] : 0;
}

unsigned carc_game_leaders(const carc_game *g)
{
    unsigned mask = 0;
    int best = 0;
    for (int p = 0; p < g->nplayers; p++) {
        if (mask == 0 || g->score[p] > best) {
            best = g->score[p];
            mask = 1u << p;
        } else if (g->score[p] == best) {
            mask |= 1u << p;
        }
    }
    return mask;
}

/* --- History ---------------------------------------------------------------- */

int carc_game_move_player(const carc_game *g, int i)
{
    return i >= 0 && i < g->nmoves ? g->history[i].player : -1;
}

int carc_game_move_count(const carc_game *g)
{
    return g->nmoves;
}

carc_status carc_game_move_at(const carc_game *g, int i, carc_move *m, int *tile_kind)
{
    if (i < 0 || i >= g->nmoves)
        return CARC_EINVAL;
    if (m)
        *m = g->history[i].move;
    if (tile_kind)
        *tile_kind = g->history[i].tile_kind;
    return CARC_OK;
}
