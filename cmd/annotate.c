/*
 * annotate.c: `xqkit annotate`, engine scores and mistake marks for every
 * move of every game, with the built-in engine or any UCI/UCCI engine.
 *
 * Inputs are read as validate and convert read them; every game is
 * analysed (annotate_game.c) and written as PGN or as NDJSON records, in
 * input order, to one output (a temporary file renamed at the end, or
 * standard output).
 *
 * Threads.  Analysis, not reading, is the cost here, and a collection is
 * often one big file, so the threads share games, not files (cmd/pool
 * shares files): the main thread reads games one at a time into a ring of
 * slots, N workers each own one analyser (a built-in search context, or
 * one engine process started once and restarted when it fails) and take
 * the oldest slot waiting, and the main thread writes finished slots from
 * the head of the ring, so the output is in input order whatever -j is.
 * Every analysis starts from a cleared hash, so a game's annotation does
 * not depend on which worker made it: with a depth or node limit the
 * output is the same bytes for any -j.
 *
 * Stopping.  SIGINT, SIGTERM and SIGHUP raise the stop flag that the
 * searches and the engine clients poll; the workers give up their games,
 * the engines are told to stop and then quit (or are killed), and the
 * main thread writes only games whose annotation was finished.  Without
 * --resume the output file is then removed; with --resume it is kept
 * (see resume_stop below), and the exit status is 128 + the signal.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "annotate_game.h"
#include "annotate_resume.h"
#include "buf.h"
#include "cmd.h"
#include "diag.h"
#include "engine.h"
#include "evalnote.h"
#include "format.h"
#include "game.h"
#include "inputs.h"
#include "io.h"
#include "movetext.h"
#include "notation.h"
#include "opt.h"
#include "progress.h"
#include "report.h"
#include "rules.h"
#include "search.h"
#include "utf8.h"

#define SUMMARY_SCHEMA "xqkit.summary/1"
#define DEFAULT_DEPTH 8
#define MAX_ENGINE_OPTIONS 64

static const char usage[] =
	"xqkit annotate [--engine PATH [--engine-arg ARG]... [--protocol uci|ucci]\n"
	"                      [--engine-option NAME=VALUE]... [--timeout MS]]\n"
	"                      [--depth N | --nodes N | --movetime MS]\n"
	"                      [--inaccuracy CP] [--mistake CP] [--blunder CP] [--pv-threshold CP]\n"
	"                      [--variations] [--rules SET] [--hash MB] [-t pgn|ndjson]\n"
	"                      [--notation NAME] [-o FILE [--force | --resume]] [-r] [-j N] [INPUT...]";
static const char summary[] =
	"Analyse every position of every game with the built-in engine (the default)\n"
	"or an external UCI/UCCI engine, and write the games with the score after each\n"
	"move from red's point of view ({+0.35/8}, {#-3}), ?! ? ?? marks by how much a\n"
	"move lost, optionally the engine's best line, and a summary per game, as PGN or\n"
	"as NDJSON records (one per ply).  Default limit: --depth 8.  Exit status 1 when\n"
	"a game's annotation is incomplete or a game was skipped; 130 on Ctrl-C.";

enum { O_ENGINE = 'E', O_PROTOCOL = 'p', O_ENGINE_OPTION = 'O', O_DEPTH = 'd', O_NODES = 'N',
       O_MOVETIME = 'M', O_TIMEOUT = 'T', O_INACCURACY = 'i', O_MISTAKE = 'm', O_BLUNDER = 'b',
       O_PV = 'V', O_VARIATIONS = 'a', O_RULES = 'u', O_HASH = 'H', O_TO = 't', O_NOTATION = 'n',
       O_ENCODING = 'e', O_OUT = 'o', O_FORCE = 'f', O_RESUME = 'R', O_KEEP = 'k',
       O_RECURSIVE = 'r', O_FROM = 'F', O_IENC = 'I', O_JOBS = 'j', O_QUIET = 'q',
       O_PROGRESS = 'P', O_FORMAT = 'D', O_ENGINE_ARG = 'A', O_HELP = 'h', O_FILES0 = 0x100 };

static const struct opt_spec options[] = {
	OPT_VALUE(O_ENGINE, 0, "engine", "PATH", "an external UCI or UCCI engine (default: the built-in engine)"),
	OPT_VALUE(O_ENGINE_ARG, 0, "engine-arg", "ARG", "an argument for the engine program (repeatable)"),
	OPT_VALUE(O_PROTOCOL, 0, "protocol", "P", "uci, ucci or auto (default: found from the handshake)"),
	OPT_VALUE(O_ENGINE_OPTION, 0, "engine-option", "NAME=VALUE", "set an engine option (repeatable)"),
	OPT_VALUE(O_DEPTH, 0, "depth", "N", "search each position N plies deep (default 8)"),
	OPT_VALUE(O_NODES, 0, "nodes", "N", "search each position N nodes"),
	OPT_VALUE(O_MOVETIME, 0, "movetime", "MS", "search each position MS milliseconds (not reproducible)"),
	OPT_VALUE(O_TIMEOUT, 0, "timeout", "MS", "an engine silent this long is hung (default 300000)"),
	OPT_VALUE(O_INACCURACY, 0, "inaccuracy", "CP", "?! for a move that loses CP centipawns (default 50)"),
	OPT_VALUE(O_MISTAKE, 0, "mistake", "CP", "? for a loss of CP (default 100)"),
	OPT_VALUE(O_BLUNDER, 0, "blunder", "CP", "?? for a loss of CP (default 300)"),
	OPT_VALUE(O_PV, 0, "pv-threshold", "CP", "add the engine's best line where a move loses CP or more"),
	OPT_FLAG(O_VARIATIONS, 0, "variations", "annotate the moves of variations too"),
	OPT_VALUE(O_RULES, 0, "rules", "SET", "built-in engine: repetition rules, asian (default) or chinese"),
	OPT_VALUE(O_HASH, 0, "hash", "MB", "built-in engine: hash table size per thread (default 16)"),
	OPT_VALUE(O_TO, 't', "to", "FORMAT", "pgn (default) or ndjson (one record per ply)"),
	OPT_VALUE(O_NOTATION, 0, "notation", "NAME", "move notation (" MOVETEXT_NAMES ")"),
	OPT_VALUE(O_ENCODING, 0, "encoding", "ENC", "PGN text encoding to write (default UTF-8)"),
	OPT_VALUE(O_OUT, 'o', "output", "FILE", "output file, or '-' for standard output (the default)"),
	OPT_FLAG(O_FORCE, 0, "force", "replace an existing output file"),
	OPT_FLAG(O_RESUME, 0, "resume", "copy the games FILE already holds annotated the same way; keep finished games on Ctrl-C"),
	OPT_FLAG(O_KEEP, 0, "keep-broken", "annotate broken games up to their first error"),
	OPT_FLAG(O_RECURSIVE, 'r', "recursive", "read the record files in directories, and below"),
	OPT_VALUE(O_FILES0, 0, "files0-from", "FILE", "also read the inputs named in FILE, NUL-separated ('-': stdin)"),
	OPT_VALUE(O_FROM, 0, "from", "FORMAT", "read every input as FORMAT (default: detect)"),
	OPT_VALUE(O_IENC, 0, "input-encoding", "ENC", "text encoding of the inputs (default: detect)"),
	OPT_VALUE(O_JOBS, 'j', "jobs", "N", "analyse N games at once (N engines; default 1)"),
	OPT_FLAG(O_QUIET, 'q', "quiet", "no progress and no summary"),
	OPT_FLAG(O_PROGRESS, 0, "progress", "show progress even when stderr is not a terminal"),
	OPT_VALUE(O_FORMAT, 0, "format", "FMT", "diagnostics as text (stderr) or ndjson (stdout; needs -o)"),
	OPT_MAX_MEMORY,
	OPT_FLAG(O_HELP, 'h', "help", "show this help"),
	OPT_END,
};

/* ---- state ------------------------------------------------------------------ */

