// SPDX-License-Identifier: GPL-2.0-only
/*
 * link_vqpair.so: the iproute2 plugin that teaches `ip link` the vqpair link type, so that
 *
 *	ip link add vqf0 [numtxqueues N numrxqueues N] type vqpair peer name vqb0
 *
 * works with a stock `ip`. iproute2 looks for <IP_LIB_DIR or its LIBDIR/ip>/link_<kind>.so
 * and the symbol <kind>_link_util (ip/iplink.c get_link_kind()). The structure below is
 * iproute2's struct link_util as of 6.1 (ip/ip_common.h), whose parse_opt appends inside
 * IFLA_INFO_DATA of the request; the request buffer is struct iplink_req (1024 bytes of
 * attributes). The peer is described as veth describes its own (VETH_INFO_PEER): a nested
 * struct ifinfomsg followed by IFLA_IFNAME, here under VQPAIR_INFO_PEER (include/vqpair.h).
 * No symbol of `ip` is used, so the plugin does not depend on its internals beyond this
 * structure.
 */
#include <stdio.h>
#include <string.h>

#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>

#include "vqpair.h"

/* iproute2 6.1 ip_common.h: struct iplink_req = nlmsghdr + ifinfomsg + char buf[1024] */
#define IPLINK_REQ_BYTES	(sizeof(struct nlmsghdr) + sizeof(struct ifinfomsg) + 1024)

struct link_util {
	struct link_util *next;
	const char *id;
	int maxattr;
	int (*parse_opt)(struct link_util *lu, int argc, char **argv, struct nlmsghdr *n);
	void (*print_opt)(struct link_util *lu, FILE *f, struct rtattr *tb[]);
	void (*print_xstats)(struct link_util *lu, FILE *f, struct rtattr *xstats);
	void (*print_help)(struct link_util *lu, int argc, char **argv, FILE *f);
	int (*parse_ifla_xstats)(struct link_util *lu, int argc, char **argv);
	int (*print_ifla_xstats)(struct nlmsghdr *n, void *arg);
};

/* Append one attribute; returns it, or NULL when the request buffer is full. */
static struct rtattr *put_attr(struct nlmsghdr *n, unsigned short type, const void *data,
			       unsigned int len)
{
	unsigned int alen = RTA_LENGTH(len);
	struct rtattr *rta;

	if (NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(alen) > IPLINK_REQ_BYTES)
		return NULL;
	rta = (struct rtattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));
	rta->rta_type = type;
	rta->rta_len = alen;
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(alen);
	return rta;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: ip link <options> type vqpair [peer name NAME]\n"
		   "vqpair: the front takes NAME of `ip link add NAME`, the back the peer name\n"
		   "(default vqpb<N>); numtxqueues/numrxqueues give the queue pairs.\n");
}

static int vqpair_parse_opt(struct link_util *lu, int argc, char **argv, struct nlmsghdr *n)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct rtattr *peer;
	const char *name;

	(void)lu;
	if (!argc)
		return 0;
	if (strcmp(argv[0], "peer")) {
		fprintf(stderr, "vqpair: unknown option \"%s\"\n", argv[0]);
		usage(stderr);
		return -1;
	}
	if (argc != 3 || strcmp(argv[1], "name")) {
		fprintf(stderr, "vqpair: expected \"peer name NAME\"\n");
		return -1;
	}
	name = argv[2];
	if (!*name || strlen(name) >= IFNAMSIZ) {
		fprintf(stderr, "vqpair: peer name \"%s\" is not 1..%d bytes\n", name,
			IFNAMSIZ - 1);
		return -1;
	}
	/* VQPAIR_INFO_PEER { struct ifinfomsg, IFLA_IFNAME } */
	peer = put_attr(n, VQPAIR_INFO_PEER, &ifi, sizeof(ifi));
	if (!peer || !put_attr(n, IFLA_IFNAME, name, strlen(name) + 1)) {
		fprintf(stderr, "vqpair: request buffer full\n");
		return -1;
	}
	peer->rta_len = (char *)n + n->nlmsg_len - (char *)peer;
	return 0;
}

static void vqpair_print_help(struct link_util *lu, int argc, char **argv, FILE *f)
{
	(void)lu;
	(void)argc;
	(void)argv;
	usage(f);
}

struct link_util vqpair_link_util = {
	.id = "vqpair",
	.maxattr = VQPAIR_INFO_MAX,
	.parse_opt = vqpair_parse_opt,
	.print_help = vqpair_print_help,
};
