// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy_state: the installed policy and the ways in: a PUT body, a file at start or on
 * SIGHUP, and the validate-only check of `vqtuned --check-policy`. Each path validates into
 * a temporary and installs it with one struct copy only when nothing was wrong, so a bad
 * policy changes nothing. The daemon is one thread (main.c): no lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apierr.h"
#include "log.h"
#include "policy.h"
#include "util.h"
#include "vqtune_api.h"

static struct policy current;
static bool current_set;
static const char *path_;

void policy_defaults(struct policy *p)
{
	int i;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "observe");
	snprintf(p->mode, sizeof(p->mode), "observe");
	for (i = 0; i < POLICY_CTL_NUM; i++)
		p->enabled[i] = true;
	law_policy_defaults(&p->law);
}

/*
 * @fd (closed here) to its end into a NUL-terminated buffer (caller frees): 0 or -errno,
 * -EFBIG past VQ_POLICY_FILE_MAX_BYTES, -EISDIR for a directory (read(2) refuses it).
 */
static int read_fd(int fd, char **text, size_t *len)
{
	char *buf;
	size_t n;
	FILE *f;
	int ret = 0;

	f = fdopen(fd, "r");
	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	buf = malloc(VQ_POLICY_FILE_MAX_BYTES + 1);
	if (!buf) {
		ret = -ENOMEM;
		goto err_close;
	}
	errno = 0;
	n = fread(buf, 1, VQ_POLICY_FILE_MAX_BYTES + 1, f);
	if (ferror(f))
		ret = errno ? -errno : -EIO;
	else if (n > VQ_POLICY_FILE_MAX_BYTES)
		ret = -EFBIG;
	if (ret) {
		free(buf);
		goto err_close;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
err_close:
	fclose(f);
	return ret;
}

/*
 * Whole file into a NUL-terminated buffer (caller frees). 0 or -errno; -EFBIG too big,
 * -EISDIR a directory (which open(2) accepts and only read(2) refuses), -EINVAL not a
 * regular file: a FIFO would block the daemon in open(2) or read(2) until a writer came,
 * with its tick and its SIGTERM (knob restore) waiting behind (O_NONBLOCK opens it at once).
 */
static int read_text(const char *path, char **text, size_t *len)
{
	int fd = util_open_regular(path);

	return fd < 0 ? fd : read_fd(fd, text, len);
}

static int by_position(const void *a, const void *b)
{
	const struct policy_error *x = a, *y = b;

	if (x->line != y->line)
		return x->line - y->line;
	if (x->column != y->column)
		return x->column - y->column;
	return x < y ? -1 : x > y;	/* keep the order found (stable) */
}

int policy_parse(json_t *obj, const char *text, size_t len, struct policy *out, json_t **err)
{
	static struct policy_errors errs;	/* 8 KB: not on the stack of a request */
	const struct policy_error *e;
	unsigned int n;
	int st;

	st = policy_validate_put(obj, text, len, policy_get(), out, &errs);
	if (!st)
		return 0;
	/* the first in text order, sorted as report() sorts a file's */
	n = errs.n < POLICY_ERRORS_MAX ? errs.n : POLICY_ERRORS_MAX;
	if (text)
		qsort(errs.e, n, sizeof(errs.e[0]), by_position);
	e = &errs.e[0];
	if (errs.n > 1)
		*err = apierr_new(e->code, e->field, "%s%s%s (and %u more error%s)", e->field,
				  e->field[0] ? ": " : "", e->msg, errs.n - 1, errs.n > 2 ? "s" : "");
	else
		*err = apierr_new(e->code, e->field[0] ? e->field : NULL, "%s%s%s", e->field,
				  e->field[0] ? ": " : "", e->msg);
	if (*err && e->line)
		apierr_place(*err, e->line, e->column);
	return e->status;
}

/* One "PATH:LINE:COLUMN: FIELD: MESSAGE" line per error, in text order, to @f or the log. */
static void report(const char *path, struct policy_errors *errs, FILE *f)
{
	unsigned int i, n = errs->n < POLICY_ERRORS_MAX ? errs->n : POLICY_ERRORS_MAX;
	char where[64];

	/* qsort is not stable; the comparison's pointer tie-break is only a tidy-up */
	qsort(errs->e, n, sizeof(errs->e[0]), by_position);
	for (i = 0; i < n; i++) {
		const struct policy_error *e = &errs->e[i];

		where[0] = '\0';
		if (e->line)
			snprintf(where, sizeof(where), ":%d:%d", e->line, e->column);
		if (f)
			fprintf(f, "%s%s: %s%s%s\n", path, where, e->field, e->field[0] ? ": " : "",
				e->msg);
		else
			log_err("policy %s%s: %s%s%s", path, where, e->field,
				e->field[0] ? ": " : "", e->msg);
	}
	if (errs->n > n) {
		if (f)
			fprintf(f, "%s: %u more errors not shown\n", path, errs->n - n);
		else
			log_err("policy %s: %u more errors not shown", path, errs->n - n);
	}
}

/*
 * "PATH:LINE:COLUMN: why" for a file jansson could not parse, to @f or the log. An empty
 * file, a byte order mark and bytes that are no JSON text are named in our words
 * (apierr_json_text_error(), as vqtunectl policy load does), never as jansson's raw quote
 * of the byte; columns are 1-based.
 */
static void report_text_error(const char *path, const char *text, size_t len,
			      const json_error_t *jerr, FILE *f)
{
	char where[64], why[256];

	apierr_json_text_error(text, len, jerr, "file", where, sizeof(where), why, sizeof(why));
	if (f)
		fprintf(f, "%s%s: %s\n", path, where, why);
	else
		log_err("policy %s%s: %s", path, where, why);
}

/* "PATH: why" for a file read_text() refused with @err, to @f or the log. */
static void report_read_error(const char *path, int err, FILE *f)
{
	char big[sizeof(VQ_POLICY_FILE_TOO_BIG_FMT) + 16], brief[UTIL_ARG_BRIEF_BYTES];
	const char *why = err == -EISDIR ? "is a directory, not a policy file" :
			  err == -EINVAL ? "is a FIFO, socket or device, not a regular "
					   "policy file" :
			  strerror(-err);

	if (err == -EFBIG) {
		snprintf(big, sizeof(big), VQ_POLICY_FILE_TOO_BIG_FMT, VQ_POLICY_FILE_MAX_BYTES);
		why = big;
	}
	if (f)
		fprintf(f, "%s: %s\n", util_arg_brief(path, brief, sizeof(brief)), why);
	else
		log_err("policy %s: %s", util_arg_brief(path, brief, sizeof(brief)), why);
}

/*
 * Read and validate @path into @p; @from_stdin: read standard input instead, named @path.
 * Errors go to @f (NULL: the log). 0, -EINVAL (reported) or -errno (reported).
 */
static int policy_from_file(const char *path, bool from_stdin, struct policy *p, FILE *f)
{
	static struct policy_errors errs;
	json_error_t jerr;
	json_t *obj;
	char *text = NULL;
	size_t len = 0;
	int ret, fd;

	if (from_stdin) {
		/* policy_check_file("-"): a one-shot check may wait for its writer */
		fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
		ret = fd < 0 ? -errno : read_fd(fd, &text, &len);
	} else {
		ret = read_text(path, &text, &len);
	}
	if (ret) {
		report_read_error(path, ret, f);
		return ret;
	}
	obj = apierr_json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!obj) {
		report_text_error(path, text, len, &jerr, f);
		free(text);
		return -EINVAL;
	}
	ret = policy_validate(obj, text, len, p, &errs);
	if (ret)
		report(path, &errs, f);
	json_decref(obj);
	free(text);
	return ret ? -EINVAL : 0;
}

