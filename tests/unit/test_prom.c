// SPDX-License-Identifier: GPL-2.0-only
/* test_prom: the Prometheus 0.0.4 text writer (label escaping, numbers, family lines). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "prom.h"

static void test_escape_label(void **state)
{
	char out[64];

	assert_int_equal(prom_escape_label("a\\b\"c\nd", out, sizeof(out)), 10);
	assert_string_equal(out, "a\\\\b\\\"c\\nd");
	/* bytes >= 0x80 and other controls pass through untouched */
	assert_int_equal(prom_escape_label("ve\xff\xc3\xa9\t0", out, sizeof(out)), 7);
	assert_string_equal(out, "ve\xff\xc3\xa9\t0");
	assert_int_equal(prom_escape_label("", out, sizeof(out)), 0);
	assert_string_equal(out, "");
}

static void test_escape_label_truncates(void **state)
{
	char out[4];

	/* needs 6 bytes; only whole escapes are written and the result is terminated */
	assert_int_equal(prom_escape_label("ab\"c", out, sizeof(out)), 5);
	assert_string_equal(out, "ab");
	assert_int_equal(prom_escape_label("xyz\\", NULL, 0), 5);
	out[0] = 'Q';
	assert_int_equal(prom_escape_label("abcdef", out, 1), 6);
	assert_string_equal(out, "");
}

static void test_samples(void **state)
{
	const char *const labels[] = { "device", "ve\xff\"0\\", "queue", "3", NULL };
	const char *const nl[] = { "knob", "a\nb", NULL };
	struct prom p;

	prom_init(&p);
	prom_u64(&p, "vqtune_rx_bytes_total", labels, UINT64_MAX);
	prom_u64(&p, "vqtune_up", NULL, 1);
	prom_double(&p, "vqtune_rate", nl, 0.1);
	prom_double(&p, "vqtune_x", NULL, NAN);
	prom_double(&p, "vqtune_x", NULL, INFINITY);
	prom_double(&p, "vqtune_x", NULL, -INFINITY);
	prom_double(&p, "vqtune_x", NULL, -2.5);
	prom_double(&p, "vqtune_x", NULL, 1.0 / 3.0);
	prom_double(&p, "vqtune_x", NULL, 0.1 + 0.2);
	prom_double(&p, "vqtune_x", NULL, 1e-300);
	prom_double(&p, "vqtune_x", NULL, 123456789012.0);
	assert_int_equal(p.err, 0);
	assert_string_equal(p.buf,
		"vqtune_rx_bytes_total{device=\"ve\xff\\\"0\\\\\",queue=\"3\"} "
		"18446744073709551615\n"
		"vqtune_up 1\n"
		"vqtune_rate{knob=\"a\\nb\"} 0.1\n"
		"vqtune_x NaN\n"
		"vqtune_x +Inf\n"
		"vqtune_x -Inf\n"
		"vqtune_x -2.5\n"
		"vqtune_x 0.3333333333333333\n"
		"vqtune_x 0.30000000000000004\n"
		"vqtune_x 1e-300\n"
		"vqtune_x 123456789012\n");
	assert_int_equal(p.len, strlen(p.buf));
	prom_free(&p);
	assert_null(p.buf);
	assert_int_equal(p.len, 0);
}

static void test_family(void **state)
{
	struct prom p;

	prom_init(&p);
	prom_family(&p, "vqtune_ticks_total", "counter", "Ticks run.\nBack\\slash \"q\"");
	assert_string_equal(p.buf,
		"# HELP vqtune_ticks_total Ticks run.\\nBack\\\\slash \"q\"\n"
		"# TYPE vqtune_ticks_total counter\n");
	prom_free(&p);
}

static void test_growth(void **state)
{
	const char *const labels[] = { "queue", "12345", NULL };
	struct prom p;
	size_t one;
	int i;

	prom_init(&p);
	prom_u64(&p, "vqtune_q", labels, 7);
	one = p.len;
	/* far past the first allocation: every line survives the reallocations */
	for (i = 1; i < 1000; i++)
		prom_u64(&p, "vqtune_q", labels, 7);
	assert_int_equal(p.err, 0);
	assert_int_equal(p.len, 1000 * one);
	assert_memory_equal(p.buf + 999 * one, "vqtune_q{queue=\"12345\"} 7\n", one);
	prom_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_label),
		cmocka_unit_test(test_escape_label_truncates),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_growth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
