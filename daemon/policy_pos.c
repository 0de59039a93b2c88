// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy_pos: line and column of a field in a JSON text. jansson reports positions only for
 * syntax errors, and a rejected policy should point at the value it rejects. This is not a
 * parser: it runs only over text jansson has already accepted, so it just walks objects and
 * arrays along a path and skips everything else (strings with their escapes, nested values).
 * Columns count characters like jansson's lexer: UTF-8 continuation bytes do not advance.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "policy.h"

/* longest key compared; a longer one cannot be in the schema and is compared cut */
#define POS_KEY_MAX	256

struct pos_scan {
	const char *s, *end;
	int line, column;
};

static void pos_next(struct pos_scan *sc)
{
	unsigned char c = (unsigned char)*sc->s++;

	if (c == '\n') {
		sc->line++;
		sc->column = 0;
	} else if ((c & 0xc0) != 0x80) {
		sc->column++;
	}
}

static void pos_ws(struct pos_scan *sc)
{
	while (sc->s < sc->end && strchr(" \t\r\n", *sc->s))
		pos_next(sc);
}

/* Appends the UTF-8 form of @cp to @key (of @max bytes) at *@n. */
static void pos_put_utf8(char *key, size_t max, size_t *n, unsigned long cp)
{
	char b[4];
	size_t k, len;

	if (cp < 0x80) {
		b[0] = (char)cp, len = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6), b[1] = (char)(0x80 | (cp & 0x3f)), len = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12), b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f)), len = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18), b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), b[3] = (char)(0x80 | (cp & 0x3f));
		len = 4;
	}
	for (k = 0; k < len && *n + 1 < max; k++)
		key[(*n)++] = b[k];
}

static unsigned long pos_hex4(struct pos_scan *sc)
{
	unsigned long v = 0;
	int k;

	for (k = 0; k < 4 && sc->s < sc->end; k++) {
		char c = *sc->s;

		v = v * 16 + (unsigned long)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
		pos_next(sc);
	}
	return v;
}

/* At a '"': consumes the string, decoding it into @key (NULL: skip only). */
static void pos_string(struct pos_scan *sc, char *key, size_t max)
{
	static const char esc_in[] = "\"\\/bfnrt", esc_out[] = "\"\\/\b\f\n\r\t";
	size_t n = 0;

	pos_next(sc);
	while (sc->s < sc->end && *sc->s != '"') {
		unsigned long cp;

		if (*sc->s != '\\') {
			if (key && n + 1 < max)
				key[n++] = *sc->s;
			pos_next(sc);
			continue;
		}
		pos_next(sc);
		if (sc->s >= sc->end)
			break;
		if (*sc->s != 'u') {
			const char *e = strchr(esc_in, *sc->s);

			if (key && e && n + 1 < max)
				key[n++] = esc_out[e - esc_in];
			pos_next(sc);
			continue;
		}
		pos_next(sc);
		cp = pos_hex4(sc);
		/* a high surrogate is followed by "\uDC00".."\uDFFF" in text jansson accepted */
		if (cp >= 0xd800 && cp < 0xdc00 && sc->end - sc->s >= 6 && sc->s[0] == '\\') {
			pos_next(sc);
			pos_next(sc);
			cp = 0x10000 + ((cp - 0xd800) << 10) + (pos_hex4(sc) - 0xdc00);
		}
		if (key)
			pos_put_utf8(key, max, &n, cp);
	}
	if (sc->s < sc->end)
		pos_next(sc);
	if (key)
		key[n] = '\0';
}

/* Consumes one value of any kind. */
static void pos_skip(struct pos_scan *sc)
{
	int depth = 0;

	pos_ws(sc);
	do {
		if (sc->s >= sc->end)
			return;
		switch (*sc->s) {
		case '"':
			pos_string(sc, NULL, 0);
			continue;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			depth--;
			break;
		default:
			if (!depth) {	/* a scalar: up to the next separator */
				while (sc->s < sc->end && !strchr(",]} \t\r\n", *sc->s))
					pos_next(sc);
				return;
			}
		}
		pos_next(sc);
	} while (depth > 0);
}

static int pos_find(struct pos_scan *sc, const char *const *seg, const int *idx, int n,
		    bool at_key)
{
	char key[POS_KEY_MAX];
	int i = 0;

	pos_ws(sc);
	if (!n)
		return 0;
	if (sc->s >= sc->end || *sc->s != (seg[0] ? '{' : '['))
		return -ENOENT;
	pos_next(sc);
	for (;;) {
		struct pos_scan at;

		pos_ws(sc);
		if (sc->s >= sc->end || *sc->s == '}' || *sc->s == ']')
			return -ENOENT;
		at = *sc;
		if (seg[0]) {
			pos_string(sc, key, sizeof(key));
			pos_ws(sc);
			if (sc->s < sc->end)
				pos_next(sc);	/* ':' */
			if (!strcmp(key, seg[0])) {
				if (n == 1 && at_key) {
					*sc = at;
					return 0;
				}
				return pos_find(sc, seg + 1, idx + 1, n - 1, at_key);
			}
		} else if (i++ == idx[0]) {
			return pos_find(sc, seg + 1, idx + 1, n - 1, at_key);
		}
		pos_skip(sc);
		pos_ws(sc);
		if (sc->s < sc->end && *sc->s == ',')
			pos_next(sc);
	}
}

int policy_text_pos(const char *text, size_t len, const char *const *seg, const int *idx,
		    int n, bool at_key, int *line, int *column)
{
	struct pos_scan sc = { .s = text, .end = text + len, .line = 1, .column = 0 };
	int ret;

	if (!text)
		return -ENOENT;
	ret = pos_find(&sc, seg, idx, n, at_key);
	if (ret)
		return ret;
	*line = sc.line;
	*column = sc.column + 1;	/* the character about to be read */
	return 0;
}
