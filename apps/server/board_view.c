/* board_view.c: the start tile and the followers on the board, as JSON. */
#include "board_view.h"

#include "tile_info.h"
#include "wire.h"

json_t *board_view_start(const carc_game *g)
{
    carc_tile_on_board b;
    if (carc_game_tile_count(g) < 1 || carc_game_tile_info(g, 0, &b) != CARC_OK)
        return json_null();
    return json_pack("{s:s, s:i, s:i, s:i}", "tile", carc_tile_id(b.kind), "x", b.x, "y", b.y,
                     "rot", b.rot);
}

const char *board_view_spot(const carc_tile_on_board *b, int seg)
{
    unsigned ports = carc_tile_segment_ports(b->kind, b->rot, seg);
    for (int p = 0; p < CARC_PORTS; p++)
        if (ports & (1u << p))
            return carc_port_name(p);
    const carc_tile_def *def = carc_tile(b->kind);
    return def && seg >= 0 && seg < def->nsegments && def->segments[seg].kind == CARC_FIELD ? "F"
                                                                                            : "C";
}

json_t *board_view_followers(const carc_game *g)
{
    json_t *list = json_array();
    for (int i = 0; i < carc_game_tile_count(g); i++) {
        carc_tile_on_board b;
        if (carc_game_tile_info(g, i, &b) != CARC_OK || b.follower_segment == CARC_NO_SPOT)
            continue;
        json_array_append_new(list, json_pack("{s:i, s:i, s:s, s:i, s:s}", "x", b.x, "y", b.y,
                                              "spot", board_view_spot(&b, b.follower_segment),
                                              "player", b.follower_owner, "figure",
                                              wire_figure_name(b.follower_figure)));
    }
    return list;
}

json_t *board_view_events(const carc_event *events, int n, int players)
{
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        const carc_event *e = &events[i];
        json_t *winners = json_array(), *returned = json_array();
        for (int p = 0; p < players; p++) {
            if (e->winners & (1u << p))
                json_array_append_new(winners, json_integer(p));
            json_array_append_new(returned, json_integer(e->returned[p]));
        }
        json_t *event = json_pack("{s:s, s:b, s:o, s:i, s:i, s:i, s:i, s:i, s:o}", "kind",
                                  carc_kind_name(e->kind), "complete", e->complete, "winners",
                                  winners, "points", e->points, "tiles", e->tiles, "pennants",
                                  e->pennants, "x", e->x, "y", e->y, "returned", returned);
        if (e->returned_large) { /* Inns & Cathedrals: whose large follower went home */
            json_t *large = json_array();
            for (int p = 0; p < players; p++)
                if (e->returned_large & (1u << p))
                    json_array_append_new(large, json_integer(p));
            json_object_set_new(event, "returned_large", large);
        }
        wire_event_bonus(event, e); /* Traders & Builders: the pig's points, goods */
        json_array_append_new(list, event);
    }
    return list;
}

json_t *board_view_dead(const carc_game *g)
{
    tile_square dead[TILE_INFO_MAX_SQUARES];
    int n = carc_game_over(g) ? 0 : tile_info_dead_spots(g, dead, TILE_INFO_MAX_SQUARES);
    json_t *list = json_array();
    for (int i = 0; i < n && i < TILE_INFO_MAX_SQUARES; i++)
        json_array_append_new(list, json_pack("[i, i]", dead[i].x, dead[i].y));
    return list;
}
