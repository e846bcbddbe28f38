/* webhooks.c: the accounts' webhooks: the URL's rules, the addresses a
 * call may never reach, the once-a-minute limit, and the calls (libcurl,
 * on the workers). */
#include "webhooks.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Webhook jobs are numbered apart from http_api.c's (1, 2, ...). */
#define WEBHOOK_JOB_BIT (UINT64_C(1) << 63)

/* One call, made on a worker: what to send, then what came of it. */
typedef struct webhook_call {
    webhook_policy policy;
    char url[WEBHOOK_URL_MAX + 1];
    char body[WEBHOOK_BODY_BYTES];
    int64_t account;
    char table[STORED_ID_BYTES];
    int turn;
    /* the outcome */
    CURLcode code;
    long status;       /* the HTTP status answered, or 0 */
    char refused[200]; /* the address refused and why, or "" */
    char error[CURL_ERROR_SIZE];
} webhook_call;

/* When account `account` was last called for table `table`. */
typedef struct webhook_sent {
    int64_t account;
    char table[STORED_ID_BYTES];
    int64_t at_ms;
} webhook_sent;

struct webhooks {
    workers *pool;
    webhook_policy policy;
    uint64_t next_job;
    webhook_sent sent[WEBHOOK_REMEMBERED];
    int nsent;
};

/* --- The rules ------------------------------------------------------------------------------- */

const char *webhooks_url_error(const char *url, size_t len, const webhook_policy *policy)
{
    if (len > WEBHOOK_URL_MAX)
        return "a webhook URL is at most 2000 bytes";
    if (strlen(url) != len)
        return "a webhook URL holds no NUL byte";
    int https = strncasecmp(url, "https://", 8) == 0, http = strncasecmp(url, "http://", 7) == 0;
    if (!https && !(http && policy->allow_http))
        return policy->allow_http ? "a webhook URL begins with https:// or http://"
                                  : "a webhook URL begins with https://";
    CURLU *u = curl_url();
    char *host = NULL;
    int ok = u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
             curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK && host && host[0];
    curl_free(host);
    curl_url_cleanup(u);
    return ok ? NULL : "the webhook URL does not parse (scheme://host/path)";
}

/* Why the IPv4 address `a` (host order) is refused, or NULL. */
static const char *ipv4_error(uint32_t a, const webhook_policy *policy)
{
    static const struct {
        uint32_t net, mask;
        const char *why;
    } refused[] = {
        {0x00000000, 0xff000000, "an unspecified address (0.0.0.0/8)"},
        {0x0a000000, 0xff000000, "a private address (10.0.0.0/8)"},
        {0x64400000, 0xffc00000, "a shared address (CGNAT, 100.64.0.0/10)"},
        {0xa9fe0000, 0xffff0000, "a link-local address (169.254.0.0/16)"},
        {0xac100000, 0xfff00000, "a private address (172.16.0.0/12)"},
        {0xc0000000, 0xffffff00, "a reserved address (192.0.0.0/24)"},
        {0xc0a80000, 0xffff0000, "a private address (192.168.0.0/16)"},
        {0xc6120000, 0xfffe0000, "a reserved address (198.18.0.0/15)"},
        {0xe0000000, 0xf0000000, "a multicast address (224.0.0.0/4)"},
        {0xf0000000, 0xf0000000, "a reserved address (240.0.0.0/4)"},
    };
    if ((a & 0xff000000) == 0x7f000000)
        return policy->allow_loopback ? NULL : "a loopback address (127.0.0.0/8)";
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if ((a & refused[i].mask) == refused[i].net)
            return refused[i].why;
    return NULL;
}

static int zeros(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return 0;
    return 1;
}

