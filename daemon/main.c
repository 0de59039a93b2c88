// SPDX-License-Identifier: GPL-2.0-only
/*
 * vqtuned: samples every queue of every device it can see, serves the HTTP API, and is the
 * only writer of the knobs it changes (act.h), restoring them on exit and after a crash.
 * One thread, one epoll loop: a timerfd tick, a signalfd, the rtnetlink notification
 * sockets and libmicrohttpd's epoll fd. Modules start in dependency order and stop in
 * reverse (chrony's main.c habit).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <libgen.h>

#include "act.h"
#include "api.h"
#include "api_sock.h"
#include "decide.h"
#include "dev.h"
#include "log.h"
#include "netns.h"
#include "pace.h"
#include "policy.h"
#include "runtime.h"
#include "sample.h"
#include "slice.h"
#include "token.h"
#include "util.h"
#include "vqtune_api.h"

/* Ticks below 10 ms would spend more time dumping than the kernel spends moving packets */
#define TICK_MIN_MS		10
#define TICK_MAX_MS		60000
#define TICK_DEFAULT_MS		1000
/* libmicrohttpd also needs a turn for its connection timeouts when nothing else wakes us */
#define LOOP_IDLE_MS		1000
/*
 * At the stop, a follower (`vqtunectl events --follow` asks once a second) that asked
 * within STOP_FOLLOWER_MS gets the restore's events: reads are answered for STOP_LINGER_MS
 * more, past its next poll. With nobody following the daemon exits at once.
 */
#define STOP_FOLLOWER_MS	3000
#define STOP_LINGER_MS		2000
#define MAX_GLOBS		64
#define MAX_NETNS_ARGS		64
#define SOCKET_MODE		0660	/* DESIGN.md: operators in the socket's group may write */

struct opts {
	const char *socket;
	const char *listen;
	const char *token_file;
	const char *state_dir;
	const char *policy;
	const char *check;		/* --check-policy FILE: validate it and exit */
	unsigned int interval_ms;
	bool interval_given;		/* --interval on the command line, not its default */
	/*
	 * 0 (not given): PACE_DEFAULT_FACTOR x interval_ms, at most TICK_MAX_MS, a paced tick
	 * (vqtuned(8) INTERVAL PACING); interval_ms keeps the tick fixed.
	 */
	unsigned int max_interval_ms;
	unsigned int slice_us;		/* --sched-slice, 0: none asked for */
	const char *netns[MAX_NETNS_ARGS];
	unsigned int n_netns;
	const char *manage[MAX_GLOBS];
	unsigned int n_manage;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: vqtuned [OPTIONS]\n"
		"  -s, --socket PATH      unix socket of the API (default %s)\n"
		"  -l, --listen ADDR:PORT also serve the API on TCP, read-only unless --token-file\n"
		"  -t, --token-file FILE  bearer token that allows writes over TCP (needs --listen)\n"
		"  -S, --state-dir DIR    journal of original knob values (default %s)\n"
		"  -i, --interval MS      sampling tick, %d..%d ms (default %d)\n"
		"  -I, --max-interval MS  longest tick while nothing moves, --interval..%d ms\n"
		"                         (default %d x --interval; --interval: a fixed tick)\n"
		"  -L, --sched-slice US   scheduler slice asked of the kernel, %d..%d us, or 0 to\n"
		"                         ask for none (default 0; Linux 6.12+, ignored before)\n"
		"  -n, --netns NAME       also watch /run/netns/NAME; its devices are managed\n"
		"                         (repeatable; needs CAP_SYS_ADMIN)\n"
		"  -m, --manage GLOB      manage devices of the own namespace matching GLOB\n"
		"                         (repeatable; by default they are observed read-only)\n"
		"  -p, --policy FILE      policy JSON (default: built-in observe)\n"
		"  -C, --check-policy FILE\n"
		"                         validate FILE (any mode; \"-\": standard input), print\n"
		"                         its errors and exit: 0 valid, 1 not, 2 bad usage\n"
		"  -v, --verbose          debug logging\n"
		"  -V, --version          print the version and exit\n"
		"  -h, --help             print this help and exit\n",
		VQ_DEFAULT_SOCKET, VQ_DEFAULT_STATE_DIR, TICK_MIN_MS, TICK_MAX_MS, TICK_DEFAULT_MS,
		TICK_MAX_MS, PACE_DEFAULT_FACTOR, SLICE_MIN_US, SLICE_MAX_US);
}

