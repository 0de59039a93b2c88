// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs: queue counts, BQL and device-wide NAPI reads through kept descriptors (sfs_dev), on a tree built here
 * the way /sys/class/net/DEV/queues lays it out (Documentation/ABI/testing/
 * sysfs-class-net-queues). Regular files stand in for sysfs attributes: a file rewritten in
 * place reads anew at offset 0, as an attribute does.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "sysfs.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");	/* truncates in place: the same inode, as an attribute stays */
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mk(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

/* Descriptors this process has open (/proc/self/fd, less opendir()'s own). */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1;
}

/* class/net/d0: tx-0 with BQL (no stall_* files: a kernel before 6.9), tx-1 without, rx-0 */
static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/vqsfsXXXXXX");
	assert_non_null(mkdtemp(root));
	mk("class");
	mk("class/net");
	mk("class/net/d0");
	mk("class/net/d0/queues");
	mk("class/net/d0/queues/tx-0");
	mk("class/net/d0/queues/tx-0/byte_queue_limits");
	mk("class/net/d0/queues/tx-1");
	mk("class/net/d0/queues/rx-0");
	put("class/net/d0/queues/tx-0/byte_queue_limits/limit", "3028\n");
	put("class/net/d0/queues/tx-0/byte_queue_limits/limit_min", "0\n");
	put("class/net/d0/queues/tx-0/byte_queue_limits/limit_max", "1879048192\n");
	put("class/net/d0/queues/tx-0/byte_queue_limits/inflight", "1514\n");
	put("class/net/d0/queues/tx-0/byte_queue_limits/hold_time", "1000\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

#define BQL_OLD_KERNEL	((1u << BQL_LIMIT) | (1u << BQL_LIMIT_MIN) | (1u << BQL_LIMIT_MAX) | \
			 (1u << BQL_INFLIGHT) | (1u << BQL_HOLD_TIME))

static void test_counts_and_reads_reuse(void **state)
{
	struct sfs_dev *c = NULL;
	unsigned int n_tx = 0, n_rx = 0;
	uint64_t v[BQL_NUM] = { 0 };
	uint32_t present;
	int fds0 = open_fds();

	(void)state;
	assert_int_equal(sfs_queue_counts(&c, root, "d0", &n_tx, &n_rx), 0);
	assert_int_equal(n_tx, 2);
	assert_int_equal(n_rx, 1);
	assert_int_equal(sfs_dev_open_fds(c), 1);	/* queues/ kept */

	sfs_bql_read(&c, root, "d0", 1, n_tx, 0, v, &present);
	assert_int_equal(present, BQL_OLD_KERNEL);
	assert_int_equal(v[BQL_LIMIT], 3028);
	assert_int_equal(v[BQL_LIMIT_MAX], 1879048192);
	assert_int_equal(v[BQL_INFLIGHT], 1514);
	assert_int_equal(sfs_dev_open_fds(c), 6);

	/* the value moves: the kept descriptor reads it, nothing more is opened */
	put("class/net/d0/queues/tx-0/byte_queue_limits/inflight", "45420\n");
	put("class/net/d0/queues/tx-0/byte_queue_limits/limit", "60560\n");
	sfs_bql_read(&c, root, "d0", 1, n_tx, 0, v, &present);
	assert_int_equal(present, BQL_OLD_KERNEL);
	assert_int_equal(v[BQL_INFLIGHT], 45420);
	assert_int_equal(v[BQL_LIMIT], 60560);
	assert_int_equal(sfs_dev_open_fds(c), 6);
	assert_int_equal(open_fds(), fds0 + 6);

	/* tx-1 has no byte_queue_limits: nothing present, nothing kept open */
	sfs_bql_read(&c, root, "d0", 1, n_tx, 1, v, &present);
	assert_int_equal(present, 0);
	sfs_bql_read(&c, root, "d0", 1, n_tx, 1, v, &present);
	assert_int_equal(present, 0);
	assert_int_equal(sfs_dev_open_fds(c), 6);

	/* unchanged counts are confirmed through the kept directory */
	assert_int_equal(sfs_queue_counts(&c, root, "d0", &n_tx, &n_rx), 0);
	assert_int_equal(n_tx, 2);
	assert_int_equal(sfs_dev_open_fds(c), 6);

	sfs_dev_free(c);
	assert_int_equal(open_fds(), fds0);
}

