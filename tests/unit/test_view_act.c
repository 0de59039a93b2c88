// SPDX-License-Identifier: GPL-2.0-only
/*
 * view_act: the replies of the write routes before anything reaches the journal. Its
 * neighbours (device lookup, knob instances, the journal, the vqpair state) are answered
 * here by hand-built stand-ins, so each case sets up exactly the device it needs:
 * - a queue on a device whose NAPIs are not linked to queues (veth) is 404 saying so and how
 *   to address a NAPI instead; linked NAPIs keep the plain "no instance on queue N" reply;
 * - a queue and a napi_id that each select instances but not the same one are 404 on
 *   "napi_id", naming what the queue has;
 * - a release's ?queue= out of range is 422 out_of_range in the words a PUT body's "queue"
 *   gets, a non-number stays 400 invalid_field;
 * - pause and resume of a vqpair back end are refused as a set on it is (422 unsupported);
 * - an unmanaged device is 403 read_only pointing to --manage, except a loopback device,
 *   which --manage never makes writable; "reason" says which, by IFF_LOOPBACK and never by
 *   the name "lo";
 * - a set's event reason names the device raw (the event shows it in display form once),
 *   and a kernel refusal's 502 message shows the raw name of knob_write() in display form
 *   once: q"\ reads q"\\, byte 0xFF reads \xff.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "act.h"
#include "apierr.h"
#include "dev.h"
#include "knob.h"
#include "netns.h"
#include "policy.h"
#include "view.h"
#include "vqp.h"
#include "vqtune_api.h"

/* NAPI ids as the kernel gave them to a veth pair (any ids do) */
#define NAPI_A		3377
#define NAPI_B		3376

static struct netns ns = { .name = "lab" };
static struct device veth = { .ns = &ns, .name = "vb", .managed = true };
static struct device back = { .ns = &ns, .name = "vqb", .managed = true };
static struct device front = { .ns = &ns, .name = "vqf0", .managed = true };
static struct device lo = { .ns = &ns, .name = "lo", .flags = IFF_LOOPBACK };
static struct device host = { .ns = &ns, .name = "eth0" };
/* namespace "b": its loopback device renamed, and a dummy device called "lo" (ip link) */
static struct netns ns_b = { .name = "b" };
static struct device lo7 = { .ns = &ns_b, .name = "lo7", .flags = IFF_LOOPBACK };
static struct device fake_lo = { .ns = &ns_b, .name = "lo" };
/* names that the display form changes: a quote and a backslash, a byte that is not UTF-8 */
static struct device quoted = { .ns = &ns, .name = "q\"\\", .managed = true };
static struct device ff = { .ns = &ns, .name = "ve\xff" "0", .managed = true };
static int n_events, n_sets;
/* act_set(): the reason it was given; with set_refused, it fails as a kernel refusal, and
 * so does its call number set_refuse_call (1-based, counted by n_sets; 0: none) */
static char set_reason[192];
static bool set_refused;
static int set_refuse_call;

const struct knob_desc knob_table[K_NUM] = {
	[K_DEFER_HARD_IRQS] = { "defer-hard-irqs", "count", 0, 2147483647, false, "" },
	[K_GRO_FLUSH_TIMEOUT] = { "gro-flush-timeout", "ns", 0, 1000000000, false, "" },
	[K_BUSYLOOP_US] = { "busyloop-us", "us", 0, 1000, false, "" },
};

/* ---- stand-ins for the neighbours of view_act.c ---- */

struct device *dev_resolve(const char *sel, int *err)
{
	struct device *all[] = { &veth, &back, &front, &lo, &host, &lo7, &fake_lo, &quoted, &ff };
	const char *name = strchr(sel, ':');
	size_t i;

	*err = -ENOENT;
	if (!name)
		return NULL;
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strlen(all[i]->ns->name) == (size_t)(name - sel) &&
		    !strncmp(all[i]->ns->name, sel, name - sel) && !strcmp(all[i]->name, name + 1))
			return all[i];
	return NULL;
}

