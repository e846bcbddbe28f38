/* fuzz_proxy.c: libFuzzer harness for the PROXY protocol v2 header and the
 * --trusted-proxy networks (apps/server/proxy_header.c). Any bytes are a
 * header, the beginning of one, or refused; a header read whole says how
 * long it is, within the bytes given, and reads the same with more bytes
 * after it and asks for more with any fewer; an address it carries is
 * one. Any text is a network or refused; a network's host bits are
 * clear. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxy_header.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_proxy: %s\n", what);
        abort();
    }
}

static void check_header(const uint8_t *data, size_t size)
{
    proxy_header h;
    proxy_status st = proxy_parse(data, size, &h);
    int begins = proxy_begins(data, size);
    check(st != PROXY_ABSENT || begins == 0, "no header, yet a signature");
    check(st != PROXY_MORE || begins != 0, "more of no signature");
    if (st != PROXY_VALID)
        return;
    check(begins == 1, "a header without its signature");
    check(h.length >= 16 && h.length <= PROXY_HEADER_MAX && h.length <= size, "its length");
    check(memchr(h.source, '\0', sizeof h.source) != NULL, "the address terminated");
    if (h.has_source) {
        unsigned char bytes[16];
        check(inet_pton(AF_INET, h.source, bytes) == 1 || inet_pton(AF_INET6, h.source, bytes) == 1,
              "the address is one");
    } else {
        check(h.source[0] == '\0', "no address, yet a text");
    }
    proxy_header shorter;
    check(proxy_parse(data, h.length - 1, &shorter) == PROXY_MORE, "a shorter header is whole");
    proxy_header exact;
    check(proxy_parse(data, h.length, &exact) == PROXY_VALID && exact.length == h.length &&
              strcmp(exact.source, h.source) == 0,
          "the header alone reads otherwise");
}

static void check_net(const uint8_t *data, size_t size)
{
    char text[64];
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = '\0';
    proxy_net net;
    if (proxy_net_parse(text, &net) != 0)
        return;
    int max = net.family == AF_INET ? 32 : 128;
    check(net.family == AF_INET || net.family == AF_INET6, "a family");
    check(net.bits >= 0 && net.bits <= max, "bits in range");
    for (int bit = net.bits; bit < max; bit++)
        check(!(net.addr[bit / 8] & (0x80u >> (bit % 8))), "host bits clear");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_header(data, size);
    check_net(data, size);
    return 0;
}
