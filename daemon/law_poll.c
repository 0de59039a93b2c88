// SPDX-License-Identifier: GPL-2.0-only
/*
 * law_poll: per queue / NAPI, trade events (interrupts, kicks) against latency, in the spirit
 * of the kernel's net_dim (lib/dim) but with an explicit latency target. It moves one "hold
 * time" u: coalesce rx-usecs where the device has it, else NAPI gro-flush-timeout with
 * defer-hard-irqs (Documentation/networking/napi.rst); and vqpair's busyloop-us,
 * backend-weight and tx-napi.
 *
 * Hold-time law. lambda = packets/s, E = events/s, B = the event budget, T = the p99 target:
 *
 *	eta = (lambda / E - 1) / (lambda * u)		measured batching per second of hold
 *	u*  = min((lambda / B - 1) / (lambda * eta),  u + (T - p99))   clamped to [0, bounds]
 *
 * where the second term moves u only when p99 leaves [T (1 - 2b), T (1 + b/2)], b = the
 * hysteresis (the measured p99 is good to about b/2).
 *
 * A hold of u gathers 1 + eta * lambda * u packets per event (eta = 1 for arrivals that keep
 * coming through the hold; < 1 when timers round or frames cut batches), so the first term is
 * the least hold that brings events under the budget; the second keeps the p99, which grows
 * one for one with the hold (the first packet of a batch waits all of it), under target.
 * Below the budget u* is 0: no added latency when the CPU can afford every event.
 * Stability: eta is a property of the plant, measured and not chosen, so u* is a fixed point
 * with no loop gain; the latency term is a proportional correction of gain 1 on a slope-1
 * plant (deadbeat). The guard bounds each step to a factor of 2 and absorbs jitter.
 *
 * Busyloop law: a spin of s us catches the next packet with probability h(s) (hits / spins).
 * A move s0 -> s1 pays when  W * (h1 - h0) > (s1 - s0) * (1 - min(h0, h1)),  W = the value of
 * a hit (a kick and a wakeup saved): the hits gained against the spin every missing spin
 * adds. The law climbs while moves pay and, on a move that does not, goes back and halves the
 * step (again while a bound clamps it onto the value that just failed): a bisection that
 * ends when the step is inside the hysteresis band, at the largest s
 * whose last increment still paid. A new context (packet rate x2, or hit fraction +-0.1 at
 * the settled value, for BL_CONTEXT_TICKS ticks in a row) restarts it downward first
 * (spinning is the cost: shrink when spins miss), and upward once if no downward move paid.
 * A probe that hit nothing ends its search (h does not fall as s grows, so no shorter spin
 * can hit), and a search that found nothing paying makes the next one wait 16, 32, ...
 * 1024 ticks from 0, up to 64 from a spinning value (spins that never hit are not worth a
 * probe at every swing of a bursty rate, nor is a settled spin at every swing of its hits).
 * After a search from 0 whose spin hit nothing, the next one also waits for a TX packet
 * rate p (what the backend spins for) at which some spin can pay: for arrivals p apart
 * (ping-pong) a spin hits only when it outlasts the gap 1/p, and paying needs W > s > 1/p;
 * for Poisson arrivals h(s) = 1 - exp(-p s), and W h(s) > s has a solution s > 0 only when
 * its slope at 0, W p, exceeds 1. Both: no spin pays while W p <= 1. Clustered arrivals can
 * beat that bound, which is why a first search, and a rate that rises past it, still probe.
 * Stability: each search is finite (log2(step / band) halvings) and settled values only move
 * on a context change. A way back from a probe that did not pay is a retreat
 * (law_step.retreat): when a second search soon after a first trips the guard's oscillation
 * detector (a search from 0 makes up to 7 reversals), that way back is still written and the
 * hold starts at the base, not on the rejected probe.
 *
 * Backend-weight law (vqpair; vhost_net's VHOST_NET_PKT_WEIGHT): the backend worker serves
 * the TX ring in turns of at most W packets with bottom halves off, and whatever else waits
 * for that CPU (the reply direction's softirq, the application) waits out the turn. p = TX
 * packets/s, r = worker turns/s. The weight binds when turns end at the count (p / r >=
 * 0.9 W), i.e. the ring is backlogged; then the worker is busy and a turn lasts W / p s:
 *
 *	W* = min(p / B, T p)   clamped to the bounds, only while the weight binds
 *
 * p / B is the least weight whose turns stay within the event budget, T p the longest turn
 * within the latency target; the latency term wins, as for the hold. A weight that does not
 * bind is left alone (the ring drains within a turn: the weight changes nothing).
 * Stability: W* depends on p, which a shorter turn changes little (a turn's overhead is a
 * cond_resched), so it is a fixed point with no loop gain; the guard bounds each step to a
 * factor of 2.
 *
 * tx-napi rule (vqpair; virtio_net napi_tx): with TX NAPI on, completions are reaped by
 * their own "interrupts" (tx-events); off, by the next transmit. Off saves those events but
 * keeps sent buffers until the next send, which starves a queue whose senders wait for
 * completions (BQL inflight, TCP small queues). So: off only while TX events exceed the
 * event budget B, zerocopy is off and the queue neither stops nor is held by BQL with the
 * qdisc backlogged; back on as soon as it is or zerocopy buffers are pending, and not off
 * again at that packet rate (within 2x): a one-way latch per context, so on/off cannot
 * alternate. Senders held by TCP small queues wait for completions without any of these
 * signals (the bench saw a queue stall with tx-napi off), so the shipped policies keep
 * tx-napi on ({"min":1,"max":1}); a policy opts in to the trade by allowing 0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"

/* batching efficiency outside [0.05, 2] is a measurement artefact (idle interval, frames) */
#define POLL_ETA_MIN		0.05
#define POLL_ETA_MAX		2.0
/* a measured batch within 10% of rx-frames: the count, not the hold, ends batches */
#define POLL_FRAMES_BIND	0.9
/* rx-frames under 1.5 batches cuts the longer batches short (arrivals are bursty) ... */
#define POLL_FRAMES_LOW		1.5
/* ... over 4 it no longer bounds a burst's batch: set 2 batches, inside both */
#define POLL_FRAMES_HIGH	4.0
#define POLL_FRAMES_AIM		2.0
/* defer-hard-irqs value that makes gro-flush-timeout hold: napi.rst's example uses 2 */
#define POLL_DEFER_ON		2
/* the latency target binds before the event budget (it caps the hold): weigh it 10x */
#define POLL_LATENCY_WEIGHT	10.0
#define NS_PER_US		1000.0
#define NS_PER_S		1e9
#define US_PER_S		1e6
/* first busyloop probe: 8 us, about one vhost kick round trip */
#define BL_PROBE_START_US	8
/* a busyloop step under 1 us is below vqpair's knob resolution */
#define BL_STEP_MIN_US		1
/* a search from 0 that found no paying spin waits 16, 32, ... 1024 ticks before the next */
#define BL_RETRY_FIRST_TICKS	16
#define BL_RETRY_MAX_TICKS	1024
/*
 * ... and one from a spinning value that moved nothing waits too, up to 64 ticks: under bulk
 * the hit fraction swings past BL_CONTEXT_HIT every few ticks, and each search from 4 us
 * (4 -> 0 -> 4 -> 2 -> 4 -> 3 -> 4) added four reversals, until the oscillation guard held it
 */
