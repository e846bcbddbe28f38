/* board.c: the board in the terminal: squares from square_view, their
 * colours and marks, the view that follows the cursor. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <string.h>

#include "tui.h"

/* Colour pairs: one per ground and ink, one per player, then the marks. */
enum {
    PAIR_ART = 1, /* + ground * ART_PAIRS + what */
    ART_PAIRS = 16,
    PAIR_PLAYER = PAIR_ART + 2 * ART_PAIRS,
    PAIR_LEGAL = 24,
    PAIR_DEAD,
    PAIR_BAD,
    PAIR_SPOT,
    PAIR_HIGHLIGHT,
};

typedef struct rgb_pair {
    short fg, bg;
} rgb_pair;

static void init_art_pairs(int rich)
{
    /* [ground][what]: grass and roofs under their inks (show.c's palette). */
    short ground[2] = {rich ? 28 : COLOR_GREEN, rich ? 180 : COLOR_YELLOW};
    short ink[TILE_ART_FOLLOWER] = {
        [TILE_ART_FIELD] = rich ? 34 : COLOR_GREEN,
        [TILE_ART_CITY] = rich ? 137 : COLOR_YELLOW,
        [TILE_ART_WALL] = rich ? 52 : COLOR_BLACK,
        [TILE_ART_ROAD] = rich ? 231 : COLOR_WHITE,
        [TILE_ART_JUNCTION] = rich ? 231 : COLOR_WHITE,
        [TILE_ART_CLOISTER] = rich ? 231 : COLOR_WHITE,
        [TILE_ART_PENNANT] = rich ? 21 : COLOR_BLUE,
        [TILE_ART_RIVER] = rich ? 159 : COLOR_CYAN,
        [TILE_ART_INN] = rich ? 160 : COLOR_RED,
        [TILE_ART_CATHEDRAL] = rich ? 231 : COLOR_WHITE,
        [TILE_ART_GOODS] = rich ? 90 : COLOR_MAGENTA, /* the goods' purple */
    };
    _Static_assert((int)TILE_ART_FOLLOWER <= (int)ART_PAIRS,
                   "a ground's pairs are ART_PAIRS apart");
    for (int gr = 0; gr < 2; gr++)
        for (int what = 0; what < TILE_ART_FOLLOWER; what++) {
            short bg = ground[gr];
            if (what == TILE_ART_CLOISTER || what == TILE_ART_CATHEDRAL)
                bg = rich ? 124 : COLOR_RED;
            if (what == TILE_ART_RIVER) /* water blue, whatever the ground */
                bg = rich ? 32 : COLOR_BLUE;
            init_pair((short)(PAIR_ART + gr * ART_PAIRS + what), ink[what], bg);
        }
}

static void init_player_pairs(int rich)
{
    static const rgb_pair rich_players[CARC_MAX_PLAYERS] = {
        {231, 160}, {231, 27}, {16, 226}, {16, 46}, {231, 16}, {16, 250}, {231, 91}, {16, 218}};
    /* Eight colours only: purple and pink share magenta (their letters,
     * P and I, tell them apart). */
    static const rgb_pair plain_players[CARC_MAX_PLAYERS] = {
        {COLOR_WHITE, COLOR_RED},     {COLOR_WHITE, COLOR_BLUE},   {COLOR_BLACK, COLOR_YELLOW},
        {COLOR_BLACK, COLOR_CYAN},    {COLOR_WHITE, COLOR_BLACK},  {COLOR_BLACK, COLOR_WHITE},
        {COLOR_WHITE, COLOR_MAGENTA}, {COLOR_BLACK, COLOR_MAGENTA}};
    const rgb_pair *players = rich ? rich_players : plain_players;
    for (int p = 0; p < CARC_MAX_PLAYERS; p++)
        init_pair((short)(PAIR_PLAYER + p), players[p].fg, players[p].bg);
}

void board_setup_colors(tui *t)
{
    t->color = 0;
    if (t->opt.color == 0 || (!has_colors() && t->opt.color != 1))
        return;
    if (start_color() == ERR)
        return;
    use_default_colors();
    int rich = COLORS >= 256;
    init_art_pairs(rich);
    init_player_pairs(rich);
    init_pair(PAIR_LEGAL, COLOR_YELLOW, -1);
    init_pair(PAIR_DEAD, COLOR_RED, -1);
    init_pair(PAIR_BAD, COLOR_WHITE, COLOR_RED);
    init_pair(PAIR_SPOT, COLOR_BLACK, COLOR_WHITE);
    init_pair(PAIR_HIGHLIGHT, COLOR_BLACK, COLOR_CYAN);
    t->color = 1;
}

