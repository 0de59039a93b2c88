/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the policy unit tests (test_policy: the schema; test_policy_load: API
 * bodies, atomic install from files, `vqtuned -C` and the position scanner). They assert
 * through cmocka, so they run inside a test only.
 */
#ifndef VQ_TEST_POLICY_FIXTURE_H
#define VQ_TEST_POLICY_FIXTURE_H

#include <stddef.h>
#include <stdio.h>

#include "policy.h"

/* "/tmp/vqpolicy.XXXXXX" and its NUL, with room */
#define PF_TMP_PATH_BYTES	64

/* the errors of the last pf_validate() */
extern struct policy_errors pf_errs;
/* the path of the last pf_tmp_file() */
extern char pf_tmp_path[PF_TMP_PATH_BYTES];

/* policies/NAME.json of the source tree, found from this file's own path (tests/unit/) */
void pf_shipped_path(const char *name, char *path, size_t max);
/* Writes @text to a new temporary file; returns its path (pf_tmp_path). */
const char *pf_tmp_file(const char *text);
/* Validates @text (with positions) into @p and pf_errs; returns the status (0, 400, 422). */
int pf_validate(const char *text, struct policy *p);
/* Asserts error @i of pf_errs: its status, field path, line, column and message. */
void pf_expect_error(unsigned int i, int status, const char *field, int line, int col,
		     const char *msg);
/* Reads stream @f from its start into @out (NUL-terminated, at most @max - 1 bytes), closes it. */
void pf_read_closed(FILE *f, char *out, size_t max);
/* Validates shipped policies/NAME.json into @p; asserts it is valid. */
void pf_load_shipped(const char *name, struct policy *p);

#endif
