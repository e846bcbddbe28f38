/* panel.c: the text around the board: the header, the side panel
 * (players, the drawn tile, tile odds, follower spots, the inspector,
 * hints, the final scoring, the log), the message and key lines, and the
 * help and tiles screens. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ctype.h>
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "help.h"
#include "saves.h"
#include "tui.h"

/* Lines written into a rectangle of the screen, top down. */
typedef struct pen {
    int row, end, col, width;
} pen;

/* Prints one line, cut to the width (counting UTF-8 characters). */
static void put_line(pen *p, attr_t attr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void put_cut(int row, int col, int width, const char *text)
{
    int used = 0;
    const char *s = text, *cut = text + strlen(text);
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80 && used++ == width) {
            cut = s;
            break;
        }
    mvaddnstr(row, col, text, (int)(cut - text));
}

static void put_line(pen *p, attr_t attr, const char *fmt, ...)
{
    if (p->row >= p->end)
        return;
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    attrset((int)attr);
    put_cut(p->row++, p->col, p->width, text);
    attrset(A_NORMAL);
}

/* Characters (not bytes) of UTF-8 text. */
static int text_width(const char *s, int len)
{
    int n = 0;
    for (int i = 0; i < len && s[i]; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

/* Bytes of the first row of `s` at `width` characters: broken at a space
 * or after a '/' in the second half of the row, else (a word longer than
 * the row, like a saved game's file name) after its last '-', else cut. */
static int row_bytes(const char *s, int width)
{
    int len = (int)strlen(s);
    if (text_width(s, len) <= width)
        return len;
    int cut = 0;
    for (int chars = 0; s[cut] && chars < width; chars++)
        do
            cut++;
        while (((unsigned char)s[cut] & 0xC0) == 0x80);
    for (int i = cut; i > 0 && text_width(s, i) > width / 2; i--)
        if (s[i] == ' ' || s[i - 1] == '/') /* at a space, or after a '/' of a path */
            return i;
    for (int i = cut; i > 1; i--)
        if (s[i - 1] == '-' && isalnum((unsigned char)s[i - 2])) /* "carcassonne-" of a name */
            return i;
    return cut;
}

/* Prints `text` word-wrapped to the pen's width, later rows indented by
 * one; skips the first `*skip` rows when `skip` is given. Returns the rows
 * the text takes (printed or not); with no pen, only counts. */
static int wrap_text(pen *p, attr_t attr, int width, const char *text, int *skip)
{
    int rows = 0;
    for (const char *s = text; *s; rows++) {
        int room = rows ? width - 1 : width;
        room = room < 1 ? 1 : room;
        int len = row_bytes(s, room);
        if (p && (!skip || *skip <= 0))
            put_line(p, attr, "%s%.*s", rows ? " " : "", len, s);
        else if (skip)
            (*skip)--;
        s += len;
        while (*s == ' ')
            s++;
    }
    return rows;
}

/* put_line, with the text word-wrapped instead of cut. */
static void put_wrap(pen *p, attr_t attr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void put_wrap(pen *p, attr_t attr, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    wrap_text(p, attr, p->width, text, NULL);
}

/* --- Header, message and keys -------------------------------------------- */

void header_draw(const tui *t, const tui_view *v)
{
    const layout *l = &v->l;
    const carc_game *g = t->s.g;
    char text[256];
    int p = carc_game_current_player(g), kind = carc_game_drawn_tile(g);
    int turn = carc_game_move_count(g) + 1;
    if (carc_game_over(g))
        snprintf(text, sizeof text, " Carcassonne | game over after %d moves", turn - 1);
    else if (!view_hand_shown(v, p)) /* its tiles are a hidden hand */
        snprintf(text, sizeof text,
                 " Carcassonne | turn %d | %s (%s) plays a tile of its hand | %d tiles left", turn,
                 session_player_name(p), v->seat_short[p], carc_game_tiles_left(g, NULL));
    else
        snprintf(text, sizeof text,
                 " Carcassonne | turn %d | %s (%s) plays tile %s | %d tiles left", turn,
                 session_player_name(p), v->seat_short[p], kind >= 0 ? carc_tile_id(kind) : "-",
                 carc_game_tiles_left(g, NULL));
    attrset(A_REVERSE);
    mvhline(0, 0, ' ', l->cols);
    put_cut(0, 0, l->cols, text);
    if ((t->step != STEP_COMPUTER && t->step != STEP_OVER) || t->inspecting) {
        char where[32];
        snprintf(where, sizeof where, " cursor %d,%d ", t->cx, t->cy);
        int len = (int)strlen(where);
        if (l->cols - len > (int)strlen(text))
            mvaddstr(0, l->cols - len, where);
    }
    attrset(A_NORMAL);
}

static const char *step_message(const tui *t)
{
    switch (t->step) {
    case STEP_PLACE:
        if (t->inspecting)
            return "Inspector: move onto a tile; Tab picks its next feature; Esc leaves.";
        return "Place your tile: arrows move, r rotates, Tab: next square, Enter places.";
    case STEP_SPOT:
        if (t->figure == CARC_FIGURE_LARGE)
            return "Large follower: a spot's number, 0 for none; l: a follower; Esc back.";
        if (t->figure == CARC_FIGURE_BUILDER)
            return "Builder (on your road or city: a second tile when you extend it): a spot's "
                   "number, 0 for none; f: next figure.";
        if (t->figure == CARC_FIGURE_PIG)
            return "Pig (on your farm: +1 a city at the end): a spot's number, 0 for none; f: "
                   "next figure.";
        return "Follower: a spot's number (marked on the tile), 0 for none; Esc back.";
    case STEP_CONFIRM:
    case STEP_COMPUTER: return "";
    case STEP_HINT: return "Thinking about a hint... (Esc cancels)";
    case STEP_OVER: return "Game over. n steps through the final scoring on the board.";
    }
    return "";
}

/* The message line's words for the step: step_message(), or why the drawn
 * tile that fits nowhere is discarded. */
static void step_text(const tui *t, char *buf, size_t cap)
{
    if (t->step == STEP_PLACE && !t->inspecting && t->nlegal == 0) {
        char why[160];
        int kind = carc_game_drawn_tile(t->s.g);
        describe_discard(t->s.g, kind, why, sizeof why);
        if (carc_game_river_phase(t->s.g))
            snprintf(buf, cap, "Tile discarded: %s. Press Enter.", why);
        else
            snprintf(buf, cap, "Your tile fits nowhere: it is discarded. Press Enter.");
    } else {
        snprintf(buf, cap, "%s", step_message(t));
    }
}

static const char *step_keys(const tui *t)
{
    if (t->prompt == PROMPT_QUIT)
        return "y:quit without saving  s:save, then quit  any other key:back to the game";
    if (t->inspecting)
        return "arrows:move Tab:next feature c:last move f:overview [ ]:log Esc:back ?:help";
    switch (t->step) {
    case STEP_PLACE: /* undo only against the computer; the message line names Tab */
        if (carc_game_rules(t->s.g).hand > 0)
            return t->s.computers ? "n:next tile r:rotate Enter:place i:inspect h:hint u:undo "
                                    "s:save ?:help q:quit"
                                  : "n:next tile r:rotate Tab:next Enter:place i:inspect h:hint "
                                    "s:save ?:help q:quit";
        return t->s.computers ? "r:rotate Tab:next Enter:place i:inspect h:hint u:undo s:save "
                                "?:help q:quit"
                              : "r:rotate Tab:next Enter:place i:inspect h:hint s:save ?:help "
                                "q:quit";
    case STEP_SPOT:
        if (carc_game_rules(t->s.g).expansions & CARC_EXPANSION_TRADERS_BUILDERS)
            return "1-9:spot 0:none Tab:next f:figure Enter:choose Esc:back q:quit";
        if (carc_game_rules(t->s.g).expansions & CARC_EXPANSION_INNS_CATHEDRALS)
            return "1-9:spot 0:none Tab:next l:large/follower Enter:choose Esc:back q:quit";
        return "1-9:spot 0:none Tab:next Enter:choose Esc:back ?:help q:quit";
    case STEP_CONFIRM: return "Enter:confirm  Esc:back  ?:help  q:quit";
    case STEP_COMPUTER: return "i:inspect t:tiles f:overview HJKL:pan [ ]:log s:save q:quit";
    case STEP_HINT: return "Esc:cancel the hint  q:quit";
    case STEP_OVER:
        return t->s.computers ? "n/p:final scoring i:inspect f:overview u:undo s:save ?:help q:quit"
                              : "n/p:final scoring i:inspect f:overview s:save ?:help q:quit";
    }
    return "";
}

/* "Save as: NAME" on the message line: the name is shown selected while it
 * is the default that typing replaces, with a dim ".rec" when saving adds
 * it, scrolled to keep the cursor in view. Leaves the cursor column in
 * *cursor_col. */
static void save_prompt_draw(const tui *t, const layout *l, int *cursor_col)
{
    static const char label[] = "Save as: ";
    const line_edit *e = &t->input;
    int col = (int)strlen(label);
    int room = l->cols - col - (int)strlen(".rec") - 1;
    size_t start = 0;
    if (room > 0 && e->cursor >= (size_t)room)
        start = e->cursor - (size_t)room + 1;
    move(l->lines - 2, 0);
    clrtoeol();
    attrset(A_BOLD);
    put_cut(l->lines - 2, 0, l->cols, label);
    attrset(e->selected ? A_BOLD | A_REVERSE : A_BOLD);
    put_cut(l->lines - 2, col, room > 0 ? room : 0, e->text + start);
    int shown = (int)(e->len - start) < room ? (int)(e->len - start) : room;
    char name[SESSION_PATH_MAX];
    size_t len = strlen(e->text);
    if (len > 0 && !(len >= 4 && strcmp(e->text + len - 4, ".rec") == 0) &&
        saves_file_name(e->text, name, sizeof name) == 0 && shown >= 0) {
        attrset(A_DIM);
        put_cut(l->lines - 2, col + shown, l->cols - col - shown, ".rec");
    }
    *cursor_col = col + (int)(e->cursor - start);
}

void footer_draw(const tui *t, const layout *l)
{
    char text[sizeof t->msg + 80], step[240];
    const char *spin = "|/-\\";
    step_text(t, step, sizeof step);
    if (t->prompt == PROMPT_SAVE)
        text[0] = '\0'; /* save_prompt_draw() */
    else if (t->prompt == PROMPT_QUIT)
        snprintf(text, sizeof text, "The game is not saved. Quit anyway? (y/s/n)");
    else if (t->step == STEP_COMPUTER)
        snprintf(text, sizeof text, "%s is thinking... %c  %s",
                 session_player_name(carc_game_current_player(t->s.g)), spin[t->spinner % 4],
                 t->msg);
    else if (t->msg[0])
        snprintf(text, sizeof text, "%s", t->msg);
    else if (t->s.nseats - t->s.computers > 1 && !carc_game_over(t->s.g))
        snprintf(text, sizeof text, "%s: %s", /* hot seat: whose hands */
                 session_player_name(carc_game_current_player(t->s.g)), step);
    else
        snprintf(text, sizeof text, "%s", step);
    attrset(A_BOLD);
    put_cut(l->lines - 2, 0, l->cols, text);
    attrset(A_DIM);
    if (t->prompt == PROMPT_SAVE) {
        char dir[SESSION_PATH_MAX], keys[SESSION_PATH_MAX + 64];
        saves_short(t->save_dir, dir, sizeof dir);
        const char *slash = strchr(t->input.text, '/');
        snprintf(keys, sizeof keys, "Esc:cancel  Ctrl-U:clear  Enter:save%s%s", slash ? "" : " in ",
                 slash ? "" : dir);
        put_cut(l->lines - 1, 0, l->cols, keys);
    } else {
        put_cut(l->lines - 1, 0, l->cols, step_keys(t));
    }
    attrset(A_NORMAL);
    if (t->prompt == PROMPT_SAVE) {
        int cursor_col = 0;
        save_prompt_draw(t, l, &cursor_col);
        attrset(A_NORMAL);
        curs_set(1);
        move(l->lines - 2, cursor_col);
    } else {
        curs_set(0);
    }
}

/* --- The side panel ---------------------------------------------------------- */

/* Inns & Cathedrals: each player's large follower in supply (1) or on
 * the board (0): "large follower: R 1 B 0". */
static void large_line(const tui *t, pen *p)
{
    const carc_game *g = t->s.g;
    char line[96] = "large follower:";
    size_t len = strlen(line);
    for (int i = 0; i < carc_game_players(g) && len + 5 < sizeof line; i++)
        len += (size_t)snprintf(line + len, sizeof line - len, " %c %d", tile_art_letter(i, 0),
                                carc_game_figures(g, i, CARC_FIGURE_LARGE));
    put_wrap(p, A_NORMAL, "%s", line);
}

/* Traders & Builders: each player's goods tokens, "goods: R 2/0/1 B 0/1/0"
 * (wine/grain/cloth), and builder and pig in supply (1) or on the board
 * (0): "builder, pig: R 1 0 B 1 1". */
static void traders_lines(const tui *t, pen *p)
{
    const carc_game *g = t->s.g;
    char goods[128] = "goods \u2207/\u00a5/#:", figures[96] = "builder, pig:";
    size_t len = strlen(goods), flen = strlen(figures);
    for (int i = 0; i < carc_game_players(g); i++) {
        if (len + 12 < sizeof goods)
            len += (size_t)snprintf(goods + len, sizeof goods - len, " %c %d/%d/%d",
                                    tile_art_letter(i, 0), carc_game_goods(g, i, CARC_GOODS_WINE),
                                    carc_game_goods(g, i, CARC_GOODS_GRAIN),
                                    carc_game_goods(g, i, CARC_GOODS_CLOTH));
        if (flen + 7 < sizeof figures)
            flen += (size_t)snprintf(figures + flen, sizeof figures - flen, " %c %d %d",
                                     tile_art_letter(i, 0),
                                     carc_game_figures(g, i, CARC_FIGURE_BUILDER),
                                     carc_game_figures(g, i, CARC_FIGURE_PIG));
    }
    put_wrap(p, A_NORMAL, "%s", goods);
    put_wrap(p, A_NORMAL, "%s", figures);
}

static void players_section(const tui *t, const tui_view *v, pen *p)
{
    const carc_game *g = t->s.g;
    int current = carc_game_over(g) ? -1 : carc_game_current_player(g);
    put_line(p, A_BOLD, "Player    score  supply");
    for (int i = 0; i < carc_game_players(g) && p->row < p->end; i++) {
        attrset(board_player_attr(t, i));
        mvaddch(p->row, p->col + 1, (chtype)tile_art_letter(i, 0));
        attrset(A_NORMAL);
        mvaddch(p->row, p->col, i == current ? '>' : ' ');
        char row[64];
        int used = snprintf(row, sizeof row, "%-6s %4d  %d/%d ", session_player_name(i),
                            carc_game_score(g, i), carc_game_supply(g, i), CARC_FOLLOWERS);
        /* Who plays the seat: in full when it fits, else the short name,
         * else on a line of its own. */
        const char *full = v->seat_label[i], *label = v->seat_short[i];
        int room = p->width - 3 - used;
        label = (int)strlen(full) <= room ? full : label;
        pen line = {p->row, p->row + 1, p->col + 3, p->width - 3};
        attr_t attr = i == current ? A_BOLD : A_NORMAL;
        if ((int)strlen(label) <= room) {
            put_line(&line, attr, "%s%s", row, label);
            p->row++;
        } else {
            put_line(&line, attr, "%s", row);
            p->row++;
            pen below = {p->row, p->end, p->col + 3, p->width - 3};
            put_wrap(&below, A_DIM, "%s", label);
            p->row = below.row;
        }
    }
    if (carc_game_rules(g).expansions & CARC_EXPANSION_INNS_CATHEDRALS)
        large_line(t, p);
    if (carc_game_rules(g).expansions & CARC_EXPANSION_TRADERS_BUILDERS)
        traders_lines(t, p);
}

/* With hand=N: each player's hand, its tiles where they may be shown (the
 * tile being placed in brackets), else its size: "Red  [E] K U",
 * "Blue  3 tiles, hidden". */
static void hands_section(const tui *t, const tui_view *v, pen *p)
{
    const carc_game *g = t->s.g;
    if (carc_game_rules(g).hand == 0 || carc_game_over(g))
        return;
    int current = carc_game_current_player(g), held = carc_game_drawn_tile(g);
    put_line(p, A_BOLD, "Hands%s", t->step == STEP_PLACE ? " (n: next tile)" : "");
    for (int i = 0; i < carc_game_players(g) && p->row < p->end; i++) {
        int kinds[CARC_MAX_HAND];
        int n = carc_game_hand(g, i, kinds, CARC_MAX_HAND);
        char line[64];
        int len = snprintf(line, sizeof line, "%-6s", session_player_name(i));
        if (!view_hand_shown(v, i)) {
            snprintf(line + len, sizeof line - (size_t)len, " %d tile%s, hidden", n,
                     n == 1 ? "" : "s");
        } else {
            int marked = 0;
            for (int k = 0; k < n && k < CARC_MAX_HAND && len < (int)sizeof line - 8; k++) {
                int mark = i == current && kinds[k] == held && !marked;
                marked |= mark;
                len += snprintf(line + len, sizeof line - (size_t)len, mark ? " [%s]" : " %s",
                                carc_tile_id(kinds[k]));
            }
            if (n == 0)
                snprintf(line + len, sizeof line - (size_t)len, " empty");
        }
        put_line(p, i == current ? A_BOLD : A_NORMAL, "%s", line);
    }
}

/* The last move of the game, so it is never lost: "Last: Blue put P at 1,4". */
static void last_move_line(const tui *t, pen *p)
{
    const carc_game *g = t->s.g;
    int n = carc_game_move_count(g), kind = 0;
    carc_move m;
    if (n == 0 || carc_game_move_at(g, n - 1, &m, &kind) != CARC_OK)
        return;
    const carc_tile_def *def = carc_tile(kind);
    const char *who = session_player_name(carc_game_move_player(g, n - 1));
    if (m.type != CARC_MOVE_PLACE)
        put_wrap(p, A_DIM, "Last: %s discarded %s", who, def->id);
    else
        put_wrap(p, A_DIM, "Last: %s put %s at %d,%d", who, def->id, m.place.x, m.place.y);
}

static void drawn_tile_section(const tui *t, pen *p)
{
    int kind = carc_game_drawn_tile(t->s.g);
    if (kind < 0 || p->row + 3 > p->end || t->step == STEP_COMPUTER)
        return;
    int rot = t->step == STEP_COMPUTER ? 0 : t->rot;
    board_draw_tile_at(t, p->row, p->col + 1, kind, rot);
    pen side = {p->row, p->row + 3, p->col + 8, p->width - 8};
    put_line(&side, A_BOLD, "Tile %s", carc_tile_id(kind));
    put_line(&side, A_NORMAL, "turned %d", rot);
    carc_placement here = {(int8_t)t->cx, (int8_t)t->cy, (uint8_t)rot, 0};
    if (t->nlegal == 0 && t->step == STEP_PLACE)
        put_line(&side, A_BOLD, "fits nowhere!");
    else if (carc_placement_legal(t->s.g, here))
        put_line(&side, A_NORMAL, "fits here");
    else
        put_line(&side, A_BOLD, "does not fit here");
    p->row += 3;
}

/* The pile the next tile comes from, for the odds: the kinds to list, the
 * tiles left of each (both piles), and what the next draw can give. */
typedef struct pile_odds {
    int kinds[CARC_MAX_KINDS], nkinds;
    int left[CARC_MAX_KINDS], total; /* carc_game_tiles_left() */
    int next[CARC_MAX_KINDS], nnext; /* carc_game_next_tiles() */
    int river;                       /* the river pile: The River's first tiles */
    int id_width;                    /* the longest id listed */
} pile_odds;

/* The tiles of the hands that may not be shown (hand=N): to whoever looks
 * at the screen they are still to come, like the pile's. */
static int add_hidden_hands(const tui *t, const tui_view *v, int counts[CARC_MAX_KINDS])
{
    int added = 0;
    for (int p = 0; p < carc_game_players(t->s.g); p++) {
        int kinds[CARC_MAX_HAND];
        int n = view_hand_shown(v, p) ? 0 : carc_game_hand(t->s.g, p, kinds, CARC_MAX_HAND);
        for (int i = 0; i < n && i < CARC_MAX_HAND; i++, added++)
            counts[kinds[i]]++;
    }
    return added;
}

static void pile_odds_of(const tui *t, const tui_view *v, pile_odds *o)
{
    const carc_game *g = t->s.g;
    memset(o, 0, sizeof *o);
    o->total = carc_game_tiles_left(g, o->left);
    o->nnext = carc_game_next_tiles(g, o->next);
    add_hidden_hands(t, v, o->left);
    o->nnext += add_hidden_hands(t, v, o->next);
    o->nkinds = tile_info_pile_kinds(g, o->kinds);
    o->id_width = 1;
    for (int i = 0; i < o->nkinds; i++) {
        int len = (int)strlen(carc_tile_id(o->kinds[i]));
        o->id_width = len > o->id_width ? len : o->id_width;
        o->river |= carc_tile(o->kinds[i])->set == CARC_EXPANSION_RIVER;
    }
}

/* "RD 2  20%": a kind, its tiles left and the chance the next draw is one. */
static int odds_cell(const pile_odds *o, int kind, char *buf, size_t cap)
{
    double chance = 100.0 * tile_info_chance(o->next[kind], o->nnext);
    return snprintf(buf, cap, "%-*s%2d %3.0f%%", o->id_width, carc_tile_id(kind), o->left[kind],
                    chance);
}

/* Tiles of the river pile left: the next draws until the lake is down. */
static int river_left(const pile_odds *o)
{
    int n = 0;
    for (int i = 0; i < o->nkinds; i++)
        n += o->left[o->kinds[i]];
    return n;
}

static void odds_section(const tui *t, const tui_view *v, pen *p)
{
    pile_odds o;
    pile_odds_of(t, v, &o);
    p->row++;
    if (!t->opt.tile_info) {
        put_line(p, A_BOLD, "Tiles left: %d", o.total);
        return;
    }
    /* At 80 columns "Tiles left: 112, dead spots: 0" is a character too
     * wide: the same in fewer words then, not its last word on a row. */
    char count[64];
    snprintf(count, sizeof count, "Tiles left: %d, dead spots: %d", o.total, t->ndead);
    if ((int)strlen(count) > p->width)
        snprintf(count, sizeof count, "%d tiles left, %d dead spot%s", o.total, t->ndead,
                 t->ndead == 1 ? "" : "s");
    put_wrap(p, A_BOLD, "%s", count);
    if (o.river)
        put_wrap(p, A_NORMAL, "River pile: %d, the lake last", river_left(&o));
    /* Three columns, down then across. When the rows do not all fit (the
     * expansions at 80x24), the first kinds fill the rows there are but
     * one, in the same order, and that one says how many are left out. */
    int rows = (o.nkinds + 2) / 3, shown = o.nkinds, room = p->end - p->row;
    if (rows > room && room > 0) {
        rows = room > 1 ? room - 1 : 1;
        shown = 3 * rows < o.nkinds ? 3 * rows : o.nkinds;
    }
    for (int r = 0; r < rows && p->row < p->end; r++) {
        char line[96] = "";
        size_t len = 0;
        for (int c = 0; c < 3 && c * rows + r < shown; c++) {
            char cell[32];
            odds_cell(&o, o.kinds[c * rows + r], cell, sizeof cell);
            len += (size_t)snprintf(line + len, sizeof line - len, "%s ", cell);
        }
        put_line(p, A_NORMAL, "%s", line);
    }
    if (shown < o.nkinds)
        put_line(p, A_DIM, "%d kinds more: t shows all", o.nkinds - shown);
    int discards[CARC_MAX_KINDS] = {0};
    if (session_discards(&t->s, discards) > 0) {
        char line[160] = "Discarded:";
        size_t len = strlen(line);
        for (int k = 0; k < carc_tile_kinds(); k++)
            for (int i = 0; i < discards[k] && len + 4 < sizeof line; i++)
                len += (size_t)snprintf(line + len, sizeof line - len, " %s", carc_tile_id(k));
        put_wrap(p, A_NORMAL, "%s", line);
    }
}

static void spots_section(const tui *t, pen *p)
{
    int kind = carc_game_drawn_tile(t->s.g);
    p->row++;
    int large = t->figure == CARC_FIGURE_LARGE;
    const char *figure = describe_figure(t->figure);
    put_line(p, A_BOLD, "%c%s spots:", toupper((unsigned char)figure[0]), figure + 1);
    for (int i = 0; i < t->nspots; i++) {
        char where[80];
        describe_spot(kind, t->rot, t->spots[i].segment, where, sizeof where);
        if (t->figure == CARC_FIGURE_BUILDER || t->figure == CARC_FIGURE_PIG) {
            /* "builder on the road at the top" for "thief on the road ..." */
            const char *on = strstr(where, " on the ");
            put_wrap(p, i == t->spot ? A_REVERSE : A_NORMAL, "%d %s%s", i + 1, figure,
                     on ? on : where);
        } else {
            put_wrap(p, i == t->spot ? A_REVERSE : A_NORMAL, "%d %s%s", i + 1,
                     large ? "large " : "", where);
        }
    }
    int traders = (carc_game_rules(t->s.g).expansions & CARC_EXPANSION_TRADERS_BUILDERS) != 0;
    put_line(p, t->spot < 0 ? A_REVERSE : A_NORMAL, traders ? "0 no figure" : "0 no follower");
    if (traders)
        put_wrap(p, A_DIM, "f: the next figure that may go on this tile");
    int other = large ? CARC_FIGURE_FOLLOWER : CARC_FIGURE_LARGE;
    if ((carc_game_rules(t->s.g).expansions & CARC_EXPANSION_INNS_CATHEDRALS) &&
        carc_game_figures(t->s.g, carc_game_current_player(t->s.g), other) > 0)
        put_wrap(p, A_DIM, large ? "l: a follower instead" : "l: the large follower instead");
}

static void owners_line(const tui *t, pen *p, const carc_feature *f)
{
    char line[96] = "Followers:";
    size_t len = strlen(line);
    int any = 0;
    for (int i = 0; i < carc_game_players(t->s.g); i++)
        if (f->followers[i]) {
            len +=
                (size_t)snprintf(line + len, sizeof line - len, " %s %d%s", session_player_name(i),
                                 f->followers[i], (f->owners >> i & 1u) ? "*" : "");
            any = 1;
        }
    put_wrap(p, A_NORMAL, "%s", any ? line : "Followers: none");
    if (any)
        put_wrap(p, A_DIM, "(* owner: most followers)");
}

/* How big a feature is and how far from complete, in words. */
static void feature_size_lines(pen *p, const carc_feature *f)
{
    switch (f->kind) {
    case CARC_CLOISTER:
        put_wrap(p, A_NORMAL, "Squares around it filled: %d of 8", 8 - f->open_edges);
        break;
    case CARC_CITY:
        put_wrap(p, A_NORMAL, "%d tile%s, %d pennant%s", f->tiles, f->tiles == 1 ? "" : "s",
                 f->pennants, f->pennants == 1 ? "" : "s");
        put_wrap(p, A_NORMAL, "Open edges: %d", f->open_edges);
        break;
    case CARC_ROAD:
        put_wrap(p, A_NORMAL, "%d tile%s", f->tiles, f->tiles == 1 ? "" : "s");
        put_wrap(p, A_NORMAL, "Open ends: %d", f->open_edges);
        break;
    default: put_wrap(p, A_NORMAL, "%d tile%s", f->tiles, f->tiles == 1 ? "" : "s"); break;
    }
}

static void inspector_section(const tui *t, const tui_view *v, pen *p)
{
    p->row++;
    int feature = v->inspected_feature;
    carc_feature f;
    if (v->inspecting_river) {
        put_line(p, A_BOLD, "Inspector: the river");
        put_wrap(p, A_NORMAL, "No feature: it never holds a follower and never scores.");
        put_wrap(p, A_DIM, "Tab: the next feature of the tile");
        return;
    }
    if (feature < 0 || carc_game_feature_info(t->s.g, feature, &f) != CARC_OK) {
        put_line(p, A_BOLD, "Inspector");
        put_wrap(p, A_NORMAL, "Move onto a placed tile.");
        return;
    }
    const char *state = f.kind == CARC_FIELD ? "" : f.complete ? " (complete)" : " (open)";
    put_wrap(p, A_BOLD, "Inspector: %s%s", describe_feature(f.kind), state);
    feature_size_lines(p, &f);
    char marks[120];
    describe_marks(&f, marks, sizeof marks);
    if (marks[0])
        put_wrap(p, A_NORMAL, "%s", marks);
    describe_goods(t->s.g, feature, marks, sizeof marks);
    if (marks[0])
        put_wrap(p, A_NORMAL, "%s", marks);
    owners_line(t, p, &f);
    char end[160];
    describe_end_value(&f, carc_game_players(t->s.g), end, sizeof end);
    if (f.kind == CARC_FIELD) {
        put_wrap(p, A_NORMAL, "Worth now: 0 (farms score at the end)");
        put_wrap(p, A_NORMAL, "%s", end);
        if (carc_game_rules(t->s.g).flags & CARC_RULE_FARMS_FIRST_EDITION)
            put_wrap(p, A_DIM, "(first edition: 4 per city)");
        else
            put_wrap(p, A_DIM, "(%d completed cities x 3)", f.value_at_end / 3);
    } else {
        if (!f.complete)
            put_wrap(p, A_NORMAL, "Worth if completed: %d", f.value);
        put_wrap(p, A_NORMAL, "%s", end);
    }
}

static void hints_section(const tui *t, pen *p)
{
    p->row++;
    put_wrap(p, A_BOLD, "Best moves (your expected lead at the end):");
    int kind = carc_game_drawn_tile(t->s.g);
    for (int i = 0; i < t->nhints; i++) {
        char text[160];
        describe_move(kind, t->hints[i].move, text, sizeof text);
        put_wrap(p, A_NORMAL, "%d %+.1f %s", i + 1, t->hints[i].margin, text);
    }
    put_wrap(p, A_DIM, "Numbers on the board; 1-%d takes one.", t->nhints);
}

/* The final scoring as a table: a row per kind of feature (and with
 * Traders & Builders the goods' majorities), a column per player, the
 * total last. */
static void final_table(const tui *t, pen *p)
{
    const carc_game *g = t->s.g;
    int n = carc_game_players(g);
    int col = (p->width - 10) / (n > 0 ? n : 1);
    col = col > 6 ? 6 : col < 3 ? 3 : col;
    char line[128];
    size_t len = (size_t)snprintf(line, sizeof line, "%-10s", "");
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(line + len, sizeof line - len, "%*c", col, tile_art_letter(i, 0));
    put_line(p, A_BOLD, "%s", line);
    static const struct {
        const char *name;
        int kind; /* -1: the total; -2: the goods (Traders & Builders) */
    } rows[] = {{"roads", CARC_ROAD},  {"cities", CARC_CITY}, {"cloisters", CARC_CLOISTER},
                {"farms", CARC_FIELD}, {"goods", -2},         {"total", -1}};
    int traders = (carc_game_rules(g).expansions & CARC_EXPANSION_TRADERS_BUILDERS) != 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        if (rows[r].kind == -2 && !traders)
            continue;
        len = (size_t)snprintf(line, sizeof line, "%-10s", rows[r].name);
        for (int i = 0; i < n; i++) {
            int v = rows[r].kind == -1   ? carc_game_score(g, i)
                    : rows[r].kind == -2 ? carc_game_goods_points(g, i)
                                         : carc_game_score_of(g, i, (carc_kind)rows[r].kind);
            len += (size_t)snprintf(line + len, sizeof line - len, "%*d", col, v);
        }
        put_line(p, rows[r].kind == -1 ? A_BOLD : A_NORMAL, "%s", line);
    }
}

static void final_section(const tui *t, pen *p)
{
    const carc_game *g = t->s.g;
    p->row++;
    put_line(p, A_BOLD, "Final scoring");
    final_table(t, p);
    unsigned leaders = carc_game_leaders(g);
    char names[96] = "";
    size_t len = 0;
    for (int i = 0; i < carc_game_players(g); i++)
        if (leaders >> i & 1u)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? " and " : "",
                                    session_player_name(i));
    put_wrap(p, A_BOLD, "%s %s!", __builtin_popcount(leaders) > 1 ? "Winners:" : "Winner:", names);
    int n = t->s.nfinal;
    if (n == 0)
        return;
    if (t->final_step < 0) {
        put_wrap(p, A_DIM, "n steps through the %d features scored at the end.", n);
        return;
    }
    char text[96];
    session_event_text(&t->s.final_events[t->final_step], text, sizeof text);
    put_wrap(p, A_REVERSE, "%d of %d: %s", t->final_step + 1, n, text);
}

/* Points of player `who` from the events: those of the move itself
 * (complete) or of the final scoring. */
static int event_points(const tui *t, int who, int final)
{
    int sum = 0;
    for (int i = 0; i < t->npevents && i < CARC_MAX_EVENTS; i++)
        if (((t->pevents[i].winners >> who) & 1) && (t->pevents[i].complete == 0) == final)
            sum += t->pevents[i].points;
    return sum;
}

/* One scoring of the move, and the followers it sends home. */
static void confirm_event_lines(const tui *t, pen *p, const carc_event *ev)
{
    char text[96];
    session_event_text(ev, text, sizeof text);
    put_wrap(p, A_NORMAL, "%s", text);
    for (int q = 0; q < carc_game_players(t->s.g); q++)
        if (ev->returned[q])
            put_wrap(p, A_DIM, "then %s's follower%s come%s home", session_player_name(q),
                     ev->returned[q] > 1 ? "s" : "", ev->returned[q] > 1 ? "" : "s");
}

static void confirm_section(const tui *t, pen *p)
{
    p->row++;
    put_wrap(p, A_BOLD, "This move scores now:");
    int any = 0, finals = 0;
    for (int i = 0; i < t->npevents && i < CARC_MAX_EVENTS; i++) {
        const carc_event *ev = &t->pevents[i];
        if (!ev->complete) {
            finals += ev->winners != 0;
            continue;
        }
        if (ev->winners) {
            confirm_event_lines(t, p, ev);
            any = 1;
        }
    }
    if (!any)
        put_line(p, A_NORMAL, "nothing");
    if (finals == 0)
        return;
    p->row++;
    put_wrap(p, A_BOLD, "Then the final scoring:");
    for (int q = 0; q < carc_game_players(t->s.g); q++)
        put_wrap(p, A_NORMAL, "%s +%d", session_player_name(q), event_points(t, q, 1));
}

int panel_log_width(const layout *l)
{
    return l->panel_w - 1;
}

int panel_log_line_rows(const tui *t, int line, int width)
{
    return wrap_text(NULL, A_NORMAL, width, t->s.log[line], NULL);
}

int panel_log_rows(const tui *t, const layout *l, int first)
{
    int rows = 0;
    for (int i = first > 0 ? first : 0; i < t->s.nlog; i++)
        rows += panel_log_line_rows(t, i, panel_log_width(l));
    return rows;
}

/* The log, wrapped to the panel: its newest rows, or older ones when
 * scrolled back ('[' and ']'). Returns the rows it has room for. */
static int log_section(const tui *t, const layout *l, pen *p)
{
    /* A gap, the title and a row at least, or nothing: a title alone
     * shows nothing, and a row alone, with no title, would read as the end
     * of the section above it (and a long line would be cut). With nothing
     * shown, [ and ] say there is no room. */
    if (p->row + 3 > p->end)
        return 0;
    p->row++;
    int room = p->end - p->row - 1, total = panel_log_rows(t, l, 0);
    int back = t->log_scroll < total - room ? t->log_scroll : total - room;
    back = back < 0 ? 0 : back;
    int skip = total - room - back; /* rows above the window */
    skip = skip < 0 ? 0 : skip;
    /* The keys that scroll it, each while there is something its way. */
    if (skip > 0 && back > 0)
        put_line(p, A_BOLD, "Log ([ older, ] newer)");
    else if (skip > 0)
        put_line(p, A_BOLD, "Log ([ older)");
    else if (back > 0)
        put_line(p, A_BOLD, "Log (the start; ] newer)");
    else
        put_line(p, A_BOLD, "Log");
    pen window = {p->row, p->row + room, p->col, p->width};
    for (int i = 0; i < t->s.nlog && window.row < window.end; i++)
        wrap_text(&window, A_NORMAL, p->width, t->s.log[i], &skip);
    p->row = window.row;
    return room;
}

int panel_draw(const tui *t, const tui_view *v)
{
    const layout *l = &v->l;
    pen p = {l->board_y, l->lines - 2, l->panel_x + 1, l->panel_w - 1};
    attrset(A_DIM);
    mvvline(l->board_y, l->panel_x, ACS_VLINE, l->board_h);
    attrset(A_NORMAL);
    players_section(t, v, &p);
    hands_section(t, v, &p);
    last_move_line(t, &p);
    if (t->step == STEP_OVER && !t->inspecting) {
        final_section(t, &p);
    } else if (t->inspecting) {
        inspector_section(t, v, &p);
    } else {
        drawn_tile_section(t, &p);
        if (t->step == STEP_SPOT)
            spots_section(t, &p);
        else if (t->step == STEP_CONFIRM)
            confirm_section(t, &p);
        else if (t->nhints > 0 && t->step == STEP_PLACE)
            hints_section(t, &p);
        else
            odds_section(t, v, &p);
    }
    return log_section(t, l, &p);
}

/* --- Help and tiles screens --------------------------------------------------- */

/* The help's second page: what the board's symbols mean (24 lines at most):
 * the base game's, then those of the expansions played, then the overview
 * and the panel when there is room. */
/* The cloister's line, naming the river only in a game with The River. */
static const char legend_cloister[] = "  \u2302            cloister";
static const char legend_cloister_river[] =
    "  \u2302            cloister        \u2248  river (The River)";

static const char *const legend_text[] = {
    "THE BOARD'S SYMBOLS (any key returns to the game)",
    "A tile is 5 cells by 3, north up; the colours repeat what the symbols say.",
    "  \u00b7            field (farm)    \u2592  city",
    "  \u2550 \u2551 \u2571 \u2572 \u2580 \u2590  a city's wall   \u25c6  a city's pennant",
    "  \u2500 \u2502 \u250c \u2510 \u2514 \u2518  road            \u25cf  road ends, crossroads",
    legend_cloister_river,
    "Followers: a letter on its feature, in its player's colour: R B Y G K W P I:",
    "  Red Blue Yellow Green Black Grey Purple Pink; lower case: a farmer.",
    "Marks:",
    "  +   +        an empty square's corners: the drawn tile fits there (Tab)",
    "   xxx         an empty square no tile left can fill (a dead spot)",
    "  1 2 3        on the tile being placed: its follower spots (0: none);",
    "               alone on an empty square: where hint 1, 2 or 3 puts the tile",
    "  7   \u2510        a player's last move: its turn number and three corners,",
    "  \u2514   \u2518        in the player's colour",
    "  reverse      the cursor's square; the tile turns red where it cannot go",
    "  underline    the feature inspected (i) or being scored (at the end: n, p)",
};

static const char *const inns_legend_text[] = {
    "Inns & Cathedrals: \u25b3 an inn beside a road: 2 a tile complete, 0 open at the end;",
    "  \u2020 a cathedral: its city 3 a tile and pennant complete, 0 open at the end;",
    "  RR (rr) a large follower: counts 2 in a majority; l switches to it.",
};

static const char *const traders_legend_text[] = {
    "Traders & Builders: goods in a city, \u2207 wine \u00a5 grain # cloth: to whoever",
    "  completes it; 10 a type at the end to the most. \u24c7 (a circled letter) a builder:",
    "  a second tile when you extend its road or city; \u24e1 a pig: +1 a city (f: figure).",
};

/* The overview and the panel, which the first help page tells too. */
static const char *const view_legend_text[] = {
    "Overview (f): a square is 3 cells, the most telling of its symbols.",
    "The panel: the players (score, followers left), the drawn tile, the tiles",
    "  left and their chances, the log ([ ] scroll it).",
};

#define LEGEND_LINES(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void legend_draw(const tui *t, const layout *l)
{
    uint32_t expansions = carc_game_rules(t->s.g).expansions;
    const struct {
        const char *const *lines;
        int n;
    } parts[] = {
        {legend_text, LEGEND_LINES(legend_text)},
        {inns_legend_text, LEGEND_LINES(inns_legend_text)},
        {traders_legend_text, LEGEND_LINES(traders_legend_text)},
        {view_legend_text, LEGEND_LINES(view_legend_text)},
    };
    int played[] = {1, (expansions & CARC_EXPANSION_INNS_CATHEDRALS) != 0,
                    (expansions & CARC_EXPANSION_TRADERS_BUILDERS) != 0, 1};
    int river = (expansions & CARC_EXPANSION_RIVER) != 0, row = 0;
    for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
        if (!played[p] || (p > 0 && row + parts[p].n > l->lines))
            continue;
        for (int i = 0; i < parts[p].n && row < l->lines; i++, row++) {
            const char *line = parts[p].lines[i];
            attrset(row == 0 ? A_BOLD : A_NORMAL);
            put_cut(row, 0, l->cols,
                    line == legend_cloister_river && !river ? legend_cloister : line);
        }
    }
    attrset(A_NORMAL);
}

