/*
 * batch.c: units of work (whole files, or chunks of a big one) read by the
 * workers into per-worker rings of game slots; the output thread empties
 * the rings in input order (see <xq/batch.h>).
 *
 * Ordering.  Units are numbered as they are handed out, in input order:
 * the files as the operands list them and, while a file is being split,
 * its chunks in file order before the next file.  Each worker reads its
 * units in the order it took them, so its ring holds jobs in input order.
 * The output thread knows which worker took unit k and takes that
 * worker's ring head until unit k's last job (a whole file's END job, or
 * the marker that closes a chunk), then moves on to unit k + 1.  It never
 * waits on a unit that no worker has taken while a worker is blocked: a
 * blocked worker holds a later unit, so every earlier one was taken.
 *
 * Splitting.  The first worker to take a big file in a format that can be
 * split (format.h) opens it and becomes its "feed": the file's splitter
 * reads it through the feed, which keeps the bytes not yet handed out (the
 * carry).  Any worker that needs work while the feed is current cuts the
 * next chunk under the feed's lock: it asks the splitter for split points
 * until the chunk holds enough games or bytes, copies the chunk's bytes
 * (and the few after it that its reader must see) into a segment, and
 * reads it with the format's chunk reader.  A chunk is checked as it is
 * read: its games must end exactly at the next split point, and be as many
 * as the splitter counted.  If not, every later chunk of the file is
 * voided (its games are dropped unseen) and the chunk's worker reads the
 * rest of the file sequentially from the chunk's start, over the segments
 * kept for that (a segment is kept until every chunk up to it has been
 * checked), then the carry, then the input, skipping the games it had
 * handed over already.  When the splitter cannot go on (an encoding or a
 * dialect it does not follow, a record too long to hold), the rest of the
 * file is one last unit read sequentially.  Every read of the input asks
 * for as many bytes as the sequential reader would, so even where an input
 * error strikes is the same.
 *
 * Late numbering (xq_batch_config.late_numbers: validate, stats, convert): the
 * splitter's count of the games before each cut, a scan of every byte in
 * one thread, was the largest part of what -j 2 did more than -j 1.  A
 * command whose `process` puts no game number or line into text, or whose
 * `emit` puts them right, lets the feed cut at the format's boundaries
 * instead (format.h; PGN: a tag line after a blank line or after move
 * text), with nothing before them looked at but for the first byte over
 * 0x7F, which decides the encoding as a reader of the whole input would.  Each
 * such chunk is read with games and lines counted from its start and
 * checked as any chunk is (its last game must end at the boundary); its
 * jobs are numbered as they are emitted, in input order, from the games
 * emitted before them and the lines of the chunks before (late_fix).  A
 * unit that reads on to the end of the input (the last, or a chunk that
 * fell back) first waits until every unit before it has been emitted,
 * and then numbers its games as it reads them (late_absolute), so that a
 * message that names a line in its text is right too.  validate -j 2 of a
 * 55 MB PGN spent 1.08-1.11x the CPU time of -j 1 with the count,
 * 1.07-1.09x without, and ran 1.76-1.83x as fast as -j 1 with it,
 * 1.83-1.85x without (three runs of bench/validate.sh each).
 *
 * Locks.  One mutex (mu) and its condition variables guard the rings'
 * head and count, the hand-out, the unit table and the files' unit counts;
 * slots themselves are touched without the lock, by the worker while it
 * fills one (never the head of a non-empty ring) and by the output thread
 * while it emits the head.  Each feed has a mutex of its own for its
 * splitter, carry, input and segments; a worker holding it may take mu,
 * never the other way round (except on a feed that no one else can see
 * yet).  A worker finishes with a unit's feed before it publishes the
 * unit's last job, so the output thread can free a file with its feed
 * once it has passed the file's last unit.
 *
 * Emitting.  Whoever emits holds `emitting` (taken by exchange, never
 * waited for): the output thread, or a worker that has just handed over
 * a job of the unit at the head of the output order, or a batch, or a
 * unit's end.  Such a worker emits what is ready itself (unless the
 * command processes games on helpers, share_process), so the games of the
 * head unit go out as they are read, from a slot still in the cache, and
 * the output thread sleeps: validate -j 2 of a 55 MB PGN made 3,500
 * context switches with the output thread woken for every chunk, under
 * 300 without.  A thread that finds another emitting sets `want` and goes
 * on; the one emitting looks at `want` after letting go and emits again,
 * so a job handed over is never left unseen (sequentially consistent
 * atomics: the one that failed set `want` before it tried, the one
 * emitting lets go before it looks).  The output thread stays for what
 * no worker emits: jobs of a worker that waits, the end of the run.
 *
 * Memory.  The run has one budget (budget.h; --max-memory, default 256
 * MiB).  Before reading a unit, its worker reserves what reading it may
 * take (format.h: xqi_format_input_memory for a whole file, the segment
 * and one record's worth for a chunk), in unit order, waiting while the
 * memory is held by units before it; the reservation is given back when
 * the output thread has passed the unit, less what the worker no longer
 * holds once it has read it.  While it reads, a worker also waits before
 * reading another game when the games it has handed over and not yet
 * seen emitted (in flight) and one more as large as the largest so far
 * would pass its reservation.  An emitted slot holding much memory gives
 * it back to the system.  Readers keep every record within what the
 * budget allows (read_opts.max_memory), so no reservation is ever larger
 * than the budget, and waiting never depends on a later unit.
 */
#include "internal.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "budget.h"
#include "diagnostic.h"
#include "format.h"
#include "record.h"
#include "io.h"
#include "source.h"
#include <xq/batch.h>
#include <xq/memory.h>

/* Slots per worker, and how full a ring gets before the output thread is
 * woken for it (or how empty before its worker is): waking a thread per
 * game costs more than reading a small game, so they wake by quarter rings.
 * A ring holds many chunks and many small files: how far one worker can
 * get ahead while the other reads something long.  Fewer slots keep a
 * worker's games in its cache (it fills its slots in turn, each with a
 * game's memory: cachegrind counted 1,423,935 last-level misses for
 * validate -j 2 of one big PGN with 256 slots, 239,847 with 64), but the
 * slack matters more: on a quiet machine, 64 slots gave 1.55x on one 55 MB
 * PGN against 1.52x with 256, and 1.26x against 1.70x on 9,600 small XQF
 * files (convert -t ndjson: 1.37x against 1.86x). */
#define RING 256
#define BATCH (RING / 4)
/* The end of a file of SMALL_FILE bytes or less does not wake the output
 * thread: it is woken by BATCH jobs, or by a worker about to wait or to
 * read something long (one wake-up per file would cost more than reading
 * a small one). */
#define SMALL_FILE ((int64_t)64 << 10)

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
/* Bytes the carry may hold before a split point comes: beyond, the rest
 * of the file is read sequentially (one game that size is read whole). */
#define CARRY_MAX ((size_t)16 << 20)
/* An emitted slot holding more than this frees its memory. */
#define SLOT_KEEP ((uint64_t)256 << 10)
/* The most free memory a thread's heap keeps at its top (see xq_batch_run). */
#define TOP_PAD_MAX ((uint64_t)64 << 20)

struct pool;
struct feed;

/* The bytes of one chunk: [start, end) of the input, of which [start,
 * body_end) are its games and the rest what its reader must see after them. */
struct seg {
	struct seg *next;       /* the next chunk's, while the feed keeps them */
	uint64_t k;             /* the chunk's number in its file */
	uint64_t start, body_end, end;
	int refs;               /* under the feed's seg_mu */
	int checked;            /* its games ended where the splitter said (seg_mu) */
	char *data;
};