enum file_status { FILE_READ, FILE_SKIPPED, FILE_FAILED, FILE_DAMAGED, FILE_IO };

struct afile {
	char *path;
	char *name;
	int binary, in_dir;
	enum file_status status;
	int64_t size;
	uint64_t games;  /* read so far */
};

enum slot_kind { SLOT_GAME, SLOT_END };
enum slot_state { SLOT_FREE, SLOT_READY, SLOT_BUSY, SLOT_DONE };
enum slot_fate { FATE_ANALYSE, FATE_COPY, FATE_SKIP };

struct slot {
	enum slot_kind kind;
	enum slot_state state;
	enum slot_fate fate;
	struct afile *file;
	struct xq_game game;
	uint64_t fingerprint;
	struct diag_list diags;
	struct xq_buf text;      /* NDJSON records (annotated, or copied) */
	struct annotate_result res;
	int failed;              /* annotate_game ran out of memory */
	/* --resume: the earlier output's version of this game, written when
	 * the run stops before this game is annotated. */
	int has_old;
	struct xq_game old;
	struct xq_buf old_text;
};

struct actx;

struct worker {
	struct actx *c;
	pthread_t tid;
	int started;
	struct annotator a;
	struct xq_sink sink; /* the engine's warnings, to the annotator */
};

struct actx {
	/* settings */
	struct annotate_settings set;
	struct xq_buf settings;   /* the marker's settings part */
	struct xq_engine_opts eo;
	struct xq_engine_option eopts[MAX_ENGINE_OPTIONS];
	char *eargs[MAX_ENGINE_OPTIONS + 1]; /* borrowed from argv, NULL-terminated */
	size_t neargs;
	char *eopt_bufs[MAX_ENGINE_OPTIONS];
	size_t neopts;
	const char *engine_path;
	struct xq_rules_options rules;
	size_t hash_mb;
	int rules_given;
	int keep_broken, quiet, force, resume_mode;
	const char *out_path;     /* NULL: standard output */
	enum report_format fmt;
	const struct xq_format *forced;
	struct xq_read_opts ro;
	struct xq_write_opts wopts;
	const struct xq_format *pgn;
	/* workers and the ring */
	struct worker *w;
	int nw;
	struct slot *slots;
	size_t nslots, head, count;
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	int quit, lost;
	/* reading (main thread) */
	struct inputs inputs;
	struct afile *cur;
	struct source src;
	int reading_done;
	struct slot *filling;
	struct xq_sink read_sink;
	/* --resume */
	struct resume resume;
	int why_told;
	/* output (main thread) */
	struct xq_output *out;
	void *writer;
	struct slot *emitting;
	struct xq_sink write_sink;
	/* totals */
	struct report_counts counts;
	uint64_t files, skipped_files, failed_files, damaged_files, games, annotated, copied,
		 incomplete, skipped, positions, failures, marks[2][MARK_COUNT];
	uint64_t bytes_done;
	int io_error;
	int reads_cut;    /* a signal stopped reading before the inputs' end */
	int conflict;     /* an input turned out to be the output file */
	struct xq_buf err, outbuf;
};

