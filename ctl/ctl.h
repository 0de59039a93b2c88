/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vqtunectl internals: the CLI client of the vqtuned HTTP API (docs/api.md).
 *
 * Modules: main.c (global options, command table), http.c (libcurl transport and error
 * reporting), fmt.c (pure parsing/formatting helpers, unit-tested), table.c (aligned text
 * tables, unit-tested), output.c (text renderers of server replies), cmd_*.c (command
 * handlers), watch.c (live views: watch, events --follow).
 *
 * Handlers return an enum vq_exit value; everything that prints an error prints it once,
 * where it is detected.
 */
#ifndef VQ_CTL_H
#define VQ_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "vqtune_api.h"

#define CTL_PROG "vqtunectl"

/* ---- fmt.c: pure helpers (no I/O, no libcurl) ---- */

/*
 * Parse an unsigned decimal integer: digits only, no sign, no spaces, no exponent, no
 * empty string, no leading zero ("0" itself is fine), must fit in 64 bits. Returns 0 or
 * -EINVAL (not digits) / -EDOM (a leading zero) / -ERANGE (too big).
 */
int ctl_parse_u64(const char *s, uint64_t *out);

/* ctl_parse_u64() within [min, max]: -ERANGE also for a value that fits 64 bits but not there. */
int ctl_parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Decimal places accepted in a seconds value: the millisecond resolution we keep. */
#define CTL_SECONDS_DECIMALS	3

/*
 * Parse a duration in seconds, "2" or "0.25" (at most 3 decimals), into milliseconds in
 * [min_ms, max_ms]. Returns 0 or -EINVAL / -ERANGE.
 */
int ctl_parse_seconds_ms(const char *s, uint64_t min_ms, uint64_t max_ms, uint64_t *out_ms);

/*
 * Check a --host argument: HOST:PORT, [ADDR6]:PORT (RFC 3986 section 3.2.2, zone as RFC
 * 6874 allows), either one after "http://", optionally followed by '/'s. HOST is a name or
 * IPv4 address (letters, digits, '.', '-', '_'); PORT is 1..65535 in decimal. Returns 0,
 * -EPROTONOSUPPORT for "https://" (vqtuned serves plain HTTP), -ERANGE for a decimal PORT
 * outside 1..65535 (0, 65536, 123456), -EDOM for one in range written with a leading zero
 * ("09477", refused as vqtuned -l refuses it), or -EINVAL. Names are not resolved here.
 */
int ctl_parse_host(const char *s);
/* TCP ports are 1..65535 (0 is not a port one can connect to). */
#define CTL_PORT_MAX		65535UL
/* a --host PORT as quoted in a message: 5 digits and room for a longer mistake (cut) */
#define CTL_PORT_TEXT_BYTES	24
/* The PORT digits of a --host @s that ctl_parse_host() took apart (its last ':'), or "". */
void ctl_host_port_text(const char *s, char *out, size_t len);

/*
 * Percent-encode one URL path segment or query value (RFC 3986 section 2.1): every byte
 * but the unreserved set ALPHA / DIGIT / "-" / "." / "_" / "~" (section 2.3) becomes %HH,
 * exactly as curl_easy_escape() does. len is the byte count (names may hold any byte).
 * Returns a malloc'd string or NULL when out of memory.
 */
char *ctl_url_escape(const char *s, size_t len);

/*
 * Build the URL path for a device selector DEV ("NAME" or "NETNS:NAME", split at the last
 * ':' since names cannot hold ':'), followed by suffix (may be "" or NULL, not escaped):
 * "/v1/devices/<esc(NETNS)>:<esc(NAME)><suffix>". Returns a malloc'd string, or NULL when
 * DEV is empty / has an empty NAME or an empty NETNS (":eth0"; the daemon's own namespace is
 * "-") (-EINVAL in *err), the path would pass the API's request-target limit
 * (VQ_API_URI_MAX_BYTES, -E2BIG: no selector that long names a device, and past 32 KiB the
 * server would not even answer) or memory runs out (-ENOMEM).
 */
char *ctl_dev_path(const char *dev, const char *suffix, int *err);

