/* error.h: an error message written into a caller's buffer, for the calls
 * that have no game handle to keep it in (rules, players, networks). */
#ifndef CARC_ERROR_H
#define CARC_ERROR_H

#include <stddef.h>

/* Formats the message into `err` (at most `cap` bytes, cut short and
 * always ended when it is longer); writes nothing when `err` is NULL or
 * `cap` is 0. Returns -1, the failure the message explains. */
int format_error(char *err, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
