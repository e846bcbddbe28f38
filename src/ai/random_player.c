/* random_player.c: the uniformly random player. */
#include "../game.h"

carc_move carc_random_move(const carc_game *g, carc_rng *r,
                           double follower_chance)
{
    carc_move m = { CARC_MOVE_DISCARD, { 0, 0, 0, 0 }, CARC_NO_SPOT };
    int n = game_placement_count(g);
    if (n == 0)
        return m;
    m.type = CARC_MOVE_PLACE;
    m.place = game_random_placement(g, r);
    /* A 53-bit uniform fraction decides whether to try a follower. */
    double u = (double)(carc_rng_next(r) >> 11) * 0x1.0p-53;
    if (u < follower_chance) {
        carc_spot spots[CARC_MAX_SPOTS];
        int ns = carc_legal_spots(g, m.place, spots, CARC_MAX_SPOTS);
        if (ns > 0)
            m.segment = spots[carc_rng_below(r, (uint32_t)ns)].segment;
    }
    return m;
}