/*
 * A number written with a leading zero ("010", "019478"): refused rather than read as
 * decimal (C would read it as octal, a user may mean either), as vqtunectl -H refuses it.
 */
static bool leading_zero(const char *digits)
{
	return digits[0] == '0' && digits[1] >= '0' && digits[1] <= '9';
}

/*
 * @arg as a whole number in *@v: digits only (strtol() would also take " 10" and "+10"),
 * not empty, not out of long's range. The leading-zero rule is the callers' own message.
 */
static bool opt_digits(const char *arg, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(arg, &end, 10);
	return !errno && !*end && *arg && !arg[strspn(arg, "0123456789")];
}

/*
 * --interval/--max-interval MS: digits only, no leading zero, TICK_MIN_MS..TICK_MAX_MS.
 * 0 with *@ms set, or -EINVAL with the message (naming --@name) on stderr. --max-interval's
 * real floor, --interval, is checked once both are read (parse_opts()); its message names
 * that floor here too, so "--max-interval 5" does not read as if 10 were allowed with any
 * --interval.
 */
static int opt_ms(const char *name, const char *arg, unsigned int *ms)
{
	const char *also = strcmp(name, "max-interval") ? "" : " and at least --interval";
	long v;

	if (leading_zero(arg)) {
		fprintf(stderr, "vqtuned: --%s: '%s' must be written without a leading zero "
			"(%d..%d ms%s)\n", name, arg, TICK_MIN_MS, TICK_MAX_MS, also);
		return -EINVAL;
	}
	if (!opt_digits(arg, &v) || v < TICK_MIN_MS || v > TICK_MAX_MS) {
		fprintf(stderr, "vqtuned: --%s: '%s' is not %d..%d ms%s\n", name, arg,
			TICK_MIN_MS, TICK_MAX_MS, also);
		return -EINVAL;
	}
	*ms = (unsigned int)v;
	return 0;
}

/*
 * --sched-slice US: digits only, no leading zero, 0 or SLICE_MIN_US..SLICE_MAX_US (the
 * kernel's clamp, slice.h). 0 with *@us set, or -EINVAL with the message on stderr.
 */
static int opt_slice(const char *arg, unsigned int *us)
{
	long v;

	if (leading_zero(arg) || !opt_digits(arg, &v) ||
	    (v && (v < SLICE_MIN_US || v > SLICE_MAX_US))) {
		fprintf(stderr, "vqtuned: --sched-slice: '%s' is not 0 (ask for none) or "
			"%d..%d us, digits without a leading zero\n", arg, SLICE_MIN_US,
			SLICE_MAX_US);
		return -EINVAL;
	}
	*us = (unsigned int)v;
	return 0;
}

/*
 * --manage GLOB: checked as a policy's select.names entry is, so an empty or malformed glob
 * (fnmatch(3) would read "eth[0" literally and manage nothing) is refused by name.
 */
static int opt_manage(struct opts *o, const char *glob)
{
	char why[POLICY_MSG_MAX];

	if (o->n_manage == MAX_GLOBS) {
		fprintf(stderr, "vqtuned: --manage: at most %d\n", MAX_GLOBS);
		return -EINVAL;
	}
	if (policy_glob_check(glob, why, sizeof(why))) {
		fprintf(stderr, "vqtuned: --manage: %s\n", why);
		return -EINVAL;
	}
	o->manage[o->n_manage++] = glob;
	return 0;
}

/*
 * --token-file FILE: a file with no token in it (empty, white space only) would let no
 * client write, so it is refused before anything is opened, by the rule vqtunectl -T reads
 * a token file with (token_read()). api_start() reads the token itself.
 */
static int opt_token_check(const char *file)
{
	char why[TOKEN_WHY_BYTES], *tok = NULL;
	size_t len = 0;
	int err = token_read(file, &tok, &len);

	if (err) {
		fprintf(stderr, "vqtuned: --token-file: '%s' %s\n", file,
			token_strerror(err, why, sizeof(why)));
		return -EINVAL;
	}
	explicit_bzero(tok, len);
	free(tok);
	return 0;
}

/* The long name of the option whose getopt value is @c in @lo (each option has one). */
static const char *opt_long_name(const struct option *lo, int c)
{
	for (; lo->name; lo++)
		if (lo->val == c)
			break;
	return lo->name ? lo->name : "?";
}

