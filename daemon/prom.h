/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * prom: writer for the Prometheus text exposition format 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/). Grows a heap buffer;
 * an allocation failure sticks in @err and later calls do nothing.
 */
#ifndef VQ_PROM_H
#define VQ_PROM_H

#include <stddef.h>
#include <stdint.h>

struct prom {
	char *buf;
	size_t len, cap;
	int err;		/* -ENOMEM once an allocation failed */
};

void prom_init(struct prom *p);
void prom_free(struct prom *p);
/* "# HELP name help" and "# TYPE name type"; @type: counter, gauge, info, untyped. */
void prom_family(struct prom *p, const char *name, const char *type, const char *help);
/*
 * One sample line. @labels: NULL-terminated list of name, value, name, value...; values are
 * escaped (backslash, double quote, newline) here. Floats print in the fewest digits of
 * %.15g..%.17g that read back as the same double (util_real_str(): 0.1, not %.17g's
 * 0.10000000000000001); NaN/Inf as the format spells them.
 */
void prom_u64(struct prom *p, const char *name, const char *const *labels, uint64_t v);
void prom_double(struct prom *p, const char *name, const char *const *labels, double v);
/* Escape a label value into @out (always NUL-terminated). Returns the length needed. */
size_t prom_escape_label(const char *in, char *out, size_t outlen);

#endif
