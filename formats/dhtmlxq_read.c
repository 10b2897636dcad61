/*
 * dhtmlxq_read.c: DhtmlXQ reading: finding records, and the reader (see
 * dhtmlxq.c for the format, dhtmlxq_int.h for what the parts share).
 */
#include "dhtmlxq_int.h"

/*
 * Report the decoder's events before text offset `b`, those from `a` on
 * for game g (NULL: none; the events outside records): each byte that was
 * not text, and the first line in another encoding, which says the game
 * is in that encoding.  Bytes of a value that was made text with U+FFFD
 * were reported there (xqi_dh_value_text()).  Returns how many bytes that
 * were not text the record held elsewhere (in its moves, its start, its
 * markup): it is broken.
 */
static uint64_t take_marks(struct dh_reader *r, struct xqi_record *g, uint64_t a, uint64_t b)
{
	uint64_t broken = 0;
	int told = 0, warned = 0, bads = 0;
	uint64_t more = 0;

	while (r->foreign_first < r->nforeign && r->foreign[r->foreign_first].at < b) {
		const struct dh_mark *m = &r->foreign[r->foreign_first++];
		int in = g && m->at >= a;
		char msg[200];
		if (m->kind == XQI_TEXTDEC_BAD && in && !m->repaired)
			broken += m->count;
		if (r->quiet || (m->kind == XQI_TEXTDEC_BAD && m->repaired))
			continue;
		if (m->kind == XQI_TEXTDEC_BAD && !in) {
			/* Outside every record: counted, said once at the end
			 * (random bytes were 1.6 million reports in 16 MiB). */
			if (r->outside == 0)
				r->first_outside = *m;
			r->outside += m->count;
		} else if (m->kind == XQI_TEXTDEC_BAD && bads >= DH_BAD_REPORTS) {
			more += m->count;
		} else if (m->kind == XQI_TEXTDEC_BAD) {
			bads++;
			xqi_textdec_bad_message(msg, sizeof(msg), m->byte, m->enc, m->place.offset);
			if (m->count > 1)
				xqi_format_report(r->sink, r->name, g->number, &m->place, 1, 0, NULL, 0,
					      XQI_D_ENCODING, XQ_SEVERITY_ERROR,
					      "%s (and so are the %llu bytes after it)", msg,
					      (unsigned long long)(m->count - 1));
			else
				xqi_format_report(r->sink, r->name, g->number, &m->place, 1, 0, NULL, 0,
					      XQI_D_ENCODING, XQ_SEVERITY_ERROR, "%s", msg);
		} else if (m->kind == XQI_TEXTDEC_AMBIGUOUS) {
			if (in && !warned) {
				xqi_format_report(r->sink, r->name, g->number, &m->place, 1, 0, NULL, 0,
					      XQI_D_ENCODING, XQ_SEVERITY_WARNING, "%s",
					      xqi_textdec_ambiguous_message(msg, sizeof(msg), m->enc));
				warned = 1;
			}
		} else if (in && !told) {
			xqi_format_report(r->sink, r->name, g->number, &m->place, 1, 0, NULL, 0,
				      XQI_D_ENCODING, XQ_SEVERITY_WARNING, "%s",
				      xqi_textdec_foreign_message(msg, sizeof(msg), m->enc, r->enc));
			g->encoding = xqi_encoding_name(m->enc);
			told = 1;
		}
	}
	if (more)
		xqi_format_report(r->sink, r->name, g->number, NULL, 0, 0, NULL, 0, XQI_D_ENCODING,
			      XQ_SEVERITY_ERROR, "and %llu more bytes of the record that are not text",
			      (unsigned long long)more);
	return broken;
}

/* At the end: one report for the bytes that were not text outside every record. */
static void report_outside(struct dh_reader *r)
{
	char msg[200];

	take_marks(r, NULL, 0, UINT64_MAX);
	if (r->outside == 0)
		return;
	if (r->first_outside.byte)
		snprintf(msg, sizeof(msg), "byte 0x%02X, not valid %s", r->first_outside.byte,
			 xqi_encoding_name(r->first_outside.enc));
	else
		snprintf(msg, sizeof(msg), "a NUL byte");
	xqi_format_report(r->sink, r->name, 0, &r->first_outside.place, 1, 0, NULL, 0, XQI_D_ENCODING,
		      XQ_SEVERITY_ERROR,
		      "%llu bytes outside the DhtmlXQ records are not text (the first, at offset "
		      "%llu, is %s); skipped",
		      (unsigned long long)r->outside,
		      (unsigned long long)r->first_outside.place.offset, msg);
	r->outside = 0;
}

