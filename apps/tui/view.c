/* view.c: one frame of the terminal game worked out from its state: the
 * layout, the game shown, what is highlighted, whose hands may be shown,
 * who plays each seat. */
#define _XOPEN_SOURCE_EXTENDED 1
#include "view.h"

#include <curses.h>

#include "tui.h"

layout tui_layout(const tui *t)
{
    layout l;
    l.cols = COLS;
    l.lines = LINES;
    l.panel_w = l.cols >= 110 ? 36 : PANEL_W;
    l.panel_x = l.cols - l.panel_w;
    l.board_x = 0;
    l.board_y = 1;
    l.board_w = l.panel_x;
    l.board_h = l.lines - 3;
    l.square_w = t->zoomed ? ZOOM_W : TILE_ART_W;
    l.square_h = t->zoomed ? ZOOM_H : TILE_ART_H;
    l.view_w = l.board_w / l.square_w;
    l.view_h = l.board_h / l.square_h;
    l.view_w = l.view_w < 1 ? 1 : l.view_w;
    l.view_h = l.view_h < 1 ? 1 : l.view_h;
    return l;
}

int tui_square_legal(const tui *t, int x, int y)
{
    for (int i = 0; i < t->nlegal && i < CARC_MAX_PLACEMENTS; i++)
        if (t->legal[i].x == x && t->legal[i].y == y)
            return 1;
    return 0;
}

int tui_hands_hidden(const carc_game *g)
{
    carc_rules r = carc_game_rules(g);
    return r.hand > 0 && !(r.flags & CARC_RULE_OPEN_HANDS) && !carc_game_over(g);
}

static int inspected_feature(const tui *t)
{
    if (!t->inspecting)
        return -1;
    int index = carc_game_tile_at(t->s.g, t->cx, t->cy);
    return index < 0 ? -1 : carc_game_feature(t->s.g, index, t->inspect_seg);
}

static int inspecting_river(const tui *t)
{
    int index = t->inspecting ? carc_game_tile_at(t->s.g, t->cx, t->cy) : -1;
    carc_tile_on_board tile;
    if (index < 0 || carc_game_tile_info(t->s.g, index, &tile) != CARC_OK)
        return 0;
    const carc_tile_def *def = carc_tile(tile.kind);
    return t->inspect_seg < def->nsegments && def->segments[t->inspect_seg].kind == CARC_RIVER;
}

static const char *seat_label(const tui *t, int p)
{
    if (p < 0 || p >= t->s.nseats)
        return "?";
    if (t->s.seats[p].player)
        return t->s.seats[p].spec;
    return t->s.computers > 0 && t->s.nseats - t->s.computers == 1 ? "you" : "human";
}

static const char *seat_short_label(const tui *t, int p)
{
    if (p >= 0 && p < t->s.nseats && t->s.seats[p].player)
        return t->s.seats[p].short_name;
    return seat_label(t, p);
}

static void highlight(tui_view *v, int feature)
{
    if (feature >= 0 && v->nhighlighted < CARC_MAX_EVENTS)
        v->highlighted[v->nhighlighted++] = feature;
}

static void highlights(const tui *t, tui_view *v)
{
    if (t->inspecting) {
        highlight(v, v->inspected_feature);
    } else if (t->step == STEP_CONFIRM) {
        for (int i = 0; i < t->npevents && i < CARC_MAX_EVENTS; i++)
            if (t->pevents[i].complete)
                highlight(v, t->pevents[i].feature);
    } else if (t->step == STEP_OVER && t->final_step >= 0 && t->final_step < t->s.nfinal) {
        highlight(v, t->s.final_events[t->final_step].feature);
    }
}

/* The seat whose hand the screen shows: the human to move, else the
 * human who moved last, else the first human; -1 without one. */
static int hand_viewer(const tui *t)
{
    const carc_game *g = t->s.g;
    if (!carc_game_over(g) && session_is_human(&t->s, carc_game_current_player(g)))
        return carc_game_current_player(g);
    for (int i = carc_game_move_count(g) - 1; i >= 0; i--)
        if (session_is_human(&t->s, carc_game_move_player(g, i)))
            return carc_game_move_player(g, i);
    for (int p = 0; p < carc_game_players(g); p++)
        if (session_is_human(&t->s, p))
            return p;
    return -1;
}

tui_view tui_view_of(const tui *t)
{
    tui_view v = {.l = tui_layout(t)};
    v.shown = t->step == STEP_CONFIRM && t->preview ? t->preview : t->s.g;
    v.inspected_feature = inspected_feature(t);
    v.inspecting_river = inspecting_river(t);
    highlights(t, &v);
    int hidden = tui_hands_hidden(t->s.g), viewer = hidden ? hand_viewer(t) : -1;
    for (int p = 0; p < CARC_MAX_PLAYERS; p++) {
        if (!hidden || p == viewer)
            v.hands_shown |= 1u << p;
        v.seat_label[p] = seat_label(t, p);
        v.seat_short[p] = seat_short_label(t, p);
    }
    return v;
}
