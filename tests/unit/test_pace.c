// SPDX-License-Identifier: GPL-2.0-only
/* pace: the tick interval backs off while quiet and returns to base at the first work. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "pace.h"

/* 1 s base, 4 s max: 5 quiet ticks of 1 s, then 3 of 2 s, then 4 s for good */
static void test_backoff_steps(void **state)
{
	static const uint32_t want[] = { 1000, 1000, 1000, 1000, 2000, 2000, 2000, 4000,
					 4000, 4000, 4000 };
	struct pace p;
	unsigned int i;

	pace_init(&p, 1000, 4000);
	assert_int_equal(p.cur_ms, 1000);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(pace_next(&p, false), want[i]);
	assert_int_equal(p.cur_ms, 4000);
}

/* one busy tick puts the interval back to base at once, and the quiet count restarts */
static void test_busy_returns_to_base(void **state)
{
	struct pace p;
	unsigned int i;

	pace_init(&p, 1000, 4000);
	for (i = 0; i < 20; i++)
		pace_next(&p, false);
	assert_int_equal(p.cur_ms, 4000);
	assert_int_equal(pace_next(&p, true), 1000);
	/* 4 quiet ticks after it are not yet 5 base intervals, the 5th is */
	for (i = 0; i < 5; i++)
		assert_int_equal(pace_next(&p, false), i < 4 ? 1000 : 2000);
	/* busy every 5th tick: it never leaves the base */
	pace_init(&p, 1000, 4000);
	for (i = 0; i < 40; i++)
		assert_int_equal(pace_next(&p, i % 5 == 4), 1000);
}

/* max below base, or equal: pacing off, the base for ever */
static void test_off(void **state)
{
	struct pace p;
	unsigned int i;

	pace_init(&p, 500, 100);
	assert_int_equal(p.max_ms, 500);
	for (i = 0; i < 50; i++)
		assert_int_equal(pace_next(&p, false), 500);
	pace_init(&p, 500, 500);
	for (i = 0; i < 50; i++)
		assert_int_equal(pace_next(&p, false), 500);
}

/* a max that is not a power-of-two multiple of the base is reached, not passed */
static void test_max_capped(void **state)
{
	struct pace p;
	uint32_t v = 0;
	unsigned int i;

	pace_init(&p, 1000, 3000);
	for (i = 0; i < 30; i++) {
		v = pace_next(&p, false);
		assert_true(v <= 3000);
	}
	assert_int_equal(v, 3000);
	/* the daemon's extremes: 60 s max from a 10 ms base, no overflow on the way */
	pace_init(&p, 10, 60000);
	for (i = 0; i < 200; i++)
		v = pace_next(&p, false);
	assert_int_equal(v, 60000);
}

static void test_reset(void **state)
{
	struct pace p;
	unsigned int i;

	pace_init(&p, 1000, 4000);
	assert_false(pace_reset(&p));
	for (i = 0; i < 10; i++)
		pace_next(&p, false);
	assert_int_equal(p.cur_ms, 4000);
	assert_true(pace_reset(&p));
	assert_int_equal(p.cur_ms, 1000);
	assert_int_equal(p.quiet_ms, 0);
}

/* pace_ticks(): the interval in force in base intervals, rounded down, at least 1 */
static void test_ticks(void **state)
{
	static const uint32_t want[] = { 1, 1, 1, 1, 1, 2, 2, 2, 4, 4 };
	struct pace p;
	unsigned int i;

	pace_init(&p, 1000, 4000);
	assert_int_equal(pace_ticks(&p), 1);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(pace_ticks(&p), want[i]);
		pace_next(&p, false);
	}
	pace_reset(&p);
	assert_int_equal(pace_ticks(&p), 1);
	/* a max that is no doubling counts down, never more than its time: 2900 / 1000 is 2,
	 * and 3000 is 3 */
	pace_init(&p, 1000, 2900);
	for (i = 0; i < 20; i++)
		pace_next(&p, false);
	assert_int_equal(p.cur_ms, 2900);
	assert_int_equal(pace_ticks(&p), 2);
	pace_init(&p, 1000, 3000);
	for (i = 0; i < 20; i++)
		pace_next(&p, false);
	assert_int_equal(pace_ticks(&p), 3);
	/* a base that does not divide: 1500 ms at a 1000 ms base is 1 */
	p.cur_ms = 1500;
	assert_int_equal(pace_ticks(&p), 1);
	/* pacing off: always 1; the extremes, 60 s over 10 ms */
	pace_init(&p, 500, 500);
	pace_next(&p, false);
	assert_int_equal(pace_ticks(&p), 1);
	pace_init(&p, 10, 60000);
	for (i = 0; i < 200; i++)
		pace_next(&p, false);
	assert_int_equal(pace_ticks(&p), 6000);
}

static void test_moved(void **state)
{
	double a[4] = { 5000, 5000, 4e6, 4e6 }, b[4];

	/* +-30 %: noise, not a move */
	b[0] = 6500, b[1] = 3600, b[2] = 5.2e6, b[3] = 2.9e6;
	assert_false(pace_moved(a, b, 4));
	/* one rate up by more than half of the lower: moved (6000 -> 9100: 6000 < 2/3 * 9100) */
	a[0] = 6000, b[0] = 9100;
	assert_true(pace_moved(a, b, 4));
	/* down the same way: 9100 -> 6000 */
	assert_true(pace_moved(b, a, 4));
	/* from idle to traffic */
	a[0] = 0, b[0] = 1000;
	assert_true(pace_moved(a, b, 4));
	/* under the floor: background, whatever the ratio */
	a[0] = 2, b[0] = 90, b[1] = a[1], b[2] = a[2], b[3] = a[3];
	assert_false(pace_moved(a, b, 4));
	/* unknown readings move */
	b[0] = -1;
	assert_true(pace_moved(a, b, 4));
	b[0] = NAN;
	assert_true(pace_moved(a, b, 4));
	assert_false(pace_moved(a, b, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backoff_steps),
		cmocka_unit_test(test_busy_returns_to_base),
		cmocka_unit_test(test_off),
		cmocka_unit_test(test_max_capped),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_ticks),
		cmocka_unit_test(test_moved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
