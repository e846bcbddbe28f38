/* connect.h: `carcassonne connect`, a command-line client of the game
 * server (docs/connect.md). */
#ifndef CARC_CONNECT_H
#define CARC_CONNECT_H

/* Runs `carcassonne connect`; argv[0] is "connect". Returns the exit
 * status: 0 the game ended, 1 a failure, 2 bad arguments. */
int cmd_connect(int argc, char **argv);

#endif
