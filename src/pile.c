/* pile.c: the pile (pile.h): how many tiles of each kind a tile set puts
 * in it, its shuffles, what the next draw can give, and a record's choice
 * of the drawn tile. */
#include <string.h>

#include "pile.h"
#include "hand.h"
#include "moves.h"
#include "tiles.h"

/* Copies of `kind` in the pile at the start of a game with `rules`. */
static int pile_count(const carc_rules *rules, int kind)
{
    if (kind < 0 || kind >= LAYOUT_KINDS || kind >= CARC_ALL_KINDS)
        return 0;
    const carc_tile_def *def = &carc_tile_data[kind];
    if (def->set & ~rules->expansions)
        return 0;
    /* The start tile is one of its kind, unless it is drawn
     * (start-in-pile) or an extra one (extra-start-tile). */
    int start = kind == caps_start_kind(rules) &&
                !(rules->flags & (CARC_RULE_START_IN_PILE | CARC_RULE_EXTRA_START_TILE));
    return caps_pile_count(rules, kind, def->count - start);
}

int pile_start_kind(const carc_rules *rules)
{
    return caps_start_kind(rules);
}

/* Fisher-Yates over pile[lo .. hi), from the top down (out of line:
 * inlined into shuffle() it reads the pile and the generator through `g`
 * at every step, 4 instructions a tile more). */
__attribute__((noinline)) static void shuffle_tiles(uint8_t *pile, carc_rng *rng, int lo, int hi)
{
    for (int i = hi - 1; i > lo; i--) {
        int j = lo + (int)rng_below(rng, (uint32_t)(i - lo) + 1);
        uint8_t t = pile[i];
        pile[i] = pile[j];
        pile[j] = t;
    }
}

static void shuffle_range(carc_game *g, int lo, int hi)
{
    shuffle_tiles(g->pile, &g->rng, lo, hi);
}

void pile_settle(carc_game *g)
{
    while (g->pile_pending > 0)
        pile_shuffle_step(g);
}

int pile_part_sizes(const carc_game *g, int *sizes)
{
    memset(sizes, 0, PILE_PARTS * sizeof sizes[0]);
    if (!caps_pile_parted(g)) {
        sizes[0] = g->pile_len;
        return 0;
    }
    for (int k = 0; k < LAYOUT_KINDS; k++)
        sizes[caps_pile_part(g, k)] += g->left[k];
    return g->pile_len - sizes[0];
}

/* Tiles of the parts above the main pile. */
static int tiles_above_main(const carc_game *g)
{
    int sizes[PILE_PARTS];
    return pile_part_sizes(g, sizes);
}

/* Shuffles the pile, each part on its own, the lowest first. */
static void shuffle(carc_game *g)
{
    if (!caps_pile_parted(g)) {
        shuffle_range(g, 0, g->pile_len);
        return;
    }
    int sizes[PILE_PARTS], lo = 0;
    pile_part_sizes(g, sizes);
    for (int part = 0; part < PILE_PARTS; part++) {
        shuffle_range(g, lo, lo + sizes[part]);
        lo += sizes[part];
    }
}

/* Lays out the pile from the counts in `g->left`: its parts from the
 * lowest up (drawn last to first: the pile's top is its end), each by
 * kind. Returns the tiles above the main pile. */
static int pile_from_counts(carc_game *g)
{
    int n = 0, above = 0;
    if (!caps_pile_parted(g)) {
        for (int k = 0; k < LAYOUT_KINDS; k++)
            for (int c = g->left[k]; c > 0; c--)
                g->pile[n++] = (uint8_t)k;
        g->pile_len = (uint8_t)n;
        return 0;
    }
    /* The main pile in place, the parts above it aside: one pass. */
    uint8_t upper[PILE_PARTS][LAYOUT_TILES];
    int nupper[PILE_PARTS] = {0};
    for (int k = 0; k < LAYOUT_KINDS; k++) {
        int part = caps_pile_part(g, k);
        for (int c = g->left[k]; c > 0; c--)
            if (part == 0)
                g->pile[n++] = (uint8_t)k;
            else
                upper[part][nupper[part]++] = (uint8_t)k;
    }
    for (int part = 1; part < PILE_PARTS; part++) {
        memcpy(&g->pile[n], upper[part], (size_t)nupper[part]);
        n += nupper[part];
        above += nupper[part];
    }
    g->pile_len = (uint8_t)n;
    return above;
}

/* The tiles of a game with `rules`: the start tile (unless start-in-pile
 * counts it in the pile) and the pile's. */
static int tile_total(const carc_rules *rules)
{
    int n = !(rules->flags & CARC_RULE_START_IN_PILE);
    for (int k = 0; k < LAYOUT_KINDS; k++)
        n += pile_count(rules, k);
    return n;
}

