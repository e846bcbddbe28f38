/* replica_hand.c: a replica of a hand game (replica_hand.h). The server
 * shows this connection its own draws and hides the others'; the library
 * draws every hand itself and lets a reader name each draw afterwards
 * (carc_game_draw). So the replica keeps the history it was shown and,
 * after each event, replays it into a new game, naming each hidden draw
 * by a search: depth first over the history, each hidden draw tried with
 * the tiles its seat's later moves need (the first needed first), then,
 * when the seat holds tiles to the end, any tile the pile can spare. What
 * the history says prunes it: the tiles of each kind the pile must still
 * give (draws shown to us, needs, discards sent back), the hidden draws a
 * seat must have had before each move, and with reshuffle the turns that
 * passed a seat over (its hand then held no tile that fitted). The
 * hidden tiles are a guess, but one the whole history agrees with,
 * checked by the server's digest (which covers the hands' sizes and the
 * tiles nobody has seen, not who holds them). */
#include "replica_hand.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tile_info.h"

static replica_step *new_step(replica *r, char *err, size_t errcap)
{
    if (r->nsteps == r->capsteps) {
        int cap = r->capsteps ? 2 * r->capsteps : 128;
        replica_step *grown = realloc(r->steps, sizeof *grown * (size_t)cap);
        if (!grown) {
            replica_fail(err, errcap, "out of memory");
            return NULL;
        }
        r->steps = grown;
        r->capsteps = cap;
    }
    replica_step *s = &r->steps[r->nsteps++];
    memset(s, 0, sizeof *s);
    return s;
}

int replica_hand_add_draws(replica *r, const json_t *draws, char *err, size_t errcap)
{
    if (!draws || json_is_null(draws))
        return 0;
    if (!json_is_array(draws))
        return replica_fail(err, errcap, "'draws' is not a list");
    size_t i;
    const json_t *d;
    json_array_foreach(draws, i, d)
    {
        const json_t *player = json_object_get(d, "player");
        const json_t *tile = json_object_get(d, "tile");
        int p = json_is_integer(player) ? (int)json_integer_value(player) : -1;
        int kind = json_is_string(tile) ? carc_tile_parse(json_string_value(tile)) : -1;
        if (p < 0 || p >= r->players || (!json_is_null(tile) && kind < 0))
            return replica_fail(err, errcap, "a bad draw after turn %d", r->turn);
        replica_step *s = new_step(r, err, errcap);
        if (!s)
            return -1;
        s->is_draw = 1;
        s->player = p;
        s->kind = kind;
        s->guess = -1;
        r->end_fits_known = 0; /* the pile after the history has changed */
    }
    return 0;
}

int replica_hand_add_move(replica *r, int player, const char *move, char *err, size_t errcap)
{
    if (!move || strlen(move) >= REPLICA_MOVE_TEXT)
        return replica_fail(err, errcap, "a bad move '%.40s' at turn %d", move ? move : "?",
                            r->turn);
    replica_step *s = new_step(r, err, errcap);
    if (!s)
        return -1;
    s->player = player;
    s->kind = -1;
    s->guess = -1;
    s->back = -1;
    r->end_fits_known = 0;
    snprintf(s->move, sizeof s->move, "%s", move);
    return 0;
}

/* --- The search for hidden tiles the whole history agrees with ------------------ */

/* The seed the replica's game deals from: any will do, since every draw
 * is named. */
#define REPLICA_DEAL_SEED 1u

/* Tiles tried for hidden draws before the history is given up: each is a
 * copy of the game and the steps up to the next hidden draw, a few
 * microseconds. A history the sticky first guess follows takes one a
 * hidden draw. The first search may try SEARCH_FIRST, each search started
 * again SEARCH_AGAIN (see replica_hand_rebuild). */
enum { SEARCH_BUDGET = 200000, SEARCH_FIRST = 40000, SEARCH_AGAIN = 4000 };

/* What the history from step `at` on asks of the pile and of each hand
 * (see draw_candidates). */
