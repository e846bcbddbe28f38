/* test_river.c: The River through the public API only. Thousands of random
 * river games checked move by move (the river pile first, the lake last,
 * tile totals, no follower on the river, scores never fall, records that
 * read back to the same game, features that match a flood fill of the
 * board: farms cut by the river, joined round the spring and the lake); the
 * catalogue's river tiles against river.md's table; the legal placements of
 * every river tile compared with a small model of the river written here
 * from the tile table of river.md (open end, fit, U-turn rule); copies,
 * clones, public views and hidden shuffles keep the river's order; the base
 * game is as it was. CARC_RIVER_GAMES overrides the number of random
 * games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carcassonne.h"

enum {
    RIVER_PILE = 11,       /* river tiles drawn: 10 shuffled, the lake last */
    RIVER_TOTAL = 83,      /* spring + 11 river tiles + 71 base tiles */
    KEEP_START_TOTAL = 84, /* river-keep-start: the fourth D too */
    BASE_TOTAL = 72,
    RECORD_CAP = 16384,
};

/* --- The river tiles of river.md, edges N E S W at rotation 0 ------------- */

typedef struct river_def {
    const char *id;
    const char *edges; /* C city, R road, F field, I river */
    int count;         /* copies in the river pile (the spring: 0) */
} river_def;

static const river_def river_defs[] = {
    {"RA", "FIFF", 0}, {"RB", "CIRI", 1}, {"RC", "CICI", 1}, {"RD", "FIFI", 2}, {"RE", "CIIC", 1},
    {"RG", "FFII", 2}, {"RH", "FIRI", 1}, {"RI", "RRII", 1}, {"RK", "IRIR", 1}, {"RL", "FFFI", 1},
};
enum { RIVER_DEFS = (int)(sizeof river_defs / sizeof river_defs[0]) };

static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};

static const river_def *river_def_by_id(int kind)
{
    const char *id = carc_tile_id(kind);
    for (int i = 0; i < RIVER_DEFS; i++)
        if (strcmp(river_defs[i].id, id) == 0)
            return &river_defs[i];
    return NULL;
}

/* The river tile of a kind by its id, or NULL; each kind's answer kept
 * once found (the random games ask it millions of times: half the test's
 * time went in comparing ids). */
static const river_def *river_def_of(int kind)
{
    static const river_def *known[CARC_MAX_KINDS];
    static unsigned char done[CARC_MAX_KINDS];
    if (kind < 0 || kind >= CARC_MAX_KINDS)
        return river_def_by_id(kind);
    if (!done[kind]) {
        known[kind] = river_def_by_id(kind);
        done[kind] = 1;
    }
    return known[kind];
}

static int is_river_kind(int kind)
{
    return river_def_of(kind) != NULL;
}

/* Edge letter of board edge `d` of a river tile at `rot`: edge d shows the
 * rotation-0 edge (d - rot) mod 4 (tiles.md). */
static char river_edge(const river_def *def, int rot, int d)
{
    return def->edges[(d - rot + 4) % 4];
}

static int kind_of(const char *id)
{
    int k = carc_tile_parse(id);
    assert_true(k >= 0);
    return k;
}

/* --- A model of the river, rebuilt from the board ---------------------------- */

typedef struct river_model {
    int ntiles;
    int x[CARC_MAX_TILES], y[CARC_MAX_TILES], rot[CARC_MAX_TILES];
    const river_def *def[CARC_MAX_TILES];
    int open;        /* 1 while the river has an open end */
    int ox, oy, dir; /* the square holding the open end, and its edge */
    int last_in;     /* direction of flow into the last river tile, -1 none */
} river_model;

static int model_at(const river_model *m, int x, int y)
{
    for (int i = 0; i < m->ntiles; i++)
        if (m->x[i] == x && m->y[i] == y)
            return i;
    return -1;
}

/* Follows the river from the spring through the tiles in the order placed;
 * every tile on the board during the river phase is a river tile. */
static void model_build(river_model *m, const carc_game *g)
{
    memset(m, 0, sizeof *m);
    m->ntiles = carc_game_tile_count(g);
    for (int i = 0; i < m->ntiles; i++) {
        carc_tile_on_board t;
        assert_int_equal(carc_game_tile_info(g, i, &t), CARC_OK);
        m->x[i] = t.x;
        m->y[i] = t.y;
        m->rot[i] = t.rot;
        m->def[i] = river_def_of(t.kind);
        assert_non_null(m->def[i]);
    }
    assert_string_equal(m->def[0]->id, "RA");
    assert_int_equal(m->x[0], 0);
    assert_int_equal(m->y[0], 0);
    assert_int_equal(m->rot[0], 0);
    m->open = 1;
    m->ox = 0;
    m->oy = 0;
    m->dir = 1; /* the spring's river flows east */
    m->last_in = -1;
    for (int i = 1; i < m->ntiles; i++) {
        assert_true(m->open);
        /* Each river tile sits in front of the open end, a river port on
         * the edge that faces it. */
        assert_int_equal(m->x[i], m->ox + dx[m->dir]);
        assert_int_equal(m->y[i], m->oy + dy[m->dir]);
        int entry = (m->dir + 2) % 4, exit = -1;
        assert_int_equal(river_edge(m->def[i], m->rot[i], entry), 'I');
        for (int d = 0; d < 4; d++)
            if (d != entry && river_edge(m->def[i], m->rot[i], d) == 'I')
                exit = d;
        m->last_in = m->dir;
        if (exit < 0) {
            m->open = 0;
        } else {
            m->ox = m->x[i];
            m->oy = m->y[i];
            m->dir = exit;
        }
    }
}

/* The legal placements of a river tile by river.md: the square in front of
 * the open end, a river port meeting it, every touching edge fitting, and
 * no exit opposite to the flow into the last river tile. Every fitting
 * rotation counts (RD at 0 and 2). Returns the count. */