/* Selector for a device object from /v1/devices: "NETNS:NAME", "-:NAME" for own netns. */
char *ctl_dev_selector(const char *netns, const char *name);
/*
 * The same with the raw bytes of the name, from its "name_hex" (docs/api.md): what names
 * a device whose display form ("v\\xff0" for the bytes 76 ff 30) is another device's raw
 * name, and so is ambiguous (409), as the daemon's own advice does. NULL when @name_hex is
 * not an even count of hex digits without a zero byte, or when memory runs out.
 */
char *ctl_dev_selector_hex(const char *netns, const char *name_hex);

/*
 * Format a rate in bytes per second as bits per second with SI prefixes (powers of 1000,
 * as ip -s and ethtool do): 1176250000 -> "9.41 Gbit/s". Three significant digits.
 * Negative, NaN or infinite input prints "-". Returns buf.
 */
char *ctl_fmt_bitrate(double bytes_per_s, char *buf, size_t len);

/* A count or per-second count with SI prefix: 1234567 -> "1.23M", 999 -> "999". Returns buf. */
char *ctl_fmt_si(double v, char *buf, size_t len);

/*
 * A duration in ns as "3d04h05m", "2h03m", "5m07s", "12.0s"; under a second in ms ("100ms",
 * "2.5ms"; 999.95 ms and up as "1.0s"), under a millisecond in whole us ("750us"), under a
 * microsecond in ns ("999ns"), and 0 as "0s". Returns buf.
 */
char *ctl_fmt_duration_ns(uint64_t ns, char *buf, size_t len);

/* CLOCK_REALTIME ns as UTC "2026-11-30T03:00:00.123Z". Returns buf. */
char *ctl_fmt_time_ns(uint64_t ns, char *buf, size_t len);

/*
 * A JSON number as `policy set` reads it back to the same value: an integer digit for digit
 * (all 64 bits), a whole real without an exponent and with ".0" (below 1e21), any other real
 * in the fewest %g digits (up to 17, the round-trip width of a double) that strtod() returns
 * to it. Not a number: "-". Returns buf.
 */
char *ctl_fmt_json_number(const json_t *v, char *buf, size_t len);

/* Room for ctl_fmt_range_error() with 20-digit bounds, a long option and unit. */
#define CTL_RANGE_ERROR_BYTES	512
/*
 * The one wording of a number outside its range on the command line, for every option and
 * argument: "NAME: 'ARG' is out of range [MIN, MAX] (UNIT)", e.g. "--queue: '1024' is out of
 * range [0, 1023] (queue index)"; @min and @max as text (integers, or seconds with their
 * decimals). Returns @buf.
 */
char *ctl_fmt_range_error(char *buf, size_t len, const char *name, const char *arg,
			  const char *min, const char *max, const char *unit);

/*
 * The text to print instead of an API error's message (docs/api.md, error codes) when
 * the message speaks in the API's terms: 409 "conflict" on field "disruptive" (KNOB needs
 * --disruptive) and 403 "read_only" on field "dev", worded by the error's @reason as the
 * daemon states it (VQ_ERR_REASON_LOOPBACK: DEV is never written; VQ_ERR_REASON_NOT_MANAGED:
 * DEV is the machine's own interface, written only under --manage; NULL or another word:
 * the API's message); 404 "not_found" on field "knob" as "no knob named 'KNOB' (vqtunectl
 * knobs DEV lists DEV's knobs)" when KNOB and DEV are printable ASCII (else the API's
 * display form is the one to show). @dev and @knob are the command's DEV and KNOB (NULL:
 * not known).
 * Returns @buf, or NULL when the API's own message is the one to show.
 */
const char *ctl_error_words(const char *code, const char *field, const char *reason,
			    const char *dev, const char *knob, char *buf, size_t len);

/* ---- jpath.c: dotted paths in JSON objects (pure) ---- */

/*
 * Set key "a.b.c" in obj to value (reference stolen, also on error), creating missing
 * intermediate objects. An object set where an object is sets the members it gives,
 * recursively, and keeps the others (`policy set ...tx_full_mode '{}'` changes nothing);
 * any other value replaces. Returns 0, -EINVAL (empty path/segment, or a non-object in the
 * way) or -ENOMEM.
 */
int ctl_jpath_set(json_t *obj, const char *path, json_t *value);