/* Why the IPv6 address `b` is refused, or NULL. */
static const char *ipv6_error(const uint8_t b[16], const webhook_policy *policy)
{
    static const uint8_t nat64[12] = {0x00, 0x64, 0xff, 0x9b};
    uint32_t v4 = (uint32_t)b[12] << 24 | (uint32_t)b[13] << 16 | (uint32_t)b[14] << 8 | b[15];
    if (zeros(b, 16))
        return "an unspecified address (::)";
    if (zeros(b, 15) && b[15] == 1)
        return policy->allow_loopback ? NULL : "a loopback address (::1)";
    /* ::ffff:a.b.c.d, ::a.b.c.d and 64:ff9b::a.b.c.d reach IPv4 address a.b.c.d. */
    if ((zeros(b, 10) && b[10] == 0xff && b[11] == 0xff) || zeros(b, 12) ||
        memcmp(b, nat64, sizeof nat64) == 0)
        return ipv4_error(v4, policy);
    if ((b[0] & 0xfe) == 0xfc)
        return "a private address (fc00::/7)";
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
        return "a link-local address (fe80::/10)";
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0)
        return "a site-local address (fec0::/10)";
    if (b[0] == 0xff)
        return "a multicast address (ff00::/8)";
    return NULL;
}

const char *webhooks_address_error(const struct sockaddr *addr, const webhook_policy *policy)
{
    if (addr->sa_family == AF_INET) {
        struct sockaddr_in in;
        memcpy(&in, addr, sizeof in);
        return ipv4_error(ntohl(in.sin_addr.s_addr), policy);
    }
    if (addr->sa_family == AF_INET6) {
        struct sockaddr_in6 in6;
        memcpy(&in6, addr, sizeof in6);
        return ipv6_error(in6.sin6_addr.s6_addr, policy);
    }
    return "not an internet address";
}

int webhooks_body(char *out, size_t cap, const char *table, int turn, int seat, int64_t deadline_ms)
{
    char deadline[24] = "null";
    if (deadline_ms >= 0)
        snprintf(deadline, sizeof deadline, "%" PRId64, deadline_ms);
    /* A table id is letters and digits: nothing to escape. */
    return snprintf(out, cap, "{\"table\":\"%s\",\"turn\":%d,\"seat\":%d,\"deadline\":%s}", table,
                    turn, seat, deadline);
}

/* --- The call, on a worker ---------------------------------------------------------------------
 */

/* libcurl's socket for each address it is about to connect to: refused
 * (no socket, so no connection) when the address is not allowed. */
static curl_socket_t open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *addr)
{
    webhook_call *call = arg;
    (void)purpose;
    const char *why = webhooks_address_error(&addr->addr, &call->policy);
    if (why) {
        char text[INET6_ADDRSTRLEN] = "?";
        const void *raw = NULL;
        struct sockaddr_in in;
        struct sockaddr_in6 in6;
        if (addr->family == AF_INET) {
            memcpy(&in, &addr->addr, sizeof in);
            raw = &in.sin_addr;
        } else if (addr->family == AF_INET6) {
            memcpy(&in6, &addr->addr, sizeof in6);
            raw = &in6.sin6_addr;
        }
        if (raw)
            inet_ntop(addr->family, raw, text, sizeof text);
        snprintf(call->refused, sizeof call->refused, "%s is %s", text, why);
        return CURL_SOCKET_BAD;
    }
    return socket(addr->family, addr->socktype, addr->protocol);
}

/* The answer's body is not wanted. */
/* NOLINTNEXTLINE(readability-non-const-parameter): libcurl's write callback type */
static size_t discard(char *data, size_t size, size_t n, void *arg)
{
    (void)data;
    (void)arg;
    return size * n;
}

static void call_run(void *arg)
{
    webhook_call *call = arg;
    CURL *c = curl_easy_init();
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    if (!c || !headers) {
        call->code = CURLE_OUT_OF_MEMORY;
        snprintf(call->error, sizeof call->error, "out of memory");
    } else {
        curl_easy_setopt(c, CURLOPT_URL, call->url);
        curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR,
                         call->policy.allow_http ? "http,https" : "https");
        curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
        curl_easy_setopt(c, CURLOPT_PROXY, ""); /* no proxy from the environment */
        curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)WEBHOOK_TIMEOUT_MS);
        curl_easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, open_socket);
        curl_easy_setopt(c, CURLOPT_OPENSOCKETDATA, call);
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(c, CURLOPT_USERAGENT, "carcassonne-server");
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, call->body);
        curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
        curl_easy_setopt(c, CURLOPT_ERRORBUFFER, call->error);
        call->code = curl_easy_perform(c);
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &call->status);
        if (call->code != CURLE_OK && !call->error[0])
            snprintf(call->error, sizeof call->error, "%s", curl_easy_strerror(call->code));
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(c);
}

