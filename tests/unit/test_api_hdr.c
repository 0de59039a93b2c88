// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_api_hdr: request header fields that libcurl will not send as they are written here
 * (no Host in HTTP/1.1, two Host or Content-Length field lines), so the requests are raw
 * bytes on the unix socket. One api instance runs in this thread; the client's socket is
 * non-blocking and the loop alternates poll(2) and api_run(). view.h is
 * tests/unit/fake_view.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "api.h"
#include "vqtune_api.h"

extern int fake_calls;

/* Reply bytes kept: an error object and its headers fit many times over. */
#define REPLY_MAX_BYTES		8192
/* Poll slice and the most slices one request may take: a hang fails, it does not block. */
#define LOOP_POLL_MS		20
#define LOOP_MAX_SLICES		500

static char tmpdir[64], sock_path[96];
static struct api *api;

struct reply {
	int status;
	char text[REPLY_MAX_BYTES];
	size_t len;
	json_t *body;		/* the JSON after the header section, or NULL */
};

/* Run the server until the client @fd reads EOF; the request asked to close the connection. */
static void pump(int fd, struct reply *r)
{
	struct pollfd p[3] = { { .fd = fd, .events = POLLIN } };
	int fds[2], n, i, slice;
	ssize_t k;

	for (slice = 0; slice < LOOP_MAX_SLICES; slice++) {
		n = api_fds(api, fds, 2);
		for (i = 0; i < n; i++)
			p[1 + i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
		poll(p, (nfds_t)(1 + n), LOOP_POLL_MS);
		api_run(api);
		k = read(fd, r->text + r->len, sizeof(r->text) - 1 - r->len);
		if (k == 0)
			return;
		if (k < 0 && errno != EAGAIN)
			fail_msg("read: %s", strerror(errno));
		if (k > 0)
			r->len += (size_t)k;
	}
	fail_msg("no reply within %d ms", LOOP_MAX_SLICES * LOOP_POLL_MS);
}

/* Send @req as it is and collect the reply: status, and the body when it is JSON. */
static void raw(const char *req, struct reply *r)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	const char *body;

	memset(r, 0, sizeof(*r));
	assert_true(fd >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock_path);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	pump(fd, r);
	close(fd);
	r->text[r->len] = '\0';
	assert_int_equal(sscanf(r->text, "HTTP/1.%*d %d", &r->status), 1);
	body = strstr(r->text, "\r\n\r\n");
	if (body)
		r->body = json_loads(body + 4, 0, NULL);
}

/* @r is a 400 bad_request about the header field @field whose message holds @part. */
static void assert_field_error(const struct reply *r, const char *field, const char *part)
{
	json_t *e = json_object_get(r->body, "error");
	const char *msg = json_string_value(json_object_get(e, "message"));

	assert_int_equal(r->status, 400);
	assert_non_null(strstr(r->text, "Content-Type: application/json"));
	assert_string_equal(json_string_value(json_object_get(e, "code")), "bad_request");
	assert_string_equal(json_string_value(json_object_get(e, "field")), field);
	assert_non_null(msg);
	if (!strstr(msg, part))
		fail_msg("message \"%s\" lacks \"%s\"", msg, part);
}

static int setup(void **state)
{
	struct api_config c = { .unix_mode = 0600 };

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/vqtune-test-api-hdr.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(sock_path, sizeof(sock_path), "%s/api.sock", tmpdir);
	c.unix_path = sock_path;
	return api_start(&c, &api);
}

static int teardown(void **state)
{
	api_stop(api);
	return rmdir(tmpdir);
}

