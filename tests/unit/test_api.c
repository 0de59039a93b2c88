// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_api: the HTTP layer end to end. Two api instances run in this thread: A on a unix
 * socket (writes allowed) plus a read-only TCP listener, B on TCP with a bearer token. libcurl
 * drives them through one loop that alternates curl_multi_poll() (with the api epoll fds as
 * extra fds) and api_run(), so no threads are needed. view.h is tests/unit/fake_view.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>
#include <curl/curl.h>
#include <jansson.h>

#include "api.h"
#include "vqtune_api.h"

extern char fake_dev[], fake_knob[], fake_queue[], fake_napi_id[], fake_body[], fake_route[];
extern int fake_pause, fake_calls;
extern uint64_t fake_since;
extern unsigned int fake_limit;

/* Reply bytes kept; the largest reply here is an error object or the fake metrics. */
#define RESP_BODY_MAX_BYTES	8192
#define RESP_HDRS_MAX_BYTES	4096
/* Poll slice and the most slices one request may take: a hang fails, it does not block. */
#define LOOP_POLL_MS		20
#define LOOP_MAX_SLICES		1500
/* Over VQ_API_BODY_MAX_BYTES (64 KiB) by a margin that no rounding hides. */
#define BIG_BODY_BYTES		(70 * 1024)
/* Far past VQ_API_JSON_MAX_DEPTH and past jansson's own limit of 2048. */
#define DEEP_NESTING		3000
#define TOKEN			"s3cret-token"

enum via { VIA_UNIX, VIA_TCP_RO, VIA_TCP_TOKEN };

struct rq {
	const char *method, *path;
	enum via via;
	const char *ctype;	/* NULL: no Content-Type header */
	const char *body;	/* NULL: no body */
	size_t body_len;	/* 0: strlen(body) */
	int chunked;		/* send the body chunked, without Content-Length */
	const char *auth;	/* Authorization header value or NULL */
	const char *auth2;	/* a second Authorization field line ("Name: value") or NULL */
};

struct resp {
	long status;
	char body[RESP_BODY_MAX_BYTES];
	size_t len;
	char hdrs[RESP_HDRS_MAX_BYTES];
	size_t hlen;
};

struct upload {
	const char *p;
	size_t left;
};

static char tmpdir[64], sock_path[128], token_path[128];
static char addr_ro[32], addr_tok[32];
static struct api *api_a, *api_b;

static size_t keep(char *dst, size_t cap, size_t *len, const char *p, size_t n)
{
	size_t k = n < cap - 1 - *len ? n : cap - 1 - *len;

	memcpy(dst + *len, p, k);
	*len += k;
	dst[*len] = '\0';
	return n;
}

static size_t on_body(char *p, size_t sz, size_t n, void *ud)
{
	struct resp *r = ud;

	return keep(r->body, sizeof(r->body), &r->len, p, sz * n);
}

static size_t on_hdr(char *p, size_t sz, size_t n, void *ud)
{
	struct resp *r = ud;

	return keep(r->hdrs, sizeof(r->hdrs), &r->hlen, p, sz * n);
}

static size_t on_read(char *p, size_t sz, size_t n, void *ud)
{
	struct upload *u = ud;
	size_t k = sz * n < u->left ? sz * n : u->left;

	memcpy(p, u->p, k);
	u->p += k;
	u->left -= k;
	return k;
}

/* Run curl and both servers until @e completes; returns the curl result. */
static CURLcode run_until_done(CURLM *m)
{
	struct curl_waitfd w[4];
	int fds[4], i, n, slice, running = 1;
	CURLMsg *msg;

	for (slice = 0; slice < LOOP_MAX_SLICES && running; slice++) {
		curl_multi_perform(m, &running);
		if (!running)
			break;
		n = api_fds(api_a, fds, 2);
		n += api_fds(api_b, fds + n, 2);
		for (i = 0; i < n; i++)
			w[i] = (struct curl_waitfd){ .fd = fds[i], .events = CURL_WAIT_POLLIN };
		curl_multi_poll(m, w, (unsigned int)n, LOOP_POLL_MS, NULL);
		api_run(api_a);
		api_run(api_b);
	}
	msg = curl_multi_info_read(m, &i);
	return msg && msg->msg == CURLMSG_DONE ? msg->data.result : CURLE_OPERATION_TIMEDOUT;
}

