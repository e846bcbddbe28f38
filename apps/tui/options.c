/* options.c: parsing and checking the options of `carcassonne play`. */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carcassonne_ai.h"

const char play_usage[] =
    "usage: carcassonne play [--players LIST] [--rules LIST] [--expansions LIST]\n"
    "                        [--seed S] [--load FILE] [--save-dir DIR]\n"
    "                        [--no-tile-info] [--color|--no-color]\n"
    "\n"
    "Plays a game of Carcassonne in the terminal. By default: you (Red)\n"
    "against one computer player (mcts, level normal), standard rules, the\n"
    "base game.\n"
    "\n"
    "  --players LIST  2 to 8 seats in turn order, separated by commas:\n"
    "                  'human' (hot seat) or a computer player: random,\n"
    "                  greedy, mcts, vanilla-mcts, star25. A player's options\n"
    "                  follow a ':', joined by ',' or '+': mcts:level=easy,\n"
    "                  normal, hard or strongest; mcts:ms=N, mcts:iters=N,\n"
    "                  mcts:threads=N; greedy:eval=full; star25:depth=N\n"
    "                  (docs/players.md lists them all). A 'key=value' after\n"
    "                  a comma belongs to the seat before it, so\n"
    "                  human,mcts:level=hard,threads=1,greedy is three seats.\n"
    "  --rules LIST    rule options, separated by commas: farms-first-edition,\n"
    "                  small-city, no-incomplete-scoring, bonus-turn,\n"
    "                  river-keep-start (with the river: the base start tile\n"
    "                  goes into the pile), table=WxH (a bounded table, W and\n"
    "                  H odd: tiles only within (W-1)/2 and (H-1)/2 of the\n"
    "                  start tile; the edge is drawn), table-edge-completes\n"
    "                  (with table=: the edge closes roads, cities and\n"
    "                  cloisters), extra-start-tile (Big Box 5: an extra D\n"
    "                  starts, all 72 tiles in the pile); or 'standard' (the\n"
    "                  default): none\n"
    "  --expansions LIST  expansions, separated by commas: 'river' (The River:\n"
    "                  the game starts from the spring, and the 12 river\n"
    "                  tiles are laid first, the lake last), 'inns-cathedrals'\n"
    "                  (Inns & Cathedrals: 18 more tiles with inns and\n"
    "                  cathedrals, and a large follower each: l in the\n"
    "                  follower step), 'traders-builders' (Traders &\n"
    "                  Builders: 24 more tiles, goods, a builder and a pig\n"
    "                  each: f cycles the figure in the follower step);\n"
    "                  or 'none' (the default): the base game\n"
    "  --seed S        deal the pile from seed S (default: from the clock; a\n"
    "                  saved game goes on with the deal it was saved with)\n"
    "  --load FILE     resume a saved game (saved with 's') exactly as it\n"
    "                  stood: the same tiles to come, and the seats saved with\n"
    "                  it unless --players is given; a bare file name is also\n"
    "                  looked for in the saves folder\n"
    "  --save-dir DIR  the folder for saved games (default:\n"
    "                  $XDG_DATA_HOME/carcassonne/saves, else\n"
    "                  ~/.local/share/carcassonne/saves; made when first used)\n"
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

/* Checks a seat's spec: "human", or one carc_player_new() accepts. */
static int check_seat(char *spec, char *err, size_t errcap)
{
    for (char *c = spec; *c; c++)
        if (*c == '+') /* the other joiner of options: written as ',' */
            *c = ',';
    if (play_seat_is_human(spec))
        return 0;
    char why[160] = "";
    carc_player *p = carc_player_new(spec, 1, why, sizeof why);
    if (!p) {
        snprintf(err, errcap, "--players: '%s' is not a player (%s)", spec, why);
        return -1;
    }
    carc_player_free(p);
    return 0;
}

/* Whether a comma-separated piece continues the previous seat's options:
 * "key=value" with no ':' (a seat's name never holds '='). */
static int continues_seat(const char *piece, size_t len)
{
    const char *eq = memchr(piece, '=', len);
    return eq && !memchr(piece, ':', len);
}

