/*
 * pool.h: read every game of every input on N threads, hand them to the
 * command in input order, with memory that stays flat.
 *
 * The work is cut into units, handed out in input order: a whole input
 * file, or a chunk of one.  Each worker thread takes the next unit, reads
 * its games one at a time into slots of its own small ring (each slot owns
 * a record reused for game after game, and the diagnostics that game
 * produced) and runs the command's `process` on each.  The slots are
 * taken back in input order (unit by unit, game by game) and the
 * command's `emit` runs on each, printing and writing, by one thread at a
 * time: "the output thread" below and in the commands.  That is a worker
 * whose unit is at the head of the output order (it emits its games as it
 * reads them, from memory still in its cache, and wakes no other thread),
 * or the caller's thread for what no worker emits; with share_process,
 * always the caller's.  An emit is never run by two threads at once, and
 * sees all that earlier emits wrote.  What it prints is best made by
 * `process`, in the job's text: one thread emits at a time, and what it
 * does alone bounds the speed-up.  A
 * worker whose ring is full waits, so memory is bounded by threads x ring
 * size games, never by the size of the input.  Each worker may own state
 * of the command's (worker_init, worker_fini: an engine that analyses the
 * games it reads), handed to every `process` call it makes.
 *
 * Collections of many files are read file by file in parallel.  A big
 * input in a format that can be split (format.h: PGN, NDJSON) is cut into
 * chunks of whole games at places its format's splitter finds, and the
 * workers read chunks of the same file in parallel; each chunk reader
 * gives exactly what the sequential reader gives (same games, numbers,
 * places, encoding).  A chunk that does not end where the splitter said
 * makes the rest of that input be read sequentially by its worker, from
 * the chunk's start (the games already handed over are not repeated).
 * With one thread everything is read sequentially, file by file.  With
 * share_process, the games of an input read whole are also processed by
 * the workers that have nothing left to read.
 *
 * Every input file ends with exactly one POOL_END job, after its games,
 * carrying the diagnostics of opening and closing it (or of the error that
 * stopped its reading); `file` of a job stays valid until that END job has
 * been emitted.
 */
#ifndef XQ_CMD_POOL_H
#define XQ_CMD_POOL_H

#include <stdint.h>

#include "inputs.h"
#include "report.h"
#include <xq/buf.h>
#include <xq/record.h>

enum pool_file_status {
	POOL_FILE_OK,      /* read to its end */
	POOL_FILE_SKIPPED, /* found in a directory, and no format claims it */
	POOL_FILE_FAILED,  /* could not be opened or recognised */
	POOL_FILE_DAMAGED, /* reading stopped early: damage the reader cannot step over */
	POOL_FILE_IO       /* reading stopped early on an I/O error or out of memory */
};

struct pool_file {
	char *path;         /* as found ("-" for standard input) */
	const char *name;   /* for messages: the input's name */
	const char *format; /* its format's name ("pgn"), "" until recognised */
	int binary;         /* places are byte offsets */
	int in_dir;         /* found by walking a directory */
	uint64_t seq;       /* 0-based position among the inputs */
	uint64_t games;     /* games handed to `emit` so far */
	enum pool_file_status status;
	int64_t size;       /* stored size, -1 unknown */
	int foreign;        /* --shard by game: another shard reports the file itself
			       (its status, and the diagnostics of its END job) */
	char *name_buf;
};

enum pool_job_kind { POOL_GAME, POOL_END };

struct pool_job {
	enum pool_job_kind kind;
	struct pool_file *file;
	xq_record *record;         /* POOL_GAME: the game, its source set to file->name, as
				      the public API sees it (<xq/record.h>) */
	struct diag_list diags;    /* everything reported while reading it (and by process) */
	struct xq_buf text;        /* free for the command (filled by process) */
	unsigned flags;            /* free for the command */
	uint64_t counts[4];        /* free for the command */
	void *data;                /* free for the command: pool_config.job_data bytes,
				      zeroed for each job (NULL when 0) */
	int foreign;               /* another shard's game: neither processed nor emitted */
	int late;                  /* late numbering (pool_config.late_numbers): game.number,
				      the game's line and those of its diagnostics are
				      counted from its chunk's start; put right, and this
				      cleared, before `emit` */
};

