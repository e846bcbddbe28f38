/* help.c: the help's text for the game's rules and expansions, and its
 * pages (help.h). */
#include "help.h"

#include <stdio.h>
#include <string.h>

/* A section of the help: its lines (NULL-terminated), shown when the game
 * plays what `applies` tests (NULL: always). */
typedef struct help_section {
    int (*applies)(const carc_rules *rules);
    const char *const *lines;
} help_section;

static const char *const base_rules[] = {
    "Each turn: place the drawn tile next to the board so every touching edge",
    "matches (city-city, road-road, field-field); then you may put one follower",
    "from your supply on that tile: thief (road), knight (city), monk (cloister)",
    "or farmer (field), but not on a feature that already holds a follower.",
    "Completed roads score 1 per tile, cities 2 per tile and pennant, cloisters 9;",
    "their followers come home. Most followers on a feature takes its points (ties",
    "all score). At the end open roads/cities/cloisters score 1 per tile/pennant,",
    "and each farm's owner scores 3 per completed city the farm borders. Farmers",
    "never come home. A tile that fits nowhere is discarded.",
    NULL,
};

static const char *const river_rules[] = {
    "The River: the river tiles come first, the lake last. Each continues the river",
    "  at its open end (the water, \u2248, in blue), never bending twice the same way",
    "  in a row (a U-turn). No follower on the river; it never scores, parts fields.",
    NULL,
};

static const char *const inns_rules[] = {
    "Inns & Cathedrals: a road with an inn (\u25b3) scores 2 a tile when complete, 0",
    "  if open at the end; a city with a cathedral (\u2020) 3 a tile and pennant when",
    "  complete, 0 if open at the end. Your large follower counts 2 in a majority:",
    "  l in the follower step switches to it and back (the record: `... S large`).",
    NULL,
};

static const char *const traders_rules[] = {
    "Traders & Builders: whoever completes a city takes its goods (\u2207 wine, \u00a5 grain,",
    "  # cloth), whoever holds it; at the end the most of each good scores 10 (ties:",
    "  all). f in the follower step picks the figure. The builder (`... N builder`)",
    "  goes on a road or city of the tile where you have a follower; a later tile",
    "  of yours that extends it gives you a second tile at once. The pig (`... S",
    "  pig`) goes on a farm with your farmer: the farm scores you 1 more a city.",
    NULL,
};

static const char *const keys[] = {
    "Place: arrows move, r/space rotate (only turns that fit), R back, Tab/Shift-Tab",
    "  next legal square (+ at its corners), Enter places. x marks a dead spot: no",
    "  tile left can ever fill it. Then a spot number (0: none), then Enter",
    "  confirms, Esc steps back. Nothing is final before the confirm.",
    "View: H J K L or shift-arrows pan, c centres on the last move, f overview,",
    "  [ ] or PgUp PgDn scroll the log. Numbers on tiles: last moves' turns.",
    "i inspector (Tab picks a feature)  h hint: 3 best moves, numbered on the",
    "  board, 1-3 takes one  u undo your last move (against the computer)",
    "t tiles left  s save  q quit. While the computer thinks: i t f c H J K L [ ]",
    "  s q. At the end: n and p step through the final scoring on the board.",
    "Letters: R B Y G K W P I, Red ... Grey Purple Pink; lower case: farmer.",
    NULL,
};

static int plays_river(const carc_rules *rules)
{
    return (rules->expansions & CARC_EXPANSION_RIVER) != 0;
}

static int plays_inns(const carc_rules *rules)
{
    return (rules->expansions & CARC_EXPANSION_INNS_CATHEDRALS) != 0;
}

static int plays_traders(const carc_rules *rules)
{
    return (rules->expansions & CARC_EXPANSION_TRADERS_BUILDERS) != 0;
}

/* The sections before the hand's and the house rules' lines. */
static const help_section rule_sections[] = {
    {NULL, base_rules},
    {plays_river, river_rules},
    {plays_inns, inns_rules},
    {plays_traders, traders_rules},
};

/* Appends a line; `starts` when it begins a section. Lines past
 * HELP_MAX_LINES are dropped (the text above stays well below it). */
