// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fnmatch.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <linux/virtio_config.h>
#include <netlink/route/link.h>

#include "act.h"
#include "dev.h"
#include "ethstats.h"
#include "log.h"
#include "netdev_ids.h"
#include "netns.h"
#include "nl_ethtool.h"
#include "nl_netdev.h"
#include "rtnl_stats.h"
#include "runtime.h"
#include "sample.h"
#include "sysfs.h"
#include "tcq.h"
#include "util.h"
#include "vqp.h"

/*
 * An observed device (read-only: not in a --netns namespace nor matched by --manage) only
 * feeds the views and /metrics, and nothing acts on it: it is sampled every 10 s, where a
 * managed one is sampled every tick. So is the back of a vqpair, managed or not: its pair
 * is controlled through its front, whose sample holds the pair's queue stats (the same
 * from either end), and nothing reads the back's every tick (sample_slow()). A namespace
 * where nothing is sampled every tick is not read in between but for its link refresh
 * (links_stale()), and a tick that reads nothing costs next to nothing (a non-blocking
 * read of each namespace's settings news); under emulation a namespace's dumps are ~2 ms
 * of a vCPU per tick (docs/bench.md, the tick by part). A new device is sampled by the
 * tick that finds it, or the next.
 */
#define SMP_OBSERVED_NS		(10 * NSEC_PER_SEC)
/*
 * ethtool settings change rarely. In a namespace with the ethtool family's settings news
 * (ns->ethmon, nl_ethtool.h: every change made through ethtool netlink or the ioctl is
 * announced), a managed device's are re-read by the tick after news of a change, after our
 * own writes, after new queue counts, and at least every SMP_NEWS_SAFETY_NS (a driver's own
 * changes send no news); without news, every second (SMP_ETHTOOL_REFRESH_NS), so an
 * outside writer is seen within about two ticks. Periods are kept by read_due(). The
 * device-wide NAPI sysfs values (dnapi[]) send no news: a managed device's are read every
 * SMP_ETHTOOL_REFRESH_NS. A slow device's (sample_slow()) are re-read at each of its
 * samples, every SMP_OBSERVED_NS.
 */
#define SMP_ETHTOOL_REFRESH_NS	NSEC_PER_SEC
/*
 * A device's queue layout (its queue counts from sysfs, and the NAPI serving each queue
 * from the netdev queue dump) changes only when it is reconfigured. A managed device's is
 * re-read after a channels change (settings news), a link notification in its namespace,
 * a qstats queue beyond its counts, a change in its NAPI ids (the NAPI dump runs every
 * tick), and at least every SMP_NEWS_SAFETY_NS; in a namespace without settings news,
 * every tick. Under emulation, reading settings and layout every tick took ~1 ms of a
 * 6.9 ms tick (docs/bench.md, "Settings on news").
 */
#define SMP_NEWS_SAFETY_NS	(10 * NSEC_PER_SEC)
/*
 * Link changes arrive as notifications and trigger a full link dump (netns_drain_mon()), and
 * a lost one (ENOBUFS) triggers one too; this periodic re-dump is only the safety net behind
 * both. A dump builds and parses every attribute of every link (~4 ms of a TCG vCPU for two
 * namespaces of two devices each), so it comes once a minute.
 */
#define SMP_LINK_REFRESH_NS	(60 * NSEC_PER_SEC)

static const char *const *manage_globs;
static unsigned int n_manage_globs;
static struct ets_stats ets_buf;	/* big: one, reused */
static uint64_t lap;			/* runtime_lap(): start of the part being timed */

/* Time from here on belongs to no part (the tick's total keeps it). */
static void lap_restart(void)
{
	lap = util_now_ns(CLOCK_MONOTONIC);
}

void smp_set_manage(const char *const *globs, unsigned int n)
{
	manage_globs = globs;
	n_manage_globs = n;
}

static bool is_managed(const struct device *d)
{
	unsigned int i;

	if (d->flags & IFF_LOOPBACK)
		return false;
	/* devices in namespaces the operator named are the ones to tune */
	if (d->ns != netns_at(0))
		return true;
	for (i = 0; i < n_manage_globs; i++)
		if (!fnmatch(manage_globs[i], d->name, 0))
			return true;
	return false;
}

