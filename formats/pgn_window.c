/*
 * pgn_window.c: the PGN reader's window over its input: raw bytes read,
 * decoded (lib/decode.h) and published as text, the places of the text
 * (columns, source offsets), and the splitter's shadow text (see pgn.c for
 * the whole, pgn_int.h for what the parts share).  The lexer (pgn_lex.c)
 * reads tokens out of it.
 */
#include "pgn_int.h"

void xqi_pgn_report_io(struct pgn_reader *r, struct xq_diagnostic *d)
{
	d->source = r->name;
	d->game = r->games;
	xqi_sink_report(r->sink, d);
}

void xqi_pgn_set_text(struct pgn_reader *r)
{
	r->text = r->conv ? r->dec.ptr : r->raw.ptr;
}

size_t xqi_pgn_count_chars(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}

/* Walk the decoded and the raw text in step from (*d, *raw_off) up to
 * decoded position `p`. */
static void map_walk(const struct pgn_reader *r, uint64_t *d, uint64_t *raw_off, uint64_t p)
{
	xqi_textdec_walk(&r->td, r->text, r->base, r->raw.ptr, r->raw_base, r->raw_base + r->raw.len,
			d, raw_off, p);
}

static void advance_map(struct pgn_reader *r, uint64_t p)
{
	map_walk(r, &r->map_d, &r->map_r, p);
}

uint64_t xqi_pgn_offset_of(struct pgn_reader *r, uint64_t p)
{
	if (!r->conv)
		return p;
	advance_map(r, p);
	return r->map_r;
}

/*
 * The input offset of decoded position `p` (at or after the map), leaving
 * the map where it is: for a place inside a token, which may be read again
 * from its start (a '{' that closes no comment), and for places the
 * splitter looks ahead at.  UINT64_MAX if `p` is behind the map.
 */
uint64_t xqi_pgn_offset_peek(const struct pgn_reader *r, uint64_t p)
{
	uint64_t d = r->map_d, raw_off = r->map_r;

	if (!r->conv)
		return p;
	if (d > p)
		return UINT64_MAX;
	map_walk(r, &d, &raw_off, p);
	return raw_off;
}


/* Drop the text before `keep` (which no token still needs). */
static void compact(struct pgn_reader *r, uint64_t keep)
{
	size_t drop = (size_t)(keep - r->base);

	if (drop == 0)
		return;
	if (r->col_pos < keep)
		xqi_pgn_advance_col(r, keep);
	if (r->conv) {
		size_t rdrop;
		advance_map(r, keep);
		memmove(r->dec.ptr, r->dec.ptr + drop, r->dec.len - drop);
		xq_buf_truncate(&r->dec, r->dec.len - drop);
		rdrop = (size_t)(r->map_r - r->raw_base);
		memmove(r->raw.ptr, r->raw.ptr + rdrop, r->raw.len - rdrop);
		xq_buf_truncate(&r->raw, r->raw.len - rdrop);
		r->raw_base += rdrop;
		r->raw_done -= rdrop;
	} else {
		memmove(r->raw.ptr, r->raw.ptr + drop, r->raw.len - drop);
		xq_buf_truncate(&r->raw, r->raw.len - drop);
		r->raw_base += drop;
	}
	if (r->td_live)
		xqi_textdec_forget(&r->td, keep);
	r->base = keep;
	r->tlen -= drop;
	xqi_pgn_set_text(r);
}

/* ---- the splitter's shadow text ------------------------------------------------- */

static int shadow_init(struct shadow *sh, enum xqi_encoding enc)
{
	xqi_transcoder_release(&sh->tc);
	xqi_transcoder_init(&sh->tc, enc, XQI_ENC_UTF8);
	memset(sh->pairs, 0, sizeof(sh->pairs));
	memset(sh->single, 0, sizeof(sh->single));
	for (int i = 0; i < 3; i++) {
		struct xqi_transcoder to;
		xq_buf_reset(&sh->tmp);
		xqi_transcoder_init(&to, XQI_ENC_UTF8, enc);
		sh->space_len[i] = 0;
		if (xqi_transcoder_convert(&to, shadow_spaces[i], strlen(shadow_spaces[i]), &sh->tmp,
					  NULL) == 0 &&
		    sh->tmp.len <= sizeof(sh->spaces[i])) {
			memcpy(sh->spaces[i], sh->tmp.ptr, sh->tmp.len);
			sh->space_len[i] = sh->tmp.len;
		}
		xqi_transcoder_release(&to);
	}
	return 0;
}

