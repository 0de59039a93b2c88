// SPDX-License-Identifier: GPL-2.0-only
/*
 * decide: the control stage in closed loop on a hand-built device. The plant is a TX queue
 * with BQL (knob.c reads limit_max from the sample), fed constant or stepped rates; the
 * actuator journal is faked here (act.c's contract: act_set() writes, the value reads back
 * in the next sample), so every write, event and decision is seen and asserted by value.
 */
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <setjmp.h>
#include <cmocka.h>

#include "act.h"
#include "decide.h"
#include "dev.h"
#include "knob.h"
#include "netns.h"
#include "policy.h"
#include "runtime.h"

static struct netns ns = { .name = "lab", .sysfs = "/nonexistent" };

struct netns *netns_find(const char *name)
{
	return strcmp(name, "lab") ? NULL : &ns;
}

/* ---- fake actuator journal ---- */

#define MAX_WRITES	256
/* what a faked write takes: a tick part of its own (TP_WRITES) */
#define WRITE_TAKES_NS	200000L
#define MAX_EVENTS	256
static struct {
	enum knob_id k;
	uint64_t v;
	enum act_who who;
	char decision[16], controller[16];
} writes[MAX_WRITES];
static unsigned int n_writes;
static struct {
	char decision[16], controller[16], knob[32], reason[512];
	bool has_new;
	uint64_t new_;
	json_t *signals;
} events[MAX_EVENTS];
static unsigned int n_events;
static bool pin_all, fail_writes;
static char ctx_dec[16], ctx_ctl[16];
static json_t *ctx_sig;

void act_context(const char *controller, const char *decision, json_t *signals)
{
	snprintf(ctx_ctl, sizeof(ctx_ctl), "%s", controller ? controller : "");
	snprintf(ctx_dec, sizeof(ctx_dec), "%s", decision ? decision : "");
	json_decref(ctx_sig);
	ctx_sig = json_incref(signals);
}

void act_context_clear(void)
{
	act_context(NULL, NULL, NULL);
}

void act_event(const char *netns, const char *dev, const char *knob, const char *inst, int queue,
	       const uint64_t *old_, const uint64_t *new_, enum act_who who, const char *fmt, ...)
{
	va_list ap;

	(void)netns, (void)dev, (void)inst, (void)queue, (void)old_, (void)who;
	assert_true(n_events < MAX_EVENTS);
	snprintf(events[n_events].decision, 16, "%s", ctx_dec);
	snprintf(events[n_events].controller, 16, "%s", ctx_ctl);
	snprintf(events[n_events].knob, 32, "%s", knob ? knob : "");
	events[n_events].has_new = new_;
	events[n_events].new_ = new_ ? *new_ : 0;
	events[n_events].signals = json_incref(ctx_sig);
	va_start(ap, fmt);
	vsnprintf(events[n_events].reason, sizeof(events[n_events].reason), fmt, ap);
	va_end(ap);
	n_events++;
}

uint64_t act_event_count(void)
{
	return n_events;
}

bool act_pinned(const struct device *d, enum knob_id k, const char *inst)
{
	(void)d, (void)k, (void)inst;
	return pin_all;
}

enum act_result act_set(struct device *d, const struct knob_inst *ki, uint64_t v,
			enum act_who who, bool pin, const char *reason, uint64_t *oldv,
			uint64_t *newv, char *err, size_t errlen)
{
	char why[128];

	(void)pin;
	assert_true(n_writes < MAX_WRITES);
	assert_true(ki->k == K_BQL_LIMIT_MAX || ki->k == K_TX_RING_SIZE);
	/* the journal's range and rule check: a controller never asks what the driver refuses */
	assert_int_equal(knob_check(ki, v, why, sizeof(why)), 0);
	if (fail_writes) {
		snprintf(err, errlen, "Operation not permitted");
		act_event(ACT_DEV(d), "limit_max", ki->inst, ki->queue, NULL, &v, WHO_ERROR,
			  "%s refused", reason);
		return ACT_EKERNEL;
	}
	nanosleep(&(struct timespec){ .tv_nsec = WRITE_TAKES_NS }, NULL);
	writes[n_writes].k = ki->k;
	writes[n_writes].v = v;
	writes[n_writes].who = who;
	snprintf(writes[n_writes].decision, 16, "%s", ctx_dec);
	snprintf(writes[n_writes].controller, 16, "%s", ctx_ctl);
	n_writes++;
	*newv = v;
	if (ki->k == K_TX_RING_SIZE) {
		*oldv = d->rings.tx;
		d->rings.tx = (uint32_t)v;
		act_event(ACT_DEV(d), "tx-ring-size", "", -1, oldv, newv, who, "%s", reason);
		return ACT_OK;
	}
	*oldv = d->txq[ki->queue].bql[BQL_LIMIT_MAX];
	d->txq[ki->queue].bql[BQL_LIMIT_MAX] = v;	/* reads back in the next sample */
	act_event(ACT_DEV(d), "limit_max", ki->inst, ki->queue, oldv, newv, who, "%s", reason);
	return ACT_OK;
}