static void read_driver(struct device *d)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr = { 0 };

	memcpy(ifr.ifr_name, d->name, IFNAMSIZ);
	ifr.ifr_data = (void *)&info;
	if (ioctl(d->ns->ioctl_fd, SIOCETHTOOL, &ifr) == 0)
		snprintf(d->driver, sizeof(d->driver), "%.*s", (int)sizeof(info.driver) - 1,
			 info.driver);
	else
		snprintf(d->driver, sizeof(d->driver), "%s", d->kind);
	/* the ring layout decides virtio_net's ring-size rule (knob.h KR_POW2) */
	if (!strcmp(d->driver, VIRTIO_NET_DRIVER)) {
		int r = sfs_virtio_feature(d->ns->sysfs, d->name, VIRTIO_F_RING_PACKED);

		d->virtio_packed = r < 0 ? -1 : r;
	}
}

/* The device-wide NAPI sysfs values (no news of their changes: read on a clock). */
static void dnapi_refresh(struct device *d)
{
	d->dnapi_read_ns = util_now_ns(CLOCK_MONOTONIC);
	sfs_dnapi_read(&d->sfs, d->ns->sysfs, d->name, d->dnapi, &d->dnapi_present);
}

/* The ethtool settings: coalesce, rings, channels. */
static void eth_refresh(struct device *d)
{
	char err[256];

	d->eth_read_ns = util_now_ns(CLOCK_MONOTONIC);
	d->eth_stale = false;
	if (!d->ns->eth) {
		d->co_err = d->rings_err = d->ch_err = -EOPNOTSUPP;
		return;
	}
	/* a driver without the get operation (lo has none of the three) never grows one */
	if (d->co_err != -EOPNOTSUPP)
		d->co_err = eth_coalesce_get(d->ns->eth, d->ifindex, &d->co, err, sizeof(err));
	if (d->rings_err != -EOPNOTSUPP)
		d->rings_err = eth_rings_get(d->ns->eth, d->ifindex, &d->rings, err, sizeof(err));
	if (d->ch_err != -EOPNOTSUPP)
		d->ch_err = eth_channels_get(d->ns->eth, d->ifindex, &d->ch, err, sizeof(err));
}

static void link_update(struct netns *ns, struct rtnl_link *l, bool stats)
{
	static const rtnl_link_stat_id_t sid[DC_NUM] = {
		[DC_RX_PACKETS] = RTNL_LINK_RX_PACKETS, [DC_TX_PACKETS] = RTNL_LINK_TX_PACKETS,
		[DC_RX_BYTES] = RTNL_LINK_RX_BYTES, [DC_TX_BYTES] = RTNL_LINK_TX_BYTES,
		[DC_RX_DROPPED] = RTNL_LINK_RX_DROPPED, [DC_TX_DROPPED] = RTNL_LINK_TX_DROPPED,
		[DC_RX_ERRORS] = RTNL_LINK_RX_ERRORS, [DC_TX_ERRORS] = RTNL_LINK_TX_ERRORS,
	};
	int ifindex = rtnl_link_get_ifindex(l);
	const char *name = rtnl_link_get_name(l), *kind = rtnl_link_get_type(l);
	struct device *d = dev_lookup(ns, ifindex);
	char shown[4 * IFNAMSIZ + 1];
	bool fresh = false;
	unsigned int n_tx, n_rx;
	int i;

	if (!name)
		return;
	if (!d) {
		d = dev_add(ns, ifindex);
		if (!d)
			return;
		fresh = true;
		d->due = true;		/* never sampled: the tick that found it samples it */
	} else if (strcmp(d->name, name)) {
		char old[4 * IFNAMSIZ + 1];

		util_name_display(d->name, old, sizeof(old));
		util_name_display(name, shown, sizeof(shown));
		log_info("netns '%s' ifindex %d renamed %s -> %s", ns->name, ifindex, old, shown);
	}
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->kind, sizeof(d->kind), "%s", kind ? kind : "");
	d->flags = rtnl_link_get_flags(l);
	d->mtu = rtnl_link_get_mtu(l);
	d->operstate = rtnl_link_get_operstate(l);
	d->managed = is_managed(d);
	d->seen = true;
	if (fresh) {
		read_driver(d);
		dnapi_refresh(d);
		eth_refresh(d);
		util_name_display(name, shown, sizeof(shown));
		/* '' is the daemon's own namespace; lo and a few virtual kinds name no driver */
		log_info("netns '%s' ifindex %d: %s (%s) appeared%s", ns->name, ifindex, shown,
			 d->driver[0] ? d->driver : "no driver",
			 d->managed ? ", managed" : ", observed read-only");
		/* later ticks keep the counts current (ns_tick) */
		n_tx = n_rx = 0;
		if (!sfs_queue_counts(&d->sfs, ns->sysfs, d->name, &n_tx, &n_rx))
			dev_set_queues(d, n_tx, n_rx);
	}
	if (stats && d->due)
		for (i = 0; i < DC_NUM; i++)
			d->dctr[i] = rtnl_link_get_stat(l, sid[i]);
}

