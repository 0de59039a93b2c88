// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output of vqtunectl. Every read command goes through ctl_print(): --json prints the
 * server's reply pretty and unchanged in content, otherwise a text renderer below turns
 * it into aligned tables. Fields the server omits or sends as null print as "-".
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"

/* Room for one formatted cell (numbers, rates, ranges). */
#define CTL_CELL_BYTES	64
/* Longest dotted policy key shown; deeper keys are skipped rather than cut. */
#define CTL_POLICY_KEY_BYTES	512

bool ctl_json_mode;

void ctl_print_json(json_t *v)
{
	/* JSON_ENSURE_ASCII off: display names are already escaped ASCII-safe by the server */
	json_dumpf(v, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
}

void ctl_print(json_t *reply, void (*text)(json_t *reply))
{
	if (ctl_json_mode)
		ctl_print_json(reply);
	else
		text(reply);
	fflush(stdout);
}

static const char *ctl_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s && *s ? s : "-";
}

/* Integer (or real) field as decimal, "-" when absent/null. */
static const char *ctl_num(json_t *o, const char *key, char *buf)
{
	json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		snprintf(buf, CTL_CELL_BYTES, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, CTL_CELL_BYTES, "%.1f", json_real_value(v));
	else
		snprintf(buf, CTL_CELL_BYTES, "-");
	return buf;
}

/* Numeric field as a double; -1 (prints "-") when absent or null (an invalid rate). */
static double ctl_dbl(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : -1.0;
}

static const char *ctl_bool(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_boolean(v) ? (json_is_true(v) ? "yes" : "no") : "-";
}

/* keep @name among the three longest of @top/@topv (longest first); @v <= 0 never is */
static void ctl_top3(const char *top[3], json_int_t topv[3], const char *name, json_int_t v)
{
	unsigned int i, j;

	if (v <= 0)
		return;
	for (i = 0; i < 3 && topv[i] >= v; i++)
		;
	if (i == 3)
		return;
	for (j = 2; j > i; j--)
		top[j] = top[j - 1], topv[j] = topv[j - 1];
	top[i] = name;
	topv[i] = v;
}

/*
 * "tick cost:" of status: the mean wall and CPU time of a tick since the start, and the
 * three parts of it that took longest (tick_parts_ns, vqtuned(8) TICK COST), the rest of
 * the wall time ("other": rates, bookkeeping) ranked with them; "-" from a daemon that
 * sends none or has not ticked yet.
 */
static void ctl_tick_cost(json_t *r)
{
	json_t *ticks = json_object_get(r, "ticks"), *wall = json_object_get(r, "tick_wall_ns");
	json_t *cpu = json_object_get(r, "tick_cpu_ns"), *parts = json_object_get(r, "tick_parts_ns");
	const char *top[3] = { NULL, NULL, NULL }, *k;
	json_int_t topv[3] = { 0, 0, 0 }, n, rest;
	char a[CTL_CELL_BYTES];
	unsigned int i;
	json_t *v;

	printf("tick cost:        ");
	if (!json_is_integer(ticks) || json_integer_value(ticks) <= 0 || !json_is_integer(wall) ||
	    !json_is_integer(cpu) || !json_is_object(parts)) {
		printf("-\n");
		return;
	}
	n = json_integer_value(ticks);
	printf("%s a tick", ctl_fmt_duration_ns((uint64_t)(json_integer_value(wall) / n), a,
						sizeof(a)));
	printf(" (CPU %s)", ctl_fmt_duration_ns((uint64_t)(json_integer_value(cpu) / n), a,
						 sizeof(a)));
	rest = json_integer_value(wall);
	json_object_foreach(parts, k, v) {
		if (!json_is_integer(v))
			continue;
		ctl_top3(top, topv, k, json_integer_value(v));
		rest -= json_integer_value(v);
	}
	ctl_top3(top, topv, "other", rest);
	for (i = 0; i < 3 && top[i]; i++)
		printf("%s %s %s", i ? "," : ":", top[i],
		       ctl_fmt_duration_ns((uint64_t)(topv[i] / n), a, sizeof(a)));
	printf("\n");
}

