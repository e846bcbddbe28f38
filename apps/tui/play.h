/* play.h: `carcassonne play`, the game in the terminal (ncursesw). */
#ifndef CARC_TUI_PLAY_H
#define CARC_TUI_PLAY_H

/* Runs the subcommand with argv[0] "play"; returns the exit status: 0
 * after a game, 1 an invalid record, 2 bad arguments. */
int cmd_play(int argc, char **argv);

#endif
