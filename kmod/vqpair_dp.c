// SPDX-License-Identifier: GPL-2.0
/*
 * vqpair datapath: front xmit (driver side), backend worker (vhost side), completions,
 * coalesced "interrupts" and the front's NAPI. Modelled on veth.c (ptr_ring per queue,
 * NAPI budget) and drivers/vhost/net.c (worker weight, busyloop with a deadline, zerocopy
 * with a pending limit and a copy fallback).
 */
#include <linux/etherdevice.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include "vqpair_priv.h"

/* RX ring (back -> front): QEMU's virtio-net rx_queue_size default, not a knob */
#define VQP_RX_RING		256
/* fault injection: drop probability is given in parts per million */
#define VQP_PPM			1000000
/* while stalled (fault injection) the worker re-checks every 10 ms */
#define VQP_STALL_POLL_MS	10
/* teardown waits up to 2 s for zerocopy buffers still held downstream */
#define VQP_ZC_DRAIN_MS		2000
#define VQP_ZC_DRAIN_STEP_MS	10
/*
 * line rate: how far a line with a backlog catches up after its worker woke late (2 ms: a
 * scheduler slice, or a TCG vCPU's pause), and the timer slack of the worker's wait
 */
#define VQP_LINE_CATCHUP_NS	(2 * NSEC_PER_MSEC)
#define VQP_LINE_SLACK_NS	(5 * NSEC_PER_USEC)

/* ---- front xmit ------------------------------------------------------------------------ */

static void vqp_kick(struct vqp_queue *q)
{
	/* pairs with smp_mb() in vqp_worker_sleep(): either it sees our entry or we see notify */
	smp_mb();
	if (READ_ONCE(q->notify) && xchg(&q->notify, 0)) {
		wake_up_process(q->worker);
		vqp_stat_add(q, VQPAIR_QSTAT_KICKS, 1);
	}
}

static void vqp_inflight_peak(struct vqp_queue *q, struct netdev_queue *txq)
{
#ifdef CONFIG_BQL
	s64 infl = (s64)(txq->dql.num_queued - txq->dql.num_completed);

	if (infl > atomic64_read(&q->st[VQPAIR_QSTAT_TX_INFLIGHT_PEAK]))
		atomic64_set(&q->st[VQPAIR_QSTAT_TX_INFLIGHT_PEAK], infl);
#endif
}

netdev_tx_t vqp_front_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct vqp_pair *pair = vqp_pair_of(dev);
	u16 qi = skb_get_queue_mapping(skb);
	struct vqp_queue *q = &pair->q[qi];
	struct netdev_queue *txq = netdev_get_tx_queue(dev, qi);
	u32 ring = vqp_knob(q, VQPAIR_KNOB_TX_RING_SIZE);
	u32 len = skb->len;

	if (!vqp_knob(q, VQPAIR_KNOB_TX_NAPI))
		vqp_reap(q, dev);
	if ((u32)atomic_read(&q->inflight_desc) >= ring) {
		if (vqp_knob(q, VQPAIR_KNOB_TX_FULL_MODE) == VQPAIR_TX_FULL_DROP) {
			vqp_stat_add(q, VQPAIR_QSTAT_TX_DROP_RING_FULL, 1);
			dev_core_stats_tx_dropped_inc(dev);
			dev_kfree_skb_any(skb);
			return NETDEV_TX_OK;
		}
		/* only after tx-ring-size was lowered under traffic */
		netif_tx_stop_queue(txq);
		vqp_stat_add(q, VQPAIR_QSTAT_TX_STOP, 1);
		return NETDEV_TX_BUSY;
	}
	vqp_cb(skb)->t_xmit_ns = ktime_get_ns();
	vqp_cb(skb)->len = len;
	skb_tx_timestamp(skb);
	atomic_inc(&q->inflight_desc);
	/* account before the ring: once produced, the worker and NAPI on another CPU may
	 * complete it, and dql must never see a completion ahead of its sent_queue
	 */
	netdev_tx_sent_queue(txq, len);
	vqp_inflight_peak(q, txq);
	if (WARN_ON_ONCE(ptr_ring_produce(&q->txr, skb))) {
		spin_lock(&q->reap_lock);	/* dql completions are single-threaded */
		netdev_tx_completed_queue(txq, 1, len);
		spin_unlock(&q->reap_lock);
		atomic_dec(&q->inflight_desc);
		vqp_stat_add(q, VQPAIR_QSTAT_TX_DROP_NOMEM, 1);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	vqp_stat_add(q, VQPAIR_QSTAT_TX_PACKETS, 1);
	vqp_stat_add(q, VQPAIR_QSTAT_TX_BYTES, len);

	if (vqp_knob(q, VQPAIR_KNOB_TX_FULL_MODE) == VQPAIR_TX_FULL_STOP &&
	    (u32)atomic_read(&q->inflight_desc) >= ring) {
		netif_tx_stop_queue(txq);
		vqp_stat_add(q, VQPAIR_QSTAT_TX_STOP, 1);
		/* pairs with smp_mb() in vqp_reap(): a completion may have raced the stop */
		smp_mb();
		if ((u32)atomic_read(&q->inflight_desc) < ring) {
			netif_tx_start_queue(txq);
			vqp_stat_add(q, VQPAIR_QSTAT_TX_WAKE, 1);
		}
	}
	vqp_kick(q);
	return NETDEV_TX_OK;
}