typedef struct demand {
    /* Per seat: its hidden draws before each of its later moves less the
     * needs until then, the least over those moves; < 0: the history
     * cannot be followed, >= 1: a hidden draw is free of needs. */
    int slack[CARC_MAX_PLAYERS];
    int need[CARC_MAX_PLAYERS][CARC_MAX_KINDS];
    int first_need[CARC_MAX_PLAYERS][CARC_MAX_KINDS]; /* the kinds needed, first needed first */
    int nfirst[CARC_MAX_PLAYERS];
    int supply[CARC_MAX_KINDS]; /* the pile's tiles, with the ones dealt for unnamed draws */
    int spare[CARC_MAX_KINDS];  /* the fewest the pile holds from here on (see pile_timeline) */
    int at_end[CARC_MAX_KINDS]; /* what it holds after the history */
    int nneeds;                 /* the needs in the search's scratch, by step */
    /* Per seat, bit k of [k / 64]: a tile of kind k the seat holds now or
     * is shown to draw later (filled before the needs are counted). */
    uint64_t holds[CARC_MAX_PLAYERS][2];
} demand;

/* A change to the pile at a step of the history: a draw takes a tile
 * (-1), a discard with reshuffle puts one back (+1). */
typedef struct pile_event {
    int step, kind, delta;
} pile_event;

/* A need: seat q's move at `step` plays a `kind` that a hidden draw of q
 * before it must have given. */
typedef struct need_entry {
    int q, kind, step;
} need_entry;

/* Scratch space of a search, as long as the history. */
typedef struct scratch {
    pile_event *events;
    need_entry *needs;
    int *hidden_steps[CARC_MAX_PLAYERS];
} scratch;

static int by_step(const void *a, const void *b)
{
    const pile_event *x = a, *y = b;
    return (x->step > y->step) - (x->step < y->step);
}

/* Follows the pile's count of each kind through the rest of the history:
 * the draws shown to us take theirs when they happen, the discards of
 * reshuffle put theirs back, and each need takes its tile at the latest
 * hidden draw of its seat before the move that plays it (the latest a
 * tile of that kind can leave the pile; other kinds' needs are left out
 * of that choice, so that this only ever says no when no guess can say
 * yes). spare[k]: the fewest tiles of kind k the pile holds on the way,
 * negative when the history asks more of the pile than it can give. */
static void pile_timeline(const replica *r, scratch *sc, int nevents, const int nhidden[],
                          int nneeds, demand *dm)
{
    int limit[CARC_MAX_PLAYERS][CARC_MAX_KINDS];
    for (int q = 0; q < r->players; q++)
        for (int k = 0; k < CARC_MAX_KINDS; k++)
            limit[q][k] = nhidden[q];
    for (int i = nneeds - 1; i >= 0; i--) { /* the latest move first */
        const need_entry *n = &sc->needs[i];
        int j = limit[n->q][n->kind] - 1;
        while (j >= 0 && sc->hidden_steps[n->q][j] >= n->step)
            j--;
        limit[n->q][n->kind] = j < 0 ? 0 : j;
        /* No draw left: slack says so; the tile leaves the pile now. */
        int step = j < 0 ? -1 : sc->hidden_steps[n->q][j];
        sc->events[nevents++] = (pile_event){step, n->kind, -1};
    }
    qsort(sc->events, (size_t)nevents, sizeof *sc->events, by_step);
    int count[CARC_MAX_KINDS];
    memcpy(count, dm->supply, sizeof count);
    memcpy(dm->spare, dm->supply, sizeof count);
    for (int i = 0; i < nevents; i++) {
        int k = sc->events[i].kind;
        count[k] += sc->events[i].delta;
        if (count[k] < dm->spare[k])
            dm->spare[k] = count[k];
    }
    memcpy(dm->at_end, count, sizeof count);
}

