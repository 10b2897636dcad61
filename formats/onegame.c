/*
 * onegame.c: what the one-game record readers share (see onegame.h).
 */
#include "onegame.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "utf8.h"

int xqi_onegame_open(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
		    const struct xqi_sink *sink, const struct xqi_format *fmt)
{
	struct xqi_onegame *r = calloc(1, sizeof(*r));
	struct xqi_read_opts def = XQI_READ_OPTS_INIT;

	if (!r)
		return XQ_ENOMEM;
	r->in = in;
	r->sink = sink;
	r->name = xqi_input_name(in);
	r->fmt = fmt;
	r->opts = opts ? *opts : def;
	xq_buf_init(&r->data);
	xq_buf_init(&r->text);
	xqi_transcoder_init(&r->gbk, XQI_ENC_GB18030, XQI_ENC_UTF8);
	*out = r;
	return 0;
}

void xqi_onegame_close(void *reader)
{
	struct xqi_onegame *r = reader;

	if (!r)
		return;
	xq_buf_release(&r->data);
	xq_buf_release(&r->text);
	xqi_transcoder_release(&r->gbk);
	xqi_flat_tree_release(&r->line);
	free(r);
}

void xqi_onegame_report(const struct xqi_onegame *r, uint64_t off, uint32_t ply,
		       enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt, ...)
{
	struct xqi_place pl = {off, 0, 0};
	va_list ap;

	va_start(ap, fmt);
	xqi_format_vreport(r->sink, r->name, 1, &pl, 1, ply, NULL, 0, code, sev, fmt, ap);
	va_end(ap);
}

int xqi_onegame_begin(struct xqi_onegame *r, struct xqi_record *g)
{
	uint64_t limit = xqi_format_record_limit(r->fmt, &r->opts);
	struct xq_diagnostic d;
	int rc;

	if (r->done)
		return 0;
	r->done = 1;
	xqi_record_clear(g);
	g->number = 1;
	g->source = r->name;
	g->place.offset = 0;
	xqi_diagnostic_init(&d);
	rc = xqi_input_read_all(r->in, &r->data, limit > SIZE_MAX ? SIZE_MAX : (size_t)limit, &d);
	if (rc == XQ_ERANGE) {
		xqi_diagnostic_init(&d);
		xqi_format_limit_diag(&d, r->fmt, &r->opts, "the input");
		xqi_onegame_report(r, 0, 0, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "%s", d.msg);
		return XQ_ERANGE;
	}
	if (rc) {
		d.source = r->name;
		xqi_sink_report(r->sink, &d);
		return rc;
	}
	return r->data.len ? 1 : 0; /* an empty input holds no game */
}

int xqi_onegame_end(struct xqi_onegame *r, struct xqi_record *g, int rc)
{
	/* The one game moves the reader from nowhere to the end of its input. */
	return xqi_read_guard(&r->guard, rc, r->data.len + 1, g, r->sink);
}

int xqi_onegame_gbk(struct xqi_onegame *r, uint64_t off, size_t len)
{
	const char *p = r->data.ptr + off;
	size_t n = 0, bad = 0;
	int rc;

	xq_buf_reset(&r->text);
	while (n < len && p[n])
		n++;
	if (n == 0)
		return 0;
	rc = xqi_transcoder_convert(&r->gbk, p, n, &r->text, &bad);
	if (rc == XQ_EENCODING) {
		xqi_onegame_report(r, off + bad, 0, XQI_D_ENCODING, XQ_SEVERITY_ERROR,
				  "bytes that are not GBK text; the text stops before them");
		rc = 0;
	}
	return rc;
}

int xqi_onegame_tag_text(struct xqi_record *g, const char *name, const char *value, size_t len)
{
	return len ? xqi_record_add_tag(g, name, strlen(name), value, len) : 0;
}

int xqi_onegame_tag(struct xqi_onegame *r, struct xqi_record *g, const char *name, uint64_t off,
		   size_t len)
{
	int rc = xqi_onegame_gbk(r, off, len);

	return rc ? rc : xqi_onegame_tag_text(g, name, r->text.ptr, r->text.len);
}

