/* board_view.c: the start tile and the followers on the board, as JSON. */
#include "board_view.h"

json_t *board_view_start(const carc_game *g)
{
    carc_tile_on_board b;
    if (carc_game_tile_count(g) < 1 || carc_game_tile_info(g, 0, &b) != CARC_OK)
        return json_null();
    char letter[2] = {carc_tile(b.kind)->letter, '\0'};
    return json_pack("{s:s, s:i, s:i, s:i}", "tile", letter, "x", b.x, "y", b.y, "rot", b.rot);
}

const char *board_view_spot(const carc_tile_on_board *b, int seg)
{
    unsigned ports = carc_tile_segment_ports(b->kind, b->rot, seg);
    for (int p = 0; p < CARC_PORTS; p++)
        if (ports & (1u << p))
            return carc_port_name(p);
    return "C";
}

json_t *board_view_followers(const carc_game *g)
{
    json_t *list = json_array();
    for (int i = 0; i < carc_game_tile_count(g); i++) {
        carc_tile_on_board b;
        if (carc_game_tile_info(g, i, &b) != CARC_OK || b.follower_segment == CARC_NO_SPOT)
            continue;
        json_array_append_new(list, json_pack("{s:i, s:i, s:s, s:i}", "x", b.x, "y", b.y, "spot",
                                              board_view_spot(&b, b.follower_segment), "player",
                                              b.follower_owner));
    }
    return list;
}
