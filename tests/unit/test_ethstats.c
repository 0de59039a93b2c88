// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests for ethstats.c name matching on real driver strings (kernel 6.18) and junk. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <linux/ethtool.h>

#include "ethstats.h"

struct want {
	const char *s;
	int match;
	char dir;
	unsigned int queue;
	enum ets_ctr ctr;
	bool alias;
};

static void check(const struct want *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned int queue = 999;
		enum ets_ctr ctr = ETS_NUM;
		bool alias = false;
		char dir = 0;
		int m;

		m = ets_match(w[i].s, &dir, &queue, &ctr, &alias);
		if (m != w[i].match)
			fail_msg("%s: match %d, want %d", w[i].s, m, w[i].match);
		assert_int_equal(ets_parse_name(w[i].s, &dir, &queue, &ctr), w[i].match);
		if (!m)
			continue;
		if (dir != w[i].dir || queue != w[i].queue || ctr != w[i].ctr ||
		    alias != w[i].alias)
			fail_msg("%s: got %c/%u/%d/%d", w[i].s, dir, queue, ctr, alias);
	}
}

/* `ethtool -S` of a veth with 2 rx/2 tx queues, kernel 6.18 */
static void veth_names(void **state)
{
	static const struct want w[] = {
		{ "peer_ifindex", 0, 0, 0, 0, false },
		{ "rx_queue_0_xdp_packets", 1, 'r', 0, ETS_PACKETS, true },
		{ "rx_queue_0_xdp_bytes", 1, 'r', 0, ETS_BYTES, true },
		{ "rx_queue_0_drops", 1, 'r', 0, ETS_DROPS, false },
		{ "rx_queue_0_xdp_redirect", 0, 0, 0, 0, false },
		{ "rx_queue_0_xdp_drops", 0, 0, 0, 0, false },
		{ "rx_queue_0_xdp_tx", 0, 0, 0, 0, false },
		{ "rx_queue_0_xdp_tx_errors", 0, 0, 0, 0, false },
		{ "rx_queue_1_xdp_packets", 1, 'r', 1, ETS_PACKETS, true },
		{ "rx_queue_1_drops", 1, 'r', 1, ETS_DROPS, false },
		{ "tx_queue_0_xdp_xmit", 0, 0, 0, 0, false },
		{ "tx_queue_1_xdp_xmit_errors", 0, 0, 0, 0, false },
	};

	(void)state;
	check(w, sizeof(w) / sizeof(w[0]));
}

/* virtio_net on 6.18 (eth0 here), plus the 6.1 names that still carried packets/bytes */
static void virtio_names(void **state)
{
	static const struct want w[] = {
		{ "rx_drops", 0, 0, 0, 0, false },
		{ "rx_kicks", 0, 0, 0, 0, false },
		{ "rx0_drops", 1, 'r', 0, ETS_DROPS, false },
		{ "rx0_xdp_packets", 1, 'r', 0, ETS_PACKETS, true },
		{ "rx0_kicks", 0, 0, 0, 0, false },
		{ "rx0_xdp_redirects", 0, 0, 0, 0, false },
		{ "tx0_xdp_tx_drops", 0, 0, 0, 0, false },
		{ "tx0_kicks", 0, 0, 0, 0, false },
		{ "tx0_tx_timeouts", 0, 0, 0, 0, false },
		{ "rx_queue_3_packets", 1, 'r', 3, ETS_PACKETS, false },
		{ "rx_queue_3_bytes", 1, 'r', 3, ETS_BYTES, false },
		{ "tx_queue_12_packets", 1, 't', 12, ETS_PACKETS, false },
		{ "tx_queue_12_bytes", 1, 't', 12, ETS_BYTES, false },
		{ "tx12_packets", 1, 't', 12, ETS_PACKETS, false },
		{ "tx0_stopped", 1, 't', 0, ETS_TX_STOP, false },
		{ "tx1_wake", 1, 't', 1, ETS_TX_WAKE, false },
	};

	(void)state;
	check(w, sizeof(w) / sizeof(w[0]));
}

static void junk_names(void **state)
{
	static const struct want w[] = {
		{ "", 0, 0, 0, 0, false },
		{ "rx", 0, 0, 0, 0, false },
		{ "rx_queue_", 0, 0, 0, 0, false },
		{ "rx_queue__packets", 0, 0, 0, 0, false },
		{ "rx_queue_0", 0, 0, 0, 0, false },
		{ "rx_queue_0_", 0, 0, 0, 0, false },
		{ "rx_queue_0x_packets", 0, 0, 0, 0, false },
		{ "rx_queue_0_packets_extra", 0, 0, 0, 0, false },
		{ "rx_queue_256_packets", 0, 0, 0, 0, false },	/* >= ETS_MAX_QUEUES */
		{ "rx_queue_99999999999999999999_packets", 0, 0, 0, 0, false },
		{ "rx_queue_255_packets", 1, 'r', 255, ETS_PACKETS, false },
		{ "rx0_wake", 0, 0, 0, 0, false },		/* wake is tx only */
		{ "rx0_stopped", 0, 0, 0, 0, false },
		{ "xrx0_packets", 0, 0, 0, 0, false },
		{ "RX0_PACKETS", 0, 0, 0, 0, false },
		{ "rx-0-packets", 0, 0, 0, 0, false },
	};

	(void)state;
	check(w, sizeof(w) / sizeof(w[0]));
}

