/* test_invariants.c: 10,000 seeded random games (2 to 6 players, a
 * follower tried half the time), every position checked against the rules'
 * invariants and against the independent board model of support.c:
 * followers are conserved, scores never fall and are the sum of their
 * breakdown and of the events, drawn tiles are placed when they fit and
 * discarded when they do not, every feature the engine reports matches the
 * flood fill, and every game's record replays to the same game.
 * CARC_INVARIANT_GAMES overrides the number of games (the sanitizer build
 * plays fewer). */
#include "support.h"

#include <stdio.h>
#include <string.h>

static model board; /* large: kept out of the stack */
static char record[8192];

/* Players with the most followers, as the rules define majority. */
static unsigned majority(const int *followers, int players)
{
    int best = 0;
    for (int p = 0; p < players; p++)
        if (followers[p] > best)
            best = followers[p];
    unsigned mask = 0;
    for (int p = 0; p < players && best > 0; p++)
        if (followers[p] == best)
            mask |= 1u << p;
    return mask;
}

static unsigned leaders(const carc_game *g)
{
    int best = carc_game_score(g, 0);
    for (int p = 1; p < carc_game_players(g); p++)
        if (carc_game_score(g, p) > best)
            best = carc_game_score(g, p);
    unsigned mask = 0;
    for (int p = 0; p < carc_game_players(g); p++)
        if (carc_game_score(g, p) == best)
            mask |= 1u << p;
    return mask;
}

typedef struct game_ctx {
    carc_game *g;
    int players, standard, index;
    int score[CARC_MAX_PLAYERS], supply[CARC_MAX_PLAYERS];
    int score_of[CARC_MAX_PLAYERS][4];
} game_ctx;

/* Fails the test naming the game, the move and the broken check; the
 * optional arguments are a printf format and its values. */
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            print_error("game %d, after move %d: check %s failed\n", c->index,                     \
                        carc_game_move_count(c->g), #cond);                                        \
            fail_msg("" __VA_ARGS__);                                                              \
        }                                                                                          \
    } while (0)

/* --- Features against the flood fill --------------------------------------------- */

static int id_owner[65536];
static unsigned id_stamp[65536];
static unsigned stamp;

static void check_features(const game_ctx *c)
{
    const carc_game *g = c->g;
    stamp++;
    for (int fi = 0; fi < board.nfeatures; fi++) {
        const model_feature *f = &board.features[fi];
        int node = board.order[f->first];
        int t0 = node / MODEL_SEGS, s0 = node % MODEL_SEGS;
        int id = carc_game_feature(g, t0, s0);
        CHECK(id >= 0 && id < 65536, "feature id %d", id);
        /* One engine feature per flood-filled feature, and back. */
        CHECK(id_stamp[id] != stamp, "features %d and %d share id %d", id_owner[id], fi, id);
        id_stamp[id] = stamp;
        id_owner[id] = fi;
        for (int i = f->first + 1; i < f->first + f->count; i++) {
            int n = board.order[i];
            CHECK(carc_game_feature(g, n / MODEL_SEGS, n % MODEL_SEGS) == id,
                  "tile %d segment %d is not in feature %d", n / MODEL_SEGS, n % MODEL_SEGS, id);
        }
        CHECK(carc_game_feature_has(g, id, t0, s0));
        carc_feature info;
        CHECK(carc_game_feature_info(g, id, &info) == CARC_OK);
        CHECK(info.kind == f->kind);
        CHECK(info.complete == f->complete, "kind %d", f->kind);
        for (int p = 0; p < c->players; p++)
            CHECK(info.followers[p] == f->followers[p], "player %d", p);
        for (int p = c->players; p < CARC_MAX_PLAYERS; p++)
            CHECK(info.followers[p] == 0);
        CHECK(info.owners == majority(f->followers, c->players));
        CHECK(info.pennants == f->pennants);
        CHECK(info.open_edges == (f->kind == CARC_FIELD ? 0 : f->open), "kind %d", f->kind);
        /* Completed roads, cities and cloisters sent their followers home. */
        if (f->complete)
            CHECK(f->nfollowers == 0, "kind %d, %d followers", f->kind, f->nfollowers);
        if (f->kind != CARC_CLOISTER)
            CHECK(info.tiles == f->tiles, "kind %d: %d, expected %d", f->kind, info.tiles,
                  f->tiles);
        if (!c->standard)
            continue;
        int value, at_end;
        switch (f->kind) {
        case CARC_ROAD: value = at_end = f->tiles; break;
        case CARC_CITY:
            value = 2 * (f->tiles + f->pennants);
            at_end = f->complete ? value : f->tiles + f->pennants;
            break;
        case CARC_CLOISTER:
            value = 9;
            at_end = 9 - f->open;
            break;
        default: value = at_end = 3 * f->cities; break;
        }
        CHECK(info.value == value, "kind %d: %d, expected %d", f->kind, info.value, value);
        CHECK(info.value_at_end == at_end, "kind %d: %d, expected %d", f->kind, info.value_at_end,
              at_end);
    }
}