void pile_deal(carc_game *g)
{
    g->tile_total = (uint8_t)(LAYOUT_WIDE ? tile_total(&g->rules) : BASE_TILES);
    g->pile_pending = 0;
    for (int k = 0; k < LAYOUT_KINDS; k++)
        g->left[k] = (uint8_t)pile_count(&g->rules, k);
    pile_from_counts(g);
    shuffle(g);
}

void pile_put_back_drawn(carc_game *g)
{
    g->pile[g->pile_len++] = (uint8_t)g->drawn;
    g->left[g->drawn]++;
    g->drawn = -1;
}

/* --- reshuffle and start-in-pile ------------------------------------------------ */

int pile_may_return(const carc_game *g, int kind)
{
    if (!(g->rules.flags & CARC_RULE_RESHUFFLE) || caps_pile_part(g, kind) > 0)
        return 0;
    /* Each return may cost one more move and one more draw later. */
    int ahead = g->pile_len + hand_tiles(g) + 2;
    int draws = hand_in_game(&g->rules) ? g->hand.ndraws : 0;
    return g->nmoves + ahead < MAX_HISTORY && draws + ahead < MAX_DRAWS;
}

void pile_return(carc_game *g, int kind)
{
    pile_settle(g);
    int main_len = g->pile_len - tiles_above_main(g);
    int at = main_len > 0 ? (int)rng_below(&g->rng, (uint32_t)main_len) : 0;
    memmove(&g->pile[at + 1], &g->pile[at], (size_t)(g->pile_len - at));
    g->pile[at] = (uint8_t)kind;
    g->pile_len++;
    g->left[kind]++;
}

int pile_any_fits(const carc_game *g)
{
    if (tiles_above_main(g) > 0)
        return 1; /* they are drawn and laid or set aside first */
    for (int k = 0; k < LAYOUT_KINDS; k++)
        if (g->left[k] && moves_kind_fits(g, k))
            return 1;
    return 0;
}

int pile_draw_start(carc_game *g)
{
    pile_deal(g);
    pile_draw(g);
    int kind = g->drawn;
    g->drawn = -1;
    return kind;
}

/* --- Public queries and a record's draws --------------------------------------- */

int carc_game_tiles_left(const carc_game *g, int counts[CARC_MAX_KINDS])
{
    if (counts)
        for (int k = 0; k < CARC_ALL_KINDS; k++)
            counts[k] = k < LAYOUT_KINDS ? g->left[k] : 0;
    return g->pile_len;
}

int carc_game_next_tiles(const carc_game *g, int counts[CARC_MAX_KINDS])
{
    int sizes[PILE_PARTS], top = PILE_PARTS - 1;
    if (pile_part_sizes(g, sizes) == 0)
        return carc_game_tiles_left(g, counts);
    /* The highest part that holds a tile. */
    while (top > 0 && sizes[top] == 0)
        top--;
    int n = 0;
    for (int k = 0; k < CARC_ALL_KINDS; k++) {
        int c = k < LAYOUT_KINDS && caps_pile_part(g, k) == top ? g->left[k] : 0;
        if (counts)
            counts[k] = c;
        n += c;
    }
    return n;
}

int carc_game_draw_pool(const carc_game *g, int counts[CARC_MAX_KINDS])
{
    int n = 0;
    if (hand_in_game(&g->rules)) { /* no tile drawn this turn: a hand's */
        if (counts)
            memset(counts, 0, CARC_MAX_KINDS * sizeof counts[0]);
        return 0;
    }
    if (counts)
        memset(counts, 0, CARC_ALL_KINDS * sizeof counts[0]);
    if (g->over)
        return 0;
    /* The draw came from the drawn tile's part of the pile. */
    int part = caps_pile_part(g, g->drawn);
    for (int k = 0; k < LAYOUT_KINDS; k++) {
        if (caps_pile_part(g, k) != part)
            continue;
        int c = g->left[k] + (k == g->drawn);
        if (counts)
            counts[k] = c;
        n += c;
    }
    return n;
}

int carc_game_tile_total(const carc_game *g)
{
    /* The evaluations ask at every leaf: a constant in the base game, else
     * counted once (pile_deal). */
    return LAYOUT_WIDE ? g->tile_total : BASE_TILES;
}

int carc_game_kind_total(const carc_game *g, int kind)
{
    return pile_count(&g->rules, kind);
}

int carc_game_river_phase(const carc_game *g)
{
    return !g->over && caps_pile_part(g, g->drawn) > 0;
}

