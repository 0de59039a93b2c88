/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * api_auth: who may do what on one listener of the API server (api.c), and the header
 * checks that decide it: the write permission of docs/api.md "Authentication" (unix socket:
 * its file mode; TCP: a bearer token, RFC 6750) and the Authorization singleton rule.
 * Split from api.c so the MHD glue and routing stay apart from the rules.
 */
#ifndef VQ_API_AUTH_H
#define VQ_API_AUTH_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

struct api_auth {
	bool write_ok;		/* unix socket: writes allowed without a token */
	char *token;		/* TCP with --token-file: writes need this bearer token */
	size_t token_len;	/* bytes of @token, >= 1 when @token is set */
};

/*
 * Load the bearer token of @a from @file (token_read(): its first line, trailing white
 * space removed, as vqtunectl -T reads it). A file that group or others may read or write
 * (mode & 0066) is used, but draws a warning naming the path and its mode, as ssh(1) does
 * for keys: the token grants writes. Returns 0, or the negative errno of token_read() after
 * logging why.
 */
int api_auth_load_token(struct api_auth *a, const char *file);

/* Free the token of @a (zeroed first: it is a secret). @a itself is the caller's. */
void api_auth_free(struct api_auth *a);

/*
 * Header checks every request passes before it is routed, each refused with 400
 * bad_request naming the header: a missing Host header in a request of any version but
 * @version "HTTP/1.0", or more than one Host field line (RFC 9112 3.2: a server MUST answer
 * 400; the error's field is "Host"); more than one Authorization field line, since
 * Authorization is a singleton field (RFC 9110 5.3, 11.6.2) and taking either one would be
 * a guess; more than one Content-Length field line, or Content-Length with Transfer-Encoding
 * (RFC 9112 6.3, 6.1: the body's end would be a guess; the error's field is "Content-Length"
 * and the reply closes the connection). Returns 0 when the request may go on, else -EINVAL
 * with the reply queued in *@ret.
 */
int api_auth_check_headers(struct MHD_Connection *c, const char *version, enum MHD_Result *ret);

/*
 * Write permission on the listener of @a (docs/api.md): 0 when allowed; else the reply is
 * queued in *@ret and the return is -EPERM (403, listener read-only) or -EACCES (401 with
 * a WWW-Authenticate challenge, RFC 6750 3: no, another or a wrong bearer token).
 */
int api_auth_check_write(const struct api_auth *a, struct MHD_Connection *c,
			 enum MHD_Result *ret);

#endif
