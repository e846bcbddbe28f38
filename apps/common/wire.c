/* wire.c: the names the protocols write (see wire.h). */
#include "wire.h"

#include <stdio.h>
#include <string.h>

/* The names of the flags set in `flags`, by `name_of`, as a JSON array. */
static json_t *names_json(uint32_t flags, const char *(*name_of)(uint32_t))
{
    json_t *list = json_array();
    for (uint32_t bit = 1; bit && bit <= flags; bit <<= 1)
        if ((flags & bit) && name_of(bit))
            json_array_append_new(list, json_string(name_of(bit)));
    return list;
}

json_t *wire_rules(carc_rules rules)
{
    /* The rules line's words (carc_rules_format), one string each. */
    char words[CARC_RULES_TEXT_MAX];
    size_t len = carc_rules_format(rules, words, sizeof words, "\n");
    json_t *list = json_array();
    if (len >= sizeof words) /* not with the rules there are */
        return list;
    for (char *word = words, *end; *word; word = end + (*end != '\0')) {
        end = word + strcspn(word, "\n");
        json_array_append_new(list, json_stringn(word, (size_t)(end - word)));
    }
    return list;
}

int wire_read_rules(const json_t *list, carc_rules *rules, char *err, size_t errcap)
{
    enum { MAX_WORDS = 64 }; /* far more than there are rules */
    const char *words[MAX_WORDS];
    size_t n = 0, i;
    const json_t *v;
    if (list && !json_is_null(list) && !json_is_array(list)) {
        snprintf(err, errcap, "'rules' must be an array of rule names");
        return -1;
    }
    if (json_is_array(list) && json_array_size(list) > MAX_WORDS) {
        snprintf(err, errcap, "'rules': more than %d names", MAX_WORDS);
        return -1;
    }
    json_array_foreach(list, i, v)
    {
        if (!json_is_string(v) || strlen(json_string_value(v)) != json_string_length(v)) {
            snprintf(err, errcap, "rules[%zu]: a rule name must be a string (without NUL)", i);
            return -1;
        }
        words[n++] = json_string_value(v);
    }
    return carc_rules_parse_words(words, n, rules, err, errcap) == CARC_OK ? 0 : -1;
}

json_t *wire_expansions(carc_rules rules)
{
    return names_json(rules.expansions, carc_expansion_name);
}

const char *wire_kind_name(int kind)
{
    return kind == CARC_FIELD ? "field" : carc_kind_name(kind);
}

const char *wire_figure_name(int figure)
{
    static const char *const names[CARC_FIGURES] = {"follower", "large", "builder", "pig"};
    return figure >= 0 && figure < CARC_FIGURES ? names[figure] : "?";
}

const char *wire_goods_name(int type)
{
    static const char *const names[CARC_GOODS_TYPES] = {"wine", "grain", "cloth"};
    return type >= 0 && type < CARC_GOODS_TYPES ? names[type] : "?";
}

json_t *wire_goods(const uint8_t goods[CARC_GOODS_TYPES])
{
    json_t *obj = json_object();
    for (int t = 0; t < CARC_GOODS_TYPES; t++)
        json_object_set_new(obj, wire_goods_name(t), json_integer(goods[t]));
    return obj;
}

json_t *wire_player_goods(const carc_game *g, int player)
{
    uint8_t goods[CARC_GOODS_TYPES];
    for (int t = 0; t < CARC_GOODS_TYPES; t++)
        goods[t] = (uint8_t)carc_game_goods(g, player, t);
    return wire_goods(goods);
}

void wire_event_bonus(json_t *event, const carc_event *e)
{
    if (e->bonus == CARC_BONUS_PIG) {
        json_object_set_new(event, "bonus", json_string("pig"));
    } else if (e->bonus == CARC_BONUS_GOODS) {
        json_object_set_new(event, "bonus", json_string("goods"));
        json_object_set_new(event, "goods", wire_goods(e->goods));
    }
}

const char *wire_segment_spot(int kind, int rot, int seg)
{
    unsigned ports = carc_tile_segment_ports(kind, rot, seg);
    for (int p = 0; p < CARC_PORTS; p++)
        if (ports & (1u << p))
            return carc_port_name(p);
    const carc_tile_def *def = carc_tile(kind);
    return def && seg >= 0 && seg < def->nsegments && def->segments[seg].kind == CARC_FIELD ? "F"
                                                                                            : "C";
}

json_t *wire_figure_spots(const carc_game *g, const carc_move *moves, int n, carc_placement place,
                          int figure)
{
    json_t *out = json_array();
    int kind = carc_game_drawn_tile(g);
    /* The moves are at the canonical rotation; a spot names board ports,
     * the same at every rotation that puts the same tile down. */
    carc_move probe = {.type = CARC_MOVE_PLACE, .place = place, .segment = CARC_NO_SPOT};
    place = carc_move_canonical(g, probe).place;
    for (int i = 0; i < n; i++) {
        const carc_move *m = &moves[i];
        if (m->type == CARC_MOVE_PLACE && m->figure == figure && m->segment != CARC_NO_SPOT &&
            m->place.x == place.x && m->place.y == place.y && m->place.rot == place.rot &&
            m->place.tile == place.tile)
            json_array_append_new(out, json_string(wire_segment_spot(kind, place.rot, m->segment)));
    }
    return out;
}
