/* game.c: a game's life: set-up and copies, the turn (a move played, what
 * it completed scored, the next tile drawn), the end of the game, scores
 * and history. The tiles come from the tile source (source.h), the moves
 * are moves.c's; expansions and house rules join through the hooks of
 * their capabilities (capabilities.h), named nowhere here. */
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"
#include "board.h"
#include "capabilities.h"
#include "digest.h"
#include "feature.h"
#include "figures.h"
#include "game.h"
#include "layout_of.h"
#include "moves.h"
#include "scoring.h"
#include "source.h"
#include "tiles.h"

/* --- Set-up and copies ----------------------------------------------------- */

static void update_cloisters(carc_game *g, int t, event_sink *sink);

/* Places the start tile at 0 0. */
static void place_start(carc_game *g, int kind)
{
    int closed;
    board_place(g, kind, 0, 0, 0, -1, &closed);
    update_cloisters(g, 0, NULL); /* a cloister drawn as the start tile */
}

static carc_status start_game(carc_game *g, int players, const carc_rules *rules, uint64_t seed,
                              int fresh)
{
    if (!g)
        return CARC_EINVAL;
    if (players < CARC_MIN_PLAYERS || players > CARC_MAX_PLAYERS) {
        game_set_error(g, "players must be %d to %d, not %d", CARC_MIN_PLAYERS, CARC_MAX_PLAYERS,
                       players);
        return CARC_EINVAL;
    }
    carc_rules chosen = rules ? *rules : carc_rules_standard();
    if (carc_rules_check(&chosen, g->error, sizeof g->error) != CARC_OK)
        return CARC_EINVAL;
    if (layout_wide_for(&chosen, players) != LAYOUT_WIDE) {
        game_set_error(g,
                       "a game with other expansions or with more than %d players needs a "
                       "new game, not a reset",
                       COMPACT_MAX_PLAYERS);
        return CARC_EINVAL;
    }
    g->layout = LAYOUT_WIDE;
    g->rules = chosen;
    g->rng = carc_rng_seed(seed);
    g->nplayers = (uint8_t)players;
    g->current = 0;
    g->over = 0;
    g->ended_early = 0;
    g->nmoves = 0;
    g->pile_pending = 0;
    memset(g->supply, CARC_FOLLOWERS, sizeof g->supply);
    caps_start(g);
    memset(g->score, 0, sizeof g->score);
    memset(g->score_by_kind, 0, sizeof g->score_by_kind);
    board_clear(g, fresh);
    place_start(g, source_start_tile(g));
    source_deal(g);
    g->error[0] = '\0';
    return CARC_OK;
}

carc_status carc_game_reset(carc_game *g, int players, const carc_rules *rules, uint64_t seed)
{
    return start_game(g, players, rules, seed, 0);
}

carc_game *carc_game_new(int players, const carc_rules *rules, uint64_t seed)
{
    if (players < CARC_MIN_PLAYERS || players > CARC_MAX_PLAYERS)
        return NULL;
    carc_game *g = malloc(sizeof *g);
    if (g && start_game(g, players, rules, seed, 1) != CARC_OK) {
        free(g);
        return NULL;
    }
    return g;
}

/* A copy moves the fields before `history` whole, then the used part of
 * each array from `history` to `seg`: nothing else may lie among them.
 * FIELD_END(a, T) is where a field of type T would start after field a. */
#define FIELD_END(a, T)                                                                            \
    ((offsetof(carc_game, a) + sizeof(((carc_game *)0)->a) + _Alignof(T) - 1) / _Alignof(T) *      \
     _Alignof(T))
static_assert(offsetof(carc_game, grid) == FIELD_END(history, cell_id) &&
                  offsetof(carc_game, tiles) == FIELD_END(grid, board_tile) &&
                  offsetof(carc_game, frontier) == FIELD_END(tiles, frontier_square) &&
                  offsetof(carc_game, seg) == FIELD_END(frontier, seg_node),
              "history, grid, tiles, frontier and seg follow each other");
#undef FIELD_END