static void count_demand(const replica *r, scratch *sc, int at, demand *dm)
{
    memset(dm, 0, sizeof *dm);
    int avail[CARC_MAX_PLAYERS][CARC_MAX_KINDS] = {{0}};
    carc_game_tiles_left(r->g, dm->supply);
    for (int q = 0; q < r->players; q++) {
        int held[CARC_MAX_HAND], n = carc_game_hand(r->g, q, held, CARC_MAX_HAND);
        for (int i = 0; i < n && i < CARC_MAX_HAND; i++)
            avail[q][held[i]]++;
    }
    /* A hand already holds the library's own tiles for the draws not yet
     * named: those go back to the pile when the draw is named. */
    int draws = carc_game_draw_count(r->g);
    for (int d = draws - carc_game_draw_due(r->g, NULL); d < draws; d++) {
        int who = -1, kind = -1;
        if (carc_game_draw_at(r->g, d, &who, &kind, NULL) != CARC_OK || who < 0 || kind < 0)
            continue;
        dm->supply[kind]++;
        if (avail[who][kind] > 0)
            avail[who][kind]--;
    }
    int reshuffle = (r->rules.flags & CARC_RULE_RESHUFFLE) != 0;
    int hidden[CARC_MAX_PLAYERS] = {0}, needs[CARC_MAX_PLAYERS] = {0}, nevents = 0, nneeds = 0;
    for (int i = at; i < r->nsteps; i++) {
        const replica_step *t = &r->steps[i];
        if (t->is_draw && t->kind >= 0) {
            avail[t->player][t->kind]++;
            sc->events[nevents++] = (pile_event){i, t->kind, -1};
        }
    }
    for (int q = 0; q < r->players; q++) {
        dm->slack[q] = INT32_MAX;
        for (int k = 0; k < CARC_MAX_KINDS; k++)
            if (avail[q][k] > 0)
                dm->holds[q][k / 64] |= 1ull << (k % 64);
    }
    for (int i = at; i < r->nsteps; i++) {
        const replica_step *t = &r->steps[i];
        if (t->is_draw) {
            if (t->kind < 0)
                sc->hidden_steps[t->player][hidden[t->player]++] = i;
            continue;
        }
        int q = t->player, k = replica_move_tile(t->move);
        if (k < 0 || q < 0 || q >= r->players)
            continue;
        if (reshuffle && t->back != 0 && strncmp(t->move, "discard ", 8) == 0)
            sc->events[nevents++] = (pile_event){i, k, +1}; /* unknown yet: it may */
        if (avail[q][k] > 0) {
            avail[q][k]--;
            continue;
        }
        /* A need is met by a hidden draw before the move. */
        needs[q]++;
        if (hidden[q] - needs[q] < dm->slack[q])
            dm->slack[q] = hidden[q] - needs[q];
        sc->needs[nneeds++] = (need_entry){q, k, i};
        if (!dm->need[q][k]++)
            dm->first_need[q][dm->nfirst[q]++] = k;
    }
    dm->nneeds = nneeds;
    pile_timeline(r, sc, nevents, hidden, nneeds, dm);
}

/* The kinds that fit somewhere on `g`'s board: bit k of mask[k / 64]. */
static void kinds_fitting(const carc_game *g, uint64_t mask[2])
{
    mask[0] = mask[1] = 0;
    for (int k = 0; k < carc_tile_kinds() && k < CARC_MAX_KINDS; k++)
        if (carc_game_kind_fits(g, k))
            mask[k / 64] |= 1ull << (k % 64);
}

static int has_kind(const uint64_t mask[2], int k)
{
    return (int)((mask[k / 64] >> (k % 64)) & 1u);
}

/* Whether player p was passed over between a move of `prev` (`discard`:
 * a discard, after which its player would move again) and the next move,
 * of `mover`: it comes after the first player asked, before `mover`.
 * After a placement the first asked is the next player (or, after a
 * bonus turn, `prev` itself: so `prev` is never counted skipped then,
 * which only ever says less). */
static int passed_over(int players, int p, int prev, int discard, int mover)
{
    if (prev < 0 || mover < 0 || mover == prev)
        return 0;
    int start = discard ? prev : (prev + 1) % players;
    return (p - start + players) % players < (mover - start + players) % players;
}

/* The player of the last move before step `at` and whether it was a
 * discard; -1 and 0 when there is none. */
static void last_move_before(const replica *r, int at, int *prev, int *discard)
{
    *prev = -1;
    *discard = 0;
    for (int i = at - 1; i >= 0 && *prev < 0; i--)
        if (!r->steps[i].is_draw) {
            *prev = r->steps[i].player;
            *discard = strncmp(r->steps[i].move, "discard ", 8) == 0;
        }
}

