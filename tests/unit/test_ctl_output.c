// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl output: the text of `vqtunectl knobs DEV` shows a driver's rule on a knob's values
 * (docs/api.md "rule") once per knob name under the table, and nothing for knobs without
 * one. stdout is captured in a temporary file. An event line (`vqtunectl events`) leaves
 * out the parts an event lacks and reads "at V" when old and new are the same.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "../../ctl/ctl.h"

/* what a knob table of two devices prints, at most */
#define OUT_MAX_BYTES	8192

/* Runs @fn(@obj) with stdout in a temporary file; the text in @out. */
static void capture(void (*fn)(json_t *), json_t *obj, char *out, size_t len)
{
	FILE *f = tmpfile();
	int saved = dup(STDOUT_FILENO);
	size_t n;

	assert_non_null(f);
	assert_true(saved >= 0);
	fflush(stdout);
	assert_true(dup2(fileno(f), STDOUT_FILENO) >= 0);
	fn(obj);
	fflush(stdout);
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	rewind(f);
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	fclose(f);
}

/* `vqtunectl status` of @st prints @line (with its newlines); the whole text when not */
static void status_has(json_t *st, const char *line)
{
	char out[OUT_MAX_BYTES];

	capture(ctl_text_status, st, out, sizeof(out));
	if (!strstr(out, line))
		fail_msg("status lacks \"%s\"; it printed:\n%s", line, out);
}

static void device_text(json_t *dev, char *out, size_t len)
{
	capture(ctl_text_device, dev, out, len);
}

static json_t *knob(const char *name, json_t *rule)
{
	return json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:n, s:s, s:b, s:b, s:b, s:b, s:b, s:o}",
			 "name", name, "instance", "", "unit", "descriptors", "value", 256,
			 "min", 1, "max", 256, "original", "provider", "ethtool-rings",
			 "disruptive", 1, "pinned", 0, "controlled", 0, "changed", 0,
			 "writable", 1, "rule", rule);
}

static void test_rule_line(void **state)
{
	char out[OUT_MAX_BYTES];
	json_t *dev;

	(void)state;
	dev = json_pack("{s:s, s:s, s:i, s:s, s:s, s:i, s:i, s:i, s:i, s:b, s:s, s:b, s:[ooo]}",
			"name", "vn0", "netns", "vna", "ifindex", 2, "driver", "virtio_net",
			"oper_state", "up", "mtu", 1500, "tx_queues", 1, "rx_queues", 1,
			"generation", 1, "managed", 1, "mode", "observe", "paused", 0, "knobs",
			knob("rx-ring-size", json_string("power of two")),
			knob("tx-ring-size", json_string("power of two")),
			knob("rx-usecs", json_null()));
	assert_non_null(dev);
	device_text(dev, out, sizeof(out));
	assert_non_null(strstr(out, "\n  rule: rx-ring-size: power of two (the driver refuses "
			       "other values in MIN..MAX)\n"));
	assert_non_null(strstr(out, "\n  rule: tx-ring-size: power of two (the driver refuses "
			       "other values in MIN..MAX)\n"));
	assert_null(strstr(out, "rule: rx-usecs"));
	json_decref(dev);
}

/* ctl_text_event_line() of the event in JSON @js, into @out */
static void event_text(const char *js, char *out, size_t len)
{
	json_t *ev = json_loads(js, 0, NULL);
	FILE *f = fmemopen(out, len, "w");

	assert_non_null(ev);
	assert_non_null(f);
	ctl_text_event_line(ev, f);
	fclose(f);
	json_decref(ev);
}

