/*
 * text.h: text encodings.  Everything inside lib/ is UTF-8; records come
 * in UTF-8 (with or without BOM), GB2312/GBK/GB18030, Big5 (cp950),
 * UTF-16, Windows-1252 or Latin-1, or any other encoding iconv knows when
 * one is named, and some go out in GBK, Big5 or another one named.
 * Conversion uses iconv and is strict: a byte that is not text in the
 * source encoding, or a character the target encoding cannot hold, is
 * reported with its offset, never replaced silently.
 */
#ifndef XQI_LIB_TEXT_H
#define XQI_LIB_TEXT_H

#include <stddef.h>

#include "buf.h"

enum xqi_encoding {
	XQI_ENC_UNKNOWN = 0,
	XQI_ENC_UTF8,
	XQI_ENC_GB18030, /* also reads GB2312 and GBK, which it contains */
	XQI_ENC_BIG5,    /* cp950, the Windows Big5 that real files use */
	XQI_ENC_UTF16LE,
	XQI_ENC_UTF16BE,
	XQI_ENC_GBK,     /* for writing: GBK proper (what old Windows tools read) */
	XQI_ENC_CP1252,  /* Windows-1252: Latin-1 and the signs it puts at 0x80-0x9F */
	XQI_ENC_LATIN1,  /* ISO-8859-1 proper (0x80-0x9F are control characters) */
	/* XQI_ENC_ICONV + k: the encoding iconv knows as xqi_iconv_names[k], when
	 * named (never detected).  Only those that keep ASCII as it is, with
	 * no shift state, are taken: a reader finds lines and tokens by their
	 * ASCII bytes. */
	XQI_ENC_ICONV = 64
};

/* The names of encodings iconv knows (lower case, sorted bytewise), made
 * by tools/geniconvnames.sh (iconv_names.c). */
extern const char *const xqi_iconv_names[];
extern const size_t xqi_iconv_nnames;

/* Canonical lower-case name: "utf-8", "gb18030", "big5", "utf-16le", "gbk",
 * "windows-1252", "iso-8859-1", or the iconv name it was named by. */
const char *xqi_encoding_name(enum xqi_encoding e);

/*
 * Parse a user's name for an encoding, in any ASCII case: the library's
 * (utf8, utf-8, gbk, gb2312, gb18030, cp936, big5, cp950, utf-16le,
 * cp1252, windows-1252, latin1, iso-8859-1, ...), or any name in
 * xqi_iconv_names that this system's iconv converts both ways and that
 * keeps ASCII as it is, with no shift state (not UTF-16 or UTF-32 under
 * another name, not ISO-2022 or UTF-7).  Returns 0 or -1.
 */
int xqi_encoding_parse(const char *name, enum xqi_encoding *out);

/*
 * How many bytes make a character of `e` that starts with byte 0x80 + i,
 * in lead[i], as iconv reads them: 1 for a character of one byte (and for
 * a byte that starts none), 2 to 4 for the lead byte of a longer one.  For
 * encodings whose characters' lengths their first byte tells (every one
 * iconv knows but GB18030, UTF-8 and UTF-16, which have rules of their
 * own: xqi_encoding_char_len()).  Returns 0, or XQ_EUNSUPPORTED when iconv
 * cannot convert from `e`.
 */
int xqi_encoding_lead_lengths(enum xqi_encoding e, unsigned char lead[128]);

/*
 * Guess the encoding of `buf`: a BOM decides (its length goes to *bom);
 * otherwise valid UTF-8 is UTF-8; otherwise GB18030 and Big5 are both
 * tried and the one that decodes with fewer errors and more common
 * xiangqi characters wins.  A trailing incomplete sequence (a buffer cut
 * in the middle of a character) is not held against any encoding.
 */
enum xqi_encoding xqi_encoding_detect(const char *buf, size_t len, size_t *bom);

/*
 * The same without looking for a BOM: for a sample taken from the middle
 * of a text (where bytes FF FE are not a BOM).  Returns UTF-8, GB18030 or
 * Big5 (Windows-1252 is told by the line rules of decode.h).
 */
