// SPDX-License-Identifier: GPL-2.0-only
/*
 * law_zc in closed loop against the zerocopy plant (pending buffers behind a consumer,
 * head-of-line stall when they fill the ring), with steps in consumer speed and send size;
 * and its single-tick rules.
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
#define PHASE_TICKS		100
/*
 * max-pending moves by at most 2x or 16 buffers per cooldown (2 ticks): 128 -> 40 or 40 ->
 * 20 takes 2 steps; zerocopy on/off one each; min-bytes 256 -> 10240 four: 16 ticks. A
 * consumer that recovers is found at the next re-enable probe: the backoff reached 64
 * ticks in the 100-tick slow phase, plus the steps back up: 80.
 */
#define ZC_CONVERGE_TICKS	16
#define ZC_RECOVER_TICKS	80
/*
 * While zerocopy is off behind a stalled consumer the law probes at 16, then 32 ticks
 * (doubling); each probe lasts one cooldown, 2 ticks: 2 probes in a 100-tick phase.
 */
#define ZC_PROBE_TICKS_MAX	4
#define STEADY_TICKS		20
#define OPT_TOL			0.10
/* measurement noise of the jitter runs: half the guard's 4% band, so that a ratio of two
 * noisy counters stays inside it */
#define JITTER			0.02
#define JITTER_SEED		0x9e3779b97f4a7c15ULL
/* the bar: a slow consumer must not cost more than 20% of copy-mode throughput */
#define ZC_THROUGHPUT_FLOOR	0.80

#define ZC_TARGET_NS		2000000ULL	/* 2 ms prompt-completion target */
#define SENDS_PER_S		20000.0
#define BIG_SEND_BYTES		65536
#define SMALL_SEND_BYTES	1500
#define BASE_COMPL_NS		20000.0		/* a fast consumer frees one in 20 us */
#define RING_SIZE		128

struct phase {
	const char *name;
	double consumer_per_s;
	uint32_t send_bytes;
	uint32_t converge_ticks;
	bool probes;		/* optimum is "off": re-enable probes are expected */
};

static const struct phase phases[] = {
	{ "fast consumer, 64 KB sends", 1e6, BIG_SEND_BYTES, ZC_CONVERGE_TICKS, false },
	{ "slow consumer 10k/s", 1e4, BIG_SEND_BYTES, ZC_CONVERGE_TICKS, false },
	{ "size step to 1500 B", 1e4, SMALL_SEND_BYTES, ZC_CONVERGE_TICKS, false },
	{ "stalling consumer 500/s", 500, BIG_SEND_BYTES, ZC_CONVERGE_TICKS, true },
	{ "consumer recovers", 1e6, BIG_SEND_BYTES, ZC_RECOVER_TICKS, false },
};

struct loop {
	struct plant_zc plant;
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
	l->pol.zc_latency_target_ns = ZC_TARGET_NS;
	law_state_init(&l->st);
	l->st.knob[LK_ZEROCOPY] = 0;			/* vhost_net's defaults (vqpair.h) */
	l->st.knob[LK_ZEROCOPY_MAX_PENDING] = 128;
	l->st.knob[LK_ZEROCOPY_MIN_BYTES] = 256;
	l->plant.sends_per_s = SENDS_PER_S;
	l->plant.base_ns = BASE_COMPL_NS;
	l->plant.ring_size = RING_SIZE;
}

static void loop_tick(struct loop *l, struct law_signals *sig)
{
	struct law_step want, done[LK_NUM], held;
	int n;

	l->plant.zerocopy = l->st.knob[LK_ZEROCOPY];
	l->plant.max_pending = l->st.knob[LK_ZEROCOPY_MAX_PENDING];
	l->plant.min_bytes = l->st.knob[LK_ZEROCOPY_MIN_BYTES];
	plant_zc_run(&l->plant, TICK_NS, sig);
	if (l->jitter)
		plant_jitter(sig, &l->seed, l->jitter);
	assert_true(law_zc_step(&l->st, sig, &l->pol, &want) >= 0);
	n = guard_tick(l->g, &l->st, &want, LAW_ZC_KNOBS, ++l->tick, sig->valid,
		       law_zc_cost(&l->st, sig, &l->pol), 0, &l->pol, done, &held);
	trace_record(&l->tr, &l->st, done, n);
	if (getenv("LAW_TRACE"))
		printf("t%llu zc %lld maxp %lld minb %lld lc %.0f pend %.1f sent %.0f fb %.0f "
		       "tx %.0f | %s | %s\n", (unsigned long long)l->tick,
		       (long long)l->st.knob[LK_ZEROCOPY],
		       (long long)l->st.knob[LK_ZEROCOPY_MAX_PENDING],
		       (long long)l->st.knob[LK_ZEROCOPY_MIN_BYTES], sig->zc_completion_ns,
		       sig->zc_pending, sig->zc_sent_per_s, sig->zc_fallbacks_per_s,
		       sig->tx_packets_per_s, n ? done[0].reason : want.reason, held.reason);
}