static void test_event_line(void **state)
{
	char out[OUT_MAX_BYTES];

	(void)state;
	/* a knob step: every part, old -> new */
	event_text("{\"id\":4,\"time_ns\":null,\"who\":\"controller\",\"controller\":\"qlimit\","
		   "\"decision\":\"applied\",\"netns\":\"lab\",\"device\":\"vqf0\","
		   "\"knob\":\"byte_queue_limits/limit_max\",\"instance\":\"tx-0\",\"old\":1000,"
		   "\"new\":500,\"reason\":\"r\"}", out, sizeof(out));
	assert_string_equal(out, "4 - controller qlimit applied lab:vqf0 "
			    "byte_queue_limits/limit_max/tx-0 1000 -> 500 (r)\n");
	/* a restore that found the original in place: "at V", not "0 -> 0" */
	event_text("{\"id\":5,\"who\":\"restore\",\"controller\":null,\"decision\":null,"
		   "\"netns\":\"\",\"device\":\"vb\",\"knob\":\"defer-hard-irqs\","
		   "\"instance\":\"napi-3\",\"old\":0,\"new\":0,"
		   "\"reason\":\"already at the original 0, nothing written\"}", out, sizeof(out));
	assert_string_equal(out, "5 - restore vb defer-hard-irqs/napi-3 at 0 "
			    "(already at the original 0, nothing written)\n");
	/* a policy install: no device, knob or values, so no "- - - -> -" */
	event_text("{\"id\":6,\"who\":\"manual\",\"device\":null,\"knob\":null,"
		   "\"instance\":null,\"old\":null,\"new\":null,"
		   "\"reason\":\"policy 'balanced' installed, mode active\"}", out, sizeof(out));
	assert_string_equal(out, "6 - manual (policy 'balanced' installed, mode active)\n");
	/* a device-wide knob (no instance) whose new value alone is known */
	event_text("{\"id\":7,\"who\":\"error\",\"device\":\"va\",\"knob\":\"rx-usecs\","
		   "\"instance\":\"\",\"old\":null,\"new\":8}", out, sizeof(out));
	assert_string_equal(out, "7 - error va rx-usecs - -> 8\n");
}

/* `vqtunectl status`: the tick in force, with its base and max when the daemon sends them */
static void test_status_tick(void **state)
{
	json_t *st = json_pack("{s:s, s:I, s:I, s:I}", "mode", "active",
			       "tick_interval_ns", (json_int_t)2000000000,
			       "tick_base_ns", (json_int_t)1000000000,
			       "tick_max_ns", (json_int_t)4000000000);

	(void)state;
	status_has(st, "\ntick interval:    2.0s (1.0s, up to 4.0s while nothing "
		   "moves)\n");
	/* no device controlled: the tick stays at its base until one is */
	json_object_set_new(st, "controlled_devices", json_integer(0));
	status_has(st, "\ntick interval:    2.0s (fixed while no device is controlled; "
		   "then 1.0s, up to 4.0s while nothing moves)\n");
	status_has(st, "\ncontrolled:       0 (the policy's laws run on them");
	json_object_set_new(st, "controlled_devices", json_integer(2));
	status_has(st, "\ntick interval:    2.0s (1.0s, up to 4.0s while nothing "
		   "moves)\n");
	status_has(st, "\ncontrolled:       2 (");
	/* mode observe never paces */
	json_object_set_new(st, "mode", json_string("observe"));
	status_has(st, "\ntick interval:    2.0s (fixed)\n");
	/* --max-interval = --interval */
	json_object_set_new(st, "mode", json_string("advise"));
	json_object_set_new(st, "tick_max_ns", json_integer(1000000000));
	status_has(st, "\ntick interval:    2.0s (fixed)\n");
	/* an older daemon: the interval alone */
	json_object_del(st, "tick_max_ns");
	status_has(st, "\ntick interval:    2.0s\nticks:");
	json_decref(st);
}

/* ctl_text_devices() with every device at 1 kbit/s each way, as capture() calls it */
static void devices_text(json_t *devs)
{
	json_t *r = json_pack("{s:f, s:f}", "rx_bytes_per_s", 125.0, "tx_bytes_per_s", 125.0);
	json_t *rates[3] = { r, r, r };

	ctl_text_devices(devs, rates);
	json_decref(r);
}

/*
 * How old each device's sample is: `vqtunectl devices` has a SAMPLED column ("400ms ago";
 * "never" before the first sample; "-" from a daemon that does not say), and the queues
 * view's header line says it too.
 */
