/* eval_layout.c: the computer players' calls into a game's state (the
 * full evaluation's, eval.h, and the exact solver's probes, exact.h), each
 * passing the call to the build of the game's layout: eval_full.c and
 * exact_layout.c are compiled once per layout (layout.h), this file once.
 * The calls are generated from their lines in layout.def. */
#include "eval.h"
#include "exact.h"
#include "layout_of.h"

#define LAYOUT_AI_CALL(ret, name, params, args)                                                    \
    LAYOUT_DISPATCH(ret, name, params, args, layout_is_wide(g))
#include "layout.def"
