/* session.h: one game in the terminal: the game, who sits at each seat,
 * the snapshots for undo, the log of scoring events, saving and loading.
 * No terminal code here. */
#ifndef CARC_TUI_SESSION_H
#define CARC_TUI_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "carcassonne_ai.h"
#include "options.h"
#include "tile_info.h"

enum {
    SESSION_LOG_MAX = 200,
    SESSION_LOG_LINE = 256,
    SESSION_MAX_SNAPSHOTS = CARC_MAX_TILES + 8,
    SESSION_PATH_MAX = 512,
};

typedef struct seat {
    char spec[PLAY_SPEC_MAX];
    char short_name[PLAY_SPEC_MAX]; /* "mcts hard": the kind and its level */
    carc_player *player;            /* NULL: a human at this seat */
} seat;

/* The game as it stood when a human's turn began (undo returns there). */
typedef struct snapshot {
    carc_game *game;
    int moves;   /* carc_game_move_count() of `game` */
    int log_len; /* lines of the log at that moment */
} snapshot;

typedef struct session {
    carc_game *g;
    int nseats;
    seat seats[CARC_MAX_PLAYERS];
    uint64_t seed;
    int computers; /* seats played by the computer */
    snapshot snaps[SESSION_MAX_SNAPSHOTS];
    int nsnaps;
    char log[SESSION_LOG_MAX][SESSION_LOG_LINE];
    int nlog;
    int logged; /* lines ever logged: a full log drops its oldest, nlog stays */
    /* The final scoring's events that scored (winners != 0), valid while
     * the game is over; the end screen steps through them. */
    carc_event final_events[CARC_MAX_EVENTS];
    int nfinal;
    int dirty; /* moves since the last save */
    /* While a saved game is read: the pile after the last move read. */
    tile_pile_mark replayed;
    char saved_path[SESSION_PATH_MAX];
} session;

/* Status of session_open(). */
enum { SESSION_OK = 0, SESSION_USAGE = -1, SESSION_INVALID = -2 };

/* Starts the game `opt` asks for: a new one, or the record of opt->load.
 * On failure writes a message into `err`. */
int session_open(session *s, const play_options *opt, char *err, size_t errcap);
void session_close(session *s);

int session_is_human(const session *s, int player);
/* Name of player 0..5: Red, Blue, Yellow, Green, Black, Grey. */
const char *session_player_name(int player);

/* Plays `m` for the current player and logs what it scored. */
carc_status session_play(session *s, carc_move m);
/* Logs one line (printf format). */
void session_log(session *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* "Blue scores 8 for a city" for a score event. */
void session_event_text(const carc_event *ev, char *buf, size_t cap);

/* Called when a human's turn begins: keeps a snapshot to undo to. */
void session_turn_begins(session *s);
/* Undoes back to the start of the last human turn before the current one.
 * Returns 0, or -1 when there is nothing to undo. */
int session_undo(session *s);

/* Writes the record of the game (and its seats) to `path`. Returns 0, or
 * -1 with a message in `err`. */
int session_save(session *s, const char *path, char *err, size_t errcap);

/* Kinds discarded so far, counted into counts[CARC_MAX_KINDS] (by kind);
 * returns how many. */
int session_discards(const session *s, int counts[CARC_MAX_KINDS]);

#endif
