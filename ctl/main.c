// SPDX-License-Identifier: GPL-2.0-only
/*
 * vqtunectl: command-line client of vqtuned's HTTP API (docs/api.md, vqtunectl(8)).
 * Global options, then a table of {word, handler, usage, help} as iproute2's ip.c has.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <curl/curl.h>

#include "ctl.h"
#include "util.h"

/* Default whole-request timeout: the daemon answers from memory, 10 s means it is stuck. */
#define CTL_TIMEOUT_DEFAULT_MS	10000ULL
/* --timeout bounds: 1 ms up to one day. */
#define CTL_TIMEOUT_MIN_MS	1ULL
#define CTL_TIMEOUT_MAX_MS	86400000ULL
/* Milliseconds per second: seconds ranges are shown from their millisecond bounds. */
#define CTL_MS_PER_S		1000.0
/* A 64-bit bound in decimal (20 digits) or seconds in %g, with its NUL. */
#define CTL_U64_DIGITS_BYTES	32

static const struct ctl_cmd ctl_cmds[] = {
	{ "status", cmd_status, "", "daemon version, uptime, mode, tick and event counts" },
	{ "devices", cmd_devices, "", "list watched devices with their rx/tx rates" },
	{ "device", cmd_device, "DEV", "show one device and its knobs" },
	{ "knobs", cmd_device, "DEV", "alias of device" },
	{ "queues", cmd_queues, "DEV", "per-queue counters, rates, tx-stop/tx-wake and BQL" },
	{ "set", cmd_set, "DEV KNOB VALUE [--queue N] [--napi-id N] [--disruptive]",
	  "write a knob (and pin it)" },
	{ "release", cmd_release, "DEV KNOB [--queue N | --napi-id N]", "release a pinned knob" },
	{ "pause", cmd_pause, "DEV", "stop controllers acting on a device" },
	{ "resume", cmd_resume, "DEV", "let controllers act on a device again" },
	{ "policy", cmd_policy, "show | load FILE | set KEY VALUE", "show or change the policy" },
	{ "events", cmd_events, "[--since ID] [-f|--follow]", "list the knob change journal" },
	{ "restore", cmd_restore, "", "restore every knob vqtune changed to its original value" },
	{ "watch", cmd_watch, "[DEV] [--interval SEC] [--count N]",
	  "live view of all devices, or of one device's queues" },
};

#define CTL_NCMDS (sizeof(ctl_cmds) / sizeof(ctl_cmds[0]))

static const struct ctl_cmd *ctl_find(const char *word)
{
	size_t i;

	for (i = 0; i < CTL_NCMDS; i++)
		if (!strcmp(ctl_cmds[i].word, word))
			return &ctl_cmds[i];
	return NULL;
}

static void ctl_help(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: " CTL_PROG " [-s SOCKET | -H HOST:PORT] [-T TOKENFILE] [--json]\n"
		"                 [--timeout SEC] COMMAND [ARGS...]\n"
		"       " CTL_PROG " COMMAND --help\n\n"
		"Options:\n"
		"  -s, --socket SOCKET    unix socket of vqtuned (default $VQTUNE_SOCKET or\n"
		"                         " VQ_DEFAULT_SOCKET ")\n"
		"  -H, --host HOST:PORT   use the TCP listener instead (e.g. " VQ_DEFAULT_TCP ")\n"
		"  -T, --token-file FILE  send the bearer token in FILE (TCP writes need it)\n"
		"  -j, --json             print the server's JSON reply instead of tables\n"
		"  -t, --timeout SEC      give up on a request after SEC seconds (default 10)\n"
		"  -h, --help             this help\n"
		"  -V, --version          print the version\n\n"
		"Commands:\n");
	for (i = 0; i < CTL_NCMDS; i++) {
		if (ctl_cmds[i].usage[0])
			fprintf(f, "  %-8s %s\n", ctl_cmds[i].word, ctl_cmds[i].usage);
		else
			fprintf(f, "  %s\n", ctl_cmds[i].word);
		fprintf(f, "           %s\n", ctl_cmds[i].help);
	}
	fprintf(f, "\nDEV is NAME or NETNS:NAME (NETNS \"-\" is vqtuned's own namespace); NAME may\n"
		"be the raw name or its display form (\\xHH escapes). VALUE is an unsigned\n"
		"decimal integer.\n\n"
		"Exit status: 0 success, 1 the server answered with an error (a policy it\n"
		"rejects included), 2 bad command line or an input file that is no JSON object\n"
		"(caught here, before anything is sent), 3 vqtuned could not be reached,\n"
		"4 device, knob or queue not found (404).\n");
}

