/* serve.c: `carcassonne serve`: its options, then the server. */
#include "serve.h"

#include <errno.h>
#include <limits.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "net.h"
#include "relay.h"
#include "storage.h"

static const char serve_usage[] =
    "usage: carcassonne serve [OPTIONS]\n"
    "\n"
    "Runs the game server: HTTP and WebSocket (protocol carcassonne.v1 at /ws,\n"
    "docs/server-protocol.md) on one port. Prints 'listening on http://HOST:PORT'\n"
    "when ready; SIGTERM or SIGINT stop it cleanly. See docs/server.md.\n"
    "\n"
    "  --host ADDR              address to listen on (default 127.0.0.1; 0.0.0.0: all)\n"
    "  --port N                 port (default 8080; 0: a free port, printed)\n"
    "  --db FILE|URI            SQLite database (default carcassonne-server.db in the\n"
    "                           working folder; created when missing), or a PostgreSQL\n"
    "                           one: postgresql://USER@HOST/DB (libpq's URI)\n"
    "  --relay URI              with PostgreSQL: the events between server processes\n"
    "                           over Redis pub/sub, redis://HOST[:PORT] (default:\n"
    "                           PostgreSQL's LISTEN/NOTIFY; docs/scale.md)\n"
    "  --static DIR             static files served at / (default: the web/ folder of\n"
    "                           the source tree, else web/ next to the program, else\n"
    "                           ../share/carcassonne/web from it, where it installs)\n"
    "  --puzzles FILE           the puzzle set served at /api/puzzles (default: the\n"
    "                           source tree's docs/puzzles/set.json, else\n"
    "                           ../share/carcassonne/puzzles.json from the program;\n"
    "                           docs/puzzles.md)\n"
    "  --workers N              threads for computer moves, hints and reviews (default 2)\n"
    "  --max-think-ms MS        time cap of a computer move (default 3000)\n"
    "  --hint-ms MS             search time of a hint or win estimate, at most\n"
    "                           --max-think-ms (default 1000, or --max-think-ms\n"
    "                           when that is less)\n"
    "  --max-tables N           waiting and playing tables in all (default 10000)\n"
    "  --max-conns-per-ip N     WebSocket connections from one address (default 64)\n"
    "  --max-tables-per-ip N    open tables created from one address (default 32)\n"
    "  --max-computer-tables-per-ip N\n"
    "                           of those, tables with computer seats only (default 4)\n"
    "  --ping-ms MS             ping a connection quiet this long (default 30000)\n"
    "  --idle-close-ms MS       close a connection quiet this long, pongs counting as\n"
    "                           an answer (default 75000; more than --ping-ms)\n"
    "  --password-cost LEVEL    the argon2id limits of the password hashes made:\n"
    "                           interactive (64 MiB, about 0.15 s), moderate (256\n"
    "                           MiB, about 0.8 s; the default) or sensitive (1 GiB,\n"
    "                           about 5 s); a login whose stored hash is at other\n"
    "                           limits stores it again at these\n"
    "  --tls-cert FILE          serve HTTPS and WSS with this certificate (PEM) ...\n"
    "  --tls-key FILE           ... and this private key (PEM); both or neither,\n"
    "                           checked at start (readable, PEM, the key the\n"
    "                           certificate's)\n"
    "  --trusted-proxy ADDR[/BITS]\n"
    "                           a balancer (HAProxy's send-proxy-v2) whose connections\n"
    "                           begin with a PROXY protocol v2 header carrying the\n"
    "                           client's address; repeatable, IPv4 or IPv6. Its\n"
    "                           connections without one are refused, and so are\n"
    "                           everyone else's with one\n"
    "  --allow-http-webhooks    for tests only: accept http:// webhook URLs too\n"
    "  --allow-webhook-loopback for tests only: let webhooks reach 127.0.0.0/8 and ::1\n"
    "                           (private and link-local addresses stay refused)\n"
    "  --help                   this text\n"
    "\n"
    "Exit status: 0 after a clean stop, 1 on failure, 2 on bad arguments.\n";

