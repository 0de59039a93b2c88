// SPDX-License-Identifier: GPL-2.0
/*
 * vqpair generic netlink family (include/vqpair.h): pair get/dump, per-queue stats dump,
 * knob set (admin), and the "events" multicast group. Policies carry the knob ranges from
 * the single table in the UAPI header, as netdev-genl derives its policies from netdev.yaml.
 */
#include <net/genetlink.h>
#include <net/sock.h>
#include <linux/rtnetlink.h>
#include "vqpair_priv.h"

static struct genl_family vqp_family;

/* not const: 6.1 netlink.h stores a non-const pointer (const since 6.x) */
#define VQP_RANGE_(id, nm, lo, hi, dflt, unit) \
	static struct netlink_range_validation vqp_range_##id = { .min = lo, .max = hi };
VQPAIR_KNOBS(VQP_RANGE_)

#define VQP_KNOB_POLICY_(id, nm, lo, hi, dflt, unit) \
	[VQPAIR_KNOB_##id] = NLA_POLICY_FULL_RANGE(NLA_U32, &vqp_range_##id),
static const struct nla_policy vqp_knob_policy[VQPAIR_KNOB_MAX + 1] = {
	VQPAIR_KNOBS(VQP_KNOB_POLICY_)
};

static const struct nla_policy vqp_policy[VQPAIR_A_MAX + 1] = {
	[VQPAIR_A_IFINDEX]	= NLA_POLICY_MIN(NLA_U32, 1),
	[VQPAIR_A_QUEUE_ID]	= NLA_POLICY_MAX(NLA_U32, VQPAIR_MAX_QUEUES - 1),
	[VQPAIR_A_KNOBS]	= NLA_POLICY_NESTED(vqp_knob_policy),
};

enum { VQP_MCGRP_EVENTS };
static const struct genl_multicast_group vqp_mcgrps[] = {
	[VQP_MCGRP_EVENTS] = { .name = VQPAIR_MCGRP_EVENTS },
};

/* dev by ifindex in the caller's netns, either end of a pair; RTNL (rtnl) or RCU held */
static struct vqp_pair *vqp_lookup(struct net *net, struct nlattr **attrs, bool rtnl,
				   struct netlink_ext_ack *extack)
{
	struct net_device *dev;
	u32 ifindex;

	if (!attrs[VQPAIR_A_IFINDEX]) {
		NL_SET_ERR_MSG(extack, "vqpair: ifindex attribute required");
		return ERR_PTR(-EINVAL);
	}
	ifindex = nla_get_u32(attrs[VQPAIR_A_IFINDEX]);
	dev = rtnl ? __dev_get_by_index(net, ifindex) : dev_get_by_index_rcu(net, ifindex);
	if (!dev || !vqp_is_vqpair(dev) || !vqp_pair_of(dev)) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[VQPAIR_A_IFINDEX], "vqpair: not a vqpair device");
		return ERR_PTR(-ENODEV);
	}
	return vqp_pair_of(dev);
}

