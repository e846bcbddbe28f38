/* board_text.c: the board and the drawn tile as plain text (tile_art). */
#include "board_text.h"

#include <string.h>

#include "tile_art.h"

enum { LABEL_W = 6 };

static void print_label(FILE *out, int v, int marked, int width)
{
    char label[16];
    snprintf(label, sizeof label, marked ? "[%d]" : "%d", v);
    int len = (int)strlen(label), left = (width - len) / 2;
    left = left < 0 ? 0 : left;
    int right = width - len - left;
    fprintf(out, "%*s%s%*s", left, "", label, right > 0 ? right : 0, "");
}

static void print_art_row(FILE *out, const tile_art *art, int row)
{
    for (int col = 0; col < TILE_ART_W; col++)
        fputs(art->cell[row][col].glyph, out);
}

void board_text_print(FILE *out, const carc_game *g)
{
    int x0, y0, x1, y1, n = carc_game_tile_count(g);
    carc_game_bounds(g, &x0, &y0, &x1, &y1);
    carc_tile_on_board last = {0};
    carc_game_tile_info(g, n - 1, &last);
    fprintf(out, "%*s", LABEL_W, "");
    for (int x = x0; x <= x1; x++)
        print_label(out, x, x == last.x, TILE_ART_W);
    fputc('\n', out);
    for (int y = y0; y <= y1; y++) {
        for (int row = 0; row < TILE_ART_H; row++) {
            if (row == TILE_ART_H / 2)
                print_label(out, y, y == last.y, LABEL_W);
            else
                fprintf(out, "%*s", LABEL_W, "");
            for (int x = x0; x <= x1; x++) {
                int i = carc_game_tile_at(g, x, y);
                carc_tile_on_board t;
                tile_art art;
                if (i >= 0 && carc_game_tile_info(g, i, &t) == CARC_OK &&
                    tile_art_draw_placed(&t, &art) == 0)
                    print_art_row(out, &art, row);
                else
                    fprintf(out, "%*s", TILE_ART_W, "");
            }
            fputc('\n', out);
        }
    }
}

void board_text_print_tile(FILE *out, int kind)
{
    tile_art art[4];
    for (int rot = 0; rot < 4; rot++)
        if (tile_art_draw(kind, rot, CARC_NO_SPOT, 0, &art[rot]) != 0)
            return;
    fprintf(out, "  ");
    for (int rot = 0; rot < 4; rot++)
        fprintf(out, "rot %d    ", rot);
    fputc('\n', out);
    for (int row = 0; row < TILE_ART_H; row++) {
        fprintf(out, "  ");
        for (int rot = 0; rot < 4; rot++) {
            print_art_row(out, &art[rot], row);
            fputs("    ", out);
        }
        fputc('\n', out);
    }
}
