// SPDX-License-Identifier: GPL-2.0-only
/* view: the JSON behind each API route (docs/api.md). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "act.h"
#include "apierr.h"
#include "decide.h"
#include "dev.h"
#include "knob.h"
#include "netns.h"
#include "policy.h"
#include "reqval.h"
#include "runtime.h"
#include "sample.h"
#include "util.h"
#include "view.h"
#include "vqp.h"
#include "vqtune_api.h"

static const char *const oper_names[] = { "unknown", "notpresent", "down", "lowerlayerdown",
					  "testing", "dormant", "up" };

/* Room for one selector, percent-encoded: "NETNS:NAME", every byte of both as %HH. */
#define VIEW_SEL_MAX_BYTES	(3 * (NETNS_NAME_MAX + 1 + 4 * IFNAMSIZ) + 1)
/* Room for the candidates' part of a 409 message: apierr_new() keeps 511 bytes in all. */
#define VIEW_CAND_MAX_BYTES	512

/* RFC 3986 2.1 percent-encoding of @s into @out, all but the unreserved set (2.3) and ':'. */
static void sel_escape(const char *s, char *out, size_t len)
{
	static const char unreserved[] = "-._~:";
	size_t o = 0;

	for (; *s && o + 4 <= len; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c < 0x80 && isalnum(c)) || strchr(unreserved, c))
			out[o++] = (char)c;
		else
			o += snprintf(out + o, len - o, "%%%02X", c);
	}
	out[o] = '\0';
}

/*
 * A selector that names @d and no other device: "NETNS:" with its display form, else with
 * its raw bytes (when the display form is some other device's raw name), percent-encoded as
 * a URL path takes it. Asks dev_resolve() itself, so the advice cannot be wrong. 0 or -ENOENT.
 */
static int unique_sel(const struct device *d, char *out, size_t len)
{
	const char *ns = d->ns->name[0] ? d->ns->name : "-";
	char disp[4 * IFNAMSIZ + 1], sel[NETNS_NAME_MAX + 1 + sizeof(disp)];
	const char *forms[] = { disp, d->name };
	size_t i;
	int err;

	util_name_display(d->name, disp, sizeof(disp));
	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		snprintf(sel, sizeof(sel), "%s:%s", ns, forms[i]);
		if (dev_resolve(sel, &err) == d) {
			sel_escape(sel, out, len);
			return 0;
		}
	}
	return -ENOENT;
}

/* view.h. The candidates are matched as dev_resolve() matches them, so both agree. */
int view_dev_conflict(const char *sel, json_t **out)
{
	char hex[2 * IFNAMSIZ + 1], one[VIEW_SEL_MAX_BYTES], cand[VIEW_CAND_MAX_BYTES] = "";
	const char *name, *kind;
	struct netns *ns;
	struct device *d;
	size_t used = 0;
	int n = 0;
	/* the namespace it names exists: dev_resolve() found the ambiguity there */
	bool split_ok = !dev_sel_split(sel, &ns, &name);

	dev_for_each(d) {
		if (!split_ok || (ns && d->ns != ns) || !(kind = dev_name_match(d, name)))
			continue;
		util_hex(d->name, strnlen(d->name, IFNAMSIZ), hex);
		if (unique_sel(d, one, sizeof(one)))
			snprintf(one, sizeof(one), "no selector names it alone");
		n++;
		if (used < sizeof(cand))
			used += snprintf(cand + used, sizeof(cand) - used,
					 "; netns '%s' ifindex %d (%s, name_hex %s): '%s'",
					 d->ns->name[0] ? d->ns->name : "-", d->ifindex, kind,
					 hex, one);
	}
	*out = apierr_new(VQ_ERR_CONFLICT, "dev", "device '%s' is ambiguous: it names %d devices, "
			  "address each by its own selector (percent-encoded)%s", sel, n, cand);
	return 409;
}

