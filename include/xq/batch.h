/*
 * <xq/batch.h>: every game of many inputs, read on threads, handed to the
 * caller in input order, with memory that stays flat.
 *
 * xq_batch_run() reads the inputs one after another as the caller names
 * them (xq_batch_config.next_input, or a plain list of paths), on N
 * threads.  The work is cut into units, handed out in input order: a
 * whole input, or a chunk of one.  Each worker thread takes the next
 * unit, reads its games one at a time into slots of its own small ring
 * (each slot owns a record reused for game after game, and the
 * diagnostics that game produced) and runs the caller's `process` on
 * each.  The slots are taken back in input order (unit by unit, game by
 * game) and the caller's `emit` runs on each, printing and writing, by
 * one thread at a time: "the output thread" below.  That is a worker
 * whose unit is at the head of the output order (it emits its games as
 * it reads them, from memory still in its cache, and wakes no other
 * thread), or the caller's thread for what no worker emits; with
 * share_process, always the caller's.  An emit is never run by two
 * threads at once, and sees all that earlier emits wrote.  What it prints
 * is best made by `process`, in the job's text: one thread emits at a
 * time, and what it does alone bounds the speed-up.  A worker whose ring
 * is full waits, so memory is bounded by threads x ring size games, never
 * by the size of the input.  Each worker may own state of the caller's
 * (worker_init, worker_fini: an engine that analyses the games it reads),
 * handed to every `process` call it makes.
 *
 * Collections of many files are read file by file in parallel.  A big
 * input in a format that can be split (PGN, NDJSON) is cut into chunks of
 * whole games at places its format's splitter finds, and the workers read
 * chunks of the same file in parallel; each chunk reader gives exactly
 * what the sequential reader gives (same games, numbers, places,
 * encoding).  A chunk that does not end where the splitter said makes
 * the rest of that input be read sequentially by its worker, from the
 * chunk's start (the games already handed over are not repeated).  With
 * one thread everything is read sequentially, file by file, on the
 * caller's thread.  With share_process, the games of an input read whole
 * are also processed by the workers that have nothing left to read.
 *
 * Every input ends with exactly one XQ_BATCH_END job, after its games,
 * carrying the diagnostics of opening and closing it (or of the error
 * that stopped its reading); `file` of a job stays valid until that END
 * job has been emitted.
 *
 * Threads.  The threads xq_batch_run() starts block the signals sent to
 * a whole process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGCHLD,
 * SIGUSR1, SIGUSR2, SIGWINCH), so a program's handlers run on its own
 * threads; those a thread raises itself (SIGPIPE on writing to a closed
 * pipe) are left as they are.  To stop a run from a handler, set the
 * cancel flag of read_options (<xq/io.h>): every read looks at it, and
 * xq_batch_run() returns XQ_ECANCELED.  Several runs may go on at once on
 * different threads, each with its own configuration.
 */
#ifndef XQ_PUBLIC_BATCH_H
#define XQ_PUBLIC_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "error.h"
#include "io.h"
#include "record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the reading of an input ended (xq_batch_file.status). */
typedef enum xq_batch_file_status {
	XQ_BATCH_FILE_OK,      /* read to its end */
	XQ_BATCH_FILE_SKIPPED, /* found in a directory, and no format claims it */
	XQ_BATCH_FILE_FAILED,  /* could not be opened or recognised */
	XQ_BATCH_FILE_DAMAGED, /* reading stopped early: damage the reader cannot step over */
	XQ_BATCH_FILE_IO       /* reading stopped early on an I/O error or out of memory */
} xq_batch_file_status;

/* An input, as the jobs of its games see it.  Made and freed by the
 * library; the caller reads it and never changes it. */
typedef struct xq_batch_file {
	char *path;         /* as named ("-" for standard input) */
	const char *name;   /* for messages: the path, "<stdin>" for "-" */
	const char *format; /* its format's name ("pgn"), "" until recognised */
	int binary;         /* its places are byte offsets */
	int in_dir;         /* found by walking a directory (next_input said so) */
	uint64_t seq;       /* 0-based position among the inputs */
	uint64_t games;     /* games handed to `emit` so far */
	xq_batch_file_status status; /* final in its END job */
	int64_t size;       /* stored size, -1 unknown */
	int foreign;        /* shard by game: another shard reports the input itself
			       (its status, and the diagnostics of its END job) */
} xq_batch_file;

