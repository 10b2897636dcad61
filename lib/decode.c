/*
 * decode.c: the streaming text decoder (see decode.h).
 *
 * Bytes are taken in blocks that end at a line end (or at the cut of a
 * line longer than XQI_TEXTDEC_LINE_MAX), so that each line is decided on
 * whole.  Most blocks need one pass: a UTF-8 block is checked (stopping
 * at a byte that is not UTF-8 and at a two-byte character, the only
 * places where a line could be GBK or Big5), and each line of a legacy
 * block is checked for UTF-8 from its first byte that is not ASCII, which
 * fails at once in GBK or Big5 text; runs of lines in the input's
 * encoding are converted in one call.  Only the lines found that way are
 * looked at whole.
 */
#include "decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diagnostic.h"
#include "utf8.h"

static int is_utf16(enum xqi_encoding e)
{
	return e == XQI_ENC_UTF16LE || e == XQI_ENC_UTF16BE;
}

static int seg_push(struct xqi_textdec *d, enum xqi_encoding enc)
{
	size_t n = d->nsegs;

	if (n > d->seg_first) {
		struct xqi_textdec_seg *last = &d->segs[n - 1];
		if (last->dpos == d->dpos) {
			/* The last segment holds nothing yet: it gives way. */
			if (n - 1 > d->seg_first && d->segs[n - 2].enc == enc)
				d->nsegs--;
			else
				last->enc = enc;
			return 0;
		}
		if (last->enc == enc)
			return 0;
	}
	if (XQ_ALLOC_GROW(d->segs, n + 1, d->segs_cap))
		return XQ_ENOMEM;
	d->segs[n].dpos = d->dpos;
	d->segs[n].raw = d->raw;
	d->segs[n].enc = enc;
	d->nsegs = n + 1;
	return 0;
}

static int event_push(struct xqi_textdec *d, enum xqi_textdec_kind kind, uint64_t dpos, uint64_t raw,
		      enum xqi_encoding enc, unsigned char byte)
{
	struct xqi_textdec_event *e;

	if ((d->flags & XQI_TEXTDEC_NO_EVENTS) ||
	    (kind == XQI_TEXTDEC_BAD && !(d->flags & XQI_TEXTDEC_BAD_EVENTS)))
		return 0;
	if (d->ev_first == d->nevents)
		d->ev_first = d->nevents = 0;
	if (d->nevents == d->ev_cap) {
		if (d->ev_first > 0) {
			memmove(d->events, d->events + d->ev_first,
				(d->nevents - d->ev_first) * sizeof(*d->events));
			d->nevents -= d->ev_first;
			d->ev_first = 0;
		} else if (XQ_ALLOC_GROW(d->events, d->nevents + 1, d->ev_cap)) {
			return XQ_ENOMEM;
		}
	}
	e = &d->events[d->nevents++];
	e->dpos = dpos;
	e->raw = raw;
	e->enc = enc;
	e->kind = kind;
	e->byte = byte;
	return 0;
}

int xqi_textdec_init(struct xqi_textdec *d, enum xqi_encoding enc, unsigned flags, uint64_t dpos,
		    uint64_t raw)
{
	/* One character of the encoding, to learn now whether iconv has it. */
	static const struct {
		enum xqi_encoding enc;
		const char *s;
		size_t n;
	} probes[] = {
		{XQI_ENC_GB18030, "\xB0\xA1", 2}, {XQI_ENC_GBK, "\xB0\xA1", 2},
		{XQI_ENC_BIG5, "\xA4\x40", 2},    {XQI_ENC_UTF16LE, "a\0", 2},
		{XQI_ENC_UTF16BE, "\0a", 2},       {XQI_ENC_CP1252, "\xE9", 1},
		{XQI_ENC_LATIN1, "\xE9", 1},
	};

	memset(d, 0, sizeof(*d));
	if (enc == XQI_ENC_UNKNOWN)
		enc = XQI_ENC_UTF8;
	d->enc = enc;
	d->flags = flags;
	if (is_utf16(enc))
		d->flags &= ~(unsigned)XQI_TEXTDEC_MIXED;
	d->copy = enc != XQI_ENC_UTF8 || (flags & XQI_TEXTDEC_COPY);
	d->dpos = dpos;
	d->raw = raw;
	xqi_transcoder_init(&d->main, enc, XQI_ENC_UTF8);
	xqi_transcoder_init(&d->gb, XQI_ENC_GB18030, XQI_ENC_UTF8);
	xqi_transcoder_init(&d->big5, XQI_ENC_BIG5, XQI_ENC_UTF8);
	xqi_transcoder_init(&d->cp1252, XQI_ENC_CP1252, XQI_ENC_UTF8);
	xq_buf_init(&d->tmp);
	xq_buf_init(&d->tmp2);
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		size_t bad;
		if (probes[i].enc != enc)
			continue;
		if (xqi_transcoder_convert(&d->main, probes[i].s, probes[i].n, &d->tmp, &bad) ==
		    XQ_EUNSUPPORTED) {
			xqi_textdec_release(d);
			return XQ_EUNSUPPORTED;
		}
		xq_buf_reset(&d->tmp);
	}
	if (enc >= XQI_ENC_ICONV && xqi_encoding_lead_lengths(enc, d->lead)) {
		xqi_textdec_release(d);
		return XQ_EUNSUPPORTED;
	}
	if (seg_push(d, enc)) {
		xqi_textdec_release(d);
		return XQ_ENOMEM;
	}
	return 0;
}

