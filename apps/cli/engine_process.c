/* engine_process.c: outside engines on pipes (see engine_process.h). */
#include "engine_process.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
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

static int cloexec_pipe(int fds[2])
{
    if (pipe(fds) < 0)
        return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

/* In the child: only async-signal-safe calls until exec. */
static void exec_child(const char *command, int in_fd, int out_fd)
{
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL); /* the arena ignores it; the engine need not */
    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0)
        _exit(127);
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
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
    pid_t pid = ok ? fork() : -1;
    if (pid == 0)
        exec_child(command, to_child[0], from_child[1]);
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
    setpgid(pid, pid); /* as the child does: whichever runs first */
    e->pid = pid;
    e->to_fd = to_child[1];
    /* Writes never block: an engine that does not read cannot hang us. */
    fcntl(e->to_fd, F_SETFL, fcntl(e->to_fd, F_GETFL) | O_NONBLOCK);
    proto_reader_init(&e->from, from_child[0]);
    return e;
}

json_t *engine_process_request(engine_process *e, json_t *request, int timeout_ms, char *err,
                               size_t errcap)
{
    if (proto_send(e->to_fd, request) < 0) {
        snprintf(err, errcap, "the engine does not take input any more");
        return NULL;
    }
    size_t len = 0;
    int got = proto_read_line(&e->from, timeout_ms, e->line, &len);
    if (got == PROTO_TIMEOUT) {
        snprintf(err, errcap, "no reply within %d ms", timeout_ms);
        return NULL;
    }
    if (got == PROTO_EOF || got == PROTO_IO_ERROR) {
        snprintf(err, errcap, "the engine ended its output (it exited or crashed)");
        return NULL;
    }
    if (got == PROTO_TOO_LONG) {
        snprintf(err, errcap, "a reply longer than %d bytes", PROTO_MAX_LINE);
        return NULL;
    }
    json_error_t jerr;
    json_t *reply = json_loadb(e->line, len, 0, &jerr);
    const char *type = json_string_value(json_object_get(reply, "type"));
    if (!reply || !json_is_object(reply) || !type) {
        snprintf(err, errcap, "a reply that is not a JSON object with a type: '%.60s'", e->line);
        json_decref(reply);
        return NULL;
    }
    if (strcmp(type, "error") == 0) {
        const char *message = json_string_value(json_object_get(reply, "message"));
        snprintf(err, errcap, "the engine replied with an error: %.200s",
                 message ? message : "(no message)");
        json_decref(reply);
        return NULL;
    }
    return reply;
}

/* Reaps the engine if it has ended within `ms` milliseconds. */
static int reaped_within(pid_t pid, int ms)
{
    for (int waited = 0;; waited += 10) {
        pid_t r = waitpid(pid, NULL, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return 1;
        if (waited >= ms)
            return 0;
        struct timespec tick = {0, 10000000L};
        nanosleep(&tick, NULL);
    }
}

void engine_process_close(engine_process *e)
{
    if (!e)
        return;
    proto_send(e->to_fd, json_pack("{s:s}", "type", "quit"));
    close(e->to_fd);
    close(e->from.fd); /* an engine still writing gets SIGPIPE */
    if (!reaped_within(e->pid, 500)) {
        kill(-e->pid, SIGKILL);
        kill(e->pid, SIGKILL);
        while (waitpid(e->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    free(e);
}
