// SPDX-License-Identifier: GPL-2.0-only
/*
 * api: vqtuned's HTTP/1.1 server on libmicrohttpd in external epoll mode (no MHD threads:
 * the daemon's one loop watches api_fds()). One MHD daemon per listener, so a request knows
 * from its daemon whether it may write. Routing, limits and auth follow docs/api.md; the
 * handler style (method first, route table, printf-checked error replies, request state
 * freed in the completion callback) follows systemd's journal-gatewayd.
 *
 * Paths are routed on the raw request-target (from the URI log callback), split at '/' and
 * only then percent-decoded per segment (RFC 3986 2.1), so "%2F" stays inside its segment
 * and "%FF" reaches view_* as the byte 0xFF. Query parameters are decoded by MHD.
 *
 * The pure parsing helpers live in http_parse.c, the listening sockets and the token file in
 * api_sock.c, reply queueing in api_reply.c, query parameters in api_args.c, write permission
 * and the Authorization checks in api_auth.c, the route table in api_route.c; this file is
 * the MHD glue.
 */
#include <errno.h>
#include <microhttpd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "api.h"
#include "api_auth.h"
#include "api_conn.h"
#include "api_reply.h"
#include "api_route.h"
#include "api_sock.h"
#include "apierr.h"
#include "http_parse.h"
#include "log.h"
#include "reqval.h"
#include "util.h"
#include "vqtune_api.h"

/* Simultaneous connections: a CLI and a scraper or two; bounds memory (MHD pool each). */
#define API_CONN_LIMIT		64
/* Idle connection timeout in seconds: long enough for a slow client, short for a stuck one. */
#define API_CONN_TIMEOUT_S	10
/*
 * A whole request (headers and a body of at most 64 KiB) must arrive within this many
 * seconds of the connection opening or the previous reply: a client trickling bytes is
 * never idle, so the idle timeout alone lets 64 of them hold every slot (api_conn.h).
 */
#define API_REQ_DEADLINE_S	10
/* Body bytes discarded after the cap before hanging up: a bounded read to send the 413. */
#define API_DISCARD_MAX_BYTES	(1024 * 1024)
/* MHD_run() passes per api_run(): drains connections MHD left ready without starving the loop. */
#define API_RUN_MAX_PASSES	4
/* Longest "Allow" value: every method name once. */
#define API_ALLOW_MAX_BYTES	64
/* MHD's per-connection memory pool (its default, named so VQ_API_URI_MAX_BYTES holds). */
#define API_CONN_MEMORY_BYTES	(32 * 1024)
/* Longest MHD log line kept. */
#define API_LOG_MAX_BYTES	512

/* Unix socket and TCP. */
#define API_MAX_LISTENERS	2
/* Statuses a view may answer with: success through server error (RFC 9110 15). */
#define API_STATUS_MIN		200
#define API_STATUS_MAX		599

struct api;

struct listener {
	struct api *api;	/* its owner */
	struct MHD_Daemon *mhd;
	struct api_conns conns;	/* its connections and their receive deadlines */
	struct api_auth auth;	/* who may write here */
};

struct api {
	struct listener l[API_MAX_LISTENERS];
	int n;
	char *unix_path;
	bool stopping;		/* api_stopping(): writes are 503 stopping */
	uint64_t events_ns;	/* last GET /v1/events arrived (CLOCK_MONOTONIC), 0: none */
};

/* Per-request state: made in req_begin(), freed in req_done(). */
struct req {
	char *path;		/* raw path of the request-target, percent-encoded */
	size_t uri_len;		/* bytes in the whole request-target, query included */
	char *seg[API_PATH_MAX_SEGS];
	int nseg;
	const char *arg[API_MAX_ARGS];
	const struct api_route *route;
	bool started, too_large, has_body;
	char *body;
	size_t len, cap, discarded;
};

/*
 * Whether a body of @len bytes over the limit is read and dropped before the 413 (true), or
 * answered at once (false). Answering with the body unread makes the close send a TCP reset
 * that can reach the client before the 413 does; a client that waits for "100 Continue"
 * (RFC 9110 10.1.1) sends nothing and can be answered at once, and more than
 * API_DISCARD_MAX_BYTES is not worth reading.
 */
static bool body_drainable(struct MHD_Connection *c, uint64_t len)
{
	const char *expect = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_EXPECT);

	if (expect && !strcasecmp(expect, "100-continue"))
		return false;
	return len - VQ_API_BODY_MAX_BYTES <= API_DISCARD_MAX_BYTES;
}

