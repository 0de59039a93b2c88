// SPDX-License-Identifier: GPL-2.0
/*
 * vqpair completions: the coalesced completion/RX "interrupts" (ethtool -C semantics on an
 * hrtimer), the completion ring, zerocopy buffers that complete when the stack frees them,
 * and the reap that reports completions to BQL and wakes the queue (virtio_net's
 * free_old_xmit_skbs + skb_xmit_done, vhost's zerocopy callback).
 */
#include <linux/hashtable.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include "vqpair_priv.h"

/* wake a stopped queue once a quarter of the ring is free: virtio_net waits for room for a
 * full skb, a quarter avoids stop/wake flapping at every completion
 */
#define VQP_WAKE_DIV		4
/* pending zerocopy buffers are found by skb address in a hash: 2^8 buckets */
#define VQP_ZC_HASH_BITS	8
/* a cq entry with bit 0 set is a zerocopy record, otherwise the original skb */
#define VQP_CQ_ZC_TAG		1UL
/* module exit polls for zerocopy buffers still downstream every 10 ms */
#define VQP_ZC_WAIT_STEP_MS	10

static DEFINE_HASHTABLE(vqp_zc_hash, VQP_ZC_HASH_BITS);
static DEFINE_SPINLOCK(vqp_zc_lock);
static atomic_t vqp_zc_live = ATOMIC_INIT(0);	/* records in the hash, all pairs */

/* ---- coalesced interrupts ------------------------------------------------------------- */

/*
 * Schedule the front's NAPI from any context. From a task (genl write, a socket freeing a
 * zerocopy skb) the raised softirq would otherwise wait for the next interrupt: run it at
 * local_bh_enable(), as drivers do when they kick NAPI from process context.
 */
void vqp_napi_kick(struct vqp_queue *q)
{
	if (in_task() && !irqs_disabled()) {
		local_bh_disable();
		napi_schedule(&q->napi);
		local_bh_enable();
	} else {
		napi_schedule(&q->napi);
	}
}

static void vqp_irq_fire(struct vqp_irq *irq)
{
	if (atomic_xchg(&irq->pending, 0) == 0)
		return;
	vqp_stat_add(irq->q, irq->tx ? VQPAIR_QSTAT_TX_EVENTS : VQPAIR_QSTAT_RX_EVENTS, 1);
	vqp_napi_kick(irq->q);
}

static enum hrtimer_restart vqp_irq_timer(struct hrtimer *t)
{
	struct vqp_irq *irq = container_of(t, struct vqp_irq, timer);

	atomic_set(&irq->armed, 0);
	vqp_irq_fire(irq);
	return HRTIMER_NORESTART;
}

/*
 * One completion (tx) or received packet (rx). Fires at once when frames are reached,
 * otherwise after usecs (ethtool -C semantics: whichever comes first). With usecs 0 the
 * caller flushes when the producer goes idle, so frames > 1 never strands a packet.
 */
void vqp_irq_event(struct vqp_irq *irq)
{
	struct vqp_queue *q = irq->q;
	u32 frames = vqp_knob(q, irq->tx ? VQPAIR_KNOB_TX_FRAMES : VQPAIR_KNOB_RX_FRAMES);
	u32 usecs = vqp_knob(q, irq->tx ? VQPAIR_KNOB_TX_USECS : VQPAIR_KNOB_RX_USECS);

	if ((u32)atomic_inc_return(&irq->pending) >= frames) {
		vqp_irq_fire(irq);
		return;
	}
	if (usecs && !atomic_xchg(&irq->armed, 1))
		hrtimer_start(&irq->timer, ns_to_ktime((u64)usecs * NSEC_PER_USEC), HRTIMER_MODE_REL);
}

void vqp_irq_idle(struct vqp_irq *irq)
{
	u32 usecs = vqp_knob(irq->q, irq->tx ? VQPAIR_KNOB_TX_USECS : VQPAIR_KNOB_RX_USECS);

	if (!usecs)
		vqp_irq_fire(irq);
}

