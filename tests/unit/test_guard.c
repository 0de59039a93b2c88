// SPDX-License-Identifier: GPL-2.0-only
/* guard: every guardrail decides with known inputs, and guard_tick applies what passes. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "law.h"

struct fix {
	struct law_policy pol;
	struct guard_knob g;
	struct guard_input in;
	struct law_step want, out;
};

static void fix_init(struct fix *f, enum law_knob k, int64_t value)
{
	memset(f, 0, sizeof(*f));
	law_policy_defaults(&f->pol);
	f->in = (struct guard_input){ .knob = k, .tick = 1, .valid = true, .value = value,
		.cost = 1.0 };
	law_hold(&f->want, "none");
}

/* A proposal of @k to @v, reviewed at @tick with objective @cost. */
static enum guard_verdict fix_review(struct fix *f, int64_t v, uint64_t tick, double cost)
{
	law_propose(&f->want, f->in.knob, f->in.value, v, true, "test step");
	f->in.tick = tick;
	f->in.cost = cost;
	return guard_review(&f->g, &f->want, &f->in, &f->pol, &f->out);
}

/* Apply what the guard let through, as the daemon would after a successful write. */
static void fix_apply(struct fix *f, enum guard_verdict v)
{
	if (v == GUARD_APPLY || v == GUARD_ROLLBACK)
		f->in.value = f->out.new_value;
}

static void test_invalid_interval_no_step(void **state)
{
	struct fix f;

	fix_init(&f, LK_RX_USECS, 20);
	f.in.valid = false;
	assert_int_equal(fix_review(&f, 40, 1, 1.0), GUARD_HOLD);
	assert_int_equal(f.out.new_value, 20);
	assert_non_null(strstr(f.out.reason, "invalid"));
	assert_int_equal(f.g.last_step_tick, 0);
	/* nothing proposed on an invalid interval: nothing at all */
	law_hold(&f.want, "none");
	assert_int_equal(guard_review(&f.g, &f.want, &f.in, &f.pol, &f.out), GUARD_NONE);
}

static void test_cooldown(void **state)
{
	struct fix f;
	enum guard_verdict v;

	fix_init(&f, LK_RX_USECS, 20);
	v = fix_review(&f, 40, 10, 1.0);
	assert_int_equal(v, GUARD_APPLY);
	fix_apply(&f, v);
	assert_int_equal(f.in.value, 40);
	/* cooldown 2: tick 11 is too early, tick 12 is fine */
	assert_int_equal(fix_review(&f, 80, 11, 0.9), GUARD_HOLD);
	assert_non_null(strstr(f.out.reason, "cooldown"));
	assert_int_equal(f.out.new_value, 40);
	assert_int_equal(fix_review(&f, 80, 12, 0.9), GUARD_APPLY);
	assert_int_equal(f.out.new_value, 80);
}

static void test_rollback_of_worse_step(void **state)
{
	struct fix f;
	enum guard_verdict v;

	fix_init(&f, LK_BQL_LIMIT_MAX, 200000);
	v = fix_review(&f, 100000, 1, 1.0);
	assert_int_equal(v, GUARD_APPLY);
	fix_apply(&f, v);
	/* objective 1.0 -> 1.5: worse by more than 10%: undone, whatever the law wants now */
	v = fix_review(&f, 50000, 2, 1.5);
	assert_int_equal(v, GUARD_ROLLBACK);
	assert_int_equal(f.out.old_value, 100000);
	assert_int_equal(f.out.new_value, 200000);
	assert_non_null(strstr(f.out.reason, "rollback"));
	fix_apply(&f, v);
	/* then the knob holds for hold_ticks (30) */
	assert_int_equal(fix_review(&f, 100000, 10, 1.0), GUARD_HOLD);
	assert_string_equal(f.out.reason, "held bql-limit-max until tick 32: its step made the "
			    "objective worse and was rolled back at tick 2");
	assert_int_equal(fix_review(&f, 100000, 32, 1.0), GUARD_APPLY);
}

