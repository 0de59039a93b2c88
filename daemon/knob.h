/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knob: the table of every knob vqtuned can read and write, and its instances on a device.
 *
 * A knob has a name (the kernel's/ethtool's word), a scope (device, queue = a TX queue,
 * napi = one NAPI instance), a unit, a range checked before the kernel sees a value, and a
 * provider that reads and writes it. Capabilities are probed per device: a knob the device
 * lacks has no instance ("unsupported" is not an error). NAPI knobs use per-NAPI netlink
 * (NAPI_SET, 6.13+) when the kernel reports the attribute per NAPI, else the device-wide
 * sysfs file; never both on one device. The vqpair knobs without a standard interface
 * (tx-full-mode, tx-napi, napi-weight, busyloop-us, backend-weight, zerocopy*) are queue
 * knobs "tx-N" (N = vqpair queue id) of a pair's FRONT, read and written over the vqpair
 * genl family (vqp.h); their ring size and coalescing stay with the ethtool providers.
 */
#ifndef VQ_KNOB_H
#define VQ_KNOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct device;

enum knob_id {
	K_BQL_LIMIT_MIN,
	K_BQL_LIMIT_MAX,
	K_BQL_HOLD_TIME,
	K_DEFER_HARD_IRQS,
	K_GRO_FLUSH_TIMEOUT,
	K_IRQ_SUSPEND_TIMEOUT,
	K_THREADED,
	K_RX_USECS,
	K_RX_FRAMES,
	K_TX_USECS,
	K_TX_FRAMES,
	K_ADAPTIVE_RX,
	K_ADAPTIVE_TX,
	K_RX_RING_SIZE,
	K_TX_RING_SIZE,
	K_RX_CHANNELS,
	K_TX_CHANNELS,
	K_COMBINED_CHANNELS,
	/* vqpair (include/vqpair.h VQPAIR_KNOBS), per queue, on the FRONT of a pair only */
	K_TX_FULL_MODE,
	K_TX_NAPI,
	K_NAPI_WEIGHT,
	K_BUSYLOOP_US,
	K_BACKEND_WEIGHT,
	K_ZEROCOPY,
	K_ZEROCOPY_MIN_BYTES,
	K_ZEROCOPY_MAX_PENDING,
	K_NUM
};

enum knob_scope { KS_DEVICE, KS_QUEUE, KS_NAPI };

enum knob_prov {
	KP_SYSFS_BQL,
	KP_SYSFS_NAPI,
	KP_NETDEV_NAPI,
	KP_ETH_COALESCE,
	KP_ETH_RINGS,
	KP_ETH_CHANNELS,
	KP_VQPAIR,		/* vqpair genl KNOB_SET / QSTATS_GET (vqp.h) */
};

struct knob_desc {
	const char *name;
	const char *unit;		/* "bytes", "ms", "ns", "us", "frames", "count", "bool", ...;
					 * vqpair knobs carry VQPAIR_KNOBS' units ("pkts", "enum") */
	uint64_t min, max;		/* static range; rings/channels narrow it per device
					 * (rx-/tx-channels: min 0 with combined channels) */
	bool disruptive;		/* the driver may reset the queues: needs consent */
	const char *help;
};

extern const struct knob_desc knob_table[K_NUM];

/* Knob id by name, or -1. */
int knob_by_name(const char *name);
const char *knob_scope_name(enum knob_scope s);
const char *knob_prov_name(enum knob_prov p);

/*
 * A constraint of the driver on a knob's values beyond its range, checked by knob_check()
 * before the kernel sees a value (docs/api.md "rule").
 */
enum knob_rule {
	KR_NONE,
	/*
	 * virtio_net ring sizes: virtqueue_resize() -> vring_alloc_queue_split()
	 * (drivers/virtio/virtio_ring.c) refuses a split virtqueue length that is not a
	 * power of two with a bare -EINVAL. Packed virtqueues (vring_alloc_queue_packed())
	 * take any length: a device that negotiated VIRTIO_F_RING_PACKED (dev.h
	 * virtio_packed) has no rule; one whose layout could not be read keeps it, which
	 * both layouts take.
	 */
	KR_POW2,
};

/* One place a knob lives on a device. */
struct knob_inst {
	enum knob_id k;
	enum knob_scope scope;
	enum knob_prov prov;
	int queue;			/* TX queue (scope queue), RX queue of a NAPI, or -1 */
	uint32_t napi_id;		/* scope napi only */
	char inst[24];			/* "" (device), "tx-N", "napi-ID" */
	uint64_t min, max;		/* effective range on this device */
	enum knob_rule rule;		/* the driver's constraint within [min, max] */
	bool has_value;
	uint64_t value;			/* from the latest sample */
};

/* Instances of @k on @d, at most @max into @out; returns how many exist (may exceed @max). */
unsigned int knob_instances(const struct device *d, enum knob_id k, struct knob_inst *out,
			    unsigned int max);
/* Whether @k is a NAPI knob (defer-hard-irqs, gro-flush-timeout, irq-suspend-timeout,
 * threaded). */