/* ---- plant: one TX queue sending @rate bytes/s in 1500-byte packets ---- */

#define DQL_MAX		1879048192ULL	/* the kernel's default limit_max */
#define RATE		100e6		/* bytes/s */

static struct device *mkdev(void)
{
	struct device *d = dev_add(&ns, 7);

	snprintf(d->name, sizeof(d->name), "vb");
	snprintf(d->kind, sizeof(d->kind), "veth");
	snprintf(d->driver, sizeof(d->driver), "veth");
	assert_int_equal(dev_set_queues(d, 1, 1), 0);
	d->managed = true;
	d->flags = IFF_UP | IFF_RUNNING;
	d->operstate = 6;	/* IF_OPER_UP */
	d->txq[0].bql_present = 1u << BQL_LIMIT | 1u << BQL_LIMIT_MIN | 1u << BQL_LIMIT_MAX |
				1u << BQL_INFLIGHT;
	d->txq[0].bql[BQL_LIMIT_MAX] = DQL_MAX;
	d->txq[0].bql[BQL_LIMIT_MIN] = 0;
	return d;
}

static void feed(struct device *d, double rate, double stop_per_s, double backlog, bool valid)
{
	struct queue *q = &d->txq[0];

	d->dvalid = true;
	d->interval_ns = d->q_interval_ns = 1000000000ULL;
	q->present = 1u << QC_BYTES | 1u << QC_PACKETS | 1u << QC_TX_STOP | 1u << QC_TX_WAKE;
	q->valid = valid;
	q->rate[QC_BYTES] = rate;
	q->rate[QC_PACKETS] = rate / 1500;
	q->rate[QC_TX_STOP] = stop_per_s;
	q->rate[QC_TX_WAKE] = stop_per_s;
	/* 10 packets in flight: a queue, so its rate is a drain rate (law_qlimit.c) */
	q->bql[BQL_INFLIGHT] = 15000;
	q->qdisc_backlog_bytes = backlog;
}

static void install_guard(const char *mode, double floor_pct, double rollback_worse)
{
	struct policy p;

	policy_defaults(&p);
	p.law.rollback_worse = rollback_worse;
	snprintf(p.mode, sizeof(p.mode), "%s", mode);
	p.throughput_floor_pct = floor_pct;
	policy_set(&p);
}

static void install(const char *mode, double floor_pct)
{
	install_guard(mode, floor_pct, 0.10);
}

static int setup(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < n_events; i++)
		json_decref(events[i].signals);
	n_writes = n_events = 0;
	pin_all = fail_writes = false;
	memset(runtime.part_ns, 0, sizeof(runtime.part_ns));
	return 0;
}

static int teardown(void **state)
{
	struct device *d;

	setup(state);
	while ((d = dev_first()))
		dev_del(d);
	act_context_clear();
	return 0;
}

static unsigned int count_events(const char *decision)
{
	unsigned int i, n = 0;

	for (i = 0; i < n_events; i++)
		n += !strcmp(events[i].decision, decision);
	return n;
}