void vqp_irq_init(struct vqp_irq *irq, struct vqp_queue *q, bool tx)
{
	irq->q = q;
	irq->tx = tx;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&irq->timer, vqp_irq_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#else
	hrtimer_init(&irq->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	irq->timer.function = vqp_irq_timer;
#endif
}

/* ---- completions ------------------------------------------------------------------------ */

static void vqp_cq_push(struct vqp_queue *q, void *ent)
{
	/* cq holds VQP_RING_MAX >= tx-ring-size >= inflight descriptors: cannot be full */
	if (WARN_ON_ONCE(ptr_ring_produce_any(&q->cq, ent)))
		return;
	vqp_irq_event(&q->tx_irq);
}

void vqp_complete_skb(struct vqp_queue *q, struct sk_buff *skb)
{
	vqp_cb(skb)->t_done_ns = ktime_get_ns();
	vqp_cq_push(q, skb);
}

static void vqp_zc_destructor(struct sk_buff *skb)
{
	struct vqp_zc *zc, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&vqp_zc_lock, flags);
	hash_for_each_possible(vqp_zc_hash, zc, node, (unsigned long)skb) {
		if (zc->skb == skb) {
			hash_del(&zc->node);
			found = zc;
			break;
		}
	}
	spin_unlock_irqrestore(&vqp_zc_lock, flags);
	if (!found)
		return;
	atomic_dec(&vqp_zc_live);
	if (!found->q) {
		kfree(found);
		return;
	}
	found->t_done_ns = ktime_get_ns();
	vqp_cq_push(found->q, (void *)((unsigned long)found | VQP_CQ_ZC_TAG));
}

static void vqp_cq_entry(void *ent, u32 *len, u64 *t_xmit, u64 *t_done)
{
	if ((unsigned long)ent & VQP_CQ_ZC_TAG) {
		struct vqp_zc *zc = (void *)((unsigned long)ent & ~VQP_CQ_ZC_TAG);

		*len = zc->len;
		*t_xmit = zc->t_xmit_ns;
		*t_done = zc->t_done_ns;
	} else {
		struct vqp_cb *cb = vqp_cb(ent);

		*len = cb->len;
		*t_xmit = cb->t_xmit_ns;
		*t_done = cb->t_done_ns;
	}
}

void vqp_cq_free(struct vqp_queue *q, void *ent)
{
	if ((unsigned long)ent & VQP_CQ_ZC_TAG) {
		kfree((void *)((unsigned long)ent & ~VQP_CQ_ZC_TAG));
		vqp_stat_add(q, VQPAIR_QSTAT_ZC_PENDING, -1);
	} else {
		dev_consume_skb_any(ent);
	}
}

static void vqp_lat_record(struct vqp_queue *q, u64 ns)
{
	vqp_hist_add(q->lat_hist, ns);
	vqp_stat_add(q, VQPAIR_QSTAT_COMPL_SUM_NS, ns);
}

/* arm the completion timer for entries held back by the injected delay */
static void vqp_reap_later(struct vqp_queue *q, u64 wait_ns)
{
	atomic_inc(&q->tx_irq.pending);
	atomic_set(&q->tx_irq.armed, 1);
	hrtimer_start(&q->tx_irq.timer, ns_to_ktime(wait_ns), HRTIMER_MODE_REL);
}

/*
 * Reap TX completions of queue q: free the buffers, report them to BQL, wake the queue when
 * a quarter of the ring is free again. Called from the front's NAPI (tx-napi on) or its
 * xmit path (tx-napi off, as virtio_net's free_old_xmit_skbs). Softirq or BH-off context.
 */
