/*
 * test_json.c: the library's one JSON reader (<xq/json.h>) as a program
 * uses it: strict JSON, tokens that skip a value in one step, members,
 * strings and numbers as JSON defines them, and each refusal with its
 * place.  Built and run by tests/install.sh as test_api.c is.
 */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <locale.h>
#include <math.h>

#include <xq/xq.h>
#include <xq/json.h>

/* Parse `text`, expecting `rc`; with a failure, at byte `at` saying `msg`. */
static void parse_fails(xq_json *j, const char *text, int rc, size_t at, const char *msg)
{
	assert_int_equal(xq_json_parse(j, text, strlen(text)), rc);
	assert_int_equal(xq_json_error_offset(j), at);
	assert_string_equal(xq_json_error_message(j), msg);
	assert_int_equal(xq_json_count(j), 0);
}

static void a_json_text_becomes_tokens_that_skip_a_value_in_one_step(void **state)
{
	static const char text[] = " {\"a\": [1, {\"b\": null}, \"x\"],\n \"c\": true, \"d\": {}} ";
	xq_json *j = xq_json_new();
	size_t a, k, n = 0;

	(void)state;
	assert_non_null(j);
	assert_int_equal(xq_json_parse(j, text, sizeof(text) - 1), 0);
	assert_string_equal(xq_json_error_message(j), "");
	assert_int_equal(xq_json_count(j), 12);
	assert_int_equal(xq_json_type(j, 0), XQ_JSON_OBJECT);
	assert_int_equal(xq_json_next(j, 0), 12);
	/* The members: name at k, value at k + 1. */
	for (k = 1; k < xq_json_next(j, 0); k = xq_json_next(j, k + 1))
		n++;
	assert_int_equal(n, 3);
	a = xq_json_member(j, 0, "a");
	assert_int_equal(a, 2);
	assert_int_equal(xq_json_type(j, a), XQ_JSON_ARRAY);
	assert_int_equal(xq_json_next(j, a), 8); /* past 1, {"b": null} and "x" */
	n = 0;
	for (k = a + 1; k < xq_json_next(j, a); k = xq_json_next(j, k))
		n++;
	assert_int_equal(n, 3);
	assert_int_equal(xq_json_type(j, xq_json_member(j, 0, "c")), XQ_JSON_TRUE);
	assert_int_equal(xq_json_type(j, xq_json_member(j, 0, "d")), XQ_JSON_OBJECT);
	assert_int_equal(xq_json_member(j, 0, "e"), 0);
	assert_int_equal(xq_json_member(j, a, "a"), 0); /* not an object */
	/* Places: offset and column (a line feed counts as a character). */
	assert_int_equal(xq_json_offset(j, 0), 1);
	assert_int_equal(xq_json_column(j, 0), 2);
	k = xq_json_member(j, 0, "c") - 1;
	assert_int_equal(xq_json_offset(j, k), 31);
	assert_int_equal(xq_json_column(j, k), 32);
	assert_int_equal(xq_json_type(j, 99), -1);
	assert_int_equal(xq_json_next(j, 99), 99);
	assert_null(xq_json_text(j, 0, NULL));
	assert_string_equal(xq_json_type_name(XQ_JSON_NULL), "null");
	assert_string_equal(xq_json_type_name(42), "a value");
	xq_json_free(j);
}

static void strings_decode_escapes_and_surrogate_pairs_into_utf8(void **state)
{
	static const char text[] = "{\"na\\u006de\": \"\\u4e2d\\t\\\"\\\\\\/\\ud834\\udd1e\"}";
	xq_json *j = xq_json_new();
	xq_buf b = XQ_BUF_INIT;
	size_t v, len;

	(void)state;
	assert_int_equal(xq_json_parse(j, text, sizeof(text) - 1), 0);
	v = xq_json_member(j, 0, "name"); /* found by its decoded name */
	assert_int_equal(v, 2);
	assert_int_equal(xq_json_string(j, v, &b), 0);
	assert_string_equal(b.ptr, "中\t\"\\/\xF0\x9D\x84\x9E");
	assert_non_null(xq_json_text(j, v, &len));
	assert_int_equal(len, 28);
	assert_int_equal(xq_json_string(j, 0, &b), XQ_EINVAL); /* not a string */
	xq_buf_release(&b);
	xq_json_free(j);
}