static void add_diag(struct slot *s, enum xq_severity sev, enum xq_diag_code code,
		     const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
static void add_diag(struct slot *s, enum xq_severity sev, enum xq_diag_code code,
		     const char *fmt, ...)
{
	struct xq_diag d;
	va_list ap;

	xq_diag_init(&d);
	d.source = s->file ? s->file->name : NULL;
	if (s->kind == SLOT_GAME) {
		d.place = s->game.place;
		d.has_offset = s->game.place.offset > 0 || s->game.place.line == 0;
		d.game = s->game.number;
	}
	va_start(ap, fmt);
	xq_diag_vset(&d, 0, code, sev, fmt, ap);
	va_end(ap);
	diag_list_add(&s->diags, &d);
}

/* ---- reading (main thread) ----------------------------------------------------- */

static void read_sink(const struct xq_diag *d, void *payload)
{
	struct actx *c = payload;
	struct xq_diag copy = *d;

	if (!c->filling)
		return;
	if (c->cur)
		copy.source = c->cur->name;
	diag_list_add(&c->filling->diags, &copy);
}

static void afile_free(struct afile *f)
{
	if (!f)
		return;
	free(f->path);
	free(f->name);
	free(f);
}

static struct afile *afile_new(char *path, int in_dir)
{
	struct afile *f = calloc(1, sizeof(*f));

	if (!f) {
		free(path);
		return NULL;
	}
	f->path = path;
	f->in_dir = in_dir;
	f->size = -1;
	f->name = strdup(path && inputs_is_stdin(path) ? "<stdin>" : path ? path : "");
	if (!f->name) {
		afile_free(f);
		return NULL;
	}
	return f;
}

static void slot_clear(struct slot *s)
{
	s->kind = SLOT_GAME;
	s->state = SLOT_FREE;
	s->fate = FATE_ANALYSE;
	s->file = NULL;
	xq_game_clear(&s->game);
	diag_list_clear(&s->diags);
	xq_buf_reset(&s->text);
	memset(&s->res, 0, sizeof(s->res));
	s->failed = 0;
	s->fingerprint = 0;
	s->has_old = 0;
	xq_game_clear(&s->old);
	xq_buf_reset(&s->old_text);
}

/* Read the next game, or the end of an input, into `s`: 1, or 0 when
 * there is no more input; XQ_ENOMEM. */
static int read_one(struct actx *c, struct slot *s)
{
	struct xq_diag d;
	int rc;

	slot_clear(s);
	c->filling = s;
	for (;;) {
		if (!c->cur) {
			char *path = NULL;
			int in_dir = 0;
			struct afile *f;
			xq_diag_init(&d);
			rc = inputs_next(&c->inputs, &path, &in_dir, &d);
			if (rc == 0) {
				c->reads_cut = atomic_load(&cmd_cancel) != 0;
				c->filling = NULL;
				return 0;
			}
			if (!(f = afile_new(rc > 0 ? path : NULL, in_dir))) {
				c->filling = NULL;
				return XQ_ENOMEM;
			}
			s->file = f;
			s->kind = SLOT_END;
			if (rc < 0) {
				f->status = FILE_FAILED;
				diag_list_add(&s->diags, &d);
				c->filling = NULL;
				return 1;
			}
			c->cur = f;
			xq_diag_init(&d);
			rc = source_open(&c->src, f->path, c->forced, &c->ro, &c->read_sink, &d);
			if (rc == XQ_ECANCELED) {
				/* A signal: the file was not read, and is not reported. */
				c->cur = NULL;
				afile_free(f);
				s->file = NULL;
				diag_list_clear(&s->diags);
				c->reads_cut = 1;
				c->filling = NULL;
				return 0;
			}
			if (rc == SOURCE_EMPTY && !in_dir) {
				/* No game in it: said at its end, as for any input. */
				c->cur = NULL;
				d.source = f->name;
				diag_list_add(&s->diags, &d);
				c->filling = NULL;
				return 1;
			}
			if (rc != SOURCE_OK) {
				c->cur = NULL;
				if ((rc == SOURCE_UNKNOWN && in_dir && !c->forced) || rc == SOURCE_EMPTY) {
					f->status = FILE_SKIPPED;
				} else {
					f->status = FILE_FAILED;
					d.source = f->name;
					diag_list_add(&s->diags, &d);
				}
				c->filling = NULL;
				return 1;
			}
			f->binary = (c->src.fmt->caps & XQ_CAP_BINARY) != 0;
			f->size = xq_input_size(c->src.in);
		}
		s->file = c->cur;
		s->kind = SLOT_GAME;
		rc = c->src.fmt->read(c->src.reader, &s->game);
		if (rc > 0) {
			c->cur->games++;
			s->game.source = c->cur->name;
			c->filling = NULL;
			return 1;
		}
		if (rc == XQ_ECANCELED) {
			/* A signal: the rest of the file is not read (run_all
			 * closes it). */
			diag_list_clear(&s->diags);
			c->reads_cut = 1;
			c->filling = NULL;
			return 0;
		}
		s->kind = SLOT_END;
		if (rc < 0) {
			c->cur->status = rc == XQ_EIO || rc == XQ_ENOMEM ? FILE_IO : FILE_DAMAGED;
			if (s->diags.n == 0) {
				xq_diag_init(&d);
				xq_diag_set(&d, 0, XQ_D_IO, XQ_SEV_ERROR, "reading stopped: %s",
					    xq_strerror(rc));
				d.source = c->cur->name;
				diag_list_add(&s->diags, &d);
			}
		} else if (c->cur->games == 0) {
			source_no_game(&d, c->cur->name);
			diag_list_add(&s->diags, &d);
		}
		source_close(&c->src);
		c->cur = NULL;
		c->filling = NULL;
		return 1;
	}
}

/* Swap two games (their contents own no pointer to themselves). */
static void swap_games(struct xq_game *a, struct xq_game *b)
{
	struct xq_game t = *a;
	*a = *b;
	*b = t;
}

/*
 * Decide what becomes of a game just read: skipped (broken), copied from
 * the earlier output (--resume), or analysed; when `stopping`, a game
 * that would be analysed is not (only its earlier version can be
 * written).  Sets its state.
 */
static void classify(struct actx *c, struct slot *s, int stopping)
{
	struct xq_buf marker = XQ_BUF_INIT;
	int v;

	s->state = SLOT_DONE;
	if (s->kind == SLOT_END)
		return;
	if ((s->game.flags & XQ_GAME_BROKEN) && !c->keep_broken) {
		s->fate = FATE_SKIP;
		add_diag(s, XQ_SEV_NOTE, XQ_D_NONE,
			 "skipped: the game has an error (--keep-broken annotates it up to the error)");
		return;
	}
	s->fingerprint = annotate_fingerprint(&s->game);
	if (annotate_marker(&marker, c->settings.ptr, s->fingerprint, 1) == 0) {
		v = resume_next(&c->resume, marker.ptr, s->fingerprint, s->file->name,
				s->game.number);
		if (v != RESUME_NONE) {
			if (c->set.ndjson) {
				xq_buf_add(v == RESUME_COPY ? &s->text : &s->old_text, c->resume.lines.ptr,
					   c->resume.lines.len);
			} else if (v == RESUME_COPY) {
				uint64_t number = s->game.number;
				swap_games(&s->game, &c->resume.game);
				s->game.number = number;
				s->game.source = s->file->name;
			} else {
				swap_games(&s->old, &c->resume.game);
			}
			if (v == RESUME_COPY) {
				s->fate = FATE_COPY;
				xq_buf_release(&marker);
				return;
			}
			s->has_old = 1;
		}
		if (!c->resume.active && c->resume.why[0] && !c->why_told) {
			c->why_told = 1;
			add_diag(s, XQ_SEV_NOTE, XQ_D_NONE, "--resume: %s", c->resume.why);
		}
	}
	xq_buf_release(&marker);
	if (stopping) {
		/* Read while stopping only to keep the earlier output's games. */
		s->fate = FATE_ANALYSE;
		s->res.interrupted = 1;
		return;
	}
	s->fate = FATE_ANALYSE;
	s->state = SLOT_READY;
	if (s->game.flags & XQ_GAME_BROKEN)
		add_diag(s, XQ_SEV_WARNING, XQ_D_TRUNCATED,
			 "annotated only up to its first error (--keep-broken)");
}

/* ---- workers ------------------------------------------------------------------ */

static struct slot *next_ready(struct actx *c)
{
	for (size_t i = 0; i < c->count; i++) {
		struct slot *s = &c->slots[(c->head + i) % c->nslots];
		if (s->state == SLOT_READY)
			return s;
	}
	return NULL;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct actx *c = w->c;

	pthread_mutex_lock(&c->mu);
	for (;;) {
		struct slot *s = NULL;
		while (!c->quit && !atomic_load(&cmd_stop) && !(s = next_ready(c)))
			pthread_cond_wait(&c->work, &c->mu);
		if (!s)
			break;
		s->state = SLOT_BUSY;
		pthread_mutex_unlock(&c->mu);
		if (annotate_game(&w->a, &c->set, &s->game, s->fingerprint, s->file->name, &s->diags,
				  c->set.ndjson ? &s->text : NULL, &s->res))
			s->failed = 1;
		pthread_mutex_lock(&c->mu);
		if (w->a.lost && !c->lost) {
			c->lost = 1;
			atomic_store(&cmd_stop, 1);
		}
		s->state = SLOT_DONE;
		pthread_cond_signal(&c->done);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

/* ---- output (main thread) -------------------------------------------------------- */

static void write_sink(const struct xq_diag *d, void *payload)
{
	struct actx *c = payload;
	struct xq_diag copy = *d;

	if (!c->emitting)
		return;
	copy.source = c->emitting->file->name;
	if (c->emitting->kind == SLOT_GAME) {
		copy.game = c->emitting->game.number;
		if (!copy.place.line && !copy.place.offset) {
			copy.place = c->emitting->game.place;
			copy.has_offset = c->emitting->game.place.line == 0;
		}
	}
	diag_list_add(&c->emitting->diags, &copy);
}

static void write_bytes(struct actx *c, const struct xq_buf *b)
{
	if (b->len && xq_output_write(c->out, b->ptr, b->len)) {
		if (!c->io_error)
			cmd_error("cannot write to '%s'", xq_output_name(c->out));
		c->io_error = 1;
	}
}

static void write_game(struct actx *c, struct slot *s, int old)
{
	if (c->set.ndjson) {
		write_bytes(c, old ? &s->old_text : &s->text);
		return;
	}
	if (c->pgn->write(c->writer, old ? &s->old : &s->game)) {
		if (!c->io_error)
			cmd_error("cannot write to '%s'", xq_output_name(c->out));
		c->io_error = 1;
	}
}

static void print_diags(struct actx *c, struct slot *s)
{
	for (size_t i = 0; i < s->diags.n; i++) {
		const struct xq_diag *d = &s->diags.v[i];
		/* An input that cannot be read is an I/O error (exit status 3),
		 * as in every command. */
		if (s->kind == SLOT_END && d->code == XQ_D_IO && d->severity == XQ_SEV_ERROR)
			c->io_error = 1;
		report_count(&c->counts, d);
		if (c->fmt == REPORT_NDJSON)
			report_json(&c->outbuf, d, s->file && s->file->binary);
		else
			report_text(&c->err, d, s->file && s->file->binary);
	}
	report_flush_err(&c->err);
	report_flush_out(&c->outbuf);
}

/* Write a finished slot: its game (annotated, copied, or the earlier
 * version when `old`), its diagnostics, the counts. */
static void emit(struct actx *c, struct slot *s, int old)
{
	c->emitting = s;
	if (s->kind == SLOT_END) {
		switch (s->file->status) {
		case FILE_READ: c->files++; break;
		case FILE_DAMAGED: c->files++; c->damaged_files++; break;
		case FILE_IO: c->files++; c->io_error = 1; break;
		case FILE_SKIPPED: c->skipped_files++; break;
		case FILE_FAILED: c->failed_files++; break;
		}
		if (s->file->size > 0)
			c->bytes_done += (uint64_t)s->file->size;
	} else {
		c->games++;
		if (s->fate == FATE_SKIP) {
			c->skipped++;
		} else if (s->fate == FATE_COPY || old) {
			write_game(c, s, old);
			c->copied++;
		} else {
			write_game(c, s, 0);
			c->annotated++;
			c->positions += s->res.analysed;
			c->failures += s->res.failures;
			if (!s->res.complete)
				c->incomplete++;
			for (int side = 0; side < 2; side++)
				for (int m = 0; m < MARK_COUNT; m++)
					c->marks[side][m] += s->res.side[side].marks[m];
		}
	}
	print_diags(c, s);
	c->emitting = NULL;
	if (s->kind == SLOT_END)
		afile_free(s->file);
	s->file = NULL;
	progress_update(c->games, c->bytes_done + (c->cur && c->src.in
							  ? xq_input_stored_offset(c->src.in)
							  : 0));
}

/* ---- the run ------------------------------------------------------------------------ */

/* Can the head slot be written?  1 yes (*old: its earlier version), 0 not
 * yet, -1 never (the run stops there). */
static int writable(const struct slot *s, int stopping, int *old)
{
	*old = 0;
	if (s->state != SLOT_DONE) {
		if (!stopping || s->state == SLOT_BUSY)
			return 0;
		/* Never analysed, and never will be. */
		*old = s->has_old;
		return s->has_old ? 1 : -1;
	}
	if (s->kind == SLOT_END || s->fate != FATE_ANALYSE)
		return 1;
	if (s->failed)
		return -1;
	if (s->res.interrupted) {
		*old = s->has_old;
		return s->has_old ? 1 : -1;
	}
	return 1;
}

static void wait_done(struct actx *c)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 100 * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&c->done, &c->mu, &ts);
}

/*
 * After the first signal, reads go on only while the earlier output's
 * games are being copied (--resume, in step with the inputs): a second
 * signal, or the end of that, cancels them (cmd.h).
 */
static void sync_keep_reading(struct actx *c)
{
	cmd_keep_reading = c->resume.active;
	if (!c->resume.active && cmd_signal)
		atomic_store(&cmd_cancel, 1);
}

/*
 * Read, hand out and write until the inputs end or the run stops.
 * Returns 1 when it stopped early (a signal, an engine lost, an error).
 *
 * When stopping with --resume, reading goes on as long as the inputs are
 * in step with the earlier output, and every game not annotated now is
 * written as the earlier output had it: the file never ends up holding
 * less than it did before the run.
 */
static int run(struct actx *c)
{
	int stopping = 0, halted = 0, stop_reading;

	pthread_mutex_lock(&c->mu);
	for (;;) {
		if (!c->conflict && inputs_conflict(&c->inputs))
			c->conflict = 1; /* an input is the output file: write nothing */
		if (!stopping && (cmd_signal || c->lost || c->io_error || c->conflict)) {
			stopping = 1;
			atomic_store(&cmd_stop, 1);
			pthread_cond_broadcast(&c->work);
		}
		/* While stopping, read only to keep the earlier output's games. */
		stop_reading = stopping && (!c->resume.active || c->io_error || c->conflict);
		while (c->count > 0) {
			struct slot *s = &c->slots[c->head];
			int old, ok = writable(s, stopping, &old);
			if (ok <= 0) {
				halted = ok < 0;
				break;
			}
			pthread_mutex_unlock(&c->mu);
			emit(c, s, old);
			pthread_mutex_lock(&c->mu);
			slot_clear(s);
			c->head = (c->head + 1) % c->nslots;
			c->count--;
		}
		if (halted)
			break;
		if (c->count == 0 && (c->reading_done || stop_reading))
			break;
		if (!c->reading_done && !stop_reading && c->count < c->nslots) {
			struct slot *s = &c->slots[(c->head + c->count) % c->nslots];
			int got;
			pthread_mutex_unlock(&c->mu);
			got = read_one(c, s);
			if (got > 0)
				classify(c, s, stopping);
			sync_keep_reading(c);
			pthread_mutex_lock(&c->mu);
			if (got < 0) {
				cmd_error("out of memory");
				c->io_error = 1;
				continue;
			}
			if (got == 0) {
				c->reading_done = 1;
				continue;
			}
			if (stopping && s->kind == SLOT_GAME && s->fate == FATE_ANALYSE && !s->has_old) {
				c->resume.active = 0; /* beyond the earlier output: stop there */
				sync_keep_reading(c);
			}
			c->count++;
			if (s->state == SLOT_READY)
				pthread_cond_signal(&c->work);
			continue;
		}
		wait_done(c);
	}
	c->quit = 1;
	pthread_cond_broadcast(&c->work);
	pthread_mutex_unlock(&c->mu);
	return stopping || halted;
}

/* ---- setup -------------------------------------------------------------------------- */

/* Create the analysers: one search context or engine process per worker.
 * Returns 0 or the exit status. */
static int start_workers(struct actx *c)
{
	struct xq_search_opts so;

	memset(&so, 0, sizeof(so));
	so.hash_mb = c->hash_mb;
	so.stop = &cmd_stop;
	so.rules = &c->rules;
	for (int i = 0; i < c->nw; i++) {
		struct worker *w = &c->w[i];
		struct xq_diag d;
		int rc;
		w->c = c;
		w->sink.report = annotator_warning;
		w->sink.payload = &w->a;
		xq_diag_init(&d);
		if (c->engine_path) {
			c->eo.warnings = &w->sink;
			rc = xq_engine_new(&w->a.engine, &c->eo, &d);
			if (rc) {
				cmd_error("%s", d.msg);
				return cmd_signal ? cmd_signal_status()
				       : rc == XQ_ERANGE ? XQ_EXIT_USAGE
							 : XQ_EXIT_IO;
			}
			xq_engine_analyser(&w->a.an, w->a.engine);
		} else {
			if (xq_search_new(&w->a.search, &so, &d)) {
				cmd_error("%s", d.msg);
				return XQ_EXIT_IO;
			}
			xq_search_analyser(&w->a.an, w->a.search);
		}
	}
	return 0;
}

/* The marker's settings part: everything that changes what is written. */
static void describe_settings(struct actx *c)
{
	struct xq_buf *b = &c->settings;
	const struct xq_limit *l = &c->set.limit;

	xq_buf_adds(b, "xqkit annotate, ");
	if (c->engine_path) {
		const struct xq_engine *e = c->w[0].a.engine;
		xq_buf_addf(b, "engine %s (%s)", xq_engine_name(e),
			    xq_protocol_name(xq_engine_protocol(e)));
		for (size_t i = 0; i < c->neargs; i++)
			xq_buf_addf(b, "%s%s", i ? " " : ", arguments ", c->eargs[i]);
		for (size_t i = 0; i < c->neopts; i++)
			xq_buf_addf(b, "%s%s=%s", i ? " " : ", options ", c->eopts[i].name,
				    c->eopts[i].value);
	} else {
		xq_buf_addf(b, "built-in engine, %s rules, hash %zu MB",
			    xq_rules_set_name(c->rules.rules), c->hash_mb);
	}
	if (l->depth)
		xq_buf_addf(b, ", depth %d", l->depth);
	if (l->nodes)
		xq_buf_addf(b, ", nodes %llu", (unsigned long long)l->nodes);
	if (l->movetime_ms)
		xq_buf_addf(b, ", movetime %u ms", (unsigned)l->movetime_ms);
	xq_buf_addf(b, ", marks %ld/%ld/%ld", (long)c->set.marks[0], (long)c->set.marks[1],
		    (long)c->set.marks[2]);
	if (c->set.pv_threshold >= 0)
		xq_buf_addf(b, ", best lines from %ld", (long)c->set.pv_threshold);
	if (c->set.variations)
		xq_buf_adds(b, ", variations");
}

static int open_output(struct actx *c)
{
	struct xq_diag d;
	int rc;
	unsigned flags = c->force || c->resume_mode ? XQ_OUTPUT_FORCE : 0;

	xq_diag_init(&d);
	rc = xq_output_open(&c->out, c->out_path ? c->out_path : "-", flags, &d);
	if (rc) {
		cmd_error("%s", d.msg);
		return XQ_EXIT_IO;
	}
	if (!c->set.ndjson) {
		rc = c->pgn->open_writer(&c->writer, c->out, &c->wopts, &c->write_sink);
		if (rc) {
			cmd_error("cannot write pgn: %s", xq_strerror(rc));
			xq_output_abort(c->out);
			c->out = NULL;
			return rc == XQ_EUNSUPPORTED ? XQ_EXIT_USAGE : XQ_EXIT_IO;
		}
	}
	return 0;
}

/* Finish the output: commit it, or remove it when `keep` is 0. */
static void close_output(struct actx *c, int keep)
{
	struct xq_diag d;

	if (!c->out)
		return;
	if (c->writer && c->pgn->close_writer(c->writer))
		c->io_error = 1, keep = 0;
	c->writer = NULL;
	xq_diag_init(&d);
	if (keep && !c->io_error) {
		if (xq_output_commit(c->out, &d)) {
			cmd_error("%s", d.msg);
			c->io_error = 1;
		}
	} else {
		xq_output_abort(c->out);
	}
	c->out = NULL;
}

/* The threads, the run, and the end of the output.  Returns 1 when the
 * run stopped early. */
static int run_all(struct actx *c)
{
	int early, cut;

	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->work, NULL);
	pthread_cond_init(&c->done, NULL);
	for (int i = 0; i < c->nw; i++) {
		if (cmd_thread_create(&c->w[i].tid, worker_main, &c->w[i]) != 0)
			break; /* run with the threads we have */
		c->w[i].started = 1;
	}
	if (!c->w[0].started) {
		cmd_error("cannot start a thread");
		c->io_error = 1;
		early = 1;
	} else {
		early = run(c);
		for (int i = 0; i < c->nw; i++)
			if (c->w[i].started)
				pthread_join(c->w[i].tid, NULL);
	}
	pthread_cond_destroy(&c->done);
	pthread_cond_destroy(&c->work);
	pthread_mutex_destroy(&c->mu);
	progress_stop();
	if (c->cur) {
		source_close(&c->src);
		afile_free(c->cur);
		c->cur = NULL;
	}
	/* An early stop keeps what was written only with --resume, and not
	 * when a second signal cut the copy of the earlier output's games
	 * short (the file would hold less than before the run). */
	cut = c->reads_cut && c->resume.active;
	close_output(c, !c->conflict && (!early || (c->resume_mode && !c->io_error && !cut)));
	if (c->conflict)
		cmd_error("nothing was written to '%s': it is also an input", c->out_path);
	else if (early && cmd_signal)
		cmd_error("interrupted: %s",
			  cut ? "stopped again while copying the earlier output's games: the file is left as it was"
			  : c->resume_mode ? "the games finished so far are kept; run again with --resume to go on"
			  : c->out_path	   ? "no output is left behind"
					   : "only whole games were written");
	else if (c->lost)
		cmd_error("the engine cannot be restarted any more: stopping%s",
			  c->resume_mode ? " (the games finished so far are kept)" : "");
	return early;
}