static void add_line(help_text *h, int starts, const char *text)
{
    if (h->n >= HELP_MAX_LINES)
        return;
    snprintf(h->lines[h->n], sizeof h->lines[h->n], "%s", text);
    h->section_start[h->n] = starts;
    h->n++;
}

static void add_section(help_text *h, const char *const *lines)
{
    for (int i = 0; lines[i]; i++)
        add_line(h, i == 0, lines[i]);
}

/* With hand=N: the hand's rules and keys. */
static void add_hand(help_text *h, const carc_rules *rules)
{
    char line[HELP_LINE_BYTES];
    snprintf(line, sizeof line,
             "A hand of %d tiles: place any tile of your hand, then draw back up to %d.",
             rules->hand, rules->hand);
    add_line(h, 1, line);
    add_line(h, 0, "  n N choose the tile to place from your hand; Enter on one that fits nowhere");
    add_line(h, 0,
             rules->flags & CARC_RULE_OPEN_HANDS
                 ? "  discards it. Every hand is shown (open-hands)."
                 : "  discards it. The others' hands are hidden: you see their size.");
}

/* The house rules in play by their record names (the hand has its own
 * lines, the expansions theirs). */
static void add_house_rules(help_text *h, const carc_rules *rules)
{
    carc_rules house = *rules;
    house.hand = 0;
    char names[CARC_RULES_TEXT_MAX];
    carc_rules_format(house, names, sizeof names, ", ");
    if (names[0] == '\0')
        return;
    char text[CARC_RULES_TEXT_MAX + 64];
    snprintf(text, sizeof text, "House rules: %s (docs/record-extensions.md).", names);
    /* Lines of at most HELP_WRAP bytes (the width of the other lines),
     * broken after a space: every rule of a long list is shown. */
    enum { HELP_WRAP = 76 };
    int first = 1;
    for (const char *at = text; *at;) {
        size_t len = strlen(at);
        if (len > HELP_WRAP) {
            len = HELP_WRAP;
            while (len > 1 && at[len - 1] != ' ')
                len--;
            if (len == 1) /* one word longer than a line: cut it */
                len = HELP_WRAP;
        }
        int shown = (int)len - (at[len - 1] == ' ' && at[len] != '\0');
        char line[HELP_LINE_BYTES];
        snprintf(line, sizeof line, "%s%.*s", first ? "" : "  ", shown, at);
        add_line(h, first, line);
        first = 0;
        at += len;
    }
}

void help_build(const carc_rules *rules, help_text *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < sizeof rule_sections / sizeof rule_sections[0]; i++)
        if (!rule_sections[i].applies || rule_sections[i].applies(rules))
            add_section(out, rule_sections[i].lines);
    if (rules->hand > 0)
        add_hand(out, rules);
    add_house_rules(out, rules);
    add_line(out, 1, "");
    add_section(out, keys);
}

/* The number of lines of the section that starts at line `i`. */
static int section_length(const help_text *h, int i)
{
    int j = i + 1;
    while (j < h->n && !h->section_start[j])
        j++;
    return j - i;
}

int help_pages(const help_text *h, int rows, int *first)
{
    int pages = 0, i = 0;
    rows = rows < 1 ? 1 : rows;
    while (i < h->n && pages < HELP_MAX_PAGES) {
        if (pages > 0 && h->lines[i][0] == '\0') { /* no page starts blank */
            i++;
            continue;
        }
        first[pages++] = i;
        int used = 0;
        while (i < h->n) {
            int len = section_length(h, i);
            if (used + len > rows) {
                if (used == 0) /* a section longer than a page: cut it */
                    i += rows;
                break;
            }
            used += len;
            i += len;
        }
    }
    if (pages == 0)
        first[pages++] = 0;
    return pages;
}

void help_title(int page, int pages, char *out, size_t cap)
{
    if (pages <= 1)
        snprintf(out, cap,
                 "CARCASSONNE - keys and rules (Space: the board's symbols, other keys: back)");
    else if (page + 1 < pages)
        snprintf(out, cap,
                 "CARCASSONNE - keys and rules, %d/%d (Space: next page, other keys: back)",
                 page + 1, pages);
    else
        snprintf(out, cap,
                 "CARCASSONNE - keys and rules, %d/%d (Space: the board's symbols, "
                 "other: back)",
                 page + 1, pages);
}
