// SPDX-License-Identifier: GPL-2.0-only
/*
 * vqtunectl pure helpers: value parsing, seconds parsing, percent-encoding, device
 * selector paths, rate/SI/duration/time formatting, dotted policy keys and the line
 * `policy set` prints, the CLI's words for API errors.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../ctl/ctl.h"

static void test_parse_u64_accepts(void **state)
{
	uint64_t v = 1;

	assert_int_equal(ctl_parse_u64("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(ctl_parse_u64("20000", &v), 0);
	assert_int_equal(v, 20000);
	assert_int_equal(ctl_parse_u64("7", &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(ctl_parse_u64("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
}

static void test_parse_u64_rejects(void **state)
{
	static const char *const bad[] = { "", "-1", "+1", "1e3", "abc", " 1", "1 ", "0x10",
		"1.0", "１" };
	uint64_t v = 42;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(ctl_parse_u64(bad[i], &v), -EINVAL);
		assert_int_equal(v, 42);
	}
	assert_int_equal(ctl_parse_u64(NULL, &v), -EINVAL);
	/* a leading zero (010 is 8 to C and the shell): refused, not read as 10 */
	assert_int_equal(ctl_parse_u64("007", &v), -EDOM);
	assert_int_equal(ctl_parse_u64("00", &v), -EDOM);
	assert_int_equal(ctl_parse_u64("0x10", &v), -EINVAL);
	assert_int_equal(ctl_parse_u64("099999999999999999999", &v), -EDOM);
	assert_int_equal(ctl_parse_u64("18446744073709551616", &v), -ERANGE);
	assert_int_equal(ctl_parse_u64("99999999999999999999", &v), -ERANGE);
	assert_int_equal(v, 42);
}