/* RFC 9112 3.2: an HTTP/1.1 request without Host is 400, before any route runs. */
static void test_host_missing(void **state)
{
	struct reply r;
	int calls = fake_calls;

	raw("GET /v1/status HTTP/1.1\r\nConnection: close\r\n\r\n", &r);
	assert_field_error(&r, "Host", "no Host header: an HTTP/1.1 request must carry one");
	json_decref(r.body);
	/* a write is refused the same way and never reaches the view */
	raw("POST /v1/devices/veth1/pause HTTP/1.1\r\nConnection: close\r\n\r\n", &r);
	assert_field_error(&r, "Host", "no Host header");
	json_decref(r.body);
	assert_int_equal(fake_calls, calls);
}

/* HTTP/1.0 has no Host requirement; with Host, HTTP/1.1 is served as before. */
static void test_host_ok(void **state)
{
	struct reply r;

	raw("GET /v1/status HTTP/1.0\r\n\r\n", &r);
	assert_int_equal(r.status, 200);
	assert_non_null(json_object_get(r.body, "version"));
	json_decref(r.body);
	raw("GET /v1/status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", &r);
	assert_int_equal(r.status, 200);
	json_decref(r.body);
	/* the field name is case-insensitive (RFC 9110 5.1) */
	raw("GET /healthz HTTP/1.1\r\nhOsT: localhost\r\nConnection: close\r\n\r\n", &r);
	assert_int_equal(r.status, 200);
	assert_non_null(strstr(r.text, "\r\n\r\nok\n"));
}

/* More than one Host field line is 400 in any version (RFC 9112 3.2). */
static void test_host_twice(void **state)
{
	static const char *const req[] = {
		"GET /v1/status HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n",
		"GET /v1/status HTTP/1.1\r\nHost: a\r\nhost: a\r\nConnection: close\r\n\r\n",
		"GET /v1/status HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n",
	};
	struct reply r;
	size_t i;

	for (i = 0; i < sizeof(req) / sizeof(req[0]); i++) {
		raw(req[i], &r);
		assert_field_error(&r, "Host", "2 Host headers");
		json_decref(r.body);
	}
}

/*
 * The body's framing must be one thing (RFC 9112 6.1, 6.3): two Content-Length field lines,
 * equal or not, and Content-Length with Transfer-Encoding are 400 and close the connection,
 * before the route or the body is looked at, and so is one that is no number; one
 * Content-Length is served as before.
 */
static void test_framing(void **state)
{
	static const char *const twice[] = {
		"POST /v1/devices/veth1/pause HTTP/1.1\r\nHost: a\r\nContent-Type: "
		"application/json\r\nContent-Length: 2\r\nContent-Length: 30\r\n\r\n{}",
		"GET /v1/status HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n"
		"content-length: 0\r\n\r\n",
	};
	static const char *const bad_len[] = {
		"POST /v1/devices/veth1/pause HTTP/1.1\r\nHost: a\r\nContent-Type: "
		"application/json\r\nContent-Length: abc\r\n\r\n{}",
		"POST /v1/devices/veth1/pause HTTP/1.1\r\nHost: a\r\nContent-Type: "
		"application/json\r\nContent-Length: -1\r\n\r\n{}",
	};
	struct reply r;
	int calls = fake_calls;
	size_t i;

	for (i = 0; i < sizeof(twice) / sizeof(twice[0]); i++) {
		raw(twice[i], &r);
		assert_field_error(&r, "Content-Length", "2 Content-Length headers");
		assert_non_null(strstr(r.text, "Connection: close\r\n"));
		json_decref(r.body);
	}
	raw("POST /v1/devices/veth1/pause HTTP/1.1\r\nHost: a\r\nContent-Type: "
	    "application/json\r\nContent-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n"
	    "2\r\n{}\r\n0\r\n\r\n", &r);
	assert_field_error(&r, "Content-Length", "Content-Length with Transfer-Encoding");
	assert_non_null(strstr(r.text, "Connection: close\r\n"));
	json_decref(r.body);
	/*
	 * a Content-Length that is no decimal number never reaches vqtuned: libmicrohttpd
	 * answers 400 itself, not in the JSON error shape (0.9.75 sends its status line and
	 * headers twice, then an HTML page), and closes the connection; nothing is applied
	 */
	for (i = 0; i < sizeof(bad_len) / sizeof(bad_len[0]); i++) {
		raw(bad_len[i], &r);
		assert_int_equal(r.status, 400);
		assert_null(r.body);
		assert_non_null(strstr(r.text, "Connection: close\r\n"));
	}
	assert_int_equal(fake_calls, calls);
	raw("GET /v1/status HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n"
	    "Connection: close\r\n\r\n", &r);
	assert_int_equal(r.status, 200);
	assert_non_null(json_object_get(r.body, "version"));
	json_decref(r.body);
}