static void ctl_cmd_help(const struct ctl_cmd *c, FILE *f)
{
	if (!c) {
		ctl_help(f);
		return;
	}
	fprintf(f, "Usage: " CTL_PROG " [OPTIONS] %s %s\n  %s\n", c->word, c->usage, c->help);
	if (!strcmp(c->word, "set"))
		fprintf(f, "\n  VALUE      unsigned decimal integer in the knob's unit; the server\n"
			"             checks its range\n"
			"  --queue N  only the instance of TX queue N (queue knobs) or of the NAPI\n"
			"             serving RX queue N (NAPI knobs); default: every instance\n"
			"  --napi-id N  only the NAPI instance with this id (not with --queue;\n"
			"             each option at most once)\n"
			"  --disruptive  accept a knob that resets the device (rings, channels)\n");
	else if (!strcmp(c->word, "release"))
		fprintf(f, "\n  --queue N  release only queue N's instance (default: all); a queue\n"
			"             the knob has no instance on is an error (exit status 4)\n"
			"  --napi-id N  release only the NAPI instance with this id (not with\n"
			"             --queue); one the knob has none on is exit status 4 too\n");
	else if (!strcmp(c->word, "policy"))
		fprintf(f, "\n  show           print the policy as KEY = VALUE lines\n"
			"  load FILE      replace the policy with FILE's JSON object (\"-\": stdin);\n"
			"                 a {\"policy\":{...}} wrapper as printed by --json is accepted\n"
			"  set KEY VALUE  change one dotted KEY (e.g. mode); VALUE is JSON if it\n"
			"                 parses as JSON, else a string\n");
	else if (!strcmp(c->word, "events"))
		fprintf(f, "\n  --since ID  only events with id > ID (default 0)\n"
			"  --follow    keep polling every second and print new events; Ctrl-C\n"
			"              stops. With --json, one compact JSON event per line.\n");
	else if (!strcmp(c->word, "watch"))
		fprintf(f, "\n  --interval SEC  redraw period (default 1, may be fractional)\n"
			"  --count N       stop after N frames (default: until Ctrl-C)\n"
			"  On a terminal the screen is redrawn; otherwise frames are separated\n"
			"  by blank lines.\n");
}

int ctl_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs(CTL_PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" CTL_PROG " %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	return VQ_EXIT_USAGE;
}

bool ctl_want_help(const char *cmd, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			ctl_cmd_help(ctl_find(cmd), stdout);
			return true;
		}
	return false;
}

bool ctl_is_option(const char *a)
{
	return a[0] == '-' && (a[1] == '-' || isalpha((unsigned char)a[1]));
}

int ctl_opt_arg(const char *cmd, const char *name, int argc, char **argv, int *i,
		const char **arg)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, n))
		return 0;
	if (a[n] == '=') {
		*arg = a + n + 1;
		return 1;
	}
	if (a[n])
		return 0;
	if (*i + 1 >= argc) {
		ctl_usage_error(cmd, "%s needs an argument", name);
		return -1;
	}
	*arg = argv[++*i];
	return 1;
}

int ctl_u64_error(const char *cmd, const char *name, const char *arg, int err, uint64_t min,
		  uint64_t max, const char *unit)
{
	char lo[CTL_U64_DIGITS_BYTES], hi[CTL_U64_DIGITS_BYTES], msg[CTL_RANGE_ERROR_BYTES];
	char shown[CTL_ARG_SHOWN_BYTES];

	if (err == -EDOM)
		return ctl_usage_error(cmd, "%s: %s must be written without a leading zero",
				       name, ctl_arg_shown(arg, shown, sizeof(shown)));
	if (err != -ERANGE)
		return ctl_usage_error(cmd, "%s: %s is not an unsigned decimal integer", name,
				       ctl_arg_shown(arg, shown, sizeof(shown)));
	snprintf(lo, sizeof(lo), "%llu", (unsigned long long)min);
	snprintf(hi, sizeof(hi), "%llu", (unsigned long long)max);
	return ctl_usage_error(cmd, "%s", ctl_fmt_range_error(msg, sizeof(msg), name, arg, lo, hi,
							      unit));
}

