/* http_api.c: the accounts' HTTP routes: the requests' bodies, the
 * same-origin check, the session cookie, the password jobs on the
 * workers, and the replies sent once their pass is committed. */
#include "http_api.h"

#include <jansson.h>
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "accounts.h"
#include "counts.h"
#include "players.h"
#include "lessons_api.h"
#include "puzzle_api.h"

_Static_assert((int)STORED_ACCOUNT_NAME_BYTES == ACC_NAME_MAX + 1, "a user name's size");
_Static_assert((int)STORED_PWHASH_BYTES == (int)ACC_HASH_BYTES, "a hash's size");
_Static_assert((int)STORED_SESSION_HASH_BYTES == (int)ACC_SESSION_HASH_BYTES, "a session's");

typedef enum api_route {
    ROUTE_SIGNUP,
    ROUTE_LOGIN,
    ROUTE_LOGOUT,
    ROUTE_PASSWORD,
    ROUTE_DELETE,
    ROUTE_ME,
    ROUTE_PLAYER,      /* a path that begins with it: /api/players/NAME */
    ROUTE_LEADERBOARD, /* ?category=C */
    ROUTE_WEBHOOK,
    ROUTE_PUZZLE_DAILY,
    ROUTE_PUZZLE_NEXT,    /* ?rating=R&exclude=ID,ID */
    ROUTE_PUZZLE_ATTEMPT, /* a path /api/puzzles/ID/attempt */
    ROUTE_LESSONS,
    ROUTE_LESSONS_DONE,
    ROUTE_COUNT
} api_route;

/* A route: its path and whether it is a POST (else a GET). */
static const struct {
    const char *path;
    int post;
} routes[ROUTE_COUNT] = {
    {"/api/signup", 1},        {"/api/login", 1},          {"/api/logout", 1},
    {"/api/password", 1},      {"/api/account/delete", 1}, {"/api/me", 0},
    {"/api/players/", 0},      {"/api/leaderboard", 0},    {"/api/account/webhook", 1},
    {"/api/puzzles/daily", 0}, {"/api/puzzles/next", 0},   {"/api/puzzles/", 1},
    {"/api/lessons", 0},       {"/api/lessons/done", 1},
};

/* The end of an attempt's path, after the puzzle's id. */
static const char attempt_suffix[] = "/attempt";

/* Where a request stands. */
typedef enum req_state {
    REQ_BODY,    /* its body arriving */
    REQ_JOB,     /* its password job on a worker */
    REQ_COMMIT,  /* its reply made, waiting for the pass's commit */
    REQ_HEADERS, /* ready: the headers go at the next writable callback, */
    REQ_REPLY,   /* ... then the body */
} req_state;

struct api_req {
    http_api *A;
    struct lws *wsi;
    api_req **slot; /* net.c's pointer to it */
    api_route route;
    req_state state;
    int method_ok;
    int same_origin;
    char addr[STORED_ADDR_BYTES];
    /* the session of its cookie, when it has one that lives */
    int has_session;
    uint8_t session_hash[STORED_SESSION_HASH_BYTES];
    stored_account who;
    /* the body */
    char *body;
    size_t len, received;
    /* a login or a sign-up: the name and its key */
    char name[STORED_ACCOUNT_NAME_BYTES];
    char name_key[STORED_ACCOUNT_NAME_BYTES];
    /* the password job */
    uint64_t job;
    int counted; /* counted in A->calls_per_addr */
    /* the reply */
    unsigned status;
    char *reply; /* JSON text */
    char cookie[160];
    char hint[96];   /* the cookie API_HINT_COOKIE set or cleared, or "" */
    int retry_after; /* seconds, for a 429 */
    api_req *next;   /* in A->requests */
};