/* active: limit_max walks from the kernel's default to D x T and stays there */
static void test_active_converges(void **state)
{
	struct device *d = mkdev();
	double target = RATE * 500e-6;	/* balanced: 500 us of the drain rate */
	uint64_t lm;
	unsigned int i, settled_writes = 0;
	json_t *tx;

	(void)state;
	install("active", 0);
	d->txq[0].bql[BQL_LIMIT_MAX] = 4194304;	/* the balanced policy's upper bound */
	for (i = 0; i < 120; i++) {
		feed(d, RATE, 0, 0, true);
		decide_tick(1);
		if (i == 90)
			settled_writes = n_writes;
	}
	lm = d->txq[0].bql[BQL_LIMIT_MAX];
	assert_true(n_writes >= 6);		/* 4 MiB -> 50 kB at most halving */
	/* the writes' time is a tick part of its own, at least what each one took */
	assert_true(runtime.part_ns[TP_WRITES] >= (uint64_t)n_writes * WRITE_TAKES_NS);
	/* converged within the guard's 4% dead band of D x T, and quiet at steady state */
	assert_true(fabs((double)lm - target) <= 0.04 * target + 1);
	assert_int_equal(n_writes, settled_writes);
	for (i = 0; i < n_writes; i++) {
		assert_int_equal(writes[i].who, WHO_CONTROLLER);
		assert_string_equal(writes[i].controller, "qlimit");
		assert_string_equal(writes[i].decision, "applied");
		/* inside the balanced bounds, every step at most halves */
		assert_true(writes[i].v >= 3028 && writes[i].v <= 4194304);
		if (i)
			assert_true(writes[i].v * 2 >= writes[i - 1].v);
	}
	/* each write's event carries the signals that drove it */
	tx = json_object_get(events[0].signals, "tx_bytes_per_s");
	assert_non_null(tx);
	assert_true(fabs(json_real_value(tx) - RATE) < 1);
	assert_true(json_is_true(json_object_get(events[0].signals, "valid")));
	assert_int_equal(decide_count(DD_APPLIED) >= n_writes, 1);
	assert_string_equal(decide_state(d), "active");
	assert_true(decide_controlled(d));
	/* the first interval after start is never acted on; a value outside the policy's
	 * bounds (the kernel's "no limit") is brought inside them in one step */
	teardown(state);
	d = mkdev();
	feed(d, RATE, 0, 0, true);
	decide_tick(1);
	assert_int_equal(n_writes, 0);
	feed(d, RATE, 0, 0, true);
	decide_tick(1);
	assert_int_equal(n_writes, 1);
	assert_int_equal(writes[0].v, 50000);
}

/*
 * A virtio_net device with a TX ring of @tx of at most @tx_max descriptors, under an active
 * policy that allows disruptive knobs and rings up to @policy_max, then 40 ticks in which the
 * queue drained RATE once and then stops at half of that with 15 kB in flight and a qdisc
 * backlog: the ring is full before BQL's limit, so the law wants a bigger ring.
 */
static struct device *ring_stops_first(uint32_t tx, uint32_t tx_max, int64_t policy_max)
{
	struct device *d = mkdev();
	struct policy p;
	unsigned int i;

	snprintf(d->driver, sizeof(d->driver), "virtio_net");
	d->rings_err = 0;
	d->rings = (struct eth_rings){ .rx = 256, .rx_max = tx_max, .tx = tx, .tx_max = tx_max,
				       .present = 0xf };
	policy_defaults(&p);
	snprintf(p.mode, sizeof(p.mode), "active");
	p.law.allow_disruptive = true;
	if (policy_max)
		p.law.bounds[LK_TX_RING_SIZE].max = policy_max;
	assert_true(p.law.bounds[LK_TX_RING_SIZE].max > tx);
	policy_set(&p);
	for (i = 0; i < 40; i++) {
		feed(d, i < 3 ? RATE : RATE / 2, i < 3 ? 0 : 1000, i < 3 ? 0 : 30000, true);
		decide_tick(1);
	}
	return d;
}

/*
 * virtio_net rings take only powers of two: the queue-limit law's ring step (double the
 * ring while it stops the queue first) is fitted toward the old value. 128 -> 256 is
 * written as is; 256 -> the policy's max 300 has no power of two between: held, nothing
 * written, and the reason says why. knob_check() in the fake journal asserts every write.
 */
