// SPDX-License-Identifier: GPL-2.0-only
/*
 * libcurl transport of vqtunectl: one easy handle per run, reused so `watch` and
 * `events --follow` keep their connection. Error replies are docs/api.md's
 * {"error":{"code","message","field","reason"}} and map to enum vq_exit.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>

#include "ctl.h"
#include "token.h"

/* Largest reply we buffer: far above any real reply, bounds memory against a bad peer. */
#define CTL_REPLY_MAX_BYTES	(64u * 1024 * 1024)
/* An error's CLI wording: a sentence naming DEV and KNOB (each under 1 KiB as sent). */
#define CTL_ERROR_WORDS_BYTES	2048
/* "FILE:LINE:COLUMN: " of a file path and two 64-bit numbers */
#define CTL_FILE_WHERE_BYTES	(PATH_MAX + 48)
/* HTTP status classes. */
#define CTL_HTTP_OK_MIN		200
#define CTL_HTTP_OK_MAX		299
#define CTL_HTTP_NOT_FOUND	404

struct ctl_conn {
	CURL *curl;
	char *base;		/* "http://localhost" (unix socket) or "http://HOST:PORT" */
	const char *where;	/* socket path or base URL, for error messages */
	struct curl_slist *auth;	/* "Authorization: Bearer ..." or NULL */
	char errbuf[CURL_ERROR_SIZE];
	bool quiet;		/* ctl_request_quiet(), ctl_conn_quiet(): print nothing */
	bool reached;		/* something at the address accepted a connection once */
	const char *dev, *knob;	/* ctl_conn_subject(): what error words name */
	const char *file;	/* ctl_conn_file(): where a body's line and column are */
	bool unix_socket;
};

struct ctl_buf {
	char *data;
	size_t len;
	bool overflow;
};

static size_t ctl_write_cb(char *p, size_t size, size_t n, void *arg)
{
	struct ctl_buf *b = arg;
	size_t add = size * n;
	char *d;

	if (b->len + add > CTL_REPLY_MAX_BYTES) {
		b->overflow = true;
		return 0;
	}
	d = realloc(b->data, b->len + add + 1);
	if (!d)
		return 0;
	memcpy(d + b->len, p, add);
	b->data = d;
	b->len += add;
	d[b->len] = '\0';
	return add;
}

/*
 * The "Authorization: Bearer" header of the token in @file (token_read(): the rule vqtuned
 * reads its --token-file by); prints why not, naming -T and the path, and gives NULL.
 */
static struct curl_slist *ctl_read_token(const char *file)
{
	char why[TOKEN_WHY_BYTES], *tok = NULL, *hdr = NULL;
	struct curl_slist *l = NULL;
	size_t n = 0;
	int err = token_read(file, &tok, &n);

	if (err) {
		char shown[CTL_ARG_SHOWN_BYTES];

		fprintf(stderr, CTL_PROG ": -T/--token-file: %s %s\n",
			ctl_arg_shown(file, shown, sizeof(shown)),
			token_strerror(err, why, sizeof(why)));
		return NULL;
	}
	if (asprintf(&hdr, "Authorization: Bearer %s", tok) >= 0) {
		l = curl_slist_append(NULL, hdr);
		explicit_bzero(hdr, strlen(hdr));
		free(hdr);
	}
	explicit_bzero(tok, n);
	free(tok);
	return l;
}

static int ctl_conn_base(struct ctl_conn *c, const struct ctl_conn_opts *o)
{
	size_t n;

	if (!o->host) {
		c->base = strdup("http://localhost");
		c->where = o->socket_path;
		c->unix_socket = true;
		if (!c->base)
			return -ENOMEM;
		return curl_easy_setopt(c->curl, CURLOPT_UNIX_SOCKET_PATH, o->socket_path) ?
			-EINVAL : 0;
	}
	if (strstr(o->host, "://"))
		c->base = strdup(o->host);
	else if (asprintf(&c->base, "http://%s", o->host) < 0)
		c->base = NULL;
	if (!c->base)
		return -ENOMEM;
	/* "http://h:p/" + "/v1/..." would give "//v1"; keep the "//" after the scheme */
	n = strlen(c->base);
	while (n > 1 && c->base[n - 1] == '/' && c->base[n - 2] != '/')
		c->base[--n] = '\0';
	c->where = c->base;
	return 0;
}

