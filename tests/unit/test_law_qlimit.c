// SPDX-License-Identifier: GPL-2.0-only
/*
 * law_qlimit in closed loop against the TX queue plant (qdisc + BQL + batched completions),
 * with step changes in offered load and packet size; and its single-tick rules.
 * LAW_TRACE=1 in the environment prints every tick's signals, step and guard verdict.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "law.h"
#include "plant.h"

/* 10 ms ticks: the daemon's fastest; the plant's completion periods (<= 2 ms) fit 5x */
#define TICK_NS			10000000ULL
#define PHASE_TICKS		80
/*
 * From 8x above target the guard allows one halving per cooldown (2 ticks): 3 steps, 6
 * ticks; limit_min may need as many first, and a starvation floor one more interval to
 * measure: 14 ticks; 24 leaves room for the one extra band step the rounding may need.
 */
#define QL_CONVERGE_TICKS	24
/* steady state: the last 20 ticks of a phase must have no reversal */
#define STEADY_TICKS		20
/* the acceptance: within 10% of the plant's optimum */
#define OPT_TOL			0.10
/* law_qlimit.c's starvation headroom, which the optimum includes */
#define QL_HEADROOM		0.10
/* measurement noise of the jitter runs: half the guard's 4% band, so that a ratio of two
 * noisy counters stays inside it */
#define JITTER			0.02
#define JITTER_SEED		0x9e3779b97f4a7c15ULL

/* 1 Gbit/s wire, 2 ms completion timer, 16 frames per completion, 4 MB qdisc */
#define WIRE_BYTES_PER_S	125e6
#define COMPL_PERIOD_NS		2000000ULL
#define COMPL_FRAMES		16
#define QDISC_CAP_BYTES		(4 << 20)
#define MTU_PKT_BYTES		1500
#define GSO_PKT_BYTES		65536

/* the single-tick rule tests' delay target: their figures are worked out at 1 ms */
#define RULE_TARGET_NS		1000000ULL

/* a 200 Mbit/s line (vqpair line_rate_mbit 200) completing each packet as it leaves */
#define LINE_BYTES_PER_S	25e6
#define LINE_COMPL_NS		100000ULL
/* per-tick rate jitter at such a line in the VM bench: a few %, up to 6 */
#define LINE_JITTER		0.06
#define LINE_TICKS		160

struct phase {
	const char *name;
	double offered_bytes_per_s;
	uint32_t pkt_bytes;
	bool backlogged;		/* offered > wire: the qdisc holds data */
};

static const struct phase phases[] = {
	{ "bulk 1500 B", 200e6, MTU_PKT_BYTES, true },
	{ "load step to 60 MB/s", 60e6, MTU_PKT_BYTES, false },
	{ "size step to 64 KB GSO", 200e6, GSO_PKT_BYTES, true },
	{ "size step back to 1500 B", 200e6, MTU_PKT_BYTES, true },
};

struct loop {
	struct plant_txq plant;
	struct law_state st;
	struct law_policy pol;
	struct guard_knob g[LK_NUM];
	struct trace tr;
	uint64_t tick;
	double jitter;
	uint64_t seed;
	bool no_line_rate;		/* the law sees only what passed, no capacity */
};

static void loop_init(struct loop *l)
{
	memset(l, 0, sizeof(*l));
	law_policy_defaults(&l->pol);
	law_state_init(&l->st);
	l->st.knob[LK_BQL_LIMIT_MAX] = 1000000;	/* 8 ms of wire: far above the target */
	l->st.knob[LK_BQL_LIMIT_MIN] = 0;
	l->plant.drain_bytes_per_s = WIRE_BYTES_PER_S;
	l->plant.compl_period_ns = COMPL_PERIOD_NS;
	l->plant.compl_frames = COMPL_FRAMES;
	l->plant.qdisc_cap_bytes = QDISC_CAP_BYTES;
	plant_txq_init(&l->plant);
}

