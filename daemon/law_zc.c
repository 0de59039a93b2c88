// SPDX-License-Identifier: GPL-2.0-only
/*
 * law_zc: per queue, keep vqpair zerocopy where big sends complete promptly; bound or drop it
 * where pending buffers pile up behind a slow consumer (vhost_net's head-of-line stall:
 * a zerocopy buffer holds its TX descriptor until the receiver frees the skb).
 * Knobs: zerocopy, zerocopy-max-pending, zerocopy-min-bytes (include/vqpair.h).
 *
 * Law. a = zerocopy sends/s (= completions/s in steady state), f = fallbacks/s (eligible
 * sends over max-pending), Lc = mean completion latency, T = the policy's prompt target,
 * M = zerocopy-max-pending. T is the policy's target, or the ring's own bound where that is
 * longer and zerocopy pays: completions return descriptors in order (vhost's used ring), so
 * a zerocopy buffer in flight holds every descriptor behind it, and by Little's law a queue
 * sending p packets/s holds p x Lc descriptors; under half the ring R nothing stalls however
 * late a completion is, so T = max(T_policy, R / (2 p)) (a local receiver that reads its
 * socket every few ms is prompt on a ring of hundreds). "Pays": the queue sends at least
 * ZC_PAYS of the rate it reached in copy mode (C, learned while zerocopy was off). The ring
 * is not the only holder: senders' socket limits (TCP small queues) count a zerocopy buffer
 * until it completes, so a stalled consumer also throttles p itself and R / (2 p) grows with
 * the stall; the rate against C is what tells the two apart. Late and not paying against a
 * known C, or late by ZC_STALL_FACTOR x T_policy with no C yet: zerocopy off at once (no
 * max-pending makes a stalled consumer prompt). The pending that a consumer completing at
 * rate r clears within T is r x T:
 *
 *	Lc > T:                 M* = a x T          (the consumer's own rate sets the budget)
 *	Lc < (1 - ZC_BAND) T:   M* = (a + f) x T    (every eligible send fits, still prompt;
 *	                                             its recent peak, moved only when M is off
 *	                                             by > ZC_BAND)
 *	else:                   hold
 *	Lc > T at M = min, or completions stalled:  zerocopy off, retry after 16, 32, ... ticks
 *
 * Over M the vqpair falls back to a copy, so M* keeps the zerocopy share that still completes
 * within T. zerocopy is turned on where the mean send is at least the policy's break-even
 * size, and zerocopy-min-bytes follows that break-even.
 * Stability: a slow consumer completes at its own rate a = mu whatever M is (pending is
 * capped at M), so M* = mu T is a fixed point with no loop gain; with a fast one Lc stays
 * at the consumer's base latency, far below T, and M* = lambda T is again a constant. The
 * dead band between (1 - ZC_BAND) T and T separates the two branches, so they cannot take
 * turns. Re-enable probes back off exponentially, so a consumer that stays slow costs one
 * probe per 2^k ticks.
 */
#include <errno.h>
#include <string.h>

#include "law.h"

/* completions under 75% of target are "prompt": a 25% band keeps the two branches apart */
#define ZC_BAND			0.25
/* completions may hold up to half the ring's descriptors before they can stall it */
#define ZC_RING_SHARE		0.5
/* zerocopy pays while the queue sends at least 75% of its copy-mode rate (rates jitter) */
#define ZC_PAYS			0.75
/* completions 16x the policy's target with no copy rate to compare: a stalled consumer */
#define ZC_STALL_FACTOR		16.0
/* the copy-mode rate is a peak that decays 1% a tick: a faster past fades in ~5 min at 1 s */
#define ZC_COPY_DECAY		0.99
/* the prompt budget's peak decays 2% a tick: a quarter lower after ~14 ticks */
#define ZC_PEAK_DECAY		0.98
/* first re-enable probe after 16 ticks: a slow-consumer phase is rarely shorter */
#define ZC_RETRY_FIRST_TICKS	16
/* probes at least every 1024 ticks (~17 min at 1 s ticks) so a recovery is found */
#define ZC_RETRY_MAX_TICKS	1024
#define NS_PER_S		1e9

/* Zerocopy sends at least ZC_PAYS of the copy-mode rate; false while that is unknown. */
static bool zc_pays(const struct law_signals *sig, const struct law_learn *l)
{
	return l->zc_copy_bytes_per_s > 0 && law_known(sig->tx_bytes_per_s) &&
		sig->tx_bytes_per_s >= ZC_PAYS * l->zc_copy_bytes_per_s;
}

/* T: the policy's target, or, where zerocopy pays, the latency at which half the ring is held */
static double zc_target_ns(const struct law_signals *sig, const struct law_policy *pol,
			   const struct law_learn *l)
{
	double t_ns = (double)pol->zc_latency_target_ns;

	if (zc_pays(sig, l) && law_known(sig->tx_ring_size) && sig->tx_ring_size > 0 &&
	    law_known(sig->tx_packets_per_s) && sig->tx_packets_per_s > 0)
		t_ns = fmax(t_ns, ZC_RING_SHARE * sig->tx_ring_size / sig->tx_packets_per_s *
			    NS_PER_S);
	return t_ns;
}

