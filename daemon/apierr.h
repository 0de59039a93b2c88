/* SPDX-License-Identifier: GPL-2.0-only */
/* apierr: the API's error object {"error":{"code","message"[,"field"]}} (docs/api.md). */
#ifndef VQ_APIERR_H
#define VQ_APIERR_H

#include <jansson.h>

/* New reference; @field may be NULL. @code: a VQ_ERR_* from include/vqtune_api.h. */
json_t *apierr_new(const char *code, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Adds "reason":@reason (a VQ_ERR_REASON_* word of include/vqtune_api.h) to @err, an
 * apierr_new() object, for a client to key on instead of the message. Returns @err; a NULL
 * @err (no memory) stays NULL.
 */
json_t *apierr_reason(json_t *err, const char *reason);
/*
 * Adds "line":@line and "column":@column (1-based, characters as jansson counts them) to
 * @err, an apierr_new() object about a value of the request body: where it is. Returns @err;
 * a NULL @err stays NULL.
 */
json_t *apierr_place(json_t *err, int line, int column);

/*
 * The 400 invalid_json reply for the @len bytes of @text that json_loadb() could not parse
 * (@jerr): "line L column C: <why>" with jansson's line and column (1-based; jansson's
 * column 0, "before the first character" of a line, is given as 1). A NUL character
 * ("\u0000": RFC 8259 7 allows it, the API's strings are C strings) is named in our words,
 * "NUL character (\u0000) in a string is not allowed", at the escape itself (jansson points
 * at the end of its string); so are the faults of apierr_json_text_fault() (@what "body");
 * other errors keep jansson's text.
 * Returns 400 and stores an apierr_new() object in *err.
 */
int apierr_json_parse(const char *text, size_t len, const json_error_t *jerr, json_t **err);

/*
 * A fault of the JSON text @text (@len bytes) that json_loadb() refused with @jerr and
 * words poorly, named so a person can act on it; @what names the text ("file",
 * "body"). In order: nothing but white space ("file is empty", "file holds only white
 * space, no JSON value"); a UTF-8 byte order mark at the start (RFC 8259 8.1: "file starts
 * with a UTF-8 byte order mark; save it without one"); up to where jansson stopped, a
 * byte that is never JSON text: NUL ("a NUL byte is not allowed in JSON text"), another
 * control byte but tab, LF and CR, or one that is not part of well-formed UTF-8 (RFC 3629),
 * "byte 0x01 is not JSON text (a control character)" / "(not UTF-8)". jansson quotes such
 * bytes raw, where they are invisible. Fills @msg, and *line and *col (1-based, characters
 * as jansson counts them) with the place, both 0 when the fault has none (empty text).
 * Returns 1, or 0 when none applies and jansson's words are the ones to give.
 */
int apierr_json_text_fault(const char *text, size_t len, const json_error_t *jerr,
			   const char *what, int *line, int *col, char *msg, size_t msglen);

/*
 * json_loadb() that refuses a NUL byte anywhere in @text (@len bytes): jansson takes a NUL
 * right after some tokens (a number, true) for the end of the text and returns what came
 * before it, so `{"value":1<NUL>}` would parse. Such a text gets NULL and a @jerr whose
 * position is @len, which apierr_json_parse() and apierr_json_text_error() word as "a NUL
 * byte is not allowed in JSON text" at the NUL's own line and column.
 */
json_t *apierr_json_loadb(const char *text, size_t len, size_t flags, json_error_t *jerr);

/* A JSON value's type as an error names it: "an object", "an array", ..., "null". */
const char *apierr_json_type(const json_t *v);

/*
 * Where and why jansson refused @text (a file or body, as @what in apierr_json_text_fault()):
 * @where gets ":LINE:COLUMN", empty when the fault has no place (an empty text); @why
 * apierr_json_text_fault()'s words, else jansson's own, with a 1-based column; a number
 * too big for jansson is named by its field ("guard.hold_ticks: too big integer (...)"). For
 * "NAME:LINE:COLUMN: why" reports of policy files (vqtuned and vqtunectl alike).
 */
void apierr_json_text_error(const char *text, size_t len, const json_error_t *jerr,
			    const char *what, char *where, size_t where_len, char *why,
			    size_t why_len);

/* jansson's column, 1-based: it gives 0 at the start of a line (after a newline, or EOF). */
static inline int apierr_column(int jansson_column)
{
	return jansson_column < 1 ? 1 : jansson_column;
}

#endif
