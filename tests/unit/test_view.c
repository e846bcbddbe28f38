/* test_view.c: the public view of a game (the hidden pile dealt again) and
 * the digest of the public state, checked against the byte sequence that
 * carcassonne.h defines, computed here from the public API alone. */
#include "support.h"

#include <string.h>

static snapshot snap_a, snap_b; /* large: kept out of the stack */

static void assert_same_public_state(const carc_game *a, const carc_game *b)
{
    sup_snapshot(a, &snap_a);
    sup_snapshot(b, &snap_b);
    sup_assert_same(&snap_a, &snap_b);
}

/* --- The digest as documented ------------------------------------------------------ */

typedef struct fnv {
    uint64_t h;
} fnv;

static void put(fnv *f, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        f->h ^= (v >> (8 * i)) & 0xFF;
        f->h *= 0x100000001B3ull;
    }
}

static uint64_t documented_digest(const carc_game *g)
{
    fnv f = {0xCBF29CE484222325ull};
    int counts[CARC_MAX_KINDS] = {0};
    int left = carc_game_tiles_left(g, counts);
    put(&f, 1, 1);
    put(&f, (uint64_t)carc_game_players(g), 1);
    put(&f, carc_game_rules(g).flags, 4);
    put(&f, (uint64_t)carc_game_current_player(g), 1);
    put(&f, carc_game_over(g) ? 255u : (uint64_t)carc_game_drawn_tile(g), 1);
    put(&f, (uint64_t)carc_game_over(g), 1);
    put(&f, (uint64_t)carc_game_ended_early(g), 1);
    put(&f, (uint64_t)carc_game_move_count(g), 2);
    put(&f, (uint64_t)left, 1);
    for (int k = 0; k < BASE_KINDS; k++)
        put(&f, (uint64_t)counts[k], 1);
    for (int p = 0; p < carc_game_players(g); p++) {
        put(&f, (uint32_t)carc_game_score(g, p), 4);
        put(&f, (uint64_t)carc_game_supply(g, p), 1);
    }
    put(&f, (uint64_t)carc_game_tile_count(g), 1);
    for (int t = 0; t < carc_game_tile_count(g); t++) {
        carc_tile_on_board b;
        assert_int_equal(carc_game_tile_info(g, t, &b), CARC_OK);
        int none = b.follower_segment == CARC_NO_SPOT;
        put(&f, (uint8_t)b.x, 1);
        put(&f, (uint8_t)b.y, 1);
        put(&f, b.kind, 1);
        put(&f, b.rot, 1);
        put(&f, b.follower_segment, 1);
        put(&f, none ? 255u : b.follower_owner, 1);
    }
    return f.h;
}

/* The digest follows its definition at every position of many games,
 * variants and early ends included. */
static void test_digest_definition(void **state)
{
    (void)state;
    long positions = 0;
    for (int i = 0; i < 40; i++) {
        carc_rules rules = {.flags = (uint32_t)i % 16};
        carc_game *g = carc_game_new(2 + i % 5, &rules, 50u + (uint64_t)i);
        assert_non_null(g);
        carc_rng rng = carc_rng_seed((uint64_t)i);
        int stop = i % 3 == 0 ? 30 : 1000;
        while (!carc_game_over(g)) {
            assert_int_equal(carc_game_digest(g), documented_digest(g));
            positions++;
            if (carc_game_move_count(g) == stop)
                assert_int_equal(carc_game_finish(g, NULL, 0, NULL), CARC_OK);
            else
                carc_game_play(g, carc_random_move(g, &rng, 0.7), NULL, 0, NULL);
        }
        assert_int_equal(carc_game_digest(g), documented_digest(g));
        carc_game_free(g);
    }
    print_message("%ld positions\n", positions);
}