static void test_ring_pow2(void **state)
{
	struct device *d = ring_stops_first(128, 4096, 300);
	unsigned int i;

	(void)state;
	assert_int_equal(d->rings.tx, 256);
	for (i = 0; i < n_writes; i++)
		if (writes[i].k == K_TX_RING_SIZE)
			assert_int_equal(writes[i].v, 256);
	assert_true(count_events("held") >= 1);
	for (i = 0; i < n_events; i++)
		if (!strcmp(events[i].decision, "held") && strstr(events[i].reason, "ring"))
			break;
	assert_true(i < n_events);
	assert_non_null(strstr(events[i].reason, "; tx-ring-size must be a power of two and no "
			       "other lies between 256 and 300: nothing written"));
	assert_int_equal(events[i].new_, 256);
}

/*
 * A knob's range on the device bounds the law as the policy does: a virtio_net TX ring at
 * its ethtool maximum of 256 that stops the queue first is at its bound, so no step to 512
 * is proposed (held or written), while the policy allows up to 4096.
 */
static void test_ring_at_driver_max(void **state)
{
	struct device *d = ring_stops_first(256, 256, 0);
	unsigned int i;

	(void)state;
	assert_int_equal(d->rings.tx, 256);
	for (i = 0; i < n_writes; i++)
		assert_int_not_equal(writes[i].k, K_TX_RING_SIZE);
	for (i = 0; i < n_events; i++)
		assert_false(events[i].new_ > 256 && strstr(events[i].reason, "ring"));
}

/* advise: the same step is advised, never written, and journalled once while it repeats */
/*
 * The decisions' part is the control stretch less the writes inside it
 * (runtime_lap_outer()): a 10 ms stretch holding 4 ms of writes charges control 6 ms.
 */
static void test_lap_outer(void **state)
{
	uint64_t t = util_now_ns(CLOCK_MONOTONIC) - 10000000, t0 = t, before = 1000;

	(void)state;
	runtime.part_ns[TP_WRITES] = before + 4000000;
	runtime_lap_outer(&t, TP_CONTROL, TP_WRITES, before);
	assert_true(runtime.part_ns[TP_CONTROL] >= 6000000);
	/* what ran between taking t and the lap: far below a second */
	assert_true(runtime.part_ns[TP_CONTROL] < 6000000 + 1000000000);
	assert_int_equal(runtime.part_ns[TP_WRITES], before + 4000000);
	/* the next lap starts where this one ended */
	assert_true(t - t0 >= 10000000);
}

static void test_advise(void **state)
{
	struct device *d = mkdev();
	unsigned int i;

	(void)state;
	install("advise", 0);
	for (i = 0; i < 20; i++) {
		feed(d, RATE, 0, 0, true);
		decide_tick(1);
	}
	assert_int_equal(n_writes, 0);
	assert_int_equal(d->txq[0].bql[BQL_LIMIT_MAX], DQL_MAX);
	assert_int_equal(count_events("advised"), 1);
	assert_string_equal(events[0].controller, "qlimit");
	assert_true(events[0].has_new);
	assert_int_equal(events[0].new_, 50000);
	/* ... and again once DECIDE_REPEAT_TICKS have passed */
	for (i = 0; i < DECIDE_REPEAT_TICKS; i++) {
		feed(d, RATE, 0, 0, true);
		decide_tick(1);
	}
	assert_int_equal(count_events("advised"), 2);
	assert_int_equal(n_writes, 0);
	/* advice writes nothing: no write time */
	assert_int_equal(runtime.part_ns[TP_WRITES], 0);
	/* advised is controlled too: the pacer and the status count it */
	assert_true(decide_controlled(d));
}

/* a pinned knob is never moved; the refusal is one held event naming the pin */
static void test_pinned_held(void **state)
{
	struct device *d = mkdev();
	unsigned int i;

	(void)state;
	install("active", 0);
	pin_all = true;
	for (i = 0; i < 10; i++) {
		feed(d, RATE, 0, 0, true);
		decide_tick(1);
	}
	assert_int_equal(n_writes, 0);
	assert_int_equal(count_events("held"), 1);
	assert_non_null(strstr(events[0].reason, "pinned"));
	assert_non_null(strstr(events[0].reason, "(law: "));
}