static void print_summary(struct actx *c, double secs)
{
	struct xq_buf *b;
	double pps = secs > 0 ? (double)c->positions / secs : 0;

	if (c->fmt == REPORT_NDJSON) {
		b = &c->outbuf;
		xq_buf_addf(b, "{\"schema\":\"" SUMMARY_SCHEMA "\",\"command\":\"annotate\",\"engine\":");
		report_add_json_safe(b, c->set.engine);
		xq_buf_addf(b, ",\"files\":%llu,\"skipped_files\":%llu,\"failed_files\":%llu,\"games\":%llu,\"annotated\":%llu,\"copied\":%llu,\"incomplete\":%llu,\"skipped\":%llu,\"positions\":%llu,\"engine_failures\":%llu",
			    (unsigned long long)c->files, (unsigned long long)c->skipped_files,
			    (unsigned long long)c->failed_files, (unsigned long long)c->games,
			    (unsigned long long)c->annotated, (unsigned long long)c->copied,
			    (unsigned long long)c->incomplete, (unsigned long long)c->skipped,
			    (unsigned long long)c->positions, (unsigned long long)c->failures);
		for (int s = 0; s < 2; s++)
			xq_buf_addf(b, ",\"%s\":{\"inaccuracies\":%llu,\"mistakes\":%llu,\"blunders\":%llu}",
				    s ? "black" : "red", (unsigned long long)c->marks[s][0],
				    (unsigned long long)c->marks[s][1], (unsigned long long)c->marks[s][2]);
		xq_buf_addf(b, ",\"errors\":%llu,\"warnings\":%llu,\"notes\":%llu,\"codes\":",
			    (unsigned long long)c->counts.by_sev[XQ_SEV_ERROR],
			    (unsigned long long)c->counts.by_sev[XQ_SEV_WARNING],
			    (unsigned long long)c->counts.by_sev[XQ_SEV_NOTE]);
		report_codes_json(b, &c->counts);
		xq_buf_addf(b, ",\"seconds\":%.3f}\n", secs);
		report_flush_out(b);
		return;
	}
	if (c->quiet)
		return;
	b = &c->err;
	xq_buf_addf(b, "annotate: %llu game%s from %llu file%s: %llu annotated",
		    (unsigned long long)c->games, c->games == 1 ? "" : "s",
		    (unsigned long long)c->files, c->files == 1 ? "" : "s",
		    (unsigned long long)c->annotated);
	if (c->incomplete)
		xq_buf_addf(b, " (%llu incompletely)", (unsigned long long)c->incomplete);
	if (c->copied)
		xq_buf_addf(b, ", %llu copied from the earlier output", (unsigned long long)c->copied);
	if (c->skipped)
		xq_buf_addf(b, ", %llu skipped", (unsigned long long)c->skipped);
	if (c->skipped_files)
		xq_buf_addf(b, "; %llu file%s skipped (not game records)",
			    (unsigned long long)c->skipped_files, c->skipped_files == 1 ? "" : "s");
	if (c->failed_files)
		xq_buf_addf(b, "; %llu input%s not read", (unsigned long long)c->failed_files,
			    c->failed_files == 1 ? "" : "s");
	xq_buf_addf(b, "; %llu positions analysed by %s in %.2f s (%.1f/s)\n",
		    (unsigned long long)c->positions, c->set.engine, secs, pps);
	report_flush_err(b);
}

