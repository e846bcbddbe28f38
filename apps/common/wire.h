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

/* The names of the expansions of `rules` (carc_expansion_name()), lowest
 * flag first, as a new JSON array ([] for the base game alone). */
json_t *wire_expansions(carc_rules rules);

/* carc_kind_name(), except "field" for CARC_FIELD: the word the engine
 * protocol (segments, spots, events) and the server's tile catalogue and
 * follower spots have used since their first version, kept so that no
 * protocol changes. The server's features and events say "farm". */
const char *wire_kind_name(int kind);

#endif
