// SPDX-License-Identifier: GPL-2.0-only
/*
 * law_poll in closed loop against the polling plant: the hold time (rx-usecs, or NAPI
 * gro-flush-timeout + defer-hard-irqs) and vqpair busyloop-us, with step changes in load and
 * packet size; and its single-tick rules.
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

#define TICK_NS			1000000000ULL	/* 1 s: the daemon's default tick */
#define PHASE_TICKS		80
/*
 * Hold time: from 0 the guard allows 8 us, then doubling per cooldown (2 ticks): 8, 16, 32,
 * 64 us is 4 steps, 8 ticks, and one correction once the batching is measured: 10 ticks;
 * down to 0 it is 4 halvings. 16 leaves room for the defer-hard-irqs step in NAPI mode and
 * for the rx-frames steps that come first when frames would cut the batch (1 -> 9 -> 19).
 */
#define HOLD_CONVERGE_TICKS	16
/*
 * Busyloop: climbs by max(s / 4, 8 us) per move, a failed move costs a move back, each
 * failure halves the step: up to ~12 moves at 2 ticks each; 40 leaves room for a search that
 * first goes down (settled value after a context change) and then up.
 */
#define BL_CONVERGE_TICKS	40
#define STEADY_TICKS		20
#define OPT_TOL			0.10
/* measurement noise of the jitter runs: half the guard's 4% band, so that a ratio of two
 * noisy counters stays inside it */
#define JITTER			0.02
#define JITTER_SEED		0x9e3779b97f4a7c15ULL

#define EVENT_BUDGET_PER_S	20000.0
#define LATENCY_TARGET_NS	100000ULL
#define HIT_VALUE_NS		100000ULL	/* 100 us: a kick + wakeup on a loaded host */
/* timers round and frames cut batches: 80% of the ideal batching */
#define PLANT_ETA		0.8
/* p99 without holding: 10 us of stack plus 4 ns per byte of copy and checksum */
#define BASE_NS			10000.0
#define BASE_NS_PER_BYTE	4.0

struct phase {
	const char *name;
	double bytes_per_s;
	double pkt_bytes;
	double short_frac, short_gap_us;	/* busyloop gaps */
};

static const struct phase hold_phases[] = {
	{ "1500 B at 300 MB/s", 300e6, 1500, 0, 1 },
	{ "load step to 15 MB/s", 15e6, 1500, 0, 1 },
	{ "size step to 64 B", 64e6, 64, 0, 1 },
	{ "size step to 16 KB", 1.8e9, 16000, 0, 1 },
};

/* gap mixes: rate x packet size sets the rate; W p > g keeps the first probe paying */
static const struct phase bl_phases[] = {
	{ "50k pkt/s, 60% gaps < 50 us", 50e3 * 1500, 1500, 0.6, 50 },
	{ "load step: 200k pkt/s, 80% < 20 us", 200e3 * 1500, 1500, 0.8, 20 },
	{ "size step: 20k pkt/s, 60% < 100 us", 20e3 * 9000, 9000, 0.6, 100 },
	{ "back: 50k pkt/s, 60% < 50 us", 50e3 * 1500, 1500, 0.6, 50 },
};

struct loop {
	struct plant_poll plant;
	struct law_state st;
	struct law_policy pol;
	struct guard_knob g[LK_NUM];
	struct trace tr;
	uint64_t tick;
	double jitter;
	uint64_t seed;
};

static void loop_init(struct loop *l)
{
	memset(l, 0, sizeof(*l));
	law_policy_defaults(&l->pol);
	l->pol.event_budget_per_s = EVENT_BUDGET_PER_S;
	l->pol.latency_target_ns = LATENCY_TARGET_NS;
	l->pol.busyloop_hit_value_ns = HIT_VALUE_NS;
	law_state_init(&l->st);
	l->plant.eta = PLANT_ETA;
}

static void loop_phase(struct loop *l, const struct phase *ph)
{
	l->plant.pkts_per_s = ph->bytes_per_s / ph->pkt_bytes;
	l->plant.base_ns = BASE_NS + BASE_NS_PER_BYTE * ph->pkt_bytes;
	l->plant.short_frac = ph->short_frac;
	l->plant.short_gap_us = ph->short_gap_us;
}

/* The law on @sig, then the guard as the decide stage runs it; the tick recorded. */
static int loop_decide(struct loop *l, const struct law_signals *sig, struct law_step *want,
		       struct law_step done[LK_NUM], struct law_step *held)
{
	int n;

	assert_true(law_poll_step(&l->st, sig, &l->pol, want) >= 0);
	n = guard_tick(l->g, &l->st, want, LAW_POLL_KNOBS, ++l->tick, sig->valid,
		       law_poll_cost(&l->st, sig, &l->pol), 0, &l->pol, done, held);
	trace_record(&l->tr, &l->st, done, n);
	return n;
}