static void numbers_read_as_json_defines_them(void **state)
{
	static const char text[] = "[3, 3.0, 0.3e1, 30E-1, -0, 1.5, -2, 18446744073709551615,"
				   " 18446744073709551616, 1e400, 2.5e-1, 100e-2]";
	static const struct {
		int rc;
		uint64_t v;
	} want[] = {{0, 3},        {0, 3}, {0, 3}, {0, 3},
		    {0, 0},        {XQ_ERANGE, 0}, {XQ_ERANGE, 0}, {0, UINT64_MAX},
		    {XQ_ERANGE, 0}, {XQ_ERANGE, 0}, {XQ_ERANGE, 0}, {0, 1}};
	xq_json *j = xq_json_new();
	size_t e;
	int i = 0;
	double d;

	(void)state;
	/* A decimal comma, where the program asked for one, must not matter
	 * (where such a locale is installed: C.UTF-8 alone has none). */
	if (!setlocale(LC_NUMERIC, "de_DE.UTF-8"))
		setlocale(LC_NUMERIC, "fr_FR.UTF-8");
	assert_int_equal(xq_json_parse(j, text, sizeof(text) - 1), 0);
	for (e = 1; e < xq_json_next(j, 0); e = xq_json_next(j, e), i++) {
		uint64_t v = 42;
		assert_int_equal(xq_json_uint(j, e, &v), want[i].rc);
		if (!want[i].rc)
			assert_true(v == want[i].v);
	}
	assert_int_equal(i, 12);
	assert_int_equal(xq_json_number(j, 6, &d), 0);
	assert_true(d == 1.5);
	assert_int_equal(xq_json_number(j, 10, &d), XQ_ERANGE);
	assert_true(isinf(d));
	assert_int_equal(xq_json_number(j, 11, &d), 0);
	assert_true(d == 0.25);
	assert_int_equal(xq_json_uint(j, 0, NULL), XQ_EINVAL);
	assert_int_equal(xq_json_number(j, 0, &d), XQ_EINVAL);
	setlocale(LC_NUMERIC, "C");
	xq_json_free(j);
}

static void what_is_not_json_is_refused_with_its_place(void **state)
{
	xq_json *j = xq_json_new();

	(void)state;
	parse_fails(j, "", XQ_EPARSE, 0, "empty record");
	parse_fails(j, "  \n ", XQ_EPARSE, 4, "empty record");
	parse_fails(j, "{\"a\":1", XQ_EPARSE, 6, "the line ends before the record does");
	parse_fails(j, "{\"a\":1} x", XQ_EPARSE, 8, "text after the end of the record");
	parse_fails(j, "{\"a\" 1}", XQ_EPARSE, 5, "expected ':' after a member name");
	parse_fails(j, "[1 2]", XQ_EPARSE, 3, "expected ',' or ']'");
	parse_fails(j, "{a:1}", XQ_EPARSE, 1, "expected a member name in double quotes");
	parse_fails(j, "[NaN]", XQ_EPARSE, 1, "expected a value");
	parse_fails(j, "[Infinity]", XQ_EPARSE, 1, "expected a value");
	parse_fails(j, "[01]", XQ_EPARSE, 2, "expected ',' or ']'");
	parse_fails(j, "[+1]", XQ_EPARSE, 1, "expected a value");
	parse_fails(j, "[1.]", XQ_EPARSE, 1, "malformed number");
	parse_fails(j, "[.5]", XQ_EPARSE, 1, "expected a value");
	parse_fails(j, "[1,]", XQ_EPARSE, 3, "expected a value");
	parse_fails(j, "{\"a\":1,}", XQ_EPARSE, 7, "expected a member name in double quotes");
	parse_fails(j, "[\"a\tb\"]", XQ_EPARSE, 3, "control character U+0009 in a string (write it as an escape)");
	parse_fails(j, "[\"\\x\"]", XQ_EPARSE, 2, "unknown escape '\\x' in a string");
	parse_fails(j, "[\"\\u12\"]", XQ_EPARSE, 2, "'\\u' must be followed by four hex digits");
	parse_fails(j, "[\"\\u0000\"]", XQ_EPARSE, 2, "'\\u0000': a NUL character cannot be held in a record");
	parse_fails(j, "[\"\\udc00\"]", XQ_EENCODING, 2,
		    "'\\uDC00' is a low surrogate with no high surrogate before it");
	parse_fails(j, "[\"\\ud800x\"]", XQ_EENCODING, 2,
		    "'\\uD800' is a high surrogate with no low surrogate after it");
	parse_fails(j, "[\"abc", XQ_EPARSE, 5, "the line ends inside a string");
	parse_fails(j, "[\"\xC3\x28\"]", XQ_EENCODING, 2, "byte 0xC3 is not UTF-8");
	/* A failure forgets the tokens; the next parse starts afresh. */
	assert_int_equal(xq_json_parse(j, "[]", 2), 0);
	assert_int_equal(xq_json_count(j), 1);
	assert_int_equal(xq_json_error_offset(j), 0);
	xq_json_free(j);
}