/* Off behind a stalled consumer: first tick off; *probe_ticks = ticks on after it. */
static uint32_t zc_off_at(const struct loop *l, uint32_t from, uint32_t *probe_ticks)
{
	uint32_t t = from, first;

	while (t < l->tr.n && l->tr.val[t][LK_ZEROCOPY])
		t++;
	for (first = t, *probe_ticks = 0; t < l->tr.n; t++)
		*probe_ticks += l->tr.val[t][LK_ZEROCOPY] == 1;
	return first;
}

/* the phase's optimum holds from tick @at of the phase on */
static uint32_t zc_settled_at(const struct loop *l, uint32_t from, int64_t zc, double maxp)
{
	uint32_t a = trace_settled_at(&l->tr, LK_ZEROCOPY, from, l->tr.n, (double)zc, 0);
	uint32_t b = zc ? trace_settled_at(&l->tr, LK_ZEROCOPY_MAX_PENDING, from, l->tr.n, maxp,
					   OPT_TOL) : from;

	return a > b ? a : b;
}

static void run_phases(double jitter)
{
	static struct loop l;
	struct law_signals sig;
	uint32_t t, from, at, probe_ticks = 0;
	int64_t zc, maxp_before;
	double maxp, tput;
	size_t p;

	loop_init(&l);
	l.jitter = jitter;
	l.seed = JITTER_SEED;
	for (p = 0; p < sizeof(phases) / sizeof(phases[0]); p++) {
		l.plant.consumer_per_s = phases[p].consumer_per_s;
		l.plant.send_bytes = phases[p].send_bytes;
		from = l.tr.n;
		maxp_before = l.st.knob[LK_ZEROCOPY_MAX_PENDING];
		probe_ticks = 0;
		for (t = 0; t < PHASE_TICKS; t++)
			loop_tick(&l, &sig);
		tput = sig.tx_packets_per_s / SENDS_PER_S;
		plant_zc_optimum(&l.plant, ZC_TARGET_NS, l.pol.bounds[LK_ZEROCOPY_MAX_PENDING].min,
				 &zc, &maxp);
		if (phases[p].send_bytes < l.st.knob[LK_ZEROCOPY_MIN_BYTES])
			maxp = (double)maxp_before;	/* nothing eligible: nothing to move */
		at = phases[p].probes ? zc_off_at(&l, from, &probe_ticks) :
			zc_settled_at(&l, from, zc, maxp);
		printf("zc%s %-28s optimum zc %lld max-pending %5.1f | zc %lld max-pending %4lld, "
		       "converged in %u ticks (+%u probe ticks), throughput %.0f%%, stalled "
		       "%.0f ms\n",
		       jitter ? "~" : "", phases[p].name, (long long)zc, maxp,
		       (long long)l.st.knob[LK_ZEROCOPY],
		       (long long)l.st.knob[LK_ZEROCOPY_MAX_PENDING], at - from + 1, probe_ticks,
		       100 * tput,
		       l.plant.stalled_ns / 1e6);
		assert_true(at - from + 1 <= phases[p].converge_ticks);
		assert_true(probe_ticks <= ZC_PROBE_TICKS_MAX);
		assert_int_equal(l.st.knob[LK_ZEROCOPY], zc);
		if (zc)
			assert_true(fabs((double)l.st.knob[LK_ZEROCOPY_MAX_PENDING] - maxp) <=
				    OPT_TOL * maxp);
		assert_int_equal(trace_reversals(&l.tr, LK_ZEROCOPY, l.tr.n - STEADY_TICKS,
						 l.tr.n), 0);
		assert_int_equal(trace_reversals(&l.tr, LK_ZEROCOPY_MAX_PENDING,
						 l.tr.n - STEADY_TICKS, l.tr.n), 0);
		/* what the optimum buys: no stall, copy-mode throughput, prompt completions */
		assert_true(tput >= ZC_THROUGHPUT_FLOOR);
		assert_true(l.plant.stalled_ns == 0);
		if (zc && law_known(sig.zc_completion_ns))
			assert_true(sig.zc_completion_ns <= ZC_TARGET_NS * (1 + OPT_TOL));
	}
	assert_int_equal(l.st.knob[LK_ZEROCOPY_MIN_BYTES], l.pol.zc_breakeven_bytes);
	assert_true(trace_in_bounds(&l.tr, &l.pol));
	assert_int_equal(l.tr.rollbacks, 0);
}