static void loop_tick(struct loop *l, struct law_signals *sig)
{
	struct law_step want, done[LK_NUM], held;
	int n;

	l->plant.rx_usecs = l->st.knob[LK_RX_USECS] == LAW_KNOB_ABSENT ? 0 :
		l->st.knob[LK_RX_USECS];
	l->plant.rx_frames = l->st.knob[LK_RX_FRAMES] == LAW_KNOB_ABSENT ? 0 :
		l->st.knob[LK_RX_FRAMES];
	l->plant.gro_flush_timeout_ns = l->st.knob[LK_GRO_FLUSH_TIMEOUT];
	l->plant.defer_hard_irqs = l->st.knob[LK_DEFER_HARD_IRQS];
	l->plant.busyloop_us = l->st.knob[LK_BUSYLOOP_US] == LAW_KNOB_ABSENT ? 0 :
		l->st.knob[LK_BUSYLOOP_US];
	plant_poll_run(&l->plant, TICK_NS, sig);
	if (l->jitter)
		plant_jitter(sig, &l->seed, l->jitter);
	n = loop_decide(l, sig, &want, done, &held);
	if (getenv("LAW_TRACE"))
		printf("t%llu usecs %lld gro %lld defer %lld bl %lld ev %.0f p99 %.0f hit %.2f | %s"
		       " | %s\n", (unsigned long long)l->tick, (long long)l->st.knob[LK_RX_USECS],
		       (long long)l->st.knob[LK_GRO_FLUSH_TIMEOUT],
		       (long long)l->st.knob[LK_DEFER_HARD_IRQS],
		       (long long)l->st.knob[LK_BUSYLOOP_US], sig->events_per_s,
		       sig->latency_p99_ns, sig->busyloop_hits_per_s / sig->rx_packets_per_s,
		       n ? done[0].reason : want.reason, held.reason);
}

/* Run the hold-time phases on knob @k (ns per knob unit @unit_ns). */
static void run_hold_phases(struct loop *l, enum law_knob k, double unit_ns)
{
	struct law_signals sig;
	uint32_t t, from, at;
	size_t p;
	double opt_ns, v_ns, t_ns = (double)l->pol.latency_target_ns;

	for (p = 0; p < sizeof(hold_phases) / sizeof(hold_phases[0]); p++) {
		loop_phase(l, &hold_phases[p]);
		from = l->tr.n;
		for (t = 0; t < PHASE_TICKS; t++)
			loop_tick(l, &sig);
		opt_ns = plant_poll_hold_optimum_ns(&l->plant, l->pol.event_budget_per_s, t_ns);
		v_ns = (double)l->st.knob[k] * unit_ns;
		at = trace_settled_at(&l->tr, k, from, l->tr.n, opt_ns / unit_ns, OPT_TOL);
		printf("poll%s %-18s%-7s %-22s optimum %6.1f us, knob %6.1f us, converged in %u "
		       "ticks, events %.0f/s, p99 %.1f us\n", l->jitter ? "~" : "",
		       law_knob_name(k),
		       l->st.knob[LK_RX_FRAMES] != LAW_KNOB_ABSENT ? "+frames" : "",
		       hold_phases[p].name,
		       opt_ns / 1e3, v_ns / 1e3, at - from + 1, sig.events_per_s,
		       sig.latency_p99_ns / 1e3);
		assert_true(at - from + 1 <= HOLD_CONVERGE_TICKS);
		if (opt_ns > 0)
			assert_true(fabs(v_ns - opt_ns) <= OPT_TOL * opt_ns);
		else
			assert_int_equal(l->st.knob[k], 0);
		assert_int_equal(trace_reversals(&l->tr, k, l->tr.n - STEADY_TICKS, l->tr.n), 0);
		/* what the optimum means: p99 within target; events within budget unless the
		 * latency target is what binds */
		assert_true(sig.latency_p99_ns <= t_ns * (1 + OPT_TOL));
		if (opt_ns < t_ns - l->plant.base_ns)
			assert_true(sig.events_per_s <= l->pol.event_budget_per_s * (1 + OPT_TOL));
	}
	assert_true(trace_in_bounds(&l->tr, &l->pol));
	assert_int_equal(l->tr.rollbacks, 0);
}

static void test_hold_rx_usecs(void **state)
{
	static struct loop l;

	loop_init(&l);
	l.st.knob[LK_RX_USECS] = 0;
	run_hold_phases(&l, LK_RX_USECS, 1000.0);
}

/* vqpair / virtio defaults: rx-frames 1 ends every batch at one packet; the law must move
 * it out of the way of the hold, and keep it above every batch. */
static void test_hold_rx_usecs_with_frames(void **state)
{
	static struct loop l;

	loop_init(&l);
	l.st.knob[LK_RX_USECS] = 0;
	l.st.knob[LK_RX_FRAMES] = 1;
	run_hold_phases(&l, LK_RX_USECS, 1000.0);
	/* last phase: a 26 us hold at 112.5k pkt/s x 0.8 is a batch of 3.3 packets */
	assert_true(l.st.knob[LK_RX_FRAMES] >= 1 + PLANT_ETA * l.plant.pkts_per_s * 26e-6);
	assert_true(l.st.knob[LK_RX_FRAMES] <= 4 * (1 + PLANT_ETA * l.plant.pkts_per_s * 26e-6));
}

static void test_hold_rx_usecs_jitter(void **state)
{
	static struct loop l;

	loop_init(&l);
	l.jitter = JITTER;
	l.seed = JITTER_SEED;
	l.st.knob[LK_RX_USECS] = 0;
	run_hold_phases(&l, LK_RX_USECS, 1000.0);
}

static void test_hold_napi_defer(void **state)
{
	static struct loop l;

	loop_init(&l);
	l.plant.napi_mode = true;
	l.st.knob[LK_GRO_FLUSH_TIMEOUT] = 0;
	l.st.knob[LK_DEFER_HARD_IRQS] = 0;
	run_hold_phases(&l, LK_GRO_FLUSH_TIMEOUT, 1.0);
	/* the last phase holds: defer-hard-irqs is on; it was off while the hold was 0 */
	assert_int_equal(l.st.knob[LK_DEFER_HARD_IRQS], 2);
	assert_true(trace_reversals(&l.tr, LK_DEFER_HARD_IRQS, 0, l.tr.n) == 2);
}

