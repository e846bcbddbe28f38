/* test_house_rules.c: the house rules hand=N, open-hands, reshuffle and
 * start-in-pile (variants.md): random games of each rule, alone and with
 * the expansions and the four older variants, replayed by the record
 * reader from another seed to the same digest and record; the end of a
 * hand game and of a reshuffle game; the draws a reader names; and the
 * information set: a computer player's choice does not depend on another
 * seat's hidden tiles. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carcassonne_ai.h"

enum { RECORD_CAP = 1 << 16 };

static char text_a[RECORD_CAP], text_b[RECORD_CAP];
static model board_model; /* large: kept out of the stack */
enum { RANKED = 64 };
static carc_move_eval evals_a[RANKED], evals_b[RANKED];

static carc_rules rules_of(const char *names, uint32_t expansions)
{
    carc_rules r = carc_rules_standard();
    char err[160];
    assert_int_equal(carc_rules_parse(names, &r, err, sizeof err), CARC_OK);
    r.expansions = expansions;
    assert_int_equal(carc_rules_check(&r, err, sizeof err), CARC_OK);
    return r;
}

/* Plays a random game of `rules` to its end, each player choosing
 * uniformly among every legal move of its whole hand. */
static carc_game *random_game(int players, const carc_rules *rules, uint64_t seed)
{
    carc_game *g = carc_game_new(players, rules, seed);
    assert_non_null(g);
    carc_rng rng = carc_rng_seed(seed * 7919u + 1);
    carc_move *moves = malloc(sizeof *moves * CARC_MAX_MOVES);
    assert_non_null(moves);
    while (!carc_game_over(g)) {
        int n = carc_legal_moves(g, moves, CARC_MAX_MOVES);
        assert_true(n > 0);
        carc_move m = moves[carc_rng_below(&rng, (uint32_t)n)];
        assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
    }
    free(moves);
    return g;
}

/* The record of `g` read back from another seed gives the same game. */
static void assert_replays(const carc_game *g, uint64_t other_seed)
{
    size_t len = carc_record_write(g, NULL, text_a, sizeof text_a);
    assert_true(len < sizeof text_a);
    carc_record_error err;
    carc_game *back = carc_record_read(text_a, len, other_seed, &err);
    if (!back)
        fail_msg("line %d: %s\n%s", err.line, err.message, text_a);
    assert_int_equal(carc_game_over(back), 1);
    assert_true(carc_game_digest(back) == carc_game_digest(g));
    carc_record_write(back, NULL, text_b, sizeof text_b);
    assert_string_equal(text_a, text_b);
    for (int p = 0; p < carc_game_players(g); p++)
        assert_int_equal(carc_game_score(back, p), carc_game_score(g, p));
    carc_game_free(back);
}

static const char *const rule_lists[] = {
    "hand=1",
    "hand=2",
    "hand=3",
    "hand=3 open-hands",
    "reshuffle",
    "start-in-pile",
    "hand=3 reshuffle",
    "hand=1 reshuffle start-in-pile",
    "hand=2 bonus-turn",
    "hand=3 farms-first-edition small-city no-incomplete-scoring bonus-turn",
    "reshuffle bonus-turn small-city",
    "start-in-pile no-incomplete-scoring hand=2",
    /* A small table fills up: tiles that fit nowhere, players passed (a
     * record read with another seed once passed the wrong ones). */
    "hand=3 reshuffle table=9x9",
    "hand=2 reshuffle table=7x7 table-edge-completes",
    "extra-start-tile",
    "extra-start-tile hand=3 reshuffle",
};

static const uint32_t expansion_sets[] = {
    0,
    CARC_EXPANSION_RIVER,
    CARC_EXPANSION_INNS_CATHEDRALS,
    CARC_EXPANSION_TRADERS_BUILDERS,
    CARC_EXPANSION_RIVER | CARC_EXPANSION_INNS_CATHEDRALS | CARC_EXPANSION_TRADERS_BUILDERS,
};

