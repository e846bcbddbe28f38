/* engine_process.h: an outside program that speaks the engine protocol
 * (docs/protocol.md) on pipes, started and driven by a controller: the
 * arena (apps/cli/arena.c) and the engine seats of `carcassonne connect`
 * (apps/client/seat_player.c). */
#ifndef CARC_ENGINE_PROCESS_H
#define CARC_ENGINE_PROCESS_H

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

#include "protocol.h"

typedef struct engine_process {
    pid_t pid;         /* also its process group */
    int to_fd;         /* its standard input */
    proto_reader from; /* its standard output */
    int ended;         /* its process has ended and was reaped, its group killed */
    int status;        /* then its wait status */
    char line[PROTO_MAX_LINE + 2];
} engine_process;

/* Starts `command` with /bin/sh -c in a process group of its own, its
 * standard input and output on pipes (standard error is shared). Returns
 * a new process to close with engine_process_close(), or NULL with a
 * message in `err`. Safe to call from several threads at once. Writing to
 * an engine that has died must not kill the caller: ignore SIGPIPE. */
engine_process *engine_process_start(const char *command, char *err, size_t errcap);

/* Sends `request` (the reference is taken) and waits at most `timeout_ms`
 * (< 0: without a limit) for the reply line, which must be a JSON object
 * with a "type" and no duplicate keys, at most PROTO_MAX_LINE bytes, and
 * must be the only line sent. Returns it (a new reference), or NULL with
 * the reason in `err`: the engine exited or closed its input or output
 * (an exited engine's process group is killed at once: a child that holds
 * the pipe open makes no time-out of it), timed out, sent a line that is
 * not such an object or is too long, more than one line, or an
 * {"type":"error"} reply. */
json_t *engine_process_request(engine_process *e, json_t *request, int timeout_ms, char *err,
                               size_t errcap);

/* engine_process_request() whose reply must also be of type `type` ("ok"
 * for new, tile, move and end; "move" for go ...). */
json_t *engine_process_ask(engine_process *e, json_t *request, const char *type, int timeout_ms,
                           char *err, size_t errcap);

/* Whether the engine's process has ended (checked without waiting; an
 * ended one is reaped and its process group killed). */
int engine_process_ended(engine_process *e);

/* Kills the process groups of all engines not yet closed, and makes every
 * later engine_process_start() fail: for the signal handler of a
 * controller that is being stopped (async-signal-safe). */
void engine_process_kill_all(void);

/* Sends 'quit', closes the engine's input, reads and drops what it still
 * writes (its 'bye') until it ends, for at most half a second, then kills
 * its whole process group (children included), reaps it and frees `e`
 * (may be NULL). */
void engine_process_close(engine_process *e);

#endif
