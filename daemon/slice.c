// SPDX-License-Identifier: GPL-2.0-only
/* slice: the daemon's CPU scheduling slice; why and its source are in slice.h. */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/sched.h>
#include <linux/sched/types.h>

#include "slice.h"
#include "util.h"

static int attr_get(pid_t tid, struct sched_attr *a)
{
	memset(a, 0, sizeof(*a));
	return syscall(SYS_sched_getattr, tid, a, sizeof(*a), 0) ? -errno : 0;
}

/* sched_runtime @ns (0: the kernel's own slice) for @tid, then the slice in force */
static int64_t slice_write(pid_t tid, uint64_t ns)
{
	struct sched_attr a;
	int err;

	err = attr_get(tid, &a);
	if (err)
		return err;
	if (a.sched_policy != SCHED_NORMAL && a.sched_policy != SCHED_BATCH)
		return -EOPNOTSUPP;
	a.size = sizeof(a);
	/* nice and policy as read; no util-clamp flag: the clamps stay as they are */
	a.sched_flags &= SCHED_FLAG_RESET_ON_FORK;
	a.sched_runtime = ns;
	if (syscall(SYS_sched_setattr, tid, &a, 0))
		return -errno;
	err = attr_get(tid, &a);
	return err ? err : (int64_t)a.sched_runtime;
}

int64_t slice_set(pid_t tid, uint32_t us)
{
	struct sched_attr a;
	int err;

	if (us)
		return slice_write(tid, (uint64_t)us * NSEC_PER_USEC);
	err = attr_get(tid, &a);
	return err ? err : (int64_t)a.sched_runtime;
}

int64_t slice_reset(pid_t tid)
{
	return slice_write(tid, 0);
}