static void test_random_games_replay(void **state)
{
    (void)state;
    int games = 0;
    for (size_t r = 0; r < sizeof rule_lists / sizeof rule_lists[0]; r++)
        for (size_t e = 0; e < sizeof expansion_sets / sizeof expansion_sets[0]; e++) {
            carc_rules rules = carc_rules_standard();
            char err[160];
            assert_int_equal(carc_rules_parse(rule_lists[r], &rules, err, sizeof err), CARC_OK);
            rules.expansions = expansion_sets[e];
            if (carc_rules_check(&rules, err, sizeof err) != CARC_OK)
                continue; /* start-in-pile with the river */
            for (uint64_t seed = 1; seed <= 4; seed++) {
                carc_game *g = random_game(2 + (int)(seed % 4), &rules, seed * 31 + r);
                assert_replays(g, seed + 1000);
                carc_game_free(g);
                games++;
            }
        }
    assert_true(games >= 200);
}

/* An open-hands game read back from another seed after every move: the
 * same digest (the hands in the same order) all along, not only at the
 * end when the hands are empty. A named draw once took the place of the
 * first tile of its kind in the hand, not its own. */
static void test_open_hands_order(void **state)
{
    (void)state;
    carc_rules rules = rules_of("hand=3 open-hands", 0);
    carc_move *moves = malloc(sizeof *moves * CARC_MAX_MOVES);
    assert_non_null(moves);
    int compared = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        carc_game *g = carc_game_new(2, &rules, seed);
        carc_rng rng = carc_rng_seed(seed);
        while (!carc_game_over(g)) {
            int n = carc_legal_moves(g, moves, CARC_MAX_MOVES);
            assert_int_equal(
                carc_game_play(g, moves[carc_rng_below(&rng, (uint32_t)n)], NULL, 0, NULL),
                CARC_OK);
            size_t len = carc_record_write(g, NULL, text_a, sizeof text_a);
            carc_record_error err;
            carc_game *back = carc_record_read(text_a, len, seed + 99, &err);
            if (!back)
                fail_msg("line %d: %s", err.line, err.message);
            if (carc_game_digest(back) != carc_game_digest(g))
                fail_msg("seed %d, move %d: the hands differ in order\n%s", (int)seed,
                         carc_game_move_count(g), text_a);
            carc_game_free(back);
            compared++;
        }
        carc_game_free(g);
    }
    free(moves);
    assert_true(compared > 500);
}

/* Without reshuffle a hand game ends when the pile and every hand are
 * empty, and the last moves come after the last draw; with it, when no
 * tile left in the pile or a hand fits. */
static void test_hand_game_end(void **state)
{
    (void)state;
    carc_rules rules = rules_of("hand=3", 0);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        carc_game *g = random_game(3, &rules, seed);
        assert_int_equal(carc_game_tiles_left(g, NULL), 0);
        for (int p = 0; p < 3; p++)
            assert_int_equal(carc_game_hand(g, p, NULL, 0), 0);
        int last, moves;
        int n = carc_game_draw_count(g);
        assert_int_equal(carc_game_draw_at(g, n - 1, NULL, NULL, &last), CARC_OK);
        moves = carc_game_move_count(g);
        assert_true(moves >= last + 3); /* the hands were played out */
        assert_int_equal(n, 71);        /* every tile drawn once */
        carc_game_free(g);
    }
    const char *lists[] = {"reshuffle", "hand=2 reshuffle"};
    int ended_with_tiles = 0;
    for (int l = 0; l < 2; l++) {
        carc_rules reshuffle = rules_of(lists[l], 0);
        for (uint64_t seed = 1; seed <= 60; seed++) {
            carc_game *g = random_game(2, &reshuffle, seed);
            /* Whatever is left, in the pile or a hand, fits nowhere. */
            int counts[CARC_MAX_KINDS], kinds[CARC_MAX_HAND];
            int left = carc_game_tiles_left(g, counts);
            for (int p = 0; p < 2; p++) {
                int h = carc_game_hand(g, p, kinds, CARC_MAX_HAND);
                for (int i = 0; i < h; i++)
                    counts[kinds[i]]++;
                left += h;
            }
            model_from_game(&board_model, g);
            for (int k = 0; k < carc_tile_kinds(); k++)
                if (counts[k])
                    assert_int_equal(model_placements(&board_model, k, NULL, 0), 0);
            ended_with_tiles += left > 0;
            carc_game_free(g);
        }
    }
    /* Not a proof, but the rule is met in a few of these games. */
    (void)ended_with_tiles;
}