void xqi_textdec_release(struct xqi_textdec *d)
{
	xqi_transcoder_release(&d->main);
	xqi_transcoder_release(&d->gb);
	xqi_transcoder_release(&d->big5);
	xqi_transcoder_release(&d->cp1252);
	xq_buf_release(&d->tmp);
	xq_buf_release(&d->tmp2);
	free(d->segs);
	free(d->events);
	d->segs = NULL;
	d->events = NULL;
	d->nsegs = d->seg_first = d->segs_cap = 0;
	d->nevents = d->ev_first = d->ev_cap = 0;
}

/* ---- lines ----------------------------------------------------------------- */

static int is_eol(unsigned char c)
{
	return c == '\n' || c == '\r';
}

/* The length of the line (or long line's piece) that starts at s[0], or 0
 * when it is not whole within `len` bytes and more may come. */
static size_t unit_len(const char *s, size_t len, int final)
{
	size_t lim = len < XQI_TEXTDEC_LINE_MAX ? len : XQI_TEXTDEC_LINE_MAX;

	for (size_t i = 0; i < lim; i++)
		if (is_eol((unsigned char)s[i]))
			return i + 1;
	if (len < XQI_TEXTDEC_LINE_MAX)
		return final ? len : 0;
	for (size_t i = XQI_TEXTDEC_LINE_MAX; i > 0; i--)
		if ((unsigned char)s[i - 1] < 0x30)
			return i;
	return XQI_TEXTDEC_LINE_MAX;
}

size_t xqi_textdec_unit_len(const char *s, size_t len, int final)
{
	return unit_len(s, len, final);
}

/*
 * The line holding byte k: [*us, *ue).  `ub` is where a line (or a piece)
 * starts at or before k, and in[ub, end) holds whole lines.
 */
static void unit_of(const char *in, size_t ub, size_t end, size_t k, size_t *us, size_t *ue)
{
	size_t s = k;

	while (s > ub && !is_eol((unsigned char)in[s - 1]))
		s--;
	for (;;) {
		size_t n = unit_len(in + s, end - s, 1);
		if (s + n > k || n == 0) {
			*us = s;
			*ue = s + (n ? n : end - s);
			return;
		}
		s += n;
	}
}

/* Where the whole lines of in[pos, len) end: pos when there are none yet. */
static size_t block_end(const char *in, size_t pos, size_t len, int final)
{
	for (size_t i = len; i > pos; i--)
		if (is_eol((unsigned char)in[i - 1]))
			return i;
	if (final)
		return len;
	return pos + unit_len(in + pos, len - pos, 0);
}

/* Valid UTF-8 holding a character of three bytes or more. */
static int strong_utf8(const char *s, size_t n)
{
	struct xqi_utf8_tally t;

	xqi_utf8_tally(s, n, n, &t);
	return t.bad == 0 && t.longer > 0;
}

/* The script of a letter: 1 Latin (with accents), 2 Greek, 3 Cyrillic;
 * 0 for anything else. */
static int script_of(uint32_t cp)
{
	if (cp < 0x80)
		return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z' ? 1 : 0;
	if (cp >= 0xC0 && cp <= 0x24F && cp != 0xD7 && cp != 0xF7)
		return 1;
	if (cp >= 0x386 && cp <= 0x3FF)
		return 2;
	if (cp >= 0x400 && cp <= 0x52F)
		return 3;
	return 0;
}

/*
 * Valid UTF-8 whose characters that are not ASCII all read as words:
 * accented Latin letters ("Café", "Défense") or, unless `latin_only`,
 * Greek or Cyrillic ones, each touching a letter of its script (or an
 * ASCII letter or digit), and the signs of Latin-1 (° ½ « ·) anywhere.
 * Chinese read from GBK or Big5 bytes that happen to be valid UTF-8 mixes
 * scripts and marks instead ("[Result \"δ֪\"]" is 未知).
 */
static int words_utf8(const char *s, size_t n, int latin_only)
{
	uint32_t prev = ' ', cur, next;
	size_t i = 0, k;
	int any = 0;

	if (!n)
		return 0;
	k = xq_utf8_decode(s, n, &cur);
	if (!k)
		return 0;
	while (i < n) {
		size_t m = i + k < n ? xq_utf8_decode(s + i + k, n - i - k, &next) : 0;
		if (i + k < n && !m)
			return 0;
		if (!m)
			next = ' ';
		if (cur >= 0x80) {
			int sc = script_of(cur);
			any = 1;
			if (cur >= 0xA0 && cur <= 0xBF && !latin_only) {
				/* a sign */
			} else if (!sc || (latin_only && sc != 1)) {
				return 0;
			} else {
				int p = script_of(prev), q = script_of(next);
				int ok = p == sc || q == sc || (p == 1 && prev < 0x80) ||
					 (q == 1 && next < 0x80);
				if (!ok && sc != 1)
					ok = (prev < 0x80 && xq_is_digit((unsigned char)prev)) ||
					     (next < 0x80 && xq_is_digit((unsigned char)next));
				if (!ok)
					return 0;
			}
		}
		prev = cur;
		cur = next;
		i += k;
		k = m;
	}
	return any;
}

/* Has the text in `enc` a two-byte character that is not a Latin-1 letter
 * before an ASCII byte: both bytes not ASCII, or a lead below 0xC0? */
