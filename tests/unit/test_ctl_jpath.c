// SPDX-License-Identifier: GPL-2.0-only
/*
 * `policy set KEY VALUE` (ctl/jpath.c): an object VALUE set over an object keeps the
 * members it does not give, and "unchanged, nothing sent" is judged on JSON values as the
 * daemon reads them, not on their text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../ctl/ctl.h"

/* an object onto an object sets the members it gives and keeps the others */
static void test_jpath_set_object(void **state)
{
	json_t *o = json_pack("{s:{s:{s:i, s:i}, s:i}}", "qlimit", "tx_full_mode", "min", 0,
			      "max", 1, "target_delay_us", 500);
	json_t *before = json_deep_copy(o);
	char *s;

	assert_int_equal(ctl_jpath_set(o, "qlimit.tx_full_mode", json_object()), 0);
	assert_true(json_equal(o, before));
	assert_int_equal(ctl_jpath_set(o, "qlimit", json_pack("{s:{s:i}}", "tx_full_mode",
							      "max", 0)), 0);
	s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"qlimit\":{\"target_delay_us\":500,"
			    "\"tx_full_mode\":{\"max\":0,\"min\":0}}}");
	free(s);
	/* a scalar where an object was, and an object where a scalar was, replace it */
	assert_int_equal(ctl_jpath_set(o, "qlimit.tx_full_mode", json_integer(3)), 0);
	assert_int_equal(json_integer_value(ctl_jpath_get(o, "qlimit.tx_full_mode")), 3);
	assert_int_equal(ctl_jpath_set(o, "qlimit.target_delay_us", json_object()), 0);
	assert_true(json_is_object(ctl_jpath_get(o, "qlimit.target_delay_us")));
	json_decref(before);
	json_decref(o);
}

/* Sets @key of @now to @v (stolen) and says whether @now still holds what @before does. */
static bool set_same(json_t *now, const json_t *before, const char *key, json_t *v)
{
	assert_int_equal(ctl_jpath_set(now, key, v), 0);
	return ctl_policy_same(now, before);
}

/* numbers by value where the field holds a real; no rename when nothing changed */
static void test_policy_same_numbers(void **state)
{
	json_t *before = json_pack("{s:s, s:{s:f}, s:{s:f, s:i}}", "name", "balanced",
				   "objective", "event_budget_per_s", 20000.0,
				   "guard", "hysteresis_pct", 4.0, "cooldown_ticks", 2);
	json_t *now = json_deep_copy(before);

	assert_true(ctl_policy_same(now, before));
	assert_true(set_same(now, before, "objective.event_budget_per_s", json_integer(20000)));
	assert_true(set_same(now, before, "guard.hysteresis_pct", json_integer(4)));
	assert_int_equal(ctl_policy_mark_modified(now, before), 0);
	assert_string_equal(json_string_value(json_object_get(now, "name")), "balanced");
	assert_false(set_same(now, before, "guard.hysteresis_pct", json_real(4.5)));
	assert_false(set_same(now, before, "guard.hysteresis_pct", json_integer(5)));
	assert_true(set_same(now, before, "guard.hysteresis_pct", json_real(4.0)));
	/* a real in an integer field is sent, for the daemon to refuse */
	assert_false(set_same(now, before, "guard.cooldown_ticks", json_real(2.0)));
	assert_false(set_same(now, before, "guard.cooldown_ticks", json_integer(1)));
	assert_true(set_same(now, before, "guard.cooldown_ticks", json_integer(2)));
	assert_false(set_same(now, before, "guard.cooldown_ticks", json_string("2")));
	json_decref(before);
	json_decref(now);
}

/* objects member by member, arrays element by element, strings exactly */
static void test_policy_same_structure(void **state)
{
	json_t *before = json_pack("{s:s, s:{s:[s]}, s:{s:{s:i, s:i}}}", "name", "balanced",
				   "select", "names", "eth*", "qlimit", "tx_full_mode", "min", 0,
				   "max", 1);
	json_t *now = json_deep_copy(before);

	assert_true(set_same(now, before, "qlimit.tx_full_mode", json_object()));
	assert_true(set_same(now, before, "qlimit.tx_full_mode", json_pack("{s:i, s:i}", "max",
									   1, "min", 0)));
	assert_false(set_same(now, before, "qlimit.tx_full_mode", json_pack("{s:i}", "max", 0)));
	assert_true(set_same(now, before, "qlimit.tx_full_mode", json_pack("{s:i}", "max", 1)));
	assert_false(set_same(now, before, "select.names", json_pack("[s]", "eth?")));
	assert_false(set_same(now, before, "select.names", json_pack("[s,s]", "eth*", "x")));
	assert_true(set_same(now, before, "select.names", json_pack("[s]", "eth*")));
	assert_false(set_same(now, before, "qlimit.tx_full_mode.x", json_integer(1)));
	assert_int_equal(ctl_policy_mark_modified(now, before), 1);
	assert_string_equal(json_string_value(json_object_get(now, "name")),
			    "balanced (modified)");
	json_decref(before);
	json_decref(now);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jpath_set_object),
		cmocka_unit_test(test_policy_same_numbers),
		cmocka_unit_test(test_policy_same_structure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
