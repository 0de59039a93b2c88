// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for nl_ethtool.c parsers: canned *_GET_REPLY and *_NTF messages built with
 * libmnl.
 */
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

#include "ethtool_ids.h"
#include "nl_ethtool.h"

/* any dynamic genl family id; parsers do not look at it */
#define TEST_FAMILY_ID	0x15
/* one canned message; every test message here is far smaller */
#define TEST_BUF_BYTES	4096

static char buf[TEST_BUF_BYTES];

/* reply with the header nest the kernel always puts first (dev index + name) */
static struct nlmsghdr *reply(uint8_t cmd)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	struct nlattr *nest;

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = TEST_FAMILY_ID;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = ETHTOOL_GENL_VERSION;
	nest = mnl_attr_nest_start(nlh, ETHTOOL_A_COALESCE_HEADER);
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_DEV_INDEX, 2);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, "eth0");
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

static void coalesce_parse(void **state)
{
	struct nlmsghdr *nlh = reply(ETHTOOL_MSG_COALESCE_GET_REPLY);
	struct eth_coalesce c;

	(void)state;
	mnl_attr_put_u32(nlh, ETHTOOL_A_COALESCE_RX_USECS, 50);
	mnl_attr_put_u32(nlh, ETHTOOL_A_COALESCE_RX_MAX_FRAMES, 64);
	mnl_attr_put_u32(nlh, ETHTOOL_A_COALESCE_TX_USECS, 0);
	mnl_attr_put_u32(nlh, ETHTOOL_A_COALESCE_RX_USECS_IRQ, 9);	/* not read */
	mnl_attr_put_u8(nlh, ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, 1);
	mnl_attr_put_u32(nlh, VQ_ETHTOOL_A_COALESCE_TX_AGGR_MAX_BYTES, 4096); /* newer */
	assert_int_equal(eth_parse_coalesce(nlh, &c), 0);
	assert_int_equal(c.present, (1u << ETH_CO_RX_USECS) | (1u << ETH_CO_RX_FRAMES) |
				    (1u << ETH_CO_TX_USECS) | (1u << ETH_CO_ADAPTIVE_RX));
	assert_int_equal(c.val[ETH_CO_RX_USECS], 50);
	assert_int_equal(c.val[ETH_CO_RX_FRAMES], 64);
	assert_int_equal(c.val[ETH_CO_TX_USECS], 0);
	assert_int_equal(c.val[ETH_CO_ADAPTIVE_RX], 1);
	assert_int_equal(c.val[ETH_CO_TX_FRAMES], 0);
	assert_int_equal(c.val[ETH_CO_ADAPTIVE_TX], 0);

	/* adaptive-rx sent as u32: wrong size for a u8 attribute */
	nlh = reply(ETHTOOL_MSG_COALESCE_GET_REPLY);
	mnl_attr_put_u32(nlh, ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, 1);
	assert_int_equal(eth_parse_coalesce(nlh, &c), -EBADMSG);
}

static void rings_parse(void **state)
{
	struct nlmsghdr *nlh = reply(ETHTOOL_MSG_RINGS_GET_REPLY);
	struct eth_rings r;

	(void)state;
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX_MAX, 4096);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX_MINI_MAX, 0);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_TX_MAX, 2048);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX, 256);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_TX, 512);
	mnl_attr_put_u8(nlh, VQ_ETHTOOL_A_RINGS_TX_PUSH, 0);
	mnl_attr_put_u32(nlh, VQ_ETHTOOL_A_RINGS_HDS_THRESH_MAX, 1024);
	assert_int_equal(eth_parse_rings(nlh, &r), 0);
	assert_int_equal(r.present, 0xf);
	assert_int_equal(r.rx, 256);
	assert_int_equal(r.rx_max, 4096);
	assert_int_equal(r.tx, 512);
	assert_int_equal(r.tx_max, 2048);

	nlh = reply(ETHTOOL_MSG_RINGS_GET_REPLY);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX, 128);
	assert_int_equal(eth_parse_rings(nlh, &r), 0);
	assert_int_equal(r.present, 1u << 0);
	assert_int_equal(r.rx, 128);
	assert_int_equal(r.tx_max, 0);
}

