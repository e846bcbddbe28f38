/* test_accounts.c: the accounts module: user names and their key,
 * password lengths, argon2id hashing and verification (libsodium's
 * moderate limits), session tokens and their expiry, the password work
 * of a request, and the limits of failed logins and sign-ups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "accounts.h"
#include "token.h"

static void test_names(void **state)
{
    (void)state;
    assert_true(accounts_name_ok("Ann"));
    assert_true(accounts_name_ok("a_b-C9"));
    assert_true(accounts_name_ok("abcdefghijklmnopqrst")); /* 20 */
    assert_false(accounts_name_ok("ab"));
    assert_false(accounts_name_ok("abcdefghijklmnopqrstu")); /* 21 */
    assert_false(accounts_name_ok("a b"));
    assert_false(accounts_name_ok("Zoë"));
    assert_false(accounts_name_ok("x');--"));
    assert_false(accounts_name_ok(""));
    char key[ACC_NAME_MAX + 1];
    accounts_name_key("AnN_-Z9", key);
    assert_string_equal(key, "ann_-z9");
    assert_false(accounts_password_ok(7));
    assert_true(accounts_password_ok(8));
    assert_true(accounts_password_ok(200));
    assert_false(accounts_password_ok(201));
}

/* A hash is argon2id at the moderate limits (or stronger), salted (two
 * hashes of one password differ), verified by the right password only. */
/* A password change's work at `cost`: "correct horse" verified against
 * `stored`, then "battery staple" hashed; `rehash` set as a login sets it. */
static acc_work *change_work(acc_cost cost, const char *stored, int rehash)
{
    acc_work *w = accounts_work_new(cost);
    assert_non_null(w);
    w->verify = w->hash_new = 1;
    w->rehash = rehash;
    snprintf(w->stored, sizeof w->stored, "%s", stored);
    snprintf(w->password, sizeof w->password, "%s", "correct horse");
    w->len = 13;
    snprintf(w->new_password, sizeof w->new_password, "%s", "battery staple");
    w->new_len = 14;
    accounts_work_run(w);
    return w;
}

static void test_hash_and_verify(void **state)
{
    (void)state;
    char a[ACC_HASH_BYTES], b[ACC_HASH_BYTES], c[ACC_HASH_BYTES];
    assert_int_equal(accounts_hash(ACC_COST_MODERATE, "correct horse", 13, a), 0);
    assert_true(strncmp(a, "$argon2id$v=19$m=262144,t=3,p=1$", 32) == 0);
    /* The rest at the interactive limits (a fifth of the time). */
    assert_int_equal(accounts_hash(ACC_COST_INTERACTIVE, "correct horse", 13, b), 0);
    assert_int_equal(accounts_hash(ACC_COST_INTERACTIVE, "correct horse", 13, c), 0);
    assert_string_not_equal(b, c);
    assert_null(strstr(a, "correct"));
    assert_true(accounts_verify(b, "correct horse", 13));
    assert_false(accounts_verify(b, "correct hors", 12));
    assert_false(accounts_verify("", "correct horse", 13));
    /* The work of a request: verify, then hash the new password. */
    acc_work *w = change_work(ACC_COST_INTERACTIVE, b, 0);
    assert_true(w->matched);
    assert_false(w->failed);
    assert_true(accounts_verify(w->new_hash, "battery staple", 14));
    accounts_work_free(w);
    /* A name that does not exist: verified against nobody, never matched. */
    w = accounts_work_new(ACC_COST_MODERATE);
    w->verify = 1;
    memcpy(w->password, "correct horse", 14);
    w->len = 13;
    w->hash_new = 1;
    accounts_work_run(w);
    assert_false(w->matched);
    assert_string_equal(w->new_hash, "");
    accounts_work_free(w);
}

/* A login's work at `cost` over the stored hash `stored` with `password`. */
static acc_work *login_work(acc_cost cost, const char *stored, const char *password)
{
    acc_work *w = accounts_work_new(cost);
    assert_non_null(w);
    w->verify = 1;
    w->rehash = 1;
    snprintf(w->stored, sizeof w->stored, "%s", stored);
    snprintf(w->password, sizeof w->password, "%s", password);
    w->len = strlen(password);
    accounts_work_run(w);
    return w;
}

