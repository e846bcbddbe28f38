/* rules.c: rule options and their names in the record notation. */
#include <string.h>

#include "carcassonne.h"

static const struct {
    uint32_t flag;
    const char *name;
} rule_names[] = {
    {CARC_RULE_FARMS_FIRST_EDITION, "farms-first-edition"},
    {CARC_RULE_SMALL_CITY, "small-city"},
    {CARC_RULE_NO_INCOMPLETE, "no-incomplete-scoring"},
    {CARC_RULE_BONUS_TURN, "bonus-turn"},
};

carc_rules carc_rules_standard(void)
{
    return (carc_rules){0};
}

uint32_t carc_rule_flag(const char *name)
{
    if (!name)
        return 0;
    for (size_t i = 0; i < sizeof rule_names / sizeof rule_names[0]; i++)
        if (strcmp(name, rule_names[i].name) == 0)
            return rule_names[i].flag;
    return 0;
}

const char *carc_rule_name(uint32_t flag)
{
    for (size_t i = 0; i < sizeof rule_names / sizeof rule_names[0]; i++)
        if (rule_names[i].flag == flag)
            return rule_names[i].name;
    return NULL;
}
