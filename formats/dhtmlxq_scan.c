/*
 * dhtmlxq_scan.c: DhtmlXQ reading: the window over the input, decoding
 * and finding elements (see
 * dhtmlxq.c for the format, dhtmlxq_int.h for what the parts share).
 */
#include "dhtmlxq_int.h"

/* The record at r->at is longer than the limit: said, and reading stops. */
int xqi_dh_over_limit(struct dh_reader *r)
{
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	xqi_format_limit_diag(&d, r->fmt, &r->opts, "a DhtmlXQ record");
	xqi_dh_report_at(r, r->games + 1, &r->at, 0, NULL, 0, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
		  "%s; the rest of the input is not read", d.msg);
	return XQ_ERANGE;
}

int xqi_dh_result_word(const char *s, size_t len, int first, enum xqi_result *out)
{
	for (size_t i = 0; i < xqi_dh_nresults; i++)
		if (strlen(xqi_dh_results[i].word) == len && !memcmp(xqi_dh_results[i].word, s, len)) {
			*out = xqi_dh_results[i].r;
			return 0;
		}
	return xqi_result_word(s, len, first, out) < 0 ? -1 : 0;
}

int xqi_dh_name_is(const char *name, size_t len, const char *lit)
{
	return strlen(lit) == len && !memcmp(name, lit, len);
}

/* Search `pat` in s[from, len); len if absent. */
size_t xqi_dh_find(const char *s, size_t len, size_t from, const char *pat)
{
	size_t n = strlen(pat);

	while (from + n <= len) {
		const char *p = memchr(s + from, pat[0], len - from - n + 1);
		if (!p)
			break;
		if (!memcmp(p, pat, n))
			return (size_t)(p - s);
		from = (size_t)(p - s) + 1;
	}
	return len;
}

void xqi_dh_pos_advance(struct dh_pos *p, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n') {
			p->line++;
			p->col = 1;
		} else if ((c & 0xC0) != 0x80) {
			p->col++;
		}
	}
	p->off += n;
}

/* Diagnostics. */

void xqi_dh_report_at(struct dh_reader *r, uint64_t game, const struct dh_pos *p, uint32_t ply,
		      const char *move, size_t mlen, enum xqi_diagnostic_code code, enum xq_severity_level sev,
		      const char *fmt, ...)
{
	struct xqi_place pl = {0, 0, 0};
	va_list ap;

	if (r->quiet)
		return;
	if (p) {
		pl.line = p->line;
		pl.col = p->col;
		pl.offset = p->off;
	}
	va_start(ap, fmt);
	/* Offsets only while the text is the source's bytes (UTF-8, before
	 * a line converted from another encoding or a byte taken out). */
	xqi_format_vreport(r->sink, r->name, game, p ? &pl : NULL,
		       p && r->offsets && p->off - r->bom < r->exact_end, ply, move, mlen,
		       code, sev, fmt, ap);
	va_end(ap);
}

/* The place of `val + k` inside element value `e` (the record's start when
 * places inside it are not exact). */
struct dh_pos xqi_dh_place_in(const struct dh_reader *r, const struct dh_elem *e, size_t k)
{
	struct dh_pos p = r->exact ? e->at : r->rec_at;

	if (r->exact)
		xqi_dh_pos_advance(&p, e->val, k);
	return p;
}

/* Up to EXCERPT characters of s, for messages. */
int xqi_dh_excerpt_len(const char *s, size_t len)
{
	size_t i = 0, chars = 0;

	while (i < len && chars < EXCERPT) {
		size_t n = xq_utf8_valid_prefix(s + i, len - i);
		i += n ? n : 1;
		chars++;
	}
	return (int)i;
}

/* The input stream. */

/* Keep an event of the decoder at text offset `at` (absolute, after the
 * bytes taken out) for the record holding it. */