int view_dev_find(const char *sel, struct device **d, json_t **out)
{
	int err;

	*d = dev_resolve(sel, &err);
	if (*d) {
		smp_news_refresh(*d);
		return 0;
	}
	if (err == -EEXIST)
		return view_dev_conflict(sel, out);
	*out = apierr_new(VQ_ERR_NOT_FOUND, "dev", "no device '%s'", sel);
	return 404;
}

/*
 * How long ago (ns, CLOCK_MONOTONIC, this reply's moment) a read made at @at was: the age of
 * a sample, which a client on another host cannot work out from @at itself; null before
 * the first read (@at 0).
 */
static json_t *age_json(uint64_t at)
{
	uint64_t now = util_now_ns(CLOCK_MONOTONIC);

	return at ? json_integer((json_int_t)(now > at ? now - at : 0)) : json_null();
}

static json_t *dev_json(const struct device *d)
{
	char hex[2 * IFNAMSIZ + 1];
	json_t *o;

	util_hex(d->name, strnlen(d->name, IFNAMSIZ), hex);
	o = json_pack("{s:o, s:s, s:i, s:s, s:s, s:s, s:i, s:i, s:i, s:I, s:b, s:s, s:b}",
		      "name", util_json_str(d->name), "name_hex", hex, "ifindex", d->ifindex,
		      "netns", d->ns->name, "driver", d->driver, "oper_state",
		      d->operstate < 7 ? oper_names[d->operstate] : "unknown",
		      "mtu", d->mtu, "tx_queues", d->n_tx, "rx_queues", d->n_rx,
		      "generation", (json_int_t)d->gen, "managed", d->managed,
		      "mode", decide_state(d), "paused", d->paused);
	json_object_set_new(o, "rx_bytes", json_integer(d->dctr[DC_RX_BYTES]));
	json_object_set_new(o, "tx_bytes", json_integer(d->dctr[DC_TX_BYTES]));
	json_object_set_new(o, "rx_packets", json_integer(d->dctr[DC_RX_PACKETS]));
	json_object_set_new(o, "tx_packets", json_integer(d->dctr[DC_TX_PACKETS]));
	json_object_set_new(o, "sample_age_ns", age_json(d->sampled_ns));
	return o;
}

int view_status(json_t **out)
{
	json_t *parts = json_object();
	unsigned int managed, controlled;
	enum tick_part tp;

	/* controlled: what the pacer counts (main.c pace_work()): a tick paces only with one */
	decide_device_counts(&managed, &controlled);
	for (tp = 0; tp < TP_NUM; tp++)
		json_object_set_new(parts, tick_part_name(tp),
				    json_integer((json_int_t)runtime.part_ns[tp]));
	*out = json_pack("{s:s, s:I, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:i, s:i, s:i, s:I, s:I, "
			 "s:i, s:i, s:I, s:I, s:I, s:o}",
			 "version", VQ_VERSION,
			 "uptime_ns", (json_int_t)(util_now_ns(CLOCK_MONOTONIC) - runtime.start_ns),
			 "mode", policy_get()->mode, "policy", policy_get()->name,
			 "tick_interval_ns", (json_int_t)runtime.tick_ns,
			 "tick_base_ns", (json_int_t)runtime.tick_base_ns,
			 "tick_max_ns", (json_int_t)runtime.tick_max_ns,
			 "ticks", (json_int_t)runtime.ticks,
			 "missed_ticks", (json_int_t)runtime.missed_ticks,
			 "devices", dev_count(), "managed_devices", managed,
			 "controlled_devices", controlled,
			 "events", (json_int_t)act_events_recorded(),
			 "last_event_id", (json_int_t)act_event_count(),
			 "changed_knobs", act_changed_count(), "pid", (int)getpid(),
			 "sched_slice_ns", (json_int_t)runtime.sched_slice_ns,
			 "tick_cpu_ns", (json_int_t)runtime.tick_cpu_ns,
			 "tick_wall_ns", (json_int_t)runtime.tick_wall_ns,
			 "tick_parts_ns", parts);
	return 200;
}

