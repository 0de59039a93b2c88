// SPDX-License-Identifier: GPL-2.0-only
/*
 * eth: ethtool generic netlink family over libmnl (coalesce, rings, channels). Spec:
 * Documentation/netlink/specs/ethtool.yaml and Documentation/networking/ethtool-netlink.rst.
 * The request machinery (socket, checked sequence numbers, extack text kept for the caller)
 * is genl.c's, shared with nl_netdev.c; each family still gets its own socket and file
 * (STYLE.md rule 5).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "ethtool_ids.h"
#include "genl.h"
#include "nl_ethtool.h"

#define ETH_N_OF(a)	(sizeof(a) / sizeof((a)[0]))

struct eth_sock {
	struct genl_sock g;
};

int eth_open(struct eth_sock **out)
{
	struct eth_sock *s;
	int ret;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	ret = genl_sock_open(&s->g, ETHTOOL_GENL_NAME);
	if (ret)
		goto err_free;
	*out = s;
	return 0;

err_free:
	free(s);
	return ret;
}

void eth_close(struct eth_sock *s)
{
	if (!s)
		return;
	genl_sock_close(&s->g);
	free(s);
}

/* ---- settings news (the "monitor" group) ---- */

struct eth_mon {
	struct genl_sock g;
};

int eth_mon_open(struct eth_mon **out)
{
	struct eth_mon *m;
	int ret;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	ret = genl_mon_open(&m->g, ETHTOOL_GENL_NAME, ETHTOOL_MCGRP_MONITOR_NAME);
	if (ret) {
		free(m);
		return ret;
	}
	*out = m;
	return 0;
}

void eth_mon_close(struct eth_mon *m)
{
	if (!m)
		return;
	genl_sock_close(&m->g);
	free(m);
}

static int eth_hdr_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, ETHTOOL_A_HEADER_MAX) < 0)
		return MNL_CB_OK;
	if (type == ETHTOOL_A_HEADER_DEV_INDEX && mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
		return MNL_CB_ERROR;
	tb[type] = attr;
	return MNL_CB_OK;
}

int eth_parse_ntf(const struct nlmsghdr *nlh, uint16_t family, int *ifindex,
		  enum eth_ntf *what)
{
	const struct nlattr *tb[ETHTOOL_A_HEADER_MAX + 1] = {};
	const struct genlmsghdr *g;
	const struct nlattr *a;

	if (nlh->nlmsg_type != family)
		return 0;
	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*g)))
		return -EBADMSG;
	g = mnl_nlmsg_get_payload(nlh);
	switch (g->cmd) {
	case ETHTOOL_MSG_COALESCE_NTF:
		*what = ETH_NTF_COALESCE;
		break;
	case ETHTOOL_MSG_RINGS_NTF:
		*what = ETH_NTF_RINGS;
		break;
	case ETHTOOL_MSG_CHANNELS_NTF:
		*what = ETH_NTF_CHANNELS;
		break;
	default:
		return 0;
	}
	/* the *_HEADER nest is attribute 1 in all three (the _Static_assert below) */
	mnl_attr_for_each(a, nlh, sizeof(*g)) {
		if (mnl_attr_get_type(a) != ETHTOOL_A_COALESCE_HEADER)
			continue;
		if (mnl_attr_validate(a, MNL_TYPE_NESTED) < 0 ||
		    mnl_attr_parse_nested(a, eth_hdr_attr_cb, tb) < 0)
			return -EBADMSG;
		break;
	}
	if (!tb[ETHTOOL_A_HEADER_DEV_INDEX])
		return -EBADMSG;
	*ifindex = (int)mnl_attr_get_u32(tb[ETHTOOL_A_HEADER_DEV_INDEX]);
	return 1;
}

int eth_mon_drain(struct eth_mon *m, void (*cb)(int ifindex, enum eth_ntf what, void *arg),
		  void *arg)
{
	int fd = mnl_socket_get_fd(m->g.nl), ret = 0, ifindex, len;
	const struct nlmsghdr *nlh;
	enum eth_ntf what;
	ssize_t n;

	for (;;) {
		n = recv(fd, m->g.rbuf, sizeof(m->g.rbuf), MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				ret = -ENOBUFS;		/* lost some; read on: what follows counts */
				continue;
			}
			return errno == EAGAIN || errno == EWOULDBLOCK ? ret : -errno;
		}
		if (n == 0)
			return ret;
		len = (int)n;
		for (nlh = (const struct nlmsghdr *)m->g.rbuf; mnl_nlmsg_ok(nlh, len);
		     nlh = mnl_nlmsg_next(nlh, &len)) {
			if (eth_parse_ntf(nlh, m->g.family, &ifindex, &what) == 1)
				cb(ifindex, what, arg);
		}
	}
}

