// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy: the schema of policies/README.md, validated into struct policy (law.h's
 * struct law_policy plus selection, mode and per-law switches). The installed policy and
 * files: policy_state.c.
 *
 * The schema is tables (policy_schema.c, which also shows a policy back as JSON): plain
 * numbers per section (pnums) and per-knob bounds (pknobs, one per enum law_knob), so a
 * field is added in one line and the README table beside it.
 * Every error is collected (a policy is rejected whole, and an operator fixes all at once)
 * with its field path and, when the text is known, the line and column of the offending
 * key or value (policy_pos.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "apierr.h"
#include "log.h"
#include "policy.h"
#include "policy_schema.h"
#include "util.h"
#include "vqtune_api.h"

/*
 * deepest field path: policy.controllers.qlimit.bql_limit_max.max_bytes in a wrapper
 * (5), or policy.select.names[i] (4)
 */
#define POLICY_PATH_DEPTH	6
/* the bound of a field list printed in an "unknown field" message */
#define POLICY_FIELDS_MAX	16

struct pctx {
	const char *text;
	size_t len;
	struct policy *p;
	const struct policy *prev;	/* the policy a PUT replaces, or NULL (a file) */
	struct policy_errors *errs;
	const char *seg[POLICY_PATH_DEPTH];
	int idx[POLICY_PATH_DEPTH];
	int n;
};

static void push(struct pctx *c, const char *key, int idx)
{
	c->seg[c->n] = key;
	c->idx[c->n++] = idx;
}

static void pop(struct pctx *c)
{
	c->n--;
}

static void path_str(const struct pctx *c, char *buf, size_t max)
{
	size_t n = 0, ctl;
	const char *r;
	int i;

	buf[0] = '\0';
	for (i = 0; i < c->n && n < max; i++) {
		if (c->seg[i])
			n += snprintf(buf + n, max - n, "%s%s", i ? "." : "", c->seg[i]);
		else
			n += snprintf(buf + n, max - n, "[%d]", c->idx[i]);
	}
	/* an unknown key is the sender's text: no control characters into logs and terminals */
	for (r = buf; *r; r += ctl ? ctl : 1) {
		ctl = util_control_len(r);
		*buf++ = ctl ? '?' : *r;
	}
	*buf = '\0';
}

/* Records an error at the current path; @at_key: point at the key (unknown fields). */
static void __attribute__((format(printf, 5, 6)))
pfail(struct pctx *c, bool at_key, int status, const char *code, const char *fmt, ...)
{
	struct policy_error *e;
	va_list ap;
	int n;

	if (c->errs->n++ >= POLICY_ERRORS_MAX)
		return;
	e = &c->errs->e[c->errs->n - 1];
	memset(e, 0, sizeof(*e));
	e->status = status;
	e->code = code;
	path_str(c, e->field, sizeof(e->field));
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	/* a field filled from defaults has no position: point at the nearest enclosing one */
	for (n = c->n; n >= 0; n--)
		if (!policy_text_pos(c->text, c->len, c->seg, c->idx, n, at_key && n == c->n,
				     &e->line, &e->column))
			break;
}

/* "an object", "an array", ...: as apierr names them for vqtunectl too */
static const char *jtype(const json_t *v)
{
	return apierr_json_type(v);
}

/* Every key of @obj must be in @allowed (NULL-terminated). */
static void only_fields(struct pctx *c, json_t *obj, const char *const *allowed)
{
	char list[POLICY_MSG_MAX];
	const char *key;
	json_t *v;
	size_t i, n = 0;

	list[0] = '\0';
	for (i = 0; allowed[i] && n < sizeof(list); i++)
		n += snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "", allowed[i]);
	json_object_foreach(obj, key, v) {
		for (i = 0; allowed[i] && strcmp(allowed[i], key); i++)
			;
		if (allowed[i])
			continue;
		push(c, key, -1);
		if (c->n == 1 && !strcmp(key, "policy"))
			/* not policy_is_wrapper(): say what a wrapper is */
			pfail(c, true, 400, VQ_ERR_INVALID_FIELD, "unknown field (known: %s); "
			      "a {\"policy\":{...}} wrapper holds an object, alone", list);
		else
			pfail(c, true, 400, VQ_ERR_INVALID_FIELD, "unknown field (known: %s)",
			      list);
		pop(c);
	}
}

