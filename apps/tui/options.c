/* options.c: parsing and checking the options of `carcassonne play`. */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carcassonne_ai.h"

const char play_usage[] =
    "usage: carcassonne play [--players LIST] [--rules LIST] [--seed S]\n"
    "                        [--load FILE] [--no-tile-info] [--color|--no-color]\n"
    "\n"
    "Plays a game of Carcassonne in the terminal. By default: you (Red)\n"
    "against one computer player (mcts, level normal), standard rules.\n"
    "\n"
    "  --players LIST  2 to 6 seats in turn order, separated by commas:\n"
    "                  'human' (hot seat) or a computer player: random,\n"
    "                  greedy, mcts, mcts:level=easy|normal|hard|strongest;\n"
    "                  e.g. --players human,mcts:level=hard,greedy\n"
    "                  (options of one player are joined by '+':\n"
    "                  mcts:level=hard+threads=1)\n"
    "  --rules LIST    rule options, separated by commas: farms-first-edition,\n"
    "                  small-city, no-incomplete-scoring, bonus-turn\n"
    "  --seed S        deal the pile from seed S (default: from the clock)\n"
    "  --load FILE     resume the game of a record (saved with 's'); the seats\n"
    "                  saved with it are used unless --players is given\n"
    "  --no-tile-info  show only the number of tiles left: no chances, no dead\n"
    "                  spots, no list of discarded tiles\n"
    "  --color         colours even when the terminal seems to lack them\n"
    "  --no-color      no colours (so does a non-empty NO_COLOR variable)\n"
    "\n"
    "In the game, '?' shows the keys and a summary of the rules.\n"
    "Exit status: 0 after a game, 1 an invalid record, 2 bad arguments.\n";

int play_seat_is_human(const char *spec)
{
    return strcmp(spec, "human") == 0 || strcmp(spec, "you") == 0;
}

/* A seat's spec with '+' turned into ',' (commas separate the seats). */
static int check_seat(const char *spec, size_t len, char *out, char *err, size_t errcap)
{
    if (len == 0 || len >= PLAY_SPEC_MAX) {
        snprintf(err, errcap, "--players: a seat must be 'human' or a player spec");
        return -1;
    }
    memcpy(out, spec, len);
    out[len] = '\0';
    for (char *c = out; *c; c++)
        if (*c == '+')
            *c = ',';
    if (play_seat_is_human(out))
        return 0;
    char why[160] = "";
    carc_player *p = carc_player_new(out, 1, why, sizeof why);
    if (!p) {
        snprintf(err, errcap, "--players: '%s' is not a player (%s)", out, why);
        return -1;
    }
    carc_player_free(p);
    return 0;
}

int play_parse_seats(const char *list, play_options *opt, char *err, size_t errcap)
{
    int n = 0;
    const char *s = list;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        if (n == CARC_MAX_PLAYERS) {
            snprintf(err, errcap, "--players: at most %d seats", CARC_MAX_PLAYERS);
            return -1;
        }
        if (check_seat(s, len, opt->seats[n], err, errcap) != 0)
            return -1;
        n++;
        if (!comma)
            break;
        s = comma + 1;
    }
    if (n < CARC_MIN_PLAYERS) {
        snprintf(err, errcap, "--players: at least %d seats, e.g. human,mcts", CARC_MIN_PLAYERS);
        return -1;
    }
    opt->nseats = n;
    return 0;
}

static int parse_rules(const char *list, play_options *opt, char *err, size_t errcap)
{
    char name[64];
    const char *s = list;
    opt->rules = 0;
    opt->rules_given = 1;
    while (*s) {
        size_t len = strcspn(s, ",");
        if (len == 0 || len >= sizeof name) {
            snprintf(err, errcap, "--rules: a rule name is missing");
            return -1;
        }
        memcpy(name, s, len);
        name[len] = '\0';
        uint32_t flag = carc_rule_flag(name);
        if (flag == 0 && strcmp(name, "standard") != 0) {
            snprintf(err, errcap, "--rules: unknown rule '%s'", name);
            return -1;
        }
        opt->rules |= flag;
        s += len + (s[len] == ',');
    }
    return 0;
}

static int parse_seed(const char *s, play_options *opt, char *err, size_t errcap)
{
    if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 19) {
        snprintf(err, errcap, "--seed takes a number, not '%s'", s ? s : "");
        return -1;
    }
    opt->seed = strtoull(s, NULL, 10);
    opt->seed_given = 1;
    return 0;
}

/* The value of option argv[*i], or NULL with a message. */
static const char *value_of(int argc, char **argv, int *i, char *err, size_t errcap)
{
    if (*i + 1 >= argc) {
        snprintf(err, errcap, "%s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

static int parse_one(int argc, char **argv, int *i, play_options *opt, char *err, size_t errcap)
{
    const char *a = argv[*i];
    if (strcmp(a, "--no-tile-info") == 0) {
        opt->tile_info = 0;
        return 0;
    }
    if (strcmp(a, "--color") == 0 || strcmp(a, "--no-color") == 0) {
        opt->color = strcmp(a, "--color") == 0;
        return 0;
    }
    int known = strcmp(a, "--players") == 0 || strcmp(a, "--rules") == 0 ||
                strcmp(a, "--seed") == 0 || strcmp(a, "--load") == 0;
    if (!known) {
        snprintf(err, errcap, "unknown option '%s'", a);
        return -1;
    }
    const char *v = value_of(argc, argv, i, err, errcap);
    if (!v)
        return -1;
    if (strcmp(a, "--players") == 0)
        return play_parse_seats(v, opt, err, errcap);
    if (strcmp(a, "--rules") == 0)
        return parse_rules(v, opt, err, errcap);
    if (strcmp(a, "--seed") == 0)
        return parse_seed(v, opt, err, errcap);
    opt->load = v;
    return 0;
}

int play_parse_options(int argc, char **argv, play_options *opt, char *err, size_t errcap)
{
    memset(opt, 0, sizeof *opt);
    opt->tile_info = 1;
    opt->color = -1;
    err[0] = '\0';
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            opt->help = 1;
            return 0;
        }
        if (parse_one(argc, argv, &i, opt, err, errcap) != 0)
            return -1;
    }
    if (opt->load && opt->rules_given) {
        snprintf(err, errcap, "--rules cannot change a loaded game (its record names them)");
        return -1;
    }
    return 0;
}
