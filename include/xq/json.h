/*
 * <xq/json.h>: the library's one JSON reader.  xqkit reads its NDJSON
 * game records (doc/ndjson.md) and merges its run summaries with it.
 *
 * A text is read strictly, as RFC 8259 says: UTF-8 only; white space is
 * space, tab, line feed and carriage return; strings hold no raw control
 * character, escapes and surrogate pairs as the RFC spells them, and
 * "\u0000" is refused (no text the library keeps can hold a NUL); numbers
 * follow JSON's grammar (no NaN or Infinity, no leading zeros, no '+',
 * no '.' without digits on both sides); one value, then nothing but white
 * space.  A text of more than 4 GiB - 1 bytes is refused (XQ_ERANGE).
 *
 * What a parse gives is a flat array of tokens, the value's in the order
 * they are written: token 0 is the whole value; an object's token is
 * followed by its members, each a string token (the name) then the
 * value's tokens; an array's by its elements.  Every token knows the
 * token after it and everything inside it (xq_json_next()), so a value is
 * skipped in one step, and nothing recurses however deep the nesting:
 *
 *	for (size_t k = obj + 1; k < xq_json_next(j, obj); k = xq_json_next(j, k + 1))
 *		... member name at k, its value at k + 1 ...
 *	for (size_t e = arr + 1; e < xq_json_next(j, arr); e = xq_json_next(j, e))
 *		... element at e ...
 *
 * The text is borrowed: it must stay, unchanged, until the next parse or
 * xq_json_free().  One thread at a time per xq_json; no global state.
 *
 * Errors: a parse that fails says where (the byte offset in the text) and
 * why, in the words xqkit reports it with.  A NULL xq_json is an invalid
 * argument: the functions that return a code return XQ_EINVAL, the
 * others 0 (-1 for xq_json_type(), "" for xq_json_error_message(), NULL
 * for xq_json_text()); what each does with its other pointers, it says.
 */
#ifndef XQ_PUBLIC_JSON_H
#define XQ_PUBLIC_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xq_json xq_json;

/* The type of a token (xq_json_type()). */
enum xq_json_type {
	XQ_JSON_OBJECT,
	XQ_JSON_ARRAY,
	XQ_JSON_STRING,
	XQ_JSON_NUMBER,
	XQ_JSON_TRUE,
	XQ_JSON_FALSE,
	XQ_JSON_NULL
};

/* A reader with nothing parsed yet; NULL when out of memory.  Reuse it
 * for many texts: it keeps its memory from one parse to the next. */
XQ_API xq_json *xq_json_new(void);
/* Free it (NULL is allowed). */
XQ_API void xq_json_free(xq_json *j);

/*
 * Parse the `len` bytes at `text` (borrowed, see above; NULL is allowed
 * only with len 0, an empty text).  0 with the tokens ready; or
 * XQ_EPARSE (not JSON: syntax, an empty text, text after the value),
 * XQ_EENCODING (bytes that are not UTF-8, an unpaired surrogate escape),
 * XQ_ERANGE (a text of 4 GiB or more), XQ_ENOMEM, each with where and why
 * in xq_json_error_offset() and xq_json_error_message(), and no token;
 * NULL `j`, or NULL `text` with len > 0: XQ_EINVAL (NULL `text` with len
 * 0 is the empty text).
 */
XQ_API int xq_json_parse(xq_json *j, const char *text, size_t len);
/* After a parse that failed: the byte offset in the text where the
 * problem is, and what it is ("expected ':' after a member name"); after
 * one that did not, 0 and "".  The message stays until the next parse.
 * xq_json_error_offset(): NULL `j`: 0; xq_json_error_message(): NULL `j`:
 * "". */
XQ_API size_t xq_json_error_offset(const xq_json *j);
XQ_API const char *xq_json_error_message(const xq_json *j);

/* The number of tokens of the value last parsed (0 after a failure).
 * NULL `j`: 0. */
XQ_API size_t xq_json_count(const xq_json *j);
/* The type of token `t` (an enum xq_json_type), or -1 past the end.
 * NULL `j`: -1. */
XQ_API int xq_json_type(const xq_json *j, size_t t);
/* "an object", "an array", "a string", "a number", "true", "false",
 * "null" for a type, as messages say what was found; "a value" for any
 * other number.  Static strings. */
XQ_API const char *xq_json_type_name(int type);
/* The token after token `t` and everything inside it (xq_json_count()
 * after the last value); `t` itself past the end.  NULL `j`: 0. */
XQ_API size_t xq_json_next(const xq_json *j, size_t t);
/* Where token `t` starts in the text: its byte offset, and its column,
 * counted in characters from 1 (the text is one line: a line feed in
 * white space counts as a character); 0 for both past the end.
 * NULL `j`: 0. */
XQ_API size_t xq_json_offset(const xq_json *j, size_t t);
XQ_API size_t xq_json_column(const xq_json *j, size_t t);
/* The bytes of scalar token `t` as written (a string with its quotes and
 * escapes), *len set to their number (`len` may be NULL); NULL for an
 * object, an array or past the end.  NULL `j`: NULL. */
XQ_API const char *xq_json_text(const xq_json *j, size_t t, size_t *len);

/*
 * The value of the member called `name` (compared after decoding: "\u0041"
 * is "A") of object token `obj`: its token, or 0 when the object has none
 * (0 is never a member's value), or when `obj` is not an object or `name`
 * is NULL.  When a name is given twice, the first.  NULL `j` or `name`: 0.
 */
XQ_API size_t xq_json_member(const xq_json *j, size_t obj, const char *name);
/* The decoded text of string token `t` appended to `out` (UTF-8, no NUL
 * inside, as the parse checked).  0; XQ_EINVAL when `t` is not a string
 * or `out` is NULL; XQ_ENOMEM.  NULL `j` or `out`: XQ_EINVAL. */
XQ_API int xq_json_string(const xq_json *j, size_t t, xq_buf *out);
/*
 * The value of number token `t`: xq_json_number() as the nearest double
 * (whatever the program's locale), XQ_ERANGE when it is too large for
 * one (*out then +-HUGE_VAL); xq_json_uint() exactly, when the value is a
 * whole number from 0 to UINT64_MAX, however it is written ("3", "3.0",
 * "0.3e1", "-0"), else XQ_ERANGE (a fraction, a negative number, one too
 * large).  XQ_EINVAL when `t` is not a number or `out` is NULL.
 * NULL `j` or `out`: XQ_EINVAL.
 */
XQ_API int xq_json_number(const xq_json *j, size_t t, double *out);
XQ_API int xq_json_uint(const xq_json *j, size_t t, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif
