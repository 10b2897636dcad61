/*
 * run.c: a run of the batch: the pool set up from the configuration, the
 * workers started on threads of their own (or run on this one), the
 * output thread's loop, and what is freed at the end.
 */
#include "batch_int.h"
#include "batch.h"

#include <signal.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Smaller files are read whole: a collection of them keeps the threads
 * busy file by file, without the cost of scanning for split points. */
#define SPLIT_MIN ((int64_t)1 << 20)
/* A chunk ends at the first split point past CHUNK_GAMES games or
 * CHUNK_BYTES bytes.  Each chunk costs a unit, a segment, a reader and a
 * few wake-ups of the other threads: validate -j 2 of a 55 MB PGN (76,065
 * games) made 12,000 context switches with chunks of 16 games, 3,600 with
 * 64, and ran 0.67 s against 0.60 s (quiet machine, four runs each); 128
 * gave no more.  Since the workers emit (no wake-up per chunk), chunks of
 * 32 games cost 1-2% more CPU time than 64, and 128 no less (twice 11
 * paired runs each).  Four chunks fill a ring. */
#define CHUNK_GAMES 64
#define CHUNK_BYTES ((uint64_t)256 << 10)
/* Late numbering (xq_batch_config.late_numbers): a chunk ends at the first
 * boundary this many bytes on, about what 64 games take. */
#define CHUNK_LATE ((uint64_t)48 << 10)
/* The most free memory a thread's heap keeps at its top (see tune_malloc). */
#define TOP_PAD_MAX ((uint64_t)64 << 20)

/* A worker thread, with the signals sent to the process blocked (a
 * program's handlers run on its own threads: <xq/batch.h>). */
static int thread_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
	static const int process_signals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGALRM,
					      SIGCHLD, SIGUSR1, SIGUSR2, SIGWINCH};
	sigset_t block, old;
	int rc;

	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(process_signals) / sizeof(process_signals[0]); i++)
		sigaddset(&block, process_signals[i]);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	rc = pthread_create(t, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* The next unit with jobs to emit (under mu); NULL at the end of the run. */
static struct unit *next_ready(struct pool *p)
{
	for (;;) {
		struct unit *u = NULL;
		int ow;

		if (p->stop)
			return NULL;
		if (p->out_seq < p->next_seq) {
			u = unit_at(p, p->out_seq);
			if (atomic_load(&p->w[u->owner].count) > 0)
				return u;
		} else if (p->listing_done && !p->feed) {
			return NULL;
		}
		/* Wait for the worker that has unit out_seq, or for any worker
		 * while no one has taken it yet; said before looking again, as
		 * a worker counts a job before it looks (wake_output). */
		ow = u ? u->owner + 1 : -1;
		atomic_store(&p->out_waiting, ow);
		if (u && atomic_load(&p->w[u->owner].count) > 0) {
			atomic_store(&p->out_waiting, 0);
			return u;
		}
		pthread_cond_wait(&p->cond, &p->mu);
		atomic_store(&p->out_waiting, 0);
	}
}

/* The output thread: emit what no worker emits, until the end. */
static void output_loop(struct pool *p)
{
	pthread_mutex_lock(&p->mu);
	while (next_ready(p)) {
		pthread_mutex_unlock(&p->mu);
		xqi_batch_emit_ready(p);
		pthread_mutex_lock(&p->mu);
		if (atomic_load(&p->emitting) && !p->stop) {
			/* A worker emits: it will see `want`.  Wait a little
			 * rather than look again and again meanwhile. */
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 1000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&p->cond, &p->mu, &ts);
		}
	}
	pthread_mutex_unlock(&p->mu);
}

/* The command's state of each worker: 0, or what a worker_init returned
 * (the workers made before it are finished). */
static int init_workers(struct pool *p)
{
	const struct xq_batch_config *cfg = p->cfg;

	for (int i = 0; i < p->nw && cfg->worker_init; i++) {
		int rc = cfg->worker_init(cfg->ctx, i, &p->w[i].data);
		if (rc) {
			p->w[i].data = NULL;
			return rc;
		}
		p->w[i].inited = 1;
	}
	return 0;
}

static void fini_workers(struct pool *p)
{
	for (int i = 0; i < p->nw; i++)
		if (p->w[i].inited && p->cfg->worker_fini)
			p->cfg->worker_fini(p->cfg->ctx, p->w[i].data);
}

