// SPDX-License-Identifier: GPL-2.0
/*
 * vqpairctl: a small libmnl client of the vqpair genl family (include/vqpair.h) for the VM
 * tests, and a reference for the daemon's provider. Every failure prints the kernel's
 * extack message ("vqpairctl: set: Numerical result out of range: <extack>").
 *
 *   vqpairctl link-add FRONT PEER [QUEUES]   rtnetlink: the message `ip link add FRONT
 *                                            numtxqueues Q numrxqueues Q type vqpair peer
 *                                            name PEER` would send
 *   vqpairctl show DEV                       pair: ifindex, peer, id, queues, knobs
 *   vqpairctl get DEV KNOB                   knob value (queue 0)
 *   vqpairctl set DEV [queue N] KNOB VAL...  set knobs (device-wide without queue)
 *   vqpairctl stats DEV [-q]                 stats summed over queues, or per queue (-q);
 *                                            also lat-hist-<i> buckets
 *   vqpairctl monitor COUNT TIMEOUT_S        print COUNT knob events (or until timeout)
 *   vqpairctl udp-flows DST PORT N           one UDP datagram from each of N source ports
 *   vqpairctl qstats DEV                     the kernel's netdev qstats per queue (>= 6.10):
 *                                            "rx|tx QUEUE name value"; exit 4 when the
 *                                            kernel has no netdev family
 * Output is "name value" lines for shell tests.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <poll.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include "../../include/vqpair.h"
#include "../../include/netdev_ids.h"

#define KNOB_NAME_(id, nm, lo, hi, dflt, unit) [VQPAIR_KNOB_##id] = nm,
static const char *const knob_names[VQPAIR_KNOB_MAX + 1] = { VQPAIR_KNOBS(KNOB_NAME_) };
#define QSTAT_NAME_(id, nm) [VQPAIR_QSTAT_##id] = nm,
static const char *const qstat_names[VQPAIR_QSTAT_MAX + 1] = { VQPAIR_QSTATS(QSTAT_NAME_) };

/* receive buffer: a page-sized netlink batch, as libmnl's examples */
#define BUF_BYTES	MNL_SOCKET_BUFFER_SIZE

struct ctx {
	struct mnl_socket *nl;
	unsigned int portid;
	uint16_t family;
	uint32_t mcgrp;
	unsigned int seq;
	const char *what;	/* command name for error messages */
};

static int knob_id(const char *name)
{
	for (int k = 1; k <= VQPAIR_KNOB_MAX; k++)
		if (!strcmp(knob_names[k], name))
			return k;
	return -1;
}

/* print an NLMSG_ERROR with its extack text; returns the negative errno (0 for an ack) */
static int show_error(const struct ctx *c, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	const char *msg = NULL;
	size_t off = sizeof(*e);

	if (!e->error)
		return 0;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		const struct nlattr *attr;

		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += mnl_nlmsg_get_payload_len(&e->msg);
		mnl_attr_for_each_payload((const void *)((const char *)e + off),
					  nlh->nlmsg_len - MNL_NLMSG_HDRLEN - off)
			if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG)
				msg = mnl_attr_get_str(attr);
	}
	fprintf(stderr, "vqpairctl: %s: %s%s%s\n", c->what, strerror(-e->error),
		msg ? ": " : "", msg ? msg : "");
	return e->error;
}

/* send nlh, run cb over the replies until done; negative errno on failure */
static int talk(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	char buf[BUF_BYTES];
	unsigned int seq = nlh->nlmsg_seq = ++c->seq;
	int n;
	int ret;

	nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(c->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(c->nl, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		for (struct nlmsghdr *h = (void *)buf; mnl_nlmsg_ok(h, n); h = mnl_nlmsg_next(h, &n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR)
				return show_error(c, h);
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (cb && (ret = cb(h, data)) < MNL_CB_OK)
				return -EIO;
		}
	}
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ctx *c = data;
	const struct nlattr *a, *g, *ga;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			c->family = mnl_attr_get_u16(a);
		if (mnl_attr_get_type(a) != CTRL_ATTR_MCAST_GROUPS)
			continue;
		mnl_attr_for_each_nested(g, a) {
			uint32_t id = 0;
			const char *name = NULL;

			mnl_attr_for_each_nested(ga, g) {
				if (mnl_attr_get_type(ga) == CTRL_ATTR_MCAST_GRP_ID)
					id = mnl_attr_get_u32(ga);
				if (mnl_attr_get_type(ga) == CTRL_ATTR_MCAST_GRP_NAME)
					name = mnl_attr_get_str(ga);
			}
			if (name && !strcmp(name, VQPAIR_MCGRP_EVENTS))
				c->mcgrp = id;
		}
	}
	return MNL_CB_OK;
}

