/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * act_priv: what the actuator's files share (act.c: set, release, pin, outside writers,
 * restore; act_journal.c: the journal of original values and the state dir; act_event.c:
 * the event log). Not a door into act: everything else includes act.h.
 */
#ifndef VQ_ACT_PRIV_H
#define VQ_ACT_PRIV_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "act.h"
#include "knob.h"
#include "netns.h"

/* One knob instance in the journal: changed by vqtune (a restore owed), pinned, or both. */
struct entry {
	char netns[NETNS_NAME_MAX];
	int ifindex;
	char device[IFNAMSIZ];
	enum knob_id k;
	char inst[24];
	int queue;
	uint32_t napi_id;
	uint64_t original;	/* before vqtune's first change */
	uint64_t written;	/* last value vqtune wrote or accepted from an outside writer */
	/*
	 * A write in progress, on disk before the kernel sees it: a crash between the kernel
	 * write and the journal update leaves the kernel at @pending, which is still ours.
	 */
	uint64_t pending;
	bool has_pending;
	uint64_t seq;		/* order of first change, for reverse-order restore */
	bool changed;		/* restore owed */
	bool pinned;
	enum act_who pin_who;
	unsigned int missing;	/* act_sweep()s in a row that found no device for it */
	bool reported;		/* its "cannot be restored now" event was sent */
	bool unseen;		/* loaded from the journal, its knob not read since */
	/*
	 * Its device left every watched namespace after a run had it (moved to a namespace
	 * nobody watches): owed until it comes back, across restores and restarts (journalled).
	 */
	bool left;
};

/*
 * The journal's table (act_journal.c): one entry per knob instance vqtune changed or a
 * manual set pinned, act_n_entries of act_cap_entries allocated; act_next_seq is the
 * order number of the next first change (reverse-order restore).
 */
extern struct entry *act_entries;
extern unsigned int act_n_entries, act_cap_entries;
extern uint64_t act_next_seq;

/*
 * Persist every entry that owes a restore to <state dir>/originals.json (write, fsync,
 * rename). Durable before any write relies on it. 0, -ENOMEM, or the -errno of the write
 * (logged when a save that worked before fails, and again when one works after).
 */
int act_journal_save(void);
/*
 * act_journal_save() when @changed (the table changed) or the last save failed (the file
 * lags the table: a full state dir); else 0, nothing written.
 */
int act_journal_sync(bool changed);
/* <state dir>/originals.json, for messages. */
const char *act_journal_file(void);

/*
 * The event log's part of act_init() (act_event.c): the ring of events and the first event
 * id of this run, read from <@state_dir>/events.json and moved up a block on disk.
 * 0, -ENAMETOOLONG, -ENOMEM or the -errno of the durable write (logged).
 */
int act_events_open(const char *state_dir);
/* The event log's part of act_fini(): every event freed, the context cleared. */
void act_events_close(void);

#endif
