/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netns: the network namespaces vqtuned watches and the per-namespace kernel handles.
 *
 * Netlink sockets and ioctl sockets belong to the namespace they were created in, so each
 * watched namespace gets its own set, created after setns() into it. sysfs shows the
 * namespace of whoever mounted it, so for a named namespace the daemon moves into a private
 * mount namespace once and mounts that namespace's sysfs under <run dir>/netns/<name>.
 * Needs CAP_SYS_ADMIN for named namespaces; the own namespace needs nothing extra.
 */
#ifndef VQ_NETNS_H
#define VQ_NETNS_H

#include <limits.h>
#include <stdbool.h>

#define NETNS_NAME_MAX	64

struct nl_sock;
struct ndv_sock;
struct eth_sock;
struct rst_sock;

struct netns {
	char name[NETNS_NAME_MAX];	/* "" = the daemon's own namespace */
	int fd;				/* namespace fd, for setns() */
	char sysfs[PATH_MAX];		/* sysfs root showing this namespace */
	struct nl_sock *rt;		/* rtnetlink requests */
	struct nl_sock *mon;		/* RTNLGRP_LINK notifications */
	struct rst_sock *rst;		/* RTM_GETSTATS; NULL: link dumps carry the stats */
	uint64_t links_ns;		/* CLOCK_MONOTONIC of the last full link dump */
	struct ndv_sock *ndv;		/* netdev family; NULL: kernel lacks it */
	struct eth_sock *eth;		/* ethtool family; NULL: kernel lacks it */
	int ioctl_fd;			/* SIOCETHTOOL socket */
	bool resync;			/* a notification asks for a link re-dump */
	bool sysfs_mounted;
};

/* Open the own namespace. @run_dir holds the private sysfs mounts. 0 or -errno. */
int netns_init(const char *run_dir);
/* Start watching /run/netns/@name. 0, -EEXIST, -EINVAL (bad name) or -errno. */
int netns_add(const char *name);
/* Close every handle, unmount, remove the mount directory. */
void netns_fini(void);

unsigned int netns_count(void);
struct netns *netns_at(unsigned int i);		/* 0 is the own namespace */
struct netns *netns_find(const char *name);	/* "" or "-" = own */
/*
 * For restore after a crash: the namespace @name, watched or not. An unwatched one is
 * opened (and added) on demand. NULL when it no longer exists.
 */
struct netns *netns_get(const char *name);

/* Drain @ns's notification socket; sets ns->resync if anything arrived. */
void netns_drain_mon(struct netns *ns);
/* Monitor socket fd of @ns, for epoll. */
int netns_mon_fd(struct netns *ns);

#endif
