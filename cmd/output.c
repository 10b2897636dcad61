/*
 * output.c: games written through the format writers (see output.h), the
 * part of convert that find shares, on the library's public API alone:
 * games are written by xq_record_write_buf() (each alone) or by one
 * xq_writer onto a memory xq_file (xq_file_open_buf()), read back by
 * xq_reader_open_memory() and compared by xq_record_equal() for --verify,
 * and put in place through <xq/file.h>.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "diagplace.h"
#include "inputs.h"
#include "movetext.h"
#include "name_template.h"
#include "opt.h"
#include "output.h"
#include <xq/batch.h>
#include "report.h"
#include "tagmap.h"
#include <xq/buf.h>
#include <xq/file.h>
#include <xq/io.h>
#include <xq/record.h>
#include <xq/utf8.h>

enum { O_TO = OPT_ID_OUTPUT, O_OUT, O_NAME, O_NOTATION, O_ENCODING, O_ENCODING_OLD, O_VERSION,
       O_FORCE, O_KEEP, O_VERIFY, O_STRICT, O_SYNC };

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
	OPT_FLAG(O_STRICT, 0, "strict", "refuse a game the format cannot hold whole, or one with a variation cut at an error"),
	OPT_VALUE(O_SYNC, 0, "sync", "WHEN", "files on disk: end (default: once, at the end), each (before each takes its name) or none"),
	OPT_END,
};


/* A writer's diagnostic is about the game of `j` being written: place it
 * there, in the input, whatever the writer filled in. */
static void add_writer_diag(const struct output *c, xq_batch_job *j, const xq_diagnostic *d)
{
	diag_job_add(j, d,
		     c->strict && !strcmp(xq_diagnostic_code(d), "loss") ? XQ_SEVERITY_ERROR : -1);
}

/* The callback of the output's own writers: about the game being written
 * (c->cur), or kept for what the output says when there is none. */
static void writer_sink(const xq_diagnostic *d, void *user)
{
	struct output *c = user;

	if (!c->cur) {
		diag_list_add(&c->scratch, d);
		return;
	}
	add_writer_diag(c, c->cur, d);
}

/* The callback of a game written on a worker thread (output_render). */
struct job_sink {
	const struct output *c;
	xq_batch_job *j;
};

static void job_sink_report(const xq_diagnostic *d, void *user)
{
	const struct job_sink *s = user;

	add_writer_diag(s->c, s->j, d);
}

/* Add to the job's diagnostics one of the output's own about its game as
 * a whole (at the game's place, as a writer's), of `severity`
 * (XQ_SEVERITY_*) and code `code` by its name. */