/* what veth sends on 6.18: rx/tx counts and maxima, no combined/other */
static void channels_parse(void **state)
{
	struct nlmsghdr *nlh = reply(ETHTOOL_MSG_CHANNELS_GET_REPLY);
	struct eth_channels ch;

	(void)state;
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_RX_MAX, 2);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_TX_MAX, 2);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_RX_COUNT, 1);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_TX_COUNT, 2);
	assert_int_equal(eth_parse_channels(nlh, &ch), 0);
	assert_int_equal(ch.present, 0xf);
	assert_int_equal(ch.rx, 1);
	assert_int_equal(ch.rx_max, 2);
	assert_int_equal(ch.tx, 2);
	assert_int_equal(ch.tx_max, 2);
	assert_int_equal(ch.combined, 0);

	/* virtio_net style: combined only */
	nlh = reply(ETHTOOL_MSG_CHANNELS_GET_REPLY);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_MAX, 4);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_COUNT, 3);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_OTHER_MAX, 1);
	assert_int_equal(eth_parse_channels(nlh, &ch), 0);
	assert_int_equal(ch.present, (1u << 4) | (1u << 5) | (1u << 7));
	assert_int_equal(ch.combined, 3);
	assert_int_equal(ch.combined_max, 4);
	assert_int_equal(ch.other_max, 1);
	assert_int_equal(ch.rx, 0);

	nlh = reply(ETHTOOL_MSG_CHANNELS_GET_REPLY);
	mnl_attr_put_u16(nlh, ETHTOOL_A_CHANNELS_RX_COUNT, 1);
	assert_int_equal(eth_parse_channels(nlh, &ch), -EBADMSG);
}

/* settings news: the kind and the device of each of the three, nothing for the rest */
static void ntf_parse(void **state)
{
	static const struct { uint8_t cmd; enum eth_ntf what; } kinds[] = {
		{ ETHTOOL_MSG_COALESCE_NTF, ETH_NTF_COALESCE },
		{ ETHTOOL_MSG_RINGS_NTF, ETH_NTF_RINGS },
		{ ETHTOOL_MSG_CHANNELS_NTF, ETH_NTF_CHANNELS },
	};
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	enum eth_ntf what;
	unsigned int i;
	int ifindex;

	(void)state;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		ifindex = -1;
		what = (enum eth_ntf)-1;
		nlh = reply(kinds[i].cmd);
		mnl_attr_put_u32(nlh, ETHTOOL_A_COALESCE_RX_USECS, 50);	/* the new values */
		assert_int_equal(eth_parse_ntf(nlh, TEST_FAMILY_ID, &ifindex, &what), 1);
		assert_int_equal(ifindex, 2);
		assert_int_equal(what, kinds[i].what);
	}
	/* another notification of the family, a message of another family: not news */
	nlh = reply(ETHTOOL_MSG_FEATURES_NTF);
	assert_int_equal(eth_parse_ntf(nlh, TEST_FAMILY_ID, &ifindex, &what), 0);
	nlh = reply(ETHTOOL_MSG_COALESCE_GET_REPLY);
	assert_int_equal(eth_parse_ntf(nlh, TEST_FAMILY_ID, &ifindex, &what), 0);
	nlh = reply(ETHTOOL_MSG_COALESCE_NTF);
	assert_int_equal(eth_parse_ntf(nlh, TEST_FAMILY_ID + 1, &ifindex, &what), 0);
	/* news that names no device, or names it with a wrong-sized index, is malformed */
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = TEST_FAMILY_ID;
	((struct genlmsghdr *)mnl_nlmsg_put_extra_header(nlh, sizeof(struct genlmsghdr)))->cmd =
		ETHTOOL_MSG_RINGS_NTF;
	assert_int_equal(eth_parse_ntf(nlh, TEST_FAMILY_ID, &ifindex, &what), -EBADMSG);
	nest = mnl_attr_nest_start(nlh, ETHTOOL_A_RINGS_HEADER);
	mnl_attr_put_u8(nlh, ETHTOOL_A_HEADER_DEV_INDEX, 2);
	mnl_attr_nest_end(nlh, nest);
	assert_int_equal(eth_parse_ntf(nlh, TEST_FAMILY_ID, &ifindex, &what), -EBADMSG);
	/* shorter than its genl header */
	nlh = reply(ETHTOOL_MSG_CHANNELS_NTF);
	nlh->nlmsg_len = NLMSG_LENGTH(1);
	assert_int_equal(eth_parse_ntf(nlh, TEST_FAMILY_ID, &ifindex, &what), -EBADMSG);
}

static void ack_parse(void **state)
{
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;
	char err[80];

	(void)state;
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED | NLM_F_ACK_TLVS;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = -EINVAL;
	e->msg.nlmsg_len = 60;	/* capped: original length is kept, body is not */
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "requested channel count exceeds maximum");
	assert_int_equal(eth_parse_ack(nlh, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "requested channel count exceeds maximum");
	e->error = 0;
	assert_int_equal(eth_parse_ack(nlh, err, sizeof(err)), 0);
	assert_string_equal(err, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(coalesce_parse),
		cmocka_unit_test(rings_parse),
		cmocka_unit_test(channels_parse),
		cmocka_unit_test(ntf_parse),
		cmocka_unit_test(ack_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
