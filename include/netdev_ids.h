/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netdev generic netlink family ids that Debian 12's linux-libc-dev (6.1) lacks.
 *
 * Source: Documentation/netlink/specs/netdev.yaml in the Linux tree (the family is
 * specified there once; these numbers are its enum order and never change).
 * Commands: qstats since 6.10, NAPI_GET since 6.9, NAPI_SET since 6.13.
 */
#ifndef VQTUNE_NETDEV_IDS_H
#define VQTUNE_NETDEV_IDS_H

#define VQ_NETDEV_FAMILY_NAME		"netdev"

enum {
	VQ_NETDEV_CMD_DEV_GET = 1,
	VQ_NETDEV_CMD_PAGE_POOL_GET = 5,
	VQ_NETDEV_CMD_PAGE_POOL_STATS_GET = 9,
	VQ_NETDEV_CMD_QUEUE_GET = 10,
	VQ_NETDEV_CMD_NAPI_GET = 11,
	VQ_NETDEV_CMD_QSTATS_GET = 12,
	VQ_NETDEV_CMD_BIND_RX = 13,
	VQ_NETDEV_CMD_NAPI_SET = 14,
	VQ_NETDEV_CMD_BIND_TX = 15,
};

/* NAPI object attributes */
enum {
	VQ_NETDEV_A_NAPI_IFINDEX = 1,		/* u32 */
	VQ_NETDEV_A_NAPI_ID = 2,		/* u32 */
	VQ_NETDEV_A_NAPI_IRQ = 3,		/* u32 */
	VQ_NETDEV_A_NAPI_PID = 4,		/* u32 */
	VQ_NETDEV_A_NAPI_DEFER_HARD_IRQS = 5,	/* u32, <= S32_MAX */
	VQ_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT = 6,	/* uint, ns */
	VQ_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT = 7,/* uint, ns */
	VQ_NETDEV_A_NAPI_THREADED = 8,		/* u32 enum */
	VQ_NETDEV_A_NAPI_MAX = 8,
};

/* queue object attributes */
enum {
	VQ_NETDEV_A_QUEUE_ID = 1,		/* u32 */
	VQ_NETDEV_A_QUEUE_IFINDEX = 2,		/* u32 */
	VQ_NETDEV_A_QUEUE_TYPE = 3,		/* u32: 0 rx, 1 tx */
	VQ_NETDEV_A_QUEUE_NAPI_ID = 4,		/* u32 */
	VQ_NETDEV_A_QUEUE_MAX = 7,
};

enum {
	VQ_NETDEV_QUEUE_TYPE_RX = 0,
	VQ_NETDEV_QUEUE_TYPE_TX = 1,
};

/* qstats attributes: 1..4 select, 8..34 are uint counters */
enum {
	VQ_NETDEV_A_QSTATS_IFINDEX = 1,
	VQ_NETDEV_A_QSTATS_QUEUE_TYPE = 2,
	VQ_NETDEV_A_QSTATS_QUEUE_ID = 3,
	VQ_NETDEV_A_QSTATS_SCOPE = 4,
	VQ_NETDEV_A_QSTATS_RX_PACKETS = 8,
	VQ_NETDEV_A_QSTATS_RX_BYTES = 9,
	VQ_NETDEV_A_QSTATS_TX_PACKETS = 10,
	VQ_NETDEV_A_QSTATS_TX_BYTES = 11,
	VQ_NETDEV_A_QSTATS_RX_ALLOC_FAIL = 12,
	VQ_NETDEV_A_QSTATS_RX_HW_DROPS = 13,
	VQ_NETDEV_A_QSTATS_RX_HW_DROP_OVERRUNS = 14,
	VQ_NETDEV_A_QSTATS_TX_HW_DROPS = 24,
	VQ_NETDEV_A_QSTATS_TX_HW_DROP_ERRORS = 25,
	VQ_NETDEV_A_QSTATS_TX_STOP = 33,
	VQ_NETDEV_A_QSTATS_TX_WAKE = 34,
	VQ_NETDEV_A_QSTATS_MAX = 34,
};

#define VQ_NETDEV_QSTATS_SCOPE_QUEUE	1

#endif
