// SPDX-License-Identifier: GPL-2.0-only
/*
 * api_route: the route table of docs/api.md "Routes", matched on the decoded path segments
 * api.c hands over, and the one switch from a route to its view_* call (view.h). Every
 * route's query parameters are checked by name here (api_args.c) before its view runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_args.h"
#include "api_reply.h"
#include "api_route.h"
#include "apierr.h"
#include "util.h"
#include "view.h"
#include "vqtune_api.h"

#define ARG	"*"

/* Query parameters per route (docs/api.md); NULL: any, as scrapers add their own. */
static const char *const args_none[] = { NULL };
static const char *const args_events[] = { "since", "limit", NULL };
static const char *const args_release[] = { "queue", "napi_id", NULL };

static const struct api_route routes[] = {
	{ "GET",    { "v1", "status" }, R_STATUS, BODY_OPTIONAL, args_none },
	{ "GET",    { "v1", "devices" }, R_DEVICES, BODY_OPTIONAL, args_none },
	{ "GET",    { "v1", "devices", ARG }, R_DEVICE, BODY_OPTIONAL, args_none },
	{ "GET",    { "v1", "devices", ARG, "queues" }, R_QUEUES, BODY_OPTIONAL, args_none },
	{ "PUT",    { "v1", "devices", ARG, "knobs", ARG }, R_KNOB_SET, BODY_REQUIRED, args_none },
	{ "DELETE", { "v1", "devices", ARG, "knobs", ARG }, R_KNOB_RELEASE, BODY_OPTIONAL,
	  args_release },
	{ "POST",   { "v1", "devices", ARG, "pause" }, R_PAUSE, BODY_OPTIONAL, args_none },
	{ "POST",   { "v1", "devices", ARG, "resume" }, R_RESUME, BODY_OPTIONAL, args_none },
	{ "GET",    { "v1", "policy" }, R_POLICY_GET, BODY_OPTIONAL, args_none },
	{ "PUT",    { "v1", "policy" }, R_POLICY_PUT, BODY_REQUIRED, args_none },
	{ "GET",    { "v1", "events" }, R_EVENTS, BODY_OPTIONAL, args_events },
	{ "POST",   { "v1", "restore" }, R_RESTORE, BODY_OPTIONAL, args_none },
	{ "GET",    { "metrics" }, R_METRICS, BODY_OPTIONAL, NULL },
	{ "GET",    { "healthz" }, R_HEALTHZ, BODY_OPTIONAL, NULL },
};

bool api_route_is_write(const struct api_route *rt)
{
	return strcmp(rt->method, "GET") != 0;
}

/* Does @rt's path match @seg? Fills @arg on a match. */
static bool route_match(const struct api_route *rt, char *const *seg, int nseg,
			const char **arg)
{
	int i, na = 0;

	for (i = 0; i < nseg; i++) {
		const char *p = rt->segs[i];

		if (!p)
			return false;
		if (!strcmp(p, ARG)) {
			/* an empty {dev} or {knob} names nothing */
			if (!seg[i][0] || na == API_MAX_ARGS)
				return false;
			arg[na++] = seg[i];
		} else if (strcmp(p, seg[i])) {
			return false;
		}
	}
	return i == API_PATH_MAX_SEGS || !rt->segs[i];
}

const struct api_route *api_route_find(char *const *seg, int nseg, const char **arg,
				       const char *method, char *allow, size_t allow_len)
{
	size_t i;

	/* HEAD is GET without the body (RFC 9110 9.3.2); MHD drops the body */
	if (!strcmp(method, "HEAD"))
		method = "GET";
	allow[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(routes); i++) {
		if (!route_match(&routes[i], seg, nseg, arg))
			continue;
		if (!strcmp(routes[i].method, method))
			return &routes[i];
		snprintf(allow + strlen(allow), allow_len - strlen(allow), "%s%s%s",
			 allow[0] ? ", " : "", routes[i].method,
			 api_route_is_write(&routes[i]) ? "" : ", HEAD");
	}
	return NULL;
}

/* GET /metrics: Prometheus text, or a JSON 500 when the view has none. */
static void route_metrics(struct api_reply *rep)
{
	rep->status = view_metrics(&rep->text, &rep->text_len);
	rep->ctype = API_CT_PROM;
	if (rep->status != MHD_HTTP_OK || !rep->text) {
		free(rep->text);
		rep->text = NULL;
		rep->status = MHD_HTTP_INTERNAL_SERVER_ERROR;
		rep->json = apierr_new(VQ_ERR_INTERNAL, NULL, "metrics are not available");
	}
}

void api_route_call(const struct api_route *rt, const char *const *arg,
		    struct MHD_Connection *c, json_t *b, const char *raw, size_t raw_len,
		    struct api_reply *rep)
{
	const char *dev = arg[0], *knob = arg[1], *q;
	json_t **out = &rep->json;
	unsigned int limit;
	uint64_t since;

	if (rt->args && !api_args_ok(c, rt->args, out)) {
		rep->status = MHD_HTTP_BAD_REQUEST;
		return;
	}
	switch (rt->id) {
	case R_STATUS:		rep->status = view_status(out); break;
	case R_DEVICES:		rep->status = view_devices(out); break;
	case R_DEVICE:		rep->status = view_device(dev, out); break;
	case R_QUEUES:		rep->status = view_queues(dev, out); break;
	case R_KNOB_SET:	rep->status = view_knob_set(dev, knob, b, out); break;
	case R_KNOB_RELEASE:
		q = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "queue");
		rep->status = view_knob_release(dev, knob, q, MHD_lookup_connection_value(c,
						MHD_GET_ARGUMENT_KIND, "napi_id"), out);
		break;
	case R_PAUSE:		rep->status = view_pause(dev, 1, out); break;
	case R_RESUME:		rep->status = view_pause(dev, 0, out); break;
	case R_POLICY_GET:	rep->status = view_policy_get(out); break;
	case R_POLICY_PUT:	rep->status = view_policy_put(b, raw, raw_len, out); break;
	case R_EVENTS:
		rep->status = api_args_events(c, &since, &limit, out);
		if (!rep->status)
			rep->status = view_events(since, limit, out);
		break;
	case R_RESTORE:		rep->status = view_restore(out); break;
	case R_METRICS:		route_metrics(rep); break;
	case R_HEALTHZ:
		rep->text = strdup("ok\n");
		rep->text_len = rep->text ? strlen(rep->text) : 0;
		rep->ctype = API_CT_TEXT;
		rep->status = rep->text ? MHD_HTTP_OK : MHD_HTTP_INTERNAL_SERVER_ERROR;
		break;
	}
}
