/* engine_session.h: one session of the engine protocol, apart from the
 * file descriptors it is served over. */
#ifndef CARC_ENGINE_SESSION_H
#define CARC_ENGINE_SESSION_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

typedef struct engine_session engine_session;

/* A session whose 'go' and 'analyse' are answered by the library player
 * `spec` seeded with `seed`; NULL with a message in `err` on a bad spec.
 * Free with engine_session_free(). */
engine_session *engine_session_new(const char *spec, uint64_t seed, char *err, size_t errcap);
void engine_session_free(engine_session *e);
/* The reply to one request line of `len` bytes (no newline): a new JSON
 * reference the caller owns. A bad request gets an error reply and changes
 * nothing. Sets `*quit` after 'quit'. */
json_t *engine_session_answer(engine_session *e, const char *line, size_t len, int *quit);

#endif