static int has_wide_pair(enum xqi_encoding enc, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		size_t k = xqi_encoding_char_len(enc, u + i, n - i);
		if (k == 2 && u[i] >= 0x80 && (u[i + 1] >= 0x80 || u[i] < 0xC0))
			return 1;
		i += k;
	}
	return 0;
}

/*
 * How much two-byte characters in `enc` look like common text: Big5's
 * frequent characters (leads A4-C6) against its less frequent ones and
 * GBK's level-1 characters of GB2312 (leads B0-D7, trails from A1)
 * against GBK's extensions (trails below A1); symbols count for neither.
 * The same bytes read in the other encoding land mostly among the other's
 * rare characters or symbols.
 */
static long pair_score(enum xqi_encoding enc, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	long score = 0;

	for (size_t i = 0; i < n;) {
		size_t k = xqi_encoding_char_len(enc, u + i, n - i);
		if (k == 2 && u[i] >= 0x81) {
			unsigned a = u[i], b = u[i + 1];
			if (enc == XQI_ENC_BIG5)
				score += a >= 0xA4 && a <= 0xC6 ? 1 : a >= 0xA1 && a <= 0xA3 ? 0 : -1;
			else
				score += b < 0xA1 ? -1 : a >= 0xB0 && a <= 0xD7 ? 1 : 0;
		}
		i += k;
	}
	return score;
}

/*
 * The class of byte c (0x80..0xFF) in Windows-1252: 1 a letter (À to þ
 * but for × and ÷, and Š Œ Ž š œ ž Ÿ), 2 a sign (quotes, dashes, €, ¡ to
 * ¿, × ÷, ...), 0 a byte it leaves undefined, or 0xFF (ÿ, the byte that
 * stands for one that is not text in every test of it, and no evidence).
 */
static int cp1252_class(unsigned c)
{
	if (c == 0xFF)
		return 0;
	if (c >= 0xC0)
		return c == 0xD7 || c == 0xF7 ? 2 : 1;
	if (c >= 0xA0)
		return 2;
	switch (c) {
	case 0x8A: case 0x8C: case 0x8E: case 0x9A: case 0x9C: case 0x9E: case 0x9F:
		return 1;
	case 0x81: case 0x8D: case 0x8F: case 0x90: case 0x9D:
		return 0;
	default:
		return 2;
	}
}

/* A word of `ascii` ASCII letters and `other` letters of Windows-1252:
 * 2 when the other ones stand among ASCII ones ("Café", "Müller", "Ærø"),
 * 1 when one stands alone ("à") or there is none, 0 else. */
static int western_word(size_t ascii, size_t other)
{
	if (other == 0 || (ascii == 0 && other == 1))
		return 1;
	return ascii > 0 && other <= ascii + 1 ? 2 : 0;
}

/*
 * Is s[0..n) plainly Western text in Windows-1252 (or Latin-1, which it
 * holds)?  Every byte over 0x7F is a letter or a sign there, never more
 * than two in a row (Chinese in GBK, Big5 or UTF-8 is runs of them), each
 * letter stands in a word as western_word() says, and one of them at least
 * among ASCII letters (a lone "é" is no evidence).
 */
static int western(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t run = 0, ascii = 0, other = 0;
	int inside = 0;

	for (size_t i = 0; i <= n; i++) {
		unsigned c = i < n ? u[i] : ' ';
		int cls = c >= 0x80 ? cp1252_class(c) : xq_is_alpha(c) ? 3 : 4;
		run = c >= 0x80 ? run + 1 : 0;
		if (cls == 0 || run > 2)
			return 0;
		if (cls == 1 || cls == 3) {
			ascii += cls == 3;
			other += cls == 1;
			continue;
		}
		switch (western_word(ascii, other)) {
		case 0:
			return 0;
		case 2:
			inside = 1;
			break;
		}
		ascii = other = 0;
	}
	return inside;
}

/*
 * Are the bytes of s[0..n) over 0x7F all pairs as GBK writes them (a lead
 * of 0x81-0xFE, a second byte of 0x40-0x7E or 0x80-0xFE; Big5's are among
 * them), some with both bytes over 0x7F?  What a line in GBK or Big5 looks
 * like; Western text's single accents ("Caf\xE9 ") mostly do not.
 */
static int gbk_pairs(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	int wide = 0;

	for (size_t i = 0; i < n; i++) {
		if (u[i] < 0x80)
			continue;
		if (u[i] == 0x80 || u[i] == 0xFF || i + 1 >= n || u[i + 1] < 0x40 || u[i + 1] == 0x7F ||
		    u[i + 1] == 0xFF)
			return 0;
		wide |= u[i + 1] >= 0x80;
		i++;
	}
	return wide;
}

/*
 * The better of the readings of a line in GB18030 and Big5 (xqi_encoding_score()
 * and pair_score()), when it decodes cleanly and has a character of two
 * bytes that are not ASCII: 1 with *enc and *score, 0 when neither is.  A
 * line that is `bad` bytes of UTF-8 in error for `multi` characters must
 * read better than nothing there (UTF-8 with a stray byte or two reads as
 * junk in GB18030 or Big5).  The readings are kept for emit_foreign().
 */
static int chinese_reading(struct xqi_textdec *d, const char *s, size_t n, size_t bad, size_t multi,
			   enum xqi_encoding *enc, long *score)
{
	struct {
		enum xqi_encoding enc;
		struct xqi_transcoder *t;
		struct xq_buf *out;
	} cands[2] = {{XQI_ENC_GB18030, &d->gb, &d->tmp}, {XQI_ENC_BIG5, &d->big5, &d->tmp2}};
	int found = 0;

