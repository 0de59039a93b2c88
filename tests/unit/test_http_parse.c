// SPDX-License-Identifier: GPL-2.0-only
/* http_parse: percent-decoding, path split, strict integers, JSON depth, media type, token. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "http_parse.h"

/* Room for the longest test path and its segments. */
#define TEST_PATH_BYTES	64
#define TEST_SEGS	4

static void test_pct_decode_bytes(void **state)
{
	char s[TEST_PATH_BYTES];

	strcpy(s, "eth%30");
	assert_int_equal(http_pct_decode(s), 0);
	assert_string_equal(s, "eth0");
	/* %FF is the byte 0xFF, not rejected as invalid UTF-8 here */
	strcpy(s, "a%FFb%ff");
	assert_int_equal(http_pct_decode(s), 0);
	assert_int_equal(strlen(s), 4);
	assert_int_equal((unsigned char)s[1], 0xFF);
	assert_int_equal((unsigned char)s[3], 0xFF);
	/* %2F decodes to '/' (the split happens before, see test_path_split_keeps_2f) */
	strcpy(s, "x%2Fy%2f");
	assert_int_equal(http_pct_decode(s), 0);
	assert_string_equal(s, "x/y/");
	/* '+' is not a space in a path (RFC 3986 has no such rule) */
	strcpy(s, "a+b%25");
	assert_int_equal(http_pct_decode(s), 0);
	assert_string_equal(s, "a+b%");
}

static void test_pct_decode_rejects(void **state)
{
	static const char *const bad[] = { "%", "a%", "%0", "%G0", "%0G", "%%41", "ok%zz",
					   "%0%00" };
	/* well-formed escapes of a NUL: told apart so the reply can say what is wrong */
	static const char *const nul[] = { "%00", "a%00b", "x%41%00", "%00%zz" };
	char s[TEST_PATH_BYTES];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strcpy(s, bad[i]);
		assert_int_equal(http_pct_decode(s), -EINVAL);
	}
	for (i = 0; i < sizeof(nul) / sizeof(nul[0]); i++) {
		strcpy(s, nul[i]);
		assert_int_equal(http_pct_decode(s), -EILSEQ);
	}
	/* %01 is the lowest allowed byte: only %00 would cut the string */
	strcpy(s, "%01");
	assert_int_equal(http_pct_decode(s), 0);
	assert_int_equal(s[0], 1);
	assert_int_equal(s[1], '\0');
}

static void test_path_split_keeps_2f(void **state)
{
	char p[TEST_PATH_BYTES] = "/v1/devices/a%2Fb/queues";
	char *seg[TEST_SEGS];

	assert_int_equal(http_path_split(p, seg, TEST_SEGS), 4);
	assert_string_equal(seg[0], "v1");
	assert_string_equal(seg[1], "devices");
	assert_string_equal(seg[2], "a/b");
	assert_string_equal(seg[3], "queues");
}

static void test_path_split_edges(void **state)
{
	char p[TEST_PATH_BYTES];
	char *seg[TEST_SEGS];

	strcpy(p, "/");
	assert_int_equal(http_path_split(p, seg, TEST_SEGS), 1);
	assert_string_equal(seg[0], "");
	strcpy(p, "/a/");
	assert_int_equal(http_path_split(p, seg, TEST_SEGS), 2);
	assert_string_equal(seg[0], "a");
	assert_string_equal(seg[1], "");
	strcpy(p, "a/b");
	assert_int_equal(http_path_split(p, seg, TEST_SEGS), -ENOENT);
	/* exactly TEST_SEGS segments fit, one more cannot match any route */
	strcpy(p, "/a/b/c/d");
	assert_int_equal(http_path_split(p, seg, TEST_SEGS), TEST_SEGS);
	strcpy(p, "/a/b/c/d/e");
	assert_int_equal(http_path_split(p, seg, TEST_SEGS), -ENOENT);
	strcpy(p, "/a/%zz");
	assert_int_equal(http_path_split(p, seg, TEST_SEGS), -EINVAL);
	/* the bad escape is met before the segment limit */
	strcpy(p, "/%zz/b/c/d/e");
	assert_int_equal(http_path_split(p, seg, TEST_SEGS), -EINVAL);
	/* a NUL escape keeps its own error through the split; the first problem met wins */
	strcpy(p, "/%00/b/c/d/e");
	assert_int_equal(http_path_split(p, seg, TEST_SEGS), -EILSEQ);
	strcpy(p, "/a%00/%zz");
	assert_int_equal(http_path_split(p, seg, TEST_SEGS), -EILSEQ);
	strcpy(p, "/%zz/a%00");
	assert_int_equal(http_path_split(p, seg, TEST_SEGS), -EINVAL);
}