static void run_busyloop(double jitter)
{
	static struct loop l;
	struct law_signals sig;
	uint32_t t, from, at;
	size_t p;
	double opt;

	loop_init(&l);
	l.jitter = jitter;
	l.seed = JITTER_SEED;
	l.st.knob[LK_BUSYLOOP_US] = 0;
	for (p = 0; p < sizeof(bl_phases) / sizeof(bl_phases[0]); p++) {
		loop_phase(&l, &bl_phases[p]);
		from = l.tr.n;
		for (t = 0; t < PHASE_TICKS; t++)
			loop_tick(&l, &sig);
		opt = plant_poll_busyloop_optimum_us(&l.plant, HIT_VALUE_NS / 1e3);
		at = trace_settled_at(&l.tr, LK_BUSYLOOP_US, from, l.tr.n, opt, OPT_TOL);
		printf("busyloop%s %-36s optimum %5.1f us, busyloop-us %3lld, converged in %u "
		       "ticks\n", jitter ? "~" : "",
		       bl_phases[p].name, opt, (long long)l.st.knob[LK_BUSYLOOP_US], at - from + 1);
		assert_true(at - from + 1 <= BL_CONVERGE_TICKS);
		if (opt > 0)
			assert_true(fabs((double)l.st.knob[LK_BUSYLOOP_US] - opt) <= OPT_TOL * opt);
		else
			assert_int_equal(l.st.knob[LK_BUSYLOOP_US], 0);
		assert_int_equal(trace_reversals(&l.tr, LK_BUSYLOOP_US, l.tr.n - STEADY_TICKS,
						 l.tr.n), 0);
	}
	assert_true(trace_in_bounds(&l.tr, &l.pol));
}

static void test_busyloop(void **state)
{
	run_busyloop(0);
}

static void test_busyloop_jitter(void **state)
{
	run_busyloop(JITTER);
}

/*
 * Backend-weight plant: a worker serves the TX ring at up to mu packets/s, one turn of at most
 * W packets at a time, each turn costing TURN_OVERHEAD_NS more (a cond_resched, bottom halves
 * on and off). Offered lambda >= what it serves: backlogged, every turn is W packets long and
 * lasts W / mu. Under it: the ring drains, a turn takes what came during a wakeup.
 */
#define TURN_OVERHEAD_NS	200.0
#define WAKE_NS			20000.0
#define BW_CONVERGE_TICKS	24

struct bw_phase {
	const char *name;
	double offered_per_s, mu_per_s;
	uint64_t target_ns;
	bool binds;			/* the weight binds: the optimum is defined */
};

static const struct bw_phase bw_phases[] = {
	{ "1M pkt/s backlogged, budget", 2e6, 1e6, LATENCY_TARGET_NS, true },
	{ "5k pkt/s (64 KB copies)", 1e4, 5e3, LATENCY_TARGET_NS, true },
	{ "4M pkt/s backlogged", 8e6, 4e6, LATENCY_TARGET_NS, true },
	{ "100k pkt/s, ring drains", 1e5, 4e6, LATENCY_TARGET_NS, false },
	{ "1M pkt/s, 20 us target", 2e6, 1e6, 20000, true },
};

static void bw_run(double offered, double mu, int64_t w, struct law_signals *sig)
{
	double served, runs;

	memset(sig, 0, sizeof(*sig));
	sig->valid = true;
	sig->interval_ns = TICK_NS;
	/* a turn of w: w / mu + overhead */
	served = (double)w / ((double)w / mu + TURN_OVERHEAD_NS / 1e9);
	if (offered > served) {
		runs = served / (double)w;
	} else {
		served = offered;
		runs = served / fmin((double)w, 1 + offered * WAKE_NS / 1e9);
	}
	sig->tx_packets_per_s = served;
	sig->tx_bytes_per_s = served * 1500;
	sig->worker_runs_per_s = runs;
	sig->rx_packets_per_s = LAW_UNKNOWN;
	sig->events_per_s = LAW_UNKNOWN;
	sig->latency_p99_ns = LAW_UNKNOWN;
	sig->busyloop_hits_per_s = sig->busyloop_misses_per_s = LAW_UNKNOWN;
}

/* W* = min(p / B, T p), clamped: the least weight within the budget, capped by the target */
static double bw_optimum(const struct loop *l, double p)
{
	return (double)law_clamp(&l->pol, LK_BACKEND_WEIGHT,
				 fmin(p / l->pol.event_budget_per_s,
				      (double)l->pol.latency_target_ns / 1e9 * p));
}

