// SPDX-License-Identifier: GPL-2.0-only
/*
 * eth: ethtool generic netlink family over libmnl (coalesce, rings, channels). Spec:
 * Documentation/netlink/specs/ethtool.yaml and Documentation/networking/ethtool-netlink.rst.
 * Same request machinery as nl_netdev.c (libmnl examples/genl pattern, checked sequence
 * numbers, extack text kept for the caller); the two files stay separate because each
 * family gets its own socket and file (STYLE.md rule 5).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "ethtool_ids.h"
#include "nl_ethtool.h"

/* Receive buffer: replies here are one small message each; 32 KiB matches nl_netdev.c. */
#define ETH_RCVBUF_BYTES	32768
/* Request buffer: headers, one header nest and one attribute. */
#define ETH_SNDBUF_BYTES	512
/* genl controller protocol version used by iproute2/ethtool for CTRL_CMD_GETFAMILY */
#define ETH_CTRL_VERSION	1

#define ETH_N_OF(a)	(sizeof(a) / sizeof((a)[0]))

struct eth_sock {
	struct mnl_socket *nl;
	uint32_t portid;
	uint32_t seq;
	uint16_t family;
	char rbuf[ETH_RCVBUF_BYTES];
};

/* Error/extack state of one request. */
struct eth_ack {
	int error;		/* 0 or -errno from NLMSG_ERROR / NLMSG_DONE */
	char *err;
	size_t errlen;
};

/* Copy NLMSGERR_ATTR_MSG (or a note on a missing attribute) found at @off into @a->err. */
static void eth_extack(const struct nlmsghdr *nlh, size_t off, struct eth_ack *a)
{
	const struct nlattr *attr;

	if (!a->err || !a->errlen || !(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    off >= mnl_nlmsg_get_payload_len(nlh))
		return;
	mnl_attr_for_each(attr, nlh, off) {
		uint16_t type = mnl_attr_get_type(attr);

		if (type == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0) {
			snprintf(a->err, a->errlen, "%s", mnl_attr_get_str(attr));
			return;
		}
		if (type == NLMSGERR_ATTR_MISS_TYPE && !a->err[0] &&
		    mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			snprintf(a->err, a->errlen, "missing attribute %u",
				 mnl_attr_get_u32(attr));
	}
}

static int eth_err_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct eth_ack *a = data;
	size_t off = sizeof(*e);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e)) {
		a->error = -EBADMSG;
		return MNL_CB_STOP;
	}
	/* without NLM_F_CAPPED the whole request is echoed before the TLVs */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) && e->msg.nlmsg_len >= sizeof(struct nlmsghdr))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	/* a data callback's earlier error wins over the final ack */
	if (e->error && !a->error) {
		a->error = e->error;
		eth_extack(nlh, off, a);
	}
	return MNL_CB_STOP;
}

/* NLMSG_DONE carries the dump's final status (an int) and, with extack, TLVs after it. */
static int eth_done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct eth_ack *a = data;
	int status;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(status)) {
		memcpy(&status, mnl_nlmsg_get_payload(nlh), sizeof(status));
		if (status < 0 && !a->error) {
			a->error = status;
			eth_extack(nlh, sizeof(status), a);
		}
	}
	return MNL_CB_STOP;
}

/*
 * Send @nlh with the next sequence number and read replies until the ack or NLMSG_DONE.
 * mnl hands the same pointer to data and control callbacks, so every request context
 * starts with its struct eth_ack (@ack). Returns 0, the first error a callback or the
 * kernel reported, or -errno.
 */
static int eth_run(struct eth_sock *s, struct nlmsghdr *nlh, mnl_cb_t cb, struct eth_ack *ack)
{
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = { [NLMSG_ERROR] = eth_err_cb, [NLMSG_DONE] = eth_done_cb };
	uint32_t seq;
	ssize_t n;
	int ret;

	if (ack->err && ack->errlen)
		ack->err[0] = '\0';
	seq = nlh->nlmsg_seq = ++s->seq;
	if (mnl_socket_sendto(s->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(s->nl, s->rbuf, sizeof(s->rbuf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		ret = mnl_cb_run2(s->rbuf, n, seq, s->portid, cb, ack, ctl, NLMSG_MIN_TYPE);
		if (ret == MNL_CB_ERROR)
			return ack->error ? ack->error : -errno;
		if (ret == MNL_CB_STOP)
			return ack->error;
	}
}

/* ---- family resolution (CTRL_CMD_GETFAMILY) ---- */

struct eth_family_ctx {
	struct eth_ack ack;	/* first: see eth_run() */
	uint16_t id;
};

static int eth_ctrl_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, CTRL_ATTR_MAX) < 0)
		return MNL_CB_OK;
	if (type == CTRL_ATTR_FAMILY_ID && mnl_attr_validate(attr, MNL_TYPE_U16) < 0)
		return MNL_CB_ERROR;
	tb[type] = attr;
	return MNL_CB_OK;
}