/* Read the record s[0, len) into g. */
static int read_record(struct dh_reader *r, struct xqi_record *g, const char *s, size_t len,
		       struct dh_pos at, int exact, int implicit, size_t *consumed)
{
	int rc;

	xqi_record_clear(g);
	g->number = ++r->games;
	g->source = r->name;
	g->encoding = xqi_encoding_name(r->enc);
	g->place.line = at.line;
	g->place.col = at.col;
	g->place.offset = at.off;
	r->rec_at = at;
	r->exact = exact;
	rc = xqi_dh_split_elements(r, g->number, s, len, implicit, consumed);
	if (!rc)
		rc = xqi_dh_build_game(r, g);
	return rc;
}

/* URL-decoding (%hh, and %uhhhh as JavaScript's escape() writes, a
 * character beyond U+FFFF as its two surrogates). */
static int url_decode(struct xq_buf *out, const char *s, size_t len)
{
	int k;

	for (size_t i = 0; i < len;) {
		if (s[i] == '%' && i + 2 < len + 0 && xqi_hex_value((unsigned char)s[i + 1]) >= 0 &&
		    xqi_hex_value((unsigned char)s[i + 2]) >= 0) {
			if (xq_buf_addc(out, (char)(xqi_hex_value((unsigned char)s[i + 1]) * 16 +
						    xqi_hex_value((unsigned char)s[i + 2]))))
				return XQ_ENOMEM;
			i += 3;
			continue;
		}
		if ((k = xqi_dh_add_u_char(out, s + i, len - i, '%', 1)) < 0)
			return k;
		i += (size_t)k;
	}
	return 0;
}

/*
 * A URL-encoded record at text index `o` ("%5BDhtmlXQ..."): it runs to the
 * first character a URL cannot hold.  Places inside it are the place of
 * its start.  Returns 1 with the game, 2 when it is no record after all
 * (the reading goes on after it), or a negative code.
 */
static int read_urlencoded(struct dh_reader *r, struct xqi_record *g, size_t o)
{
	static const char stops[] = " \t\r\n\"'<>&";
	struct xq_buf dec = XQ_BUF_INIT;
	size_t end = o, consumed, cs, ce, skip;
	const char *s;
	int rc;

	xqi_dh_budget_start(r, 1);
	for (uint64_t was = xqi_dh_bytes_read(r) + (uint64_t)r->eof;;
	     XQI_ADVANCED(was, xqi_dh_bytes_read(r) + (uint64_t)r->eof)) {
		while (end < r->text.len && !strchr(stops, r->text.ptr[end]))
			end++;
		if (end < r->text.len || r->eof)
			break;
		rc = xqi_dh_fill(r);
		if (rc < 0)
			return rc;
	}
	rc = url_decode(&dec, r->text.ptr + o, end - o);
	if (!rc && xq_utf8_check(dec.ptr, dec.len) != dec.len) {
		xqi_dh_report_at(r, r->games + 1, &r->at, 0, NULL, 0, XQI_D_ENCODING, XQ_SEVERITY_ERROR,
			  "URL-encoded DhtmlXQ record whose bytes are not UTF-8; not read");
		xq_buf_release(&dec);
		xqi_dh_advance(r, end);
		return 2; /* no record: the reading goes on after it */
	}
	s = dec.ptr;
	/* Inside: a wrapped record, or bare elements. */
	cs = 0;
	ce = dec.len;
	skip = 0;
	if (!strncmp(s, "[DhtmlXQ]", 9))
		skip = 9;
	else if (!strncmp(s, "[DhtmlXQiFrame]", 15))
		skip = 15;
	if (skip) {
		cs = skip;
		ce = xqi_dh_find(s, dec.len, skip, skip == 9 ? "[/DhtmlXQ]" : "[/DhtmlXQiFrame]");
	}
	if (!rc)
		rc = read_record(r, g, s + cs, ce - cs, r->at, 0, 0, &consumed);
	if (take_marks(r, g, r->text_base + o, r->text_base + end) && !rc)
		g->flags |= XQI_RECORD_BROKEN;
	xq_buf_release(&dec);
	xqi_dh_advance(r, end);
	return rc ? rc : 1;
}