/* Copies `src` into `dst`, a game of the same layout, or garbage when
 * `fresh`. Of the arrays of the board and the history only the used part
 * is copied: the segments, tiles, frontier squares and history entries
 * beyond their counts are never read, and the grid (74 x 74 bytes in the
 * base layout, 130 x 130 cells of two bytes in the wide one: half and two
 * thirds of a game) is used only in the board's columns and one either
 * side, so only those are copied and `dst`'s other used columns zeroed
 * (board_copy_columns). A search copies a game for every placement it
 * values. */
static void copy_game(carc_game *dst, const carc_game *src, int fresh)
{
    if (fresh) {
        memcpy(dst, src, offsetof(carc_game, seg));
    } else {
        board_copy_columns(dst, src); /* first: it reads dst's bounds */
        memcpy(dst, src, offsetof(carc_game, history));
        memcpy(dst->history, src->history, sizeof src->history[0] * src->nmoves);
        memcpy(dst->tiles, src->tiles, sizeof src->tiles[0] * src->ntiles);
        memcpy(dst->frontier, src->frontier, sizeof src->frontier[0] * src->nfrontier);
    }
    memcpy(dst->seg, src->seg, src->nseg * sizeof src->seg[0]);
    source_copy(dst, src);
    dst->error[0] = '\0';
}

/* layout.c passes the call to the build of `src`'s layout: `dst` must
 * have the same. */
carc_status carc_game_copy(carc_game *dst, const carc_game *src)
{
    if (dst->layout != src->layout)
        return CARC_EINVAL;
    if (dst != src)
        copy_game(dst, src, 0);
    return CARC_OK;
}

carc_game *carc_game_clone(const carc_game *src)
{
    carc_game *g = malloc(sizeof *g);
    if (g)
        copy_game(g, src, 1);
    return g;
}

size_t carc_game_size(const carc_rules *rules)
{
    (void)rules;
    return sizeof(carc_game);
}

const char *carc_game_error(const carc_game *g)
{
    return g ? g->error : "no game";
}

/* --- Turn and tile ---------------------------------------------------------- */

int carc_game_players(const carc_game *g)
{
    return g->nplayers;
}

carc_rules carc_game_rules(const carc_game *g)
{
    return g->rules;
}

int carc_game_over(const carc_game *g)
{
    return g->over;
}

int carc_game_current_player(const carc_game *g)
{
    return g->current;
}

int carc_game_drawn_tile(const carc_game *g)
{
    return g->over ? CARC_NO_TILE : g->drawn;
}

int carc_game_ended_early(const carc_game *g)
{
    return g->ended_early;
}

void carc_game_public_view(carc_game *dst, const carc_game *src, uint64_t seed)
{
    if (carc_game_copy(dst, src) != CARC_OK)
        return; /* `dst` has the other layout */
    /* The slots of tiles already drawn may name a tile that a record
     * replaced (carc_game_choose_tile): a trace of the deal. */
    memset(dst->pile + dst->pile_len, 0, (size_t)(LAYOUT_TILES - dst->pile_len));
    if (dst->over) {
        pile_settle(dst); /* the order it keeps */
        dst->rng = carc_rng_seed(seed);
    } else {
        carc_game_shuffle_hidden(dst, seed);
    }
}