#define BL_RESEARCH_MAX_TICKS	64
/* a settled busyloop reprobes when the packet rate moves by 2x ... */
#define BL_CONTEXT_PPS		2.0
/* ... or its hit fraction by 0.1: a tenth of the spins changing outcome ... */
#define BL_CONTEXT_HIT		0.1
/* ... for 3 ticks in a row: a guest's hit fraction and packet rate jump for a tick or two
 * (a burst, a descheduled vCPU), and each jump restarted the search */
#define BL_CONTEXT_TICKS	3

/* turns that end at >= 90% of the weight: the count, not an empty ring, ends them */
#define BW_BIND			0.9

/* The hold-time knob of this queue: rx-usecs (us) or gro-flush-timeout (ns); LK_NONE. */
static enum law_knob poll_hold_knob(const struct law_state *st, double *ns_per_unit)
{
	if (st->knob[LK_RX_USECS] != LAW_KNOB_ABSENT) {
		*ns_per_unit = NS_PER_US;
		return LK_RX_USECS;
	}
	*ns_per_unit = 1;
	return st->knob[LK_GRO_FLUSH_TIMEOUT] != LAW_KNOB_ABSENT ? LK_GRO_FLUSH_TIMEOUT : LK_NONE;
}

/*
 * The hold the p99 allows: content inside [T (1 - 2 band), T (1 + band / 2)], else the hold
 * that puts p99 on T (slope 1). A band on the signal, not only on the knob: a p99 good to
 * about band / 2 moves by a few us, a large relative step of a short hold. Unknown p99: T.
 */
