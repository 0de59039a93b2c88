// SPDX-License-Identifier: GPL-2.0-only
/*
 * genl: generic netlink socket handling shared by the family files, following libmnl's
 * examples/genl: the attribute callback validates into tb[], the data callback only reads
 * tb[]. Contracts in genl.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "genl.h"

/* genl controller protocol version used by iproute2/ethtool for CTRL_CMD_GETFAMILY */
#define GENL_CTRL_VERSION	1

/* Copy NLMSGERR_ATTR_MSG (or a note on a missing attribute) found at @off into @a->err. */
static void genl_extack(const struct nlmsghdr *nlh, size_t off, struct genl_ack *a)
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

static int genl_err_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct genl_ack *a = data;
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
		genl_extack(nlh, off, a);
	}
	return MNL_CB_STOP;
}

/* NLMSG_DONE carries the dump's final status (an int) and, with extack, TLVs after it. */
static int genl_done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct genl_ack *a = data;
	int status;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(status)) {
		memcpy(&status, mnl_nlmsg_get_payload(nlh), sizeof(status));
		if (status < 0 && !a->error) {
			a->error = status;
			genl_extack(nlh, sizeof(status), a);
		}
	}
	return MNL_CB_STOP;
}

int genl_run(struct genl_sock *s, struct nlmsghdr *nlh, mnl_cb_t cb, struct genl_ack *ack)
{
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = { [NLMSG_ERROR] = genl_err_cb,
					 [NLMSG_DONE] = genl_done_cb };
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

int genl_ack_only_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_OK;
}

int genl_parse_ack(const struct nlmsghdr *nlh, char *err, size_t errlen)
{
	struct genl_ack ack = { .err = err, .errlen = errlen };

	if (err && errlen)
		err[0] = '\0';
	if (nlh->nlmsg_type == NLMSG_DONE)
		genl_done_cb(nlh, &ack);
	else if (nlh->nlmsg_type == NLMSG_ERROR)
		genl_err_cb(nlh, &ack);
	else
		return -EBADMSG;
	return ack.error;
}

struct nlmsghdr *genl_req(char *buf, uint16_t type, uint16_t flags, uint8_t cmd,
			  uint8_t version)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	/* libmnl 1.0.4 leaves attribute padding unset; never send stack garbage */
	memset(buf, 0, GENL_REQ_BYTES);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

/* ---- family resolution (CTRL_CMD_GETFAMILY) ---- */

struct genl_family_ctx {
	struct genl_ack ack;	/* first: see struct genl_ack */
	uint16_t id;
	const char *group;	/* multicast group to look up, NULL: none */
	uint32_t group_id;	/* its id; 0: not found (genetlink never gives out 0) */
};

static int genl_ctrl_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, CTRL_ATTR_MAX) < 0)
		return MNL_CB_OK;
	if (type == CTRL_ATTR_FAMILY_ID && mnl_attr_validate(attr, MNL_TYPE_U16) < 0)
		return MNL_CB_ERROR;
	if (type == CTRL_ATTR_MCAST_GROUPS && mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
		return MNL_CB_ERROR;
	tb[type] = attr;
	return MNL_CB_OK;
}

static int genl_grp_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, CTRL_ATTR_MCAST_GRP_MAX) < 0)
		return MNL_CB_OK;
	if ((type == CTRL_ATTR_MCAST_GRP_ID && mnl_attr_validate(attr, MNL_TYPE_U32) < 0) ||
	    (type == CTRL_ATTR_MCAST_GRP_NAME && mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0))
		return MNL_CB_ERROR;
	tb[type] = attr;
	return MNL_CB_OK;
}

/* CTRL_ATTR_MCAST_GROUPS: a nest of nests, each a group's name and id */
static void genl_find_group(const struct nlattr *groups, struct genl_family_ctx *c)
{
	const struct nlattr *g;

	mnl_attr_for_each_nested(g, groups) {
		const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1] = {};

		if (mnl_attr_parse_nested(g, genl_grp_attr_cb, tb) < 0) {
			c->ack.error = -EBADMSG;
			return;
		}
		if (tb[CTRL_ATTR_MCAST_GRP_NAME] && tb[CTRL_ATTR_MCAST_GRP_ID] &&
		    !strcmp(mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]), c->group))
			c->group_id = mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	}
}

static int genl_family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1] = {};
	struct genl_family_ctx *c = data;

	/* errors are recorded, not returned, so mnl_cb_run2() keeps reading to the ack */
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), genl_ctrl_attr_cb, tb) < 0)
		c->ack.error = -EBADMSG;
	else if (tb[CTRL_ATTR_FAMILY_ID])
		c->id = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (c->group && tb[CTRL_ATTR_MCAST_GROUPS])
		genl_find_group(tb[CTRL_ATTR_MCAST_GROUPS], c);
	return MNL_CB_OK;
}

/* Family @name's id into @s->family, and when @group is given its id into @group_id. */
static int genl_resolve(struct genl_sock *s, const char *name, const char *group,
			uint32_t *group_id)
{
	char buf[GENL_REQ_BYTES];
	struct genl_family_ctx c = { .ack = { 0 }, .group = group };
	struct nlmsghdr *nlh;
	int ret;

	nlh = genl_req(buf, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY, GENL_CTRL_VERSION);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	ret = genl_run(s, nlh, genl_family_cb, &c.ack);
	/* the controller answers ENOENT for a family this kernel does not have */
	if (ret == -ENOENT)
		return -EOPNOTSUPP;
	if (ret)
		return ret;
	if (!c.id || (group && !c.group_id))
		return -EOPNOTSUPP;
	s->family = c.id;
	if (group)
		*group_id = c.group_id;
	return 0;
}

static int genl_open(struct genl_sock *s, const char *name, const char *group)
{
	uint32_t group_id = 0;
	int one = 1, ret;

	s->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!s->nl)
		return -errno;
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
	ret = genl_resolve(s, name, group, &group_id);
	if (ret)
		goto err_close;
	if (group && mnl_socket_setsockopt(s->nl, NETLINK_ADD_MEMBERSHIP, &group_id,
					   sizeof(group_id)) < 0) {
		ret = -errno;
		goto err_close;
	}
	return 0;

err_close:
	mnl_socket_close(s->nl);
	s->nl = NULL;
	return ret;
}

int genl_sock_open(struct genl_sock *s, const char *name)
{
	return genl_open(s, name, NULL);
}

int genl_mon_open(struct genl_sock *s, const char *name, const char *group)
{
	return genl_open(s, name, group);
}

void genl_sock_close(struct genl_sock *s)
{
	if (!s || !s->nl)
		return;
	mnl_socket_close(s->nl);
	s->nl = NULL;
}
