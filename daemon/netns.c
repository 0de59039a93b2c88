// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/magic.h>
#include <linux/rtnetlink.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "log.h"
#include "netns.h"
#include "nl_ethtool.h"
#include "nl_netdev.h"
#include "rtnl_stats.h"
#include "util.h"

/* Notification socket buffer: a burst of 1,000 link changes fits (~1 KiB each). */
#define NETNS_MON_RCVBUF_BYTES	(4 * 1024 * 1024)
#define NETNS_RUN_PATH		"/run/netns"

/* <run dir>/MNT_PREFIX + 6 characters: one per daemon that watches a named namespace */
#define MNT_PREFIX		"sysfs."
#define MNT_TRIES		3

static struct netns *nss[NETNS_MAX];
static unsigned int n_nss;
static unsigned int next_id;
/* names given to netns_add(): watched again when they come back after a deletion */
static char wanted[NETNS_MAX][NETNS_NAME_MAX];
static unsigned int n_wanted;
static int revive_err[NETNS_MAX];	/* last error of a revive, for log-once */
static unsigned int not_ns[NETNS_MAX];	/* revives in a row that found a plain file there */
static bool not_ns_logged[NETNS_MAX];
static char run_dir_[PATH_MAX];
static char mnt_dir[PATH_MAX];		/* <run dir>/sysfs.XXXXXX, tmpfs in our mount ns */
static int mnt_lock_fd = -1;		/* flock(2) on mnt_dir while it is ours */
static bool mnt_private;

static int open_handles(struct netns *ns)
{
	int ret;

	ns->rt = nl_socket_alloc();
	ns->mon = nl_socket_alloc();
	if (!ns->rt || !ns->mon)
		return -ENOMEM;
	if (nl_connect(ns->rt, NETLINK_ROUTE) < 0)
		return -ECONNREFUSED;
	nl_socket_disable_seq_check(ns->mon);
	if (nl_connect(ns->mon, NETLINK_ROUTE) < 0 ||
	    nl_socket_add_membership(ns->mon, RTNLGRP_LINK) < 0)
		return -ECONNREFUSED;
	nl_socket_set_nonblocking(ns->mon);
	nl_socket_set_buffer_size(ns->mon, NETNS_MON_RCVBUF_BYTES, 0);

	ret = rst_open(&ns->rst);
	if (ret)
		ns->rst = NULL;
	ret = ndv_open(&ns->ndv);
	if (ret) {
		ns->ndv = NULL;
		log_info("netns '%s': netdev netlink family unavailable (%s): qstats and NAPI unsupported",
			 ns->name, strerror(-ret));
	}
	ret = eth_open(&ns->eth);
	if (ret) {
		ns->eth = NULL;
		log_info("netns '%s': ethtool netlink family unavailable (%s)", ns->name,
			 strerror(-ret));
	} else if ((ret = eth_mon_open(&ns->ethmon))) {
		ns->ethmon = NULL;
		log_info("netns '%s': ethtool settings news unavailable (%s): settings polled",
			 ns->name, strerror(-ret));
	}
	ns->ioctl_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (ns->ioctl_fd < 0)
		return -errno;
	return 0;
}

static void close_handles(struct netns *ns)
{
	if (ns->rt)
		nl_socket_free(ns->rt);
	if (ns->mon)
		nl_socket_free(ns->mon);
	rst_close(ns->rst);
	if (ns->ndv)
		ndv_close(ns->ndv);
	if (ns->eth)
		eth_close(ns->eth);
	eth_mon_close(ns->ethmon);
	ns->ethmon = NULL;
	if (ns->ioctl_fd >= 0)
		close(ns->ioctl_fd);
	if (ns->sysfs_mounted) {
		umount2(ns->sysfs, MNT_DETACH);
		rmdir(ns->sysfs);
	}
	if (ns->fd >= 0)
		close(ns->fd);
	free(ns);
}

/*
 * The mount directory is seen empty from outside our mount namespace, so after a kill -9
 * an empty <run dir>/sysfs.XXXXXX stays behind. Its owner holds flock(2) on it for its
 * whole life (the kernel drops it at exit, kill -9 included): a directory nobody holds is
 * stale and removed at the next start (stale_mounts_clean()).
 */
