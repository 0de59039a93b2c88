// SPDX-License-Identifier: GPL-2.0-only
/*
 * vqprobe: exercise the daemon's kernel providers (nl_netdev, nl_ethtool, ethstats) on one
 * device of the current network namespace. Test tool for tests/netns/providers.sh; one
 * "key=value" record per line so shell tests can grep exact values.
 *
 *   vqprobe DEV show
 *   vqprobe all show          (netdev dumps of every device: ifindex 0)
 *   vqprobe DEV napi-set NAPI_ID defer-hard-irqs|gro-flush-timeout|irq-suspend-timeout|threaded V
 *   vqprobe DEV coalesce-set rx-usecs|rx-frames|tx-usecs|tx-frames|adaptive-rx|adaptive-tx V
 *   vqprobe DEV rings-set rx|tx V
 *   vqprobe DEV channels-set rx|tx|combined V
 *
 * Exit 0 on success; 1 on failure with "error: <strerror>: <kernel extack text>" on stderr.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ethstats.h"
#include "netdev_ids.h"
#include "nl_ethtool.h"
#include "nl_netdev.h"

#define N_OF(a)	((int)(sizeof(a) / sizeof((a)[0])))

/* room for the kernel's longest extack strings (NETLINK_MAX_FMTMSG_LEN is 80) */
#define ERR_TEXT_BYTES	256

static const char *const co_names[ETH_CO_NUM] = {
	"rx-usecs", "rx-frames", "tx-usecs", "tx-frames", "adaptive-rx", "adaptive-tx",
};
static const char *const qs_names[NDV_QS_NUM] = {
	"rx-packets", "rx-bytes", "tx-packets", "tx-bytes", "rx-alloc-fail", "rx-hw-drops",
	"tx-hw-drops", "tx-stop", "tx-wake",
};
static const char *const ets_names[ETS_NUM] = { "packets", "bytes", "drops", "stop", "wake" };

static int lookup(const char *const *names, int n, const char *w)
{
	int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], w))
			return i;
	return -1;
}

static int fail(int ret, const char *what, const char *err)
{
	fprintf(stderr, "error: %s: %s: %s\n", what, strerror(-ret), err ? err : "");
	return 1;
}

static int print_napi(const struct ndv_napi *n, void *arg)
{
	(void)arg;
	printf("napi id=%u ifindex=%u", n->id, n->ifindex);
	if (n->has_irq)
		printf(" irq=%u", n->irq);
	if (n->has_pid)
		printf(" pid=%u", n->pid);
	if (n->has_defer_hard_irqs)
		printf(" defer-hard-irqs=%u", n->defer_hard_irqs);
	if (n->has_gro_flush_timeout)
		printf(" gro-flush-timeout=%" PRIu64, n->gro_flush_timeout_ns);
	if (n->has_irq_suspend_timeout)
		printf(" irq-suspend-timeout=%" PRIu64, n->irq_suspend_timeout_ns);
	if (n->has_threaded)
		printf(" threaded=%u", n->threaded);
	printf("\n");
	return 0;
}

static const char *qtype(uint32_t t)
{
	return t == VQ_NETDEV_QUEUE_TYPE_RX ? "rx" : t == VQ_NETDEV_QUEUE_TYPE_TX ? "tx" : "?";
}

static int print_queue(const struct ndv_queue *q, void *arg)
{
	(void)arg;
	printf("queue ifindex=%u type=%s id=%u napi=%u\n", q->ifindex, qtype(q->type), q->id,
	       q->napi_id);
	return 0;
}

static int print_qstats(const struct ndv_qstats *q, void *arg)
{
	int i;

	(void)arg;
	printf("qstats ifindex=%u type=%s id=%u", q->ifindex, qtype(q->type), q->id);
	for (i = 0; i < NDV_QS_NUM; i++)
		if (q->present & (1u << i))
			printf(" %s=%" PRIu64, qs_names[i], q->val[i]);
	printf("\n");
	return 0;
}

static void show_netdev(int ifindex)
{
	struct ndv_sock *s;
	int ret;

	ret = ndv_open(&s);
	if (ret) {
		printf("netdev unsupported=%d\n", ret);
		return;
	}
	ret = ndv_napi_dump(s, ifindex, print_napi, NULL);
	if (ret)
		printf("napi error=%d\n", ret);
	ret = ndv_queue_dump(s, ifindex, print_queue, NULL);
	if (ret)
		printf("queue error=%d\n", ret);
	ret = ndv_qstats_dump(s, ifindex, print_qstats, NULL);
	if (ret)
		printf("qstats error=%d\n", ret);
	ndv_close(s);
}

static void show_ethtool(int ifindex)
{
	char err[ERR_TEXT_BYTES];
	struct eth_coalesce co;
	struct eth_channels ch;
	struct eth_rings r;
	struct eth_sock *s;
	int i, ret;

	ret = eth_open(&s);
	if (ret) {
		printf("ethtool unsupported=%d\n", ret);
		return;
	}
	ret = eth_coalesce_get(s, ifindex, &co, err, sizeof(err));
	if (ret) {
		printf("coalesce error=%d extack=\"%s\"\n", ret, err);
	} else {
		printf("coalesce");
		for (i = 0; i < ETH_CO_NUM; i++)
			if (co.present & (1u << i))
				printf(" %s=%u", co_names[i], co.val[i]);
		printf("\n");
	}
	ret = eth_rings_get(s, ifindex, &r, err, sizeof(err));
	if (ret)
		printf("rings error=%d extack=\"%s\"\n", ret, err);
	else
		printf("rings rx=%u rx-max=%u tx=%u tx-max=%u present=0x%x\n", r.rx, r.rx_max,
		       r.tx, r.tx_max, r.present);
	ret = eth_channels_get(s, ifindex, &ch, err, sizeof(err));
	if (ret)
		printf("channels error=%d extack=\"%s\"\n", ret, err);
	else
		printf("channels rx=%u rx-max=%u tx=%u tx-max=%u combined=%u combined-max=%u "
		       "other=%u other-max=%u present=0x%x\n", ch.rx, ch.rx_max, ch.tx,
		       ch.tx_max, ch.combined, ch.combined_max, ch.other, ch.other_max,
		       ch.present);
	eth_close(s);
}