/* ---- parsers: validate into tb[], then read tb[] ---- */

/* every *_HEADER nest is attribute 1, so one request builder serves all three families */
_Static_assert((int)ETHTOOL_A_RINGS_HEADER == (int)ETHTOOL_A_COALESCE_HEADER &&
	       (int)ETHTOOL_A_CHANNELS_HEADER == (int)ETHTOOL_A_COALESCE_HEADER, "header ids");

/* Highest attribute id we size tb[] for: coalesce tx-profile (30) is the largest known. */
#define ETH_TB_MAX	64

enum { ETH_U32 = 1, ETH_U8 };

/* output slot i <- attribute map[i].attr of kind map[i].kind */
struct eth_map {
	uint16_t attr;
	uint8_t kind;
};

static const struct eth_map eth_co_map[ETH_CO_NUM] = {
	[ETH_CO_RX_USECS] = { ETHTOOL_A_COALESCE_RX_USECS, ETH_U32 },
	[ETH_CO_RX_FRAMES] = { ETHTOOL_A_COALESCE_RX_MAX_FRAMES, ETH_U32 },
	[ETH_CO_TX_USECS] = { ETHTOOL_A_COALESCE_TX_USECS, ETH_U32 },
	[ETH_CO_TX_FRAMES] = { ETHTOOL_A_COALESCE_TX_MAX_FRAMES, ETH_U32 },
	[ETH_CO_ADAPTIVE_RX] = { ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, ETH_U8 },
	[ETH_CO_ADAPTIVE_TX] = { ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX, ETH_U8 },
};

/* order = struct eth_rings present bits */
static const struct eth_map eth_ring_map[] = {
	{ ETHTOOL_A_RINGS_RX, ETH_U32 }, { ETHTOOL_A_RINGS_RX_MAX, ETH_U32 },
	{ ETHTOOL_A_RINGS_TX, ETH_U32 }, { ETHTOOL_A_RINGS_TX_MAX, ETH_U32 },
};

/* order = struct eth_channels fields and present bits */
static const struct eth_map eth_chan_map[] = {
	{ ETHTOOL_A_CHANNELS_RX_COUNT, ETH_U32 }, { ETHTOOL_A_CHANNELS_RX_MAX, ETH_U32 },
	{ ETHTOOL_A_CHANNELS_TX_COUNT, ETH_U32 }, { ETHTOOL_A_CHANNELS_TX_MAX, ETH_U32 },
	{ ETHTOOL_A_CHANNELS_COMBINED_COUNT, ETH_U32 },
	{ ETHTOOL_A_CHANNELS_COMBINED_MAX, ETH_U32 },
	{ ETHTOOL_A_CHANNELS_OTHER_COUNT, ETH_U32 }, { ETHTOOL_A_CHANNELS_OTHER_MAX, ETH_U32 },
};

struct eth_tb {
	const struct nlattr *tb[ETH_TB_MAX + 1];
	const struct eth_map *map;
	unsigned int n;
};

static int eth_attr_cb(const struct nlattr *attr, void *data)
{
	struct eth_tb *t = data;
	uint16_t type = mnl_attr_get_type(attr);
	unsigned int i;

	if (mnl_attr_type_valid(attr, ETH_TB_MAX) < 0)
		return MNL_CB_OK;
	for (i = 0; i < t->n; i++) {
		if (t->map[i].attr != type)
			continue;
		if (mnl_attr_validate(attr, t->map[i].kind == ETH_U8 ? MNL_TYPE_U8
								    : MNL_TYPE_U32) < 0)
			return MNL_CB_ERROR;
		t->tb[type] = attr;
	}
	return MNL_CB_OK;	/* the header nest and attributes we do not use are skipped */
}

/* Fill @vals[i] and bit i of @present from map[i]. Returns 0 or -EBADMSG. */
static int eth_parse_map(const struct nlmsghdr *nlh, const struct eth_map *map, unsigned int n,
			 uint32_t *vals, uint32_t *present)
{
	struct eth_tb t = { .map = map, .n = n };
	unsigned int i;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr))
		return -EBADMSG;
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), eth_attr_cb, &t) < 0)
		return -EBADMSG;
	*present = 0;
	for (i = 0; i < n; i++) {
		const struct nlattr *a = t.tb[map[i].attr];

		vals[i] = 0;
		if (!a)
			continue;
		*present |= 1u << i;
		vals[i] = map[i].kind == ETH_U8 ? mnl_attr_get_u8(a) : mnl_attr_get_u32(a);
	}
	return 0;
}