/* One tick: plant interval, law, guard, knobs back into the plant. */
static void loop_tick(struct loop *l, struct law_signals *sig)
{
	struct law_step want, done[LK_NUM], held;
	double cost;
	int n;

	l->plant.limit_bytes = l->st.knob[LK_BQL_LIMIT_MAX];
	plant_txq_run(&l->plant, TICK_NS, sig);
	sig->valid = l->tick > 0;	/* the daemon's first reading has no rate (rate.h) */
	if (l->no_line_rate)
		sig->capacity_bytes_per_s = LAW_UNKNOWN;
	if (l->jitter)
		plant_jitter(sig, &l->seed, l->jitter);
	assert_true(law_qlimit_step(&l->st, sig, &l->pol, &want) >= 0);
	cost = law_qlimit_cost(&l->st, sig, &l->pol);
	n = guard_tick(l->g, &l->st, &want, LAW_QLIMIT_KNOBS, ++l->tick, sig->valid, cost, 0,
		       &l->pol, done, &held);
	trace_record(&l->tr, &l->st, done, n);
	if (getenv("LAW_TRACE"))
		printf("t%llu max %lld min %lld tx %.0f stop %.0f inflight %.0f | %s | %s\n",
		       (unsigned long long)l->tick, (long long)l->st.knob[LK_BQL_LIMIT_MAX],
		       (long long)l->st.knob[LK_BQL_LIMIT_MIN], sig->tx_bytes_per_s,
		       sig->tx_stop_per_s, sig->bql_inflight_bytes,
		       n ? done[0].reason : want.reason, held.reason);
	assert_true(l->st.knob[LK_BQL_LIMIT_MIN] <= l->st.knob[LK_BQL_LIMIT_MAX]);
}

static void run_phases(double jitter, bool hidden)
{
	static struct loop l;
	struct law_signals sig;
	size_t p;
	uint32_t t, from, at;
	double opt, starved, delay;

	loop_init(&l);
	l.plant.hide_stack_stops = hidden;
	l.jitter = jitter;
	l.seed = JITTER_SEED;
	for (p = 0; p < sizeof(phases) / sizeof(phases[0]); p++) {
		l.plant.offered_bytes_per_s = phases[p].offered_bytes_per_s;
		l.plant.pkt_bytes = phases[p].pkt_bytes;
		from = l.tr.n;
		starved = delay = 0;
		for (t = 0; t < PHASE_TICKS; t++) {
			loop_tick(&l, &sig);
			if (t >= PHASE_TICKS - STEADY_TICKS) {
				starved += l.plant.starved_ns;
				delay = fmax(delay, l.plant.delay_mean_ns);
			}
		}
		opt = plant_txq_optimum_bytes(&l.plant, l.pol.qlimit_target_delay_ns, QL_HEADROOM);
		at = trace_settled_at(&l.tr, LK_BQL_LIMIT_MAX, from, l.tr.n, opt, OPT_TOL);
		printf("qlimit%s%s %-26s optimum %7.0f B, limit_max %7lld B (%+.1f%%), converged in "
		       "%u ticks, steady delay %.0f us, starved %.0f us\n", jitter ? "~" : "",
		       hidden ? " (BQL stops hidden)" : "",
		       phases[p].name, opt,
		       (long long)l.st.knob[LK_BQL_LIMIT_MAX],
		       100 * ((double)l.st.knob[LK_BQL_LIMIT_MAX] / opt - 1), at - from + 1,
		       delay / 1e3, starved / 1e3);
		assert_true(at - from + 1 <= QL_CONVERGE_TICKS);
		assert_true(fabs((double)l.st.knob[LK_BQL_LIMIT_MAX] - opt) <= OPT_TOL * opt);
		assert_int_equal(trace_reversals(&l.tr, LK_BQL_LIMIT_MAX, l.tr.n - STEADY_TICKS,
						 l.tr.n), 0);
		assert_int_equal(trace_reversals(&l.tr, LK_BQL_LIMIT_MIN, l.tr.n - STEADY_TICKS,
						 l.tr.n), 0);
		/* the truth behind the optimum: never starved at steady state ... */
		assert_true(starved == 0);
		/* ... and the delay target met wherever it is feasible */
		if (plant_txq_period_ns(&l.plant) <= (double)l.pol.qlimit_target_delay_ns)
			assert_true(delay <= (1 + OPT_TOL) * (double)l.pol.qlimit_target_delay_ns);
	}
	assert_true(trace_in_bounds(&l.tr, &l.pol));
	assert_int_equal(l.tr.rollbacks, 0);
	assert_true(l.tr.steps > 0);
}

static void test_closed_loop_phases(void **state)
{
	run_phases(0, false);
}