/* ---- backend worker -------------------------------------------------------------------- */

static void vqp_back_rx(struct vqp_queue *q, struct net_device *back, struct sk_buff *skb)
{
	u32 len = skb->len;

	if (__dev_forward_skb(back, skb) != NET_RX_SUCCESS)
		return;	/* freed and counted in back's rx_dropped */
	skb_record_rx_queue(skb, q->idx);
	atomic64_inc(&q->back_rx_packets);
	atomic64_add(len, &q->back_rx_bytes);
	netif_receive_skb(skb);
}

static void vqp_deliver_copy(struct vqp_queue *q, struct net_device *back, struct sk_buff *skb)
{
	struct sk_buff *nskb = skb_copy(skb, GFP_ATOMIC);

	vqp_complete_skb(q, skb);
	if (!nskb) {
		vqp_stat_add(q, VQPAIR_QSTAT_TX_DROP_NOMEM, 1);
		return;
	}
	vqp_back_rx(q, back, nskb);
}

/*
 * Hand the front's own skb downstream. The TX completion waits for the stack to free or
 * orphan it (our destructor), which is what makes a slow consumer stall zerocopy senders.
 */
static void vqp_deliver_zc(struct vqp_queue *q, struct net_device *back, struct sk_buff *skb,
			   struct vqp_zc *zc)
{
	s64 pending;

	zc->q = q;
	zc->skb = skb;
	zc->len = vqp_cb(skb)->len;
	zc->t_xmit_ns = vqp_cb(skb)->t_xmit_ns;
	vqp_zc_track(zc, skb);

	vqp_stat_add(q, VQPAIR_QSTAT_ZC_PENDING, 1);
	vqp_stat_add(q, VQPAIR_QSTAT_ZC_SENT, 1);
	pending = atomic64_read(&q->st[VQPAIR_QSTAT_ZC_PENDING]);
	if (pending > atomic64_read(&q->st[VQPAIR_QSTAT_ZC_PENDING_PEAK]))
		atomic64_set(&q->st[VQPAIR_QSTAT_ZC_PENDING_PEAK], pending);
	vqp_back_rx(q, back, skb);
}

static bool vqp_fault_drop(struct vqp_queue *q)
{
	u32 ppm = READ_ONCE(q->fault_drop_ppm);

	return ppm && get_random_u32() % VQP_PPM < ppm;
}

static void vqp_backend_one(struct vqp_queue *q, struct net_device *back, struct sk_buff *skb)
{
	struct vqp_zc *zc = NULL;
	bool zerocopy;

	if (vqp_fault_drop(q)) {
		vqp_stat_add(q, VQPAIR_QSTAT_TX_DROP_FAULT, 1);
		vqp_complete_skb(q, skb);
		return;
	}
	if (!back || !(back->flags & IFF_UP)) {
		vqp_stat_add(q, VQPAIR_QSTAT_TX_DROP_PEER_DOWN, 1);
		vqp_complete_skb(q, skb);
		return;
	}
	/* delivered from here on (a copy that fails to allocate is counted as a drop) */
	vqp_hist_add(q->tx_delivery_hist, ktime_get_ns() - vqp_cb(skb)->t_xmit_ns);
	zerocopy = vqp_knob(q, VQPAIR_KNOB_ZEROCOPY);
	if (zerocopy && vqp_cb(skb)->len >= vqp_knob(q, VQPAIR_KNOB_ZEROCOPY_MIN_BYTES)) {
		if (atomic64_read(&q->st[VQPAIR_QSTAT_ZC_PENDING]) >=
		    vqp_knob(q, VQPAIR_KNOB_ZEROCOPY_MAX_PENDING))
			vqp_stat_add(q, VQPAIR_QSTAT_ZC_FALLBACKS, 1);
		else
			zc = kmalloc(sizeof(*zc), GFP_ATOMIC);
	}
	if (zc) {
		vqp_deliver_zc(q, back, skb, zc);
		return;
	}
	if (zerocopy)
		vqp_stat_add(q, VQPAIR_QSTAT_ZC_COPIED, 1);
	vqp_deliver_copy(q, back, skb);
}

