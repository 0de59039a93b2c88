// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_policy: the policy schema (policies/README.md): shipped files are valid and balanced
 * is law_policy_defaults(); what GET shows PUT takes; every kind of bad field rejects the
 * whole policy with its path, line and column; device selection; every mode installs.
 * API bodies, file install and the position scanner: test_policy_load.
 */
#include <errno.h>
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "law.h"
#include "policy.h"
#include "policy_schema.h"
#include "policy_fixture.h"

static void test_shipped_valid(void **state)
{
	static const char *const files[] = { "observe", "balanced", "latency", "throughput" };
	static const char *const mode[] = { "observe", "active", "active", "active" };
	struct policy p;
	char path[4300];
	size_t i;

	for (i = 0; i < 4; i++) {
		pf_load_shipped(files[i], &p);
		assert_string_equal(p.name, files[i]);
		assert_string_equal(p.mode, mode[i]);
		pf_shipped_path(files[i], path, sizeof(path));
		assert_int_equal(policy_check_file(path, stderr), 0);
	}
}

/* balanced.json is law_policy_defaults(), field for field */
static void test_balanced_is_defaults(void **state)
{
	struct law_policy d;
	struct policy p;
	int k;

	law_policy_defaults(&d);
	pf_load_shipped("balanced", &p);
	assert_int_equal(p.law.qlimit_target_delay_ns, d.qlimit_target_delay_ns);
	assert_int_equal(p.law.latency_target_ns, d.latency_target_ns);
	assert_true(p.law.event_budget_per_s == d.event_budget_per_s);
	assert_int_equal(p.law.busyloop_hit_value_ns, d.busyloop_hit_value_ns);
	assert_int_equal(p.law.zc_latency_target_ns, d.zc_latency_target_ns);
	assert_int_equal(p.law.zc_breakeven_bytes, d.zc_breakeven_bytes);
	for (k = 0; k < LK_NUM; k++) {
		assert_int_equal(p.law.bounds[k].min, d.bounds[k].min);
		assert_int_equal(p.law.bounds[k].max, d.bounds[k].max);
		assert_int_equal(p.law.bounds[k].step_abs_max, d.bounds[k].step_abs_max);
	}
	assert_int_equal(p.law.allow_disruptive, d.allow_disruptive);
	assert_int_equal(p.law.cooldown_ticks, d.cooldown_ticks);
	assert_int_equal(p.law.settle_ticks, d.settle_ticks);
	assert_int_equal(p.law.hold_ticks, d.hold_ticks);
	assert_int_equal(p.law.osc_window_ticks, d.osc_window_ticks);
	assert_int_equal(p.law.osc_reversals_max, d.osc_reversals_max);
	assert_true(p.law.hysteresis == d.hysteresis);
	assert_true(p.law.step_factor_max == d.step_factor_max);
	assert_true(p.law.rollback_worse == d.rollback_worse);
	assert_true(p.enabled[POLICY_CTL_QLIMIT] && p.enabled[POLICY_CTL_POLLING] &&
		    p.enabled[POLICY_CTL_ZEROCOPY]);
}

/* what GET /v1/policy shows is what PUT takes: `vqtunectl policy set` depends on it */
static void test_round_trip(void **state)
{
	static const char *const files[] = { "balanced", "latency", "throughput" };
	struct policy p, q;
	json_t *a, *b;
	size_t i;

	for (i = 0; i < 3; i++) {
		pf_load_shipped(files[i], &p);
		a = policy_to_json(&p);
		assert_int_equal(policy_validate(a, NULL, 0, &q, &pf_errs), 0);
		b = policy_to_json(&q);
		assert_true(json_equal(a, b));
		assert_int_equal(q.law.latency_target_ns, p.law.latency_target_ns);
		json_decref(a);
		json_decref(b);
	}
}

static void test_unknown_fields(void **state)
{
	struct policy p;
	const char *t =
		"{\n"
		"\t\"name\": \"x\",\n"
		"\t\"colour\": 1,\n"
		"\t\"controllers\": { \"qlimit\": { \"bql_limit_max\": { \"max_bytez\": 5 } } }\n"
		"}\n";

	assert_int_equal(pf_validate(t, &p), 400);
	assert_int_equal(pf_errs.n, 2);
	pf_expect_error(0, 400, "colour", 3, 2, "unknown field (known: name, mode, select, "
		     "objective, controllers, guard)");
	pf_expect_error(1, 400, "controllers.qlimit.bql_limit_max.max_bytez", 4, 50,
		     "unknown field (known: min_bytes, max_bytes, step_max_bytes)");
}