static void a_value_nested_a_million_deep_is_read_without_recursion(void **state)
{
	size_t n = 1000000;
	char *text = malloc(2 * n);
	xq_json *j = xq_json_new();

	(void)state;
	assert_non_null(text);
	memset(text, '[', n);
	memset(text + n, ']', n);
	assert_int_equal(xq_json_parse(j, text, 2 * n), 0);
	assert_int_equal(xq_json_count(j), n);
	assert_int_equal(xq_json_next(j, 0), n);
	assert_int_equal(xq_json_next(j, n - 1), n);
	free(text);
	xq_json_free(j);
}

static void a_null_reader_or_text_is_an_invalid_argument(void **state)
{
	xq_json *j = xq_json_new();
	xq_buf b = XQ_BUF_INIT;
	uint64_t v;
	double d;

	(void)state;
	assert_int_equal(xq_json_parse(NULL, "[]", 2), XQ_EINVAL);
	assert_int_equal(xq_json_parse(j, NULL, 2), XQ_EINVAL);
	assert_int_equal(xq_json_parse(j, NULL, 0), XQ_EPARSE); /* an empty text */
	assert_int_equal(xq_json_error_offset(NULL), 0);
	assert_string_equal(xq_json_error_message(NULL), "");
	assert_int_equal(xq_json_count(NULL), 0);
	assert_int_equal(xq_json_type(NULL, 0), -1);
	assert_int_equal(xq_json_next(NULL, 0), 0);
	assert_int_equal(xq_json_offset(NULL, 0), 0);
	assert_int_equal(xq_json_column(NULL, 0), 0);
	assert_null(xq_json_text(NULL, 0, NULL));
	assert_int_equal(xq_json_member(NULL, 0, "a"), 0);
	assert_int_equal(xq_json_parse(j, "{\"a\":1}", 7), 0);
	assert_int_equal(xq_json_member(j, 0, NULL), 0);
	assert_int_equal(xq_json_string(NULL, 0, &b), XQ_EINVAL);
	assert_int_equal(xq_json_string(j, 1, NULL), XQ_EINVAL);
	assert_int_equal(xq_json_uint(NULL, 2, &v), XQ_EINVAL);
	assert_int_equal(xq_json_number(NULL, 2, &d), XQ_EINVAL);
	xq_json_free(NULL);
	xq_json_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_json_text_becomes_tokens_that_skip_a_value_in_one_step),
		cmocka_unit_test(strings_decode_escapes_and_surrogate_pairs_into_utf8),
		cmocka_unit_test(numbers_read_as_json_defines_them),
		cmocka_unit_test(what_is_not_json_is_refused_with_its_place),
		cmocka_unit_test(a_value_nested_a_million_deep_is_read_without_recursion),
		cmocka_unit_test(a_null_reader_or_text_is_an_invalid_argument),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
