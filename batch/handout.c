/*
 * handout.c: handing out units: the next input (a list, or the caller's
 * function), whether to split it, a chunk of the file being split, and
 * the loop of each worker over the units it takes.
 */
#include "batch_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The end of a file of SMALL_FILE bytes or less does not wake the output
 * thread: it is woken by BATCH jobs, or by a worker about to wait or to
 * read something long (one wake-up per file would cost more than reading
 * a small one). */
#define SMALL_FILE ((int64_t)64 << 10)

/* An xq_diagnostic_fn that keeps the diagnostic in the struct xq_diagnostic at
 * `user` (the public one is the library's own). */
static void keep_diag(const xq_diagnostic *d, void *user)
{
	*(struct xq_diagnostic *)user = *(const struct xq_diagnostic *)(const void *)d;
}

/* The next input (xq_batch_next_fn), from the caller's function or list;
 * the reason an input cannot be used is kept in *why. */
static int input_after(struct pool *p, char **path, int *in_dir, struct xq_diagnostic *why)
{
	const struct xq_batch_config *cfg = p->cfg;

	if (cfg->next_input)
		return cfg->next_input(cfg->inputs, path, in_dir, keep_diag, why);
	*in_dir = 0;
	if (p->next_path >= cfg->n_paths)
		return 0;
	if (!(*path = strdup(cfg->paths[p->next_path])))
		return xqi_diagnostic_set(why, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory"), -1;
	p->next_path++;
	return 1;
}

/* Should `path` be split among the threads?  Big regular files, and inputs
 * of unknown size (standard input, pipes); never with one thread.  *size
 * is a regular file's size (-1 unknown). */
static int want_split(const struct pool *p, const char *path, int64_t *size)
{
	struct stat st;

	*size = -1;
	if (p->serial)
		return 0;
	if (is_stdin(path))
		return 1;
	if (stat(path, &st) != 0)
		return 0; /* opening it will say why */
	if (S_ISREG(st.st_mode))
		*size = (int64_t)st.st_size;
	return !S_ISREG(st.st_mode) || (int64_t)st.st_size >= p->split_min;
}

/* The next chunk of the current feed `f`, or NULL when it has no more. */
static struct unit *next_chunk(struct worker *w, struct feed *f)
{
	struct pool *p = w->pool;
	struct unit *u = NULL;

	pthread_mutex_lock(&f->mu);
	while (!f->started)
		pthread_cond_wait(&f->ready, &f->mu);
	if (f->splitter && (u = calloc(1, sizeof(*u)))) {
		u->file = f->file;
		pthread_mutex_lock(&p->mu);
		if (xqi_batch_number_unit(p, u, w)) {
			free(u);
			u = NULL;
			xqi_batch_stop_all(p, XQ_ENOMEM);
		}
		pthread_mutex_unlock(&p->mu);
		if (u)
			xqi_batch_cut_chunk(p, f, u);
	} else if (f->splitter) {
		pthread_mutex_lock(&p->mu);
		xqi_batch_stop_all(p, XQ_ENOMEM);
		pthread_mutex_unlock(&p->mu);
	}
	pthread_mutex_unlock(&f->mu);
	pthread_mutex_lock(&p->mu);
	f->users--;
	xqi_batch_file_release_if_done(f->file);
	pthread_mutex_unlock(&p->mu);
	return u;
}

/* Start feeding `u`'s file to the threads in chunks (mu held, and let go). */
static int start_feed(struct pool *p, struct unit *u)
{
	struct xq_batch_file *file = u->file;
	struct feed *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->pool = p;
	f->file = file;
	atomic_init(&f->void_from, UINT64_MAX);
	f->first_high = UINT64_MAX;
	xq_buf_init(&f->carry);
	pthread_mutex_init(&f->mu, NULL);
	pthread_mutex_init(&f->seg_mu, NULL);
	pthread_cond_init(&f->ready, NULL);
	rec_of(file)->feed = f;
	p->feed = f;
	pthread_mutex_unlock(&p->mu);
	/* Others wait for `started` to cut the next chunks. */
	pthread_mutex_lock(&f->mu);
	xqi_batch_feed_start(p, f, u);
	f->started = 1;
	pthread_cond_broadcast(&f->ready);
	pthread_mutex_unlock(&f->mu);
	return 0;
}

/*
 * The next unit for `w`: a chunk of the file being split, else the next
 * file.  NULL when there is none left or the run stops.  A unit with
 * open_failed set only reports an operand that cannot be used.
 */
static struct unit *next_unit(struct worker *w)
{
	struct pool *p = w->pool;
	struct unit *got = NULL;

	if (!p->serial)
		pthread_mutex_lock(&p->mu);
	for (;;) {
		struct xq_batch_file *file;
		struct unit *u;
		char *path = NULL;
		struct xq_diagnostic why;
		int in_dir = 0, rc;
		int64_t size = -1;

		if (p->stop)
			break;
		if (p->feed) {
			struct feed *f = p->feed;
			f->users++;
			pthread_mutex_unlock(&p->mu);
			if ((u = next_chunk(w, f)))
				return u;
			pthread_mutex_lock(&p->mu);
			continue;
		}
		if (p->listing_done)
			break;
		xqi_diagnostic_init(&why);
		rc = input_after(p, &path, &in_dir, &why);
		if (rc == 0 && atomic_load(p->cancel)) {
			xqi_batch_stop_signal(p);
			break;
		}
		if (rc == 0) {
			p->listing_done = 1;
			break;
		}
		/* --shard by input file: another shard's input is never opened. */
		if (p->cfg->shard_n > 1 && !p->cfg->shard_by_game &&
		    p->next_file % p->cfg->shard_n != p->cfg->shard_k - 1) {
			p->next_file++;
			free(path);
			continue;
		}
		file = NULL;
		u = calloc(1, sizeof(*u));
		if (u)
			file = xqi_batch_new_file(p->next_file, rc > 0 ? path : NULL, in_dir);
		else
			free(path);
		if (file) {
			u->file = file;
			if (p->serial) {
				u->seq = p->next_seq++;
				rec_of(file)->units = 1;
			} else if (xqi_batch_number_unit(p, u, w)) {
				xqi_batch_file_free(file);
				file = NULL;
			}
		}
		if (!file) {
			free(u);
			xqi_batch_stop_nomem(p);
			break;
		}
		p->next_file++;
		u->open_failed = rc < 0;
		u->why = why;
		if (rc > 0 && want_split(p, file->path, &size) && start_feed(p, u) == 0)
			return u; /* mu was let go */
		rec_of(file)->closed = 1;
		u->small = rc < 0 || (size >= 0 && size <= SMALL_FILE);
		got = u;
		break;
	}
	if (!p->serial) {
		/* The output thread may be waiting for jobs short of a batch, or
		 * for the end. */
		if (!got) {
			int ow = atomic_load(&p->out_waiting);
			if (ow == -1 || ow == w->id + 1 || p->listing_done)
				pthread_cond_signal(&p->cond);
		}
		pthread_mutex_unlock(&p->mu);
	}
	return got;
}

void *xqi_batch_worker_main(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->pool;

	for (;;) {
		struct unit *u = next_unit(w);
		if (!u)
			break;
		/* What we handed over may wait for a sleeping output thread:
		 * show it before reading something long. */
		if (!p->serial && !u->small && atomic_load(&w->count) > 0)
			xqi_batch_wake_output(w);
		w->unit_seq = u->seq;
		if (u->feed) {
			xqi_batch_read_chunk(w, u);
		} else if (!xqi_batch_read_file(w, u, u->open_failed, &u->why) && p->serial) {
			xqi_batch_file_free(u->file); /* stopping: no END job freed it */
		}
		if (w->holds)
			xqi_batch_let_go(w); /* the unit stopped short of its last job */
		if (p->serial) {
			xqi_budget_give_back(&p->budget, u->reserved);
			xqi_batch_unit_free(u); /* emitted already */
		}
	}
	if (p->share)
		xqi_batch_help(w);
	return NULL;
}
