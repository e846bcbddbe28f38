/* error.c: an error message written into a caller's buffer (error.h). */
#include <stdarg.h>
#include <stdio.h>

#include "error.h"

int format_error(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && cap)
        vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return -1;
}
