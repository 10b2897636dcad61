/*
 * output.h: games written through the format writers, for every command
 * that writes games (convert, find).
 *
 * The options -t, -o, --name, --notation, --output-encoding,
 * --format-version, --force, --keep-broken, --verify and --strict, and
 * what they do: one output (a file, or standard output) or, with
 * -o DIR/, one file per game named from a template of tags.  A file
 * output is written to a temporary file and renamed only when the run
 * ends without an I/O error and wrote a game (<xq/file.h>; with none, no
 * file is made and one it would replace is left as it was, and a
 * directory -o DIR/ made is removed again); an existing file is refused
 * without --force, and an input is never overwritten, even with --force,
 * however it was found (cmd/inputs: inputs_guard, inputs_prescan).
 *
 * Each game is first written into memory through the target format's
 * writer: what the format cannot hold comes back as "loss" warnings for
 * that game (with --strict the game is then refused and its bytes
 * dropped), and --verify reads those exact bytes back with the format's
 * reader and compares: the moves, variations, result, comments, NAGs and
 * tags the format can hold must come back as they were (what a reported
 * loss took is not held against it), and writing the game read back must
 * give the same bytes again.  Only then do the bytes reach the output.
 *
 * A game a reader flagged broken is reported and skipped, or written up
 * to its first error with --keep-broken; it is never altered silently.
 * A game whose reader cut a variation at an error (xq_record_is_cut(): the
 * error reported with what was cut) is written, the rest of it whole;
 * --strict skips it.
 *
 * The command's own part: its option table includes output_options and
 * hands their ids to output_take(); output_check() after parsing;
 * output_prepare() before the run; output_game() on the output thread
 * for each game to write; output_finish() after it.  A command may also
 * call output_render() on the worker thread that processes the game: the
 * game is then written into memory there, in parallel, and output_game()
 * only checks, counts and puts the bytes in place.
 */
#ifndef CMD_OUTPUT_H
#define CMD_OUTPUT_H

#include <stdint.h>

#include "inputs.h"
#include "name_template.h"
#include "opt.h"
#include "report.h"
#include <xq/batch.h>
#include <xq/buf.h>
#include <xq/file.h>
#include <xq/io.h>

/* The ids of output_options: from OPT_ID_OUTPUT up. */
#define OPT_ID_OUTPUT 0x2000

extern const struct opt_spec output_options[];


struct output {
	const char *cmd;          /* the command, for messages */
	const char *to_name;      /* -t */
	const char *to;           /* the format written, as the library names it
				     ("pgn"), once output_check() found it */
	xq_write_options wopts;   /* --notation, --output-encoding, --format-version
				     (<xq/io.h>); `format` is `to` */
	const char *out_path;     /* NULL or "-": standard output */
	int out_kind;             /* XQ_FILE_NEW, _REPLACE or _DIRECT (<xq/file.h>): what
				     the single output is; kept only when a game was
				     written to it */
	int dir_mode;
	int made_dir;             /* -o DIR/ made DIR (removed again when no game was
				     written) */
	char *dir;                /* DIR (with a final '/') */
	const char *template;
	int force, keep_broken, verify, strict;
	int dry_run;              /* write nothing (convert --fix --dry-run) */
	enum { SYNC_END, SYNC_EACH, SYNC_NONE } sync; /* --sync */
	int fault_verify; /* XQ_TEST_FAULT=verify (tests only; see cmd.h) */
	int fault_named_temp; /* XQ_TEST_FAULT=named-temp: temporary files named from the start */
	const struct reporter *rep; /* -v: say what was written */
	struct inputs *inputs;    /* to ask whether a file is an input */
	/* what the format written can do (<xq/io.h>), once output_check() found it */
	unsigned caps;            /* XQ_FORMAT_* */
	const char *separator;    /* between games written apart, or NULL
				     (xq_format_separator()) */
	const char *extensions;   /* its files' (the first is the one written) */
	/* the single output (file or stdout) */
	xq_file *out;
	xq_file *mem_out;         /* the writer writes here (xq_file_open_buf());
				     drained after each game */
	struct xq_buf mem;
	xq_writer *writer;
	int writer_failed;        /* it refused a game (its close then says so too) */
	struct xq_buf prefix, suffix; /* what the writer adds around games (for --verify) */
	struct xq_buf joined;     /* a game written by output_render, after the separator */
	uint64_t apart;           /* games output_render wrote for the one output */
	xq_batch_job *cur;     /* the game being written (its writer's diagnostics) */
	struct diag_list scratch;  /* the output's writers' diagnostics about no game */
	struct name_set names;    /* the files written under DIR/ in this run */
	/* totals */
	uint64_t written, skipped, lossy, kept_broken, verified, verify_failed, seq;
	/* Games known to be in the output: of a stream or device, those before
	 * its last flush that did not fail (flush_direct()); after the run
	 * `written` says what the output holds: a file's games once it is put
	 * in place (else none), a stream's these. */
	uint64_t kept;
	struct report_stream stream;
	uint64_t cut;             /* written with a variation cut at an error */
	uint64_t broken_skipped;  /* of `skipped`: broken, without --keep-broken */
	int io_error, stop;
	int refused;              /* -o DIR/: a name was taken (a file without --force,
				     a link or a special file): exit status 2 */
	int too_many;             /* a second game for a single-game format */
	int disk_full;            /* -o DIR/: a file could not be written for want of space */
};

