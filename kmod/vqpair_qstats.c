// SPDX-License-Identifier: GPL-2.0
/*
 * vqpair netdev qstats (netdev genl QSTATS_GET, kernels >= 6.10 with netdev_stat_ops): the
 * standard per-queue packets/bytes/drops and tx-stop/tx-wake, so tools that read qstats see
 * vqpair like a real NIC. Every packet is attributed to a queue, so the base stats are 0.
 */
#include "vqpair_priv.h"

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#include <net/netdev_queues.h>

static void vqp_qstats_rx(struct net_device *dev, int idx, struct netdev_queue_stats_rx *rx)
{
	struct vqp_priv *priv = netdev_priv(dev);
	struct vqp_queue *q = &priv->pair->q[idx];

	if (priv->is_front) {
		rx->packets = atomic64_read(&q->st[VQPAIR_QSTAT_RX_PACKETS]);
		rx->bytes = atomic64_read(&q->st[VQPAIR_QSTAT_RX_BYTES]);
	} else {
		rx->packets = atomic64_read(&q->back_rx_packets);
		rx->bytes = atomic64_read(&q->back_rx_bytes);
	}
}

static void vqp_qstats_tx(struct net_device *dev, int idx, struct netdev_queue_stats_tx *tx)
{
	struct vqp_priv *priv = netdev_priv(dev);
	struct vqp_queue *q = &priv->pair->q[idx];

	if (priv->is_front) {
		tx->packets = atomic64_read(&q->st[VQPAIR_QSTAT_TX_PACKETS]);
		tx->bytes = atomic64_read(&q->st[VQPAIR_QSTAT_TX_BYTES]);
		tx->hw_drops = atomic64_read(&q->st[VQPAIR_QSTAT_TX_DROP_RING_FULL]);
		tx->stop = atomic64_read(&q->st[VQPAIR_QSTAT_TX_STOP]);
		tx->wake = atomic64_read(&q->st[VQPAIR_QSTAT_TX_WAKE]);
	} else {
		tx->packets = atomic64_read(&q->back_tx_packets);
		tx->bytes = atomic64_read(&q->back_tx_bytes);
		tx->hw_drops = atomic64_read(&q->st[VQPAIR_QSTAT_RX_DROP_RING_FULL]);
		tx->stop = 0;
		tx->wake = 0;
	}
}

static void vqp_qstats_base(struct net_device *dev, struct netdev_queue_stats_rx *rx,
			    struct netdev_queue_stats_tx *tx)
{
	rx->packets = 0;
	rx->bytes = 0;
	tx->packets = 0;
	tx->bytes = 0;
	tx->hw_drops = 0;
	tx->stop = 0;
	tx->wake = 0;
}

static const struct netdev_stat_ops vqp_stat_ops = {
	.get_queue_stats_rx	= vqp_qstats_rx,
	.get_queue_stats_tx	= vqp_qstats_tx,
	.get_base_stats		= vqp_qstats_base,
};

void vqp_qstats_setup(struct net_device *dev)
{
	dev->stat_ops = &vqp_stat_ops;
}
#else
void vqp_qstats_setup(struct net_device *dev)
{
}
#endif
