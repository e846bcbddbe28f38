/* admin.c: `carcassonne admin`: a self-hoster's commands on the server's
 * database: list the accounts, reset a password, disable and enable an
 * account, delete a table, back the database up. Each change is one
 * short transaction, safe while servers run on the same database: they
 * read accounts and sessions from it at every request. */
#include "admin.h"

#include <errno.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "accounts.h"
#include "args.h"
#include "glicko2.h"
#include "storage.h"

enum {
    EXIT_DONE = 0,
    EXIT_FAILED = 1,
    TEMP_PASSWORD_LEN = 16, /* 16 of 32 symbols: 80 random bits */
    TABLE_ID_CHARS = 11,    /* 't' and 10 of a-z 0-9, as tables.c makes them */
};

static const char admin_usage[] =
    "usage: carcassonne admin [--db FILE|URI] COMMAND [ARGS]\n"
    "\n"
    "A self-hoster's commands on the game server's database, safe while the\n"
    "server runs. See docs/server.md, \"Administration\".\n"
    "\n"
    "  --db FILE|URI          the server's database: an SQLite file (default\n"
    "                         carcassonne-server.db; it must exist) or\n"
    "                         postgresql://USER@HOST/DB\n"
    "\n"
    "Commands:\n"
    "  accounts               list the accounts: id, name, sign-up date (UTC), tables\n"
    "                         seated at, active or disabled, ratings by category\n"
    "  reset-password NAME    give the account a random temporary password, printed\n"
    "                         once; every session of the account ends\n"
    "  disable NAME           disable the account: its sessions end at once and a\n"
    "                         login is answered 403 account_disabled\n"
    "  enable NAME            let a disabled account log in again\n"
    "  delete-table ID [--force]\n"
    "                         delete a table with its seats, moves, chat and review;\n"
    "                         a waiting or playing table only with --force (stop the\n"
    "                         server first: a running one keeps it in memory)\n"
    "  backup FILE            copy an SQLite database into the new FILE with SQLite's\n"
    "                         online backup (a consistent snapshot while the server\n"
    "                         runs); for PostgreSQL it says how to use pg_dump\n"
    "  --help                 this text\n"
    "\n"
    "Exit status: 0 done, 1 failed (nothing changed), 2 bad arguments.\n";

/* A command: its name, the arguments it takes (besides options), what
 * the usage error says when one is missing, the check of the argument
 * before the database is opened (a usage error, or for `backup` a
 * failure, said on stderr; NULL: none), and its handler, which gets the
 * open database and those arguments. */
typedef struct admin_command {
    const char *name;
    int nargs;
    const char *missing;
    int (*check)(const char *arg);
    int (*run)(storage *s, char **args, int force);
} admin_command;

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int failed(storage *s)
{
    fprintf(stderr, "carcassonne admin: %s\n", storage_error(s));
    return EXIT_FAILED;
}

/* Commits the command's writes; its exit status. */
static int commit(storage *s)
{
    return storage_commit(s) == 0 ? EXIT_DONE : failed(s);
}

/* --- The arguments, checked before the database is opened -------------------------------- */

static int check_name(const char *name)
{
    if (!accounts_name_ok(name))
        return cli_usage_error("admin", "'%s' is not a user name (3 to 20 of A-Z a-z 0-9 _ -)",
                               name);
    return EXIT_DONE;
}

static int check_table_id(const char *id)
{
    if (strlen(id) != TABLE_ID_CHARS || id[0] != 't' ||
        strspn(id + 1, "abcdefghijklmnopqrstuvwxyz0123456789") != TABLE_ID_CHARS - 1)
        return cli_usage_error("admin", "'%s' is not a table id ('t' and 10 of a-z 0-9)", id);
    return EXIT_DONE;
}

/* The file `backup` writes must be new, in a folder that exists:
 * refused (exit 1, nothing done) before the database is opened. */
static int check_backup_file(const char *path)
{
    if (!*path)
        return cli_usage_error("admin", "%s", "backup needs the file to write");
    struct stat st;
    const char *why = NULL;
    if (lstat(path, &st) == 0)
        why = "exists already (not overwritten)";
    else if (errno != ENOENT)
        why = strerror(errno);
    else {
        char folder[4096];
        const char *slash = strrchr(path, '/');
        size_t len = slash ? (size_t)(slash - path) + 1 : 0;
        if (len < sizeof folder) {
            memcpy(folder, path, len);
            folder[len] = '\0';
            if (len && (stat(folder, &st) != 0 || !S_ISDIR(st.st_mode)))
                why = "no such folder";
        }
    }
    if (why) {
        fprintf(stderr, "carcassonne admin: backup failed: %s: %s\n", path, why);
        return EXIT_FAILED;
    }
    return EXIT_DONE;
}

/* --- Accounts by name ---------------------------------------------------------------------- */

/* The account named `name` (any case, checked by check_name()): EXIT_DONE
 * with it in `out`, else the exit status, said on stderr. */