struct http_api {
    storage *store;
    workers *pool;
    int secure;
    webhook_policy webhooks;
    acc_limits *limits;
    acc_cost cost;             /* of the password hashes made (--password-cost) */
    const puzzle_set *puzzles; /* NULL: none */
    addr_counts calls_per_addr;
    uint64_t next_job;
    api_req *requests; /* every request in flight */
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

http_api *http_api_new(storage *store, workers *pool, int secure, const webhook_policy *policy,
                       acc_cost cost)
{
    if (accounts_init() != 0)
        return NULL;
    http_api *A = calloc(1, sizeof *A);
    if (!A || !(A->limits = acc_limits_new())) {
        free(A);
        return NULL;
    }
    A->store = store;
    A->pool = pool;
    A->secure = secure;
    A->webhooks = *policy;
    A->cost = cost;
    return A;
}

static void req_free(http_api *A, api_req *q)
{
    for (api_req **at = &A->requests; *at; at = &(*at)->next)
        if (*at == q) {
            *at = q->next;
            break;
        }
    if (q->counted)
        counts_add(&A->calls_per_addr, q->addr, -1);
    if (q->slot)
        *q->slot = NULL;
    if (q->body)
        memset(q->body, 0, q->len); /* passwords */
    free(q->body);
    free(q->reply);
    free(q);
}

void http_api_set_puzzles(http_api *A, const puzzle_set *set)
{
    A->puzzles = set;
}

void http_api_free(http_api *A)
{
    if (!A)
        return;
    while (A->requests)
        req_free(A, A->requests);
    counts_clear(&A->calls_per_addr);
    acc_limits_free(A->limits);
    free(A);
}

/* The route of `wsi`'s request (its whole path: LWS_CALLBACK_HTTP's
 * argument lacks the mount's "/api" for a POST), its method in
 * `*method`; ROUTE_COUNT when it is none of them. */
static api_route route_of(struct lws *wsi, int *method)
{
    char *uri = NULL;
    int len = 0;
    *method = lws_http_get_uri_and_method(wsi, &uri, &len);
    if (*method < 0 || !uri || len < 0)
        return ROUTE_COUNT;
    size_t path_len = strcspn(uri, "?");
    if (path_len > (size_t)len)
        path_len = (size_t)len;
    int r = 0;
    while (r < ROUTE_COUNT &&
           !(strlen(routes[r].path) == path_len && strncmp(uri, routes[r].path, path_len) == 0))
        r++;
    size_t player = strlen(routes[ROUTE_PLAYER].path);
    if (r == ROUTE_COUNT && path_len > player &&
        strncmp(uri, routes[ROUTE_PLAYER].path, player) == 0)
        r = ROUTE_PLAYER;
    size_t puzzles = strlen(routes[ROUTE_PUZZLE_ATTEMPT].path), suffix = strlen(attempt_suffix);
    if (r == ROUTE_COUNT && path_len > puzzles + suffix &&
        strncmp(uri, routes[ROUTE_PUZZLE_ATTEMPT].path, puzzles) == 0 &&
        strncmp(uri + path_len - suffix, attempt_suffix, suffix) == 0)
        r = ROUTE_PUZZLE_ATTEMPT;
    return (api_route)r;
}

int http_api_route(struct lws *wsi)
{
    int method;
    return route_of(wsi, &method) != ROUTE_COUNT;
}

/* --- Replies ------------------------------------------------------------------------------- */

/* The reply `status` with the JSON object `body` (taken); it goes once
 * the pass is committed. */
static void reply_dumped(api_req *q, unsigned status, json_t *body, size_t flags)
{
    free(q->reply);
    q->reply = body ? json_dumps(body, flags) : NULL;
    json_decref(body);
    q->status = q->reply ? status : 500;
    q->state = REQ_COMMIT;
}

static void reply(api_req *q, unsigned status, json_t *body)
{
    reply_dumped(q, status, body, JSON_COMPACT);
}

static void reply_error(api_req *q, unsigned status, const char *code, const char *message)
{
    reply(q, status, json_pack("{s:s, s:s}", "error", code, "message", message));
}

/* Sets the hint cookie that a page may read (1) or clears it (0). */
static void set_hint(api_req *q, int on)
{
    snprintf(q->hint, sizeof q->hint, "%s=%s; Path=/; SameSite=Lax; Max-Age=%lld%s",
             API_HINT_COOKIE, on ? "1" : "", on ? ACC_SESSION_MS / 1000 : 0LL,
             q->A->secure ? "; Secure" : "");
}

/* Sets the cookie of session `hex` (NULL: the cookie that ends it), and
 * the hint cookie with it. */
static void set_cookie(api_req *q, const char *hex)
{
    snprintf(q->cookie, sizeof q->cookie, "%s=%s; Path=/; HttpOnly; SameSite=Lax; Max-Age=%lld%s",
             API_COOKIE, hex ? hex : "", hex ? ACC_SESSION_MS / 1000 : 0LL,
             q->A->secure ? "; Secure" : "");
    set_hint(q, hex != NULL);
}

void http_api_committed(http_api *A)
{
    for (api_req *q = A->requests; q; q = q->next)
        if (q->state == REQ_COMMIT) {
            q->state = REQ_HEADERS;
            lws_callback_on_writable(q->wsi);
        }
}

static int add_header(struct lws *wsi, const char *name, const char *value, unsigned char **at,
                      unsigned char *end)
{
    return lws_add_http_header_by_name(wsi, (const unsigned char *)name,
                                       (const unsigned char *)value, (int)strlen(value), at, end);
}

static int write_headers(api_req *q)
{
    unsigned char head[LWS_PRE + 1024], *start = head + LWS_PRE, *at = start,
                                        *end = head + sizeof head - 1;
    char retry[24];
    snprintf(retry, sizeof retry, "%d", q->retry_after);
    size_t len = q->reply ? strlen(q->reply) : 0;
    if (lws_add_http_common_headers(q->wsi, q->status, "application/json", (lws_filepos_t)len, &at,
                                    end) ||
        add_header(q->wsi, "cache-control:", "no-store", &at, end) ||
        (q->cookie[0] && add_header(q->wsi, "set-cookie:", q->cookie, &at, end)) ||
        (q->hint[0] && add_header(q->wsi, "set-cookie:", q->hint, &at, end)) ||
        (q->retry_after > 0 && add_header(q->wsi, "retry-after:", retry, &at, end)) ||
        lws_finalize_write_http_header(q->wsi, start, &at, end))
        return -1;
    q->state = REQ_REPLY;
    lws_callback_on_writable(q->wsi);
    return 0;
}

int http_api_write(http_api *A, struct lws *wsi, api_req **slot)
{
    api_req *q = *slot;
    if (!q || q->state == REQ_HEADERS)
        return q ? write_headers(q) : 0;
    if (q->state != REQ_REPLY)
        return 0;
    size_t len = q->reply ? strlen(q->reply) : 0;
    unsigned char *buf = malloc(LWS_PRE + len + 1);
    if (!buf)
        return -1;
    memcpy(buf + LWS_PRE, q->reply ? q->reply : "", len);
    int n = lws_write(wsi, buf + LWS_PRE, len, LWS_WRITE_HTTP_FINAL);
    free(buf);
    req_free(A, q);
    if (n < 0)
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* --- The request ---------------------------------------------------------------------------- */

/* Whether the request's Origin, when it has one, is this server: its
 * host and port (the Origin without its scheme) are the request's Host. A
 * browser sends Origin with every POST from a page; another site's page
 * has its own. */
static int same_origin(struct lws *wsi)
{
    char origin[256], host[256];
    int olen = lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN);
    if (olen <= 0)
        return 1;
    if (olen >= (int)sizeof origin ||
        lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0 ||
        lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        return 0;
    const char *rest = strstr(origin, "://");
    return rest && strcasecmp(rest + 3, host) == 0;
}

/* The account of `wsi`'s session cookie: 1 (its hash and account filled),
 * 0 when there is none or it ended, -1 when storage failed. */
static int cookie_session(http_api *A, struct lws *wsi, uint8_t hash[STORED_SESSION_HASH_BYTES],
                          stored_account *who)
{
    char hex[ACC_SESSION_HEX + 8];
    size_t max = sizeof hex;
    if (lws_http_cookie_get(wsi, API_COOKIE, hex, &max) != 0 || accounts_session_hash(hex, hash))
        return 0;
    return storage_find_session(A->store, hash, now_ms(), who);
}

static void handle(http_api *A, api_req *q);

int http_api_begin(http_api *A, struct lws *wsi, api_req **slot, const char *addr)
{
    api_req *q = calloc(1, sizeof *q);
    if (!q)
        return -1;
    q->A = A;
    q->wsi = wsi;
    q->slot = slot;
    *slot = q;
    q->next = A->requests;
    A->requests = q;
    snprintf(q->addr, sizeof q->addr, "%s", addr);
    int method;
    q->route = route_of(wsi, &method);
    q->method_ok = routes[q->route].post ? method == LWSHUMETH_POST : method == LWSHUMETH_GET;
    q->same_origin = same_origin(wsi);
    int found = cookie_session(A, wsi, q->session_hash, &q->who);
    q->has_session = found == 1;
    if (found < 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(A->store));
        reply_error(q, 500, "internal", "the server failed: try again");
        return 0;
    }
    /* A POST's body follows (LWS_CALLBACK_HTTP_BODY), unless it has none. */
    char length[24];
    long declared = lws_hdr_copy(wsi, length, sizeof length, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0
                        ? strtol(length, NULL, 10)
                        : 0;
    if (method == LWSHUMETH_POST && declared > 0) {
        q->state = REQ_BODY;
        return 0;
    }
    handle(A, q);
    return 0;
}

int http_api_body(http_api *A, api_req *q, const void *in, size_t len)
{
    (void)A;
    if (!q || q->state != REQ_BODY)
        return 0;
    q->received += len;
    if (q->received > API_BODY_DRAIN)
        return -1; /* no more of it is read */
    if (q->received > API_BODY_MAX)
        return 0; /* too big: read, not kept (413 at its end) */
    if (!q->body && !(q->body = malloc(API_BODY_MAX + 1)))
        return -1;
    memcpy(q->body + q->len, in, len);
    q->len += len;
    q->body[q->len] = '\0';
    return 0;
}

int http_api_body_done(http_api *A, api_req *q)
{
    if (q && q->state == REQ_BODY)
        handle(A, q);
    return 0;
}

void http_api_closed(http_api *A, api_req **slot)
{
    if (*slot)
        req_free(A, *slot);
}

/* --- The routes ------------------------------------------------------------------------------ */

/* The request's body as a JSON object, or NULL with the 400 reply made. */
static json_t *body_object(api_req *q)
{
    json_error_t err;
    json_t *root = q->body ? json_loadb(q->body, q->len, JSON_REJECT_DUPLICATES, &err) : NULL;
    if (!json_is_object(root)) {
        json_decref(root);
        reply_error(q, 400, "bad_json", "the body must be a JSON object");
        return NULL;
    }
    return root;
}

/* String field `key` of `root`: its text and length, or NULL with the 400
 * reply made. */
static const char *string_field(api_req *q, json_t *root, const char *key, size_t *len)
{
    json_t *v = json_object_get(root, key);
    if (!json_is_string(v)) {
        char why[80];
        snprintf(why, sizeof why, "'%s' must be a string", key);
        reply_error(q, 400, "bad_field", why);
        return NULL;
    }
    *len = json_string_length(v);
    return json_string_value(v);
}

static const char *password_rule(void)
{
    static char rule[64];
    snprintf(rule, sizeof rule, "a password is %d to %d bytes", ACC_PASSWORD_MIN, ACC_PASSWORD_MAX);
    return rule;
}

/* 429 for `ms` more milliseconds. */
static void reply_limited(api_req *q, int64_t ms, const char *message)
{
    q->retry_after = (int)((ms + 999) / 1000);
    reply(q, 429,
          json_pack("{s:s, s:s, s:i}", "error", "rate_limited", "message", message, "retry_after",
                    q->retry_after));
}

/* Sends password job `w` to the workers; the request waits for it. */
static void start_job(api_req *q, acc_work *w)
{
    http_api *A = q->A;
    if (counts_get(&A->calls_per_addr, q->addr) >= API_CALLS_PER_ADDR) {
        accounts_work_free(w);
        reply_limited(q, 1000, "your address has as many password checks running as it may");
        return;
    }
    q->job = ++A->next_job;
    if (workers_call(A->pool, q->job, q->addr, accounts_work_run, accounts_work_free, w) != 0) {
        accounts_work_free(w);
        q->retry_after = 1;
        reply_error(q, 503, "busy", "the server is busy: try again in a moment");
        return;
    }
    q->counted = counts_add(&A->calls_per_addr, q->addr, 1) > 0;
    q->state = REQ_JOB;
}

static void copy_password(char *out, const char *in, size_t len)
{
    memcpy(out, in, len);
    out[len] = '\0';
}

/* A new session of account `id` named `name`: stored, its cookie set.
 * -1 with the 500 reply made. */
static int new_session(api_req *q, int64_t id)
{
    char hex[ACC_SESSION_HEX];
    uint8_t hash[ACC_SESSION_HASH_BYTES];
    int64_t now = now_ms();
    accounts_session_new(hex, hash);
    if (storage_create_session(q->A->store, hash, id, now, now + ACC_SESSION_MS) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(q->A->store));
        reply_error(q, 500, "internal", "the session could not be stored: try again");
        return -1;
    }
    set_cookie(q, hex);
    return 0;
}

static json_t *account_json(int64_t id, const char *name)
{
    return json_pack("{s:I, s:s}", "id", (json_int_t)id, "name", name);
}

/* POST /api/signup and /api/login: the name and password of the body. */
static void do_signup_or_login(api_req *q, json_t *root)
{
    http_api *A = q->A;
    int signup = q->route == ROUTE_SIGNUP;
    size_t nlen = 0, plen = 0;
    const char *name = string_field(q, root, "name", &nlen);
    const char *password = name ? string_field(q, root, "password", &plen) : NULL;
    if (!password)
        return;
    int name_ok = nlen == strlen(name) && accounts_name_ok(name);
    if (signup && !name_ok) {
        reply_error(q, 400, "bad_name",
                    "a user name is 3 to 20 letters (A-Z, a-z), digits, '_' or '-'");
        return;
    }
    if (!accounts_password_ok(plen)) {
        reply_error(q, signup ? 400 : 401, signup ? "bad_password" : "bad_login",
                    signup ? password_rule() : "wrong name or password");
        return;
    }
    if (name_ok) {
        snprintf(q->name, sizeof q->name, "%s", name);
        accounts_name_key(name, q->name_key);
    }
    int64_t now = now_ms(), wait = signup ? acc_signup_blocked(A->limits, q->addr, now)
                                          : acc_login_blocked(A->limits, q->addr, q->name_key, now);
    if (wait > 0) {
        reply_limited(q, wait,
                      signup ? "too many sign-ups from your address: try again later"
                             : "too many failed logins for this account: try again later");
        return;
    }
    stored_account found;
    int exists = name_ok ? storage_find_account(A->store, q->name_key, &found) : 0;
    if (exists < 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(A->store));
        reply_error(q, 500, "internal", "the server failed: try again");
        return;
    }
    if (signup && exists) {
        reply_error(q, 409, "name_taken", "that name is taken");
        return;
    }
    acc_work *w = accounts_work_new(A->cost);
    if (!w) {
        reply_error(q, 500, "internal", "out of memory");
        return;
    }
    if (signup) {
        acc_signup_counted(A->limits, q->addr, now);
        w->hash_new = 1;
        copy_password(w->new_password, password, plen);
        w->new_len = plen;
    } else {
        w->verify = 1;
        w->rehash = 1;
        copy_password(w->password, password, plen);
        w->len = plen;
        if (exists)
            snprintf(w->stored, sizeof w->stored, "%s", found.hash);
    }
    start_job(q, w);
}