/*
 * As Linux reports it: BQL's stops are not in qstats tx-stop, only in bql_limited; the law
 * finds the same starvation floors.
 */
static void test_closed_loop_bql_stops_hidden(void **state)
{
	run_phases(0, true);
}

/* the same with noisy measurements: the hysteresis band keeps the steady state still */
static void test_closed_loop_jitter(void **state)
{
	run_phases(JITTER, false);
}

/* The single-tick tests' start: balanced's policy at a 1 ms target, every knob absent. */
static void rule_init(struct law_policy *pol, struct law_state *st)
{
	law_policy_defaults(pol);
	pol->qlimit_target_delay_ns = RULE_TARGET_NS;
	law_state_init(st);
}

/*
 * No line rate, BQL's stops hidden (as Linux), and a limit far below the optimum from the
 * start: the law cannot learn the drain rate from a peak the cap itself holds down; dql
 * pinned at limit_max says the cap binds, the law probes upward and ends at the optimum.
 */
static void test_capped_without_line_rate(void **state)
{
	static struct loop l;
	struct law_signals sig;
	uint32_t t, at;
	double opt;

	loop_init(&l);
	l.no_line_rate = true;
	l.plant.hide_stack_stops = true;
	l.plant.offered_bytes_per_s = 2 * WIRE_BYTES_PER_S;
	l.plant.pkt_bytes = 1500;
	l.st.knob[LK_BQL_LIMIT_MAX] = 8000;	/* starving: ~4 MB/s through a 2 ms period */
	for (t = 0; t < 80; t++) {
		loop_tick(&l, &sig);
	}
	opt = plant_txq_optimum_bytes(&l.plant, l.pol.qlimit_target_delay_ns, QL_HEADROOM);
	at = trace_settled_at(&l.tr, LK_BQL_LIMIT_MAX, 0, l.tr.n, opt, OPT_TOL);
	printf("qlimit capped, no line rate: optimum %.0f B, limit_max %lld B, settled after "
	       "%u steps of %u\n", opt, (long long)l.st.knob[LK_BQL_LIMIT_MAX], at + 1, l.tr.n);
	assert_true(fabs((double)l.st.knob[LK_BQL_LIMIT_MAX] - opt) <= OPT_TOL * opt);
	assert_true(trace_in_bounds(&l.tr, &l.pol));
}

/*
 * The same with the per-tick jitter of a VM. The limit climbs out of starvation and stops
 * near the optimum: the peak of jittered rates leaves it up to LINE_JITTER x 2 off. Floors
 * learned from jittery ticks had carried it to 281 KB; and a raise too small to tell from
 * the jitter, judged a failed probe, would leave the queue starving at 8 KB (4 MB/s of a
 * 125 MB/s wire).
 */
static void test_capped_jitter_climbs(void **state)
{
	static struct loop l;
	struct law_signals sig;
	uint64_t seeds[] = { JITTER_SEED, 0x444412345ULL, 0x777712345ULL, 0x131312345ULL };
	uint32_t t;
	size_t i;
	double opt;

	(void)state;
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		loop_init(&l);
		l.no_line_rate = true;
		l.plant.hide_stack_stops = true;
		l.plant.offered_bytes_per_s = 2 * WIRE_BYTES_PER_S;
		l.plant.pkt_bytes = 1500;
		l.st.knob[LK_BQL_LIMIT_MAX] = 8000;
		l.jitter = LINE_JITTER;
		l.seed = seeds[i];
		for (t = 0; t < LINE_TICKS; t++)
			loop_tick(&l, &sig);
		opt = plant_txq_optimum_bytes(&l.plant, l.pol.qlimit_target_delay_ns,
					      QL_HEADROOM);
		printf("qlimit capped, no line rate, +-%.0f%% jitter, seed %zu: optimum %.0f B, "
		       "limit_max %lld B after %u ticks\n", LINE_JITTER * 100, i, opt,
		       (long long)l.st.knob[LK_BQL_LIMIT_MAX], LINE_TICKS);
		assert_true(fabs((double)l.st.knob[LK_BQL_LIMIT_MAX] - opt) <=
			    (OPT_TOL + 2 * LINE_JITTER) * opt);
		assert_true(trace_in_bounds(&l.tr, &l.pol));
	}
}

