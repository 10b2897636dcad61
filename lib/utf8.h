/*
 * utf8.h: UTF-8 decoding and checking, and ASCII helpers that never
 * misread a byte above 0x7F (GBK, Big5 and UTF-8 bytes pass through
 * untouched; do not use <ctype.h> on text).
 */
#ifndef XQ_LIB_UTF8_H
#define XQ_LIB_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Length of the one well-formed UTF-8 character at the start of `s`
 * (1..4), or 0 if the bytes there are not one (overlong forms, surrogates,
 * code points above U+10FFFF and truncated sequences are rejected).
 */
size_t xq_utf8_valid_prefix(const char *s, size_t len);

/*
 * Decode one character: returns its length and sets *cp, or returns 0 on
 * malformed input (then *cp is 0xFFFD).
 */
size_t xq_utf8_decode(const char *s, size_t len, uint32_t *cp);

/* Encode `cp` into `out` (4 bytes); returns the length, 0 if `cp` is not a
 * Unicode scalar value. */
size_t xq_utf8_encode(uint32_t cp, char out[4]);

/* Offset of the first byte that is not valid UTF-8, or `len` if all are. */
size_t xq_utf8_check(const char *s, size_t len);

/* The same, stopping also at the first character of two bytes (what the
 * decoder looks at twice: it can be GBK or Big5 that happens to be valid
 * UTF-8). */
size_t xq_utf8_check_long(const char *s, size_t len);

/* What s holds that is not ASCII: characters of two bytes or more
 * (*multi), of three or more among them (*longer), and bytes that start no
 * character (*bad), counting those only before offset `bad_before` (a
 * sample may end in a cut character). */
struct xq_utf8_tally {
	size_t multi, longer, bad;
};
void xq_utf8_tally(const char *s, size_t len, size_t bad_before, struct xq_utf8_tally *t);

/* Number of characters (for columns); malformed bytes count one each. */
size_t xq_utf8_count(const char *s, size_t len);

/* Full-width ASCII (U+FF01..U+FF5E) to ASCII; other code points unchanged;
 * the ideographic space U+3000 becomes ' '. */
static inline uint32_t xq_fold_fullwidth(uint32_t cp)
{
	if (cp >= 0xFF01 && cp <= 0xFF5E)
		return cp - 0xFF01 + 0x21;
	if (cp == 0x3000)
		return ' ';
	return cp;
}

static inline int xq_is_digit(int c)
{
	return c >= '0' && c <= '9';
}
static inline int xq_is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static inline int xq_is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
/* The value of a hexadecimal digit (either case), or -1. */
static inline int xq_hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
/* The value of the four hexadecimal digits at s[0..3] (the caller has
 * checked they are there), or -1 when one is not a digit. */
static inline long xq_hex4(const char *s)
{
	long v = 0;

	for (int k = 0; k < 4; k++) {
		int h = xq_hex_value((unsigned char)s[k]);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
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

#endif
