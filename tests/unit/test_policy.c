// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_policy: the policy schema (policies/README.md): shipped files are valid and balanced
 * is law_policy_defaults(); every kind of bad field rejects the whole policy with its path,
 * line and column; every mode installs; atomic install from files; the position scanner.
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

/* policies/NAME.json of the source tree, found from this file's own path (tests/unit/) */
static void shipped_path(const char *name, char *path, size_t max)
{
	char dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", __FILE__);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, max, "%s/../../policies/%s.json", slash ? dir : ".", name);
}

static char tmp_path[64];

/* Writes @text to a temporary file and returns its path (tmp_path). */
static const char *tmp_file(const char *text)
{
	int fd;

	snprintf(tmp_path, sizeof(tmp_path), "/tmp/vqpolicy.XXXXXX");
	fd = mkstemp(tmp_path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return tmp_path;
}

static struct policy_errors errs;

/* Validates @text (with positions); returns the status. */
static int validate(const char *text, struct policy *p)
{
	json_error_t jerr;
	json_t *obj = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	int st;

	assert_non_null(obj);
	st = policy_validate(obj, text, strlen(text), p, &errs);
	json_decref(obj);
	return st;
}

static void expect_error(unsigned int i, int status, const char *field, int line, int col,
			 const char *msg)
{
	assert_true(i < errs.n);
	assert_int_equal(errs.e[i].status, status);
	assert_string_equal(errs.e[i].field, field);
	assert_int_equal(errs.e[i].line, line);
	assert_int_equal(errs.e[i].column, col);
	assert_string_equal(errs.e[i].msg, msg);
}

static void load_shipped(const char *name, struct policy *p)
{
	char path[4300];
	FILE *f;
	char *text;
	long n;

	shipped_path(name, path, sizeof(path));
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc(1, n + 1);
	assert_int_equal(fread(text, 1, n, f), (size_t)n);
	fclose(f);
	assert_int_equal(validate(text, p), 0);
	assert_int_equal(errs.n, 0);
	free(text);
}

static void test_shipped_valid(void **state)
{
	static const char *const files[] = { "observe", "balanced", "latency", "throughput" };
	static const char *const mode[] = { "observe", "active", "active", "active" };
	struct policy p;
	char path[4300];
	size_t i;

	for (i = 0; i < 4; i++) {
		load_shipped(files[i], &p);
		assert_string_equal(p.name, files[i]);
		assert_string_equal(p.mode, mode[i]);
		shipped_path(files[i], path, sizeof(path));
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
	load_shipped("balanced", &p);
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
		load_shipped(files[i], &p);
		a = policy_to_json(&p);
		assert_int_equal(policy_validate(a, NULL, 0, &q, &errs), 0);
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

	assert_int_equal(validate(t, &p), 400);
	assert_int_equal(errs.n, 2);
	expect_error(0, 400, "colour", 3, 2, "unknown field (known: name, mode, select, "
		     "objective, controllers, guard)");
	expect_error(1, 400, "controllers.qlimit.bql_limit_max.max_bytez", 4, 50,
		     "unknown field (known: min_bytes, max_bytes, step_max_bytes)");
}

static void test_wrong_types(void **state)
{
	struct policy p;
	const char *t =
		"{\"objective\": {\"latency_target_us\": \"50\", \"event_budget_per_s\": 2.5e4},\n"
		" \"guard\": {\"cooldown_ticks\": 2.0, \"hysteresis_pct\": 3},\n"
		" \"controllers\": {\"polling\": {\"enabled\": 1}}, \"select\": {\"names\": \"eth*\"}}";

	assert_int_equal(validate(t, &p), 400);
	assert_int_equal(errs.n, 4);
	/* in the order validation walks the schema; files print them in text order */
	expect_error(0, 400, "select.names", 3, 66, "must be an array of strings, not a string");
	expect_error(1, 400, "objective.latency_target_us", 1, 37,
		     "must be an integer, not a string");
	expect_error(2, 400, "controllers.polling.enabled", 3, 41,
		     "must be true or false, not an integer");
	expect_error(3, 400, "guard.cooldown_ticks", 2, 30, "must be an integer, not a real (2.0)");
	/* reals where reals are allowed, and integers there too */
	t = "{\"objective\": {\"event_budget_per_s\": 2.5e4, \"throughput_floor_pct\": 50.5},"
	    " \"guard\": {\"hysteresis_pct\": 3}}";
	assert_int_equal(validate(t, &p), 0);
	assert_true(p.law.event_budget_per_s == 25000.0);
	assert_true(p.throughput_floor_pct == 50.5);
	assert_true(p.law.hysteresis == 0.03);
	assert_int_equal(validate("{\"objective\": {\"throughput_floor_pct\": 100.0}}", &p), 0);
	assert_true(p.throughput_floor_pct == 100);
	assert_int_equal(validate("{\"objective\": {\"throughput_floor_pct\": 100.5}}", &p), 422);
	expect_error(0, 422, "objective.throughput_floor_pct", 1, 40,
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

	assert_int_equal(validate(t, &p), 422);
	assert_int_equal(errs.n, 3);
	expect_error(0, 422, "controllers.qlimit.target_delay_us", 6, 23,
		     "0 is below the minimum 1");
	expect_error(1, 422, "controllers.qlimit.bql_limit_max.max_bytes", 5, 55,
		     "1000 is below min_bytes 4000");
	expect_error(2, 422, "guard.osc_reversals_max", 9, 34, "17 is above the maximum 16");
	/* only min given, above the default max: the min is blamed */
	t = "{\"controllers\":{\"polling\":{\"rx_usecs\":{\"min_us\":600}}}}";
	assert_int_equal(validate(t, &p), 422);
	expect_error(0, 422, "controllers.polling.rx_usecs.min_us", 1, 49,
		     "600 is above max_us 500");
	/* limit_min's range entirely above limit_max's */
	t = "{\"controllers\":{\"qlimit\":{\"bql_limit_max\":{\"max_bytes\":5000},"
	    "\"bql_limit_min\":{\"min_bytes\":6000,\"max_bytes\":8000}}}}";
	assert_int_equal(validate(t, &p), 422);
	assert_int_equal(errs.n, 1);
	expect_error(0, 422, "controllers.qlimit.bql_limit_min.min_bytes", 1, 91,
		     "6000 is above bql_limit_max.max_bytes 5000: limit_min could never be reached");
	/* an integer past 2^53 is compared and named exactly, not as a rounded double */
	t = "{\"objective\":{\"latency_target_us\":9007199254740993}}";
	assert_int_equal(validate(t, &p), 422);
	assert_int_equal(errs.n, 1);
	expect_error(0, 422, "objective.latency_target_us", 1, 35,
		     "9007199254740993 is above the maximum 1000000");
}

static void test_select(void **state)
{
	struct policy p;
	const char *t = "{\"select\": {\"drivers\": [\"veth\", \"virtio_net\"], "
			"\"names\": [\"lab*\"], \"netns\": [\"\", \"lab\"]}}";

	assert_int_equal(validate(t, &p), 0);
	assert_true(policy_selects(&p, "veth", "lab0", ""));
	assert_true(policy_selects(&p, "virtio_net", "lab-x", "lab"));
	assert_false(policy_selects(&p, "e1000", "lab0", ""));
	assert_false(policy_selects(&p, "veth", "eth0", ""));
	assert_false(policy_selects(&p, "veth", "lab0", "other"));
	/* "-", vqtunectl's name of the daemon's own namespace, selects it as "" does, kept as
	 * written; it names no other namespace */
	t = "{\"select\": {\"netns\": [\"-\"]}}";
	assert_int_equal(validate(t, &p), 0);
	assert_true(policy_selects(&p, "veth", "eth0", ""));
	assert_false(policy_selects(&p, "veth", "lab0", "lab"));
	assert_false(policy_selects(&p, "veth", "lab0", "-x"));
	assert_string_equal(p.netns.v[0], "-");
	policy_defaults(&p);
	assert_true(policy_selects(&p, "anything", "any", "ns"));
	t = "{\"select\": {\"drivers\": [\"\"], \"names\": [\"a\", 1]}}";
	assert_int_equal(validate(t, &p), 422);
	expect_error(0, 422, "select.drivers[0]", 1, 25, "must be 1..63 bytes, not 0");
	expect_error(1, 400, "select.names[1]", 1, 45, "must be a string, not an integer");
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
	assert_int_equal(validate(t, &p), 422);
	assert_int_equal(errs.n, 1);
	expect_error(0, 422, "select.names[1]", 2, 20, "'eth[0-3' is not a valid fnmatch(3) glob: "
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

	assert_int_equal(validate(t, &p), 0);
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

/* an API body: the error names the path; several errors say how many more */
static void test_api_errors(void **state)
{
	struct policy p;
	json_t *obj = json_loads("{\"guard\": {\"hold_ticks\": -1, \"x\": 1}}", 0, NULL);
	json_t *err = NULL, *e;

	assert_int_equal(policy_parse(obj, NULL, 0, &p, &err), 400);
	e = json_object_get(err, "error");
	assert_string_equal(json_string_value(json_object_get(e, "field")), "guard.x");
	assert_string_equal(json_string_value(json_object_get(e, "message")),
			    "guard.x: unknown field (known: cooldown_ticks, settle_ticks, hold_ticks, "
			    "osc_window_ticks, osc_reversals_max, hysteresis_pct, step_factor_max, "
			    "rollback_worse_pct) (and 1 more error)");
	json_decref(err);
	json_decref(obj);
	/* a key with an escape sequence is shown without its control character */
	obj = json_loads("{\"a\\u001b[31m\": 1}", 0, NULL);
	assert_int_equal(policy_parse(obj, NULL, 0, &p, &err), 400);
	e = json_object_get(err, "error");
	assert_string_equal(json_string_value(json_object_get(e, "field")), "a?[31m");
	json_decref(err);
	json_decref(obj);
	obj = json_integer(3);
	assert_int_equal(policy_parse(obj, NULL, 0, &p, &err), 400);
	json_decref(obj);
	json_decref(err);
}

/*
 * With the body's text, the error given is the first in text order, as vqtuned -C gives a
 * file's, with its line and column, and the status is that error's: hold_ticks (422, line
 * 2) comes before the unknown x (400, line 3), which the schema's order finds first.
 */
static void test_api_errors_text_order(void **state)
{
	const char *t = "{\"guard\": {\n  \"hold_ticks\": -1,\n    \"x\": 1}}";
	struct policy p;
	json_t *obj = json_loads(t, 0, NULL), *err = NULL, *e;

	(void)state;
	assert_int_equal(policy_parse(obj, t, strlen(t), &p, &err), 422);
	e = json_object_get(err, "error");
	assert_string_equal(json_string_value(json_object_get(e, "field")), "guard.hold_ticks");
	assert_non_null(strstr(json_string_value(json_object_get(e, "message")),
			       "guard.hold_ticks: "));
	assert_non_null(strstr(json_string_value(json_object_get(e, "message")),
			       " (and 1 more error)"));
	assert_int_equal(json_integer_value(json_object_get(e, "line")), 2);
	assert_int_equal(json_integer_value(json_object_get(e, "column")), 17);
	json_decref(err);
	/* without the text: schema order, no place */
	assert_int_equal(policy_parse(obj, NULL, 0, &p, &err), 400);
	e = json_object_get(err, "error");
	assert_string_equal(json_string_value(json_object_get(e, "field")), "guard.x");
	assert_null(json_object_get(e, "line"));
	json_decref(err);
	json_decref(obj);
}

/* a bad file changes nothing; a good one replaces the policy whole */
static void test_load_atomic(void **state)
{
	const char *bad = "{\"name\": \"bad\", \"guard\": {\"cooldown_ticks\": 5, \"hold_ticks\": \"x\"}}";
	const char *good = "{\"name\": \"good\", \"guard\": {\"cooldown_ticks\": 5}}";
	const char *act = "{\"name\": \"act\", \"mode\": \"active\"}";
	char why[256];

	assert_string_equal(policy_get()->name, "observe");
	assert_int_equal(policy_load_file(tmp_file(bad), why, sizeof(why)), -EINVAL);
	/* the first error, as --check-policy prints it: path, line, column, field, message */
	assert_true(!strncmp(why, tmp_path, strlen(tmp_path)));
	assert_non_null(strstr(why, ":1:"));
	assert_non_null(strstr(why, ": guard.hold_ticks: "));
	unlink(tmp_path);
	assert_string_equal(policy_get()->name, "observe");
	assert_int_equal(policy_get()->law.cooldown_ticks, 2);
	assert_int_equal(policy_load_file(tmp_file(act), NULL, 0), 0);
	unlink(tmp_path);
	assert_string_equal(policy_get()->name, "act");
	assert_string_equal(policy_get()->mode, "active");
	assert_int_equal(policy_load_file(tmp_file("{\"name\": "), NULL, 0), -EINVAL);
	unlink(tmp_path);
	assert_string_equal(policy_get()->name, "act");
	assert_int_equal(policy_load_file(tmp_file(bad), NULL, 0), -EINVAL);
	unlink(tmp_path);
	assert_string_equal(policy_get()->name, "act");
	assert_int_equal(policy_load_file("/nonexistent/policy.json", why, sizeof(why)), -ENOENT);
	/* a directory opens fine and fails only at read(2): refused as one, policy kept */
	assert_string_equal(why, "/nonexistent/policy.json: No such file or directory");
	assert_int_equal(policy_load_file("/tmp", NULL, 0), -EISDIR);
	assert_string_equal(policy_get()->name, "act");
	assert_int_equal(policy_load_file(tmp_file(good), NULL, 0), 0);
	unlink(tmp_path);
	assert_string_equal(policy_get()->name, "good");
	assert_int_equal(policy_get()->law.cooldown_ticks, 5);
	assert_int_equal(policy_get()->law.hold_ticks, 30);
}

/*
 * The first error of a rejected load: the log's first "policy ..." line is the very text
 * kept in @why (which the SIGHUP event carries), also when @why is too short for it.
 */
static void test_load_why_logged(void **state)
{
	const char *bad = "{\"guard\": {\"cooldown_tick\": 2, \"hold_ticks\": 0}}";
	static const size_t lens[] = { POLICY_WHY_MAX, 40 };
	char why[POLICY_WHY_MAX], log[4096], want[POLICY_WHY_MAX + 16], *nl;
	int saved, fd;
	size_t i;
	ssize_t n;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		FILE *f = tmpfile();

		assert_non_null(f);
		fflush(stderr);
		saved = dup(STDERR_FILENO);
		assert_true(saved >= 0);
		assert_true(dup2(fileno(f), STDERR_FILENO) >= 0);
		assert_int_equal(policy_load_file(tmp_file(bad), why, lens[i]), -EINVAL);
		fflush(stderr);
		assert_true(dup2(saved, STDERR_FILENO) >= 0);
		close(saved);
		unlink(tmp_path);
		fd = fileno(f);
		n = pread(fd, log, sizeof(log) - 1, 0);
		fclose(f);
		assert_true(n > 0);
		log[n] = '\0';
		nl = strchr(log, '\n');
		assert_non_null(nl);
		*nl = '\0';
		assert_true(strlen(why) < lens[i]);
		snprintf(want, sizeof(want), "<3>policy %s", why);
		assert_string_equal(log, want);
		/* the first in text order: the unknown key at 1:12 comes before hold_ticks */
		assert_true(!strncmp(why, tmp_path, strlen(why) < strlen(tmp_path) ?
				     strlen(why) : strlen(tmp_path)));
		if (lens[i] == POLICY_WHY_MAX)
			assert_non_null(strstr(why, ":1:12: guard.cooldown_tick: unknown field"));
	}
}

/* --check-policy: every mode validates; errors are FILE:LINE:COL: FIELD: MESSAGE in order */
static void test_check_file(void **state)
{
	const char *t = "{\n\t\"mode\": \"active\",\n\t\"guard\": {\"settle_ticks\": 0},\n"
			"\t\"bogus\": true\n}\n";
	char path[64], out[1024], want[1024];
	FILE *f = tmpfile();
	size_t n;

	assert_int_equal(policy_check_file(tmp_file("{\"mode\": \"active\"}"), f), 0);
	unlink(tmp_path);
	snprintf(path, sizeof(path), "%s", tmp_file(t));
	assert_int_equal(policy_check_file(path, f), -EINVAL);
	unlink(path);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	snprintf(want, sizeof(want),
		 "%s:3:28: guard.settle_ticks: 0 is below the minimum 1\n"
		 "%s:4:2: bogus: unknown field (known: name, mode, select, objective, controllers, "
		 "guard)\n", path, path);
	assert_string_equal(out, want);

	/* a directory is named as one (not "Input/output error") */
	f = tmpfile();
	assert_int_equal(policy_check_file("/tmp", f), -EISDIR);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	assert_string_equal(out, "/tmp: is a directory, not a policy file\n");

	/* a FIFO with no writer is refused at once, not waited on (open(2) would block) */
	snprintf(path, sizeof(path), "/tmp/vqpolicy.fifo.%d", (int)getpid());
	assert_int_equal(mkfifo(path, 0600), 0);
	f = tmpfile();
	assert_int_equal(policy_check_file(path, f), -EINVAL);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	unlink(path);
	snprintf(want, sizeof(want), "%s: is not a regular file (a FIFO, socket or device), "
		 "not a policy file\n", path);
	assert_string_equal(out, want);
}

/*
 * A file that is not JSON text at all is named in words a person can act on (--check-policy,
 * start and SIGHUP share this path): a byte order mark, a control or non-UTF-8 byte at its
 * own line and column (jansson quotes it raw, invisibly), an empty file without a column 0.
 */
static void test_check_file_text(void **state)
{
	static const struct {
		const char *bytes;
		size_t len;
		const char *where, *msg;
	} c[] = {
		{ "\xef\xbb\xbf{\"mode\": \"active\"}\n", 22, ":1:1",
		  "file starts with a UTF-8 byte order mark; save it without one" },
		{ "{\"name\":\"x\",\x01}\n", 15, ":1:13",
		  "byte 0x01 is not JSON text (a control character)" },
		{ "{\"name\":\n \"x\xff\"}\n", 17, ":2:4", "byte 0xFF is not JSON text (not UTF-8)" },
		{ "\x7f", 1, ":1:1", "byte 0x7F is not JSON text (a control character)" },
		{ "\x89PNG\r\n", 6, ":1:1", "byte 0x89 is not JSON text (not UTF-8)" },
		{ "{\"name\": 1\x00}", 13, ":1:11", "a NUL byte is not allowed in JSON text" },
		{ "", 0, "", "file is empty" },
		{ "  \n", 3, "", "file holds only white space, no JSON value" },
		{ "{\"name\":\"x\",\n", 13, ":2:1", "string or '}' expected near end of file" },
	};
	char out[512], want[512];
	size_t i, n;
	FILE *f;
	int fd;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(tmp_path, sizeof(tmp_path), "/tmp/vqpolicy.XXXXXX");
		fd = mkstemp(tmp_path);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, c[i].bytes, c[i].len), (ssize_t)c[i].len);
		close(fd);
		f = tmpfile();
		assert_int_equal(policy_check_file(tmp_path, f), -EINVAL);
		unlink(tmp_path);
		rewind(f);
		n = fread(out, 1, sizeof(out) - 1, f);
		out[n] = '\0';
		fclose(f);
		snprintf(want, sizeof(want), "%s%s: %s\n", tmp_path, c[i].where, c[i].msg);
		assert_string_equal(out, want);
	}
}

static void test_scanner(void **state)
{
	/* escaped keys, strings holding brackets and quotes, UTF-8 counted as characters */
	const char *t = "{\"a\\\"}\": [1, {\"x\": \"]}\\\\\"}], \"\\u006eame\": \"\xc3\xa9\xc3\xa9\","
			" \"b\": {\"c\": [true, [2, 3], {\"d\": null}]}}";
	const char *seg[4];
	int idx[4] = { 0 }, line, col;

	seg[0] = "name";
	assert_int_equal(policy_text_pos(t, strlen(t), seg, idx, 1, false, &line, &col), 0);
	assert_int_equal(line, 1);
	assert_int_equal(col, 43);
	assert_int_equal(policy_text_pos(t, strlen(t), seg, idx, 1, true, &line, &col), 0);
	assert_int_equal(col, 30);
	seg[0] = "b", seg[1] = "c", seg[2] = NULL, idx[2] = 2, seg[3] = "d";
	assert_int_equal(policy_text_pos(t, strlen(t), seg, idx, 4, false, &line, &col), 0);
	assert_int_equal(col, 81);	/* 83 if UTF-8 bytes were counted */
	seg[0] = "a\"}";
	assert_int_equal(policy_text_pos(t, strlen(t), seg, idx, 1, false, &line, &col), 0);
	assert_int_equal(col, 10);
	seg[0] = "missing";
	assert_int_equal(policy_text_pos(t, strlen(t), seg, idx, 1, false, &line, &col), -ENOENT);
	seg[0] = "b", seg[1] = "c", idx[2] = 7;
	assert_int_equal(policy_text_pos(t, strlen(t), seg, idx, 3, false, &line, &col), -ENOENT);
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
		cmocka_unit_test(test_api_errors),
		cmocka_unit_test(test_api_errors_text_order),
		cmocka_unit_test(test_load_atomic),
		cmocka_unit_test(test_load_why_logged),
		cmocka_unit_test(test_check_file),
		cmocka_unit_test(test_check_file_text),
		cmocka_unit_test(test_scanner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
