/* wire.c: the names the protocols write (see wire.h). */
#include "wire.h"

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
    return names_json(rules.flags, carc_rule_name);
}

json_t *wire_expansions(carc_rules rules)
{
    return names_json(rules.expansions, carc_expansion_name);
}

const char *wire_kind_name(int kind)
{
    return kind == CARC_FIELD ? "field" : carc_kind_name(kind);
}
