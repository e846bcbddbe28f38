/* hint_view.c: hints against the computer. The moves are ranked by the
 * greedy player (the library's static evaluation one ply deep): a few
 * milliseconds on the service thread, like `legal`, with no search to
 * queue. */
#include "hint_view.h"

#include <math.h>

#include "carcassonne_ai.h"

enum { HINT_MOVES = 3 };

static int against_computer(const srv_table *t, int seat)
{
    for (int s = 0; s < t->row.players; s++)
        if (s != seat && t->row.seats[s].kind != SEAT_COMPUTER)
            return 0;
    return 1;
}

static json_t *best_moves(const carc_game *g)
{
    json_t *list = json_array();
    carc_player *p = carc_player_new("greedy", 1, NULL, 0);
    carc_move_eval evals[HINT_MOVES];
    int n = p ? carc_player_rank(p, g, evals, HINT_MOVES, NULL) : 0;
    for (int i = 0; i < n && i < HINT_MOVES; i++) {
        char text[32];
        carc_move_write(g, evals[i].move, text, sizeof text);
        json_array_append_new(list, json_pack("{s:s, s:f}", "move", text, "margin",
                                              round(evals[i].margin * 10) / 10));
    }
    carc_player_free(p);
    return list;
}

json_t *hint_view(const srv_table *t, int seat)
{
    if (seat < 0 || t->row.status != TABLE_PLAYING || !against_computer(t, seat))
        return NULL;
    const carc_game *g = t->game;
    double expected[CARC_MAX_PLAYERS];
    carc_evaluate(g, expected);
    json_t *scores = json_array();
    for (int p = 0; p < t->row.players; p++)
        json_array_append_new(scores, json_real(round(expected[p] * 10) / 10));
    json_t *moves = carc_game_current_player(g) == seat ? best_moves(g) : json_array();
    return json_pack("{s:i, s:o, s:o}", "turn", t->row.nmoves, "moves", moves, "expected", scores);
}
