// SPDX-License-Identifier: GPL-2.0-only
/* test_reqval: request-body field checks, their statuses and the messages they give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "apierr.h"
#include "reqval.h"

/* The range of defer-hard-irqs (S32_MAX), the example bound in docs/api.md. */
#define MAX_S32		2147483647ULL

/* *err is {"error":{"code":@code,"message":@msg,"field":@field}}; consumes it. */
static void check_err(json_t *err, const char *code, const char *field, const char *msg)
{
	json_t *e = json_object_get(err, "error");

	assert_non_null(e);
	assert_string_equal(json_string_value(json_object_get(e, "code")), code);
	assert_string_equal(json_string_value(json_object_get(e, "field")), field);
	assert_string_equal(json_string_value(json_object_get(e, "message")), msg);
	json_decref(err);
}

static json_t *body(const char *text)
{
	json_t *b = json_loads(text, 0, NULL);

	assert_non_null(b);
	return b;
}

static void test_uint(void **state)
{
	json_t *b = body("{\"value\":20000,\"zero\":0,\"top\":2147483647,\"over\":4294967295,"
			 "\"neg\":-1,\"big\":9223372036854775807}");
	json_t *err = NULL;
	uint64_t v = 7;

	assert_int_equal(rv_uint(b, "value", 1, 0, MAX_S32, &v, &err), 0);
	assert_int_equal(v, 20000);
	assert_int_equal(rv_uint(b, "zero", 1, 0, MAX_S32, &v, &err), 0);
	assert_int_equal(v, 0);
	assert_int_equal(rv_uint(b, "top", 1, 0, MAX_S32, &v, &err), 0);
	assert_int_equal(v, MAX_S32);
	assert_int_equal(rv_uint(b, "big", 1, 0, UINT64_MAX, &v, &err), 0);
	assert_true(v == 9223372036854775807ULL);
	assert_null(err);

	v = 7;
	assert_int_equal(rv_uint(b, "over", 1, 0, MAX_S32, &v, &err), 422);
	check_err(err, "out_of_range", "over",
		  "over: 4294967295 is above the maximum 2147483647");
	assert_int_equal(v, 7);
	assert_int_equal(rv_uint(b, "neg", 1, 0, MAX_S32, &v, &err), 422);
	check_err(err, "out_of_range", "neg", "neg: -1 is negative");
	assert_int_equal(rv_uint(b, "zero", 1, 1, MAX_S32, &v, &err), 422);
	check_err(err, "out_of_range", "zero", "zero: 0 is below the minimum 1");
	/* the bounds themselves are inside */
	assert_int_equal(rv_uint(b, "value", 1, 20000, 20000, &v, &err), 0);
	assert_int_equal(rv_uint(b, "value", 1, 20001, 30000, &v, &err), 422);
	check_err(err, "out_of_range", "value", "value: 20000 is below the minimum 20001");
	assert_int_equal(rv_uint(b, "value", 1, 0, 19999, &v, &err), 422);
	check_err(err, "out_of_range", "value", "value: 20000 is above the maximum 19999");
	json_decref(b);
}

static void test_uint_types(void **state)
{
	json_t *b = body("{\"s\":\"5\",\"r\":5.0,\"t\":true,\"n\":null,\"a\":[1],\"o\":{}}");
	json_t *err = NULL;
	uint64_t v = 7;

	assert_int_equal(rv_uint(b, "s", 1, 0, 10, &v, &err), 400);
	check_err(err, "invalid_field", "s", "s: must be a non-negative integer, not a string");
	assert_int_equal(rv_uint(b, "r", 1, 0, 10, &v, &err), 400);
	check_err(err, "invalid_field", "r",
		  "r: must be a non-negative integer, not a real number");
	assert_int_equal(rv_uint(b, "t", 0, 0, 10, &v, &err), 400);
	check_err(err, "invalid_field", "t", "t: must be a non-negative integer, not a boolean");
	assert_int_equal(rv_uint(b, "n", 0, 0, 10, &v, &err), 400);
	check_err(err, "invalid_field", "n", "n: must be a non-negative integer, not null");
	assert_int_equal(rv_uint(b, "a", 1, 0, 10, &v, &err), 400);
	check_err(err, "invalid_field", "a", "a: must be a non-negative integer, not an array");
	assert_int_equal(rv_uint(b, "o", 1, 0, 10, &v, &err), 400);
	check_err(err, "invalid_field", "o", "o: must be a non-negative integer, not an object");
	/* absent: fine unless required */
	err = NULL;
	assert_int_equal(rv_uint(b, "value", 0, 0, 10, &v, &err), 1);
	assert_null(err);
	assert_int_equal(rv_uint(b, "value", 1, 0, 10, &v, &err), 400);
	check_err(err, "invalid_field", "value", "value: required field is missing");
	assert_int_equal(v, 7);
	json_decref(b);
}