/* @key of @obj as an object; NULL when absent or (recorded) not an object. */
static json_t *get_object(struct pctx *c, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (v && !json_is_object(v)) {
		push(c, key, -1);
		pfail(c, false, 400, VQ_ERR_INVALID_FIELD, "must be an object, not %s", jtype(v));
		pop(c);
		return NULL;
	}
	return v;
}

/*
 * A number in [min, max]. 1 read into *out, 0 absent, -1 rejected (recorded). A JSON integer
 * is compared and named exactly (a long double holds every int64): 2^53 + 1 is neither taken
 * for 2^53 nor printed as 9.00719925474099e+15.
 */
static int get_num(struct pctx *c, json_t *obj, const char *key, bool real, double min,
		   double max, double *out)
{
	json_t *v = json_object_get(obj, key);
	char shown[UTIL_REAL_MAX_BYTES], bound[UTIL_REAL_MAX_BYTES];
	long double x = 0;
	int ret = -1;

	if (!v)
		return 0;
	push(c, key, -1);
	if (json_is_integer(v)) {
		x = json_integer_value(v);
		snprintf(shown, sizeof(shown), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	} else if (json_is_real(v)) {
		x = json_real_value(v);
		/* with the digits that tell it from a bound it is compared with */
		util_real_str(json_real_value(v), shown, sizeof(shown));
	}
	if (json_is_real(v) && !real)
		/* 100.0 is shown so, not as the integer 100 it is refused for being */
		pfail(c, false, 400, VQ_ERR_INVALID_FIELD, "must be an integer, not a real (%s%s)",
		      shown, strpbrk(shown, ".eEni") ? "" : ".0");
	else if (!json_is_number(v))
		pfail(c, false, 400, VQ_ERR_INVALID_FIELD, "must be %s, not %s",
		      real ? "a number" : "an integer", jtype(v));
	else if (x < min)
		pfail(c, false, 422, VQ_ERR_OUT_OF_RANGE, "%s is below the minimum %s", shown,
		      util_real_str(min, bound, sizeof(bound)));
	else if (x > max)
		pfail(c, false, 422, VQ_ERR_OUT_OF_RANGE, "%s is above the maximum %s", shown,
		      util_real_str(max, bound, sizeof(bound)));
	else
		ret = 1, *out = json_number_value(v);
	pop(c);
	return ret;
}

static void get_bool(struct pctx *c, json_t *obj, const char *key, bool *out)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		return;
	if (json_is_boolean(v)) {
		*out = json_is_true(v);
		return;
	}
	push(c, key, -1);
	pfail(c, false, 400, VQ_ERR_INVALID_FIELD, "must be true or false, not %s", jtype(v));
	pop(c);
}

/*
 * A string of @min..@max - 1 bytes without control characters (C0, DEL, C1: U+009B is a
 * terminal's CSI), copied into @out. 0 or -1.
 */
static int get_string(struct pctx *c, json_t *v, size_t min, size_t max, char *out)
{
	const char *s = json_string_value(v);
	size_t i, len;

	if (!json_is_string(v)) {
		pfail(c, false, 400, VQ_ERR_INVALID_FIELD, "must be a string, not %s", jtype(v));
		return -1;
	}
	len = json_string_length(v);
	for (i = 0; i < len && !util_control_len(s + i); i++)
		;
	if (len < min || len >= max)
		pfail(c, false, 422, VQ_ERR_OUT_OF_RANGE, "must be %zu..%zu bytes, not %zu", min,
		      max - 1, len);
	else if (i < len)
		pfail(c, false, 422, VQ_ERR_OUT_OF_RANGE, "must not contain control characters");
	else {
		memcpy(out, s, len + 1);
		return 0;
	}
	return -1;
}

static void get_nums(struct pctx *c, json_t *obj, const struct pnum *nums)
{
	double v;

	for (; nums->key; nums++)
		if (get_num(c, obj, nums->key, nums->real, nums->min, nums->max, &v) == 1)
			policy_num_store(c->p, nums, v);
}