/* view.c's, on the dev_resolve() above; no kernel here, so no layout to read again */
int view_dev_find(const char *sel, struct device **d, json_t **out)
{
	int err;

	*d = dev_resolve(sel, &err);
	if (*d)
		return 0;
	*out = apierr_new(VQ_ERR_NOT_FOUND, "dev", "no device '%s'", sel);
	return 404;
}

int knob_by_name(const char *name)
{
	int k;

	for (k = 0; k < K_NUM; k++)
		if (knob_table[k].name && !strcmp(knob_table[k].name, name))
			return k;
	return -1;
}

static void napi_inst(struct knob_inst *ki, enum knob_id k, uint32_t id, int queue)
{
	memset(ki, 0, sizeof(*ki));
	ki->k = k;
	ki->scope = KS_NAPI;
	ki->prov = KP_NETDEV_NAPI;
	ki->napi_id = id;
	ki->queue = queue;
	ki->max = knob_table[k].max;
	ki->has_value = true;
	snprintf(ki->inst, sizeof(ki->inst), "napi-%u", id);
}

/*
 * veth: gro-flush-timeout on two NAPIs without a queue (as veth reports them);
 * defer-hard-irqs on two NAPIs serving RX queues 0 and 1 (as virtio_net reports them).
 * The vqpair back end has no knob at all; its front is not asked here.
 */
unsigned int knob_instances(const struct device *d, enum knob_id k, struct knob_inst *out,
			    unsigned int max)
{
	struct knob_inst two[2];
	unsigned int i;

	if (d != &veth && d != &quoted && d != &ff)
		return 0;
	if (k == K_GRO_FLUSH_TIMEOUT) {
		napi_inst(&two[0], k, NAPI_A, -1);
		napi_inst(&two[1], k, NAPI_B, -1);
	} else if (k == K_DEFER_HARD_IRQS) {
		napi_inst(&two[0], k, NAPI_A, 0);
		napi_inst(&two[1], k, NAPI_B, 1);
	} else {
		return 0;
	}
	for (i = 0; i < 2 && i < max; i++)
		out[i] = two[i];
	return 2;
}

int knob_writable(struct device *d, const struct knob_inst *ki, char *why, size_t whylen)
{
	(void)d;
	(void)ki;
	snprintf(why, whylen, "%s", "");
	return 1;
}

int knob_check(const struct knob_inst *ki, uint64_t v, char *err, size_t errlen)
{
	if (v <= ki->max)
		return 0;
	snprintf(err, errlen, "value: above the maximum");
	return -ERANGE;
}

const char *vqp_front_name(const struct device *d)
{
	return d == &back ? front.name : NULL;
}

enum act_result act_set(struct device *d, const struct knob_inst *ki, uint64_t v,
			enum act_who who, bool pin, const char *reason, uint64_t *oldv,
			uint64_t *newv, char *err, size_t errlen)
{
	(void)who, (void)pin;
	n_sets++;
	snprintf(set_reason, sizeof(set_reason), "%s", reason);
	if (set_refused || n_sets == set_refuse_call) {
		/* as knob_write() words it: the raw name */
		snprintf(err, errlen, "%s: %s %s: Operation not supported", d->name,
			 knob_table[ki->k].name, ki->inst);
		return ACT_EKERNEL;
	}
	*oldv = 7;
	*newv = v;
	return ACT_OK;
}

/* the instances asked for, space-separated ("*": all of them); each counts one released */
static char released_insts[128];

int act_release(struct device *d, enum knob_id k, const char *inst)
{
	size_t n = strlen(released_insts);

	(void)d, (void)k;
	snprintf(released_insts + n, sizeof(released_insts) - n, "%s%s", n ? " " : "",
		 inst ? inst : "*");
	return 1;
}

