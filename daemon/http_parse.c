// SPDX-License-Identifier: GPL-2.0-only
/*
 * http: request-parsing helpers of the API server, split from api.c so they stay pure
 * functions (see http_parse.h for each contract).
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "http_parse.h"

/* Value of one hex digit, or -1. */
static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch |= 0x20;
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

int http_pct_decode(char *s)
{
	char *o = s;

	for (; *s; s++) {
		int hi, lo;

		if (*s != '%') {
			*o++ = *s;
			continue;
		}
		hi = hexval(s[1]);
		lo = hi < 0 ? -1 : hexval(s[2]);
		if (lo < 0)
			return -EINVAL;
		if (hi == 0 && lo == 0)
			return -EILSEQ;
		*o++ = (char)(hi << 4 | lo);
		s += 2;
	}
	*o = '\0';
	return 0;
}

int http_path_split(char *path, char **seg, int max)
{
	char *p = path, *slash;
	int n = 0, err;

	if (p[0] != '/')
		return -ENOENT;
	p++;
	for (;;) {
		if (n == max)
			return -ENOENT;
		slash = strchr(p, '/');
		if (slash)
			*slash = '\0';
		seg[n++] = p;
		err = http_pct_decode(p);
		if (err)
			return err;
		if (!slash)
			return n;
		p = slash + 1;
	}
}

int http_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

bool http_json_depth_ok(const char *s, size_t n, unsigned int max)
{
	bool in_str = false, esc = false;
	unsigned int depth = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		char ch = s[i];

		if (in_str) {
			if (esc)
				esc = false;
			else if (ch == '\\')
				esc = true;
			else if (ch == '"')
				in_str = false;
		} else if (ch == '"') {
			in_str = true;
		} else if (ch == '[' || ch == '{') {
			if (++depth > max)
				return false;
		} else if ((ch == ']' || ch == '}') && depth) {
			depth--;
		}
	}
	return true;
}

bool http_ctype_is_json(const char *ct)
{
	size_t n = strlen(HTTP_MEDIA_JSON);

	if (!ct)
		return false;
	ct += strspn(ct, " \t");
	if (strncasecmp(ct, HTTP_MEDIA_JSON, n))
		return false;
	ct += n;
	ct += strspn(ct, " \t");
	return *ct == '\0' || *ct == ';';
}

bool http_token_equal(const char *a, size_t alen, const char *b, size_t blen)
{
	unsigned char diff = alen != blen;
	size_t i;

	/* every byte of @a is read whatever matched before; b wraps so it is never overrun */
	for (i = 0; i < alen; i++)
		diff |= (unsigned char)a[i] ^ (unsigned char)b[i % (blen ? blen : 1)];
	return blen && !diff;
}
