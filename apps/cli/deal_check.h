/* deal_check.h: checks a server record's fair deal (docs/server-protocol.md,
 * "The fair deal"): the commitment matches the revealed seed and salt, and
 * the tiles dealt from the seed are exactly the record's tiles. */
#ifndef CARC_CLI_DEAL_CHECK_H
#define CARC_CLI_DEAL_CHECK_H

#include <stddef.h>

#include "carcassonne.h"

/* Checks the record `text` (`len` bytes), already read into `g`, when its
 * headers hold both `seed` and `commitment`; a record without them passes.
 * 0 when the deal is right, -1 with a message in `err` otherwise. */
int deal_check(const char *text, size_t len, const carc_game *g, char *err, size_t errcap);

#endif
