// SPDX-License-Identifier: GPL-2.0-only
/*
 * ets: per-queue counters from `ethtool -S` through the legacy SIOCETHTOOL ioctl
 * (include/uapi/linux/ethtool.h: ETHTOOL_GDRVINFO, ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS,
 * ETHTOOL_GSTATS). The stat names are driver ABI in practice but not documented, so they
 * are matched by pattern. Strings seen on kernel 6.18:
 *   veth:       rx_queue_0_xdp_packets, rx_queue_0_xdp_bytes, rx_queue_0_drops,
 *               rx_queue_0_xdp_{redirect,drops,tx,tx_errors}, tx_queue_0_xdp_xmit[_errors]
 *   virtio_net: rx0_drops, rx0_xdp_{packets,tx,redirects,drops}, rx0_kicks,
 *               tx0_xdp_tx[_drops], tx0_kicks, tx0_tx_timeouts (6.1 also rx_queue_0_packets...)
 */
#include <errno.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "ethstats.h"

/*
 * The kernel copies its own current count of stats in ETHTOOL_GSTATS, not the n_stats we
 * pass, so a queue reconfiguration between GSTRINGS and GSTATS could write past a buffer of
 * exactly n entries. Allocate this many times n and reject a changed count.
 */
#define ETS_STATS_SLACK		2
/* Sanity bound on a driver's stat count (mlx5 has a few thousand). */
#define ETS_MAX_STRINGS		65536

/* suffix after "<prefix><N>_" -> counter; @alias marks veth's NAPI-mode xdp_* counters */
struct ets_suffix {
	const char *s;
	enum ets_ctr ctr;
	char dir;	/* 0 both, 't' tx only */
	bool alias;
};

static const struct ets_suffix ets_suffixes[] = {
	{ "packets", ETS_PACKETS, 0, false },
	{ "bytes", ETS_BYTES, 0, false },
	{ "drops", ETS_DROPS, 0, false },
	/* veth counts every packet its NAPI polls here (veth_xdp_rcv()), XDP program or not */
	{ "xdp_packets", ETS_PACKETS, 0, true },
	{ "xdp_bytes", ETS_BYTES, 0, true },
	{ "stop", ETS_TX_STOP, 't', false },
	{ "stopped", ETS_TX_STOP, 't', false },
	{ "wake", ETS_TX_WAKE, 't', false },
};

/* "rx_queue_" before "rx": the longer prefix must be tried first */
static const struct { const char *p; char dir; } ets_prefixes[] = {
	{ "rx_queue_", 'r' }, { "tx_queue_", 't' }, { "rx", 'r' }, { "tx", 't' },
};

/* Parse "N_" at @s; returns the suffix after it or NULL. */
static const char *ets_parse_index(const char *s, unsigned int *queue)
{
	unsigned long v = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v >= ETS_MAX_QUEUES)
			return NULL;
	}
	if (*s != '_')
		return NULL;
	*queue = (unsigned int)v;
	return s + 1;
}

int ets_match(const char *s, char *dir, unsigned int *queue, enum ets_ctr *ctr, bool *alias)
{
	const char *rest;
	size_t i, j;

	for (i = 0; i < sizeof(ets_prefixes) / sizeof(ets_prefixes[0]); i++) {
		size_t n = strlen(ets_prefixes[i].p);

		if (strncmp(s, ets_prefixes[i].p, n))
			continue;
		rest = ets_parse_index(s + n, queue);
		if (!rest)
			continue;
		for (j = 0; j < sizeof(ets_suffixes) / sizeof(ets_suffixes[0]); j++) {
			const struct ets_suffix *x = &ets_suffixes[j];

			if (strcmp(rest, x->s) || (x->dir && x->dir != ets_prefixes[i].dir))
				continue;
			*dir = ets_prefixes[i].dir;
			*ctr = x->ctr;
			*alias = x->alias;
			return 1;
		}
		return 0;
	}
	return 0;
}

int ets_parse_name(const char *s, char *dir, unsigned int *queue, enum ets_ctr *ctr)
{
	bool alias;

	return ets_match(s, dir, queue, ctr, &alias);
}

static int ets_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr = {};

	if (strlen(ifname) >= IFNAMSIZ)
		return -EINVAL;
	strcpy(ifr.ifr_name, ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

/* Number of ETH_SS_STATS strings, or -errno (-EOPNOTSUPP for drivers without stats). */
static int ets_count(int fd, const char *ifname)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} info = { .hdr = { .cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << ETH_SS_STATS } };
	int ret;

	ret = ets_ioctl(fd, ifname, &info);
	if (ret)
		return ret;
	if (!(info.hdr.sset_mask & (1ULL << ETH_SS_STATS)) || !info.len)
		return -EOPNOTSUPP;
	if (info.len > ETS_MAX_STRINGS)
		return -E2BIG;
	return (int)info.len;
}

