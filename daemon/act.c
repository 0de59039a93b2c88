// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "act.h"
#include "dev.h"
#include "log.h"
#include "netns.h"
#include "util.h"

#define ACT_JOURNAL_FILE	"originals.json"
#define ACT_JOURNAL_VERSION	1
/* Events kept in memory for GET /v1/events; older ones are still in the system journal */
#define ACT_EVENTS_MAX		4096
/*
 * Sweeps a changed knob's device may be missing before that is reported: a move between two
 * watched namespaces shows as a deletion in one and, possibly a notification later, an
 * appearance in the other.
 */
#define ACT_MISSING_SWEEPS	2
/*
 * Event ids keep increasing across restarts (docs/api.md): <state dir>/events.json holds a
 * bound every id handed out so far is below, written durably (write, fsync, rename) before
 * an id reaches it. It is moved up ACT_EVENT_ID_BLOCK ids at a time, so one durable write
 * covers that many events, and a restart (also after kill -9) starts at the bound: ids may
 * skip up to a block across a restart, never go back.
 */
#define ACT_EVENT_ID_FILE	"events.json"
#define ACT_EVENT_ID_VERSION	1
#define ACT_EVENT_ID_BLOCK	1024

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
};

struct event {
	uint64_t id, time_ns;
	char netns[NETNS_NAME_MAX], device[IFNAMSIZ], knob[32], inst[24];
	int queue;
	bool has_old, has_new;
	uint64_t old_, new_;
	enum act_who who;
	/* malloc'd, whole: a held decision's guard words and law reason (LAW_REASON_MAX), a
	 * rejected policy's first error with its path; NULL only when memory ran out */
	char *reason;
	char controller[16], decision[12];	/* "" outside a controller's decision */
	char *signals;				/* compact JSON object, or NULL */
};

/* act_context(): what the events emitted until act_context_clear() are about */
static struct {
	char controller[16], decision[12];
	json_t *signals;
} ctx;

static char journal_path[4096];
static struct entry *act_entries;
static unsigned int act_n_entries, act_cap_entries;
static uint64_t act_next_seq = 1;
static struct event *events;	/* ring of ACT_EVENTS_MAX */
static uint64_t next_event_id = 1;
static uint64_t first_event_id = 1;	/* the first id of this run */
static uint64_t event_id_bound;		/* ids below it are covered on disk; 0: none yet */
static char event_id_path[4096];

const char *act_who_name(enum act_who w)
{
	static const char *const n[] = { "manual", "controller", "outside", "restore", "error",
					 "daemon" };

	return n[w];
}

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

/* Persist every entry that owes a restore. Durable before any write relies on it. */
static int act_journal_save(void)
{
	json_t *root, *arr = json_array();
	unsigned int i;
	char *text;
	int ret;

	for (i = 0; i < act_n_entries; i++) {
		const struct entry *e = &act_entries[i];

		char hex[2 * IFNAMSIZ + 1];

		if (!e->changed)
			continue;
		/* the name is bytes: store them exactly, as hex */
		util_hex(e->device, strnlen(e->device, IFNAMSIZ), hex);
		json_array_append_new(arr, json_pack(
			"{s:s, s:i, s:s, s:s, s:s, s:i, s:I, s:I, s:I, s:I}",
			"netns", e->netns, "ifindex", e->ifindex, "device_hex", hex,
			"knob", knob_table[e->k].name, "instance", e->inst, "queue", e->queue,
			"napi_id", (json_int_t)e->napi_id, "original", (json_int_t)e->original,
			"written", (json_int_t)e->written, "seq", (json_int_t)e->seq));
		if (e->has_pending)
			json_object_set_new(json_array_get(arr, json_array_size(arr) - 1),
					    "pending", json_integer((json_int_t)e->pending));
	}
	root = json_pack("{s:i, s:o}", "version", ACT_JOURNAL_VERSION, "entries", arr);
	text = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	if (!text)
		return -ENOMEM;
	ret = util_write_durable(journal_path, text, strlen(text));
	free(text);
	if (ret)
		log_err("journal %s: %s", journal_path, strerror(-ret));
	return ret;
}

