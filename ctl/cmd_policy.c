// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy show | load FILE | set KEY VALUE (GET/PUT /v1/policy, docs/api.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apierr.h"
#include "ctl.h"
#include "policy.h"
#include "util.h"

#define CTL_POLICY_PATH	VQ_API_PREFIX "/policy"
/* a file fault's message: one short sentence */
#define CTL_MSG_MAX_BYTES	256
/* ":LINE:COLUMN" of two ints */
#define CTL_WHERE_BYTES		32

/* Print one line naming what is now in force (the whole reply @r with --json). */
static int ctl_policy_installed(json_t *r)
{
	json_t *p;

	if (ctl_json_mode) {
		ctl_print_json(r);
	} else {
		p = json_object_get(r, "policy");
		printf("policy '%s' installed, mode %s\n",
		       json_string_value(json_object_get(p, "name")) ?: "?",
		       json_string_value(json_object_get(p, "mode")) ?: "?");
	}
	json_decref(r);
	return VQ_EXIT_OK;
}

/*
 * PUT the policy object (without the outer "policy" key); print one line naming what is now
 * in force (`policy show` prints the policy).
 */
static int ctl_policy_put(struct ctl_conn *c, json_t *policy)
{
	json_t *r;
	int ret = ctl_request(c, "PUT", CTL_POLICY_PATH, policy, &r);

	return ret ? ret : ctl_policy_installed(r);
}

/*
 * PUT @len bytes of a policy file's @text as they are (vqtuned takes a {"policy":{...}}
 * wrapper too), so an error's line and column are the file's, printed as @name:LINE:COLUMN.
 */
static int ctl_policy_put_text(struct ctl_conn *c, const char *name, const char *text,
			       size_t len)
{
	json_t *r;
	int ret;

	ctl_conn_file(c, name);
	ret = ctl_request_text(c, "PUT", CTL_POLICY_PATH, text, len, &r);
	ctl_conn_file(c, NULL);
	return ret ? ret : ctl_policy_installed(r);
}

/*
 * A named policy file opened for reading as vqtuned opens one (util_open_regular()): a FIFO
 * with no writer is refused, not waited on. NULL with errno EISDIR for a directory, EINVAL
 * for a FIFO, socket or device, or open(2)'s, fstat(2)'s or fdopen(3)'s.
 */
static FILE *ctl_open_regular(const char *file)
{
	int fd = util_open_regular(file), err;
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "rb");
	if (!f) {
		err = errno;
		close(fd);
		errno = err;
	}
	return f;
}

/*
 * Reads all of @file ("-": stdin, which may be a pipe) into *text, at most one byte past
 * the limit of a policy file (vqtuned's for --policy and -C). Returns 0, or -errno (-EFBIG
 * past the limit; -EISDIR, -EINVAL: ctl_open_regular()).
 */
static int ctl_read_all(const char *file, char **text, size_t *len)
{
	FILE *f = strcmp(file, "-") ? ctl_open_regular(file) : stdin;
	char *buf;
	int err = 0;

	*text = NULL;
	if (!f)
		return -errno;
	buf = malloc(VQ_POLICY_FILE_MAX_BYTES + 1);
	if (!buf)
		err = -ENOMEM;
	if (buf) {
		*len = fread(buf, 1, VQ_POLICY_FILE_MAX_BYTES + 1, f);
		if (ferror(f))
			err = -EIO;
		else if (*len > VQ_POLICY_FILE_MAX_BYTES)
			err = -EFBIG;
	}
	if (f != stdin)
		fclose(f);
	if (err)
		free(buf);
	else
		*text = buf;
	return err;
}

/*
 * What is sent of a policy file is its compact JSON (ctl_request()): that, not the file
 * with its indentation, must fit the API's body limit. False (said so) when it does not.
 */
static bool ctl_policy_body_fits(const char *file, const json_t *policy)
{
	size_t n = json_dumpb(policy, NULL, 0, JSON_COMPACT);

	if (n <= VQ_API_BODY_MAX_BYTES)
		return true;
	fprintf(stderr, CTL_PROG ": %s: %zu bytes as compact JSON, above the API's %d-byte body "
		"limit\n", file, n, VQ_API_BODY_MAX_BYTES);
	return false;
}

