/* deal_check.c: the fair-deal check of a record (`carcassonne replay`, the
 * server's `replay` request). */
#include "deal_check.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HEX_SALT = 32, HEX_HASH = 64, SEED_DIGITS = 20 };

/* The deal's headers as NUL-terminated copies; `given` counts the lines of
 * each key (a second line of one is a forgery's tell). */
typedef struct deal_headers {
    char seed[SEED_DIGITS + 2], salt[HEX_SALT + 2], commitment[HEX_HASH + 2];
    int seeds, salts, commitments;
} deal_headers;

static deal_status say(deal_result *out, deal_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static deal_status say(deal_result *out, deal_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->text, sizeof out->text, fmt, ap);
    va_end(ap);
    out->status = status;
    return status;
}

/* Copies header `h`'s value into `out` when it is `key`, counting it; a
 * value too long for `out` is cut and ends in "..." (which no check
 * accepts). */
static void take(const carc_header *h, const char *key, char *out, size_t cap, int *count)
{
    if (h->key_len != strlen(key) || memcmp(h->key, key, h->key_len) != 0)
        return;
    (*count)++;
    if (h->value_len < cap)
        snprintf(out, cap, "%.*s", (int)h->value_len, h->value);
    else
        snprintf(out, cap, "%.*s...", (int)cap - 4, h->value);
}

/* Reads the seed, salt and commitment headers with the library's reader;
 * -1 when the headers do not read (carc_record_read() read them, so only
 * when memory runs out). */
static int read_headers(const char *text, size_t len, deal_headers *d)
{
    memset(d, 0, sizeof *d);
    int n = carc_record_headers(text, len, NULL, 0, NULL);
    if (n <= 0)
        return n;
    carc_header *h = malloc((size_t)n * sizeof *h);
    if (!h || carc_record_headers(text, len, h, n, NULL) != n) {
        free(h);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        take(&h[i], "seed", d->seed, sizeof d->seed, &d->seeds);
        take(&h[i], "salt", d->salt, sizeof d->salt, &d->salts);
        take(&h[i], "commitment", d->commitment, sizeof d->commitment, &d->commitments);
    }
    free(h);
    return 0;
}

