/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vqp: the vqpair generic netlink family (include/vqpair.h, family "vqpair" version 1) as a
 * provider: per-queue counters, gauges, knob values and the completion latency histogram
 * of every device whose rtnl kind is "vqpair", and the knobs that have no standard
 * interface (KNOB_SET). One socket per watched namespace, opened when the first vqpair
 * device of that namespace is sampled and closed with the last one; a kernel without the
 * family (module not loaded) means "no vqpair devices", never an error, and is asked again
 * when a vqpair device appears.
 *
 * Counters are u64 and never wrap (rate.h): one going backwards, or the pair's queue count
 * changing, makes that interval invalid. Gauges (zerocopy-pending, zerocopy-pending-peak,
 * tx-inflight-peak-bytes) are taken as they are.
 */
#ifndef VQ_VQP_H
#define VQ_VQP_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rate.h"
#include "vqpair.h"

struct device;
struct nlmsghdr;
struct vqp_dev;

/* The per-queue log2(ns) latency histograms of include/vqpair.h, by what they time. */
enum vqp_hist {
	VQP_HIST_COMPL,		/* LAT_HIST: front xmit -> TX completion reaped */
	VQP_HIST_TX_DELIVERY,	/* TX_DELIVERY_HIST: front xmit -> back's stack */
	VQP_HIST_RX_DELIVERY,	/* RX_DELIVERY_HIST: back xmit -> front's stack */
	VQP_HIST_NUM,
};

struct vqp_queue {
	bool valid;				/* rates valid this interval (no reset/new gen) */
	uint64_t ctr[VQPAIR_QSTAT_MAX + 1];	/* raw, indexed by VQPAIR_QSTAT_* */
	double rate[VQPAIR_QSTAT_MAX + 1];	/* per second, NAN when invalid; gauges (ZC_PENDING, ZC_PENDING_PEAK, TX_INFLIGHT_PEAK): the value */
	uint32_t knob[VQPAIR_KNOB_MAX + 1];	/* current values, indexed by VQPAIR_KNOB_* */
	double compl_mean_ns;			/* completion-sum-ns delta / completion-count delta over the interval, NAN when none */
	double compl_p99_ns;			/* p99 of the LAT_HIST delta over the interval (log2 buckets; interpolate inside the bucket), NAN when none */
	double tx_delivery_p99_ns;		/* p99 of the TX_DELIVERY_HIST delta, NAN when none or an older module */
	double rx_delivery_p99_ns;		/* p99 of the RX_DELIVERY_HIST delta, likewise */
};

/* NULL: not a vqpair device, not sampled yet, or no such queue */
const struct vqp_queue *vqp_queue(const struct device *d, unsigned int q);
/* True when @d is the FRONT (driver side) of its pair; false for the back or unknown. */
bool vqp_is_front(const struct device *d);
/* True when @d is known to be the BACK (backend side) of its pair. */
bool vqp_is_back(const struct device *d);
/* For the BACK of a pair: its front's name (in the front's namespace); NULL otherwise. */
const char *vqp_front_name(const struct device *d);
/* Queue pairs of @d's pair (1..VQPAIR_MAX_QUEUES), 0 when not sampled / not vqpair. */
unsigned int vqp_queue_count(const struct device *d);

/* kebab name of VQPAIR_QSTAT_@id ("tx-packets"), NULL outside 1..VQPAIR_QSTAT_MAX */
const char *vqp_qstat_name(int id);
/* true for the gauges (zerocopy-pending, zerocopy-pending-peak, tx-inflight-peak-bytes) */
bool vqp_qstat_is_gauge(int id);
/* kebab name of VQPAIR_KNOB_@id ("busyloop-us"), NULL outside 1..VQPAIR_KNOB_MAX */
const char *vqp_knob_name(int id);

/*
 * Sample @d once (a tick): when its kind is "vqpair", one QSTATS_GET dump for its ifindex
 * (and PAIR_GET the first time, to learn front or back). Does nothing for other devices.
 * Failures are logged once per change of state and leave the previous sample in place.
 */
