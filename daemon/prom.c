// SPDX-License-Identifier: GPL-2.0-only
/*
 * prom: Prometheus text exposition format 0.0.4 writer
 * (https://prometheus.io/docs/instrumenting/exposition_formats/).
 * Label values escape backslash, double quote and newline and nothing else; other bytes,
 * including >= 0x80, pass through (device names arrive already in display form).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom.h"
#include "util.h"

/* First allocation: a page holds a small device's metrics without regrowing. */
#define PROM_INIT_CAP_BYTES	4096
/* Longest number text: a double as util_real_str() writes it (UTIL_REAL_MAX_BYTES), a u64 20. */
#define PROM_NUM_MAX_BYTES	UTIL_REAL_MAX_BYTES

void prom_init(struct prom *p)
{
	memset(p, 0, sizeof(*p));
}

void prom_free(struct prom *p)
{
	free(p->buf);
	prom_init(p);
}

/* Make room for @n more bytes plus a NUL; 0 or -ENOMEM (sticky). */
static int prom_reserve(struct prom *p, size_t n)
{
	size_t cap;
	char *nb;

	if (p->err)
		return p->err;
	if (p->len + n + 1 <= p->cap)
		return 0;
	cap = p->cap ? p->cap : PROM_INIT_CAP_BYTES;
	while (cap < p->len + n + 1) {
		if (cap > SIZE_MAX / 2)
			goto err_nomem;
		cap *= 2;
	}
	nb = realloc(p->buf, cap);
	if (!nb)
		goto err_nomem;
	p->buf = nb;
	p->cap = cap;
	return 0;
err_nomem:
	p->err = -ENOMEM;
	return p->err;
}

static void prom_put(struct prom *p, const char *s, size_t n)
{
	if (prom_reserve(p, n))
		return;
	memcpy(p->buf + p->len, s, n);
	p->len += n;
	p->buf[p->len] = '\0';
}

static void prom_puts(struct prom *p, const char *s)
{
	prom_put(p, s, strlen(s));
}

size_t prom_escape_label(const char *in, char *out, size_t outlen)
{
	size_t need = 0, o = 0;
	int full = !outlen;

	for (; *in; in++) {
		char e[2] = { *in, 0 };
		size_t n = 1;

		if (*in == '\\' || *in == '"' || *in == '\n') {
			e[0] = '\\';
			e[1] = *in == '\n' ? 'n' : *in;
			n = 2;
		}
		need += n;
		/* never emit half an escape: stop at the first one that does not fit */
		if (!full && o + n < outlen) {
			memcpy(out + o, e, n);
			o += n;
		} else {
			full = 1;
		}
	}
	if (outlen)
		out[o] = '\0';
	return need;
}

/* HELP text escapes only backslash and newline (exposition format, "Comments, help text"). */
static void prom_put_help(struct prom *p, const char *help)
{
	for (; *help; help++) {
		if (*help == '\\')
			prom_puts(p, "\\\\");
		else if (*help == '\n')
			prom_puts(p, "\\n");
		else
			prom_put(p, help, 1);
	}
}

void prom_family(struct prom *p, const char *name, const char *type, const char *help)
{
	prom_puts(p, "# HELP ");
	prom_puts(p, name);
	prom_puts(p, " ");
	prom_put_help(p, help);
	prom_puts(p, "\n# TYPE ");
	prom_puts(p, name);
	prom_puts(p, " ");
	prom_puts(p, type);
	prom_puts(p, "\n");
}

static void prom_put_labels(struct prom *p, const char *const *labels)
{
	size_t need;
	int first = 1;

	if (!labels || !labels[0])
		return;
	prom_puts(p, "{");
	for (; labels[0] && labels[1]; labels += 2) {
		if (!first)
			prom_puts(p, ",");
		first = 0;
		prom_puts(p, labels[0]);
		prom_puts(p, "=\"");
		need = prom_escape_label(labels[1], NULL, 0);
		if (prom_reserve(p, need))
			return;
		prom_escape_label(labels[1], p->buf + p->len, need + 1);
		p->len += need;
		prom_puts(p, "\"");
	}
	prom_puts(p, "}");
}

static void prom_sample(struct prom *p, const char *name, const char *const *labels,
			const char *num)
{
	prom_puts(p, name);
	prom_put_labels(p, labels);
	prom_puts(p, " ");
	prom_puts(p, num);
	prom_puts(p, "\n");
}

void prom_u64(struct prom *p, const char *name, const char *const *labels, uint64_t v)
{
	char num[PROM_NUM_MAX_BYTES];

	snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	prom_sample(p, name, labels, num);
}

void prom_double(struct prom *p, const char *name, const char *const *labels, double v)
{
	char num[PROM_NUM_MAX_BYTES];

	/* the format spells these as Go's ParseFloat accepts them */
	if (isnan(v))
		snprintf(num, sizeof(num), "NaN");
	else if (isinf(v))
		snprintf(num, sizeof(num), "%s", v > 0 ? "+Inf" : "-Inf");
	else
		util_real_str(v, num, sizeof(num));
	prom_sample(p, name, labels, num);
}
