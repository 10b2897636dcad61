/*
 * decode.h: the one streaming decoder of the text formats (PGN, DhtmlXQ,
 * NDJSON): source bytes in, UTF-8 out, with one policy for what is not
 * text and for files whose lines are not all in one encoding.
 *
 * The input has one encoding, its own (found by the reader from a BOM or
 * a sample, or given by the user).  In a detected input (XQI_TEXTDEC_MIXED)
 * each line is looked at alone, so collections joined by other tools read
 * right:
 *
 *   - in a UTF-8 input, a line that is not valid UTF-8 is read in GB18030
 *     or Big5 when it is plainly that: it decodes there with no error, one
 *     of its characters is two bytes that are not a Latin-1 letter before
 *     an ASCII one (so "tr\xE8s" is not), and it has more bytes that are
 *     not UTF-8 than UTF-8 characters or it reads as common Chinese there
 *     (GB2312's level-1 characters, Big5's frequent ones, xiangqi words).
 *     Of the two, the one it reads better in wins, GB18030 on a tie.  A
 *     line with no UTF-8 character at all that is plainly Western in
 *     Windows-1252 (its accents letters inside words: "tr\xE8s", "L\xE9on",
 *     see western()) and does not read as plainly Chinese is read in
 *     Windows-1252.  A valid UTF-8 line stays UTF-8, so that a UTF-8 text
 *     always reads as itself; when it reads as no text in UTF-8 (two-byte
 *     characters of mixed scripts or marks, as GBK's 未知 is "δ֪") and as
 *     common Chinese in GB18030 or Big5, that is an event
 *     (XQI_TEXTDEC_AMBIGUOUS) for the reader to warn about;
 *   - in a GB18030, Big5 or Windows-1252 input, a line that is valid UTF-8
 *     and holds a character of three bytes or more (Chinese in UTF-8, or a
 *     BOM where a UTF-8 file was appended), or whose other characters are
 *     all accented Latin letters inside words ("Café"), is read as UTF-8;
 *     in a Windows-1252 input, a line that is not plainly Western and
 *     reads as plainly Chinese in GB18030 or Big5 is read in that;
 *   - any other line is read in the input's encoding.
 *
 * What a line alone cannot tell: GBK that happens to be valid UTF-8 in a
 * UTF-8 input (warned about, as above); a name of two or three rare characters
 * that reads cleanly both as GBK and as Big5 goes to the one it reads
 * better in, which may be the wrong one; GBK and Big5 inside each other
 * are not told apart (both decode without error); a UTF-8 line of
 * accented Latin-1 letters only is GBK in GBK input unless its letters
 * stand inside words.
 *
 * Every line read in another encoding is an event (XQI_TEXTDEC_FOREIGN)
 * for the reader to report: nothing changes silently.  A line is
 * everything up to and including a CR or LF byte (so a line starts the
 * same way whether a reader starts at the input's start or at a game in
 * the middle, the way chunk readers do), or, in a line longer than
 * XQI_TEXTDEC_LINE_MAX, the bytes up to the last one below 0x30 there
 * (such a byte is never inside a character of any of these encodings).
 *
 * A byte that is not text in the encoding of its line is never replaced
 * by a plausible character: it comes out as it stands when the line is
 * UTF-8 (it is not UTF-8 there either), or as one XQI_DECODE_BAD byte
 * (0xFF, which never occurs in UTF-8) in a converted line, so the reader
 * meets it exactly where it stood.  With XQI_TEXTDEC_BAD_EVENTS, each such
 * byte and each NUL byte is also an event (XQI_TEXTDEC_BAD) with its source
 * offset.  Game boundaries never depend on them: such a byte is no ASCII
 * character, so it never ends a token, a line or a record.  Readers
 * confine it to the field that holds it: in a tag or a comment it becomes
 * U+FFFD (xqi_textdec_repair()) with a warning at the place of the first
 * (xqi_textdec_repaired_message(), code `encoding`), and the record keeps
 * every other field; in move text (or a record's markup) the record is
 * broken there, as by any move that cannot be read
 * (xqi_textdec_bad_message(), an error).
 *
 * UTF-8 can be read in place: the decoder then only checks the bytes and
 * says how many of them are published as they stand, until a line needs
 * converting (it sets `copy`; the caller copies what it published so far
 * and goes on with an output buffer).  UTF-16 input (found by its BOM) is
 * converted as a whole, never by lines.
 */