/* POST /api/password {"old","new"} and /api/account/delete {"password"}. */
static void do_password_or_delete(api_req *q, json_t *root)
{
    http_api *A = q->A;
    if (!q->has_session) {
        reply_error(q, 401, "not_logged_in", "log in first");
        return;
    }
    int change = q->route == ROUTE_PASSWORD;
    size_t olen = 0, nlen = 0;
    const char *old = string_field(q, root, change ? "old" : "password", &olen);
    const char *new_password = old && change ? string_field(q, root, "new", &nlen) : NULL;
    if (!old || (change && !new_password))
        return;
    if (change && !accounts_password_ok(nlen)) {
        reply_error(q, 400, "bad_password", password_rule());
        return;
    }
    accounts_name_key(q->who.name, q->name_key);
    int64_t wait = acc_login_blocked(A->limits, q->addr, q->name_key, now_ms());
    if (wait > 0) {
        reply_limited(q, wait, "too many wrong passwords for this account: try again later");
        return;
    }
    if (!accounts_password_ok(olen)) {
        acc_login_failed(A->limits, q->addr, q->name_key, now_ms());
        reply_error(q, 401, "bad_password", "wrong password");
        return;
    }
    acc_work *w = accounts_work_new(A->cost);
    if (!w) {
        reply_error(q, 500, "internal", "out of memory");
        return;
    }
    w->verify = 1;
    snprintf(w->stored, sizeof w->stored, "%s", q->who.hash);
    copy_password(w->password, old, olen);
    w->len = olen;
    if (change) {
        w->hash_new = 1;
        copy_password(w->new_password, new_password, nlen);
        w->new_len = nlen;
    }
    start_job(q, w);
}