int policy_check_file(const char *path, FILE *f)
{
	bool in = !strcmp(path, "-");
	struct policy p;
	int ret;

	if (in)
		path = POLICY_STDIN_NAME;
	ret = policy_from_file(path, in, &p, f);
	if (!ret)
		printf("%s: valid: '%s', mode %s\n", path, p.name, p.mode);
	return ret;
}

/*
 * Logs one error line in display form (util_name_display(): "\\" for a backslash, "\xHH"
 * for a byte that is not printable UTF-8), the form an event's reason takes in the API
 * (util_json_str()): a line quoting a backslash, as jansson's "invalid escape near '"a\q'"
 * does, reads the same in the log and in the SIGHUP event.
 */
static void log_error_line(const char *line)
{
	char *shown = util_display_dup(line);

	log_err("policy %s", shown ? shown : line);
	free(shown);
}

int policy_load_file(const char *path, char *why, size_t whylen)
{
	struct policy p;
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int ret;

	if (whylen)
		why[0] = '\0';
	/* the errors as policy_check_file() prints them, each logged, the first kept in @why */
	ret = policy_from_file(path, false, &p, m);
	if (m)
		fclose(m);
	if (ret && text) {
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (whylen && !why[0]) {
				snprintf(why, whylen, "%s", line);
				line = why;
			}
			log_error_line(line);
		}
	}
	free(text);
	if (ret)
		return ret;
	policy_set(&p);
	log_info("policy %s loaded: '%s', mode %s", path, p.name, p.mode);
	return 0;
}

