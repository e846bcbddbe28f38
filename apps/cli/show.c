/* show.c: `carcassonne show`: draw the board of a game record as text, at
 * the end of the record or move by move. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "cli.h"
#include "words.h"
#include "tile_art.h"

static const char show_usage[] =
    "usage: carcassonne show [--step [--delay MS]] [--color|--no-color] [--last N]\n"
    "                        FILE\n"
    "\n"
    "Draws the board of the game record FILE ('-' for standard input), with\n"
    "the players' scores, their followers in supply and the tiles left. The\n"
    "record's `expansions` line (e.g. `expansions river inns-cathedrals`)\n"
    "decides the tiles and the start tile; tile ids have one or two letters\n"
    "(RD, IK, TX). Inns & Cathedrals' large follower shows as its owner's\n"
    "letter twice (RR, or rr on a field); Traders & Builders' goods as\n"
    "\u2207 wine, \u00a5 grain, # cloth in their city, the builder as its owner's\n"
    "letter in a circle (\u24c7), the pig as the small one (\u24e1).\n"
    "\n"
    "  --step        replay the record and draw the board after every move,\n"
    "                with the move and what it scored\n"
    "  --delay MS    with --step (only), wait MS milliseconds between moves\n"
    "                (default 0)\n"
    "  --color       colour the board even when not writing to a terminal\n"
    "  --no-color    never colour (so does a non-empty NO_COLOR variable)\n"
    "  --last N      mark the tiles of the last N moves and list those moves\n"
    "                (default 1); with --step, step through the last N only\n"
    "  --            the end of the options: a FILE after it may begin with '-'\n"
    "\n"
    "Labels give each square's X (above) and Y (left) as in the record;\n"
    "[brackets] mark the last move's square. Followers show as their owner's\n"
    "letter, R B Y G K W P I for Red, Blue, Yellow, Green, Black, Grey, Purple,\n"
    "Pink; a farmer's letter is lower case. On a bounded table (rule\n"
    "table=WxH) the whole table is drawn, framed by its edge, with a dot in\n"
    "each of its empty squares.\n"
    "\n"
    "Exit status: 0 shown, 1 invalid record ('line N: ...' on standard\n"
    "error), 2 bad arguments or unreadable FILE.\n";

enum {
    LABEL_W = 6,              /* the row labels' margin */
    MAX_DELAY_MS = 60 * 1000, /* a minute between moves is slow enough */
    COORDS = 256,             /* board coordinates are int8_t */
};

typedef struct show_options {
    int help;
    int step;
    uint64_t delay_ms;
    int color; /* 1 or 0 when forced, -1 when the terminal decides */
    int last;  /* -1 unless --last N was given */
    const char *path;
} show_options;

/* ANSI SGR parameters. A cell is drawn in its ink on its ground's colour
 * (an ink may set its own background: the cloister's); a follower in its
 * owner's colours, whatever it stands on. */
typedef struct palette {
    const char *ground[2][2];             /* [on a city][marked tile] */
    const char *ink[TILE_ART_FOLLOWER];   /* by tile_art_what */
    const char *player[CARC_MAX_PLAYERS]; /* background and letter */
    const char *water;                    /* The River's water, and any cell kind without an ink */
} palette;

static const palette palette_256 = {
    .ground = {{"48;5;28", "48;5;107"}, {"48;5;180", "48;5;223"}},
    .ink = {[TILE_ART_FIELD] = "38;5;34",   /* grass */
            [TILE_ART_CITY] = "38;5;137",   /* roofs */
            [TILE_ART_WALL] = "1;38;5;52",  /* dark brown */
            [TILE_ART_ROAD] = "1;38;5;231", /* white */
            [TILE_ART_JUNCTION] = "1;38;5;231",
            [TILE_ART_CLOISTER] = "1;38;5;231;48;5;124", /* white on red */
            [TILE_ART_PENNANT] = "1;38;5;21",            /* the shields' blue */
            [TILE_ART_INN] = "1;38;5;160",               /* a red roof */
            [TILE_ART_CATHEDRAL] = "1;38;5;231;48;5;124",
            [TILE_ART_GOODS] = "1;38;5;90"}, /* the goods' purple */
    .player = {"48;5;160;38;5;231", "48;5;27;38;5;231", "48;5;226;38;5;16", "48;5;46;38;5;16",
               "48;5;16;38;5;231", "48;5;250;38;5;16"},
    .water = "1;38;5;231;48;5;32", /* white waves on water blue */
};

