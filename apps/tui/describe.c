/* describe.c: words for follower places and moves (see describe.h). */
#include "describe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"
#include "square_view.h"
#include "words.h"

const char *describe_feature(int kind)
{
    return carc_kind_name(kind);
}

const char *describe_role(int kind)
{
    return words_role(kind);
}

/* Where each port sits on the tile's border, x to the right and y down,
 * the centre at 0,0 and the edges at +-2 (CARC_NNW first, clockwise). */
static const int port_x[CARC_PORTS] = {-1, 0, 1, 2, 2, 2, 1, 0, -1, -2, -2, -2};
static const int port_y[CARC_PORTS] = {-2, -2, -2, -1, 0, 1, 2, 2, 2, 1, 0, -1};

/* The nine places of a tile, row by row: a place is a direction
 * (dy, dx), each -1, 0 or 1, and names[(dy + 1) * 3 + dx + 1]. */
static const char *const place_names[9] = {"top left",    "top",    "top right",
                                           "left",        "middle", "right",
                                           "bottom left", "bottom", "bottom right"};

/* How many of the four edges hold one of `ports` (three ports an edge). */
static int edges_touched(unsigned ports)
{
    int n = 0;
    for (int edge = 0; edge < 4; edge++)
        n += (ports >> (3 * edge) & 7u) != 0;
    return n;
}

/* The direction of the mean position of `ports` (the feature's extent):
 * the nearest of eight, or 0,0 near the centre. */
