// SPDX-License-Identifier: GPL-2.0-only
/*
 * law_qlimit: how many bytes one TX queue may hold in the driver: BQL limit_max/limit_min
 * (include/linux/dynamic_queue_limits.h, Documentation/ABI/testing/sysfs-class-net-queues),
 * and on vqpair the tx-ring-size and tx-full-mode.
 *
 * Law. D = drain rate in bytes/s (the line rate, else the peak rate seen, trusted once the
 * queue has held a queue: stopped, backlogged, or 4 packets in flight; until then nothing
 * moves), T = the policy's delay target, P = the completion period learned while starving,
 * H = headroom:
 *
 *	L* = max(D * T, D * P * (1 + H) + S)
 *	limit_max -> L*,  limit_min -> min(limit_min, L*)
 *
 * D * T is the queue that drains in T (queueing delay = inflight / D <= T). D * P is the least
 * a queue needs so the device never runs dry between two completions: the stack refills the
 * driver queue only when completions free room; S (mean packet) because a completion frees
 * whole packets, so the one on the wire still counts in inflight. The queue is starving when
 * it stops (tx-stop, or BQL holding the stack: bql_limited) while the qdisc holds data, it
 * sends below QL_SATURATED of D, and dql's own limit sits at limit_max (when known): the
 * cap is then the bottleneck and throughput = L / P, so P = L / rate, learned after two
 * starving intervals at one limit (a load drop, or the refill after a step, looks so for
 * one). P is forgotten when the packet size moves by more than QL_PKT_CONTEXT (a completion
 * period is a frames count times a packet size, or a timer), so a stale floor does not keep
 * a queue long; and when vqpair's zerocopy knob moves: a zerocopy buffer completes when its
 * receiver frees it, so a P learned with zerocopy on behind a slow consumer is that
 * consumer's hold, not the device's completion period, and says nothing once it is off.
 * limit_min is only ever lowered: dql raises its own limit on starvation.
 * Behind one FIFO qdisc (pfifo_fast, pfifo, bfifo: law.h qdisc_fifo) the D * T term is
 * dropped and limit_max is never cut: every packet waits behind the qdisc's backlog plus
 * the driver's inflight, whose sum the senders set (TCP small queues, the qdisc's limit),
 * so a cut only moves bytes from the driver into the qdisc; it shortens no request's wait
 * and can starve the queue. The delay target binds behind a qdisc that lets a sparse flow
 * pass a backlog (fq_codel, as systemd sets net.core.default_qdisc; fq; cake) or none.
 * Without a line rate D is the best tick seen, and a tick under 95% of it may be jitter, not
 * starvation; so every raise of a capped limit is a probe that must raise the rate (see
 * ql_probe()), and one that does not forgets P and stops starvation readings at that level.
 * A queue that sends at D at limit L is not starving at L, so the floor never asks for more
 * than L then: a P learned behind a completion timer is too long once the rate fills
 * frames-bound completions.
 *
 * Stability: L* does not depend on L except through P, which is measured only while starving
 * and only raises L out of starvation, after which it is not re-measured; so the map L -> L*
 * has no loop gain and the loop is a bounded walk (factor <= 2 per step, guard.c) to a fixed
 * point in log2(L0 / L*) steps; the guard's hysteresis band absorbs rate jitter. When the
 * floor exceeds D * T the delay target is infeasible: throughput wins and the reason says so.
 */
#include <errno.h>
#include <string.h>

#include "law.h"

/* sending at >= 95% of the drain rate is "saturated": rate estimates jitter by a few % */
#define QL_SATURATED		0.95
/* 10% headroom over the starvation floor: completion timers fire late by a few us */
#define QL_HEADROOM		0.10
/* a packet size change beyond 2x changes a frames-bound completion period: relearn it */
#define QL_PKT_CONTEXT		2.0
/* capacity estimate decays 0.1% per tick: forgets a faster past link in ~1000 ticks */
#define QL_PEAK_DECAY		0.999
/* a queue stopped with BQL inflight under half its limit is stopped by its ring */
#define QL_RING_STOP_FRAC	0.5
/* two starving intervals at one limit: a load drop or a step's refill looks so for one */
#define QL_STARVE_CONFIRM	2
/* capped without a line rate: assume the wire could take this much more than it got */
#define QL_PROBE_FACTOR		2.0
/* rates from one interval's counters are good to about 2% */
#define QL_RATE_NOISE		0.02
/* ... on a host; a VM's line reads up to 6-7% off its mean in a tick (TCG bench), so a
 * tick may read 15% under the best tick of the same level */