typedef struct seat_list {
    json_t *list;
} seat_list;

static int add_seat(void *ctx, const char *id, int seat)
{
    seat_list *l = ctx;
    json_array_append_new(l->list, json_pack("{s:s, s:i}", "table", id, "seat", seat));
    return 0;
}

/* GET /api/me: who the cookie is, and the account's seats at waiting and
 * playing tables. The hint cookie follows the answer: set for a session
 * (one from before the hint gets it), cleared without one (a session that
 * ended), so that the browser asks only while it may have a session. */
static void do_me(api_req *q)
{
    set_hint(q, q->has_session);
    if (!q->has_session) {
        reply_error(q, 401, "not_logged_in", "no session: log in");
        return;
    }
    seat_list l = {json_array()};
    unsigned live = 1u << TABLE_WAITING | 1u << TABLE_PLAYING;
    if (storage_account_seats(q->A->store, q->who.id, live, 100, add_seat, &l) != 0) {
        json_decref(l.list);
        reply_error(q, 500, "internal", "the server failed: try again");
        return;
    }
    char url[WEBHOOK_URL_MAX + 1] = "";
    if (storage_webhook(q->A->store, q->who.id, url, sizeof url) < 0) {
        json_decref(l.list);
        reply_error(q, 500, "internal", "the server failed: try again");
        return;
    }
    json_t *me = account_json(q->who.id, q->who.name);
    json_object_set_new(me, "tables", l.list);
    json_object_set_new(me, "webhook", url[0] ? json_string(url) : json_null());
    reply(q, 200, me);
}