static void test_closed_loop_phases(void **state)
{
	run_phases(0);
}

static void test_closed_loop_jitter(void **state)
{
	run_phases(JITTER);
}

/* vhost's head-of-line stall: max-pending at the ring size pins the ring behind a slow
 * consumer; the law's first step must already give back copy-mode throughput. */
static void test_hol_stall_resolved(void **state)
{
	static struct loop l;
	struct law_signals sig;
	double first;
	int t;

	loop_init(&l);
	l.st.knob[LK_ZEROCOPY] = 1;
	l.plant.consumer_per_s = 1e4;
	l.plant.send_bytes = BIG_SEND_BYTES;
	loop_tick(&l, &sig);
	first = sig.tx_packets_per_s / SENDS_PER_S;
	assert_true(l.plant.stalled_ns > 0);
	assert_true(first < 0.6);		/* ~ the consumer's rate: 10k of 20k/s */
	for (t = 0; t < ZC_CONVERGE_TICKS; t++)
		loop_tick(&l, &sig);
	printf("zc HOL stall: throughput %.0f%% -> %.0f%% of offered, max-pending %lld\n",
	       100 * first, 100 * sig.tx_packets_per_s / SENDS_PER_S,
	       (long long)l.st.knob[LK_ZEROCOPY_MAX_PENDING]);
	assert_true(sig.tx_packets_per_s / SENDS_PER_S >= ZC_THROUGHPUT_FLOOR);
	assert_true(l.plant.stalled_ns == 0);
	assert_int_equal(l.st.knob[LK_ZEROCOPY], 1);
}

/* A 256-descriptor ring sending 64 KB buffers at 5000/s into a consumer that completes each
 * after @base_ns; @report_ring: the signals carry the ring size. */
static void ring_plant(struct loop *l, double base_ns, bool report_ring)
{
	loop_init(l);
	l->plant.report_ring = report_ring;
	l->plant.ring_size = 256;
	l->plant.sends_per_s = 5000;			/* 64 KB sends at ~2.6 Gbit/s */
	l->plant.send_bytes = BIG_SEND_BYTES;
	l->plant.consumer_per_s = 1e6;
	l->plant.base_ns = base_ns;
}

/*
 * A consumer that completes every buffer but late for the policy (9 ms against 2 ms: a local
 * receiver reading its socket every few ms) while the queue holds far less than half its
 * ring: nothing can stall, so zerocopy stays on at its full pending budget. Without the ring
 * size the law falls back to the policy's target and ends in copy mode; with a 200 ms
 * consumer the ring bound does not save zerocopy either.
 */
