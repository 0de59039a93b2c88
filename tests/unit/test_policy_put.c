// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_policy_put: which field an error of a PUT names (policy_validate_put(),
 * policy_parse()): of an inverted bound pair, the bound the request changed from the policy
 * it replaces; a control character (C0, DEL or C1) in a string names the string's field; a
 * real out of range is shown with the digits that tell it from the bound; a
 * {"policy":{...}} wrapper is the policy it holds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "law.h"
#include "policy.h"

/*
 * An inverted bound pair given whole (vqtunectl policy set sends the whole policy) names
 * the bound the request changed from the policy it replaces: `policy set ...min_us 999`
 * against max_us 500 blames min_us, not the max_us it never touched. Changed both, or a
 * file (no policy replaced): max, as before.
 */
static void test_put_blames_changed_bound(void **state)
{
	static struct policy_errors errs;
	struct policy prev, p;
	json_t *obj, *err = NULL;
	long long mx;

	policy_defaults(&prev);
	prev.law.bounds[LK_RX_USECS].max = 500;
	mx = prev.law.bounds[LK_RX_USECS].max;
	obj = json_pack("{s:{s:{s:{s:i, s:I}}}}", "controllers", "polling", "rx_usecs",
			"min_us", 999, "max_us", (json_int_t)mx);
	assert_int_equal(policy_validate_put(obj, NULL, 0, &prev, &p, &errs), 422);
	assert_int_equal(errs.n, 1);
	assert_string_equal(errs.e[0].field, "controllers.polling.rx_usecs.min_us");
	assert_string_equal(errs.e[0].msg, "999 is above max_us 500");
	/* a file replaces nothing: max, as the text gave both */
	assert_int_equal(policy_validate(obj, NULL, 0, &p, &errs), 422);
	assert_string_equal(errs.e[0].field, "controllers.polling.rx_usecs.max_us");
	assert_string_equal(errs.e[0].msg, "500 is below min_us 999");
	json_decref(obj);
	/* max changed below the old min: max */
	prev.law.bounds[LK_RX_USECS].min = 100;
	obj = json_pack("{s:{s:{s:{s:i, s:i}}}}", "controllers", "polling", "rx_usecs",
			"min_us", 100, "max_us", 50);
	assert_int_equal(policy_validate_put(obj, NULL, 0, &prev, &p, &errs), 422);
	assert_string_equal(errs.e[0].field, "controllers.polling.rx_usecs.max_us");
	assert_string_equal(errs.e[0].msg, "50 is below min_us 100");
	json_decref(obj);

	/* the BQL pair across knobs: a lowered bql_limit_max.max_bytes is the one named */
	policy_defaults(&prev);
	prev.law.bounds[LK_BQL_LIMIT_MIN].min = 4000;
	prev.law.bounds[LK_BQL_LIMIT_MIN].max = 8000;
	prev.law.bounds[LK_BQL_LIMIT_MAX].min = 1000;
	prev.law.bounds[LK_BQL_LIMIT_MAX].max = 9000;
	obj = json_pack("{s:{s:{s:{s:i, s:i}, s:{s:i, s:i}}}}", "controllers", "qlimit",
			"bql_limit_min", "min_bytes", 4000, "max_bytes", 8000,
			"bql_limit_max", "min_bytes", 1000, "max_bytes", 3000);
	assert_int_equal(policy_validate_put(obj, NULL, 0, &prev, &p, &errs), 422);
	assert_string_equal(errs.e[0].field, "controllers.qlimit.bql_limit_max.max_bytes");
	assert_string_equal(errs.e[0].msg, "3000 is below bql_limit_min.min_bytes 4000: "
			    "limit_min could never be reached");
	assert_int_equal(policy_validate(obj, NULL, 0, &p, &errs), 422);
	assert_string_equal(errs.e[0].field, "controllers.qlimit.bql_limit_min.min_bytes");
	json_decref(obj);

	/* over the API (policy_parse() replaces the installed policy) */
	policy_defaults(&prev);
	prev.law.bounds[LK_RX_USECS].max = 500;
	policy_set(&prev);
	obj = json_pack("{s:{s:{s:{s:i, s:i}}}}", "controllers", "polling", "rx_usecs",
			"min_us", 999, "max_us", 500);
	assert_int_equal(policy_parse(obj, NULL, 0, &p, &err), 422);
	assert_string_equal(json_string_value(json_object_get(json_object_get(err, "error"),
							       "message")),
			    "controllers.polling.rx_usecs.min_us: 999 is above max_us 500");
	json_decref(err);
	json_decref(obj);
	policy_defaults(&prev);
	policy_set(&prev);
}