static int keep_mark(struct dh_reader *r, const struct xqi_textdec_event *e, uint64_t at,
		     size_t from_pos)
{
	struct dh_mark *m;
	struct dh_pos p = r->at;
	size_t from = r->pos;

	if (e->kind != XQI_TEXTDEC_BAD && r->nforeign > r->foreign_first &&
	    r->foreign[r->nforeign - 1].kind == e->kind &&
	    r->foreign[r->nforeign - 1].enc == e->enc)
		return 0; /* only the first of a run is reported */
	if (e->kind == XQI_TEXTDEC_BAD && r->nforeign > r->foreign_first &&
	    r->foreign[r->nforeign - 1].kind == XQI_TEXTDEC_BAD &&
	    r->foreign[r->nforeign - 1].at == at) {
		r->foreign[r->nforeign - 1].count++; /* bytes in a row (/dev/zero): one mark */
		return 0;
	}
	if (r->foreign_first == r->nforeign)
		r->foreign_first = r->nforeign = 0;
	if (XQ_ALLOC_GROW(r->foreign, r->nforeign + 1, r->foreign_cap))
		return XQ_ENOMEM;
	m = r->foreign + r->nforeign++;
	/* The place counts on from the last mark's (from the scanning position
	 * for each mark, it was quadratic in the bytes that are not text). */
	if (r->mark_abs != UINT64_MAX && r->mark_abs >= r->text_base + r->pos &&
	    r->mark_abs <= r->text_base + from_pos) {
		p = r->mark_at;
		from = (size_t)(r->mark_abs - r->text_base);
	}
	xqi_dh_pos_advance(&p, r->text.ptr + from, from_pos - from);
	r->mark_abs = r->text_base + from_pos;
	r->mark_at = p;
	m->at = at;
	m->place.line = p.line;
	m->place.col = p.col;
	m->place.offset = e->raw;
	m->enc = e->enc;
	m->kind = e->kind;
	m->byte = e->byte;
	m->count = 1;
	m->repaired = 0;
	return 0;
}

/*
 * The decoder's events for the text appended from index `from` on: a byte
 * that is not text (or a NUL) is taken out of the text (its record is
 * marked broken); it and each line read in another encoding are kept, with
 * their places, to be reported with the record holding them.
 */
static int take_events(struct dh_reader *r, size_t from)
{
	struct xqi_textdec *d = &r->td;
	size_t j = from, i = from;
	uint64_t dropped = r->dropped; /* before this text: its bytes are where the decoder put them */

	while (d->ev_first < d->nevents) {
		const struct xqi_textdec_event *e = &d->events[d->ev_first++];
		size_t at = (size_t)(e->dpos - dropped - r->text_base);
		/* Keep the text up to the event (where it will be once the bytes
		 * before it are out). */
		memmove(r->text.ptr + j, r->text.ptr + i, at - i);
		j += at - i;
		i = at;
		if (keep_mark(r, e, r->text_base + j, j))
			return XQ_ENOMEM;
		if (e->kind != XQI_TEXTDEC_AMBIGUOUS && r->exact_end > r->text_base + j)
			r->exact_end = r->text_base + j;
		if (e->kind != XQI_TEXTDEC_BAD)
			continue;
		/* Leave the byte out (its mark says where it stood). */
		i++;
		r->dropped++;
	}
	if (i > j) {
		memmove(r->text.ptr + j, r->text.ptr + i, r->text.len - i);
		xq_buf_truncate(&r->text, r->text.len - (i - j));
	}
	return 0;
}

/* Decode what `raw` holds into text (whole lines, all of it at the end). */
static int decode_raw(struct dh_reader *r)
{
	size_t from = r->text.len;
	long used;

	if (!r->td_live) {
		unsigned flags = XQI_TEXTDEC_COPY | XQI_TEXTDEC_BAD_EVENTS;
		if (!r->enc_given)
			flags |= XQI_TEXTDEC_MIXED;
		if (xqi_textdec_init(&r->td, r->enc, flags, r->text_base + r->text.len, r->raw_off)) {
			xqi_dh_report_at(r, 0, NULL, 0, NULL, 0, XQI_D_ENCODING, XQ_SEVERITY_ERROR,
				  "this system cannot convert %s", xqi_encoding_name(r->enc));
			return XQ_EUNSUPPORTED;
		}
		r->td_live = 1;
	}
	used = xqi_textdec_feed(&r->td, r->raw.ptr, r->raw.len, r->input_done, &r->text);
	if (used < 0)
		return (int)used;
	if (take_events(r, from))
		return XQ_ENOMEM;
	memmove(r->raw.ptr, r->raw.ptr + used, r->raw.len - (size_t)used);
	xq_buf_truncate(&r->raw, r->raw.len - (size_t)used);
	r->raw_off += (uint64_t)used;
	return 0;
}