int board_player_attr(const tui *t, int player)
{
    if (!t->color || player < 0 || player >= CARC_MAX_PLAYERS)
        return A_BOLD;
    return (int)(COLOR_PAIR(PAIR_PLAYER + player) | A_BOLD);
}

/* Colour and attributes of one cell; without colour, attributes alone
 * keep the marks apart. */
static attr_t cell_attr(const tui *t, const square_cell *c)
{
    attr_t a = 0;
    int pair = 0;
    const tile_art_cell *art = &c->art;
    if (art->what == TILE_ART_FOLLOWER || (c->flags & SQF_LAST)) {
        pair = PAIR_PLAYER + (art->owner < CARC_MAX_PLAYERS ? art->owner : 0);
        a |= A_BOLD;
    } else if (c->flags & SQF_SPOT) {
        pair = PAIR_SPOT;
        a |= A_BOLD | ((c->flags & SQF_CHOSEN) ? A_REVERSE : 0);
    } else if (c->flags & SQF_LEGAL) {
        pair = PAIR_LEGAL;
        a |= A_BOLD;
    } else if (c->flags & SQF_DEAD) {
        pair = PAIR_DEAD;
        a |= A_BOLD;
    } else if (art->codepoint != ' ') {
        pair = PAIR_ART + (art->ground == TILE_ART_CITY) * ART_PAIRS + art->what;
        a |= (art->what == TILE_ART_ROAD || art->what == TILE_ART_JUNCTION ||
              art->what == TILE_ART_RIVER || art->what == TILE_ART_INN ||
              art->what == TILE_ART_CATHEDRAL || art->what == TILE_ART_GOODS)
                 ? A_BOLD
                 : 0;
    }
    if (c->flags & SQF_HIGHLIGHT) {
        pair = art->what == TILE_ART_FOLLOWER ? pair : PAIR_HIGHLIGHT;
        a |= A_UNDERLINE | A_BOLD;
    }
    if ((c->flags & SQF_BAD) && !(c->flags & SQF_SPOT))
        pair = PAIR_BAD;
    if (c->flags & SQF_CURSOR)
        a |= A_REVERSE;
    if (t->color && pair)
        a |= COLOR_PAIR(pair);
    return a;
}

static void draw_pic(const tui *t, const square_pic *pic, int row, int col, const layout *l)
{
    for (int r = 0; r < pic->h; r++)
        for (int c = 0; c < pic->w; c++) {
            int y = row + r, x = col + c;
            if (y < l->board_y || y >= l->board_y + l->board_h || x < l->board_x ||
                x >= l->board_x + l->board_w)
                continue;
            const square_cell *cell = &pic->cell[r][c];
            attrset((int)cell_attr(t, cell));
            mvaddstr(y, x, cell->art.glyph);
        }
    attrset(A_NORMAL);
}

void board_draw_tile_at(const tui *t, int row, int col, int kind, int rot)
{
    square_desc d = square_desc_empty();
    d.has_tile = 1;
    d.kind = kind;
    d.rot = rot;
    square_pic pic;
    if (square_draw(&d, &pic) != 0)
        return;
    for (int r = 0; r < pic.h; r++)
        for (int c = 0; c < pic.w; c++) {
            attrset((int)cell_attr(t, &pic.cell[r][c]));
            mvaddstr(row + r, col + c, pic.cell[r][c].art.glyph);
        }
    attrset(A_NORMAL);
}

static int is_dead(const tui *t, int x, int y)
{
    for (int i = 0; i < t->ndead; i++)
        if (t->dead[i].x == x && t->dead[i].y == y)
            return 1;
    return 0;
}

/* On the confirm screen, a follower the move sends home is still shown
 * where it stands (the points it scores are in the panel): the one just
 * placed, or one already on the board. */
static void returning_follower(const tui *t, int x, int y, square_desc *d)
{
    if (x == t->cx && y == t->cy) {
        if (t->spot >= 0 && t->spot < t->nspots) {
            d->follower_segment = t->spots[t->spot].segment;
            d->owner = carc_game_current_player(t->s.g);
            d->figure = t->figure;
        }
        return;
    }
    carc_tile_on_board before;
    int index = carc_game_tile_at(t->s.g, x, y);
    if (index >= 0 && carc_game_tile_info(t->s.g, index, &before) == CARC_OK) {
        d->follower_segment = before.follower_segment;
        d->owner = before.follower_owner;
        d->figure = before.follower_figure;
    }
}