/* A turn of the history: before move `t`, or after the last step when
 * `t` is NULL. Sets who moves then (-1: unknown) and whether the pile was
 * empty; returns the kinds that fitted then, NULL while no rebuild has
 * reached that board. */
static const uint64_t *turn_facts(const replica *r, const replica_step *t, int *mover, int *empty)
{
    *mover = t ? t->player : r->next_player;
    *empty = t ? t->pile_left == 0 : r->end_pile_left == 0;
    return t ? (t->fits_known ? t->fits : NULL) : (r->end_fits_known ? r->end_fits : NULL);
}

/* What the turns that passed players over say of a tile of kind k that
 * player p draws at step `at`, with reshuffle, where a player is passed
 * over only when no tile of its hand fits and none of the pile does:
 * forbid[k], it would still be in p's hand at a turn that passed p over
 * while k fitted somewhere, so no such guess can be right; prefer[k], it
 * would be in p's hand at a turn p moved while the pile held no tile that
 * fitted (it was empty, or the turn passed another player over) and k
 * fitted: p's hand held such a tile then. A tile held until the first move of p that needs its kind
 * (the earliest p can play it) is checked up to that move; one never
 * played, to the end of the history. Turns whose board no rebuild has
 * reached yet say nothing. */
static void passed_over_fits(const replica *r, const scratch *sc, int nneeds, int at, int p,
                             unsigned char forbid[CARC_MAX_KINDS],
                             unsigned char prefer[CARC_MAX_KINDS])
{
    memset(forbid, 0, CARC_MAX_KINDS);
    memset(prefer, 0, CARC_MAX_KINDS);
    if (!(r->rules.flags & CARC_RULE_RESHUFFLE))
        return;
    uint64_t seen[2] = {0, 0}, others[2] = {0, 0};
    unsigned char decided[CARC_MAX_KINDS] = {0};
    int prev, discard, ni = 0;
    last_move_before(r, at, &prev, &discard);
    for (int i = at + 1; i <= r->nsteps; i++) {
        const replica_step *t = i < r->nsteps ? &r->steps[i] : NULL;
        if (t && t->is_draw)
            continue;
        int mover, empty;
        const uint64_t *fits = turn_facts(r, t, &mover, &empty);
        int over_p = passed_over(r->players, p, prev, discard, mover), none_fits = empty;
        for (int q = 0; q < r->players && !over_p; q++)
            none_fits |= q != p && passed_over(r->players, q, prev, discard, mover);
        for (int w = 0; fits && w < 2; w++) {
            seen[w] |= over_p ? fits[w] : 0;
            others[w] |= none_fits && mover == p ? fits[w] : 0;
        }
        for (; ni < nneeds && sc->needs[ni].step <= i; ni++) {
            const need_entry *n = &sc->needs[ni];
            if (n->q == p && n->step == i && !decided[n->kind]) {
                decided[n->kind] = 1;
                forbid[n->kind] = (unsigned char)has_kind(seen, n->kind);
                prefer[n->kind] = (unsigned char)has_kind(others, n->kind);
            }
        }
        if (t) {
            prev = t->player;
            discard = strncmp(t->move, "discard ", 8) == 0;
        }
    }
    for (int k = 0; k < CARC_MAX_KINDS; k++)
        if (!decided[k]) {
            forbid[k] = (unsigned char)has_kind(seen, k);
            prefer[k] = (unsigned char)has_kind(others, k);
        }
}

/* Whether every turn after step `at` whose player moved while the pile
 * held no tile that fitted (it was empty, or the turn passed a player
 * over) can have found a tile that fits in that player's hand: one of a
 * kind it holds now, is shown to draw, plays later, or of which the pile
 * still has a tile after the history (a tile drawn and kept takes one
 * from then on) (with reshuffle; only turns whose board a rebuild has
 * reached).
 * A guess that gave the last such tile to another seat fails here at
 * once, not when the history gets there. */
