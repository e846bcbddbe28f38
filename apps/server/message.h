/* message.h: a client's request frame decoded into a checked struct
 * (docs/server-protocol.md), and the protocol's error codes. */
#ifndef CARC_SERVER_MESSAGE_H
#define CARC_SERVER_MESSAGE_H

#include <stddef.h>
#include <stdint.h>

#include "carcassonne.h"

/* Limits of the protocol, as hello.ok announces them. */
enum {
    MSG_MAX_BYTES = 8192,
    MSG_PER_SECOND = 20,
    MSG_NAME_BYTES = 32,
    MSG_CHAT_BYTES = 200,
    MSG_CHAT_INTERVAL_MS = 1000, /* one chat line a second per connection */
    MSG_ID_BYTES = 64,
    MSG_TABLE_BYTES = 32, /* longer table fields are refused outright */
    MSG_INVITE_BYTES = 32,
    MSG_SPEC_BYTES = 119, /* carc_player_new()'s limit */
    MSG_MOVE_BYTES = 63,
    MSG_CLIENT_BYTES = 64,
    MSG_KEY_MIN = 16, /* a request key: 16 to 64 letters, digits, '-' or '_' */
    MSG_KEY_BYTES = 64,
    MSG_MAX_MINE = 100,
    MSG_MAX_RULES = 16,
    MSG_MAX_TURN = 1000,
    TOKEN_BYTES = 16,
};

/* The request types; MSG_TYPES counts them. */
typedef enum msg_type {
    MSG_HELLO,
    MSG_CREATE,
    MSG_JOIN,
    MSG_RESUME,
    MSG_WATCH,
    MSG_LEAVE,
    MSG_MOVE,
    MSG_LEGAL,
    MSG_SYNC,
    MSG_CHAT,
    MSG_LOBBY,
    MSG_MINE,
    MSG_RECORD,
    MSG_REVIEW,
    MSG_PING,
    MSG_FEATURES,
    MSG_REPLAY,
    MSG_HINT,
    MSG_ESTIMATE,
    MSG_REOPEN,
    MSG_TAKEBACK,
    MSG_RESIGN,
    MSG_REMATCH,
    MSG_POSITION,
    MSG_TYPES
} msg_type;

/* The error codes of the protocol's table; ERR_NONE is success. */
typedef enum msg_error {
    ERR_NONE = 0,
    ERR_BAD_JSON,
    ERR_TOO_BIG,
    ERR_UNKNOWN_TYPE,
    ERR_BAD_FIELD,
    ERR_RATE_LIMITED,
    ERR_TOO_MANY,
    ERR_NO_TABLE,
    ERR_NO_SEAT,
    ERR_BAD_TOKEN,
    ERR_NOT_SEATED,
    ERR_NOT_STARTED,
    ERR_GAME_OVER,
    ERR_NOT_YOUR_TURN,
    ERR_STALE,
    ERR_ILLEGAL,
    ERR_INTERNAL,
    ERR_CODES
} msg_error;

/* The request's `id`: absent, an integer or a string. */
typedef enum msg_id_kind { MSG_ID_NONE, MSG_ID_INT, MSG_ID_TEXT } msg_id_kind;

typedef struct msg_id {
    msg_id_kind kind;
    long long number;
    char text[MSG_ID_BYTES + 1];
} msg_id;

/* A seat of `create`. */
typedef enum seat_kind { SEAT_ME, SEAT_OPEN, SEAT_INVITE, SEAT_COMPUTER } seat_kind;

typedef struct msg_seat {
    seat_kind kind;
    char spec[MSG_SPEC_BYTES + 1]; /* SEAT_COMPUTER: a valid player spec */
} msg_seat;

/* CLOCK_DAYS: a correspondence game, `seconds` (whole days) for each move. */
typedef enum clock_mode { CLOCK_NONE, CLOCK_MOVE, CLOCK_FISCHER, CLOCK_DAYS } clock_mode;
typedef enum clock_timeout { TIMEOUT_COMPUTER, TIMEOUT_FORFEIT } clock_timeout;

typedef struct msg_clock {
    clock_mode mode;
    int seconds;   /* per move (CLOCK_MOVE, CLOCK_DAYS) or for the game (CLOCK_FISCHER) */
    int increment; /* CLOCK_FISCHER: seconds added after each move */
    clock_timeout on_timeout;
} msg_clock;