static double poll_latency_cap_ns(double u_ns, double t_ns, double p99_ns, double band)
{
	if (!law_known(p99_ns))
		return t_ns;
	if (p99_ns > t_ns * (1 + band / 2) || p99_ns < t_ns * (1 - 2 * band))
		return u_ns + t_ns - p99_ns;
	return u_ns;
}

/*
 * rx-frames ends a batch at a count, rx-usecs at a time, whichever comes first: keep the
 * count out of the way of the hold (virtio's default rx-frames 1 would make any hold moot).
 * With no hold (@hold 0) there is no batch to protect: rx-frames 1, an interrupt per packet.
 * A count over 1 without a timer waits for a second packet or for the device's own idle
 * flush (vqpair: the backend's turn end, after any busyloop spin), which a lone ping-pong
 * packet pays on every round trip.
 */
static int poll_frames(const struct law_state *st, const struct law_policy *pol, double batch,
		       int64_t hold, struct law_step *out)
{
	int64_t f = st->knob[LK_RX_FRAMES], want;

	if (f == LAW_KNOB_ABSENT)
		return 0;
	if (hold == 0) {
		want = law_clamp(pol, LK_RX_FRAMES, 1);
		if (want == f)
			return 0;
		return law_propose(out, LK_RX_FRAMES, f, want, false,
				   "rx-frames %lld with no rx-usecs hold: %lld, every packet "
				   "ends its batch", (long long)f, (long long)want);
	}
	if ((double)f >= POLL_FRAMES_LOW * batch && (double)f <= POLL_FRAMES_HIGH * batch)
		return 0;
	want = law_clamp(pol, LK_RX_FRAMES, ceil(POLL_FRAMES_AIM * batch));
	if (want == f)
		return 0;
	return law_propose(out, LK_RX_FRAMES, f, want, false,
			   "rx-frames %lld vs a batch of %.1f packets: %lld, so the hold and not "
			   "the count ends a batch", (long long)f, batch, (long long)want);
}

/*
 * The hold step (rx-usecs/rx-frames or gro-flush-timeout + defer-hard-irqs). 1 with a step;
 * 0 with none, @why saying what it judged: on target, or the knob or signal it lacked.
 */