/* glibc's heap at -j 2 and more (see the comment inside). */
static void tune_malloc(const struct xq_batch_config *cfg, int n)
{
#if defined(__GLIBC__)
	/* Memory freed must go back to the system for the budget to mean
	 * anything: glibc raises its mmap threshold after big frees, and then
	 * keeps what each thread's arena once held (8 threads reading big
	 * files in turn held 8 times one).  A fixed threshold maps every
	 * allocation of SLOT_KEEP or more on its own, and unmaps it on free.
	 * One thread has one arena, which holds no more than one reading.
	 *
	 * Yet an arena that gives back all it can costs more than it saves:
	 * a worker reading many files in turn grew its heap for each big game
	 * (a tree of thousands of nodes is megabytes), gave the pages back
	 * when the game was emitted, and faulted them in again for the next:
	 * 61,000 page faults for 3,200 XQF files at -j 2 against 4,500 at
	 * -j 1, and -j 2 spent 1.67x the CPU time of -j 1.  So each arena
	 * keeps some free memory at its top (M_TOP_PAD): a quarter of the
	 * budget shared among the threads, at most TOP_PAD_MAX each, so what
	 * the arenas keep stays within the budget's quarter whatever -j is.
	 * 16 MiB a thread was too little on long runs (459,000 faults for
	 * 32,000 files at -j 2); the 32 MiB the default budget gives two
	 * threads took 14,000. */
	if (n > 1 && cfg->tune_malloc) {
		uint64_t budget = cfg->read_options.max_memory ? cfg->read_options.max_memory
							       : XQ_MEMORY_DEFAULT;
		uint64_t pad = budget / 4 / (uint64_t)n;
		mallopt(M_MMAP_THRESHOLD, (int)SLOT_KEEP);
		mallopt(M_TOP_PAD, (int)(pad < TOP_PAD_MAX ? pad : TOP_PAD_MAX));
	}
#else
	(void)cfg;
	(void)n;
#endif
}

/* Run the workers on threads of their own, and the output loop on this
 * one; XQ_ENOMEM when not even one thread starts. */
static int run_threads(struct pool *p, int n)
{
	int rc = 0, started = 0;

	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cond, NULL);
	pthread_cond_init(&p->head_cond, NULL);
	for (int i = 0; i < n; i++)
		pthread_cond_init(&p->w[i].space, NULL);
	if (p->cfg->share_process && (p->hq = calloc((size_t)n, sizeof(*p->hq)))) {
		p->share = 1;
		p->active = n;
		pthread_mutex_init(&p->hmu, NULL);
		pthread_cond_init(&p->hwork, NULL);
		pthread_cond_init(&p->hdone, NULL);
	}
	for (int i = 0; i < n; i++) {
		if (thread_create(&p->w[i].tid, xqi_batch_worker_main, &p->w[i]) != 0)
			break; /* run with the threads we have */
		p->w[i].started = 1;
		started++;
	}
	if (p->share) {
		/* Those that did not start will not read. */
		pthread_mutex_lock(&p->hmu);
		p->active -= n - started;
		if (p->active == 0)
			pthread_cond_broadcast(&p->hwork);
		pthread_mutex_unlock(&p->hmu);
	}
	if (!p->w[0].started) {
		rc = XQ_ENOMEM;
	} else {
		output_loop(p);
		pthread_mutex_lock(&p->mu);
		if (!p->listing_done || p->stop)
			xqi_batch_stop_all(p, 0);
		pthread_mutex_unlock(&p->mu);
	}
	for (int i = 0; i < n; i++)
		if (p->w[i].started)
			pthread_join(p->w[i].tid, NULL);
	/* After a stop, units may be left: free them, and their files. */
	while (p->out_seq < p->next_seq)
		xqi_batch_unit_passed(p, unit_at(p, p->out_seq));
	if (p->feed) {
		struct xq_batch_file *f = p->feed->file;
		rec_of(f)->closed = 1;
		p->feed = NULL;
		xqi_batch_file_release_if_done(f);
	}
	for (int i = 0; i < n; i++)
		pthread_cond_destroy(&p->w[i].space);
	pthread_cond_destroy(&p->head_cond);
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->mu);
	if (p->share) {
		pthread_cond_destroy(&p->hdone);
		pthread_cond_destroy(&p->hwork);
		pthread_mutex_destroy(&p->hmu);
	}
	free(p->hq);
	return rc;
}

