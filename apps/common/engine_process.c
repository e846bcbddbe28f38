/* engine_process.c: outside engines on pipes (see engine_process.h). */
#include "engine_process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Pipes and forks are made under one lock, so that no child started by
 * another thread inherits this engine's pipe ends before they are marked
 * close-on-exec. */
static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;

/* The process groups of the engines not yet reaped (0: a free slot), for
 * engine_process_kill_all() in a signal handler. A group leaves before its
 * leader is reaped, so that no group id here can belong to another. Once
 * `stopping` is set no engine starts; `spawning` counts the threads between
 * that check and the registration of the group they fork. */
enum { MAX_LIVE = 256 };
static atomic_int live_groups[MAX_LIVE];
static atomic_int stopping, spawning;

static void register_group(pid_t pgid)
{
    for (int i = 0; i < MAX_LIVE; i++) {
        int free_slot = 0;
        if (atomic_compare_exchange_strong(&live_groups[i], &free_slot, (int)pgid))
            return;
    }
}

static void unregister_group(pid_t pgid)
{
    for (int i = 0; i < MAX_LIVE; i++) {
        int mine = (int)pgid;
        if (atomic_compare_exchange_strong(&live_groups[i], &mine, 0))
            return;
    }
}

void engine_process_kill_all(void)
{
    atomic_store(&stopping, 1);
    for (int i = 0; i < 1000 && atomic_load(&spawning) > 0; i++)
        nanosleep(&(struct timespec){0, 1000000L}, NULL);
    for (int i = 0; i < MAX_LIVE; i++) {
        int pgid = atomic_load(&live_groups[i]);
        if (pgid > 0)
            kill(-(pid_t)pgid, SIGKILL);
    }
}

static int cloexec_pipe(int fds[2])
{
    if (pipe(fds) < 0)
        return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

/* In the child: only async-signal-safe calls until exec. */
static void exec_child(const char *command, int in_fd, int out_fd, const sigset_t *mask)
{
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL); /* the arena ignores it; the engine need not */
    sigprocmask(SIG_SETMASK, mask, NULL);
    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0)
        _exit(127);
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
}

/* Forks the engine (-1 with errno when that fails, ECANCELED once the
 * controller is stopping) and registers its process group. No signal
 * handler runs in this thread meanwhile, and one in another thread waits
 * for the registration (engine_process_kill_all). */
static pid_t spawn(const char *command, int in_fd, int out_fd)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    atomic_fetch_add(&spawning, 1);
    pid_t pid = -1;
    int saved = ECANCELED;
    if (!atomic_load(&stopping)) {
        pid = fork();
        saved = errno;
    }
    if (pid == 0)
        exec_child(command, in_fd, out_fd, &old);
    if (pid > 0) {
        setpgid(pid, pid); /* as the child does: whichever runs first */
        register_group(pid);
    }
    atomic_fetch_sub(&spawning, 1);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return pid;
}

engine_process *engine_process_start(const char *command, char *err, size_t errcap)
{
    engine_process *e = malloc(sizeof *e);
    if (!e) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    int to_child[2], from_child[2];
    pthread_mutex_lock(&spawn_lock);
    int ok = cloexec_pipe(to_child) == 0;
    if (ok && cloexec_pipe(from_child) < 0) {
        close(to_child[0]);
        close(to_child[1]);
        ok = 0;
    }
    pid_t pid = ok ? spawn(command, to_child[0], from_child[1]) : -1;
    pthread_mutex_unlock(&spawn_lock);
    if (ok) {
        close(to_child[0]);
        close(from_child[1]);
    }
    if (pid < 0) {
        snprintf(err, errcap, "cannot start '%s': %s", command, strerror(errno));
        if (ok) {
            close(to_child[1]);
            close(from_child[0]);
        }
        free(e);
        return NULL;
    }
    e->pid = pid;
    e->ended = 0;
    e->status = 0;
    e->to_fd = to_child[1];
    /* Writes never block: an engine that does not read cannot hang us. */
    fcntl(e->to_fd, F_SETFL, fcntl(e->to_fd, F_GETFL) | O_NONBLOCK);
    proto_reader_init(&e->from, from_child[0]);
    return e;
}

/* --- The engine's process ------------------------------------------------------------- */

enum { EXIT_CHECK_MS = 50, EXIT_GRACE_MS = 2000, QUIT_GRACE_MS = 500 };

/* 1 when the engine's leader has exited and waits to be reaped (its id,
 * and so its process group's, cannot be taken by another process yet), 0
 * while it runs, -1 when it cannot be waited for. */
static int leader_exited(pid_t pid)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0)
        if (errno != EINTR)
            return -1;
    return info.si_pid == pid;
}

/* Kills the whole process group of an exited leader, children included,
 * then reaps the leader. */
static void end_group(engine_process *e)
{
    kill(-e->pid, SIGKILL);
    unregister_group(e->pid);
    while (waitpid(e->pid, &e->status, 0) < 0 && errno == EINTR)
        ;
    e->ended = 1;
}

int engine_process_ended(engine_process *e)
{
    if (e->ended)
        return 1;
    int exited = leader_exited(e->pid);
    if (exited > 0)
        end_group(e);
    else if (exited < 0) {
        unregister_group(e->pid);
        e->ended = 1; /* not ours to wait for: nothing left to kill */
    }
    return e->ended;
}

/* Waits at most `ms` for the engine to end; whether it has. */
static int ended_within(engine_process *e, int ms)
{
    for (int waited = 0; !engine_process_ended(e); waited += 10) {
        if (waited >= ms)
            return 0;
        struct timespec tick = {0, 10000000L};
        nanosleep(&tick, NULL);
    }
    return 1;
}