static long http(const struct rq *q, struct resp *r)
{
	struct upload up = { q->body, q->body ? (q->body_len ? q->body_len : strlen(q->body)) : 0 };
	struct curl_slist *h = NULL;
	char url[512], hv[256];
	CURL *e = curl_easy_init();
	CURLM *m = curl_multi_init();
	CURLcode rc;

	memset(r, 0, sizeof(*r));
	snprintf(url, sizeof(url), "http://%s%s",
		 q->via == VIA_UNIX ? "localhost" : q->via == VIA_TCP_RO ? addr_ro : addr_tok,
		 q->path);
	curl_easy_setopt(e, CURLOPT_URL, url);
	if (q->via == VIA_UNIX)
		curl_easy_setopt(e, CURLOPT_UNIX_SOCKET_PATH, sock_path);
	curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, q->method);
	if (!strcmp(q->method, "HEAD"))
		curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
	snprintf(hv, sizeof(hv), "Content-Type: %s", q->ctype ? q->ctype : "");
	h = curl_slist_append(h, q->ctype ? hv : "Content-Type:");
	if (q->auth) {
		snprintf(hv, sizeof(hv), "Authorization: %s", q->auth);
		h = curl_slist_append(h, hv);
	}
	/* curl sends every slist entry as its own field line, duplicates included */
	if (q->auth2)
		h = curl_slist_append(h, q->auth2);
	if (q->chunked) {
		curl_easy_setopt(e, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(e, CURLOPT_READFUNCTION, on_read);
		curl_easy_setopt(e, CURLOPT_READDATA, &up);
	} else if (q->body) {
		curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, (long)up.left);
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, q->body);
	}
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_hdr);
	curl_easy_setopt(e, CURLOPT_HEADERDATA, r);
	curl_multi_add_handle(m, e);
	rc = run_until_done(m);
	if (rc == CURLE_OK)
		curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &r->status);
	else
		print_error("curl %s %s: %s\n", q->method, q->path, curl_easy_strerror(rc));
	curl_multi_remove_handle(m, e);
	curl_easy_cleanup(e);
	curl_multi_cleanup(m);
	curl_slist_free_all(h);
	return rc == CURLE_OK ? r->status : -1;
}

static long get(enum via via, const char *path, struct resp *r)
{
	struct rq q = { .method = "GET", .path = path, .via = via };

	return http(&q, r);
}

/* The server still answers after whatever came before. */
static void assert_alive(void)
{
	struct resp r;

	assert_int_equal(get(VIA_UNIX, "/healthz", &r), 200);
	assert_string_equal(r.body, "ok\n");
	assert_int_equal(get(VIA_TCP_RO, "/healthz", &r), 200);
}

/* @r's body is {"error":{"code":@code,...}} with "field" @field (NULL: absent). */
static void assert_error(const struct resp *r, const char *code, const char *field,
			 const char *msg_part)
{
	json_t *j = json_loads(r->body, 0, NULL), *e = json_object_get(j, "error");
	const char *f = json_string_value(json_object_get(e, "field"));
	const char *msg = json_string_value(json_object_get(e, "message"));

	assert_non_null(e);
	assert_string_equal(json_string_value(json_object_get(e, "code")), code);
	if (field)
		assert_string_equal(f, field);
	else
		assert_null(f);
	assert_non_null(msg);
	if (msg_part && !strstr(msg, msg_part))
		fail_msg("message \"%s\" lacks \"%s\"", msg, msg_part);
	assert_non_null(strstr(r->hdrs, "Content-Type: application/json"));
	json_decref(j);
}

static int free_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &sl), 0);
	port = ntohs(sa.sin_port);
	close(fd);
	return port;
}

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(s, f);
	fclose(f);
}

