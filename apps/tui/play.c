/* play.c: `carcassonne play`: the loop of the terminal game: whose turn,
 * the human's steps (place, follower, confirm), the computer's moves in a
 * worker thread, keys, undo, hints, save and quit. */
#define _XOPEN_SOURCE_EXTENDED 1
#include "play.h"

#include <ctype.h>
#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "saves.h"
#include "describe.h"
#include "tui.h"

enum { KEY_ESC = 27, KEY_CTRL_C = 3, KEY_CTRL_L = 12, POLL_MS = 100 };

/* Keeps the cursor in view; centres on it when `centre`. */
static void follow_cursor(tui *t, int centre)
{
    layout l = tui_layout(t);
    if (centre) {
        t->vx = t->cx - l.view_w / 2;
        t->vy = t->cy - l.view_h / 2;
        return;
    }
    if (t->cx < t->vx)
        t->vx = t->cx;
    if (t->cx >= t->vx + l.view_w)
        t->vx = t->cx - l.view_w + 1;
    if (t->cy < t->vy)
        t->vy = t->cy;
    if (t->cy >= t->vy + l.view_h)
        t->vy = t->cy - l.view_h + 1;
}

/* --- Hands (hand=N) ------------------------------------------------------------------ */

/* A copy of the game as player `player` may know it, for a computer player or
 * a hint: with hidden hands player `player`'s view (the others' hands and the
 * pile dealt again from the tiles it has not seen). NULL when out of
 * memory; the caller frees it. */
static carc_game *seat_game(const tui *t, int player)
{
    carc_game *v = carc_game_clone(t->s.g);
    uint64_t turn = (uint64_t)carc_game_move_count(t->s.g) + 1u;
    if (v && tui_hands_hidden(t->s.g))
        carc_game_seat_view(v, t->s.g, player, t->s.seed ^ (0x9E3779B97F4A7C15ULL * turn));
    return v;
}

/* --- Turns ------------------------------------------------------------------------ */

static void drop_preview(tui *t)
{
    carc_game_free(t->preview);
    t->preview = NULL;
    t->npevents = 0;
}

/* Dead spots and each player's last placement, after any change. */
static void refresh_board_info(tui *t)
{
    const carc_game *g = t->s.g;
    t->ndead = tile_info_dead_spots(g, t->dead, TILE_INFO_MAX_SQUARES);
    t->ndead = t->ndead > TILE_INFO_MAX_SQUARES ? TILE_INFO_MAX_SQUARES : t->ndead;
    memset(t->last, 0, sizeof t->last);
    for (int i = carc_game_move_count(g) - 1; i >= 0; i--) {
        int p = carc_game_move_player(g, i);
        carc_move m;
        int kind = 0;
        if (p < 0 || p >= CARC_MAX_PLAYERS || t->last[p].turn > 0 ||
            carc_game_move_at(g, i, &m, &kind) != CARC_OK || m.type != CARC_MOVE_PLACE)
            continue;
        t->last[p] = (last_move){i + 1, m.place.x, m.place.y};
    }
}

/* The first rotation at (x, y) from `from` on of the legal placements,
 * or -1. */
static int legal_rotation(const tui *t, int x, int y, int from, int step)
{
    for (int i = 0; i < 4; i++) {
        int rot = ((from + step * i) % 4 + 4) % 4;
        for (int k = 0; k < t->nlegal; k++)
            if (t->legal[k].x == x && t->legal[k].y == y && t->legal[k].rot == rot)
                return rot;
    }
    return -1;
}

/* The legal placements of the drawn tile, each distinct one once: the
 * placements of carc_legal_moves(), so that a symmetric tile is offered
 * only at the lowest of the rotations that look alike. */
static int distinct_placements(const carc_game *g, carc_placement out[CARC_MAX_PLACEMENTS])
{
    carc_move moves[CARC_MAX_MOVES];
    int n = carc_legal_moves(g, moves, CARC_MAX_MOVES), w = 0;
    int held = 1 + carc_game_drawn_tile(g); /* with a hand: the tile of the hand chosen */
    for (int i = 0; i < n; i++)
        if (moves[i].type == CARC_MOVE_PLACE && moves[i].segment == CARC_NO_SPOT &&
            (moves[i].place.tile == 0 || moves[i].place.tile == held))
            out[w++] = moves[i].place;
    return w;
}

/* After another player's placement, the cursor starts from its square, so
 * the view shows what was just played. */
static void look_at_others_move(tui *t, int player)
{
    int n = carc_game_move_count(t->s.g), kind = 0;
    carc_move m;
    if (n == 0 || carc_game_move_player(t->s.g, n - 1) == player ||
        carc_game_move_at(t->s.g, n - 1, &m, &kind) != CARC_OK || m.type != CARC_MOVE_PLACE)
        return;
    t->cx = m.place.x;
    t->cy = m.place.y;
}

/* Puts the cursor on the legal square nearest to where it is. */
static void cursor_to_nearest_legal(tui *t)
{
    int best = -1, best_d = 0;
    for (int i = 0; i < t->nlegal; i++) {
        int dx = t->legal[i].x - t->cx, dy = t->legal[i].y - t->cy;
        int d = dx * dx + dy * dy;
        if (best < 0 || d < best_d) {
            best = i;
            best_d = d;
        }
    }
    if (best < 0)
        return;
    t->cx = t->legal[best].x;
    t->cy = t->legal[best].y;
    t->rot = t->legal[best].rot;
}

static void start_computer(tui *t)
{
    int p = carc_game_current_player(t->s.g);
    carc_game *view = seat_game(t, p); /* it must not see the hidden hands */
    int failed = !view || ai_worker_start(&t->worker, AI_TASK_CHOOSE, t->s.seats[p].player, view);
    carc_game_free(view);
    if (failed) {
        snprintf(t->msg, sizeof t->msg, "Could not start the computer player.");
        t->step = STEP_OVER;
        return;
    }
    t->step = STEP_COMPUTER;
}

