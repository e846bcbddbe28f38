/* bench_ai.c: `carcassonne bench --mcts`: the search's speed and memory in
 * midgame positions. */
#include <stdio.h>
#include <stdlib.h>

#include "carcassonne_ai.h"
#include "cli.h"

/* A midgame position: `plies` greedy moves into the deal of `seed`. */
static carc_game *midgame(uint64_t seed, int plies)
{
    carc_game *g = carc_game_new(2, NULL, seed);
    carc_player *greedy = carc_player_new("greedy", seed, NULL, 0);
    if (!g || !greedy) {
        carc_game_free(g);
        carc_player_free(greedy);
        return NULL;
    }
    for (int i = 0; i < plies && !carc_game_over(g); i++) {
        carc_move m;
        if (carc_player_choose(greedy, g, &m, NULL) != CARC_OK ||
            carc_game_play(g, m, NULL, 0, NULL) != CARC_OK)
            break;
    }
    carc_player_free(greedy);
    return g;
}

int bench_mcts(const char *spec, int positions, uint64_t seed, int json)
{
    char err[160];
    carc_player *p = carc_player_new(spec, seed, err, sizeof err);
    if (!p)
        return cli_usage_error("bench", "--mcts: %s", err);
    double iterations = 0.0, seconds = 0.0;
    size_t peak = 0;
    for (int i = 0; i < positions; i++) {
        carc_game *g = midgame(seed + (uint64_t)i, 30);
        carc_move m;
        carc_search_info info;
        if (!g || carc_player_choose(p, g, &m, &info) != CARC_OK) {
            carc_game_free(g);
            carc_player_free(p);
            fprintf(stderr, "carcassonne bench: the search failed\n");
            return EXIT_INVALID;
        }
        iterations += (double)info.iterations;
        seconds += info.seconds;
        if (info.memory_bytes > peak)
            peak = info.memory_bytes;
        carc_game_free(g);
    }
    double rate = seconds > 0.0 ? iterations / seconds : 0.0;
    double mib = (double)peak / (1024.0 * 1024.0);
    if (json)
        printf("{\"player\":\"%s\",\"positions\":%d,\"seed\":%llu,\"iterations\":%.0f,"
               "\"seconds\":%.3f,\"iterations_per_second\":%.0f,\"peak_memory_mib\":%.1f}\n",
               carc_player_spec(p), positions, (unsigned long long)seed, iterations, seconds, rate,
               mib);
    else
        printf("player                 %s\n"
               "positions              %d midgame positions (30 greedy moves in, seed %llu)\n"
               "iterations per second  %.0f\n"
               "peak memory            %.1f MiB per search\n",
               carc_player_spec(p), positions, (unsigned long long)seed, rate, mib);
    carc_player_free(p);
    return EXIT_OK;
}