static int model_placements(const river_model *m, const river_def *def, carc_placement *out)
{
    if (!m->open)
        return 0;
    int qx = m->ox + dx[m->dir], qy = m->oy + dy[m->dir], entry = (m->dir + 2) % 4, n = 0;
    if (model_at(m, qx, qy) >= 0)
        return 0;
    for (int rot = 0; rot < 4; rot++) {
        if (river_edge(def, rot, entry) != 'I')
            continue;
        int fits = 1, exit = -1;
        for (int d = 0; d < 4 && fits; d++) {
            if (d != entry && river_edge(def, rot, d) == 'I')
                exit = d;
            int j = model_at(m, qx + dx[d], qy + dy[d]);
            if (j >= 0 && river_edge(def, rot, d) != river_edge(m->def[j], m->rot[j], (d + 2) % 4))
                fits = 0;
        }
        if (!fits || (exit >= 0 && m->last_in >= 0 && exit == (m->last_in + 2) % 4))
            continue;
        out[n++] = (carc_placement){(int8_t)qx, (int8_t)qy, (uint8_t)rot, 0};
    }
    return n;
}

static int placement_order(const void *a, const void *b)
{
    const carc_placement *p = a, *q = b;
    int ka = (p->x * 256 + p->y) * 4 + p->rot, kb = (q->x * 256 + q->y) * 4 + q->rot;
    return (ka > kb) - (ka < kb);
}

/* --- river.md's segment table ------------------------------------------------- */

/* Each segment as "K:PORTS" or "K:PORTS>P": K is C city, R road, F field,
 * I river, L cloister (no ports); P is a port of the city the field
 * borders. Rotation 0. */
typedef struct river_segments {
    const char *id;
    const char *segs[CARC_MAX_SEGMENTS_PER_TILE];
} river_segments;

static const river_segments river_table[] = {
    {"RA", {"I:E", "F:NNW N NNE ENE ESE SSE S SSW WSW W WNW"}},
    {"RB", {"C:NNW N NNE", "I:E W", "R:S", "F:ENE>N", "F:ESE SSE", "F:SSW WSW", "F:WNW>N"}},
    {"RC", {"C:NNW N NNE", "C:SSE S SSW", "I:E W", "F:ENE WNW>N", "F:ESE WSW>S"}},
    {"RD", {"I:E W", "F:WNW NNW N NNE ENE", "F:ESE SSE S SSW WSW"}},
    {"RE", {"C:NNW N NNE WSW W WNW", "I:E S", "F:ENE SSW>N", "F:ESE SSE"}},
    {"RG", {"I:S W", "F:WNW NNW N NNE ENE E ESE SSE", "F:SSW WSW"}},
    {"RH", {"L:", "I:E W", "R:S", "F:WNW NNW N NNE ENE", "F:ESE SSE", "F:SSW WSW"}},
    {"RI", {"I:S W", "R:N E", "F:ESE SSE WNW NNW", "F:NNE ENE", "F:SSW WSW"}},
    {"RK", {"I:N S", "R:E W", "F:WNW NNW", "F:NNE ENE", "F:ESE SSE", "F:SSW WSW"}},
    {"RL", {"I:W", "F:NNW N NNE ENE E ESE SSE S SSW WSW WNW"}},
};

static const char *const port_names[CARC_PORTS] = {"NNW", "N", "NNE", "ENE", "E", "ESE",
                                                   "SSE", "S", "SSW", "WSW", "W", "WNW"};

static int port_of(const char *name, size_t len)
{
    for (int p = 0; p < CARC_PORTS; p++)
        if (strlen(port_names[p]) == len && strncmp(port_names[p], name, len) == 0)
            return p;
    fail_msg("no port '%.*s'", (int)len, name);
    return -1;
}

/* The port bits of a blank-separated list ending at NUL or '>'. */
static unsigned ports_of(const char *text, const char **end)
{
    unsigned bits = 0;
    while (*text && *text != '>') {
        size_t n = strcspn(text, " >");
        if (n > 0)
            bits |= 1u << port_of(text, n);
        text += n;
        if (*text == ' ')
            text++;
    }
    *end = text;
    return bits;
}

static int kind_letter(char c)
{
    switch (c) {
    case 'C': return CARC_CITY;
    case 'R': return CARC_ROAD;
    case 'F': return CARC_FIELD;
    case 'L': return CARC_CLOISTER;
    default: return CARC_RIVER;
    }
}

/* The segment of `def` holding the ports `ports` exactly, of kind `kind`. */
static int find_segment(const carc_tile_def *def, int kind, unsigned ports)
{
    int found = -1;
    for (int i = 0; i < def->nsegments; i++)
        if (def->segments[i].kind == kind && def->segments[i].ports == ports) {
            assert_int_equal(found, -1);
            found = i;
        }
    return found;
}

/* --- Features by flood fill --------------------------------------------------- */

/* Segments of the board joined across every edge where their ports meet,
 * from the catalogue's ports turned by hand (port p at rotation r is board
 * port p + 3r mod 12; ports meet their mirror). The river's ports join
 * nothing but river, so it cuts fields as a road does; the spring's and the
 * lake's one field joins both banks. */
enum { MAX_NODES = CARC_MAX_TILES * CARC_MAX_SEGMENTS_PER_TILE };

typedef struct flood {
    int ntiles;
    carc_tile_on_board tile[CARC_MAX_TILES];
    int parent[MAX_NODES];
} flood;

static int flood_root(flood *f, int n)
{
    while (f->parent[n] != n)
        n = f->parent[n] = f->parent[f->parent[n]];
    return n;
}

static int mirror_port(int p)
{
    return 3 * ((p / 3 + 2) % 4) + (2 - p % 3);
}