/* A new queue generation drops the descriptors: files replaced or added are read then. */
static void test_generation_reopens(void **state)
{
	struct sfs_dev *c = NULL;
	unsigned int n_tx = 0, n_rx = 0;
	uint64_t v[BQL_NUM] = { 0 };
	uint32_t present;
	char from[512], to[512];

	(void)state;
	assert_int_equal(sfs_queue_counts(&c, root, "d0", &n_tx, &n_rx), 0);
	sfs_bql_read(&c, root, "d0", 1, n_tx, 0, v, &present);
	assert_int_equal(v[BQL_LIMIT_MAX], 1879048192);

	/* a new file under the old name (a queue removed and made again) and stall_cnt (absent
	 * before): within one generation the kept ones still read, the absent one stays so */
	put("class/net/d0/queues/tx-0/byte_queue_limits/new", "16384\n");
	snprintf(from, sizeof(from), "%s/class/net/d0/queues/tx-0/byte_queue_limits/new", root);
	snprintf(to, sizeof(to), "%s/class/net/d0/queues/tx-0/byte_queue_limits/limit_max", root);
	assert_int_equal(rename(from, to), 0);
	put("class/net/d0/queues/tx-0/byte_queue_limits/stall_cnt", "7\n");
	sfs_bql_read(&c, root, "d0", 1, n_tx, 0, v, &present);
	assert_int_equal(v[BQL_LIMIT_MAX], 1879048192);
	assert_false(present & (1u << BQL_STALL_CNT));

	/* a queue appears: the counts see it, and generation 2 opens every file again */
	mk("class/net/d0/queues/tx-2");
	assert_int_equal(sfs_queue_counts(&c, root, "d0", &n_tx, &n_rx), 0);
	assert_int_equal(n_tx, 3);
	sfs_bql_read(&c, root, "d0", 2, n_tx, 0, v, &present);
	assert_int_equal(v[BQL_LIMIT_MAX], 16384);
	assert_true(present & (1u << BQL_STALL_CNT));
	assert_int_equal(v[BQL_STALL_CNT], 7);
	sfs_dev_free(c);
}

/* Over the descriptor budget the values still come, by path, and no more are kept. */
static void test_keep_budget(void **state)
{
	struct sfs_dev *c = NULL;
	unsigned int n_tx = 0, n_rx = 0;
	uint64_t v[BQL_NUM] = { 0 };
	uint32_t present;
	unsigned int kept0 = sfs_kept_fds();

	(void)state;
	sfs_set_keep_budget(kept0 + 3);
	assert_int_equal(sfs_queue_counts(&c, root, "d0", &n_tx, &n_rx), 0);
	sfs_bql_read(&c, root, "d0", 1, n_tx, 0, v, &present);
	assert_int_equal(present, BQL_OLD_KERNEL);
	assert_int_equal(v[BQL_HOLD_TIME], 1000);
	assert_int_equal(sfs_kept_fds(), kept0 + 3);
	assert_int_equal(sfs_dev_open_fds(c), 3);
	put("class/net/d0/queues/tx-0/byte_queue_limits/hold_time", "250\n");
	sfs_bql_read(&c, root, "d0", 1, n_tx, 0, v, &present);
	assert_int_equal(v[BQL_HOLD_TIME], 250);	/* read by path: over the budget */
	sfs_dev_free(c);
	assert_int_equal(sfs_kept_fds(), kept0);
	sfs_set_keep_budget(0);				/* back to the rlimit's half */
}

/* Without a cache (NULL) the same values come by path; a bad value is -EINVAL, not 0. */
static void test_paths_only(void **state)
{
	unsigned int n_tx = 0, n_rx = 0;
	uint64_t v[BQL_NUM] = { 0 }, x;
	uint32_t present;
	char path[512];

	(void)state;
	assert_int_equal(sfs_queue_counts(NULL, root, "d0", &n_tx, &n_rx), 0);
	assert_int_equal(n_tx, 2);
	sfs_bql_read(NULL, root, "d0", 1, n_tx, 0, v, &present);
	assert_int_equal(present, BQL_OLD_KERNEL);
	assert_int_equal(v[BQL_HOLD_TIME], 1000);
	put("class/net/d0/queues/tx-0/byte_queue_limits/hold_time", "12ms\n");
	snprintf(path, sizeof(path), "%s/class/net/d0/queues/tx-0/byte_queue_limits/hold_time",
		 root);
	assert_int_equal(sfs_read_u64(path, &x), -EINVAL);
	assert_int_equal(sfs_queue_counts(NULL, root, "nodev", &n_tx, &n_rx), -ENOENT);
}

