// SPDX-License-Identifier: GPL-2.0-only
/*
 * ndv: netdev generic netlink family over libmnl. Spec:
 * Documentation/netlink/specs/netdev.yaml. Follows the libmnl examples/genl pattern: an
 * attribute callback validates known attributes into tb[] and skips unknown ones, the data
 * callback only reads tb[]. The socket, sequence checks and NLMSG_ERROR / NLMSG_DONE (so
 * the kernel's extack text reaches the caller) are genl.c's, shared with nl_ethtool.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "genl.h"
#include "netdev_ids.h"
#include "nl_netdev.h"

/* netdev family version in the spec (netdev.yaml has no "version", so genl default 1). */
#define NDV_GENL_VERSION	1

struct ndv_sock {
	struct genl_sock g;
};

/* NLA_UINT (netdev.yaml "uint"): 4 or 8 bytes, like mnl_attr_get_uint() in libmnl 1.0.5. */
static uint64_t ndv_attr_get_uint(const struct nlattr *a)
{
	if (mnl_attr_get_payload_len(a) == sizeof(uint64_t))
		return mnl_attr_get_u64(a);
	return mnl_attr_get_u32(a);
}

static int ndv_attr_validate_uint(const struct nlattr *a)
{
	uint16_t len = mnl_attr_get_payload_len(a);

	return (len == sizeof(uint32_t) || len == sizeof(uint64_t)) ? 0 : -1;
}

int ndv_open(struct ndv_sock **out)
{
	struct ndv_sock *s;
	int ret;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	ret = genl_sock_open(&s->g, VQ_NETDEV_FAMILY_NAME);
	if (ret)
		goto err_free;
	*out = s;
	return 0;

err_free:
	free(s);
	return ret;
}

void ndv_close(struct ndv_sock *s)
{
	if (!s)
		return;
	genl_sock_close(&s->g);
	free(s);
}

/* ---- parsers: validate into tb[], then read tb[] ---- */

/* attribute kinds for ndv_attr_cb(), per attribute type */
enum { NDV_SKIP, NDV_UINT, NDV_U32 };

struct ndv_tb {
	const struct nlattr **tb;
	int max;
	const uint8_t *kinds;	/* indexed by type, max + 1 entries */
};

/* Every known netdev attribute we read is u32 or uint; all others are skipped unread. */
static int ndv_attr_cb(const struct nlattr *attr, void *data)
{
	const struct ndv_tb *t = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, t->max) < 0)
		return MNL_CB_OK;
	if (t->kinds[type] == NDV_UINT) {
		if (ndv_attr_validate_uint(attr) < 0)
			return MNL_CB_ERROR;
	} else if (t->kinds[type] == NDV_U32) {
		if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
			return MNL_CB_ERROR;
	} else {
		return MNL_CB_OK;	/* known to the spec, not read here */
	}
	t->tb[type] = attr;
	return MNL_CB_OK;
}

static const uint8_t ndv_napi_kinds[VQ_NETDEV_A_NAPI_MAX + 1] = {
	[VQ_NETDEV_A_NAPI_IFINDEX] = NDV_U32,
	[VQ_NETDEV_A_NAPI_ID] = NDV_U32,
	[VQ_NETDEV_A_NAPI_IRQ] = NDV_U32,
	[VQ_NETDEV_A_NAPI_PID] = NDV_U32,
	[VQ_NETDEV_A_NAPI_DEFER_HARD_IRQS] = NDV_U32,
	[VQ_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT] = NDV_UINT,
	[VQ_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT] = NDV_UINT,
	[VQ_NETDEV_A_NAPI_THREADED] = NDV_U32,
};

static const uint8_t ndv_queue_kinds[VQ_NETDEV_A_QUEUE_MAX + 1] = {
	[VQ_NETDEV_A_QUEUE_ID] = NDV_U32,
	[VQ_NETDEV_A_QUEUE_IFINDEX] = NDV_U32,
	[VQ_NETDEV_A_QUEUE_TYPE] = NDV_U32,
	[VQ_NETDEV_A_QUEUE_NAPI_ID] = NDV_U32,
};

