/*
 * annotate.c: `xqkit annotate`, engine scores and mistake marks for every
 * move of every game, with the built-in engine or any UCI/UCCI engine.
 *
 * Inputs are read by the pool (<xq/batch.h>) as validate and convert read
 * them; every game is analysed (annotate_game.c) on the worker that read
 * it, and written as PGN or as NDJSON records, in input order, to one
 * output (a temporary file renamed at the end, or standard output).
 *
 * Threads.  Analysis, not reading, is the cost here, and a collection is
 * often one big file, so the pool cuts PGN and NDJSON inputs into chunks
 * of one game (other inputs are units of a whole file).  Each worker owns
 * one analyser (worker_init: a built-in search context, or one engine
 * process started before any input is read and restarted when it fails).
 * Every analysis starts from a cleared hash, so a game's annotation does
 * not depend on which worker made it: with a depth or node limit the
 * output is the same bytes for any -j.
 *
 * --resume.  The earlier output is compared game by game with what is
 * written now, in input order, on the output side (annotate_resume.h).
 * The workers cannot know a game's place in that order, so they look its
 * key up in an index of the earlier output's games: a game not there is
 * analysed at once; one that is there is left for the output side, which
 * copies it, or (when the two runs are out of step there) analyses it
 * itself with an analyser of its own, made the first time it needs one.
 *
 * Stopping.  SIGINT, SIGTERM and SIGHUP raise the stop flag that the
 * searches and the engine clients poll; the workers give up their games,
 * the engines are told to stop and then quit (or are killed), and only
 * games whose annotation was finished are written.  Without --resume the
 * output file is then removed; with --resume it is kept (see emit_game),
 * and the exit status is 128 + the signal.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "annotate_engine.h"
#include "annotate_game.h"
#include "annotate_resume.h"
#include "cmd.h"
#include "diagplace.h"
#include "inputs.h"
#include "movetext.h"
#include "opt.h"
#include <xq/batch.h>
#include "progress.h"
#include "report.h"
#include <xq/analyse.h>
#include <xq/buf.h>
#include <xq/file.h>
#include <xq/io.h>
#include <xq/position.h>
#include <xq/record.h>
#include <xq/rules.h>

#define DEFAULT_DEPTH 10
#define SETTINGS_HEAD "xqkit annotate, "
#define CMD_STR_(x) #x
#define CMD_STR(x) CMD_STR_(x)
#define MAX_ENGINE_OPTIONS 64

static const char usage[] =
	"xqkit annotate [--engine PATH|auto [--engine-arg ARG]... [--protocol uci|ucci]\n"
	"                      [--engine-option NAME=VALUE]... [--timeout MS]]\n"
	"                      [--depth N | --nodes N | --movetime MS]\n"
	"                      [--inaccuracy-drop PCT] [--mistake-drop PCT] [--blunder-drop PCT]\n"
	"                      [--inaccuracy CP] [--mistake CP] [--blunder CP] [--cp-scale CP]\n"
	"                      [--pv-threshold CP]\n"
	"                      [--variations] [--rules SET] [--hash MB] [-t pgn|ndjson]\n"
	"                      [--notation NAME] [-o FILE [--force | --resume]] [-r] [-j N] [INPUT...]";
static const char summary[] =
	"Analyse every position of every game with the built-in engine (the default)\n"
	"or an external UCI/UCCI engine, and write the games with the score after each\n"
	"move from red's point of view ({+0.35/8}, {#-3}), ?! ? ?? marks by how much a\n"
	"move lowered its side's expected score, optionally the engine's best line, and a\n"
	"summary per game, as PGN or as NDJSON records (one per ply).  Default limit:\n"
	"--depth " CMD_STR(DEFAULT_DEPTH) ".  Exit status 1 when a game's annotation is incomplete\n"
	"or a game was skipped; 130 on Ctrl-C.";

enum { O_ENGINE = 'E', O_PROTOCOL = 'p', O_ENGINE_OPTION = 'O', O_DEPTH = 'd', O_NODES = 'N',
       O_MOVETIME = 'M', O_TIMEOUT = 'T', O_INACCURACY = 'i', O_MISTAKE = 'm', O_BLUNDER = 'b',
       O_PV = 'V', O_VARIATIONS = 'a', O_RULES = 'u', O_HASH = 'H', O_TO = 't', O_NOTATION = 'n',
       O_ENCODING = 'e', O_ENCODING_OLD = 'c', O_OUT = 'o', O_FORCE = 'f', O_RESUME = 'R',
       O_KEEP = 'k', O_ENGINE_ARG = 'A', O_EVAL_COMMAND = 0x101, O_INACCURACY_DROP,
       O_MISTAKE_DROP, O_BLUNDER_DROP, O_CP_SCALE };

static const struct opt_spec options[] = {
	OPT_VALUE(O_ENGINE, 0, "engine", "PATH", "an external UCI or UCCI engine, or auto: Pikafish or Fairy-Stockfish when found (default: the built-in engine)"),
	OPT_VALUE(O_ENGINE_ARG, 0, "engine-arg", "ARG", "an argument for the engine program (repeatable)"),
	OPT_VALUE(O_PROTOCOL, 0, "protocol", "P", "uci, ucci or auto (default: found from the handshake)"),
	OPT_VALUE(O_ENGINE_OPTION, 0, "engine-option", "NAME=VALUE", "set an engine option (repeatable)"),
	OPT_VALUE(O_DEPTH, 0, "depth", "N", "search each position N plies deep (default " CMD_STR(DEFAULT_DEPTH) ")"),
	OPT_VALUE(O_NODES, 0, "nodes", "N", "search each position N nodes"),
	OPT_VALUE(O_MOVETIME, 0, "movetime", "MS", "search each position MS milliseconds (not reproducible)"),
	OPT_VALUE(O_TIMEOUT, 0, "timeout", "MS", "an engine silent this long is hung (default 300000)"),
	OPT_VALUE(O_INACCURACY_DROP, 0, "inaccuracy-drop", "PCT", "?! for a move that lowers its side's expected score PCT points (default 5)"),
	OPT_VALUE(O_MISTAKE_DROP, 0, "mistake-drop", "PCT", "? for a drop of PCT points (default 10)"),
	OPT_VALUE(O_BLUNDER_DROP, 0, "blunder-drop", "PCT", "?? for a drop of PCT points (default 15)"),
	OPT_VALUE(O_INACCURACY, 0, "inaccuracy", "CP", "mark by centipawns instead: ?! for a loss of CP (default 50)"),
	OPT_VALUE(O_MISTAKE, 0, "mistake", "CP", "? for a loss of CP centipawns (default 100)"),
	OPT_VALUE(O_BLUNDER, 0, "blunder", "CP", "?? for a loss of CP centipawns (default 300)"),
	OPT_VALUE(O_CP_SCALE, 0, "cp-scale", "CP", "the engine's centipawns in the expected score (default: known per engine)"),
	OPT_VALUE(O_PV, 0, "pv-threshold", "CP", "add the engine's best line where a move loses CP or more"),
	OPT_FLAG(O_VARIATIONS, 0, "variations", "annotate the moves of variations too"),
	OPT_VALUE(O_RULES, 0, "rules", "SET", "built-in engine: repetition rules, asian (default), chinese or none"),
	OPT_VALUE(O_HASH, 0, "hash", "MB", "built-in engine: hash table size per thread (default 16)"),
	OPT_VALUE(O_TO, 't', "to", "FORMAT", "pgn (default), ndjson (one record per ply) or html (a page with graphs)"),
	OPT_FLAG(O_EVAL_COMMAND, 0, "eval-command", "write scores as [%eval 0.35,12] commands, as chess tools read them"),
	OPT_VALUE(O_NOTATION, 0, "notation", "NAME", "move notation (" MOVETEXT_NAMES ")"),
	OPT_VALUE(O_ENCODING, 0, "output-encoding", "ENC", "PGN text encoding to write (default UTF-8)"),
	OPT_VALUE(O_ENCODING_OLD, 0, "encoding", "ENC", NULL),
	OPT_VALUE(O_OUT, 'o', "output", "FILE", "output file, or '-' for standard output (the default)"),
	OPT_FLAG(O_FORCE, 0, "force", "replace an existing output file"),
	OPT_FLAG(O_RESUME, 0, "resume", "copy the games FILE already holds annotated the same way; keep finished games on Ctrl-C"),
	OPT_FLAG(O_KEEP, 0, "keep-broken", "annotate broken games up to their first error"),
	OPT_INCLUDE(input_options), /* -j N: N games at once, on N engines */
	OPT_END,
};