/*
 * Reads FILE ("-": stdin) and validates that it is one JSON object before anything is
 * sent; errors name FILE:LINE:COLUMN in the daemon's words (apierr_json_text_error():
 * empty file, byte order mark, bytes that are no JSON text), else jansson's; a directory
 * is named as one (exit 2). A file within the API's body limit is sent as it is, so the
 * daemon's refusal is placed at FILE:LINE:COLUMN (<stdin> for "-"), as vqtuned -C places
 * it, and a {"policy":{...}} wrapper (what `--json policy show` prints) is the daemon's to
 * take off (its errors then name policy.FIELD). A larger file (as large as vqtuned takes
 * one, VQ_POLICY_FILE_MAX_BYTES) is unwrapped and sent compacted, which must fit the
 * limit; its errors then have no place in the file.
 */
static int ctl_policy_load(struct ctl_conn *c, const char *file)
{
	char msg[CTL_MSG_MAX_BYTES], where[CTL_WHERE_BYTES];
	json_error_t jerr;
	json_t *root, *inner;
	int ret;
	size_t len = 0;
	char *text;

	ret = ctl_read_all(file, &text, &len);
	if (ret) {
		char brief[UTIL_ARG_BRIEF_BYTES];

		fprintf(stderr, CTL_PROG ": %s: ", util_arg_brief(file, brief, sizeof(brief)));
		if (ret == -EFBIG)
			fprintf(stderr, VQ_POLICY_FILE_TOO_BIG_FMT "\n", VQ_POLICY_FILE_MAX_BYTES);
		else if (ret == -EISDIR)	/* vqtuned -C's words */
			fprintf(stderr, "is a directory, not a policy file\n");
		else if (ret == -EINVAL)
			fprintf(stderr, "is a FIFO, socket or device, not a regular policy file\n");
		else
			fprintf(stderr, "%s\n", strerror(-ret));
		return VQ_EXIT_USAGE;
	}
	root = apierr_json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		apierr_json_text_error(text, len, &jerr, "file", where, sizeof(where), msg,
				       sizeof(msg));
		fprintf(stderr, CTL_PROG ": %s%s: %s\n", file, where, msg);
		ret = VQ_EXIT_USAGE;
	} else if (!json_is_object(root)) {
		int line, column;

		/* vqtuned -C's words (policy.h), at its place: where the value begins */
		where[0] = 0;
		if (!policy_text_pos(text, len, NULL, NULL, 0, false, &line, &column))
			snprintf(where, sizeof(where), ":%d:%d", line, column);
		fprintf(stderr, CTL_PROG ": %s%s: " POLICY_NOT_OBJECT_FMT "\n", file, where,
			apierr_json_type(root));
		ret = VQ_EXIT_USAGE;
	} else if (len <= VQ_API_BODY_MAX_BYTES) {
		/* vqtuned -C names standard input so */
		ret = ctl_policy_put_text(c, strcmp(file, "-") ? file : "<stdin>", text, len);
	} else {
		inner = json_object_get(root, "policy");
		if (json_object_size(root) != 1 || !json_is_object(inner))
			inner = root;
		ret = ctl_policy_body_fits(file, inner) ? ctl_policy_put(c, inner) :
			VQ_EXIT_USAGE;
	}
	free(text);
	json_decref(root);
	return ret;
}

/*
 * PUT the policy @p that `policy set` made from @before; print one line of what changed at
 * @key, as the daemon now has it (the whole policy with --json).
 */
static int ctl_policy_set_put(struct ctl_conn *c, json_t *p, const json_t *before,
			      const char *key)
{
	json_t *r, *now;
	char *line;
	int ret = ctl_request(c, "PUT", CTL_POLICY_PATH, p, &r);

	if (ret)
		return ret;
	if (ctl_json_mode) {
		ctl_print_json(r);
	} else {
		now = json_object_get(r, "policy");
		line = ctl_policy_change_line(before, json_is_object(now) ? now : p, key);
		if (line)
			printf("%s\n", line);
		else
			fprintf(stderr, CTL_PROG ": out of memory\n");
		ret = line ? VQ_EXIT_OK : VQ_EXIT_ERROR;
		free(line);
	}
	json_decref(r);
	return ret;
}