	d->tried = s;
	d->tried_len = n;
	for (int c = 0; c < 2; c++) {
		size_t at;
		long sc;
		xq_buf_reset(cands[c].out);
		if (xqi_transcoder_convert(cands[c].t, s, n, cands[c].out, &at) != 0) {
			xq_buf_reset(cands[c].out);
			continue;
		}
		if (!has_wide_pair(cands[c].enc, s, n))
			continue;
		sc = 2 * xqi_encoding_score(cands[c].out->ptr, cands[c].out->len) +
		     pair_score(cands[c].enc, s, n);
		if (bad <= multi && sc <= 0)
			continue;
		if (!found || sc > *score) {
			*score = sc;
			*enc = cands[c].enc;
			found = 1;
		}
	}
	return found;
}

/* Two common characters at least, not a stray accent: plainly Chinese. */
#define PLAINLY_CHINESE 2

/*
 * A line of a legacy input: UTF-8 when it is plainly that (Chinese, or
 * accented Latin words, in UTF-8); in a Windows-1252 input, GB18030 or
 * Big5 when it is not plainly Western and reads as plainly Chinese there.
 */
static enum xqi_encoding legacy_line(struct xqi_textdec *d, const char *s, size_t n)
{
	struct xqi_utf8_tally t;
	enum xqi_encoding best;
	long score = 0;

	if (strong_utf8(s, n) || words_utf8(s, n, 1))
		return XQI_ENC_UTF8;
	if (d->enc != XQI_ENC_CP1252 || western(s, n))
		return d->enc;
	xqi_utf8_tally(s, n, n, &t);
	if (chinese_reading(d, s, n, t.bad, t.multi, &best, &score) && score >= PLAINLY_CHINESE)
		return best;
	return d->enc;
}

/*
 * xqi_textdec_line_encoding(), and in *maybe the encoding a valid UTF-8
 * line that reads as no text in UTF-8 reads as common Chinese in (else
 * UTF-8): such a line stays UTF-8, and is an event.
 */
static enum xqi_encoding line_decide(struct xqi_textdec *d, const char *s, size_t n,
				    enum xqi_encoding *maybe)
{
	struct xqi_utf8_tally t;
	enum xqi_encoding best = XQI_ENC_UTF8;
	long best_score = 0;
	int found;

	*maybe = XQI_ENC_UTF8;
	if (!(d->flags & XQI_TEXTDEC_MIXED))
		return d->enc;
	if (d->enc != XQI_ENC_UTF8)
		return legacy_line(d, s, n);
	xqi_utf8_tally(s, n, n, &t);
	/* Valid UTF-8 stays UTF-8; when it reads as nothing in it (two-byte
	 * characters of mixed scripts or marks, as GBK or Big5 bytes that
	 * happen to be valid UTF-8 do) and as common Chinese in GB18030 or
	 * Big5, that is said. */
	if (t.bad == 0 && (t.multi == 0 || strong_utf8(s, n) || words_utf8(s, n, 0)))
		return XQI_ENC_UTF8;
	found = chinese_reading(d, s, n, t.bad, t.multi, &best, &best_score);
	if (t.bad == 0) {
		if (found && best_score >= PLAINLY_CHINESE)
			*maybe = best;
		return XQI_ENC_UTF8;
	}
	/* No character of UTF-8 at all, plainly Western in Windows-1252 and
	 * not plainly Chinese: a line of a Western program ("Léon"). */
	if (t.multi == 0 && !(found && best_score >= PLAINLY_CHINESE) && western(s, n))
		return XQI_ENC_CP1252;
	return found ? best : XQI_ENC_UTF8;
}

enum xqi_encoding xqi_textdec_line_encoding(struct xqi_textdec *d, const char *s, size_t n)
{
	enum xqi_encoding maybe;

	return line_decide(d, s, n, &maybe);
}

enum xqi_encoding xqi_textdec_detect(const char *buf, size_t len)
{
	size_t i = 0, utf8 = 0, legacy = 0, west = 0;
	enum xqi_encoding e = xqi_encoding_detect_text(buf, len);

	if (e == XQI_ENC_UTF8)
		return e;
	/* A vote of the lines that are not ASCII: plainly UTF-8 (Chinese or
	 * accented Latin words, as the rules above read UTF-8 lines inside
	 * GB18030 or Big5), plainly Western in Windows-1252 and not pairs of
	 * GBK or Big5, or mostly not UTF-8 with a character of GB18030 or
	 * Big5 in them; a line that is none of these (a stray byte, GBK that
	 * happens to be valid UTF-8) has no say.  A tie goes to UTF-8: there
	 * every line is decided on alone (GB18030 and Big5 lines too), where
	 * a GB18030 input cannot tell its Big5 lines. */
	while (i < len) {
		size_t n = unit_len(buf + i, len - i, 1);
		struct xqi_utf8_tally t;
		xqi_utf8_tally(buf + i, n, n, &t);
		if (t.bad == 0 && (t.longer > 0 || words_utf8(buf + i, n, 1)))
			utf8++;
		else if (t.multi == 0 && western(buf + i, n) && !gbk_pairs(buf + i, n))
			west++;
		else if (t.bad > t.multi && (has_wide_pair(XQI_ENC_GB18030, buf + i, n) ||
					     has_wide_pair(XQI_ENC_BIG5, buf + i, n)))
			legacy++;
		i += n;
	}
	/* Plainly Western lines (ASCII moves, Latin letters in tags) more
	 * than those of every other kind: Windows-1252 (in which every
	 * line is still decided on alone, the Chinese ones too). */
	if (west > utf8 && west > legacy)
		return XQI_ENC_CP1252;
	/* With no line of GB18030 or Big5, stray bytes are reported as not
	 * UTF-8 rather than read as GBK with the ASCII byte after them. */
	return utf8 >= legacy ? XQI_ENC_UTF8 : e;
}

