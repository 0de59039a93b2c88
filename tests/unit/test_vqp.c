// SPDX-License-Identifier: GPL-2.0-only
/*
 * vqp_parse.c: canned vqpair genl replies built with libmnl (include/vqpair.h), the p99 of
 * a log2 latency histogram, and the per-interval arithmetic (rates, resets, gauges,
 * completion mean and p99 over the interval). No kernel involved.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "dev.h"
#include "knob.h"
#include "netns.h"
#include "vqp.h"

/* any dynamic genl family id; parsers do not look at it */
#define TEST_FAMILY_ID		0x21
/* beyond VQPAIR_A_MAX: proves unknown attributes are skipped */
#define TEST_UNKNOWN_ATTR	60
#define TEST_BUF_BYTES		4096
#define NS_PER_S		1000000000ULL
/* doubles computed from integers: equal to well below a nanosecond */
#define EPS			1e-6

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
	g->version = VQPAIR_GENL_VERSION;
	return nlh;
}

/* A QSTATS_GET reply as vqpair_genl.c builds it, stats with the u64 alignment pad. */
static struct nlmsghdr *qstats_msg(uint32_t queue, const uint64_t *hist)
{
	struct nlmsghdr *nlh = genl_msg(VQPAIR_CMD_QSTATS_GET);
	struct nlattr *nest;
	int i;

	mnl_attr_put_u32(nlh, VQPAIR_A_IFINDEX, 7);
	mnl_attr_put_u32(nlh, VQPAIR_A_QUEUE_ID, queue);
	nest = mnl_attr_nest_start(nlh, VQPAIR_A_KNOBS);
	mnl_attr_put_u32(nlh, VQPAIR_KNOB_BUSYLOOP_US, 50);
	mnl_attr_put_u32(nlh, VQPAIR_KNOB_ZEROCOPY, 1);
	mnl_attr_put_u32(nlh, VQPAIR_KNOB_MAX + 1, 3);	/* a newer module's knob */
	mnl_attr_nest_end(nlh, nest);
	nest = mnl_attr_nest_start(nlh, VQPAIR_A_STATS);
	mnl_attr_put(nlh, VQPAIR_QSTAT_UNSPEC, 0, NULL);	/* pad */
	for (i = 1; i <= VQPAIR_QSTAT_MAX; i++)
		mnl_attr_put_u64(nlh, i, 1000 * i);
	mnl_attr_nest_end(nlh, nest);
	if (hist)
		mnl_attr_put(nlh, VQPAIR_A_LAT_HIST, VQPAIR_LAT_BUCKETS * sizeof(uint64_t), hist);
	mnl_attr_put_u32(nlh, TEST_UNKNOWN_ATTR, 1);
	return nlh;
}

static void parse_qstats(void **state)
{
	uint64_t hist[VQPAIR_LAT_BUCKETS] = { [3] = 5, [31] = 1ULL << 40 };
	struct vqp_qmsg m;

	assert_int_equal(vqp_parse_qstats(qstats_msg(2, hist), &m), 0);
	assert_int_equal(m.ifindex, 7);
	assert_int_equal(m.queue, 2);
	assert_int_equal(m.knob_present, 1u << VQPAIR_KNOB_BUSYLOOP_US | 1u << VQPAIR_KNOB_ZEROCOPY);
	assert_int_equal(m.knob[VQPAIR_KNOB_BUSYLOOP_US], 50);
	assert_int_equal(m.knob[VQPAIR_KNOB_ZEROCOPY], 1);
	assert_int_equal(m.stat_present, ((1ULL << (VQPAIR_QSTAT_MAX + 1)) - 1) & ~1ULL);
	assert_int_equal(m.ctr[VQPAIR_QSTAT_TX_PACKETS], 1000 * VQPAIR_QSTAT_TX_PACKETS);
	assert_int_equal(m.ctr[VQPAIR_QSTAT_RX_EVENTS], 1000 * VQPAIR_QSTAT_RX_EVENTS);
	assert_true(m.has_hist[VQP_HIST_COMPL]);
	assert_int_equal(m.hist[VQP_HIST_COMPL][3], 5);
	assert_int_equal(m.hist[VQP_HIST_COMPL][31], 1ULL << 40);

	assert_int_equal(vqp_parse_qstats(qstats_msg(0, NULL), &m), 0);
	assert_false(m.has_hist[VQP_HIST_COMPL]);
}