static int mnt_dir_claim(void)
{
	struct stat a, b;
	int i, fd;

	for (i = 0; i < MNT_TRIES; i++) {
		if ((size_t)snprintf(mnt_dir, sizeof(mnt_dir), "%s/" MNT_PREFIX "XXXXXX",
				     run_dir_) >= sizeof(mnt_dir))
			return -ENAMETOOLONG;
		if (!mkdtemp(mnt_dir))
			return -errno;
		fd = open(mnt_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;	/* a starting daemon took it for stale: another name */
		/* still the directory we made (not removed as stale before our lock) */
		if (!flock(fd, LOCK_EX | LOCK_NB) && !fstat(fd, &a) && !stat(mnt_dir, &b) &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
			mnt_lock_fd = fd;
			return 0;
		}
		close(fd);
	}
	return -EAGAIN;
}

/* Remove the <run dir>/sysfs.XXXXXX directories of daemons that are gone (kill -9). */
static void stale_mounts_clean(void)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir = opendir(run_dir_);
	int fd;

	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, MNT_PREFIX, strlen(MNT_PREFIX)) ||
		    strlen(de->d_name) != strlen(MNT_PREFIX) + 6 ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", run_dir_, de->d_name) >=
		    sizeof(path))
			continue;
		fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* held: a live daemon's, whose mount a rmdir would detach */
		if (!flock(fd, LOCK_EX | LOCK_NB)) {
			if (!rmdir(path))
				log_info("removed %s, the private sysfs directory of a vqtuned that "
					 "did not stop cleanly", path);
			else if (errno != ENOENT)
				log_warn("stale private sysfs directory %s: %s", path,
					 strerror(errno));
		}
		close(fd);
	}
	closedir(dir);
}

