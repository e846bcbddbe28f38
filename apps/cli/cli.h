/* cli.h: what the subcommands of the `carcassonne` program share. */
#ifndef CARC_CLI_H
#define CARC_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "carcassonne.h"

/* Exit statuses of every subcommand. */
enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

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
/* Reads the expansion names of --expansions (names separated by commas or
 * spaces; "" is the base game alone) into `rules->expansions`; a usage
 * error of command `cmd` (EXIT_USAGE, said on standard error) for an
 * unknown name or a name given twice, else 0. */
int cli_parse_expansions(const char *cmd, const char *text, carc_rules *rules);
/* Reads the rule names of --rules (commas or spaces between them) and adds
 * their flags to `rules->flags`; a usage error of `cmd`, else 0. */
int cli_parse_rules(const char *cmd, const char *text, carc_rules *rules);
/* Whether a game can be made with `rules` (carc_rules_check(): e.g.
 * river-keep-start needs the river): a usage error of `cmd`, else 0. */
int cli_check_rules(const char *cmd, const carc_rules *rules);
/* The names of the expansions of `rules` joined by `sep`, or `none` when
 * there are none (`buf` holds the text; returned). */
const char *cli_expansions_text(carc_rules rules, char *buf, size_t cap, const char *sep,
                                const char *none);

#endif
