// SPDX-License-Identifier: GPL-2.0-only
/*
 * decide: the control stage (decide.h). Per tick: for each controlled device, per control
 * unit, map the sample onto law_signals (decide_signals.c) and the unit's knob instances
 * onto law_state, run each enabled law through guard_tick(), then write (active) or record
 * (advise). Views read the units' state in decide_view.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "act.h"
#include "decide.h"
#include "decide_priv.h"
#include "dev.h"
#include "knob.h"
#include "log.h"
#include "netns.h"
#include "runtime.h"
#include "util.h"
#include "vqp.h"
#include "vqpair.h"

#define NS_PER_S	1e9

static uint64_t ctl_tick;	/* base ticks (decide_tick()) since the start */
static uint64_t counts[DD_NUM];

/* law knob -> knob table id; -1: no such knob in the table */
static const int lk_kid[LK_NUM] = {
	[LK_BQL_LIMIT_MAX]	= K_BQL_LIMIT_MAX,
	[LK_BQL_LIMIT_MIN]	= K_BQL_LIMIT_MIN,
	[LK_TX_RING_SIZE]	= K_TX_RING_SIZE,
	[LK_TX_FULL_MODE]	= K_TX_FULL_MODE,
	[LK_RX_USECS]		= K_RX_USECS,
	[LK_RX_FRAMES]		= K_RX_FRAMES,
	[LK_DEFER_HARD_IRQS]	= K_DEFER_HARD_IRQS,
	[LK_GRO_FLUSH_TIMEOUT]	= K_GRO_FLUSH_TIMEOUT,
	[LK_BUSYLOOP_US]	= K_BUSYLOOP_US,
	[LK_BACKEND_WEIGHT]	= K_BACKEND_WEIGHT,
	[LK_TX_NAPI]		= K_TX_NAPI,
	[LK_ZEROCOPY]		= K_ZEROCOPY,
	[LK_ZEROCOPY_MIN_BYTES]	= K_ZEROCOPY_MIN_BYTES,
	[LK_ZEROCOPY_MAX_PENDING] = K_ZEROCOPY_MAX_PENDING,
};

static const uint32_t law_mask[POLICY_CTL_NUM] = {
	[POLICY_CTL_QLIMIT]	= LAW_QLIMIT_KNOBS,
	[POLICY_CTL_POLLING]	= LAW_POLL_KNOBS,
	[POLICY_CTL_ZEROCOPY]	= LAW_ZC_KNOBS,
};

const char *decide_knob_name(enum law_knob k)
{
	return knob_table[lk_kid[k]].name;
}

const char *decide_decision_name(enum decide_decision d)
{
	static const char *const n[DD_NUM] = {
		"hold", "applied", "rollback", "advised", "held", "failed" };

	return d < DD_NUM ? n[d] : "?";
}

const char *decide_law_name(enum policy_ctl c)
{
	static const char *const n[POLICY_CTL_NUM] = { "qlimit", "polling", "zerocopy" };

	return c < POLICY_CTL_NUM ? n[c] : "?";
}

uint64_t decide_count(enum decide_decision dd)
{
	return dd < DD_NUM ? counts[dd] : 0;
}

static unsigned int units_of(const struct device *d)
{
	unsigned int n = d->n_tx > d->n_rx ? d->n_tx : d->n_rx;

	return n ? n : 1;
}

static void unit_init(struct ctl_unit *u)
{
	memset(u, 0, sizeof(*u));
	law_state_init(&u->st);
}

/* (Re)allocate the units of @d for its generation; a new generation forgets everything. */
static struct ctl_dev *ctl_get(struct device *d)
{
	struct ctl_dev *c = d->ctl;
	unsigned int i, n = units_of(d);

	if (c && c->gen == d->gen && c->n == n)
		return c;
	free(c);
	d->ctl = NULL;
	c = calloc(1, sizeof(*c) + n * sizeof(c->u[0]));
	if (!c)
		return NULL;
	for (i = 0; i < n; i++)
		unit_init(&c->u[i]);
	c->n = n;
	c->gen = d->gen;
	d->ctl = c;
	return c;
}

