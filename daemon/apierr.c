// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "apierr.h"
#include "util.h"
#include "vqtune_api.h"

/* Longest message: docs/api.md promises 511 bytes of any error message. */
#define APIERR_MSG_MAX_BYTES		512
/* The status of an unparsable request body (RFC 9110 15.5.1). */
#define APIERR_HTTP_BAD_REQUEST		400

json_t *apierr_new(const char *code, const char *field, const char *fmt, ...)
{
	char msg[APIERR_MSG_MAX_BYTES];
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

/*
 * Line and column (1-based, characters as jansson counts them) of the first "\u0000" escape
 * in @text: the one jansson stopped at, since it stops at the first error. jansson itself
 * only gives the end of the string that holds it. 0 when there is none.
 */
static int nul_escape_pos(const char *text, size_t len, int *line, int *col)
{
	static const char esc[] = "u0000";
	size_t i;

	*line = 1;
	*col = 0;
	for (i = 0; i < len; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 0;
			continue;
		}
		/* a UTF-8 continuation byte is part of the character before it */
		if (((unsigned char)text[i] & 0xc0) != 0x80)
			(*col)++;
		if (text[i] != '\\' || i + 1 >= len)
			continue;
		if (len - i - 1 >= strlen(esc) && !strncasecmp(text + i + 1, esc, strlen(esc)))
			return 1;
		i++;	/* the escaped character ("\\", "\"") is no escape itself */
		(*col)++;
	}
	return 0;
}

/*
 * Line and column (1-based, as nul_escape_pos()) of the first raw NUL byte in @text's first
 * @before bytes (where jansson stopped: an earlier fault is its to name); 0 when none. jansson reads a body by its length, but names a NUL after a whole value
 * "end of file expected near end of file", which reads as if the body had ended there.
 */
static int nul_byte_pos(const char *text, size_t len, size_t before, int *line, int *col)
{
	const char *nul = memchr(text, '\0', len < before ? len : before);
	size_t i;

	if (!nul)
		return 0;
	*line = 1;
	*col = 1;
	for (i = 0; text + i < nul; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
			(*col)++;
		}
	}
	return 1;
}

int apierr_json_parse(const char *text, size_t len, const json_error_t *jerr, json_t **err)
{
	char msg[APIERR_MSG_MAX_BYTES];
	int line, col;
	json_t *e, *m;
	enum json_error_code code = json_error_code(jerr);

	/* RFC 8259: a NUL byte is neither whitespace nor a token, nor allowed raw in a string */
	if (nul_byte_pos(text, len, jerr->position, &line, &col)) {
		*err = apierr_new(VQ_ERR_INVALID_JSON, NULL, "line %d column %d: a NUL byte is not "
				  "allowed in JSON text", line, col);
		return APIERR_HTTP_BAD_REQUEST;
	}

	/* a NUL in a value and one in a key are the same fault to a client */
	if (code != json_error_null_character && code != json_error_null_byte_in_key) {
		*err = apierr_new(VQ_ERR_INVALID_JSON, NULL, "line %d column %d: %s", jerr->line,
				  jerr->column, jerr->text);
		return APIERR_HTTP_BAD_REQUEST;
	}
	if (!nul_escape_pos(text, len, &line, &col)) {
		line = jerr->line;
		col = jerr->column;
	}
	/* jansson's own words name its flag JSON_ALLOW_NUL, which means nothing to a client */
	snprintf(msg, sizeof(msg), "line %d column %d: NUL character (\\u0000) in a string is "
		 "not allowed", line, col);
	*err = apierr_new(VQ_ERR_INVALID_JSON, NULL, "%s", msg);
	/*
	 * apierr_new() shows messages in display form, which doubles the backslash; this one
	 * quotes JSON's own escape, so it goes in as written (plain ASCII).
	 */
	e = json_object_get(*err, "error");
	m = json_string(msg);
	if (e && m)
		json_object_set_new(e, "message", m);
	else
		json_decref(m);
	return APIERR_HTTP_BAD_REQUEST;
}
