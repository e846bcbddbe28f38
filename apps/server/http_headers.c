/* http_headers.c: the values of the HTTP request headers that the
 * client's files depend on (http_headers.h). */
#include "http_headers.h"

#include <string.h>
#include <strings.h>

/* The next comma-separated item of a header's value at *s: its start and
 * length, surrounding blanks left out; 0 at the end. */
static int next_item(const char **s, const char **item, size_t *len)
{
    const char *p = *s;
    while (*p == ' ' || *p == '\t' || *p == ',')
        p++;
    if (!*p)
        return 0;
    const char *end = strchr(p, ',');
    if (!end)
        end = p + strlen(p);
    *s = end;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    *item = p;
    *len = (size_t)(end - p);
    return 1;
}

int http_accepts_gzip(const char *accept_encoding)
{
    const char *s = accept_encoding, *item;
    size_t len;
    while (s && next_item(&s, &item, &len)) {
        size_t name = 0;
        while (name < len && item[name] != ';' && item[name] != ' ')
            name++;
        if (name != 4 || strncasecmp(item, "gzip", 4) != 0)
            continue;
        /* gzip;q=0 (or 0.0, 0.00...) refuses it. */
        const char *q = memchr(item, '=', len);
        if (!q)
            return 1;
        q++;
        while (q < item + len && (*q == '0' || *q == '.' || *q == ' '))
            q++;
        return q < item + len; /* a digit other than 0 follows */
    }
    return 0;
}

int http_etag_matches(const char *if_none_match, const char *etag)
{
    const char *s = if_none_match, *item;
    size_t len, want = strlen(etag);
    while (s && next_item(&s, &item, &len)) {
        if (len == 1 && item[0] == '*')
            return 1;
        if (len > 2 && (item[0] == 'W' || item[0] == 'w') && item[1] == '/') {
            item += 2; /* a weak tag compares the same for a GET */
            len -= 2;
        }
        if (len == want && memcmp(item, etag, want) == 0)
            return 1;
    }
    return 0;
}
