// SPDX-License-Identifier: GPL-2.0-only
/*
 * decide_signals: what a control unit's laws see (decide.h: decide_signals()): the sample
 * of a device mapped onto law_signals per unit, and those signals as the JSON object of
 * events.
 */
#include <math.h>

#include "decide.h"
#include "dev.h"
#include "law.h"
#include "vqp.h"
#include "vqpair.h"

/* a queue's rate of counter @c, LAW_UNKNOWN when it has none this interval */
static double qrate(const struct queue *q, enum qctr c)
{
	if (!q || !(q->present & (1u << c)) || !q->valid)
		return LAW_UNKNOWN;
	return q->rate[c];
}

static double vrate(const struct vqp_queue *v, int id)
{
	if (!v || !v->valid)
		return LAW_UNKNOWN;
	return v->rate[id];
}

/* first known of @a, @b */
static double pick(double a, double b)
{
	return law_known(a) ? a : b;
}

bool decide_signals(const struct device *d, unsigned int q, struct law_signals *sig)
{
	const struct queue *tq = q < d->n_tx ? &d->txq[q] : NULL;
	const struct queue *rq = q < d->n_rx ? &d->rxq[q] : NULL;
	const struct vqp_queue *v = vqp_queue(d, q);
	bool one_tx = d->n_tx == 1 && d->dvalid;
	bool valid = d->dvalid;

	sig->interval_ns = d->q_interval_ns ? d->q_interval_ns : d->interval_ns;
	/* TX: netdev qstats / ethtool -S, else vqpair genl, else the device when it has one */
	sig->tx_bytes_per_s = pick(pick(qrate(tq, QC_BYTES), vrate(v, VQPAIR_QSTAT_TX_BYTES)),
				   one_tx ? d->drate[DC_TX_BYTES] : LAW_UNKNOWN);
	sig->tx_packets_per_s = pick(pick(qrate(tq, QC_PACKETS),
					  vrate(v, VQPAIR_QSTAT_TX_PACKETS)),
				     one_tx ? d->drate[DC_TX_PACKETS] : LAW_UNKNOWN);
	sig->tx_stop_per_s = pick(qrate(tq, QC_TX_STOP), vrate(v, VQPAIR_QSTAT_TX_STOP));
	sig->tx_wake_per_s = pick(qrate(tq, QC_TX_WAKE), vrate(v, VQPAIR_QSTAT_TX_WAKE));
	sig->tx_drops_per_s = vrate(v, VQPAIR_QSTAT_TX_DROP_RING_FULL);
	sig->bql_inflight_bytes = tq && (tq->bql_present & (1u << BQL_INFLIGHT)) ?
		(double)tq->bql[BQL_INFLIGHT] : LAW_UNKNOWN;
	sig->qdisc_backlog_bytes = tq ? tq->qdisc_backlog_bytes : LAW_UNKNOWN;
	sig->qdisc_fifo = tq && tq->qdisc_fifo;
	/*
	 * BQL held the stack (law.h bql_limited): at the sample, inflight was within a packet
	 * of the dql limit while the qdisc had data. One instantaneous reading per tick: a
	 * queue BQL limits sits at its limit most of the time, an unlimited one does not.
	 */
	sig->bql_limit_bytes = tq && (tq->bql_present & (1u << BQL_LIMIT)) ?
		(double)tq->bql[BQL_LIMIT] : LAW_UNKNOWN;
	sig->bql_limited = false;
	if (tq && (tq->bql_present & (1u << BQL_LIMIT)) &&
	    (tq->bql_present & (1u << BQL_INFLIGHT)) && law_known(sig->qdisc_backlog_bytes) &&
	    sig->qdisc_backlog_bytes > 0) {
		double pkt = d->mtu + 14.0;

		if (law_known(sig->tx_bytes_per_s) && law_known(sig->tx_packets_per_s) &&
		    sig->tx_packets_per_s > 0)
			pkt = fmax(pkt, sig->tx_bytes_per_s / sig->tx_packets_per_s);
		sig->bql_limited = (double)tq->bql[BQL_INFLIGHT] + pkt >= (double)tq->bql[BQL_LIMIT];
	}
	sig->capacity_bytes_per_s = LAW_UNKNOWN;
	/* RX / polling: events are the front's RX "interrupts" (vqpair rx-events) */
	sig->rx_packets_per_s = pick(qrate(rq, QC_PACKETS), vrate(v, VQPAIR_QSTAT_RX_PACKETS));
	sig->events_per_s = vrate(v, VQPAIR_QSTAT_RX_EVENTS);
	/* vqpair: the front's RX delivery p99 (peer xmit -> stack), which holds the RX hold */
	sig->latency_p99_ns = v && v->valid ? v->rx_delivery_p99_ns : LAW_UNKNOWN;
	sig->busyloop_hits_per_s = vrate(v, VQPAIR_QSTAT_BUSYLOOP_HITS);
	sig->busyloop_misses_per_s = vrate(v, VQPAIR_QSTAT_BUSYLOOP_MISSES);
	sig->worker_runs_per_s = vrate(v, VQPAIR_QSTAT_WORKER_RUNS);
	sig->tx_events_per_s = vrate(v, VQPAIR_QSTAT_TX_EVENTS);
	/* zerocopy */
	sig->zc_sent_per_s = vrate(v, VQPAIR_QSTAT_ZC_SENT);
	sig->zc_fallbacks_per_s = vrate(v, VQPAIR_QSTAT_ZC_FALLBACKS);
	sig->zc_pending = v && v->valid ? v->rate[VQPAIR_QSTAT_ZC_PENDING] : LAW_UNKNOWN;
	sig->zc_completion_ns = v && v->valid ? v->compl_mean_ns : LAW_UNKNOWN;
	sig->tx_ring_size = v && v->knob[VQPAIR_KNOB_TX_RING_SIZE] ?
		(double)v->knob[VQPAIR_KNOB_TX_RING_SIZE] : LAW_UNKNOWN;

	if (tq && tq->present && !tq->valid)
		valid = false;
	if (rq && rq->present && !rq->valid)
		valid = false;
	if (v && !v->valid)
		valid = false;
	sig->valid = valid;
	return valid;
}

