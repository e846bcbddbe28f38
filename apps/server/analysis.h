/* analysis.h: the engine's analysis of one position, as the worker pool
 * computes it for hints and the chance-to-win bar: the three best moves of
 * the player to move, each with its expected margin and chance to win. */
#ifndef CARC_SERVER_ANALYSIS_H
#define CARC_SERVER_ANALYSIS_H

#include "message.h"

enum { ANALYSIS_MOVES = 3 };

typedef struct srv_analysis {
    int player;                                     /* the player to move */
    int nmoves;                                     /* 0..ANALYSIS_MOVES, best first */
    char moves[ANALYSIS_MOVES][MSG_MOVE_BYTES + 1]; /* record notation */
    double margin[ANALYSIS_MOVES];                  /* expected final margin, points */
    double win[ANALYSIS_MOVES];                     /* chance to win, 0..1 (ties half) */
} srv_analysis;

#endif
