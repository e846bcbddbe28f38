/* test_token.c: secrets: random tokens, their hashes, constant-time
 * comparison and the deal's commitment (known SHA-256 vectors). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "message.h"
#include "token.h"

static void test_random(void **state)
{
    (void)state;
    uint8_t a[TOKEN_SECRET_BYTES], b[TOKEN_SECRET_BYTES];
    assert_int_equal(token_random(a, sizeof a), 0);
    assert_int_equal(token_random(b, sizeof b), 0);
    assert_memory_not_equal(a, b, sizeof a);
}

static void test_hex_round_trip(void **state)
{
    (void)state;
    uint8_t secret[TOKEN_SECRET_BYTES], back[TOKEN_SECRET_BYTES];
    for (int i = 0; i < TOKEN_SECRET_BYTES; i++)
        secret[i] = (uint8_t)(i * 17);
    char hex[TOKEN_HEX];
    token_hex(secret, sizeof secret, hex);
    assert_string_equal(hex, "00112233445566778899aabbccddeeff");
    assert_int_equal(msg_parse_token(hex, back), 0);
    assert_memory_equal(secret, back, sizeof secret);
    assert_int_equal(msg_parse_token("0011", back), -1);
    assert_int_equal(msg_parse_token("g0112233445566778899aabbccddeeff", back), -1);
}

static void test_hash_and_match(void **state)
{
    (void)state;
    uint8_t secret[TOKEN_SECRET_BYTES], hash[TOKEN_HASH_BYTES];
    for (int i = 0; i < TOKEN_SECRET_BYTES; i++)
        secret[i] = (uint8_t)i;
    token_hash(secret, hash);
    char hex[DIGEST_HEX];
    token_hex(hash, sizeof hash, hex);
    assert_string_equal(hex, "be45cb2605bf36bebde684841a28f0fd43c69850a3dce5fedba69928ee3a8991");
    assert_true(token_matches(secret, hash));
    secret[15] ^= 1;
    assert_false(token_matches(secret, hash));
    uint8_t other[TOKEN_HASH_BYTES];
    memcpy(other, hash, sizeof other);
    assert_true(token_hash_equal(hash, other));
    other[31] ^= 0x80;
    assert_false(token_hash_equal(hash, other));
}

static void test_commitment(void **state)
{
    (void)state;
    uint8_t salt[TOKEN_SECRET_BYTES];
    for (int i = 0; i < TOKEN_SECRET_BYTES; i++)
        salt[i] = (uint8_t)i;
    char c[DIGEST_HEX];
    token_commitment(salt, 1234567890u, c);
    assert_string_equal(c, "60439ebf40870363009739ca7872759c12950d358f4be9e473fc43009e209328");
    token_commitment(salt, UINT64_MAX, c);
    assert_string_equal(c, "9838ea6e0ea9aa46af8c1eaced73895d84e0c7df70e05618b4f4224fb8ae87a6");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_hex_round_trip),
        cmocka_unit_test(test_hash_and_match),
        cmocka_unit_test(test_commitment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