struct ctl_conn *ctl_conn_new(const struct ctl_conn_opts *o)
{
	struct ctl_conn *c = calloc(1, sizeof(*c));

	if (!c)
		goto err_nomem;
	c->curl = curl_easy_init();
	if (!c->curl)
		goto err_free;
	if (ctl_conn_base(c, o))
		goto err_free;
	if (o->token_file) {
		c->auth = ctl_read_token(o->token_file);
		if (!c->auth)
			goto err_quiet;
	}
	curl_easy_setopt(c->curl, CURLOPT_ERRORBUFFER, c->errbuf);
	curl_easy_setopt(c->curl, CURLOPT_TIMEOUT_MS, (long)o->timeout_ms);
	curl_easy_setopt(c->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c->curl, CURLOPT_WRITEFUNCTION, ctl_write_cb);
	curl_easy_setopt(c->curl, CURLOPT_USERAGENT, CTL_PROG "/" VQ_VERSION);
	/* the daemon never redirects; never send the token elsewhere */
	curl_easy_setopt(c->curl, CURLOPT_FOLLOWLOCATION, 0L);
	return c;

err_free:
	ctl_conn_free(c);
err_nomem:
	fprintf(stderr, CTL_PROG ": cannot set up the HTTP client\n");
	return NULL;
err_quiet:
	ctl_conn_free(c);
	return NULL;
}

void ctl_conn_free(struct ctl_conn *c)
{
	if (!c)
		return;
	if (c->curl)
		curl_easy_cleanup(c->curl);
	curl_slist_free_all(c->auth);
	free(c->base);
	free(c);
}

/* Prints the server's error reply; returns the exit code for status. */
static int ctl_report_http_error(struct ctl_conn *c, long status, const struct ctl_buf *b)
{
	json_t *root = b->data ? json_loadb(b->data, b->len, 0, NULL) : NULL;
	json_t *e = json_object_get(root, "error");
	const char *code = json_string_value(json_object_get(e, "code"));
	const char *msg = json_string_value(json_object_get(e, "message"));
	const char *field = json_string_value(json_object_get(e, "field"));
	const char *reason = json_string_value(json_object_get(e, "reason"));
	json_t *line = json_object_get(e, "line"), *col = json_object_get(e, "column");
	char words[CTL_ERROR_WORDS_BYTES], where[CTL_FILE_WHERE_BYTES] = "";
	const char *cli = NULL;

	/* --json output is for scripts: the API's own message, as it came */
	if (msg && code && !ctl_json_mode)
		cli = ctl_error_words(code, field, reason, c->dev, c->knob, words, sizeof(words));
	/*
	 * the daemon says a token is missing or wrong; the CLI says which option sends one,
	 * and with -T given, which token it must hold (whatever the daemon saw arrive)
	 */
	if (!cli && msg && code && !ctl_json_mode && !strcmp(code, VQ_ERR_UNAUTHORIZED)) {
		snprintf(words, sizeof(words), c->auth ?
			 "%s: the file of -T must hold the token of vqtuned's --token-file" :
			 "%s: send the token of vqtuned's --token-file with -T FILE", msg);
		cli = words;
	}
	if (c->quiet) {
		/* caller shows the absence itself */
	} else if (msg && code) {
		/* a body sent as a file's text: the error's place is the file's (vqtuned -C's) */
		if (c->file && json_is_integer(line) && json_is_integer(col))
			snprintf(where, sizeof(where), "%s:%lld:%lld: ", c->file,
				 (long long)json_integer_value(line),
				 (long long)json_integer_value(col));
		fprintf(stderr, CTL_PROG ": %s%s (%s%s%s)\n", where, cli ? cli : msg, code,
			field ? ", field " : "", field ? field : "");
	} else {
		/* not our daemon's error format: show the status and the start of the body */
		int n = b->data ? (int)strcspn(b->data, "\r\n") : 0;

		fprintf(stderr, CTL_PROG ": HTTP %ld%s%.*s\n", status, n ? ": " : "",
			n > 200 ? 200 : n, b->data ? b->data : "");
	}
	json_decref(root);
	return status == CTL_HTTP_NOT_FOUND ? VQ_EXIT_NOT_FOUND : VQ_EXIT_ERROR;
}

