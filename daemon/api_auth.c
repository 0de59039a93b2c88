// SPDX-License-Identifier: GPL-2.0-only
/*
 * api_auth: write permission and header checks of the API server (contracts in api_auth.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "api_auth.h"
#include "apierr.h"
#include "api_reply.h"
#include "api_sock.h"
#include "http_parse.h"
#include "log.h"
#include "token.h"
#include "vqtune_api.h"

/* Authorization scheme and WWW-Authenticate challenge (RFC 6750 2.1, 3) */
#define API_BEARER		"Bearer "
#define API_AUTH_REALM		"Bearer realm=\"vqtuned\""
/* Token file bits that let someone other than its owner read or replace the token. */
#define API_TOKEN_OPEN_MODE	(S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH)
/* Permission bits shown in the warning (no file type). */
#define API_MODE_PERM_BITS	07777

/* Warn when the token file is open to group or others; stat errors stay silent (read worked). */
static void token_mode_warn(const char *file)
{
	struct stat st;

	if (stat(file, &st) || !(st.st_mode & API_TOKEN_OPEN_MODE))
		return;
	log_warn("api: token file %s has mode %04o: group or others may read or write it, and "
		 "the token grants writes over TCP; chmod 600 it",
		 file, (unsigned int)(st.st_mode & API_MODE_PERM_BITS));
}

int api_auth_load_token(struct api_auth *a, const char *file)
{
	int err = token_read(file, &a->token, &a->token_len);
	char why[TOKEN_WHY_BYTES];

	if (err) {
		log_err("api: token file '%s' %s", file, token_strerror(err, why, sizeof(why)));
		return err;
	}
	token_mode_warn(file);
	return 0;
}

void api_auth_free(struct api_auth *a)
{
	if (a->token)
		explicit_bzero(a->token, a->token_len);
	free(a->token);
	a->token = NULL;
	a->token_len = 0;
}

/* MHD_get_connection_values() callback: counts in *cls the field lines named as in @hdr. */
struct field_count {
	const char *name;
	unsigned int n;
};

static enum MHD_Result count_field(void *cls, enum MHD_ValueKind kind, const char *key,
				   const char *value)
{
	struct field_count *f = cls;

	(void)kind;
	(void)value;
	/* field names are case-insensitive (RFC 9110 5.1) */
	if (key && !strcasecmp(key, f->name))
		f->n++;
	return MHD_YES;
}

static unsigned int field_lines(struct MHD_Connection *c, const char *name)
{
	struct field_count f = { .name = name };

	MHD_get_connection_values(c, MHD_HEADER_KIND, count_field, &f);
	return f.n;
}

/* RFC 9112 3.2: Host is required in HTTP/1.1 and a singleton in every version. */
static int check_host(struct MHD_Connection *c, const char *version, enum MHD_Result *ret)
{
	unsigned int n = field_lines(c, MHD_HTTP_HEADER_HOST);

	if (n > 1) {
		*ret = api_reply_json(c, MHD_HTTP_BAD_REQUEST,
				      apierr_new(VQ_ERR_BAD_REQUEST, MHD_HTTP_HEADER_HOST,
						 "%u Host headers: send exactly one (RFC 9112 3.2)",
						 n), NULL, NULL);
		return -EINVAL;
	}
	/* HTTP/1.0 predates Host; libmicrohttpd speaks nothing older or newer than 1.x */
	if (n || !version || !strcmp(version, MHD_HTTP_VERSION_1_0))
		return 0;
	*ret = api_reply_json(c, MHD_HTTP_BAD_REQUEST,
			      apierr_new(VQ_ERR_BAD_REQUEST, MHD_HTTP_HEADER_HOST,
					 "no Host header: an %s request must carry one "
					 "(RFC 9112 3.2)", version), NULL, NULL);
	return -EINVAL;
}

/*
 * RFC 9112 6.1, 6.3: the body's framing must be one thing. Two Content-Length field lines
 * (libmicrohttpd keeps the first) or Content-Length next to Transfer-Encoding leave the
 * body's end a guess, the ground of request smuggling; refuse them with 400 and close the
 * connection, since where the next request starts is unknown too.
 */
static int check_framing(struct MHD_Connection *c, enum MHD_Result *ret)
{
	unsigned int n = field_lines(c, MHD_HTTP_HEADER_CONTENT_LENGTH);
	const char *te;

	if (n > 1) {
		*ret = api_reply_json(c, MHD_HTTP_BAD_REQUEST,
				      apierr_new(VQ_ERR_BAD_REQUEST, MHD_HTTP_HEADER_CONTENT_LENGTH,
						 "%u Content-Length headers: send exactly one, the "
						 "body's length (RFC 9112 6.3)", n),
				      MHD_HTTP_HEADER_CONNECTION, "close");
		return -EINVAL;
	}
	te = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
	if (!n || !te)
		return 0;
	*ret = api_reply_json(c, MHD_HTTP_BAD_REQUEST,
			      apierr_new(VQ_ERR_BAD_REQUEST, MHD_HTTP_HEADER_CONTENT_LENGTH,
					 "Content-Length with Transfer-Encoding: send one of "
					 "them (RFC 9112 6.1)"),
			      MHD_HTTP_HEADER_CONNECTION, "close");
	return -EINVAL;
}

int api_auth_check_headers(struct MHD_Connection *c, const char *version, enum MHD_Result *ret)
{
	unsigned int n;

	if (check_host(c, version, ret) || check_framing(c, ret))
		return -EINVAL;
	n = field_lines(c, MHD_HTTP_HEADER_AUTHORIZATION);
	if (n <= 1)
		return 0;
	*ret = api_reply_err(c, MHD_HTTP_BAD_REQUEST, VQ_ERR_BAD_REQUEST,
			     "%u Authorization headers: it is a singleton field, send at most one "
			     "(RFC 9110 5.3, 11.6.2)", n);
	return -EINVAL;
}

int api_auth_check_write(const struct api_auth *a, struct MHD_Connection *c,
			 enum MHD_Result *ret)
{
	const char *auth, *tok;

	if (a->write_ok)
		return 0;
	if (!a->token) {
		*ret = api_reply_err(c, MHD_HTTP_FORBIDDEN, VQ_ERR_FORBIDDEN,
				     "this listener is read-only; write through the unix socket");
		return -EPERM;
	}
	auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
	/* RFC 6750 2.1: "Bearer" (scheme case-insensitive, RFC 9110 11.1), then the token */
	if (auth && !strncasecmp(auth, API_BEARER, strlen(API_BEARER))) {
		tok = auth + strlen(API_BEARER);
		tok += strspn(tok, " ");
		if (http_token_equal(tok, strlen(tok), a->token, a->token_len))
			return 0;
		*ret = api_reply_err_hdr(c, MHD_HTTP_UNAUTHORIZED, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
					 API_AUTH_REALM ", error=\"invalid_token\"",
					 VQ_ERR_UNAUTHORIZED, "bearer token does not match");
		return -EACCES;
	}
	*ret = api_reply_err_hdr(c, MHD_HTTP_UNAUTHORIZED, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
				 API_AUTH_REALM, VQ_ERR_UNAUTHORIZED,
				 "writes on this listener need a bearer token");
	return -EACCES;
}
