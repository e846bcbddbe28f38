/* help.h: the text of the terminal game's help (`?`) for the game being
 * played: the base game's rules and keys, and only the parts of The River,
 * Inns & Cathedrals, Traders & Builders, a hand of tiles and the house
 * rules that this game plays; split into pages that fit the screen. No
 * terminal needed (the unit tests read it). */
#ifndef CARC_TUI_HELP_H
#define CARC_TUI_HELP_H

#include <stddef.h>

#include "carcassonne.h"

enum { HELP_MAX_LINES = 64, HELP_LINE_BYTES = 160, HELP_MAX_PAGES = HELP_MAX_LINES };

/* The help's lines, the title left out. The lines come in sections (the
 * base rules, each expansion, the keys...); `section_start[i]` is set on
 * the first line of each, and a page breaks only there unless a section
 * is longer than a page. */
typedef struct help_text {
    char lines[HELP_MAX_LINES][HELP_LINE_BYTES];
    int section_start[HELP_MAX_LINES];
    int n;
} help_text;

/* Fills `*out` with the help for a game played under `rules`. */
void help_build(const carc_rules *rules, help_text *out);

/* Splits `h` into pages of at most `rows` lines (rows >= 1): fills
 * `first` (room for HELP_MAX_PAGES) with each page's first line and
 * returns the number of pages (at least 1). */
int help_pages(const help_text *h, int rows, int *first);

/* The title line of page `page` (0-based) of `pages`: on the last page
 * Space shows the board's symbols, before it the next page. */
void help_title(int page, int pages, char *out, size_t cap);

#endif
