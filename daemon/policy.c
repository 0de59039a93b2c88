// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "apierr.h"
#include "log.h"
#include "policy.h"
#include "reqval.h"
#include "vqtune_api.h"

static struct policy current = { .name = "observe", .mode = "observe" };
static const char *path_;

int policy_parse(json_t *obj, struct policy *out, json_t **err)
{
	static const char *const fields[] = { "name", "mode", NULL };
	const char *name = "custom", *mode = "observe";
	int ret;

	if (!json_is_object(obj)) {
		*err = apierr_new(VQ_ERR_INVALID_FIELD, NULL, "policy: must be a JSON object");
		return 400;
	}
	ret = rv_only_fields(obj, fields, err);
	if (ret)
		return ret;
	ret = rv_string(obj, "name", &name, err);
	if (ret > 1)
		return ret;
	ret = rv_string(obj, "mode", &mode, err);
	if (ret > 1)
		return ret;
	if (strlen(name) >= POLICY_NAME_MAX || !name[0]) {
		*err = apierr_new(VQ_ERR_INVALID_FIELD, "name",
				  "name: must be 1..%d bytes", POLICY_NAME_MAX - 1);
		return 400;
	}
	if (!strcmp(mode, "advise") || !strcmp(mode, "active")) {
		*err = apierr_new(VQ_ERR_UNSUPPORTED, "mode",
				  "mode: '%s' needs controllers, which this build does not have; use 'observe'",
				  mode);
		return 422;
	}
	if (strcmp(mode, "observe")) {
		*err = apierr_new(VQ_ERR_INVALID_FIELD, "mode",
				  "mode: must be one of observe, advise, active");
		return 400;
	}
	snprintf(out->name, sizeof(out->name), "%s", name);
	snprintf(out->mode, sizeof(out->mode), "%s", mode);
	return 0;
}

int policy_load_file(const char *path)
{
	struct policy p;
	json_error_t jerr;
	json_t *obj, *err = NULL;
	int ret;

	obj = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!obj) {
		log_err("policy %s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
		return -EINVAL;
	}
	ret = policy_parse(obj, &p, &err);
	json_decref(obj);
	if (ret) {
		json_t *e = json_object_get(err, "error");

		log_err("policy %s: %s", path, json_string_value(json_object_get(e, "message")));
		json_decref(err);
		return -EINVAL;
	}
	policy_set(&p);
	log_info("policy %s loaded: %s, mode %s", path, p.name, p.mode);
	return 0;
}

void policy_set(const struct policy *p)
{
	current = *p;
}

const struct policy *policy_get(void)
{
	return &current;
}

json_t *policy_json(void)
{
	return json_pack("{s:s, s:s}", "name", current.name, "mode", current.mode);
}

void policy_set_path(const char *path)
{
	path_ = path;
}

const char *policy_path(void)
{
	return path_;
}