static const uint8_t ndv_qstats_kinds[VQ_NETDEV_A_QSTATS_MAX + 1] = {
	[VQ_NETDEV_A_QSTATS_IFINDEX] = NDV_U32,
	[VQ_NETDEV_A_QSTATS_QUEUE_TYPE] = NDV_U32,
	[VQ_NETDEV_A_QSTATS_QUEUE_ID] = NDV_U32,
	[VQ_NETDEV_A_QSTATS_RX_PACKETS] = NDV_UINT,
	[VQ_NETDEV_A_QSTATS_RX_BYTES] = NDV_UINT,
	[VQ_NETDEV_A_QSTATS_TX_PACKETS] = NDV_UINT,
	[VQ_NETDEV_A_QSTATS_TX_BYTES] = NDV_UINT,
	[VQ_NETDEV_A_QSTATS_RX_ALLOC_FAIL] = NDV_UINT,
	[VQ_NETDEV_A_QSTATS_RX_HW_DROPS] = NDV_UINT,
	[VQ_NETDEV_A_QSTATS_TX_HW_DROPS] = NDV_UINT,
	[VQ_NETDEV_A_QSTATS_TX_STOP] = NDV_UINT,
	[VQ_NETDEV_A_QSTATS_TX_WAKE] = NDV_UINT,
};

/* qstats attribute of each ndv_qs counter */
static const uint16_t ndv_qs_attr[NDV_QS_NUM] = {
	[NDV_QS_RX_PACKETS] = VQ_NETDEV_A_QSTATS_RX_PACKETS,
	[NDV_QS_RX_BYTES] = VQ_NETDEV_A_QSTATS_RX_BYTES,
	[NDV_QS_TX_PACKETS] = VQ_NETDEV_A_QSTATS_TX_PACKETS,
	[NDV_QS_TX_BYTES] = VQ_NETDEV_A_QSTATS_TX_BYTES,
	[NDV_QS_RX_ALLOC_FAIL] = VQ_NETDEV_A_QSTATS_RX_ALLOC_FAIL,
	[NDV_QS_RX_HW_DROPS] = VQ_NETDEV_A_QSTATS_RX_HW_DROPS,
	[NDV_QS_TX_HW_DROPS] = VQ_NETDEV_A_QSTATS_TX_HW_DROPS,
	[NDV_QS_TX_STOP] = VQ_NETDEV_A_QSTATS_TX_STOP,
	[NDV_QS_TX_WAKE] = VQ_NETDEV_A_QSTATS_TX_WAKE,
};

static int ndv_parse(const struct nlmsghdr *nlh, const struct nlattr **tb, int max,
		     const uint8_t *kinds)
{
	struct ndv_tb t = { .tb = tb, .max = max, .kinds = kinds };

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr))
		return -EBADMSG;
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), ndv_attr_cb, &t) < 0)
		return -EBADMSG;
	return 0;
}

int ndv_parse_napi(const struct nlmsghdr *nlh, struct ndv_napi *n)
{
	const struct nlattr *tb[VQ_NETDEV_A_NAPI_MAX + 1] = {};
	int ret;

	ret = ndv_parse(nlh, tb, VQ_NETDEV_A_NAPI_MAX, ndv_napi_kinds);
	if (ret)
		return ret;
	if (!tb[VQ_NETDEV_A_NAPI_ID] || !tb[VQ_NETDEV_A_NAPI_IFINDEX])
		return -EBADMSG;
	memset(n, 0, sizeof(*n));
	n->id = mnl_attr_get_u32(tb[VQ_NETDEV_A_NAPI_ID]);
	n->ifindex = mnl_attr_get_u32(tb[VQ_NETDEV_A_NAPI_IFINDEX]);
	if ((n->has_irq = tb[VQ_NETDEV_A_NAPI_IRQ]))
		n->irq = mnl_attr_get_u32(tb[VQ_NETDEV_A_NAPI_IRQ]);
	if ((n->has_pid = tb[VQ_NETDEV_A_NAPI_PID]))
		n->pid = mnl_attr_get_u32(tb[VQ_NETDEV_A_NAPI_PID]);
	if ((n->has_defer_hard_irqs = tb[VQ_NETDEV_A_NAPI_DEFER_HARD_IRQS]))
		n->defer_hard_irqs = mnl_attr_get_u32(tb[VQ_NETDEV_A_NAPI_DEFER_HARD_IRQS]);
	if ((n->has_gro_flush_timeout = tb[VQ_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT]))
		n->gro_flush_timeout_ns = ndv_attr_get_uint(tb[VQ_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT]);
	if ((n->has_irq_suspend_timeout = tb[VQ_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT]))
		n->irq_suspend_timeout_ns =
			ndv_attr_get_uint(tb[VQ_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT]);
	if ((n->has_threaded = tb[VQ_NETDEV_A_NAPI_THREADED]))
		n->threaded = mnl_attr_get_u32(tb[VQ_NETDEV_A_NAPI_THREADED]);
	return 0;
}

