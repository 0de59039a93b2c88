/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dev: the daemon's model of every device it sees, keyed by (netns, ifindex); the name is
 * a label that may change. Filled by sample.c, read by view.c/metrics.c, written by nobody
 * else. Queue arrays are resized when queue counts change, which starts a new generation.
 */
#ifndef VQ_DEV_H
#define VQ_DEV_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "nl_ethtool.h"
#include "nl_netdev.h"
#include "rate.h"

struct netns;
struct vqp_dev;
struct sfs_dev;

/* Upper bound on queues per direction we model; the kernel's own default cap is 4096. */
#define DEV_MAX_QUEUES	1024
#define DEV_DRIVER_MAX	32
/* ethtool drvinfo driver name of virtio_net (drivers/net/virtio_net.c KBUILD_MODNAME) */
#define VIRTIO_NET_DRIVER	"virtio_net"

enum dir { DIR_RX, DIR_TX };

/* Where a queue's counters come from. */
enum qsrc { QSRC_NONE, QSRC_QSTATS, QSRC_ETHTOOL };

/* Per-queue counters (u64, kernel names: qstats tx-stop/tx-wake). */
enum qctr { QC_PACKETS, QC_BYTES, QC_DROPS, QC_TX_STOP, QC_TX_WAKE, QC_NUM };

/* BQL sysfs values (Documentation/ABI/testing/sysfs-class-net-queues). */
enum bqlv {
	BQL_LIMIT,		/* bytes */
	BQL_LIMIT_MIN,		/* bytes */
	BQL_LIMIT_MAX,		/* bytes */
	BQL_INFLIGHT,		/* bytes */
	BQL_HOLD_TIME,		/* ms */
	BQL_STALL_CNT,		/* count (6.9+) */
	BQL_STALL_MAX,		/* ms (6.9+) */
	BQL_STALL_THRS,		/* ms (6.9+) */
	BQL_NUM
};

struct queue {
	enum qsrc src;
	uint32_t present;		/* bit per qctr read this tick */
	uint64_t ctr[QC_NUM];
	struct rate_ctr rc[QC_NUM];
	double rate[QC_NUM];		/* per second; meaningful when valid */
	bool valid;			/* every present counter gave a rate */
	uint32_t napi_id;		/* 0: none known */
	uint32_t bql_present;		/* bit per bqlv read (tx only) */
	uint64_t bql[BQL_NUM];
	double qdisc_backlog_bytes; /* bytes queued in the qdisc feeding this TX queue, NAN unknown */
	double qdisc_qlen;		/* packets in that qdisc, NAN unknown (tcq.h) */
	bool qdisc_fifo;		/* that qdisc is one FIFO (tcq_kind_fifo()) */
};

/* Device-level counters from rtnl stats64. */
enum dctr {
	DC_RX_PACKETS, DC_TX_PACKETS, DC_RX_BYTES, DC_TX_BYTES,
	DC_RX_DROPPED, DC_TX_DROPPED, DC_RX_ERRORS, DC_TX_ERRORS,
	DC_NUM
};

/* Device-wide NAPI sysfs values, used only where per-NAPI netlink is unsupported. */
enum dnapi { DNAPI_GRO_FLUSH_TIMEOUT, DNAPI_DEFER_HARD_IRQS, DNAPI_THREADED, DNAPI_NUM };

struct device {
	struct netns *ns;
	int ifindex;
	char name[IFNAMSIZ];
	char kind[16];			/* rtnl link kind ("veth"), may be "" */
	char driver[DEV_DRIVER_MAX];	/* ethtool drvinfo driver */
	/*
	 * virtio devices: VIRTIO_F_RING_PACKED negotiated (1) or not (0), from the device's
	 * sysfs "features" when it appeared (sysfs.h sfs_virtio_feature()); -1: not virtio
	 * or unreadable
	 */
	int8_t virtio_packed;
	unsigned int flags;		/* IFF_* */
	unsigned int mtu;
	uint8_t operstate;		/* IF_OPER_* */
	bool managed;			/* writes allowed */
	/* sampled by the tick reading its namespace (sample.c SMP_OBSERVED_NS); meaningful
	 * only during that tick's reads */
	bool due;
	bool paused;			/* controllers off (API pause) */
	uint32_t gen;			/* queue generation, starts at 1 */
	unsigned int n_tx, n_rx;	/* active queues (sysfs queues/) */
	struct queue *txq, *rxq;

	uint64_t dctr[DC_NUM];
	struct rate_ctr drc[DC_NUM];
	double drate[DC_NUM];
	bool dvalid;			/* device rates valid this interval */
	/* drate[], flags and operstate of the tick before, in the tick pacer's view (main.c,
	 * daemon/pace.h) */
	double pace_rate[DC_NUM];
	unsigned int pace_flags;
	uint8_t pace_operstate;
	bool pace_have;
	/*
	 * CLOCK_MONOTONIC when the counters were read, taken right after the read (not at the
	 * tick) so a loop delayed by load does not skew rates; device (rtnl) and queue
	 * counters are read at different moments and keep their own times.
	 */
	uint64_t sampled_ns, interval_ns;	/* device counters */
	uint64_t q_sampled_ns, q_interval_ns;	/* queue counters */

