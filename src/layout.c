/* layout.c: the public functions of a game, each passing the call to the
 * build of the game's layout (layout.h): the compact one for the base game,
 * the wide one for a game with expansions. A state's first byte says which
 * (struct carc_game in state.h). Every call is generated from its line in
 * layout.def; the two below are the same in both layouts. */
#include <stdlib.h>

#include "carcassonne.h"
#include "layout_of.h"

#define LAYOUT_CALL_ON LAYOUT_DISPATCH
#define LAYOUT_WIDE_CALL LAYOUT_WIDE_DISPATCH
#include "layout.def"

void carc_game_free(carc_game *g)
{
    free(g);
}

int carc_move_equal(carc_move a, carc_move b)
{
    if (a.type != b.type || a.place.tile != b.place.tile)
        return 0;
    return a.type == CARC_MOVE_DISCARD ||
           (a.place.x == b.place.x && a.place.y == b.place.y && a.place.rot == b.place.rot &&
            a.segment == b.segment && (a.segment == CARC_NO_SPOT || a.figure == b.figure));
}
