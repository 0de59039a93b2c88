// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: knob writes through the journal (act.h): set, release, pin, writes by someone else,
 * devices that move between namespaces, and restore. The journal file and the state dir
 * are in act_journal.c, the event log in act_event.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "act.h"
#include "act_priv.h"
#include "dev.h"
#include "log.h"
#include "netns.h"
#include "util.h"

/*
 * Sweeps a changed knob's device may be missing before that is reported: a move between two
 * watched namespaces shows as a deletion in one and, possibly a notification later, an
 * appearance in the other.
 */
#define ACT_MISSING_SWEEPS	2

static bool entry_is(const struct entry *e, const struct device *d, enum knob_id k,
		     const char *inst)
{
	return e->ifindex == d->ifindex && !strcmp(e->netns, d->ns->name) && e->k == k &&
	       (!inst || !strcmp(e->inst, inst));
}

static struct entry *entry_find(const struct device *d, enum knob_id k, const char *inst)
{
	unsigned int i;

	for (i = 0; i < act_n_entries; i++)
		if (entry_is(&act_entries[i], d, k, inst))
			return &act_entries[i];
	return NULL;
}

static void entry_remove(struct entry *e)
{
	unsigned int i = e - act_entries;

	memmove(e, e + 1, (act_n_entries - i - 1) * sizeof(*e));
	act_n_entries--;
}

static struct entry *entry_new(const struct device *d, const struct knob_inst *ki)
{
	struct entry *e;

	if (act_n_entries == act_cap_entries) {
		unsigned int cap = act_cap_entries ? 2 * act_cap_entries : 16;
		struct entry *n = realloc(act_entries, cap * sizeof(*n));

		if (!n)
			return NULL;
		act_entries = n;
		act_cap_entries = cap;
	}
	e = &act_entries[act_n_entries++];
	memset(e, 0, sizeof(*e));
	snprintf(e->netns, sizeof(e->netns), "%s", d->ns->name);
	e->ifindex = d->ifindex;
	memcpy(e->device, d->name, sizeof(e->device));
	e->k = ki->k;
	snprintf(e->inst, sizeof(e->inst), "%s", ki->inst);
	e->queue = ki->queue;
	e->napi_id = ki->napi_id;
	return e;
}

/*
 * act_set() of the value the knob already holds: nothing is written and no original saved
 * (a restore would owe nothing for it), but a manual set still pins the knob, and the event
 * says the value was already set, so the journal never shows a change that did not happen.
 */
static enum act_result set_unchanged(struct device *d, const struct knob_inst *ki,
				     struct entry *e, uint64_t v, enum act_who who, bool pin,
				     const char *reason, uint64_t *oldv, uint64_t *newv, char *err)
{
	err[0] = '\0';
	/* as after a write read back: the value vqtune last saw, so no "outside" write shows */
	e->written = v;
	if (pin) {
		e->pinned = true;
		e->pin_who = who;
	} else if (!e->changed && !e->pinned) {
		entry_remove(e);
	}
	act_event(ACT_DEV(d), knob_table[ki->k].name, ki->inst, ki->queue, &v, &v, who,
		  "%s: already %" PRIu64 ", nothing written%s", reason, v, pin ? " (pinned)" : "");
	*oldv = v;
	*newv = v;
	return ACT_OK;
}