/* Longest segment of a dotted path ctl_jpath_get() follows (policy keys are short words). */
#define CTL_JPATH_SEG_MAX_BYTES	256
/* Room for ctl_fmt_json_number(): 17 significant digits, sign, point, exponent. */
#define CTL_JSON_NUMBER_BYTES	64

/* The value at dotted @path in @obj, borrowed; NULL when a segment is missing or not an object. */
const json_t *ctl_jpath_get(const json_t *obj, const char *path);

/*
 * What `policy set KEY VALUE` prints: "policy 'NAME': KEY OLD -> NEW", NAME from @after,
 * OLD from @before and NEW from @after (both as GET /v1/policy shows the policy object),
 * numbers as ctl_fmt_json_number() writes them, other values as compact JSON, a missing
 * one as "(absent)". Returns a malloc'd line, NULL when memory runs out.
 */
char *ctl_policy_change_line(const json_t *before, const json_t *after, const char *key);

/*
 * Whether the policy @now holds what @before (as GET /v1/policy shows it) does, compared as
 * JSON values the way the daemon reads them: a number by its value where @before holds a
 * real (the field takes reals: 20000 is 20000.0), an integer against an integer exactly
 * (a real in an integer field differs: the daemon refuses it); objects member by member in
 * any order, arrays element by element; anything else as json_equal().
 */
bool ctl_policy_same(const json_t *now, const json_t *before);

/*
 * After `policy set` turned the policy @before into @now (both as GET /v1/policy shows them):
 * unless the name itself was what changed, or nothing did, @now's name says it is no longer
 * the policy that name stands for: "NAME (modified)", appended once (a name that ends in it
 * keeps it), NAME cut at a UTF-8 character boundary so the whole fits 63 bytes; "nothing"
 * is ctl_policy_same(). Returns 1 when it renamed, 0 when not, -ENOMEM.
 */
int ctl_policy_mark_modified(json_t *now, const json_t *before);

/*
 * Parse a command-line value: valid JSON (number, true, false, null, "string", object,
 * array) is taken as such, anything else is a JSON string of the text. NULL on ENOMEM.
 */
json_t *ctl_json_value_from_arg(const char *arg);

/*
 * A command-line value that is JSON but holds a number jansson cannot (json_int_t is 64-bit
 * signed, a real a double): such text would go on as a string and be refused for its type.
 * A bare number (RFC 8259 section 6 grammar) is named with its range, "'ARG' is too big for
 * a JSON integer (a JSON integer must lie within [MIN, MAX])", as the daemon words the same
 * number in a policy file; a number inside an array or object with jansson's words. Returns
 * 0 when @arg is no such value, else -ERANGE with the words in @why.
 */
int ctl_json_arg_overflow(const char *arg, char *why, size_t len);

/* ---- table.c: aligned text tables (pure) ---- */

struct ctl_table;

/* Columns whose header starts with '>' are right-aligned (the '>' is not printed). */
struct ctl_table *ctl_table_new(const char *const *headers, unsigned int ncols);
/* Append a row of ncols strings (copied). Returns 0 or -ENOMEM. */
int ctl_table_add(struct ctl_table *t, const char *const *cells);
/* Print with two spaces between columns, no trailing spaces. */
void ctl_table_print(const struct ctl_table *t, FILE *f);
void ctl_table_free(struct ctl_table *t);

/* ---- http.c: transport ---- */

struct ctl_conn;

struct ctl_conn_opts {
	const char *socket_path;	/* unix socket; used when host is NULL */
	const char *host;		/* HOST:PORT or http[s]://HOST:PORT */
	const char *token_file;		/* bearer token file, or NULL */
	uint64_t timeout_ms;		/* whole-request timeout */
};

/* Returns NULL after printing why (bad token file, no memory). */
struct ctl_conn *ctl_conn_new(const struct ctl_conn_opts *o);
void ctl_conn_free(struct ctl_conn *c);

/*
 * One request. method: "GET", "PUT", "POST", "DELETE". path: already escaped, starting
 * with '/'. body: JSON to send (NULL: none). On 2xx *reply gets the parsed JSON body (owned
 * by the caller). On error, prints "vqtunectl: <message> (<code>[, field <f>])" or the
 * transport failure naming the socket/URL, and returns the vq_exit code.
 */
