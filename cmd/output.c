/*
 * output.c: games written through the format writers (see output.h), the
 * part of convert that find shares.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "diag.h"
#include "diagplace.h"
#include "format.h"
#include "game.h"
#include "inputs.h"
#include "io.h"
#include "movetext.h"
#include "name_template.h"
#include "opt.h"
#include "output.h"
#include <xq/batch.h>
#include "progress.h"
#include "report.h"
#include <xq/buf.h>
#include <xq/utf8.h>

enum { O_TO = OPT_ID_OUTPUT, O_OUT, O_NAME, O_NOTATION, O_ENCODING, O_ENCODING_OLD, O_VERSION,
       O_FORCE, O_KEEP, O_VERIFY, O_STRICT, O_SYNC };

/* What output.h's struct output holds of the library's private types. */
struct output_impl {
	const struct xq_format *fmt; /* -t */
	struct xq_write_opts wo;     /* output.wopts, as the format's writer takes them */
	struct xq_sink sink;         /* writers' and read-back's diagnostics */
};

const struct opt_spec output_options[] = {
	OPT_VALUE(O_TO, 't', "to", "FORMAT", "the format to write"),
	OPT_VALUE(O_OUT, 'o', "output", "OUT", "output file, '-' (standard output, the default) or DIR/"),
	OPT_VALUE(O_NAME, 0, "name", "TEMPLATE", "file names under DIR/ (default " NAME_TEMPLATE_DEFAULT ")"),
	OPT_VALUE(O_NOTATION, 0, "notation", "NAME", "moves in PGN: chinese, chinese-traditional, wxf or iccs; in NDJSON and HTML also uci, uci1"),
	OPT_VALUE(O_ENCODING, 0, "output-encoding", "ENC", "text encoding to write (default: the format's, UTF-8)"),
	OPT_VALUE(O_ENCODING_OLD, 0, "encoding", "ENC", NULL),
	OPT_VALUE(O_VERSION, 0, "format-version", "V", "version of the format to write (e.g. 0x0A)"),
	OPT_FLAG(O_FORCE, 0, "force", "replace existing output files (never an input)"),
	OPT_FLAG(O_KEEP, 0, "keep-broken", "write broken games up to their first error"),
	OPT_FLAG(O_VERIFY, 0, "verify", "read every game written back and compare"),
	OPT_FLAG(O_STRICT, 0, "strict", "refuse a game the format cannot hold whole"),
	OPT_VALUE(O_SYNC, 0, "sync", "WHEN", "files on disk: end (default: once, at the end), each (before each takes its name) or none"),
	OPT_END,
};


/* A writer's diagnostic is about the game of `j` being written: place it
 * there, in the input, whatever the writer filled in. */
static void add_writer_diag(const struct output *c, xq_batch_job *j, const struct xq_diag *d)
{
	/* The public API's diagnostic is the library's own (api/internal.h). */
	diag_job_add(j, (const xq_diagnostic *)(const void *)d,
		     c->strict && d->code == XQ_D_LOSS ? XQ_SEVERITY_ERROR : -1);
}

static void writer_sink(const struct xq_diag *d, void *payload)
{
	struct output *c = payload;

	if (!c->cur) {
		diag_list_add(&c->scratch, xq_diag_public(d));
		return;
	}
	add_writer_diag(c, c->cur, d);
}

/* The sink of a game written on a worker thread (output_render). */
struct job_sink {
	const struct output *c;
	xq_batch_job *j;
};

static void job_sink_report(const struct xq_diag *d, void *payload)
{
	const struct job_sink *s = payload;

	add_writer_diag(s->c, s->j, d);
}

