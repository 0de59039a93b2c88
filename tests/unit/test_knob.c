// SPDX-License-Identifier: GPL-2.0-only
/*
 * knob: ranges are checked before the kernel sees a value, and instances follow what the
 * device reports (per-NAPI netlink when present, device-wide sysfs otherwise, never both;
 * ethtool knobs only where the driver sent the attribute; ring maxima from the driver).
 * The device is built by hand: no kernel involved.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev.h"
#include "knob.h"
#include "netns.h"

static struct netns ns = { .name = "lab", .sysfs = "/nonexistent" };

/* netns.c is not linked: the few calls dev.c makes are answered here */
struct netns *netns_find(const char *name)
{
	return strcmp(name, "lab") ? NULL : &ns;
}

static struct device *mkdev(void)
{
	struct device *d = dev_add(&ns, 7);

	snprintf(d->name, sizeof(d->name), "vb");
	assert_int_equal(dev_set_queues(d, 2, 2), 0);
	return d;
}

static void test_ranges(void **state)
{
	struct device *d = mkdev();
	struct knob_inst ki;
	char err[128];

	d->dnapi_present = 1u << DNAPI_DEFER_HARD_IRQS | 1u << DNAPI_GRO_FLUSH_TIMEOUT;
	assert_int_equal(knob_find(d, K_DEFER_HARD_IRQS, "", &ki), 0);
	assert_int_equal(knob_check(&ki, 2147483647, err, sizeof(err)), 0);
	assert_int_equal(knob_check(&ki, 4294967295ULL, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "value: 4294967295 is above the maximum 2147483647 of defer-hard-irqs");
	assert_int_equal(knob_find(d, K_GRO_FLUSH_TIMEOUT, "", &ki), 0);
	assert_int_equal(knob_check(&ki, 1000000000, err, sizeof(err)), 0);
	assert_int_equal(knob_check(&ki, 5000000000ULL, err, sizeof(err)), -ERANGE);
	assert_non_null(strstr(err, "gro-flush-timeout"));
	dev_del(d);
}

static void test_bql_min_bound(void **state)
{
	struct device *d = mkdev();
	struct knob_inst ki;
	char err[128];

	d->txq[1].bql_present = (1u << BQL_NUM) - 1;
	d->txq[1].bql[BQL_HOLD_TIME] = 1000;
	/* only tx-1 has a byte_queue_limits directory */
	assert_int_equal(knob_instances(d, K_BQL_HOLD_TIME, &ki, 1), 1);
	assert_string_equal(ki.inst, "tx-1");
	assert_int_equal(ki.queue, 1);
	assert_int_equal(ki.value, 1000);
	assert_int_equal(knob_check(&ki, 0, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "value: 0 is below the minimum 1 of bql-hold-time");
	assert_int_equal(knob_find(d, K_BQL_HOLD_TIME, "tx-0", &ki), -ENOENT);
	dev_del(d);
}

static void test_napi_netlink_wins_over_sysfs(void **state)
{
	struct device *d = mkdev();
	struct ndv_napi napi[2] = {
		{ .id = 81, .ifindex = 7, .gro_flush_timeout_ns = 20000, .has_gro_flush_timeout = true },
		{ .id = 82, .ifindex = 7, .gro_flush_timeout_ns = 0, .has_gro_flush_timeout = true },
	};
	struct knob_inst ki[4];
	struct ndv_sock *fake = (struct ndv_sock *)&ns;	/* only tested for NULL */

	d->dnapi_present = 1u << DNAPI_GRO_FLUSH_TIMEOUT;
	/* without the netdev family the device-wide sysfs file is the knob */
	assert_int_equal(knob_instances(d, K_GRO_FLUSH_TIMEOUT, ki, 4), 1);
	assert_int_equal(ki[0].prov, KP_SYSFS_NAPI);
	assert_int_equal(ki[0].scope, KS_DEVICE);

	ns.ndv = fake;
	d->napi = napi;
	d->n_napi = 2;
	d->rxq[1].napi_id = 82;
	assert_int_equal(knob_instances(d, K_GRO_FLUSH_TIMEOUT, ki, 4), 2);
	assert_int_equal(ki[0].prov, KP_NETDEV_NAPI);
	assert_string_equal(ki[1].inst, "napi-82");
	assert_int_equal(ki[1].queue, 1);
	assert_int_equal(ki[0].value, 20000);
	/* the kernel did not report defer-hard-irqs per NAPI: sysfs has it, netlink does not */
	d->dnapi_present |= 1u << DNAPI_DEFER_HARD_IRQS;
	assert_int_equal(knob_instances(d, K_DEFER_HARD_IRQS, ki, 4), 1);
	assert_int_equal(ki[0].prov, KP_SYSFS_NAPI);
	d->napi = NULL;
	d->n_napi = 0;
	ns.ndv = NULL;
	dev_del(d);
}

static void test_ethtool_knobs(void **state)
{
	struct device *d = mkdev();
	struct knob_inst ki;
	char err[128];

	d->co_err = 0;
	d->co.present = 1u << ETH_CO_RX_USECS;
	d->co.val[ETH_CO_RX_USECS] = 8;
	assert_int_equal(knob_instances(d, K_RX_USECS, &ki, 1), 1);
	assert_int_equal(ki.value, 8);
	assert_int_equal(ki.prov, KP_ETH_COALESCE);
	/* not sent by the driver: unsupported, no instance */
	assert_int_equal(knob_instances(d, K_TX_FRAMES, &ki, 1), 0);
	d->co_err = -EOPNOTSUPP;
	assert_int_equal(knob_instances(d, K_RX_USECS, &ki, 1), 0);

	d->rings_err = 0;
	d->rings = (struct eth_rings){ .rx = 256, .rx_max = 1024, .tx = 256, .tx_max = 0,
				       .present = 0xf };
	assert_int_equal(knob_instances(d, K_RX_RING_SIZE, &ki, 1), 1);
	assert_int_equal(ki.max, 1024);
	assert_true(knob_table[K_RX_RING_SIZE].disruptive);
	assert_int_equal(knob_check(&ki, 2048, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "value: 2048 is above the maximum 1024 of rx-ring-size");
	assert_int_equal(ki.rule, KR_NONE);
	assert_int_equal(knob_check(&ki, 3, err, sizeof(err)), 0);
	/* a ring whose maximum is 0 cannot be set */
	assert_int_equal(knob_instances(d, K_TX_RING_SIZE, &ki, 1), 0);
	dev_del(d);
}

/*
 * virtio_net: a split virtqueue takes only power-of-two lengths (vring_alloc_queue_split()
 * answers anything else with a bare -EINVAL), so the ring knobs carry that rule, checked
 * before the kernel sees a value, and the controller's steps are fitted toward the old
 * value. Coalescing on the same driver has no rule.
 */
static void test_virtio_ring_pow2(void **state)
{
	struct device *d = mkdev();
	struct knob_inst ki;
	char err[160];

	snprintf(d->driver, sizeof(d->driver), "virtio_net");
	d->rings_err = 0;
	d->rings = (struct eth_rings){ .rx = 256, .rx_max = 256, .tx = 256, .tx_max = 256,
				       .present = 0xf };
	assert_int_equal(knob_find(d, K_TX_RING_SIZE, "", &ki), 0);
	assert_int_equal(ki.rule, KR_POW2);
	assert_string_equal(knob_rule_name(ki.rule), "power of two");
	assert_null(knob_rule_name(KR_NONE));
	assert_int_equal(knob_check(&ki, 3, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "value: 3 is not a power of two, which tx-ring-size must be on "
			    "this driver (nearest: 2 or 4)");
	/* only the neighbour inside [1, 256] is offered */
	assert_int_equal(knob_check(&ki, 200, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "value: 200 is not a power of two, which tx-ring-size must be "
			    "on this driver (nearest: 128 or 256)");
	ki.max = 255;
	assert_int_equal(knob_check(&ki, 200, err, sizeof(err)), -ERANGE);
	assert_non_null(strstr(err, "(nearest: 128)"));
	ki.max = 256;
	assert_int_equal(knob_check(&ki, 1, err, sizeof(err)), 0);
	assert_int_equal(knob_check(&ki, 64, err, sizeof(err)), 0);
	assert_int_equal(knob_check(&ki, 256, err, sizeof(err)), 0);
	/* the range still comes first */
	assert_int_equal(knob_check(&ki, 512, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "value: 512 is above the maximum 256 of tx-ring-size");

	/* fitted toward the old value: up 128 -> 192 becomes 128... nothing between */
	assert_int_equal(knob_fit(&ki, 192, 128), 128);
	assert_int_equal(knob_fit(&ki, 200, 64), 128);
	assert_int_equal(knob_fit(&ki, 96, 256), 128);
	assert_int_equal(knob_fit(&ki, 100, 128), 128);
	assert_int_equal(knob_fit(&ki, 64, 256), 64);
	/* 0 is no power of two: 1 is its neighbour (a range from 0, never a ring's) */
	ki.min = 0;
	assert_int_equal(knob_check(&ki, 0, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "value: 0 is not a power of two, which tx-ring-size must be on "
			    "this driver (nearest: 1)");
	assert_int_equal(knob_fit(&ki, 0, 8), 1);
	ki.min = 1;
	ki.rule = KR_NONE;
	assert_int_equal(knob_fit(&ki, 192, 128), 192);

	assert_int_equal(knob_find(d, K_RX_RING_SIZE, "", &ki), 0);
	assert_int_equal(ki.rule, KR_POW2);
	/* the device's features read split: the rule stays */
	d->virtio_packed = 0;
	assert_int_equal(knob_find(d, K_TX_RING_SIZE, "", &ki), 0);
	assert_int_equal(ki.rule, KR_POW2);
	/* packed virtqueues take any length (vring_alloc_queue_packed()): no rule, 3 passes */
	d->virtio_packed = 1;
	assert_int_equal(knob_find(d, K_TX_RING_SIZE, "", &ki), 0);
	assert_int_equal(ki.rule, KR_NONE);
	assert_null(knob_rule_name(ki.rule));
	assert_int_equal(knob_check(&ki, 3, err, sizeof(err)), 0);
	assert_int_equal(knob_fit(&ki, 192, 128), 192);
	d->virtio_packed = -1;
	d->co_err = 0;
	d->co.present = 1u << ETH_CO_RX_USECS;
	assert_int_equal(knob_find(d, K_RX_USECS, "", &ki), 0);
	assert_int_equal(ki.rule, KR_NONE);
	assert_int_equal(knob_check(&ki, 3, err, sizeof(err)), 0);
	dev_del(d);
}

/*
 * vqpair answers ethtool -g/-C from its own knob table (include/vqpair.h): the ranges there
 * bound the ethtool knobs too, and its fixed RX ring of 256 takes only 256, so each value
 * outside is refused here with the range, not by the module's bare "out of range".
 */
static void test_vqpair_eth_ranges(void **state)
{
	struct device *d = mkdev();
	struct knob_inst ki;
	char err[128];

	(void)state;
	snprintf(d->kind, sizeof(d->kind), "vqpair");
	snprintf(d->driver, sizeof(d->driver), "vqpair");
	d->rings_err = 0;
	d->rings = (struct eth_rings){ .rx = 256, .rx_max = 256, .tx = 256, .tx_max = 4096,
				       .present = 0xf };
	d->co_err = 0;
	d->co.present = 1u << ETH_CO_TX_USECS | 1u << ETH_CO_TX_FRAMES;
	assert_int_equal(knob_find(d, K_TX_RING_SIZE, "", &ki), 0);
	assert_int_equal(ki.min, 16);
	assert_int_equal(ki.max, 4096);
	assert_int_equal(ki.rule, KR_NONE);
	assert_int_equal(knob_check(&ki, 5, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "value: 5 is below the minimum 16 of tx-ring-size");
	assert_int_equal(knob_check(&ki, 100, err, sizeof(err)), 0);
	assert_int_equal(knob_find(d, K_RX_RING_SIZE, "", &ki), 0);
	assert_int_equal(ki.min, 256);
	assert_int_equal(ki.max, 256);
	assert_int_equal(knob_check(&ki, 100, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "value: 100 is below the minimum 256 of rx-ring-size");
	assert_int_equal(knob_find(d, K_TX_USECS, "", &ki), 0);
	assert_int_equal(ki.max, 10000);
	assert_int_equal(knob_find(d, K_TX_FRAMES, "", &ki), 0);
	assert_int_equal(ki.min, 1);
	assert_int_equal(ki.max, 1024);
	/* another driver keeps the generic ranges */
	snprintf(d->kind, sizeof(d->kind), "veth");
	assert_int_equal(knob_find(d, K_TX_RING_SIZE, "", &ki), 0);
	assert_int_equal(ki.min, 1);
	assert_int_equal(knob_find(d, K_TX_USECS, "", &ki), 0);
	assert_true(ki.max > 10000);
	dev_del(d);
}

/*
 * rx-/tx-channels 0 is refused before the kernel sees it: ethnl_set_channels() refuses a
 * request that leaves no RX (TX) channel, so on a device without combined channels (veth)
 * the least count is 1. With combined channels left (a NIC with both kinds) 0 stays valid.
 */
static void test_channels_min(void **state)
{
	struct device *d = mkdev();
	struct knob_inst ki;
	char err[128];

	d->ch_err = 0;
	/* veth: rx and tx with their maxima, no combined */
	d->ch = (struct eth_channels){ .rx = 2, .rx_max = 2, .tx = 2, .tx_max = 2,
				       .present = 0xf };
	assert_int_equal(knob_table[K_RX_CHANNELS].min, 1);
	assert_int_equal(knob_table[K_TX_CHANNELS].min, 1);
	assert_int_equal(knob_instances(d, K_RX_CHANNELS, &ki, 1), 1);
	assert_int_equal(ki.min, 1);
	assert_int_equal(ki.max, 2);
	assert_int_equal(knob_check(&ki, 0, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "value: 0 is below the minimum 1 of rx-channels");
	assert_int_equal(knob_check(&ki, 1, err, sizeof(err)), 0);
	assert_int_equal(knob_instances(d, K_TX_CHANNELS, &ki, 1), 1);
	assert_int_equal(knob_check(&ki, 0, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "value: 0 is below the minimum 1 of tx-channels");

	/* 4 combined channels besides 2 RX: RX may go to 0, combined still may not */
	d->ch = (struct eth_channels){ .rx = 2, .rx_max = 2, .tx = 0, .tx_max = 2, .combined = 4,
				       .combined_max = 8, .present = 0x3f };
	assert_int_equal(knob_instances(d, K_RX_CHANNELS, &ki, 1), 1);
	assert_int_equal(ki.min, 0);
	assert_int_equal(knob_check(&ki, 0, err, sizeof(err)), 0);
	assert_int_equal(knob_instances(d, K_COMBINED_CHANNELS, &ki, 1), 1);
	assert_int_equal(ki.min, 1);
	dev_del(d);
}

/* mkdir -p for the fake sysfs tree */
static void mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

/*
 * A value written and read back is in the model at once: the knobs view shows it before the
 * next sample (a manual set between two ticks used to show the old value until the next
 * one). A temporary directory stands in for sysfs: same paths, same text.
 */
static void test_readback_updates_model(void **state)
{
	char root[] = "/tmp/vqknobXXXXXX", dir[512], path[600], err[128];
	struct device *d = mkdev();
	struct knob_inst ki;
	uint64_t v = 0;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(ns.sysfs, sizeof(ns.sysfs), "%s", root);
	snprintf(dir, sizeof(dir), "%s/class/net/vb/queues/tx-0/byte_queue_limits", root);
	mkdirs(dir);
	snprintf(path, sizeof(path), "%s/limit_max", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("1879048192\n", f);
	fclose(f);
	d->txq[0].bql_present = 1u << BQL_LIMIT_MAX;
	d->txq[0].bql[BQL_LIMIT_MAX] = 1879048192;

	assert_int_equal(knob_find(d, K_BQL_LIMIT_MAX, "tx-0", &ki), 0);
	assert_int_equal(knob_write(d, &ki, 137128, err, sizeof(err)), 0);
	/* the write alone does not claim a value the kernel may have refused or rounded */
	assert_int_equal(d->txq[0].bql[BQL_LIMIT_MAX], 1879048192);
	assert_int_equal(knob_read(d, &ki, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 137128);
	assert_int_equal(knob_find(d, K_BQL_LIMIT_MAX, "tx-0", &ki), 0);
	assert_int_equal(ki.value, 137128);

	/* a failed read leaves the model as it was */
	unlink(path);
	assert_int_not_equal(knob_read(d, &ki, &v, err, sizeof(err)), 0);
	assert_int_equal(d->txq[0].bql[BQL_LIMIT_MAX], 137128);

	/* byte_queue_limits up to class, then the root itself: a directory left is a test fault */
	while (strcmp(dir, root) != 0) {
		assert_int_equal(rmdir(dir), 0);
		*strrchr(dir, '/') = '\0';
	}
	assert_int_equal(rmdir(root), 0);
	snprintf(ns.sysfs, sizeof(ns.sysfs), "/nonexistent");
	dev_del(d);
}

/*
 * A refused sysfs write names the device (raw), the knob and its instance, never the file: the
 * sysfs root of a named namespace is the daemon's private mount, of no use to a client.
 */
static void test_write_error_names_knob_not_path(void **state)
{
	struct device *d = mkdev();
	struct knob_inst ki;
	char err[256];

	snprintf(ns.sysfs, sizeof(ns.sysfs), "/nonexistent/run/sysfs.private");
	d->dnapi_present = 1u << DNAPI_THREADED;
	assert_int_equal(knob_find(d, K_THREADED, "", &ki), 0);
	assert_int_equal(ki.prov, KP_SYSFS_NAPI);
	assert_int_equal(knob_write(d, &ki, 1, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "vb: threaded: No such file or directory");

	d->txq[1].bql_present = (1u << BQL_NUM) - 1;
	assert_int_equal(knob_find(d, K_BQL_LIMIT_MAX, "tx-1", &ki), 0);
	assert_int_equal(knob_write(d, &ki, 4096, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "vb: bql-limit-max tx-1: No such file or directory");
	assert_null(strstr(err, "/"));

	/* the name raw: the API reply, event or log that shows @err gives its display form */
	snprintf(d->name, sizeof(d->name), "ve\xff" "0");
	assert_int_equal(knob_write(d, &ki, 4096, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "ve\xff" "0: bql-limit-max tx-1: No such file or directory");
	snprintf(d->name, sizeof(d->name), "vb");

	/* EINVAL without extack text: a hint, not the bare errno text (queue -1: EINVAL) */
	ki.prov = KP_VQPAIR;
	ki.k = K_TX_FULL_MODE;
	ki.queue = -1;
	snprintf(ki.inst, sizeof(ki.inst), "tx-9");
	assert_int_equal(knob_write(d, &ki, 1, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "vb: tx-full-mode tx-9: Invalid argument (the kernel gave no "
			    "reason: 1 is inside the range shown, so the driver takes only some "
			    "of its values; see the driver's documentation)");

	snprintf(ns.sysfs, sizeof(ns.sysfs), "/nonexistent");
	dev_del(d);
}

/*
 * A driver without the ethtool set operation (vqpair, tun: no .set_channels) answers the
 * changing-nothing probe with -EOPNOTSUPP: the knob is read-only, and the reason names the
 * driver and what it lacks. Any other probe answer leaves the write to tell; non-ethtool
 * providers are never asked; an unmanaged device is read-only whatever the driver.
 */
static void test_writable_verdict(void **state)
{
	struct device *d = mkdev();
	struct knob_inst ki;
	char why[160];

	d->managed = true;
	snprintf(d->driver, sizeof(d->driver), "vqpair");
	d->ch_err = 0;
	d->ch = (struct eth_channels){ .combined = 2, .combined_max = 2, .present = 3u << 4 };
	assert_int_equal(knob_find(d, K_COMBINED_CHANNELS, "", &ki), 0);
	assert_int_equal(ki.prov, KP_ETH_CHANNELS);
	assert_int_equal(knob_writable_from(d, &ki, -EOPNOTSUPP, why, sizeof(why)), 0);
	assert_string_equal(why, "the vqpair driver cannot change its channel counts "
			    "(no ethtool set_channels)");
	assert_int_equal(knob_writable_from(d, &ki, 0, why, sizeof(why)), 1);
	assert_string_equal(why, "");
	/* not a verdict on the driver: EPERM, a vanished device... the write will say */
	assert_int_equal(knob_writable_from(d, &ki, -EPERM, why, sizeof(why)), 1);
	assert_int_equal(knob_writable_from(d, &ki, -ENODEV, why, sizeof(why)), 1);

	ki.prov = KP_ETH_RINGS;
	assert_int_equal(knob_writable_from(d, &ki, -EOPNOTSUPP, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "no ethtool set_ringparam"));
	ki.prov = KP_ETH_COALESCE;
	assert_int_equal(knob_writable_from(d, &ki, -EOPNOTSUPP, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "no ethtool set_coalesce"));
	/* only the ethtool providers are probed: EOPNOTSUPP means nothing for the others */
	ki.prov = KP_SYSFS_NAPI;
	assert_int_equal(knob_writable_from(d, &ki, -EOPNOTSUPP, why, sizeof(why)), 1);
	/* no ethtool socket in this test: knob_writable() asks nothing and allows the write */
	ki.prov = KP_ETH_CHANNELS;
	assert_int_equal(knob_writable(d, &ki, why, sizeof(why)), 1);

	/* without a driver name, the rtnl kind */
	d->driver[0] = '\0';
	snprintf(d->kind, sizeof(d->kind), "tun");
	assert_int_equal(knob_writable_from(d, &ki, -EOPNOTSUPP, why, sizeof(why)), 0);
	assert_string_equal(why, "the tun driver cannot change its channel counts "
			    "(no ethtool set_channels)");

	d->managed = false;
	assert_int_equal(knob_writable_from(d, &ki, 0, why, sizeof(why)), 0);
	assert_string_equal(why, "device not managed: observed read-only");
	assert_int_equal(knob_writable(d, &ki, why, sizeof(why)), 0);
	dev_del(d);
}

/*
 * threaded through device sysfs: the kernel refuses it on a device with no NAPI (a veth
 * without GRO or XDP), so on a veth it is read-only exactly when its latest sample's NAPI
 * dump answered and listed none of its NAPIs. Before that sample, or on a kernel that cannot
 * tell (no NAPI_GET before 6.8), it stays writable, and so it does on any other driver (its
 * NAPIs may be ones the dump does not list); no other knob of the provider is touched.
 */
static void test_writable_threaded(void **state)
{
	struct device *d = mkdev();
	struct ndv_napi napi = { .id = 9, .ifindex = d->ifindex };
	struct knob_inst ki;
	char why[200];

	d->managed = true;
	snprintf(d->driver, sizeof(d->driver), "veth");
	d->dnapi_present = 1u << DNAPI_THREADED | 1u << DNAPI_DEFER_HARD_IRQS;
	assert_int_equal(knob_find(d, K_THREADED, "", &ki), 0);
	assert_int_equal(ki.prov, KP_SYSFS_NAPI);
	/* no sample's NAPI dump answered yet (no family, or 6.3-6.7: no NAPI_GET): unknown */
	assert_false(dev_napi_none(d));
	assert_int_equal(knob_writable_from(d, &ki, 0, why, sizeof(why)), 1);
	/* the dump answered and listed none: read-only, and why */
	d->napi_listed = true;
	assert_true(dev_napi_none(d));
	assert_int_equal(knob_writable_from(d, &ki, 0, why, sizeof(why)), 0);
	assert_string_equal(why, "the kernel refuses threaded on a device with no NAPI instance "
			    "(the netdev family lists none; a veth has one while up with GRO or XDP on)");
	/* another driver may have NAPIs the dump does not list: its write tells */
	snprintf(d->driver, sizeof(d->driver), "virtio_net");
	assert_int_equal(knob_writable_from(d, &ki, 0, why, sizeof(why)), 1);
	snprintf(d->driver, sizeof(d->driver), "veth");
	/* its provider's other knobs stay writable */
	assert_int_equal(knob_find(d, K_DEFER_HARD_IRQS, "", &ki), 0);
	assert_int_equal(knob_writable_from(d, &ki, 0, why, sizeof(why)), 1);
	/* one NAPI listed: writable again */
	d->napi = &napi;
	d->n_napi = 1;
	assert_false(dev_napi_none(d));
	assert_int_equal(knob_find(d, K_THREADED, "", &ki), 0);
	assert_int_equal(knob_writable_from(d, &ki, 0, why, sizeof(why)), 1);
	d->napi = NULL;
	d->n_napi = 0;
	dev_del(d);
}

static void test_names(void **state)
{
	int k;

	for (k = 0; k < K_NUM; k++) {
		assert_int_equal(knob_by_name(knob_table[k].name), k);
		assert_true(knob_table[k].min <= knob_table[k].max);
	}
	assert_int_equal(knob_by_name("gro_flush_timeout"), -1);
	assert_int_equal(knob_by_name(""), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_bql_min_bound),
		cmocka_unit_test(test_napi_netlink_wins_over_sysfs),
		cmocka_unit_test(test_ethtool_knobs),
		cmocka_unit_test(test_virtio_ring_pow2),
		cmocka_unit_test(test_vqpair_eth_ranges),
		cmocka_unit_test(test_channels_min),
		cmocka_unit_test(test_readback_updates_model),
		cmocka_unit_test(test_write_error_names_knob_not_path),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_writable_verdict),
		cmocka_unit_test(test_writable_threaded),
	};

	return cmocka_run_group_tests_name("knob", tests, NULL, NULL);
}