static int links_sync(struct netns *ns, bool stats)
{
	struct nl_cache *cache;
	struct nl_object *o;
	struct device *d, *next;
	int ret;

	ret = rtnl_link_alloc_cache(ns->rt, AF_UNSPEC, &cache);
	if (ret < 0) {
		log_warn("netns '%s': link dump failed: %s", ns->name, nl_geterror(ret));
		return -EIO;
	}
	/* a link notification may be a reconfiguration (down/up makes new NAPIs): the
	 * devices' queue layouts are re-read by their next samples */
	dev_for_each(d)
		if (d->ns == ns)
			d->seen = false, d->layout_stale = true;
	for (o = nl_cache_get_first(cache); o; o = nl_cache_get_next(o))
		link_update(ns, (struct rtnl_link *)o, stats);
	nl_cache_free(cache);
	ns->links_ns = util_now_ns(CLOCK_MONOTONIC);
	for (d = dev_first(); d; d = next) {
		char shown[4 * IFNAMSIZ + 1];

		next = d->next;
		if (d->ns != ns || d->seen)
			continue;
		util_name_display(d->name, shown, sizeof(shown));
		log_info("netns '%s' ifindex %d: %s is gone", ns->name, d->ifindex, shown);
		dev_del(d);
	}
	ns->resync = false;
	return 0;
}

int smp_discover(struct netns *ns)
{
	return links_sync(ns, false);
}

static int qstats_cb(const struct ndv_qstats *qs, void *arg)
{
	struct device *d = dev_lookup(arg, qs->ifindex);
	bool tx = qs->type == VQ_NETDEV_QUEUE_TYPE_TX;
	struct queue *q;

	if (!d || !d->due)
		return 0;
	if (qs->id >= (tx ? d->n_tx : d->n_rx)) {
		/* more queues than counted: count again (not past what we keep of them) */
		if (qs->id < DEV_MAX_QUEUES)
			d->layout_stale = true;
		return 0;
	}
	q = tx ? &d->txq[qs->id] : &d->rxq[qs->id];
	q->src = QSRC_QSTATS;
#define TAKE(qc, qsx)							\
	do {								\
		if (qs->present & (1u << (qsx))) {			\
			q->ctr[qc] = qs->val[qsx];			\
			q->present |= 1u << (qc);			\
		}							\
	} while (0)
	if (tx) {
		TAKE(QC_PACKETS, NDV_QS_TX_PACKETS);
		TAKE(QC_BYTES, NDV_QS_TX_BYTES);
		TAKE(QC_DROPS, NDV_QS_TX_HW_DROPS);
		TAKE(QC_TX_STOP, NDV_QS_TX_STOP);
		TAKE(QC_TX_WAKE, NDV_QS_TX_WAKE);
	} else {
		TAKE(QC_PACKETS, NDV_QS_RX_PACKETS);
		TAKE(QC_BYTES, NDV_QS_RX_BYTES);
		TAKE(QC_DROPS, NDV_QS_RX_HW_DROPS);
	}
#undef TAKE
	return 0;
}