struct feed {
	pthread_mutex_t mu;
	pthread_cond_t ready;    /* the first worker has opened the file */
	int started;
	struct pool *pool;
	struct xq_batch_file *file;
	const struct xqi_split_ops *ops;
	struct xqi_source src;       /* the input and its format (no reader) */
	void *splitter;          /* NULL once the file is no longer being cut */
	int users;               /* workers about to take mu (under pool->mu) */
	/* Input bytes [carry_off, carry_off + carry.len - carry_pos) read and in no segment yet. */
	struct xq_buf carry;
	size_t carry_pos;
	uint64_t carry_off;
	int in_eof, in_rc;       /* the input ended, or failed with in_diag */
	struct xq_diagnostic in_diag;
	/* The next chunk starts at `at`. */
	uint64_t at, at_records;
	uint64_t at_line;
	enum xqi_encoding enc;    /* as the last split point said */
	uint64_t first_high;
	uint64_t nchunks;        /* chunks cut */
	/* Kept segments, from the first unchecked chunk on; the list and the
	 * segments' refs and checks are under seg_mu (taken after mu, never
	 * before), so that a worker done with its chunk never waits for the
	 * one cutting the next under mu. */
	pthread_mutex_t seg_mu;
	struct seg *head, *tail;
	atomic_uint_least64_t void_from; /* chunks numbered from it on are void */
	/* Late numbering (xq_batch_config.late_numbers): chunks are cut at the
	 * format's boundaries, and numbered as they are emitted. */
	int late;
	int late_whole;          /* late, but the input is read in order (UTF-16, or failed at once) */
	int enc_done;            /* the encoding is settled: f->enc, f->first_high */
	uint64_t scanned;        /* input bytes before it hold no byte over 0x7F */
	uint64_t searched;       /* input bytes before it hold no boundary past chunk_late */
	/* What the one emitting knows of the unit at the head: the line it
	 * starts on, and the games of the file emitted before it. */
	uint64_t head_line, head_games;
};

struct unit {
	uint64_t seq;            /* its place in the output order */
	int owner;               /* the worker that reads it */
	struct xq_batch_file *file;
	struct feed *feed;       /* NULL: the whole file, read sequentially */
	/* A whole file the feed's first worker opened already, or could not. */
	int opened, open_rc;
	struct xqi_source src;
	struct xq_diagnostic open_d;
	/* A chunk. */
	uint64_t k;              /* its number in the file */
	struct seg *seg;         /* its bytes (a reference); NULL: from the carry on */
	int final;               /* it reads to the end of the input */
	struct xqi_chunk chunk;   /* where its reader starts */
	uint64_t end, expect;    /* where its games must end, and how many */
	uint64_t end_line;
	/* Late numbering: its reader counts games and lines from the
	 * chunk's start (rel), and says where the next chunk starts, in its
	 * lines (rel_end_line). */
	int rel;
	uint64_t rel_end_line;
	uint64_t stored;         /* stored input bytes read when it was cut */
	uint64_t reserved;       /* memory it holds of the budget */
	int ticketed;            /* its turn at the budget has come */
	int small;               /* a whole file of SMALL_FILE bytes or less */
	int open_failed;         /* an operand that cannot be used: `why` says why */
	struct xq_diagnostic why;
};

/* A file and what the pool keeps about it. */
struct file_rec {
	struct xq_batch_file f;      /* first: what commands see */
	const struct xqi_format *fmt; /* NULL until recognised */
	struct feed *feed;
	uint64_t units, passed;  /* units made of it, and passed by the output (under mu) */
	int closed;              /* no more units will be made of it */
	char *name_buf;          /* f.name */
};

/* A ring slot: a job, or the marker that ends a chunk's jobs.  Its game
 * is set up when the slot is first used: most runs use few slots. */
struct slot {
	struct xq_batch_job job;
	/* share_process: 0 processed (or never to be), 1 waiting in the
	 * pool's queue for a helper, 2 being processed by one. */
	atomic_int state;
	int marker;
	int ready;
	uint64_t mem;         /* memory the job holds, counted in flight */
};

struct worker {
	struct pool *pool;
	pthread_t tid;
	int started;
	int id;
	void *data;           /* the command's, from worker_init */
	int inited;           /* worker_init succeeded */
	struct slot slots[RING];
	/* The ring is the worker's and the output thread's alone: the worker
	 * fills slot `tail` and then counts it, the output thread empties
	 * slot `head` and then uncounts it; neither takes a lock for it. */
	size_t head;          /* the output thread's */
	size_t tail;          /* the worker's */
	atomic_size_t count;  /* slots filled and not yet emitted */
	struct xq_batch_job *cur; /* the job diagnostics go to */
	uint64_t unit_seq;    /* the unit being read */
	int holds;            /* holds `emitting` while its unit is the head */
	struct xq_batch_file *file;
	atomic_uint_least64_t bytes; /* stored bytes of the current file read so far */
	int oom;              /* a diagnostic could not be kept */
	pthread_cond_t space; /* signalled (under pool->mu) when its ring has room again */
	atomic_int waiting;   /* blocked on a full ring (1), or on memory (2) */
	/* Memory of the jobs handed over (pub_mem) and emitted (out_mem)
	 * since the start, and of those handed over before the current unit
	 * (unit_base): the ring is first in, first out, so the current
	 * unit's jobs in flight hold pub_mem - max(out_mem, unit_base).
	 * Also the largest game of the current unit, and what the current
	 * unit reserved. */
	atomic_uint_least64_t pub_mem, out_mem, unit_base, largest, allow;
};

struct pool {
	const struct xq_batch_config *cfg;
	const atomic_int *cancel;            /* read_options.cancel's flag, or never_set */
	atomic_int never_set;
	size_t next_path;                    /* cfg->paths: the next to hand out */
	struct xqi_read_opts ro;              /* cfg->read_options, as the formats take them */
	const struct xqi_format *forced;      /* cfg->read_options.format, or NULL */
	pthread_mutex_t mu;
	pthread_cond_t cond;   /* the output thread waits here */
	atomic_int out_waiting; /* ... for worker out_waiting - 1, or -1 for any */
	struct worker *w;
	int nw;
	int serial;
	uint64_t next_file;    /* files handed out */
	int listing_done;
	struct feed *feed;     /* the file being cut into chunks, if any */
	/* A ring: the unit numbered seq, for seq in [out_seq, next_seq), is
	 * units[(units_head + seq - out_seq) % units_cap]. */
	struct unit **units;
	size_t units_cap, units_head;
	uint64_t next_seq, out_seq;
	atomic_uint_least64_t head_seq; /* out_seq, for a look without mu */
	/* Emitting (see the head comment): held by whoever emits, and
	 * wanted by a thread that found it held.  Workers emit unless
	 * `share` (then the output thread alone does). */
	atomic_int emitting, want;
	struct unit *emit_cur;  /* the head unit, once the one emitting has looked it up */
	int late;               /* cfg->late_numbers, unless sharding by game */
	uint64_t chunk_late;    /* bytes of a chunk cut at a boundary */
	pthread_cond_t head_cond; /* a unit has been passed (under mu) */
	atomic_int stop;       /* set under mu; read anywhere */
	int rc;                /* what stopped the run */
	int64_t split_min;
	uint64_t chunk_games, chunk_bytes;
	struct xqi_budget budget;
	/* share_process: games read and handed to helpers to process. */
	int share;
	pthread_mutex_t hmu;   /* guards what follows; taken after mu, never before */
	pthread_cond_t hwork;  /* a helper waits for a game */
	pthread_cond_t hdone;  /* the output thread waits for a game processed */
	struct slot **hq;      /* a ring of nw games waiting */
	size_t hq_head, hq_len;
	int idle;              /* helpers: workers with nothing left to read */
	int active;            /* workers not helping yet */
	int out_hwait;         /* the output thread waits on hdone */
	atomic_uint_least64_t shared;
	/* output side */
	uint64_t games_out, bytes_done;
	atomic_uint_least64_t split_files, chunks, fallbacks, gave_up; /* xq_batch_stats */
};

/* What an input no format recognises is told (xq_batch_config.format_hint). */
#define FROM_HINT (p->cfg->format_hint ? p->cfg->format_hint : "")

