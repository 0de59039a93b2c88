/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcq: the qdisc backlog in front of every TX queue, so the queue-limit controller can tell
 * "BQL starves the queue while the qdisc holds data" from an idle queue.
 *
 * Per namespace and tick: one RTM_GETQDISC dump on the namespace's rtnetlink socket. Each
 * qdisc's TCA_STATS2/TCA_STATS_QUEUE (struct gnet_stats_queue; TCA_STATS, struct tc_stats,
 * where STATS2 is missing) gives backlog bytes and qlen packets. A qdisc maps to TX queues
 * by where it hangs (include/uapi/linux/pkt_sched.h, net/sched/sch_mq.c mq_init/mq_attach):
 *
 *   root noqueue (veth default)   every TX queue: 0, nothing can be queued
 *   root mq, mqprio, taprio       nothing itself (it sums its children); its child with
 *                                 parent MAJ:MIN feeds TX queue MIN - 1
 *   any other root                TX queue 0; on a multi-queue device the other queues
 *                                 share it and stay unknown (its backlog is not theirs)
 *   no root in the dump           unknown (a device never brought up has noop, not dumped)
 *
 * Values are instantaneous gauges of this tick; unknown is NAN. Qdiscs deeper than an mq
 * child are not read: a classful qdisc's backlog already counts its subtree.
 */
#ifndef VQ_TCQ_H
#define VQ_TCQ_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/netlink.h>

struct netns;

#define TCQ_KIND_MAX	16	/* IFNAMSIZ, as the kernel's TCA_KIND policy */

/* One qdisc of an RTM_NEWQDISC message. */
struct tcq_qdisc {
	int ifindex;
	uint32_t handle, parent;	/* tcmsg tcm_handle, tcm_parent (TC_H_*) */
	char kind[TCQ_KIND_MAX];
	bool has_queue;			/* TCA_STATS2 queue stats or TCA_STATS were present */
	uint32_t backlog_bytes;
	uint32_t qlen;			/* packets */
};

/* State across the qdiscs of one dump: the root of the device being walked. */
struct tcq_walk {
	int ifindex;			/* 0: no root seen yet */
	uint32_t root_handle;
	bool root_mq;			/* a root with one child per TX queue */
};

/* The TX queues one qdisc speaks for: [first, first + n). */
struct tcq_span {
	unsigned int first, n;
	bool zero;			/* known empty (noqueue), whatever the stats say */
};

/*
 * A qdisc that serves every packet in arrival order from one queue: pfifo_fast, pfifo,
 * bfifo, pfifo_head_drop (net/sched/sch_fifo.c, sch_generic.c; pfifo_fast's three bands
 * split by TOS priority only, and bulk and requests alike send with TOS 0). Every packet
 * waits behind all of its backlog. A flow-queueing or AQM qdisc (fq_codel, fq, cake, ...)
 * is not one: it passes a sparse flow ahead of a bulk backlog.
 */
bool tcq_kind_fifo(const char *kind);

/*
 * Parse an RTM_NEWQDISC message into @qd. Unknown attributes are skipped. 0, or -EINVAL
 * when it is no qdisc message or is too short.
 */
int tcq_parse(const struct nlmsghdr *nlh, struct tcq_qdisc *qd);
/*
 * Which of a device's @n_tx TX queues @qd's backlog belongs to, following the table above.
 * @w carries the root to its children: the kernel dumps a device's root before the rest of
 * its qdiscs (tc_dump_qdisc_root), so a child seen without its root maps to nothing
 * (unknown), never to a wrong queue. Returns true and fills @sp when @qd maps to a queue.
 */
bool tcq_map(struct tcq_walk *w, const struct tcq_qdisc *qd, unsigned int n_tx,
	     struct tcq_span *sp);
/*
 * Sample the qdisc backlog of every device of @ns into each TX queue's qdisc_backlog_bytes
 * and qdisc_qlen (dev.h); NAN where unknown. 0, or -errno of the dump (all NAN then).
 */
int tcq_sample(struct netns *ns);

#endif
