/* cli.h: the subcommands of the `carcassonne` program, as main.c calls
 * them (what they share to read their command lines: args.h). */
#ifndef CARC_CLI_H
#define CARC_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "carcassonne.h"

int cmd_replay(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_bench(int argc, char **argv);
/* `bench --mcts SPEC`: search speed and memory of player SPEC in
 * `positions` positions of games with `rules`, each `plies` greedy moves
 * into a deal (seeds seed, seed + 1, ...), or with plies BENCH_WHOLE_GAME
 * spread over a game. */
enum { BENCH_WHOLE_GAME = -1 };
int bench_mcts(const char *spec, const carc_rules *rules, int positions, int plies, uint64_t seed,
               int json);
/* The draws of a whole game with `rules` (71 in the base game), or -1
 * when no such game can be made. */
int bench_pile(const carc_rules *rules);
int cmd_arena(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_analyse(int argc, char **argv);
int cmd_puzzles(int argc, char **argv);

/* The word for a count in text output: `one` when n is 1, else `many`
 * ("1 game", "2 games"). */
static inline const char *cli_plural(long long n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

#endif
