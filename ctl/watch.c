// SPDX-License-Identifier: GPL-2.0-only
/*
 * Live views: `watch` (top-like redraw of devices or one device's queues) and
 * `events [--since ID] [--follow]`. SIGINT/SIGTERM set ctl_stop; sleeps are cut short by
 * the signal, the loop ends, and the terminal is put back (cursor shown) before exit.
 * Both wait alike for a daemon that went away (ctl_live_wait()).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"

/* Default watch redraw period and its bounds (10 ms up to one hour). */
#define CTL_WATCH_INTERVAL_MS		1000ULL
#define CTL_WATCH_INTERVAL_MIN_MS	10ULL
#define CTL_WATCH_INTERVAL_MAX_MS	3600000ULL
/* watch --count: at least one frame */
#define CTL_WATCH_COUNT_MIN		1ULL
/* events --follow polling period: the API has no push channel (docs/api.md). */
#define CTL_FOLLOW_INTERVAL_MS		1000ULL
/* "/v1/events?since=" plus 20 digits of a 64-bit id, with room to spare. */
#define CTL_EVENTS_PATH_BYTES		64
#define CTL_NS_PER_S			1000000000ULL
/* "2026-11-30T03:00:00.123Z" and then some. */
#define CTL_TIME_BYTES			40
#define CTL_NS_PER_MS			1000000L
#define CTL_MS_PER_S			1000ULL

/* ANSI/ECMA-48: cursor home + erase display; hide/show cursor (DECTCEM). */
#define CTL_ANSI_CLEAR		"\033[H\033[2J"
#define CTL_ANSI_HIDE_CURSOR	"\033[?25l"
#define CTL_ANSI_SHOW_CURSOR	"\033[?25h"

volatile int ctl_stop;

static void ctl_on_signal(int sig)
{
	(void)sig;
	ctl_stop = 1;
}