/* ---- state ------------------------------------------------------------------ */

struct actx;

/* An analyser and where its engine's warnings go: one per worker (its
 * own, from worker_init), and the output side's when it needs one. */
struct aworker {
	struct actx *c;
	struct annotator a;
};

enum fate {
	FATE_ANALYSE, /* analysed on the worker */
	FATE_SKIP,    /* broken, and not --keep-broken */
	FATE_LATER    /* the earlier output holds it: left for the output side */
};

/* What a worker leaves in xq_batch_job.data for the output side. */
struct ajob {
	enum fate fate;
	uint64_t fingerprint;
	size_t read_diags;         /* the reader's diagnostics come first */
	int failed;                /* annotate_game ran out of memory */
	struct annotate_result res;
};

struct actx {
	/* settings */
	struct annotate_settings set;
	struct xq_buf settings;   /* the marker's settings part */
	struct xq_buf engine;     /* the engine's name (set.engine), which outlives it */
	char *eargs[MAX_ENGINE_OPTIONS + 1]; /* borrowed from argv, NULL-terminated */
	size_t neargs;
	const char *esettings[MAX_ENGINE_OPTIONS + 1]; /* NAME=VALUE, the same */
	size_t neopts;
	const char *engine_path, *protocol;
	uint32_t timeout;
	int ruleset;             /* XQ_RULESET_* of the built-in engine */
	size_t hash_mb;
	int rules_given;
	int no_rules;            /* --rules none: a repetition is a draw, no move limit */
	int keep_broken, force, resume_mode;
	int32_t cp_marks[MARK_COUNT], drop_marks[MARK_COUNT]; /* as given; -1: not given */
	int cp_scale;            /* --cp-scale, 0: the engine's */
	int auto_engine;         /* --engine auto */
	char found_engine[4096]; /* the program --engine auto found */
	const char *to_name;
	struct movetext mt;
	int notation_given;
	const char *out_path;     /* NULL: standard output */
	struct input_opts in;     /* the inputs, -j, -q, --format, ... */
	xq_write_options wopts;   /* the games' format (PGN or HTML) and notation */
	/* analysers */
	struct aworker *late;     /* the output side's, once it needs one */
	int start_status;         /* the exit status when an analyser cannot start */
	atomic_int lost;          /* an engine could not be restarted any more */
	/* inputs, --resume */
	struct inputs inputs;
	struct resume resume;
	struct resume_index index;
	int why_told;
	/* output (the output side) */
	xq_file *out;             /* -o FILE, or standard output */
	int out_kind;             /* XQ_FILE_NEW, _REPLACE or _DIRECT: a file is kept
				     only when a game was written to it */
	struct report_stream stream; /* a _DIRECT output's flushes */
	uint64_t written, kept;   /* games written to the output; those it holds at the
				     end (a file's once put in place, a stream's that
				     reached it) */
	xq_writer *writer;        /* the games onto `out` (not with NDJSON) */
	xq_batch_job *emitting;
	struct report_message open_msg; /* why the writer could not be opened */
	int stopping;             /* a signal, a lost engine, an error: finishing */
	/* totals (the reporter counts inputs, games and diagnostics) */
	struct reporter rep;
	uint64_t annotated, copied, incomplete, skipped, positions, failures,
		 marks[2][MARK_COUNT];
	int io_error;
	int conflict;     /* an input turned out to be the output file */
};

/* Memory ran out on the output side: said once, exit status 3. */
static void out_of_memory(struct actx *c)
{
	if (!c->io_error)
		cmd_error("out of memory annotating a game: it cannot be written whole");
	c->io_error = 1;
}

/* ---- analysers ------------------------------------------------------------------ */

/* Start `w`'s analyser: a search context, or an engine process.  0, or
 * the exit status (with the reason said). */
