/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * api: the HTTP server (libmicrohttpd, external epoll mode). Routes, limits and auth live
 * here; what a route returns is asked of view.h. JSON shapes: docs/api.md.
 *
 * Limits (docs/api.md): body <= VQ_API_BODY_MAX_BYTES (413), Content-Type application/json
 * only on bodies (415), JSON nesting <= VQ_API_JSON_MAX_DEPTH (400), API_CONN_LIMIT
 * connections, API_CONN_TIMEOUT_S idle timeout, API_REQ_DEADLINE_S to receive a whole request
 * (api_conn.h).
 */
#ifndef VQ_API_H
#define VQ_API_H

#include <stdbool.h>
#include <stdint.h>

struct api_config {
	const char *unix_path;	/* unix socket path (writes allowed); NULL: none */
	unsigned int unix_mode;	/* e.g. 0660 */
	const char *tcp_addr;	/* "ADDR:PORT" (IPv4 or [IPv6]); NULL: no TCP listener */
	const char *token_file;	/* bearer token for TCP writes; NULL: TCP is read-only */
};

struct api;

/* Start listening. Returns 0 or -errno, and logs what failed once, naming the listener. */
int api_start(const struct api_config *cfg, struct api **out);
/* Stop listening, close connections, unlink the unix socket. NULL is fine. */
void api_stop(struct api *a);
/*
 * From now on every write (PUT, DELETE, POST) is 503 "stopping" (docs/api.md); reads are
 * served as before. For the daemon's stop: its knobs are restored and it changes nothing
 * more. NULL is fine.
 */
void api_stopping(struct api *a);
/*
 * When the last GET /v1/events arrived: CLOCK_MONOTONIC ns, 0 when none has (or @a is
 * NULL). A follower (`vqtunectl events --follow`) asks about once a second.
 */
uint64_t api_events_ns(const struct api *a);
/* File descriptors to watch for EPOLLIN (at most @max); returns how many. */
int api_fds(struct api *a, int *fds, int max);
/* Serve whatever is ready; call when an api fd is readable and once per tick. */
void api_run(struct api *a);

#endif