/* Bytes read from the input so far. */
uint64_t xqi_dh_bytes_read(const struct dh_reader *r)
{
	return r->raw_off + r->raw.len;
}

/*
 * Start a task: finding the next record (`record` 0), which may read
 * XQI_SKIP_MAX more bytes, or reading the record that starts at the
 * scanning position, which may read the format's record limit.
 */
void xqi_dh_budget_start(struct dh_reader *r, int record)
{
	r->budget_from = xqi_dh_bytes_read(r);
	r->budget = record ? (uint64_t)r->max_record : XQI_SKIP_MAX;
	r->in_record = record;
	r->budget_at = r->at;
}


/* The task read more than its budget: the rest of the input is not read. */
static int over_budget(struct dh_reader *r)
{
	if (r->in_record)
		return r->error = xqi_dh_over_limit(r);
	xqi_dh_report_at(r, 0, &r->budget_at, 0, NULL, 0, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
		  "more than %llu MiB of input from here hold no DhtmlXQ record; the rest "
		  "of the input is not read",
		  (unsigned long long)(XQI_SKIP_MAX >> 20));
	return r->error = XQ_ERANGE;
}

/*
 * Read and decode more of the input: 1 when bytes were taken (the text
 * may not have grown: bytes that are not text are dropped, and only whole
 * lines are decoded), 0 at the end (r->eof), or a negative code.  A task
 * that reads past its budget gets XQ_ERANGE (reported).
 */
int xqi_dh_fill(struct dh_reader *r)
{
	if (r->eof)
		return 0;
	if (xqi_dh_bytes_read(r) - r->budget_from > r->budget)
		return over_budget(r);
	/* Every round reads bytes, or meets the end of the input. */
	for (uint64_t was = xqi_dh_bytes_read(r) + (uint64_t)r->input_done;;
	     XQI_ADVANCED(was, xqi_dh_bytes_read(r) + (uint64_t)r->input_done)) {
		int rc;
		if (!r->input_done) {
			struct xq_diagnostic d;
			long got;
			if (xq_buf_grow(&r->raw, CHUNK))
				return XQ_ENOMEM;
			xqi_diagnostic_init(&d);
			got = xqi_input_read(r->in, r->raw.ptr + r->raw.len, CHUNK, &d);
			if (got < 0) {
				d.source = r->name;
				xqi_sink_report(r->sink, &d);
				return r->error = (int)got;
			}
			if (got == 0)
				r->input_done = 1;
			r->raw.len += (size_t)got;
			r->raw.ptr[r->raw.len] = '\0';
			if (!r->enc_known && (r->raw.len >= CHUNK || r->input_done)) {
				size_t bom = 0;
				r->enc = xqi_encoding_detect(r->raw.ptr, r->raw.len, &bom);
				if (!bom)
					r->enc = xqi_textdec_detect(r->raw.ptr, r->raw.len);
				r->enc_known = 1;
				r->offsets = r->enc == XQI_ENC_UTF8;
				r->at.off = bom;
				r->raw_off = bom;
				r->bom = bom;
				memmove(r->raw.ptr, r->raw.ptr + bom, r->raw.len - bom);
				xq_buf_truncate(&r->raw, r->raw.len - bom);
			}
			if (!r->enc_known)
				continue;
		}
		rc = decode_raw(r);
		if (rc)
			return r->error = rc;
		if (r->input_done && r->raw.len == 0)
			r->eof = 1;
		return !r->eof;
	}
}

