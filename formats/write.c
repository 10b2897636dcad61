/*
 * write.c: how readers and writers report (xq_format_report), and what
 * every writer shares (format.h, "What every writer shares"): reporting
 * about a game being written, the rule for a start position that could
 * not be read, the one encoding policy, losses derived from caps.
 */
#include "format.h"

#include <stdarg.h>

#include "utf8.h"

void xq_format_report(const struct xq_sink *sink, const char *source, uint64_t game,
		      const struct xq_place *place, int has_offset, uint32_t ply, const char *move,
		      size_t mlen, enum xq_diag_code code, enum xq_severity sev, const char *fmt,
		      ...)
{
	va_list ap;

	va_start(ap, fmt);
	xq_format_vreport(sink, source, game, place, has_offset, ply, move, mlen, code, sev, fmt,
			  ap);
	va_end(ap);
}

void xq_format_vreport(const struct xq_sink *sink, const char *source, uint64_t game,
		       const struct xq_place *place, int has_offset, uint32_t ply, const char *move,
		       size_t mlen, enum xq_diag_code code, enum xq_severity sev, const char *fmt,
		       va_list ap)
{
	struct xq_diag d;

	if (!sink || !sink->report)
		return;
	xq_diag_init(&d);
	d.source = source;
	if (place)
		d.place = *place;
	d.has_offset = has_offset;
	d.game = game;
	d.ply = ply;
	if (move)
		xq_diag_set_move(&d, move, mlen);
	xq_diag_vset(&d, 0, code, sev, fmt, ap);
	xq_sink_report(sink, &d);
}

int xq_write_report(const struct xq_sink *sink, struct xq_output *o, uint64_t game,
		    uint32_t ply, int rc, enum xq_severity sev, enum xq_diag_code code,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xq_format_vreport(sink, o ? xq_output_name(o) : NULL, game, NULL, 0, ply, NULL, 0, code,
			  sev, fmt, ap);
	va_end(ap);
	return rc;
}

int xq_write_refuse(const struct xq_sink *sink, struct xq_output *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xq_format_vreport(sink, o ? xq_output_name(o) : NULL, 0, NULL, 0, 0, NULL, 0,
			  XQ_D_UNSUPPORTED, XQ_SEV_ERROR, fmt, ap);
	va_end(ap);
	return XQ_EUNSUPPORTED;
}

int xq_write_start_check(const struct xq_sink *sink, struct xq_output *o,
			 const struct xq_game *g, const char *format, int as_text)
{
	if (!g->start_text)
		return 0;
	if (as_text)
		return xq_write_report(sink, o, g->number, 0, 0, XQ_SEV_WARNING, XQ_D_BAD_FEN,
				       "the start position could not be read: its FEN is "
				       "written as the source gave it, '%.100s'",
				       g->start_text);
	return xq_write_report(sink, o, g->number, 0, XQ_EUNSUPPORTED, XQ_SEV_ERROR, XQ_D_BAD_FEN,
			       "the start position could not be read ('%.100s') and %s cannot "
			       "hold it as text: the game is not written",
			       g->start_text, format);
}

int xq_write_text(const struct xq_sink *sink, struct xq_output *o, uint64_t game, uint32_t ply,
		  struct xq_transcoder *tc, const char *what, const char *s, size_t len,
		  struct xq_buf *out, size_t *lost)
{
	size_t n = 0, first = 0;
	int rc = xq_transcoder_convert_lossy(tc, s, len, out, &n, &first);

	if (lost)
		*lost = n;
	if (rc || !n)
		return rc;
	{
		uint32_t cp = 0xFFFD;
		size_t k = xq_utf8_decode(s + first, len - first, &cp);
		xq_write_report(sink, o, game, ply, 0, XQ_SEV_WARNING, XQ_D_LOSS,
				"%s: %zu character%s cannot be written in %s and became '?' "
				"(the first: '%.*s', U+%04X)",
				what, n, n > 1 ? "s" : "", xq_encoding_name(tc->to), (int)(k ? k : 3),
				k ? s + first : "\xEF\xBF\xBD", (unsigned)cp);
	}
	return 0;
}

void xq_write_losses(const struct xq_sink *sink, struct xq_output *o, uint64_t game,
		     const struct xq_game *g, unsigned caps, unsigned flags, const char *format)
{
	int want_nags = !(caps & XQ_CAP_NAGS);
	int want_pre = !(caps & XQ_CAP_PRE_COMMENTS) && !(flags & XQ_LOSS_PRE_COMMENTS_KEPT);
	uint32_t nags = 0, pre = 0, first_nag = 0, first_pre = 0, ply = 1;

	if (!want_nags && !want_pre)
		return;
	for (uint32_t n = g->nodes[XQ_ROOT].child; n != XQ_NODE_NONE;
	     n = xq_game_next_ply(g, n, &ply)) {
		const struct xq_node *x = &g->nodes[n];
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
		xq_write_report(sink, o, game, first_nag, 0, XQ_SEV_WARNING, XQ_D_LOSS,
				"%u NAGs (the first at ply %u) not written: %s has no place for them",
				(unsigned)nags, (unsigned)first_nag, format);
	if (pre)
		xq_write_report(sink, o, game, first_pre, 0, XQ_SEV_WARNING, XQ_D_LOSS,
				"%u comments before a move (the first at ply %u) not written: %s "
				"holds comments after moves only",
				(unsigned)pre, (unsigned)first_pre, format);
}
