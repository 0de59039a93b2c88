/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vqpair internals shared by the feature files (main, datapath, genl, ethtool, debugfs).
 *
 * One struct vqp_pair is shared by the two netdevs. Per queue pair there are three
 * ptr_rings: txr (front xmit -> backend worker), cq (completions, worker/zerocopy free ->
 * front reap) and rxr (back xmit -> front NAPI). The descriptor budget of a TX queue is
 * tx-ring-size and counts a packet from xmit until its completion is reaped, like a
 * virtqueue where a descriptor is only returned by the used ring.
 */
#ifndef _VQPAIR_PRIV_H
#define _VQPAIR_PRIV_H

#include <linux/netdevice.h>
#include <linux/ptr_ring.h>
#include <linux/hrtimer.h>
#include <linux/version.h>
#include "../include/vqpair.h"

/* rings are allocated at the largest tx-ring-size so -G never reallocates under traffic */
#define VQP_RING_MAX		4096
#define VQP_KNOB_NUM		(VQPAIR_KNOB_MAX + 1)
#define VQP_QSTAT_NUM		(VQPAIR_QSTAT_MAX + 1)

struct vqp_knob_desc {
	const char *name;
	u32 min;
	u32 max;
	u32 def;
};
extern const struct vqp_knob_desc vqp_knobs[VQP_KNOB_NUM];
extern const char *const vqp_qstat_names[VQP_QSTAT_NUM];

/* coalesced "interrupt" source: completions (TX) or received packets (RX) */
struct vqp_irq {
	struct hrtimer timer;
	atomic_t pending;	/* events since the last fired interrupt */
	atomic_t armed;		/* timer running */
	struct vqp_queue *q;
	bool tx;
};

struct vqp_queue {
	struct vqp_pair *pair;
	u16 idx;
	u32 knob[VQP_KNOB_NUM];	/* READ_ONCE by the datapath, written under RTNL */

	struct ptr_ring txr;
	struct ptr_ring cq;
	struct ptr_ring rxr;
	atomic_t inflight_desc;	/* packets xmitted and not yet reaped */
	spinlock_t reap_lock;	/* one reaper at a time: BQL completion is single-consumer */

	struct napi_struct napi;	/* front: RX from rxr and, with tx-napi, TX reap */
	struct vqp_irq tx_irq;
	struct vqp_irq rx_irq;

	struct task_struct *worker;	/* backend: drains txr into the back netdev */
	int notify;			/* worker sleeps and wants a kick */

	/* fault injection (debugfs), read by the datapath */
	u32 fault_delay_us;
	u32 fault_zc_hold_us;
	u32 fault_stall;
	u32 fault_drop_ppm;
	u32 line_rate_mbit;	/* the backend's line rate, 0 = none (debugfs) */
	u64 line_free_ns;	/* worker only: when the line has sent what it took */
	bool line_fifo;		/* worker only: it runs SCHED_FIFO for the line */
	bool line_idle;		/* worker only: the ring ran empty since the last take */

	atomic64_t st[VQP_QSTAT_NUM];
	/* back netdev counters for ndo_get_stats64 (ip -s link), not part of the UAPI */
	atomic64_t back_rx_packets;
	atomic64_t back_rx_bytes;
	atomic64_t back_tx_packets;
	atomic64_t back_tx_bytes;
	/* include/vqpair.h: completion, front->back and back->front delivery latency */
	atomic64_t lat_hist[VQPAIR_LAT_BUCKETS];
	atomic64_t tx_delivery_hist[VQPAIR_LAT_BUCKETS];
	atomic64_t rx_delivery_hist[VQPAIR_LAT_BUCKETS];
};

struct vqp_pair {
	struct net_device __rcu *front;
	struct net_device __rcu *back;
	u32 id;
	u16 nq;
	refcount_t ref;		/* one per registered netdev */
	struct dentry *dbg;
	struct vqp_queue *q;
};

struct vqp_priv {
	struct vqp_pair *pair;
	bool is_front;
	bool live;	/* registered: holds a reference on pair */
};