void xqi_pgn_shadow_free(struct shadow *sh)
{
	if (!sh)
		return;
	xqi_transcoder_release(&sh->tc);
	xq_buf_release(&sh->tmp);
	free(sh);
}

/* PAIR_TEXT, PAIR_BAD or PAIR_SPACE + k for the character `c` (n bytes). */
static int shadow_kind(struct shadow *sh, const unsigned char *c, size_t n)
{
	size_t bad;

	xq_buf_reset(&sh->tmp);
	if (xqi_transcoder_convert(&sh->tc, (const char *)c, n, &sh->tmp, &bad))
		return PAIR_BAD;
	for (int i = 0; i < 3; i++)
		if (sh->space_len[i] == n && !memcmp(sh->spaces[i], c, n))
			return PAIR_SPACE + i;
	return PAIR_TEXT;
}

/*
 * As xqi_decoder_feed() (same bytes consumed, same XQI_DECODE_BAD bytes in
 * the same places) but with a placeholder for each character.
 */
static long shadow_feed(struct shadow *sh, const char *in, size_t len, int final,
			struct xq_buf *out)
{
	const unsigned char *u = (const unsigned char *)in;
	enum xqi_encoding enc = sh->tc.from;
	size_t i = 0;
	char *o;

	/* Three bytes at most for a character, of one byte or more. */
	if (xq_buf_grow(out, len * 3 + 8))
		return XQ_ENOMEM;
	o = out->ptr + out->len;
	while (i < len) {
		unsigned c = u[i];
		size_t n = 2;
		int kind;
		if (c < 0x80) {
			*o++ = (char)c;
			i++;
			continue;
		}
		if (c == 0x80 || c == 0xFF) {
			/* Not a lead byte: a character of its own in some code pages. */
			unsigned char *k = &sh->single[c == 0xFF];
			if (!*k)
				*k = (unsigned char)shadow_kind(sh, u + i, 1);
			kind = *k;
			n = 1;
		} else if (i + 1 >= len) {
			if (!final)
				break; /* the rest of it comes with the next bytes */
			kind = PAIR_BAD;
		} else if (enc == XQI_ENC_GB18030 && u[i + 1] >= 0x30 && u[i + 1] <= 0x39) {
			n = 4;
			if (i + 3 >= len && !final)
				break;
			kind = i + 3 < len ? shadow_kind(sh, u + i, 4) : PAIR_BAD;
		} else {
			unsigned char *k = &sh->pairs[c - 0x81][u[i + 1]];
			if (!*k)
				*k = (unsigned char)shadow_kind(sh, u + i, 2);
			kind = *k;
		}
		if (kind == PAIR_BAD) {
			*o++ = (char)XQI_DECODE_BAD;
			i++;
		} else {
			const char *rep = kind == PAIR_TEXT ? SHADOW_CHAR : shadow_spaces[kind - PAIR_SPACE];
			size_t rl = strlen(rep);
			memcpy(o, rep, rl);
			o += rl;
			i += n;
		}
	}
	out->len = (size_t)(o - out->ptr);
	out->ptr[out->len] = '\0';
	return (long)i;
}

/* The decoder's converter for the splitter: placeholders for characters. */
static long shadow_convert(void *ctx, const char *in, size_t len, struct xq_buf *out)
{
	return shadow_feed(ctx, in, len, 1, out);
}

/* Convert from here on: the text published so far (as it stands in the
 * raw bytes: ASCII, or UTF-8 read in place) is copied. */
static int start_copy(struct pgn_reader *r)
{
	xq_buf_reset(&r->dec);
	if (xq_buf_add(&r->dec, r->raw.ptr + r->raw_done, r->tlen))
		return XQ_ENOMEM;
	r->map_d = r->base;
	r->map_r = r->raw_base + r->raw_done;
	r->raw_done += r->tlen;
	r->conv = 1;
	xqi_pgn_set_text(r);
	return 0;
}

/*
 * Start the decoder (decode.h) in `enc` after the text published so far
 * (ASCII, or nothing after a UTF-16 BOM).  A detected encoding lets lines
 * be in another one; an encoding the user gave does not.  UTF-8 is read
 * in place until a line needs converting.
 */