/* ---- output ---------------------------------------------------------------- */

/* Bytes that are not text (and NULs) in UTF-8 text in[0, n) at the current place. */
static int utf8_bad_events(struct xqi_textdec *d, const char *in, size_t n)
{
	size_t nul = 0; /* the next NUL at or after i (n: none), found once per NUL */

	if (!(d->flags & XQI_TEXTDEC_BAD_EVENTS))
		return 0;
	for (size_t i = 0; i < n;) {
		size_t k;
		if (nul < i || i == 0) {
			const char *z = memchr(in + i, '\0', n - i);
			nul = z ? (size_t)(z - in) : n;
		}
		/* Checked up to the NUL only: checking to the end each time was
		 * quadratic in a run of NULs (/dev/zero). */
		k = xq_utf8_check(in + i, nul - i) + i;
		if (k >= n)
			break;
		if (event_push(d, XQI_TEXTDEC_BAD, d->dpos + k, d->raw + k, XQI_ENC_UTF8,
			       (unsigned char)in[k]))
			return XQ_ENOMEM;
		i = k + 1;
	}
	return 0;
}

/* UTF-8 text as it stands (written when copying), bad bytes included. */
static int emit_utf8(struct xqi_textdec *d, const char *in, size_t n, struct xq_buf *out)
{
	if (n == 0)
		return 0;
	if (utf8_bad_events(d, in, n))
		return XQ_ENOMEM;
	if (d->copy && xq_buf_add(out, in, n))
		return XQ_ENOMEM;
	d->dpos += n;
	d->raw += n;
	return 0;
}

/* Legacy text through `t`, one XQI_DECODE_BAD for each byte that is not text. */
static int emit_marked(struct xqi_textdec *d, struct xqi_transcoder *t, enum xqi_encoding enc,
		       const char *in, size_t n, struct xq_buf *out)
{
	size_t done = 0;
	int events = (d->flags & XQI_TEXTDEC_BAD_EVENTS) && !(d->flags & XQI_TEXTDEC_NO_EVENTS);

	while (done < n) {
		size_t bad = 0, before = out->len, upto = n;
		int rc;
		if (events) {
			/* NULs are ASCII everywhere but UTF-16: cut the text at them. */
			const char *nul = is_utf16(enc) ? NULL : memchr(in + done, '\0', n - done);
			if (nul)
				upto = (size_t)(nul - in);
		}
		rc = xqi_transcoder_convert(t, in + done, upto - done, out, &bad);
		if (rc == 0) {
			d->dpos += out->len - before;
			d->raw += upto - done;
			done = upto;
			if (upto == n)
				break;
			bad = 0; /* the NUL */
		} else if (rc != XQ_EENCODING) {
			return rc;
		} else {
			d->dpos += out->len - before;
			d->raw += bad;
			done += bad;
		}
		/* One mark per byte; in UTF-16 a whole code unit, so that what
		 * follows stays aligned however the bytes arrive. */
		for (size_t k = is_utf16(enc) && n - done >= 2 ? 2 : 1; k > 0; k--) {
			if (event_push(d, XQI_TEXTDEC_BAD, d->dpos, d->raw, enc, (unsigned char)in[done]))
				return XQ_ENOMEM;
			if (xq_buf_addc(out, in[done] || is_utf16(enc) ? (char)XQI_DECODE_BAD : '\0'))
				return XQ_ENOMEM;
			d->dpos++;
			d->raw++;
			done++;
		}
	}
	return 0;
}

/* A run of lines in the input's own legacy encoding. */
static int emit_main(struct xqi_textdec *d, const char *in, size_t n, struct xq_buf *out)
{
	size_t before = out->len;
	long used;

	if (n == 0)
		return 0;
	if (!d->convert)
		return emit_marked(d, &d->main, d->enc, in, n, out);
	used = d->convert(d->convert_ctx, in, n, out);
	if (used < 0)
		return (int)used;
	d->dpos += out->len - before;
	d->raw += n;
	return 0;
}

/* A line read in `enc`, which is not the input's encoding. */
static int emit_foreign(struct xqi_textdec *d, enum xqi_encoding enc, const char *in, size_t n,
			struct xq_buf *out)
{
	size_t first = 0;
	int rc;

