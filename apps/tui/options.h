/* options.h: the command line of `carcassonne play`. */
#ifndef CARC_TUI_OPTIONS_H
#define CARC_TUI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "carcassonne.h"

enum { PLAY_SPEC_MAX = 96 };

typedef struct play_options {
    int help;
    int nseats;                                  /* 0 unless --players was given */
    char seats[CARC_MAX_PLAYERS][PLAY_SPEC_MAX]; /* "human" or a player spec */
    carc_rules rules;                            /* --rules and --expansions */
    int rules_given;
    int expansions_given;
    uint64_t seed;
    int seed_given;
    const char *load;     /* a record to resume, or NULL */
    const char *save_dir; /* --save-dir, or NULL: the default folder */
    int tile_info;        /* 1: chances, dead spots, discards; 0: the count only */
    int color;            /* 1 or 0 when forced, -1 when the terminal decides */
} play_options;

extern const char play_usage[];

/* Parses argv[1..argc-1]. Returns 0, or -1 with a message in `err` (of
 * `errcap` bytes) for the usage error. Seat specs are checked: "human", or
 * a spec carc_player_new() accepts; the rules and expansions together, as
 * carc_rules_check() does (river-keep-start needs --expansions river). */
int play_parse_options(int argc, char **argv, play_options *opt, char *err, size_t errcap);

/* Parses a comma-separated list of seats into `opt` (as --players does).
 * A piece "key=value" without ':' continues the seat before it; '+' joins
 * a seat's options as ',' does. The seats are stored with ','. */
int play_parse_seats(const char *list, play_options *opt, char *err, size_t errcap);

/* Whether a seat spec names a human. */
int play_seat_is_human(const char *spec);

#endif
