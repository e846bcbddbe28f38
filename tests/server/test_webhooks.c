/* test_webhooks.c: the webhooks' rules (apps/server/webhooks.c): which
 * URLs an account may set, which addresses a call may connect to (IPv4,
 * IPv6 and IPv4 inside IPv6), and the JSON sent. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "webhooks.h"

static const webhook_policy strict = {0, 0}, tests = {1, 1};

static const char *url_error(const char *url, const webhook_policy *p)
{
    return webhooks_url_error(url, strlen(url), p);
}

static void test_urls(void **state)
{
    (void)state;
    assert_null(url_error("https://example.org/hook?k=1", &strict));
    assert_null(url_error("HTTPS://example.org", &strict));
    assert_non_null(url_error("http://example.org/hook", &strict));
    assert_null(url_error("http://example.org/hook", &tests));
    assert_non_null(url_error("ftp://example.org/hook", &tests));
    assert_non_null(url_error("example.org/hook", &tests));
    assert_non_null(url_error("https://", &strict));
    assert_non_null(url_error("https://exa mple.org/", &strict));
    assert_non_null(webhooks_url_error("https://a\0b", 11, &strict));
    char long_url[2100];
    memset(long_url, 'a', sizeof long_url);
    memcpy(long_url, "https://example.org/", 20);
    long_url[2000] = '\0';
    assert_null(url_error(long_url, &strict));
    long_url[2000] = 'a';
    long_url[2001] = '\0';
    assert_non_null(url_error(long_url, &strict));
}

/* The error for address `text` (IPv4 or IPv6) under policy `p`. */
static const char *address_error(const char *text, const webhook_policy *p)
{
    struct sockaddr_in in = {.sin_family = AF_INET};
    struct sockaddr_in6 in6 = {.sin6_family = AF_INET6};
    if (inet_pton(AF_INET, text, &in.sin_addr) == 1)
        return webhooks_address_error((const struct sockaddr *)&in, p);
    assert_int_equal(inet_pton(AF_INET6, text, &in6.sin6_addr), 1);
    return webhooks_address_error((const struct sockaddr *)&in6, p);
}

static void test_addresses(void **state)
{
    (void)state;
    static const char *const refused[] = {
        "127.0.0.1",
        "127.255.0.9",
        "10.0.0.1",
        "172.16.0.1",
        "172.31.255.255",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "100.127.255.254",
        "0.0.0.0",
        "224.0.0.1",
        "239.1.2.3",
        "255.255.255.255",
        "::",
        "::1",
        "fc00::1",
        "fd12:3456::1",
        "fe80::1",
        "ff02::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
        "::ffff:169.254.169.254",
        "::10.0.0.1",
        "64:ff9b::10.0.0.1",
        "64:ff9b::7f00:1",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (!address_error(refused[i], &strict))
            fail_msg("%s was allowed", refused[i]);
    static const char *const allowed[] = {
        "93.184.216.34",        "8.8.8.8",          "172.32.0.1",
        "100.128.0.1",          "192.169.0.1",      "2606:2800:220:1::1",
        "::ffff:93.184.216.34", "64:ff9b::808:808",
    };
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        if (address_error(allowed[i], &strict))
            fail_msg("%s was refused: %s", allowed[i], address_error(allowed[i], &strict));
    /* The test option lets loopback through, nothing else. */
    assert_null(address_error("127.0.0.1", &tests));
    assert_null(address_error("::1", &tests));
    assert_null(address_error("::ffff:127.0.0.1", &tests));
    assert_non_null(address_error("10.0.0.1", &tests));
    assert_non_null(address_error("192.168.0.1", &tests));
    assert_non_null(address_error("169.254.169.254", &tests));
    assert_non_null(address_error("fe80::1", &tests));
    assert_string_equal(address_error("10.1.2.3", &strict), "a private address (10.0.0.0/8)");
}

static void test_body(void **state)
{
    (void)state;
    char body[WEBHOOK_BODY_BYTES];
    webhooks_body(body, sizeof body, "tq7x2mfk9ab", 12, 1, 1798761600000);
    assert_string_equal(
        body, "{\"table\":\"tq7x2mfk9ab\",\"turn\":12,\"seat\":1,\"deadline\":1798761600000}");
    webhooks_body(body, sizeof body, "tq7x2mfk9ab", 0, 0, -1);
    assert_string_equal(body,
                        "{\"table\":\"tq7x2mfk9ab\",\"turn\":0,\"seat\":0,\"deadline\":null}");
}

int main(void)
{
    const struct CMUnitTest tests_[] = {
        cmocka_unit_test(test_urls),
        cmocka_unit_test(test_addresses),
        cmocka_unit_test(test_body),
    };
    return cmocka_run_group_tests(tests_, NULL, NULL);
}