void ctl_text_status(json_t *r)
{
	char a[CTL_CELL_BYTES];
	json_t *up = json_object_get(r, "uptime_ns");
	json_t *tick = json_object_get(r, "tick_interval_ns");
	json_t *base = json_object_get(r, "tick_base_ns"), *max = json_object_get(r, "tick_max_ns");
	json_t *ctld = json_object_get(r, "controlled_devices");
	char b[CTL_CELL_BYTES], m[CTL_CELL_BYTES];
	json_t *sl;

	printf("version:          %s\n", ctl_str(r, "version"));
	printf("pid:              %s\n", ctl_num(r, "pid", a));
	printf("uptime:           %s\n", json_is_integer(up) ?
	       ctl_fmt_duration_ns((uint64_t)json_integer_value(up), a, sizeof(a)) : "-");
	printf("mode:             %s\n", ctl_str(r, "mode"));
	printf("policy:           %s\n", ctl_str(r, "policy"));
	printf("tick interval:    %s", json_is_integer(tick) ?
	       ctl_fmt_duration_ns((uint64_t)json_integer_value(tick), a, sizeof(a)) : "-");
	/* a daemon before the pacer sends neither; mode observe never paces, nor a tick with
	 * no device controlled (vqtuned(8) INTERVAL PACING; older daemons send no count) */
	if (json_is_integer(base) && json_is_integer(max)) {
		if (json_integer_value(max) <= json_integer_value(base) ||
		    !strcmp(ctl_str(r, "mode"), "observe"))
			printf(" (fixed)");
		else
			printf(" (%s%s, up to %s while nothing moves)",
			       json_is_integer(ctld) && !json_integer_value(ctld) ?
			       "fixed while no device is controlled; then " : "",
			       ctl_fmt_duration_ns((uint64_t)json_integer_value(base), b,
						   sizeof(b)),
			       ctl_fmt_duration_ns((uint64_t)json_integer_value(max), m,
						   sizeof(m)));
	}
	printf("\n");
	printf("ticks:            %s\n", ctl_num(r, "ticks", a));
	printf("missed ticks:     %s\n", ctl_num(r, "missed_ticks", a));
	/* vqtuned --sched-slice: 0 where the kernel keeps no slice per task (before 6.12) or
	 * the daemon runs a policy without one (real-time); older daemons send none */
	sl = json_object_get(r, "sched_slice_ns");
	printf("sched slice:      %s\n", !json_is_integer(sl) ? "-" :
	       json_integer_value(sl) > 0 ?
	       ctl_fmt_duration_ns((uint64_t)json_integer_value(sl), a, sizeof(a)) :
	       "none per task (a kernel before 6.12, or a real-time policy)");
	ctl_tick_cost(r);
	printf("devices:          %s\n", ctl_num(r, "devices", a));
	printf("managed devices:  %s\n", ctl_num(r, "managed_devices", a));
	printf("controlled:       %s (the policy's laws run on them: mode active or advise)\n",
	       ctl_num(r, "controlled_devices", a));
	printf("events:           %s\n", ctl_num(r, "events", a));
	printf("last event id:    %s\n", ctl_num(r, "last_event_id", a));
	/* what SIGTERM or `vqtunectl restore` would put back */
	printf("changed knobs:    %s (restores owed)\n", ctl_num(r, "changed_knobs", a));
}

/*
 * The age of a sample, "400ms ago", from a reply's sample_age_ns; "never" when it is null (no
 * sample yet), "-" when the daemon gave none (an older one).
 */
static const char *ctl_sample_age(json_t *o, char *buf, size_t len)
{
	json_t *a = json_object_get(o, "sample_age_ns");
	size_t n;

	if (json_is_null(a))
		return "never";
	if (!json_is_integer(a) || json_integer_value(a) < 0)
		return "-";
	ctl_fmt_duration_ns((uint64_t)json_integer_value(a), buf, len);
	n = strlen(buf);
	snprintf(buf + n, n < len ? len - n : 0, " ago");
	return buf;
}