static int setup(void **state)
{
	struct api_config a = { .unix_mode = 0660 }, b = { 0 };

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/vqtune-test-api.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(sock_path, sizeof(sock_path), "%s/api.sock", tmpdir);
	snprintf(token_path, sizeof(token_path), "%s/token", tmpdir);
	write_file(token_path, TOKEN "\n");
	/* owner-only, as documented: an open token file draws a warning (test_token_mode) */
	if (chmod(token_path, 0600))
		return -1;
	snprintf(addr_ro, sizeof(addr_ro), "127.0.0.1:%d", free_port());
	snprintf(addr_tok, sizeof(addr_tok), "127.0.0.1:%d", free_port());
	a.unix_path = sock_path;
	a.tcp_addr = addr_ro;
	b.tcp_addr = addr_tok;
	b.token_file = token_path;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (api_start(&a, &api_a) || api_start(&b, &api_b))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char path[160];

	api_stop(api_a);
	api_stop(api_b);
	curl_global_cleanup();
	/* api_stop() unlinked the socket; the token file and dir are ours */
	unlink(token_path);
	snprintf(path, sizeof(path), "%s/other.sock", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/plain", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/empty", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/stderr", tmpdir);
	unlink(path);
	return rmdir(tmpdir);
}

/* {"a":[[...@inner...]]} with @arrays arrays: nesting depth @arrays + 1. */
static char *nested(int arrays, const char *inner)
{
	size_t n = strlen(inner);
	char *s = malloc(2 * (size_t)arrays + n + 8), *p = s;

	assert_non_null(s);
	p += sprintf(p, "{\"a\":");
	memset(p, '[', (size_t)arrays);
	p += arrays;
	memcpy(p, inner, n);
	p += n;
	memset(p, ']', (size_t)arrays);
	p += arrays;
	strcpy(p, "}");
	return s;
}

static void test_get_routes(void **state)
{
	static const struct { const char *path, *route; } t[] = {
		{ "/v1/status", "status" }, { "/v1/devices", "devices" },
		{ "/v1/devices/eth0", "device" }, { "/v1/devices/eth0/queues", "queues" },
		{ "/v1/policy", "policy_get" }, { "/v1/events", "events" },
	};
	enum via via;
	struct resp r;
	size_t i;

	for (via = VIA_UNIX; via <= VIA_TCP_RO; via++) {
		for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			assert_int_equal(get(via, t[i].path, &r), 200);
			assert_string_equal(fake_route, t[i].route);
			assert_non_null(strstr(r.hdrs, "Content-Type: application/json"));
			assert_true(r.len > 0 && r.body[0] == '{');
		}
	}
	assert_int_equal(get(VIA_UNIX, "/v1/status", &r), 200);
	assert_string_equal(r.body, "{\"version\":\"" VQ_VERSION "\"}");
	assert_int_equal(get(VIA_UNIX, "/v1/devices/eth0", &r), 200);
	assert_string_equal(fake_dev, "eth0");
	/* the default event window (docs/api.md) */
	assert_int_equal(fake_since, 0);
	assert_int_equal(fake_limit, 1000);

	assert_int_equal(get(VIA_TCP_RO, "/metrics", &r), 200);
	assert_non_null(strstr(r.hdrs,
			       "Content-Type: text/plain; version=0.0.4; charset=utf-8"));
	assert_string_equal(r.body, "# TYPE vqtune_up gauge\nvqtune_up 1\n");
	assert_int_equal(get(VIA_TCP_RO, "/healthz", &r), 200);
	assert_string_equal(r.body, "ok\n");
	/* a view's own error status passes through */
	assert_int_equal(get(VIA_UNIX, "/v1/devices/missing", &r), 404);
	assert_error(&r, "not_found", NULL, "missing");
}