/* Propose zerocopy off; @lc_ns is the completion latency that drove it, NaN for a stall. */
static int zc_off(const struct law_state *st, const struct law_learn *l, struct law_step *out,
		  double lc_ns, double pending)
{
	uint32_t next = l->zc_retry_ticks ? l->zc_retry_ticks * 2 : ZC_RETRY_FIRST_TICKS;

	next = next < ZC_RETRY_MAX_TICKS ? next : ZC_RETRY_MAX_TICKS;
	if (!law_known(lc_ns))
		return law_propose(out, LK_ZEROCOPY, st->knob[LK_ZEROCOPY], 0, false,
				   "zerocopy off: completions stalled, %.0f pending, none "
				   "completed; copy until a probe in %u ticks", pending, next);
	return law_propose(out, LK_ZEROCOPY, st->knob[LK_ZEROCOPY], 0, false,
			   "zerocopy off: completion %.0f us late at max-pending %lld; copy until "
			   "a probe in %u ticks", lc_ns / 1e3,
			   (long long)st->knob[LK_ZEROCOPY_MAX_PENDING], next);
}

/*
 * Backoff is keyed on what is observed, not on what was proposed (a proposal may be held):
 * the first interval seen off after one seen on starts the next, doubled, wait. An
 * interval counts the @ticks it stands for (law_signals.ticks), so a paced tick waits
 * the same time.
 */
static void zc_backoff(struct law_learn *l, uint32_t ticks)
{
	if (l->zc_off_ticks == 0 && l->zc_seen_on) {
		l->zc_retry_ticks = l->zc_retry_ticks ? l->zc_retry_ticks * 2 :
			ZC_RETRY_FIRST_TICKS;
		if (l->zc_retry_ticks > ZC_RETRY_MAX_TICKS)
			l->zc_retry_ticks = ZC_RETRY_MAX_TICKS;
	}
	l->zc_seen_on = false;
	l->zc_off_ticks += ticks;
}

/* zerocopy observed off: count, and turn it on for big sends once any backoff has run. */
static int zc_when_off(const struct law_signals *sig,
		       const struct law_policy *pol, struct law_learn *l, struct law_step *out)
{
	double pkt = law_known(sig->tx_packets_per_s) && sig->tx_packets_per_s > 0 &&
		law_known(sig->tx_bytes_per_s) ? sig->tx_bytes_per_s / sig->tx_packets_per_s : 0;

	zc_backoff(l, law_ticks(sig));
	l->zc_budget_peak = 0;		/* a new on-period learns its own budget */
	if (law_known(sig->tx_bytes_per_s) && pkt >= (double)pol->zc_breakeven_bytes)
		l->zc_copy_bytes_per_s = fmax(sig->tx_bytes_per_s,
					      l->zc_copy_bytes_per_s * ZC_COPY_DECAY);
	if (pkt < (double)pol->zc_breakeven_bytes)
		return law_hold(out, "zerocopy off: mean send %.0f B under break-even %lld B", pkt,
				(long long)pol->zc_breakeven_bytes);
	if (l->zc_retry_ticks && l->zc_off_ticks < l->zc_retry_ticks)
		return law_hold(out, "zerocopy off: probe in %u ticks",
				l->zc_retry_ticks - l->zc_off_ticks);
	return law_propose(out, LK_ZEROCOPY, 0, 1, false,
			   "zerocopy on: mean send %.0f B >= break-even %lld B%s", pkt,
			   (long long)pol->zc_breakeven_bytes, l->zc_retry_ticks ? " (probe)" : "");
}