/* With hand=1 the tile of a player's next turn is drawn at the end of
 * this one: during the others' turns the player sees it. */
static void test_hand_one_draws_at_turn_end(void **state)
{
    (void)state;
    carc_rules rules = rules_of("hand=1", 0);
    carc_game *g = carc_game_new(3, &rules, 5);
    for (int p = 0; p < 3; p++)
        assert_int_equal(carc_game_hand(g, p, NULL, 0), 1);
    carc_move m[8];
    assert_true(carc_legal_moves(g, m, 8) > 0);
    assert_int_equal(carc_game_play(g, m[0], NULL, 0, NULL), CARC_OK);
    assert_int_equal(carc_game_current_player(g), 1);
    assert_int_equal(carc_game_hand(g, 0, NULL, 0), 1); /* drawn already */
    /* Nobody named the draws: the set-up's three and the draw-up. */
    int player = -1, moves = -1;
    assert_int_equal(carc_game_draw_due(g, &player), 4);
    assert_int_equal(carc_game_draw_count(g), 4);
    assert_int_equal(carc_game_draw_at(g, 3, &player, NULL, &moves), CARC_OK);
    assert_int_equal(player, 0);
    assert_int_equal(moves, 1);
    carc_game_free(g);
}

/* The draws a record names: refusals, and the tile trade. */
static void test_draw_refusals(void **state)
{
    (void)state;
    carc_rules rules = rules_of("hand=2", 0);
    carc_game *g = carc_game_new(2, &rules, 9);
    int player = -1;
    assert_int_equal(carc_game_draw_due(g, &player), 4);
    assert_int_equal(player, 0);
    int e = carc_tile_parse("E"), c = carc_tile_parse("C");
    assert_int_equal(carc_game_draw(g, 1, e), CARC_EILLEGAL); /* player 1 first */
    assert_non_null(strstr(carc_game_error(g), "player 1 draws now"));
    assert_int_equal(carc_game_draw(g, 0, c), CARC_OK);
    int hand[CARC_MAX_HAND];
    assert_int_equal(carc_game_hand(g, 0, hand, CARC_MAX_HAND), 2);
    assert_int_equal(hand[0], c);
    assert_int_equal(carc_game_draw(g, 0, c), CARC_EILLEGAL); /* the only C */
    assert_int_equal(carc_game_draw(g, 0, e), CARC_OK);
    assert_int_equal(carc_game_draw(g, 0, e), CARC_EILLEGAL); /* a third tile */
    assert_non_null(strstr(carc_game_error(g), "more than 2 tiles"));
    assert_int_equal(carc_game_draw(g, 5, e), CARC_EINVAL);
    int counts[CARC_MAX_KINDS];
    carc_game_tiles_left(g, counts);
    assert_int_equal(counts[c], 0);
    carc_game_free(g);
    carc_rules none = carc_rules_standard();
    carc_game *plain = carc_game_new(2, &none, 9);
    assert_int_equal(carc_game_draw(plain, 0, e), CARC_EINVAL);
    assert_int_equal(carc_game_draw_due(plain, NULL), 0);
    assert_int_equal(carc_game_hand(plain, 0, NULL, 0), 0);
    carc_game_free(plain);
}