static void test_events_params(void **state)
{
	/* as a release's ?queue= (rv_query_uint()): status, code and the whole message */
	static const struct { const char *q, *field; long status; const char *code, *msg; } bad[] = {
		{ "since=abc", "since", 400, "invalid_field",
		  "since: must be an integer 0..9223372036854775807" },
		{ "since=1.5", "since", 400, "invalid_field",
		  "since: must be an integer 0..9223372036854775807" },
		{ "since=", "since", 400, "invalid_field",
		  "since: must be an integer 0..9223372036854775807" },
		{ "since=-1", "since", 422, "out_of_range", "since: -1 is negative" },
		{ "since=9223372036854775808", "since", 422, "out_of_range",
		  "since: 9223372036854775808 is above the maximum 9223372036854775807" },
		{ "since=18446744073709551615", "since", 422, "out_of_range",
		  "since: 18446744073709551615 is above the maximum 9223372036854775807" },
		{ "since=18446744073709551616", "since", 422, "out_of_range",
		  "since: 18446744073709551616 is above the maximum 9223372036854775807" },
		{ "limit=", "limit", 400, "invalid_field", "limit: must be an integer 1..10000" },
		{ "limit=1e3", "limit", 400, "invalid_field", "limit: must be an integer 1..10000" },
		{ "limit=0", "limit", 422, "out_of_range", "limit: 0 is below the minimum 1" },
		{ "limit=10001", "limit", 422, "out_of_range",
		  "limit: 10001 is above the maximum 10000" },
		{ "limit=-5", "limit", 422, "out_of_range", "limit: -5 is negative" },
	};
	char path[128];
	struct resp r;
	size_t i;

	/* event ids are JSON integers (signed 64-bit): the largest since there is INT64_MAX */
	assert_int_equal(get(VIA_UNIX, "/v1/events?since=9223372036854775807&limit=10000", &r),
			 200);
	assert_true(fake_since == INT64_MAX);
	assert_int_equal(fake_limit, 10000);
	assert_int_equal(get(VIA_UNIX, "/v1/events?since=3&limit=1", &r), 200);
	assert_int_equal(fake_since, 3);
	assert_int_equal(fake_limit, 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *j;

		snprintf(path, sizeof(path), "/v1/events?%s", bad[i].q);
		assert_int_equal(get(VIA_UNIX, path, &r), bad[i].status);
		assert_error(&r, bad[i].code, bad[i].field, bad[i].msg);
		j = json_loads(r.body, 0, NULL);
		assert_string_equal(json_string_value(json_object_get(json_object_get(j, "error"),
								       "message")), bad[i].msg);
		json_decref(j);
	}
	/* a name without "=value" is not "absent": it would read every event from id 1 */
	assert_int_equal(get(VIA_UNIX, "/v1/events?since", &r), 400);
	assert_error(&r, "invalid_field", "since", "needs a value");
	assert_int_equal(get(VIA_UNIX, "/v1/events?limit", &r), 400);
	assert_error(&r, "invalid_field", "limit", "needs a value");
	assert_alive();
}

static void test_not_found_and_method(void **state)
{
	struct rq q = { .method = "POST", .path = "/v1/status", .via = VIA_UNIX };
	static const char *const missing[] = {
		"/", "/v1", "/v1/", "/v1/nope", "/v1/devices/", "/v1/devices//queues",
		"/v1/devices/eth0/queues/extra", "/v1/a/b/c/d/e/f/g/h/i/j", "/metricsx",
	};
	struct resp r;
	size_t i;

	for (i = 0; i < sizeof(missing) / sizeof(missing[0]); i++) {
		assert_int_equal(get(VIA_UNIX, missing[i], &r), 404);
		assert_error(&r, "not_found", NULL, NULL);
	}
	assert_int_equal(http(&q, &r), 405);
	assert_error(&r, "method_not_allowed", NULL, "POST");
	assert_non_null(strstr(r.hdrs, "Allow: GET, HEAD\r\n"));
	q.method = "GET";
	q.path = "/v1/devices/eth0/knobs/rx-usecs";
	assert_int_equal(http(&q, &r), 405);
	assert_non_null(strstr(r.hdrs, "Allow: PUT, DELETE\r\n"));
	q.method = "DELETE";
	q.path = "/v1/policy";
	assert_int_equal(http(&q, &r), 405);
	assert_non_null(strstr(r.hdrs, "Allow: GET, HEAD, PUT\r\n"));
	q.method = "HEAD";
	q.path = "/v1/status";
	assert_int_equal(http(&q, &r), 200);
	assert_int_equal(r.len, 0);
	assert_alive();
}

