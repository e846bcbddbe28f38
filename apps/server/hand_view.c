/* hand_view.c: the hands as each viewer of a table may see them. */
#include "hand_view.h"

#include <string.h>

#include "tile_info.h"

static int has_hand(const srv_table *t)
{
    return carc_game_rules(t->game).hand > 0;
}

int hand_hidden(const srv_table *t)
{
    return has_hand(t) && !(carc_game_rules(t->game).flags & CARC_RULE_OPEN_HANDS) &&
           t->row.status != TABLE_FINISHED && !carc_game_over(t->game);
}

int hand_visible(const srv_table *t, int viewer, int player)
{
    return !hand_hidden(t) || (viewer >= 0 && viewer == player);
}

static void add_hand(const carc_game *g, int player, int counts[CARC_MAX_KINDS])
{
    int kinds[CARC_MAX_HAND];
    int n = carc_game_hand(g, player, kinds, CARC_MAX_HAND);
    for (int i = 0; i < n && i < CARC_MAX_HAND; i++)
        if (kinds[i] >= 0 && kinds[i] < CARC_MAX_KINDS)
            counts[kinds[i]]++;
}

int hand_add_all(const srv_table *t, int counts[CARC_MAX_KINDS])
{
    int n = 0;
    for (int p = 0; p < t->row.players; p++) {
        add_hand(t->game, p, counts);
        n += carc_game_hand(t->game, p, NULL, 0);
    }
    return n;
}

void hand_add_unseen(const srv_table *t, int viewer, int counts[CARC_MAX_KINDS])
{
    for (int p = 0; p < t->row.players; p++)
        if (!hand_visible(t, viewer, p))
            add_hand(t->game, p, counts);
}

static json_t *tile_id(int kind)
{
    const char *id = carc_tile_id(kind);
    return id ? json_string(id) : json_null();
}

static json_t *hand_tiles(const carc_game *g, int player)
{
    int kinds[CARC_MAX_HAND];
    int n = carc_game_hand(g, player, kinds, CARC_MAX_HAND);
    json_t *list = json_array();
    for (int i = 0; i < n && i < CARC_MAX_HAND; i++)
        json_array_append_new(list, tile_id(kinds[i]));
    return list;
}

json_t *hand_view_hands(const srv_table *t, int viewer)
{
    json_t *list = json_array();
    for (int p = 0; p < t->row.players; p++) {
        int count = carc_game_hand(t->game, p, NULL, 0);
        json_t *tiles = hand_visible(t, viewer, p) ? hand_tiles(t->game, p) : json_null();
        json_array_append_new(list, json_pack("{s:i, s:o}", "count", count, "tiles", tiles));
    }
    return list;
}

json_t *hand_view_own(const srv_table *t, int viewer)
{
    return viewer >= 0 && viewer < t->row.players ? hand_tiles(t->game, viewer) : json_array();
}

json_t *hand_view_draws(const srv_table *t, int viewer, int moves)
{
    json_t *list = json_array();
    int n = carc_game_draw_count(t->game);
    for (int i = 0; i < n; i++) {
        int player, kind, at;
        if (carc_game_draw_at(t->game, i, &player, &kind, &at) != CARC_OK || at != moves)
            continue;
        json_t *tile = hand_visible(t, viewer, player) ? tile_id(kind) : json_null();
        json_array_append_new(list, json_pack("{s:i, s:o}", "player", player, "tile", tile));
    }
    return list;
}

json_t *hand_view_dead(const srv_table *t)
{
    int counts[CARC_MAX_KINDS] = {0};
    tile_square dead[TILE_INFO_MAX_SQUARES];
    int n = 0;
    if (!carc_game_over(t->game)) {
        carc_game_tiles_left(t->game, counts);
        hand_add_all(t, counts);
        n = tile_info_dead_spots_for(t->game, counts, dead, TILE_INFO_MAX_SQUARES);
    }
    json_t *list = json_array();
    for (int i = 0; i < n && i < TILE_INFO_MAX_SQUARES; i++)
        json_array_append_new(list, json_pack("[i, i]", dead[i].x, dead[i].y));
    return list;
}

char *hand_record_filter(const srv_table *t, char *text)
{
    if (!text || !hand_hidden(t))
        return text;
    char *out = text;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        if (strncmp(line, "draw ", 5) != 0) {
            memmove(out, line, len);
            out += len;
        }
        line += len;
    }
    *out = '\0';
    return text;
}
