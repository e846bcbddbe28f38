/* test_moves.c: every legal move of a position (carc_legal_moves), the
 * canonical rotation of a symmetric tile (carc_move_canonical), and the
 * players that list moves with them. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "carcassonne_ai.h"

/* What a placed tile looks like on the board, judged from the catalogue
 * alone: for each segment its board ports, kind and pennant, in a fixed
 * order. Two rotations that give equal looks put the same tile down. */
typedef struct look {
    int n;
    unsigned seg[CARC_MAX_SEGMENTS_PER_TILE]; /* ports | kind << 12 | pennant << 14 */
} look;

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

static look look_of(int kind, int rot)
{
    const carc_tile_def *def = carc_tile(kind);
    look l = {def->nsegments, {0}};
    for (int s = 0; s < def->nsegments; s++)
        l.seg[s] = sup_rotate_ports(def->segments[s].ports, rot) |
                   (unsigned)def->segments[s].kind << 12 | (unsigned)def->segments[s].pennant << 14;
    qsort(l.seg, (size_t)l.n, sizeof l.seg[0], cmp_unsigned);
    return l;
}

/* The lowest rotation that looks like `rot`. */
static int lowest_same(int kind, int rot)
{
    look want = look_of(kind, rot);
    for (int q = 0;; q++) {
        look l = look_of(kind, q);
        if (memcmp(&l, &want, sizeof l) == 0)
            return q;
    }
}

/* The board ports of a follower (0 for a cloister), or 0xFFFF for none. */
static unsigned follower_ports(int kind, carc_move m)
{
    if (m.segment == CARC_NO_SPOT)
        return 0xFFFFu;
    return sup_rotate_ports(carc_tile(kind)->segments[m.segment].ports, m.place.rot);
}

/* The moves carc_legal_moves() must list, built from the placements and
 * spots with the symmetric rotations dropped by the catalogue's looks. */