/*
 * The same, but dql sits at the cap in every interval, also once the wire binds (bursty
 * completions make it want more): probes that do not raise the rate stop, and the limit
 * does not climb to the policy's bound.
 */
static void test_capped_probe_stops(void **state)
{
	static struct loop l;
	struct law_signals sig;
	uint32_t t;
	double opt;

	loop_init(&l);
	l.no_line_rate = true;
	l.plant.hide_stack_stops = true;
	l.plant.dql_always_capped = true;
	l.plant.offered_bytes_per_s = 2 * WIRE_BYTES_PER_S;
	l.plant.pkt_bytes = 1500;
	l.st.knob[LK_BQL_LIMIT_MAX] = 8000;
	for (t = 0; t < 200; t++) {
		loop_tick(&l, &sig);
	}
	opt = plant_txq_optimum_bytes(&l.plant, l.pol.qlimit_target_delay_ns, QL_HEADROOM);
	printf("qlimit always capped: optimum %.0f B, limit_max %lld B after %u steps\n", opt,
	       (long long)l.st.knob[LK_BQL_LIMIT_MAX], l.tr.n);
	assert_true((double)l.st.knob[LK_BQL_LIMIT_MAX] <= 2.5 * opt);
	assert_true((double)l.st.knob[LK_BQL_LIMIT_MAX] >= (1 - OPT_TOL) * opt);
	assert_int_equal(trace_reversals(&l.tr, LK_BQL_LIMIT_MAX, l.tr.n - 20, l.tr.n), 0);
}

/*
 * A line binds (vqpair's line_rate_mbit, a NIC's wire), no line rate is known, dql sits at
 * the cap (completions come as the line takes packets, so dql always wants more) and the
 * rate read per tick jitters by LINE_JITTER: the peak then sits above the mean, and a tick
 * under QL_SATURATED of it looks like a starving cap. A floor learned from such ticks
 * (P = L / rate is the queue's delay, not a completion period) raised limit_max tick after
 * tick toward the policy's bound. A raise that does not raise the rate says the line binds:
 * the floor is forgotten and the limit goes back to D x T, and stays there.
 */
static void test_line_bound_jitter_no_floor(void **state)
{
	static struct loop l;
	struct law_signals sig;
	uint32_t t, at;
	int64_t top = 0;
	double opt;

	(void)state;
	loop_init(&l);
	l.no_line_rate = true;
	l.plant.hide_stack_stops = true;
	l.plant.dql_always_capped = true;
	l.plant.drain_bytes_per_s = LINE_BYTES_PER_S;
	l.plant.compl_period_ns = LINE_COMPL_NS;
	l.plant.compl_frames = 1;
	l.plant.offered_bytes_per_s = 2 * LINE_BYTES_PER_S;
	l.plant.pkt_bytes = MTU_PKT_BYTES;
	l.st.knob[LK_BQL_LIMIT_MAX] = 190000;	/* where dql grew at the line by itself */
	l.jitter = LINE_JITTER;
	l.seed = JITTER_SEED;
	for (t = 0; t < LINE_TICKS; t++) {
		loop_tick(&l, &sig);
		if (t >= LINE_TICKS - STEADY_TICKS)
			top = top > l.st.knob[LK_BQL_LIMIT_MAX] ? top : l.st.knob[LK_BQL_LIMIT_MAX];
	}
	opt = plant_txq_optimum_bytes(&l.plant, l.pol.qlimit_target_delay_ns, QL_HEADROOM);
	at = trace_settled_at(&l.tr, LK_BQL_LIMIT_MAX, 0, l.tr.n, opt, OPT_TOL + LINE_JITTER);
	printf("qlimit line-bound, no line rate, +-%.0f%% jitter: optimum %.0f B, limit_max "
	       "%lld B, settled in %u ticks, %u steps, %u rollbacks\n", LINE_JITTER * 100, opt,
	       (long long)l.st.knob[LK_BQL_LIMIT_MAX], at + 1, l.tr.steps, l.tr.rollbacks);
	/* the peak is a max of jittered rates: D x T may sit LINE_JITTER above the optimum */
	assert_true(at + 1 <= QL_CONVERGE_TICKS);
	assert_true((double)top <= (1 + OPT_TOL + LINE_JITTER) * opt);
	assert_true((double)l.st.knob[LK_BQL_LIMIT_MAX] >= (1 - OPT_TOL) * opt);
	assert_int_equal(trace_reversals(&l.tr, LK_BQL_LIMIT_MAX, l.tr.n - STEADY_TICKS,
					 l.tr.n), 0);
	assert_true(trace_in_bounds(&l.tr, &l.pol));
}

