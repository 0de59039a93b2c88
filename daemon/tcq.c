// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/socket.h>

#include "dev.h"
#include "log.h"
#include "netns.h"
#include "tcq.h"
#include "util.h"

/* struct tc_stats up to and including backlog: the part of the old TCA_STATS we read */
#define TCQ_TC_STATS_MIN_BYTES	(offsetof(struct tc_stats, backlog) + sizeof(uint32_t))

/* Receive buffer: the kernel sizes dump skbs up to 32 KiB after a large recvmsg(). */
#define TCQ_RCVBUF_BYTES	32768
/* A failing dump fails every tick: say so once a minute, not ten times a second */
#define TCQ_LOG_INTERVAL_NS	(60 * NSEC_PER_SEC)

/* Roots that create one child per TX queue with parent MAJ:(queue + 1) (mq_init et al.) */
static const char *const mq_kinds[] = { "mq", "mqprio", "taprio" };

static int qdisc_attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(a);

	if (mnl_attr_type_valid(a, TCA_MAX) < 0)
		return MNL_CB_OK;
	switch (type) {
	case TCA_KIND:
		if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
			return MNL_CB_OK;
		break;
	case TCA_STATS2:
		if (mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
			return MNL_CB_OK;
		break;
	case TCA_STATS:
		if (mnl_attr_get_payload_len(a) < TCQ_TC_STATS_MIN_BYTES)
			return MNL_CB_OK;
		break;
	default:
		return MNL_CB_OK;
	}
	tb[type] = a;
	return MNL_CB_OK;
}

static int stats2_attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;

	if (mnl_attr_type_valid(a, TCA_STATS_MAX) < 0 ||
	    mnl_attr_get_type(a) != TCA_STATS_QUEUE ||
	    mnl_attr_get_payload_len(a) < sizeof(struct gnet_stats_queue))
		return MNL_CB_OK;
	tb[TCA_STATS_QUEUE] = a;
	return MNL_CB_OK;
}

int tcq_parse(const struct nlmsghdr *nlh, struct tcq_qdisc *qd)
{
	const struct nlattr *tb[TCA_MAX + 1] = { 0 }, *st[TCA_STATS_MAX + 1] = { 0 };
	const struct tcmsg *tcm = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_type != RTM_NEWQDISC || mnl_nlmsg_get_payload_len(nlh) < sizeof(*tcm))
		return -EINVAL;
	memset(qd, 0, sizeof(*qd));
	qd->ifindex = tcm->tcm_ifindex;
	qd->handle = tcm->tcm_handle;
	qd->parent = tcm->tcm_parent;
	if (mnl_attr_parse(nlh, sizeof(*tcm), qdisc_attr_cb, tb) < 0)
		return -EINVAL;
	if (tb[TCA_KIND])
		snprintf(qd->kind, sizeof(qd->kind), "%s", mnl_attr_get_str(tb[TCA_KIND]));
	if (tb[TCA_STATS2])
		mnl_attr_parse_nested(tb[TCA_STATS2], stats2_attr_cb, st);
	/* attributes are 4-byte aligned only: copy out before reading */
	if (st[TCA_STATS_QUEUE]) {
		struct gnet_stats_queue q;

		memcpy(&q, mnl_attr_get_payload(st[TCA_STATS_QUEUE]), sizeof(q));
		qd->backlog_bytes = q.backlog;
		qd->qlen = q.qlen;
		qd->has_queue = true;
	} else if (tb[TCA_STATS]) {
		struct tc_stats s = { 0 };

		memcpy(&s, mnl_attr_get_payload(tb[TCA_STATS]), TCQ_TC_STATS_MIN_BYTES);
		qd->backlog_bytes = s.backlog;
		qd->qlen = s.qlen;
		qd->has_queue = true;
	}
	return 0;
}

/* @kind is one of the @n names of @list */
static bool kind_in(const char *kind, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(kind, list[i]))
			return true;
	return false;
}

static bool kind_is_mq(const char *kind)
{
	return kind_in(kind, mq_kinds, ARRAY_SIZE(mq_kinds));
}

bool tcq_kind_fifo(const char *kind)
{
	static const char *const fifos[] = { "pfifo_fast", "pfifo", "bfifo", "pfifo_head_drop" };

	return kind_in(kind, fifos, ARRAY_SIZE(fifos));
}

bool tcq_map(struct tcq_walk *w, const struct tcq_qdisc *qd, unsigned int n_tx,
	     struct tcq_span *sp)
{
	uint32_t minor;