/* An xq_diagnostic_fn that keeps the diagnostic in the struct xq_diagnostic at
 * `user` (the public one is the library's own). */
static void keep_diag(const xq_diagnostic *d, void *user)
{
	*(struct xq_diagnostic *)user = *(const struct xq_diagnostic *)(const void *)d;
}

static struct file_rec *rec_of(struct xq_batch_file *f)
{
	return (struct file_rec *)f;
}

static void pool_sink(const struct xq_diagnostic *d, void *payload)
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
static void job_diag(struct worker *w, struct xq_batch_job *j, const struct xq_diagnostic *d)
{
	if (xq_diagnostics_add(j->diags, d))
		w->oom = 1;
}

/* Is `path` standard input? */
static int is_stdin(const char *path)
{
	return path[0] == '-' && path[1] == '\0';
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

/* ---- files and segments --------------------------------------------------- */

static void seg_free(struct seg *s)
{
	free(s->data);
	free(s);
}

/* Drop a reference to `s` (under the feed's lock). */
static void seg_unref(struct seg *s)
{
	if (s && --s->refs == 0)
		seg_free(s);
}

static void feed_free(struct feed *f)
{
	struct seg *s, *next;

	if (!f)
		return;
	if (f->splitter)
		f->ops->close(f->splitter);
	for (s = f->head; s; s = next) {
		next = s->next;
		seg_unref(s);
	}
	xqi_source_close(&f->src);
	xq_buf_release(&f->carry);
	pthread_cond_destroy(&f->ready);
	pthread_mutex_destroy(&f->seg_mu);
	pthread_mutex_destroy(&f->mu);
	free(f);
}

/* `f` opened as `src`, its format found: what the pool and the commands
 * know of it. */
static void file_recognised(struct xq_batch_file *f, const struct xqi_source *src)
{
	rec_of(f)->fmt = src->fmt;
	f->format = src->fmt->name;
	f->binary = (src->fmt->caps & XQ_FORMAT_BINARY) != 0;
	f->size = xqi_input_size(src->in);
}

static void file_free(struct xq_batch_file *f)
{
	if (!f)
		return;
	feed_free(rec_of(f)->feed);
	free(f->path);
	free(rec_of(f)->name_buf);
	free(f);
}

/* Free `f` once no unit of it is left and none will come (under mu). */
static void file_release_if_done(struct xq_batch_file *f)
{
	struct file_rec *r = rec_of(f);

	if (r->closed && r->passed == r->units && (!r->feed || r->feed->users == 0))
		file_free(f);
}

static struct xq_batch_file *new_file(uint64_t seq, char *path, int in_dir)
{
	struct file_rec *r = calloc(1, sizeof(*r));
	struct xq_batch_file *f;

	if (!r) {
		free(path);
		return NULL;
	}
	f = &r->f;
	f->path = path;
	f->seq = seq;
	f->in_dir = in_dir;
	f->size = -1;
	f->format = "";
	r->name_buf = strdup(path && is_stdin(path) ? "<stdin>" : path ? path : "");
	if (!r->name_buf) {
		file_free(f);
		return NULL;
	}
	f->name = r->name_buf;
	return f;
}

/* ---- the ring --------------------------------------------------------------- */

static void job_reset(const struct pool *p, struct xq_batch_job *j, struct xq_batch_file *f)
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

/* The game of job `j` as the library sees it (lib/record.h: the record's
 * own), or NULL for a job without one. */
static struct xqi_record *game_of(const struct xq_batch_job *j)
{
	return j->record ? &j->record->g : NULL;
}

/* --shard by game: is game job `j` another shard's?  (<xq/batch.h>) */
static int shard_foreign(const struct xq_batch_config *cfg, const struct xq_batch_job *j)
{
	return cfg->shard_by_game && cfg->shard_n > 1 && game_of(j)->number > 0 &&
	       (game_of(j)->number - 1) % cfg->shard_n != cfg->shard_k - 1;
}

/* On the worker: run the command's `process` on game job `j`, unless
 * it is another shard's. */
static void process_job(const struct xq_batch_config *cfg, void *data, struct xq_batch_job *j)
{
	if (shard_foreign(cfg, j))
		j->foreign = 1;
	else if (cfg->process)
		cfg->process(cfg->ctx, data, j);
}

static uint64_t job_memory(const struct xq_batch_job *j);
static void emit_ready(struct pool *p);
static void emit_inline(struct worker *w, int last, int batch);
static void let_go(struct worker *w);

/*
 * On the worker reading a whole input: process game job `j`, or hand it
 * to a helper when one is idle with nothing queued for it (the reader
 * goes on reading, and processes the next game itself when every helper
 * has one).
 */
static void process_or_share(struct worker *w, struct xq_batch_job *j)
{
	struct pool *p = w->pool;
	struct slot *s = (struct slot *)j;

	if (p->share && !shard_foreign(p->cfg, j)) {
		pthread_mutex_lock(&p->hmu);
		if (p->hq_len < (size_t)p->idle) {
			/* Its memory as read: the helper adds to it meanwhile. */
			s->mem = job_memory(j);
			atomic_store(&s->state, 1);
			p->hq[(p->hq_head + p->hq_len++) % (size_t)p->nw] = s;
			pthread_cond_signal(&p->hwork);
			pthread_mutex_unlock(&p->hmu);
			return;
		}
		pthread_mutex_unlock(&p->hmu);
	}
	process_job(p->cfg, w->data, j);
}

/* A worker with nothing left to read: process the games readers hand
 * over, until no worker reads any more and none is queued. */
static void help(struct worker *w)
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
		process_job(p->cfg, w->data, &s->job);
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
static int wait_processed(struct pool *p, struct slot *s)
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

/* Stop the run (under mu): wake everyone so that they notice. */
static void stop_all(struct pool *p, int rc)
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
static void stop_canceled(struct pool *p)
{
	if (p->serial) {
		p->stop = 1;
		if (!p->rc)
			p->rc = XQ_ECANCELED;
		return;
	}
	pthread_mutex_lock(&p->mu);
	stop_all(p, XQ_ECANCELED);
	pthread_mutex_unlock(&p->mu);
}

/* Would one more game like the largest so far pass what `w`'s unit
 * reserved, with the jobs in flight (under mu)? */
/* Memory held by the jobs of `w`'s current unit handed over and not
 * emitted yet (those of earlier units are held to their own
 * reservations). */
static uint64_t unit_inflight(struct worker *w)
{
	uint64_t out = atomic_load(&w->out_mem), base = atomic_load(&w->unit_base);

	return atomic_load(&w->pub_mem) - (out > base ? out : base);
}

static int over_allowance(struct worker *w)
{
	uint64_t in = unit_inflight(w), allow = atomic_load(&w->allow);

	return in > 0 && allow != UINT64_MAX && in + atomic_load(&w->largest) > allow;
}

/* Wake the output thread if it sleeps waiting for `w`'s jobs, or for any
 * worker's.  It checks the rings after saying it waits (out_waiting), and
 * `w` counts a job before it looks: one of them sees the other. */
static void wake_output(struct worker *w)
{
	struct pool *p = w->pool;
	int ow = atomic_load(&p->out_waiting);

	if (ow == -1 || ow == w->id + 1) {
		pthread_mutex_lock(&p->mu);
		pthread_cond_signal(&p->cond);
		pthread_mutex_unlock(&p->mu);
	}
}

/* May the worker waiting (kind `wt`) on `w` go on? */
static int may_go_on(struct worker *w, int wt, size_t count)
{
	return (wt == 1 && count <= RING - BATCH) ||
	       (wt == 2 && count < RING && !over_allowance(w));
}

/* Free the record of a slot's job (its game). */
static void slot_free_record(struct xq_batch_job *j)
{
	xq_record_free(j->record);
	j->record = NULL;
}

/* Memory a job holds: its game, its diagnostics, the command's text. */
static uint64_t job_memory(const struct xq_batch_job *j)
{
	const struct xq_diagnostics *l = j->diags; /* the library's list (lib/diagnostic.h) */

	return xqi_record_memory(game_of(j)) + (l ? l->alloc * sizeof(*l->v) + l->strings_size : 0) +
	       j->text.alloc;
}

/* After emitting slot `s`: give its memory back to the system when it
 * holds much (acquire sets it up again). */
static void slot_shrink(struct slot *s)
{
	if (!s->ready || job_memory(&s->job) <= SLOT_KEEP)
		return;
	slot_free_record(&s->job);
	xq_diagnostics_free(s->job.diags);
	s->job.diags = NULL;
	xq_buf_release(&s->job.text);
	s->ready = 0;
}

/* A free slot of `w` to fill, or NULL when the run is stopping. */
static struct xq_batch_job *acquire(struct worker *w, struct xq_batch_file *f)
{
	struct pool *p = w->pool;
	struct slot *s;

	if (p->serial) {
		if (p->stop)
			return NULL;
		s = &w->slots[0];
	} else {
		if (!p->share && (atomic_load(&w->count) == RING || over_allowance(w))) {
			if (w->holds)
				let_go(w);
			emit_ready(p);
		}
		if (atomic_load(&w->count) == RING || over_allowance(w) || p->stop) {
			pthread_mutex_lock(&p->mu);
			while (!p->stop && (atomic_load(&w->count) == RING || over_allowance(w))) {
				atomic_store(&w->waiting, over_allowance(w) ? 2 : 1);
				/* Said before looking again: the output thread
				 * uncounts a slot before it looks at `waiting`. */
				if (atomic_load(&w->count) < RING && !over_allowance(w)) {
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
				stop_all(p, XQ_ENOMEM);
				pthread_mutex_unlock(&p->mu);
			}
			return NULL;
		}
		xq_buf_init(&s->job.text);
		s->ready = 1;
	}
	s->marker = 0;
	job_reset(p, &s->job, f);
	w->cur = &s->job;
	return &s->job;
}

static int emit_job(struct pool *p, struct xq_batch_job *j, struct worker *w)
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

/* Hand a filled slot to the output side; `wake` when the output thread
 * should see it now (the end of a unit, unless the worker reads another
 * small one of its batch next). */
static void publish(struct worker *w, struct xq_batch_job *j, int wake)
{
	struct pool *p = w->pool;
	struct slot *s = (struct slot *)j;
	uint64_t mem;
	size_t n;
	int last;

	w->cur = NULL;
	if (p->serial) {
		int rc = emit_job(p, j, w);
		if (j->kind == XQ_BATCH_END)
			file_free(j->file);
		slot_shrink((struct slot *)j);
		if (rc) {
			p->stop = 1;
			p->rc = rc;
		}
		return;
	}
	/* A job a helper processes is its until the state says it is done:
	 * its memory was counted when it was handed over. */
	if (atomic_load(&s->state) == 0)
		s->mem = job_memory(j);
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
		emit_inline(w, last, n >= BATCH || wake);
	/* Wake the output thread only when it sleeps, and waits for a batch
	 * or for the end of a unit: one wake-up per game would cost more
	 * than reading it. */
	if ((n >= BATCH || wake) && atomic_load(&w->count) > 0)
		wake_output(w);
}


/* The marker that ends a chunk's jobs (a slot must be free: `j`). */
static void publish_marker(struct worker *w, struct xq_batch_job *j)
{
	((struct slot *)j)->marker = 1;
	publish(w, j, 1);
}

/* ---- units ------------------------------------------------------------------ */

static struct unit *unit_at(struct pool *p, uint64_t seq)
{
	return p->units[(p->units_head + (size_t)(seq - p->out_seq)) % p->units_cap];
}

/* Give `u` the next place in the output order, for worker `w` (under mu). */
static int number_unit(struct pool *p, struct unit *u, struct worker *w)
{
	size_t n = (size_t)(p->next_seq - p->out_seq), cap = p->units_cap;

	if (n == cap) {
		if (XQ_ALLOC_GROW(p->units, cap + 1, p->units_cap))
			return -1;
		/* The units from the head to the old end move to the new end,
		 * so that the ring goes on from the head. */
		if (p->units_head) {
			size_t tail = cap - p->units_head;
			memmove(p->units + p->units_cap - tail, p->units + p->units_head,
				tail * sizeof(*p->units));
			p->units_head = p->units_cap - tail;
		}
	}
	u->seq = p->next_seq++;
	u->owner = w->id;
	p->units[(p->units_head + n) % p->units_cap] = u;
	rec_of(u->file)->units++;
	return 0;
}

static void unit_free(struct unit *u)
{
	if (u->opened)
		xqi_source_close(&u->src);
	free(u);
}

/* Is chunk `u` void (a chunk before it fell back to reading sequentially)? */
static int voided(const struct unit *u)
{
	return u->feed && u->k >= atomic_load(&u->feed->void_from);
}

/* ---- the feed: cutting a file into chunks ---------------------------------- */

/* Append the next `n` bytes of the input to the carry, asking the input for
 * exactly `n` as a reader would.  Returns the count, 0 at the end, or the
 * input's error (kept, and given again to whoever asks after it). */
static long feed_read_input(struct feed *f, size_t n, struct xq_diagnostic *d)
{
	long got;

	if (f->in_rc) {
		*d = f->in_diag;
		return f->in_rc;
	}
	if (f->in_eof)
		return 0;
	if (f->carry_pos > 0 && f->carry_pos >= f->carry.len / 2) {
		memmove(f->carry.ptr, f->carry.ptr + f->carry_pos, f->carry.len - f->carry_pos);
		xq_buf_truncate(&f->carry, f->carry.len - f->carry_pos);
		f->carry_pos = 0;
	}
	if (xq_buf_grow(&f->carry, n)) {
		xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
		return XQ_ENOMEM;
	}
	got = xqi_input_read(f->src.in, f->carry.ptr + f->carry.len, n, d);
	if (got < 0) {
		f->in_rc = (int)got;
		f->in_diag = *d;
		return got;
	}
	if (got == 0)
		f->in_eof = 1;
	f->carry.len += (size_t)got;
	return got;
}

/* The splitter's bytes: read on into the carry (under the feed's lock). */
static long feed_pull(void *ctx, void *buf, size_t n, struct xq_diagnostic *d)
{
	struct feed *f = ctx;
	long got = feed_read_input(f, n, d);

	if (got > 0)
		memcpy(buf, f->carry.ptr + f->carry.len - (size_t)got, (size_t)got);
	return got;
}

static size_t carry_len(const struct feed *f)
{
	return f->carry.len - f->carry_pos;
}

/* Drop the carry's bytes before input offset `to`. */
static void carry_drop(struct feed *f, uint64_t to)
{
	f->carry_pos += (size_t)(to - f->carry_off);
	f->carry_off = to;
}

/* The number of the first chunk not checked yet (mu held). */
static uint64_t first_unchecked(struct feed *f)
{
	uint64_t k;

	pthread_mutex_lock(&f->seg_mu);
	k = f->head ? f->head->k : f->nchunks;
	pthread_mutex_unlock(&f->seg_mu);
	return k;
}

/* No more chunks of this file (under the feed's lock). */
static void feed_finish(struct pool *p, struct feed *f)
{
	if (f->splitter) {
		f->ops->close(f->splitter);
		f->splitter = NULL;
	}
	if (!p->serial)
		pthread_mutex_lock(&p->mu);
	if (p->feed == f)
		p->feed = NULL;
	rec_of(f->file)->closed = 1;
	if (!p->serial)
		pthread_mutex_unlock(&p->mu);
}

/* Make `u` the chunk [f->at, end) of `f` (under the feed's lock). */
static void set_chunk(struct feed *f, struct unit *u, struct seg *s)
{
	u->feed = f;
	u->k = f->nchunks++;
	u->seg = s;
	u->chunk.name = f->file->name;
	u->chunk.offset = f->at;
	u->chunk.line = f->at_line;
	u->chunk.records = f->at_records;
	u->chunk.encoding = f->enc;
	u->chunk.first_high = f->first_high;
	u->stored = xqi_input_stored_offset(f->src.in);
}

/* A segment of the carry's first `len` bytes, kept by the feed; NULL when
 * memory is short. */
static struct seg *cut_segment(struct feed *f, size_t len, uint64_t body_end)
{
	struct seg *s = calloc(1, sizeof(*s));

	if (!s || !(s->data = malloc(len ? len : 1))) {
		free(s);
		return NULL;
	}
	memcpy(s->data, f->carry.ptr + f->carry_pos, len);
	s->k = f->nchunks;
	s->start = f->carry_off;
	s->body_end = body_end;
	s->end = f->carry_off + len;
	s->refs = 2; /* the feed's and the unit's */
	pthread_mutex_lock(&f->seg_mu);
	if (f->tail)
		f->tail->next = s;
	else
		f->head = s;
	f->tail = s;
	pthread_mutex_unlock(&f->seg_mu);
	return s;
}

static void cut_chunk_late(struct pool *p, struct feed *f, struct unit *u);

/* The last unit of the file, into `u`: to the end of the input.  `whole`
 * when every byte is in the carry (a segment of its own); else it reads
 * on from the carry and the input (an error the splitter met is met again
 * there, at the same byte). */
static void cut_last(struct pool *p, struct feed *f, struct unit *u, int whole)
{
	struct seg *s;

	atomic_fetch_add(&p->chunks, 1);
	u->final = 1;
	if (whole && (s = cut_segment(f, carry_len(f), f->carry_off + carry_len(f)))) {
		set_chunk(f, u, s);
		carry_drop(f, s->end);
	} else {
		set_chunk(f, u, NULL);
		atomic_fetch_add(&p->gave_up, 1);
	}
	feed_finish(p, f);
}

/*
 * Cut the next chunk of `f` into `u`: up to a split point past the
 * thresholds, or to the end of the input, or (when the splitter gives up
 * or no point comes within CARRY_MAX) everything left, read sequentially.
 * A feed cut late goes to cut_chunk_late().
 */
static void cut_chunk(struct pool *p, struct feed *f, struct unit *u)
{
	struct xqi_split_point pt;
	struct seg *s;
	int rc;

	if (f->late) {
		cut_chunk_late(p, f, u);
		return;
	}
	for (;;) {
		if (carry_len(f) > CARRY_MAX) {
			rc = XQ_ERANGE;
			break;
		}
		rc = f->ops->next(f->splitter, &pt);
		if (rc != 1)
			break;
		if (pt.encoding != XQI_ENC_UNKNOWN) {
			f->enc = pt.encoding;
			f->first_high = pt.first_high;
		}
		if (pt.offset <= f->at || pt.records <= f->at_records)
			continue; /* no game before it */
		if (pt.records - f->at_records < p->chunk_games && pt.offset - f->at < p->chunk_bytes)
			continue;
		s = cut_segment(f, (size_t)(pt.seen - f->carry_off), pt.offset);
		if (!s) {
			rc = XQ_ENOMEM;
			break;
		}
		set_chunk(f, u, s);
		u->end = pt.offset;
		u->end_line = pt.line;
		u->expect = pt.records - f->at_records;
		carry_drop(f, pt.offset);
		atomic_fetch_add(&p->chunks, 1);
		f->at = pt.offset;
		f->at_line = pt.line;
		f->at_records = pt.records;
		return;
	}
	cut_last(p, f, u, rc == 0);
}

/*
 * Late numbering: the first byte over 0x7F in the input's bytes before
 * carry offset `upto` decides the encoding of the chunks that hold it and
 * of every later one, as a reader of the whole input decides it.  0 when
 * the bytes before `upto` are settled; 1 when deciding needs more bytes;
 * negative when no chunk may start after it (an encoding chunks cannot
 * start in).
 */
static int late_encoding(struct feed *f, size_t upto)
{
	const unsigned char *b = (const unsigned char *)f->carry.ptr + f->carry_pos;
	size_t i = (size_t)(f->scanned > f->carry_off ? f->scanned - f->carry_off : 0);
	enum xqi_encoding enc;
	int rc;

	if (f->enc_done)
		return 0;
	while (i < upto && b[i] < 0x80)
		i++;
	if (i == upto) {
		f->scanned = f->carry_off + upto;
		return 0;
	}
	/* The carry starts where a record does: at a line's start. */
	rc = f->ops->decide((const char *)b, carry_len(f), 0, i, f->in_eof, &enc);
	if (rc <= 0)
		return rc < 0 ? rc : 1;
	f->enc = enc;
	f->first_high = f->carry_off + i;
	f->enc_done = 1;
	return 0;
}

/* Late numbering: what is known at the input's start (the feed's first
 * bytes read): an encoding given, or a byte order mark.  0 when chunks may
 * be cut late; else (UTF-16, or an input that fails at once) the input is
 * one unit read in order. */
static int late_start(struct pool *p, struct feed *f)
{
	const unsigned char *b;
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (feed_read_input(f, XQI_READ_SIZE, &d) < 0)
		return -1; /* met again by whoever reads on */
	b = (const unsigned char *)f->carry.ptr + f->carry_pos;
	if (p->ro.encoding != XQI_ENC_UNKNOWN) {
		f->enc_done = 1; /* the readers have it in their options */
	} else if (carry_len(f) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) {
		f->enc = XQI_ENC_UTF8;
		f->first_high = 0;
		f->enc_done = 1;
	} else if (carry_len(f) >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF))) {
		return -1;
	}
	return 0;
}

