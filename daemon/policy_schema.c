// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy_schema: the schema of policies/README.md as tables (policy_schema.h): plain numbers
 * per section (pnums) and per-knob bounds (pknobs, one per enum law_knob), with the ranges
 * the knobs themselves accept; and a policy shown back as JSON from the same tables, so
 * policy_to_json() gives exactly what policy_validate() (policy.c) takes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "policy.h"
#include "policy_schema.h"

/* Knob ranges as the knob table (knob.c) and vqpair (include/vqpair.h) accept them. */
#define HARD_BQL_MAX_BYTES	1879048192LL	/* DQL_MAX_LIMIT */
#define HARD_RING_MAX		4294967295LL	/* ethtool ring sizes are u32 */
#define HARD_RX_USECS_MAX	100000LL	/* knob.c COALESCE_USECS_MAX */
#define HARD_RX_FRAMES_MAX	65535LL		/* knob.c COALESCE_FRAMES_MAX */
#define HARD_DEFER_MAX		2147483647LL	/* netdev.yaml: S32_MAX */
#define HARD_GRO_MAX_NS		1000000000LL	/* knob.c NAPI_TIMEOUT_MAX_NS */
#define HARD_BUSYLOOP_MAX_US	1000LL		/* vqpair busyloop-us */
#define HARD_BACKEND_WEIGHT_MAX	4096LL		/* vqpair backend-weight */
#define HARD_ZC_MIN_MAX_BYTES	65536LL		/* vqpair zerocopy-min-bytes */
#define HARD_ZC_PENDING_MAX	1024LL		/* vqpair zerocopy-max-pending, VHOST_MAX_PEND */
/* 1 s: a queueing or completion target longer than this is not a latency target */
#define TARGET_MAX_US		1000000.0
/* 10M events/s: more than one CPU can take; a larger budget means "no budget" */
#define EVENT_BUDGET_MAX	10000000.0
/* 1 hour / 1 day of 1 s ticks: longer windows mean the guard is effectively off */
#define TICKS_MAX		3600.0
#define HOLD_TICKS_MAX		86400.0
/* a step that multiplies a knob by more than 16 skips the range a law has to search */
#define STEP_FACTOR_MAX		16.0

#define LAWF(f)		offsetof(struct policy, law.f)
const struct pnum policy_objective_nums[] = {
	{ "latency_target_us", PT_U64, false, 1, TARGET_MAX_US, 1000, 1, LAWF(latency_target_ns) },
	{ "event_budget_per_s", PT_DBL, true, 1, EVENT_BUDGET_MAX, 1, 1, LAWF(event_budget_per_s) },
	{ "throughput_floor_pct", PT_DBL, true, 0, 100, 1, 1,
	  offsetof(struct policy, throughput_floor_pct) },
	{ 0 }
};
static const struct pnum qlimit_nums[] = {
	{ "target_delay_us", PT_U64, false, 1, TARGET_MAX_US, 1000, 1, LAWF(qlimit_target_delay_ns) },
	{ 0 }
};
static const struct pnum polling_nums[] = {
	{ "busyloop_hit_value_us", PT_U64, false, 0, TARGET_MAX_US, 1000, 1,
	  LAWF(busyloop_hit_value_ns) },
	{ 0 }
};
static const struct pnum zerocopy_nums[] = {
	{ "latency_target_us", PT_U64, false, 1, TARGET_MAX_US, 1000, 1, LAWF(zc_latency_target_ns) },
	{ "breakeven_bytes", PT_I64, false, 0, HARD_ZC_MIN_MAX_BYTES, 1, 1, LAWF(zc_breakeven_bytes) },
	{ 0 }
};
const struct pnum policy_guard_nums[] = {
	{ "cooldown_ticks", PT_U32, false, 0, TICKS_MAX, 1, 1, LAWF(cooldown_ticks) },
	{ "settle_ticks", PT_U32, false, 1, TICKS_MAX, 1, 1, LAWF(settle_ticks) },
	{ "hold_ticks", PT_U32, false, 0, HOLD_TICKS_MAX, 1, 1, LAWF(hold_ticks) },
	{ "osc_window_ticks", PT_U32, false, 1, TICKS_MAX, 1, 1, LAWF(osc_window_ticks) },
	/* the guard keeps the last GUARD_REV_MAX reversals: it cannot count more */
	{ "osc_reversals_max", PT_U32, false, 1, GUARD_REV_MAX, 1, 1, LAWF(osc_reversals_max) },
	{ "hysteresis_pct", PT_DBL, true, 0, 50, 1, 100, LAWF(hysteresis) },
	{ "step_factor_max", PT_DBL, true, 1, STEP_FACTOR_MAX, 1, 1, LAWF(step_factor_max) },
	{ "rollback_worse_pct", PT_DBL, true, 0, 100, 1, 100, LAWF(rollback_worse) },
	{ 0 }
};

