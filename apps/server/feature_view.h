/* feature_view.h: every feature on the board, for the `features` request
 * (the browser's inspector and its highlighting of scored features). */
#ifndef CARC_SERVER_FEATURE_VIEW_H
#define CARC_SERVER_FEATURE_VIEW_H

#include <jansson.h>

#include "carcassonne.h"

/* {"features":[{"id":..,"kind":"city","complete":true,"tiles":..,
 * "pennants":..,"open_edges":..,"value":..,"value_at_end":..,
 * "followers":[per player],"owners":[players],"parts":[[x,y,"SPOT"],...]}]}:
 * the reply's fields. New reference. */
json_t *features_view(const carc_game *g);

#endif