enum xqi_encoding xqi_encoding_detect_text(const char *buf, size_t len);

/* How much UTF-8 text looks like a xiangqi record: the number of common
 * xiangqi characters (piece names, move verbs, digits, result words, in
 * simplified and traditional glyphs) in it.  The detectors compare the
 * readings of one text in two encodings with it. */
long xqi_encoding_score(const char *utf8, size_t len);

/*
 * Convert `len` bytes in `enc` to UTF-8, appended to `out`.  Returns 0, or
 * XQ_EENCODING with *bad set to the offset of the first byte that is not
 * valid in `enc` (what came before it is converted), or XQ_ENOMEM.
 * UTF-8 input is checked, not converted.
 */
int xqi_decode(enum xqi_encoding enc, const char *in, size_t len, struct xq_buf *out, size_t *bad);

/*
 * Convert UTF-8 to `enc`, appended to `out`.  Returns 0, or XQ_EENCODING
 * with *bad set to the offset in `in` of the first character `enc` cannot
 * hold (or of invalid UTF-8), or XQ_ENOMEM.
 */
int xqi_encode(enum xqi_encoding enc, const char *in, size_t len, struct xq_buf *out, size_t *bad);

/*
 * A reusable converter from one encoding to another, for readers and
 * writers that convert many short strings (XQF and CBR fields and
 * comments, every string a DhtmlXQ or PGN writer puts out): the iconv
 * descriptor is opened on the first conversion that needs it and kept
 * until release, where xqi_decode() and xqi_encode() open and close one per
 * call.  The caller owns the struct; nothing is shared between two of
 * them, so each reader or writer (and each thread) keeps its own.
 */
struct xqi_transcoder {
	enum xqi_encoding from, to;
	void *cd; /* iconv_t once opened, NULL before (or when none is needed) */
};

/* Prepare a conversion from `from` to `to` (XQI_ENC_UNKNOWN means UTF-8).
 * Opens nothing yet; never fails. */
void xqi_transcoder_init(struct xqi_transcoder *t, enum xqi_encoding from, enum xqi_encoding to);

/*
 * Convert `len` bytes of `in` (in t->from), appended to `out` (in t->to),
 * with the contract of xqi_decode() (from a legacy encoding) and
 * xqi_encode() (from UTF-8): returns 0, or XQ_EENCODING with *bad at the
 * first byte that is not text in t->from (or the first character t->to
 * cannot hold; what came before it is converted), XQ_EUNSUPPORTED when
 * iconv does not know an encoding, or XQ_ENOMEM.  UTF-8 to UTF-8 is
 * checked, not converted.  A failed call leaves the converter ready for
 * the next one.
 */
int xqi_transcoder_convert(struct xqi_transcoder *t, const char *in, size_t len, struct xq_buf *out,
			  size_t *bad);

/*
 * The same from UTF-8 (t->from), losing what t->to cannot hold: each such
 * character becomes '?'.  *lost counts them and *first_lost (when any)
 * is the byte offset in `in` of the first.  Returns 0, XQ_EUNSUPPORTED or
 * XQ_ENOMEM.  This is the writers' one lossy encoder (formats/format.h,
 * xqi_write_text(), says how the loss is reported).
 */
int xqi_transcoder_convert_lossy(struct xqi_transcoder *t, const char *in, size_t len,
				struct xq_buf *out, size_t *lost, size_t *first_lost);

/* Close the descriptor (if one was opened); the struct can be init'ed again. */
void xqi_transcoder_release(struct xqi_transcoder *t);

/*
 * How many source bytes make the character at `s` (avail bytes there) in
 * `enc`, as the decoder (decode.h) reads them: 1 for ASCII, 2 or 4 for
 * GB18030, 2 for Big5, 2 or 4 for UTF-16, 1-4 for UTF-8.  A reader walks
 * source and decoded text in step with it to turn a place in the decoded
 * text into a byte offset in the source.  Never 0 and never more than
 * `avail` (when avail > 0).
 */
size_t xqi_encoding_char_len(enum xqi_encoding enc, const unsigned char *s, size_t avail);

#endif