static void parse_qstats_bad(void **state)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct vqp_qmsg m;

	/* no queue id */
	nlh = genl_msg(VQPAIR_CMD_QSTATS_GET);
	mnl_attr_put_u32(nlh, VQPAIR_A_IFINDEX, 7);
	assert_int_equal(vqp_parse_qstats(nlh, &m), -EBADMSG);
	/* a histogram of the wrong length */
	nlh = genl_msg(VQPAIR_CMD_QSTATS_GET);
	mnl_attr_put_u32(nlh, VQPAIR_A_IFINDEX, 7);
	mnl_attr_put_u32(nlh, VQPAIR_A_QUEUE_ID, 0);
	mnl_attr_put(nlh, VQPAIR_A_LAT_HIST, 16, buf + 2048);
	assert_int_equal(vqp_parse_qstats(nlh, &m), -EBADMSG);
	/* a counter sent as u32 */
	nlh = genl_msg(VQPAIR_CMD_QSTATS_GET);
	mnl_attr_put_u32(nlh, VQPAIR_A_IFINDEX, 7);
	mnl_attr_put_u32(nlh, VQPAIR_A_QUEUE_ID, 0);
	nest = mnl_attr_nest_start(nlh, VQPAIR_A_STATS);
	mnl_attr_put_u32(nlh, VQPAIR_QSTAT_TX_BYTES, 1);
	mnl_attr_nest_end(nlh, nest);
	assert_int_equal(vqp_parse_qstats(nlh, &m), -EBADMSG);
	/* an ifindex of 2 bytes */
	nlh = genl_msg(VQPAIR_CMD_QSTATS_GET);
	mnl_attr_put_u16(nlh, VQPAIR_A_IFINDEX, 7);
	mnl_attr_put_u32(nlh, VQPAIR_A_QUEUE_ID, 0);
	assert_int_equal(vqp_parse_qstats(nlh, &m), -EBADMSG);
}

static void parse_pair(void **state)
{
	struct nlmsghdr *nlh = genl_msg(VQPAIR_CMD_PAIR_GET);
	struct vqp_pair_info p;
	struct nlattr *nest;

	mnl_attr_put_u32(nlh, VQPAIR_A_IFINDEX, 9);
	mnl_attr_put_u32(nlh, VQPAIR_A_PEER_IFINDEX, 10);
	mnl_attr_put_strz(nlh, VQPAIR_A_IFNAME, "vqf0");
	mnl_attr_put_u32(nlh, VQPAIR_A_PAIR_ID, 3);
	mnl_attr_put_u32(nlh, VQPAIR_A_NUM_QUEUES, 4);
	nest = mnl_attr_nest_start(nlh, VQPAIR_A_KNOBS);
	mnl_attr_put_u32(nlh, VQPAIR_KNOB_TX_RING_SIZE, 256);
	mnl_attr_nest_end(nlh, nest);
	assert_int_equal(vqp_parse_pair(nlh, &p), 0);
	assert_int_equal(p.ifindex, 9);
	assert_int_equal(p.peer_ifindex, 10);
	assert_int_equal(p.pair_id, 3);
	assert_int_equal(p.num_queues, 4);
	assert_string_equal(p.ifname, "vqf0");

	nlh = genl_msg(VQPAIR_CMD_PAIR_GET);
	mnl_attr_put_u32(nlh, VQPAIR_A_IFINDEX, 9);
	assert_int_equal(vqp_parse_pair(nlh, &p), -EBADMSG);	/* no NUM_QUEUES */
	nlh = genl_msg(VQPAIR_CMD_PAIR_GET);
	mnl_attr_put_u32(nlh, VQPAIR_A_IFINDEX, 9);
	mnl_attr_put_u32(nlh, VQPAIR_A_NUM_QUEUES, 1);
	mnl_attr_put_strz(nlh, VQPAIR_A_IFNAME, "a-name-longer-than-ifnamsiz");
	assert_int_equal(vqp_parse_pair(nlh, &p), -EBADMSG);
}