/* POST /api/account/webhook {"url": "https://..."}: the account's webhook
 * set, or removed ("" or null). */
static void do_webhook(api_req *q, json_t *root)
{
    if (!q->has_session) {
        reply_error(q, 401, "not_logged_in", "log in first");
        return;
    }
    json_t *v = json_object_get(root, "url");
    if (!v || !(json_is_null(v) || json_is_string(v))) {
        reply_error(q, 400, "bad_field", "'url' must be a string or null");
        return;
    }
    const char *url = json_is_string(v) ? json_string_value(v) : "";
    size_t len = json_is_string(v) ? json_string_length(v) : 0;
    const char *why = len ? webhooks_url_error(url, len, &q->A->webhooks) : NULL;
    if (why) {
        reply_error(q, 400, "bad_url", why);
        return;
    }
    if (storage_set_webhook(q->A->store, q->who.id, url) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(q->A->store));
        reply_error(q, 500, "internal", "the server failed: try again");
        return;
    }
    reply(q, 200, json_pack("{s:o}", "webhook", len ? json_string(url) : json_null()));
}

/* POST /api/logout: the session ends (also without one: the cookie goes). */
static void do_logout(api_req *q)
{
    if (q->has_session && storage_delete_session(q->A->store, q->session_hash) != 0) {
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(q->A->store));
        reply_error(q, 500, "internal", "the server failed: try again");
        return;
    }
    set_cookie(q, NULL);
    reply(q, 200, json_object());
}

