/* tile_art.c: draws a tile as a grid of terminal cells, derived from the
 * catalogue's segments and ports (no hand-drawn picture per tile). */
#include "tile_art.h"

#include <string.h>

enum { W = TILE_ART_W, H = TILE_ART_H, MID_COL = W / 2, MID_ROW = H / 2 };

/* Sides of a cell, one bit each, in the order of the edges N E S W. */
enum { SIDE_N = 1, SIDE_E = 2, SIDE_S = 4, SIDE_W = 8 };

enum {
    GLYPH_FIELD = 0x00B7,     /* · */
    GLYPH_CITY = 0x2592,      /* ▒ */
    GLYPH_JUNCTION = 0x25CF,  /* ● */
    GLYPH_CLOISTER = 0x2302,  /* ⌂ */
    GLYPH_PENNANT = 0x25C6,   /* ◆ */
    GLYPH_WATER = 0x2248,     /* ≈ */
    GLYPH_INN = 0x25B3,       /* △: keep to TILE_ART_INN_GLYPH */
    GLYPH_CATHEDRAL = 0x2020, /* †: keep to TILE_ART_CATHEDRAL_GLYPH */
    GLYPH_WINE = 0x2207,      /* ∇: keep to TILE_ART_WINE_GLYPH */
    GLYPH_GRAIN = 0x00A5,     /* ¥: keep to TILE_ART_GRAIN_GLYPH */
    GLYPH_CLOTH = 0x0023,     /* #: keep to TILE_ART_CLOTH_GLYPH */
    GLYPH_FENCE_NS = 0x254E,  /* ╎: a wall between two fields side by side */
    GLYPH_FENCE_EW = 0x254C,  /* ╌: one between two fields one above the other */
};

/* A wall is drawn along the sides of a city cell that face a field: indexed
 * by those sides. Two sides meeting at a corner make a diagonal, which
 * draws a city in a tile's corner (M, N, O, P) as a slope, not a staircase;
 * three or four sides (a one-cell city) become a half or a whole block. */
static const uint32_t wall_glyphs[16] = {
    [0] = GLYPH_CITY,
    [SIDE_N] = 0x2550, /* ═ */
    [SIDE_S] = 0x2550,
    [SIDE_N | SIDE_S] = 0x2550,
    [SIDE_E] = 0x2551, /* ║ */
    [SIDE_W] = 0x2551,
    [SIDE_E | SIDE_W] = 0x2551,
    [SIDE_N | SIDE_E] = 0x2572, /* ╲ */
    [SIDE_S | SIDE_W] = 0x2572,
    [SIDE_N | SIDE_W] = 0x2571, /* ╱ */
    [SIDE_S | SIDE_E] = 0x2571,
    [SIDE_E | SIDE_S | SIDE_W] = 0x2580,          /* ▀: the city lies north */
    [SIDE_N | SIDE_S | SIDE_W] = 0x2590,          /* ▐: east */
    [SIDE_N | SIDE_E | SIDE_W] = 0x2584,          /* ▄: south */
    [SIDE_N | SIDE_E | SIDE_S] = 0x258C,          /* ▌: west */
    [SIDE_N | SIDE_E | SIDE_S | SIDE_W] = 0x25A0, /* ■ */
};

/* Box-drawing lines for roads, indexed by the sides a road cell links. */
static const uint32_t road_glyphs[16] = {
    [SIDE_N] = 0x2502, /* │ */
    [SIDE_S] = 0x2502,
    [SIDE_N | SIDE_S] = 0x2502,
    [SIDE_E] = 0x2500, /* ─ */
    [SIDE_W] = 0x2500,
    [SIDE_E | SIDE_W] = 0x2500,
    [SIDE_N | SIDE_E] = 0x2514, /* └ */
    [SIDE_N | SIDE_W] = 0x2518, /* ┘ */
    [SIDE_S | SIDE_E] = 0x250C, /* ┌ */
    [SIDE_S | SIDE_W] = 0x2510, /* ┐ */
    [SIDE_N | SIDE_E | SIDE_S] = 0x251C,
    [SIDE_N | SIDE_S | SIDE_W] = 0x2524,
    [SIDE_E | SIDE_S | SIDE_W] = 0x252C,
    [SIDE_N | SIDE_E | SIDE_W] = 0x2534,
    [SIDE_N | SIDE_E | SIDE_S | SIDE_W] = 0x253C,
};

static const int side_dcol[4] = {0, 1, 0, -1};
static const int side_drow[4] = {-1, 0, 1, 0};

/* Where the ports lie on the tile's boundary, in sixths of a tile from the
 * north-west corner (x east, y south), indexed by carc_port. */
static const int port_x6[CARC_PORTS] = {1, 3, 5, 6, 6, 6, 5, 3, 1, 0, 0, 0};
static const int port_y6[CARC_PORTS] = {0, 0, 0, 1, 3, 5, 6, 6, 6, 5, 3, 1};

/* What is being drawn: one tile kind at one rotation. */
typedef struct art_job {
    int kind, rot;
    const carc_tile_def *def;
    tile_art *out;
} art_job;

