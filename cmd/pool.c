/*
 * pool.c: workers read files into per-worker rings of game slots; the
 * output thread empties the rings in input order (see pool.h).
 *
 * Ordering.  Files are handed out in input order and each worker reads
 * its files in the order it took them, so its ring holds jobs in input
 * order.  The output thread knows which worker took file k (owner[k]) and
 * takes that worker's ring head until file k's END job, then moves on to
 * file k + 1.  It never waits on a file that no worker has taken while a
 * worker is blocked: a blocked worker holds a later file, so every earlier
 * file has been taken already.
 *
 * One mutex and one condition variable guard the rings' head and count,
 * the file hand-out and the owner table; slots themselves are touched
 * without the lock, by the worker while it fills one (never the head of a
 * non-empty ring) and by the output thread while it emits the head.
 */
#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"

/* Slots per worker, and how full a ring gets before the output thread is
 * woken for it (or how empty before its worker is): waking a thread per
 * game costs more than reading a small game, so they wake by half rings. */
#define RING 16
#define BATCH (RING / 2)

struct pool;

struct worker {
	struct pool *pool;
	pthread_t tid;
	int started;
	int id;
	struct pool_job slots[RING];
	size_t head, count;   /* under pool->mu */
	struct pool_job *cur; /* the job diagnostics go to */
	struct pool_file *file;
	atomic_uint_least64_t bytes; /* stored bytes of the current file read so far */
	int oom;              /* a diagnostic could not be kept */
	pthread_cond_t space; /* signalled when its ring has room again */
	int waiting;          /* blocked on a full ring (under pool->mu) */
};

struct pool {
	const struct pool_config *cfg;
	pthread_mutex_t mu;
	pthread_cond_t cond;   /* the output thread waits here */
	int out_waiting;       /* ... for worker out_waiting - 1, or -1 for any (under mu) */
	struct worker *w;
	int nw;
	int serial;
	uint64_t next_seq; /* files handed out */
	int listing_done;
	int *owner;        /* file seq -> worker */
	size_t owner_alloc;
	int stop;
	int rc;            /* what stopped the run */
	/* output side */
	uint64_t games_out, bytes_done;
};

static void pool_sink(const struct xq_diag *d, void *payload)
{
	struct worker *w = payload;
	struct xq_diag c = *d;

	if (w->file)
		c.source = w->file->name;
	if (w->cur && diag_list_add(&w->cur->diags, &c))
		w->oom = 1;
}

static void file_free(struct pool_file *f)
{
	if (!f)
		return;
	free(f->path);
	free(f->name_buf);
	free(f);
}

static void job_reset(struct pool_job *j, struct pool_file *f)
{
	j->kind = POOL_GAME;
	j->file = f;
	xq_game_clear(&j->game);
	diag_list_clear(&j->diags);
	xq_buf_reset(&j->text);
	j->flags = 0;
	memset(j->counts, 0, sizeof(j->counts));
}

/* After emitting `j`, taken from worker `w`'s ring. */
static void progress_after(struct pool *p, const struct pool_job *j, struct worker *w)
{
	uint64_t cur = 0;

	if (j->kind == POOL_GAME)
		p->games_out++;
	else if (j->file->size > 0)
		p->bytes_done += (uint64_t)j->file->size;
	if (!p->cfg->progress)
		return;
	if (j->kind == POOL_GAME && j->file->size > 0)
		cur = atomic_load(&w->bytes);
	progress_update(p->games_out, p->bytes_done + cur);
}

/* Stop the run (under mu): wake everyone so that they notice. */
static void stop_all(struct pool *p, int rc)
{
	p->stop = 1;
	if (rc && !p->rc)
		p->rc = rc;
	pthread_cond_broadcast(&p->cond);
	for (int i = 0; i < p->nw; i++)
		pthread_cond_broadcast(&p->w[i].space);
}

/* A free slot of `w` to fill, or NULL when the run is stopping. */
static struct pool_job *acquire(struct worker *w, struct pool_file *f)
{
	struct pool *p = w->pool;
	struct pool_job *j;

	if (p->serial) {
		if (p->stop)
			return NULL;
		j = &w->slots[0];
	} else {
		pthread_mutex_lock(&p->mu);
		while (w->count == RING && !p->stop) {
			w->waiting = 1;
			pthread_cond_wait(&w->space, &p->mu);
			w->waiting = 0;
		}
		if (p->stop) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		j = &w->slots[(w->head + w->count) % RING];
		pthread_mutex_unlock(&p->mu);
	}
	job_reset(j, f);
	w->cur = j;
	return j;
}

