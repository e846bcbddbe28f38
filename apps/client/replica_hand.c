/* replica_hand.c: a replica of a hand game (replica_hand.h). The server
 * shows this connection its own draws and hides the others'; the library
 * draws every hand itself and lets a reader name each draw afterwards
 * (carc_game_draw). So the replica keeps the history it was shown and,
 * after each event, replays it into a new game: its own draws named as
 * shown, and each hidden draw named as the tile its seat later played out
 * of it, or, for a tile still held, as a tile that no later known draw
 * needs. The hidden tiles are then a guess, but one the whole history
 * agrees with; the digest covers only the hands' sizes and the tiles
 * nobody has seen, so it still checks the replica against the server. */
#include "replica_hand.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tile_info.h"

/* Which free tiles a hidden hand is guessed to hold (see name_free_draw),
 * and which hidden draw gave a tile a seat played (see assign_played). */
enum { PREFER_ANY, PREFER_FITTING, PREFER_UNFITTING };
enum { SLOT_STICKY, SLOT_OLDEST, SLOT_NEWEST, SLOT_RANDOM, SLOT_STICKY_RANDOM };
/* Guesses made before the history is given up: the last rebuild's tiles
 * (a tile another seat played now taken from a draw that held it, else its
 * newest), a handful of deliberate ones, then random ones (each rebuild
 * costs well under a millisecond). */
enum { REBUILD_TRIES = 64 };

/* One guess at the hidden tiles. */
typedef struct guess {
    int *assigned; /* per step: the kind a hidden draw is named as; -1: free */
    int slot_rule;
    int prefer;
    int random_order; /* free tiles: kinds tried from a random one on */
    int candidate;    /* sticky: the tile tried first for the first hidden draw the
                         last rebuild did not name or whose tile a draw shown
                         since needs; -1: none */
    int candidate_tried;
    int net_of_returns; /* see later_demand */
    /* Draws shown to us that a guess could not name (no tile of the kind
     * was left): later guesses keep that kind out of the hidden draws
     * before it where they can (see avoided). */
    int use_avoid, navoid;
    struct {
        int kind, step;
    } avoid[16];
    unsigned char fits[CARC_MAX_KINDS]; /* kinds that fit where the last guess failed */
    carc_rng rng;
} guess;

/* The seed the replica's game deals from: any will do, since every draw
 * is named. */
#define REPLICA_DEAL_SEED 1u

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
    snprintf(s->move, sizeof s->move, "%s", move);
    return 0;
}

/* For each hidden draw, `assigned` gets the kind its seat later played
 * out of it, or -1 while the tile is held: a tile a seat plays that no
 * draw shown to us gave it came out of one of its hidden draws not yet
 * played: the oldest, the newest or one at random, as the guess says.
 * Which it was, nobody can tell; but the public game is the same only
 * when that tile was in the pile at that draw (a tile sent back by
 * reshuffle was not always) and when what the hands held then makes the
 * same players move (reshuffle skips a player who cannot). */
/* Whether a hidden draw at step `from` should not be `kind`: a draw shown
 * to us after it, before step `to`, found no `kind` left in a guess. */
static int avoided(const guess *gs, int kind, int from, int to)
{
    for (int i = 0; gs->use_avoid && i < gs->navoid; i++)
        if (gs->avoid[i].kind == kind && gs->avoid[i].step > from && gs->avoid[i].step < to)
            return 1;
    return 0;
}

/* Notes a draw shown to us that a guess could not name. */
static void note_avoid(guess *gs, int kind, int step)
{
    for (int i = 0; i < gs->navoid; i++)
        if (gs->avoid[i].kind == kind && gs->avoid[i].step == step)
            return;
    if (gs->navoid < (int)(sizeof gs->avoid / sizeof gs->avoid[0])) {
        gs->avoid[gs->navoid].kind = kind;
        gs->avoid[gs->navoid].step = step;
        gs->navoid++;
    }
}