/* The help for the game's rules, paged to the screen's height below the
 * title; `*first` gets each page's first line. */
static int help_paged(const tui *t, const layout *l, help_text *h, int *first)
{
    carc_rules rules = carc_game_rules(t->s.g);
    help_build(&rules, h);
    return help_pages(h, l->lines - 1, first);
}

int help_page_count(const tui *t, const layout *l)
{
    help_text h;
    int first[HELP_MAX_PAGES];
    return help_paged(t, l, &h, first);
}

static void help_draw(const tui *t, const layout *l)
{
    help_text h;
    int first[HELP_MAX_PAGES];
    int pages = help_paged(t, l, &h, first);
    int page = t->help_page < pages ? t->help_page : pages - 1;
    int end = page + 1 < pages ? first[page + 1] : h.n;
    char title[HELP_LINE_BYTES];
    help_title(page, pages, title, sizeof title);
    attrset(A_BOLD);
    put_cut(0, 0, l->cols, title);
    attrset(A_NORMAL);
    for (int i = first[page], row = 1; i < end && row < l->lines; i++, row++)
        put_cut(row, 0, l->cols, h.lines[i]);
}

void too_small_draw(const tui *t, const layout *l)
{
    pen p = {0, l->lines, 0, l->cols};
    if (t->prompt == PROMPT_QUIT) {
        put_wrap(&p, A_BOLD, "The game is not saved. Quit anyway? y: quit, any other key: back");
        return;
    }
    put_wrap(&p, A_BOLD, "Carcassonne needs a terminal of at least %dx%d; this one is %dx%d.",
             MIN_COLS, MIN_LINES, l->cols, l->lines);
    put_wrap(&p, A_NORMAL, "Enlarge it, or press q to quit.");
}

