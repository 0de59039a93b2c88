// SPDX-License-Identifier: GPL-2.0-only
/*
 * metrics: GET /metrics in the Prometheus text format (prom.h). Every family's samples are
 * contiguous, as the format requires, so each family loops over all devices. Base units:
 * bytes and seconds; counters end in _total. Labels: device (display form), netns, queue,
 * direction, knob, instance.
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "act.h"
#include "decide.h"
#include "dev.h"
#include "knob.h"
#include "netns.h"
#include "prom.h"
#include "runtime.h"
#include "util.h"
#include "view.h"
#include "vqp.h"
#include "vqtune_api.h"

#define NS_PER_S	1e9
#define MS_PER_S	1e3
#define US_PER_S	1e6

struct lbl {
	char name[4 * IFNAMSIZ + 1];
	char queue[12];
	const char *v[16];
};

static void dev_labels(struct lbl *l, const struct device *d, const char *dir, int queue)
{
	int n = 0;

	util_name_display(d->name, l->name, sizeof(l->name));
	l->v[n++] = "device";
	l->v[n++] = l->name;
	l->v[n++] = "netns";
	l->v[n++] = d->ns->name;
	if (queue >= 0) {
		snprintf(l->queue, sizeof(l->queue), "%d", queue);
		l->v[n++] = "queue";
		l->v[n++] = l->queue;
	}
	if (dir) {
		l->v[n++] = "direction";
		l->v[n++] = dir;
	}
	l->v[n] = NULL;
}

/*
 * One per-queue controller family: per device, control unit (label queue) and law (label
 * controller), its steps written (@objective false) or its last objective (true; no
 * sample when not computable).
 */
static void controller_family(struct prom *p, const char *name, const char *type,
			      const char *help, bool objective)
{
	enum decide_decision last;
	struct device *d;
	struct lbl l;
	uint64_t steps;
	double obj;
	unsigned int q;
	int law, n;

	prom_family(p, name, type, help);
	dev_for_each(d)
		for (q = 0; q < decide_units(d); q++)
			for (law = 0; law < POLICY_CTL_NUM; law++) {
				if (!decide_unit_law(d, q, law, &steps, &obj, &last) ||
				    (objective && !isfinite(obj)))
					continue;
				dev_labels(&l, d, NULL, (int)q);
				for (n = 0; l.v[n]; n++)
					;
				l.v[n] = "controller";
				l.v[n + 1] = decide_law_name(law);
				l.v[n + 2] = NULL;
				if (objective)
					prom_double(p, name, l.v, obj);
				else
					prom_u64(p, name, l.v, steps);
			}
}

/* decide.c: decisions by kind, and per queue and law the steps and the objective */
static void controller_families(struct prom *p)
{
	enum decide_decision dd;

	prom_family(p, "vqtune_controller_decisions_total", "counter",
		    "Controller decisions by kind (applied, rollback, advised, held, failed)");
	for (dd = DD_APPLIED; dd < DD_NUM; dd++) {
		const char *v[] = { "decision", decide_decision_name(dd), NULL };

		prom_u64(p, "vqtune_controller_decisions_total", v, decide_count(dd));
	}
	controller_family(p, "vqtune_queue_controller_steps_total", "counter",
			  "Knob steps a controller wrote on this control unit (queue), rollbacks "
			  "included", false);
	controller_family(p, "vqtune_queue_controller_objective", "gauge",
			  "The controller's objective at its last run, lower is better (law.h "
			  "costs)", true);
}