/* Append NAPI @n to @d's list; 0 or -ENOMEM. */
static int napi_take(struct device *d, const struct ndv_napi *n)
{
	struct ndv_napi *grown;

	grown = realloc(d->napi, (d->n_napi + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	d->napi = grown;
	d->napi[d->n_napi++] = *n;
	return 0;
}

static int napi_cb(const struct ndv_napi *n, void *arg)
{
	struct device *d = dev_lookup(arg, n->ifindex);

	return d && d->due ? napi_take(d, n) : 0;
}

/* Note which NAPI serves queue @nq of @d, a device whose layout is being read. */
static void queue_take(struct device *d, const struct ndv_queue *nq)
{
	bool tx = nq->type == VQ_NETDEV_QUEUE_TYPE_TX;

	if (d->layout_now && nq->id < (tx ? d->n_tx : d->n_rx))
		(tx ? d->txq : d->rxq)[nq->id].napi_id = nq->napi_id;
}

static int queue_cb(const struct ndv_queue *nq, void *arg)
{
	struct device *d = dev_lookup(arg, nq->ifindex);

	if (d && d->due)
		queue_take(d, nq);
	return 0;
}

static int napi_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct ndv_napi *)a)->id, y = ((const struct ndv_napi *)b)->id;

	return x < y ? -1 : x > y;
}

/* A hash of @d's NAPI ids (FNV-1a over them, in ascending order: netdev_sample() sorts). */
static uint32_t napi_sig(const struct device *d)
{
	uint32_t h = 2166136261u;
	unsigned int i;

	for (i = 0; i < d->n_napi; i++)
		h = (h ^ d->napi[i].id) * 16777619u;
	return h;
}

/* @d's queue layout is read by this tick: forget which NAPI serves each queue. */
static void layout_begin(struct device *d)
{
	unsigned int q;

	d->layout_now = true;
	for (q = 0; q < d->n_rx; q++)
		d->rxq[q].napi_id = 0;
	for (q = 0; q < d->n_tx; q++)
		d->txq[q].napi_id = 0;
}

/*
 * qstats and NAPIs of the due devices of @ns, and the queue -> NAPI map of those whose
 * layout this tick reads: the ones ns_tick() chose, and any whose NAPI ids changed.
 */
static void netdev_sample(struct netns *ns)
{
	struct device *d;
	bool layout = false, listed;
	uint32_t sig;

	dev_for_each(d) {
		if (d->ns != ns || !d->due)
			continue;
		d->n_napi = 0;
		d->napi_listed = false;
	}
	if (!ns->ndv)
		return;
	ndv_qstats_dump(ns->ndv, 0, qstats_cb, ns);
	listed = !ndv_napi_dump(ns->ndv, 0, napi_cb, ns);
	dev_for_each(d) {
		if (d->ns != ns || !d->due)
			continue;
		d->napi_listed = listed;
		/* the kernel dumps a device's NAPIs newest first: every view lists them by id */
		if (d->n_napi > 1)
			qsort(d->napi, d->n_napi, sizeof(*d->napi), napi_cmp);
		sig = napi_sig(d);
		if (sig != d->napi_sig && !d->layout_now)
			layout_begin(d);
		d->napi_sig = sig;
		layout |= d->layout_now;
	}
	if (layout)
		ndv_queue_dump(ns->ndv, 0, queue_cb, ns);
}