static int movers_can_hold(const replica *r, int at, const demand *dm)
{
    if (!(r->rules.flags & CARC_RULE_RESHUFFLE))
        return 1;
    uint64_t spare[2] = {0, 0};
    for (int k = 0; k < carc_tile_kinds() && k < CARC_MAX_KINDS; k++)
        if (dm->at_end[k] >= 1)
            spare[k / 64] |= 1ull << (k % 64);
    int prev, discard;
    last_move_before(r, at, &prev, &discard);
    for (int i = at + 1; i <= r->nsteps; i++) {
        const replica_step *t = i < r->nsteps ? &r->steps[i] : NULL;
        if (t && t->is_draw)
            continue;
        int mover, none_fits;
        const uint64_t *fits = turn_facts(r, t, &mover, &none_fits);
        for (int q = 0; q < r->players; q++)
            none_fits |= passed_over(r->players, q, prev, discard, mover);
        if (fits && none_fits && mover >= 0) {
            uint64_t need[2] = {0, 0};
            for (int k = 0; k < carc_tile_kinds() && k < CARC_MAX_KINDS; k++)
                if (dm->need[mover][k])
                    need[k / 64] |= 1ull << (k % 64);
            int any = 0;
            for (int w = 0; w < 2; w++)
                any |= (fits[w] & (dm->holds[mover][w] | need[w] | spare[w])) != 0;
            if (!any)
                return 0;
        }
        if (t) {
            prev = t->player;
            discard = strncmp(t->move, "discard ", 8) == 0;
        }
    }
    return 1;
}

/* Orders `n` kinds: the most plentiful in the pile (`supply`) first, or at
 * random with `shuffle` (a search started again). */
static void order_kinds(int *kinds, int n, const int supply[CARC_MAX_KINDS], carc_rng *shuffle)
{
    for (int i = n - 1; shuffle && i > 0; i--) {
        int j = (int)carc_rng_below(shuffle, (uint32_t)(i + 1)), t = kinds[i];
        kinds[i] = kinds[j];
        kinds[j] = t;
    }
    for (int i = 1; !shuffle && i < n; i++) /* insertion sort: a few dozen kinds */
        for (int j = i; j > 0 && supply[kinds[j]] > supply[kinds[j - 1]]; j--) {
            int t = kinds[j];
            kinds[j] = kinds[j - 1];
            kinds[j - 1] = t;
        }
}

/* The tiles the hidden draw at step `at` may be named, in the order to
 * try. Each later move of its player p takes a tile p holds: one p holds
 * now, one a later draw shown to us gives, or one of p's hidden draws; the
 * tiles of those moves no held or shown tile accounts for are p's needs,
 * tried first needed first (the earliest deadline first, which keeps the
 * hand able to make every move). When p has a hidden draw to spare before
 * each of its moves, this one may be a tile still held at the end of the
 * history: then any tile the pile can spare will do, the most plentiful
 * first. The last rebuild's tile for this draw goes first of all. None at
 * all (returns -1) when the history asks more of the pile or of a hand
 * than it can give: a guess made earlier was wrong. */
static int draw_candidates(const replica *r, scratch *sc, int at, carc_rng *shuffle,
                           int out[CARC_MAX_KINDS])
{
    const replica_step *s = &r->steps[at];
    int p = s->player, kinds = carc_tile_kinds();
    demand dm;
    count_demand(r, sc, at, &dm);
    for (int q = 0; q < r->players; q++)
        if (dm.slack[q] < 0)
            return -1;
    for (int k = 0; k < kinds; k++)
        if (dm.spare[k] < 0)
            return -1;
    if (!movers_can_hold(r, at, &dm))
        return -1;
    unsigned char forbid[CARC_MAX_KINDS], prefer[CARC_MAX_KINDS];
    passed_over_fits(r, sc, dm.nneeds, at, p, forbid, prefer);
    int n = 0, last = shuffle ? -1 : s->guess, any = dm.slack[p] >= 1;
    if (last >= 0 && last < kinds && !forbid[last] &&
        (dm.need[p][last] || (any && dm.spare[last] >= 1)))
        out[n++] = last;
    for (int i = 0; i < dm.nfirst[p]; i++)
        if (dm.first_need[p][i] != last && !forbid[dm.first_need[p][i]])
            out[n++] = dm.first_need[p][i];
    if (!any)
        return n;
    /* Tiles the hands must have held first, then the others. */
    for (int pass = 1; pass >= 0; pass--) {
        int start = n;
        for (int k = 0; k < kinds; k++)
            if (k != last && !dm.need[p][k] && !forbid[k] && prefer[k] == pass && dm.spare[k] >= 1)
                out[n++] = k;
        order_kinds(out + start, n - start, dm.supply, shuffle);
    }
    return n;
}