void act_event(const char *netns, const char *dev, const char *knob, const char *inst, int queue,
	       const uint64_t *old_, const uint64_t *new_, enum act_who who, const char *fmt, ...)
{
	(void)netns, (void)dev, (void)knob, (void)inst, (void)queue, (void)old_, (void)new_;
	(void)who, (void)fmt;
	n_events++;
}

json_t *act_events_json(uint64_t since, unsigned int limit, uint64_t *next)
{
	(void)limit;
	*next = since;
	return json_array();
}

/* a restore that wrote 2 knobs, found 3 owing nothing, and failed one */
int act_restore_all(json_t *failed, unsigned int *n_settled)
{
	json_array_append_new(failed, json_pack("{s:s}", "device", "vb"));
	*n_settled = 3;
	return 2;
}

int policy_parse(json_t *obj, const char *text, size_t len, struct policy *out, json_t **err)
{
	(void)obj, (void)text, (void)len, (void)out, (void)err;
	return 0;
}

void policy_set(const struct policy *p)
{
	(void)p;
}

const struct policy *policy_get(void)
{
	static struct policy p;

	return &p;
}

char *policy_diff(const struct policy *old, const struct policy *new_)
{
	(void)old, (void)new_;
	return NULL;
}

json_t *policy_json(void)
{
	return json_object();
}

/* ---- helpers ---- */

static const char *err_str(json_t *reply, const char *key)
{
	json_t *v = json_object_get(json_object_get(reply, "error"), key);

	return v ? json_string_value(v) : "-";
}

/* status of PUT /v1/devices/lab:DEV/knobs/KNOB with body @text; *out keeps the reply */
static int put(const char *dev, const char *knob, const char *text, json_t **out)
{
	json_t *body = json_loads(text, 0, NULL);
	int st;

	assert_non_null(body);
	*out = NULL;
	st = view_knob_set(dev, knob, body, out);
	json_decref(body);
	return st;
}

/* ---- tests ---- */

/* veth's NAPIs have no queue: the 404 says so and names the way to address them */
static void test_queue_on_unlinked_napis(void **state)
{
	json_t *r;

	(void)state;
	assert_int_equal(put("lab:vb", "gro-flush-timeout", "{\"value\":1,\"queue\":0}", &r), 404);
	assert_string_equal(err_str(r, "code"), VQ_ERR_NOT_FOUND);
	assert_string_equal(err_str(r, "field"), "queue");
	assert_string_equal(err_str(r, "message"),
			    "vb has no gro-flush-timeout instance on queue 0 (its instances: "
			    "napi-3377 napi-3376): the device's NAPIs are not linked to queues, "
			    "address one by its napi_id (\"napi_id\":N in the body, vqtunectl set "
			    "--napi-id N)");
	json_decref(r);
	/* a release: by napi_id too, or every instance at once */
	r = NULL;
	assert_int_equal(view_knob_release("lab:vb", "gro-flush-timeout", "1", NULL, &r), 404);
	assert_string_equal(err_str(r, "field"), "queue");
	assert_string_equal(err_str(r, "message"),
			    "vb has no gro-flush-timeout instance on queue 1 (its instances: "
			    "napi-3377 napi-3376): the device's NAPIs are not linked to queues, "
			    "address one by its napi_id (?napi_id=N, vqtunectl release --napi-id N) "
			    "or leave out the queue to release every instance");
	json_decref(r);
	/* NAPIs that do serve queues: a queue without one is the plain 404 */
	assert_int_equal(put("lab:vb", "defer-hard-irqs", "{\"value\":1,\"queue\":7}", &r), 404);
	assert_string_equal(err_str(r, "message"), "vb has no defer-hard-irqs instance on queue 7 "
			    "(its instances: napi-3377 napi-3376)");
	json_decref(r);
	assert_int_equal(n_sets, 0);
}