#define QL_RATE_JITTER		0.15
/* a probe's raise is judged once it reaches 1 + 2 x the jitter: a third of it then shows */
#define QL_PROBE_JUDGE		(1 + 2 * QL_RATE_JITTER)
/* 1% of the wire lost to starvation costs as much as a whole target of extra delay:
 * throughput binds first */
#define QL_STARVE_WEIGHT	100.0
/* packets in flight that make a queue: one or two are the frame on the wire and the next */
#define QL_QUEUE_PKTS		4
#define NS_PER_S		1e9

struct ql_view {
	double drain_bytes_per_s;	/* D */
	double seen_bytes_per_s;	/* D before a probe raised it: the line rate, or the peak */
	double pkt_bytes;		/* mean packet size this interval, NaN if idle */
	double delay_ns;		/* inflight / D */
	bool starving;
	bool saturated;
	bool capped;			/* dql's limit pinned at limit_max: dql wants more */
	bool rate_is_drain;		/* D is a line rate, or a peak the queue was full at */
	bool fifo;			/* one FIFO qdisc in front (law.h qdisc_fifo) */
};

/*
 * A probe from about this rate did not raise it: no new probe until the rate leaves the
 * level, above it by more than a tick's jitter (more wire) or under half of it (a cut made
 * the queue starve).
 */
static bool ql_probe_spent(const struct law_learn *l, double tx)
{
	return l->ql_probe_failed_rate > 0 && tx >= l->ql_probe_failed_rate / 2 &&
		tx <= l->ql_probe_failed_rate * (1 + QL_RATE_JITTER);
}

/*
 * The wire, not the cap, sets this rate: a raise of limit_max did not raise it. At a limit
 * at least the failed probe's start that is proven for any rate of the level; under it
 * (the law cut since) for rates within QL_RATE_JITTER of the failed rate (the best tick
 * at the probe's start), so that a cut that costs more than a tick's jitter is still seen
 * as starvation.
 */
static bool ql_wire_binds(const struct law_learn *l, int64_t lmax, double tx)
{
	if (!ql_probe_spent(l, tx))
		return false;
	return lmax >= l->ql_probe_failed_limit_bytes ||
		tx >= l->ql_probe_failed_rate * (1 - QL_RATE_JITTER);
}

/*
 * May the law probe above a capped limit (see ql_observe())? Every raise of a capped
 * limit_max is judged as a probe, whether the probe or a starvation floor asked for it,
 * once limit_max stands QL_PROBE_JUDGE above the probe's start (smaller raises add up
 * first). It pays when the rate grows past the best rate seen at the start by a third of
 * the raise, or by a tick's jitter (QL_RATE_JITTER) where the raise is bigger: a cap that
 * binds moves the rate with it, and a jittery tick must neither pass for a gain nor hide
 * one. One that does not pay says the wire, not the cap, binds (dql also sits at its cap
 * when completions are merely bursty, or when a line takes packets one by one). Then the
 * floor learned from those "starving" ticks is forgotten (L / rate was the queue's delay,
 * not a completion period), and neither a probe nor a starvation reading follows until the
 * rate leaves that level: above it (more wire), or under half of it (a cut made the queue
 * starve). Records the probe it allows.
 */
