// SPDX-License-Identifier: GPL-2.0-only
/*
 * api_args: checking and parsing query parameters for api.c (contract in api_args.h).
 * MHD has already percent-decoded names and values; nothing here allocates.
 */
#include <microhttpd.h>
#include <stdint.h>
#include <string.h>

#include "api_args.h"
#include "apierr.h"
#include "reqval.h"
#include "vqtune_api.h"

/* Query parameters a route understands; any other, or one given twice, is refused. */
struct args_check {
	const char *const *allowed;
	unsigned int seen;		/* bit per allowed name */
	const char *bad;		/* first offending name */
	bool dup;
	bool novalue;			/* "?name" without "=": MHD gives a NULL value */
	bool nul;			/* a %00 in the name or value: C strings end there */
};

static enum MHD_Result args_iter(void *cls, enum MHD_ValueKind kind, const char *key,
				 size_t key_size, const char *value, size_t value_size)
{
	struct args_check *a = cls;
	unsigned int i;

	(void)kind;
	/* "since=8%00abc" would read as 8: refuse what a C string would cut short */
	if (strlen(key) != key_size || (value && strlen(value) != value_size)) {
		a->bad = key;
		a->nul = true;
		return MHD_NO;
	}
	for (i = 0; a->allowed[i]; i++) {
		if (strcmp(a->allowed[i], key))
			continue;
		/* "?queue" alone must not read as "no queue given" and widen a DELETE */
		if (!value) {
			a->bad = key;
			a->novalue = true;
			return MHD_NO;
		}
		if (a->seen & (1u << i)) {
			a->bad = key;
			a->dup = true;
			return MHD_NO;
		}
		a->seen |= 1u << i;
		return MHD_YES;
	}
	a->bad = key;
	return MHD_NO;
}

bool api_args_ok(struct MHD_Connection *c, const char *const *allowed, json_t **out)
{
	struct args_check a = { .allowed = allowed };

	MHD_get_connection_values_n(c, MHD_GET_ARGUMENT_KIND, args_iter, &a);
	if (!a.bad)
		return true;
	if (a.nul)
		*out = apierr_new(VQ_ERR_INVALID_FIELD, a.bad[0] ? a.bad : NULL,
				  "%s%spercent-encoded NUL (%%00) in a query parameter", a.bad,
				  a.bad[0] ? ": " : "");
	else if (a.dup)
		*out = apierr_new(VQ_ERR_INVALID_FIELD, a.bad, "%s: given more than once", a.bad);
	else if (a.novalue)
		*out = apierr_new(VQ_ERR_INVALID_FIELD, a.bad, "%s: needs a value (%s=...)", a.bad,
				  a.bad);
	else if (!a.bad[0])
		*out = apierr_new(VQ_ERR_INVALID_FIELD, NULL, "a query parameter without a name");
	else
		*out = apierr_new(VQ_ERR_INVALID_FIELD, a.bad, "%s: not a parameter of this route",
				  a.bad);
	return false;
}

int api_args_events(struct MHD_Connection *c, uint64_t *since, unsigned int *limit,
		    json_t **out)
{
	const char *s = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "since");
	const char *l = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "limit");
	uint64_t n = API_EVENTS_LIMIT_DEFAULT;
	int st;

	*since = 0;
	/*
	 * Checked as a release's ?queue= is (rv_query_uint()): one code per kind of fault for
	 * every integer query parameter. Event ids are JSON integers: jansson's are signed 64-bit.
	 */
	if (s) {
		st = rv_query_uint("since", s, 0, INT64_MAX, since, out);
		if (st)
			return st;
	}
	if (l) {
		st = rv_query_uint("limit", l, 1, API_EVENTS_LIMIT_MAX, &n, out);
		if (st)
			return st;
	}
	*limit = (unsigned int)n;
	return 0;
}