/* First call for a request: route, permission and body headers, before any body is read. */
static enum MHD_Result req_first(const struct listener *l, struct MHD_Connection *c,
				 struct req *r, const char *method, const char *version)
{
	char allow[API_ALLOW_MAX_BYTES];
	const char *cl, *te;
	enum MHD_Result ret;
	uint64_t len = 0;
	int err;

	r->started = true;
	if (r->uri_len > VQ_API_URI_MAX_BYTES)
		return api_reply_err(c, MHD_HTTP_URI_TOO_LONG, VQ_ERR_URI_TOO_LONG,
				     "request-target is %zu bytes, longer than the limit of %d",
				     r->uri_len, VQ_API_URI_MAX_BYTES);
	if (api_auth_check_headers(c, version, &ret))
		return ret;
	err = http_path_split(r->path, r->seg, API_PATH_MAX_SEGS);
	if (err > 0) {
		r->nseg = err;
		err = 0;
	}
	if (err == -EINVAL)
		return api_reply_err(c, MHD_HTTP_BAD_REQUEST, VQ_ERR_BAD_REQUEST,
				     "malformed percent-encoding in the path");
	if (err == -EILSEQ)
		return api_reply_err(c, MHD_HTTP_BAD_REQUEST, VQ_ERR_BAD_REQUEST,
				     "percent-encoded NUL (%%00) in the path");
	r->route = err ? NULL : api_route_find(r->seg, r->nseg, r->arg, method, allow,
						      sizeof(allow));
	if (!r->route && !err && allow[0])
		return api_reply_err_hdr(c, MHD_HTTP_METHOD_NOT_ALLOWED, MHD_HTTP_HEADER_ALLOW,
					 allow, VQ_ERR_METHOD_NOT_ALLOWED,
					 "method %s not allowed here; allowed: %s", method, allow);
	if (!r->route)
		return api_reply_err(c, MHD_HTTP_NOT_FOUND, VQ_ERR_NOT_FOUND, "no such route");
	if (api_route_is_write(r->route) && api_auth_check_write(&l->auth, c, &ret))
		return ret;
	if (api_route_is_write(r->route) && l->api->stopping)
		return api_reply_err(c, MHD_HTTP_SERVICE_UNAVAILABLE, VQ_ERR_STOPPING,
				     "vqtuned is stopping: its knobs are restored, it takes no "
				     "more writes");
	if (r->route->id == R_EVENTS)
		l->api->events_ns = util_now_ns(CLOCK_MONOTONIC);

	cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	te = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
					 MHD_HTTP_HEADER_TRANSFER_ENCODING);
	if (cl && (http_parse_u64(cl, &len) || (len > VQ_API_BODY_MAX_BYTES &&
						 !body_drainable(c, len))))
		return api_reply_err(c, MHD_HTTP_CONTENT_TOO_LARGE, VQ_ERR_PAYLOAD_TOO_LARGE,
				     "request body is larger than %d bytes", VQ_API_BODY_MAX_BYTES);
	if (len > VQ_API_BODY_MAX_BYTES) {
		/* read and drop it (req_data), then answer 413 from req_finish */
		r->too_large = r->has_body = true;
		return MHD_YES;
	}
	r->has_body = len > 0 || te;
	if (r->has_body && !http_ctype_is_json(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						MHD_HTTP_HEADER_CONTENT_TYPE)))
		return api_reply_err(c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, VQ_ERR_UNSUPPORTED_MEDIA,
				     "request body must be Content-Type: %s", API_CT_JSON);
	return MHD_YES;
}

/* A chunk of body. The cap also holds for chunked bodies with no Content-Length. */
static enum MHD_Result req_data(struct req *r, const char *data, size_t size)
{
	size_t cap;
	char *nb;

	if (!r->too_large && r->len + size > VQ_API_BODY_MAX_BYTES) {
		r->too_large = true;
		free(r->body);
		r->body = NULL;
		r->len = r->cap = 0;
	}
	if (r->too_large) {
		r->discarded += size;
		return r->discarded > API_DISCARD_MAX_BYTES ? MHD_NO : MHD_YES;
	}
	if (r->len + size > r->cap) {
		cap = r->cap ? r->cap : size;
		while (cap < r->len + size)
			cap *= 2;
		if (cap > VQ_API_BODY_MAX_BYTES)
			cap = VQ_API_BODY_MAX_BYTES;
		nb = realloc(r->body, cap);
		if (!nb)
			return MHD_NO;
		r->body = nb;
		r->cap = cap;
	}
	memcpy(r->body + r->len, data, size);
	r->len += size;
	return MHD_YES;
}