/* --- The information set -------------------------------------------------------------- */

/* A hand=3 game some moves in, and a copy of it in which the other seats'
 * hidden hands (and the pile's order) are dealt again: the same public
 * view and the same own hand, different hidden tiles. */
static void hidden_twins(int moves, uint64_t seed, carc_game **a, carc_game **b)
{
    carc_rules rules = rules_of("hand=3", 0);
    *a = carc_game_new(3, &rules, seed);
    assert_non_null(*a);
    carc_rng rng = carc_rng_seed(seed);
    for (int i = 0; i < moves; i++)
        carc_game_play_random(*a, &rng, 0.3, NULL);
    *b = carc_game_clone(*a);
    int seat = carc_game_current_player(*a);
    for (uint64_t s = 1;; s++) {
        carc_game_seat_view(*b, *a, seat, seed * 1000 + s);
        int ha[CARC_MAX_HAND], hb[CARC_MAX_HAND], differ = 0;
        for (int p = 0; p < 3; p++) {
            int na = carc_game_hand(*a, p, ha, CARC_MAX_HAND);
            int nb = carc_game_hand(*b, p, hb, CARC_MAX_HAND);
            assert_int_equal(na, nb);
            if (p == seat)
                assert_memory_equal(ha, hb, sizeof ha[0] * (size_t)na);
            else
                differ |= memcmp(ha, hb, sizeof ha[0] * (size_t)na) != 0;
        }
        if (differ)
            break;
    }
    assert_true(carc_game_digest(*a) == carc_game_digest(*b));
}

static void assert_same_choices(const char *spec, int seeds)
{
    for (int pos = 0; pos < 3; pos++) {
        carc_game *a, *b;
        hidden_twins(4 + 9 * pos, 40 + (uint64_t)pos, &a, &b);
        for (int s = 0; s < seeds; s++) {
            char err[160];
            carc_player *p = carc_player_new(spec, (uint64_t)s, err, sizeof err);
            assert_non_null(p);
            /* The whole ranking, estimates included, not only the choice. */
            int na = carc_player_rank(p, a, evals_a, RANKED, NULL);
            carc_player_reseed(p, (uint64_t)s);
            int nb = carc_player_rank(p, b, evals_b, RANKED, NULL);
            assert_int_equal(na, nb);
            for (int i = 0; i < na; i++)
                if (!carc_move_equal(evals_a[i].move, evals_b[i].move) ||
                    evals_a[i].margin != evals_b[i].margin || evals_a[i].win != evals_b[i].win)
                    fail_msg("%s, seed %d: move %d of the ranking depends on another seat's "
                             "hidden tiles",
                             spec, s, i);
            carc_move ma = evals_a[0].move;
            /* The move is the seat's own and legal in the real game. */
            carc_game *check = carc_game_clone(a);
            assert_int_equal(carc_game_play(check, ma, NULL, 0, NULL), CARC_OK);
            carc_game_free(check);
            carc_player_free(p);
        }
        carc_game_free(a);
        carc_game_free(b);
    }
}

/* Same seed, same move whatever the other hands hold; so over many seeds
 * the same distribution of moves. The information-set search (the
 * default, ismcts=1) goes several turns deep at 4,000 iterations (two
 * threads), each player below the root choosing among the tiles of its
 * dealt hand, and still reads nothing of the other hands; the first-tile
 * search (ismcts=0) neither. */
static void test_information_set(void **state)
{
    (void)state;
    assert_same_choices("random", 30);
    assert_same_choices("greedy", 10);
    assert_same_choices("mcts:iters=300,threads=1", 3);
    assert_same_choices("mcts:iters=4000", 2);
    assert_same_choices("mcts:iters=300,threads=1,ismcts=0", 3);
    assert_same_choices("mcts:iters=2000,threads=1,ismcts=0", 1);
    assert_same_choices("vanilla-mcts:iters=200", 3);
    assert_same_choices("star25", 2);
}