/* @r is a 503 stopping (docs/api.md "Stopping") that no view saw. */
static void assert_stopping(const struct reply *r)
{
	json_t *e = json_object_get(r->body, "error");

	assert_int_equal(r->status, 503);
	assert_string_equal(json_string_value(json_object_get(e, "code")), VQ_ERR_STOPPING);
	assert_non_null(strstr(json_string_value(json_object_get(e, "message")),
			       "it takes no more writes"));
}

/*
 * The daemon's stop (api_stopping()): every write is 503 stopping before its view runs,
 * whatever its body; reads, GET /v1/events too, are served as before. api_events_ns() is
 * when the last GET /v1/events came, which tells the stop whether anyone follows.
 */
static void test_stopping(void **state)
{
	static const char *const writes[] = {
		"POST /v1/devices/veth1/pause HTTP/1.0\r\n\r\n",
		"PUT /v1/policy HTTP/1.0\r\nContent-Type: application/json\r\n"
		"Content-Length: 2\r\n\r\n{}",
		"DELETE /v1/devices/veth1/knobs/bql-limit-max HTTP/1.0\r\n\r\n",
		"POST /v1/restore HTTP/1.0\r\n\r\n",
	};
	static const char *const reads[] = {
		"GET /v1/status HTTP/1.0\r\n\r\n",
		"GET /v1/events HTTP/1.0\r\n\r\n",
	};
	struct timespec t;
	struct reply r;
	uint64_t before;
	size_t i;
	int calls;

	assert_int_equal(api_events_ns(api), 0);
	assert_int_equal(api_events_ns(NULL), 0);
	api_stopping(NULL);
	raw("GET /v1/status HTTP/1.0\r\n\r\n", &r);
	json_decref(r.body);
	assert_int_equal(api_events_ns(api), 0);
	clock_gettime(CLOCK_MONOTONIC, &t);
	before = (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
	raw("GET /v1/events?since=3 HTTP/1.0\r\n\r\n", &r);
	assert_int_equal(r.status, 200);
	json_decref(r.body);
	clock_gettime(CLOCK_MONOTONIC, &t);
	assert_in_range(api_events_ns(api), before,
			(uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec);

	api_stopping(api);
	calls = fake_calls;
	for (i = 0; i < sizeof(writes) / sizeof(writes[0]); i++) {
		raw(writes[i], &r);
		assert_stopping(&r);
		json_decref(r.body);
	}
	assert_int_equal(fake_calls, calls);
	for (i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
		raw(reads[i], &r);
		assert_int_equal(r.status, 200);
		assert_non_null(r.body);
		json_decref(r.body);
	}
	assert_int_equal(fake_calls, calls + 2);
	/* a path no route has is still 404, a method it lacks 405: only writes are stopped */
	raw("PUT /v1/nowhere HTTP/1.0\r\nContent-Length: 0\r\n\r\n", &r);
	assert_int_equal(r.status, 404);
	json_decref(r.body);
	raw("PUT /v1/status HTTP/1.0\r\nContent-Length: 0\r\n\r\n", &r);
	assert_int_equal(r.status, 405);
	json_decref(r.body);
}

int main(void)
{
	/* a fresh api per test: test_stopping's cannot be undone */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_host_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_ok, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_twice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_framing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stopping, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
