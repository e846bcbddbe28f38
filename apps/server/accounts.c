/* accounts.c: user names and passwords, argon2id hashes, session tokens,
 * and the limits on login attempts and sign-ups. */
#include "accounts.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "token.h"

_Static_assert(ACC_HASH_BYTES == crypto_pwhash_STRBYTES, "a hash string's size");
_Static_assert((int)ACC_SESSION_HASH_BYTES == (int)TOKEN_HASH_BYTES, "a session is SHA-256's");

/* libsodium's named limits, each with the hash of a random password
 * nobody knows made at those limits: what a login for a name that does
 * not exist is verified against, as slow as a real login. */
static const struct {
    const char *name;
    unsigned long long ops;
    size_t mem;
    const char *nobody;
} costs[] = {
    [ACC_COST_INTERACTIVE] = {"interactive", crypto_pwhash_OPSLIMIT_INTERACTIVE,
                              crypto_pwhash_MEMLIMIT_INTERACTIVE,
                              "$argon2id$v=19$m=65536,t=2,p=1$E981pT7i5Wf/wchHLVhxsw$"
                              "u1YHWenlc5trv9hjmYvv2kX/Vtk6AGRELP/KW7n6FdA"},
    [ACC_COST_MODERATE] = {"moderate", crypto_pwhash_OPSLIMIT_MODERATE,
                           crypto_pwhash_MEMLIMIT_MODERATE,
                           "$argon2id$v=19$m=262144,t=3,p=1$p9sIiwfv8inriu1BLmHbVA$"
                           "9/G6slBu5Htncz8mvOUkEWJ2vpTW02ioSlwEmzuuGLM"},
    [ACC_COST_SENSITIVE] = {"sensitive", crypto_pwhash_OPSLIMIT_SENSITIVE,
                            crypto_pwhash_MEMLIMIT_SENSITIVE,
                            "$argon2id$v=19$m=1048576,t=4,p=1$/FY2qC3oNnkH35uFuNI6qw$"
                            "Khni2o8Fwa5iYUORGY62gr9ovBwbGPqpKpcSF2t6pzg"},
};

int accounts_init(void)
{
    return sodium_init() < 0 ? -1 : 0;
}

int accounts_name_ok(const char *name)
{
    size_t len = strlen(name);
    if (len < ACC_NAME_MIN || len > ACC_NAME_MAX)
        return 0;
    return strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == len;
}

