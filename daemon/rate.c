// SPDX-License-Identifier: GPL-2.0-only
#include "rate.h"

#define NS_PER_S	1e9

enum rate_status rate_feed(struct rate_ctr *c, uint64_t v, uint32_t gen, uint64_t dt_ns,
			   double *per_s)
{
	enum rate_status st;

	*per_s = 0;
	if (!c->have)
		st = RATE_FIRST;
	else if (c->gen != gen)
		st = RATE_NEWGEN;
	else if (v < c->val)
		st = RATE_RESET;
	else if (!dt_ns)
		st = RATE_NOTIME;
	else {
		*per_s = (double)(v - c->val) * NS_PER_S / (double)dt_ns;
		st = RATE_OK;
	}
	c->val = v;
	c->gen = gen;
	c->have = true;
	return st;
}

void rate_forget(struct rate_ctr *c)
{
	c->have = false;
}
