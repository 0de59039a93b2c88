// SPDX-License-Identifier: GPL-2.0-only
/* view_act: the API routes that change something (docs/api.md). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "act.h"
#include "apierr.h"
#include "dev.h"
#include "knob.h"
#include "netns.h"
#include "policy.h"
#include "reqval.h"
#include "util.h"
#include "view.h"
#include "vqp.h"
#include "vqtune_api.h"

/* A request's reason as it appears in events. */
#define REASON_MAX	192

/* 0 when @d (named @sel in the request) may be written, else 403 read_only with why. */
static int dev_writable(const char *sel, struct device **d, json_t **out)
{
	/* sample.c never manages a loopback device, whatever --manage names */
	if (!(*d)->managed && ((*d)->flags & IFF_LOOPBACK)) {
		/* "reason" lets vqtunectl say so without guessing from the name ("lo") */
		*out = apierr_reason(apierr_new(VQ_ERR_READ_ONLY, "dev", "device '%s' is a loopback "
						"device: observed read-only, never written "
						"(--manage does not apply)", sel),
				     VQ_ERR_REASON_LOOPBACK);
		return 403;
	}
	if (!(*d)->managed) {
		*out = apierr_reason(apierr_new(VQ_ERR_READ_ONLY, "dev", "device '%s' is observed "
						"read-only (not managed: see --manage)", sel),
				     VQ_ERR_REASON_NOT_MANAGED);
		return 403;
	}
	return 0;
}

static int writable_dev(const char *sel, struct device **d, json_t **out)
{
	int st = view_dev_find(sel, d, out);

	return st ? st : dev_writable(sel, d, out);
}

/*
 * The device @sel and knob @name of a write: 404 for a device or knob that does not exist,
 * then 403 for a read-only device, so a misspelt knob is named even on a device that
 * would refuse it anyway ("no knob named 'nosuch'", not only "eth0 is read-only").
 */
static int writable_dev_knob(const char *sel, const char *name, struct device **d, int *k,
			     json_t **out)
{
	int st = view_dev_find(sel, d, out);

	if (st)
		return st;
	*k = knob_by_name(name);
	if (*k < 0) {
		*out = apierr_new(VQ_ERR_NOT_FOUND, "knob", "no knob named '%s'", name);
		return 404;
	}
	return dev_writable(sel, d, out);
}

/* Instances selected by an optional queue/napi_id; returns how many went into @sel. */
static unsigned int select_insts(const struct device *d, enum knob_id k, int64_t queue,
				 int64_t napi_id, struct knob_inst *sel, unsigned int max)
{
	static struct knob_inst all[DEV_MAX_QUEUES];
	unsigned int n, i, m = 0;

	n = knob_instances(d, k, all, DEV_MAX_QUEUES);
	for (i = 0; i < n && i < DEV_MAX_QUEUES && m < max; i++) {
		if (queue >= 0 && all[i].queue != queue)
			continue;
		if (napi_id >= 0 && all[i].napi_id != napi_id)
			continue;
		sel[m++] = all[i];
	}
	return m;
}

/* Instance names shown in a "no instance on queue N" error: enough to pick the right one. */
#define HINT_INSTANCES	4

/* Are all of @n NAPI instances without a queue (the driver links no NAPI to a queue)? */
static bool napis_unlinked(const struct knob_inst *some, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n && i < HINT_INSTANCES; i++)
		if (some[i].scope != KS_NAPI || some[i].queue >= 0)
			return false;
	return n > 0;
}

/*
 * 422 when @d lacks knob @k altogether, else 404 naming queue @q, with what exists instead:
 * "a device-wide knob", or the first few instance names. NAPI instances of a driver that
 * does not tie its NAPIs to queues (veth: netdev netlink gives no queue -> NAPI link) have
 * no queue at all: the message says so and how to address them instead: by napi_id, or for
 * a release (@release true) also every instance at once.
 */