/* Move the scanning position to text index `to`, keeping the place. */
void xqi_dh_advance(struct dh_reader *r, size_t to)
{
	if (to <= r->pos)
		return;
	xqi_dh_pos_advance(&r->at, r->text.ptr + r->pos, to - r->pos);
	r->pos = to;
}

/* Forget the text before the scanning position. */
void xqi_dh_compact(struct dh_reader *r)
{
	if (r->pos < CHUNK)
		return;
	memmove(r->text.ptr, r->text.ptr + r->pos, r->text.len - r->pos);
	xq_buf_truncate(&r->text, r->text.len - r->pos);
	r->text_base += r->pos;
	r->pos = 0;
}

/* Does s[0, len) look like HTML markup ("<p", "</div", "<!--")? */
void xqi_dh_scan_html(struct dh_reader *r, const char *s, size_t len)
{
	for (size_t i = 0; !r->html && i + 1 < len; i++)
		if (s[i] == '<' && (xq_is_alpha((unsigned char)s[i + 1]) || s[i + 1] == '/' ||
				    s[i + 1] == '!'))
			r->html = 1;
}

/* Text decoding of values. */

int xqi_dh_add_cp(struct xq_buf *b, uint32_t cp)
{
	char u[4];
	size_t n = xq_utf8_encode(cp, u);

	return n ? xq_buf_add(b, u, n) : -1;
}

static int is_u_escape(const char *s, size_t n, char esc, int any_case)
{
	return n >= 6 && s[0] == esc && (s[1] == 'u' || (any_case && s[1] == 'U'));
}

int xqi_dh_add_u_char(struct xq_buf *out, const char *s, size_t n, char esc, int any_case)
{
	long cp = is_u_escape(s, n, esc, any_case) ? xqi_hex4(s + 2) : -1, lo;

	if (cp >= 0xD800 && cp <= 0xDBFF && is_u_escape(s + 6, n - 6, esc, any_case) &&
	    (lo = xqi_hex4(s + 8)) >= 0xDC00 && lo <= 0xDFFF) {
		cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
		return xqi_dh_add_cp(out, (uint32_t)cp) ? XQ_ENOMEM : 12;
	}
	if (cp >= 0 && xqi_dh_add_cp(out, (uint32_t)cp) == 0)
		return 6;
	return xq_buf_addc(out, s[0]) ? XQ_ENOMEM : 1;
}

/*
 * Append `s` to `out` with HTML character references decoded and <br> as
 * a newline.  *unknown counts references and tags left as written.
 */
static int html_decode(struct xq_buf *out, const char *s, size_t len, int *unknown)
{
	static const struct {
		const char *name;
		uint32_t cp;
	} named[] = {{"amp", '&'},      {"lt", '<'},       {"gt", '>'},
		     {"quot", '"'},     {"apos", '\''},    {"nbsp", 0xA0},
		     {"ldquo", 0x201C}, {"rdquo", 0x201D}, {"middot", 0xB7}};

	for (size_t i = 0; i < len;) {
		if (s[i] == '&') {
			size_t semi = i + 1;
			while (semi < len && semi - i <= 10 && s[semi] != ';')
				semi++;
			if (semi < len && s[semi] == ';') {
				const char *e = s + i + 1;
				size_t elen = semi - i - 1;
				uint32_t cp = 0;
				int ok = 0;
				if (elen >= 2 && e[0] == '#') {
					int hex = e[1] == 'x' || e[1] == 'X';
					size_t k = hex ? 2 : 1;
					ok = k < elen;
					for (; ok && k < elen; k++) {
						int v = hex ? xqi_hex_value((unsigned char)e[k])
							    : (xq_is_digit((unsigned char)e[k]) ? e[k] - '0' : -1);
						ok = v >= 0 && cp < 0x110000;
						cp = cp * (hex ? 16 : 10) + (uint32_t)(v < 0 ? 0 : v);
					}
				} else {
					for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
						if (xqi_dh_name_is(e, elen, named[k].name)) {
							cp = named[k].cp;
							ok = 1;
						}
				}
				if (ok && xqi_dh_add_cp(out, cp) == 0) {
					i = semi + 1;
					continue;
				}
				if (ok)
					return XQ_ENOMEM;
				(*unknown)++;
			}
		} else if (s[i] == '<') {
			size_t k = i + 1;
			if (k < len && (s[k] == 'b' || s[k] == 'B') && k + 1 < len &&
			    (s[k + 1] == 'r' || s[k + 1] == 'R')) {
				size_t end = k + 2;
				while (end < len && (s[end] == ' ' || s[end] == '/'))
					end++;
				if (end < len && s[end] == '>') {
					if (xq_buf_addc(out, '\n'))
						return XQ_ENOMEM;
					i = end + 1;
					continue;
				}
			}
			if (k < len && (xq_is_alpha((unsigned char)s[k]) || s[k] == '/'))
				(*unknown)++;
		}
		if (xq_buf_addc(out, s[i]))
			return XQ_ENOMEM;
		i++;
	}
	return 0;
}

