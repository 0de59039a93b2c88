// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfs.h"

/* sfs_dev descriptor slots: not open yet, or found absent (not looked for again until the
 * queue generation changes: a kernel without stall_cnt does not grow one) */
#define SFS_FD_NONE	(-1)
#define SFS_FD_ABSENT	(-2)
/* longest sysfs path built here: root, device name and a BQL file name */
#define SFS_PATH_MAX	512
/* longest value text read: a u64 in decimal and its newline */
#define SFS_VALUE_MAX	64

/* kept descriptors when RLIMIT_NOFILE cannot be read: half of the usual soft limit, 1024 */
#define SFS_KEPT_DEFAULT	512

/* descriptors kept open by all devices, and the most that may be (keep_budget()) */
static unsigned int kept_fds;
static unsigned int kept_max;

struct sfs_dev {
	int queues_fd;		/* O_PATH of class/net/NAME/queues, or SFS_FD_NONE */
	uint32_t gen;		/* queue generation the BQL descriptors belong to */
	unsigned int n_tx;	/* TX queues in bql_fd */
	int *bql_fd;		/* n_tx * BQL_NUM: a descriptor, SFS_FD_NONE or SFS_FD_ABSENT */
	int dnapi_fd[DNAPI_NUM];	/* class/net/NAME/<dnapi_file>, as bql_fd */
};

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

