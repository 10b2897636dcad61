/*
 * batch_int.h: what the files of the batch engine share (its structs, and
 * the functions each file gives the files above it).  The batch: units of
 * work (whole files, or chunks of a big one) read by the workers into
 * per-worker rings of game slots; the output thread empties the rings in
 * input order (see <xq/batch.h>, whose face is api/batch.c).
 *
 * One file per job, each calling only those listed before it here:
 * files.c, wake.c, units.c, slots.c, share.c, emit.c, ring.c, memory.c,
 * feed.c, chunk.c, whole.c, handout.c, run.c (batch.h: the one entry,
 * xqi_batch_run(), for api/).
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
#ifndef XQI_BATCH_INT_H
#define XQI_BATCH_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "budget.h"
#include "diagnostic.h"
#include "format.h"
#include "record.h"
#include "io.h"
#include "source.h"
#include "batch.h"
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

/* An emitted slot holding more than this frees its memory. */
#define SLOT_KEEP ((uint64_t)256 << 10)

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

static inline struct file_rec *rec_of(struct xq_batch_file *f)
{
	return (struct file_rec *)f;
}

/* Is `path` standard input? */
static inline int is_stdin(const char *path)
{
	return path[0] == '-' && path[1] == '\0';
}

static inline struct unit *unit_at(struct pool *p, uint64_t seq)
{
	return p->units[(p->units_head + (size_t)(seq - p->out_seq)) % p->units_cap];
}

/* Is chunk `u` void (a chunk before it fell back to reading sequentially)? */
static inline int voided(const struct unit *u)
{
	return u->feed && u->k >= atomic_load(&u->feed->void_from);
}

static inline size_t carry_len(const struct feed *f)
{
	return f->carry.len - f->carry_pos;
}

/* files.c: files and segments */
void xqi_batch_seg_unref(struct seg *s);
void xqi_batch_file_recognised(struct xq_batch_file *f, const struct xqi_source *src);
void xqi_batch_file_free(struct xq_batch_file *f);
void xqi_batch_file_release_if_done(struct xq_batch_file *f);
struct xq_batch_file *xqi_batch_new_file(uint64_t seq, char *path, int in_dir);

/* wake.c: waking and stopping */
void xqi_batch_stop_all(struct pool *p, int rc);
void xqi_batch_stop_canceled(struct pool *p);
void xqi_batch_stop_nomem(struct pool *p);
void xqi_batch_stop_signal(struct pool *p);
void xqi_batch_wake_output(struct worker *w);

/* units.c: units */
int xqi_batch_number_unit(struct pool *p, struct unit *u, struct worker *w);
void xqi_batch_unit_free(struct unit *u);

/* slots.c: slots and their jobs */
void xqi_batch_job_reset(const struct pool *p, struct xq_batch_job *j, struct xq_batch_file *f);
void xqi_batch_pool_sink(const struct xq_diagnostic *d, void *payload);
void xqi_batch_job_diag(struct worker *w, struct xq_batch_job *j, const struct xq_diagnostic *d);
xq_batch_file_status xqi_batch_read_status(int rc);
void xqi_batch_read_stopped(struct worker *w, struct xq_batch_job *j, int rc);
uint64_t xqi_batch_unit_inflight(struct worker *w);
int xqi_batch_over_allowance(struct worker *w);
int xqi_batch_may_go_on(struct worker *w, int wt, size_t count);
void xqi_batch_slot_free_record(struct xq_batch_job *j);
uint64_t xqi_batch_job_memory(const struct xq_batch_job *j);
void xqi_batch_slot_shrink(struct slot *s);

/* share.c: processing */
void xqi_batch_process_job(const struct xq_batch_config *cfg, void *data, struct xq_batch_job *j);
void xqi_batch_process_or_share(struct worker *w, struct xq_batch_job *j);
void xqi_batch_help(struct worker *w);
int xqi_batch_wait_processed(struct pool *p, struct slot *s);

/* emit.c: emitting in order */
int xqi_batch_emit_job(struct pool *p, struct xq_batch_job *j, struct worker *w);
void xqi_batch_unit_passed(struct pool *p, struct unit *u);
void xqi_batch_emit_ready(struct pool *p);
void xqi_batch_let_go(struct worker *w);
void xqi_batch_emit_inline(struct worker *w, int last, int batch);

/* ring.c: the ring */
struct xq_batch_job *xqi_batch_acquire(struct worker *w, struct xq_batch_file *f);
void xqi_batch_publish(struct worker *w, struct xq_batch_job *j, int wake);
void xqi_batch_publish_marker(struct worker *w, struct xq_batch_job *j);

/* memory.c: memory */
void xqi_batch_unit_reserve(struct worker *w, struct unit *u, uint64_t n);
void xqi_batch_unit_read(struct worker *w, struct unit *u);

/* feed.c: the feed */
long xqi_batch_feed_read_input(struct feed *f, size_t n, struct xq_diagnostic *d);
void xqi_batch_carry_drop(struct feed *f, uint64_t to);
uint64_t xqi_batch_first_unchecked(struct feed *f);
void xqi_batch_feed_finish(struct pool *p, struct feed *f);
void xqi_batch_cut_chunk(struct pool *p, struct feed *f, struct unit *u);
void xqi_batch_feed_start(struct pool *p, struct feed *f, struct unit *u);

/* chunk.c: reading a chunk */
void xqi_batch_read_chunk(struct worker *w, struct unit *u);

/* whole.c: reading a whole file */
int xqi_batch_read_file(struct worker *w, struct unit *u, int open_failed, const struct xq_diagnostic *why);

/* handout.c: handing out units */
void *xqi_batch_worker_main(void *arg);

#endif