/* a bound outside [min, max] is -ERANGE like a number too large for 64 bits */
static void test_parse_u64_range(void **state)
{
	uint64_t v = 42;

	assert_int_equal(ctl_parse_u64_range("0", 0, 1023, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(ctl_parse_u64_range("1023", 0, 1023, &v), 0);
	assert_int_equal(v, 1023);
	v = 42;
	assert_int_equal(ctl_parse_u64_range("1024", 0, 1023, &v), -ERANGE);
	assert_int_equal(ctl_parse_u64_range("0", 1, UINT64_MAX, &v), -ERANGE);
	assert_int_equal(ctl_parse_u64_range("9223372036854775808", 0, INT64_MAX, &v), -ERANGE);
	assert_int_equal(ctl_parse_u64_range("99999999999999999999", 0, UINT64_MAX, &v), -ERANGE);
	assert_int_equal(ctl_parse_u64_range("1e3", 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(ctl_parse_u64_range("", 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(v, 42);
	assert_int_equal(ctl_parse_u64_range("9223372036854775807", 0, INT64_MAX, &v), 0);
	assert_true(v == INT64_MAX);
}

static void test_parse_seconds(void **state)
{
	uint64_t ms = 0;

	assert_int_equal(ctl_parse_seconds_ms("2", 1, 10000, &ms), 0);
	assert_int_equal(ms, 2000);
	assert_int_equal(ctl_parse_seconds_ms("0.25", 1, 10000, &ms), 0);
	assert_int_equal(ms, 250);
	assert_int_equal(ctl_parse_seconds_ms("1.5", 1, 10000, &ms), 0);
	assert_int_equal(ms, 1500);
	assert_int_equal(ctl_parse_seconds_ms("0.001", 1, 10000, &ms), 0);
	assert_int_equal(ms, 1);
	assert_int_equal(ctl_parse_seconds_ms("0", 1, 10000, &ms), -ERANGE);
	assert_int_equal(ctl_parse_seconds_ms("11", 1, 10000, &ms), -ERANGE);
	assert_int_equal(ctl_parse_seconds_ms("0.0001", 1, 10000, &ms), -EINVAL);
	assert_int_equal(ctl_parse_seconds_ms("1.", 1, 10000, &ms), -EINVAL);
	assert_int_equal(ctl_parse_seconds_ms(".5", 1, 10000, &ms), -EINVAL);
	assert_int_equal(ctl_parse_seconds_ms("1.x", 1, 10000, &ms), -EINVAL);
	/* the whole part has no leading zero either; "0.5" has none */
	assert_int_equal(ctl_parse_seconds_ms("01.5", 1, 10000, &ms), -EDOM);
	assert_int_equal(ctl_parse_seconds_ms("-1", 1, 10000, &ms), -EINVAL);
	assert_int_equal(ctl_parse_seconds_ms("", 1, 10000, &ms), -EINVAL);
	assert_int_equal(ms, 1);
}

/* -H: HOST:PORT, [ADDR6]:PORT, optionally as an http(s) URL; the rest is refused */
static void test_parse_host(void **state)
{
	static const char *const good[] = {
		"127.0.0.1:9477", "localhost:1", "vq-host_1.example:65535", "[::1]:9477",
		"[fe80::1%eth0]:80", "http://127.0.0.1:9477", "HTTP://h:443/", "http://[::1]:1//",
	};
	static const char *const bad[] = {
		"", "127.0.0.1", "127.0.0.1:",
		"h:80x", "h:80/path", ":80", "[::1]", "[::1:80", "[zz::1]:80", "[::1%]:80",
		"ftp://h:21", "-h:80", ".h:80", "h h:80", "h:-1",
	};
	char port[CTL_PORT_TEXT_BYTES];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(ctl_parse_host(good[i]), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (ctl_parse_host(bad[i]) != -EINVAL)
			fail_msg("-H '%s' accepted", bad[i]);
	}
	/* a decimal port outside 1..65535 is told apart, so the message names the range */
	assert_int_equal(ctl_parse_host("127.0.0.1:0"), -ERANGE);
	assert_int_equal(ctl_parse_host("127.0.0.1:65536"), -ERANGE);
	assert_int_equal(ctl_parse_host("h:123456"), -ERANGE);
	assert_int_equal(ctl_parse_host("http://[::1]:00000//"), -ERANGE);
	/* a port in range with a leading zero: refused, as vqtuned -l refuses it */
	assert_int_equal(ctl_parse_host("127.0.0.1:09477"), -EDOM);
	assert_int_equal(ctl_parse_host("h:00080"), -EDOM);
	assert_int_equal(ctl_parse_host("http://[::1]:01/"), -EDOM);
	assert_int_equal(ctl_parse_host("127.0.0.1:045893"), -EDOM);
	assert_int_equal(ctl_parse_host("h:0000000000080"), -EDOM);
	assert_int_equal(ctl_parse_host("h:0065536"), -ERANGE);
	assert_int_equal(ctl_parse_host("h:10"), 0);
	assert_int_equal(ctl_parse_host("h:9477"), 0);
	/* ... but only a port that is a number: text after it is not HOST:PORT */
	assert_int_equal(ctl_parse_host("h:0x"), -EINVAL);
	assert_int_equal(ctl_parse_host("h:99999/x"), -EINVAL);
	ctl_host_port_text("127.0.0.1:0", port, sizeof(port));
	assert_string_equal(port, "0");
	ctl_host_port_text("http://[::1]:65536//", port, sizeof(port));
	assert_string_equal(port, "65536");
	ctl_host_port_text("h", port, sizeof(port));
	assert_string_equal(port, "");
	/* the daemon has no TLS: https is refused with its own reason */
	assert_int_equal(ctl_parse_host("https://127.0.0.1:9477"), -EPROTONOSUPPORT);
	assert_int_equal(ctl_parse_host("HTTPS://h:443/"), -EPROTONOSUPPORT);
}

static void test_url_escape(void **state)
{
	/* unreserved bytes stay, everything else is %HH upper-case (RFC 3986 2.1, 2.3) */
	static const char in[] = "aZ09-._~ /:%?#\\\xff\x01";
	char *e = ctl_url_escape(in, sizeof(in) - 1);

	assert_string_equal(e, "aZ09-._~%20%2F%3A%25%3F%23%5C%FF%01");
	free(e);
	/* an embedded NUL is a byte like any other when the length says so */
	e = ctl_url_escape("a\0b", 3);
	assert_string_equal(e, "a%00b");
	free(e);
	e = ctl_url_escape("", 0);
	assert_string_equal(e, "");
	free(e);
}

static void test_dev_path(void **state)
{
	int err = 1;
	char *p;

	p = ctl_dev_path("veth1", "/queues", &err);
	assert_int_equal(err, 0);
	assert_string_equal(p, "/v1/devices/veth1/queues");
	free(p);
	p = ctl_dev_path("lab:veth1", NULL, &err);
	assert_string_equal(p, "/v1/devices/lab:veth1");
	free(p);
	p = ctl_dev_path("-:ve\xff" "0", "", &err);
	assert_string_equal(p, "/v1/devices/-:ve%FF0");
	free(p);
	/* display form: the backslash is sent escaped, the server maps it back */
	p = ctl_dev_path("ve\\xff0", "/pause", &err);
	assert_string_equal(p, "/v1/devices/ve%5Cxff0/pause");
	free(p);
	/* names hold no ':', so the last one splits; a ':' inside NETNS is escaped */
	p = ctl_dev_path("a:b:eth0", "", &err);
	assert_string_equal(p, "/v1/devices/a%3Ab:eth0");
	free(p);
	p = ctl_dev_path("ns with space:e%0", "", &err);
	assert_string_equal(p, "/v1/devices/ns%20with%20space:e%250");
	free(p);
	assert_null(ctl_dev_path("", "", &err));
	assert_int_equal(err, -EINVAL);
	assert_null(ctl_dev_path("lab:", "", &err));
	assert_int_equal(err, -EINVAL);
	/* an empty NETNS is refused, not read as "-" (the daemon's own namespace) */
	err = 1;
	assert_null(ctl_dev_path(":eth0", "", &err));
	assert_int_equal(err, -EINVAL);
	err = 1;
	assert_null(ctl_dev_path(":", "/queues", &err));
	assert_int_equal(err, -EINVAL);
}

static void test_dev_selector(void **state)
{
	char *s = ctl_dev_selector("", "eth0");

	assert_string_equal(s, "-:eth0");
	free(s);
	s = ctl_dev_selector(NULL, "eth0");
	assert_string_equal(s, "-:eth0");
	free(s);
	s = ctl_dev_selector("lab", "veth1");
	assert_string_equal(s, "lab:veth1");
	free(s);
}

/* by raw bytes: what names a device whose display form is another device's raw name */
static void test_dev_selector_hex(void **state)
{
	static const char *const bad[] = { NULL, "", "7", "76f", "76zz30", "7600", "76 f30",
		"0x76" };
	char *s = ctl_dev_selector_hex("lab", "76ff30");
	size_t i;

	assert_string_equal(s, "lab:v\xff" "0");
	free(s);
	s = ctl_dev_selector_hex("", "765C78666630");
	assert_string_equal(s, "-:v\\xff0");
	free(s);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_null(ctl_dev_selector_hex("lab", bad[i]));
}

static void test_fmt_bitrate(void **state)
{
	char b[32];

	assert_string_equal(ctl_fmt_bitrate(1176250000.0, b, sizeof(b)), "9.41 Gbit/s");
	assert_string_equal(ctl_fmt_bitrate(0, b, sizeof(b)), "0 bit/s");
	assert_string_equal(ctl_fmt_bitrate(4, b, sizeof(b)), "32.0 bit/s");
	assert_string_equal(ctl_fmt_bitrate(1000, b, sizeof(b)), "8.00 kbit/s");
	assert_string_equal(ctl_fmt_bitrate(12500000, b, sizeof(b)), "100 Mbit/s");
	assert_string_equal(ctl_fmt_bitrate(1250000000.0, b, sizeof(b)), "10.0 Gbit/s");
	/* 999.96 kbit/s would print "1000 kbit/s" at three digits: it must roll over */
	assert_string_equal(ctl_fmt_bitrate(124995.0, b, sizeof(b)), "1.00 Mbit/s");
	assert_string_equal(ctl_fmt_bitrate(124875.0, b, sizeof(b)), "999 kbit/s");
	assert_string_equal(ctl_fmt_bitrate(-1, b, sizeof(b)), "-");
	assert_string_equal(ctl_fmt_bitrate(NAN, b, sizeof(b)), "-");
	assert_string_equal(ctl_fmt_bitrate(INFINITY, b, sizeof(b)), "-");
}

static void test_fmt_si(void **state)
{
	char b[32];

	assert_string_equal(ctl_fmt_si(0, b, sizeof(b)), "0");
	assert_string_equal(ctl_fmt_si(999, b, sizeof(b)), "999");
	assert_string_equal(ctl_fmt_si(2.5, b, sizeof(b)), "2.5");
	assert_string_equal(ctl_fmt_si(1234567, b, sizeof(b)), "1.23M");
	assert_string_equal(ctl_fmt_si(812345, b, sizeof(b)), "812k");
	assert_string_equal(ctl_fmt_si(99960, b, sizeof(b)), "100k");
	assert_string_equal(ctl_fmt_si(-1, b, sizeof(b)), "-");
}

static void test_fmt_duration(void **state)
{
	char b[32];

	assert_string_equal(ctl_fmt_duration_ns(12000000000ULL, b, sizeof(b)), "12.0s");
	assert_string_equal(ctl_fmt_duration_ns(1500000000ULL, b, sizeof(b)), "1.5s");
	assert_string_equal(ctl_fmt_duration_ns(307000000000ULL, b, sizeof(b)), "5m07s");
	assert_string_equal(ctl_fmt_duration_ns(3725000000000ULL, b, sizeof(b)), "1h02m");
	assert_string_equal(ctl_fmt_duration_ns(273900000000000ULL, b, sizeof(b)), "3d04h05m");
	/* under a second: a 10 ms tick read "0.0s" before */
	assert_string_equal(ctl_fmt_duration_ns(1000000000ULL, b, sizeof(b)), "1.0s");
	assert_string_equal(ctl_fmt_duration_ns(999000000ULL, b, sizeof(b)), "999ms");
	assert_string_equal(ctl_fmt_duration_ns(10000000ULL, b, sizeof(b)), "10ms");
	assert_string_equal(ctl_fmt_duration_ns(2500000ULL, b, sizeof(b)), "2.5ms");
	assert_string_equal(ctl_fmt_duration_ns(750999ULL, b, sizeof(b)), "750us");
	assert_string_equal(ctl_fmt_duration_ns(0, b, sizeof(b)), "0s");
	assert_string_equal(ctl_fmt_duration_ns(999960000ULL, b, sizeof(b)), "1.0s");
	assert_string_equal(ctl_fmt_duration_ns(999940000ULL, b, sizeof(b)), "999.9ms");
	assert_string_equal(ctl_fmt_duration_ns(999ULL, b, sizeof(b)), "999ns");
}

static void test_fmt_time(void **state)
{
	char b[40];

	assert_string_equal(ctl_fmt_time_ns(1700000000123456789ULL, b, sizeof(b)),
			    "2023-11-14T22:13:20.123Z");
	assert_string_equal(ctl_fmt_time_ns(0, b, sizeof(b)), "1970-01-01T00:00:00.000Z");
}

/* policy set: a changed policy says so in its name, once, within 63 bytes */
static void test_policy_mark_modified(void **state)
{
	json_t *before = json_pack("{s:s, s:s, s:{s:i}}", "name", "balanced", "mode", "active",
				   "guard", "cooldown_ticks", 2);
	json_t *now = json_deep_copy(before);
	char long_name[64];

	/* nothing changed: the name stays */
	assert_int_equal(ctl_policy_mark_modified(now, before), 0);
	assert_string_equal(json_string_value(json_object_get(now, "name")), "balanced");
	json_object_set_new(now, "mode", json_string("observe"));
	assert_int_equal(ctl_policy_mark_modified(now, before), 1);
	assert_string_equal(json_string_value(json_object_get(now, "name")),
			    "balanced (modified)");
	/* a second change keeps a single mark */
	json_decref(before);
	before = json_deep_copy(now);
	json_object_set_new(json_object_get(now, "guard"), "cooldown_ticks", json_integer(5));
	assert_int_equal(ctl_policy_mark_modified(now, before), 0);
	assert_string_equal(json_string_value(json_object_get(now, "name")),
			    "balanced (modified)");
	/* setting the name itself is taken as asked */
	json_object_set_new(now, "name", json_string("mine"));
	assert_int_equal(ctl_policy_mark_modified(now, before), 0);
	assert_string_equal(json_string_value(json_object_get(now, "name")), "mine");
	/* 63 bytes at most: the name is cut before a whole UTF-8 character ("é" is 2 bytes) */
	memset(long_name, 'a', 51);
	strcpy(long_name + 51, "\xc3\xa9xx");
	json_object_set_new(before, "name", json_string(long_name));
	json_object_set_new(now, "name", json_string(long_name));
	assert_int_equal(ctl_policy_mark_modified(now, before), 1);
	assert_int_equal(strlen(json_string_value(json_object_get(now, "name"))), 62);
	memset(long_name + 51, 0, 4);
	strcat(long_name, " (modified)");
	assert_string_equal(json_string_value(json_object_get(now, "name")), long_name);
	json_decref(before);
	json_decref(now);
}

static void test_jpath_set(void **state)
{
	json_t *o = json_pack("{s:s,s:{s:i}}", "mode", "observe", "gro", "max_ns", 1);
	char *s;

	assert_int_equal(ctl_jpath_set(o, "mode", json_string("active")), 0);
	assert_int_equal(ctl_jpath_set(o, "gro.max_ns", json_integer(5)), 0);
	assert_int_equal(ctl_jpath_set(o, "a.b.c", json_true()), 0);
	s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"a\":{\"b\":{\"c\":true}},\"gro\":{\"max_ns\":5},"
			    "\"mode\":\"active\"}");
	free(s);
	/* a scalar in the way, empty segments: refused, object unchanged */
	assert_int_equal(ctl_jpath_set(o, "mode.x", json_integer(1)), -EINVAL);
	assert_int_equal(ctl_jpath_set(o, "", json_integer(1)), -EINVAL);
	assert_int_equal(ctl_jpath_set(o, "gro.", json_integer(1)), -EINVAL);
	assert_int_equal(ctl_jpath_set(o, ".gro", json_integer(1)), -EINVAL);
	assert_int_equal(ctl_jpath_set(o, "x", NULL), -ENOMEM);
	assert_int_equal(json_object_size(o), 3);
	assert_int_equal(json_object_size(json_object_get(o, "gro")), 1);
	json_decref(o);
}

static void test_jpath_get_and_change_line(void **state)
{
	json_t *before = json_pack("{s:s, s:{s:i, s:f}, s:s}", "name", "balanced",
				   "guard", "settle_s", 5, "ratio", 0.1, "mode", "active");
	json_t *after = json_deep_copy(before);
	char *line;

	assert_ptr_equal(ctl_jpath_get(before, "guard.settle_s"),
			 json_object_get(json_object_get(before, "guard"), "settle_s"));
	assert_null(ctl_jpath_get(before, "guard.nope"));
	assert_null(ctl_jpath_get(before, "mode.x"));
	assert_null(ctl_jpath_get(before, "nope.x"));
	json_object_set_new(after, "name", json_string("balanced (modified)"));
	json_object_set_new(json_object_get(after, "guard"), "settle_s", json_integer(10));
	json_object_set_new(json_object_get(after, "guard"), "ratio", json_real(0.25));
	json_object_set_new(after, "mode", json_string("observe"));
	json_object_set_new(after, "extra", json_pack("{s:b}", "on", 1));
	/* one line: the policy's new name, the key, old -> new as `policy set` takes them */
	line = ctl_policy_change_line(before, after, "guard.settle_s");
	assert_string_equal(line, "policy 'balanced (modified)': guard.settle_s 5 -> 10");
	free(line);
	line = ctl_policy_change_line(before, after, "guard.ratio");
	assert_string_equal(line, "policy 'balanced (modified)': guard.ratio 0.1 -> 0.25");
	free(line);
	line = ctl_policy_change_line(before, after, "mode");
	assert_string_equal(line, "policy 'balanced (modified)': mode \"active\" -> \"observe\"");
	free(line);
	line = ctl_policy_change_line(before, after, "extra");
	assert_string_equal(line, "policy 'balanced (modified)': extra (absent) -> {\"on\":true}");
	free(line);
	json_decref(before);
	json_decref(after);
}

/* one wording for every number out of range: option, value, range and unit */
static void test_range_error(void **state)
{
	char b[CTL_RANGE_ERROR_BYTES];

	(void)state;
	assert_string_equal(ctl_fmt_range_error(b, sizeof(b), "--queue", "1024", "0", "1023",
						"queue index"),
			    "--queue: '1024' is out of range [0, 1023] (queue index)");
	assert_string_equal(ctl_fmt_range_error(b, sizeof(b), "--interval", "7200", "0.01",
						"3600", "seconds"),
			    "--interval: '7200' is out of range [0.01, 3600] (seconds)");
	assert_string_equal(ctl_fmt_range_error(b, sizeof(b), "VALUE", "99999999999999999999",
						"0", "9223372036854775807",
						"gro-flush-timeout's unit"),
			    "VALUE: '99999999999999999999' is out of range "
			    "[0, 9223372036854775807] (gro-flush-timeout's unit)");
}

/* an argument is quoted whole up to CTL_ARG_SHOWN_MAX bytes, past it cut to half and sized */
static void test_arg_shown(void **state)
{
	char b[CTL_ARG_SHOWN_BYTES], arg[4 * CTL_ARG_SHOWN_MAX], want[4 * CTL_ARG_SHOWN_MAX + 3];
	char r[CTL_RANGE_ERROR_BYTES];

	(void)state;
	assert_string_equal(ctl_arg_shown("", b, sizeof(b)), "''");
	assert_string_equal(ctl_arg_shown("abc", b, sizeof(b)), "'abc'");
	memset(arg, '7', CTL_ARG_SHOWN_MAX);
	arg[CTL_ARG_SHOWN_MAX] = '\0';
	snprintf(want, sizeof(want), "'%s'", arg);
	assert_string_equal(ctl_arg_shown(arg, b, sizeof(b)), want);	/* 64: whole */
	arg[CTL_ARG_SHOWN_MAX] = '8';
	arg[CTL_ARG_SHOWN_MAX + 1] = '\0';
	assert_string_equal(ctl_arg_shown(arg, b, sizeof(b)),		/* 65: cut */
			    "'77777777777777777777777777777777...' (65 bytes)");
	memset(arg, '9', sizeof(arg) - 1);
	arg[sizeof(arg) - 1] = '\0';
	/* the range and the unit survive a long VALUE */
	assert_string_equal(ctl_fmt_range_error(r, sizeof(r), "VALUE", arg, "0", "1000000000",
						"ns of gro-flush-timeout on vb"),
			    "VALUE: '99999999999999999999999999999999...' (255 bytes) is out of "
			    "range [0, 1000000000] (ns of gro-flush-timeout on vb)");
}

static void test_error_words(void **state)
{
	char b[512];

	/* the API's body field becomes the CLI's option */
	assert_string_equal(ctl_error_words(VQ_ERR_CONFLICT, "disruptive", NULL, "ns:v0",
					    "rx-rings", b, sizeof(b)),
			    "rx-rings may reset the device's queues: add --disruptive to accept");
	assert_null(strstr(b, "\"disruptive\":true"));
	/* a knob that is not there: where the names are */
	assert_string_equal(ctl_error_words(VQ_ERR_NOT_FOUND, "knob", NULL, "eth0",
					    "nosuch-knob", b, sizeof(b)),
			    "no knob named 'nosuch-knob' (vqtunectl knobs eth0 lists eth0's knobs)");
	/* another field not found, an unknown DEV or KNOB, or bytes to escape: the API's words */
	assert_null(ctl_error_words(VQ_ERR_NOT_FOUND, "dev", NULL, "eth0", "nosuch-knob", b,
				    sizeof(b)));
	assert_null(ctl_error_words(VQ_ERR_NOT_FOUND, "knob", NULL, NULL, "nosuch-knob", b,
				    sizeof(b)));
	assert_null(ctl_error_words(VQ_ERR_NOT_FOUND, "knob", NULL, "eth0", NULL, b, sizeof(b)));
	assert_null(ctl_error_words(VQ_ERR_NOT_FOUND, "knob", NULL, "eth0", "no\x1b[2Jsuch", b,
				    sizeof(b)));
	/* a loopback device, as the daemon states it: never written, --manage is no remedy */
	assert_non_null(ctl_error_words(VQ_ERR_READ_ONLY, "dev", VQ_ERR_REASON_LOOPBACK, "-:lo",
					"gro-flush-timeout", b, sizeof(b)));
	assert_string_equal(b, "-:lo is a loopback device: vqtuned observes it and never "
			    "writes it (--manage does not change that)");
	/* whatever its name: the loopback device of a namespace renamed from "lo" */
	assert_non_null(ctl_error_words(VQ_ERR_READ_ONLY, "dev", VQ_ERR_REASON_LOOPBACK,
					"lab:lo7", NULL, b, sizeof(b)));
	assert_string_equal(b, "lab:lo7 is a loopback device: vqtuned observes it and never "
			    "writes it (--manage does not change that)");
	/* the machine's own interface, written only under --manage: also one named "lo" */
	assert_non_null(ctl_error_words(VQ_ERR_READ_ONLY, "dev", VQ_ERR_REASON_NOT_MANAGED,
					"-:eth0", NULL, b, sizeof(b)));
	assert_string_equal(b, "-:eth0 is observed read-only: vqtuned never writes the "
			    "machine's own interfaces (those of its own namespace) unless it was "
			    "started with --manage GLOB naming them");
	assert_non_null(ctl_error_words(VQ_ERR_READ_ONLY, "dev", VQ_ERR_REASON_NOT_MANAGED,
					"-:lo", NULL, b, sizeof(b)));
	assert_string_equal(b, "-:lo is observed read-only: vqtuned never writes the "
			    "machine's own interfaces (those of its own namespace) unless it was "
			    "started with --manage GLOB naming them");
	/* no reason, or one this CLI does not know: the API's own message, never a guess */
	assert_null(ctl_error_words(VQ_ERR_READ_ONLY, "dev", NULL, "-:lo", NULL, b, sizeof(b)));
	assert_null(ctl_error_words(VQ_ERR_READ_ONLY, "dev", "later_word", "-:lo", NULL, b,
				    sizeof(b)));
	/* anything else keeps the API's message */
	assert_null(ctl_error_words(VQ_ERR_CONFLICT, "dev", NULL, "x", "k", b, sizeof(b)));
	assert_null(ctl_error_words(VQ_ERR_CONFLICT, "disruptive", NULL, "x", NULL, b,
				    sizeof(b)));
	assert_null(ctl_error_words(VQ_ERR_READ_ONLY, "dev", VQ_ERR_REASON_LOOPBACK, NULL, NULL,
				    b, sizeof(b)));
	assert_null(ctl_error_words(VQ_ERR_NOT_FOUND, "dev", VQ_ERR_REASON_LOOPBACK, "-:lo",
				    NULL, b, sizeof(b)));
	assert_null(ctl_error_words(VQ_ERR_READ_ONLY, NULL, VQ_ERR_REASON_LOOPBACK, "-:lo",
				    NULL, b, sizeof(b)));
	assert_null(ctl_error_words(NULL, "dev", VQ_ERR_REASON_LOOPBACK, "-:lo", NULL, b,
				    sizeof(b)));
}

static void test_json_value_from_arg(void **state)
{
	json_t *v;

	v = ctl_json_value_from_arg("42");
	assert_true(json_is_integer(v) && json_integer_value(v) == 42);
	json_decref(v);
	v = ctl_json_value_from_arg("true");
	assert_true(json_is_true(v));
	json_decref(v);
	v = ctl_json_value_from_arg("active");
	assert_string_equal(json_string_value(v), "active");
	json_decref(v);
	v = ctl_json_value_from_arg("\"42\"");
	assert_string_equal(json_string_value(v), "42");
	json_decref(v);
	v = ctl_json_value_from_arg("{\"a\":[1,2]}");
	assert_int_equal(json_array_size(json_object_get(v, "a")), 2);
	json_decref(v);
}

/* A value jansson cannot hold is refused with its range; anything else is no overflow. */
static void test_json_arg_overflow(void **state)
{
	char why[CTL_RANGE_ERROR_BYTES];

	(void)state;
	assert_int_equal(ctl_json_arg_overflow("99999999999999999999", why, sizeof(why)),
			 -ERANGE);
	assert_string_equal(why, "'99999999999999999999' is too big for a JSON integer (a JSON "
			    "integer must lie within [-9223372036854775808, 9223372036854775807])");
	/* 2^64: one past what a u64 holds, still no JSON integer here */
	assert_int_equal(ctl_json_arg_overflow("18446744073709551616", why, sizeof(why)),
			 -ERANGE);
	assert_non_null(strstr(why, "'18446744073709551616' is too big for a JSON integer"));
	/* INT64_MAX + 1 and INT64_MIN - 1: the first numbers past each end */
	assert_int_equal(ctl_json_arg_overflow("9223372036854775808", why, sizeof(why)), -ERANGE);
	assert_int_equal(ctl_json_arg_overflow("-9223372036854775809", why, sizeof(why)),
			 -ERANGE);
	assert_non_null(strstr(why, "'-9223372036854775809' is too small for a JSON integer"));
	assert_int_equal(ctl_json_arg_overflow("1e999", why, sizeof(why)), -ERANGE);
	assert_string_equal(why, "'1e999' is too big for a JSON real (a JSON real must fit a "
			    "double, at most about 1.8e308)");
	assert_int_equal(ctl_json_arg_overflow("[1, 99999999999999999999]", why, sizeof(why)),
			 -ERANGE);
	assert_non_null(strstr(why, "too big integer"));
	/* the ends themselves, other JSON and plain words go on as before */
	assert_int_equal(ctl_json_arg_overflow("9223372036854775807", why, sizeof(why)), 0);
	assert_int_equal(ctl_json_arg_overflow("-9223372036854775808", why, sizeof(why)), 0);
	assert_int_equal(ctl_json_arg_overflow("1e308", why, sizeof(why)), 0);
	assert_int_equal(ctl_json_arg_overflow("active", why, sizeof(why)), 0);
	assert_int_equal(ctl_json_arg_overflow("\"99999999999999999999\"", why, sizeof(why)),
			 0);
	assert_int_equal(ctl_json_arg_overflow("0x99999999999999999999", why, sizeof(why)), 0);
}

/* @v (consumed) prints as @want, and `policy set` reads @want back to an equal value. */
static void check_number(json_t *v, const char *want)
{
	char buf[64];
	json_t *back;

	assert_string_equal(ctl_fmt_json_number(v, buf, sizeof(buf)), want);
	back = ctl_json_value_from_arg(buf);
	assert_true(json_equal(back, v));
	json_decref(back);
	json_decref(v);
}

static void test_fmt_json_number(void **state)
{
	char buf[64];
	json_t *s = json_string("1");

	/* integers digit for digit: 2^53 + 1 has no double, and 1e18 is no real */
	check_number(json_integer(9007199254740993LL), "9007199254740993");
	check_number(json_integer(1000000000000000000LL), "1000000000000000000");
	check_number(json_integer(9223372036854775807LL), "9223372036854775807");
	check_number(json_integer(-1), "-1");
	check_number(json_integer(0), "0");
	/* whole-number reals without exponent, still reals ("1e18" from json_dumps) */
	check_number(json_real(1e18), "1000000000000000000.0");
	check_number(json_real(20000), "20000.0");
	check_number(json_real(-4), "-4.0");
	/* the shortest form that reads back ("0.10000000000000001" from json_dumps) */
	check_number(json_real(0.1), "0.1");
	check_number(json_real(0.07 * 100), "7.000000000000001");
	check_number(json_real(1.5e-7), "1.5e-07");
	check_number(json_real(1e21), "1e+21");
	/* not a number: "-", as other missing values print */
	assert_string_equal(ctl_fmt_json_number(s, buf, sizeof(buf)), "-");
	assert_string_equal(ctl_fmt_json_number(NULL, buf, sizeof(buf)), "-");
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64_accepts),
		cmocka_unit_test(test_parse_u64_rejects),
		cmocka_unit_test(test_parse_u64_range),
		cmocka_unit_test(test_parse_seconds),
		cmocka_unit_test(test_parse_host),
		cmocka_unit_test(test_url_escape),
		cmocka_unit_test(test_dev_path),
		cmocka_unit_test(test_dev_selector),
		cmocka_unit_test(test_dev_selector_hex),
		cmocka_unit_test(test_fmt_bitrate),
		cmocka_unit_test(test_fmt_si),
		cmocka_unit_test(test_fmt_duration),
		cmocka_unit_test(test_fmt_time),
		cmocka_unit_test(test_jpath_set),
		cmocka_unit_test(test_policy_mark_modified),
		cmocka_unit_test(test_json_value_from_arg),
		cmocka_unit_test(test_json_arg_overflow),
		cmocka_unit_test(test_jpath_get_and_change_line),
		cmocka_unit_test(test_range_error),
		cmocka_unit_test(test_arg_shown),
		cmocka_unit_test(test_error_words),
		cmocka_unit_test(test_fmt_json_number),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