static int unhex(const char *hex, char *out, size_t outlen)
{
	size_t n = strlen(hex) / 2, i;
	unsigned int b;

	if (strlen(hex) % 2 || n >= outlen)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -EINVAL;
		out[i] = (char)b;
	}
	out[n] = '\0';
	return 0;
}

static int journal_load(void)
{
	json_error_t jerr;
	json_t *root, *arr, *it;
	size_t i;

	root = json_load_file(journal_path, 0, &jerr);
	if (!root) {
		struct stat st;

		if (stat(journal_path, &st) < 0 && errno == ENOENT)
			return 0;
		log_err("journal %s:%d:%d: %s. It holds the original values of knobs a previous "
			"run changed: check those knobs, then repair the file or move it aside "
			"(vqtuned(8), FILES)", journal_path, jerr.line, jerr.column, jerr.text);
		return -EINVAL;
	}
	arr = json_object_get(root, "entries");
	json_array_foreach(arr, i, it) {
		const char *ns = "", *hex = "", *knob = "", *inst = "";
		char name[IFNAMSIZ];
		json_int_t ifindex = 0, queue = -1, napi = 0, orig = 0, wr = 0, seq = 0;
		json_t *pend;
		struct entry *e;
		int k;

		if (json_unpack(it, "{s:s, s:I, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:I}",
				"netns", &ns, "ifindex", &ifindex, "device_hex", &hex, "knob", &knob,
				"instance", &inst, "queue", &queue, "napi_id", &napi,
				"original", &orig, "written", &wr, "seq", &seq) ||
		    (k = knob_by_name(knob)) < 0) {
			log_err("journal %s: entry %zu is malformed, skipped", journal_path, i);
			continue;
		}
		/* a replayed original is a write like any other: same ranges as the API */
		if (orig < 0 || (uint64_t)orig < knob_table[k].min ||
		    (uint64_t)orig > knob_table[k].max || ifindex <= 0 ||
		    strlen(ns) >= NETNS_NAME_MAX || strchr(ns, '/') || !strcmp(ns, "..") ||
		    strlen(inst) >= sizeof(act_entries[0].inst) || unhex(hex, name, sizeof(name))) {
			log_err("journal %s: entry %zu (%s %s) is out of range or malformed, skipped",
				journal_path, i, knob, inst);
			continue;
		}
		if (act_n_entries == act_cap_entries) {
			unsigned int cap = act_cap_entries ? 2 * act_cap_entries : 16;
			struct entry *n = realloc(act_entries, cap * sizeof(*n));

			if (!n)
				break;
			act_entries = n;
			act_cap_entries = cap;
		}
		e = &act_entries[act_n_entries++];
		memset(e, 0, sizeof(*e));
		snprintf(e->netns, sizeof(e->netns), "%s", ns);
		e->ifindex = ifindex;
		memcpy(e->device, name, sizeof(e->device));
		e->k = k;
		snprintf(e->inst, sizeof(e->inst), "%s", inst);
		e->queue = queue;
		e->napi_id = napi;
		e->original = orig;
		e->written = wr;
		e->seq = seq;
		e->changed = true;
		pend = json_object_get(it, "pending");
		if (json_is_integer(pend) && json_integer_value(pend) >= 0 &&
		    (uint64_t)json_integer_value(pend) <= knob_table[k].max) {
			e->pending = (uint64_t)json_integer_value(pend);
			e->has_pending = true;
		}
		if ((uint64_t)seq >= act_next_seq)
			act_next_seq = seq + 1;
	}
	json_decref(root);
	if (act_n_entries)
		log_warn("journal: %u knob(s) left changed by a previous run; restoring",
			 act_n_entries);
	return 0;
}

/*
 * One vqtuned per state directory: a second one would restore (and empty) the journal of
 * the first, whose knobs are live. <state_dir>/lock is held with flock(2) for the life of
 * the process (the fd is never closed; the kernel drops the lock at exit, also on kill -9)
 * and holds the owner's pid for the message. -EBUSY when another process holds it.
 */
