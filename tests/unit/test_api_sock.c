// SPDX-License-Identifier: GPL-2.0-only
/*
 * api_sock: the unix listener's backlog. Nothing accepts here, as when the daemon's loop is
 * busy or every MHD slot is taken: a burst of non-blocking connects must all be queued, up
 * to what the kernel allows (net.core.somaxconn caps any listen(2) backlog; a unix socket
 * queues one more than its backlog). A backlog of 128 let 129 of 400 in.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "api_sock.h"

/* the burst a user reported losing a quarter of at connect */
#define BURST_CONNS		400
#define SOMAXCONN_PATH		"/proc/sys/net/core/somaxconn"

static long somaxconn(void)
{
	FILE *f = fopen(SOMAXCONN_PATH, "r");
	long v = -1;

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld", &v), 1);
	fclose(f);
	return v;
}

static void test_burst_queues(void **state)
{
	char dir[] = "/tmp/vqtest-sock.XXXXXX", path[sizeof(dir) + 8];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fds[BURST_CONNS], lfd, i, ok = 0;
	long want = somaxconn() + 1;

	(void)state;
	if (want > BURST_CONNS)
		want = BURST_CONNS;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s.sock", dir);
	lfd = api_sock_listen_unix(path, 0600);
	assert_true(lfd >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	for (i = 0; i < BURST_CONNS; i++) {
		fds[i] = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		assert_true(fds[i] >= 0);
		if (!connect(fds[i], (struct sockaddr *)&sa, sizeof(sa)))
			ok++;
		else
			assert_int_equal(errno, EAGAIN);	/* the queue was full */
	}
	assert_int_equal(ok, want);
	for (i = 0; i < BURST_CONNS; i++)
		close(fds[i]);
	close(lfd);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst_queues),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