/* A whole decimal number in lo..hi; 0 on success. */
static int parse_int(const char *s, long lo, long hi, int *out)
{
    if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9)
        return -1;
    long v = strtol(s, NULL, 10);
    if (v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The folder of the running program into `out`; 0, or -1 when unknown. */
static int program_dir(char *out, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", out, cap - 1);
    if (n <= 0)
        return -1;
    out[n] = '\0';
    char *slash = strrchr(out, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    return 0;
}

/* The default static folder: the build folder's bundled client, else the
 * source tree's web/ (both known at build time), else web/ beside the
 * program, else the installed ../share/carcassonne/web (`cmake
 * --install`); NULL when none exists. */
static const char *default_static(char *buf, size_t cap)
{
#ifdef CARC_BUILT_WEB_DIR
    if (is_dir(CARC_BUILT_WEB_DIR))
        return CARC_BUILT_WEB_DIR;
#endif
#ifdef CARC_SOURCE_WEB_DIR
    if (is_dir(CARC_SOURCE_WEB_DIR))
        return CARC_SOURCE_WEB_DIR;
#endif
    char exe[PATH_MAX];
    if (program_dir(exe, sizeof exe) != 0)
        return NULL;
    static const char *const beside[] = {"/web", "/../share/carcassonne/web"};
    for (size_t i = 0; i < sizeof beside / sizeof beside[0]; i++)
        if ((size_t)snprintf(buf, cap, "%s%s", exe, beside[i]) < cap && is_dir(buf))
            return buf;
    return NULL;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The default puzzle set: the source tree's docs/puzzles/set.json, else
 * the installed ../share/carcassonne/puzzles.json; NULL when none. */
static const char *default_puzzles(char *buf, size_t cap)
{
#ifdef CARC_SOURCE_PUZZLES
    if (is_file(CARC_SOURCE_PUZZLES))
        return CARC_SOURCE_PUZZLES;
#endif
    char exe[PATH_MAX];
    if (program_dir(exe, sizeof exe) != 0)
        return NULL;
    if ((size_t)snprintf(buf, cap, "%s/../share/carcassonne/puzzles.json", exe) < cap &&
        is_file(buf))
        return buf;
    return NULL;
}

/* Why the file `path` cannot be read as a certificate or key: NULL when
 * it is a readable regular file (opened into `*f`), else the reason. */
static const char *open_regular(const char *path, FILE **f)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno == ENOENT ? "no such file" : strerror(errno);
    if (!S_ISREG(st.st_mode))
        return S_ISDIR(st.st_mode) ? "a folder, not a file" : "not a regular file";
    if (!(*f = fopen(path, "r")))
        return strerror(errno);
    return NULL;
}

/* The passphrase the PEM readers are given (no callback: OpenSSL then
 * takes it as the phrase): none, so that a key protected by one is
 * refused (the server could not ask for it), not prompted for. */
static char no_passphrase[] = "";

/* --tls-cert and --tls-key before the server starts (which would only
 * say that libwebsockets failed): each a readable regular file, a PEM
 * certificate and a PEM private key without a passphrase, the key the
 * certificate's. A usage error naming the file and why, else 0. */
static int check_tls_files(const char *cert_path, const char *key_path)
{
    FILE *f = NULL;
    const char *why = open_regular(cert_path, &f);
    if (why)
        return cli_usage_error("serve", "--tls-cert %s: %s", cert_path, why);
    X509 *cert = PEM_read_X509(f, NULL, NULL, no_passphrase);
    fclose(f);
    if (!cert) {
        ERR_clear_error();
        return cli_usage_error("serve", "--tls-cert %s: not a PEM certificate", cert_path);
    }
    f = NULL;
    why = open_regular(key_path, &f);
    EVP_PKEY *key = why ? NULL : PEM_read_PrivateKey(f, NULL, NULL, no_passphrase);
    if (f)
        fclose(f);
    if (!why && !key)
        why = "not a PEM private key (or one protected by a passphrase)";
    else if (!why && X509_check_private_key(cert, key) != 1)
        why = "not the private key of the certificate of --tls-cert";
    EVP_PKEY_free(key);
    X509_free(cert);
    ERR_clear_error();
    return why ? cli_usage_error("serve", "--tls-key %s: %s", key_path, why) : 0;
}

typedef struct int_option {
    const char *name;
    long lo, hi;
    int *value;
} int_option;

/* Reads the arguments into `o`; returns -1 when done, else an exit status. */
static int parse_args(int argc, char **argv, server_options *o)
{
    const int_option ints[] = {
        {"--port", 0, 65535, &o->port},
        {"--workers", 1, 64, &o->workers},
        {"--max-think-ms", 10, 600000, &o->max_think_ms},
        {"--hint-ms", 10, 600000, &o->hint_ms},
        {"--max-tables", 1, 1000000, &o->max_tables},
        {"--max-conns-per-ip", 1, 1000000, &o->max_conns_per_ip},
        {"--max-tables-per-ip", 1, 1000000, &o->max_tables_per_ip},
        {"--max-computer-tables-per-ip", 0, 1000000, &o->max_computer_tables_per_ip},
        {"--ping-ms", 100, 3600000, &o->ping_ms},
        {"--idle-close-ms", 200, 7200000, &o->idle_close_ms},
    };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(serve_usage, stdout);
            return 0;
        }
        const char **text = strcmp(a, "--host") == 0       ? &o->host
                            : strcmp(a, "--db") == 0       ? &o->db
                            : strcmp(a, "--relay") == 0    ? &o->relay
                            : strcmp(a, "--static") == 0   ? &o->static_dir
                            : strcmp(a, "--puzzles") == 0  ? &o->puzzles
                            : strcmp(a, "--tls-cert") == 0 ? &o->tls_cert
                            : strcmp(a, "--tls-key") == 0  ? &o->tls_key
                                                           : NULL;
        int *flag = strcmp(a, "--allow-http-webhooks") == 0      ? &o->webhooks.allow_http
                    : strcmp(a, "--allow-webhook-loopback") == 0 ? &o->webhooks.allow_loopback
                                                                 : NULL;
        if (flag) {
            *flag = 1;
            continue;
        }
        if (strcmp(a, "--password-cost") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error("serve", "%s needs a value", a);
            if (accounts_cost_parse(argv[++i], &o->password_cost) != 0)
                return cli_usage_error("serve",
                                       "--password-cost must be interactive, moderate or "
                                       "sensitive, not '%s'",
                                       argv[i]);
            continue;
        }
        if (strcmp(a, "--trusted-proxy") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error("serve", "%s needs a value", a);
            if (o->ntrusted == PROXY_NETS_MAX)
                return cli_usage_error("serve", "at most %d --trusted-proxy", PROXY_NETS_MAX);
            if (proxy_net_parse(argv[++i], &o->trusted[o->ntrusted]) != 0)
                return cli_usage_error("serve", "--trusted-proxy %s: not ADDR or ADDR/BITS",
                                       argv[i]);
            o->ntrusted++;
            continue;
        }
        const int_option *num = NULL;
        for (size_t k = 0; !text && k < sizeof ints / sizeof ints[0]; k++)
            if (strcmp(a, ints[k].name) == 0)
                num = &ints[k];
        if (!text && !num)
            return cli_usage_error("serve", "unknown option '%s'", a);
        if (i + 1 >= argc)
            return cli_usage_error("serve", "%s needs a value", a);
        const char *value = argv[++i];
        if (text) {
            if (!*value)
                return cli_usage_error("serve", "%s needs a value", a);
            *text = value;
        } else if (parse_int(value, num->lo, num->hi, num->value)) {
            return cli_usage_error("serve", "%s must be a whole number from %ld to %ld, not '%s'",
                                   num->name, num->lo, num->hi, value);
        }
    }
    return -1;
}

