/*
 * write.c: how readers and writers report (xqi_format_report), and what
 * every writer shares (format.h, "What every writer shares"): reporting
 * about a game being written, the rule for a start position that could
 * not be read, the one encoding policy, losses derived from caps.
 */
#include "format.h"

#include <stdarg.h>

#include "utf8.h"

void xqi_format_report(const struct xqi_sink *sink, const char *source, uint64_t game,
		      const struct xqi_place *place, int has_offset, uint32_t ply, const char *move,
		      size_t mlen, enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt,
		      ...)
{
	va_list ap;

	va_start(ap, fmt);
	xqi_format_vreport(sink, source, game, place, has_offset, ply, move, mlen, code, sev, fmt,
			  ap);
	va_end(ap);
}

void xqi_format_vreport(const struct xqi_sink *sink, const char *source, uint64_t game,
		       const struct xqi_place *place, int has_offset, uint32_t ply, const char *move,
		       size_t mlen, enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt,
		       va_list ap)
{
	struct xq_diagnostic d;

	if (!sink || !sink->report)
		return;
	xqi_diagnostic_init(&d);
	d.source = source;
	if (place)
		d.place = *place;
	d.has_offset = has_offset;
	d.game = game;
	d.ply = ply;
	if (move)
		xqi_diagnostic_set_move(&d, move, mlen);
	xqi_diagnostic_vset(&d, 0, code, sev, fmt, ap);
	xqi_sink_report(sink, &d);
}

int xqi_write_report(const struct xqi_sink *sink, struct xq_file *o, uint64_t game,
		    uint32_t ply, int rc, enum xq_severity_level sev, enum xqi_diagnostic_code code,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xqi_format_vreport(sink, o ? xqi_file_name(o) : NULL, game, NULL, 0, ply, NULL, 0, code,
			  sev, fmt, ap);
	va_end(ap);
	return rc;
}

int xqi_write_refuse(const struct xqi_sink *sink, struct xq_file *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xqi_format_vreport(sink, o ? xqi_file_name(o) : NULL, 0, NULL, 0, 0, NULL, 0,
			  XQI_D_UNSUPPORTED, XQ_SEVERITY_ERROR, fmt, ap);
	va_end(ap);
	return XQ_EUNSUPPORTED;
}

int xqi_write_start_check(const struct xqi_sink *sink, struct xq_file *o,
			 const struct xqi_record *g, const char *format, int as_text)
{
	if (!g->start_text)
		return 0;
	if (as_text)
		return xqi_write_report(sink, o, g->number, 0, 0, XQ_SEVERITY_WARNING, XQI_D_BAD_FEN,
				       "the start position could not be read: its FEN is "
				       "written as the source gave it, '%.100s'",
				       g->start_text);
	return xqi_write_report(sink, o, g->number, 0, XQ_EUNSUPPORTED, XQ_SEVERITY_ERROR, XQI_D_BAD_FEN,
			       "the start position could not be read ('%.100s') and %s cannot "
			       "hold it as text: the game is not written",
			       g->start_text, format);
}

int xqi_write_text(const struct xqi_sink *sink, struct xq_file *o, uint64_t game, uint32_t ply,
		  struct xqi_transcoder *tc, const char *what, const char *s, size_t len,
		  struct xq_buf *out, size_t *lost)
{
	size_t n = 0, first = 0;
	int rc = xqi_transcoder_convert_lossy(tc, s, len, out, &n, &first);

	if (lost)
		*lost = n;
	if (rc || !n)
		return rc;
	{
		uint32_t cp = 0xFFFD;
		size_t k = xq_utf8_decode(s + first, len - first, &cp);
		xqi_write_report(sink, o, game, ply, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
				"%s: %zu character%s cannot be written in %s and became '?' "
				"(the first: '%.*s', U+%04X)",
				what, n, n > 1 ? "s" : "", xqi_encoding_name(tc->to), (int)(k ? k : 3),
				k ? s + first : "\xEF\xBF\xBD", (unsigned)cp);
	}
	return 0;
}

void xqi_write_losses(const struct xqi_sink *sink, struct xq_file *o, uint64_t game,
		     const struct xqi_record *g, unsigned caps, unsigned flags, const char *format)
{
	int want_nags = !(caps & XQ_FORMAT_NAGS);
	int want_pre = !(caps & XQ_FORMAT_PRE_COMMENTS) && !(flags & XQI_LOSS_PRE_COMMENTS_KEPT);
	uint32_t nags = 0, pre = 0, first_nag = 0, first_pre = 0, ply = 1;

	if (!want_nags && !want_pre)
		return;
	for (uint32_t n = g->nodes[XQI_ROOT].child; n != XQ_NO_NODE;
	     n = xqi_record_next_ply(g, n, &ply)) {
		const struct xqi_node *x = &g->nodes[n];
		if (want_nags && x->nnags) {
			if (!nags)
				first_nag = ply;
			nags += x->nnags;
		}
		if (want_pre && x->pre_comment && *x->pre_comment) {
			if (!pre)
				first_pre = ply;
			pre++;
		}
	}
	if (nags)
		xqi_write_report(sink, o, game, first_nag, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
				"%u NAGs (the first at ply %u) not written: %s has no place for them",
				(unsigned)nags, (unsigned)first_nag, format);
	if (pre)
		xqi_write_report(sink, o, game, first_pre, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
				"%u comments before a move (the first at ply %u) not written: %s "
				"holds comments after moves only",
				(unsigned)pre, (unsigned)first_pre, format);
}