int ndv_parse_queue(const struct nlmsghdr *nlh, struct ndv_queue *q)
{
	const struct nlattr *tb[VQ_NETDEV_A_QUEUE_MAX + 1] = {};
	int ret;

	ret = ndv_parse(nlh, tb, VQ_NETDEV_A_QUEUE_MAX, ndv_queue_kinds);
	if (ret)
		return ret;
	if (!tb[VQ_NETDEV_A_QUEUE_ID] || !tb[VQ_NETDEV_A_QUEUE_IFINDEX] ||
	    !tb[VQ_NETDEV_A_QUEUE_TYPE])
		return -EBADMSG;
	q->id = mnl_attr_get_u32(tb[VQ_NETDEV_A_QUEUE_ID]);
	q->ifindex = mnl_attr_get_u32(tb[VQ_NETDEV_A_QUEUE_IFINDEX]);
	q->type = mnl_attr_get_u32(tb[VQ_NETDEV_A_QUEUE_TYPE]);
	q->napi_id = tb[VQ_NETDEV_A_QUEUE_NAPI_ID] ?
		     mnl_attr_get_u32(tb[VQ_NETDEV_A_QUEUE_NAPI_ID]) : 0;
	return 0;
}

int ndv_parse_qstats(const struct nlmsghdr *nlh, struct ndv_qstats *q)
{
	const struct nlattr *tb[VQ_NETDEV_A_QSTATS_MAX + 1] = {};
	int i, ret;

	ret = ndv_parse(nlh, tb, VQ_NETDEV_A_QSTATS_MAX, ndv_qstats_kinds);
	if (ret)
		return ret;
	/* scope=queue replies always name the queue; device-scope ones are not ours */
	if (!tb[VQ_NETDEV_A_QSTATS_IFINDEX] || !tb[VQ_NETDEV_A_QSTATS_QUEUE_TYPE] ||
	    !tb[VQ_NETDEV_A_QSTATS_QUEUE_ID])
		return -EBADMSG;
	memset(q, 0, sizeof(*q));
	q->ifindex = mnl_attr_get_u32(tb[VQ_NETDEV_A_QSTATS_IFINDEX]);
	q->type = mnl_attr_get_u32(tb[VQ_NETDEV_A_QSTATS_QUEUE_TYPE]);
	q->id = mnl_attr_get_u32(tb[VQ_NETDEV_A_QSTATS_QUEUE_ID]);
	for (i = 0; i < NDV_QS_NUM; i++) {
		if (!tb[ndv_qs_attr[i]])
			continue;
		q->present |= 1u << i;
		q->val[i] = ndv_attr_get_uint(tb[ndv_qs_attr[i]]);
	}
	return 0;
}

/* ---- dumps ---- */

/* One dump in progress; exactly one of the callbacks is set. */
struct ndv_dump {
	struct genl_ack ack;	/* first: genl_run() reads a parse error from here */
	int (*napi_cb)(const struct ndv_napi *n, void *arg);
	int (*queue_cb)(const struct ndv_queue *q, void *arg);
	int (*qstats_cb)(const struct ndv_qstats *q, void *arg);
	void *arg;
};

/*
 * Deliver one object. After a parse error or a non-zero return from the caller's callback
 * the rest of the dump is still read (and dropped) so the socket holds no stale replies.
 */
static int ndv_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ndv_dump *d = data;
	union { struct ndv_napi n; struct ndv_queue q; struct ndv_qstats s; } u;
	int ret;

	if (d->ack.error)
		return MNL_CB_OK;
	if (d->napi_cb) {
		ret = ndv_parse_napi(nlh, &u.n);
		if (!ret)
			ret = d->napi_cb(&u.n, d->arg);
	} else if (d->queue_cb) {
		ret = ndv_parse_queue(nlh, &u.q);
		if (!ret)
			ret = d->queue_cb(&u.q, d->arg);
	} else {
		ret = ndv_parse_qstats(nlh, &u.s);
		if (!ret)
			ret = d->qstats_cb(&u.s, d->arg);
	}
	d->ack.error = ret;
	return MNL_CB_OK;
}

