/* house_rules.h: the house rules (variants.md) that change a turn or the
 * scoring, each a capability (capability.h): bonus-turn, no-incomplete,
 * small-city, farms-first-edition. The rules that change the tiles (start-in-pile,
 * extra-start-tile, reshuffle, hand=N) are the tile source's (source.h);
 * the bounded table (table=WxH) is bounds.h's. */
#ifndef CARC_HOUSE_RULES_H
#define CARC_HOUSE_RULES_H

#include "capability.h"
#include "board.h"

/* bonus-turn: a player whose tile fills the last square beside it on all
 * four sides plays again. */
static inline int bonus_turn_in_game(const carc_rules *rules)
{
    return (rules->flags & CARC_RULE_BONUS_TURN) != 0;
}

static inline unsigned bonus_turn_end(carc_game *g, const move_fields *m, unsigned turn)
{
    for (int d = 0; d < 4; d++)
        if (board_tile_at(g, m->x + carc_dx[d], m->y + carc_dy[d]) < 0)
            return turn;
    return turn | TURN_AGAIN;
}

static const capability bonus_turn_capability = {
    .name = "bonus-turn",
    .in_game = bonus_turn_in_game,
    .turn_end = bonus_turn_end,
};

/* no-incomplete: roads, cities and cloisters left unfinished score
 * nothing at the end (their figures still go home). */
static inline int no_incomplete_in_game(const carc_rules *rules)
{
    return (rules->flags & CARC_RULE_NO_INCOMPLETE) != 0;
}

static inline int no_incomplete_scores(const carc_game *g)
{
    (void)g;
    return 0;
}

static const capability no_incomplete_capability = {
    .name = "no-incomplete-scoring",
    .in_game = no_incomplete_in_game,
    .incomplete_scores = no_incomplete_scores,
};

/* small-city: a completed city of two tiles scores 1 a tile and pennant,
 * as an unfinished one does (a cathedral's city keeps its worth). */
static inline int small_city_in_game(const carc_rules *rules)
{
    return (rules->flags & CARC_RULE_SMALL_CITY) != 0;
}

static inline int small_city_worth(int kind, int tiles, int pennants, unsigned marks, int complete,
                                   int worth)
{
    if (kind == CARC_CITY && complete && tiles == 2 && !(marks & CARC_MARK_CATHEDRAL))
        return tiles + pennants;
    return worth;
}

static const capability small_city_capability = {
    .name = "small-city",
    .in_game = small_city_in_game,
    .worth = small_city_worth,
};

/* farms-first-edition: each completed city is scored once for the farms
 * around it, 4 points to the players with the most farmers on them
 * (house_rules.c). */
static inline int farms_first_edition_in_game(const carc_rules *rules)
{
    return (rules->flags & CARC_RULE_FARMS_FIRST_EDITION) != 0;
}

static inline int farms_first_edition_worth(int kind, int tiles, int pennants, unsigned marks,
                                            int complete, int worth)
{
    (void)pennants;
    (void)marks;
    (void)complete;
    return kind == CARC_FIELD ? 4 * tiles : worth;
}

int farms_first_edition_score(carc_game *g, event_sink *sink);

static const capability farms_first_edition_capability = {
    .name = "farms-first-edition",
    .in_game = farms_first_edition_in_game,
    .worth = farms_first_edition_worth,
    .score_farms = farms_first_edition_score,
};

#endif