/* For terminals without 256 colours. */
static const palette palette_16 = {
    .ground = {{"42", "102"}, {"43", "103"}},
    .ink = {[TILE_ART_FIELD] = "32",
            [TILE_ART_CITY] = "33",
            [TILE_ART_WALL] = "30",
            [TILE_ART_ROAD] = "1;97",
            [TILE_ART_JUNCTION] = "1;97",
            [TILE_ART_CLOISTER] = "1;97;41",
            [TILE_ART_PENNANT] = "1;34",
            [TILE_ART_INN] = "1;31",
            [TILE_ART_CATHEDRAL] = "1;97;41",
            [TILE_ART_GOODS] = "1;35"},
    .player = {"41;97", "44;97", "103;30", "102;30", "40;97", "47;30"},
    .water = "1;97;44",
};

typedef struct show_style {
    const palette *colors; /* NULL: plain text */
    int clear;             /* clear the screen before each frame */
    int width;             /* columns to fit the board in; 0: no limit */
} show_style;

/* One move as replayed, with what it scored. */
typedef struct move_report {
    int index; /* in the record; the move count for the record's `end` */
    int mover;
    int nevents;
    carc_event events[CARC_MAX_EVENTS];
} move_report;

/* What one picture shows: a position, the moves that led to it (none for a
 * position shown before any move), and which tiles to mark. */
typedef struct frame {
    const carc_game *g;
    int total_moves;
    int first_marked; /* board tiles from this index on are marked */
    const move_report *reports;
    int nreports;
} frame;

/* --- Options and terminal ------------------------------------------------- */

static int parse_number(const char *opt, const char *s, uint64_t max, uint64_t *out)
{
    if (!s)
        return cli_usage_error("show", "%s needs a number", opt);
    if (cli_parse_u64(s, out) != 0 || *out > max)
        return cli_usage_error("show", "%s takes a number from 0 to %llu, not '%s'", opt,
                               (unsigned long long)max, s);
    return EXIT_OK;
}

static int parse_options(int argc, char **argv, show_options *opt)
{
    *opt = (show_options){.color = -1, .last = -1};
    int operands = 0, delay = 0; /* after "--"; --delay was given */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint64_t n = 0;
        int status = EXIT_OK;
        if (operands) {
            if (opt->path)
                return cli_usage_error("show", "only one FILE, please");
            opt->path = a;
        } else if (strcmp(a, "--") == 0) {
            operands = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            opt->help = 1;
            return EXIT_OK;
        } else if (strcmp(a, "--step") == 0) {
            opt->step = 1;
        } else if (strcmp(a, "--color") == 0 || strcmp(a, "--no-color") == 0) {
            opt->color = strcmp(a, "--color") == 0;
        } else if (strcmp(a, "--delay") == 0) {
            status = parse_number(a, i + 1 < argc ? argv[++i] : NULL, MAX_DELAY_MS, &opt->delay_ms);
            delay = 1;
        } else if (strcmp(a, "--last") == 0) {
            status = parse_number(a, i + 1 < argc ? argv[++i] : NULL, 10000, &n);
            opt->last = (int)n;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage_error("show", "unknown option '%s'", a);
        } else if (opt->path) {
            return cli_usage_error("show", "only one FILE, please");
        } else {
            opt->path = a;
        }
        if (status != EXIT_OK)
            return status;
    }
    if (!opt->path)
        return cli_usage_error("show", "a FILE is needed");
    /* The wait is between the frames of --step: one picture has none. */
    if (delay && !opt->step)
        return cli_usage_error("show", "--delay goes with --step");
    return EXIT_OK;
}