/*
 * Line rate (debugfs line_rate_mbit): true when the line is free to take @len bytes now, and
 * then books its serialisation time (len * 8 / rate) on the line's clock. A line that went
 * idle (the ring ran empty) starts again now and banks nothing; one with a backlog keeps its
 * clock, so a worker woken late by its timer catches up (up to VQP_LINE_CATCHUP_NS) and the
 * rate holds on average whatever the wake-ups cost.
 */
static bool vqp_line_take(struct vqp_queue *q, u32 rate, u32 len, u64 now)
{
	u64 t = q->line_free_ns;

	if (t > now)
		return false;
	if (q->line_idle)
		t = now;
	else if (t + VQP_LINE_CATCHUP_NS < now)
		t = now - VQP_LINE_CATCHUP_NS;
	q->line_idle = false;
	/* bits / (Mbit/s) = us: len * 8 * 1000 / rate ns */
	q->line_free_ns = t + div_u64((u64)len * 8000, rate);
	return true;
}

/*
 * One worker run: at most backend-weight packets, as vhost_net's VHOST_NET_PKT_WEIGHT, and
 * with a line rate only those the line takes now. True when it stopped for the line: the
 * worker then waits for q->line_free_ns.
 */
static bool vqp_worker_run(struct vqp_queue *q)
{
	u32 weight = vqp_knob(q, VQPAIR_KNOB_BACKEND_WEIGHT);
	u32 rate = READ_ONCE(q->line_rate_mbit);
	struct net_device *back;
	struct sk_buff *skb;
	bool paced = false;
	u32 n = 0;

	vqp_stat_add(q, VQPAIR_QSTAT_WORKER_RUNS, 1);
	local_bh_disable();
	rcu_read_lock();
	back = rcu_dereference(q->pair->back);
	while (n < weight && (skb = __ptr_ring_peek(&q->txr))) {
		if (rate && !vqp_line_take(q, rate, skb->len, ktime_get_ns())) {
			paced = true;
			break;
		}
		__ptr_ring_discard_one(&q->txr);
		vqp_backend_one(q, back, skb);
		n++;
	}
	rcu_read_unlock();
	if (__ptr_ring_empty(&q->txr))
		vqp_irq_idle(&q->tx_irq);
	local_bh_enable();
	return paced;
}

/*
 * Wait until the line has sent what it took. kthread_stop() ends the wait early; a kick does
 * not (notify is clear while the worker runs): the line, not the ring, is the limit.
 */
static void vqp_line_wait(struct vqp_queue *q)
{
	ktime_t until = ns_to_ktime(q->line_free_ns);

	set_current_state(TASK_INTERRUPTIBLE);
	if (!kthread_should_stop())
		schedule_hrtimeout_range(&until, VQP_LINE_SLACK_NS, HRTIMER_MODE_ABS);
	__set_current_state(TASK_RUNNING);
}

/* vhost busyloop: poll the ring up to busyloop-us before sleeping; true when work came */
static bool vqp_busyloop(struct vqp_queue *q, u32 us)
{
	u64 end = ktime_get_ns() + (u64)us * NSEC_PER_USEC;

	vqp_stat_add(q, VQPAIR_QSTAT_BUSYLOOP_SPINS, 1);
	while (ktime_get_ns() < end && !need_resched() && !kthread_should_stop()) {
		if (!__ptr_ring_empty(&q->txr)) {
			vqp_stat_add(q, VQPAIR_QSTAT_BUSYLOOP_HITS, 1);
			return true;
		}
		cpu_relax();
	}
	vqp_stat_add(q, VQPAIR_QSTAT_BUSYLOOP_MISSES, 1);
	return false;
}