/* Comments: "||" is a newline, \uhhhh a character, CRLF a newline. */
static int comment_decode(struct xq_buf *out, const char *s, size_t len)
{
	int k;

	for (size_t i = 0; i < len;) {
		if (s[i] == '|' && i + 1 < len && s[i + 1] == '|') {
			if (xq_buf_addc(out, '\n'))
				return XQ_ENOMEM;
			i += 2;
			continue;
		}
		if (s[i] == '\r' && i + 1 < len && s[i + 1] == '\n') {
			i++;
			continue;
		}
		if ((k = xqi_dh_add_u_char(out, s + i, len - i, '\\', 0)) < 0)
			return k;
		i += (size_t)k;
	}
	return 0;
}

/* The text `s` (`len` bytes) of value `e`, decoded as the record's
 * setting says, in r->tmp. */
static int value_text(struct dh_reader *r, uint64_t game, const struct dh_elem *e, const char *s,
		      size_t len, int comment)
{
	struct xq_buf *out = &r->tmp;
	int unknown = 0, rc;

	if (r->html) {
		xq_buf_reset(&r->tmp2);
		rc = html_decode(&r->tmp2, s, len, &unknown);
		if (rc)
			return rc;
		if (unknown) {
			struct dh_pos p = xqi_dh_place_in(r, e, 0);
			xqi_dh_report_at(r, game, &p, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_NOTE,
				  "[DhtmlXQ_%.*s]: %d HTML references or tags not understood; kept as "
				  "written",
				  (int)e->nlen, e->name, unknown);
		}
		s = r->tmp2.ptr;
		len = r->tmp2.len;
	}
	if (comment)
		return comment_decode(out, s, len);
	return xq_buf_add(out, s, len) ? XQ_ENOMEM : 0;
}

/*
 * The value of `e` in `fixed` with U+FFFD where each byte that was not
 * text stood (the decoder took them out of the text and marked their
 * places), each such mark taken as repaired, and said once: 1 when there
 * were some, 0 when none (`fixed` is not used), or XQ_ENOMEM.  The bytes
 * stay in the value that held them: the record is not broken by them.
 */
static int repair_value(struct dh_reader *r, uint64_t game, const struct dh_elem *e,
			struct xq_buf *fixed)
{
	uint64_t a, b, n = 0;
	size_t lo = r->foreign_first, hi = r->nforeign, from;
	const struct dh_mark *first = NULL;
	char what[64], msg[256];

