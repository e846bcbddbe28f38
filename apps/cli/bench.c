/* bench.c: `carcassonne bench`: full-rules random games per second and
 * the time of legal-placement generation, with a checksum of the games. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "cli.h"
#include "wire.h"

static const char bench_usage[] =
    "usage: carcassonne bench [--json] [--games K] [--seed S] [--players N]\n"
    "                         [--expansions LIST] [--rules LIST]\n"
    "       carcassonne bench --mcts SPEC [--plies N|all] [--games K] [--seed S] [--json]\n"
    "                         [--expansions LIST] [--rules LIST]\n"
    "\n"
    "Plays K (default 200000) full-rules games between random players on one\n"
    "thread: every draw of the pile (71 in the base game), a uniformly chosen\n"
    "legal placement, a follower on a uniformly chosen legal spot half of the\n"
    "time, the final scoring with farms. Prints games per second, the mean\n"
    "time of legal-placement generation per ply, and a checksum of every\n"
    "game's moves and scores that changes only when the engine's behaviour\n"
    "changes. By default it plays K base games, then K games with the river\n"
    "(The River: 82 draws), then K with Inns & Cathedrals (89 draws), then K\n"
    "with Traders & Builders (95 draws), then K with all three (124 draws),\n"
    "and prints the five side by side, with tiles placed a second (draws\n"
    "placed or discarded) and each column's share of the base game's; the\n"
    "base game's figures and checksum are those of a base run alone.\n"
    "\n"
    "  --players N         players in every game (2..8, default 2)\n"
    "  --expansions LIST   play only games with these expansions (names\n"
    "                      separated by commas or spaces: river,\n"
    "                      inns-cathedrals, traders-builders); '' plays\n"
    "                      only the base game\n"
    "  --rules LIST        rule variants for every game (record names, e.g.\n"
    "                      small-city,river-keep-start,hand=3; default\n"
    "                      standard)\n"
    "  --json              print one JSON object: the first run's figures, its\n"
    "                      \"expansions\", and by default the river run's in\n"
    "                      \"river\", the Inns & Cathedrals run's in\n"
    "                      \"inns-cathedrals\", the Traders & Builders\n"
    "                      run's in \"traders-builders\" and the run with\n"
    "                      all three in \"all-three\"\n"
    "\n"
    "With --mcts SPEC (e.g. mcts:ms=1000,threads=2): runs that player in K\n"
    "(default 8) positions, N (default 30: the midgame) greedy moves into the\n"
    "deals of seeds S, S+1, ..., and prints its mean time per search, its\n"
    "iterations per second (all iterations over all seconds) and the peak\n"
    "memory of one search. With\n"
    "--plies all the positions are spread evenly over a game, one in the\n"
    "middle of each of K equal parts of its draws (71 in the base game; with\n"
    "K = 71 every draw, the first to the last), so that the time per search is\n"
    "that of whole games. K is at most 8, or the number of draws with --plies\n"
    "all. --mcts plays the base game unless --expansions says otherwise.\n";

enum { LEGAL_REPEATS = 32 };

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t fnv(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xFF;
        h *= 0x100000001B3ull;
    }
    return h;
}

typedef struct bench_result {
    uint64_t games, plies, checksum;
    double seconds, legal_seconds;
    uint64_t legal_calls;
    long total_score;
} bench_result;

static void play_games(carc_game *g, int players, const carc_rules *rules, uint64_t seed,
                       bench_result *r)
{
    carc_rng rng = carc_rng_seed(seed);
    r->checksum = 0xCBF29CE484222325ull;
    double start = now_seconds();
    for (uint64_t i = 0; i < r->games; i++) {
        carc_game_reset(g, players, rules, seed + i);
        while (!carc_game_over(g)) {
            carc_game_play_random(g, &rng, 0.5, NULL);
            r->plies++;
        }
        for (int p = 0; p < players; p++) {
            r->checksum = fnv(r->checksum, (uint64_t)carc_game_score(g, p));
            r->total_score += carc_game_score(g, p);
        }
        r->checksum = fnv(r->checksum, (uint64_t)carc_game_tile_count(g));
    }
    r->seconds = now_seconds() - start;
}

/* Times legal-placement generation alone: at every ply of a few games, the
 * call is repeated and timed as a block. */
static void time_legal(carc_game *g, int players, const carc_rules *rules, uint64_t seed,
                       uint64_t games, bench_result *r)
{
    carc_placement out[CARC_MAX_PLACEMENTS];
    carc_rng rng = carc_rng_seed(seed);
    volatile int sink = 0;
    for (uint64_t i = 0; i < games; i++) {
        carc_game_reset(g, players, rules, seed + i);
        while (!carc_game_over(g)) {
            double start = now_seconds();
            for (int k = 0; k < LEGAL_REPEATS; k++)
                sink += carc_legal_placements(g, out, CARC_MAX_PLACEMENTS);
            r->legal_seconds += now_seconds() - start;
            r->legal_calls += LEGAL_REPEATS;
            carc_game_play(g, carc_random_move(g, &rng, 0.5), NULL, 0, NULL);
        }
    }
    (void)sink;
}

