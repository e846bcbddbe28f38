/* admin.h: `carcassonne admin`, the operator's commands on a server's
 * database (accounts, tables, backups), run beside a live server. */
#ifndef CARC_SERVER_ADMIN_H
#define CARC_SERVER_ADMIN_H

/* Runs `carcassonne admin` with its arguments (argv[0] is "admin").
 * Returns the exit status: 0 done, 1 failed (nothing changed), 2 bad
 * arguments. */
int cmd_admin(int argc, char **argv);

#endif