static int color_wanted(int forced)
{
    if (forced >= 0)
        return forced;
    const char *term = getenv("TERM"), *no_color = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && term && strcmp(term, "dumb") != 0 && !(no_color && *no_color);
}

static const palette *palette_for_terminal(void)
{
    const char *term = getenv("TERM"), *colorterm = getenv("COLORTERM");
    if ((colorterm && *colorterm) || (term && strstr(term, "256")))
        return &palette_256;
    return &palette_16;
}

/* Columns of the terminal, or 0 (no limit) when not writing to one. */
static int terminal_width(void)
{
    if (!isatty(STDOUT_FILENO))
        return 0;
    uint64_t n = 0;
    const char *columns = getenv("COLUMNS");
    if (columns && cli_parse_u64(columns, &n) == 0 && n > 0 && n < 10000)
        return (int)n;
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 80;
}

static void sleep_ms(uint64_t ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* --- The board ---------------------------------------------------------------- */

/* Which columns and rows of the board hold a marked tile. */
typedef struct board_marks {
    unsigned char col[COORDS], row[COORDS];
} board_marks;

static void find_marks(const frame *f, board_marks *marks)
{
    memset(marks, 0, sizeof *marks);
    int n = carc_game_tile_count(f->g);
    for (int i = f->first_marked < 0 ? 0 : f->first_marked; i < n; i++) {
        carc_tile_on_board t;
        if (carc_game_tile_info(f->g, i, &t) == CARC_OK) {
            marks->col[t.x + COORDS / 2] = 1;
            marks->row[t.y + COORDS / 2] = 1;
        }
    }
}

/* A coordinate as a label, in [brackets] when marked. */
static void coord_label(int v, int marked, char *buf, size_t cap)
{
    snprintf(buf, cap, marked ? "[%d]" : "%d", v);
}

/* A bounded table (table=WxH): the squares a tile may take, framed. */
typedef struct table_edge {
    int on;
    int min_x, max_x, min_y, max_y;
} table_edge;

static table_edge table_edge_of(const carc_game *g)
{
    carc_rules rules = carc_game_rules(g);
    table_edge e = {0, 0, 0, 0, 0};
    e.on = carc_rules_table_edge(&rules, &e.min_x, &e.min_y, &e.max_x, &e.max_y);
    return e;
}

/* The frame's left side in a band starting at column x0 (a blank where
 * the band does not start at the table's edge), and its right side. */
static const char *edge_left(const table_edge *e, int x0, const char *mark)
{
    return !e->on ? "" : x0 == e->min_x ? mark : " ";
}

static const char *edge_right(const table_edge *e, int x1, const char *mark)
{
    return e->on && x1 == e->max_x ? mark : "";
}

/* The frame's line above (top) or below the rows of columns x0..x1. */
static void print_edge_line(FILE *out, const table_edge *e, int x0, int x1, int top)
{
    if (!e->on)
        return;
    fprintf(out, "%*s%s", LABEL_W, "", edge_left(e, x0, top ? "\u250c" : "\u2514"));
    for (int i = 0; i < (x1 - x0 + 1) * TILE_ART_W; i++)
        fputs("\u2500", out);
    fprintf(out, "%s\n", edge_right(e, x1, top ? "\u2510" : "\u2518"));
}

static void print_column_labels(FILE *out, int x0, int x1, const board_marks *marks,
                                const table_edge *edge)
{
    fprintf(out, "%*s%s", LABEL_W, "", edge_left(edge, x0, " "));
    for (int x = x0; x <= x1; x++) {
        char label[16];
        coord_label(x, marks->col[x + COORDS / 2], label, sizeof label);
        int len = (int)strlen(label), left = (TILE_ART_W - len) / 2;
        left = left < 0 ? 0 : left;
        fprintf(out, "%*s%s%*s", left, "", label,
                TILE_ART_W - len - left > 0 ? TILE_ART_W - len - left : 0, "");
    }
    fputc('\n', out);
}

/* The ink of a cell kind: the palette's, or the water's for a kind it has
 * none for (The River's water, which tile_art draws as its own kind). */
static const char *ink_of(const palette *colors, int what)
{
    const char *ink = what >= 0 && what < TILE_ART_FOLLOWER ? colors->ink[what] : NULL;
    return ink ? ink : colors->water;
}

/* Sets the terminal's colours for `cell` unless they are set already. */
static void set_pen(FILE *out, const tile_art_cell *cell, int marked, const palette *colors,
                    char *pen, size_t cap)
{
    char want[64];
    if (cell->what == TILE_ART_FOLLOWER)
        snprintf(want, sizeof want, "\033[0;1;%sm", colors->player[cell->owner]);
    else
        snprintf(want, sizeof want, "\033[0;%s;%sm",
                 colors->ground[cell->ground == TILE_ART_CITY][marked], ink_of(colors, cell->what));
    if (strcmp(want, pen) != 0) {
        fputs(want, out);
        snprintf(pen, cap, "%s", want);
    }
}

static void reset_pen(FILE *out, const show_style *style, char *pen)
{
    if (style->colors && pen[0]) {
        fputs("\033[0m", out);
        pen[0] = '\0';
    }
}

/* Prints art row `art_row` of the squares x0..x1 of board row y. */
static void print_art_row(FILE *out, const frame *f, const show_style *style, int x0, int x1, int y,
                          int art_row, const table_edge *edge)
{
    char pen[64] = "";
    for (int x = x0; x <= x1; x++) {
        int index = carc_game_tile_at(f->g, x, y);
        carc_tile_on_board t;
        tile_art art;
        if (index < 0 || carc_game_tile_info(f->g, index, &t) != CARC_OK ||
            tile_art_draw_placed(&t, &art) != 0) {
            reset_pen(out, style, pen);
            /* An empty square of a bounded table: a dot in its middle. */
            if (edge->on && art_row == TILE_ART_H / 2)
                fprintf(out, "%*s\u00b7%*s", TILE_ART_W / 2, "", TILE_ART_W - TILE_ART_W / 2 - 1,
                        "");
            else
                fprintf(out, "%*s", TILE_ART_W, "");
            continue;
        }
        int marked = index >= f->first_marked;
        for (int col = 0; col < TILE_ART_W; col++) {
            const tile_art_cell *cell = &art.cell[art_row][col];
            if (style->colors)
                set_pen(out, cell, marked, style->colors, pen, sizeof pen);
            fputs(cell->glyph, out);
        }
    }
    reset_pen(out, style, pen);
}

/* Board rows y0..y1 of the columns x0..x1, with their labels. */
static void print_board_band(FILE *out, const frame *f, const show_style *style, int x0, int x1,
                             int y0, int y1, const board_marks *marks, const table_edge *edge)
{
    print_column_labels(out, x0, x1, marks, edge);
    print_edge_line(out, edge, x0, x1, 1);
    for (int y = y0; y <= y1; y++)
        for (int art_row = 0; art_row < TILE_ART_H; art_row++) {
            char label[16] = "";
            if (art_row == TILE_ART_H / 2)
                coord_label(y, marks->row[y + COORDS / 2], label, sizeof label);
            fprintf(out, "%*s %s", LABEL_W - 1, label, edge_left(edge, x0, "\u2502"));
            print_art_row(out, f, style, x0, x1, y, art_row, edge);
            fprintf(out, "%s\n", edge_right(edge, x1, "\u2502"));
        }
    print_edge_line(out, edge, x0, x1, 0);
}

/* The board, in bands of columns as wide as the terminal allows (a board
 * wider than the terminal would wrap into a mess). */
static void print_board(FILE *out, const frame *f, const show_style *style)
{
    board_marks marks;
    find_marks(f, &marks);
    int min_x, min_y, max_x, max_y;
    carc_game_bounds(f->g, &min_x, &min_y, &max_x, &max_y);
    /* A bounded table is drawn whole, framed by its edge. */
    table_edge edge = table_edge_of(f->g);
    if (edge.on) {
        min_x = edge.min_x < min_x ? edge.min_x : min_x;
        max_x = edge.max_x > max_x ? edge.max_x : max_x;
        min_y = edge.min_y < min_y ? edge.min_y : min_y;
        max_y = edge.max_y > max_y ? edge.max_y : max_y;
    }
    int per_band = max_x - min_x + 1;
    if (style->width > 0) {
        int fit = (style->width - LABEL_W - 2 * edge.on) / TILE_ART_W;
        if (fit < per_band)
            per_band = fit < 1 ? 1 : fit;
    }
    for (int x0 = min_x; x0 <= max_x; x0 += per_band) {
        int x1 = x0 + per_band - 1 < max_x ? x0 + per_band - 1 : max_x;
        if (x0 > min_x)
            fputc('\n', out);
        print_board_band(out, f, style, x0, x1, min_y, max_y, &marks, &edge);
    }
}

static void print_legend(FILE *out, const carc_game *g)
{
    uint32_t expansions = carc_game_rules(g).expansions;
    fprintf(out,
            "%*s\u2592 city  \u2550\u2571 wall  \u2500 road  \u25CF junction  "
            "\u2302 cloister  \u25C6 pennant  R follower  r farmer%s\n",
            LABEL_W, "", (expansions & CARC_EXPANSION_RIVER) ? "  \u2248 river" : "");
    if (expansions & CARC_EXPANSION_INNS_CATHEDRALS)
        fprintf(out,
                "%*s" TILE_ART_INN_GLYPH " inn  " TILE_ART_CATHEDRAL_GLYPH
                " cathedral  RR large follower  rr large farmer\n",
                LABEL_W, "");
    if (expansions & CARC_EXPANSION_TRADERS_BUILDERS)
        fprintf(out,
                "%*s" TILE_ART_WINE_GLYPH " wine  " TILE_ART_GRAIN_GLYPH
                " grain  " TILE_ART_CLOTH_GLYPH
                " cloth  \u24C7 builder  \u24E1 pig  \u254E\u254C wall between farms\n",
                LABEL_W, "");
}

/* --- Moves, scores and the state of the game ---------------------------- */

/* "Red", "Red and Blue", "Red, Blue and Yellow"; returns how many. */
static int winner_names(unsigned winners, char *buf, size_t cap)
{
    int count = 0, total = __builtin_popcount(winners);
    size_t len = 0;
    buf[0] = '\0';
    for (int p = 0; p < CARC_MAX_PLAYERS && len < cap; p++) {
        if (!(winners & (1u << p)))
            continue;
        const char *sep = count == 0 ? "" : count == total - 1 ? " and " : ", ";
        int n = snprintf(buf + len, cap - len, "%s%s", sep, cli_player_name(p));
        len += n > 0 ? (size_t)n : 0;
        count++;
    }
    return count;
}

/* What was scored, e.g. "a city (3 tiles, 1 pennant)". */
static void feature_text(const carc_event *ev, char *buf, size_t cap)
{
    int unfinished = !ev->complete && ev->kind != CARC_FIELD;
    const char *name = carc_kind_name(ev->kind);
    char details[48] = "";
    if (ev->kind == CARC_FIELD)
        snprintf(details, sizeof details, " (%d completed %s)", ev->tiles,
                 cli_plural(ev->tiles, "city", "cities"));
    else if (ev->kind == CARC_CLOISTER && unfinished)
        snprintf(details, sizeof details, " (%d of 9 tiles)", ev->tiles);
    else if (ev->kind != CARC_CLOISTER && ev->pennants > 0)
        snprintf(details, sizeof details, " (%d %s, %d %s)", ev->tiles,
                 cli_plural(ev->tiles, "tile", "tiles"), ev->pennants,
                 cli_plural(ev->pennants, "pennant", "pennants"));
    else if (ev->kind != CARC_CLOISTER)
        snprintf(details, sizeof details, " (%d %s)", ev->tiles,
                 cli_plural(ev->tiles, "tile", "tiles"));
    snprintf(buf, cap, "%s %s%s", unfinished ? "an unfinished" : "a", name, details);
}

/* "Red scores 8 for a city (3 tiles, 1 pennant)". */
static void print_event(FILE *out, const carc_event *ev)
{
    char names[96], feature[96];
    feature_text(ev, feature, sizeof feature);
    int winners = winner_names(ev->winners, names, sizeof names);
    if (winners == 0)
        fprintf(out, "  no points for %s; its followers go home\n", feature);
    else if (winners == 1)
        fprintf(out, "  %s scores %d for %s\n", names, ev->points, feature);
    else
        fprintf(out, "  %s score %d each for %s\n", names, ev->points, feature);
}

static void print_report(FILE *out, const frame *f, const move_report *r)
{
    if (r->index >= carc_game_move_count(f->g)) {
        fprintf(out, "The record ends the game here ('end').\n");
    } else {
        char text[64];
        carc_move m;
        int kind = 0;
        carc_move_format(f->g, r->index, text, sizeof text);
        carc_game_move_at(f->g, r->index, &m, &kind);
        fprintf(out, "Move %d/%d: %s %s", r->index + 1, f->total_moves, cli_player_name(r->mover),
                text);
        if (m.type == CARC_MOVE_DISCARD)
            fprintf(out, " (it fits nowhere)");
        else if (m.segment != CARC_NO_SPOT)
            fprintf(out, " (%s)", words_role(carc_tile(kind)->segments[m.segment].kind));
        fputc('\n', out);
    }
    int final_shown = 0, idle_farms = 0;
    for (int i = 0; i < r->nevents; i++) {
        const carc_event *ev = &r->events[i];
        if (!ev->complete && !final_shown) {
            fprintf(out, "  Final scoring:\n");
            final_shown = 1;
        }
        if (ev->kind == CARC_FIELD && ev->points == 0)
            idle_farms++; /* a farm without a completed city: listed below */
        else
            print_event(out, ev);
    }
    if (idle_farms > 0)
        fprintf(out, "  %d %s without a completed city %s nothing\n", idle_farms,
                cli_plural(idle_farms, "farm", "farms"), cli_plural(idle_farms, "scores", "score"));
}

static void print_rules(FILE *out, carc_rules rules)
{
    char names[CARC_RULES_TEXT_MAX];
    if (carc_rules_format(rules, names, sizeof names, " ") == 0)
        fputs("standard rules", out);
    else
        fprintf(out, "rules: %s", names);
    if (carc_expansions_format(rules, names, sizeof names, " ") > 0)
        fprintf(out, ", expansions: %s", names);
}

static void print_header(FILE *out, const frame *f)
{
    fprintf(out, "%d players, ", carc_game_players(f->g));
    print_rules(out, carc_game_rules(f->g));
    fprintf(out, ", %d %s in the record\n", f->total_moves,
            cli_plural(f->total_moves, "move", "moves"));
    carc_tile_on_board start;
    if (f->nreports == 0 && carc_game_move_count(f->g) == 0 &&
        carc_game_tile_info(f->g, 0, &start) == CARC_OK)
        fprintf(out, "Start: tile %s at %d %d\n", carc_tile_id(start.kind), start.x, start.y);
    else if (f->nreports == 0)
        fprintf(out, "After move %d/%d\n", carc_game_move_count(f->g), f->total_moves);
}

static void print_player_letter(FILE *out, int p, const show_style *style)
{
    if (style->colors)
        fprintf(out, "\033[0;1;%sm%c\033[0m", style->colors->player[p], tile_art_letter(p, 0));
    else
        fputc(tile_art_letter(p, 0), out);
}

/* The end of a player's supply line: " in supply", with Inns &
 * Cathedrals' large follower in it or on the board. */
static const char *large_text(const carc_game *g, int p)
{
    if (!(carc_game_rules(g).expansions & CARC_EXPANSION_INNS_CATHEDRALS))
        return " in supply";
    if (carc_game_figures(g, p, CARC_FIGURE_LARGE) > 0)
        return " and the large follower in supply";
    return " in supply, the large one on the board";
}

/* Traders & Builders' line under a player's: goods held and their points,
 * the builder and the pig in the supply or on the board. */
static void print_traders(FILE *out, const carc_game *g, int p)
{
    if (!(carc_game_rules(g).expansions & CARC_EXPANSION_TRADERS_BUILDERS))
        return;
    fprintf(out, "            goods: %d wine, %d grain, %d cloth (%d %s); builder %s, pig %s\n",
            carc_game_goods(g, p, CARC_GOODS_WINE), carc_game_goods(g, p, CARC_GOODS_GRAIN),
            carc_game_goods(g, p, CARC_GOODS_CLOTH), carc_game_goods_points(g, p),
            cli_plural(carc_game_goods_points(g, p), "point", "points"),
            carc_game_figures(g, p, CARC_FIGURE_BUILDER) ? "in supply" : "on the board",
            carc_game_figures(g, p, CARC_FIGURE_PIG) ? "in supply" : "on the board");
}

static void print_scores(FILE *out, const frame *f, const show_style *style)
{
    const carc_game *g = f->g;
    unsigned leaders = carc_game_over(g) ? carc_game_leaders(g) : 0;
    for (int p = 0; p < carc_game_players(g); p++) {
        fprintf(out, "  ");
        print_player_letter(out, p, style);
        fprintf(out,
                " %-7s %3d %s (roads %d, cities %d, cloisters %d, farms %d), "
                "%d %s%s%s\n",
                cli_player_name(p), carc_game_score(g, p),
                cli_plural(carc_game_score(g, p), "point", "points"),
                carc_game_score_of(g, p, CARC_ROAD), carc_game_score_of(g, p, CARC_CITY),
                carc_game_score_of(g, p, CARC_CLOISTER), carc_game_score_of(g, p, CARC_FIELD),
                carc_game_supply(g, p), cli_plural(carc_game_supply(g, p), "follower", "followers"),
                large_text(g, p), (leaders & (1u << p)) ? "  WINNER" : "");
        print_traders(out, g, p);
    }
}

static void print_status(FILE *out, const frame *f)
{
    const carc_game *g = f->g;
    char names[96];
    if (carc_game_over(g)) {
        int n = winner_names(carc_game_leaders(g), names, sizeof names);
        fprintf(out, "Game over after %d %s: %s %s.\n", carc_game_move_count(g),
                cli_plural(carc_game_move_count(g), "move", "moves"), names,
                n == 1 ? "wins" : "share the victory");
    } else {
        int left = carc_game_tiles_left(g, NULL) + 1; /* the drawn tile too */
        fprintf(out, "%s to play, %d %s left.\n", cli_player_name(carc_game_current_player(g)),
                left, cli_plural(left, "tile", "tiles"));
    }
}

/* Builds the whole frame in memory, then writes it at once: a terminal
 * shows no half-drawn board between two frames. */
static void print_frame(const frame *f, const show_style *style)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        out = stdout;
    if (style->clear)
        fputs("\033[H\033[2J", out);
    print_header(out, f);
    for (int i = 0; i < f->nreports; i++)
        print_report(out, f, &f->reports[i]);
    fputc('\n', out);
    print_board(out, f, style);
    print_legend(out, f->g);
    fputc('\n', out);
    print_scores(out, f, style);
    print_status(out, f);
    if (out != stdout && fclose(out) == 0)
        fwrite(text, 1, len, stdout);
    free(text);
    fflush(stdout);
}