/* The request whose body (if any) is in: checked, then answered or sent
 * to a worker. Bad input changes nothing. */
/* GET /api/players/NAME and GET /api/leaderboard?category=C (players.c). */
static void do_players(api_req *q)
{
    char *uri = NULL, value[64] = "", arg[80];
    int len = 0;
    unsigned status = 500;
    json_t *body = NULL;
    if (q->route == ROUTE_PLAYER) {
        size_t prefix = strlen(routes[ROUTE_PLAYER].path);
        if (lws_http_get_uri_and_method(q->wsi, &uri, &len) >= 0 && uri && len > 0) {
            size_t path_len = strcspn(uri, "?");
            if (path_len > (size_t)len)
                path_len = (size_t)len;
            if (path_len > prefix && path_len - prefix < sizeof value)
                snprintf(value, sizeof value, "%.*s", (int)(path_len - prefix), uri + prefix);
        }
        status = 404;
        if (value[0])
            body = players_page(q->A->store, value, now_ms(), &status);
    } else {
        /* lws keeps the query's arguments url-decoded, one a fragment. */
        const char *c = lws_get_urlarg_by_name(q->wsi, "category=", arg, (int)sizeof arg);
        body = players_leaderboard(q->A->store, c ? c : "", now_ms(), &status);
    }
    if (body)
        reply(q, 200, body);
    else if (status == 404)
        reply_error(q, 404, "no_player", "no player of that name");
    else if (status == 400)
        reply_error(q, 400, "bad_category",
                    "category must be duel, duel-variants, multi or multi-variants");
    else
        reply_error(q, 500, "internal", "the server failed: try again");
}

