/* layout_of.h: which layout a game's state has, for the code built once
 * that passes a call to the build of that layout (layout.c, and the full
 * evaluation's ai/eval_layout.c, from the lines of layout.def). The
 * state's first byte says it (struct carc_game in state.h: 0 compact, 1
 * wide). */
#ifndef CARC_LAYOUT_OF_H
#define CARC_LAYOUT_OF_H

#include "carcassonne.h"
#include "rules.h"

/* The compact layout packs six players' followers into a feature's 32-bit
 * word (state.h); seven and eight players take the wide layout. */
enum { COMPACT_MAX_PLAYERS = 6 };

/* Whether a game of `players` with `rules` (NULL: the base game) has the
 * wide layout: expansions, more players than the compact one holds, or
 * more tiles than the base game's 72 (rules_extra_tiles). */
static inline int layout_wide_for(const carc_rules *rules, int players)
{
    return (rules && (rules->expansions != 0 || rules_extra_tiles(rules) > 0)) ||
           players > COMPACT_MAX_PLAYERS;
}

static inline int layout_is_wide(const carc_game *g)
{
    return *(const unsigned char *)(const void *)g != 0;
}

/* A call of layout.def, defined once for both layouts: it declares the
 * two builds' functions and passes the call to the one that `wide`, an
 * expression of the arguments, picks. */
#define LAYOUT_DISPATCH(ret, name, params, args, wide)                                             \
    ret name##_base params;                                                                        \
    ret name##_wide params;                                                                        \
    ret name params                                                                                \
    {                                                                                              \
        return (wide) ? name##_wide args : name##_base args;                                       \
    }

/* A call of layout.def that only the wide layout builds: a game of the
 * compact layout gets `base`. */
#define LAYOUT_WIDE_DISPATCH(ret, name, params, args, base)                                        \
    ret name##_wide params;                                                                        \
    ret name params                                                                                \
    {                                                                                              \
        return layout_is_wide(g) ? name##_wide args : (base);                                      \
    }

#endif
