// SPDX-License-Identifier: GPL-2.0-only
/*
 * knob: the knob table, each knob's provider attribute, and the instances a device has with
 * their ranges and whether they may be written (knob.h). Reads and writes: knob_io.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dev.h"
#include "knob.h"
#include "knob_prov.h"
#include "netns.h"
#include "nl_ethtool.h"
#include "nl_netdev.h"
#include "sysfs.h"
#include "util.h"
#include "vqp.h"

/* DQL_MAX_LIMIT in include/linux/dynamic_queue_limits.h: (UINT_MAX / 2) - UINT_MAX / 16 */
#define BQL_MAX_LIMIT_BYTES		1879048192ULL
/* hold_time is in ms; past a minute the limit would never shrink in practice */
#define BQL_HOLD_TIME_MAX_MS		60000
/* netdev.yaml: defer-hard-irqs is u32 with max S32_MAX */
#define NAPI_DEFER_MAX			2147483647ULL
/* A GRO flush or IRQ-suspend timer past 1 s only ever adds latency; no tuning wants it */
#define NAPI_TIMEOUT_MAX_NS		1000000000ULL
/* Coalescing delays past 100 ms are outages, not tuning */
#define COALESCE_USECS_MAX		100000
/* ethtool frames counts are u32; drivers cap far below this (virtio_net: ring size) */
#define COALESCE_FRAMES_MAX		65535
/* eth_channels.present bit of combined (bits in declaration order: rx, rx_max, tx, ...) */
#define CHAN_PRESENT_COMBINED		(1u << 4)

/*
 * vqpair knobs take name, unit and range from the UAPI's single table (include/vqpair.h):
 * one address constant per string and one enum constant per bound, usable in the
 * initializer below. Knobs with a standard interface (ring, coalescing) stay unused.
 */