int xqi_pgn_start_conversion(struct pgn_reader *r, enum xqi_encoding enc)
{
	unsigned flags = r->opts.encoding == XQI_ENC_UNKNOWN ? XQI_TEXTDEC_MIXED : 0;
	struct xq_diagnostic d;

	r->enc = enc;
	if (r->shadow) {
		flags |= XQI_TEXTDEC_NO_EVENTS;
		/* Placeholders for the encodings of two-byte characters it
		 * knows; any other is converted for real. */
		r->shadow->placeholders =
			enc == XQI_ENC_GB18030 || enc == XQI_ENC_GBK || enc == XQI_ENC_BIG5;
		if (r->shadow->placeholders && shadow_init(r->shadow, enc))
			return XQ_ENOMEM;
	}
	if (xqi_textdec_init(&r->td, enc, flags, r->base + r->tlen,
			    r->raw_base + r->raw_done + r->tlen)) {
		xqi_diagnostic_init(&d);
		xqi_diagnostic_set(&d, XQ_EUNSUPPORTED, XQI_D_ENCODING, XQ_SEVERITY_ERROR,
			    "this system cannot convert %s", xqi_encoding_name(enc));
		xqi_pgn_report_io(r, &d);
		return XQ_EUNSUPPORTED;
	}
	r->td_live = 1;
	if (r->shadow && r->shadow->placeholders) {
		r->td.convert = shadow_convert;
		r->td.convert_ctx = r->shadow;
	}
	return r->td.copy ? start_copy(r) : 0;
}

size_t xqi_pgn_unit_start(const char *buf, size_t from, size_t k)
{
	size_t n;

	while ((n = xqi_textdec_unit_len(buf + from, k - from, 0)) > 0)
		from += n;
	return from;
}

enum xqi_encoding xqi_pgn_detect_sample(const char *s, size_t avail)
{
	return xqi_textdec_detect(s, avail < SAMPLE ? avail : SAMPLE);
}

/*
 * Make newly read raw bytes visible as text.  Returns 0, or a negative
 * code; sets *wait when more raw bytes are needed before anything more can
 * be published (a BOM or encoding not yet decided).
 */
static int publish(struct pgn_reader *r, int *wait)
{
	*wait = 0;
	if (!r->bom_checked) {
		const unsigned char *u = (const unsigned char *)r->raw.ptr;
		if (r->raw.len < 3 && !r->raw_eof) {
			*wait = 1;
			return 0;
		}
		r->bom_checked = 1;
		if (r->opts.encoding == XQI_ENC_UNKNOWN || r->opts.encoding == XQI_ENC_UTF8) {
			if (r->raw.len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
				r->enc = XQI_ENC_UTF8;
				r->first_high = 0;
				r->pos = r->col_pos = r->line_start = 3; /* the BOM is not a column */
			} else if (r->opts.encoding == XQI_ENC_UTF8) {
				r->enc = XQI_ENC_UTF8;
			} else if (r->raw.len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) ||
						       (u[0] == 0xFE && u[1] == 0xFF))) {
				r->raw_done = 2;
				r->map_r = 2;
				r->first_high = 0;
				r->pos = r->col_pos = r->base = r->map_d = 0;
				if (xqi_pgn_start_conversion(r, u[0] == 0xFF ? XQI_ENC_UTF16LE : XQI_ENC_UTF16BE))
					return XQ_EUNSUPPORTED;
			}
		} else {
			int rc = xqi_pgn_start_conversion(r, r->opts.encoding);
			if (rc)
				return rc;
			r->first_high = 0;
		}
	}
	if (r->enc == XQI_ENC_UNKNOWN) {
		/* ASCII so far: publish the whole lines before the first other
		 * byte, then decide; the decoder starts at its line's start. */
		const unsigned char *u = (const unsigned char *)r->raw.ptr;
		size_t k = r->tlen, ls = r->tlen;
		while (k < r->raw.len && u[k] < 0x80)
			k++;
		/* Whole lines, or pieces of a line as long as the decoder cuts
		 * them: waiting for the end of a line that has none (/dev/zero)
		 * read for ever. */
		ls = xqi_pgn_unit_start(r->raw.ptr, ls, k);
		if (k == r->raw.len) {
			r->tlen = r->raw_eof ? k : ls;
			return 0;
		}
		r->tlen = ls;
		/* The sample is the SAMPLE bytes from the start of that line,
		 * however the input arrives: every reader of the input (chunk
		 * readers too) decides the same way. */
		if (r->given == XQI_ENC_UNKNOWN && r->raw.len - ls < SAMPLE && !r->raw_eof) {
			*wait = 1;
			return 0;
		}
		r->first_high = r->raw_base + k; /* ASCII so far: position = offset */
		r->enc = r->given != XQI_ENC_UNKNOWN ? r->given
						    : xqi_pgn_detect_sample(r->raw.ptr + ls, r->raw.len - ls);
	}
	if (!r->td_live) {
		int rc = xqi_pgn_start_conversion(r, r->enc);
		if (rc)
			return rc;
	}
	if (!r->conv) {
		/* UTF-8 in place, whole lines, up to a line that needs converting. */
		long used = xqi_textdec_feed(&r->td, r->raw.ptr + r->tlen, r->raw.len - r->tlen,
					    r->raw_eof, NULL);
		if (used < 0)
			return (int)used;
		r->tlen += (size_t)used;
		if (r->td.copy) {
			int rc = start_copy(r);
			if (rc)
				return rc;
		}
	}
	if (r->conv) {
		long used = xqi_textdec_feed(&r->td, r->raw.ptr + r->raw_done,
					    r->raw.len - r->raw_done, r->raw_eof, &r->dec);
		if (used < 0)
			return (int)used;
		r->raw_done += (size_t)used;
		r->tlen = r->dec.len;
	}
	xqi_pgn_set_text(r);
	return 0;
}