const char *decide_state(const struct device *d)
{
	const struct policy *p = policy_get();

	if (!d->managed)
		return "unmanaged";
	if (!strcmp(d->kind, VQPAIR_LINK_KIND) && !vqp_is_front(d))
		return "back";
	if (!policy_selects(p, d->driver, d->name, d->ns->name))
		return "not-selected";
	if (d->paused)
		return "paused";
	return p->mode;
}

bool decide_controlled(const struct device *d)
{
	const char *st = decide_state(d);

	return !strcmp(st, "active") || !strcmp(st, "advise");
}

void decide_device_counts(unsigned int *managed, unsigned int *controlled)
{
	struct device *d;

	*managed = *controlled = 0;
	dev_for_each(d) {
		*managed += d->managed;
		*controlled += decide_controlled(d);
	}
}

/*
 * The instance of @k that belongs to unit @q (decide.h: device-wide knobs to unit 0). A NAPI
 * whose RX queue the kernel does not report (veth does not link queues to NAPIs) belongs
 * to the unit of its rank among such NAPIs: drivers add one NAPI per RX queue, in order.
 */
static bool unit_inst(const struct knob_inst *all, unsigned int n, unsigned int q,
		      struct knob_inst *out)
{
	unsigned int i, rank = 0;

	for (i = 0; i < n; i++) {
		bool mine;

		if (all[i].scope == KS_DEVICE)
			mine = q == 0;
		else if (all[i].scope == KS_NAPI && all[i].queue < 0)
			mine = rank++ == q;
		else
			mine = all[i].queue == (int)q;
		if (mine) {
			*out = all[i];
			return true;
		}
	}
	return false;
}

/* Map every law knob of @d onto its units' instances and values. */
static void map_knobs(struct device *d, struct ctl_dev *c)
{
	static struct knob_inst all[DEV_MAX_QUEUES];
	unsigned int q, n;
	int k;

	for (k = 0; k < LK_NUM; k++) {
		n = knob_instances(d, lk_kid[k], all, DEV_MAX_QUEUES);
		if (n > DEV_MAX_QUEUES)
			n = DEV_MAX_QUEUES;
		for (q = 0; q < c->n; q++) {
			struct ctl_unit *u = &c->u[q];

			u->has[k] = unit_inst(all, n, q, &u->ki[k]) && u->ki[k].has_value;
			u->st.knob[k] = u->has[k] ? (int64_t)u->ki[k].value : LAW_KNOB_ABSENT;
		}
	}
}

/* Unit 0 moves a device-wide hold for all RX queues: give it their sums. */
static void unit0_device_poll(const struct device *d, struct ctl_dev *c)
{
	struct law_signals *s0 = &c->u[0].sig;
	double pk = 0, ev = 0;
	unsigned int q;

	if (c->n < 2 || !c->u[0].has[LK_RX_USECS] || c->u[0].ki[LK_RX_USECS].scope != KS_DEVICE)
		return;
	for (q = 0; q < c->n && q < d->n_rx; q++) {
		pk += c->u[q].sig.rx_packets_per_s;
		ev += c->u[q].sig.events_per_s;
	}
	s0->rx_packets_per_s = pk;	/* NaN when one queue is unknown: then all are */
	s0->events_per_s = ev;
}

/*
 * Emit an advised/held event unless it repeats the last one of this law on this unit
 * within DECIDE_REPEAT_TICKS. An advice repeats when knob, value and reason are the same.
 * A held decision repeats when the same rail holds the same knob: its reason up to the
 * law's part " (law: ...)", whatever value the law wants meanwhile (a law that tracks a
 * moving rate wants a new value every tick while one hold lasts).
 */
static bool repeat(struct ctl_unit *u, enum policy_ctl law, enum decide_decision dd,
		   enum law_knob k, int64_t value, const char *reason)
{
	struct ctl_rep *r = &u->rep[law];
	const char *lawpart = dd == DD_HELD ? strstr(reason, " (law: ") : NULL;
	int keylen = lawpart ? (int)(lawpart - reason) : (int)strlen(reason);