/* Whether the guess keeps the last rebuild's tiles where it can. */
static int is_sticky(const guess *gs)
{
    return gs->slot_rule == SLOT_STICKY || gs->slot_rule == SLOT_STICKY_RANDOM;
}

static int assign_played(const replica *r, guess *gs, char *err, size_t errcap)
{
    int *assigned = gs->assigned;
    static const int none = -1;
    int known[CARC_MAX_PLAYERS][CARC_MAX_KINDS];
    memset(known, 0, sizeof known);
    for (int i = 0; i < r->nsteps; i++)
        assigned[i] = none;
    for (int i = 0; i < r->nsteps; i++) {
        const replica_step *s = &r->steps[i];
        if (s->is_draw) {
            if (s->kind >= 0)
                known[s->player][s->kind]++;
            continue;
        }
        int kind = replica_move_tile(s->move), p = s->player;
        if (kind < 0 || p < 0 || p >= r->players) /* `end`: the replay checks the rest */
            continue;
        if (known[p][kind] > 0) {
            known[p][kind]--;
            continue;
        }
        int found = -1, eligible = 0, same = -1;
        for (int loose = 0; found < 0 && loose < 2; loose++)
            for (int j = 0; j < i; j++) {
                if (!r->steps[j].is_draw || r->steps[j].player != p || r->steps[j].kind >= 0 ||
                    assigned[j] >= 0 || (!loose && avoided(gs, kind, j, i)))
                    continue;
                eligible++;
                if (same < 0 && r->steps[j].guess == kind)
                    same = j;
                int random = gs->slot_rule == SLOT_RANDOM || gs->slot_rule == SLOT_STICKY_RANDOM;
                if (found < 0 || gs->slot_rule == SLOT_NEWEST || gs->slot_rule == SLOT_STICKY ||
                    (random && carc_rng_below(&gs->rng, (uint32_t)eligible) == 0))
                    found = j;
            }
        if (is_sticky(gs) && same >= 0)
            found = same;
        if (found < 0)
            return replica_fail(err, errcap, "player %d plays %s, which no draw shown gave them",
                                p + 1, carc_tile_id(kind));
        assigned[found] = kind;
    }
    return 0;
}

/* Notes how the rebuild that held named each hidden draw, for the next
 * one's sticky guess. */
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

/* How many tiles of each kind the pile must still hold after step `from`
 * for the known and assigned draws after it: their number, or with
 * `net` for each kind the most, over the steps after `from`, of its draws
 * until then less the tiles of that kind that discards sent back into the
 * pile until then (reshuffle). */
static void later_demand(const replica *r, const int *assigned, int from, int net_of_returns,
                         int demand[CARC_MAX_KINDS])
{
    int net[CARC_MAX_KINDS] = {0};
    int reshuffle = net_of_returns && (r->rules.flags & CARC_RULE_RESHUFFLE) != 0;
    memset(demand, 0, sizeof(int) * CARC_MAX_KINDS);
    for (int i = from + 1; i < r->nsteps; i++) {
        const replica_step *s = &r->steps[i];
        if (!s->is_draw) {
            int back =
                reshuffle && strncmp(s->move, "discard ", 8) == 0 ? replica_move_tile(s->move) : -1;
            if (back >= 0)
                net[back]--;
            continue;
        }
        int kind = s->kind >= 0 ? s->kind : assigned[i];
        if (kind >= 0 && ++net[kind] > demand[kind])
            demand[kind] = net[kind];
    }
}

/* Names a hidden draw whose tile is still held: the library's own draw
 * when a later known draw does not need that tile, else another tile of
 * which the pile has more than the later draws need. With a preference
 * (`fits`: which kinds fit somewhere), a tile that fits, or one that does
 * not, comes first. */