/* Every computer player finds a move in every hand game, also when the
 * hand holds several tiles that fit nowhere (with The River once the lake
 * is laid; MCTS once ranked none there and forfeited), and MCTS weighs the
 * tiles of its hand in one search: its ranking holds moves of each tile
 * that fits, and a discard of a tile that fits nowhere. */
static void test_players_play_hand_games(void **state)
{
    (void)state;
    const char *specs[] = {"mcts:iters=200,threads=1", "greedy", "random", "vanilla-mcts:iters=100",
                           "star25"};
    int moves = 0, tiles_ranked = 0, discards_ranked = 0;
    carc_move_eval *all = malloc(sizeof *all * CARC_MAX_MOVES);
    assert_non_null(all);
    for (int sp = 0; sp < 5; sp++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            carc_rules rules = rules_of("hand=3", CARC_EXPANSION_RIVER);
            carc_game *g = carc_game_new(2, &rules, seed);
            assert_non_null(g);
            char err[160];
            carc_player *p = carc_player_new(specs[sp], seed, err, sizeof err);
            assert_non_null(p);
            while (!carc_game_over(g)) {
                int n = carc_player_rank(p, g, all, CARC_MAX_MOVES, NULL);
                if (n <= 0)
                    fail_msg("%s ranked no move at move %d", specs[sp], carc_game_move_count(g));
                int tiles = 0, dead = 0; /* kinds ranked (a bit each), discards ranked */
                for (int i = 0; sp == 0 && i < n; i++) {
                    tiles |= 1 << (all[i].move.place.tile % 31);
                    dead += all[i].move.type == CARC_MOVE_DISCARD;
                }
                tiles_ranked += __builtin_popcount((unsigned)tiles) >= 2;
                discards_ranked += dead > 0;
                assert_int_equal(carc_game_play(g, all[0].move, NULL, 0, NULL), CARC_OK);
                moves++;
            }
            carc_player_free(p);
            carc_game_free(g);
        }
    free(all);
    assert_true(moves > 500);
    assert_true(tiles_ranked > 20);   /* MCTS ranked its first and last tile together */
    assert_true(discards_ranked > 0); /* and offered the discard of a dead tile */
}

/* The seat view keeps the seat's hand and nothing that tells the others'
 * hands apart: two games differing only there give identical views. */
static void test_seat_view(void **state)
{
    (void)state;
    carc_game *a, *b;
    hidden_twins(10, 3, &a, &b);
    int seat = carc_game_current_player(a);
    carc_game *va = carc_game_clone(a), *vb = carc_game_clone(b);
    carc_game_seat_view(va, a, seat, 77);
    carc_game_seat_view(vb, b, seat, 77);
    assert_true(carc_game_digest(va) == carc_game_digest(vb));
    for (int p = 0; p < 3; p++) {
        int ha[CARC_MAX_HAND], hb[CARC_MAX_HAND];
        int n = carc_game_hand(va, p, ha, CARC_MAX_HAND);
        assert_int_equal(carc_game_hand(vb, p, hb, CARC_MAX_HAND), n);
        assert_memory_equal(ha, hb, sizeof ha[0] * (size_t)n);
    }
    int counts_a[CARC_MAX_KINDS] = {0}, counts_b[CARC_MAX_KINDS] = {0};
    carc_game_tiles_left(va, counts_a);
    carc_game_tiles_left(vb, counts_b);
    assert_memory_equal(counts_a, counts_b, sizeof counts_a);
    /* The others' draws are hidden in the view's log. */
    for (int d = 0; d < carc_game_draw_count(va); d++) {
        int player, kind;
        carc_game_draw_at(va, d, &player, &kind, NULL);
        if (player != seat)
            assert_int_equal(kind, CARC_NO_TILE);
    }
    carc_game_free(va);
    carc_game_free(vb);
    carc_game_free(a);
    carc_game_free(b);
}