static bool ql_probe(const struct law_state *st, struct law_learn *l, double tx)
{
	int64_t lmax = st->knob[LK_BQL_LIMIT_MAX];
	double raise = l->ql_probe_limit_bytes ? (double)lmax / l->ql_probe_limit_bytes : 0;

	/*
	 * A raise under QL_PROBE_JUDGE is not judged yet: the jitter would decide. Nor is one
	 * from a limit whose best tick sent under QL_RATE_JITTER of the peak: that shortfall is
	 * no jitter, the cap starved the queue (a CPU-bound sender may take longer than a tick
	 * to fill a bigger limit), and its floor stands.
	 */
	if (raise >= QL_PROBE_JUDGE) {
		/* a cap that binds moves the rate with it: a third of the raise, up to the jitter */
		if (l->ql_probe_rate < (1 - QL_RATE_JITTER) * l->ql_peak_bytes_per_s) {
			/* deep starvation: not judged, the floor stands */
		} else if (tx < l->ql_probe_rate * (1 + fmin(QL_RATE_JITTER, (raise - 1) / 3))) {
			l->ql_probe_failed_rate = l->ql_probe_rate;
			l->ql_probe_failed_limit_bytes = l->ql_probe_limit_bytes;
			l->ql_period_ns = 0;
			l->ql_starve_ticks = 0;
		} else {
			l->ql_probe_failed_rate = 0;
		}
		l->ql_probe_limit_bytes = 0;
	} else if (l->ql_probe_limit_bytes && lmax < l->ql_probe_limit_bytes) {
		l->ql_probe_limit_bytes = 0;	/* cut before it was applied: not judged */
	}
	if (ql_probe_spent(l, tx)) {
		/* the level's best tick: one tick's jitter over it must not reopen probes */
		l->ql_probe_failed_rate = fmax(l->ql_probe_failed_rate, tx);
		return false;
	}
	if (!l->ql_probe_limit_bytes) {
		l->ql_probe_limit_bytes = lmax;
		l->ql_probe_rate = tx;
	}
	if (lmax == l->ql_probe_limit_bytes)
		l->ql_probe_rate = fmax(l->ql_probe_rate, tx);
	return true;
}

static void ql_observe(const struct law_state *st, const struct law_signals *sig,
		       struct law_learn *learn, struct ql_view *v)
{
	double tx = law_known(sig->tx_bytes_per_s) ? sig->tx_bytes_per_s : 0;
	bool stopped = (law_known(sig->tx_stop_per_s) && sig->tx_stop_per_s > 0) ||
		       sig->bql_limited;
	bool backlog = law_known(sig->qdisc_backlog_bytes) && sig->qdisc_backlog_bytes > 0;

	learn->ql_peak_bytes_per_s = fmax(tx, learn->ql_peak_bytes_per_s * QL_PEAK_DECAY);
	v->drain_bytes_per_s = law_known(sig->capacity_bytes_per_s) ?
		sig->capacity_bytes_per_s : learn->ql_peak_bytes_per_s;
	v->pkt_bytes = law_known(sig->tx_packets_per_s) && sig->tx_packets_per_s > 0 ?
		tx / sig->tx_packets_per_s : LAW_UNKNOWN;
	v->delay_ns = law_known(sig->bql_inflight_bytes) && v->drain_bytes_per_s > 0 ?
		sig->bql_inflight_bytes / v->drain_bytes_per_s * NS_PER_S : LAW_UNKNOWN;
	/*
	 * Without a line rate the peak is only what the limit let through. When dql's own
	 * limit sits at limit_max while BQL holds the stack, the cap binds (dql would grow past
	 * it), so the wire may take more: probe at QL_PROBE_FACTOR x the rate, a step the guard
	 * bounds to x2 anyway, while probes pay (ql_probe()). Once dql settles below the cap,
	 * the probe ends.
	 */
	v->seen_bytes_per_s = v->drain_bytes_per_s;
	v->fifo = sig->qdisc_fifo;
	v->capped = sig->bql_limited && law_known(sig->bql_limit_bytes) &&
		st->knob[LK_BQL_LIMIT_MAX] != LAW_KNOB_ABSENT &&
		sig->bql_limit_bytes >= (double)st->knob[LK_BQL_LIMIT_MAX];
	if (v->capped && !law_known(sig->capacity_bytes_per_s) && ql_probe(st, learn, tx))
		v->drain_bytes_per_s = fmax(v->drain_bytes_per_s, QL_PROBE_FACTOR * tx);
	v->saturated = v->drain_bytes_per_s > 0 && tx >= QL_SATURATED * v->drain_bytes_per_s;
	/*
	 * Without a line rate the peak is a drain rate only once the queue has held a queue at
	 * least once (stopped, a qdisc backlog, or QL_QUEUE_PKTS packets in flight): an idle
	 * queue's ARP or keepalive trickle would otherwise cut limit_max to a frame, and the
	 * first burst would then start from a starving cap. Its delay says nothing then: one
	 * frame in flight over a trickle's "D" reads as milliseconds.
	 */
	if (stopped || backlog || (law_known(sig->bql_inflight_bytes) && law_known(v->pkt_bytes) &&
				   sig->bql_inflight_bytes >= QL_QUEUE_PKTS * v->pkt_bytes))
		learn->ql_seen_full = true;
	v->rate_is_drain = law_known(sig->capacity_bytes_per_s) || learn->ql_seen_full;
	/*
	 * The cap starves the queue only while dql sits at it: below it, dql chose its limit
	 * and raises it itself on starvation, and a rate under the peak then says the sender
	 * (or the CPU) is slower, not the limit; L / rate would be the queue's delay, not P.
	 */
	v->starving = stopped && backlog && !v->saturated && tx > 0 &&
		st->knob[LK_BQL_LIMIT_MAX] != LAW_KNOB_ABSENT &&
		(!law_known(sig->bql_limit_bytes) || v->capped) &&
		!ql_wire_binds(learn, st->knob[LK_BQL_LIMIT_MAX], tx);
}