static int analyser_start(struct actx *c, struct aworker *w)
{
	xq_analyser_options o = XQ_ANALYSER_OPTIONS_INIT;
	struct report_message m = {""};
	int rc;

	w->c = c;
	o.program = c->engine_path;
	o.args = c->eargs;
	o.protocol = c->protocol;
	o.settings = c->esettings;
	o.timeout_ms = c->timeout;
	o.hash_mb = c->hash_mb;
	o.ruleset = c->no_rules ? -1 : c->ruleset;
	o.cancel = cmd_stop;
	o.warn = annotator_warning;
	o.warn_user = &w->a;
	o.flags = XQ_ANALYSER_MANUAL_RESTART;
	if ((rc = xq_analyser_open(&w->a.an, &o, report_keep_message, &m))) {
		cmd_error("%s", m.msg);
		if (!c->engine_path)
			return CMD_EXIT_IO;
		return cmd_signal ? cmd_signal_status() : rc == XQ_ERANGE ? CMD_EXIT_USAGE : CMD_EXIT_IO;
	}
	w->a.builtin = !c->engine_path;
	return 0;
}

static void analyser_free(struct aworker *w)
{
	if (!w)
		return;
	xq_analyser_free(w->a.an);
	free(w);
}

static void describe_settings(struct actx *c, const xq_analyser *a);

/* Pool hook: worker `id`'s analyser, made before any input is read.  The
 * first one names the engine in the settings every marker starts with. */
static int worker_init(void *ctx, int id, void **worker)
{
	struct actx *c = ctx;
	struct aworker *w = calloc(1, sizeof(*w));

	if (!w) {
		cmd_error("out of memory starting an analyser");
		c->start_status = CMD_EXIT_IO;
		return 1;
	}
	if ((c->start_status = analyser_start(c, w))) {
		analyser_free(w);
		return 1;
	}
	if (id == 0) {
		c->set.scale = c->cp_scale ? c->cp_scale : xq_analyser_cp_scale(w->a.an);
		describe_settings(c, w->a.an);
		xq_buf_adds(&c->engine, xq_analyser_description(w->a.an));
		if (xq_buf_error(&c->settings) || xq_buf_error(&c->engine)) {
			cmd_error("out of memory describing the analysis settings");
			c->start_status = CMD_EXIT_IO;
			analyser_free(w);
			return 1;
		}
		c->set.settings = c->settings.ptr;
		c->set.engine = c->engine.ptr;
	}
	*worker = w;
	return 0;
}

static void worker_fini(void *ctx, void *worker)
{
	(void)ctx;
	analyser_free(worker);
}

/* Analyse game `j` with `w`'s analyser (any thread), unless the run is
 * stopping: then the game is left unanalysed (interrupted). */
static void analyse_job(struct actx *c, struct aworker *w, xq_batch_job *j, struct ajob *x)
{
	if (xq_cancel_is_set(cmd_stop)) {
		x->res.interrupted = 1;
		return;
	}
	if (xq_record_is_broken(j->record) &&
	    diag_job_node(j, XQ_ROOT_NODE, 0, XQ_SEVERITY_WARNING, "truncated",
			  "annotated only up to its first error (--keep-broken)"))
		x->failed = 1;
	/* XQ_TEST_FAULT=annotate-nomem (cmd_test_fault()): every game runs out
	 * of memory, so that the tests can see what that does. */
	if (annotate_game(&w->a, &c->set, j, x->fingerprint, c->set.ndjson ? &j->text : NULL,
			  &x->res) ||
	    cmd_test_fault("annotate-nomem"))
		x->failed = 1;
	if (w->a.lost && !atomic_exchange(&c->lost, 1))
		xq_cancel_set(cmd_stop);
}

/* Pool hook, on the worker that read game `j`: skip it, leave it for the
 * output side (the earlier output may hold it), or analyse it. */
static void annotate_process(void *ctx, void *worker, xq_batch_job *j)
{
	struct actx *c = ctx;
	struct ajob *x = j->data;

	x->read_diags = diag_job_count(j);
	if (xq_record_is_broken(j->record) && !c->keep_broken) {
		x->fate = FATE_SKIP;
		if (diag_job_node(j, XQ_ROOT_NODE, 0, XQ_SEVERITY_NOTE, "none",
				  "skipped: the game has an error (--keep-broken annotates it up to the error)"))
			x->failed = 1;
		return;
	}
	x->fingerprint = xq_record_fingerprint(j->record);
	if (c->index.n) {
		struct xq_buf marker = XQ_BUF_INIT;
		int held = annotate_marker(&marker, c->set.settings, x->fingerprint, 1) == 0 &&
			   resume_index_has(&c->index, resume_key(c->set.ndjson, marker.ptr,
								  j->file->name, xq_record_number(j->record)));
		xq_buf_release(&marker);
		if (held) {
			x->fate = FATE_LATER;
			return;
		}
	}
	analyse_job(c, worker, j, x);
}

/* ---- output (the output side, in input order) ------------------------------------ */

/* The writer's diagnostics: about the game being written, or (none is)
 * why it could not be opened. */
static void write_diag(const xq_diagnostic *d, void *user)
{
	struct actx *c = user;

	if (!c->emitting)
		report_keep_message(d, &c->open_msg);
	else if (diag_job_add(c->emitting, d, -1))
		out_of_memory(c);
}

/* Writing failed; `err`: why (an errno value), 0 when not known. */
static void write_failed(struct actx *c, int err)
{
	const char *name = c->out_path ? c->out_path : "<stdout>";

	if (!c->io_error && err)
		cmd_error("cannot write '%s': %s", name, strerror(err));
	else if (!c->io_error)
		cmd_error("cannot write to '%s'", name);
	c->io_error = 1;
}

/* Write a game: `text` (NDJSON records, never a part of them) or `g` (PGN).
 * A stream or device (standard output) is flushed after each game, so
 * that the games known to have reached it are counted (c->kept). */
static void write_game(struct actx *c, const struct xq_buf *text, const xq_record *g)
{
	if (c->set.ndjson) {
		if (xq_buf_error(text)) {
			out_of_memory(c);
			return;
		}
		if (text->len && xq_file_write(c->out, text->ptr, text->len)) {
			write_failed(c, 0);
			return;
		}
	} else if (xq_writer_write(c->writer, g)) {
		write_failed(c, 0);
		return;
	}
	c->written++;
	if (c->out_kind == XQ_FILE_DIRECT) {
		int rc = report_stream_wrote(&c->stream, 0, 1);
		if (rc < 0)
			write_failed(c, errno);
		else
			c->kept = c->written;
	}
}