/* One run: `games` games of the tile set and rules of `rules`. */
typedef struct bench_run {
    carc_rules rules;
    bench_result r;
    size_t state_bytes;
} bench_run;

static int run_games(bench_run *run, int players, uint64_t games, uint64_t seed)
{
    carc_game *g = carc_game_new(players, &run->rules, seed);
    if (!g) {
        char names[120];
        fprintf(stderr, "carcassonne bench: cannot make a game with expansions '%s'\n",
                cli_expansions_text(run->rules, names, sizeof names, ",", "none"));
        return -1;
    }
    memset(&run->r, 0, sizeof run->r);
    run->r.games = games;
    run->state_bytes = carc_game_size(&run->rules);
    play_games(g, players, &run->rules, seed, &run->r);
    uint64_t legal_games = games < 2000 ? games : 2000;
    time_legal(g, players, &run->rules, seed, legal_games, &run->r);
    carc_game_free(g);
    return 0;
}

static double games_per_second(const bench_run *run)
{
    return (double)run->r.games / run->r.seconds;
}

static double ns_per_ply(const bench_run *run)
{
    return 1e9 * run->r.seconds / (double)run->r.plies;
}

static double tiles_per_second(const bench_run *run)
{
    return (double)run->r.plies / run->r.seconds;
}

static double legal_ns(const bench_run *run)
{
    return 1e9 * run->r.legal_seconds / (double)run->r.legal_calls;
}

static double mean_score(const bench_run *run, int players)
{
    return (double)run->r.total_score / (double)(run->r.games * (uint64_t)players);
}

/* The figures of one run as JSON members, without the braces. */
static void print_run_json(const bench_run *run, int players, uint64_t seed)
{
    printf("\"games\":%llu,\"players\":%d,\"seed\":%llu,\"plies\":%llu,"
           "\"seconds\":%.3f,\"games_per_second\":%.0f,\"tiles_per_second\":%.0f,"
           "\"ns_per_ply\":%.1f,"
           "\"legal_ns_per_ply\":%.1f,\"mean_score\":%.3f,\"state_bytes\":%zu,"
           "\"checksum\":\"%016llx\",\"expansions\":",
           (unsigned long long)run->r.games, players, (unsigned long long)seed,
           (unsigned long long)run->r.plies, run->r.seconds, games_per_second(run),
           tiles_per_second(run), ns_per_ply(run), legal_ns(run), mean_score(run, players),
           run->state_bytes, (unsigned long long)run->r.checksum);
    json_t *expansions = wire_expansions(run->rules);
    char *names = json_dumps(expansions, JSON_COMPACT);
    fputs(names ? names : "[]", stdout);
    free(names);
    json_decref(expansions);
}

/* The runs side by side, a column each. */
static void print_text(const bench_run *runs, int n, int players, uint64_t seed)
{
    enum { COLUMN = 20 };
    char cell[64];
    printf("%d players, seed %llu\n", players, (unsigned long long)seed);
    printf("%-18s", "");
    for (int i = 0; i < n; i++) {
        char names[120];
        const char *title = runs[i].rules.expansions == CARC_EXPANSIONS_SUPPORTED ? "all three"
                            : runs[i].rules.expansions
                                ? cli_expansions_text(runs[i].rules, names, sizeof names, "+", "")
                                : "base game";
        printf(i + 1 < n ? "%-*s" : "%.*s", i + 1 < n ? COLUMN : (int)sizeof names, title);
    }
    putchar('\n');
    static const char *const labels[] = {
        "games",           "plies",      "games per second", "tiles per second",
        "of base tiles/s", "ns per ply", "legal ns per ply", "mean score",
        "state bytes",     "checksum"};
    for (size_t row = 0; row < sizeof labels / sizeof labels[0]; row++) {
        printf("%-18s", labels[row]);
        for (int i = 0; i < n; i++) {
            const bench_run *run = &runs[i];
            switch (row) {
            case 0: snprintf(cell, sizeof cell, "%llu", (unsigned long long)run->r.games); break;
            case 1: snprintf(cell, sizeof cell, "%llu", (unsigned long long)run->r.plies); break;
            case 2: snprintf(cell, sizeof cell, "%.0f", games_per_second(run)); break;
            case 3: snprintf(cell, sizeof cell, "%.0f", tiles_per_second(run)); break;
            case 4:
                snprintf(cell, sizeof cell, "%.0f%%",
                         100.0 * tiles_per_second(run) / tiles_per_second(&runs[0]));
                break;
            case 5: snprintf(cell, sizeof cell, "%.1f", ns_per_ply(run)); break;
            case 6: snprintf(cell, sizeof cell, "%.1f", legal_ns(run)); break;
            case 7: snprintf(cell, sizeof cell, "%.3f", mean_score(run, players)); break;
            case 8: snprintf(cell, sizeof cell, "%zu", run->state_bytes); break;
            default:
                snprintf(cell, sizeof cell, "%016llx", (unsigned long long)run->r.checksum);
                break;
            }
            /* The last column is not padded: no trailing blanks. */
            if (i + 1 < n)
                printf("%-*s", COLUMN, cell);
            else
                fputs(cell, stdout);
        }
        putchar('\n');
    }
}