enum act_result act_set(struct device *d, const struct knob_inst *ki, uint64_t v,
			enum act_who who, bool pin, const char *reason, uint64_t *oldv,
			uint64_t *newv, char *err, size_t errlen)
{
	const char *kname = knob_table[ki->k].name;
	struct entry *e;
	bool fresh = false;
	uint64_t old, rb;
	int ret;

	if (knob_check(ki, v, err, errlen))
		return ACT_ERANGE;
	ret = knob_read(d, ki, &old, err, errlen);
	if (ret) {
		char why[256];

		/* named like knob_write()'s errors: device (raw), knob, instance, then why */
		snprintf(why, sizeof(why), "%s", err[0] ? err : strerror(-ret));
		snprintf(err, errlen, "%s: %s%s%s: cannot read: %s", d->name, kname,
			 ki->inst[0] ? " " : "", ki->inst, why);
		return ACT_EREAD;
	}
	e = entry_find(d, ki->k, ki->inst);
	if (!e) {
		e = entry_new(d, ki);
		if (!e)
			return ACT_ENOMEM;
		fresh = true;
	}
	if (old == v)
		return set_unchanged(d, ki, e, v, who, pin, reason, oldv, newv, err);
	/*
	 * Write-ahead: the original (first change) and the value about to be written are on
	 * disk before the kernel sees it, so a crash between the two leaves nothing unowned.
	 */
	if (!e->changed) {
		e->original = old;
		e->written = old;
		e->changed = true;
		e->seq = act_next_seq++;
	}
	e->pending = v;
	e->has_pending = true;
	ret = act_journal_save();
	if (ret) {
		snprintf(err, errlen, "cannot save the journal before the write: %s",
			 strerror(-ret));
		e->has_pending = false;
		if (e->written == e->original && old == e->original) {
			e->changed = false;
			if (fresh)
				entry_remove(e);
		}
		return ACT_EJOURNAL;
	}
	ret = knob_write(d, ki, v, err, errlen);
	e->has_pending = false;
	if (ret) {
		if (!err[0])
			snprintf(err, errlen, "%s", strerror(-ret));
		act_event(ACT_DEV(d), kname, ki->inst, ki->queue, &old, &v, WHO_ERROR, "%s refused: %s",
			  reason, err[0] ? err : strerror(-ret));
		if (e->written == e->original && e->changed && old == e->original) {
			/* nothing changed: the journal owes nothing for this instance */
			e->changed = false;
			if (!e->pinned)
				entry_remove(e);
			act_journal_save();
		}
		return ACT_EKERNEL;
	}
	if (knob_read(d, ki, &rb, err, errlen))
		rb = v;
	err[0] = '\0';
	e->written = rb;
	if (pin) {
		e->pinned = true;
		e->pin_who = who;
	}
	act_journal_save();
	if (rb != v)
		act_event(ACT_DEV(d), kname, ki->inst, ki->queue, &old, &rb, who,
			  "%s (asked %" PRIu64 ", the driver kept %" PRIu64 ")", reason, v, rb);
	else
		act_event(ACT_DEV(d), kname, ki->inst, ki->queue, &old, &rb, who, "%s", reason);
	*oldv = old;
	*newv = rb;
	return ACT_OK;
}

int act_release(struct device *d, enum knob_id k, const char *inst)
{
	unsigned int i = 0;
	int n = 0;

	while (i < act_n_entries) {
		struct entry *e = &act_entries[i];

		if (!entry_is(e, d, k, inst) || !e->pinned) {
			i++;
			continue;
		}
		e->pinned = false;
		n++;
		act_event(ACT_DEV(d), knob_table[k].name, e->inst, e->queue, NULL, NULL, WHO_MANUAL,
			  "pin released");
		if (!e->changed)
			entry_remove(e);
		else
			i++;
	}
	return n;
}

/*
 * The device-wide entry ("") that also stands for @inst, a per-NAPI instance of the NAPI knob
 * @k: that write set every NAPI the device had. NULL for any other instance.
 */
static const struct entry *entry_napi_wide(const struct device *d, enum knob_id k,
					   const char *inst)
{
	return inst[0] && knob_is_napi(k) ? entry_find(d, k, "") : NULL;
}

bool act_pinned(const struct device *d, enum knob_id k, const char *inst)
{
	const struct entry *e = entry_find(d, k, inst);

	if (!(e && e->pinned))
		e = entry_napi_wide(d, k, inst);
	return e && e->pinned;
}

bool act_original(const struct device *d, enum knob_id k, const char *inst, uint64_t *orig)
{
	const struct entry *e = entry_find(d, k, inst);

	if (!(e && e->changed))
		e = entry_napi_wide(d, k, inst);
	if (!e || !e->changed)
		return false;
	*orig = e->original;
	return true;
}

unsigned int act_changed_count(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < act_n_entries; i++)
		n += act_entries[i].changed;
	return n;
}