static int state_lock(const char *state_dir)
{
	char path[4096], pid[16];
	ssize_t n;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/lock", state_dir) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno == EWOULDBLOCK ? -EBUSY : -errno;

		n = pread(fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		if (err == -EBUSY)
			log_err("state dir %s is in use by another vqtuned (pid %s): one daemon per "
				"state dir (--state-dir)", state_dir, pid[0] ? pid : "?");
		close(fd);
		return err;
	}
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)n, 0) != n)
		log_warn("state dir %s: cannot record the pid in its lock", state_dir);
	return 0;
}

/* Move the on-disk bound to cover ids up to @id plus a block. 0 or -errno (logged). */
static int event_id_reserve(uint64_t id)
{
	uint64_t bound = id + ACT_EVENT_ID_BLOCK;
	char text[96];
	int n, ret;

	n = snprintf(text, sizeof(text), "{\"version\": %d, \"next_id\": %" PRIu64 "}\n",
		     ACT_EVENT_ID_VERSION, bound);
	ret = util_write_durable(event_id_path, text, (size_t)n);
	if (ret) {
		log_err("%s: %s: event ids after a restart may repeat ids of this run",
			event_id_path, strerror(-ret));
		return ret;
	}
	event_id_bound = bound;
	return 0;
}

/* The first event id of this run: the bound the previous run left, 1 without one. */
static uint64_t event_id_load(void)
{
	json_error_t jerr;
	json_int_t next = 0;
	json_t *root;

	root = json_load_file(event_id_path, 0, &jerr);
	if (!root) {
		if (access(event_id_path, F_OK) && errno == ENOENT)
			return 1;
		log_err("%s:%d:%d: %s: event ids start again at 1", event_id_path, jerr.line,
			jerr.column, jerr.text);
		return 1;
	}
	if (json_unpack(root, "{s:I}", "next_id", &next) || next < 1) {
		log_err("%s: no valid next_id: event ids start again at 1", event_id_path);
		next = 1;
	}
	json_decref(root);
	return (uint64_t)next;
}

/*
 * The event log's part of act_init(): the ring of ACT_EVENTS_MAX events and the first event
 * id of this run, read from <@state_dir>/events.json and moved up a block on disk.
 * 0, -ENAMETOOLONG, -ENOMEM or the -errno of the durable write (logged).
 */
static int act_events_open(const char *state_dir)
{
	if ((size_t)snprintf(event_id_path, sizeof(event_id_path), "%s/%s", state_dir,
			     ACT_EVENT_ID_FILE) >= sizeof(event_id_path))
		return -ENAMETOOLONG;
	events = calloc(ACT_EVENTS_MAX, sizeof(*events));
	if (!events)
		return -ENOMEM;
	first_event_id = next_event_id = event_id_load();
	return event_id_reserve(next_event_id);
}

/* The event log's part of act_fini(): every event freed, the context cleared. */
static void act_events_close(void)
{
	unsigned int i;

	for (i = 0; events && i < ACT_EVENTS_MAX; i++) {
		free(events[i].signals);
		free(events[i].reason);
	}
	free(events);
	events = NULL;
	act_context_clear();
}

int act_init(const char *state_dir)
{
	unsigned int i;
	int ret;

	if (mkdir(state_dir, 0750) < 0 && errno != EEXIST)
		return -errno;
	ret = state_lock(state_dir);
	if (ret)
		return ret;
	if ((size_t)snprintf(journal_path, sizeof(journal_path), "%s/%s", state_dir,
			     ACT_JOURNAL_FILE) >= sizeof(journal_path))
		return -ENAMETOOLONG;
	ret = act_events_open(state_dir);
	if (ret)
		return ret;
	if (journal_load())
		return -EINVAL;
	/* prove the journal is writable now, not at the first knob change */
	ret = act_journal_save();
	if (ret)
		return ret;
	/* a journal may name a namespace this run does not watch: open it for the restore */
	for (i = 0; i < act_n_entries; i++)
		if (!netns_get(act_entries[i].netns))
			log_warn("journal: netns '%s' is gone", act_entries[i].netns);
	return 0;
}