uint64_t carc_game_digest(const carc_game *g)
{
    digest d = {0xCBF29CE484222325ull};
    /* The version of this byte sequence (3 and 4 when the tile source
     * adds its part). */
    digest_bytes(&d, 1 + LAYOUT_WIDE + (uint64_t)source_digest_version(g), 1);
    digest_bytes(&d, g->nplayers, 1);
    digest_bytes(&d, g->rules.flags, 4);
    if (LAYOUT_WIDE)
        digest_bytes(&d, g->rules.expansions, 4);
    source_digest(&d, g);
    caps_digest_rules(&d, g);
    digest_bytes(&d, g->current, 1);
    digest_bytes(&d, source_drawn_public(g) ? (uint8_t)g->drawn : 255u, 1);
    digest_bytes(&d, g->over, 1);
    digest_bytes(&d, g->ended_early, 1);
    digest_bytes(&d, g->nmoves, 2);
    digest_bytes(&d, g->pile_len, 1);
    /* The base game's digest has no kind count: its 24 kinds are fixed. */
    int kinds = LAYOUT_WIDE ? CARC_ALL_KINDS : CARC_BASE_KINDS;
    if (LAYOUT_WIDE)
        digest_bytes(&d, (uint64_t)kinds, 1);
    for (int k = 0; k < kinds && k < LAYOUT_KINDS; k++)
        digest_bytes(&d, (uint64_t)source_unseen(g, k), 1);
    for (int p = 0; p < g->nplayers; p++) {
        digest_bytes(&d, (uint32_t)g->score[p], 4);
        digest_bytes(&d, g->supply[p], 1);
        /* Games with followers alone keep their digest of before. */
        if (figures_extra_in_game(&g->rules))
            for (int f = CARC_FIGURE_FOLLOWER + 1; f < CARC_FIGURES; f++)
                digest_bytes(&d, (uint64_t)figures_left(g, p, f), 1);
        caps_digest_player(&d, g, p);
    }
    caps_digest_game(&d, g);
    digest_bytes(&d, g->ntiles, 1);
    for (int t = 0; t < g->ntiles; t++) {
        const board_tile *bt = &g->tiles[t];
        int follower = bt->follower_seg != CARC_NO_SPOT;
        digest_bytes(&d, (uint8_t)bt->x, 1);
        digest_bytes(&d, (uint8_t)bt->y, 1);
        digest_bytes(&d, bt->kind, 1);
        digest_bytes(&d, bt->rot, 1);
        digest_bytes(&d, bt->follower_seg, 1);
        digest_bytes(&d, follower ? bt->follower_owner : 255u, 1);
        if (figures_extra_in_game(&g->rules))
            digest_bytes(&d, follower ? (uint64_t)tile_figure(bt) : 255u, 1);
    }
    return d.h;
}

/* --- Playing ------------------------------------------------------------------ */

/* Counts the tiles around a new cloister, tells the open cloisters around
 * the new tile that one more neighbour is there, and scores those that are
 * now surrounded. */
static void update_cloisters(carc_game *g, int t, event_sink *sink)
{
    const board_tile *bt = &g->tiles[t];
    int cs = carc_cloister_seg[bt->kind];
    if (cs != 255)
        board_count_cloister(g, t, caps_cloister_filled(g, bt->x, bt->y));
    /* The open cloisters next to the tile (the tile's own not among them). */
    int n = g->ncloisters, x = bt->x, y = bt->y;
    unsigned beside = board_cloisters_around(g, x, y);
    /* The tile's own cloister joins the list: checked (a tile placed in a
     * surrounded hole completes it at once) but not counted down. */
    unsigned check = beside;
    if (cs != 255) {
        g->cloister_x[n] = (int8_t)x;
        g->cloister_y[n] = (int8_t)y;
        g->cloister_seg[n] = (seg_id)(bt->seg_base + cs);
        check |= 1u << n;
        g->ncloisters = (uint8_t)++n;
    }
    /* In index order; a completed cloister's place takes the last one,
     * with its bits, and is looked at again. */
    while (check) {
        int i = __builtin_ctz(check);
        seg_node *cl = &g->seg[g->cloister_seg[i]];
        cl->root -= ((beside >> i) & 1u) * ROOT_OPEN_ONE;
        if (seg_open(cl) != 0) {
            check &= check - 1;
            continue;
        }
        score_completed(g, g->cloister_seg[i], sink);
        int last = --n;
        g->ncloisters = (uint8_t)n;
        g->cloister_x[i] = g->cloister_x[last];
        g->cloister_y[i] = g->cloister_y[last];
        g->cloister_seg[i] = g->cloister_seg[last];
        unsigned moved_check = (check >> last) & 1u, moved_touched = (beside >> last) & 1u;
        check &= ~(1u << i) & ~(1u << last);
        beside &= ~(1u << i) & ~(1u << last);
        if (last != i) {
            check |= moved_check << i;
            beside |= moved_touched << i;
        }
    }
}

