// SPDX-License-Identifier: GPL-2.0
/*
 * vqpair fault injection for tests, in debugfs only (never in the genl API the daemon uses),
 * as netdevsim does: /sys/kernel/debug/vqpair/<pair-id>/q<N>/
 *   completion_delay_us  hold every TX completion of the queue back this long
 *   zc_hold_us           hold only zerocopy completions back this long after the buffer's
 *                        release, as a slow downstream consumer holding the pages does;
 *                        completions are in order, so copies behind it wait too (vhost_net's
 *                        zerocopy head-of-line stall)
 *   stall                1: the backend worker stops consuming (a stalled consumer)
 *   drop_ppm             the backend drops packets with this probability (per million)
 *   line_rate_mbit       the backend takes packets off the TX ring at most at this rate
 *                        (Mbit/s of skb->len; 0, the default: as fast as its CPU allows), as
 *                        the NIC behind a real backend has a line rate: the ring then fills
 *                        as a NIC's does, and BQL decides how much of it the driver holds
 * <pair-id> is VQPAIR_A_PAIR_ID of the pair (genl PAIR_GET).
 */
#include <linux/debugfs.h>
#include "vqpair_priv.h"

static struct dentry *vqp_dbg_root;

void vqp_debugfs_init(void)
{
	vqp_dbg_root = debugfs_create_dir("vqpair", NULL);
}

void vqp_debugfs_exit(void)
{
	debugfs_remove_recursive(vqp_dbg_root);
}

void vqp_debugfs_add(struct vqp_pair *pair)
{
	char name[16];
	int i;

	snprintf(name, sizeof(name), "%u", pair->id);
	pair->dbg = debugfs_create_dir(name, vqp_dbg_root);
	for (i = 0; i < pair->nq; i++) {
		struct vqp_queue *q = &pair->q[i];
		struct dentry *d;

		snprintf(name, sizeof(name), "q%d", i);
		d = debugfs_create_dir(name, pair->dbg);
		debugfs_create_u32("completion_delay_us", 0600, d, &q->fault_delay_us);
		debugfs_create_u32("zc_hold_us", 0600, d, &q->fault_zc_hold_us);
		debugfs_create_u32("stall", 0600, d, &q->fault_stall);
		debugfs_create_u32("drop_ppm", 0600, d, &q->fault_drop_ppm);
		debugfs_create_u32("line_rate_mbit", 0600, d, &q->line_rate_mbit);
	}
}

void vqp_debugfs_del(struct vqp_pair *pair)
{
	debugfs_remove_recursive(pair->dbg);
	pair->dbg = NULL;
}