/* A placed tile with its marks: highlighted features, a last move. */
static void describe_tile(const tui *t, const tui_view *v, int index, square_desc *d)
{
    const carc_game *g = v->shown;
    carc_tile_on_board tile;
    if (carc_game_tile_info(g, index, &tile) != CARC_OK)
        return;
    d->has_tile = 1;
    d->kind = tile.kind;
    d->rot = tile.rot;
    d->follower_segment = tile.follower_segment;
    d->owner = tile.follower_owner;
    d->figure = tile.follower_figure;
    const carc_tile_def *def = carc_tile(tile.kind);
    int river = v->inspecting_river; /* the whole river lights up */
    for (int s = 0; s < def->nsegments; s++)
        if (view_highlighted(v, carc_game_feature(g, index, s)) ||
            (river && def->segments[s].kind == CARC_RIVER))
            d->highlight |= 1u << s;
    if (t->step == STEP_CONFIRM && d->follower_segment == CARC_NO_SPOT)
        returning_follower(t, tile.x, tile.y, d);
    for (int p = 0; p < carc_game_players(g); p++)
        if (t->last[p].turn > 0 && t->last[p].x == tile.x && t->last[p].y == tile.y) {
            d->last_turn = t->last[p].turn;
            d->last_owner = p;
        }
    d->preview = t->step == STEP_CONFIRM && tile.x == t->cx && tile.y == t->cy;
}

/* The drawn tile at the cursor, in the placing and follower steps. */
static void describe_preview(const tui *t, square_desc *d)
{
    d->has_tile = 1;
    d->kind = carc_game_drawn_tile(t->s.g);
    d->rot = t->rot;
    d->preview = 1;
    carc_placement p = {(int8_t)t->cx, (int8_t)t->cy, (uint8_t)t->rot, 0};
    d->bad = !carc_placement_legal(t->s.g, p);
    if (t->step != STEP_SPOT)
        return;
    d->nspots = t->nspots;
    for (int i = 0; i < t->nspots; i++)
        d->spot_segment[i] = t->spots[i].segment;
    d->chosen_spot = t->spot;
}

static int placing(const tui *t)
{
    return (t->step == STEP_PLACE || t->step == STEP_SPOT || t->step == STEP_HINT) &&
           !t->inspecting && carc_game_drawn_tile(t->s.g) >= 0 && t->nlegal > 0;
}

/* The number of the best hint that puts the tile on (x, y), or 0. */
static int hint_at(const tui *t, int x, int y)
{
    if (t->step != STEP_PLACE || t->inspecting)
        return 0;
    for (int i = 0; i < t->nhints; i++)
        if (t->hints[i].move.type == CARC_MOVE_PLACE && t->hints[i].move.place.x == x &&
            t->hints[i].move.place.y == y)
            return i + 1;
    return 0;
}

static void describe_square(const tui *t, const tui_view *v, int x, int y, square_desc *d)
{
    const carc_game *g = v->shown;
    *d = square_desc_empty();
    d->zoomed = t->zoomed;
    d->cursor = x == t->cx && y == t->cy && t->step != STEP_COMPUTER && t->step != STEP_OVER;
    d->cursor |= t->inspecting && x == t->cx && y == t->cy;
    int index = carc_game_tile_at(g, x, y);
    carc_rules rules = carc_game_rules(g);
    int min_x, min_y, max_x, max_y;
    d->beyond = carc_rules_table_edge(&rules, &min_x, &min_y, &max_x, &max_y) &&
                (x < min_x || x > max_x || y < min_y || y > max_y);
    if (index >= 0) {
        describe_tile(t, v, index, d);
    } else if (placing(t) && x == t->cx && y == t->cy) {
        describe_preview(t, d);
    } else {
        d->hint = hint_at(t, x, y);
        d->legal = placing(t) && t->step == STEP_PLACE && tui_square_legal(t, x, y);
        d->dead = t->opt.tile_info && t->step != STEP_OVER && is_dead(t, x, y);
    }
}

void board_draw(const tui *t, const tui_view *v)
{
    const layout *l = &v->l;
    for (int vy = 0; vy < l->view_h; vy++)
        for (int vx = 0; vx < l->view_w; vx++) {
            int x = t->vx + vx, y = t->vy + vy;
            if (x < INT8_MIN || x > INT8_MAX || y < INT8_MIN || y > INT8_MAX)
                continue;
            square_desc d;
            describe_square(t, v, x, y, &d);
            square_pic pic;
            if (square_draw(&d, &pic) == 0)
                draw_pic(t, &pic, l->board_y + vy * l->square_h, l->board_x + vx * l->square_w, l);
        }
}
