/* protocol.c: JSON lines over file descriptors (see protocol.h). */
#include "protocol.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void proto_reader_init(proto_reader *r, int fd)
{
    r->fd = fd;
    r->eof = 0;
    r->skipping = 0;
    r->len = 0;
}

double proto_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Moves the first line of the buffer (ending at `nl`) into `line`; a line
 * longer than PROTO_MAX_LINE (its ending not counted) is dropped. */
static int take_line(proto_reader *r, const char *nl, char *line, size_t *len)
{
    size_t n = (size_t)(nl - r->buf);
    size_t used = n + (nl < r->buf + r->len);
    if (n > 0 && r->buf[n - 1] == '\r')
        n--;
    int too_long = r->skipping || n > PROTO_MAX_LINE;
    if (too_long)
        n = 0;
    memcpy(line, r->buf, n);
    line[n] = '\0';
    *len = n;
    memmove(r->buf, r->buf + used, r->len - used);
    r->len -= used;
    r->skipping = 0;
    return too_long ? PROTO_TOO_LONG : PROTO_LINE;
}

/* Waits until the descriptor can be read or the deadline passes. */
static int wait_readable(int fd, int timeout_ms, double deadline)
{
    for (;;) {
        int wait = -1;
        if (timeout_ms >= 0) {
            double left = deadline - proto_now_ms();
            wait = left <= 0 ? 0 : left > 1e9 ? 1000000000 : (int)left + 1;
        }
        struct pollfd p = {fd, POLLIN, 0};
        int n = poll(&p, 1, wait);
        if (n > 0)
            return PROTO_LINE;
        if (n < 0 && errno != EINTR)
            return PROTO_IO_ERROR;
        if (n == 0 && wait == 0)
            return PROTO_TIMEOUT; /* looked once more at the deadline */
    }
}

int proto_read_line(proto_reader *r, int timeout_ms, char *line, size_t *len)
{
    double deadline = proto_now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(r->buf, '\n', r->len);
        if (nl)
            return take_line(r, nl, line, len);
        if (r->len == sizeof r->buf) {
            /* A full buffer and no newline: the longest line, a CR and
             * its LF would fit, so this one is too long. Forget what came
             * so far, keep skipping. */
            r->skipping = 1;
            r->len = 0;
        }
        if (r->eof) {
            if (r->len == 0 && !r->skipping)
                return PROTO_EOF;
            return take_line(r, r->buf + r->len, line, len);
        }
        int w = wait_readable(r->fd, timeout_ms, deadline);
        if (w != PROTO_LINE)
            return w;
        ssize_t got = read(r->fd, r->buf + r->len, sizeof r->buf - r->len);
        if (got < 0 && errno != EINTR && errno != EAGAIN)
            return PROTO_IO_ERROR;
        if (got == 0)
            r->eof = 1;
        if (got > 0)
            r->len += (size_t)got;
    }
}

int proto_reader_pending(proto_reader *r)
{
    if (r->len > 0 || r->skipping)
        return 1;
    struct pollfd p = {r->fd, POLLIN, 0};
    if (r->eof || poll(&p, 1, 0) <= 0)
        return 0;
    ssize_t got = read(r->fd, r->buf, sizeof r->buf);
    if (got == 0)
        r->eof = 1;
    if (got > 0)
        r->len = (size_t)got;
    return got > 0;
}

int proto_send(int fd, json_t *msg)
{
    char *text =
        msg ? json_dumps(msg, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6)) : NULL;
    json_decref(msg);
    size_t n = text ? strlen(text) : 0;
    if (n > PROTO_MAX_LINE) {
        free(text);
        return PROTO_SEND_TOO_LONG;
    }
    char *line = text ? malloc(n + 2) : NULL;
    if (!line) {
        free(text);
        return -1;
    }
    snprintf(line, n + 2, "%s\n", text);
    n++;
    free(text);
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, line + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* A non-blocking pipe that is full: its reader is not reading. */
            struct pollfd p = {fd, POLLOUT, 0};
            if (poll(&p, 1, PROTO_WRITE_TIMEOUT_MS) > 0)
                continue;
            break;
        }
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    free(line);
    return done == n ? 0 : -1;
}

json_t *proto_error(const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    /* Messages may quote what the other side sent: keep them plain ASCII
     * so that they are valid JSON strings. */
    for (char *c = message; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7F)
            *c = '?';
    return json_pack("{s:s, s:s}", "type", "error", "message", message);
}