/* ?queue= out of range: the status, code, field and message of the same "queue" in a body */
static void test_release_queue_range(void **state)
{
	static const char *const bad[] = { "1024", "-1", "99999999999999999999", NULL };
	char body[128];
	json_t *q, *b;
	int i;

	(void)state;
	for (i = 0; bad[i]; i++) {
		q = NULL;
		assert_int_equal(view_knob_release("lab:vb", "defer-hard-irqs", bad[i], NULL, &q),
				 422);
		assert_string_equal(err_str(q, "code"), VQ_ERR_OUT_OF_RANGE);
		assert_string_equal(err_str(q, "field"), "queue");
		/* jansson refuses a body integer past 2^63 - 1 while parsing: no body to compare */
		if (strlen(bad[i]) < 19) {
			snprintf(body, sizeof(body), "{\"value\":1,\"queue\":%s}", bad[i]);
			assert_int_equal(put("lab:vb", "defer-hard-irqs", body, &b), 422);
			assert_string_equal(err_str(q, "message"), err_str(b, "message"));
			json_decref(b);
		}
		json_decref(q);
	}
	q = NULL;
	assert_int_equal(view_knob_release("lab:vb", "defer-hard-irqs", "1024", NULL, &q), 422);
	assert_string_equal(err_str(q, "message"), "queue: 1024 is above the maximum 1023");
	json_decref(q);
	/* not a number at all: still 400 invalid_field */
	for (i = 0; i < 4; i++) {
		static const char *const text[] = { "abc", "", "+1", "0x10" };

		q = NULL;
		assert_int_equal(view_knob_release("lab:vb", "defer-hard-irqs", text[i], NULL, &q),
				 400);
		assert_string_equal(err_str(q, "code"), VQ_ERR_INVALID_FIELD);
		assert_string_equal(err_str(q, "field"), "queue");
		assert_string_equal(err_str(q, "message"), "queue: must be an integer 0..1023");
		json_decref(q);
	}
	/* in range and on an instance: released (none was pinned here) */
	q = NULL;
	assert_int_equal(view_knob_release("lab:vb", "defer-hard-irqs", "1", NULL, &q), 200);
	json_decref(q);
}

