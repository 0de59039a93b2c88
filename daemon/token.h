/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * token: the bearer token file (RFC 6750) of vqtuned --token-file and vqtunectl -T, read by
 * one rule so that a token the daemon accepts is the token the CLI sends: the file's first
 * line, trailing white space (the CR of a CRLF too) removed, 1..TOKEN_MAX_BYTES bytes, no
 * NUL byte; what follows the first line is not read. A file that is empty or holds only
 * white space holds no token: no client could authenticate against it, so both refuse it.
 * Linked into both programs (Makefile).
 */
#ifndef VQ_TOKEN_H
#define VQ_TOKEN_H

#include <stddef.h>

/* Longest token: a bearer token is a few dozen bytes; anything larger is a mistake. */
#define TOKEN_MAX_BYTES		4096
/* Room for token_strerror()'s words, an errno's text included. */
#define TOKEN_WHY_BYTES		128

/*
 * Read the token of @file. Returns 0 with *@out (malloc'ed, NUL-terminated; the caller
 * zeroes and frees it: a secret) and *@len (1..TOKEN_MAX_BYTES), or -ENODATA (no token:
 * empty or white space only), -EFBIG (longer than TOKEN_MAX_BYTES), -EINVAL (a NUL byte in
 * it), -EISDIR (a directory), -ESPIPE (a FIFO, socket or device: opened without blocking,
 * never read), -ENOMEM, or -errno of open(2)/fstat(2)/read(2).
 */
int token_read(const char *file, char **out, size_t *len);

/*
 * Words for an error of token_read(), to follow "'FILE' ": "holds no token (it is empty or
 * white space only; the token is its first line)", "is a directory, not a file holding the
 * token", "cannot be read: No such file or directory", ... Returns @buf.
 */
const char *token_strerror(int err, char *buf, size_t len);

#endif
