/*
 * emit.c: handing the jobs out in input order: the head unit's jobs taken
 * from its worker's ring and given to the command's `emit`, by whoever
 * holds `emitting` (a worker, or the output thread); a unit passed.
 */
#include "batch_int.h"

/* After emitting `j`, taken from worker `w`'s ring. */
static void progress_after(struct pool *p, const struct xq_batch_job *j, struct worker *w)
{
	uint64_t cur = 0;

	if (j->kind == XQ_BATCH_GAME)
		p->games_out++;
	else if (j->file->size > 0)
		p->bytes_done += (uint64_t)j->file->size;
	if (!p->cfg->progress)
		return;
	if (j->kind == XQ_BATCH_GAME && j->file->size > 0)
		cur = atomic_load(&w->bytes);
	p->cfg->progress(p->cfg->ctx, p->games_out, p->bytes_done + cur);
}

int xqi_batch_emit_job(struct pool *p, struct xq_batch_job *j, struct worker *w)
{
	const struct xq_batch_config *cfg = p->cfg;
	int rc = 0;

	/* An input read to its end without a game is an error (<xq/io.h>). */
	if (j->kind == XQ_BATCH_END && j->file->status == XQ_BATCH_FILE_OK && j->file->games == 0) {
		struct xq_diagnostic d;
		xqi_source_no_game(&d, j->file->name);
		if (xq_diagnostics_add(j->diags, &d))
			return XQ_ENOMEM;
	}
	/* --shard by game: the input itself is shard 1's (<xq/batch.h>). */
	if (j->kind == XQ_BATCH_END && cfg->shard_by_game && cfg->shard_n > 1 && cfg->shard_k != 1) {
		xq_diagnostics_truncate(j->diags, 0);
		j->file->foreign = 1;
	}
	if (!(j->kind == XQ_BATCH_GAME && j->foreign))
		rc = cfg->emit(cfg->ctx, j);

	if (j->kind == XQ_BATCH_GAME)
		j->file->games++;
	progress_after(p, j, w);
	return rc;
}

/* The output thread has passed unit `u` (under mu). */
void xqi_batch_unit_passed(struct pool *p, struct unit *u)
{
	struct xq_batch_file *f = u->file;

	if (u->feed && u->feed->late) {
		/* Where the next unit starts, for late numbering. */
		if (u->rel && !voided(u))
			u->feed->head_line += u->rel_end_line - 1;
		u->feed->head_games = f->games;
	}
	p->out_seq++;
	atomic_store(&p->head_seq, p->out_seq);
	if (p->late)
		pthread_cond_broadcast(&p->head_cond);
	p->units_head = (p->units_head + 1) % p->units_cap;
	rec_of(f)->passed++;
	xqi_budget_give_back(&p->budget, u->reserved);
	xqi_batch_unit_free(u);
	xqi_batch_file_release_if_done(f);
}

/* The output thread is done with slot `s`, the head of `w`'s ring: the
 * worker may fill it again (and go on, if it waits for room). */
