// SPDX-License-Identifier: GPL-2.0-only
/*
 * guard: the guardrails every law's proposal passes before it may be written, the knob table
 * of the laws, the balanced policy defaults, and small helpers the laws share.
 *
 * A law only says where a knob should go; the guard decides whether it goes now and how far:
 * nothing moves on an invalid interval or a pinned knob; a step that made the law's objective
 * worse is undone once, then steps that way hold (the law may still move the other way); a
 * knob that reverses direction too often in a window holds and says so (a law's retreat from
 * a step it rejected still goes first: the hold keeps the law's base, not its failed probe);
 * steps are bounded by a factor (or an absolute amount, so a knob
 * can leave 0) and by the policy's range; a step inside the hysteresis band is noise;
 * disruptive knobs (ring sizes) move only with the policy's consent. guard_tick() runs one
 * law's tick over all its knobs and judges a step only when it was the queue's one change in
 * its window. Pure: it updates only the guard and law state it is given.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "law.h"

/* a knob's bounds below this width are an enum or a bool: no relative hysteresis */
#define GUARD_ENUM_SPAN		1
/* cost excess that counts as "worse" is relative, but never below this much of a target:
 * at 1, a step from on target to 10% over it stands (a tick's measurement jitter) */
#define GUARD_COST_FLOOR	1.0

static const struct {
	const char *name, *unit;
	bool disruptive;
} law_knobs[LK_NUM] = {
	[LK_BQL_LIMIT_MAX]	= { "bql-limit-max", "bytes", false },
	[LK_BQL_LIMIT_MIN]	= { "bql-limit-min", "bytes", false },
	[LK_TX_RING_SIZE]	= { "tx-ring-size", "descriptors", true },
	[LK_TX_FULL_MODE]	= { "tx-full-mode", "enum", false },
	[LK_RX_USECS]		= { "rx-usecs", "us", false },
	[LK_RX_FRAMES]		= { "rx-frames", "frames", false },
	[LK_DEFER_HARD_IRQS]	= { "defer-hard-irqs", "count", false },
	[LK_GRO_FLUSH_TIMEOUT]	= { "gro-flush-timeout", "ns", false },
	[LK_BUSYLOOP_US]	= { "busyloop-us", "us", false },
	[LK_BACKEND_WEIGHT]	= { "backend-weight", "packets", false },
	[LK_TX_NAPI]		= { "tx-napi", "bool", false },
	[LK_ZEROCOPY]		= { "zerocopy", "bool", false },
	[LK_ZEROCOPY_MIN_BYTES]	= { "zerocopy-min-bytes", "bytes", false },
	[LK_ZEROCOPY_MAX_PENDING] = { "zerocopy-max-pending", "buffers", false },
};

const char *law_knob_name(enum law_knob k)
{
	return k < LK_NUM ? law_knobs[k].name : "none";
}

const char *law_knob_unit(enum law_knob k)
{
	return k < LK_NUM ? law_knobs[k].unit : "";
}

bool law_knob_disruptive(enum law_knob k)
{
	return k < LK_NUM && law_knobs[k].disruptive;
}

/* 500 us: a driver queue is invisible to the qdisc's AQM (fq_codel target 5 ms), and past the
 * starvation floor it buys no throughput: a fraction of the AQM's target */
#define DEF_QLIMIT_DELAY_NS	500000ULL
/* 100 us: request/response p99 over a virtual pair; kernel RR round trips are tens of us */
#define DEF_LATENCY_NS		100000ULL
/* 20k/s: one event per 50 us per queue keeps ~2-5 us of per-event cost under 10% of a CPU */
#define DEF_EVENT_BUDGET_PER_S	20000.0
/* 50 us: a vhost kick, a worker wakeup and its context switch on a virtualized host */
#define DEF_BL_HIT_VALUE_NS	50000ULL
/* 1 ms: a pinned buffer should not outlive the delay the queue itself is allowed */
#define DEF_ZC_LATENCY_NS	1000000ULL
/* 10 KB: msg_zerocopy.rst, "generally only effective at writes over around 10 KB" */
#define DEF_ZC_BREAKEVEN_BYTES	10240
/* two 1514-byte frames: BQL must admit a full frame with one more behind it */
#define DEF_BQL_MIN_BYTES	3028
/* 4 MB: 32 ms at 1 Gbit/s; a bigger driver queue only hides delay from the qdisc */
#define DEF_BQL_MAX_BYTES	(4 << 20)
/* 64 KB: one GSO super-packet, the grain BQL limits move in under bulk traffic */
#define DEF_BQL_STEP_BYTES	65536