/* --- Followers, scores, events ---------------------------------------------------- */

static void check_followers(const game_ctx *c)
{
    int on_board[CARC_MAX_PLAYERS] = {0};
    for (int t = 0; t < board.ntiles; t++) {
        const model_tile *mt = &board.tiles[t];
        if (mt->follower_seg < 0)
            continue;
        CHECK(mt->follower_seg < carc_tile(mt->kind)->nsegments);
        CHECK(mt->follower_owner < c->players);
        on_board[mt->follower_owner]++;
    }
    for (int p = 0; p < c->players; p++) {
        int supply = carc_game_supply(c->g, p);
        CHECK(supply >= 0 && supply <= CARC_FOLLOWERS);
        CHECK(supply + on_board[p] == CARC_FOLLOWERS, "player %d: %d + %d", p, supply, on_board[p]);
    }
}

static void check_event(const game_ctx *c, const carc_event *ev, int over)
{
    CHECK(ev->kind <= CARC_CLOISTER);
    /* Without final scoring of open features, their followers just go
     * home. */
    int unscored = (carc_game_rules(c->g).flags & CARC_RULE_NO_INCOMPLETE) && !ev->complete &&
                   ev->kind != CARC_FIELD;
    if (unscored)
        CHECK(ev->winners == 0 && ev->points == 0);
    else
        CHECK(ev->winners != 0 && ev->winners < (1u << c->players), "winners %X", ev->winners);
    CHECK(carc_game_tile_at(c->g, ev->x, ev->y) >= 0);
    int returned[CARC_MAX_PLAYERS] = {0}, nreturned = 0;
    for (int p = 0; p < CARC_MAX_PLAYERS; p++) {
        returned[p] = ev->returned[p];
        nreturned += ev->returned[p];
        if (p >= c->players)
            CHECK(ev->returned[p] == 0);
    }
    /* Scoring during play only for completed features; final scoring
     * only at the end. */
    CHECK(ev->complete ? ev->kind != CARC_FIELD : over);
    if (ev->kind == CARC_FIELD) {
        CHECK(nreturned == 0); /* farmers stay */
    } else {
        /* Every follower of the feature goes home: the winners are the
         * majority of those. */
        CHECK(nreturned > 0);
        if (!unscored)
            CHECK(ev->winners == majority(returned, c->players));
    }
    if (!c->standard)
        return;
    int want;
    switch (ev->kind) {
    case CARC_ROAD: want = ev->tiles; break;
    case CARC_CITY:
        want = ev->complete ? 2 * (ev->tiles + ev->pennants) : ev->tiles + ev->pennants;
        break;
    case CARC_CLOISTER:
        want = ev->tiles;
        CHECK(ev->tiles >= 1 && ev->tiles <= 9);
        if (ev->complete)
            CHECK(ev->tiles == 9);
        break;
    default: want = 3 * ev->tiles; break;
    }
    CHECK(ev->points == want, "kind %d: %d points, expected %d", ev->kind, ev->points, want);
    CHECK(ev->tiles >= 1 || ev->kind == CARC_FIELD);
}

