/* SPDX-License-Identifier: GPL-2.0-only */
/* apierr: the API's error object {"error":{"code","message"[,"field"]}} (docs/api.md). */
#ifndef VQ_APIERR_H
#define VQ_APIERR_H

#include <jansson.h>

/* New reference; @field may be NULL. @code: a VQ_ERR_* from include/vqtune_api.h. */
json_t *apierr_new(const char *code, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The 400 invalid_json reply for the @len bytes of @text that json_loadb() could not parse
 * (@jerr): "line L column C: <why>" with jansson's line and column (1-based). A NUL character
 * ("\u0000": RFC 8259 7 allows it, the API's strings are C strings) is named in our words,
 * "NUL character (\u0000) in a string is not allowed", at the escape itself (jansson points
 * at the end of its string); other errors keep jansson's text.
 * Returns 400 and stores an apierr_new() object in *err.
 */
int apierr_json_parse(const char *text, size_t len, const json_error_t *jerr, json_t **err);

#endif