static int poll_hold(const struct law_state *st, const struct law_signals *sig,
		     const struct law_policy *pol, struct law_step *out, const char **why)
{
	double unit_ns, lam = sig->rx_packets_per_s, ev = sig->events_per_s;
	double u_ns, eta = 1, by_budget_ns, cap_ns, t_ns = (double)pol->latency_target_ns;
	double b = pol->event_budget_per_s;
	enum law_knob k = poll_hold_knob(st, &unit_ns);
	int64_t cur, want, defer = st->knob[LK_DEFER_HARD_IRQS];

	*why = k == LK_NONE ? "no hold knob (rx-usecs, gro-flush-timeout)" :
	       !law_known(lam) || lam <= 0 ?
			"hold not judged: no RX packets counted on this queue" :
	       !law_known(ev) || ev <= 0 ? "hold not judged: no interrupts or polls counted" :
	       b <= 0 ? "hold not judged: no event budget" : NULL;
	if (*why)
		return 0;
	*why = "hold time on target";
	cur = st->knob[k];
	u_ns = (double)cur * unit_ns;
	/* batching is measured only while rx-frames does not cap it */
	if (u_ns > 0 && lam / ev > 1 && (k != LK_RX_USECS ||
	    st->knob[LK_RX_FRAMES] == LAW_KNOB_ABSENT ||
	    lam / ev < POLL_FRAMES_BIND * (double)st->knob[LK_RX_FRAMES]))
		eta = fmin(fmax((lam / ev - 1) / (lam * u_ns / NS_PER_S), POLL_ETA_MIN),
			   POLL_ETA_MAX);
	by_budget_ns = lam > b ? (lam / b - 1) / (lam * eta) * NS_PER_S : 0;
	cap_ns = poll_latency_cap_ns(u_ns, t_ns, sig->latency_p99_ns, pol->hysteresis);
	want = law_clamp(pol, k, fmin(by_budget_ns, cap_ns) / unit_ns);
	if (k == LK_RX_USECS && poll_frames(st, pol, 1 + eta * lam * (double)want * unit_ns /
					    NS_PER_S, want, out))
		return 1;
	if (k == LK_GRO_FLUSH_TIMEOUT && defer != LAW_KNOB_ABSENT && (want > 0) != (defer > 0))
		return law_propose(out, LK_DEFER_HARD_IRQS, defer, want > 0 ? POLL_DEFER_ON : 0,
				   false, "gro-flush-timeout %s: defer-hard-irqs %lld -> %d",
				   want > 0 ? "wanted" : "not wanted", (long long)defer,
				   want > 0 ? POLL_DEFER_ON : 0);
	if (want == cur || law_rel_change(cur, want) <= pol->hysteresis)
		return 0;
	/* a step back under the latency target is not a trade-off to judge: evaluate=false */
	if (by_budget_ns > cap_ns && !law_known(sig->latency_p99_ns))
		return law_propose(out, k, cur, want, false,
				   "no p99 measured: hold capped at the %.0f us target: %s %lld -> "
				   "%lld", t_ns / NS_PER_US, law_knob_name(k), (long long)cur,
				   (long long)want);
	if (by_budget_ns > cap_ns)
		return law_propose(out, k, cur, want, false,
				   "p99 %.0f us vs target %.0f us caps the hold: %s %lld -> %lld "
				   "(budget wants %.0f us)", sig->latency_p99_ns / NS_PER_US,
				   t_ns / NS_PER_US, law_knob_name(k), (long long)cur,
				   (long long)want, by_budget_ns / NS_PER_US);
	return law_propose(out, k, cur, want, true,
			   "events %.0f/s vs budget %.0f/s at %.0f pkt/s, batching %.2f: "
			   "%s %lld -> %lld", ev, b, lam, eta, law_knob_name(k), (long long)cur,
			   (long long)want);
}

static int poll_weight(const struct law_state *st, const struct law_signals *sig,
		       const struct law_policy *pol, struct law_step *out)
{
	int64_t w = st->knob[LK_BACKEND_WEIGHT], want;
	double p = sig->tx_packets_per_s, r = sig->worker_runs_per_s, b = pol->event_budget_per_s;
	double t_s = (double)pol->latency_target_ns / NS_PER_S, by_budget, cap;

	if (w == LAW_KNOB_ABSENT || !law_known(p) || p <= 0 || !law_known(r) || r <= 0 || b <= 0)
		return 0;
	if (p / r < BW_BIND * (double)w)
		return 0;			/* the ring drains within a turn */
	by_budget = p / b;
	cap = t_s * p;
	want = law_clamp(pol, LK_BACKEND_WEIGHT, fmin(by_budget, cap));
	if (want == w || law_rel_change(w, want) <= pol->hysteresis)
		return 0;
	if (by_budget > cap)
		return law_propose(out, LK_BACKEND_WEIGHT, w, want, false,
				   "turns of %lld at %.0f pkt/s last %.0f us vs target %.0f us: "
				   "backend-weight %lld -> %lld", (long long)w, p,
				   (double)w / p * 1e6, t_s * 1e6, (long long)w, (long long)want);
	return law_propose(out, LK_BACKEND_WEIGHT, w, want, false,
			   "%.0f turns/s at %.0f pkt/s vs budget %.0f/s, turns %.0f us: "
			   "backend-weight %lld -> %lld", r, p, b, (double)w / p * 1e6, (long long)w,
			   (long long)want);
}

