/*
 * wake.c: the threads told: the run stopped (everyone woken to notice:
 * on an error, for want of memory, on a signal), and the output thread
 * woken for a worker's jobs.
 */
#include "batch_int.h"

/* Stop the run (under mu): wake everyone so that they notice. */
void xqi_batch_stop_all(struct pool *p, int rc)
{
	p->stop = 1;
	if (rc && !p->rc)
		p->rc = rc;
	xqi_budget_cancel(&p->budget);
	pthread_cond_broadcast(&p->cond);
	if (p->late)
		pthread_cond_broadcast(&p->head_cond); /* late_absolute() */
	for (int i = 0; i < p->nw; i++)
		pthread_cond_broadcast(&p->w[i].space);
	if (p->share) {
		pthread_mutex_lock(&p->hmu);
		pthread_cond_broadcast(&p->hwork);
		pthread_cond_broadcast(&p->hdone);
		pthread_mutex_unlock(&p->hmu);
	}
}

/* A signal stopped a read (XQ_ECANCELED): stop the run.  The file gets
 * no END job: it was not read to its end. */
void xqi_batch_stop_canceled(struct pool *p)
{
	if (p->serial) {
		p->stop = 1;
		if (!p->rc)
			p->rc = XQ_ECANCELED;
		return;
	}
	pthread_mutex_lock(&p->mu);
	xqi_batch_stop_all(p, XQ_ECANCELED);
	pthread_mutex_unlock(&p->mu);
}

/* Stop the run for want of memory (under mu unless serial). */
void xqi_batch_stop_nomem(struct pool *p)
{
	if (p->serial) {
		p->stop = 1;
		p->rc = XQ_ENOMEM;
	} else {
		xqi_batch_stop_all(p, XQ_ENOMEM);
	}
}

/* Stop the run on a signal (under mu unless serial). */
void xqi_batch_stop_signal(struct pool *p)
{
	if (p->serial) {
		p->stop = 1;
		p->rc = p->rc ? p->rc : XQ_ECANCELED;
	} else {
		xqi_batch_stop_all(p, XQ_ECANCELED);
	}
}

/* Wake the output thread if it sleeps waiting for `w`'s jobs, or for any
 * worker's.  It checks the rings after saying it waits (out_waiting), and
 * `w` counts a job before it looks: one of them sees the other. */
void xqi_batch_wake_output(struct worker *w)
{
	struct pool *p = w->pool;
	int ow = atomic_load(&p->out_waiting);

	if (ow == -1 || ow == w->id + 1) {
		pthread_mutex_lock(&p->mu);
		pthread_cond_signal(&p->cond);
		pthread_mutex_unlock(&p->mu);
	}
}
