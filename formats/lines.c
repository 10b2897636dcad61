/*
 * lines.c: an input read line by line as UTF-8 (see lines.h).
 */
#include "lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "utf8.h"

#define CHUNK 65536

void xqi_lines_init(struct xqi_lines *l, struct xqi_input *in, const struct xqi_read_opts *opts,
		   const struct xqi_sink *sink, uint64_t line_max)
{
	memset(l, 0, sizeof(*l));
	l->in = in;
	l->sink = sink;
	l->name = xqi_input_name(in);
	l->line_max = line_max;
	l->text = "";
	xq_buf_init(&l->raw);
	xq_buf_init(&l->line);
	if (opts && opts->encoding != XQI_ENC_UNKNOWN) {
		l->enc = opts->encoding;
		l->given = 1;
	}
}

void xqi_lines_release(struct xqi_lines *l)
{
	if (l->td_live)
		xqi_textdec_release(&l->td);
	xq_buf_release(&l->raw);
	xq_buf_release(&l->line);
	l->td_live = 0;
}

enum xqi_encoding xqi_lines_encoding(const struct xqi_lines *l)
{
	return l->enc;
}

void xqi_lines_again(struct xqi_lines *l)
{
	l->again = 1;
}

uint32_t xqi_lines_col(const struct xqi_lines *l, size_t i)
{
	return (uint32_t)xq_utf8_count(l->text, i < l->len ? i : l->len) + 1;
}

static void report(struct xqi_lines *l, uint64_t offset, uint32_t col, enum xqi_diagnostic_code code,
		   enum xq_severity_level sev, const char *msg)
{
	struct xqi_place pl = {offset, l->lineno, col};

	xqi_format_report(l->sink, l->name, l->game, &pl, 1, 0, NULL, 0, code, sev, "%s", msg);
}

/* Read more of the input (what was taken is dropped first): the bytes
 * read, 0 at the end, or a negative code (said). */
static long fill(struct xqi_lines *l)
{
	struct xq_diagnostic d;
	long n;

	if (l->eof)
		return 0;
	if (l->pos) {
		memmove(l->raw.ptr, l->raw.ptr + l->pos, l->raw.len - l->pos);
		xq_buf_truncate(&l->raw, l->raw.len - l->pos);
		l->raw_off += l->pos;
		l->pos = 0;
	}
	if (xq_buf_grow(&l->raw, CHUNK))
		return l->error = XQ_ENOMEM;
	xqi_diagnostic_init(&d);
	n = xqi_input_read(l->in, l->raw.ptr + l->raw.len, CHUNK, &d);
	if (n < 0) {
		d.source = l->name;
		xqi_sink_report(l->sink, &d);
		return l->error = (int)n;
	}
	if (n == 0)
		l->eof = 1;
	l->raw.len += (size_t)n;
	return n;
}

/* The encoding, from the byte order mark or a sample of the start; the decoder. */
static int start(struct xqi_lines *l)
{
	size_t bom = 0;
	enum xqi_encoding found;
	char msg[120];

	/* Every round reads bytes or meets the end. */
	for (uint64_t was = 0; l->raw.len < CHUNK && !l->eof; XQI_ADVANCED(was, l->raw.len + l->eof))
		if (fill(l) < 0)
			return l->error;
	found = xqi_encoding_detect(l->raw.ptr ? l->raw.ptr : "", l->raw.len, &bom);
	if (!bom)
		found = xqi_textdec_detect(l->raw.ptr ? l->raw.ptr : "", l->raw.len);
	if (!l->given)
		l->enc = found;
	l->pos = bom;
	if (xqi_textdec_init(&l->td, l->enc,
			    XQI_TEXTDEC_COPY | XQI_TEXTDEC_BAD_EVENTS | (l->given ? 0 : XQI_TEXTDEC_MIXED),
			    0, bom)) {
		snprintf(msg, sizeof(msg), "this system cannot convert %s", xqi_encoding_name(l->enc));
		report(l, 0, 0, XQI_D_ENCODING, XQ_SEVERITY_ERROR, msg);
		return l->error = XQ_EUNSUPPORTED;
	}
	l->td_live = 1;
	l->started = 1;
	return 0;
}