int ctl_seconds_error(const char *cmd, const char *name, const char *arg, int err,
		      uint64_t min_ms, uint64_t max_ms)
{
	char lo[UTIL_REAL_MAX_BYTES], hi[UTIL_REAL_MAX_BYTES], msg[CTL_RANGE_ERROR_BYTES];

	/* the whole seconds came from ctl_parse_u64(): its words for a leading zero */
	if (err == -EDOM)
		return ctl_u64_error(cmd, name, arg, err, 0, 0, NULL);
	if (err == -ERANGE) {
		/* every digit of the bounds, as the daemon words a real's range (%g keeps 6) */
		util_real_str((double)min_ms / CTL_MS_PER_S, lo, sizeof(lo));
		util_real_str((double)max_ms / CTL_MS_PER_S, hi, sizeof(hi));
		return ctl_usage_error(cmd, "%s", ctl_fmt_range_error(msg, sizeof(msg), name, arg,
								      lo, hi, "seconds"));
	}
	return ctl_usage_error(cmd, "%s: '%s' is not a number of seconds (digits, at most %d "
			       "decimals)", name, arg, CTL_SECONDS_DECIMALS);
}

int ctl_opt_u64(const char *cmd, const char *name, uint64_t min, uint64_t max,
		const char *unit, int argc, char **argv, int *i, uint64_t *out)
{
	const char *arg;
	int r = ctl_opt_arg(cmd, name, argc, argv, i, &arg);

	if (r <= 0)
		return r;
	r = ctl_parse_u64_range(arg, min, max, out);
	if (r) {
		ctl_u64_error(cmd, name, arg, r, min, max, unit);
		return -1;
	}
	return 1;
}

int ctl_opt_once(const char *cmd, const char *name, bool *seen)
{
	if (*seen) {
		ctl_usage_error(cmd, "%s given more than once", name);
		return -1;
	}
	*seen = true;
	return 0;
}

int ctl_opt_u64_once(const char *cmd, const char *name, uint64_t min, uint64_t max,
		     const char *unit, int argc, char **argv, int *i, uint64_t *out, bool *seen)
{
	int r = ctl_opt_u64(cmd, name, min, max, unit, argc, argv, i, out);

	if (r <= 0)
		return r;
	return ctl_opt_once(cmd, name, seen) ? -1 : 1;
}

struct ctl_args {
	struct ctl_conn_opts conn;
	int cmd_index;
};