/* Learn or forget the completion period P; see the top comment. */
static void ql_learn_period(const struct law_state *st, const struct ql_view *v,
			    const struct law_signals *sig, struct law_learn *learn)
{
	bool same = learn->ql_starve_limit_bytes == st->knob[LK_BQL_LIMIT_MAX];
	double ratio;

	/* another completion path: neither P nor a starving interval before it counts */
	if (learn->ql_period_zerocopy != st->knob[LK_ZEROCOPY]) {
		learn->ql_period_ns = 0;
		same = false;
	}
	learn->ql_period_zerocopy = st->knob[LK_ZEROCOPY];
	learn->ql_starve_ticks = !v->starving ? 0 : same ? learn->ql_starve_ticks + 1 : 1;
	learn->ql_starve_limit_bytes = st->knob[LK_BQL_LIMIT_MAX];
	if (learn->ql_starve_ticks >= QL_STARVE_CONFIRM) {
		learn->ql_period_ns = (double)st->knob[LK_BQL_LIMIT_MAX] /
			sig->tx_bytes_per_s * NS_PER_S;
		learn->ql_period_pkt_bytes = law_known(v->pkt_bytes) ? v->pkt_bytes : 0;
		return;
	}
	if (learn->ql_period_ns <= 0 || !law_known(v->pkt_bytes))
		return;
	ratio = v->pkt_bytes / learn->ql_period_pkt_bytes;
	if (ratio > QL_PKT_CONTEXT || ratio < 1 / QL_PKT_CONTEXT)
		learn->ql_period_ns = 0;
}

static bool ql_moves(const struct law_policy *pol, int64_t from, int64_t to)
{
	return from != to && law_rel_change(from, to) > pol->hysteresis;
}

