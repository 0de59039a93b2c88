/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * vqpair generic netlink UAPI: the control interface of kmod/vqpair, the adaptive
 * driver/backend pair (front = virtio_net-like driver, back = vhost-net-like backend).
 *
 * This header is the single source of the family: the knob table VQPAIR_KNOBS() and the
 * stats table VQPAIR_QSTATS() below are expanded by the module (policies, ethtool -S strings),
 * by the test client and by the daemon's provider. kmod/vqpair.spec lists the same
 * ids/names/ranges in plain text; `make kmod-spec-check` (run by make kmod and make
 * check-vm) fails when they disagree, so the two cannot drift.
 *
 * Family "vqpair", version 1. Conventions follow the netdev family (Documentation/netlink/
 * specs/netdev.yaml): every value is u32 or u64, unknown attributes are ignored by readers,
 * writes need CAP_NET_ADMIN (GENL_ADMIN_PERM) and report rejections through extack.
 *
 * Commands
 *   VQPAIR_CMD_PAIR_GET   do: VQPAIR_A_IFINDEX (front or back) -> one pair
 *                         dump: every pair whose front is in the caller's netns
 *                         reply: IFINDEX (front), PEER_IFINDEX, IFNAME, PAIR_ID,
 *                                NUM_QUEUES, KNOBS (nest, values of queue 0)
 *   VQPAIR_CMD_QSTATS_GET dump: VQPAIR_A_IFINDEX -> one message per queue:
 *                         IFINDEX, QUEUE_ID, KNOBS (that queue's values), STATS (nest,
 *                         VQPAIR_QSTATS ids, u64), LAT_HIST (binary, u64[VQPAIR_LAT_BUCKETS]),
 *                         TX_DELIVERY_HIST, RX_DELIVERY_HIST (same layout; absent from
 *                         modules older than these attributes)
 *   VQPAIR_CMD_KNOB_SET   do, admin: IFINDEX, optional QUEUE_ID (absent = every queue),
 *                         KNOBS (nest of one or more knob ids with u32 values). All values are
 *                         validated before any is applied (ranges in the policy).
 *   VQPAIR_CMD_KNOB_NTF   multicast on group "events", one per knob that changed: IFINDEX,
 *                         QUEUE_ID (absent for a device-wide write), KNOB (id), OLD, NEW.
 *                         Writes through ethtool -G/-C are announced too.
 */
#ifndef _UAPI_LINUX_VQPAIR_H
#define _UAPI_LINUX_VQPAIR_H

#define VQPAIR_GENL_NAME	"vqpair"
#define VQPAIR_GENL_VERSION	1
#define VQPAIR_MCGRP_EVENTS	"events"
/* rtnl link kind: ip link add NAME type vqpair peer name PEER */
#define VQPAIR_LINK_KIND	"vqpair"
/* upper bound of queue pairs per device: 64 as in the issue; fits a u64 queue mask */
#define VQPAIR_MAX_QUEUES	64
/*
 * log2(ns) buckets of the latency histograms: bucket i counts [2^i, 2^(i+1)) ns, bucket 0
 * also 0 ns, the last one everything from 2^31 ns. Three per queue, all cumulative u64:
 *   LAT_HIST          completion: front xmit -> its TX completion is reaped (descriptor
 *                     held; with zerocopy, until the receiver frees the buffer)
 *   TX_DELIVERY_HIST  front xmit -> the backend hands the packet to the back's stack
 *                     (ring wait, worker wake-up or busyloop, backend-weight turns)
 *   RX_DELIVERY_HIST  back xmit -> the front's NAPI hands it to the front's stack
 *                     (RX ring wait, rx-usecs/rx-frames coalescing, NAPI scheduling)
 * The delivery ones are the driver's part of a packet's one-way latency: qdisc time and
 * the receiving application are outside it.
 */
#define VQPAIR_LAT_BUCKETS	32

/* IFLA_INFO_DATA of the vqpair link kind (same layout as veth's VETH_INFO_PEER) */
enum {
	VQPAIR_INFO_UNSPEC,
	VQPAIR_INFO_PEER,	/* nest: struct ifinfomsg + IFLA_* of the back device */
	__VQPAIR_INFO_MAX,
};
#define VQPAIR_INFO_MAX (__VQPAIR_INFO_MAX - 1)

