/* deal_check.h: checks a record's fair deal (docs/server-protocol.md, "The
 * fair deal"): the commitment is the SHA-256 of the revealed salt and seed,
 * and the tiles dealt from the seed are exactly the record's tiles. Shared
 * by `carcassonne replay` and the server's `replay` request. */
#ifndef CARC_COMMON_DEAL_CHECK_H
#define CARC_COMMON_DEAL_CHECK_H

#include <stddef.h>

#include "carcassonne.h"

typedef enum deal_status {
    DEAL_UNCHECKED, /* no commitment, or a game in progress: its seed is not revealed yet */
    DEAL_VERIFIED,  /* commitment, seed and salt agree, the seed deals the record's tiles */
    DEAL_MISMATCH,  /* a commitment the headers do not match, or a seed that deals other tiles */
    DEAL_MISSING,   /* a finished game with a commitment and no seed: it was removed */
} deal_status;

enum { DEAL_TEXT_BYTES = 200 };

typedef struct deal_result {
    deal_status status;
    char text[DEAL_TEXT_BYTES]; /* one line for people, NUL-terminated */
} deal_result;

/* Checks the deal of the record `text` (`len` bytes), already read into `g`
 * by carc_record_read(). A finished game (carc_game_over(): its last tile
 * placed, or an `end` line) reveals its seed, so a commitment without one
 * is DEAL_MISSING there and DEAL_UNCHECKED while the game goes on. The
 * headers are read with carc_record_headers(), so a header whose key
 * begins like a move word (`endorsed-by`) is a header like any other. A
 * `seed`, `salt` or `commitment` line given twice is a mismatch. Fills
 * `*out` and returns its status. Allocates only while it runs (the
 * headers, the game the seed deals); out of memory is "unchecked". */
deal_status deal_check(const char *text, size_t len, const carc_game *g, deal_result *out);

/* "verified", "unchecked", "mismatch" or "missing": the status's name in
 * JSON. */
const char *deal_status_name(deal_status status);

#endif