static void test_writes_unix(void **state)
{
	struct rq q = { .method = "PUT", .path = "/v1/devices/lab:veth1/knobs/gro-flush-timeout",
			.via = VIA_UNIX, .ctype = "application/json",
			.body = "{\"value\":20000,\"queue\":1}" };
	struct resp r;

	assert_int_equal(http(&q, &r), 200);
	assert_string_equal(fake_route, "knob_set");
	assert_string_equal(fake_dev, "lab:veth1");
	assert_string_equal(fake_knob, "gro-flush-timeout");
	assert_string_equal(fake_body, "{\"queue\":1,\"value\":20000}");
	/* media type parameters and case are fine (RFC 9110 8.3.1) */
	q.ctype = "Application/JSON; charset=utf-8";
	assert_int_equal(http(&q, &r), 200);
	q.method = "DELETE";
	q.path = "/v1/devices/veth1/knobs/rx-usecs?queue=3";
	q.body = NULL;
	assert_int_equal(http(&q, &r), 200);
	assert_string_equal(fake_route, "knob_release");
	assert_string_equal(fake_queue, "3");
	assert_string_equal(fake_napi_id, "(null)");
	q.path = "/v1/devices/veth1/knobs/rx-usecs?napi_id=8193&queue=1";
	assert_int_equal(http(&q, &r), 200);
	assert_string_equal(fake_queue, "1");
	assert_string_equal(fake_napi_id, "8193");
	q.path = "/v1/devices/veth1/knobs/rx-usecs";
	assert_int_equal(http(&q, &r), 200);
	assert_string_equal(fake_queue, "(null)");
	assert_string_equal(fake_napi_id, "(null)");
	q.method = "POST";
	q.path = "/v1/devices/veth1/pause";
	assert_int_equal(http(&q, &r), 200);
	assert_int_equal(fake_pause, 1);
	q.path = "/v1/devices/veth1/resume";
	assert_int_equal(http(&q, &r), 200);
	assert_int_equal(fake_pause, 0);
	q.path = "/v1/restore";
	assert_int_equal(http(&q, &r), 200);
	assert_string_equal(fake_route, "restore");
	q.method = "PUT";
	q.path = "/v1/policy";
	q.body = "{\"name\":\"x\",\"mode\":\"advise\"}";
	assert_int_equal(http(&q, &r), 200);
	assert_string_equal(fake_body, "{\"mode\":\"advise\",\"name\":\"x\"}");
}

static void test_body_limits(void **state)
{
	struct rq q = { .method = "PUT", .path = "/v1/policy", .via = VIA_UNIX,
			.ctype = "application/json" };
	char *big = malloc(BIG_BODY_BYTES + 1), *deep;
	struct resp r;
	int calls;

	assert_non_null(big);
	memset(big, ' ', BIG_BODY_BYTES);
	big[0] = '{';
	big[BIG_BODY_BYTES - 1] = '}';
	big[BIG_BODY_BYTES] = '\0';
	calls = fake_calls;
	q.body = big;
	assert_int_equal(http(&q, &r), 413);
	assert_error(&r, "payload_too_large", NULL, "65536");
	assert_alive();
	/* no Content-Length: the cap holds on the streamed size */
	q.chunked = 1;
	assert_int_equal(http(&q, &r), 413);
	assert_error(&r, "payload_too_large", NULL, NULL);
	assert_alive();
	q.chunked = 0;
	free(big);

	q.body = "{\"name\":\"x\"}";
	q.ctype = "text/plain";
	assert_int_equal(http(&q, &r), 415);
	assert_error(&r, "unsupported_media_type", NULL, "application/json");
	q.ctype = NULL;
	assert_int_equal(http(&q, &r), 415);
	q.ctype = "application/jsonx";
	assert_int_equal(http(&q, &r), 415);
	assert_alive();

	q.ctype = "application/json";
	deep = nested(DEEP_NESTING, "");
	q.body = deep;
	assert_int_equal(http(&q, &r), 400);
	assert_error(&r, "invalid_json", NULL, "32");
	free(deep);
	/* the object plus 31 arrays is exactly the limit; brackets in strings do not count */
	deep = nested(VQ_API_JSON_MAX_DEPTH - 1, "\"[[{\\\"[[\"");
	q.body = deep;
	assert_int_equal(http(&q, &r), 200);
	free(deep);
	deep = nested(VQ_API_JSON_MAX_DEPTH, "");
	q.body = deep;
	assert_int_equal(http(&q, &r), 400);
	assert_error(&r, "invalid_json", NULL, "32");
	free(deep);

	q.body = "[1]";
	assert_int_equal(http(&q, &r), 400);
	assert_error(&r, "invalid_json", NULL, "object");
	q.body = "{\"a\":1,\"a\":2}";
	assert_int_equal(http(&q, &r), 400);
	assert_error(&r, "invalid_json", NULL, "duplicate");
	q.body = "{\"a\":";
	assert_int_equal(http(&q, &r), 400);
	assert_error(&r, "invalid_json", NULL, NULL);
	q.body = NULL;
	assert_int_equal(http(&q, &r), 400);
	assert_error(&r, "invalid_json", NULL, "body");
	/* none of the refused bodies reached the view */
	assert_int_equal(fake_calls, calls + 1);
	assert_alive();
}

