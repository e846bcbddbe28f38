/* support.c: the independent board model and game helpers of the unit
 * tests (see support.h). */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int sup_dx[4] = {0, 1, 0, -1};
const int sup_dy[4] = {-1, 0, 1, 0};

/* --- The catalogue, rotated by hand ----------------------------------------- */

static unsigned rotate_ports_by_hand(unsigned ports, int rot)
{
    unsigned out = 0;
    for (int p = 0; p < CARC_PORTS; p++)
        if (ports & (1u << p))
            out |= 1u << ((p + 3 * rot) % CARC_PORTS);
    return out;
}

unsigned sup_rotate_ports(unsigned ports, int rot)
{
    /* Kept once worked out, as sup_port_seg's answers (below); 0 is "not
     * worked out yet" for any ports but none, which turn to none. */
    static uint16_t known[4][1u << CARC_PORTS];
    if (rot < 0 || rot > 3 || ports >= 1u << CARC_PORTS)
        return rotate_ports_by_hand(ports, rot);
    if (ports && !known[rot][ports])
        known[rot][ports] = (uint16_t)rotate_ports_by_hand(ports, rot);
    return known[rot][ports];
}

/* The segment at a port, found by rotating each segment's ports by hand. */
static int port_seg_by_hand(int kind, int rot, int port)
{
    const carc_tile_def *def = carc_tile(kind);
    for (int s = 0; s < def->nsegments; s++)
        if (sup_rotate_ports(def->segments[s].ports, rot) & (1u << port))
            return s;
    return -1;
}

int sup_port_seg(int kind, int rot, int port)
{
    /* Each answer is worked out by hand once and kept (the board model's
     * flood asks it most: 40% of the invariant test's time otherwise, and
     * the unit tests' time is the sanitizer pass's);
     * 0 is "not worked out yet", else the segment plus 2 (-1 for none). */
    static signed char known[CARC_MAX_KINDS][4][CARC_PORTS];
    if (kind < 0 || kind >= CARC_MAX_KINDS || rot < 0 || rot > 3 || port < 0 || port >= CARC_PORTS)
        return port_seg_by_hand(kind, rot, port);
    signed char *k = &known[kind][rot][port];
    if (!*k)
        *k = (signed char)(port_seg_by_hand(kind, rot, port) + 2);
    return *k - 2;
}

int sup_port_kind(int kind, int rot, int port)
{
    int s = sup_port_seg(kind, rot, port);
    return s < 0 ? -1 : carc_tile(kind)->segments[s].kind;
}

int sup_edge(int kind, int rot, int d)
{
    return carc_tile(kind)->edges[(d - rot + 4) % 4];
}

int sup_mirror(int port)
{
    /* Port k of edge d (k = 0, 1, 2 clockwise) meets port 2 - k of the
     * opposite edge. */
    int d = port / 3, k = port % 3;
    return 3 * ((d + 2) % 4) + (2 - k);
}

int sup_cloister_seg(int kind)
{
    const carc_tile_def *def = carc_tile(kind);
    for (int s = 0; s < def->nsegments; s++)
        if (def->segments[s].kind == CARC_CLOISTER)
            return s;
    return -1;
}

/* --- The board model ---------------------------------------------------------- */

void model_clear(model *m)
{
    m->ntiles = 0;
    m->nfeatures = 0;
    memset(m->grid, 0, sizeof m->grid);
}

int model_tile_at(const model *m, int x, int y)
{
    int gx = x + MODEL_OFFSET, gy = y + MODEL_OFFSET;
    if (gx < 0 || gy < 0 || gx >= MODEL_GRID || gy >= MODEL_GRID)
        return -1;
    return m->grid[gy][gx] - 1;
}

void model_add(model *m, int x, int y, int kind, int rot)
{
    assert_true(m->ntiles < CARC_MAX_TILES);
    assert_int_equal(model_tile_at(m, x, y), -1);
    int t = m->ntiles++;
    m->tiles[t] = (model_tile){x, y, kind, rot, -1, 0};
    m->grid[y + MODEL_OFFSET][x + MODEL_OFFSET] = (int16_t)(t + 1);
}

void model_read_followers(model *m, const carc_game *g)
{
    for (int t = 0; t < m->ntiles; t++) {
        carc_tile_on_board info;
        assert_int_equal(carc_game_tile_info(g, t, &info), CARC_OK);
        m->tiles[t].follower_seg =
            info.follower_segment == CARC_NO_SPOT ? -1 : info.follower_segment;
        m->tiles[t].follower_owner = info.follower_owner;
    }
}

