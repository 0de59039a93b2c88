/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * api_route: the API's route table (docs/api.md "Routes") and the call from a routed request
 * into view.h. api.c does the HTTP around it: splitting and decoding the path, permission,
 * the body and queueing the reply.
 */
#ifndef VQ_API_ROUTE_H
#define VQ_API_ROUTE_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

/* Path segments the deepest route has (v1/devices/{dev}/knobs/{knob}) plus slack. */
#define API_PATH_MAX_SEGS	8
/* Captured {dev}/{knob} segments per route. */
#define API_MAX_ARGS		2

enum api_route_body { BODY_OPTIONAL, BODY_REQUIRED };

enum api_route_id {
	R_STATUS, R_DEVICES, R_DEVICE, R_QUEUES, R_KNOB_SET, R_KNOB_RELEASE, R_PAUSE, R_RESUME,
	R_POLICY_GET, R_POLICY_PUT, R_EVENTS, R_RESTORE, R_METRICS, R_HEALTHZ,
};

struct api_route {
	const char *method;
	const char *segs[API_PATH_MAX_SEGS];	/* NULL-terminated; "*" captures one segment */
	enum api_route_id id;
	enum api_route_body body;
	const char *const *args;	/* query parameters it takes; NULL: any at all */
};

/* What a route answers: JSON in @json, or @text (malloc'ed) of @text_len bytes. */
struct api_reply {
	int status;		/* HTTP status (RFC 9110 15) */
	json_t *json;		/* reply body, or NULL when @text is set */
	char *text;
	size_t text_len;
	const char *ctype;	/* Content-Type of @text */
};

/* A route that changes something (every method but GET): needs write permission. */
bool api_route_is_write(const struct api_route *rt);

/*
 * The route for @method on the decoded path @seg[0..@nseg-1] (HEAD routes as GET, RFC 9110
 * 9.3.2), its {dev} and {knob} segments in @arg (API_MAX_ARGS). NULL when none: then @allow
 * (@allow_len bytes) lists the methods the path takes ("GET, HEAD, PUT"), or is "" when no
 * route has the path.
 */
const struct api_route *api_route_find(char *const *seg, int nseg, const char **arg,
				       const char *method, char *allow, size_t allow_len);

/*
 * Call @rt's view with its captured @arg, the request's query parameters (from @c), the
 * parsed JSON body @b (NULL when none) and the raw body @raw of @raw_len bytes (what PUT
 * /v1/policy places its errors in); fills @rep.
 */
void api_route_call(const struct api_route *rt, const char *const *arg,
		    struct MHD_Connection *c, json_t *b, const char *raw, size_t raw_len,
		    struct api_reply *rep);

#endif
