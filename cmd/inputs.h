/*
 * inputs.h: the record inputs a command was given, and opening one.
 *
 * Operands are files, directories (walked with `recursive`, in byte order
 * of the names, depth first, skipping dot files and symbolic links to
 * directories) and `-` for standard input.  The walk is lazy: only the
 * directories on the current path are held, so a tree of a million files
 * costs no more memory than one of ten.
 *
 * The pool opens each input through the library's one front door
 * (formats/source.h, which xq_reader_open() stands on too): its first
 * bytes peeked at through gzip, its format found by content unless one
 * is named; no command ever names a format.
 */
#ifndef CMD_INPUTS_H
#define CMD_INPUTS_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "opt.h"
#include "report.h"
#include <xq/batch.h>
#include <xq/error.h>
#include <xq/io.h>
#include <xq/record.h>

struct inputs_dir;

/* A file's identity. */
struct inputs_id {
	dev_t dev;
	ino_t ino;
};

struct inputs {
	char **operands;  /* borrowed from argv */
	int noperands;
	int next;         /* next operand to look at */
	int recursive;
	struct inputs_dir *dirs; /* the directories being walked, outermost first */
	size_t ndirs, dirs_alloc;
	struct inputs_id excluded[4]; /* never read these (output directories) */
	int nexcluded;
	int defaulted;    /* no operands: standard input stands in */
	/* --files0-from: more names, NUL-separated, read as they are needed */
	FILE *list;
	const char *list_name;
	int list_is_stdin, list_failed;
	int list_spooled; /* read from a copy (inputs_prescan) */
	uint64_t list_index; /* names read from the list so far */
	char *list_buf;
	size_t list_cap;
	/* inputs_guard(): the output file and its directories, innermost first */
	struct inputs_id out, *out_dirs;
	size_t nout_dirs, out_dirs_alloc;
	int guarding;
	atomic_int conflict; /* an input turned out to be the output file */
	/* inputs_prescan(): every file named, sorted */
	struct inputs_id *known;
	size_t nknown;
};

/* Start over `n` operands (none means standard input). */
void inputs_init(struct inputs *it, char **operands, int n, int recursive);
void inputs_release(struct inputs *it);

/*
 * Outputs and inputs never meet (the rule the manual pages state):
 *
 * - An output directory (-o DIR/) is never read: inputs_exclude() makes
 *   the walk of -r directories skip it, and every symbolic link that leads
 *   into it.  Ignored if it does not exist yet.  At most 4.
 *
 * - An output file that would be replaced is never an input:
 *   inputs_guard() records its device and inode and those of its
 *   directories, and returns -1 (with the reason sent to `fn`, which may be NULL) when an operand
 *   is that file or a directory read with `recursive` holds it.  Later,
 *   inputs_next() refuses the file however it is found (a name of the
 *   --files0-from list, a directory of the list that holds it, a symbolic
 *   link met in a walk): it returns -1 with the reason and raises the
 *   conflict flag, which inputs_conflict() reads from any thread.  The
 *   output is put in place only after the last input was read, so it is
 *   never replaced while an input: a caller must not commit it when the
 *   flag is up.  Nothing is done when `path` is not an existing regular
 *   file (through symbolic links): then nothing is replaced.
 *
 * - Files replaced during the run (-o DIR/ with --force): inputs_prescan()
 *   reads the whole --files0-from list once before the run (spooling it to
 *   an unnamed temporary file when it is standard input or a pipe),
 *   keeping the device and inode of every file it and the operands name;
 *   inputs_is_input() then says, from any thread, whether a file is one of
 *   them (a file in the output directory can be an input only that way).
 */
void inputs_exclude(struct inputs *it, const char *path);
int inputs_guard(struct inputs *it, const char *path, xq_diagnostic_fn fn, void *user);
int inputs_conflict(struct inputs *it);
int inputs_prescan(struct inputs *it, xq_diagnostic_fn fn, void *user);
int inputs_is_input(const struct inputs *it, const char *path);

/*
 * The next input: returns 1 with a malloc'd `*path` (the caller frees it)
 * and `*in_dir` set when it was found by walking a directory; 0 at the end;
 * -1 when an operand cannot be used (missing, a directory without
 * `recursive`, unreadable directory, the output file), with the reason sent
 * to `fn`; carry on after -1 for the next operand.  Also 0 once cmd_cancel is
 * set (the caller looks at cmd_signal).
 */
int inputs_next(struct inputs *it, char **path, int *in_dir, xq_diagnostic_fn fn, void *user);

/*
 * inputs_init(), and with `list` (--files0-from) more names taken from the
 * file at `list` (`-`: standard input), separated by NUL bytes as `find
 * -print0` writes them, after the operands; with no operands, only those.
 * Each name is then used as an operand would be.  The list is read
 * lazily, so a list of millions of names costs no more memory than one.
 * -1 with the reason sent to `fn` when the list cannot be opened (the
 * inputs are then released).
 */
int inputs_start(struct inputs *it, char **operands, int n, int recursive, const char *list,
		 xq_diagnostic_fn fn, void *user);

/*
 * Look at the operands before anything is read: a directory without
 * `recursive` is a usage error (CMD_EXIT_USAGE: it says to add -r), an
 * operand that does not exist or cannot be looked at an I/O error
 * (CMD_EXIT_IO); 0 when every operand can be tried.  The reason goes to
 * `fn` (the usage error's, else the first found).  `-` is always fine.  Commands stop at a usage error;
 * annotate stops at either, before it starts any engine.
 */
int inputs_check_operands(char **operands, int n, int recursive, xq_diagnostic_fn fn, void *user);

/* Total bytes of the regular files the inputs name (walking directories
 * with `recursive`), for progress; -1 when some size is unknown (standard
 * input, or a list of names, which can be read only once).  Call it before
 * the first inputs_next(). */
