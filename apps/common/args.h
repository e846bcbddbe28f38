/* args.h: what every command of the `carcassonne` program needs to read
 * its command line: usage errors, whole numbers, input files, rule and
 * expansion lists, and the players' names in its output. */
#ifndef CARC_COMMON_ARGS_H
#define CARC_COMMON_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "carcassonne.h"

/* Exit statuses of every command. */
enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

/* Reads FILE ('-' for standard input), at most `limit` bytes; a longer
 * input is read up to limit + 1 bytes so the caller can tell. Returns a
 * malloc'ed buffer (NUL-terminated) and its length, or NULL with errno. */
char *cli_read_file(const char *path, size_t limit, size_t *len);
/* Parses a whole decimal unsigned number; 0 on success. */
int cli_parse_u64(const char *s, uint64_t *out);
/* Prints "carcassonne CMD: MESSAGE" and "Try 'carcassonne CMD --help'."
 * on standard error; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* cli_usage_error() for a mode of a command with help of its own: the
 * hint says "Try 'carcassonne HELP --help'." ("bench --server URL"). */
int cli_usage_error_help(const char *cmd, const char *help, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Name of a player by index, for text output: "Red", "Blue", ... */
const char *cli_player_name(int player);
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