/* release ?napi_id=N: that NAPI's instance alone, checked as a PUT's napi_id is */
static void test_release_napi_id(void **state)
{
	static const char *const text[] = { "abc", "", "+1", "0x10" };
	json_t *r;
	int i;

	(void)state;
	released_insts[0] = '\0';
	r = NULL;
	assert_int_equal(view_knob_release("lab:vb", "gro-flush-timeout", NULL, "3376", &r), 200);
	assert_int_equal(json_integer_value(json_object_get(r, "released")), 1);
	assert_string_equal(released_insts, "napi-3376");
	json_decref(r);
	/* with a queue: the instances on both; defer-hard-irqs' napi-3377 serves queue 0 */
	released_insts[0] = '\0';
	assert_int_equal(view_knob_release("lab:vb", "defer-hard-irqs", "0", "3377", &r), 200);
	assert_string_equal(released_insts, "napi-3377");
	json_decref(r);
	/* each names an instance, not the same one: the napi_id is at fault, as in a PUT */
	assert_int_equal(view_knob_release("lab:vb", "defer-hard-irqs", "1", "3377", &r), 404);
	assert_string_equal(err_str(r, "field"), "napi_id");
	assert_string_equal(err_str(r, "message"), "napi_id 3377 does not serve queue 1: vb's "
			    "defer-hard-irqs on queue 1 is napi-3376 (napi_id 3376)");
	json_decref(r);
	assert_int_equal(put("lab:vb", "defer-hard-irqs",
			     "{\"value\":1,\"queue\":1,\"napi_id\":3377}", &r), 404);
	assert_string_equal(err_str(r, "field"), "napi_id");
	assert_string_equal(err_str(r, "message"), "napi_id 3377 does not serve queue 1: vb's "
			    "defer-hard-irqs on queue 1 is napi-3376 (napi_id 3376)");
	json_decref(r);
	/* a queue with no instance at all still names the queue */
	assert_int_equal(view_knob_release("lab:vb", "defer-hard-irqs", "7", "3377", &r), 404);
	assert_string_equal(err_str(r, "field"), "queue");
	json_decref(r);
	/* no instance on that NAPI */
	assert_int_equal(view_knob_release("lab:vb", "gro-flush-timeout", NULL, "9999", &r), 404);
	assert_string_equal(err_str(r, "code"), VQ_ERR_NOT_FOUND);
	assert_string_equal(err_str(r, "field"), "napi_id");
	assert_string_equal(err_str(r, "message"),
			    "napi_id 9999: gro-flush-timeout has no instance on that NAPI");
	json_decref(r);
	/* 0 is no NAPI id (netdev netlink): out of range as in a body */
	assert_int_equal(view_knob_release("lab:vb", "gro-flush-timeout", NULL, "0", &r), 422);
	assert_string_equal(err_str(r, "code"), VQ_ERR_OUT_OF_RANGE);
	assert_string_equal(err_str(r, "field"), "napi_id");
	json_decref(r);
	assert_int_equal(view_knob_release("lab:vb", "gro-flush-timeout", NULL, "4294967296",
					   &r), 422);
	assert_string_equal(err_str(r, "field"), "napi_id");
	json_decref(r);
	for (i = 0; i < 4; i++) {
		assert_int_equal(view_knob_release("lab:vb", "gro-flush-timeout", NULL, text[i], &r),
				 400);
		assert_string_equal(err_str(r, "code"), VQ_ERR_INVALID_FIELD);
		assert_string_equal(err_str(r, "field"), "napi_id");
		json_decref(r);
	}
	/* none of those faults reached a release; neither parameter: every instance */
	released_insts[0] = '\0';
	assert_int_equal(view_knob_release("lab:vb", "gro-flush-timeout", NULL, NULL, &r), 200);
	assert_string_equal(released_insts, "*");
	json_decref(r);
}

/* a vqpair back end is read-only: pause and resume are refused as a set of its knobs is */
static void test_pause_back_end(void **state)
{
	json_t *r;

	(void)state;
	n_events = 0;
	assert_int_equal(put("lab:vqb", "busyloop-us", "{\"value\":10}", &r), 422);
	assert_string_equal(err_str(r, "code"), VQ_ERR_UNSUPPORTED);
	assert_string_equal(err_str(r, "message"), "busyloop-us: vqb is the back end of a vqpair; "
			    "its knobs are set on the front, vqf0");
	json_decref(r);
	r = NULL;
	assert_int_equal(view_pause("lab:vqb", 1, &r), 422);
	assert_string_equal(err_str(r, "code"), VQ_ERR_UNSUPPORTED);
	assert_string_equal(err_str(r, "field"), "dev");
	assert_string_equal(err_str(r, "message"), "pause: vqb is the back end of a vqpair; "
			    "its controllers are paused on the front, vqf0");
	json_decref(r);
	r = NULL;
	assert_int_equal(view_pause("lab:vqb", 0, &r), 422);
	assert_string_equal(err_str(r, "message"), "resume: vqb is the back end of a vqpair; "
			    "its controllers are resumed on the front, vqf0");
	json_decref(r);
	assert_false(back.paused);
	assert_int_equal(n_events, 0);
	/* the front pauses as any device does */
	r = NULL;
	assert_int_equal(view_pause("lab:vqf0", 1, &r), 200);
	assert_true(front.paused);
	assert_int_equal(n_events, 1);
	json_decref(r);
}

/*
 * A knob name that does not exist is named before the device's writability: on a read-only
 * device "no knob named 'nosuch'" (404), not only "read-only"; a real knob there is still
 * 403, and a device that does not exist stays the first thing said.
 */