static void test_bool_string(void **state)
{
	json_t *b = body("{\"d\":true,\"f\":false,\"one\":1,\"q\":\"x\",\"nul\":null}");
	const char *s = NULL;
	json_t *err = NULL;
	int v = -1;

	assert_int_equal(rv_bool(b, "d", &v, &err), 0);
	assert_int_equal(v, 1);
	assert_int_equal(rv_bool(b, "f", &v, &err), 0);
	assert_int_equal(v, 0);
	assert_int_equal(rv_bool(b, "absent", &v, &err), 1);
	assert_null(err);
	assert_int_equal(rv_bool(b, "one", &v, &err), 400);
	check_err(err, "invalid_field", "one", "one: must be true or false, not an integer");
	assert_int_equal(rv_bool(b, "nul", &v, &err), 400);
	check_err(err, "invalid_field", "nul", "nul: must be true or false, not null");

	assert_int_equal(rv_string(b, "q", &s, &err), 0);
	assert_string_equal(s, "x");
	assert_int_equal(rv_string(b, "absent", &s, &err), 1);
	assert_int_equal(rv_string(b, "one", &s, &err), 400);
	check_err(err, "invalid_field", "one", "one: must be a string, not an integer");
	assert_int_equal(rv_string(b, "f", &s, &err), 400);
	check_err(err, "invalid_field", "f", "f: must be a string, not a boolean");
	json_decref(b);
}

static void test_only_fields(void **state)
{
	static const char *const allowed[] = { "value", "queue", "napi_id", "disruptive", NULL };
	json_t *ok = body("{\"value\":1,\"queue\":0,\"disruptive\":true}");
	json_t *bad = body("{\"value\":1,\"vlaue\":2}");
	json_t *empty = body("{}");
	json_t *err = NULL;

	assert_int_equal(rv_only_fields(ok, allowed, &err), 0);
	assert_int_equal(rv_only_fields(empty, allowed, &err), 0);
	assert_null(err);
	assert_int_equal(rv_only_fields(bad, allowed, &err), 400);
	check_err(err, "invalid_field", "vlaue", "vlaue: unknown field");
	json_decref(ok);
	json_decref(bad);
	json_decref(empty);
}

/* The reply for a body jansson rejects: our words for a NUL, jansson's for the rest. */
static json_t *parse_err(const char *text, int *status)
{
	json_error_t jerr;
	json_t *err = NULL, *b = json_loadb(text, strlen(text), JSON_REJECT_DUPLICATES, &jerr);

	assert_null(b);
	*status = apierr_json_parse(text, strlen(text), &jerr, &err);
	assert_non_null(err);
	assert_null(json_object_get(json_object_get(err, "error"), "field"));
	return err;
}

static const char *err_msg(json_t *err)
{
	json_t *e = json_object_get(err, "error");

	assert_string_equal(json_string_value(json_object_get(e, "code")), "invalid_json");
	return json_string_value(json_object_get(e, "message"));
}

