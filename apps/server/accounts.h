/* accounts.h: player accounts: the rules of names and passwords, argon2id
 * password hashes (libsodium), session tokens and their expiry, and the
 * limits on login attempts and sign-ups (kept in memory, per process).
 * Knows no sockets and no storage: http_api.c puts it to work. */
#ifndef CARC_SERVER_ACCOUNTS_H
#define CARC_SERVER_ACCOUNTS_H

#include <stddef.h>
#include <stdint.h>

enum {
    ACC_NAME_MIN = 3, /* a user name: 3 to 20 of A-Z a-z 0-9 _ - */
    ACC_NAME_MAX = 20,
    ACC_PASSWORD_MIN = 8, /* a password: 8 to 200 bytes, any bytes */
    ACC_PASSWORD_MAX = 200,
    ACC_HASH_BYTES = 128,   /* an argon2id hash string with its NUL (crypto_pwhash_STRBYTES) */
    ACC_SESSION_BYTES = 32, /* a session token: 256 random bits ... */
    ACC_SESSION_HEX = 2 * ACC_SESSION_BYTES + 1, /* ... sent as 64 hexadecimal digits */
    ACC_SESSION_HASH_BYTES = 32,                 /* kept only as its SHA-256 */
    ACC_LOGIN_FAILURES = 10,  /* failed logins of one account from one address ... */
    ACC_SIGNUPS_PER_HOUR = 5, /* sign-ups from one address in an hour */
    ACC_LIMIT_ENTRIES = 8192, /* addresses and (address, account) pairs remembered at most */
};

/* A session lasts 30 days from its login, whatever its use. */
#define ACC_SESSION_MS (30LL * 24 * 3600 * 1000)
/* ... within 10 minutes block the address for that account until the 10
 * minutes are over, and for a minute at least. */
#define ACC_LOGIN_WINDOW_MS (10LL * 60 * 1000)
#define ACC_LOGIN_BLOCK_MS (60LL * 1000)
#define ACC_SIGNUP_WINDOW_MS (3600LL * 1000)
/* The name a deleted account's seats show. */
#define ACC_DELETED_NAME "deleted player"

/* Starts libsodium (once, before any other call; thread-safe after). 0,
 * or -1 when it cannot start. */
int accounts_init(void);

/* Whether `name` (NUL-terminated) is a user name: 3 to 20 of A-Z a-z 0-9
 * _ -. */
int accounts_name_ok(const char *name);
/* The key that makes names unique without regard to case: `name` in
 * lower case (ACC_NAME_MAX + 1 bytes). */
void accounts_name_key(const char *name, char *out);
/* Whether a password of `len` bytes is allowed (8 to 200). */
int accounts_password_ok(size_t len);

/* How costly a password hash is: libsodium's named limits of argon2id.
 * Measured here, one hash: interactive 64 MiB and 0.14 s, moderate (the
 * default) 256 MiB and 0.8 s, sensitive 1 GiB and 5.5 s. */
typedef enum acc_cost {
    ACC_COST_INTERACTIVE,
    ACC_COST_MODERATE,
    ACC_COST_SENSITIVE,
} acc_cost;

/* The cost named `name` ("interactive", "moderate" or "sensitive") in
 * *out: 0, or -1 for any other name. */
int accounts_cost_parse(const char *name, acc_cost *out);

/* Hashes a password with argon2id (crypto_pwhash_str at the limits of
 * `cost`; the string holds its salt and limits); 0, or -1 when out of
 * memory. Slow: a worker thread's job, never the event loop's. */
int accounts_hash(acc_cost cost, const char *password, size_t len, char out[ACC_HASH_BYTES]);
/* Whether the stored hash `hash` was made at other limits than those of
 * `cost` (or is not an argon2id hash libsodium reads): 1, or 0. Fast. */
int accounts_needs_rehash(acc_cost cost, const char *hash);
/* Whether `password` matches the stored hash `hash` (libsodium compares
 * in constant time): 1, or 0. As slow as accounts_hash(). */
int accounts_verify(const char *hash, const char *password, size_t len);
/* A verification that always fails, as slow as a real one at `cost`: a
 * login for a name that does not exist takes the same time as a wrong
 * password. */
void accounts_verify_nobody(acc_cost cost, const char *password, size_t len);

/* A new session: its token (random, from libsodium) as hexadecimal for
 * the cookie, and the SHA-256 under which it is stored. 0. */
int accounts_session_new(char hex[ACC_SESSION_HEX], uint8_t hash[ACC_SESSION_HASH_BYTES]);
/* The stored hash of a session token given as a cookie's value: 0, or -1
 * when it is not 64 hexadecimal digits. */
int accounts_session_hash(const char *hex, uint8_t hash[ACC_SESSION_HASH_BYTES]);
/* Whether a session that expires at `expires_ms` still counts at `now_ms`. */
int accounts_session_live(int64_t expires_ms, int64_t now_ms);

/* The password work of one request, done on a worker: verify `password`
 * against `stored` (or against nobody when `stored` is ""), then, when
 * `new_password` is set and the verification passed (or was not asked:
 * `verify` 0), hash it; else, with `rehash`, when the verification
 * passed and `stored` was made at other limits than `cost`'s, hash
 * `password` again at `cost` (`rehashed`). The passwords are wiped by
 * accounts_work_free(). */
typedef struct acc_work {
    acc_cost cost;                       /* of the hashes made, and of nobody's */
    int verify;                          /* verify `password` against `stored` */
    char stored[ACC_HASH_BYTES];         /* "" : a name that does not exist */
    char password[ACC_PASSWORD_MAX + 1]; /* NUL-terminated, `len` bytes */
    size_t len;
    int hash_new; /* hash `new_password` into `new_hash` */
    char new_password[ACC_PASSWORD_MAX + 1];
    size_t new_len;
    int rehash; /* a login: a matched password hashed again when `stored` is at other limits */
    /* results */
    int matched;                   /* the verification passed */
    int failed;                    /* the hash could not be made (out of memory) */
    char new_hash[ACC_HASH_BYTES]; /* the new password's, or the rehashed one's */
    int rehashed;                  /* `new_hash` holds `password` hashed again at `cost` */
} acc_work;

/* A zeroed job at `cost` (malloc'ed), or NULL. */
acc_work *accounts_work_new(acc_cost cost);
/* Does the job (see acc_work); may run on any thread. */
void accounts_work_run(void *work);
/* Wipes the passwords and frees the job. */
void accounts_work_free(void *work);

/* The limits of login attempts and sign-ups, in memory. */
typedef struct acc_limits acc_limits;

acc_limits *acc_limits_new(void);
void acc_limits_free(acc_limits *L);
/* Milliseconds the address `addr` must wait before it may try to log in
 * to the account of key `name_key` again (a name that does not exist
 * counts the same), or 0 when it may now. */
int64_t acc_login_blocked(acc_limits *L, const char *addr, const char *name_key, int64_t now_ms);
/* A failed login: the tenth within ACC_LOGIN_WINDOW_MS blocks. */
void acc_login_failed(acc_limits *L, const char *addr, const char *name_key, int64_t now_ms);
/* A successful login forgets the failures of that pair. */
void acc_login_succeeded(acc_limits *L, const char *addr, const char *name_key);
/* Milliseconds before address `addr` may sign up again, or 0. */
int64_t acc_signup_blocked(acc_limits *L, const char *addr, int64_t now_ms);
/* A sign-up from `addr` (counted when it is tried). */
void acc_signup_counted(acc_limits *L, const char *addr, int64_t now_ms);

#endif