/*
 * The end of a wrapped record, searched for in the text from index `from`
 * on: 1 with *ce where its content ends and *after past its closing
 * wrapper ([/DhtmlXQ] or [/DhtmlXQiFrame]), or past nothing when the next
 * record's opening one comes first (*ce == *after); 0 when the text holds
 * neither.
 */
static int wrapped_end(const struct dh_reader *r, size_t from, size_t *ce, size_t *after)
{
	size_t h = from;

	while ((h = xqi_dh_find(r->text.ptr, r->text.len, h, "DhtmlXQ")) < r->text.len) {
		const char *t = r->text.ptr;
		size_t tail = h + 7, tl = 0;
		if (tail < r->text.len && t[tail] == ']')
			tl = 1;
		else if (r->text.len - tail >= 7 && !memcmp(t + tail, "iFrame]", 7))
			tl = 7;
		if (tl && h >= 2 && t[h - 2] == '[' && t[h - 1] == '/') {
			*ce = h - 2;
			*after = tail + tl;
			return 1;
		}
		if (tl && h >= 1 && t[h - 1] == '[') {
			*ce = *after = h - 1;
			return 1;
		}
		h++;
	}
	return 0;
}

/*
 * The wrapped record at the scanning position runs past the limit: said,
 * and skipped up to its end (searched for from text index `from` on), as
 * text that holds no record (XQI_SKIP_MAX more bytes at most).  Returns 1
 * with g the record, broken and empty, or a negative code when its end
 * does not come within that.
 */
static int skip_wrapped(struct dh_reader *r, struct xqi_record *g, size_t from)
{
	size_t ce, after;
	struct xq_diagnostic d;
	int rc;

	xqi_record_clear(g);
	g->number = ++r->games;
	g->source = r->name;
	g->encoding = xqi_encoding_name(r->enc);
	g->place.line = r->at.line;
	g->place.col = r->at.col;
	g->place.offset = r->at.off;
	g->flags |= XQI_RECORD_BROKEN;
	xqi_diagnostic_init(&d);
	xqi_format_limit_diag_then(&d, r->fmt, &r->opts, "a DhtmlXQ record",
				  "it is skipped up to its end and reading goes on after it");
	xqi_dh_report_at(r, g->number, &r->at, 0, NULL, 0, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "%s", d.msg);
	xqi_dh_budget_start(r, 0);
	/* Every round drops the text searched, or meets the end. */
	for (uint64_t was = xqi_dh_bytes_read(r) + (uint64_t)r->eof;;
	     XQI_ADVANCED(was, xqi_dh_bytes_read(r) + (uint64_t)r->eof)) {
		if (wrapped_end(r, from, &ce, &after))
			break;
		if (r->eof) {
			after = r->text.len;
			break;
		}
		/* (but for the end of a wrapper cut at the end of the text) */
		if (r->text.len > r->pos + 16)
			xqi_dh_advance(r, r->text.len - 16);
		xqi_dh_compact(r);
		from = r->pos;
		rc = xqi_dh_fill(r);
		if (rc < 0)
			return rc;
	}
	xqi_dh_advance(r, after);
	return 1;
}

/* Read the wrapped record whose content starts at text index `cs`. */
static int read_wrapped(struct dh_reader *r, struct xqi_record *g, size_t o, size_t cs)
{
	size_t ce, after, consumed, from = cs;
	struct dh_pos at;
	int rc, found;

	/* Find the end: a closing wrapper, or a new record's opening one. */
	xqi_dh_budget_start(r, 1);
	for (uint64_t was = xqi_dh_bytes_read(r) + (uint64_t)r->eof;;
	     XQI_ADVANCED(was, xqi_dh_bytes_read(r) + (uint64_t)r->eof)) {
		found = wrapped_end(r, from, &ce, &after);
		if (found || r->eof)
			break;
		/* Past the limit (or about to read past it): the record is skipped. */
		if (r->text.len - o > MAX_RECORD || xqi_dh_bytes_read(r) - r->budget_from > r->budget)
			return skip_wrapped(r, g, r->text.len > cs + 16 ? r->text.len - 16 : cs);
		/* Search the new text only (with room for a tag cut at the end). */
		if (r->text.len > cs + 16)
			from = r->text.len - 16;
		rc = xqi_dh_fill(r);
		if (rc < 0)
			return rc;
	}
	if (found && ce - o > MAX_RECORD)
		return skip_wrapped(r, g, ce);
	if (!found) {
		ce = after = r->text.len;
		xqi_dh_report_at(r, r->games + 1, &r->at, 0, NULL, 0, XQI_D_TRUNCATED, XQ_SEVERITY_WARNING,
			  "record without its closing [/DhtmlXQ]: read to the end of the input");
	} else if (ce == after) {
		xqi_dh_report_at(r, r->games + 1, &r->at, 0, NULL, 0, XQI_D_TRUNCATED, XQ_SEVERITY_WARNING,
			  "record without its closing [/DhtmlXQ]: read up to the next record");
	}
	at = r->at;
	xqi_dh_pos_advance(&at, r->text.ptr + o, cs - o);
	rc = read_record(r, g, r->text.ptr + cs, ce - cs, at, 1, 0, &consumed);
	if (take_marks(r, g, r->text_base + o, r->text_base + after) && !rc)
		g->flags |= XQI_RECORD_BROKEN;
	g->place.line = r->at.line; /* the record starts at its wrapper */
	g->place.col = r->at.col;
	g->place.offset = r->at.off;
	xqi_dh_advance(r, after);
	return rc ? rc : 1;
}