static struct nlmsghdr *genl_msg(struct ctx *c, char *buf, uint16_t type, uint8_t cmd,
				 uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = type == GENL_ID_CTRL ? 1 : VQPAIR_GENL_VERSION;
	(void)c;
	return nlh;
}

static int open_nl(struct ctx *c, int proto)
{
	int one = 1;

	c->nl = mnl_socket_open(proto);
	if (!c->nl || mnl_socket_bind(c->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("vqpairctl: netlink socket");
		return -1;
	}
	c->portid = mnl_socket_get_portid(c->nl);
	c->seq = time(NULL);
	/* ask for extack text in errors (NETLINK_EXT_ACK) */
	mnl_socket_setsockopt(c->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	return 0;
}

static int resolve_family(struct ctx *c, const char *name)
{
	char buf[BUF_BYTES];
	struct nlmsghdr *nlh = genl_msg(c, buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	c->what = name;
	return talk(c, nlh, family_cb, c) ? -1 : 0;
}

/* ---- rtnetlink: create a pair ----------------------------------------------------------- */

static int cmd_link_add(struct ctx *c, int argc, char **argv)
{
	char buf[BUF_BYTES];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlattr *linkinfo, *data, *peer;
	uint32_t nq = argc > 2 ? strtoul(argv[2], NULL, 0) : 1;

	if (argc < 2)
		return -EINVAL;
	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL;
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct ifinfomsg));
	mnl_attr_put_strz(nlh, IFLA_IFNAME, argv[0]);
	mnl_attr_put_u32(nlh, IFLA_NUM_TX_QUEUES, nq);
	mnl_attr_put_u32(nlh, IFLA_NUM_RX_QUEUES, nq);
	linkinfo = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, VQPAIR_LINK_KIND);
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	peer = mnl_attr_nest_start(nlh, VQPAIR_INFO_PEER);
	/* the peer is a nested ifinfomsg followed by its IFLA_* attributes, as veth's */
	memset(mnl_nlmsg_get_payload_tail(nlh), 0, sizeof(struct ifinfomsg));
	nlh->nlmsg_len += MNL_ALIGN(sizeof(struct ifinfomsg));
	mnl_attr_put_strz(nlh, IFLA_IFNAME, argv[1]);
	mnl_attr_nest_end(nlh, peer);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, linkinfo);
	c->what = "link-add";
	return talk(c, nlh, NULL, NULL);
}

/* ---- genl commands ---------------------------------------------------------------------- */

static uint32_t ifindex_of(const char *name)
{
	uint32_t i = if_nametoindex(name);

	if (!i)
		fprintf(stderr, "vqpairctl: no device %s\n", name);
	return i;
}

static int show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *k;
	int want = data ? *(int *)data : 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case VQPAIR_A_IFINDEX:
			if (!want)
				printf("ifindex %u\n", mnl_attr_get_u32(a));
			break;
		case VQPAIR_A_PEER_IFINDEX:
			if (!want)
				printf("peer-ifindex %u\n", mnl_attr_get_u32(a));
			break;
		case VQPAIR_A_PAIR_ID:
			if (!want)
				printf("pair-id %u\n", mnl_attr_get_u32(a));
			break;
		case VQPAIR_A_NUM_QUEUES:
			if (!want)
				printf("queues %u\n", mnl_attr_get_u32(a));
			break;
		case VQPAIR_A_KNOBS:
			mnl_attr_for_each_nested(k, a) {
				int t = mnl_attr_get_type(k);

				if (t < 1 || t > VQPAIR_KNOB_MAX || (want && t != want))
					continue;
				if (want)
					printf("%u\n", mnl_attr_get_u32(k));
				else
					printf("%s %u\n", knob_names[t], mnl_attr_get_u32(k));
			}
			break;
		}
	}
	return MNL_CB_OK;
}

