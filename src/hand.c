/* hand.c: the house rule hand=N (hand.h): the hands, their draws and the
 * draw log, the public calls that read and name them, and a seat's view. */
#include <string.h>

#include "hand.h"
#include "capabilities.h"
#include "moves.h"
#include "pile.h"
#include "tiles.h"

/* --- The turn code's side ---------------------------------------------------- */

static void log_draw(carc_game *g, int p, int kind)
{
    hand_state *h = &g->hand;
    if (h->ndraws < MAX_DRAWS)
        h->log[h->ndraws++] = (draw_entry){(uint8_t)p, (uint8_t)kind, g->nmoves};
}

int hand_draw_one(carc_game *g, int p)
{
    hand_state *h = &g->hand;
    if (g->pile_len == 0 || h->size[p] >= CARC_MAX_HAND)
        return 0;
    int kind = pile_pop(g);
    g->left[kind]--;
    h->tiles[p][h->size[p]++] = (uint8_t)kind;
    log_draw(g, p, kind);
    return 1;
}

void hand_draw_up(carc_game *g, int p)
{
    while (g->hand.size[p] < g->rules.hand && hand_draw_one(g, p))
        ;
}

void hand_start(carc_game *g)
{
    memset(&g->hand, 0, offsetof(hand_state, log));
    if (!hand_in_game(&g->rules))
        return;
    for (int p = 0; p < g->nplayers; p++)
        hand_draw_up(g, p);
    hand_focus_first(g);
}

int hand_take(carc_game *g, int p, int kind)
{
    hand_state *h = &g->hand;
    for (int i = 0; i < h->size[p]; i++)
        if (h->tiles[p][i] == kind) {
            memmove(&h->tiles[p][i], &h->tiles[p][i + 1], (size_t)(h->size[p] - i - 1));
            h->size[p]--;
            return 1;
        }
    return 0;
}

int hand_holds(const carc_game *g, int p, int kind)
{
    for (int i = 0; i < g->hand.size[p]; i++)
        if (g->hand.tiles[p][i] == kind)
            return 1;
    return 0;
}

void hand_focus_first(carc_game *g)
{
    const hand_state *h = &g->hand;
    int first = h->size[g->current] ? h->tiles[g->current][0] : -1;
    g->drawn = (int8_t)first;
}

void hand_hold_random(carc_game *g, carc_rng *r)
{
    const hand_state *h = &g->hand;
    int p = g->current, fit[CARC_MAX_HAND], n = 0;
    for (int i = 0; i < h->size[p]; i++)
        if (moves_kind_fits(g, h->tiles[p][i]))
            fit[n++] = i;
    if (n > 0)
        g->drawn = (int8_t)h->tiles[p][fit[rng_below(r, (uint32_t)n)]];
    else if (h->size[p] > 0)
        g->drawn = (int8_t)h->tiles[p][rng_below(r, h->size[p])];
}

static int hand_any_fits(const carc_game *g, int p)
{
    for (int i = 0; i < g->hand.size[p]; i++)
        if (moves_kind_fits(g, g->hand.tiles[p][i]))
            return 1;
    return 0;
}

/* Whether player p has a move: a tile in hand; with reshuffle also one that
 * fits, or a pile to trade a tile that fits nowhere for one that fits. */
static int hand_can_move(const carc_game *g, int p)
{
    if (g->hand.size[p] == 0)
        return 0;
    if (!(g->rules.flags & CARC_RULE_RESHUFFLE))
        return 1;
    return hand_any_fits(g, p) || (g->pile_len > 0 && pile_any_fits(g));
}

int hand_pass_turn(carc_game *g, int mover, int from)
{
    hand_state *h = &g->hand;
    h->mover = (uint8_t)mover;
    h->from = (uint8_t)from;
    h->part = (uint8_t)caps_turn_part(g);
    for (int i = 0; i < g->nplayers; i++) {
        int q = (from + i) % g->nplayers;
        if (hand_can_move(g, q)) {
            /* Another player's turn, or the mover's again after a full
             * round, starts at its first part. */
            caps_set_turn_part(g, q != mover || i > 0 ? 0 : h->part);
            g->current = (uint8_t)q;
            hand_focus_first(g);
            return 1;
        }
    }
    return 0;
}

