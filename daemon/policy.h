/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * policy: what vqtuned is asked to do. This build has no controllers yet, so the only mode
 * it accepts is "observe"; "advise" and "active" are refused as unsupported rather than
 * accepted and ignored. Fields: "name" (string, <= 63 bytes), "mode".
 */
#ifndef VQ_POLICY_H
#define VQ_POLICY_H

#include <jansson.h>
#include <stddef.h>

#define POLICY_NAME_MAX	64

struct policy {
	char name[POLICY_NAME_MAX];
	char mode[16];		/* "observe" */
};

/* Validate @obj into @out. 0, or an HTTP status (400/422) with *err an apierr object. */
int policy_parse(json_t *obj, struct policy *out, json_t **err);
/* Load and install @path; messages name file, line, column and field. 0 or -EINVAL. */
int policy_load_file(const char *path);
/* Install @p atomically. */
void policy_set(const struct policy *p);
const struct policy *policy_get(void);
json_t *policy_json(void);
/* Path given with --policy, for SIGHUP reloads (NULL: none). */
void policy_set_path(const char *path);
const char *policy_path(void);

#endif