/*
 * An entry of a previous run's journal whose knob holds its original already, at its first
 * read: a restore the journal did not record (its save failed on a full state dir, or
 * vqtuned died between the writes and the save), or a writer that put it back while no
 * vqtuned ran. Nothing is owed and no one is fought: true, logged, for the caller to drop
 * it, where an "outside" event would report a write nobody made and pin the knob.
 */
static bool entry_settled(struct entry *e, uint64_t value)
{
	char shown[4 * IFNAMSIZ + 1];
	bool settled = e->unseen && e->changed && value == e->original;

	e->unseen = false;
	if (!settled)
		return false;
	util_name_display(e->device, shown, sizeof(shown));
	log_info("journal: netns '%s' %s %s %s holds its original %" PRIu64 " already (restored "
		 "after the journal's last save): nothing owed", e->netns, shown,
		 knob_table[e->k].name, e->inst, e->original);
	return true;
}

void act_check_outside(struct device *d)
{
	struct knob_inst ki;
	unsigned int i;
	bool dirty = false;

	i = 0;
	while (i < act_n_entries) {
		struct entry *e = &act_entries[i++];
		uint64_t was = e->written;

		if (e->ifindex != d->ifindex || strcmp(e->netns, d->ns->name))
			continue;
		memcpy(e->device, d->name, sizeof(e->device));	/* follow renames */
		if (knob_find(d, e->k, e->inst, &ki) || !ki.has_value)
			continue;
		if (entry_settled(e, ki.value)) {
			entry_remove(e);
			i--;	/* the next entry moved into its slot */
			dirty = true;
			continue;
		}
		if (ki.value == e->written)
			continue;
		if (e->has_pending && ki.value == e->pending) {
			/* our own write, landed before a crash kept the journal from saying so */
			e->written = ki.value;
			e->has_pending = false;
			dirty = true;
			continue;
		}
		/* someone else wrote it: their value wins, we stop owning it */
		e->written = ki.value;
		e->pinned = true;
		e->pin_who = WHO_OUTSIDE;
		if (e->changed) {
			e->changed = false;
			dirty = true;
		}
		act_event(ACT_DEV(d), knob_table[e->k].name, e->inst, e->queue, &was, &ki.value, WHO_OUTSIDE,
			  "written by someone else: pinned, not fought, no longer restored by vqtune");
	}
	if (dirty)
		act_journal_save();
}

/*
 * The instance an entry names now; a NAPI re-created with a new id is found by its queue,
 * and a device-wide NAPI knob written before the device had a NAPI (a veth, GRO off) through
 * its sysfs file, which stays there when per-NAPI instances are listed instead.
 */
static int entry_inst(struct device *d, const struct entry *e, struct knob_inst *ki)
{
	struct knob_inst all[DEV_MAX_QUEUES];
	unsigned int n, i;

	if (!knob_find(d, e->k, e->inst, ki))
		return 0;
	if (!e->inst[0] && !knob_device_napi(d, e->k, ki))
		return 0;
	if (e->napi_id && e->queue >= 0) {
		n = knob_instances(d, e->k, all, DEV_MAX_QUEUES);
		for (i = 0; i < n && i < DEV_MAX_QUEUES; i++) {
			if (all[i].queue == e->queue) {
				*ki = all[i];
				return 0;
			}
		}
	}
	return -ENOENT;
}

/*
 * Where the device of @e is now: at (netns, ifindex), where it was journalled; or, once it
 * is gone from there, the one managed device of the same name in a watched namespace whose
 * instance of the knob still holds what vqtune wrote (`ip link set dev X netns B` keeps a
 * device's settings; a new device of that name does not hold them). The entry then follows
 * it there (journalled, a "daemon" event). NULL when there is no such device (or several),
 * with the reason in @why.
 */
static struct device *entry_locate(struct entry *e, char *why, size_t whylen)
{
	struct netns *ns = netns_find(e->netns);
	struct device *d = ns ? dev_lookup(ns, e->ifindex) : NULL, *c, *found = NULL;
	const char *kname = knob_table[e->k].name, *name = e->device;	/* raw, as in events */
	struct knob_inst ki, fki;
	unsigned int n = 0;