#ifndef XQI_LIB_DECODE_H
#define XQI_LIB_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "text.h"

/* The byte that stands for a byte that is not text in converted output. */
#define XQI_DECODE_BAD 0xFF

/* Lines longer than this are decided on in pieces. */
#define XQI_TEXTDEC_LINE_MAX 65536

enum {
	XQI_TEXTDEC_MIXED = 1 << 0,      /* lines may be in another encoding (detected input) */
	XQI_TEXTDEC_COPY = 1 << 1,       /* always write to the output, UTF-8 too */
	XQI_TEXTDEC_BAD_EVENTS = 1 << 2, /* bytes that are not text (and NULs) are events */
	XQI_TEXTDEC_NO_EVENTS = 1 << 3   /* record no event at all (a reader that reports nothing) */
};

/* Where the decoded text changes encoding: from decoded position `dpos`
 * (source offset `raw`) on, characters are in `enc`. */
struct xqi_textdec_seg {
	uint64_t dpos, raw;
	enum xqi_encoding enc;
};

enum xqi_textdec_kind {
	XQI_TEXTDEC_FOREIGN,  /* a line read in `enc`, not the input's encoding */
	XQI_TEXTDEC_BAD,      /* a byte that is not text in `enc` (or a NUL) */
	XQI_TEXTDEC_AMBIGUOUS /* a valid UTF-8 line that reads as Chinese in `enc` */
};

/* An event at decoded position `dpos`, source offset `raw`: for a line,
 * those of its first byte that is not ASCII. */
struct xqi_textdec_event {
	uint64_t dpos, raw;
	enum xqi_encoding enc;
	enum xqi_textdec_kind kind;
	unsigned char byte;
};

/* Converts a run of whole lines in the input's own legacy encoding, with
 * the contract of the default (iconv) one: every byte of `in` consumed,
 * one XQI_DECODE_BAD per byte that is not text.  Returns the bytes
 * consumed or a negative code. */
typedef long (*xqi_textdec_convert_fn)(void *ctx, const char *in, size_t len,
				      struct xq_buf *out);

struct xqi_textdec {
	enum xqi_encoding enc; /* the input's encoding */
	unsigned flags;
	int copy;             /* output goes to a buffer (else UTF-8 published in place) */
	uint64_t dpos, raw;   /* decoded position and source offset of the next byte */
	struct xqi_transcoder main, gb, big5, cp1252; /* to UTF-8 from enc, GB18030, Big5,
						    * Windows-1252 */
	xqi_textdec_convert_fn convert;       /* NULL: `main` with XQI_DECODE_BAD marks */
	void *convert_ctx;
	struct xqi_textdec_seg *segs;         /* segs[seg_first..nsegs) are live */
	size_t nsegs, seg_first, segs_cap;
	struct xqi_textdec_event *events;     /* events[ev_first..nevents) are not taken yet */
	size_t nevents, ev_first, ev_cap;
	struct xq_buf tmp, tmp2;   /* a line read as GB18030 and as Big5 while deciding */
	const char *tried;         /* that line (its conversions are kept for it) */
	size_t tried_len;
	unsigned char lead[128];   /* an iconv encoding's lengths by first byte
				    * (xqi_encoding_lead_lengths()), to walk it */
};

/*
 * Start decoding input in `enc` (any that text.h names) whose next byte is
 * at source offset `raw` and decoded position `dpos`.  UTF-8 is read in
 * place unless XQI_TEXTDEC_COPY.  Returns 0, or XQ_EUNSUPPORTED when this
 * system cannot convert `enc` (nothing to release then).
 */
int xqi_textdec_init(struct xqi_textdec *d, enum xqi_encoding enc, unsigned flags, uint64_t dpos,
		    uint64_t raw);
void xqi_textdec_release(struct xqi_textdec *d);

/*
 * Decode from the start of `in` (`len` bytes), whole lines only unless
 * `final` (the input ends with these bytes).  Returns the bytes consumed,
 * or a negative code (XQ_ENOMEM, XQ_EUNSUPPORTED).  Converting, the text
 * is appended to `out`.  In place (d->copy 0), nothing is written: the
 * bytes consumed are published as they stand; when a line needs
 * converting, d->copy becomes 1 and the count stops before that line (the
 * caller copies what it has published and calls again with `out`).
 */