static carc_status name_free_draw(replica *r, guess *gs, int step, int player)
{
    carc_game *g = r->g;
    const unsigned char *fits = gs->fits;
    int prefer = gs->prefer, kinds = carc_tile_kinds();
    int first = gs->random_order ? (int)carc_rng_below(&gs->rng, (uint32_t)kinds) : 0;
    int drawn = -1, counts[CARC_MAX_KINDS] = {0}, demand[CARC_MAX_KINDS];
    carc_game_draw_at(g, carc_game_draw_count(g) - carc_game_draw_due(g, NULL), NULL, &drawn, NULL);
    carc_game_tiles_left(g, counts);
    later_demand(r, gs->assigned, step, gs->net_of_returns, demand);
    /* The sticky guess keeps a tile still held as the last rebuild named
     * it, unless a draw shown since needs it. */
    int last = r->steps[step].guess, want = prefer == PREFER_FITTING;
    for (int k = 0; k < kinds; k++)
        if (avoided(gs, k, step, r->nsteps))
            demand[k] = counts[k] + 1; /* not this kind, unless nothing else is left */
    if (is_sticky(gs) && last >= 0 && counts[last] + (last == drawn) > demand[last] &&
        (prefer == PREFER_ANY || fits[last] == want) && carc_game_draw(g, player, last) == CARC_OK)
        return CARC_OK;
    int c = gs->candidate;
    if (is_sticky(gs) && c >= 0 && !gs->candidate_tried) {
        gs->candidate_tried = 1;
        if (counts[c] + (c == drawn) > demand[c] && carc_game_draw(g, player, c) == CARC_OK)
            return CARC_OK;
    }
    if (drawn >= 0 && !gs->random_order && counts[drawn] + 1 > demand[drawn] &&
        (prefer == PREFER_ANY || fits[drawn] == want))
        return carc_game_draw(g, player, drawn);
    for (int pass = prefer == PREFER_ANY; pass < 2; pass++)
        for (int i = 0; i < kinds; i++) {
            int k = (first + i) % kinds;
            if ((pass == 1 || fits[k] == want) && counts[k] + (k == drawn) > demand[k] &&
                carc_game_draw(g, player, k) == CARC_OK)
                return CARC_OK;
        }
    return drawn >= 0 ? carc_game_draw(g, player, drawn) : CARC_EILLEGAL;
}

/* Whether square (x, y) lies on the table (table=WxH; any square without). */
static int on_table(const carc_rules *rules, int x, int y)
{
    if (!rules->table_w)
        return 1;
    int hw = (rules->table_w - 1) / 2, hh = (rules->table_h - 1) / 2;
    return x >= -hw && x <= hw && y >= -hh && y <= hh;
}

/* fits[k]: whether a tile of kind k fits on some open square of `g`'s
 * board, on the table. */
static void kinds_that_fit(const replica *r, unsigned char fits[CARC_MAX_KINDS])
{
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    memset(fits, 0, CARC_MAX_KINDS);
    int tiles = carc_game_tile_count(r->g);
    for (int i = 0; i < tiles; i++) {
        carc_tile_on_board t;
        if (carc_game_tile_info(r->g, i, &t) != CARC_OK)
            continue;
        for (int e = 0; e < 4; e++) {
            int x = t.x + dx[e], y = t.y + dy[e], needs[4];
            if (x < INT8_MIN || x > INT8_MAX || y < INT8_MIN || y > INT8_MAX ||
                !on_table(&r->rules, x, y) || carc_game_tile_at(r->g, x, y) >= 0)
                continue;
            tile_info_needs(r->g, x, y, needs);
            for (int k = 0; k < carc_tile_kinds(); k++)
                fits[k] |= (unsigned char)tile_info_kind_fits(k, needs);
        }
    }
}

