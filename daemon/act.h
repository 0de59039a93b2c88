/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * act: the actuator journal, the only writer of knobs.
 *
 * Before vqtune first changes a knob instance, its original value is saved durably to
 * <state dir>/originals.json (write, fsync, rename). Every change, refusal, outside write
 * and restore becomes an event with old, new, who, reason and time. A manual set pins the
 * knob (controllers leave it alone until released). A value that changes without vqtune
 * writing it was written by someone else: it is pinned as "outside", reported once per
 * change, never fought, and no longer restored (its writer owns it now).
 * Restore (SIGTERM/SIGINT, POST /v1/restore, start after a crash) writes every original
 * back in reverse order of first change; one failure is reported and the rest go on.
 */
#ifndef VQ_ACT_H
#define VQ_ACT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "knob.h"

struct device;

/* WHO_DAEMON: the daemon's own bookkeeping (a watched namespace deleted or back, a journal
 * entry following its device into another namespace) */
enum act_who { WHO_MANUAL, WHO_CONTROLLER, WHO_OUTSIDE, WHO_RESTORE, WHO_ERROR, WHO_DAEMON };

const char *act_who_name(enum act_who w);

/*
 * Load the journal from @state_dir (created if missing) and the next event id
 * (<state_dir>/events.json). 0 or -errno.
 */
int act_init(const char *state_dir);
void act_fini(void);

/* Why act_set() failed; the message is in its @err. */
enum act_result {
	ACT_OK,
	ACT_ERANGE,		/* outside the knob's range: nothing was read or written */
	ACT_EREAD,		/* the current value could not be read: nothing was written */
	ACT_EJOURNAL,		/* the original could not be saved durably: nothing was written */
	ACT_EKERNEL,		/* the kernel refused the write (its extack text in @err) */
	ACT_ENOMEM,
};

/*
 * Set knob instance @ki of @d to @v: range check, original saved, write, read back, event.
 * On ACT_OK, *oldv is the value before and *newv the value read back after. @pin: pin the
 * knob (manual sets). When the knob already holds @v nothing is written or saved (no restore
 * is owed for it), *oldv == *newv == @v, and the event says "already V, nothing written".
 */
enum act_result act_set(struct device *d, const struct knob_inst *ki, uint64_t v,
			enum act_who who, bool pin, const char *reason, uint64_t *oldv,
			uint64_t *newv, char *err, size_t errlen);
/* Release the pin on (@d, @k, @inst or all instances when NULL). Returns how many. */
int act_release(struct device *d, enum knob_id k, const char *inst);
/*
 * State of an instance for views. A per-NAPI instance ("napi-N") of a NAPI knob also takes
 * the pin and the original of its device-wide entry (""), written while the device had no
 * NAPI: that write set every NAPI, and its restore puts each back.
 */
bool act_pinned(const struct device *d, enum knob_id k, const char *inst);
/* Original value when vqtune changed it and still owes a restore (as act_pinned()). */
bool act_original(const struct device *d, enum knob_id k, const char *inst, uint64_t *orig);
/* After each sample of @d: notice values written by someone else. */
void act_check_outside(struct device *d);
/*
 * Restore every changed knob. Returns the number restored by a write; one owed nothing (it
 * holds its original already, or its NAPI or its device went away with the value) is
 * written no more, its entry dropped with a "restore" event saying why, and counted in
 * *@n_settled (may be NULL); failures are appended to
 * @failed (a JSON array, may be NULL) as {"device","netns","knob","instance","message"},
 * and a journal that could not be saved after as {"journal","message"} (the knobs are back;
 * the file lags them until a later save, and a start drops an entry whose knob holds its
 * original).
 */
int act_restore_all(json_t *failed, unsigned int *n_settled);
/*
 * Watched namespace @netns is going away (deleted while its fds kept it alive): restore
 * every knob its devices owe, as act_restore_all(), then forget every entry of it, restored
 * or not (failures are events with the original value). Returns the number restored;
 * *n_failed the number that could not be.
 */
int act_restore_netns(const char *netns, unsigned int *n_failed);
/*
 * After each tick: an entry whose device is gone from its (netns, ifindex) follows it to
 * the one managed device of that name in a watched namespace that still holds vqtune's
 * value (a move between namespaces); a changed knob whose device is nowhere is reported
 * once (event "error" with the original) and kept: it follows the device if it shows up
 * later, and a restore reports it failed and drops it. An entry whose device the kernel
 * deleted, as its link notifications told (netns_link_deleted(): not a move), is dropped
 * at once, its knob gone with the device: a "restore" event when it was changed, nothing
 * owed; a restore does the same.
 */
void act_sweep(void);
/* Knob instances vqtune changed and still owes a restore. */
unsigned int act_changed_count(void);

/*
 * Events (also logged). @netns/@dev name the device (NULL when the event has none; see
 * ACT_DEV), @old_/@new_ are NULL when not applicable. The reason is kept whole, never cut,
 * and raw: names in it are the bytes they are, put in display form once, in the log line and
 * in the event's JSON alike (docs/api.md).
 */
#define ACT_DEV(d)	(d)->ns->name, (d)->name
void act_event(const char *netns, const char *dev, const char *knob, const char *inst, int queue,
	       const uint64_t *old_, const uint64_t *new_, enum act_who who, const char *fmt, ...)
	__attribute__((format(printf, 9, 10)));
/*
 * Events with id > @since, oldest first, at most @limit, as a JSON array. *next = the id of
 * the last one returned (@since when none): pass it as the next @since.
 */
/*
 * Events emitted until act_context_clear() (act_set()'s included) carry @controller
 * ("qlimit", "polling", "zerocopy"), @decision (decide.h: applied, rollback, advised, held,
 * failed) and @signals (an object; a reference is taken, the text is kept per event).
 */
void act_context(const char *controller, const char *decision, json_t *signals);
void act_context_clear(void);
json_t *act_events_json(uint64_t since, unsigned int limit, uint64_t *next);
/*
 * The id of the newest event; before the first event of this run, a number below every id
 * to come (0 in a fresh state dir). Ids start at 1 in a fresh state dir and keep increasing
 * across restarts (<state dir>/events.json, act_event.c), so this is not a count of this run's
 * events: that is act_events_recorded().
 */
uint64_t act_event_count(void);
/* Events recorded by this run. */
uint64_t act_events_recorded(void);

#endif
