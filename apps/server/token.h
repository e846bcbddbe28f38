/* token.h: secrets of the server: seat tokens and invite codes (random,
 * kept only as SHA-256 hashes, compared in constant time) and the fair
 * deal's seed, salt and commitment. */
#ifndef CARC_SERVER_TOKEN_H
#define CARC_SERVER_TOKEN_H

#include <stddef.h>
#include <stdint.h>

enum {
    TOKEN_SECRET_BYTES = 16, /* 128 bits */
    TOKEN_HASH_BYTES = 32,   /* SHA-256 */
    TOKEN_HEX = 2 * TOKEN_SECRET_BYTES + 1,
    DIGEST_HEX = 2 * TOKEN_HASH_BYTES + 1,
};

/* Fills `out` with `len` bytes from the kernel's random source; 0 on
 * success, -1 when none could be had. */
int token_random(void *out, size_t len);
/* Writes `len` bytes as lower-case hexadecimal and a NUL into `out`
 * (2 * len + 1 bytes). */
void token_hex(const uint8_t *bytes, size_t len, char *out);
/* SHA-256 of `len` bytes of `data`. */
void token_sha256(const void *data, size_t len, uint8_t out[TOKEN_HASH_BYTES]);
/* The hash under which a secret is stored. */
void token_hash(const uint8_t secret[TOKEN_SECRET_BYTES], uint8_t out[TOKEN_HASH_BYTES]);
/* Whether two hashes are equal; takes the same time whatever they hold. */
int token_hash_equal(const uint8_t a[TOKEN_HASH_BYTES], const uint8_t b[TOKEN_HASH_BYTES]);
/* Whether `secret` hashes to `stored`. */
int token_matches(const uint8_t secret[TOKEN_SECRET_BYTES], const uint8_t stored[TOKEN_HASH_BYTES]);

/* A secret derived from a table's salt, a label ("join", "create",
 * "invite-2", ...) and a client's request key: the first 16 bytes of
 * SHA-256 of SALT, LABEL, a NUL and KEY. A request repeated with the same
 * key makes the same secret again, so that its answer can be repeated
 * while only the secret's hash is stored. */
void token_derive(const uint8_t salt[TOKEN_SECRET_BYTES], const char *label, const char *key,
                  uint8_t out[TOKEN_SECRET_BYTES]);

/* The fair deal's commitment: SHA-256 of the text "SALT:SEED" (the salt as
 * 32 lower-case hexadecimal digits, the seed in decimal), in lower-case
 * hexadecimal (64 digits and a NUL). */
void token_commitment(const uint8_t salt[TOKEN_SECRET_BYTES], uint64_t seed, char out[DIGEST_HEX]);

#endif