	if (dd == DD_HELD)
		value = 0;
	if (r->dd == dd && r->knob == k && r->value == value &&
	    (int)strlen(r->reason) == keylen && !strncmp(r->reason, reason, (size_t)keylen) &&
	    ctl_tick - r->tick < DECIDE_REPEAT_TICKS)
		return true;
	r->dd = dd;
	r->knob = k;
	r->value = value;
	r->tick = ctl_tick;
	snprintf(r->reason, sizeof(r->reason), "%.*s", keylen, reason);
	return false;
}

static void record(struct ctl_unit *u, enum policy_ctl law, enum decide_decision dd,
		   const struct law_step *s, double cost)
{
	struct ctl_last *l = &u->last[law];

	l->tick = ctl_tick;
	l->dd = dd;
	l->knob = s->knob;
	l->old_value = s->old_value;
	l->new_value = s->new_value;
	l->cost = cost;
	snprintf(l->reason, sizeof(l->reason), "%s", s->reason);
	counts[dd]++;
	if (dd == DD_APPLIED || dd == DD_ROLLBACK)
		l->steps++;
	/* act_set() journalled these just now */
	if (dd == DD_APPLIED || dd == DD_ROLLBACK || dd == DD_FAILED)
		l->event_id = act_event_count();
}

/* A note event (advised, held) of law @law on unit @q of @d. */
static void note(struct device *d, unsigned int q, struct ctl_unit *u, enum policy_ctl law,
		 enum decide_decision dd, const struct law_step *s, json_t *sigj)
{
	enum law_knob k = s->knob;
	const char *kname = k < LK_NUM ? knob_table[lk_kid[k]].name : NULL;
	uint64_t o = (uint64_t)s->old_value, n = (uint64_t)s->new_value;
	bool has_val = k < LK_NUM;

	if (repeat(u, law, dd, k, has_val ? s->new_value : 0, s->reason))
		return;
	act_context(decide_law_name(law), decide_decision_name(dd), sigj);
	act_event(ACT_DEV(d), kname, k < LK_NUM && u->has[k] ? u->ki[k].inst : NULL, (int)q,
		  has_val ? &o : NULL, has_val ? &n : NULL, WHO_CONTROLLER, "%s", s->reason);
	act_context_clear();
	u->last[law].event_id = act_event_count();
}

/* The log line of step @s of @law on @ki that act_set() refused with @err (raw names). */
static void log_failed(const struct device *d, enum policy_ctl law, const struct knob_inst *ki,
		       const struct law_step *s, const char *err)
{
	char name[4 * IFNAMSIZ + 1], *why = util_display_dup(err);

	util_name_display(d->name, name, sizeof(name));
	log_warn("%s: %s %s: %s step %" PRId64 " -> %" PRId64 " not written: %s", name,
		 decide_law_name(law), ki->inst, knob_table[ki->k].name, s->old_value,
		 s->new_value, why ? why : err);
	free(why);
}

/* Write the accepted step @s of @law on unit @q (active mode). */
static void apply(struct device *d, struct ctl_unit *u, enum policy_ctl law,
		  const struct law_step *s, bool rollback, json_t *sigj, double cost)
{
	enum law_knob k = s->knob;
	uint64_t oldv, newv;
	enum act_result r;
	char err[256] = "";
	uint64_t t = util_now_ns(CLOCK_MONOTONIC);

	act_context(decide_law_name(law), rollback ? "rollback" : "applied", sigj);
	r = act_set(d, &u->ki[k], (uint64_t)s->new_value, WHO_CONTROLLER, false, s->reason, &oldv,
		    &newv, err, sizeof(err));
	act_context_clear();
	/* a tick part of its own; main.c takes it out of the decisions' (TP_CONTROL) */
	runtime_lap(&t, TP_WRITES);
	if (r != ACT_OK) {
		/*
		 * The knob keeps its value; the guard forgets a step that never happened and
		 * holds the knob, so a write the kernel keeps refusing is retried every
		 * hold_ticks, not every tick.
		 */
		u->st.knob[k] = s->old_value;
		guard_forget(&u->g[k]);
		guard_hold_for(&u->g[k], GUARD_HOLD_FAILED, ctl_tick, policy_get()->law.hold_ticks,
			       0);
		log_failed(d, law, &u->ki[k], s, err);
		record(u, law, DD_FAILED, s, cost);
		return;
	}
	u->st.knob[k] = (int64_t)newv;
	u->ki[k].value = newv;
	record(u, law, rollback ? DD_ROLLBACK : DD_APPLIED, s, cost);
	if (!rollback && law != POLICY_CTL_POLLING && law_known(u->sig.tx_bytes_per_s))
		u->floor = (struct ctl_floor){ .pending = true, .law = law, .knob = k,
			.old_value = s->old_value, .new_value = (int64_t)newv,
			.ref_bytes_per_s = u->sig.tx_bytes_per_s, .tick = ctl_tick };
}