typedef enum table_info { INFO_CASUAL, INFO_PURIST } table_info;

/* Who plays first at a new table (`first` of create): the seat order as
 * given, a random seat, or the rule texts' draw-off (each seat draws a
 * tile, most roads starts, ties draw again). The turn order then goes on
 * round the seats from the first. */
typedef enum first_seat { FIRST_SEAT_ORDER, FIRST_RANDOM, FIRST_DRAW_OFF } first_seat;

/* A (table, token) pair of `mine`; `valid` is 0 for a malformed token. */
typedef struct msg_mine_pair {
    char table[MSG_TABLE_BYTES + 1];
    uint8_t token[TOKEN_BYTES];
    int valid;
} msg_mine_pair;

/* A decoded request. Only the fields of its type are set; every string is
 * NUL-terminated and checked against its limit, every number against its
 * range. About 9 KB: callers keep one, not one per connection. */
typedef struct msg_request {
    msg_type type;
    msg_id id;
    char table[MSG_TABLE_BYTES + 1];
    char name[MSG_NAME_BYTES + 1]; /* "" when not given */
    char client[MSG_CLIENT_BYTES + 1];
    /* create, join: the client's request key ("" when none): a repeat with
     * the same key gets the same answer */
    char key[MSG_KEY_BYTES + 1];
    /* create */
    int nseats;
    msg_seat seats[CARC_MAX_PLAYERS];
    carc_rules rules; /* the rules and expansions, checked together */
    first_seat first; /* who plays first */
    table_info info;
    msg_clock clock;
    int listed;
    int estimates; /* hints and win chances allowed (default 1) */
    int rated;     /* a rated game (default 0): every person's seat an account's */
    /* join, reopen */
    int seat; /* -1: the first open seat (join) */
    char invite[MSG_INVITE_BYTES + 1];
    /* resume */
    uint8_t token[TOKEN_BYTES];
    /* move */
    int turn;
    char move[MSG_MOVE_BYTES + 1];
    /* chat */
    char text[MSG_CHAT_BYTES + 1];
    /* review */
    int ms;
    /* estimate: start (1, the default) or stop the estimate events;
     * takeback, rematch: accept (1, the default: ask, or accept another's
     * ask) or decline (0) */
    int on;
    /* mine */
    int nmine;
    msg_mine_pair mine[MSG_MAX_MINE];
    /* replay: a record's text ("" with a table); position: the record */
    char record[MSG_MAX_BYTES + 1];
    /* position: the kind of the tile drawn (carc_tile_parse) */
    int tile;
} msg_request;

/* What went wrong with a frame: the code and a message naming the field. */
typedef struct msg_problem {
    msg_error code;
    char message[160];
} msg_problem;

/* Decodes the frame `data` of `len` bytes into `*out`. Returns ERR_NONE, or
 * an error code with `*problem` filled; `out->id` is set as soon as the id
 * is known, so that an error can name it. A pure function: no state, no
 * allocation that outlives the call. */
msg_error msg_decode(const char *data, size_t len, msg_request *out, msg_problem *problem);

/* The protocol name of an error code ("bad_json", ...) and of a request
 * type ("create", ...). */
const char *msg_error_name(msg_error code);
const char *msg_type_name(msg_type type);

/* Whether `s` (NUL-terminated) is 1..`max` bytes of printable UTF-8: valid
 * UTF-8, no control characters (C0, DEL, C1), not only spaces. */
int msg_printable(const char *s, size_t max);

/* Checks and trims the display name `name` (NUL-terminated) in place:
 * printable UTF-8 (msg_printable), no format characters (bidi controls,
 * zero-width characters), line or paragraph separators, or other
 * characters that draw nothing; spaces trimmed from both ends; at least
 * one visible character; at most `max` bytes once trimmed. Returns 1 when
 * it is a name, 0 otherwise (`name` then unchanged). */
int msg_display_name(char *name, size_t max);

/* Reads 32 hexadecimal digits into 16 bytes; 0 on success. */
int msg_parse_token(const char *hex, uint8_t out[TOKEN_BYTES]);

#endif