static void test_backend_weight(void **state)
{
	static struct loop l;
	struct law_step want, done[LK_NUM], held;
	struct law_signals sig;
	uint32_t t, from, at;
	int64_t before;
	double opt;
	size_t p;
	int n;

	(void)state;
	loop_init(&l);
	l.st.knob[LK_BACKEND_WEIGHT] = 256;		/* vqpair's default */
	for (p = 0; p < sizeof(bw_phases) / sizeof(bw_phases[0]); p++) {
		const struct bw_phase *ph = &bw_phases[p];

		l.pol.latency_target_ns = ph->target_ns;
		from = l.tr.n;
		before = l.st.knob[LK_BACKEND_WEIGHT];
		for (t = 0; t < PHASE_TICKS; t++) {
			bw_run(ph->offered_per_s, ph->mu_per_s, l.st.knob[LK_BACKEND_WEIGHT], &sig);
			n = loop_decide(&l, &sig, &want, done, &held);
			if (getenv("LAW_TRACE"))
				printf("t%llu weight %lld tx %.0f runs %.0f | %s | %s\n",
				       (unsigned long long)l.tick,
				       (long long)l.st.knob[LK_BACKEND_WEIGHT],
				       sig.tx_packets_per_s, sig.worker_runs_per_s,
				       n ? done[0].reason : want.reason, held.reason);
		}
		opt = ph->binds ? bw_optimum(&l, sig.tx_packets_per_s) : (double)before;
		at = trace_settled_at(&l.tr, LK_BACKEND_WEIGHT, from, l.tr.n, opt, OPT_TOL);
		printf("poll backend-weight %-30s optimum %5.0f, knob %4lld, converged in %u "
		       "ticks, turns %.0f/s of %.1f us\n", ph->name, opt,
		       (long long)l.st.knob[LK_BACKEND_WEIGHT], at - from + 1,
		       sig.worker_runs_per_s,
		       (double)l.st.knob[LK_BACKEND_WEIGHT] / ph->mu_per_s * 1e6);
		assert_true(at - from + 1 <= BW_CONVERGE_TICKS);
		assert_true(fabs((double)l.st.knob[LK_BACKEND_WEIGHT] - opt) <= OPT_TOL * opt);
		assert_int_equal(trace_reversals(&l.tr, LK_BACKEND_WEIGHT, l.tr.n - STEADY_TICKS,
						 l.tr.n), 0);
		if (!ph->binds)
			assert_int_equal(l.st.knob[LK_BACKEND_WEIGHT], before);
	}
	/* what the optimum means in the last phase: turns within the 20 us target */
	assert_true((double)l.st.knob[LK_BACKEND_WEIGHT] / 1e6 * 1e9 <= 20000 * (1 + OPT_TOL));
	assert_true(trace_in_bounds(&l.tr, &l.pol));
	assert_int_equal(l.tr.rollbacks, 0);
}

/*
 * Spins that never hit while the packet rate swings 3x every few ticks (TCG, bursty bulk):
 * every swing is a new context, and without a backoff each one restarted a probe from 0 (in
 * the bench ~15 probes a run, each a spin the law then took back). Probes from a 0 that did
 * not pay back off (16, 32, 64 ... ticks), and a spin that hit nothing ends its search (no
 * shorter one can hit): over 200 ticks at most BL_IDLE_PROBES_MAX
 * probes, and the knob ends at 0.
 */
#define BL_IDLE_TICKS		200
#define BL_IDLE_PROBES_MAX	4

static void test_busyloop_idle_backoff(void **state)
{
	static struct loop l;
	struct law_signals sig;
	struct phase ph = { "no hits", 50e3 * 1500, 1500, 0, 1 };
	uint32_t t, ups = 0;

	(void)state;
	loop_init(&l);
	l.st.knob[LK_BUSYLOOP_US] = 0;
	for (t = 0; t < BL_IDLE_TICKS; t++) {
		ph.bytes_per_s = (t / 5) % 2 ? 150e3 * 1500 : 50e3 * 1500;
		loop_phase(&l, &ph);
		loop_tick(&l, &sig);
		ups += l.tr.n >= 2 && l.tr.dir[l.tr.n - 1][LK_BUSYLOOP_US] > 0 &&
			l.tr.val[l.tr.n - 2][LK_BUSYLOOP_US] == 0;
	}
	printf("busyloop no hits, rate swinging 3x: %u probes from 0 in %u ticks\n", ups,
	       BL_IDLE_TICKS);
	assert_true(ups >= 1);
	assert_true(ups <= BL_IDLE_PROBES_MAX);
	assert_int_equal(l.st.knob[LK_BUSYLOOP_US], 0);
}

/*
 * The bench's strand (bulk under TCG, rr under bulk): spins hit a little but never pay
 * (1% of gaps under 50 us: W dh/ds = 0.02 < 1 - h), and the rate rises 3x for good just
 * as the first search from 0 (8, 4, 2, 1 us, each taken back: 7 reversals) ends. The next
 * search, 16 ticks on, is inside the oscillation guard's 32-tick window, and its first way
 * back is the 9th reversal. Held there, busyloop spun at 8 us for the guard's 30 hold
 * ticks; a way back is a retreat, which the guard lets through and holds after: no probe
 * stands longer than its cooldown and its judging tick, and every spin the law tried is
 * taken back.
 */
#define BL_STRAND_TICKS		120
#define BL_STRAND_STEP		16

