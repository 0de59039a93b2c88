/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * decide_priv: what the control stage's files share (decide.c: the tick, law dispatch and
 * guard application; decide_view.c: the per-queue controller views). Not a door into
 * decide: everything else includes decide.h.
 */
#ifndef VQ_DECIDE_PRIV_H
#define VQ_DECIDE_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "decide.h"
#include "knob.h"
#include "law.h"
#include "policy.h"

/* one control unit: TX queue q, RX queue q and the NAPI of RX queue q (decide.h) */
struct ctl_unit {
	struct law_state st;
	struct guard_knob g[LK_NUM];
	struct law_signals sig;
	struct knob_inst ki[LK_NUM];
	bool has[LK_NUM];
	struct ctl_last {
		uint64_t tick;
		enum decide_decision dd;
		enum law_knob knob;
		int64_t old_value, new_value;
		double cost;
		char reason[LAW_REASON_MAX];
		uint64_t event_id;		/* last event of this law on this unit, 0: none */
		uint64_t steps;			/* applied + rolled back */
	} last[POLICY_CTL_NUM];
	/* throughput floor: the TX rate before the last qlimit/zerocopy step, judged once */
	struct ctl_floor {
		bool pending;
		enum policy_ctl law;
		enum law_knob knob;
		int64_t old_value, new_value;
		double ref_bytes_per_s;
		uint64_t tick;
	} floor;
	/* dedupe of repeated advised/held decisions */
	struct ctl_rep {
		enum decide_decision dd;
		enum law_knob knob;
		int64_t value;
		char reason[LAW_REASON_MAX];
		uint64_t tick;
	} rep[POLICY_CTL_NUM];
};

struct ctl_dev {
	uint32_t gen;
	uint8_t operstate;
	unsigned int flags;
	bool seen;			/* one tick seen: the next interval is comparable */
	unsigned int n;
	struct ctl_unit u[];		/* n units; one allocation, so dev_del() frees it */
};

/* The knob table's name of law knob @k (< LK_NUM): the name views show. */
const char *decide_knob_name(enum law_knob k);

#endif