int ctl_request(struct ctl_conn *c, const char *method, const char *path, json_t *body,
		json_t **reply);

/*
 * ctl_request() with the body @text of @len bytes sent as it is (NULL: none), so that an
 * error's "line" and "column" (docs/api.md "Errors") are places in @text.
 */
int ctl_request_text(struct ctl_conn *c, const char *method, const char *path,
		     const char *text, size_t len, json_t **reply);

/*
 * The file the next requests' bodies are the text of (NULL: none): an error reply with
 * "line" and "column" is then printed as "FILE:LINE:COLUMN: message", as vqtuned -C places
 * its faults. The string must outlive those requests.
 */
void ctl_conn_file(struct ctl_conn *c, const char *file);

/*
 * The DEV and KNOB the next requests are about (NULL: none), for ctl_error_words(); the
 * strings must outlive those requests.
 */
void ctl_conn_subject(struct ctl_conn *c, const char *dev, const char *knob);

/* GET path like ctl_request() but print nothing on failure (optional extra data). */
int ctl_request_quiet(struct ctl_conn *c, const char *path, json_t **reply);

/* Every request from now on prints nothing on failure (@quiet), or as usual again. */
void ctl_conn_quiet(struct ctl_conn *c, bool quiet);

/*
 * Whether something at the address ever accepted a connection of @c: a reply of any kind,
 * or a connection closed before the reply ("Connection reset by peer" from a port forwarder
 * whose daemon is not up yet). A failed connect() or name lookup, or a timeout before the
 * connection was made, is not. A live view (watch, events --follow) waits for a daemon only
 * at such an address: one that never did is most likely mistyped (vqtunectl(8)).
 */
bool ctl_conn_reached(const struct ctl_conn *c);

/* ---- output.c ---- */

extern bool ctl_json_mode;

/* Print a reply: pretty JSON in --json mode, else through the text renderer. */
void ctl_print(json_t *reply, void (*text)(json_t *reply));
void ctl_print_json(json_t *v);
void ctl_text_status(json_t *r);
void ctl_text_device(json_t *r);
void ctl_text_queues(json_t *r);
void ctl_text_events(json_t *r);
void ctl_text_changes(json_t *r);
void ctl_text_policy(json_t *r);
/* One event as one line (no newline handling by caller). */
void ctl_text_event_line(json_t *ev, FILE *f);
/* Devices table; rates[i] holds totals.rates of device i or NULL. */
void ctl_text_devices(json_t *devices, json_t *const *rates);

/* ---- commands ---- */

struct ctl_cmd {
	const char *word;
	int (*fn)(struct ctl_conn *c, int argc, char **argv);
	const char *usage;	/* arguments after the word */
	const char *help;	/* one line */
};

/* Print "vqtunectl: <msg>" and a hint to the command's help; returns VQ_EXIT_USAGE. */
int ctl_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An argument up to this many bytes is quoted whole in a message; a longer one shortened. */
#define CTL_ARG_SHOWN_MAX	64
/* Room for ctl_arg_shown()'s text: the quoted head, "...' (", a size and " bytes)". */
#define CTL_ARG_SHOWN_BYTES	(CTL_ARG_SHOWN_MAX + 48)
/*
 * @arg as a message names it: "'ARG'", or for one longer than CTL_ARG_SHOWN_MAX bytes
 * "'HEAD...' (N bytes)", HEAD its first CTL_ARG_SHOWN_MAX / 2 bytes, so that a 70 KB
 * argument neither floods the terminal nor pushes the reason out of a fixed-size message.
 * Written into @buf (CTL_ARG_SHOWN_BYTES); returns @buf.
 */
char *ctl_arg_shown(const char *arg, char *buf, size_t len);
/* True if argv holds -h/--help; then the command's help has been printed. */
bool ctl_want_help(const char *cmd, int argc, char **argv);

/* "-x"/"--xx" is an option; "-", "-1" (a bad VALUE) and "-:eth0" (a DEV) are not. */
bool ctl_is_option(const char *a);

/*
 * Command options: "--name N" or "--name=N". Returns 1 when argv[*i] is that option and
 * stores its argument (advancing *i), 0 when it is not, -1 after a usage error (missing
 * argument).
 */
