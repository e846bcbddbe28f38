/* token.c: random secrets, their hashes and the deal's commitment. */
#include "token.h"

#include <errno.h>
#include <inttypes.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

int token_random(void *out, size_t len)
{
    uint8_t *p = out;
    while (len > 0) {
        ssize_t got = getrandom(p, len, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += got;
        len -= (size_t)got;
    }
    return 0;
}

void token_hex(const uint8_t *bytes, size_t len, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * len] = '\0';
}

void token_sha256(const void *data, size_t len, uint8_t out[TOKEN_HASH_BYTES])
{
    SHA256(data, len, out);
}

void token_hash(const uint8_t secret[TOKEN_SECRET_BYTES], uint8_t out[TOKEN_HASH_BYTES])
{
    token_sha256(secret, TOKEN_SECRET_BYTES, out);
}

int token_hash_equal(const uint8_t a[TOKEN_HASH_BYTES], const uint8_t b[TOKEN_HASH_BYTES])
{
    return CRYPTO_memcmp(a, b, TOKEN_HASH_BYTES) == 0;
}

int token_matches(const uint8_t secret[TOKEN_SECRET_BYTES], const uint8_t stored[TOKEN_HASH_BYTES])
{
    uint8_t hash[TOKEN_HASH_BYTES];
    token_hash(secret, hash);
    return token_hash_equal(hash, stored);
}

void token_commitment(const uint8_t salt[TOKEN_SECRET_BYTES], uint64_t seed, char out[DIGEST_HEX])
{
    char salt_hex[TOKEN_HEX], text[TOKEN_HEX + 24];
    token_hex(salt, TOKEN_SECRET_BYTES, salt_hex);
    int n = snprintf(text, sizeof text, "%s:%" PRIu64, salt_hex, seed);
    uint8_t hash[TOKEN_HASH_BYTES];
    token_sha256(text, (size_t)n, hash);
    token_hex(hash, TOKEN_HASH_BYTES, out);
}

void token_derive(const uint8_t salt[TOKEN_SECRET_BYTES], const char *label, const char *key,
                  uint8_t out[TOKEN_SECRET_BYTES])
{
    uint8_t buf[TOKEN_SECRET_BYTES + 64 + 1 + 128];
    size_t label_len = strlen(label), key_len = strlen(key);
    label_len = label_len < 64 ? label_len : 64;
    key_len = key_len < 128 ? key_len : 128;
    memcpy(buf, salt, TOKEN_SECRET_BYTES);
    memcpy(buf + TOKEN_SECRET_BYTES, label, label_len);
    buf[TOKEN_SECRET_BYTES + label_len] = 0;
    memcpy(buf + TOKEN_SECRET_BYTES + label_len + 1, key, key_len);
    uint8_t hash[TOKEN_HASH_BYTES];
    token_sha256(buf, TOKEN_SECRET_BYTES + label_len + 1 + key_len, hash);
    memcpy(out, hash, TOKEN_SECRET_BYTES);
}