enum {
	VQPAIR_CMD_UNSPEC,
	VQPAIR_CMD_PAIR_GET,
	VQPAIR_CMD_QSTATS_GET,
	VQPAIR_CMD_KNOB_SET,
	VQPAIR_CMD_KNOB_NTF,
	__VQPAIR_CMD_MAX,
};
#define VQPAIR_CMD_MAX (__VQPAIR_CMD_MAX - 1)

enum {
	VQPAIR_A_UNSPEC,
	VQPAIR_A_IFINDEX,	/* u32 */
	VQPAIR_A_PEER_IFINDEX,	/* u32 */
	VQPAIR_A_IFNAME,	/* string */
	VQPAIR_A_PAIR_ID,	/* u32, also the debugfs directory name */
	VQPAIR_A_NUM_QUEUES,	/* u32 */
	VQPAIR_A_QUEUE_ID,	/* u32 */
	VQPAIR_A_KNOBS,		/* nest of VQPAIR_KNOB_* (u32) */
	VQPAIR_A_STATS,		/* nest of VQPAIR_QSTAT_* (u64) */
	VQPAIR_A_LAT_HIST,	/* binary: u64[VQPAIR_LAT_BUCKETS] */
	VQPAIR_A_KNOB,		/* u32 knob id (notifications) */
	VQPAIR_A_OLD,		/* u32 */
	VQPAIR_A_NEW,		/* u32 */
	VQPAIR_A_PAD,
	VQPAIR_A_TX_DELIVERY_HIST,	/* binary: u64[VQPAIR_LAT_BUCKETS] */
	VQPAIR_A_RX_DELIVERY_HIST,	/* binary: u64[VQPAIR_LAT_BUCKETS] */
	__VQPAIR_A_MAX,
};
#define VQPAIR_A_MAX (__VQPAIR_A_MAX - 1)

/* values of tx-full-mode */
#define VQPAIR_TX_FULL_STOP	0	/* stop the queue, wake on completion (virtio_net) */
#define VQPAIR_TX_FULL_DROP	1	/* drop and count, never stop ("TX queue overrun") */

/*
 * The knob table: X(ID, "name", min, max, default, unit) - reason for the default.
 * Defaults mirror virtio_net + vhost-net as users run them today, so "default" in a
 * comparison means upstream behaviour. Units: _us = microseconds, bytes, packets, bool 0/1.
 *
 * tx-ring-size        16..4096 descriptors, default 256: QEMU's virtio-net tx_queue_size default.
 * tx-full-mode        0 stop | 1 drop, default stop: virtio_net stops the queue on a full ring.
 * tx-napi             0..1, default 1: virtio_net napi_tx=true since 4.x.
 * tx-usecs            0..10000 us, default 0: virtio_net has no TX interrupt delay.
 * tx-frames           1..1024 pkts, default 1: one completion "interrupt" per used buffer.
 * rx-usecs            0..10000 us, default 0: no RX interrupt delay in virtio_net.
 * rx-frames           1..1024 pkts, default 1: one RX "interrupt" per buffer.
 * napi-weight         1..256 pkts, default 64: NAPI_POLL_WEIGHT, virtio_net's napi_weight.
 * busyloop-us         0..1000 us, default 0: vhost busyloop_timeout is 0 unless set.
 * backend-weight      1..4096 pkts, default 256: VHOST_NET_PKT_WEIGHT.
 * zerocopy            0..1, default 0: vhost_net experimental_zcopytx defaults to off.
 * zerocopy-min-bytes  0..65536 bytes, default 256: VHOST_GOODCOPY_LEN.
 * zerocopy-max-pending 1..1024 bufs, default 128: VHOST_MAX_PEND.
 */