/* The id of an attempt's path /api/puzzles/ID/attempt into `out`. */
static void attempt_id(api_req *q, char *out, size_t cap)
{
    char *uri = NULL;
    int len = 0;
    size_t prefix = strlen(routes[ROUTE_PUZZLE_ATTEMPT].path), suffix = strlen(attempt_suffix);
    out[0] = '\0';
    if (lws_http_get_uri_and_method(q->wsi, &uri, &len) < 0 || !uri || len <= 0)
        return;
    size_t path_len = strcspn(uri, "?");
    if (path_len > (size_t)len)
        path_len = (size_t)len;
    if (path_len > prefix + suffix && path_len - prefix - suffix < cap)
        snprintf(out, cap, "%.*s", (int)(path_len - prefix - suffix), uri + prefix);
}

/* GET /api/puzzles/daily, GET /api/puzzles/next and POST
 * /api/puzzles/ID/attempt (puzzle_api.c). */
static void do_puzzles(api_req *q, json_t *root)
{
    unsigned status = 500;
    int64_t account = q->has_session ? q->who.id : 0;
    json_t *body = NULL;
    if (q->route == ROUTE_PUZZLE_DAILY) {
        body = puzzle_api_daily(q->A->puzzles, q->A->store, account, now_ms(), &status);
    } else if (q->route == ROUTE_PUZZLE_NEXT) {
        char rating[32], exclude[4200];
        const char *r = lws_get_urlarg_by_name(q->wsi, "rating=", rating, (int)sizeof rating);
        const char *e = lws_get_urlarg_by_name(q->wsi, "exclude=", exclude, (int)sizeof exclude);
        body = puzzle_api_next(q->A->puzzles, q->A->store, account, r, e, &status);
    } else {
        char id[STORED_PUZZLE_ID_BYTES];
        attempt_id(q, id, sizeof id);
        body = puzzle_api_attempt(q->A->puzzles, q->A->store, account, id, root, now_ms(), &status);
    }
    /* Chances and margins as the set has them (0.639, not 0.63900000000000001). */
    reply_dumped(q, status, body, JSON_COMPACT | JSON_REAL_PRECISION(8));
}

/* GET /api/lessons and POST /api/lessons/done (lessons_api.c): an
 * account's progress in the tutorial. */
static void do_lessons(api_req *q, json_t *root)
{
    if (!q->has_session) {
        reply_error(q, 401, "not_logged_in", "log in to keep lessons in an account");
        return;
    }
    unsigned status = 500;
    json_t *body = root ? lessons_api_done(q->A->store, q->who.id, root, now_ms(), &status)
                        : lessons_api_list(q->A->store, q->who.id, &status);
    reply(q, status, body);
}

static void handle(http_api *A, api_req *q)
{
    (void)A;
    if (!q->method_ok) {
        reply_error(q, 405, "bad_method", routes[q->route].post ? "use POST" : "use GET");
        return;
    }
    if (routes[q->route].post && !q->same_origin) {
        reply_error(q, 403, "foreign_origin", "requests from another site's page are refused");
        return;
    }
    if (q->received > API_BODY_MAX) {
        char why[64];
        snprintf(why, sizeof why, "a body is at most %d bytes", API_BODY_MAX);
        reply_error(q, 413, "too_big", why);
        return;
    }
    if (q->route == ROUTE_ME) {
        do_me(q);
        return;
    }
    if (q->route == ROUTE_PLAYER || q->route == ROUTE_LEADERBOARD) {
        do_players(q);
        return;
    }
    if (q->route == ROUTE_LOGOUT) {
        do_logout(q);
        return;
    }
    if (q->route == ROUTE_PUZZLE_DAILY || q->route == ROUTE_PUZZLE_NEXT) {
        do_puzzles(q, NULL);
        return;
    }
    if (q->route == ROUTE_LESSONS) {
        do_lessons(q, NULL);
        return;
    }
    json_t *root = body_object(q);
    if (!root)
        return;
    if (q->route == ROUTE_PUZZLE_ATTEMPT)
        do_puzzles(q, root);
    else if (q->route == ROUTE_LESSONS_DONE)
        do_lessons(q, root);
    else if (q->route == ROUTE_WEBHOOK)
        do_webhook(q, root);
    else if (q->route == ROUTE_SIGNUP || q->route == ROUTE_LOGIN)
        do_signup_or_login(q, root);
    else
        do_password_or_delete(q, root);
    json_decref(root);
}