/*
 * The options that take one value (--socket, --listen, --token-file, --state-dir,
 * --interval, --max-interval) are refused when given twice, as vqtunectl refuses its own
 * repeats: with the last one taken, a second --listen dropped the first listener unseen.
 * --policy is the exception: the later one wins, so that VQTUNED_OPTS overrides the policy
 * the systemd unit gives (systemd/vqtuned.service.in); the start event names the policy
 * installed. --netns and --manage are lists; --check-policy names its own repeat.
 * 0, or -EINVAL with the message on stderr; @seen holds the options met so far.
 */
static int opt_once(const struct option *lo, int c, uint32_t *seen)
{
	static const char once[] = "sltSiIL";
	const char *at = c > 0 ? strchr(once, c) : NULL;
	uint32_t bit;

	if (!at)
		return 0;
	bit = 1u << (at - once);
	if (!(*seen & bit)) {
		*seen |= bit;
		return 0;
	}
	fprintf(stderr, "vqtuned: --%s given more than once (one per run; '%s' is the second)\n",
		opt_long_name(lo, c), optarg);
	return -EINVAL;
}

/*
 * An option that names a file or directory given an empty value (a shell's unset variable):
 * refused by name, before open(2) would say ": No such file or directory"; any option's
 * value of PATH_MAX bytes or more, and a --socket that unix(7) cannot hold, likewise, cut
 * in the message (util_arg_brief()). 0 or -EINVAL.
 */
