/* deal_check.c: the fair-deal check of `carcassonne replay`. */
#include "deal_check.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HEX_SALT = 32, HEX_HASH = 64 };

typedef struct deal_headers {
    char seed[24], salt[HEX_SALT + 2], commitment[HEX_HASH + 2];
} deal_headers;

/* Copies the value of header line `line` (`len` bytes) into `out` when its
 * key is `key`: one token, at most `cap - 1` bytes. */
static void header_value(const char *line, size_t len, const char *key, char *out, size_t cap)
{
    size_t klen = strlen(key);
    if (len <= klen || strncmp(line, key, klen) != 0 || (line[klen] != ' ' && line[klen] != '\t'))
        return;
    const char *v = line + klen;
    const char *end = line + len;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    size_t n = 0;
    while (v + n < end && !isspace((unsigned char)v[n]) && v[n] != '#')
        n++;
    if (n < cap) {
        memcpy(out, v, n);
        out[n] = '\0';
    } else {
        snprintf(out, cap, "?");
    }
}

/* Reads the seed, salt and commitment headers: the lines before the first
 * move (a line starting with a capital letter, `discard` or `end`). */
static void read_headers(const char *text, size_t len, deal_headers *h)
{
    memset(h, 0, sizeof *h);
    for (size_t at = 0; at < len;) {
        const char *line = text + at;
        const char *nl = memchr(line, '\n', len - at);
        size_t n = nl ? (size_t)(nl - line) : len - at;
        at += n + 1;
        while (n > 0 && (*line == ' ' || *line == '\t'))
            line++, n--;
        if (n == 0 || *line == '#')
            continue;
        if (isupper((unsigned char)*line) || strncmp(line, "discard", 7) == 0 ||
            strncmp(line, "end", 3) == 0)
            break;
        header_value(line, n, "seed", h->seed, sizeof h->seed);
        header_value(line, n, "salt", h->salt, sizeof h->salt);
        header_value(line, n, "commitment", h->commitment, sizeof h->commitment);
    }
}

static int commitment_matches(const deal_headers *h)
{
    char text[HEX_SALT + 32];
    int n = snprintf(text, sizeof text, "%s:%s", h->salt, h->seed);
    unsigned char hash[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)text, (size_t)n, hash);
    char hex[HEX_HASH + 1];
    for (int i = 0; i < SHA256_DIGEST_LENGTH; i++)
        snprintf(hex + 2 * (size_t)i, 3, "%02x", hash[i]);
    if (strlen(h->commitment) != HEX_HASH)
        return 0;
    for (int i = 0; i < HEX_HASH; i++)
        if (tolower((unsigned char)h->commitment[i]) != hex[i])
            return 0;
    return 1;
}

/* Deals from `seed` and compares every drawn tile with the record's. */
static int tiles_match(const carc_game *g, uint64_t seed, char *err, size_t errcap)
{
    carc_rules rules = carc_game_rules(g);
    carc_game *deal = carc_game_new(carc_game_players(g), &rules, seed);
    if (!deal) {
        snprintf(err, errcap, "the deal check ran out of memory");
        return -1;
    }
    int ok = 1;
    for (int i = 0; ok && i < carc_game_move_count(g); i++) {
        carc_move m;
        int tile;
        carc_game_move_at(g, i, &m, &tile);
        int dealt = carc_game_drawn_tile(deal);
        if (dealt != tile) {
            snprintf(err, errcap, "move %d: the seed deals tile %s, the record has %s", i + 1,
                     dealt >= 0 ? carc_tile_id(dealt) : "-", carc_tile_id(tile));
            ok = 0;
        } else if (carc_game_play(deal, m, NULL, 0, NULL) != CARC_OK) {
            snprintf(err, errcap, "move %d: %s", i + 1, carc_game_error(deal));
            ok = 0;
        }
    }
    carc_game_free(deal);
    return ok ? 0 : -1;
}

/* A decimal 64-bit number (up to 20 digits); 0 on success. */
static int parse_seed(const char *s, uint64_t *out)
{
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 20)
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno == ERANGE)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int deal_check(const char *text, size_t len, const carc_game *g, char *err, size_t errcap)
{
    deal_headers h;
    read_headers(text, len, &h);
    if (!h.seed[0] || !h.commitment[0])
        return 0;
    uint64_t seed;
    if (parse_seed(h.seed, &seed) != 0) {
        snprintf(err, errcap, "deal check: the seed '%s' is not a number", h.seed);
        return -1;
    }
    if (strlen(h.salt) != HEX_SALT) {
        snprintf(err, errcap, "deal check: a commitment needs a salt of 32 hexadecimal digits");
        return -1;
    }
    if (!commitment_matches(&h)) {
        snprintf(err, errcap, "deal check: SHA-256 of salt:seed is not the commitment");
        return -1;
    }
    if (tiles_match(g, seed, err, errcap) != 0) {
        char why[200];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errcap, "deal check: %s", why);
        return -1;
    }
    return 0;
}