/* A section of plain numbers (objective, guard). */
static void get_section(struct pctx *c, json_t *obj, const struct pnum *nums)
{
	const char *allowed[POLICY_FIELDS_MAX];
	size_t n;

	for (n = 0; nums[n].key && n + 1 < POLICY_FIELDS_MAX; n++)
		allowed[n] = nums[n].key;
	allowed[n] = NULL;
	only_fields(c, obj, allowed);
	get_nums(c, obj, nums);
}

static void get_knob(struct pctx *c, json_t *obj, const struct pknob *pk)
{
	struct law_bounds *b = &c->p->law.bounds[pk->k];
	char f[POLICY_KNOB_FIELDS][POLICY_KNOB_FIELD_LEN];
	const char *allowed[POLICY_KNOB_FIELDS + 1];
	double span = (double)(pk->hard_max - pk->hard_min), v;
	int got_min, got_max;

	policy_knob_fields(pk->k, f);
	allowed[0] = f[0], allowed[1] = f[1], allowed[2] = f[2][0] ? f[2] : NULL;
	allowed[3] = NULL;
	only_fields(c, obj, allowed);
	got_min = get_num(c, obj, f[0], false, pk->hard_min, pk->hard_max, &v);
	if (got_min == 1)
		b->min = (int64_t)v;
	got_max = get_num(c, obj, f[1], false, pk->hard_min, pk->hard_max, &v);
	if (got_max == 1)
		b->max = (int64_t)v;
	if (f[2][0] && get_num(c, obj, f[2], false, 0, span, &v) == 1)
		b->step_abs_max = (int64_t)v;
	if (got_min < 0 || got_max < 0 || b->min <= b->max)
		return;
	/*
	 * inverted: blame the bound the text gave; when it gave both, the one it changed from
	 * the policy it replaces (vqtunectl policy set ...min_us changes min only), else max
	 */
	if (got_min == 1 && got_max == 1 && c->prev) {
		const struct law_bounds *was = &c->prev->law.bounds[pk->k];

		if (b->max == was->max && b->min != was->min)
			got_max = 0;
	}
	push(c, got_max ? f[1] : f[0], -1);
	if (got_max)
		pfail(c, false, 422, VQ_ERR_OUT_OF_RANGE, "%lld is below %s %lld",
		      (long long)b->max, f[0], (long long)b->min);
	else
		pfail(c, false, 422, VQ_ERR_OUT_OF_RANGE, "%lld is above %s %lld",
		      (long long)b->min, f[1], (long long)b->max);
	pop(c);
}

static void get_controller(struct pctx *c, json_t *obj, const struct psect *s)
{
	const char *allowed[POLICY_FIELDS_MAX] = { "enabled" };
	size_t n = 1, i;
	json_t *kv;

	if (s->ctl == POLICY_CTL_QLIMIT)
		allowed[n++] = "allow_disruptive";
	for (i = 0; s->nums[i].key; i++)
		allowed[n++] = s->nums[i].key;
	for (i = 0; i < LK_NUM; i++)
		if (policy_knobs[i].ctl == s->ctl)
			allowed[n++] = policy_knobs[i].key;
	allowed[n] = NULL;
	only_fields(c, obj, allowed);
	get_bool(c, obj, "enabled", &c->p->enabled[s->ctl]);
	if (s->ctl == POLICY_CTL_QLIMIT)
		get_bool(c, obj, "allow_disruptive", &c->p->law.allow_disruptive);
	get_nums(c, obj, s->nums);
	for (i = 0; i < LK_NUM; i++) {
		if (policy_knobs[i].ctl != s->ctl)
			continue;
		kv = get_object(c, obj, policy_knobs[i].key);
		if (!kv)
			continue;
		push(c, policy_knobs[i].key, -1);
		get_knob(c, kv, &policy_knobs[i]);
		pop(c);
	}
}

/* What a select list holds: exact names, fnmatch(3) globs, or namespace names. */
enum sel_kind { SEL_NAME, SEL_GLOB, SEL_NETNS };