static void call_free(void *arg)
{
    free(arg);
}

/* --- On the event loop -------------------------------------------------------------------------
 */

webhooks *webhooks_new(workers *pool, const webhook_policy *policy)
{
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return NULL;
    webhooks *W = calloc(1, sizeof *W);
    if (!W) {
        curl_global_cleanup();
        return NULL;
    }
    W->pool = pool;
    W->policy = *policy;
    return W;
}

void webhooks_free(webhooks *W)
{
    if (W) {
        free(W);
        curl_global_cleanup();
    }
}

/* Whether `account` may be called for `table` at `now_ms`; counts the
 * call when it may. A full list forgets its oldest call. */
static int may_call(webhooks *W, int64_t account, const char *table, int64_t now_ms)
{
    int oldest = 0;
    for (int i = 0; i < W->nsent; i++) {
        webhook_sent *e = &W->sent[i];
        if (e->account == account && strcmp(e->table, table) == 0) {
            if (now_ms - e->at_ms < WEBHOOK_EVERY_MS)
                return 0;
            e->at_ms = now_ms;
            return 1;
        }
        if (e->at_ms < W->sent[oldest].at_ms)
            oldest = i;
    }
    webhook_sent *e = W->nsent < WEBHOOK_REMEMBERED ? &W->sent[W->nsent++] : &W->sent[oldest];
    e->account = account;
    snprintf(e->table, sizeof e->table, "%s", table);
    e->at_ms = now_ms;
    return 1;
}

void webhooks_turn(webhooks *W, storage *store, const char *table, int turn, int seat,
                   int64_t account, int64_t deadline_ms, int64_t now_ms)
{
    char url[WEBHOOK_URL_MAX + 1];
    int found = storage_webhook(store, account, url, sizeof url);
    if (found < 0)
        fprintf(stderr, "carcassonne serve: %s\n", storage_error(store));
    if (found != 1 || !url[0] || !may_call(W, account, table, now_ms))
        return;
    webhook_call *call = calloc(1, sizeof *call);
    if (!call)
        return;
    call->policy = W->policy;
    memcpy(call->url, url, sizeof call->url);
    webhooks_body(call->body, sizeof call->body, table, turn, seat, deadline_ms);
    call->account = account;
    snprintf(call->table, sizeof call->table, "%s", table);
    call->turn = turn;
    /* One lane for every webhook: the players' own computer moves and
     * hints are never behind more than one call of 5 s at most. */
    if (workers_call(W->pool, WEBHOOK_JOB_BIT | ++W->next_job, "webhooks", call_run, call_free,
                     call) != 0) {
        fprintf(stderr,
                "carcassonne serve: webhook of account %" PRId64
                " (table %s, turn %d): not sent: the workers' queue is full\n",
                account, table, turn);
        free(call);
    }
}

int webhooks_owns(uint64_t job)
{
    return (job & WEBHOOK_JOB_BIT) != 0;
}

void webhooks_done(webhooks *W, void *arg)
{
    (void)W;
    const webhook_call *call = arg;
    char what[CURL_ERROR_SIZE + 64];
    if (call->refused[0])
        snprintf(what, sizeof what, "refused: %s", call->refused);
    else if (call->code != CURLE_OK)
        snprintf(what, sizeof what, "failed: %s", call->error);
    else if (call->status >= 300 && call->status < 400)
        snprintf(what, sizeof what, "answered HTTP %ld: redirects are not followed", call->status);
    else if (call->status < 200 || call->status >= 300)
        snprintf(what, sizeof what, "answered HTTP %ld", call->status);
    else
        snprintf(what, sizeof what, "delivered (HTTP %ld)", call->status);
    fprintf(stderr, "carcassonne serve: webhook of account %" PRId64 " (table %s, turn %d): %s\n",
            call->account, call->table, call->turn, what);
    call_free(arg);
}
