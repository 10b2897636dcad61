/*
 * text.h: text encodings.  Everything inside lib/ is UTF-8; records come
 * in UTF-8 (with or without BOM), GB2312/GBK/GB18030, Big5 (cp950) or
 * UTF-16LE, and some go out in GBK or Big5.  Conversion uses iconv and is
 * strict: a byte that is not text in the source encoding, or a character
 * the target encoding cannot hold, is reported with its offset, never
 * replaced silently.
 */
#ifndef XQ_LIB_TEXT_H
#define XQ_LIB_TEXT_H

#include <stddef.h>

#include "buf.h"

enum xq_encoding {
	XQ_ENC_UNKNOWN = 0,
	XQ_ENC_UTF8,
	XQ_ENC_GB18030, /* also reads GB2312 and GBK, which it contains */
	XQ_ENC_BIG5,    /* cp950, the Windows Big5 that real files use */
	XQ_ENC_UTF16LE,
	XQ_ENC_UTF16BE,
	XQ_ENC_GBK      /* for writing: GBK proper (what old Windows tools read) */
};

/* Canonical lower-case name: "utf-8", "gb18030", "big5", "utf-16le", "gbk". */
const char *xq_encoding_name(enum xq_encoding e);

/* Parse a user's name for an encoding (utf8, utf-8, gbk, gb2312, gb18030,
 * cp936, big5, cp950, utf-16le, ...).  Returns 0 or -1. */
int xq_encoding_parse(const char *name, enum xq_encoding *out);

/*
 * Guess the encoding of `buf`: a BOM decides (its length goes to *bom);
 * otherwise valid UTF-8 is UTF-8; otherwise GB18030 and Big5 are both
 * tried and the one that decodes with fewer errors and more common
 * xiangqi characters wins.  A trailing incomplete sequence (a buffer cut
 * in the middle of a character) is not held against any encoding.
 */
enum xq_encoding xq_encoding_detect(const char *buf, size_t len, size_t *bom);

/*
 * Convert `len` bytes in `enc` to UTF-8, appended to `out`.  Returns 0, or
 * XQ_EENCODING with *bad set to the offset of the first byte that is not
 * valid in `enc` (what came before it is converted), or XQ_ENOMEM.
 * UTF-8 input is checked, not converted.
 */
int xq_decode(enum xq_encoding enc, const char *in, size_t len, struct xq_buf *out, size_t *bad);

/*
 * Convert UTF-8 to `enc`, appended to `out`.  Returns 0, or XQ_EENCODING
 * with *bad set to the offset in `in` of the first character `enc` cannot
 * hold (or of invalid UTF-8), or XQ_ENOMEM.
 */
int xq_encode(enum xq_encoding enc, const char *in, size_t len, struct xq_buf *out, size_t *bad);

#endif