/*
 * A select.netns entry no namespace can have, as netns_name_valid() (netns.c) and
 * ip-netns(8) see it: a '/' or "." or ".." (names under /run/netns). "" and "-" are vqtuned's
 * own namespace. 0 or -EINVAL with why in @why.
 */
static int netns_entry_check(const char *v, char *why, size_t len)
{
	if (!strchr(v, '/') && strcmp(v, ".") && strcmp(v, ".."))
		return 0;
	snprintf(why, len, "'%s' is no namespace name ip-netns(8) can make (a file under "
		 "/run/netns: no '/', not '.' or '..'); \"\" or \"-\" is vqtuned's own", v);
	return -EINVAL;
}

/*
 * select.KEY: an array of at most POLICY_SELECT_MAX strings of @min.. bytes; @kind SEL_GLOB:
 * each one a glob that policy_glob_check() accepts, SEL_NETNS: a name netns_entry_check()
 * accepts.
 */
static void get_select_list(struct pctx *c, json_t *obj, const char *key, size_t min,
			    enum sel_kind kind, struct policy_select *out)
{
	json_t *arr = json_object_get(obj, key), *v;
	char why[POLICY_MSG_MAX];
	size_t i;

	if (!arr)
		return;
	push(c, key, -1);
	if (!json_is_array(arr)) {
		pfail(c, false, 400, VQ_ERR_INVALID_FIELD, "must be an array of strings, not %s",
		      jtype(arr));
	} else if (json_array_size(arr) > POLICY_SELECT_MAX) {
		pfail(c, false, 422, VQ_ERR_OUT_OF_RANGE, "%zu entries; at most %d",
		      json_array_size(arr), POLICY_SELECT_MAX);
	} else {
		out->n = json_array_size(arr);
		json_array_foreach(arr, i, v) {
			push(c, NULL, (int)i);
			if (!get_string(c, v, min, POLICY_SELECT_LEN, out->v[i]) &&
			    ((kind == SEL_GLOB && policy_glob_check(out->v[i], why, sizeof(why))) ||
			     (kind == SEL_NETNS && netns_entry_check(out->v[i], why, sizeof(why)))))
				pfail(c, false, 422, VQ_ERR_OUT_OF_RANGE, "%s", why);
			pop(c);
		}
	}
	pop(c);
}

static void get_select(struct pctx *c, json_t *obj)
{
	static const char *const fields[] = { "drivers", "names", "netns", NULL };

	only_fields(c, obj, fields);
	get_select_list(c, obj, "drivers", 1, SEL_NAME, &c->p->drivers);
	get_select_list(c, obj, "names", 1, SEL_GLOB, &c->p->names);
	/* "" names the daemon's own namespace, as in the API's "netns" fields; "-" too */
	get_select_list(c, obj, "netns", 0, SEL_NETNS, &c->p->netns);
}

static void get_mode(struct pctx *c, json_t *v)
{
	int i;

	push(c, "mode", -1);
	if (!json_is_string(v)) {
		pfail(c, false, 400, VQ_ERR_INVALID_FIELD, "must be a string, not %s", jtype(v));
	} else {
		for (i = 0; policy_modes[i] && strcmp(policy_modes[i], json_string_value(v)); i++)
			;
		if (policy_modes[i])
			snprintf(c->p->mode, sizeof(c->p->mode), "%s", policy_modes[i]);
		else
			pfail(c, false, 400, VQ_ERR_INVALID_FIELD,
			      "'%s' is not one of observe, advise, active", json_string_value(v));
	}
	pop(c);
}

