/* bench.c: `carcassonne bench`: full-rules random games per second and
 * the time of legal-placement generation, with a checksum of the games. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench_server.h"
#include "cli.h"

static const char bench_usage[] =
    "usage: carcassonne bench [--json] [--games K] [--seed S] [--players N]\n"
    "       carcassonne bench --mcts SPEC [--plies N|all] [--games K] [--seed S] [--json]\n"
    "\n"
    "Plays K (default 200000) full-rules games between random players on one\n"
    "thread: 71 draws, a uniformly chosen legal placement, a follower on a\n"
    "uniformly chosen legal spot half of the time, the final scoring with\n"
    "farms. Prints games per second, the mean time of legal-placement\n"
    "generation per ply, and a checksum of every game's moves and scores\n"
    "that changes only when the engine's behaviour changes.\n"
    "\n"
    "With --mcts SPEC (e.g. mcts:ms=1000,threads=2): runs that player in K\n"
    "(default 8) positions, N (default 30: the midgame) greedy moves into the\n"
    "deals of seeds S, S+1, ..., and prints its mean time per search, its\n"
    "iterations per second (all iterations over all seconds) and the peak\n"
    "memory of one search. With\n"
    "--plies all the positions are spread evenly over a game, one in the\n"
    "middle of each of K equal parts of its 71 draws (with K = 71 every\n"
    "draw, the first to the last), so that the time per search is that of\n"
    "whole games. K is at most 8, or 71 with --plies all.\n"
    "\n"
    "  --json   print one JSON object\n";

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

static void play_games(carc_game *g, int players, uint64_t seed, bench_result *r)
{
    carc_rng rng = carc_rng_seed(seed);
    r->checksum = 0xCBF29CE484222325ull;
    double start = now_seconds();
    for (uint64_t i = 0; i < r->games; i++) {
        carc_game_reset(g, players, NULL, seed + i);
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
static void time_legal(carc_game *g, int players, uint64_t seed, uint64_t games, bench_result *r)
{
    carc_placement out[CARC_MAX_PLACEMENTS];
    carc_rng rng = carc_rng_seed(seed);
    volatile int sink = 0;
    for (uint64_t i = 0; i < games; i++) {
        carc_game_reset(g, players, NULL, seed + i);
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

int cmd_bench(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--server") == 0)
            return cmd_bench_server(argc, argv); /* the game server's load benchmark */
    int json = 0;
    uint64_t games = 200000, seed = 1, players = 2;
    const char *mcts_spec = NULL;
    int plies = 30, plies_given = 0, games_given = 0;
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
            uint64_t v;
            if (i + 1 < argc && strcmp(argv[i + 1], "all") == 0)
                plies = BENCH_WHOLE_GAME;
            else if (i + 1 < argc && cli_parse_u64(argv[i + 1], &v) == 0 && v < BASE_GAME_PILE)
                plies = (int)v;
            else
                return cli_usage_error("bench", "--plies takes 0 to %d or 'all'", BASE_GAME_PILE - 1);
            i++;
            plies_given = 1;
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
                    return cli_usage_error("bench", "--players takes 2 to 6");
                players = v;
            }
        } else {
            return cli_usage_error("bench", "unknown argument '%s'", a);
        }
    }
    if (plies_given && !mcts_spec)
        return cli_usage_error("bench", "--plies goes with --mcts");
    if (mcts_spec) {
        uint64_t most = plies == BENCH_WHOLE_GAME ? BASE_GAME_PILE : 8;
        uint64_t positions = games_given ? (games < most ? games : most) : 8;
        return bench_mcts(mcts_spec, (int)positions, plies, seed, json);
    }
    carc_game *g = carc_game_new((int)players, NULL, seed);
    if (!g)
        return EXIT_INVALID;
    bench_result r;
    memset(&r, 0, sizeof r);
    r.games = games;
    play_games(g, (int)players, seed, &r);
    uint64_t legal_games = games < 2000 ? games : 2000;
    time_legal(g, (int)players, seed, legal_games, &r);
    carc_game_free(g);
    double gps = (double)r.games / r.seconds;
    double legal_ns = 1e9 * r.legal_seconds / (double)r.legal_calls;
    double mean_score = (double)r.total_score / (double)(r.games * players);
    if (json) {
        printf("{\"games\":%llu,\"players\":%llu,\"seed\":%llu,\"plies\":%llu,"
               "\"seconds\":%.3f,\"games_per_second\":%.0f,\"ns_per_ply\":%.1f,"
               "\"legal_ns_per_ply\":%.1f,\"mean_score\":%.3f,\"state_bytes\":%zu,"
               "\"checksum\":\"%016llx\"}\n",
               (unsigned long long)r.games, (unsigned long long)players, (unsigned long long)seed,
               (unsigned long long)r.plies, r.seconds, gps, 1e9 * r.seconds / (double)r.plies,
               legal_ns, mean_score, carc_game_size(NULL), (unsigned long long)r.checksum);
    } else {
        printf("games             %llu (%llu players, seed %llu, %llu plies)\n",
               (unsigned long long)r.games, (unsigned long long)players, (unsigned long long)seed,
               (unsigned long long)r.plies);
        printf("games per second  %.0f\n", gps);
        printf("ns per ply        %.1f\n", 1e9 * r.seconds / (double)r.plies);
        printf("legal ns per ply  %.1f\n", legal_ns);
        printf("mean score        %.3f\n", mean_score);
        printf("state bytes       %zu\n", carc_game_size(NULL));
        printf("checksum          %016llx\n", (unsigned long long)r.checksum);
    }
    return EXIT_OK;
}