static void test_busyloop_retreat_not_stranded(void **state)
{
	static struct loop l;
	struct law_signals sig;
	struct law_step want, done[LK_NUM], held;
	struct phase ph = { "rare hits", 50e3 * 1500, 1500, 0.01, 50 };
	uint32_t t, run = 0, longest = 0, trips = 0;
	int i, n;

	(void)state;
	loop_init(&l);
	l.st.knob[LK_BUSYLOOP_US] = 0;
	for (t = 0; t < BL_STRAND_TICKS; t++) {
		ph.bytes_per_s = t < BL_STRAND_STEP ? 50e3 * 1500 : 150e3 * 1500;
		loop_phase(&l, &ph);
		l.plant.busyloop_us = l.st.knob[LK_BUSYLOOP_US];
		plant_poll_run(&l.plant, TICK_NS, &sig);
		n = loop_decide(&l, &sig, &want, done, &held);
		for (i = 0; i < n; i++)
			if (strstr(done[i].reason, "; then held: oscillating")) {
				trips++;
				assert_true(done[i].retreat);
				assert_int_equal(done[i].new_value, 0);
			}
		if (getenv("LAW_TRACE"))
			printf("t%u bl %lld pps %.0f hit %.4f | %s | %s\n", t,
			       (long long)l.st.knob[LK_BUSYLOOP_US], sig.rx_packets_per_s,
			       sig.busyloop_hits_per_s / sig.rx_packets_per_s,
			       n ? done[0].reason : want.reason, held.reason);
		run = l.st.knob[LK_BUSYLOOP_US] ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	printf("busyloop rare hits, rate up 3x: %u oscillation trip(s) on a way back, "
	       "longest spin %u ticks in %u\n", trips, longest, BL_STRAND_TICKS);
	/* the scenario reaches the trip it is about */
	assert_true(trips >= 1);
	assert_true(longest <= l.pol.cooldown_ticks + 1);
	assert_int_equal(l.st.knob[LK_BUSYLOOP_US], 0);
}

/*
 * Ping-pong (request/response alone): one packet per round trip of ~150 us, the TX rate
 * swinging 2x as a run warms up (3k <-> 6.5k/s every 8 ticks). No spin under the 150 us gap
 * hits, and with a hit worth W = 100 us no spin can pay (W p = 0.65 <= 1): after the first
 * search, whose 8 us probe hits nothing, no probe comes back however the rate swings, and
 * the hold says why. Bulk that follows (50k/s, W p = 5) is searched again and settles on a
 * spin, as bl_phases[0] does from cold.
 */
#define BL_RR_TICKS		200

static void test_busyloop_pingpong_no_reprobe(void **state)
{
	static struct loop l;
	struct law_signals sig;
	struct law_step out;
	struct phase ph = { "ping-pong", 6.5e3 * 100, 100, 0, 1 };
	uint32_t t, ups = 0, bound = 0;
	int64_t prev;

	(void)state;
	loop_init(&l);
	l.plant.tx_known = true;
	l.st.knob[LK_BUSYLOOP_US] = 0;
	for (t = 0; t < BL_RR_TICKS; t++) {
		ph.bytes_per_s = (t / 8) % 2 ? 3e3 * 100 : 6.5e3 * 100;
		loop_phase(&l, &ph);
		prev = l.st.knob[LK_BUSYLOOP_US];
		loop_tick(&l, &sig);
		ups += prev == 0 && l.st.knob[LK_BUSYLOOP_US] > 0;
		/* the law again on the same tick (a pure function): why it holds */
		assert_true(law_poll_step(&l.st, &sig, &l.pol, &out) >= 0);
		bound += out.knob == LK_NONE && strstr(out.reason, "no spin can pay") != NULL;
	}
	printf("busyloop ping-pong at 3k-6.5k pkt/s, W 100 us: %u probe(s) from 0 in %u ticks, "
	       "%u held by W p <= 1\n", ups, BL_RR_TICKS, bound);
	assert_int_equal(ups, 1);
	assert_int_equal(l.st.knob[LK_BUSYLOOP_US], 0);
	assert_true(bound > 0);
	/* the same law without the TX rate (a driver that gives none): it backs off instead */
	loop_init(&l);
	l.st.knob[LK_BUSYLOOP_US] = 0;
	for (t = 0, ups = 0; t < BL_RR_TICKS; t++) {
		ph.bytes_per_s = (t / 8) % 2 ? 3e3 * 100 : 6.5e3 * 100;
		loop_phase(&l, &ph);
		prev = l.st.knob[LK_BUSYLOOP_US];
		loop_tick(&l, &sig);
		ups += prev == 0 && l.st.knob[LK_BUSYLOOP_US] > 0;
	}
	assert_true(ups > 1);
	assert_true(ups <= BL_IDLE_PROBES_MAX);
	/* bulk with short gaps: W p > 1 lifts the bound, the search finds its spin */
	loop_init(&l);
	l.plant.tx_known = true;
	l.st.knob[LK_BUSYLOOP_US] = 0;
	loop_phase(&l, &ph);
	for (t = 0; t < PHASE_TICKS; t++)
		loop_tick(&l, &sig);
	assert_int_equal(l.st.knob[LK_BUSYLOOP_US], 0);
	loop_phase(&l, &bl_phases[0]);
	for (t = 0; t < PHASE_TICKS; t++)
		loop_tick(&l, &sig);
	printf("busyloop after ping-pong, bulk %s: %lld us (optimum %.0f us)\n", bl_phases[0].name,
	       (long long)l.st.knob[LK_BUSYLOOP_US],
	       plant_poll_busyloop_optimum_us(&l.plant, (double)HIT_VALUE_NS / 1e3));
	assert_true(fabs((double)l.st.knob[LK_BUSYLOOP_US] -
			 plant_poll_busyloop_optimum_us(&l.plant, (double)HIT_VALUE_NS / 1e3)) <=
		    OPT_TOL * plant_poll_busyloop_optimum_us(&l.plant,
							      (double)HIT_VALUE_NS / 1e3));
}

/*
 * A settled busyloop under traffic that spikes for one tick in three (3x the packet rate, a
 * tenth more short gaps: a burst, a descheduled vCPU): the spikes do not restart the
 * search, so busyloop-us stays where it settled; a lasting change of the traffic does.
 */
static void test_busyloop_spikes_hold(void **state)
{
	static struct loop l;
	struct law_signals sig;
	struct phase base = bl_phases[0], spike = bl_phases[0];
	uint32_t t, moves = 0;
	int64_t settled;

	(void)state;
	loop_init(&l);
	l.st.knob[LK_BUSYLOOP_US] = 0;
	loop_phase(&l, &base);
	for (t = 0; t < PHASE_TICKS; t++)
		loop_tick(&l, &sig);
	settled = l.st.knob[LK_BUSYLOOP_US];
	assert_true(settled > 0);
	spike.bytes_per_s *= 3;
	spike.short_frac = 0.7;
	for (t = 0; t < PHASE_TICKS; t++) {
		loop_phase(&l, t % 3 == 2 ? &spike : &base);
		loop_tick(&l, &sig);
		moves += l.st.knob[LK_BUSYLOOP_US] != settled;
	}
	printf("busyloop settled at %lld us, one-tick spikes: %u ticks off it in %u\n",
	       (long long)settled, moves, PHASE_TICKS);
	assert_int_equal(moves, 0);
	/* the load step of bl_phases[1], lasting: searched again */
	loop_phase(&l, &bl_phases[1]);
	for (t = 0; t < PHASE_TICKS; t++)
		loop_tick(&l, &sig);
	assert_true(l.st.knob[LK_BUSYLOOP_US] != settled);
}

/*
 * The bench's flap: settled at 4 us, the hit fraction moves for BL_CONTEXT_TICKS ticks and
 * the downward search probes 4 -> 0 (a step of 8 clamped at 0), which does not pay. The
 * halved step (4) would clamp onto 0 again; the law probes 2 instead, then 3, and settles
 * back at 4, trying 0 once; having moved nothing, its next search waits 16 ticks.
 */
/*
 * A settled busyloop's wait before its next search counts base ticks: at a paced tick of 4
 * (law_signals.ticks) the 16-tick wait ends at the 4th interval, at 1 at the 16th.
 */
static unsigned int bl_search_after(uint32_t ticks, char *last_hold, size_t len)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .rx_packets_per_s = 20e3,
		.busyloop_hits_per_s = 0.45 * 10e3, .busyloop_misses_per_s = 0.55 * 10e3,
		.ticks = ticks };
	struct law_step out;
	unsigned int calls;

	law_policy_defaults(&pol);
	law_state_init(&st);
	st.knob[LK_BUSYLOOP_US] = 4;
	st.learn.bl_settled = true;
	st.learn.bl_base_us = 4;
	st.learn.bl_base_hit = 0.20;		/* the hits moved off it by 0.25: context moved */
	st.learn.bl_ctx_pps = 20e3;
	st.learn.bl_retry_ticks = 16;
	for (calls = 1; calls <= 40; calls++) {
		if (law_poll_step(&st, &sig, &pol, &out) == 1 && out.knob == LK_BUSYLOOP_US)
			break;
		snprintf(last_hold, len, "%s", out.reason);
		st.learn = out.learn;
	}
	assert_non_null(strstr(out.reason, "probe 4 -> "));
	return calls;
}