/* Hand a filled slot to the output side. */
static void publish(struct worker *w, struct pool_job *j)
{
	struct pool *p = w->pool;

	w->cur = NULL;
	if (p->serial) {
		int rc = p->cfg->emit(p->cfg->ctx, j);
		progress_after(p, j, w);
		if (j->kind == POOL_END)
			file_free(j->file);
		if (rc) {
			p->stop = 1;
			p->rc = rc;
		}
		return;
	}
	pthread_mutex_lock(&p->mu);
	w->count++;
	/* Wake the output thread only when it sleeps: one wake-up per game
	 * would cost more than reading it. */
	if ((p->out_waiting == -1 || p->out_waiting == w->id + 1) && w->count >= BATCH)
		pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->mu);
}

/* Read every game of `f`; always publishes its END job unless stopping. */
static void read_file(struct worker *w, struct pool_file *f, int open_failed,
		      const struct xq_diag *why)
{
	struct pool *p = w->pool;
	const struct pool_config *cfg = p->cfg;
	struct xq_sink sink = {pool_sink, w};
	struct pool_job *j;
	struct source src;
	struct xq_diag d;
	int rc;

	w->file = f;
	atomic_store(&w->bytes, 0);
	if (!(j = acquire(w, f))) {
		file_free(f);
		return;
	}
	if (open_failed) {
		f->status = POOL_FILE_FAILED;
		diag_list_add(&j->diags, why);
		j->kind = POOL_END;
		publish(w, j);
		return;
	}
	xq_diag_init(&d);
	rc = source_open(&src, f->path, cfg->forced, &cfg->read_opts, &sink, &d);
	if (rc != SOURCE_OK) {
		if (rc == SOURCE_UNKNOWN && f->in_dir && !cfg->forced) {
			f->status = POOL_FILE_SKIPPED;
		} else {
			f->status = POOL_FILE_FAILED;
			d.source = f->name;
			diag_list_add(&j->diags, &d);
		}
		j->kind = POOL_END;
		publish(w, j);
		return;
	}
	f->fmt = src.fmt;
	f->binary = (src.fmt->caps & XQ_CAP_BINARY) != 0;
	f->size = xq_input_size(src.in);
	for (;;) {
		rc = src.fmt->read(src.reader, &j->game);
		atomic_store(&w->bytes, xq_input_stored_offset(src.in));
		if (rc <= 0)
			break;
		f->games++;
		j->game.source = f->name;
		if (cfg->process)
			cfg->process(cfg->ctx, j);
		publish(w, j);
		if (!(j = acquire(w, f))) {
			source_close(&src);
			w->file = NULL;
			file_free(f);
			return;
		}
	}
	if (rc < 0) {
		f->status = rc == XQ_EIO || rc == XQ_ENOMEM ? POOL_FILE_IO : POOL_FILE_DAMAGED;
		if (j->diags.n == 0) {
			xq_diag_init(&d);
			xq_diag_set(&d, 0, XQ_D_IO, XQ_SEV_ERROR, "reading stopped: %s",
				    xq_strerror(rc));
			d.source = f->name;
			diag_list_add(&j->diags, &d);
		}
	}
	/* Diagnostics of the last read and of closing belong to the END job. */
	source_close(&src);
	j->kind = POOL_END;
	w->file = NULL;
	publish(w, j);
}

static struct pool_file *new_file(uint64_t seq, char *path, int in_dir)
{
	struct pool_file *f = calloc(1, sizeof(*f));

	if (!f) {
		free(path);
		return NULL;
	}
	f->path = path;
	f->seq = seq;
	f->in_dir = in_dir;
	f->size = -1;
	f->name_buf = strdup(path && inputs_is_stdin(path) ? "<stdin>" : path ? path : "");
	if (!f->name_buf) {
		file_free(f);
		return NULL;
	}
	f->name = f->name_buf;
	return f;
}

static int set_owner(struct pool *p, uint64_t seq, int id)
{
	if (seq >= p->owner_alloc) {
		size_t cap = p->owner_alloc ? p->owner_alloc * 2 : 256;
		int *o = realloc(p->owner, cap * sizeof(*o));
		if (!o)
			return -1;
		p->owner = o;
		p->owner_alloc = cap;
	}
	p->owner[seq] = id;
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->pool;

	for (;;) {
		struct xq_diag d;
		struct pool_file *f;
		char *path = NULL;
		int in_dir = 0, rc;
		uint64_t seq;

		xq_diag_init(&d);
		if (!p->serial)
			pthread_mutex_lock(&p->mu);
		if (p->stop || p->listing_done) {
			if (!p->serial) {
				/* Jobs short of a batch may be waiting for us. */
				if (p->out_waiting == -1 || p->out_waiting == w->id + 1)
					pthread_cond_signal(&p->cond);
				pthread_mutex_unlock(&p->mu);
			}
			break;
		}
		rc = inputs_next(p->cfg->inputs, &path, &in_dir, &d);
		if (rc == 0) {
			p->listing_done = 1;
			if (!p->serial) {
				/* The output thread may be waiting for the end. */
				pthread_cond_signal(&p->cond);
				pthread_mutex_unlock(&p->mu);
			}
			break;
		}
		seq = p->next_seq;
		f = NULL;
		if (set_owner(p, seq, w->id) == 0)
			f = new_file(seq, rc > 0 ? path : NULL, in_dir);
		else
			free(path);
		if (!f) {
			if (p->serial) {
				p->stop = 1;
				p->rc = XQ_ENOMEM;
			} else {
				stop_all(p, XQ_ENOMEM);
				pthread_mutex_unlock(&p->mu);
			}
			break;
		}
		p->next_seq++;
		if (!p->serial)
			pthread_mutex_unlock(&p->mu);
		read_file(w, f, rc < 0, &d);
	}
	return NULL;
}

