/* proxy_header.h: the PROXY protocol's version 2 header (HAProxy's
 * proxy-protocol.txt, section 2.2), which a balancer sends before a
 * connection's own bytes to say whose connection it carries, and the
 * networks of `--trusted-proxy` it is read from. Pure: no sockets.
 *
 * The header: 12 bytes of signature, the version and command (0x20 LOCAL:
 * the balancer's own connection, a health check; 0x21 PROXY: a client's),
 * the address family and transport, a 16-bit length of what follows (the
 * addresses, then optional TLVs, skipped here). Version 1 (a text line
 * that begins "PROXY ") is not accepted: it is recognised only so that it
 * can be refused. */
#ifndef CARC_SERVER_PROXY_HEADER_H
#define CARC_SERVER_PROXY_HEADER_H

#include <stddef.h>
#include <sys/socket.h>

enum {
    PROXY_ADDR_BYTES = 48,   /* an address as text, as the server keeps it */
    PROXY_HEADER_MAX = 1024, /* a longer header (big TLVs) is refused */
    PROXY_NETS_MAX = 32,     /* --trusted-proxy options, at most */
};

typedef enum proxy_status {
    PROXY_MORE,    /* the bytes so far are the beginning of a header: read more */
    PROXY_ABSENT,  /* the bytes do not begin with a PROXY header */
    PROXY_INVALID, /* a PROXY header (version 1, or a broken version 2) */
    PROXY_VALID,   /* a whole version 2 header */
} proxy_status;

/* A version 2 header read whole. */
typedef struct proxy_header {
    size_t length; /* its bytes: the connection's own begin after them */
    /* 1 when it carries a client's address (command PROXY, family IPv4 or
     * IPv6 over TCP); 0 for LOCAL and for the families without an address
     * (UNSPEC, UNIX), which keep the connection's own peer. */
    int has_source;
    char source[PROXY_ADDR_BYTES]; /* inet_ntop's text; IPv4-mapped IPv6 as IPv4 */
} proxy_header;

/* Reads the header at the start of the `len` bytes at `buf` (any length,
 * any content). PROXY_VALID fills `out`. */
proxy_status proxy_parse(const unsigned char *buf, size_t len, proxy_header *out);

/* Whether the bytes begin with the signature of a PROXY header of either
 * version: 1 yes, 0 no, -1 too few bytes to tell. */
int proxy_begins(const unsigned char *buf, size_t len);

/* A network of --trusted-proxy: ADDR or ADDR/BITS, IPv4 or IPv6. */
typedef struct proxy_net {
    int family; /* AF_INET or AF_INET6 */
    unsigned char addr[16];
    int bits;
} proxy_net;

/* Reads "ADDR[/BITS]" (BITS at most 32 for IPv4, 128 for IPv6; the host
 * bits of ADDR are cleared): 0, or -1 when it is not that. */
int proxy_net_parse(const char *text, proxy_net *out);
/* Whether the socket address `peer` (IPv4, IPv6 or IPv4-mapped IPv6) is in
 * one of the `n` networks. */
int proxy_nets_contain(const proxy_net *nets, int n, const struct sockaddr *peer);
/* The address of `peer` as text, IPv4-mapped IPv6 as IPv4 ("" when not
 * IPv4 or IPv6). */
void proxy_addr_text(const struct sockaddr *peer, char *buf, size_t cap);

#endif
