/* layout.c: the public functions of a game, each passing the call to the
 * build of the game's layout (layout.h): the compact one for the base game,
 * the wide one for a game with expansions. A state's first byte says which
 * (struct carc_game in state.h). */
#include <stdlib.h>

#include "carcassonne.h"
#include "layout_of.h"

/* Every call that takes a game `g` first: return type, name, parameters,
 * arguments. */
#define GAME_CALLS(X)                                                                              \
    X(int, carc_game_players, (const carc_game *g), (g))                                           \
    X(carc_rules, carc_game_rules, (const carc_game *g), (g))                                      \
    X(int, carc_game_over, (const carc_game *g), (g))                                              \
    X(int, carc_game_current_player, (const carc_game *g), (g))                                    \
    X(int, carc_game_drawn_tile, (const carc_game *g), (g))                                        \
    X(int, carc_game_ended_early, (const carc_game *g), (g))                                       \
    X(int, carc_game_tiles_left, (const carc_game *g, int counts[CARC_MAX_KINDS]), (g, counts))    \
    X(int, carc_game_next_tiles, (const carc_game *g, int counts[CARC_MAX_KINDS]), (g, counts))    \
    X(int, carc_game_draw_pool, (const carc_game *g, int counts[CARC_MAX_KINDS]), (g, counts))     \
    X(int, carc_game_tile_total, (const carc_game *g), (g))                                        \
    X(int, carc_game_kind_total, (const carc_game *g, int kind), (g, kind))                        \
    X(int, carc_game_river_phase, (const carc_game *g), (g))                                       \
    X(carc_status, carc_game_choose_tile, (carc_game * g, int kind), (g, kind))                    \
    X(void, carc_game_shuffle_pile, (carc_game * g, uint64_t seed), (g, seed))                     \
    X(void, carc_game_shuffle_hidden, (carc_game * g, uint64_t seed), (g, seed))                   \
    X(int, carc_game_deal, (const carc_game *g, int *kinds, int cap, uint64_t *generator),         \
      (g, kinds, cap, generator))                                                                  \
    X(carc_status, carc_game_set_deal,                                                             \
      (carc_game * g, const int *kinds, int n, uint64_t generator), (g, kinds, n, generator))      \
    X(uint64_t, carc_game_digest, (const carc_game *g), (g))                                       \
    X(int, carc_legal_placements, (const carc_game *g, carc_placement *out, int cap),              \
      (g, out, cap))                                                                               \
    X(int, carc_placement_legal, (const carc_game *g, carc_placement p), (g, p))                   \
    X(int, carc_legal_spots, (const carc_game *g, carc_placement p, carc_spot *out, int cap),      \
      (g, p, out, cap))                                                                            \
    X(int, carc_legal_moves, (const carc_game *g, carc_move *out, int cap), (g, out, cap))         \
    X(int, carc_legal_figures, (const carc_game *g, carc_placement p, carc_move *out, int cap),    \
      (g, p, out, cap))                                                                            \
    X(carc_move, carc_move_canonical, (const carc_game *g, carc_move m), (g, m))                   \
    X(carc_status, carc_game_play,                                                                 \
      (carc_game * g, carc_move m, carc_event * events, int cap, int *nevents),                    \
      (g, m, events, cap, nevents))                                                                \
    X(carc_status, carc_game_finish, (carc_game * g, carc_event * events, int cap, int *nevents),  \
      (g, events, cap, nevents))                                                                   \
    X(int, carc_game_score, (const carc_game *g, int player), (g, player))                         \
    X(int, carc_game_score_of, (const carc_game *g, int player, carc_kind kind),                   \
      (g, player, kind))                                                                           \
    X(int, carc_game_supply, (const carc_game *g, int player), (g, player))                        \
    X(int, carc_game_figures, (const carc_game *g, int player, int figure), (g, player, figure))   \
    X(int, carc_game_goods, (const carc_game *g, int player, int type), (g, player, type))         \
    X(int, carc_game_goods_points, (const carc_game *g, int player), (g, player))                  \
    X(int, carc_game_second_part, (const carc_game *g), (g))                                       \
    X(unsigned, carc_game_leaders, (const carc_game *g), (g))                                      \
    X(int, carc_game_tile_count, (const carc_game *g), (g))                                        \
    X(carc_status, carc_game_tile_info, (const carc_game *g, int index, carc_tile_on_board *out),  \
      (g, index, out))                                                                             \
    X(int, carc_game_tile_at, (const carc_game *g, int x, int y), (g, x, y))                       \
    X(void, carc_game_bounds,                                                                      \
      (const carc_game *g, int *min_x, int *min_y, int *max_x, int *max_y),                        \
      (g, min_x, min_y, max_x, max_y))                                                             \
    X(int, carc_game_feature, (const carc_game *g, int index, int segment), (g, index, segment))   \
    X(carc_status, carc_game_feature_info, (const carc_game *g, int feature, carc_feature *out),   \
      (g, feature, out))                                                                           \
    X(int, carc_game_feature_has, (const carc_game *g, int feature, int index, int segment),       \
      (g, feature, index, segment))                                                                \
    X(int, carc_game_move_count, (const carc_game *g), (g))                                        \
    X(carc_status, carc_game_move_at, (const carc_game *g, int i, carc_move *m, int *tile_kind),   \
      (g, i, m, tile_kind))                                                                        \
    X(int, carc_game_move_player, (const carc_game *g, int i), (g, i))                             \
    X(carc_move, carc_random_move, (const carc_game *g, carc_rng *r, double follower_chance),      \
      (g, r, follower_chance))                                                                     \
    X(carc_status, carc_game_play_random,                                                          \
      (carc_game * g, carc_rng * r, double follower_chance, carc_move *played),                    \
      (g, r, follower_chance, played))                                                             \
    X(int, carc_game_hand, (const carc_game *g, int player, int *kinds, int cap),                  \
      (g, player, kinds, cap))                                                                     \
    X(carc_status, carc_game_hold_tile, (carc_game * g, int kind), (g, kind))                      \
    X(int, carc_game_draw_due, (const carc_game *g, int *player), (g, player))                     \
    X(int, carc_game_kind_fits, (const carc_game *g, int kind), (g, kind))                         \
    X(carc_status, carc_game_draw, (carc_game * g, int player, int kind), (g, player, kind))       \
    X(int, carc_game_draw_count, (const carc_game *g), (g))                                        \
    X(carc_status, carc_game_draw_at,                                                              \
      (const carc_game *g, int i, int *player, int *kind, int *moves),                             \
      (g, i, player, kind, moves))                                                                 \
    X(carc_status, carc_game_set_start, (carc_game * g, int kind), (g, kind))

