/* tui.h: the state of the terminal game shared by its screen modules
 * (board.c, panel.c) and its loop (play.c); the loop passes the drawing
 * each frame's view (view.h). */
#ifndef CARC_TUI_TUI_H
#define CARC_TUI_TUI_H

#include "ai_worker.h"
#include "describe.h"
#include "line_edit.h"
#include "session.h"
#include "square_view.h"
#include "tile_info.h"
#include "view.h"

/* Where the human is in a turn; nothing is played before STEP_CONFIRM
 * is confirmed. */
typedef enum tui_step {
    STEP_PLACE,    /* choosing a square and a rotation */
    STEP_SPOT,     /* choosing a follower spot or none */
    STEP_CONFIRM,  /* the move shown as it would stand */
    STEP_COMPUTER, /* a computer player is thinking */
    STEP_HINT,     /* the hint search is running */
    STEP_OVER,     /* the game has ended */
} tui_step;

/* Screens over the game: the help (keys and rules), its second page (the
 * board's symbols), the tiles left. */
typedef enum tui_overlay { OVERLAY_NONE, OVERLAY_HELP, OVERLAY_LEGEND, OVERLAY_TILES } tui_overlay;
typedef enum tui_prompt { PROMPT_NONE, PROMPT_SAVE, PROMPT_QUIT } tui_prompt;

enum { HINTS = 3, PANEL_W = 30, MIN_COLS = 80, MIN_LINES = 24 };

/* A player's last placement, outlined on the board. */
typedef struct last_move {
    int turn; /* 1-based move number; 0: none yet */
    int x, y;
} last_move;

typedef struct tui {
    session s;
    play_options opt;
    tui_step step;
    tui_overlay overlay;
    int help_page; /* the help's or the tiles screen's page shown (0-based) */
    tui_prompt prompt;
    line_edit input;                     /* the save prompt's text */
    char save_dir[SESSION_PATH_MAX];     /* where a bare name is saved */
    char resume[SESSION_PATH_MAX + 600]; /* the command that resumes the last save */
    int quit_after_save;
    int color; /* colour pairs are set up */
    int quit;

    /* The cursor (a board square), the view's top-left square, the zoom. */
    int cx, cy, vx, vy;
    int zoomed;
    int inspecting, inspect_seg;

    /* The human's move in progress. */
    int rot;
    carc_placement legal[CARC_MAX_PLACEMENTS];
    int nlegal;
    carc_spot spots[CARC_MAX_SPOTS];
    int nspots, spot;   /* spot: index into spots, -1 for no follower */
    int figure;         /* carc_figure the spot gets (l switches, Inns & Cathedrals) */
    carc_game *preview; /* the game after the move, in STEP_CONFIRM */
    carc_event pevents[CARC_MAX_EVENTS];
    int npevents;

    tile_square dead[TILE_INFO_MAX_SQUARES];
    int ndead;
    last_move last[CARC_MAX_PLAYERS];

    carc_player *hinter; /* made on the first hint */
    carc_move_eval hints[HINTS];
    int nhints;
    ai_worker worker;
    int spinner;
    int log_scroll; /* log rows scrolled back from the newest, at log_width */
    int log_room;   /* log rows the panel showed last time */
    int log_seen;   /* s.logged when the log was drawn last */
    int log_width;  /* the width the log was wrapped to last time; 0: never drawn */
    int final_step; /* at the end: the scored feature shown, -1 for none */
    char msg[SESSION_PATH_MAX * 2 + 160];
} tui;

/* board.c */
void board_setup_colors(tui *t);
void board_draw(const tui *t, const tui_view *v);
/* Attribute of a player's letter (colour pair and bold). */
int board_player_attr(const tui *t, int player);
/* Draws a tile picture at a screen position (the panel's drawn tile). */
void board_draw_tile_at(const tui *t, int row, int col, int kind, int rot);

/* panel.c */
/* Draws the side panel; returns the rows its log showed. */
int panel_draw(const tui *t, const tui_view *v);
/* The width the log's lines wrap to in the panel. */
int panel_log_width(const layout *l);
/* Rows log line `line` takes wrapped to `width`. */
int panel_log_line_rows(const tui *t, int line, int width);
/* Rows the log's lines from `first` (0: the oldest) on take at the panel's
 * width. */
int panel_log_rows(const tui *t, const layout *l, int first);
void header_draw(const tui *t, const tui_view *v);
void footer_draw(const tui *t, const layout *l);
void overlay_draw(const tui *t, const tui_view *v);
/* The help's pages at this screen size (help.h: the game's rules only). */
int help_page_count(const tui *t, const layout *l);
/* The tiles screen's (t) pages at this screen size. */
int tiles_page_count(const tui *t, const layout *l);
/* What a terminal too small for the game shows, wrapped to its width. */
void too_small_draw(const tui *t, const layout *l);

#endif
