/* square_view.c: a board square's cells and marks. */
#include "square_view.h"

#include <stdio.h>
#include <string.h>

square_desc square_desc_empty(void)
{
    square_desc d;
    memset(&d, 0, sizeof d);
    d.follower_segment = CARC_NO_SPOT;
    d.chosen_spot = -1;
    return d;
}

int square_spot_cell(int kind, int rot, int segment, int *row, int *col)
{
    tile_art art;
    if (tile_art_draw(kind, rot, segment, 0, &art) != 0)
        return -1;
    for (int r = 0; r < TILE_ART_H; r++)
        for (int c = 0; c < TILE_ART_W; c++)
            if (art.cell[r][c].what == TILE_ART_FOLLOWER) {
                *row = r;
                *col = c;
                return 0;
            }
    return -1;
}

static void set_ascii(tile_art_cell *cell, char ch)
{
    memset(cell->glyph, 0, sizeof cell->glyph);
    cell->glyph[0] = ch;
    cell->codepoint = (uint32_t)(unsigned char)ch;
}

/* A square beyond the table's edge: shaded all over (light shade, U+2591). */
static void beyond_square(square_pic *out)
{
    for (int r = 0; r < TILE_ART_H; r++)
        for (int c = 0; c < TILE_ART_W; c++) {
            tile_art_cell *a = &out->cell[r][c].art;
            memcpy(a->glyph, "\xe2\x96\x91", 4);
            a->codepoint = 0x2591;
        }
}

static void empty_square(const square_desc *d, square_pic *out)
{
    for (int r = 0; r < TILE_ART_H; r++)
        for (int c = 0; c < TILE_ART_W; c++) {
            tile_art_cell *a = &out->cell[r][c].art;
            memset(a, 0, sizeof *a);
            a->segment = TILE_ART_NONE;
            a->owner = TILE_ART_NONE;
            set_ascii(a, ' ');
        }
    /* Corners for a legal square; a cross for a dead one. */
    if (d->legal) {
        int r1 = TILE_ART_H - 1, c1 = TILE_ART_W - 1;
        set_ascii(&out->cell[0][0].art, '+');
        set_ascii(&out->cell[0][c1].art, '+');
        set_ascii(&out->cell[r1][0].art, '+');
        set_ascii(&out->cell[r1][c1].art, '+');
    }
    if (d->hint >= 1 && d->hint <= 9) {
        square_cell *mid = &out->cell[TILE_ART_H / 2][TILE_ART_W / 2];
        set_ascii(&mid->art, (char)('0' + d->hint));
        mid->flags |= SQF_SPOT;
    } else if (d->dead) {
        set_ascii(&out->cell[TILE_ART_H / 2][TILE_ART_W / 2 - 1].art, 'x');
        set_ascii(&out->cell[TILE_ART_H / 2][TILE_ART_W / 2].art, 'x');
        set_ascii(&out->cell[TILE_ART_H / 2][TILE_ART_W / 2 + 1].art, 'x');
    }
}

/* A free cell of `segment` other than the spot cells used so far. */
static int other_cell(const square_pic *pic, int segment, int *row, int *col)
{
    for (int r = 0; r < TILE_ART_H; r++)
        for (int c = 0; c < TILE_ART_W; c++)
            if (pic->cell[r][c].art.segment == segment && !(pic->cell[r][c].flags & SQF_SPOT)) {
                *row = r;
                *col = c;
                return 0;
            }
    return -1;
}

/* Numbers the follower spots 1..n on the tile, each on a cell of its own. */
static void number_spots(const square_desc *d, square_pic *out)
{
    for (int i = 0; i < d->nspots && i < CARC_MAX_SPOTS; i++) {
        int row = 0, col = 0, seg = d->spot_segment[i];
        if (square_spot_cell(d->kind, d->rot, seg, &row, &col) != 0)
            continue;
        if ((out->cell[row][col].flags & SQF_SPOT) && other_cell(out, seg, &row, &col) != 0)
            continue;
        square_cell *cell = &out->cell[row][col];
        set_ascii(&cell->art, (char)('1' + i));
        cell->art.segment = (uint8_t)seg;
        cell->flags |= SQF_SPOT | (i == d->chosen_spot ? SQF_CHOSEN : 0);
    }
}

static void set_glyph(tile_art_cell *cell, uint32_t codepoint, const char *utf8)
{
    memset(cell->glyph, 0, sizeof cell->glyph);
    memcpy(cell->glyph, utf8, strlen(utf8));
    cell->codepoint = codepoint;
}

/* A cell the last move's marks must leave alone: a follower, and the
 * symbols that count (a cloister, a pennant, an inn, a cathedral, goods). */
