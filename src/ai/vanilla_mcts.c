/* vanilla_mcts.c: placeholder until the baseline lands: ranks like greedy. */
#include "ai.h"

int ai_vanilla_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                    carc_search_info *info)
{
    return ai_greedy_rank(p, g, out, cap, info);
}
