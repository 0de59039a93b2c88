// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfs.h"

static const char *const bql_file[BQL_NUM] = {
	[BQL_LIMIT] = "limit",
	[BQL_LIMIT_MIN] = "limit_min",
	[BQL_LIMIT_MAX] = "limit_max",
	[BQL_INFLIGHT] = "inflight",
	[BQL_HOLD_TIME] = "hold_time",
	[BQL_STALL_CNT] = "stall_cnt",
	[BQL_STALL_MAX] = "stall_max",
	[BQL_STALL_THRS] = "stall_thrs",
};

static const char *const dnapi_file[DNAPI_NUM] = {
	[DNAPI_GRO_FLUSH_TIMEOUT] = "gro_flush_timeout",
	[DNAPI_DEFER_HARD_IRQS] = "napi_defer_hard_irqs",
	[DNAPI_THREADED] = "threaded",
};

int sfs_read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

int sfs_write_u64(const char *path, uint64_t v)
{
	char buf[32];
	int fd, len, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%" PRIu64 "\n", v);
	if (write(fd, buf, len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

static bool queue_exists(const char *root, const char *ifname, const char *dir, unsigned int q)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/class/net/%s/queues/%s-%u", root, ifname, dir, q);
	return !stat(path, &st);
}

/* Counts still right: the last queue exists and the one past it does not (4 stats). */
static bool counts_unchanged(const char *root, const char *ifname, unsigned int n_tx,
			     unsigned int n_rx)
{
	return n_tx && n_rx && queue_exists(root, ifname, "tx", n_tx - 1) &&
	       !queue_exists(root, ifname, "tx", n_tx) && queue_exists(root, ifname, "rx", n_rx - 1) &&
	       !queue_exists(root, ifname, "rx", n_rx);
}

int sfs_queue_counts(const char *root, const char *ifname, unsigned int *n_tx,
		     unsigned int *n_rx)
{
	char path[512];
	struct dirent *de;
	DIR *dir;

	/* queues are numbered densely from 0, so probing the ends is enough */
	if (counts_unchanged(root, ifname, *n_tx, *n_rx))
		return 0;
	snprintf(path, sizeof(path), "%s/class/net/%s/queues", root, ifname);
	dir = opendir(path);
	if (!dir)
		return -errno;
	*n_tx = *n_rx = 0;
	while ((de = readdir(dir))) {
		if (!strncmp(de->d_name, "tx-", 3))
			(*n_tx)++;
		else if (!strncmp(de->d_name, "rx-", 3))
			(*n_rx)++;
	}
	closedir(dir);
	return 0;
}

int sfs_bql_path(const char *root, const char *ifname, unsigned int q, enum bqlv v,
		 char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/class/net/%s/queues/tx-%u/byte_queue_limits/%s", root,
			 ifname, q, bql_file[v]);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void sfs_bql_read(const char *root, const char *ifname, unsigned int q, uint64_t out[BQL_NUM],
		  uint32_t *present)
{
	char path[512];
	int v;

	*present = 0;
	for (v = 0; v < BQL_NUM; v++) {
		if (sfs_bql_path(root, ifname, q, v, path, sizeof(path)))
			continue;
		if (!sfs_read_u64(path, &out[v]))
			*present |= 1u << v;
		else if (v == BQL_LIMIT)
			return;	/* no byte_queue_limits directory: nothing else to find */
	}
}

int sfs_dnapi_path(const char *root, const char *ifname, enum dnapi v, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/class/net/%s/%s", root, ifname, dnapi_file[v]);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void sfs_dnapi_read(const char *root, const char *ifname, uint64_t out[DNAPI_NUM],
		    uint32_t *present)
{
	char path[512];
	int v;

	*present = 0;
	for (v = 0; v < DNAPI_NUM; v++) {
		if (sfs_dnapi_path(root, ifname, v, path, sizeof(path)))
			continue;
		if (!sfs_read_u64(path, &out[v]))
			*present |= 1u << v;
	}
}