enum { SEARCH_FAIL = -1, SEARCH_GIVE_UP = -2 };

typedef struct search {
    replica *r;
    scratch sc;
    int *snap_turn;
    long tried, limit;
    int random; /* tiles held to the end in a random order, no sticky guess */
    carc_rng rng;
    int furthest;  /* the furthest step a guess reached, for the error */
    char why[200]; /* why the guess that went furthest stopped there */
} search;

/* Notes why a guess stopped at `step`, when it went furthest so far. */
static void search_failed(search *sr, int step, const char *why)
{
    if (step >= sr->furthest) {
        sr->furthest = step;
        snprintf(sr->why, sizeof sr->why, "%s", why);
    }
}

/* Starts r->g over from the history's beginning. */
static int new_game(replica *r, char *err, size_t errcap)
{
    carc_game_free(r->g);
    r->g = carc_game_new(r->players, &r->rules, REPLICA_DEAL_SEED);
    r->turn = 0;
    if (!r->g)
        return replica_fail(err, errcap, "cannot make the game (out of memory?)");
    if (r->start_kind >= 0 && carc_game_set_start(r->g, r->start_kind) != CARC_OK)
        return replica_fail(err, errcap, "start tile %s: %s", carc_tile_id(r->start_kind),
                            carc_game_error(r->g));
    return 0;
}

/* Applies step `i` of the history to r->g: a move, or a draw shown to us.
 * Returns 0, or -1 with `why`. */
static int apply_step(replica *r, int i, char *why, size_t whycap)
{
    const replica_step *s = &r->steps[i];
    if (s->is_draw) {
        int due = -1;
        if (carc_game_draw_due(r->g, &due) == 0 || due != s->player)
            return replica_fail(why, whycap,
                                "the server's draw for player %d after turn %d is not one the "
                                "rules make",
                                s->player + 1, r->turn);
        if (carc_game_draw(r->g, s->player, s->kind) != CARC_OK)
            return replica_fail(why, whycap, "player %d's draw after turn %d: %s", s->player + 1,
                                r->turn, carc_game_error(r->g));
        return 0;
    }
    if (!carc_game_over(r->g) && strcmp(s->move, "end") != 0 &&
        carc_game_current_player(r->g) != s->player)
        return replica_fail(why, whycap, "turn %d is player %d's, not player %d's", r->turn,
                            carc_game_current_player(r->g) + 1, s->player + 1);
    if (!r->steps[i].fits_known) {
        kinds_fitting(r->g, r->steps[i].fits);
        r->steps[i].pile_left = carc_game_tiles_left(r->g, NULL);
        r->steps[i].fits_known = 1;
    }
    tile_pile_mark before = tile_info_pile_mark(r->g);
    if (replica_play_move(r, s->move, why, whycap) != 0)
        return -1;
    /* Whether a discard's tile went back depends on public counts only
     * (the pile's and the hands' sizes, the moves and draws made), so
     * any guess that gets here tells it for every later one. */
    if (strncmp(s->move, "discard ", 8) == 0)
        r->steps[i].back = tile_info_went_back(r->g, before);
    return 0;
}

/* Whether the replayed game's digest is the event's (none: nothing to
 * check). */
static int digest_agrees(const replica *r, const json_t *event)
{
    const char *digest = json_string_value(json_object_get(event, "digest"));
    char ours[17];
    snprintf(ours, sizeof ours, "%016" PRIx64, carc_game_digest(r->g));
    return !digest || strcmp(digest, ours) == 0;
}

/* The game before the hidden draw at `depth`, kept to try another tile
 * (r->snaps has room for every hidden draw: see replica_hand_rebuild). */
static int snapshot(search *sr, int depth)
{
    replica *r = sr->r;
    if (depth == r->nsnaps) {
        carc_game *copy = carc_game_clone(r->g);
        if (!copy)
            return -1;
        r->snaps[r->nsnaps++] = copy;
    } else if (carc_game_copy(r->snaps[depth], r->g) != CARC_OK)
        return -1;
    sr->snap_turn[depth] = r->turn;
    return 0;
}

