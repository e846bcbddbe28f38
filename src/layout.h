/* layout.h: the two layouts of a game's state. The modules that touch the
 * state (board, features, scoring, game, the full evaluation) are compiled
 * twice: LAYOUT_WIDE 0 gives the compact layout of the base game (one-byte
 * segment ids, two bits per edge, 24 kinds, a 74-square torus), LAYOUT_WIDE 1
 * the wide layout of a game with expansions (two-byte ids, three bits per
 * edge for the river, every kind of the catalogue, 128 tiles). Each build
 * gives its external names a suffix, _base or _wide, by the defines below;
 * layout.c holds the public functions, which pick a build by the state's
 * first byte. Include this file before any other of the project's headers. */
#ifndef CARC_LAYOUT_H
#define CARC_LAYOUT_H

#ifndef LAYOUT_WIDE
#define LAYOUT_WIDE 0
#endif

#if LAYOUT_WIDE
#define LAYOUT_NAME(name) name##_wide
#else
#define LAYOUT_NAME(name) name##_base
#endif

/* The functions of carcassonne.h implemented by the layout's modules
 * (layout.c lists the same ones to dispatch them). */
#define carc_game_new LAYOUT_NAME(carc_game_new)
#define carc_game_reset LAYOUT_NAME(carc_game_reset)
#define carc_game_copy LAYOUT_NAME(carc_game_copy)
#define carc_game_clone LAYOUT_NAME(carc_game_clone)
#define carc_game_size LAYOUT_NAME(carc_game_size)
#define carc_game_error LAYOUT_NAME(carc_game_error)
#define carc_game_players LAYOUT_NAME(carc_game_players)
#define carc_game_rules LAYOUT_NAME(carc_game_rules)
#define carc_game_over LAYOUT_NAME(carc_game_over)
#define carc_game_current_player LAYOUT_NAME(carc_game_current_player)
#define carc_game_drawn_tile LAYOUT_NAME(carc_game_drawn_tile)
#define carc_game_ended_early LAYOUT_NAME(carc_game_ended_early)
#define carc_game_tiles_left LAYOUT_NAME(carc_game_tiles_left)
#define carc_game_next_tiles LAYOUT_NAME(carc_game_next_tiles)
#define carc_game_draw_pool LAYOUT_NAME(carc_game_draw_pool)
#define carc_game_tile_total LAYOUT_NAME(carc_game_tile_total)
#define carc_game_kind_total LAYOUT_NAME(carc_game_kind_total)
#define carc_game_river_phase LAYOUT_NAME(carc_game_river_phase)
#define carc_game_choose_tile LAYOUT_NAME(carc_game_choose_tile)
#define carc_game_shuffle_pile LAYOUT_NAME(carc_game_shuffle_pile)
#define carc_game_shuffle_hidden LAYOUT_NAME(carc_game_shuffle_hidden)
#define carc_game_deal LAYOUT_NAME(carc_game_deal)
#define carc_game_set_deal LAYOUT_NAME(carc_game_set_deal)
#define carc_game_public_view LAYOUT_NAME(carc_game_public_view)
#define carc_game_digest LAYOUT_NAME(carc_game_digest)
#define carc_legal_placements LAYOUT_NAME(carc_legal_placements)
#define carc_placement_legal LAYOUT_NAME(carc_placement_legal)
#define carc_legal_spots LAYOUT_NAME(carc_legal_spots)
#define carc_legal_moves LAYOUT_NAME(carc_legal_moves)
#define carc_legal_figures LAYOUT_NAME(carc_legal_figures)
#define carc_move_canonical LAYOUT_NAME(carc_move_canonical)
#define carc_game_play LAYOUT_NAME(carc_game_play)
#define carc_game_finish LAYOUT_NAME(carc_game_finish)
#define carc_game_score LAYOUT_NAME(carc_game_score)
#define carc_game_score_of LAYOUT_NAME(carc_game_score_of)
#define carc_game_supply LAYOUT_NAME(carc_game_supply)
#define carc_game_figures LAYOUT_NAME(carc_game_figures)
#define carc_game_goods LAYOUT_NAME(carc_game_goods)
#define carc_game_goods_points LAYOUT_NAME(carc_game_goods_points)
#define carc_game_second_part LAYOUT_NAME(carc_game_second_part)
#define traders_city_completed LAYOUT_NAME(traders_city_completed)
#define traders_final_scoring LAYOUT_NAME(traders_final_scoring)
#define traders_builder_extended LAYOUT_NAME(traders_builder_extended)
#define traders_pigs_on LAYOUT_NAME(traders_pigs_on)
#define carc_game_leaders LAYOUT_NAME(carc_game_leaders)
#define carc_game_tile_count LAYOUT_NAME(carc_game_tile_count)
#define carc_game_tile_info LAYOUT_NAME(carc_game_tile_info)
#define carc_game_tile_at LAYOUT_NAME(carc_game_tile_at)
#define carc_game_bounds LAYOUT_NAME(carc_game_bounds)
#define carc_game_feature LAYOUT_NAME(carc_game_feature)
#define carc_game_feature_info LAYOUT_NAME(carc_game_feature_info)
#define carc_game_feature_has LAYOUT_NAME(carc_game_feature_has)
#define carc_game_move_count LAYOUT_NAME(carc_game_move_count)
#define carc_game_move_at LAYOUT_NAME(carc_game_move_at)
#define carc_game_move_player LAYOUT_NAME(carc_game_move_player)
#define carc_random_move LAYOUT_NAME(carc_random_move)
#define carc_game_play_random LAYOUT_NAME(carc_game_play_random)
#define carc_game_hand LAYOUT_NAME(carc_game_hand)
#define carc_game_hold_tile LAYOUT_NAME(carc_game_hold_tile)
#define carc_game_draw_due LAYOUT_NAME(carc_game_draw_due)
#define carc_game_kind_fits LAYOUT_NAME(carc_game_kind_fits)
#define carc_game_draw LAYOUT_NAME(carc_game_draw)
#define carc_game_draw_count LAYOUT_NAME(carc_game_draw_count)
#define carc_game_draw_at LAYOUT_NAME(carc_game_draw_at)
#define carc_game_set_start LAYOUT_NAME(carc_game_set_start)
#define carc_game_seat_view LAYOUT_NAME(carc_game_seat_view)
#define ai_evaluate_full LAYOUT_NAME(ai_evaluate_full)
#define ai_evaluate_full_terms LAYOUT_NAME(ai_evaluate_full_terms)

