/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * eth: the ethtool generic netlink family (libmnl): coalesce, rings and channels get/set.
 * Spec: Documentation/netlink/specs/ethtool.yaml. The kernel sends only the attributes a
 * driver supports, so "present" doubles as the supported mask. A driver without the
 * operation answers -EOPNOTSUPP, which callers treat as "unsupported".
 */
#ifndef VQ_NL_ETHTOOL_H
#define VQ_NL_ETHTOOL_H

#include <stddef.h>
#include <stdint.h>

struct eth_sock;

/* Open in the calling thread's current netns. Returns 0, -EOPNOTSUPP or -errno. */
int eth_open(struct eth_sock **out);
void eth_close(struct eth_sock *s);

/* Coalesce parameters, named as `ethtool -C` names them. */
enum eth_co {
	ETH_CO_RX_USECS,		/* ETHTOOL_A_COALESCE_RX_USECS, us */
	ETH_CO_RX_FRAMES,		/* ETHTOOL_A_COALESCE_RX_MAX_FRAMES */
	ETH_CO_TX_USECS,		/* ETHTOOL_A_COALESCE_TX_USECS, us */
	ETH_CO_TX_FRAMES,		/* ETHTOOL_A_COALESCE_TX_MAX_FRAMES */
	ETH_CO_ADAPTIVE_RX,		/* ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, 0/1 */
	ETH_CO_ADAPTIVE_TX,		/* ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX, 0/1 */
	ETH_CO_NUM
};

struct eth_coalesce {
	uint32_t present;		/* bit (1 << ETH_CO_x) per attribute the kernel sent */
	uint32_t val[ETH_CO_NUM];
};

struct eth_rings {
	uint32_t rx, rx_max, tx, tx_max;	/* descriptors */
	uint32_t present;			/* bit 0 rx, 1 rx_max, 2 tx, 3 tx_max */
};

struct eth_channels {
	uint32_t rx, rx_max, tx, tx_max, combined, combined_max, other, other_max;
	uint32_t present;	/* bit per field in declaration order (rx = bit 0 ...) */
};

enum eth_ring_field { ETH_RING_RX, ETH_RING_TX };
enum eth_chan_field { ETH_CHAN_RX, ETH_CHAN_TX, ETH_CHAN_COMBINED };

/*
 * Get/set by @ifindex. Setters send only the one attribute named, so values the caller did
 * not ask to change are never touched. Failures return -errno and copy the kernel's extack
 * message into @err (NUL-terminated, may be "").
 */
int eth_coalesce_get(struct eth_sock *s, int ifindex, struct eth_coalesce *out,
		     char *err, size_t errlen);
int eth_coalesce_set(struct eth_sock *s, int ifindex, enum eth_co which, uint32_t value,
		     char *err, size_t errlen);
int eth_rings_get(struct eth_sock *s, int ifindex, struct eth_rings *out,
		  char *err, size_t errlen);
int eth_rings_set(struct eth_sock *s, int ifindex, enum eth_ring_field which, uint32_t value,
		  char *err, size_t errlen);
int eth_channels_get(struct eth_sock *s, int ifindex, struct eth_channels *out,
		     char *err, size_t errlen);
int eth_channels_set(struct eth_sock *s, int ifindex, enum eth_chan_field which,
		     uint32_t value, char *err, size_t errlen);

/* The three ethtool SET operations vqtune uses. */
enum eth_op { ETH_OP_COALESCE, ETH_OP_RINGS, ETH_OP_CHANNELS };

/*
 * Ask whether the driver of @ifindex implements SET @op, changing nothing: a *_SET request
 * with only the header. The kernel refuses it with -EOPNOTSUPP when the driver lacks the set
 * operation (ethtool_ops .set_coalesce / .set_ringparam / .set_channels), and otherwise
 * finds nothing to change and answers 0 without calling the driver (net/ethtool/channels.c
 * "if (!mod)", likewise rings.c and coalesce.c). Needs CAP_NET_ADMIN like any SET.
 * Returns 0 (supported), -EOPNOTSUPP, or another -errno (unknown: let a write tell).
 */
int eth_set_probe(struct eth_sock *s, int ifindex, enum eth_op op, char *err, size_t errlen);

/*
 * Settings news: a socket on the family's "monitor" multicast group (ETHTOOL_MCGRP_MONITOR_NAME,
 * ethtool-netlink.rst "Notification messages"). The kernel sends ETHTOOL_MSG_COALESCE_NTF,
 * _RINGS_NTF and _CHANNELS_NTF after every change made through ethtool netlink or the
 * SIOCETHTOOL ioctl (since Linux 5.7), to listeners in the device's namespace. A change a
 * driver makes on its own sends nothing, so a reader still re-reads now and then.
 */
struct eth_mon;

/* Open in the calling thread's current netns. Returns 0, -EOPNOTSUPP or -errno. */
int eth_mon_open(struct eth_mon **out);
void eth_mon_close(struct eth_mon *m);

enum eth_ntf { ETH_NTF_COALESCE, ETH_NTF_RINGS, ETH_NTF_CHANNELS };

/*
 * Read every notification queued on @m without blocking, and call @cb with the device's
 * ifindex (from the message's ETHTOOL_A_HEADER_DEV_INDEX) for each coalesce, rings or
 * channels change; other notifications are skipped. Returns 0 when the queue is drained,
 * -ENOBUFS when the kernel dropped some (the socket's buffer overflowed: the caller must
 * take every device as changed; the messages after the loss are still delivered), or
 * -errno.
 */
int eth_mon_drain(struct eth_mon *m, void (*cb)(int ifindex, enum eth_ntf what, void *arg),
		  void *arg);
/*
 * One notification message: its device's ifindex and kind into @ifindex and @what.
 * Returns 1 for a coalesce, rings or channels notification of family @family, 0 for any
 * other message, -EBADMSG for a truncated one. Exposed for unit tests.
 */
struct nlmsghdr;
int eth_parse_ntf(const struct nlmsghdr *nlh, uint16_t family, int *ifindex,
		  enum eth_ntf *what);

/*
 * Reply parsers used by the getters, exposed for unit tests: one *_GET_REPLY message
 * (genlmsghdr + attributes). Unknown attributes are skipped. 0 or -EBADMSG (bad size).
 */
struct nlmsghdr;
int eth_parse_coalesce(const struct nlmsghdr *nlh, struct eth_coalesce *out);
int eth_parse_rings(const struct nlmsghdr *nlh, struct eth_rings *out);
int eth_parse_channels(const struct nlmsghdr *nlh, struct eth_channels *out);
/* NLMSG_ERROR / NLMSG_DONE: returns its error (0 or -errno), extack text into @err. */
int eth_parse_ack(const struct nlmsghdr *nlh, char *err, size_t errlen);

#endif