/* The output thread: emit every job in input order. */
static void output_loop(struct pool *p)
{
	uint64_t seq = 0;

	for (;;) {
		struct worker *w;
		struct pool_job *j;
		int rc;

		pthread_mutex_lock(&p->mu);
		for (;;) {
			if (seq < p->next_seq && p->w[p->owner[seq]].count > 0)
				break;
			if ((p->listing_done && seq >= p->next_seq) || p->stop) {
				pthread_mutex_unlock(&p->mu);
				return;
			}
			/* Wait for the worker that has file `seq`, or for any
			 * worker while no one has taken it yet. */
			p->out_waiting = seq < p->next_seq ? p->owner[seq] + 1 : -1;
			pthread_cond_wait(&p->cond, &p->mu);
			p->out_waiting = 0;
		}
		w = &p->w[p->owner[seq]];
		j = &w->slots[w->head];
		pthread_mutex_unlock(&p->mu);

		rc = p->cfg->emit(p->cfg->ctx, j);
		progress_after(p, j, w);
		if (j->kind == POOL_END) {
			file_free(j->file);
			j->file = NULL;
			seq++;
		}
		pthread_mutex_lock(&p->mu);
		w->head = (w->head + 1) % RING;
		w->count--;
		if (w->waiting && w->count <= BATCH)
			pthread_cond_signal(&w->space);
		if (rc)
			stop_all(p, rc);
		pthread_mutex_unlock(&p->mu);
		if (rc)
			return;
	}
}

int pool_run(const struct pool_config *cfg)
{
	struct pool p;
	int n = cfg->threads < 1 ? 1 : cfg->threads > 64 ? 64 : cfg->threads;
	int rc = 0;

	memset(&p, 0, sizeof(p));
	p.cfg = cfg;
	p.serial = n == 1;
	p.nw = n;
	p.w = calloc((size_t)n, sizeof(*p.w));
	if (!p.w)
		return XQ_ENOMEM;
	for (int i = 0; i < n; i++) {
		p.w[i].pool = &p;
		p.w[i].id = i;
		atomic_init(&p.w[i].bytes, 0);
		for (int k = 0; k < RING; k++) {
			if (xq_game_init(&p.w[i].slots[k].game))
				rc = XQ_ENOMEM;
			xq_buf_init(&p.w[i].slots[k].text);
		}
	}
	if (rc)
		goto out;
	if (p.serial) {
		worker_main(&p.w[0]);
	} else {
		pthread_mutex_init(&p.mu, NULL);
		pthread_cond_init(&p.cond, NULL);
		for (int i = 0; i < n; i++)
			pthread_cond_init(&p.w[i].space, NULL);
		for (int i = 0; i < n; i++) {
			if (pthread_create(&p.w[i].tid, NULL, worker_main, &p.w[i]) != 0)
				break; /* run with the threads we have */
			p.w[i].started = 1;
		}
		if (!p.w[0].started) {
			rc = XQ_ENOMEM;
		} else {
			output_loop(&p);
			pthread_mutex_lock(&p.mu);
			if (!p.listing_done || p.stop)
				stop_all(&p, 0);
			pthread_mutex_unlock(&p.mu);
		}
		for (int i = 0; i < n; i++)
			if (p.w[i].started)
				pthread_join(p.w[i].tid, NULL);
		/* After a stop, jobs may be left: free the files their END jobs hold. */
		for (int i = 0; i < n; i++)
			for (size_t k = 0; k < p.w[i].count; k++) {
				struct pool_job *j = &p.w[i].slots[(p.w[i].head + k) % RING];
				if (j->kind == POOL_END)
					file_free(j->file);
			}
		for (int i = 0; i < n; i++)
			pthread_cond_destroy(&p.w[i].space);
		pthread_cond_destroy(&p.cond);
		pthread_mutex_destroy(&p.mu);
	}
	if (!rc)
		rc = p.rc;
	for (int i = 0; i < n && !rc; i++)
		if (p.w[i].oom)
			rc = XQ_ENOMEM;
out:
	for (int i = 0; i < n; i++)
		for (int k = 0; k < RING; k++) {
			xq_game_release(&p.w[i].slots[k].game);
			diag_list_release(&p.w[i].slots[k].diags);
			xq_buf_release(&p.w[i].slots[k].text);
		}
	free(p.w);
	free(p.owner);
	return rc;
}