/*
 * The hold after a rollback is for the undone step's direction: the law may move the other
 * way at once (a raise that made the delay worse is undone, and the cut toward the target
 * that follows is not held for hold_ticks), but not repeat the step.
 */
static void test_rollback_holds_one_direction(void **state)
{
	struct fix f;
	enum guard_verdict v;

	fix_init(&f, LK_BQL_LIMIT_MAX, 100000);
	fix_apply(&f, fix_review(&f, 200000, 1, 1.0));
	v = fix_review(&f, 200000, 2, 1.5);
	assert_int_equal(v, GUARD_ROLLBACK);
	fix_apply(&f, v);
	assert_int_equal(f.in.value, 100000);
	/* up again: held, naming the rollback */
	assert_int_equal(fix_review(&f, 150000, 5, 1.0), GUARD_HOLD);
	assert_non_null(strstr(f.out.reason, "held bql-limit-max until tick 32: its step made"));
	/* down: away from the undone raise, applied */
	v = fix_review(&f, 60000, 5, 1.0);
	assert_int_equal(v, GUARD_APPLY);
	assert_int_equal(f.out.new_value, 60000);
	fix_apply(&f, v);
	/* the raise stays held until the hold ends */
	assert_int_equal(fix_review(&f, 120000, 20, 1.0), GUARD_HOLD);
	assert_non_null(strstr(f.out.reason, "rolled back at tick 2"));
	assert_int_equal(fix_review(&f, 120000, 32, 1.0), GUARD_APPLY);
}

static void test_no_rollback_when_not_worse(void **state)
{
	struct fix f;
	enum guard_verdict v;

	fix_init(&f, LK_BQL_LIMIT_MAX, 200000);
	fix_apply(&f, fix_review(&f, 100000, 1, 1.0));
	/* 1.0 -> 1.05 is inside the 10% allowance: the step stands and is judged once */
	law_hold(&f.want, "none");
	f.in.tick = 2;
	f.in.cost = 1.05;
	assert_int_equal(guard_review(&f.g, &f.want, &f.in, &f.pol, &f.out), GUARD_NONE);
	assert_false(f.g.eval_pending);
	/* a later worse cost no longer undoes it */
	f.in.tick = 3;
	f.in.cost = 5;
	assert_int_equal(guard_review(&f.g, &f.want, &f.in, &f.pol, &f.out), GUARD_NONE);
	/* a step someone else overwrote is not judged either */
	v = fix_review(&f, 50000, 4, 1.0);
	fix_apply(&f, v);
	f.in.value = 77777;
	f.in.tick = 5;
	f.in.cost = 9;
	law_hold(&f.want, "none");
	assert_int_equal(guard_review(&f.g, &f.want, &f.in, &f.pol, &f.out), GUARD_NONE);
}

/*
 * Flap @f's knob 50 <-> 100 every cooldown from *@tick, each way down a law's retreat when
 * @retreat_down, until a step does not apply or an applied one says it holds after it.
 * Returns the steps applied; *@tick is the last review's tick, *@v its verdict.
 */
static int fix_flap(struct fix *f, bool retreat_down, uint64_t *tick, enum guard_verdict *v)
{
	int i, applied = 0;

	for (i = 0; i < 20; i++, *tick += f->pol.cooldown_ticks) {
		law_propose(&f->want, f->in.knob, f->in.value, f->in.value == 50 ? 100 : 50, true,
			    "test step");
		f->want.retreat = retreat_down && f->in.value == 100;
		f->in.tick = *tick;
		f->in.cost = 1.0;
		*v = guard_review(&f->g, &f->want, &f->in, &f->pol, &f->out);
		if (*v != GUARD_APPLY)
			break;
		fix_apply(f, *v);
		applied++;
		if (strstr(f->out.reason, "then held"))
			break;
	}
	return applied;
}