/*
 * No line rate, a capped queue far under its peak (a slow consumer or a busy CPU holds it,
 * as in the bench's slow-consumer scenario): the floor learned there stands when the next
 * tick at the doubled limit has not caught up yet. Only a shortfall within the jitter of
 * the peak is read as "the wire binds"; before, the floor was forgotten, the limit cut back
 * to D x T, the queue starved again, and the law swung between the two.
 */
static void test_deep_starvation_floor_stands(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .tx_bytes_per_s = 40e6, .tx_packets_per_s = 1e3,
		.tx_stop_per_s = 0, .qdisc_backlog_bytes = 500000, .bql_inflight_bytes = 100000,
		.capacity_bytes_per_s = LAW_UNKNOWN, .tx_drops_per_s = 0, .bql_limited = true,
		.bql_limit_bytes = 100000 };
	struct law_step out;

	(void)state;
	rule_init(&pol, &st);
	st.knob[LK_BQL_LIMIT_MAX] = 100000;
	st.learn.ql_peak_bytes_per_s = 100e6;	/* what the queue sent before the stall */
	st.learn.ql_seen_full = true;
	st.learn.ql_period_ns = 2.5e6;		/* learned at 100 kB: 100 kB / 40 MB/s */
	st.learn.ql_period_pkt_bytes = 40000;
	st.learn.ql_probe_limit_bytes = 100000;
	st.learn.ql_probe_rate = 40e6;		/* the best tick there: 40% of the peak */
	/* the raise to 200 kB is in place, and this tick sent no more */
	st.knob[LK_BQL_LIMIT_MAX] = 200000;
	sig.bql_limit_bytes = 200000;
	law_qlimit_step(&st, &sig, &pol, &out);
	assert_true(out.learn.ql_period_ns == 2.5e6);
	assert_true(out.learn.ql_probe_failed_rate == 0);
	/* the same within the jitter of the peak (best 95 of 100 MB/s, then 90): the wire
	 * binds, P goes */
	st.learn.ql_probe_limit_bytes = 100000;
	st.learn.ql_probe_rate = 95e6;
	sig.tx_bytes_per_s = 90e6;
	law_qlimit_step(&st, &sig, &pol, &out);
	assert_true(out.learn.ql_period_ns == 0);
	assert_true(out.learn.ql_probe_failed_rate == 95e6);
	assert_int_equal(out.learn.ql_probe_failed_limit_bytes, 100000);
}

/*
 * Without a line rate the law uses the peak rate it has seen as the drain rate, once the
 * queue has been full (here: a packet waits in the qdisc).
 */
static void test_capacity_unknown_uses_peak(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .tx_bytes_per_s = 50e6, .tx_packets_per_s = 5e4,
		.tx_stop_per_s = 0, .qdisc_backlog_bytes = 1000, .bql_inflight_bytes = 400000,
		.capacity_bytes_per_s = LAW_UNKNOWN, .tx_drops_per_s = 0 };
	struct law_step out;

	rule_init(&pol, &st);
	st.knob[LK_BQL_LIMIT_MAX] = 400000;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.knob, LK_BQL_LIMIT_MAX);
	/* 50 MB/s x 1 ms */
	assert_int_equal(out.new_value, 50000);
	assert_true(out.learn.ql_peak_bytes_per_s == 50e6);
	assert_non_null(strstr(out.reason, "delay 8000 us"));
}

static void test_invalid_null_and_absent(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = false, .tx_bytes_per_s = 1e9 };
	struct law_step out;

	law_policy_defaults(&pol);
	law_state_init(&st);
	st.knob[LK_BQL_LIMIT_MAX] = 4000000;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 0);
	assert_int_equal(out.knob, LK_NONE);
	assert_non_null(strstr(out.reason, "invalid"));
	assert_int_equal(law_qlimit_step(NULL, &sig, &pol, &out), -EINVAL);
	sig.valid = true;
	sig.capacity_bytes_per_s = 1e9;
	st.knob[LK_BQL_LIMIT_MAX] = LAW_KNOB_ABSENT;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 0);
	assert_non_null(strstr(out.reason, "no BQL"));
}