	/* identity is (netns, ifindex): ifindexes are allocated cyclically, not reused soon */
	if (d)
		return d;
	snprintf(why, whylen, "%s is not in any watched namespace", name);
	dev_for_each(c) {
		if (!c->managed || strcmp(c->name, e->device))
			continue;
		if (entry_inst(c, e, &ki) || !ki.has_value) {
			snprintf(why, whylen, "the %s in netns '%s' has no %s %s", name,
				 c->ns->name, kname, e->inst);
			continue;
		}
		if (ki.value != e->written && !(e->has_pending && ki.value == e->pending)) {
			snprintf(why, whylen, "the %s in netns '%s' has %s %" PRIu64 ", not the %"
				 PRIu64 " vqtune wrote: another device", name, c->ns->name, kname,
				 ki.value, e->written);
			continue;
		}
		if (entry_find(c, e->k, ki.inst))
			continue;	/* journalled for itself: not the one that left */
		found = c;
		fki = ki;
		n++;
	}
	if (n != 1) {
		if (n)
			snprintf(why, whylen, "%u managed devices named %s hold vqtune's value", n,
				 name);
		return NULL;
	}
	act_event(ACT_DEV(found), kname, fki.inst, fki.queue, NULL, &e->original, WHO_DAEMON,
		  "the journal follows %s from netns '%s' ifindex %d to netns '%s' ifindex %d: "
		  "the original %" PRIu64 " is owed there now", name, e->netns, e->ifindex,
		  found->ns->name, found->ifindex, e->original);
	snprintf(e->netns, sizeof(e->netns), "%s", found->ns->name);
	e->ifindex = found->ifindex;
	snprintf(e->inst, sizeof(e->inst), "%s", fki.inst);
	e->queue = fki.queue;
	e->napi_id = fki.napi_id;
	act_journal_save();
	return found;
}

/*
 * Whether @e's device was deleted (netns_link_deleted(): the kernel said so, and it did not
 * move to another namespace) and nothing is at its ifindex now: its knobs went with it.
 */
static bool entry_deleted(const struct entry *e)
{
	struct netns *ns = netns_find(e->netns);

	return ns && !dev_lookup(ns, e->ifindex) && netns_link_deleted(ns, e->ifindex);
}

/* The event that drops @e, whose device was deleted (entry_deleted()): nothing is owed. */
static void entry_deleted_event(const struct entry *e)
{
	act_event(e->netns, e->device, knob_table[e->k].name, e->inst, e->queue, &e->written, NULL,
		  WHO_RESTORE, "%s was deleted from netns '%s' (ifindex %d), not moved to another "
		  "namespace: the knob went with it, nothing to restore (original %" PRIu64 ")",
		  e->device, e->netns, e->ifindex, e->original);
}

/*
 * @e's NAPI is gone from the kernel's list. On a device that is up, the NAPIs that replaced
 * it (a channel change, a down and up) took the device's values (netif_napi_add() copies
 * gro_flush_timeout and napi_defer_hard_irqs from the device; a driver with persistent NAPI
 * config brings the same id back with the queue): nothing is owed, 1 with an event. On a
 * device that is down the NAPI may come back with what vqtune wrote: -EAGAIN, kept.
 */
static int restore_napi_gone(struct device *d, struct entry *e, char *err, size_t errlen)
{
	/* replaced (a down and up), removed (fewer channels) or none left (a veth, GRO off) */
	if (d->flags & IFF_UP) {
		act_event(ACT_DEV(d), knob_table[e->k].name, e->inst, e->queue, NULL, NULL,
			  WHO_RESTORE, "%s is gone and the device is up: a NAPI takes the device's "
			  "value when it is made, nothing to restore", e->inst);
		return 1;
	}
	snprintf(err, errlen, "%s is gone while the device is down: kept until it is back up",
		 e->inst);
	return -EAGAIN;
}

/*
 * Put @e's original back. 0: written and read back; 1: the knob holds the original already
 * (a law that moved it and back, a busyloop probe), so nothing is written and the event
 * says so, as act_set() of an unchanged value does, and 1 also for a NAPI that is gone from
 * a device that is up (restore_napi_gone()) and for a device the kernel deleted
 * (entry_deleted(), with its event); -ENODEV: its device is in no watched namespace
 * (restore_entries() keeps it if it left); -ENOENT: its instance is gone; -EAGAIN: its
 * NAPI is gone while the device is down (kept); other -errno: the write failed, why in @err.
 */