	struct ndv_napi *napi;		/* per-NAPI state, from NAPI_GET */
	unsigned int n_napi;		/* 0 means none only when dev_napi_none() says so */
	bool napi_listed;		/* its latest sample's NAPI_GET dump answered (6.8+) */
	int napi_rxq[DEV_MAX_QUEUES];	/* unused slot: -1 */

	struct sfs_dev *sfs;		/* its sysfs files kept open (sysfs.h), NULL: none yet */
	bool has_bql;			/* some TX queue has byte_queue_limits */
	uint32_t bql_gen;		/* generation has_bql was probed in */
	uint32_t dnapi_present;		/* bit per dnapi readable in sysfs */
	uint64_t dnapi[DNAPI_NUM];

	uint64_t eth_read_ns;		/* CLOCK_MONOTONIC of the last ethtool get; 0: never */
	bool eth_stale;			/* news says they changed: re-read by the next sample */
	uint64_t dnapi_read_ns;		/* ... of the last read of dnapi[] */
	/*
	 * The queue layout (counts, and the NAPI serving each queue) as sample.c keeps it:
	 * when last read, whether news says it may have changed since, whether the tick now
	 * running reads it (meaningful only during that tick's reads), and a hash of the
	 * NAPI ids of the last NAPI dump (a change in them re-reads it).
	 */
	uint64_t layout_ns;
	bool layout_stale, layout_now;
	uint32_t napi_sig;
	int co_err, rings_err, ch_err;	/* 0 or -errno of the last get (-EOPNOTSUPP) */
	struct eth_coalesce co;
	struct eth_rings rings;
	struct eth_channels ch;

	struct ets_map *ets;		/* ethtool -S per-queue map; NULL: not built */
	int ets_err;			/* last build error (-EOPNOTSUPP: none) */
	uint32_t ets_gen;		/* generation the build (or its failure) belongs to */

	struct vqp_dev *vqp;		/* vqpair genl state (vqp.h); NULL: not a vqpair */

	struct ctl_dev *ctl;		/* decide.c's control state, one allocation; may be NULL */

	bool seen;			/* present in the latest link dump */
	struct device *next;
	struct device *hnext;		/* (netns, ifindex) hash chain */
};

/* Iterate all devices. */
struct device *dev_first(void);
#define dev_for_each(d) for ((d) = dev_first(); (d); (d) = (d)->next)

struct device *dev_lookup(const struct netns *ns, int ifindex);
/* New device with zeroed state and generation 1; linked into the table. NULL on ENOMEM. */
struct device *dev_add(struct netns *ns, int ifindex);
/* Unlink and free. */
void dev_del(struct device *d);
/* Set queue counts; when they differ, reallocate and bump the generation. 0 or -ENOMEM. */
int dev_set_queues(struct device *d, unsigned int n_tx, unsigned int n_rx);
/* NAPI serving RX queue @q (or TX queue @q when @tx), or NULL. */
const struct ndv_napi *dev_napi_by_queue(const struct device *d, unsigned int q);
const struct ndv_napi *dev_napi_by_id(const struct device *d, uint32_t id);
/*
 * Whether @d is known to have no NAPI instance: the netdev NAPI_GET dump of its latest
 * sample answered (Linux 6.8+) and listed none of @d's. False before that sample and where
 * the kernel cannot tell (no netdev family, or one without NAPI_GET: 6.3-6.7).
 */
bool dev_napi_none(const struct device *d);
unsigned int dev_count(void);
/* Changes of the device set: +1 at every dev_add() and dev_del(), from 0 at start (the tick
 * pacer's "the device set changed", which a count misses when one goes and one comes). */
uint64_t dev_set_gen(void);
void dev_fini(void);

/*
 * Resolve an API device selector (docs/api.md): "NAME" or "NETNS:NAME", NAME raw or in
 * display form, NETNS "-" for the own namespace. Returns the device, or NULL with *err set
 * to -ENOENT (none) or -EEXIST (ambiguous: several namespaces have that name).
 */
struct device *dev_resolve(const char *sel, int *err);
/*
 * Split selector @sel into its namespace (*@ns, NULL when it names none) and name part
 * (*@name, inside @sel). 0, or -ENOENT when the namespace it names is not watched.
 */
int dev_sel_split(const char *sel, struct netns **ns, const char **name);
/*
 * How NAME (a selector's name part) names @d: "raw name" (its bytes), "display form"
 * (util_name_display()'s escapes of them), or NULL when it does not. dev_resolve() matches
 * by this, and a 409 names each candidate's kind of match by it.
 */
const char *dev_name_match(const struct device *d, const char *name);

#endif
