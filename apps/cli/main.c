/* main.c: the `carcassonne` program: dispatch to its subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin.h"
#include "args.h"
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
    if (strcmp(cmd, "puzzles") == 0)
        return cmd_puzzles(argc - 1, argv + 1);
    if (strcmp(cmd, "connect") == 0)
        return cmd_connect(argc - 1, argv + 1);
    if (strcmp(cmd, "serve") == 0)
        return cmd_serve(argc - 1, argv + 1);
    if (strcmp(cmd, "admin") == 0)
        return cmd_admin(argc - 1, argv + 1);
    fprintf(stderr, "carcassonne: unknown command '%s'\n\n%s", cmd, usage);
    return EXIT_USAGE;
}