/* --- Replaying ------------------------------------------------------------------ */

/* What the replay callbacks need: the options, and where the shown part of
 * the record begins. */
typedef struct show_replay {
    const show_options *opt;
    const show_style *style;
    int first;        /* the first move shown */
    int total_moves;  /* in the record */
    int first_marked; /* board tiles before the shown moves, then before the last step */
    move_report *reports;
    int nreports;
} show_replay;

static void report_of(const carc_replay_step *step, move_report *report)
{
    report->index = step->index;
    report->mover = step->player;
    report->nevents = step->nevents;
    memcpy(report->events, step->events, (size_t)step->nevents * sizeof step->events[0]);
}

/* The position before the first shown move: the start, or a step's. */
static void before_first(show_replay *s, const carc_game *g)
{
    s->first_marked = carc_game_tile_count(g);
    if (!s->opt->step)
        return;
    frame f = {.g = g, .total_moves = s->total_moves, .first_marked = s->first_marked};
    print_frame(&f, s->style);
}

/* --step: a frame after each shown move (and after the record's `end`). */
static int step_frame(void *ctx, const carc_replay_step *step)
{
    show_replay *s = ctx;
    if (step->index == s->first - 1 && !step->end)
        before_first(s, step->game);
    if (step->index < s->first)
        return 0;
    move_report report;
    report_of(step, &report);
    frame f = {.g = step->game,
               .total_moves = s->total_moves,
               .first_marked = s->first_marked,
               .reports = &report,
               .nreports = 1};
    sleep_ms(s->opt->delay_ms);
    if (!s->style->clear)
        putchar('\n');
    print_frame(&f, s->style);
    s->first_marked = carc_game_tile_count(step->game);
    return 0;
}