void hand_pass_again(carc_game *g)
{
    const hand_state *h = &g->hand;
    unsigned part = caps_turn_part(g);
    caps_set_turn_part(g, h->part);
    if (!hand_pass_turn(g, h->mover, h->from))
        caps_set_turn_part(g, part); /* cannot be: who may move depends on the
                                               tiles left, not on who holds them */
}

int hand_tiles(const carc_game *g)
{
    int n = 0;
    if (!hand_in_game(&g->rules))
        return 0; /* the hand state of another game is not copied */
    for (int p = 0; p < g->nplayers; p++)
        n += g->hand.size[p];
    return n;
}

/* Whether `kind` lies in a part of the pile above the main pile
 * (capability.pile_part). */
static int above_main(const carc_game *g, int kind)
{
    return caps_pile_part(g, kind) > 0;
}

/* A tile of the class of `like` (a tile of the main pile, or of the parts
 * above it) drawn uniformly from the counts `g->left`, of the highest part
 * of that class that holds one; -1 when none is. */
static int draw_from_counts(carc_game *g, int like)
{
    /* Each kind's part of the pile, -1 outside the class of `like`. */
    int8_t part[LAYOUT_KINDS];
    int above = above_main(g, like), total = 0, top = 0, skipped = 0;
    pile_settle(g); /* its steps draw from g->rng first */
    for (int k = 0; k < LAYOUT_KINDS; k++) {
        int p = caps_pile_part(g, k);
        part[k] = (int8_t)((p > 0) == above ? p : -1);
        if (part[k] >= 0 && g->left[k]) {
            total += g->left[k];
            top = p > top ? p : top;
        }
    }
    for (int k = 0; k < LAYOUT_KINDS; k++)
        if (part[k] >= 0 && part[k] != top)
            skipped += g->left[k];
    for (int pass = 0; pass < 2 && total; pass++) {
        int r = (int)rng_below(&g->rng, (uint32_t)total);
        for (int k = 0; k < LAYOUT_KINDS; k++) {
            if (part[k] != top)
                continue;
            r -= g->left[k];
            if (r < 0) {
                g->left[k]--;
                return k;
            }
        }
        /* The number fell on a lower part's tile: draw again among the
         * highest part's. */
        total -= skipped;
    }
    return -1;
}

void hand_deal_hidden(carc_game *g, int seat)
{
    if (!hand_hidden(&g->rules))
        return;
    hand_state *h = &g->hand;
    for (int p = 0; p < g->nplayers; p++)
        for (int i = 0; p != seat && i < h->size[p]; i++)
            g->left[h->tiles[p][i]]++;
    for (int p = 0; p < g->nplayers; p++)
        for (int i = 0; p != seat && i < h->size[p]; i++) {
            int k = draw_from_counts(g, h->tiles[p][i]);
            if (k >= 0)
                h->tiles[p][i] = (uint8_t)k;
        }
    for (int i = 0; i < h->ndraws; i++)
        if (h->log[i].player != seat)
            h->log[i].kind = NO_TILE;
    if (g->current != seat)
        hand_focus_first(g);
}

/* --- The public calls ------------------------------------------------------------ */

int carc_game_hand(const carc_game *g, int player, int *kinds, int cap)
{
    if (!hand_in_game(&g->rules) || player < 0 || player >= g->nplayers)
        return 0;
    int n = g->hand.size[player];
    for (int i = 0; i < n && i < cap; i++)
        kinds[i] = g->hand.tiles[player][i];
    return n;
}