static int find_account(storage *s, const char *name, stored_account *out)
{
    char key[ACC_NAME_MAX + 1];
    accounts_name_key(name, key);
    int found = storage_find_account(s, key, out);
    if (found < 0)
        return failed(s);
    if (found == 0) {
        fprintf(stderr, "carcassonne admin: no account named '%s'\n", name);
        return EXIT_FAILED;
    }
    return EXIT_DONE;
}

/* --- accounts ------------------------------------------------------------------------------ */

/* An account's ratings as "duel 1662/290 multi 1500/350", or "-". */
static void ratings_text(storage *s, int64_t id, char *out, size_t cap)
{
    stored_rating r[GLICKO2_CATEGORIES];
    int n = storage_ratings(s, id, r, GLICKO2_CATEGORIES);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n && len < cap; i++) {
        const char *name = glicko2_category_name((glicko2_category)r[i].category);
        len += (size_t)snprintf(out + len, cap - len, "%s%s %.0f/%.0f", i ? " " : "",
                                name ? name : "?", r[i].rating, r[i].rd);
    }
    if (n <= 0)
        snprintf(out, cap, "-");
}

static int print_account(void *ctx, const stored_account *a, int tables)
{
    storage *s = ctx;
    char created[32] = "?", ratings[160];
    time_t at = (time_t)(a->created_ms / 1000);
    struct tm tm;
    if (gmtime_r(&at, &tm))
        strftime(created, sizeof created, "%Y-%m-%d %H:%M", &tm);
    ratings_text(s, a->id, ratings, sizeof ratings);
    printf("%-6lld %-20s %-16s %6d  %-8s %s\n", (long long)a->id, a->name, created, tables,
           a->disabled ? "disabled" : "active", ratings);
    return 0;
}

static int run_accounts(storage *s, char **args, int force)
{
    (void)args;
    (void)force;
    printf("%-6s %-20s %-16s %6s  %-8s %s\n", "ID", "NAME", "CREATED (UTC)", "TABLES", "STATE",
           "RATINGS (rating/RD)");
    return storage_list_accounts(s, print_account, s) == 0 ? EXIT_DONE : failed(s);
}

/* --- reset-password, disable, enable ------------------------------------------------------- */

/* A random password of TEMP_PASSWORD_LEN symbols (libsodium's random
 * numbers), without the look-alikes 0 O 1 l I. */
static void temporary_password(char out[TEMP_PASSWORD_LEN + 1])
{
    static const char symbols[] = "abcdefghijkmnpqrstuvwxyz23456789";
    for (int i = 0; i < TEMP_PASSWORD_LEN; i++)
        out[i] = symbols[randombytes_uniform((uint32_t)(sizeof symbols - 1))];
    out[TEMP_PASSWORD_LEN] = '\0';
}

static int run_reset_password(storage *s, char **args, int force)
{
    (void)force;
    stored_account a;
    int status = find_account(s, args[0], &a);
    if (status != EXIT_DONE)
        return status;
    char password[TEMP_PASSWORD_LEN + 1], hash[ACC_HASH_BYTES];
    temporary_password(password);
    /* At the server's default limits: a server run at others stores it
     * again at its own at the first login. */
    if (accounts_hash(ACC_COST_MODERATE, password, TEMP_PASSWORD_LEN, hash) != 0) {
        sodium_memzero(password, sizeof password);
        fprintf(stderr, "carcassonne admin: out of memory for the password's hash\n");
        return EXIT_FAILED;
    }
    status = storage_set_password(s, a.id, hash) != 0 ||
                     storage_delete_sessions(s, a.id, NULL, now_ms()) != 0
                 ? failed(s)
                 : commit(s);
    if (status != EXIT_DONE) {
        sodium_memzero(password, sizeof password);
        return status;
    }
    printf("temporary password of %s: %s\n", a.name, password);
    printf("every session of %s has ended; they log in with it and choose a new one\n", a.name);
    sodium_memzero(password, sizeof password);
    return EXIT_DONE;
}

/* disable (`disabled` 1) or enable (0) the account named args[0]. */
static int set_disabled(storage *s, char **args, int disabled)
{
    stored_account a;
    int status = find_account(s, args[0], &a);
    if (status != EXIT_DONE)
        return status;
    status = storage_set_disabled(s, a.id, disabled) != 0 ? failed(s) : commit(s);
    if (status != EXIT_DONE)
        return status;
    printf(disabled ? "%s is disabled: its sessions have ended and it cannot log in\n"
                    : "%s is enabled: it can log in again\n",
           a.name);
    return EXIT_DONE;
}

static int run_disable(storage *s, char **args, int force)
{
    (void)force;
    return set_disabled(s, args, 1);
}

static int run_enable(storage *s, char **args, int force)
{
    (void)force;
    return set_disabled(s, args, 0);
}

/* --- delete-table, backup ------------------------------------------------------------------ */

