// SPDX-License-Identifier: GPL-2.0-only
/*
 * api_conn: the per-request receive deadline of the API's connections (api_conn.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "api_conn.h"
#include "util.h"

struct api_conn {
	struct api_conn *next, **pprev;
	struct api_conns *owner;
	struct MHD_Connection *c;
	uint64_t start_ns;	/* connection open, or the previous request's end */
	bool waiting;		/* a request is due and not yet received whole */
	bool cut;		/* shut down by the deadline, MHD has not closed it yet */
};

static struct api_conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

static void conn_unlink(struct api_conn *k)
{
	*k->pprev = k->next;
	if (k->next)
		k->next->pprev = k->pprev;
	k->owner->n--;
}

void api_conn_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		     enum MHD_ConnectionNotificationCode toe)
{
	struct api_conns *l = cls;
	struct api_conn *k = *socket_context;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		k = calloc(1, sizeof(*k));
		if (!k)
			return;		/* untracked: only the idle timeout applies */
		k->owner = l;
		k->c = c;
		k->start_ns = util_now_ns(CLOCK_MONOTONIC);
		k->waiting = true;
		k->next = l->head;
		k->pprev = &l->head;
		if (l->head)
			l->head->pprev = &k->next;
		l->head = k;
		l->n++;
		*socket_context = k;
		return;
	}
	if (toe == MHD_CONNECTION_NOTIFY_CLOSED && k) {
		conn_unlink(k);
		free(k);
		*socket_context = NULL;
	}
}

void api_conn_received(struct MHD_Connection *c)
{
	struct api_conn *k = conn_of(c);

	if (k)
		k->waiting = false;
}

void api_conn_idle(struct MHD_Connection *c)
{
	struct api_conn *k = conn_of(c);

	if (k) {
		k->start_ns = util_now_ns(CLOCK_MONOTONIC);
		k->waiting = true;
	}
}

unsigned int api_conn_reap(struct api_conns *l, uint64_t now_ns, uint64_t deadline_ns)
{
	const union MHD_ConnectionInfo *ci;
	unsigned int n = 0;
	struct api_conn *k;

	for (k = l->head; k; k = k->next) {
		if (!k->waiting || k->cut || now_ns - k->start_ns < deadline_ns)
			continue;
		ci = MHD_get_connection_info(k->c, MHD_CONNECTION_INFO_CONNECTION_FD);
		if (!ci)
			continue;
		/* MHD reads the end of the stream, closes and reports it: then it is freed */
		shutdown(ci->connect_fd, SHUT_RDWR);
		k->cut = true;
		l->reaped++;
		n++;
	}
	return n;
}

void api_conn_free_all(struct api_conns *l)
{
	struct api_conn *k;

	while ((k = l->head)) {
		conn_unlink(k);
		free(k);
	}
}