static void test_tcp_read_only(void **state)
{
	static const char *const methods[] = { "PUT", "DELETE", "POST" };
	static const char *const paths[] = { "/v1/devices/veth1/knobs/rx-usecs",
		"/v1/devices/veth1/knobs/rx-usecs", "/v1/restore" };
	struct rq q = { .via = VIA_TCP_RO, .ctype = "application/json", .body = "{\"value\":1}",
			.auth = "Bearer " TOKEN };
	struct resp r;
	int calls = fake_calls;
	size_t i;

	for (i = 0; i < 3; i++) {
		q.method = methods[i];
		q.path = paths[i];
		assert_int_equal(http(&q, &r), 403);
		assert_error(&r, "forbidden", NULL, "read-only");
	}
	assert_int_equal(fake_calls, calls);
	assert_alive();
}

static void test_tcp_token(void **state)
{
	static const char *const bad[] = { NULL, "Bearer wrong", "Bearer " TOKEN "x",
		"Bearer s3cret-toke", "Basic " TOKEN, "Bearer ", TOKEN };
	struct rq q = { .method = "POST", .path = "/v1/devices/veth1/pause",
			.via = VIA_TCP_TOKEN };
	struct resp r;
	int calls = fake_calls;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		q.auth = bad[i];
		assert_int_equal(http(&q, &r), 401);
		assert_error(&r, "unauthorized", NULL, NULL);
		assert_non_null(strstr(r.hdrs, "WWW-Authenticate: Bearer realm=\"vqtuned\""));
	}
	assert_int_equal(fake_calls, calls);
	q.auth = "Bearer " TOKEN;
	fake_pause = -1;
	assert_int_equal(http(&q, &r), 200);
	assert_int_equal(fake_pause, 1);
	/* the scheme is case-insensitive (RFC 9110 11.1) */
	q.auth = "bearer " TOKEN;
	assert_int_equal(http(&q, &r), 200);
	/* reads need no token */
	assert_int_equal(get(VIA_TCP_TOKEN, "/v1/status", &r), 200);
	assert_alive();
}

/*
 * Authorization is a singleton field (RFC 9110 5.3, 11.6.2): two field lines are refused
 * whichever one holds the right token, on reads and on every listener, before the view.
 */