static void daemon_families(struct prom *p)
{
	const char *const ver[] = { "version", VQ_VERSION, NULL };
	unsigned int managed, controlled;
	enum tick_part tp;

	decide_device_counts(&managed, &controlled);
	prom_family(p, "vqtune_up", "gauge", "1 while vqtuned answers");
	prom_u64(p, "vqtune_up", NULL, 1);
	prom_family(p, "vqtune_build_info", "gauge", "vqtuned version, always 1");
	prom_u64(p, "vqtune_build_info", ver, 1);
	prom_family(p, "vqtune_uptime_seconds", "gauge", "Time since vqtuned started");
	prom_double(p, "vqtune_uptime_seconds", NULL,
		    (util_now_ns(CLOCK_MONOTONIC) - runtime.start_ns) / NS_PER_S);
	prom_family(p, "vqtune_ticks_total", "counter", "Sampling ticks run");
	prom_u64(p, "vqtune_ticks_total", NULL, runtime.ticks);
	prom_family(p, "vqtune_tick_interval_seconds", "gauge",
		    "Sampling tick interval now in force (--interval..--max-interval)");
	prom_double(p, "vqtune_tick_interval_seconds", NULL, runtime.tick_ns / NS_PER_S);
	prom_family(p, "vqtune_missed_ticks_total", "counter",
		    "Tick deadlines that passed while the loop was still busy");
	prom_u64(p, "vqtune_missed_ticks_total", NULL, runtime.missed_ticks);
	prom_family(p, "vqtune_sample_cpu_seconds_total", "counter",
		    "CPU time spent sampling, all ticks");
	prom_double(p, "vqtune_sample_cpu_seconds_total", NULL, runtime.tick_cpu_ns / NS_PER_S);
	prom_family(p, "vqtune_tick_seconds_total", "counter",
		    "Wall time of the ticks (sampling and control), all ticks");
	prom_double(p, "vqtune_tick_seconds_total", NULL, runtime.tick_wall_ns / NS_PER_S);
	prom_family(p, "vqtune_tick_part_seconds_total", "counter",
		    "Wall time of each part of the ticks, all ticks (the rest of "
		    "vqtune_tick_seconds_total is bookkeeping)");
	for (tp = 0; tp < TP_NUM; tp++) {
		const char *v[] = { "part", tick_part_name(tp), NULL };

		prom_double(p, "vqtune_tick_part_seconds_total", v, runtime.part_ns[tp] / NS_PER_S);
	}
	prom_family(p, "vqtune_events_total", "counter", "Journal events recorded");
	prom_u64(p, "vqtune_events_total", NULL, act_events_recorded());
	prom_family(p, "vqtune_changed_knobs", "gauge",
		    "Knob instances vqtune changed and will restore");
	prom_u64(p, "vqtune_changed_knobs", NULL, act_changed_count());
	prom_family(p, "vqtune_devices", "gauge", "Devices seen");
	prom_u64(p, "vqtune_devices", NULL, dev_count());
	prom_family(p, "vqtune_managed_devices", "gauge", "Devices vqtune may write");
	prom_u64(p, "vqtune_managed_devices", NULL, managed);
	prom_family(p, "vqtune_controlled_devices", "gauge",
		    "Devices the policy's laws run on (mode active or advise)");
	prom_u64(p, "vqtune_controlled_devices", NULL, controlled);
}

static void device_families(struct prom *p)
{
	static const struct {
		const char *name, *help;
		enum dctr rx, tx;
	} fam[] = {
		{ "vqtune_device_packets_total", "Packets (rtnl stats64)", DC_RX_PACKETS,
		  DC_TX_PACKETS },
		{ "vqtune_device_bytes_total", "Bytes (rtnl stats64)", DC_RX_BYTES, DC_TX_BYTES },
		{ "vqtune_device_dropped_total", "Dropped packets (rtnl stats64)", DC_RX_DROPPED,
		  DC_TX_DROPPED },
		{ "vqtune_device_errors_total", "Errors (rtnl stats64)", DC_RX_ERRORS,
		  DC_TX_ERRORS },
	};
	struct device *d;
	struct lbl l;
	unsigned int f;

	prom_family(p, "vqtune_device_info", "gauge",
		    "One per device: driver, ifindex, managed (1) or observed (0)");
	dev_for_each(d) {
		char ifx[12];
		const char *v[] = { "device", l.name, "netns", d->ns->name, "driver", d->driver,
				    "ifindex", ifx, "managed", d->managed ? "1" : "0", NULL };

		util_name_display(d->name, l.name, sizeof(l.name));
		snprintf(ifx, sizeof(ifx), "%d", d->ifindex);
		prom_u64(p, "vqtune_device_info", v, 1);
	}
	prom_family(p, "vqtune_device_queues", "gauge", "Active queues");
	dev_for_each(d) {
		dev_labels(&l, d, "rx", -1);
		prom_u64(p, "vqtune_device_queues", l.v, d->n_rx);
		dev_labels(&l, d, "tx", -1);
		prom_u64(p, "vqtune_device_queues", l.v, d->n_tx);
	}
	prom_family(p, "vqtune_device_generation", "gauge",
		    "Queue generation: grows when queue counts change");
	dev_for_each(d) {
		dev_labels(&l, d, NULL, -1);
		prom_u64(p, "vqtune_device_generation", l.v, d->gen);
	}
	for (f = 0; f < ARRAY_SIZE(fam); f++) {
		prom_family(p, fam[f].name, "counter", fam[f].help);
		dev_for_each(d) {
			dev_labels(&l, d, "rx", -1);
			prom_u64(p, fam[f].name, l.v, d->dctr[fam[f].rx]);
			dev_labels(&l, d, "tx", -1);
			prom_u64(p, fam[f].name, l.v, d->dctr[fam[f].tx]);
		}
	}
}

