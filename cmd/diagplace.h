/*
 * diagplace.h: pointing a diagnostic about a game at the move or the tag it
 * is about, the one way every command does it (validate's checks,
 * annotate's engine failures, the ECCO tags).
 */
#ifndef CMD_DIAGPLACE_H
#define CMD_DIAGPLACE_H

#include <stdarg.h>
#include <stdint.h>

#include <xq/record.h>
#include <xq/batch.h>

/*
 * Add to the diagnostics of pool job `j` one about its game's tag `name`,
 * at the tag's place when the reader kept it (else at the game; `name`
 * may be NULL for a tag that is not there), of severity `severity`
 * (XQ_SEVERITY_* of <xq/error.h>) and code `code`, by its stable name
 * ("bad-tag": xq_diagnostic_code_name()), as a command on the public API
 * names them.
 */
void diag_job_tag(xq_batch_job *j, const char *name, int severity, const char *code,
		  const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

/*
 * The same about ply `ply` of the game's main line (0: the game as a
 * whole), at tag `name`'s place all the same when the reader kept it,
 * saying that `convert --fix` changed tag `field` from `old_value` (NULL:
 * it was not there) to `new_value` (`field` NULL: a diagnostic that
 * changed nothing), as xq_diagnostic_fix() reads it back.  The values are
 * copied with the diagnostic (the job's list copies its strings).
 * Returns 0, or XQ_ENOMEM (nothing added).
 */
int diag_job_fix(xq_batch_job *j, const char *name, uint32_t ply, int severity, const char *code,
		 const char *field, const char *old_value, const char *new_value, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 9, 10)))
#endif
	;
int diag_job_vfix(xq_batch_job *j, const char *name, uint32_t ply, int severity, const char *code,
		  const char *field, const char *old_value, const char *new_value, const char *fmt,
		  va_list ap);

/*
 * The same about node `n` of the game's tree (0: the game as a whole), at
 * the move's place and with its text when the reader kept them, with
 * `ply` as its ply: annotate's engine failures and warnings.  Returns 0,
 * or XQ_ENOMEM (nothing added).
 */
int diag_job_node(xq_batch_job *j, uint32_t n, uint32_t ply, int severity, const char *code,
		  const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 7)))
#endif
	;

/*
 * A diagnostic a library call sent about the game of `j` (a writer's, say)
 * added to its diagnostics, named after the job's input and game, and at
 * the game's place when it has none of its own; with its own severity, or
 * `severity` when that is not -1 (--strict makes a loss an error).  0, or
 * XQ_ENOMEM.
 */
int diag_job_add(xq_batch_job *j, const xq_diagnostic *d, int severity);

/* The diagnostics of `j` so far; drop those after the first `n`; move the
 * last one to index `at` (the others from there on one up). */
size_t diag_job_count(const xq_batch_job *j);
void diag_job_truncate(xq_batch_job *j, size_t n);
void diag_job_move_last(xq_batch_job *j, size_t at);

/*
 * validate: the reader's bad-result diagnostic of the game of `j` (its
 * Result tag against the record's result), which the reader gives as a
 * warning, counts as an error when xq_record_validate() found the tag is
 * a result (the record keeps that it found so: lib/record.h).
 */
void diag_job_confirm_reader_result(xq_batch_job *j);

/*
 * Report at once, through `rep`, an error about the game `r` of `source`
 * at the record's place: for a command that finds a problem while it
 * prints the game (replay's --ply past its end).
 */
struct reporter;
void diag_report_record_error(struct reporter *rep, const char *source, const xq_record *r,
			      const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

#endif