/* vqpair: ring-full drops in drop mode switch to stop; a ring that stops first doubles. */
static void test_ring_and_full_mode(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .tx_bytes_per_s = 40e6, .tx_packets_per_s = 3e4,
		.tx_stop_per_s = 200, .qdisc_backlog_bytes = 90000, .bql_inflight_bytes = 20000,
		.capacity_bytes_per_s = 125e6, .tx_drops_per_s = 500, .bql_limited = true,
		.bql_limit_bytes = 125000 };
	struct law_step out;

	rule_init(&pol, &st);
	st.knob[LK_BQL_LIMIT_MAX] = 125000;
	st.knob[LK_TX_RING_SIZE] = 256;
	st.knob[LK_TX_FULL_MODE] = 1;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.knob, LK_TX_FULL_MODE);
	assert_int_equal(out.new_value, 0);
	st.knob[LK_TX_FULL_MODE] = 0;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.knob, LK_TX_RING_SIZE);
	assert_int_equal(out.new_value, 512);
	/* at the ring's bound the BQL rules run: starving at 40 of 125 MB/s, period
	 * 125000 B / 40 MB/s = 3.125 ms, floor 125 MB/s x 3.125 ms x 1.1 + a 1333 B packet */
	st.knob[LK_TX_RING_SIZE] = 4096;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 0);
	/* one starving interval could be a load drop: on the delay target, floor not learned */
	assert_int_equal(out.learn.ql_starve_ticks, 1);
	assert_true(out.learn.ql_period_ns == 0);
	assert_non_null(strstr(out.reason, "starving"));
	st.learn = out.learn;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.knob, LK_BQL_LIMIT_MAX);
	assert_int_equal(out.new_value, 431021);
	assert_true(out.learn.ql_period_ns == 3125000.0);
	assert_non_null(strstr(out.reason, "starvation floor"));
}

/*
 * dql's own limit under the cap: the sender, not the cap, is slow (a CPU-bound guest), so
 * the same stops and backlog are not starvation, no floor is learned, and limit_min is never
 * raised toward one (dql raises its own limit when a queue starves).
 */
static void test_dql_below_cap_not_starving(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .tx_bytes_per_s = 40e6, .tx_packets_per_s = 3e4,
		.tx_stop_per_s = 200, .qdisc_backlog_bytes = 90000, .bql_inflight_bytes = 20000,
		.capacity_bytes_per_s = 125e6, .tx_drops_per_s = 0, .bql_limited = true,
		.bql_limit_bytes = 60000 };
	struct law_step out;
	int i;

	(void)state;
	rule_init(&pol, &st);
	st.knob[LK_BQL_LIMIT_MAX] = 125000;	/* = D x T: on the delay target */
	st.knob[LK_BQL_LIMIT_MIN] = 0;
	for (i = 0; i < 5; i++) {
		assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 0);
		assert_int_equal(out.learn.ql_starve_ticks, 0);
		assert_true(out.learn.ql_period_ns == 0);
		assert_non_null(strstr(out.reason, "not starving"));
		st.learn = out.learn;
	}
	/* the same at the cap is starvation: learned after two intervals, limit_max raised */
	sig.bql_limit_bytes = 125000;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 0);
	st.learn = out.learn;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.knob, LK_BQL_LIMIT_MAX);
	st.knob[LK_BQL_LIMIT_MAX] = out.new_value;
	st.learn = out.learn;
	/* once the cap is above the floor, limit_min stays where it is: dql's to move */
	sig.bql_limit_bytes = 200000;
	sig.tx_stop_per_s = 0;
	sig.bql_limited = false;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 0);
	assert_true(out.learn.ql_period_ns > 0);	/* the floor is known, and not applied */
}

/*
 * vqpair zerocopy behind a slow consumer: completions wait for the receiver, so the queue
 * starves at its cap and a period is learned (125000 B / 40 MB/s). Once zerocopy is off that
 * period was the consumer's hold, not the device's: it is forgotten at once (no floor step),
 * a starving interval seen across the switch does not confirm a new one, and one learned
 * with zerocopy off counts again only after two intervals in copy mode.
 */
