/* bench_server.c: the game server's load benchmark (bench_server.h). */
#include "bench_server.h"

int cmd_bench_server(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return 1;
}
