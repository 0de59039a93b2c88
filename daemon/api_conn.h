/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * api_conn: a deadline for receiving each request whole, the defence against slow-header
 * and slow-body clients ("slowloris") that an idle timeout alone does not give: a client
 * that sends a byte every few seconds is never idle, and 64 of them would hold every
 * connection slot. Apache's mod_reqtimeout and nginx's client_header_timeout /
 * client_body_timeout do the same. libmicrohttpd 0.9.75 has no such option, so the clock
 * runs here: MHD_OPTION_NOTIFY_CONNECTION tracks every connection, the access handler
 * stops its clock once the request is in, and api_conn_reap() shuts down the socket of a
 * connection past the deadline (MHD then sees the end of the stream and closes it).
 */
#ifndef VQ_API_CONN_H
#define VQ_API_CONN_H

#include <microhttpd.h>
#include <stdint.h>

/* One listener's open connections (zero-initialised). */
struct api_conns {
	struct api_conn *head;
	unsigned int n;			/* open connections */
	uint64_t reaped;		/* connections cut at the deadline since start */
};

/* MHD_OPTION_NOTIFY_CONNECTION callback; @cls is the listener's struct api_conns. */
void api_conn_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		     enum MHD_ConnectionNotificationCode toe);
/* The request on @c is in whole (headers and body): its clock stops. */
void api_conn_received(struct MHD_Connection *c);
/* The request on @c ended: a kept-alive connection's next request starts its clock now. */
void api_conn_idle(struct MHD_Connection *c);
/*
 * Shut down every connection of @l whose request has not been received whole within
 * @deadline_ns of its start (connection open or the previous request's end), at @now_ns
 * (CLOCK_MONOTONIC). Returns how many were shut down now.
 */
unsigned int api_conn_reap(struct api_conns *l, uint64_t now_ns, uint64_t deadline_ns);
/* Free the tracking of connections MHD did not report closed (after MHD_stop_daemon). */
void api_conn_free_all(struct api_conns *l);

#endif