/* Scores the roads and cities that the new tile `t` completed. */
static void score_roads_and_cities(carc_game *g, int t, event_sink *sink)
{
    const board_tile *bt = &g->tiles[t];
    const carc_tile_def *def = &carc_tile_data[bt->kind];
    int done[CARC_MAX_SEGMENTS_PER_TILE], ndone = 0;
    for (int s = 0; s < def->nsegments; s++) {
        if (def->segments[s].kind != CARC_ROAD && def->segments[s].kind != CARC_CITY)
            continue;
        int root = feature_root(g, bt->seg_base + s);
        if (seg_open(&g->seg[root]) != 0)
            continue;
        int seen = 0;
        for (int i = 0; i < ndone; i++)
            seen |= done[i] == root;
        if (seen)
            continue;
        done[ndone++] = root;
        score_completed(g, root, sink);
    }
}

static void deploy(carc_game *g, int t, int local, int figure)
{
    board_tile *bt = &g->tiles[t];
    bt->follower_seg = (uint8_t)local;
    bt->follower_owner = g->current;
    tile_set_figure(bt, figure);
    g->follower_tiles[t >> 6] |= 1ull << (t & 63);
    g->seg[feature_root(g, bt->seg_base + local)].root += (root_word)figure_strength(figure)
                                                          << (FOLLOWER_BITS * g->current);
    figures_take(g, g->current, figure, t);
}

static void record_move(carc_game *g, const move_fields *m)
{
    history_entry *h = &g->history[g->nmoves++];
    h->tile_kind = (uint8_t)g->drawn;
    h->player = g->current;
    h->move.type = (uint8_t)m->type;
    h->move.place.x = (int8_t)m->x;
    h->move.place.y = (int8_t)m->y;
    h->move.place.rot = (uint8_t)m->rot;
    h->move.segment = (uint8_t)m->segment;
    h->move.figure = (uint8_t)m->figure;
    h->move.place.tile = source_move_tile(g);
}

static void game_over(carc_game *g, event_sink *sink)
{
    g->over = 1;
    score_final(g, sink);
}

/* Plays `m`, which must be legal; a placement goes on frontier square
 * `square`. */
static void play_legal_move(carc_game *g, const move_fields *m, event_sink *sink)
{
    record_move(g, m);
    unsigned turn = TURN_AGAIN; /* a discard: the player draws again */
    if (m->type == CARC_MOVE_DISCARD) {
        source_discard(g);
    } else {
        source_take(g);
        int closed;
        int t = board_place(g, g->drawn, m->x, m->y, m->rot, m->square, &closed);
        closed |= caps_laid(g, t);
        unsigned earned = caps_placed(g, t, m); /* before the new figure */
        if (m->segment != CARC_NO_SPOT)
            deploy(g, t, m->segment, m->figure);
        if (closed)
            score_roads_and_cities(g, t, sink);
        update_cloisters(g, t, sink);
        turn = caps_turn_end(g, m, earned);
    }
    if (!source_next_turn(g, m, turn))
        game_over(g, sink);
}

/* Makes the drawn tile the tile that `m` names (carc_placement.tile). */
static carc_status hold_move_tile(carc_game *g, carc_move m)
{
    return m.place.tile == 0 ? CARC_OK : source_hold(g, m.place.tile - 1);
}

carc_status carc_game_play(carc_game *g, carc_move m, carc_event *events, int cap, int *nevents)
{
    event_sink sink = {events, events ? cap : 0, 0};
    if (nevents)
        *nevents = 0;
    if (g->over) {
        game_set_error(g, "the game is over");
        return CARC_EOVER;
    }
    int held = g->drawn;
    carc_status st = hold_move_tile(g, m);
    if (st == CARC_OK)
        st = moves_check(g, m);
    if (st != CARC_OK) {
        g->drawn = (int8_t)held;
        return st;
    }
    move_fields f = {m.type, m.place.x, m.place.y, m.place.rot, m.segment, -1, m.figure};
    if (m.type == CARC_MOVE_PLACE)
        f.square = board_frontier_at(g, m.place.x, m.place.y);
    play_legal_move(g, &f, &sink);
    if (nevents)
        *nevents = sink.count;
    return CARC_OK;
}

