// SPDX-License-Identifier: GPL-2.0-only
/* rate: counters -> rates, resets and generations never yield a rate. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "rate.h"

#define SEC_NS	1000000000ULL

static void test_first_then_rate(void **state)
{
	struct rate_ctr c = { 0 };
	double r;

	assert_int_equal(rate_feed(&c, 1000, 1, SEC_NS, &r), RATE_FIRST);
	assert_true(r == 0);
	assert_int_equal(rate_feed(&c, 3000, 1, SEC_NS, &r), RATE_OK);
	assert_true(r == 2000.0);
	/* 500 units in 100 ms = 5000/s */
	assert_int_equal(rate_feed(&c, 3500, 1, SEC_NS / 10, &r), RATE_OK);
	assert_true(r > 4999.999 && r < 5000.001);
}

static void test_reset_is_not_a_wrap(void **state)
{
	struct rate_ctr c = { 0 };
	double r;

	rate_feed(&c, UINT64_MAX - 10, 1, SEC_NS, &r);
	/* a lower reading is a reset: no huge "wrapped" rate */
	assert_int_equal(rate_feed(&c, 5, 1, SEC_NS, &r), RATE_RESET);
	assert_true(r == 0);
	/* the reset reading is the new reference */
	assert_int_equal(rate_feed(&c, 105, 1, SEC_NS, &r), RATE_OK);
	assert_true(r == 100.0);
}

static void test_generation_breaks_series(void **state)
{
	struct rate_ctr c = { 0 };
	double r;

	rate_feed(&c, 100, 1, SEC_NS, &r);
	/* counter went up, but across a queue-count change: no rate */
	assert_int_equal(rate_feed(&c, 100000, 2, SEC_NS, &r), RATE_NEWGEN);
	assert_true(r == 0);
	assert_int_equal(rate_feed(&c, 100100, 2, SEC_NS, &r), RATE_OK);
	assert_true(r == 100.0);
}

static void test_zero_interval(void **state)
{
	struct rate_ctr c = { 0 };
	double r;

	rate_feed(&c, 1, 1, SEC_NS, &r);
	assert_int_equal(rate_feed(&c, 2, 1, 0, &r), RATE_NOTIME);
	assert_true(r == 0);
}

static void test_forget(void **state)
{
	struct rate_ctr c = { 0 };
	double r;

	rate_feed(&c, 1, 1, SEC_NS, &r);
	rate_forget(&c);
	assert_int_equal(rate_feed(&c, 50, 1, SEC_NS, &r), RATE_FIRST);
}

static void test_unchanged_counter_is_zero_rate(void **state)
{
	struct rate_ctr c = { 0 };
	double r = -1;

	rate_feed(&c, 42, 3, SEC_NS, &r);
	assert_int_equal(rate_feed(&c, 42, 3, SEC_NS, &r), RATE_OK);
	assert_true(r == 0.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_then_rate),
		cmocka_unit_test(test_reset_is_not_a_wrap),
		cmocka_unit_test(test_generation_breaks_series),
		cmocka_unit_test(test_zero_interval),
		cmocka_unit_test(test_forget),
		cmocka_unit_test(test_unchanged_counter_is_zero_rate),
	};

	return cmocka_run_group_tests_name("rate", tests, NULL, NULL);
}