/* Without --step: the shown moves' reports, for one frame at the end. */
static int collect_report(void *ctx, const carc_replay_step *step)
{
    show_replay *s = ctx;
    if (step->index == s->first - 1 && !step->end)
        before_first(s, step->game);
    if (step->index >= s->first)
        report_of(step, &s->reports[s->nreports++]);
    return 0;
}

static int show_game(const char *text, size_t len, const carc_game *record, const show_options *opt)
{
    int moves = carc_game_move_count(record);
    int last = opt->last >= 0 ? opt->last : opt->step ? moves : 1;
    show_style style = {.colors = NULL, .clear = 0, .width = terminal_width()};
    if (color_wanted(opt->color)) {
        style.colors = palette_for_terminal();
        style.clear = opt->step && isatty(STDOUT_FILENO);
    }
    show_replay s = {.opt = opt,
                     .style = &style,
                     .first = last < moves ? moves - last : 0,
                     .total_moves = moves,
                     .first_marked = 1};
    /* Every shown move, and the record's `end`. */
    s.reports = calloc((size_t)(moves - s.first) + 1, sizeof *s.reports);
    carc_rules rules = carc_game_rules(record);
    carc_game *start = s.first == 0 ? carc_game_new(carc_game_players(record), &rules, 1) : NULL;
    if (!s.reports || (s.first == 0 && !start)) {
        fprintf(stderr, "carcassonne show: out of memory\n");
        free(s.reports);
        return EXIT_INVALID;
    }
    if (start)
        before_first(&s, start);
    carc_game_free(start);
    carc_record_error err;
    carc_game *g =
        carc_record_replay(text, len, 1, opt->step ? step_frame : collect_report, &s, &err);
    if (g && !opt->step) {
        frame f = {.g = g,
                   .total_moves = moves,
                   .first_marked = s.first_marked,
                   .reports = s.reports,
                   .nreports = s.nreports};
        print_frame(&f, &style);
    }
    if (!g)
        fprintf(stderr, "line %d: %s\n", err.line, err.message);
    free(s.reports);
    carc_game_free(g);
    return g ? EXIT_OK : EXIT_INVALID;
}

int cmd_show(int argc, char **argv)
{
    show_options opt;
    int status = parse_options(argc, argv, &opt);
    if (status != EXIT_OK || opt.help) {
        if (opt.help)
            fputs(show_usage, stdout);
        return status;
    }
    size_t len = 0;
    char *text = cli_read_file(opt.path, CARC_RECORD_MAX_BYTES, &len);
    if (!text) {
        fprintf(stderr, "carcassonne show: cannot read %s: %s\n", opt.path, strerror(errno));
        return EXIT_USAGE;
    }
    carc_record_error err;
    carc_game *record = carc_record_read(text, len, 1, &err);
    if (!record) {
        fprintf(stderr, "line %d: %s\n", err.line, err.message);
        free(text);
        return EXIT_INVALID;
    }
    status = show_game(text, len, record, &opt);
    carc_game_free(record);
    free(text);
    return status;
}