static void quantile(void **state)
{
	uint64_t h[VQPAIR_LAT_BUCKETS] = { 0 };

	assert_true(isnan(vqp_hist_quantile(h, 0.99)));
	/* 100 completions in [1024, 2048) ns: rank 99 is 99% into the bucket */
	h[10] = 100;
	assert_float_equal(vqp_hist_quantile(h, 0.99), 1024 + 0.99 * 1024, EPS);
	assert_float_equal(vqp_hist_quantile(h, 0.5), 1024 + 0.5 * 1024, EPS);
	/* 99 fast ones in bucket 0 ([0, 2) ns) and one slow: p99 is the end of bucket 0 */
	memset(h, 0, sizeof(h));
	h[0] = 99;
	h[20] = 1;
	assert_float_equal(vqp_hist_quantile(h, 0.99), 2.0, EPS);
	/* 98 + 2: rank 99 is half-way into bucket 20 = [2^20, 2^21) */
	h[0] = 98;
	h[20] = 2;
	assert_float_equal(vqp_hist_quantile(h, 0.99), 1048576 + 0.5 * 1048576, EPS);
	/* the last bucket is open-ended, taken as [2^31, 2^32) */
	memset(h, 0, sizeof(h));
	h[31] = 1;
	assert_float_equal(vqp_hist_quantile(h, 0.5), 2147483648.0 * 1.5, 1);
	/* p outside (0, 1) */
	assert_true(isnan(vqp_hist_quantile(h, 1.0)));
	assert_true(isnan(vqp_hist_quantile(h, 0.0)));
}

static void reading(struct vqp_qmsg *m, uint64_t pkts, uint64_t cnt, uint64_t sum_ns,
		    uint64_t pending)
{
	memset(m, 0, sizeof(*m));
	m->stat_present = ((1ULL << (VQPAIR_QSTAT_MAX + 1)) - 1) & ~1ULL;
	m->ctr[VQPAIR_QSTAT_TX_PACKETS] = pkts;
	m->ctr[VQPAIR_QSTAT_COMPL_COUNT] = cnt;
	m->ctr[VQPAIR_QSTAT_COMPL_SUM_NS] = sum_ns;
	m->ctr[VQPAIR_QSTAT_ZC_PENDING] = pending;
	m->knob_present = 1u << VQPAIR_KNOB_TX_FULL_MODE;
	m->knob[VQPAIR_KNOB_TX_FULL_MODE] = 1;
	m->has_hist[VQP_HIST_COMPL] = true;
}

