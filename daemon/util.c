// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* Length of a valid UTF-8 sequence at @s (1..4), or 0 when the bytes there are not one. */
static int utf8_seq_len(const unsigned char *s)
{
	int n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and values past U+10FFFF are not UTF-8 */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	/* C1 controls are not printable either */
	if (cp >= 0x80 && cp < 0xa0)
		return 0;
	return n;
}

size_t util_name_display(const char *in, char *out, size_t outlen)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0;

	if (!outlen)
		return 0;
	while (*s) {
		int n = utf8_seq_len(s);
		char tmp[5];
		size_t tl;

		if (*s == '\\') {
			memcpy(tmp, "\\\\", 2);
			tl = 2;
			n = 1;
		} else if (n == 1 && (*s < 0x20 || *s == 0x7f)) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", *s);
			tl = 4;
		} else if (n == 0) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", *s);
			tl = 4;
			n = 1;
		} else {
			memcpy(tmp, s, n);
			tl = n;
		}
		if (o + tl >= outlen)
			break;
		memcpy(out + o, tmp, tl);
		o += tl;
		s += n;
	}
	out[o] = '\0';
	return o;
}

/* below it the C0 controls, RFC 20 */
#define UTIL_ASCII_SPACE	0x20
/* DEL, the last of the ASCII controls (RFC 20) */
#define UTIL_ASCII_DEL		0x7f
/* C1 controls U+0080..U+009F (ISO 6429) are C2 80..C2 9F in UTF-8 (RFC 3629 3) */
#define UTIL_C1_LEAD		0xc2
#define UTIL_C1_TRAIL_FIRST	0x80
#define UTIL_C1_TRAIL_LAST	0x9f

size_t util_control_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	if (u[0] < UTIL_ASCII_SPACE || u[0] == UTIL_ASCII_DEL)
		return 1;
	if (u[0] == UTIL_C1_LEAD && u[1] >= UTIL_C1_TRAIL_FIRST && u[1] <= UTIL_C1_TRAIL_LAST)
		return 2;
	return 0;
}

const char *util_real_str(double v, char *buf, size_t len)
{
	int prec;

	for (prec = DBL_DIG; prec <= DBL_DECIMAL_DIG; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int util_name_parse(const char *in, char *out, size_t outlen)
{
	size_t o = 0;

	while (*in) {
		char c = *in++;

		if (c == '\\') {
			if (*in == '\\') {
				c = '\\';
				in++;
			} else if (*in == 'x' && hexval(in[1]) >= 0 && hexval(in[2]) >= 0) {
				c = (char)(hexval(in[1]) << 4 | hexval(in[2]));
				in += 3;
			} else {
				return -EINVAL;
			}
		}
		if (o + 1 >= outlen)
			return -ENAMETOOLONG;
		out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

void util_hex(const void *in, size_t len, char *out)
{
	const unsigned char *p = in;
	size_t i;

	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * len] = '\0';
}

/* util_name_display() writes a byte as at most 4 ("\xHH") */
#define UTIL_DISPLAY_PER_BYTE	4

char *util_display_dup(const char *s)
{
	size_t need = UTIL_DISPLAY_PER_BYTE * strlen(s) + 1;
	char *buf = malloc(need);

	if (buf)
		util_name_display(s, buf, need);
	return buf;
}

json_t *util_json_str(const char *s)
{
	char *buf = util_display_dup(s);
	json_t *j;

	if (!buf)
		return json_null();
	j = json_string(buf);
	free(buf);
	return j ? j : json_null();
}

uint64_t util_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

int util_open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), err;
	struct stat st;

	if (fd < 0)
		return -errno;
	err = fstat(fd, &st) ? -errno : S_ISREG(st.st_mode) ? 0 :
	      S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int util_write_durable(const char *path, const void *buf, size_t len)
{
	char tmp[4096], dir[4096];
	const char *p = buf;
	int fd, dfd, ret = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			goto err_close;
		}
		p += n;
		len -= n;
	}
	if (fsync(fd) < 0) {
		ret = -errno;
		goto err_close;
	}
	close(fd);
	if (rename(tmp, path) < 0) {
		ret = -errno;
		unlink(tmp);
		return ret;
	}
	/* the rename itself must reach the disk before we call the write done */
	snprintf(dir, sizeof(dir), "%s", path);
	dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;

err_close:
	close(fd);
	unlink(tmp);
	return ret;
}

const char *util_opt_error(const struct option *lo, int c, const char *w, int short_opt,
			   char *buf, size_t len)
{
	const struct option *o, *hit = NULL;
	size_t n = 0, used;
	unsigned int prefixed = 0;

	/* as getopt_long() matched a long option: the exact name, else the one it abbreviates */
	if (!strncmp(w, "--", 2))
		n = strcspn(w + 2, "=");
	for (o = lo; n && o->name; o++) {
		if (strncmp(o->name, w + 2, n))
			continue;
		if (!o->name[n]) {
			hit = o;
			prefixed = 1;
			break;
		}
		hit = prefixed++ ? hit : o;
	}
	/*
	 * A short option: @w is not a long one, or getopt_long() named a short option its long
	 * one is not (optopt is 0 for a long option it does not know, else the option's val):
	 * "--verbose -xv" stops at x with optind still on "--verbose"
	 */
	if (!n || (short_opt && (!hit || prefixed > 1 || hit->val != short_opt))) {
		snprintf(buf, len, c == ':' ? "option '-%c' needs an argument" :
			 "unknown option '-%c'", short_opt);
	} else if (prefixed > 1) {
		used = (size_t)snprintf(buf, len, "option '%.*s' is ambiguous:", (int)n + 2, w);
		for (o = lo; o->name && used < len; o++)
			if (!strncmp(o->name, w + 2, n))
				used += (size_t)snprintf(buf + used, len - used, "%s --%s",
							 used && buf[used - 1] == ':' ? "" : ",",
							 o->name);
	} else if (hit && c == ':') {
		snprintf(buf, len, "option '--%s' needs an argument", hit->name);
	} else if (hit && w[2 + n] == '=' && hit->has_arg == no_argument) {
		snprintf(buf, len, "option '--%s' takes no argument", hit->name);
	} else {
		snprintf(buf, len, "unknown option '%.*s'", (int)n + 2, w);
	}
	return buf;
}

const char *util_arg_brief(const char *arg, char *buf, size_t len)
{
	size_t n = strlen(arg);

	if (n <= UTIL_ARG_BRIEF_MAX)
		return arg;
	snprintf(buf, len, "%.*s... (%zu bytes)", UTIL_ARG_BRIEF_MAX / 2, arg, n);
	return buf;
}