/* Local segment of board tile `t` holding board port `port`, or -1. */
static int flood_segment(const flood *f, int t, int port)
{
    const carc_tile_def *def = carc_tile(f->tile[t].kind);
    int local = (port - 3 * f->tile[t].rot + 12) % 12;
    for (int i = 0; i < def->nsegments; i++)
        if (def->segments[i].ports >> local & 1u)
            return i;
    return -1;
}

static int flood_at(const flood *f, int x, int y)
{
    for (int t = 0; t < f->ntiles; t++)
        if (f->tile[t].x == x && f->tile[t].y == y)
            return t;
    return -1;
}

static void flood_build(flood *f, const carc_game *g)
{
    f->ntiles = carc_game_tile_count(g);
    for (int t = 0; t < f->ntiles; t++)
        assert_int_equal(carc_game_tile_info(g, t, &f->tile[t]), CARC_OK);
    for (int n = 0; n < MAX_NODES; n++)
        f->parent[n] = n;
    for (int t = 0; t < f->ntiles; t++) {
        for (int d = 1; d <= 2; d++) { /* east and south neighbours */
            int u = flood_at(f, f->tile[t].x + dx[d], f->tile[t].y + dy[d]);
            if (u < 0)
                continue;
            for (int p = 3 * d; p < 3 * d + 3; p++) {
                int a = flood_segment(f, t, p), b = flood_segment(f, u, mirror_port(p));
                assert_true(a >= 0 && b >= 0);
                int ra = flood_root(f, t * CARC_MAX_SEGMENTS_PER_TILE + a);
                int rb = flood_root(f, u * CARC_MAX_SEGMENTS_PER_TILE + b);
                f->parent[ra] = rb;
            }
        }
    }
}

typedef struct feature_pair {
    int feature, root;
} feature_pair;

static int by_feature(const void *a, const void *b)
{
    const feature_pair *p = a, *q = b;
    return p->feature != q->feature ? (p->feature > q->feature) - (p->feature < q->feature)
                                    : (p->root > q->root) - (p->root < q->root);
}

static int by_root(const void *a, const void *b)
{
    const feature_pair *p = a, *q = b;
    return p->root != q->root ? (p->root > q->root) - (p->root < q->root)
                              : (p->feature > q->feature) - (p->feature < q->feature);
}

/* The engine's features (roads, cities, cloisters, farms) are the flood
 * fill's components, one for one, of the same kind and the same number of
 * tiles. */
