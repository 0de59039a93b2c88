/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rv: validation of fields in a parsed JSON request body. Each check names the field in
 * its error (docs/api.md). On failure returns the HTTP status (400 wrong type/unknown field,
 * 422 out of range) and stores an apierr_new() object in *err.
 */
#ifndef VQ_REQVAL_H
#define VQ_REQVAL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* 400 invalid_field when @body (an object) has a key not in @allowed (NULL-terminated). */
int rv_only_fields(json_t *body, const char *const *allowed, json_t **err);
/*
 * @name must be a JSON integer in [@min, @max]. Returns 0 and sets *out; 1 when absent and
 * not @required; 400 when absent and required or not an integer (strings, reals, booleans,
 * null); 422 when negative or outside the range (the message gives the bound).
 */
int rv_uint(json_t *body, const char *name, int required, uint64_t min, uint64_t max,
	    uint64_t *out, json_t **err);
/* @name must be true/false. Returns 0 (sets *out), 1 when absent, 400 otherwise. */
int rv_bool(json_t *body, const char *name, int *out, json_t **err);
/* @name must be a string. Returns 0 (sets *out, borrowed), 1 when absent, 400 otherwise. */
int rv_string(json_t *body, const char *name, const char **out, json_t **err);
/*
 * Query parameter @name with text @text (percent-decoded, never NULL) as an integer in
 * [@min, @max], answered as rv_uint() answers the same value in a body: 0 and *out set; 400
 * invalid_field when @text is not a decimal integer (empty, "+1", "1x", "0x10"); 422
 * out_of_range when it is negative or outside the range, with rv_uint()'s message.
 */
int rv_query_uint(const char *name, const char *text, uint64_t min, uint64_t max, uint64_t *out,
		  json_t **err);

#endif
