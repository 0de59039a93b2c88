/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ets: per-queue counters from `ethtool -S` (SIOCETHTOOL ETHTOOL_GSSET_INFO/GSTRINGS/
 * GSTATS), for drivers that have no netdev qstats (veth, 6.1 kernels). Driver strings are
 * matched by pattern: "rx_queue_N_X", "tx_queue_N_X", "rxN_X", "txN_X", where X maps to a
 * counter (packets, bytes, drops, and for veth in NAPI mode xdp_packets/xdp_bytes, which
 * count every packet its NAPI receives). See ethstats.c for the table.
 */
#ifndef VQ_ETHSTATS_H
#define VQ_ETHSTATS_H

#include <stdbool.h>
#include <stdint.h>

#define ETS_MAX_QUEUES	256

enum ets_ctr { ETS_PACKETS, ETS_BYTES, ETS_DROPS, ETS_TX_STOP, ETS_TX_WAKE, ETS_NUM };

struct ets_queue {
	uint32_t present;		/* bit per ets_ctr found */
	uint64_t val[ETS_NUM];
};

struct ets_stats {
	unsigned int n_rx, n_tx;	/* highest queue index seen + 1 */
	struct ets_queue rx[ETS_MAX_QUEUES];
	struct ets_queue tx[ETS_MAX_QUEUES];
};

/*
 * Read device @ifname's per-queue counters with ioctls on @fd (any AF_INET/AF_UNIX
 * datagram socket created in the device's netns). Returns 0, -EOPNOTSUPP when the driver
 * has no stats or no per-queue strings, -EAGAIN when the stat set changed while reading
 * (queues reconfigured; retry), or -errno.
 */
int ets_read(int fd, const char *ifname, struct ets_stats *out);

/*
 * Pure parser used by ets_read(): map one stat string to (dir 'r'/'t', queue, counter).
 * Returns 1 on a match, 0 when the string is not a per-queue counter we know.
 */
int ets_parse_name(const char *s, char *dir, unsigned int *queue, enum ets_ctr *ctr);

/*
 * ets_parse_name() plus @alias: true when the match is veth's xdp_packets/xdp_bytes, which
 * ets_read() uses only on driver "veth" and only when no plain packets/bytes exists (on
 * virtio_net xdp_packets counts XDP program runs, not traffic). Same returns.
 */
int ets_match(const char *s, char *dir, unsigned int *queue, enum ets_ctr *ctr, bool *alias);

/*
 * Pure core of ets_read(): @n stat names of ETH_GSTRING_LEN (32) bytes each at @names and
 * their values @vals into @out. @is_veth enables the xdp_* aliases. Returns 0,
 * -EOPNOTSUPP when no per-queue counter matched, or -ENOMEM.
 */
int ets_parse_all(const char *names, const uint64_t *vals, unsigned int n, bool is_veth,
		  struct ets_stats *out);

/*
 * The per-tick path: the stat names are fetched once into a map (which index is which queue
 * counter), and each read is then one GSSET_INFO and one GSTATS ioctl. @is_veth enables the
 * veth xdp_* aliases (see ets_match). ets_map_build returns 0, -EOPNOTSUPP (no per-queue
 * counters), -EAGAIN (the set changed meanwhile) or -errno. ets_map_read fills only queues
 * below out->n_rx/n_tx and returns -ESTALE when the driver's stat set changed: free the map
 * and build a new one.
 */
struct ets_map;
int ets_map_build(int fd, const char *ifname, bool is_veth, struct ets_map **out);
int ets_map_read(int fd, const char *ifname, const struct ets_map *m, struct ets_stats *out);
void ets_map_free(struct ets_map *m);

#endif