static inline struct vqp_pair *vqp_pair_of(const struct net_device *dev)
{
	return ((struct vqp_priv *)netdev_priv(dev))->pair;
}

static inline void vqp_stat_add(struct vqp_queue *q, int id, s64 v)
{
	atomic64_add(v, &q->st[id]);
}

/* count @ns in its log2 bucket of @hist (u64[VQPAIR_LAT_BUCKETS], include/vqpair.h) */
static inline void vqp_hist_add(atomic64_t *hist, u64 ns)
{
	atomic64_inc(&hist[ns ? min_t(int, ilog2(ns), VQPAIR_LAT_BUCKETS - 1) : 0]);
}

static inline u32 vqp_knob(const struct vqp_queue *q, int id)
{
	return READ_ONCE(q->knob[id]);
}

/*
 * driver-private skb->cb while the front owns the skb (xmit until reap); on the RX ring
 * (back xmit -> front NAPI) only t_xmit_ns is used
 */
struct vqp_cb {
	u64 t_xmit_ns;
	u64 t_done_ns;
	u32 len;
};

/* a buffer handed downstream without copying; completes when the stack frees it */
struct vqp_zc {
	struct hlist_node node;
	struct sk_buff *skb;
	struct vqp_queue *q;	/* NULL once the queue is gone: the destructor only frees */
	u64 t_xmit_ns;
	u64 t_done_ns;
	u32 len;
};
static inline struct vqp_cb *vqp_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct vqp_cb) > sizeof(skb->cb));
	return (struct vqp_cb *)skb->cb;
}

/* vqpair_main.c */

bool vqp_is_vqpair(const struct net_device *dev);

/* vqpair_dp.c: datapath */
int vqp_queues_init(struct vqp_pair *pair, struct net_device *front);
void vqp_queues_stop(struct vqp_pair *pair);
void vqp_queues_free(struct vqp_pair *pair);
netdev_tx_t vqp_front_xmit(struct sk_buff *skb, struct net_device *dev);
netdev_tx_t vqp_back_xmit(struct sk_buff *skb, struct net_device *dev);
void vqp_knob_applied(struct vqp_queue *q, int knob);

/* vqpair_compl.c: completions, coalesced interrupts, zerocopy tracking */
void vqp_irq_init(struct vqp_irq *irq, struct vqp_queue *q, bool tx);
void vqp_irq_event(struct vqp_irq *irq);
void vqp_irq_idle(struct vqp_irq *irq);
void vqp_napi_kick(struct vqp_queue *q);
void vqp_complete_skb(struct vqp_queue *q, struct sk_buff *skb);
void vqp_reap(struct vqp_queue *q, struct net_device *front);
void vqp_cq_free(struct vqp_queue *q, void *ent);
void vqp_zc_track(struct vqp_zc *zc, struct sk_buff *skb);
bool vqp_zc_held(struct vqp_queue *q);
void vqp_zc_orphan(struct vqp_queue *q);
void vqp_zc_wait_all(void);

/* vqpair_knobs.c: the single writer of knobs */
int vqp_knob_set(struct vqp_pair *pair, int queue, int knob, u32 val,
		 struct netlink_ext_ack *extack);
void vqp_knobs_default(struct vqp_queue *q);

/* vqpair_genl.c */
int vqp_genl_init(void);
void vqp_genl_exit(void);
void vqp_genl_notify(struct vqp_pair *pair, int queue, int knob, u32 old, u32 val);

/* vqpair_ethtool.c */
extern const struct ethtool_ops vqp_ethtool_ops;

/* vqpair_qstats.c: netdev_stat_ops where the kernel has them (>= 6.10), else nothing */
void vqp_qstats_setup(struct net_device *dev);

/* vqpair_debugfs.c */
void vqp_debugfs_init(void);
void vqp_debugfs_exit(void);
void vqp_debugfs_add(struct vqp_pair *pair);
void vqp_debugfs_del(struct vqp_pair *pair);

#endif
