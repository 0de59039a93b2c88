/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * api_sock: the API server's listening sockets, set up before libmicrohttpd takes the
 * descriptors over (api.c); the bearer token file is token.h's. Every socket is SOCK_CLOEXEC
 * and SOCK_NONBLOCK, as MHD's external epoll mode needs. Both listen with the largest
 * backlog the kernel allows (net.core.somaxconn, listen(2)), so a burst of clients queues
 * instead of failing at connect.
 */
#ifndef VQ_API_SOCK_H
#define VQ_API_SOCK_H

#include <stddef.h>

/*
 * Listen on the unix stream socket @path, file mode @mode (e.g. 0660; the file is created
 * 0600 and widened with chmod(2), never briefly wider than asked). A stale socket file (no
 * server accepting on it) is replaced; a live one or a non-socket file is left alone.
 * Returns the listening fd, or -ENAMETOOLONG (@path does not fit sun_path, unix(7)),
 * -EEXIST (@path exists and is not a socket), -EADDRINUSE (another server is live on it),
 * or -errno from unlink/socket/bind/chmod/listen. On failure no file of ours is left.
 */
int api_sock_listen_unix(const char *path, unsigned int mode);

/*
 * Listen on TCP @spec: "ADDR:PORT" (IPv4) or "[ADDR6]:PORT", both numeric only (no name
 * lookup, AI_NUMERICHOST | AI_NUMERICSERV); PORT 1..65535 in decimal (0, "any port", would
 * hide where the API is). IPv6 sockets are V6ONLY.
 * Returns the listening fd, or -EINVAL (malformed @spec), or -errno from socket/bind/listen.
 */
int api_sock_listen_tcp(const char *spec);
/* Whether @spec is one api_sock_listen_tcp() accepts, without opening anything. */
bool api_sock_tcp_spec_valid(const char *spec);

#endif