static void test_auth_header_twice(void **state)
{
	static const struct { const char *first, *second; } t[] = {
		{ "Bearer " TOKEN, "Authorization: Bearer " TOKEN },
		{ "Bearer " TOKEN, "Authorization: Bearer wrong" },
		{ "Bearer wrong", "Authorization: Bearer " TOKEN },
		/* field names are case-insensitive (RFC 9110 5.1) */
		{ "Bearer " TOKEN, "authorization: Bearer " TOKEN },
	};
	struct rq q = { .method = "POST", .path = "/v1/devices/veth1/pause",
			.via = VIA_TCP_TOKEN };
	struct resp r;
	int calls = fake_calls;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		q.auth = t[i].first;
		q.auth2 = t[i].second;
		assert_int_equal(http(&q, &r), 400);
		assert_error(&r, "bad_request", NULL, "2 Authorization headers");
		assert_null(strstr(r.hdrs, "WWW-Authenticate"));
	}
	q = (struct rq){ .method = "GET", .path = "/v1/status", .via = VIA_UNIX,
			 .auth = "Bearer a", .auth2 = "Authorization: Bearer b" };
	assert_int_equal(http(&q, &r), 400);
	assert_error(&r, "bad_request", NULL, "singleton");
	assert_int_equal(fake_calls, calls);
	/* one field line still works as before */
	q = (struct rq){ .method = "POST", .path = "/v1/devices/veth1/pause",
			 .via = VIA_TCP_TOKEN, .auth = "Bearer " TOKEN };
	fake_pause = -1;
	assert_int_equal(http(&q, &r), 200);
	assert_int_equal(fake_pause, 1);
	assert_alive();
}

static void test_path_decoding(void **state)
{
	struct rq q = { .method = "PUT", .path = "/v1/devices/a%2Fknobs%2Fb/knobs/c%2Fd",
			.via = VIA_UNIX, .ctype = "application/json", .body = "{\"value\":1}" };
	static const char *const bad[] = { "/v1/devices/%G1", "/v1/devices/ab%2",
		"/v1/devices/ab%" };
	static const char *const nul[] = { "/v1/devices/ve%00x", "/v1/devices/%00",
		"/v1/%00/eth0" };
	struct resp r;
	size_t i;

	assert_int_equal(get(VIA_UNIX, "/v1/devices/ve%FF0", &r), 200);
	assert_string_equal(fake_route, "device");
	assert_int_equal(strlen(fake_dev), 4);
	assert_memory_equal(fake_dev, "ve\xff" "0", 4);
	/* the reply shows the name in display form */
	assert_non_null(strstr(r.body, "\"name\":\"ve\\\\xff0\""));
	assert_int_equal(get(VIA_UNIX, "/v1/devices/ns%3Aeth%200", &r), 200);
	assert_string_equal(fake_dev, "ns:eth 0");
	/* an encoded '/' stays inside its segment and cannot change the route */
	assert_int_equal(get(VIA_UNIX, "/v1/devices/eth0%2Fqueues", &r), 200);
	assert_string_equal(fake_route, "device");
	assert_string_equal(fake_dev, "eth0/queues");
	assert_int_equal(http(&q, &r), 200);
	assert_string_equal(fake_route, "knob_set");
	assert_string_equal(fake_dev, "a/knobs/b");
	assert_string_equal(fake_knob, "c/d");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(get(VIA_UNIX, bad[i], &r), 400);
		assert_error(&r, "bad_request", NULL, "malformed percent-encoding in the path");
	}
	/* "%00" is well-formed: the reply says what is wrong with it instead */
	for (i = 0; i < sizeof(nul) / sizeof(nul[0]); i++) {
		assert_int_equal(get(VIA_UNIX, nul[i], &r), 400);
		assert_error(&r, "bad_request", NULL, "percent-encoded NUL (%00) in the path");
	}
	assert_alive();
}