static int is_hex(const char *s, size_t digits)
{
    if (strlen(s) != digits)
        return 0;
    for (size_t i = 0; i < digits; i++)
        if (!isxdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* Whether SHA-256 of "SALT:SEED" (the seed in decimal) is the commitment:
 * 1 or 0, -1 when libsodium cannot start. */
static int commitment_matches(const deal_headers *d, uint64_t seed)
{
    char text[HEX_SALT + SEED_DIGITS + 4];
    int n = snprintf(text, sizeof text, "%s:%" PRIu64, d->salt, seed);
    /* libsodium's SHA-256: a small library where OpenSSL's libcrypto would
     * cost every start of `carcassonne` 200 page faults (apps/cli/main.c). */
    unsigned char hash[crypto_hash_sha256_BYTES];
    if (sodium_init() < 0 ||
        crypto_hash_sha256(hash, (const unsigned char *)text, (unsigned long long)n) != 0)
        return -1;
    char hex[HEX_HASH + 1];
    for (int i = 0; i < (int)crypto_hash_sha256_BYTES; i++)
        snprintf(hex + 2 * (size_t)i, 3, "%02x", hash[i]);
    for (int i = 0; i < HEX_HASH; i++)
        if (tolower((unsigned char)d->commitment[i]) != hex[i])
            return 0;
    return 1;
}

/* Deals from `seed` and compares every drawn tile with the record's. */
static deal_status tiles_match(const carc_game *g, uint64_t seed, deal_result *out)
{
    carc_rules rules = carc_game_rules(g);
    carc_game *deal = carc_game_new(carc_game_players(g), &rules, seed);
    if (!deal)
        return say(out, DEAL_UNCHECKED, "the deal was not checked: out of memory");
    deal_status status = DEAL_VERIFIED;
    carc_tile_on_board start_g, start_deal;
    carc_game_tile_info(g, 0, &start_g);
    carc_game_tile_info(deal, 0, &start_deal);
    if (start_g.kind != start_deal.kind) /* start-in-pile: the first tile drawn */
        say(out, status = DEAL_MISMATCH,
            "forged deal: the seed deals start tile %s, the record has %s",
            carc_tile_id(start_deal.kind), carc_tile_id(start_g.kind));
    int hands = rules.hand > 0; /* the draws are checked against the draw log */
    for (int i = 0; status == DEAL_VERIFIED && i < carc_game_move_count(g); i++) {
        carc_move m;
        int tile;
        carc_game_move_at(g, i, &m, &tile);
        int dealt = carc_game_drawn_tile(deal);
        if (!hands && dealt != tile)
            say(out, status = DEAL_MISMATCH,
                "forged deal: at move %d the seed deals tile %s, the record has %s", i + 1,
                dealt >= 0 ? carc_tile_id(dealt) : "-", carc_tile_id(tile));
        else if (carc_game_play(deal, m, NULL, 0, NULL) != CARC_OK)
            say(out, status = DEAL_MISMATCH, "forged deal: move %d does not replay: %s", i + 1,
                carc_game_error(deal));
    }
    for (int d = 0; hands && status == DEAL_VERIFIED && d < carc_game_draw_count(g); d++) {
        int player, kind, dealt = CARC_NO_TILE;
        carc_game_draw_at(g, d, &player, &kind, NULL);
        carc_game_draw_at(deal, d, NULL, &dealt, NULL);
        if (dealt != kind)
            say(out, status = DEAL_MISMATCH,
                "forged deal: draw %d (player %d) the seed deals tile %s, the record has %s", d + 1,
                player + 1, dealt >= 0 ? carc_tile_id(dealt) : "-", carc_tile_id(kind));
    }
    carc_game_free(deal);
    if (status == DEAL_VERIFIED)
        say(out, status, "deal verified (seed, salt, commitment)");
    return status;
}

/* A decimal 64-bit number; 0 on success. */
static int parse_seed(const char *s, uint64_t *out)
{
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > SEED_DIGITS)
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno == ERANGE)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

deal_status deal_check(const char *text, size_t len, const carc_game *g, deal_result *out)
{
    deal_headers d;
    if (read_headers(text, len, &d) != 0)
        return say(out, DEAL_UNCHECKED, "the deal was not checked: out of memory");
    if (d.seeds > 1 || d.salts > 1 || d.commitments > 1)
        return say(out, DEAL_MISMATCH,
                   "forged deal: the record gives its seed, salt or commitment twice");
    if (!d.commitments)
        return say(out, DEAL_UNCHECKED, "no commitment: the deal was not checked");
    if (!d.seeds && carc_game_over(g))
        return say(out, DEAL_MISSING,
                   "deal unchecked: the seed is missing from this finished game's record, so "
                   "its deal cannot be checked");
    if (!d.seeds)
        return say(out, DEAL_UNCHECKED,
                   "the seed is not revealed yet (it is at the end): the deal was not checked");
    uint64_t seed;
    if (parse_seed(d.seed, &seed) != 0)
        return say(out, DEAL_MISMATCH, "forged deal: the seed '%s' is not a 64-bit number", d.seed);
    if (!is_hex(d.salt, HEX_SALT))
        return say(out, DEAL_MISMATCH,
                   "forged deal: a commitment needs a salt of 32 hexadecimal digits");
    int matches = is_hex(d.commitment, HEX_HASH) ? commitment_matches(&d, seed) : 0;
    if (matches < 0)
        return say(out, DEAL_UNCHECKED, "the deal was not checked: libsodium did not start");
    if (!matches)
        return say(out, DEAL_MISMATCH, "forged deal: SHA-256 of salt:seed is not the commitment");
    return tiles_match(g, seed, out);
}

const char *deal_status_name(deal_status status)
{
    switch (status) {
    case DEAL_VERIFIED: return "verified";
    case DEAL_MISMATCH: return "mismatch";
    case DEAL_MISSING: return "missing";
    case DEAL_UNCHECKED: break;
    }
    return "unchecked";
}
