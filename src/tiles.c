/* tiles.c: the public view of the tile catalogue and of port names. */
#include "tiles.h"

#include <string.h>

static const char *const port_names[CARC_PORTS] = {
    "NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW",
};

int carc_tile_kinds(void)
{
    return CARC_ALL_KINDS;
}

const carc_tile_def *carc_tile(int kind)
{
    if (kind < 0 || kind >= CARC_ALL_KINDS)
        return NULL;
    return &carc_tile_data[kind];
}

int carc_tile_parse_n(const char *text, size_t len)
{
    if (!text || len == 0 || len >= CARC_TILE_ID_SIZE)
        return -1;
    /* Base ids are their kind's letter; expansion ids are looked up. */
    if (len == 1)
        return text[0] >= 'A' && text[0] < 'A' + CARC_BASE_KINDS ? text[0] - 'A' : -1;
    for (int k = CARC_BASE_KINDS; k < CARC_ALL_KINDS; k++)
        if (strlen(carc_tile_data[k].id) == len && memcmp(carc_tile_data[k].id, text, len) == 0)
            return k;
    return -1;
}

int carc_tile_parse(const char *id)
{
    return id ? carc_tile_parse_n(id, strnlen(id, CARC_TILE_ID_SIZE)) : -1;
}

const char *carc_tile_id(int kind)
{
    const carc_tile_def *def = carc_tile(kind);
    return def ? def->id : "?";
}

static int valid_kind_rot(int kind, int rot)
{
    return kind >= 0 && kind < CARC_ALL_KINDS && rot >= 0 && rot < 4;
}

int carc_tile_segment_at(int kind, int rot, int port)
{
    if (!valid_kind_rot(kind, rot) || port < 0 || port >= CARC_PORTS)
        return -1;
    int seg = carc_port_seg[kind][rot][port];
    return seg == 255 ? -1 : seg;
}

unsigned carc_tile_segment_ports(int kind, int rot, int seg)
{
    if (!valid_kind_rot(kind, rot) || seg < 0 || seg >= carc_tile_data[kind].nsegments)
        return 0;
    return carc_seg_ports[kind][rot][seg];
}

int carc_tile_edge(int kind, int rot, int edge)
{
    if (!valid_kind_rot(kind, rot) || edge < 0 || edge > 3)
        return -1;
    return carc_tile_data[kind].edges[(edge + 4 - rot) & 3];
}

const char *carc_port_name(int port)
{
    if (port < 0 || port >= CARC_PORTS)
        return NULL;
    return port_names[port];
}

const char *carc_kind_name(int kind)
{
    static const char *const names[] = {
        [CARC_ROAD] = "road",         [CARC_CITY] = "city",   [CARC_FIELD] = "farm",
        [CARC_CLOISTER] = "cloister", [CARC_RIVER] = "river",
    };
    return kind >= 0 && kind < (int)(sizeof names / sizeof names[0]) ? names[kind] : "?";
}

int carc_port_parse(const char *name)
{
    if (!name)
        return -1;
    for (int p = 0; p < CARC_PORTS; p++)
        if (strcmp(name, port_names[p]) == 0)
            return p;
    return -1;
}