static void show_ets_queue(const char *dir, unsigned int i, const struct ets_queue *q)
{
	int c;

	if (!q->present)
		return;
	printf("ets %s=%u", dir, i);
	for (c = 0; c < ETS_NUM; c++)
		if (q->present & (1u << c))
			printf(" %s=%" PRIu64, ets_names[c], q->val[c]);
	printf("\n");
}

static void show_ets(const char *ifname)
{
	struct ets_stats *st;
	unsigned int i;
	int fd, ret;

	st = malloc(sizeof(*st));
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (!st || fd < 0) {
		printf("ets error=%d\n", -errno);
		goto out;
	}
	ret = ets_read(fd, ifname, st);
	if (ret) {
		printf("ets error=%d\n", ret);
		goto out;
	}
	for (i = 0; i < st->n_rx; i++)
		show_ets_queue("rx", i, &st->rx[i]);
	for (i = 0; i < st->n_tx; i++)
		show_ets_queue("tx", i, &st->tx[i]);
out:
	if (fd >= 0)
		close(fd);
	free(st);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return (errno || end == s || *end || *s == '-') ? -EINVAL : 0;
}

static int cmd_napi_set(char **argv)
{
	static const char *const knobs[] = { "defer-hard-irqs", "gro-flush-timeout",
					     "irq-suspend-timeout", "threaded" };
	char err[ERR_TEXT_BYTES] = "";
	uint64_t id, v;
	struct ndv_sock *s;
	int k, ret;

	k = lookup(knobs, N_OF(knobs), argv[1]);
	if (k < 0 || parse_u64(argv[0], &id) || id > UINT32_MAX || parse_u64(argv[2], &v))
		return fail(-EINVAL, "napi-set arguments", "");
	ret = ndv_open(&s);
	if (ret)
		return fail(ret, "netdev", "");
	ret = ndv_napi_set(s, (uint32_t)id, (enum ndv_napi_knob)k, v, err, sizeof(err));
	ndv_close(s);
	return ret ? fail(ret, "napi-set", err) : 0;
}

static int cmd_eth_set(int ifindex, const char *cmd, char **argv)
{
	static const char *const rings[] = { "rx", "tx" };
	static const char *const chans[] = { "rx", "tx", "combined" };
	char err[ERR_TEXT_BYTES] = "";
	struct eth_sock *s;
	uint64_t v;
	int k, ret;

	if (!strcmp(cmd, "coalesce-set"))
		k = lookup(co_names, ETH_CO_NUM, argv[0]);
	else if (!strcmp(cmd, "rings-set"))
		k = lookup(rings, N_OF(rings), argv[0]);
	else
		k = lookup(chans, N_OF(chans), argv[0]);
	if (k < 0 || parse_u64(argv[1], &v) || v > UINT32_MAX)
		return fail(-EINVAL, "arguments", "");
	ret = eth_open(&s);
	if (ret)
		return fail(ret, "ethtool", "");
	if (!strcmp(cmd, "coalesce-set"))
		ret = eth_coalesce_set(s, ifindex, (enum eth_co)k, (uint32_t)v, err, sizeof(err));
	else if (!strcmp(cmd, "rings-set"))
		ret = eth_rings_set(s, ifindex, (enum eth_ring_field)k, (uint32_t)v, err,
				    sizeof(err));
	else
		ret = eth_channels_set(s, ifindex, (enum eth_chan_field)k, (uint32_t)v, err,
				       sizeof(err));
	eth_close(s);
	return ret ? fail(ret, cmd, err) : 0;
}

int main(int argc, char **argv)
{
	int ifindex;

	if (argc < 3) {
		fprintf(stderr, "usage: vqprobe DEV show|napi-set|coalesce-set|rings-set|"
			"channels-set ...\n");
		return 2;
	}
	if (!strcmp(argv[1], "all") && !strcmp(argv[2], "show")) {
		show_netdev(0);
		return 0;
	}
	ifindex = (int)if_nametoindex(argv[1]);
	if (!ifindex)
		return fail(-ENODEV, argv[1], "");
	if (!strcmp(argv[2], "show")) {
		printf("dev name=%s ifindex=%d\n", argv[1], ifindex);
		show_netdev(ifindex);
		show_ethtool(ifindex);
		show_ets(argv[1]);
		return 0;
	}
	if (!strcmp(argv[2], "napi-set") && argc == 6)
		return cmd_napi_set(argv + 3);
	if ((!strcmp(argv[2], "coalesce-set") || !strcmp(argv[2], "rings-set") ||
	     !strcmp(argv[2], "channels-set")) && argc == 5)
		return cmd_eth_set(ifindex, argv[2], argv + 3);
	fprintf(stderr, "vqprobe: bad command\n");
	return 2;
}