void ctl_text_devices(json_t *devices, json_t *const *rates)
{
	static const char *const hdr[] = { "NAME", "NETNS", "DRIVER", "STATE", ">IFINDEX",
		">TXQ", ">RXQ", "MANAGED", "MODE", ">RX RATE", ">TX RATE", ">SAMPLED" };
	struct ctl_table *t = ctl_table_new(hdr, sizeof(hdr) / sizeof(hdr[0]));
	json_t *d;
	size_t i;

	if (!t)
		return;
	json_array_foreach(devices, i, d) {
		char ifi[CTL_CELL_BYTES], txq[CTL_CELL_BYTES], rxq[CTL_CELL_BYTES];
		char rx[CTL_CELL_BYTES], tx[CTL_CELL_BYTES], age[CTL_CELL_BYTES];
		const char *ns = json_string_value(json_object_get(d, "netns"));
		const char *mode = json_is_true(json_object_get(d, "paused")) ? "paused" :
				   ctl_str(d, "mode");
		const char *cells[] = { ctl_str(d, "name"), ns && *ns ? ns : "-",
			ctl_str(d, "driver"), ctl_str(d, "oper_state"), ctl_num(d, "ifindex", ifi),
			ctl_num(d, "tx_queues", txq), ctl_num(d, "rx_queues", rxq),
			ctl_bool(d, "managed"), mode,
			ctl_fmt_bitrate(ctl_dbl(rates[i], "rx_bytes_per_s"), rx, sizeof(rx)),
			ctl_fmt_bitrate(ctl_dbl(rates[i], "tx_bytes_per_s"), tx, sizeof(tx)),
			ctl_sample_age(d, age, sizeof(age)) };

		ctl_table_add(t, cells);
	}
	ctl_table_print(t, stdout);
	ctl_table_free(t);
}

/* "pinned,changed,disruptive,controlled,ro" */
static void ctl_knob_flags(json_t *k, char *buf, size_t len)
{
	static const char *const flag[] = { "pinned", "changed", "disruptive", "controlled" };
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(flag) / sizeof(flag[0]); i++)
		if (json_is_true(json_object_get(k, flag[i])))
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? "," : "",
					      flag[i]);
	if (json_is_false(json_object_get(k, "writable")))
		snprintf(buf + n, n < len ? len - n : 0, "%sro", n ? "," : "");
	if (!buf[0])
		snprintf(buf, len, "-");
}

static void ctl_text_knobs(json_t *knobs)
{
	static const char *const hdr[] = { "KNOB", "INSTANCE", ">VALUE", "UNIT", ">MIN",
		">MAX", ">ORIGINAL", "PROVIDER", "FLAGS" };
	struct ctl_table *t = ctl_table_new(hdr, sizeof(hdr) / sizeof(hdr[0]));
	json_t *k;
	size_t i;

	if (!t)
		return;
	json_array_foreach(knobs, i, k) {
		char v[CTL_CELL_BYTES], lo[CTL_CELL_BYTES], hi[CTL_CELL_BYTES];
		char orig[CTL_CELL_BYTES], flags[CTL_CELL_BYTES * 2];
		const char *cells[] = { ctl_str(k, "name"), ctl_str(k, "instance"),
			ctl_num(k, "value", v), ctl_str(k, "unit"), ctl_num(k, "min", lo),
			ctl_num(k, "max", hi), ctl_num(k, "original", orig),
			ctl_str(k, "provider"), flags };

		ctl_knob_flags(k, flags, sizeof(flags));
		ctl_table_add(t, cells);
	}
	ctl_table_print(t, stdout);
	ctl_table_free(t);
}

/*
 * A note per knob name under the knobs table, from the string @field of each knob (once per
 * name): "  TAG: KNOB: TEXT[TAIL]". Used for read_only_reason ("ro: combined-channels: the
 * tun driver cannot change ...": why the "ro" knobs of a managed device cannot be written; on
 * an unmanaged device every knob is ro for the reason the header already gives) and for the
 * driver's rule inside a knob's range (docs/api.md "rule": "rule: tx-ring-size: power of two
 * (the driver refuses other values in MIN..MAX)").
 */