static void count_annotated(struct actx *c, const struct annotate_result *res)
{
	c->annotated++;
	c->positions += res->analysed;
	c->failures += res->failures;
	if (!res->complete)
		c->incomplete++;
	for (int side = 0; side < 2; side++)
		for (int m = 0; m < MARK_COUNT; m++)
			c->marks[side][m] += res->side[side].marks[m];
}

/* Put a note about game `j` where the reader's diagnostics end (where it
 * stands when the game is looked at before its analysis). */
static void note_at(struct actx *c, xq_batch_job *j, size_t at, const char *fmt,
		    const char *text)
{
	if (diag_job_node(j, XQ_ROOT_NODE, 0, XQ_SEVERITY_NOTE, "none", fmt, text)) {
		out_of_memory(c);
		return;
	}
	diag_job_move_last(j, at);
}

/*
 * Step the earlier output (--resume) for game `j`: RESUME_COPY when it
 * holds the game annotated the same way (now in `j`: game or text),
 * RESUME_REDO when it holds an earlier version (in c->resume), or
 * RESUME_NONE.
 */
static int resume_step(struct actx *c, xq_batch_job *j, struct ajob *x)
{
	struct xq_buf marker = XQ_BUF_INIT;
	int v = RESUME_NONE;

	if (annotate_marker(&marker, c->set.settings, x->fingerprint, 1) == 0)
		v = resume_next(&c->resume, marker.ptr, x->fingerprint, j->file->name,
				xq_record_number(j->record), xq_record_mainline_length(j->record));
	xq_buf_release(&marker);
	if (v == RESUME_COPY) {
		/* What the analysis said is not what is written. */
		diag_job_truncate(j, x->read_diags);
		if (c->set.ndjson) {
			xq_buf_reset(&j->text);
			xq_buf_add(&j->text, c->resume.lines.ptr, c->resume.lines.len);
		} else {
			xq_batch_job_swap_record(j, c->resume.game);
		}
	}
	if (!c->resume.active && c->resume.why[0] && !c->why_told) {
		c->why_told = 1;
		note_at(c, j, x->read_diags, "--resume: %s", c->resume.why);
	}
	return v;
}

/*
 * After the first signal, reads go on only while the earlier output's
 * games are being copied (--resume, in step with the inputs): the end of
 * that cancels them and arms the deadline; a second signal ends the
 * process at once, the earlier output as it was (cmd.h).
 */
static void sync_keep_reading(struct actx *c)
{
	cmd_keep_reading = c->resume.active;
	if (!c->resume.active && cmd_signal && cmd_cancel && !xq_cancel_is_set(cmd_cancel)) {
		xq_cancel_set(cmd_cancel);
		cmd_arm_deadline();
	}
}

/* A game left for the output side that must be analysed after all (the
 * two runs are out of step there): with an analyser of the output
 * side's.  0, or -1 when none can be had. */
static int analyse_late(struct actx *c, xq_batch_job *j, struct ajob *x)
{
	if (!c->late) {
		struct aworker *w = calloc(1, sizeof(*w));
		if (!w || analyser_start(c, w)) {
			analyser_free(w);
			c->io_error = 1;
			return -1;
		}
		c->late = w;
	}
	x->fate = FATE_ANALYSE;
	analyse_job(c, c->late, j, x);
	return 0;
}

/*
 * Write game `j`: skipped, copied from the earlier output, annotated, or
 * (not finished: a stop) as the earlier output had it.  Returns 1 when the
 * run stops here: a game that cannot be written whole, and no earlier
 * version of it to write instead, ends the output.
 */
static int emit_game(struct actx *c, xq_batch_job *j)
{
	struct ajob *x = j->data;
	int v = RESUME_NONE;

	if (x->fate == FATE_SKIP && !x->failed) {
		c->skipped++;
		return 0;
	}
	if (c->resume.active)
		v = resume_step(c, j, x);
	if (v == RESUME_COPY) {
		write_game(c, &j->text, j->record);
		c->copied++;
		return 0;
	}
	if (x->fate == FATE_LATER && (c->stopping || analyse_late(c, j, x)))
		x->res.interrupted = 1;
	if (x->failed) {
		out_of_memory(c); /* the game cannot be written whole */
		return 1;
	}
	if (x->res.interrupted) {
		if (v != RESUME_REDO)
			return 1;
		write_game(c, &c->resume.lines, c->resume.game);
		c->copied++;
		return 0;
	}
	write_game(c, &j->text, j->record);
	count_annotated(c, &x->res);
	return 0;
}

/* Pool hook, in input order: write and count `j`.  Non-zero stops the run. */
static int annotate_emit(void *ctx, xq_batch_job *j)
{
	struct actx *c = ctx;
	int halt = 0;

	if (!c->conflict && inputs_conflict(&c->inputs))
		c->conflict = 1; /* an input is the output file: write nothing */
	if (!c->stopping && (cmd_signal || atomic_load(&c->lost) || c->io_error || c->conflict)) {
		c->stopping = 1;
		xq_cancel_set(cmd_stop);
	}
	c->emitting = j;
	if (j->kind == XQ_BATCH_GAME)
		halt = emit_game(c, j);
	if (!halt) {
		reporter_job(&c->rep, j, NULL);
		reporter_flush(&c->rep);
	}
	c->emitting = NULL;
	if (halt)
		c->resume.active = 0;
	sync_keep_reading(c);
	/* While stopping, read on only to keep the earlier output's games. */
	return halt || (c->stopping && (!c->resume.active || c->io_error || c->conflict));
}

/* ---- setup and the end ---------------------------------------------------------------- */

/* The marker's settings part: everything that changes what is written
 * (`e`: the first worker's engine, or NULL for the built-in one). */
