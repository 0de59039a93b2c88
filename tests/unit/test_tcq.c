// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcq: RTM_NEWQDISC parsing and the qdisc -> TX queue map, on messages built here the way
 * net/sched/sch_api.c tc_fill_qdisc() and net/core/gen_stats.c lay them out.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <libmnl/libmnl.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "dev.h"
#include "log.h"
#include "tcq.h"

/* tcq_sample()'s neighbours, unused by the pure functions under test */
struct device *dev_first(void)
{
	return NULL;
}

struct device *dev_lookup(const struct netns *ns, int ifindex)
{
	return NULL;
}

void log_msg(enum log_level lvl, const char *fmt, ...)
{
}

enum { ST_NONE, ST_STATS2, ST_COMPAT, ST_BOTH, ST_SHORT };

struct msg {
	char buf[1024];
};

/* An RTM_NEWQDISC of @kind on @ifindex with backlog/qlen in the stats form @st. */
static struct nlmsghdr *qdisc_msg(struct msg *m, int ifindex, uint32_t handle, uint32_t parent,
				  const char *kind, int st, uint32_t backlog, uint32_t qlen)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(m->buf);
	struct tcmsg *tcm;
	struct nlattr *nest;

	nlh->nlmsg_type = RTM_NEWQDISC;
	nlh->nlmsg_flags = NLM_F_MULTI;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_ifindex = ifindex;
	tcm->tcm_handle = handle;
	tcm->tcm_parent = parent;
	tcm->tcm_info = 2;	/* refcnt */
	if (kind)
		mnl_attr_put_strz(nlh, TCA_KIND, kind);
	/* an attribute a newer kernel may add: skipped */
	mnl_attr_put_u32(nlh, TCA_MAX + 3, 0xdead);
	if (st == ST_STATS2 || st == ST_BOTH || st == ST_SHORT) {
		struct gnet_stats_basic basic = { .bytes = 1000, .packets = 10 };
		struct gnet_stats_queue q = { .qlen = qlen, .backlog = backlog, .drops = 7 };

		nest = mnl_attr_nest_start(nlh, TCA_STATS2);
		mnl_attr_put(nlh, TCA_STATS_BASIC, sizeof(basic), &basic);
		mnl_attr_put(nlh, TCA_STATS_QUEUE, st == ST_SHORT ? 8 : sizeof(q), &q);
		mnl_attr_nest_end(nlh, nest);
	}
	if (st == ST_COMPAT || st == ST_BOTH) {
		struct tc_stats ts = { .bytes = 1000, .packets = 10, .qlen = qlen,
				       .backlog = backlog };

		/* in BOTH, the compat copy disagrees: STATS2 must win */
		if (st == ST_BOTH)
			ts.backlog = ts.qlen = 999999;
		mnl_attr_put(nlh, TCA_STATS, sizeof(ts), &ts);
	}
	return nlh;
}

static void test_parse_stats2(void **state)
{
	struct msg m;
	struct tcq_qdisc qd;

	assert_int_equal(tcq_parse(qdisc_msg(&m, 7, 0x200000, 0x10002, "tbf", ST_STATS2, 4542,
					     3), &qd), 0);
	assert_int_equal(qd.ifindex, 7);
	assert_int_equal(qd.handle, 0x200000);
	assert_int_equal(qd.parent, 0x10002);
	assert_string_equal(qd.kind, "tbf");
	assert_true(qd.has_queue);
	assert_int_equal(qd.backlog_bytes, 4542);
	assert_int_equal(qd.qlen, 3);

	assert_int_equal(tcq_parse(qdisc_msg(&m, 7, 0, TC_H_ROOT, "fq_codel", ST_BOTH, 100, 1),
				   &qd), 0);
	assert_int_equal(qd.backlog_bytes, 100);
	assert_int_equal(qd.qlen, 1);
}

static void test_parse_compat_only(void **state)
{
	struct msg m;
	struct tcq_qdisc qd;

	assert_int_equal(tcq_parse(qdisc_msg(&m, 3, 0x10000, TC_H_ROOT, "pfifo", ST_COMPAT,
					     65536, 44), &qd), 0);
	assert_true(qd.has_queue);
	assert_int_equal(qd.backlog_bytes, 65536);
	assert_int_equal(qd.qlen, 44);
}