static void ctl_text_knob_notes(json_t *knobs, const char *field, const char *tag,
				const char *tail)
{
	const char *prev = NULL;
	json_t *k;
	size_t i;

	json_array_foreach(knobs, i, k) {
		const char *name = ctl_str(k, "name");
		const char *text = json_string_value(json_object_get(k, field));

		if (!text || (prev && !strcmp(prev, name)))
			continue;
		printf("  %s: %s: %s%s\n", tag, name, text, tail);
		prev = name;
	}
}

void ctl_text_device(json_t *r)
{
	char a[CTL_CELL_BYTES], b[CTL_CELL_BYTES], c[CTL_CELL_BYTES], d[CTL_CELL_BYTES];
	const char *ns = json_string_value(json_object_get(r, "netns"));
	json_t *knobs = json_object_get(r, "knobs");

	printf("%s  netns %s  ifindex %s  driver %s  %s  mtu %s\n", ctl_str(r, "name"),
	       ns && *ns ? ns : "-", ctl_num(r, "ifindex", a), ctl_str(r, "driver"),
	       ctl_str(r, "oper_state"), ctl_num(r, "mtu", b));
	printf("  txq %s  rxq %s  generation %s  managed %s  mode %s  paused %s\n",
	       ctl_num(r, "tx_queues", c), ctl_num(r, "rx_queues", d),
	       ctl_num(r, "generation", a), ctl_bool(r, "managed"), ctl_str(r, "mode"),
	       ctl_bool(r, "paused"));
	if (!json_array_size(knobs)) {
		printf("  no knobs\n");
		return;
	}
	putchar('\n');
	ctl_text_knobs(knobs);
	ctl_text_knob_notes(knobs, "rule", "rule", " (the driver refuses other values in MIN..MAX)");
	if (json_is_true(json_object_get(r, "managed")))
		ctl_text_knob_notes(knobs, "read_only_reason", "ro", "");
}

/* Adds one queue row: counters, rates, and for TX queues tx-stop/tx-wake and BQL. */
/*
 * The CONTROL cell: the controller state, or per law its last decision
 * ("qlimit=applied zerocopy=hold"), from the queue's "controller" object (docs/api.md).
 */
