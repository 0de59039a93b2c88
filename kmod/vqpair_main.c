// SPDX-License-Identifier: GPL-2.0
/*
 * vqpair: a driver/backend pair of netdevs whose every virtio_net/vhost-net knob is live.
 *
 *   ip link add vqf0 type vqpair peer name vqb0
 *
 * creates the front (behaves like a virtio_net driver) and the back (a vhost/tap backend).
 * Link handling follows drivers/net/veth.c: the peer is described by a nested ifinfomsg,
 * both devices die together (dellink), either may move to another netns.
 */
#include <linux/module.h>
#include <linux/etherdevice.h>
#include <linux/slab.h>
#include <net/rtnetlink.h>
#include <net/genetlink.h>
#include "vqpair_priv.h"

#define DRV_NAME	"vqpair"

static atomic_t vqp_next_id = ATOMIC_INIT(0);
static struct rtnl_link_ops vqp_link_ops;

bool vqp_is_vqpair(const struct net_device *dev)
{
	return dev->rtnl_link_ops == &vqp_link_ops;
}

static struct net_device *vqp_peer(struct net_device *dev)
{
	struct vqp_priv *priv = netdev_priv(dev);

	return priv->is_front ? rtnl_dereference(priv->pair->back) :
				rtnl_dereference(priv->pair->front);
}

static int vqp_open(struct net_device *dev)
{
	struct vqp_priv *priv = netdev_priv(dev);
	struct net_device *peer = vqp_peer(dev);
	int i;

	if (priv->is_front)
		for (i = 0; i < priv->pair->nq; i++)
			napi_enable(&priv->pair->q[i].napi);
	if (peer && netif_running(peer)) {
		netif_carrier_on(dev);
		netif_carrier_on(peer);
	}
	return 0;
}

static int vqp_close(struct net_device *dev)
{
	struct vqp_priv *priv = netdev_priv(dev);
	struct net_device *peer = vqp_peer(dev);
	int i;

	netif_carrier_off(dev);
	if (peer)
		netif_carrier_off(peer);
	if (priv->is_front)
		for (i = 0; i < priv->pair->nq; i++)
			napi_disable(&priv->pair->q[i].napi);
	return 0;
}

static void vqp_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *s)
{
	struct vqp_priv *priv = netdev_priv(dev);
	struct vqp_pair *pair = priv->pair;
	int i;

	for (i = 0; i < pair->nq; i++) {
		struct vqp_queue *q = &pair->q[i];

		if (priv->is_front) {
			s->tx_packets += atomic64_read(&q->st[VQPAIR_QSTAT_TX_PACKETS]);
			s->tx_bytes += atomic64_read(&q->st[VQPAIR_QSTAT_TX_BYTES]);
			s->tx_dropped += atomic64_read(&q->st[VQPAIR_QSTAT_TX_DROP_RING_FULL]);
			s->rx_packets += atomic64_read(&q->st[VQPAIR_QSTAT_RX_PACKETS]);
			s->rx_bytes += atomic64_read(&q->st[VQPAIR_QSTAT_RX_BYTES]);
		} else {
			s->rx_packets += atomic64_read(&q->back_rx_packets);
			s->rx_bytes += atomic64_read(&q->back_rx_bytes);
			s->rx_dropped += atomic64_read(&q->st[VQPAIR_QSTAT_TX_DROP_FAULT]) +
					 atomic64_read(&q->st[VQPAIR_QSTAT_TX_DROP_NOMEM]);
			s->tx_packets += atomic64_read(&q->back_tx_packets);
			s->tx_bytes += atomic64_read(&q->back_tx_bytes);
			s->tx_dropped += atomic64_read(&q->st[VQPAIR_QSTAT_RX_DROP_RING_FULL]);
		}
	}
}

static void vqp_pair_put(struct vqp_pair *pair)
{
	if (!refcount_dec_and_test(&pair->ref))
		return;
	vqp_queues_free(pair);
	kfree(pair);
}

/* the datapath dies with the front: workers, timers and NAPI all belong to it */
static void vqp_uninit(struct net_device *dev)
{
	struct vqp_priv *priv = netdev_priv(dev);
	struct vqp_pair *pair = priv->pair;

	if (!priv->live)
		return;
	if (priv->is_front) {
		vqp_debugfs_del(pair);
		vqp_queues_stop(pair);
		RCU_INIT_POINTER(pair->front, NULL);
	} else {
		RCU_INIT_POINTER(pair->back, NULL);
	}
}

static void vqp_dev_free(struct net_device *dev)
{
	struct vqp_priv *priv = netdev_priv(dev);

	if (priv->live)
		vqp_pair_put(priv->pair);
}

static netdev_tx_t vqp_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct vqp_priv *priv = netdev_priv(dev);

	return priv->is_front ? vqp_front_xmit(skb, dev) : vqp_back_xmit(skb, dev);
}

