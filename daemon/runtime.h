/* SPDX-License-Identifier: GPL-2.0-only */
/* runtime: the daemon loop's own counters, kept by main.c and shown by the API. */
#ifndef VQ_RUNTIME_H
#define VQ_RUNTIME_H

#include <stdint.h>

struct runtime {
	uint64_t start_ns;		/* CLOCK_MONOTONIC at start */
	uint64_t tick_ns;		/* tick interval now (paced: tick_base_ns..tick_max_ns) */
	uint64_t tick_base_ns;		/* --interval */
	uint64_t tick_max_ns;		/* --max-interval */
	uint64_t ticks;			/* ticks run */
	uint64_t missed_ticks;		/* timer expirations that found the loop still busy */
	uint64_t tick_cpu_ns;		/* CPU time spent in sampling, summed */
	uint64_t sched_slice_ns;	/* slice in force (sched_getattr), 0: none per task */
};

extern struct runtime runtime;

#endif