static const char *ctl_control_cell(json_t *c, char *out, size_t len)
{
	const char *st = json_string_value(json_object_get(c, "state")), *law;
	json_t *l;
	size_t used = 0;
	int n;

	out[0] = '\0';
	if (!st)
		return "-";
	if (strcmp(st, "active") && strcmp(st, "advise"))
		return st;
	json_object_foreach(json_object_get(c, "laws"), law, l) {
		const char *d = json_string_value(json_object_get(l, "decision"));

		n = snprintf(out + used, len - used, "%s%s=%s", used ? " " : "", law, d ? d : "-");
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	return used ? out : st;
}

static void ctl_queue_row(struct ctl_table *t, json_t *q)
{
	char pk[CTL_CELL_BYTES], by[CTL_CELL_BYTES], pps[CTL_CELL_BYTES], bps[CTL_CELL_BYTES];
	char rate[CTL_CELL_BYTES], stop[CTL_CELL_BYTES], wake[CTL_CELL_BYTES];
	char qn[CTL_CELL_BYTES], bql[CTL_CELL_BYTES * 2], lim[CTL_CELL_BYTES];
	char inf[CTL_CELL_BYTES], ctl[CTL_CELL_BYTES * 2];
	json_t *cnt = json_object_get(q, "counters"), *rt = json_object_get(q, "rates");
	json_t *bq = json_object_get(q, "bql");
	bool valid = !json_is_false(json_object_get(q, "valid"));
	bool none = !strcmp(ctl_str(q, "source"), "none");
	const char *cells[] = { ctl_num(q, "queue", qn), ctl_str(q, "direction"),
		ctl_str(q, "source"), ctl_num(cnt, "packets", pk), ctl_num(cnt, "bytes", by),
		ctl_fmt_si(ctl_dbl(rt, "packets_per_s"), pps, sizeof(pps)),
		ctl_fmt_si(ctl_dbl(rt, "bytes_per_s"), bps, sizeof(bps)),
		ctl_fmt_bitrate(ctl_dbl(rt, "bytes_per_s"), rate, sizeof(rate)),
		ctl_num(cnt, "tx_stop", stop), ctl_num(cnt, "tx_wake", wake), bql,
		ctl_control_cell(json_object_get(q, "controller"), ctl, sizeof(ctl)),
		none ? "no per-queue counters" : !valid ? "invalid interval" :
		json_is_true(json_object_get(q, "counts_part")) ?
		"counts part of the device's traffic" : "" };

	if (bq)
		snprintf(bql, sizeof(bql), "%s/%s", ctl_num(bq, "limit_bytes", lim),
			 ctl_num(bq, "inflight_bytes", inf));
	else
		snprintf(bql, sizeof(bql), "-");
	ctl_table_add(t, cells);
}

void ctl_text_queues(json_t *r)
{
	static const char *const hdr[] = { ">QUEUE", "DIR", "SOURCE", ">PACKETS", ">BYTES",
		">PKTS/S", ">BYTES/S", ">RATE", ">TX-STOP", ">TX-WAKE", ">BQL LIMIT/INFLIGHT",
		"CONTROL", "NOTE" };
	struct ctl_table *t = ctl_table_new(hdr, sizeof(hdr) / sizeof(hdr[0]));
	json_t *tot = json_object_get(r, "totals"), *rt = json_object_get(tot, "rates"), *q;
	char a[CTL_CELL_BYTES], b[CTL_CELL_BYTES], c[CTL_CELL_BYTES], d[CTL_CELL_BYTES];
	const char *ns = json_string_value(json_object_get(r, "netns"));
	size_t i;

	if (!t)
		return;
	printf("%s  netns %s  generation %s  sampled %s%s\n", ctl_str(r, "device"),
	       ns && *ns ? ns : "-", ctl_num(r, "generation", a), ctl_sample_age(r, b, sizeof(b)),
	       json_is_false(json_object_get(r, "valid")) ? "  (rates invalid this interval)" : "");
	printf("  rx %s pkts/s %s   tx %s pkts/s %s\n",
	       ctl_fmt_si(ctl_dbl(rt, "rx_packets_per_s"), a, sizeof(a)),
	       ctl_fmt_bitrate(ctl_dbl(rt, "rx_bytes_per_s"), b, sizeof(b)),
	       ctl_fmt_si(ctl_dbl(rt, "tx_packets_per_s"), c, sizeof(c)),
	       ctl_fmt_bitrate(ctl_dbl(rt, "tx_bytes_per_s"), d, sizeof(d)));
	printf("  dropped rx %s tx %s  errors rx %s tx %s\n\n", ctl_num(tot, "rx_dropped", a),
	       ctl_num(tot, "tx_dropped", b), ctl_num(tot, "rx_errors", c),
	       ctl_num(tot, "tx_errors", d));
	json_array_foreach(json_object_get(r, "queues"), i, q)
		ctl_queue_row(t, q);
	ctl_table_print(t, stdout);
	ctl_table_free(t);
}

/*
 * One event as "ID TIME WHO [CONTROLLER DECISION] [NETNS:]DEV KNOB[/INSTANCE] OLD -> NEW
 * (REASON)" (docs/vqtunectl.8 events). The parts an event lacks are left out, not printed
 * as "-": a policy install has no device, a daemon event may have no knob, and neither has
 * values. A knob event whose old and new are the same (a restore that found the original
 * in place, a hold at the current value) reads "at V" rather than "V -> V".
 */
void ctl_text_event_line(json_t *ev, FILE *f)
{
	char id[CTL_CELL_BYTES], tm[CTL_CELL_BYTES], o[CTL_CELL_BYTES], n[CTL_CELL_BYTES];
	json_t *t = json_object_get(ev, "time_ns");
	json_t *jo = json_object_get(ev, "old"), *jn = json_object_get(ev, "new");
	const char *ns = json_string_value(json_object_get(ev, "netns"));
	const char *dev = json_string_value(json_object_get(ev, "device"));
	const char *knob = json_string_value(json_object_get(ev, "knob"));
	const char *inst = json_string_value(json_object_get(ev, "instance"));
	const char *law = json_string_value(json_object_get(ev, "controller"));
	const char *dec = json_string_value(json_object_get(ev, "decision"));
	const char *why = json_string_value(json_object_get(ev, "reason"));

	fprintf(f, "%s %s %s", ctl_num(ev, "id", id),
		json_is_integer(t) ? ctl_fmt_time_ns((uint64_t)json_integer_value(t), tm,
						     sizeof(tm)) : "-",
		ctl_str(ev, "who"));
	/* a controller's decision: "controller qlimit applied" (docs/api.md, events) */
	if (law)
		fprintf(f, " %s", law);
	if (dec)
		fprintf(f, " %s", dec);
	if (dev && *dev)
		fprintf(f, " %s%s%s", ns && *ns ? ns : "", ns && *ns ? ":" : "", dev);
	if (knob && *knob)
		fprintf(f, " %s%s%s", knob, inst && *inst ? "/" : "", inst && *inst ? inst : "");
	ctl_num(ev, "old", o);
	ctl_num(ev, "new", n);
	if (json_is_integer(jo) && json_is_integer(jn) &&
	    json_integer_value(jo) == json_integer_value(jn))
		fprintf(f, " at %s", n);
	else if (json_is_number(jo) || json_is_number(jn))
		fprintf(f, " %s -> %s", o, n);
	if (why)
		fprintf(f, " (%s)", why);
	fputc('\n', f);
}

void ctl_text_events(json_t *r)
{
	json_t *ev;
	size_t i;

	json_array_foreach(json_object_get(r, "events"), i, ev)
		ctl_text_event_line(ev, stdout);
}

void ctl_text_changes(json_t *r)
{
	char o[CTL_CELL_BYTES], n[CTL_CELL_BYTES];
	json_t *ch;
	size_t i;

	json_array_foreach(json_object_get(r, "changes"), i, ch) {
		const char *inst = json_string_value(json_object_get(ch, "instance"));

		/* a device-wide knob has no instance: no gap before the colon */
		printf("%s%s%s: ", ctl_str(ch, "knob"), inst && *inst ? " " : "",
		       inst && *inst ? inst : "");
		/* a set to the value it holds wrote nothing, as its event says */
		if (!strcmp(ctl_num(ch, "old", o), ctl_num(ch, "new", n)))
			printf("already %s, nothing written (pinned)\n", n);
		else
			printf("%s -> %s\n", o, n);
	}
}

/*
 * One "key = value" line per leaf, keys dotted: what `policy set KEY VALUE` takes. Numbers
 * go through ctl_fmt_json_number(): integers digit for digit, reals without json_dumps()'s
 * noise ("7.0000000000000009") or exponents ("1e18") for whole numbers.
 */
static void ctl_text_flat(json_t *v, char *prefix, size_t len, size_t used)
{
	char num[CTL_CELL_BYTES];
	const char *key;
	json_t *child;
	char *s;

	if (json_is_number(v)) {
		printf("%s = %s\n", prefix, ctl_fmt_json_number(v, num, sizeof(num)));
		return;
	}
	if (!json_is_object(v)) {
		s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		printf("%s = %s\n", prefix, s ? s : "?");
		free(s);
		return;
	}
	json_object_foreach(v, key, child) {
		int n = snprintf(prefix + used, len - used, "%s%s", used ? "." : "", key);

		if (n < 0 || (size_t)n >= len - used)
			continue;
		ctl_text_flat(child, prefix, len, used + (size_t)n);
		prefix[used] = '\0';
	}
}

void ctl_text_policy(json_t *r)
{
	char prefix[CTL_POLICY_KEY_BYTES] = "";
	json_t *p = json_object_get(r, "policy");

	ctl_text_flat(p ? p : r, prefix, sizeof(prefix), 0);
}