static void vqp_worker_sleep(struct vqp_queue *q, bool stall)
{
	set_current_state(TASK_INTERRUPTIBLE);
	WRITE_ONCE(q->notify, 1);
	/* pairs with smp_mb() in vqp_kick() */
	smp_mb();
	if (kthread_should_stop() || (!stall && !__ptr_ring_empty(&q->txr))) {
		WRITE_ONCE(q->notify, 0);
		__set_current_state(TASK_RUNNING);
		return;
	}
	schedule_timeout(stall ? msecs_to_jiffies(VQP_STALL_POLL_MS) : MAX_SCHEDULE_TIMEOUT);
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(q->notify, 0);
}

/*
 * With a line rate the worker is the line, and a line does not wait for the scheduler: at
 * normal priority its wake-ups for the line came a scheduler slice late whenever the
 * servers on its CPU ran, and everything on the ring waited with them, which no NIC's
 * serialisation does. It runs SCHED_FIFO (sched_set_fifo_low()) while a rate is set; it
 * sleeps between packets, so it takes the CPU only for the copies the line makes.
 */
static void vqp_line_sched(struct vqp_queue *q, bool line)
{
	if (line == q->line_fifo)
		return;
	if (line)
		sched_set_fifo_low(current);
	else
		sched_set_normal(current, 0);
	q->line_fifo = line;
}

static int vqp_worker(void *arg)
{
	struct vqp_queue *q = arg;

	while (!kthread_should_stop()) {
		bool stall = READ_ONCE(q->fault_stall);
		u32 busy = vqp_knob(q, VQPAIR_KNOB_BUSYLOOP_US);

		vqp_line_sched(q, READ_ONCE(q->line_rate_mbit) != 0);

		if (stall || __ptr_ring_empty(&q->txr)) {
			q->line_idle = true;
			if (!stall && busy && vqp_busyloop(q, busy))
				continue;
			vqp_worker_sleep(q, stall);
			continue;
		}
		if (vqp_worker_run(q))
			vqp_line_wait(q);
		cond_resched();
	}
	return 0;
}

/* ---- back xmit and front NAPI (RX direction) ------------------------------------------- */

netdev_tx_t vqp_back_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct vqp_pair *pair = vqp_pair_of(dev);
	struct vqp_queue *q = &pair->q[skb_get_queue_mapping(skb) % pair->nq];
	struct net_device *front = rcu_dereference_bh(pair->front);
	u32 len = skb->len;

	/* before the ring: once produced, the front's NAPI may own and free it */
	vqp_cb(skb)->t_xmit_ns = ktime_get_ns();
	skb_tx_timestamp(skb);
	if (!front || !netif_running(front) || ptr_ring_produce(&q->rxr, skb)) {
		vqp_stat_add(q, VQPAIR_QSTAT_RX_DROP_RING_FULL, 1);
		dev_core_stats_tx_dropped_inc(dev);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	atomic64_inc(&q->back_tx_packets);
	atomic64_add(len, &q->back_tx_bytes);
	vqp_irq_event(&q->rx_irq);
	if (!netdev_xmit_more())
		vqp_irq_idle(&q->rx_irq);
	return NETDEV_TX_OK;
}

static int vqp_poll(struct napi_struct *napi, int budget)
{
	struct vqp_queue *q = container_of(napi, struct vqp_queue, napi);
	struct net_device *front = napi->dev;
	struct sk_buff *skb;
	int done = 0;

	if (vqp_knob(q, VQPAIR_KNOB_TX_NAPI) ||
	    netif_tx_queue_stopped(netdev_get_tx_queue(front, q->idx)))
		vqp_reap(q, front);
	while (done < budget && (skb = __ptr_ring_consume(&q->rxr))) {
		u32 len = skb->len;

		done++;
		vqp_hist_add(q->rx_delivery_hist, ktime_get_ns() - vqp_cb(skb)->t_xmit_ns);
		if (__dev_forward_skb(front, skb) != NET_RX_SUCCESS)
			continue;
		skb_record_rx_queue(skb, q->idx);
		vqp_stat_add(q, VQPAIR_QSTAT_RX_PACKETS, 1);
		vqp_stat_add(q, VQPAIR_QSTAT_RX_BYTES, len);
		napi_gro_receive(napi, skb);
	}
	if (done < budget && napi_complete_done(napi, done) && !ptr_ring_empty(&q->rxr))
		napi_schedule(napi);
	return done;
}