/* Read-modify-write of one dotted key; not atomic against a concurrent policy change. */
static int ctl_policy_set(struct ctl_conn *c, const char *key, const char *value)
{
	char why[CTL_RANGE_ERROR_BYTES], shown[CTL_ARG_SHOWN_BYTES];
	json_t *r, *p, *before;
	int ret, err;
	size_t n;

	/*
	 * refused here: sent on, it would be the string "999..." and refused for its type;
	 * KEY named as the daemon's field errors name it, a long one cut (ctl_arg_shown())
	 */
	if (ctl_json_arg_overflow(value, why, sizeof(why))) {
		int kn = strlen(key) > CTL_ARG_SHOWN_MAX ? CTL_ARG_SHOWN_MAX / 2 : (int)strlen(key);

		return ctl_usage_error("policy", "policy set: %.*s%s: %s", kn, key,
				       key[kn] ? "..." : "", why);
	}
	ret = ctl_request(c, "GET", CTL_POLICY_PATH, NULL, &r);
	if (ret)
		return ret;
	p = json_object_get(r, "policy");
	if (!json_is_object(p)) {
		fprintf(stderr, CTL_PROG ": GET " CTL_POLICY_PATH ": reply has no policy object\n");
		json_decref(r);
		return VQ_EXIT_ERROR;
	}
	before = json_deep_copy(p);
	err = before ? ctl_jpath_set(p, key, ctl_json_value_from_arg(value)) : -ENOMEM;
	if (err == -EINVAL) {
		json_decref(before);
		json_decref(r);
		return ctl_usage_error("policy", "KEY: '%s' is not a dotted path of objects "
				       "in the policy", key);
	}
	if (!err && ctl_policy_same(p, before)) {
		/* nothing to change: no PUT, no event, the name stays */
		if (ctl_json_mode)
			ctl_print_json(r);
		else
			printf("policy '%s': %s unchanged, nothing sent\n",
			       json_string_value(json_object_get(p, "name")) ?: "?", key);
		json_decref(before);
		json_decref(r);
		return VQ_EXIT_OK;
	}
	/* the policy is no longer the one its name stands for (policies/README.md, "name") */
	if (!err && ctl_policy_mark_modified(p, before) < 0)
		err = -ENOMEM;
	/* sent on, the daemon's 413 could not say which field made the body too big */
	n = err ? 0 : json_dumpb(p, NULL, 0, JSON_COMPACT);
	if (n > VQ_API_BODY_MAX_BYTES)
		ret = ctl_usage_error("policy", "policy set: KEY %s and a %zu-byte VALUE make the "
				      "policy %zu bytes as compact JSON, above the API's %d-byte "
				      "body limit", ctl_arg_shown(key, shown, sizeof(shown)),
				      strlen(value), n, VQ_API_BODY_MAX_BYTES);
	else
		ret = err ? VQ_EXIT_ERROR : ctl_policy_set_put(c, p, before, key);
	if (err)
		fprintf(stderr, CTL_PROG ": out of memory\n");
	json_decref(before);
	json_decref(r);
	return ret;
}

/* Subcommand words and the argument count (after the word) each takes. */
static const struct {
	const char *word;
	int nargs;
	const char *what;
} ctl_policy_subs[] = {
	{ "show", 0, "" },
	{ "load", 1, "FILE" },
	{ "set", 2, "KEY VALUE" },
};

int cmd_policy(struct ctl_conn *c, int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "show";
	int nargs = argc > 1 ? argc - 2 : 0;
	char shown[CTL_ARG_SHOWN_BYTES];
	json_t *r;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(ctl_policy_subs) / sizeof(ctl_policy_subs[0]); i++)
		if (!strcmp(sub, ctl_policy_subs[i].word))
			break;
	if (i == sizeof(ctl_policy_subs) / sizeof(ctl_policy_subs[0]))
		return ctl_usage_error("policy", "unknown policy command %s",
				       ctl_arg_shown(sub, shown, sizeof(shown)));
	if (nargs != ctl_policy_subs[i].nargs)
		return ctl_usage_error("policy", "policy %s takes %s%s", sub,
				       ctl_policy_subs[i].nargs ? "" : "no arguments",
				       ctl_policy_subs[i].what);
	if (!strcmp(sub, "load"))
		return ctl_policy_load(c, argv[2]);
	if (!strcmp(sub, "set"))
		return ctl_policy_set(c, argv[2], argv[3]);
	ret = ctl_request(c, "GET", CTL_POLICY_PATH, NULL, &r);
	if (!ret)
		ctl_print(r, ctl_text_policy);
	json_decref(r);
	return ret;
}
