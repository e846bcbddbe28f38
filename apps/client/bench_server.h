/* bench_server.h: `carcassonne bench --server URL`, the game server's load
 * benchmark: many tables of scripted players on one event loop. */
#ifndef CARC_BENCH_SERVER_H
#define CARC_BENCH_SERVER_H

/* Runs the benchmark; argv[0] is "bench" and argv holds "--server URL"
 * among the options. Returns the exit status: 0 done (and no move lost or
 * duplicated), 1 a failure or a lost move, 2 bad arguments. */
int cmd_bench_server(int argc, char **argv);

#endif
