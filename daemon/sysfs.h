/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sfs: sysfs under /sys/class/net (Documentation/ABI/testing/sysfs-class-net,
 * sysfs-class-net-queues): active queue counts, BQL per TX queue, and the device-wide NAPI
 * knobs gro_flush_timeout / napi_defer_hard_irqs / threaded. @root is the sysfs mount that
 * shows the device's namespace ("/sys" for the own one, see netns.h).
 */
#ifndef VQ_SYSFS_H
#define VQ_SYSFS_H

#include <stddef.h>
#include <stdint.h>

#include "dev.h"

/* Read one unsigned decimal value. 0, -ENOENT (absent), -EINVAL (not a number) or -errno. */
int sfs_read_u64(const char *path, uint64_t *v);
/* Write one decimal value. 0 or -errno (the kernel's refusal, e.g. -EINVAL). */
int sfs_write_u64(const char *path, uint64_t v);
/*
 * Whether the virtio device behind @ifname negotiated feature bit @bit (include/uapi/linux/
 * virtio_config.h, e.g. VIRTIO_F_RING_PACKED = 34): the "features" attribute of
 * class/net/IFNAME/device under @root, the features the driver negotiated, one '0' or '1'
 * per bit from bit 0, then "\n" (drivers/virtio/virtio.c features_show()). 1 or 0; -ENOENT
 * (no such attribute: not a virtio device), -ERANGE (the string ends before @bit), -EINVAL
 * (not such a string) or -errno.
 */
int sfs_virtio_feature(const char *root, const char *ifname, unsigned int bit);
/*
 * sfs_dev: descriptors of one device's sysfs queue and NAPI files kept open between ticks,
 * so a tick reads each BQL or device-wide NAPI value with one pread() at offset 0 and probes
 * the queue counts with fstatat() on the open queues/ directory, instead of walking the whole
 * path (a kernfs lookup and revalidation per component, most of a tick's CPU) for every
 * value. A sysfs attribute is generated anew by every read at offset 0 (seq_read_iter()
 * restarts there), so a kept descriptor reads the current value. Descriptors name kernfs nodes, not paths: a renamed
 * device keeps them; a removed device or queue fails its reads (-ENODEV), which closes them,
 * and the next read opens by path again. Owned by the struct device (dev.c frees it).
 */
struct sfs_dev;

/* Close every descriptor of @c and free it. NULL is a no-op. */
void sfs_dev_free(struct sfs_dev *c);
/* Open descriptors of @c (tests: that reads reuse them). 0 for NULL. */
unsigned int sfs_dev_open_fds(const struct sfs_dev *c);
/*
 * All devices together keep at most half the soft RLIMIT_NOFILE open (read once; 512 when
 * unreadable); values past that are read by path each tick, as without a cache.
 * sfs_set_keep_budget() sets another budget (tests); sfs_kept_fds() counts those open.
 */
void sfs_set_keep_budget(unsigned int n);
unsigned int sfs_kept_fds(void);

/*
 * Count queues/tx-N and queues/rx-N of @ifname. On entry *n_tx, *n_rx hold the last known
 * counts (0 if none): when both ends still match, no directory is read. @c: the device's
 * cache (*@c made on first use; NULL: none, paths only). 0 or -errno.
 */
int sfs_queue_counts(struct sfs_dev **c, const char *root, const char *ifname,
		     unsigned int *n_tx, unsigned int *n_rx);
/* Path of BQL value @v of TX queue @q. 0 or -ENAMETOOLONG. */
int sfs_bql_path(const char *root, const char *ifname, unsigned int q, enum bqlv v,
		 char *buf, size_t len);
/*
 * Read every BQL value of TX queue @q of @n_tx; *present gets a bit per value read. @c as for
 * sfs_queue_counts(); its descriptors are dropped and opened again when @gen, the device's
 * queue generation (dev.h), differs from the one they were opened in.
 */
void sfs_bql_read(struct sfs_dev **c, const char *root, const char *ifname, uint32_t gen,
		  unsigned int n_tx, unsigned int q, uint64_t out[BQL_NUM], uint32_t *present);
/* Path of the device-wide NAPI knob @v. 0 or -ENAMETOOLONG. */
int sfs_dnapi_path(const char *root, const char *ifname, enum dnapi v, char *buf, size_t len);
/*
 * Read the device-wide NAPI knobs; *present gets a bit per value read. @c as for
 * sfs_queue_counts(): each file is opened once and read with pread() after that; one the
 * kernel lacks (threaded before 5.12) is not looked for again for this device.
 */
void sfs_dnapi_read(struct sfs_dev **c, const char *root, const char *ifname,
		    uint64_t out[DNAPI_NUM], uint32_t *present);

#endif