/* The queue waits for completions: stopped or held by BQL while the qdisc has data. */
static bool tn_starving(const struct law_signals *sig)
{
	bool backlog = law_known(sig->qdisc_backlog_bytes) && sig->qdisc_backlog_bytes > 0;
	bool stops = law_known(sig->tx_stop_per_s) && sig->tx_stop_per_s > 0;

	return backlog && (stops || sig->bql_limited);
}

static int poll_tx_napi(const struct law_state *st, const struct law_signals *sig,
			const struct law_policy *pol, struct law_learn *l, struct law_step *out)
{
	int64_t on = st->knob[LK_TX_NAPI];
	double p = sig->tx_packets_per_s, ev = sig->tx_events_per_s, b = pol->event_budget_per_s;
	double ratio;

	if (on == LAW_KNOB_ABSENT || !law_known(p) || p <= 0)
		return 0;
	if (!on) {
		if (!tn_starving(sig) && !(law_known(sig->zc_pending) && sig->zc_pending >= 1))
			return 0;
		l->tn_starved_pps = p;
		return law_propose(out, LK_TX_NAPI, 0, 1, false,
				   "tx-napi off starves the queue (stopped or BQL-held with %.0f B "
				   "queued): completions in NAPI again", sig->qdisc_backlog_bytes);
	}
	if (!law_known(ev) || b <= 0 || ev <= b || tn_starving(sig))
		return 0;
	/* zerocopy buffers complete only when reaped: off would wait on the next send */
	if (st->knob[LK_ZEROCOPY] == 1 || law_clamp(pol, LK_TX_NAPI, 0) != 0)
		return 0;
	ratio = l->tn_starved_pps > 0 ? p / l->tn_starved_pps : 0;
	if (ratio > 0.5 && ratio < 2)
		return 0;			/* off starved this queue at this rate */
	return law_propose(out, LK_TX_NAPI, 1, 0, false,
			   "TX completion events %.0f/s over the budget %.0f/s and the queue "
			   "never waits for them: reap in the xmit path (tx-napi off)", ev, b);
}

static double bl_hit(const struct law_signals *sig)
{
	double h = sig->busyloop_hits_per_s, m = sig->busyloop_misses_per_s;

	return law_known(h) && law_known(m) && h + m > 0 ? h / (h + m) : 0;
}

/* Start a search at the current value @s, in direction @dir (+1 up, -1 down). */
static void bl_start(struct law_learn *l, int64_t s, double h, double pps, int dir)
{
	l->bl_base_us = s;
	l->bl_base_hit = h;
	l->bl_failed_us = INT64_MIN;
	l->bl_step_us = dir * (s / 4 > BL_PROBE_START_US ? s / 4 : BL_PROBE_START_US);
	l->bl_ctx_pps = pps;
	l->bl_settled = false;
	l->bl_ctx_ticks = 0;
	l->bl_moved = false;
	l->bl_tried_up = dir > 0;
}

/* No smaller step can leave the band: a downward search that never moved tries up once. */
static void bl_exhausted(struct law_learn *l)
{
	uint32_t max;

	if (l->bl_step_us < 0 && !l->bl_moved && !l->bl_tried_up) {
		bl_start(l, l->bl_base_us, l->bl_base_hit, l->bl_ctx_pps, 1);
		return;
	}
	l->bl_step_us = 0;
	l->bl_settled = true;
	l->bl_quiet_ticks = 0;
	if (l->bl_moved) {
		l->bl_retry_ticks = 0;
		return;
	}
	/* nothing paid: the next search from this value waits, longer each time */
	max = l->bl_base_us > 0 ? BL_RESEARCH_MAX_TICKS : BL_RETRY_MAX_TICKS;
	l->bl_retry_ticks = l->bl_retry_ticks ? l->bl_retry_ticks * 2 : BL_RETRY_FIRST_TICKS;
	if (l->bl_retry_ticks > max)
		l->bl_retry_ticks = max;
}

/* Halve the step after a probe that did not pay; smallest step the guard's band lets pass. */
static void bl_halve(struct law_learn *l, const struct law_policy *pol)
{
	double band = pol->hysteresis * (double)l->bl_base_us / (1 - pol->hysteresis);
	int64_t min = (int64_t)fmax(BL_STEP_MIN_US, floor(band) + 1);

	l->bl_step_us /= 2;
	if (llabs(l->bl_step_us) < min)
		bl_exhausted(l);
}