static void test_parse_no_or_short_stats(void **state)
{
	struct msg m;
	struct tcq_qdisc qd;

	assert_int_equal(tcq_parse(qdisc_msg(&m, 3, 0, TC_H_ROOT, "noqueue", ST_NONE, 0, 0),
				   &qd), 0);
	assert_false(qd.has_queue);
	assert_string_equal(qd.kind, "noqueue");
	/* a truncated gnet_stats_queue is no figure at all */
	assert_int_equal(tcq_parse(qdisc_msg(&m, 3, 0, TC_H_ROOT, "pfifo", ST_SHORT, 5, 5), &qd),
			 0);
	assert_false(qd.has_queue);
	/* no TCA_KIND: empty kind, never a match for noqueue or mq */
	assert_int_equal(tcq_parse(qdisc_msg(&m, 3, 0, TC_H_ROOT, NULL, ST_STATS2, 5, 1), &qd),
			 0);
	assert_string_equal(qd.kind, "");
}

static void test_parse_rejects(void **state)
{
	struct msg m;
	struct tcq_qdisc qd;
	struct nlmsghdr *nlh = qdisc_msg(&m, 3, 0, TC_H_ROOT, "mq", ST_STATS2, 0, 0);

	nlh->nlmsg_type = RTM_NEWLINK;
	assert_int_equal(tcq_parse(nlh, &qd), -EINVAL);
	nlh = mnl_nlmsg_put_header(m.buf);
	nlh->nlmsg_type = RTM_NEWQDISC;
	mnl_nlmsg_put_extra_header(nlh, 4);	/* shorter than struct tcmsg */
	assert_int_equal(tcq_parse(nlh, &qd), -EINVAL);
}

/* Parse and map one message; returns the span, .n = 0 when it maps to nothing. */
static struct tcq_span feed(struct tcq_walk *w, int ifindex, uint32_t handle, uint32_t parent,
			    const char *kind, uint32_t backlog, unsigned int n_tx)
{
	struct msg m;
	struct tcq_qdisc qd;
	struct tcq_span sp = { 0 };

	assert_int_equal(tcq_parse(qdisc_msg(&m, ifindex, handle, parent, kind, ST_STATS2,
					     backlog, backlog ? 1 : 0), &qd), 0);
	if (!tcq_map(w, &qd, n_tx, &sp))
		sp = (struct tcq_span){ 0 };
	return sp;
}

#define assert_span(sp, f, cnt, z)					\
	do {								\
		struct tcq_span s_ = (sp);				\
		assert_int_equal(s_.n, (cnt));				\
		if (cnt) {						\
			assert_int_equal(s_.first, (f));		\
			assert_int_equal(s_.zero, (z));			\
		}							\
	} while (0)

static void test_map_noqueue(void **state)
{
	struct tcq_walk w = { 0 };

	/* veth default: "noqueue 0: root", every queue known empty */
	assert_span(feed(&w, 5, 0, TC_H_ROOT, "noqueue", 0, 4), 0, 4, true);
	assert_span(feed(&w, 6, 0, TC_H_ROOT, "noqueue", 0, 1), 0, 1, true);
}

static void test_map_mq_children(void **state)
{
	struct tcq_walk w = { 0 };

	/* tc qdisc add dev X root handle 1: mq; tbf on 1:2 */
	assert_span(feed(&w, 5, TC_H_MAKE(1 << 16, 0), TC_H_ROOT, "mq", 4000, 2), 0, 0, false);
	assert_span(feed(&w, 5, 0, TC_H_MAKE(1 << 16, 1), "pfifo_fast", 0, 2), 0, 1, false);
	assert_span(feed(&w, 5, TC_H_MAKE(0x20 << 16, 0), TC_H_MAKE(1 << 16, 2), "tbf", 4000, 2),
		    1, 1, false);
	/* tbf's own child and an ingress qdisc: not per-queue */
	assert_span(feed(&w, 5, TC_H_MAKE(0x30 << 16, 0), TC_H_MAKE(0x20 << 16, 1), "pfifo", 4000,
			 2), 0, 0, false);
	assert_span(feed(&w, 5, TC_H_MAKE(TC_H_MAJ(TC_H_INGRESS), 0), TC_H_INGRESS, "ingress", 0,
			 2), 0, 0, false);
	/* a minor beyond the active queues (or 0, the class of the root itself) */
	assert_span(feed(&w, 5, 0, TC_H_MAKE(1 << 16, 3), "pfifo_fast", 0, 2), 0, 0, false);
	assert_span(feed(&w, 5, 0, TC_H_MAKE(1 << 16, 0), "pfifo_fast", 0, 2), 0, 0, false);
}