static void slot_done(struct pool *p, struct worker *w, struct slot *s)
{
	uint64_t mem = s->mem;
	size_t n;
	int wt;

	s->mem = 0;
	w->head = (w->head + 1) % RING;
	/* One thread emits at a time: out_mem has one writer at a time. */
	atomic_store_explicit(&w->out_mem,
			      atomic_load_explicit(&w->out_mem, memory_order_relaxed) + mem,
			      memory_order_relaxed);
	n = atomic_fetch_sub(&w->count, 1) - 1;
	/* Looked at after uncounting: the worker says it waits before it
	 * looks at the count again. */
	wt = atomic_load(&w->waiting);
	if (wt && xqi_batch_may_go_on(w, wt, n)) {
		pthread_mutex_lock(&p->mu);
		pthread_cond_signal(&w->space);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Late numbering: job `j` of head unit `u` was numbered from its chunk's
 * start; number it from the input's, as the games before it were. */
static void late_fix(const struct unit *u, struct xq_batch_job *j)
{
	uint64_t lines = u->feed->head_line - 1, rel = game_of(j)->number, abs = j->file->games + 1;

	j->late = 0;
	game_of(j)->number = abs;
	if (game_of(j)->place.line)
		game_of(j)->place.line += lines;
	/* The library's list, put right in place (lib/diagnostic.h). */
	for (size_t i = 0; i < j->diags->n; i++) {
		struct xq_diagnostic *d = &j->diags->v[i];
		if (d->game == rel) /* a game's number is never 0 */
			d->game = abs;
		if (d->place.line)
			d->place.line += lines;
	}
}

/* Emit the jobs of head unit `u` that its worker has handed over
 * (`emitting` held); *end when `u` is done.  The emit's non-zero value,
 * or 0. */
static int emit_unit(struct pool *p, struct unit *u, int *end)
{
	struct worker *w = &p->w[u->owner];
	size_t avail;
	int rc = 0;

	*end = 0;
	for (avail = atomic_load(&w->count); avail > 0 && !*end && !rc; avail--) {
		struct slot *s = &w->slots[w->head];
		if (atomic_load(&s->state) != 0 && !xqi_batch_wait_processed(p, s))
			break; /* stopping */
		*end = u->feed ? s->marker : s->job.kind == XQ_BATCH_END;
		if (!s->marker && !voided(u)) {
			if (s->job.late)
				late_fix(u, &s->job);
			rc = xqi_batch_emit_job(p, &s->job, w);
		}
		xqi_batch_slot_shrink(s);
		slot_done(p, w, s);
	}
	return rc;
}

/* Emit every job ready, in input order (`emitting` held).  The lock is
 * taken once per unit, never per job. */
static void drain(struct pool *p)
{
	for (;;) {
		struct unit *u;
		int rc, end;

		/* Only the one emitting passes units: the head stays the
		 * head until then, and is looked up under mu once. */
		if (p->stop)
			return;
		if (!(u = p->emit_cur)) {
			pthread_mutex_lock(&p->mu);
			u = p->out_seq < p->next_seq ? unit_at(p, p->out_seq) : NULL;
			pthread_mutex_unlock(&p->mu);
			p->emit_cur = u;
		}
		if (!u || atomic_load(&p->w[u->owner].count) == 0)
			return;
		rc = emit_unit(p, u, &end);
		if (end || rc) {
			pthread_mutex_lock(&p->mu);
			if (end) {
				xqi_batch_unit_passed(p, u);
				p->emit_cur = NULL;
			}
			if (rc)
				xqi_batch_stop_all(p, rc);
			pthread_mutex_unlock(&p->mu);
		}
		if (rc || !end)
			return;
	}
}

/* Emit what is ready, unless another thread is emitting: that one then
 * emits again (see the head comment). */
void xqi_batch_emit_ready(struct pool *p)
{
	atomic_store(&p->want, 1);
	while (atomic_load(&p->want) && !atomic_exchange(&p->emitting, 1)) {
		atomic_store(&p->want, 0);
		drain(p);
		atomic_store(&p->emitting, 0);
	}
}

/* Worker `w` holds `emitting` no longer: what others wanted emitted
 * meanwhile is emitted now. */
void xqi_batch_let_go(struct worker *w)
{
	struct pool *p = w->pool;

	w->holds = 0;
	atomic_store(&p->emitting, 0);
	if (atomic_load(&p->want))
		xqi_batch_emit_ready(p);
}

/*
 * After worker `w` handed over a job (`last`: its unit's last; `batch`: a
 * batch, or a point where the output thread would have been woken): emit
 * what is ready when its unit is the head, or at those points.  While its
 * unit stays the head, `w` keeps `emitting` from one job to the next (no
 * atomic exchange per game), and lets go at the unit's end, or when it
 * would wait (acquire), or stops short of the end (worker_main).
 */
void xqi_batch_emit_inline(struct worker *w, int last, int batch)
{
	struct pool *p = w->pool;

	if (!w->holds) {
		if (!batch && !last && w->unit_seq != atomic_load(&p->head_seq))
			return;
		atomic_store(&p->want, 1);
		if (atomic_exchange(&p->emitting, 1))
			return; /* the one emitting will see `want` */
		w->holds = 1;
		atomic_store(&p->want, 0);
	}
	drain(p);
	if (!last && !p->stop && w->unit_seq == atomic_load(&p->head_seq))
		return;
	xqi_batch_let_go(w);
}
