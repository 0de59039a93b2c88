// SPDX-License-Identifier: GPL-2.0-only
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

json_t *apierr_reason(json_t *err, const char *reason)
{
	json_object_set_new(json_object_get(err, "error"), "reason", json_string(reason));
	return err;
}

json_t *apierr_place(json_t *err, int line, int column)
{
	json_t *e = json_object_get(err, "error");

	json_object_set_new(e, "line", json_integer(line));
	json_object_set_new(e, "column", json_integer(column));
	return err;
}

/*
 * Line and column (1-based) of byte @off of @text, in characters as jansson counts them:
 * a UTF-8 continuation byte is part of the character before it.
 */
static void text_place(const char *text, size_t off, int *line, int *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
			(*col)++;
		}
	}
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

	for (i = 0; i + 1 < len; i++) {
		if (text[i] != '\\')
			continue;
		if (len - i - 1 >= strlen(esc) && !strncasecmp(text + i + 1, esc, strlen(esc))) {
			text_place(text, i, line, col);
			return 1;
		}
		i++;	/* the escaped character ("\\", "\"") is no escape itself */
	}
	return 0;
}

/* longest UTF-8 sequence (RFC 3629 3) */
#define UTF8_SEQ_MAX_BYTES	4
/* UTF-8 byte order mark, U+FEFF (RFC 3629 6); RFC 8259 8.1: JSON text must not start with it */
static const char json_bom[] = "\xef\xbb\xbf";

/*
 * Bytes in the well-formed UTF-8 sequence at @p (at most @left bytes), RFC 3629 4: no
 * overlong form, no surrogate, nothing past U+10FFFF. 0 when @p starts no such sequence.
 */