static void test_oscillation_holds(void **state)
{
	struct fix f;
	enum guard_verdict v;
	uint64_t tick = 1;

	fix_init(&f, LK_RX_USECS, 50);
	f.pol.rollback_worse = INFINITY;	/* judge oscillation only */
	/* flap 50 <-> 100 every cooldown: reversals 1..8 pass, the 9th holds */
	assert_int_equal(fix_flap(&f, false, &tick, &v), f.pol.osc_reversals_max + 1);
	assert_int_equal(v, GUARD_HOLD);
	assert_non_null(strstr(f.out.reason, "oscillating, 9 reversals in 32 ticks"));
	/* held for hold_ticks, in either direction, and the hold says it was the oscillation */
	assert_int_equal(fix_review(&f, f.in.value * 2, tick + 2, 1.0), GUARD_HOLD);
	assert_non_null(strstr(f.out.reason, ": it reversed direction too often (oscillation) at "
			       "tick "));
	assert_null(strstr(f.out.reason, "rolled back"));
	assert_int_equal(fix_review(&f, f.in.value == 50 ? 100 : 50, tick + f.pol.hold_ticks,
				    1.0), GUARD_APPLY);
}

/*
 * The same flap, but each way down is the law's retreat from a step it rejected: the
 * reversal that trips the detector is applied (back to 50) and the hold starts after it.
 */
static void test_oscillation_retreat_goes(void **state)
{
	struct fix f;
	enum guard_verdict v;
	uint64_t tick = 1;

	fix_init(&f, LK_RX_USECS, 50);
	f.pol.rollback_worse = INFINITY;
	/* reversals 1..8 pass, the 9th is a way back: it goes, and says it holds after */
	assert_int_equal(fix_flap(&f, true, &tick, &v), f.pol.osc_reversals_max + 2);
	assert_int_equal(v, GUARD_APPLY);
	assert_int_equal(f.in.value, 50);
	assert_non_null(strstr(f.out.reason, "test step; then held: oscillating, 9 reversals in "
			       "32 ticks"));
	/* then every step holds, the way up as well, for hold_ticks */
	tick += f.pol.cooldown_ticks;
	assert_int_equal(fix_review(&f, 100, tick, 1.0), GUARD_HOLD);
	assert_non_null(strstr(f.out.reason, "it reversed direction too often (oscillation)"));
	assert_int_equal(f.out.new_value, 50);
}

/* a hold the decide stage starts (a failed write, a throughput-floor rollback) names itself */
static void test_hold_names_cause(void **state)
{
	static const struct {
		enum guard_hold_why why;
		const char *reason;
	} c[] = {
		{ GUARD_HOLD_FAILED, "held rx-usecs until tick 40: its write failed (refused by the "
				     "kernel, or not journalled) at tick 10" },
		{ GUARD_HOLD_FLOOR, "held rx-usecs until tick 40: its step broke the throughput "
				    "floor and was rolled back at tick 10" },
	};
	struct fix f;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		fix_init(&f, LK_RX_USECS, 20);
		guard_hold_for(&f.g, c[i].why, 10, f.pol.hold_ticks, 0);
		assert_int_equal(fix_review(&f, 40, 11, 1.0), GUARD_HOLD);
		assert_string_equal(f.out.reason, c[i].reason);
		assert_int_equal(f.out.new_value, 20);
		assert_int_equal(fix_review(&f, 40, 40, 1.0), GUARD_APPLY);
	}
}

static void test_pinned_no_step(void **state)
{
	struct fix f;

	fix_init(&f, LK_RX_USECS, 20);
	fix_apply(&f, fix_review(&f, 40, 1, 1.0));
	f.in.pinned = true;
	assert_int_equal(fix_review(&f, 80, 5, 9.0), GUARD_HOLD);
	assert_non_null(strstr(f.out.reason, "pinned"));
	assert_int_equal(f.out.new_value, 40);
	/* a pin also drops the pending judgement: the outside value is never "rolled back" */
	assert_false(f.g.eval_pending);
}