/* limit_max / limit_min toward L*; 1 and *out filled when one of them should move. */
static int ql_limits(const struct law_state *st, const struct law_policy *pol,
		     const struct ql_view *v, const struct law_learn *learn, struct law_step *out)
{
	int64_t lmax = st->knob[LK_BQL_LIMIT_MAX], lmin = st->knob[LK_BQL_LIMIT_MIN];
	double d = v->drain_bytes_per_s, t_ns = (double)pol->qlimit_target_delay_ns;
	double by_delay = d * t_ns / NS_PER_S;
	double by_floor = learn->ql_period_ns > 0 ? d * learn->ql_period_ns / NS_PER_S *
		(1 + QL_HEADROOM) + learn->ql_period_pkt_bytes : 0;
	int64_t target;
	bool floor_binds;

	/*
	 * A queue that sends at the drain rate at limit_max does not starve there: the floor is
	 * at most limit_max, whatever P said when it was learned (a period learned behind a
	 * completion timer shrinks once the rate fills frames-bound completions).
	 */
	if (v->saturated && by_floor > (double)lmax)
		by_floor = (double)lmax;
	/*
	 * One FIFO qdisc in front: a packet waits behind the qdisc's backlog and the driver's
	 * inflight alike, and the senders (TCP small queues, the qdisc's own limit) set their
	 * sum, not BQL. A cut moves bytes from the driver into the qdisc, in the same line, and
	 * shortens no packet's wait, but it can starve the queue (on the TCG bench it cost 26%
	 * of bulk). So the delay target binds only behind a qdisc that can pass a request ahead
	 * of a backlog (fq_codel, fq, cake) or none (noqueue): here limit_max only rises to the
	 * starvation floor.
	 */
	if (v->fifo && by_floor <= (double)lmax)
		return 0;
	if (v->fifo)
		by_delay = 0;
	target = law_clamp(pol, LK_BQL_LIMIT_MAX, fmax(by_delay, by_floor));
	floor_binds = by_floor > by_delay;

	if (lmin != LAW_KNOB_ABSENT && lmin > target && ql_moves(pol, lmin, target))
		return law_propose(out, LK_BQL_LIMIT_MIN, lmin,
				   law_clamp(pol, LK_BQL_LIMIT_MIN, (double)target), true,
				   "limit_min %lld above the limit target %lld: lower it first",
				   (long long)lmin, (long long)target);
	if (lmin != LAW_KNOB_ABSENT && lmin > target)
		target = lmin;		/* inside the band: never put max under min */
	if (ql_moves(pol, lmax, target)) {
		if (floor_binds)
			return law_propose(out, LK_BQL_LIMIT_MAX, lmax, target, true,
					   "starvation floor: drain %.0f B/s x completion period "
					   "%.0f us +%.0f%% + a packet = %lld B (delay target "
					   "%.0f us infeasible)", d, learn->ql_period_ns / 1e3,
					   QL_HEADROOM * 100, (long long)target, t_ns / 1e3);
		return law_propose(out, LK_BQL_LIMIT_MAX, lmax, target, true,
				   "delay %.0f us vs target %.0f us at drain %.0f B/s: "
				   "limit_max %lld -> %lld B", law_known(v->delay_ns) ?
				   v->delay_ns / 1e3 : -1.0, t_ns / 1e3, d, (long long)lmax,
				   (long long)target);
	}
	/*
	 * limit_min is never raised to the floor: dql grows its own limit when a queue starves
	 * (lib/dynamic_queue_limits.c dql_completed()), so a floor under dql only pins a standing
	 * queue that dql would have let drain. The floor bounds limit_max alone, where the cap
	 * could be what starves the queue.
	 */
	return 0;
}

/* vqpair: drop -> stop on ring-full drops; a ring that stops the queue before BQL grows. */
static int ql_ring(const struct law_state *st, const struct law_signals *sig,
		   const struct law_policy *pol, const struct ql_view *v, struct law_step *out)
{
	int64_t mode = st->knob[LK_TX_FULL_MODE], ring = st->knob[LK_TX_RING_SIZE];
	int64_t lmax = st->knob[LK_BQL_LIMIT_MAX];
	bool ring_stops;

	if (mode == 1 && law_known(sig->tx_drops_per_s) && sig->tx_drops_per_s > 0)
		return law_propose(out, LK_TX_FULL_MODE, mode, 0, false,
				   "tx-full-mode drop lost %.0f pkt/s: stop the queue instead and "
				   "let the qdisc hold them", sig->tx_drops_per_s);
	if (ring == LAW_KNOB_ABSENT || !law_known(sig->bql_inflight_bytes))
		return 0;
	ring_stops = sig->tx_stop_per_s > 0 && sig->qdisc_backlog_bytes > 0 && !v->saturated &&
		(lmax == LAW_KNOB_ABSENT ||
		 sig->bql_inflight_bytes < QL_RING_STOP_FRAC * (double)lmax);
	if (!ring_stops || ring >= pol->bounds[LK_TX_RING_SIZE].max)
		return 0;
	return law_propose(out, LK_TX_RING_SIZE, ring,
			   law_clamp(pol, LK_TX_RING_SIZE, (double)ring * 2), false,
			   "queue stops %.0f/s with inflight %.0f B < half of limit %lld: the "
			   "ring is full first", sig->tx_stop_per_s, sig->bql_inflight_bytes,
			   (long long)lmax);
}