carc_status carc_game_choose_tile(carc_game *g, int kind)
{
    if (g->over) {
        game_set_error(g, "the game is over");
        return CARC_EOVER;
    }
    if (hand_in_game(&g->rules)) {
        game_set_error(g, "a hand game names its draws with carc_game_draw (a record's `draw`)");
        return CARC_EINVAL;
    }
    const carc_tile_def *def = carc_tile(kind);
    if (!def) {
        game_set_error(g, "no tile kind %d", kind);
        return CARC_EINVAL;
    }
    if (kind == g->drawn)
        return CARC_OK;
    if (caps_draw_error(g, g->drawn, kind))
        return CARC_EILLEGAL;
    if (kind < LAYOUT_KINDS && g->left[kind]) {
        /* The draw came from the drawn tile's part of the pile. */
        int sizes[PILE_PARTS], part = caps_pile_part(g, g->drawn), lo = 0;
        pile_part_sizes(g, sizes);
        for (int p = 0; p < part; p++)
            lo += sizes[p];
        pile_settle(g); /* the order, to find a copy in it */
        for (int i = lo; i < lo + sizes[part]; i++)
            if (g->pile[i] == kind) {
                g->pile[i] = (uint8_t)g->drawn;
                g->left[g->drawn]++;
                g->left[kind]--;
                g->drawn = (int8_t)kind;
                return CARC_OK;
            }
    }
    game_set_error(g, "no tile %s is left in the pile", def->id);
    return CARC_EILLEGAL;
}

void carc_game_shuffle_pile(carc_game *g, uint64_t seed)
{
    if (g->over)
        return;
    pile_settle(g);                /* the order this seed shuffles again */
    if (hand_in_game(&g->rules)) { /* the hands keep their tiles */
        g->rng = carc_rng_seed(seed);
        shuffle(g);
        return;
    }
    pile_put_back_drawn(g);
    g->rng = carc_rng_seed(seed);
    shuffle(g);
    pile_draw(g);
}

void pile_deal_hidden(carc_game *g, int seat)
{
    /* Rebuilt from the counts first, so the result depends on what the
     * seat knows and on the generator, never on the hidden order: steps
     * still owed to an earlier order are dropped with it. */
    g->pile_pending = 0;
    hand_deal_hidden(g, seat);
    int above = pile_from_counts(g), main_len = g->pile_len - above;
    if (above <= 1) /* shuffle() would take the main pile's steps alone */
        g->pile_pending = (uint8_t)(main_len > 1 ? main_len : 0);
    else
        shuffle(g);
}

void carc_game_shuffle_hidden(carc_game *g, uint64_t seed)
{
    if (g->over)
        return;
    g->rng = carc_rng_seed(seed);
    pile_deal_hidden(g, g->current);
}

/* --- Saving the hidden deal ------------------------------------------------------ */

int carc_game_deal(const carc_game *g, int *kinds, int cap, uint64_t *generator)
{
    /* The order and the generator as they are with the steps still owed
     * taken (pile_settle), worked out on copies: `g` is not changed. */
    uint8_t pile[LAYOUT_TILES];
    carc_rng rng = g->rng;
    memcpy(pile, g->pile, sizeof pile);
    shuffle_tiles(pile, &rng, 0, g->pile_pending);
    if (generator)
        *generator = rng.state;
    for (int i = 0; i < g->pile_len && i < cap; i++)
        kinds[i] = pile[g->pile_len - 1 - i]; /* the pile is drawn from its end */
    return g->pile_len;
}

/* Whether `kind` may lie where the pile's tile `here` lies: in the same
 * part of the pile. */
static int same_place(const carc_game *g, int kind, int here)
{
    return caps_pile_part(g, kind) == caps_pile_part(g, here);
}

carc_status carc_game_set_deal(carc_game *g, const int *kinds, int n, uint64_t generator)
{
    if (n != g->pile_len) {
        game_set_error(g, "the pile holds %d tiles, not %d", g->pile_len, n);
        return CARC_EINVAL;
    }
    uint8_t order[LAYOUT_TILES] = {0};
    int used[LAYOUT_KINDS] = {0};
    for (int i = 0; i < n; i++) {
        int kind = kinds[i], at = n - 1 - i;
        if (kind < 0 || kind >= LAYOUT_KINDS || ++used[kind] > g->left[kind]) {
            game_set_error(g, "tile %d of the order: the pile holds no (more) tiles of kind %d",
                           i + 1, kind);
            return CARC_EINVAL;
        }
        if (!same_place(g, kind, g->pile[at])) {
            game_set_error(g, "tile %d of the order: %s cannot lie where %s lies", i + 1,
                           carc_tile_id(kind), carc_tile_id(g->pile[at]));
            return CARC_EINVAL;
        }
        order[at] = (uint8_t)kind;
    }
    memcpy(g->pile, order, (size_t)n);
    g->rng.state = generator;
    g->pile_pending = 0; /* an order and generator given whole */
    return CARC_OK;
}