/* Returns true when any queue took its counters from ethtool -S. */
static bool ethtool_queues(struct device *d)
{
	static const enum qctr map[ETS_NUM] = {
		[ETS_PACKETS] = QC_PACKETS, [ETS_BYTES] = QC_BYTES, [ETS_DROPS] = QC_DROPS,
		[ETS_TX_STOP] = QC_TX_STOP, [ETS_TX_WAKE] = QC_TX_WAKE,
	};
	unsigned int q, c;
	bool used = false;
	int dir, ret;

	/*
	 * veth's per-queue counters (xdp_*) count what its NAPI handles; without a NAPI (GRO
	 * and XDP off, as the netdev family tells) they cannot move, and the ioctl is the
	 * costliest read of a veth: skip it.
	 */
	if (!strcmp(d->driver, "veth") && dev_napi_none(d))
		return false;
	if (!d->ets) {
		/* a driver without per-queue strings is asked again only after a reconfiguration */
		if (d->ets_err && d->ets_gen == d->gen)
			return false;
		d->ets_gen = d->gen;
		d->ets_err = ets_map_build(d->ns->ioctl_fd, d->name, !strcmp(d->driver, "veth"),
					   &d->ets);
		if (d->ets_err)
			return false;
	}
	ret = ets_map_read(d->ns->ioctl_fd, d->name, d->ets, &ets_buf);
	if (ret) {
		ets_map_free(d->ets);
		d->ets = NULL;
		d->ets_err = ret;
		d->ets_gen = ret == -ESTALE ? 0 : d->gen;	/* a changed set: rebuild next tick */
		return false;
	}
	for (dir = 0; dir < 2; dir++) {
		unsigned int n = dir ? d->n_tx : d->n_rx;
		unsigned int ne = dir ? ets_buf.n_tx : ets_buf.n_rx;
		struct queue *qs = dir ? d->txq : d->rxq;
		struct ets_queue *es = dir ? ets_buf.tx : ets_buf.rx;

		for (q = 0; q < n && q < ne; q++) {
			if (qs[q].src == QSRC_QSTATS || !es[q].present)
				continue;
			qs[q].src = QSRC_ETHTOOL;
			used = true;
			for (c = 0; c < ETS_NUM; c++) {
				if (!(es[q].present & (1u << c)))
					continue;
				qs[q].ctr[map[c]] = es[q].val[c];
				qs[q].present |= 1u << map[c];
			}
		}
	}
	return used;
}

static void queue_rates(struct device *d, struct queue *q, uint64_t dt)
{
	int c;

	q->valid = q->present != 0;
	for (c = 0; c < QC_NUM; c++) {
		if (!(q->present & (1u << c))) {
			rate_forget(&q->rc[c]);
			continue;
		}
		if (rate_feed(&q->rc[c], q->ctr[c], d->gen, dt, &q->rate[c]) != RATE_OK)
			q->valid = false;
	}
}

/*
 * @t_link: when this namespace's link dump (device counters) was read; @t_qstats: when its
 * qstats dump was read. ethtool -S counters are timed at their own read.
 */
static void device_sample(struct device *d, uint64_t t_link, uint64_t t_qstats)
{
	uint64_t t_q = t_qstats;
	unsigned int q;
	int c;

	d->interval_ns = d->sampled_ns ? t_link - d->sampled_ns : 0;
	d->sampled_ns = t_link;
	lap_restart();
	/* a queue without byte_queue_limits keeps none until its queues are reconfigured */
	if (d->bql_gen != d->gen || d->has_bql) {
		d->has_bql = false;
		for (q = 0; q < d->n_tx; q++) {
			sfs_bql_read(&d->sfs, d->ns->sysfs, d->name, d->gen, d->n_tx, q,
				     d->txq[q].bql, &d->txq[q].bql_present);
			d->has_bql |= d->txq[q].bql_present != 0;
		}
		d->bql_gen = d->gen;
	}
	runtime_lap(&lap, TP_BQL);
	if (ethtool_queues(d))
		t_q = util_now_ns(CLOCK_MONOTONIC);
	runtime_lap(&lap, TP_ETHTOOL_STATS);
	d->q_interval_ns = d->q_sampled_ns ? t_q - d->q_sampled_ns : 0;
	d->q_sampled_ns = t_q;
	d->dvalid = true;
	for (c = 0; c < DC_NUM; c++)
		if (rate_feed(&d->drc[c], d->dctr[c], d->gen, d->interval_ns, &d->drate[c]) != RATE_OK)
			d->dvalid = false;
	for (q = 0; q < d->n_rx; q++)
		queue_rates(d, &d->rxq[q], d->q_interval_ns);
	for (q = 0; q < d->n_tx; q++)
		queue_rates(d, &d->txq[q], d->q_interval_ns);
}

