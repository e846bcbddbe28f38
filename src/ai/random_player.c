/* random_player.c: the uniformly random player. */
#include "../game.h"

carc_move carc_random_move(const carc_game *g, carc_rng *r, double follower_chance)
{
    return game_choose_random(g, r, follower_chance);
}
