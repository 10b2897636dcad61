/*
 * diagplace.c: a diagnostic about a game's tag (see diagplace.h).
 */
#include "diagplace.h"

#include <stdarg.h>
#include <string.h>

#include "pool.h"

void diag_job_confirm_reader_result(struct pool_job *j)
{
	if (!(j->record->said & XQ_SAID_BAD_RESULT_STANDS))
		return;
	for (size_t i = j->diags.n; i-- > 0;)
		if (j->diags.v[i].code == XQ_D_BAD_RESULT) {
			j->diags.v[i].severity = XQ_SEV_ERROR;
			return;
		}
}

void diag_report_record_error(struct reporter *rep, const char *source, const struct xq_record *r,
			      const char *fmt, ...)
{
	const struct xq_game *g = &r->g;
	struct xq_diag d;
	va_list ap;

	xq_diag_init(&d);
	d.source = source;
	d.place = g->place;
	d.has_offset = g->place.line == 0;
	d.game = g->number;
	va_start(ap, fmt);
	xq_diag_vset(&d, 0, XQ_D_NONE, XQ_SEV_ERROR, fmt, ap);
	va_end(ap);
	reporter_diag(rep, &d, d.has_offset);
}

void diag_job_tag(struct pool_job *j, const char *name, int severity, const char *code,
		  const char *fmt, ...)
{
	int c = xq_diag_code_from_name(code);
	struct xq_diag d;
	va_list ap;

	xq_diag_init(&d);
	xq_game_place_diag_ply(&d, j->game, j->file->name, 0);
	if (name && xq_game_tag_place(j->game, name, &d.place))
		d.has_offset = 1;
	va_start(ap, fmt);
	/* A name the library does not know is a bug of the caller's. */
	xq_diag_vset(&d, 0, c < 0 ? XQ_D_INTERNAL : (enum xq_diag_code)c, (enum xq_severity)severity,
		     fmt, ap);
	va_end(ap);
	diag_list_add(&j->diags, &d);
}
