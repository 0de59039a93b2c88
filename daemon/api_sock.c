// SPDX-License-Identifier: GPL-2.0-only
/*
 * api_sock: listening sockets of the API server (contracts in api_sock.h). Split from
 * api.c: nothing here knows HTTP.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "api_sock.h"

/*
 * listen(2) backlog: connections queued while the loop is busy or every MHD slot is taken
 * (API_CONN_LIMIT). As large as the kernel allows: listen() caps it at net.core.somaxconn
 * (4096 by default since Linux 5.4), so that sysctl is the one limit. 128 refused a burst of
 * 400 clients' connects with EAGAIN.
 */
#define API_LISTEN_BACKLOG	INT_MAX
/* umask while binding the unix socket: owner read/write only until chmod() to the mode */
#define API_UNIX_BIND_UMASK	0177

/* Is a server accepting on @sa? Tells a live daemon's socket from a stale file. */
static bool unix_socket_live(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool live;

	if (fd < 0)
		return false;
	live = !connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) || errno == EAGAIN;
	close(fd);
	return live;
}

int api_sock_listen_unix(const char *path, unsigned int mode)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	mode_t old;
	int fd, err;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (!lstat(path, &st)) {
		if (!S_ISSOCK(st.st_mode))
			return -EEXIST;
		if (unix_socket_live(&sa))
			return -EADDRINUSE;
		if (unlink(path) && errno != ENOENT)
			return -errno;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/* created owner-only, then widened to @mode: never briefly wider than asked */
	old = umask(API_UNIX_BIND_UMASK);
	err = bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ? -errno : 0;
	umask(old);
	if (err)
		goto err_close;
	if (chmod(path, mode) || listen(fd, API_LISTEN_BACKLOG)) {
		err = -errno;
		goto err_unlink;
	}
	return fd;
err_unlink:
	unlink(path);
err_close:
	close(fd);
	return err;
}

/* PORT of "ADDR:PORT": decimal digits only, 1..65535 */
static bool tcp_port_valid(const char *p)
{
	unsigned long v = 0;
	const char *c;

	if (!*p || strlen(p) > 5)
		return false;
	for (c = p; *c; c++) {
		if (*c < '0' || *c > '9')
			return false;
		v = v * 10 + (unsigned long)(*c - '0');
	}
	return v >= 1 && v <= 65535;
}

/* Split "ADDR:PORT" / "[ADDR6]:PORT" into @host and *port; 0 or -EINVAL. */
static int tcp_split(const char *spec, char *host, size_t hostlen, const char **port)
{
	const char *colon = strrchr(spec, ':'), *h = spec;
	size_t hlen;

	if (!colon || colon == spec || !tcp_port_valid(colon + 1))
		return -EINVAL;
	hlen = (size_t)(colon - spec);
	if (spec[0] == '[') {
		if (hlen < 2 || spec[hlen - 1] != ']')
			return -EINVAL;
		h++;
		hlen -= 2;
	}
	if (hlen >= hostlen)
		return -EINVAL;
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	*port = colon + 1;
	return 0;
}

bool api_sock_tcp_spec_valid(const char *spec)
{
	char host[INET6_ADDRSTRLEN + 2];
	unsigned char buf[sizeof(struct in6_addr)];
	const char *port;

	if (tcp_split(spec, host, sizeof(host), &port))
		return false;
	return inet_pton(spec[0] == '[' ? AF_INET6 : AF_INET, host, buf) == 1;
}

int api_sock_listen_tcp(const char *spec)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	struct addrinfo *ai;
	/* the address plus its brackets */
	char host[INET6_ADDRSTRLEN + 2];
	const char *port;
	int fd, err, one = 1;

	if (tcp_split(spec, host, sizeof(host), &port))
		return -EINVAL;
	err = getaddrinfo(host, port, &hints, &ai);
	if (err)
		return -EINVAL;
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		err = -errno;
		goto err_free;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ai->ai_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, API_LISTEN_BACKLOG)) {
		err = -errno;
		goto err_close;
	}
	freeaddrinfo(ai);
	return fd;
err_close:
	close(fd);
err_free:
	freeaddrinfo(ai);
	return err;
}