/*
 * Late numbering: cut the next chunk of `f` into `u` at the format's
 * first boundary p->chunk_late bytes on or further, without a look at
 * what is before; or, at the end of the input (or when no boundary comes
 * within CARRY_MAX bytes, or the encoding forbids), leave the rest to one
 * last unit, read in order and numbered as it is read.
 */
static void cut_chunk_late(struct pool *p, struct feed *f, struct unit *u)
{
	size_t at = 0, seen = 0;
	struct seg *s;
	int rc = f->late_whole ? XQ_EUNSUPPORTED : 0;

	while (rc >= 0) {
		size_t len = carry_len(f), from = (size_t)p->chunk_late;
		int found = 0;
		/* Where the last look for this chunk stopped, so that a chunk
		 * that takes many reads is not looked through again for each. */
		if (f->searched > f->carry_off + from)
			from = (size_t)(f->searched - f->carry_off);
		if (len > from) {
			found = f->ops->boundary(f->carry.ptr + f->carry_pos, len, from, f->in_eof, &at,
						 &seen) == 1;
			if (!found)
				f->searched = f->carry_off + at;
		}
		rc = late_encoding(f, found ? seen : len);
		if (rc < 0)
			break;
		if (found && rc == 0) {
			if (!(s = cut_segment(f, seen, f->carry_off + at))) {
				rc = XQ_ENOMEM;
				break;
			}
			set_chunk(f, u, s);
			u->chunk.line = 1;
			u->chunk.records = 0;
			u->rel = 1;
			u->end = f->carry_off + at;
			carry_drop(f, u->end);
			atomic_fetch_add(&p->chunks, 1);
			f->at = u->end;
			return;
		}
		if (f->in_eof || f->in_rc)
			break;
		if (len > CARRY_MAX) {
			rc = XQ_ERANGE;
			break;
		}
		{
			struct xq_diagnostic d;
			xqi_diagnostic_init(&d);
			if (feed_read_input(f, XQI_READ_SIZE, &d) < 0)
				break; /* met again by the last unit, which reads on */
		}
	}
	/* Read in order to the end, numbered as it is read (its reader
	 * waits for the units before it to be numbered). */
	cut_last(p, f, u, rc == 0 && f->in_eof && !f->in_rc);
}