/* --- The password jobs' answers -------------------------------------------------------------- */

static void signup_done(api_req *q, const acc_work *w)
{
    int64_t id = 0;
    int made = w->failed ? -1
                         : storage_create_account(q->A->store, q->name, q->name_key, w->new_hash,
                                                  now_ms(), &id);
    if (made == 1)
        reply_error(q, 409, "name_taken", "that name is taken");
    else if (made != 0)
        reply_error(q, 500, "internal", "the account could not be stored: try again");
    else if (new_session(q, id) == 0)
        reply(q, 201, account_json(id, q->name));
}

static void login_done(api_req *q, const acc_work *w)
{
    http_api *A = q->A;
    stored_account a;
    if (!w->matched || storage_find_account(A->store, q->name_key, &a) != 1) {
        acc_login_failed(A->limits, q->addr, q->name_key, now_ms());
        reply_error(q, 401, "bad_login", "wrong name or password");
        return;
    }
    acc_login_succeeded(A->limits, q->addr, q->name_key);
    /* A hash made at other limits than the server's (--password-cost
     * changed since) is stored again at them, unless the password changed
     * while it was verified; when that fails the old one stays, and the
     * login goes on. */
    if (w->rehashed && strcmp(a.hash, w->stored) == 0 &&
        storage_set_password(A->store, a.id, w->new_hash) != 0)
        fprintf(stderr, "carcassonne serve: a password not rehashed: %s\n",
                storage_error(A->store));
    /* Said only to whoever knows the password: the operator disabled it. */
    if (a.disabled)
        reply_error(q, 403, "account_disabled",
                    "this account is disabled: ask the server's operator");
    else if (new_session(q, a.id) == 0)
        reply(q, 200, account_json(a.id, a.name));
}

static void password_done(api_req *q, const acc_work *w)
{
    http_api *A = q->A;
    if (!w->matched) {
        acc_login_failed(A->limits, q->addr, q->name_key, now_ms());
        reply_error(q, 401, "bad_password", "wrong password");
        return;
    }
    acc_login_succeeded(A->limits, q->addr, q->name_key);
    int failed = 0;
    if (q->route == ROUTE_PASSWORD) {
        /* Every other session ends: whoever knew the old password is out. */
        failed = w->failed || storage_set_password(A->store, q->who.id, w->new_hash) != 0 ||
                 storage_delete_sessions(A->store, q->who.id, q->session_hash, now_ms()) != 0;
    } else {
        failed = storage_delete_account(A->store, q->who.id) < 0;
        set_cookie(q, NULL);
    }
    if (failed) {
        q->cookie[0] = q->hint[0] = '\0';
        reply_error(q, 500, "internal", "the server failed: try again");
    } else {
        reply(q, 200, json_object());
    }
}

void http_api_call_done(http_api *A, uint64_t job, void *arg)
{
    api_req *q = A->requests;
    while (q && !(q->state == REQ_JOB && q->job == job))
        q = q->next;
    if (q) {
        if (q->counted)
            counts_add(&A->calls_per_addr, q->addr, -1);
        q->counted = 0;
        const acc_work *w = arg;
        if (q->route == ROUTE_SIGNUP)
            signup_done(q, w);
        else if (q->route == ROUTE_LOGIN)
            login_done(q, w);
        else
            password_done(q, w);
    }
    accounts_work_free(arg);
}

/* --- WebSocket connections ------------------------------------------------------------------- */

void http_api_identify(http_api *A, struct lws *wsi, api_identity *who)
{
    memset(who, 0, sizeof *who);
    stored_account a;
    if (!same_origin(wsi) || cookie_session(A, wsi, who->session_hash, &a) != 1)
        return;
    who->account = a.id;
    snprintf(who->name, sizeof who->name, "%s", a.name);
}

void http_api_recheck(http_api *A, srv_client *c)
{
    stored_account a;
    if (c->account && storage_find_session(A->store, c->session_hash, now_ms(), &a) == 1 &&
        a.id == c->account)
        return;
    c->account = 0;
    c->account_name[0] = '\0';
}
