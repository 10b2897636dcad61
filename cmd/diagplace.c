/*
 * diagplace.c: a diagnostic about a game's tag or move, and the job's
 * list of them (see diagplace.h).
 */
#include "diagplace.h"

#include <stdarg.h>
#include <string.h>

#include "diag.h"
#include "game.h"
#include "pool.h"

void diag_job_confirm_reader_result(struct pool_job *j)
{
	if (!(j->record->said & XQ_SAID_BAD_RESULT_STANDS))
		return;
	for (size_t i = diag_list_count(&j->diags); i-- > 0;)
		if (!strcmp(xq_diagnostic_code(diag_list_at(&j->diags, i)), "bad-result")) {
			diag_list_set_severity(&j->diags, i, XQ_SEVERITY_ERROR);
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
	reporter_diag(rep, xq_diag_public(&d), d.has_offset);
}

static int job_say(struct pool_job *j, const char *name, uint32_t ply, int severity,
		   const char *code, const struct xq_diag_fix *fix, const char *fmt, va_list ap)
{
	int c = xq_diag_code_from_name(code);
	struct xq_diag d;

	xq_diag_init(&d);
	xq_game_place_diag_ply(&d, &j->record->g, j->file->name, ply);
	if (name && xq_game_tag_place(&j->record->g, name, &d.place))
		d.has_offset = 1;
	/* A name the library does not know is a bug of the caller's. */
	xq_diag_vset(&d, 0, c < 0 ? XQ_D_INTERNAL : (enum xq_diag_code)c, (enum xq_severity)severity,
		     fmt, ap);
	if (fix)
		d.fix = *fix;
	return diag_list_add(&j->diags, xq_diag_public(&d));
}

void diag_job_tag(struct pool_job *j, const char *name, int severity, const char *code,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	job_say(j, name, 0, severity, code, NULL, fmt, ap);
	va_end(ap);
}

int diag_job_vfix(struct pool_job *j, const char *name, uint32_t ply, int severity, const char *code,
		  const char *field, const char *old_value, const char *new_value, const char *fmt,
		  va_list ap)
{
	/* The list copies the values with the diagnostic (xq_diagnostics). */
	struct xq_diag_fix fix = {field, field ? old_value : NULL, field ? new_value : NULL};

	return job_say(j, name, ply, severity, code, &fix, fmt, ap);
}

int diag_job_fix(struct pool_job *j, const char *name, uint32_t ply, int severity, const char *code,
		 const char *field, const char *old_value, const char *new_value, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = diag_job_vfix(j, name, ply, severity, code, field, old_value, new_value, fmt, ap);
	va_end(ap);
	return rc;
}

int diag_job_node(struct pool_job *j, uint32_t n, uint32_t ply, int severity, const char *code,
		  const char *fmt, ...)
{
	int c = xq_diag_code_from_name(code);
	struct xq_diag d;
	va_list ap;

	xq_diag_init(&d);
	xq_game_place_diag(&d, &j->record->g, j->file->name, n, ply);
	va_start(ap, fmt);
	xq_diag_vset(&d, 0, c < 0 ? XQ_D_INTERNAL : (enum xq_diag_code)c, (enum xq_severity)severity,
		     fmt, ap);
	va_end(ap);
	return diag_list_add(&j->diags, xq_diag_public(&d));
}

int diag_job_add(struct pool_job *j, const xq_diagnostic *pd, int severity)
{
	/* The public API's diagnostic is the library's own (api/internal.h). */
	struct xq_diag d = *(const struct xq_diag *)(const void *)pd;

	d.source = j->file->name;
	if (j->kind == POOL_GAME) {
		d.game = j->record->g.number;
		if (!d.place.line && !d.place.offset) {
			d.place = j->record->g.place;
			d.has_offset = j->record->g.place.line == 0;
		}
	}
	if (severity >= 0)
		d.severity = (enum xq_severity)severity;
	return diag_list_add(&j->diags, xq_diag_public(&d));
}

size_t diag_job_count(const struct pool_job *j)
{
	return diag_list_count(&j->diags);
}

void diag_job_truncate(struct pool_job *j, size_t n)
{
	diag_list_truncate(&j->diags, n);
}

void diag_job_move_last(struct pool_job *j, size_t at)
{
	size_t n = diag_list_count(&j->diags);

	if (n)
		diag_list_move(&j->diags, n - 1, at);
}
