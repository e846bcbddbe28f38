/* test_mcts_hand.c: the information-set search of a hand game (mcts.c,
 * included whole to reach its hand nodes): a hand node tries each tile
 * held, then plays the best by UCB1 over the visits in which it was held,
 * not the first of the hand; and in a whole search the player's own later
 * turns play more than the first tile of their hands. Also the room a
 * search's trees get (search_memory). */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "carcassonne_ai.h"

/* The search itself: its static functions are the units under test. This
 * file's ai_mcts_rank stands in for the library's, which is never linked. */
#include "ai/mcts.c"

/* A hand=3 game of two players some moves in whose player to move holds
 * three different tiles, written to `hand`. */
static carc_game *three_tile_position(int hand[CARC_MAX_HAND])
{
    carc_rules rules = carc_rules_standard();
    char err[160];
    assert_int_equal(carc_rules_parse("hand=3", &rules, err, sizeof err), CARC_OK);
    for (uint64_t seed = 1; seed < 100; seed++) {
        carc_game *g = carc_game_new(2, &rules, seed);
        assert_non_null(g);
        carc_rng rng = carc_rng_seed(seed);
        for (int i = 0; i < 12; i++)
            carc_game_play_random(g, &rng, 0.3, NULL);
        int size = carc_game_hand(g, carc_game_current_player(g), hand, CARC_MAX_HAND);
        if (size == 3 && hand[0] != hand[1] && hand[1] != hand[2] && hand[0] != hand[2])
            return g;
        carc_game_free(g);
    }
    fail_msg("no position with three different tiles in hand");
    return NULL;
}

/* One hand node, its statistics set by hand: the untried tile first, then
 * the best tile, the second of the hand; each call counts one availability
 * for every tile held and none for the others. */
static void test_hand_node_choice(void **state)
{
    (void)state;
    int hand[CARC_MAX_HAND];
    carc_game *g = three_tile_position(hand);
    search s;
    memset(&s, 0, sizeof s);
    s.c = 0.2;
    s.tree.limit = 1u << 24;
    s.tree.players = 2;
    int32_t leaf = new_node(&s.tree, NODE_HAND, carc_game_current_player(g), 0);
    assert_int_equal(leaf, 0);
    assert_false(node_at(&s.tree, leaf)->expanded);
    node_at(&s.tree, leaf)->visits = 1;
    int32_t n = expand_hand(&s, leaf); /* opened: a new node, the visits kept */
    assert_int_equal(n, 1);
    assert_true(node_at(&s.tree, n)->expanded);
    assert_int_equal(node_at(&s.tree, n)->visits, 1);
    assert_int_equal(node_at(&s.tree, n)->nopts, carc_tile_kinds());
    option *o = options_of(&s.tree, n);
    o[hand[0]] = (option){.available = 10, .child = -1, .visits = 10, .reward = -5.0f};
    o[hand[1]] = (option){.available = 10, .child = -1, .visits = 10, .reward = 5.0f};
    assert_int_equal(select_held(&s, n, g), hand[2]); /* untried */
    o[hand[2]].visits = 10;
    o[hand[2]].reward = -5.0f;
    assert_int_equal(select_held(&s, n, g), hand[1]); /* not the first */
    for (int k = 0; k < carc_tile_kinds(); k++) {
        uint32_t want = k == hand[0] || k == hand[1] ? 12 : k == hand[2] ? 2 : 0;
        assert_int_equal(o[k].available, want);
    }
    tree_free(&s.tree);
    carc_game_free(g);
}

/* Counts, in the part of tree `t` below node `n`, the hand nodes
 * (`hands`) and those of `player` at which two tiles or more were played
 * (`two`). A placement option leads to a spot node, a spot option to a
 * chance node (no header: `kinds` children), a chance node to placement
 * or hand nodes, a hand option to a placement node. */
static void count_hand_nodes(const tree *t, int32_t n, int player, int *hands, int *two)
{
    const node *nd = node_at(t, n);
    const option *o = options_of(t, n);
    if (nd->type == NODE_HAND) {
        ++*hands;
        int tried = 0;
        for (int k = 0; nd->expanded && k < nd->nopts; k++)
            tried += o[k].visits > 0;
        *two += nd->player == player && tried >= 2;
    }
    for (int i = 0; nd->expanded && i < nd->nopts; i++) {
        if (o[i].child < 0)
            continue;
        if (nd->type != NODE_SPOT) {
            count_hand_nodes(t, o[i].child, player, hands, two);
            continue;
        }
        const int32_t *kids = chance_kids(t, o[i].child);
        for (int k = 0; k < t->kinds; k++)
            if (kids[k] >= 0)
                count_hand_nodes(t, kids[k], player, hands, two);
    }
}