	if (e->val < r->text.ptr || e->val > r->text.ptr + r->text.len || lo == hi)
		return 0; /* a value of a URL-encoded record: not in the text */
	a = r->text_base + (uint64_t)(e->val - r->text.ptr);
	b = a + e->vlen;
	/* The marks are in the order of the text: the first at or after a. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->foreign[mid].at < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	from = 0;
	for (size_t i = lo; i < r->nforeign && r->foreign[i].at <= b; i++) {
		struct dh_mark *m = &r->foreign[i];
		size_t at = (size_t)(m->at - a);
		if (m->kind != XQI_TEXTDEC_BAD || m->repaired)
			continue;
		if (xq_buf_add(fixed, e->val + from, at - from))
			return XQ_ENOMEM;
		for (uint64_t k = 0; k < m->count; k++)
			if (xq_buf_add(fixed, "\xEF\xBF\xBD", 3))
				return XQ_ENOMEM;
		from = at;
		m->repaired = 1;
		n += m->count;
		if (!first)
			first = m;
	}
	if (!first)
		return 0;
	if (xq_buf_add(fixed, e->val + from, e->vlen - from))
		return XQ_ENOMEM;
	snprintf(what, sizeof(what), "[DhtmlXQ_%.*s]", e->nlen > 40 ? 40 : (int)e->nlen, e->name);
	xqi_textdec_repaired_message(msg, sizeof(msg), what, first->byte,
				    xqi_encoding_name(first->enc), first->place.offset, (long)n);
	if (!r->quiet)
		xqi_format_report(r->sink, r->name, game, &first->place, 1, 0, NULL, 0, XQI_D_ENCODING,
				 XQ_SEVERITY_WARNING, "%s", msg);
	return 1;
}

int xqi_dh_value_text(struct dh_reader *r, uint64_t game, const struct dh_elem *e, int comment)
{
	struct xq_buf fixed = XQ_BUF_INIT;
	const char *s = e->val;
	size_t len = e->vlen;
	int rc;

	xq_buf_reset(&r->tmp);
	rc = repair_value(r, game, e, &fixed);
	if (rc < 0) {
		xq_buf_release(&fixed);
		return rc;
	}
	if (rc) {
		s = fixed.ptr;
		len = fixed.len;
	}
	rc = value_text(r, game, e, s, len, comment);
	xq_buf_release(&fixed);
	return rc;
}


/* Elements of one record. */

static int push_elem(struct dh_reader *r, const struct dh_elem *e)
{
	if (XQ_ALLOC_GROW(r->elems, r->nelems + 1, r->elems_cap))
		return XQ_ENOMEM;
	r->elems[r->nelems++] = *e;
	return 0;
}

int xqi_dh_name_char(int c)
{
	return xq_is_alpha(c) || xq_is_digit(c) || c == '_';
}

/* Is s[0, len) only space and HTML tags (which lay out a page and carry no record data)? */
static int ignorable(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (xq_is_space((unsigned char)s[i]))
			continue;
		if (s[i] == '<' && i + 1 < len &&
		    (xq_is_alpha((unsigned char)s[i + 1]) || s[i + 1] == '/' || s[i + 1] == '!')) {
			const char *gt = memchr(s + i, '>', len - i);
			if (!gt)
				return 0;
			i = (size_t)(gt - s);
			continue;
		}
		if (len - i >= 6 && !memcmp(s + i, "&nbsp;", 6)) {
			i += 5;
			continue;
		}
		return 0;
	}
	return 1;
}

/*
 * Split s[0, len) into elements (r->elems).  In a wrapped record, text
 * between elements is reported; an implicit record (no wrapper) ends at
 * such text, or where a second movelist or binit starts.  *consumed gets
 * the length read.
 */
