// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers of the policy unit tests (policy_fixture.h): the shipped files' paths, temporary
 * policy files, validation with positions and the check of one error.
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

#include "policy.h"
#include "policy_schema.h"
#include "policy_fixture.h"

void pf_shipped_path(const char *name, char *path, size_t max)
{
	char dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", __FILE__);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, max, "%s/../../policies/%s.json", slash ? dir : ".", name);
}

char pf_tmp_path[PF_TMP_PATH_BYTES];

const char *pf_tmp_file(const char *text)
{
	int fd;

	snprintf(pf_tmp_path, sizeof(pf_tmp_path), "/tmp/vqpolicy.XXXXXX");
	fd = mkstemp(pf_tmp_path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return pf_tmp_path;
}

struct policy_errors pf_errs;

int pf_validate(const char *text, struct policy *p)
{
	json_error_t jerr;
	json_t *obj = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	int st;

	assert_non_null(obj);
	st = policy_validate(obj, text, strlen(text), p, &pf_errs);
	json_decref(obj);
	return st;
}

void pf_expect_error(unsigned int i, int status, const char *field, int line, int col,
		     const char *msg)
{
	assert_true(i < pf_errs.n);
	assert_int_equal(pf_errs.e[i].status, status);
	assert_string_equal(pf_errs.e[i].field, field);
	assert_int_equal(pf_errs.e[i].line, line);
	assert_int_equal(pf_errs.e[i].column, col);
	assert_string_equal(pf_errs.e[i].msg, msg);
}

void pf_load_shipped(const char *name, struct policy *p)
{
	char path[4300];
	FILE *f;
	char *text;
	long n;

	pf_shipped_path(name, path, sizeof(path));
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc(1, n + 1);
	assert_int_equal(fread(text, 1, n, f), (size_t)n);
	fclose(f);
	assert_int_equal(pf_validate(text, p), 0);
	assert_int_equal(pf_errs.n, 0);
	free(text);
}

void pf_read_closed(FILE *f, char *out, size_t max)
{
	size_t n;

	rewind(f);
	n = fread(out, 1, max - 1, f);
	out[n] = '\0';
	fclose(f);
}