const struct pknob policy_knobs[LK_NUM] = {
	{ LK_BQL_LIMIT_MAX, "bql_limit_max", POLICY_CTL_QLIMIT, 0, HARD_BQL_MAX_BYTES },
	{ LK_BQL_LIMIT_MIN, "bql_limit_min", POLICY_CTL_QLIMIT, 0, HARD_BQL_MAX_BYTES },
	{ LK_TX_RING_SIZE, "tx_ring_size", POLICY_CTL_QLIMIT, 1, HARD_RING_MAX },
	{ LK_TX_FULL_MODE, "tx_full_mode", POLICY_CTL_QLIMIT, 0, 1 },
	{ LK_RX_USECS, "rx_usecs", POLICY_CTL_POLLING, 0, HARD_RX_USECS_MAX },
	{ LK_RX_FRAMES, "rx_frames", POLICY_CTL_POLLING, 0, HARD_RX_FRAMES_MAX },
	{ LK_DEFER_HARD_IRQS, "defer_hard_irqs", POLICY_CTL_POLLING, 0, HARD_DEFER_MAX },
	{ LK_GRO_FLUSH_TIMEOUT, "gro_flush_timeout", POLICY_CTL_POLLING, 0, HARD_GRO_MAX_NS },
	{ LK_BUSYLOOP_US, "busyloop_us", POLICY_CTL_POLLING, 0, HARD_BUSYLOOP_MAX_US },
	{ LK_BACKEND_WEIGHT, "backend_weight", POLICY_CTL_POLLING, 1, HARD_BACKEND_WEIGHT_MAX },
	{ LK_TX_NAPI, "tx_napi", POLICY_CTL_POLLING, 0, 1 },
	{ LK_ZEROCOPY, "zerocopy", POLICY_CTL_ZEROCOPY, 0, 1 },
	{ LK_ZEROCOPY_MIN_BYTES, "zerocopy_min_bytes", POLICY_CTL_ZEROCOPY, 0, HARD_ZC_MIN_MAX_BYTES },
	{ LK_ZEROCOPY_MAX_PENDING, "zerocopy_max_pending", POLICY_CTL_ZEROCOPY, 1,
	  HARD_ZC_PENDING_MAX },
};

const struct psect policy_ctl_sects[POLICY_CTL_NUM] = {
	{ "qlimit", POLICY_CTL_QLIMIT, qlimit_nums },
	{ "polling", POLICY_CTL_POLLING, polling_nums },
	{ "zerocopy", POLICY_CTL_ZEROCOPY, zerocopy_nums },
};

const char *const policy_modes[] = { "observe", "advise", "active", NULL };

static bool knob_discrete(enum law_knob k)
{
	return !strcmp(law_knob_unit(k), "enum") || !strcmp(law_knob_unit(k), "bool");
}

void policy_knob_fields(enum law_knob k, char names[POLICY_KNOB_FIELDS][POLICY_KNOB_FIELD_LEN])
{
	const char *u = law_knob_unit(k);

	if (knob_discrete(k)) {
		snprintf(names[0], POLICY_KNOB_FIELD_LEN, "min");
		snprintf(names[1], POLICY_KNOB_FIELD_LEN, "max");
		names[2][0] = '\0';
		return;
	}
	snprintf(names[0], POLICY_KNOB_FIELD_LEN, "min_%s", u);
	snprintf(names[1], POLICY_KNOB_FIELD_LEN, "max_%s", u);
	snprintf(names[2], POLICY_KNOB_FIELD_LEN, "step_max_%s", u);
}

void policy_num_store(struct policy *p, const struct pnum *f, double v)
{
	void *at = (char *)p + f->off;
	double s = v * f->mul / f->div;

	switch (f->type) {
	case PT_U32: *(uint32_t *)at = (uint32_t)s; break;
	case PT_U64: *(uint64_t *)at = (uint64_t)s; break;
	case PT_I64: *(int64_t *)at = (int64_t)s; break;
	case PT_DBL: *(double *)at = s; break;
	}
}

static double num_load(const struct policy *p, const struct pnum *f)
{
	const void *at = (const char *)p + f->off;
	double s = 0;

	switch (f->type) {
	case PT_U32: s = *(const uint32_t *)at; break;
	case PT_U64: s = (double)*(const uint64_t *)at; break;
	case PT_I64: s = (double)*(const int64_t *)at; break;
	case PT_DBL: s = *(const double *)at; break;
	}
	return s * f->div / f->mul;
}

static json_t *nums_json(const struct policy *p, const struct pnum *nums, json_t *o)
{
	for (; nums->key; nums++) {
		double v = num_load(p, nums);

		json_object_set_new(o, nums->key, nums->real ? json_real(v) :
				    json_integer((json_int_t)llround(v)));
	}
	return o;
}

static json_t *select_json(const struct policy_select *s)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < s->n; i++)
		json_array_append_new(a, json_string(s->v[i]));
	return a;
}