void law_policy_defaults(struct law_policy *p)
{
	static const struct law_bounds b[LK_NUM] = {
		[LK_BQL_LIMIT_MAX] = { DEF_BQL_MIN_BYTES, DEF_BQL_MAX_BYTES, DEF_BQL_STEP_BYTES },
		[LK_BQL_LIMIT_MIN]	= { 0, DEF_BQL_MAX_BYTES, DEF_BQL_STEP_BYTES },
		[LK_TX_RING_SIZE]	= { 16, 4096, 256 },	/* vqpair's range; a ring */
		[LK_TX_FULL_MODE]	= { 0, 1, 1 },
		[LK_RX_USECS]		= { 0, 500, 8 },	/* 5x the latency target */
		[LK_RX_FRAMES]		= { 1, 1024, 8 },	/* vqpair's range */
		[LK_DEFER_HARD_IRQS]	= { 0, 10, 2 },		/* napi.rst's example */
		[LK_GRO_FLUSH_TIMEOUT]	= { 0, 500000, 8000 },	/* as rx-usecs, in ns */
		[LK_BUSYLOOP_US]	= { 0, 200, 8 },	/* longer spins eat a core */
		[LK_BACKEND_WEIGHT]	= { 1, 256, 64 },	/* vhost's VHOST_NET_PKT_WEIGHT */
		[LK_TX_NAPI]		= { 1, 1, 1 },	/* kept on: see law_poll.c */
		[LK_ZEROCOPY]		= { 0, 1, 1 },
		[LK_ZEROCOPY_MIN_BYTES]	= { 0, 65536, 1024 },	/* vqpair's range */
		[LK_ZEROCOPY_MAX_PENDING] = { 2, 1024, 16 },	/* one in flight, one queued */
	};

	memset(p, 0, sizeof(*p));
	p->qlimit_target_delay_ns = DEF_QLIMIT_DELAY_NS;
	p->latency_target_ns = DEF_LATENCY_NS;
	p->event_budget_per_s = DEF_EVENT_BUDGET_PER_S;
	p->busyloop_hit_value_ns = DEF_BL_HIT_VALUE_NS;
	p->zc_latency_target_ns = DEF_ZC_LATENCY_NS;
	p->zc_breakeven_bytes = DEF_ZC_BREAKEVEN_BYTES;
	memcpy(p->bounds, b, sizeof(b));
	p->allow_disruptive = false;
	p->cooldown_ticks = 2;		/* one tick to see a step's effect, one to judge it */
	p->settle_ticks = 1;		/* writes follow a sample: the next interval is clean */
	p->hold_ticks = 30;		/* lets an outside cause (a load phase) end */
	p->osc_window_ticks = 32;	/* spans several cooldowns of one knob */
	p->osc_reversals_max = 8;	/* bisection: 2 per halving, 4 halvings; flap: 16 ticks */
	p->hysteresis = 0.04;		/* rates from 1 s counters jitter by a few percent */
	p->step_factor_max = 2.0;	/* at most halve or double per step, as dql moves limits */
	p->rollback_worse = 0.10;	/* worse by more than the hysteresis band plus noise */
}

void law_state_init(struct law_state *st)
{
	int k;

	memset(st, 0, sizeof(*st));
	for (k = 0; k < LK_NUM; k++)
		st->knob[k] = LAW_KNOB_ABSENT;
	st->learn.bl_failed_us = INT64_MIN;
	st->learn.ql_period_zerocopy = LAW_KNOB_ABSENT;
}

