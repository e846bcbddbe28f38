/* test_proxy_header.c: the PROXY protocol v2 header as HAProxy sends it
 * (IPv4, IPv6, LOCAL health checks, TLVs after the addresses), read whole
 * or a byte at a time; version 1 and broken headers refused; the
 * signature told from HTTP and TLS; the --trusted-proxy networks. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "proxy_header.h"

static const unsigned char signature[12] = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D,
                                            0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

/* A header: `ver_cmd`, `fam`, then `n` bytes of `body`; its length. */
static size_t make(unsigned char *out, int ver_cmd, int fam, const unsigned char *body, size_t n)
{
    memcpy(out, signature, sizeof signature);
    out[12] = (unsigned char)ver_cmd;
    out[13] = (unsigned char)fam;
    out[14] = (unsigned char)(n >> 8);
    out[15] = (unsigned char)(n & 0xFF);
    memcpy(out + 16, body, n);
    return 16 + n;
}

/* The address block of an IPv4 connection from `src`, to 10.0.0.1:8081. */
static size_t inet_block(unsigned char *out, const char *src)
{
    inet_pton(AF_INET, src, out);
    inet_pton(AF_INET, "10.0.0.1", out + 4);
    out[8] = 0xC3, out[9] = 0x50; /* 50000 */
    out[10] = 0x1F, out[11] = 0x91;
    return 12;
}

static void test_ipv4(void **state)
{
    (void)state;
    unsigned char body[12], buf[64];
    size_t n = make(buf, 0x21, 0x11, body, inet_block(body, "203.0.113.7"));
    proxy_header h;
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_VALID);
    assert_int_equal(h.length, 28);
    assert_int_equal(h.has_source, 1);
    assert_string_equal(h.source, "203.0.113.7");
    /* What follows is the connection's own: not read. */
    memcpy(buf + n, "GET / HTTP/1.1\r\n", 16);
    assert_int_equal(proxy_parse(buf, n + 16, &h), PROXY_VALID);
    assert_int_equal(h.length, 28);
}

static void test_ipv6_and_mapped(void **state)
{
    (void)state;
    unsigned char body[36] = {0}, buf[64];
    inet_pton(AF_INET6, "2001:db8::42", body);
    inet_pton(AF_INET6, "2001:db8::1", body + 16);
    proxy_header h;
    size_t n = make(buf, 0x21, 0x21, body, sizeof body);
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_VALID);
    assert_string_equal(h.source, "2001:db8::42");
    inet_pton(AF_INET6, "::ffff:198.51.100.9", body);
    n = make(buf, 0x21, 0x21, body, sizeof body);
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_VALID);
    assert_string_equal(h.source, "198.51.100.9");
}

/* LOCAL (HAProxy's health checks), UNSPEC and UNIX: valid, no address. */
static void test_no_address(void **state)
{
    (void)state;
    unsigned char body[216] = {0}, buf[256];
    proxy_header h;
    size_t n = make(buf, 0x20, 0x00, body, 0);
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_VALID);
    assert_int_equal(h.length, 16);
    assert_int_equal(h.has_source, 0);
    n = make(buf, 0x20, 0x11, body, inet_block(body, "192.0.2.1"));
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_VALID);
    assert_int_equal(h.has_source, 0); /* LOCAL: the addresses are ignored */
    n = make(buf, 0x21, 0x00, body, 0);
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_VALID);
    assert_int_equal(h.has_source, 0);
    n = make(buf, 0x21, 0x31, body, 216);
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_VALID);
    assert_int_equal(h.has_source, 0);
    assert_int_equal(h.length, 232);
}

/* TLVs after the addresses are skipped with the length. */
static void test_tlvs(void **state)
{
    (void)state;
    unsigned char body[40], buf[64];
    size_t k = inet_block(body, "192.0.2.44");
    const unsigned char tlv[] = {0x04, 0x00, 0x03, 'a', 'b', 'c'}; /* PP2_TYPE_NOOP */
    memcpy(body + k, tlv, sizeof tlv);
    size_t n = make(buf, 0x21, 0x11, body, k + sizeof tlv);
    proxy_header h;
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_VALID);
    assert_int_equal(h.length, 34);
    assert_string_equal(h.source, "192.0.2.44");
}

/* Every prefix of a header asks for more; the whole one is valid. */
static void test_byte_at_a_time(void **state)
{
    (void)state;
    unsigned char body[12], buf[64];
    size_t n = make(buf, 0x21, 0x11, body, inet_block(body, "192.0.2.5"));
    proxy_header h;
    for (size_t k = 0; k < n; k++)
        assert_int_equal(proxy_parse(buf, k, &h), PROXY_MORE);
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_VALID);
}