/* names packed as the kernel packs them: ETH_GSTRING_LEN bytes each, NUL-padded */
static void pack(char *names, const char *const *list, unsigned int n)
{
	unsigned int i;

	memset(names, 0, (size_t)n * ETH_GSTRING_LEN);
	for (i = 0; i < n; i++)
		strncpy(names + (size_t)i * ETH_GSTRING_LEN, list[i], ETH_GSTRING_LEN);
}

static struct ets_stats st;

static void all_veth(void **state)
{
	static const char *const list[] = {
		"peer_ifindex", "rx_queue_0_xdp_packets", "rx_queue_0_xdp_bytes",
		"rx_queue_0_drops", "rx_queue_1_xdp_packets", "rx_queue_1_xdp_bytes",
		"rx_queue_1_drops", "tx_queue_0_xdp_xmit", "tx_queue_1_xdp_xmit",
	};
	static const uint64_t vals[] = { 2, 495037, 741413241, 3, 506868, 759655348, 0, 9, 9 };
	char names[9 * ETH_GSTRING_LEN];

	(void)state;
	pack(names, list, 9);
	assert_int_equal(ets_parse_all(names, vals, 9, true, &st), 0);
	assert_int_equal(st.n_rx, 2);
	assert_int_equal(st.n_tx, 0);
	assert_int_equal(st.rx[0].present, (1u << ETS_PACKETS) | (1u << ETS_BYTES) |
					   (1u << ETS_DROPS));
	assert_int_equal(st.rx[0].val[ETS_PACKETS], 495037);
	assert_int_equal(st.rx[0].val[ETS_BYTES], 741413241);
	assert_int_equal(st.rx[0].val[ETS_DROPS], 3);
	assert_int_equal(st.rx[1].val[ETS_PACKETS], 506868);
	assert_int_equal(st.rx[1].val[ETS_BYTES], 759655348);
	assert_int_equal(st.rx[1].val[ETS_DROPS], 0);
	assert_int_equal(st.tx[0].present, 0);

	/* the same strings from a driver that is not veth: xdp_* is not traffic */
	assert_int_equal(ets_parse_all(names, vals, 9, false, &st), 0);
	assert_int_equal(st.rx[0].present, 1u << ETS_DROPS);
	assert_int_equal(st.rx[0].val[ETS_PACKETS], 0);
}

/* virtio_net 6.1 style: plain packets and xdp_packets on one queue; plain wins either order */
static void all_plain_wins(void **state)
{
	static const char *const list[] = {
		"rx_queue_0_xdp_packets", "rx_queue_0_packets", "rx_queue_0_bytes",
		"rx_queue_0_xdp_bytes", "tx_queue_0_packets", "tx_queue_2_bytes",
		"rx_queue_0_kicks",
	};
	static const uint64_t vals[] = { 7, 1000, 64000, 8, 500, 4242, 11 };
	char names[7 * ETH_GSTRING_LEN];

	(void)state;
	pack(names, list, 7);
	assert_int_equal(ets_parse_all(names, vals, 7, true, &st), 0);
	assert_int_equal(st.rx[0].val[ETS_PACKETS], 1000);
	assert_int_equal(st.rx[0].val[ETS_BYTES], 64000);
	assert_int_equal(st.n_rx, 1);
	assert_int_equal(st.n_tx, 3);
	assert_int_equal(st.tx[0].val[ETS_PACKETS], 500);
	assert_int_equal(st.tx[1].present, 0);
	assert_int_equal(st.tx[2].present, 1u << ETS_BYTES);
	assert_int_equal(st.tx[2].val[ETS_BYTES], 4242);
}

/* virtio_net 6.18 device-wide names only, and a full 32-byte name without NUL */
static void all_none(void **state)
{
	static const char *const list[] = {
		"rx_drops", "tx_kicks", "rx_queue_0_packets_and_a_very_long",
	};
	static const uint64_t vals[] = { 1, 2, 3 };
	char names[3 * ETH_GSTRING_LEN];

	(void)state;
	pack(names, list, 3);
	assert_int_equal(ets_parse_all(names, vals, 3, false, &st), -EOPNOTSUPP);
	assert_int_equal(st.n_rx, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(veth_names),
		cmocka_unit_test(virtio_names),
		cmocka_unit_test(junk_names),
		cmocka_unit_test(all_veth),
		cmocka_unit_test(all_plain_wins),
		cmocka_unit_test(all_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