static void test_disruptive_needs_consent(void **state)
{
	struct fix f;

	fix_init(&f, LK_TX_RING_SIZE, 256);
	assert_true(law_knob_disruptive(LK_TX_RING_SIZE));
	assert_false(law_knob_disruptive(LK_BQL_LIMIT_MAX));
	assert_int_equal(fix_review(&f, 512, 1, 1.0), GUARD_HOLD);
	assert_non_null(strstr(f.out.reason, "disruptive"));
	f.pol.allow_disruptive = true;
	assert_int_equal(fix_review(&f, 512, 2, 1.0), GUARD_APPLY);
	assert_int_equal(f.out.new_value, 512);
}

static void test_step_bounds_and_band(void **state)
{
	struct fix f;

	fix_init(&f, LK_BQL_LIMIT_MAX, 100000);
	/* factor 2, or 64 KB absolute, whichever moves more */
	assert_int_equal(fix_review(&f, 1000000, 1, 1.0), GUARD_APPLY);
	assert_int_equal(f.out.new_value, 200000);
	fix_init(&f, LK_BQL_LIMIT_MAX, 10000);
	assert_int_equal(fix_review(&f, 1000000, 1, 1.0), GUARD_APPLY);
	assert_int_equal(f.out.new_value, 10000 + 65536);
	/* never past the policy's bounds */
	fix_init(&f, LK_BQL_LIMIT_MAX, 4000000);
	assert_int_equal(fix_review(&f, 8000000, 1, 1.0), GUARD_APPLY);
	assert_int_equal(f.out.new_value, 4 << 20);
	fix_init(&f, LK_BQL_LIMIT_MAX, 4 << 20);
	assert_int_equal(fix_review(&f, 8000000, 1, 1.0), GUARD_HOLD);
	assert_non_null(strstr(f.out.reason, "bound"));
	/* 3% is inside the 4% band */
	fix_init(&f, LK_BQL_LIMIT_MAX, 100000);
	assert_int_equal(fix_review(&f, 103000, 1, 1.0), GUARD_HOLD);
	assert_non_null(strstr(f.out.reason, "band"));
	/* a bool has no band */
	fix_init(&f, LK_ZEROCOPY, 0);
	assert_int_equal(fix_review(&f, 1, 1, 1.0), GUARD_APPLY);
}

/* guard_tick: absent knobs skipped, learn copied, a worse step undone while another waits,
 * knobs outside the law's mask left alone. */
static void test_guard_tick(void **state)
{
	struct guard_knob g[LK_NUM] = { 0 };
	struct law_step want, done[LK_NUM], held;
	struct law_policy pol;
	struct law_state st;
	int n;

	law_policy_defaults(&pol);
	law_state_init(&st);
	st.knob[LK_BQL_LIMIT_MAX] = 200000;
	st.knob[LK_BQL_LIMIT_MIN] = 0;
	law_propose(&want, LK_BQL_LIMIT_MAX, 200000, 100000, true, "lower");
	want.learn.ql_period_ns = 1234;
	n = guard_tick(g, &st, &want, ~0u, 1, true, 1.0, 0, &pol, done, &held);
	assert_int_equal(n, 1);
	assert_int_equal(done[0].knob, LK_BQL_LIMIT_MAX);
	assert_int_equal(st.knob[LK_BQL_LIMIT_MAX], 100000);
	assert_true(st.learn.ql_period_ns == 1234);
	/* next tick the law wants limit_min, but limit_max made things worse: both happen */
	law_propose(&want, LK_BQL_LIMIT_MIN, 0, 65536, true, "raise min");
	n = guard_tick(g, &st, &want, ~0u, 2, true, 2.0, 0, &pol, done, &held);
	assert_int_equal(n, 2);
	assert_int_equal(st.knob[LK_BQL_LIMIT_MAX], 200000);
	assert_int_equal(st.knob[LK_BQL_LIMIT_MIN], 65536);
	assert_false(g[LK_BQL_LIMIT_MIN].eval_pending);	/* moved with the rollback */
	/* pinned through the mask */
	law_propose(&want, LK_BQL_LIMIT_MIN, 65536, 200000, true, "raise min");
	n = guard_tick(g, &st, &want, ~0u, 9, true, 1.0, 1u << LK_BQL_LIMIT_MIN, &pol, done,
		       &held);
	assert_int_equal(n, 0);
	assert_non_null(strstr(held.reason, "pinned"));
	assert_int_equal(st.knob[LK_BQL_LIMIT_MIN], 65536);
	/* the polling law's tick never touches (or judges) a queue-limit knob */
	law_propose(&want, LK_BQL_LIMIT_MIN, 65536, 131072, true, "raise min");
	n = guard_tick(g, &st, &want, LAW_POLL_KNOBS, 20, true, 1.0, 0, &pol, done, &held);
	assert_int_equal(n, 0);
	assert_int_equal(st.knob[LK_BQL_LIMIT_MIN], 65536);
}

