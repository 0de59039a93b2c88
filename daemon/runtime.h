/* SPDX-License-Identifier: GPL-2.0-only */
/* runtime: the daemon loop's own counters, kept by main.c and shown by the API. */
#ifndef VQ_RUNTIME_H
#define VQ_RUNTIME_H

#include <stdint.h>
#include <time.h>

#include "util.h"

/*
 * The parts of a tick, each timed on CLOCK_MONOTONIC (the loop is one thread, so its wall
 * time is its CPU time plus whatever the scheduler takes from it) and shown on /metrics as
 * vqtune_tick_part_seconds_total{part} and in /v1/status tick_parts_ns (tick_part_name()).
 */
enum tick_part {
	TP_LINKS,		/* RTM_GETLINK dumps (the refresh, or counters without GETSTATS) */
	TP_STATS,		/* RTM_GETSTATS dumps: device counters */
	TP_QUEUES,		/* sysfs queues/ probes: queue counts */
	TP_NETDEV,		/* netdev genl qstats, napi and queue dumps */
	TP_QDISC,		/* RTM_GETQDISC dumps */
	TP_BQL,			/* byte_queue_limits reads */
	TP_ETHTOOL,		/* ethtool coalesce/rings/channels gets, device NAPI sysfs */
	TP_ETHTOOL_STATS,	/* ethtool -S per-queue counters (SIOCETHTOOL) */
	TP_VQPAIR,		/* the vqpair family's dumps */
	TP_OUTSIDE,		/* the outside-writer check of managed devices */
	TP_CONTROL,		/* the controllers' decisions (their writes apart) */
	TP_WRITES,		/* the controllers' knob writes (act_set(): read, journal, write,
				 * read back, journal) */
	TP_NUM
};

struct runtime {
	uint64_t start_ns;		/* CLOCK_MONOTONIC at start */
	uint64_t tick_ns;		/* tick interval now (paced: tick_base_ns..tick_max_ns) */
	uint64_t tick_base_ns;		/* --interval */
	uint64_t tick_max_ns;		/* --max-interval */
	uint64_t ticks;			/* ticks run */
	uint64_t missed_ticks;		/* timer expirations that found the loop still busy */
	uint64_t tick_cpu_ns;		/* CPU time spent in sampling, summed */
	uint64_t tick_wall_ns;		/* wall time of the ticks, summed */
	uint64_t part_ns[TP_NUM];	/* wall time of each part of the ticks, summed */
	uint64_t sched_slice_ns;	/* slice in force (sched_getattr), 0: none per task */
};

extern struct runtime runtime;

/* The part's name, as /metrics and /v1/status give it ("netdev", "rtnl-stats", ...);
 * NULL out of range. */
const char *tick_part_name(enum tick_part tp);

/* Charge the time since *@t (CLOCK_MONOTONIC ns) to @part; *@t becomes now. */
static inline void runtime_lap(uint64_t *t, enum tick_part part)
{
	uint64_t now = util_now_ns(CLOCK_MONOTONIC);

	runtime.part_ns[part] += now - *t;
	*t = now;
}

/*
 * runtime_lap() for a stretch that holds another part, @inner, which was at @inner_before
 * when the stretch began: @part is charged the stretch less what @inner gained in it (the
 * inner laps run inside the stretch, on the same clock, so the difference never wraps).
 */
static inline void runtime_lap_outer(uint64_t *t, enum tick_part part, enum tick_part inner,
				     uint64_t inner_before)
{
	uint64_t now = util_now_ns(CLOCK_MONOTONIC);

	runtime.part_ns[part] += now - *t - (runtime.part_ns[inner] - inner_before);
	*t = now;
}

#endif