/*
 * One TX queue's queue-limit step. Inputs: tx_bytes/packets_per_s, tx_stop_per_s,
 * qdisc_backlog_bytes, bql_inflight_bytes, capacity_bytes_per_s (or LAW_UNKNOWN),
 * tx_drops_per_s; knobs LK_BQL_LIMIT_MAX/MIN, LK_TX_RING_SIZE, LK_TX_FULL_MODE (absent ok).
 * Returns 1 with a step, 0 holding, -EINVAL on NULL. Follows dynamic_queue_limits.h terms.
 */
int law_qlimit_step(const struct law_state *st, const struct law_signals *sig,
		    const struct law_policy *pol, struct law_step *out)
{
	struct ql_view v;
	int ret;

	if (!st || !sig || !pol || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->knob = LK_NONE;
	out->learn = st->learn;
	if (!sig->valid)
		return law_hold(out, "interval invalid: no queue-limit decision");
	ql_observe(st, sig, &out->learn, &v);
	ret = ql_ring(st, sig, pol, &v, out);
	if (ret)
		return ret;
	if (st->knob[LK_BQL_LIMIT_MAX] == LAW_KNOB_ABSENT)
		return law_hold(out, "no BQL on this queue");
	if (v.drain_bytes_per_s <= 0)
		return law_hold(out, "drain rate unknown: queue idle since start");
	ql_learn_period(st, &v, sig, &out->learn);
	if (!v.rate_is_drain)
		return law_hold(out, "queue never full yet: %.0f B/s is what it was offered, not "
				"a drain rate; limit %lld B left to dql", v.drain_bytes_per_s,
				(long long)st->knob[LK_BQL_LIMIT_MAX]);
	ret = ql_limits(st, pol, &v, &out->learn, out);
	if (ret)
		return ret;
	if (v.fifo)
		return law_hold(out, "limit %lld B left as it is: the qdisc is one FIFO, so a cut "
				"would move its backlog, not shorten it (driver delay %.0f us, %s)",
				(long long)st->knob[LK_BQL_LIMIT_MAX],
				law_known(v.delay_ns) ? v.delay_ns / 1e3 : -1.0,
				v.starving ? "starving" : "not starving");
	return law_hold(out, "limit %lld B on target: delay %.0f us, %s",
			(long long)st->knob[LK_BQL_LIMIT_MAX],
			law_known(v.delay_ns) ? v.delay_ns / 1e3 : -1.0,
			v.starving ? "starving" : "not starving");
}

/*
 * max(0, delay / T - 1) (0 behind one FIFO qdisc) + QL_STARVE_WEIGHT * (1 - rate / D) while
 * stopped with a backlog.
 */
double law_qlimit_cost(const struct law_state *st, const struct law_signals *sig,
		       const struct law_policy *pol)
{
	struct law_learn learn = st->learn;
	struct ql_view v;
	double cost, noise;

	if (!sig->valid)
		return LAW_UNKNOWN;
	ql_observe(st, sig, &learn, &v);
	if (!law_known(v.delay_ns) || !pol->qlimit_target_delay_ns)
		return LAW_UNKNOWN;
	/* behind one FIFO the driver's delay is no packet's delay (ql_limits()): not a cost */
	cost = v.fifo ? 0 : fmax(0, v.delay_ns / (double)pol->qlimit_target_delay_ns - 1);
	/*
	 * Any shortfall beyond rate noise while the qdisc holds data counts, not only past
	 * QL_SATURATED: against a line rate the rollback check must see a 5% starvation.
	 * Without one, D is the best tick seen, and a tick may read QL_RATE_JITTER under it
	 * with nothing starving: only a shortfall beyond that counts. It is measured against
	 * what the queue has sent, not a probe's guess: a probe is a question, not a loss.
	 */
	noise = law_known(sig->capacity_bytes_per_s) ? QL_RATE_NOISE : QL_RATE_JITTER;
	if ((sig->tx_stop_per_s > 0 || sig->bql_limited) && sig->qdisc_backlog_bytes > 0 &&
	    !ql_wire_binds(&learn, st->knob[LK_BQL_LIMIT_MAX], sig->tx_bytes_per_s))
		cost += QL_STARVE_WEIGHT *
			fmax(0, 1 - sig->tx_bytes_per_s / v.seen_bytes_per_s - noise);
	return cost;
}