void policy_set(const struct policy *p)
{
	current = *p;
	current_set = true;
}

const struct policy *policy_get(void)
{
	if (!current_set) {
		policy_defaults(&current);
		current_set = true;
	}
	return &current;
}

json_t *policy_json(void)
{
	return policy_to_json(policy_get());
}

static bool select_has(const struct policy_select *s, const char *v, bool glob)
{
	unsigned int i;

	if (!s->n)
		return true;
	for (i = 0; i < s->n; i++)
		if (glob ? !fnmatch(s->v[i], v, 0) : !strcmp(s->v[i], v))
			return true;
	return false;
}

/*
 * select.netns: "" is the daemon's own namespace, as in the API's "netns" fields, and so is
 * "-", the way vqtunectl and a device selector name it (netns_find()); no watched namespace
 * can be called "-" (netns.c refuses the name), so the two never clash.
 */
static bool netns_has(const struct policy_select *s, const char *netns)
{
	unsigned int i;

	if (select_has(s, netns, false))
		return true;
	for (i = 0; !netns[0] && i < s->n; i++)
		if (!strcmp(s->v[i], POLICY_OWN_NETNS_ALIAS))
			return true;
	return false;
}

bool policy_selects(const struct policy *p, const char *driver, const char *name,
		    const char *netns)
{
	return select_has(&p->drivers, driver ? driver : "", false) &&
	       select_has(&p->names, name ? name : "", true) &&
	       netns_has(&p->netns, netns ? netns : "");
}

/*
 * Leaves of @a and @b (two policy_to_json(): the same members) that differ under @path (@plen
 * bytes, the dotted key so far), in @b's order: the first POLICY_DIFF_SHOWN go to @f, *n
 * counts all. Reals with 15 digits, so 0.1 reads 0.1; two that read the same are no change.
 */
static void diff_walk(FILE *f, const json_t *a, const json_t *b, char *path, size_t plen,
		      unsigned int *n)
{
	const size_t flags = JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(15);
	const json_t *v;
	const char *key;
	char *sa, *sb;

	if (json_is_object(a) && json_is_object(b)) {
		json_object_foreach((json_t *)b, key, v) {
			size_t kl = strlen(key);

			/* the event names the policy; its name is not one of the changes */
			if ((!plen && !strcmp(key, "name")) || plen + kl + 2 > POLICY_FIELD_MAX)
				continue;
			sprintf(path + plen, "%s%s", plen ? "." : "", key);
			diff_walk(f, json_object_get(a, key), v, path, plen + kl + !!plen, n);
			path[plen] = '\0';
		}
		return;
	}
	if (a && json_equal((json_t *)a, (json_t *)b))
		return;
	sa = a ? json_dumps(a, flags) : NULL;
	sb = json_dumps(b, flags);
	/* reals that differ past the digits shown would read "4.1 -> 4.1": not a change here */
	if (!(sa && sb && !strcmp(sa, sb)) && (*n)++ < POLICY_DIFF_SHOWN)
		fprintf(f, "%s%s %s -> %s", *n > 1 ? ", " : "", path, sa ? sa : "(absent)",
			sb ? sb : "?");
	free(sa);
	free(sb);
}

char *policy_diff(const struct policy *old, const struct policy *new_)
{
	json_t *a = policy_to_json(old), *b = policy_to_json(new_);
	char path[POLICY_FIELD_MAX] = "", *text = NULL;
	size_t len = 0;
	unsigned int n = 0;
	FILE *f = open_memstream(&text, &len);

	if (f && a && b) {
		fputs("changed ", f);
		diff_walk(f, a, b, path, 0, &n);
		if (n > POLICY_DIFF_SHOWN)
			fprintf(f, " and %u more", n - POLICY_DIFF_SHOWN);
	}
	json_decref(a);
	json_decref(b);
	if (!f || fclose(f) || !a || !b) {
		free(text);
		return NULL;
	}
	if (!n) {
		free(text);
		return strdup(strcmp(old->name, new_->name) ? "nothing but the name changed" :
			      "nothing changed");
	}
	return text;
}

void policy_set_path(const char *path)
{
	path_ = path;
}

const char *policy_path(void)
{
	return path_;
}