static int opt_path(const struct option *lo, int c, const char *arg)
{
	char brief[UTIL_ARG_BRIEF_BYTES];
	struct sockaddr_un sun;

	/* no option takes more than a path (PATH_MAX): refused before anything echoes it */
	if (strlen(arg) >= PATH_MAX) {
		fprintf(stderr, "vqtuned: --%s: '%s' is longer than any value it takes (%d bytes)\n",
			opt_long_name(lo, c), util_arg_brief(arg, brief, sizeof(brief)),
			PATH_MAX - 1);
		return -EINVAL;
	}
	/* the API's socket: unix(7) holds so many bytes, checked before any device is read */
	if (c == 's' && strlen(arg) >= sizeof(sun.sun_path)) {
		fprintf(stderr, "vqtuned: --socket: '%s' is longer than a unix socket path can be "
			"(%zu bytes, unix(7))\n", util_arg_brief(arg, brief, sizeof(brief)),
			sizeof(sun.sun_path) - 1);
		return -EINVAL;
	}
	if (!strchr("stSpC", c) || *arg)
		return 0;
	fprintf(stderr, "vqtuned: --%s: empty path\n", opt_long_name(lo, c));
	return -EINVAL;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "listen", required_argument, NULL, 'l' },
		{ "token-file", required_argument, NULL, 't' },
		{ "state-dir", required_argument, NULL, 'S' },
		{ "interval", required_argument, NULL, 'i' },
		{ "max-interval", required_argument, NULL, 'I' },
		{ "sched-slice", required_argument, NULL, 'L' },
		{ "netns", required_argument, NULL, 'n' },
		{ "manage", required_argument, NULL, 'm' },
		{ "policy", required_argument, NULL, 'p' },
		{ "check-policy", required_argument, NULL, 'C' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	const char *port;
	uint32_t seen = 0;
	int c;

	o->socket = VQ_DEFAULT_SOCKET;
	o->state_dir = VQ_DEFAULT_STATE_DIR;
	o->interval_ms = TICK_DEFAULT_MS;
	o->slice_us = SLICE_DEFAULT_US;
	/* errors named "vqtuned: ..." as the others are, not by argv[0] ("build/vqtuned: ...") */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:l:t:S:i:I:L:n:m:p:C:vVh", lo, NULL)) != -1) {
		if (opt_once(lo, c, &seen) || (c > 0 && optarg && opt_path(lo, c, optarg)))
			return -EINVAL;
		switch (c) {
		case 's': o->socket = optarg; break;
		case 'l':
			port = strrchr(optarg, ':');
			if (port && leading_zero(port + 1)) {
				fprintf(stderr, "vqtuned: --listen: '%s': port '%s' must be written "
					"without a leading zero\n", optarg, port + 1);
				return -EINVAL;
			}
			if (!api_sock_tcp_spec_valid(optarg)) {
				fprintf(stderr, "vqtuned: --listen: '%s' is not ADDR:PORT or "
					"[ADDR6]:PORT with a numeric address and a port 1..65535\n",
					optarg);
				return -EINVAL;
			}
			o->listen = optarg;
			break;
		case 't': o->token_file = optarg; break;
		case 'S': o->state_dir = optarg; break;
		case 'p': o->policy = optarg; break;
		case 'v': log_set_level(LOG_LVL_DEBUG); break;
		case 'i':
			if (opt_ms("interval", optarg, &o->interval_ms))
				return -EINVAL;
			o->interval_given = true;
			break;
		case 'I':
			if (opt_ms("max-interval", optarg, &o->max_interval_ms))
				return -EINVAL;
			break;
		case 'L':
			if (opt_slice(optarg, &o->slice_us))
				return -EINVAL;
			break;
		case 'n':
			if (o->n_netns == MAX_NETNS_ARGS) {
				fprintf(stderr, "vqtuned: --netns: at most %d\n", MAX_NETNS_ARGS);
				return -EINVAL;
			}
			if (!netns_name_valid(optarg)) {
				fprintf(stderr, "vqtuned: --netns: '%s' is not a namespace name "
					"(1..%d bytes, no '/', not '.', '..' or '-')\n", optarg,
					NETNS_NAME_MAX - 1);
				return -EINVAL;
			}
			o->netns[o->n_netns++] = optarg;
			break;
		case 'm':
			if (opt_manage(o, optarg))
				return -EINVAL;
			break;
		case 'C':
			if (o->check) {
				fprintf(stderr, "vqtuned: --check-policy: one FILE per run "
					"('%s' after '%s')\n", optarg, o->check);
				return -EINVAL;
			}
			o->check = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("vqtuned " VQ_VERSION "\n");
			exit(0);
		case ':':	/* the leading ':' of the optstring: an option without its value */
		default: {
			char why[160];

			fprintf(stderr, "vqtuned: %s\n", util_opt_error(lo, c, argv[optind - 1],
									optopt, why, sizeof(why)));
			usage(stderr);
			return -EINVAL;
		}
		}
	}
	if (optind < argc) {
		char brief[UTIL_ARG_BRIEF_BYTES];

		fprintf(stderr, "vqtuned: unexpected argument '%s'\n",
			util_arg_brief(argv[optind], brief, sizeof(brief)));
		return -EINVAL;
	}
	/* after both: either may come first; the default paces (pace.h PACE_DEFAULT_FACTOR) */
	if (!o->max_interval_ms) {
		o->max_interval_ms = (uint64_t)o->interval_ms * PACE_DEFAULT_FACTOR > TICK_MAX_MS ?
			TICK_MAX_MS : o->interval_ms * PACE_DEFAULT_FACTOR;
	} else if (o->max_interval_ms < o->interval_ms) {
		fprintf(stderr, "vqtuned: --max-interval: %u ms is below --interval %u ms%s (equal "
			"to it keeps the tick fixed)\n", o->max_interval_ms, o->interval_ms,
			o->interval_given ? "" : ", its default");
		return -EINVAL;
	}
	/* the token only guards TCP writes: alone it would be silently useless */
	if (o->token_file && !o->listen) {
		fprintf(stderr, "vqtuned: --token-file needs --listen: the token allows writes "
			"on the TCP listener only (the unix socket is guarded by its file mode)\n");
		return -EINVAL;
	}
	/* a token file that holds no token is an option error, with -C as without it */
	if (o->token_file && opt_token_check(o->token_file))
		return -EINVAL;
	/* after the whole command line and its cross-checks: a second file, a stray argument
	 * or options that could not run together are refused (exit 2), not left unchecked
	 * behind a valid policy file */
	if (o->check)
		exit(policy_check_file(o->check, stderr) ? 1 : 0);
	return 0;
}

/* sd_notify(3) by hand: one datagram to $NOTIFY_SOCKET, no libsystemd needed. */
static void notify(const char *msg)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	socklen_t len;
	int fd;

	if (!path || !*path || strlen(path) >= sizeof(sa.sun_path))
		return;
	memcpy(sa.sun_path, path, strlen(path));
	if (sa.sun_path[0] == '@')
		sa.sun_path[0] = '\0';	/* abstract namespace */
	len = offsetof(struct sockaddr_un, sun_path) + strlen(path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&sa, len);
	close(fd);
}

static int epoll_add(int ep, int fd, uint64_t tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = tag };

	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

enum { TAG_TIMER = 1, TAG_SIGNAL, TAG_API, TAG_MON = 0x100 };