static void ports_direction(unsigned ports, int *dy, int *dx)
{
    int n = 0, sx = 0, sy = 0;
    for (int p = 0; p < CARC_PORTS; p++)
        if (ports >> p & 1u) {
            sx += port_x[p];
            sy += port_y[p];
            n++;
        }
    *dy = *dx = 0;
    if (n == 0 || (double)(sx * sx + sy * sy) < 0.16 * n * n)
        return;
    const double eighth = 0.78539816339744830962; /* pi / 4 */
    double angle = atan2((double)sy, (double)sx); /* y down: clockwise from the right */
    int octant = ((int)lround(angle / eighth) % 8 + 8) % 8;
    static const int oct_dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    static const int oct_dy[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    *dx = oct_dx[octant];
    *dy = oct_dy[octant];
}

/* The direction of the cell where a follower on the segment is drawn (the
 * tile's 5 x 3 cells: columns 0-1 left, 2 middle, 3-4 right). */
static int drawn_direction(int kind, int rot, int segment, int *dy, int *dx)
{
    int row = 0, col = 0;
    if (square_spot_cell(kind, rot, segment, &row, &col) != 0)
        return -1;
    *dy = row - TILE_ART_H / 2;
    *dx = col < TILE_ART_W / 2 ? -1 : col > TILE_ART_W / 2 ? 1 : 0;
    return 0;
}

const char *describe_place(int kind, int rot, int segment)
{
    const carc_tile_def *def = carc_tile(kind);
    if (!def || rot < 0 || rot > 3 || segment < 0 || segment >= def->nsegments)
        return NULL;
    unsigned ports = carc_tile_segment_ports(kind, rot, segment);
    int fy = 0, fx = 0, cy = 0, cx = 0;
    ports_direction(ports, &fy, &fx);
    if (drawn_direction(kind, rot, segment, &cy, &cx) != 0)
        return NULL;
    /* The feature's direction names it best, as long as the follower is
     * not drawn on the opposite side of the tile; else (a farm wrapped
     * around a road's bend, drawn on its far side) the place where it is
     * drawn. */
    if (abs(fy - cy) > 1 || abs(fx - cx) > 1)
        return cy == 0 && cx == 0 ? "in the middle" : place_names[(cy + 1) * 3 + cx + 1];
    if (fy == 0 && fx == 0 && edges_touched(ports) >= 3)
        return "all around";
    return place_names[(fy + 1) * 3 + fx + 1];
}

/* Whether another segment of the same kind shares `segment`'s place
 * (Traders & Builders' TG, TL, TV: two small farms in one corner, parted by
 * a wall). */
static int place_shared(int kind, int rot, int segment, const char *place)
{
    const carc_tile_def *def = carc_tile(kind);
    for (int s = 0; s < def->nsegments; s++) {
        const char *other = s != segment && def->segments[s].kind == def->segments[segment].kind
                                ? describe_place(kind, rot, s)
                                : NULL;
        if (other && strcmp(other, place) == 0)
            return 1;
    }
    return 0;
}

/* The edge the segment reaches, when it reaches one only, else -1. */
static int only_edge(unsigned ports)
{
    if (edges_touched(ports) != 1)
        return -1;
    for (int edge = 0; edge < 4; edge++)
        if (ports >> (3 * edge) & 7u)
            return edge;
    return -1;
}

void describe_spot(int kind, int rot, int segment, char *buf, size_t cap)
{
    static const char *const edge_names[4] = {"top", "right", "bottom", "left"};
    const char *place = describe_place(kind, rot, segment);
    if (!place) {
        snprintf(buf, cap, "%s", "");
        return;
    }
    int edge = only_edge(carc_tile_segment_ports(kind, rot, segment));
    if (edge >= 0 && place_shared(kind, rot, segment, place)) {
        const carc_segment_def *own = &carc_tile(kind)->segments[segment];
        snprintf(buf, cap, "%s on the %s at the %s, by the %s edge", describe_role(own->kind),
                 describe_feature(own->kind), place, edge_names[edge]);
        return;
    }
    if (strcmp(place, "middle") == 0 && place_shared(kind, rot, segment, place)) {
        /* TX: two roads cross on a bridge. */
        unsigned ports = carc_tile_segment_ports(kind, rot, segment);
        int upright = (ports & (1u << CARC_N | 1u << CARC_S)) != 0;
        const carc_segment_def *own = &carc_tile(kind)->segments[segment];
        snprintf(buf, cap, "%s on the %s across the middle, %s", describe_role(own->kind),
                 describe_feature(own->kind), upright ? "up and down" : "side to side");
        return;
    }
    const carc_segment_def *seg = &carc_tile(kind)->segments[segment];
    int fkind = seg->kind;
    if (fkind == CARC_CLOISTER)
        snprintf(buf, cap, "monk in the cloister");
    else if (fkind == CARC_FIELD && seg->ports == 0) /* IH's closed field, spot F */
        snprintf(buf, cap, "farmer on the field in the middle");
    else if (strcmp(place, "middle") == 0)
        snprintf(buf, cap, "%s on the %s across the middle", describe_role(fkind),
                 describe_feature(fkind));
    else if (strcmp(place, "all around") == 0 || strcmp(place, "in the middle") == 0)
        snprintf(buf, cap, "%s on the %s %s", describe_role(fkind), describe_feature(fkind), place);
    else
        snprintf(buf, cap, "%s on the %s at the %s", describe_role(fkind), describe_feature(fkind),
                 place);
}

void describe_end_value(const carc_feature *f, int players, char *buf, size_t cap)
{
    if (f->complete) {
        snprintf(buf, cap, "Complete: worth %d to whoever held it then; the end adds nothing",
                 f->value);
        return;
    }
    char names[96] = "";
    size_t len = 0;
    int owners = 0;
    for (int p = 0; p < players && p < CARC_MAX_PLAYERS; p++)
        if (f->owners >> p & 1u) {
            int n = snprintf(names + len, sizeof names - len, "%s%s", owners ? " and " : "",
                             session_player_name(p));
            len = n > 0 && (size_t)n < sizeof names - len ? len + (size_t)n : len;
            owners++;
        }
    if (owners == 0 && f->value_at_end > 0)
        snprintf(buf, cap, "If the game ended now: nobody scores its %d (no %s on it)",
                 f->value_at_end, describe_role(f->kind));
    else if (owners == 0)
        snprintf(buf, cap, "If the game ended now: nothing (no %s on it)", describe_role(f->kind));
    else
        snprintf(buf, cap, "If the game ended now: %s score%s %d%s", names, owners > 1 ? "" : "s",
                 f->value_at_end, owners > 1 ? " each" : "");
}

static const int edge_dx[4] = {0, 1, 0, -1}, edge_dy[4] = {-1, 0, 1, 0};

/* The river's open end: the empty square a river edge of the newest river
 * tile faces, and the edge of that square the river comes in by. Returns
 * 0, or -1 when there is none. */
static int river_end(const carc_game *g, int *x, int *y, int *in_edge)
{
    for (int i = carc_game_tile_count(g) - 1; i >= 0; i--) {
        carc_tile_on_board t;
        if (carc_game_tile_info(g, i, &t) != CARC_OK)
            continue;
        for (int e = 0; e < 4; e++) {
            int nx = t.x + edge_dx[e], ny = t.y + edge_dy[e];
            if (carc_tile_edge(t.kind, t.rot, e) == CARC_RIVER &&
                carc_game_tile_at(g, nx, ny) < 0) {
                *x = nx;
                *y = ny;
                *in_edge = (e + 2) % 4;
                return 0;
            }
        }
    }
    return -1;
}

/* Whether `kind` turned `rot` at (x, y) matches the edges of every tile
 * around, with a river edge where the river comes in. */
static int edges_match(const carc_game *g, int kind, int rot, int x, int y, int in_edge)
{
    if (carc_tile_edge(kind, rot, in_edge) != CARC_RIVER)
        return 0;
    for (int e = 0; e < 4; e++) {
        int index = carc_game_tile_at(g, x + edge_dx[e], y + edge_dy[e]);
        carc_tile_on_board t;
        if (index < 0 || carc_game_tile_info(g, index, &t) != CARC_OK)
            continue;
        if (carc_tile_edge(kind, rot, e) != carc_tile_edge(t.kind, t.rot, (e + 2) % 4))
            return 0;
    }
    return 1;
}

void describe_discard(const carc_game *g, int kind, char *buf, size_t cap)
{
    int x = 0, y = 0, in_edge = 0;
    const carc_tile_def *def = carc_tile(kind);
    if (!g || !def || def->set != CARC_EXPANSION_RIVER || river_end(g, &x, &y, &in_edge) != 0) {
        snprintf(buf, cap, "it fits nowhere");
        return;
    }
    int fits = 0;
    for (int rot = 0; rot < 4; rot++)
        fits |= edges_match(g, kind, rot, x, y, in_edge);
    if (fits)
        snprintf(buf, cap, "only a U-turn fits the river's end, %d,%d", x, y);
    else
        snprintf(buf, cap, "the river is boxed in at its end, %d,%d", x, y);
}

void describe_move(int kind, carc_move m, char *buf, size_t cap)
{
    if (m.type == CARC_MOVE_DISCARD || !carc_tile(kind)) {
        snprintf(buf, cap, "discard");
        return;
    }
    char spot[80] = "no follower";
    if (m.segment != CARC_NO_SPOT)
        describe_spot(kind, m.place.rot, m.segment, spot, sizeof spot);
    snprintf(buf, cap, "at %d,%d turned %d, %s%s", m.place.x, m.place.y, m.place.rot,
             m.segment != CARC_NO_SPOT && m.figure == CARC_FIGURE_LARGE ? "large " : "", spot);
}

const char *describe_figure(int figure)
{
    static const char *const names[CARC_FIGURES] = {"follower", "large follower", "builder", "pig"};
    return figure >= 0 && figure < CARC_FIGURES ? names[figure] : "figure";
}

void describe_goods(const carc_game *g, int feature, char *buf, size_t cap)
{
    static const unsigned marks[CARC_GOODS_TYPES] = {CARC_MARK_WINE, CARC_MARK_GRAIN,
                                                     CARC_MARK_CLOTH};
    static const char *const names[CARC_GOODS_TYPES] = {"wine", "grain", "cloth"};
    int count[CARC_GOODS_TYPES] = {0}, any = 0;
    for (int i = 0; i < carc_game_tile_count(g); i++) {
        carc_tile_on_board t;
        if (carc_game_tile_info(g, i, &t) != CARC_OK)
            continue;
        const carc_tile_def *def = carc_tile(t.kind);
        for (int s = 0; s < def->nsegments; s++)
            for (int k = 0; k < CARC_GOODS_TYPES; k++)
                if ((def->segments[s].marks & marks[k]) &&
                    carc_game_feature_has(g, feature, i, s)) {
                    count[k]++;
                    any = 1;
                }
    }
    carc_feature f;
    if (!any || carc_game_feature_info(g, feature, &f) != CARC_OK) {
        snprintf(buf, cap, "%s", "");
        return;
    }
    char list[64] = "";
    size_t len = 0;
    for (int k = 0; k < CARC_GOODS_TYPES; k++)
        if (count[k] > 0 && len < sizeof list) {
            int n = snprintf(list + len, sizeof list - len, "%s%d %s", len ? ", " : "", count[k],
                             names[k]);
            len = n > 0 ? len + (size_t)n : len;
        }
    snprintf(buf, cap, "Goods: %s, %s", list,
             f.complete ? "given when it was completed" : "to whoever completes it");
}

void describe_marks(const carc_feature *f, char *buf, size_t cap)
{
    if (f->kind == CARC_ROAD && (f->marks & CARC_MARK_INN))
        snprintf(buf, cap, "An inn: 2 a tile when complete, but 0 if still open at the end");
    else if (f->kind == CARC_CITY && (f->marks & CARC_MARK_CATHEDRAL))
        snprintf(buf, cap,
                 "A cathedral: 3 a tile and pennant when complete, but 0 if still open at the end");
    else
        snprintf(buf, cap, "%s", "");
}