static void test_json_nul(void **state)
{
	int st = 0;
	json_t *err = parse_err("{\"reason\":\"a\\u0000b\"}", &st);

	assert_int_equal(st, 400);
	/* no trace of jansson's "JSON_ALLOW_NUL"; the escape quoted with one backslash */
	assert_string_equal(err_msg(err),
			    "line 1 column 13: NUL character (\\u0000) in a string is not allowed");
	json_decref(err);
	/* on the third line, in a key: the position moves with it */
	err = parse_err("{\n\"value\": 1,\n  \"k\\u0000\": 2}", &st);
	assert_int_equal(st, 400);
	assert_string_equal(err_msg(err),
			    "line 3 column 5: NUL character (\\u0000) in a string is not allowed");
	json_decref(err);
	/* an escaped backslash before "u0000" is text, not a NUL: the second string has it */
	err = parse_err("{\"a\":\"\\\\u0000\",\"b\":\"\\u0000\"}", &st);
	assert_int_equal(st, 400);
	assert_string_equal(err_msg(err),
			    "line 1 column 21: NUL character (\\u0000) in a string is not allowed");
	json_decref(err);
}

/*
 * A number jansson cannot hold ("too big integer", "real number overflow") is named by its
 * field path, found from jansson's byte position: in a policy file's report (vqtuned -C,
 * vqtunectl policy load) and in an API body's error (with "field").
 */
static void test_json_overflow_field(void **state)
{
	const char *pol = "{\n \"name\": \"x\",\n \"guard\": {\"a\": [1, 2],\n"
			  "   \"hold_ticks\": 99999999999999999999999, \"z\": 1}\n}\n";
	const char *arr = "{\"a\":[1,{\"b\":1e999}]}";
	char where[64], why[256];
	json_error_t jerr;
	json_t *err, *b;

	b = json_loadb(pol, strlen(pol), JSON_REJECT_DUPLICATES, &jerr);
	assert_null(b);
	apierr_json_text_error(pol, strlen(pol), &jerr, "file", where, sizeof(where), why,
			       sizeof(why));
	assert_string_equal(where, ":4:40");
	assert_string_equal(why, "guard.hold_ticks: too big integer (a JSON integer must lie "
			    "within [-9223372036854775808, 9223372036854775807])");

	b = json_loadb(arr, strlen(arr), 0, &jerr);
	assert_null(b);
	assert_int_equal(apierr_json_parse(arr, strlen(arr), &jerr, &err), 400);
	assert_string_equal(json_string_value(json_object_get(json_object_get(err, "error"),
							       "field")), "a[1].b");
	assert_string_equal(err_msg(err), "line 1 column 14: a[1].b: real number overflow near "
			    "'1e999' (a JSON real must fit a double, at most about 1.8e308)");
	json_decref(err);

	/* the number in an array, and a text broken after it too: jansson's words alone */
	b = json_loadb("[1, 99999999999999999999]", 25, 0, &jerr);
	assert_null(b);
	apierr_json_text_error("[1, 99999999999999999999]", 25, &jerr, "file", where,
			       sizeof(where), why, sizeof(why));
	assert_string_equal(why, "[1]: too big integer near '99999999999999999999' (a JSON "
			    "integer must lie within [-9223372036854775808, 9223372036854775807])");
	b = json_loadb("{\"a\": 99999999999999999999, }", 30, 0, &jerr);
	assert_null(b);
	apierr_json_text_error("{\"a\": 99999999999999999999, }", 30, &jerr, "file", where,
			       sizeof(where), why, sizeof(why));
	assert_string_equal(why, "too big integer near '99999999999999999999'");
	/* other errors keep jansson's words alone */
	b = json_loadb("{\"a\": tru}", 11, 0, &jerr);
	assert_null(b);
	apierr_json_text_error("{\"a\": tru}", 11, &jerr, "file", where, sizeof(where), why,
			       sizeof(why));
	assert_null(strstr(why, "a:"));
}

static void test_json_other_errors(void **state)
{
	int st = 0;
	json_t *err = parse_err("{\"a\":1,\"a\":2}", &st);

	assert_int_equal(st, 400);
	assert_string_equal(err_msg(err), "line 1 column 8: duplicate object key near '\"a\"'");
	json_decref(err);
	err = parse_err("{\"a\":}", &st);
	assert_int_equal(st, 400);
	assert_string_equal(err_msg(err), "line 1 column 6: unexpected token near '}'");
	json_decref(err);
}