static int cmd_show(struct ctx *c, int argc, char **argv, int knob)
{
	char buf[BUF_BYTES];
	struct nlmsghdr *nlh;
	uint32_t ifi;

	if (argc < 1 || !(ifi = ifindex_of(argv[0])))
		return -EINVAL;
	nlh = genl_msg(c, buf, c->family, VQPAIR_CMD_PAIR_GET, 0);
	mnl_attr_put_u32(nlh, VQPAIR_A_IFINDEX, ifi);
	c->what = "show";
	return talk(c, nlh, show_cb, knob ? &knob : NULL);
}

static int cmd_set(struct ctx *c, int argc, char **argv)
{
	char buf[BUF_BYTES];
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	uint32_t ifi;
	int i = 1;

	if (argc < 3 || !(ifi = ifindex_of(argv[0])))
		return -EINVAL;
	nlh = genl_msg(c, buf, c->family, VQPAIR_CMD_KNOB_SET, 0);
	mnl_attr_put_u32(nlh, VQPAIR_A_IFINDEX, ifi);
	if (!strcmp(argv[1], "queue") && argc > 2) {
		mnl_attr_put_u32(nlh, VQPAIR_A_QUEUE_ID, strtoul(argv[2], NULL, 0));
		i = 3;
	}
	nest = mnl_attr_nest_start(nlh, VQPAIR_A_KNOBS);
	for (; i + 1 < argc; i += 2) {
		int k = knob_id(argv[i]);

		if (k < 0) {
			fprintf(stderr, "vqpairctl: unknown knob %s\n", argv[i]);
			return -EINVAL;
		}
		/* values go as given (u32): the kernel's policy does the range check */
		mnl_attr_put_u32(nlh, k, strtoul(argv[i + 1], NULL, 0));
	}
	mnl_attr_nest_end(nlh, nest);
	c->what = "set";
	return talk(c, nlh, NULL, NULL);
}

struct stats_acc {
	int per_queue;
	uint64_t sum[VQPAIR_QSTAT_MAX + 1];
	uint64_t hist[VQPAIR_LAT_BUCKETS];
	uint64_t txd[VQPAIR_LAT_BUCKETS];	/* TX_DELIVERY_HIST */
	uint64_t rxd[VQPAIR_LAT_BUCKETS];	/* RX_DELIVERY_HIST */
};

/* add a u64[VQPAIR_LAT_BUCKETS] attribute into @sum; other sizes are ignored */
static void hist_acc(uint64_t *sum, const struct nlattr *a)
{
	const uint64_t *h = mnl_attr_get_payload(a);

	if (mnl_attr_get_payload_len(a) != VQPAIR_LAT_BUCKETS * sizeof(uint64_t))
		return;
	for (int i = 0; i < VQPAIR_LAT_BUCKETS; i++)
		sum[i] += h[i];
}

static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct stats_acc *acc = data;
	const struct nlattr *a, *s;
	uint32_t q = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		int t = mnl_attr_get_type(a);

		if (t == VQPAIR_A_QUEUE_ID)
			q = mnl_attr_get_u32(a);
		if (t == VQPAIR_A_LAT_HIST)
			hist_acc(acc->hist, a);
		if (t == VQPAIR_A_TX_DELIVERY_HIST)
			hist_acc(acc->txd, a);
		if (t == VQPAIR_A_RX_DELIVERY_HIST)
			hist_acc(acc->rxd, a);
		if (t != VQPAIR_A_STATS)
			continue;
		mnl_attr_for_each_nested(s, a) {
			int id = mnl_attr_get_type(s);

			if (id < 1 || id > VQPAIR_QSTAT_MAX)
				continue;
			acc->sum[id] += mnl_attr_get_u64(s);
			if (acc->per_queue)
				printf("q%u %s %llu\n", q, qstat_names[id],
				       (unsigned long long)mnl_attr_get_u64(s));
		}
	}
	return MNL_CB_OK;
}

