// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_policy_load: a policy as it arrives: an API body's error names the first bad field
 * in text order; install from files is atomic (a bad file changes nothing) and says why;
 * `vqtuned -C` checks a file in the daemon's words; the position scanner finds a path's
 * line and column. The schema itself: test_policy.
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
	assert_int_equal(policy_load_file(pf_tmp_file(bad), why, sizeof(why)), -EINVAL);
	/* the first error, as --check-policy prints it: path, line, column, field, message */
	assert_true(!strncmp(why, pf_tmp_path, strlen(pf_tmp_path)));
	assert_non_null(strstr(why, ":1:"));
	assert_non_null(strstr(why, ": guard.hold_ticks: "));
	unlink(pf_tmp_path);
	assert_string_equal(policy_get()->name, "observe");
	assert_int_equal(policy_get()->law.cooldown_ticks, 2);
	assert_int_equal(policy_load_file(pf_tmp_file(act), NULL, 0), 0);
	unlink(pf_tmp_path);
	assert_string_equal(policy_get()->name, "act");
	assert_string_equal(policy_get()->mode, "active");
	assert_int_equal(policy_load_file(pf_tmp_file("{\"name\": "), NULL, 0), -EINVAL);
	unlink(pf_tmp_path);
	assert_string_equal(policy_get()->name, "act");
	assert_int_equal(policy_load_file(pf_tmp_file(bad), NULL, 0), -EINVAL);
	unlink(pf_tmp_path);
	assert_string_equal(policy_get()->name, "act");
	assert_int_equal(policy_load_file("/nonexistent/policy.json", why, sizeof(why)), -ENOENT);
	/* a directory opens fine and fails only at read(2): refused as one, policy kept */
	assert_string_equal(why, "/nonexistent/policy.json: No such file or directory");
	assert_int_equal(policy_load_file("/tmp", NULL, 0), -EISDIR);
	assert_string_equal(policy_get()->name, "act");
	assert_int_equal(policy_load_file(pf_tmp_file(good), NULL, 0), 0);
	unlink(pf_tmp_path);
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
		assert_int_equal(policy_load_file(pf_tmp_file(bad), why, lens[i]), -EINVAL);
		fflush(stderr);
		assert_true(dup2(saved, STDERR_FILENO) >= 0);
		close(saved);
		unlink(pf_tmp_path);
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
		assert_true(!strncmp(why, pf_tmp_path, strlen(why) < strlen(pf_tmp_path) ?
				     strlen(why) : strlen(pf_tmp_path)));
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

	assert_int_equal(policy_check_file(pf_tmp_file("{\"mode\": \"active\"}"), f), 0);
	unlink(pf_tmp_path);
	snprintf(path, sizeof(path), "%s", pf_tmp_file(t));
	assert_int_equal(policy_check_file(path, f), -EINVAL);
	unlink(path);
	pf_read_closed(f, out, sizeof(out));
	snprintf(want, sizeof(want),
		 "%s:3:28: guard.settle_ticks: 0 is below the minimum 1\n"
		 "%s:4:2: bogus: unknown field (known: name, mode, select, objective, controllers, "
		 "guard)\n", path, path);
	assert_string_equal(out, want);

	/* a directory is named as one (not "Input/output error") */
	f = tmpfile();
	assert_int_equal(policy_check_file("/tmp", f), -EISDIR);
	pf_read_closed(f, out, sizeof(out));
	assert_string_equal(out, "/tmp: is a directory, not a policy file\n");

	/* a FIFO with no writer is refused at once, not waited on (open(2) would block) */
	snprintf(path, sizeof(path), "/tmp/vqpolicy.fifo.%d", (int)getpid());
	assert_int_equal(mkfifo(path, 0600), 0);
	f = tmpfile();
	assert_int_equal(policy_check_file(path, f), -EINVAL);
	pf_read_closed(f, out, sizeof(out));
	unlink(path);
	snprintf(want, sizeof(want), "%s: is a FIFO, socket or device, not a regular "
		 "policy file\n", path);
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
		/* after true, jansson alone would take the NUL for the end of the text */
		{ "{\"mode\":true\x00}", 14, ":1:13", "a NUL byte is not allowed in JSON text" },
		{ "", 0, "", "file is empty" },
		{ "  \n", 3, "", "file holds only white space, no JSON value" },
		{ "{\"name\":\"x\",\n", 13, ":2:1", "string or '}' expected near end of file" },
	};
	char out[512], want[512];
	size_t i;
	FILE *f;
	int fd;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(pf_tmp_path, sizeof(pf_tmp_path), "/tmp/vqpolicy.XXXXXX");
		fd = mkstemp(pf_tmp_path);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, c[i].bytes, c[i].len), (ssize_t)c[i].len);
		close(fd);
		f = tmpfile();
		assert_int_equal(policy_check_file(pf_tmp_path, f), -EINVAL);
		unlink(pf_tmp_path);
		pf_read_closed(f, out, sizeof(out));
		snprintf(want, sizeof(want), "%s%s: %s\n", pf_tmp_path, c[i].where, c[i].msg);
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
