/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plant: models of what the laws control, run on a fake clock (no sleeps, no real time), each
 * with an optimum that is known in closed form so a closed-loop test can assert against it.
 * A plant is advanced by one control interval and reports the interval's law_signals the way
 * the daemon's sampler would (rates per second, gauges as interval means).
 */
#ifndef VQ_TEST_PLANT_H
#define VQ_TEST_PLANT_H

#include <stdbool.h>
#include <stdint.h>

#include "law.h"

/* simulation step of the time-stepped plants: finer than any period they model */
#define PLANT_DT_NS		10000ULL

/*
 * TX queue: a qdisc fed at offered_bytes_per_s, a BQL-limited driver queue (dql at its
 * limit_max under backlog), and a device that drains drain_bytes_per_s and reports
 * completions after compl_frames packets or compl_period_ns after the first one sent
 * (tx-frames / tx-usecs coalescing). The stack refills the driver queue only on completions
 * once it stopped, so a limit under drain x completion period starves the wire.
 */
struct plant_txq {
	double drain_bytes_per_s;
	double offered_bytes_per_s;
	uint32_t pkt_bytes;
	uint64_t compl_period_ns;
	uint32_t compl_frames;
	double qdisc_cap_bytes;
	int64_t limit_bytes;		/* knob: BQL limit_max */
	/* as Linux: BQL's stops are not in tx-stop, only in bql_limited (law.h) */
	bool hide_stack_stops;
	/* with hidden stops: "dql" sits at the cap in every interval (bursty completions) */
	bool dql_always_capped;
	/* state */
	uint64_t now_ns;
	double arrive_credit;
	uint64_t qdisc_pkts;
	double inflight_bytes, unsent_bytes, sent_bytes;	/* sent: not yet completed */
	uint64_t compl_due_ns;		/* 0: timer not armed */
	bool stopped;
	/* truth of the last interval, for assertions (the laws never see these) */
	double delay_mean_ns;		/* mean unsent bytes / drain rate */
	double starved_ns;		/* wire idle while the qdisc held packets */
};

void plant_txq_init(struct plant_txq *p);
void plant_txq_run(struct plant_txq *p, uint64_t interval_ns, struct law_signals *sig);
/* Completion period the device imposes: min(timer, frames x packet / drain). */
double plant_txq_period_ns(const struct plant_txq *p);
/* L* = D x P x (1 + headroom) + packet if P > T, else D x T: see law_qlimit.c */
double plant_txq_optimum_bytes(const struct plant_txq *p, uint64_t target_ns, double headroom);

/*
 * Polling: packets arrive at pkts_per_s; a hold of u gathers 1 + eta x lambda x u packets per
 * event, but at most rx-frames; p99 = base_ns + u (the first packet of a batch waits the whole
 * hold; a count that ends batches first shortens waits, ignored: it only helps). The hold is
 * rx-usecs, or gro-flush-timeout while defer-hard-irqs > 0. Busyloop: a fraction short_frac
 * of the gaps between packets is uniform in [0, short_gap_us], the rest outlast any spin.
 */
struct plant_poll {
	double pkts_per_s;
	double eta;
	double base_ns;
	double short_frac;
	double short_gap_us;
	int64_t rx_usecs, gro_flush_timeout_ns, defer_hard_irqs, busyloop_us;	/* knobs */
	int64_t rx_frames;		/* knob; 0: the device has no frames limit */
	bool napi_mode;			/* hold = gro-flush-timeout, not rx-usecs */
	bool tx_known;			/* tx_packets_per_s = pkts_per_s (ping-pong), else unknown */
};

void plant_poll_run(const struct plant_poll *p, uint64_t interval_ns, struct law_signals *sig);
/* u* = clamp((lambda / B - 1) / (lambda eta), 0, T - base), in ns */
double plant_poll_hold_optimum_ns(const struct plant_poll *p, double budget_per_s,
				  double target_ns);
/* argmax of J(s) = W h(s) - E[spin(s)]: short_gap_us if J(short_gap_us) > 0, else 0 */
double plant_poll_busyloop_optimum_us(const struct plant_poll *p, double hit_value_us);

/*
 * Zerocopy: eligible sends (size >= zerocopy-min-bytes) at sends_per_s go zerocopy while
 * fewer than max-pending are pending, else fall back to a copy. The consumer frees pending
 * buffers at min(consumer_per_s, pending / base_ns): completion latency = max(base,
 * pending / mu), growing with pending behind a slow consumer. Pending buffers hold TX
 * descriptors: with fewer than 19 left free the queue stops (head-of-line) as virtio_net does.
 */
struct plant_zc {
	double sends_per_s;
	uint32_t send_bytes;
	double consumer_per_s;
	double base_ns;
	uint32_t ring_size;
	bool report_ring;		/* the signals carry ring_size (vqpair reports it) */
	double sock_limit;		/* senders stop while this many buffers are pending (TCP
					 * small queues count a zerocopy buffer until it completes);
					 * 0: no such limit */
	int64_t zerocopy, max_pending, min_bytes;	/* knobs */
	double pending;
	double stalled_ns;		/* truth: time the queue was stalled last interval */
};

void plant_zc_run(struct plant_zc *p, uint64_t interval_ns, struct law_signals *sig);
/* Optimum: zerocopy on with M* = mu T if the consumer is slower than the sends and mu T >=
 * @min_pending, off if mu T < @min_pending; with a fast consumer M* = lambda T. */
void plant_zc_optimum(const struct plant_zc *p, double target_ns, int64_t min_pending,
		      int64_t *zerocopy, double *max_pending);

/*
 * Measurement noise: every known rate and gauge of @sig times (1 + u), u uniform in
 * [-frac, frac] from a xorshift64 generator in *seed (deterministic: same seed, same run).
 */
void plant_jitter(struct law_signals *sig, uint64_t *seed, double frac);

/*
 * Closed-loop bookkeeping: knob values and step directions per tick, for assertions on
 * bounds, convergence and reversals. Ticks index from 0.
 */
#define TRACE_MAX_TICKS		1024
struct trace {
	int64_t val[TRACE_MAX_TICKS][LK_NUM];	/* values after the tick's steps */
	int8_t dir[TRACE_MAX_TICKS][LK_NUM];	/* +1 / -1 step at that tick, 0 none */
	uint32_t n;
	uint32_t steps, rollbacks;
};

void trace_record(struct trace *t, const struct law_state *st, const struct law_step *done,
		  int ndone);
/* direction reversals of knob @k among the steps of ticks [from, to) */
uint32_t trace_reversals(const struct trace *t, enum law_knob k, uint32_t from, uint32_t to);
/* first tick in [from, to) after which @k stays within @tol (relative; absolute when the
 * target is 0) of @target through to - 1; @to when it never does */
uint32_t trace_settled_at(const struct trace *t, enum law_knob k, uint32_t from, uint32_t to,
			  double target, double tol);
/* true when every recorded value of every present knob is inside the policy's bounds */
bool trace_in_bounds(const struct trace *t, const struct law_policy *pol);

#endif