static void test_ring_bound_keeps_prompt_zerocopy(void **state)
{
	static struct loop l;
	struct law_signals sig;
	int t;

	(void)state;
	ring_plant(&l, 9e6, true);			/* each buffer completes after 9 ms */
	for (t = 0; t < PHASE_TICKS; t++)
		loop_tick(&l, &sig);
	printf("zc ring bound: completion %.1f ms, pending %.1f of a 256 ring, zc %lld, "
	       "max-pending %lld, throughput %.0f%%\n", sig.zc_completion_ns / 1e6,
	       sig.zc_pending, (long long)l.st.knob[LK_ZEROCOPY],
	       (long long)l.st.knob[LK_ZEROCOPY_MAX_PENDING],
	       100 * sig.tx_packets_per_s / l.plant.sends_per_s);
	assert_int_equal(l.st.knob[LK_ZEROCOPY], 1);
	/* T = 256 / 2 / 5000 s = 25.6 ms: max-pending (a + f) T = 128 */
	assert_in_range(l.st.knob[LK_ZEROCOPY_MAX_PENDING], 115, 141);
	assert_true(l.plant.stalled_ns == 0);
	assert_true(sig.tx_packets_per_s >= 0.99 * l.plant.sends_per_s);
	assert_true(sig.zc_sent_per_s >= 0.99 * l.plant.sends_per_s);

	/* the same plant without a ring size: the 2 ms target turns zerocopy off */
	ring_plant(&l, 9e6, false);
	for (t = 0; t < PHASE_TICKS; t++)
		loop_tick(&l, &sig);
	assert_int_equal(l.st.knob[LK_ZEROCOPY], 0);

	/* a 200 ms consumer with the ring known: zerocopy off, copy-mode throughput */
	ring_plant(&l, 200e6, true);
	for (t = 0; t < PHASE_TICKS; t++)
		loop_tick(&l, &sig);
	assert_int_equal(l.st.knob[LK_ZEROCOPY], 0);
	assert_true(sig.tx_packets_per_s >= ZC_THROUGHPUT_FLOOR * l.plant.sends_per_s);
}

/* A prompt queue with zerocopy on at max-pending 108, under the 2 ms target. */
static void prompt_queue(struct law_policy *pol, struct law_state *st)
{
	law_policy_defaults(pol);
	pol->zc_latency_target_ns = ZC_TARGET_NS;
	law_state_init(st);
	st->knob[LK_ZEROCOPY] = 1;
	st->knob[LK_ZEROCOPY_MAX_PENDING] = 108;
	st->knob[LK_ZEROCOPY_MIN_BYTES] = pol->zc_breakeven_bytes;
}

/*
 * A prompt queue whose eligible share moves from tick to tick (bulk beside small requests):
 * (a + f) x T swings between 100 and 116 around max-pending 108, under ZC_BAND, so
 * max-pending holds instead of chasing it (which the oscillation guard had ended up holding
 * live); a real change of the eligible rate, 2x, still moves it.
 */
static void test_prompt_mixed_share_holds(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .zc_completion_ns = 300e3, .zc_pending = 3,
		.zc_fallbacks_per_s = 0, .tx_ring_size = LAW_UNKNOWN };
	struct law_step out;
	int i;

	(void)state;
	prompt_queue(&pol, &st);
	for (i = 0; i < 10; i++) {
		sig.zc_sent_per_s = i % 2 ? 58000 : 50000;	/* x 2 ms: 116 or 100 */
		sig.tx_packets_per_s = 60000;
		sig.tx_bytes_per_s = sig.zc_sent_per_s * BIG_SEND_BYTES;
		assert_int_equal(law_zc_step(&st, &sig, &pol, &out), 0);
		assert_int_equal(out.knob, LK_NONE);
		st.learn = out.learn;
	}
	sig.zc_sent_per_s = 108000;
	sig.tx_bytes_per_s = sig.zc_sent_per_s * BIG_SEND_BYTES;
	assert_int_equal(law_zc_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.knob, LK_ZEROCOPY_MAX_PENDING);
	assert_int_equal(out.new_value, 216);
}

/*
 * The bench's swing: the eligible rate of a prompt queue moves 40% from tick to tick (bulk
 * GSO sends beside requests), so (a + f) x T is 100 one tick and 60 the next. max-pending
 * follows the recent peak (100 against 108: inside ZC_BAND) and holds, where chasing each
 * tick moved it every cooldown; a lasting drop to 60 still lowers it once the peak has
 * decayed, and a lasting rise raises it at once.
 */