/*
 * A virtio device's negotiated features: class/net/DEV/device/features, one character per
 * bit from bit 0 (drivers/virtio/virtio.c features_show()). Bit 34 is VIRTIO_F_RING_PACKED.
 */
static void test_virtio_feature(void **state)
{
	char bits[130];

	(void)state;
	/* no device/ (veth, lo): not virtio */
	assert_int_equal(sfs_virtio_feature(root, "d0", 34), -ENOENT);
	mk("class/net/d0/device");
	/* 64 bits (before 6.17): 0, 5 and 34 set */
	memset(bits, '0', 64);
	bits[0] = bits[5] = bits[34] = '1';
	bits[64] = '\n';
	bits[65] = '\0';
	put("class/net/d0/device/features", bits);
	assert_int_equal(sfs_virtio_feature(root, "d0", 34), 1);
	assert_int_equal(sfs_virtio_feature(root, "d0", 0), 1);
	assert_int_equal(sfs_virtio_feature(root, "d0", 33), 0);
	assert_int_equal(sfs_virtio_feature(root, "d0", 63), 0);
	/* past the string: unknown, not "off" */
	assert_int_equal(sfs_virtio_feature(root, "d0", 64), -ERANGE);
	/* 128 bits (6.17+), split ring */
	memset(bits, '0', 128);
	bits[128] = '\n';
	bits[129] = '\0';
	put("class/net/d0/device/features", bits);
	assert_int_equal(sfs_virtio_feature(root, "d0", 34), 0);
	assert_int_equal(sfs_virtio_feature(root, "d0", 127), 0);
	/* not a bit string */
	put("class/net/d0/device/features", "0x1\n");
	assert_int_equal(sfs_virtio_feature(root, "d0", 34), -EINVAL);
	put("class/net/d0/device/features", "");
	assert_int_equal(sfs_virtio_feature(root, "d0", 0), -ERANGE);
}

/*
 * The device-wide NAPI knobs through kept descriptors: opened once, read anew with pread(),
 * a file the kernel lacks (threaded, before 5.12) not looked for again; without a cache
 * the same values come by path.
 */
static void test_dnapi_kept(void **state)
{
	struct sfs_dev *c = NULL;
	uint64_t v[DNAPI_NUM] = { 0 };
	uint32_t present;
	int fds0 = open_fds();

	(void)state;
	put("class/net/d0/gro_flush_timeout", "0\n");
	put("class/net/d0/napi_defer_hard_irqs", "0\n");
	sfs_dnapi_read(&c, root, "d0", v, &present);
	assert_int_equal(present, (1u << DNAPI_GRO_FLUSH_TIMEOUT) | (1u << DNAPI_DEFER_HARD_IRQS));
	assert_int_equal(sfs_dev_open_fds(c), 2);
	assert_int_equal(open_fds(), fds0 + 2);

	/* another writer's value: read through the same descriptors, nothing more opened */
	put("class/net/d0/gro_flush_timeout", "20000\n");
	put("class/net/d0/napi_defer_hard_irqs", "2\n");
	sfs_dnapi_read(&c, root, "d0", v, &present);
	assert_int_equal(v[DNAPI_GRO_FLUSH_TIMEOUT], 20000);
	assert_int_equal(v[DNAPI_DEFER_HARD_IRQS], 2);
	assert_false(present & (1u << DNAPI_THREADED));
	assert_int_equal(open_fds(), fds0 + 2);

	/* threaded was absent: a file that appears later is not read for this device */
	put("class/net/d0/threaded", "1\n");
	sfs_dnapi_read(&c, root, "d0", v, &present);
	assert_false(present & (1u << DNAPI_THREADED));
	sfs_dnapi_read(NULL, root, "d0", v, &present);
	assert_true(present & (1u << DNAPI_THREADED));
	assert_int_equal(v[DNAPI_THREADED], 1);
	assert_int_equal(v[DNAPI_DEFER_HARD_IRQS], 2);

	/* a value that is no number is not present, and does not stop the others */
	put("class/net/d0/napi_defer_hard_irqs", "x\n");
	sfs_dnapi_read(&c, root, "d0", v, &present);
	assert_int_equal(present, 1u << DNAPI_GRO_FLUSH_TIMEOUT);
	sfs_dev_free(c);
	assert_int_equal(open_fds(), fds0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_counts_and_reads_reuse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_generation_reopens, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dnapi_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paths_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_virtio_feature, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