static void describe_settings(struct actx *c, const xq_analyser *a)
{
	struct xq_buf *b = &c->settings;
	const struct annotate_limit *l = &c->set.limit;

	xq_buf_adds(b, SETTINGS_HEAD);
	if (c->engine_path) {
		xq_buf_addf(b, "engine %s (%s)", xq_analyser_description(a), xq_analyser_protocol(a));
		for (size_t i = 0; i < c->neargs; i++)
			xq_buf_addf(b, "%s%s", i ? " " : ", arguments ", c->eargs[i]);
		for (size_t i = 0; i < c->neopts; i++)
			xq_buf_addf(b, "%s%s", i ? " " : ", options ", c->esettings[i]);
	} else {
		xq_buf_addf(b, "built-in engine, %s rules, hash %zu MB",
			    c->no_rules ? "no" : xq_ruleset_name(c->ruleset), c->hash_mb);
	}
	if (l->depth)
		xq_buf_addf(b, ", depth %d", l->depth);
	if (l->nodes)
		xq_buf_addf(b, ", nodes %llu", (unsigned long long)l->nodes);
	if (l->movetime_ms)
		xq_buf_addf(b, ", movetime %u ms", (unsigned)l->movetime_ms);
	if (c->set.by_cp)
		xq_buf_addf(b, ", marks %ld/%ld/%ld", (long)c->set.marks[0], (long)c->set.marks[1],
			    (long)c->set.marks[2]);
	else
		xq_buf_addf(b, ", marks by expected score %ld/%ld/%ld%% (cp scale %d)",
			    (long)c->set.marks[0] / 100, (long)c->set.marks[1] / 100,
			    (long)c->set.marks[2] / 100, c->set.scale);
	if (c->set.pv_threshold >= 0)
		xq_buf_addf(b, ", best lines from %ld", (long)c->set.pv_threshold);
	if (c->set.variations)
		xq_buf_adds(b, ", variations");
	if (c->set.eval_command)
		xq_buf_adds(b, ", eval commands");
}

static int open_output(struct actx *c)
{
	struct report_message m = {""};
	int rc;
	unsigned flags = c->force || c->resume_mode ? XQ_WRITE_FORCE : 0;

	c->out_kind = xq_file_check(c->out_path ? c->out_path : "-", flags, NULL, NULL);
	rc = xq_file_open(&c->out, c->out_path ? c->out_path : "-", flags, report_keep_message, &m);
	if (rc && cmd_signal) {
		/* A FIFO with no reader: open() waits for one, until a signal. */
		cmd_error("interrupted: nothing was written");
		return cmd_signal_status();
	}
	if (rc) {
		cmd_error("%s", m.msg);
		return CMD_EXIT_IO;
	}
	if (!c->set.ndjson) {
		rc = xq_writer_open_file(&c->writer, c->out, &c->wopts, write_diag, c);
		if (rc) {
			cmd_error("%s", c->open_msg.msg);
			xq_file_abort(c->out);
			c->out = NULL;
			return rc == XQ_EUNSUPPORTED ? CMD_EXIT_USAGE : CMD_EXIT_IO;
		}
	}
	return 0;
}

/* Finish the output: commit it, or remove it when `keep` is 0. */
static void close_output(struct actx *c, int keep)
{
	struct report_message m = {""};

	if (!c->out)
		return;
	if (c->writer && xq_writer_close(c->writer))
		c->io_error = 1, keep = 0;
	c->writer = NULL;
	if (keep && !c->io_error && c->annotated + c->copied == 0 && c->out_kind != XQ_FILE_DIRECT) {
		/* A file is kept only when a game was written to it. */
		xq_file_abort(c->out);
		c->out = NULL;
		cmd_warning("no game was written, so '%s' %s", c->out_path,
			    c->out_kind == XQ_FILE_REPLACE ? "is as it was" : "was not made");
		return;
	}
	if (keep && !c->io_error) {
		if (xq_file_commit(c->out, report_keep_message, &m)) {
			cmd_error("%s", m.msg);
			c->io_error = 1;
		} else {
			c->kept = c->written;
		}
	} else if (c->out_kind == XQ_FILE_DIRECT) {
		/* Written as it went; what reached it is counted already. */
		xq_file_commit(c->out, NULL, NULL);
	} else {
		xq_file_abort(c->out);
	}
	c->out = NULL;
}

/* The settings that made the marks, for the summary: the marker's, without
 * its "xqkit annotate, ". */
static const char *settings_of(const struct actx *c)
{
	const char *s = c->set.settings ? c->set.settings : "";
	size_t n = strlen(SETTINGS_HEAD);

	return strncmp(s, SETTINGS_HEAD, n) ? s : s + n;
}

static void summary_head(void *ctx, struct xq_buf *b)
{
	struct actx *c = ctx;

	xq_buf_adds(b, ",\"engine\":");
	report_add_json_safe(b, c->set.engine);
	xq_buf_adds(b, ",\"settings\":");
	report_add_json_safe(b, settings_of(c));
}

static void summary_json(void *ctx, struct xq_buf *b)
{
	struct actx *c = ctx;

	xq_buf_addf(b, ",\"annotated\":%llu,\"copied\":%llu,\"written\":%llu,\"incomplete\":%llu,\"skipped\":%llu,\"positions\":%llu,\"engine_failures\":%llu",
		    (unsigned long long)c->annotated, (unsigned long long)c->copied,
		    (unsigned long long)c->kept,
		    (unsigned long long)c->incomplete, (unsigned long long)c->skipped,
		    (unsigned long long)c->positions, (unsigned long long)c->failures);
	for (int s = 0; s < 2; s++)
		xq_buf_addf(b, ",\"%s\":{\"inaccuracies\":%llu,\"mistakes\":%llu,\"blunders\":%llu}",
			    s ? "black" : "red", (unsigned long long)c->marks[s][0],
			    (unsigned long long)c->marks[s][1], (unsigned long long)c->marks[s][2]);
}

static void summary_text(void *ctx, struct xq_buf *b, double secs)
{
	struct actx *c = ctx;
	double pps = secs > 0 ? (double)c->positions / secs : 0;

	xq_buf_addf(b, ": %llu annotated", (unsigned long long)c->annotated);
	if (c->incomplete)
		xq_buf_addf(b, " (%llu incompletely)", (unsigned long long)c->incomplete);
	if (c->copied)
		xq_buf_addf(b, ", %llu copied from the earlier output", (unsigned long long)c->copied);
	/* Said when the output does not hold them all (a stop, a failed write). */
	if (c->kept != c->annotated + c->copied)
		xq_buf_addf(b, ", %llu written and kept", (unsigned long long)c->kept);
	if (c->skipped)
		xq_buf_addf(b, ", %llu skipped", (unsigned long long)c->skipped);
	reporter_unread_text(&c->rep, b);
	xq_buf_addf(b, "; %llu positions analysed by %s in %.2f s (%.1f/s); %s\n",
		    (unsigned long long)c->positions, c->set.engine, secs, pps, settings_of(c));
}