#define VQP_DEF_(id, nm, lo, hi, dflt, u)						\
	static const char vqp_name_##id[] __attribute__((unused)) = nm;		\
	static const char vqp_unit_##id[] __attribute__((unused)) = u;		\
	enum { VQP_MIN_##id = lo, VQP_MAX_##id = hi };
VQPAIR_KNOBS(VQP_DEF_)
#define VQP_KNOB(id, help)								\
	{ vqp_name_##id, vqp_unit_##id, VQP_MIN_##id, VQP_MAX_##id, false, help }

const struct knob_desc knob_table[K_NUM] = {
	[K_BQL_LIMIT_MIN] = { "bql-limit-min", "bytes", 0, BQL_MAX_LIMIT_BYTES, false,
			      "BQL limit_min: dql never lowers the limit below this" },
	[K_BQL_LIMIT_MAX] = { "bql-limit-max", "bytes", 0, BQL_MAX_LIMIT_BYTES, false,
			      "BQL limit_max: dql never raises the limit above this" },
	[K_BQL_HOLD_TIME] = { "bql-hold-time", "ms", 1, BQL_HOLD_TIME_MAX_MS, false,
			      "BQL hold_time: how long slack must persist before dql shrinks" },
	[K_DEFER_HARD_IRQS] = { "defer-hard-irqs", "count", 0, NAPI_DEFER_MAX, false,
				"NAPI defer-hard-irqs: empty polls before IRQs are re-enabled" },
	[K_GRO_FLUSH_TIMEOUT] = { "gro-flush-timeout", "ns", 0, NAPI_TIMEOUT_MAX_NS, false,
				  "NAPI gro-flush-timeout: timer that re-polls instead of an IRQ" },
	[K_IRQ_SUSPEND_TIMEOUT] = { "irq-suspend-timeout", "ns", 0, NAPI_TIMEOUT_MAX_NS, false,
				    "NAPI irq-suspend-timeout: IRQ suspension while busy polling" },
	[K_THREADED] = { "threaded", "bool", 0, 1, false, "NAPI polled in a kthread" },
	[K_RX_USECS] = { "rx-usecs", "us", 0, COALESCE_USECS_MAX, false,
			 "coalesce rx-usecs: delay of an RX interrupt" },
	[K_RX_FRAMES] = { "rx-frames", "frames", 0, COALESCE_FRAMES_MAX, false,
			  "coalesce rx-frames: frames per RX interrupt" },
	[K_TX_USECS] = { "tx-usecs", "us", 0, COALESCE_USECS_MAX, false,
			 "coalesce tx-usecs: delay of a TX completion interrupt" },
	[K_TX_FRAMES] = { "tx-frames", "frames", 0, COALESCE_FRAMES_MAX, false,
			  "coalesce tx-frames: frames per TX completion interrupt" },
	[K_ADAPTIVE_RX] = { "adaptive-rx", "bool", 0, 1, false, "coalesce adaptive-rx (DIM)" },
	[K_ADAPTIVE_TX] = { "adaptive-tx", "bool", 0, 1, false, "coalesce adaptive-tx (DIM)" },
	[K_RX_RING_SIZE] = { "rx-ring-size", "descriptors", 1, UINT32_MAX, true,
			     "ethtool -G rx: RX ring size" },
	[K_TX_RING_SIZE] = { "tx-ring-size", "descriptors", 1, UINT32_MAX, true,
			     "ethtool -G tx: TX ring size" },
	/* min 1: ethnl_set_channels() refuses 0 unless combined channels remain (knob_instances) */
	[K_RX_CHANNELS] = { "rx-channels", "count", 1, UINT32_MAX, true, "ethtool -L rx" },
	[K_TX_CHANNELS] = { "tx-channels", "count", 1, UINT32_MAX, true, "ethtool -L tx" },
	[K_COMBINED_CHANNELS] = { "combined-channels", "count", 1, UINT32_MAX, true,
				  "ethtool -L combined" },
	[K_TX_FULL_MODE] = VQP_KNOB(TX_FULL_MODE,
				    "vqpair: full TX ring 0 stops the queue, 1 drops (and counts)"),
	[K_TX_NAPI] = VQP_KNOB(TX_NAPI, "vqpair: TX completion in NAPI (virtio_net napi_tx)"),
	[K_NAPI_WEIGHT] = VQP_KNOB(NAPI_WEIGHT, "vqpair: NAPI budget per poll"),
	[K_BUSYLOOP_US] = VQP_KNOB(BUSYLOOP_US,
				   "vqpair: backend polls an empty ring this long before sleeping"),
	[K_BACKEND_WEIGHT] = VQP_KNOB(BACKEND_WEIGHT,
				      "vqpair: packets per backend worker run before it yields"),
	[K_ZEROCOPY] = VQP_KNOB(ZEROCOPY, "vqpair: backend passes buffers by reference"),
	[K_ZEROCOPY_MIN_BYTES] = VQP_KNOB(ZEROCOPY_MIN_BYTES,
					  "vqpair: smallest packet sent by zerocopy"),
	[K_ZEROCOPY_MAX_PENDING] = VQP_KNOB(ZEROCOPY_MAX_PENDING,
					    "vqpair: zerocopy buffers outstanding before copying"),
};

/* VQPAIR_KNOB_* of each vqpair knob; 0 for the others */
const int knob_vqp[K_NUM] = {
	[K_TX_FULL_MODE] = VQPAIR_KNOB_TX_FULL_MODE, [K_TX_NAPI] = VQPAIR_KNOB_TX_NAPI,
	[K_NAPI_WEIGHT] = VQPAIR_KNOB_NAPI_WEIGHT, [K_BUSYLOOP_US] = VQPAIR_KNOB_BUSYLOOP_US,
	[K_BACKEND_WEIGHT] = VQPAIR_KNOB_BACKEND_WEIGHT, [K_ZEROCOPY] = VQPAIR_KNOB_ZEROCOPY,
	[K_ZEROCOPY_MIN_BYTES] = VQPAIR_KNOB_ZEROCOPY_MIN_BYTES,
	[K_ZEROCOPY_MAX_PENDING] = VQPAIR_KNOB_ZEROCOPY_MAX_PENDING,
};

const enum bqlv knob_bql[K_NUM] = {
	[K_BQL_LIMIT_MIN] = BQL_LIMIT_MIN, [K_BQL_LIMIT_MAX] = BQL_LIMIT_MAX,
	[K_BQL_HOLD_TIME] = BQL_HOLD_TIME,
};
const int knob_dnapi[K_NUM] = {
	[K_DEFER_HARD_IRQS] = DNAPI_DEFER_HARD_IRQS, [K_GRO_FLUSH_TIMEOUT] = DNAPI_GRO_FLUSH_TIMEOUT,
	[K_IRQ_SUSPEND_TIMEOUT] = -1, [K_THREADED] = DNAPI_THREADED,
};
const enum ndv_napi_knob knob_napi[K_NUM] = {
	[K_DEFER_HARD_IRQS] = NDV_NAPI_DEFER_HARD_IRQS,
	[K_GRO_FLUSH_TIMEOUT] = NDV_NAPI_GRO_FLUSH_TIMEOUT,
	[K_IRQ_SUSPEND_TIMEOUT] = NDV_NAPI_IRQ_SUSPEND_TIMEOUT, [K_THREADED] = NDV_NAPI_THREADED,
};
const enum eth_co knob_co[K_NUM] = {
	[K_RX_USECS] = ETH_CO_RX_USECS, [K_RX_FRAMES] = ETH_CO_RX_FRAMES,
	[K_TX_USECS] = ETH_CO_TX_USECS, [K_TX_FRAMES] = ETH_CO_TX_FRAMES,
	[K_ADAPTIVE_RX] = ETH_CO_ADAPTIVE_RX, [K_ADAPTIVE_TX] = ETH_CO_ADAPTIVE_TX,
};

int knob_by_name(const char *name)
{
	int k;

	for (k = 0; k < K_NUM; k++)
		if (!strcmp(knob_table[k].name, name))
			return k;
	return -1;
}

const char *knob_scope_name(enum knob_scope s)
{
	static const char *const n[] = { "device", "queue", "napi" };

	return n[s];
}

static const char *const knob_prov_names[] = {
	[KP_SYSFS_BQL] = "sysfs-bql", [KP_SYSFS_NAPI] = "sysfs-napi",
	[KP_NETDEV_NAPI] = "netdev-napi", [KP_ETH_COALESCE] = "ethtool-coalesce",
	[KP_ETH_RINGS] = "ethtool-rings", [KP_ETH_CHANNELS] = "ethtool-channels",
	[KP_VQPAIR] = "vqpair",
};

const char *knob_prov_name(enum knob_prov p)
{
	return knob_prov_names[p];
}

bool knob_is_napi(enum knob_id k)
{
	return k >= K_DEFER_HARD_IRQS && k <= K_THREADED;
}

bool knob_napi_value(const struct ndv_napi *n, enum knob_id k, uint64_t *v)
{
	switch (k) {
	case K_DEFER_HARD_IRQS:
		*v = n->defer_hard_irqs;
		return n->has_defer_hard_irqs;
	case K_GRO_FLUSH_TIMEOUT:
		*v = n->gro_flush_timeout_ns;
		return n->has_gro_flush_timeout;
	case K_IRQ_SUSPEND_TIMEOUT:
		*v = n->irq_suspend_timeout_ns;
		return n->has_irq_suspend_timeout;
	case K_THREADED:
		*v = n->threaded;
		return n->has_threaded;
	default:
		return false;
	}
}

/* Per-NAPI netlink is used when any NAPI of the device reports the attribute. */
static bool napi_netlink(const struct device *d, enum knob_id k)
{
	unsigned int i;
	uint64_t v;

	if (!d->ns->ndv)
		return false;
	for (i = 0; i < d->n_napi; i++)
		if (knob_napi_value(&d->napi[i], k, &v))
			return true;
	return false;
}

static int rxq_of_napi(const struct device *d, uint32_t id)
{
	unsigned int q;

	for (q = 0; q < d->n_rx; q++)
		if (d->rxq[q].napi_id == id)
			return q;
	return -1;
}

static void inst_init(struct knob_inst *ki, enum knob_id k, enum knob_scope s,
		      enum knob_prov p)
{
	memset(ki, 0, sizeof(*ki));
	ki->k = k;
	ki->scope = s;
	ki->prov = p;
	ki->queue = -1;
	ki->min = knob_table[k].min;
	ki->max = knob_table[k].max;
}

void knob_napi_inst(enum knob_id k, uint32_t napi_id, int queue, struct knob_inst *out)
{
	inst_init(out, k, KS_NAPI, KP_NETDEV_NAPI);
	out->napi_id = napi_id;
	out->queue = queue;
	snprintf(out->inst, sizeof(out->inst), "napi-%u", napi_id);
}

bool knob_eth_value(const struct device *d, enum knob_id k, enum knob_prov *p, uint64_t *v,
		    uint64_t *max)
{
	const struct eth_rings *r = &d->rings;
	const struct eth_channels *c = &d->ch;

	switch (k) {
	case K_RX_USECS ... K_ADAPTIVE_TX:
		*p = KP_ETH_COALESCE;
		*v = d->co.val[knob_co[k]];
		return !d->co_err && (d->co.present & (1u << knob_co[k]));
	case K_RX_RING_SIZE:
	case K_TX_RING_SIZE: {
		bool rx = k == K_RX_RING_SIZE;
		/* a ring is settable when the driver reports a maximum above zero */
		uint32_t need = rx ? 0x3 : 0xc;

		*p = KP_ETH_RINGS;
		*v = rx ? r->rx : r->tx;
		*max = rx ? r->rx_max : r->tx_max;
		return !d->rings_err && (r->present & need) == need && *max;
	}
	case K_RX_CHANNELS:
	case K_TX_CHANNELS:
	case K_COMBINED_CHANNELS: {
		int f = k == K_RX_CHANNELS ? 0 : k == K_TX_CHANNELS ? 2 : 4;
		const uint32_t *vals = &c->rx;

		*p = KP_ETH_CHANNELS;
		*v = vals[f];
		*max = vals[f + 1];
		return !d->ch_err && (c->present & (3u << f)) == (3u << f) && *max;
	}
	default:
		return false;
	}
}

/*
 * Least rx-/tx-channels count the kernel takes: ethnl_set_channels() (net/ethtool/
 * channels.c) refuses a request that "would result in no RX or TX channel being
 * configured", i.e. 0 RX (or TX) with 0 combined. With combined channels left, 0 is fine.
 */
static uint64_t chan_min(const struct device *d, enum knob_id k)
{
	bool combined = (d->ch.present & CHAN_PRESENT_COMBINED) && d->ch.combined;

	return (k == K_RX_CHANNELS || k == K_TX_CHANNELS) && combined ? 0 : knob_table[k].min;
}

/*
 * vqpair (rtnl kind "vqpair") answers ethtool -g and -C from knobs of its own table
 * (include/vqpair.h), narrower than the generic ranges: tx-ring-size 16..4096, tx-/rx-usecs
 * 0..10000, tx-/rx-frames 1..1024; and its RX ring is fixed at its size, 256
 * (vqp_set_ringparam()). @ki gets that range, so a value outside is refused before the
 * kernel, with the range in the words, not with the module's bare "out of range".
 */
static void vqp_eth_range(const struct device *d, struct knob_inst *ki)
{
	static const struct {
		enum knob_id k;
		uint64_t min, max;
	} r[] = {
		{ K_TX_RING_SIZE, VQP_MIN_TX_RING_SIZE, VQP_MAX_TX_RING_SIZE },
		{ K_TX_USECS, VQP_MIN_TX_USECS, VQP_MAX_TX_USECS },
		{ K_TX_FRAMES, VQP_MIN_TX_FRAMES, VQP_MAX_TX_FRAMES },
		{ K_RX_USECS, VQP_MIN_RX_USECS, VQP_MAX_RX_USECS },
		{ K_RX_FRAMES, VQP_MIN_RX_FRAMES, VQP_MAX_RX_FRAMES },
	};
	size_t i;

	if (strcmp(d->kind, VQPAIR_LINK_KIND))
		return;
	if (ki->k == K_RX_RING_SIZE)
		ki->min = ki->max;
	for (i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		if (r[i].k == ki->k) {
			ki->min = r[i].min;
			ki->max = r[i].max;
		}
	}
}

/* The driver's constraint on @k (knob.h enum knob_rule says where each comes from). */
static enum knob_rule ring_rule(const struct device *d, enum knob_id k)
{
	bool ring = k == K_RX_RING_SIZE || k == K_TX_RING_SIZE;

	return ring && !strcmp(d->driver, VIRTIO_NET_DRIVER) && d->virtio_packed != 1 ?
		KR_POW2 : KR_NONE;
}

unsigned int knob_instances(const struct device *d, enum knob_id k, struct knob_inst *out,
			    unsigned int max)
{
	unsigned int n = 0, i;
	struct knob_inst ki;
	uint64_t v, emax = 0;
	enum knob_prov p;

	if (knob_vqp[k]) {
		if (!vqp_is_front(d))
			return 0;
		for (i = 0; i < vqp_queue_count(d); i++) {
			const struct vqp_queue *vq = vqp_queue(d, i);

			if (!vq)
				continue;
			if (n < max) {
				inst_init(&ki, k, KS_QUEUE, KP_VQPAIR);
				ki.queue = i;
				snprintf(ki.inst, sizeof(ki.inst), "tx-%u", i);
				ki.has_value = true;
				ki.value = vq->knob[knob_vqp[k]];
				out[n] = ki;
			}
			n++;
		}
	} else if (k <= K_BQL_HOLD_TIME) {
		for (i = 0; i < d->n_tx; i++) {
			if (!(d->txq[i].bql_present & (1u << knob_bql[k])))
				continue;
			if (n < max) {
				inst_init(&ki, k, KS_QUEUE, KP_SYSFS_BQL);
				ki.queue = i;
				snprintf(ki.inst, sizeof(ki.inst), "tx-%u", i);
				ki.has_value = true;
				ki.value = d->txq[i].bql[knob_bql[k]];
				out[n] = ki;
			}
			n++;
		}
	} else if (knob_is_napi(k) && napi_netlink(d, k)) {
		for (i = 0; i < d->n_napi; i++) {
			if (!knob_napi_value(&d->napi[i], k, &v))
				continue;
			if (n < max) {
				knob_napi_inst(k, d->napi[i].id, rxq_of_napi(d, d->napi[i].id), &ki);
				ki.has_value = true;
				ki.value = v;
				out[n] = ki;
			}
			n++;
		}
	} else if (knob_is_napi(k)) {
		struct knob_inst dev;

		if (!knob_device_napi(d, k, &dev)) {
			if (max)
				out[0] = dev;
			n = 1;
		}
	} else if (knob_eth_value(d, k, &p, &v, &emax)) {
		if (max) {
			inst_init(&out[0], k, KS_DEVICE, p);
			out[0].has_value = true;
			out[0].value = v;
			if (emax)
				out[0].max = emax;
			out[0].min = chan_min(d, k);
			out[0].rule = ring_rule(d, k);
			vqp_eth_range(d, &out[0]);
		}
		n = 1;
	}
	return n;
}

int knob_device_napi(const struct device *d, enum knob_id k, struct knob_inst *out)
{
	int f = knob_is_napi(k) ? knob_dnapi[k] : -1;

	if (f < 0 || !(d->dnapi_present & (1u << f)))
		return -ENOENT;
	inst_init(out, k, KS_DEVICE, KP_SYSFS_NAPI);
	out->has_value = true;
	out->value = d->dnapi[f];
	return 0;
}

int knob_find(const struct device *d, enum knob_id k, const char *inst, struct knob_inst *out)
{
	struct knob_inst all[DEV_MAX_QUEUES];
	unsigned int n, i;

	n = knob_instances(d, k, all, DEV_MAX_QUEUES);
	for (i = 0; i < n && i < DEV_MAX_QUEUES; i++) {
		if (!strcmp(all[i].inst, inst)) {
			*out = all[i];
			return 0;
		}
	}
	return -ENOENT;
}

/* ethtool operation behind a provider, or -1 for the providers that are not ethtool's */
static int eth_op_of(enum knob_prov p)
{
	switch (p) {
	case KP_ETH_COALESCE:
		return ETH_OP_COALESCE;
	case KP_ETH_RINGS:
		return ETH_OP_RINGS;
	case KP_ETH_CHANNELS:
		return ETH_OP_CHANNELS;
	default:
		return -1;
	}
}

/*
 * net-sysfs.c's threaded store refuses a device with no NAPI (EOPNOTSUPP). Said only of a
 * veth, whose NAPI exists exactly while it is up with GRO or XDP on: another driver may have
 * NAPIs the netdev dump does not list (a TX-only one has no id), so its write tells.
 * @none: the device is known to have no NAPI.
 */
static bool threaded_refused(const struct device *d, const struct knob_inst *ki, bool none)
{
	return none && ki->k == K_THREADED && ki->prov == KP_SYSFS_NAPI &&
	       !strcmp(d->driver, "veth");
}

static const char threaded_no_napi[] = "the kernel refuses threaded on a device with no NAPI "
	"instance (the netdev family lists none; a veth has one while up with GRO or XDP on)";

/* knob_writable_from() with what is known of the device's NAPIs in @napi_none */
static int writable_verdict(const struct device *d, const struct knob_inst *ki, int probe_err,
			    bool napi_none, char *why, size_t whylen)
{
	/* what the driver cannot change, and the ethtool_ops member it lacks */
	static const char *const what[] = {
		[ETH_OP_COALESCE] = "its interrupt coalescing (no ethtool set_coalesce)",
		[ETH_OP_RINGS] = "its ring sizes (no ethtool set_ringparam)",
		[ETH_OP_CHANNELS] = "its channel counts (no ethtool set_channels)",
	};
	int op = eth_op_of(ki->prov);

	why[0] = '\0';
	if (!d->managed) {
		snprintf(why, whylen, "device not managed: observed read-only");
		return 0;
	}
	/* a verdict apart from its provider's, so knob_ro() asks for it each time */
	if (threaded_refused(d, ki, napi_none)) {
		snprintf(why, whylen, "%s", threaded_no_napi);
		return 0;
	}
	if (op < 0 || probe_err != -EOPNOTSUPP)
		return 1;
	snprintf(why, whylen, "the %s driver cannot change %s",
		 d->driver[0] ? d->driver : d->kind[0] ? d->kind : "device's", what[op]);
	return 0;
}

int knob_writable_from(const struct device *d, const struct knob_inst *ki, int probe_err,
		       char *why, size_t whylen)
{
	return writable_verdict(d, ki, probe_err, dev_napi_none(d), why, whylen);
}

/* NAPIs of one device, counted from a NAPI_GET dump */
struct napi_count {
	int ifindex;
	unsigned int n;
};

static int napi_count_cb(const struct ndv_napi *n, void *arg)
{
	struct napi_count *c = arg;

	c->n += (int)n->ifindex == c->ifindex;
	return 0;
}

int knob_set_probe(struct device *d, const struct knob_inst *ki)
{
	char err[256];
	int op = eth_op_of(ki->prov);

	/* no ethtool socket: no ethtool instance either, nothing to ask */
	if (d->managed && op >= 0 && d->ns->eth)
		return eth_set_probe(d->ns->eth, d->ifindex, op, err, sizeof(err));
	return 0;
}

/* The kernel's answer now: @d has no NAPI (a NAPI_GET dump of it found none). A failed
 * dump, or a kernel without NAPI_GET (before 6.8), cannot tell: false. */
static bool napi_none_now(struct device *d)
{
	struct napi_count napis = { .ifindex = d->ifindex };

	return d->ns->ndv && !ndv_napi_dump(d->ns->ndv, d->ifindex, napi_count_cb, &napis) &&
	       !napis.n;
}

int knob_writable_probed(struct device *d, const struct knob_inst *ki, int probe_err,
			 char *why, size_t whylen)
{
	bool none = dev_napi_none(d);

	/* no NAPI at the last sample: ask again, GRO may have come on since */
	if (d->managed && threaded_refused(d, ki, none))
		none = napi_none_now(d);
	return writable_verdict(d, ki, probe_err, none, why, whylen);
}

bool knob_refused_no_napi(struct device *d, const struct knob_inst *ki, int err, char *why,
			  size_t whylen)
{
	/* the last sample may still list the NAPI that GRO off has just deleted: ask */
	if (err != -EOPNOTSUPP || !threaded_refused(d, ki, true) || !napi_none_now(d))
		return false;
	snprintf(why, whylen, "%s", threaded_no_napi);
	return true;
}

int knob_writable(struct device *d, const struct knob_inst *ki, char *why, size_t whylen)
{
	return knob_writable_probed(d, ki, knob_set_probe(d, ki), why, whylen);
}