#define DECLARE(ret, name, params, args)                                                           \
    ret name##_base params;                                                                        \
    ret name##_wide params;
GAME_CALLS(DECLARE)

carc_status carc_game_reset_base(carc_game *g, int players, const carc_rules *rules, uint64_t seed);
carc_status carc_game_reset_wide(carc_game *g, int players, const carc_rules *rules, uint64_t seed);
carc_game *carc_game_new_base(int players, const carc_rules *rules, uint64_t seed);
carc_game *carc_game_new_wide(int players, const carc_rules *rules, uint64_t seed);
size_t carc_game_size_base(const carc_rules *rules);
size_t carc_game_size_wide(const carc_rules *rules);
carc_status carc_game_copy_base(carc_game *dst, const carc_game *src);
carc_status carc_game_copy_wide(carc_game *dst, const carc_game *src);
carc_game *carc_game_clone_base(const carc_game *src);
carc_game *carc_game_clone_wide(const carc_game *src);
const char *carc_game_error_base(const carc_game *g);
const char *carc_game_error_wide(const carc_game *g);
void carc_game_public_view_base(carc_game *dst, const carc_game *src, uint64_t seed);
void carc_game_seat_view_base(carc_game *dst, const carc_game *src, int seat, uint64_t seed);
void carc_game_seat_view_wide(carc_game *dst, const carc_game *src, int seat, uint64_t seed);
void carc_game_public_view_wide(carc_game *dst, const carc_game *src, uint64_t seed);

static int wide(const carc_game *g)
{
    return layout_is_wide(g);
}

static int wide_rules(const carc_rules *rules)
{
    return rules && rules->expansions != 0;
}

#define DISPATCH(ret, name, params, args)                                                          \
    ret name params                                                                                \
    {                                                                                              \
        return wide(g) ? name##_wide args : name##_base args;                                      \
    }
GAME_CALLS(DISPATCH)

carc_game *carc_game_new(int players, const carc_rules *rules, uint64_t seed)
{
    return layout_wide_for(rules, players) ? carc_game_new_wide(players, rules, seed)
                                           : carc_game_new_base(players, rules, seed);
}

carc_status carc_game_reset(carc_game *g, int players, const carc_rules *rules, uint64_t seed)
{
    if (!g)
        return CARC_EINVAL;
    return wide(g) ? carc_game_reset_wide(g, players, rules, seed)
                   : carc_game_reset_base(g, players, rules, seed);
}

size_t carc_game_size(const carc_rules *rules)
{
    return wide_rules(rules) ? carc_game_size_wide(rules) : carc_game_size_base(rules);
}

void carc_game_free(carc_game *g)
{
    free(g);
}

carc_status carc_game_copy(carc_game *dst, const carc_game *src)
{
    if (wide(dst) != wide(src))
        return CARC_EINVAL;
    return wide(src) ? carc_game_copy_wide(dst, src) : carc_game_copy_base(dst, src);
}

carc_game *carc_game_clone(const carc_game *src)
{
    return wide(src) ? carc_game_clone_wide(src) : carc_game_clone_base(src);
}

const char *carc_game_error(const carc_game *g)
{
    if (!g)
        return "no game";
    return wide(g) ? carc_game_error_wide(g) : carc_game_error_base(g);
}

void carc_game_public_view(carc_game *dst, const carc_game *src, uint64_t seed)
{
    if (wide(dst) != wide(src))
        return;
    if (wide(src))
        carc_game_public_view_wide(dst, src, seed);
    else
        carc_game_public_view_base(dst, src, seed);
}

void carc_game_seat_view(carc_game *dst, const carc_game *src, int seat, uint64_t seed)
{
    if (wide(dst) != wide(src))
        return;
    if (wide(src))
        carc_game_seat_view_wide(dst, src, seat, seed);
    else
        carc_game_seat_view_base(dst, src, seat, seed);
}

int carc_move_equal(carc_move a, carc_move b)
{
    if (a.type != b.type || a.place.tile != b.place.tile)
        return 0;
    return a.type == CARC_MOVE_DISCARD ||
           (a.place.x == b.place.x && a.place.y == b.place.y && a.place.rot == b.place.rot &&
            a.segment == b.segment && (a.segment == CARC_NO_SPOT || a.figure == b.figure));
}