/* Parses the global options; returns -1 to go on, else the exit code. */
static int ctl_parse_global(int argc, char **argv, struct ctl_args *a)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "host", required_argument, NULL, 'H' },
		{ "token-file", required_argument, NULL, 'T' },
		{ "json", no_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	/* each may be given once (ctl_opt_once()) */
	bool socket_given = false, host_given = false, token_given = false, timeout_given = false;
	char shown[CTL_ARG_SHOWN_BYTES];
	struct sockaddr_un sun;
	int o, host_err, err;

	a->conn.socket_path = getenv("VQTUNE_SOCKET");
	if (!a->conn.socket_path || !*a->conn.socket_path)
		a->conn.socket_path = VQ_DEFAULT_SOCKET;
	a->conn.timeout_ms = CTL_TIMEOUT_DEFAULT_MS;
	opterr = 0;
	/* '+': stop at the command word, its options are parsed by the command */
	while ((o = getopt_long(argc, argv, "+:s:H:T:jt:hV", opts, NULL)) != -1) {
		switch (o) {
		case 's':
			if (ctl_opt_once(NULL, "-s/--socket", &socket_given))
				return VQ_EXIT_USAGE;
			a->conn.socket_path = optarg;
			break;
		case 'H':
			if (ctl_opt_once(NULL, "-H/--host", &host_given))
				return VQ_EXIT_USAGE;
			a->conn.host = optarg;
			break;
		case 'T':
			if (ctl_opt_once(NULL, "-T/--token-file", &token_given))
				return VQ_EXIT_USAGE;
			a->conn.token_file = optarg;
			break;
		case 'j':
			ctl_json_mode = true;
			break;
		case 't':
			if (ctl_opt_once(NULL, "-t/--timeout", &timeout_given))
				return VQ_EXIT_USAGE;
			err = ctl_parse_seconds_ms(optarg, CTL_TIMEOUT_MIN_MS, CTL_TIMEOUT_MAX_MS,
						   &a->conn.timeout_ms);
			if (err)
				return ctl_seconds_error(NULL, "--timeout", optarg, err,
							 CTL_TIMEOUT_MIN_MS, CTL_TIMEOUT_MAX_MS);
			break;
		case 'h':
			ctl_help(stdout);
			return VQ_EXIT_OK;
		case 'V':
			printf(CTL_PROG " " VQ_VERSION "\n");
			return VQ_EXIT_OK;
		case ':':	/* the leading ':' of the optstring: an option without its value */
		default: {
			char why[160];

			return ctl_usage_error(NULL, "%s", util_opt_error(opts, o, argv[optind - 1],
									 optopt, why, sizeof(why)));
		}
		}
	}
	/* one of them would be ignored; $VQTUNE_SOCKET is only a default and gives way to -H */
	if (socket_given && a->conn.host)
		return ctl_usage_error(NULL, "-s/--socket and -H/--host cannot be used together: "
				       "give the unix socket or the TCP address, not both");
	if (!*a->conn.socket_path)
		return ctl_usage_error(NULL, "--socket: empty path");
	if (!a->conn.host && strlen(a->conn.socket_path) >= sizeof(sun.sun_path))
		return ctl_usage_error(NULL, "%s: %s is longer than a unix socket path can be "
				       "(%zu bytes, unix(7))", socket_given ? "-s/--socket" :
				       "$VQTUNE_SOCKET", ctl_arg_shown(a->conn.socket_path, shown,
								       sizeof(shown)),
				       sizeof(sun.sun_path) - 1);
	host_err = a->conn.host ? ctl_parse_host(a->conn.host) : 0;
	if (host_err == -EPROTONOSUPPORT)
		return ctl_usage_error(NULL, "-H/--host: %s: vqtuned serves plain HTTP, not "
				       "https (put a TLS proxy in front and give its address)",
				       ctl_arg_shown(a->conn.host, shown, sizeof(shown)));
	if (host_err == -ERANGE) {
		char port[CTL_PORT_TEXT_BYTES];

		ctl_host_port_text(a->conn.host, port, sizeof(port));
		return ctl_usage_error(NULL, "-H/--host: %s: port '%s' is out of range [1, %lu] "
				       "(TCP port)", ctl_arg_shown(a->conn.host, shown, sizeof(shown)),
				       port, CTL_PORT_MAX);
	}
	if (host_err == -EDOM) {
		char port[CTL_PORT_TEXT_BYTES];

		ctl_host_port_text(a->conn.host, port, sizeof(port));
		return ctl_usage_error(NULL, "-H/--host: %s: port '%s' must be written without "
				       "a leading zero", ctl_arg_shown(a->conn.host, shown,
								       sizeof(shown)), port);
	}
	if (host_err)
		return ctl_usage_error(NULL, "-H/--host: %s is not HOST:PORT (for example "
				       VQ_DEFAULT_TCP ", [::1]:9477 or http://HOST:PORT)",
				       ctl_arg_shown(a->conn.host, shown, sizeof(shown)));
	if (optind >= argc)
		return ctl_usage_error(NULL, "no command given");
	a->cmd_index = optind;
	return -1;
}

int main(int argc, char **argv)
{
	char shown[CTL_ARG_SHOWN_BYTES];
	struct ctl_args a = { 0 };
	const struct ctl_cmd *cmd;
	struct ctl_conn *conn;
	int ret;

	ret = ctl_parse_global(argc, argv, &a);
	if (ret >= 0)
		return ret;
	cmd = ctl_find(argv[a.cmd_index]);
	if (!cmd)
		return ctl_usage_error(NULL, "unknown command %s",
				       ctl_arg_shown(argv[a.cmd_index], shown, sizeof(shown)));
	if (ctl_want_help(cmd->word, argc - a.cmd_index, argv + a.cmd_index))
		return VQ_EXIT_OK;
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		fprintf(stderr, CTL_PROG ": cannot initialise libcurl\n");
		return VQ_EXIT_ERROR;
	}
	conn = ctl_conn_new(&a.conn);
	if (!conn) {
		ret = a.conn.token_file ? VQ_EXIT_USAGE : VQ_EXIT_ERROR;
		goto out_curl;
	}
	ret = cmd->fn(conn, argc - a.cmd_index, argv + a.cmd_index);
	ctl_conn_free(conn);
out_curl:
	curl_global_cleanup();
	return ret;
}