int eth_parse_coalesce(const struct nlmsghdr *nlh, struct eth_coalesce *out)
{
	return eth_parse_map(nlh, eth_co_map, ETH_CO_NUM, out->val, &out->present);
}

int eth_parse_rings(const struct nlmsghdr *nlh, struct eth_rings *out)
{
	uint32_t v[ETH_N_OF(eth_ring_map)];
	int ret;

	ret = eth_parse_map(nlh, eth_ring_map, ETH_N_OF(eth_ring_map), v, &out->present);
	if (ret)
		return ret;
	out->rx = v[0];
	out->rx_max = v[1];
	out->tx = v[2];
	out->tx_max = v[3];
	return 0;
}

int eth_parse_channels(const struct nlmsghdr *nlh, struct eth_channels *out)
{
	uint32_t v[ETH_N_OF(eth_chan_map)];
	int ret;

	ret = eth_parse_map(nlh, eth_chan_map, ETH_N_OF(eth_chan_map), v, &out->present);
	if (ret)
		return ret;
	out->rx = v[0];
	out->rx_max = v[1];
	out->tx = v[2];
	out->tx_max = v[3];
	out->combined = v[4];
	out->combined_max = v[5];
	out->other = v[6];
	out->other_max = v[7];
	return 0;
}

/* ---- requests ---- */

/* genl header + ETHTOOL_A_*_HEADER nest naming the device (ethtool-netlink.rst "Request header") */
static struct nlmsghdr *eth_req(char *buf, struct eth_sock *s, uint8_t cmd, uint16_t nlflags,
				int ifindex, uint32_t ethflags)
{
	struct nlmsghdr *nlh = genl_req(buf, s->g.family, nlflags, cmd, ETHTOOL_GENL_VERSION);
	struct nlattr *nest = mnl_attr_nest_start(nlh, ETHTOOL_A_COALESCE_HEADER);

	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_DEV_INDEX, (uint32_t)ifindex);
	if (ethflags)
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, ethflags);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

struct eth_get_ctx {
	struct genl_ack ack;	/* first: see struct genl_ack */
	int (*parse)(const struct nlmsghdr *nlh, void *out);
	void *out;
	int got;
};

static int eth_get_cb(const struct nlmsghdr *nlh, void *data)
{
	struct eth_get_ctx *c = data;
	int ret;

	if (c->ack.error)
		return MNL_CB_OK;
	ret = c->parse(nlh, c->out);
	if (ret)
		c->ack.error = ret;
	else
		c->got = 1;
	return MNL_CB_OK;
}

static int eth_get(struct eth_sock *s, uint8_t cmd, int ifindex,
		   int (*parse)(const struct nlmsghdr *, void *), void *out, char *err,
		   size_t errlen)
{
	char buf[GENL_REQ_BYTES];
	struct eth_get_ctx c = { .ack = { .err = err, .errlen = errlen }, .parse = parse,
				 .out = out };
	struct nlmsghdr *nlh;
	int ret;

	if (ifindex <= 0)
		return -EINVAL;
	/* NLM_F_ACK: the ack after the reply tells us the exchange is over */
	nlh = eth_req(buf, s, cmd, NLM_F_ACK, ifindex, 0);
	ret = genl_run(&s->g, nlh, eth_get_cb, &c.ack);
	if (!ret && !c.got)
		return -EBADMSG;
	return ret;
}

static int eth_parse_coalesce_v(const struct nlmsghdr *nlh, void *out)
{
	return eth_parse_coalesce(nlh, out);
}

static int eth_parse_rings_v(const struct nlmsghdr *nlh, void *out)
{
	return eth_parse_rings(nlh, out);
}

static int eth_parse_channels_v(const struct nlmsghdr *nlh, void *out)
{
	return eth_parse_channels(nlh, out);
}

int eth_coalesce_get(struct eth_sock *s, int ifindex, struct eth_coalesce *out,
		     char *err, size_t errlen)
{
	return eth_get(s, ETHTOOL_MSG_COALESCE_GET, ifindex, eth_parse_coalesce_v, out, err,
		       errlen);
}

int eth_rings_get(struct eth_sock *s, int ifindex, struct eth_rings *out,
		  char *err, size_t errlen)
{
	return eth_get(s, ETHTOOL_MSG_RINGS_GET, ifindex, eth_parse_rings_v, out, err, errlen);
}

