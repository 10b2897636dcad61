/*
 * <xq/utf8.h>: strict UTF-8 (RFC 3629), and ASCII character classes that
 * never misread a byte above 0x7F, whatever the locale (GBK, Big5 and
 * UTF-8 bytes are never letters, digits or spaces: unlike <ctype.h>).
 *
 * Strict means that overlong forms, surrogates (U+D800..U+DFFF), code
 * points above U+10FFFF and truncated sequences are not UTF-8: the same
 * rules the library's readers and the JSON writer of <xq/buf.h> apply.
 *
 * Pure functions: no state, no allocation; thread-safe.
 */
#ifndef XQ_PUBLIC_UTF8_H
#define XQ_PUBLIC_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The length (1..4) of the one well-formed UTF-8 character at the start
 * of `s` (`len` bytes), or 0 when the bytes there are not one.
 * NULL `s`: 0. */
XQ_API size_t xq_utf8_valid_prefix(const char *s, size_t len);

/* Decode the character at the start of `s`: its length (1..4) with *cp
 * set to its code point, or 0 with *cp = 0xFFFD when the bytes there are
 * not well-formed UTF-8 (or len is 0).  NULL `s` or `cp`: 0. */
XQ_API size_t xq_utf8_decode(const char *s, size_t len, uint32_t *cp);

/* Write the code point `cp` as UTF-8 into out[0..3]: its length (1..4),
 * or 0 (nothing written) when `cp` is a surrogate or above U+10FFFF.
 * NULL `out`: 0. */
XQ_API size_t xq_utf8_encode(uint32_t cp, char out[4]);

/* The offset of the first byte of `s` that is not valid UTF-8, or `len`
 * when all `len` bytes are.  NULL `s`: 0. */
XQ_API size_t xq_utf8_check(const char *s, size_t len);

/* The number of characters in `s` (for columns); a byte that starts no
 * well-formed character counts as one.  NULL `s`: 0. */
XQ_API size_t xq_utf8_count(const char *s, size_t len);

/* ASCII classes and case of a byte value (`c` as unsigned char or EOF). */
static inline int xq_is_digit(int c)
{
	return c >= '0' && c <= '9';
}
static inline int xq_is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
/* Space, tab, newline, carriage return, form feed, vertical tab. */
static inline int xq_is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
static inline int xq_to_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}
static inline int xq_to_upper(int c)
{
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}
/* Are the strings equal but for the case of ASCII letters? */
static inline int xq_ascii_ieq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (xq_to_lower((unsigned char)*a) != xq_to_lower((unsigned char)*b))
			return 0;
	return *a == *b;
}

#ifdef __cplusplus
}
#endif

#endif