typedef enum xq_batch_job_kind { XQ_BATCH_GAME, XQ_BATCH_END } xq_batch_job_kind;

/* A game read (XQ_BATCH_GAME), or the end of an input (XQ_BATCH_END).
 * The library owns it and reuses it once `emit` has returned. */
typedef struct xq_batch_job {
	xq_batch_job_kind kind;
	xq_batch_file *file;
	xq_record *record;       /* XQ_BATCH_GAME: the game, its source set to file->name */
	xq_diagnostics *diags;   /* everything reported while reading it, and what
				    `process` adds; never NULL */
	xq_buf text;             /* free for the caller (filled by process, say) */
	unsigned flags;          /* free for the caller */
	uint64_t counts[4];      /* free for the caller */
	void *data;              /* free for the caller: xq_batch_config.job_data
				    bytes, zeroed for each job (NULL when 0) */
	int foreign;             /* another shard's game: neither processed nor emitted */
	int late;                /* late numbering (xq_batch_config.late_numbers): the
				    game's number, its line and those of its
				    diagnostics are counted from its chunk's start;
				    put right, and this cleared, before `emit` */
} xq_batch_job;

/* What xq_batch_run() did, for tests and curious callers. */
typedef struct xq_batch_stats {
	uint64_t split_files;   /* inputs cut into chunks */
	uint64_t chunks;        /* chunks cut */
	uint64_t fallbacks;     /* chunks that did not end where the splitter said */
	uint64_t gave_up;       /* inputs whose splitter stopped before their end */
	uint64_t peak_reserved; /* the most memory reserved at once (bytes) */
	uint64_t shared;        /* games processed by a worker other than their reader */
} xq_batch_stats;

/*
 * The next input, for xq_batch_run(): return 1 with a malloc'd `*path`
 * (the library frees it) and `*in_dir` set when it was found by walking a
 * directory (an input in a directory that no format claims is skipped,
 * XQ_BATCH_FILE_SKIPPED, rather than failed); 0 at the end; -1 when an
 * input named cannot be used, with the reason sent to `fn` (it becomes
 * that input's END job, XQ_BATCH_FILE_FAILED).  Called on one thread at
 * a time, in order, never again after 0.
 */
typedef int (*xq_batch_next_fn)(void *user, char **path, int *in_dir, xq_diagnostic_fn fn,
				void *fn_user);

/*
 * A run.  Start from XQ_BATCH_CONFIG_INIT: `size` lets later versions add
 * fields.  Every callback but `emit` may be NULL.
 */