/* PUT body @text is refused 422 naming @field with @msg; the policy in force is unchanged. */
static void put_refused(const char *text, const char *field, const char *msg)
{
	struct policy p;
	json_t *obj = json_loads(text, 0, NULL), *err = NULL, *e;
	char was[sizeof(p.name)];

	assert_non_null(obj);
	snprintf(was, sizeof(was), "%s", policy_get()->name);
	assert_int_equal(policy_parse(obj, text, strlen(text), &p, &err), 422);
	e = json_object_get(err, "error");
	assert_string_equal(json_string_value(json_object_get(e, "code")), "out_of_range");
	assert_string_equal(json_string_value(json_object_get(e, "field")), field);
	assert_string_equal(json_string_value(json_object_get(e, "message")), msg);
	assert_string_equal(policy_get()->name, was);
	json_decref(err);
	json_decref(obj);
}

/*
 * policies/README: no control characters in name or a select entry. C1 controls (U+0080..
 * U+009F; U+009B is CSI, "\u009b[2J" clears a terminal that shows the name) are refused
 * as C0 and DEL are; U+00A0, the first character after them, is not one.
 */
static void test_c1_controls_refused(void **state)
{
	static const char *const names[] = { "a\\u009b[2J", "a\\u0080", "a\\u009f",
					     "a\\u007f", "a\\u001b" };
	char text[128];
	struct policy p;
	json_t *obj, *err = NULL;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(text, sizeof(text), "{\"name\":\"%s\"}", names[i]);
		put_refused(text, "name", "name: must not contain control characters");
		snprintf(text, sizeof(text), "{\"select\":{\"names\":[\"x\", \"%s\"]}}",
			 names[i]);
		put_refused(text, "select.names[1]",
			    "select.names[1]: must not contain control characters");
		snprintf(text, sizeof(text), "{\"select\":{\"drivers\":[\"%s\"]}}", names[i]);
		put_refused(text, "select.drivers[0]",
			    "select.drivers[0]: must not contain control characters");
	}
	obj = json_loads("{\"name\":\"a\\u00a0b\"}", 0, NULL);
	assert_int_equal(policy_parse(obj, NULL, 0, &p, &err), 0);
	assert_string_equal(p.name, "a\xc2\xa0" "b");
	json_decref(obj);
	/* an unknown key holding one is named with '?' in its place, as a C0 control is */
	obj = json_loads("{\"a\\u009b[2J\": 1}", 0, NULL);
	assert_int_equal(policy_parse(obj, NULL, 0, &p, &err), 400);
	assert_string_equal(json_string_value(json_object_get(json_object_get(err, "error"),
							       "field")), "a?[2J");
	json_decref(err);
	json_decref(obj);
}

/* 100.00000000000001 is above 100: said so, never as "100 is above the maximum 100" */
static void test_real_range_digits(void **state)
{
	put_refused("{\"guard\":{\"rollback_worse_pct\":100.00000000000001}}",
		    "guard.rollback_worse_pct", "guard.rollback_worse_pct: 100.00000000000001 is "
		    "above the maximum 100");
	put_refused("{\"guard\":{\"rollback_worse_pct\":-0.000000000000001}}",
		    "guard.rollback_worse_pct", "guard.rollback_worse_pct: -1e-15 is below the "
		    "minimum 0");
	/* 16 digits read this one back: the 17th is not added */
	put_refused("{\"guard\":{\"hysteresis_pct\":50.000000000000007}}",
		    "guard.hysteresis_pct", "guard.hysteresis_pct: 50.00000000000001 is above the "
		    "maximum 50");
}

/*
 * {"policy":{...}}, what GET /v1/policy and `vqtunectl --json policy show` print, is the
 * policy it holds (a file, vqtuned -C, a PUT body): the round trip of the policy in force
 * gives it back; an error names policy.FIELD at its line and column. Only that key alone,
 * holding an object, is a wrapper: beside another key, or holding a number, "policy" is an
 * unknown field.
 */
