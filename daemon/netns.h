/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netns: the network namespaces vqtuned watches and the per-namespace kernel handles.
 *
 * Netlink sockets and ioctl sockets belong to the namespace they were created in, so each
 * watched namespace gets its own set, created after setns() into it. sysfs shows the
 * namespace of whoever mounted it, so for a named namespace the daemon moves into a private
 * mount namespace once, mounts a tmpfs on <run dir>/sysfs.XXXXXX (its own, several daemons
 * may share a run dir) and that namespace's sysfs on <name> in it. Outside, that directory
 * looks empty; the daemon holds flock(2) on it while it lives and removes it at exit, and
 * one left by a daemon that did not stop cleanly (kill -9) is removed by the next start.
 * Needs CAP_SYS_ADMIN for named namespaces; the own namespace needs nothing extra.
 */
#ifndef VQ_NETNS_H
#define VQ_NETNS_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#define NETNS_NAME_MAX	64
/* How many namespaces one daemon watches; --netns is for a lab or a handful of guests. */
#define NETNS_MAX	64
/* Deleted ifindexes remembered per namespace (a burst of deletions beyond it is not known). */
#define NETNS_DELETED_MAX	256

struct nl_sock;
struct ndv_sock;
struct eth_sock;
struct eth_mon;
struct rst_sock;

struct netns {
	char name[NETNS_NAME_MAX];	/* "" = the daemon's own namespace */
	unsigned int id;		/* unique for the life of the process, never reused */
	int fd;				/* namespace fd, for setns() */
	dev_t dev;			/* identity of the namespace (fstat of @fd) */
	ino_t ino;
	char sysfs[PATH_MAX];		/* sysfs root showing this namespace */
	struct nl_sock *rt;		/* rtnetlink requests */
	struct nl_sock *mon;		/* RTNLGRP_LINK notifications */
	struct rst_sock *rst;		/* RTM_GETSTATS; NULL: link dumps carry the stats */
	uint64_t links_ns;		/* CLOCK_MONOTONIC of the last full link dump */
	struct ndv_sock *ndv;		/* netdev family; NULL: kernel lacks it */
	struct eth_sock *eth;		/* ethtool family; NULL: kernel lacks it */
	struct eth_mon *ethmon;		/* its settings news (nl_ethtool.h); NULL: none */
	int ioctl_fd;			/* SIOCETHTOOL socket */
	bool resync;			/* a notification asks for a link re-dump */
	/*
	 * ifindexes the kernel deleted here (netns_link_deleted()), a ring of the last
	 * NETNS_DELETED_MAX; n_deleted counts all ever recorded
	 */
	int deleted[NETNS_DELETED_MAX];
	unsigned int n_deleted;
	bool sysfs_mounted;
	bool polled;			/* main.c: @mon is in its epoll set */
};

/*
 * Open the own namespace. @run_dir holds the private sysfs mounts; stale ones (their owner
 * gone) are removed here. 0 or -errno (-ENAMETOOLONG: @run_dir too long for the mounts).
 */
int netns_init(const char *run_dir);
/*
 * A name ip-netns(8) could have made under /run/netns: 1..NETNS_NAME_MAX - 1 bytes, no '/',
 * not ".", ".." or "-" (the API's spelling of the daemon's own namespace).
 */
bool netns_name_valid(const char *name);
/*
 * Start watching /run/netns/@name, and remember it as wanted: watched again when it comes
 * back after a deletion (netns_revive()). 0, -EEXIST, -EINVAL (bad name) or -errno.
 */
int netns_add(const char *name);
/* Close every handle, unmount, remove the mount directory. */
void netns_fini(void);

/*
 * Whether named namespace @ns was deleted (`ip netns del`): /run/netns/<name> is gone or
 * now names another namespace (compared by st_dev/st_ino with the fd held since it was
 * opened). Holding the fd keeps the namespace and its devices alive, so it is still
 * reachable until netns_del(). Always false for the own namespace.
 */
bool netns_gone(const struct netns *ns);
/* Stop watching @ns (not the own one): close its handles, unmount its sysfs, free it. */
void netns_del(struct netns *ns);
/*
 * Watch again every namespace given to netns_add() that is not watched now but exists
 * again under its name. Returns how many came back (each logged), the first @max of them
 * in @out.
 */
unsigned int netns_revive(struct netns **out, unsigned int max);
/* Whether @name was given to netns_add() (so netns_revive() watches it again). */
bool netns_wanted(const char *name);

/* Watched namespaces; indices shift when one is deleted. */
unsigned int netns_count(void);
struct netns *netns_at(unsigned int i);		/* 0 is the own namespace */
struct netns *netns_find(const char *name);	/* "" or "-" = own */
struct netns *netns_by_id(unsigned int id);	/* NULL: deleted since */
/*
 * For restore after a crash: the namespace @name, watched or not. An unwatched one is
 * opened (and added) on demand. NULL when it no longer exists.
 */
struct netns *netns_get(const char *name);

/* Drain @ns's notification socket; sets ns->resync if anything arrived. */
void netns_drain_mon(struct netns *ns);
/* Monitor socket fd of @ns, for epoll. */
int netns_mon_fd(struct netns *ns);
/*
 * Whether the kernel said the link at @ifindex in @ns was deleted, not moved: an RTM_DELLINK
 * (AF_UNSPEC, rtnetlink(7)) without IFLA_NEW_NETNSID, which the kernel adds when a device
 * leaves for another namespace (net/core/dev.c __dev_change_net_namespace(), Linux 4.15+),
 * read by netns_drain_mon() since the namespace was opened, and no RTM_NEWLINK at that
 * ifindex after it. False when not known: a lost notification (ENOBUFS), a deletion while the
 * daemon was not running, one of more than NETNS_DELETED_MAX since.
 */
bool netns_link_deleted(const struct netns *ns, int ifindex);

#endif