/* The @n bytes read into @buf (room for one more) as one decimal value. 0 or -EINVAL. */
static int parse_u64(char *buf, ssize_t n, uint64_t *v)
{
	char *end;

	buf[n] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

/* One read of the attribute at @path into @buf (@size bytes, NUL-terminated): n or -errno. */
static ssize_t read_attr(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

int sfs_read_u64(const char *path, uint64_t *v)
{
	char buf[SFS_VALUE_MAX];
	ssize_t n = read_attr(path, buf, sizeof(buf));

	return n < 0 ? (int)n : parse_u64(buf, n, v);
}

/* features_show() prints VIRTIO_FEATURES_MAX bits (128 since 6.17, 64 before) and "\n" */
#define SFS_VIRTIO_FEATURES_MAX	512

int sfs_virtio_feature(const char *root, const char *ifname, unsigned int bit)
{
	char path[512], buf[SFS_VIRTIO_FEATURES_MAX + 2];
	size_t len;
	ssize_t n;

	if (snprintf(path, sizeof(path), "%s/class/net/%s/device/features", root, ifname) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	n = read_attr(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	/* "0110...\n": anything else is not this attribute */
	len = strspn(buf, "01");
	if (buf[len] && strcmp(buf + len, "\n"))
		return -EINVAL;
	if (bit >= len)
		return -ERANGE;
	return buf[bit] == '1';
}

/*
 * Half the soft RLIMIT_NOFILE: the other half stays for netlink sockets, namespaces and API
 * clients, so a host with thousands of queues reads the rest by path instead of failing.
 */
static unsigned int keep_budget(void)
{
	struct rlimit rl;

	if (!kept_max)
		kept_max = getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ?
			SFS_KEPT_DEFAULT : (unsigned int)(rl.rlim_cur / 2);
	return kept_max;
}

void sfs_set_keep_budget(unsigned int n)
{
	kept_max = n;
}

unsigned int sfs_kept_fds(void)
{
	return kept_fds;
}

/* Open @path to keep (counted), or -EMFILE without trying when the budget is spent. */
static int keep_open(const char *path, int flags)
{
	int fd;

	if (kept_fds >= keep_budget())
		return -EMFILE;
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	kept_fds++;
	return fd;
}

/* Close a kept descriptor (if open) and mark the slot empty. */
static void keep_close(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		kept_fds--;
	}
	*fd = SFS_FD_NONE;
}

/*
 * One value through the kept descriptor *@fd, opened from @path first when there is none.
 * A failed read closes it (a removed device or queue: -ENODEV) so the next one opens the
 * path again. 0, -ENOENT (absent: *@fd remembers it), -EINVAL or -errno.
 */
static int read_kept(int *fd, const char *path, uint64_t *v)
{
	char buf[SFS_VALUE_MAX];
	ssize_t n;
	int err;

	if (*fd == SFS_FD_ABSENT)
		return -ENOENT;
	if (*fd == SFS_FD_NONE) {
		err = keep_open(path, O_RDONLY);
		if (err == -EMFILE)
			return sfs_read_u64(path, v);	/* over budget: by path, as before */
		if (err < 0) {
			*fd = err == -ENOENT ? SFS_FD_ABSENT : SFS_FD_NONE;
			return err;
		}
		*fd = err;
	}
	n = pread(*fd, buf, sizeof(buf) - 1, 0);
	if (n < 0) {
		err = -errno;
		keep_close(fd);
		return err;
	}
	return parse_u64(buf, n, v);
}

/* *@cp, made on first use; NULL when @cp is NULL or memory is short (paths are used then). */
static struct sfs_dev *sfs_dev_get(struct sfs_dev **cp)
{
	if (!cp)
		return NULL;
	if (!*cp) {
		*cp = calloc(1, sizeof(**cp));
		if (*cp) {
			int v;

			(*cp)->queues_fd = SFS_FD_NONE;
			for (v = 0; v < DNAPI_NUM; v++)
				(*cp)->dnapi_fd[v] = SFS_FD_NONE;
		}
	}
	return *cp;
}

static void close_bql(struct sfs_dev *c)
{
	unsigned int i;

	for (i = 0; c->bql_fd && i < c->n_tx * BQL_NUM; i++)
		keep_close(&c->bql_fd[i]);
	free(c->bql_fd);
	c->bql_fd = NULL;
	c->n_tx = 0;
}

void sfs_dev_free(struct sfs_dev *c)
{
	int v;

	if (!c)
		return;
	close_bql(c);
	keep_close(&c->queues_fd);
	for (v = 0; v < DNAPI_NUM; v++)
		keep_close(&c->dnapi_fd[v]);
	free(c);
}

unsigned int sfs_dev_open_fds(const struct sfs_dev *c)
{
	unsigned int i, n;

	if (!c)
		return 0;
	n = c->queues_fd >= 0;
	for (i = 0; c->bql_fd && i < c->n_tx * BQL_NUM; i++)
		n += c->bql_fd[i] >= 0;
	for (i = 0; i < DNAPI_NUM; i++)
		n += c->dnapi_fd[i] >= 0;
	return n;
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

/* Does queues/@dir-@q exist? Relative to the open queues/ directory @dfd, else by path. */
static bool queue_exists(int dfd, const char *root, const char *ifname, const char *dir,
			 unsigned int q)
{
	char path[SFS_PATH_MAX];
	struct stat st;

	if (dfd >= 0) {
		snprintf(path, sizeof(path), "%s-%u", dir, q);
		return !fstatat(dfd, path, &st, 0);
	}
	snprintf(path, sizeof(path), "%s/class/net/%s/queues/%s-%u", root, ifname, dir, q);
	return !stat(path, &st);
}

/*
 * Counts still right: the last queue exists and the one past it does not (4 stats). Through
 * a removed device's kept directory nothing exists, so it reads as changed and is reopened.
 */
static bool counts_unchanged(int dfd, const char *root, const char *ifname, unsigned int n_tx,
			     unsigned int n_rx)
{
	return n_tx && n_rx && queue_exists(dfd, root, ifname, "tx", n_tx - 1) &&
	       !queue_exists(dfd, root, ifname, "tx", n_tx) &&
	       queue_exists(dfd, root, ifname, "rx", n_rx - 1) &&
	       !queue_exists(dfd, root, ifname, "rx", n_rx);
}

int sfs_queue_counts(struct sfs_dev **cp, const char *root, const char *ifname,
		     unsigned int *n_tx, unsigned int *n_rx)
{
	struct sfs_dev *c = sfs_dev_get(cp);
	char path[SFS_PATH_MAX];
	struct dirent *de;
	DIR *dir;

	/* queues are numbered densely from 0, so probing the ends is enough */
	if (counts_unchanged(c ? c->queues_fd : SFS_FD_NONE, root, ifname, *n_tx, *n_rx))
		return 0;
	snprintf(path, sizeof(path), "%s/class/net/%s/queues", root, ifname);
	if (c) {
		/* counted by path below: the directory kept for the next ticks is that one */
		keep_close(&c->queues_fd);
		c->queues_fd = keep_open(path, O_PATH | O_DIRECTORY);
		if (c->queues_fd < 0)
			c->queues_fd = SFS_FD_NONE;
	}
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

/* The kept descriptors of TX queue @q, a fresh set when the queues changed; NULL: none. */
static int *bql_fds(struct sfs_dev *c, uint32_t gen, unsigned int n_tx, unsigned int q)
{
	unsigned int i;

	if (!c)
		return NULL;
	if (c->gen != gen || c->n_tx != n_tx || !c->bql_fd) {
		close_bql(c);
		c->bql_fd = malloc((n_tx ? n_tx : 1) * BQL_NUM * sizeof(*c->bql_fd));
		if (!c->bql_fd)
			return NULL;
		for (i = 0; i < n_tx * BQL_NUM; i++)
			c->bql_fd[i] = SFS_FD_NONE;
		c->gen = gen;
		c->n_tx = n_tx;
	}
	return q < c->n_tx ? &c->bql_fd[q * BQL_NUM] : NULL;
}

void sfs_bql_read(struct sfs_dev **cp, const char *root, const char *ifname, uint32_t gen,
		  unsigned int n_tx, unsigned int q, uint64_t out[BQL_NUM], uint32_t *present)
{
	int *fds = bql_fds(sfs_dev_get(cp), gen, n_tx, q);
	char path[SFS_PATH_MAX];
	int v, ret;

	*present = 0;
	for (v = 0; v < BQL_NUM; v++) {
		/* a path only to open one: a kept descriptor reads without it */
		if ((!fds || fds[v] == SFS_FD_NONE) &&
		    sfs_bql_path(root, ifname, q, v, path, sizeof(path)))
			continue;
		ret = fds ? read_kept(&fds[v], path, &out[v]) : sfs_read_u64(path, &out[v]);
		if (!ret) {
			*present |= 1u << v;
			continue;
		}
		if (v != BQL_LIMIT)
			continue;
		/* no byte_queue_limits directory: nothing else to find */
		for (; fds && ret == -ENOENT && v < BQL_NUM; v++) {
			keep_close(&fds[v]);
			fds[v] = SFS_FD_ABSENT;
		}
		return;
	}
}

int sfs_dnapi_path(const char *root, const char *ifname, enum dnapi v, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/class/net/%s/%s", root, ifname, dnapi_file[v]);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void sfs_dnapi_read(struct sfs_dev **cp, const char *root, const char *ifname,
		    uint64_t out[DNAPI_NUM], uint32_t *present)
{
	struct sfs_dev *c = sfs_dev_get(cp);
	char path[SFS_PATH_MAX];
	int v, ret;

	*present = 0;
	for (v = 0; v < DNAPI_NUM; v++) {
		/* a path only to open one: a kept descriptor reads without it */
		if ((!c || c->dnapi_fd[v] == SFS_FD_NONE) &&
		    sfs_dnapi_path(root, ifname, v, path, sizeof(path)))
			continue;
		ret = c ? read_kept(&c->dnapi_fd[v], path, &out[v]) : sfs_read_u64(path, &out[v]);
		if (!ret)
			*present |= 1u << v;
	}
}