/* A search of `iterations` from the root of `g` on one thread, its tree
 * kept for the test to look at (a tree limited to `limit` bytes). */
typedef struct test_search {
    search s;
    root_info *ri;
    carc_player *p;
    carc_game *scratch, *held;
} test_search;

static void test_search_run(test_search *ts, const carc_game *g, int ismcts, uint64_t seed,
                            size_t limit, uint64_t iterations)
{
    memset(ts, 0, sizeof *ts);
    ts->scratch = carc_game_clone(g);
    ts->held = carc_game_clone(g);
    char err[160];
    ts->p = carc_player_new("mcts", 1, err, sizeof err);
    ts->ri = malloc(sizeof *ts->ri);
    assert_true(ts->scratch && ts->held && ts->p && ts->ri);
    ts->p->opt.ismcts = ismcts;
    prepare_root(ts->ri, g, ts->scratch, ts->held, ts->p);
    search *s = &ts->s;
    s->player = ts->p;
    s->root = ts->ri;
    s->rng = carc_rng_seed(seed);
    s->c = ts->p->opt.c;
    s->tree.limit = limit;
    s->tree.players = ts->ri->players;
    s->tree.kinds = ts->ri->kinds;
    s->budget = iterations;
    s->stats = calloc((size_t)ts->ri->nplaces * ROOT_SPOTS, sizeof(root_stat));
    assert_non_null(s->stats);
    run_search(s);
    assert_int_equal(s->iterations, iterations);
}

static void test_search_free(test_search *ts)
{
    tree_free(&ts->s.tree);
    free(ts->s.stats);
    carc_game_free(ts->s.work);
    carc_game_free(ts->s.scratch);
    free(ts->ri);
    carc_player_free(ts->p);
    carc_game_free(ts->scratch);
    carc_game_free(ts->held);
}

/* Searches the seat view of `g` for `iterations` from its root with
 * ismcts set as given; returns how many of the mover's own hand nodes
 * played two tiles or more (-1: the tree has no hand node at all). */
static int search_own_choices(const carc_game *g, int ismcts, uint64_t iterations)
{
    carc_game *view = carc_game_clone(g);
    assert_non_null(view);
    int me = carc_game_current_player(g);
    carc_game_seat_view(view, g, me, 77);
    test_search ts;
    test_search_run(&ts, view, ismcts, 5, MEMORY_CAP, iterations);
    int hands = 0, two = 0;
    count_hand_nodes(&ts.s.tree, 0, me, &hands, &two);
    test_search_free(&ts);
    carc_game_free(view);
    return hands ? two : -1;
}

/* Inside the tree the mover's own next turns choose among the tiles they
 * hold (the two it keeps, in a known order, and the one it draws), so
 * some of them play a tile other than the first; with ismcts=0 the tree
 * has no hand node and each turn plays the first tile held. */
static void test_own_turns_choose_their_tile(void **state)
{
    (void)state;
    int hand[CARC_MAX_HAND];
    carc_game *g = three_tile_position(hand);
    assert_true(search_own_choices(g, 1, 20000) > 0);
    assert_int_equal(search_own_choices(g, 0, 20000), -1);
    carc_game_free(g);
}

/* Checks the part of tree `t` below node `n` (reached `depth` levels of
 * headers down): every open node's visits are its options' visits, plus
 * the one it was valued with as a leaf before it opened (a placement or
 * hand node below the root); a node not open yet was visited once.
 * Returns the nodes seen. */
static int check_visits(const tree *t, int32_t n, int depth)
{
    const node *nd = node_at(t, n);
    if (!nd->expanded) {
        assert_int_equal(nd->visits, 1);
        return 1;
    }
    const option *o = options_of(t, n);
    uint64_t sum = 0;
    int seen = 1;
    for (int i = 0; i < nd->nopts; i++) {
        sum += o[i].visits;
        if (o[i].child < 0)
            continue;
        if (nd->type != NODE_SPOT) {
            seen += check_visits(t, o[i].child, depth + 1);
            continue;
        }
        const int32_t *kids = chance_kids(t, o[i].child);
        for (int k = 0; k < t->kinds; k++)
            if (kids[k] >= 0)
                seen += check_visits(t, kids[k], depth + 1);
    }
    int leaf_visit = depth > 0 && nd->type != NODE_SPOT;
    assert_int_equal(nd->visits, sum + (uint64_t)leaf_visit);
    return seen;
}