static int middle_port(int edge)
{
    return 3 * edge + 1;
}

static int seg_kind(const art_job *job, int seg)
{
    return job->def->segments[seg].kind;
}

/* The edges (bit e for edge e) whose middle port segment `seg` holds: the
 * arms of a road or a river. */
static unsigned arm_sides(const art_job *job, int seg)
{
    unsigned ports = carc_tile_segment_ports(job->kind, job->rot, seg), sides = 0;
    for (int e = 0; e < 4; e++)
        if (ports & (1u << middle_port(e)))
            sides |= 1u << e;
    return sides;
}

/* Two arms on neighbouring edges: the line turns in the centre. */
static int is_bend(unsigned sides)
{
    return __builtin_popcount(sides) == 2 && sides != 5u && sides != 10u;
}

/* A road and a river that both bend (RI), or two roads that both bend (IE),
 * turn in opposite corners without touching: neither takes the centre,
 * which stays the field between them. Elsewhere a road meets the river in
 * the centre only on a bridge. */
static int bends_apart(const art_job *job)
{
    int bends = 0;
    for (int s = 0; s < job->def->nsegments; s++)
        bends += (seg_kind(job, s) == CARC_ROAD || seg_kind(job, s) == CARC_RIVER) &&
                 is_bend(arm_sides(job, s));
    return bends >= 2;
}

static int is_border(int col, int row)
{
    return col == 0 || col == W - 1 || row == 0 || row == H - 1;
}

static int is_land(int kind)
{
    return kind == CARC_CITY || kind == CARC_FIELD;
}

