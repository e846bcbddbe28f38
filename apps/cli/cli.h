/* cli.h: what the subcommands of the `carcassonne` program share. */
#ifndef CARC_CLI_H
#define CARC_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "carcassonne.h"

/* Exit statuses of every subcommand. */
enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };
/* Tiles drawn in a whole base game (72 less the start tile). */
enum { BASE_GAME_PILE = 71 };

int cmd_replay(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_bench(int argc, char **argv);
/* `bench --mcts SPEC`: search speed and memory of player SPEC in
 * `positions` positions, each `plies` greedy moves into a deal (seeds
 * seed, seed + 1, ...), or with plies BENCH_WHOLE_GAME spread over a game. */
enum { BENCH_WHOLE_GAME = -1 };
int bench_mcts(const char *spec, int positions, int plies, uint64_t seed, int json);
int cmd_arena(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_analyse(int argc, char **argv);

/* Reads FILE ('-' for standard input), at most `limit` bytes; a longer
 * input is read up to limit + 1 bytes so the caller can tell. Returns a
 * malloc'ed buffer (NUL-terminated) and its length, or NULL with errno. */
char *cli_read_file(const char *path, size_t limit, size_t *len);
/* Parses a whole decimal unsigned number; 0 on success. */
int cli_parse_u64(const char *s, uint64_t *out);
/* Prints "carcassonne CMD: MESSAGE" and the usage hint; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Name of a player by index, for text output: "Red", "Blue", ... */
const char *cli_player_name(int player);
const char *cli_kind_name(int kind);

#endif
