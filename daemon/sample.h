/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smp: discovery and per-tick sampling of every device in every watched namespace.
 *
 * Per namespace and tick: one RTM_GETSTATS dump (stats64; the link dump where the kernel
 * lacks it), one qstats dump, one NAPI dump and one queue dump (netdev family, when the
 * kernel has it) and one qdisc dump; a link dump (names, flags) on a link notification or a
 * lost one, else once a minute. Per device: queue counts and BQL from sysfs, `ethtool -S`
 * per-queue counters where qstats are missing, and ethtool coalesce/rings/channels and the
 * device-wide NAPI sysfs knobs at most once a second on a managed device, every 10 s on an
 * observed one, and at once when the queue counts change (a get the driver lacks,
 * EOPNOTSUPP, is not asked again). Counters become rates (rate.h); a generation change or
 * reset marks the interval invalid.
 */
#ifndef VQ_SAMPLE_H
#define VQ_SAMPLE_H

#include <stdbool.h>

struct device;
struct netns;

/* Globs (fnmatch) of own-namespace devices to manage; others there are observed only. */
void smp_set_manage(const char *const *globs, unsigned int n);
/* Re-dump the links of @ns: add, rename and remove devices; no rates. 0 or -errno. */
int smp_discover(struct netns *ns);
/*
 * Read again now, between ticks, what news says changed on @d since its last sample, so the
 * views and a set that follows see what the kernel has. Its namespace's settings news is
 * drained first. Its ethtool settings (coalesce, rings, channels) after news of a change to
 * them. Its queue layout after news of a channels change, a link notification, or the
 * daemon's own write of a channel count (knob_write() marks it): its queue counts (sysfs),
 * its NAPIs and the NAPI of each queue (netdev family NAPI_GET and QUEUE_GET dumps of its
 * ifindex), not a NAPI that the change deleted; new counts start a new generation (the
 * queues' rates come with the next tick) and read the settings too. Nothing is read for a
 * device without such news.
 */
void smp_news_refresh(struct device *d);
/*
 * Sample every device of every watched namespace. First, a watched namespace that was
 * deleted (netns_gone()) is dropped: the knobs vqtune changed there restored
 * (act_restore_netns()), its devices deleted from the model, its handles released, an
 * event; one given with --netns that exists again is watched again (netns_revive()). Last,
 * act_sweep(): journal entries follow devices that moved between watched namespaces.
 */
void smp_tick(void);

#endif
