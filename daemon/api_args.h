/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * api_args: the query parameters of an API request (docs/api.md), as libmicrohttpd decoded
 * them. api.c decides which route accepts which names; this file checks and parses them.
 * Errors are apierr_new() objects that name the offending parameter in "field".
 */
#ifndef VQ_API_ARGS_H
#define VQ_API_ARGS_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>
#include <stdint.h>

/* Names one allowed list may hold: one bit each in an unsigned int. */
#define API_ARGS_MAX		32

/* GET /v1/events "limit" (docs/api.md): a page size, default and the largest one served. */
#define API_EVENTS_LIMIT_DEFAULT	1000
#define API_EVENTS_LIMIT_MAX		10000

/*
 * Is every query parameter of @c one of @allowed (NULL-terminated, at most API_ARGS_MAX
 * names) and none given twice? true, or false with *out an invalid_field error (400) naming
 * the first offender: "NAME: given more than once", "NAME: not a parameter of this route", or
 * "NAME: percent-encoded NUL (%00) in a query parameter" (a value would end there).
 * Names are compared byte for byte, case-sensitive.
 */
bool api_args_ok(struct MHD_Connection *c, const char *const *allowed, json_t **out);

/*
 * GET /v1/events?since=ID&limit=N: both optional (absent takes the default; "?since" without
 * "=" api_args_ok() has refused). since: event id, 0..INT64_MAX (a JSON integer), default 0;
 * limit: events, 1 to API_EVENTS_LIMIT_MAX, default API_EVENTS_LIMIT_DEFAULT. Both checked by
 * rv_query_uint(), as a release's ?queue= is: returns 0 with *since and *limit set; 400
 * invalid_field when a value is not a decimal integer (empty, "1x", "+1", "1e3"); 422
 * out_of_range when it is negative or outside its range. *out's field is the parameter.
 */
int api_args_events(struct MHD_Connection *c, uint64_t *since, unsigned int *limit,
		    json_t **out);

#endif