static struct pace pace;
static uint64_t pace_events;		/* act_event_count() the pacer has seen */
static uint64_t pace_set_gen;		/* dev_set_gen() the pacer has seen */

static struct timespec ns_ts(uint64_t ns)
{
	return (struct timespec){ (time_t)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };
}

/* Arm @tfd to expire @first_ns from now, then every @every_ns; 0 or -errno. */
static int timer_arm_ns(int tfd, uint64_t first_ns, uint64_t every_ns)
{
	struct itimerspec its = { .it_interval = ns_ts(every_ns), .it_value = ns_ts(first_ns) };

	return timerfd_settime(tfd, 0, &its, NULL) < 0 ? -errno : 0;
}

static int timer_arm(int tfd, unsigned int ms)
{
	return timer_arm_ns(tfd, (uint64_t)ms * NSEC_PER_MSEC, (uint64_t)ms * NSEC_PER_MSEC);
}

/*
 * Put the pacer's interval @ms in force on @tfd (and in the status): from now, or with
 * @sooner, from the next expiry when that comes before @ms from now (an event between
 * ticks hurries the tick due, never puts it off).
 */
static void pace_apply(int tfd, unsigned int ms, bool sooner)
{
	uint64_t every = (uint64_t)ms * NSEC_PER_MSEC, first = every, left;
	struct itimerspec cur;
	int err;

	if (sooner && !timerfd_gettime(tfd, &cur)) {
		left = (uint64_t)cur.it_value.tv_sec * NSEC_PER_SEC + (uint64_t)cur.it_value.tv_nsec;
		/* 0: disarmed, or expired and not yet read (the loop reads it next) */
		if (left && left < first)
			first = left;
	}
	err = timer_arm_ns(tfd, first, every);
	if (err)
		log_warn("timerfd: tick of %u ms: %s", ms, strerror(-err));
	else
		runtime.tick_ns = every;
}

/*
 * Whether this tick found work for the controllers (daemon/pace.h): pacing applies only
 * while a policy controls (active or advise) at least one device; with none, every tick
 * is at --interval, as the samples are then all vqtuned gives. A controlled device whose
 * interval was invalid, whose link flags or operational state changed (a carrier flip), or
 * whose packet, byte, drop or error rate moved (pace_moved()) is work.
 */
static bool pace_work(void)
{
	bool controlled = false, moved = false;
	struct device *d;

	dev_for_each(d) {
		if (!decide_controlled(d)) {
			d->pace_have = false;
			continue;
		}
		controlled = true;
		if (!d->dvalid || !d->pace_have || d->flags != d->pace_flags ||
		    d->operstate != d->pace_operstate ||
		    pace_moved(d->pace_rate, d->drate, DC_NUM))
			moved = true;
		memcpy(d->pace_rate, d->drate, sizeof(d->pace_rate));
		d->pace_flags = d->flags;
		d->pace_operstate = d->operstate;
		d->pace_have = d->dvalid;
	}
	return !controlled || moved;
}

/* Whether an event was recorded or a device came or went since the pacer last asked. */
static bool pace_news(void)
{
	bool news = act_event_count() != pace_events || dev_set_gen() != pace_set_gen;

	pace_events = act_event_count();
	pace_set_gen = dev_set_gen();
	return news;
}

/* Pacing asked for: --max-interval above --interval (off, the pacer costs a tick nothing). */
static bool pace_on(void)
{
	return pace.max_ms > pace.base_ms;
}

/*
 * --sched-slice: ask for it before anything else runs (slice.h says why). A refusal (a
 * seccomp filter, an operator's real-time policy) is logged and the daemon goes on with the
 * kernel's slice: the slice only shortens how long a tick holds a CPU another task wants.
 */
static void slice_apply(unsigned int us)
{
	int64_t ns = slice_set(0, us);

	if (ns < 0) {
		log_warn("--sched-slice %u us: %s: the kernel's slice stays", us,
			 ns == -EOPNOTSUPP ? "not a SCHED_OTHER or SCHED_BATCH thread" :
			 strerror((int)-ns));
		ns = slice_set(0, 0);
	} else if (us && (uint64_t)ns != (uint64_t)us * NSEC_PER_USEC) {
		/* before 6.12 the call succeeds and the kernel keeps no slice per task */
		log_info("--sched-slice %u us: this kernel keeps no slice per task (Linux 6.12+); "
			 "its own slice stays", us);
	}
	runtime.sched_slice_ns = ns > 0 ? (uint64_t)ns : 0;
}