static void test_start_errors(void **state)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char plain[160], other[160], empty[160], addr[32];
	struct api_config c = { .unix_mode = 0600 };
	struct api *a = NULL;
	struct stat st;
	int fd;

	/* the unix socket got the mode asked for */
	assert_int_equal(stat(sock_path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0660);
	/* a live daemon's socket is not stolen */
	c.unix_path = sock_path;
	assert_int_equal(api_start(&c, &a), -EADDRINUSE);
	assert_int_equal(stat(sock_path, &st), 0);
	/* a file that is not a socket is left alone */
	snprintf(plain, sizeof(plain), "%s/plain", tmpdir);
	write_file(plain, "keep");
	c.unix_path = plain;
	assert_int_equal(api_start(&c, &a), -EEXIST);
	assert_int_equal(stat(plain, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	/* a stale socket (nobody listening) is replaced */
	snprintf(other, sizeof(other), "%s/other.sock", tmpdir);
	strcpy(sa.sun_path, other);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
	c.unix_path = other;
	assert_int_equal(api_start(&c, &a), 0);
	assert_int_equal(stat(other, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	api_stop(a);
	assert_int_equal(stat(other, &st), -1);
	/* a token file with no token (white space only) is an error at start, and nothing is
	 * left listening */
	snprintf(empty, sizeof(empty), "%s/empty", tmpdir);
	write_file(empty, " \t\r\n");
	snprintf(addr, sizeof(addr), "127.0.0.1:%d", free_port());
	c = (struct api_config){ .tcp_addr = addr, .token_file = empty };
	assert_int_equal(api_start(&c, &a), -ENODATA);
	c.token_file = NULL;
	c.tcp_addr = "127.0.0.1";
	assert_int_equal(api_start(&c, &a), -EINVAL);
	c.tcp_addr = "[::1:9477";
	assert_int_equal(api_start(&c, &a), -EINVAL);
	c.tcp_addr = "localhost:9477";
	assert_int_equal(api_start(&c, &a), -EINVAL);
	assert_alive();
}

/* Start a TCP listener with the token file at @mode; returns what it wrote to stderr. */
static char *start_with_token_mode(mode_t mode, char *out, size_t cap)
{
	struct api_config c = { .token_file = token_path };
	char addr[32], errpath[160];
	struct api *a = NULL;
	int fd, saved;
	ssize_t n;

	snprintf(addr, sizeof(addr), "127.0.0.1:%d", free_port());
	c.tcp_addr = addr;
	snprintf(errpath, sizeof(errpath), "%s/stderr", tmpdir);
	assert_int_equal(chmod(token_path, mode), 0);
	fd = open(errpath, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fd, STDERR_FILENO), STDERR_FILENO);
	/* the file is used either way: a loose mode warns, it does not refuse */
	assert_int_equal(api_start(&c, &a), 0);
	fflush(stderr);
	assert_int_equal(dup2(saved, STDERR_FILENO), STDERR_FILENO);
	close(saved);
	api_stop(a);
	n = pread(fd, out, cap - 1, 0);
	assert_true(n >= 0);
	out[n] = '\0';
	close(fd);
	return out;
}

static void test_token_mode(void **state)
{
	static const struct { mode_t mode; const char *shown; } open_modes[] = {
		{ 0644, "0644" }, { 0640, "0640" }, { 0604, "0604" }, { 0620, "0620" },
		{ 0602, "0602" }, { 0666, "0666" },
	};
	static const mode_t closed_modes[] = { 0600, 0400, 0700, 0611 };
	char out[RESP_BODY_MAX_BYTES], want[256];
	size_t i;

	for (i = 0; i < sizeof(open_modes) / sizeof(open_modes[0]); i++) {
		start_with_token_mode(open_modes[i].mode, out, sizeof(out));
		snprintf(want, sizeof(want), "<4>api: token file %s has mode %s: ", token_path,
			 open_modes[i].shown);
		if (!strstr(out, want))
			fail_msg("mode %s: stderr \"%s\" lacks \"%s\"", open_modes[i].shown, out,
				 want);
		assert_non_null(strstr(out, "chmod 600"));
	}
	/* owner-only read/write, or execute bits alone: nothing to say */
	for (i = 0; i < sizeof(closed_modes) / sizeof(closed_modes[0]); i++) {
		start_with_token_mode(closed_modes[i], out, sizeof(out));
		assert_string_equal(out, "");
	}
	assert_int_equal(chmod(token_path, 0600), 0);
	assert_alive();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get_routes),
		cmocka_unit_test(test_events_params),
		cmocka_unit_test(test_not_found_and_method),
		cmocka_unit_test(test_writes_unix),
		cmocka_unit_test(test_body_limits),
		cmocka_unit_test(test_tcp_read_only),
		cmocka_unit_test(test_tcp_token),
		cmocka_unit_test(test_auth_header_twice),
		cmocka_unit_test(test_path_decoding),
		cmocka_unit_test(test_start_errors),
		cmocka_unit_test(test_token_mode),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