/* Follows the history from step `step` (r->g is the game before it),
 * naming each hidden draw by trying its candidates in turn, depth first,
 * until the whole history plays and ends with the event's digest. */
static int search_from(search *sr, int step, int depth, const json_t *event)
{
    replica *r = sr->r;
    char why[200];
    for (; step < r->nsteps; step++) {
        const replica_step *s = &r->steps[step];
        if (s->is_draw && s->kind < 0)
            break;
        if (apply_step(r, step, why, sizeof why) != 0) {
            search_failed(sr, step, why);
            return SEARCH_FAIL;
        }
    }
    if (step == r->nsteps) {
        if (!r->end_fits_known) {
            kinds_fitting(r->g, r->end_fits);
            r->end_pile_left = carc_game_tiles_left(r->g, NULL);
            r->end_fits_known = 1;
        }
        if (digest_agrees(r, event))
            return 0;
        snprintf(why, sizeof why, "the server's digest is %s (turn %d)",
                 json_string_value(json_object_get(event, "digest")), r->turn);
        search_failed(sr, step, why);
        return SEARCH_FAIL;
    }
    const replica_step *s = &r->steps[step];
    int due = -1;
    if (carc_game_draw_due(r->g, &due) == 0 || due != s->player) {
        snprintf(why, sizeof why,
                 "the server's draw for player %d after turn %d is not one the rules make",
                 s->player + 1, r->turn);
        search_failed(sr, step, why);
        return SEARCH_FAIL;
    }
    int cand[CARC_MAX_KINDS],
        n = draw_candidates(r, &sr->sc, step, sr->random ? &sr->rng : NULL, cand);
    if (n < 0) {
        snprintf(why, sizeof why, "player %d plays tiles no draw gave them (turn %d)",
                 s->player + 1, r->turn);
        search_failed(sr, step, why);
        return SEARCH_FAIL;
    }
    if (snapshot(sr, depth) != 0)
        return SEARCH_GIVE_UP;
    for (int i = 0; i < n; i++) {
        if (++sr->tried > sr->limit)
            return SEARCH_GIVE_UP;
        if (i > 0) {
            carc_game_copy(r->g, r->snaps[depth]);
            r->turn = sr->snap_turn[depth];
        }
        if (carc_game_draw(r->g, s->player, cand[i]) != CARC_OK)
            continue;
        int found = search_from(sr, step + 1, depth + 1, event);
        if (found != SEARCH_FAIL)
            return found;
    }
    return SEARCH_FAIL;
}

/* Notes how the rebuild named each hidden draw, the first tile to try
 * for it next time. */
static void keep_guesses(replica *r)
{
    int d = 0;
    for (int i = 0; i < r->nsteps; i++) {
        replica_step *s = &r->steps[i];
        if (!s->is_draw)
            continue;
        int kind = -1;
        if (carc_game_draw_at(r->g, d++, NULL, &kind, NULL) == CARC_OK && s->kind < 0)
            s->guess = kind;
    }
}