static void check_features(const carc_game *g)
{
    static flood f;
    static feature_pair pairs[MAX_NODES];
    flood_build(&f, g);
    int n = 0;
    for (int t = 0; t < f.ntiles; t++) {
        const carc_tile_def *def = carc_tile(f.tile[t].kind);
        for (int s = 0; s < def->nsegments; s++) {
            if (def->segments[s].kind == CARC_RIVER)
                continue;
            int id = carc_game_feature(g, t, s);
            carc_feature info;
            assert_true(id >= 0);
            assert_int_equal(carc_game_feature_info(g, id, &info), CARC_OK);
            assert_int_equal(info.kind, def->segments[s].kind);
            pairs[n++] = (feature_pair){id, flood_root(&f, t * CARC_MAX_SEGMENTS_PER_TILE + s)};
        }
    }
    qsort(pairs, (size_t)n, sizeof pairs[0], by_feature);
    for (int i = 1; i < n; i++)
        if (pairs[i].feature == pairs[i - 1].feature && pairs[i].root != pairs[i - 1].root)
            fail_msg("after %d moves: feature %d joins segments the flood fill keeps apart",
                     carc_game_move_count(g), pairs[i].feature);
    qsort(pairs, (size_t)n, sizeof pairs[0], by_root);
    for (int i = 1; i < n; i++)
        if (pairs[i].root == pairs[i - 1].root && pairs[i].feature != pairs[i - 1].feature)
            fail_msg("after %d moves: features %d and %d are one by the flood fill",
                     carc_game_move_count(g), pairs[i - 1].feature, pairs[i].feature);
    /* Distinct tiles of each component: each tile counts once per root. */
    static int tiles[MAX_NODES];
    memset(tiles, 0, sizeof tiles);
    for (int t = 0; t < f.ntiles; t++) {
        const carc_tile_def *def = carc_tile(f.tile[t].kind);
        int roots[CARC_MAX_SEGMENTS_PER_TILE], nroots = 0;
        for (int s = 0; s < def->nsegments; s++) {
            if (def->segments[s].kind == CARC_RIVER)
                continue;
            int r = flood_root(&f, t * CARC_MAX_SEGMENTS_PER_TILE + s), dup = 0;
            for (int k = 0; k < nroots; k++)
                dup |= roots[k] == r;
            if (!dup) {
                roots[nroots++] = r;
                tiles[r]++;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        if (i > 0 && pairs[i].root == pairs[i - 1].root)
            continue;
        carc_feature info;
        assert_int_equal(carc_game_feature_info(g, pairs[i].feature, &info), CARC_OK);
        if (info.kind != CARC_CLOISTER && info.tiles != tiles[pairs[i].root])
            fail_msg("after %d moves: feature %d (kind %d) covers %d tiles, the flood fill %d",
                     carc_game_move_count(g), pairs[i].feature, info.kind, info.tiles,
                     tiles[pairs[i].root]);
    }
}

/* --- Helpers -------------------------------------------------------------------- */

static carc_rules river_rules(int keep_start)
{
    carc_rules r = {.flags = keep_start ? CARC_RULE_RIVER_KEEP_START : 0u,
                    .expansions = CARC_EXPANSION_RIVER};
    return r;
}

static int games_to_play(int fallback)
{
    const char *v = getenv("CARC_RIVER_GAMES");
    int n = v ? atoi(v) : 0;
    return n > 0 ? n : fallback;
}

static int sum_counts(const int *counts)
{
    int sum = 0;
    for (int k = 0; k < carc_tile_kinds(); k++)
        sum += counts[k];
    return sum;
}

static int river_left(const int *counts)
{
    int sum = 0;
    for (int k = 0; k < carc_tile_kinds(); k++)
        if (is_river_kind(k))
            sum += counts[k];
    return sum;
}

/* What the next draw can give: river tiles while the river pile lasts (the
 * lake only as the last), then the main pile. */
static void check_next_tiles(const carc_game *g)
{
    int left[CARC_MAX_KINDS], next[CARC_MAX_KINDS];
    int nleft = carc_game_tiles_left(g, left), nnext = carc_game_next_tiles(g, next);
    int rl = kind_of("RL");
    assert_int_equal(nleft, sum_counts(left));
    assert_int_equal(nnext, sum_counts(next));
    int rivers = river_left(left);
    for (int k = 0; k < carc_tile_kinds(); k++) {
        if (rivers == 0)
            assert_int_equal(next[k], left[k]);
        else if (!is_river_kind(k))
            assert_int_equal(next[k], 0);
        else if (k == rl)
            assert_int_equal(next[k], rivers == 1 ? left[k] : 0);
        else
            assert_int_equal(next[k], left[k]);
    }
    if (rivers > 0) {
        assert_true(nnext > 0);
        assert_int_equal(left[rl], 1); /* the lake is always the last */
    }
}

/* The pool the drawn tile came from: the drawn tile and the tiles left it
 * could have been. While the river is laid: the river pile, the lake only
 * when it is the drawn tile; after that, the main pile. With `choose`,
 * carc_game_choose_tile() must accept exactly the kinds of the pool. */
static void check_draw_pool(const carc_game *g, int choose)
{
    int left[CARC_MAX_KINDS], pool[CARC_MAX_KINDS];
    int drawn = carc_game_drawn_tile(g), rl = kind_of("RL");
    carc_game_tiles_left(g, left);
    int n = carc_game_draw_pool(g, pool);
    assert_int_equal(n, sum_counts(pool));
    left[drawn]++;
    for (int k = 0; k < carc_tile_kinds(); k++) {
        int want = left[k];
        if (is_river_kind(drawn) != is_river_kind(k) || (k == rl && drawn != rl))
            want = 0;
        assert_int_equal(pool[k], want);
        if (!choose)
            continue;
        carc_game *c = carc_game_clone(g);
        assert_non_null(c);
        assert_int_equal(carc_game_choose_tile(c, k) == CARC_OK, want > 0);
        carc_game_free(c);
    }
}

/* No follower on the board stands on a river segment. */
static void check_no_follower_on_river(const carc_game *g)
{
    for (int i = 0; i < carc_game_tile_count(g); i++) {
        carc_tile_on_board t;
        assert_int_equal(carc_game_tile_info(g, i, &t), CARC_OK);
        if (t.follower_segment == CARC_NO_SPOT)
            continue;
        const carc_tile_def *def = carc_tile(t.kind);
        assert_true(t.follower_segment < def->nsegments);
        assert_int_not_equal(def->segments[t.follower_segment].kind, CARC_RIVER);
    }
}

/* The draws of a game: river tiles first (the lake the 11th), then the main
 * pile. Call before each move with the drawn tile. */
typedef struct draw_order {
    int river_draws, main_draws;
} draw_order;

static void check_draw(draw_order *o, const carc_game *g)
{
    int k = carc_game_drawn_tile(g);
    assert_true(k >= 0);
    assert_int_equal(carc_game_river_phase(g) != 0, is_river_kind(k));
    if (is_river_kind(k)) {
        assert_int_equal(o->main_draws, 0);
        assert_string_not_equal(carc_tile_id(k), "RA");
        o->river_draws++;
        assert_true(o->river_draws <= RIVER_PILE);
        assert_int_equal(strcmp(carc_tile_id(k), "RL") == 0, o->river_draws == RIVER_PILE);
    } else {
        assert_int_equal(o->river_draws, RIVER_PILE);
        o->main_draws++;
    }
}

/* Plays `g` to its end with random moves, checking the order of the draws
 * from `o` on. */
static void play_out(carc_game *g, draw_order *o, carc_rng *rng)
{
    while (!carc_game_over(g)) {
        check_draw(o, g);
        assert_int_equal(carc_game_play_random(g, rng, 0.3, NULL), CARC_OK);
    }
    assert_int_equal(o->river_draws, RIVER_PILE);
}

static void check_record_round_trip(const carc_game *g, uint64_t seed)
{
    static char text[RECORD_CAP];
    size_t len = carc_record_write(g, NULL, text, sizeof text);
    assert_true(len < sizeof text);
    assert_non_null(strstr(text, "expansions river\n"));
    if (carc_game_rules(g).flags & CARC_RULE_RIVER_KEEP_START)
        assert_non_null(strstr(text, "river-keep-start"));
    carc_record_error err;
    carc_game *h = carc_record_read(text, len, seed, &err);
    if (!h)
        fail_msg("record does not read back: line %d: %s\n%s", err.line, err.message, text);
    /* The reader guesses the tile drawn after the last move from its seed;
     * the digest covers it, so draw the same one first. */
    if (!carc_game_over(g))
        assert_int_equal(carc_game_choose_tile(h, carc_game_drawn_tile(g)), CARC_OK);
    assert_int_equal(carc_game_digest(h), carc_game_digest(g));
    assert_int_equal(carc_game_move_count(h), carc_game_move_count(g));
    assert_int_equal(carc_game_over(h), carc_game_over(g));
    for (int p = 0; p < carc_game_players(g); p++)
        assert_int_equal(carc_game_score(h, p), carc_game_score(g, p));
    assert_int_equal(carc_game_rules(h).expansions, CARC_EXPANSION_RIVER);
    assert_int_equal(carc_game_rules(h).flags, carc_game_rules(g).flags);
    carc_game_free(h);
}

/* --- Tests -------------------------------------------------------------------------- */

/* Totals of a new river game: river.md's counts and the start. */
static void test_new_river_game(void **state)
{
    (void)state;
    for (int keep = 0; keep < 2; keep++) {
        carc_rules rules = river_rules(keep);
        carc_game *g = carc_game_new(3, &rules, 11);
        assert_non_null(g);
        assert_int_equal(carc_game_tile_total(g), keep ? KEEP_START_TOTAL : RIVER_TOTAL);
        assert_int_equal(carc_game_kind_total(g, kind_of("D")), keep ? 4 : 3);
        assert_int_equal(carc_game_kind_total(g, kind_of("E")), 5);
        for (int i = 0; i < RIVER_DEFS; i++)
            assert_int_equal(carc_game_kind_total(g, kind_of(river_defs[i].id)),
                             river_defs[i].count);
        /* The pile: every tile of the supply but the spring. */
        int pile = 0;
        for (int k = 0; k < carc_tile_kinds(); k++)
            pile += carc_game_kind_total(g, k);
        assert_int_equal(pile, carc_game_tile_total(g) - 1);
        assert_int_equal(carc_game_tile_count(g), 1);
        carc_tile_on_board t;
        assert_int_equal(carc_game_tile_info(g, 0, &t), CARC_OK);
        assert_string_equal(carc_tile_id(t.kind), "RA");
        assert_true(t.x == 0 && t.y == 0 && t.rot == 0);
        assert_true(carc_game_river_phase(g));
        assert_int_equal(carc_game_tiles_left(g, NULL), carc_game_tile_total(g) - 2);
        /* The first river tile goes east of the spring. */
        carc_placement p[CARC_MAX_PLACEMENTS];
        int n = carc_legal_placements(g, p, CARC_MAX_PLACEMENTS);
        assert_true(n > 0);
        for (int i = 0; i < n; i++)
            assert_true(p[i].x == 1 && p[i].y == 0);
        /* Neither a main-pile tile nor the lake can be drawn now. */
        assert_int_not_equal(carc_game_choose_tile(g, kind_of("E")), CARC_OK);
        assert_int_not_equal(carc_game_choose_tile(g, kind_of("RL")), CARC_OK);
        assert_int_not_equal(carc_game_choose_tile(g, kind_of("RA")), CARC_OK);
        assert_int_equal(carc_game_choose_tile(g, kind_of("RK")), CARC_OK);
        assert_string_equal(carc_tile_id(carc_game_drawn_tile(g)), "RK");
        carc_game_free(g);
    }
}

/* The catalogue's river tiles are river.md's table: edges, counts, set,
 * segments with their ports and the cities their fields border. */
static void test_catalogue_is_river_md(void **state)
{
    (void)state;
    for (size_t t = 0; t < sizeof river_table / sizeof river_table[0]; t++) {
        const river_segments *want = &river_table[t];
        int kind = kind_of(want->id);
        const carc_tile_def *def = carc_tile(kind);
        const river_def *rd = river_def_of(kind);
        assert_non_null(def);
        assert_non_null(rd);
        assert_int_equal(def->set, CARC_EXPANSION_RIVER);
        assert_int_equal(def->count, strcmp(want->id, "RA") == 0 ? 1 : rd->count);
        for (int d = 0; d < 4; d++)
            assert_int_equal(def->edges[d], kind_letter(rd->edges[d]));
        int n = 0;
        for (; n < CARC_MAX_SEGMENTS_PER_TILE && want->segs[n]; n++) {
            const char *spec = want->segs[n], *end = NULL;
            unsigned ports = ports_of(spec + 2, &end);
            int seg = find_segment(def, kind_letter(spec[0]), ports);
            if (seg < 0)
                fail_msg("tile %s has no segment %s", want->id, spec);
            unsigned borders = 0;
            if (*end == '>') {
                int city = -1, port = port_of(end + 1, strlen(end + 1));
                for (int i = 0; i < def->nsegments; i++)
                    if (def->segments[i].kind == CARC_CITY && (def->segments[i].ports >> port & 1u))
                        city = i;
                if (city < 0)
                    fail_msg("tile %s: no city at the port after '>' in %s", want->id, spec);
                else
                    borders = 1u << city;
            }
            assert_int_equal(def->segments[seg].borders, borders);
        }
        assert_int_equal(def->nsegments, n);
    }
}

/* Legal placements of each river tile in two positions, counted by hand
 * from river.md's table. At the start the open end is the spring's east
 * port: every tile but the lake meets it at two rotations (straights run
 * W-E either way round; bends turn north or south), all at 1 0. After RG 1
 * 0 0 (in east, out south) the open end faces 1 1 from the north: the
 * straights still fit at two rotations, but each bend has one: out east
 * (the S-bend), out west being a U-turn. */
static void test_placement_counts(void **state)
{
    (void)state;
    static const struct {
        const char *id;
        int at_start, after_bend;
    } want[] = {
        {"RB", 2, 2}, {"RC", 2, 2}, {"RD", 2, 2}, {"RE", 2, 1},
        {"RG", 2, 1}, {"RH", 2, 2}, {"RI", 2, 1}, {"RK", 2, 2},
    };
    const char *text = "players 2\nexpansions river\nRG 1 0 0\n";
    carc_record_error err;
    carc_rules rules = river_rules(0);
    carc_game *start = carc_game_new(2, &rules, 3);
    carc_game *bent = carc_record_read(text, strlen(text), 3, &err);
    assert_non_null(start);
    assert_non_null(bent);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        carc_placement p[CARC_MAX_PLACEMENTS];
        carc_game *c = carc_game_clone(start);
        assert_int_equal(carc_game_choose_tile(c, kind_of(want[i].id)), CARC_OK);
        int n = carc_legal_placements(c, p, CARC_MAX_PLACEMENTS);
        assert_int_equal(n, want[i].at_start);
        for (int j = 0; j < n; j++)
            assert_true(p[j].x == 1 && p[j].y == 0);
        carc_game_free(c);
        c = carc_game_clone(bent);
        assert_int_equal(carc_game_choose_tile(c, kind_of(want[i].id)), CARC_OK);
        n = carc_legal_placements(c, p, CARC_MAX_PLACEMENTS);
        assert_int_equal(n, want[i].after_bend);
        for (int j = 0; j < n; j++)
            assert_true(p[j].x == 1 && p[j].y == 1);
        carc_game_free(c);
    }
    /* The bends' one placement after the bend: out east. */
    carc_game *c = carc_game_clone(bent);
    assert_int_equal(carc_game_choose_tile(c, kind_of("RG")), CARC_OK);
    assert_true(carc_placement_legal(c, (carc_placement){1, 1, 2, 0}));
    assert_false(carc_placement_legal(c, (carc_placement){1, 1, 1, 0}));
    carc_game_free(c);
    carc_game_free(bent);
    carc_game_free(start);
}

/* Random river games: every move checked, the record read back. */
static void test_random_river_games(void **state)
{
    (void)state;
    int games = games_to_play(10000), discards_seen = 0;
    for (int i = 0; i < games; i++) {
        int keep = i % 4 == 3, players = 2 + i % 5;
        carc_rules rules = river_rules(keep);
        carc_game *g = carc_game_new(players, &rules, (uint64_t)i * 7919u + 1u);
        assert_non_null(g);
        carc_rng rng = carc_rng_seed((uint64_t)i + 100u);
        int total = keep ? KEEP_START_TOTAL : RIVER_TOTAL, discards = 0;
        int last_score[CARC_MAX_PLAYERS] = {0};
        draw_order o = {0, 0};
        assert_int_equal(carc_game_tile_total(g), total);
        while (!carc_game_over(g)) {
            check_draw(&o, g);
            check_next_tiles(g);
            check_draw_pool(g, i % 50 == 0);
            /* Every tile is somewhere: on the board, discarded, drawn or
             * still in a pile. */
            assert_int_equal(carc_game_tile_count(g) + discards + 1 + carc_game_tiles_left(g, NULL),
                             total);
            carc_move m;
            double chance = (i % 3) * 0.5;
            assert_int_equal(carc_game_play_random(g, &rng, chance, &m), CARC_OK);
            discards += m.type == CARC_MOVE_DISCARD;
            check_no_follower_on_river(g);
            for (int p = 0; p < players; p++) {
                assert_true(carc_game_score(g, p) >= last_score[p]);
                last_score[p] = carc_game_score(g, p);
            }
            if (i % 50 == 0)
                check_record_round_trip(g, (uint64_t)i);
            if (i % 20 == 0 || carc_game_move_count(g) == RIVER_PILE)
                check_features(g);
        }
        assert_int_equal(o.river_draws, RIVER_PILE);
        assert_int_equal(o.main_draws, total - 1 - RIVER_PILE);
        assert_int_equal(carc_game_move_count(g), total - 1);
        assert_int_equal(carc_game_tile_count(g) + discards, total);
        assert_int_equal(carc_game_tiles_left(g, NULL), 0);
        assert_int_equal(carc_game_draw_pool(g, NULL), 0);
        assert_false(carc_game_river_phase(g));
        discards_seen += discards;
        check_features(g);
        check_record_round_trip(g, (uint64_t)i + 1u);
        carc_game_free(g);
    }
    /* Random rivers box themselves in now and then: the discard path ran. */
    if (games >= 500)
        assert_true(discards_seen > 0);
}

/* Legal spots never include a river segment. */
static void test_spots_skip_the_river(void **state)
{
    (void)state;
    for (int i = 0; i < 200; i++) {
        carc_rules rules = river_rules(0);
        carc_game *g = carc_game_new(2, &rules, (uint64_t)i);
        assert_non_null(g);
        carc_rng rng = carc_rng_seed((uint64_t)i);
        while (!carc_game_over(g) && carc_game_river_phase(g)) {
            carc_placement p[CARC_MAX_PLACEMENTS];
            int n = carc_legal_placements(g, p, CARC_MAX_PLACEMENTS);
            const carc_tile_def *def = carc_tile(carc_game_drawn_tile(g));
            for (int j = 0; j < n && j < CARC_MAX_PLACEMENTS; j++) {
                carc_spot s[CARC_MAX_SPOTS];
                int ns = carc_legal_spots(g, p[j], s, CARC_MAX_SPOTS);
                int non_river = 0;
                for (int k = 0; k < def->nsegments; k++)
                    non_river += def->segments[k].kind != CARC_RIVER;
                assert_true(ns <= non_river);
                for (int k = 0; k < ns; k++) {
                    assert_int_not_equal(s[k].kind, CARC_RIVER);
                    assert_int_not_equal(def->segments[s[k].segment].kind, CARC_RIVER);
                }
            }
            assert_int_equal(carc_game_play_random(g, &rng, 1.0, NULL), CARC_OK);
        }
        check_no_follower_on_river(g);
        carc_game_free(g);
    }
}

/* Compares the engine's placements of river tile `kind` in the position
 * `g` (a clone made to draw it) with the model's. Returns the count. */
static int compare_placements(const carc_game *g, int kind, const river_model *m)
{
    carc_game *c = carc_game_clone(g);
    assert_non_null(c);
    assert_int_equal(carc_game_choose_tile(c, kind), CARC_OK);
    carc_placement want[4], got[CARC_MAX_PLACEMENTS];
    int nwant = model_placements(m, river_def_of(kind), want);
    int ngot = carc_legal_placements(c, got, CARC_MAX_PLACEMENTS);
    if (ngot != nwant) {
        fail_msg("tile %s after %d moves: the engine lists %d placements, the model %d",
                 carc_tile_id(kind), carc_game_move_count(g), ngot, nwant);
    }
    qsort(want, (size_t)nwant, sizeof want[0], placement_order);
    qsort(got, (size_t)ngot, sizeof got[0], placement_order);
    for (int i = 0; i < nwant; i++) {
        if (placement_order(&want[i], &got[i]) != 0)
            fail_msg("tile %s after %d moves: the engine lists %d %d rotation %d, the model "
                     "%d %d rotation %d",
                     carc_tile_id(kind), carc_game_move_count(g), got[i].x, got[i].y, got[i].rot,
                     want[i].x, want[i].y, want[i].rot);
        assert_true(carc_placement_legal(c, want[i]));
    }
    /* A U-turn or any other refused rotation at the open end is illegal. */
    if (m->open) {
        for (int rot = 0; rot < 4; rot++) {
            carc_placement p = {(int8_t)(m->ox + dx[m->dir]), (int8_t)(m->oy + dy[m->dir]),
                                (uint8_t)rot, 0};
            int listed = 0;
            for (int i = 0; i < nwant; i++)
                listed |= want[i].rot == rot;
            assert_int_equal(carc_placement_legal(c, p) != 0, listed);
        }
    }
    carc_move moves[CARC_MAX_MOVES];
    int nm = carc_legal_moves(c, moves, CARC_MAX_MOVES);
    if (nwant == 0) {
        assert_int_equal(nm, 1);
        assert_int_equal(moves[0].type, CARC_MOVE_DISCARD);
    } else {
        for (int i = 0; i < nm; i++)
            assert_int_equal(moves[i].type, CARC_MOVE_PLACE);
    }
    carc_game_free(c);
    return nwant;
}

/* The river rule (open end, fit, U-turn) against the model, for every river
 * tile the current draw could give, in many random positions. */
static void test_uturn_rule_against_model(void **state)
{
    (void)state;
    static river_model m;
    int games = games_to_play(10000) / 2, positions = 0, refused = 0;
    for (int i = 0; i < games; i++) {
        carc_rules rules = river_rules(i % 2);
        carc_game *g = carc_game_new(2, &rules, (uint64_t)i * 31u + 5u);
        assert_non_null(g);
        carc_rng rng = carc_rng_seed((uint64_t)i * 3u + 1u);
        while (!carc_game_over(g) && carc_game_river_phase(g)) {
            model_build(&m, g);
            int left[CARC_MAX_KINDS];
            carc_game_tiles_left(g, left);
            left[carc_game_drawn_tile(g)]++;
            int rivers = river_left(left);
            for (int k = 0; k < carc_tile_kinds(); k++) {
                if (!is_river_kind(k) || left[k] == 0)
                    continue;
                if (strcmp(carc_tile_id(k), "RL") == 0 && rivers > 1) {
                    /* The lake waits for the last draw of the river. */
                    carc_game *c = carc_game_clone(g);
                    assert_int_not_equal(carc_game_choose_tile(c, k), CARC_OK);
                    carc_game_free(c);
                    continue;
                }
                refused += compare_placements(g, k, &m) == 0;
                positions++;
            }
            assert_int_equal(carc_game_play_random(g, &rng, 0.0, NULL), CARC_OK);
        }
        carc_game_free(g);
    }
    print_message("%d positions compared, %d with no legal placement\n", positions, refused);
    assert_true(positions > games);
}

/* The river order survives a copy, a clone, a public view, a hidden
 * shuffle and a pile shuffle, made at every point of the river phase. */
static void test_copies_keep_river_order(void **state)
{
    (void)state;
    for (int i = 0; i < 40; i++) {
        int keep = i % 2;
        carc_rules rules = river_rules(keep);
        carc_game *g = carc_game_new(3, &rules, (uint64_t)i + 500u);
        carc_game *dst = carc_game_new(2, &rules, 1);
        carc_rules base = {0};
        carc_game *plain = carc_game_new(2, &base, 1);
        assert_non_null(g);
        assert_non_null(dst);
        carc_rng rng = carc_rng_seed((uint64_t)i);
        draw_order o = {0, 0};
        for (int step = 0; step <= RIVER_PILE + 1 && !carc_game_over(g); step++) {
            int counts[CARC_MAX_KINDS], again[CARC_MAX_KINDS];
            carc_game_tiles_left(g, counts);
            /* carc_game_copy: same expansions only. */
            assert_int_equal(carc_game_copy(dst, g), CARC_OK);
            assert_int_equal(carc_game_digest(dst), carc_game_digest(g));
            assert_int_equal(carc_game_copy(plain, g), CARC_EINVAL);
            draw_order oc = o;
            carc_rng r1 = carc_rng_seed((uint64_t)step);
            play_out(dst, &oc, &r1);
            assert_int_equal(carc_game_tile_total(dst), carc_game_tile_total(g));
            /* carc_game_clone */
            carc_game *c = carc_game_clone(g);
            assert_non_null(c);
            assert_int_equal(carc_game_tile_total(c), carc_game_tile_total(g));
            for (int k = 0; k < carc_tile_kinds(); k++)
                assert_int_equal(carc_game_kind_total(c, k), carc_game_kind_total(g, k));
            oc = o;
            play_out(c, &oc, &r1);
            /* carc_game_public_view: the same public state, river order kept */
            carc_game_public_view(c, g, (uint64_t)step * 13u);
            assert_int_equal(carc_game_digest(c), carc_game_digest(g));
            assert_int_equal(carc_game_drawn_tile(c), carc_game_drawn_tile(g));
            assert_int_equal(carc_game_tiles_left(c, again), carc_game_tiles_left(g, NULL));
            assert_memory_equal(again, counts, sizeof(int) * (size_t)carc_tile_kinds());
            oc = o;
            play_out(c, &oc, &r1);
            /* carc_game_shuffle_hidden: keeps the drawn tile and the counts */
            assert_int_equal(carc_game_copy(c, g), CARC_OK);
            carc_game_shuffle_hidden(c, (uint64_t)step + 77u);
            assert_int_equal(carc_game_drawn_tile(c), carc_game_drawn_tile(g));
            carc_game_tiles_left(c, again);
            assert_memory_equal(again, counts, sizeof(int) * (size_t)carc_tile_kinds());
            assert_int_equal(carc_game_digest(c), carc_game_digest(g));
            oc = o;
            play_out(c, &oc, &r1);
            /* carc_game_shuffle_pile: draws again, from the river while it
             * lasts. */
            assert_int_equal(carc_game_copy(c, g), CARC_OK);
            carc_game_shuffle_pile(c, (uint64_t)step + 99u);
            assert_int_equal(carc_game_river_phase(c), carc_game_river_phase(g));
            oc = o;
            play_out(c, &oc, &r1);
            carc_game_free(c);
            /* One step on in the original. */
            check_draw(&o, g);
            assert_int_equal(carc_game_play_random(g, &rng, 0.5, NULL), CARC_OK);
        }
        carc_game_free(plain);
        carc_game_free(dst);
        carc_game_free(g);
    }
}

/* The base game is unchanged: 72 tiles, 71 moves, no river anywhere. */
static void test_base_game_unchanged(void **state)
{
    (void)state;
    for (int i = 0; i < 200; i++) {
        carc_rules rules = {0};
        carc_game *g = carc_game_new(2 + i % 5, i % 2 ? &rules : NULL, (uint64_t)i);
        assert_non_null(g);
        assert_int_equal(carc_game_tile_total(g), BASE_TOTAL);
        assert_int_equal(carc_game_kind_total(g, kind_of("D")), 3);
        for (int j = 0; j < RIVER_DEFS; j++)
            assert_int_equal(carc_game_kind_total(g, kind_of(river_defs[j].id)), 0);
        carc_tile_on_board t;
        assert_int_equal(carc_game_tile_info(g, 0, &t), CARC_OK);
        assert_string_equal(carc_tile_id(t.kind), "D");
        assert_int_not_equal(carc_game_choose_tile(g, kind_of("RD")), CARC_OK);
        carc_rng rng = carc_rng_seed((uint64_t)i);
        while (!carc_game_over(g)) {
            assert_false(carc_game_river_phase(g));
            assert_false(is_river_kind(carc_game_drawn_tile(g)));
            int left[CARC_MAX_KINDS], next[CARC_MAX_KINDS];
            assert_int_equal(carc_game_next_tiles(g, next), carc_game_tiles_left(g, left));
            assert_memory_equal(next, left, sizeof(int) * (size_t)carc_tile_kinds());
            assert_int_equal(carc_game_play_random(g, &rng, 0.5, NULL), CARC_OK);
        }
        assert_int_equal(carc_game_move_count(g), BASE_TOTAL - 1);
        static char text[RECORD_CAP];
        size_t len = carc_record_write(g, NULL, text, sizeof text);
        assert_true(len < sizeof text);
        assert_null(strstr(text, "expansions"));
        carc_record_error err;
        carc_game *h = carc_record_read(text, len, 3, &err);
        assert_non_null(h);
        assert_int_equal(carc_game_digest(h), carc_game_digest(g));
        carc_game_free(h);
        carc_game_free(g);
    }
}

/* Rule and expansion lists (river.md, Details a reader must get right). */
static void test_rules_and_expansions(void **state)
{
    (void)state;
    char err[160];
    carc_rules r = {0};
    assert_int_equal(carc_expansions_parse("river", &r, err, sizeof err), CARC_OK);
    assert_int_equal(r.expansions, CARC_EXPANSION_RIVER);
    assert_int_equal(carc_rules_check(&r, err, sizeof err), CARC_OK);
    carc_rules twice = {0};
    assert_int_not_equal(carc_expansions_parse("river river", &twice, err, sizeof err), CARC_OK);
    assert_int_not_equal(carc_expansions_parse("lakes", &twice, err, sizeof err), CARC_OK);
    carc_rules keep = {.flags = CARC_RULE_RIVER_KEEP_START};
    assert_int_not_equal(carc_rules_check(&keep, err, sizeof err), CARC_OK);
    assert_null(carc_game_new(2, &keep, 1));
    carc_rules unknown = {.expansions = 1u << 7};
    assert_int_not_equal(carc_rules_check(&unknown, err, sizeof err), CARC_OK);
    assert_null(carc_game_new(2, &unknown, 1));
    carc_rules both = river_rules(1);
    assert_int_equal(carc_rules_check(&both, err, sizeof err), CARC_OK);
    assert_true(carc_game_size(&both) >= carc_game_size(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_and_expansions),
        cmocka_unit_test(test_catalogue_is_river_md),
        cmocka_unit_test(test_new_river_game),
        cmocka_unit_test(test_placement_counts),
        cmocka_unit_test(test_random_river_games),
        cmocka_unit_test(test_spots_skip_the_river),
        cmocka_unit_test(test_uturn_rule_against_model),
        cmocka_unit_test(test_copies_keep_river_order),
        cmocka_unit_test(test_base_game_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