/*
 * A settled busyloop stays until its context moves; then it searches, downward first. A
 * value not its own (a rollback, an outside write) moves it at once; the traffic only when
 * it stays moved BL_CONTEXT_TICKS ticks.
 */
static bool bl_context_moved(struct law_learn *l, int64_t s, double h, double pps)
{
	double ratio = l->bl_ctx_pps > 0 ? pps / l->bl_ctx_pps : 0;

	if (s != l->bl_base_us)
		return true;
	if (fabs(h - l->bl_base_hit) > BL_CONTEXT_HIT || ratio > BL_CONTEXT_PPS ||
	    ratio < 1 / BL_CONTEXT_PPS)
		l->bl_ctx_ticks++;
	else
		l->bl_ctx_ticks = 0;
	return l->bl_ctx_ticks >= BL_CONTEXT_TICKS;
}

/* Judge the probe base -> s: it paid when the hits it gained (or kept) beat the spin. */
static bool bl_paid(const struct law_learn *l, int64_t s, double h, double hit_value_us)
{
	double dh = h - l->bl_base_hit, ds_us = (double)(s - l->bl_base_us);

	return hit_value_us * dh - ds_us * (1 - fmin(h, l->bl_base_hit)) > 0;
}

/* A way back to the search's base from a probe that did not pay: the guard lets it pass. */
static int bl_retreat(struct law_step *out, int ret)
{
	out->retreat = true;
	return ret;
}

static int poll_busyloop(const struct law_state *st, const struct law_signals *sig,
			 const struct law_policy *pol, struct law_learn *l, struct law_step *out)
{
	int64_t s = st->knob[LK_BUSYLOOP_US], base, next;
	double h = bl_hit(sig), pps = sig->rx_packets_per_s;
	double w_us = (double)pol->busyloop_hit_value_ns / NS_PER_US;

	if (s == l->bl_failed_us && s != l->bl_base_us)	/* the guard held our way back */
		return bl_retreat(out, law_propose(out, LK_BUSYLOOP_US, s, l->bl_base_us, false,
				  "busyloop %lld us did not pay: back to %lld us", (long long)s,
				  (long long)l->bl_base_us));
	if (l->bl_settled)
		l->bl_quiet_ticks += law_ticks(sig);	/* base ticks: the same time paced */
	if (l->bl_settled && !bl_context_moved(l, s, h, pps))
		return law_hold(out, "busyloop-us %lld settled: hit fraction %.2f",
				(long long)s, h);
	if (l->bl_settled && s == 0 && l->bl_quiet_ticks < l->bl_retry_ticks)
		return law_hold(out, "busyloop off: no spin paid from 0, next search in %u ticks",
				l->bl_retry_ticks - l->bl_quiet_ticks);
	if (l->bl_settled && s == 0 && l->bl_nohit && law_known(sig->tx_packets_per_s) &&
	    w_us * sig->tx_packets_per_s / US_PER_S <= 1)
		return law_hold(out, "busyloop off: its last spin hit nothing and TX packets "
				"(%.0f/s) come further apart than a hit is worth (%.0f us): no "
				"spin can pay", sig->tx_packets_per_s, w_us);
	if (l->bl_settled && s == l->bl_base_us && l->bl_quiet_ticks < l->bl_retry_ticks)
		return law_hold(out, "busyloop-us %lld settled: its last search found nothing "
				"better, next in %u ticks", (long long)s,
				l->bl_retry_ticks - l->bl_quiet_ticks);
	if (l->bl_settled || !l->bl_step_us)
		bl_start(l, s, h, pps, l->bl_settled && s > 0 ? -1 : 1);
	base = l->bl_base_us;
	if (s > 0 && h > 0)
		l->bl_nohit = false;
	if (s == base) {
		l->bl_base_hit = h;
	} else if (bl_paid(l, s, h, w_us)) {
		l->bl_base_us = s;
		l->bl_base_hit = h;
		l->bl_failed_us = INT64_MIN;	/* a failure above the old base is moot */
		l->bl_moved = true;
	} else {
		l->bl_failed_us = s;
		/* h(s) does not fall as s grows: a longer spin that hit nothing rules out shorter */
		if (h <= 0 && s > base) {
			l->bl_nohit = base == 0;
			l->bl_step_us = 0;
			bl_exhausted(l);
		} else {
			bl_halve(l, pol);
		}
		return bl_retreat(out, law_propose(out, LK_BUSYLOOP_US, s, base, false,
				  "busyloop %lld -> %lld us did not pay: hit %.2f -> %.2f, a hit "
				  "worth %.0f us: back", (long long)base, (long long)s,
				  l->bl_base_hit, h, w_us));
	}
	while (!l->bl_settled) {
		next = law_clamp(pol, LK_BUSYLOOP_US, (double)(l->bl_base_us + l->bl_step_us));
		/*
		 * A halved step the bound clamps onto the probe that just failed (4 - 8 and
		 * 4 - 4 are both 0) would repeat it: the bench's busyloop went 4 -> 0 -> 4 ->
		 * 0 until the oscillation guard held it. Halve on to a value not yet tried.
		 */
		if (next == l->bl_failed_us && next != l->bl_base_us) {
			bl_halve(l, pol);
			continue;
		}
		if (next != l->bl_base_us)
			return law_propose(out, LK_BUSYLOOP_US, s, next, false,
					   "busyloop probe %lld -> %lld us: hit fraction %.2f",
					   (long long)s, (long long)next, l->bl_base_hit);
		bl_exhausted(l);			/* at a bound */
	}
	return law_hold(out, "busyloop-us %lld settled: hit fraction %.2f", (long long)s, h);
}