	while (first < n && (unsigned char)in[first] < 0x80)
		first++;
	if (event_push(d, XQI_TEXTDEC_FOREIGN, d->dpos + first, d->raw + first, enc, 0))
		return XQ_ENOMEM;
	if (seg_push(d, enc))
		return XQ_ENOMEM;
	if (enc == XQI_ENC_UTF8) {
		rc = emit_utf8(d, in, n, out);
	} else if (in == d->tried && n == d->tried_len && !(d->flags & XQI_TEXTDEC_BAD_EVENTS) &&
		   (enc == XQI_ENC_GB18030 || enc == XQI_ENC_BIG5)) {
		/* Decided on a clean reading: that reading, as it was made. */
		const struct xq_buf *b = enc == XQI_ENC_BIG5 ? &d->tmp2 : &d->tmp;
		rc = xq_buf_add(out, b->ptr, b->len) ? XQ_ENOMEM : 0;
		d->dpos += b->len;
		d->raw += n;
	} else {
		struct xqi_transcoder *t = enc == XQI_ENC_BIG5     ? &d->big5
					  : enc == XQI_ENC_CP1252 ? &d->cp1252
								 : &d->gb;
		rc = emit_marked(d, t, enc, in, n, out);
	}
	d->tried = NULL;
	if (rc)
		return rc;
	return seg_push(d, d->enc);
}

/* ---- blocks ---------------------------------------------------------------- */

/*
 * UTF-8 input: in[pos, end) holds whole lines.  Returns where it stopped:
 * `end`, or the start of a line that needs converting while in place.
 */
static long block_utf8(struct xqi_textdec *d, const char *in, size_t pos, size_t end,
		       struct xq_buf *out)
{
	size_t ub = pos; /* a line starts here */

	while (pos < end) {
		size_t k = pos + (d->flags & XQI_TEXTDEC_MIXED ? xqi_utf8_check_long(in + pos, end - pos)
							      : xq_utf8_check(in + pos, end - pos));
		size_t us, ue;
		enum xqi_encoding enc, maybe;
		if (k == end)
			return emit_utf8(d, in + pos, end - pos, out) ? XQ_ENOMEM : (long)end;
		unit_of(in, ub, end, k, &us, &ue);
		enc = line_decide(d, in + us, ue - us, &maybe);
		if (enc == XQI_ENC_UTF8) {
			if (maybe != XQI_ENC_UTF8) {
				size_t first = us;
				while ((unsigned char)in[first] < 0x80)
					first++;
				if (event_push(d, XQI_TEXTDEC_AMBIGUOUS, d->dpos + (first - pos),
					       d->raw + (first - pos), maybe, 0))
					return XQ_ENOMEM;
			}
			if (emit_utf8(d, in + pos, ue - pos, out))
				return XQ_ENOMEM;
		} else {
			if (!d->copy) {
				if (emit_utf8(d, in + pos, us - pos, out))
					return XQ_ENOMEM;
				d->copy = 1;
				return (long)us;
			}
			if (emit_utf8(d, in + pos, us - pos, out) ||
			    emit_foreign(d, enc, in + us, ue - us, out))
				return XQ_ENOMEM;
		}
		pos = ub = ue;
	}
	return (long)end;
}

/*
 * Where the UTF-8 that starts at in[i] stops being valid: the first byte
 * that is not UTF-8, or the end of its line (or `end`).
 */
static size_t utf8_run(const char *in, size_t i, size_t end)
{
	while (i < end) {
		unsigned char c = (unsigned char)in[i];
		size_t k;
		if (c < 0x80) {
			if (is_eol(c))
				return i;
			i++;
			continue;
		}
		k = xq_utf8_valid_prefix(in + i, end - i);
		if (!k)
			return i;
		i += k;
	}
	return end;
}

/* The first byte at or after `from` in in[from, end) that is `c` (end if none),
 * searched again only once `from` has passed the last one found. */
static size_t next_of(const char *in, size_t from, size_t end, int c, size_t *cache)
{
	if (*cache < from || *cache == (size_t)-1) {
		const char *p = memchr(in + from, c, end - from);
		*cache = p ? (size_t)(p - in) : end;
	}
	return *cache;
}

/*
 * Legacy input: in[pos, end) holds whole lines.  With MIXED, each line
 * that is not ASCII is checked for UTF-8 from its first byte that is not
 * ASCII on; in GB18030 or Big5 text that byte, or one soon after it, is
 * not UTF-8, and the line is done with.
 */
static long block_legacy(struct xqi_textdec *d, const char *in, size_t pos, size_t end,
			 struct xq_buf *out)
{
	const unsigned char *u = (const unsigned char *)in;
	size_t run = pos, us = pos, lf = (size_t)-1, cr = (size_t)-1;
	int rc;

	while ((d->flags & XQI_TEXTDEC_MIXED) && us < end) {
		size_t ue = next_of(in, us, end, '\n', &lf), k = us, c2 = next_of(in, us, end, '\r', &cr);
		if (c2 < ue)
			ue = c2;
		ue = ue < end ? ue + 1 : end;
		if (ue - us > XQI_TEXTDEC_LINE_MAX)
			ue = us + unit_len(in + us, end - us, 1);
		enum xqi_encoding enc = d->enc;
		while (k < ue && u[k] < 0x80)
			k++;
		if (k < ue && d->enc == XQI_ENC_CP1252)
			enc = legacy_line(d, in + us, ue - us); /* every line that is not ASCII */
		else if (k < ue && xq_utf8_valid_prefix(in + k, ue - k) && utf8_run(in, k, ue) >= ue - 1)
			enc = xqi_textdec_line_encoding(d, in + us, ue - us);
		if (enc != d->enc) {
			if ((rc = emit_main(d, in + run, us - run, out)) ||
			    (rc = emit_foreign(d, enc, in + us, ue - us, out)))
				return rc;
			run = ue;
		}
		us = ue;
	}
	if ((rc = emit_main(d, in + run, end - run, out)))
		return rc;
	return (long)end;
}