static void test_wrong_types(void **state)
{
	struct policy p;
	const char *t =
		"{\"objective\": {\"latency_target_us\": \"50\", \"event_budget_per_s\": 2.5e4},\n"
		" \"guard\": {\"cooldown_ticks\": 2.0, \"hysteresis_pct\": 3},\n"
		" \"controllers\": {\"polling\": {\"enabled\": 1}}, \"select\": {\"names\": \"eth*\"}}";

	assert_int_equal(pf_validate(t, &p), 400);
	assert_int_equal(pf_errs.n, 4);
	/* in the order validation walks the schema; files print them in text order */
	pf_expect_error(0, 400, "select.names", 3, 66, "must be an array of strings, not a string");
	pf_expect_error(1, 400, "objective.latency_target_us", 1, 37,
		     "must be an integer, not a string");
	pf_expect_error(2, 400, "controllers.polling.enabled", 3, 41,
		     "must be true or false, not an integer");
	pf_expect_error(3, 400, "guard.cooldown_ticks", 2, 30, "must be an integer, not a real (2.0)");
	/* reals where reals are allowed, and integers there too */
	t = "{\"objective\": {\"event_budget_per_s\": 2.5e4, \"throughput_floor_pct\": 50.5},"
	    " \"guard\": {\"hysteresis_pct\": 3}}";
	assert_int_equal(pf_validate(t, &p), 0);
	assert_true(p.law.event_budget_per_s == 25000.0);
	assert_true(p.throughput_floor_pct == 50.5);
	assert_true(p.law.hysteresis == 0.03);
	assert_int_equal(pf_validate("{\"objective\": {\"throughput_floor_pct\": 100.0}}", &p), 0);
	assert_true(p.throughput_floor_pct == 100);
	assert_int_equal(pf_validate("{\"objective\": {\"throughput_floor_pct\": 100.5}}", &p), 422);
	pf_expect_error(0, 422, "objective.throughput_floor_pct", 1, 40,
		     "100.5 is above the maximum 100");
}

static void test_ranges_and_inverted(void **state)
{
	struct policy p;
	const char *t =
		"{\n"
		"\t\"name\": \"x\",\n"
		"\t\"controllers\": {\n"
		"\t\t\"qlimit\": {\n"
		"\t\t\t\"bql_limit_max\": { \"min_bytes\": 4000, \"max_bytes\": 1000 },\n"
		"\t\t\t\"target_delay_us\": 0\n"
		"\t\t}\n"
		"\t},\n"
		"\t\"guard\": { \"osc_reversals_max\": 17 }\n"
		"}\n";

	assert_int_equal(pf_validate(t, &p), 422);
	assert_int_equal(pf_errs.n, 3);
	pf_expect_error(0, 422, "controllers.qlimit.target_delay_us", 6, 23,
		     "0 is below the minimum 1");
	pf_expect_error(1, 422, "controllers.qlimit.bql_limit_max.max_bytes", 5, 55,
		     "1000 is below min_bytes 4000");
	pf_expect_error(2, 422, "guard.osc_reversals_max", 9, 34, "17 is above the maximum 16");
	/* only min given, above the default max: the min is blamed */
	t = "{\"controllers\":{\"polling\":{\"rx_usecs\":{\"min_us\":600}}}}";
	assert_int_equal(pf_validate(t, &p), 422);
	pf_expect_error(0, 422, "controllers.polling.rx_usecs.min_us", 1, 49,
		     "600 is above max_us 500");
	/* limit_min's range entirely above limit_max's */
	t = "{\"controllers\":{\"qlimit\":{\"bql_limit_max\":{\"max_bytes\":5000},"
	    "\"bql_limit_min\":{\"min_bytes\":6000,\"max_bytes\":8000}}}}";
	assert_int_equal(pf_validate(t, &p), 422);
	assert_int_equal(pf_errs.n, 1);
	pf_expect_error(0, 422, "controllers.qlimit.bql_limit_min.min_bytes", 1, 91,
		     "6000 is above bql_limit_max.max_bytes 5000: limit_min could never be reached");
	/* an integer past 2^53 is compared and named exactly, not as a rounded double */
	t = "{\"objective\":{\"latency_target_us\":9007199254740993}}";
	assert_int_equal(pf_validate(t, &p), 422);
	assert_int_equal(pf_errs.n, 1);
	pf_expect_error(0, 422, "objective.latency_target_us", 1, 35,
		     "9007199254740993 is above the maximum 1000000");
}

