/* layout_of.h: which layout a game's state has, for the code built once
 * that passes a call to the build of that layout (layout.c, and the full
 * evaluation's ai/eval_layout.c). The state's first byte says it (struct
 * carc_game in state.h: 0 compact, 1 wide). */
#ifndef CARC_LAYOUT_OF_H
#define CARC_LAYOUT_OF_H

#include "carcassonne.h"

static inline int layout_is_wide(const carc_game *g)
{
    return *(const unsigned char *)(const void *)g != 0;
}

#endif