static int cmd_stats(struct ctx *c, int argc, char **argv)
{
	char buf[BUF_BYTES];
	struct stats_acc acc = { .per_queue = argc > 1 && !strcmp(argv[1], "-q") };
	struct nlmsghdr *nlh;
	uint32_t ifi;
	int err;

	if (argc < 1 || !(ifi = ifindex_of(argv[0])))
		return -EINVAL;
	nlh = genl_msg(c, buf, c->family, VQPAIR_CMD_QSTATS_GET, NLM_F_DUMP);
	mnl_attr_put_u32(nlh, VQPAIR_A_IFINDEX, ifi);
	c->what = "stats";
	err = talk(c, nlh, stats_cb, &acc);
	if (err || acc.per_queue)
		return err;
	for (int i = 1; i <= VQPAIR_QSTAT_MAX; i++)
		printf("%s %llu\n", qstat_names[i], (unsigned long long)acc.sum[i]);
	for (int i = 0; i < VQPAIR_LAT_BUCKETS; i++)
		printf("lat-hist-%d %llu\n", i, (unsigned long long)acc.hist[i]);
	for (int i = 0; i < VQPAIR_LAT_BUCKETS; i++)
		printf("tx-delivery-hist-%d %llu\n", i, (unsigned long long)acc.txd[i]);
	for (int i = 0; i < VQPAIR_LAT_BUCKETS; i++)
		printf("rx-delivery-hist-%d %llu\n", i, (unsigned long long)acc.rxd[i]);
	return 0;
}

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;
	long q = -1, knob = 0, old = 0, val = 0, ifi = 0;

	(void)data;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case VQPAIR_A_IFINDEX: ifi = mnl_attr_get_u32(a); break;
		case VQPAIR_A_QUEUE_ID: q = mnl_attr_get_u32(a); break;
		case VQPAIR_A_KNOB: knob = mnl_attr_get_u32(a); break;
		case VQPAIR_A_OLD: old = mnl_attr_get_u32(a); break;
		case VQPAIR_A_NEW: val = mnl_attr_get_u32(a); break;
		}
	}
	printf("event ifindex %ld queue %ld knob %s old %ld new %ld\n", ifi, q,
	       knob >= 1 && knob <= VQPAIR_KNOB_MAX ? knob_names[knob] : "?", old, val);
	fflush(stdout);
	return MNL_CB_OK;
}

static int cmd_monitor(struct ctx *c, int argc, char **argv)
{
	int want = argc > 0 ? atoi(argv[0]) : 1, got = 0;
	int timeout_ms = (argc > 1 ? atoi(argv[1]) : 10) * 1000;
	struct pollfd pfd = { .fd = mnl_socket_get_fd(c->nl), .events = POLLIN };
	char buf[BUF_BYTES];

	if (mnl_socket_setsockopt(c->nl, NETLINK_ADD_MEMBERSHIP, &c->mcgrp, sizeof(c->mcgrp))) {
		perror("vqpairctl: join events group");
		return -errno;
	}
	printf("listening\n");
	fflush(stdout);
	while (got < want && poll(&pfd, 1, timeout_ms) > 0) {
		int n = mnl_socket_recvfrom(c->nl, buf, sizeof(buf));

		if (n < 0)
			return -errno;
		for (struct nlmsghdr *h = (void *)buf; mnl_nlmsg_ok(h, n); h = mnl_nlmsg_next(h, &n))
			if (h->nlmsg_type == c->family) {
				event_cb(h, NULL);
				got++;
			}
	}
	printf("events %d\n", got);
	return got == want ? 0 : -ETIMEDOUT;
}

static int cmd_udp_flows(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	int n, fd;

	if (argc < 3 || inet_pton(AF_INET, argv[0], &dst.sin_addr) != 1)
		return -EINVAL;
	dst.sin_port = htons(atoi(argv[1]));
	n = atoi(argv[2]);
	for (int i = 0; i < n; i++) {
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0)
			return -errno;
		if (sendto(fd, "vqpair", 6, 0, (struct sockaddr *)&dst, sizeof(dst)) < 0)
			perror("vqpairctl: sendto");
		close(fd);
	}
	return 0;
}


/* ---- netdev family qstats (ids from include/netdev_ids.h: Debian 12's headers lack
 * <linux/netdev.h>) ---------------------------------------------------------------------- */

/* kselftest's exit code for "skipped" */
#define KSFT_SKIP_		4

