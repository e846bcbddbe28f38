/* rules.h: reading lists of rule and expansion names (rules.c), and the
 * lines of the record notation that some rules add, shared with the record
 * reader (not public). */
#ifndef CARC_RULES_H
#define CARC_RULES_H

#include <stddef.h>

#include "carcassonne.h"

/* Reads the rule names in `text` (`len` bytes, no NUL needed), separated
 * by spaces and tabs, and with `commas` by commas too, into `out->flags`;
 * returns 0, or -1 with the message in `err` (may be NULL) and `*out`
 * unchanged. */
int rules_parse_names(const char *text, size_t len, int commas, carc_rules *out, char *err,
                      size_t errcap);
/* The same for the expansion names of an `expansions` line into
 * `out->expansions`; a name given twice is an error. */
int rules_parse_expansions(const char *text, size_t len, int commas, carc_rules *out, char *err,
                           size_t errcap);

/* Lines of the record notation that belong to some rules (variants.md):
 * `draw P TILE...` lines name every draw, and a move's tile is taken from
 * its player's hand; a `start TILE` line is a move word (read, and refused
 * where the rules fix the start tile); a `start` line must come first. */
enum {
    RECORD_DRAW_LINES = 1,
    RECORD_START_WORD = 2,
    RECORD_START_LINE = 4,
    RECORD_ANY_LINES = RECORD_DRAW_LINES | RECORD_START_WORD | RECORD_START_LINE,
};
/* The RECORD_* lines of a game with `rules`. */
unsigned rules_record_lines(const carc_rules *rules);

/* Tiles a game with `rules` has beyond those of its tile sets (a house
 * rule's extra start tile). */
int rules_extra_tiles(const carc_rules *rules);

/* The FIGURE word of the record notation after a move's spot for `figure`
 * (carc_figure, 0 .. CARC_FIGURES - 1; a follower's is ""). */
const char *rules_figure_word(int figure);
/* The title of the expansion that brings `figure` ("" for a follower). */
const char *rules_figure_expansion(int figure);

#endif
