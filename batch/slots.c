/*
 * slots.c: a ring's slots and their jobs: a job reset for the next game,
 * the diagnostics kept with it, the memory it holds, and what a worker's
 * jobs in flight hold against its unit's reservation.
 */
#include "batch_int.h"

#include <string.h>

void xqi_batch_job_reset(const struct pool *p, struct xq_batch_job *j, struct xq_batch_file *f)
{
	if (j->data)
		memset(j->data, 0, p->cfg->job_data);
	j->kind = XQ_BATCH_GAME;
	j->file = f;
	xqi_record_reset(j->record);
	xq_diagnostics_truncate(j->diags, 0);
	xq_buf_reset(&j->text);
	j->flags = 0;
	j->foreign = 0;
	j->late = 0;
	memset(j->counts, 0, sizeof(j->counts));
}

void xqi_batch_pool_sink(const struct xq_diagnostic *d, void *payload)
{
	struct worker *w = payload;
	struct xq_diagnostic c = *d;

	if (w->file)
		c.source = w->file->name;
	if (w->cur)
		xqi_record_heard(w->cur->record, d); /* for xq_record_validate() */
	if (w->cur && xq_diagnostics_add(w->cur->diags, &c))
		w->oom = 1;
}

/* Keep `d` with job `j` of worker `w`; a diagnostic that cannot be kept
 * makes the run end in XQ_ENOMEM. */
void xqi_batch_job_diag(struct worker *w, struct xq_batch_job *j, const struct xq_diagnostic *d)
{
	if (xq_diagnostics_add(j->diags, d))
		w->oom = 1;
}

xq_batch_file_status xqi_batch_read_status(int rc)
{
	if (rc >= 0)
		return XQ_BATCH_FILE_OK;
	return rc == XQ_EIO || rc == XQ_ENOMEM ? XQ_BATCH_FILE_IO : XQ_BATCH_FILE_DAMAGED;
}

/* Reading `j`'s file stopped on error `rc`: the END job says so, unless
 * the reader said why already. */
void xqi_batch_read_stopped(struct worker *w, struct xq_batch_job *j, int rc)
{
	struct xq_diagnostic d;

	if (xq_diagnostics_count(j->diags))
		return;
	xqi_diagnostic_init(&d);
	xqi_diagnostic_set(&d, 0, XQI_D_IO, XQ_SEVERITY_ERROR, "reading stopped: %s", xqi_strerror(rc));
	d.source = j->file->name;
	xqi_batch_job_diag(w, j, &d);
}

/* Memory held by the jobs of `w`'s current unit handed over and not
 * emitted yet (those of earlier units are held to their own
 * reservations). */
uint64_t xqi_batch_unit_inflight(struct worker *w)
{
	uint64_t out = atomic_load(&w->out_mem), base = atomic_load(&w->unit_base);

	return atomic_load(&w->pub_mem) - (out > base ? out : base);
}

/* Would one more game like the largest so far pass what `w`'s unit
 * reserved, with the jobs in flight (under mu)? */
int xqi_batch_over_allowance(struct worker *w)
{
	uint64_t in = xqi_batch_unit_inflight(w), allow = atomic_load(&w->allow);

	return in > 0 && allow != UINT64_MAX && in + atomic_load(&w->largest) > allow;
}

/* May the worker waiting (kind `wt`) on `w` go on? */
int xqi_batch_may_go_on(struct worker *w, int wt, size_t count)
{
	return (wt == 1 && count <= RING - BATCH) ||
	       (wt == 2 && count < RING && !xqi_batch_over_allowance(w));
}

/* Free the record of a slot's job (its game). */
void xqi_batch_slot_free_record(struct xq_batch_job *j)
{
	xq_record_free(j->record);
	j->record = NULL;
}

/* Memory a job holds: its game, its diagnostics, the command's text. */
uint64_t xqi_batch_job_memory(const struct xq_batch_job *j)
{
	const struct xq_diagnostics *l = j->diags; /* the library's list (lib/diagnostic.h) */

	return xqi_record_memory(game_of(j)) + (l ? l->alloc * sizeof(*l->v) + l->strings_size : 0) +
	       j->text.alloc;
}

/* After emitting slot `s`: give its memory back to the system when it
 * holds much (acquire sets it up again). */
void xqi_batch_slot_shrink(struct slot *s)
{
	if (!s->ready || xqi_batch_job_memory(&s->job) <= SLOT_KEEP)
		return;
	xqi_batch_slot_free_record(&s->job);
	xq_diagnostics_free(s->job.diags);
	s->job.diags = NULL;
	xq_buf_release(&s->job.text);
	s->ready = 0;
}