static int parse_engine_option(struct actx *c, struct opt_parser *p, const char *value)
{
	struct xq_diag d;
	size_t cap = strlen(value) + 2;
	char *buf;

	if (c->neopts == MAX_ENGINE_OPTIONS) {
		snprintf(p->err, sizeof(p->err), "at most %d --engine-option", MAX_ENGINE_OPTIONS);
		return -1;
	}
	if (!(buf = malloc(cap))) {
		snprintf(p->err, sizeof(p->err), "out of memory");
		return -1;
	}
	xq_diag_init(&d);
	if (xq_engine_option_parse(&c->eopts[c->neopts], buf, cap, value, &d)) {
		free(buf);
		snprintf(p->err, sizeof(p->err), "--engine-option: %.200s", d.msg);
		return -1;
	}
	c->eopt_bufs[c->neopts++] = buf;
	return 0;
}

static long limit_value(struct opt_parser *p, const char *name, const char *value, long max)
{
	return opt_int(p, name, value, 1, max);
}

static void release(struct actx *c)
{
	resume_close(&c->resume);
	if (c->w)
		for (int i = 0; i < c->nw; i++) {
			xq_engine_free(c->w[i].a.engine);
			xq_search_free(c->w[i].a.search);
		}
	free(c->w);
	if (c->slots)
		for (size_t i = 0; i < c->nslots; i++) {
			if (c->slots[i].kind == SLOT_END && c->slots[i].file)
				afile_free(c->slots[i].file);
			xq_game_release(&c->slots[i].game);
			xq_game_release(&c->slots[i].old);
			diag_list_release(&c->slots[i].diags);
			xq_buf_release(&c->slots[i].text);
			xq_buf_release(&c->slots[i].old_text);
		}
	free(c->slots);
	for (size_t i = 0; i < c->neopts; i++)
		free(c->eopt_bufs[i]);
	xq_buf_release(&c->settings);
	xq_buf_release(&c->err);
	xq_buf_release(&c->outbuf);
}

