/* http_headers.h: the values of the HTTP request headers that the
 * client's files depend on: whether a browser accepts gzip, and whether it
 * holds a file already (its entity tag). Any text is a value: an item
 * that does not parse is no match. */
#ifndef CARC_HTTP_HEADERS_H
#define CARC_HTTP_HEADERS_H

/* Whether an Accept-Encoding header's value accepts gzip (a "gzip" token
 * whose q is not 0). */
int http_accepts_gzip(const char *accept_encoding);

/* Whether an If-None-Match header's value names entity tag `etag` (or is
 * "*"). */
int http_etag_matches(const char *if_none_match, const char *etag);

#endif