static int eth_family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1] = {};
	struct eth_family_ctx *c = data;

	/* errors are recorded, not returned, so mnl_cb_run2() keeps reading to the ack */
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), eth_ctrl_attr_cb, tb) < 0)
		c->ack.error = -EBADMSG;
	else if (tb[CTRL_ATTR_FAMILY_ID])
		c->id = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	return MNL_CB_OK;
}

/* @buf holds ETH_SNDBUF_BYTES */
static struct nlmsghdr *eth_genl_hdr(char *buf, uint16_t type, uint16_t flags, uint8_t cmd,
				     uint8_t version)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	/* libmnl 1.0.4 leaves attribute padding unset; never send stack garbage */
	memset(buf, 0, ETH_SNDBUF_BYTES);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

static int eth_resolve(struct eth_sock *s)
{
	char buf[ETH_SNDBUF_BYTES];
	struct eth_family_ctx c = { .ack = { 0 } };
	struct nlmsghdr *nlh;
	int ret;

	nlh = eth_genl_hdr(buf, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY, ETH_CTRL_VERSION);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	ret = eth_run(s, nlh, eth_family_cb, &c.ack);
	if (ret == -ENOENT)
		return -EOPNOTSUPP;
	if (ret)
		return ret;
	if (!c.id)
		return -EOPNOTSUPP;
	s->family = c.id;
	return 0;
}

int eth_open(struct eth_sock **out)
{
	struct eth_sock *s;
	int one = 1, ret;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!s->nl) {
		ret = -errno;
		goto err_free;
	}
	/* extack text for the caller; capped acks so a big request is not echoed back */
	if (mnl_socket_setsockopt(s->nl, NETLINK_EXT_ACK, &one, sizeof(one)) < 0 ||
	    mnl_socket_setsockopt(s->nl, NETLINK_CAP_ACK, &one, sizeof(one)) < 0 ||
	    mnl_socket_bind(s->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		goto err_close;
	}
	s->portid = mnl_socket_get_portid(s->nl);
	/* a time-based start: replies meant for an earlier socket of this port do not match */
	s->seq = (uint32_t)time(NULL);
	ret = eth_resolve(s);
	if (ret)
		goto err_close;
	*out = s;
	return 0;

err_close:
	mnl_socket_close(s->nl);
err_free:
	free(s);
	return ret;
}

void eth_close(struct eth_sock *s)
{
	if (!s)
		return;
	mnl_socket_close(s->nl);
	free(s);
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
	struct nlmsghdr *nlh = eth_genl_hdr(buf, s->family, nlflags, cmd, ETHTOOL_GENL_VERSION);
	struct nlattr *nest = mnl_attr_nest_start(nlh, ETHTOOL_A_COALESCE_HEADER);

	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_DEV_INDEX, (uint32_t)ifindex);
	if (ethflags)
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, ethflags);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

struct eth_get_ctx {
	struct eth_ack ack;	/* first: see eth_run() */
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
	char buf[ETH_SNDBUF_BYTES];
	struct eth_get_ctx c = { .ack = { .err = err, .errlen = errlen }, .parse = parse,
				 .out = out };
	struct nlmsghdr *nlh;
	int ret;

	if (ifindex <= 0)
		return -EINVAL;
	/* NLM_F_ACK: the ack after the reply tells us the exchange is over */
	nlh = eth_req(buf, s, cmd, NLM_F_ACK, ifindex, 0);
	ret = eth_run(s, nlh, eth_get_cb, &c.ack);
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

static int eth_ack_only_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_OK;
}

/* One SET carrying the single attribute @m (the kernel leaves every other value as is). */
static int eth_set(struct eth_sock *s, uint8_t cmd, int ifindex, const struct eth_map *m,
		   uint32_t value, char *err, size_t errlen)
{
	char buf[ETH_SNDBUF_BYTES];
	struct eth_ack ack = { .err = err, .errlen = errlen };
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
	return eth_run(s, nlh, eth_ack_only_cb, &ack);
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

int eth_parse_ack(const struct nlmsghdr *nlh, char *err, size_t errlen)
{
	struct eth_ack ack = { .err = err, .errlen = errlen };

	if (err && errlen)
		err[0] = '\0';
	if (nlh->nlmsg_type == NLMSG_DONE)
		eth_done_cb(nlh, &ack);
	else if (nlh->nlmsg_type == NLMSG_ERROR)
		eth_err_cb(nlh, &ack);
	else
		return -EBADMSG;
	return ack.error;
}