int cmd_serve(int argc, char **argv)
{
    server_options o = {
        .host = "127.0.0.1",
        .port = 8080,
        .db = "carcassonne-server.db",
        .workers = 2,
        .max_think_ms = 3000,
        .hint_ms = 0, /* not given: 1000, or max_think_ms when less */
        .max_tables = 10000,
        .max_conns_per_ip = 64,
        .max_tables_per_ip = 32,
        .max_computer_tables_per_ip = 4,
        .ping_ms = 30000,
        .idle_close_ms = 75000,
        .password_cost = ACC_COST_MODERATE,
    };
    int status = parse_args(argc, argv, &o);
    if (status >= 0)
        return status;
    if (!o.tls_cert != !o.tls_key)
        return cli_usage_error("serve", "%s", "--tls-cert and --tls-key go together");
    if (o.hint_ms > o.max_think_ms)
        return cli_usage_error("serve", "--hint-ms (%d) must be at most --max-think-ms (%d)",
                               o.hint_ms, o.max_think_ms);
    if (!o.hint_ms)
        o.hint_ms = o.max_think_ms < 1000 ? o.max_think_ms : 1000;
    if (o.idle_close_ms <= o.ping_ms)
        return cli_usage_error("serve", "%s", "--idle-close-ms must be more than --ping-ms");
    if (o.relay && !relay_is_redis(o.relay))
        return cli_usage_error("serve", "--relay %s: not a redis://HOST[:PORT] URI", o.relay);
    if (o.relay && !storage_is_postgres(o.db))
        return cli_usage_error("serve", "%s", "--relay needs a PostgreSQL --db");
    if (o.static_dir && !is_dir(o.static_dir))
        return cli_usage_error("serve", "--static %s: no such folder", o.static_dir);
    if (o.tls_cert && (status = check_tls_files(o.tls_cert, o.tls_key)) != 0)
        return status;
    char found[PATH_MAX];
    if (!o.static_dir)
        o.static_dir = default_static(found, sizeof found);
    if (o.puzzles && !is_file(o.puzzles))
        return cli_usage_error("serve", "--puzzles %s: no such file", o.puzzles);
    char puzzles[PATH_MAX];
    if (!o.puzzles)
        o.puzzles = default_puzzles(puzzles, sizeof puzzles);
    while ((status = server_run(&o)) == SERVER_RESTART) {
        fprintf(stderr, "carcassonne serve: the database was lost: starting over\n");
        o.wait_for_db = 1;
    }
    return status;
}