static int restore_one(struct entry *e, char *err, size_t errlen)
{
	struct device *d;
	struct knob_inst ki;
	uint64_t cur, rb;
	int ret;

	/* a journal of a previous run may name a namespace not watched yet: open it */
	netns_get(e->netns);
	if (entry_deleted(e)) {
		entry_deleted_event(e);
		return 1;
	}
	d = entry_locate(e, err, errlen);
	if (!d)
		return -ENODEV;
	if (entry_inst(d, e, &ki)) {
		if (!(knob_is_napi(e->k) && e->napi_id)) {
			snprintf(err, errlen, "knob instance %s is gone", e->inst);
			return -ENOENT;
		}
		/* not in the last sample: the kernel may list it (a restore of channels just now) */
		knob_napi_inst(e->k, e->napi_id, e->queue, &ki);
	}
	ret = knob_read(d, &ki, &cur, err, errlen);
	if (ret == -ENOENT && ki.scope == KS_NAPI)
		return restore_napi_gone(d, e, err, errlen);
	if (ret) {
		cur = e->written;
	} else if (cur == e->original) {
		act_event(ACT_DEV(d), knob_table[e->k].name, e->inst, e->queue, &cur, &cur,
			  WHO_RESTORE, "already at the original %" PRIu64 ", nothing written", cur);
		return 1;
	}
	err[0] = '\0';
	ret = knob_write(d, &ki, e->original, err, errlen);
	if (ret) {
		if (!err[0])
			snprintf(err, errlen, "writing %" PRIu64 ": %s", e->original, strerror(-ret));
		return ret;
	}
	if (!knob_read(d, &ki, &rb, err, errlen) && rb != e->original) {
		snprintf(err, errlen, "read back %" PRIu64 " after writing %" PRIu64, rb,
			 e->original);
		return -EIO;
	}
	act_event(ACT_DEV(d), knob_table[e->k].name, e->inst, e->queue, &cur, &e->original, WHO_RESTORE,
		  "restored the original value");
	return 0;
}

void act_sweep(void)
{
	char why[256];
	unsigned int i = 0;
	bool changed = false;

	while (i < act_n_entries) {
		struct entry *e = &act_entries[i];

		/* before entry_locate(): a device deleted is not followed to one of its name */
		if (entry_deleted(e)) {
			if (e->changed)
				entry_deleted_event(e);
			entry_remove(e);
			changed = true;
			continue;
		}
		i++;
		if (entry_locate(e, why, sizeof(why))) {
			e->missing = 0;
			e->reported = false;
			continue;
		}
		/* a pin alone owes nothing; a changed knob is reported once, and kept */
		if (!e->changed || ++e->missing < ACT_MISSING_SWEEPS || e->reported)
			continue;
		e->reported = true;
		/* this run had it: it left (journalled, so a restart after kill -9 owes it too) */
		if (!e->unseen) {
			changed |= !e->left;
			e->left = true;
		}
		act_event(e->netns, e->device, knob_table[e->k].name, e->inst, e->queue, &e->written,
			  &e->original, WHO_ERROR,
			  "%s left netns '%s' (ifindex %d) with this knob changed, original %" PRIu64
			  ": not restorable now (%s); kept: a restore puts it back once the device is "
			  "in a watched namespace again",
			  e->device, e->netns, e->ifindex, e->original, why);
	}
	/* a save that failed (a full state dir) is tried again until the file holds the table */
	act_journal_sync(changed);
}

static int seq_desc(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->seq < y->seq ? 1 : x->seq > y->seq ? -1 : 0;
}

/*
 * A failed restore of @e, why in @err (raw names, as knob_write() gives them): logged and an
 * event, both in display form, and appended to @failed (may be NULL) as the API shows it.
 */