int view_devices(json_t **out)
{
	json_t *arr = json_array();
	struct device *d;

	dev_for_each(d)
		json_array_append_new(arr, dev_json(d));
	*out = json_pack("{s:o}", "devices", arr);
	return 200;
}

/* the set probe's answer per provider (knob_set_probe()), asked once per device view */
struct ro_cache {
	bool asked[KP_VQPAIR + 1];
	int probe[KP_VQPAIR + 1];
};

/*
 * "writable" of one knob (knob.h knob_writable_probed()): the device is managed, its driver
 * has the set operation (a driver without it is known before any write), and a veth's
 * device-wide threaded has a NAPI (asked again when the last sample saw none: GRO may have
 * come on since); a knob that is not writable carries "read_only_reason".
 */
static void knob_ro(struct device *d, const struct knob_inst *ki, struct ro_cache *rc, json_t *o)
{
	char why[192];
	int w;

	if (!rc->asked[ki->prov]) {
		rc->probe[ki->prov] = knob_set_probe(d, ki);
		rc->asked[ki->prov] = true;
	}
	w = knob_writable_probed(d, ki, rc->probe[ki->prov], why, sizeof(why));
	json_object_set_new(o, "writable", json_boolean(w));
	if (!w)
		json_object_set_new(o, "read_only_reason", json_string(why));
}

static json_t *knob_json(struct device *d, const struct knob_inst *ki, struct ro_cache *rc)
{
	const struct knob_desc *kd = &knob_table[ki->k];
	uint64_t orig;
	bool changed = act_original(d, ki->k, ki->inst, &orig);
	json_t *o;

	o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:s, s:b, s:b, s:b, s:b}",
		      "name", kd->name, "scope", knob_scope_name(ki->scope), "instance", ki->inst,
		      "unit", kd->unit, "min", (json_int_t)ki->min, "max", (json_int_t)ki->max,
		      "provider", knob_prov_name(ki->prov), "disruptive", kd->disruptive,
		      "pinned", act_pinned(d, ki->k, ki->inst),
		      "controlled", decide_controls(d, ki->k, ki->inst), "changed", changed);
	knob_ro(d, ki, rc, o);
	json_object_set_new(o, "rule", ki->rule ? json_string(knob_rule_name(ki->rule)) :
			    json_null());
	json_object_set_new(o, "value", ki->has_value ? json_integer(ki->value) : json_null());
	json_object_set_new(o, "original", changed ? json_integer(orig) : json_null());
	if (ki->queue >= 0)
		json_object_set_new(o, "queue", json_integer(ki->queue));
	if (ki->scope == KS_NAPI)
		json_object_set_new(o, "napi_id", json_integer(ki->napi_id));
	return o;
}

int view_device(const char *sel, json_t **out)
{
	static struct knob_inst inst[DEV_MAX_QUEUES];
	struct ro_cache rc;
	struct device *d;
	json_t *o, *knobs = json_array();
	unsigned int n, i;
	int k, st;

	memset(&rc, 0, sizeof(rc));
	st = view_dev_find(sel, &d, out);
	if (st) {
		json_decref(knobs);
		return st;
	}
	for (k = 0; k < K_NUM; k++) {
		n = knob_instances(d, k, inst, DEV_MAX_QUEUES);
		for (i = 0; i < n && i < DEV_MAX_QUEUES; i++)
			json_array_append_new(knobs, knob_json(d, &inst[i], &rc));
	}
	o = dev_json(d);
	json_object_set_new(o, "knobs", knobs);
	*out = o;
	return 200;
}

static json_t *rate_or_null(bool valid, double v)
{
	return valid ? json_real(v) : json_null();
}

/* A gauge that holds a whole number, or null when unknown (NAN). */
static json_t *gauge_or_null(double v)
{
	return isnan(v) ? json_null() : json_integer((json_int_t)v);
}