int ctl_opt_arg(const char *cmd, const char *name, int argc, char **argv, int *i,
		const char **arg);
/*
 * Same, parsed as an unsigned integer in [min, max] of @unit (for ctl_u64_error()); -1 after
 * ctl_u64_error()'s message.
 */
int ctl_opt_u64(const char *cmd, const char *name, uint64_t min, uint64_t max,
		const char *unit, int argc, char **argv, int *i, uint64_t *out);

/*
 * An option that takes a value may be given once: a second one is a usage error, "NAME
 * given more than once" (exit 2), rather than the last one silently winning (the API, too,
 * refuses a repeated query parameter). Returns 0 and sets *seen the first time, -1 after
 * the error.
 */
int ctl_opt_once(const char *cmd, const char *name, bool *seen);
/* ctl_opt_u64() for an option that may be given once (ctl_opt_once()). */
int ctl_opt_u64_once(const char *cmd, const char *name, uint64_t min, uint64_t max,
		     const char *unit, int argc, char **argv, int *i, uint64_t *out, bool *seen);

/*
 * The one wording of a bad number on the command line, naming the option or field @name:
 * "NAME: 'ARG' is not an unsigned decimal integer" for -EINVAL, ctl_fmt_range_error()'s
 * "NAME: 'ARG' is out of range [MIN, MAX] (UNIT)" for -ERANGE (too large for 64 bits too).
 * Returns VQ_EXIT_USAGE.
 */
int ctl_u64_error(const char *cmd, const char *name, const char *arg, int err, uint64_t min,
		  uint64_t max, const char *unit);
/* The same for seconds (ctl_parse_seconds_ms()): "... is out of range [0.01, 3600] (seconds)". */
int ctl_seconds_error(const char *cmd, const char *name, const char *arg, int err,
		      uint64_t min_ms, uint64_t max_ms);

/* Instance selectors as the API takes them (docs/api.md): queue 0..1023, NAPI ids u32 not 0. */
#define CTL_QUEUE_MAX		1023ULL
#define CTL_NAPI_ID_MIN		1ULL
#define CTL_NAPI_ID_MAX		UINT32_MAX

int cmd_status(struct ctl_conn *c, int argc, char **argv);
int cmd_devices(struct ctl_conn *c, int argc, char **argv);
int cmd_device(struct ctl_conn *c, int argc, char **argv);
int cmd_queues(struct ctl_conn *c, int argc, char **argv);
int cmd_set(struct ctl_conn *c, int argc, char **argv);
int cmd_release(struct ctl_conn *c, int argc, char **argv);
int cmd_pause(struct ctl_conn *c, int argc, char **argv);
int cmd_resume(struct ctl_conn *c, int argc, char **argv);
int cmd_restore(struct ctl_conn *c, int argc, char **argv);
int cmd_policy(struct ctl_conn *c, int argc, char **argv);
int cmd_events(struct ctl_conn *c, int argc, char **argv);
int cmd_watch(struct ctl_conn *c, int argc, char **argv);

/*
 * ctl_dev_path() for the DEV argument of command @cmd (every command taking DEV), or NULL
 * after printing why: a usage error naming DEV, or out of memory.
 */
char *ctl_dev_path_or_usage(const char *cmd, const char *dev, const char *suffix);

/* GET /v1/devices and, unless --json, each device's totals.rates (NULL: not known). */
struct ctl_devices {
	json_t *reply;
	json_t **rates;		/* one per entry of reply's "devices" */
	size_t n;
};

/*
 * Fetch everything the devices table shows into @d, printing nothing but an error, so a
 * caller prints only after the whole of it arrived (watch: no header before an error).
 * Returns a vq_exit code; @d is for ctl_devices_free() either way.
 */
int ctl_devices_fetch(struct ctl_conn *c, struct ctl_devices *d);
/* Print what ctl_devices_fetch() got: the table, or the reply as JSON with --json. */
void ctl_devices_print(const struct ctl_devices *d);
void ctl_devices_free(struct ctl_devices *d);
/* Fetch, then print (the devices command). */
int ctl_show_devices(struct ctl_conn *c);

/* Set by SIGINT/SIGTERM during live views (watch.c). */
extern volatile int ctl_stop;

#endif