static void test_busyloop_paced_wait(void **state)
{
	char hold[LAW_REASON_MAX];

	(void)state;
	assert_int_equal(bl_search_after(4, hold, sizeof(hold)), 4);
	assert_non_null(strstr(hold, "found nothing better, next in 4 ticks"));
	assert_int_equal(bl_search_after(1, hold, sizeof(hold)), 16);
	assert_non_null(strstr(hold, "next in 1 ticks"));
	assert_int_equal(bl_search_after(0, hold, sizeof(hold)), 16);
}

static void test_busyloop_clamped_probe_not_repeated(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .rx_packets_per_s = 20e3 };
	struct law_step out;
	int i, zeros = 0, probes = 0;
	bool saw2 = false;

	(void)state;
	law_policy_defaults(&pol);
	law_state_init(&st);
	st.knob[LK_BUSYLOOP_US] = 4;
	st.learn.bl_settled = true;
	st.learn.bl_base_us = 4;
	st.learn.bl_base_hit = 0.40;
	st.learn.bl_ctx_pps = 20e3;
	for (i = 0; i < 12; i++) {
		/* 4 us: a fifth of the spins hit (0.2, off 0.4 by more than 0.1), 3: 0.18, 2: 0.15 */
		int64_t s = st.knob[LK_BUSYLOOP_US];
		double h = s == 4 ? 0.2 : s == 3 ? 0.18 : s == 2 ? 0.15 : 0;

		sig.busyloop_hits_per_s = h * 10e3;
		sig.busyloop_misses_per_s = st.knob[LK_BUSYLOOP_US] ? (1 - h) * 10e3 : 0;
		assert_true(law_poll_step(&st, &sig, &pol, &out) >= 0);
		st.learn = out.learn;
		if (getenv("LAW_TRACE"))
			printf("bl t%d %lld | %s\n", i, (long long)st.knob[LK_BUSYLOOP_US], out.reason);
		if (out.knob != LK_BUSYLOOP_US)
			continue;
		if (strstr(out.reason, "probe"))
			probes++;
		zeros += out.new_value == 0;
		saw2 |= out.new_value == 2;
		st.knob[LK_BUSYLOOP_US] = out.new_value;
	}
	assert_int_equal(zeros, 1);
	assert_true(saw2);
	assert_int_equal(probes, 3);		/* 0, 2, 3: a bisection, each value once */
	assert_int_equal(st.knob[LK_BUSYLOOP_US], 4);
	assert_true(st.learn.bl_settled);
	/*
	 * The hits stay off the settled 0.2: a search that moved nothing makes the next wait
	 * 16 ticks from the one it settled at (t7; the loop above ran 4 of them).
	 */
	sig.busyloop_hits_per_s = 0.45 * 10e3;
	sig.busyloop_misses_per_s = 0.55 * 10e3;
	for (i = 0; i < 11; i++) {
		assert_int_equal(law_poll_step(&st, &sig, &pol, &out), 0);
		st.learn = out.learn;
	}
	assert_non_null(strstr(out.reason, "found nothing better, next in 1 ticks"));
	assert_int_equal(law_poll_step(&st, &sig, &pol, &out), 1);
	assert_non_null(strstr(out.reason, "probe 4 -> 0"));	/* then it searches again */
}

