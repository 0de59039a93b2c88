/* SPDX-License-Identifier: GPL-2.0-only */
/* util: small helpers shared by the daemon's modules. */
#ifndef VQ_UTIL_H
#define VQ_UTIL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NSEC_PER_SEC	1000000000ULL
#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL

/*
 * Display form of a device name (docs/api.md): bytes of valid, printable UTF-8 are kept,
 * a backslash becomes "\\", every other byte "\xHH". Writes at most @outlen bytes including
 * the NUL; a name of IFNAMSIZ bytes needs at most 4 * IFNAMSIZ + 1. Returns strlen(out).
 */
size_t util_name_display(const char *in, char *out, size_t outlen);
/* Inverse of util_name_display(); returns -EINVAL on a malformed escape. */
int util_name_parse(const char *in, char *out, size_t outlen);
/*
 * Bytes of the control character @s starts with: 1 for a C0 control (NUL included) or DEL,
 * 2 for a C1 control (U+0080..U+009F, UTF-8 C2 80..C2 9F; U+009B is CSI, a terminal's
 * escape); 0 when @s starts none. Reads @s[1] only after a C2 byte.
 */
size_t util_control_len(const char *s);
/*
 * @v in the shortest "%.Ng" (N = DBL_DIG..DBL_DECIMAL_DIG, 15..17) that reads back as @v, so
 * a number that differs from a bound never prints as the bound: 100.00000000000001, not 100.
 * Writes at most @len bytes including the NUL; UTIL_REAL_MAX_BYTES always fits. Returns @buf.
 */
#define UTIL_REAL_MAX_BYTES	32
const char *util_real_str(double v, char *buf, size_t len);
/* Lower-case hex of @len bytes into @out (2 * len + 1 bytes). */
void util_hex(const void *in, size_t len, char *out);
/* @s in display form (util_name_display()), malloc'd for the caller to free; NULL on ENOMEM. */
char *util_display_dup(const char *s);
/* util_arg_brief()'s cut: a path longer than this is shown by its head and size (longer
 * than paths people write, far shorter than what fits in a 512-byte message) */
#define UTIL_ARG_BRIEF_MAX	256
/* room for util_arg_brief()'s text: the head, "..." and " (N bytes)" */
#define UTIL_ARG_BRIEF_BYTES	(UTIL_ARG_BRIEF_MAX + 40)
/*
 * @arg as a message names it where it stands unquoted (a file or socket path): @arg itself,
 * or, longer than UTIL_ARG_BRIEF_MAX bytes, its first UTIL_ARG_BRIEF_MAX / 2 bytes, "..."
 * and its size ("/tmp/xxxx... (70000 bytes)") written into @buf (UTIL_ARG_BRIEF_BYTES), so
 * that a 70 KB argument does not push the reason out of the message.
 */
const char *util_arg_brief(const char *arg, char *buf, size_t len);
/* A JSON string of @s in display form (never NULL-valued on invalid UTF-8). */
json_t *util_json_str(const char *s);
/* clock_gettime(@clk) in ns. */
uint64_t util_now_ns(clockid_t clk);
/*
 * Open @path read-only as a regular file: O_NONBLOCK, so a FIFO with no writer is refused at
 * once instead of blocking open(2) until one comes; a directory, which open(2) accepts and
 * only read(2) refuses, is named before any read. The fd (O_CLOEXEC; O_NONBLOCK does nothing
 * to a regular file's reads), or -errno: -EISDIR a directory, -EINVAL a FIFO, socket or
 * device, else open(2)'s or fstat(2)'s.
 */
int util_open_regular(const char *path);
/*
 * What getopt_long(3), run with opterr 0 and an optstring that starts with ':', found wrong,
 * without the program name (both programs name themselves, not by argv[0]): @c is what it
 * returned (':' an option without its value, '?' anything else), @w argv[optind - 1] (the
 * word it stopped at, or the one before when a short option inside a group of them was
 * wrong, which @short_opt then tells), @short_opt its optopt, @lo its long options. One of
 * "unknown option '-x'", "option '-s' needs an argument", "unknown option '--bogus'" (as
 * typed, without "=VALUE"), and naming the option an abbreviation stands for, "option
 * '--socket' needs an argument", "option '--help' takes no argument", or "option '--ver' is
 * ambiguous: --verbose, --version": what glibc's getopt says, in vqtune's words. Two long
 * options with one prefix are ambiguous here even when glibc would take them for one (same
 * has_arg, flag and val; no table of vqtune's has such a pair). Into @buf (@len bytes, cut
 * to fit). Returns @buf.
 */
struct option;
const char *util_opt_error(const struct option *lo, int c, const char *w, int short_opt,
			   char *buf, size_t len);
/* Write @len bytes to @path durably: temp file, fsync, rename, fsync dir. 0 or -errno. */
int util_write_durable(const char *path, const void *buf, size_t len);

#endif