/* A fixed position has a fixed digest on every platform and build. */
static void test_digest_golden(void **state)
{
    (void)state;
    const char *text = "players 3\nrules small-city\nE 0 -1 2 S\nU 1 0 1 W\nL -1 0 0\n";
    carc_record_error err;
    carc_game *g = carc_record_read(text, strlen(text), 1, &err);
    if (!g)
        fail_msg("line %d: %s", err.line, err.message);
    assert_int_equal(carc_game_choose_tile(g, carc_tile_parse("A")), CARC_OK);
    uint64_t d = carc_game_digest(g);
    assert_int_equal(d, documented_digest(g));
    /* Worked out by hand from the documented bytes (and by a short Python
     * script): 3 players, small-city, 3 moves, A drawn, scores 2 0 0. */
    assert_int_equal(d, 0xD5C612446F7D9489ull);
    carc_game_free(g);
}

/* A move, a different drawn tile, the end: each changes the digest; the
 * pile's order and the generator do not. */
static void test_digest_changes(void **state)
{
    (void)state;
    carc_game *g = sup_random_game(2, 8, 25, 0.5);
    carc_game *h = carc_game_clone(g);
    assert_non_null(h);
    uint64_t d = carc_game_digest(g);
    carc_game_shuffle_hidden(h, 12345);
    assert_int_equal(carc_game_digest(h), d);
    carc_rng rng = carc_rng_seed(3);
    assert_int_equal(carc_game_play(h, carc_random_move(h, &rng, 0.5), NULL, 0, NULL), CARC_OK);
    assert_int_not_equal(carc_game_digest(h), d);
    carc_game_copy(h, g);
    int counts[CARC_MAX_KINDS], other = -1;
    carc_game_tiles_left(h, counts);
    for (int k = 0; k < BASE_KINDS && other < 0; k++)
        if (counts[k] > 0 && k != carc_game_drawn_tile(h))
            other = k;
    assert_int_equal(carc_game_choose_tile(h, other), CARC_OK);
    assert_int_not_equal(carc_game_digest(h), d);
    carc_game_copy(h, g);
    assert_int_equal(carc_game_finish(h, NULL, 0, NULL), CARC_OK);
    assert_int_not_equal(carc_game_digest(h), d);
    carc_game_free(h);
    carc_game_free(g);
}

/* The same position reached by replaying the game's record, whatever the
 * reader's seed, has the same digest. */
static void test_digest_after_replay(void **state)
{
    (void)state;
    static char text[8192];
    for (int i = 0; i < 30; i++) {
        carc_game *g = sup_random_game(2 + i % 5, 200u + (uint64_t)i, i % 2 ? 40 : -1, 0.5);
        size_t len = carc_record_write(g, NULL, text, sizeof text);
        assert_true(len < sizeof text);
        carc_game *h = carc_record_read(text, len, 999u + (uint64_t)i, NULL);
        assert_non_null(h);
        if (!carc_game_over(g)) /* the reader deals the next tile itself */
            assert_int_equal(carc_game_choose_tile(h, carc_game_drawn_tile(g)), CARC_OK);
        assert_int_equal(carc_game_digest(h), carc_game_digest(g));
        carc_game_free(h);
        carc_game_free(g);
    }
}

/* A record ended early (`end`) gives one digest whatever seed deals the
 * tile that was drawn but never played: it goes back to the tiles left. */
static void test_digest_after_end(void **state)
{
    (void)state;
    static char text[8192];
    for (int i = 0; i < 20; i++) {
        carc_game *g = sup_random_game(2 + i % 5, 300u + (uint64_t)i, 30, 0.5);
        int left = carc_game_tiles_left(g, NULL);
        size_t len = carc_record_write(g, NULL, text, sizeof text);
        assert_true(len + 5 < sizeof text);
        memcpy(text + len, "end\n", 5);
        len += 4;
        carc_game *a = carc_record_read(text, len, 1, NULL);
        carc_game *b = carc_record_read(text, len, 2u + (uint64_t)i, NULL);
        assert_non_null(a);
        assert_non_null(b);
        assert_true(carc_game_over(a));
        assert_int_equal(carc_game_tiles_left(a, NULL), left + 1);
        assert_int_equal(carc_game_digest(a), carc_game_digest(b));
        carc_game_free(a);
        carc_game_free(b);
        carc_game_free(g);
    }
}