/* The end: the view centred on the whole board, the final scoring ready
 * to be stepped through. */
static void begin_end_screen(tui *t)
{
    int x0, y0, x1, y1;
    t->step = STEP_OVER;
    t->nlegal = 0;
    t->final_step = -1;
    t->inspecting = 0;
    carc_game_bounds(t->s.g, &x0, &y0, &x1, &y1);
    t->cx = (x0 + x1) / 2;
    t->cy = (y0 + y1) / 2;
    follow_cursor(t, 1);
}

/* Sets up whatever the current position asks for: the end, the
 * computer's move, or a human's turn. A player looking around with the
 * inspector while the computer thought stays there. */
static void begin_turn(tui *t)
{
    int looking = t->inspecting && t->step == STEP_COMPUTER;
    drop_preview(t);
    refresh_board_info(t);
    t->nhints = 0;
    t->nspots = 0;
    t->spot = -1;
    t->figure = CARC_FIGURE_FOLLOWER;
    t->inspecting = looking;
    if (carc_game_over(t->s.g)) {
        begin_end_screen(t);
        return;
    }
    int p = carc_game_current_player(t->s.g);
    if (!session_is_human(&t->s, p)) {
        t->nlegal = 0;
        start_computer(t);
        return;
    }
    t->step = STEP_PLACE;
    session_turn_begins(&t->s);
    t->nlegal = distinct_placements(t->s.g, t->legal);
    if (carc_game_second_part(t->s.g) && !looking) {
        snprintf(t->msg, sizeof t->msg, "Builder: play again. Your second tile this turn.");
        cursor_to_nearest_legal(t);
        follow_cursor(t, 0);
        return;
    }
    if (looking) {
        snprintf(t->msg, sizeof t->msg, "Your turn: Esc leaves the inspector.");
        return;
    }
    look_at_others_move(t, p);
    cursor_to_nearest_legal(t);
    follow_cursor(t, 0);
}

static void play_move(tui *t, carc_move m)
{
    if (session_play(&t->s, m) != CARC_OK)
        snprintf(t->msg, sizeof t->msg, "That move was refused: %s", carc_game_error(t->s.g));
    begin_turn(t);
}

static void finish_worker(tui *t)
{
    if (t->step == STEP_COMPUTER) {
        carc_move m = t->worker.move;
        if (t->worker.status != CARC_OK)
            m = carc_random_move(t->s.g, &(carc_rng){t->s.seed}, 0.0);
        play_move(t, m);
    } else if (t->step == STEP_HINT) {
        t->nhints = t->worker.nevals;
        memcpy(t->hints, t->worker.evals, sizeof t->hints);
        t->step = STEP_PLACE;
        snprintf(t->msg, sizeof t->msg, "%d best moves in the panel: 1-%d puts the tile there.",
                 t->nhints, t->nhints);
    }
}

/* --- The human's steps ----------------------------------------------------------- */

static carc_move current_move(const tui *t)
{
    carc_move m;
    memset(&m, 0, sizeof m);
    m.type = CARC_MOVE_PLACE;
    m.place = (carc_placement){(int8_t)t->cx, (int8_t)t->cy, (uint8_t)t->rot, 0};
    m.segment = t->spot >= 0 ? t->spots[t->spot].segment : CARC_NO_SPOT;
    m.figure = (uint8_t)(t->spot >= 0 ? t->figure : CARC_FIGURE_FOLLOWER);
    return m;
}

/* Whether the player to move has a figure of kind `figure` in supply. */
static int has_figure(const tui *t, int figure)
{
    return carc_game_figures(t->s.g, carc_game_current_player(t->s.g), figure) > 0;
}

/* l in the follower step: the large follower instead of a follower, or
 * back (Inns & Cathedrals). */
static void switch_figure(tui *t)
{
    int other = t->figure == CARC_FIGURE_LARGE ? CARC_FIGURE_FOLLOWER : CARC_FIGURE_LARGE;
    if (!(carc_game_rules(t->s.g).expansions & CARC_EXPANSION_INNS_CATHEDRALS)) {
        snprintf(t->msg, sizeof t->msg, "No large follower in this game (Inns & Cathedrals).");
    } else if (!has_figure(t, other)) {
        snprintf(t->msg, sizeof t->msg,
                 other == CARC_FIGURE_LARGE ? "Your large follower is on the board."
                                            : "No follower left: only the large one.");
    } else {
        t->figure = other;
        snprintf(t->msg, sizeof t->msg,
                 other == CARC_FIGURE_LARGE
                     ? "Large follower (counts 2 in a majority): a spot's number; l: a follower."
                     : "Follower: a spot's number; l: the large follower.");
    }
}

/* The spots of the builder or the pig (Traders & Builders) on placement
 * `p` at the cursor, from the legal moves (listed at the canonical
 * rotation: a spot's board ports find its segment at `p`'s). */
