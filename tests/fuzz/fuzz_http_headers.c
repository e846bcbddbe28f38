/* fuzz_http_headers.c: libFuzzer harness for the request header values
 * the client's files depend on (apps/server/http_headers.c). Any bytes
 * (up to the first NUL) are an Accept-Encoding and an If-None-Match value:
 * each answer is 0 or 1; a value that names the tag, or "*", after a comma
 * matches; an Accept-Encoding's answer does not change with an item
 * appended that is not gzip. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_headers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_http_headers: %s\n", what);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char tag[] = "\"5f2a63dea4ed2651cfc13ea9e0563a11\"";
    char *value = malloc(size + 1), *more = malloc(size + sizeof tag + 8);
    if (!value || !more)
        abort();
    memcpy(value, data, size);
    value[size] = '\0';
    int gz = http_accepts_gzip(value), match = http_etag_matches(value, tag);
    check(gz == 0 || gz == 1, "accepts gzip: 0 or 1");
    check(match == 0 || match == 1, "etag: 0 or 1");
    snprintf(more, size + sizeof tag + 8, "%s, %s", value, tag);
    check(http_etag_matches(more, tag) == 1, "the tag after a comma");
    snprintf(more, size + sizeof tag + 8, "%s,*", value);
    check(http_etag_matches(more, tag) == 1, "* after a comma");
    snprintf(more, size + sizeof tag + 8, "%s, br", value);
    /* A quoted or semicolon-ended value may swallow what follows, so only
     * a plain list keeps its answer. */
    if (!strpbrk(value, ";=\""))
        check(http_accepts_gzip(more) == gz, "br appended changes nothing");
    free(value);
    free(more);
    return 0;
}