static int vqp_put_knobs(struct sk_buff *skb, const struct vqp_queue *q)
{
	struct nlattr *nest = nla_nest_start(skb, VQPAIR_A_KNOBS);
	int k;

	if (!nest)
		return -EMSGSIZE;
	for (k = 1; k < VQP_KNOB_NUM; k++)
		if (nla_put_u32(skb, k, vqp_knob(q, k)))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int vqp_fill_pair(struct sk_buff *skb, struct vqp_pair *pair, u32 portid, u32 seq,
			 int flags)
{
	struct net_device *front = rcu_dereference_rtnl(pair->front);
	struct net_device *back = rcu_dereference_rtnl(pair->back);
	void *hdr;

	if (!front)
		return 0;
	hdr = genlmsg_put(skb, portid, seq, &vqp_family, flags, VQPAIR_CMD_PAIR_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, VQPAIR_A_IFINDEX, front->ifindex) ||
	    (back && nla_put_u32(skb, VQPAIR_A_PEER_IFINDEX, back->ifindex)) ||
	    nla_put_string(skb, VQPAIR_A_IFNAME, front->name) ||
	    nla_put_u32(skb, VQPAIR_A_PAIR_ID, pair->id) ||
	    nla_put_u32(skb, VQPAIR_A_NUM_QUEUES, pair->nq) ||
	    vqp_put_knobs(skb, &pair->q[0])) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int vqp_nl_pair_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct vqp_pair *pair;
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	rtnl_lock();
	pair = vqp_lookup(genl_info_net(info), info->attrs, true, info->extack);
	err = IS_ERR(pair) ? PTR_ERR(pair) :
		vqp_fill_pair(msg, pair, info->snd_portid, info->snd_seq, 0);
	rtnl_unlock();
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int vqp_nl_pair_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct net_device *dev;
	long idx = 0;
	int err = 0;

	rcu_read_lock();
	for_each_netdev_rcu(net, dev) {
		struct vqp_priv *priv = netdev_priv(dev);

		if (!vqp_is_vqpair(dev) || !priv->is_front || !priv->live)
			continue;
		if (idx++ < cb->args[0])
			continue;
		err = vqp_fill_pair(skb, priv->pair, NETLINK_CB(cb->skb).portid,
				    cb->nlh->nlmsg_seq, NLM_F_MULTI);
		if (err) {
			idx--;
			break;
		}
	}
	rcu_read_unlock();
	cb->args[0] = idx;
	return err == -EMSGSIZE && skb->len ? skb->len : (err ?: skb->len);
}

static int vqp_put_hist(struct sk_buff *skb, int attr, atomic64_t *src)
{
	u64 hist[VQPAIR_LAT_BUCKETS];
	int i;

	for (i = 0; i < VQPAIR_LAT_BUCKETS; i++)
		hist[i] = atomic64_read(&src[i]);
	return nla_put(skb, attr, sizeof(hist), hist);
}

static int vqp_put_stats(struct sk_buff *skb, struct vqp_queue *q)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, VQPAIR_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 1; i < VQP_QSTAT_NUM; i++)
		if (nla_put_u64_64bit(skb, i, atomic64_read(&q->st[i]), VQPAIR_QSTAT_UNSPEC))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return vqp_put_hist(skb, VQPAIR_A_LAT_HIST, q->lat_hist) ?:
	       vqp_put_hist(skb, VQPAIR_A_TX_DELIVERY_HIST, q->tx_delivery_hist) ?:
	       vqp_put_hist(skb, VQPAIR_A_RX_DELIVERY_HIST, q->rx_delivery_hist);
}

static int vqp_fill_queue(struct sk_buff *skb, struct vqp_pair *pair, int i,
			  struct netlink_callback *cb)
{
	struct net_device *front = rcu_dereference(pair->front);
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, &vqp_family,
			  NLM_F_MULTI, VQPAIR_CMD_QSTATS_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, VQPAIR_A_IFINDEX, front ? front->ifindex : 0) ||
	    nla_put_u32(skb, VQPAIR_A_QUEUE_ID, i) ||
	    vqp_put_knobs(skb, &pair->q[i]) || vqp_put_stats(skb, &pair->q[i])) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static struct nlattr **vqp_dump_attrs(struct netlink_callback *cb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

static int vqp_nl_qstats_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct vqp_pair *pair;
	int i, err = 0;

	rcu_read_lock();
	pair = vqp_lookup(sock_net(skb->sk), vqp_dump_attrs(cb), false, cb->extack);
	if (IS_ERR(pair)) {
		rcu_read_unlock();
		return PTR_ERR(pair);
	}
	for (i = cb->args[0]; i < pair->nq; i++) {
		err = vqp_fill_queue(skb, pair, i, cb);
		if (err)
			break;
	}
	rcu_read_unlock();
	cb->args[0] = i;
	if (err && !skb->len)
		return err;
	return skb->len;
}