int eth_channels_get(struct eth_sock *s, int ifindex, struct eth_channels *out,
		     char *err, size_t errlen)
{
	return eth_get(s, ETHTOOL_MSG_CHANNELS_GET, ifindex, eth_parse_channels_v, out, err,
		       errlen);
}

/* One SET carrying the single attribute @m (the kernel leaves every other value as is). */
static int eth_set(struct eth_sock *s, uint8_t cmd, int ifindex, const struct eth_map *m,
		   uint32_t value, char *err, size_t errlen)
{
	char buf[GENL_REQ_BYTES];
	struct genl_ack ack = { .err = err, .errlen = errlen };
	struct nlmsghdr *nlh;

	if (err && errlen)
		err[0] = '\0';
	if (ifindex <= 0)
		return -EINVAL;
	if (m->kind == ETH_U8 && value > UINT8_MAX)
		return -ERANGE;
	/* OMIT_REPLY: we only want the ack, not a reply/echo of the new state */
	nlh = eth_req(buf, s, cmd, NLM_F_ACK, ifindex, ETHTOOL_FLAG_OMIT_REPLY);
	if (m->kind == ETH_U8)
		mnl_attr_put_u8(nlh, m->attr, (uint8_t)value);
	else
		mnl_attr_put_u32(nlh, m->attr, value);
	return genl_run(&s->g, nlh, genl_ack_only_cb, &ack);
}

int eth_coalesce_set(struct eth_sock *s, int ifindex, enum eth_co which, uint32_t value,
		     char *err, size_t errlen)
{
	if ((unsigned int)which >= ETH_CO_NUM)
		return -EINVAL;
	return eth_set(s, ETHTOOL_MSG_COALESCE_SET, ifindex, &eth_co_map[which], value, err,
		       errlen);
}

int eth_rings_set(struct eth_sock *s, int ifindex, enum eth_ring_field which, uint32_t value,
		  char *err, size_t errlen)
{
	static const struct eth_map m[] = {
		[ETH_RING_RX] = { ETHTOOL_A_RINGS_RX, ETH_U32 },
		[ETH_RING_TX] = { ETHTOOL_A_RINGS_TX, ETH_U32 },
	};

	if ((unsigned int)which > ETH_RING_TX)
		return -EINVAL;
	return eth_set(s, ETHTOOL_MSG_RINGS_SET, ifindex, &m[which], value, err, errlen);
}

int eth_channels_set(struct eth_sock *s, int ifindex, enum eth_chan_field which,
		     uint32_t value, char *err, size_t errlen)
{
	static const struct eth_map m[] = {
		[ETH_CHAN_RX] = { ETHTOOL_A_CHANNELS_RX_COUNT, ETH_U32 },
		[ETH_CHAN_TX] = { ETHTOOL_A_CHANNELS_TX_COUNT, ETH_U32 },
		[ETH_CHAN_COMBINED] = { ETHTOOL_A_CHANNELS_COMBINED_COUNT, ETH_U32 },
	};

	if ((unsigned int)which > ETH_CHAN_COMBINED)
		return -EINVAL;
	return eth_set(s, ETHTOOL_MSG_CHANNELS_SET, ifindex, &m[which], value, err, errlen);
}

int eth_set_probe(struct eth_sock *s, int ifindex, enum eth_op op, char *err, size_t errlen)
{
	static const uint8_t cmd[] = {
		[ETH_OP_COALESCE] = ETHTOOL_MSG_COALESCE_SET,
		[ETH_OP_RINGS] = ETHTOOL_MSG_RINGS_SET,
		[ETH_OP_CHANNELS] = ETHTOOL_MSG_CHANNELS_SET,
	};
	char buf[GENL_REQ_BYTES];
	struct genl_ack ack = { .err = err, .errlen = errlen };
	struct nlmsghdr *nlh;

	if (err && errlen)
		err[0] = '\0';
	if (ifindex <= 0 || (unsigned int)op >= ETH_N_OF(cmd))
		return -EINVAL;
	/* header only: no attribute, so nothing to modify (see nl_ethtool.h) */
	nlh = eth_req(buf, s, cmd[op], NLM_F_ACK, ifindex, ETHTOOL_FLAG_OMIT_REPLY);
	return genl_run(&s->g, nlh, genl_ack_only_cb, &ack);
}

int eth_parse_ack(const struct nlmsghdr *nlh, char *err, size_t errlen)
{
	return genl_parse_ack(nlh, err, errlen);
}
