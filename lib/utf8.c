/*
 * utf8.c: strict UTF-8 decoding (RFC 3629).
 */
#include "utf8.h"

#include <string.h>

size_t xq_utf8_decode(const char *s, size_t len, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c;
	size_t n;

	if (!cp)
		return 0;
	*cp = 0xFFFD;
	if (len == 0 || !s)
		return 0;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xC2 && u[0] <= 0xDF) {
		n = 2;
		c = u[0] & 0x1F;
	} else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
		n = 3;
		c = u[0] & 0x0F;
	} else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
		n = 4;
		c = u[0] & 0x07;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (u[i] & 0x3F);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
	    (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

size_t xq_utf8_valid_prefix(const char *s, size_t len)
{
	uint32_t cp;
	return xq_utf8_decode(s, len, &cp);
}

size_t xq_utf8_encode(uint32_t cp, char out[4])
{
	if (!out)
		return 0;
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp >= 0xD800 && cp <= 0xDFFF)
		return 0;
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	if (cp <= 0x10FFFF) {
		out[0] = (char)(0xF0 | cp >> 18);
		out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
		out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
		out[3] = (char)(0x80 | (cp & 0x3F));
		return 4;
	}
	return 0;
}

#if defined(__SSE2__)
/* SSE2 is part of every x86-64: the text most records are made of
 * (ASCII, and Chinese in three-byte characters) is checked sixteen bytes
 * at a time.  Elsewhere the loop below takes it all. */
#include <emmintrin.h>

/*
 * From u[i], a character's first byte, the blocks of sixteen bytes that
 * hold only ASCII and characters of three bytes whose first byte is
 * E1-EC or EE-EF (any two continuation bytes make one: no overlong form,
 * no surrogate among them), each character whole (one begun at the end of
 * a block is checked on into the next bytes).  Returns where the first
 * block that holds anything else starts: a character's first byte.
 */
static size_t check_blocks(const unsigned char *u, size_t i, size_t len)
{
	const __m128i f0 = _mm_set1_epi8((char)0xF0), e0 = _mm_set1_epi8((char)0xE0);
	const __m128i ed = _mm_set1_epi8((char)0xED), c0 = _mm_set1_epi8((char)0xC0);
	const __m128i b80 = _mm_set1_epi8((char)0x80);

	while (i + 18 <= len) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(u + i));
		unsigned high = (unsigned)_mm_movemask_epi8(x), lead, cont;
		if (!high) {
			i += 16;
			continue;
		}
		lead = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(x, f0), e0)) &
		       ~(unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, e0), _mm_cmpeq_epi8(x, ed)));
		cont = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(x, c0), b80));
		/* Every byte over 0x7F such a first byte or the two after one. */
		if ((lead | cont) != high || cont != ((lead << 1 | lead << 2) & 0xFFFF))
			break;
		if (lead & 0xC000) {
			/* The last character goes on after the block. */
			size_t rest = lead & 0x8000 ? 2 : 1;
			if ((u[i + 16] & 0xC0) != 0x80 || (rest == 2 && (u[i + 17] & 0xC0) != 0x80))
				break;
			i += rest;
		}
		i += 16;
	}
	return i;
}
#endif

/* The valid prefix of s, stopping also at a two-byte character when
 * `stop_at_two`. */
static size_t check(const char *s, size_t len, int stop_at_two)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
#if defined(__SSE2__)
	size_t scalar_to = 0; /* the byte loop's till here (a block the blocks refused) */
#endif

	while (i < len) {
		size_t n;
		unsigned char c;
#if defined(__SSE2__)
		if (i >= scalar_to) {
			i = check_blocks(u, i, len);
			scalar_to = i + 16;
			if (i >= len)
				break;
		}
#endif
		c = u[i];
		if (c < 0x80) {
			/* ASCII runs eight bytes at a time. */
			while (i + 8 <= len) {
				uint64_t w;
				memcpy(&w, u + i, 8);
				if (w & 0x8080808080808080u)
					break;
				i += 8;
			}
			while (i < len && u[i] < 0x80)
				i++;
			continue;
		}
		/* Most CJK: E1-EC and EE-EF leads take any two continuation
		 * bytes (no overlong form or surrogate among them). */
		if (c >= 0xE1 && c <= 0xEF && c != 0xED && i + 2 < len && (u[i + 1] & 0xC0) == 0x80 &&
		    (u[i + 2] & 0xC0) == 0x80) {
			i += 3;
			continue;
		}
		n = xq_utf8_valid_prefix(s + i, len - i);
		if (!n || (n == 2 && stop_at_two))
			return i;
		i += n;
	}
	return len;
}

size_t xq_utf8_check(const char *s, size_t len)
{
	return s ? check(s, len, 0) : 0;
}

size_t xqi_utf8_check_long(const char *s, size_t len)
{
	return check(s, len, 1);
}

void xqi_utf8_tally(const char *s, size_t len, size_t bad_before, struct xqi_utf8_tally *t)
{
	t->multi = t->longer = t->bad = 0;
	for (size_t i = 0; i < len;) {
		size_t n;
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		n = xq_utf8_valid_prefix(s + i, len - i);
		if (n) {
			t->multi++;
			t->longer += n >= 3;
			i += n;
		} else {
			t->bad += i < bad_before;
			i++;
		}
	}
}

size_t xq_utf8_count(const char *s, size_t len)
{
	size_t i = 0, count = 0;

	while (s && i < len) {
		size_t n = (unsigned char)s[i] < 0x80 ? 1 : xq_utf8_valid_prefix(s + i, len - i);
		i += n ? n : 1;
		count++;
	}
	return count;
}