static int traders_spots(const tui *t, carc_placement p, int figure, carc_spot *out)
{
    carc_move *moves = malloc(sizeof *moves * CARC_MAX_MOVES);
    if (!moves)
        return 0;
    const carc_game *g = t->s.g;
    int kind = carc_game_drawn_tile(g), n = carc_legal_moves(g, moves, CARC_MAX_MOVES), count = 0;
    carc_move probe = {.type = CARC_MOVE_PLACE, .place = p, .segment = CARC_NO_SPOT};
    carc_placement canon = carc_move_canonical(g, probe).place;
    for (int i = 0; i < n && count < CARC_MAX_SPOTS; i++) {
        const carc_move *m = &moves[i];
        if (m->type != CARC_MOVE_PLACE || m->figure != figure || m->segment == CARC_NO_SPOT ||
            (m->place.tile != 0 && m->place.tile != 1 + kind) || m->place.x != canon.x ||
            m->place.y != canon.y || m->place.rot != canon.rot)
            continue;
        unsigned ports = carc_tile_segment_ports(kind, canon.rot, m->segment);
        int port = ports ? __builtin_ctz(ports) : CARC_PORTS;
        int seg = port < CARC_PORTS ? carc_tile_segment_at(kind, p.rot, port) : m->segment;
        out[count++] =
            (carc_spot){(uint8_t)seg, carc_tile(kind)->segments[seg].kind, (uint8_t)port};
    }
    free(moves);
    return count;
}

/* Loads the spots of `figure` at the cursor into t->spots; their count (0
 * when the player has none of that figure). */
static int load_spots(tui *t, int figure)
{
    carc_placement p = {(int8_t)t->cx, (int8_t)t->cy, (uint8_t)t->rot, 0};
    int n = 0;
    if (!has_figure(t, figure))
        n = 0;
    else if (figure == CARC_FIGURE_BUILDER || figure == CARC_FIGURE_PIG)
        n = traders_spots(t, p, figure, t->spots);
    else
        n = carc_legal_spots(t->s.g, p, t->spots, CARC_MAX_SPOTS);
    t->nspots = n > CARC_MAX_SPOTS ? CARC_MAX_SPOTS : n;
    t->spot = -1;
    return t->nspots;
}

/* f in the follower step: the next figure, in the order follower, large
 * follower, builder, pig, that the player has and may put on this tile. */
static void cycle_figure(tui *t)
{
    int from = t->figure;
    for (int i = 1; i <= CARC_FIGURES; i++) {
        int figure = (from + i) % CARC_FIGURES;
        if (figure != from && load_spots(t, figure) > 0) {
            t->figure = figure;
            snprintf(t->msg, sizeof t->msg, "%c%s: %d spot%s on this tile.",
                     toupper((unsigned char)describe_figure(figure)[0]),
                     describe_figure(figure) + 1, t->nspots, t->nspots == 1 ? "" : "s");
            return;
        }
    }
    load_spots(t, from);
    snprintf(t->msg, sizeof t->msg, "No other figure may go on this tile.");
}

/* STEP_CONFIRM: the move played on a copy, with what it scores. */
static void enter_confirm(tui *t)
{
    drop_preview(t);
    t->preview = carc_game_clone(t->s.g);
    if (!t->preview || carc_game_play(t->preview, current_move(t), t->pevents, CARC_MAX_EVENTS,
                                      &t->npevents) != CARC_OK) {
        drop_preview(t);
        snprintf(t->msg, sizeof t->msg, "That move is not legal.");
        return;
    }
    t->npevents = t->npevents > CARC_MAX_EVENTS ? CARC_MAX_EVENTS : t->npevents;
    t->step = STEP_CONFIRM;
    int p = carc_game_current_player(t->s.g), now = 0, at_end = 0;
    for (int i = 0; i < t->npevents; i++) {
        if (((t->pevents[i].winners >> p) & 1) == 0)
            continue;
        if (t->pevents[i].complete)
            now += t->pevents[i].points;
        else
            at_end += t->pevents[i].points;
    }
    char figure[32] = "";
    if (t->spot >= 0 && t->figure != CARC_FIGURE_FOLLOWER)
        snprintf(figure, sizeof figure, " the %s", describe_figure(t->figure));
    const char *large = figure;
    if (carc_game_over(t->preview))
        snprintf(t->msg, sizeof t->msg,
                 "Confirm%s? This move scores %d for you, the final scoring %d more.", large, now,
                 at_end);
    else if (large[0])
        snprintf(t->msg, sizeof t->msg,
                 "Confirm%s? It scores %d for you now. Enter: yes, Esc: back.", large, now);
    else
        snprintf(t->msg, sizeof t->msg,
                 "Confirm? This move scores %d for you now. Enter confirms, Esc steps back.", now);
}

static void enter_spot_step(tui *t)
{
    carc_placement p = {(int8_t)t->cx, (int8_t)t->cy, (uint8_t)t->rot, 0};
    if (!carc_placement_legal(t->s.g, p)) {
        snprintf(t->msg, sizeof t->msg,
                 tui_square_legal(t, t->cx, t->cy) ? "Not in this rotation: press r."
                                                   : "The tile does not fit here.");
        return;
    }
    /* The figure chosen last, else the first in the order follower, large
     * follower, builder, pig that may go on this tile. */
    if (load_spots(t, t->figure) == 0)
        for (int figure = 0; figure < CARC_FIGURES; figure++)
            if (load_spots(t, figure) > 0) {
                t->figure = figure;
                break;
            }
    if (t->nspots == 0) {
        enter_confirm(t);
        return;
    }
    t->step = STEP_SPOT;
}

/* r and R: the next rotation that fits here, with a word when only one
 * fits; on a square where none fits, the next rotation (to look at) and a
 * word saying so. */
static void rotate(tui *t, int step)
{
    if (!tui_square_legal(t, t->cx, t->cy)) {
        t->rot = ((t->rot + step) % 4 + 4) % 4;
        snprintf(t->msg, sizeof t->msg, "%s",
                 t->nlegal > 0 ? "No rotation fits here (Tab goes to a square where one does)."
                               : "The tile fits nowhere on the board.");
        return;
    }
    int from = t->rot;
    t->rot = legal_rotation(t, t->cx, t->cy, t->rot + step, step);
    if (t->rot == from)
        snprintf(t->msg, sizeof t->msg,
                 "Only this rotation fits here (Tab goes to the next square).");
}

