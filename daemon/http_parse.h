/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * http: pure helpers the API server uses to judge a request before routing it: no I/O, no
 * allocation, no libmicrohttpd, so each one is unit-tested on its own (test_http_parse.c).
 */
#ifndef VQ_HTTP_PARSE_H
#define VQ_HTTP_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The one media type request bodies may have (docs/api.md "Limits"). */
#define HTTP_MEDIA_JSON		"application/json"

/*
 * Percent-decode the NUL-terminated @s in place (RFC 3986 2.1): "%HH" (hex, either case)
 * becomes the byte 0xHH, so "%FF" gives 0xFF and "%2F" a '/' that stays inside the caller's
 * path segment. Returns 0, -EINVAL on a truncated or non-hex escape, or -EILSEQ on "%00":
 * well-formed, but the NUL byte would cut the string short and no name may hold one. On
 * error @s is left partly decoded.
 */
int http_pct_decode(char *s);

/*
 * Split the raw request path @path (NUL-terminated, percent-encoded, no query) in place at
 * each '/' into @seg[0..@max-1], then percent-decode each segment with http_pct_decode(),
 * so an encoded "%2F" stays inside its segment (RFC 3986 3.3). "/" gives one empty segment,
 * "/a/" gives "a" and "". Returns the number of segments (1..@max), -ENOENT when @path does
 * not start with '/' or has more than @max segments (no route can match), -EINVAL on a
 * bad escape or -EILSEQ on "%00" (as http_pct_decode()); segments are checked in order, so
 * the first problem met is the one returned.
 */
int http_path_split(char *path, char **seg, int max);

/*
 * Strict unsigned decimal: one or more ASCII digits, no sign, space or prefix. Returns 0
 * and sets *out (0..UINT64_MAX), or -EINVAL on NULL, "", any other byte or an overflow
 * (*out untouched).
 */
int http_parse_u64(const char *s, uint64_t *out);

/*
 * Does the JSON text @s (@n bytes, not NUL-terminated) nest at most @max arrays/objects
 * deep? Counted without parsing, so a deep body is refused by our limit and not by the
 * parser's (jansson stops at 2048). Brackets inside strings (escapes honoured) do not
 * count; a stray closing bracket at depth 0 is ignored (the parser rejects it later).
 */
bool http_json_depth_ok(const char *s, size_t n, unsigned int max);

/*
 * Is the Content-Type value @ct application/json? Case-insensitive media type with
 * optional surrounding spaces/tabs and any parameters after ';' (RFC 9110 8.3.1).
 * NULL (no header) is false.
 */
bool http_ctype_is_json(const char *ct);

/*
 * Compare the presented token @a (@alen bytes) with the expected @b (@blen bytes) in time
 * that depends only on @alen, never on where the bytes differ (no early exit). An empty
 * expected token (@blen 0) matches nothing; @b must still hold one readable byte (a NUL).
 */
bool http_token_equal(const char *a, size_t alen, const char *b, size_t blen);

#endif
