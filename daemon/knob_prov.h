/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knob_prov: what knob.c (the instances) and knob_io.c (their reads and writes) share about
 * the providers: each knob's attribute in its provider's own numbering, and the values a
 * device's model holds. Internal to those two files.
 */
#ifndef VQ_KNOB_PROV_H
#define VQ_KNOB_PROV_H

#include <stdbool.h>
#include <stdint.h>

#include "dev.h"
#include "knob.h"
#include "nl_ethtool.h"
#include "nl_netdev.h"

/* Each knob's attribute in its provider; 0 (or -1 in knob_dnapi) for the other knobs. */
extern const int knob_vqp[K_NUM];			/* VQPAIR_KNOB_* (include/vqpair.h) */
extern const enum bqlv knob_bql[K_NUM];			/* byte_queue_limits/ file */
extern const int knob_dnapi[K_NUM];			/* device-wide NAPI sysfs file */
extern const enum ndv_napi_knob knob_napi[K_NUM];	/* netdev.yaml napi-set attribute */
extern const enum eth_co knob_co[K_NUM];		/* ethtool coalesce attribute */

/* Whether NAPI @n reports knob @k (a NAPI-scope knob), and its value in *@v. */
bool knob_napi_value(const struct ndv_napi *n, enum knob_id k, uint64_t *v);

/*
 * Device-scope ethtool knob @k: true when the driver reports it, with its provider in *@p,
 * its value in *@v and, for rings and channels, the driver's maximum in *@max.
 */
bool knob_eth_value(const struct device *d, enum knob_id k, enum knob_prov *p, uint64_t *v,
		    uint64_t *max);

#endif