static void queue_families(struct prom *p)
{
	static const struct {
		const char *name, *help;
		enum qctr c;
		bool tx_only;
	} fam[] = {
		{ "vqtune_queue_packets_total", "Per-queue packets (qstats or ethtool -S)",
		  QC_PACKETS, false },
		{ "vqtune_queue_bytes_total", "Per-queue bytes (qstats or ethtool -S)", QC_BYTES,
		  false },
		{ "vqtune_queue_drops_total", "Per-queue drops", QC_DROPS, false },
		{ "vqtune_queue_tx_stop_total", "Times the TX queue was stopped (qstats tx-stop)",
		  QC_TX_STOP, true },
		{ "vqtune_queue_tx_wake_total", "Times the TX queue was woken (qstats tx-wake)",
		  QC_TX_WAKE, true },
	};
	struct device *d;
	struct lbl l;
	unsigned int f, q;
	int dir;

	for (f = 0; f < ARRAY_SIZE(fam); f++) {
		prom_family(p, fam[f].name, "counter", fam[f].help);
		dev_for_each(d) {
			for (dir = fam[f].tx_only ? DIR_TX : DIR_RX; dir <= DIR_TX; dir++) {
				unsigned int n = dir == DIR_TX ? d->n_tx : d->n_rx;
				const struct queue *qs = dir == DIR_TX ? d->txq : d->rxq;

				for (q = 0; q < n; q++) {
					if (!(qs[q].present & (1u << fam[f].c)))
						continue;
					dev_labels(&l, d, dir == DIR_TX ? "tx" : "rx", q);
					prom_u64(p, fam[f].name, l.v, qs[q].ctr[fam[f].c]);
				}
			}
		}
	}
}

static void bql_families(struct prom *p)
{
	static const struct {
		const char *name, *type, *help;
		enum bqlv v;
		double div;	/* to base units; 0: raw */
	} fam[] = {
		{ "vqtune_bql_limit_bytes", "gauge", "BQL limit (dql)", BQL_LIMIT, 0 },
		{ "vqtune_bql_limit_min_bytes", "gauge", "BQL limit_min", BQL_LIMIT_MIN, 0 },
		{ "vqtune_bql_limit_max_bytes", "gauge", "BQL limit_max", BQL_LIMIT_MAX, 0 },
		{ "vqtune_bql_inflight_bytes", "gauge", "BQL inflight bytes", BQL_INFLIGHT, 0 },
		{ "vqtune_bql_hold_time_seconds", "gauge", "BQL hold_time", BQL_HOLD_TIME,
		  MS_PER_S },
		{ "vqtune_bql_stalls_total", "counter", "BQL stall_cnt", BQL_STALL_CNT, 0 },
		{ "vqtune_bql_stall_max_seconds", "gauge", "BQL stall_max", BQL_STALL_MAX,
		  MS_PER_S },
	};
	struct device *d;
	struct lbl l;
	unsigned int f, q;

	for (f = 0; f < ARRAY_SIZE(fam); f++) {
		prom_family(p, fam[f].name, fam[f].type, fam[f].help);
		dev_for_each(d) {
			for (q = 0; q < d->n_tx; q++) {
				const struct queue *tq = &d->txq[q];

				if (!(tq->bql_present & (1u << fam[f].v)))
					continue;
				dev_labels(&l, d, "tx", q);
				if (fam[f].div)
					prom_double(p, fam[f].name, l.v, tq->bql[fam[f].v] / fam[f].div);
				else
					prom_u64(p, fam[f].name, l.v, tq->bql[fam[f].v]);
			}
		}
	}
}

