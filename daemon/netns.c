// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/rtnetlink.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "log.h"
#include "netns.h"
#include "nl_ethtool.h"
#include "nl_netdev.h"
#include "rtnl_stats.h"
#include "util.h"

/* How many namespaces one daemon watches; --netns is for a lab or a handful of guests. */
#define NETNS_MAX		64
/* Notification socket buffer: a burst of 1,000 link changes fits (~1 KiB each). */
#define NETNS_MON_RCVBUF_BYTES	(4 * 1024 * 1024)
#define NETNS_RUN_PATH		"/run/netns"

static struct netns *nss[NETNS_MAX];
static unsigned int n_nss;
static char mnt_dir[PATH_MAX];		/* <run dir>/sysfs.XXXXXX, tmpfs in our mount ns */
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
	if (ns->ioctl_fd >= 0)
		close(ns->ioctl_fd);
	if (ns->sysfs_mounted)
		umount2(ns->sysfs, MNT_DETACH);
	if (ns->fd >= 0)
		close(ns->fd);
	free(ns);
}

/* Our own mount namespace, so the sysfs mounts of other namespaces are ours alone. */
static int private_mounts(void)
{
	if (mnt_private)
		return 0;
	if (unshare(CLONE_NEWNS) < 0)
		return -errno;
	if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -errno;
	/* one directory per instance: several daemons may share a run dir (tests do) */
	if (!mkdtemp(mnt_dir))
		return -errno;
	if (mount("vqtune", mnt_dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0700") < 0)
		return -errno;
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

static bool valid_name(const char *name)
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
	int ret;

	if (n_nss >= NETNS_MAX)
		return -ENOSPC;
	ns = calloc(1, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	ns->ioctl_fd = -1;
	snprintf(ns->name, sizeof(ns->name), "%s", name);
	snprintf(path, sizeof(path), "%s/%.*s", NETNS_RUN_PATH, NETNS_NAME_MAX, name);
	ns->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ns->fd < 0) {
		ret = -errno;
		goto err_free;
	}
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

	snprintf(mnt_dir, sizeof(mnt_dir), "%s/sysfs.XXXXXX", run_dir);
	ns = calloc(1, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	ns->ioctl_fd = -1;
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

	if (!valid_name(name))
		return -EINVAL;
	if (netns_find(name))
		return -EEXIST;
	return ns_create(name, &ns);
}

void netns_fini(void)
{
	while (n_nss)
		close_handles(nss[--n_nss]);
	if (mnt_private) {
		umount2(mnt_dir, MNT_DETACH);
		rmdir(mnt_dir);
		mnt_private = false;
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

struct netns *netns_get(const char *name)
{
	struct netns *ns = netns_find(name);

	if (ns || !valid_name(name))
		return ns;
	if (ns_create(name, &ns))
		return NULL;
	return ns;
}

void netns_drain_mon(struct netns *ns)
{
	char buf[8192];
	int fd = nl_socket_get_fd(ns->mon);

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n > 0) {
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