/*
 * Fold one stat into @out. An alias (veth xdp_*) counts only on veth, where it is the
 * per-queue packet counter; elsewhere xdp_packets counts XDP program runs only. A plain
 * counter always wins over an alias for the same slot. @plain: bit per counter set from
 * a plain name, rx queues first then tx queues.
 */
static void ets_fold(struct ets_stats *out, uint32_t *plain, const char *name, uint64_t v,
		     bool is_veth)
{
	struct ets_queue *q;
	unsigned int queue;
	enum ets_ctr ctr;
	uint32_t *pl;
	bool alias;
	char dir;

	if (!ets_match(name, &dir, &queue, &ctr, &alias) || (alias && !is_veth))
		return;
	q = dir == 'r' ? &out->rx[queue] : &out->tx[queue];
	pl = &plain[dir == 'r' ? queue : ETS_MAX_QUEUES + queue];
	if (alias && (*pl & (1u << ctr)))
		return;
	if (!alias)
		*pl |= 1u << ctr;
	q->present |= 1u << ctr;
	q->val[ctr] = v;
	if (dir == 'r' && queue >= out->n_rx)
		out->n_rx = queue + 1;
	if (dir == 't' && queue >= out->n_tx)
		out->n_tx = queue + 1;
}

int ets_parse_all(const char *names, const uint64_t *vals, unsigned int n, bool is_veth,
		  struct ets_stats *out)
{
	uint32_t *plain;
	unsigned int i;

	plain = calloc(2 * ETS_MAX_QUEUES, sizeof(*plain));
	if (!plain)
		return -ENOMEM;
	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		char name[ETH_GSTRING_LEN + 1];

		/* driver strings fill ETH_GSTRING_LEN bytes and need not be NUL-terminated */
		memcpy(name, names + (size_t)i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		name[ETH_GSTRING_LEN] = '\0';
		ets_fold(out, plain, name, vals[i], is_veth);
	}
	free(plain);
	return out->n_rx || out->n_tx ? 0 : -EOPNOTSUPP;
}

static bool ets_is_veth(int fd, const char *ifname)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };

	return ets_ioctl(fd, ifname, &di) == 0 && !strcmp(di.driver, "veth");
}

int ets_read(int fd, const char *ifname, struct ets_stats *out)
{
	struct ethtool_gstrings *strs;
	struct ethtool_stats *st;
	uint64_t *vals;
	int n, ret;
	bool veth;

	n = ets_count(fd, ifname);
	if (n < 0)
		return n;
	veth = ets_is_veth(fd, ifname);
	strs = calloc(1, sizeof(*strs) + (size_t)n * ETS_STATS_SLACK * ETH_GSTRING_LEN);
	if (!strs)
		return -ENOMEM;
	ret = -ENOMEM;
	st = calloc(1, sizeof(*st) + (size_t)n * ETS_STATS_SLACK * sizeof(uint64_t));
	if (!st)
		goto err_free_strs;
	strs->cmd = ETHTOOL_GSTRINGS;
	strs->string_set = ETH_SS_STATS;
	strs->len = (uint32_t)n;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = (uint32_t)n;
	ret = ets_ioctl(fd, ifname, strs);
	if (!ret)
		ret = ets_ioctl(fd, ifname, st);
	if (ret)
		goto err_free_st;
	/* the set changed between calls (channels reconfigured): the caller retries */
	if (strs->len != (uint32_t)n || st->n_stats != (uint32_t)n) {
		ret = -EAGAIN;
		goto err_free_st;
	}
	/* the kernel's __u64 is unsigned long long, uint64_t is unsigned long: copy, not alias */
	vals = malloc((size_t)n * sizeof(*vals));
	if (!vals) {
		ret = -ENOMEM;
		goto err_free_st;
	}
	memcpy(vals, st->data, (size_t)n * sizeof(*vals));
	ret = ets_parse_all((const char *)strs->data, vals, (unsigned int)n, veth, out);
	free(vals);

err_free_st:
	free(st);
err_free_strs:
	free(strs);
	return ret;
}

/* One per-queue counter in the driver's stat array. */
struct ets_slot {
	uint32_t idx;		/* index in ETHTOOL_GSTATS data */
	uint16_t queue;
	uint8_t dir;		/* 'r' or 't' */
	uint8_t ctr;		/* enum ets_ctr */
	bool alias;
};