/* Tab: the next (or previous) square with a legal placement. */
static void next_legal_square(tui *t, int step)
{
    if (t->nlegal == 0)
        return;
    int at = -1;
    for (int i = 0; i < t->nlegal; i++)
        if (t->legal[i].x == t->cx && t->legal[i].y == t->cy)
            at = i;
    int i = at < 0 ? 0 : at;
    for (int n = 0; n < t->nlegal; n++) {
        i = ((i + step) % t->nlegal + t->nlegal) % t->nlegal;
        if (t->legal[i].x != t->cx || t->legal[i].y != t->cy)
            break;
    }
    t->cx = t->legal[i].x;
    t->cy = t->legal[i].y;
    t->rot = legal_rotation(t, t->cx, t->cy, 0, 1);
    follow_cursor(t, 0);
}

static int arrow_dx(int ch)
{
    return ch == KEY_LEFT ? -1 : ch == KEY_RIGHT ? 1 : 0;
}

static int arrow_dy(int ch)
{
    return ch == KEY_UP ? -1 : ch == KEY_DOWN ? 1 : 0;
}

/* 'c': the view centred on the last placement; in the inspector and at
 * the end the cursor goes there too. */
static void centre_on_last(tui *t)
{
    int x = t->cx, y = t->cy, best = 0;
    for (int p = 0; p < CARC_MAX_PLAYERS; p++)
        if (t->last[p].turn > best) {
            best = t->last[p].turn;
            x = t->last[p].x;
            y = t->last[p].y;
        }
    int cx = t->cx, cy = t->cy;
    t->cx = x;
    t->cy = y;
    follow_cursor(t, 1);
    if (t->step != STEP_OVER && !t->inspecting) {
        t->cx = cx;
        t->cy = cy;
    }
}

static int clamp_coord(int v)
{
    return v < INT8_MIN ? INT8_MIN : v > INT8_MAX ? INT8_MAX : v;
}

/* Arrows: the cursor, with the view following it. */
static int cursor_key(tui *t, int ch)
{
    int dx = arrow_dx(ch), dy = arrow_dy(ch);
    if (!dx && !dy)
        return 0;
    t->cx = clamp_coord(t->cx + dx);
    t->cy = clamp_coord(t->cy + dy);
    follow_cursor(t, 0);
    return 1;
}

/* HJKL and shift-arrows: the view moves half a screen, the cursor stays. */
static int pan_key(tui *t, int ch)
{
    int px = ch == 'H' || ch == KEY_SLEFT ? -1 : ch == 'L' || ch == KEY_SRIGHT ? 1 : 0;
    int py = ch == 'K' || ch == KEY_SR ? -1 : ch == 'J' || ch == KEY_SF ? 1 : 0;
    if (!px && !py)
        return 0;
    layout l = tui_layout(t);
    t->vx += px * (l.view_w / 2 > 0 ? l.view_w / 2 : 1);
    t->vy += py * (l.view_h / 2 > 0 ? l.view_h / 2 : 1);
    return 1;
}

/* 'f': the overview (3x1 cells a square) on or off, centred on the board. */
static void toggle_overview(tui *t)
{
    int x0, y0, x1, y1;
    carc_game_bounds(t->s.g, &x0, &y0, &x1, &y1);
    t->zoomed = !t->zoomed;
    layout l = tui_layout(t);
    t->vx = (x0 + x1) / 2 - l.view_w / 2;
    t->vy = (y0 + y1) / 2 - l.view_h / 2;
    snprintf(t->msg, sizeof t->msg, "%s", t->zoomed ? "Overview: f again for full tiles." : "");
}

/* Cursor and view keys, in every step that shows the board; 1 if used. */
static int view_key(tui *t, int ch)
{
    if (cursor_key(t, ch) || pan_key(t, ch))
        return 1;
    if (ch == 'c')
        centre_on_last(t);
    else if (ch == 'f')
        toggle_overview(t);
    return ch == 'c' || ch == 'f';
}

static void start_hint(tui *t)
{
    if (!t->hinter) {
        char err[160];
        t->hinter = carc_player_new("mcts", t->s.seed ^ 0x9E3779B97F4A7C15ULL, err, sizeof err);
    }
    carc_game *view = seat_game(t, carc_game_current_player(t->s.g));
    int failed = !t->hinter || !view || ai_worker_start(&t->worker, AI_TASK_RANK, t->hinter, view);
    carc_game_free(view);
    if (failed) {
        snprintf(t->msg, sizeof t->msg, "No hint available.");
        return;
    }
    t->step = STEP_HINT;
}

static void take_hint(tui *t, int i)
{
    carc_move m = t->hints[i].move;
    if (m.type != CARC_MOVE_PLACE)
        return;
    if (m.place.tile &&
        m.place.tile - 1 != carc_game_drawn_tile(t->s.g)) { /* another tile of the hand */
        carc_game_hold_tile(t->s.g, m.place.tile - 1);
        t->nlegal = distinct_placements(t->s.g, t->legal);
    }
    t->cx = m.place.x;
    t->cy = m.place.y;
    t->rot = m.place.rot;
    follow_cursor(t, 0);
    if (m.segment != CARC_NO_SPOT)
        t->figure = m.figure;
    enter_spot_step(t);
    for (int s = 0; s < t->nspots; s++)
        if (t->spots[s].segment == m.segment)
            t->spot = s;
    if (t->spot >= 0)
        t->figure = m.figure;
    if (t->step == STEP_SPOT)
        enter_confirm(t);
}

/* The inspector starts on the tile under the cursor, else on the last
 * tile placed. */