static void test_parse_u64(void **state)
{
	static const char *const bad[] = { "", "-1", "+1", " 1", "1 ", "0x10", "1.0", "1e3",
					   "18446744073709551616", "99999999999999999999" };
	uint64_t v = 7;
	size_t i;

	assert_int_equal(http_parse_u64("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(http_parse_u64("0010", &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(http_parse_u64("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 7;
		assert_int_equal(http_parse_u64(bad[i], &v), -EINVAL);
		assert_int_equal(v, 7);
	}
	assert_int_equal(http_parse_u64(NULL, &v), -EINVAL);
}

static int depth_ok(const char *s, unsigned int max)
{
	return http_json_depth_ok(s, strlen(s), max);
}

static void test_json_depth(void **state)
{
	assert_true(depth_ok("{}", 1));
	assert_false(depth_ok("{}", 0));
	assert_true(depth_ok("{\"a\":[1,{\"b\":2}]}", 3));
	assert_false(depth_ok("{\"a\":[1,{\"b\":2}]}", 2));
	/* siblings do not add up: depth is 2, not 3 */
	assert_true(depth_ok("[[],[],[]]", 2));
	/* brackets inside strings do not count, escaped quotes do not end the string */
	assert_true(depth_ok("{\"k\":\"[[[[{{{{\"}", 1));
	assert_true(depth_ok("{\"k\":\"\\\"[[[[\"}", 1));
	assert_false(depth_ok("{\"k\":\"\\\\\",\"j\":[[1]]}", 2));
	assert_true(depth_ok("{\"k\":\"\\\\\",\"j\":[[1]]}", 3));
	/* stray closers at depth 0 do not let a later deep nest through */
	assert_false(depth_ok("]]]]{{{", 2));
	/* only the first @n bytes are looked at */
	assert_true(http_json_depth_ok("[[[", 1, 1));
	assert_false(http_json_depth_ok("[[[", 2, 1));
}

static void test_ctype_is_json(void **state)
{
	assert_true(http_ctype_is_json("application/json"));
	assert_true(http_ctype_is_json("Application/JSON"));
	assert_true(http_ctype_is_json(" \tapplication/json \t"));
	assert_true(http_ctype_is_json("application/json; charset=utf-8"));
	assert_true(http_ctype_is_json("application/json;charset=utf-8"));
	assert_false(http_ctype_is_json(NULL));
	assert_false(http_ctype_is_json(""));
	assert_false(http_ctype_is_json("application/jsonx"));
	assert_false(http_ctype_is_json("application/json-patch+json"));
	assert_false(http_ctype_is_json("text/json"));
	assert_false(http_ctype_is_json("application/js"));
}

static void test_token_equal(void **state)
{
	const char *tok = "s3cret";

	assert_true(http_token_equal("s3cret", 6, tok, 6));
	assert_false(http_token_equal("s3creT", 6, tok, 6));
	assert_false(http_token_equal("X3cret", 6, tok, 6));
	/* a prefix or an extension of the token is not the token */
	assert_false(http_token_equal("s3cre", 5, tok, 6));
	assert_false(http_token_equal("s3crets3cret", 12, tok, 6));
	assert_false(http_token_equal("", 0, tok, 6));
	/* an empty expected token never matches, not even an empty one */
	assert_false(http_token_equal("", 0, "", 0));
	assert_false(http_token_equal("a", 1, "", 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pct_decode_bytes),
		cmocka_unit_test(test_pct_decode_rejects),
		cmocka_unit_test(test_path_split_keeps_2f),
		cmocka_unit_test(test_path_split_edges),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_json_depth),
		cmocka_unit_test(test_ctype_is_json),
		cmocka_unit_test(test_token_equal),
	};

	return cmocka_run_group_tests_name("http_parse", tests, NULL, NULL);
}