static void test_refused(void **state)
{
    (void)state;
    unsigned char body[300] = {0}, buf[400];
    proxy_header h;
    size_t k = inet_block(body, "192.0.2.1");
    /* Version 1, another version, a command beyond PROXY, a family or
     * transport beyond those defined, a length short of the family's
     * addresses, a datagram's address, a header over PROXY_HEADER_MAX. */
    const char *v1 = "PROXY TCP4 192.0.2.1 10.0.0.1 50000 8081\r\n";
    assert_int_equal(proxy_parse((const unsigned char *)v1, strlen(v1), &h), PROXY_INVALID);
    assert_int_equal(proxy_parse((const unsigned char *)v1, 6, &h), PROXY_INVALID);
    assert_int_equal(proxy_parse((const unsigned char *)v1, 5, &h), PROXY_MORE);
    size_t n = make(buf, 0x11, 0x11, body, k);
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_INVALID);
    n = make(buf, 0x22, 0x11, body, k);
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_INVALID);
    n = make(buf, 0x21, 0x41, body, k);
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_INVALID);
    n = make(buf, 0x21, 0x13, body, k);
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_INVALID);
    n = make(buf, 0x21, 0x11, body, 11);
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_INVALID);
    n = make(buf, 0x21, 0x21, body, 12); /* IPv6 needs 36 */
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_INVALID);
    n = make(buf, 0x21, 0x12, body, k);
    assert_int_equal(proxy_parse(buf, n, &h), PROXY_INVALID);
    /* Refused from its fixed part, before its body arrives. */
    buf[14] = 0x04, buf[15] = 0x00;
    assert_int_equal(proxy_parse(buf, 16, &h), PROXY_INVALID);
}

/* HTTP and TLS are no header; the signatures are told as soon as they can
 * be. */
static void test_absent_and_begins(void **state)
{
    (void)state;
    proxy_header h;
    const unsigned char tls[] = {0x16, 0x03, 0x01, 0x02, 0x00};
    const char *texts[] = {"GET /ws HTTP/1.1\r\n", "POST / HTTP/1.1", "PRI * HTTP/2.0", "\r\n\r\nx",
                           "PROXZ"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        const unsigned char *t = (const unsigned char *)texts[i];
        assert_int_equal(proxy_parse(t, strlen(texts[i]), &h), PROXY_ABSENT);
        assert_int_equal(proxy_begins(t, strlen(texts[i])), 0);
    }
    assert_int_equal(proxy_parse(tls, sizeof tls, &h), PROXY_ABSENT);
    assert_int_equal(proxy_begins(tls, sizeof tls), 0);
    assert_int_equal(proxy_begins(tls, 0), -1);
    assert_int_equal(proxy_begins((const unsigned char *)"PRO", 3), -1);
    assert_int_equal(proxy_begins((const unsigned char *)"PROXY ", 6), 1);
    assert_int_equal(proxy_begins(signature, 11), -1);
    assert_int_equal(proxy_begins(signature, 12), 1);
}

static struct sockaddr_storage v4(const char *text)
{
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    struct sockaddr_in *a = (struct sockaddr_in *)&ss;
    a->sin_family = AF_INET;
    inet_pton(AF_INET, text, &a->sin_addr);
    return ss;
}

static struct sockaddr_storage v6(const char *text)
{
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
    a->sin6_family = AF_INET6;
    inet_pton(AF_INET6, text, &a->sin6_addr);
    return ss;
}

static void test_nets(void **state)
{
    (void)state;
    proxy_net nets[3];
    assert_int_equal(proxy_net_parse("127.0.0.1", &nets[0]), 0);
    assert_int_equal(nets[0].bits, 32);
    assert_int_equal(proxy_net_parse("10.1.2.3/8", &nets[1]), 0); /* host bits cleared */
    assert_int_equal(proxy_net_parse("fd00::/8", &nets[2]), 0);
    struct sockaddr_storage in[] = {v4("127.0.0.1"), v4("10.200.3.4"), v6("fdab::1"),
                                    v6("::ffff:127.0.0.1"), v6("::ffff:10.9.9.9")};
    struct sockaddr_storage out[] = {v4("127.0.0.2"), v4("11.0.0.1"), v6("fe00::1"), v6("::1"),
                                     v6("::ffff:127.0.0.2")};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        assert_true(proxy_nets_contain(nets, 3, (struct sockaddr *)&in[i]));
    for (size_t i = 0; i < sizeof out / sizeof out[0]; i++)
        assert_false(proxy_nets_contain(nets, 3, (struct sockaddr *)&out[i]));
    assert_false(proxy_nets_contain(nets, 0, (struct sockaddr *)&in[0]));
    /* /0 holds every address of its family; /127 two. */
    assert_int_equal(proxy_net_parse("0.0.0.0/0", &nets[0]), 0);
    assert_true(proxy_nets_contain(nets, 1, (struct sockaddr *)&out[1]));
    assert_false(proxy_nets_contain(nets, 1, (struct sockaddr *)&out[2]));
    assert_int_equal(proxy_net_parse("2001:db8::7/127", &nets[0]), 0);
    struct sockaddr_storage six = v6("2001:db8::6"), eight = v6("2001:db8::8");
    assert_true(proxy_nets_contain(nets, 1, (struct sockaddr *)&six));
    assert_false(proxy_nets_contain(nets, 1, (struct sockaddr *)&eight));
    const char *bad[] = {"",
                         "/8",
                         "127.0.0.1/",
                         "127.0.0.1/33",
                         "::1/129",
                         "127.0.0.1/-1",
                         "127.0.0.1/8x",
                         "localhost",
                         "1.2.3",
                         "127.0.0.1/0008"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(proxy_net_parse(bad[i], &nets[0]), -1);
    char text[PROXY_ADDR_BYTES];
    proxy_addr_text((struct sockaddr *)&in[3], text, sizeof text);
    assert_string_equal(text, "127.0.0.1");
    proxy_addr_text((struct sockaddr *)&in[2], text, sizeof text);
    assert_string_equal(text, "fdab::1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ipv4),
        cmocka_unit_test(test_ipv6_and_mapped),
        cmocka_unit_test(test_no_address),
        cmocka_unit_test(test_tlvs),
        cmocka_unit_test(test_byte_at_a_time),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_absent_and_begins),
        cmocka_unit_test(test_nets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