static void start_inspector(tui *t)
{
    t->inspecting = 1;
    t->inspect_seg = 0;
    if (carc_game_tile_at(t->s.g, t->cx, t->cy) >= 0)
        return;
    carc_tile_on_board tile;
    int n = carc_game_tile_count(t->s.g);
    if (n > 0 && carc_game_tile_info(t->s.g, n - 1, &tile) == CARC_OK) {
        t->cx = tile.x;
        t->cy = tile.y;
        follow_cursor(t, 0);
    }
}

static void undo(tui *t)
{
    if (t->s.computers == 0) {
        snprintf(t->msg, sizeof t->msg, "Undo is for games against the computer.");
        return;
    }
    layout l = tui_layout(t);
    int cut = panel_log_rows(t, &l, 0);
    if (session_undo(&t->s) != 0) {
        snprintf(t->msg, sizeof t->msg, "Nothing to undo.");
        return;
    }
    /* A log scrolled back stays on its lines, less the rows undo cut off
     * its end; on the newest when the rows it showed were cut. */
    cut -= panel_log_rows(t, &l, 0);
    t->log_scroll = t->log_scroll > cut ? t->log_scroll - cut : 0;
    session_log(&t->s, "Undone: back to turn %d", carc_game_move_count(t->s.g) + 1);
    begin_turn(t);
    snprintf(t->msg, sizeof t->msg, "Your last move is undone.");
}

/* n and N: the next (previous) kind of tile in the hand (hand=N) becomes
 * the tile to place. */
static void next_hand_tile(tui *t, int step)
{
    carc_game *g = t->s.g;
    int kinds[CARC_MAX_HAND], held = carc_game_drawn_tile(g), at = 0;
    int n = carc_game_hand(g, carc_game_current_player(g), kinds, CARC_MAX_HAND);
    n = n > CARC_MAX_HAND ? CARC_MAX_HAND : n;
    for (int i = 0; i < n; i++)
        if (kinds[i] == held)
            at = i;
    int next = held;
    for (int i = 1; i < n && next == held; i++)
        next = kinds[((at + step * i) % n + n) % n];
    if (next == held || carc_game_hold_tile(g, next) != CARC_OK) {
        snprintf(t->msg, sizeof t->msg, "No other tile in your hand.");
        return;
    }
    t->nlegal = distinct_placements(g, t->legal);
    t->nhints = 0;
    cursor_to_nearest_legal(t);
    follow_cursor(t, 0);
    if (t->nlegal)
        snprintf(t->msg, sizeof t->msg, "Tile %s: it fits on %d placements (n: next tile).",
                 carc_tile_id(next), t->nlegal);
    else
        snprintf(t->msg, sizeof t->msg, "Tile %s fits nowhere: Enter discards it (n: next tile).",
                 carc_tile_id(next));
}

static int is_enter(int ch)
{
    return ch == '\n' || ch == '\r' || ch == KEY_ENTER;
}

static void place_key(tui *t, int ch)
{
    if (is_enter(ch)) {
        if (t->nlegal == 0) {
            carc_move m = {.type = CARC_MOVE_DISCARD, .segment = CARC_NO_SPOT};
            play_move(t, m);
        } else {
            enter_spot_step(t);
        }
    } else if (ch == 'r' || ch == ' ') {
        rotate(t, 1);
    } else if (ch == 'R') {
        rotate(t, -1);
    } else if (ch == '\t' || ch == KEY_BTAB) {
        next_legal_square(t, ch == '\t' ? 1 : -1);
    } else if (ch == 'i') {
        start_inspector(t);
    } else if (ch == 'u') {
        undo(t);
    } else if ((ch == 'n' || ch == 'N') && carc_game_rules(t->s.g).hand > 0) {
        next_hand_tile(t, ch == 'n' ? 1 : -1);
    } else if (ch >= '1' && ch < '1' + t->nhints) {
        take_hint(t, ch - '1');
    } else {
        view_key(t, ch);
    }
}

static void spot_key(tui *t, int ch)
{
    if (ch == KEY_ESC) {
        t->step = STEP_PLACE;
    } else if (ch >= '0' && ch <= '9' && ch - '0' <= t->nspots) {
        t->spot = ch - '1';
        enter_confirm(t);
    } else if (ch >= '0' && ch <= '9') {
        snprintf(t->msg, sizeof t->msg, "This tile has no spot %c: %s%d, or 0 for none.", ch,
                 t->nspots > 1 ? "1 to " : "", t->nspots);
    } else if (ch == '\t' || ch == KEY_DOWN || ch == KEY_RIGHT) {
        t->spot = t->spot + 1 >= t->nspots ? -1 : t->spot + 1;
    } else if (ch == KEY_BTAB || ch == KEY_UP || ch == KEY_LEFT) {
        t->spot = t->spot < 0 ? t->nspots - 1 : t->spot - 1;
    } else if (ch == 'l') {
        switch_figure(t);
        load_spots(t, t->figure);
    } else if (ch == 'f') {
        cycle_figure(t);
    } else if (is_enter(ch)) {
        enter_confirm(t);
    }
}

static void confirm_key(tui *t, int ch)
{
    if (is_enter(ch)) {
        carc_move m = current_move(t);
        t->msg[0] = '\0';
        play_move(t, m);
    } else if (ch == KEY_ESC) {
        drop_preview(t);
        t->step = t->nspots > 0 ? STEP_SPOT : STEP_PLACE;
        t->msg[0] = '\0';
    }
}

static void inspect_key(tui *t, int ch)
{
    int index = carc_game_tile_at(t->s.g, t->cx, t->cy);
    if (ch == KEY_ESC || ch == 'i') {
        t->inspecting = 0;
    } else if (ch == '\t' || ch == ' ' || ch == KEY_BTAB) {
        carc_tile_on_board tile;
        if (index >= 0 && carc_game_tile_info(t->s.g, index, &tile) == CARC_OK) {
            int n = carc_tile(tile.kind)->nsegments;
            t->inspect_seg = (t->inspect_seg + (ch == KEY_BTAB ? n - 1 : 1)) % n;
        }
    } else if (view_key(t, ch)) {
        t->inspect_seg = 0;
    }
}