void model_from_game(model *m, const carc_game *g)
{
    model_clear(m);
    int n = carc_game_tile_count(g);
    for (int t = 0; t < n; t++) {
        carc_tile_on_board info;
        assert_int_equal(carc_game_tile_info(g, t, &info), CARC_OK);
        model_add(m, info.x, info.y, info.kind, info.rot);
    }
    model_read_followers(m, g);
    model_features(m);
}

int model_fits(const model *m, int kind, int x, int y, int rot)
{
    if (model_tile_at(m, x, y) >= 0)
        return 0;
    int touching = 0;
    for (int d = 0; d < 4; d++) {
        int n = model_tile_at(m, x + sup_dx[d], y + sup_dy[d]);
        if (n < 0)
            continue;
        touching = 1;
        const model_tile *nb = &m->tiles[n];
        for (int k = 0; k < 3; k++) {
            int p = 3 * d + k;
            if (sup_port_kind(kind, rot, p) != sup_port_kind(nb->kind, nb->rot, sup_mirror(p)))
                return 0;
        }
    }
    return touching;
}

int sup_placement_cmp(const carc_placement *a, const carc_placement *b)
{
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return a->rot < b->rot ? -1 : a->rot > b->rot;
}

static int placement_qsort_cmp(const void *a, const void *b)
{
    return sup_placement_cmp(a, b);
}

void sup_sort_placements(carc_placement *p, int n)
{
    qsort(p, (size_t)n, sizeof *p, placement_qsort_cmp);
}

int model_placements(const model *m, int kind, carc_placement *out, int cap)
{
    /* Every empty square beside a tile, each tried once. */
    static uint8_t seen[MODEL_GRID][MODEL_GRID];
    int n = 0;
    memset(seen, 0, sizeof seen);
    for (int t = 0; t < m->ntiles; t++)
        for (int d = 0; d < 4; d++) {
            int x = m->tiles[t].x + sup_dx[d], y = m->tiles[t].y + sup_dy[d];
            if (model_tile_at(m, x, y) >= 0 || seen[y + MODEL_OFFSET][x + MODEL_OFFSET])
                continue;
            seen[y + MODEL_OFFSET][x + MODEL_OFFSET] = 1;
            for (int rot = 0; rot < 4; rot++)
                if (model_fits(m, kind, x, y, rot)) {
                    if (n < cap)
                        out[n] = (carc_placement){(int8_t)x, (int8_t)y, (uint8_t)rot, 0};
                    n++;
                }
        }
    if (out)
        sup_sort_placements(out, n < cap ? n : cap);
    return n;
}

static int node_tile(int node)
{
    return node / MODEL_SEGS;
}
static int node_seg(int node)
{
    return node % MODEL_SEGS;
}

/* Segment ports of a board tile, in board directions. */
static unsigned tile_seg_ports(const model_tile *t, int seg)
{
    return sup_rotate_ports(carc_tile(t->kind)->segments[seg].ports, t->rot);
}

/* Breadth-first search from `start`: every segment reached across tile
 * edges through matching ports joins the feature. Returns the node count. */
static int flood(model *m, int start, int feature, int first)
{
    int head = first, tail = first;
    m->order[tail++] = start;
    m->feature_of[start] = feature;
    while (head < tail) {
        int node = m->order[head++];
        const model_tile *t = &m->tiles[node_tile(node)];
        unsigned ports = tile_seg_ports(t, node_seg(node));
        for (int p = 0; p < CARC_PORTS; p++) {
            if (!(ports & (1u << p)))
                continue;
            int d = p / 3;
            int n = model_tile_at(m, t->x + sup_dx[d], t->y + sup_dy[d]);
            if (n < 0)
                continue;
            const model_tile *nb = &m->tiles[n];
            int s = sup_port_seg(nb->kind, nb->rot, sup_mirror(p));
            assert_true(s >= 0);
            int next = n * MODEL_SEGS + s;
            if (m->feature_of[next] < 0) {
                m->feature_of[next] = feature;
                m->order[tail++] = next;
            }
        }
    }
    return tail - first;
}

static int empty_neighbours(const model *m, int x, int y)
{
    int empty = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && model_tile_at(m, x + dx, y + dy) < 0)
                empty++;
    return empty;
}