/*
 * One queue's polling step. Inputs: rx_packets_per_s, events_per_s, latency_p99_ns (or
 * unknown: the hold alone is capped at the target), busyloop_hits/misses_per_s,
 * tx_packets_per_s, worker_runs_per_s, tx_events_per_s, tx_stop_per_s, bql_limited and
 * qdisc_backlog_bytes; knobs LK_RX_USECS or LK_GRO_FLUSH_TIMEOUT + LK_DEFER_HARD_IRQS,
 * LK_BACKEND_WEIGHT, LK_TX_NAPI, LK_BUSYLOOP_US (absent ok).
 * Returns 1 with a step, 0 holding, -EINVAL on NULL.
 */
int law_poll_step(const struct law_state *st, const struct law_signals *sig,
		  const struct law_policy *pol, struct law_step *out)
{
	const char *why = NULL;
	int ret;

	if (!st || !sig || !pol || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->knob = LK_NONE;
	out->learn = st->learn;
	if (!sig->valid)
		return law_hold(out, "interval invalid: no polling decision");
	ret = poll_hold(st, sig, pol, out, &why);
	if (ret)
		return ret;
	ret = poll_weight(st, sig, pol, out);
	if (ret)
		return ret;
	ret = poll_tx_napi(st, sig, pol, &out->learn, out);
	if (ret)
		return ret;
	if (st->knob[LK_BUSYLOOP_US] == LAW_KNOB_ABSENT)
		return law_hold(out, "%s; no busyloop knob", why);
	if (!law_known(sig->rx_packets_per_s) || sig->rx_packets_per_s <= 0)
		return law_hold(out, "idle queue: busyloop unchanged");
	return poll_busyloop(st, sig, pol, &out->learn, out);
}

/* max(0, E / B - 1) + POLL_LATENCY_WEIGHT * max(0, p99 / T - 1): relative excesses */
double law_poll_cost(const struct law_state *st, const struct law_signals *sig,
		     const struct law_policy *pol)
{
	double c = 0;

	(void)st;
	if (!sig->valid || !law_known(sig->events_per_s) || pol->event_budget_per_s <= 0)
		return LAW_UNKNOWN;
	c += fmax(0, sig->events_per_s / pol->event_budget_per_s - 1);
	if (law_known(sig->latency_p99_ns) && pol->latency_target_ns)
		c += POLL_LATENCY_WEIGHT *
			fmax(0, sig->latency_p99_ns / (double)pol->latency_target_ns - 1);
	return c;
}
