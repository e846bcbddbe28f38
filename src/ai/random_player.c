/* random_player.c: the uniformly random player. */
#include <stdlib.h>

#include "../game.h"
#include "ai.h"

carc_move carc_random_move(const carc_game *g, carc_rng *r, double follower_chance)
{
    return game_choose_random(g, r, follower_chance);
}

/* The random player's choice comes first: a uniform placement and a
 * follower half of the time, as in the benchmark's games. The other legal
 * moves follow in random order, so that a ranking exists for every move. */
int ai_random_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                   carc_search_info *info)
{
    (void)info;
    /* Canonical, as ai_all_moves() lists the moves: a symmetric tile's
     * choice would otherwise come back below as a second, equal move. */
    carc_move first = carc_move_canonical(g, carc_random_move(g, &p->rng, 0.5));
    int w = 0;
    out[w++] = (carc_move_eval){first, 0.0, 0.5, 0};
    carc_move *moves = malloc(sizeof *moves * AI_MAX_MOVES);
    if (!moves)
        return w; /* the choice alone */
    int n = ai_all_moves(g, moves, AI_MAX_MOVES);
    ai_shuffle_moves(p, moves, n);
    for (int i = 0; i < n && w < cap; i++)
        if (!carc_move_equal(moves[i], first))
            out[w++] = (carc_move_eval){moves[i], 0.0, 0.5, 0};
    free(moves);
    return w;
}