/* n and p at the end: the next (previous) feature of the final scoring,
 * highlighted and centred; past the last one, the whole board again. */
static void step_final(tui *t, int step)
{
    int n = t->s.nfinal;
    if (n == 0) {
        snprintf(t->msg, sizeof t->msg, "No feature scored at the end.");
        return;
    }
    t->final_step += step;
    if (t->final_step >= n)
        t->final_step = -1;
    else if (t->final_step < -1)
        t->final_step = n - 1;
    if (t->final_step < 0) {
        begin_end_screen(t);
        return;
    }
    const carc_event *ev = &t->s.final_events[t->final_step];
    char text[96];
    session_event_text(ev, text, sizeof text);
    snprintf(t->msg, sizeof t->msg, "Final scoring %d of %d: %s. n: next, p: back.",
             t->final_step + 1, n, text);
    if (ev->bonus == CARC_BONUS_GOODS) /* a goods majority: no feature to show */
        return;
    t->cx = ev->x;
    t->cy = ev->y;
    follow_cursor(t, 1);
}

static void over_key(tui *t, int ch)
{
    if (ch == 'i')
        start_inspector(t);
    else if (ch == 'u')
        undo(t);
    else if (ch == 'n' || ch == '\t')
        step_final(t, 1);
    else if (ch == 'p' || ch == KEY_BTAB)
        step_final(t, -1);
    else
        view_key(t, ch);
}

/* --- Save and quit ------------------------------------------------------------------ */

static void ask_save(tui *t, int then_quit)
{
    t->prompt = PROMPT_SAVE;
    t->quit_after_save = then_quit;
    size_t dir_len = strlen(t->save_dir);
    const char *saved = t->s.saved_path;
    char name[SESSION_PATH_MAX];
    if (saved[0] && strncmp(saved, t->save_dir, dir_len) == 0 && saved[dir_len] == '/' &&
        !strchr(saved + dir_len + 1, '/'))
        snprintf(name, sizeof name, "%s", saved + dir_len + 1); /* in the folder */
    else if (saved[0])
        saves_short(saved, name, sizeof name);
    else
        snprintf(name, sizeof name, "carcassonne-%llu.rec", (unsigned long long)t->s.seed);
    line_edit_set(&t->input, name, 1); /* a default: typing replaces it */
}

/* Saves to what the prompt names: a bare name in the saves folder (made
 * when needed), a path as typed. */
static void save_to_input(tui *t)
{
    char name[SESSION_PATH_MAX], path[SESSION_PATH_MAX], err[SESSION_PATH_MAX + 64];
    int named = saves_file_name(t->input.text, name, sizeof name);
    if (named == -1) {
        snprintf(t->msg, sizeof t->msg, "Not saved: name a file, not a folder.");
        return;
    }
    if (named != 0 || saves_resolve(t->save_dir, name, path, sizeof path) != 0) {
        snprintf(t->msg, sizeof t->msg, "Not saved: that name is too long.");
        return;
    }
    if (!strchr(name, '/') && saves_make_dir(t->save_dir) != 0) {
        snprintf(t->msg, sizeof t->msg, "Cannot make the folder %s: %s", t->save_dir,
                 strerror(errno));
        return;
    }
    if (session_save(&t->s, path, err, sizeof err) != 0) {
        snprintf(t->msg, sizeof t->msg, "Not saved: %s", err);
        return;
    }
    char shown[SESSION_PATH_MAX];
    saves_short(t->s.saved_path, shown, sizeof shown);
    saves_resume_command(t->s.saved_path, t->resume, sizeof t->resume);
    session_log(&t->s, "Saved to %s", shown);
    session_log(&t->s, "To resume: %s", t->resume);
    int len = snprintf(t->msg, sizeof t->msg, "Saved to %s (the log says how to resume)", shown);
    if (len >= COLS) /* a long path: the log has it in full */
        snprintf(t->msg, sizeof t->msg, "Saved; the log says where and how to resume.");
    t->quit = t->quit_after_save;
}

static void ask_quit(tui *t)
{
    if (t->s.dirty)
        t->prompt = PROMPT_QUIT;
    else
        t->quit = 1;
}

/* The curses keys the save prompt edits with, as line_edit keys. */
static int line_key(int ch)
{
    switch (ch) {
    case KEY_LEFT: return LINE_KEY_LEFT;
    case KEY_RIGHT: return LINE_KEY_RIGHT;
    case KEY_HOME: return LINE_KEY_HOME;
    case KEY_END: return LINE_KEY_END;
    case KEY_DC: return LINE_KEY_DELETE;
    case KEY_BACKSPACE: return 127;
    default: return ch >= 0 && ch < 128 ? ch : -1;
    }
}

static void save_prompt_key(tui *t, int ch)
{
    if (ch == KEY_ESC) {
        t->prompt = PROMPT_NONE;
    } else if (is_enter(ch) && t->input.len > 0) {
        t->prompt = PROMPT_NONE;
        save_to_input(t);
    } else {
        line_edit_key(&t->input, line_key(ch));
    }
}

static void quit_prompt_key(tui *t, int ch)
{
    t->prompt = PROMPT_NONE;
    if (ch == 'y' || ch == 'Y')
        t->quit = 1;
    else if (ch == 's' || ch == 'S')
        ask_save(t, 1);
}

/* --- Keys ------------------------------------------------------------------------------ */

static void cancel_worker(tui *t)
{
    ai_worker_cancel(&t->worker);
    if (t->step == STEP_HINT)
        t->step = STEP_PLACE;
}