static int no_instance(const struct device *d, enum knob_id k, long q, bool release,
		       json_t **out)
{
	static struct knob_inst some[HINT_INSTANCES];
	char hint[HINT_INSTANCES * sizeof(some[0].inst) + 32] = "";
	unsigned int n, i;
	size_t len = 0;

	n = knob_instances(d, k, some, HINT_INSTANCES);
	if (!n && vqp_front_name(d)) {
		/* the backend end has no knobs of its own: say where they are */
		*out = apierr_new(VQ_ERR_UNSUPPORTED, "knob", "%s: %s is the back end of a vqpair; "
				  "its knobs are set on the front, %s", knob_table[k].name, d->name,
				  vqp_front_name(d));
		return 422;
	}
	if (!n) {
		*out = apierr_new(VQ_ERR_UNSUPPORTED, "knob",
				  "%s is not supported by this device or kernel", knob_table[k].name);
		return 422;
	}
	if (some[0].scope == KS_DEVICE) {
		snprintf(hint, sizeof(hint), " (a device-wide knob: leave out the queue)");
	} else {
		len = (size_t)snprintf(hint, sizeof(hint), " (its instances:");
		for (i = 0; i < n && i < HINT_INSTANCES && len < sizeof(hint); i++)
			len += (size_t)snprintf(hint + len, sizeof(hint) - len, " %s", some[i].inst);
		if (len < sizeof(hint))
			snprintf(hint + len, sizeof(hint) - len, "%s)", n > HINT_INSTANCES ? " ..." : "");
	}
	if (napis_unlinked(some, n)) {
		*out = apierr_new(VQ_ERR_NOT_FOUND, "queue", "%s has no %s instance on queue %ld%s: "
				  "the device's NAPIs are not linked to queues, %s", d->name,
				  knob_table[k].name, q, hint, release ?
				  "address one by its napi_id (?napi_id=N, vqtunectl release "
				  "--napi-id N) or leave out the queue to release every instance" :
				  "address one by its napi_id (\"napi_id\":N in the body, "
				  "vqtunectl set --napi-id N)");
		return 404;
	}
	*out = apierr_new(VQ_ERR_NOT_FOUND, "queue", "%s has no %s instance on queue %ld%s",
			  d->name, knob_table[k].name, q, hint);
	return 404;
}

/*
 * 404 for a queue and a napi_id that each name instances of knob @k but not the same one:
 * the napi_id is the field at fault (the queue alone would select @sel's @n instances), and
 * the message names what is on the queue, with its NAPI when it has one.
 */
static int napi_not_on_queue(const struct device *d, enum knob_id k, long q, int64_t napi,
			     const struct knob_inst *sel, unsigned int n, json_t **out)
{
	char on[HINT_INSTANCES * (sizeof(sel[0].inst) + 24) + 8] = "";
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < n && i < HINT_INSTANCES && len < sizeof(on); i++)
		len += (size_t)snprintf(on + len, sizeof(on) - len, sel[i].napi_id > 0 ?
					"%s%s (napi_id %u)" : "%s%s (a TX queue's, no NAPI)", i ? ", " : "",
					sel[i].inst, (unsigned int)sel[i].napi_id);
	*out = apierr_new(VQ_ERR_NOT_FOUND, "napi_id", "napi_id %" PRId64 " does not serve "
			  "queue %ld: %s's %s on queue %ld is %s", napi, q, d->name,
			  knob_table[k].name, q, on);
	return 404;
}

/*
 * The failure @err of a set whose earlier instances were written (@changes, as the reply
 * would have listed them): say which, so the failure is not taken for "nothing changed".
 * They stay written and pinned, and a restore puts them back.
 */
static void partial_note(const json_t *changes, char *err, size_t errlen)
{
	size_t n = json_array_size(changes), i, len = strlen(err);
	const json_t *c;

	for (i = 0; i < n && len < errlen; i++) {
		c = json_array_get(changes, i);
		len += (size_t)snprintf(err + len, errlen - len, "%s %s %" JSON_INTEGER_FORMAT
					" -> %" JSON_INTEGER_FORMAT, i ? "," : "; written before "
					"it (pinned, restorable):",
					json_string_value(json_object_get(c, "instance")),
					json_integer_value(json_object_get(c, "old")),
					json_integer_value(json_object_get(c, "new")));
	}
}