int64_t law_clamp(const struct law_policy *pol, enum law_knob k, double v)
{
	const struct law_bounds *b = &pol->bounds[k];

	if (isnan(v) || v < (double)b->min)
		return b->min;
	if (v > (double)b->max)
		return b->max;
	return (int64_t)llround(v);
}

double law_rel_change(int64_t from, int64_t to)
{
	double d = fabs((double)to - (double)from);

	return from ? d / fabs((double)from) : (to ? INFINITY : 0.0);
}

static void vreason(char *buf, const char *fmt, va_list ap)
{
	vsnprintf(buf, LAW_REASON_MAX, fmt, ap);
}

int law_propose(struct law_step *out, enum law_knob k, int64_t old_value, int64_t new_value,
		bool evaluate, const char *fmt, ...)
{
	va_list ap;

	out->knob = k;
	out->old_value = old_value;
	out->new_value = new_value;
	out->evaluate = evaluate;
	out->retreat = false;
	va_start(ap, fmt);
	vreason(out->reason, fmt, ap);
	va_end(ap);
	return 1;
}

int law_hold(struct law_step *out, const char *fmt, ...)
{
	va_list ap;

	out->knob = LK_NONE;
	out->old_value = out->new_value = 0;
	out->evaluate = false;
	out->retreat = false;
	va_start(ap, fmt);
	vreason(out->reason, fmt, ap);
	va_end(ap);
	return 0;
}

void guard_forget(struct guard_knob *g)
{
	memset(g, 0, sizeof(*g));
}

void guard_hold_for(struct guard_knob *g, enum guard_hold_why why, uint64_t tick,
		    uint32_t hold_ticks, int dir)
{
	g->hold_until_tick = tick + hold_ticks;
	g->hold_dir = dir;
	g->hold_why = why;
	g->hold_from_tick = tick;
}

/* What started the hold of @g, for the held reason: one clause, with its tick. */
static const char *guard_hold_cause(const struct guard_knob *g, char *buf, size_t len)
{
	static const char *const why[] = {
		[GUARD_HOLD_NONE] = "held",
		[GUARD_HOLD_ROLLBACK] = "its step made the objective worse and was rolled back",
		[GUARD_HOLD_FLOOR] = "its step broke the throughput floor and was rolled back",
		[GUARD_HOLD_OSCILLATION] = "it reversed direction too often (oscillation)",
		[GUARD_HOLD_FAILED] = "its write failed (refused by the kernel, or not journalled)",
	};

	snprintf(buf, len, "%s at tick %llu", why[g->hold_why <= GUARD_HOLD_FAILED ? g->hold_why :
		 GUARD_HOLD_NONE], (unsigned long long)g->hold_from_tick);
	return buf;
}

