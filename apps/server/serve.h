/* serve.h: `carcassonne serve`, the game server. */
#ifndef CARC_SERVER_SERVE_H
#define CARC_SERVER_SERVE_H

/* Runs `carcassonne serve` with its arguments (argv[0] is "serve").
 * Returns the exit status: 0 after a clean stop, 1 on failure, 2 on bad
 * arguments. */
int cmd_serve(int argc, char **argv);

#endif
