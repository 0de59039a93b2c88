/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * slice: the daemon's CPU scheduling slice.
 *
 * Each tick's sampling runs a few ms of CPU in one burst (under emulation; far less on
 * hardware). Under EEVDF (Linux 6.6+) a task the scheduler has picked keeps the CPU for its
 * slice (RUN_TO_PARITY, the base slice: 0.7-3 ms) before a task woken on that CPU may take
 * it, so a request/response workload sharing a CPU with a tick waits up to a base slice on
 * each wake-up during the burst. Measured in the live-traffic guest (docs/bench.md "What rr
 * pays for a running daemon"), on one pair against the same daemon stopped: the running
 * daemon's 1 s tick moved sockperf ping-pong's p99.9 up by about half and its p99 by 1-13%;
 * a 100 us slice (--sched-slice 100; off by default, below) halved the p99.9 excess.
 *
 * Since Linux 6.12 a fair task may ask for its own slice, sched_attr.sched_runtime in
 * sched_setattr(2), clamped to 0.1..100 ms (kernel commit 857b158dc5e8, "sched/eevdf: Use
 * sched_attr::sched_runtime to set request/slice suggestion";
 * Documentation/scheduler/sched-eevdf.rst). A short slice bounds how long the daemon holds
 * a CPU a waking task wants (and, its virtual deadlines being earlier, gets its own tick
 * started sooner), and leaves its weight (nice value, CPU share under load) alone, unlike
 * SCHED_IDLE, whose weight (3 against 1024) would starve the ticks exactly when the queues
 * are busy. Kernels before 6.12 take the call and ignore the slice; the read-back tells.
 */
#ifndef VQ_SLICE_H
#define VQ_SLICE_H

#include <stdint.h>
#include <sys/types.h>

/*
 * the slice asked for by default, us: none (no sched_setattr call at all). 100 us (the
 * kernel's lower clamp) is what the bench measured; it ships off because with it as the
 * default a 7.x TCG guest of the VM tier stalled once in t_control (vqtuned active beside
 * traffic), which no run without it had done; not reproduced or explained yet
 */
#define SLICE_DEFAULT_US	0
/* the kernel's clamp of sched_runtime for fair tasks, us */
#define SLICE_MIN_US	100
#define SLICE_MAX_US	100000

/*
 * Ask for a scheduler slice of @us (SLICE_MIN_US..SLICE_MAX_US) for the thread @tid (0: the
 * calling thread), keeping its policy, nice value and reset-on-fork flag; @us 0 asks for
 * nothing and only reads.
 * Only SCHED_OTHER and SCHED_BATCH threads are changed (a real-time or SCHED_IDLE policy an
 * operator set is left as it is).
 * Returns the slice in force afterwards in ns (sched_getattr(2)'s sched_runtime: 0 where the
 * kernel keeps no slice of its own for the thread, before 6.12), or a negative errno:
 * -EPERM (a seccomp filter or missing privilege), -ENOSYS, -EOPNOTSUPP for a policy left
 * alone. Nothing changes on error.
 */
int64_t slice_set(pid_t tid, uint32_t us);

/*
 * Back to the kernel's own slice for @tid (sched_runtime 0), policy, nice value and
 * reset-on-fork kept; the daemon never calls it (tests/tools/vqslice switches a running
 * daemon between slices). Returns the slice in force, or a negative errno as slice_set().
 */
int64_t slice_reset(pid_t tid);

#endif