static void add_diag(xq_batch_job *j, enum xq_severity sev, enum xq_diag_code code,
		     const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
static void add_diag(xq_batch_job *j, enum xq_severity sev, enum xq_diag_code code,
		     const char *fmt, ...)
{
	struct xq_diag d;
	va_list ap;

	xq_diag_init(&d);
	d.source = j->file->name;
	if (j->kind == XQ_BATCH_GAME) {
		d.place = j->record->g.place;
		d.has_offset = j->record->g.place.line == 0;
		d.game = j->record->g.number;
	}
	va_start(ap, fmt);
	xq_diag_vset(&d, 0, code, sev, fmt, ap);
	va_end(ap);
	xq_diagnostics_add(j->diags, xq_diag_public(&d));
}

/* ---- writing into memory ---------------------------------------------------- */

/* Drain what the writer produced into `dst` (appended), emptying c->mem. */
static void drain(struct output *c, struct xq_buf *dst)
{
	if (dst) {
		xq_buf_add(dst, c->mem.ptr, c->mem.len);
		if (xq_buf_error(&c->mem) && !dst->err)
			dst->err = xq_buf_error(&c->mem); /* what the writer lost, dst lost */
	}
	xq_buf_reset(&c->mem);
}

/* Open a writer reporting to `sink` on `mem` (appended to).  Returns 0
 * or an XQ_E* code. */
static int open_writer_on(const struct output *c, const struct xq_sink *sink, struct xq_buf *mem,
			  void **w, struct xq_output **o)
{
	int rc = xq_output_open_mem(o, mem);

	if (rc)
		return rc;
	rc = c->impl->fmt->open_writer(w, *o, &c->impl->wo, sink);
	if (rc) {
		xq_output_abort(*o);
		*o = NULL;
	}
	return rc;
}

/* Open a writer on c->mem.  Returns 0 or an XQ_E* code. */
static int open_mem_writer(struct output *c, void **w, struct xq_output **o)
{
	return open_writer_on(c, &c->impl->sink, &c->mem, w, o);
}

/* The whole document one fresh writer reporting to `sink` makes of `g`,
 * appended to `out` (on any thread: `c` is only read). */
static int write_alone_to(const struct output *c, const struct xq_sink *sink,
			  const struct xq_game *g, struct xq_buf *out)
{
	struct xq_output *o = NULL;
	void *w = NULL;
	int rc;

	if ((rc = open_writer_on(c, sink, out, &w, &o)))
		return rc;
	rc = c->impl->fmt->write(w, g);
	c->impl->fmt->close_writer(w);
	xq_output_commit(o, NULL);
	return rc;
}

/* The same on the output thread, reporting to c->sink. */
static int write_alone(struct output *c, const struct xq_game *g, struct xq_buf *out)
{
	return write_alone_to(c, &c->impl->sink, g, out);
}

/* ---- --verify ------------------------------------------------------------------ */

static int same_result(enum xq_result a, enum xq_result b)
{
	if (a == XQ_RESULT_NONE)
		a = XQ_RESULT_UNKNOWN;
	if (b == XQ_RESULT_NONE)
		b = XQ_RESULT_UNKNOWN;
	return a == b;
}

/* A list --verify's own reading and writing report to (not the job's). */
struct scratch {
	struct xq_sink sink;
	struct diag_list *list;
};

static void scratch_report(const struct xq_diag *d, void *payload)
{
	diag_list_add(payload, xq_diag_public(d));
}

/*
 * Read `doc` back and compare with `g`; on a difference add an error to
 * the job and return 1.  `lossy`: the writer reported losses for `g`.
 * On any thread: `c` is only read, and `sc` is the caller's.
 */
static int verify_game(const struct output *c, const struct scratch *sc, xq_batch_job *j,
		       const struct xq_buf *doc, int lossy)
{
	const struct xq_game *g = &j->record->g;
	unsigned caps = c->impl->fmt->caps, ignore = XQ_EQ_IGNORE_TAGS | XQ_EQ_IGNORE_RESULT;
	struct xq_input *in = NULL;
	struct xq_read_opts ro = XQ_READ_OPTS_INIT;
	struct xq_game back;
	struct xq_buf again = XQ_BUF_INIT;
	void *reader = NULL;
	char why[256] = "";
	int rc, ok = 0;

	if (xq_game_init(&back))
		return 1;
	diag_list_clear(sc->list);
	if (xq_input_open_mem(&in, "<written>", doc->ptr, doc->len) ||
	    c->impl->fmt->open_reader(&reader, in, &ro, &sc->sink)) {
		snprintf(why, sizeof(why), "the output cannot be opened again by the %s reader",
			 c->impl->fmt->name);
		goto done;
	}
	rc = c->impl->fmt->read(reader, &back);
	if (rc != 1) {
		snprintf(why, sizeof(why), "no game could be read back");
		goto done;
	}
	for (size_t i = 0; i < diag_list_count(sc->list); i++)
		if (xq_diagnostic_severity(diag_list_at(sc->list, i)) == XQ_SEVERITY_ERROR) {
			snprintf(why, sizeof(why), "reading it back: %.200s",
				 xq_diagnostic_message(diag_list_at(sc->list, i)));
			goto done;
		}
	if (!(caps & XQ_CAP_VARIATIONS))
		ignore |= XQ_EQ_MAINLINE_ONLY;
	if (!(caps & XQ_CAP_COMMENTS) || lossy)
		ignore |= XQ_EQ_IGNORE_COMMENTS;
	if (!(caps & XQ_CAP_PRE_COMMENTS) || lossy)
		ignore |= XQ_EQ_IGNORE_PRE_COMMENTS;
	if (!(caps & XQ_CAP_NAGS) || lossy)
		ignore |= XQ_EQ_IGNORE_NAGS;
	if (!xq_game_equal(g, &back, ignore, why, sizeof(why)))
		goto done;
	if (!same_result(g->result, back.result)) {
		snprintf(why, sizeof(why), "the result %s came back as %s", xq_result_string(g->result),
			 xq_result_string(back.result));
		goto done;
	}
	if (!lossy) {
		for (size_t i = 0; i < g->ntags; i++) {
			const struct xq_tag *t = &g->tags[i];
			const char *v;
			/* Tags that describe the record itself are rewritten by
			 * writers: the start position, the result, the notation. */
			if (!strcmp(t->name, "FEN") || !strcmp(t->name, "Result") ||
			    !strcmp(t->name, "Format"))
				continue;
			v = xq_game_tag(&back, t->name);
			if (!v && (!(caps & XQ_CAP_ANY_TAGS) || !*t->value))
				continue; /* (an empty tag says nothing: DhtmlXQ writes none) */
			if (xq_game_tag(g, t->name) != t->value)
				continue; /* a repeated tag: the first one counts */
			if (!v || strcmp(v, t->value)) {
				snprintf(why, sizeof(why), "the %.40s tag '%.60s' came back as '%.60s'",
					 t->name, t->value, v ? v : "(absent)");
				goto done;
			}
		}
	}
	/* The game read back must write to the same bytes again. */
	{
		struct xq_buf first = XQ_BUF_INIT;
		rc = write_alone_to(c, &sc->sink, g, &first);
		if (!rc)
			rc = write_alone_to(c, &sc->sink, &back, &again);
		if (!rc && (first.len != again.len || memcmp(first.ptr, again.ptr, first.len))) {
			size_t k = 0;
			while (k < first.len && k < again.len && first.ptr[k] == again.ptr[k])
				k++;
			snprintf(why, sizeof(why), "written again after reading back, it differs at byte %zu",
				 k);
			xq_buf_release(&first);
			goto done;
		}
		xq_buf_release(&first);
	}
	ok = 1;
done:
	if (reader)
		c->impl->fmt->close_reader(reader);
	xq_input_close(in);
	xq_game_release(&back);
	xq_buf_release(&again);
	/* Where the writer reported no loss, its own reader must give the game
	 * back whole: anything else is a bug in xqkit (exit status 4), not a
	 * property of the input.  After a reported loss (text cut to fit a
	 * field, characters the encoding lacks), the copy may differ. */
	if (!ok)
		add_diag(j, XQ_SEV_ERROR, lossy ? XQ_D_LOSS : XQ_D_INTERNAL, "--verify: %s", why);
	return !ok;
}

/* ---- one game ------------------------------------------------------------------ */

/* The job's diagnostics from `from` on that are losses or, with
 * `errors`, errors. */
static int count_since(const xq_batch_job *j, size_t from, int errors)
{
	int n = 0;
	for (size_t i = from; i < xq_diagnostics_count(j->diags); i++) {
		const xq_diagnostic *d = xq_diagnostics_at(j->diags, i);
		n += errors ? xq_diagnostic_severity(d) == XQ_SEVERITY_ERROR
			    : !strcmp(xq_diagnostic_code(d), "loss");
	}
	return n;
}

/*
 * --sync for the files under DIR/ (man xqkit-convert(1)): each is synced
 * before it takes its name, or (end) only one that replaces a file, the
 * others at once when the run ends (sync_dir), or none.
 */
static unsigned output_sync_flags(const struct output *c)
{
	unsigned named = c->fault_named_temp ? XQ_OUTPUT_NAMED_TEMP : 0;

	switch (c->sync) {
	case SYNC_EACH: return named;
	case SYNC_END: return named | XQ_OUTPUT_SYNC_REPLACED;
	case SYNC_NONE: break;
	}
	return named | XQ_OUTPUT_NO_SYNC;
}

/* -o DIR/, at the end of a run that was not interrupted: what was
 * written under DIR/ reaches the disk, names too, unless --sync none. */
static void sync_dir(struct output *c)
{
	struct xq_diag d;

	if (!c->dir_mode || c->sync == SYNC_NONE || c->written == 0)
		return;
	xq_diag_init(&d);
	if (xq_output_sync(c->dir, &d)) {
		cmd_error("%s", d.msg);
		c->io_error = 1;
	}
}

/* Write one game to its own file under DIR/.  Returns 0, or 1 when it was
 * not written (reported). */
static int write_to_dir(struct output *c, xq_batch_job *j, const struct xq_buf *doc)
{
	struct xq_buf name = XQ_BUF_INIT, path = XQ_BUF_INIT;
	struct xq_output *o;
	struct xq_diag d;
	int rc, n = 1;

	if (name_template_expand(&name, c->template, j->record, j->file->path, c->seq))
		goto nomem;
	for (;;) {
		xq_buf_reset(&path);
		xq_buf_adds(&path, c->dir);
		xq_buf_add(&path, name.ptr, name.len);
		if (n > 1)
			xq_buf_addf(&path, "-%d", n);
		name_template_add_extension(&path, c->impl->fmt->extensions);
		if (xq_buf_error(&path))
			goto nomem;
		if (!name_set_has(&c->names, path.ptr))
			break;
		n++;
	}
	xq_buf_release(&name);
	if (name_set_add(&c->names, path.ptr))
		goto nomem;
	/* Only --force replaces a file, and never an input (the inputs were
	 * all listed before the run: inputs_prescan). */
	if (c->force && inputs_is_input(c->inputs, path.ptr)) {
		add_diag(j, XQ_SEV_ERROR, XQ_D_IO,
			 "not written: '%s' is one of the inputs, and an input is never overwritten",
			 path.ptr);
		xq_buf_release(&path);
		return 1;
	}
	xq_diag_init(&d);
	rc = xq_output_open(&o, path.ptr, (c->force ? XQ_OUTPUT_FORCE : 0) | output_sync_flags(c), &d);
	if (!rc) {
		xq_output_write(o, doc->ptr, doc->len);
		rc = xq_output_commit(o, &d);
	}
	if (rc) {
		add_diag(j, XQ_SEV_ERROR, d.code, "not written: %s", d.msg);
		if (d.code == XQ_D_RESOURCE) {
			/* A full disk: every later game would fail the same way. */
			c->disk_full = 1;
			c->io_error = 1;
			c->stop = 1;
		} else if (rc != XQ_EIO || !strstr(d.msg, "already exists")) {
			c->io_error = 1;
		}
		xq_buf_release(&path);
		return 1;
	}
	if (c->rep && c->rep->verbose)
		add_diag(j, XQ_SEV_NOTE, XQ_D_NONE, "written to '%s'", path.ptr);
	xq_buf_release(&path);
	return 0;

nomem:
	add_diag(j, XQ_SEV_ERROR, XQ_D_RESOURCE, "not written: out of memory");
	c->io_error = 1;
	c->stop = 1;
	xq_buf_release(&name);
	xq_buf_release(&path);
	return 1;
}

/* --verify on the bytes written for a game (with what the writer puts
 * around games in one output, and `sep` before them when not NULL): 0,
 * or 1 when it did not verify (reported).  On any thread, as
 * verify_game. */
static int verify_written(const struct output *c, const struct scratch *sc, xq_batch_job *j,
			  const char *sep, const struct xq_buf *doc, int lossy)
{
	struct xq_buf whole = XQ_BUF_INIT;
	const struct xq_buf *check = doc;
	int rc;

	if (!c->dir_mode) {
		xq_buf_add(&whole, c->prefix.ptr, c->prefix.len);
		if (sep)
			xq_buf_adds(&whole, sep);
		xq_buf_add(&whole, doc->ptr, doc->len);
		xq_buf_add(&whole, c->suffix.ptr, c->suffix.len);
		check = &whole;
	}
	if (c->fault_verify && check->len > 1) {
		/* XQ_TEST_FAULT=verify: what is read back is cut in half, as a
		 * writer with a bug would leave it. */
		if (check != &whole)
			xq_buf_add(&whole, check->ptr, check->len);
		whole.len = (whole.len + 1) / 2;
		check = &whole;
	}
	if (xq_buf_error(&whole)) {
		add_diag(j, XQ_SEV_ERROR, XQ_D_RESOURCE, "--verify: out of memory");
		rc = 1;
	} else {
		rc = verify_game(c, sc, j, check, lossy);
	}
	xq_buf_release(&whole);
	return rc;
}

/* Tell the game why it is broken (the first error read), for writers that
 * show it: "line 22, column 6: ply 17 (炮八进九): the red cannon ...". */
static void note_error(xq_batch_job *j)
{
	struct xq_buf b = XQ_BUF_INIT;

	for (size_t i = 0; i < xq_diagnostics_count(j->diags); i++) {
		const xq_diagnostic *d = xq_diagnostics_at(j->diags, i);
		uint64_t line = xq_diagnostic_line(d), col = xq_diagnostic_column(d);
		uint32_t ply = xq_diagnostic_ply(d);
		const char *move = xq_diagnostic_move(d);
		if (xq_diagnostic_severity(d) != XQ_SEVERITY_ERROR)
			continue;
		if (line && col)
			xq_buf_addf(&b, "line %u, column %u: ", (unsigned)line, (unsigned)col);
		else if (line)
			xq_buf_addf(&b, "line %u: ", (unsigned)line);
		else if (xq_diagnostic_offset(d) >= 0)
			xq_buf_addf(&b, "byte %llu: ", (unsigned long long)xq_diagnostic_offset(d));
		if (ply && move[0])
			xq_buf_addf(&b, "ply %u (%s): ", (unsigned)ply, move);
		else if (ply)
			xq_buf_addf(&b, "ply %u: ", (unsigned)ply);
		xq_buf_adds(&b, xq_diagnostic_message(d));
		if (!xq_buf_error(&b))
			xq_game_set_error(&j->record->g, b.ptr, b.len);
		break;
	}
	xq_buf_release(&b);
}

/* Is the game of `j` to be written at all (output_game says why not)? */
static int to_write(const struct output *c, const xq_batch_job *j)
{
	return !c->dry_run && (!(j->record->g.flags & XQ_GAME_BROKEN) || c->keep_broken);
}

void output_render(const struct output *c, xq_batch_job *j, struct output_ready *r)
{
	struct job_sink js = {c, j};
	struct xq_sink sink = {job_sink_report, &js};

	r->ready = r->defer = 0;
	/* One output's games are joined as its writer would write them only
	 * when its format writes them apart (format.h, `separator`). */
	if (!to_write(c, j) || (!c->dir_mode && !c->impl->fmt->separator))
		return;
	if (j->record->g.flags & XQ_GAME_BROKEN) {
		if (j->late) {
			r->defer = 1; /* note_error names lines not known yet */
			return;
		}
		note_error(j);
	}
	r->late = j->late;
	r->number = j->record->g.number;
	r->line = j->record->g.place.line;
	r->before = xq_diagnostics_count(j->diags);
	xq_buf_reset(&j->text);
	r->rc = write_alone_to(c, &sink, &j->record->g, &j->text);
	r->ready = 1;
	r->verified = 0;
	if (c->verify && !r->rc && !xq_buf_error(&j->text) &&
	    !(c->strict && count_since(j, r->before, 0))) {
		/* --verify as output_game would, the separator before the
		 * game as before every game but the output's first (which
		 * output_game reads back again without it). */
		struct diag_list list = {NULL};
		struct scratch sc = {{scratch_report, &list}, &list};
		const char *sep = c->dir_mode ? NULL : c->impl->fmt->separator;
		r->verify_before = xq_diagnostics_count(j->diags);
		r->verify_sep = sep && *sep;
		r->verified = 1 + verify_written(c, &sc, j, sep, &j->text, count_since(j, r->before, 0) > 0);
		diag_list_release(&list);
	}
}

void output_game(struct output *c, xq_batch_job *j, struct output_ready *r)
{
	struct xq_game *g = &j->record->g;
	struct xq_buf own = XQ_BUF_INIT;
	const struct xq_buf *doc = &own;
	struct scratch sc = {{scratch_report, &c->scratch}, &c->scratch};
	size_t before = xq_diagnostics_count(j->diags);
	int rc, lossy, verified = 0, sep = 0;

	if (c->dry_run)
		return;
	if ((g->flags & XQ_GAME_BROKEN) && !c->keep_broken) {
		add_diag(j, XQ_SEV_NOTE, XQ_D_NONE,
			 "skipped: the game has an error (--keep-broken writes it up to the error)");
		c->skipped++;
		return;
	}
	if (!c->dir_mode && !(c->impl->fmt->caps & XQ_CAP_MULTI) && c->written > 0) {
		/* Said once, and the run stops: every later game is the same. */
		add_diag(j, XQ_SEV_ERROR, XQ_D_LOSS,
			 "%s holds one game per file and the input holds more: stopped%s; write to a directory with -o DIR/",
			 c->impl->fmt->name, c->out_path ? ", nothing is written" : "");
		c->skipped++;
		c->stop = c->too_many = 1;
		return;
	}
	c->cur = j;
	c->seq++;
	if (r && r->defer)
		output_render(c, j, r);
	if (r && r->ready) {
		/* Written already, on a worker (output_render): what the
		 * output's writer would have written, its separator put back,
		 * its numbers put right when it was numbered late. */
		before = r->before;
		rc = r->rc;
		doc = &j->text;
		if (!rc && r->late && c->impl->fmt->renumber &&
		    (r->number != g->number || r->line != g->place.line))
			rc = c->impl->fmt->renumber(&j->text, g, r->number, r->line);
		sep = !c->dir_mode && !rc && c->apart++ > 0 && *c->impl->fmt->separator;
		if (sep) {
			xq_buf_reset(&c->joined);
			xq_buf_adds(&c->joined, c->impl->fmt->separator);
			xq_buf_add(&c->joined, j->text.ptr, j->text.len);
			if (xq_buf_error(&j->text) && !c->joined.err)
				c->joined.err = xq_buf_error(&j->text);
			doc = &c->joined;
		}
	} else {
		if (g->flags & XQ_GAME_BROKEN)
			note_error(j);
		if (c->dir_mode) {
			rc = write_alone(c, g, &own);
		} else {
			rc = c->impl->fmt->write(c->writer, g);
			drain(c, &own);
		}
	}
	lossy = count_since(j, before, 0) > 0;
	if (!rc && xq_buf_error(doc))
		rc = XQ_ENOMEM; /* the game is never written half */
	if (r && r->ready && r->verified) {
		/* --verify's outcome on the worker holds when it read what
		 * this output holds; else its diagnostic goes, and it is
		 * verified again here. */
		if (!rc && r->verify_sep == sep)
			verified = r->verified;
		else
			xq_diagnostics_truncate(j->diags, r->verify_before);
	}
	if (rc) {
		if (rc != XQ_ENOMEM && rc != XQ_EIO) {
			/* A writer that says why it refused has said it all. */
			if (!count_since(j, before, 1))
				add_diag(j, XQ_SEV_ERROR, XQ_D_LOSS,
					 "skipped: the %s writer refused it: %s", c->impl->fmt->name,
					 xq_strerror(rc));
		} else {
			c->io_error = 1;
			add_diag(j, XQ_SEV_ERROR, XQ_D_IO, "cannot write: %s", xq_strerror(rc));
		}
		c->skipped++;
		goto out;
	}
	if (lossy && c->strict) {
		add_diag(j, XQ_SEV_ERROR, XQ_D_LOSS, "skipped: %s cannot hold it whole (--strict)",
			 c->impl->fmt->name);
		c->skipped++;
		goto out;
	}
	if (c->verify) {
		if (verified ? verified == 2 : verify_written(c, &sc, j, NULL, doc, lossy)) {
			c->verify_failed++;
			c->skipped++;
			goto out;
		}
		c->verified++;
	}
	if (c->dir_mode) {
		if (write_to_dir(c, j, doc)) {
			c->skipped++;
			goto out;
		}
	} else if (xq_output_write(c->out, doc->ptr, doc->len)) {
		c->io_error = 1;
		c->stop = 1;
		add_diag(j, XQ_SEV_ERROR, XQ_D_IO, "cannot write to '%s'", xq_output_name(c->out));
		goto out;
	} else if (!c->out_path && report_stdout_is_pipe()) {
		/* Each game reaches a pipe whole (report_flush_out); formats/io
		 * has no flush of its own, and its stream is one of all. */
		fflush(NULL);
	}
	c->written++;
	if (lossy)
		c->lossy++;
	if (g->flags & XQ_GAME_BROKEN) {
		c->kept_broken++;
		add_diag(j, XQ_SEV_WARNING, XQ_D_TRUNCATED,
			 "written only up to its first error (--keep-broken)");
	}
out:
	c->cur = NULL;
	xq_buf_release(&own);
}

/* ---- setup ------------------------------------------------------------------------ */

static int open_single_output(struct output *c)
{
	struct xq_diag d;
	int rc;

	xq_diag_init(&d);
	rc = xq_output_open(&c->out, c->out_path ? c->out_path : "-",
			    (c->force ? XQ_OUTPUT_FORCE : 0) | (c->sync == SYNC_NONE ? XQ_OUTPUT_NO_SYNC : 0) |
				    (c->fault_named_temp ? XQ_OUTPUT_NAMED_TEMP : 0),
			    &d);
	if (rc) {
		cmd_error("%s", d.msg);
		return -1;
	}
	/* What the writer adds around the games, for --verify. */
	if (c->verify) {
		void *w = NULL;
		struct xq_output *o = NULL;
		if (open_mem_writer(c, &w, &o) == 0) {
			drain(c, &c->prefix);
			c->impl->fmt->close_writer(w);
			xq_output_commit(o, NULL);
			drain(c, &c->suffix);
		}
	}
	if ((rc = open_mem_writer(c, &c->writer, &c->mem_out))) {
		if (diag_list_count(&c->scratch))
			cmd_error("%s", xq_diagnostic_message(diag_list_at(&c->scratch, 0)));
		else
			cmd_error("cannot write %s: %s", c->impl->fmt->name, xq_strerror(rc));
		diag_list_clear(&c->scratch);
		xq_output_abort(c->out);
		c->out = NULL;
		return rc == XQ_EUNSUPPORTED ? 2 : -1;
	}
	/* Whatever the writer starts a document with goes out first. */
	{
		struct xq_buf head = XQ_BUF_INIT;
		drain(c, &head);
		rc = xq_buf_error(&head) ? XQ_ENOMEM : xq_output_write(c->out, head.ptr, head.len);
		xq_buf_release(&head);
		if (rc) {
			cmd_error("cannot write to '%s'", xq_output_name(c->out));
			return -1;
		}
	}
	return 0;
}

static int finish_single_output(struct output *c, int commit)
{
	struct xq_buf tail = XQ_BUF_INIT;
	struct xq_diag d;
	int rc = 0;

	if (!c->out)
		return 0; /* --dry-run: none was opened */
	if (c->writer) {
		c->cur = NULL;
		if (c->impl->fmt->close_writer(c->writer))
			commit = 0, c->io_error = 1;
		c->writer = NULL;
	}
	if (c->mem_out)
		xq_output_commit(c->mem_out, NULL);
	c->mem_out = NULL;
	drain(c, &tail);
	if (commit && (xq_buf_error(&tail) || xq_output_write(c->out, tail.ptr, tail.len)))
		commit = 0;
	xq_buf_release(&tail);
	xq_diag_init(&d);
	if (commit && c->written == 0 && !(c->impl->fmt->caps & XQ_CAP_MULTI) && c->out_path &&
	    strcmp(c->out_path, "-")) {
		/* A file of a one-game format is that game: with none written
		 * there is nothing to make (an empty file would not read back). */
		xq_output_abort(c->out);
		c->out = NULL;
		cmd_warning("no game was written, so '%s' was not made", c->out_path);
		return 0;
	}
	if (commit) {
		rc = xq_output_commit(c->out, &d);
		if (rc)
			cmd_error("%s", d.msg);
	} else {
		xq_output_abort(c->out);
		c->written = 0; /* nothing reached the output's name */
		rc = -1;
	}
	c->out = NULL;
	return rc;
}

static int is_dir_path(const char *p)
{
	struct stat st;
	size_t len = strlen(p);

	return (len > 0 && p[len - 1] == '/') || (stat(p, &st) == 0 && S_ISDIR(st.st_mode));
}

static long parse_version(struct opt_parser *p, const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 0);
	/* XQStudio names its versions 1.0 ... 1.8: the byte is 10 ... 18. */
	if (!errno && end != v && *end == '.' && n >= 1 && n <= 9 && xq_is_digit((unsigned char)end[1]) &&
	    !end[2] && xq_is_digit((unsigned char)*v))
		n = n * 10 + (end[1] - '0'), end += 2;
	if (errno || end == v || *end || n < 1 || n > 65535) {
		snprintf(p->err, sizeof(p->err),
			 "--format-version must be a number like 18, 0x12 or 1.8, not '%s'", v);
		return -1;
	}
	return n;
}

