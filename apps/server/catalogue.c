/* catalogue.c: the library's tile catalogue (carc_tile()) as JSON, so that
 * the browser draws every tile from the same data the rules use. */
#include "catalogue.h"

#include <jansson.h>

#include "carcassonne.h"
#include "wire.h"

static const char *const edge_names[4] = {"N", "E", "S", "W"};

/* The tile set a kind comes from: "base", or its expansion's name. */
static const char *set_name(const carc_tile_def *t)
{
    const char *name = t->set ? carc_expansion_name(t->set) : "base";
    return name ? name : "?";
}

/* Port names ("NNW" ...) of a port bit set, clockwise from NNW. */
static json_t *ports_json(unsigned ports)
{
    json_t *list = json_array();
    for (int p = 0; p < CARC_PORTS; p++)
        if (ports & (1u << p))
            json_array_append_new(list, json_string(carc_port_name(p)));
    return list;
}

/* The names of a segment's marks (Inns & Cathedrals, Traders &
 * Builders): "inn", "cathedral", "wine", "grain", "cloth". */
static json_t *marks_json(unsigned marks)
{
    static const char *const names[] = {"inn", "cathedral", "wine", "grain", "cloth"};
    json_t *list = json_array();
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (marks & (1u << i))
            json_array_append_new(list, json_string(names[i]));
    return list;
}

/* Indices of the city segments a field borders. */
static json_t *borders_json(unsigned borders)
{
    json_t *list = json_array();
    for (int i = 0; i < CARC_MAX_SEGMENTS_PER_TILE; i++)
        if (borders & (1u << i))
            json_array_append_new(list, json_integer(i));
    return list;
}

static json_t *tile_json(const carc_tile_def *t)
{
    json_t *edges = json_object(), *segments = json_array();
    for (int e = 0; e < 4; e++)
        json_object_set_new(edges, edge_names[e], json_string(wire_kind_name(t->edges[e])));
    for (int s = 0; s < t->nsegments; s++) {
        const carc_segment_def *d = &t->segments[s];
        json_array_append_new(
            segments, json_pack("{s:s, s:b, s:o, s:o, s:o}", "kind", wire_kind_name(d->kind),
                                "pennant", d->pennant, "ports", ports_json(d->ports), "borders",
                                borders_json(d->borders), "marks", marks_json(d->marks)));
    }
    /* "letter": the id under the name of version 1, for older clients. */
    return json_pack("{s:s, s:s, s:s, s:i, s:o, s:o}", "id", t->id, "letter", t->id, "set",
                     set_name(t), "count", t->count, "edges", edges, "segments", segments);
}

char *catalogue_json(void)
{
    json_t *tiles = json_array(), *ports = json_array();
    for (int k = 0; k < carc_tile_kinds(); k++)
        json_array_append_new(tiles, tile_json(carc_tile(k)));
    for (int p = 0; p < CARC_PORTS; p++)
        json_array_append_new(ports, json_string(carc_port_name(p)));
    /* Version 3: each segment's "marks"; version 4: marks "wine", "grain",
     * "cloth" and the set "traders-builders". */
    json_t *root = json_pack("{s:i, s:o, s:o}", "version", 4, "ports", ports, "tiles", tiles);
    char *text = root ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    return text;
}