/* The three costs by name (and nothing else); a hash at the interactive
 * limits; a login hashes a matched password again when the stored hash is
 * at other limits than the server's, and only then. */
static void test_costs(void **state)
{
    (void)state;
    static const char *names[] = {"interactive", "moderate", "sensitive"};
    for (int c = 0; c < 3; c++) {
        acc_cost cost = (acc_cost)-1;
        assert_int_equal(accounts_cost_parse(names[c], &cost), 0);
        assert_int_equal(cost, c);
    }
    acc_cost kept = ACC_COST_SENSITIVE;
    const char *bad[] = {"", "Moderate", "moderat", "moderate ", "low", "2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(accounts_cost_parse(bad[i], &kept), -1);
        assert_int_equal(kept, ACC_COST_SENSITIVE);
    }
    char fast[ACC_HASH_BYTES], slow[ACC_HASH_BYTES];
    assert_int_equal(accounts_hash(ACC_COST_INTERACTIVE, "correct horse", 13, fast), 0);
    assert_true(strncmp(fast, "$argon2id$v=19$m=65536,t=2,p=1$", 31) == 0);
    assert_true(accounts_verify(fast, "correct horse", 13));
    assert_false(accounts_needs_rehash(ACC_COST_INTERACTIVE, fast));
    assert_true(accounts_needs_rehash(ACC_COST_MODERATE, fast));
    assert_true(accounts_needs_rehash(ACC_COST_SENSITIVE, fast));
    assert_true(accounts_needs_rehash(ACC_COST_INTERACTIVE, "not a hash"));
    assert_int_equal(accounts_hash(ACC_COST_MODERATE, "correct horse", 13, slow), 0);
    assert_false(accounts_needs_rehash(ACC_COST_MODERATE, slow));

    /* A server now at the interactive limits: the moderate hash is made again. */
    acc_work *w = login_work(ACC_COST_INTERACTIVE, slow, "correct horse");
    assert_true(w->matched);
    assert_true(w->rehashed);
    assert_true(strncmp(w->new_hash, "$argon2id$v=19$m=65536,t=2,p=1$", 31) == 0);
    assert_true(accounts_verify(w->new_hash, "correct horse", 13));
    accounts_work_free(w);
    /* Not for a wrong password, not when the limits are the server's, not
     * for a name that does not exist. */
    w = login_work(ACC_COST_INTERACTIVE, slow, "correct hors");
    assert_false(w->matched);
    assert_false(w->rehashed);
    assert_string_equal(w->new_hash, "");
    accounts_work_free(w);
    w = login_work(ACC_COST_INTERACTIVE, fast, "correct horse");
    assert_true(w->matched);
    assert_false(w->rehashed);
    assert_string_equal(w->new_hash, "");
    accounts_work_free(w);
    w = login_work(ACC_COST_INTERACTIVE, "", "correct horse");
    assert_false(w->matched);
    assert_false(w->rehashed);
    accounts_work_free(w);
    /* A password change (a new password given) is not rehashed as well. */
    w = change_work(ACC_COST_INTERACTIVE, slow, 1);
    assert_true(w->matched);
    assert_false(w->rehashed);
    assert_true(accounts_verify(w->new_hash, "battery staple", 14));
    accounts_work_free(w);
}

static void test_sessions(void **state)
{
    (void)state;
    char hex[ACC_SESSION_HEX], other[ACC_SESSION_HEX];
    uint8_t hash[ACC_SESSION_HASH_BYTES], again[ACC_SESSION_HASH_BYTES];
    assert_int_equal(accounts_session_new(hex, hash), 0);
    assert_int_equal(strlen(hex), 64);
    assert_int_equal(accounts_session_new(other, again), 0);
    assert_string_not_equal(hex, other);
    assert_int_equal(accounts_session_hash(hex, again), 0);
    assert_memory_equal(hash, again, sizeof hash);
    assert_int_equal(accounts_session_hash("abc", again), -1);
    hex[5] = 'z';
    assert_int_equal(accounts_session_hash(hex, again), -1);
    /* 30 days from the login, not a millisecond more. */
    int64_t login = 1700000000000LL, expires = login + ACC_SESSION_MS;
    assert_int_equal(ACC_SESSION_MS, 30LL * 24 * 3600 * 1000);
    assert_true(accounts_session_live(expires, login));
    assert_true(accounts_session_live(expires, expires - 1));
    assert_false(accounts_session_live(expires, expires));
}