/*
 * The policy's throughput floor (objective.throughput_floor_pct): a queue-limit or zerocopy
 * step after which the queue sends less than floor% of what it sent before, while it still
 * has data waiting (tx-stop or a qdisc backlog: the drop is not the load's), is rolled back
 * once its first full interval is in, and the knob is held for hold_ticks. The polling law
 * does not limit TX throughput; its hold is capped by the latency target instead.
 * Returns true when it rolled a step back (the unit does nothing else this tick).
 */
static bool floor_check(struct device *d, struct ctl_unit *u, const struct policy *p,
			bool active)
{
	struct ctl_floor *f = &u->floor;
	const struct law_signals *s = &u->sig;
	double min = p->throughput_floor_pct / 100.0 * f->ref_bytes_per_s;
	bool demand;
	struct law_step back;
	json_t *sigj;

	if (!f->pending || ctl_tick < f->tick + p->law.settle_ticks || !s->valid)
		return false;
	f->pending = false;
	demand = (law_known(s->tx_stop_per_s) && s->tx_stop_per_s > 0) ||
		 (law_known(s->qdisc_backlog_bytes) && s->qdisc_backlog_bytes > 0);
	if (p->throughput_floor_pct <= 0 || !law_known(s->tx_bytes_per_s) ||
	    s->tx_bytes_per_s >= min || !demand || u->st.knob[f->knob] != f->new_value ||
	    !active || act_pinned(d, lk_kid[f->knob], u->ki[f->knob].inst))
		return false;
	law_propose(&back, f->knob, f->new_value, f->old_value, false,
		    "rollback %s %lld -> %lld: throughput floor, %.3g B/s is %.0f%% of the %.3g "
		    "B/s before the step (floor %g%%)", law_knob_name(f->knob),
		    (long long)f->new_value, (long long)f->old_value, s->tx_bytes_per_s,
		    100 * s->tx_bytes_per_s / f->ref_bytes_per_s, f->ref_bytes_per_s,
		    p->throughput_floor_pct);
	sigj = decide_signals_json(s);
	apply(d, u, f->law, &back, true, sigj, NAN);
	json_decref(sigj);
	/* a rollback that failed is held as the failed write it is (apply() held it so) */
	if (u->g[f->knob].hold_why != GUARD_HOLD_FAILED || u->g[f->knob].hold_from_tick != ctl_tick)
		guard_hold_for(&u->g[f->knob], GUARD_HOLD_FLOOR, ctl_tick, p->law.hold_ticks,
			       f->new_value > f->old_value ? 1 : -1);
	u->g[f->knob].eval_pending = false;
	return true;
}

typedef int (*law_fn)(const struct law_state *, const struct law_signals *,
		      const struct law_policy *, struct law_step *);
typedef double (*cost_fn)(const struct law_state *, const struct law_signals *,
			  const struct law_policy *);

static const law_fn laws[POLICY_CTL_NUM] = {
	[POLICY_CTL_QLIMIT] = law_qlimit_step,
	[POLICY_CTL_POLLING] = law_poll_step,
	[POLICY_CTL_ZEROCOPY] = law_zc_step,
};

static const cost_fn costs[POLICY_CTL_NUM] = {
	[POLICY_CTL_QLIMIT] = law_qlimit_cost,
	[POLICY_CTL_POLLING] = law_poll_cost,
	[POLICY_CTL_ZEROCOPY] = law_zc_cost,
};

/*
 * Holds that are the guardrails working as designed at every steady state (dead band,
 * bound, cooldown after a step, an unusable interval) are shown in the queue's controller
 * state but not journalled as events; holds that need an operator's eye (pin, oscillation,
 * rollback hold, disruptive consent) are.
 */