/* UTF-16: all but a character cut at the end (all of it when final). */
static long feed_utf16(struct xqi_textdec *d, const char *in, size_t len, int final,
		       struct xq_buf *out)
{
	size_t n = len;
	int rc;

	if (!final) {
		n = len & ~(size_t)1;
		if (n >= 2) {
			/* Do not end after a high surrogate. */
			unsigned hi = d->enc == XQI_ENC_UTF16LE ? (unsigned char)in[n - 1]
							       : (unsigned char)in[n - 2];
			if (hi >= 0xD8 && hi <= 0xDB)
				n -= 2;
		}
	}
	rc = emit_marked(d, &d->main, d->enc, in, n, out);
	return rc ? rc : (long)n;
}

/* Events come in the order of their places: a line's event is noted
 * before the bytes before it in the line (a NUL) are looked at. */
static void sort_events(struct xqi_textdec *d)
{
	for (size_t i = d->ev_first + 1; i < d->nevents; i++) {
		struct xqi_textdec_event e = d->events[i];
		size_t j = i;
		while (j > d->ev_first && d->events[j - 1].dpos > e.dpos) {
			d->events[j] = d->events[j - 1];
			j--;
		}
		d->events[j] = e;
	}
}

static long feed(struct xqi_textdec *d, const char *in, size_t len, int final, struct xq_buf *out)
{
	size_t pos = 0;

	if (is_utf16(d->enc))
		return feed_utf16(d, in, len, final, out);
	while (pos < len) {
		size_t end = block_end(in, pos, len, final);
		long got;
		if (end == pos)
			break;
		got = d->enc == XQI_ENC_UTF8 ? block_utf8(d, in, pos, end, out)
					    : block_legacy(d, in, pos, end, out);
		if (got < 0)
			return got;
		pos = (size_t)got;
		if (pos < end)
			break; /* in place until here: the caller starts copying */
	}
	return (long)pos;
}

long xqi_textdec_feed(struct xqi_textdec *d, const char *in, size_t len, int final,
		     struct xq_buf *out)
{
	long got;

	d->tried = NULL;
	got = feed(d, in, len, final, out);

	/* Nearly in order already: one pass over those not taken yet. */
	sort_events(d);
	return got;
}

/* ---- places ---------------------------------------------------------------- */