/* A step is judged only when it is the one change in its window: two changes, no verdict. */
static void test_guard_tick_confounded(void **state)
{
	struct guard_knob g[LK_NUM] = { 0 };
	struct law_step want, done[LK_NUM], held;
	struct law_policy pol;
	struct law_state st;

	law_policy_defaults(&pol);
	pol.settle_ticks = 2;
	law_state_init(&st);
	st.knob[LK_RX_USECS] = 20;
	st.knob[LK_BUSYLOOP_US] = 0;
	law_propose(&want, LK_RX_USECS, 20, 40, true, "hold longer");
	assert_int_equal(guard_tick(g, &st, &want, ~0u, 1, true, 1.0, 0, &pol, done, &held), 1);
	assert_true(g[LK_RX_USECS].eval_pending);
	law_propose(&want, LK_BUSYLOOP_US, 0, 8, true, "spin");
	assert_int_equal(guard_tick(g, &st, &want, ~0u, 2, true, 1.0, 0, &pol, done, &held), 1);
	assert_false(g[LK_BUSYLOOP_US].eval_pending);	/* its baseline followed rx-usecs */
	/* five times worse afterwards, but nobody can say which step did it: no rollback */
	law_hold(&want, "none");
	assert_int_equal(guard_tick(g, &st, &want, ~0u, 4, true, 5.0, 0, &pol, done, &held), 0);
	assert_false(g[LK_RX_USECS].eval_pending);	/* dropped: busyloop moved inside */
	assert_int_equal(st.knob[LK_RX_USECS], 40);
	assert_int_equal(st.knob[LK_BUSYLOOP_US], 8);
}

static void test_helpers(void **state)
{
	struct law_policy pol;

	law_policy_defaults(&pol);
	assert_string_equal(law_knob_name(LK_GRO_FLUSH_TIMEOUT), "gro-flush-timeout");
	assert_string_equal(law_knob_unit(LK_RX_USECS), "us");
	assert_string_equal(law_knob_name(LK_NONE), "none");
	assert_int_equal(law_clamp(&pol, LK_RX_USECS, -5), 0);
	assert_int_equal(law_clamp(&pol, LK_RX_USECS, 1e9), 500);
	assert_int_equal(law_clamp(&pol, LK_RX_USECS, 41.6), 42);
	assert_int_equal(law_clamp(&pol, LK_RX_USECS, NAN), 0);
	assert_true(law_rel_change(100, 150) == 0.5);
	assert_true(isinf(law_rel_change(0, 1)));
	assert_true(law_rel_change(0, 0) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invalid_interval_no_step),
		cmocka_unit_test(test_cooldown),
		cmocka_unit_test(test_rollback_of_worse_step),
		cmocka_unit_test(test_rollback_holds_one_direction),
		cmocka_unit_test(test_no_rollback_when_not_worse),
		cmocka_unit_test(test_oscillation_holds),
		cmocka_unit_test(test_oscillation_retreat_goes),
		cmocka_unit_test(test_hold_names_cause),
		cmocka_unit_test(test_pinned_no_step),
		cmocka_unit_test(test_disruptive_needs_consent),
		cmocka_unit_test(test_step_bounds_and_band),
		cmocka_unit_test(test_guard_tick),
		cmocka_unit_test(test_guard_tick_confounded),
		cmocka_unit_test(test_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