void vqp_reap(struct vqp_queue *q, struct net_device *front)
{
	struct netdev_queue *txq = netdev_get_tx_queue(front, q->idx);
	u64 delay_ns = (u64)READ_ONCE(q->fault_delay_us) * NSEC_PER_USEC;
	u64 zc_hold_ns = (u64)READ_ONCE(q->fault_zc_hold_us) * NSEC_PER_USEC;
	u64 now = ktime_get_ns(), t_xmit, t_done, hold;
	unsigned int pkts = 0, bytes = 0;
	u32 len, ring;
	void *ent;

	spin_lock_bh(&q->reap_lock);
	while ((ent = __ptr_ring_peek(&q->cq))) {
		vqp_cq_entry(ent, &len, &t_xmit, &t_done);
		/* injected faults: in order, so an entry held back holds back those behind it */
		hold = delay_ns + (((unsigned long)ent & VQP_CQ_ZC_TAG) ? zc_hold_ns : 0);
		if (hold && t_done + hold > now) {
			vqp_reap_later(q, t_done + hold - now);
			break;
		}
		__ptr_ring_discard_one(&q->cq);
		vqp_lat_record(q, now > t_xmit ? now - t_xmit : 0);
		vqp_cq_free(q, ent);
		pkts++;
		bytes += len;
	}
	if (pkts) {
		atomic_sub(pkts, &q->inflight_desc);
		netdev_tx_completed_queue(txq, pkts, bytes);
	}
	spin_unlock_bh(&q->reap_lock);
	if (!pkts)
		return;
	vqp_stat_add(q, VQPAIR_QSTAT_TX_COMPLETED, pkts);
	vqp_stat_add(q, VQPAIR_QSTAT_COMPL_COUNT, pkts);
	/* pairs with the barrier after netif_tx_stop_queue() in vqp_front_xmit() */
	smp_mb();
	ring = vqp_knob(q, VQPAIR_KNOB_TX_RING_SIZE);
	if (netif_tx_queue_stopped(txq) &&
	    atomic_read(&q->inflight_desc) + ring / VQP_WAKE_DIV <= ring) {
		netif_tx_wake_queue(txq);
		vqp_stat_add(q, VQPAIR_QSTAT_TX_WAKE, 1);
	}
}

/* hand skb downstream under zc: its free (or orphan) by the stack completes it */
void vqp_zc_track(struct vqp_zc *zc, struct sk_buff *skb)
{
	unsigned long flags;

	skb_orphan(skb);
	skb->destructor = vqp_zc_destructor;
	atomic_inc(&vqp_zc_live);
	spin_lock_irqsave(&vqp_zc_lock, flags);
	hash_add(vqp_zc_hash, &zc->node, (unsigned long)skb);
	spin_unlock_irqrestore(&vqp_zc_lock, flags);
}

void vqp_zc_orphan(struct vqp_queue *q)
{
	struct vqp_zc *zc;
	unsigned long flags;
	int bkt;

	spin_lock_irqsave(&vqp_zc_lock, flags);
	hash_for_each(vqp_zc_hash, bkt, zc, node)
		if (zc->q == q)
			zc->q = NULL;
	spin_unlock_irqrestore(&vqp_zc_lock, flags);
}

bool vqp_zc_held(struct vqp_queue *q)
{
	struct vqp_zc *zc;
	unsigned long flags;
	bool held = false;
	int bkt;

	spin_lock_irqsave(&vqp_zc_lock, flags);
	hash_for_each(vqp_zc_hash, bkt, zc, node)
		if (zc->q == q)
			held = true;
	spin_unlock_irqrestore(&vqp_zc_lock, flags);
	return held;
}

/* module exit: buffers orphaned by a teardown still carry our destructor */
void vqp_zc_wait_all(void)
{
	while (atomic_read(&vqp_zc_live)) {
		pr_warn_ratelimited("vqpair: waiting for %d zerocopy buffers\n",
				    atomic_read(&vqp_zc_live));
		msleep(VQP_ZC_WAIT_STEP_MS);
	}
}
