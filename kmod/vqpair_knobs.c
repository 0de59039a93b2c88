// SPDX-License-Identifier: GPL-2.0
/*
 * vqpair knobs: the table derived from VQPAIR_KNOBS() in include/vqpair.h and the one
 * function that writes them (genl, ethtool -G/-C), which also announces every change.
 */
#include <linux/rtnetlink.h>
#include "vqpair_priv.h"

#define VQP_KNOB_DESC_(id, nm, lo, hi, dflt, unit) \
	[VQPAIR_KNOB_##id] = { .name = nm, .min = lo, .max = hi, .def = dflt },
const struct vqp_knob_desc vqp_knobs[VQP_KNOB_NUM] = {
	VQPAIR_KNOBS(VQP_KNOB_DESC_)
};

#define VQP_QSTAT_NAME_(id, nm) [VQPAIR_QSTAT_##id] = nm,
const char *const vqp_qstat_names[VQP_QSTAT_NUM] = {
	VQPAIR_QSTATS(VQP_QSTAT_NAME_)
};

void vqp_knobs_default(struct vqp_queue *q)
{
	int k;

	for (k = 1; k < VQP_KNOB_NUM; k++)
		q->knob[k] = vqp_knobs[k].def;
}

/**
 * vqp_knob_set() - set one knob on one queue or on every queue of a pair
 * @pair: the pair
 * @queue: queue index, or -1 for every queue
 * @knob: VQPAIR_KNOB_* id
 * @val: new value, within the table's [min, max]
 * @extack: receives the reason of a rejection
 *
 * Caller holds RTNL (writes are serialized; the datapath reads with READ_ONCE).
 * A change is announced on the "events" multicast group with the old value of the first
 * queue written. Return: 0, -EINVAL (unknown knob or queue), -ERANGE (out of range).
 */
int vqp_knob_set(struct vqp_pair *pair, int queue, int knob, u32 val,
		 struct netlink_ext_ack *extack)
{
	int first = queue < 0 ? 0 : queue;
	int last = queue < 0 ? pair->nq - 1 : queue;
	bool changed = false;
	u32 old;
	int i;

	ASSERT_RTNL();
	if (knob <= VQPAIR_KNOB_UNSPEC || knob > VQPAIR_KNOB_MAX) {
		NL_SET_ERR_MSG(extack, "vqpair: unknown knob");
		return -EINVAL;
	}
	if (val < vqp_knobs[knob].min || val > vqp_knobs[knob].max) {
		NL_SET_ERR_MSG(extack, "vqpair: knob value out of range");
		return -ERANGE;
	}
	if (queue >= pair->nq) {
		NL_SET_ERR_MSG(extack, "vqpair: no such queue");
		return -EINVAL;
	}
	old = pair->q[first].knob[knob];
	for (i = first; i <= last; i++) {
		struct vqp_queue *q = &pair->q[i];

		if (q->knob[knob] == val)
			continue;
		changed = true;
		WRITE_ONCE(q->knob[knob], val);
		vqp_knob_applied(q, knob);
	}
	if (changed)
		vqp_genl_notify(pair, queue, knob, old, val);
	return 0;
}