static const struct report_summary summary_parts = {.text_head = 1, .head = summary_head,
						    .json = summary_json, .text = summary_text};

/* What the end of the run says, and whether it stopped early. */
static void say_how_it_ended(struct actx *c, int early, int cut)
{
	if (c->conflict)
		cmd_error("nothing was written to '%s': it is also an input", c->out_path);
	else if (early && cmd_signal)
		cmd_error("interrupted: %s",
			  cut ? "stopped again while copying the earlier output's games: the file is left as it was"
			  : c->resume_mode ? "the games finished so far are kept; run again with --resume to go on"
			  : c->out_path	   ? "no output is left behind"
					   : "only whole games were written");
	else if (atomic_load(&c->lost))
		cmd_error("the engine cannot be restarted any more: stopping%s",
			  c->resume_mode ? " (the games finished so far are kept)" : "");
}

/*
 * The pool over the inputs, then the end of the output.  Returns 1 when
 * the run stopped early, or the exit status (above 1) when an analyser
 * could not start.
 */
static int run(struct actx *c)
{
	/* Games, not files, are what the threads share: every input that can
	 * be cut is cut into chunks of one game, and the games of one that
	 * cannot (a CBL library, a page of DhtmlXQ records) are analysed by
	 * every worker. */
	xq_batch_config cfg = {.worker_init = worker_init, .worker_fini = worker_fini,
				  .process = annotate_process, .emit = annotate_emit, .ctx = c,
				  .job_data = sizeof(struct ajob),
				  .split_min = 1, .chunk_games = 1, .chunk_bytes = 1,
				  .share_process = 1};
	int rc, early, cut;

	rc = input_opts_run(&c->in, &c->inputs, &cfg);
	if (c->start_status) {
		close_output(c, 0);
		return c->start_status;
	}
	if (rc == XQ_ENOMEM) {
		cmd_error("out of memory reading the inputs");
		c->io_error = 1;
	}
	if (cmd_signal || atomic_load(&c->lost) || c->io_error || c->conflict)
		c->stopping = 1;
	early = c->stopping || rc != 0;
	/* An early stop keeps what was written only with --resume, and not
	 * when a second signal cut the copy of the earlier output's games
	 * short (the file would hold less than before the run). */
	cut = rc == XQ_ECANCELED && c->resume.active;
	close_output(c, !c->conflict && (!early || (c->resume_mode && !c->io_error && !cut)));
	say_how_it_ended(c, early, cut);
	return early;
}

/* ---- options ------------------------------------------------------------------------ */

static int parse_engine_option(struct actx *c, struct opt_parser *p, const char *value)
{
	struct report_message m = {""};
	int rc;

	if (c->neopts == MAX_ENGINE_OPTIONS)
		return opt_error(p, "at most %d --engine-option", MAX_ENGINE_OPTIONS);
	if ((rc = xq_analyser_check_setting(value, report_keep_message, &m))) {
		opt_error(p, "--engine-option: %.200s",
			  rc == XQ_ENOMEM ? "out of memory" : m.msg);
		if (rc == XQ_ENOMEM)
			p->status = CMD_EXIT_IO;
		return -1;
	}
	c->esettings[c->neopts++] = value;
	return 0;
}

/* A numeric option: its value into *out (an int32_t, int, uint32_t,
 * uint64_t or size_t as `kind` says); -1 on a usage error. */
enum num_kind { NUM_INT, NUM_U32, NUM_U64, NUM_I32, NUM_SIZE };

static int num_option(struct opt_parser *p, const char *name, const char *value, long min,
		      long max, enum num_kind kind, void *out)
{
	long v = opt_int(p, name, value, min, max);

	if (v < 0)
		return -1;
	switch (kind) {
	case NUM_INT: *(int *)out = (int)v; break;
	case NUM_U32: *(uint32_t *)out = (uint32_t)v; break;
	case NUM_U64: *(uint64_t *)out = (uint64_t)v; break;
	case NUM_I32: *(int32_t *)out = (int32_t)v; break;
	case NUM_SIZE: *(size_t *)out = (size_t)v; break;
	}
	return 0;
}

/* One option of the table; 0, or -1 on a usage error (p->err says why). */
static int take_option(void *ctx, struct opt_parser *p, int id, const char *value)
{
	struct actx *c = ctx;
	struct annotate_settings *s = &c->set;
	const char *name;
	int rs;

	switch (id) {
	case O_ENGINE:
		if (!*value)
			return opt_error(p, "--engine needs a program");
		c->auto_engine = !strcmp(value, "auto");
		c->engine_path = c->auto_engine ? NULL : value;
		return 0;
	case O_PROTOCOL: c->protocol = value; return 0;
	case O_ENGINE_ARG:
		if (c->neargs == MAX_ENGINE_OPTIONS)
			return opt_error(p, "at most %d --engine-arg", MAX_ENGINE_OPTIONS);
		c->eargs[c->neargs++] = (char *)value;
		return 0;
	case O_ENGINE_OPTION: return parse_engine_option(c, p, value);
	case O_DEPTH:
		return num_option(p, "--depth", value, 1, XQ_ANALYSIS_MAX_DEPTH, NUM_INT, &s->limit.depth);
	case O_NODES: return num_option(p, "--nodes", value, 1, 2000000000L, NUM_U64, &s->limit.nodes);
	case O_MOVETIME:
		return num_option(p, "--movetime", value, 1, 3600000L, NUM_U32, &s->limit.movetime_ms);
	case O_TIMEOUT: return num_option(p, "--timeout", value, 1, 86400000L, NUM_U32, &c->timeout);
	case O_INACCURACY:
		return num_option(p, "--inaccuracy", value, 1, 100000, NUM_I32, &c->cp_marks[MARK_INACCURACY]);
	case O_MISTAKE:
		return num_option(p, "--mistake", value, 1, 100000, NUM_I32, &c->cp_marks[MARK_MISTAKE]);
	case O_BLUNDER:
		return num_option(p, "--blunder", value, 1, 100000, NUM_I32, &c->cp_marks[MARK_BLUNDER]);
	case O_INACCURACY_DROP:
		return num_option(p, "--inaccuracy-drop", value, 1, 100, NUM_I32, &c->drop_marks[MARK_INACCURACY]);
	case O_MISTAKE_DROP:
		return num_option(p, "--mistake-drop", value, 1, 100, NUM_I32, &c->drop_marks[MARK_MISTAKE]);
	case O_BLUNDER_DROP:
		return num_option(p, "--blunder-drop", value, 1, 100, NUM_I32, &c->drop_marks[MARK_BLUNDER]);
	case O_CP_SCALE: return num_option(p, "--cp-scale", value, 1, 100000, NUM_INT, &c->cp_scale);
	case O_PV: return num_option(p, "--pv-threshold", value, 0, 100000, NUM_I32, &s->pv_threshold);
	case O_VARIATIONS: s->variations = 1; return 0;
	case O_EVAL_COMMAND: s->eval_command = 1; return 0;
	case O_RULES:
		c->no_rules = !strcmp(value, "none");
		if (c->no_rules) {
			c->rules_given = 1;
			return 0;
		}
		rs = c->ruleset;
		if (opt_rules(p, value, 0, &c->rules_given, &rs))
			return -1;
		c->ruleset = rs;
		return 0;
	case O_HASH: return num_option(p, "--hash", value, 1, 65536, NUM_SIZE, &c->hash_mb);
	case O_TO: c->to_name = value; return 0;
	case O_NOTATION:
		if (movetext_parse(value, &c->mt))
			return opt_error(p, "--notation must be one of " MOVETEXT_NAMES ", not '%s'",
					 value);
		c->notation_given = 1;
		return 0;
	case O_ENCODING_OLD:
		input_opts_alias(&c->in, "--encoding", "--output-encoding");
		/* fall through */
	case O_ENCODING:
		if (opt_encoding(p, value, &name))
			return -1;
		c->wopts.encoding = name;
		return 0;
	case O_OUT: c->out_path = value; return 0;
	case O_FORCE: c->force = 1; return 0;
	case O_RESUME: c->resume_mode = 1; return 0;
	case O_KEEP: c->keep_broken = 1; return 0;
	}
	return 0;
}