static void test_sample_age(void **state)
{
	json_t *devs = json_pack("[{s:s, s:I}, {s:s, s:n}, {s:s}]",
				 "name", "vb", "sample_age_ns", (json_int_t)400000000,
				 "name", "vc", "sample_age_ns", "name", "vd");
	json_t *q = json_pack("{s:s, s:s, s:i, s:I, s:{}, s:[]}", "device", "vb", "netns", "lab",
			      "generation", 1, "sample_age_ns", (json_int_t)12000000000,
			      "totals", "queues");
	char out[OUT_MAX_BYTES], *l;

	(void)state;
	capture(devices_text, devs, out, sizeof(out));
	assert_non_null(strstr(out, " SAMPLED\n"));
	/* the rows in order, each ending with its SAMPLED cell after the TX rate */
	assert_non_null(l = strstr(out, "\nvb "));
	assert_non_null(strstr(l, "kbit/s  400ms ago\nvc "));
	assert_non_null(l = strstr(out, "\nvc "));
	assert_non_null(strstr(l, "kbit/s      never\nvd "));
	assert_non_null(l = strstr(out, "\nvd "));
	assert_non_null(strstr(l, "kbit/s          -\n"));
	capture(ctl_text_queues, q, out, sizeof(out));
	if (strncmp(out, "vb  netns lab  generation 1  sampled 12.0s ago\n", 47))
		fail_msg("queues header: %s", out);
	json_decref(devs);
	json_decref(q);
}

/* `vqtunectl status`: the daemon's scheduler slice, none per task, or an older daemon's "-" */
static void test_status_slice(void **state)
{
	json_t *st = json_pack("{s:s, s:I}", "mode", "active", "sched_slice_ns",
			       (json_int_t)100000);

	(void)state;
	status_has(st, "\nsched slice:      100us\n");
	json_object_set_new(st, "sched_slice_ns", json_integer(2800000));
	status_has(st, "\nsched slice:      2.8ms\n");
	json_object_set_new(st, "sched_slice_ns", json_integer(0));
	status_has(st, "\nsched slice:      none per task (a kernel before 6.12, or a "
		   "real-time policy)\n");
	json_object_del(st, "sched_slice_ns");
	status_has(st, "\nsched slice:      -\n");
	json_decref(st);
}

/* `vqtunectl status`: a tick's mean wall and CPU time, and its three longest parts */
static void test_status_tick_cost(void **state)
{
	json_t *st = json_pack("{s:s, s:I, s:I, s:I, s:{s:I, s:I, s:I, s:I, s:I}}",
			       "mode", "active", "ticks", (json_int_t)4,
			       "tick_wall_ns", (json_int_t)24000000,
			       "tick_cpu_ns", (json_int_t)20000000, "tick_parts_ns",
			       "netdev", (json_int_t)8000000, "rtnl-stats", (json_int_t)2000000,
			       "ethtool", (json_int_t)6000000, "bql", (json_int_t)400000,
			       "qdisc", (json_int_t)0);

	(void)state;
	/* 24 ms over 4 ticks; the parts per tick, longest first, the rest of the wall time
	 * (24 - 16.4 ms: "other") ranked with them, the fourth and fifth left out */
	status_has(st, "\ntick cost:        6ms a tick (CPU 5ms): netdev 2ms, other 1.9ms, "
		   "ethtool 1.5ms\n");
	/* a part that took nothing is not named, even with fewer than three left */
	json_object_set_new(st, "tick_parts_ns", json_pack("{s:I, s:I}", "netdev", (json_int_t)0,
							   "bql", (json_int_t)4000000));
	status_has(st, "\ntick cost:        6ms a tick (CPU 5ms): other 5ms, bql 1ms\n");
	/* parts that fill the wall time leave no "other" */
	json_object_set_new(st, "tick_parts_ns", json_pack("{s:I, s:I}", "netdev", (json_int_t)20000000,
							   "bql", (json_int_t)4000000));
	status_has(st, "\ntick cost:        6ms a tick (CPU 5ms): netdev 5ms, bql 1ms\n");
	/* no tick yet, or an older daemon: "-" */
	json_object_set_new(st, "ticks", json_integer(0));
	status_has(st, "\ntick cost:        -\n");
	json_object_set_new(st, "ticks", json_integer(4));
	json_object_del(st, "tick_parts_ns");
	status_has(st, "\ntick cost:        -\n");
	json_decref(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_line),
		cmocka_unit_test(test_event_line),
		cmocka_unit_test(test_status_tick),
		cmocka_unit_test(test_status_slice),
		cmocka_unit_test(test_status_tick_cost),
		cmocka_unit_test(test_sample_age),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