static int run_delete_table(storage *s, char **args, int force)
{
    static stored_table t; /* large: not on the stack */
    int found = storage_load_table(s, args[0], &t);
    if (found < 0)
        return failed(s);
    if (found == 0) {
        fprintf(stderr, "carcassonne admin: no table '%s'\n", args[0]);
        return EXIT_FAILED;
    }
    int live = t.status == TABLE_WAITING || t.status == TABLE_PLAYING;
    if (live && !force) {
        fprintf(stderr,
                "carcassonne admin: table %s is %s: a running server holds it in memory and "
                "goes on storing it; stop the server and use --force\n",
                t.id, t.status == TABLE_WAITING ? "waiting for players" : "being played");
        return EXIT_FAILED;
    }
    int status = storage_delete_table(s, t.id) != 0 ? failed(s) : commit(s);
    if (status != EXIT_DONE)
        return status;
    printf("table %s deleted (%d moves)\n", t.id, t.nmoves);
    return EXIT_DONE;
}

static int run_backup(storage *s, char **args, int force)
{
    (void)force;
    char err[300];
    if (storage_backup(s, args[0], err, sizeof err) != 0) {
        fprintf(stderr, "carcassonne admin: backup failed: %s\n", err);
        return EXIT_FAILED;
    }
    printf("backed up to %s\n", args[0]);
    return EXIT_DONE;
}

static const admin_command commands[] = {
    {"accounts", 0, NULL, NULL, run_accounts},
    {"reset-password", 1, "reset-password needs the account's name", check_name,
     run_reset_password},
    {"disable", 1, "disable needs the account's name", check_name, run_disable},
    {"enable", 1, "enable needs the account's name", check_name, run_enable},
    {"delete-table", 1, "delete-table needs the table's id", check_table_id, run_delete_table},
    {"backup", 1, "backup needs the file to write", check_backup_file, run_backup},
};

/* --- The command line ---------------------------------------------------------------------- */

/* With PostgreSQL, `backup` is pg_dump's: the advice, and nothing done. */
static int postgres_backup_advice(const char *db)
{
    printf("carcassonne admin: a PostgreSQL database is backed up with pg_dump while the "
           "servers run:\n"
           "  pg_dump -Fc -f carcassonne-$(date +%%F).dump '%s'\n"
           "and restored with pg_restore into an empty database with the servers stopped "
           "(docs/server.md, \"Back up and restore\")\n",
           db);
    return EXIT_FAILED;
}

int cmd_admin(int argc, char **argv)
{
    const char *db = "carcassonne-server.db";
    char *args[2] = {NULL, NULL};
    const admin_command *cmd = NULL;
    int nargs = 0, force = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(admin_usage, stdout);
            return EXIT_DONE;
        }
        if (strcmp(argv[i], "--db") == 0) {
            if (++i == argc || !*argv[i])
                return cli_usage_error("admin", "%s", "--db needs a file or a URI");
            db = argv[i];
        } else if (strcmp(argv[i], "--force") == 0) {
            force = 1;
        } else if (argv[i][0] == '-') {
            return cli_usage_error("admin", "unknown option '%s'", argv[i]);
        } else if (!cmd) {
            for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++)
                if (strcmp(argv[i], commands[c].name) == 0)
                    cmd = &commands[c];
            if (!cmd)
                return cli_usage_error("admin", "unknown command '%s'", argv[i]);
        } else if (nargs < cmd->nargs) {
            args[nargs++] = argv[i];
        } else {
            return cli_usage_error("admin", "%s takes %s, not '%s'", cmd->name,
                                   cmd->nargs ? "one argument" : "no argument", argv[i]);
        }
    }
    if (!cmd)
        return cli_usage_error("admin", "%s",
                               "no command (accounts, reset-password, disable, "
                               "enable, delete-table or backup)");
    if (nargs < cmd->nargs)
        return cli_usage_error("admin", "%s", cmd->missing);
    if (force && cmd->run != run_delete_table)
        return cli_usage_error("admin", "%s", "--force goes with delete-table only");
    if (cmd->run == run_backup && storage_is_postgres(db))
        return postgres_backup_advice(db);
    /* Every argument checked before the database is opened (opening it
     * may write: SQLite's -wal and -shm files, a schema upgrade). */
    int status = cmd->check ? cmd->check(args[0]) : EXIT_DONE;
    if (status != EXIT_DONE)
        return status;
    /* An SQLite file that is not there is a mistake, not a new database. */
    if (!storage_is_postgres(db) && access(db, R_OK | W_OK) != 0) {
        fprintf(stderr, "carcassonne admin: %s: no such database (or not readable and writable)\n",
                db);
        return EXIT_FAILED;
    }
    if (accounts_init() != 0) {
        fprintf(stderr, "carcassonne admin: libsodium did not start\n");
        return EXIT_FAILED;
    }
    char err[300];
    storage *s = storage_open(db, err, sizeof err);
    if (!s) {
        fprintf(stderr, "carcassonne admin: %s\n", err);
        return EXIT_FAILED;
    }
    status = cmd->run(s, args, force);
    storage_close(s);
    return status;
}