static void set_glyph(tile_art_cell *cell, uint32_t cp)
{
    cell->codepoint = cp;
    memset(cell->glyph, 0, sizeof cell->glyph);
    unsigned char *s = (unsigned char *)cell->glyph;
    if (cp < 0x80) {
        s[0] = (unsigned char)cp;
    } else if (cp < 0x800) {
        s[0] = (unsigned char)(0xC0 | (cp >> 6));
        s[1] = (unsigned char)(0x80 | (cp & 0x3F));
    } else {
        s[0] = (unsigned char)(0xE0 | (cp >> 12));
        s[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        s[2] = (unsigned char)(0x80 | (cp & 0x3F));
    }
}

static void set_cell(tile_art_cell *cell, int what, int segment, uint32_t cp)
{
    cell->what = (uint8_t)what;
    cell->segment = (uint8_t)segment;
    set_glyph(cell, cp);
}

/* Squared distance, in 1/60 of a tile, from the centre of cell (col, row)
 * to port `port`. */
static int port_distance2(int col, int row, int port)
{
    int dx = (2 * col + 1) * 30 / W - 10 * port_x6[port];
    int dy = (2 * row + 1) * 30 / H - 10 * port_y6[port];
    return dx * dx + dy * dy;
}

/* The segment of the nearest port held by a segment of kind `want` (or of
 * any land kind when `want` is -1), or TILE_ART_NONE. */
static int nearest_segment(const art_job *job, int col, int row, int want)
{
    int best = TILE_ART_NONE, best_d = 0;
    for (int p = 0; p < CARC_PORTS; p++) {
        int seg = carc_tile_segment_at(job->kind, job->rot, p);
        if (seg < 0 || !is_land(seg_kind(job, seg)))
            continue;
        if (want >= 0 && seg_kind(job, seg) != want)
            continue;
        int d = port_distance2(col, row, p);
        if (best == TILE_ART_NONE || d < best_d) {
            best = seg;
            best_d = d;
        }
    }
    return best;
}

/* The field that touches no edge (IH's, the record's spot F), or
 * TILE_ART_NONE. */
static int closed_field(const art_job *job)
{
    for (int s = 0; s < job->def->nsegments; s++)
        if (seg_kind(job, s) == CARC_FIELD && job->def->segments[s].ports == 0)
            return s;
    return TILE_ART_NONE;
}

/* The field of the nearest port, else the closed field (IH has no other). */
static int field_near(const art_job *job, int col, int row)
{
    int field = nearest_segment(job, col, row, CARC_FIELD);
    return field != TILE_ART_NONE ? field : closed_field(job);
}

static int edges_touched(unsigned ports)
{
    int edges = 0;
    for (int e = 0; e < 4; e++)
        edges += (ports >> (3 * e) & 7u) != 0;
    return edges;
}

/* The field that reaches the most edges: on RI, the one running diagonally
 * between the road's bend and the river's. */
static int widest_field(const art_job *job)
{
    int best = TILE_ART_NONE, best_edges = 0;
    for (int s = 0; s < job->def->nsegments; s++) {
        int edges = edges_touched(carc_tile_segment_ports(job->kind, job->rot, s));
        if (seg_kind(job, s) == CARC_FIELD && edges > best_edges) {
            best = s;
            best_edges = edges;
        }
    }
    return best;
}

/* The centre is equally far from the four edge middles, so the nearest
 * port cannot decide it: it belongs to a city that runs through the tile
 * (C, F, G, Q..T), else to a field that reaches an edge's middle, so that a
 * city on one edge or two stays a bump or a corner. */
static int centre_segment(const art_job *job)
{
    for (int s = 0; s < job->def->nsegments; s++) {
        unsigned ports = carc_tile_segment_ports(job->kind, job->rot, s);
        unsigned ns = (1u << CARC_N) | (1u << CARC_S);
        unsigned ew = (1u << CARC_E) | (1u << CARC_W);
        if (seg_kind(job, s) == CARC_CITY && ((ports & ns) == ns || (ports & ew) == ew))
            return s;
    }
    for (int s = 0; s < job->def->nsegments; s++) {
        unsigned ports = carc_tile_segment_ports(job->kind, job->rot, s);
        for (int e = 0; e < 4; e++)
            if (seg_kind(job, s) == CARC_FIELD && (ports & (1u << middle_port(e))))
                return s;
    }
    if (bends_apart(job))
        return widest_field(job);
    int field = field_near(job, MID_COL, MID_ROW);
    return field != TILE_ART_NONE ? field : nearest_segment(job, MID_COL, MID_ROW, -1);
}

/* The land of cell (col, row) away from the centre: the segment of the
 * nearest port, except that a city on a single edge keeps to the border
 * cells. A city on the north or south edge is one row thick that way, and
 * one on the east or west edge one column thick (not two, which a column
 * half as wide as a row is tall would give), so each reads as a bump. */
static int land_segment(const art_job *job, int col, int row)
{
    int seg = nearest_segment(job, col, row, -1);
    int border = col == 0 || col == W - 1 || row == 0 || row == H - 1;
    if (border || seg == TILE_ART_NONE || seg_kind(job, seg) != CARC_CITY)
        return seg;
    if (edges_touched(carc_tile_segment_ports(job->kind, job->rot, seg)) > 1)
        return seg;
    int field = field_near(job, col, row);
    return field != TILE_ART_NONE ? field : seg;
}

static void set_land(tile_art_cell *cell, const art_job *job, int seg)
{
    int city = seg != TILE_ART_NONE && seg_kind(job, seg) == CARC_CITY;
    cell->ground = city ? TILE_ART_CITY : TILE_ART_FIELD;
    set_cell(cell, cell->ground, seg, city ? GLYPH_CITY : GLYPH_FIELD);
}

/* Each cell takes a city or a field; roads and cloisters come on top. */
static void draw_land(const art_job *job)
{
    for (int row = 0; row < H; row++)
        for (int col = 0; col < W; col++) {
            int centre = row == MID_ROW && col == MID_COL;
            int seg = centre ? centre_segment(job) : land_segment(job, col, row);
            tile_art_cell *cell = &job->out->cell[row][col];
            set_land(cell, job, seg);
            cell->owner = TILE_ART_NONE;
        }
}

static int is_corner(int col, int row)
{
    return (col == 0 || col == W - 1) && (row == 0 || row == H - 1);
}

/* Whether cell (col, row) rather than its neighbour gives way to a field:
 * a corner before another cell, since the cities meet at most at the
 * tile's corner; an inner cell before a border one, which shows a port. */
static int yields_to(int col, int row, int ncol, int nrow)
{
    if (is_corner(col, row) != is_corner(ncol, nrow))
        return is_corner(col, row);
    return !is_border(col, row) && is_border(ncol, nrow);
}

/* What to do with two side-by-side cells: (col, row) and its neighbour
 * (ncol, nrow) on `side` (1 east, 2 south). */
typedef void (*cell_pair_fn)(const art_job *job, int col, int row, int ncol, int nrow, int side);

/* Calls `fn` on every pair of side-by-side cells of the tile, once each. */
static void each_cell_pair(const art_job *job, cell_pair_fn fn)
{
    for (int row = 0; row < H; row++)
        for (int col = 0; col < W; col++)
            for (int side = 1; side <= 2; side++) { /* east and south */
                int ncol = col + side_dcol[side], nrow = row + side_drow[side];
                if (ncol < W && nrow < H)
                    fn(job, col, row, ncol, nrow, side);
            }
}

/* Two cities of one tile side by side: one cell becomes field. */
static void separate_pair(const art_job *job, int col, int row, int ncol, int nrow, int side)
{
    (void)side;
    tile_art_cell *a = &job->out->cell[row][col];
    tile_art_cell *b = &job->out->cell[nrow][ncol];
    if (a->ground != TILE_ART_CITY || b->ground != TILE_ART_CITY || a->segment == b->segment)
        return;
    if (yields_to(col, row, ncol, nrow))
        set_land(a, job, field_near(job, col, row));
    else
        set_land(b, job, field_near(job, ncol, nrow));
}

/* Two cities of one tile (H, I, IO, IP) must not touch side by side: one
 * cell of a touching pair becomes field (yields_to()). */
static void separate_cities(const art_job *job)
{
    each_cell_pair(job, separate_pair);
}

/* Whether segment `seg` shows in some cell. */
static int is_drawn(const art_job *job, int seg)
{
    for (int row = 0; row < H; row++)
        for (int col = 0; col < W; col++)
            if (job->out->cell[row][col].segment == seg)
                return 1;
    return 0;
}

/* Whether cell (col, row) lies beside a city that reaches one edge only. */
static int beside_small_city(const art_job *job, int col, int row)
{
    for (int side = 0; side < 4; side++) {
        int ncol = col + side_dcol[side], nrow = row + side_drow[side];
        if (ncol < 0 || ncol >= W || nrow < 0 || nrow >= H)
            continue;
        const tile_art_cell *next = &job->out->cell[nrow][ncol];
        if (next->ground == TILE_ART_CITY &&
            edges_touched(carc_tile_segment_ports(job->kind, job->rot, next->segment)) == 1)
            return 1;
    }
    return 0;
}

/* A closed field beside another field (TC, TD: between the city running
 * through the tile and the city on one edge) takes the inner field cells
 * beside the city on one edge, where no port's field reaches. */
static void draw_closed_field(const art_job *job)
{
    int closed = closed_field(job);
    if (closed == TILE_ART_NONE || is_drawn(job, closed))
        return;
    for (int row = 1; row < H - 1; row++)
        for (int col = 1; col < W - 1; col++) {
            tile_art_cell *cell = &job->out->cell[row][col];
            if (cell->ground == TILE_ART_FIELD && beside_small_city(job, col, row))
                set_land(cell, job, closed);
        }
}

static void draw_cloister(const art_job *job)
{
    for (int s = 0; s < job->def->nsegments; s++)
        if (seg_kind(job, s) == CARC_CLOISTER) {
            tile_art_cell *cell = &job->out->cell[MID_ROW][MID_COL];
            cell->ground = TILE_ART_FIELD;
            set_cell(cell, TILE_ART_CLOISTER, s, GLYPH_CLOISTER);
        }
}

/* Draws the river `seg` from the middle of each edge it reaches to the
 * centre, which it takes too unless a cloister stands there (RH) or a road
 * bends apart from it (RI). The spring and the lake end in the centre. The
 * water is drawn before the roads, so that a bridge shows as road. */
static void draw_rivers(const art_job *job)
{
    for (int s = 0; s < job->def->nsegments; s++) {
        if (seg_kind(job, s) != CARC_RIVER)
            continue;
        unsigned sides = arm_sides(job, s);
        for (int e = 0; e < 4; e++) {
            if (!(sides & (1u << e)))
                continue;
            int col = e == 1 ? W - 1 : e == 3 ? 0 : MID_COL;
            int row = e == 0 ? 0 : e == 2 ? H - 1 : MID_ROW;
            for (; col != MID_COL || row != MID_ROW; col -= side_dcol[e], row -= side_drow[e])
                set_cell(&job->out->cell[row][col], TILE_ART_RIVER, s, GLYPH_WATER);
        }
        tile_art_cell *centre = &job->out->cell[MID_ROW][MID_COL];
        if (centre->what != TILE_ART_CLOISTER && !bends_apart(job))
            set_cell(centre, TILE_ART_RIVER, s, GLYPH_WATER);
    }
}

/* Draws road `seg` from the middle of edge `edge` towards the centre (not
 * included); it stops at a city's wall or a cloister. */
static void draw_arm(const art_job *job, uint8_t links[H][W], int edge, int seg)
{
    int col = edge == 1 ? W - 1 : edge == 3 ? 0 : MID_COL;
    int row = edge == 0 ? 0 : edge == 2 ? H - 1 : MID_ROW;
    unsigned axis = edge % 2 ? SIDE_E | SIDE_W : SIDE_N | SIDE_S;
    for (; col != MID_COL || row != MID_ROW; col -= side_dcol[edge], row -= side_drow[edge]) {
        tile_art_cell *cell = &job->out->cell[row][col];
        if (cell->ground == TILE_ART_CITY || cell->what == TILE_ART_CLOISTER)
            return;
        set_cell(cell, TILE_ART_ROAD, seg, 0);
        links[row][col] = (uint8_t)(links[row][col] | axis);
    }
}

/* A road of one arm that meets the river in the centre (RB) crosses it on
 * a bridge and goes on to the city on the far side, where it ends: draws
 * the cells beyond the centre and returns the side it leaves by. */
static unsigned draw_bridge(const art_job *job, uint8_t links[H][W], unsigned arm, int seg)
{
    int far = (__builtin_ctz(arm) + 2) % 4;
    int col = MID_COL + side_dcol[far], row = MID_ROW + side_drow[far];
    for (; col >= 0 && col < W && row >= 0 && row < H &&
           job->out->cell[row][col].ground == TILE_ART_FIELD;
         col += side_dcol[far], row += side_drow[far]) {
        set_cell(&job->out->cell[row][col], TILE_ART_ROAD, seg, 0);
        links[row][col] = (uint8_t)(far % 2 ? SIDE_E | SIDE_W : SIDE_N | SIDE_S);
    }
    return 1u << far;
}

/* A bend that leaves the centre free (bends_apart()): the cell of an arm
 * beside the centre turns towards the other arm, so the two read as one
 * curve, unless it is the edge's own cell, which shows the road entering. */
static void hook_arms(uint8_t links[H][W], unsigned sides)
{
    for (int e = 0; e < 4; e++) {
        int col = MID_COL + side_dcol[e], row = MID_ROW + side_drow[e];
        if ((sides & (1u << e)) && !is_border(col, row))
            links[row][col] = (uint8_t)sides;
    }
}

/* Draws road `seg`'s arms; returns 1 when it ends at the centre (one arm). */
static int draw_road(const art_job *job, uint8_t links[H][W], int seg)
{
    unsigned sides = arm_sides(job, seg);
    for (int e = 0; e < 4; e++)
        if (sides & (1u << e))
            draw_arm(job, links, e, seg);
    tile_art_cell *centre = &job->out->cell[MID_ROW][MID_COL];
    if (centre->what == TILE_ART_RIVER && !(sides & (sides - 1)))
        sides |= draw_bridge(job, links, sides, seg);
    if (sides & (sides - 1)) { /* two arms: the road runs through the centre */
        if (bends_apart(job)) {
            hook_arms(links, sides);
            return 0;
        }
        set_cell(centre, TILE_ART_ROAD, seg, 0);
        links[MID_ROW][MID_COL] = (uint8_t)sides;
        return 0;
    }
    return 1;
}

/* A tile's only road ends at a city across the centre (IF, IJ, IN): the
 * road goes on through the centre to the city's wall, like the road from a
 * gate of S or T. Returns 1 when drawn, 0 when no city lies that way. */
static int road_to_city(const art_job *job)
{
    int seg = -1;
    for (int s = 0; s < job->def->nsegments; s++)
        if (seg_kind(job, s) == CARC_ROAD)
            seg = s;
    unsigned arm = seg >= 0 ? arm_sides(job, seg) : 0;
    if (__builtin_popcount(arm) != 1)
        return 0;
    int far = (__builtin_ctz(arm) + 2) % 4, col = MID_COL, row = MID_ROW;
    while (col >= 0 && col < W && row >= 0 && row < H &&
           job->out->cell[row][col].ground == TILE_ART_FIELD) {
        col += side_dcol[far];
        row += side_drow[far];
    }
    if (col < 0 || col >= W || row < 0 || row >= H)
        return 0;
    uint32_t glyph = road_glyphs[arm | (1u << far)];
    for (col -= side_dcol[far], row -= side_drow[far];;
         col -= side_dcol[far], row -= side_drow[far]) {
        set_cell(&job->out->cell[row][col], TILE_ART_ROAD, seg, glyph);
        if (col == MID_COL && row == MID_ROW)
            return 1;
    }
}

/* Roads are lines from edge middles to the centre. Roads that end at the
 * centre meet at a junction, unless a cloister or a city stands there. */
static void draw_roads(const art_job *job)
{
    uint8_t links[H][W];
    memset(links, 0, sizeof links);
    int dead_ends = 0;
    for (int s = 0; s < job->def->nsegments; s++)
        if (seg_kind(job, s) == CARC_ROAD)
            dead_ends += draw_road(job, links, s);
    for (int row = 0; row < H; row++)
        for (int col = 0; col < W; col++)
            if (links[row][col])
                set_glyph(&job->out->cell[row][col], road_glyphs[links[row][col]]);
    tile_art_cell *centre = &job->out->cell[MID_ROW][MID_COL];
    if (dead_ends == 1 && centre->what == TILE_ART_FIELD && road_to_city(job))
        return;
    if (dead_ends > 0 && centre->what == TILE_ART_FIELD)
        set_cell(centre, TILE_ART_JUNCTION, TILE_ART_NONE, GLYPH_JUNCTION);
}

/* The port just outside side `side` of border cell (col, row). */
static int border_port(int side, int col, int row)
{
    int along_x = (2 * col + 1) * 3 / (2 * W); /* 0..2: which third */
    int along_y = (2 * row + 1) * 3 / (2 * H);
    switch (side) {
    case 0: return CARC_NNW + along_x;
    case 1: return CARC_ENE + along_y;
    case 2: return CARC_SSW - along_x;
    default: return CARC_WNW - along_y;
    }
}

/* The sides of city cell (col, row) that face something other than its
 * own city: a field or a road inside the tile, a non-city port outside. */
static unsigned field_sides(const art_job *job, int col, int row)
{
    int seg = job->out->cell[row][col].segment;
    unsigned sides = 0;
    for (int side = 0; side < 4; side++) {
        int ncol = col + side_dcol[side], nrow = row + side_drow[side];
        int other;
        if (ncol < 0 || ncol >= W || nrow < 0 || nrow >= H) {
            other = carc_tile_segment_at(job->kind, job->rot, border_port(side, col, row));
        } else {
            const tile_art_cell *next = &job->out->cell[nrow][ncol];
            other = next->ground == TILE_ART_CITY ? next->segment : -1;
        }
        if (other != seg)
            sides |= 1u << side;
    }
    return sides;
}

static void draw_walls(const art_job *job)
{
    for (int row = 0; row < H; row++)
        for (int col = 0; col < W; col++) {
            tile_art_cell *cell = &job->out->cell[row][col];
            if (cell->what != TILE_ART_CITY)
                continue;
            unsigned sides = field_sides(job, col, row);
            if (sides)
                set_cell(cell, TILE_ART_WALL, cell->segment, wall_glyphs[sides]);
        }
}

/* Cells of segment `seg`. */
static int segment_cells(const art_job *job, int seg)
{
    int n = 0;
    for (int i = 0; i < W * H; i++)
        n += job->out->cell[i / W][i % W].segment == seg;
    return n;
}

/* Two fields side by side: the smaller one's cell shows a fence. */
static void fence_pair(const art_job *job, int col, int row, int ncol, int nrow, int side)
{
    tile_art_cell *a = &job->out->cell[row][col];
    tile_art_cell *b = &job->out->cell[nrow][ncol];
    if (a->what != TILE_ART_FIELD || b->what != TILE_ART_FIELD || a->segment == b->segment)
        return;
    tile_art_cell *small = segment_cells(job, a->segment) <= segment_cells(job, b->segment) ? a : b;
    set_glyph(small, side == 1 ? GLYPH_FENCE_NS : GLYPH_FENCE_EW);
}

/* Two fields side by side with nothing drawn between them (TG, TL, TV: a
 * wall parts two small farms in a corner; TC, TD: the closed field): the
 * smaller one's cell next to the other shows a fence, across the line
 * from one to the other. */
static void draw_fences(const art_job *job)
{
    each_cell_pair(job, fence_pair);
}

static int is_mark(int what)
{
    return what == TILE_ART_PENNANT || what == TILE_ART_CLOISTER || what == TILE_ART_INN ||
           what == TILE_ART_CATHEDRAL || what == TILE_ART_GOODS || what == TILE_ART_FOLLOWER;
}

/* The cell of segment `seg` nearest the centre of all its cells, among the
 * cells that do not already show a mark (a pennant, a cloister, an inn, a
 * cathedral, a follower) when `free` is set; NULL if none. Distances count
 * a row as two columns, as a terminal shows them. */
static tile_art_cell *central_cell_of(const art_job *job, int seg, int free)
{
    int n = 0, sum_col = 0, sum_row = 0;
    for (int row = 0; row < H; row++)
        for (int col = 0; col < W; col++)
            if (job->out->cell[row][col].segment == seg) {
                n++;
                sum_col += col;
                sum_row += row;
            }
    tile_art_cell *best = NULL;
    int best_d = 0;
    for (int row = 0; row < H; row++)
        for (int col = 0; col < W; col++) {
            tile_art_cell *cell = &job->out->cell[row][col];
            if (cell->segment != seg || (free && is_mark(cell->what)) ||
                cell->what == TILE_ART_FOLLOWER)
                continue;
            int dx = col * n - sum_col, dy = 2 * (row * n - sum_row);
            if (!best || dx * dx + dy * dy < best_d) {
                best = cell;
                best_d = dx * dx + dy * dy;
            }
        }
    return best;
}

/* A free cell of `seg` if there is one, else one under a mark. */
static tile_art_cell *central_cell(const art_job *job, int seg)
{
    tile_art_cell *cell = central_cell_of(job, seg, 1);
    return cell ? cell : central_cell_of(job, seg, 0);
}

static void draw_pennants(const art_job *job)
{
    for (int s = 0; s < job->def->nsegments; s++) {
        if (!job->def->segments[s].pennant)
            continue;
        tile_art_cell *cell = central_cell(job, s);
        if (cell)
            set_cell(cell, TILE_ART_PENNANT, s, GLYPH_PENNANT);
    }
}

/* Where the rank of cell (col, row) is measured from: its nearest port,
 * counted from rotation 0, so that a choice between cells equally far from
 * the centre turns with the tile. */
static int cell_rank(const art_job *job, int col, int row)
{
    int best = 0;
    for (int p = 1; p < CARC_PORTS; p++)
        if (port_distance2(col, row, p) < port_distance2(col, row, best))
            best = p;
    return (best - 3 * job->rot + 3 * 4) % CARC_PORTS;
}

/* Squared distance, in 1/60 of a tile, from the centre of the tile. */
static int centre_distance2(int col, int row)
{
    int dx = (2 * col + 1) * 30 / W - 30, dy = (2 * row + 1) * 30 / H - 30;
    return dx * dx + dy * dy;
}

static int beside_road(const art_job *job, int col, int row, int seg)
{
    for (int side = 0; side < 4; side++) {
        int ncol = col + side_dcol[side], nrow = row + side_drow[side];
        if (ncol < 0 || ncol >= W || nrow < 0 || nrow >= H)
            continue;
        const tile_art_cell *next = &job->out->cell[nrow][ncol];
        if (next->what == TILE_ART_ROAD && next->segment == seg)
            return 1;
    }
    return 0;
}

/* An inn stands on the field cell beside its road nearest the centre. */
static void draw_inn(const art_job *job, int seg)
{
    tile_art_cell *best = NULL;
    int best_d = 0, best_rank = 0;
    for (int row = 0; row < H; row++)
        for (int col = 0; col < W; col++) {
            tile_art_cell *cell = &job->out->cell[row][col];
            if (cell->what != TILE_ART_FIELD || !beside_road(job, col, row, seg))
                continue;
            int d = centre_distance2(col, row), rank = cell_rank(job, col, row);
            if (!best || d < best_d || (d == best_d && rank < best_rank)) {
                best = cell;
                best_d = d;
                best_rank = rank;
            }
        }
    if (best)
        set_cell(best, TILE_ART_INN, best->segment, GLYPH_INN);
}

/* The free cell of city `seg` nearest the middle of its cells, ties going
 * the same way at every rotation (cell_rank()); NULL if none. */
static tile_art_cell *goods_cell(const art_job *job, int seg)
{
    int n = 0, sum_col = 0, sum_row = 0;
    for (int i = 0; i < W * H; i++)
        if (job->out->cell[i / W][i % W].segment == seg) {
            n++;
            sum_col += i % W;
            sum_row += i / W;
        }
    tile_art_cell *best = NULL;
    int best_d = 0, best_rank = 0;
    for (int row = 0; row < H; row++)
        for (int col = 0; col < W; col++) {
            tile_art_cell *cell = &job->out->cell[row][col];
            if (cell->segment != seg || is_mark(cell->what))
                continue;
            int dx = col * n - sum_col, dy = 2 * (row * n - sum_row);
            int d = dx * dx + dy * dy, rank = cell_rank(job, col, row);
            if (!best || d < best_d || (d == best_d && rank < best_rank)) {
                best = cell;
                best_d = d;
                best_rank = rank;
            }
        }
    return best;
}

/* The glyph of a city's goods, or 0 when it has none. */
static uint32_t goods_glyph(unsigned marks)
{
    if (marks & CARC_MARK_WINE)
        return GLYPH_WINE;
    if (marks & CARC_MARK_GRAIN)
        return GLYPH_GRAIN;
    if (marks & CARC_MARK_CLOTH)
        return GLYPH_CLOTH;
    return 0;
}

static void draw_marks(const art_job *job)
{
    for (int s = 0; s < job->def->nsegments; s++) {
        unsigned marks = job->def->segments[s].marks;
        uint32_t goods = goods_glyph(marks);
        if (seg_kind(job, s) == CARC_CITY && goods) {
            tile_art_cell *cell = goods_cell(job, s);
            if (cell)
                set_cell(cell, TILE_ART_GOODS, s, goods);
        }
        if (seg_kind(job, s) == CARC_ROAD && (marks & CARC_MARK_INN))
            draw_inn(job, s);
        if (seg_kind(job, s) == CARC_CITY && (marks & CARC_MARK_CATHEDRAL)) {
            tile_art_cell *cell = central_cell_of(job, s, 1);
            if (cell)
                set_cell(cell, TILE_ART_CATHEDRAL, s, GLYPH_CATHEDRAL);
        }
    }
}

static void put_follower(tile_art_cell *cell, int seg, int owner, int figure, int farmer)
{
    set_cell(cell, TILE_ART_FOLLOWER, seg, tile_art_figure_glyph(owner, figure, farmer));
    cell->owner = (uint8_t)owner;
}

/* The large follower's second cell: a free neighbour of `first` on the
 * same segment, east or west first (a pair reads as one figure), or NULL. */
static tile_art_cell *second_cell(const art_job *job, const tile_art_cell *first, int seg)
{
    static const int order[4] = {1, 3, 2, 0};
    int index = (int)(first - &job->out->cell[0][0]);
    int col = index % W, row = index / W;
    for (int i = 0; i < 4; i++) {
        int ncol = col + side_dcol[order[i]], nrow = row + side_drow[order[i]];
        if (ncol < 0 || ncol >= W || nrow < 0 || nrow >= H)
            continue;
        tile_art_cell *next = &job->out->cell[nrow][ncol];
        if (next->segment == seg && !is_mark(next->what))
            return next;
    }
    return NULL;
}

/* Cell (col, row) when it is a plain field cell (no road, river or mark),
 * else NULL. */
static tile_art_cell *field_cell(const art_job *job, int col, int row)
{
    if (col < 0 || col >= W || row < 0 || row >= H)
        return NULL;
    tile_art_cell *cell = &job->out->cell[row][col];
    return cell->what == TILE_ART_FIELD ? cell : NULL;
}

/* Where a monk stands: on a field cell beside his cloister (east, west,
 * north, south: roads and the river take some), not on the cell where a
 * farmer on that field would stand, so that their spots' numbers do not
 * meet, unless no other is free. NULL when none is free. */
static tile_art_cell *monk_cell(const art_job *job)
{
    static const int order[4] = {1, 3, 0, 2};
    tile_art_cell *fallback = NULL;
    for (int i = 0; i < 4; i++) {
        tile_art_cell *cell =
            field_cell(job, MID_COL + side_dcol[order[i]], MID_ROW + side_drow[order[i]]);
        if (cell && cell != central_cell(job, cell->segment))
            return cell;
        if (cell && !fallback)
            fallback = cell;
    }
    return fallback;
}

/* A monk stands beside his cloister, which keeps its glyph; a large monk
 * either side of it, else (a road or the river on one side) in two cells
 * side by side, as a large follower elsewhere. */
static void draw_monk(const art_job *job, int seg, int owner, int figure)
{
    tile_art_cell *cell = monk_cell(job), *second = NULL;
    if (!cell) {
        put_follower(&job->out->cell[MID_ROW][MID_COL], seg, owner, figure, 0);
        return;
    }
    if (figure == CARC_FIGURE_LARGE) {
        tile_art_cell *east = field_cell(job, MID_COL + 1, MID_ROW);
        tile_art_cell *west = field_cell(job, MID_COL - 1, MID_ROW);
        if (east && west) {
            cell = east;
            second = west;
        } else {
            int index = (int)(cell - &job->out->cell[0][0]);
            static const int order[4] = {1, 3, 2, 0};
            for (int i = 0; i < 4 && !second; i++)
                second = field_cell(job, index % W + side_dcol[order[i]],
                                    index / W + side_drow[order[i]]);
        }
    }
    put_follower(cell, seg, owner, figure, 0);
    if (second)
        put_follower(second, seg, owner, figure, 0);
}

/* A follower stands in the middle of its segment; a monk, beside his
 * cloister (draw_monk()). A large follower takes a second cell beside the
 * first. */
static void draw_follower(const art_job *job, int seg, int owner, int figure)
{
    if (seg_kind(job, seg) == CARC_CLOISTER) {
        draw_monk(job, seg, owner, figure);
        return;
    }
    tile_art_cell *cell = central_cell(job, seg);
    if (!cell)
        cell = &job->out->cell[MID_ROW][MID_COL + 1];
    int farmer = seg_kind(job, seg) == CARC_FIELD;
    tile_art_cell *second = figure == CARC_FIGURE_LARGE ? second_cell(job, cell, seg) : NULL;
    for (int i = 0; figure == CARC_FIGURE_LARGE && !second && i < W * H; i++) {
        tile_art_cell *other = &job->out->cell[i / W][i % W]; /* another pair of cells */
        if (other->segment == seg && !is_mark(other->what) && second_cell(job, other, seg)) {
            cell = other;
            second = second_cell(job, other, seg);
        }
    }
    put_follower(cell, seg, owner, figure, farmer);
    if (second)
        put_follower(second, seg, owner, figure, farmer);
}

int tile_art_draw(int kind, int rot, int follower_segment, int owner, tile_art *out)
{
    return tile_art_draw_figure(kind, rot, follower_segment, owner, CARC_FIGURE_FOLLOWER, out);
}

int tile_art_draw_figure(int kind, int rot, int follower_segment, int owner, int figure,
                         tile_art *out)
{
    const carc_tile_def *def = carc_tile(kind);
    if (!def || rot < 0 || rot > 3 || !out || figure < 0 || figure >= CARC_FIGURES)
        return -1;
    int has_follower = follower_segment != CARC_NO_SPOT;
    if (has_follower && (follower_segment < 0 || follower_segment >= def->nsegments || owner < 0 ||
                         owner >= CARC_MAX_PLAYERS))
        return -1;
    art_job job = {kind, rot, def, out};
    draw_land(&job);
    separate_cities(&job);
    draw_closed_field(&job);
    draw_cloister(&job);
    draw_rivers(&job);
    draw_roads(&job);
    draw_walls(&job);
    draw_fences(&job);
    draw_pennants(&job);
    draw_marks(&job);
    if (has_follower)
        draw_follower(&job, follower_segment, owner, figure);
    return 0;
}

int tile_art_draw_placed(const carc_tile_on_board *tile, tile_art *out)
{
    if (!tile)
        return -1;
    return tile_art_draw_figure(tile->kind, tile->rot, tile->follower_segment, tile->follower_owner,
                                tile->follower_figure, out);
}

char tile_art_letter(int owner, int farmer)
{
    static const char letters[] = "RBYGKWPI", farmers[] = "rbygkwpi";
    if (owner < 0 || owner >= CARC_MAX_PLAYERS)
        return '?';
    if (farmer)
        return farmers[owner];
    return letters[owner];
}

uint32_t tile_art_figure_glyph(int owner, int figure, int farmer)
{
    /* Circled capitals and small letters of R B Y G K W P I in Unicode. */
    static const uint32_t builders[] = {0x24C7, 0x24B7, 0x24CE, 0x24BC,
                                        0x24C0, 0x24CC, 0x24C5, 0x24BE};
    static const uint32_t pigs[] = {0x24E1, 0x24D1, 0x24E8, 0x24D6, 0x24DA, 0x24E6, 0x24DF, 0x24D8};
    if (owner < 0 || owner >= CARC_MAX_PLAYERS)
        return '?';
    if (figure == CARC_FIGURE_BUILDER)
        return builders[owner];
    if (figure == CARC_FIGURE_PIG)
        return pigs[owner];
    return (uint32_t)tile_art_letter(owner, farmer);
}