/* The live segment that holds decoded position `dpos`. */
static size_t seg_index(const struct xqi_textdec *d, uint64_t dpos)
{
	size_t lo = d->seg_first, hi = d->nsegs;

	/* The last segment starting at or before dpos (the first live one if none). */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->segs[mid].dpos <= dpos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

enum xqi_encoding xqi_textdec_enc_at(const struct xqi_textdec *d, uint64_t dpos)
{
	if (d->nsegs == d->seg_first)
		return d->enc;
	return d->segs[seg_index(d, dpos)].enc;
}

/* The bytes of the UTF-8 character whose first byte is c. */
static unsigned utf8_len(unsigned char c)
{
	return c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
}

/*
 * xqi_textdec_walk() within an encoding whose characters' lengths their
 * first byte tells (`lead`, xqi_encoding_lead_lengths(); NULL: one byte
 * each, as Windows-1252 and Latin-1).
 */
static void walk_by_lead(const unsigned char *lead, const unsigned char *text,
			 const unsigned char *raw, uint64_t raw_end, uint64_t *dp, uint64_t *rp,
			 uint64_t stop)
{
	uint64_t dd = *dp, rr = *rp;

	while (dd < stop) {
		unsigned char c = text[dd], b = rr < raw_end ? raw[rr] : 0;
		uint64_t n = b >= 0x80 && lead ? lead[b - 0x80] : 1;
		dd += c == XQI_DECODE_BAD ? 1 : utf8_len(c);
		if (c == XQI_DECODE_BAD)
			n = 1;
		rr += n < raw_end - rr ? n : raw_end - rr;
	}
	*dp = dd;
	*rp = rr;
}

/* xqi_textdec_walk() within one encoding, up to `stop`. */
static void walk_enc(const struct xqi_textdec *d, enum xqi_encoding enc, const unsigned char *text,
		     const unsigned char *raw, uint64_t raw_end, uint64_t *dp, uint64_t *rp,
		     uint64_t stop)
{
	uint64_t dd = *dp, rr = *rp;

	if (enc == XQI_ENC_UTF8 || enc == XQI_ENC_UNKNOWN) {
		/* Copied as it stands, bad bytes included. */
		*rp = rr + (stop - dd);
		*dp = stop;
		return;
	}
	if (enc == XQI_ENC_CP1252 || enc == XQI_ENC_LATIN1 || enc >= XQI_ENC_ICONV) {
		walk_by_lead(enc >= XQI_ENC_ICONV ? d->lead : NULL, text, raw, raw_end, dp, rp, stop);
		return;
	}
	if (!is_utf16(enc)) {
		/* The common legacy text, without a call per character: ASCII
		 * and bad bytes are one byte each way, other characters 2 bytes
		 * of the source (4 for GB18030's four-byte ones, marked by a
		 * digit second byte) and 2-4 of UTF-8. */
		int gb = enc != XQI_ENC_BIG5;
		while (dd < stop) {
			unsigned char c = text[dd];
			uint64_t avail, n = 1;
			if (c < 0x80 || c == XQI_DECODE_BAD) {
				dd++;
				rr++;
				continue;
			}
			dd += c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
			/* As xqi_encoding_char_len(). */
			avail = raw_end - rr;
			if (raw[rr] >= 0x81 && raw[rr] <= 0xFE)
				n = gb && avail >= 2 && raw[rr + 1] >= 0x30 && raw[rr + 1] <= 0x39 ? 4 : 2;
			rr += n < avail ? n : avail;
		}
	} else {
		while (dd < stop) {
			unsigned char c = text[dd];
			if (c == XQI_DECODE_BAD) {
				dd++;
				rr++;
				continue;
			}
			dd += c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
			rr += xqi_encoding_char_len(enc, raw + rr, (size_t)(raw_end - rr));
		}
	}
	*dp = dd;
	*rp = rr;
}

void xqi_textdec_walk(const struct xqi_textdec *d, const char *text, uint64_t text_base,
		     const char *raw, uint64_t raw_base, uint64_t raw_end, uint64_t *dp,
		     uint64_t *rp, uint64_t p)
{
	const unsigned char *t = (const unsigned char *)text - text_base;
	const unsigned char *r = (const unsigned char *)raw - raw_base;
	size_t i;

	if (d->nsegs - d->seg_first <= 1) {
		/* One encoding (the common case): no segment to look up. */
		walk_enc(d, d->nsegs > d->seg_first ? d->segs[d->seg_first].enc : d->enc, t, r,
			 raw_end, dp, rp, p);
		return;
	}
	i = seg_index(d, *dp);
	while (*dp < p) {
		uint64_t stop = p;
		if (i + 1 < d->nsegs && d->segs[i + 1].dpos < stop)
			stop = d->segs[i + 1].dpos;
		walk_enc(d, d->segs[i].enc, t, r, raw_end, dp, rp, stop);
		if (i + 1 < d->nsegs && *dp >= d->segs[i + 1].dpos) {
			i++;
			*dp = d->segs[i].dpos;
			*rp = d->segs[i].raw;
		}
	}
}

void xqi_textdec_forget(struct xqi_textdec *d, uint64_t dpos)
{
	if (d->nsegs == d->seg_first)
		return;
	d->seg_first = seg_index(d, dpos);
	if (d->seg_first >= 64 && d->seg_first * 2 >= d->nsegs) {
		memmove(d->segs, d->segs + d->seg_first,
			(d->nsegs - d->seg_first) * sizeof(*d->segs));
		d->nsegs -= d->seg_first;
		d->seg_first = 0;
	}
}

/* ---- messages -------------------------------------------------------------- */

const char *xqi_textdec_bad_message(char *buf, size_t size, unsigned byte, enum xqi_encoding enc,
				   uint64_t offset)
{
	if (byte == 0)
		snprintf(buf, size,
			 "a NUL byte at offset %llu is not text: the game holding it is marked broken",
			 (unsigned long long)offset);
	else
		snprintf(buf, size,
			 "byte 0x%02X at offset %llu is not valid %s: the game holding it is marked "
			 "broken",
			 byte, (unsigned long long)offset, xqi_encoding_name(enc));
	return buf;
}

long xqi_textdec_repair(struct xq_buf *out, const char *s, size_t n)
{
	long count = 0;
	size_t nul = (size_t)-1; /* the next NUL at or after i (n: none), found once per NUL */

	for (size_t i = 0; i < n;) {
		size_t z;
		/* NULs are valid UTF-8 but no text of a record: they end a run
		 * too (a run is checked up to the next NUL only, and each NUL is
		 * searched for once, so that many of either cost linear time). */
		if (nul == (size_t)-1 || nul < i) {
			const char *p = memchr(s + i, '\0', n - i);
			nul = p ? (size_t)(p - s) : n;
		}
		z = xq_utf8_check(s + i, nul - i) + i;
		if (xq_buf_add(out, s + i, z - i))
			return -1;
		if (z >= n)
			break;
		if (xq_buf_add(out, "\xEF\xBF\xBD", 3))
			return -1;
		count++;
		i = z + 1;
	}
	return count;
}

const char *xqi_textdec_repaired_message(char *buf, size_t size, const char *what, unsigned byte,
					const char *enc_name, uint64_t offset, long count)
{
	if (byte == 0)
		snprintf(buf, size,
			 "%s holds a NUL byte, which is no text: %ld byte%s replaced by U+FFFD (the "
			 "first at offset %llu)",
			 what, count, count == 1 ? "" : "s", (unsigned long long)offset);
	else
		snprintf(buf, size,
			 "%s is not valid %s: %ld byte%s replaced by U+FFFD (the first, 0x%02X, at "
			 "offset %llu)",
			 what, enc_name, count, count == 1 ? "" : "s", byte, (unsigned long long)offset);
	return buf;
}

const char *xqi_textdec_ambiguous_message(char *buf, size_t size, enum xqi_encoding other)
{
	snprintf(buf, size,
		 "this line is valid utf-8 but reads as no text in it, and as Chinese in %s: read "
		 "as utf-8 (--input-encoding %s reads it so)",
		 xqi_encoding_name(other), xqi_encoding_name(other));
	return buf;
}

const char *xqi_textdec_foreign_message(char *buf, size_t size, enum xqi_encoding line_enc,
				       enum xqi_encoding input_enc)
{
	snprintf(buf, size,
		 "this line is %s, not %s like the input: read as %s, as is every such line of "
		 "this game",
		 xqi_encoding_name(line_enc), xqi_encoding_name(input_enc), xqi_encoding_name(line_enc));
	return buf;
}
