// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>

#include "apierr.h"
#include "util.h"

json_t *apierr_new(const char *code, const char *field, const char *fmt, ...)
{
	char msg[512];
	json_t *e;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* messages may quote names with arbitrary bytes: keep them valid UTF-8 */
	e = json_pack("{s:s, s:o}", "code", code, "message", util_json_str(msg));
	if (e && field)
		json_object_set_new(e, "field", util_json_str(field));
	return json_pack("{s:o}", "error", e);
}
