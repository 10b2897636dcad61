/*
 * ring.c: a worker's ring: a free slot taken to fill (waiting for room,
 * or for memory, when there is none) and a filled one handed over to the
 * output side.
 */
#include "batch_int.h"

#include <stdlib.h>

/* A free slot of `w` to fill, or NULL when the run is stopping. */
struct xq_batch_job *xqi_batch_acquire(struct worker *w, struct xq_batch_file *f)
{
	struct pool *p = w->pool;
	struct slot *s;

	if (p->serial) {
		if (p->stop)
			return NULL;
		s = &w->slots[0];
	} else {
		if (!p->share && (atomic_load(&w->count) == RING || xqi_batch_over_allowance(w))) {
			if (w->holds)
				xqi_batch_let_go(w);
			xqi_batch_emit_ready(p);
		}
		if (atomic_load(&w->count) == RING || xqi_batch_over_allowance(w) || p->stop) {
			pthread_mutex_lock(&p->mu);
			while (!p->stop && (atomic_load(&w->count) == RING || xqi_batch_over_allowance(w))) {
				atomic_store(&w->waiting, xqi_batch_over_allowance(w) ? 2 : 1);
				/* Said before looking again: the output thread
				 * uncounts a slot before it looks at `waiting`. */
				if (atomic_load(&w->count) < RING && !xqi_batch_over_allowance(w)) {
					atomic_store(&w->waiting, 0);
					break;
				}
				/* The output thread may be waiting for a batch of
				 * ours: what we handed over must go before we can
				 * go on. */
				if (atomic_load(&p->out_waiting) == -1 ||
				    atomic_load(&p->out_waiting) == w->id + 1)
					pthread_cond_signal(&p->cond);
				pthread_cond_wait(&w->space, &p->mu);
				atomic_store(&w->waiting, 0);
			}
			if (p->stop) {
				pthread_mutex_unlock(&p->mu);
				return NULL;
			}
			pthread_mutex_unlock(&p->mu);
		}
		/* Every job handed over has been emitted: start the ring
		 * again at its first slot, whose memory is the most likely
		 * to be in the cache (the emitting thread counts a slot out
		 * after its last look at `head`). */
		if (atomic_load(&w->count) == 0)
			w->head = w->tail = 0;
		s = &w->slots[w->tail];
	}
	if (!s->ready) {
		if (p->cfg->job_data && !s->job.data)
			s->job.data = malloc(p->cfg->job_data);
		if (!s->job.record)
			s->job.record = xq_record_new();
		if (!s->job.diags)
			s->job.diags = xq_diagnostics_new();
		if ((p->cfg->job_data && !s->job.data) || !s->job.record || !s->job.diags) {
			if (p->serial) {
				p->stop = 1;
				p->rc = XQ_ENOMEM;
			} else {
				pthread_mutex_lock(&p->mu);
				xqi_batch_stop_all(p, XQ_ENOMEM);
				pthread_mutex_unlock(&p->mu);
			}
			return NULL;
		}
		xq_buf_init(&s->job.text);
		s->ready = 1;
	}
	s->marker = 0;
	xqi_batch_job_reset(p, &s->job, f);
	w->cur = &s->job;
	return &s->job;
}

/* Hand a filled slot to the output side; `wake` when the output thread
 * should see it now (the end of a unit, unless the worker reads another
 * small one of its batch next). */
void xqi_batch_publish(struct worker *w, struct xq_batch_job *j, int wake)
{
	struct pool *p = w->pool;
	struct slot *s = (struct slot *)j;
	uint64_t mem;
	size_t n;
	int last;

	w->cur = NULL;
	if (p->serial) {
		int rc = xqi_batch_emit_job(p, j, w);
		if (j->kind == XQ_BATCH_END)
			xqi_batch_file_free(j->file);
		xqi_batch_slot_shrink((struct slot *)j);
		if (rc) {
			p->stop = 1;
			p->rc = rc;
		}
		return;
	}
	/* A job a helper processes is its until the state says it is done:
	 * its memory was counted when it was handed over. */
	if (atomic_load(&s->state) == 0)
		s->mem = xqi_batch_job_memory(j);
	mem = s->mem;
	/* pub_mem and largest have one writer: this worker. */
	atomic_store_explicit(&w->pub_mem,
			      atomic_load_explicit(&w->pub_mem, memory_order_relaxed) + mem,
			      memory_order_relaxed);
	if (j->kind == XQ_BATCH_GAME && mem > atomic_load_explicit(&w->largest, memory_order_relaxed))
		atomic_store_explicit(&w->largest, mem, memory_order_relaxed);
	w->tail = (w->tail + 1) % RING;
	last = s->marker || j->kind == XQ_BATCH_END;
	/* Counting the slot hands it over (what was written before is seen
	 * by the output thread once it sees the count). */
	n = atomic_fetch_add(&w->count, 1) + 1;
	if (!p->share)
		xqi_batch_emit_inline(w, last, n >= BATCH || wake);
	/* Wake the output thread only when it sleeps, and waits for a batch
	 * or for the end of a unit: one wake-up per game would cost more
	 * than reading it. */
	if ((n >= BATCH || wake) && atomic_load(&w->count) > 0)
		xqi_batch_wake_output(w);
}

/* The marker that ends a chunk's jobs (a slot must be free: `j`). */
void xqi_batch_publish_marker(struct worker *w, struct xq_batch_job *j)
{
	((struct slot *)j)->marker = 1;
	xqi_batch_publish(w, j, 1);
}
