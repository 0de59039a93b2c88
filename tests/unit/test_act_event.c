// SPDX-License-Identifier: GPL-2.0-only
/*
 * act_event: a reason is stored raw and shown in display form exactly once, in the event's
 * JSON and in its log line alike (docs/api.md): a device named q"\ reads q"\\ in the
 * "device" field, in the reason and in the log, never q"\\\\; byte 0xFF reads \xff, never
 * \\xff; a policy error quoting a backslash ('"a\q') reads '"a\\q' in both.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "act.h"
#include "act_priv.h"

/* the log lines of one event are far shorter */
#define LOG_READ_MAX_BYTES	4096

static char state_dir[] = "/tmp/vqacteventXXXXXX";
static char log_path[sizeof(state_dir) + 16];
static int log_fd = -1, saved_stderr = -1;

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(state_dir) || act_events_open(state_dir))
		return -1;
	snprintf(log_path, sizeof(log_path), "%s/log", state_dir);
	log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
	return log_fd < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	char path[sizeof(state_dir) + 16];

	(void)state;
	close(log_fd);
	act_events_close();
	unlink(log_path);
	snprintf(path, sizeof(path), "%s/events.json", state_dir);
	unlink(path);
	rmdir(state_dir);
	return 0;
}

/* The log (stderr) into the file while @on, so cmocka's own messages stay on the terminal. */
static void capture_log(bool on)
{
	fflush(stderr);
	if (on) {
		saved_stderr = dup(STDERR_FILENO);
		dup2(log_fd, STDERR_FILENO);
	} else {
		dup2(saved_stderr, STDERR_FILENO);
		close(saved_stderr);
	}
}

/* The log written so far (static buffer). */
static const char *log_text(void)
{
	static char buf[LOG_READ_MAX_BYTES];
	FILE *f = fopen(log_path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* Field @key of the newest event, as a string. */
static const char *last_field(json_t **arr, const char *key)
{
	uint64_t next;
	size_t n;

	*arr = act_events_json(0, UINT32_MAX, &next);
	n = json_array_size(*arr);
	assert_true(n > 0);
	return json_string_value(json_object_get(json_array_get(*arr, n - 1), key));
}

static void check_once(const char *dev, const char *shown)
{
	char reason[128], line[256];
	uint64_t o = 0, n = 5;
	json_t *arr;

	capture_log(true);
	act_event("lab", dev, "gro-flush-timeout", "napi-3", -1, &o, &n, WHO_MANUAL,
		  "manual set of gro-flush-timeout on lab:%s", dev);
	capture_log(false);
	snprintf(reason, sizeof(reason), "manual set of gro-flush-timeout on lab:%s", shown);
	assert_string_equal(last_field(&arr, "device"), shown);
	assert_string_equal(last_field(&arr, "reason"), reason);
	json_decref(arr);
	snprintf(line, sizeof(line), "<6>event %ju: manual lab:%s gro-flush-timeout napi-3: %s\n",
		 (uintmax_t)act_event_count(), shown, reason);
	assert_non_null(strstr(log_text(), line));
}

static void test_device_name_shown_once(void **state)
{
	(void)state;
	check_once("q\"\\", "q\"\\\\");
	check_once("ve\xff" "0", "ve\\xff0");
}

/* a SIGHUP rejection quoting jansson's words: the backslash doubled once, nothing raw */
static void test_reason_shown_once(void **state)
{
	static const char raw[] = "x.json:1:10: invalid escape near '\"a\\q'";
	static const char shown[] = "x.json:1:10: invalid escape near '\"a\\\\q'";
	char want[256], line[256];
	json_t *arr;

	(void)state;
	capture_log(true);
	act_event(NULL, NULL, NULL, NULL, -1, NULL, NULL, WHO_ERROR, "policy reload (SIGHUP) "
		  "rejected, 'observe' stays in force: %s", raw);
	capture_log(false);
	snprintf(want, sizeof(want), "policy reload (SIGHUP) rejected, 'observe' stays in force: "
		 "%s", shown);
	assert_string_equal(last_field(&arr, "reason"), want);
	json_decref(arr);
	assert_non_null(strstr(log_text(), want));
	assert_null(strstr(log_text(), raw));
	/* no device, knob or instance: no gap before the colon */
	snprintf(line, sizeof(line), "<6>event %ju: error: policy reload",
		 (uintmax_t)act_event_count());
	assert_non_null(strstr(log_text(), line));
}

/* a device-wide knob (no instance) and a device event with no knob: no gaps either */
static void test_log_line_gaps(void **state)
{
	char line[256];
	uint64_t o = 0, n = 8;

	(void)state;
	capture_log(true);
	act_event("lab", "va", "rx-usecs", "", -1, &o, &n, WHO_MANUAL, "set");
	act_event("", "vb", NULL, NULL, -1, NULL, NULL, WHO_DAEMON, "gone");
	capture_log(false);
	snprintf(line, sizeof(line), "<6>event %ju: manual lab:va rx-usecs: set\n"
		 "<6>event %ju: daemon vb: gone\n", (uintmax_t)act_event_count() - 1,
		 (uintmax_t)act_event_count());
	assert_non_null(strstr(log_text(), line));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_name_shown_once),
		cmocka_unit_test(test_reason_shown_once),
		cmocka_unit_test(test_log_line_gaps),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