/* [ and ]: the log back and forth by most of its height; nothing while
 * the panel has no room for it. */
static void scroll_log(tui *t, int dir)
{
    if (t->log_room <= 0) {
        if (t->step != STEP_CONFIRM) /* the question stays */
            snprintf(t->msg, sizeof t->msg, "The panel has no room for the log at this size.");
        return;
    }
    layout l = tui_layout(t);
    int page = t->log_room > 2 ? t->log_room - 1 : 1;
    int most = panel_log_rows(t, &l, 0) - t->log_room;
    /* From where the window is: a window kept at the log's start (after a
     * resize, or with more room now) may count more rows back than it shows. */
    t->log_scroll = t->log_scroll > most ? most : t->log_scroll;
    t->log_scroll += dir * page;
    t->log_scroll = t->log_scroll > most ? most : t->log_scroll;
    t->log_scroll = t->log_scroll < 0 ? 0 : t->log_scroll;
}

/* Keys that work in every step; returns 1 when `ch` was one. */
static int global_key(tui *t, int ch)
{
    if (ch == 'q' || ch == KEY_CTRL_C) {
        ask_quit(t);
        return 1;
    }
    if (ch == 's') {
        ask_save(t, 0);
        return 1;
    }
    if (ch == '?') {
        t->overlay = OVERLAY_HELP;
        t->help_page = 0;
        return 1;
    }
    if (ch == 't') {
        t->overlay = OVERLAY_TILES;
        t->help_page = 0;
        return 1;
    }
    if (ch == '[' || ch == ']' || ch == KEY_PPAGE || ch == KEY_NPAGE) {
        scroll_log(t, ch == '[' || ch == KEY_PPAGE ? 1 : -1);
        return 1;
    }
    return 0;
}

/* On the help: Space, PgDn or Right the next page, after the last the
 * board's symbols; PgUp or Left the page before. 1 when `ch` was one of
 * them (any other key leaves the help). */
static int help_key(tui *t, const layout *l, int ch)
{
    if (ch == ' ' || ch == KEY_NPAGE || ch == KEY_RIGHT) {
        if (t->help_page + 1 < help_page_count(t, l))
            t->help_page++;
        else
            t->overlay = OVERLAY_LEGEND;
        return 1;
    }
    if ((ch == KEY_PPAGE || ch == KEY_LEFT) && t->help_page > 0) {
        t->help_page--;
        return 1;
    }
    return 0;
}

/* On the tiles screen: Space, PgDn or Right its next page (after the last
 * back to the game); PgUp or Left the page before. 1 when `ch` was one of
 * them (any other key leaves the screen). */
static int tiles_key(tui *t, const layout *l, int ch)
{
    if ((ch == ' ' || ch == KEY_NPAGE || ch == KEY_RIGHT) &&
        t->help_page + 1 < tiles_page_count(t, l)) {
        t->help_page++;
        return 1;
    }
    if ((ch == KEY_PPAGE || ch == KEY_LEFT) && t->help_page > 0) {
        t->help_page--;
        return 1;
    }
    return 0;
}

static int too_small(const layout *l)
{
    return l->cols < MIN_COLS || l->lines < MIN_LINES;
}

/* While the terminal is too small to show the game, only quitting works:
 * nothing is done blind. */
static void too_small_key(tui *t, int ch)
{
    if (t->prompt == PROMPT_QUIT)
        quit_prompt_key(t, ch);
    else if (ch == 'q' || ch == KEY_CTRL_C)
        ask_quit(t);
    if (t->prompt == PROMPT_SAVE) { /* "save first": there is no room to type a name */
        t->prompt = PROMPT_NONE;
        snprintf(t->msg, sizeof t->msg, "Enlarge the terminal to save.");
    }
}

static void handle_key(tui *t, int ch)
{
    layout l = tui_layout(t);
    if (ch == KEY_RESIZE || ch == KEY_CTRL_L) {
        follow_cursor(t, !too_small(&l)); /* centred again once there is room */
        clearok(stdscr, TRUE);
        return;
    }
    if (too_small(&l)) {
        too_small_key(t, ch);
        return;
    }
    if (t->overlay == OVERLAY_HELP && help_key(t, &l, ch))
        return;
    if (t->overlay == OVERLAY_TILES && tiles_key(t, &l, ch))
        return;
    if (t->overlay != OVERLAY_NONE) {
        t->overlay = OVERLAY_NONE;
        return;
    }
    if (t->prompt == PROMPT_SAVE) {
        save_prompt_key(t, ch);
        return;
    }
    if (t->prompt == PROMPT_QUIT) {
        quit_prompt_key(t, ch);
        return;
    }
    if (global_key(t, ch))
        return;
    if (t->step != STEP_CONFIRM)
        t->msg[0] = '\0';
    if (t->step == STEP_HINT && ch == KEY_ESC)
        cancel_worker(t);
    else if (t->inspecting)
        inspect_key(t, ch);
    else if (t->step == STEP_PLACE && ch == 'h' && t->nlegal > 0)
        start_hint(t);
    else if (t->step == STEP_PLACE)
        place_key(t, ch);
    else if (t->step == STEP_SPOT)
        spot_key(t, ch);
    else if (t->step == STEP_CONFIRM)
        confirm_key(t, ch);
    else if (t->step == STEP_OVER)
        over_key(t, ch);
    else if (t->step == STEP_COMPUTER && ch == 'i')
        start_inspector(t);
    else if (t->step == STEP_COMPUTER)
        view_key(t, ch);
}

/* --- Screen ---------------------------------------------------------------------------- */