static int vqp_get_iflink(const struct net_device *dev)
{
	struct vqp_priv *priv = netdev_priv(dev);
	struct net_device *peer;
	int iflink;

	rcu_read_lock();
	peer = priv->is_front ? rcu_dereference(priv->pair->back) :
				rcu_dereference(priv->pair->front);
	iflink = peer ? peer->ifindex : 0;
	rcu_read_unlock();
	return iflink;
}

static const struct net_device_ops vqp_netdev_ops = {
	.ndo_uninit		= vqp_uninit,
	.ndo_open		= vqp_open,
	.ndo_stop		= vqp_close,
	.ndo_start_xmit		= vqp_xmit,
	.ndo_get_stats64	= vqp_get_stats64,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_get_iflink		= vqp_get_iflink,
};

#define VQP_FEATURES (NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_RXCSUM | NETIF_F_HIGHDMA | \
		      NETIF_F_GSO_SOFTWARE)

static void vqp_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->priv_flags &= ~IFF_TX_SKB_SHARING;
	dev->priv_flags |= IFF_LIVE_ADDR_CHANGE;
	dev->netdev_ops = &vqp_netdev_ops;
	dev->ethtool_ops = &vqp_ethtool_ops;
	dev->features |= VQP_FEATURES;
	dev->hw_features = VQP_FEATURES;
	dev->vlan_features = VQP_FEATURES;
	dev->needs_free_netdev = true;
	dev->priv_destructor = vqp_dev_free;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU;
	vqp_qstats_setup(dev);
}

static int vqp_validate(struct nlattr *tb[], struct nlattr *data[],
			struct netlink_ext_ack *extack)
{
	if (tb[IFLA_ADDRESS]) {
		if (nla_len(tb[IFLA_ADDRESS]) != ETH_ALEN ||
		    !is_valid_ether_addr(nla_data(tb[IFLA_ADDRESS]))) {
			NL_SET_ERR_MSG(extack, "vqpair: invalid MAC address");
			return -EADDRNOTAVAIL;
		}
	}
	if (tb[IFLA_MTU] && (nla_get_u32(tb[IFLA_MTU]) < ETH_MIN_MTU ||
			     nla_get_u32(tb[IFLA_MTU]) > ETH_MAX_MTU)) {
		NL_SET_ERR_MSG(extack, "vqpair: invalid MTU");
		return -EINVAL;
	}
	return 0;
}

/* peer name from VQPAIR_INFO_PEER (a nested ifinfomsg + IFLA_IFNAME, like veth's) */
static int vqp_peer_name(struct nlattr *data[], char *name, struct netlink_ext_ack *extack)
{
	struct nlattr *ptb[IFLA_MAX + 1];
	struct nlattr *peer;
	int err;

	strscpy(name, "vqpb%d", IFNAMSIZ);
	if (!data || !data[VQPAIR_INFO_PEER])
		return 0;
	peer = data[VQPAIR_INFO_PEER];
	if (nla_len(peer) < (int)sizeof(struct ifinfomsg)) {
		NL_SET_ERR_MSG_ATTR(extack, peer, "vqpair: peer attribute too short");
		return -EINVAL;
	}
	err = nla_parse_deprecated(ptb, IFLA_MAX, nla_data(peer) + sizeof(struct ifinfomsg),
				   nla_len(peer) - sizeof(struct ifinfomsg), NULL, extack);
	if (err)
		return err;
	if (ptb[IFLA_IFNAME] && nla_strscpy(name, ptb[IFLA_IFNAME], IFNAMSIZ) < 0) {
		NL_SET_ERR_MSG_ATTR(extack, ptb[IFLA_IFNAME], "vqpair: peer name too long");
		return -ENAMETOOLONG;
	}
	return 0;
}

static struct net_device *vqp_alloc_peer(struct net_device *dev, const char *name,
					 struct vqp_pair *pair)
{
	struct net_device *peer;
	struct vqp_priv *priv;

	peer = alloc_netdev_mqs(sizeof(struct vqp_priv), name, NET_NAME_USER, vqp_setup,
				pair->nq, pair->nq);
	if (!peer)
		return NULL;
	dev_net_set(peer, dev_net(dev));
	peer->rtnl_link_ops = &vqp_link_ops;
	eth_hw_addr_random(peer);
	priv = netdev_priv(peer);
	priv->pair = pair;
	return peer;
}

static int vqp_newlink_common(struct net_device *dev, struct nlattr *tb[],
			      struct nlattr *data[], struct netlink_ext_ack *extack)
{
	struct vqp_priv *priv = netdev_priv(dev), *ppriv;
	char name[IFNAMSIZ];
	struct net_device *peer;
	struct vqp_pair *pair;
	int err;