/* --- The public view ------------------------------------------------------------- */

/* A view keeps every observable thing and the digest. */
static void test_view_keeps_public_state(void **state)
{
    (void)state;
    carc_game *view = sup_game(2, 1);
    for (int i = 0; i < 30; i++) {
        carc_game *g = sup_random_game(2 + i % 5, 100u + (uint64_t)i, i * 3, 0.5);
        carc_game_public_view(view, g, 77u + (uint64_t)i);
        assert_same_public_state(g, view);
        assert_int_equal(carc_game_digest(view), carc_game_digest(g));
        /* In place too. */
        carc_game *copy = carc_game_clone(g);
        carc_game_public_view(copy, copy, 5);
        assert_same_public_state(g, copy);
        carc_game_free(copy);
        carc_game_free(g);
    }
    carc_game_free(view);
}

/* Plays both games to the end with the same random moves; fails when they
 * ever differ. */
static void assert_same_future(carc_game *a, carc_game *b, uint64_t seed)
{
    carc_rng ra = carc_rng_seed(seed), rb = carc_rng_seed(seed);
    while (!carc_game_over(a)) {
        assert_int_equal(carc_game_digest(a), carc_game_digest(b));
        assert_int_equal(carc_game_play_random(a, &ra, 0.5, NULL), CARC_OK);
        assert_int_equal(carc_game_play_random(b, &rb, 0.5, NULL), CARC_OK);
    }
    assert_same_public_state(a, b);
}

/* The view depends on the public state and the seed alone: two games that
 * differ only in the hidden order give views with the same future; other
 * seeds deal other futures. */
static void test_view_hides_the_pile(void **state)
{
    (void)state;
    int other_futures = 0;
    for (int i = 0; i < 20; i++) {
        carc_game *a = sup_random_game(2 + i % 5, 400u + (uint64_t)i, 10 + i, 0.5);
        carc_game *b = carc_game_clone(a);
        assert_non_null(b);
        carc_game_shuffle_hidden(b, 31337u + (uint64_t)i); /* another hidden order */
        /* A record's draw leaves traces of the deal in the pile. */
        int counts[CARC_MAX_KINDS] = {0};
        carc_game_tiles_left(a, counts);
        for (int k = BASE_KINDS - 1; k >= 0; k--)
            if (counts[k] > 0 && k != carc_game_drawn_tile(a)) {
                assert_int_equal(carc_game_choose_tile(a, k), CARC_OK);
                assert_int_equal(carc_game_choose_tile(b, k), CARC_OK);
                break;
            }
        carc_game *va = carc_game_clone(a), *vb = carc_game_clone(b);
        carc_game_public_view(va, a, 9);
        carc_game_public_view(vb, b, 9);
        assert_same_future(va, vb, (uint64_t)i);
        /* Another seed: the next draws differ in some game. */
        carc_game_public_view(va, a, 9);
        carc_game_public_view(vb, a, 10);
        carc_rng ra = carc_rng_seed(1), rb = carc_rng_seed(1);
        for (int k = 0; k < 5 && !carc_game_over(va); k++) {
            carc_game_play_random(va, &ra, 0.5, NULL);
            carc_game_play_random(vb, &rb, 0.5, NULL);
            if (carc_game_drawn_tile(va) != carc_game_drawn_tile(vb)) {
                other_futures++;
                break;
            }
        }
        carc_game_free(va);
        carc_game_free(vb);
        carc_game_free(a);
        carc_game_free(b);
    }
    assert_true(other_futures >= 10);
}