/* observe, pause, an unmanaged device and unusable intervals: nothing is decided */
static void test_no_control(void **state)
{
	struct device *d = mkdev();
	unsigned int i;

	(void)state;
	install("observe", 0);
	for (i = 0; i < 5; i++) {
		feed(d, RATE, 0, 0, true);
		decide_tick(1);
	}
	assert_string_equal(decide_state(d), "observe");
	assert_false(decide_controlled(d));
	install("active", 0);
	d->paused = true;
	for (i = 0; i < 5; i++) {
		feed(d, RATE, 0, 0, true);
		decide_tick(1);
	}
	assert_string_equal(decide_state(d), "paused");
	assert_false(decide_controlled(d));
	d->paused = false;
	d->managed = false;
	for (i = 0; i < 5; i++) {
		feed(d, RATE, 0, 0, true);
		decide_tick(1);
	}
	assert_string_equal(decide_state(d), "unmanaged");
	assert_false(decide_controlled(d));
	d->managed = true;
	for (i = 0; i < 5; i++) {
		feed(d, RATE, 0, 0, false);	/* counter reset / new generation */
		decide_tick(1);
	}
	d->flags = IFF_UP;			/* carrier lost */
	for (i = 0; i < 5; i++) {
		feed(d, RATE, 0, 0, true);
		decide_tick(1);
	}
	assert_int_equal(n_writes, 0);
	assert_int_equal(n_events, 0);
	assert_int_equal(d->txq[0].bql[BQL_LIMIT_MAX], DQL_MAX);
}

/* a refused write is a failed decision; the knob keeps its value and the law tries again */
static void test_write_fails(void **state)
{
	struct device *d = mkdev();
	unsigned long long until, from;
	const char *cause;
	json_t *c, *q;
	unsigned int i;

	(void)state;
	install("active", 0);
	fail_writes = true;
	for (i = 0; i < 2; i++) {
		feed(d, RATE, 0, 0, true);
		decide_tick(1);
	}
	c = decide_queue_json(d, 0, true);
	q = json_object_get(json_object_get(c, "laws"), "qlimit");
	assert_string_equal(json_string_value(json_object_get(q, "decision")), "failed");
	assert_string_equal(json_string_value(json_object_get(q, "knob")), "bql-limit-max");
	assert_string_equal(json_string_value(json_object_get(c, "state")), "active");
	json_decref(c);
	/* the rate changes every tick, so the law wants a new value every tick */
	for (i = 0; i < 4; i++) {
		feed(d, RATE + i * (RATE / 4), 0, 0, true);
		decide_tick(1);
	}
	assert_int_equal(n_writes, 0);
	assert_int_equal(d->txq[0].bql[BQL_LIMIT_MAX], DQL_MAX);
	/*
	 * one refusal, then the knob is held: one held event, not a refusal per tick, and not
	 * one per new value the law wants while the same hold lasts
	 */
	assert_int_equal(n_events, 2);
	assert_string_equal(events[1].decision, "held");
	/*
	 * the held reason names what held it, the failed write, and when: hold_ticks (30)
	 * before the hold ends; not a list of possible causes
	 */
	cause = strstr(events[1].reason, ": its write failed (refused by the kernel, or not "
		       "journalled) at tick ");
	assert_non_null(cause);
	assert_int_equal(sscanf(events[1].reason, "held bql-limit-max until tick %llu", &until), 1);
	assert_int_equal(sscanf(strstr(cause, "at tick "), "at tick %llu", &from), 1);
	assert_int_equal(until - from, 30);
	assert_null(strstr(events[1].reason, "oscillation"));
	/* the law's whole reason, figures and all, follows the guard's words (once cut at 160) */
	assert_true(strlen(events[1].reason) > 160);
	assert_non_null(strstr(events[1].reason, "(law: delay "));
	assert_non_null(strstr(events[1].reason, " B)"));
	/* retried once the hold (balanced: 30 ticks) is over, and written when it works */
	fail_writes = false;
	for (i = 0; i < 30; i++) {
		feed(d, RATE, 0, 0, true);
		decide_tick(1);
	}
	assert_int_equal(n_writes, 1);
	/* target delay (500 us) x the drain rate the law has seen: RATE .. 1.75 RATE above */
	assert_in_range(d->txq[0].bql[BQL_LIMIT_MAX], 50000, 87500);
}

