// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "rtnl_stats.h"

struct rst_sock {
	struct mnl_socket *nl;
	unsigned int portid;
	uint32_t seq;
};

struct rst_dump_ctx {
	void (*cb)(int ifindex, const struct rtnl_link_stats64 *st, void *arg);
	void *arg;
};

int rst_open(struct rst_sock **out)
{
	struct rst_sock *s = calloc(1, sizeof(*s));
	int one = 1;

	if (!s)
		return -ENOMEM;
	s->nl = mnl_socket_open(NETLINK_ROUTE);
	if (!s->nl) {
		free(s);
		return -errno;
	}
	/* errors come back with the kernel's text, and without our request echoed */
	mnl_socket_setsockopt(s->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(s->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(s->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		int ret = -errno;

		mnl_socket_close(s->nl);
		free(s);
		return ret;
	}
	s->portid = mnl_socket_get_portid(s->nl);
	s->seq = time(NULL);
	*out = s;
	return 0;
}

void rst_close(struct rst_sock *s)
{
	if (!s)
		return;
	mnl_socket_close(s->nl);
	free(s);
}

static int stats_attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;

	/* unknown attributes are skipped; the one we use must have its full size */
	if (mnl_attr_type_valid(a, IFLA_STATS_MAX) < 0)
		return MNL_CB_OK;
	if (mnl_attr_get_type(a) == IFLA_STATS_LINK_64 &&
	    mnl_attr_get_payload_len(a) < sizeof(struct rtnl_link_stats64))
		return MNL_CB_OK;
	tb[mnl_attr_get_type(a)] = a;
	return MNL_CB_OK;
}

static int stats_data_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[IFLA_STATS_MAX + 1] = { 0 };
	struct rst_dump_ctx *ctx = data;
	const struct if_stats_msg *ifsm = mnl_nlmsg_get_payload(nlh);
	struct rtnl_link_stats64 st;

	if (nlh->nlmsg_type != RTM_NEWSTATS ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifsm))
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(*ifsm), stats_attr_cb, tb);
	if (!tb[IFLA_STATS_LINK_64])
		return MNL_CB_OK;
	/* the attribute is 4-byte aligned only: copy out before reading u64s */
	memcpy(&st, mnl_attr_get_payload(tb[IFLA_STATS_LINK_64]), sizeof(st));
	ctx->cb(ifsm->ifindex, &st, ctx->arg);
	return MNL_CB_OK;
}

int rst_dump(struct rst_sock *s,
	     void (*cb)(int ifindex, const struct rtnl_link_stats64 *st, void *arg), void *arg)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct rst_dump_ctx ctx = { cb, arg };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct if_stats_msg *ifsm;
	uint32_t seq = ++s->seq;
	int ret;

	nlh->nlmsg_type = RTM_GETSTATS;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	ifsm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifsm));
	ifsm->filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64);
	if (mnl_socket_sendto(s->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(s->nl, buf, sizeof(buf));

		if (n < 0)
			return -errno;
		ret = mnl_cb_run(buf, n, seq, s->portid, stats_data_cb, &ctx);
		if (ret == MNL_CB_ERROR)
			return errno == EINVAL ? -EOPNOTSUPP : -errno;
		if (ret == MNL_CB_STOP)
			return 0;
	}
}