/* Read the record of bare elements that starts at text index `o`: 1 with
 * the game, 2 when it is no record after all, or a negative code. */
static int read_implicit(struct dh_reader *r, struct xqi_record *g, size_t o)
{
	size_t consumed, span;
	int rc;

	/* Where it ends: split quietly, and read on while it runs to the end of
	 * the text (at least doubling the text each time, so that a long record
	 * is split a few times, not once a block). */
	xqi_dh_budget_start(r, 1);
	for (uint64_t was = xqi_dh_bytes_read(r) + (uint64_t)r->eof;;
	     XQI_ADVANCED(was, xqi_dh_bytes_read(r) + (uint64_t)r->eof)) {
		size_t want;
		r->quiet = 1;
		r->exact = 0;
		rc = xqi_dh_split_elements(r, 0, r->text.ptr + o, r->text.len - o, 1, &span);
		r->quiet = 0;
		if (rc)
			return rc;
		if (o + span < r->text.len || r->eof)
			break;
		want = r->text.len + (r->text.len - o);
		do
			rc = xqi_dh_fill(r);
		while (rc > 0 && r->text.len < want);
		if (rc < 0)
			return rc;
	}
	if (span == 0) {
		/* "[DhtmlXQ_" opens no element (cut short, or no name): no record. */
		xqi_dh_report_at(r, 0, &r->at, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_WARNING,
			  "'[DhtmlXQ_' that opens no element; not interpreted");
		xqi_dh_advance(r, o + 9);
		return 2;
	}
	if (span > MAX_RECORD)
		return xqi_dh_over_limit(r);
	rc = read_record(r, g, r->text.ptr + o, span, r->at, 1, 1, &consumed);
	if (!consumed)
		consumed = span;
	if (take_marks(r, g, r->text_base + o, r->text_base + o + consumed) && !rc)
		g->flags |= XQI_RECORD_BROKEN;
	xqi_dh_advance(r, o + consumed);
	return rc ? rc : 1;
}

/* How far the scanning has gone: the position, the bytes read, the end. */
static uint64_t scan_progress(const struct dh_reader *r)
{
	return r->text_base + r->pos + xqi_dh_bytes_read(r) + (uint64_t)r->eof;
}

