// SPDX-License-Identifier: GPL-2.0-only
/*
 * token: the bearer token file of vqtuned and vqtunectl, one rule for both (token.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "token.h"
#include "util.h"

/*
 * Bytes read of the file: the longest token, its CRLF, and one more, which tells a first
 * line that ends in time from one that is too long.
 */
#define TOKEN_READ_BYTES	(TOKEN_MAX_BYTES + 3)

/* The first line of @fd into @buf (up to @size bytes, or the first '\n'): bytes, or -errno. */
static ssize_t read_first_line(int fd, char *buf, size_t size)
{
	size_t n = 0;
	ssize_t r;

	while (n < size && !memchr(buf, '\n', n)) {
		r = read(fd, buf + n, size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		n += (size_t)r;
	}
	return (ssize_t)n;
}

/* The token's length in the @n bytes read at @buf, or -ENODATA/-EFBIG/-EINVAL. */
static int token_span(const char *buf, size_t n, size_t *len)
{
	const char *nl = memchr(buf, '\n', n);
	size_t end = nl ? (size_t)(nl - buf) : n;

	if (!nl && n == TOKEN_READ_BYTES)
		return -EFBIG;
	while (end && isspace((unsigned char)buf[end - 1]))
		end--;
	if (!end)
		return -ENODATA;
	if (end > TOKEN_MAX_BYTES)
		return -EFBIG;
	if (memchr(buf, '\0', end))
		return -EINVAL;
	*len = end;
	return 0;
}

int token_read(const char *file, char **out, size_t *len)
{
	char buf[TOKEN_READ_BYTES];
	ssize_t n;
	int fd, err;

	/* a FIFO with no writer would block the daemon's start or a CLI command for ever */
	fd = util_open_regular(file);
	if (fd < 0)
		return fd == -EINVAL ? -ESPIPE : fd;	/* token.h's code for "not regular" */
	n = read_first_line(fd, buf, sizeof(buf));
	close(fd);
	err = n < 0 ? (int)n : token_span(buf, (size_t)n, len);
	if (!err) {
		*out = strndup(buf, *len);
		err = *out ? 0 : -ENOMEM;
	}
	explicit_bzero(buf, sizeof(buf));
	return err;
}

const char *token_strerror(int err, char *buf, size_t len)
{
	switch (err) {
	case -ENODATA:
		/* an empty file, a file of white space, or one whose first line is blank */
		snprintf(buf, len, "holds no token (its first line, the token, is empty or white "
			 "space only)");
		break;
	case -EFBIG:
		snprintf(buf, len, "holds a token longer than %d bytes", TOKEN_MAX_BYTES);
		break;
	case -EINVAL:
		snprintf(buf, len, "holds a NUL byte in its token");
		break;
	case -EISDIR:
		snprintf(buf, len, "is a directory, not a file holding the token");
		break;
	case -ESPIPE:
		snprintf(buf, len, "is a FIFO, socket or device, not a regular file holding "
			 "the token");
		break;
	default:
		snprintf(buf, len, "cannot be read: %s", strerror(-err));
	}
	return buf;
}