/* The tiles screen's grid at this size: kinds a row (each 10 columns) and
 * rows of kinds a page (a kind's line and its 3 rows of art, 6 rows apart,
 * under the title). */
static int tiles_per_page(const layout *l, int *per_row)
{
    int across = l->cols / 10 < 8 ? l->cols / 10 : 8;
    *per_row = across < 1 ? 1 : across;
    int rows = l->lines >= 7 ? (l->lines - 7) / 6 + 1 : 1;
    return *per_row * rows;
}

int tiles_page_count(const tui *t, const layout *l)
{
    int kinds[CARC_MAX_KINDS], per_row;
    int n = tile_info_pile_kinds(t->s.g, kinds), per_page = tiles_per_page(l, &per_row);
    return n <= per_page ? 1 : (n + per_page - 1) / per_page;
}

/* The tiles of the pile the next tile comes from (the river pile first,
 * with The River), each drawn, with its count and chance; in pages when
 * they are more than the screen holds (the expansions at 80x24). */
static void tiles_draw(const tui *t, const tui_view *v)
{
    const layout *l = &v->l;
    pile_odds o;
    pile_odds_of(t, v, &o);
    int per_row, per_page = tiles_per_page(l, &per_row);
    int pages = tiles_page_count(t, l);
    int page = t->help_page < pages ? t->help_page : pages - 1;
    char turn[64] = "any key returns";
    if (pages > 1)
        snprintf(turn, sizeof turn, "%d/%d; %s", page + 1, pages,
                 page + 1 < pages ? "Space: more, other keys return" : "Left: back, Space returns");
    attrset(A_BOLD);
    if (o.river)
        mvprintw(0, 0, "Tiles left: %d; the river pile: %d, the lake last (%s)", o.total,
                 river_left(&o), turn);
    else
        mvprintw(0, 0, "Tiles left: %d (%s)", o.total, turn);
    attrset(A_NORMAL);
    for (int i = page * per_page; i < o.nkinds && i < (page + 1) * per_page; i++) {
        int at = i - page * per_page;
        int k = o.kinds[i], row = 2 + (at / per_row) * 6, col = (at % per_row) * 10;
        if (row + 4 >= l->lines)
            break;
        char cell[32];
        if (t->opt.tile_info)
            odds_cell(&o, k, cell, sizeof cell);
        else
            snprintf(cell, sizeof cell, "%s", carc_tile_id(k));
        mvprintw(row, col, "%s", cell);
        board_draw_tile_at(t, row + 1, col, k, 0);
    }
}

void overlay_draw(const tui *t, const tui_view *v)
{
    const layout *l = &v->l;
    if (t->overlay == OVERLAY_HELP)
        help_draw(t, l);
    else if (t->overlay == OVERLAY_LEGEND)
        legend_draw(t, l);
    else if (t->overlay == OVERLAY_TILES)
        tiles_draw(t, v);
}