/* The qdisc in front of each TX queue (tcq.h); a queue whose backlog is unknown has none. */
static void qdisc_families(struct prom *p)
{
	static const struct {
		const char *name, *help;
		size_t off;
	} fam[] = {
		{ "vqtune_queue_qdisc_backlog_bytes",
		  "Bytes queued in the qdisc feeding the TX queue (tc qdisc backlog)",
		  offsetof(struct queue, qdisc_backlog_bytes) },
		{ "vqtune_queue_qdisc_qlen", "Packets queued in the qdisc feeding the TX queue",
		  offsetof(struct queue, qdisc_qlen) },
	};
	struct device *d;
	struct lbl l;
	unsigned int f, q;

	for (f = 0; f < ARRAY_SIZE(fam); f++) {
		prom_family(p, fam[f].name, "gauge", fam[f].help);
		dev_for_each(d) {
			for (q = 0; q < d->n_tx; q++) {
				double v = *(const double *)((const char *)&d->txq[q] + fam[f].off);

				if (isnan(v))
					continue;
				dev_labels(&l, d, "tx", q);
				prom_u64(p, fam[f].name, l.v, (uint64_t)v);
			}
		}
	}
}

/*
 * Metric name of vqpair stat @id: vqtune_vqpair_ + its kebab name in snake case, "-ns"
 * becoming "_seconds" (base unit) and counters ending in _total. Returns the divisor to
 * base units (1 or NS_PER_S).
 */
static double vqpair_metric_name(int id, char *out, size_t len)
{
	const char *kebab = vqp_qstat_name(id);
	size_t n = strlen(kebab), i;
	bool ns = n > 3 && !strcmp(kebab + n - 3, "-ns");

	snprintf(out, len, "vqtune_vqpair_%.*s%s%s", (int)(ns ? n - 3 : n), kebab,
		 ns ? "_seconds" : "", vqp_qstat_is_gauge(id) ? "" : "_total");
	for (i = 0; out[i]; i++)
		if (out[i] == '-')
			out[i] = '_';
	return ns ? NS_PER_S : 1;
}

