// SPDX-License-Identifier: GPL-2.0-only
/*
 * act_event: the event log (act.h: act_event(), act_context(), act_events_json()): a ring
 * of the newest ACT_EVENTS_MAX events in memory, every event also logged, and event ids
 * that keep increasing across restarts (<state dir>/events.json).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "act.h"
#include "act_priv.h"
#include "log.h"
#include "util.h"

/* Events kept in memory for GET /v1/events; older ones are still in the system journal */
#define ACT_EVENTS_MAX		4096
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

int act_events_open(const char *state_dir)
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

void act_events_close(void)
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

/*
 * The log line of @ev: "event ID: WHO[ NETNS:DEVICE][ KNOB][ INSTANCE]: REASON", its device
 * (@name, display form) and reason in display form; what the event lacks (a policy install
 * has no device or knob, a device-wide knob no instance) leaves no gap.
 */
static void event_log(const struct event *ev, const char *name)
{
	const char *raw = ev->reason ? ev->reason : "";
	char *reason = util_display_dup(raw);
	bool ns = name[0] && ev->netns[0];

	log_info("event %" PRIu64 ": %s%s%s%s%s%s%s%s%s: %s", ev->id, act_who_name(ev->who),
		 name[0] ? " " : "", ns ? ev->netns : "", ns ? ":" : "", name,
		 ev->knob[0] ? " " : "", ev->knob, ev->inst[0] ? " " : "", ev->inst,
		 reason ? reason : raw);
	free(reason);
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
	event_log(ev, name);
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