static void feed(void **state)
{
	struct vqp_track t;
	struct vqp_queue q;
	struct vqp_qmsg m;

	memset(&t, 0, sizeof(t));
	/* first reading: values, knobs and gauges, but no rate */
	reading(&m, 1000, 100, 100 * 5000, 7);
	m.hist[VQP_HIST_COMPL][12] = 100;
	vqp_queue_feed(&q, &t, &m, 1, 0);
	assert_false(q.valid);
	assert_int_equal(q.ctr[VQPAIR_QSTAT_TX_PACKETS], 1000);
	assert_true(isnan(q.rate[VQPAIR_QSTAT_TX_PACKETS]));
	assert_float_equal(q.rate[VQPAIR_QSTAT_ZC_PENDING], 7, EPS);
	assert_int_equal(q.knob[VQPAIR_KNOB_TX_FULL_MODE], 1);
	assert_true(isnan(q.compl_mean_ns));
	assert_true(isnan(q.compl_p99_ns));

	/* 0.5 s later: 500 packets, 50 completions of 3 us each, all in bucket 11 */
	reading(&m, 1500, 150, 100 * 5000 + 50 * 3000, 2);
	m.hist[VQP_HIST_COMPL][12] = 100;
	m.hist[VQP_HIST_COMPL][11] = 50;
	vqp_queue_feed(&q, &t, &m, 1, NS_PER_S / 2);
	assert_true(q.valid);
	assert_float_equal(q.rate[VQPAIR_QSTAT_TX_PACKETS], 1000, EPS);
	assert_float_equal(q.rate[VQPAIR_QSTAT_COMPL_COUNT], 100, EPS);
	/* a gauge going down is its value, not a reset */
	assert_float_equal(q.rate[VQPAIR_QSTAT_ZC_PENDING], 2, EPS);
	assert_float_equal(q.compl_mean_ns, 3000, EPS);
	/* the interval's histogram alone: the older bucket 12 does not count */
	assert_float_equal(q.compl_p99_ns, 2048 + 0.99 * 2048, EPS);

	/* no completion this interval: mean and p99 are NAN, rates still valid */
	reading(&m, 1600, 150, 100 * 5000 + 50 * 3000, 0);
	m.hist[VQP_HIST_COMPL][12] = 100;
	m.hist[VQP_HIST_COMPL][11] = 50;
	vqp_queue_feed(&q, &t, &m, 1, NS_PER_S);
	assert_true(q.valid);
	assert_float_equal(q.rate[VQPAIR_QSTAT_TX_PACKETS], 100, EPS);
	assert_true(isnan(q.compl_mean_ns));
	assert_true(isnan(q.compl_p99_ns));

	/* a counter going backwards is a reset: invalid, every rate NAN */
	reading(&m, 10, 151, 100 * 5000 + 51 * 3000, 0);
	m.hist[VQP_HIST_COMPL][12] = 100;
	m.hist[VQP_HIST_COMPL][11] = 51;
	vqp_queue_feed(&q, &t, &m, 1, NS_PER_S);
	assert_false(q.valid);
	assert_true(isnan(q.rate[VQPAIR_QSTAT_TX_PACKETS]));
	assert_true(isnan(q.rate[VQPAIR_QSTAT_COMPL_COUNT]));
	assert_true(isnan(q.compl_mean_ns));
	assert_true(isnan(q.compl_p99_ns));
	/* ... and the next interval is good again */
	reading(&m, 20, 152, 100 * 5000 + 52 * 3000, 0);
	m.hist[VQP_HIST_COMPL][12] = 100;
	m.hist[VQP_HIST_COMPL][11] = 52;
	vqp_queue_feed(&q, &t, &m, 1, NS_PER_S);
	assert_true(q.valid);
	assert_float_equal(q.rate[VQPAIR_QSTAT_TX_PACKETS], 10, EPS);
	assert_float_equal(q.compl_mean_ns, 3000, EPS);

	/* a histogram bucket going backwards alone also breaks the interval */
	reading(&m, 30, 153, 100 * 5000 + 53 * 3000, 0);
	m.hist[VQP_HIST_COMPL][11] = 53;
	vqp_queue_feed(&q, &t, &m, 1, NS_PER_S);
	assert_false(q.valid);
	assert_true(isnan(q.compl_p99_ns));

	/* a new queue generation (queue count changed): invalid */
	reading(&m, 40, 154, 100 * 5000 + 54 * 3000, 0);
	m.hist[VQP_HIST_COMPL][11] = 54;
	vqp_queue_feed(&q, &t, &m, 2, NS_PER_S);
	assert_false(q.valid);
	assert_true(isnan(q.rate[VQPAIR_QSTAT_TX_PACKETS]));
}