static int expected_moves(const carc_game *g, carc_move *out, long *dropped)
{
    carc_placement p[CARC_MAX_PLACEMENTS];
    int np = carc_legal_placements(g, p, CARC_MAX_PLACEMENTS), n = 0;
    int kind = carc_game_drawn_tile(g);
    if (np == 0) {
        out[0] = (carc_move){CARC_MOVE_DISCARD, {0, 0, 0, 0}, CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
        return 1;
    }
    for (int i = 0; i < np; i++) {
        if (lowest_same(kind, p[i].rot) != p[i].rot) {
            (*dropped)++;
            continue;
        }
        out[n++] = (carc_move){CARC_MOVE_PLACE, p[i], CARC_NO_SPOT, CARC_FIGURE_FOLLOWER};
        carc_spot s[CARC_MAX_SPOTS];
        int ns = carc_legal_spots(g, p[i], s, CARC_MAX_SPOTS);
        for (int k = 0; k < ns; k++)
            out[n++] = (carc_move){CARC_MOVE_PLACE, p[i], s[k].segment, CARC_FIGURE_FOLLOWER};
    }
    return n;
}

static carc_move listed[CARC_MAX_MOVES], want[CARC_MAX_MOVES];

/* In many positions: the list is the expected one, every move in it is
 * legal, and no two put the same thing on the board. */
static void test_legal_moves(void **state)
{
    (void)state;
    long positions = 0, symmetric = 0, discards = 0;
    carc_game *copy = sup_game(2, 1);
    for (int i = 0; i < 40; i++) {
        carc_game *g = sup_game(2 + i % 5, 300u + (uint64_t)i);
        carc_rng rng = carc_rng_seed((uint64_t)i);
        while (!carc_game_over(g)) {
            int kind = carc_game_drawn_tile(g);
            int n = carc_legal_moves(g, listed, CARC_MAX_MOVES);
            int nwant = expected_moves(g, want, &symmetric);
            assert_int_equal(n, nwant);
            for (int k = 0; k < n; k++)
                if (!carc_move_equal(listed[k], want[k]))
                    fail_msg("move %d of %d differs (tile %c)", k, n, 'A' + kind);
            discards += listed[0].type == CARC_MOVE_DISCARD;
            for (int a = 0; a < n; a++) {
                carc_game_copy(copy, g);
                assert_int_equal(carc_game_play(copy, listed[a], NULL, 0, NULL), CARC_OK);
                for (int b = a + 1; b < n && listed[a].type == CARC_MOVE_PLACE; b++) {
                    carc_move x = listed[a], y = listed[b];
                    if (x.place.x != y.place.x || x.place.y != y.place.y)
                        continue;
                    look lx = look_of(kind, x.place.rot), ly = look_of(kind, y.place.rot);
                    if (memcmp(&lx, &ly, sizeof lx) == 0 &&
                        follower_ports(kind, x) == follower_ports(kind, y))
                        fail_msg("moves %d and %d put the same %c down", a, b, 'A' + kind);
                }
            }
            positions++;
            carc_move m = carc_random_move(g, &rng, 0.5);
            assert_int_equal(carc_game_play(g, m, NULL, 0, NULL), CARC_OK);
        }
        assert_int_equal(carc_legal_moves(g, listed, CARC_MAX_MOVES), 0);
        carc_game_free(g);
    }
    carc_game_free(copy);
    print_message("%ld positions, %ld placements dropped as repeats, %ld discards\n", positions,
                  symmetric, discards);
    assert_true(symmetric > 100);
}

/* Like snprintf: the count whatever the room, nothing written past it. */
static void test_legal_moves_cap(void **state)
{
    (void)state;
    carc_game *g = sup_random_game(3, 44, 20, 0.3);
    int n = carc_legal_moves(g, NULL, 0);
    assert_true(n > 4);
    assert_int_equal(carc_legal_moves(g, want, CARC_MAX_MOVES), n);
    for (int cap = 0; cap <= n; cap++) {
        memset(listed, 0xAB, sizeof listed);
        assert_int_equal(carc_legal_moves(g, listed, cap), n);
        assert_memory_equal(listed, want, (size_t)cap * sizeof listed[0]);
        const unsigned char *rest = (const unsigned char *)&listed[cap];
        for (size_t b = 0; b < sizeof listed[0]; b++)
            assert_int_equal(rest[b], 0xAB);
    }
    carc_game_free(g);
}

/* A tile that fits nowhere: the single discard (the scenario of
 * rule_discard_tile_that_fits_nowhere.rec). */
static void test_legal_moves_discard(void **state)
{
    (void)state;
    const char *text = "players 2\nE 0 -1 2 S\n";
    carc_game *g = carc_record_read(text, strlen(text), 1, NULL);
    assert_non_null(g);
    assert_int_equal(carc_game_choose_tile(g, carc_tile_parse("C")), CARC_OK);
    assert_int_equal(carc_legal_moves(g, NULL, 0), 1);
    memset(listed, 0, sizeof listed);
    assert_int_equal(carc_legal_moves(g, listed, 1), 1);
    assert_int_equal(listed[0].type, CARC_MOVE_DISCARD);
    assert_int_equal(carc_game_play(g, listed[0], NULL, 0, NULL), CARC_OK);
    carc_game_free(g);
}

/* The canonical form puts the same tile and follower down at the lowest
 * such rotation, and leaves other moves alone. */
static void test_canonical(void **state)
{
    (void)state;
    /* U (a straight road) at 1 0: rotations 1 and 3 are one move. */
    const char *text = "players 2\nE 0 -1 2 S\n";
    carc_game *g = carc_record_read(text, strlen(text), 1, NULL);
    assert_non_null(g);
    int u = carc_tile_parse("U");
    assert_int_equal(carc_game_choose_tile(g, u), CARC_OK);
    carc_move parsed, canon;
    assert_int_equal(carc_move_parse(g, "U 1 0 3 N", &parsed), CARC_OK);
    canon = carc_move_canonical(g, parsed);
    assert_int_equal(canon.place.rot, 1);
    assert_int_equal(canon.place.x, 1);
    assert_int_equal(canon.place.y, 0);
    assert_int_equal(follower_ports(u, canon), follower_ports(u, parsed));
    carc_move written;
    assert_int_equal(carc_move_parse(g, "U 1 0 1 N", &written), CARC_OK);
    assert_true(carc_move_equal(canon, written));
    /* Both play to the same scores and supplies, and the same look. */
    carc_game *a = carc_game_clone(g), *b = carc_game_clone(g);
    assert_int_equal(carc_game_play(a, parsed, NULL, 0, NULL), CARC_OK);
    assert_int_equal(carc_game_play(b, canon, NULL, 0, NULL), CARC_OK);
    assert_int_equal(carc_game_supply(a, 1), carc_game_supply(b, 1));
    carc_game_free(a);
    carc_game_free(b);
    /* Already canonical, a discard, a bad shape: unchanged. */
    assert_true(carc_move_equal(carc_move_canonical(g, written), written));
    carc_move discard = {CARC_MOVE_DISCARD, {3, 3, 3, 0}, 7, CARC_FIGURE_FOLLOWER};
    carc_move got = carc_move_canonical(g, discard);
    assert_memory_equal(&got, &discard, sizeof got);
    carc_move bad = {CARC_MOVE_PLACE, {1, 0, 3, 0}, 9, CARC_FIGURE_FOLLOWER};
    got = carc_move_canonical(g, bad);
    assert_memory_equal(&got, &bad, sizeof got);
    bad.place.rot = 7;
    got = carc_move_canonical(g, bad);
    assert_memory_equal(&got, &bad, sizeof got);
    carc_game_free(g);

    /* Every kind, rotation and segment: the lowest rotation with the same
     * look, and a follower on the same board ports. */
    for (int kind = 0; kind < BASE_KINDS; kind++) {
        carc_game *h = sup_game(2, 1);
        if (carc_game_choose_tile(h, kind) != CARC_OK) {
            carc_game_free(h);
            continue; /* the start tile's kind may be used up: none is */
        }
        for (int rot = 0; rot < 4; rot++)
            for (int seg = -1; seg < carc_tile(kind)->nsegments; seg++) {
                carc_move m = {CARC_MOVE_PLACE,
                               {5, 5, (uint8_t)rot, 0},
                               seg < 0 ? CARC_NO_SPOT : (uint8_t)seg,
                               CARC_FIGURE_FOLLOWER};
                carc_move c = carc_move_canonical(h, m);
                assert_int_equal(c.place.rot, lowest_same(kind, rot));
                assert_int_equal(follower_ports(kind, c), follower_ports(kind, m));
                if (seg >= 0)
                    assert_int_equal(carc_tile(kind)->segments[c.segment].kind,
                                     carc_tile(kind)->segments[seg].kind);
            }
        carc_game_free(h);
    }
}

/* The bug report: the random player's analysis listed U 0 1 3 and U 0 1 1
 * as two moves. No player's ranking may hold two moves that are one. */
static void test_rankings_list_each_move_once(void **state)
{
    (void)state;
    static const char *const specs[] = {"random", "greedy"};
    static carc_move_eval ranked[CARC_MAX_MOVES];
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        carc_player *p = carc_player_new(specs[s], 5, NULL, 0);
        assert_non_null(p);
        long symmetric = 0;
        for (int i = 0; i < 6; i++) {
            carc_game *g = sup_game(2, 70u + (uint64_t)i);
            carc_rng rng = carc_rng_seed((uint64_t)i);
            while (!carc_game_over(g)) {
                int n = carc_player_rank(p, g, ranked, CARC_MAX_MOVES, NULL);
                assert_int_equal(n, carc_legal_moves(g, NULL, 0));
                for (int a = 0; a < n; a++)
                    for (int b = a + 1; b < n; b++)
                        if (carc_move_equal(carc_move_canonical(g, ranked[a].move),
                                            carc_move_canonical(g, ranked[b].move)))
                            fail_msg("%s ranks one move twice (moves %d and %d)", specs[s], a, b);
                int kind = carc_game_drawn_tile(g);
                symmetric += carc_legal_placements(g, NULL, 0) > 0 && lowest_same(kind, 2) == 0;
                carc_game_play(g, carc_random_move(g, &rng, 0.5), NULL, 0, NULL);
            }
            carc_game_free(g);
        }
        assert_true(symmetric > 0);
        carc_player_free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_legal_moves),
        cmocka_unit_test(test_legal_moves_cap),
        cmocka_unit_test(test_legal_moves_discard),
        cmocka_unit_test(test_canonical),
        cmocka_unit_test(test_rankings_list_each_move_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
