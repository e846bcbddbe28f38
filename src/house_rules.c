/* house_rules.c: the first edition's farm scoring (house_rules.h). */
#include <string.h>

#include "state.h"
#include "capabilities.h"
#include "feature.h"

/* The farmers around each completed city, for first-edition scoring. */
typedef struct city_tally {
    uint32_t farmers[MAX_SEGMENTS];
    uint8_t bonus[MAX_SEGMENTS]; /* players with a farm bonus (a pig) around it */
    uint16_t touched[MAX_SEGMENTS];
    int ntouched;
} city_tally;

static void tally_city_farmers(carc_game *g, int farm, void *ctx)
{
    city_tally *tally = ctx;
    uint64_t seen[MAX_SEGMENTS / 64];
    uint16_t cities[MAX_SEGMENTS];
    int n = score_farm_cities(g, farm, seen, cities);
    for (int i = 0; i < n; i++) {
        if (tally->farmers[cities[i]] == 0)
            tally->touched[tally->ntouched++] = cities[i];
        tally->farmers[cities[i]] += seg_followers(&g->seg[farm]);
        tally->bonus[cities[i]] |= (uint8_t)caps_farm_bonus_players(g, farm);
    }
}

/* First edition: each completed city is scored once, 4 points to the
 * players with the most farmers on the farms that border it. */
int farms_first_edition_score(carc_game *g, event_sink *sink)
{
    city_tally tally;
    memset(&tally, 0, sizeof tally);
    score_each_occupied(g, 1, tally_city_farmers, &tally);
    for (int i = 0; i < tally.ntouched; i++) {
        int city = tally.touched[i];
        carc_event ev = score_event(g, city, 0);
        ev.kind = CARC_FIELD;
        ev.tiles = 1;
        ev.points = (int16_t)feature_worth(g, CARC_FIELD, 1, 0, 0, 1);
        ev.winners = (uint8_t)feature_majority(tally.farmers[city], g->nplayers);
        score_award(g, ev.winners, ev.points, CARC_FIELD);
        sink_push(sink, &ev);
        /* traders-builders.md's proposal: a scoring player's pig on a farm
         * around the city adds 1. */
        unsigned bonus = ev.winners & tally.bonus[city];
        if (bonus)
            caps_farm_bonus(g, &ev, bonus, 1, sink);
    }
    return 1;
}