int output_take(struct output *c, struct input_opts *in, struct opt_parser *p, int id,
		const char *value)
{
	struct movetext mt;
	const char *name;
	long v;

	switch (id) {
	case O_TO: c->to_name = value; break;
	case O_OUT: c->out_path = value; break;
	case O_NAME:
		if (!*value) {
			snprintf(p->err, sizeof(p->err), "--name needs a template");
			return -1;
		}
		c->template = value;
		break;
	case O_NOTATION:
		if (movetext_parse(value, &mt)) {
			snprintf(p->err, sizeof(p->err),
				 "--notation must be one of " MOVETEXT_NAMES ", not '%s'", value);
			return -1;
		}
		c->wopts.dialect = mt.notation;
		c->wopts.dialect_flags = mt.flags;
		break;
	case O_ENCODING_OLD:
		input_opts_alias(in, "--encoding", "--output-encoding");
		/* fall through */
	case O_ENCODING:
		if (opt_encoding(p, value, &name))
			return -1;
		c->wopts.encoding = name;
		return 1;
	case O_VERSION:
		if ((v = parse_version(p, value)) < 0)
			return -1;
		c->wopts.version = (int)v;
		break;
	case O_FORCE: c->force = 1; break;
	case O_KEEP: c->keep_broken = 1; break;
	case O_VERIFY: c->verify = 1; break;
	case O_STRICT: c->strict = 1; break;
	case O_SYNC: {
		static const char *const names[] = {"end", "each", "none", NULL};
		int i = opt_choice(p, "--sync", value, names);
		if (i < 0)
			return -1;
		c->sync = i == 0 ? SYNC_END : i == 1 ? SYNC_EACH : SYNC_NONE;
		break;
	}
	default: return 0;
	}
	return 1;
}