/*
 * Ticks from a refused write until the retry that lands, each decide_tick(@ticks): the
 * failure holds the knob hold_ticks (30) base ticks.
 */
static unsigned int retry_calls(unsigned int ticks)
{
	struct device *d = mkdev();
	unsigned int i, calls = 0;

	install("active", 0);
	fail_writes = true;
	for (i = 0; i < 2; i++) {
		feed(d, RATE, 0, 0, true);
		decide_tick(1);
	}
	assert_int_equal(n_events, 1);		/* the refusal */
	assert_int_equal(n_writes, 0);
	fail_writes = false;
	while (!n_writes && calls < 100) {
		feed(d, RATE, 0, 0, true);
		decide_tick(ticks);
		calls++;
	}
	assert_int_equal(n_writes, 1);
	dev_del(d);
	setup(NULL);
	return calls;
}

/*
 * A paced tick counts the base ticks it stands for (decide_tick(4): a 4 s tick at a 1 s
 * --interval): the 30-tick hold after a failed write lasts the same time, in a quarter of
 * the ticks; 0 counts as 1.
 */
static void test_paced_hold(void **state)
{
	unsigned int fixed, paced;

	(void)state;
	fixed = retry_calls(1);
	/* failed at the first tick, so held until 30 base ticks after it */
	assert_in_range(fixed, 29, 31);
	assert_int_equal(retry_calls(0), fixed);
	paced = retry_calls(4);
	assert_int_equal(paced, (fixed + 3) / 4);
	assert_int_equal(retry_calls(2), (fixed + 1) / 2);
}

/*
 * the throughput floor rolls back a step after which a backlogged queue sent much less: a
 * floor of 50.5% holds its fraction (half the rate is under it; 50% would have let it be)
 */
static void test_floor_rollback(void **state)
{
	struct device *d = mkdev();
	uint64_t before;
	unsigned int i;

	(void)state;
	/* the guard's own rollback off (a 100x worse objective is tolerated): the floor acts */
	install_guard("active", 50.5, 100);
	feed(d, RATE, 0, 0, true);
	decide_tick(1);				/* first interval: seen */
	feed(d, RATE, 0, 0, true);
	decide_tick(1);				/* the first step */
	assert_int_equal(n_writes, 1);
	before = DQL_MAX;
	assert_true(writes[0].v < before);
	/* the next interval: half the rate with data waiting (tx-stop, qdisc backlog) */
	for (i = 0; i < 2 && n_writes < 2; i++) {
		feed(d, RATE / 2, 1000, 60000, true);
		decide_tick(1);
	}
	assert_int_equal(n_writes, 2);
	assert_int_equal(writes[1].v, before);
	assert_string_equal(writes[1].decision, "rollback");
	assert_non_null(strstr(events[n_events - 1].reason, "throughput floor"));
	assert_non_null(strstr(events[n_events - 1].reason, " is 50% of the "));
	assert_non_null(strstr(events[n_events - 1].reason, "(floor 50.5%)"));
	/* held afterwards: the same step is not retried at once, and the hold says why */
	for (i = 0; i < 5; i++) {
		feed(d, RATE, 0, 0, true);
		decide_tick(1);
	}
	assert_int_equal(n_writes, 2);
	assert_string_equal(events[n_events - 1].decision, "held");
	assert_non_null(strstr(events[n_events - 1].reason, ": its step broke the throughput floor "
			       "and was rolled back at tick "));
	/* without a floor the same drop is the law's business (its objective), not the floor's */
	teardown(state);
	d = mkdev();
	install_guard("active", 0, 100);
	feed(d, RATE, 0, 0, true);
	decide_tick(1);
	feed(d, RATE, 0, 0, true);
	decide_tick(1);
	feed(d, RATE / 2, 1000, 60000, true);
	decide_tick(1);
	for (i = 0; i < n_events; i++)
		assert_null(strstr(events[i].reason, "throughput floor"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_active_converges, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_pow2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_at_driver_max, setup, teardown),
		cmocka_unit_test_setup_teardown(test_advise, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lap_outer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pinned_held, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_control, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paced_hold, setup, teardown),
		cmocka_unit_test_setup_teardown(test_floor_rollback, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