struct pool_config {
	int threads;                       /* 1..64 */
	struct inputs *inputs;
	/* How to read (<xq/io.h>): the format (--from, NULL to detect it),
	 * encoding, UCI ranks and the memory budget; the cancel flag is
	 * ignored (cmd_cancel stops every read). */
	xq_read_options read_options;
	/* On the caller's thread, for each worker in turn (id 0 .. threads - 1)
	 * before any input is read: make the worker's own state (an engine,
	 * say) in *worker, which its `process` calls get.  Non-zero stops the
	 * run before it starts: the workers made are finished and pool_run
	 * returns that value.  May be NULL (*worker is then NULL). */
	int (*worker_init)(void *ctx, int id, void **worker);
	/* After the run, on the caller's thread, for every worker whose
	 * worker_init succeeded (may be NULL). */
	void (*worker_fini)(void *ctx, void *worker);
	/* On a worker thread, for each POOL_GAME job, with that worker's own
	 * state (may be NULL). */
	void (*process)(void *ctx, void *worker, struct pool_job *job);
	/* On the output thread (one thread at a time, a worker or the
	 * caller's: see above), for every job in input order; non-zero stops
	 * the run (after the jobs already read are dropped). */
	int (*emit)(void *ctx, struct pool_job *job);
	void *ctx;
	size_t job_data;                   /* bytes of pool_job.data (0: none) */
	int progress;                      /* show progress (progress.h is started) */
	/* Splitting one input among the threads; 0 for each means the default. */
	int64_t split_min;                 /* smaller files are read whole (bytes; default 1 MiB) */
	uint64_t chunk_games;              /* games a chunk aims at (default 64) */
	uint64_t chunk_bytes;              /* or bytes, whichever comes first (default 256 KiB);
					      cut late: where a chunk's boundary is looked
					      for (default 48 KiB) */
	/* A big input may be cut without counting its games first (the
	 * format's boundary and decide, format.h), each chunk read with
	 * numbers and lines counted from its start (job->late), and those put
	 * right in job->game (number, place) and in the job's diagnostics
	 * (their game and place) before `emit`.  The command says it can take
	 * that: what `process` makes from a game's number or lines (the
	 * nodes' places are not put right) is made again or put right by
	 * `emit` when job->late was set.  Not with --shard by game, which
	 * needs the number before `process`. */
	int late_numbers;
	struct pool_stats *stats;          /* filled in by pool_run when not NULL */
	/* `process` costs much more than reading a game (an engine's
	 * analysis): the games of an input read whole (one that cannot be
	 * split) are processed by every worker that has no input left to
	 * read, not only by the one reading them.  The output is the same. */
	int share_process;
	/* --shard K/N (0 or 1 for N: no sharding).  By input file: the
	 * inputs are numbered in the order they are listed (operands, files
	 * found in directories, names of --files0-from, and the operands that
	 * cannot be used, each counted once), and input i (from 0) is read
	 * when i mod N = K - 1; the others are never opened.  By game
	 * (shard_by_game): every input is read whole, and game G of an input
	 * (its number, from 1) is processed and emitted only when
	 * (G - 1) mod N = K - 1; the games of the other shards go by unseen,
	 * with the diagnostics found reading them, so each diagnostic of a
	 * game is given by one shard.  What belongs to an input rather than
	 * to a game (its END job's diagnostics and its status) is shard 1's:
	 * the other shards get the END job with no diagnostics and
	 * file->foreign set.  Game numbers, places and input numbers stay
	 * those of the whole input. */
	uint64_t shard_k, shard_n;
	int shard_by_game;
};

/* What pool_run did, for tests and curious callers. */
struct pool_stats {
	uint64_t split_files; /* inputs cut into chunks */
	uint64_t chunks;      /* chunks cut */
	uint64_t fallbacks;   /* chunks that did not end where the splitter said */
	uint64_t gave_up;     /* inputs whose splitter stopped before their end */
	uint64_t peak_reserved; /* the most memory reserved at once (bytes) */
	uint64_t shared;      /* games processed by a worker other than their reader */
};

/* worker_init and worker_fini for a command whose workers each need a
 * position of their own (an xq_position, <xq/position.h>, is the
 * worker's state): stats' tree, dedupe's hashes. */
int pool_position_init(void *ctx, int id, void **worker);
void pool_position_fini(void *ctx, void *worker);

/* Run to the end of the inputs.  Returns 0, the non-zero value a
 * worker_init or an emit returned, XQ_ENOMEM when threads or memory could
 * not be had, XQ_EUNSUPPORTED when read_options name a format or an
 * encoding the library does not know, or
 * XQ_ECANCELED when a signal (cmd_cancel, which every read looks at)
 * stopped it.  The worker threads never take the stop signals
 * (cmd_thread_create). */
int pool_run(const struct pool_config *cfg);

/*
 * Put the game of `r` (a record the command read itself: annotate
 * --resume's earlier output) in place of the game of job `j`, and the
 * job's game into `r`: the job keeps its game number and source, so what
 * is written and reported of it is the same as if it had been read so.
 */
void pool_job_swap_game(struct pool_job *j, xq_record *r);

#endif
