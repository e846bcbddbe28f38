/* http_api.h: the accounts' HTTP routes (POST /api/signup, /api/login,
 * /api/logout, /api/password, /api/account/delete; GET /api/me) and the
 * puzzles' (GET /api/puzzles/daily, /api/puzzles/next; POST
 * /api/puzzles/ID/attempt; puzzle_api.h), JSON in
 * and out, the session cookie, and who a WebSocket upgrade's cookie is.
 * net.c hands it the HTTP callbacks of those routes; the passwords are
 * hashed on the worker pool, and a reply goes out only once the pass that
 * stored what it changed is committed (http_api_committed()). */
#ifndef CARC_SERVER_HTTP_API_H
#define CARC_SERVER_HTTP_API_H

#include <stddef.h>
#include <stdint.h>

#include "accounts.h"
#include "puzzle_set.h"
#include "storage.h"
#include "tables.h"
#include "webhooks.h"
#include "workers.h"

struct lws;

enum {
    API_BODY_MAX = 4096,      /* a request body, at most (else 413) */
    API_BODY_DRAIN = 1 << 20, /* ... bytes read past it before the connection is closed */
    API_CALLS_PER_ADDR = 4,   /* password jobs of one address at once (else 429) */
};

/* The name of the session cookie. */
#define API_COOKIE "carc_session"
/* A cookie the page may read, set and cleared with the session's: "1"
 * while this browser may have a session, so that a guest's page does not
 * ask GET /api/me for a 401 (docs/web.md, "Accounts"). It grants nothing. */
#define API_HINT_COOKIE "carc_account"

typedef struct http_api http_api;
/* One HTTP request to a route of the accounts (owned by http_api; net.c
 * keeps a pointer to it in its per-connection data). */
typedef struct api_req api_req;

/* Who a connection is: the account of its session (0: a guest), its
 * name, and the session's hash. */
typedef struct api_identity {
    int64_t account;
    char name[STORED_ACCOUNT_NAME_BYTES];
    uint8_t session_hash[STORED_SESSION_HASH_BYTES];
} api_identity;

/* The routes over `store` (borrowed), hashing on `pool` (borrowed) at
 * `cost` (a login whose stored hash is at other limits stores it again at
 * `cost`); with `secure` (the server serves TLS itself) the cookie is `Secure`; webhook
 * URLs are checked against `policy` (copied). NULL when out of memory or
 * libsodium does not start. */
http_api *http_api_new(storage *store, workers *pool, int secure, const webhook_policy *policy,
                       acc_cost cost);
/* The puzzles its routes serve (borrowed; NULL: none, the routes answer
 * 404 no_puzzles). */
void http_api_set_puzzles(http_api *A, const puzzle_set *set);
/* Frees it and every request in flight. */
void http_api_free(http_api *A);

/* Whether the request of `wsi` (LWS_CALLBACK_HTTP) is to one of these
 * routes (its path, without a query). */
int http_api_route(struct lws *wsi);
/* LWS_CALLBACK_HTTP of such a request, from client address `addr`: the
 * request begins (`*slot` points to it). 0, or -1 to close the
 * connection. */
int http_api_begin(http_api *A, struct lws *wsi, api_req **slot, const char *addr);
/* LWS_CALLBACK_HTTP_BODY and LWS_CALLBACK_HTTP_BODY_COMPLETION. */
int http_api_body(http_api *A, api_req *q, const void *in, size_t len);
int http_api_body_done(http_api *A, api_req *q);
/* LWS_CALLBACK_HTTP_WRITEABLE: writes the reply (the request ends and
 * `*slot` is NULL once it is sent). 0, or -1 to close. */
int http_api_write(http_api *A, struct lws *wsi, api_req **slot);
/* LWS_CALLBACK_CLOSED_HTTP: the request in `*slot`, if any, is dropped
 * (its password job, still running, is freed when it comes back). */
void http_api_closed(http_api *A, api_req **slot);

/* A worker's answer to a password job (worker_result's call_job and
 * call_arg; `arg` is taken). */
void http_api_call_done(http_api *A, uint64_t job, void *arg);
/* The pass was committed: the replies of its requests may go. */
void http_api_committed(http_api *A);

/* Who the WebSocket upgrade `wsi` is (LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION):
 * the account of its session cookie when the session lives and the
 * upgrade's Origin is absent or this server's (another site's page gets a
 * guest connection), else a guest. */
void http_api_identify(http_api *A, struct lws *wsi, api_identity *who);
/* Looks at the session of client `c` again (before a request that acts
 * for its account): a session ended since (logout, deletion, expiry, on
 * any process) makes `c` a guest. */
void http_api_recheck(http_api *A, srv_client *c);

#endif