struct ets_map {
	unsigned int n_stats;	/* the driver's count when the map was built */
	unsigned int n_slots;
	unsigned int n_rx, n_tx;
	struct ets_slot *slot;
};

static int ets_map_add(struct ets_map *m, const char *name, uint32_t idx, bool is_veth)
{
	struct ets_slot *s, *grown;
	unsigned int queue, i;
	enum ets_ctr ctr;
	bool alias;
	char dir;

	if (!ets_match(name, &dir, &queue, &ctr, &alias) || (alias && !is_veth))
		return 0;
	for (i = 0; i < m->n_slots; i++) {
		s = &m->slot[i];
		if (s->dir != dir || s->queue != queue || s->ctr != ctr)
			continue;
		/* a plain counter wins over an alias for the same slot */
		if (s->alias && !alias) {
			s->idx = idx;
			s->alias = false;
		}
		return 0;
	}
	grown = realloc(m->slot, (m->n_slots + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	m->slot = grown;
	m->slot[m->n_slots++] = (struct ets_slot){ .idx = idx, .queue = queue, .dir = dir,
						   .ctr = ctr, .alias = alias };
	if (dir == 'r' && queue >= m->n_rx)
		m->n_rx = queue + 1;
	if (dir == 't' && queue >= m->n_tx)
		m->n_tx = queue + 1;
	return 0;
}

int ets_map_build(int fd, const char *ifname, bool is_veth, struct ets_map **out)
{
	struct ethtool_gstrings *strs;
	struct ets_map *m;
	unsigned int i;
	int n, ret;

	n = ets_count(fd, ifname);
	if (n < 0)
		return n;
	m = calloc(1, sizeof(*m));
	strs = calloc(1, sizeof(*strs) + (size_t)n * ETH_GSTRING_LEN);
	ret = -ENOMEM;
	if (!m || !strs)
		goto err_free;
	strs->cmd = ETHTOOL_GSTRINGS;
	strs->string_set = ETH_SS_STATS;
	strs->len = (uint32_t)n;
	ret = ets_ioctl(fd, ifname, strs);
	if (ret)
		goto err_free;
	/* GSTRINGS copies strs->len strings as the kernel counts them now */
	ret = -EAGAIN;
	if (strs->len != (uint32_t)n)
		goto err_free;
	m->n_stats = n;
	for (i = 0; i < (unsigned int)n; i++) {
		char name[ETH_GSTRING_LEN + 1];

		memcpy(name, strs->data + (size_t)i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		name[ETH_GSTRING_LEN] = '\0';
		ret = ets_map_add(m, name, i, is_veth);
		if (ret)
			goto err_free;
	}
	ret = -EOPNOTSUPP;
	if (!m->n_slots)
		goto err_free;
	free(strs);
	*out = m;
	return 0;

err_free:
	free(strs);
	ets_map_free(m);
	return ret;
}

void ets_map_free(struct ets_map *m)
{
	if (!m)
		return;
	free(m->slot);
	free(m);
}

int ets_map_read(int fd, const char *ifname, const struct ets_map *m, struct ets_stats *out)
{
	struct ethtool_stats *st;
	unsigned int i;
	uint64_t v;
	int n, ret;

	/* the buffer must hold the kernel's count as of GSTATS (see ETS_STATS_SLACK) */
	n = ets_count(fd, ifname);
	if (n < 0)
		return n;
	if ((unsigned int)n != m->n_stats)
		return -ESTALE;
	st = calloc(1, sizeof(*st) + (size_t)n * ETS_STATS_SLACK * sizeof(uint64_t));
	if (!st)
		return -ENOMEM;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = (uint32_t)n;
	ret = ets_ioctl(fd, ifname, st);
	if (!ret && st->n_stats != m->n_stats)
		ret = -ESTALE;
	if (ret)
		goto out_free;
	out->n_rx = m->n_rx;
	out->n_tx = m->n_tx;
	memset(out->rx, 0, m->n_rx * sizeof(out->rx[0]));
	memset(out->tx, 0, m->n_tx * sizeof(out->tx[0]));
	for (i = 0; i < m->n_slots; i++) {
		const struct ets_slot *s = &m->slot[i];
		struct ets_queue *q = s->dir == 'r' ? &out->rx[s->queue] : &out->tx[s->queue];

		/* the kernel's __u64 is unsigned long long: copy, not alias */
		memcpy(&v, &st->data[s->idx], sizeof(v));
		q->val[s->ctr] = v;
		q->present |= 1u << s->ctr;
	}
out_free:
	free(st);
	return ret;
}