void output_init(struct output *o, const char *cmd);

/*
 * The exit status of find and dedupe, grep's convention (their man
 * pages): `rc` (what output_finish() or the run gave) when it is 2 or
 * more (usage, I/O, internal, a signal); else 3 after an input that could
 * not be read; 1 when nothing was found, or a game to write was not
 * written (refused by the format, --strict, --verify; not a broken one);
 * else 0.  Broken and damaged inputs are reported and change nothing.
 */
int output_grep_status(const struct output *o, const struct reporter *rep, int rc, int found);
void output_release(struct output *o);

/* 1 when `id` is one of output_options (taken), 0 when it is not, -1 on
 * a bad value (the message in p->err). */
int output_take(struct output *o, struct input_opts *in, struct opt_parser *p, int id,
		const char *value);

/* After parsing, with -t given: the format found, input_opts_check(),
 * and what the options say together.  0, or -1 with the message in
 * p->err. */
int output_check(struct output *o, struct input_opts *in, struct opt_parser *p);

/* The output, before anything is read (DIR/ made, or the file opened and
 * the writer's start written): 0, or an exit status. */
int output_prepare(struct output *o, struct inputs *inputs, const struct reporter *rep);

/* What output_render() left in a job for output_game(). */
struct output_ready {
	int ready;     /* the game was written: its bytes are in the job's text */
	int rc;        /* what the writer returned */
	size_t before; /* the job's diagnostics before the writer's */
	int verified;  /* --verify ran: 1 it passed, 2 it failed (said last in the
			  job's diagnostics, from verify_before on); 0 it did not */
	int verify_sep; /* it read the game after the format's separator */
	size_t verify_before;
	/* Late numbering (xq_batch_job.late): the game's number and line when it
	 * was written, put right by output_game through
	 * xq_format_renumber(); `defer`: its bytes are to be written by output_game,
	 * which then knows the numbers they hold (the error of a broken game
	 * names its line). */
	int late, defer;
	uint64_t number, line;
};

/*
 * On the worker thread that processes `j`, after everything that changes
 * its game: write the game into j->text with xq_record_write_buf(), its
 * diagnostics into j->diags, and say so in *r, when the bytes are those
 * the output's writer would write (-o DIR/, where each game is a document
 * of its own, or a format whose games are written apart:
 * xq_format_separator()); else r->ready is 0.  With --verify, the game is also read
 * back there (output_game reads back again only a game the output holds
 * without the separator before it: the first).  `o` is only read.  A job
 * numbered late (<xq/batch.h>) may be written there: output_game puts its
 * numbers right.
 */
void output_render(const struct output *o, xq_batch_job *j, struct output_ready *r);

/* Write the game of `j` (on the output thread, in input order): its
 * diagnostics go to j->diags; o->stop says the run must stop.  `r` is
 * what output_render() left for `j`, or NULL. */
void output_game(struct output *o, xq_batch_job *j, struct output_ready *r);

/* What an emit callback of the batch returns after its job (<xq/batch.h>):
 * 1 to stop the run (a signal came, an input turned out to be the output,
 * or o->stop was set already: o->stop is then set), else 0. */
int output_emit_status(struct output *o);

/*
 * After the run: the output put in place (or not, after a signal or when
 * an input turned out to be the output), `summary(ctx, seconds)` called
 * once the outcome is known, and the exit status: 3 on an I/O error, 1
 * when a game was skipped, an input not read or an error reported,
 * 0 otherwise.
 */
int output_finish(struct output *o, struct inputs *inputs, const struct reporter *rep,
		  void (*summary)(void *ctx, double secs), void *ctx, double t0);

#endif