static size_t utf8_seq_len(const unsigned char *p, size_t left)
{
	unsigned char lo = 0x80, hi = 0xbf;	/* range of the second byte */
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;		/* overlong */
	else if (p[0] == 0xed)
		hi = 0x9f;		/* surrogates */
	else if (p[0] == 0xf0)
		lo = 0x90;		/* overlong */
	else if (p[0] == 0xf4)
		hi = 0x8f;		/* past U+10FFFF */
	if (n > left || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/*
 * Bytes of the text jansson looked at before it failed: its position is past a control byte
 * it read outside a string, but before a byte it put back, as it does with a sequence it
 * cannot decode and with a control byte inside a string (jansson's load.c words that one
 * "control character 0x.."; no error code of its own): then one more sequence counts.
 */
static size_t json_fault_limit(const json_error_t *jerr)
{
	static const char ctl[] = "control character";
	size_t at = jerr->position > 0 ? (size_t)jerr->position : 0;

	if (json_error_code(jerr) == json_error_invalid_utf8 ||
	    !strncmp(jerr->text, ctl, strlen(ctl)))
		at += UTF8_SEQ_MAX_BYTES;
	return at;
}

/*
 * Whether the @n bytes at @tok are a whole JSON string, its closing quote its last byte:
 * a string jansson gave up on inside (a bad escape, a raw newline, the end of the text)
 * has its fault at the place jansson read up to, not at its opening quote.
 */
static bool closed_string(const char *tok, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++) {
		if (tok[i] == '\\')
			i++;
		else if (tok[i] == '"')
			return i == n - 1;
	}
	return false;
}

/*
 * Where jansson's fault is, as LINE and 1-based COLUMN: the first character of the token
 * its words quote ("... near 'TOKEN'", which jansson gives for a token of at most 20
 * bytes) when the text holds that token right before jansson's position and the token is
 * whole (a literal, a number, a closed string); else jansson's own place. jansson places
 * a fault at the last character it read, so "garbage" after the document was placed at
 * its "e", "tru" at its "u" and a key given twice at its closing quote; an editor, and
 * our policy errors, place a token at its start. Inside a string jansson's place is the
 * fault's ("\q" at its "q"), and it is kept. Columns count characters, not the bytes of
 * a UTF-8 sequence.
 */
static void jansson_pos(const char *text, size_t len, const json_error_t *jerr, int *line,
			int *col)
{
	static const char near[] = " near '";
	/* jansson's own words never hold " near '": the first one starts the quote */
	const char *tok = strstr(jerr->text, near);
	size_t at = jerr->position > 0 ? (size_t)jerr->position : 0, n;

	*line = jerr->line;
	*col = apierr_column(jerr->column);
	if (!tok)
		return;
	tok += strlen(near);
	n = strlen(tok);
	if (n < 2 || tok[n - 1] != '\'')
		return;
	n--;		/* the token, without jansson's closing quote */
	if ((tok[0] == '"' && !closed_string(tok, n)) || at > len || at < n ||
	    memcmp(text + at - n, tok, n))
		return;
	text_place(text, at - n, line, col);
}

/* A byte that can be JSON's white space but nothing else (RFC 8259 2). */
static bool json_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Is the @n-byte character at @p DEL or a C1 control (JSON text only inside a string)? */
static bool json_invisible(const unsigned char *p, size_t n)
{
	return p[0] >= 0x20 && n && util_control_len((const char *)p) == n;
}

/* Where the scan of JSON text is: inside a string (RFC 8259 7), just after its backslash. */
struct json_scan {
	bool in_str, esc;
};

/*
 * Steps @sc over the @n-byte character at @p. False when the character is never JSON text
 * there: NUL or another control byte but white space, bytes that are not UTF-8, and outside
 * a string DEL or a C1 control (a string may hold those, RFC 8259 7, and the fields that take
 * strings refuse them themselves).
 */
static bool json_scan_char(struct json_scan *sc, const unsigned char *p, size_t n)
{
	if (!n || (p[0] < 0x20 && !json_ws((char)p[0])))
		return false;
	if (!sc->in_str) {
		if (json_invisible(p, n))
			return false;
		sc->in_str = p[0] == '"';
		return true;
	}
	if (sc->esc)
		sc->esc = false;
	else if (p[0] == '\\')
		sc->esc = true;
	else if (p[0] == '"')
		sc->in_str = false;
	return true;
}

/* @msg: why the @n-byte character at @p (json_scan_char() refused it) is no JSON text. */
static void json_fault_words(const unsigned char *p, size_t n, char *msg, size_t msglen)
{
	if (!p[0])
		snprintf(msg, msglen, "a NUL byte is not allowed in JSON text");
	else if (n == 2 && json_invisible(p, n))
		snprintf(msg, msglen, "U+%04X is not JSON text (a control character)", p[1]);
	else
		snprintf(msg, msglen, "byte 0x%02X is not JSON text (%s)", p[0],
			 n ? "a control character" : "not UTF-8");
}

json_t *apierr_json_loadb(const char *text, size_t len, size_t flags, json_error_t *jerr)
{
	if (memchr(text, '\0', len)) {
		memset(jerr, 0, sizeof(*jerr));
		jerr->line = jerr->column = -1;
		jerr->position = len > INT_MAX ? INT_MAX : (int)len;
		snprintf(jerr->text, sizeof(jerr->text), "NUL byte");
		return NULL;
	}
	return json_loadb(text, len, flags, jerr);
}

int apierr_json_text_fault(const char *text, size_t len, const json_error_t *jerr,
			   const char *what, int *line, int *col, char *msg, size_t msglen)
{
	const unsigned char *u = (const unsigned char *)text;
	size_t before = json_fault_limit(jerr);
	struct json_scan sc = { false, false };
	size_t i, n;

	*line = *col = 0;
	for (i = 0; i < len && json_ws(text[i]); i++)
		;
	if (i == len) {
		snprintf(msg, msglen, len ? "%s holds only white space, no JSON value" :
			 "%s is empty", what);
		return 1;
	}
	*line = *col = 1;
	if (len >= strlen(json_bom) && !memcmp(text, json_bom, strlen(json_bom))) {
		snprintf(msg, msglen, "%s starts with a UTF-8 byte order mark; %s it without one",
			 what, strcmp(what, "file") ? "send" : "save");
		return 1;
	}
	for (i = 0; i < len && i < before; i += n) {
		n = utf8_seq_len(u + i, len - i);
		if (!json_scan_char(&sc, u + i, n)) {
			json_fault_words(u + i, n, msg, msglen);
			return 1;
		}
		/* a character, as jansson counts columns */
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
	return 0;
}

/* longest field path named in a number-overflow message; a deeper one is cut */
#define APIERR_PATH_MAX_BYTES	192
/* what stands in for the number jansson could not hold: a string no JSON text holds raw */
#define APIERR_MARK		"\\u0001vqtune-overflow"
#define APIERR_MARK_VALUE	"\001vqtune-overflow"

/* A byte of a JSON number token (RFC 8259 section 6). */
static bool num_char(char c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' ||
	       c == 'E';
}

/* The path ("a.b[2]") of the string value APIERR_MARK_VALUE under @v, into @path. */
static bool mark_path(json_t *v, char *path, size_t used)
{
	const char *key;
	json_t *c;
	size_t i;

	if (json_is_string(v))
		return !strcmp(json_string_value(v), APIERR_MARK_VALUE);
	if (json_is_object(v)) {
		json_object_foreach(v, key, c) {
			snprintf(path + used, APIERR_PATH_MAX_BYTES - used, "%s%s", used ? "." : "",
				 key);
			if (mark_path(c, path, strlen(path)))
				return true;
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, c) {
			snprintf(path + used, APIERR_PATH_MAX_BYTES - used, "[%zu]", i);
			if (mark_path(c, path, strlen(path)))
				return true;
		}
	}
	path[used] = '\0';
	return false;
}

/*
 * jansson's "too big integer"/"real number overflow" name no field. The number's token (the
 * one jansson stopped in or right after, at jerr->position) is swapped for a marker string,
 * jansson parses that copy, and the marker's path is the field. Text broken elsewhere too
 * keeps jansson's own words.
 */
static bool overflow_why(const char *text, size_t len, const json_error_t *jerr, char *field,
			 size_t flen)
{
	size_t s, e, n;
	char *copy, path[APIERR_PATH_MAX_BYTES] = "";
	json_t *root;
	bool found;

	if (json_error_code(jerr) != json_error_numeric_overflow || jerr->position <= 0 ||
	    (size_t)jerr->position > len)
		return false;
	e = (size_t)jerr->position;
	while (e < len && num_char(text[e]))
		e++;
	s = e;
	while (s > 0 && num_char(text[s - 1]))
		s--;
	if (s == e)
		return false;
	n = s + strlen(APIERR_MARK) + 2 + (len - e);
	copy = malloc(n);
	if (!copy)
		return false;
	memcpy(copy, text, s);
	memcpy(copy + s, "\"" APIERR_MARK "\"", strlen(APIERR_MARK) + 2);
	memcpy(copy + s + strlen(APIERR_MARK) + 2, text + e, len - e);
	root = json_loadb(copy, n, 0, NULL);
	free(copy);
	found = root && mark_path(root, path, 0) && path[0];
	json_decref(root);
	if (found)
		snprintf(field, flen, "%s", path);
	return found;
}

/* "<U+007F>" stands for one byte of jansson's words: they grow at most this many times */
#define JANSSON_WORDS_GROWTH	8

/*
 * jansson's words of @jerr into @out, each control character it quotes (DEL or a C1 control,
 * which a string may hold, RFC 8259 7: '"x<DEL>' at a premature end) written as <U+007F>
 * instead of raw.
 */
static const char *jansson_words(const json_error_t *jerr, char *out, size_t outlen)
{
	const unsigned char *p = (const unsigned char *)jerr->text;
	size_t o = 0, n;

	for (; *p && o + 1 < outlen; p += n ? n : 1) {
		n = util_control_len((const char *)p);
		if (!n) {
			out[o++] = (char)*p;
			continue;
		}
		snprintf(out + o, outlen - o, "<U+%04X>", p[n - 1]);
		o += strlen(out + o);
	}
	out[o] = '\0';
	return out;
}

/* The range a number must keep: jansson says "too big integer" or "real number overflow" */
static const char *overflow_range(const json_error_t *jerr)
{
	return strstr(jerr->text, "integer") ? VQ_JSON_INT_RANGE : VQ_JSON_REAL_RANGE;
}

/* a NUL escape (\u0000) in a string, in the words of a file's and a body's error alike */
#define APIERR_NUL_WHY	"NUL character (\\u0000) in a string is not allowed"

const char *apierr_json_type(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

void apierr_json_text_error(const char *text, size_t len, const json_error_t *jerr,
			    const char *what, char *where, size_t where_len, char *why,
			    size_t why_len)
{
	char field[APIERR_PATH_MAX_BYTES], words[sizeof(jerr->text) * JANSSON_WORDS_GROWTH];
	int line, col;

	if (apierr_json_text_fault(text, len, jerr, what, &line, &col, why, why_len)) {
		where[0] = '\0';
		if (line)
			snprintf(where, where_len, ":%d:%d", line, col);
		return;
	}
	jansson_pos(text, len, jerr, &line, &col);
	snprintf(where, where_len, ":%d:%d", line, col);
	if (json_error_code(jerr) == json_error_null_character ||
	    json_error_code(jerr) == json_error_null_byte_in_key) {
		/* as apierr_json_parse() words it: jansson's names its flag JSON_ALLOW_NUL */
		if (nul_escape_pos(text, len, &line, &col))
			snprintf(where, where_len, ":%d:%d", line, col);
		snprintf(why, why_len, "%s", APIERR_NUL_WHY);
		return;
	}
	if (overflow_why(text, len, jerr, field, sizeof(field)))
		snprintf(why, why_len, "%s: %s (%s)", field, jerr->text, overflow_range(jerr));
	else
		snprintf(why, why_len, "%s", jansson_words(jerr, words, sizeof(words)));
}

int apierr_json_parse(const char *text, size_t len, const json_error_t *jerr, json_t **err)
{
	char msg[APIERR_MSG_MAX_BYTES], field[APIERR_PATH_MAX_BYTES];
	char words[sizeof(jerr->text) * JANSSON_WORDS_GROWTH];
	int line, col;
	json_t *e, *m;
	enum json_error_code code = json_error_code(jerr);

	/*
	 * RFC 8259: a NUL or other control byte is neither white space nor a token, nor allowed
	 * raw in a string; a byte order mark or bytes that are not UTF-8 are no JSON text either
	 */
	if (apierr_json_text_fault(text, len, jerr, "body", &line, &col, msg,
				   sizeof(msg))) {
		if (line)
			*err = apierr_new(VQ_ERR_INVALID_JSON, NULL, "line %d column %d: %s", line,
					  col, msg);
		else
			*err = apierr_new(VQ_ERR_INVALID_JSON, NULL, "%s", msg);
		return APIERR_HTTP_BAD_REQUEST;
	}

	jansson_pos(text, len, jerr, &line, &col);
	if (overflow_why(text, len, jerr, field, sizeof(field))) {
		*err = apierr_new(VQ_ERR_INVALID_JSON, field, "line %d column %d: %s: %s (%s)",
				  line, col, field, jerr->text, overflow_range(jerr));
		return APIERR_HTTP_BAD_REQUEST;
	}
	/* a NUL in a value and one in a key are the same fault to a client */
	if (code != json_error_null_character && code != json_error_null_byte_in_key) {
		*err = apierr_new(VQ_ERR_INVALID_JSON, NULL, "line %d column %d: %s", line, col,
				  jansson_words(jerr, words, sizeof(words)));
		return APIERR_HTTP_BAD_REQUEST;
	}
	if (!nul_escape_pos(text, len, &line, &col)) {
		line = jerr->line;
		col = jerr->column;
	}
	/* jansson's own words name its flag JSON_ALLOW_NUL, which means nothing to a client */
	snprintf(msg, sizeof(msg), "line %d column %d: %s", line, col, APIERR_NUL_WHY);
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
