// SPDX-License-Identifier: GPL-2.0-only
/*
 * decide_view: the control stage's state as views read it (decide.h): the "controller"
 * object of a queue, and per unit and law the steps, objective and last decision.
 */
#include <math.h>

#include "decide.h"
#include "decide_priv.h"
#include "dev.h"

static json_t *law_json(const struct ctl_unit *u, enum policy_ctl law)
{
	const struct ctl_last *l = &u->last[law];
	json_t *o;

	if (!l->tick)
		return json_null();
	o = json_pack("{s:s, s:I, s:s}", "decision", decide_decision_name(l->dd),
		      "tick", (json_int_t)l->tick, "reason", l->reason);
	if (l->knob < LK_NUM) {
		json_object_set_new(o, "knob", json_string(decide_knob_name(l->knob)));
		json_object_set_new(o, "old", json_integer(l->old_value));
		json_object_set_new(o, "new", json_integer(l->new_value));
	}
	json_object_set_new(o, "objective", law_known(l->cost) && isfinite(l->cost) ?
			    json_real(l->cost) : json_null());
	json_object_set_new(o, "last_event", l->event_id ? json_integer(l->event_id) :
			    json_null());
	return o;
}

json_t *decide_queue_json(const struct device *d, unsigned int q, bool tx)
{
	const struct ctl_dev *c = d->ctl;
	json_t *o = json_pack("{s:s}", "state", decide_state(d)), *laws_o = json_object();
	const struct ctl_unit *u = c && q < c->n && c->gen == d->gen ? &c->u[q] : NULL;
	uint64_t ev = 0;
	int law;

	for (law = 0; law < POLICY_CTL_NUM; law++) {
		if ((law == POLICY_CTL_POLLING) == tx)
			continue;
		json_object_set_new(laws_o, decide_law_name(law), u ? law_json(u, law) :
				    json_null());
		if (u && u->last[law].event_id > ev)
			ev = u->last[law].event_id;
	}
	json_object_set_new(o, "laws", laws_o);
	json_object_set_new(o, "last_event", ev ? json_integer(ev) : json_null());
	return o;
}

unsigned int decide_units(const struct device *d)
{
	return d->ctl && d->ctl->gen == d->gen ? d->ctl->n : 0;
}

bool decide_unit_law(const struct device *d, unsigned int q, enum policy_ctl law,
		     uint64_t *steps, double *objective, enum decide_decision *last)
{
	const struct ctl_last *l;

	if (q >= decide_units(d) || law >= POLICY_CTL_NUM)
		return false;
	l = &d->ctl->u[q].last[law];
	if (!l->tick)
		return false;
	*steps = l->steps;
	*objective = l->cost;
	*last = l->dd;
	return true;
}
