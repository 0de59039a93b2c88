// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: the display form of device names (docs/api.md), the durable write, and the words
 * of a command-line option getopt_long(3) refused.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util.h"

static void roundtrip(const char *raw, const char *shown)
{
	char out[128], back[64];

	util_name_display(raw, out, sizeof(out));
	assert_string_equal(out, shown);
	assert_int_equal(util_name_parse(out, back, sizeof(back)), 0);
	assert_string_equal(back, raw);
}

static void test_display(void **state)
{
	roundtrip("veth0", "veth0");
	roundtrip("v\xff" "0", "v\\xff0");		/* not UTF-8 */
	roundtrip("a\\b", "a\\\\b");			/* backslash doubled */
	roundtrip("t\x01", "t\\x01");			/* control byte */
	roundtrip("caf\xc3\xa9", "caf\xc3\xa9");	/* valid UTF-8 kept */
	roundtrip("\xc0\xaf", "\\xc0\\xaf");		/* overlong '/' is not UTF-8 */
	roundtrip("\xed\xa0\x80", "\\xed\\xa0\\x80");	/* surrogate */
	roundtrip("\xc2\x85", "\\xc2\\x85");		/* C1 control */
}

static void test_parse_errors(void **state)
{
	char out[8];

	assert_int_equal(util_name_parse("a\\q", out, sizeof(out)), -EINVAL);
	assert_int_equal(util_name_parse("a\\x4", out, sizeof(out)), -EINVAL);
	assert_int_equal(util_name_parse("a\\", out, sizeof(out)), -EINVAL);
	assert_int_equal(util_name_parse("123456789", out, sizeof(out)), -ENAMETOOLONG);
}

static void test_display_truncates_cleanly(void **state)
{
	char out[6];

	/* never cuts an escape in half */
	util_name_display("ab\xff\xff", out, sizeof(out));
	assert_string_equal(out, "ab");
}

static void test_json_str(void **state)
{
	json_t *j = util_json_str("v\xff" "0");

	assert_true(json_is_string(j));
	assert_string_equal(json_string_value(j), "v\\xff0");
	json_decref(j);
}

/* C0, DEL and C1 are control characters; the printable neighbours of each are not */
static void test_control_len(void **state)
{
	assert_int_equal(util_control_len("\x01x"), 1);
	assert_int_equal(util_control_len(""), 1);		/* NUL */
	assert_int_equal(util_control_len("\x1f"), 1);
	assert_int_equal(util_control_len(" "), 0);
	assert_int_equal(util_control_len("~"), 0);
	assert_int_equal(util_control_len("\x7f"), 1);
	assert_int_equal(util_control_len("\xc2\x80"), 2);	/* U+0080 */
	assert_int_equal(util_control_len("\xc2\x9b[2J"), 2);	/* CSI */
	assert_int_equal(util_control_len("\xc2\x9f"), 2);
	assert_int_equal(util_control_len("\xc2\xa0"), 0);	/* NBSP: printable */
	assert_int_equal(util_control_len("\xc2"), 0);		/* cut sequence: not a control */
	assert_int_equal(util_control_len("\xc3\xa9"), 0);
}

/* the shortest of %.15g..%.17g that reads back: never a number shown as its neighbour */
static void test_real_str(void **state)
{
	char buf[UTIL_REAL_MAX_BYTES];

	assert_string_equal(util_real_str(100, buf, sizeof(buf)), "100");
	assert_string_equal(util_real_str(0.1, buf, sizeof(buf)), "0.1");
	assert_string_equal(util_real_str(100.00000000000001, buf, sizeof(buf)),
			    "100.00000000000001");
	assert_string_equal(util_real_str(-0.30000000000000004, buf, sizeof(buf)),
			    "-0.30000000000000004");
	assert_string_equal(util_real_str(1e300, buf, sizeof(buf)), "1e+300");
	assert_string_equal(util_real_str(-1.7976931348623157e308, buf, sizeof(buf)),
			    "-1.7976931348623157e+308");
	assert_int_equal(strlen(util_real_str(-2.2250738585072014e-308, buf, sizeof(buf))), 24);
}

static void test_write_durable(void **state)
{
	char dir[] = "/tmp/vqtest-util.XXXXXX", path[64], buf[16] = { 0 };
	struct stat st;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/j", dir);
	assert_int_equal(util_write_durable(path, "one", 3), 0);
	assert_int_equal(util_write_durable(path, "two!", 4), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, sizeof(buf), f), 4);
	fclose(f);
	assert_string_equal(buf, "two!");
	/* no temporary file is left behind */
	snprintf(path, sizeof(path), "%s/j.tmp", dir);
	assert_int_equal(stat(path, &st), -1);
	snprintf(path, sizeof(path), "%s/nodir/j", dir);
	assert_int_equal(util_write_durable(path, "x", 1), -ENOENT);
	snprintf(path, sizeof(path), "%s/j", dir);
	unlink(path);
	rmdir(dir);
}

/*
 * Run getopt_long() as vqtuned and vqtunectl do (opterr 0, leading ':') over @word, after
 * @first when it is not NULL (a good option), to the first error.
 */
static const char *opt_words2(const char *first, const char *word, char *buf, size_t len)
{
	static const struct option lo[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char *argv[] = { "prog", (char *)(first ? first : word), (char *)word, NULL };
	int c, argc = first ? 3 : 2;

	optind = 0;	/* glibc: start over */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:vVh", lo, NULL)) != -1 && c != '?' && c != ':')
		;
	assert_true(c == '?' || c == ':');
	return util_opt_error(lo, c, argv[optind - 1], optopt, buf, len);
}

static const char *opt_words(const char *word, char *buf, size_t len)
{
	return opt_words2(NULL, word, buf, len);
}

static void test_opt_error(void **state)
{
	char buf[160], small[24];

	(void)state;
	assert_string_equal(opt_words("-x", buf, sizeof(buf)), "unknown option '-x'");
	assert_string_equal(opt_words("-s", buf, sizeof(buf)), "option '-s' needs an argument");
	assert_string_equal(opt_words("--bogus=3", buf, sizeof(buf)), "unknown option '--bogus'");
	assert_string_equal(opt_words("--socket", buf, sizeof(buf)),
			    "option '--socket' needs an argument");
	assert_string_equal(opt_words("--help=1", buf, sizeof(buf)),
			    "option '--help' takes no argument");
	/* an abbreviation of one option is that option */
	assert_string_equal(opt_words("--he=1", buf, sizeof(buf)),
			    "option '--help' takes no argument");
	assert_string_equal(opt_words("--ver", buf, sizeof(buf)),
			    "option '--ver' is ambiguous: --verbose, --version");
	assert_string_equal(opt_words("--so", buf, sizeof(buf)),
			    "option '--socket' needs an argument");
	/* a short option inside a group: optind is still on the word before */
	assert_string_equal(opt_words2("--verbose", "-xv", buf, sizeof(buf)),
			    "unknown option '-x'");
	assert_string_equal(opt_words2("--socket=/s", "-vx", buf, sizeof(buf)),
			    "unknown option '-x'");
	assert_string_equal(opt_words2("--verbose", "-vs", buf, sizeof(buf)),
			    "option '-s' needs an argument");
	/* cut to fit, NUL-terminated */
	assert_string_equal(opt_words("--ver", small, sizeof(small)), "option '--ver' is ambig");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_display),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_display_truncates_cleanly),
		cmocka_unit_test(test_json_str),
		cmocka_unit_test(test_control_len),
		cmocka_unit_test(test_real_str),
		cmocka_unit_test(test_write_durable),
		cmocka_unit_test(test_opt_error),
	};

	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
