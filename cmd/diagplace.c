/*
 * diagplace.c: a diagnostic about a game's tag or move, and the job's
 * list of them (see diagplace.h), made by the library's
 * xq_diagnostics_report() (<xq/record.h>).
 */
#include "diagplace.h"

#include <pthread.h>
#include <stdarg.h>
#include <string.h>

#include "cmd.h"
#include "report.h"
#include <xq/batch.h>
#include <xq/rules.h>

/* The index of the code "bad-result" (xq_diagnostic_code_index()), found
 * once by its stable name: the list is the library's and may grow. */
static int bad_result_code = -1;
static pthread_once_t bad_result_once = PTHREAD_ONCE_INIT;

static void find_bad_result_code(void)
{
	const char *name;

	for (int i = 0; (name = xq_diagnostic_code_name(i)) != NULL; i++)
		if (!strcmp(name, "bad-result")) {
			bad_result_code = i;
			return;
		}
}

void diag_job_confirm_reader_result(xq_batch_job *j)
{
	if (!xq_record_result_tag_stands(j->record))
		return;
	pthread_once(&bad_result_once, find_bad_result_code);
	for (size_t i = xq_diagnostics_count(j->diags); i-- > 0;)
		if (xq_diagnostic_code_index(xq_diagnostics_at(j->diags, i)) == bad_result_code) {
			xq_diagnostics_set_severity(j->diags, i, XQ_SEVERITY_ERROR);
			return;
		}
}

void diag_report_record_error(struct reporter *rep, const char *source, const xq_record *r,
			      const char *fmt, ...)
{
	xq_diagnostic_about a = XQ_DIAGNOSTIC_ABOUT_INIT;
	xq_diagnostics *l = xq_diagnostics_new();
	const xq_diagnostic *d;
	va_list ap;
	int rc;

	if (!l) {
		cmd_error("out of memory reporting an error");
		return;
	}
	a.record = r;
	a.source = source;
	va_start(ap, fmt);
	rc = xq_diagnostics_vreport(l, &a, XQ_SEVERITY_ERROR, "none", fmt, ap);
	va_end(ap);
	if (!rc && (d = xq_diagnostics_at(l, 0)))
		reporter_diag(rep, d, xq_diagnostic_line(d) == 0);
	else
		cmd_error("out of memory reporting an error");
	xq_diagnostics_free(l);
}

/* The job's game, named after its input. */
static void about_job(xq_diagnostic_about *a, const xq_batch_job *j)
{
	*a = (xq_diagnostic_about)XQ_DIAGNOSTIC_ABOUT_INIT;
	a->source = j->file->name;
	if (j->kind == XQ_BATCH_GAME)
		a->record = j->record;
}

static int job_vsay(xq_batch_job *j, const xq_diagnostic_about *a, int severity,
		    const char *code, const char *fmt, va_list ap)
{
	xq_diagnostics *l = j->diags;
	va_list again;
	int rc;

	if (!l)
		return XQ_ENOMEM;
	va_copy(again, ap);
	rc = xq_diagnostics_vreport(l, a, severity, code, fmt, ap);
	/* A code the library does not name is a bug of the caller's. */
	if (rc == XQ_ENOTFOUND)
		rc = xq_diagnostics_vreport(l, a, severity, "internal", fmt, again);
	va_end(again);
	return rc;
}

void diag_job_tag(xq_batch_job *j, const char *name, int severity, const char *code,
		  const char *fmt, ...)
{
	xq_diagnostic_about a;
	va_list ap;

	about_job(&a, j);
	a.tag = name;
	va_start(ap, fmt);
	job_vsay(j, &a, severity, code, fmt, ap);
	va_end(ap);
}

int diag_job_vfix(xq_batch_job *j, const char *name, uint32_t ply, int severity, const char *code,
		  const char *field, const char *old_value, const char *new_value, const char *fmt,
		  va_list ap)
{
	xq_diagnostic_about a;

	about_job(&a, j);
	a.tag = name;
	a.ply = ply;
	/* The list copies the values with the diagnostic (xq_diagnostics). */
	a.fix_field = field;
	a.fix_old = field ? old_value : NULL;
	a.fix_new = field ? new_value : NULL;
	return job_vsay(j, &a, severity, code, fmt, ap);
}

int diag_job_fix(xq_batch_job *j, const char *name, uint32_t ply, int severity, const char *code,
		 const char *field, const char *old_value, const char *new_value, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = diag_job_vfix(j, name, ply, severity, code, field, old_value, new_value, fmt, ap);
	va_end(ap);
	return rc;
}

int diag_job_node(xq_batch_job *j, uint32_t n, uint32_t ply, int severity, const char *code,
		  const char *fmt, ...)
{
	xq_diagnostic_about a;
	va_list ap;
	int rc;

	about_job(&a, j);
	a.node = n;
	a.ply = ply;
	va_start(ap, fmt);
	rc = job_vsay(j, &a, severity, code, fmt, ap);
	va_end(ap);
	return rc;
}

int diag_job_add(xq_batch_job *j, const xq_diagnostic *d, int severity)
{
	xq_diagnostics *l = j->diags;
	xq_diagnostic_about a;

	if (!l)
		return XQ_ENOMEM;
	about_job(&a, j);
	return xq_diagnostics_add_about(l, d, &a, severity);
}

size_t diag_job_count(const xq_batch_job *j)
{
	return xq_diagnostics_count(j->diags);
}

void diag_job_truncate(xq_batch_job *j, size_t n)
{
	xq_diagnostics_truncate(j->diags, n);
}

void diag_job_move_last(xq_batch_job *j, size_t at)
{
	size_t n = xq_diagnostics_count(j->diags);

	if (n)
		xq_diagnostics_move(j->diags, n - 1, at);
}