static json_t *controller_json(const struct policy *p, const struct psect *s)
{
	json_t *o = json_object();
	char f[POLICY_KNOB_FIELDS][POLICY_KNOB_FIELD_LEN];
	size_t i;

	json_object_set_new(o, "enabled", json_boolean(p->enabled[s->ctl]));
	if (s->ctl == POLICY_CTL_QLIMIT)
		json_object_set_new(o, "allow_disruptive", json_boolean(p->law.allow_disruptive));
	nums_json(p, s->nums, o);
	for (i = 0; i < LK_NUM; i++) {
		const struct law_bounds *b = &p->law.bounds[policy_knobs[i].k];
		json_t *k;

		if (policy_knobs[i].ctl != s->ctl)
			continue;
		policy_knob_fields(policy_knobs[i].k, f);
		k = json_pack("{s:I, s:I}", f[0], (json_int_t)b->min, f[1], (json_int_t)b->max);
		if (f[2][0])
			json_object_set_new(k, f[2], json_integer(b->step_abs_max));
		json_object_set_new(o, policy_knobs[i].key, k);
	}
	return o;
}

json_t *policy_to_json(const struct policy *p)
{
	json_t *ctl = json_object();
	int i;

	if (!p)
		p = policy_get();
	for (i = 0; i < POLICY_CTL_NUM; i++)
		json_object_set_new(ctl, policy_ctl_sects[i].key,
				    controller_json(p, &policy_ctl_sects[i]));
	return json_pack("{s:s, s:s, s:{s:o, s:o, s:o}, s:o, s:o, s:o}",
			 "name", p->name, "mode", p->mode,
			 "select", "drivers", select_json(&p->drivers),
			 "names", select_json(&p->names), "netns", select_json(&p->netns),
			 "objective", nums_json(p, policy_objective_nums, json_object()),
			 "controllers", ctl,
			 "guard", nums_json(p, policy_guard_nums, json_object()));
}

/* The character classes of POSIX.1-2017 9.3.5 that fnmatch(3) knows in every locale. */
static bool glob_class_known(const char *name, size_t len)
{
	static const char *const classes[] = { "alnum", "alpha", "blank", "cntrl", "digit",
		"graph", "lower", "print", "punct", "space", "upper", "xdigit" };
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strlen(classes[i]) == len && !memcmp(classes[i], name, len))
			return true;
	return false;
}

/*
 * The bracket expression opening at @g[0] ('['): the offset of its closing ']', or -1 with
 * *@why set. A ']' first (after '!' or '^') is a member; "[:x:]", "[.x.]", "[=x=]" are
 * read whole; '\' escapes the next byte, as fnmatch does without FNM_NOESCAPE.
 */
static long glob_bracket(const char *g, const char **why)
{
	size_t i = 1;

	if (g[i] == '!' || g[i] == '^')
		i++;
	if (g[i] == ']')
		i++;
	for (; g[i] && g[i] != ']'; i++) {
		if (g[i] == '\\' && g[i + 1]) {
			i++;
		} else if (g[i] == '[' && (g[i + 1] == ':' || g[i + 1] == '.' || g[i + 1] == '=')) {
			char delim[3] = { g[i + 1], ']', '\0' };
			const char *end, *name = g + i + 2;

			end = strstr(name, delim);
			if (!end) {
				*why = g[i + 1] == ':' ? "'[:' without its closing ':]'" :
				       g[i + 1] == '.' ? "'[.' without its closing '.]'" :
				       "'[=' without its closing '=]'";
				return -1;
			}
			if (g[i + 1] == ':' && !glob_class_known(name, (size_t)(end - name))) {
				*why = "unknown character class";
				return -1;
			}
			i = (size_t)(end - g) + 1;
		}
	}
	if (g[i] == ']')
		return (long)i;
	*why = "'[' without its closing ']'";
	return -1;
}

int policy_glob_check(const char *g, char *why, size_t len)
{
	const char *fault;
	size_t at;

	if (!*g) {
		snprintf(why, len, "an empty glob matches no device name");
		return -EINVAL;
	}
	fault = policy_glob_error(g, &at);
	if (!fault)
		return 0;
	snprintf(why, len, "'%s' is not a valid fnmatch(3) glob: %s (byte %zu)", g, fault, at + 1);
	return -EINVAL;
}

const char *policy_glob_error(const char *g, size_t *at)
{
	const char *why = NULL;
	size_t i;
	long n;

	for (i = 0; g[i]; i++) {
		if (g[i] == '\\') {
			if (!g[i + 1]) {
				*at = i;
				return "'\\' at the end escapes nothing";
			}
			i++;
		} else if (g[i] == '[') {
			n = glob_bracket(g + i, &why);
			if (n < 0) {
				*at = i;
				return why;
			}
			i += (size_t)n;
		}
	}
	return NULL;
}
