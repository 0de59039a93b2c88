// SPDX-License-Identifier: GPL-2.0-only
/*
 * vqslice: the daemon's scheduler-slice request (daemon/slice.c) applied to another thread,
 * for the same-pair bench (tests/vm/guest/bench_rrpair.sh), which switches a running
 * vqtuned between its own slice and the kernel's without restarting it.
 *
 *   vqslice PID        print "slice_ns=N": the slice in force (sched_getattr(2)
 *                      sched_runtime; 0 where the kernel keeps none per task)
 *   vqslice PID US     ask for US (100..100000 us), then print the slice in force
 *   vqslice PID 0      back to the kernel's slice (sched_runtime 0), then print it
 *
 * Exit 0 on success; 1 with "error: ..." on stderr; 2 on bad arguments.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slice.h"

/* digits only, no leading zero, @lo..@hi; -1 otherwise */
static long arg_num(const char *s, long lo, long hi)
{
	char *end;
	long v;

	if (!*s || s[strspn(s, "0123456789")] || (s[0] == '0' && s[1]))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno || *end || v < lo || v > hi ? -1 : v;
}

int main(int argc, char **argv)
{
	long pid, us = 0;
	int64_t ns;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: vqslice PID [0|US]   (US: %d..%d)\n", SLICE_MIN_US,
			SLICE_MAX_US);
		return 2;
	}
	pid = arg_num(argv[1], 1, 4194304);
	if (pid < 0) {
		fprintf(stderr, "vqslice: PID: '%s' is not a thread id (1..4194304)\n", argv[1]);
		return 2;
	}
	if (argc == 3 && strcmp(argv[2], "0") &&
	    (us = arg_num(argv[2], SLICE_MIN_US, SLICE_MAX_US)) < 0) {
		fprintf(stderr, "vqslice: US: '%s' is not 0 (the kernel's) or %d..%d us, digits "
			"without a leading zero\n", argv[2], SLICE_MIN_US, SLICE_MAX_US);
		return 2;
	}
	/* slice_set() with 0 only reads; both writes check the thread's policy */
	ns = argc == 3 && !us ? slice_reset((pid_t)pid) : slice_set((pid_t)pid, (uint32_t)us);
	if (ns < 0) {
		fprintf(stderr, "error: %s\n", ns == -EOPNOTSUPP ?
			"not a SCHED_OTHER or SCHED_BATCH thread" : strerror((int)-ns));
		return 1;
	}
	printf("slice_ns=%" PRId64 "\n", ns);
	return 0;
}