#define VQPAIR_KNOBS(X)								\
	X(TX_RING_SIZE,		"tx-ring-size",		16, 4096, 256, "desc")	\
	X(TX_FULL_MODE,		"tx-full-mode",		0, 1, 0, "enum")	\
	X(TX_NAPI,		"tx-napi",		0, 1, 1, "bool")	\
	X(TX_USECS,		"tx-usecs",		0, 10000, 0, "us")	\
	X(TX_FRAMES,		"tx-frames",		1, 1024, 1, "pkts")	\
	X(RX_USECS,		"rx-usecs",		0, 10000, 0, "us")	\
	X(RX_FRAMES,		"rx-frames",		1, 1024, 1, "pkts")	\
	X(NAPI_WEIGHT,		"napi-weight",		1, 256, 64, "pkts")	\
	X(BUSYLOOP_US,		"busyloop-us",		0, 1000, 0, "us")	\
	X(BACKEND_WEIGHT,	"backend-weight",	1, 4096, 256, "pkts")	\
	X(ZEROCOPY,		"zerocopy",		0, 1, 0, "bool")	\
	X(ZEROCOPY_MIN_BYTES,	"zerocopy-min-bytes",	0, 65536, 256, "bytes")	\
	X(ZEROCOPY_MAX_PENDING,	"zerocopy-max-pending",	1, 1024, 128, "bufs")

#define VQPAIR_KNOB_ENUM_(id, name, min, max, def, unit) VQPAIR_KNOB_##id,
/* knob attribute ids inside VQPAIR_A_KNOBS; also the VQPAIR_A_KNOB value of events */
enum {
	VQPAIR_KNOB_UNSPEC,
	VQPAIR_KNOBS(VQPAIR_KNOB_ENUM_)
	__VQPAIR_KNOB_MAX,
};
#define VQPAIR_KNOB_MAX (__VQPAIR_KNOB_MAX - 1)

/*
 * Per-queue statistics, all u64 counters except the gauges marked (g).
 * tx-* is the front's transmit direction (front -> back), rx-* the front's receive side.
 */
#define VQPAIR_QSTATS(X)						\
	X(TX_PACKETS,		"tx-packets")				\
	X(TX_BYTES,		"tx-bytes")				\
	X(TX_DROP_RING_FULL,	"tx-drop-ring-full")			\
	X(TX_DROP_FAULT,	"tx-drop-fault")			\
	X(TX_DROP_NOMEM,	"tx-drop-nomem")			\
	X(TX_DROP_PEER_DOWN,	"tx-drop-peer-down")			\
	X(TX_STOP,		"tx-stop")				\
	X(TX_WAKE,		"tx-wake")				\
	X(TX_COMPLETED,		"tx-completed")				\
	X(TX_EVENTS,		"tx-events")				\
	X(TX_INFLIGHT_PEAK,	"tx-inflight-peak-bytes")		\
	X(KICKS,		"kicks")				\
	X(WORKER_RUNS,		"worker-runs")				\
	X(BUSYLOOP_SPINS,	"busyloop-spins")			\
	X(BUSYLOOP_HITS,	"busyloop-hits")			\
	X(BUSYLOOP_MISSES,	"busyloop-misses")			\
	X(ZC_SENT,		"zerocopy-sent")			\
	X(ZC_COPIED,		"zerocopy-copied")			\
	X(ZC_FALLBACKS,		"zerocopy-fallbacks")			\
	X(ZC_PENDING,		"zerocopy-pending")	/* (g) */	\
	X(ZC_PENDING_PEAK,	"zerocopy-pending-peak")	/* (g) */	\
	X(COMPL_COUNT,		"completion-count")			\
	X(COMPL_SUM_NS,		"completion-sum-ns")			\
	X(RX_PACKETS,		"rx-packets")				\
	X(RX_BYTES,		"rx-bytes")				\
	X(RX_DROP_RING_FULL,	"rx-drop-ring-full")			\
	X(RX_EVENTS,		"rx-events")

#define VQPAIR_QSTAT_ENUM_(id, name) VQPAIR_QSTAT_##id,
/* attribute ids inside VQPAIR_A_STATS */
enum {
	VQPAIR_QSTAT_UNSPEC,
	VQPAIR_QSTATS(VQPAIR_QSTAT_ENUM_)
	__VQPAIR_QSTAT_MAX,
};
#define VQPAIR_QSTAT_MAX (__VQPAIR_QSTAT_MAX - 1)

#endif /* _UAPI_LINUX_VQPAIR_H */
