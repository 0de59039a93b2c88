// SPDX-License-Identifier: GPL-2.0-only
/*
 * knob_io: reading and writing one knob instance through its provider (knob.h
 * knob_read(), knob_write()): BQL and device-NAPI sysfs, netdev-genl per-NAPI, ethtool
 * netlink, the vqpair family. What the instances are, and their ranges, is knob.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dev.h"
#include "knob.h"
#include "knob_prov.h"
#include "netns.h"
#include "nl_ethtool.h"
#include "nl_netdev.h"
#include "sysfs.h"
#include "vqp.h"

/* Store a read-back value of knob @k into the NAPI model @n (the view reads the model). */
static void napi_store(struct ndv_napi *n, enum knob_id k, uint64_t v)
{
	switch (k) {
	case K_DEFER_HARD_IRQS:
		n->defer_hard_irqs = (uint32_t)v;
		break;
	case K_GRO_FLUSH_TIMEOUT:
		n->gro_flush_timeout_ns = v;
		break;
	case K_IRQ_SUSPEND_TIMEOUT:
		n->irq_suspend_timeout_ns = v;
		break;
	case K_THREADED:
		n->threaded = (uint32_t)v;
		break;
	default:
		break;
	}
}

struct napi_find {
	uint32_t id;
	struct ndv_napi n;
	bool found;
};

static int napi_find_cb(const struct ndv_napi *n, void *arg)
{
	struct napi_find *f = arg;

	if (n->id == f->id) {
		f->n = *n;
		f->found = true;
	}
	return 0;
}

static int read_eth(struct device *d, const struct knob_inst *ki, uint64_t *v, char *err,
		    size_t errlen)
{
	uint64_t emax;
	enum knob_prov p;
	int ret;

	if (!d->ns->eth)
		return -EOPNOTSUPP;
	if (ki->prov == KP_ETH_COALESCE)
		ret = eth_coalesce_get(d->ns->eth, d->ifindex, &d->co, err, errlen);
	else if (ki->prov == KP_ETH_RINGS)
		ret = eth_rings_get(d->ns->eth, d->ifindex, &d->rings, err, errlen);
	else
		ret = eth_channels_get(d->ns->eth, d->ifindex, &d->ch, err, errlen);
	if (ret)
		return ret;
	return knob_eth_value(d, ki->k, &p, v, &emax) ? 0 : -EOPNOTSUPP;
}

int knob_read(struct device *d, const struct knob_inst *ki, uint64_t *v, char *err,
	      size_t errlen)
{
	char path[512];
	struct napi_find f = { .id = ki->napi_id };
	int ret;

	err[0] = '\0';
	switch (ki->prov) {
	case KP_SYSFS_BQL:
		if (sfs_bql_path(d->ns->sysfs, d->name, ki->queue, knob_bql[ki->k], path,
				 sizeof(path)))
			return -ENAMETOOLONG;
		ret = sfs_read_u64(path, v);
		/*
		 * Keep the model as fresh as this read: a value read back after a write shows
		 * in the views at once, not at the next sample.
		 */
		if (!ret && ki->queue >= 0 && (unsigned int)ki->queue < d->n_tx)
			d->txq[ki->queue].bql[knob_bql[ki->k]] = *v;
		return ret;
	case KP_SYSFS_NAPI:
		if (sfs_dnapi_path(d->ns->sysfs, d->name, knob_dnapi[ki->k], path, sizeof(path)))
			return -ENAMETOOLONG;
		ret = sfs_read_u64(path, v);
		/* this file is sampled once a second: keep the model as fresh as this read */
		if (!ret)
			d->dnapi[knob_dnapi[ki->k]] = *v;
		return ret;
	case KP_NETDEV_NAPI:
		if (!d->ns->ndv)
			return -EOPNOTSUPP;
		ret = ndv_napi_dump(d->ns->ndv, d->ifindex, napi_find_cb, &f);
		if (ret)
			return ret;
		if (!f.found || !knob_napi_value(&f.n, ki->k, v)) {
			snprintf(err, errlen, "NAPI %u is gone", ki->napi_id);
			return -ENOENT;
		}
		for (unsigned int i = 0; i < d->n_napi; i++)
			if (d->napi[i].id == ki->napi_id)
				napi_store(&d->napi[i], ki->k, *v);
		return 0;
	case KP_VQPAIR: {
		uint32_t v32;

		if (ki->queue < 0)
			return -EINVAL;
		ret = vqp_knob_read(d, ki->queue, knob_vqp[ki->k], &v32, err, errlen);
		if (!ret)
			*v = v32;
		return ret;
	}
	default:
		return read_eth(d, ki, v, err, errlen);
	}
}

