/*
 * whole.c: reading a whole file: opened (or found unusable, empty, not a
 * record file), every game read and handed over, then its END job.
 */
#include "batch_int.h"

/* Input `u` ends without a game read: its END job, in `j`, with its status
 * and the reason (NULL: none).  Every unit passes its turn at the budget
 * (the units after it wait for it): one that reads nothing, here. */
static int end_unread(struct worker *w, struct unit *u, struct xq_batch_job *j,
		      xq_batch_file_status status, const struct xq_diagnostic *why)
{
	xqi_batch_unit_reserve(w, u, 0);
	u->file->status = status;
	if (why)
		xqi_batch_job_diag(w, j, why);
	j->kind = XQ_BATCH_END;
	xqi_batch_publish(w, j, !u->small);
	return 1;
}

/* Read every game of `u`'s file; publishes its END job (and returns 1)
 * unless the run stops. */
int xqi_batch_read_file(struct worker *w, struct unit *u, int open_failed, const struct xq_diagnostic *why)
{
	struct pool *p = w->pool;
	struct xq_batch_file *f = u->file;
	struct xqi_sink sink = {xqi_batch_pool_sink, w};
	struct xq_batch_job *j;
	struct xqi_source src;
	struct xq_diagnostic d;
	int rc;

	w->file = f;
	atomic_store(&w->bytes, 0);
	if (!(j = xqi_batch_acquire(w, f)))
		return 0;
	if (open_failed)
		return end_unread(w, u, j, XQ_BATCH_FILE_FAILED, why);
	xqi_diagnostic_init(&d);
	if (u->opened) {
		/* Opened to be split, and not split. */
		src = u->src;
		u->opened = 0;
		if ((rc = xqi_source_open_reader(&src, &p->ro, &sink, &d)) != 0) {
			d.source = NULL; /* the input's name, closed here: f->name below */
			xqi_source_close(&src);
		}
	} else if (u->open_rc) {
		rc = u->open_rc;
		d = u->open_d;
	} else {
		rc = xqi_source_open(&src, f->path, p->forced, p->cancel, FROM_HINT, &p->ro, &sink, &d);
	}
	if (rc == XQ_ECANCELED) {
		xqi_batch_stop_canceled(p);
		w->file = NULL;
		return 0;
	}
	if (rc == XQI_SOURCE_EMPTY && !f->in_dir) /* no game in it: its END job says so (emit_job) */
		return end_unread(w, u, j, XQ_BATCH_FILE_OK, NULL);
	if ((rc == XQI_SOURCE_UNKNOWN && !p->forced && f->in_dir) || rc == XQI_SOURCE_EMPTY)
		return end_unread(w, u, j, XQ_BATCH_FILE_SKIPPED, NULL);
	if (rc != XQI_SOURCE_OK) {
		d.source = f->name;
		return end_unread(w, u, j, XQ_BATCH_FILE_FAILED, &d);
	}
	xqi_batch_file_recognised(f, &src);
	xqi_batch_unit_reserve(w, u, xqi_format_input_memory(src.fmt, src.in, &p->ro));
	for (;;) {
		rc = src.fmt->read(src.reader, game_of(j));
		atomic_store(&w->bytes, xqi_input_stored_offset(src.in));
		if (rc <= 0)
			break;
		game_of(j)->source = f->name;
		xqi_batch_process_or_share(w, j);
		xqi_batch_publish(w, j, 0);
		if (!(j = xqi_batch_acquire(w, f))) {
			xqi_source_close(&src);
			w->file = NULL;
			return 0;
		}
	}
	if (rc == XQ_ECANCELED) {
		xqi_batch_stop_canceled(p);
		xqi_source_close(&src);
		w->file = NULL;
		return 0;
	}
	if (rc < 0) {
		f->status = xqi_batch_read_status(rc);
		xqi_batch_read_stopped(w, j, rc);
	}
	/* Diagnostics of the last read and of closing belong to the END job. */
	xqi_source_close(&src);
	j->kind = XQ_BATCH_END;
	w->file = NULL;
	xqi_batch_unit_read(w, u);
	xqi_batch_publish(w, j, !u->small);
	return 1;
}