static bool quiet_hold(const char *reason)
{
	return strstr(reason, "inside the") || strstr(reason, "at its bound") ||
	       strstr(reason, "cooldown") || strstr(reason, "interval invalid");
}

/*
 * Fit an accepted step to the driver's rule (knob.h knob_fit(): a virtio_net ring takes
 * only powers of two), toward the old value so the guard's bounds still hold; the guard's
 * pending evaluation follows. Returns true when no allowed value lies between: the step
 * is dropped, the guard forgets it, and @s says why (recorded as held).
 */
static bool fit_step(struct ctl_unit *u, struct law_step *s)
{
	enum law_knob k = s->knob;
	const struct knob_inst *ki = &u->ki[k];
	size_t len = strlen(s->reason);
	uint64_t f;

	if (s->old_value < 0 || s->new_value < 0 || !ki->rule)
		return false;
	f = knob_fit(ki, (uint64_t)s->new_value, (uint64_t)s->old_value);
	if (f == (uint64_t)s->new_value)
		return false;
	if (f == (uint64_t)s->old_value) {
		snprintf(s->reason + len, sizeof(s->reason) - len, "; %s must be a %s and no other "
			 "lies between %" PRId64 " and %" PRId64 ": nothing written",
			 knob_table[ki->k].name, knob_rule_name(ki->rule), s->old_value,
			 s->new_value);
		s->new_value = s->old_value;
		u->st.knob[k] = s->old_value;
		guard_forget(&u->g[k]);
		return true;
	}
	snprintf(s->reason + len, sizeof(s->reason) - len, "; %s must be a %s: %" PRId64
		 " fitted to %" PRIu64, knob_table[ki->k].name, knob_rule_name(ki->rule),
		 s->new_value, f);
	s->new_value = (int64_t)f;
	u->st.knob[k] = (int64_t)f;
	if (u->g[k].eval_pending)
		u->g[k].eval_new = (int64_t)f;
	return false;
}

/*
 * @pol with each present knob's bounds narrowed to its range on this device (knob_inst
 * min/max: a virtio_net ring's ethtool maximum, say), so a law never proposes a value the
 * device refuses: a ring at its driver's maximum of 256 is "at its bound", not a step to
 * 512. A policy range wholly outside the device's pins the knob at the device's end nearest
 * to it.
 */
static void unit_bounds(const struct ctl_unit *u, const struct law_policy *pol,
			struct law_policy *out)
{
	int k;

	*out = *pol;
	for (k = 0; k < LK_NUM; k++) {
		struct law_bounds *b = &out->bounds[k];
		int64_t lo, hi;

		if (!u->has[k] || u->ki[k].max > INT64_MAX)
			continue;
		lo = (int64_t)u->ki[k].min;
		hi = (int64_t)u->ki[k].max;
		if (b->min > hi) {
			b->min = b->max = hi;
		} else if (b->max < lo) {
			b->min = b->max = lo;
		} else {
			b->min = b->min > lo ? b->min : lo;
			b->max = b->max < hi ? b->max : hi;
		}
	}
}