/* The provider's write; @err gets the kernel's extack text when it gave one. */
static int prov_write(struct device *d, const struct knob_inst *ki, uint64_t v, char *err,
		      size_t errlen)
{
	char path[512];

	switch (ki->prov) {
	case KP_SYSFS_BQL:
		if (sfs_bql_path(d->ns->sysfs, d->name, ki->queue, knob_bql[ki->k], path,
				 sizeof(path)))
			return -ENAMETOOLONG;
		return sfs_write_u64(path, v);
	case KP_SYSFS_NAPI:
		if (sfs_dnapi_path(d->ns->sysfs, d->name, knob_dnapi[ki->k], path, sizeof(path)))
			return -ENAMETOOLONG;
		return sfs_write_u64(path, v);
	case KP_NETDEV_NAPI:
		if (!d->ns->ndv)
			return -EOPNOTSUPP;
		return ndv_napi_set(d->ns->ndv, ki->napi_id, knob_napi[ki->k], v, err, errlen);
	case KP_ETH_COALESCE:
		return d->ns->eth ? eth_coalesce_set(d->ns->eth, d->ifindex, knob_co[ki->k], v, err,
						     errlen) : -EOPNOTSUPP;
	case KP_ETH_RINGS:
		return d->ns->eth ? eth_rings_set(d->ns->eth, d->ifindex,
						  ki->k == K_RX_RING_SIZE ? ETH_RING_RX : ETH_RING_TX,
						  v, err, errlen) : -EOPNOTSUPP;
	case KP_ETH_CHANNELS:
		return d->ns->eth ? eth_channels_set(d->ns->eth, d->ifindex,
						     ki->k == K_RX_CHANNELS ? ETH_CHAN_RX :
						     ki->k == K_TX_CHANNELS ? ETH_CHAN_TX :
						     ETH_CHAN_COMBINED, v, err, errlen) : -EOPNOTSUPP;
	case KP_VQPAIR:
		/* the caller checked the range (knob_check), so @v fits the u32 attribute */
		if (ki->queue < 0 || v > UINT32_MAX)
			return -EINVAL;
		return vqp_knob_write(d, ki->queue, knob_vqp[ki->k], (uint32_t)v, err, errlen);
	default:
		return -EINVAL;
	}
}

int knob_write(struct device *d, const struct knob_inst *ki, uint64_t v, char *err,
	       size_t errlen)
{
	char why[256] = "";
	int ret;

	err[0] = '\0';
	ret = prov_write(d, ki, v, why, sizeof(why));
	/*
	 * New channel counts make new queues and NAPIs, and a device-wide NAPI value (sysfs) is
	 * copied into every NAPI of the device: smp_news_refresh() reads them again
	 */
	if (!ret && (ki->prov == KP_ETH_CHANNELS || ki->prov == KP_SYSFS_NAPI))
		d->layout_stale = true;
	if (!ret)
		return 0;
	/*
	 * Name the device and the knob, never the file: a sysfs path is under the daemon's
	 * private mount (netns.h), meaningless to whoever reads the message. The name is raw:
	 * whoever shows the message (API reply, event, log) gives it in display form, once.
	 */
	if (!why[0])
		knob_refused_no_napi(d, ki, ret, why, sizeof(why));
	if (!why[0] && ret == -EINVAL)
		/* no extack: the value is inside the range, refused for a reason unsaid */
		snprintf(why, sizeof(why), "%s (the kernel gave no reason: %" PRIu64 " is inside "
			 "the range shown, so the driver takes only some of its values; see the "
			 "driver's documentation)", strerror(-ret), v);
	snprintf(err, errlen, "%s: %s%s%s: %s", d->name, knob_table[ki->k].name,
		 ki->inst[0] ? " " : "", ki->inst, why[0] ? why : strerror(-ret));
	return ret;
}