static void test_wrapper_is_its_policy(void **state)
{
	static struct policy_errors errs;
	const char *bad = "{\"policy\": {\n  \"guard\": {\"settle_ticks\": 0}}}";
	struct policy prev, p;
	json_t *obj, *err = NULL;

	policy_defaults(&prev);
	snprintf(prev.name, sizeof(prev.name), "saved");
	snprintf(prev.mode, sizeof(prev.mode), "advise");
	prev.law.bounds[LK_RX_USECS].max = 500;
	obj = json_pack("{s:o}", "policy", policy_to_json(&prev));
	assert_int_equal(policy_validate(obj, NULL, 0, &p, &errs), 0);
	assert_string_equal(p.name, "saved");
	assert_string_equal(p.mode, "advise");
	assert_int_equal(p.law.bounds[LK_RX_USECS].max, 500);
	assert_int_equal(policy_parse(obj, NULL, 0, &p, &err), 0);
	assert_int_equal(p.law.bounds[LK_RX_USECS].max, 500);
	json_decref(obj);

	obj = json_loads(bad, 0, NULL);
	assert_int_equal(policy_validate(obj, bad, strlen(bad), &p, &errs), 422);
	assert_int_equal(errs.n, 1);
	assert_string_equal(errs.e[0].field, "policy.guard.settle_ticks");
	assert_string_equal(errs.e[0].msg, "0 is below the minimum 1");
	assert_int_equal(errs.e[0].line, 2);
	assert_int_equal(errs.e[0].column, 29);
	json_decref(obj);

	obj = json_pack("{s:{s:s}, s:s}", "policy", "mode", "active", "name", "x");
	assert_int_equal(policy_validate(obj, NULL, 0, &p, &errs), 400);
	assert_int_equal(errs.n, 1);
	assert_string_equal(errs.e[0].field, "policy");
	assert_string_equal(errs.e[0].msg, "unknown field (known: name, mode, select, objective, "
			    "controllers, guard); a {\"policy\":{...}} wrapper holds an object, "
			    "alone");
	json_decref(obj);
	obj = json_pack("{s:i}", "policy", 3);
	assert_int_equal(policy_validate(obj, NULL, 0, &p, &errs), 400);
	assert_string_equal(errs.e[0].field, "policy");
	assert_non_null(strstr(errs.e[0].msg, "wrapper holds an object, alone"));
	json_decref(obj);
	/* inside a policy, a "policy" key is just unknown */
	obj = json_pack("{s:{s:i}}", "guard", "policy", 1);
	assert_int_equal(policy_validate(obj, NULL, 0, &p, &errs), 400);
	assert_string_equal(errs.e[0].field, "guard.policy");
	assert_null(strstr(errs.e[0].msg, "wrapper"));
	json_decref(obj);
}

/*
 * An install's event says what changed (policy_diff()): dotted keys as `vqtunectl policy
 * set` takes them, old -> new in compact JSON, the name left out, at most POLICY_DIFF_SHOWN
 * listed and the rest counted.
 */
static void test_diff_names_changes(void **state)
{
	struct policy a, b;
	char *d;
	int i;

	(void)state;
	policy_defaults(&a);
	b = a;
	d = policy_diff(&a, &b);
	assert_string_equal(d, "nothing changed");
	free(d);
	snprintf(b.name, sizeof(b.name), "observe (modified)");
	d = policy_diff(&a, &b);
	assert_string_equal(d, "nothing but the name changed");
	free(d);
	b.law.bounds[LK_RX_USECS].max = a.law.bounds[LK_RX_USECS].max - 200;
	snprintf(b.mode, sizeof(b.mode), "active");
	b.law.step_factor_max = 1.5;
	d = policy_diff(&a, &b);
	{
		char want[256];

		snprintf(want, sizeof(want), "changed mode \"observe\" -> \"active\", "
			 "controllers.polling.rx_usecs.max_us %lld -> %lld, "
			 "guard.step_factor_max 2.0 -> 1.5",
			 (long long)a.law.bounds[LK_RX_USECS].max,
			 (long long)b.law.bounds[LK_RX_USECS].max);
		assert_string_equal(d, want);
	}
	free(d);
	/* ten changes: eight listed, two counted */
	b = a;
	for (i = 0; i < 10; i++)
		b.law.bounds[i].max += 1;
	d = policy_diff(&a, &b);
	assert_int_equal(strncmp(d, "changed controllers.qlimit.", 27), 0);
	assert_non_null(strstr(d, " and 2 more"));
	{
		int commas = 0;
		const char *c;

		for (c = d; (c = strstr(c, ", ")); c++)
			commas++;
		assert_int_equal(commas, POLICY_DIFF_SHOWN - 1);
	}
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_blames_changed_bound),
		cmocka_unit_test(test_c1_controls_refused),
		cmocka_unit_test(test_real_range_digits),
		cmocka_unit_test(test_wrapper_is_its_policy),
		cmocka_unit_test(test_diff_names_changes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