/* What the options say together: 0, or -1 with the message in p->err. */
int output_check(struct output *c, struct input_opts *in, struct opt_parser *p)
{
	if (!c->impl) {
		snprintf(p->err, sizeof(p->err), "out of memory");
		return -1;
	}
	if (!(c->to = format_by_name(c->to_name, 1, p->err, sizeof(p->err))))
		return -1;
	/* The options as the format's writer takes them. */
	c->wopts.format = c->to;
	c->impl->fmt = xq_format_find(c->to);
	c->impl->wo = (struct xq_write_opts)XQ_WRITE_OPTS_INIT;
	c->impl->wo.notation = c->wopts.dialect;
	c->impl->wo.notation_flags = c->wopts.dialect_flags;
	c->impl->wo.version = c->wopts.version;
	if (c->wopts.encoding && xq_encoding_parse(c->wopts.encoding, &c->impl->wo.encoding)) {
		snprintf(p->err, sizeof(p->err), "unknown encoding '%s'", c->wopts.encoding);
		return -1;
	}
	if (input_opts_check(in, p))
		return -1;
	if (c->out_path && !strcmp(c->out_path, "-"))
		c->out_path = NULL;
	c->dir_mode = c->out_path && is_dir_path(c->out_path);
	if (c->verify && (!(c->impl->fmt->caps & XQ_CAP_READ) || !c->impl->fmt->open_reader)) {
		snprintf(p->err, sizeof(p->err), "--verify: xqkit cannot read %s back", c->impl->fmt->name);
		return -1;
	}
	if (c->dry_run) {
		if (!c->out_path)
			return 0; /* nothing is written: no output to check */
		snprintf(p->err, sizeof(p->err), "--dry-run writes nothing: leave out -o");
		return -1;
	}
	if (in->fmt == REPORT_NDJSON && !c->out_path) {
		snprintf(p->err, sizeof(p->err),
			 "--format ndjson writes to standard output: give -o for the records");
		return -1;
	}
	if (!c->dir_mode && !(c->impl->fmt->caps & XQ_CAP_MULTI) &&
	    (p->noperands > 1 || in->recursive || in->files0)) {
		snprintf(p->err, sizeof(p->err),
			 "%s holds one game per file: to convert several inputs, write to a directory with -o DIR/",
			 c->impl->fmt->name);
		return -1;
	}
	if (!c->out_path && (c->impl->fmt->caps & XQ_CAP_BINARY) && isatty(1)) {
		snprintf(p->err, sizeof(p->err),
			 "%s is binary: give -o FILE rather than writing it to a terminal", c->impl->fmt->name);
		return -1;
	}
	return 0;
}

