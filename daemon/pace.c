// SPDX-License-Identifier: GPL-2.0-only
/* pace: the sampling tick's interval, stretched while nothing moves (see pace.h). */
#include "pace.h"

void pace_init(struct pace *p, uint32_t base_ms, uint32_t max_ms)
{
	p->base_ms = base_ms;
	p->max_ms = max_ms < base_ms ? base_ms : max_ms;
	p->cur_ms = base_ms;
	p->quiet_ms = 0;
}

uint32_t pace_next(struct pace *p, bool busy)
{
	if (busy) {
		p->cur_ms = p->base_ms;
		p->quiet_ms = 0;
		return p->cur_ms;
	}
	p->quiet_ms += p->cur_ms;
	if (p->cur_ms < p->max_ms &&
	    p->quiet_ms >= (uint64_t)PACE_QUIET_BASE_TICKS * p->base_ms) {
		p->cur_ms = (uint64_t)p->cur_ms * 2 > p->max_ms ? p->max_ms : p->cur_ms * 2;
		p->quiet_ms = 0;
	}
	return p->cur_ms;
}

uint32_t pace_ticks(const struct pace *p)
{
	uint32_t n;

	if (!p->base_ms)
		return 1;
	n = p->cur_ms / p->base_ms;
	return n ? n : 1;
}

bool pace_reset(struct pace *p)
{
	bool changed = p->cur_ms != p->base_ms;

	p->cur_ms = p->base_ms;
	p->quiet_ms = 0;
	return changed;
}

bool pace_moved(const double *prev, const double *now, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		double a = prev[i], b = now[i], hi, lo;

		if (!(a >= 0) || !(b >= 0))	/* also NaN */
			return true;
		hi = a > b ? a : b;
		lo = a > b ? b : a;
		if (hi >= PACE_MOVE_FLOOR && lo < PACE_MOVE_RATIO * hi)
			return true;
	}
	return false;
}