/* @pol: the policy's law settings with the unit's bounds (unit_bounds()) */
static void run_law(struct device *d, unsigned int q, struct ctl_unit *u, enum policy_ctl law,
		    const struct law_policy *pol, bool active)
{
	struct law_step want, done[LK_NUM], held;
	uint32_t pinned = 0, present = 0;
	json_t *sigj = NULL;
	double cost;
	bool quiet, holds;
	int k, n, i;

	for (k = 0; k < LK_NUM; k++) {
		if (!(law_mask[law] & LAW_KNOB_BIT(k)) || !u->has[k])
			continue;
		present |= LAW_KNOB_BIT(k);
		if (act_pinned(d, lk_kid[k], u->ki[k].inst))
			pinned |= LAW_KNOB_BIT(k);
	}
	if (!present)
		return;
	if (u->sig.valid) {
		laws[law](&u->st, &u->sig, pol, &want);
	} else {
		law_hold(&want, "interval not usable (reset, new queue generation, carrier)");
		want.learn = u->st.learn;
	}
	cost = u->sig.valid ? costs[law](&u->st, &u->sig, pol) : NAN;
	n = guard_tick(u->g, &u->st, &want, law_mask[law], ctl_tick, u->sig.valid, cost, pinned,
		       pol, done, &held);
	quiet = quiet_hold(held.reason);
	holds = strcmp(held.reason, "nothing held");
	if (holds) {
		/* the guard refused the law's step: keep what the law wanted and why */
		size_t len = strlen(held.reason);

		/* truncated at LAW_REASON_MAX like every reason; the rail's words come first */
		if (len + 8 < sizeof(held.reason))
			snprintf(held.reason + len, sizeof(held.reason) - len, " (law: %.*s)",
				 (int)(sizeof(held.reason) - len - 9), want.reason);
		held.new_value = want.new_value;
	}
	if (n || holds)
		sigj = decide_signals_json(&u->sig);
	for (i = 0; i < n; i++) {
		bool rb = !strncmp(done[i].reason, "rollback", 8);

		if (fit_step(u, &done[i])) {
			record(u, law, DD_HELD, &done[i], cost);
			note(d, q, u, law, DD_HELD, &done[i], sigj);
			continue;
		}
		if (active) {
			apply(d, u, law, &done[i], rb, sigj, cost);
			continue;
		}
		/* advise: nothing written; the guard forgets a step that did not happen */
		u->st.knob[done[i].knob] = done[i].old_value;
		guard_forget(&u->g[done[i].knob]);
		record(u, law, DD_ADVISED, &done[i], cost);
		note(d, q, u, law, DD_ADVISED, &done[i], sigj);
	}
	if (holds) {
		record(u, law, DD_HELD, &held, cost);
		if (!quiet)
			note(d, q, u, law, DD_HELD, &held, sigj);
	} else if (!n) {
		record(u, law, DD_NONE, &want, cost);
	}
	json_decref(sigj);
}

/* @ticks: the base ticks this tick stands for (decide_tick()), >= 1 */
static void decide_dev(struct device *d, const struct policy *p, uint32_t ticks)
{
	bool active = !strcmp(p->mode, "active");
	struct ctl_dev *c = ctl_get(d);
	struct law_policy lp;
	bool carrier;
	unsigned int q;
	int law;

	if (!c)
		return;
	map_knobs(d, c);
	carrier = (d->flags & IFF_UP) && (d->flags & IFF_RUNNING);
	for (q = 0; q < c->n; q++) {
		decide_signals(d, q, &c->u[q].sig);
		c->u[q].sig.ticks = ticks;
		/* the first interval, and one across a carrier or operstate change, is not usable */
		if (!c->seen || !carrier || c->operstate != d->operstate ||
		    ((c->flags ^ d->flags) & (IFF_UP | IFF_RUNNING)))
			c->u[q].sig.valid = false;
	}
	unit0_device_poll(d, c);
	c->operstate = d->operstate;
	c->flags = d->flags;
	c->seen = true;
	for (q = 0; q < c->n; q++) {
		if (floor_check(d, &c->u[q], p, active))
			continue;
		unit_bounds(&c->u[q], &p->law, &lp);
		for (law = 0; law < POLICY_CTL_NUM; law++)
			if (p->enabled[law])
				run_law(d, q, &c->u[q], law, &lp, active);
	}
}

void decide_tick(unsigned int ticks)
{
	const struct policy *p = policy_get();
	struct device *d;

	if (!ticks)
		ticks = 1;
	ctl_tick += ticks;
	if (!strcmp(p->mode, "observe"))
		return;
	dev_for_each(d) {
		if (!decide_controlled(d)) {
			/* not controlled: a later resume starts from a fresh interval */
			if (d->ctl)
				d->ctl->seen = false;
			continue;
		}
		decide_dev(d, p, ticks);
	}
}
bool decide_controls(const struct device *d, int k, const char *inst)
{
	const struct policy *p = policy_get();
	int lk, law;

	if (!decide_controlled(d))
		return false;
	if (act_pinned(d, k, inst))
		return false;
	for (lk = 0; lk < LK_NUM; lk++) {
		if (lk_kid[lk] != k)
			continue;
		for (law = 0; law < POLICY_CTL_NUM; law++)
			if (p->enabled[law] && (law_mask[law] & LAW_KNOB_BIT(lk)))
				return true;
	}
	return false;
}