/* Why an engine is gone: how it ended, or else `otherwise`. */
static void gone_reason(engine_process *e, const char *otherwise, char *err, size_t errcap)
{
    if (!ended_within(e, EXIT_GRACE_MS))
        snprintf(err, errcap, "%s", otherwise);
    else if (WIFSIGNALED(e->status))
        snprintf(err, errcap, "the engine was killed by signal %d", WTERMSIG(e->status));
    else
        snprintf(err, errcap, "the engine exited (status %d)",
                 WIFEXITED(e->status) ? WEXITSTATUS(e->status) : -1);
}

/* --- Requests --------------------------------------------------------------------------- */

/* Reads the reply line within `timeout_ms` (< 0: no limit), looking every
 * EXIT_CHECK_MS whether the engine has exited: a child that holds its
 * output open would otherwise keep the pipe from ending. */
static int read_reply(engine_process *e, int timeout_ms, size_t *len)
{
    double deadline = timeout_ms < 0 ? 1e300 : proto_now_ms() + timeout_ms;
    for (;;) {
        double left = deadline - proto_now_ms();
        int slice = e->ended                ? 0
                    : left >= EXIT_CHECK_MS ? EXIT_CHECK_MS
                    : left > 0              ? (int)left + 1
                                            : 0;
        int got = proto_read_line(&e->from, slice, e->line, len);
        if (got != PROTO_TIMEOUT)
            return got;
        if (e->ended)
            return PROTO_EOF; /* what it wrote before it ended has been read */
        if (!engine_process_ended(e) && proto_now_ms() >= deadline)
            return PROTO_TIMEOUT;
    }
}

json_t *engine_process_request(engine_process *e, json_t *request, int timeout_ms, char *err,
                               size_t errcap)
{
    char name[24];
    snprintf(name, sizeof name, "%s", json_string_value(json_object_get(request, "type")));
    if (proto_send(e->to_fd, request) < 0) {
        gone_reason(e, "the engine does not take input any more", err, errcap);
        return NULL;
    }
    size_t len = 0;
    int got = read_reply(e, timeout_ms, &len);
    if (got == PROTO_TIMEOUT) {
        snprintf(err, errcap, "no reply to '%s' within %d ms", name, timeout_ms);
        return NULL;
    }
    if (got == PROTO_EOF || got == PROTO_IO_ERROR) {
        gone_reason(e, "the engine closed its output", err, errcap);
        return NULL;
    }
    if (got == PROTO_TOO_LONG) {
        snprintf(err, errcap, "a reply to '%s' longer than %d bytes", name, PROTO_MAX_LINE);
        return NULL;
    }
    json_error_t jerr;
    json_t *reply = json_loadb(e->line, len, JSON_REJECT_DUPLICATES, &jerr);
    const char *type = json_string_value(json_object_get(reply, "type"));
    if (!reply || !json_is_object(reply) || !type) {
        snprintf(err, errcap, "a reply to '%s' that is not a JSON object with a type%s%s: '%.60s'",
                 name, reply ? "" : ": ", reply ? "" : jerr.text, e->line);
        json_decref(reply);
        return NULL;
    }
    if (strcmp(type, "error") == 0) {
        const char *message = json_string_value(json_object_get(reply, "message"));
        snprintf(err, errcap, "the engine replied to '%s' with an error: %.200s", name,
                 message ? message : "(no message)");
        json_decref(reply);
        return NULL;
    }
    if (proto_reader_pending(&e->from)) {
        size_t extra = e->from.len < 60 ? e->from.len : 60;
        const char *nl = memchr(e->from.buf, '\n', extra);
        extra = nl ? (size_t)(nl - e->from.buf) : extra;
        snprintf(err, errcap, "more than one line in reply to '%s': '%.*s' came after '%.60s'",
                 name, (int)extra, e->from.buf, e->line);
        json_decref(reply);
        return NULL;
    }
    return reply;
}

json_t *engine_process_ask(engine_process *e, json_t *request, const char *type, int timeout_ms,
                           char *err, size_t errcap)
{
    char name[24];
    snprintf(name, sizeof name, "%s", json_string_value(json_object_get(request, "type")));
    json_t *reply = engine_process_request(e, request, timeout_ms, err, errcap);
    const char *got = json_string_value(json_object_get(reply, "type"));
    if (reply && strcmp(got, type) != 0) {
        snprintf(err, errcap, "a reply to '%s' of type '%.40s', not '%s': '%.60s'", name, got, type,
                 e->line);
        json_decref(reply);
        return NULL;
    }
    return reply;
}

/* After 'quit': reads and drops what the engine still writes (its 'bye',
 * which a bot may then write without a broken pipe) until it ends or `ms`
 * have passed. */
static void drain_until_ended(engine_process *e, int ms)
{
    double deadline = proto_now_ms() + ms;
    int open = 1;
    while (!engine_process_ended(e) && proto_now_ms() < deadline) {
        struct pollfd p = {e->from.fd, POLLIN, 0};
        char junk[4096];
        if (open && poll(&p, 1, 10) > 0)
            open = read(e->from.fd, junk, sizeof junk) != 0;
        else if (!open)
            nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
}

void engine_process_close(engine_process *e)
{
    if (!e)
        return;
    proto_send(e->to_fd, json_pack("{s:s}", "type", "quit"));
    close(e->to_fd);
    drain_until_ended(e, QUIT_GRACE_MS);
    close(e->from.fd); /* an engine still writing gets SIGPIPE */
    if (!e->ended)
        end_group(e); /* the leader has not been reaped: the group is still its */
    free(e);
}
