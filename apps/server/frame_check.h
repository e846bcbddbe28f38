/* frame_check.h: RFC 6455 (5.1): a server closes the connection of a
 * client that sends an unmasked frame. libwebsockets 4.1 accepts such
 * frames and shows no mask bit to its callbacks, so the server follows
 * the frame headers of its WebSocket connections itself: it wraps the
 * functions libwebsockets reads them with, recv() for plain sockets and
 * OpenSSL's SSL_read() for TLS ones (the bytes after decryption). */
#ifndef CARC_SERVER_FRAME_CHECK_H
#define CARC_SERVER_FRAME_CHECK_H

/* Starts following the frames on socket `fd`, a WebSocket connection
 * whose handshake is done (a client sends no frame before the server's
 * answer), over TLS when `tls` (its bytes are then followed as SSL_read()
 * hands them over, else as recv() does). Service thread only. -1 when `fd`
 * is too high or out of memory (the socket is then not followed). */
int frame_check_watch(int fd, int tls);
/* Stops following `fd` (the connection closes). */
void frame_check_forget(int fd);
/* Whether the client on `fd` has sent an unmasked frame. */
int frame_check_unmasked(int fd);

#endif
