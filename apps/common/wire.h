/* wire.h: the names the protocols write (the engine protocol, the game
 * server's): a game's rules and expansions as JSON lists of names, and a
 * kind's word where a protocol says "field". */
#ifndef CARC_COMMON_WIRE_H
#define CARC_COMMON_WIRE_H

#include <jansson.h>

#include "carcassonne.h"

/* The names of the rule flags of `rules` (carc_rule_name()), lowest flag
 * first, as a new JSON array. */
json_t *wire_rules(carc_rules rules);

/* Reads the JSON array `list` that wire_rules() writes (a name a string,
 * valued ones as NAME=VALUE) into the flags and valued rules of `*rules`
 * (carc_rules_parse_words(): its expansions are left as they were); a
 * missing list (NULL or null) is the standard rules. -1 with the reason in
 * `err` (naming the entry: "rules[1]: unknown rule 'x'") and `*rules`
 * unchanged. */
int wire_read_rules(const json_t *list, carc_rules *rules, char *err, size_t errcap);

/* The names of the expansions of `rules` (carc_expansion_name()), lowest
 * flag first, as a new JSON array ([] for the base game alone). */
json_t *wire_expansions(carc_rules rules);

/* carc_kind_name(), except "field" for CARC_FIELD: the word the engine
 * protocol (segments, spots, events) and the server's tile catalogue and
 * follower spots have used since their first version, kept so that no
 * protocol changes. The server's features and events say "farm". */
const char *wire_kind_name(int kind);

/* The record's word of a figure (carc_figure): "follower", "large",
 * "builder", "pig"; "?" for anything else. */
const char *wire_figure_name(int figure);

/* The name of goods type `type` (CARC_GOODS_*): "wine", "grain", "cloth";
 * "?" for anything else. */
const char *wire_goods_name(int type);

/* Goods counts as a new JSON object {"wine": n, "grain": n, "cloth": n}. */
json_t *wire_goods(const uint8_t goods[CARC_GOODS_TYPES]);

/* `player`'s goods tokens (carc_game_goods()) as wire_goods() writes them. */
json_t *wire_player_goods(const carc_game *g, int player);

/* What an event scores (carc_event.bonus) added to the event object
 * `event`: "bonus": "pig" or "goods", and for goods "goods": {...}.
 * Nothing for a feature's own points. */
void wire_event_bonus(json_t *event, const carc_event *e);

/* The record's spot of segment `seg` of tile `kind` turned `rot`: its
 * first port's name, else "F" for a field with no ports, "C" for a
 * cloister. */
const char *wire_segment_spot(int kind, int rot, int seg);

/* The spots of `place` where one of the `n` legal moves `moves` (as
 * carc_legal_moves() lists them, of the drawn tile of `g`) deploys
 * `figure`, in their order, as a new JSON array of wire_segment_spot();
 * `place` may be at any rotation that fits. */
json_t *wire_figure_spots(const carc_game *g, const carc_move *moves, int n, carc_placement place,
                          int figure);

#endif