static const struct { int id; const char *name; } qstat_ids[] = {
	{ VQ_NETDEV_A_QSTATS_RX_PACKETS, "rx-packets" },
	{ VQ_NETDEV_A_QSTATS_RX_BYTES, "rx-bytes" },
	{ VQ_NETDEV_A_QSTATS_TX_PACKETS, "tx-packets" },
	{ VQ_NETDEV_A_QSTATS_TX_BYTES, "tx-bytes" },
	{ VQ_NETDEV_A_QSTATS_TX_HW_DROPS, "tx-hw-drops" },
	{ VQ_NETDEV_A_QSTATS_TX_STOP, "tx-stop" },
	{ VQ_NETDEV_A_QSTATS_TX_WAKE, "tx-wake" },
};

/* netdev "uint" attributes are 4 or 8 bytes on the wire */
static uint64_t get_uint(const struct nlattr *a)
{
	return mnl_attr_get_payload_len(a) == 4 ? mnl_attr_get_u32(a) : mnl_attr_get_u64(a);
}

static int qstats_cb(const struct nlmsghdr *nlh, void *data)
{
	uint32_t want = *(uint32_t *)data, ifi = 0, qtype = 0, qid = 0;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case VQ_NETDEV_A_QSTATS_IFINDEX: ifi = mnl_attr_get_u32(a); break;
		case VQ_NETDEV_A_QSTATS_QUEUE_TYPE: qtype = mnl_attr_get_u32(a); break;
		case VQ_NETDEV_A_QSTATS_QUEUE_ID: qid = mnl_attr_get_u32(a); break;
		}
	}
	if (ifi != want)
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		for (size_t i = 0; i < sizeof(qstat_ids) / sizeof(qstat_ids[0]); i++)
			if (mnl_attr_get_type(a) == qstat_ids[i].id)
				printf("%s %u %s %llu\n", qtype ? "tx" : "rx", qid, qstat_ids[i].name,
				       (unsigned long long)get_uint(a));
	return MNL_CB_OK;
}

static int cmd_qstats(struct ctx *c, int argc, char **argv)
{
	char buf[BUF_BYTES];
	struct nlmsghdr *nlh;
	uint32_t ifi;

	if (argc < 1 || !(ifi = ifindex_of(argv[0])))
		return -EINVAL;
	nlh = genl_msg(c, buf, c->family, VQ_NETDEV_CMD_QSTATS_GET, NLM_F_DUMP);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QSTATS_IFINDEX, ifi);
	mnl_attr_put_u32(nlh, VQ_NETDEV_A_QSTATS_SCOPE, VQ_NETDEV_QSTATS_SCOPE_QUEUE);
	c->what = "qstats";
	return talk(c, nlh, qstats_cb, &ifi);
}

int main(int argc, char **argv)
{
	struct ctx c = { 0 };
	const char *cmd = argc > 1 ? argv[1] : "";
	int err;

	if (!strcmp(cmd, "udp-flows"))
		return cmd_udp_flows(argc - 2, argv + 2) ? 1 : 0;
	if (!strcmp(cmd, "link-add")) {
		if (open_nl(&c, NETLINK_ROUTE))
			return 1;
		err = cmd_link_add(&c, argc - 2, argv + 2);
		goto out;
	}
	if (!strcmp(cmd, "qstats")) {
		if (open_nl(&c, NETLINK_GENERIC))
			return 1;
		if (resolve_family(&c, "netdev")) {
			mnl_socket_close(c.nl);
			return KSFT_SKIP_;
		}
		err = cmd_qstats(&c, argc - 2, argv + 2);
		goto out;
	}
	if (open_nl(&c, NETLINK_GENERIC) || resolve_family(&c, VQPAIR_GENL_NAME))
		return 1;
	if (!strcmp(cmd, "show"))
		err = cmd_show(&c, argc - 2, argv + 2, 0);
	else if (!strcmp(cmd, "get") && argc > 3 && knob_id(argv[3]) > 0)
		err = cmd_show(&c, argc - 2, argv + 2, knob_id(argv[3]));
	else if (!strcmp(cmd, "set"))
		err = cmd_set(&c, argc - 2, argv + 2);
	else if (!strcmp(cmd, "stats"))
		err = cmd_stats(&c, argc - 2, argv + 2);
	else if (!strcmp(cmd, "monitor"))
		err = cmd_monitor(&c, argc - 2, argv + 2);
	else {
		fprintf(stderr, "usage: vqpairctl link-add|show|get|set|stats|monitor|udp-flows ...\n");
		err = -EINVAL;
	}
out:
	mnl_socket_close(c.nl);
	return err ? 1 : 0;
}