/*
 * Read more text, keeping everything from `keep` on.  Returns 1 when the
 * window grew, 0 at the end of the input, or a negative code (reported).
 */
static int fill(struct pgn_reader *r, uint64_t keep)
{
	uint64_t old_end = END(r);

	if (r->io_rc)
		return r->io_rc;
	if (keep > r->base)
		compact(r, keep);
	/* Every round reads bytes, or meets the end of the input. */
	for (uint64_t was = r->raw_base + r->raw.len + (uint64_t)r->raw_eof;;
	     XQI_ADVANCED(was, r->raw_base + r->raw.len + (uint64_t)r->raw_eof)) {
		int wait = 0, rc;
		if (!r->raw_eof) {
			struct xq_diagnostic d;
			long n;
			xqi_diagnostic_init(&d);
			if (xq_buf_grow(&r->raw, CHUNK)) {
				r->io_rc = XQ_ENOMEM;
				xqi_diagnostic_set(&d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
				xqi_pgn_report_io(r, &d);
				return r->io_rc;
			}
			n = r->in ? xqi_input_read(r->in, r->raw.ptr + r->raw.len, CHUNK, &d)
				  : r->src.read(r->src.ctx, r->raw.ptr + r->raw.len, CHUNK, &d);
			if (n < 0) {
				r->io_rc = (int)n;
				xqi_pgn_report_io(r, &d);
				return r->io_rc;
			}
			if (n == 0)
				r->raw_eof = 1;
			r->raw.len += (size_t)n;
			r->raw.ptr[r->raw.len] = '\0';
			xqi_pgn_set_text(r);
		}
		rc = publish(r, &wait);
		if (rc) {
			r->io_rc = rc;
			return rc;
		}
		if (END(r) > old_end)
			return 1;
		if (r->raw_eof && !wait)
			return 0;
	}
}

/* Is position p inside the text (reading more when needed)? */
int xqi_pgn_have(struct pgn_reader *r, uint64_t p, uint64_t keep)
{
	while (p >= END(r))
		if (fill(r, keep) <= 0)
			return 0;
	return 1;
}

/*
 * The lines read in another encoding (decode.h) before position `upto`,
 * which are on the current line (or before it, already taken): their
 * places are kept for the game holding them (only the first of a run in
 * one encoding, which is all that is reported).
 */
void xqi_pgn_take_foreign(struct pgn_reader *r, uint64_t upto)
{
	struct xqi_textdec *d = &r->td;

	while (d->ev_first < d->nevents && d->events[d->ev_first].dpos < upto) {
		const struct xqi_textdec_event *e = &d->events[d->ev_first++];
		struct foreign *f;
		uint64_t cols;
		if (e->kind == XQI_TEXTDEC_BAD ||
		    r->nforeign == sizeof(r->foreign) / sizeof(r->foreign[0]) ||
		    (r->nforeign && r->foreign[r->nforeign - 1].enc == e->enc &&
		     r->foreign[r->nforeign - 1].kind == e->kind))
			continue;
		f = &r->foreign[r->nforeign++];
		f->dpos = e->dpos;
		f->enc = e->enc;
		f->kind = e->kind;
		cols = e->dpos > r->line_start ? e->dpos - r->line_start : 0;
		if (r->line_start >= r->base && e->dpos <= END(r))
			cols = xqi_pgn_count_chars(r->text + (r->line_start - r->base), (size_t)cols);
		f->place.line = r->line;
		f->place.col = (uint64_t)cols + 1;
		f->place.offset = e->raw;
	}
}