/* DIR/ made, never read, and with --force every input known first (its
 * files are replaced during the run): 0, or an exit status. */
static int prepare_dir(struct output *c, struct inputs *inputs)
{
	size_t len = strlen(c->out_path);
	struct report_message m = {""};

	if (!(c->dir = malloc(len + 2))) {
		cmd_error("out of memory");
		return XQ_EXIT_IO;
	}
	memcpy(c->dir, c->out_path, len + 1);
	if (c->dir[len - 1] != '/')
		memcpy(c->dir + len, "/", 2);
	if (mkdir(c->dir, 0777) != 0 && errno != EEXIST) {
		cmd_error("cannot create the directory '%s': %s", c->dir, strerror(errno));
		return XQ_EXIT_IO;
	}
	inputs_exclude(inputs, c->dir);
	if (c->force && inputs_prescan(inputs, report_keep_message, &m)) {
		cmd_error("%s", m.msg);
		return XQ_EXIT_IO;
	}
	return 0;
}

/* The output, before anything is read: 0, or an exit status. */
int output_prepare(struct output *c, struct inputs *inputs, const struct reporter *rep)
{
	struct report_message m = {""};
	int rc;

	c->inputs = inputs;
	c->rep = rep;
	c->fault_verify = cmd_test_fault("verify");
	c->fault_named_temp = cmd_test_fault("named-temp");
	if (c->dry_run)
		return 0; /* nothing is written */
	if (c->dir_mode)
		return prepare_dir(c, inputs);
	/* Never an input, however it is found: refused now when an operand is
	 * the file or holds it, else when it is met. */
	if (c->out_path && (inputs_guard(inputs, c->out_path, report_keep_message, &m) ||
			    xq_file_check(c->out_path, c->force ? XQ_WRITE_FORCE : 0,
					  report_keep_message, &m) < 0))
		return cmd_usage_error(c->cmd, "%s", m.msg);
	if ((rc = open_single_output(c)) != 0)
		return rc == 2 ? XQ_EXIT_USAGE : XQ_EXIT_IO;
	return 0;
}