/* Our own mount namespace, so the sysfs mounts of other namespaces are ours alone. */
static int private_mounts(void)
{
	int ret;

	if (mnt_private)
		return 0;
	if (unshare(CLONE_NEWNS) < 0)
		return -errno;
	/*
	 * Slave, not private: our mounts stay ours, and the host's still reach us, such as the
	 * bind mount `ip netns add` makes of a namespace created (or created again) later
	 */
	if (mount("none", "/", NULL, MS_REC | MS_SLAVE, NULL) < 0)
		return -errno;
	/* one directory per instance: several daemons may share a run dir (tests do) */
	ret = mnt_dir_claim();
	if (ret)
		return ret;
	if (mount("vqtune", mnt_dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0700") < 0) {
		ret = -errno;
		rmdir(mnt_dir);
		close(mnt_lock_fd);
		mnt_lock_fd = -1;
		return ret;
	}
	mnt_private = true;
	return 0;
}

static int mount_sysfs(struct netns *ns)
{
	int ret;

	ret = private_mounts();
	if (ret)
		return ret;
	if ((size_t)snprintf(ns->sysfs, sizeof(ns->sysfs), "%.*s/%s", PATH_MAX - NETNS_NAME_MAX - 2,
			     mnt_dir, ns->name) >= sizeof(ns->sysfs))
		return -ENAMETOOLONG;
	if (mkdir(ns->sysfs, 0700) < 0 && errno != EEXIST)
		return -errno;
	/* sysfs takes the mounter's network namespace: we are inside @ns now */
	if (mount("sysfs", ns->sysfs, "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL) < 0)
		return -errno;
	ns->sysfs_mounted = true;
	return 0;
}

bool netns_name_valid(const char *name)
{
	size_t len = strlen(name);

	return len && len < NETNS_NAME_MAX && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..") && strcmp(name, "-");
}

static int ns_create(const char *name, struct netns **out)
{
	struct netns *ns;
	int own = nss[0] ? nss[0]->fd : -1;
	char path[PATH_MAX];
	struct stat st;
	int ret;

	if (n_nss >= NETNS_MAX)
		return -ENOSPC;
	ns = calloc(1, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	ns->ioctl_fd = -1;
	ns->id = next_id++;
	snprintf(ns->name, sizeof(ns->name), "%s", name);
	snprintf(path, sizeof(path), "%s/%.*s", NETNS_RUN_PATH, NETNS_NAME_MAX, name);
	ns->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ns->fd < 0 || fstat(ns->fd, &st) < 0) {
		ret = -errno;
		goto err_free;
	}
	ns->dev = st.st_dev;
	ns->ino = st.st_ino;
	if (setns(ns->fd, CLONE_NEWNET) < 0) {
		ret = -errno;
		goto err_free;
	}
	ret = open_handles(ns);
	if (!ret)
		ret = mount_sysfs(ns);
	/* always go home, whatever failed */
	if (setns(own, CLONE_NEWNET) < 0) {
		log_err("cannot return to the own network namespace: %s", strerror(errno));
		abort();
	}
	if (ret)
		goto err_free;
	nss[n_nss++] = ns;
	*out = ns;
	return 0;

err_free:
	close_handles(ns);
	return ret;
}

int netns_init(const char *run_dir)
{
	struct netns *ns;
	int ret;

	if ((size_t)snprintf(run_dir_, sizeof(run_dir_), "%s", run_dir) >=
	    sizeof(run_dir_) - sizeof("/" MNT_PREFIX "XXXXXX") - NETNS_NAME_MAX)
		return -ENAMETOOLONG;
	stale_mounts_clean();
	ns = calloc(1, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	ns->ioctl_fd = -1;
	ns->id = next_id++;
	ns->fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (ns->fd < 0) {
		ret = -errno;
		goto err_free;
	}
	snprintf(ns->sysfs, sizeof(ns->sysfs), "/sys");
	ret = open_handles(ns);
	if (ret)
		goto err_free;
	nss[n_nss++] = ns;
	return 0;

err_free:
	close_handles(ns);
	return ret;
}

int netns_add(const char *name)
{
	struct netns *ns;
	int ret;

	if (!netns_name_valid(name))
		return -EINVAL;
	if (netns_find(name))
		return -EEXIST;
	ret = ns_create(name, &ns);
	if (!ret && n_wanted < NETNS_MAX)
		snprintf(wanted[n_wanted++], NETNS_NAME_MAX, "%s", name);
	return ret;
}

bool netns_gone(const struct netns *ns)
{
	char path[PATH_MAX];
	struct stat st;

	if (!ns->name[0])
		return false;
	snprintf(path, sizeof(path), "%s/%s", NETNS_RUN_PATH, ns->name);
	if (stat(path, &st) < 0)
		return errno == ENOENT;		/* other errors: not proof of anything */
	return st.st_dev != ns->dev || st.st_ino != ns->ino;
}

void netns_del(struct netns *ns)
{
	unsigned int i;

	for (i = 1; i < n_nss; i++) {
		if (nss[i] != ns)
			continue;
		memmove(&nss[i], &nss[i + 1], (n_nss - i - 1) * sizeof(nss[0]));
		n_nss--;
		close_handles(ns);
		return;
	}
}

bool netns_wanted(const char *name)
{
	unsigned int i;

	for (i = 0; i < n_wanted; i++)
		if (!strcmp(wanted[i], name))
			return true;
	return false;
}

unsigned int netns_revive(struct netns **out, unsigned int max)
{
	char path[PATH_MAX];
	unsigned int i, n = 0;
	struct statfs sf;
	struct netns *ns;
	int ret;

	for (i = 0; i < n_wanted; i++) {
		if (netns_find(wanted[i]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", NETNS_RUN_PATH, wanted[i]);
		/* `ip netns add` creates the file, then bind-mounts the namespace on it */
		if (statfs(path, &sf) < 0 || sf.f_type != NSFS_MAGIC) {
			if (!not_ns_logged[i] && !access(path, F_OK) && ++not_ns[i] > 2) {
				log_warn("netns '%s': %s is not a namespace in the daemon's mount "
					 "namespace (is %s a shared mount?): watched when it is",
					 wanted[i], path, NETNS_RUN_PATH);
				not_ns_logged[i] = true;
			}
			continue;
		}
		not_ns[i] = 0;
		not_ns_logged[i] = false;
		ret = ns_create(wanted[i], &ns);
		if (ret) {
			if (ret != revive_err[i])
				log_warn("netns '%s' is back but cannot be watched: %s", wanted[i],
					 strerror(-ret));
			revive_err[i] = ret;
			continue;
		}
		revive_err[i] = 0;
		log_info("netns '%s' is back: watching it again", wanted[i]);
		if (n < max)
			out[n] = ns;
		n++;
	}
	return n;
}

void netns_fini(void)
{
	while (n_nss)
		close_handles(nss[--n_nss]);
	if (mnt_private) {
		umount2(mnt_dir, MNT_DETACH);
		if (rmdir(mnt_dir) < 0)
			log_warn("%s: %s", mnt_dir, strerror(errno));
		mnt_private = false;
	}
	if (mnt_lock_fd >= 0) {
		close(mnt_lock_fd);
		mnt_lock_fd = -1;
	}
}

unsigned int netns_count(void)
{
	return n_nss;
}

struct netns *netns_at(unsigned int i)
{
	return i < n_nss ? nss[i] : NULL;
}

struct netns *netns_find(const char *name)
{
	unsigned int i;

	if (!strcmp(name, "-"))
		name = "";
	for (i = 0; i < n_nss; i++)
		if (!strcmp(nss[i]->name, name))
			return nss[i];
	return NULL;
}

struct netns *netns_by_id(unsigned int id)
{
	unsigned int i;

	for (i = 0; i < n_nss; i++)
		if (nss[i]->id == id)
			return nss[i];
	return NULL;
}

struct netns *netns_get(const char *name)
{
	struct netns *ns = netns_find(name);

	if (ns || !netns_name_valid(name))
		return ns;
	if (ns_create(name, &ns))
		return NULL;
	return ns;
}

/* The slot of the ring ns->deleted that holds @ifindex (at most one does), or -1. */
static int link_deleted_slot(const struct netns *ns, int ifindex)
{
	unsigned int i, n = ns->n_deleted < NETNS_DELETED_MAX ? ns->n_deleted : NETNS_DELETED_MAX;

	for (i = 0; i < n; i++)
		if (ns->deleted[i] == ifindex)
			return (int)i;
	return -1;
}

bool netns_link_deleted(const struct netns *ns, int ifindex)
{
	return link_deleted_slot(ns, ifindex) >= 0;
}

/* Remember (@del) or forget the deletion of @ifindex in @ns. */
static void link_deleted_set(struct netns *ns, int ifindex, bool del)
{
	int i = link_deleted_slot(ns, ifindex);

	if (i >= 0)
		ns->deleted[i] = 0;	/* no link has ifindex 0 */
	if (del)
		ns->deleted[ns->n_deleted++ % NETNS_DELETED_MAX] = ifindex;
}

/*
 * The link notifications in @buf (@len bytes): a deletion that is not a move to another
 * namespace is remembered for netns_link_deleted(), a new link at that ifindex forgets it.
 * Other families (AF_BRIDGE's RTM_DELLINK is a port leaving its bridge) are not links going.
 */
static void link_news(struct netns *ns, void *buf, int len)
{
	struct nlmsghdr *h;

	for (h = buf; nlmsg_ok(h, len); h = nlmsg_next(h, &len)) {
		struct ifinfomsg *ifi = nlmsg_data(h);

		if ((h->nlmsg_type != RTM_DELLINK && h->nlmsg_type != RTM_NEWLINK) ||
		    h->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)) || ifi->ifi_family != AF_UNSPEC ||
		    ifi->ifi_index <= 0)
			continue;
		if (h->nlmsg_type == RTM_NEWLINK)
			link_deleted_set(ns, ifi->ifi_index, false);
		else if (!nlmsg_find_attr(h, sizeof(*ifi), IFLA_NEW_NETNSID))
			link_deleted_set(ns, ifi->ifi_index, true);
	}
}

void netns_drain_mon(struct netns *ns)
{
	/* parsed as netlink messages: aligned as one; a link message with its stats fits */
	static union {
		struct nlmsghdr h;
		char b[32768];
	} buf;
	int fd = nl_socket_get_fd(ns->mon);

	for (;;) {
		ssize_t n = recv(fd, buf.b, sizeof(buf.b), MSG_DONTWAIT);

		if (n > 0) {
			link_news(ns, buf.b, (int)n);
			ns->resync = true;
			continue;
		}
		/* ENOBUFS: we lost notifications; a full re-dump recovers the state */
		if (n < 0 && errno == ENOBUFS) {
			ns->resync = true;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		break;
	}
}

int netns_mon_fd(struct netns *ns)
{
	return nl_socket_get_fd(ns->mon);
}