static void test_unknown_knob_first(void **state)
{
	json_t *r;

	(void)state;
	n_sets = 0;
	assert_int_equal(put("lab:eth0", "nosuch", "{\"value\":5}", &r), 404);
	assert_string_equal(err_str(r, "code"), VQ_ERR_NOT_FOUND);
	assert_string_equal(err_str(r, "field"), "knob");
	assert_string_equal(err_str(r, "message"), "no knob named 'nosuch'");
	json_decref(r);
	assert_int_equal(view_knob_release("lab:eth0", "nosuch", NULL, NULL, &r), 404);
	assert_string_equal(err_str(r, "field"), "knob");
	assert_string_equal(err_str(r, "message"), "no knob named 'nosuch'");
	json_decref(r);
	assert_int_equal(view_knob_release("lab:lo", "nosuch", NULL, NULL, &r), 404);
	assert_string_equal(err_str(r, "field"), "knob");
	json_decref(r);
	/* on a writable device alike */
	assert_int_equal(put("lab:vb", "nosuch", "{\"value\":5}", &r), 404);
	assert_string_equal(err_str(r, "field"), "knob");
	json_decref(r);
	/* an existing knob on the read-only device: the device's reason */
	assert_int_equal(put("lab:eth0", "busyloop-us", "{\"value\":10}", &r), 403);
	assert_string_equal(err_str(r, "field"), "dev");
	json_decref(r);
	assert_int_equal(view_knob_release("lab:eth0", "busyloop-us", NULL, NULL, &r), 403);
	assert_string_equal(err_str(r, "field"), "dev");
	json_decref(r);
	/* no such device: said first, whatever the knob */
	assert_int_equal(put("lab:nodev", "nosuch", "{\"value\":5}", &r), 404);
	assert_string_equal(err_str(r, "field"), "dev");
	assert_string_equal(err_str(r, "message"), "no device 'lab:nodev'");
	json_decref(r);
	assert_int_equal(n_sets, 0);
}

/* read-only devices: --manage is the remedy for one, never for a loopback device */
static void test_read_only_words(void **state)
{
	json_t *r;

	(void)state;
	n_sets = 0;
	assert_int_equal(put("lab:eth0", "busyloop-us", "{\"value\":10}", &r), 403);
	assert_string_equal(err_str(r, "code"), VQ_ERR_READ_ONLY);
	assert_string_equal(err_str(r, "field"), "dev");
	assert_string_equal(err_str(r, "message"),
			    "device 'lab:eth0' is observed read-only (not managed: see --manage)");
	assert_string_equal(err_str(r, "reason"), VQ_ERR_REASON_NOT_MANAGED);
	json_decref(r);
	assert_int_equal(put("lab:lo", "busyloop-us", "{\"value\":10}", &r), 403);
	assert_string_equal(err_str(r, "code"), VQ_ERR_READ_ONLY);
	assert_string_equal(err_str(r, "message"), "device 'lab:lo' is a loopback device: observed "
			    "read-only, never written (--manage does not apply)");
	assert_string_equal(err_str(r, "reason"), VQ_ERR_REASON_LOOPBACK);
	json_decref(r);
	/* IFF_LOOPBACK decides, not the name: a renamed loopback device is one ... */
	assert_int_equal(put("b:lo7", "busyloop-us", "{\"value\":10}", &r), 403);
	assert_string_equal(err_str(r, "message"), "device 'b:lo7' is a loopback device: observed "
			    "read-only, never written (--manage does not apply)");
	assert_string_equal(err_str(r, "reason"), VQ_ERR_REASON_LOOPBACK);
	json_decref(r);
	/* ... and another device called "lo" is not */
	assert_int_equal(put("b:lo", "busyloop-us", "{\"value\":10}", &r), 403);
	assert_string_equal(err_str(r, "message"),
			    "device 'b:lo' is observed read-only (not managed: see --manage)");
	assert_string_equal(err_str(r, "reason"), VQ_ERR_REASON_NOT_MANAGED);
	json_decref(r);
	/* pause and release are refused alike */
	assert_int_equal(view_pause("b:lo7", 1, &r), 403);
	assert_string_equal(err_str(r, "reason"), VQ_ERR_REASON_LOOPBACK);
	json_decref(r);
	assert_int_equal(view_knob_release("b:lo", "busyloop-us", NULL, NULL, &r), 403);
	assert_string_equal(err_str(r, "reason"), VQ_ERR_REASON_NOT_MANAGED);
	json_decref(r);
	assert_false(lo7.paused);
	assert_int_equal(n_sets, 0);
}

