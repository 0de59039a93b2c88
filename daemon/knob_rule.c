// SPDX-License-Identifier: GPL-2.0-only
/*
 * knob_rule: the range and driver-rule check every value passes before the kernel sees it
 * (knob.h knob_check(), knob_fit()), apart from the table so knob.c stays one screenful
 * per provider.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "knob.h"

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* The greatest power of two <= @v; 0 for 0. */
static uint64_t pow2_floor(uint64_t v)
{
	return v ? 1ULL << (63 - __builtin_clzll(v)) : 0;
}

/* The least power of two > @v, or 0 past 2^63. */
static uint64_t pow2_above(uint64_t v)
{
	uint64_t lo = pow2_floor(v);

	return lo ? lo << 1 : 1;
}

int knob_check(const struct knob_inst *ki, uint64_t v, char *err, size_t errlen)
{
	const struct knob_desc *kd = &knob_table[ki->k];

	if (v < ki->min) {
		snprintf(err, errlen, "value: %" PRIu64 " is below the minimum %" PRIu64 " of %s",
			 v, ki->min, kd->name);
		return -ERANGE;
	}
	if (v > ki->max) {
		snprintf(err, errlen, "value: %" PRIu64 " is above the maximum %" PRIu64 " of %s",
			 v, ki->max, kd->name);
		return -ERANGE;
	}
	if (ki->rule == KR_POW2 && !pow2(v)) {
		uint64_t lo = pow2_floor(v), hi = pow2_above(v);
		bool lo_ok = lo && lo >= ki->min, hi_ok = hi && hi <= ki->max;
		char near[64];

		/* the neighbours that also fit the range */
		if (lo_ok && hi_ok)
			snprintf(near, sizeof(near), " (nearest: %" PRIu64 " or %" PRIu64 ")",
				 lo, hi);
		else if (lo_ok || hi_ok)
			snprintf(near, sizeof(near), " (nearest: %" PRIu64 ")", lo_ok ? lo : hi);
		else
			near[0] = '\0';
		snprintf(err, errlen, "value: %" PRIu64 " is not a %s, which %s must be on this "
			 "driver%s", v, knob_rule_name(ki->rule), kd->name, near);
		return -ERANGE;
	}
	return 0;
}

const char *knob_rule_name(enum knob_rule r)
{
	return r == KR_POW2 ? "power of two" : NULL;
}

uint64_t knob_fit(const struct knob_inst *ki, uint64_t v, uint64_t from)
{
	uint64_t f;

	if (ki->rule != KR_POW2 || pow2(v) || v == from)
		return v;
	/* toward @from: down when the step went up, up when it went down */
	f = v > from ? pow2_floor(v) : pow2_above(v);
	if (v > from ? f <= from : f >= from)
		return from;
	return f;
}