static void tick(int tfd)
{
	/* the wall window holds the CPU one: a tick's CPU time never reads above its wall time */
	uint64_t w0 = util_now_ns(CLOCK_MONOTONIC), lap, writes;
	uint64_t t0 = util_now_ns(CLOCK_PROCESS_CPUTIME_ID);
	unsigned int next;
	bool busy;

	smp_tick();
	lap = util_now_ns(CLOCK_MONOTONIC);
	writes = runtime.part_ns[TP_WRITES];
	/* after the sample (and its outside-write check): decide on what was just read */
	decide_tick(pace_ticks(&pace));
	/* the writes inside it are their own part (decide.c apply()) */
	runtime_lap_outer(&lap, TP_CONTROL, TP_WRITES, writes);
	if (pace_on()) {
		/* both always run: pace_work() keeps every controlled device's readings */
		busy = pace_work();
		busy |= pace_news();
		next = pace_next(&pace, busy);
		if ((uint64_t)next * NSEC_PER_MSEC != runtime.tick_ns)
			pace_apply(tfd, next, false);
	}
	runtime.ticks++;
	runtime.tick_cpu_ns += util_now_ns(CLOCK_PROCESS_CPUTIME_ID) - t0;
	runtime.tick_wall_ns += util_now_ns(CLOCK_MONOTONIC) - w0;
}

/*
 * An event between ticks (an API write, a policy load) or a device that came or went (a
 * namespace's monitor news) is work: the next tick comes within --interval, not at the
 * paced one.
 */
static void pace_poke(int tfd)
{
	if (pace_on() && pace_news() && pace_reset(&pace))
		pace_apply(tfd, pace.cur_ms, true);
}

/*
 * SIGHUP: re-read --policy. A bad file changes nothing (atomic) and is an event too, which
 * carries the first error as the log's first "policy ..." line gives it (it starts with the
 * path, so the event does not repeat it).
 */
static void sighup_reload(void)
{
	static char why[POLICY_WHY_MAX];	/* 4.5 KB: off the stack of the loop */
	static struct policy before;		/* for the event's changes; off the stack too */
	char *diff;

	if (!policy_path()) {
		log_info("SIGHUP: no --policy file to reload");
		return;
	}
	before = *policy_get();
	if (policy_load_file(policy_path(), why, sizeof(why))) {
		log_err("policy %s rejected; '%s' stays in force", policy_path(),
			policy_get()->name);
		act_event(NULL, NULL, NULL, NULL, -1, NULL, NULL, WHO_ERROR, "policy reload "
			  "(SIGHUP) rejected, '%s' stays in force: %s", policy_get()->name, why);
		return;
	}
	diff = policy_diff(&before, policy_get());
	act_event(NULL, NULL, NULL, NULL, -1, NULL, NULL, WHO_MANUAL, "policy '%s' installed "
		  "from %s (SIGHUP), mode %s; %s", policy_get()->name, policy_path(),
		  policy_get()->mode, diff ? diff : "changes unknown (out of memory)");
	free(diff);
}

/* An epoll set of the signalfd @sfd and @api's listeners; -errno when none could be made. */
static int epoll_api(struct api *api, int sfd)
{
	int ep = epoll_create1(EPOLL_CLOEXEC), fds[4], n, k;

	if (ep < 0)
		return -errno;
	epoll_add(ep, sfd, TAG_SIGNAL);
	n = api_fds(api, fds, ARRAY_SIZE(fds));
	for (k = 0; k < n; k++)
		epoll_add(ep, fds[k], TAG_API);
	return ep;
}