/* A start-in-pile game dealt over a used game (carc_game_reset of a river
 * game: the river pile's count is stale) deals as a new game does. */
static void test_start_in_pile_after_reset(void **state)
{
    (void)state;
    carc_rules river = {.expansions = CARC_EXPANSION_RIVER};
    carc_rules inns = {.flags = CARC_RULE_START_IN_PILE,
                       .expansions = CARC_EXPANSION_INNS_CATHEDRALS};
    for (uint64_t seed = 1; seed <= 20; seed++) {
        carc_game *used = carc_game_new(2, &river, seed);
        carc_game *fresh = carc_game_new(2, &inns, seed);
        assert_non_null(used);
        assert_non_null(fresh);
        assert_int_equal(carc_game_reset(used, 2, &inns, seed), CARC_OK);
        assert_int_equal(carc_game_drawn_tile(used), carc_game_drawn_tile(fresh));
        assert_true(carc_game_digest(used) == carc_game_digest(fresh));
        carc_game_free(used);
        carc_game_free(fresh);
    }
}

/* extra-start-tile (Big Box 5's separate starter tile): an extra D starts
 * at 0 0, all 72 base tiles (four D) are in the pile and all are played:
 * 73 tiles, the wide layout; the expansions' tiles join the pile as
 * usual; the River and start-in-pile are refused. */
static void test_extra_start_tile(void **state)
{
    (void)state;
    char err[160];
    carc_rules rules = carc_rules_standard();
    assert_int_equal(carc_rules_parse("extra-start-tile", &rules, err, sizeof err), CARC_OK);
    carc_game *g = carc_game_new(2, &rules, 7);
    carc_rules standard = carc_rules_standard();
    carc_game *plain = carc_game_new(2, &standard, 7);
    assert_non_null(g);
    assert_non_null(plain);
    carc_tile_on_board start;
    assert_int_equal(carc_game_tile_info(g, 0, &start), CARC_OK);
    assert_int_equal(start.kind, carc_tile_parse("D"));
    assert_true(start.x == 0 && start.y == 0 && start.rot == 0);
    assert_int_equal(carc_game_tile_total(g), 73);
    assert_int_equal(carc_game_tile_total(plain), 72);
    assert_int_equal(carc_game_kind_total(g, carc_tile_parse("D")), 4);
    assert_int_equal(carc_game_kind_total(plain, carc_tile_parse("D")), 3);
    assert_int_equal(carc_game_tiles_left(g, NULL), 71);             /* one drawn of 72 */
    assert_true(carc_game_size(&rules) > carc_game_size(&standard)); /* the wide layout */
    carc_game_free(plain);
    carc_game_free(g);
    /* Played to the end: 72 moves, every tile of the pile placed or discarded. */
    g = random_game(3, &rules, 11);
    assert_int_equal(carc_game_over(g), 1);
    assert_int_equal(carc_game_move_count(g), 72);
    assert_replays(g, 12);
    carc_game_free(g);
    rules.expansions = CARC_EXPANSION_INNS_CATHEDRALS | CARC_EXPANSION_TRADERS_BUILDERS;
    g = carc_game_new(2, &rules, 3);
    assert_int_equal(carc_game_tile_total(g), 73 + 18 + 24);
    carc_game_free(g);
    rules.expansions = CARC_EXPANSION_RIVER;
    assert_int_equal(carc_rules_check(&rules, err, sizeof err), CARC_EINVAL);
    assert_non_null(strstr(err, "extra-start-tile"));
    rules.expansions = 0;
    rules.flags |= CARC_RULE_START_IN_PILE;
    assert_int_equal(carc_rules_check(&rules, err, sizeof err), CARC_EINVAL);
    assert_non_null(strstr(err, "start-in-pile"));
}

/* The rules' wire form (one name a word), merging and equality: the one
 * reader the command line, the engine protocol, the server and the client
 * share. */