/*
 * tx-napi against a plant: on, completions cost p / 2 events/s (tx-frames 2); off, none,
 * but a queue whose senders wait for completions (TCP small queues, BQL) stops with the
 * qdisc backlogged. Phases: events over budget, nobody waits -> off; senders start to wait
 * -> on, and it stays on (no alternation) while the rate stays; a 3x rate with nobody
 * waiting -> off again; waiting there -> on; under budget -> on stays on.
 */
struct tn_phase {
	const char *name;
	double pkts_per_s;
	bool waits;
	int64_t want;
};

static const struct tn_phase tn_phases[] = {
	{ "50k pkt/s, over budget", 50e3, false, 0 },
	{ "senders wait for completions", 50e3, true, 1 },
	{ "150k pkt/s, nobody waits", 150e3, false, 0 },
	{ "150k pkt/s, senders wait", 150e3, true, 1 },
	{ "20k pkt/s, under budget", 20e3, false, 1 },
};

#define TN_CONVERGE_TICKS	6

static void test_tx_napi(void **state)
{
	static struct loop l;
	struct law_step want, done[LK_NUM], held;
	struct law_signals sig;
	uint32_t t, from, at;
	size_t p;

	(void)state;
	loop_init(&l);
	l.pol.bounds[LK_TX_NAPI].min = 0;		/* a policy that allows it off */
	l.st.knob[LK_TX_NAPI] = 1;			/* virtio_net's default */
	for (p = 0; p < sizeof(tn_phases) / sizeof(tn_phases[0]); p++) {
		const struct tn_phase *ph = &tn_phases[p];

		from = l.tr.n;
		for (t = 0; t < PHASE_TICKS; t++) {
			bool on = l.st.knob[LK_TX_NAPI];

			memset(&sig, 0, sizeof(sig));
			sig.valid = true;
			sig.interval_ns = TICK_NS;
			sig.tx_packets_per_s = ph->pkts_per_s;
			sig.tx_events_per_s = on ? ph->pkts_per_s / 2 : 0;
			sig.tx_stop_per_s = !on && ph->waits ? 100 : 0;
			sig.qdisc_backlog_bytes = !on && ph->waits ? 60000 : 0;
			sig.rx_packets_per_s = sig.events_per_s = sig.latency_p99_ns = LAW_UNKNOWN;
			sig.busyloop_hits_per_s = sig.busyloop_misses_per_s = LAW_UNKNOWN;
			sig.worker_runs_per_s = LAW_UNKNOWN;
			loop_decide(&l, &sig, &want, done, &held);
			if (ph->waits && !l.st.knob[LK_TX_NAPI] && t >= TN_CONVERGE_TICKS)
				fail_msg("tx-napi off while senders wait, tick %u", t);
		}
		at = trace_settled_at(&l.tr, LK_TX_NAPI, from, l.tr.n, (double)ph->want, 0);
		printf("poll tx-napi %-30s want %lld, tx-napi %lld, settled in %u ticks\n",
		       ph->name, (long long)ph->want, (long long)l.st.knob[LK_TX_NAPI],
		       at - from + 1);
		assert_int_equal(l.st.knob[LK_TX_NAPI], ph->want);
		assert_true(at - from + 1 <= TN_CONVERGE_TICKS);
		assert_int_equal(trace_reversals(&l.tr, LK_TX_NAPI, from + TN_CONVERGE_TICKS,
						 l.tr.n), 0);
	}
	assert_true(trace_in_bounds(&l.tr, &l.pol));

	/* over budget with zerocopy on: on stays on (its buffers complete only when reaped) */
	memset(&sig, 0, sizeof(sig));
	sig.valid = true;
	sig.tx_packets_per_s = 300e3;
	sig.tx_events_per_s = 150e3;
	sig.rx_packets_per_s = sig.events_per_s = sig.latency_p99_ns = LAW_UNKNOWN;
	sig.busyloop_hits_per_s = sig.busyloop_misses_per_s = LAW_UNKNOWN;
	sig.worker_runs_per_s = LAW_UNKNOWN;
	law_state_init(&l.st);
	l.st.knob[LK_TX_NAPI] = 1;
	l.st.knob[LK_ZEROCOPY] = 1;
	l.pol.bounds[LK_TX_NAPI].min = 1;		/* the shipped policies: never off */
	assert_true(law_poll_step(&l.st, &sig, &l.pol, &want) >= 0);
	assert_int_not_equal(want.knob, LK_TX_NAPI);
	l.st.knob[LK_ZEROCOPY] = 0;
	assert_true(law_poll_step(&l.st, &sig, &l.pol, &want) >= 0);
	assert_int_not_equal(want.knob, LK_TX_NAPI);
	l.pol.bounds[LK_TX_NAPI].min = 0;
	l.st.knob[LK_ZEROCOPY] = 1;
	assert_true(law_poll_step(&l.st, &sig, &l.pol, &want) >= 0);
	assert_int_not_equal(want.knob, LK_TX_NAPI);
	l.st.knob[LK_ZEROCOPY] = 0;
	assert_int_equal(law_poll_step(&l.st, &sig, &l.pol, &want), 1);
	assert_int_equal(want.knob, LK_TX_NAPI);
	assert_int_equal(want.new_value, 0);
	/* off with zerocopy buffers pending: back on */
	l.st.knob[LK_TX_NAPI] = 0;
	sig.tx_events_per_s = 0;
	sig.zc_pending = 17;
	assert_int_equal(law_poll_step(&l.st, &sig, &l.pol, &want), 1);
	assert_int_equal(want.knob, LK_TX_NAPI);
	assert_int_equal(want.new_value, 1);
}

