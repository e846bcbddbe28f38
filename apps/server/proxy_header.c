/* proxy_header.c: the PROXY protocol's version 2 header read from bytes,
 * and the networks of --trusted-proxy. */
#include "proxy_header.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    SIGNATURE_BYTES = 12,
    FIXED_BYTES = 16, /* signature, version and command, family, length */
    INET_BLOCK = 12,  /* two IPv4 addresses and two ports */
    INET6_BLOCK = 36, /* two IPv6 addresses and two ports */
    UNIX_BLOCK = 216, /* two socket paths */
};

static const unsigned char v2_signature[SIGNATURE_BYTES] = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D,
                                                            0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
static const char v1_signature[] = "PROXY ";

/* Whether `buf` (`len` bytes) agrees with `sig` (`n` bytes) as far as both
 * go: 1 when it holds the whole of `sig`, 0 when they differ, -1 when it
 * agrees but is shorter. */
static int prefix_of(const unsigned char *buf, size_t len, const unsigned char *sig, size_t n)
{
    size_t k = len < n ? len : n;
    if (memcmp(buf, sig, k) != 0)
        return 0;
    return len >= n ? 1 : -1;
}

int proxy_begins(const unsigned char *buf, size_t len)
{
    int v2 = prefix_of(buf, len, v2_signature, SIGNATURE_BYTES);
    int v1 = prefix_of(buf, len, (const unsigned char *)v1_signature, sizeof v1_signature - 1);
    if (v1 == 1 || v2 == 1)
        return 1;
    return v1 == -1 || v2 == -1 ? -1 : 0;
}

static int is_v4_mapped(const unsigned char *a)
{
    static const unsigned char prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    return memcmp(a, prefix, sizeof prefix) == 0;
}

/* The text of an IPv4 (4 bytes) or IPv6 (16 bytes) address. */
static void addr_text(int family, const unsigned char *a, char *buf, size_t cap)
{
    char text[INET6_ADDRSTRLEN] = "";
    if (family == AF_INET6 && is_v4_mapped(a))
        inet_ntop(AF_INET, a + 12, text, sizeof text);
    else
        inet_ntop(family, a, text, sizeof text);
    snprintf(buf, cap, "%s", text);
}

/* The header's fixed part is there (FIXED_BYTES): its addresses. */
static proxy_status read_v2(const unsigned char *buf, size_t len, proxy_header *out)
{
    int version = buf[12] >> 4, command = buf[12] & 0x0F;
    int family = buf[13] >> 4, transport = buf[13] & 0x0F;
    size_t rest = (size_t)buf[14] << 8 | buf[15];
    if (version != 2 || command > 1 || family > 3 || transport > 2)
        return PROXY_INVALID;
    if (FIXED_BYTES + rest > PROXY_HEADER_MAX)
        return PROXY_INVALID;
    static const size_t block[] = {0, INET_BLOCK, INET6_BLOCK, UNIX_BLOCK};
    if (rest < block[family])
        return PROXY_INVALID;
    if (len < FIXED_BYTES + rest)
        return PROXY_MORE;
    memset(out, 0, sizeof *out);
    out->length = FIXED_BYTES + rest;
    if (command == 0 || family == 0 || family == 3)
        return PROXY_VALID; /* LOCAL, or no address: the connection's own peer */
    if (transport != 1)
        return PROXY_INVALID; /* a datagram's address on a TCP connection */
    addr_text(family == 1 ? AF_INET : AF_INET6, buf + FIXED_BYTES, out->source, sizeof out->source);
    out->has_source = 1;
    return PROXY_VALID;
}

proxy_status proxy_parse(const unsigned char *buf, size_t len, proxy_header *out)
{
    int v2 = prefix_of(buf, len, v2_signature, SIGNATURE_BYTES);
    if (v2 == 0) {
        int v1 = prefix_of(buf, len, (const unsigned char *)v1_signature, sizeof v1_signature - 1);
        return v1 == 1 ? PROXY_INVALID : v1 == -1 ? PROXY_MORE : PROXY_ABSENT;
    }
    if (v2 == -1 || len < FIXED_BYTES)
        return PROXY_MORE;
    return read_v2(buf, len, out);
}

/* --- Trusted networks --------------------------------------------------------------------- */

int proxy_net_parse(const char *text, proxy_net *out)
{
    char addr[INET6_ADDRSTRLEN + 1];
    const char *slash = strchr(text, '/');
    size_t n = slash ? (size_t)(slash - text) : strlen(text);
    if (n == 0 || n >= sizeof addr)
        return -1;
    memcpy(addr, text, n);
    addr[n] = '\0';
    memset(out, 0, sizeof *out);
    if (inet_pton(AF_INET, addr, out->addr) == 1)
        out->family = AF_INET;
    else if (inet_pton(AF_INET6, addr, out->addr) == 1)
        out->family = AF_INET6;
    else
        return -1;
    int max = out->family == AF_INET ? 32 : 128;
    out->bits = max;
    if (slash) {
        const char *digits = slash + 1;
        if (!*digits || strspn(digits, "0123456789") != strlen(digits) || strlen(digits) > 3)
            return -1;
        out->bits = atoi(digits);
        if (out->bits > max)
            return -1;
    }
    for (int bit = out->bits; bit < max; bit++)
        out->addr[bit / 8] &= (unsigned char)~(0x80u >> (bit % 8));
    return 0;
}

/* Whether the first `bits` bits of `a` and `b` agree. */
static int same_prefix(const unsigned char *a, const unsigned char *b, int bits)
{
    int whole = bits / 8, rest = bits % 8;
    if (memcmp(a, b, (size_t)whole) != 0)
        return 0;
    if (rest == 0)
        return 1;
    unsigned mask = (0xFFu << (8 - rest)) & 0xFFu;
    return (a[whole] & mask) == (b[whole] & mask);
}

/* `peer` as a family and its address bytes (IPv4-mapped IPv6 as IPv4);
 * 0 when it is neither. */
static int peer_bytes(const struct sockaddr *peer, const unsigned char **bytes)
{
    if (peer->sa_family == AF_INET) {
        *bytes = (const unsigned char *)&((const struct sockaddr_in *)(const void *)peer)->sin_addr;
        return AF_INET;
    }
    if (peer->sa_family == AF_INET6) {
        const unsigned char *a =
            ((const struct sockaddr_in6 *)(const void *)peer)->sin6_addr.s6_addr;
        *bytes = is_v4_mapped(a) ? a + 12 : a;
        return is_v4_mapped(a) ? AF_INET : AF_INET6;
    }
    return 0;
}

int proxy_nets_contain(const proxy_net *nets, int n, const struct sockaddr *peer)
{
    const unsigned char *bytes = NULL;
    int family = peer_bytes(peer, &bytes);
    for (int i = 0; family && i < n; i++)
        if (nets[i].family == family && same_prefix(nets[i].addr, bytes, nets[i].bits))
            return 1;
    return 0;
}

void proxy_addr_text(const struct sockaddr *peer, char *buf, size_t cap)
{
    const unsigned char *bytes = NULL;
    int family = peer_bytes(peer, &bytes);
    if (family)
        addr_text(family, bytes, buf, cap);
    else if (cap > 0)
        buf[0] = '\0';
}
