/*
 * pgn_reader.c: the PGN reader's life (made, opened, closed) and how the
 * parser (pgn_read.c) reports: below the parser, which calls into it
 * (see pgn.c for the whole, pgn_int.h for what the parts share).
 */
#include "pgn_int.h"

/* ---- diagnostics ----------------------------------------------------------- */

void xqi_pgn_place_diag(struct pgn_reader *r, const struct xqi_record *g, struct xq_diagnostic *d,
		       const struct xqi_place *pl, uint32_t ply, const char *move, size_t mlen)
{
	d->source = r->name;
	if (pl) {
		d->place = *pl;
		d->has_offset = 1;
	}
	d->game = g->number;
	d->ply = ply;
	if (move)
		xqi_diagnostic_set_move(d, move, mlen);
}

void xqi_pgn_emit(struct pgn_reader *r, const struct xqi_record *g, struct xq_diagnostic *d,
		 const struct xqi_place *pl, uint32_t ply, const char *move, size_t mlen)
{
	xqi_pgn_place_diag(r, g, d, pl, ply, move, mlen);
	xqi_sink_report(r->sink, d);
}

void xqi_pgn_report(struct pgn_reader *r, const struct xqi_record *g, const struct xqi_place *pl,
		   uint32_t ply, const char *move, size_t mlen, enum xq_severity_level sev,
		   enum xqi_diagnostic_code code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xqi_format_vreport(r->sink, r->name, g->number, pl, pl != NULL, ply, move, mlen, code, sev,
			  fmt, ap);
	va_end(ap);
}

/* ---- the reader's life ----------------------------------------------------- */

/* A reader at the start of an input; the caller sets where its bytes come from. */
struct pgn_reader *xqi_pgn_new_reader(const struct xqi_read_opts *opts, const struct xqi_sink *sink,
				     const struct xqi_format *fmt)
{
	struct pgn_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->sink = sink;
	r->fmt = fmt;
	if (opts)
		r->opts = *opts;
	r->max_game = xqi_format_record_limit(fmt, opts);
	r->first_high = UINT64_MAX;
	xq_buf_init(&r->raw);
	xq_buf_init(&r->dec);
	xq_buf_init(&r->scratch);
	xq_buf_init(&r->pre);
	xq_buf_init(&r->post);
	xq_buf_init(&r->fixed[0]);
	xq_buf_init(&r->fixed[1]);
	r->post_node = XQ_NO_NODE;
	r->line = 1;
	r->cr_at = UINT64_MAX;
	r->game_start = r->skip_start = NO_POS;
	xqi_diagnostic_init(&r->md);
	r->enc = XQI_ENC_UNKNOWN;
	if (r->opts.encoding == XQI_ENC_UTF8) {
		r->enc = XQI_ENC_UTF8;
		r->first_high = 0;
	}
	if (xq_buf_grow(&r->raw, CHUNK)) {
		free(r);
		return NULL;
	}
	xqi_pgn_set_text(r);
	return r;
}

int xqi_pgn_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
			   const struct xqi_sink *sink, const struct xqi_format *fmt)
{
	struct pgn_reader *r = xqi_pgn_new_reader(opts, sink, fmt);

	if (!r)
		return XQ_ENOMEM;
	r->in = in;
	r->name = xqi_input_name(in);
	*out = r;
	return 0;
}

void xqi_pgn_close_reader(void *reader)
{
	struct pgn_reader *r = reader;

	if (!r)
		return;
	if (r->td_live)
		xqi_textdec_release(&r->td);
	xqi_pgn_shadow_free(r->shadow);
	xq_buf_release(&r->raw);
	xq_buf_release(&r->dec);
	xq_buf_release(&r->scratch);
	xq_buf_release(&r->pre);
	xq_buf_release(&r->post);
	xq_buf_release(&r->fixed[0]);
	xq_buf_release(&r->fixed[1]);
	free(r->stack);
	free(r->saved);
	free(r->path);
	free(r);
}