carc_status carc_game_hold_tile(carc_game *g, int kind)
{
    if (!hand_in_game(&g->rules)) {
        game_set_error(g, "this game has no hand (rule hand=N)");
        return CARC_EINVAL;
    }
    if (g->over) {
        game_set_error(g, "the game is over");
        return CARC_EOVER;
    }
    if (!hand_holds(g, g->current, kind)) {
        game_set_error(g, "player %d holds no tile %s", g->current + 1, carc_tile_id(kind));
        return CARC_EILLEGAL;
    }
    g->drawn = (int8_t)kind;
    return CARC_OK;
}

int carc_game_draw_due(const carc_game *g, int *player)
{
    int due = hand_in_game(&g->rules) ? g->hand.ndraws - g->hand.named : 0;
    if (player)
        *player = due > 0 ? g->hand.log[g->hand.named].player : -1;
    return due;
}

/* The pile slots [*lo, *hi) a draw of `drawn` came from: the parts
 * above the main pile for a tile of theirs, else the main pile. */
static void draw_region(const carc_game *g, int drawn, int *lo, int *hi)
{
    int sizes[PILE_PARTS];
    int main_end = g->pile_len - pile_part_sizes(g, sizes);
    *lo = above_main(g, drawn) ? main_end : 0;
    *hi = above_main(g, drawn) ? g->pile_len : main_end;
}

static carc_status draw_refused(carc_game *g, int player, int kind)
{
    const hand_state *h = &g->hand;
    int due_player, due = carc_game_draw_due(g, &due_player);
    if (due > 0 && due_player == player)
        return CARC_OK;
    int own_due = 0; /* the player's draws still to name, after another's */
    for (int d = h->named; d < h->ndraws; d++)
        own_due += h->log[d].player == player;
    if (!own_due && h->size[player] >= g->rules.hand)
        game_set_error(g, "player %d's hand would hold more than %d tiles", player + 1,
                       g->rules.hand);
    else if (due == 0)
        game_set_error(g, "no draw is due: player %d draws %s only after a move", player + 1,
                       carc_tile_id(kind));
    else
        game_set_error(g, "player %d draws now, not player %d", due_player + 1, player + 1);
    return CARC_EILLEGAL;
}

/* Gives draw `d` of the log the tile `to` in its own place of the hand.
 * A hand keeps its tiles in the order drawn and the draws after `d` are
 * all still held (nothing is played before they are named), so its tile
 * is the one before their number at the end; when that place does not
 * hold it (cannot be), the first tile of its kind. */
static void hand_replace(carc_game *g, int d, int to)
{
    hand_state *h = &g->hand;
    int p = h->log[d].player, from = h->log[d].kind, at = h->size[p] - 1;
    for (int j = d + 1; j < h->ndraws; j++)
        at -= h->log[j].player == p;
    if (at < 0 || h->tiles[p][at] != from)
        for (at = 0; at < h->size[p] && h->tiles[p][at] != from; at++)
            ;
    if (at < h->size[p])
        h->tiles[p][at] = (uint8_t)to;
}

/* The tile `kind` may sit in a hand by a later due draw (the set-up deals
 * every hand before the record names the first): the two draws trade
 * tiles. 0 when no later due draw of the same pile gave `kind`. */
static int swap_with_later_draw(carc_game *g, int old, int kind)
{
    hand_state *h = &g->hand;
    for (int d = h->named + 1; d < h->ndraws; d++) {
        draw_entry *e = &h->log[d];
        if (e->kind != kind || above_main(g, kind) != above_main(g, old) ||
            !hand_holds(g, e->player, kind))
            continue;
        hand_replace(g, d, old);
        hand_replace(g, h->named, kind);
        e->kind = (uint8_t)old;
        return 1;
    }
    return 0;
}

/* Swaps the due draw's `old` for a pile tile of `kind`; 0 when the pile the
 * draw came from holds none (the error then says why). */