/* A whole search's tree, in one block array with nodes that move when
 * they open: every node is reached from the root, and the visits add up
 * (the root's are the iterations), in a base game and in a hand game
 * searched with hand nodes, each with room for the whole tree and with
 * room for a small part of it (nodes that cannot open stay leaves). */
static void test_tree_visits_add_up(void **state)
{
    (void)state;
    int hand[CARC_MAX_HAND];
    carc_game *held = three_tile_position(hand);
    carc_game *base = carc_game_new(2, NULL, 3);
    assert_non_null(base);
    carc_rng rng = carc_rng_seed(3);
    for (int i = 0; i < 20; i++)
        carc_game_play_random(base, &rng, 0.3, NULL);
    const carc_game *games[] = {base, held, base, held};
    int nodes[4];
    for (int k = 0; k < 4; k++) {
        size_t limit = k < 2 ? MEMORY_CAP : 128 * 1024;
        test_search ts;
        test_search_run(&ts, games[k], 1, 9, limit, 3000);
        assert_int_equal(node_at(&ts.s.tree, 0)->visits, 3000);
        nodes[k] = check_visits(&ts.s.tree, 0, 0);
        assert_true(tree_bytes(&ts.s.tree) <= limit);
        test_search_free(&ts);
    }
    /* With room for all: a node for most iterations; with little room
     * the tree stopped growing, and searched on. */
    assert_true(nodes[0] > 1000 && nodes[1] > 1000);
    assert_true(nodes[2] > 10 && nodes[2] < nodes[0] / 2);
    assert_true(nodes[3] > 10 && nodes[3] < nodes[1] / 2);
    carc_game_free(base);
    carc_game_free(held);
}

/* The room of a search's trees grows with its budget, between the floor
 * that the default player's 1 s on two threads keeps to and the ceiling,
 * a quarter of the machine's memory at most. */
static void test_search_memory(void **state)
{
    (void)state;
    const uint64_t big = (uint64_t)64 << 30, small = (uint64_t)1 << 30;
    /* short searches and the default player: the floor */
    assert_int_equal(search_memory(100, 0, 2, big), MEMORY_CAP);
    assert_int_equal(search_memory(1000, 0, 2, big), MEMORY_CAP);
    assert_int_equal(search_memory(0, 40000, 1, big), MEMORY_CAP);
    /* hard (3 s on two threads) three times that; one thread half */
    assert_int_equal(search_memory(3000, 0, 2, big), 3 * (size_t)MEMORY_CAP);
    assert_int_equal(search_memory(3000, 0, 1, big), 3 * (size_t)MEMORY_CAP / 2);
    /* strongest (10 s) and a long counted search: the ceiling */
    assert_int_equal(search_memory(10000, 0, 2, big), memory_max);
    assert_int_equal(search_memory(0, 2000000, 2, big), 2000000 * tree_iteration);
    assert_int_equal(search_memory(0, 100000000, 2, big), memory_max);
    /* a machine of 1 GiB: a quarter of it; unknown memory: the ceiling */
    assert_int_equal(search_memory(10000, 0, 2, small), small / 4);
    assert_int_equal(search_memory(10000, 0, 2, 0), memory_max);
    /* never below the floor, even on a machine with less than 640 MiB */
    assert_int_equal(search_memory(10000, 0, 2, (uint64_t)256 << 20), MEMORY_CAP);
    assert_true(ai_physical_memory() > 0);
}

/* A tree fills its room: near the limit each array takes half of what is
 * left instead of refusing when a doubling no longer fits, so a tree of
 * nodes and their score records (two arrays growing in turn) ends with
 * nearly all of its limit in use and never beyond it. */
static void test_tree_fills_its_room(void **state)
{
    (void)state;
    const size_t limits[] = {(size_t)3 << 20, (size_t)5 << 20, ((size_t)7 << 20) + 12345};
    for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
        tree t = {.players = 2, .kinds = 24, .limit = limits[k]};
        size_t nodes = 0;
        for (;;) {
            if (new_node(&t, NODE_PLACE, 0, 20) < 0 || new_records(&t, 4) < 0)
                break;
            nodes++;
        }
        assert_true(tree_bytes(&t) <= t.limit);
        /* the old doubling stopped between a half and three quarters */
        assert_true(tree_bytes(&t) > t.limit / 100 * 95);
        assert_true(nodes > 0);
        tree_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_node_choice),
        cmocka_unit_test(test_own_turns_choose_their_tile),
        cmocka_unit_test(test_tree_visits_add_up),
        cmocka_unit_test(test_search_memory),
        cmocka_unit_test(test_tree_fills_its_room),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