int64_t inputs_total_size(const struct inputs *it);

/* Is `path` `-` (standard input)? */
int inputs_is_stdin(const char *path);

/* The format called `name` that can read (or write, with `write`): its
 * name as the library spells it ("pgn" for "PGN"), or NULL with a message
 * listing the formats that can, in `msg`. */
const char *format_by_name(const char *name, int write, char *msg, size_t cap);

/*
 * The options every command that reads collections takes, spelled and
 * checked once: a command includes `input_options` (and `rules_options`
 * where the repetition rules apply) in its table with OPT_INCLUDE, hands
 * every option it does not know itself to input_opts_take(), and calls
 * input_opts_check() after the last one.
 *
 *   INPUT... -r --files0-from --from --input-encoding -j --max-memory
 *   -q -v --progress --color --format (diagnostics) --shard -h [--rules]
 *
 * -h/--help is the last row of `input_options`, so the help a command
 * prints ends with it whatever the command's own rows.
 */

enum color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

/* The longest run id $XQKIT_RUN_ID may give (bytes). */
#define INPUT_RUN_ID_MAX 64

struct input_opts {
	int recursive;
	const char *files0;               /* --files0-from */
	xq_read_options read_options;     /* --from, --input-encoding, --max-memory */
	int threads;                      /* -j */
	int quiet, verbose;
	int progress;                     /* 0 off, 1 on a terminal, 2 always */
	enum report_format fmt;           /* --format: the diagnostics */
	enum color_when color;
	int rules_on;                     /* --rules (not none) */
	int ruleset;                      /* its XQ_RULESET_* (<xq/rules.h>) */
	int warned_alias;                 /* an old spelling was warned about */
	uint64_t shard_k, shard_n;        /* --shard K/N (1/1: everything) */
	int shard_by_game;                /* set by input_opts_start(): see <xq/batch.h> */
	/* The job's id, which the summary names its run by (set by
	 * input_opts_check(): $XQKIT_RUN_ID, else opt_job_id()). */
	char run_id[INPUT_RUN_ID_MAX + 1];
};

extern const struct opt_spec input_options[];
extern const struct opt_spec rules_options[];
/* `--encoding` as the old spelling of --input-encoding (validate, replay). */
extern const struct opt_spec input_encoding_alias[];

void input_opts_init(struct input_opts *o);
/* 1 when `id` is one of the shared options (taken), 0 when it is not,
 * -1 on a bad value (the message in p->err). */
int input_opts_take(struct input_opts *o, struct opt_parser *p, int id, const char *value);
/*
 * What a collection command reads its command line with: its name, its
 * option table and help texts, `take` for every option of its own (0, or
 * -1 with the message in p->err) and `check`, called after the last
 * option (0, or -1 with p->err; it calls input_opts_check() where its own
 * checks need it).
 */
struct input_command {
	const char *name;
	const struct opt_spec *options;
	const char *usage, *summary;
	int (*take)(void *ctx, struct opt_parser *p, int id, const char *value);
	int (*check)(void *ctx, struct opt_parser *p);
};
/*
 * The whole command line, as opt_command() reads it: the shared options to
 * `o`, -h/--help printed from cmd->options, every other option to
 * cmd->take, then cmd->check.  OPT_RUN to run, else the exit status to
 * return at once.
 */
int input_opts_command(struct input_opts *o, struct opt_parser *p, int argc, char **argv,
		       const struct input_command *cmd, void *ctx);
/* After parsing: --max-memory taken, no input on a terminal refused, the
 * run id set: $XQKIT_RUN_ID when it is set and not empty (at most
 * INPUT_RUN_ID_MAX printable ASCII characters, else refused), else the
 * command line's (opt_job_id()) (-1 with p->err). */
int input_opts_check(struct input_opts *o, struct opt_parser *p);
/* Say once that an old option spelling is now `now`. */
void input_opts_alias(struct input_opts *o, const char *old, const char *now);
/* Should text on `fd` be coloured?  --color always or never says; auto
 * (the default) colours on a terminal unless NO_COLOR is set and not
 * empty, or TERM is dumb (as git and ripgrep do).  In report.c. */
int report_use_color(const struct input_opts *o, int fd);

/* inputs_start() over the operands and --files0-from, and the progress
 * line: 0, or an exit status after saying why.  Decides how --shard
 * divides the work (o->shard_by_game). */
int input_opts_start(struct input_opts *o, struct inputs *it, struct opt_parser *p,
		     const char *cmd);
/* The run of a command begun, the same way in every command that reads
 * its inputs once: the reporter `rep` started with these options, the
 * signals caught (cmd_catch_signals()), then input_opts_start().  0, or
 * an exit status after saying why (`it` is not to be released then). */
int input_opts_begin(struct input_opts *o, struct reporter *rep, struct inputs *it,
		     struct opt_parser *p);
/*
 * xq_batch_run() (<xq/batch.h>) with these options, the way every
 * command reads its inputs: `cfg` holds the command's part (process,
 * emit, worker_init and _fini, ctx, job_data, late_numbers, ...), this
 * fills in the rest: the inputs (`it`), threads, read options, shard,
 * the flag the signal handlers set to stop reading (cmd_cancel) as the
 * cancel flag,
 * the progress line, " (name one with --from)" for an input no format
 * claims, and the allocator tuned for the threads.  Then the progress
 * line is stopped.  Returns what xq_batch_run() returns, after saying
 * "out of memory" for XQ_ENOMEM (XQ_TEST_FAULT=pool-nomem: at once).
 */
int input_opts_run(const struct input_opts *o, struct inputs *it, xq_batch_config *cfg);

#endif