/*
 * Bytes jansson quotes raw (invisible on a terminal) and a byte order mark are named in
 * words, at their own line and column; a column is never 0.
 */
static void test_json_text_faults(void **state)
{
	static const struct {
		const char *text, *msg;
	} c[] = {
		{ "\xef\xbb\xbf{\"value\":1}",
		  "line 1 column 1: body starts with a UTF-8 byte order mark; send it without one" },
		{ "{\"value\":1,\x01}", "line 1 column 12: byte 0x01 is not JSON text (a control "
		  "character)" },
		/* inside a string jansson puts the byte back: still found, at its own column */
		{ "{\"r\": \"x\x1f\"}", "line 1 column 9: byte 0x1F is not JSON text (a control "
		  "character)" },
		{ "{\n \"r\": \"x\xff\"}", "line 2 column 9: byte 0xFF is not JSON text (not "
		  "UTF-8)" },
		/* overlong "/" (C0 AF) and a lone continuation byte are not UTF-8 either */
		{ "{\"r\": \"\xc0\xaf\"}", "line 1 column 8: byte 0xC0 is not JSON text (not UTF-8)" },
		{ "{\"r\": \"\xc3\xa9\x80\"}", "line 1 column 9: byte 0x80 is not JSON text (not "
		  "UTF-8)" },
		{ " \n\t", "body holds only white space, no JSON value" },
		/* jansson's column 0 at the start of a line is column 1 */
		{ "{\"value\":1,\n", "line 2 column 1: string or '}' expected near end of file" },
		/*
		 * a token jansson read whole is placed at its first character, not at its last
		 * (jansson's place): what comes after the document, a bad literal, a key twice
		 */
		{ "{}\n  garbage\n", "line 2 column 3: end of file expected near 'garbage'" },
		{ "{\"mode\": tru}", "line 1 column 10: invalid token near 'tru'" },
		{ "{\"a\":\n1,\"a\":2}", "line 2 column 3: duplicate object key near '\"a\"'" },
		{ "{\" near 'x\":1, \" near 'x\":2}",
		  "line 1 column 16: duplicate object key near '\" near 'x\"'" },
		/* ... but a fault inside a string stays where jansson read up to: at the "q" */
		{ "{\"name\": \"abc\\qdef\"}", "line 1 column 15: invalid escape near "
		  "'\"abc\\\\q'" },
		/* a control byte after the fault jansson found is not the fault */
		{ "{\"a\" 1\x01}", "line 1 column 6: ':' expected near '1'" },
		/* DEL and the C1 controls (CSI: U+009B) outside a string, named like 0x01 ... */
		{ "\x7f", "line 1 column 1: byte 0x7F is not JSON text (a control character)" },
		{ "{\"value\":1\x7f}", "line 1 column 11: byte 0x7F is not JSON text (a control "
		  "character)" },
		{ "{\"value\":1,\xc2\x9b}", "line 1 column 12: U+009B is not JSON text (a control "
		  "character)" },
		/* ... a string may hold them (RFC 8259 7): jansson's fault, its quote not raw */
		{ "{\"r\":\"\\\"\x7f\", x}", "line 1 column 13: string or '}' expected near 'x'" },
		{ "{\"r\":\"x\x7f\xc2\x9b", "line 1 column 9: premature end of input near "
		  "'\"x<U+007F><U+009B>'" },
	};
	size_t i;
	int st;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		json_t *err = parse_err(c[i].text, &st);

		assert_int_equal(st, 400);
		assert_string_equal(err_msg(err), c[i].msg);
		json_decref(err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uint),
		cmocka_unit_test(test_uint_types),
		cmocka_unit_test(test_bool_string),
		cmocka_unit_test(test_only_fields),
		cmocka_unit_test(test_json_nul),
		cmocka_unit_test(test_json_other_errors),
		cmocka_unit_test(test_json_overflow_field),
		cmocka_unit_test(test_json_text_faults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
