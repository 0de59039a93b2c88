// SPDX-License-Identifier: GPL-2.0
/*
 * vqpair ethtool: the standard interfaces for the knobs that have one. -G maps to
 * tx-ring-size, -C to tx/rx-usecs and tx/rx-frames (ethtool's words), -L reports the queue
 * pairs, -S the per-queue stats summed over queues. Writes go through vqp_knob_set(), so
 * they are validated and announced like genl writes.
 */
#include <linux/ethtool.h>
#include <linux/rtnetlink.h>
#include "vqpair_priv.h"

/* fixed RX ring size, see vqpair_dp.c */
#define VQP_RX_RING_SIZE	256

static void vqp_get_drvinfo(struct net_device *dev, struct ethtool_drvinfo *info)
{
	strscpy(info->driver, "vqpair", sizeof(info->driver));
	strscpy(info->bus_info, "vqpair", sizeof(info->bus_info));
}

static void vqp_get_ringparam(struct net_device *dev, struct ethtool_ringparam *ring,
			      struct kernel_ethtool_ringparam *kring,
			      struct netlink_ext_ack *extack)
{
	struct vqp_pair *pair = vqp_pair_of(dev);

	ring->tx_max_pending = vqp_knobs[VQPAIR_KNOB_TX_RING_SIZE].max;
	ring->tx_pending = vqp_knob(&pair->q[0], VQPAIR_KNOB_TX_RING_SIZE);
	ring->rx_max_pending = VQP_RX_RING_SIZE;
	ring->rx_pending = VQP_RX_RING_SIZE;
}

static int vqp_set_ringparam(struct net_device *dev, struct ethtool_ringparam *ring,
			     struct kernel_ethtool_ringparam *kring,
			     struct netlink_ext_ack *extack)
{
	if (ring->rx_pending != VQP_RX_RING_SIZE) {
		NL_SET_ERR_MSG(extack, "vqpair: the RX ring size is fixed at 256");
		return -EINVAL;
	}
	return vqp_knob_set(vqp_pair_of(dev), -1, VQPAIR_KNOB_TX_RING_SIZE, ring->tx_pending,
			    extack);
}

static int vqp_get_coalesce(struct net_device *dev, struct ethtool_coalesce *ec,
			    struct kernel_ethtool_coalesce *kec, struct netlink_ext_ack *extack)
{
	struct vqp_queue *q = &vqp_pair_of(dev)->q[0];

	ec->tx_coalesce_usecs = vqp_knob(q, VQPAIR_KNOB_TX_USECS);
	ec->tx_max_coalesced_frames = vqp_knob(q, VQPAIR_KNOB_TX_FRAMES);
	ec->rx_coalesce_usecs = vqp_knob(q, VQPAIR_KNOB_RX_USECS);
	ec->rx_max_coalesced_frames = vqp_knob(q, VQPAIR_KNOB_RX_FRAMES);
	return 0;
}

static int vqp_set_coalesce(struct net_device *dev, struct ethtool_coalesce *ec,
			    struct kernel_ethtool_coalesce *kec, struct netlink_ext_ack *extack)
{
	const struct { int knob; u32 val; } w[] = {
		{ VQPAIR_KNOB_TX_USECS, ec->tx_coalesce_usecs },
		{ VQPAIR_KNOB_TX_FRAMES, ec->tx_max_coalesced_frames },
		{ VQPAIR_KNOB_RX_USECS, ec->rx_coalesce_usecs },
		{ VQPAIR_KNOB_RX_FRAMES, ec->rx_max_coalesced_frames },
	};
	struct vqp_pair *pair = vqp_pair_of(dev);
	int i, err;

	/* validate everything before changing anything */
	for (i = 0; i < ARRAY_SIZE(w); i++) {
		if (w[i].val < vqp_knobs[w[i].knob].min || w[i].val > vqp_knobs[w[i].knob].max) {
			NL_SET_ERR_MSG(extack, "vqpair: coalesce value out of range");
			return -ERANGE;
		}
	}
	for (i = 0; i < ARRAY_SIZE(w); i++) {
		err = vqp_knob_set(pair, -1, w[i].knob, w[i].val, extack);
		if (err)
			return err;
	}
	return 0;
}

static void vqp_get_channels(struct net_device *dev, struct ethtool_channels *ch)
{
	struct vqp_pair *pair = vqp_pair_of(dev);

	ch->max_combined = pair->nq;
	ch->combined_count = pair->nq;
}

static int vqp_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? VQPAIR_QSTAT_MAX : -EOPNOTSUPP;
}

static void vqp_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	int i;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 1; i < VQP_QSTAT_NUM; i++)
		ethtool_sprintf(&data, "%s", vqp_qstat_names[i]);
}

static void vqp_get_ethtool_stats(struct net_device *dev, struct ethtool_stats *stats, u64 *data)
{
	struct vqp_pair *pair = vqp_pair_of(dev);
	int i, s;

	for (s = 1; s < VQP_QSTAT_NUM; s++) {
		u64 sum = 0;

		for (i = 0; i < pair->nq; i++)
			sum += atomic64_read(&pair->q[i].st[s]);
		data[s - 1] = sum;
	}
}

const struct ethtool_ops vqp_ethtool_ops = {
	.supported_coalesce_params = ETHTOOL_COALESCE_USECS | ETHTOOL_COALESCE_MAX_FRAMES,
	.get_drvinfo		= vqp_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_ringparam		= vqp_get_ringparam,
	.set_ringparam		= vqp_set_ringparam,
	.get_coalesce		= vqp_get_coalesce,
	.set_coalesce		= vqp_set_coalesce,
	.get_channels		= vqp_get_channels,
	.get_sset_count		= vqp_get_sset_count,
	.get_strings		= vqp_get_strings,
	.get_ethtool_stats	= vqp_get_ethtool_stats,
};
