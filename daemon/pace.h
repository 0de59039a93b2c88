/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pace: the sampling tick's interval, stretched while nothing moves.
 *
 * A tick costs what its reads cost (netlink dumps, sysfs, ethtool: a few ms of a vCPU
 * under emulation), whether or not a controller acts on them. With pacing on
 * (--max-interval above --interval, by default PACE_DEFAULT_FACTOR x --interval), the
 * interval backs off while the ticks are quiet, as chronyd's polling interval does between
 * minpoll and maxpoll, and comes back to the base at the first sign of work:
 *
 * - a tick is busy when it (or the loop since the tick before) recorded an event (a
 *   controller's step, rollback, advice, hold or failed write; an API write; an outside
 *   write to a knob vqtune changed; a policy load; a namespace gone or back), when the
 *   device set changed, or when a controlled device's link flags or operational state
 *   changed, its interval was invalid or a rate moved (pace_moved());
 * - a busy tick puts the interval back to base_ms at once;
 * - after quiet ticks that add up to PACE_QUIET_BASE_TICKS base intervals at the current
 *   interval, the interval doubles, up to max_ms.
 *
 * With base 1 s and max 4 s: 5 quiet ticks of 1 s, 3 of 2 s, then 4 s. max_ms == base_ms
 * turns pacing off. The laws see their ticks and measured intervals as with a longer
 * --interval (rates are per second over the measured interval); their tick-counted
 * windows (cooldown, settle, hold, oscillation, re-probe backoffs) count base intervals
 * (pace_ticks()), so a paced tick of 4 s moves them by 4 and they last the same time paced
 * or not; a step is always followed by base-interval ticks (it is an event).
 */
#ifndef VQ_PACE_H
#define VQ_PACE_H

#include <stdbool.h>
#include <stdint.h>

/* --max-interval when none is given: this many --interval (at most the daemon's 60 s) */
#define PACE_DEFAULT_FACTOR	4
/* quiet time, in base intervals, after which the interval doubles */
#define PACE_QUIET_BASE_TICKS	5
/* pace_moved(): a rate moved when the lower of two readings is below this share of the
 * higher (a change by half of the lower, either way) */
#define PACE_MOVE_RATIO		(2.0 / 3.0)
/* pace_moved(): rates whose higher reading is under this (per second) never move: an idle
 * device's few packets of background are no work */
#define PACE_MOVE_FLOOR		100.0

struct pace {
	uint32_t base_ms;	/* --interval */
	uint32_t max_ms;	/* --max-interval, >= base_ms */
	uint32_t cur_ms;	/* interval now in force */
	uint64_t quiet_ms;	/* quiet time at cur_ms so far */
};

/* Start at @base_ms (1..); @max_ms below @base_ms is taken as @base_ms (pacing off). */
void pace_init(struct pace *p, uint32_t base_ms, uint32_t max_ms);

/* The verdict on one tick run at p->cur_ms: returns the interval of the next tick (ms). */
uint32_t pace_next(struct pace *p, bool busy);

/*
 * The base intervals the interval in force stands for: p->cur_ms / p->base_ms, rounded
 * down, at least 1 (a --max-interval that is no multiple of --interval ends on a step that
 * is not a doubling: 2500 ms at a 1000 ms base counts 2, so a window never ends sooner
 * than its time). The control stage counts its windows in these (decide_tick()), so a
 * paced tick moves them by the time it spans.
 */
uint32_t pace_ticks(const struct pace *p);

/* Back to the base interval now (busy outside a tick: an API write, a SIGHUP reload).
 * Returns whether the interval changed (the caller re-arms its timer). */
bool pace_reset(struct pace *p);

/*
 * Whether the rates of one device moved between two ticks: @n rates per second (the
 * daemon passes packets, bytes, drops and errors each way; any order as long as both
 * arrays agree), @prev of the tick before, @now of this one. A rate moved when the higher of its two readings is at least
 * PACE_MOVE_FLOOR and the lower is under PACE_MOVE_RATIO of it. Negative or NaN readings
 * (unknown) count as moved: nothing can be said of them.
 */
bool pace_moved(const double *prev, const double *now, unsigned int n);

#endif