typedef struct xq_batch_config {
	size_t size;                       /* sizeof(xq_batch_config) */
	int threads;                       /* 1..64 (outside: the nearest) */
	/* The inputs: next_input(inputs, ...) until it returns 0; or, when
	 * next_input is NULL, the `n_paths` paths of `paths` in order. */
	xq_batch_next_fn next_input;
	void *inputs;
	const char *const *paths;
	size_t n_paths;
	/* How to read (<xq/io.h>): the format (NULL to detect it), encoding,
	 * UCI ranks, the memory budget of the whole run (0: 256 MiB), and the
	 * cancel flag that stops the run. */
	xq_read_options read_options;
	/* Added to the message of an input no format claims ("cannot tell
	 * the format of '...'"), to say how to name one (xqkit: " (name one
	 * with --from)"); NULL: nothing. */
	const char *format_hint;
	/* On the caller's thread, for each worker in turn (id 0 .. threads - 1)
	 * before any input is read: make the worker's own state in *worker,
	 * which its `process` calls get.  Non-zero stops the run before it
	 * starts: the workers made are finished and xq_batch_run returns that
	 * value.  NULL: *worker is NULL. */
	int (*worker_init)(void *ctx, int id, void **worker);
	/* After the run, on the caller's thread, for every worker whose
	 * worker_init succeeded. */
	void (*worker_fini)(void *ctx, void *worker);
	/* On a worker thread, for each XQ_BATCH_GAME job, with that worker's
	 * own state. */
	void (*process)(void *ctx, void *worker, xq_batch_job *job);
	/* On the output thread (one thread at a time: see above), for every
	 * job in input order; non-zero stops the run (after the jobs already
	 * read are dropped) and xq_batch_run returns it. */
	int (*emit)(void *ctx, xq_batch_job *job);
	/* On the output thread after each job emitted: the games emitted so
	 * far and the bytes of input read for them (for a progress bar). */
	void (*progress)(void *ctx, uint64_t games, uint64_t bytes);
	void *ctx;
	size_t job_data;                   /* bytes of xq_batch_job.data (0: none) */
	/* Splitting one input among the threads; 0 for each means the default. */
	int64_t split_min;                 /* smaller files are read whole (bytes; default 1 MiB) */
	uint64_t chunk_games;              /* games a chunk aims at (default 64) */
	uint64_t chunk_bytes;              /* or bytes, whichever comes first (default 256 KiB);
					      cut late: where a chunk's boundary is looked
					      for (default 48 KiB) */
	/* A big input may be cut without counting its games first (at the
	 * format's boundaries: PGN, a tag line after a blank line or after
	 * move text), each chunk read with numbers and lines counted from its
	 * start (job->late), and those put right in the job's record (number,
	 * place) and diagnostics (their game and line) before `emit`.  Set it
	 * when what `process` makes from a game's number or lines (the
	 * nodes' places are not put right) is made again or put right by
	 * `emit` when job->late was set.  Not with shard_by_game, which needs
	 * the number before `process`. */
	int late_numbers;
	xq_batch_stats *stats;             /* filled in by xq_batch_run when not NULL */
	/* `process` costs much more than reading a game (an engine's
	 * analysis): the games of an input read whole (one that cannot be
	 * split) are processed by every worker that has no input left to
	 * read, not only by the one reading them.  The output is the same. */
	int share_process;
	/* Shard K of N (0 or 1 for N: no sharding).  By input: the inputs are
	 * numbered in the order they are named (those next_input could not
	 * use counted too), and input i (from 0) is read when i mod N = K - 1;
	 * the others are never opened.  By game (shard_by_game): every input
	 * is read whole, and game G of an input (its number, from 1) is
	 * processed and emitted only when (G - 1) mod N = K - 1; the games of
	 * the other shards go by unseen, with the diagnostics found reading
	 * them, so each diagnostic of a game is given by one shard.  What
	 * belongs to an input rather than to a game (its END job's
	 * diagnostics and its status) is shard 1's: the other shards get the
	 * END job with no diagnostics and file->foreign set.  Game numbers,
	 * places and input numbers stay those of the whole input. */
	uint64_t shard_k, shard_n;
	int shard_by_game;
	/* Tune the C library's allocator for this run's threads (glibc's
	 * mallopt: memory freed goes back to the system, so that the budget
	 * means what it says, and each thread's arena keeps a share of it).
	 * It changes the whole process's allocator, for good: set it only in
	 * a program that owns its process (xqkit does). */
	int tune_malloc;
} xq_batch_config;
#define XQ_BATCH_CONFIG_INIT                                                                  \
	{sizeof(xq_batch_config), 1, NULL, NULL, NULL, 0, XQ_READ_OPTIONS_INIT, NULL, NULL, NULL, \
	 NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0, NULL, 0, 0, 0, 0, 0}

/*
 * Run to the end of the inputs.  Returns 0; the non-zero value a
 * worker_init or an emit returned; XQ_ENOMEM when threads or memory
 * could not be had; XQ_EUNSUPPORTED when read_options name a format or
 * an encoding the library does not know, `size` is not one it knows, or
 * `emit` is NULL; XQ_ECANCELED when the cancel flag of read_options stopped it.
 * What went wrong with an input or a game is in its jobs' diagnostics,
 * never in the return value.  Thread-safe: each run is its own.
 * NULL `cfg`: XQ_EINVAL.
 */
XQ_API int xq_batch_run(const xq_batch_config *cfg);

/*
 * Put the game of `r` (a record the caller read itself: xqkit annotate
 * --resume's earlier output) in place of the game of job `j`, and the
 * job's game into `r`: the job keeps its game number and source, so what
 * is written and reported of it is the same as if it had been read so.
 * On the thread that holds the job (in `process` or `emit`).
 * NULL `j` or `r`: nothing done.
 */
XQ_API void xq_batch_job_swap_record(xq_batch_job *j, xq_record *r);

#ifdef __cplusplus
}
#endif

#endif
