// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests for nl_netdev.c parsers: canned genl replies built with libmnl. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "netdev_ids.h"
#include "nl_netdev.h"

/* any dynamic genl family id; parsers do not look at it */
#define TEST_FAMILY_ID	0x20
/* an attribute id beyond every spec max we know, to prove unknown ones are skipped */
#define TEST_UNKNOWN_ATTR	60

/* one canned message; every test message here is far smaller */
#define TEST_BUF_BYTES	4096
static char buf[TEST_BUF_BYTES];

static struct nlmsghdr *genl_msg(uint8_t cmd)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = TEST_FAMILY_ID;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = 1;
	return nlh;
}

static void napi_full(void **state)
{
	struct nlmsghdr *nlh = genl_msg(VQ_NETDEV_CMD_NAPI_GET);
	struct ndv_napi n;

	(void)state;
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_IFINDEX, 7);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_ID, 8193);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_IRQ, 45);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_PID, 1234);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_DEFER_HARD_IRQS, 100);
	mnl_attr_put_u64(nlh, VQ_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT, 5000000000ULL);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT, 20000000);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_THREADED, 1);
	mnl_attr_put_u64(nlh, TEST_UNKNOWN_ATTR, 99);
	assert_int_equal(ndv_parse_napi(nlh, &n), 0);
	assert_int_equal(n.ifindex, 7);
	assert_int_equal(n.id, 8193);
	assert_true(n.has_irq);
	assert_int_equal(n.irq, 45);
	assert_true(n.has_pid);
	assert_int_equal(n.pid, 1234);
	assert_true(n.has_defer_hard_irqs);
	assert_int_equal(n.defer_hard_irqs, 100);
	assert_true(n.has_gro_flush_timeout);
	assert_int_equal(n.gro_flush_timeout_ns, 5000000000ULL);
	assert_true(n.has_irq_suspend_timeout);
	assert_int_equal(n.irq_suspend_timeout_ns, 20000000);
	assert_true(n.has_threaded);
	assert_int_equal(n.threaded, 1);
}

/* what a 6.12 kernel sends: id and ifindex only */
static void napi_minimal(void **state)
{
	struct nlmsghdr *nlh = genl_msg(VQ_NETDEV_CMD_NAPI_GET);
	struct ndv_napi n;

	(void)state;
	memset(&n, 0xff, sizeof(n));
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_ID, 260);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_IFINDEX, 2);
	assert_int_equal(ndv_parse_napi(nlh, &n), 0);
	assert_int_equal(n.id, 260);
	assert_int_equal(n.ifindex, 2);
	assert_false(n.has_irq || n.has_pid || n.has_defer_hard_irqs);
	assert_false(n.has_gro_flush_timeout || n.has_irq_suspend_timeout || n.has_threaded);
	assert_int_equal(n.gro_flush_timeout_ns, 0);
}

static void napi_bad(void **state)
{
	struct nlmsghdr *nlh;
	struct ndv_napi n;

	(void)state;
	/* defer-hard-irqs as u16: wrong size */
	nlh = genl_msg(VQ_NETDEV_CMD_NAPI_GET);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_ID, 1);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_IFINDEX, 1);
	mnl_attr_put_u16(nlh, VQ_NETDEV_A_NAPI_DEFER_HARD_IRQS, 3);
	assert_int_equal(ndv_parse_napi(nlh, &n), -EBADMSG);
	/* gro-flush-timeout (uint) as 2 bytes */
	nlh = genl_msg(VQ_NETDEV_CMD_NAPI_GET);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_ID, 1);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_IFINDEX, 1);
	mnl_attr_put_u16(nlh, VQ_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT, 3);
	assert_int_equal(ndv_parse_napi(nlh, &n), -EBADMSG);
	/* no id */
	nlh = genl_msg(VQ_NETDEV_CMD_NAPI_GET);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_NAPI_IFINDEX, 1);
	assert_int_equal(ndv_parse_napi(nlh, &n), -EBADMSG);
}

static void queue_parse(void **state)
{
	struct nlmsghdr *nlh = genl_msg(VQ_NETDEV_CMD_QUEUE_GET);
	struct ndv_queue q;

	(void)state;
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QUEUE_ID, 3);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QUEUE_IFINDEX, 9);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QUEUE_TYPE, VQ_NETDEV_QUEUE_TYPE_TX);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QUEUE_NAPI_ID, 8195);
	mnl_attr_put_u32(nlh, 7 /* xsk nest in the spec, unused here */, 0);
	assert_int_equal(ndv_parse_queue(nlh, &q), 0);
	assert_int_equal(q.id, 3);
	assert_int_equal(q.ifindex, 9);
	assert_int_equal(q.type, VQ_NETDEV_QUEUE_TYPE_TX);
	assert_int_equal(q.napi_id, 8195);

	/* veth's queues: no napi-id */
	nlh = genl_msg(VQ_NETDEV_CMD_QUEUE_GET);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QUEUE_ID, 1);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QUEUE_IFINDEX, 2);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QUEUE_TYPE, VQ_NETDEV_QUEUE_TYPE_RX);
	assert_int_equal(ndv_parse_queue(nlh, &q), 0);
	assert_int_equal(q.id, 1);
	assert_int_equal(q.type, VQ_NETDEV_QUEUE_TYPE_RX);
	assert_int_equal(q.napi_id, 0);

	nlh = genl_msg(VQ_NETDEV_CMD_QUEUE_GET);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QUEUE_ID, 1);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QUEUE_IFINDEX, 2);
	assert_int_equal(ndv_parse_queue(nlh, &q), -EBADMSG);
}

