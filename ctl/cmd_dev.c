// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device commands of vqtunectl: status, devices, device/knobs, queues, set, release,
 * pause, resume, restore (docs/api.md "Routes").
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"

/* Positional arguments of set (DEV KNOB VALUE), the most any command takes. */
#define CTL_MAX_POS	3
/* "?queue=" plus the 20 digits of a 64-bit queue number, and the NUL. */
#define CTL_QUERY_BYTES	32
/* "/pause" or "/resume" and the NUL. */
#define CTL_ACTION_BYTES	16
/* Positional arguments of release: DEV KNOB. */
#define CTL_RELEASE_POS	2
/* json_int_t is long long (JSON_INTEGER_IS_LONG_LONG): the largest value a body can carry. */
#define CTL_JSON_INT_MAX	LLONG_MAX

/*
 * Splits argv[1..] into positional arguments (at most max) and options, which are
 * handed to opt(); "--" ends options. Words like "-1" or "-:eth0" are positional (see
 * ctl_is_option()). Returns the number of positionals or -1 after a usage error.
 */
static int ctl_split_args(const char *cmd, int argc, char **argv, const char **pos, int max,
			  int (*opt)(const char *cmd, int argc, char **argv, int *i, void *ctx),
			  void *ctx)
{
	char shown[CTL_ARG_SHOWN_BYTES];
	bool opts_done = false;
	int i, n = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!opts_done && !strcmp(a, "--")) {
			opts_done = true;
			continue;
		}
		if (!opts_done && ctl_is_option(a)) {
			int r = opt ? opt(cmd, argc, argv, &i, ctx) : 0;

			if (r < 0)
				return -1;
			if (r == 0) {
				ctl_usage_error(cmd, "unknown option %s",
						ctl_arg_shown(a, shown, sizeof(shown)));
				return -1;
			}
			continue;
		}
		if (n == max) {
			ctl_usage_error(cmd, "unexpected argument %s",
					ctl_arg_shown(a, shown, sizeof(shown)));
			return -1;
		}
		pos[n++] = a;
	}
	return n;
}

/* Positional arguments only, exactly n of them named by what (for the error). */
static int ctl_want_pos(const char *cmd, int argc, char **argv, const char **pos, int n,
			const char *what)
{
	int got = ctl_split_args(cmd, argc, argv, pos, n, NULL, NULL);

	if (got < 0)
		return VQ_EXIT_USAGE;
	if (got < n)
		return ctl_usage_error(cmd, "missing %s", what);
	return VQ_EXIT_OK;
}

/* GET path and print the reply through text. */
static int ctl_get_print(struct ctl_conn *c, const char *path, void (*text)(json_t *))
{
	json_t *r;
	int ret = ctl_request(c, "GET", path, NULL, &r);

	if (!ret)
		ctl_print(r, text);
	json_decref(r);
	return ret;
}

char *ctl_dev_path_or_usage(const char *cmd, const char *dev, const char *suffix)
{
	int err;
	char *p = ctl_dev_path(dev, suffix, &err);

	if (!p && err == -EINVAL && *dev == ':')
		ctl_usage_error(cmd, "DEV: '%s' has an empty NETNS (vqtuned's own namespace is "
				"'-', as in '-%s')", dev, dev);
	else if (!p && err == -EINVAL)
		ctl_usage_error(cmd, "DEV: '%s' is not NAME or NETNS:NAME", dev);
	else if (!p && err == -E2BIG)
		ctl_usage_error(cmd, "DEV: %zu bytes, longer than any device selector (its path "
				"would pass the API's %d-byte request-target limit)", strlen(dev),
				VQ_API_URI_MAX_BYTES);
	else if (!p)
		fprintf(stderr, CTL_PROG ": out of memory\n");
	return p;
}

int cmd_status(struct ctl_conn *c, int argc, char **argv)
{
	if (ctl_want_pos("status", argc, argv, NULL, 0, ""))
		return VQ_EXIT_USAGE;
	return ctl_get_print(c, VQ_API_PREFIX "/status", ctl_text_status);
}

