/* main.c: the `carcassonne` program: dispatch to its subcommands. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "connect.h"
#include "play.h"
#include "serve.h"

static const char usage[] =
    "usage: carcassonne COMMAND [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  play [--players LIST] [--load FILE] ...\n"
    "                             play a game in the terminal (you against the computer)\n"
    "  replay [--json] FILE       check a game record and print its scores\n"
    "  selfplay --seed S --players N [--games K] [--record FILE] [--expansions LIST]\n"
    "                             play games between random players\n"
    "  show [--step] [--delay MS] [--color|--no-color] [--last N] FILE\n"
    "                             draw the board of a record in the terminal\n"
    "  bench [--json] [--games K] [--seed S] [--expansions LIST]\n"
    "                             measure the engine's speed\n"
    "  arena A B --games N [--threads T] [--seed S] [--json] [--record DIR]\n"
    "        [--rules LIST] [--expansions LIST]\n"
    "                             deck-paired games between two players\n"
    "  engine [--player SPEC] [--seed S]\n"
    "                             speak the engine protocol on stdin/stdout\n"
    "  analyse [--ms N] [--top K] [--each-move] [--json] FILE\n"
    "                             rank the moves of a record's position\n"
    "  connect URL [--create SEATS | --table ID] [--player SPEC] ...\n"
    "                             play a seat at a game server's table\n"
    "  serve [--host H] [--port N] [--db FILE] ...\n"
    "                             run the game server (HTTP and WebSocket)\n"
    "\n"
    "Expansions: --expansions river,inns-cathedrals plays The River, Inns &\n"
    "Cathedrals or both (selfplay, arena, bench, connect --create); replay,\n"
    "show and analyse take them from the record.\n"
    "\n"
    "Run 'carcassonne COMMAND --help' for a command's options,\n"
    "'carcassonne --version' for the version; 'man carcassonne' once installed.\n";

char *cli_read_file(const char *path, size_t limit, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (n == cap) {
            char *bigger = cap > limit ? NULL : realloc(buf, 2 * cap + 1);
            if (!bigger)
                break;
            buf = bigger;
            cap *= 2;
        }
        size_t want = cap - n;
        size_t got = fread(buf + n, 1, want, f);
        n += got;
        if (got < want || n > limit)
            break;
    }
    int failed = !buf || ferror(f);
    if (f != stdin)
        fclose(f);
    if (failed) {
        free(buf);
        errno = errno ? errno : EIO;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 19)
        return -1;
    *out = strtoull(s, NULL, 10);
    return 0;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "carcassonne %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'carcassonne %s --help'.\n", cmd);
    return EXIT_USAGE;
}

const char *cli_player_name(int player)
{
    static const char *const names[CARC_MAX_PLAYERS] = {
        "Red", "Blue", "Yellow", "Green", "Black", "Grey",
    };
    return player >= 0 && player < CARC_MAX_PLAYERS ? names[player] : "?";
}

const char *cli_kind_name(int kind)
{
    static const char *const names[] = {"road", "city", "farm", "cloister"};
    return kind >= 0 && kind < 4 ? names[kind] : "?";
}

int cli_parse_expansions(const char *cmd, const char *text, carc_rules *rules)
{
    char why[160] = "";
    if (carc_expansions_parse(text, rules, why, sizeof why) != CARC_OK)
        return cli_usage_error(cmd, "--expansions: %s", why[0] ? why : "bad list");
    return 0;
}

int cli_parse_rules(const char *cmd, const char *text, carc_rules *rules)
{
    carc_rules more = {.flags = 0};
    char why[160] = "";
    if (carc_rules_parse(text, &more, why, sizeof why) != CARC_OK)
        return cli_usage_error(cmd, "--rules: %s", why[0] ? why : "bad list");
    rules->flags |= more.flags;
    return 0;
}

int cli_check_rules(const char *cmd, const carc_rules *rules)
{
    char why[160] = "";
    if (carc_rules_check(rules, why, sizeof why) != CARC_OK)
        return cli_usage_error(cmd, "%s",
                               why[0] ? why : "these rules and expansions cannot be played");
    return 0;
}

const char *cli_expansions_text(carc_rules rules, char *buf, size_t cap, const char *sep,
                                const char *none)
{
    if (carc_expansions_format(rules, buf, cap, sep) == 0)
        snprintf(buf, cap, "%s", none);
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("carcassonne %s\n", CARC_VERSION);
        return EXIT_OK;
    }
    if (strcmp(cmd, "play") == 0)
        return cmd_play(argc - 1, argv + 1);
    if (strcmp(cmd, "replay") == 0)
        return cmd_replay(argc - 1, argv + 1);
    if (strcmp(cmd, "selfplay") == 0)
        return cmd_selfplay(argc - 1, argv + 1);
    if (strcmp(cmd, "show") == 0)
        return cmd_show(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0)
        return cmd_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "arena") == 0)
        return cmd_arena(argc - 1, argv + 1);
    if (strcmp(cmd, "engine") == 0)
        return cmd_engine(argc - 1, argv + 1);
    if (strcmp(cmd, "analyse") == 0 || strcmp(cmd, "analyze") == 0)
        return cmd_analyse(argc - 1, argv + 1);
    if (strcmp(cmd, "connect") == 0)
        return cmd_connect(argc - 1, argv + 1);
    if (strcmp(cmd, "serve") == 0)
        return cmd_serve(argc - 1, argv + 1);
    fprintf(stderr, "carcassonne: unknown command '%s'\n\n%s", cmd, usage);
    return EXIT_USAGE;
}