/* limit_min can never exceed limit_max: their ranges must overlap. */
static void check_bql(struct pctx *c)
{
	const struct law_bounds *lo = &c->p->law.bounds[LK_BQL_LIMIT_MIN];
	const struct law_bounds *hi = &c->p->law.bounds[LK_BQL_LIMIT_MAX];

	/* the bound a PUT changed is the one to name; else min_bytes */
	bool blame_max = c->prev && hi->max != c->prev->law.bounds[LK_BQL_LIMIT_MAX].max &&
			 lo->min == c->prev->law.bounds[LK_BQL_LIMIT_MIN].min;

	if (lo->min <= hi->max || lo->min > lo->max || hi->min > hi->max)
		return;
	push(c, "controllers", -1);
	push(c, "qlimit", -1);
	push(c, blame_max ? "bql_limit_max" : "bql_limit_min", -1);
	push(c, blame_max ? "max_bytes" : "min_bytes", -1);
	if (blame_max)
		pfail(c, false, 422, VQ_ERR_OUT_OF_RANGE, "%lld is below bql_limit_min.min_bytes "
		      "%lld: limit_min could never be reached", (long long)hi->max,
		      (long long)lo->min);
	else
		pfail(c, false, 422, VQ_ERR_OUT_OF_RANGE, "%lld is above bql_limit_max.max_bytes "
		      "%lld: limit_min could never be reached", (long long)lo->min,
		      (long long)hi->max);
	c->n -= 4;
}

static void get_policy(struct pctx *c, json_t *obj)
{
	static const char *const top[] = { "name", "mode", "select", "objective",
					   "controllers", "guard", NULL };
	static const char *const ctls[] = { "qlimit", "polling", "zerocopy", NULL };
	json_t *v, *ctl;
	int i;

	only_fields(c, obj, top);
	v = json_object_get(obj, "name");
	if (v) {
		push(c, "name", -1);
		get_string(c, v, 1, POLICY_NAME_MAX, c->p->name);
		pop(c);
	}
	v = json_object_get(obj, "mode");
	if (v)
		get_mode(c, v);
	v = get_object(c, obj, "select");
	if (v) {
		push(c, "select", -1);
		get_select(c, v);
		pop(c);
	}
	v = get_object(c, obj, "objective");
	if (v) {
		push(c, "objective", -1);
		get_section(c, v, policy_objective_nums);
		pop(c);
	}
	ctl = get_object(c, obj, "controllers");
	if (ctl) {
		push(c, "controllers", -1);
		only_fields(c, ctl, ctls);
		for (i = 0; i < POLICY_CTL_NUM; i++) {
			v = get_object(c, ctl, policy_ctl_sects[i].key);
			if (!v)
				continue;
			push(c, policy_ctl_sects[i].key, -1);
			get_controller(c, v, &policy_ctl_sects[i]);
			pop(c);
		}
		pop(c);
	}
	v = get_object(c, obj, "guard");
	if (v) {
		push(c, "guard", -1);
		get_section(c, v, policy_guard_nums);
		pop(c);
	}
	check_bql(c);
}

/*
 * True when @obj is {"policy":{...}} and nothing else, the shape GET /v1/policy and
 * `vqtunectl --json policy show` print. A policy has no "policy" field, so the two
 * cannot be confused.
 */
static bool policy_is_wrapper(json_t *obj)
{
	return json_object_size(obj) == 1 && json_is_object(json_object_get(obj, "policy"));
}

int policy_validate(json_t *obj, const char *text, size_t len, struct policy *out,
		    struct policy_errors *errs)
{
	return policy_validate_put(obj, text, len, NULL, out, errs);
}

int policy_validate_put(json_t *obj, const char *text, size_t len, const struct policy *prev,
			struct policy *out, struct policy_errors *errs)
{
	struct pctx c = { .text = text, .len = len, .p = out, .prev = prev, .errs = errs };

	memset(errs, 0, sizeof(*errs));
	policy_defaults(out);
	/* an unnamed policy is not the built-in one: do not let it pose as "observe" */
	snprintf(out->name, sizeof(out->name), "custom");
	if (!json_is_object(obj)) {
		pfail(&c, false, 400, VQ_ERR_INVALID_FIELD, POLICY_NOT_OBJECT_FMT,
		      obj ? jtype(obj) : "nothing");
	} else if (policy_is_wrapper(obj)) {
		/* what GET /v1/policy returns: errors name policy.<field>, at its position */
		push(&c, "policy", -1);
		get_policy(&c, json_object_get(obj, "policy"));
		pop(&c);
	} else {
		get_policy(&c, obj);
	}
	return errs->n ? errs->e[0].status : 0;
}

