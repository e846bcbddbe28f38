/* feature_view.c: every feature on the board as JSON: what it is, who holds
 * it, what it is worth now and at the end, and the segments it covers. */
#include "feature_view.h"

#include <stdlib.h>

#include "board_view.h"
#include "wire.h"

static json_t *feature_json(const carc_game *g, int id)
{
    carc_feature f;
    if (carc_game_feature_info(g, id, &f) != CARC_OK)
        return NULL;
    json_t *followers = json_array(), *owners = json_array();
    for (int p = 0; p < carc_game_players(g); p++) {
        json_array_append_new(followers, json_integer(f.followers[p]));
        if (f.owners & (1u << p))
            json_array_append_new(owners, json_integer(p));
    }
    json_t *marks = json_array(); /* Inns & Cathedrals, Traders & Builders */
    if (f.marks & CARC_MARK_INN)
        json_array_append_new(marks, json_string("inn"));
    if (f.marks & CARC_MARK_CATHEDRAL)
        json_array_append_new(marks, json_string("cathedral"));
    static const unsigned goods[CARC_GOODS_TYPES] = {CARC_MARK_WINE, CARC_MARK_GRAIN,
                                                     CARC_MARK_CLOTH};
    for (int k = 0; k < CARC_GOODS_TYPES; k++) /* Traders & Builders: the goods it holds */
        if (f.marks & goods[k])
            json_array_append_new(marks, json_string(wire_goods_name(k)));
    return json_pack("{s:i, s:s, s:b, s:i, s:i, s:i, s:i, s:i, s:o, s:o, s:o, s:[]}", "id", id,
                     "kind", carc_kind_name(f.kind), "complete", f.complete, "tiles", f.tiles,
                     "pennants", f.pennants, "open_edges", f.open_edges, "value", f.value,
                     "value_at_end", f.value_at_end, "followers", followers, "owners", owners,
                     "marks", marks, "parts");
}

/* The feature of each segment of each tile, grouped by feature id. */
json_t *features_view(const carc_game *g)
{
    json_t *list = json_array();
    json_t **by_id = NULL;
    size_t cap = 0;
    for (int i = 0; i < carc_game_tile_count(g); i++) {
        carc_tile_on_board b;
        if (carc_game_tile_info(g, i, &b) != CARC_OK)
            continue;
        for (int s = 0; s < carc_tile(b.kind)->nsegments; s++) {
            int id = carc_game_feature(g, i, s);
            if (id < 0)
                continue;
            if ((size_t)id >= cap) {
                size_t more = 2 * (size_t)id + 16;
                json_t **grown = realloc(by_id, more * sizeof(json_t *));
                if (!grown)
                    break;
                for (size_t k = cap; k < more; k++)
                    grown[k] = NULL;
                by_id = grown;
                cap = more;
            }
            if (!by_id[id] && (by_id[id] = feature_json(g, id)))
                json_array_append_new(list, by_id[id]);
            if (by_id[id])
                json_array_append_new(json_object_get(by_id[id], "parts"),
                                      json_pack("[i, i, s]", b.x, b.y, board_view_spot(&b, s)));
        }
    }
    free(by_id);
    return json_pack("{s:o}", "features", list);
}