/* The code unit at p[i]: a byte, or in UTF-16 two. */
static unsigned unit_at(const struct xqi_lines *l, const char *p, size_t i, size_t w)
{
	const unsigned char *u = (const unsigned char *)p + i;

	if (w == 1)
		return u[0];
	return l->enc == XQI_ENC_UTF16BE ? (unsigned)u[0] << 8 | u[1] : (unsigned)u[1] << 8 | u[0];
}

/*
 * Where the line at raw[pos] ends: *n its bytes with its line end, *eol
 * the line end's bytes; 1, or 0 when more input is needed to tell.  In
 * UTF-16 a line ends at a CR or LF unit (at an even byte).
 */
static int line_end(struct xqi_lines *l, size_t *n, size_t *eol)
{
	const char *p = l->raw.ptr + l->pos;
	size_t avail = l->raw.len - l->pos, i = 0;
	size_t w = l->enc == XQI_ENC_UTF16LE || l->enc == XQI_ENC_UTF16BE ? 2 : 1;
	unsigned c = 0;

	while (i + w <= avail && (c = unit_at(l, p, i, w)) != '\n' && c != '\r')
		i += w;
	if (i + w > avail) {
		*n = avail;
		*eol = 0;
		return l->eof;
	}
	if (c == '\r' && i + 2 * w > avail && !l->eof)
		return 0; /* CR LF may be cut between two reads */
	*eol = c == '\r' && i + 2 * w <= avail && unit_at(l, p, i + w, w) == '\n' ? 2 * w : w;
	*n = i + *eol;
	return 1;
}

/* Say the decoder's events for the line that starts at decoded position `dpos`. */
static void take_events(struct xqi_lines *l, uint64_t dpos)
{
	struct xqi_textdec *d = &l->td;
	char msg[200];

	while (d->ev_first < d->nevents) {
		const struct xqi_textdec_event *e = &d->events[d->ev_first++];
		size_t at = (size_t)(e->dpos - dpos);
		uint32_t col = (uint32_t)xq_utf8_count(l->line.ptr, at < l->line.len ? at : l->line.len) + 1;
		if (e->kind == XQI_TEXTDEC_BAD) {
			l->bad = 1;
			report(l, e->raw, col, XQI_D_ENCODING, XQ_SEVERITY_ERROR,
			       xqi_textdec_bad_message(msg, sizeof(msg), e->byte, e->enc, e->raw));
		} else if (l->told_game != l->game + 1) {
			l->told_game = l->game + 1;
			report(l, e->raw, col, XQI_D_ENCODING, XQ_SEVERITY_WARNING,
			       e->kind == XQI_TEXTDEC_AMBIGUOUS
				       ? xqi_textdec_ambiguous_message(msg, sizeof(msg), e->enc)
				       : xqi_textdec_foreign_message(msg, sizeof(msg), e->enc, l->enc));
		}
	}
}

/* Leave out of the line its end and what is not text (NULs, bytes that are not UTF-8). */
static void clean(struct xqi_lines *l)
{
	char *s = l->line.ptr;
	size_t j = 0, len = l->line.len;

	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	for (size_t i = 0; i < len;) {
		size_t k = xq_utf8_valid_prefix(s + i, len - i);
		if (k == 0 || s[i] == '\0') {
			i++;
			continue;
		}
		memmove(s + j, s + i, k);
		i += k;
		j += k;
	}
	xq_buf_truncate(&l->line, j);
	l->text = l->line.ptr ? l->line.ptr : "";
	l->len = j;
}