int cmd_annotate(int argc, char **argv)
{
	struct opt_parser p;
	struct actx c;
	const char *value, *to_name = "pgn", *protocol = NULL;
	int id, rc, recursive = 0, progress = 1, status = XQ_EXIT_OK;
	const char *files0 = NULL;
	uint32_t timeout = 0;
	struct movetext mt = movetext_default();
	int notation_given = 0;
	struct xq_diag d0;
	double t0;

	memset(&c, 0, sizeof(c));
	c.ro = (struct xq_read_opts)XQ_READ_OPTS_INIT;
	c.wopts = (struct xq_write_opts)XQ_WRITE_OPTS_INIT;
	c.rules = (struct xq_rules_options)XQ_RULES_OPTIONS_INIT;
	c.hash_mb = 16;
	c.nw = 1;
	c.set.marks[MARK_INACCURACY] = XQ_EVALNOTE_INACCURACY;
	c.set.marks[MARK_MISTAKE] = XQ_EVALNOTE_MISTAKE;
	c.set.marks[MARK_BLUNDER] = XQ_EVALNOTE_BLUNDER;
	c.set.pv_threshold = -1;
	c.set.stop = &cmd_stop;
	xq_engine_opts_init(&c.eo);
	xq_buf_init(&c.settings);
	xq_buf_init(&c.err);
	xq_buf_init(&c.outbuf);
	if (opt_init(&p, argc, argv, "annotate")) {
		cmd_error("out of memory");
		return XQ_EXIT_IO;
	}
	while ((rc = opt_next(&p, options, &id, &value)) > 0) {
		long v;
		switch (id) {
		case O_ENGINE:
			if (!*value) {
				snprintf(p.err, sizeof(p.err), "--engine needs a program");
				goto usage;
			}
			c.engine_path = value;
			break;
		case O_PROTOCOL: protocol = value; break;
		case O_ENGINE_ARG:
			if (c.neargs == MAX_ENGINE_OPTIONS) {
				snprintf(p.err, sizeof(p.err), "at most %d --engine-arg", MAX_ENGINE_OPTIONS);
				goto usage;
			}
			c.eargs[c.neargs++] = (char *)value;
			break;
		case O_ENGINE_OPTION:
			if (parse_engine_option(&c, &p, value))
				goto usage;
			break;
		case O_DEPTH:
			if ((v = limit_value(&p, "--depth", value, XQ_SEARCH_MAX_DEPTH)) < 0)
				goto usage;
			c.set.limit.depth = (int)v;
			break;
		case O_NODES:
			if ((v = limit_value(&p, "--nodes", value, 2000000000L)) < 0)
				goto usage;
			c.set.limit.nodes = (uint64_t)v;
			break;
		case O_MOVETIME:
			if ((v = limit_value(&p, "--movetime", value, 3600000L)) < 0)
				goto usage;
			c.set.limit.movetime_ms = (uint32_t)v;
			break;
		case O_TIMEOUT:
			if ((v = limit_value(&p, "--timeout", value, 86400000L)) < 0)
				goto usage;
			timeout = (uint32_t)v;
			break;
		case O_INACCURACY:
		case O_MISTAKE:
		case O_BLUNDER:
			if ((v = opt_int(&p, id == O_INACCURACY ? "--inaccuracy"
					       : id == O_MISTAKE ? "--mistake"
								  : "--blunder",
					 value, 1, 100000)) < 0)
				goto usage;
			c.set.marks[id == O_INACCURACY ? MARK_INACCURACY
				    : id == O_MISTAKE  ? MARK_MISTAKE
						       : MARK_BLUNDER] = (int32_t)v;
			break;
		case O_PV:
			if ((v = opt_int(&p, "--pv-threshold", value, 0, 100000)) < 0)
				goto usage;
			c.set.pv_threshold = (int32_t)v;
			break;
		case O_VARIATIONS: c.set.variations = 1; break;
		case O_RULES:
			if (opt_rules(&p, value, 0, &c.rules_given, &c.rules.rules))
				goto usage;
			break;
		case O_HASH:
			if ((v = opt_int(&p, "--hash", value, 1, 65536)) < 0)
				goto usage;
			c.hash_mb = (size_t)v;
			break;
		case O_TO: to_name = value; break;
		case O_NOTATION:
			if (movetext_parse(value, &mt)) {
				snprintf(p.err, sizeof(p.err), "--notation must be one of " MOVETEXT_NAMES ", not '%s'",
					 value);
				goto usage;
			}
			notation_given = 1;
			break;
		case O_ENCODING:
			if (opt_encoding(&p, value, &c.wopts.encoding))
				goto usage;
			break;
		case O_OUT: c.out_path = value; break;
		case O_FORCE: c.force = 1; break;
		case O_RESUME: c.resume_mode = 1; break;
		case O_KEEP: c.keep_broken = 1; break;
		case O_RECURSIVE: recursive = 1; break;
		case O_FILES0: files0 = value; break;
		case O_FROM:
			if (!(c.forced = format_by_name(value, 0, p.err, sizeof(p.err))))
				goto usage;
			break;
		case O_IENC:
			if (opt_encoding(&p, value, &c.ro.encoding))
				goto usage;
			break;
		case O_JOBS:
			if ((v = opt_int(&p, "--jobs", value, 1, 64)) < 0)
				goto usage;
			c.nw = (int)v;
			break;
		case O_QUIET: c.quiet = 1; progress = 0; break;
		case O_PROGRESS: progress = 2; break;
		case O_FORMAT:
			if (report_format_parse(value, &c.fmt, p.err, sizeof(p.err)))
				goto usage;
			break;
		case O_HELP:
			opt_print_help(stdout, usage, summary, options);
			opt_release(&p);
			release(&c);
			return XQ_EXIT_OK;
		}
	}
	if (rc < 0)
		goto usage;
	c.ro.max_memory = p.max_memory;

	/* What the options mean together. */
	if (!strcmp(to_name, "ndjson")) {
		c.set.ndjson = 1;
	} else if (strcmp(to_name, "pgn")) {
		snprintf(p.err, sizeof(p.err), "-t must be pgn or ndjson, not '%s'", to_name);
		goto usage;
	}
	c.pgn = xq_format_find("pgn");
	c.set.mt = mt;
	if (notation_given) {
		c.wopts.notation = mt.notation;
		c.wopts.notation_flags = mt.flags;
	}
	if (!c.set.ndjson && (mt.notation == XQ_NOTATION_UCI || mt.notation == XQ_NOTATION_UCI1)) {
		snprintf(p.err, sizeof(p.err),
			 "PGN move text is written in chinese, iccs or wxf notation; %s is for -t ndjson",
			 xq_notation_name((enum xq_notation)mt.notation));
		goto usage;
	}
	if (c.set.ndjson && c.wopts.encoding != XQ_ENC_UNKNOWN && c.wopts.encoding != XQ_ENC_UTF8) {
		snprintf(p.err, sizeof(p.err), "NDJSON is always UTF-8: --encoding is for PGN");
		goto usage;
	}
	if (!c.set.limit.depth && !c.set.limit.nodes && !c.set.limit.movetime_ms)
		c.set.limit.depth = DEFAULT_DEPTH;
	if (c.set.marks[MARK_INACCURACY] > c.set.marks[MARK_MISTAKE] ||
	    c.set.marks[MARK_MISTAKE] > c.set.marks[MARK_BLUNDER]) {
		snprintf(p.err, sizeof(p.err),
			 "the thresholds must not decrease: --inaccuracy %ld, --mistake %ld, --blunder %ld",
			 (long)c.set.marks[0], (long)c.set.marks[1], (long)c.set.marks[2]);
		goto usage;
	}
	if (c.engine_path) {
		if (c.rules_given) {
			snprintf(p.err, sizeof(p.err),
				 "--rules is for the built-in engine; an external engine judges repetitions by its own rules");
			goto usage;
		}
		if (protocol) {
			int pr = xq_protocol_from_name(protocol);
			if (pr < 0) {
				snprintf(p.err, sizeof(p.err), "--protocol must be uci, ucci or auto, not '%s'",
					 protocol);
				goto usage;
			}
			c.eo.protocol = (enum xq_protocol)pr;
		}
		c.eo.path = c.engine_path;
		c.eo.args = c.eargs;
		c.eo.options = c.eopts;
		c.eo.noptions = c.neopts;
		c.eo.stop = &cmd_stop;
		if (timeout) {
			c.eo.search_timeout_ms = timeout;
			c.eo.timeout_ms = timeout < 10000 ? timeout : 10000;
		}
	} else if (protocol || c.neopts || c.neargs || timeout) {
		snprintf(p.err, sizeof(p.err), "%s is for an external engine (give --engine PATH)",
			 protocol ? "--protocol" : c.neopts ? "--engine-option"
					 : c.neargs ? "--engine-arg" : "--timeout");
		goto usage;
	}
	if (p.noperands == 0 && !files0 && isatty(0)) {
		snprintf(p.err, sizeof(p.err), "no input (give files, or '-' to read standard input)");
		goto usage;
	}
	if (c.out_path && !strcmp(c.out_path, "-"))
		c.out_path = NULL;
	if (c.resume_mode && !c.out_path) {
		snprintf(p.err, sizeof(p.err), "--resume needs -o FILE: it reads what FILE already holds");
		goto usage;
	}
	if (c.resume_mode && c.force) {
		snprintf(p.err, sizeof(p.err), "--resume keeps what FILE holds; --force would throw it away");
		goto usage;
	}
	if (c.fmt == REPORT_NDJSON && !c.out_path) {
		snprintf(p.err, sizeof(p.err), "--format ndjson writes to standard output: give -o for the annotated games");
		goto usage;
	}
	if (c.out_path) {
		/* Never an input, however it is found: refused now when an
		 * operand is the file or holds it, else when it is met. */
		struct xq_output_plan plan;
		struct xq_diag d;
		struct inputs probe;
		xq_diag_init(&d);
		inputs_init(&probe, p.operands, p.noperands, recursive);
		rc = inputs_guard(&probe, c.out_path, &d);
		inputs_release(&probe);
		if (rc) {
			snprintf(p.err, sizeof(p.err), "%s", d.msg);
			goto usage;
		}
		if (xq_output_plan(&plan, c.out_path, XQ_OUTPUT_FORCE, &d)) {
			snprintf(p.err, sizeof(p.err), "%s", d.msg);
			goto usage;
		}
		if (!c.force && !c.resume_mode && plan.kind == XQ_OUTPUT_REPLACE) {
			snprintf(p.err, sizeof(p.err),
				 "'%s' already exists (use --force to replace it, or --resume to go on with it)",
				 c.out_path);
			goto usage;
		}
		if (!c.force && !c.resume_mode && xq_output_plan(&plan, c.out_path, 0, &d)) {
			snprintf(p.err, sizeof(p.err), "%s", d.msg);
			goto usage;
		}
	}
	if (c.quiet && progress == 2)
		progress = 0;

	/* Engines first: a run that cannot analyse writes nothing. */
	c.w = calloc((size_t)c.nw, sizeof(*c.w));
	c.nslots = 2 * (size_t)c.nw + 2;
	c.slots = calloc(c.nslots, sizeof(*c.slots));
	if (!c.w || !c.slots) {
		cmd_error("out of memory");
		status = XQ_EXIT_IO;
		goto out;
	}
	for (size_t i = 0; i < c.nslots; i++) {
		if (xq_game_init(&c.slots[i].game) || xq_game_init(&c.slots[i].old)) {
			cmd_error("out of memory");
			status = XQ_EXIT_IO;
			goto out;
		}
		xq_buf_init(&c.slots[i].text);
		xq_buf_init(&c.slots[i].old_text);
	}
	cmd_catch_signals();
	t0 = cmd_now();
	if ((status = start_workers(&c)))
		goto out;
	describe_settings(&c);
	c.set.settings = c.settings.ptr;
	c.set.engine = c.engine_path ? xq_engine_name(c.w[0].a.engine) : "built-in";
	if (c.resume_mode && access(c.out_path, F_OK) == 0) {
		struct xq_diag d;
		xq_diag_init(&d);
		if ((rc = resume_open(&c.resume, c.out_path, c.set.ndjson, &d))) {
			cmd_error("--resume: '%s': %s", c.out_path, d.msg);
			status = rc == XQ_EUNSUPPORTED ? XQ_EXIT_USAGE : XQ_EXIT_IO;
			goto out;
		}
	}
	sync_keep_reading(&c);
	c.read_sink.report = read_sink;
	c.read_sink.payload = &c;
	c.write_sink.report = write_sink;
	c.write_sink.payload = &c;
	xq_diag_init(&d0);
	if (inputs_start(&c.inputs, p.operands, p.noperands, recursive, files0, &d0)) {
		cmd_error("%s", d0.msg);
		status = XQ_EXIT_IO;
		goto out;
	}
	if (c.out_path && inputs_guard(&c.inputs, c.out_path, &d0)) {
		inputs_release(&c.inputs);
		status = cmd_usage_error("annotate", "%s", d0.msg);
		goto out;
	}
	if ((status = open_output(&c))) {
		inputs_release(&c.inputs);
		goto out;
	}
	progress_start(progress, "annotate",
		       progress && (progress == 2 || isatty(2))
			       ? inputs_total_size(&c.inputs)
			       : -1);
	rc = run_all(&c);
	inputs_release(&c.inputs);
	print_summary(&c, cmd_now() - t0);
	if (c.conflict)
		status = XQ_EXIT_USAGE;
	else if (rc && cmd_signal)
		status = cmd_signal_status();
	else if (c.io_error || c.lost)
		status = XQ_EXIT_IO;
	else if (c.incomplete || c.skipped || c.failed_files || c.damaged_files ||
		 c.counts.by_sev[XQ_SEV_ERROR])
		status = XQ_EXIT_INVALID;
	goto out;

usage:
	status = cmd_usage_error("annotate", "%s", p.err);
out:
	opt_release(&p);
	release(&c);
	return status;
}