/* `n` ASCII digits at s (within len) as a number; -1 when they are not. */
static int digits(const char *s, size_t len, size_t n)
{
	int v = 0;

	if (len < n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!xq_is_digit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* One or two digits at *s, then the separator `sep` (sep_len bytes); the number or -1. */
static int field(const char **s, const char *end, const char *sep, size_t sep_len)
{
	size_t n = 0;
	int v;

	while (n < 2 && *s + n < end && xq_is_digit((unsigned char)(*s)[n]))
		n++;
	if (n == 0 || (size_t)(end - *s) < n + sep_len || memcmp(*s + n, sep, sep_len))
		return -1;
	v = digits(*s, n, n);
	*s += n + sep_len;
	return v;
}

int xqi_onegame_date(const char *s, size_t len, char out[16])
{
	const char *end = s + len, *p;
	int y = digits(s, len, 4), cjk = len >= 7 && !memcmp(s + 4, "年", 3), m, d;

	if (y < 0 || (!cjk && (len < 5 || s[4] != '-')))
		return 0;
	p = s + (cjk ? 7 : 5);
	m = field(&p, end, cjk ? "月" : "-", cjk ? 3 : 1);
	d = field(&p, end, cjk ? "日" : "", cjk ? 3 : 0);
	if (m < 1 || m > 12 || d < 1 || d > 31)
		return 0;
	snprintf(out, 16, "%04d.%02d.%02d", y % 10000, m % 100, d % 100);
	return 1;
}

int xqi_onegame_date_tag(struct xqi_onegame *r, struct xqi_record *g, uint64_t off, size_t len)
{
	char date[16];
	int rc = xqi_onegame_gbk(r, off, len);

	if (rc)
		return rc;
	if (xqi_onegame_date(r->text.ptr, r->text.len, date))
		return xqi_onegame_tag_text(g, "Date", date, 10);
	return xqi_onegame_tag_text(g, "Date", r->text.ptr, r->text.len);
}

void xqi_onegame_line_start(struct xqi_onegame *r, struct xqi_record *g)
{
	xqi_flat_tree_release(&r->line);
	xqi_flat_tree_init(&r->line, g);
}

int xqi_onegame_line_move(struct xqi_onegame *r, struct xqi_record *g, xqi_move m, uint64_t off,
			 const char *raw)
{
	uint32_t ply = r->line.parent != XQ_NO_NODE ? r->line.ply + 1 : 0, node;
	char name[5] = "";
	struct xq_diagnostic d;
	int added;

	if (m)
		xqi_move_name(m, name);
	xqi_diagnostic_init(&d);
	added = xqi_flat_tree_add(&r->line, m, 0, 0, &node, &d);
	if (added == 1) {
		g->nodes[node].place.offset = off;
		return 0;
	}
	if (added == XQ_EILLEGAL) {
		xqi_onegame_report(r, off, ply, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR,
				  "illegal move %s (%s): %s; the game stops here", name, raw, d.msg);
		g->flags |= XQI_RECORD_BROKEN;
	} else if (added == XQ_EPARSE) {
		xqi_onegame_report(r, off, ply, XQI_D_CORRUPT, XQ_SEVERITY_ERROR,
				  "move %s names no square of the board; the game stops here", raw);
		g->flags |= XQI_RECORD_BROKEN;
	} else if (added < 0) {
		return added;
	}
	return 0;
}

int xqi_onegame_line_end(struct xqi_onegame *r, struct xqi_record *g, uint64_t off)
{
	if (r->line.skipped)
		xqi_onegame_report(r, off, 0, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_NOTE,
				  "%u move%s after the bad move %s not read",
				  (unsigned)r->line.skipped, r->line.skipped == 1 ? "" : "s",
				  r->line.skipped == 1 ? "was" : "were");
	if (g->nnodes <= 1 && !(g->flags & XQI_RECORD_BROKEN))
		g->flags |= XQI_RECORD_EMPTY;
	xqi_flat_tree_release(&r->line);
	return 0;
}

int xqi_onegame_start(struct xqi_onegame *r, struct xqi_record *g, struct xqi_position *b, uint64_t off)
{
	struct xq_diagnostic d;

	b->key = xqi_position_compute_key(b);
	xqi_diagnostic_init(&d);
	if (xqi_position_validate(b, XQI_FEN_LENIENT_PLACEMENT, &d)) {
		xqi_onegame_report(r, off, 0, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
				  "start position: %s; no move can be read", d.msg);
		return 1;
	}
	g->start = *b;
	return 0;
}

void xqi_onegame_counted(struct xqi_onegame *r, struct xqi_record *g, uint64_t count, uint64_t read,
			size_t pos)
{
	if (read < count) {
		xqi_onegame_report(r, pos, 0, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
				  "the record announces %llu moves and ends after %llu",
				  (unsigned long long)count, (unsigned long long)read);
		g->flags |= XQI_RECORD_BROKEN;
	} else if (pos < r->data.len) {
		xqi_onegame_report(r, pos, 0, XQI_D_TRAILING, XQ_SEVERITY_WARNING,
				  "%zu bytes after the %llu moves the record announces are not read",
				  r->data.len - pos, (unsigned long long)count);
	}
}

uint32_t xqi_onegame_u32(const struct xqi_onegame *r, size_t off)
{
	const unsigned char *p = (const unsigned char *)r->data.ptr + off;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
