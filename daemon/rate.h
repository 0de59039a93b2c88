/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rate: kernel counters -> per-second rates.
 *
 * A counter is u64 in the kernel (rtnl_link_stats64, netdev qstats, ethtool -S), so it
 * never wraps in practice: 2^64 bytes at 400 Gbit/s is ~11 years. A reading lower than the
 * last one is therefore a reset (driver reload, queue reconfiguration, which restarts
 * qstats), never a wrap. A change of the device's queue generation (queue counts changed)
 * also breaks the series. No rate is computed across either: the interval is invalid and
 * the controllers ignore it.
 */
#ifndef VQ_RATE_H
#define VQ_RATE_H

#include <stdbool.h>
#include <stdint.h>

struct rate_ctr {
	uint64_t val;		/* last raw reading */
	uint32_t gen;		/* generation of that reading */
	bool have;		/* a reading is held */
};

enum rate_status {
	RATE_OK,		/* *per_s holds the rate over the interval */
	RATE_FIRST,		/* first reading: nothing to compare with */
	RATE_RESET,		/* counter went down: reset */
	RATE_NEWGEN,		/* generation changed since the last reading */
	RATE_NOTIME,		/* dt_ns == 0: no time passed */
};

/*
 * Feed reading @v taken in generation @gen, @dt_ns after the previous reading.
 * Returns the status; sets *per_s (units per second) only on RATE_OK, else to 0.
 * The reading is always kept as the new reference.
 */
enum rate_status rate_feed(struct rate_ctr *c, uint64_t v, uint32_t gen, uint64_t dt_ns,
			   double *per_s);
/* Forget the reference (the next reading is RATE_FIRST). */
void rate_forget(struct rate_ctr *c);

#endif
