/* fuzz_move.c: libFuzzer harness for the one-line move parser, as the
 * engine protocol and the terminal game use it. The first input byte picks
 * a position (a seeded game of any expansion set, a number of random moves
 * in); the rest is the line. A refused line must leave the game as it was
 * and say why; an accepted one must be legal, and written back it must
 * parse to itself. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carcassonne.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_move: %s\n", what);
        abort();
    }
}

/* A position `pick` selects. Its low three bits are the expansions, any
 * subset of The River, Inns & Cathedrals and Traders & Builders (their
 * CARC_EXPANSION_* bits; 0 is the base game); the other five bits choose
 * the deal, the players (2 to 6) and how far in: with the river 0 to 15
 * random moves (the river phase and the first main-pile tiles;
 * river-keep-start when pick >= 128), else 0 to 93. */
static carc_game *position(uint8_t pick)
{
    unsigned expansions = pick & 7u, rest = (unsigned)pick >> 3;
    int river = (expansions & CARC_EXPANSION_RIVER) != 0;
    carc_rules rules = {.flags = river && pick >= 128 ? CARC_RULE_RIVER_KEEP_START : 0u,
                        .expansions = expansions};
    carc_game *g = carc_game_new(2 + (int)(rest % 5), &rules, rest);
    if (!g)
        return NULL;
    carc_rng rng = carc_rng_seed(pick);
    int moves = river ? (int)(rest % 16) : (int)(rest * 3 % 94);
    for (int i = 0; i < moves && !carc_game_over(g); i++)
        carc_game_play_random(g, &rng, 0.5, NULL);
    return g;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 4096)
        return 0;
    carc_game *g = position(data[0]);
    char *text = malloc(size);
    if (!g || !text) {
        carc_game_free(g);
        free(text);
        return 0;
    }
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    char before[8192], after[8192];
    size_t nb = carc_record_write(g, NULL, before, sizeof before);
    carc_move m;
    char why[200];
    carc_status st = carc_move_parse_message(g, text, &m, why, sizeof why);
    size_t na = carc_record_write(g, NULL, after, sizeof after);
    check(nb == na && memcmp(before, after, nb < sizeof before ? nb : sizeof before) == 0,
          "parsing changed the game");
    check(memchr(why, '\0', sizeof why) != NULL, "an unterminated message");
    if (st != CARC_OK) {
        check(why[0] != '\0', "a refused line without a reason");
    } else {
        check(why[0] == '\0', "an accepted line with a message");
        char line[64];
        size_t n = carc_move_write(g, m, line, sizeof line);
        check(n > 0 && n < sizeof line, "an accepted move that cannot be written");
        carc_move again;
        check(carc_move_parse(g, line, &again) == CARC_OK && carc_move_equal(m, again),
              "a written move does not parse to itself");
        if (m.type == CARC_MOVE_PLACE && m.segment != CARC_NO_SPOT) {
            const carc_tile_def *def = carc_tile(carc_game_drawn_tile(g));
            check(m.segment < def->nsegments && def->segments[m.segment].kind != CARC_RIVER,
                  "an accepted follower on the river");
        }
        carc_game *copy = carc_game_clone(g);
        check(copy && carc_game_play(copy, m, NULL, 0, NULL) == CARC_OK,
              "an accepted move is illegal");
        carc_game_free(copy);
    }
    free(text);
    carc_game_free(g);
    return 0;
}