static int swap_draw(carc_game *g, int old, int kind)
{
    int lo, hi;
    if (caps_draw_error(g, old, kind))
        return 0;
    pile_settle(g);
    draw_region(g, old, &lo, &hi);
    for (int i = lo; i < hi; i++)
        if (g->pile[i] == kind) {
            g->pile[i] = (uint8_t)old;
            g->left[old]++;
            g->left[kind]--;
            hand_replace(g, g->hand.named, kind);
            return 1;
        }
    if (swap_with_later_draw(g, old, kind))
        return 1;
    game_set_error(g, "no tile %s is left in the pile", carc_tile_id(kind));
    return 0;
}

carc_status carc_game_draw(carc_game *g, int player, int kind)
{
    if (!hand_in_game(&g->rules)) {
        game_set_error(g, "this game has no hand (rule hand=N)");
        return CARC_EINVAL;
    }
    if (player < 0 || player >= g->nplayers || !carc_tile(kind) || kind >= LAYOUT_KINDS) {
        game_set_error(g, "no player %d or no tile kind %d", player + 1, kind);
        return CARC_EINVAL;
    }
    carc_status st = draw_refused(g, player, kind);
    if (st != CARC_OK)
        return st;
    hand_state *h = &g->hand;
    int old = h->log[h->named].kind;
    if (old != kind) {
        if (!hand_holds(g, player, old)) {
            game_set_error(g, "player %d has played the tile %s drawn for them", player + 1,
                           carc_tile_id(old));
            return CARC_EILLEGAL;
        }
        if (!swap_draw(g, old, kind))
            return CARC_EILLEGAL;
        h->log[h->named].kind = (uint8_t)kind;
        if (!g->over && h->log[h->named].moves > 0 && h->log[h->named].moves == g->nmoves)
            hand_pass_again(g); /* a draw after a move: who moves next may change */
        else if (player == g->current && !g->over && !hand_holds(g, player, g->drawn))
            hand_focus_first(g);
    }
    h->named++;
    return CARC_OK;
}

int carc_game_draw_count(const carc_game *g)
{
    return hand_in_game(&g->rules) ? g->hand.ndraws : 0;
}

carc_status carc_game_draw_at(const carc_game *g, int i, int *player, int *kind, int *moves)
{
    if (i < 0 || i >= carc_game_draw_count(g))
        return CARC_EINVAL;
    const draw_entry *e = &g->hand.log[i];
    if (player)
        *player = e->player;
    if (kind)
        *kind = e->kind == NO_TILE ? CARC_NO_TILE : e->kind;
    if (moves)
        *moves = e->moves;
    return CARC_OK;
}

void carc_game_seat_view(carc_game *dst, const carc_game *src, int seat, uint64_t seed)
{
    if (carc_game_copy(dst, src) != CARC_OK)
        return; /* `dst` has the other layout */
    memset(dst->pile + dst->pile_len, 0, (size_t)(LAYOUT_TILES - dst->pile_len));
    pile_settle(dst); /* an order kept when the game is over */
    dst->rng = carc_rng_seed(seed);
    if (!dst->over)
        pile_deal_hidden(dst, seat);
    else
        hand_deal_hidden(dst, seat); /* reshuffle: tiles left in hands */
}

int hand_next_turn(carc_game *g, const move_fields *m, unsigned turn)
{
    int p = g->current, again = (turn & TURN_AGAIN) != 0;
    int second_tile = again && (turn & TURN_SECOND_TILE);
    if (m->type == CARC_MOVE_PLACE && !second_tile)
        hand_draw_up(g, p);
    else if (m->type == CARC_MOVE_PLACE && g->hand.size[p] == 0)
        hand_draw_one(g, p); /* hand=1: a second tile earned */
    int from = again || m->type == CARC_MOVE_DISCARD ? p : (p + 1) % g->nplayers;
    if (hand_pass_turn(g, p, from))
        return 1;
    g->drawn = -1;
    return 0;
}

void hand_discard(carc_game *g)
{
    int p = g->current;
    hand_take(g, p, g->drawn);
    if (pile_may_return(g, g->drawn))
        pile_return(g, g->drawn);
    hand_draw_one(g, p);
}