/* The delivery histograms: parsed by attribute, each direction its own p99. */
static void delivery(void **state)
{
	uint64_t txd[VQPAIR_LAT_BUCKETS] = { 0 }, rxd[VQPAIR_LAT_BUCKETS] = { 0 };
	struct nlmsghdr *nlh;
	struct vqp_track t;
	struct vqp_queue q;
	struct vqp_qmsg m;

	(void)state;
	/* the wire: a TX and an RX delivery histogram next to the completion one */
	txd[10] = 3;
	rxd[20] = 4;
	nlh = qstats_msg(0, NULL);
	mnl_attr_put(nlh, VQPAIR_A_TX_DELIVERY_HIST, sizeof(txd), txd);
	mnl_attr_put(nlh, VQPAIR_A_RX_DELIVERY_HIST, sizeof(rxd), rxd);
	assert_int_equal(vqp_parse_qstats(nlh, &m), 0);
	assert_false(m.has_hist[VQP_HIST_COMPL]);
	assert_true(m.has_hist[VQP_HIST_TX_DELIVERY]);
	assert_true(m.has_hist[VQP_HIST_RX_DELIVERY]);
	assert_int_equal(m.hist[VQP_HIST_TX_DELIVERY][10], 3);
	assert_int_equal(m.hist[VQP_HIST_RX_DELIVERY][20], 4);
	/* wrong length: the reply is refused */
	nlh = qstats_msg(0, NULL);
	mnl_attr_put(nlh, VQPAIR_A_RX_DELIVERY_HIST, 8, rxd);
	assert_int_equal(vqp_parse_qstats(nlh, &m), -EBADMSG);

	/* first reading: a reference, no p99 */
	memset(&t, 0, sizeof(t));
	reading(&m, 1000, 0, 0, 0);
	m.has_hist[VQP_HIST_TX_DELIVERY] = m.has_hist[VQP_HIST_RX_DELIVERY] = true;
	m.hist[VQP_HIST_TX_DELIVERY][10] = 500;
	vqp_queue_feed(&q, &t, &m, 1, 0);
	assert_true(isnan(q.tx_delivery_p99_ns));
	assert_true(isnan(q.rx_delivery_p99_ns));
	/* 1 s later: 990 TX at [1024, 2048) ns, 10 RX at [2^20, 2^21) ns (a 1 ms hold) */
	reading(&m, 2000, 0, 0, 0);
	m.has_hist[VQP_HIST_TX_DELIVERY] = m.has_hist[VQP_HIST_RX_DELIVERY] = true;
	m.hist[VQP_HIST_TX_DELIVERY][10] = 500 + 990;
	m.hist[VQP_HIST_RX_DELIVERY][20] = 10;
	vqp_queue_feed(&q, &t, &m, 1, NS_PER_S);
	assert_true(q.valid);
	assert_float_equal(q.tx_delivery_p99_ns, 1024 + 0.99 * 1024, EPS);
	assert_float_equal(q.rx_delivery_p99_ns, 1048576 + 0.99 * 1048576, EPS);
	/* each direction its own interval: the older TX reference does not count */
	reading(&m, 3000, 0, 0, 0);
	m.has_hist[VQP_HIST_TX_DELIVERY] = m.has_hist[VQP_HIST_RX_DELIVERY] = true;
	m.hist[VQP_HIST_TX_DELIVERY][10] = 500 + 990 + 990;
	m.hist[VQP_HIST_RX_DELIVERY][20] = 10 + 20;
	vqp_queue_feed(&q, &t, &m, 1, NS_PER_S);
	assert_float_equal(q.tx_delivery_p99_ns, 1024 + 0.99 * 1024, EPS);
	assert_float_equal(q.rx_delivery_p99_ns, 1048576 + 0.99 * 1048576, EPS);
	/* an RX bucket going backwards is a reset: invalid, no p99 */
	m.hist[VQP_HIST_RX_DELIVERY][20] = 5;
	vqp_queue_feed(&q, &t, &m, 1, NS_PER_S);
	assert_false(q.valid);
	assert_true(isnan(q.tx_delivery_p99_ns));
	assert_true(isnan(q.rx_delivery_p99_ns));
	/* an older module without the delivery histograms: no p99, the interval stays valid */
	reading(&m, 4000, 0, 0, 0);
	vqp_queue_feed(&q, &t, &m, 1, NS_PER_S);
	reading(&m, 5000, 0, 0, 0);
	vqp_queue_feed(&q, &t, &m, 1, NS_PER_S);
	assert_true(q.valid);
	assert_true(isnan(q.tx_delivery_p99_ns));
	assert_true(isnan(q.rx_delivery_p99_ns));
}