static void stats64_cb(int ifindex, const struct rtnl_link_stats64 *st, void *arg)
{
	struct device *d = dev_lookup(arg, ifindex);

	if (!d || !d->due)
		return;
	d->dctr[DC_RX_PACKETS] = st->rx_packets;
	d->dctr[DC_TX_PACKETS] = st->tx_packets;
	d->dctr[DC_RX_BYTES] = st->rx_bytes;
	d->dctr[DC_TX_BYTES] = st->tx_bytes;
	d->dctr[DC_RX_DROPPED] = st->rx_dropped;
	d->dctr[DC_TX_DROPPED] = st->tx_dropped;
	d->dctr[DC_RX_ERRORS] = st->rx_errors;
	d->dctr[DC_TX_ERRORS] = st->tx_errors;
}

/*
 * @ns wants its link re-dump at @now: a notification asked for one, it was never dumped
 * (links_ns 0: also a machine up for less than the refresh, at boot), or the
 * SMP_LINK_REFRESH_NS net is due.
 */
static bool links_stale(const struct netns *ns, uint64_t now)
{
	return ns->resync || !ns->links_ns || now - ns->links_ns >= SMP_LINK_REFRESH_NS;
}

/* Device counters of @ns: RTM_GETSTATS, or the link dump where the kernel lacks it. */
static int ns_counters(struct netns *ns)
{
	uint64_t now = util_now_ns(CLOCK_MONOTONIC);
	int ret;

	lap = now;
	if (ns->rst) {
		if (links_stale(ns, now)) {
			ret = links_sync(ns, false);
			runtime_lap(&lap, TP_LINKS);
			if (ret)
				return -EIO;
		}
		ret = rst_dump(ns->rst, stats64_cb, ns);
		runtime_lap(&lap, TP_STATS);
		if (!ret)
			return 0;
		log_info("netns '%s': RTM_GETSTATS failed, link dumps carry the counters",
			 ns->name);
		rst_close(ns->rst);
		ns->rst = NULL;
	}
	ret = links_sync(ns, true);
	runtime_lap(&lap, TP_LINKS);
	return ret;
}

/*
 * Whether a read last made at @last (CLOCK_MONOTONIC, 0: never) is due again every @period
 * for a tick at @now: when it is @period old by the middle of this tick's interval. A read
 * taken ~1 ms into a tick must not push the next one a whole tick later, so a 1 s period
 * at a 1 s tick is every tick, not every other one; a period under half a tick is every
 * tick, and one longer than a tick the first tick after it ran out, give or take half a
 * tick.
 */
static bool read_due(uint64_t now, uint64_t last, uint64_t period)
{
	return !last || now + runtime.tick_ns / 2 - last >= period;
}

/*
 * Whether @d is sampled every SMP_OBSERVED_NS rather than every tick: an observed device,
 * and the back of a vqpair (known as one from its first sample on).
 */
static bool sample_slow(const struct device *d)
{
	return !d->managed || vqp_is_back(d);
}

/*
 * Whether @d is sampled by the tick starting at @now (SMP_OBSERVED_NS): a device that is
 * not slow always, a slow one when never sampled or by read_due().
 */
static bool dev_due(const struct device *d, uint64_t now)
{
	return !sample_slow(d) || read_due(now, d->sampled_ns, SMP_OBSERVED_NS);
}

/*
 * Mark the devices of @ns this tick samples (dev->due); returns whether any is. Every read
 * of the tick skips the others, so each keeps its last sample whole (counters, rates and
 * the time they were read agree).
 */
static bool ns_due(struct netns *ns, uint64_t now)
{
	struct device *d;
	bool any = false;

	dev_for_each(d) {
		if (d->ns != ns)
			continue;
		d->due = dev_due(d, now);
		any |= d->due;
	}
	return any;
}