static int keeps_its_glyph(const square_cell *cell)
{
    switch (cell->art.what) {
    case TILE_ART_FOLLOWER:
    case TILE_ART_CLOISTER:
    case TILE_ART_PENNANT:
    case TILE_ART_INN:
    case TILE_ART_CATHEDRAL:
    case TILE_ART_GOODS: return 1;
    default: return 0;
    }
}

/* The first column from `from` to `to` (inclusive) where `len` cells of
 * `row` hold nothing that keeps its glyph, or -1. */
static int free_run(const square_pic *out, int row, int from, int to, int len)
{
    for (int c = from; c + len - 1 <= to; c++) {
        int free = 1;
        for (int i = 0; i < len && free; i++)
            free = !keeps_its_glyph(&out->cell[row][c + i]);
        if (free)
            return c;
    }
    return -1;
}

/* A player's last move: its turn number in the top left corner and corner
 * brackets in the other three, in the player's colour: an outline that
 * still leaves the tile readable. Neither covers a follower or a symbol
 * that counts: the number moves right along the top row, else to the
 * bottom row between its corners, else to the middle row, else leaves out
 * the cells of followers. */
static void mark_last(const square_desc *d, square_pic *out)
{
    static const struct {
        int r, c;
        uint32_t codepoint;
        const char *utf8;
    } corners[] = {
        {0, TILE_ART_W - 1, 0x2510, "\u2510"},
        {TILE_ART_H - 1, 0, 0x2514, "\u2514"},
        {TILE_ART_H - 1, TILE_ART_W - 1, 0x2518, "\u2518"},
    };
    for (size_t i = 0; i < sizeof corners / sizeof corners[0]; i++) {
        square_cell *cell = &out->cell[corners[i].r][corners[i].c];
        if (keeps_its_glyph(cell))
            continue;
        set_glyph(&cell->art, corners[i].codepoint, corners[i].utf8);
        cell->art.owner = (uint8_t)d->last_owner;
        cell->flags |= SQF_LAST;
    }
    char num[8];
    snprintf(num, sizeof num, "%d", d->last_turn % 1000);
    int len = (int)strlen(num), row = 0;
    int col = free_run(out, 0, 0, TILE_ART_W - 2, len);
    if (col < 0) {
        row = TILE_ART_H - 1;
        col = free_run(out, row, 1, TILE_ART_W - 2, len);
    }
    if (col < 0) {
        row = TILE_ART_H / 2;
        col = free_run(out, row, 0, TILE_ART_W - 1, len);
    }
    if (col < 0) {
        row = 0;
        col = 0;
    }
    for (int i = 0; i < len && col + i < TILE_ART_W; i++) {
        square_cell *cell = &out->cell[row][col + i];
        if (cell->art.what == TILE_ART_FOLLOWER)
            continue;
        set_ascii(&cell->art, num[i]);
        cell->art.owner = (uint8_t)d->last_owner;
        cell->flags |= SQF_LAST;
    }
}

static int tile_square(const square_desc *d, square_pic *out)
{
    tile_art art;
    if (tile_art_draw_figure(d->kind, d->rot, d->follower_segment, d->owner, d->figure, &art) != 0)
        return -1;
    for (int r = 0; r < TILE_ART_H; r++)
        for (int c = 0; c < TILE_ART_W; c++) {
            square_cell *cell = &out->cell[r][c];
            cell->art = art.cell[r][c];
            int seg = cell->art.segment;
            if (seg < CARC_MAX_SEGMENTS_PER_TILE && (d->highlight >> seg & 1u))
                cell->flags |= SQF_HIGHLIGHT;
        }
    number_spots(d, out);
    if (d->last_turn > 0)
        mark_last(d, out);
    return 0;
}

/* Priority of a cell in the overview: followers first, then what tells
 * tiles apart best. */
static int rank_of(const tile_art_cell *cell, int middle_row)
{
    switch (cell->what) {
    case TILE_ART_FOLLOWER: return 6;
    case TILE_ART_CLOISTER: return 5;
    case TILE_ART_ROAD:
    case TILE_ART_RIVER:
    case TILE_ART_JUNCTION: return middle_row ? 4 : 1;
    case TILE_ART_PENNANT:
    case TILE_ART_INN:
    case TILE_ART_GOODS:
    case TILE_ART_CATHEDRAL: return 3;
    case TILE_ART_CITY:
    case TILE_ART_WALL: return 2;
    default: return 0;
    }
}

/* The cloister's cell in the middle column, or NULL. */
static const square_cell *middle_cloister(const square_pic *pic)
{
    for (int r = 0; r < TILE_ART_H; r++)
        if (pic->cell[r][TILE_ART_W / 2].art.what == TILE_ART_CLOISTER)
            return &pic->cell[r][TILE_ART_W / 2];
    return NULL;
}