static void measure(model *m, model_feature *f)
{
    uint8_t tile_seen[CARC_MAX_TILES] = {0};
    for (int i = f->first; i < f->first + f->count; i++) {
        int node = m->order[i], ti = node_tile(node), seg = node_seg(node);
        const model_tile *t = &m->tiles[ti];
        const carc_tile_def *def = carc_tile(t->kind);
        if (!tile_seen[ti]) {
            tile_seen[ti] = 1;
            f->tiles++;
        }
        f->pennants += def->segments[seg].pennant;
        if (t->follower_seg == seg) {
            f->followers[t->follower_owner]++;
            f->nfollowers++;
        }
        if (f->kind == CARC_ROAD || f->kind == CARC_CITY) {
            unsigned ports = tile_seg_ports(t, seg);
            for (int d = 0; d < 4; d++)
                if ((ports & (1u << (3 * d + 1))) &&
                    model_tile_at(m, t->x + sup_dx[d], t->y + sup_dy[d]) < 0)
                    f->open++;
        } else if (f->kind == CARC_CLOISTER) {
            f->open = empty_neighbours(m, t->x, t->y);
        }
    }
    f->complete = f->kind != CARC_FIELD && f->open == 0;
}

/* Completed cities that a farm borders, each counted once. */
static void count_farm_cities(model *m, model_feature *f)
{
    static uint8_t city_seen[MODEL_NODES];
    memset(city_seen, 0, sizeof city_seen);
    for (int i = f->first; i < f->first + f->count; i++) {
        int node = m->order[i];
        const model_tile *t = &m->tiles[node_tile(node)];
        unsigned borders = carc_tile(t->kind)->segments[node_seg(node)].borders;
        for (int c = 0; c < MODEL_SEGS; c++) {
            if (!(borders & (1u << c)))
                continue;
            int city = m->feature_of[node_tile(node) * MODEL_SEGS + c];
            assert_true(city >= 0);
            assert_int_equal(m->features[city].kind, CARC_CITY);
            if (!city_seen[city] && m->features[city].complete) {
                city_seen[city] = 1;
                f->cities++;
            }
        }
    }
}

void model_features(model *m)
{
    for (int i = 0; i < MODEL_NODES; i++)
        m->feature_of[i] = -1;
    m->nfeatures = 0;
    int used = 0;
    for (int t = 0; t < m->ntiles; t++) {
        int nseg = carc_tile(m->tiles[t].kind)->nsegments;
        for (int s = 0; s < nseg; s++) {
            int node = t * MODEL_SEGS + s;
            if (m->feature_of[node] >= 0)
                continue;
            model_feature *f = &m->features[m->nfeatures];
            memset(f, 0, sizeof *f);
            f->kind = carc_tile(m->tiles[t].kind)->segments[s].kind;
            f->first = used;
            f->count = flood(m, node, m->nfeatures, used);
            used += f->count;
            m->nfeatures++;
            measure(m, f);
        }
    }
    for (int i = 0; i < m->nfeatures; i++)
        if (m->features[i].kind == CARC_FIELD)
            count_farm_cities(m, &m->features[i]);
}

const model_feature *model_feature_at(const model *m, int t, int seg)
{
    int f = m->feature_of[t * MODEL_SEGS + seg];
    assert_true(f >= 0);
    return &m->features[f];
}

/* --- Games -------------------------------------------------------------------- */

carc_game *sup_game(int players, uint64_t seed)
{
    carc_game *g = carc_game_new(players, NULL, seed);
    assert_non_null(g);
    return g;
}

carc_game *sup_random_game(int players, uint64_t seed, int moves, double follower_chance)
{
    carc_game *g = sup_game(players, seed);
    carc_rng rng = carc_rng_seed(seed);
    for (int i = 0; (moves < 0 || i < moves) && !carc_game_over(g); i++)
        assert_int_equal(carc_game_play_random(g, &rng, follower_chance, NULL), CARC_OK);
    return g;
}

static int parse_move(const char *move, int *kind, int *x, int *y, int *rot, char *spot,
                      int *discard)
{
    char letter = 0;
    spot[0] = '\0';
    *discard = 0;
    if (sscanf(move, "discard %c", &letter) == 1) {
        *discard = 1;
        *kind = carc_tile_parse_n(&letter, 1);
        return *kind >= 0;
    }
    int n = sscanf(move, "%c %d %d %d %7s", &letter, x, y, rot, spot);
    *kind = carc_tile_parse_n(&letter, 1);
    return n >= 4 && *kind >= 0;
}