int view_knob_set(const char *dev, const char *knob, json_t *body, json_t **out)
{
	static const char *const fields[] = { "value", "queue", "napi_id", "disruptive", NULL };
	static struct knob_inst sel[DEV_MAX_QUEUES];
	char err[512], reason[REASON_MAX];
	uint64_t value, q = 0, napi = 0, oldv, newv;
	int64_t queue = -1, napi_id = -1;
	int disruptive = 0, k, st;
	unsigned int n, i;
	struct device *d;
	json_t *changes;

	st = writable_dev_knob(dev, knob, &d, &k, out);
	if (st)
		return st;
	if ((st = rv_only_fields(body, fields, out)))
		return st;
	if ((st = rv_uint(body, "value", 1, 0, UINT64_MAX, &value, out)))
		return st;
	st = rv_uint(body, "queue", 0, 0, DEV_MAX_QUEUES - 1, &q, out);
	if (st > 1)
		return st;
	queue = st ? -1 : (int64_t)q;
	st = rv_uint(body, "napi_id", 0, 1, UINT32_MAX, &napi, out);
	if (st > 1)
		return st;
	napi_id = st ? -1 : (int64_t)napi;
	st = rv_bool(body, "disruptive", &disruptive, out);
	if (st > 1)
		return st;

	n = select_insts(d, k, queue, napi_id, sel, DEV_MAX_QUEUES);
	if (!n) {
		if (queue >= 0 && napi_id >= 0 &&
		    (n = select_insts(d, k, queue, -1, sel, DEV_MAX_QUEUES)))
			return napi_not_on_queue(d, k, queue, napi_id, sel, n, out);
		if (queue >= 0 || !knob_instances(d, k, sel, 0))
			return no_instance(d, k, queue, false, out);
		*out = apierr_new(VQ_ERR_NOT_FOUND, "napi_id", "napi_id %" PRId64 ": %s has no "
				  "instance on that NAPI", napi_id, knob);
		return 404;
	}
	/* a knob the driver cannot set, or has not, is refused before the consent it needs */
	if (!knob_writable(d, &sel[0], err, sizeof(err))) {
		*out = apierr_new(VQ_ERR_UNSUPPORTED, "knob", "%s is not writable on %s: %s",
				  knob, d->name, err);
		return 422;
	}
	/* consent is asked only for a knob this device has where the request points */
	if (knob_table[k].disruptive && !disruptive) {
		*out = apierr_new(VQ_ERR_CONFLICT, "disruptive",
				  "%s may reset the device's queues: send \"disruptive\":true to accept",
				  knob);
		return 409;
	}
	/* all instances are range-checked before the kernel sees any value */
	for (i = 0; i < n; i++) {
		if (knob_check(&sel[i], value, err, sizeof(err))) {
			*out = apierr_new(VQ_ERR_OUT_OF_RANGE, "value", "%s", err);
			return 422;
		}
	}
	/* raw: the event shows its reason in display form, as apierr_new() does a message */
	snprintf(reason, sizeof(reason), "manual set of %s on %s%s%s", knob, d->ns->name,
		 d->ns->name[0] ? ":" : "", d->name);
	changes = json_array();
	for (i = 0; i < n; i++) {
		st = act_set(d, &sel[i], value, WHO_MANUAL, true, reason, &oldv, &newv, err,
			     sizeof(err));
		if (st != ACT_OK) {
			if (!err[0])
				snprintf(err, sizeof(err), "out of memory");
			partial_note(changes, err, sizeof(err));
		}
		switch (st) {
		case ACT_OK:
			break;
		case ACT_ERANGE:
			json_decref(changes);
			*out = apierr_new(VQ_ERR_OUT_OF_RANGE, "value", "%s", err);
			return 422;
		case ACT_EKERNEL:
		case ACT_EREAD:
			json_decref(changes);
			/* knob_write()/the read name the device, knob and instance themselves */
			*out = apierr_new(VQ_ERR_KERNEL, NULL, "%s", err);
			return 502;
		default:	/* the journal or memory: ours, not the kernel's */
			json_decref(changes);
			*out = apierr_new(VQ_ERR_INTERNAL, NULL, "%s %s: %s", knob, sel[i].inst, err);
			return 500;
		}
		json_array_append_new(changes, json_pack("{s:s, s:s, s:I, s:I}", "knob", knob,
							 "instance", sel[i].inst,
							 "old", (json_int_t)oldv,
							 "new", (json_int_t)newv));
	}
	*out = json_pack("{s:o}", "changes", changes);
	return 200;
}