static void test_prompt_swing_follows_peak(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .zc_completion_ns = 300e3, .zc_pending = 3,
		.zc_fallbacks_per_s = 0, .tx_ring_size = LAW_UNKNOWN, .tx_packets_per_s = 60000 };
	struct law_step out;
	int i, first = -1;

	(void)state;
	prompt_queue(&pol, &st);
	for (i = 0; i < 40; i++) {
		sig.zc_sent_per_s = i % 2 ? 30000 : 50000;	/* x 2 ms: 60 or 100 */
		sig.tx_bytes_per_s = sig.zc_sent_per_s * BIG_SEND_BYTES;
		assert_int_equal(law_zc_step(&st, &sig, &pol, &out), 0);
		assert_int_equal(out.knob, LK_NONE);
		st.learn = out.learn;
	}
	/* 60 from now on: the peak decays 2% a tick and passes 25% under 108 within 14 */
	sig.zc_sent_per_s = 30000;
	sig.tx_bytes_per_s = sig.zc_sent_per_s * BIG_SEND_BYTES;
	for (i = 0; i < 20 && first < 0; i++) {
		if (law_zc_step(&st, &sig, &pol, &out) == 1)
			first = i;
		st.learn = out.learn;
	}
	assert_in_range(first, 8, 14);
	assert_int_equal(out.knob, LK_ZEROCOPY_MAX_PENDING);
	assert_in_range(out.new_value, 61, 81);
	/* a rise is followed at once */
	st.knob[LK_ZEROCOPY_MAX_PENDING] = out.new_value;
	sig.zc_sent_per_s = 100000;
	sig.tx_bytes_per_s = sig.zc_sent_per_s * BIG_SEND_BYTES;
	assert_int_equal(law_zc_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.new_value, 200);
}

/*
 * The slow consumer where senders, not the ring, hold the buffers: TCP small queues let each
 * socket have a few buffers uncompleted, so behind a 200 ms consumer the queue sends 8
 * buffers per 200 ms and the ring looks idle (R / 2p is seconds). Zerocopy starts on (an
 * operator's setting, no copy rate known): completions 100x the target turn it off at once;
 * later probes compare with the copy rate learned meanwhile and go off again after a tick.
 * Over the run the queue keeps ZC_THROUGHPUT_FLOOR of its offered rate.
 */
static void test_socket_limited_stall(void **state)
{
	static struct loop l;
	struct law_signals sig;
	double sent = 0;
	uint32_t probe_ticks = 0;
	int t;

	(void)state;
	ring_plant(&l, 200e6, true);
	l.plant.sock_limit = 8;
	l.st.knob[LK_ZEROCOPY] = 1;
	for (t = 0; t < PHASE_TICKS; t++) {
		loop_tick(&l, &sig);
		sent += sig.tx_packets_per_s;
		probe_ticks += t > 2 && l.st.knob[LK_ZEROCOPY] == 1;
	}
	printf("zc socket-limited stall: zc %lld, %.0f%% of offered over %d ticks, %u ticks on "
	       "after the first off\n", (long long)l.st.knob[LK_ZEROCOPY],
	       100 * sent / PHASE_TICKS / l.plant.sends_per_s, PHASE_TICKS, probe_ticks);
	assert_int_equal(l.tr.val[1][LK_ZEROCOPY], 0);	/* off after the first judged tick */
	assert_int_equal(l.st.knob[LK_ZEROCOPY], 0);
	assert_true(probe_ticks <= ZC_PROBE_TICKS_MAX);
	assert_true(sent / PHASE_TICKS >= ZC_THROUGHPUT_FLOOR * l.plant.sends_per_s);
}

/* Completions that stop altogether (pending, nothing completed) turn zerocopy off at once. */
static void test_stalled_completions_off(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .tx_bytes_per_s = 0, .tx_packets_per_s = 0,
		.zc_sent_per_s = 0, .zc_fallbacks_per_s = 0, .zc_pending = 128,
		.zc_completion_ns = LAW_UNKNOWN };
	struct law_step out;

	law_policy_defaults(&pol);
	law_state_init(&st);
	st.knob[LK_ZEROCOPY] = 1;
	st.knob[LK_ZEROCOPY_MAX_PENDING] = 128;
	assert_int_equal(law_zc_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.knob, LK_ZEROCOPY);
	assert_int_equal(out.new_value, 0);
	assert_non_null(strstr(out.reason, "stalled"));
	assert_non_null(strstr(out.reason, "probe in 16 ticks"));
	/* the backoff starts when zerocopy is seen off, so a held proposal cannot double it */
	st.learn = out.learn;
	law_zc_step(&st, &sig, &pol, &out);
	assert_int_equal(out.learn.zc_retry_ticks, 0);
	st.knob[LK_ZEROCOPY] = 0;
	sig.tx_bytes_per_s = 65536e3;
	sig.tx_packets_per_s = 1e3;
	assert_int_equal(law_zc_step(&st, &sig, &pol, &out), 0);
	assert_int_equal(out.learn.zc_retry_ticks, 16);
	assert_non_null(strstr(out.reason, "probe in 15 ticks"));
	/* a probe that fails again doubles it */
	st.learn = out.learn;
	st.learn.zc_off_ticks = 16;
	assert_int_equal(law_zc_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.new_value, 1);
	st.knob[LK_ZEROCOPY] = 1;
	st.learn = out.learn;
	law_zc_step(&st, &sig, &pol, &out);
	st.learn = out.learn;
	st.knob[LK_ZEROCOPY] = 0;
	law_zc_step(&st, &sig, &pol, &out);
	assert_int_equal(out.learn.zc_retry_ticks, 32);
}