static void test_map_default_mq(void **state)
{
	struct tcq_walk w = { 0 };

	/* the kernel's own mq on a multi-queue NIC: "mq 0: root", children "parent :1".. */
	assert_span(feed(&w, 2, 0, TC_H_ROOT, "mq", 0, 8), 0, 0, false);
	assert_span(feed(&w, 2, 0, 1, "fq_codel", 0, 8), 0, 1, false);
	assert_span(feed(&w, 2, 0, 8, "fq_codel", 0, 8), 7, 1, false);
	assert_span(feed(&w, 2, 0, 9, "fq_codel", 0, 8), 0, 0, false);
	/* mqprio and taprio hang their children the same way */
	assert_span(feed(&w, 3, TC_H_MAKE(9 << 16, 0), TC_H_ROOT, "mqprio", 0, 4), 0, 0, false);
	assert_span(feed(&w, 3, 0, TC_H_MAKE(9 << 16, 4), "pfifo_fast", 0, 4), 3, 1, false);
}

static void test_map_child_needs_its_root(void **state)
{
	struct tcq_walk w = { 0 };

	/* a child before any root, or after another device's mq root: unknown */
	assert_span(feed(&w, 5, 0, TC_H_MAKE(1 << 16, 1), "pfifo_fast", 9, 2), 0, 0, false);
	assert_span(feed(&w, 4, TC_H_MAKE(1 << 16, 0), TC_H_ROOT, "mq", 0, 2), 0, 0, false);
	assert_span(feed(&w, 5, 0, TC_H_MAKE(1 << 16, 1), "pfifo_fast", 9, 2), 0, 0, false);
	/* children of a non-mq root are its classes' qdiscs, not queues */
	assert_span(feed(&w, 6, TC_H_MAKE(1 << 16, 0), TC_H_ROOT, "htb", 0, 2), 0, 1, false);
	assert_span(feed(&w, 6, TC_H_MAKE(0x10 << 16, 0), TC_H_MAKE(1 << 16, 1), "fq_codel", 0,
			 2), 0, 0, false);
}

static void test_map_single_root(void **state)
{
	struct tcq_walk w = { 0 };
	struct msg m;
	struct tcq_qdisc qd;
	struct tcq_span sp;

	/* one TX queue: the root is all of it */
	assert_span(feed(&w, 5, TC_H_MAKE(1 << 16, 0), TC_H_ROOT, "tbf", 3000, 1), 0, 1, false);
	/* several: the shared root speaks for queue 0 only */
	assert_span(feed(&w, 6, TC_H_MAKE(1 << 16, 0), TC_H_ROOT, "fq_codel", 3000, 4), 0, 1,
		    false);
	/* no stats: unknown, not 0 */
	assert_int_equal(tcq_parse(qdisc_msg(&m, 7, 0, TC_H_ROOT, "pfifo", ST_NONE, 0, 0), &qd),
			 0);
	assert_false(tcq_map(&w, &qd, 1, &sp));
	/* a device without TX queues takes nothing */
	assert_span(feed(&w, 8, 0, TC_H_ROOT, "noqueue", 0, 0), 0, 0, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_stats2),
		cmocka_unit_test(test_parse_compat_only),
		cmocka_unit_test(test_parse_no_or_short_stats),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_map_noqueue),
		cmocka_unit_test(test_map_mq_children),
		cmocka_unit_test(test_map_default_mq),
		cmocka_unit_test(test_map_child_needs_its_root),
		cmocka_unit_test(test_map_single_root),
	};

	return cmocka_run_group_tests_name("tcq", tests, NULL, NULL);
}
