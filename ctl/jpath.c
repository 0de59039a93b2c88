// SPDX-License-Identifier: GPL-2.0-only
/*
 * Dotted paths into JSON objects, and the name a changed policy gets, for "policy set KEY
 * VALUE" (pure, unit-tested).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"

/*
 * Put @value (stolen) at @key of @obj: an object onto an object sets the members it gives,
 * recursively, and keeps the others; anything else replaces what was there.
 */
static int ctl_jpath_put(json_t *obj, const char *key, json_t *value)
{
	json_t *old = json_object_get(obj, key);
	int err;

	if (!json_is_object(old) || !json_is_object(value))
		return json_object_set_new(obj, key, value) ? -ENOMEM : 0;
	err = json_object_update_recursive(old, value) ? -ENOMEM : 0;
	json_decref(value);
	return err;
}

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
	err = ctl_jpath_put(cur, seg, value);
	free(copy);
	return err;

err_free_copy:
	free(copy);
err_put_value:
	json_decref(value);
	return err;
}

const json_t *ctl_jpath_get(const json_t *obj, const char *path)
{
	const char *seg = path, *dot;
	char key[CTL_JPATH_SEG_MAX_BYTES];

	while (json_is_object(obj)) {
		dot = strchr(seg, '.');
		if (!dot)
			return json_object_get(obj, seg);
		if ((size_t)(dot - seg) >= sizeof(key))
			return NULL;
		snprintf(key, sizeof(key), "%.*s", (int)(dot - seg), seg);
		obj = json_object_get(obj, key);
		seg = dot + 1;
	}
	return NULL;
}

/* Numbers as the daemon reads them where @before's number was (ctl_policy_same()). */
static bool ctl_number_same(const json_t *now, const json_t *before)
{
	if (json_is_integer(now) && json_is_integer(before))
		return json_integer_value(now) == json_integer_value(before);
	/* a real field takes an integer; an integer field refuses a real, so it is sent */
	return json_is_real(before) && json_number_value(now) == json_number_value(before);
}

bool ctl_policy_same(const json_t *now, const json_t *before)
{
	const json_t *v;
	const char *key;
	size_t i;

	if (json_is_number(now) && json_is_number(before))
		return ctl_number_same(now, before);
	if (json_is_object(now) && json_is_object(before)) {
		if (json_object_size(now) != json_object_size(before))
			return false;
		json_object_foreach((json_t *)now, key, v)
			if (!ctl_policy_same(v, json_object_get(before, key)))
				return false;
		return true;
	}
	if (json_is_array(now) && json_is_array(before)) {
		if (json_array_size(now) != json_array_size(before))
			return false;
		for (i = 0; i < json_array_size(now); i++)
			if (!ctl_policy_same(json_array_get(now, i), json_array_get(before, i)))
				return false;
		return true;
	}
	return json_equal(now, before);
}

/* A value as `policy set` takes it back: numbers as ctl_fmt_json_number(), else JSON. */
static char *ctl_policy_value(const json_t *v)
{
	char num[CTL_JSON_NUMBER_BYTES];

	if (!v)
		return strdup("(absent)");
	if (json_is_number(v))
		return strdup(ctl_fmt_json_number(v, num, sizeof(num)));
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}

char *ctl_policy_change_line(const json_t *before, const json_t *after, const char *key)
{
	const char *name = json_string_value(json_object_get(after, "name"));
	char *old = ctl_policy_value(ctl_jpath_get(before, key));
	char *now = ctl_policy_value(ctl_jpath_get(after, key));
	char *line = NULL;

	if (old && now && asprintf(&line, "policy '%s': %s %s -> %s", name ? name : "-", key,
				   old, now) < 0)
		line = NULL;
	free(old);
	free(now);
	return line;
}

/* RFC 8259 section 6: -? int frac? exp?, int "0" or a digit 1-9 and more digits. */
static bool ctl_is_json_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		s += strspn(s, "0123456789");
	else
		return false;
	if (*s == '.') {
		if (!isdigit((unsigned char)*++s))
			return false;
		s += strspn(s, "0123456789");
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return false;
		s += strspn(s, "0123456789");
	}
	return !*s;
}

int ctl_json_arg_overflow(const char *arg, char *why, size_t len)
{
	char shown[CTL_ARG_SHOWN_BYTES];
	json_error_t jerr;
	json_t *v = json_loads(arg, JSON_DECODE_ANY, &jerr);

	if (v || json_error_code(&jerr) != json_error_numeric_overflow) {
		json_decref(v);
		return 0;
	}
	ctl_arg_shown(arg, shown, sizeof(shown));
	if (!ctl_is_json_number(arg))
		snprintf(why, len, "%s holds a number JSON cannot hold here: %s", shown, jerr.text);
	else if (strpbrk(arg, ".eE"))
		snprintf(why, len, "%s is too big for a JSON real (" VQ_JSON_REAL_RANGE ")", shown);
	else
		snprintf(why, len, "%s is too %s for a JSON integer (" VQ_JSON_INT_RANGE ")", shown,
			 *arg == '-' ? "small" : "big");
	return -ERANGE;
}

json_t *ctl_json_value_from_arg(const char *arg)
{
	json_t *v = json_loads(arg, JSON_DECODE_ANY, NULL);

	return v ? v : json_string(arg);
}

/* What `policy set` appends to the name of a policy it changed. */
#define CTL_POLICY_MODIFIED	" (modified)"
/* A policy name is 1..63 bytes (policies/README.md, "name"). */
#define CTL_POLICY_NAME_MAX_BYTES	63

int ctl_policy_mark_modified(json_t *now, const json_t *before)
{
	const char *name = json_string_value(json_object_get(now, "name"));
	const char *old = json_string_value(json_object_get(before, "name"));
	size_t n, keep, sl = strlen(CTL_POLICY_MODIFIED);
	char buf[CTL_POLICY_NAME_MAX_BYTES + 1];

	/* a new name was asked for, or nothing changed: the name is right as it is */
	if (!name || !old || strcmp(name, old) || ctl_policy_same(now, before))
		return 0;
	n = strlen(name);
	if (n >= sl && !strcmp(name + n - sl, CTL_POLICY_MODIFIED))
		return 0;
	keep = n;
	if (keep > CTL_POLICY_NAME_MAX_BYTES - sl) {
		keep = CTL_POLICY_NAME_MAX_BYTES - sl;
		/* not inside a UTF-8 sequence: back to the byte that starts a character */
		while (keep && ((unsigned char)name[keep] & 0xc0) == 0x80)
			keep--;
	}
	snprintf(buf, sizeof(buf), "%.*s%s", (int)keep, name, CTL_POLICY_MODIFIED);
	return json_object_set_new(now, "name", json_string(buf)) ? -ENOMEM : 1;
}