void act_fini(void)
{
	free(act_entries);
	act_entries = NULL;
	act_n_entries = act_cap_entries = 0;
	act_events_close();
}

void act_event(const char *netns, const char *dev, const char *knob, const char *inst, int queue,
	       const uint64_t *old_, const uint64_t *new_, enum act_who who, const char *fmt, ...)
{
	struct event *ev = &events[(next_event_id - 1) % ACT_EVENTS_MAX];
	char name[4 * IFNAMSIZ + 1] = "";
	va_list ap;

	/* a failed write is logged and tried again at the next event; the id is given anyway */
	if (next_event_id >= event_id_bound)
		event_id_reserve(next_event_id);
	free(ev->signals);
	free(ev->reason);
	memset(ev, 0, sizeof(*ev));
	ev->id = next_event_id++;
	snprintf(ev->controller, sizeof(ev->controller), "%s", ctx.controller);
	snprintf(ev->decision, sizeof(ev->decision), "%s", ctx.decision);
	if (ctx.signals)
		ev->signals = json_dumps(ctx.signals, JSON_COMPACT | JSON_REAL_PRECISION(6));
	ev->time_ns = util_now_ns(CLOCK_REALTIME);
	if (dev) {
		snprintf(ev->netns, sizeof(ev->netns), "%s", netns);
		snprintf(ev->device, sizeof(ev->device), "%s", dev);
		util_name_display(ev->device, name, sizeof(name));
	}
	snprintf(ev->knob, sizeof(ev->knob), "%s", knob ? knob : "");
	snprintf(ev->inst, sizeof(ev->inst), "%s", inst ? inst : "");
	ev->queue = queue;
	if (old_) {
		ev->has_old = true;
		ev->old_ = *old_;
	}
	if (new_) {
		ev->has_new = true;
		ev->new_ = *new_;
	}
	ev->who = who;
	va_start(ap, fmt);
	if (vasprintf(&ev->reason, fmt, ap) < 0)
		ev->reason = NULL;
	va_end(ap);
	/* a device-wide knob has no instance: no gap before the colon */
	log_info("event %" PRIu64 ": %s %s%s%s %s%s%s: %s", ev->id, act_who_name(who),
		 ev->netns, ev->netns[0] ? ":" : "", name, ev->knob, ev->inst[0] ? " " : "",
		 ev->inst, ev->reason ? ev->reason : "");
}

void act_context(const char *controller, const char *decision, json_t *signals)
{
	snprintf(ctx.controller, sizeof(ctx.controller), "%s", controller ? controller : "");
	snprintf(ctx.decision, sizeof(ctx.decision), "%s", decision ? decision : "");
	json_decref(ctx.signals);
	ctx.signals = json_incref(signals);
}

void act_context_clear(void)
{
	act_context(NULL, NULL, NULL);
}

uint64_t act_event_count(void)
{
	return next_event_id - 1;
}

uint64_t act_events_recorded(void)
{
	return next_event_id - first_event_id;
}