/* Appends `piece` to seat `seat` as one more option. */
static int add_option(char *seat, const char *piece, size_t len, char *err, size_t errcap)
{
    size_t have = strlen(seat);
    if (play_seat_is_human(seat)) {
        snprintf(err, errcap, "--players: '%.*s' follows '%s', which takes no options", (int)len,
                 piece, seat);
        return -1;
    }
    char sep = strchr(seat, ':') ? ',' : ':';
    if (have + 1 + len >= PLAY_SPEC_MAX) {
        snprintf(err, errcap, "--players: a seat's spec is at most %d characters",
                 PLAY_SPEC_MAX - 1);
        return -1;
    }
    seat[have] = sep;
    memcpy(seat + have + 1, piece, len);
    seat[have + 1 + len] = '\0';
    return 0;
}

int play_parse_seats(const char *list, play_options *opt, char *err, size_t errcap)
{
    int n = 0;
    for (const char *s = list;;) {
        size_t len = strcspn(s, ",");
        if (len == 0) {
            snprintf(err, errcap, "--players: a seat must be 'human' or a player spec");
            return -1;
        }
        if (n > 0 && continues_seat(s, len)) {
            if (add_option(opt->seats[n - 1], s, len, err, errcap) != 0)
                return -1;
        } else if (n == CARC_MAX_PLAYERS) {
            snprintf(err, errcap, "--players: at most %d seats", CARC_MAX_PLAYERS);
            return -1;
        } else if (len >= PLAY_SPEC_MAX) {
            snprintf(err, errcap, "--players: a seat's spec is at most %d characters",
                     PLAY_SPEC_MAX - 1);
            return -1;
        } else {
            memcpy(opt->seats[n], s, len);
            opt->seats[n++][len] = '\0';
        }
        if (!s[len])
            break;
        s += len + 1;
    }
    for (int i = 0; i < n; i++)
        if (check_seat(opt->seats[i], err, errcap) != 0)
            return -1;
    if (n < CARC_MIN_PLAYERS) {
        snprintf(err, errcap, "--players: at least %d seats, e.g. human,mcts", CARC_MIN_PLAYERS);
        return -1;
    }
    opt->nseats = n;
    return 0;
}

static int parse_rules(const char *list, play_options *opt, char *err, size_t errcap)
{
    carc_rules rules = carc_rules_standard();
    char why[96];
    if (strcmp(list, "standard") != 0 &&
        carc_rules_parse(list, &rules, why, sizeof why) != CARC_OK) {
        snprintf(err, errcap, "--rules: %s", why);
        return -1;
    }
    rules.expansions = opt->rules.expansions; /* --expansions' */
    opt->rules = rules;
    opt->rules_given = 1;
    return 0;
}

static int parse_expansions(const char *list, play_options *opt, char *err, size_t errcap)
{
    carc_rules rules = {0};
    char why[96];
    if (strcmp(list, "none") != 0 &&
        carc_expansions_parse(list, &rules, why, sizeof why) != CARC_OK) {
        snprintf(err, errcap, "--expansions: %s", why);
        return -1;
    }
    opt->rules.expansions = rules.expansions;
    opt->expansions_given = 1;
    return 0;
}

/* The rules and the expansions go together: the library says whether it
 * plays them (an expansion of a later version; a variant without its
 * expansion). */
static int check_rules(const play_options *opt, char *err, size_t errcap)
{
    char why[128];
    if (carc_rules_check(&opt->rules, why, sizeof why) == CARC_OK)
        return 0;
    if ((opt->rules.flags & CARC_RULE_RIVER_KEEP_START) &&
        !(opt->rules.expansions & CARC_EXPANSION_RIVER))
        snprintf(err, errcap, "--rules river-keep-start needs the river: add --expansions river");
    else
        snprintf(err, errcap, "--expansions: %s", why);
    return -1;
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
                strcmp(a, "--expansions") == 0 || strcmp(a, "--seed") == 0 ||
                strcmp(a, "--load") == 0 || strcmp(a, "--save-dir") == 0;
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
    if (strcmp(a, "--expansions") == 0)
        return parse_expansions(v, opt, err, errcap);
    if (strcmp(a, "--seed") == 0)
        return parse_seed(v, opt, err, errcap);
    if (strcmp(a, "--save-dir") == 0) {
        if (!*v) {
            snprintf(err, errcap, "--save-dir needs a folder");
            return -1;
        }
        opt->save_dir = v;
        return 0;
    }
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
    if (opt->load && opt->expansions_given) {
        snprintf(err, errcap, "--expansions cannot change a loaded game (its record names them)");
        return -1;
    }
    return opt->load ? 0 : check_rules(opt, err, errcap);
}