/* A whole-file unit: the feed's file turned out not to be split. */
static void unit_whole(struct pool *p, struct feed *f, struct unit *u)
{
	u->feed = NULL;
	feed_finish(p, f);
}

/*
 * The first worker of a big file: open it, and cut its first chunk into
 * `u` (or leave `u` a whole-file unit when the file cannot be split).
 * Called with the feed's lock held.
 */
static void feed_start(struct pool *p, struct feed *f, struct unit *u)
{
	struct xq_batch_file *file = f->file;
	struct xqi_bytes pull = {feed_pull, f};
	int rc;

	xqi_diagnostic_init(&u->open_d);
	rc = xqi_source_open_input(&u->src, file->path, p->forced, p->cancel, FROM_HINT,
				  &u->open_d);
	u->opened = 1;
	if (rc != XQI_SOURCE_OK) {
		u->open_rc = rc;
		u->opened = 0;
		unit_whole(p, f, u);
		return;
	}
	file_recognised(file, &u->src);
	f->ops = xqi_format_split(u->src.fmt);
	if (!f->ops || f->ops->open(&f->splitter, &pull, &p->ro)) {
		f->splitter = NULL;
		unit_whole(p, f, u);
		return;
	}
	/* The input is the feed's now. */
	f->src = u->src;
	u->opened = 0;
	memset(&u->src, 0, sizeof(u->src));
	f->at_line = 1;
	f->head_line = 1;
	f->late = p->late && f->ops->boundary && f->ops->decide;
	if (f->late && late_start(p, f))
		f->late_whole = 1;
	atomic_fetch_add(&p->split_files, 1);
	cut_chunk(p, f, u);
}