int replica_hand_rebuild(replica *r, const json_t *event, char *err, size_t errcap)
{
    int hidden = 1;
    for (int i = 0; i < r->nsteps; i++)
        hidden += r->steps[i].is_draw && r->steps[i].kind < 0;
    search sr = {.r = r, .furthest = -1};
    /* Who moves after the history: a move event's `next`, a state's
     * `to_move` (none: the game is over, or nothing said). */
    const json_t *next = json_object_get(json_object_get(event, "next"), "player");
    if (!next)
        next = json_object_get(event, "to_move");
    r->next_player = json_is_integer(next) && json_integer_value(next) >= 0 &&
                             json_integer_value(next) < r->players
                         ? (int)json_integer_value(next)
                         : -1;
    size_t steps = (size_t)r->nsteps + 1;
    /* Room for a copy of the game at each hidden draw (its games kept). */
    int room = hidden > r->nsnaps ? hidden : r->nsnaps;
    carc_game **snaps = realloc(r->snaps, (size_t)room * sizeof(carc_game *));
    if (snaps)
        r->snaps = snaps;
    sr.snap_turn = calloc((size_t)hidden, sizeof *sr.snap_turn);
    sr.sc.events = calloc(2 * steps, sizeof *sr.sc.events);
    sr.sc.needs = calloc(steps, sizeof *sr.sc.needs);
    int status = -1, ok = snaps && sr.snap_turn && sr.sc.events && sr.sc.needs;
    for (int q = 0; q < r->players; q++)
        ok = ok && (sr.sc.hidden_steps[q] = calloc(steps, sizeof(int))) != NULL;
    if (!ok)
        replica_fail(err, errcap, "out of memory");
    else {
        /* The first search keeps the last rebuild's guesses and tries the
         * most plentiful tiles first for those held to the end; it can
         * spend its tries deep in the history while a tile drawn early
         * was wrong (held by a seat that must, or must not, have had a
         * tile that fits, when the pile had none). So it starts again,
         * each time with those tiles in another random order, within the
         * budget; a search that ends without its budget spent has tried
         * every guess the history allows. */
        int found = SEARCH_GIVE_UP;
        for (int attempt = 0; found == SEARCH_GIVE_UP && sr.tried < SEARCH_BUDGET; attempt++) {
            sr.random = attempt > 0;
            sr.rng = carc_rng_seed((uint64_t)attempt);
            sr.limit = sr.tried + (attempt == 0 ? SEARCH_FIRST : SEARCH_AGAIN);
            if (sr.limit > SEARCH_BUDGET)
                sr.limit = SEARCH_BUDGET;
            if (new_game(r, sr.why, sizeof sr.why) != 0) {
                found = SEARCH_FAIL;
                break;
            }
            found = search_from(&sr, 0, 0, event);
        }
        if (found == 0) {
            status = 0;
            keep_guesses(r);
        } else if (found == SEARCH_GIVE_UP)
            replica_fail(err, errcap,
                         "no guess at the hidden tiles follows the game after %ld "
                         "tries (the furthest: %s)",
                         sr.tried, sr.why);
        else
            replica_fail(err, errcap, "%s", sr.why);
    }
    free(sr.snap_turn);
    free(sr.sc.events);
    free(sr.sc.needs);
    for (int q = 0; q < r->players; q++)
        free(sr.sc.hidden_steps[q]);
    return status;
}

int replica_hand(const replica *r, int seat, int kinds[CARC_MAX_HAND])
{
    if (!r->g || !r->rules.hand)
        return 0;
    int n = carc_game_hand(r->g, seat, kinds, CARC_MAX_HAND);
    return n > CARC_MAX_HAND ? CARC_MAX_HAND : n;
}

/* Whether the JSON list of tile ids `tiles` holds the same tiles as
 * `kinds` (as multisets: the order is the server's to choose). */
static int same_tiles(const json_t *tiles, const int *kinds, int n)
{
    if (!json_is_array(tiles) || (int)json_array_size(tiles) != n)
        return 0;
    int count[CARC_MAX_KINDS] = {0};
    for (int i = 0; i < n; i++)
        count[kinds[i]]++;
    size_t i;
    const json_t *t;
    json_array_foreach(tiles, i, t)
    {
        int k = json_is_string(t) ? carc_tile_parse(json_string_value(t)) : -1;
        if (k < 0 || --count[k] < 0)
            return 0;
    }
    return 1;
}

int replica_hand_check(const replica *r, const json_t *msg, char *err, size_t errcap)
{
    const json_t *hands = json_object_get(msg, "hands");
    for (int p = 0; json_is_array(hands) && p < r->players; p++) {
        const json_t *h = json_array_get(hands, (size_t)p);
        const json_t *count = json_object_get(h, "count");
        int kinds[CARC_MAX_HAND], n = replica_hand(r, p, kinds);
        if (json_is_integer(count) && json_integer_value(count) != n)
            return replica_fail(err, errcap,
                                "the server says player %d holds %d tiles, the replica %d "
                                "(turn %d)",
                                p + 1, (int)json_integer_value(count), n, r->turn);
        const json_t *tiles = json_object_get(h, "tiles");
        if (json_is_array(tiles) && !same_tiles(tiles, kinds, n))
            return replica_fail(err, errcap, "player %d's hand is not the server's (turn %d)",
                                p + 1, r->turn);
    }
    return 0;
}
