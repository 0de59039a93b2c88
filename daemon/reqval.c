// SPDX-License-Identifier: GPL-2.0-only
/*
 * rv: field checks on parsed request bodies (docs/api.md "Errors"). Wrong type or unknown
 * field is 400 invalid_field, a well-typed value outside its range 422 out_of_range; every
 * message names the field, and range messages the bound.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "apierr.h"
#include "reqval.h"
#include "vqtune_api.h"

/* HTTP statuses this module returns (RFC 9110 15.5.1, 15.5.21) */
#define RV_HTTP_BAD_REQUEST		400
#define RV_HTTP_UNPROCESSABLE		422

/* The JSON type's name as the API's messages spell it. */
static const char *rv_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:	return "an object";
	case JSON_ARRAY:	return "an array";
	case JSON_STRING:	return "a string";
	case JSON_INTEGER:	return "an integer";
	case JSON_REAL:		return "a real number";
	case JSON_TRUE:
	case JSON_FALSE:	return "a boolean";
	case JSON_NULL:		return "null";
	}
	return "unknown";
}

static int rv_bad_type(const char *name, const json_t *v, const char *want, json_t **err)
{
	*err = apierr_new(VQ_ERR_INVALID_FIELD, name, "%s: must be %s, not %s", name, want,
			  rv_type_name(v));
	return RV_HTTP_BAD_REQUEST;
}

int rv_only_fields(json_t *body, const char *const *allowed, json_t **err)
{
	const char *key;
	json_t *v;

	json_object_foreach(body, key, v) {
		const char *const *a;
		bool known = false;

		for (a = allowed; *a; a++) {
			if (!strcmp(*a, key)) {
				known = true;
				break;
			}
		}
		if (!known) {
			*err = apierr_new(VQ_ERR_INVALID_FIELD, key, "%s: unknown field", key);
			return RV_HTTP_BAD_REQUEST;
		}
	}
	return 0;
}

/* @v into *out when inside [min, max], else 422 naming the bound (body and query alike). */
static int rv_bound(const char *name, uint64_t v, uint64_t min, uint64_t max, uint64_t *out,
		    json_t **err)
{
	if (v < min) {
		*err = apierr_new(VQ_ERR_OUT_OF_RANGE, name, "%s: %" PRIu64 " is below the minimum %"
				  PRIu64, name, v, min);
		return RV_HTTP_UNPROCESSABLE;
	}
	if (v > max) {
		*err = apierr_new(VQ_ERR_OUT_OF_RANGE, name, "%s: %" PRIu64 " is above the maximum %"
				  PRIu64, name, v, max);
		return RV_HTTP_UNPROCESSABLE;
	}
	*out = v;
	return 0;
}

int rv_uint(json_t *body, const char *name, int required, uint64_t min, uint64_t max,
	    uint64_t *out, json_t **err)
{
	json_t *v = json_object_get(body, name);
	json_int_t i;

	if (!v) {
		if (!required)
			return 1;
		*err = apierr_new(VQ_ERR_INVALID_FIELD, name, "%s: required field is missing",
				  name);
		return RV_HTTP_BAD_REQUEST;
	}
	if (!json_is_integer(v))
		return rv_bad_type(name, v, "a non-negative integer", err);
	/*
	 * jansson holds integers as long long: values above LLONG_MAX do not parse at all, so
	 * the largest u64 a request can carry is LLONG_MAX.
	 */
	i = json_integer_value(v);
	if (i < 0) {
		*err = apierr_new(VQ_ERR_OUT_OF_RANGE, name, "%s: %lld is negative", name,
				  (long long)i);
		return RV_HTTP_UNPROCESSABLE;
	}
	return rv_bound(name, (uint64_t)i, min, max, out, err);
}

int rv_bool(json_t *body, const char *name, int *out, json_t **err)
{
	json_t *v = json_object_get(body, name);

	if (!v)
		return 1;
	if (!json_is_boolean(v))
		return rv_bad_type(name, v, "true or false", err);
	*out = json_is_true(v);
	return 0;
}

int rv_string(json_t *body, const char *name, const char **out, json_t **err)
{
	json_t *v = json_object_get(body, name);

	if (!v)
		return 1;
	if (!json_is_string(v))
		return rv_bad_type(name, v, "a string", err);
	*out = json_string_value(v);
	return 0;
}

int rv_query_uint(const char *name, const char *text, uint64_t min, uint64_t max, uint64_t *out,
		  json_t **err)
{
	const char *digits = text[0] == '-' ? text + 1 : text;
	unsigned long long v;

	/* decimal digits with an optional '-': no '+', space, hex or exponent (strtoull takes some) */
	if (!digits[0] || strspn(digits, "0123456789") != strlen(digits)) {
		*err = apierr_new(VQ_ERR_INVALID_FIELD, name, "%s: must be an integer %" PRIu64
				  "..%" PRIu64, name, min, max);
		return RV_HTTP_BAD_REQUEST;
	}
	errno = 0;
	v = strtoull(digits, NULL, 10);
	/* as a JSON body's value reads: "-0" is 0, and the number is shown without its zeros */
	if (digits != text && (v || errno == ERANGE)) {
		if (errno == ERANGE)
			*err = apierr_new(VQ_ERR_OUT_OF_RANGE, name, "%s: %s is negative", name, text);
		else
			*err = apierr_new(VQ_ERR_OUT_OF_RANGE, name, "%s: -%llu is negative", name, v);
		return RV_HTTP_UNPROCESSABLE;
	}
	/* past 2^64 - 1 is above any maximum too */
	if (errno == ERANGE) {
		*err = apierr_new(VQ_ERR_OUT_OF_RANGE, name, "%s: %s is above the maximum %" PRIu64,
				  name, digits, max);
		return RV_HTTP_UNPROCESSABLE;
	}
	return rv_bound(name, v, min, max, out, err);
}
