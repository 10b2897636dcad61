/*
 * write.c: what every writer shares (format.h, "What every writer
 * shares"): one way to report about a game being written, and the rule
 * for a start position that could not be read.
 */
#include "format.h"

#include <stdarg.h>

#include "utf8.h"

int xq_write_report(const struct xq_sink *sink, struct xq_output *o, uint64_t game,
		    uint32_t ply, int rc, enum xq_severity sev, enum xq_diag_code code,
		    const char *fmt, ...)
{
	struct xq_diag d;
	va_list ap;

	if (!sink || !sink->report)
		return rc;
	xq_diag_init(&d);
	va_start(ap, fmt);
	xq_diag_vset(&d, rc, code, sev, fmt, ap);
	va_end(ap);
	d.game = game;
	d.ply = ply;
	d.source = o ? xq_output_name(o) : NULL;
	xq_sink_report(sink, &d);
	return rc;
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