/* Returns when SIGTERM/SIGINT arrives. */
static int loop(struct api *api, int tfd, int sfd)
{
	struct epoll_event evs[16];
	unsigned int i;
	int ep, n, k;

	ep = epoll_api(api, sfd);
	if (ep < 0)
		return ep;
	epoll_add(ep, tfd, TAG_TIMER);
	for (;;) {
		/*
		 * namespaces opened for a journal restore, or watched again after a deletion,
		 * join here; a deleted one left the set when its socket was closed (netns_del)
		 */
		for (i = 0; i < netns_count(); i++) {
			struct netns *ns = netns_at(i);

			if (!ns->polled && !epoll_add(ep, netns_mon_fd(ns), TAG_MON + ns->id))
				ns->polled = true;
		}
		n = epoll_wait(ep, evs, ARRAY_SIZE(evs), LOOP_IDLE_MS);
		if (n < 0 && errno != EINTR) {
			log_err("epoll_wait: %s", strerror(errno));
			break;
		}
		for (k = 0; k < n; k++) {
			uint64_t tag = evs[k].data.u64;

			if (tag == TAG_TIMER) {
				uint64_t exp = 0;

				if (read(tfd, &exp, sizeof(exp)) == sizeof(exp) && exp > 1)
					runtime.missed_ticks += exp - 1;
				tick(tfd);
			} else if (tag == TAG_SIGNAL) {
				struct signalfd_siginfo si;

				if (read(sfd, &si, sizeof(si)) != sizeof(si))
					continue;
				if (si.ssi_signo == SIGHUP) {
					sighup_reload();
					continue;
				}
				log_info("signal %u: restoring knobs and stopping", si.ssi_signo);
				close(ep);
				return 0;
			} else if (tag >= TAG_MON) {
				struct netns *ns = netns_by_id(tag - TAG_MON);

				/* deleted by a tick earlier in this batch */
				if (!ns)
					continue;
				netns_drain_mon(ns);
				if (ns->resync)
					smp_discover(ns);
			}
		}
		api_run(api);
		pace_poke(tfd);
	}
	close(ep);
	return -EIO;
}

/*
 * The restore is done and writes are refused (api_stopping()): answer reads for
 * STOP_LINGER_MS when a follower asked within STOP_FOLLOWER_MS, or until a second
 * SIGTERM/SIGINT.
 */
static void stop_linger(struct api *api, int sfd)
{
	uint64_t now = util_now_ns(CLOCK_MONOTONIC), asked = api_events_ns(api);
	uint64_t end = now + STOP_LINGER_MS * NSEC_PER_MSEC;
	struct signalfd_siginfo si;
	struct epoll_event ev;
	int ep, n;

	if (!asked || now - asked > STOP_FOLLOWER_MS * NSEC_PER_MSEC)
		return;
	ep = epoll_api(api, sfd);
	if (ep < 0)
		return;
	log_info("answering reads for %d ms: an events follower gets the restore", STOP_LINGER_MS);
	while ((now = util_now_ns(CLOCK_MONOTONIC)) < end) {
		n = epoll_wait(ep, &ev, 1, (int)((end - now) / NSEC_PER_MSEC) + 1);
		if (n == 1 && ev.data.u64 == TAG_SIGNAL && read(sfd, &si, sizeof(si)) ==
		    sizeof(si) && si.ssi_signo != SIGHUP)
			break;
		api_run(api);
	}
	close(ep);
}