/* A monk (or his spot's number) drawn above or below his cloister, where a
 * road or the river takes both cells beside it, would hide the cloister in
 * the overview's middle cell: the cloister keeps it and the monk takes the
 * side cell that shows the less (the east one on a tie), unless a side
 * already shows him. */
static void monk_aside(const square_pic *pic, square_cell row[ZOOM_W], const int rank[ZOOM_W])
{
    const square_cell *cloister = middle_cloister(pic);
    if (!cloister || row[1].art.what == TILE_ART_CLOISTER ||
        row[1].art.segment != cloister->art.segment)
        return;
    square_cell monk = row[1];
    row[1] = *cloister;
    row[1].flags = (uint16_t)(monk.flags & (uint16_t) ~(SQF_SPOT | SQF_CHOSEN));
    if (row[0].art.segment == monk.art.segment || row[2].art.segment == monk.art.segment)
        return;
    int side = rank[0] < rank[2] ? 0 : 2;
    monk.flags = (uint16_t)((row[side].flags & (uint16_t) ~(SQF_SPOT | SQF_CHOSEN)) |
                            (monk.flags & (SQF_SPOT | SQF_CHOSEN | SQF_HIGHLIGHT)));
    row[side] = monk;
}

/* The overview: columns 0-1, 2 and 3-4 of the full picture each become one
 * cell, the most telling of their cells; marks are kept, and a cloister
 * with a monk shows both. */
static void zoom(square_pic *pic)
{
    static const int first[ZOOM_W] = {0, 2, 3}, last[ZOOM_W] = {1, 2, 4};
    square_cell row[ZOOM_W];
    int ranks[ZOOM_W];
    for (int z = 0; z < ZOOM_W; z++) {
        square_cell best = pic->cell[TILE_ART_H / 2][first[z]];
        int best_rank = -1;
        uint16_t flags = 0;
        for (int r = 0; r < TILE_ART_H; r++)
            for (int c = first[z]; c <= last[z]; c++) {
                const square_cell *cell = &pic->cell[r][c];
                int rank =
                    rank_of(&cell->art, r == TILE_ART_H / 2) + (cell->flags & SQF_SPOT ? 10 : 0);
                flags |= cell->flags & (uint16_t) ~(SQF_LAST | SQF_SPOT | SQF_CHOSEN);
                if (rank > best_rank && !(cell->flags & SQF_LAST)) {
                    best = *cell;
                    best_rank = rank;
                }
            }
        best.flags = (uint16_t)(flags | (best.flags & (SQF_SPOT | SQF_CHOSEN)));
        row[z] = best;
        ranks[z] = best_rank;
    }
    monk_aside(pic, row, ranks);
    for (int z = 0; z < ZOOM_W; z++)
        pic->cell[0][z] = row[z];
    pic->w = ZOOM_W;
    pic->h = ZOOM_H;
}

int square_draw(const square_desc *d, square_pic *out)
{
    memset(out, 0, sizeof *out);
    out->w = TILE_ART_W;
    out->h = TILE_ART_H;
    if (d->has_tile) {
        if (tile_square(d, out) != 0)
            return -1;
    } else {
        empty_square(d, out);
    }
    uint16_t all =
        (uint16_t)((d->cursor ? SQF_CURSOR : 0) | (d->preview ? SQF_PREVIEW : 0) |
                   (d->bad ? SQF_BAD : 0) | (d->legal ? SQF_LEGAL : 0) | (d->dead ? SQF_DEAD : 0));
    for (int r = 0; r < TILE_ART_H; r++)
        for (int c = 0; c < TILE_ART_W; c++)
            out->cell[r][c].flags |= all;
    if (d->beyond && !d->has_tile)
        beyond_square(out);
    if (d->zoomed && !d->has_tile) {
        zoom(out);
        for (int z = 0; z < ZOOM_W && !d->beyond; z++)
            set_ascii(&out->cell[0][z].art, ' ');
        if (d->hint >= 1 && d->hint <= 9) {
            set_ascii(&out->cell[0][1].art, (char)('0' + d->hint));
            out->cell[0][1].flags |= SQF_SPOT;
        } else if (d->legal || d->dead) {
            set_ascii(&out->cell[0][1].art, d->dead ? 'x' : '+');
        }
    } else if (d->zoomed) {
        zoom(out);
        if (d->last_turn > 0) {
            out->cell[0][0].flags |= SQF_LAST;
            out->cell[0][0].art.owner = (uint8_t)d->last_owner;
        }
    }
    return 0;
}