/* The modules' own external names. */
#define board_clear LAYOUT_NAME(board_clear)
#define board_place LAYOUT_NAME(board_place)
#define board_frontier_remove LAYOUT_NAME(board_frontier_remove)
#define bounds_place LAYOUT_NAME(bounds_place)
#define bounds_cloister_filled LAYOUT_NAME(bounds_cloister_filled)
#define bounds_edges_closed LAYOUT_NAME(bounds_edges_closed)
#define bounds_placement_error LAYOUT_NAME(bounds_placement_error)
#define feature_union LAYOUT_NAME(feature_union)
#define feature_tiles LAYOUT_NAME(feature_tiles)
#define feature_majority LAYOUT_NAME(feature_majority)
#define score_completed LAYOUT_NAME(score_completed)
#define score_final LAYOUT_NAME(score_final)
#define farm_city_count LAYOUT_NAME(farm_city_count)
#define pile_start_kind LAYOUT_NAME(pile_start_kind)
#define pile_deal LAYOUT_NAME(pile_deal)
#define pile_put_back_drawn LAYOUT_NAME(pile_put_back_drawn)
#define pile_may_return LAYOUT_NAME(pile_may_return)
#define pile_return LAYOUT_NAME(pile_return)
#define pile_any_fits LAYOUT_NAME(pile_any_fits)
#define pile_draw_start LAYOUT_NAME(pile_draw_start)
#define pile_deal_hidden LAYOUT_NAME(pile_deal_hidden)
#define hand_start LAYOUT_NAME(hand_start)
#define hand_draw_one LAYOUT_NAME(hand_draw_one)
#define hand_draw_up LAYOUT_NAME(hand_draw_up)
#define hand_take LAYOUT_NAME(hand_take)
#define hand_holds LAYOUT_NAME(hand_holds)
#define hand_focus_first LAYOUT_NAME(hand_focus_first)
#define hand_hold_random LAYOUT_NAME(hand_hold_random)
#define hand_tiles LAYOUT_NAME(hand_tiles)
#define hand_pass_turn LAYOUT_NAME(hand_pass_turn)
#define hand_pass_again LAYOUT_NAME(hand_pass_again)
#define hand_deal_hidden LAYOUT_NAME(hand_deal_hidden)
#define moves_kind_fits LAYOUT_NAME(moves_kind_fits)
#define moves_check LAYOUT_NAME(moves_check)
#define moves_random LAYOUT_NAME(moves_random)
#define river_rotations_of LAYOUT_NAME(river_rotations_of)
#define river_placement_count LAYOUT_NAME(river_placement_count)
#define river_u_turn LAYOUT_NAME(river_u_turn)
#define river_advance LAYOUT_NAME(river_advance)
#define river_placement_error LAYOUT_NAME(river_placement_error)
#define carc_rot_edges LAYOUT_NAME(carc_rot_edges)
#define carc_fits LAYOUT_NAME(carc_fits)
#define carc_sig_count LAYOUT_NAME(carc_sig_count)
#define carc_sig_count_lanes LAYOUT_NAME(carc_sig_count_lanes)
#define carc_seg_template LAYOUT_NAME(carc_seg_template)
#define carc_torus_col LAYOUT_NAME(carc_torus_col)
#define carc_torus_row LAYOUT_NAME(carc_torus_row)

#endif