static int ndv_dump(struct ndv_sock *s, uint8_t cmd, uint16_t ifindex_attr, int ifindex,
		    struct ndv_dump *d)
{
	char buf[GENL_REQ_BYTES];
	struct nlmsghdr *nlh;

	if (ifindex < 0)
		return -EINVAL;
	nlh = genl_req(buf, s->g.family, NLM_F_DUMP, cmd, NDV_GENL_VERSION);
	if (ifindex)
		mnl_attr_put_u32(nlh, ifindex_attr, (uint32_t)ifindex);
	if (cmd == VQ_NETDEV_CMD_QSTATS_GET)
		mnl_attr_put_u32(nlh, VQ_NETDEV_A_QSTATS_SCOPE, VQ_NETDEV_QSTATS_SCOPE_QUEUE);
	return genl_run(&s->g, nlh, ndv_dump_cb, &d->ack);
}

int ndv_qstats_dump(struct ndv_sock *s, int ifindex,
		    int (*cb)(const struct ndv_qstats *q, void *arg), void *arg)
{
	struct ndv_dump d = { .qstats_cb = cb, .arg = arg };

	return ndv_dump(s, VQ_NETDEV_CMD_QSTATS_GET, VQ_NETDEV_A_QSTATS_IFINDEX, ifindex, &d);
}

int ndv_napi_dump(struct ndv_sock *s, int ifindex,
		  int (*cb)(const struct ndv_napi *n, void *arg), void *arg)
{
	struct ndv_dump d = { .napi_cb = cb, .arg = arg };

	return ndv_dump(s, VQ_NETDEV_CMD_NAPI_GET, VQ_NETDEV_A_NAPI_IFINDEX, ifindex, &d);
}

int ndv_queue_dump(struct ndv_sock *s, int ifindex,
		   int (*cb)(const struct ndv_queue *q, void *arg), void *arg)
{
	struct ndv_dump d = { .queue_cb = cb, .arg = arg };

	return ndv_dump(s, VQ_NETDEV_CMD_QUEUE_GET, VQ_NETDEV_A_QUEUE_IFINDEX, ifindex, &d);
}

/* ---- NAPI_SET ---- */

int ndv_napi_set(struct ndv_sock *s, uint32_t napi_id, enum ndv_napi_knob knob,
		 uint64_t value, char *err, size_t errlen)
{
	char buf[GENL_REQ_BYTES];
	struct genl_ack ack = { .err = err, .errlen = errlen };
	struct nlmsghdr *nlh;

	if (err && errlen)
		err[0] = '\0';
	nlh = genl_req(buf, s->g.family, NLM_F_ACK, VQ_NETDEV_CMD_NAPI_SET, NDV_GENL_VERSION);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_ID, napi_id);
	/* u32 attributes travel as u32 even when out of range so the kernel's policy, not
	 * this code, judges the value and the caller sees its extack text */
	switch (knob) {
	case NDV_NAPI_DEFER_HARD_IRQS:
		if (value > UINT32_MAX)
			return -ERANGE;
		mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_DEFER_HARD_IRQS, (uint32_t)value);
		break;
	case NDV_NAPI_GRO_FLUSH_TIMEOUT:
	case NDV_NAPI_IRQ_SUSPEND_TIMEOUT: {
		uint16_t a = knob == NDV_NAPI_GRO_FLUSH_TIMEOUT ?
			     VQ_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT :
			     VQ_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT;

		/* NLA_UINT: shortest form, as the kernel's nla_put_uint() does */
		if (value > UINT32_MAX)
			mnl_attr_put_u64(nlh, a, value);
		else
			mnl_attr_put_u32(nlh, a, (uint32_t)value);
		break;
	}
	case NDV_NAPI_THREADED:
		if (value > UINT32_MAX)
			return -ERANGE;
		mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_THREADED, (uint32_t)value);
		break;
	default:
		return -EINVAL;
	}
	return genl_run(&s->g, nlh, genl_ack_only_cb, &ack);
}

int ndv_parse_ack(const struct nlmsghdr *nlh, char *err, size_t errlen)
{
	return genl_parse_ack(nlh, err, errlen);
}