int cmd_bench(int argc, char **argv)
{
    int json = 0;
    uint64_t games = 200000, seed = 1, players = 2;
    const char *mcts_spec = NULL;
    int plies = 30, plies_given = 0, games_given = 0, expansions_given = 0, players_given = 0;
    const char *plies_text = NULL;
    carc_rules rules = carc_rules_standard();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(bench_usage, stdout);
            return EXIT_OK;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--mcts") == 0) {
            if (i + 1 >= argc || argv[i + 1][0] == '-')
                return cli_usage_error("bench", "--mcts takes a player spec");
            mcts_spec = argv[++i];
        } else if (strcmp(a, "--plies") == 0) {
            plies_text = i + 1 < argc ? argv[++i] : "";
            plies_given = 1;
        } else if (strcmp(a, "--expansions") == 0 || strcmp(a, "--rules") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error("bench", "%s needs a value", a);
            const char *v = argv[++i];
            int bad = strcmp(a, "--rules") == 0 ? cli_parse_rules("bench", v, &rules)
                                                : cli_parse_expansions("bench", v, &rules);
            if (bad)
                return EXIT_USAGE;
            expansions_given |= strcmp(a, "--expansions") == 0;
        } else if (strcmp(a, "--games") == 0 || strcmp(a, "--seed") == 0 ||
                   strcmp(a, "--players") == 0) {
            uint64_t v;
            if (i + 1 >= argc || cli_parse_u64(argv[i + 1], &v) < 0)
                return cli_usage_error("bench", "%s takes a number", a);
            i++;
            if (strcmp(a, "--games") == 0) {
                if (v < 1 || v > 100000000)
                    return cli_usage_error("bench", "--games takes 1 to 100000000");
                games = v;
                games_given = 1;
            } else if (strcmp(a, "--seed") == 0) {
                seed = v;
            } else {
                if (v < CARC_MIN_PLAYERS || v > CARC_MAX_PLAYERS)
                    return cli_usage_error("bench", "--players takes 2 to 8, not '%s'", argv[i]);
                players = v;
                players_given = 1;
            }
        } else {
            return cli_usage_error("bench", "unknown argument '%s'", a);
        }
    }
    if (plies_given && !mcts_spec)
        return cli_usage_error("bench", "--plies goes with --mcts");
    if (players_given && mcts_spec)
        return cli_usage_error("bench", "--mcts searches two-player games: not with --players");
    /* Without --expansions the river run goes beside the base run, with
     * the same rules: river-keep-start alone then needs --expansions. */
    if (cli_check_rules("bench", &rules) != 0)
        return EXIT_USAGE;
    if (mcts_spec) {
        int pile = bench_pile(&rules);
        if (pile < 0) {
            fprintf(stderr, "carcassonne bench: cannot make a game with these expansions\n");
            return EXIT_INVALID;
        }
        uint64_t v;
        if (plies_text && strcmp(plies_text, "all") == 0)
            plies = BENCH_WHOLE_GAME;
        else if (plies_text && cli_parse_u64(plies_text, &v) == 0 && v < (uint64_t)pile)
            plies = (int)v;
        else if (plies_text)
            return cli_usage_error("bench", "--plies takes 0 to %d or 'all'", pile - 1);
        uint64_t most = plies == BENCH_WHOLE_GAME ? (uint64_t)pile : 8;
        uint64_t positions = games_given ? (games < most ? games : most) : 8;
        return bench_mcts(mcts_spec, &rules, (int)positions, plies, seed, json);
    }
    /* By default each expansion runs beside the base game, in its column. */
    static const uint32_t beside[] = {CARC_EXPANSION_RIVER, CARC_EXPANSION_INNS_CATHEDRALS,
                                      CARC_EXPANSION_TRADERS_BUILDERS, CARC_EXPANSIONS_SUPPORTED};
    enum { BESIDE = sizeof beside / sizeof beside[0] };
    bench_run runs[1 + BESIDE];
    int nruns = 1;
    memset(runs, 0, sizeof runs);
    runs[0].rules = rules;
    for (int i = 0; !expansions_given && i < BESIDE; i++) {
        runs[nruns].rules = rules;
        runs[nruns++].rules.expansions = beside[i];
    }
    for (int i = 0; i < nruns; i++)
        if (run_games(&runs[i], (int)players, games, seed) < 0)
            return EXIT_INVALID;
    if (json) {
        putchar('{');
        print_run_json(&runs[0], (int)players, seed);
        for (int i = 1; i < nruns; i++) {
            const char *name = carc_expansion_name(runs[i].rules.expansions);
            printf(",\"%s\":{", name ? name : "all-three");
            print_run_json(&runs[i], (int)players, seed);
            putchar('}');
        }
        puts("}");
    } else {
        print_text(runs, nruns, (int)players, seed);
    }
    return EXIT_OK;
}
