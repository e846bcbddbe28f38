/* describe.c: words for follower places and moves (see describe.h). */
#include "describe.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *describe_feature(int kind)
{
    static const char *const names[] = {"road", "city", "farm", "cloister"};
    return kind >= 0 && kind < 4 ? names[kind] : "?";
}

const char *describe_role(int kind)
{
    static const char *const roles[] = {"thief", "knight", "farmer", "monk"};
    return kind >= 0 && kind < 4 ? roles[kind] : "?";
}

/* Where each port sits on the tile's border, x to the right and y down,
 * the centre at 0,0 and the edges at +-2 (CARC_NNW first, clockwise). */
static const int port_x[CARC_PORTS] = {-1, 0, 1, 2, 2, 2, 1, 0, -1, -2, -2, -2};
static const int port_y[CARC_PORTS] = {-2, -2, -2, -1, 0, 1, 2, 2, 2, 1, 0, -1};

/* How many of the four edges hold one of `ports` (three ports an edge). */
static int edges_touched(unsigned ports)
{
    int n = 0;
    for (int edge = 0; edge < 4; edge++)
        n += (ports >> (3 * edge) & 7u) != 0;
    return n;
}

const char *describe_place(int kind, int rot, int segment)
{
    const carc_tile_def *def = carc_tile(kind);
    if (!def || rot < 0 || rot > 3 || segment < 0 || segment >= def->nsegments)
        return NULL;
    unsigned ports = carc_tile_segment_ports(kind, rot, segment);
    int n = 0, sx = 0, sy = 0;
    for (int p = 0; p < CARC_PORTS; p++)
        if (ports >> p & 1u) {
            sx += port_x[p];
            sy += port_y[p];
            n++;
        }
    /* The mean position of the segment's ports: near the centre (a road
     * straight across, a cloister) is the middle, else the nearest of
     * eight directions. */
    if (n == 0 || (double)(sx * sx + sy * sy) < 0.16 * n * n)
        return edges_touched(ports) >= 3 ? "all around" : "middle";
    static const char *const names[8] = {"right", "bottom right", "bottom", "bottom left",
                                         "left",  "top left",     "top",    "top right"};
    double angle = atan2((double)sy, (double)sx); /* y down: clockwise from the right */
    const double eighth = 0.78539816339744830962; /* pi / 4 */
    int octant = (int)lround(angle / eighth);
    return names[(octant % 8 + 8) % 8];
}

void describe_spot(int kind, int rot, int segment, char *buf, size_t cap)
{
    const char *place = describe_place(kind, rot, segment);
    if (!place) {
        snprintf(buf, cap, "%s", "");
        return;
    }
    int fkind = carc_tile(kind)->segments[segment].kind;
    if (fkind == CARC_CLOISTER)
        snprintf(buf, cap, "monk in the cloister");
    else if (strcmp(place, "middle") == 0)
        snprintf(buf, cap, "%s on the %s across the middle", describe_role(fkind),
                 describe_feature(fkind));
    else if (strcmp(place, "all around") == 0)
        snprintf(buf, cap, "%s on the %s all around", describe_role(fkind),
                 describe_feature(fkind));
    else
        snprintf(buf, cap, "%s on the %s at the %s", describe_role(fkind), describe_feature(fkind),
                 place);
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
    snprintf(buf, cap, "at %d,%d turned %d, %s", m.place.x, m.place.y, m.place.rot, spot);
}