void ctl_devices_free(struct ctl_devices *d)
{
	size_t i;

	for (i = 0; d->rates && i < d->n; i++)
		json_decref(d->rates[i]);
	free(d->rates);
	json_decref(d->reply);
	memset(d, 0, sizeof(*d));
}

/*
 * totals.rates of device object @d (new reference), or NULL: a device that vanished in
 * between shows "-", that is not an error. Asked by display form, and when that names
 * more than this device (another's raw name in the same namespace: 409), by raw bytes.
 */
static json_t *ctl_dev_rates(struct ctl_conn *c, json_t *d)
{
	const char *ns = json_string_value(json_object_get(d, "netns"));
	char *sel[2] = {
		ctl_dev_selector(ns, json_string_value(json_object_get(d, "name")) ?: ""),
		ctl_dev_selector_hex(ns, json_string_value(json_object_get(d, "name_hex"))),
	};
	json_t *q = NULL, *rates = NULL;
	size_t i;
	int e, ret = VQ_EXIT_ERROR;

	for (i = 0; i < 2 && ret == VQ_EXIT_ERROR; i++) {
		char *path = sel[i] && (!i || !sel[0] || strcmp(sel[0], sel[1])) ?
			     ctl_dev_path(sel[i], "/queues", &e) : NULL;

		if (path)
			ret = ctl_request_quiet(c, path, &q);
		free(path);
	}
	if (!ret)
		rates = json_incref(json_object_get(json_object_get(q, "totals"), "rates"));
	json_decref(q);
	free(sel[0]);
	free(sel[1]);
	return rates;
}

int ctl_devices_fetch(struct ctl_conn *c, struct ctl_devices *out)
{
	json_t *devs, *d;
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = ctl_request(c, "GET", VQ_API_PREFIX "/devices", NULL, &out->reply);
	if (ret || ctl_json_mode)
		return ret;
	devs = json_object_get(out->reply, "devices");
	out->n = json_array_size(devs);
	out->rates = calloc(out->n ? out->n : 1, sizeof(*out->rates));
	if (!out->rates) {
		fprintf(stderr, CTL_PROG ": out of memory\n");
		ctl_devices_free(out);
		return VQ_EXIT_ERROR;
	}
	/* the devices reply has counters only; the rates are in each device's queues reply */
	json_array_foreach(devs, i, d)
		out->rates[i] = ctl_dev_rates(c, d);
	return VQ_EXIT_OK;
}

void ctl_devices_print(const struct ctl_devices *d)
{
	if (ctl_json_mode)
		ctl_print_json(d->reply);
	else
		ctl_text_devices(json_object_get(d->reply, "devices"), d->rates);
	fflush(stdout);
}

int ctl_show_devices(struct ctl_conn *c)
{
	struct ctl_devices d;
	int ret = ctl_devices_fetch(c, &d);

	if (!ret)
		ctl_devices_print(&d);
	ctl_devices_free(&d);
	return ret;
}

int cmd_devices(struct ctl_conn *c, int argc, char **argv)
{
	if (ctl_want_pos("devices", argc, argv, NULL, 0, ""))
		return VQ_EXIT_USAGE;
	return ctl_show_devices(c);
}

/* GET /v1/devices/{dev}<suffix> and print it. */
static int ctl_dev_get(struct ctl_conn *c, const char *cmd, int argc, char **argv,
		       const char *suffix, void (*text)(json_t *))
{
	const char *dev = NULL;
	char *path;
	int ret;

	if (ctl_want_pos(cmd, argc, argv, &dev, 1, "DEV"))
		return VQ_EXIT_USAGE;
	path = ctl_dev_path_or_usage(cmd, dev, suffix);
	if (!path)
		return VQ_EXIT_USAGE;
	ret = ctl_get_print(c, path, text);
	free(path);
	return ret;
}

int cmd_device(struct ctl_conn *c, int argc, char **argv)
{
	return ctl_dev_get(c, argv[0], argc, argv, "", ctl_text_device);
}