/*
 * A ping-pong under the event budget wants no hold: rx-frames stays 1 (the law had set 2,
 * and with rx-usecs 0 vqpair then raised the reply's interrupt only at the backend's turn
 * end, after any busyloop spin); a count left over 1 from a hold goes back to 1 first.
 */
static void test_no_hold_frames_one(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .rx_packets_per_s = 5000, .events_per_s = 5000,
		.latency_p99_ns = 300000 };
	struct law_step out;

	(void)state;
	law_policy_defaults(&pol);
	law_state_init(&st);
	st.knob[LK_RX_USECS] = 0;
	st.knob[LK_RX_FRAMES] = 1;
	assert_int_equal(law_poll_step(&st, &sig, &pol, &out), 0);
	assert_int_equal(out.knob, LK_NONE);
	st.knob[LK_RX_FRAMES] = 2;
	assert_int_equal(law_poll_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.knob, LK_RX_FRAMES);
	assert_int_equal(out.new_value, 1);
	assert_non_null(strstr(out.reason, "no rx-usecs hold"));
}

/* Without a p99 the hold alone is capped at the latency target. */
static void test_latency_unknown_caps_hold(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .rx_packets_per_s = 1e6, .events_per_s = 1e6,
		.latency_p99_ns = LAW_UNKNOWN };
	struct law_step out;

	law_policy_defaults(&pol);
	pol.event_budget_per_s = 1000;		/* wants a ~1 ms hold */
	pol.latency_target_ns = 50000;
	law_state_init(&st);
	st.knob[LK_RX_USECS] = 20;
	assert_int_equal(law_poll_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.knob, LK_RX_USECS);
	assert_int_equal(out.new_value, 50);
	assert_non_null(strstr(out.reason, "no p99 measured"));
}

/*
 * A held step says what it judged: a hold on target, or the knob or signal it lacked (a
 * veth counts RX packets per queue only under XDP: its queues read 0 pkt/s, which is no
 * hold "on target").
 */
static void test_hold_reasons(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .rx_packets_per_s = 0,
		.events_per_s = LAW_UNKNOWN, .latency_p99_ns = LAW_UNKNOWN };
	struct law_step out;

	(void)state;
	law_policy_defaults(&pol);
	law_state_init(&st);
	assert_int_equal(law_poll_step(&st, &sig, &pol, &out), 0);
	assert_string_equal(out.reason, "no hold knob (rx-usecs, gro-flush-timeout); no busyloop "
			    "knob");
	st.knob[LK_GRO_FLUSH_TIMEOUT] = 0;
	st.knob[LK_DEFER_HARD_IRQS] = 0;
	assert_int_equal(law_poll_step(&st, &sig, &pol, &out), 0);
	assert_string_equal(out.reason, "hold not judged: no RX packets counted on this queue; "
			    "no busyloop knob");
	sig.rx_packets_per_s = 5000;
	assert_int_equal(law_poll_step(&st, &sig, &pol, &out), 0);
	assert_string_equal(out.reason, "hold not judged: no interrupts or polls counted; no "
			    "busyloop knob");
	sig.events_per_s = 5000;
	sig.latency_p99_ns = 300000;
	assert_int_equal(law_poll_step(&st, &sig, &pol, &out), 0);
	assert_int_equal(out.knob, LK_NONE);
	assert_string_equal(out.reason, "hold time on target; no busyloop knob");
}

static void test_invalid_and_null(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = false, .rx_packets_per_s = 1e6, .events_per_s = 1e6 };
	struct law_step out;

	law_policy_defaults(&pol);
	law_state_init(&st);
	st.knob[LK_RX_USECS] = 0;
	st.knob[LK_BUSYLOOP_US] = 0;
	assert_int_equal(law_poll_step(&st, &sig, &pol, &out), 0);
	assert_int_equal(out.knob, LK_NONE);
	assert_non_null(strstr(out.reason, "invalid"));
	assert_int_equal(law_poll_step(&st, NULL, &pol, &out), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hold_rx_usecs),
		cmocka_unit_test(test_hold_rx_usecs_with_frames),
		cmocka_unit_test(test_hold_rx_usecs_jitter),
		cmocka_unit_test(test_hold_napi_defer),
		cmocka_unit_test(test_busyloop),
		cmocka_unit_test(test_busyloop_jitter),
		cmocka_unit_test(test_busyloop_idle_backoff),
		cmocka_unit_test(test_busyloop_retreat_not_stranded),
		cmocka_unit_test(test_busyloop_spikes_hold),
		cmocka_unit_test(test_busyloop_clamped_probe_not_repeated),
		cmocka_unit_test(test_busyloop_paced_wait),
		cmocka_unit_test(test_busyloop_pingpong_no_reprobe),
		cmocka_unit_test(test_backend_weight),
		cmocka_unit_test(test_tx_napi),
		cmocka_unit_test(test_latency_unknown_caps_hold),
		cmocka_unit_test(test_no_hold_frames_one),
		cmocka_unit_test(test_hold_reasons),
		cmocka_unit_test(test_invalid_and_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