static void test_select(void **state)
{
	struct policy p;
	const char *t = "{\"select\": {\"drivers\": [\"veth\", \"virtio_net\"], "
			"\"names\": [\"lab*\"], \"netns\": [\"\", \"lab\"]}}";

	assert_int_equal(pf_validate(t, &p), 0);
	assert_true(policy_selects(&p, "veth", "lab0", ""));
	assert_true(policy_selects(&p, "virtio_net", "lab-x", "lab"));
	assert_false(policy_selects(&p, "e1000", "lab0", ""));
	assert_false(policy_selects(&p, "veth", "eth0", ""));
	assert_false(policy_selects(&p, "veth", "lab0", "other"));
	/* "-", vqtunectl's name of the daemon's own namespace, selects it as "" does, kept as
	 * written; it names no other namespace */
	t = "{\"select\": {\"netns\": [\"-\"]}}";
	assert_int_equal(pf_validate(t, &p), 0);
	assert_true(policy_selects(&p, "veth", "eth0", ""));
	assert_false(policy_selects(&p, "veth", "lab0", "lab"));
	assert_false(policy_selects(&p, "veth", "lab0", "-x"));
	assert_string_equal(p.netns.v[0], "-");
	policy_defaults(&p);
	assert_true(policy_selects(&p, "anything", "any", "ns"));
	t = "{\"select\": {\"drivers\": [\"\"], \"names\": [\"a\", 1]}}";
	assert_int_equal(pf_validate(t, &p), 422);
	pf_expect_error(0, 422, "select.drivers[0]", 1, 25, "must be 1..63 bytes, not 0");
	pf_expect_error(1, 400, "select.names[1]", 1, 45, "must be a string, not an integer");
	/* a netns entry no namespace can have (a name under /run/netns) is refused by place */
	t = "{\"select\": {\"netns\": [\"lab\", \"lab/x\", \"..\", \".x\"]}}";
	assert_int_equal(pf_validate(t, &p), 422);
	assert_int_equal(pf_errs.n, 2);
	pf_expect_error(0, 422, "select.netns[1]", 1, 30, "'lab/x' is no namespace name "
			"ip-netns(8) can make (a file under /run/netns: no '/', not '.' or '..'); "
			"\"\" or \"-\" is vqtuned's own");
	pf_expect_error(1, 422, "select.netns[2]", 1, 39, "'..' is no namespace name "
			"ip-netns(8) can make (a file under /run/netns: no '/', not '.' or '..'); "
			"\"\" or \"-\" is vqtuned's own");
}

/*
 * select.names globs: fnmatch(3) has no compile step and reads a malformed one literally,
 * so a policy that holds one is refused at load, naming the entry and where it goes wrong.
 */
static void test_select_globs(void **state)
{
	static const char *const good[] = { "eth*", "lab?", "v[0-9]", "[!a]x", "[^a]x", "[]]",
		"[!]]", "[[:digit:]]*", "a\\[b", "[a\\]]", "*", "[[.a.]]", "[[=a=]]", "x]" };
	static const struct {
		const char *glob, *why;
		size_t at;
	} bad[] = {
		{ "eth[0-3", "'[' without its closing ']'", 3 },
		{ "[]", "'[' without its closing ']'", 0 },
		{ "a[!]", "'[' without its closing ']'", 1 },
		{ "x[[:digit:]", "'[' without its closing ']'", 1 },
		{ "[a\\]", "'[' without its closing ']'", 0 },
		{ "[[:digits:]]", "unknown character class", 0 },
		{ "[[:alpha]", "'[:' without its closing ':]'", 0 },
		{ "eth\\", "'\\' at the end escapes nothing", 3 },
	};
	const char *t = "{\"select\": {\n\t\"names\": [\"eth*\", \"eth[0-3\"]\n}}";
	char why[POLICY_MSG_MAX];
	struct policy p;
	size_t i, at;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_null(policy_glob_error(good[i], &at));
		/* and fnmatch itself takes it without an error */
		assert_int_not_equal(fnmatch(good[i], "x", 0), -1);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		at = 99;
		assert_string_equal(policy_glob_error(bad[i].glob, &at), bad[i].why);
		assert_int_equal(at, bad[i].at);
	}
	assert_int_equal(pf_validate(t, &p), 422);
	assert_int_equal(pf_errs.n, 1);
	pf_expect_error(0, 422, "select.names[1]", 2, 20, "'eth[0-3' is not a valid fnmatch(3) glob: "
		     "'[' without its closing ']' (byte 4)");
	/* the words vqtuned --manage GLOB gives too, and an empty glob named as one */
	assert_int_equal(policy_glob_check("eth[0", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "'eth[0' is not a valid fnmatch(3) glob: '[' without its closing "
			    "']' (byte 4)");
	assert_int_equal(policy_glob_check("", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "an empty glob matches no device name");
	assert_int_equal(policy_glob_check("eth[0-3]", why, sizeof(why)), 0);
}

/* every mode validates and installs; an unknown mode is refused naming the field */
static void test_modes(void **state)
{
	struct policy p;
	json_t *obj = json_pack("{s:s, s:s}", "name", "a", "mode", "active"), *err = NULL, *e;
	const char *t = "{\n  \"name\": \"a\",\n  \"mode\": \"advise\"\n}";

	assert_int_equal(pf_validate(t, &p), 0);
	assert_string_equal(p.mode, "advise");
	assert_int_equal(policy_parse(obj, NULL, 0, &p, &err), 0);
	assert_string_equal(p.mode, "active");
	json_decref(obj);
	obj = json_pack("{s:s, s:{s:i}}", "mode", "active", "objective", "throughput_floor_pct", 90);
	assert_int_equal(policy_parse(obj, NULL, 0, &p, &err), 0);
	assert_int_equal(p.throughput_floor_pct, 90);
	json_decref(obj);
	obj = json_pack("{s:s}", "mode", "fast");
	assert_int_equal(policy_parse(obj, NULL, 0, &p, &err), 400);
	e = json_object_get(err, "error");
	assert_string_equal(json_string_value(json_object_get(e, "field")), "mode");
	json_decref(err);
	json_decref(obj);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_valid),
		cmocka_unit_test(test_balanced_is_defaults),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_unknown_fields),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_ranges_and_inverted),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_select_globs),
		cmocka_unit_test(test_modes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
