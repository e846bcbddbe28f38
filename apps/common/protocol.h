/* protocol.h: the JSON lines of the engine protocol (docs/protocol.md):
 * reading a bounded line from a file descriptor with a timeout, and
 * writing one message per line. Shared by both sides: `carcassonne
 * engine`, and the outside engines that the arena and `carcassonne
 * connect` drive (engine_process.h). */
#ifndef CARC_PROTOCOL_H
#define CARC_PROTOCOL_H

#include <jansson.h>
#include <stddef.h>

/* The longest line either side may send, its ending (LF or CR LF) not
 * counted. */
enum { PROTO_MAX_LINE = 65536, PROTO_WRITE_TIMEOUT_MS = 10000 };

/* Results of proto_read_line(). */
enum {
    PROTO_LINE = 1,
    PROTO_EOF = 0,
    PROTO_TIMEOUT = -1,
    PROTO_TOO_LONG = -2, /* the line was skipped up to its newline */
    PROTO_IO_ERROR = -3,
};

/* A buffered line reader over a file descriptor. */
typedef struct proto_reader {
    int fd;
    int eof;
    int skipping; /* inside a line that is too long */
    size_t len;   /* bytes in buf */
    char buf[PROTO_MAX_LINE + 2];
} proto_reader;

void proto_reader_init(proto_reader *r, int fd);
/* Reads the next line into `line` (NUL-terminated, a CR before the newline
 * removed; `line` holds PROTO_MAX_LINE + 2 bytes) and its length into `*len`.
 * Waits at most `timeout_ms` (< 0: for ever; 0: takes what is there
 * without waiting). A last line without a
 * newline is returned at end of file. */
int proto_read_line(proto_reader *r, int timeout_ms, char *line, size_t *len);
/* Whether bytes have come that proto_read_line() has not returned yet,
 * without waiting: those in the buffer, and those the descriptor has
 * ready now (read into the buffer). */
int proto_reader_pending(proto_reader *r);

/* Writes `msg` as one compact JSON line to `fd` and takes the reference
 * (decrefs it). Returns 0; PROTO_SEND_TOO_LONG, writing nothing, when the
 * line would be longer than PROTO_MAX_LINE; or -1 when the line could not
 * be written, on a non-blocking `fd` also when the reader has not made
 * room for PROTO_WRITE_TIMEOUT_MS. */
enum { PROTO_SEND_TOO_LONG = -2 };
int proto_send(int fd, json_t *msg);

/* {"type": "error", "message": MESSAGE}, a new reference. */
json_t *proto_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Milliseconds of a monotonic clock. */
double proto_now_ms(void);

#endif