bool knob_is_napi(enum knob_id k);
/*
 * The device-wide instance ("") of the NAPI knob @k through the device's sysfs file
 * (KP_SYSFS_NAPI), also where knob_instances() lists per-NAPI instances instead (a veth that
 * gained a NAPI): writing it sets every NAPI of the device (net-sysfs.c). 0, or -ENOENT when
 * @k is no NAPI knob or the device has no such file.
 */
int knob_device_napi(const struct device *d, enum knob_id k, struct knob_inst *out);
/*
 * The per-NAPI instance ("napi-@napi_id", through the netdev family's napi-set) of the NAPI
 * knob @k, for a NAPI the device's last sample may not list yet (a channel change since);
 * no value: knob_read() asks the kernel, -ENOENT when it lists no such NAPI.
 */
void knob_napi_inst(enum knob_id k, uint32_t napi_id, int queue, struct knob_inst *out);
/* The instance named @inst ("" for device scope). 0 or -ENOENT. */
int knob_find(const struct device *d, enum knob_id k, const char *inst, struct knob_inst *out);
/*
 * Range and rule check: 0, or -ERANGE with a message naming the knob, the value and the
 * bound or rule in @err ("value: 3 is not a power of two, which tx-ring-size must be on
 * this driver (nearest: 2 or 4)").
 */
int knob_check(const struct knob_inst *ki, uint64_t v, char *err, size_t errlen);
/* The rule in words for messages and the API ("power of two"), or NULL for KR_NONE. */
const char *knob_rule_name(enum knob_rule r);
/*
 * The value nearest @v on the way back to @from (both in [ki->min, ki->max]) that the
 * rule allows: a step the controller bounded never grows by being fitted. @from itself
 * when nothing allowed lies between. Without a rule, @v.
 */
uint64_t knob_fit(const struct knob_inst *ki, uint64_t v, uint64_t from);
/*
 * Whether @ki can be written on @d: 1, or 0 with the reason in @why (one clause, no device
 * or knob name: "the tun driver cannot change its channel counts (no ethtool set_channels)").
 * An unmanaged device is never written ("device not managed: observed read-only"). For the
 * ethtool providers the kernel is asked with eth_set_probe() (a SET that changes nothing),
 * so a driver without the set operation (vqpair, tun for channels) is known before any
 * write; any answer but -EOPNOTSUPP leaves the knob writable and lets the write tell. The
 * device-wide threaded (sysfs) of a veth known to have no NAPI (dev_napi_none(), asked
 * again here with a NAPI_GET dump of the device) is read-only: the kernel refuses it.
 */
int knob_writable(struct device *d, const struct knob_inst *ki, char *why, size_t whylen);
/*
 * The probe knob_writable() makes: for an ethtool provider of a managed device, the
 * changing-nothing SET's answer (0 or -errno); 0 for the others, which are not asked. The
 * same for every knob of one provider on one device.
 */
int knob_set_probe(struct device *d, const struct knob_inst *ki);
/*
 * knob_writable() with the probe's answer given (@probe_err, knob_set_probe()'s, asked once
 * for a view of all a device's knobs); a NAPI_GET dump is still made for a veth's threaded
 * with no NAPI at the last sample, so a view says what a set would find.
 */
int knob_writable_probed(struct device *d, const struct knob_inst *ki, int probe_err,
			 char *why, size_t whylen);
/*
 * Whether the write of @ki on @d that failed with @err (-errno) was the kernel refusing a
 * veth's threaded for want of a NAPI (net-sysfs.c's threaded store: EOPNOTSUPP while the
 * device's NAPI list is empty; a veth has a NAPI only with GRO or XDP on). Asked of the
 * kernel with a NAPI_GET dump, since GRO may have gone off after the last sample; true puts
 * knob_writable()'s reason in @why.
 */
bool knob_refused_no_napi(struct device *d, const struct knob_inst *ki, int err, char *why,
			  size_t whylen);
/*
 * The verdict of knob_writable() for a probe answer @probe_err (0 or -errno) and the NAPIs
 * of the last sample; no I/O.
 */
int knob_writable_from(const struct device *d, const struct knob_inst *ki, int probe_err,
		       char *why, size_t whylen);
/* Read the value from the kernel now. 0 or -errno (message in @err). */
int knob_read(struct device *d, const struct knob_inst *ki, uint64_t *v, char *err,
	      size_t errlen);
/*
 * Write @v (already range-checked). 0, or -errno with @err naming the device (its raw name:
 * whoever shows @err puts it in display form, once), the knob and its instance, then the
 * kernel's extack text or, without one, the errno text:
 * "vb: threaded: Operation not supported", "vb: defer-hard-irqs napi-8193: <extack>".
 * An EINVAL without extack text gets a hint instead of the bare errno text: the driver
 * refused a value inside the range shown, for a reason of its own it did not say.
 * Never a file path (sysfs knobs live under the daemon's private mount, netns.h).
 */
int knob_write(struct device *d, const struct knob_inst *ki, uint64_t v, char *err,
	       size_t errlen);

#endif
