/* webhooks.h: an account's webhook, POSTed when it becomes the account's
 * turn at a table (correspondence games): the URL's rules, the addresses
 * it may never reach (checked on the address actually connected to, after
 * DNS, at every call), one call a minute per account and table, and the
 * calls themselves, made with libcurl on the worker pool (workers_call),
 * never on the event loop. */
#ifndef CARC_SERVER_WEBHOOKS_H
#define CARC_SERVER_WEBHOOKS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "storage.h"
#include "workers.h"

enum {
    WEBHOOK_URL_MAX = 2000,    /* bytes of a URL */
    WEBHOOK_TIMEOUT_MS = 5000, /* a whole call, connection included */
    WEBHOOK_EVERY_MS = 60000,  /* at most one call per account and table this often */
    WEBHOOK_REMEMBERED = 4096, /* (account, table) pairs whose last call is remembered */
    WEBHOOK_BODY_BYTES = 160,  /* the JSON sent */
};

/* What the server's options allow beside https:// to public addresses:
 * plain http:// URLs (`--allow-http-webhooks`), and the loopback
 * addresses 127.0.0.0/8 and ::1 (`--allow-webhook-loopback`); both for
 * tests only. */
typedef struct webhook_policy {
    int allow_http;
    int allow_loopback;
} webhook_policy;

/* Why `url` (`len` bytes) cannot be a webhook, or NULL when it can: an
 * https:// URL (http:// when allowed), at most WEBHOOK_URL_MAX bytes,
 * with a host, that libcurl parses. */
const char *webhooks_url_error(const char *url, size_t len, const webhook_policy *policy);
/* Why a call may not connect to `addr`, or NULL when it may: loopback,
 * private (RFC 1918, fc00::/7), link-local, multicast, unspecified,
 * CGNAT (100.64.0.0/10), reserved, and the same inside IPv4-mapped,
 * -compatible and NAT64 IPv6 addresses, are refused (loopback allowed by
 * the policy). */
const char *webhooks_address_error(const struct sockaddr *addr, const webhook_policy *policy);
/* The JSON POSTed: {"table":ID,"turn":N,"seat":S,"deadline":MS or null}
 * (`deadline_ms` < 0: no clock). Its length. */
int webhooks_body(char *out, size_t cap, const char *table, int turn, int seat,
                  int64_t deadline_ms);

typedef struct webhooks webhooks;

/* Starts libcurl (once per process) and the calls' state; NULL on
 * failure. Calls go to `pool`. */
webhooks *webhooks_new(workers *pool, const webhook_policy *policy);
/* Forgets the state (calls still queued are the pool's to drop). */
void webhooks_free(webhooks *W);
/* On the event loop: turn `turn` of table `table` became seat `seat`'s,
 * a seat of account `account`, to be played by `deadline_ms` (-1: no
 * clock). Reads the account's webhook from `store`; when it has one and
 * the account was not called for this table in the last minute, queues
 * the call. */
void webhooks_turn(webhooks *W, storage *store, const char *table, int turn, int seat,
                   int64_t account, int64_t deadline_ms, int64_t now_ms);
/* Whether finished call job `job` (worker_result.call_job) is a webhook's. */
int webhooks_owns(uint64_t job);
/* On the event loop: a webhook's call is done (`arg` the job's, freed
 * here); its outcome goes to the log (standard error). */
void webhooks_done(webhooks *W, void *arg);

#endif
