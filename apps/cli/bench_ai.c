/* bench_ai.c: `carcassonne bench --mcts`: the search's speed and memory in
 * positions a given number of greedy moves into a game, or spread over a
 * whole game. */
#include <stdio.h>
#include <stdlib.h>

#include "carcassonne_ai.h"
#include "args.h"
#include "cli.h"

int bench_pile(const carc_rules *rules)
{
    carc_game *g = carc_game_new(2, rules, 1);
    int pile = g ? carc_game_tile_total(g) - 1 : -1;
    carc_game_free(g);
    return pile;
}

/* The position `plies` greedy moves into the deal of `seed`. */
static carc_game *position_after(const carc_rules *rules, uint64_t seed, int plies)
{
    carc_game *g = carc_game_new(2, rules, seed);
    carc_player *greedy = carc_player_new("greedy", seed, NULL, 0);
    if (!g || !greedy) {
        carc_game_free(g);
        carc_player_free(greedy);
        return NULL;
    }
    /* Never past the last tile's draw, so that a move is left to search. */
    for (int i = 0; i < plies && !carc_game_over(g) && carc_game_tiles_left(g, NULL) > 0; i++) {
        carc_move m;
        if (carc_player_choose(greedy, g, &m, NULL) != CARC_OK ||
            carc_game_play(g, m, NULL, 0, NULL) != CARC_OK)
            break;
    }
    carc_player_free(greedy);
    return g;
}

/* The number of greedy moves before position i of n: `plies`, or with
 * BENCH_WHOLE_GAME the middle ply of the i-th of n equal slices of the
 * `pile` draws, so that each position stands for as many moves of a game
 * as the others (n = pile: every ply, the first to the last). */
static int plies_of(int plies, int pile, int i, int n)
{
    if (plies != BENCH_WHOLE_GAME)
        return plies;
    return (2 * i + 1) * pile / (2 * n);
}

int bench_mcts(const char *spec, const carc_rules *rules, int positions, int plies, uint64_t seed,
               int json)
{
    int pile = bench_pile(rules);
    char err[160];
    carc_player *p = carc_player_new(spec, seed, err, sizeof err);
    if (!p)
        return cli_usage_error("bench", "--mcts: %s", err);
    double iterations = 0.0, seconds = 0.0;
    size_t peak = 0;
    for (int i = 0; i < positions; i++) {
        carc_game *g =
            position_after(rules, seed + (uint64_t)i, plies_of(plies, pile, i, positions));
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
    double ms = 1000.0 * seconds / positions;
    /* The plies as text: a number, or "all" (JSON null) for a whole game. */
    char plies_text[16];
    snprintf(plies_text, sizeof plies_text, "%d", plies);
    int whole = plies == BENCH_WHOLE_GAME;
    char names[120], listed[120];
    cli_expansions_text(*rules, names, sizeof names, ",", "");
    cli_expansions_text(*rules, listed, sizeof listed, "\",\"", "");
    if (json)
        printf("{\"player\":\"%s\",\"positions\":%d,\"plies\":%s,\"seed\":%llu,"
               "\"iterations\":%.0f,\"seconds\":%.3f,\"ms_per_search\":%.1f,"
               "\"iterations_per_second\":%.0f,"
               "\"peak_memory_mib\":%.1f,\"expansions\":[%s%s%s]}\n",
               carc_player_spec(p), positions, whole ? "null" : plies_text,
               (unsigned long long)seed, iterations, seconds, ms, rate, mib, listed[0] ? "\"" : "",
               listed, listed[0] ? "\"" : "");
    else
        printf("player                 %s\n"
               "positions              %d (%s%s, seed %llu%s%s)\n"
               "time per search        %.1f ms\n"
               "iterations per second  %.0f\n"
               "peak memory            %.1f MiB per search\n",
               carc_player_spec(p), positions, whole ? "spread over a whole game" : plies_text,
               whole ? "" : cli_plural(plies, " greedy move in", " greedy moves in"),
               (unsigned long long)seed, names[0] ? ", expansions " : "", names, ms, rate, mib);
    carc_player_free(p);
    return EXIT_OK;
}