/* The engine options together; 0 or -1 (p->err says why). */
static int check_engine(struct actx *c, struct opt_parser *p)
{
	if (c->auto_engine && (c->protocol || c->neopts || c->neargs || c->rules_given))
		return opt_error(p, "%s is for one engine: --engine auto may choose any (name it with --engine PATH)",
				 c->protocol ? "--protocol" : c->neopts ? "--engine-option"
				 : c->neargs ? "--engine-arg" : "--rules");
	if (!c->engine_path && !c->auto_engine) {
		if (!c->protocol && !c->neopts && !c->neargs && !c->timeout)
			return 0;
		return opt_error(p, "%s is for an external engine (give --engine PATH)",
				 c->protocol ? "--protocol" : c->neopts ? "--engine-option"
				 : c->neargs ? "--engine-arg" : "--timeout");
	}
	if (c->rules_given)
		return opt_error(p, "--rules is for the built-in engine; an external engine judges repetitions by its own rules");
	if (c->protocol && strcmp(c->protocol, "uci") && strcmp(c->protocol, "ucci") &&
	    strcmp(c->protocol, "auto"))
		return opt_error(p, "--protocol must be uci, ucci or auto, not '%s'",
				 c->protocol);
	return 0;
}

static int check_marks(struct actx *c, struct opt_parser *p);

/* What is written, and how; 0 or -1 (p->err says why). */
static int check_writing(struct actx *c, struct opt_parser *p)
{
	struct annotate_settings *s = &c->set;

	if (!strcmp(c->to_name, "ndjson")) {
		s->ndjson = 1;
	} else if (strcmp(c->to_name, "pgn") && strcmp(c->to_name, "html"))
		return opt_error(p, "-t must be pgn, ndjson or html, not '%s'", c->to_name);
	if (c->resume_mode && !strcmp(c->to_name, "html"))
		return opt_error(p, "--resume reads back PGN or NDJSON: annotate to one of them, then convert -t html");
	/* The games are written by the format's own writer (PGN or HTML). */
	c->wopts.format = s->ndjson ? "pgn" : c->to_name;
	s->mt = c->mt;
	if (c->notation_given) {
		c->wopts.dialect = c->mt.notation;
		c->wopts.dialect_flags = c->mt.flags;
	}
	if (!s->ndjson && (c->mt.notation == XQ_DIALECT_UCI || c->mt.notation == XQ_DIALECT_UCI1))
		return opt_error(p, "PGN and HTML move text is written in chinese, iccs or wxf notation; %s is for -t ndjson",
				 xq_dialect_name(c->mt.notation));
	if (s->ndjson && c->wopts.encoding && strcmp(c->wopts.encoding, xq_encoding_canonical("utf-8")))
		return opt_error(p, "NDJSON is always UTF-8: --output-encoding is for PGN");
	if (!s->limit.depth && !s->limit.nodes && !s->limit.movetime_ms)
		s->limit.depth = DEFAULT_DEPTH;
	return check_marks(c, p);
}

/* The thresholds of the marks; 0 or -1 (p->err says why). */
static int check_marks(struct actx *c, struct opt_parser *p)
{
	struct annotate_settings *s = &c->set;
	int cp = 0, drop = 0;

	for (int m = 0; m < MARK_COUNT; m++)
		cp |= c->cp_marks[m] >= 0, drop |= c->drop_marks[m] >= 0;
	if (cp && drop)
		return opt_error(p, "the marks go by the drop in expected score (--inaccuracy-drop, ...) or by centipawns (--inaccuracy, ...), not both");
	s->by_cp = cp;
	annotate_default_marks(s->marks, cp);
	for (int m = 0; m < MARK_COUNT; m++) {
		if (cp && c->cp_marks[m] >= 0)
			s->marks[m] = c->cp_marks[m];
		if (drop && c->drop_marks[m] >= 0)
			s->marks[m] = c->drop_marks[m] * 100;
	}
	if (s->marks[MARK_INACCURACY] > s->marks[MARK_MISTAKE] ||
	    s->marks[MARK_MISTAKE] > s->marks[MARK_BLUNDER]) {
		int k = s->by_cp ? 1 : 100;
		return opt_error(p, "the thresholds must not decrease: --inaccuracy%s %ld, --mistake%s %ld, --blunder%s %ld",
				 s->by_cp ? "" : "-drop", (long)s->marks[0] / k, s->by_cp ? "" : "-drop",
				 (long)s->marks[1] / k, s->by_cp ? "" : "-drop", (long)s->marks[2] / k);
	}
	return 0;
}