int cmd_queues(struct ctl_conn *c, int argc, char **argv)
{
	return ctl_dev_get(c, "queues", argc, argv, "/queues", ctl_text_queues);
}

struct ctl_set_opts {
	uint64_t queue, napi_id;
	bool has_queue, has_napi, disruptive, allow_disruptive;
};

static int ctl_set_opt(const char *cmd, int argc, char **argv, int *i, void *ctx)
{
	struct ctl_set_opts *o = ctx;
	int r;

	r = ctl_opt_u64_once(cmd, "--queue", 0, CTL_QUEUE_MAX, "queue index", argc, argv, i,
			     &o->queue, &o->has_queue);
	if (r)
		return r;
	r = ctl_opt_u64_once(cmd, "--napi-id", CTL_NAPI_ID_MIN, CTL_NAPI_ID_MAX, "NAPI id",
			     argc, argv, i, &o->napi_id, &o->has_napi);
	if (r)
		return r;
	if (o->allow_disruptive && !strcmp(argv[*i], "--disruptive")) {
		o->disruptive = true;
		return 1;
	}
	/* getopt's words for a flag given a value (util_opt_error()) */
	if (o->allow_disruptive &&
	    !strncmp(argv[*i], "--disruptive=", sizeof("--disruptive=") - 1)) {
		ctl_usage_error(cmd, "option '--disruptive' takes no argument ('%s'): it accepts "
				"a disruptive knob when given", argv[*i]);
		return -1;
	}
	return 0;
}

/* "/knobs/<escaped knob>" */
static char *ctl_knob_suffix(const char *knob)
{
	char *e = ctl_url_escape(knob, strlen(knob)), *s = NULL;

	if (e && asprintf(&s, "/knobs/%s", e) < 0)
		s = NULL;
	free(e);
	return s;
}

/* Sends method to /v1/devices/{DEV}/knobs/{KNOB}[query] with body; prints with text. */
static int ctl_knob_request(struct ctl_conn *c, const char *cmd, const char *method,
			    const char *dev, const char *knob, const char *query, json_t *body,
			    void (*text)(json_t *))
{
	char *suffix = ctl_knob_suffix(knob), *path = NULL, *full = NULL, *alone;
	json_t *r = NULL;
	int ret = VQ_EXIT_USAGE, err;

	if (!*knob) {
		ctl_usage_error(cmd, "KNOB: empty name");
		goto out;
	}
	if (suffix && asprintf(&full, "%s%s", suffix, query) < 0)
		full = NULL;
	if (!full) {
		fprintf(stderr, CTL_PROG ": out of memory\n");
		ret = VQ_EXIT_ERROR;
		goto out;
	}
	path = ctl_dev_path(dev, full, &err);
	/* past the request-target limit only with KNOB, DEV alone fitting: KNOB is too long */
	alone = !path && err == -E2BIG ? ctl_dev_path(dev, NULL, &err) : NULL;
	if (alone) {
		free(alone);
		ctl_usage_error(cmd, "KNOB: %zu bytes, longer than any knob name (its path would "
				"pass the API's %d-byte request-target limit)", strlen(knob),
				VQ_API_URI_MAX_BYTES);
		goto out;
	}
	if (!path)
		path = ctl_dev_path_or_usage(cmd, dev, full);	/* names DEV's fault */
	if (!path)
		goto out;
	ctl_conn_subject(c, dev, knob);
	ret = ctl_request(c, method, path, body, &r);
	ctl_conn_subject(c, NULL, NULL);
	if (!ret)
		ctl_print(r, text);
out:
	json_decref(r);
	free(path);
	free(full);
	free(suffix);
	return ret;
}

/*
 * VALUE beyond the API's integer (2^63-1): named against KNOB's own range and unit on DEV
 * when the daemon tells them (GET /v1/devices/{dev}, the first instance of that name),
 * against the integer's range otherwise. A usage error (2) either way.
 */