void accounts_name_key(const char *name, char *out)
{
    size_t i = 0;
    static const char upper[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                      lower[] = "abcdefghijklmnopqrstuvwxyz";
    for (; i < ACC_NAME_MAX && name[i]; i++) {
        const char *at = strchr(upper, name[i]);
        out[i] = name[i];
        if (at)
            out[i] = lower[at - upper];
    }
    out[i] = '\0';
}

int accounts_password_ok(size_t len)
{
    return len >= ACC_PASSWORD_MIN && len <= ACC_PASSWORD_MAX;
}

int accounts_cost_parse(const char *name, acc_cost *out)
{
    for (size_t c = 0; c < sizeof costs / sizeof costs[0]; c++)
        if (strcmp(name, costs[c].name) == 0) {
            *out = (acc_cost)c;
            return 0;
        }
    return -1;
}

int accounts_hash(acc_cost cost, const char *password, size_t len, char out[ACC_HASH_BYTES])
{
    return crypto_pwhash_str(out, password, len, costs[cost].ops, costs[cost].mem) == 0 ? 0 : -1;
}

int accounts_needs_rehash(acc_cost cost, const char *hash)
{
    return crypto_pwhash_str_needs_rehash(hash, costs[cost].ops, costs[cost].mem) != 0;
}

int accounts_verify(const char *hash, const char *password, size_t len)
{
    return hash[0] && crypto_pwhash_str_verify(hash, password, len) == 0;
}

void accounts_verify_nobody(acc_cost cost, const char *password, size_t len)
{
    int ignored = crypto_pwhash_str_verify(costs[cost].nobody, password, len);
    (void)ignored;
}

int accounts_session_new(char hex[ACC_SESSION_HEX], uint8_t hash[ACC_SESSION_HASH_BYTES])
{
    uint8_t token[ACC_SESSION_BYTES];
    randombytes_buf(token, sizeof token);
    token_hex(token, sizeof token, hex);
    token_sha256(token, sizeof token, hash);
    sodium_memzero(token, sizeof token);
    return 0;
}

int accounts_session_hash(const char *hex, uint8_t hash[ACC_SESSION_HASH_BYTES])
{
    uint8_t token[ACC_SESSION_BYTES];
    size_t len = 0;
    size_t digits = 2 * sizeof token;
    if (strlen(hex) != digits ||
        sodium_hex2bin(token, sizeof token, hex, digits, NULL, &len, NULL) != 0 ||
        len != ACC_SESSION_BYTES)
        return -1;
    token_sha256(token, sizeof token, hash);
    sodium_memzero(token, sizeof token);
    return 0;
}

int accounts_session_live(int64_t expires_ms, int64_t now_ms)
{
    return now_ms < expires_ms;
}

/* --- The password work ----------------------------------------------------------------- */

acc_work *accounts_work_new(acc_cost cost)
{
    acc_work *w = calloc(1, sizeof(acc_work));
    if (w)
        w->cost = cost;
    return w;
}

void accounts_work_run(void *work)
{
    acc_work *w = work;
    if (w->verify) {
        if (w->stored[0])
            w->matched = accounts_verify(w->stored, w->password, w->len);
        else
            accounts_verify_nobody(w->cost, w->password, w->len);
    }
    if (w->hash_new && (w->matched || !w->verify))
        w->failed = accounts_hash(w->cost, w->new_password, w->new_len, w->new_hash) != 0;
    else if (w->rehash && w->matched && accounts_needs_rehash(w->cost, w->stored))
        w->rehashed = accounts_hash(w->cost, w->password, w->len, w->new_hash) == 0;
}

void accounts_work_free(void *work)
{
    if (work) {
        sodium_memzero(work, sizeof(acc_work));
        free(work);
    }
}

/* --- The limits ------------------------------------------------------------------------ */

/* One address's sign-ups (key ""), or the failed logins of one (address,
 * account) pair: `count` since `start_ms`, blocked until `blocked_ms`. */
typedef struct acc_entry {
    char addr[48];
    char key[ACC_NAME_MAX + 1];
    int count;
    int64_t start_ms, blocked_ms;
} acc_entry;

struct acc_limits {
    acc_entry entries[ACC_LIMIT_ENTRIES];
    int n;
};

acc_limits *acc_limits_new(void)
{
    return calloc(1, sizeof(acc_limits));
}

void acc_limits_free(acc_limits *L)
{
    free(L);
}

static acc_entry *entry_find(acc_limits *L, const char *addr, const char *key)
{
    for (int i = 0; i < L->n; i++)
        if (strcmp(L->entries[i].addr, addr) == 0 && strcmp(L->entries[i].key, key) == 0)
            return &L->entries[i];
    return NULL;
}

/* Whether entry `e` still says anything at `now_ms`. */
static int entry_alive(const acc_entry *e, int64_t window_ms, int64_t now_ms)
{
    return now_ms < e->blocked_ms || now_ms - e->start_ms < window_ms;
}

/* The entry of (addr, key), made when missing: a full list forgets the
 * entries that say nothing any more, else the oldest one not blocked. */
static acc_entry *entry_get(acc_limits *L, const char *addr, const char *key, int64_t now_ms)
{
    acc_entry *e = entry_find(L, addr, key);
    if (e)
        return e;
    if (L->n == ACC_LIMIT_ENTRIES) {
        int kept = 0;
        for (int i = 0; i < L->n; i++) {
            int64_t window = L->entries[i].key[0] ? ACC_LOGIN_WINDOW_MS : ACC_SIGNUP_WINDOW_MS;
            if (entry_alive(&L->entries[i], window, now_ms))
                L->entries[kept++] = L->entries[i];
        }
        L->n = kept;
    }
    if (L->n == ACC_LIMIT_ENTRIES) {
        int oldest = -1;
        for (int i = 0; i < L->n; i++)
            if (now_ms >= L->entries[i].blocked_ms &&
                (oldest < 0 || L->entries[i].start_ms < L->entries[oldest].start_ms))
                oldest = i;
        if (oldest < 0)
            oldest = 0;
        L->entries[oldest] = L->entries[--L->n];
    }
    e = &L->entries[L->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->addr, sizeof e->addr, "%s", addr);
    snprintf(e->key, sizeof e->key, "%s", key);
    e->start_ms = now_ms;
    return e;
}

static int64_t blocked_for(const acc_entry *e, int64_t now_ms)
{
    return e && now_ms < e->blocked_ms ? e->blocked_ms - now_ms : 0;
}

int64_t acc_login_blocked(acc_limits *L, const char *addr, const char *name_key, int64_t now_ms)
{
    return name_key[0] ? blocked_for(entry_find(L, addr, name_key), now_ms) : 0;
}

void acc_login_failed(acc_limits *L, const char *addr, const char *name_key, int64_t now_ms)
{
    if (!name_key[0])
        return;
    acc_entry *e = entry_get(L, addr, name_key, now_ms);
    if (now_ms - e->start_ms >= ACC_LOGIN_WINDOW_MS) {
        e->count = 0;
        e->start_ms = now_ms;
    }
    if (++e->count >= ACC_LOGIN_FAILURES) {
        int64_t end = e->start_ms + ACC_LOGIN_WINDOW_MS;
        e->blocked_ms = end > now_ms + ACC_LOGIN_BLOCK_MS ? end : now_ms + ACC_LOGIN_BLOCK_MS;
        e->count = 0;
        e->start_ms = e->blocked_ms; /* a new window once the block is over */
    }
}

void acc_login_succeeded(acc_limits *L, const char *addr, const char *name_key)
{
    acc_entry *e = name_key[0] ? entry_find(L, addr, name_key) : NULL;
    if (e)
        *e = L->entries[--L->n];
}

int64_t acc_signup_blocked(acc_limits *L, const char *addr, int64_t now_ms)
{
    acc_entry *e = entry_find(L, addr, "");
    if (!e || now_ms - e->start_ms >= ACC_SIGNUP_WINDOW_MS || e->count < ACC_SIGNUPS_PER_HOUR)
        return 0;
    return e->start_ms + ACC_SIGNUP_WINDOW_MS - now_ms;
}

void acc_signup_counted(acc_limits *L, const char *addr, int64_t now_ms)
{
    acc_entry *e = entry_get(L, addr, "", now_ms);
    if (now_ms - e->start_ms >= ACC_SIGNUP_WINDOW_MS) {
        e->count = 0;
        e->start_ms = now_ms;
    }
    e->count++;
}