/*
 * Whether the tick at @now re-reads @d's queue layout (SMP_NEWS_SAFETY_NS): an observed
 * device (or a vqpair's back) at each of its samples, a managed one at its first, then on
 * news or its safety clock (layout_ns 0: never read, also on a machine up for less than
 * SMP_NEWS_SAFETY_NS).
 */
static bool layout_due(const struct device *d, uint64_t now)
{
	return sample_slow(d) || !d->ns->ethmon || d->layout_stale ||
	       read_due(now, d->layout_ns, SMP_NEWS_SAFETY_NS);
}

static void eth_news(int ifindex, enum eth_ntf what, void *arg)
{
	struct device *d = dev_lookup(arg, ifindex);

	if (!d)
		return;		/* not seen yet: its first sample reads everything */
	d->eth_stale = true;
	if (what == ETH_NTF_CHANNELS)
		d->layout_stale = true;
}

/* Take in @ns's settings news; any lost (or a failed read) re-reads every device. */
static void ns_news(struct netns *ns)
{
	struct device *d;

	if (!ns->ethmon || !eth_mon_drain(ns->ethmon, eth_news, ns))
		return;
	dev_for_each(d)
		if (d->ns == ns)
			d->eth_stale = true, d->layout_stale = true;
}

/*
 * Read @d's queue counts (sysfs) at @now, its layout no longer stale. True when they
 * changed: a new generation, which is a channels change, so its settings are due too.
 */
static bool layout_counts(struct device *d, uint64_t now)
{
	unsigned int n_tx = d->n_tx, n_rx = d->n_rx;
	uint32_t gen = d->gen;

	d->layout_stale = false;
	d->layout_ns = now;
	if (!sfs_queue_counts(&d->sfs, d->ns->sysfs, d->name, &n_tx, &n_rx))
		dev_set_queues(d, n_tx, n_rx);
	return d->gen != gen;
}

/* smp_news_refresh()'s dumps, filtered by ifindex: the kernel may not filter them */
static int napi_one_cb(const struct ndv_napi *n, void *arg)
{
	struct device *d = arg;

	return (int)n->ifindex == d->ifindex ? napi_take(d, n) : 0;
}

static int queue_one_cb(const struct ndv_queue *nq, void *arg)
{
	struct device *d = arg;

	if ((int)nq->ifindex == d->ifindex)
		queue_take(d, nq);
	return 0;
}

void smp_news_refresh(struct device *d)
{
	struct netns *ns = d->ns;
	bool layout;

	ns_news(ns);
	/* a device whose queues were never counted is left to its first sample */
	if (!d->n_tx)
		return;
	layout = d->layout_stale;
	if (layout && layout_counts(d, util_now_ns(CLOCK_MONOTONIC)))
		d->eth_stale = true;
	/* its settings (coalesce, rings, channels): the tick's outside-writer check reads them */
	if (d->eth_stale)
		eth_refresh(d);
	if (!layout || !ns->ndv)
		return;
	d->n_napi = 0;
	d->napi_listed = !ndv_napi_dump(ns->ndv, d->ifindex, napi_one_cb, d);
	if (d->n_napi > 1)
		qsort(d->napi, d->n_napi, sizeof(*d->napi), napi_cmp);
	d->napi_sig = napi_sig(d);
	layout_begin(d);
	ndv_queue_dump(ns->ndv, d->ifindex, queue_one_cb, d);
	/* only a tick reads a layout in the qstats callbacks (ns_tick() sets it again) */
	d->layout_now = false;
}

