// SPDX-License-Identifier: GPL-2.0-only
/*
 * Dotted paths into JSON objects, for "policy set KEY VALUE" (pure, unit-tested).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"

int ctl_jpath_set(json_t *obj, const char *path, json_t *value)
{
	char *copy, *seg, *dot;
	json_t *cur = obj;
	int err = -EINVAL;

	if (!value)
		return -ENOMEM;
	copy = strdup(path);
	if (!copy) {
		err = -ENOMEM;
		goto err_put_value;
	}
	seg = copy;
	if (!json_is_object(cur))
		goto err_free_copy;
	while ((dot = strchr(seg, '.'))) {
		json_t *next;

		*dot = '\0';
		if (!*seg)
			goto err_free_copy;
		next = json_object_get(cur, seg);
		if (!next) {
			next = json_object();
			if (!next || json_object_set_new(cur, seg, next)) {
				err = -ENOMEM;
				goto err_free_copy;
			}
		} else if (!json_is_object(next)) {
			goto err_free_copy;
		}
		cur = next;
		seg = dot + 1;
	}
	if (!*seg)
		goto err_free_copy;
	err = json_object_set_new(cur, seg, value) ? -ENOMEM : 0;
	free(copy);
	return err;

err_free_copy:
	free(copy);
err_put_value:
	json_decref(value);
	return err;
}

json_t *ctl_json_value_from_arg(const char *arg)
{
	json_t *v = json_loads(arg, JSON_DECODE_ANY, NULL);

	return v ? v : json_string(arg);
}