static void check_scores(game_ctx *c, int mover, carc_move m, const carc_event *ev, int nev)
{
    int gained[CARC_MAX_PLAYERS] = {0}, returned[CARC_MAX_PLAYERS] = {0};
    int gained_of[CARC_MAX_PLAYERS][4] = {{0}};
    int over = carc_game_over(c->g);
    CHECK(nev >= 0 && nev <= CARC_MAX_EVENTS, "%d events", nev);
    for (int i = 0; i < nev; i++) {
        check_event(c, &ev[i], over);
        for (int p = 0; p < c->players; p++) {
            if (ev[i].winners & (1u << p)) {
                gained[p] += ev[i].points;
                gained_of[p][ev[i].kind] += ev[i].points;
            }
            returned[p] += ev[i].returned[p];
        }
    }
    for (int p = 0; p < c->players; p++) {
        int score = carc_game_score(c->g, p), sum = 0;
        for (int k = 0; k < 4; k++) {
            int part = carc_game_score_of(c->g, p, (carc_kind)k);
            CHECK(part - c->score_of[p][k] == gained_of[p][k], "player %d kind %d", p, k);
            c->score_of[p][k] = part;
            sum += part;
        }
        CHECK(score >= c->score[p], "player %d: %d after %d", p, score, c->score[p]);
        CHECK(score == sum, "player %d: %d, breakdown %d", p, score, sum);
        CHECK(score - c->score[p] == gained[p], "player %d gained %d, events say %d", p,
              score - c->score[p], gained[p]);
        int deployed = p == mover && m.type == CARC_MOVE_PLACE && m.segment != CARC_NO_SPOT;
        int supply = carc_game_supply(c->g, p);
        CHECK(supply - c->supply[p] == returned[p] - deployed, "player %d", p);
        c->score[p] = score;
        c->supply[p] = supply;
    }
    CHECK(carc_game_leaders(c->g) == leaders(c->g));
}

/* --- One game -------------------------------------------------------------------- */

static void check_end(const game_ctx *c, int discards)
{
    const carc_game *g = c->g;
    CHECK(carc_game_over(g));
    CHECK(!carc_game_ended_early(g));
    CHECK(carc_game_drawn_tile(g) == CARC_NO_TILE);
    CHECK(carc_game_tiles_left(g, NULL) == 0);
    CHECK(carc_game_move_count(g) == BASE_GAME_PILE);
    CHECK(carc_game_tile_count(g) - 1 + discards == BASE_GAME_PILE, "%d tiles, %d discards",
          carc_game_tile_count(g), discards);
    /* Every tile of the set was used once. */
    int used[CARC_MAX_KINDS] = {0};
    for (int t = 0; t < board.ntiles; t++)
        used[board.tiles[t].kind]++;
    for (int i = 0; i < carc_game_move_count(g); i++) {
        carc_move m;
        int kind;
        CHECK(carc_game_move_at(g, i, &m, &kind) == CARC_OK);
        if (m.type == CARC_MOVE_DISCARD)
            used[kind]++;
    }
    for (int k = 0; k < BASE_KINDS; k++)
        CHECK(used[k] == carc_tile(k)->count, "tile %c", 'A' + k);
}

static void check_replay(const game_ctx *c)
{
    const carc_game *g = c->g;
    size_t len = carc_record_write(g, "player-kind random", record, sizeof record);
    CHECK(len < sizeof record);
    carc_record_error err;
    carc_game *h = carc_record_read(record, len, (uint64_t)c->index, &err);
    CHECK(h != NULL, "line %d: %s", err.line, err.message);
    CHECK(carc_game_over(h));
    CHECK(carc_game_move_count(h) == carc_game_move_count(g));
    for (int i = 0; i < carc_game_move_count(g); i++) {
        carc_move a, b;
        int ka, kb;
        CHECK(carc_game_move_at(g, i, &a, &ka) == CARC_OK);
        CHECK(carc_game_move_at(h, i, &b, &kb) == CARC_OK);
        CHECK(ka == kb && a.type == b.type, "move %d", i);
        CHECK(carc_game_move_player(g, i) == carc_game_move_player(h, i), "move %d", i);
        if (a.type == CARC_MOVE_PLACE)
            CHECK(a.place.x == b.place.x && a.place.y == b.place.y && a.place.rot == b.place.rot &&
                      a.segment == b.segment,
                  "move %d", i);
    }
    for (int p = 0; p < c->players; p++) {
        CHECK(carc_game_score(h, p) == carc_game_score(g, p), "player %d", p);
        CHECK(carc_game_supply(h, p) == carc_game_supply(g, p), "player %d", p);
        for (int k = 0; k < 4; k++)
            CHECK(carc_game_score_of(h, p, (carc_kind)k) == carc_game_score_of(g, p, (carc_kind)k));
    }
    carc_game_free(h);
}