int xqi_dh_split_elements(struct dh_reader *r, uint64_t game, const char *s, size_t len,
			  int implicit, size_t *consumed)
{
	struct dh_pos cur = r->rec_at, tag;
	size_t ci = 0, i = 0;
	int seen_moves = 0, seen_binit = 0;

/* Places only move forward. */
#define MOVE_TO(k)                                                   \
	do {                                                         \
		if ((k) > ci) {                                      \
			if (r->exact)                                \
				xqi_dh_pos_advance(&cur, s + ci, (k) - ci); \
			ci = (k);                                    \
		}                                                    \
	} while (0)

	r->nelems = 0;
	while (i < len) {
		size_t j = xqi_dh_find(s, len, i, "[DhtmlXQ_"), k, v, e1, e2;
		struct dh_elem e;
		if (j > i && !ignorable(s + i, j - i)) {
			if (implicit)
				break;
			MOVE_TO(i);
			xqi_dh_report_at(r, game, &cur, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_WARNING,
				  "text between DhtmlXQ elements not interpreted: '%.*s'",
				  xqi_dh_excerpt_len(s + i, j - i), s + i);
		}
		if (j == len) {
			i = len;
			break;
		}
		for (k = j + 9; k < len && xqi_dh_name_char((unsigned char)s[k]); k++)
			;
		if (k == len || s[k] != ']' || k == j + 9) {
			if (implicit) {
				i = j;
				break;
			}
			MOVE_TO(j);
			xqi_dh_report_at(r, game, &cur, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_WARNING,
				  "'[DhtmlXQ_' that opens no element; not interpreted");
			i = j + 9;
			continue;
		}
		e.name = s + j + 9;
		e.nlen = k - j - 9;
		if (implicit && ((xqi_dh_name_is(e.name, e.nlen, "movelist") && seen_moves++) ||
				 (xqi_dh_name_is(e.name, e.nlen, "binit") && seen_binit++))) {
			i = j;
			break;
		}
		v = k + 1;
		e1 = xqi_dh_find(s, len, v, "[/DhtmlXQ");
		e2 = xqi_dh_find(s, len, v, "[DhtmlXQ_");
		e.val = s + v;
		MOVE_TO(j);
		tag = cur;
		MOVE_TO(v);
		e.at = cur;
		if (e2 < e1 || e1 == len) {
			size_t stop = e2 < e1 ? e2 : len;
			e.vlen = stop - v;
			xqi_dh_report_at(r, game, &tag, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_WARNING,
				  "[DhtmlXQ_%.*s] has no closing tag; its value runs to %s",
				  (int)e.nlen, e.name, stop == len ? "the end of the record" : "the next element");
			i = stop;
		} else {
			size_t c = e1 + 9, close;
			e.vlen = e1 - v;
			for (close = c; close < len && xqi_dh_name_char((unsigned char)s[close]); close++)
				;
			if (close == len || s[close] != ']') {
				MOVE_TO(e1);
				xqi_dh_report_at(r, game, &cur, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_WARNING,
					  "malformed closing tag of [DhtmlXQ_%.*s]", (int)e.nlen, e.name);
				i = e1 + 9;
			} else {
				const char *cn = s + c + 1;
				size_t cl = close > c ? close - c - 1 : 0;
				/* CCBridge closes blacktime and redtime with [/DhtmlXQ_time]. */
				if (!(s[c] == '_' && (xqi_dh_name_is(cn, cl, "time") ||
						      (cl == e.nlen && !memcmp(cn, e.name, cl))))) {
					MOVE_TO(e1);
					xqi_dh_report_at(r, game, &cur, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_NOTE,
						  "[DhtmlXQ_%.*s] is closed by [/DhtmlXQ%.*s]",
						  (int)e.nlen, e.name, (int)(close - c), s + c);
				}
				i = close + 1;
			}
		}
		if (push_elem(r, &e))
			return XQ_ENOMEM;
	}
#undef MOVE_TO
	*consumed = i;
	return 0;
}

/* Building the game. */

static int parse_uint(const char *s, size_t len, uint32_t *out)
{
	uint32_t v = 0;

	if (len == 0 || len > 9)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!xq_is_digit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (uint32_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

/* "P_S_B" (after "move_") or "S" / "B_S" (after "comment"). */
int xqi_dh_parse_ids(const char *s, size_t len, uint32_t *ids, int want)
{
	int n = 0;
	size_t i = 0;

	while (n < want) {
		size_t j = i;
		while (j < len && s[j] != '_')
			j++;
		if (parse_uint(s + i, j - i, &ids[n++]))
			return -1;
		if (j == len)
			break;
		i = j + 1;
	}
	return n;
}