/* Decode the `n` bytes of the line at raw[pos]. */
static int decode(struct xqi_lines *l, size_t n, int final)
{
	uint64_t dpos = l->td.dpos;
	long used;

	xq_buf_reset(&l->line);
	used = xqi_textdec_feed(&l->td, l->raw.ptr + l->pos, n, final, &l->line);
	/* A line longer than the decoder's pieces may be left partly: it is
	 * whole, so the rest goes as the input's end would. */
	if (used >= 0 && (size_t)used < n)
		used = xqi_textdec_feed(&l->td, l->raw.ptr + l->pos + used, n - (size_t)used, 1,
				       &l->line);
	if (used < 0)
		return l->error = (int)used;
	if (xq_buf_error(&l->line) || xq_buf_addc(&l->line, '\0'))
		return l->error = XQ_ENOMEM;
	xq_buf_truncate(&l->line, l->line.len - 1);
	l->bad = 0;
	take_events(l, dpos);
	xqi_textdec_forget(&l->td, l->td.dpos);
	clean(l);
	return 0;
}

/* A line over the limit: said, and the input is read no further. */
static int too_long(struct xqi_lines *l)
{
	char msg[160];

	l->lineno++;
	snprintf(msg, sizeof(msg),
		 "a line longer than %llu bytes (no record of this format has one); the rest of the "
		 "input is not read",
		 (unsigned long long)l->line_max);
	report(l, l->raw_off + l->pos, 0, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, msg);
	return l->error = XQ_ERANGE;
}

int xqi_lines_next(struct xqi_lines *l)
{
	size_t n = 0, eol = 0;

	if (l->again) {
		l->again = 0;
		return 1;
	}
	if (l->error)
		return l->error;
	if (!l->started && start(l))
		return l->error;
	/* Every round reads bytes, or the line is whole. */
	for (uint64_t was = 0; !line_end(l, &n, &eol); XQI_ADVANCED(was, l->raw_off + l->raw.len + 1)) {
		if (l->raw.len - l->pos > l->line_max)
			return too_long(l);
		if (fill(l) < 0)
			return l->error;
	}
	if (n == 0)
		return 0;
	if (n - eol > l->line_max)
		return too_long(l);
	l->lineno++;
	l->offset = l->raw_off + l->pos;
	if (decode(l, n, eol == 0))
		return l->error;
	l->pos += n;
	return 1;
}

int xqi_line_reader_open(void **out, const struct xqi_format *f, struct xqi_input *in,
			const struct xqi_read_opts *opts, const struct xqi_sink *sink)
{
	struct xqi_line_reader *r = calloc(1, sizeof(*r));
	struct xqi_read_opts def = XQI_READ_OPTS_INIT;

	if (!r)
		return XQ_ENOMEM;
	r->opts = opts ? *opts : def;
	r->sink = sink;
	r->name = xqi_input_name(in);
	r->limit = xqi_format_record_limit(f, &r->opts);
	xqi_lines_init(&r->lines, in, &r->opts, sink, r->limit);
	*out = r;
	return 0;
}

void xqi_line_reader_close(void *reader)
{
	struct xqi_line_reader *r = reader;

	xqi_lines_release(&r->lines);
	free(r);
}

int xqi_lines_head(const unsigned char *h, size_t len, struct xq_buf *out)
{
	const char *s = (const char *)h;
	size_t end = len, bom = 0, bad;
	enum xqi_encoding enc = xqi_encoding_detect(s, len, &bom);

	if (len == XQI_PEEK_SIZE && enc != XQI_ENC_UTF16LE && enc != XQI_ENC_UTF16BE)
		while (end > 0 && h[end - 1] != '\n')
			end--; /* the last line may be cut */
	if (enc == XQI_ENC_UTF16LE || enc == XQI_ENC_UTF16BE) {
		/* Whole code units, and not after a high surrogate. */
		end = bom + ((len - bom) & ~(size_t)7);
		return xqi_decode(enc, s + bom, end - bom, out, &bad) ? XQ_EENCODING : 0;
	}
	s += bom;
	end = end > bom ? end - bom : 0;
	enc = xqi_textdec_detect(s, end);
	if (enc == XQI_ENC_UTF8)
		return xq_buf_add(out, s, end);
	for (size_t i = 0; i < end;) {
		const char *nl = memchr(s + i, '\n', end - i);
		size_t n = nl ? (size_t)(nl - (s + i)) + 1 : end - i, at = out->len;
		if (xqi_decode(enc, s + i, n, out, &bad))
			xq_buf_truncate(out, at);
		i += n;
	}
	return xq_buf_error(out);
}