	if (dev->num_tx_queues != dev->num_rx_queues || dev->num_tx_queues > VQPAIR_MAX_QUEUES) {
		NL_SET_ERR_MSG(extack, "vqpair: numtxqueues must equal numrxqueues, at most 64");
		return -EINVAL;
	}
	err = vqp_peer_name(data, name, extack);
	if (err)
		return err;
	pair = kzalloc(sizeof(*pair), GFP_KERNEL);
	if (!pair)
		return -ENOMEM;
	pair->nq = dev->num_tx_queues;
	pair->id = atomic_inc_return(&vqp_next_id);
	priv->pair = pair;
	priv->is_front = true;
	if (!tb[IFLA_ADDRESS])
		eth_hw_addr_random(dev);
	err = vqp_queues_init(pair, dev);
	if (err)
		goto err_free_pair;
	peer = vqp_alloc_peer(dev, name, pair);
	if (!peer) {
		err = -ENOMEM;
		goto err_stop_queues;
	}
	err = register_netdevice(peer);
	if (err) {
		NL_SET_ERR_MSG(extack, "vqpair: cannot register the peer (name taken?)");
		free_netdev(peer);
		goto err_stop_queues;
	}
	ppriv = netdev_priv(peer);
	ppriv->live = true;
	refcount_set(&pair->ref, 1);
	rcu_assign_pointer(pair->back, peer);
	netif_carrier_off(peer);

	err = register_netdevice(dev);
	if (err)
		goto err_unregister_peer;
	priv->live = true;
	refcount_inc(&pair->ref);
	rcu_assign_pointer(pair->front, dev);
	netif_carrier_off(dev);
	vqp_debugfs_add(pair);
	return 0;

err_unregister_peer:
	/* the peer's destructor drops the last reference and frees pair and rings */
	vqp_queues_stop(pair);
	RCU_INIT_POINTER(pair->back, NULL);
	priv->pair = NULL;
	unregister_netdevice(peer);
	return err;
err_stop_queues:
	vqp_queues_stop(pair);
	vqp_queues_free(pair);
err_free_pair:
	kfree(pair);
	priv->pair = NULL;
	return err;
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
static int vqp_newlink(struct net_device *dev, struct rtnl_newlink_params *params,
		       struct netlink_ext_ack *extack)
{
	return vqp_newlink_common(dev, params->tb, params->data, extack);
}
#else
static int vqp_newlink(struct net *src_net, struct net_device *dev, struct nlattr *tb[],
		       struct nlattr *data[], struct netlink_ext_ack *extack)
{
	return vqp_newlink_common(dev, tb, data, extack);
}
#endif

/* either end going (ip link del, netns exit, rmmod) takes both, as veth does */
static void vqp_dellink(struct net_device *dev, struct list_head *head)
{
	struct vqp_pair *pair = vqp_pair_of(dev);
	struct net_device *front = rtnl_dereference(pair->front);
	struct net_device *back = rtnl_dereference(pair->back);

	if (front)
		unregister_netdevice_queue(front, head);
	if (back)
		unregister_netdevice_queue(back, head);
}

static struct net *vqp_get_link_net(const struct net_device *dev)
{
	struct vqp_priv *priv = netdev_priv(dev);
	struct net_device *peer = priv->is_front ? rtnl_dereference(priv->pair->back) :
						   rtnl_dereference(priv->pair->front);

	return peer ? dev_net(peer) : dev_net(dev);
}

static const struct nla_policy vqp_info_policy[VQPAIR_INFO_MAX + 1] = {
	[VQPAIR_INFO_PEER] = { .len = sizeof(struct ifinfomsg) },
};

static struct rtnl_link_ops vqp_link_ops = {
	.kind		= VQPAIR_LINK_KIND,
	.priv_size	= sizeof(struct vqp_priv),
	.setup		= vqp_setup,
	.validate	= vqp_validate,
	.newlink	= vqp_newlink,
	.dellink	= vqp_dellink,
	.policy		= vqp_info_policy,
	.maxtype	= VQPAIR_INFO_MAX,
	.get_link_net	= vqp_get_link_net,
};

static int __init vqp_init(void)
{
	int err;

	vqp_debugfs_init();
	err = rtnl_link_register(&vqp_link_ops);
	if (err)
		goto err_debugfs;
	err = vqp_genl_init();
	if (err)
		goto err_link;
	return 0;

err_link:
	rtnl_link_unregister(&vqp_link_ops);
err_debugfs:
	vqp_debugfs_exit();
	return err;
}

static void __exit vqp_exit(void)
{
	vqp_genl_exit();
	rtnl_link_unregister(&vqp_link_ops);
	vqp_zc_wait_all();
	vqp_debugfs_exit();
}

module_init(vqp_init);
module_exit(vqp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vqpair: driver/backend netdev pair with live virtio/vhost knobs");
MODULE_ALIAS_RTNL_LINK(VQPAIR_LINK_KIND);
MODULE_ALIAS_GENL_FAMILY(VQPAIR_GENL_NAME);