static void add_diag(xq_batch_job *j, int severity, const char *code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
static void add_diag(xq_batch_job *j, int severity, const char *code, const char *fmt, ...)
{
	xq_diagnostics *l = xq_diagnostics_new();
	va_list ap;

	if (!l)
		return;
	va_start(ap, fmt);
	/* Made about nothing, it is then named after the job's input and game
	 * and placed where the game starts, as diag_job_add() does a writer's. */
	if (xq_diagnostics_vreport(l, NULL, severity, code, fmt, ap) == 0)
		diag_job_add(j, xq_diagnostics_at(l, 0), -1);
	va_end(ap);
	xq_diagnostics_free(l);
}

/* ---- writing into memory ---------------------------------------------------- */

/* Take what the output's writer wrote into c->mem, appended to `dst`,
 * and empty c->mem: 0, or XQ_ENOMEM when some of it was lost. */
static int drain(struct output *c, struct xq_buf *dst)
{
	int lost = xq_buf_error(&c->mem);

	if (xq_buf_add(dst, c->mem.ptr, c->mem.len))
		lost = XQ_ENOMEM;
	xq_buf_reset(&c->mem);
	return lost;
}

/* Open a writer on c->mem (through the memory file *f) reporting to
 * writer_sink.  Returns 0 or an XQ_E* code (the reason said). */
static int open_mem_writer(struct output *c, xq_writer **w, xq_file **f)
{
	int rc = xq_file_open_buf(f, &c->mem);

	if (rc)
		return rc;
	rc = xq_writer_open_file(w, *f, &c->wopts, writer_sink, c);
	if (rc) {
		xq_file_abort(*f);
		*f = NULL;
	}
	return rc;
}

/* The whole document a fresh writer reporting to `fn` makes of `r`,
 * appended to `out` (on any thread: `c` is only read). */
static int write_alone_to(const struct output *c, xq_diagnostic_fn fn, void *user,
			  const xq_record *r, struct xq_buf *out)
{
	return xq_record_write_buf(out, r, &c->wopts, fn, user);
}

/* The same on the output thread, reporting to writer_sink. */
static int write_alone(struct output *c, const xq_record *r, struct xq_buf *out)
{
	return write_alone_to(c, writer_sink, c, r, out);
}

/* ---- --verify ------------------------------------------------------------------ */

/* What --verify's own reading and writing say (not the job's): the
 * first error counts. */
struct scratch {
	int errors;
	char first[XQ_MESSAGE_SIZE];
};

static void scratch_report(const xq_diagnostic *d, void *user)
{
	struct scratch *s = user;

	if (xq_diagnostic_severity(d) == XQ_SEVERITY_ERROR && !s->errors++)
		snprintf(s->first, sizeof(s->first), "%s", xq_diagnostic_message(d));
}

/*
 * The first tag of each name of `g` came back in `back` with its value
 * (tags that describe the record itself aside: the writers rewrite them).
 * 1, or 0 with the difference in `why`.  The first tags are found through
 * tag maps, not by a scan for each tag: linear, where the scans were
 * quadratic in the tags.
 */
static int same_tags(const xq_record *g, const xq_record *back, unsigned caps, char *why,
		     size_t cap)
{
	struct tagmap mg, mb;
	int same = 1;

	tagmap_init(&mg, g);
	tagmap_init(&mb, back);
	for (size_t i = 0; same && i < xq_record_tag_count(g); i++) {
		const char *name = xq_record_tag_name(g, i), *value = xq_record_tag_value(g, i);
		const char *v;
		size_t k;
		/* Tags that describe the record itself are rewritten by
		 * writers: the start position, the result, the notation. */
		if (!strcmp(name, "FEN") || !strcmp(name, "Result") || !strcmp(name, "Format"))
			continue;
		k = tagmap_first(&mb, name);
		v = k == TAGMAP_NONE ? NULL : xq_record_tag_value(back, k);
		if (!v && (!(caps & XQ_FORMAT_ANY_TAGS) || !*value))
			continue; /* (an empty tag says nothing: DhtmlXQ writes none) */
		if (tagmap_first(&mg, name) != i)
			continue; /* a repeated tag: the first one counts */
		if (!v || strcmp(v, value)) {
			snprintf(why, cap, "the %.40s tag '%.60s' came back as '%.60s'", name, value,
				 v ? v : "(absent)");
			same = 0;
		}
	}
	tagmap_release(&mg);
	tagmap_release(&mb);
	return same;
}

/*
 * Read `doc` back and compare with the job's game; on a difference add an
 * error to the job and return 1.  `lossy`: the writer reported losses for
 * it.  On any thread: `c` is only read.
 */
static int verify_game(const struct output *c, xq_batch_job *j, const struct xq_buf *doc,
		       int lossy)
{
	const xq_record *g = j->record;
	unsigned caps = c->caps, ignore = XQ_EQUAL_IGNORE_TAGS | XQ_EQUAL_IGNORE_RESULT;
	xq_read_options ro = XQ_READ_OPTIONS_INIT;
	struct scratch sc = {0, ""};
	xq_reader *rd = NULL;
	xq_record *back = NULL;
	struct xq_buf first = XQ_BUF_INIT, again = XQ_BUF_INIT;
	char why[256] = "";
	int rc, ok = 0;

	ro.format = c->to;
	/* Read back in the encoding written: a format that does not say its
	 * own (XQF) is read as its default otherwise. */
	ro.encoding = c->wopts.encoding;
	if (xq_reader_open_memory(&rd, NULL, doc->ptr, doc->len, &ro, scratch_report, &sc)) {
		snprintf(why, sizeof(why), "the output cannot be opened again by the %s reader", c->to);
		goto done;
	}
	if (xq_reader_next(rd, &back) != 1) {
		snprintf(why, sizeof(why), "no game could be read back");
		goto done;
	}
	if (sc.errors) {
		snprintf(why, sizeof(why), "reading it back: %.200s", sc.first);
		goto done;
	}
	if (!(caps & XQ_FORMAT_VARIATIONS))
		ignore |= XQ_EQUAL_MAINLINE_ONLY;
	if (!(caps & XQ_FORMAT_COMMENTS) || lossy)
		ignore |= XQ_EQUAL_IGNORE_COMMENTS;
	if (!(caps & XQ_FORMAT_PRE_COMMENTS) || lossy)
		ignore |= XQ_EQUAL_IGNORE_PRE_COMMENTS;
	if (!(caps & XQ_FORMAT_NAGS) || lossy)
		ignore |= XQ_EQUAL_IGNORE_NAGS;
	if (!xq_record_equal(g, back, ignore, why, sizeof(why)))
		goto done;
	/* (No result and an unknown one are both "*".) */
	if (strcmp(xq_record_result(g), xq_record_result(back))) {
		snprintf(why, sizeof(why), "the result %s came back as %s", xq_record_result(g),
			 xq_record_result(back));
		goto done;
	}
	if (!lossy && !same_tags(g, back, caps, why, sizeof(why)))
		goto done;
	/* The game read back must write to the same bytes again. */
	rc = write_alone_to(c, scratch_report, &sc, g, &first);
	if (!rc)
		rc = write_alone_to(c, scratch_report, &sc, back, &again);
	if (!rc && (first.len != again.len || memcmp(first.ptr, again.ptr, first.len))) {
		size_t k = 0;
		while (k < first.len && k < again.len && first.ptr[k] == again.ptr[k])
			k++;
		snprintf(why, sizeof(why), "written again after reading back, it differs at byte %zu", k);
		goto done;
	}
	ok = 1;
done:
	xq_reader_close(rd);
	xq_record_free(back);
	xq_buf_release(&first);
	xq_buf_release(&again);
	/* Where the writer reported no loss, its own reader must give the game
	 * back whole: anything else is a bug in xqkit (exit status 4), not a
	 * property of the input.  After a reported loss (text cut to fit a
	 * field, characters the encoding lacks), the copy may differ. */
	if (!ok)
		add_diag(j, XQ_SEVERITY_ERROR, lossy ? "loss" : "internal", "--verify: %s", why);
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
	unsigned named = c->fault_named_temp ? XQ_WRITE_NAMED_TEMP : 0;

	switch (c->sync) {
	case SYNC_EACH: return named;
	case SYNC_END: return named | XQ_WRITE_SYNC_REPLACED;
	case SYNC_NONE: break;
	}
	return named | XQ_WRITE_NO_SYNC;
}

/* -o DIR/, at the end of a run that was not interrupted: what was
 * written under DIR/ reaches the disk, names too, unless --sync none. */
/* -o DIR/ and no game written: a directory the run made goes again
 * (nothing was put in it); one that was there stays. */
static void unmake_dir(struct output *c)
{
	if (!c->dir_mode || !c->made_dir || c->written > 0)
		return;
	if (rmdir(c->dir) == 0)
		cmd_warning("no game was written, so the directory '%s' was not made", c->dir);
}

static void sync_dir(struct output *c)
{
	struct report_message m = {""};

	if (!c->dir_mode || c->sync == SYNC_NONE || c->written == 0)
		return;
	if (xq_file_sync_dir(c->dir, report_keep_message, &m)) {
		cmd_error("%s", m.msg);
		c->io_error = 1;
	}
}

/* Why a file could not be written: the code's name and the message. */
struct file_said {
	char code[32];
	char msg[XQ_MESSAGE_SIZE];
};

static void keep_file_said(const xq_diagnostic *d, void *user)
{
	struct file_said *s = user;

	snprintf(s->code, sizeof(s->code), "%s", xq_diagnostic_code(d));
	snprintf(s->msg, sizeof(s->msg), "%s", xq_diagnostic_message(d));
}

/* Write one game to its own file under DIR/.  Returns 0, or 1 when it was
 * not written (reported). */
static int write_to_dir(struct output *c, xq_batch_job *j, const struct xq_buf *doc)
{
	struct xq_buf name = XQ_BUF_INIT, path = XQ_BUF_INIT;
	struct file_said said = {"none", ""};
	xq_file *o;
	unsigned flags;
	int rc, n = 1, taken = 0;

	if (name_template_expand(&name, c->template, j->record, j->file->path, c->seq))
		goto nomem;
	for (;;) {
		xq_buf_reset(&path);
		xq_buf_adds(&path, c->dir);
		xq_buf_add(&path, name.ptr, name.len);
		if (n > 1)
			xq_buf_addf(&path, "-%d", n);
		name_template_add_extension(&path, c->extensions);
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
		add_diag(j, XQ_SEVERITY_ERROR, "io",
			 "not written: '%s' is one of the inputs, and an input is never overwritten",
			 path.ptr);
		xq_buf_release(&path);
		return 1;
	}
	/* The name comes from the data: never a link or a special file.  A
	 * name taken (xq_file_check() refuses it, or a file took it during
	 * the write) is the user's to settle (exit status 2); the rest is
	 * I/O (3). */
	flags = (c->force ? XQ_WRITE_FORCE : 0) | XQ_WRITE_NO_LINKS | output_sync_flags(c);
	if ((rc = xq_file_check(path.ptr, flags, keep_file_said, &said)) < 0) {
		taken = 1;
	} else if (!(rc = xq_file_open(&o, path.ptr, flags, keep_file_said, &said))) {
		xq_file_write(o, doc->ptr, doc->len);
		rc = xq_file_commit(o, keep_file_said, &said);
		taken = rc == XQ_EIO && strstr(said.msg, "already exists");
	}
	if (rc) {
		add_diag(j, XQ_SEVERITY_ERROR, said.code, "not written: %s", said.msg);
		if (!strcmp(said.code, "resource")) {
			/* A full disk: every later game would fail the same way. */
			c->disk_full = 1;
			c->io_error = 1;
			c->stop = 1;
		} else if (taken) {
			c->refused = 1;
		} else {
			c->io_error = 1;
		}
		xq_buf_release(&path);
		return 1;
	}
	if (c->rep && c->rep->verbose)
		add_diag(j, XQ_SEVERITY_NOTE, "none", "written to '%s'", path.ptr);
	xq_buf_release(&path);
	return 0;

nomem:
	add_diag(j, XQ_SEVERITY_ERROR, "resource", "not written: out of memory");
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
static int verify_written(const struct output *c, xq_batch_job *j, const char *sep,
			  const struct xq_buf *doc, int lossy)
{
	struct xq_buf whole = XQ_BUF_INIT;
	const struct xq_buf *check = doc;
	int rc;

	if (!c->dir_mode && doc->len == 0) {
		/* A writer that keeps its games until it closes (a CBL
		 * library: its header and index depend on every game) has
		 * written nothing for this one yet: what it writes for the game
		 * alone is read back (its losses were said already). */
		struct scratch sc = {0, ""};
		if (write_alone_to(c, scratch_report, &sc, j->record, &whole))
			xq_buf_reset(&whole);
		check = &whole;
	} else if (!c->dir_mode) {
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
		xq_buf_truncate(&whole, (whole.len + 1) / 2);
		check = &whole;
	}
	if (xq_buf_error(&whole)) {
		add_diag(j, XQ_SEVERITY_ERROR, "resource", "--verify: out of memory");
		rc = 1;
	} else {
		rc = verify_game(c, j, check, lossy);
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
			xq_record_set_broken(j->record, b.ptr);
		break;
	}
	xq_buf_release(&b);
}

/* Is the game of `j` to be written at all (output_game says why not)? */
static int to_write(const struct output *c, const xq_batch_job *j)
{
	return !c->dry_run && (!xq_record_is_broken(j->record) || c->keep_broken);
}

void output_render(const struct output *c, xq_batch_job *j, struct output_ready *r)
{
	struct job_sink js = {c, j};

	r->ready = r->defer = 0;
	/* One output's games are joined as its writer would write them only
	 * when its format writes them apart (xq_format_separator()). */
	if (!to_write(c, j) || (!c->dir_mode && !c->separator))
		return;
	if (xq_record_is_broken(j->record)) {
		if (j->late) {
			r->defer = 1; /* note_error names lines not known yet */
			return;
		}
		note_error(j);
	}
	r->late = j->late;
	r->number = xq_record_number(j->record);
	xq_record_place(j->record, &r->line, NULL, NULL);
	r->before = xq_diagnostics_count(j->diags);
	xq_buf_reset(&j->text);
	r->rc = write_alone_to(c, job_sink_report, &js, j->record, &j->text);
	r->ready = 1;
	r->verified = 0;
	if (c->verify && !r->rc && !xq_buf_error(&j->text) &&
	    !(c->strict && count_since(j, r->before, 0))) {
		/* --verify as output_game would, the separator before the
		 * game as before every game but the output's first (which
		 * output_game reads back again without it). */
		const char *sep = c->dir_mode ? NULL : c->separator;
		r->verify_before = xq_diagnostics_count(j->diags);
		r->verify_sep = sep && *sep;
		r->verified = 1 + verify_written(c, j, sep, &j->text, count_since(j, r->before, 0) > 0);
	}
}

/*
 * A stream or a device (standard output, a FIFO, /dev/...) is written as
 * it goes, with no temporary file: the games that reached it are known at
 * each flush (report_stream_wrote()), this one too.  0, or the errno
 * value of a flush that failed.
 */
static int flush_direct(struct output *c, size_t len)
{
	int rc;

	if (c->out_kind != XQ_FILE_DIRECT)
		return 0;
	rc = report_stream_wrote(&c->stream, len, !c->out_path && report_stdout_is_pipe());
	if (rc > 0)
		c->kept = c->written + 1;
	return rc < 0 ? (errno ? errno : EIO) : 0;
}

/* A game that is not to be written (said, counted as skipped): 1; else 0. */
static int refused(struct output *c, xq_batch_job *j)
{
	const xq_record *g = j->record;

	if (xq_record_is_broken(g) && !c->keep_broken) {
		add_diag(j, XQ_SEVERITY_NOTE, "none",
			 "skipped: the game has an error (--keep-broken writes it up to the error)");
		c->skipped++;
		c->broken_skipped++;
		return 1;
	}
	if (xq_record_is_cut(g) && c->strict) {
		add_diag(j, XQ_SEVERITY_NOTE, "none",
			 "skipped: a variation of it was cut at an error (--strict writes whole games only)");
		c->skipped++;
		c->broken_skipped++;
		return 1;
	}
	if (!c->dir_mode && !(c->caps & XQ_FORMAT_MULTI) && c->written > 0) {
		/* Said once, and the run stops: every later game is the same. */
		add_diag(j, XQ_SEVERITY_ERROR, "loss",
			 "%s holds one game per file and the input holds more: stopped%s; write to a directory with -o DIR/",
			 c->to, c->out_path ? ", nothing is written" : "");
		c->skipped++;
		c->stop = c->too_many = 1;
		return 1;
	}
	return 0;
}

/* The bytes `doc` of the game of `j`, checked, into their file or the
 * output, and counted (`lossy`: the writer reported losses). */
static void put_game(struct output *c, xq_batch_job *j, const struct xq_buf *doc, int lossy)
{
	const xq_record *g = j->record;
	int err = 0;

	if (c->dir_mode) {
		if (write_to_dir(c, j, doc)) {
			c->skipped++;
			return;
		}
	} else if (xq_file_write(c->out, doc->ptr, doc->len) || (err = flush_direct(c, doc->len))) {
		c->io_error = 1;
		c->stop = 1;
		if (err)
			add_diag(j, XQ_SEVERITY_ERROR, "io", "cannot write '%s': %s", xq_file_name(c->out),
				 strerror(err));
		else
			add_diag(j, XQ_SEVERITY_ERROR, "io", "cannot write to '%s'", xq_file_name(c->out));
		return;
	}
	c->written++;
	if (lossy)
		c->lossy++;
	if (xq_record_is_cut(g))
		c->cut++;
	if (xq_record_is_broken(g)) {
		c->kept_broken++;
		add_diag(j, XQ_SEVERITY_WARNING, "truncated",
			 "written only up to its first error (--keep-broken)");
	}
}

/* The game of `j` as output_render() wrote it on a worker (r->ready): what
 * the output's writer would have written, its numbers put right when it
 * was numbered late, its separator put back.  Sets *doc, *sep (the
 * separator is before it) and *lost (memory ran out), and returns what
 * the writer returned. */
static int take_rendered(struct output *c, xq_batch_job *j, const struct output_ready *r,
			 const struct xq_buf **doc, int *sep, int *lost)
{
	xq_record *g = j->record;
	uint64_t line;
	int rc = r->rc;

	*doc = &j->text;
	xq_record_place(g, &line, NULL, NULL);
	if (!rc && r->late && (r->number != xq_record_number(g) || r->line != line))
		rc = xq_format_renumber(c->to, &j->text, g, r->number, r->line);
	*lost = xq_buf_error(&j->text);
	*sep = !c->dir_mode && !rc && c->apart++ > 0 && *c->separator;
	if (*sep) {
		xq_buf_reset(&c->joined);
		xq_buf_adds(&c->joined, c->separator);
		xq_buf_add(&c->joined, j->text.ptr, j->text.len);
		*doc = &c->joined;
	}
	return rc;
}

/* The game of `j` written here, on the output thread, into `own` (-o
 * DIR/) or through the output's writer; *lost when memory ran out.
 * Returns what the writer returned. */
static int render_here(struct output *c, xq_batch_job *j, struct xq_buf *own, int *lost)
{
	int rc;

	if (xq_record_is_broken(j->record))
		note_error(j);
	if (c->dir_mode)
		return write_alone(c, j->record, own);
	if ((rc = xq_writer_write(c->writer, j->record)) != 0)
		c->writer_failed = 1;
	*lost = drain(c, own);
	return rc;
}

/* The game written as `doc` (`rc` what its writer returned, `lossy` when
 * it reported losses, `verified` --verify's outcome on the worker when it
 * holds, else 0): skipped and said why, or checked and put out. */
static void keep_or_skip(struct output *c, xq_batch_job *j, size_t before, int rc, int lossy,
			 int verified, const struct xq_buf *doc)
{
	if (rc) {
		if (rc != XQ_ENOMEM && rc != XQ_EIO) {
			/* A writer that says why it refused has said it all. */
			if (!count_since(j, before, 1))
				add_diag(j, XQ_SEVERITY_ERROR, "loss",
					 "skipped: the %s writer refused it: %s", c->to,
					 xq_error_string(rc));
		} else {
			c->io_error = 1;
			add_diag(j, XQ_SEVERITY_ERROR, "io", "cannot write: %s", xq_error_string(rc));
		}
		c->skipped++;
		return;
	}
	if (lossy && c->strict) {
		add_diag(j, XQ_SEVERITY_ERROR, "loss", "skipped: %s cannot hold it whole (--strict)",
			 c->to);
		c->skipped++;
		return;
	}
	if (c->verify) {
		if (verified ? verified == 2 : verify_written(c, j, NULL, doc, lossy)) {
			c->verify_failed++;
			c->skipped++;
			return;
		}
		c->verified++;
	}
	put_game(c, j, doc, lossy);
}

void output_game(struct output *c, xq_batch_job *j, struct output_ready *r)
{
	struct xq_buf own = XQ_BUF_INIT;
	const struct xq_buf *doc = &own;
	size_t before = xq_diagnostics_count(j->diags);
	int rc, lossy, lost = 0, verified = 0, sep = 0;

	if (c->dry_run || refused(c, j))
		return;
	c->cur = j;
	c->seq++;
	if (r && r->defer)
		output_render(c, j, r);
	if (r && r->ready) {
		before = r->before;
		rc = take_rendered(c, j, r, &doc, &sep, &lost);
	} else {
		rc = render_here(c, j, &own, &lost);
	}
	lossy = count_since(j, before, 0) > 0;
	if (!rc && (lost || xq_buf_error(doc)))
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
	keep_or_skip(c, j, before, rc, lossy, verified, doc);
	c->cur = NULL;
	xq_buf_release(&own);
}

/* ---- setup ------------------------------------------------------------------------ */

static int open_single_output(struct output *c)
{
	struct report_message m = {""};
	int rc;

	rc = xq_file_open(&c->out, c->out_path ? c->out_path : "-",
			  (c->force ? XQ_WRITE_FORCE : 0) | (c->sync == SYNC_NONE ? XQ_WRITE_NO_SYNC : 0) |
				  (c->fault_named_temp ? XQ_WRITE_NAMED_TEMP : 0),
			  report_keep_message, &m);
	if (rc) {
		/* A FIFO with no reader: open() waits for one, until a signal. */
		if (cmd_signal)
			cmd_error("interrupted: nothing was written");
		else
			cmd_error("%s", m.msg);
		return -1;
	}
	/* What the writer adds around the games, for --verify. */
	if (c->verify) {
		xq_writer *w = NULL;
		xq_file *f = NULL;
		if (open_mem_writer(c, &w, &f) == 0) {
			drain(c, &c->prefix);
			xq_writer_close(w); /* its end, into c->mem: the file stays open */
			xq_file_commit(f, NULL, NULL);
			drain(c, &c->suffix);
		}
	}
	if ((rc = open_mem_writer(c, &c->writer, &c->mem_out))) {
		if (diag_list_count(&c->scratch))
			cmd_error("%s", xq_diagnostic_message(diag_list_at(&c->scratch, 0)));
		else
			cmd_error("cannot write %s: %s", c->to, xq_error_string(rc));
		diag_list_clear(&c->scratch);
		xq_file_abort(c->out);
		c->out = NULL;
		return rc == XQ_EUNSUPPORTED ? 2 : -1;
	}
	/* Whatever the writer starts a document with goes out first. */
	{
		struct xq_buf head = XQ_BUF_INIT;
		rc = drain(c, &head) ? XQ_ENOMEM : xq_file_write(c->out, head.ptr, head.len);
		xq_buf_release(&head);
		if (rc) {
			cmd_error("cannot write to '%s'", xq_file_name(c->out));
			return -1;
		}
	}
	return 0;
}

static int finish_single_output(struct output *c, int commit)
{
	struct xq_buf tail = XQ_BUF_INIT;
	struct report_message m = {""};
	int rc = 0;

	if (!c->out)
		return 0; /* --dry-run: none was opened */
	if (c->writer) {
		c->cur = NULL;
		/* What the writer writes last (an HTML page's index) goes on to
		 * the output as it comes, never held whole; an output that is
		 * not kept gets no end at all. */
		if (commit && xq_file_pass_to(c->mem_out, c->out))
			commit = 0, c->io_error = 1;
		if (!commit)
			xq_writer_abort(c->writer);
		/* After a game the writer refused, closing it says that again:
		 * its own failure is then the memory it could not write to. */
		else if (xq_writer_close(c->writer) && (!c->writer_failed || xq_buf_error(&c->mem)))
			commit = 0, c->io_error = 1;
		c->writer = NULL;
	}
	/* (Passing its bytes on may have failed: then the output is not kept.) */
	if (c->mem_out && (rc = xq_file_commit(c->mem_out, NULL, NULL)) != 0 && commit) {
		cmd_error("%s the end of '%s'", rc == XQ_ENOMEM ? "out of memory writing" : "cannot write",
			  xq_file_name(c->out));
		commit = 0, c->io_error = 1;
	}
	rc = 0;
	c->mem_out = NULL;
	if (drain(c, &tail) || (commit && xq_file_write(c->out, tail.ptr, tail.len)))
		commit = 0;
	xq_buf_release(&tail);
	if (commit && c->written == 0 && c->out_kind != XQ_FILE_DIRECT) {
		/* An output is kept only when a game was written to it: a
		 * run that read nothing leaves no file, and one it would have
		 * replaced as it was. */
		xq_file_abort(c->out);
		c->out = NULL;
		cmd_warning("no game was written, so '%s' %s", c->out_path,
			    c->out_kind == XQ_FILE_REPLACE ? "is as it was" : "was not made");
		return 0;
	}
	if (commit) {
		rc = xq_file_commit(c->out, report_keep_message, &m);
		if (rc)
			cmd_error("%s", m.msg);
		else
			c->kept = c->written;
	} else if (c->out_kind == XQ_FILE_DIRECT) {
		/* Written as it went: what is still buffered goes too, and
		 * whether it reached the stream is known. */
		if (xq_file_commit(c->out, NULL, NULL) == 0)
			c->kept = c->written;
		rc = -1;
	} else {
		xq_file_abort(c->out);
		rc = -1;
	}
	/* What the output holds: a file only once put in place; a stream
	 * what reached it (flush_direct()). */
	c->written = rc == 0 || c->out_kind == XQ_FILE_DIRECT ? c->kept : 0;
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
	if (errno || end == v || *end || n < 1 || n > 65535)
		return opt_error(p, "--format-version must be a number like 18, 0x12 or 1.8, not '%s'", v);
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
		if (!*value)
			return opt_error(p, "--name needs a template");
		c->template = value;
		break;
	case O_NOTATION:
		if (movetext_parse(value, &mt))
			return opt_error(p, "--notation must be one of " MOVETEXT_NAMES ", not '%s'", value);
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
	const char *name;
	unsigned caps;

	if (!(c->to = format_by_name(c->to_name, 1, p->err, sizeof(p->err))))
		return -1;
	/* The options as the format's writer takes them, and what it can do. */
	c->wopts.format = c->to;
	for (size_t i = 0; xq_format_info(i, &name, NULL, &caps) == 0; i++)
		if (!strcmp(name, c->to)) {
			c->caps = caps;
			xq_format_names(i, &c->extensions, NULL);
			break;
		}
	c->separator = xq_format_separator(c->to);
	if (c->wopts.encoding && !xq_encoding_canonical(c->wopts.encoding))
		return opt_error(p, "unknown encoding '%s'", c->wopts.encoding);
	if (input_opts_check(in, p))
		return -1;
	if (c->out_path && !strcmp(c->out_path, "-"))
		c->out_path = NULL;
	c->dir_mode = c->out_path && is_dir_path(c->out_path);
	if (c->verify && !(c->caps & XQ_FORMAT_READS))
		return opt_error(p, "--verify: xqkit cannot read %s back", c->to);
	if (c->dry_run) {
		if (!c->out_path)
			return 0; /* nothing is written: no output to check */
		return opt_error(p, "--dry-run writes nothing: leave out -o");
	}
	if (in->fmt == REPORT_NDJSON && !c->out_path)
		return opt_error(p, "--format ndjson writes to standard output: give -o for the records");
	if (!c->dir_mode && !(c->caps & XQ_FORMAT_MULTI) &&
	    (p->noperands > 1 || in->recursive || in->files0))
		return opt_error(p, "%s holds one game per file: to convert several inputs, write to a directory with -o DIR/",
				 c->to);
	if (!c->out_path && (c->caps & XQ_FORMAT_BINARY) && isatty(1))
		return opt_error(p, "%s is binary: give -o FILE rather than writing it to a terminal", c->to);
	return 0;
}

/* DIR/ made, never read, and with --force every input known first (its
 * files are replaced during the run): 0, or an exit status. */
static int prepare_dir(struct output *c, struct inputs *inputs)
{
	size_t len = strlen(c->out_path);
	struct report_message m = {""};

	if (!(c->dir = malloc(len + 2))) {
		cmd_error("out of memory naming the output directory");
		return CMD_EXIT_IO;
	}
	memcpy(c->dir, c->out_path, len + 1);
	if (c->dir[len - 1] != '/')
		memcpy(c->dir + len, "/", 2);
	if (mkdir(c->dir, 0777) == 0)
		c->made_dir = 1;
	else if (errno != EEXIST) {
		cmd_error("cannot create the directory '%s': %s", c->dir, strerror(errno));
		return CMD_EXIT_IO;
	}
	inputs_exclude(inputs, c->dir);
	if (c->force && inputs_prescan(inputs, report_keep_message, &m)) {
		cmd_error("%s", m.msg);
		return CMD_EXIT_IO;
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
	c->out_kind = XQ_FILE_DIRECT; /* standard output */
	if (c->out_path && (inputs_guard(inputs, c->out_path, report_keep_message, &m) ||
			    (c->out_kind = xq_file_check(c->out_path, c->force ? XQ_WRITE_FORCE : 0,
							 report_keep_message, &m)) < 0))
		return cmd_usage_error(c->cmd, "%s", m.msg);
	if ((rc = open_single_output(c)) != 0)
		return cmd_signal ? cmd_signal_status() : rc == 2 ? CMD_EXIT_USAGE : CMD_EXIT_IO;
	return 0;
}

/* Say what a signal left behind. */
static void interrupted(struct output *c)
{
	uint64_t written;

	/* A file output is removed; what reached standard output is whole games. */
	if (!c->dir_mode)
		finish_single_output(c, 0);
	written = c->written;
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

int output_emit_status(struct output *o)
{
	if (cmd_signal || inputs_conflict(o->inputs))
		o->stop = 1;
	return o->stop ? 1 : 0;
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
		return CMD_EXIT_USAGE;
	}
	if (cmd_signal) {
		/* Stopping promptly comes first: the files are kept unsynced. */
		interrupted(c);
		unmake_dir(c);
		summary(ctx, cmd_now() - t0);
		return cmd_signal_status();
	}
	if (!c->dir_mode && finish_single_output(c, !c->io_error && !c->too_many) &&
	    !c->too_many)
		c->io_error = 1;
	unmake_dir(c);
	sync_dir(c);
	summary(ctx, cmd_now() - t0);
	if (c->disk_full)
		cmd_error("the disk is full: stopped after %llu file%s written under '%s'",
			  (unsigned long long)c->written, c->written == 1 ? "" : "s", c->dir);
	return c->io_error  ? CMD_EXIT_IO
	       : c->refused ? CMD_EXIT_USAGE
			    : reporter_status(rep, c->skipped);
}

int output_grep_status(const struct output *c, const struct reporter *rep, int rc, int found)
{
	if (rc >= CMD_EXIT_USAGE)
		return rc;
	if (rep->io_error || c->io_error)
		return CMD_EXIT_IO;
	if (!found || c->skipped > c->broken_skipped)
		return CMD_EXIT_INVALID;
	return CMD_EXIT_OK;
}

void output_init(struct output *c, const char *cmd)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	c->wopts = (xq_write_options)XQ_WRITE_OPTIONS_INIT;
	c->template = NAME_TEMPLATE_DEFAULT;
	xq_buf_init(&c->mem);
	xq_buf_init(&c->prefix);
	xq_buf_init(&c->suffix);
	xq_buf_init(&c->joined);
}

void output_release(struct output *c)
{
	free(c->dir);
	name_set_release(&c->names);
	diag_list_release(&c->scratch);
	xq_buf_release(&c->mem);
	xq_buf_release(&c->prefix);
	xq_buf_release(&c->suffix);
	xq_buf_release(&c->joined);
}
