/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rst: per-tick device counters with RTM_GETSTATS (IFLA_STATS_LINK_64 only), which costs
 * the kernel a fraction of an RTM_GETLINK dump (no addresses, no per-family blocks). The
 * link dump (names, flags) runs only when notifications ask for it. Source:
 * include/uapi/linux/if_link.h, net/core/rtnetlink.c rtnl_stats_dump().
 */
#ifndef VQ_RTNL_STATS_H
#define VQ_RTNL_STATS_H

#include <linux/if_link.h>

struct rst_sock;

/* Open in the calling thread's current netns. 0 or -errno. */
int rst_open(struct rst_sock **out);
void rst_close(struct rst_sock *s);
/*
 * Dump stats64 of every device, @cb once per device (the whole dump is always read, so the
 * socket stays in step). Returns 0, -EOPNOTSUPP on kernels without RTM_GETSTATS (< 4.7) or
 * -errno.
 */
int rst_dump(struct rst_sock *s,
	     void (*cb)(int ifindex, const struct rtnl_link_stats64 *st, void *arg), void *arg);

#endif