/* Whole body read: parse it, call the route, queue its reply. */
static enum MHD_Result req_finish(struct MHD_Connection *c, struct req *r)
{
	struct api_reply rep = { .status = MHD_HTTP_INTERNAL_SERVER_ERROR, .ctype = API_CT_JSON };
	json_t *body = NULL;
	json_error_t jerr;

	api_conn_received(c);
	if (r->too_large)
		return api_reply_err(c, MHD_HTTP_CONTENT_TOO_LARGE, VQ_ERR_PAYLOAD_TOO_LARGE,
				     "request body is larger than %d bytes", VQ_API_BODY_MAX_BYTES);
	if (r->len) {
		if (!http_json_depth_ok(r->body, r->len, VQ_API_JSON_MAX_DEPTH))
			return api_reply_err(c, MHD_HTTP_BAD_REQUEST, VQ_ERR_INVALID_JSON,
					     "JSON nesting is deeper than the limit of %d",
					     VQ_API_JSON_MAX_DEPTH);
		body = apierr_json_loadb(r->body, r->len, JSON_REJECT_DUPLICATES, &jerr);
		if (!body) {
			json_t *err;
			int st = apierr_json_parse(r->body, r->len, &jerr, &err);

			return api_reply_json(c, st, err, NULL, NULL);
		}
		if (!json_is_object(body)) {
			json_decref(body);
			return api_reply_err(c, MHD_HTTP_BAD_REQUEST, VQ_ERR_INVALID_JSON,
					     "request body must be a JSON object");
		}
	} else if (r->route->body == BODY_REQUIRED) {
		return api_reply_err(c, MHD_HTTP_BAD_REQUEST, VQ_ERR_INVALID_JSON,
				     "body is empty: this request needs a JSON object");
	}
	api_route_call(r->route, r->arg, c, body, r->body, r->len, &rep);
	json_decref(body);
	if (rep.text)
		return api_reply_buf(c, rep.status, rep.ctype, rep.text, rep.text_len, NULL, NULL);
	if (!rep.json || rep.status < API_STATUS_MIN || rep.status > API_STATUS_MAX) {
		json_decref(rep.json);
		log_err("api: %s handler gave no reply (status %d)", r->route->method,
			rep.status);
		return api_reply_err(c, MHD_HTTP_INTERNAL_SERVER_ERROR, VQ_ERR_INTERNAL,
				     "no reply");
	}
	return api_reply_json(c, rep.status, rep.json, NULL, NULL);
}

static enum MHD_Result req_access(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_data_size,
				  void **con_cls)
{
	struct req *r = *con_cls;

	(void)url;
	if (!r || !r->path || !method)
		return MHD_NO;
	if (!r->started)
		return req_first(cls, c, r, method, version);
	if (*upload_data_size) {
		enum MHD_Result ret = req_data(r, upload_data, *upload_data_size);

		*upload_data_size = 0;
		return ret;
	}
	return req_finish(c, r);
}

/* MHD's URI log callback: the one place that sees the request-target before decoding. */
static void *req_begin(void *cls, const char *uri, struct MHD_Connection *c)
{
	struct req *r = calloc(1, sizeof(*r));
	const char *auth;

	(void)cls;
	(void)c;
	if (!r || !uri)
		return r;
	r->uri_len = strlen(uri);
	/* absolute-form request-target (RFC 9112 3.2.2): route on its path */
	auth = strstr(uri, "://");
	if (uri[0] != '/' && auth) {
		uri = strpbrk(auth + strlen("://"), "/?#");
		if (!uri || uri[0] != '/')
			uri = "/";
	}
	r->path = strndup(uri, strcspn(uri, "?#"));
	return r;
}

static void req_done(void *cls, struct MHD_Connection *c, void **con_cls,
		     enum MHD_RequestTerminationCode toe)
{
	struct req *r = *con_cls;

	(void)cls;
	(void)toe;
	api_conn_idle(c);
	if (!r)
		return;
	free(r->path);
	free(r->body);
	free(r);
	*con_cls = NULL;
}

static void __attribute__((format(printf, 2, 0))) mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[API_LOG_MAX_BYTES];
	size_t n;

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	while (n && msg[n - 1] == '\n')
		msg[--n] = '\0';
	log_warn("http: %s", msg);
}

/* ---- listeners ---- */