static int name_draw(replica *r, guess *gs, int step, char *err, size_t errcap)
{
    const replica_step *s = &r->steps[step];
    int due_player = -1;
    if (carc_game_draw_due(r->g, &due_player) == 0 || due_player != s->player)
        return replica_fail(err, errcap,
                            "the server's draw for player %d after turn %d is not one the "
                            "rules make",
                            s->player + 1, r->turn);
    int kind = s->kind >= 0 ? s->kind : gs->assigned[step];
    carc_status st =
        kind >= 0 ? carc_game_draw(r->g, s->player, kind) : name_free_draw(r, gs, step, s->player);
    if (st != CARC_OK && s->kind >= 0)
        note_avoid(gs, s->kind, step);
    if (st != CARC_OK)
        return replica_fail(err, errcap, "player %d's draw after turn %d: %s", s->player + 1,
                            r->turn, carc_game_error(r->g));
    return 0;
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

/* Replays the history into r->g, hidden draws named as guess `gs` says. */
static int replay(replica *r, guess *gs, char *err, size_t errcap)
{
    if (new_game(r, err, errcap) != 0)
        return -1;
    for (int i = 0; i < r->nsteps; i++) {
        const replica_step *s = &r->steps[i];
        if (s->is_draw) {
            if (name_draw(r, gs, i, err, errcap) != 0)
                return -1;
            continue;
        }
        if (!carc_game_over(r->g) && strcmp(s->move, "end") != 0 &&
            carc_game_current_player(r->g) != s->player)
            return replica_fail(err, errcap, "turn %d is player %d's, not player %d's", r->turn,
                                carc_game_current_player(r->g) + 1, s->player + 1);
        if (replica_play_move(r, s->move, err, errcap) != 0)
            return -1;
    }
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

int replica_hand_rebuild(replica *r, const json_t *event, char *err, size_t errcap)
{
    guess gs = {.rng = carc_rng_seed(REPLICA_DEAL_SEED)};
    gs.assigned = calloc((size_t)(r->nsteps ? r->nsteps : 1), sizeof(int));
    if (!gs.assigned)
        return replica_fail(err, errcap, "out of memory");
    /* Which tiles the hidden hands hold can change who moves (with
     * reshuffle a seat whose tiles fit nowhere is skipped while the pile
     * holds only such tiles) and when the game ends: the server's history
     * says which. When a guess disagrees, the next one gives the played
     * tiles to other draws and the tiles still held are chosen among
     * those that fit where it went wrong, or those that do not. */
    int status = -1, kinds = carc_tile_kinds(), per_pass = REBUILD_TRIES + kinds;
    /* Four passes: the pile's demand counted without and with the tiles
     * discards send back; then both again keeping out of the hidden draws
     * the kinds that a draw shown to us did not find. */
    for (int n = 0; status != 0 && n < 4 * per_pass; n++) {
        int attempt = n % per_pass;
        gs.net_of_returns = (n / per_pass) % 2;
        gs.use_avoid = n >= 2 * per_pass;
        /* Attempt 0 the last rebuild's guess; 1..kinds the same with each
         * kind for its first draw it cannot keep; then three sticky ones
         * and six with the oldest or newest draw, each with no preference,
         * tiles that fit, tiles that do not; then random ones. */
        int a = attempt - kinds;
        gs.candidate = attempt >= 1 && attempt <= kinds ? attempt - 1 : -1;
        gs.candidate_tried = 0;
        gs.slot_rule = attempt <= kinds ? SLOT_STICKY
                       : a < 4          ? SLOT_STICKY
                       : a < 10         ? SLOT_OLDEST + a % 2
                       : a % 2          ? SLOT_STICKY_RANDOM
                                        : SLOT_RANDOM;
        gs.prefer = attempt <= kinds ? PREFER_ANY : a % 3;
        gs.random_order = a >= 10;
        if (assign_played(r, &gs, err, errcap) != 0)
            break;
        int replayed = replay(r, &gs, err, errcap) == 0;
        if (replayed && digest_agrees(r, event)) {
            status = 0;
            keep_guesses(r);
        } else if (replayed)
            snprintf(err, errcap, "the server's digest is %s (turn %d)",
                     json_string_value(json_object_get(event, "digest")), r->turn);
        /* The next guesses prefer by what fits where this one went wrong
         * (the move it could not follow, or the end: who moves next). */
        if (status != 0 && r->g)
            kinds_that_fit(r, gs.fits);
    }
    free(gs.assigned);
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
