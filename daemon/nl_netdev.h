/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ndv: the netdev generic netlink family (libmnl): per-queue qstats, queue->NAPI links,
 * NAPI instances and their knobs. Spec: Documentation/netlink/specs/netdev.yaml; ids in
 * include/netdev_ids.h. Kernels without the family (6.1) or a command give -EOPNOTSUPP,
 * which callers treat as "unsupported", never as an error.
 */
#ifndef VQ_NL_NETDEV_H
#define VQ_NL_NETDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ndv_sock;

/*
 * Open a netdev genl socket in the calling thread's current network namespace and resolve
 * the family id. Returns 0, -EOPNOTSUPP when the family does not exist, or -errno.
 */
int ndv_open(struct ndv_sock **out);
void ndv_close(struct ndv_sock *s);

/* Counters this daemon reads from qstats; index into ndv_qstats.val[]. */
enum ndv_qs {
	NDV_QS_RX_PACKETS,
	NDV_QS_RX_BYTES,
	NDV_QS_TX_PACKETS,
	NDV_QS_TX_BYTES,
	NDV_QS_RX_ALLOC_FAIL,
	NDV_QS_RX_HW_DROPS,
	NDV_QS_TX_HW_DROPS,
	NDV_QS_TX_STOP,
	NDV_QS_TX_WAKE,
	NDV_QS_NUM
};

/* One queue's counters (scope queue). @present has bit (1 << NDV_QS_x) per counter sent. */
struct ndv_qstats {
	uint32_t ifindex;
	uint32_t type;		/* VQ_NETDEV_QUEUE_TYPE_RX / _TX */
	uint32_t id;		/* queue index */
	uint32_t present;
	uint64_t val[NDV_QS_NUM];
};

/* One NAPI instance. @has_* say which attributes the kernel sent. */
struct ndv_napi {
	uint32_t id;
	uint32_t ifindex;
	uint32_t irq;
	uint32_t pid;
	uint32_t defer_hard_irqs;		/* count */
	uint64_t gro_flush_timeout_ns;
	uint64_t irq_suspend_timeout_ns;
	uint32_t threaded;			/* 0 disabled, 1 enabled (kernel enum) */
	bool has_irq, has_pid, has_defer_hard_irqs, has_gro_flush_timeout;
	bool has_irq_suspend_timeout, has_threaded;
};

/* One queue -> NAPI link (QUEUE_GET). */
struct ndv_queue {
	uint32_t ifindex;
	uint32_t type;		/* VQ_NETDEV_QUEUE_TYPE_RX / _TX */
	uint32_t id;
	uint32_t napi_id;	/* 0 when the queue has no NAPI */
};

/*
 * Dump per-queue qstats / NAPIs / queues of @ifindex (0 = all devices). @cb is called once
 * per object; a non-zero return from @cb stops the dump and is returned.
 * Returns 0, -EOPNOTSUPP when the kernel lacks the command, or -errno.
 */
int ndv_qstats_dump(struct ndv_sock *s, int ifindex,
		    int (*cb)(const struct ndv_qstats *q, void *arg), void *arg);
int ndv_napi_dump(struct ndv_sock *s, int ifindex,
		  int (*cb)(const struct ndv_napi *n, void *arg), void *arg);
int ndv_queue_dump(struct ndv_sock *s, int ifindex,
		   int (*cb)(const struct ndv_queue *q, void *arg), void *arg);

/* NAPI knobs NAPI_SET can write. */
enum ndv_napi_knob {
	NDV_NAPI_DEFER_HARD_IRQS,	/* u32, 0..S32_MAX */
	NDV_NAPI_GRO_FLUSH_TIMEOUT,	/* ns */
	NDV_NAPI_IRQ_SUSPEND_TIMEOUT,	/* ns */
	NDV_NAPI_THREADED,		/* 0/1 */
};

/*
 * NAPI_SET one attribute of NAPI @napi_id. Needs CAP_NET_ADMIN. On failure returns -errno
 * and copies the kernel's extack message (if any) into @err (NUL-terminated, may be "").
 */
int ndv_napi_set(struct ndv_sock *s, uint32_t napi_id, enum ndv_napi_knob knob,
		 uint64_t value, char *err, size_t errlen);

/*
 * Parsers the dumps use, exposed for unit tests: one genl reply message (genlmsghdr +
 * attributes) into the struct. Unknown attributes are skipped. Returns 0, or -EBADMSG
 * when a known attribute has the wrong size or an identifying attribute is missing.
 */
struct nlmsghdr;
int ndv_parse_napi(const struct nlmsghdr *nlh, struct ndv_napi *out);
int ndv_parse_queue(const struct nlmsghdr *nlh, struct ndv_queue *out);
int ndv_parse_qstats(const struct nlmsghdr *nlh, struct ndv_qstats *out);
/* NLMSG_ERROR / NLMSG_DONE: returns its error (0 or -errno), extack text into @err. */
int ndv_parse_ack(const struct nlmsghdr *nlh, char *err, size_t errlen);

#endif
