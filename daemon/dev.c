// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "ethstats.h"
#include "netns.h"
#include "sysfs.h"
#include "util.h"
#include "vqp.h"

/* Lookups happen per device per dump: a hash keeps a 1,000-device tick linear overall */
#define DEV_HASH_BUCKETS	1024

static struct device *devs;
static unsigned int n_devs;
static uint64_t set_gen;		/* dev_set_gen() */
static struct device *hash[DEV_HASH_BUCKETS];

static unsigned int dev_hash(const struct netns *ns, int ifindex)
{
	return ((uintptr_t)ns / sizeof(void *) * 31u + (unsigned int)ifindex) % DEV_HASH_BUCKETS;
}

struct device *dev_first(void)
{
	return devs;
}

unsigned int dev_count(void)
{
	return n_devs;
}

uint64_t dev_set_gen(void)
{
	return set_gen;
}

struct device *dev_lookup(const struct netns *ns, int ifindex)
{
	struct device *d;

	for (d = hash[dev_hash(ns, ifindex)]; d; d = d->hnext)
		if (d->ns == ns && d->ifindex == ifindex)
			return d;
	return NULL;
}

struct device *dev_add(struct netns *ns, int ifindex)
{
	struct device *d = calloc(1, sizeof(*d)), **pp;

	if (!d)
		return NULL;
	d->ns = ns;
	d->ifindex = ifindex;
	d->gen = 1;
	d->virtio_packed = -1;
	memset(d->napi_rxq, 0xff, sizeof(d->napi_rxq));
	/* keep the list sorted by (namespace order, ifindex) for stable output */
	for (pp = &devs; *pp; pp = &(*pp)->next) {
		struct device *o = *pp;

		if (o->ns == ns ? o->ifindex > ifindex : strcmp(o->ns->name, ns->name) > 0)
			break;
	}
	d->next = *pp;
	*pp = d;
	d->hnext = hash[dev_hash(ns, ifindex)];
	hash[dev_hash(ns, ifindex)] = d;
	n_devs++;
	set_gen++;
	return d;
}

void dev_del(struct device *d)
{
	struct device **pp;

	for (pp = &devs; *pp; pp = &(*pp)->next) {
		if (*pp == d) {
			*pp = d->next;
			n_devs--;
			set_gen++;
			break;
		}
	}
	for (pp = &hash[dev_hash(d->ns, d->ifindex)]; *pp; pp = &(*pp)->hnext) {
		if (*pp == d) {
			*pp = d->hnext;
			break;
		}
	}
	ets_map_free(d->ets);
	vqp_dev_free(d->vqp);
	sfs_dev_free(d->sfs);
	free(d->txq);
	free(d->rxq);
	free(d->napi);
	free(d->ctl);
	free(d);
}

int dev_set_queues(struct device *d, unsigned int n_tx, unsigned int n_rx)
{
	struct queue *tx, *rx;
	unsigned int i;

	if (n_tx > DEV_MAX_QUEUES)
		n_tx = DEV_MAX_QUEUES;
	if (n_rx > DEV_MAX_QUEUES)
		n_rx = DEV_MAX_QUEUES;
	if (d->txq && d->rxq && n_tx == d->n_tx && n_rx == d->n_rx)
		return 0;
	tx = calloc(n_tx ? n_tx : 1, sizeof(*tx));
	rx = calloc(n_rx ? n_rx : 1, sizeof(*rx));
	if (!tx || !rx) {
		free(tx);
		free(rx);
		return -ENOMEM;
	}
	/* a first allocation is generation 1; every later change starts a new one */
	if (d->txq || d->rxq)
		d->gen++;
	free(d->txq);
	free(d->rxq);
	/* no qdisc backlog known until the next qdisc dump (tcq.h) */
	for (i = 0; i < (n_tx ? n_tx : 1); i++)
		tx[i].qdisc_backlog_bytes = tx[i].qdisc_qlen = NAN;
	for (i = 0; i < (n_rx ? n_rx : 1); i++)
		rx[i].qdisc_backlog_bytes = rx[i].qdisc_qlen = NAN;
	d->txq = tx;
	d->rxq = rx;
	d->n_tx = n_tx;
	d->n_rx = n_rx;
	return 0;
}

const struct ndv_napi *dev_napi_by_id(const struct device *d, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < d->n_napi; i++)
		if (d->napi[i].id == id)
			return &d->napi[i];
	return NULL;
}

bool dev_napi_none(const struct device *d)
{
	return d->napi_listed && !d->n_napi;
}

const struct ndv_napi *dev_napi_by_queue(const struct device *d, unsigned int q)
{
	if (q < d->n_rx && d->rxq[q].napi_id)
		return dev_napi_by_id(d, d->rxq[q].napi_id);
	return NULL;
}

void dev_fini(void)
{
	while (devs)
		dev_del(devs);
}

const char *dev_name_match(const struct device *d, const char *name)
{
	char raw[IFNAMSIZ * 4];

	if (!strcmp(d->name, name))
		return "raw name";
	/* the display form ("ve\xff0") names the same bytes */
	if (!util_name_parse(name, raw, sizeof(raw)) && !strcmp(d->name, raw))
		return "display form";
	return NULL;
}

int dev_sel_split(const char *sel, struct netns **ns, const char **name)
{
	const char *colon = strrchr(sel, ':');
	char nsname[NETNS_NAME_MAX];
	size_t len = colon ? (size_t)(colon - sel) : 0;

	*ns = NULL;
	*name = colon ? colon + 1 : sel;
	if (!colon)
		return 0;
	if (len >= sizeof(nsname))
		return -ENOENT;
	memcpy(nsname, sel, len);
	nsname[len] = '\0';
	*ns = netns_find(nsname);
	return *ns ? 0 : -ENOENT;
}

struct device *dev_resolve(const char *sel, int *err)
{
	const char *name;
	struct netns *ns;
	struct device *d, *found = NULL;

	*err = dev_sel_split(sel, &ns, &name);
	if (*err)
		return NULL;
	dev_for_each(d) {
		if ((ns && d->ns != ns) || !dev_name_match(d, name))
			continue;
		if (found) {
			*err = -EEXIST;
			return NULL;
		}
		found = d;
	}
	*err = found ? 0 : -ENOENT;
	return found;
}