/* Per vqpair queue (either end of a pair): VQPAIR_QSTATS of include/vqpair.h. */
static void vqpair_families(struct prom *p)
{
	static const struct {
		const char *name, *help, *dir;	/* dir: the direction label */
		size_t off;			/* a double of struct vqp_queue, ns */
	} lat[] = {
		{ "vqtune_vqpair_completion_mean_seconds",
		  "vqpair mean TX completion latency over the last interval (absent: none)", "tx",
		  offsetof(struct vqp_queue, compl_mean_ns) },
		{ "vqtune_vqpair_completion_p99_seconds",
		  "vqpair p99 TX completion latency over the last interval, from the log2 histogram "
		  "(absent: none)", "tx", offsetof(struct vqp_queue, compl_p99_ns) },
		{ "vqtune_vqpair_delivery_p99_seconds",
		  "vqpair p99 delivery latency in the driver over the last interval, xmit to the "
		  "receiving stack; direction tx: front to back, rx: back to front (absent: none)",
		  "tx", offsetof(struct vqp_queue, tx_delivery_p99_ns) },
		{ "vqtune_vqpair_delivery_p99_seconds", NULL, "rx",
		  offsetof(struct vqp_queue, rx_delivery_p99_ns) },
	};
	const struct vqp_queue *vq;
	char name[96], help[128];
	struct device *d;
	struct lbl l;
	unsigned int q, f;
	double div;
	int id;

	for (id = 1; id <= VQPAIR_QSTAT_MAX; id++) {
		bool gauge = vqp_qstat_is_gauge(id);

		div = vqpair_metric_name(id, name, sizeof(name));
		snprintf(help, sizeof(help), "vqpair per-queue %s %s%s", vqp_qstat_name(id),
			 gauge ? "(gauge)" : "(counter)", div > 1 ? ", in seconds" : "");
		prom_family(p, name, gauge ? "gauge" : "counter", help);
		dev_for_each(d) {
			for (q = 0; (vq = vqp_queue(d, q)); q++) {
				dev_labels(&l, d, "tx", q);
				if (div > 1)
					prom_double(p, name, l.v, vq->ctr[id] / div);
				else
					prom_u64(p, name, l.v, vq->ctr[id]);
			}
		}
	}
	for (f = 0; f < ARRAY_SIZE(lat); f++) {
		/* a NULL help continues the family above with another direction */
		if (lat[f].help)
			prom_family(p, lat[f].name, "gauge", lat[f].help);
		dev_for_each(d) {
			for (q = 0; (vq = vqp_queue(d, q)); q++) {
				double v = *(const double *)((const char *)vq + lat[f].off);

				if (isnan(v))
					continue;
				dev_labels(&l, d, lat[f].dir, q);
				prom_double(p, lat[f].name, l.v, v / NS_PER_S);
			}
		}
	}
}

/* Knob values in base units: times become seconds. */
static double knob_base(enum knob_id k, uint64_t v, const char **unit)
{
	const char *u = knob_table[k].unit;

	*unit = u;
	if (!strcmp(u, "ns") || !strcmp(u, "us") || !strcmp(u, "ms")) {
		*unit = "seconds";
		return v / (u[0] == 'n' ? NS_PER_S : u[0] == 'u' ? US_PER_S : MS_PER_S);
	}
	return (double)v;
}

static void knob_families(struct prom *p)
{
	static struct knob_inst inst[DEV_MAX_QUEUES];
	struct device *d;
	unsigned int n, i;
	int k, pass;

	for (pass = 0; pass < 2; pass++) {
		const char *fname = pass ? "vqtune_knob_pinned" : "vqtune_knob_value";

		prom_family(p, fname, "gauge", pass ?
			    "1 when the knob is pinned (manual or outside write)" :
			    "Knob value in base units (unit label); times in seconds");
		dev_for_each(d) {
			for (k = 0; k < K_NUM; k++) {
				n = knob_instances(d, k, inst, DEV_MAX_QUEUES);
				for (i = 0; i < n && i < DEV_MAX_QUEUES; i++) {
					struct lbl l;
					const char *unit;
					double v;
					const char *lv[] = { "device", l.name, "netns", d->ns->name,
							     "knob", knob_table[k].name,
							     "instance", inst[i].inst, "unit", NULL,
							     NULL };

					if (!inst[i].has_value)
						continue;
					util_name_display(d->name, l.name, sizeof(l.name));
					v = knob_base(k, inst[i].value, &unit);
					/* the unit labels values, not the pinned flag */
					lv[8] = pass ? NULL : "unit";
					lv[9] = unit;
					if (pass)
						prom_u64(p, fname, lv, act_pinned(d, k, inst[i].inst));
					else
						prom_double(p, fname, lv, v);
				}
			}
		}
	}
}

int view_metrics(char **text, size_t *len)
{
	struct prom p;

	prom_init(&p);
	daemon_families(&p);
	device_families(&p);
	queue_families(&p);
	bql_families(&p);
	qdisc_families(&p);
	vqpair_families(&p);
	knob_families(&p);
	controller_families(&p);
	if (p.err) {
		prom_free(&p);
		return 500;
	}
	*text = p.buf;
	*len = p.len;
	return 200;
}