/* ---- memory ------------------------------------------------------------------------ */

/* Unit `u`'s turn at the budget: reserve `n` for it (its worker waits for
 * the units before it to leave room), or only pass when `n` is 0. */
static void unit_reserve(struct worker *w, struct unit *u, uint64_t n)
{
	struct pool *p = w->pool;
	int rc;

	if (u->ticketed)
		return;
	u->ticketed = 1;
	if (n > p->budget.total)
		n = p->budget.total; /* readers keep records within the budget */
	if (p->serial) {
		if (!n)
			xqi_budget_pass(&p->budget, u->seq);
		else if (xqi_budget_reserve(&p->budget, u->seq, n) == 0)
			u->reserved = n;
		return;
	}
	rc = xqi_budget_try_reserve(&p->budget, u->seq, n);
	if (rc == 1) {
		/* Jobs handed over and not yet shown to a sleeping output
		 * thread may be what frees the memory: show them first. */
		if (!p->share)
			emit_ready(p);
		wake_output(w);
		rc = xqi_budget_reserve(&p->budget, u->seq, n);
	}
	if (rc == 0)
		u->reserved = n;
	atomic_store(&w->unit_base, atomic_load(&w->pub_mem));
	atomic_store(&w->allow, u->reserved);
	atomic_store(&w->largest, 0);
}

/* `u` has been read: keep of its reservation only what its worker's jobs
 * in flight hold, before its last job is handed over. */
static void unit_read(struct worker *w, struct unit *u)
{
	struct pool *p = w->pool;
	uint64_t keep;

	if (p->serial)
		return;
	/* The output thread may emit some meanwhile: then a little more than
	 * needed is kept, until the unit is passed. */
	keep = unit_inflight(w);
	if (keep > u->reserved)
		keep = u->reserved;
	if (keep < u->reserved)
		xqi_budget_give_back(&p->budget, u->reserved - keep);
	u->reserved = keep;
	/* Until the next unit's reservation, nothing is read: the jobs of
	 * this one are held to what it keeps, and waiting for them to be
	 * emitted before taking a slot for the next would cost a wake-up
	 * of each thread per unit. */
	atomic_store(&w->allow, UINT64_MAX);
}

/* ---- reading a chunk ------------------------------------------------------------ */

/* A chunk reader's bytes: its segment; after a fall back, the segments
 * after it, then the carry and the input. */
struct stream {
	struct feed *f;
	struct seg *seg;   /* a reference, or NULL */
	uint64_t pos;      /* input offset of the next byte */
	uint64_t k;        /* the chunk's number */
	int tail;          /* reading on to the end of the input */
};

static long stream_read(void *ctx, void *buf, size_t n, struct xq_diagnostic *d)
{
	struct stream *st = ctx;
	struct feed *f = st->f;
	struct pool *p = f->pool;
	long got;

	/* Bytes already read are a chunk's or the carry's (up to CARRY_MAX):
	 * reading them stops on a signal as reading the input does. */
	if (atomic_load(p->cancel))
		return xqi_diagnostic_set(d, XQ_ECANCELED, XQI_D_IO, XQ_SEVERITY_ERROR, "reading interrupted");

	if (st->seg && !st->tail) {
		size_t take = (size_t)(st->seg->end - st->pos);
		if (take > n)
			take = n;
		memcpy(buf, st->seg->data + (st->pos - st->seg->start), take);
		st->pos += take;
		return (long)take;
	}
	pthread_mutex_lock(&f->mu);
	while (st->seg) {
		struct seg *next;
		if (st->pos < st->seg->body_end) {
			size_t take = (size_t)(st->seg->body_end - st->pos);
			if (take > n)
				take = n;
			memcpy(buf, st->seg->data + (st->pos - st->seg->start), take);
			st->pos += take;
			pthread_mutex_unlock(&f->mu);
			return (long)take;
		}
		pthread_mutex_lock(&f->seg_mu);
		next = st->seg->next;
		if (next)
			next->refs++;
		seg_unref(st->seg);
		pthread_mutex_unlock(&f->seg_mu);
		st->seg = next;
	}
	for (;;) {
		size_t avail = carry_len(f);
		if (st->pos < f->carry_off) {
			/* The bytes were dropped: a bug, said rather than read wrong. */
			got = xqi_diagnostic_set(d, XQ_EINTERNAL, XQI_D_INTERNAL, XQ_SEVERITY_ERROR,
					  "bytes before offset %llu are no longer kept",
					  (unsigned long long)f->carry_off);
			break;
		}
		if (st->pos < f->carry_off + avail) {
			size_t take = (size_t)(f->carry_off + avail - st->pos);
			if (take > n)
				take = n;
			memcpy(buf, f->carry.ptr + f->carry_pos + (st->pos - f->carry_off), take);
			st->pos += take;
			/* The carry is this reader's alone once no chunk before it
			 * can fall back (and read these bytes again). */
			if (first_unchecked(f) >= st->k)
				carry_drop(f, st->pos);
			got = (long)take;
			break;
		}
		got = feed_read_input(f, XQI_READ_SIZE, d);
		if (got <= 0)
			break;
	}
	pthread_mutex_unlock(&f->mu);
	return got;
}

static void stream_release(struct stream *st)
{
	if (!st->seg)
		return;
	pthread_mutex_lock(&st->f->seg_mu);
	seg_unref(st->seg);
	pthread_mutex_unlock(&st->f->seg_mu);
	st->seg = NULL;
}

/* The chunk of segment `s` is checked: drop the segments no fall back can
 * need any more. */
static void chunk_checked(struct feed *f, struct seg *s)
{
	pthread_mutex_lock(&f->seg_mu);
	s->checked = 1;
	while (f->head && f->head->checked) {
		struct seg *first = f->head;
		f->head = first->next;
		if (!f->head)
			f->tail = NULL;
		seg_unref(first);
	}
	pthread_mutex_unlock(&f->seg_mu);
}

/*
 * Chunk `u` did not end where the splitter said: void the chunks after it,
 * stop cutting, and point `st` at the chunk's start to read on to the end
 * of the input.
 */