static int zc_pending(const struct law_state *st, const struct law_signals *sig,
		      const struct law_policy *pol, struct law_learn *l, struct law_step *out)
{
	int64_t m = st->knob[LK_ZEROCOPY_MAX_PENDING], want;
	double a = law_known(sig->zc_sent_per_s) ? sig->zc_sent_per_s : 0;
	double f = law_known(sig->zc_fallbacks_per_s) ? sig->zc_fallbacks_per_s : 0;
	double lc = sig->zc_completion_ns, t_ns = zc_target_ns(sig, pol, l);
	double t_s = t_ns / NS_PER_S, t_pol = (double)pol->zc_latency_target_ns;

	if (law_known(sig->zc_pending) && sig->zc_pending >= 1 && a <= 0 && !law_known(lc))
		return zc_off(st, l, out, LAW_UNKNOWN, sig->zc_pending);
	if (!law_known(lc) || a + f <= 0)
		return law_hold(out, "zerocopy: no eligible sends or no completions to judge");
	if (lc > t_ns && l->zc_copy_bytes_per_s > 0 && !zc_pays(sig, l))
		return law_propose(out, LK_ZEROCOPY, st->knob[LK_ZEROCOPY], 0, false,
				   "zerocopy off: completion %.0f us late and %.0f B/s is %.2f of "
				   "copy mode's %.0f B/s", lc / 1e3, sig->tx_bytes_per_s,
				   sig->tx_bytes_per_s / l->zc_copy_bytes_per_s,
				   l->zc_copy_bytes_per_s);
	if (lc > ZC_STALL_FACTOR * t_pol)
		return zc_off(st, l, out, lc, sig->zc_pending);
	if (lc > t_ns) {
		want = law_clamp(pol, LK_ZEROCOPY_MAX_PENDING, a * t_s);
		if (m == LAW_KNOB_ABSENT || (m <= pol->bounds[LK_ZEROCOPY_MAX_PENDING].min))
			return zc_off(st, l, out, lc, sig->zc_pending);
		if (want == m)
			return law_hold(out, "zerocopy late but max-pending %lld on budget",
					(long long)m);
		return law_propose(out, LK_ZEROCOPY_MAX_PENDING, m, want, true,
				   "completion %.0f us > target %.0f us at %.0f/s: max-pending "
				   "%lld -> %lld (rate x target)", lc / 1e3, t_ns / 1e3, a,
				   (long long)m, (long long)want);
	}
	l->zc_retry_ticks = 0;		/* prompt: a recovered consumer resets the backoff */
	if (m == LAW_KNOB_ABSENT || lc >= (1 - ZC_BAND) * t_ns)
		return 0;
	/*
	 * Prompt completions make M a safety bound, not a throttle: it only says how much may
	 * pile up before the law sees a stall. So it follows the recent peak of (a + f) x T,
	 * decaying ZC_PEAK_DECAY a tick, and only past ZC_BAND: the eligible share of a mixed
	 * queue (bulk beside small requests) and the ring's share of T (R / 2p) move tens of %
	 * from tick to tick, and chasing them walked M up and down (in the bench, 4-6 times a
	 * run; once until the oscillation guard held it).
	 */
	l->zc_budget_peak = fmax((a + f) * t_s, l->zc_budget_peak * ZC_PEAK_DECAY);
	want = law_clamp(pol, LK_ZEROCOPY_MAX_PENDING, l->zc_budget_peak);
	if (want == m || law_rel_change(m, want) <= fmax(pol->hysteresis, ZC_BAND))
		return 0;
	return law_propose(out, LK_ZEROCOPY_MAX_PENDING, m, want, true,
			   "completion %.0f us prompt (target %.0f us), %.0f eligible/s: "
			   "max-pending %lld -> %lld (recent peak of rate x target)", lc / 1e3,
			   t_ns / 1e3, a + f, (long long)m, (long long)want);
}

/*
 * One queue's zerocopy step. Inputs: zc_sent_per_s, zc_fallbacks_per_s, zc_pending,
 * zc_completion_ns (unknown when nothing completed), tx_bytes/packets_per_s, tx_ring_size
 * (unknown: the policy's target alone); knobs
 * LK_ZEROCOPY, LK_ZEROCOPY_MAX_PENDING, LK_ZEROCOPY_MIN_BYTES (absent ok).
 * Returns 1 with a step, 0 holding, -EINVAL on NULL.
 */
int law_zc_step(const struct law_state *st, const struct law_signals *sig,
		const struct law_policy *pol, struct law_step *out)
{
	int64_t mb = st->knob[LK_ZEROCOPY_MIN_BYTES], want;
	int ret;

	if (!st || !sig || !pol || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->knob = LK_NONE;
	out->learn = st->learn;
	if (!sig->valid)
		return law_hold(out, "interval invalid: no zerocopy decision");
	if (st->knob[LK_ZEROCOPY] == LAW_KNOB_ABSENT)
		return law_hold(out, "no zerocopy knob on this queue");
	if (st->knob[LK_ZEROCOPY] == 0)
		return zc_when_off(sig, pol, &out->learn, out);
	out->learn.zc_off_ticks = 0;
	out->learn.zc_seen_on = true;
	ret = zc_pending(st, sig, pol, &out->learn, out);
	if (ret || out->reason[0])
		return ret;
	want = law_clamp(pol, LK_ZEROCOPY_MIN_BYTES, (double)pol->zc_breakeven_bytes);
	if (mb != LAW_KNOB_ABSENT && mb != want)
		return law_propose(out, LK_ZEROCOPY_MIN_BYTES, mb, want, false,
				   "zerocopy-min-bytes %lld -> break-even %lld B", (long long)mb,
				   (long long)want);
	return law_hold(out, "zerocopy on target: completion %.0f us, pending %.1f",
			sig->zc_completion_ns / 1e3, sig->zc_pending);
}

/* max(0, Lc / T - 1), T as the law's; unknown while zerocopy is off or nothing completed. */
double law_zc_cost(const struct law_state *st, const struct law_signals *sig,
		   const struct law_policy *pol)
{
	if (!sig->valid || st->knob[LK_ZEROCOPY] != 1 || !law_known(sig->zc_completion_ns) ||
	    !pol->zc_latency_target_ns)
		return LAW_UNKNOWN;
	return fmax(0, sig->zc_completion_ns / zc_target_ns(sig, pol, &st->learn) - 1);
}