static int setup_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static int setup_timer(unsigned int ms)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK), err;

	if (fd >= 0 && (err = timer_arm(fd, ms))) {
		close(fd);
		errno = -err;
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct api_config ac = { 0 };
	struct api *api = NULL;
	char run_dir[4096], sock_copy[4096], paced[96], slice[64];
	struct stat rst;
	int ret, sfd, tfd, rc = 1;
	json_t *restore_failed;
	unsigned int settled;
	unsigned int i;
	bool lost;

	if (parse_opts(argc, argv, &o))
		return 2;
	runtime.start_ns = util_now_ns(CLOCK_MONOTONIC);
	runtime.tick_ns = runtime.tick_base_ns = (uint64_t)o.interval_ms * NSEC_PER_MSEC;
	runtime.tick_max_ns = (uint64_t)o.max_interval_ms * NSEC_PER_MSEC;
	pace_init(&pace, o.interval_ms, o.max_interval_ms);
	slice_apply(o.slice_us);
	/* dirname() may return its argument or a static string: copy into a second buffer */
	snprintf(sock_copy, sizeof(sock_copy), "%s", o.socket);
	snprintf(run_dir, sizeof(run_dir), "%s", dirname(sock_copy));
	/* the namespaces' private sysfs mounts go next to the socket: name a missing directory */
	ret = stat(run_dir, &rst) ? -errno : S_ISDIR(rst.st_mode) ? 0 : -ENOTDIR;
	if (ret) {
		log_err("--socket %s: its directory %s %s", o.socket, run_dir,
			ret == -ENOENT ? "does not exist" : ret == -ENOTDIR ? "is not a directory" :
			strerror(-ret));
		return 1;
	}

	sfd = setup_signals();
	if (sfd < 0) {
		log_err("signalfd: %s", strerror(errno));
		return 1;
	}
	if (o.policy) {
		if (policy_load_file(o.policy, NULL, 0)) {
			log_err("policy %s rejected: vqtuned does not start with it", o.policy);
			return 1;
		}
		policy_set_path(o.policy);
	}
	ret = netns_init(run_dir);
	if (ret) {
		log_err("netlink setup: %s", strerror(-ret));
		goto err_netns;
	}
	for (i = 0; i < o.n_netns; i++) {
		ret = netns_add(o.netns[i]);
		if (ret == -EEXIST) {
			log_warn("--netns %s given twice: watched once", o.netns[i]);
			continue;
		}
		if (ret) {
			if (ret == -ENOENT)
				log_err("--netns %s: /run/netns/%s does not exist (create it with "
					"'ip netns add %s')", o.netns[i], o.netns[i], o.netns[i]);
			else
				log_err("--netns %s: %s", o.netns[i],
					ret == -EINVAL ? "not a valid namespace name" :
					strerror(-ret));
			goto err_netns;
		}
	}
	smp_set_manage(o.manage, o.n_manage);
	ret = act_init(o.state_dir);
	if (ret) {
		log_err("state dir %s: %s", o.state_dir, strerror(-ret));
		goto err_act;
	}
	/* the policy in force from the start is journalled like a SIGHUP or PUT install */
	if (o.policy)
		act_event(NULL, NULL, NULL, NULL, -1, NULL, NULL, WHO_MANUAL,
			  "policy '%s' installed from %s (start), mode %s", policy_get()->name,
			  o.policy, policy_get()->mode);
	/* first sample, then the crash restore, before anything else may write */
	smp_tick();
	/* not a tick (it reads every setting and builds every map): the ticks' parts start at 0 */
	memset(runtime.part_ns, 0, sizeof(runtime.part_ns));
	if (act_changed_count()) {
		unsigned int settled;
		int n = act_restore_all(NULL, &settled);

		log_info("restored %d knob(s) left changed by a previous run, %u owed nothing, %u "
			 "still owed (see the events)", n, settled, act_changed_count());
	}
	ac.unix_path = o.socket;
	ac.unix_mode = SOCKET_MODE;
	ac.tcp_addr = o.listen;
	ac.token_file = o.token_file;
	ret = api_start(&ac, &api);
	if (ret)
		goto err_api;	/* api_start() logged what failed, naming the listener */
	tfd = setup_timer(o.interval_ms);
	if (tfd < 0) {
		log_err("timerfd: %s", strerror(errno));
		goto err_timer;
	}
	/* the start's events and devices are no news to the first tick */
	pace_news();
	snprintf(paced, sizeof(paced), o.max_interval_ms > o.interval_ms ?
		 " (up to %u ms while a policy controls devices and nothing moves)" : " (fixed)",
		 o.max_interval_ms);
	/* -L 0 asks for nothing: the slice shown is the one the process started with */
	if (runtime.sched_slice_ns)
		snprintf(slice, sizeof(slice), "%llu us%s",
			 (unsigned long long)(runtime.sched_slice_ns / NSEC_PER_USEC),
			 o.slice_us ? "" : " (the kernel's own, none asked for)");
	else
		snprintf(slice, sizeof(slice), "none per task");
	log_info("vqtuned %s: %u device(s), tick %u ms%s, scheduler slice %s, API on %s%s%s",
		 VQ_VERSION, dev_count(), o.interval_ms, paced, slice, o.socket,
		 o.listen ? " and " : "", o.listen ? o.listen : "");
	notify("READY=1");
	if (!loop(api, tfd, sfd))
		rc = 0;
	notify("STOPPING=1");
	close(tfd);
err_timer:
	api_stopping(api);
err_api:
	restore_failed = json_array();
	ret = act_restore_all(restore_failed, &settled);
	/* a knob that could not be put back (also one whose device is gone) fails the exit */
	lost = act_changed_count() || json_array_size(restore_failed);
	log_info("restored %d knob(s), %u owed nothing%s", ret, settled,
		 lost ? "; some could not be restored, or the journal not saved (see above)" : "");
	if (lost)
		rc = 1;
	json_decref(restore_failed);
	stop_linger(api, sfd);
	api_stop(api);
	act_fini();
err_act:
	dev_fini();
err_netns:
	netns_fini();
	close(sfd);
	return rc;
}