static int vqp_nl_knob_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[VQPAIR_KNOB_MAX + 1];
	struct vqp_pair *pair;
	int queue = -1, k, err;

	if (!info->attrs[VQPAIR_A_KNOBS]) {
		NL_SET_ERR_MSG(info->extack, "vqpair: knobs attribute required");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, VQPAIR_KNOB_MAX, info->attrs[VQPAIR_A_KNOBS],
			       vqp_knob_policy, info->extack);
	if (err)
		return err;
	rtnl_lock();
	pair = vqp_lookup(genl_info_net(info), info->attrs, true, info->extack);
	if (IS_ERR(pair)) {
		err = PTR_ERR(pair);
		goto out_unlock;
	}
	if (info->attrs[VQPAIR_A_QUEUE_ID]) {
		queue = nla_get_u32(info->attrs[VQPAIR_A_QUEUE_ID]);
		if (queue >= pair->nq) {
			NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[VQPAIR_A_QUEUE_ID],
					    "vqpair: queue id beyond the number of queues");
			err = -EINVAL;
			goto out_unlock;
		}
	}
	err = -EINVAL;
	for (k = 1; k <= VQPAIR_KNOB_MAX; k++) {
		if (!tb[k])
			continue;
		err = vqp_knob_set(pair, queue, k, nla_get_u32(tb[k]), info->extack);
		if (err)
			break;
	}
	if (err == -EINVAL && !info->extack->_msg)
		NL_SET_ERR_MSG(info->extack, "vqpair: no knob given");
out_unlock:
	rtnl_unlock();
	return err;
}

static const struct genl_ops vqp_ops[] = {
	{
		.cmd	= VQPAIR_CMD_PAIR_GET,
		.doit	= vqp_nl_pair_get_doit,
		.dumpit	= vqp_nl_pair_get_dumpit,
	},
	{
		.cmd	= VQPAIR_CMD_QSTATS_GET,
		.dumpit	= vqp_nl_qstats_dumpit,
	},
	{
		.cmd	= VQPAIR_CMD_KNOB_SET,
		.doit	= vqp_nl_knob_set_doit,
		.flags	= GENL_ADMIN_PERM,
	},
};

static struct genl_family vqp_family = {
	.name		= VQPAIR_GENL_NAME,
	.version	= VQPAIR_GENL_VERSION,
	.maxattr	= VQPAIR_A_MAX,
	.policy		= vqp_policy,
	.netnsok	= true,
	.module		= THIS_MODULE,
	.ops		= vqp_ops,
	.n_ops		= ARRAY_SIZE(vqp_ops),
	.resv_start_op	= VQPAIR_CMD_KNOB_NTF + 1,
	.mcgrps		= vqp_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(vqp_mcgrps),
};

/* one event per changed knob, in the front's netns; RTNL held */
void vqp_genl_notify(struct vqp_pair *pair, int queue, int knob, u32 old, u32 val)
{
	struct net_device *front = rtnl_dereference(pair->front);
	struct sk_buff *msg;
	void *hdr;

	if (!front || !genl_has_listeners(&vqp_family, dev_net(front), VQP_MCGRP_EVENTS))
		return;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &vqp_family, 0, VQPAIR_CMD_KNOB_NTF);
	if (!hdr)
		goto err_free;
	if (nla_put_u32(msg, VQPAIR_A_IFINDEX, front->ifindex) ||
	    (queue >= 0 && nla_put_u32(msg, VQPAIR_A_QUEUE_ID, queue)) ||
	    nla_put_u32(msg, VQPAIR_A_KNOB, knob) || nla_put_u32(msg, VQPAIR_A_OLD, old) ||
	    nla_put_u32(msg, VQPAIR_A_NEW, val))
		goto err_free;
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&vqp_family, dev_net(front), msg, 0, VQP_MCGRP_EVENTS,
				GFP_KERNEL);
	return;
err_free:
	nlmsg_free(msg);
}

int vqp_genl_init(void)
{
	return genl_register_family(&vqp_family);
}

void vqp_genl_exit(void)
{
	genl_unregister_family(&vqp_family);
}