long xqi_textdec_feed(struct xqi_textdec *d, const char *in, size_t len, int final,
		     struct xq_buf *out);

/*
 * The length of the line (or the piece of a line longer than
 * XQI_TEXTDEC_LINE_MAX) that starts at s[0], as xqi_textdec_feed() cuts
 * them; 0 when it is not whole within `len` bytes and more may come
 * (`final`: nothing more comes).
 */
size_t xqi_textdec_unit_len(const char *s, size_t len, int final);

/*
 * The encoding a line (or a piece of one, as xqi_textdec_feed() cuts them)
 * is read in by the rules above.  `tmp` is scratch.
 */
enum xqi_encoding xqi_textdec_line_encoding(struct xqi_textdec *d, const char *s, size_t n);

/*
 * The encoding of an input whose BOM (if any) was looked at, from a sample
 * of it: UTF-8 when xqi_encoding_detect_text() finds it; Windows-1252 when
 * more of the lines that are not ASCII are plainly Western (and not pairs
 * of GBK bytes) than of each other kind; UTF-8 when no fewer of them are
 * plainly UTF-8 (Chinese, or accented Latin words, as the rules above take
 * them inside GB18030 or Big5) than plainly GB18030 or Big5 (so a stray
 * byte, or one game in GBK, does not turn a UTF-8 file into GB18030); else
 * what xqi_encoding_detect_text() finds.
 */
enum xqi_encoding xqi_textdec_detect(const char *buf, size_t len);

/* The encoding of the text at decoded position `dpos` (not forgotten). */
enum xqi_encoding xqi_textdec_enc_at(const struct xqi_textdec *d, uint64_t dpos);

/*
 * Walk the decoded text and its source in step from decoded position *dp
 * (source offset *rp) to decoded position `p`, to turn a place in the
 * text into a source offset.  text[0] is at decoded position text_base,
 * raw[0] at source offset raw_base, and raw holds the source up to
 * raw_end; both hold everything from *dp and *rp on.
 */
void xqi_textdec_walk(const struct xqi_textdec *d, const char *text, uint64_t text_base,
		     const char *raw, uint64_t raw_base, uint64_t raw_end, uint64_t *dp,
		     uint64_t *rp, uint64_t p);

/* Forget the segments that end at or before decoded position `dpos`
 * (a reader that dropped its text before it). */
void xqi_textdec_forget(struct xqi_textdec *d, uint64_t dpos);

/*
 * The message of a byte that is not text, the same in every text format:
 * "byte 0xE9 at offset 114 is not valid utf-8: the game holding it is
 * marked broken" ("a NUL byte at offset ... is not text: ..." for 0).
 * Returns `buf`.
 */
const char *xqi_textdec_bad_message(char *buf, size_t size, unsigned byte, enum xqi_encoding enc,
				   uint64_t offset);

/*
 * A field (a tag, a comment) whose text holds bytes that are not text:
 * `s` (`n` bytes) appended to `out` with each such byte replaced by
 * U+FFFD, the way the XQF reader reads its fields.  Such a byte is one
 * that starts no well-formed UTF-8 character (where the line was UTF-8, or
 * XQI_DECODE_BAD where it was converted) or a NUL.  Returns how many were
 * replaced, or -1 when out of memory.  Only the field holding the bytes is
 * touched: the record keeps every other field, and its moves.
 */
long xqi_textdec_repair(struct xq_buf *out, const char *s, size_t n);

/*
 * The warning about such a field, the same in every text format:
 * "<what> is not valid utf-8: 2 bytes replaced by U+FFFD (the first, 0xE9,
 * at offset 114)" (`enc_name` the encoding of its line; "a NUL byte" for
 * 0).  Returns `buf`.
 */
const char *xqi_textdec_repaired_message(char *buf, size_t size, const char *what, unsigned byte,
					const char *enc_name, uint64_t offset, long count);

/* The message of a valid UTF-8 line that reads better in `other`. */
const char *xqi_textdec_ambiguous_message(char *buf, size_t size, enum xqi_encoding other);

/* The message of a line read in another encoding, the same everywhere. */
const char *xqi_textdec_foreign_message(char *buf, size_t size, enum xqi_encoding line_enc,
				       enum xqi_encoding input_enc);

#endif