/* log_scroll counts rows at the width the log was last drawn at; at
 * another (a resize across 110 columns) the lines wrap to other rows, and
 * the same count would show other lines. Counts it again at `width` for
 * the same lines: the line that held the window's last row ends the
 * window, whole; a window at the log's start stays there. Lines 0 to
 * n - 1 are those drawn then (the rest came in since). */
static void rewrap_log_place(tui *t, int n, int width)
{
    int was = t->log_width, total = 0;
    for (int i = 0; i < n; i++)
        total += panel_log_line_rows(t, i, was);
    int last = n - 1, below = 0; /* below: rows of the lines under `last` */
    if (t->log_scroll >= total - t->log_room) {
        last = -1; /* every line below the window: the panel clamps it to the start */
    } else {
        while (last > 0 && below + panel_log_line_rows(t, last, was) <= t->log_scroll)
            below += panel_log_line_rows(t, last--, was);
    }
    t->log_scroll = 0;
    for (int i = last + 1; i < n; i++)
        t->log_scroll += panel_log_line_rows(t, i, width);
}

/* A log scrolled back stays on the same lines while new ones come in:
 * back by the rows of the new lines, whatever a full log drops from its
 * start to keep them; and when the panel's width changes. */
static void keep_log_place(tui *t, const layout *l)
{
    int added = t->s.logged - t->log_seen, width = panel_log_width(l);
    added = added < t->s.nlog ? added : t->s.nlog;
    if (t->log_scroll > 0 && t->log_width > 0 && t->log_width != width)
        rewrap_log_place(t, t->s.nlog - added, width);
    if (t->log_scroll > 0 && added > 0)
        t->log_scroll += panel_log_rows(t, l, t->s.nlog - added);
    t->log_seen = t->s.logged;
    t->log_width = width;
}

static void render(tui *t)
{
    erase();
    tui_view v = tui_view_of(t);
    if (too_small(&v.l)) {
        too_small_draw(t, &v.l);
    } else if (t->overlay != OVERLAY_NONE) {
        overlay_draw(t, &v);
    } else {
        header_draw(t, &v);
        board_draw(t, &v);
        keep_log_place(t, &v.l);
        t->log_room = panel_draw(t, &v);
        footer_draw(t, &v.l);
    }
    refresh();
}

/* What the keyboard may do while the computer thinks: look around (the
 * inspector and its keys, tiles left, overview, pan, the log), save,
 * quit; never start the human's next move. */
static int key_while_thinking(const tui *t, int ch)
{
    if (t->inspecting && (ch == KEY_UP || ch == KEY_DOWN || ch == KEY_LEFT || ch == KEY_RIGHT ||
                          ch == '\t' || ch == KEY_BTAB || ch == ' ' || ch == KEY_ESC))
        return 1;
    return (ch > 0 && ch < 128 && strchr("qs?tfcHJKLi[]", ch)) || ch == KEY_CTRL_C ||
           ch == KEY_RESIZE || ch == KEY_SLEFT || ch == KEY_SRIGHT || ch == KEY_SR ||
           ch == KEY_SF || ch == KEY_PPAGE || ch == KEY_NPAGE;
}

static void run(tui *t)
{
    begin_turn(t);
    follow_cursor(t, 1);
    while (!t->quit) {
        if (ai_worker_busy(&t->worker) && ai_worker_poll(&t->worker))
            finish_worker(t);
        render(t);
        int ch = getch();
        t->spinner++;
        if (ch == ERR)
            continue;
        if (t->step == STEP_COMPUTER && t->prompt == PROMPT_NONE && t->overlay == OVERLAY_NONE &&
            !key_while_thinking(t, ch))
            continue; /* no type-ahead into the human's next turn */
        handle_key(t, ch);
    }
    ai_worker_cancel(&t->worker);
}

static void start_curses(tui *t)
{
    setlocale(LC_ALL, "");
    set_escdelay(25);
    initscr();
    raw();
    noecho();
    keypad(stdscr, TRUE);
    /* Keys typed before the game showed (while a script built it) were not
     * meant for it: a 'q' would end the game unseen. */
    flushinp();
    timeout(POLL_MS);
    curs_set(0);
    board_setup_colors(t);
}

int cmd_play(int argc, char **argv)
{
    static tui t; /* the one game of this process; large (undo snapshots) */
    char err[600];
    memset(&t, 0, sizeof t);
    if (play_parse_options(argc, argv, &t.opt, err, sizeof err) != 0) {
        return cli_usage_error("play", "%s", err);
    }
    if (t.opt.help) {
        fputs(play_usage, stdout);
        return 0;
    }
    const char *no_color = getenv("NO_COLOR");
    if (t.opt.color < 0 && no_color && *no_color)
        t.opt.color = 0;
    int status = session_open(&t.s, &t.opt, err, sizeof err);
    if (status != SESSION_OK) {
        fprintf(stderr, "carcassonne play: %s\n", err);
        session_close(&t.s);
        return status == SESSION_INVALID ? 1 : 2;
    }
    /* Without a terminal on both sides curses would wait for keys that
     * never come (a pipe, /dev/null, a script's output). */
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fprintf(stderr, "carcassonne play: needs a terminal: its standard input and output "
                        "are not one (for games without one: selfplay, arena, engine)\n");
        session_close(&t.s);
        return 2;
    }
    if (saves_dir(t.opt.save_dir, t.save_dir, sizeof t.save_dir) != 0)
        snprintf(t.save_dir, sizeof t.save_dir, "."); /* no HOME: the working folder */
    start_curses(&t);
    run(&t);
    endwin();
    if (t.resume[0]) /* where the game went, once the screen is back */
        printf("The game is saved in %s\nTo resume it: %s\n", t.s.saved_path, t.resume);
    drop_preview(&t);
    carc_player_free(t.hinter);
    session_close(&t.s);
    return 0;
}