static void test_zerocopy_switch_forgets_period(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .tx_bytes_per_s = 40e6, .tx_packets_per_s = 3e4,
		.tx_stop_per_s = 200, .qdisc_backlog_bytes = 90000, .bql_inflight_bytes = 20000,
		.capacity_bytes_per_s = 125e6, .tx_drops_per_s = 0, .bql_limited = true,
		.bql_limit_bytes = 125000 };
	struct law_step out;

	(void)state;
	rule_init(&pol, &st);
	st.knob[LK_BQL_LIMIT_MAX] = 125000;
	st.knob[LK_ZEROCOPY] = 1;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 0);
	st.learn = out.learn;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 1);
	assert_true(out.learn.ql_period_ns == 3125000.0);
	assert_int_equal(out.learn.ql_period_zerocopy, 1);
	st.learn = out.learn;
	/* the floor was written; zerocopy then goes off: the copy-mode queue sends at the line */
	st.knob[LK_BQL_LIMIT_MAX] = out.new_value;
	st.knob[LK_ZEROCOPY] = 0;
	sig.tx_bytes_per_s = 125e6;
	sig.tx_stop_per_s = 0;
	sig.qdisc_backlog_bytes = 0;
	sig.bql_limited = false;
	sig.bql_inflight_bytes = 60000;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 1);
	assert_true(out.learn.ql_period_ns == 0);
	assert_int_equal(out.learn.ql_period_zerocopy, 0);
	/* back to the delay target D x T = 125 MB/s x 1 ms, not the floor */
	assert_int_equal(out.knob, LK_BQL_LIMIT_MAX);
	assert_int_equal(out.new_value, 125000);
	assert_non_null(strstr(out.reason, "delay"));

	/* a starving interval with zerocopy on, then one in copy mode: not two in a row */
	law_state_init(&st);
	st.knob[LK_BQL_LIMIT_MAX] = 125000;
	st.knob[LK_ZEROCOPY] = 1;
	sig = (struct law_signals){ .valid = true, .tx_bytes_per_s = 40e6,
		.tx_packets_per_s = 3e4, .tx_stop_per_s = 200, .qdisc_backlog_bytes = 90000,
		.bql_inflight_bytes = 20000, .capacity_bytes_per_s = 125e6, .tx_drops_per_s = 0,
		.bql_limited = true, .bql_limit_bytes = 125000 };
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 0);
	assert_int_equal(out.learn.ql_starve_ticks, 1);
	st.learn = out.learn;
	st.knob[LK_ZEROCOPY] = 0;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 0);
	assert_int_equal(out.learn.ql_starve_ticks, 1);
	assert_true(out.learn.ql_period_ns == 0);
	st.learn = out.learn;
	/* starving on in copy mode: this period is the device's, learned and applied */
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 1);
	assert_true(out.learn.ql_period_ns == 3125000.0);
	assert_int_equal(out.new_value, 431021);	/* 125 MB/s x 3.125 ms x 1.1 + 1333 B */
	assert_non_null(strstr(out.reason, "starvation floor"));
}

/*
 * No line rate and a queue that only ever carried a trickle (ARP, one frame in flight: 80 ms
 * over the trickle's rate): its rate is what it was offered, not what it drains, so limit_max
 * is not cut to a frame; once the queue has been
 * full, its peak is a drain rate and the cut to D x T follows, also after it empties again.
 */
static void test_idle_queue_not_cut(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .tx_bytes_per_s = 819, .tx_packets_per_s = 10,
		.tx_stop_per_s = 0, .qdisc_backlog_bytes = 0, .bql_inflight_bytes = 66,
		.capacity_bytes_per_s = LAW_UNKNOWN, .tx_drops_per_s = 0, .bql_limited = false,
		.bql_limit_bytes = 0 };
	struct law_step out;
	int i;

	(void)state;
	rule_init(&pol, &st);
	st.knob[LK_BQL_LIMIT_MAX] = 1879048192;		/* the kernel's DQL_MAX_LIMIT */
	st.knob[LK_BQL_LIMIT_MIN] = 0;
	for (i = 0; i < 5; i++) {
		assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 0);
		assert_int_equal(out.knob, LK_NONE);
		assert_non_null(strstr(out.reason, "never full"));
		st.learn = out.learn;
	}
	/* bulk: BQL holds the stack with data queued at 500 MB/s */
	sig.tx_bytes_per_s = 500e6;
	sig.tx_packets_per_s = 1e4;
	sig.bql_limited = true;
	sig.qdisc_backlog_bytes = 64000;
	sig.bql_inflight_bytes = 1e6;
	sig.bql_limit_bytes = 1e6;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.knob, LK_BQL_LIMIT_MAX);
	assert_int_equal(out.new_value, 500000);	/* 500 MB/s x 1 ms */
	st.learn = out.learn;
	/* idle again: the peak stays a drain rate (decaying 0.1% a tick) */
	sig.tx_bytes_per_s = 819;
	sig.tx_packets_per_s = 10;
	sig.bql_limited = false;
	sig.qdisc_backlog_bytes = 0;
	sig.bql_inflight_bytes = 0;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.knob, LK_BQL_LIMIT_MAX);
	assert_int_equal(out.new_value, 499500);
}