json_t *decide_signals_json(const struct law_signals *s)
{
	const struct {
		const char *name;
		double v;
	} f[] = {
		{ "tx_bytes_per_s", s->tx_bytes_per_s },
		{ "tx_packets_per_s", s->tx_packets_per_s },
		{ "tx_stop_per_s", s->tx_stop_per_s },
		{ "tx_wake_per_s", s->tx_wake_per_s },
		{ "tx_drops_per_s", s->tx_drops_per_s },
		{ "bql_inflight_bytes", s->bql_inflight_bytes },
		{ "qdisc_backlog_bytes", s->qdisc_backlog_bytes },
		{ "bql_limit_bytes", s->bql_limit_bytes },
		{ "capacity_bytes_per_s", s->capacity_bytes_per_s },
		{ "rx_packets_per_s", s->rx_packets_per_s },
		{ "events_per_s", s->events_per_s },
		{ "latency_p99_ns", s->latency_p99_ns },
		{ "busyloop_hits_per_s", s->busyloop_hits_per_s },
		{ "busyloop_misses_per_s", s->busyloop_misses_per_s },
		{ "worker_runs_per_s", s->worker_runs_per_s },
		{ "tx_events_per_s", s->tx_events_per_s },
		{ "zerocopy_sent_per_s", s->zc_sent_per_s },
		{ "zerocopy_fallbacks_per_s", s->zc_fallbacks_per_s },
		{ "zerocopy_pending", s->zc_pending },
		{ "completion_mean_ns", s->zc_completion_ns },
		{ "tx_ring_size", s->tx_ring_size },
	};
	json_t *o = json_pack("{s:b, s:I, s:b, s:b}", "valid", s->valid,
			      "interval_ns", (json_int_t)s->interval_ns,
			      "bql_limited", s->bql_limited, "qdisc_fifo", s->qdisc_fifo);
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (law_known(f[i].v) && isfinite(f[i].v))
			json_object_set_new(o, f[i].name, json_real(f[i].v));
	return o;
}
