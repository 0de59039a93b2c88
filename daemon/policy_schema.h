/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * policy_schema: the tables behind the schema of policies/README.md, shared by validation
 * (policy.c) and by policy_to_json() (policy_schema.c), so a field is added in one line and
 * read and written back by the same entry. Private to policy*.c: the rest of the daemon goes
 * through policy.h.
 */
#ifndef VQ_POLICY_SCHEMA_H
#define VQ_POLICY_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "law.h"
#include "policy.h"

enum ptype { PT_U32, PT_U64, PT_I64, PT_DBL };

/* A number of a section: stored = file * mul / div (us -> ns: mul 1000; pct: div 100). */
struct pnum {
	const char *key;
	enum ptype type;
	bool real;		/* JSON reals accepted; otherwise integers only */
	double min, max;	/* range, in the file's unit */
	double mul, div;
	size_t off;		/* in struct policy */
};

/* Per-knob bounds: "KEY": {"min_UNIT", "max_UNIT", "step_max_UNIT"} (discrete: min, max). */
struct pknob {
	enum law_knob k;
	const char *key;	/* law_knob_name() with '_' */
	enum policy_ctl ctl;
	int64_t hard_min, hard_max;	/* what the knob accepts, in law_knob_unit() */
};

/* A controller section: its own numbers, and the pknobs whose ctl is @ctl. */
struct psect {
	const char *key;
	enum policy_ctl ctl;
	const struct pnum *nums;
};

/* Sections of plain numbers; each list ends with an entry whose key is NULL. */
extern const struct pnum policy_objective_nums[];
extern const struct pnum policy_guard_nums[];
/* One entry per knob, in enum law_knob order. */
extern const struct pknob policy_knobs[LK_NUM];
/* One entry per controller, in enum policy_ctl order. */
extern const struct psect policy_ctl_sects[POLICY_CTL_NUM];
/* The values of "mode", NULL-terminated. */
extern const char *const policy_modes[];

/* Field names of a knob's bounds object: min, max, step_max (empty for a discrete knob). */
#define POLICY_KNOB_FIELDS	3
/* Bytes of one field name incl. NUL: "step_max_" plus the longest law_knob_unit(). */
#define POLICY_KNOB_FIELD_LEN	32

/*
 * The field names of @k's bounds object, from law_knob_unit(@k): "min_UNIT", "max_UNIT",
 * "step_max_UNIT"; for an enum or bool knob "min", "max" and "" (no step bound).
 */
void policy_knob_fields(enum law_knob k, char names[POLICY_KNOB_FIELDS][POLICY_KNOB_FIELD_LEN]);

/*
 * Store @v (in the file's unit, already range-checked against @f) into @p's field @f,
 * scaled by @f->mul / @f->div and converted to @f->type (integers truncate).
 */
void policy_num_store(struct policy *p, const struct pnum *f, double v);

/*
 * Why @g is not a glob that fnmatch(3) (flags 0, as policy_selects() calls it) reads as
 * written, or NULL when it is one; *@at is then the 0-based byte offset of the fault.
 * fnmatch has no compile step and takes a malformed bracket literally, so "eth[0-3" would
 * only ever match that very text and select nothing. Refused: a '[' without its closing
 * ']' (POSIX.1-2017 2.13.1, 9.3.5), an unknown "[:class:]" (fnmatch fails on it), and a
 * '\' at the end that escapes nothing (fnmatch matches nothing with it).
 */
const char *policy_glob_error(const char *g, size_t *at);

#endif