/* A double that may be NAN (no value this interval): jansson has no NaN, so null. */
static json_t *real_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/* vqpair's kebab name ("tx-drop-ring-full") as the API's field name ("tx_drop_ring_full") */
static void api_name(const char *kebab, const char *suffix, char *out, size_t len)
{
	size_t i;

	snprintf(out, len, "%s%s", kebab, suffix);
	for (i = 0; out[i]; i++)
		if (out[i] == '-')
			out[i] = '_';
}

/* The "vqpair" object of a TX queue (docs/api.md): VQPAIR_QSTATS of include/vqpair.h. */
static json_t *vqpair_json(const struct device *d, const struct vqp_queue *vq)
{
	json_t *ctr = json_object(), *gauges = json_object(), *rates = json_object();
	char name[64];
	int id;

	for (id = 1; id <= VQPAIR_QSTAT_MAX; id++) {
		if (vqp_qstat_is_gauge(id)) {
			api_name(vqp_qstat_name(id), "", name, sizeof(name));
			json_object_set_new(gauges, name, json_integer(vq->ctr[id]));
			continue;
		}
		api_name(vqp_qstat_name(id), "", name, sizeof(name));
		json_object_set_new(ctr, name, json_integer(vq->ctr[id]));
		api_name(vqp_qstat_name(id), "_per_s", name, sizeof(name));
		json_object_set_new(rates, name, vq->valid ? real_or_null(vq->rate[id]) :
				    json_null());
	}
	return json_pack("{s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "end", vqp_is_front(d) ? "front" : "back", "valid", vq->valid,
			 "counters", ctr, "gauges", gauges, "rates", rates,
			 "completion_mean_ns", real_or_null(vq->compl_mean_ns),
			 "completion_p99_ns", real_or_null(vq->compl_p99_ns),
			 "tx_delivery_p99_ns", real_or_null(vq->tx_delivery_p99_ns),
			 "rx_delivery_p99_ns", real_or_null(vq->rx_delivery_p99_ns));
}

/*
 * A direction's per-queue byte rates that sum to less than QUEUE_PART_OF_DEVICE of the
 * device's own, while it moves at least QUEUE_PART_MIN_BPS, count only part of its traffic:
 * a veth's per-queue counters (ethtool -S xdp_*) count its NAPI path, which TSO'd TCP skips
 * (veth_skb_is_eligible_for_gro()), so at 25 Gbit/s they can read 0.
 */
#define QUEUE_PART_OF_DEVICE	0.5
#define QUEUE_PART_MIN_BPS	125000.0	/* 1 Mbit/s: below it, timing noise */

/* Whether @d's queues of one direction count only part of its traffic (above). */
static bool queues_count_part(const struct device *d, bool tx)
{
	const struct queue *qs = tx ? d->txq : d->rxq;
	unsigned int n = tx ? d->n_tx : d->n_rx, i;
	double dev = d->drate[tx ? DC_TX_BYTES : DC_RX_BYTES], sum = 0;

	if (!d->dvalid || !(dev >= QUEUE_PART_MIN_BPS))
		return false;
	for (i = 0; i < n; i++) {
		if (!qs[i].valid || !(qs[i].present & (1u << QC_BYTES)))
			return false;	/* no per-queue figure to judge, or an unusable one */
		sum += qs[i].rate[QC_BYTES];
	}
	return sum < QUEUE_PART_OF_DEVICE * dev;
}