json_t *act_events_json(uint64_t since, unsigned int limit, uint64_t *next)
{
	uint64_t first = next_event_id - first_event_id > ACT_EVENTS_MAX ?
			 next_event_id - ACT_EVENTS_MAX : first_event_id;
	json_t *arr = json_array();
	uint64_t id;

	if (since + 1 > first)
		first = since + 1;
	*next = since;
	for (id = first; id < next_event_id && limit; id++, limit--) {
		const struct event *ev = &events[(id - 1) % ACT_EVENTS_MAX];
		json_t *o = json_pack("{s:I, s:I, s:o, s:s, s:s, s:s, s:o, s:s, s:o, s:o}",
				      "id", (json_int_t)ev->id, "time_ns", (json_int_t)ev->time_ns,
				      "device", util_json_str(ev->device), "netns", ev->netns,
				      "knob", ev->knob, "instance", ev->inst,
				      "queue", ev->queue >= 0 ? json_integer(ev->queue) : json_null(),
				      "who", act_who_name(ev->who),
				      "reason", util_json_str(ev->reason ? ev->reason : ""),
				      "signals",
				      ev->signals ? json_loads(ev->signals, 0, NULL) : json_object());

		json_object_set_new(o, "old", ev->has_old ? json_integer(ev->old_) : json_null());
		json_object_set_new(o, "new", ev->has_new ? json_integer(ev->new_) : json_null());
		json_object_set_new(o, "controller", ev->controller[0] ?
				    json_string(ev->controller) : json_null());
		json_object_set_new(o, "decision", ev->decision[0] ?
				    json_string(ev->decision) : json_null());
		json_array_append_new(arr, o);
		*next = id;
	}
	return arr;
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
		char why[256], shown[4 * IFNAMSIZ + 1];

		/* named like knob_write()'s errors: device, knob, instance, then why */
		snprintf(why, sizeof(why), "%s", err[0] ? err : strerror(-ret));
		util_name_display(d->name, shown, sizeof(shown));
		snprintf(err, errlen, "%s: %s%s%s: cannot read: %s", shown, kname,
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

bool act_pinned(const struct device *d, enum knob_id k, const char *inst)
{
	const struct entry *e = entry_find(d, k, inst);

	return e && e->pinned;
}

bool act_original(const struct device *d, enum knob_id k, const char *inst, uint64_t *orig)
{
	const struct entry *e = entry_find(d, k, inst);

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

void act_check_outside(struct device *d)
{
	struct knob_inst ki;
	unsigned int i;
	bool dirty = false;

	for (i = 0; i < act_n_entries; i++) {
		struct entry *e = &act_entries[i];
		uint64_t was = e->written;

		if (e->ifindex != d->ifindex || strcmp(e->netns, d->ns->name))
			continue;
		memcpy(e->device, d->name, sizeof(e->device));	/* follow renames */
		if (knob_find(d, e->k, e->inst, &ki) || !ki.has_value || ki.value == e->written)
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

/* The instance an entry names now; a NAPI re-created with a new id is found by its queue. */
static int entry_inst(struct device *d, const struct entry *e, struct knob_inst *ki)
{
	struct knob_inst all[DEV_MAX_QUEUES];
	unsigned int n, i;

	if (!knob_find(d, e->k, e->inst, ki))
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
	const char *kname = knob_table[e->k].name;
	char shown[4 * IFNAMSIZ + 1];
	struct knob_inst ki, fki;
	unsigned int n = 0;

	/* identity is (netns, ifindex): ifindexes are allocated cyclically, not reused soon */
	if (d)
		return d;
	util_name_display(e->device, shown, sizeof(shown));
	snprintf(why, whylen, "%s is not in any watched namespace", shown);
	dev_for_each(c) {
		if (!c->managed || strcmp(c->name, e->device))
			continue;
		if (entry_inst(c, e, &ki) || !ki.has_value) {
			snprintf(why, whylen, "the %s in netns '%s' has no %s %s", shown,
				 c->ns->name, kname, e->inst);
			continue;
		}
		if (ki.value != e->written && !(e->has_pending && ki.value == e->pending)) {
			snprintf(why, whylen, "the %s in netns '%s' has %s %" PRIu64 ", not the %"
				 PRIu64 " vqtune wrote: another device", shown, c->ns->name, kname,
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
				 shown);
		return NULL;
	}
	act_event(ACT_DEV(found), kname, fki.inst, fki.queue, NULL, &e->original, WHO_DAEMON,
		  "the journal follows %s from netns '%s' ifindex %d to netns '%s' ifindex %d: "
		  "the original %" PRIu64 " is owed there now", shown, e->netns, e->ifindex,
		  found->ns->name, found->ifindex, e->original);
	snprintf(e->netns, sizeof(e->netns), "%s", found->ns->name);
	e->ifindex = found->ifindex;
	snprintf(e->inst, sizeof(e->inst), "%s", fki.inst);
	e->queue = fki.queue;
	e->napi_id = fki.napi_id;
	act_journal_save();
	return found;
}

static int restore_one(struct entry *e, char *err, size_t errlen)
{
	struct device *d;
	struct knob_inst ki;
	uint64_t cur, rb;
	int ret;

	/* a journal of a previous run may name a namespace not watched yet: open it */
	netns_get(e->netns);
	d = entry_locate(e, err, errlen);
	if (!d)
		return -ENODEV;
	if (entry_inst(d, e, &ki)) {
		snprintf(err, errlen, "knob instance %s is gone", e->inst);
		return -ENOENT;
	}
	if (knob_read(d, &ki, &cur, err, errlen))
		cur = e->written;
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
	char why[256], shown[4 * IFNAMSIZ + 1];
	unsigned int i;

	for (i = 0; i < act_n_entries; i++) {
		struct entry *e = &act_entries[i];

		if (entry_locate(e, why, sizeof(why))) {
			e->missing = 0;
			e->reported = false;
			continue;
		}
		/* a pin alone owes nothing; a changed knob is reported once, and kept */
		if (!e->changed || ++e->missing < ACT_MISSING_SWEEPS || e->reported)
			continue;
		e->reported = true;
		util_name_display(e->device, shown, sizeof(shown));
		act_event(e->netns, e->device, knob_table[e->k].name, e->inst, e->queue, &e->written,
			  &e->original, WHO_ERROR,
			  "%s left netns '%s' (ifindex %d) with this knob changed, original %" PRIu64
			  ": not restorable now (%s); kept in the journal until a restore", shown,
			  e->netns, e->ifindex, e->original, why);
	}
}

static int seq_desc(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->seq < y->seq ? 1 : x->seq > y->seq ? -1 : 0;
}

/*
 * Restore the changed entries (of namespace @only, or all when NULL), newest change first.
 * Failures go to the log, to events and to @failed. @forget: drop every entry of @only
 * whatever happened (the namespace is going away). Returns the number restored.
 */
static int restore_entries(const char *only, json_t *failed, bool forget, unsigned int *n_failed)
{
	char err[256], hex[2 * IFNAMSIZ + 1];
	unsigned int i = 0;
	int restored = 0;

	qsort(act_entries, act_n_entries, sizeof(*act_entries), seq_desc);
	while (i < act_n_entries) {
		struct entry *e = &act_entries[i];
		int ret;

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
		if (!ret) {
			restored++;
			entry_remove(e);
			continue;
		}
		log_err("restore netns '%s' ifindex %d %s %s: %s", e->netns, e->ifindex,
			knob_table[e->k].name, e->inst, err);
		act_event(e->netns, e->device, knob_table[e->k].name, e->inst, e->queue, NULL,
			  &e->original, WHO_ERROR,
			  "restore of the original %" PRIu64 " in netns '%s' ifindex %d failed: %s",
			  e->original, e->netns, e->ifindex, err);
		if (n_failed)
			(*n_failed)++;
		if (failed) {
			util_hex(e->device, strnlen(e->device, IFNAMSIZ), hex);
			json_array_append_new(failed, json_pack(
				"{s:o, s:s, s:s, s:s, s:o}", "device", util_json_str(e->device),
				"netns", e->netns, "knob", knob_table[e->k].name, "instance", e->inst,
				"message", util_json_str(err)));
		}
		/* nothing is left to restore it on: the journal owes no more */
		if (forget || ret == -ENODEV || ret == -ENOENT) {
			entry_remove(e);
			continue;
		}
		i++;	/* kept: the next restore (or start) tries again */
	}
	act_journal_save();
	return restored;
}

int act_restore_all(json_t *failed)
{
	return restore_entries(NULL, failed, false, NULL);
}

int act_restore_netns(const char *netns, unsigned int *n_failed)
{
	*n_failed = 0;
	return restore_entries(netns, NULL, true, n_failed);
}
