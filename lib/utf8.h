/*
 * utf8.h: UTF-8 decoding and checking, and ASCII helpers that never
 * misread a byte above 0x7F (GBK, Big5 and UTF-8 bytes pass through
 * untouched; do not use <ctype.h> on text).  What the command and the
 * library's users need is public (<xq/utf8.h>: decoding, encoding,
 * checking, counting, the ASCII classes); the decoder's own helpers are
 * here.
 */
#ifndef XQI_LIB_UTF8_H
#define XQI_LIB_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "../include/xq/utf8.h"

/* As xq_utf8_check(), stopping also at the first character of two bytes (what the
 * decoder looks at twice: it can be GBK or Big5 that happens to be valid
 * UTF-8). */
size_t xqi_utf8_check_long(const char *s, size_t len);

/* What s holds that is not ASCII: characters of two bytes or more
 * (*multi), of three or more among them (*longer), and bytes that start no
 * character (*bad), counting those only before offset `bad_before` (a
 * sample may end in a cut character). */
struct xqi_utf8_tally {
	size_t multi, longer, bad;
};
void xqi_utf8_tally(const char *s, size_t len, size_t bad_before, struct xqi_utf8_tally *t);

/* Full-width ASCII (U+FF01..U+FF5E) to ASCII; other code points unchanged;
 * the ideographic space U+3000 becomes ' '. */
static inline uint32_t xqi_fold_fullwidth(uint32_t cp)
{
	if (cp >= 0xFF01 && cp <= 0xFF5E)
		return cp - 0xFF01 + 0x21;
	if (cp == 0x3000)
		return ' ';
	return cp;
}

/* The value of a hexadecimal digit (either case), or -1. */
static inline int xqi_hex_value(int c)
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
static inline long xqi_hex4(const char *s)
{
	long v = 0;

	for (int k = 0; k < 4; k++) {
		int h = xqi_hex_value((unsigned char)s[k]);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

#endif