static void fall_back(struct pool *p, struct unit *u, struct stream *st)
{
	struct feed *f = u->feed;

	atomic_fetch_add(&p->fallbacks, 1);
	pthread_mutex_lock(&f->mu);
	if (atomic_load(&f->void_from) > u->k + 1)
		atomic_store(&f->void_from, u->k + 1);
	if (f->splitter)
		feed_finish(p, f);
	st->pos = u->chunk.offset;
	st->tail = 1;
	u->final = 1;
	pthread_mutex_unlock(&f->mu);
}

/* The file's END job from a chunk, unless the chunk is void (under the
 * feed's lock, so that a void chunk and the one reading on never both set
 * the file's status). */
static int chunk_end(struct unit *u, xq_batch_file_status status)
{
	int ok;

	pthread_mutex_lock(&u->feed->mu);
	ok = !voided(u);
	if (ok)
		u->file->status = status;
	pthread_mutex_unlock(&u->feed->mu);
	return ok;
}

static xq_batch_file_status read_status(int rc)
{
	if (rc >= 0)
		return XQ_BATCH_FILE_OK;
	return rc == XQ_EIO || rc == XQ_ENOMEM ? XQ_BATCH_FILE_IO : XQ_BATCH_FILE_DAMAGED;
}

/* Chunk `u`'s turn at the budget: its bytes, and its games (one record's
 * worth of them at most: the ring's games are held to it). */
static void chunk_reserve(struct worker *w, struct unit *u, const struct stream *st)
{
	const struct xqi_format *fmt = rec_of(u->file)->fmt;
	uint64_t limit = xqi_format_record_limit(fmt, &w->pool->ro);
	uint64_t span = st->seg && !st->tail ? st->seg->end - st->seg->start : limit;

	unit_reserve(w, u, (st->seg ? span : 0) +
				   xqi_format_record_memory(fmt, span < limit ? span : limit));
}

/* Reading `j`'s file stopped on error `rc`: the END job says so, unless
 * the reader said why already. */
static void read_stopped(struct worker *w, struct xq_batch_job *j, int rc)
{
	struct xq_diagnostic d;

	if (xq_diagnostics_count(j->diags))
		return;
	xqi_diagnostic_init(&d);
	xqi_diagnostic_set(&d, 0, XQI_D_IO, XQ_SEVERITY_ERROR, "reading stopped: %s", xqi_strerror(rc));
	d.source = j->file->name;
	job_diag(w, j, &d);
}

/*
 * Late numbering: unit `u`, which reads on to the end of the input (the
 * last unit, or a chunk fallen back), numbers its games and lines as it
 * reads them, from those of every unit before it: it waits until they
 * have been emitted.  A no-op for a chunk of a feed not cut late.
 */
static void late_absolute(struct worker *w, struct unit *u)
{
	struct pool *p = w->pool;
	struct feed *f = u->feed;

	if (!f->late || voided(u))
		return;
	if (w->holds)
		let_go(w);
	if (!p->share)
		emit_ready(p);
	pthread_mutex_lock(&p->mu);
	while (p->out_seq != u->seq && !p->stop) {
		/* What is ready may wait for a sleeping output thread. */
		pthread_cond_signal(&p->cond);
		pthread_cond_wait(&p->head_cond, &p->mu);
	}
	u->chunk.line = f->head_line;
	u->chunk.records = f->head_games;
	pthread_mutex_unlock(&p->mu);
	u->rel = 0;
}

/* Read chunk `u`, publishing its games, then the file's END if it is the
 * last, then the marker. */
static void read_chunk(struct worker *w, struct unit *u)
{
	struct pool *p = w->pool;
	const struct xq_batch_config *cfg = p->cfg;
	const struct xqi_format *fmt = rec_of(u->file)->fmt;
	const struct xqi_split_ops *ops = u->feed->ops;
	struct xqi_sink sink = {pool_sink, w};
	struct stream st = {u->feed, u->seg, u->chunk.offset, u->k, u->seg == NULL};
	struct xq_batch_job *j;
	void *rd = NULL;
	uint64_t handed = 0, skip = 0, count = 0;
	int rc;

	u->seg = NULL; /* the stream has its reference */
	u->chunk.bytes.read = stream_read;
	u->chunk.bytes.ctx = &st;
	chunk_reserve(w, u, &st);
	w->file = u->file;
	atomic_store(&w->bytes, u->stored);
	if (!(j = acquire(w, u->file)))
		goto out;
	if (u->final)
		late_absolute(w, u);
	for (;;) {
		if (!rd && ops->open_chunk(&rd, &u->chunk, &p->ro, &sink)) {
			rd = NULL;
			pthread_mutex_lock(&p->mu);
			stop_all(p, XQ_ENOMEM);
			pthread_mutex_unlock(&p->mu);
			goto out;
		}
		if (voided(u))
			break;
		rc = fmt->read(rd, game_of(j));
		if (rc == XQ_ECANCELED) {
			stop_canceled(p);
			goto out;
		}
		if (rc > 0) {
			struct xqi_place nx;
			int last = 0, known;
			count++;
			if (skip) {
				/* Handed over already, before the fall back. */
				skip--;
				job_reset(p, j, u->file);
				continue;
			}
			if (!u->final) {
				known = ops->chunk_next(rd, &nx);
				if (known && nx.offset == u->end && nx.col == 1 &&
				    (u->rel || nx.line == u->end_line)) {
					last = 1;
					u->rel_end_line = nx.line; /* for late numbering */
				} else if (!known || nx.offset >= u->end) {
					goto fall_back; /* the game may go on past the chunk */
				}
			}
			game_of(j)->source = u->file->name;
			j->late = u->rel;
			process_job(cfg, w->data, j);
			publish(w, j, 0);
			handed++;
			if (!(j = acquire(w, u->file)))
				goto out;
			if (!last)
				continue;
			if (u->rel || count == u->expect) {
				chunk_checked(u->feed, st.seg);
				break;
			}
			/* Right end, but not the games the splitter counted: the
			 * chunks after it are numbered wrong. */
		} else if (u->final) {
			/* The end of the input: diagnostics of this last read go
			 * with the file's END job. */
			if (rc < 0)
				read_stopped(w, j, rc);
			fmt->close_reader(rd);
			rd = NULL;
			stream_release(&st);
			if (chunk_end(u, read_status(rc))) {
				j->kind = XQ_BATCH_END;
				publish(w, j, 0);
				if (!(j = acquire(w, u->file)))
					goto out;
			}
			break;
		}
	fall_back:
		/* Read on from the chunk's start to the end of the input, over
		 * the games handed over already. */
		fall_back(p, u, &st);
		fmt->close_reader(rd);
		rd = NULL;
		job_reset(p, j, u->file);
		skip = handed;
		count = 0;
		late_absolute(w, u);
	}
	if (rd)
		fmt->close_reader(rd);
	rd = NULL;
	stream_release(&st);
	w->file = NULL;
	unit_read(w, u);
	publish_marker(w, j);
	return;
out:
	if (rd)
		fmt->close_reader(rd);
	stream_release(&st);
	w->file = NULL;
}

/* ---- reading a whole file ----------------------------------------------------- */

/* Read every game of `u`'s file; publishes its END job (and returns 1)
 * unless the run stops. */
/* Input `u` ends without a game read: its END job, in `j`, with its status
 * and the reason (NULL: none).  Every unit passes its turn at the budget
 * (the units after it wait for it): one that reads nothing, here. */
static int end_unread(struct worker *w, struct unit *u, struct xq_batch_job *j,
		      xq_batch_file_status status, const struct xq_diagnostic *why)
{
	unit_reserve(w, u, 0);
	u->file->status = status;
	if (why)
		job_diag(w, j, why);
	j->kind = XQ_BATCH_END;
	publish(w, j, !u->small);
	return 1;
}

