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
 * Count queues/tx-N and queues/rx-N of @ifname. On entry *n_tx, *n_rx hold the last known counts on
 * entry (0 if none): when both ends still match, no directory is read. 0 or -errno.
 */
int sfs_queue_counts(const char *root, const char *ifname, unsigned int *n_tx,
		     unsigned int *n_rx);
/* Path of BQL value @v of TX queue @q. 0 or -ENAMETOOLONG. */
int sfs_bql_path(const char *root, const char *ifname, unsigned int q, enum bqlv v,
		 char *buf, size_t len);
/* Read every BQL value of TX queue @q; *present gets a bit per value read. */
void sfs_bql_read(const char *root, const char *ifname, unsigned int q, uint64_t out[BQL_NUM],
		  uint32_t *present);
/* Path of the device-wide NAPI knob @v. 0 or -ENAMETOOLONG. */
int sfs_dnapi_path(const char *root, const char *ifname, enum dnapi v, char *buf, size_t len);
/* Read the device-wide NAPI knobs; *present gets a bit per value read. */
void sfs_dnapi_read(const char *root, const char *ifname, uint64_t out[DNAPI_NUM],
		    uint32_t *present);

#endif