void vqp_knob_applied(struct vqp_queue *q, int knob)
{
	if (knob == VQPAIR_KNOB_NAPI_WEIGHT)
		WRITE_ONCE(q->napi.weight, vqp_knob(q, knob));
	/* a larger ring may let a stopped queue go: let NAPI re-evaluate */
	if (knob == VQPAIR_KNOB_TX_RING_SIZE)
		vqp_napi_kick(q);
}

/* ---- setup and teardown ---------------------------------------------------------------- */

static void vqp_skb_destroy(void *ptr)
{
	kfree_skb(ptr);
}

int vqp_queues_init(struct vqp_pair *pair, struct net_device *front)
{
	int i, err = -ENOMEM;

	pair->q = kcalloc(pair->nq, sizeof(*pair->q), GFP_KERNEL);
	if (!pair->q)
		return -ENOMEM;
	for (i = 0; i < pair->nq; i++) {
		struct vqp_queue *q = &pair->q[i];

		q->pair = pair;
		q->idx = i;
		vqp_knobs_default(q);
		spin_lock_init(&q->reap_lock);
		if (ptr_ring_init(&q->txr, VQP_RING_MAX, GFP_KERNEL))
			goto err_rings;
		if (ptr_ring_init(&q->cq, VQP_RING_MAX, GFP_KERNEL))
			goto err_rings;
		if (ptr_ring_init(&q->rxr, VQP_RX_RING, GFP_KERNEL))
			goto err_rings;
		vqp_irq_init(&q->tx_irq, q, true);
		vqp_irq_init(&q->rx_irq, q, false);
		netif_napi_add_weight(front, &q->napi, vqp_poll,
				      vqp_knob(q, VQPAIR_KNOB_NAPI_WEIGHT));
		q->worker = kthread_run(vqp_worker, q, "vqpair%u-%d", pair->id, i);
		if (IS_ERR(q->worker)) {
			err = PTR_ERR(q->worker);
			q->worker = NULL;
			goto err_rings;
		}
	}
	return 0;

err_rings:
	vqp_queues_stop(pair);
	vqp_queues_free(pair);
	return err;
}

/*
 * Stop every producer of work: workers first (they feed cq and the back), then wait for
 * zerocopy buffers still downstream, then the timers they may arm. Called once the devices
 * are closed (NAPI disabled) or on a failed newlink. Idempotent.
 */
void vqp_queues_stop(struct vqp_pair *pair)
{
	int i, waited;

	for (i = 0; i < pair->nq; i++) {
		struct vqp_queue *q = &pair->q[i];

		if (q->worker) {
			kthread_stop(q->worker);
			q->worker = NULL;
		}
	}
	for (i = 0; i < pair->nq; i++) {
		struct vqp_queue *q = &pair->q[i];

		if (!q->tx_irq.q)
			continue;	/* newlink failed before this queue was set up */
		for (waited = 0; vqp_zc_held(q) && waited < VQP_ZC_DRAIN_MS;
		     waited += VQP_ZC_DRAIN_STEP_MS)
			msleep(VQP_ZC_DRAIN_STEP_MS);
		vqp_zc_orphan(q);
		hrtimer_cancel(&q->tx_irq.timer);
		hrtimer_cancel(&q->rx_irq.timer);
		if (q->napi.poll) {
			netif_napi_del(&q->napi);
			q->napi.poll = NULL;
		}
	}
}

void vqp_queues_free(struct vqp_pair *pair)
{
	int i;
	void *ent;

	if (!pair->q)
		return;
	for (i = 0; i < pair->nq; i++) {
		struct vqp_queue *q = &pair->q[i];

		if (q->cq.queue)
			while ((ent = ptr_ring_consume(&q->cq)))
				vqp_cq_free(q, ent);
		ptr_ring_cleanup(&q->txr, vqp_skb_destroy);
		ptr_ring_cleanup(&q->cq, NULL);
		ptr_ring_cleanup(&q->rxr, vqp_skb_destroy);
	}
	kfree(pair->q);
	pair->q = NULL;
}