	if (qd->parent == TC_H_ROOT) {
		w->ifindex = qd->ifindex;
		w->root_handle = qd->handle;
		w->root_mq = kind_is_mq(qd->kind);
		if (!n_tx || w->root_mq)
			return false;
		if (!strcmp(qd->kind, "noqueue")) {
			*sp = (struct tcq_span){ .first = 0, .n = n_tx, .zero = true };
			return true;
		}
		if (!qd->has_queue)
			return false;
		/* shared by every TX queue: told on queue 0 (all of a one-queue device) only */
		*sp = (struct tcq_span){ .first = 0, .n = 1 };
		return true;
	}
	/* ingress/clsact hang under TC_H_INGRESS; deeper qdiscs under a non-root major */
	if (!w->ifindex || w->ifindex != qd->ifindex || !w->root_mq || !qd->has_queue ||
	    TC_H_MAJ(qd->parent) != TC_H_MAJ(w->root_handle))
		return false;
	minor = TC_H_MIN(qd->parent);
	if (minor < 1 || minor > n_tx)
		return false;
	*sp = (struct tcq_span){ .first = minor - 1, .n = 1 };
	return true;
}

struct tcq_dump {
	struct netns *ns;
	struct tcq_walk w;
};

static char rbuf[TCQ_RCVBUF_BYTES];	/* one, reused: a single thread samples */
static uint32_t tcq_seq;

static int qdisc_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct tcq_dump *dump = arg;
	struct tcq_qdisc qd;
	struct tcq_span sp;
	struct device *d;
	unsigned int q;

	if (tcq_parse(nlh, &qd))
		return MNL_CB_OK;
	d = dev_lookup(dump->ns, qd.ifindex);
	/* a device this tick does not sample keeps its last sample (sample.c SMP_OBSERVED_NS) */
	if (!d || !tcq_map(&dump->w, &qd, d->n_tx, &sp) || !d->due)
		return MNL_CB_OK;
	for (q = sp.first; q < sp.first + sp.n && q < d->n_tx; q++) {
		d->txq[q].qdisc_backlog_bytes = sp.zero ? 0 : qd.backlog_bytes;
		d->txq[q].qdisc_qlen = sp.zero ? 0 : qd.qlen;
		d->txq[q].qdisc_fifo = !sp.zero && tcq_kind_fifo(qd.kind);
	}
	return MNL_CB_OK;
}

static void forget(struct netns *ns)
{
	struct device *d;
	unsigned int q;

	dev_for_each(d) {
		if (d->ns != ns || !d->due)
			continue;
		for (q = 0; q < d->n_tx; q++) {
			d->txq[q].qdisc_backlog_bytes = NAN;
			d->txq[q].qdisc_qlen = NAN;
			d->txq[q].qdisc_fifo = false;
		}
	}
}

/* The rest of a dump we stopped parsing: each read makes the kernel queue the next part. */
static void drain(int fd)
{
	for (;;) {
		if (recv(fd, rbuf, sizeof(rbuf), MSG_DONTWAIT) >= 0 || errno == EINTR)
			continue;
		break;
	}
}

/*
 * The dump runs on the namespace's rtnetlink request socket (libnl's ns->rt), driven with
 * libmnl as rtnl_stats.c does: libnl would allocate and copy each of ~1,000 messages a tick
 * and peek before every read. Our sequence numbers leave libnl's counters alone, and the
 * dump is read to its end, so libnl finds the socket as it left it.
 */
static int dump_qdiscs(struct netns *ns, struct tcq_dump *dump)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int fd = nl_socket_get_fd(ns->rt);
	uint32_t portid = nl_socket_get_local_port(ns->rt), seq;
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(rbuf);
	struct tcmsg *tcm;
	ssize_t n;
	int ret;

	seq = ++tcq_seq ? tcq_seq : ++tcq_seq;	/* 0 would turn libmnl's check off */
	nlh->nlmsg_type = RTM_GETQDISC;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	if (sendto(fd, nlh, nlh->nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;
	for (;;) {
		n = recv(fd, rbuf, sizeof(rbuf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		ret = mnl_cb_run(rbuf, n, seq, portid, qdisc_cb, dump);
		if (ret == MNL_CB_STOP)
			return 0;
		if (ret == MNL_CB_ERROR) {
			ret = -errno;
			drain(fd);
			/*
			 * NLM_F_DUMP_INTR: qdiscs changed during the dump. What came is each
			 * qdisc's own; the queues of the rest stay unknown for this tick.
			 */
			return ret == -EINTR ? 0 : ret;
		}
	}
}

int tcq_sample(struct netns *ns)
{
	static uint64_t logged_ns;
	struct tcq_dump dump = { .ns = ns };
	uint64_t now;
	int ret;

	forget(ns);
	ret = dump_qdiscs(ns, &dump);
	if (!ret)
		return 0;
	forget(ns);
	now = util_now_ns(CLOCK_MONOTONIC);
	if (!logged_ns || now - logged_ns >= TCQ_LOG_INTERVAL_NS) {
		logged_ns = now;
		log_warn("netns '%s': qdisc dump failed: %s; qdisc backlog unknown", ns->name,
			 strerror(-ret));
	}
	return ret;
}
