/* view.h: what one frame of the terminal game shows, worked out once by
 * the loop (play.c) from its state and passed down to the drawing
 * (board.c, panel.c), which calls nothing above it. */
#ifndef CARC_TUI_VIEW_H
#define CARC_TUI_VIEW_H

#include "carcassonne.h"

struct tui;

/* Screen areas of the current terminal size. */
typedef struct layout {
    int cols, lines;
    int board_x, board_y, board_w, board_h; /* in cells */
    int panel_x, panel_w;
    int square_w, square_h; /* cells per board square */
    int view_w, view_h;     /* board squares in view */
} layout;

typedef struct tui_view {
    layout l;
    /* The game the board shows: the preview in STEP_CONFIRM, else the game. */
    const carc_game *shown;
    int inspected_feature; /* the feature under the inspector, or -1 */
    int inspecting_river;  /* the inspector is on a river segment (no feature) */
    /* The features drawn highlighted: the inspected one, those the move
     * being confirmed completes, the final scoring's feature shown. */
    int highlighted[CARC_MAX_EVENTS];
    int nhighlighted;
    /* Bit p: player p's hand may be shown (always without hidden hands:
     * open hands, the end, or no hand; else only the viewer's, the human
     * to move, else the human who moved last, else the first human). */
    unsigned hands_shown;
    /* Who plays each seat: "you", "human" or the computer's spec; short:
     * a computer's kind and level ("mcts hard"), no options. */
    const char *seat_label[CARC_MAX_PLAYERS];
    const char *seat_short[CARC_MAX_PLAYERS];
} tui_view;

/* The layout of the terminal's current size for `t`'s zoom. */
layout tui_layout(const struct tui *t);
/* The frame `t` shows (pointing into `t`: valid while `t` is unchanged). */
tui_view tui_view_of(const struct tui *t);
/* Whether the drawn tile fits at (x, y) in some rotation. */
int tui_square_legal(const struct tui *t, int x, int y);
/* Whether the game's hands are hidden from the other seats now (hand=N,
 * not open hands, the game not over). */
int tui_hands_hidden(const carc_game *g);

static inline int view_hand_shown(const tui_view *v, int p)
{
    return p >= 0 && p < CARC_MAX_PLAYERS && (v->hands_shown >> p & 1u);
}

static inline int view_highlighted(const tui_view *v, int feature)
{
    for (int i = 0; i < v->nhighlighted; i++)
        if (v->highlighted[i] == feature)
            return feature >= 0;
    return 0;
}

#endif