static void restore_failed(const struct entry *e, const char *err, json_t *failed)
{
	char *shown = util_display_dup(err);

	log_err("restore netns '%s' ifindex %d %s%s%s: %s", e->netns, e->ifindex,
		knob_table[e->k].name, e->inst[0] ? " " : "", e->inst, shown ? shown : err);
	free(shown);
	act_event(e->netns, e->device, knob_table[e->k].name, e->inst, e->queue, NULL,
		  &e->original, WHO_ERROR,
		  "restore of the original %" PRIu64 " in netns '%s' ifindex %d failed: %s",
		  e->original, e->netns, e->ifindex, err);
	if (failed)
		json_array_append_new(failed, json_pack(
			"{s:o, s:s, s:s, s:s, s:o}", "device", util_json_str(e->device),
			"netns", e->netns, "knob", knob_table[e->k].name, "instance", e->inst,
			"message", util_json_str(err)));
}

/*
 * The journal could not be saved after a restore: the knobs are back, the file still lists
 * them (until a save works; a start drops an entry whose knob holds its original). An error
 * event, and one entry of @failed naming the file, so the restore does not read as clean.
 */
static void restore_journal_failed(int err, json_t *failed, unsigned int *n_failed)
{
	char why[512];

	snprintf(why, sizeof(why), "cannot save the journal: %s; the knobs restored are back at "
		 "their originals, but it lists them until a save succeeds (retried each tick)",
		 strerror(-err));
	act_event(NULL, NULL, NULL, NULL, -1, NULL, NULL, WHO_ERROR, "restore: %s", why);
	if (n_failed)
		(*n_failed)++;
	if (failed)
		json_array_append_new(failed, json_pack("{s:s, s:s}", "journal",
							act_journal_file(), "message", why));
}

/*
 * Restore the changed entries (of namespace @only, or all when NULL), newest change first.
 * Failures go to the log, to events and to @failed, and so does a journal that could not be
 * saved after. @forget: drop every entry of @only whatever happened (the namespace is going
 * away). Returns the number restored by a write; one owed nothing (it holds its original
 * already, or its NAPI or device went away with the value) is dropped from the journal with
 * its own event, not counted there but in *@n_settled (may be NULL).
 */
static int restore_entries(const char *only, json_t *failed, bool forget, unsigned int *n_failed,
			   unsigned int *n_settled)
{
	char err[256];
	unsigned int i = 0, n_before = act_n_entries;
	int restored = 0, ret;
	bool left = false;

	qsort(act_entries, act_n_entries, sizeof(*act_entries), seq_desc);
	while (i < act_n_entries) {
		struct entry *e = &act_entries[i];

		if (only && strcmp(e->netns, only)) {
			i++;
			continue;
		}
		if (!e->changed) {
			if (forget)
				entry_remove(e);
			else
				i++;
			continue;
		}
		err[0] = '\0';
		ret = restore_one(e, err, sizeof(err));
		if (ret >= 0) {
			restored += ret == 0;
			if (ret == 1 && n_settled)
				(*n_settled)++;
			entry_remove(e);
			continue;
		}
		/*
		 * A device this run had (or a run before marked so) and no watched namespace
		 * holds now left for one nobody watches, keeping its settings: owed until it
		 * comes back. One that only a previous run's journal names is taken as gone.
		 */
		if (ret == -ENODEV && !e->unseen && !e->left) {
			e->left = true;
			left = true;
		}
		if (ret == -ENODEV && e->left && !forget) {
			snprintf(err + strlen(err), sizeof(err) - strlen(err), "; kept: a restore "
				 "puts it back once the device is in a watched namespace again");
			e->reported = true;	/* this failure says so: not act_sweep() again */
		}
		restore_failed(e, err, failed);
		if (n_failed)
			(*n_failed)++;
		/* nothing is left to restore it on: the journal owes no more */
		if (forget || ret == -ENOENT || (ret == -ENODEV && !e->left)) {
			entry_remove(e);
			continue;
		}
		i++;	/* kept: the next restore (or start) tries again */
	}
	ret = act_journal_sync(act_n_entries != n_before || left);
	if (ret)
		restore_journal_failed(ret, failed, n_failed);
	return restored;
}

int act_restore_all(json_t *failed, unsigned int *n_settled)
{
	if (n_settled)
		*n_settled = 0;
	return restore_entries(NULL, failed, false, NULL, n_settled);
}

int act_restore_netns(const char *netns, unsigned int *n_failed)
{
	*n_failed = 0;
	return restore_entries(netns, NULL, true, n_failed, NULL);
}