static void test_login_limits(void **state)
{
    (void)state;
    acc_limits *L = acc_limits_new();
    int64_t t = 1000000;
    for (int i = 0; i < ACC_LOGIN_FAILURES - 1; i++) {
        assert_int_equal(acc_login_blocked(L, "1.2.3.4", "ann", t), 0);
        acc_login_failed(L, "1.2.3.4", "ann", t + i);
    }
    assert_int_equal(acc_login_blocked(L, "1.2.3.4", "ann", t + 100), 0);
    acc_login_failed(L, "1.2.3.4", "ann", t + 100); /* the tenth */
    assert_true(acc_login_blocked(L, "1.2.3.4", "ann", t + 101) >= ACC_LOGIN_BLOCK_MS);
    assert_int_equal(acc_login_blocked(L, "1.2.3.4", "bob", t + 101), 0);
    assert_int_equal(acc_login_blocked(L, "5.6.7.8", "ann", t + 101), 0);
    /* Blocked until the ten minutes are over. */
    assert_true(acc_login_blocked(L, "1.2.3.4", "ann", t + ACC_LOGIN_WINDOW_MS - 1) > 0);
    assert_int_equal(acc_login_blocked(L, "1.2.3.4", "ann", t + ACC_LOGIN_WINDOW_MS), 0);
    /* Failures spread over more than the window never block. */
    for (int i = 0; i < 3 * ACC_LOGIN_FAILURES; i++)
        acc_login_failed(L, "9.9.9.9", "cy", t + i * (ACC_LOGIN_WINDOW_MS / 9));
    assert_int_equal(acc_login_blocked(L, "9.9.9.9", "cy", t + 30 * (ACC_LOGIN_WINDOW_MS / 9)), 0);
    /* A success forgets the failures. */
    for (int i = 0; i < ACC_LOGIN_FAILURES - 1; i++)
        acc_login_failed(L, "1.1.1.1", "dee", t);
    acc_login_succeeded(L, "1.1.1.1", "dee");
    acc_login_failed(L, "1.1.1.1", "dee", t);
    assert_int_equal(acc_login_blocked(L, "1.1.1.1", "dee", t), 0);
    acc_limits_free(L);
}

static void test_signup_limits(void **state)
{
    (void)state;
    acc_limits *L = acc_limits_new();
    int64_t t = 5000000;
    for (int i = 0; i < ACC_SIGNUPS_PER_HOUR; i++) {
        assert_int_equal(acc_signup_blocked(L, "1.2.3.4", t + i), 0);
        acc_signup_counted(L, "1.2.3.4", t + i);
    }
    assert_true(acc_signup_blocked(L, "1.2.3.4", t + 10) > 0);
    assert_int_equal(acc_signup_blocked(L, "4.3.2.1", t + 10), 0);
    assert_int_equal(acc_signup_blocked(L, "1.2.3.4", t + ACC_SIGNUP_WINDOW_MS), 0);
    acc_limits_free(L);
}

/* Many addresses: the oldest entries are forgotten, a blocked one is not. */
static void test_limits_bounded(void **state)
{
    (void)state;
    acc_limits *L = acc_limits_new();
    for (int i = 0; i < ACC_LOGIN_FAILURES; i++)
        acc_login_failed(L, "1.2.3.4", "ann", 0);
    char addr[48];
    for (int i = 0; i < 2 * ACC_LIMIT_ENTRIES; i++) {
        snprintf(addr, sizeof addr, "10.0.%d.%d", i / 256, i % 256);
        acc_login_failed(L, addr, "x", 1000 + i);
    }
    assert_true(acc_login_blocked(L, "1.2.3.4", "ann", 2000) > 0);
    acc_limits_free(L);
}

int main(void)
{
    assert_int_equal(accounts_init(), 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),          cmocka_unit_test(test_hash_and_verify),
        cmocka_unit_test(test_costs),          cmocka_unit_test(test_sessions),
        cmocka_unit_test(test_login_limits),   cmocka_unit_test(test_signup_limits),
        cmocka_unit_test(test_limits_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