static int ctl_set_value_error(struct ctl_conn *c, const char *dev, const char *knob,
			       const char *arg, int err)
{
	char unit[CTL_RANGE_ERROR_BYTES], *path = NULL;
	json_t *r = NULL, *k;
	uint64_t lo = 0, hi = CTL_JSON_INT_MAX;
	size_t i;
	int ret;

	snprintf(unit, sizeof(unit), "%s's unit", knob);
	if (err == -ERANGE && *dev && asprintf(&path, "/v1/devices/%s", dev) >= 0 &&
	    !ctl_request_quiet(c, path, &r)) {
		json_array_foreach(json_object_get(r, "knobs"), i, k) {
			json_t *mn = json_object_get(k, "min"), *mx = json_object_get(k, "max");
			const char *u = json_string_value(json_object_get(k, "unit"));

			if (strcmp(json_string_value(json_object_get(k, "name")) ?: "", knob) ||
			    !json_is_integer(mn) || !json_is_integer(mx))
				continue;
			lo = (uint64_t)json_integer_value(mn);
			hi = (uint64_t)json_integer_value(mx);
			snprintf(unit, sizeof(unit), "%s of %s on %s", u ? u : "?", knob, dev);
			break;
		}
	}
	ret = ctl_u64_error("set", "VALUE", arg, err, lo, hi, unit);
	json_decref(r);
	free(path);
	return ret;
}

int cmd_set(struct ctl_conn *c, int argc, char **argv)
{
	struct ctl_set_opts o = { .allow_disruptive = true };
	const char *pos[CTL_MAX_POS] = { NULL };
	json_t *body;
	uint64_t v;
	int n, ret, err;

	n = ctl_split_args("set", argc, argv, pos, CTL_MAX_POS, ctl_set_opt, &o);
	if (n < 0)
		return VQ_EXIT_USAGE;
	/* both select the instance: one would have to win, so neither is guessed */
	if (o.has_queue && o.has_napi)
		return ctl_usage_error("set", "--queue and --napi-id cannot be used together: "
				       "each selects the instance on its own");
	if (n < CTL_MAX_POS)
		return ctl_usage_error("set", "missing %s", n == 0 ? "DEV KNOB VALUE" :
				       n == 1 ? "KNOB VALUE" : "VALUE");
	/* json_int_t is signed 64-bit: larger values go as reals would lose digits */
	err = ctl_parse_u64_range(pos[2], 0, CTL_JSON_INT_MAX, &v);
	if (err)
		return ctl_set_value_error(c, pos[0], pos[1], pos[2], err);
	body = json_pack("{s:I}", "value", (json_int_t)v);
	if (body && o.has_queue)
		json_object_set_new(body, "queue", json_integer((json_int_t)o.queue));
	if (body && o.has_napi)
		json_object_set_new(body, "napi_id", json_integer((json_int_t)o.napi_id));
	if (body && o.disruptive)
		json_object_set_new(body, "disruptive", json_true());
	if (!body) {
		fprintf(stderr, CTL_PROG ": out of memory\n");
		return VQ_EXIT_ERROR;
	}
	ret = ctl_knob_request(c, "set", "PUT", pos[0], pos[1], "", body, ctl_text_changes);
	json_decref(body);
	return ret;
}

static void ctl_text_released(json_t *r)
{
	json_t *n = json_object_get(r, "released");

	printf("released %lld\n", json_is_integer(n) ? (long long)json_integer_value(n) : 0LL);
}

int cmd_release(struct ctl_conn *c, int argc, char **argv)
{
	struct ctl_set_opts o = { 0 };
	const char *pos[CTL_RELEASE_POS] = { NULL };
	char query[CTL_QUERY_BYTES] = "";
	int n;

	n = ctl_split_args("release", argc, argv, pos, CTL_RELEASE_POS, ctl_set_opt, &o);
	if (n < 0)
		return VQ_EXIT_USAGE;
	if (o.has_queue && o.has_napi)
		return ctl_usage_error("release", "--queue and --napi-id cannot be used together: "
				       "each selects the instance on its own");
	if (n < CTL_RELEASE_POS)
		return ctl_usage_error("release", "missing %s", n ? "KNOB" : "DEV KNOB");
	if (o.has_queue)
		snprintf(query, sizeof(query), "?queue=%llu", (unsigned long long)o.queue);
	if (o.has_napi)
		snprintf(query, sizeof(query), "?napi_id=%llu", (unsigned long long)o.napi_id);
	return ctl_knob_request(c, "release", "DELETE", pos[0], pos[1], query, NULL,
				ctl_text_released);
}

