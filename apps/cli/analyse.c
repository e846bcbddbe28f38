/* analyse.c: stub */
#include "cli.h"
int cmd_analyse(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return EXIT_USAGE;
}
