/* engine_process.h: an outside program that speaks the engine protocol
 * (docs/protocol.md), started and driven by the arena. */
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
    char line[PROTO_MAX_LINE + 2];
} engine_process;

/* Starts `command` with /bin/sh -c in a process group of its own, its
 * standard input and output on pipes (standard error is shared). Returns
 * a new process to close with engine_process_close(), or NULL with a
 * message in `err`. Safe to call from several threads at once. Writing to
 * an engine that has died must not kill the caller: ignore SIGPIPE. */
engine_process *engine_process_start(const char *command, char *err, size_t errcap);

/* Sends `request` (the reference is taken) and waits at most `timeout_ms`
 * for the reply line, which must be a JSON object. Returns it (a new
 * reference), or NULL with the reason in `err`: the engine died, timed out,
 * sent a line that is not a JSON object, or an {"type":"error"} reply. */
json_t *engine_process_request(engine_process *e, json_t *request, int timeout_ms, char *err,
                               size_t errcap);

/* Sends 'quit', gives the engine a moment to end, then kills its process
 * group, reaps it and frees `e` (may be NULL). */
void engine_process_close(engine_process *e);

#endif