static json_t *queue_json(const struct device *d, const struct queue *q, unsigned int idx,
			  bool tx, bool part)
{
	const struct vqp_queue *vq = tx ? vqp_queue(d, idx) : NULL;
	static const char *const src[] = { "none", "qstats", "ethtool" };
	static const char *const cname[QC_NUM] = { "packets", "bytes", "drops", "tx_stop",
						   "tx_wake" };
	static const char *const bname[BQL_NUM] = {
		"limit_bytes", "limit_min_bytes", "limit_max_bytes", "inflight_bytes",
		"hold_time_ms", "stall_cnt", "stall_max_ms", "stall_thrs_ms" };
	json_t *o, *ctr = json_object(), *rates = json_object();
	char rname[32];
	int c;

	for (c = 0; c < QC_NUM; c++) {
		if (!(q->present & (1u << c)))
			continue;
		json_object_set_new(ctr, cname[c], json_integer(q->ctr[c]));
		snprintf(rname, sizeof(rname), "%s_per_s", cname[c]);
		json_object_set_new(rates, rname, rate_or_null(q->valid, q->rate[c]));
	}
	o = json_pack("{s:i, s:s, s:s, s:b, s:o, s:o, s:o}", "queue", idx,
		      "direction", tx ? "tx" : "rx", "source", src[q->src], "valid", q->valid,
		      "counters", ctr, "rates", rates,
		      "controller", decide_queue_json(d, idx, tx));
	if (q->napi_id)
		json_object_set_new(o, "napi_id", json_integer(q->napi_id));
	if (part)
		json_object_set_new(o, "counts_part", json_true());
	if (tx) {
		/* the qdisc in front of this TX queue (tcq.h) */
		json_object_set_new(o, "qdisc_backlog_bytes", gauge_or_null(q->qdisc_backlog_bytes));
		json_object_set_new(o, "qdisc_qlen", gauge_or_null(q->qdisc_qlen));
	}
	if (tx && (q->bql_present & (1u << BQL_LIMIT))) {
		json_t *b = json_object();

		for (c = 0; c < BQL_NUM; c++)
			if (q->bql_present & (1u << c))
				json_object_set_new(b, bname[c], json_integer(q->bql[c]));
		json_object_set_new(o, "bql", b);
	}
	if (vq)
		json_object_set_new(o, "vqpair", vqpair_json(d, vq));
	return o;
}

int view_queues(const char *sel, json_t **out)
{
	static const char *const dname[DC_NUM] = {
		"rx_packets", "tx_packets", "rx_bytes", "tx_bytes",
		"rx_dropped", "tx_dropped", "rx_errors", "tx_errors" };
	json_t *totals = json_object(), *rates = json_object(), *qs = json_array();
	struct device *d;
	char rname[40];
	bool part_rx, part_tx;
	unsigned int q;
	int c, st;

	st = view_dev_find(sel, &d, out);
	if (st) {
		json_decref(totals);
		json_decref(rates);
		json_decref(qs);
		return st;
	}
	for (c = 0; c < DC_NUM; c++) {
		json_object_set_new(totals, dname[c], json_integer(d->dctr[c]));
		snprintf(rname, sizeof(rname), "%s_per_s", dname[c]);
		json_object_set_new(rates, rname, rate_or_null(d->dvalid, d->drate[c]));
	}
	json_object_set_new(totals, "rates", rates);
	part_rx = queues_count_part(d, false);
	part_tx = queues_count_part(d, true);
	for (q = 0; q < d->n_rx; q++)
		json_array_append_new(qs, queue_json(d, &d->rxq[q], q, false, part_rx));
	for (q = 0; q < d->n_tx; q++)
		json_array_append_new(qs, queue_json(d, &d->txq[q], q, true, part_tx));
	*out = json_pack("{s:o, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:o, s:o}",
			 "device", util_json_str(d->name), "netns", d->ns->name,
			 "generation", (json_int_t)d->gen,
			 "sampled_ns", (json_int_t)d->sampled_ns,
			 "interval_ns", (json_int_t)d->interval_ns,
			 "queues_sampled_ns", (json_int_t)d->q_sampled_ns,
			 "queues_interval_ns", (json_int_t)d->q_interval_ns,
			 "settings_read_ns", (json_int_t)d->eth_read_ns, "valid", d->dvalid,
			 "totals", totals, "queues", qs);
	json_object_set_new(*out, "sample_age_ns", age_json(d->sampled_ns));
	return 200;
}