static int ctl_pause_resume(struct ctl_conn *c, int argc, char **argv, const char *what)
{
	const char *dev = NULL;
	char *path, suffix[CTL_ACTION_BYTES];
	json_t *r;
	int ret;

	if (ctl_want_pos(what, argc, argv, &dev, 1, "DEV"))
		return VQ_EXIT_USAGE;
	snprintf(suffix, sizeof(suffix), "/%s", what);
	path = ctl_dev_path_or_usage(what, dev, suffix);
	if (!path)
		return VQ_EXIT_USAGE;
	ctl_conn_subject(c, dev, NULL);
	ret = ctl_request(c, "POST", path, NULL, &r);
	ctl_conn_subject(c, NULL, NULL);
	if (!ret && ctl_json_mode) {
		ctl_print_json(r);
	} else if (!ret) {
		json_t *p = json_object_get(r, "paused");
		const char *name = json_string_value(json_object_get(r, "device"));

		/* the reply's state when it gives one, else what was asked */
		printf("%s %s\n", name ? name : dev, (json_is_boolean(p) ? json_is_true(p) :
		       !strcmp(what, "pause")) ? "paused" : "resumed");
	}
	json_decref(r);
	free(path);
	return ret;
}

int cmd_pause(struct ctl_conn *c, int argc, char **argv)
{
	return ctl_pause_resume(c, argc, argv, "pause");
}

int cmd_resume(struct ctl_conn *c, int argc, char **argv)
{
	return ctl_pause_resume(c, argc, argv, "resume");
}

static const char *ctl_nonempty(const char *s)
{
	return s && *s ? s : "-";
}

/* One failure of a restore on stderr: a knob's, or the journal's (docs/api.md). */
static void ctl_restore_failure(const json_t *f)
{
	const char *journal = json_string_value(json_object_get(f, "journal"));
	const char *msg = json_string_value(json_object_get(f, "message")) ?: "failed";

	if (journal) {
		fprintf(stderr, CTL_PROG ": restore: journal %s: %s\n", journal, msg);
		return;
	}
	fprintf(stderr, CTL_PROG ": restore %s %s %s: %s\n",
		json_string_value(json_object_get(f, "device")) ?: "-",
		json_string_value(json_object_get(f, "knob")) ?: "-",
		ctl_nonempty(json_string_value(json_object_get(f, "instance"))), msg);
}

int cmd_restore(struct ctl_conn *c, int argc, char **argv)
{
	json_t *r, *f;
	size_t i, nfail;
	int ret;

	if (ctl_want_pos("restore", argc, argv, NULL, 0, ""))
		return VQ_EXIT_USAGE;
	ret = ctl_request(c, "POST", VQ_API_PREFIX "/restore", NULL, &r);
	if (ret)
		return ret;
	nfail = json_array_size(json_object_get(r, "failed"));
	if (ctl_json_mode) {
		ctl_print_json(r);
	} else {
		json_t *n = json_object_get(r, "restored"), *s = json_object_get(r, "nothing_owed");

		printf("restored %lld, failed %zu",
		       json_is_integer(n) ? (long long)json_integer_value(n) : 0LL, nfail);
		/* dropped without a write, each with its restore event (older daemons: none) */
		if (json_is_integer(s) && json_integer_value(s) > 0)
			printf(", nothing owed %lld (see events)", (long long)json_integer_value(s));
		printf("\n");
	}
	/* failures always go to stderr too, so scripts see them */
	json_array_foreach(json_object_get(r, "failed"), i, f)
		ctl_restore_failure(f);
	json_decref(r);
	return nfail ? VQ_EXIT_ERROR : VQ_EXIT_OK;
}
