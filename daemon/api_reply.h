/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * api_reply: how the API server (api.c) queues a reply on a libmicrohttpd connection: a
 * buffer, a JSON value, or the error object of docs/api.md "Errors" built with apierr_new().
 * Error replies are printf-checked, as journal-gatewayd's microhttpd-util does.
 *
 * Every function returns what MHD_queue_response() returned (MHD_YES queued), or MHD_NO
 * when the reply could not be built (out of memory): MHD then closes the connection.
 */
#ifndef VQ_API_REPLY_H
#define VQ_API_REPLY_H

#include <jansson.h>
#include <microhttpd.h>
#include <stddef.h>

#include "http_parse.h"

/* Content-Type of each reply kind; Prometheus text exposition format 0.0.4. */
#define API_CT_JSON		HTTP_MEDIA_JSON
#define API_CT_TEXT		"text/plain; charset=utf-8"
#define API_CT_PROM		"text/plain; version=0.0.4; charset=utf-8"

/*
 * Queue @len bytes of @buf (malloc'ed; always taken over, freed by MHD or here on failure)
 * as the body of an HTTP @status (RFC 9110 15) reply with Content-Type @ctype and, when @hdr
 * is not NULL, the one extra header @hdr: @hval.
 */
enum MHD_Result api_reply_buf(struct MHD_Connection *c, int status, const char *ctype,
			      char *buf, size_t len, const char *hdr, const char *hval);

/*
 * Queue @j (always taken over: its reference is dropped) as a compact JSON body of an HTTP
 * @status reply, plus the optional header @hdr: @hval as in api_reply_buf().
 */
enum MHD_Result api_reply_json(struct MHD_Connection *c, int status, json_t *j,
			       const char *hdr, const char *hval);

/*
 * Queue an error object {"error":{"code":@code,"message":...}} (docs/api.md "Errors") with
 * HTTP @status. @code: a VQ_ERR_* of include/vqtune_api.h. The message is cut to 511 bytes.
 */
enum MHD_Result api_reply_err(struct MHD_Connection *c, int status, const char *code,
			      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * api_reply_err() with one extra header @hdr: @hval, for the replies that need one: Allow
 * on 405 (RFC 9110 15.5.6), WWW-Authenticate on 401 (RFC 6750 3).
 */
enum MHD_Result api_reply_err_hdr(struct MHD_Connection *c, int status, const char *hdr,
				  const char *hval, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

#endif