/* A finished game's view is the finished game; it plays no more. */
static void test_view_of_finished_game(void **state)
{
    (void)state;
    carc_game *g = sup_random_game(4, 5, -1, 0.5);
    carc_game *v = sup_game(2, 1);
    carc_game_public_view(v, g, 3);
    assert_same_public_state(g, v);
    assert_int_equal(carc_game_digest(v), carc_game_digest(g));
    assert_int_equal(carc_legal_moves(v, NULL, 0), 0);
    carc_game_free(v);
    carc_game_free(g);
}

/* The hidden deal saved and restored: a game read back from its record
 * with carc_game_set_deal() draws what the game would have drawn, in the
 * base game and with The River (its pile on top); a bad order is refused
 * with nothing changed. */
static void check_deal_round_trip(int players, const char *expansions, uint64_t seed)
{
    carc_rules rules = carc_rules_standard();
    assert_int_equal(carc_expansions_parse(expansions, &rules, NULL, 0), CARC_OK);
    carc_game *g = carc_game_new(players, &rules, seed);
    carc_rng r = carc_rng_seed(seed);
    for (int i = 0; i < 3; i++) /* still in the river's pile with The River */
        carc_game_play_random(g, &r, 0.5, NULL);
    static char text[1 << 16];
    carc_record_write(g, NULL, text, sizeof text);
    carc_record_error err;
    carc_game *back = carc_record_read(text, strlen(text), seed + 99, &err);
    assert_non_null(back);
    int kinds[CARC_MAX_TILES], n = carc_game_deal(g, kinds, CARC_MAX_TILES, NULL);
    uint64_t generator;
    assert_int_equal(carc_game_deal(g, NULL, 0, &generator), n);
    assert_int_equal(carc_game_choose_tile(back, carc_game_drawn_tile(g)), CARC_OK);
    int swapped[CARC_MAX_TILES];
    memcpy(swapped, kinds, sizeof swapped);
    swapped[0] = kinds[n - 1]; /* the next draw a main-pile tile, even in the river */
    swapped[n - 1] = kinds[0];
    uint64_t before = carc_game_digest(back);
    int was[CARC_MAX_TILES];
    carc_game_deal(back, was, CARC_MAX_TILES, NULL);
    assert_int_equal(carc_game_set_deal(back, kinds, n - 1, generator), CARC_EINVAL);
    if (strcmp(expansions, "river") == 0)
        assert_int_equal(carc_game_set_deal(back, swapped, n, generator), CARC_EINVAL);
    int after[CARC_MAX_TILES];
    carc_game_deal(back, after, CARC_MAX_TILES, NULL);
    assert_memory_equal(after, was, sizeof(int) * (size_t)n); /* refused: unchanged */
    assert_int_equal(carc_game_set_deal(back, kinds, n, generator), CARC_OK);
    assert_int_equal(carc_game_digest(back), before);
    while (!carc_game_over(g)) {
        assert_int_equal(carc_game_drawn_tile(back), carc_game_drawn_tile(g));
        carc_rng copy = r;
        carc_game_play_random(g, &r, 0.5, NULL);
        carc_game_play_random(back, &copy, 0.5, NULL);
    }
    assert_true(carc_game_over(back));
    assert_int_equal(carc_game_digest(back), carc_game_digest(g));
    carc_game_free(back);
    carc_game_free(g);
}

static void test_deal_round_trip(void **state)
{
    (void)state;
    check_deal_round_trip(2, "", 5);
    check_deal_round_trip(3, "river", 6);
    check_deal_round_trip(8, "inns-cathedrals,traders-builders", 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digest_definition),   cmocka_unit_test(test_digest_golden),
        cmocka_unit_test(test_digest_changes),      cmocka_unit_test(test_digest_after_replay),
        cmocka_unit_test(test_digest_after_end),    cmocka_unit_test(test_view_keeps_public_state),
        cmocka_unit_test(test_view_hides_the_pile), cmocka_unit_test(test_view_of_finished_game),
        cmocka_unit_test(test_deal_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
