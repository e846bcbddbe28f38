/* random_player.c: the uniformly random player. */
#include <stdlib.h>

#include "ai.h"
#include "random_player.h"
#include "search.h"

/* The random player's choice comes first: a uniform placement and a
 * follower half of the time, as in the benchmark's games. The other legal
 * moves follow in random order, so that a ranking exists for every move. */
int ai_random_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                   carc_search_info *info)
{
    (void)info;
    /* Canonical, as carc_legal_moves() lists the moves: a symmetric tile's
     * choice would otherwise come back below as a second, equal move. */
    carc_move first = carc_move_canonical(g, carc_random_move(g, &p->rng, 0.5));
    int w = 0;
    out[w++] = (carc_move_eval){first, 0.0, 0.5, 0};
    int n = 0;
    carc_move *moves = ai_legal_moves(g, &n);
    if (!moves)
        return w; /* the choice alone */
    ai_shuffle_moves(p, moves, n);
    for (int i = 0; i < n && w < cap; i++)
        if (!carc_move_equal(moves[i], first))
            out[w++] = (carc_move_eval){moves[i], 0.0, 0.5, 0};
    free(moves);
    return w;
}
