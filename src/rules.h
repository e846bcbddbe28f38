/* rules.h: reading lists of rule and expansion names (rules.c), shared
 * with the record reader (not public). */
#ifndef CARC_RULES_H
#define CARC_RULES_H

#include <stddef.h>

#include "carcassonne.h"

/* Reads the rule names in `text` (`len` bytes, no NUL needed), separated
 * by spaces and tabs, and with `commas` by commas too, into `out->flags`;
 * returns 0, or -1 with the message in `err` (may be NULL) and `*out`
 * unchanged. */
int rules_parse_names(const char *text, size_t len, int commas, carc_rules *out, char *err,
                      size_t errcap);
/* The same for the expansion names of an `expansions` line into
 * `out->expansions`; a name given twice is an error. */
int rules_parse_expansions(const char *text, size_t len, int commas, carc_rules *out, char *err,
                           size_t errcap);

#endif