carc_status sup_play(carc_game *g, const char *move, carc_event *events, int cap, int *nevents)
{
    int kind, x, y, rot, discard;
    char spot[8];
    if (!parse_move(move, &kind, &x, &y, &rot, spot, &discard))
        fail_msg("bad move text '%s'", move);
    if (carc_game_choose_tile(g, kind) != CARC_OK)
        fail_msg("cannot draw the tile of '%s': %s", move, carc_game_error(g));
    carc_move m = {CARC_MOVE_DISCARD, {0, 0, 0, 0}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
    if (!discard) {
        m.type = CARC_MOVE_PLACE;
        m.place = (carc_placement){(int8_t)x, (int8_t)y, (uint8_t)rot, 0};
        if (spot[0]) {
            int seg = strcmp(spot, "C") == 0 ? sup_cloister_seg(kind)
                                             : sup_port_seg(kind, rot, carc_port_parse(spot));
            if (seg < 0)
                fail_msg("no segment at '%s' in '%s'", spot, move);
            m.segment = (uint8_t)seg;
        }
    }
    return carc_game_play(g, m, events, cap, nevents);
}

int sup_play_ok(carc_game *g, const char *move, carc_event *events, int cap)
{
    int n = -1;
    carc_status st = sup_play(g, move, events, cap, &n);
    if (st != CARC_OK)
        fail_msg("move '%s' failed: %s", move, carc_game_error(g));
    return n;
}

void sup_snapshot(const carc_game *g, snapshot *s)
{
    memset(s, 0, sizeof *s);
    s->players = carc_game_players(g);
    s->current = carc_game_current_player(g);
    s->over = carc_game_over(g);
    s->ended_early = carc_game_ended_early(g);
    s->drawn = carc_game_drawn_tile(g);
    s->left = carc_game_tiles_left(g, s->counts);
    s->moves = carc_game_move_count(g);
    s->ntiles = carc_game_tile_count(g);
    s->rules = carc_game_rules(g).flags;
    s->leaders = carc_game_leaders(g);
    for (int p = 0; p < s->players; p++) {
        s->score[p] = carc_game_score(g, p);
        s->supply[p] = carc_game_supply(g, p);
        for (int k = 0; k < 4; k++)
            s->score_of[p][k] = carc_game_score_of(g, p, (carc_kind)k);
    }
    carc_game_bounds(g, &s->bounds[0], &s->bounds[1], &s->bounds[2], &s->bounds[3]);
    for (int t = 0; t < s->ntiles && t < CARC_MAX_TILES; t++)
        assert_int_equal(carc_game_tile_info(g, t, &s->tiles[t]), CARC_OK);
    for (int i = 0; i < s->moves && i < CARC_MAX_TILES; i++)
        assert_int_equal(carc_game_move_at(g, i, &s->move[i], &s->move_kind[i]), CARC_OK);
    s->nplacements = carc_legal_placements(g, s->placements, CARC_MAX_PLACEMENTS);
    s->record_len = carc_record_write(g, NULL, s->record, sizeof s->record);
}

#define SAME(field)                                                                                \
    do {                                                                                           \
        if (memcmp(&a->field, &b->field, sizeof a->field) != 0)                                    \
            fail_msg("the games differ in " #field);                                               \
    } while (0)

void sup_assert_same(const snapshot *a, const snapshot *b)
{
    SAME(players);
    SAME(current);
    SAME(over);
    SAME(ended_early);
    SAME(drawn);
    SAME(left);
    SAME(counts);
    SAME(moves);
    SAME(ntiles);
    SAME(rules);
    SAME(leaders);
    SAME(score);
    SAME(score_of);
    SAME(supply);
    SAME(bounds);
    SAME(tiles);
    SAME(move);
    SAME(move_kind);
    SAME(nplacements);
    SAME(placements);
    SAME(record_len);
    SAME(record);
}

void sup_assert_record_round_trip(const carc_game *g, uint64_t seed)
{
    static char record[1 << 16];
    size_t len = carc_record_write(g, NULL, record, sizeof record);
    assert_true(len > 0 && len < sizeof record);
    carc_record_error err;
    carc_game *back = carc_record_read(record, len, 0, &err);
    if (!back)
        fail_msg("seed %llu: %s", (unsigned long long)seed, err.message);
    assert_int_equal(carc_game_digest(back), carc_game_digest(g));
    for (int p = 0; p < carc_game_players(g); p++)
        assert_int_equal(carc_game_score(back, p), carc_game_score(g, p));
    carc_game_free(back);
}

int sup_env_count(const char *name, int fallback)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    long n = strtol(v, NULL, 10);
    return n > 0 && n < 100000000 ? (int)n : fallback;
}