/* names go into reasons and messages raw: the event and apierr_new() show them once */
static void test_names_shown_once(void **state)
{
	json_t *r;

	(void)state;
	assert_int_equal(put("lab:q\"\\", "gro-flush-timeout", "{\"value\":5}", &r), 200);
	assert_string_equal(set_reason, "manual set of gro-flush-timeout on lab:q\"\\");
	json_decref(r);
	set_refused = true;
	assert_int_equal(put("lab:ve\xff" "0", "gro-flush-timeout", "{\"value\":5}", &r), 502);
	set_refused = false;
	assert_string_equal(set_reason, "manual set of gro-flush-timeout on lab:ve\xff" "0");
	assert_string_equal(err_str(r, "code"), VQ_ERR_KERNEL);
	assert_string_equal(err_str(r, "message"),
			    "ve\\xff0: gro-flush-timeout napi-3377: Operation not supported");
	json_decref(r);
	/* a 404 naming the device alike */
	assert_int_equal(put("lab:q\"\\", "defer-hard-irqs", "{\"value\":1,\"queue\":7}", &r),
			 404);
	assert_string_equal(err_str(r, "message"), "q\"\\\\ has no defer-hard-irqs instance on "
			    "queue 7 (its instances: napi-3377 napi-3376)");
	json_decref(r);
}

/* POST /v1/restore: how many were written, owed nothing, failed */
static void test_restore_reply(void **state)
{
	json_t *r;
	char *text;

	(void)state;
	assert_int_equal(view_restore(&r), 200);
	text = json_dumps(r, JSON_SORT_KEYS | JSON_COMPACT);
	assert_string_equal(text, "{\"failed\":[{\"device\":\"vb\"}],\"nothing_owed\":3,"
			    "\"restored\":2}");
	free(text);
	json_decref(r);
}

/* a set refused on its second instance says which it wrote before: they stay written */
static void test_set_partial(void **state)
{
	json_t *r;

	(void)state;
	n_sets = 0;
	set_refuse_call = 2;
	assert_int_equal(put("lab:vb", "gro-flush-timeout", "{\"value\":5}", &r), 502);
	set_refuse_call = 0;
	assert_int_equal(n_sets, 2);
	assert_string_equal(err_str(r, "code"), VQ_ERR_KERNEL);
	assert_string_equal(err_str(r, "message"), "vb: gro-flush-timeout napi-3376: Operation "
			    "not supported; written before it (pinned, restorable): napi-3377 7 -> 5");
	json_decref(r);
	/* refused on the first: nothing written, nothing said of it */
	n_sets = 0;
	set_refuse_call = 1;
	assert_int_equal(put("lab:vb", "gro-flush-timeout", "{\"value\":5}", &r), 502);
	set_refuse_call = 0;
	assert_int_equal(n_sets, 1);
	assert_string_equal(err_str(r, "message"),
			    "vb: gro-flush-timeout napi-3377: Operation not supported");
	json_decref(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue_on_unlinked_napis),
		cmocka_unit_test(test_release_queue_range),
		cmocka_unit_test(test_release_napi_id),
		cmocka_unit_test(test_pause_back_end),
		cmocka_unit_test(test_read_only_words),
		cmocka_unit_test(test_unknown_knob_first),
		cmocka_unit_test(test_names_shown_once),
		cmocka_unit_test(test_set_partial),
		cmocka_unit_test(test_restore_reply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