static void ns_tick(struct netns *ns)
{
	uint64_t now = util_now_ns(CLOCK_MONOTONIC), t_link, t_qstats;
	struct device *d;
	unsigned int q;
	bool due;

	lap = now;
	ns_news(ns);
	runtime_lap(&lap, TP_ETHTOOL);
	due = ns_due(ns, now);
	if (!due && links_stale(ns, now)) {
		/* no device to sample: the link re-dump alone, when one is asked for or due;
		 * a device it finds (the first dump of a namespace finds them all) is due */
		lap = now;
		if (links_sync(ns, false))
			return;
		runtime_lap(&lap, TP_LINKS);
		dev_for_each(d)
			due |= d->ns == ns && d->due;
	}
	if (!due)
		return;
	/* a device the link dump in there finds is due as well (link_update()) */
	if (ns_counters(ns))
		return;
	t_link = lap = util_now_ns(CLOCK_MONOTONIC);
	dev_for_each(d) {
		if (d->ns != ns || !d->due)
			continue;
		d->layout_now = false;
		if (layout_due(d, t_link)) {
			if (layout_counts(d, t_link))
				d->eth_stale = true;
			layout_begin(d);
		}
		for (q = 0; q < d->n_rx; q++)
			d->rxq[q].present = 0, d->rxq[q].src = QSRC_NONE;
		for (q = 0; q < d->n_tx; q++)
			d->txq[q].present = 0, d->txq[q].src = QSRC_NONE;
	}
	runtime_lap(&lap, TP_QUEUES);
	netdev_sample(ns);
	t_qstats = util_now_ns(CLOCK_MONOTONIC);
	runtime_lap(&lap, TP_NETDEV);
	/* after the qstats timestamp: the qdisc dump must not stretch their interval */
	tcq_sample(ns);
	runtime_lap(&lap, TP_QDISC);
	dev_for_each(d) {
		if (d->ns != ns || !d->due)
			continue;
		lap_restart();
		/* a slow device is sampled every SMP_OBSERVED_NS: its settings each time */
		if (sample_slow(d) || read_due(t_link, d->dnapi_read_ns, SMP_ETHTOOL_REFRESH_NS))
			dnapi_refresh(d);
		if (sample_slow(d) || d->eth_stale ||
		    read_due(t_link, d->eth_read_ns,
			     ns->ethmon ? SMP_NEWS_SAFETY_NS : SMP_ETHTOOL_REFRESH_NS))
			eth_refresh(d);
		runtime_lap(&lap, TP_ETHTOOL);
		device_sample(d, t_link, t_qstats);
		lap_restart();
		vqp_sample(d);		/* vqpair devices only; before the outside-writer check */
		runtime_lap(&lap, TP_VQPAIR);
		if (d->managed)
			act_check_outside(d);
		runtime_lap(&lap, TP_OUTSIDE);
	}
}

/*
 * @ns was deleted (`ip netns del`) while our fds kept it alive: put back what vqtune owes
 * there (its handles still work), then let it go: devices out of the views, handles
 * closed, private sysfs unmounted. The last fd closed, the kernel destroys it.
 */
static void ns_drop(struct netns *ns)
{
	char name[NETNS_NAME_MAX], failures[64] = "";
	unsigned int n_dev = 0, failed;
	struct device *d, *next;
	int restored;

	snprintf(name, sizeof(name), "%s", ns->name);
	restored = act_restore_netns(name, &failed);
	if (failed)
		snprintf(failures, sizeof(failures), ", %u could not be (events before)", failed);
	for (d = dev_first(); d; d = next) {
		next = d->next;
		if (d->ns != ns)
			continue;
		dev_del(d);
		n_dev++;
	}
	netns_del(ns);
	act_event(NULL, NULL, NULL, NULL, -1, NULL, NULL, WHO_DAEMON,
		  "netns '%s' was deleted: %d knob(s) restored%s, %u device(s) no longer "
		  "watched%s", name, restored, failures, n_dev,
		  netns_wanted(name) ? "; watched again if it comes back" : "");
}

void smp_tick(void)
{
	struct netns *back[NETNS_MAX];
	unsigned int i, n;

	/* from 1: the own namespace is never deleted */
	for (i = 1; i < netns_count(); i++) {
		if (netns_gone(netns_at(i)))
			ns_drop(netns_at(i--));
	}
	n = netns_revive(back, NETNS_MAX);
	for (i = 0; i < n; i++)
		act_event(NULL, NULL, NULL, NULL, -1, NULL, NULL, WHO_DAEMON,
			  "netns '%s' is back: watching it again", back[i]->name);
	for (i = 0; i < netns_count(); i++)
		ns_tick(netns_at(i));
	/* after every namespace's dump: a device that moved between two is in one of them */
	act_sweep();
}