/*
 * Over a unix socket curl's own text names "localhost port 80", which misleads: show
 * the socket path and the connect() errno instead (ENOENT: not running, EACCES: not in
 * the socket's group).
 */
static void ctl_report_transport_error(struct ctl_conn *c, CURLcode rc)
{
	long os_errno = 0;

	curl_easy_getinfo(c->curl, CURLINFO_OS_ERRNO, &os_errno);
	if (c->unix_socket && rc == CURLE_COULDNT_CONNECT && os_errno)
		fprintf(stderr, CTL_PROG ": cannot reach vqtuned at %s: %s\n", c->where,
			strerror((int)os_errno));
	else
		fprintf(stderr, CTL_PROG ": cannot reach vqtuned at %s: %s\n", c->where,
			c->errbuf[0] ? c->errbuf : curl_easy_strerror(rc));
}

static struct curl_slist *ctl_headers(struct ctl_conn *c, bool json_body)
{
	struct curl_slist *h = NULL, *n;
	const struct curl_slist *a;

	for (a = c->auth; a; a = a->next) {
		n = curl_slist_append(h, a->data);
		if (!n)
			goto err_free;
		h = n;
	}
	n = curl_slist_append(h, json_body ? "Content-Type: application/json" :
			      "Accept: application/json");
	if (!n)
		goto err_free;
	h = n;
	/* no "Expect: 100-continue" round trip for small bodies */
	n = curl_slist_append(h, "Expect:");
	if (!n)
		goto err_free;
	return n;

err_free:
	curl_slist_free_all(h);
	return NULL;
}

/*
 * Whether the transfer that ended with @rc got a connection: every outcome but a failed
 * name lookup or connect(), or a timeout that came before the connection was made. A
 * connection closed before any reply ("Connection reset by peer", "Empty reply") was made:
 * something listens there, such as QEMU's port forwarder in front of a guest whose daemon
 * is not up yet. When the peer closes before curl has checked the connection (a unix
 * socket's listener that closes at once), curl says "Couldn't connect" with no errno, or
 * ECONNRESET: made too, unlike a refusal (ECONNREFUSED, ENOENT, EACCES, EHOSTUNREACH...).
 */
static bool ctl_curl_connected(struct ctl_conn *c, CURLcode rc)
{
	curl_off_t connect_us = 0;
	long os_errno = 0;

	switch (rc) {
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_RESOLVE_HOST:
		return false;
	case CURLE_COULDNT_CONNECT:
		curl_easy_getinfo(c->curl, CURLINFO_OS_ERRNO, &os_errno);
		return !os_errno || os_errno == ECONNRESET || os_errno == EPIPE;
	case CURLE_OPERATION_TIMEDOUT:
		curl_easy_getinfo(c->curl, CURLINFO_CONNECT_TIME_T, &connect_us);
		return connect_us > 0;
	default:
		return true;
	}
}

