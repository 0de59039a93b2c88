// SPDX-License-Identifier: GPL-2.0-only
/*
 * vqtunectl aligned tables: column widths, right alignment, no trailing blanks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../ctl/ctl.h"

/* Renders t into a malloc'd string. */
static char *render(const struct ctl_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	ctl_table_print(t, f);
	fclose(f);
	return buf;
}

static void test_table_alignment(void **state)
{
	static const char *const hdr[] = { "NAME", ">RATE", "FLAGS" };
	static const char *const r1[] = { "veth1", "9.41 Gbit/s", "pinned" };
	static const char *const r2[] = { "ve\\xff0", "0 bit/s", "" };
	struct ctl_table *t = ctl_table_new(hdr, 3);
	char *out;

	assert_non_null(t);
	assert_int_equal(ctl_table_add(t, r1), 0);
	assert_int_equal(ctl_table_add(t, r2), 0);
	out = render(t);
	assert_string_equal(out,
			    "NAME            RATE  FLAGS\n"
			    "veth1    9.41 Gbit/s  pinned\n"
			    "ve\\xff0      0 bit/s\n");
	free(out);
	ctl_table_free(t);
}

/*
 * UTF-8 names pad by display columns, not bytes: "vëth0" is 6 bytes but 5 columns, "日本"
 * 6 bytes but 2 code points, so every row's later columns start where the header's do.
 */
static void test_table_utf8_columns(void **state)
{
	static const char *const hdr[] = { "NAME", "NETNS", ">RX" };
	static const char *const r1[] = { "v\xc3\xabth0", "a", "1" };
	static const char *const r2[] = { "\xe6\x97\xa5\xe6\x9c\xac", "bb", "22" };
	static const char *const r3[] = { "eth0", "\xc3\xa9", "333" };
	struct ctl_table *t = ctl_table_new(hdr, 3);
	char *out;

	assert_non_null(t);
	assert_int_equal(ctl_table_add(t, r1), 0);
	assert_int_equal(ctl_table_add(t, r2), 0);
	assert_int_equal(ctl_table_add(t, r3), 0);
	out = render(t);
	assert_string_equal(out,
			    "NAME   NETNS   RX\n"
			    "v\xc3\xabth0  a        1\n"
			    "\xe6\x97\xa5\xe6\x9c\xac     bb      22\n"
			    "eth0   \xc3\xa9      333\n");
	free(out);
	ctl_table_free(t);
}

/* A right-aligned column of UTF-8 cells lines up on its last column as well. */
static void test_table_utf8_right(void **state)
{
	static const char *const hdr[] = { ">NAME", "X" };
	static const char *const r1[] = { "\xc3\xa9\xc3\xa9", "y" };
	struct ctl_table *t = ctl_table_new(hdr, 2);
	char *out;

	assert_int_equal(ctl_table_add(t, r1), 0);
	out = render(t);
	assert_string_equal(out, "NAME  X\n  \xc3\xa9\xc3\xa9  y\n");
	free(out);
	ctl_table_free(t);
}

static void test_table_empty_middle_and_null(void **state)
{
	static const char *const hdr[] = { ">Q", "DIR", ">N" };
	static const char *const r1[] = { "10", NULL, "5" };
	struct ctl_table *t = ctl_table_new(hdr, 3);
	char *out;

	assert_int_equal(ctl_table_add(t, r1), 0);
	out = render(t);
	/* an empty cell keeps its column's width so later columns stay aligned */
	assert_string_equal(out, " Q  DIR  N\n10       5\n");
	free(out);
	ctl_table_free(t);
}

static void test_table_many_rows(void **state)
{
	static const char *const hdr[] = { ">N" };
	struct ctl_table *t = ctl_table_new(hdr, 1);
	char cell[16], *out;
	const char *row[1] = { cell };
	int i, lines = 0;

	/* more rows than the first allocation: the table must grow */
	for (i = 0; i < 100; i++) {
		snprintf(cell, sizeof(cell), "%d", i);
		assert_int_equal(ctl_table_add(t, row), 0);
	}
	out = render(t);
	for (i = 0; out[i]; i++)
		lines += out[i] == '\n';
	assert_int_equal(lines, 101);
	assert_true(strncmp(out, " N\n 0\n 1\n", 9) == 0);
	assert_string_equal(out + strlen(out) - 7, "\n98\n99\n");
	free(out);
	ctl_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_alignment),
		cmocka_unit_test(test_table_utf8_columns),
		cmocka_unit_test(test_table_utf8_right),
		cmocka_unit_test(test_table_empty_middle_and_null),
		cmocka_unit_test(test_table_many_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
