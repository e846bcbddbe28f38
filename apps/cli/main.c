/* main.c: the `carcassonne` program: dispatch to its subcommands. The
 * network commands (serve, admin, connect, bench --server) live in a
 * second program beside this one, `carcassonne-net` (net_main.c), which
 * this one becomes (execv: the same process) when it is asked for one of
 * them: they need libwebsockets, libpq, libcurl and the rest, 40 shared
 * libraries that every start of this program would otherwise load. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cli.h"
#include "play.h"

static const char usage[] =
    "usage: carcassonne COMMAND [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  play [--players LIST] [--load FILE] ...\n"
    "                             play a game in the terminal (you against the computer)\n"
    "  replay [--json] [--require-fair] FILE\n"
    "                             check a game record and print its scores\n"
    "  selfplay --seed S --players N [--games K] [--record FILE] [--expansions LIST]\n"
    "                             play games between random players\n"
    "  show [--step [--delay MS]] [--color|--no-color] [--last N] FILE\n"
    "                             draw the board of a record in the terminal\n"
    "  bench [--json] [--games K] [--seed S] [--players N] [--mcts SPEC] ...\n"
    "                             measure the engine's speed\n"
    "  arena A B --games N [--threads T] [--seed S] [--json] [--record DIR]\n"
    "        [--rules LIST] [--expansions LIST]\n"
    "                             deck-paired games between two players\n"
    "  engine [--player SPEC] [--seed S]\n"
    "                             speak the engine protocol on stdin/stdout\n"
    "  analyse [--ms N] [--top K] [--each-move] [--exact] [--json] FILE\n"
    "                             rank the moves of a record's position\n"
    "  puzzles --from RECORD... --out FILE [--ms N] [--max K] | --regoal SET --out FILE\n"
    "                             make a puzzle set from game records\n"
    "  connect URL [--create SEATS | --table ID] [--player SPEC] ...\n"
    "                             play a seat at a game server's table\n"
    "  serve [--host H] [--port N] [--db FILE] ...\n"
    "                             run the game server (HTTP and WebSocket)\n"
    "  admin [--db FILE|URI] COMMAND ...\n"
    "                             the operator's commands: accounts, reset-password,\n"
    "                             disable, enable, delete-table, backup\n"
    "\n"
    "Expansions: --expansions river,inns-cathedrals,traders-builders plays\n"
    "The River, Inns & Cathedrals, Traders & Builders or any of them together\n"
    "(play, selfplay, arena, bench, connect --create); replay, show and\n"
    "analyse take them from the record.\n"
    "\n"
    "Run 'carcassonne COMMAND --help' for a command's options,\n"
    "'carcassonne --version' for the version; 'man carcassonne' once installed.\n";

/* The network program's name, beside this one. */
static const char net_program[] = "carcassonne-net";

/* Whether `cmd` (with its arguments) is one of the network program's. */
static int is_net_command(int argc, char **argv)
{
    const char *cmd = argv[1];
    if (strcmp(cmd, "serve") == 0 || strcmp(cmd, "admin") == 0 || strcmp(cmd, "connect") == 0)
        return 1;
    if (strcmp(cmd, "bench") == 0)
        for (int i = 2; i < argc; i++)
            if (strcmp(argv[i], "--server") == 0)
                return 1;
    return 0;
}

/* Runs the network program found beside this one (/proc/self/exe) with
 * this command line; returns only when it cannot, with the exit status. */
static int exec_net(char **argv)
{
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    path[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(path, '/');
    if (!slash || (size_t)(slash + 1 - path) + sizeof net_program > sizeof path) {
        fprintf(stderr, "carcassonne: %s: cannot find this program's folder\n", argv[1]);
        return EXIT_INVALID;
    }
    memcpy(slash + 1, net_program, sizeof net_program);
    execv(path, argv);
    fprintf(stderr, "carcassonne: %s needs %s (installed beside carcassonne): %s\n", argv[1], path,
            strerror(errno));
    return EXIT_INVALID;
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
    if (is_net_command(argc, argv))
        return exec_net(argv);
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
    if (strcmp(cmd, "puzzles") == 0)
        return cmd_puzzles(argc - 1, argv + 1);
    fprintf(stderr, "carcassonne: unknown command '%s'\n\n%s", cmd, usage);
    return EXIT_USAGE;
}