/* No SA_RESTART: nanosleep must return EINTR so Ctrl-C is acted on at once. */
static void ctl_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ctl_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void ctl_sleep_ms(uint64_t ms)
{
	struct timespec ts = { .tv_sec = (time_t)(ms / CTL_MS_PER_S),
			       .tv_nsec = (long)(ms % CTL_MS_PER_S) * CTL_NS_PER_MS };

	while (!ctl_stop && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* What a live view says, once on stderr (and watch on its screen), while it waits. */
#define CTL_LIVE_WAITING	"waiting for the daemon to come back"

/*
 * After a request of a live view failed with @ret: true when the view goes on asking, and
 * then its requests are quiet (the failure was told once, by the first of them) and
 * *waiting is set, said once on stderr. Only a daemon that could not be reached is waited
 * for, and only at an address where something once accepted a connection
 * (ctl_conn_reached()): one that never did is most likely mistyped, and exit 3 says so at
 * once (vqtunectl(8)).
 */
static bool ctl_live_wait(struct ctl_conn *c, int ret, bool *waiting)
{
	if (ret != VQ_EXIT_CONNECT || !ctl_conn_reached(c))
		return false;
	if (!*waiting)
		fprintf(stderr, CTL_PROG ": " CTL_LIVE_WAITING "\n");
	*waiting = true;
	ctl_conn_quiet(c, true);
	return true;
}

/* The daemon answered a live view that was waiting: said once, requests loud again. */
static void ctl_live_back(struct ctl_conn *c, bool *waiting, const char *what)
{
	if (!*waiting)
		return;
	fprintf(stderr, CTL_PROG ": the daemon answers again%s\n", what);
	*waiting = false;
	ctl_conn_quiet(c, false);
}

struct ctl_watch_opts {
	uint64_t interval_ms, count;
	bool has_count;
};

/* A watch(1)-like first line: period, what is shown, wall-clock time (UTC). */
static void ctl_watch_header(const char *dev, uint64_t interval_ms)
{
	struct timespec now;
	char when[CTL_TIME_BYTES];

	if (ctl_json_mode)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	printf("Every %.2fs: %s%s    %s\n\n", (double)interval_ms / CTL_MS_PER_S,
	       dev ? "queues of " : "devices", dev ? dev : "",
	       ctl_fmt_time_ns((uint64_t)now.tv_sec * CTL_NS_PER_S + (uint64_t)now.tv_nsec,
			       when, sizeof(when)));
}

/*
 * Fetch a whole frame first, so that an error (no such device, the daemon gone) is all
 * that is printed: no screen clear and no header in front of it.
 */
static int ctl_watch_frame(struct ctl_conn *c, const char *dev, const char *path,
			   const struct ctl_watch_opts *o, bool tty, uint64_t frame)
{
	struct ctl_devices devs = { .reply = NULL };
	json_t *queues = NULL;
	int ret = path ? ctl_request(c, "GET", path, NULL, &queues) :
			 ctl_devices_fetch(c, &devs);

	if (!ret) {
		fputs(tty ? CTL_ANSI_CLEAR : frame ? "\n" : "", stdout);
		ctl_watch_header(dev, o->interval_ms);
		if (path)
			ctl_print(queues, ctl_text_queues);
		else
			ctl_devices_print(&devs);
		fflush(stdout);
	}
	json_decref(queues);
	ctl_devices_free(&devs);
	return ret;
}

/* On a terminal the screen keeps being redrawn while the daemon is away: header and why. */
static void ctl_watch_waiting_frame(const char *dev, const struct ctl_watch_opts *o, bool tty)
{
	if (!tty)
		return;
	fputs(CTL_ANSI_CLEAR, stdout);
	ctl_watch_header(dev, o->interval_ms);
	puts(CTL_LIVE_WAITING);
	fflush(stdout);
}

static int ctl_watch_parse(int argc, char **argv, const char **dev, struct ctl_watch_opts *o)
{
	char shown[CTL_ARG_SHOWN_BYTES];
	bool interval_seen = false;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a;
		int r = ctl_opt_arg("watch", "--interval", argc, argv, &i, &a);

		if (r < 0)
			return VQ_EXIT_USAGE;
		if (r > 0) {
			if (ctl_opt_once("watch", "--interval", &interval_seen))
				return VQ_EXIT_USAGE;
			r = ctl_parse_seconds_ms(a, CTL_WATCH_INTERVAL_MIN_MS,
						 CTL_WATCH_INTERVAL_MAX_MS, &o->interval_ms);
			if (r)
				return ctl_seconds_error("watch", "--interval", a, r,
							 CTL_WATCH_INTERVAL_MIN_MS,
							 CTL_WATCH_INTERVAL_MAX_MS);
			continue;
		}
		/* 0 frames would print nothing and look like success */
		r = ctl_opt_u64_once("watch", "--count", CTL_WATCH_COUNT_MIN, UINT64_MAX, "frames",
				     argc, argv, &i, &o->count, &o->has_count);
		if (r < 0)
			return VQ_EXIT_USAGE;
		if (r > 0)
			continue;
		if (ctl_is_option(argv[i]))
			return ctl_usage_error("watch", "unknown option %s",
					       ctl_arg_shown(argv[i], shown, sizeof(shown)));
		if (*dev)
			return ctl_usage_error("watch", "unexpected argument %s",
					       ctl_arg_shown(argv[i], shown, sizeof(shown)));
		*dev = argv[i];
	}
	return VQ_EXIT_OK;
}

int cmd_watch(struct ctl_conn *c, int argc, char **argv)
{
	struct ctl_watch_opts o = { .interval_ms = CTL_WATCH_INTERVAL_MS };
	const char *dev = NULL;
	char *path = NULL;
	bool tty = isatty(STDOUT_FILENO);
	bool waiting = false;
	uint64_t frame;
	int ret;

	ret = ctl_watch_parse(argc, argv, &dev, &o);
	if (ret)
		return ret;
	if (dev) {
		path = ctl_dev_path_or_usage("watch", dev, "/queues");
		if (!path)
			return VQ_EXIT_USAGE;
	}
	ctl_catch_signals();
	if (tty)
		fputs(CTL_ANSI_HIDE_CURSOR, stdout);
	for (frame = 0; !ctl_stop && (!o.has_count || frame < o.count); frame++) {
		if (frame)
			ctl_sleep_ms(o.interval_ms);
		if (ctl_stop)
			break;
		ret = ctl_watch_frame(c, dev, path, &o, tty, frame);
		if (!ret)
			ctl_live_back(c, &waiting, "");
		else if (ctl_live_wait(c, ret, &waiting))
			ctl_watch_waiting_frame(dev, &o, tty);
		else
			break;
	}
	if (tty)
		fputs(CTL_ANSI_SHOW_CURSOR, stdout);
	fflush(stdout);
	free(path);
	/* --count ran out while waiting: the last frame could not be drawn (3) */
	return ctl_stop ? VQ_EXIT_OK : ret;
}

/*
 * Prints the events of one reply with id > *last and raises *last to the highest id.
 * Polling with since=<highest id seen> and filtering here is right whether the server
 * reads since as "id > since" (docs/api.md) or as inclusive, and whatever "next" holds.
 */
static void ctl_events_batch(json_t *r, json_int_t *last, bool follow)
{
	json_t *ev;
	size_t i;

	if (!follow)
		ctl_print(r, ctl_text_events);
	json_array_foreach(json_object_get(r, "events"), i, ev) {
		json_t *id = json_object_get(ev, "id");

		if (!json_is_integer(id) || json_integer_value(id) <= *last)
			continue;
		*last = json_integer_value(id);
		if (!follow)
			continue;
		if (ctl_json_mode) {
			json_dumpf(ev, stdout, JSON_COMPACT);
			fputc('\n', stdout);
		} else {
			ctl_text_event_line(ev, stdout);
		}
	}
	fflush(stdout);
}

int cmd_events(struct ctl_conn *c, int argc, char **argv)
{
	char shown[CTL_ARG_SHOWN_BYTES];
	uint64_t since = 0;
	bool follow = false, waiting = false, since_seen = false;
	json_int_t next;
	int i, ret;

	for (i = 1; i < argc; i++) {
		/* the API's ids are JSON integers: signed 64-bit */
		int r = ctl_opt_u64_once("events", "--since", 0, LLONG_MAX, "event id", argc, argv,
					 &i, &since, &since_seen);

		if (r < 0)
			return VQ_EXIT_USAGE;
		if (r > 0)
			continue;
		if (!strcmp(argv[i], "--follow") || !strcmp(argv[i], "-f"))
			follow = true;
		else if (ctl_is_option(argv[i]))
			return ctl_usage_error("events", "unknown option %s",
					       ctl_arg_shown(argv[i], shown, sizeof(shown)));
		else
			return ctl_usage_error("events", "unexpected argument %s",
					       ctl_arg_shown(argv[i], shown, sizeof(shown)));
	}
	next = (json_int_t)since;
	if (follow)
		ctl_catch_signals();
	do {
		char path[CTL_EVENTS_PATH_BYTES], again[CTL_EVENTS_PATH_BYTES];
		json_t *r = NULL;

		snprintf(path, sizeof(path), VQ_API_PREFIX "/events?since=%lld", (long long)next);
		ret = ctl_request(c, "GET", path, NULL, &r);
		if (!ret) {
			snprintf(again, sizeof(again), ": events after %lld", (long long)next);
			ctl_live_back(c, &waiting, again);
			ctl_events_batch(r, &next, follow);
		}
		json_decref(r);
		/* event ids keep increasing across restarts: a resumed follow asks after the last */
		if (!follow || (ret && !ctl_live_wait(c, ret, &waiting)))
			break;
		ctl_sleep_ms(CTL_FOLLOW_INTERVAL_MS);
	} while (!ctl_stop);
	return ctl_stop ? VQ_EXIT_OK : ret;
}
