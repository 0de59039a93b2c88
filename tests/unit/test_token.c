// SPDX-License-Identifier: GPL-2.0-only
/*
 * token: the one rule vqtuned --token-file and vqtunectl -T read a bearer token file by:
 * the first line, trailing white space removed, 1..4096 bytes, no NUL; a file of white
 * space only holds no token.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "token.h"

static char dir[] = "/tmp/vqtoken.XXXXXX";
static char path[sizeof(dir) + 16];

/* @path holds the @n bytes at @text. */
static void put(const char *text, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, n, f), n);
	fclose(f);
}

/* token_read() of a file holding the string @text: its error, the token in @tok. */
static int read_str(const char *text, char *tok, size_t size)
{
	char *t = NULL;
	size_t len = 0;
	int err;

	put(text, strlen(text));
	err = token_read(path, &t, &len);
	if (!err) {
		assert_int_equal(strlen(t), len);
		snprintf(tok, size, "%s", t);
		free(t);
	}
	return err;
}

static int setup(void **state)
{
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/token", dir);
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	rmdir(dir);
	return 0;
}

/* the first line, trailing white space (CRLF's CR too) removed; the rest is not read */
static void test_token_first_line(void **state)
{
	static const struct {
		const char *text, *token;
	} cases[] = {
		{ "secret\n", "secret" },
		{ "secret \t\r\n", "secret" },
		{ "secret", "secret" },
		{ "one\ntwo\n", "one" },
	};
	char tok[64];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(read_str(cases[i].text, tok, sizeof(tok)), 0);
		assert_string_equal(tok, cases[i].token);
	}
}

/* no token at all: empty, white space only, or a first line of white space */
static void test_token_none(void **state)
{
	char tok[64], why[TOKEN_WHY_BYTES];

	assert_int_equal(read_str("", tok, sizeof(tok)), -ENODATA);
	assert_int_equal(read_str(" \t\r\n\n  \n", tok, sizeof(tok)), -ENODATA);
	assert_int_equal(read_str("\nsecret\n", tok, sizeof(tok)), -ENODATA);
	assert_string_equal(token_strerror(-ENODATA, why, sizeof(why)),
			    "holds no token (its first line, the token, is empty or "
			    "white space only)");
}

/* 4096 bytes is the longest token, with its line end or trailing blanks; a NUL is refused */
static void test_token_limits(void **state)
{
	char buf[TOKEN_MAX_BYTES + 8], why[TOKEN_WHY_BYTES], *t = NULL;
	size_t len = 0;

	memset(buf, 'a', sizeof(buf));
	memcpy(buf + TOKEN_MAX_BYTES, "\r\nxx", 4);
	put(buf, sizeof(buf));
	assert_int_equal(token_read(path, &t, &len), 0);
	assert_int_equal(len, TOKEN_MAX_BYTES);
	free(t);
	put(buf, TOKEN_MAX_BYTES);
	assert_int_equal(token_read(path, &t, &len), 0);
	assert_int_equal(len, TOKEN_MAX_BYTES);
	free(t);
	buf[TOKEN_MAX_BYTES] = 'a';
	put(buf, TOKEN_MAX_BYTES + 1);
	assert_int_equal(token_read(path, &t, &len), -EFBIG);
	memset(buf, 'a', sizeof(buf));
	put(buf, sizeof(buf));
	assert_int_equal(token_read(path, &t, &len), -EFBIG);
	assert_string_equal(token_strerror(-EFBIG, why, sizeof(why)),
			    "holds a token longer than 4096 bytes");
	put("ab\0c\n", 5);
	assert_int_equal(token_read(path, &t, &len), -EINVAL);
	put("abc\n\0", 5);
	assert_int_equal(token_read(path, &t, &len), 0);
	assert_string_equal(t, "abc");
	free(t);
}

/* a directory, a missing file and a file that is no regular file are named as such */
static void test_token_files(void **state)
{
	char why[TOKEN_WHY_BYTES], *t = NULL;
	size_t len = 0;

	assert_int_equal(token_read(dir, &t, &len), -EISDIR);
	assert_string_equal(token_strerror(-EISDIR, why, sizeof(why)),
			    "is a directory, not a file holding the token");
	unlink(path);
	assert_int_equal(token_read(path, &t, &len), -ENOENT);
	assert_string_equal(token_strerror(-ENOENT, why, sizeof(why)),
			    "cannot be read: No such file or directory");

	/* a FIFO with no writer: refused at once (a blocking open would hang for ever), and
	 * so is a character device that reads as an empty file */
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(token_read(path, &t, &len), -ESPIPE);
	assert_null(t);
	assert_string_equal(token_strerror(-ESPIPE, why, sizeof(why)),
			    "is a FIFO, socket or device, not a regular file holding the "
			    "token");
	unlink(path);
	assert_int_equal(token_read("/dev/null", &t, &len), -ESPIPE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_token_first_line),
		cmocka_unit_test(test_token_none),
		cmocka_unit_test(test_token_limits),
		cmocka_unit_test(test_token_files),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
