/* frame_check.c: the frame headers of WebSocket connections, followed
 * from the bytes recv() (plain) and SSL_read() (TLS) hand to
 * libwebsockets. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "frame_check.h"

#include <dlfcn.h>
#include <openssl/ssl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/types.h>

enum {
    FDS_FOLLOWED = 1 << 16, /* sockets numbered below this are followed */
    HEADER_MAX = 14,        /* 2 bytes, a 64-bit length, a 4-byte mask key */
};

/* Where a connection's byte stream stands: collecting a frame header, or
 * skipping `skip` bytes of payload. */
typedef struct frame_scan {
    unsigned char head[HEADER_MAX];
    int have;      /* header bytes collected */
    uint64_t skip; /* payload bytes still to come */
    int unmasked;  /* a frame without a mask was seen: the scan stops */
    int tls;       /* its bytes are SSL_read()'s, not recv()'s */
} frame_scan;

/* Indexed by socket; written on the service thread only, which is also
 * the only one to read the followed sockets. */
static frame_scan *scans[FDS_FOLLOWED];

int frame_check_watch(int fd, int tls)
{
    if (fd < 0 || fd >= FDS_FOLLOWED)
        return -1;
    free(scans[fd]);
    scans[fd] = calloc(1, sizeof *scans[fd]);
    if (!scans[fd])
        return -1;
    scans[fd]->tls = tls;
    return 0;
}

void frame_check_forget(int fd)
{
    if (fd >= 0 && fd < FDS_FOLLOWED) {
        free(scans[fd]);
        scans[fd] = NULL;
    }
}

int frame_check_unmasked(int fd)
{
    return fd >= 0 && fd < FDS_FOLLOWED && scans[fd] && scans[fd]->unmasked;
}

/* The length of the header that begins with `head` (`have` >= 2 bytes). */
static int header_length(const unsigned char *head)
{
    int code = head[1] & 0x7f;
    int n = 2 + (code == 126 ? 2 : code == 127 ? 8 : 0);
    return n + (head[1] & 0x80 ? 4 : 0);
}

static uint64_t payload_length(const unsigned char *head)
{
    int code = head[1] & 0x7f;
    if (code < 126)
        return (uint64_t)code;
    uint64_t len = 0;
    for (int i = 0; i < (code == 126 ? 2 : 8); i++)
        len = len << 8 | head[2 + i];
    return len;
}

/* Follows `n` more bytes of the stream. */
static void scan_bytes(frame_scan *s, const unsigned char *p, size_t n)
{
    while (n > 0 && !s->unmasked) {
        if (s->skip > 0) {
            size_t k = s->skip < n ? (size_t)s->skip : n;
            s->skip -= k;
            p += k;
            n -= k;
            continue;
        }
        s->head[s->have++] = *p++;
        n--;
        if (s->have < 2 || s->have < header_length(s->head))
            continue;
        if (!(s->head[1] & 0x80)) {
            s->unmasked = 1;
            return;
        }
        s->skip = payload_length(s->head);
        s->have = 0;
    }
}

/* libwebsockets reads plain sockets with recv(): this definition is found
 * before the C library's, reads with recvfrom() and follows the bytes of
 * the sockets being watched. */
ssize_t recv(int fd, void *buf, size_t len, int flags)
{
    ssize_t n = recvfrom(fd, buf, len, flags, NULL, NULL);
    if (n > 0 && !(flags & MSG_PEEK) && fd >= 0 && fd < FDS_FOLLOWED && scans[fd] &&
        !scans[fd]->tls)
        scan_bytes(scans[fd], buf, (size_t)n);
    return n;
}

/* libwebsockets reads TLS connections with SSL_read(): this definition is
 * found before OpenSSL's, calls it (every return value as it gave it:
 * libwebsockets tells a closed connection from a wait by them) and
 * follows the decrypted bytes of the sockets being watched. */
int SSL_read(SSL *ssl, void *buf, int num)
{
    static int (*openssl_read)(SSL *, void *, int);
    if (!openssl_read)
        *(void **)&openssl_read = dlsym(RTLD_NEXT, "SSL_read");
    if (!openssl_read)
        return -1;
    int n = openssl_read(ssl, buf, num);
    int fd = n > 0 ? SSL_get_fd(ssl) : -1;
    if (fd >= 0 && fd < FDS_FOLLOWED && scans[fd] && scans[fd]->tls)
        scan_bytes(scans[fd], buf, (size_t)n);
    return n;
}