static enum guard_verdict guard_hold(struct law_step *out, const struct law_step *want,
				     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static enum guard_verdict guard_hold(struct law_step *out, const struct law_step *want,
				     const char *fmt, ...)
{
	va_list ap;

	*out = *want;
	out->new_value = out->old_value;
	va_start(ap, fmt);
	vreason(out->reason, fmt, ap);
	va_end(ap);
	return GUARD_HOLD;
}

static uint32_t guard_reversals(const struct guard_knob *g, uint64_t tick, uint32_t window)
{
	uint32_t i, n = 0;

	for (i = 0; i < GUARD_REV_MAX; i++)
		if (g->rev_tick[i] && g->rev_tick[i] + window > tick)
			n++;
	return n;
}

/* Record a written step's direction, and the tick if it reversed the last one. */
static void guard_note_dir(struct guard_knob *g, int dir, uint64_t tick)
{
	if (g->last_dir && dir != g->last_dir) {
		g->rev_tick[g->rev_next] = tick;
		g->rev_next = (g->rev_next + 1) % GUARD_REV_MAX;
	}
	g->last_dir = dir;
	g->last_step_tick = tick;
}

/* The step's new value bounded by the factor / absolute step and by the policy's range. */
static int64_t guard_bound(const struct law_policy *pol, enum law_knob k, int64_t old,
			   int64_t want)
{
	const struct law_bounds *b = &pol->bounds[k];
	double f = pol->step_factor_max, o = (double)old, v = (double)want;
	double up = fmax(o * f, o + (double)b->step_abs_max);
	double down = fmin(o / f, o - (double)b->step_abs_max);

	if (old >= b->min && old <= b->max)
		v = fmin(fmax(v, down), up);
	return law_clamp(pol, k, v);
}

/* A pending judgement of the last step: ROLLBACK, or NONE when it stands or is moot. */
static enum guard_verdict guard_judge(struct guard_knob *g, const struct guard_input *in,
				      const struct law_policy *pol, struct law_step *out)
{
	double worse;

	if (!g->eval_pending || in->tick < g->eval_tick + pol->settle_ticks)
		return GUARD_NONE;
	g->eval_pending = false;
	if (in->value != g->eval_new || isnan(in->cost) || isnan(g->eval_cost))
		return GUARD_NONE;
	worse = in->cost - g->eval_cost;
	if (worse <= pol->rollback_worse * fmax(g->eval_cost, GUARD_COST_FLOOR))
		return GUARD_NONE;
	law_propose(out, in->knob, g->eval_new, g->eval_old, false,
		    "rollback %s %lld -> %lld: objective %.3g -> %.3g after the step",
		    law_knob_name(in->knob), (long long)g->eval_new, (long long)g->eval_old,
		    g->eval_cost, in->cost);
	guard_note_dir(g, g->eval_old > g->eval_new ? 1 : -1, in->tick);
	guard_hold_for(g, GUARD_HOLD_ROLLBACK, in->tick, pol->hold_ticks,
		       g->eval_new > g->eval_old ? 1 : -1);
	return GUARD_ROLLBACK;
}

enum guard_verdict guard_review(struct guard_knob *g, const struct law_step *want,
				const struct guard_input *in, const struct law_policy *pol,
				struct law_step *out)
{
	const char *name = law_knob_name(in->knob);
	char cause[LAW_REASON_MAX / 2];
	enum guard_verdict v;
	uint32_t rev_max;
	int64_t nv;
	bool osc;
	int dir;

	law_hold(out, "no step proposed");
	if (!in->valid)
		return want->knob == LK_NONE ? GUARD_NONE :
			guard_hold(out, want, "held %s: interval invalid", name);
	if (in->pinned) {
		g->eval_pending = false;
		return want->knob == LK_NONE ? GUARD_NONE :
			guard_hold(out, want, "held %s: pinned (manual or outside write)", name);
	}
	v = guard_judge(g, in, pol, out);
	if (v != GUARD_NONE || want->knob == LK_NONE)
		return v;
	if (want->knob != in->knob)
		return guard_hold(out, want, "held %s: step for another knob", name);
	if (in->tick < g->hold_until_tick &&
	    (!g->hold_dir || (want->new_value > in->value ? 1 : -1) == g->hold_dir))
		return guard_hold(out, want, "held %s until tick %llu: %s", name,
				  (unsigned long long)g->hold_until_tick,
				  guard_hold_cause(g, cause, sizeof(cause)));
	if (g->last_step_tick && in->tick < g->last_step_tick + pol->cooldown_ticks)
		return guard_hold(out, want, "held %s: cooldown, last step at tick %llu", name,
				  (unsigned long long)g->last_step_tick);
	if (law_knob_disruptive(in->knob) && !pol->allow_disruptive)
		return guard_hold(out, want, "held %s: disruptive, policy does not allow it", name);
	nv = guard_bound(pol, in->knob, in->value, want->new_value);
	if (nv == in->value)
		return guard_hold(out, want, "held %s: at its bound %lld", name, (long long)nv);
	if (pol->bounds[in->knob].max - pol->bounds[in->knob].min > GUARD_ENUM_SPAN &&
	    law_rel_change(in->value, nv) <= pol->hysteresis)
		return guard_hold(out, want, "held %s: %lld -> %lld inside the %.0f%% band", name,
				  (long long)in->value, (long long)nv, pol->hysteresis * 100);
	dir = nv > in->value ? 1 : -1;
	/* the ring remembers GUARD_REV_MAX reversals: a bigger allowance could never trip */
	rev_max = pol->osc_reversals_max < GUARD_REV_MAX ? pol->osc_reversals_max :
		GUARD_REV_MAX - 1;
	osc = g->last_dir && dir != g->last_dir &&
		guard_reversals(g, in->tick, pol->osc_window_ticks) + 1 > rev_max;
	if (osc && !want->retreat) {
		guard_hold_for(g, GUARD_HOLD_OSCILLATION, in->tick, pol->hold_ticks, 0);
		return guard_hold(out, want, "held %s: oscillating, %u reversals in %u ticks",
				  name, guard_reversals(g, in->tick, pol->osc_window_ticks) + 1,
				  pol->osc_window_ticks);
	}
	*out = *want;
	out->old_value = in->value;
	out->new_value = nv;
	if (osc) {
		/*
		 * A retreat (the law undoing a step it rejected) that trips the detector still
		 * goes, and the hold starts after it: held on the probe, a busyloop spun all
		 * hold long at a value its law had just found did not pay (bench: the next
		 * search, 16 ticks after a 7-reversal one, tripped at its first way back).
		 */
		snprintf(cause, sizeof(cause), "; then held: oscillating, %u reversals in %u ticks",
			 guard_reversals(g, in->tick, pol->osc_window_ticks) + 1,
			 pol->osc_window_ticks);
		strncat(out->reason, cause, sizeof(out->reason) - strlen(out->reason) - 1);
	}
	guard_note_dir(g, dir, in->tick);
	if (osc)
		guard_hold_for(g, GUARD_HOLD_OSCILLATION, in->tick, pol->hold_ticks, 0);
	g->eval_pending = want->evaluate && !isnan(in->cost);
	g->eval_old = in->value;
	g->eval_new = nv;
	g->eval_cost = in->cost;
	g->eval_tick = in->tick;
	return GUARD_APPLY;
}

/* The latest step of any knob but @k, as it stood before this tick's steps. */
static uint64_t guard_others_last(const uint64_t last[LK_NUM], int k)
{
	uint64_t m = 0;
	int j;

	for (j = 0; j < LK_NUM; j++)
		if (j != k && last[j] > m)
			m = last[j];
	return m;
}

int guard_tick(struct guard_knob g[LK_NUM], struct law_state *st, const struct law_step *want,
	       uint32_t knob_mask, uint64_t tick, bool valid, double cost, uint32_t pinned_mask,
	       const struct law_policy *pol, struct law_step done[LK_NUM], struct law_step *held)
{
	uint64_t last[LK_NUM], others;
	struct law_step none, out;
	struct guard_input in;
	enum guard_verdict v;
	int k, n = 0;

	law_hold(&none, "no step proposed");
	law_hold(held, "nothing held");
	st->learn = want->learn;
	for (k = 0; k < LK_NUM; k++)
		last[k] = g[k].last_step_tick;
	for (k = 0; k < LK_NUM; k++) {
		if (st->knob[k] == LAW_KNOB_ABSENT || !(knob_mask & (1u << k)))
			continue;
		others = guard_others_last(last, k);
		/* another knob moved inside the interval being judged: the cost cannot tell */
		if (g[k].eval_pending && others >= g[k].eval_tick)
			g[k].eval_pending = false;
		in = (struct guard_input){ .knob = k, .tick = tick, .valid = valid,
			.pinned = pinned_mask & (1u << k), .value = st->knob[k], .cost = cost };
		v = guard_review(&g[k], want->knob == (enum law_knob)k ? want : &none, &in, pol,
				 &out);
		if (v == GUARD_APPLY || v == GUARD_ROLLBACK) {
			st->knob[k] = out.new_value;
			done[n++] = out;
			/* its baseline interval followed another change: it cannot be judged */
			if (others && tick - others <= pol->settle_ticks)
				g[k].eval_pending = false;
		} else if (v == GUARD_HOLD) {
			*held = out;
		}
	}
	/* two changes in one tick share their interval: neither can be judged */
	for (k = 0; n > 1 && k < LK_NUM; k++)
		if (g[k].eval_tick == tick)
			g[k].eval_pending = false;
	return n;
}
