/* greedy.c: one ply: every legal move played on a copy and evaluated. */
#include <stdlib.h>

#include "greedy.h"
#include "search.h"

int ai_greedy_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                   carc_search_info *info)
{
    (void)info;
    int n = 0;
    carc_move *moves = ai_legal_moves(g, &n);
    carc_move_eval *evals = ai_new_evals(n);
    carc_game *copy = carc_game_clone(g);
    if (!moves || !evals || !copy) {
        free(moves);
        free(evals);
        carc_game_free(copy);
        return 0;
    }
    ai_shuffle_moves(p, moves, n);
    int me = carc_game_current_player(g);
    int players = carc_game_players(g);
    ai_evaluation evaluate = ai_player_evaluation(p);
    if (evaluate == ai_evaluate_full) { /* the moves are children of g: eval.h */
        evaluate = ai_evaluate_full_child;
        ai_evaluate_full_children(g);
    }
    for (int i = 0; i < n; i++) {
        carc_game_copy(copy, g);
        double v[CARC_MAX_PLAYERS];
        if (carc_game_play(copy, moves[i], NULL, 0, NULL) != CARC_OK)
            v[me] = -1e9; /* cannot happen: the moves are legal */
        else
            evaluate(copy, v);
        evals[i] = (carc_move_eval){moves[i], ai_margin(v, players, me), 0.5, 1};
    }
    ai_sort_evals(evals, n);
    int w = n < cap ? n : cap;
    for (int i = 0; i < w; i++)
        out[i] = evals[i];
    free(moves);
    free(evals);
    carc_game_free(copy);
    return w;
}
