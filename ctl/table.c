// SPDX-License-Identifier: GPL-2.0-only
/*
 * Aligned text tables: rows are collected first so every column gets the width of its
 * widest cell, as `ip -s`/`ss` column output does. Pure, unit-tested.
 *
 * Widths are display columns, not bytes: a cell is UTF-8 (names come from the server as
 * UTF-8, other bytes already escaped as \xHH), and each code point is taken as one column.
 * Counting code points needs no locale, so output does not depend on LC_CTYPE; East Asian
 * wide characters (two columns) are the one case it gets wrong, and interface names of at
 * most 15 bytes rarely hold them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"

/* Spaces between columns. */
#define CTL_TABLE_GAP	2
/* UTF-8 continuation bytes are 10xxxxxx (RFC 3629 3): the top two bits of this mask. */
#define CTL_UTF8_CONT_MASK	0xC0
#define CTL_UTF8_CONT_BITS	0x80

struct ctl_table {
	unsigned int ncols;
	size_t nrows, cap;
	char **cells;		/* nrows * ncols, row 0 is the header */
	bool *right;		/* per column: right-aligned */
};

struct ctl_table *ctl_table_new(const char *const *headers, unsigned int ncols)
{
	struct ctl_table *t = calloc(1, sizeof(*t));
	const char **h;
	unsigned int i;

	if (!t)
		return NULL;
	t->ncols = ncols;
	t->right = calloc(ncols, sizeof(*t->right));
	h = calloc(ncols, sizeof(*h));
	if (!t->right || !h)
		goto err_free;
	for (i = 0; i < ncols; i++) {
		t->right[i] = headers[i][0] == '>';
		h[i] = headers[i] + t->right[i];
	}
	if (ctl_table_add(t, h))
		goto err_free;
	free(h);
	return t;

err_free:
	free(h);
	ctl_table_free(t);
	return NULL;
}

/* Display columns of the UTF-8 string @s: its bytes that start a code point. */
static size_t ctl_display_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & CTL_UTF8_CONT_MASK) != CTL_UTF8_CONT_BITS;
	return w;
}

int ctl_table_add(struct ctl_table *t, const char *const *cells)
{
	unsigned int i;

	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		char **n = realloc(t->cells, cap * t->ncols * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->cells = n;
		t->cap = cap;
	}
	for (i = 0; i < t->ncols; i++) {
		char *c = strdup(cells[i] ? cells[i] : "");

		if (!c) {
			while (i--)
				free(t->cells[t->nrows * t->ncols + i]);
			return -ENOMEM;
		}
		t->cells[t->nrows * t->ncols + i] = c;
	}
	t->nrows++;
	return 0;
}

void ctl_table_print(const struct ctl_table *t, FILE *f)
{
	size_t *w = calloc(t->ncols, sizeof(*w)), r;
	unsigned int i;

	if (!w)
		return;
	for (r = 0; r < t->nrows; r++)
		for (i = 0; i < t->ncols; i++) {
			size_t l = ctl_display_width(t->cells[r * t->ncols + i]);

			if (l > w[i])
				w[i] = l;
		}
	for (r = 0; r < t->nrows; r++) {
		unsigned int end = t->ncols;

		/* trailing empty cells print nothing, not padding */
		while (end > 1 && !t->cells[r * t->ncols + end - 1][0])
			end--;
		for (i = 0; i < end; i++) {
			const char *c = t->cells[r * t->ncols + i];
			bool last = i + 1 == end;
			int pad = (int)(w[i] - ctl_display_width(c));

			if (i)
				fprintf(f, "%*s", CTL_TABLE_GAP, "");
			if (t->right[i] && c[0])
				fprintf(f, "%*s%s", pad, "", c);
			else if (last)
				fputs(c, f);
			else
				fprintf(f, "%s%*s", c, pad, "");
		}
		fputc('\n', f);
	}
	free(w);
}

void ctl_table_free(struct ctl_table *t)
{
	size_t n;

	if (!t)
		return;
	for (n = 0; n < t->nrows * t->ncols; n++)
		free(t->cells[n]);
	free(t->cells);
	free(t->right);
	free(t);
}