void ai_play_known(carc_game *g, carc_move m)
{
    carc_status held = hold_move_tile(g, m);
    assert(held == CARC_OK && moves_check(g, m) == CARC_OK);
    (void)held;
    move_fields f = {m.type, m.place.x, m.place.y, m.place.rot, m.segment, -1, m.figure};
    if (m.type == CARC_MOVE_PLACE)
        f.square = board_frontier_at(g, m.place.x, m.place.y);
    play_legal_move(g, &f, NULL);
}

carc_status carc_game_play_random(carc_game *g, carc_rng *r, double follower_chance,
                                  carc_move *played)
{
    if (g->over) {
        game_set_error(g, "the game is over");
        return CARC_EOVER;
    }
    source_hold_random(g, r);
    move_fields f;
    moves_random(g, r, follower_chance, &f);
    if (played) {
        *played = move_of(&f);
        played->place.tile = source_move_tile(g);
    }
    play_legal_move(g, &f, NULL);
    return CARC_OK;
}

carc_status carc_game_finish(carc_game *g, carc_event *events, int cap, int *nevents)
{
    event_sink sink = {events, events ? cap : 0, 0};
    if (nevents)
        *nevents = 0;
    if (g->over) {
        game_set_error(g, "the game is over");
        return CARC_EOVER;
    }
    g->over = 1;
    g->ended_early = 1;
    /* The drawn tile was never played: back into the pile, so that what is
     * left after an `end` (and the digest) does not depend on the deal. */
    source_finish(g);
    score_final(g, &sink);
    if (nevents)
        *nevents = sink.count;
    return CARC_OK;
}

/* --- start-in-pile: the record's start tile ------------------------------------ */

carc_status carc_game_set_start(carc_game *g, int kind)
{
    if (source_start_error(g) != CARC_OK)
        return CARC_EILLEGAL;
    if (!carc_tile(kind) || kind >= LAYOUT_KINDS) {
        game_set_error(g, "no tile kind %d", kind);
        return CARC_EINVAL;
    }
    if (source_start_too_late(g) != CARC_OK)
        return CARC_EILLEGAL;
    int old = g->tiles[0].kind;
    if (old == kind)
        return CARC_OK;
    if (!source_swap_start(g, old, kind)) {
        game_set_error(g, "no tile %s is left in the supply", carc_tile_id(kind));
        return CARC_EILLEGAL;
    }
    board_clear(g, 0);
    place_start(g, kind);
    return CARC_OK;
}

/* --- Scores ---------------------------------------------------------------------- */

static int valid_player(const carc_game *g, int p)
{
    return p >= 0 && p < g->nplayers;
}

int carc_game_score(const carc_game *g, int player)
{
    return valid_player(g, player) ? g->score[player] : 0;
}

int carc_game_score_of(const carc_game *g, int player, carc_kind kind)
{
    if (!valid_player(g, player) || (unsigned)kind > CARC_CLOISTER)
        return 0;
    return g->score_by_kind[player][kind];
}

int carc_game_supply(const carc_game *g, int player)
{
    return valid_player(g, player) ? g->supply[player] : 0;
}

int carc_game_figures(const carc_game *g, int player, int figure)
{
    if (!valid_player(g, player) || figure < 0 || figure >= CARC_FIGURES)
        return 0;
    return figures_left(g, player, figure);
}

unsigned carc_game_leaders(const carc_game *g)
{
    unsigned mask = 0;
    int best = 0;
    for (int p = 0; p < g->nplayers; p++) {
        if (mask == 0 || g->score[p] > best) {
            best = g->score[p];
            mask = 1u << p;
        } else if (g->score[p] == best) {
            mask |= 1u << p;
        }
    }
    return mask;
}

/* --- History ---------------------------------------------------------------- */

int carc_game_move_player(const carc_game *g, int i)
{
    return i >= 0 && i < g->nmoves ? g->history[i].player : -1;
}

int carc_game_move_count(const carc_game *g)
{
    return g->nmoves;
}

carc_status carc_game_move_at(const carc_game *g, int i, carc_move *m, int *tile_kind)
{
    if (i < 0 || i >= g->nmoves)
        return CARC_EINVAL;
    if (m)
        *m = g->history[i].move;
    if (tile_kind)
        *tile_kind = g->history[i].tile_kind;
    return CARC_OK;
}