void vqp_sample(struct device *d);
/* Free what vqp_sample() attached to a device (dev_del). NULL is fine. */
void vqp_dev_free(struct vqp_dev *v);

/*
 * Read knob VQPAIR_KNOB_@knob of queue @q of @d from the kernel now (one QSTATS_GET dump);
 * the value is a u32 within the VQPAIR_KNOBS range. Returns 0, -ENODEV (not a sampled
 * vqpair), -ENOENT (no such queue, message in @err) or -errno.
 */
int vqp_knob_read(struct device *d, unsigned int q, int knob, uint32_t *v, char *err,
		  size_t errlen);
/*
 * KNOB_SET one knob of queue @q of @d (needs CAP_NET_ADMIN; the kernel's policy checks the
 * range of VQPAIR_KNOBS). Returns 0 or -errno with the kernel's extack text in @err.
 */
int vqp_knob_write(struct device *d, unsigned int q, int knob, uint32_t v, char *err,
		   size_t errlen);

/* ---- exposed for unit tests ---- */

/* One QSTATS_GET reply message. */
struct vqp_qmsg {
	uint32_t ifindex;			/* the FRONT's, whichever end was asked */
	uint32_t queue;
	uint32_t knob_present;			/* bit per VQPAIR_KNOB_* sent */
	uint32_t knob[VQPAIR_KNOB_MAX + 1];
	uint64_t stat_present;			/* bit per VQPAIR_QSTAT_* sent */
	uint64_t ctr[VQPAIR_QSTAT_MAX + 1];
	bool has_hist[VQP_HIST_NUM];		/* the attribute was sent */
	uint64_t hist[VQP_HIST_NUM][VQPAIR_LAT_BUCKETS];	/* packets per log2(ns) bucket */
};

/* One PAIR_GET reply. */
struct vqp_pair_info {
	uint32_t ifindex;			/* the FRONT */
	uint32_t peer_ifindex;			/* the back, 0 when absent */
	uint32_t pair_id;
	uint32_t num_queues;
	char ifname[IFNAMSIZ];			/* the FRONT's name, "" when absent */
};

/*
 * Parse one reply (genlmsghdr + attributes). Unknown attributes are skipped; a known one of
 * the wrong size, or a missing IFINDEX/QUEUE_ID (QSTATS) or IFINDEX/NUM_QUEUES (PAIR),
 * gives -EBADMSG.
 */
int vqp_parse_qstats(const struct nlmsghdr *nlh, struct vqp_qmsg *out);
int vqp_parse_pair(const struct nlmsghdr *nlh, struct vqp_pair_info *out);

/*
 * Quantile @p (0 < p < 1) in ns of a log2 histogram: bucket 0 holds [0, 2) ns, bucket i
 * [2^i, 2^(i+1)) ns, the last one everything from 2^31 (taken as [2^31, 2^32)). Linear
 * interpolation inside the bucket holding the rank p * total. NAN when the total is 0.
 */
double vqp_hist_quantile(const uint64_t hist[VQPAIR_LAT_BUCKETS], double p);

/* What a queue keeps between two readings. */
struct vqp_track {
	struct rate_ctr rc[VQPAIR_QSTAT_MAX + 1];
	uint64_t hist[VQP_HIST_NUM][VQPAIR_LAT_BUCKETS];
	bool have_hist[VQP_HIST_NUM];
	uint32_t hist_gen[VQP_HIST_NUM];
};

/*
 * Turn reading @m, taken in queue generation @gen @dt_ns after the previous one, into @q
 * (counters, rates, gauges, knobs, completion mean, completion and delivery p99 over the
 * interval) and keep it
 * in @t as the next reference. @q->valid is false on the first reading, a reset of any
 * counter or histogram bucket, a new generation, or dt_ns == 0.
 */
void vqp_queue_feed(struct vqp_queue *q, struct vqp_track *t, const struct vqp_qmsg *m,
		    uint32_t gen, uint64_t dt_ns);

#endif