/* The next record (1), the end (0) or an error (negative). */
static int next_record(struct dh_reader *r, struct xqi_record *g)
{
	xqi_dh_budget_start(r, 0);
	for (uint64_t was = scan_progress(r);; XQI_ADVANCED(was, scan_progress(r))) {
		size_t h, o;
		const char *t;
		int rc;
		/* What was scanned past holds no record: its marks are counted. */
		take_marks(r, NULL, 0, r->text_base + r->pos);
		xqi_dh_compact(r);
		if (r->text.len - r->pos < 32 && !r->eof) {
			rc = xqi_dh_fill(r);
			if (rc < 0)
				return rc;
			continue;
		}
		h = xqi_dh_find(r->text.ptr, r->text.len, r->pos, "tmlXQ");
		if (h == r->text.len) {
			/* Keep a tail that could start a tag cut by the buffer's end. */
			size_t keep = r->eof ? r->text.len : (r->text.len > r->pos + 16 ? r->text.len - 16 : r->pos);
			xqi_dh_scan_html(r, r->text.ptr + r->pos, keep - r->pos);
			xqi_dh_advance(r, keep);
			if (r->eof) {
				if (r->games == 0)
					xqi_dh_report_at(r, 0, NULL, 0, NULL, 0, XQI_D_EMPTY_GAME,
						  XQ_SEVERITY_WARNING, "no DhtmlXQ record in the input");
				return 0;
			}
			rc = xqi_dh_fill(r);
			if (rc < 0)
				return rc;
			continue;
		}
		/* Make sure the tag around the hit is in the buffer. */
		if (h + 24 > r->text.len && !r->eof) {
			rc = xqi_dh_fill(r);
			if (rc < 0)
				return rc;
			continue;
		}
		t = r->text.ptr;
		if (h >= 2 && t[h - 2] == 'D' && t[h - 1] == 'h') {
			o = h - 2;
		} else if (h >= 5 && !memcmp(t + h - 5, "[DHJH", 5)) {
			if (!r->dialect_noted) {
				xqi_dh_advance(r, h - 5);
				xqi_dh_report_at(r, r->games + 1, &r->at, 0, NULL, 0, XQI_D_UNSUPPORTED,
					  XQ_SEVERITY_WARNING,
					  "DHJHtmlXQ (打虎将) records are a different dialect; not read");
				r->dialect_noted = 1;
			}
			xqi_dh_advance(r, h + 5);
			continue;
		} else {
			xqi_dh_advance(r, h + 5);
			continue;
		}
		xqi_dh_scan_html(r, t + r->pos, o > r->pos ? o - r->pos : 0);
		/* A tag starts at or after the scanning position: what is before
		 * it was read already. */
		if (o >= r->pos + 1 && t[o - 1] == '[') {
			size_t tail = o + 7;
			xqi_dh_advance(r, o - 1);
			if (tail < r->text.len && t[tail] == ']')
				return read_wrapped(r, g, o - 1, tail + 1);
			if (r->text.len - tail >= 7 && !memcmp(t + tail, "iFrame]", 7))
				return read_wrapped(r, g, o - 1, tail + 7);
			if (tail < r->text.len && t[tail] == '_') {
				rc = read_implicit(r, g, o - 1);
				if (rc != 2)
					return rc;
				continue; /* not a record after all */
			}
		} else if (o >= r->pos + 3 && t[o - 3] == '%' && t[o - 2] == '5' &&
			   (t[o - 1] == 'B' || t[o - 1] == 'b')) {
			xqi_dh_advance(r, o - 3);
			r->html = 1;
			rc = read_urlencoded(r, g, o - 3);
			if (rc != 2)
				return rc;
			continue;
		}
		xqi_dh_advance(r, o + 7);
	}
}

int xqi_dh_read(void *reader, struct xqi_record *g)
{
	struct dh_reader *r = reader;
	int rc;

	if (r->error)
		return r->error;
	rc = next_record(r, g);
	if (rc <= 0)
		report_outside(r);
	return xqi_read_guard(&r->guard, rc, r->text_base + r->pos, g, r->sink);
}

int xqi_dh_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
			  const struct xqi_sink *sink, const struct xqi_format *fmt)
{
	struct dh_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return XQ_ENOMEM;
	r->in = in;
	r->sink = sink;
	r->fmt = fmt;
	r->name = xqi_input_name(in);
	if (opts)
		r->opts = *opts;
	r->max_record = (size_t)xqi_format_record_limit(fmt, opts);
	r->at.line = 1;
	r->at.col = 1;
	r->exact_end = UINT64_MAX;
	r->mark_abs = UINT64_MAX;
	xqi_dh_budget_start(r, 0);
	xq_buf_init(&r->raw);
	xq_buf_init(&r->text);
	xq_buf_init(&r->tmp);
	xq_buf_init(&r->tmp2);
	if (opts && opts->encoding != XQI_ENC_UNKNOWN) {
		r->enc = opts->encoding;
		r->enc_known = 1;
		r->enc_given = 1;
		r->offsets = r->enc == XQI_ENC_UTF8;
	}
	*out = r;
	return 0;
}

void xqi_dh_close_reader(void *reader)
{
	struct dh_reader *r = reader;

	if (r->td_live)
		xqi_textdec_release(&r->td);
	free(r->foreign);
	xq_buf_release(&r->raw);
	xq_buf_release(&r->text);
	xq_buf_release(&r->tmp);
	xq_buf_release(&r->tmp2);
	free(r->elems);
	free(r->br);
	free(r->order);
	free(r->bnodes);
	free(r->ckpt);
	free(r->cuts);
	free(r);
}
