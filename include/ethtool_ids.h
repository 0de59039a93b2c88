/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ethtool generic netlink ids newer than Debian 12's <linux/ethtool_netlink.h> (6.1).
 * Source: Documentation/netlink/specs/ethtool.yaml in the Linux tree.
 * Older ids come from the system header; only the missing ones live here.
 */
#ifndef VQTUNE_ETHTOOL_IDS_H
#define VQTUNE_ETHTOOL_IDS_H

#include <linux/ethtool_netlink.h>

/* coalesce attributes added after 6.1 */
#define VQ_ETHTOOL_A_COALESCE_TX_AGGR_MAX_BYTES		26
#define VQ_ETHTOOL_A_COALESCE_TX_AGGR_MAX_FRAMES	27
#define VQ_ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS	28
#define VQ_ETHTOOL_A_COALESCE_RX_PROFILE		29
#define VQ_ETHTOOL_A_COALESCE_TX_PROFILE		30

/* rings attributes added after 6.1 */
#define VQ_ETHTOOL_A_RINGS_TX_PUSH			13
#define VQ_ETHTOOL_A_RINGS_RX_PUSH			14
#define VQ_ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN		15
#define VQ_ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN_MAX		16
#define VQ_ETHTOOL_A_RINGS_HDS_THRESH			17
#define VQ_ETHTOOL_A_RINGS_HDS_THRESH_MAX		18

#endif
