/* net_main.c: `carcassonne-net`, the network commands of the carcassonne
 * program: the game server (serve), its operator's commands (admin), a
 * seat at a server's table (connect) and the server's load benchmark
 * (bench --server). `carcassonne` runs this program for them (main.c), so
 * that its other commands start without the libraries these need. */
#include <stdio.h>
#include <string.h>

#include "admin.h"
#include "args.h"
#include "bench_server.h"
#include "connect.h"
#include "serve.h"

static const char usage[] = "usage: carcassonne-net serve|admin|connect|bench --server ...\n"
                            "The network commands of carcassonne: run them as\n"
                            "'carcassonne COMMAND' ('carcassonne --help').\n";

int main(int argc, char **argv)
{
    const char *cmd = argc >= 2 ? argv[1] : "";
    if (strcmp(cmd, "serve") == 0)
        return cmd_serve(argc - 1, argv + 1);
    if (strcmp(cmd, "admin") == 0)
        return cmd_admin(argc - 1, argv + 1);
    if (strcmp(cmd, "connect") == 0)
        return cmd_connect(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0)
        return cmd_bench_server(argc - 1, argv + 1);
    fputs(usage, stderr);
    return EXIT_USAGE;
}