/* The output file: never an input, and replaced only when asked; 0 or -1. */
static int check_output(struct actx *c, struct opt_parser *p)
{
	struct report_message m = {""};
	struct inputs probe;
	int rc, kind;

	if (c->out_path && !strcmp(c->out_path, "-"))
		c->out_path = NULL;
	if (c->resume_mode && !c->out_path)
		return opt_error(p, "--resume needs -o FILE: it reads what FILE already holds");
	if (c->resume_mode && c->force)
		return opt_error(p, "--resume keeps what FILE holds; --force would throw it away");
	if (c->in.fmt == REPORT_NDJSON && !c->out_path)
		return opt_error(p, "--format ndjson writes to standard output: give -o for the annotated games");
	if (!c->out_path)
		return 0;
	/* Never an input, however it is found: refused now when an operand
	 * is the file or holds it, else when it is met. */
	inputs_init(&probe, p->operands, p->noperands, c->in.recursive);
	rc = inputs_guard(&probe, c->out_path, report_keep_message, &m);
	inputs_release(&probe);
	if (rc)
		return opt_error(p, "%s", m.msg);
	if ((kind = xq_file_check(c->out_path, XQ_WRITE_FORCE, report_keep_message, &m)) < 0)
		return opt_error(p, "%s", m.msg);
	if (!c->force && !c->resume_mode && kind == XQ_FILE_REPLACE)
		return opt_error(p, "'%s' already exists (use --force to replace it, or --resume to go on with it)",
				 c->out_path);
	if (!c->force && !c->resume_mode && xq_file_check(c->out_path, 0, report_keep_message, &m) < 0)
		return opt_error(p, "%s", m.msg);
	return 0;
}

/* Every option together; 0 or -1 (p->err says why). */
static int check_options(void *ctx, struct opt_parser *p)
{
	struct actx *c = ctx;

	if (check_writing(c, p) || check_engine(c, p) || input_opts_check(&c->in, p))
		return -1;
	return check_output(c, p);
}

static const struct input_command command = {"annotate", options, usage, summary, take_option,
					     check_options};

/* ---- the command ---------------------------------------------------------------------- */

static void init_ctx(struct actx *c)
{
	memset(c, 0, sizeof(*c));
	input_opts_init(&c->in);
	c->wopts = (xq_write_options)XQ_WRITE_OPTIONS_INIT;
	c->ruleset = XQ_RULESET_ASIAN;
	c->hash_mb = 16;
	c->to_name = "pgn";
	c->mt = movetext_default();
	annotate_default_marks(c->set.marks, 0);
	for (int m = 0; m < MARK_COUNT; m++)
		c->cp_marks[m] = c->drop_marks[m] = -1;
	c->set.pv_threshold = -1;
	c->set.engine = "built-in";
	atomic_init(&c->lost, 0);
	xq_buf_init(&c->settings);
	xq_buf_init(&c->engine);
}

static void release(struct actx *c)
{
	resume_close(&c->resume);
	resume_index_release(&c->index);
	analyser_free(c->late);
	xq_buf_release(&c->settings);
	xq_buf_release(&c->engine);
	reporter_release(&c->rep);
}

/* --resume with an earlier output: open it, and index its games.  0, or
 * the exit status. */
static int start_resume(struct actx *c)
{
	char why[XQ_MESSAGE_SIZE];
	int rc;

	if (!c->resume_mode || access(c->out_path, F_OK) != 0)
		return 0;
	if ((rc = resume_open(&c->resume, c->out_path, c->set.ndjson, why, sizeof(why)))) {
		cmd_error("--resume: '%s': %s", c->out_path, why);
		return rc == XQ_EUNSUPPORTED ? CMD_EXIT_USAGE : CMD_EXIT_IO;
	}
	/* Without the index every game is analysed, and copied or not as
	 * the earlier output says: slower, never wrong. */
	if (resume_index_build(&c->index, c->out_path, c->set.ndjson))
		resume_index_release(&c->index);
	return 0;
}

/* Open the inputs and the output, and run.  Returns the exit status. */
static int annotate_inputs(struct actx *c, struct opt_parser *p)
{
	struct report_message m = {""};
	double t0 = cmd_now();
	int rc, status;

	/* A missing input or a directory without -r is said before any
	 * engine starts. */
	if ((status = inputs_check_operands(p->operands, p->noperands, c->in.recursive,
					    report_keep_message, &m))) {
		if (status == CMD_EXIT_USAGE)
			return cmd_usage_error("annotate", "%s", m.msg);
		cmd_error("%s", m.msg);
		return status;
	}
	if (c->auto_engine)
		c->engine_path = annotate_find_engine(c->timeout, c->found_engine,
						      sizeof(c->found_engine));
	if ((status = start_resume(c)))
		return status;
	sync_keep_reading(c);
	if ((status = input_opts_start(&c->in, &c->inputs, p, "annotate")))
		return status;
	if ((c->out_path && inputs_guard(&c->inputs, c->out_path, report_keep_message, &m)) ||
	    (status = open_output(c))) {
		progress_stop();
		inputs_release(&c->inputs);
		return status ? status : cmd_usage_error("annotate", "%s", m.msg);
	}
	rc = run(c);
	inputs_release(&c->inputs);
	if (rc > 1)
		return rc; /* an analyser could not start */
	reporter_summary(&c->rep, cmd_now() - t0, c->rep.games, &summary_parts, c);
	if (c->conflict)
		return CMD_EXIT_USAGE;
	if (rc && cmd_signal)
		return cmd_signal_status();
	if (c->io_error || atomic_load(&c->lost))
		return CMD_EXIT_IO;
	return reporter_status(&c->rep, c->incomplete + c->skipped);
}

int cmd_annotate(int argc, char **argv)
{
	struct opt_parser p;
	struct actx c;
	int status;

	init_ctx(&c);
	if ((status = input_opts_command(&c.in, &p, argc, argv, &command, &c)) == OPT_RUN) {
		reporter_init(&c.rep, "annotate", &c.in);
		cmd_catch_signals();
		c.set.stop = cmd_stop;
		if (!cmd_stop) {
			cmd_error("out of memory setting up the signals");
			status = CMD_EXIT_IO;
		} else {
			status = annotate_inputs(&c, &p);
		}
	}
	opt_release(&p);
	release(&c);
	return status;
}