static void names(void **state)
{
	assert_string_equal(vqp_qstat_name(VQPAIR_QSTAT_TX_PACKETS), "tx-packets");
	assert_string_equal(vqp_qstat_name(VQPAIR_QSTAT_COMPL_SUM_NS), "completion-sum-ns");
	assert_null(vqp_qstat_name(0));
	assert_null(vqp_qstat_name(VQPAIR_QSTAT_MAX + 1));
	assert_string_equal(vqp_knob_name(VQPAIR_KNOB_BUSYLOOP_US), "busyloop-us");
	assert_null(vqp_knob_name(VQPAIR_KNOB_MAX + 1));
	assert_true(vqp_qstat_is_gauge(VQPAIR_QSTAT_TX_INFLIGHT_PEAK));
	assert_true(vqp_qstat_is_gauge(VQPAIR_QSTAT_ZC_PENDING_PEAK));
	assert_false(vqp_qstat_is_gauge(VQPAIR_QSTAT_ZC_SENT));
}

static struct netns ns = { .name = "lab", .sysfs = "/nonexistent" };

/* netns.c is not linked: the one call dev.c makes is answered here */
struct netns *netns_find(const char *name)
{
	return strcmp(name, "lab") ? NULL : &ns;
}

/* The daemon's vqpair knobs carry the UAPI table's names, units and ranges. */
static void knob_table_from_uapi(void **state)
{
	static const struct { int k, id; } map[] = {
		{ K_TX_FULL_MODE, VQPAIR_KNOB_TX_FULL_MODE }, { K_TX_NAPI, VQPAIR_KNOB_TX_NAPI },
		{ K_NAPI_WEIGHT, VQPAIR_KNOB_NAPI_WEIGHT }, { K_BUSYLOOP_US, VQPAIR_KNOB_BUSYLOOP_US },
		{ K_BACKEND_WEIGHT, VQPAIR_KNOB_BACKEND_WEIGHT }, { K_ZEROCOPY, VQPAIR_KNOB_ZEROCOPY },
		{ K_ZEROCOPY_MIN_BYTES, VQPAIR_KNOB_ZEROCOPY_MIN_BYTES },
		{ K_ZEROCOPY_MAX_PENDING, VQPAIR_KNOB_ZEROCOPY_MAX_PENDING },
	};
#define UAPI_(id, nm, lo, hi, dflt, u) { nm, u, lo, hi },
	static const struct { const char *name, *unit; uint64_t min, max; }
		uapi[VQPAIR_KNOB_MAX + 1] = { {0}, VQPAIR_KNOBS(UAPI_) };
	struct device *d = dev_add(&ns, 5);
	struct knob_inst ki[4];
	unsigned int i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		const struct knob_desc *kd = &knob_table[map[i].k];

		assert_string_equal(kd->name, uapi[map[i].id].name);
		assert_string_equal(kd->name, vqp_knob_name(map[i].id));
		assert_string_equal(kd->unit, uapi[map[i].id].unit);
		assert_int_equal(kd->min, uapi[map[i].id].min);
		assert_int_equal(kd->max, uapi[map[i].id].max);
		assert_int_equal(knob_by_name(kd->name), map[i].k);
		/* no vqpair state: no instance, not an error */
		assert_int_equal(knob_instances(d, map[i].k, ki, 4), 0);
	}
	/* ring size and coalescing stay with ethtool: one knob of that name */
	assert_int_equal(knob_by_name("tx-ring-size"), K_TX_RING_SIZE);
	assert_string_equal(knob_prov_name(KP_VQPAIR), "vqpair");
	assert_null(vqp_queue(d, 0));
	assert_false(vqp_is_front(d));
	assert_int_equal(vqp_queue_count(d), 0);
	dev_del(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_qstats),
		cmocka_unit_test(parse_qstats_bad),
		cmocka_unit_test(parse_pair),
		cmocka_unit_test(quantile),
		cmocka_unit_test(feed),
		cmocka_unit_test(delivery),
		cmocka_unit_test(names),
		cmocka_unit_test(knob_table_from_uapi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
