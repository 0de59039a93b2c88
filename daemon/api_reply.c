// SPDX-License-Identifier: GPL-2.0-only
/*
 * api_reply: queueing replies on a libmicrohttpd connection for api.c. Split from api.c so
 * the routing file stays about routing; see api_reply.h for the contract.
 */
#include <microhttpd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_reply.h"
#include "apierr.h"

/* Longest error message kept: a sentence or two naming the field; longer text is cut. */
#define API_REPLY_MSG_MAX_BYTES	512

enum MHD_Result api_reply_buf(struct MHD_Connection *c, int status, const char *ctype,
			      char *buf, size_t len, const char *hdr, const char *hval)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;

	resp = MHD_create_response_from_buffer(len, buf, MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		free(buf);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	if (hdr)
		MHD_add_response_header(resp, hdr, hval);
	ret = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

enum MHD_Result api_reply_json(struct MHD_Connection *c, int status, json_t *j,
			       const char *hdr, const char *hval)
{
	char *s = json_dumps(j, JSON_COMPACT);

	json_decref(j);
	if (!s)
		return MHD_NO;
	return api_reply_buf(c, status, API_CT_JSON, s, strlen(s), hdr, hval);
}

static enum MHD_Result __attribute__((format(printf, 6, 0)))
reply_verr(struct MHD_Connection *c, int status, const char *hdr, const char *hval,
	   const char *code, const char *fmt, va_list ap)
{
	char msg[API_REPLY_MSG_MAX_BYTES];
	json_t *e;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	e = apierr_new(code, NULL, "%s", msg);
	if (!e)
		return MHD_NO;
	return api_reply_json(c, status, e, hdr, hval);
}

enum MHD_Result api_reply_err(struct MHD_Connection *c, int status, const char *code,
			      const char *fmt, ...)
{
	enum MHD_Result ret;
	va_list ap;

	va_start(ap, fmt);
	ret = reply_verr(c, status, NULL, NULL, code, fmt, ap);
	va_end(ap);
	return ret;
}

enum MHD_Result api_reply_err_hdr(struct MHD_Connection *c, int status, const char *hdr,
				  const char *hval, const char *code, const char *fmt, ...)
{
	enum MHD_Result ret;
	va_list ap;

	va_start(ap, fmt);
	ret = reply_verr(c, status, hdr, hval, code, fmt, ap);
	va_end(ap);
	return ret;
}