/*
 * A paced tick (law_signals.ticks 4: a 4 s tick at a 1 s --interval) counts its base
 * ticks: the 16-tick re-probe backoff comes after 4 such intervals, the same time as 16 of
 * 1 s; 0 counts as 1.
 */
static void test_paced_backoff(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .tx_bytes_per_s = 65536e3,
		.tx_packets_per_s = 1e3, .zc_completion_ns = LAW_UNKNOWN, .ticks = 4 };
	struct law_step out;
	unsigned int calls;

	law_policy_defaults(&pol);
	law_state_init(&st);
	st.knob[LK_ZEROCOPY] = 0;
	st.learn.zc_seen_on = true;		/* it was on: this off-period backs off */
	for (calls = 1; calls <= 10; calls++) {
		if (law_zc_step(&st, &sig, &pol, &out) == 1)
			break;
		st.learn = out.learn;
		assert_int_equal(out.learn.zc_off_ticks, 4 * calls);
	}
	assert_int_equal(out.learn.zc_retry_ticks, 16);
	/* off at 4, 8, 12 base ticks (held: "probe in 12, 8, 4 ticks"), on at 16 */
	assert_int_equal(calls, 4);
	assert_int_equal(out.new_value, 1);
	assert_non_null(strstr(out.reason, "(probe)"));
	/* the same with ticks 0 (unset) and 1: 16 calls */
	law_state_init(&st);
	st.knob[LK_ZEROCOPY] = 0;
	st.learn.zc_seen_on = true;
	sig.ticks = 0;
	for (calls = 1; calls <= 40; calls++) {
		if (law_zc_step(&st, &sig, &pol, &out) == 1)
			break;
		st.learn = out.learn;
		sig.ticks = calls % 2;		/* 0 and 1 alternate: each counts one */
	}
	assert_int_equal(calls, 16);
}

/* Small sends never turn zerocopy on; invalid intervals and NULL are refused. */
static void test_small_sends_invalid_null(void **state)
{
	struct law_policy pol;
	struct law_state st;
	struct law_signals sig = { .valid = true, .tx_bytes_per_s = 1500e4,
		.tx_packets_per_s = 1e4, .zc_completion_ns = LAW_UNKNOWN };
	struct law_step out;

	law_policy_defaults(&pol);
	law_state_init(&st);
	st.knob[LK_ZEROCOPY] = 0;
	assert_int_equal(law_zc_step(&st, &sig, &pol, &out), 0);
	assert_non_null(strstr(out.reason, "under break-even"));
	assert_int_equal(out.learn.zc_off_ticks, 1);
	sig.tx_bytes_per_s = 65536e4;
	assert_int_equal(law_zc_step(&st, &sig, &pol, &out), 1);
	assert_int_equal(out.new_value, 1);
	sig.valid = false;
	assert_int_equal(law_zc_step(&st, &sig, &pol, &out), 0);
	assert_int_equal(out.knob, LK_NONE);
	assert_int_equal(law_zc_step(&st, &sig, NULL, &out), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closed_loop_phases),
		cmocka_unit_test(test_closed_loop_jitter),
		cmocka_unit_test(test_hol_stall_resolved),
		cmocka_unit_test(test_ring_bound_keeps_prompt_zerocopy),
		cmocka_unit_test(test_prompt_mixed_share_holds),
		cmocka_unit_test(test_prompt_swing_follows_peak),
		cmocka_unit_test(test_socket_limited_stall),
		cmocka_unit_test(test_stalled_completions_off),
		cmocka_unit_test(test_paced_backoff),
		cmocka_unit_test(test_small_sends_invalid_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
