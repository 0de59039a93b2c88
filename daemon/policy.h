/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * policy: what vqtuned is asked to do: which devices it manages (select), in which mode
 * (observe | advise | active), towards which objective, and within which bounds each
 * controller (law.h) and the guard may move. The schema is documented field by field, with
 * units and ranges, in policies/README.md; each number maps 1:1 onto struct law_policy (a
 * file's _us is law.h's _ns / 1000, a _pct is law.h's fraction * 100).
 *
 * Validation and installation are separate: policy_validate() checks a policy whole and
 * policy_set() installs it with one struct copy, so a policy is rejected whole: nothing of a
 * bad policy is ever installed. The decide stage (decide.c) reads the installed policy at
 * every tick.
 */
#ifndef VQ_POLICY_H
#define VQ_POLICY_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "law.h"

#define POLICY_NAME_MAX		64
/* entries per select list; a policy naming more devices than this wants a glob */
#define POLICY_SELECT_MAX	16
/* select.netns entry that names the daemon's own namespace besides "" (vqtunectl's "-") */
#define POLICY_OWN_NETNS_ALIAS	"-"
/* bytes of one select entry incl. NUL: globs and netns names, longer than IFNAMSIZ */
#define POLICY_SELECT_LEN	64
/* errors kept per validation; more are counted, not stored */
#define POLICY_ERRORS_MAX	32
#define POLICY_FIELD_MAX	160
#define POLICY_MSG_MAX		256

enum policy_ctl { POLICY_CTL_QLIMIT, POLICY_CTL_POLLING, POLICY_CTL_ZEROCOPY, POLICY_CTL_NUM };

struct policy_select {
	unsigned int n;			/* 0: every managed device */
	char v[POLICY_SELECT_MAX][POLICY_SELECT_LEN];
};

struct policy {
	char name[POLICY_NAME_MAX];
	char mode[16];			/* "observe" | "advise" | "active" */
	struct policy_select drivers;	/* ethtool drvinfo driver, exact */
	struct policy_select names;	/* fnmatch(3) globs on the device name */
	struct policy_select netns;	/* netns names; "" (or "-") is the daemon's own */
	bool enabled[POLICY_CTL_NUM];	/* the decide stage calls this law at all */
	double throughput_floor_pct;	/* % of a queue's TX rate a step may not give up
					 * (decide.c floor_check(); 0: no floor) */
	struct law_policy law;		/* targets, per-knob bounds, guard */
};

/* One rejection: the field path ("controllers.qlimit.bql_limit_max.max_bytes") and why. */
struct policy_error {
	int line, column;		/* 1-based position in the text; 0 when there is none */
	int status;			/* HTTP status: 400 type/unknown field, 422 range/unsupported */
	const char *code;		/* VQ_ERR_* */
	char field[POLICY_FIELD_MAX];
	char msg[POLICY_MSG_MAX];
};

struct policy_errors {
	unsigned int n;			/* how many were found (may exceed POLICY_ERRORS_MAX) */
	struct policy_error e[POLICY_ERRORS_MAX];
};

/* The built-in policy: "observe", mode observe, every device, law_policy_defaults(). */
void policy_defaults(struct policy *p);

/*
 * Validate @obj into @out: fields absent from @obj keep policy_defaults(). Unknown fields,
 * wrong JSON types (a real where an integer is expected), values outside their range and
 * inverted bounds all reject. @text/@len: the JSON text @obj was parsed from, so errors get
 * line and column (NULL: API bodies, no positions). Every mode is accepted here. Returns 0,
 * or the HTTP status of the first error (400/422) with @errs filled; *@out is then undefined.
 */
int policy_validate(json_t *obj, const char *text, size_t len, struct policy *out,
		    struct policy_errors *errs);
/*
 * policy_validate() of a policy that replaces @prev (NULL: none, as policy_validate()). An
 * inverted bound pair that @obj gives whole names the bound @obj changed from @prev
 * ("min_us: 999 is above max_us 500" after `vqtunectl policy set ...min_us 999`), the max
 * when it changed both or neither.
 */
int policy_validate_put(json_t *obj, const char *text, size_t len, const struct policy *prev,
			struct policy *out, struct policy_errors *errs);

/*
 * validate an API body (a PUT replacing policy_get(): policy_validate_put()). @text/@len:
 * the body @obj was parsed from (NULL: none), so the error reported is the first in text
 * order, as vqtuned -C and SIGHUP report a file's, with "line" and "column" members
 * (1-based, characters as jansson counts them). 0, or the HTTP status of that error with
 * *err an apierr object.
 */
int policy_parse(json_t *obj, const char *text, size_t len, struct policy *out, json_t **err);

/*
 * Validate the file at @path without installing it (every mode accepted). Errors go to @f,
 * as "PATH:LINE:COLUMN: FIELD: MESSAGE", one a line, in text order; a valid file gets one
 * line on stdout. 0 valid, -EINVAL invalid, -errno when it cannot be read (reported too).
 * @path "-" reads standard input to its end instead (a pipe or a terminal too: this one-shot
 * check may wait for its writer, unlike a load), named POLICY_STDIN_NAME in what it prints.
 */
int policy_check_file(const char *path, FILE *f);
#define POLICY_STDIN_NAME	"<stdin>"

/* Bytes that hold policy_load_file()'s first error whole: path, position, field, message. */
#define POLICY_WHY_MAX		(PATH_MAX + POLICY_FIELD_MAX + POLICY_MSG_MAX + 64)

/*
 * Load, validate and install @path. Errors are logged as policy_check_file() prints them
 * ("policy PATH:LINE:COLUMN: FIELD: MESSAGE"), in display form as an event's reason is
 * (util_json_str()), and the first is copied to @why as is (@whylen 0: not kept); the first
 * log line is printed from @why, so the log and the SIGHUP event that carries @why give the
 * same text, also when it quotes a backslash and even when @whylen cut it (POLICY_WHY_MAX
 * does not). 0 or -EINVAL/-errno; nothing is installed on an error.
 */
int policy_load_file(const char *path, char *why, size_t whylen);

/* Install @p atomically (one struct copy; one thread). */
void policy_set(const struct policy *p);
const struct policy *policy_get(void);
/* @p (NULL: the current policy) in the schema policy_validate() takes: it round-trips. */
json_t *policy_to_json(const struct policy *p);
json_t *policy_json(void);

/*
 * Whether @g is a device-name glob vqtuned can use, as a select.names entry or a vqtuned
 * --manage GLOB: not empty (it would match no device), and one fnmatch(3) reads as written
 * (policy_schema.h, policy_glob_error()). 0, or -EINVAL with the reason in @why (@len bytes,
 * POLICY_MSG_MAX holds it for a select entry): "'eth[0-3' is not a valid fnmatch(3) glob:
 * '[' without its closing ']' (byte 4)".
 */
int policy_glob_check(const char *g, char *why, size_t len);

/* Whether the policy manages this device: every non-empty select list must match. */
bool policy_selects(const struct policy *p, const char *driver, const char *name,
		    const char *netns);

/*
 * What an install changed, for its event: "changed KEY OLD -> NEW, ..." with KEY a dotted
 * path of the schema as `vqtunectl policy set` takes it and the values compact JSON, in
 * policy_to_json()'s order; the name is left out (the event names the policy). At most
 * POLICY_DIFF_SHOWN are listed, then " and N more"; "nothing but the name changed", or
 * "nothing changed". malloc'd; NULL when memory ran out.
 */
#define POLICY_DIFF_SHOWN	8
char *policy_diff(const struct policy *old, const struct policy *new_);

/* Path given with --policy, for SIGHUP reloads (NULL: none). */
void policy_set_path(const char *path);
const char *policy_path(void);

/*
 * What vqtuned (PUT /v1/policy, -C, SIGHUP) and vqtunectl policy load both say of a policy
 * text that is valid JSON but not an object; %s is apierr_json_type()'s "an array", ...
 */
#define POLICY_NOT_OBJECT_FMT	"a policy is a JSON object, not %s"

/*
 * policy_pos.c: where a field of a JSON text is. @seg: object keys, or NULL for an array
 * element with the index in @idx; @n segments. @at_key: the position of the last key
 * rather than of its value. Scans strings with escapes and nesting; jansson still parses.
 * 0 with *line and *column set (1-based, columns in characters as jansson counts), -ENOENT.
 */
int policy_text_pos(const char *text, size_t len, const char *const *seg, const int *idx,
		    int n, bool at_key, int *line, int *column);

#endif