/* Say what a signal left behind. */
static void interrupted(struct output *c)
{
	uint64_t written = c->written;

	/* A file output is removed; what reached standard output is whole games. */
	if (!c->dir_mode)
		finish_single_output(c, 0);
	if (c->dir_mode)
		cmd_error("interrupted: the %llu file%s written under '%s' %s kept; no other file was written",
			  (unsigned long long)written, written == 1 ? "" : "s", c->dir,
			  written == 1 ? "is" : "are");
	else if (c->out_path)
		cmd_error("interrupted: no output is left behind ('%s' is as it was)", c->out_path);
	else
		cmd_error("interrupted: standard output holds the %llu whole game%s written before",
			  (unsigned long long)written, written == 1 ? "" : "s");
}

/* After the run: the output put in place (or not), the summary, the exit
 * status. */
int output_finish(struct output *c, struct inputs *inputs, const struct reporter *rep,
		  void (*summary)(void *ctx, double secs), void *ctx, double t0)
{
	if (inputs_conflict(inputs)) {
		/* An input named later is the output file: it stays as it was. */
		if (!c->dir_mode)
			finish_single_output(c, 0);
		cmd_error("nothing was written to '%s': it is also an input", c->out_path);
		summary(ctx, cmd_now() - t0);
		return XQ_EXIT_USAGE;
	}
	if (cmd_signal) {
		/* Stopping promptly comes first: the files are kept unsynced. */
		interrupted(c);
		summary(ctx, cmd_now() - t0);
		return cmd_signal_status();
	}
	if (!c->dir_mode && finish_single_output(c, !c->io_error && !c->too_many) &&
	    !c->too_many)
		c->io_error = 1;
	sync_dir(c);
	summary(ctx, cmd_now() - t0);
	if (c->disk_full)
		cmd_error("the disk is full: stopped after %llu file%s written under '%s'",
			  (unsigned long long)c->written, c->written == 1 ? "" : "s", c->dir);
	return c->io_error ? XQ_EXIT_IO : reporter_status(rep, c->skipped);
}

void output_init(struct output *c, const char *cmd)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	c->wopts = (xq_write_options)XQ_WRITE_OPTIONS_INIT;
	c->template = NAME_TEMPLATE_DEFAULT;
	/* Without it, output_check() says "out of memory". */
	if ((c->impl = calloc(1, sizeof(*c->impl)))) {
		c->impl->sink.report = writer_sink;
		c->impl->sink.payload = c;
	}
	xq_buf_init(&c->mem);
	xq_buf_init(&c->prefix);
	xq_buf_init(&c->suffix);
	xq_buf_init(&c->joined);
}

void output_release(struct output *c)
{
	free(c->impl);
	c->impl = NULL;
	free(c->dir);
	name_set_release(&c->names);
	diag_list_release(&c->scratch);
	xq_buf_release(&c->mem);
	xq_buf_release(&c->prefix);
	xq_buf_release(&c->suffix);
	xq_buf_release(&c->joined);
}