/* Hand @fd to a new MHD daemon; on failure @fd is closed. */
static int listener_start(struct listener *l, int fd)
{
	/* the logger goes first so MHD's messages about later options reach log.h too */
	l->mhd = MHD_start_daemon(MHD_USE_EPOLL | MHD_USE_ERROR_LOG, 0, NULL, NULL,
				  req_access, l,
				  MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				  MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
				  MHD_OPTION_CONNECTION_LIMIT, (unsigned int)API_CONN_LIMIT,
				  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)API_CONN_TIMEOUT_S,
				  MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)API_CONN_MEMORY_BYTES,
				  MHD_OPTION_URI_LOG_CALLBACK, req_begin, NULL,
				  MHD_OPTION_NOTIFY_COMPLETED, req_done, NULL,
				  MHD_OPTION_NOTIFY_CONNECTION, api_conn_notify, &l->conns,
				  MHD_OPTION_END);
	if (!l->mhd) {
		close(fd);
		return -EIO;
	}
	return 0;
}

static int api_start_tcp(struct api *a, const struct api_config *cfg)
{
	struct listener *l = &a->l[a->n];
	int fd, err;

	if (cfg->token_file) {
		err = api_auth_load_token(&l->auth, cfg->token_file);
		if (err)
			return err;
	}
	fd = api_sock_listen_tcp(cfg->tcp_addr);
	if (fd < 0) {
		log_err("api: listen on %s: %s", cfg->tcp_addr, strerror(-fd));
		return fd;
	}
	err = listener_start(l, fd);
	if (err) {
		log_err("api: cannot start HTTP server on %s", cfg->tcp_addr);
		return err;
	}
	a->n++;
	return 0;
}

int api_start(const struct api_config *cfg, struct api **out)
{
	struct api *a = calloc(1, sizeof(*a));
	int fd, err, i;

	if (!a) {
		log_err("api: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (i = 0; i < API_MAX_LISTENERS; i++)
		a->l[i].api = a;
	if (cfg->unix_path) {
		fd = api_sock_listen_unix(cfg->unix_path, cfg->unix_mode);
		if (fd < 0) {
			err = fd;
			log_err("api: unix socket %s: %s", cfg->unix_path, strerror(-err));
			goto err_stop;
		}
		/* from here api_stop() unlinks the socket file */
		a->unix_path = strdup(cfg->unix_path);
		if (!a->unix_path) {
			close(fd);
			unlink(cfg->unix_path);
			err = -ENOMEM;
			log_err("api: unix socket %s: %s", cfg->unix_path, strerror(-err));
			goto err_stop;
		}
		a->l[a->n].auth.write_ok = true;
		err = listener_start(&a->l[a->n], fd);
		if (err) {
			log_err("api: cannot start HTTP server on %s", cfg->unix_path);
			goto err_stop;
		}
		a->n++;
	}
	if (cfg->tcp_addr) {
		err = api_start_tcp(a, cfg);
		if (err)
			goto err_stop;
	}
	*out = a;
	return 0;
err_stop:
	api_stop(a);
	return err;
}

void api_stop(struct api *a)
{
	int i;

	if (!a)
		return;
	for (i = 0; i < API_MAX_LISTENERS; i++) {
		if (a->l[i].mhd)
			MHD_stop_daemon(a->l[i].mhd);
		api_conn_free_all(&a->l[i].conns);
		api_auth_free(&a->l[i].auth);
	}
	if (a->unix_path)
		unlink(a->unix_path);
	free(a->unix_path);
	free(a);
}

void api_stopping(struct api *a)
{
	if (a)
		a->stopping = true;
}

uint64_t api_events_ns(const struct api *a)
{
	return a ? a->events_ns : 0;
}

int api_fds(struct api *a, int *fds, int max)
{
	const union MHD_DaemonInfo *di;
	int i, n = 0;

	for (i = 0; i < a->n && n < max; i++) {
		di = MHD_get_daemon_info(a->l[i].mhd, MHD_DAEMON_INFO_EPOLL_FD);
		if (di)
			fds[n++] = di->epoll_fd;
	}
	return n;
}

void api_run(struct api *a)
{
	uint64_t now = util_now_ns(CLOCK_MONOTONIC);
	MHD_UNSIGNED_LONG_LONG ms;
	unsigned int cut;
	int i, pass;

	for (i = 0; i < a->n; i++) {
		cut = api_conn_reap(&a->l[i].conns, now, API_REQ_DEADLINE_S * NSEC_PER_SEC);
		if (cut)
			log_warn("api: closed %u connection(s) that sent no whole request within "
				 "%d s (%u open)", cut, API_REQ_DEADLINE_S, a->l[i].conns.n);
		for (pass = 0; pass < API_RUN_MAX_PASSES; pass++) {
			MHD_run(a->l[i].mhd);
			/* a zero timeout means MHD still has ready connections queued */
			if (MHD_get_timeout(a->l[i].mhd, &ms) != MHD_YES || ms)
				break;
		}
	}
}
