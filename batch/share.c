/*
 * share.c: processing a game: the command's `process` on the worker, or
 * (share_process) on a helper, a worker with nothing left to read.
 */
#include "batch_int.h"

/* --shard by game: is game job `j` another shard's?  (<xq/batch.h>) */
static int shard_foreign(const struct xq_batch_config *cfg, const struct xq_batch_job *j)
{
	return cfg->shard_by_game && cfg->shard_n > 1 && game_of(j)->number > 0 &&
	       (game_of(j)->number - 1) % cfg->shard_n != cfg->shard_k - 1;
}

/* On the worker: run the command's `process` on game job `j`, unless
 * it is another shard's. */
void xqi_batch_process_job(const struct xq_batch_config *cfg, void *data, struct xq_batch_job *j)
{
	if (shard_foreign(cfg, j))
		j->foreign = 1;
	else if (cfg->process)
		cfg->process(cfg->ctx, data, j);
}

/*
 * On the worker reading a whole input: process game job `j`, or hand it
 * to a helper when one is idle with nothing queued for it (the reader
 * goes on reading, and processes the next game itself when every helper
 * has one).
 */
void xqi_batch_process_or_share(struct worker *w, struct xq_batch_job *j)
{
	struct pool *p = w->pool;
	struct slot *s = (struct slot *)j;

	if (p->share && !shard_foreign(p->cfg, j)) {
		pthread_mutex_lock(&p->hmu);
		if (p->hq_len < (size_t)p->idle) {
			/* Its memory as read: the helper adds to it meanwhile. */
			s->mem = xqi_batch_job_memory(j);
			atomic_store(&s->state, 1);
			p->hq[(p->hq_head + p->hq_len++) % (size_t)p->nw] = s;
			pthread_cond_signal(&p->hwork);
			pthread_mutex_unlock(&p->hmu);
			return;
		}
		pthread_mutex_unlock(&p->hmu);
	}
	xqi_batch_process_job(p->cfg, w->data, j);
}

/* A worker with nothing left to read: process the games readers hand
 * over, until no worker reads any more and none is queued. */
void xqi_batch_help(struct worker *w)
{
	struct pool *p = w->pool;

	pthread_mutex_lock(&p->hmu);
	p->active--;
	p->idle++;
	if (p->active == 0)
		pthread_cond_broadcast(&p->hwork);
	while (!p->stop) {
		struct slot *s;
		if (p->hq_len == 0) {
			if (p->active == 0)
				break;
			pthread_cond_wait(&p->hwork, &p->hmu);
			continue;
		}
		s = p->hq[p->hq_head];
		p->hq_head = (p->hq_head + 1) % (size_t)p->nw;
		p->hq_len--;
		atomic_store(&s->state, 2);
		pthread_mutex_unlock(&p->hmu);
		xqi_batch_process_job(p->cfg, w->data, &s->job);
		atomic_fetch_add(&p->shared, 1);
		pthread_mutex_lock(&p->hmu);
		/* Stored last: the output thread emits the job once it sees 0. */
		atomic_store(&s->state, 0);
		if (p->out_hwait)
			pthread_cond_signal(&p->hdone);
	}
	p->idle--;
	pthread_mutex_unlock(&p->hmu);
}

/* On the output thread: wait until slot `s` is processed; 0 when the run
 * stops first. */
int xqi_batch_wait_processed(struct pool *p, struct slot *s)
{
	int ok;

	pthread_mutex_lock(&p->hmu);
	while (atomic_load(&s->state) != 0 && !p->stop) {
		p->out_hwait = 1;
		pthread_cond_wait(&p->hdone, &p->hmu);
	}
	p->out_hwait = 0;
	ok = !p->stop;
	pthread_mutex_unlock(&p->hmu);
	return ok;
}