static int read_file(struct worker *w, struct unit *u, int open_failed, const struct xq_diagnostic *why)
{
	struct pool *p = w->pool;
	struct xq_batch_file *f = u->file;
	struct xqi_sink sink = {pool_sink, w};
	struct xq_batch_job *j;
	struct xqi_source src;
	struct xq_diagnostic d;
	int rc;

	w->file = f;
	atomic_store(&w->bytes, 0);
	if (!(j = acquire(w, f)))
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
		stop_canceled(p);
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
	file_recognised(f, &src);
	unit_reserve(w, u, xqi_format_input_memory(src.fmt, src.in, &p->ro));
	for (;;) {
		rc = src.fmt->read(src.reader, game_of(j));
		atomic_store(&w->bytes, xqi_input_stored_offset(src.in));
		if (rc <= 0)
			break;
		game_of(j)->source = f->name;
		process_or_share(w, j);
		publish(w, j, 0);
		if (!(j = acquire(w, f))) {
			xqi_source_close(&src);
			w->file = NULL;
			return 0;
		}
	}
	if (rc == XQ_ECANCELED) {
		stop_canceled(p);
		xqi_source_close(&src);
		w->file = NULL;
		return 0;
	}
	if (rc < 0) {
		f->status = read_status(rc);
		read_stopped(w, j, rc);
	}
	/* Diagnostics of the last read and of closing belong to the END job. */
	xqi_source_close(&src);
	j->kind = XQ_BATCH_END;
	w->file = NULL;
	unit_read(w, u);
	publish(w, j, !u->small);
	return 1;
}

/* ---- handing out units ------------------------------------------------------ */

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
		if (number_unit(p, u, w)) {
			free(u);
			u = NULL;
			stop_all(p, XQ_ENOMEM);
		}
		pthread_mutex_unlock(&p->mu);
		if (u)
			cut_chunk(p, f, u);
	} else if (f->splitter) {
		pthread_mutex_lock(&p->mu);
		stop_all(p, XQ_ENOMEM);
		pthread_mutex_unlock(&p->mu);
	}
	pthread_mutex_unlock(&f->mu);
	pthread_mutex_lock(&p->mu);
	f->users--;
	file_release_if_done(f->file);
	pthread_mutex_unlock(&p->mu);
	return u;
}

/* Stop the run for want of memory (under mu unless serial). */
static void stop_nomem(struct pool *p)
{
	if (p->serial) {
		p->stop = 1;
		p->rc = XQ_ENOMEM;
	} else {
		stop_all(p, XQ_ENOMEM);
	}
}

/* Stop the run on a signal (under mu unless serial). */
static void stop_signal(struct pool *p)
{
	if (p->serial) {
		p->stop = 1;
		p->rc = p->rc ? p->rc : XQ_ECANCELED;
	} else {
		stop_all(p, XQ_ECANCELED);
	}
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
	feed_start(p, f, u);
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
			stop_signal(p);
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
			file = new_file(p->next_file, rc > 0 ? path : NULL, in_dir);
		else
			free(path);
		if (file) {
			u->file = file;
			if (p->serial) {
				u->seq = p->next_seq++;
				rec_of(file)->units = 1;
			} else if (number_unit(p, u, w)) {
				file_free(file);
				file = NULL;
			}
		}
		if (!file) {
			free(u);
			stop_nomem(p);
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

static void *worker_main(void *arg)
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
			wake_output(w);
		w->unit_seq = u->seq;
		if (u->feed) {
			read_chunk(w, u);
		} else if (!read_file(w, u, u->open_failed, &u->why) && p->serial) {
			file_free(u->file); /* stopping: no END job freed it */
		}
		if (w->holds)
			let_go(w); /* the unit stopped short of its last job */
		if (p->serial) {
			xqi_budget_give_back(&p->budget, u->reserved);
			unit_free(u); /* emitted already */
		}
	}
	if (p->share)
		help(w);
	return NULL;
}

/* ---- the output thread ------------------------------------------------------------ */

/* The output thread has passed unit `u` (under mu). */
static void unit_passed(struct pool *p, struct unit *u)
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
	unit_free(u);
	file_release_if_done(f);
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
	if (wt && may_go_on(w, wt, n)) {
		pthread_mutex_lock(&p->mu);
		pthread_cond_signal(&w->space);
		pthread_mutex_unlock(&p->mu);
	}
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
		if (atomic_load(&s->state) != 0 && !wait_processed(p, s))
			break; /* stopping */
		*end = u->feed ? s->marker : s->job.kind == XQ_BATCH_END;
		if (!s->marker && !voided(u)) {
			if (s->job.late)
				late_fix(u, &s->job);
			rc = emit_job(p, &s->job, w);
		}
		slot_shrink(s);
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
				unit_passed(p, u);
				p->emit_cur = NULL;
			}
			if (rc)
				stop_all(p, rc);
			pthread_mutex_unlock(&p->mu);
		}
		if (rc || !end)
			return;
	}
}

/* Emit what is ready, unless another thread is emitting: that one then
 * emits again (see the head comment). */
static void emit_ready(struct pool *p)
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
static void let_go(struct worker *w)
{
	struct pool *p = w->pool;

	w->holds = 0;
	atomic_store(&p->emitting, 0);
	if (atomic_load(&p->want))
		emit_ready(p);
}

/*
 * After worker `w` handed over a job (`last`: its unit's last; `batch`: a
 * batch, or a point where the output thread would have been woken): emit
 * what is ready when its unit is the head, or at those points.  While its
 * unit stays the head, `w` keeps `emitting` from one job to the next (no
 * atomic exchange per game), and lets go at the unit's end, or when it
 * would wait (acquire), or stops short of the end (worker_main).
 */
static void emit_inline(struct worker *w, int last, int batch)
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
	let_go(w);
}

/* The output thread: emit what no worker emits, until the end. */
static void output_loop(struct pool *p)
{
	pthread_mutex_lock(&p->mu);
	while (next_ready(p)) {
		pthread_mutex_unlock(&p->mu);
		emit_ready(p);
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
		if (thread_create(&p->w[i].tid, worker_main, &p->w[i]) != 0)
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
			stop_all(p, 0);
		pthread_mutex_unlock(&p->mu);
	}
	for (int i = 0; i < n; i++)
		if (p->w[i].started)
			pthread_join(p->w[i].tid, NULL);
	/* After a stop, units may be left: free them, and their files. */
	while (p->out_seq < p->next_seq)
		unit_passed(p, unit_at(p, p->out_seq));
	if (p->feed) {
		struct xq_batch_file *f = p->feed->file;
		rec_of(f)->closed = 1;
		p->feed = NULL;
		file_release_if_done(f);
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
			slot_free_record(&p->w[i].slots[k].job);
			xq_diagnostics_free(p->w[i].slots[k].job.diags);
			if (p->w[i].slots[k].ready)
				xq_buf_release(&p->w[i].slots[k].job.text);
		}
}

int xq_batch_run(const struct xq_batch_config *cfg)
{
	struct pool p;
	int n, rc = 0;

	if (!cfg)
		return XQ_EINVAL;
	n = cfg->threads < 1 ? 1 : cfg->threads > 64 ? 64 : cfg->threads;
	if (cfg->size != sizeof(*cfg) || !cfg->emit)
		return XQ_EUNSUPPORTED;
	memset(&p, 0, sizeof(p));
	p.cfg = cfg;
	atomic_init(&p.never_set, 0);
	p.cancel = cfg->read_options.cancel ? &cfg->read_options.cancel->flag : &p.never_set;
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
	if (cfg->read_options.cancel)
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
		worker_main(&p.w[0]);
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

void xq_batch_job_swap_record(struct xq_batch_job *j, xq_record *r)
{
	uint64_t number;
	struct xqi_record t;

	if (!j || !r)
		return;
	number = game_of(j)->number;
	t = *game_of(j);
	*game_of(j) = r->g;
	r->g = t;
	xqi_record_forget(j->record);
	xqi_record_forget(r);
	game_of(j)->number = number;
	game_of(j)->source = j->file->name;
}