static int play_game(int index, int players, uint32_t rules_flags)
{
    carc_rules rules = {.flags = rules_flags};
    game_ctx ctx = {carc_game_new(players, &rules, 0x5EED0000u + (uint64_t)index),
                    players,
                    rules_flags == 0,
                    index,
                    {0},
                    {0},
                    {{0}}};
    game_ctx *c = &ctx;
    assert_non_null(c->g);
    carc_rng rng = carc_rng_seed(0xC0FFEEu * (uint64_t)(index + 1));
    for (int p = 0; p < players; p++)
        c->supply[p] = CARC_FOLLOWERS;
    model_from_game(&board, c->g);
    int discards = 0;
    carc_event ev[CARC_MAX_EVENTS];
    while (!carc_game_over(c->g)) {
        int mover = carc_game_current_player(c->g);
        int drawn = carc_game_drawn_tile(c->g);
        CHECK(drawn >= 0 && drawn < CARC_MAX_KINDS);
        int fits = model_placements(&board, drawn, NULL, 0);
        CHECK(carc_legal_placements(c->g, NULL, 0) == fits, "tile %c", 'A' + drawn);
        carc_move m = carc_random_move(c->g, &rng, 0.5);
        /* A tile that fits is placed; one that fits nowhere is discarded. */
        if (fits == 0) {
            CHECK(m.type == CARC_MOVE_DISCARD);
            discards++;
        } else {
            CHECK(m.type == CARC_MOVE_PLACE);
            CHECK(model_fits(&board, drawn, m.place.x, m.place.y, m.place.rot));
        }
        int nev = -1;
        CHECK(carc_game_play(c->g, m, ev, CARC_MAX_EVENTS, &nev) == CARC_OK, "%s",
              carc_game_error(c->g));
        if (m.type == CARC_MOVE_PLACE)
            model_add(&board, m.place.x, m.place.y, drawn, m.place.rot);
        CHECK(carc_game_tile_count(c->g) == board.ntiles);
        CHECK(carc_game_move_player(c->g, carc_game_move_count(c->g) - 1) == mover);
        model_read_followers(&board, c->g);
        model_features(&board);
        check_followers(c);
        /* A follower just deployed that is still standing is alone on its
         * feature: the features its segment joined were all free. */
        if (m.type == CARC_MOVE_PLACE && m.segment != CARC_NO_SPOT) {
            const model_tile *placed = &board.tiles[board.ntiles - 1];
            if (placed->follower_seg >= 0) {
                CHECK(placed->follower_seg == m.segment && placed->follower_owner == mover);
                CHECK(model_feature_at(&board, board.ntiles - 1, m.segment)->nfollowers == 1);
            }
        }
        check_scores(c, mover, m, ev, nev);
        check_features(c);
        if (c->standard && !carc_game_over(c->g)) {
            int next = m.type == CARC_MOVE_DISCARD ? mover : (mover + 1) % players;
            CHECK(carc_game_current_player(c->g) == next);
        }
    }
    check_end(c, discards);
    check_replay(c);
    carc_game_free(c->g);
    return discards;
}

static void test_random_games(void **state)
{
    (void)state;
    int games = sup_env_count("CARC_INVARIANT_GAMES", 10000);
    long discards = 0;
    for (int i = 0; i < games; i++)
        discards += play_game(i, 2 + i % 5, 0);
    print_message("%d games, %ld discards\n", games, discards);
}

/* The rule variants: the invariants that hold under every rule. */
static void test_random_games_variants(void **state)
{
    (void)state;
    int games = sup_env_count("CARC_INVARIANT_GAMES", 10000) / 20;
    for (int i = 0; i < games; i++) {
        uint32_t flags = (uint32_t)(1 + i % 15); /* every non-empty set of the 4 */
        play_game(1000000 + i, 2 + i % 5, flags);
    }
    print_message("%d games with variants\n", games);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_random_games_variants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