static void qstats_parse(void **state)
{
	struct nlmsghdr *nlh = genl_msg(VQ_NETDEV_CMD_QSTATS_GET);
	struct ndv_qstats q;

	(void)state;
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QSTATS_IFINDEX, 2);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QSTATS_QUEUE_TYPE, VQ_NETDEV_QUEUE_TYPE_TX);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QSTATS_QUEUE_ID, 1);
	mnl_attr_put_u64(nlh, VQ_NETDEV_A_QSTATS_TX_PACKETS, 0x100000001ULL);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QSTATS_TX_BYTES, 1500);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QSTATS_TX_STOP, 4);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QSTATS_TX_WAKE, 3);
	mnl_attr_put_u32(nlh, 26 /* tx-csum-none: not read */, 77);
	assert_int_equal(ndv_parse_qstats(nlh, &q), 0);
	assert_int_equal(q.ifindex, 2);
	assert_int_equal(q.type, VQ_NETDEV_QUEUE_TYPE_TX);
	assert_int_equal(q.id, 1);
	assert_int_equal(q.present, (1u << NDV_QS_TX_PACKETS) | (1u << NDV_QS_TX_BYTES) |
				    (1u << NDV_QS_TX_STOP) | (1u << NDV_QS_TX_WAKE));
	assert_int_equal(q.val[NDV_QS_TX_PACKETS], 0x100000001ULL);
	assert_int_equal(q.val[NDV_QS_TX_BYTES], 1500);
	assert_int_equal(q.val[NDV_QS_TX_STOP], 4);
	assert_int_equal(q.val[NDV_QS_TX_WAKE], 3);
	assert_int_equal(q.val[NDV_QS_RX_PACKETS], 0);

	nlh = genl_msg(VQ_NETDEV_CMD_QSTATS_GET);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QSTATS_IFINDEX, 2);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QSTATS_QUEUE_TYPE, VQ_NETDEV_QUEUE_TYPE_RX);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QSTATS_QUEUE_ID, 0);
	mnl_attr_put_u16(nlh, VQ_NETDEV_A_QSTATS_RX_PACKETS, 1);
	assert_int_equal(ndv_parse_qstats(nlh, &q), -EBADMSG);

	/* device scope (no queue id) is not a per-queue record */
	nlh = genl_msg(VQ_NETDEV_CMD_QSTATS_GET);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QSTATS_IFINDEX, 2);
	mnl_attr_put_u64(nlh, VQ_NETDEV_A_QSTATS_RX_PACKETS, 1);
	assert_int_equal(ndv_parse_qstats(nlh, &q), -EBADMSG);
}

/* NLMSG_ERROR as a NETLINK_CAP_ACK + NETLINK_EXT_ACK socket receives it */
static struct nlmsghdr *err_msg(int error, bool capped, const char *text)
{
	struct nlmsghdr *nlh, *req;
	struct nlmsgerr *e;
	char reqbuf[256];

	memset(reqbuf, 0, sizeof(reqbuf));
	req = mnl_nlmsg_put_header(reqbuf);
	req->nlmsg_type = TEST_FAMILY_ID;
	mnl_nlmsg_put_extra_header(req, sizeof(struct genlmsghdr));
	mnl_attr_put_u32(req, VQ_NETDEV_A_NAPI_ID, 260);
	mnl_attr_put_u32(req, VQ_NETDEV_A_NAPI_DEFER_HARD_IRQS, 0x80000000u);

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	if (capped) {
		e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
		e->msg = *req;
		nlh->nlmsg_flags |= NLM_F_CAPPED;
	} else {
		e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e) - sizeof(*req) + req->nlmsg_len);
		memcpy(&e->msg, req, req->nlmsg_len);
	}
	e->error = error;
	if (text) {
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
		mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, 28);
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, text);
	}
	return nlh;
}

static void ack_parse(void **state)
{
	char err[64];

	(void)state;
	assert_int_equal(ndv_parse_ack(err_msg(-ERANGE, true, "integer out of range"), err,
				       sizeof(err)), -ERANGE);
	assert_string_equal(err, "integer out of range");
	assert_int_equal(ndv_parse_ack(err_msg(-EINVAL, false, "bad value"), err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "bad value");
	assert_int_equal(ndv_parse_ack(err_msg(-ENOENT, true, NULL), err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "");
	assert_int_equal(ndv_parse_ack(err_msg(0, true, NULL), err, sizeof(err)), 0);
	/* truncated to the caller's buffer, still NUL-terminated */
	assert_int_equal(ndv_parse_ack(err_msg(-ERANGE, true, "integer out of range"), err, 8),
			 -ERANGE);
	assert_string_equal(err, "integer");
}

static void done_parse(void **state)
{
	struct nlmsghdr *nlh;
	char err[64];
	int *status;

	(void)state;
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI | NLM_F_ACK_TLVS;
	status = mnl_nlmsg_put_extra_header(nlh, sizeof(*status));
	*status = -EOPNOTSUPP;
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "no qstats");
	assert_int_equal(ndv_parse_ack(nlh, err, sizeof(err)), -EOPNOTSUPP);
	assert_string_equal(err, "no qstats");
	*status = 0;
	assert_int_equal(ndv_parse_ack(nlh, err, sizeof(err)), 0);
	/* a data message is not an ack */
	assert_int_equal(ndv_parse_ack(genl_msg(1), err, sizeof(err)), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(napi_full),
		cmocka_unit_test(napi_minimal),
		cmocka_unit_test(napi_bad),
		cmocka_unit_test(queue_parse),
		cmocka_unit_test(qstats_parse),
		cmocka_unit_test(ack_parse),
		cmocka_unit_test(done_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
