/* layout.h: the two layouts of a game's state. The modules that touch the
 * state (board, features, scoring, game, the full evaluation) are compiled
 * twice: LAYOUT_WIDE 0 gives the compact layout of the base game (one-byte
 * segment ids, two bits per edge, 24 kinds, a 74-square torus), LAYOUT_WIDE 1
 * the wide layout of a game with expansions (two-byte ids, three bits per
 * edge for the river, every kind of the catalogue, 128 tiles). Each build
 * gives its external names, which layout.def lists, a suffix: _base or
 * _wide; layout.c holds the public functions, which pick a build by the
 * state's first byte. Include this file before any other of the project's
 * headers. */
#ifndef CARC_LAYOUT_H
#define CARC_LAYOUT_H

#ifndef LAYOUT_WIDE
#define LAYOUT_WIDE 0
#endif

#if LAYOUT_WIDE
#define LAYOUT_NAME(name) name##_wide
#else
#define LAYOUT_NAME(name) name##_base
#endif

/* Each name of layout.def gets its build's symbol (name_base, name_wide)
 * by the pragma that GCC and Clang have for this (redefine_extname), so
 * that the sources, the debugger's source view and tools see one name. */
#define LAYOUT_STR_(text) #text
#define LAYOUT_STR(text) LAYOUT_STR_(text)
#define LAYOUT_RENAME(name) _Pragma(LAYOUT_STR(redefine_extname name LAYOUT_NAME(name)))

#define LAYOUT_CALL_ON(ret, name, params, args, wide) LAYOUT_RENAME(name)
#define LAYOUT_AI_CALL(ret, name, params, args) LAYOUT_RENAME(name)
#define LAYOUT_PRIVATE(name) LAYOUT_RENAME(name)
#if LAYOUT_WIDE
#define LAYOUT_WIDE_CALL(ret, name, params, args, base) LAYOUT_RENAME(name)
#define LAYOUT_WIDE_PRIVATE(name) LAYOUT_RENAME(name)
#endif
#include "layout.def"

#endif