/* Free what the rings' slots still hold. */
static void release_slots(struct pool *p, int n)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < RING; k++) {
			/* A slot whose set-up failed part way holds some of these. */
			free(p->w[i].slots[k].job.data);
			xqi_batch_slot_free_record(&p->w[i].slots[k].job);
			xq_diagnostics_free(p->w[i].slots[k].job.diags);
			if (p->w[i].slots[k].ready)
				xq_buf_release(&p->w[i].slots[k].job.text);
		}
}

int xqi_batch_run(const struct xq_batch_config *cfg, const atomic_int *cancel)
{
	struct pool p;
	int n, rc = 0;

	n = cfg->threads < 1 ? 1 : cfg->threads > 64 ? 64 : cfg->threads;
	memset(&p, 0, sizeof(p));
	p.cfg = cfg;
	atomic_init(&p.never_set, 0);
	p.cancel = cancel ? cancel : &p.never_set;
	p.serial = n == 1;
	tune_malloc(cfg, n);
	p.nw = n;
	p.split_min = cfg->split_min > 0 ? cfg->split_min : SPLIT_MIN;
	p.chunk_games = cfg->chunk_games ? cfg->chunk_games : CHUNK_GAMES;
	p.chunk_bytes = cfg->chunk_bytes ? cfg->chunk_bytes : CHUNK_BYTES;
	p.late = cfg->late_numbers && !(cfg->shard_by_game && cfg->shard_n > 1) && n > 1;
	p.chunk_late = cfg->chunk_bytes ? cfg->chunk_bytes : CHUNK_LATE;
	atomic_init(&p.stop, 0);
	atomic_init(&p.out_waiting, 0);
	atomic_init(&p.head_seq, 0);
	atomic_init(&p.emitting, 0);
	atomic_init(&p.want, 0);
	atomic_init(&p.split_files, 0);
	atomic_init(&p.chunks, 0);
	atomic_init(&p.fallbacks, 0);
	atomic_init(&p.gave_up, 0);
	atomic_init(&p.shared, 0);
	/* The options as the formats take them. */
	if (xqi_source_read_opts(&p.ro, &cfg->read_options) != 0 ||
	    (cfg->read_options.format && !(p.forced = xqi_format_find(cfg->read_options.format))))
		return XQ_EUNSUPPORTED;
	if (xqi_budget_init(&p.budget, p.ro.max_memory ? p.ro.max_memory
								 : XQ_MEMORY_DEFAULT))
		return XQ_ENOMEM;
	/* A signal ends a wait for memory too, whoever holds it. */
	if (cancel)
		xqi_budget_set_cancel(&p.budget, p.cancel);
	p.w = calloc((size_t)n, sizeof(*p.w));
	if (!p.w) {
		xqi_budget_release(&p.budget);
		return XQ_ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		p.w[i].pool = &p;
		p.w[i].id = i;
		atomic_init(&p.w[i].bytes, 0);
		atomic_init(&p.w[i].count, 0);
		atomic_init(&p.w[i].waiting, 0);
		atomic_init(&p.w[i].pub_mem, 0);
		atomic_init(&p.w[i].out_mem, 0);
		atomic_init(&p.w[i].unit_base, 0);
		atomic_init(&p.w[i].largest, 0);
		atomic_init(&p.w[i].allow, UINT64_MAX);
	}
	if ((rc = init_workers(&p))) {
		fini_workers(&p);
		xqi_budget_release(&p.budget);
		free(p.w);
		return rc;
	}
	if (p.serial) {
		xqi_batch_worker_main(&p.w[0]);
	} else {
		rc = run_threads(&p, n);
	}
	if (cfg->stats) {
		cfg->stats->split_files = atomic_load(&p.split_files);
		cfg->stats->chunks = atomic_load(&p.chunks);
		cfg->stats->fallbacks = atomic_load(&p.fallbacks);
		cfg->stats->gave_up = atomic_load(&p.gave_up);
		cfg->stats->shared = atomic_load(&p.shared);
	}
	if (!rc)
		rc = p.rc;
	for (int i = 0; i < n && !rc; i++)
		if (p.w[i].oom)
			rc = XQ_ENOMEM;
	release_slots(&p, n);
	fini_workers(&p);
	if (cfg->stats)
		cfg->stats->peak_reserved = p.budget.peak;
	xqi_budget_release(&p.budget);
	free(p.w);
	free(p.units);
	return rc;
}
