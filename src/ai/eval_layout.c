/* eval_layout.c: the full evaluation's entry points (eval.h), each passing
 * the call to the build of the game's layout: eval_full.c is compiled once
 * per layout (layout.h), this file once. The calls are generated from
 * their lines in layout.def. */
#include "eval.h"
#include "layout_of.h"

#define LAYOUT_AI_CALL(ret, name, params, args)                                                    \
    LAYOUT_DISPATCH(ret, name, params, args, layout_is_wide(g))
#include "layout.def"
