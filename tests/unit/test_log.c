// SPDX-License-Identifier: GPL-2.0-only
/*
 * log: a line carries its sd-daemon(3) priority prefix in a file (the journal, a log file,
 * a pipe) and none on a terminal; levels above the set one are dropped. The terminal is a
 * real pseudo-terminal (posix_openpt(3)) put on fd 2 while the line is written.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "log.h"

/* Runs @fn with fd 2 on @fd, then puts the test's stderr back. */
static void with_stderr(int fd, void (*fn)(void))
{
	int saved;

	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fd, STDERR_FILENO) >= 0);
	fn();
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
}

static void write_lines(void)
{
	log_err("policy %s: bad", "x.json");
	log_warn("api: %d", 4);
	log_info("restored %d knob(s)", 2);
	log_debug("debug: dropped at info");
}

/* Everything readable from @fd now (a file from its start, a pty master without waiting). */
static void slurp(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
}

static void test_file_has_prefix(void **state)
{
	char path[] = "/tmp/vqtune-test-log.XXXXXX", buf[512];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	log_set_level(LOG_LVL_INFO);
	with_stderr(fd, write_lines);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	slurp(fd, buf, sizeof(buf));
	assert_string_equal(buf, "<3>policy x.json: bad\n<4>api: 4\n<6>restored 2 knob(s)\n");
	close(fd);
}

static void test_terminal_has_none(void **state)
{
	char buf[512], *p, *q;
	int m, s, fl;

	(void)state;
	m = posix_openpt(O_RDWR | O_NOCTTY);
	assert_true(m >= 0);
	assert_int_equal(grantpt(m), 0);
	assert_int_equal(unlockpt(m), 0);
	s = open(ptsname(m), O_RDWR | O_NOCTTY);
	assert_true(s >= 0);
	assert_true(isatty(s));
	log_set_level(LOG_LVL_DEBUG);
	with_stderr(s, write_lines);
	log_set_level(LOG_LVL_INFO);
	fl = fcntl(m, F_GETFL);
	assert_int_equal(fcntl(m, F_SETFL, fl | O_NONBLOCK), 0);
	slurp(m, buf, sizeof(buf));
	/* the line discipline turns "\n" into "\r\n" (onlcr): compare without the "\r" */
	for (p = q = buf; *p; p++)
		if (*p != '\r')
			*q++ = *p;
	*q = '\0';
	assert_string_equal(buf, "policy x.json: bad\napi: 4\nrestored 2 knob(s)\n"
			    "debug: dropped at info\n");
	close(s);
	close(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_has_prefix),
		cmocka_unit_test(test_terminal_has_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