static int ctl_perform(struct ctl_conn *c, const char *method, const char *url, const char *body,
		       size_t body_len, struct ctl_buf *b, long *status)
{
	bool has_body = strcmp(method, "GET") && strcmp(method, "DELETE");
	struct curl_slist *h = ctl_headers(c, has_body);
	CURLcode rc;

	if (!h) {
		fprintf(stderr, CTL_PROG ": out of memory\n");
		return VQ_EXIT_ERROR;
	}
	curl_easy_setopt(c->curl, CURLOPT_URL, url);
	curl_easy_setopt(c->curl, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c->curl, CURLOPT_WRITEDATA, b);
	curl_easy_setopt(c->curl, CURLOPT_HTTPGET, 1L);
	if (has_body) {
		/* pause/resume/restore carry an empty JSON body (Content-Length: 0) */
		curl_easy_setopt(c->curl, CURLOPT_POSTFIELDS, body ? body : "");
		curl_easy_setopt(c->curl, CURLOPT_POSTFIELDSIZE, (long)(body ? body_len : 0));
	}
	curl_easy_setopt(c->curl, CURLOPT_CUSTOMREQUEST, strcmp(method, "GET") ? method : NULL);
	c->errbuf[0] = '\0';
	rc = curl_easy_perform(c->curl);
	curl_easy_setopt(c->curl, CURLOPT_HTTPHEADER, NULL);
	curl_slist_free_all(h);
	if (ctl_curl_connected(c, rc))
		c->reached = true;
	if (rc != CURLE_OK) {
		if (c->quiet)
			return b->overflow ? VQ_EXIT_ERROR : VQ_EXIT_CONNECT;
		if (b->overflow)
			fprintf(stderr, CTL_PROG ": reply from %s larger than %u bytes\n", c->where,
				CTL_REPLY_MAX_BYTES);
		else
			ctl_report_transport_error(c, rc);
		return b->overflow ? VQ_EXIT_ERROR : VQ_EXIT_CONNECT;
	}
	curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, status);
	return VQ_EXIT_OK;
}

int ctl_request(struct ctl_conn *c, const char *method, const char *path, json_t *body,
		json_t **reply)
{
	char *text = NULL;
	int ret;

	*reply = NULL;
	if (body) {
		text = json_dumps(body, JSON_COMPACT);
		if (!text) {
			fprintf(stderr, CTL_PROG ": out of memory\n");
			return VQ_EXIT_ERROR;
		}
	}
	ret = ctl_request_text(c, method, path, text, text ? strlen(text) : 0, reply);
	free(text);
	return ret;
}

int ctl_request_text(struct ctl_conn *c, const char *method, const char *path,
		     const char *text, size_t len, json_t **reply)
{
	struct ctl_buf b = { 0 };
	char *url = NULL;
	json_error_t jerr;
	long status = 0;
	int ret = VQ_EXIT_ERROR;

	*reply = NULL;
	if (asprintf(&url, "%s%s", c->base, path) < 0) {
		url = NULL;
		goto out_nomem;
	}
	ret = ctl_perform(c, method, url, text, len, &b, &status);
	if (ret)
		goto out;
	if (status < CTL_HTTP_OK_MIN || status > CTL_HTTP_OK_MAX) {
		ret = ctl_report_http_error(c, status, &b);
		goto out;
	}
	*reply = json_loadb(b.data ? b.data : "", b.len, 0, &jerr);
	if (!*reply) {
		if (!c->quiet)
			fprintf(stderr, CTL_PROG ": %s %s: reply is not JSON: %s\n", method, path,
				jerr.text);
		ret = VQ_EXIT_ERROR;
	}
	goto out;

out_nomem:
	fprintf(stderr, CTL_PROG ": out of memory\n");
out:
	free(b.data);
	free(url);
	return ret;
}

void ctl_conn_subject(struct ctl_conn *c, const char *dev, const char *knob)
{
	c->dev = dev;
	c->knob = knob;
}

void ctl_conn_file(struct ctl_conn *c, const char *file)
{
	c->file = file;
}

int ctl_request_quiet(struct ctl_conn *c, const char *path, json_t **reply)
{
	bool was = c->quiet;
	int ret;

	c->quiet = true;
	ret = ctl_request(c, "GET", path, NULL, reply);
	c->quiet = was;
	return ret;
}

void ctl_conn_quiet(struct ctl_conn *c, bool quiet)
{
	c->quiet = quiet;
}

bool ctl_conn_reached(const struct ctl_conn *c)
{
	return c->reached;
}
