/* show.c: `carcassonne show` (placeholder until the renderer lands). */
#include <stdio.h>

#include "cli.h"

int cmd_show(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("carcassonne show: not built yet\n", stderr);
    return EXIT_USAGE;
}