int view_knob_release(const char *dev, const char *knob, const char *queue,
		      const char *napi_id, json_t **out)
{
	static struct knob_inst sel[DEV_MAX_QUEUES];
	struct device *d;
	unsigned int n, i;
	int k, st, released = 0;
	int64_t napi = -1;
	long q = -1;
	uint64_t v;

	st = writable_dev_knob(dev, knob, &d, &k, out);
	if (st)
		return st;
	if (queue) {
		/* out of range is 422 out_of_range as "queue" in a PUT body is, not 400 */
		st = rv_query_uint("queue", queue, 0, DEV_MAX_QUEUES - 1, &v, out);
		if (st)
			return st;
		q = (long)v;
	}
	if (napi_id) {
		/* the range of "napi_id" in a PUT body: netdev netlink's u32, 0 is no NAPI */
		st = rv_query_uint("napi_id", napi_id, 1, UINT32_MAX, &v, out);
		if (st)
			return st;
		napi = (int64_t)v;
	}
	if (napi >= 0) {
		n = select_insts(d, k, q, napi, sel, DEV_MAX_QUEUES);
		/* as for a set: a queue without instances names the queue, else the NAPI */
		if (!n && q >= 0 && (n = select_insts(d, k, q, -1, sel, DEV_MAX_QUEUES)))
			return napi_not_on_queue(d, k, q, napi, sel, n, out);
		if (!n && (q >= 0 || !knob_instances(d, k, sel, 0)))
			return no_instance(d, k, q, true, out);
		if (!n) {
			*out = apierr_new(VQ_ERR_NOT_FOUND, "napi_id", "napi_id %" PRId64 ": %s has "
					  "no instance on that NAPI", napi, knob);
			return 404;
		}
		for (i = 0; i < n; i++)
			released += act_release(d, k, sel[i].inst);
	} else if (q < 0) {
		released = act_release(d, k, NULL);
		/* nothing to release and no such knob here: say so, as a set would */
		if (!released && !knob_instances(d, k, sel, 0))
			return no_instance(d, k, -1, true, out);
	} else {
		n = select_insts(d, k, q, -1, sel, DEV_MAX_QUEUES);
		/* as for a set: a queue the knob has no instance on is an error, not "0 released" */
		if (!n)
			return no_instance(d, k, q, true, out);
		for (i = 0; i < n; i++)
			released += act_release(d, k, sel[i].inst);
	}
	*out = json_pack("{s:i}", "released", released);
	return 200;
}

int view_pause(const char *dev, int pause, json_t **out)
{
	struct device *d;
	int st;

	st = writable_dev(dev, &d, out);
	if (st)
		return st;
	if (vqp_front_name(d)) {
		/* as a set of one of its knobs: the pair is controlled through its front */
		*out = apierr_new(VQ_ERR_UNSUPPORTED, "dev", "%s: %s is the back end of a vqpair; "
				  "its controllers are %s on the front, %s", pause ? "pause" : "resume",
				  d->name, pause ? "paused" : "resumed", vqp_front_name(d));
		return 422;
	}
	if (d->paused != !!pause) {
		d->paused = pause;
		act_event(ACT_DEV(d), NULL, NULL, -1, NULL, NULL, WHO_MANUAL, "controllers %s",
			  pause ? "paused" : "resumed");
	}
	*out = json_pack("{s:o, s:b}", "device", util_json_str(d->name), "paused", d->paused);
	return 200;
}

int view_policy_get(json_t **out)
{
	*out = json_pack("{s:o}", "policy", policy_json());
	return 200;
}

int view_policy_put(json_t *body, const char *text, size_t len, json_t **out)
{
	struct policy p;
	char *diff;
	int st = policy_parse(body, text, len, &p, out);

	if (st)
		return st;
	diff = policy_diff(policy_get(), &p);
	policy_set(&p);
	act_event(NULL, NULL, NULL, NULL, -1, NULL, NULL, WHO_MANUAL, "policy '%s' installed, "
		  "mode %s; %s", p.name, p.mode, diff ? diff : "changes unknown (out of memory)");
	free(diff);
	return view_policy_get(out);
}

int view_events(uint64_t since, unsigned int limit, json_t **out)
{
	uint64_t next;
	json_t *arr = act_events_json(since, limit, &next);

	*out = json_pack("{s:o, s:I}", "events", arr, "next", (json_int_t)next);
	return 200;
}

int view_restore(json_t **out)
{
	json_t *failed = json_array();
	unsigned int settled;
	int n = act_restore_all(failed, &settled);

	*out = json_pack("{s:i, s:I, s:o}", "restored", n, "nothing_owed", (json_int_t)settled,
			 "failed", failed);
	return 200;
}