static void test_rules_words_merge_equal(void **state)
{
    (void)state;
    char err[160];
    carc_rules r = carc_rules_standard();
    r.expansions = CARC_EXPANSION_RIVER;
    const char *good[] = {"bonus-turn", "hand=3", "table=9x7", "bonus-turn"};
    assert_int_equal(carc_rules_parse_words(good, 4, &r, err, sizeof err), CARC_OK);
    assert_int_equal(r.flags, CARC_RULE_BONUS_TURN);
    assert_int_equal(r.hand, 3);
    assert_true(r.table_w == 9 && r.table_h == 7);
    assert_int_equal(r.expansions, CARC_EXPANSION_RIVER); /* left as it was */
    carc_rules same = carc_rules_standard();
    assert_int_equal(carc_rules_parse("table=9x7,hand=3 bonus-turn", &same, err, sizeof err),
                     CARC_OK);
    same.expansions = CARC_EXPANSION_RIVER;
    assert_true(carc_rules_equal(&r, &same));
    same.hand = 2;
    assert_false(carc_rules_equal(&r, &same));
    assert_false(carc_rules_equal(&r, NULL));

    const carc_rules before = r;
    const char *two[] = {"small-city farms-first-edition"};
    assert_int_equal(carc_rules_parse_words(two, 1, &r, err, sizeof err), CARC_EINVAL);
    assert_non_null(strstr(err, "rules[0]: one name a word"));
    const char *empty[] = {"bonus-turn", ""};
    assert_int_equal(carc_rules_parse_words(empty, 2, &r, err, sizeof err), CARC_EINVAL);
    assert_non_null(strstr(err, "rules[1]: unknown rule"));
    const char *bogus[] = {"bogus"};
    assert_int_equal(carc_rules_parse_words(bogus, 1, &r, err, sizeof err), CARC_EINVAL);
    assert_non_null(strstr(err, "rules[0]: unknown rule 'bogus'"));
    const char *twice[] = {"hand=2", "hand=3"};
    assert_int_equal(carc_rules_parse_words(twice, 2, &r, err, sizeof err), CARC_EINVAL);
    assert_non_null(strstr(err, "rules[1]: 'hand=3' given twice"));
    assert_true(carc_rules_equal(&r, &before)); /* refused: unchanged */
    assert_int_equal(carc_rules_parse_words(NULL, 0, &r, err, sizeof err), CARC_OK);
    assert_int_equal(r.flags | r.hand | r.table_w, 0); /* no words: the standard rules */

    /* Merging: flags and expansions of both, b's valued rules where set. */
    carc_rules a = {.flags = CARC_RULE_SMALL_CITY, .expansions = CARC_EXPANSION_RIVER, .hand = 2};
    carc_rules b = {.flags = CARC_RULE_BONUS_TURN, .table_w = 5, .table_h = 5};
    carc_rules m = carc_rules_merge(a, b);
    assert_int_equal(m.flags, CARC_RULE_SMALL_CITY | CARC_RULE_BONUS_TURN);
    assert_int_equal(m.expansions, CARC_EXPANSION_RIVER);
    assert_true(m.hand == 2 && m.table_w == 5 && m.table_h == 5);
    b.hand = 3;
    assert_int_equal(carc_rules_merge(a, b).hand, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games_replay),
        cmocka_unit_test(test_rules_words_merge_equal),
        cmocka_unit_test(test_players_play_hand_games),
        cmocka_unit_test(test_open_hands_order),
        cmocka_unit_test(test_hand_game_end),
        cmocka_unit_test(test_hand_one_draws_at_turn_end),
        cmocka_unit_test(test_draw_refusals),
        cmocka_unit_test(test_information_set),
        cmocka_unit_test(test_seat_view),
        cmocka_unit_test(test_start_in_pile_after_reset),
        cmocka_unit_test(test_extra_start_tile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