/*
 * Behind one FIFO qdisc (pfifo_fast) a cut of limit_max only moves the backlog into the
 * qdisc: 8 ms of driver delay is left alone (and costs nothing in the rollback check),
 * where the same queue behind fq_codel is cut to D x T. A queue that starves behind the
 * FIFO still gets its floor: L / rate = 30000 B / 60 MB/s = 500 us, x 125 MB/s x 1.1.
 */
static void test_fifo_qdisc_not_cut(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .tx_bytes_per_s = 50e6, .tx_packets_per_s = 5e4,
		.tx_stop_per_s = 0, .qdisc_backlog_bytes = 1000, .bql_inflight_bytes = 400000,
		.capacity_bytes_per_s = LAW_UNKNOWN, .tx_drops_per_s = 0, .qdisc_fifo = true };
	struct law_step out;
	int i;

	(void)state;
	rule_init(&pol, &st);
	st.knob[LK_BQL_LIMIT_MAX] = 400000;
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 0);
	assert_int_equal(out.knob, LK_NONE);
	assert_non_null(strstr(out.reason, "one FIFO"));
	assert_non_null(strstr(out.reason, "delay 8000 us"));
	assert_true(law_qlimit_cost(&st, &sig, &pol) == 0);
	sig.qdisc_fifo = false;
	assert_true(law_qlimit_cost(&st, &sig, &pol) == 7);	/* 8 ms / 1 ms - 1 */
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.new_value, 50000);

	law_state_init(&st);
	st.knob[LK_BQL_LIMIT_MAX] = 30000;
	sig = (struct law_signals){ .valid = true, .tx_bytes_per_s = 60e6, .tx_packets_per_s = 1e3,
		.tx_stop_per_s = 0, .qdisc_backlog_bytes = 64000, .bql_inflight_bytes = 30000,
		.capacity_bytes_per_s = 125e6, .tx_drops_per_s = 0, .bql_limited = true,
		.bql_limit_bytes = 30000, .qdisc_fifo = true };
	/* starving: 100 x (1 - 60/125 - 2% noise), the delay term 0 */
	assert_true(fabs(law_qlimit_cost(&st, &sig, &pol) - 50) < 1e-9);
	for (i = 0; i < 2; i++) {
		law_qlimit_step(&st, &sig, &pol, &out);
		st.learn = out.learn;
	}
	assert_int_equal(law_qlimit_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.knob, LK_BQL_LIMIT_MAX);
	assert_non_null(strstr(out.reason, "starvation floor"));
	/* 125 MB/s x 500 us x 1.1 + a 60000 B packet */
	assert_int_equal(out.new_value, 128750);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closed_loop_phases),
		cmocka_unit_test(test_closed_loop_bql_stops_hidden),
		cmocka_unit_test(test_capped_without_line_rate),
		cmocka_unit_test(test_capped_probe_stops),
		cmocka_unit_test(test_capped_jitter_climbs),
		cmocka_unit_test(test_deep_starvation_floor_stands),
		cmocka_unit_test(test_line_bound_jitter_no_floor),
		cmocka_unit_test(test_closed_loop_jitter),
		cmocka_unit_test(test_capacity_unknown_uses_peak),
		cmocka_unit_test(test_invalid_null_and_absent),
		cmocka_unit_test(test_ring_and_full_mode),
		cmocka_unit_test(test_dql_below_cap_not_starving),
		cmocka_unit_test(test_idle_queue_not_cut),
		cmocka_unit_test(test_zerocopy_switch_forgets_period),
		cmocka_unit_test(test_fifo_qdisc_not_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
